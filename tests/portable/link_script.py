# A reproducible run of tablet commands, and the state a car must end in when each was applied exactly once.
from shared_rules.f1 import car as f1car

KINDS = ("FG", "GC", "QR", "SS", "SD")


def commands(n, prefix="c"):
    """n commands [id, name, args]: cards dealt, and turns with tyre and brake penalties in between."""
    out = []
    k = 0
    while len(out) < n:
        k += 1
        step = k % 4
        if step == 0:
            out.append(["turn", {"on": 1}])
            out.append(["pen", {"tyre": 1, "brake": k % 2, "spin": 0, "dice": 0}])
            out.append(["turn", {"on": 0}])
        else:
            out.append(["deal", {"card": KINDS[k % 5]}])
    return [["%s.%d" % (prefix, i + 1), c[0], c[1]] for i, c in enumerate(out[:n])]


def expected(cmds, laps=5):
    """The snapshot after applying each command once, in order (refusals change nothing)."""
    car = f1car.Car(laps=laps)
    for _cid, name, args in cmds:
        try:
            f1car.apply_command(car, name, args)
        except Exception:
            pass
    return car.snapshot()
