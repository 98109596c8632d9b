"""The game's event log: SQLite, append-only, every entry checksummed so damage is found, never played.

Beside the entries, the ids of the dashboard events the game has taken (table `taken`), each written in the
same transaction as the entry it caused: a dashboard resends an event until it sees the ack, and after a crash
that ate the ack the reopened game must know the event already took effect (see companion/link_bridge.py).
"""

import binascii
import json
import os
import sqlite3

FORMAT = 1


class LogError(Exception):
    """The log cannot be trusted: the message says what is wrong and where."""


def _crc(body):
    return binascii.crc32(body.encode())


def _taken_body(dev, eid):
    return json.dumps([dev, eid], separators=(",", ":"))


class EventLog:
    """Durability: an append is written (atomic, and kept if the app is killed) before append() returns, and
    on disk (kept through a power cut) once sync() returns. The table calls sync() before anything leaves for
    a dashboard (companion/link_bridge.py), so no dashboard ever acts on a decision a power cut can take back;
    the screen shows it a frame sooner, the disk's flush (10-100 ms on a loaded tablet's flash) off the tap."""

    def __init__(self, path):
        self.path = path
        self.unsynced = False  # an append since the last sync()
        self._wal_fd = None  # the -wal file's descriptor, for sync()
        try:
            self.db = sqlite3.connect(path, isolation_level=None)  # explicit transactions below
            mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]  # an append is atomic
            # In WAL mode a commit at NORMAL is written, not flushed: sync() flushes the -wal file. Where WAL
            # is refused (a file system without shared memory), every commit is flushed, as before.
            self.wal_mode = mode == "wal"
            self.db.execute("PRAGMA synchronous=NORMAL" if self.wal_mode else "PRAGMA synchronous=FULL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL, crc INTEGER NOT NULL)"
            )
            # OR IGNORE: the saved-games list, on its own thread, may open a game the moment it is created, and
            # both would write the format (a plain INSERT failed the new game with "UNIQUE constraint failed").
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (str(FORMAT),))
            row = self.db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
            if row[0] != str(FORMAT):
                raise LogError("%s was written by another version (format %s)" % (path, row[0]))
        except sqlite3.DatabaseError as e:
            raise LogError("%s is not a game log (%s)" % (path, e))

    def append(self, entry, taken=None):
        """Write one entry; with taken=(dev, event id), that dashboard event is recorded as taken in the same
        transaction: both are kept or neither. Returns the entry's number."""
        body = json.dumps(entry, sort_keys=True, separators=(",", ":"))
        return self._write(body, taken)

    def take(self, dev, eid):
        """Record a dashboard event as taken with no entry of its own (the rules refused it: nothing changed)."""
        self._write(None, (dev, eid))

    def _write(self, body, taken):
        try:
            self.db.execute("BEGIN IMMEDIATE")
            seq = None
            if body is not None:
                cur = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events")
                seq = cur.fetchone()[0]
                self.db.execute("INSERT INTO events VALUES (?, ?, ?)", (seq, body, _crc(body)))
            if taken is not None:
                dev, eid = taken
                # Created here, not when opening: a log written before this table existed is only ever
                # changed by a write the game makes (and an id taken twice breaks UNIQUE: nothing is kept).
                self.db.execute("CREATE TABLE IF NOT EXISTS taken (n INTEGER PRIMARY KEY, dev TEXT NOT NULL, "
                                "eid TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE (dev, eid))")
                self.db.execute("INSERT INTO taken (dev, eid, crc) VALUES (?, ?, ?)",
                                (dev, eid, _crc(_taken_body(dev, eid))))
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            self.db.execute("ROLLBACK") if self.db.in_transaction else None
            raise LogError("could not write to the game log %s: %s" % (self.path, e))
        self.unsynced = self.wal_mode
        return seq

    def sync(self):
        """Every append so far on disk: the -wal file flushed (fsync flushes a file's data whichever descriptor
        wrote it). LogError if the disk refuses; the appends stay written, and the next sync() tries again."""
        if not self.unsynced:
            return
        try:
            if self._wal_fd is None:
                self._wal_fd = os.open(self.path + "-wal", os.O_RDWR | getattr(os, "O_BINARY", 0))
            os.fsync(self._wal_fd)
        except OSError as e:
            raise LogError("could not save the game log %s to disk: %s" % (self.path, e))
        self.unsynced = False

    def taken(self):
        """Every dashboard event taken, [(dev, event id)], oldest first, each checked; LogError if damaged."""
        try:
            if self.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='taken'").fetchone() is None:
                return []  # a log from before the table: nothing recorded
            rows = self.db.execute("SELECT n, dev, eid, crc FROM taken ORDER BY n").fetchall()
        except sqlite3.DatabaseError as e:
            raise LogError("the game log %s cannot be read: %s" % (self.path, e))
        out = []
        for n, dev, eid, crc in rows:
            if not isinstance(dev, str) or not isinstance(eid, str) or _crc(_taken_body(dev, eid)) != crc:
                raise LogError("the game log is damaged at taken event %d (checksum)" % n)
            out.append((dev, eid))
        return out

    def entries(self):
        """Every entry in order, each checked; LogError at the first that is damaged or missing."""
        try:
            rows = self.db.execute("SELECT seq, body, crc FROM events ORDER BY seq").fetchall()
        except sqlite3.DatabaseError as e:
            raise LogError("the game log %s cannot be read: %s" % (self.path, e))
        out = []
        for expected, (seq, body, crc) in enumerate(rows, 1):
            if seq != expected:
                raise LogError("the game log is missing entry %d" % expected)
            if not isinstance(body, str) or _crc(body) != crc:
                raise LogError("the game log is damaged at entry %d (checksum)" % seq)
            try:
                entry = json.loads(body)
            except ValueError:
                raise LogError("the game log is damaged at entry %d (not JSON)" % seq)
            if not isinstance(entry, dict):
                raise LogError("the game log is damaged at entry %d (not an event)" % seq)
            out.append(entry)
        return out

    def close(self):
        try:
            self.sync()
        finally:
            if self._wal_fd is not None:
                os.close(self._wal_fd)
                self._wal_fd = None
            self.db.close()


def open_saved(game_class, path):
    """game_class(log, entries) for the game saved at `path`, whose log must open with the setup of a game of
    game_class.GAME (game_class.TITLE names it); the log is closed again if it does not, or the game refuses it."""
    if not os.path.exists(path):
        raise LogError("no saved game at %s" % path)
    log = EventLog(path)
    try:
        entries = log.entries()
        first = entries[0] if entries else None
        if not isinstance(first, dict) or first.get("t") != "game" or first.get("game") != game_class.GAME:
            raise LogError("%s is not a %s game log" % (path, game_class.TITLE))
        return game_class(log, entries)
    except LogError:
        log.close()
        raise
