# Formula 1 (1962): the charts, the cards, one car's dashboard, the table, the exact odds.
