"""Issue 25: what newcomers met at a real table, each in the real app in a real (offscreen) window
(tests/companion/appdriver.py). Each test failed on the main before its fix."""

from tests.companion.test_app_window import run

PHONES = {"F1_PHONE_HOST": "127.0.0.1", "F1_PHONE_PORT": "0"}


def test_continue_after_leaving_pairing_gives_the_phones_their_dashboards(tmp_path, monkeypatch):
    """Defect 1: Escape on pairing, then Continue: the race opened with no dashboard anywhere, the phones
    waiting for the tablet for ever."""
    for k, v in PHONES.items():
        monkeypatch.setenv(k, v)
    seen = run("continue_after_pairing", tmp_path, tmp_path / "data", seed=7, timeout=120)
    assert seen["after"]["pairs"] == 3 and seen["after"]["served"] == [0, 1, 2]
    assert all(a.startswith("http://127.0.0.1:") for a in seen["addresses"])
