"""The seats' tokens and the port, kept with the game (companion/phones/seats.py): at least 128 random bits
each, the same after a restart, new for a new game, readable by this user only, written atomically."""

import os
import stat
import threading

from companion.phones.seats import PHONE, TABLET, PhoneSeats


def test_tokens_are_random_kept_with_the_game_and_private(tmp_path):
    game = PhoneSeats(str(tmp_path))
    tokens = [game.token(seat) for seat in range(6)]
    assert len(set(tokens)) == 6
    for token in tokens:
        assert len(token) == 26 and token.isalnum() and token == token.lower()  # base32: 130 bits >= 128
    game.set_place(2, TABLET)
    game.set_port(8765)
    mode = stat.S_IMODE(os.stat(os.path.join(str(tmp_path), "phones.json")).st_mode)
    assert mode == 0o600
    again = PhoneSeats(str(tmp_path))  # the app restarted
    assert [again.token(seat) for seat in range(6)] == tokens and again.port == 8765
    assert again.place(2) == TABLET and again.place(0) == PHONE
    (tmp_path / "another-game").mkdir()
    other = PhoneSeats(str(tmp_path / "another-game"))  # a new game: new keys
    assert not {other.token(seat) for seat in range(6)} & set(tokens)
    assert not [n for n in os.listdir(str(tmp_path)) if n.endswith(".tmp")]


def test_a_damaged_file_means_new_tokens_not_a_crash(tmp_path):
    with open(os.path.join(str(tmp_path), "phones.json"), "w") as f:
        f.write('{"port": 1, "seats": {"0": ')
    seats = PhoneSeats(str(tmp_path))
    assert seats.port is None and len(seats.token(0)) == 26


def test_seats_saved_from_two_threads_at_once_lose_nothing_and_never_fail(tmp_path):
    # The phones' server binds a phone to its seat (its thread) while the tablet's screen moves a seat to the tablet
    # (the app's thread): both save the seats. Each save is whole, none fails on the other's temp file, and the file
    # ends as the seats are.
    seats = PhoneSeats(str(tmp_path))
    failures = []

    def play(seat, rounds):
        try:
            for n in range(rounds):
                seats.set_dev(seat, "dev-%d-%d" % (seat, n))
                seats.set_place(seat, TABLET if n % 2 else PHONE)
        except Exception as e:  # noqa: BLE001 (any failure of a save is the defect)
            failures.append(repr(e))

    threads = [threading.Thread(target=play, args=(seat, 200)) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []
    assert PhoneSeats(str(tmp_path)).seats == seats.seats
    assert sorted(os.listdir(tmp_path)) == ["phones.json"]  # no temp file left behind
