# Power-on: back where the dashboard was. The last full save is read and checked (firmware/ondemand/store.py wrote it),
# then the tablet commands acknowledged since it, journaled one per line (firmware/ondemand/journal.py), are re-applied,
# once each. The app imports this for its boot and forgets it after (firmware/app.py): none of it runs again
# before the next power-on, and its code would otherwise take heap for the whole race.
# Portable: the same module on MicroPython (the dashboard) and CPython (tests, the tablet's tools).
import binascii
import json
import os

from shared_rules.errors import RuleError


_MAX_LINE = 512  # a longer journal line is not ours: skipped, never held whole in memory
# journal.MAGIC, the first line's tag, and store.MAGIC, spelled here: importing them would load the journal's code,
# which a dashboard without a tablet never needs, and the store's before the first frame (tests/firmware/test_units.py
# checks that they agree).
_JOURNAL_MAGIC = "F1J1"
MAGIC = b"F1DASH2"


class StoreError(Exception):
    pass


def decode(raw):
    """The saved dict from a save file's bytes; StoreError if it is not exactly what store.save() wrote. A save
    of the first format (F1DASH1: the checksum in the first line) is read too."""
    nl = raw.find(b"\n")
    head = raw[:nl].split()
    rest = raw[nl + 1 :].rstrip(b"\n")
    if nl > 0 and head == [MAGIC]:
        end = rest.rfind(b"\n")
        body, crc = rest[:end], rest[end + 1 :]
    elif nl > 0 and len(head) == 2 and head[0] == b"F1DASH1":
        body, crc = rest, head[1]
    else:
        raise StoreError("not a dashboard save")
    try:
        if int(crc, 16) != binascii.crc32(body):
            raise ValueError("checksum mismatch")
        data = json.loads(body)
    except ValueError as e:  # also a checksum field that is not hex, or a checked text that is not JSON
        raise StoreError(e)
    if not isinstance(data, dict):
        raise StoreError("not an object")
    return data


def load(path):
    """(data, None) when a good save exists, (None, None) when there is none, (None, reason) when the save is
    damaged: the damaged file is then renamed to `path + ".bad"` so that nothing is lost and the next save
    cannot overwrite it. The reason is a maker's (firmware/app.py prints it), not a player's."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return None, None
    try:
        return decode(raw), None
    except StoreError as e:
        try:
            os.rename(path, path + ".bad")
        except OSError:
            pass
        return None, str(e)


def check(data, key, kind):
    """data[key] if it is of type `kind`, else StoreError (a save from another firmware version, say)."""
    v = data.get(key)
    if not isinstance(v, kind):
        raise StoreError("missing or bad %s" % key)
    return v


def check_rows(data, key, width):
    """data[key] if it is a list of lists of `width` items (done ids, events), else StoreError: a row of another
    shape would fail later, when the link reads it, and the dashboard would restart from the same save forever."""
    rows = check(data, key, list)
    for row in rows:
        if not isinstance(row, list) or len(row) != width:
            raise StoreError("bad row in %s" % key)
    return rows


def _parse(raw):
    """The JSON value of one journal line, or None if the line is torn or damaged."""
    raw = raw.rstrip(b"\n")
    if len(raw) < 10 or raw[8] != 0x20:  # a space after the crc
        return None
    body = raw[9:]
    try:
        if int(raw[:8], 16) == binascii.crc32(body):
            return json.loads(body)
    except ValueError:
        pass
    return None


def read_journal(path, gen):
    """[[id, name, args], ...] journaled after save generation `gen`, in order; torn or damaged lines skipped. A journal
    names the save it follows in its first line, and a save under way when commands came in a line before the
    first of them (firmware/ondemand/journal.py): what follows the last line naming `gen` is not in that save, the
    lines naming another save left out. Nothing when no line names `gen`: that journal belongs to another save."""
    try:
        f = open(path, "rb")
    except OSError:
        return []
    out = None
    with f:
        while True:
            raw = f.readline(_MAX_LINE)
            if not raw:
                break
            e = _parse(raw)
            if not isinstance(e, list):
                continue
            if len(e) == 2 and e[0] == _JOURNAL_MAGIC:
                if e[1] == gen:
                    out = []  # the commands before it are in save `gen`
            elif out is not None and len(e) == 3 and isinstance(e[0], str) and isinstance(e[2], dict):
                out.append(e)
    return out or []


def replay(entries, done, apply_command):
    """Re-apply the journaled commands whose ids are not in `done` ([[id, outcome], ...] from the save), in
    order. Returns the ids applied. A command refused now (a save edited by hand) is skipped: not applied, not
    recorded, so the tablet may resend it."""
    seen = []
    for d in done:
        seen.append(d[0])
    applied = []
    for cid, name, args in entries:
        if cid in seen:
            continue
        try:
            apply_command(name, args)
        except Exception:
            continue
        seen.append(cid)
        applied.append(cid)
    return applied


def restore(path, car):
    """The dashboard's save at `path` (its journal beside it) put back into `car`. Returns (save generation,
    done ids, unacknowledged events, ids of the journaled commands applied, what is wrong with the save or None).
    A damaged save is set aside as .bad with its journal (that cannot be replayed onto defaults), and `car` is left
    as it was."""
    from shared_rules.f1 import car as f1car

    data, error = load(path)
    done, events, gen = [], [], 0
    if data is not None:
        try:
            restored = f1car.Car.from_snapshot(check(data, "car", dict))
            done = check_rows(data, "done", 2)  # [id, outcome]
            events = check_rows(data, "ev", 3)  # [id, name, args]
            car.replace_with(restored)
            gen = data.get("gen", 0)
            gen = gen if isinstance(gen, int) else 0
        except (RuleError, StoreError) as e:
            done, events = [], []
            error = str(e)
    if error:
        for p in (path, path + ".journal"):  # the save (unless load did) and its journal set aside
            try:
                os.rename(p, p + ".bad")
            except OSError:
                pass
        return 0, done, events, (), error
    # Straight to the car, as a restored save is: no screen from before the cut, no Formula 5 half set up (an f5
    # view is refused here, so its id stays new and the tablet's resend applies it)
    apply = f1car.apply_command
    applied = replay(read_journal(path + ".journal", gen), done, lambda name, args: apply(car, name, args))
    return gen, done, events, applied, None
