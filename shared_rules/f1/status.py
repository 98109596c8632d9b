# Where a car stands in the race.

RACING = "racing"
SPUN = "spun"  # on a spin-off point (or beside the track after a forced braking spin)
PIT = "pit"
FINISHED = "finished"
OUT = "out"  # only with the WORN_OUT variant
STATUSES = (RACING, SPUN, PIT, FINISHED, OUT)
