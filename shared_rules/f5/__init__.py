# Formula 5, the racing card game: cards.py (card ids, speeds), game.py (the table and its events),
# bot.py (seat fillers for a solo player).
