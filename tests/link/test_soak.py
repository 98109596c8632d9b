"""Six dashboards pushing 20 state frames a second into one tablet transport: a short soak (the bench runs 30 s)."""

from tests.link.harness import soak


def test_six_dashboards_at_twenty_frames_a_second_lose_nothing_and_leave_no_backlog(tmp_path):
    r = soak(tmp_path, dashboards=6, hz=20, seconds=2.0)
    # Nothing lost: every dashboard's revisions came, none missing, up to a frame it sent after the pause. How
    # many came in the 2 s (r["received"] against the rate's r["expected"]) is the bench's: under load a dashboard
    # process may not have been given the CPU to send them all before the pause.
    assert r["told"] == 1 and r["missing"] == 0, r
    # No backlog: the frames still queued when the senders stop have all come soon after. How soon (r["late"],
    # r["ok"]) is the bench's figure: on a loaded 2-core machine 300 ms is a timing, not a behaviour.
    assert r["drained"] == 1, r
