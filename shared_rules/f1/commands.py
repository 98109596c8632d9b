# Commands the tablet sends to a dashboard, applied through the car's own rules.

from shared_rules.errors import RuleError
from shared_rules.f1.charts import BRAKE_MAX, MAX_SPEED, TYRE_MAX

def _int_arg(args, key, lo, hi):
    v = args.get(key, 0)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RuleError("args", "bad %s" % key)
    return v


def apply_command(car, name, args):
    """Apply one command from the tablet. Refused commands raise RuleError and change nothing."""
    if not isinstance(args, dict):
        raise RuleError("args", "arguments must be a mapping")
    if name == "turn":
        if _int_arg(args, "on", 0, 1):
            return car.start_turn()
        return car.end_turn()
    if name == "pen":
        _int_arg(args, "dice", 0, 66)
        return car.penalty(
            _int_arg(args, "spin", 0, 1), _int_arg(args, "tyre", 0, TYRE_MAX), _int_arg(args, "brake", 0, BRAKE_MAX)
        )
    if name == "speed":
        return car.force_speed(_int_arg(args, "v", 0, MAX_SPEED))
    if name == "deal":
        return car.take_card(args.get("card"))
    if name == "take":
        code = args.get("card")
        if code not in car.hand:
            raise RuleError("card", "card not in hand")
        car.hand.remove(code)
        return None
    if name == "lap":
        return car.lap()
    if name == "pit":
        return car.pit(args.get("card"))
    if name == "sync":
        car.replace_with(type(car).from_snapshot(args))
        return None
    raise RuleError("command", "unknown command")
