# Formula 5 cards as small integers, so a hand, a deck or a column is a plain list of ints on both runtimes.
#
# Race cards are 0..69: colour = card // 14 ("70 race cards: 14 x 5 colours").
# Pit stop cards are 70..75 ("6 pit stop cards"); they are all alike, the ids only let us count them.
# A column entry is a card id, or a race card id + FACE_DOWN when it was played pit stop side up.

CARS = 5
COLOURS = 5
PER_COLOUR = 14
RACE_CARDS = COLOURS * PER_COLOUR  # 70
PIT_CARDS = 6
FIRST_PIT = RACE_CARDS  # ids 70..75
ALL_CARDS = RACE_CARDS + PIT_CARDS  # 76
HAND_SIZE = 12
# Pit stop cards in the starting hand, by starting position (index 0 = 1st).
PITS_BY_POSITION = (2, 2, 1, 1, 0)

FACE_DOWN = 128  # added to a race card id played face down (pit stop side) in a column
PIT_SIDE = -1  # what everyone sees of a pit stop card or a face-down race card in a column

# Display names only: the rulebook names neither the colours of the race cards nor the cars.
COLOUR_NAMES = ("red", "yellow", "green", "blue", "white")
CAR_NAMES = ("red", "yellow", "green", "blue", "white")


def is_card(card):
    return isinstance(card, int) and not isinstance(card, bool) and 0 <= card < ALL_CARDS


def is_race(card):
    return is_card(card) and card < RACE_CARDS


def is_pit_card(card):
    return is_card(card) and card >= FIRST_PIT


def colour(card):
    return card // PER_COLOUR


def entry_card(entry):
    """The card behind a column entry, whichever side it shows."""
    return entry - FACE_DOWN if entry >= FACE_DOWN else entry


def is_face_up_race(entry):
    return 0 <= entry < RACE_CARDS


def public_entry(entry):
    """A column entry as the table sees it: the race card, or PIT_SIDE for anything played for a pit stop."""
    return entry if is_face_up_race(entry) else PIT_SIDE


def column_speed(column):
    """Speed of the car in this column (outside a pit stop).

    "counting all race cards of the SAME COLOUR AS THE LAST RACE CARD PLAYED IN THE WHOLE COLUMN":
    only face-up race cards count; pit stop cards and face-down race cards are pit stop side up.
    Every column starts with a face-up race card, so the result is at least 1.
    """
    last = -1
    for entry in column:
        if is_face_up_race(entry):
            last = colour(entry)
    if last < 0:
        return 0
    n = 0
    for entry in column:
        if is_face_up_race(entry) and colour(entry) == last:
            n += 1
    return n


def speed_if_played(column, card):
    """The speed a race card would give if played race side up into this column."""
    c = colour(card)
    n = 1
    for entry in column:
        if is_face_up_race(entry) and colour(entry) == c:
            n += 1
    return n


def count_by_colour(cards):
    """A hand as the dashboard shows it: [cards of colour 0, .., colour 4, pit stop cards]."""
    counts = [0] * (COLOURS + 1)
    for card in cards:
        counts[COLOURS if card >= FIRST_PIT else colour(card)] += 1
    return counts
