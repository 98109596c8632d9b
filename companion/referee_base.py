"""What a seated game's referee is, either game's: its log, its seats' dashboards, the commands it owes them.

Formula 1's Referee (companion/f1/referee.py) and Formula 5's F5Referee (companion/f5/referee.py) extend
SeatedReferee, which holds, once for both:
- the game log (companion.eventlog): created with the game's first entry, opened only for a game of its kind;
- the seats: which dashboard (by id) holds each, kept in the log as "pair" entries, one dashboard one seat;
- the outbox: (seat, command id, name, args), oldest first, taken by the link bridge; a command id is unique
  across restarts too (game id, this run's id, a count), since a dashboard applies an id at most once;
- the dashboard events already taken (companion.taken), so that a resend after a lost ack changes nothing.

What a game decides (its rules, what it tells each dashboard) stays in its own referee.
"""

import binascii
import os

from companion.eventlog import EventLog, LogError, open_saved
from companion.taken import TakenEvents


def new_id():
    """A short random id: a game's, or a run's (its commands' ids start with both)."""
    return binascii.hexlify(os.urandom(4)).decode()


class SeatedReferee:
    GAME = None  # the log's game ("f1", "f5"): the link bridge asks, never guesses
    TITLE = None  # its name in messages ("Formula 1")

    def __init__(self, log, entries):
        """The log and its entries (the first is the game's setup); the subclass replays the rest."""
        self.log = log
        self.entries = entries
        self.game_id = str(entries[0].get("id"))
        self.pairs = {}  # seat -> dashboard id
        self.taken = TakenEvents(log)  # the dashboard events already taken (their acks may have been lost)
        self.outbox = []  # (seat, command id, name, args), oldest first
        self._cmd_count = 0
        self._boot = new_id()

    # ---- the log: made, opened, closed ---------------------------------------------------------------

    @staticmethod
    def _new_seed(path, seed):
        """Before a new game is set up at `path`: nothing may be there; its seed (random unless given)."""
        if os.path.exists(path):
            raise LogError("%s already holds a game" % path)
        return int.from_bytes(os.urandom(4), "big") if seed is None else seed

    @classmethod
    def _create(cls, path, **setup):
        """The new game's log, its first entry the setup (already checked by the rules): the referee on it."""
        log = EventLog(path)
        first = dict(setup, t="game", game=cls.GAME, id=new_id())
        log.append(first)
        return cls(log, [first])

    @classmethod
    def open(cls, path):
        """The game saved at `path`, if its log is one of this game's (LogError says why not)."""
        return open_saved(cls, path)

    def close(self):
        self.log.close()

    # ---- seats --------------------------------------------------------------------------------------

    def _pair_refused(self, seat):
        """Why `seat` cannot hold a dashboard (None: it can). The game says."""
        raise NotImplementedError

    def pair(self, seat, dev):
        """Give a dashboard (by id) a seat; dev=None frees the seat. A dashboard holds one seat: another seat
        it held is freed first. Returns the log's entry number."""
        why = self._pair_refused(seat)
        if why is not None:
            raise why
        for other, d in list(self.pairs.items()):
            if dev is not None and d == dev and other != seat:
                self._record_pair(other, None)
        seq = self._record_pair(seat, dev)
        if dev is not None:
            self._paired(seat)
        return seq

    def _record_pair(self, seat, dev):
        entry = {"t": "pair", "seat": seat, "dev": dev}
        seq = self.log.append(entry)
        self.entries.append(entry)
        self._take_pair(entry)
        return seq

    def _take_pair(self, entry):
        """A "pair" entry, written now or replayed from the log."""
        if entry.get("dev"):
            self.pairs[entry.get("seat")] = entry["dev"]
        else:
            self.pairs.pop(entry.get("seat"), None)

    def _paired(self, seat):
        """A dashboard was just given `seat`: the game tells it the seat's whole state."""
        raise NotImplementedError

    def seat_of(self, dev):
        for seat, d in self.pairs.items():
            if d == dev:
                return seat
        return None

    # ---- commands and events ----------------------------------------------------------------------------

    def _queue(self, seat, name, args):
        self._cmd_count += 1
        # Unique across restarts too: a dashboard applies an id at most once, so ids must never repeat.
        cid = "%s.%s.%d" % (self.game_id, self._boot, self._cmd_count)
        self.outbox.append((seat, cid, name, args))

    def _queued_for(self, seat):
        """Commands for `seat` still in the outbox: a state its dashboard shows now is older than they make it."""
        return any(s == seat for s, _cid, _name, _args in self.outbox)

    def take_commands(self):
        out, self.outbox = self.outbox, []
        return out

    def _taken_before(self, taken):
        """taken=(dashboard id, event id) or None: True if this game took that event already (an ack lost)."""
        return taken is not None and taken in self.taken

    def _refused(self, taken):
        """A dashboard event the rules refused: refused is an outcome too, a resend is not judged again later."""
        if taken is not None:
            self.taken.record(taken)
