"""A track file: plain, editable JSON with each corner's red bands and their safety speed per lane."""

import json
import os

DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tracks", "1962.json")


class TrackError(ValueError):
    pass


class Track:
    def __init__(self, name, corners):
        self.name = name
        self.corners = corners  # [(corner name, [[lane safety speeds inner to outer] per band])]

    def safety(self, corner, band, lane):
        try:
            return self.corners[corner][1][band][lane]
        except (IndexError, TypeError):
            raise TrackError("no such corner, band or lane")

    def to_data(self):
        return {"name": self.name, "corners": [{"name": n, "bands": bands} for n, bands in self.corners]}

    @classmethod
    def from_data(cls, data, where="track"):
        """Check every value, so that a hand-edited file gives a clear message rather than a wrong game."""
        if not isinstance(data, dict) or not isinstance(data.get("corners"), list):
            raise TrackError("%s: needs a list of corners" % where)
        corners = data["corners"]
        if not 1 <= len(corners) <= 12:
            raise TrackError("%s: 1 to 12 corners" % where)
        out = []
        for i, c in enumerate(corners, 1):
            name = c.get("name") if isinstance(c, dict) else None
            bands = c.get("bands") if isinstance(c, dict) else None
            if not isinstance(name, str) or not name:
                raise TrackError("%s: corner %d needs a name" % (where, i))
            if not isinstance(bands, list) or not 1 <= len(bands) <= 4:
                raise TrackError("%s: %s needs 1 to 4 bands" % (where, name))
            for band in bands:
                if not isinstance(band, list) or not 1 <= len(band) <= 6:
                    raise TrackError("%s: %s: each band has 1 to 6 lanes" % (where, name))
                for v in band:
                    if isinstance(v, bool) or not isinstance(v, int) or not 20 <= v <= 160 or v % 20:
                        raise TrackError("%s: %s: safety speed %r is not 20 to 160 in steps of 20" % (where, name, v))
            out.append((name, [list(b) for b in bands]))
        title = data.get("name", "track")
        return cls(title if isinstance(title, str) else "track", out)

    @classmethod
    def load(cls, path=DEFAULT):
        try:
            with open(path) as f:
                data = json.load(f)
        except OSError as e:
            raise TrackError("cannot read the track file %s: %s" % (path, e.strerror))
        except ValueError as e:
            raise TrackError("the track file %s is not valid JSON: %s" % (path, e))
        return cls.from_data(data, os.path.basename(path))
