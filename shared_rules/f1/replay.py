# Rebuilding a table from its event log, checking that the dice and cards come out as recorded.

from shared_rules.errors import RuleError

# The keys of an event that are decisions; the others are outcomes, recomputed and compared.
DECISION_KEYS = ("t", "seat", "v", "card", "safety", "special", "over", "clear")
OUTCOME_KEYS = ("dice", "pen", "drawn", "pit")


def rebuild(race_class, events):
    if not isinstance(events, list) or not events or not isinstance(events[0], dict) \
            or events[0].get("t") != "setup":
        raise RuleError("log", "a log starts with its setup")
    s = events[0]
    race = race_class(s.get("seed"), s.get("names"), s.get("laps"), s.get("rules", 0), s.get("per_kind", 7))
    for recorded in events[1:]:
        replay_one(race, recorded)
    return race


def replay_one(race, recorded):
    """Apply a logged event and check that its dice and cards came out as recorded."""
    if not isinstance(recorded, dict):
        raise RuleError("log", "bad event")
    ev = {}
    for k in DECISION_KEYS:
        if k in recorded:
            ev[k] = recorded[k]
    race.do(ev)
    for k in OUTCOME_KEYS:
        if k in recorded and recorded[k] != ev.get(k):
            raise RuleError("log", "log does not match its seed at %s" % k)
    return ev
