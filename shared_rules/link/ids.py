# Remembering which command ids were already handled, in bounded memory.


class IdRing:
    """The last `size` ids handled, each with its outcome ("" applied, else the error code).

    The tablet has at most one command in flight per dashboard, so only the latest few ids can ever come back;
    64 is ample and keeps the saved state small.
    """

    def __init__(self, size=64, items=()):
        self.size = size
        self.items = []  # [id, outcome], oldest first
        for it in items:
            self.add(it[0], it[1])

    def get(self, cid):
        """The outcome recorded for cid, or None if cid is new."""
        for it in self.items:
            if it[0] == cid:
                return it[1]
        return None

    def add(self, cid, outcome):
        if self.get(cid) is not None:
            return
        self.items.append([cid, outcome])
        if len(self.items) > self.size:
            self.items.pop(0)

    def dump(self):
        """A JSON-able copy for saving with the dashboard's state."""
        return [[it[0], it[1]] for it in self.items]
