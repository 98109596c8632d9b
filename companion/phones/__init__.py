"""Phones as dashboards: the tablet serves each seat's virtual dashboard to its player's phone.

    server.py   the web server (aiohttp, in a thread with its own asyncio loop): one page and one WebSocket per
                seat, behind a random token; OLED frames to the page, the five button names back; and each
                seat's link socket, the game link of a phone running the firmware itself (a transport port)
    seats.py    the tokens and the port, kept with the game (so phones find the tablet again after a restart)
    table.py    what the app uses: which seats are on phones, their addresses, starting and stopping the server
    qr.py       the pairing screen's QR codes (segno), as Kivy textures
    page.html   the page itself (package data): a canvas and five buttons, no rule of either game
    assets.py   the seat page that runs the dashboard's own firmware in the phone's browser (static/: the page, its
                script, the vendored MicroPython WebAssembly runtime), and the routes that serve it
"""
