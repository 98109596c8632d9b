"""The game's event log: SQLite, append-only, every entry checksummed so damage is found, never played."""

import binascii
import json
import os
import sqlite3

FORMAT = 1


class LogError(Exception):
    """The log cannot be trusted: the message says what is wrong and where."""


def _crc(body):
    return binascii.crc32(body.encode())


class EventLog:
    def __init__(self, path):
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None)  # explicit transactions below
            self.db.execute("PRAGMA journal_mode=WAL")  # an append is atomic and survives a crash
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL, crc INTEGER NOT NULL)"
            )
            row = self.db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('format', ?)", (str(FORMAT),))
            elif row[0] != str(FORMAT):
                raise LogError("%s was written by another version (format %s)" % (path, row[0]))
        except sqlite3.DatabaseError as e:
            raise LogError("%s is not a game log (%s)" % (path, e))

    def append(self, entry):
        body = json.dumps(entry, sort_keys=True, separators=(",", ":"))
        try:
            self.db.execute("BEGIN IMMEDIATE")
            cur = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events")
            seq = cur.fetchone()[0]
            self.db.execute("INSERT INTO events VALUES (?, ?, ?)", (seq, body, _crc(body)))
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            self.db.execute("ROLLBACK") if self.db.in_transaction else None
            raise LogError("could not write to the game log %s: %s" % (self.path, e))
        return seq

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
        self.db.close()


def open_saved(game_class, path):
    """game_class(log, entries) for the game saved at `path`; the log is closed again if the game refuses it."""
    if not os.path.exists(path):
        raise LogError("no saved game at %s" % path)
    log = EventLog(path)
    try:
        return game_class(log, log.entries())
    except LogError:
        log.close()
        raise
