"""What makes the race screen draw a frame again, in the real app (offscreen window, tests/companion/appdriver.py's
drive(); run by tests/companion/test_race_screen_redraws.py):

    python -m tests.companion.race_screen_redraws OUT.json

Two cars, their dashboards on the tablet. A car's link in words beside it (companion/link_words.py, set here in place
of the transport's) is too long for its panel and is shortened in its middle. New words that differ only in the part
cut out look the same: the screen left alone while they change draws no frame. New words that differ where they can
be seen are drawn.
"""

import sys

from tests.companion.appdriver import dashboards_agree, drive, setup_and_pair

LONG = "%s: linked, last answer %d s ago, 3 sent again"  # a car's link words, longer than its panel
QUIET_S = 5


def link_words_in_their_middle(d):
    from kivy.core.window import Window

    from companion import link_words

    app = d.app
    yield from setup_and_pair(d, players=2)
    yield lambda: dashboards_agree(app)
    panel = sorted(app.f1.car_rows, key=lambda p: p.seat)[0]
    label = panel.ids.link_words
    said = {}  # dev -> the words the transport says of its link (the other car: plainly linked, nothing said)
    real_of, real_beside = link_words.of, link_words.beside_the_car
    link_words.of = lambda transport, links, dev, virtual=False: said.get(dev, "")
    # the label itself is what is tested: words too long for it, set whole (the race screen's own words are short)
    link_words.beside_the_car = lambda line: line
    flips = []

    def flipped(*_):
        flips.append(1)

    Window.bind(on_flip=flipped)
    try:

        def words_shown(words):
            """The words set for the first car, then asked again by the race screen and on its label, and frames
            drawn since on the app's stepped clock."""
            said[panel.dev] = words
            asked = app.f1.links_said
            yield 0.6  # the app's clock: past the race screen's LINK_WORDS_EVERY_S
            yield lambda: app.f1.links_said > asked and label.text == words
            yield 0.1

        yield from words_shown(LONG % ("phone", 33))
        first = label.texture
        d.note("shortened", label.is_shortened)
        flips.clear()
        # The race screen left alone for QUIET_S of the app's time (a quiet table, a player thinking): only the age
        # of the car's last answer moves, a second at a time, in the part cut out of the middle
        for age in range(34, 34 + QUIET_S):
            yield from words_shown(LONG % ("phone", age))
        d.note("middle", {"same_texture": label.texture is first, "flips": len(flips), "text": label.text})
        flips.clear()
        yield from words_shown(LONG % ("Wi-Fi", 40))  # the way changed: at the start, in view
        d.note("end", {"same_texture": label.texture is first, "flips": len(flips), "text": label.text})
    finally:
        link_words.of, link_words.beside_the_car = real_of, real_beside
        Window.unbind(on_flip=flipped)


if __name__ == "__main__":
    drive(link_words_in_their_middle, sys.argv[1])
