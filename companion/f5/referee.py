"""The Formula 5 referee: one game of the card game on the tablet, its log, and the dashboards' commands.

The table is shared_rules.f5's Game. The tablet holds every hand (it deals them) but never shows one: the
screens get `table()`, the engine's public view. Each player's hand goes only to that player's dashboard, in
one idempotent `f5` command (the seat's whole view; see firmware/ondemand/f5_ui.py), sent again whenever that view
changes. A player answers with an `f5race` or `f5pit` event carrying the view's turn token `k` (the number of
game events so far), so an event from an earlier turn, repeated or late, is never played again.

Cars without a player and the bots (the seats a solo player filled) are played by the tablet itself:
`auto_move()` plays one such turn, the screen calls it at its own pace so the overtakes can be watched.

The log (companion.eventlog, SQLite, append-only) holds the setup, then every move as the engine's
event, and the pairings: reopening it replays the same game exactly (all chance comes from the seed).
"""

from shared_rules.errors import RuleError
from shared_rules.f5 import bot
from shared_rules.f5.cards import CAR_NAMES, CARS
from shared_rules.f5.game import PIT, RACE, Game

from companion.eventlog import LogError
from companion.referee_base import SeatedReferee

GAME = "f5"


def default_names():
    return [n.capitalize() for n in CAR_NAMES]


class F5Referee(SeatedReferee):
    """Formula 5's referee; its log, seats, outbox and taken events are SeatedReferee's (companion/referee_base.py)."""

    GAME = GAME  # which game this referee plays (Formula 5): the link bridge asks, never guesses
    TITLE = "Formula 5"  # its name in messages

    def __init__(self, log, entries):
        """Use F5Referee.new or F5Referee.open (which checks that the log is a Formula 5 game's)."""
        super().__init__(log, entries)
        first = entries[0]
        self.seed = first.get("seed")
        self.players = first.get("players")
        self.bots = list(first.get("bots") or [])
        names = first.get("names")
        self.names_ = list(names) if isinstance(names, list) and len(names) == CARS else default_names()
        moves = []
        for entry in entries[1:]:
            t = entry.get("t")
            if t == "move":
                moves.append(entry.get("ev"))
            elif t == "pair":
                self._take_pair(entry)  # pairs: car -> dashboard id
        try:
            self.game = Game.replay([["setup", self.seed, self.players]] + moves)
        except RuleError as e:
            raise LogError("the game log does not replay: %s" % e)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            raise LogError("the game log is not a game these rules allow (%s)" % e)
        self.last = None  # the last turn's result (for the screen's overtake animation), public parts only
        self.sent = {}  # car -> the last view queued for its dashboard
        self.held = False  # the table is still pairing its dashboards: the game has not started (hold, start)

    # ---- opening and creating -------------------------------------------------------------------------

    @classmethod
    def new(cls, path, players, bots=(), names=None, seed=None):
        """A new game: `players` the cars with a player (dashboards or bots), `bots` those the tablet plays."""
        seed = cls._new_seed(path, seed)
        players = list(players)
        bots = sorted(set(bots))
        Game(seed, players)  # checks the setup before anything is written
        for b in bots:
            if b not in players:
                raise RuleError("bad_setup", "A bot plays a car with a player")
        names = list(names) if names else default_names()
        if len(names) != CARS:
            raise RuleError("bad_setup", "Five names, one a car")
        return cls._create(path, seed=seed, players=sorted(players), bots=bots, names=names)

    # ---- reading the table (public only) --------------------------------------------------------------

    def names(self):
        return list(self.names_)

    def table(self):
        """What the tablet may show: the engine's public view, the names, who plays each car, the last turn."""
        view = self.game.public()
        view["names"] = self.names()
        view["bots"] = list(self.bots)
        view["last"] = self.last
        return view

    def controller(self, car):
        """Who moves this car: 'deck' (no player), 'bot', 'dashboard' (paired) or 'waiting' (no dashboard)."""
        if not self.game.is_player(car):
            return "deck"
        if car in self.bots:
            return "bot"
        return "dashboard" if car in self.pairs else "waiting"

    def tablet_plays(self):
        car = self.game.to_move()
        return car is not None and not self.held and self.controller(car) in ("deck", "bot")

    def hold(self):
        """The table is pairing its dashboards: each is told the game waits for its start (no turn is anyone's),
        and a move sent meanwhile is refused, never kept for later."""
        if not self.held:
            self.held = True
            for car in sorted(self.pairs):
                self._queue_view(car, force=1)

    def start(self):
        """The table's Start: the dashboards get their turns."""
        if self.held:
            self.held = False
            for car in sorted(self.pairs):
                self._queue_view(car, force=1)

    # ---- moves ----------------------------------------------------------------------------------------

    def _act(self, event, taken=None):
        """Apply one engine event, log it (with the dashboard event that made it, if any), tell the dashboards.
        RuleError: refused, nothing changed."""
        before = self.game.snapshot()
        result = self.game.apply(event)  # RuleError: nothing changed, nothing logged
        try:
            # The dashboard event's id in the same transaction: both kept, or neither.
            self.log.append({"t": "move", "ev": list(self.game.events[-1])}, taken)
        except LogError:
            self.game = Game.replay(before["events"])  # the log is the truth: what it lacks did not happen
            raise
        if taken is not None:
            self.taken.added(taken)
        self.entries.append({"t": "move", "ev": list(self.game.events[-1])})
        self.last = {
            "car": result["car"],
            "speed": result["speed"],
            "overtaken": list(result["overtaken"]),
            "pit": event[0] == PIT,
            "round_over": result["round_over"],
        }
        drawn = result["drawn"] if event[0] == PIT else []
        self._tell(result["car"], drawn)
        return result

    def auto_move(self):
        """Play the turn of a car the tablet drives (a car without a player, or a bot). None if not its turn."""
        if not self.tablet_plays():
            return None
        return self._act(bot.choose(self.game))

    def on_dashboard_event(self, seat, name, args, taken=None):
        """A player chose on their dashboard. Returns None, or the RuleError (their view is sent again).

        taken=(dashboard id, event id): the event is taken once per game, across restarts: one taken already
        (before a crash that ate its ack) changes nothing and returns None."""
        if self._taken_before(taken):
            return None
        try:
            if self.held:
                raise RuleError("not_started", "The table has not started the game yet")
            if not isinstance(args, dict) or args.get("k") != len(self.game.events):
                raise RuleError("stale", "That move was for another turn")
            if name == "f5race":
                self._act([RACE, seat, args.get("card")], taken)
            elif name == "f5pit":
                d = args.get("d")
                self._act([PIT, seat, args.get("card"), list(d) if isinstance(d, list) else d], taken)
            else:
                raise RuleError("event", "unknown dashboard event")
        except RuleError as e:
            self._queue_view(seat, force=1)
            self._refused(taken)
            return e
        return None

    # ---- dashboards -----------------------------------------------------------------------------------

    # ---- seats: a player's car (pair() and seat_of() are SeatedReferee's) ------------------------------

    def _pair_refused(self, car):
        if not isinstance(car, int) or not 0 <= car < CARS or not self.game.is_player(car) or car in self.bots:
            return RuleError("pair", "that car has no player to hold a dashboard")
        return None

    def _record_pair(self, car, dev):
        seq = super()._record_pair(car, dev)
        self.sent.pop(car, None)  # its next view goes whole
        return seq

    def _paired(self, car):
        self._queue_view(car, force=1, deal=1)

    def reconcile(self, seat, snapshot):
        """A dashboard showed its state with nothing in flight: if it is not our last view, send it again
        (a dashboard restarts in Formula 1 with no hand: its hello carries no F5 snapshot)."""
        if self._queued_for(seat):
            return 0
        sent = self.sent.get(seat)
        if isinstance(snapshot, dict) and snapshot.get("game") == GAME and sent is not None:
            if snapshot.get("k") == sent["k"]:
                return 0
        return self._queue_view(seat, force=1)

    def view(self, car, drawn=(), deal=0):
        """The seat's whole view for its dashboard: its secret hand, its column, place, speeds, its turn."""
        g = self.game
        pos = g.position(car)
        view = {
            "car": car,
            "hand": g.hand(car),
            "col": g.public()["columns"][pos],
            "pos": pos,
            "speed": g.speed(car),
            "ahead": g.speed(g.order[pos - 1]) if pos > 0 else -1,
            "round": g.round,
            "k": len(g.events),
            "turn": 1 if g.to_move() == car and not self.held else 0,
            "over": 1 if g.over else 0,
            "win": 1 if g.winner() == car else 0,
        }
        if self.held:
            view["wait"] = 1  # the table has not started the game
        if drawn:
            view["drawn"] = list(drawn)
        if deal:
            view["deal"] = 1
        return view

    def _tell(self, mover, drawn):
        for car in sorted(self.pairs):
            self._queue_view(car, drawn if car == mover else ())

    def _queue_view(self, car, drawn=(), force=0, deal=0):
        if car not in self.pairs:
            return 0
        view = self.view(car, drawn, deal)
        old = self.sent.get(car)
        if not force and not drawn and old is not None:
            same = dict(old, k=view["k"])
            same.pop("drawn", None)
            same.pop("deal", None)
            if same == view and not view["turn"]:
                return 0  # nothing this dashboard shows has changed
        self.sent[car] = view
        self._queue(car, "f5", view)
        return 1
