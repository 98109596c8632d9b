"""The dashboard events a game has taken, by (dashboard id, event id), kept in the game's log.

A dashboard resends an event until it sees the ack. The link remembers the ids it took, but only while the app
runs: after a crash that ate an ack, the reopened game answers a resent event from this record instead (acked
again, applied never again). Each id is written in the same transaction as the entry the event caused.
"""

from shared_rules.link.tablet import EVENTS_KEPT as KEPT  # ids handed to the link per dashboard: all it remembers


class TakenEvents:
    def __init__(self, log):
        self.log = log
        self.order = log.taken()  # [(dev, eid)], oldest first
        self.ids = set(self.order)

    def __contains__(self, key):
        return key in self.ids

    def added(self, key):
        """Note key as taken once the log holds it (the log wrote it with its entry, or by record())."""
        self.order.append(key)
        self.ids.add(key)

    def record(self, key):
        """An event taken with no entry of its own (the rules refused it, nothing changed): log its id alone."""
        self.log.take(key[0], key[1])
        self.added(key)

    def recent(self):
        """{dev: [event id, ...]}: the last KEPT ids of each dashboard, oldest first, to seed the link's memory."""
        out = {}
        for dev, eid in self.order:
            out.setdefault(dev, []).append(eid)
        return {dev: ids[-KEPT:] for dev, ids in out.items()}
