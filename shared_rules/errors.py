# One error type for everything a rule refuses, so both devices can show the same short message.


class RuleError(Exception):
    """A refused action. `code` is a short machine-readable word; str(e) is the player-facing message.

    Whoever raises it must not have changed any state: callers rely on "refused means nothing happened".
    """

    def __init__(self, code, message):
        # The message is the exception's only argument, so str(e) gives it on both runtimes (no __str__ needed).
        super().__init__(message)
        self.code = code
        self.message = message


def text(table, n):
    """Line n of a table of texts, one a line. The rules keep their longer messages so: a string constant of its
    own is a heap object of ~70 bytes on a Pico (up to 10 characters it is interned, and cheap); a line of a
    table costs only its length."""
    start = 0
    for _ in range(n):
        start = table.index("\n", start) + 1
    return table[start : table.index("\n", start)]
