# Assertion helpers that work the same under pytest (CPython) and the MicroPython runner.


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised; fail if it raised nothing or another type."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("%s was not raised" % exc_type.__name__)
