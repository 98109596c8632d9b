"""Phones as dashboards: each phone runs the dashboard's own firmware in its browser, linked to the tablet.

    server.py   the web server (aiohttp, in a thread with its own asyncio loop): each seat's page and its link
                socket behind a random token; the link socket is a port of the transport, as a Pico's USB port
    assets.py   the seat page that runs the firmware in the phone's browser (static/: the page, its script, the
                vendored MicroPython WebAssembly runtime), the firmware's modules, and the routes that serve them
    seats.py    the tokens, the port and each seat's phone, kept with the game (so phones find the tablet again
                after a restart)
    table.py    what the app uses: which seats are served to phones, their addresses, pairing a phone that links
                to its seat by the token, starting and stopping the server
    qr.py       the pairing screen's QR codes (segno), as Kivy textures
"""
