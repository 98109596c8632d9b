"""The notes the tablet's link hands the app: one named record per kind (docs/protocol.md §10 lists them).

Each is a namedtuple whose first field, `kind`, names it ("done", "state", ...): read a note by its field
names (note.cmd_id); note[0] and tuple equality still work, so a note is compared with a plain tuple as before.
The kinds are made by the functions below, never by hand, so a note always has its kind's fields in order.
"""

from collections import namedtuple

# The values of a Port note's `change`
OPEN, GONE = "open", "gone"

Port = namedtuple("Port", ("kind", "key", "change"))  # a candidate port appeared (OPEN) or disappeared (GONE)
Hello = namedtuple("Hello", ("kind", "dev", "info"))  # info: {"fw", "p", "s" (the snapshot), "settled"}
Status = namedtuple("Status", ("kind", "dev", "status"))  # CONNECTED, SILENT or LOST
Done = namedtuple("Done", ("kind", "dev", "cmd_id", "snapshot"))
Refused = namedtuple("Refused", ("kind", "dev", "cmd_id", "code", "message"))
State = namedtuple("State", ("kind", "dev", "snapshot", "rev", "settled"))
Event = namedtuple("Event", ("kind", "dev", "event_id", "name", "args"))
Rejected = namedtuple("Rejected", ("kind", "dev", "event_id", "why"))
Bad = namedtuple("Bad", ("kind", "dev", "why"))
# The answer to the table's `wifi` message (docs/protocol.md §15a): ssid the network now set (None if refused), code
# and message the refusal's ("nowifi": the dashboard has no radio)
Wifi = namedtuple("Wifi", ("kind", "dev", "ssid", "code", "message"))


def port(key, change):
    return Port("port", key, change)


def hello(dev, fw, protocol, snapshot, settled):
    return Hello("hello", dev, {"fw": fw, "p": protocol, "s": snapshot, "settled": settled})


def status(dev, st):
    return Status("status", dev, st)


def done(dev, cmd_id, snapshot):
    return Done("done", dev, cmd_id, snapshot)


def refused(dev, cmd_id, code, message):
    return Refused("refused", dev, cmd_id, code, message)


def state(dev, snapshot, rev, settled):
    return State("state", dev, snapshot, rev, settled)


def event(dev, event_id, name, args):
    return Event("event", dev, event_id, name, args)


def rejected(dev, event_id, why):
    return Rejected("rejected", dev, event_id, why)


def bad(dev, why):
    return Bad("bad", dev, why)


def wifi(dev, ssid, code, message):
    return Wifi("wifi", dev, ssid, code, message)
