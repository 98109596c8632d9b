"""Putting the dashboard onto a Pico, and the files it is made of (the app's, not a checkout's).

    sources.py      where the firmware and shared_rules sources are: inside the installed app (files/), or the
                    checkout's own folders when the app runs from one
    manifest.py     firmware/manifest.py read on the host: the one list of the modules a Pico runs
    mpy_build.py    mpy-cross over those modules, as they go onto a Pico (and to the phones' seat pages)
    flash.py        `formula1 flash [--port P]` (tools/flash.py, `make flash`): mpremote copies them to a Pico
"""
