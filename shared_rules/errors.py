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
