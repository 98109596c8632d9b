# Where a car stands in the race. The values are defined with the car's state (car_state.py), which the dashboard
# loads anyway: a module of their own cost it ~0.5 KB of heap.

from shared_rules.f1.car_state import RACING, SPUN, PIT, FINISHED, OUT, STATUSES  # noqa: F401  (re-exported)
