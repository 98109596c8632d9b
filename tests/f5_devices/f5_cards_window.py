"""Formula 5 followed from across the table, in the real app in a real (offscreen) window:
the columns as cards, the overtakes told long enough to read, the history, the results; and every Formula 5
screen at the sizes a table may have. Driven by tests/companion/appdriver.py's drive(), one app a process:

    python -m tests.f5_devices.f5_cards_window SCENARIO OUT.json SHOTS_DIR"""

import sys
import time

from shared_rules.f5 import bot
from shared_rules.f5.game import PIT, RACE

from tests.companion.appdriver import as_time_passes, click, drive, layout_faults, tap

TWO = ["none", "bot", "none", "bot", "none"]  # two players (bots), three cars without a player
SIZES = [(800, 480), (1024, 600), (1280, 800), (1920, 1200)]
LONG_NAME = "Maximiliana Montgomery-Smythe"
LOOK_S = 0.1  # the app's time a look at the table (a tick of the driver) steps on, while a message is timed


def labels(root):
    from kivy.uix.label import Label

    return [w for w in root.walk(restrict=True) if isinstance(w, Label) and w.text]


def texts(root):
    return [w.text for w in labels(root)]


def find_button(root, text):
    """The button showing `text`, or None (today's main has no History or Results on the table)."""
    from kivy.uix.behaviors import ButtonBehavior

    for w in root.walk(restrict=True):
        if isinstance(w, ButtonBehavior) and getattr(w, "text", None) == text and w.opacity > 0 and w.width > 1:
            return w
    return None


def cards_in(widget):
    """The race cards drawn inside `widget`, left to right."""
    cards = [w for w in widget.walk(restrict=True) if type(w).__name__ == "F5Card"]
    return sorted(cards, key=lambda c: c.to_window(c.x, c.y)[0])


def column_facts(app):
    """For each position, 1st first: its public column, the cards drawn in its row (their public faces, backs),
    the narrowest strip of a card left in view (px) and whether every card lies inside its row."""
    ref = app.f5.ref
    columns = ref.table()["columns"]
    out = []
    for pos, car in enumerate(ref.game.order):
        row = app.f5.rows[car]
        cards = cards_in(row)
        xs = [c.to_window(c.x, c.y)[0] for c in cards]
        ends = [c.to_window(c.right, c.top) for c in cards]
        rx, ry = row.to_window(row.x, row.y)
        rx2, ry2 = row.to_window(row.right, row.top)
        strips = [b - a for a, b in zip(xs, xs[1:], strict=False)] + ([cards[-1].width] if cards else [])
        out.append({
            "column": list(columns[pos]),
            "entries": [int(c.entry) for c in cards],
            "backs": [bool(c.back) for c in cards],
            "least_strip": min(strips) if strips else 0,
            "inside": all(x >= rx - 1 and e[0] <= rx2 + 1 and e[1] <= ry2 + 1 and c.to_window(c.x, c.y)[1] >= ry - 1
                          for x, e, c in zip(xs, ends, cards, strict=True)),
        })
    return out


def shown_cards(app):
    """Every card face in the tablet's widget tree (all screens): what a hand must never be part of."""
    return [int(w.entry) for w in app.root.walk() if type(w).__name__ == "F5Card"]


def small_texts(app, screen, least=16):
    """Texts on `screen` drawn under `least` px (font size), but in the pane of the virtual dashboards: their tabs
    and the dashboard widget are the app's, shared with Formula 1 (its theme.font floor is on the branch i25fix)."""
    ids = app.screen(screen).ids
    inside_dash = set()
    if "dash_pane" in ids:
        inside_dash.update(id(x) for x in ids.dash_pane.walk(restrict=True))
    return ["%r %.1f" % (w.text[:30], w.font_size) for w in labels(app.screen(screen))
            if w.font_size < least - 0.01 and id(w) not in inside_dash and w.opacity > 0]


def play_to_end(ref):
    """Every remaining move at once: the tablet's cars as it plays them, a player's through its dashboard's
    event (the bot's choice), as a burst of moves would arrive."""
    while not ref.game.over:
        if ref.tablet_plays():
            ref.auto_move()
            continue
        event = bot.choose(ref.game)
        args = {"k": len(ref.game.events), "card": event[2]}
        if event[0] == PIT:
            args["d"] = event[3]
        assert event[0] in (RACE, PIT)
        assert ref.on_dashboard_event(event[1], "f5race" if event[0] == RACE else "f5pit", args) is None


def until(cond, seconds):
    """A step that waits for `cond`, or gives up after `seconds` (the test then sees what was not there)."""
    end = time.monotonic() + seconds
    return lambda: cond() or time.monotonic() > end


def start_game(d, roles):
    app = d.app
    yield tap(app.screen("games").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    app.f5.form.roles = list(roles)
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)


def follow(d):
    """A two-player game at the tablet's own pace: how long the first overtake stays in words, two moves
    arriving together, then fast to the end: the cards, the history, the results, Saved games' Results."""
    app = d.app
    yield lambda: app.bridge is not None
    yield from start_game(d, TWO)
    yield lambda: app.sm.current == "f5table"
    table = app.screen("f5table")
    ids = table.ids
    ref = app.f5.ref
    watch = {"t0": None, "text": None, "gone": None, "later": []}
    clock = app.clock  # the table's timers run on it: each look steps it on (LOOK_S), nobody sleeps

    def overtake_watched():
        clock.step(LOOK_S)
        now = clock.now()
        shown = [t for t in texts(table) if " overtakes " in t]
        if watch["t0"] is None:
            if shown:
                watch["t0"], watch["text"], watch["events"] = now, shown[0], len(ref.game.events)
                watch["glow"] = max(getattr(r, "glow", 0) for r in app.f5.rows.values())  # the overtaker's row lit
            return False
        if watch["text"] not in shown:
            watch["gone"] = now
            return True
        return now - watch["t0"] > 6.0

    yield overtake_watched
    d.note("overtake_text", watch["text"])
    d.note("overtake_shown_s", round((watch["gone"] or clock.now()) - watch["t0"], 2))
    d.note("played_on", len(ref.game.events) > watch["events"])  # the game went on after it
    d.note("overtake_glow", watch["glow"])
    # Two moves arriving together (two dashboards' events in one poll): both told, one after the other.
    app.f5.auto_s = 3600.0  # the tablet plays no car of its own meanwhile
    announcer = getattr(app.f5, "announcer", None)
    yield as_time_passes(app, lambda: announcer is None or not announcer.busy())
    d.note("hands_mid_game", [ref.game.hand(c) for c in range(5)])
    d.note("cards_mid_game", shown_cards(app))
    d.note("columns_mid_game", column_facts(app))
    movers = []
    for _ in range(2):
        movers.append(ref.names()[ref.game.to_move()])
        ref.auto_move()
    seen = []
    t0 = clock.now()

    def both_told():
        clock.step(LOOK_S)
        text = ids.last.text
        if not seen or seen[-1][0] != text:
            seen.append([text, round(clock.now() - t0, 2)])
        return clock.now() - t0 > 5.0

    yield both_told
    d.note("movers", movers)
    d.note("told", seen)
    # History by a double tap; a move arrives while it is read: it is listed at the top, and told on the table.
    history = find_button(table, "History")
    if history is not None:
        click(history)
        click(history)
        yield 0.2
        shown = app.sm.current
        lines = app.screen("f5history").ids.lines
        before = len(lines.children)
        mover = ref.names()[ref.game.to_move()]
        ref.auto_move()
        yield until(lambda: len(lines.children) > before, 10.0)
        top = [w.text for w in reversed(lines.children)][:2]
        d.note("history_live", [shown, len(lines.children) - before, any(t.startswith(mover) for t in top)])
        app.back()
        yield until(lambda: ids.last.text.startswith(mover), 10.0)
        d.note("history_back", [app.sm.current, ids.last.text.startswith(mover)])
    # Fast to the end: the cards, the history, the results.
    app.f5.auto_s = app.f5.read_s = app.f5.glance_s = 0.02
    yield lambda: ref.game.over
    yield 1.5  # the last slide
    d.note("columns_over", column_facts(app))
    d.note("events", len(ref.game.events))
    d.shot("follow-over")
    history = find_button(table, "History")
    d.note("history_button", history is not None)
    if history is not None:
        yield tap(history)
        d.note("history_screen", app.sm.current)
        d.note("history", texts(app.screen(app.sm.current)))
        d.shot("follow-history")
        app.back()
        yield 0.1
        d.note("after_history", app.sm.current)
    results = find_button(table, "Results")
    d.note("results_button", results is not None)
    if results is not None:
        yield tap(results)
        d.note("results_screen", app.sm.current)
        d.note("results", texts(app.screen(app.sm.current)))
        d.shot("follow-results")
        app.back()
        yield 0.1
        d.note("after_results", app.sm.current)
    d.note("winner", ref.names()[ref.game.winner()])
    d.note("standings", [ref.names()[c] for c in ref.game.order])
    # Saved games: the finished game's Results
    app.f5.leave()
    yield 0.1
    yield tap(app.screen("games").ids.saved)
    yield 0.3
    rows = [w for w in app.screen("saved").ids.games.children if "Formula 5" in getattr(w, "players", "")]
    d.note("saved_rows", len(rows))
    if rows:
        button = rows[0].ids.open
        d.note("saved_results", [button.text, button.disabled])
        yield tap(button)
        yield 0.3
        d.note("saved_results_screen", app.sm.current)
        d.note("saved_results_texts", texts(app.screen(app.sm.current)))
        app.back()
        yield 0.2
        d.note("saved_results_back", app.sm.current)
        app.back()
        yield 0.2
        d.note("saved_back", app.sm.current)  # Saved games' Back: to the game choice it was opened from


def looks(d):
    """Every Formula 5 screen at four sizes, for five players (one dashboard on this tablet: its pane narrows
    the table; four bots; a name longer than its box) and for two: the setup, the table at the start, mid-game
    and over (every column full), the history and the results. Screenshots in SHOTS_DIR."""
    from kivy.core.window import Window

    app = d.app
    fits = {}
    d.note("fits", fits)

    def look(screen, key, facts=None):
        for w, h in SIZES:
            Window.size = (w, h)
            yield 0.4
            name = "%s-%dx%d" % (key, w, h)
            fit = fits[name] = {"faults": layout_faults(app, screen, w, h)}
            if (w, h) == SIZES[0]:
                fit["small"] = small_texts(app, screen)
            if facts is not None:
                fit.update(facts())
            d.shot("f5-" + name)
        Window.size = SIZES[2]
        yield 0.2

    def table_facts():
        return {"columns": column_facts(app)}

    yield lambda: app.bridge is not None
    yield tap(app.screen("games").ids.choose_f5)
    yield lambda: app.sm.current == "f5setup"
    yield from look("f5setup", "setup")
    app.f5.form.roles = ["dashboard", "bot", "bot", "bot", "bot"]
    app.f5.form.names = ["Red", "Yellow", LONG_NAME, "Blue", "White"]
    app.f5._fill_roles()
    yield tap(app.screen("f5setup").ids.start)
    yield lambda: app.sm.current == "pairing"
    rows = list(reversed(app.screen("pairing").ids.seats.children))
    yield tap(rows[0].virtual_button)  # "Show it on this tablet instead"
    yield lambda: any(dev == "f5-virtual-1" for dev, _s in app.bridge.dashboards())
    yield tap(app.screen("pairing").ids.go)
    yield lambda: app.sm.current == "f5table" and len(app.f5.oleds) == 1
    app.f5.auto_s = 3600.0
    yield 0.5
    yield from look("f5table", "table-5p-start", table_facts)
    play_to_end(app.f5.ref)
    app.f5.read_s = app.f5.glance_s = 0.01  # the burst's messages: the last one up at once
    yield 2.0
    yield from look("f5table", "table-5p-over", table_facts)
    app.f5.show_history()
    yield from look("f5history", "history-5p")
    app.f5.show_results()
    yield from look("f5results", "results-5p")
    app.f5.leave()
    yield 0.2
    yield from start_game(d, TWO)
    yield lambda: app.sm.current == "f5table"
    app.f5.auto_s = app.f5.read_s = app.f5.glance_s = 0.01
    ref = app.f5.ref
    yield lambda: ref.game.round >= 7
    app.f5.auto_s = 3600.0
    yield 1.5
    yield from look("f5table", "table-2p-mid", table_facts)
    app.f5.auto_s = 0.01
    yield lambda: ref.game.over
    yield 1.5
    yield from look("f5table", "table-2p-over", table_facts)
    app.f5.show_history()
    yield from look("f5history", "history-2p")
    app.f5.show_results()
    yield from look("f5results", "results-2p")


SCENARIOS = {"follow": follow, "looks": looks}


def main(argv):
    drive(SCENARIOS[argv[0]], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
