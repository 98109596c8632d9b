# Runs on MicroPython: a scripted 6-player, 3-lap Formula 1 race, without an event log (the dashboard
# and a small heap never keep one). Prints "finished <turns>" when the race is over.
import gc
from shared_rules.rng import Rng
from shared_rules.f1.race import Race
from shared_rules.f1.autoplay import play_game

race = Race(2026, ["a", "b", "c", "d", "e", "f"], 3, keep_log=0)
turns = play_game(race, Rng(7))
gc.collect()
print("finished %d" % turns if race.game_over else "unfinished")
