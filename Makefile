# Three commands matter: `make run` (the tablet app), `make test` (everything) and `make check` (the fast tier).
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(not (3,11) <= sys.version_info[:2] <= (3,13))' 2>/dev/null && echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
STUBS := typings/.installed

.PHONY: run test check bench lint typecheck clean

$(STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11-3.13 is needed"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.txt
	touch $@

# The Pico's real API, for the type checker only (never imported at run time).
$(STUBS): $(STAMP)
	rm -rf typings
	$(BIN)/python -m pip install -q --no-deps --target typings \
		micropython-rp2-rpi-pico-stubs==1.29.0.post1 micropython-stdlib-stubs==1.29.0.post2
	touch $@

# `make run PORT=/dev/ttyACM0` (or PORT="/dev/rfcomm0 /dev/ttyUSB0"): those ports are scanned too, whatever
# their USB id (a Pico behind another adapter, a Bluetooth serial port, the emulator's pty).
run: $(STAMP)
	$(BIN)/python -m companion $(foreach p,$(PORT),--port $(p))

# Everything (CI runs it). The tests that take longest start first (tests/conftest.py orders them), and each
# worker is handed one test at a time (--maxschedchunk 1), so that no worker gets a run of long ones at once.
# Four workers on two cores: much of a test's time is spent waiting on other processes (the emulated Pico,
# browsers, dashboards, sockets) with a core idle (two workers kept 1.24 cores busy, three 1.45; four took the
# suite from about 570 s to about 460 s).
WORKERS := 4
test: $(STAMP) $(STUBS)
	$(BIN)/ruff check .
	$(BIN)/pyright
	$(BIN)/python -m pytest -q -n $(WORKERS) --maxschedchunk 1 --durations=10 tests

# The fast tier, while working: all but the tests marked as playing a whole race or game, running on the
# emulated Pico, in a browser or in the app's window, or slow for another reason (markers in pyproject.toml).
FAST_TIER := not (whole or picosim or browser or window or slow)
check: $(STAMP) $(STUBS)
	$(BIN)/ruff check .
	$(BIN)/pyright
	$(BIN)/python -m pytest -q -n $(WORKERS) --maxschedchunk 1 -m "$(FAST_TIER)" tests

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) typings

# The dashboard enclosure for 3D printing, rendered by Debian's openscad (see hardware/README.md).
STL := hardware/build/enclosure.stl
.PHONY: stl
stl: $(STL)
$(STL): hardware/enclosure.scad
	mkdir -p $(@D)
	openscad --hardwarnings -o $(basename $@).tmp.stl $< && mv $(basename $@).tmp.stl $@

# Flash one dashboard over USB: `make flash` (mpremote finds the Pico) or `make flash PORT=/dev/ttyACM0`. No
# internet is needed, and no driver: the dashboard drives its OLED itself. tools/flash.py says what failed and why.
.PHONY: flash
flash: $(STAMP)
	@echo "make flash: the Pico on USB$(if $(PORT), at $(PORT))"
	$(BIN)/python tools/flash.py $(if $(PORT),--port $(PORT))
