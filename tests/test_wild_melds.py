"""Crazy Rummy melds: books and runs with wilds, identities, lay-offs, swaps, notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.cards import JOKER, Card, Suit, double_pack, format_cards, parse_cards
from rummykit.melds import MeldError
from rummykit.wild_melds import (
    Book,
    Run,
    WildRules,
    crazy_points,
    hand_points,
    is_wild,
    parse_meld,
    position_card,
)

C = Card.parse


def stands(run: Run) -> list[str]:
    return [str(c) for c in run.stands_for]


# --------------------------------------------------------------------------------------------------
# Rules, wilds, points
# --------------------------------------------------------------------------------------------------


def test_rules_are_validated_keyword_only_values() -> None:
    rules = WildRules()
    assert (rules.max_wilds_run, rules.max_wilds_book, rules.min_book, rules.min_run) == (
        2,
        1,
        3,
        4,
    )
    assert WildRules(max_wilds_run=3) != rules
    with pytest.raises(ValueError):
        WildRules(max_wilds_run=-1)
    with pytest.raises(ValueError):
        WildRules(min_book=2)
    with pytest.raises(ValueError):
        WildRules(min_run=14)
    with pytest.raises(TypeError):
        WildRules(2)  # type: ignore[call-arg]


def test_wilds_and_points() -> None:
    assert [is_wild(c) for c in parse_cards("2H 2C X 3H AS")] == [True, True, True, False, False]
    assert [crazy_points(c) for c in parse_cards("AH 2H 3H 8H 9H TH JH QH KH X")] == [
        15,
        20,
        5,
        5,
        10,
        10,
        10,
        10,
        10,
        20,
    ]
    assert hand_points(parse_cards("AH X 5D")) == 40
    assert hand_points(double_pack(4)) == 2 * 4 * (15 + 20 + 6 * 5 + 5 * 10) + 4 * 20


def test_position_cards() -> None:
    assert [str(position_card(p, Suit.HEARTS)) for p in (1, 2, 10, 13, 14)] == [
        "AH",
        "2H",
        "TH",
        "KH",
        "AH",
    ]
    with pytest.raises(ValueError):
        position_card(15, Suit.HEARTS)


# --------------------------------------------------------------------------------------------------
# Books
# --------------------------------------------------------------------------------------------------


def test_books_with_duplicates_and_wilds() -> None:
    book = Book.parse("4H 4H 4S")
    assert str(book) == "4H 4H 4S" and book.wild_count == 0 and book.points == 15
    with pytest.raises(MeldError, match="too many wilds"):
        Book.parse("4S X 4H 2D")
    assert str(Book.parse("4S 4D 4H 2D")) == "4D 4H 4S 2D"
    assert Book.parse("4S 4D 2H").naturals == (C("4D"), C("4S"))
    assert Book.parse("4S 4D 2H").wilds == (C("2H"),)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4H 4S", "at least 3"),
        ("4H 5H 6H 4S", "one rank"),
        ("4H X X", "too many wilds"),
        ("2H 2S 2D", "every 2 is wild"),
        ("4H 2S X 4D", "too many wilds"),
    ],
)
def test_invalid_books_say_why(text: str, reason: str) -> None:
    with pytest.raises(MeldError, match=reason):
        Book.parse(text)


def test_more_wilds_than_naturals_is_refused_even_when_the_limit_allows() -> None:
    loose = WildRules(max_wilds_book=3, max_wilds_run=4)
    assert Book.parse("4H 4D X 2C", loose).wild_count == 2
    with pytest.raises(MeldError, match="more wilds than natural"):
        Book.parse("4H X 2C", loose)
    assert Run.parse("4H X X 7H", loose).wild_count == 2
    with pytest.raises(MeldError, match="more wilds than natural"):
        Run.parse("4H X X X 8H", loose)


def test_book_lay_offs() -> None:
    book = Book.parse("9C 9D 9S")
    assert str(book.extended_by(C("9S"))) == "9C 9D 9S 9S"
    assert str(book.extended_by(C("2H"))) == "9C 9D 9S 2H"
    assert book.extended_by(C("8S")) is None
    with_wild = book.extended_by(JOKER)
    assert with_wild is not None and with_wild.wild_count == 1
    assert with_wild.extended_by(C("2C")) is None  # one wild a book
    assert with_wild.accepts(C("9H")) and not with_wild.accepts(JOKER)


def test_swap_is_refused_in_a_book() -> None:
    book = Book.parse("9C 9D X")
    assert book.swap(C("9S")) is None
    assert book.swap(C("9C")) is None


# --------------------------------------------------------------------------------------------------
# Runs
# --------------------------------------------------------------------------------------------------


def test_run_positions_and_wild_identities() -> None:
    run = Run.parse("5H X 2C 8H")
    assert (run.suit, run.low, run.high) == (Suit.HEARTS, 5, 8)
    assert stands(run) == ["5H", "6H", "7H", "8H"]
    assert run.wild_count == 2 and run.naturals == (C("5H"), C("8H"))
    assert [(str(a), str(b)) for a, b in run.placements] == [
        ("5H", "5H"),
        ("X", "6H"),
        ("2C", "7H"),
        ("8H", "8H"),
    ]
    assert [run.is_wild_at(i) for i in range(4)] == [False, True, True, False]
    assert run.points == 5 + 20 + 20 + 5


def test_ace_high_and_ace_low() -> None:
    high = Run.parse("JS QS KS AS")
    assert (high.low, high.high) == (11, 14)
    low = Run.parse("AS 2S 3S 4S")
    assert (low.low, low.high) == (1, 4)
    assert stands(Run.parse("JS QS KS X")) == ["JS", "QS", "KS", "AS"]
    assert stands(Run.parse("X X 3S 4S")) == ["AS", "2S", "3S", "4S"]
    longest = Run.parse("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    assert len(longest) == 13 and longest.low == 2


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("QH KH AH 2H", "past the ace"),
        ("KH AH 2H 3H", "past the ace"),
        ("X X QH KH AH X", "past the ace"),
        ("X X X 3H", "below the ace"),
        ("5H 6H 7H", "at least 4"),
        ("5H 6C 7H 8H", "one suit"),
        ("5H 7H 8H 9H", "out of sequence"),
        ("5H 5H 6H 7H", "two cards for one place"),
        ("5H X X X 9H TH", "too many wilds"),
        ("X X 2C 7H", "too many wilds"),
        ("X 2C X", "at least 4"),
        ("X X 2C 2D", "natural cards other than 2s"),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "at most 13"),
        ("AH X X AH", "two cards for one place"),
        ("X AH X X", "past the ace"),
        ("X 5D 4D 3D", "from its low card up, e.g. 3D 4D 5D X"),
        ("X KH X JH", "from its low card up, e.g. JH X KH X"),
        # Falling, but no run the other way round either: the first real reason.
        ("4H 3H X X X", "3H is out of sequence"),
        ("QH JH X X X", "past the ace"),
        # Natural cards of one suit that make a run in another order: that order.
        ("5H 3H 4H 6H", "from its low card up, e.g. 3H 4H 5H 6H"),
        ("KH QH JH AH", "from its low card up, e.g. JH QH KH AH"),
        ("QH AH KH JH", "from its low card up, e.g. JH QH KH AH"),
        ("4H 3H AH 2H", "from its low card up, e.g. AH 2H 3H 4H"),
        # ... the ace included, written at the wrong end.
        ("AH JH QH KH", "from its low card up, e.g. JH QH KH AH"),
        ("2H 3H 4H AH", "from its low card up, e.g. AH 2H 3H 4H"),
        # With a wild the order cannot be guessed: the card out of place.
        ("3H 5H 4H X", "5H is out of sequence"),
    ],
)
def test_invalid_runs_say_why(text: str, reason: str) -> None:
    with pytest.raises(MeldError, match=reason):
        Run.parse(text)


RANKS_LOW_TO_ACE_HIGH = "A23456789TJQKA"


def natural_run(low: int, length: int, suit: str) -> list[Card]:
    """The natural run of the suit from position ``low`` (1: the ace low; 14: the ace high)."""
    return [Card.parse(f"{RANKS_LOW_TO_ACE_HIGH[n - 1]}{suit}") for n in range(low, low + length)]


@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_natural_runs_out_of_order_are_told_their_order(data: st.DataObject) -> None:
    # Runs without a 2: every card is natural wherever it is written, so a run written in any
    # other order is refused with the order to write it in.
    length = data.draw(st.integers(4, 8))
    low = data.draw(st.integers(3, 15 - length))  # the ace may end a run high, after the king
    run = natural_run(low, length, data.draw(st.sampled_from("CDHS")))
    shuffled = data.draw(st.permutations(run))
    if shuffled == run:
        assert Run.of(shuffled).cards == tuple(run)
        return
    with pytest.raises(MeldError, match=f"from its low card up, e.g. {format_cards(run)}$"):
        Run.of(shuffled)


@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_runs_holding_a_two_read_it_as_a_wild_or_are_told_their_order(
    data: st.DataObject,
) -> None:
    # Runs holding the 2 of their suit (from the ace or the 2 up): the 2 is natural only in its
    # own place, so written in another order it is a wild when the other cards then make a run
    # (3C 4C 5C 2C: the 2 stands for 6C); otherwise the order to write them in is given.
    length = data.draw(st.integers(4, 8))
    low = data.draw(st.integers(1, 2))
    suit = data.draw(st.sampled_from("CDHS"))
    run = natural_run(low, length, suit)
    two = Card.parse(f"2{suit}")
    shuffled = data.draw(st.permutations(run))
    if shuffled == run:
        assert Run.of(shuffled).wild_count == 0
        return
    try:
        meld = Run.of(shuffled)
    except MeldError as error:
        assert str(error).endswith(f"from its low card up, e.g. {format_cards(run)}"), str(error)
        return
    assert meld.cards == tuple(shuffled)  # kept as written
    assert meld.wilds == (two,)
    assert set(meld.naturals) == set(run) - {two}
    assert two not in meld.stands_for
    assert set(meld.stands_for) == set(meld.naturals) | {meld.stands_for[shuffled.index(two)]}


def test_a_two_in_its_own_place_is_natural() -> None:
    run = Run.parse("AH 2H 3H 4H")
    assert run.wild_count == 0 and run.naturals == (C("AH"), C("2H"), C("3H"), C("4H"))
    # so two more wilds still fit
    assert Run.parse("AH 2H X X").wild_count == 2
    # a 2 of another suit in that place, or the 2 elsewhere, is a wild
    assert Run.parse("AH 2C 3H 4H").wild_count == 1
    assert Run.parse("2H 3H 4H 5H").wild_count == 0
    assert Run.parse("3H 4H 2H 6H").wild_count == 1
    # and it cannot be swapped out
    assert run.swap(C("2H")) is None
    assert Run.parse("AH 2H 3H X").swap(C("2H")) is None


def test_swap_a_wild_out_of_a_run() -> None:
    run = Run.parse("5H X 2C 8H")
    swapped = run.swap(C("7H"))
    assert swapped is not None
    new_run, freed = swapped
    assert str(new_run) == "5H X 7H 8H" and freed == C("2C")
    assert new_run.wild_count == 1 and stands(new_run) == stands(run)
    assert run.swap(C("5H")) is None  # natural there already
    assert run.swap(C("9H")) is None  # nothing stands for it
    assert run.swap(C("6S")) is None  # wrong suit
    assert run.swap(JOKER) is None
    # the natural 2 of the suit may replace a wild standing for it
    assert Run.parse("AH X 3H 4H").swap(C("2H")) == (Run.parse("AH 2H 3H 4H"), JOKER)
    # an ace high replaces the wild at position 14
    assert Run.parse("JS QS KS X").swap(C("AS")) == (Run.parse("JS QS KS AS"), JOKER)


def test_lay_offs_at_both_ends() -> None:
    run = Run.parse("5H 6H 7H 8H")
    assert str(run.extended_by(C("4H"))) == "4H 5H 6H 7H 8H"
    assert str(run.extended_by(C("9H"), "high")) == "5H 6H 7H 8H 9H"
    assert run.extended_by(C("9H"), "low") is None
    assert run.extended_by(C("TH")) is None
    assert run.extended_by(C("9S")) is None
    # a wild must name its end and stands for the card past it
    assert run.extended_by(JOKER) is None
    low = run.extended_by(JOKER, "low")
    high = run.extended_by(C("2C"), "high")
    assert low is not None and stands(low)[0] == "4H" and low.wild_count == 1
    assert high is not None and stands(high)[-1] == "9H" and high.wild_count == 1
    assert run.layoff_ends(JOKER) == ("low", "high")
    assert run.layoff_ends(C("9H")) == ("high",)
    # the limits hold at all times
    two = Run.parse("5H X X 8H")
    assert two.extended_by(JOKER, "high") is None
    assert two.extended_by(C("9H")) is not None


def test_lay_offs_stop_at_the_ace_and_at_thirteen() -> None:
    high = Run.parse("JS QS KS AS")
    assert high.extended_by(JOKER, "high") is None
    assert high.extended_by(C("2S")) is None  # no wrapping
    assert str(high.extended_by(C("TS"))) == "TS JS QS KS AS"
    low = Run.parse("AS 2S 3S 4S")
    assert low.extended_by(JOKER, "low") is None
    assert low.extended_by(C("KS")) is None
    # an ace on a 2-K run fits at either end: low unless told
    two_to_king = Run.parse("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    assert two_to_king.layoff_ends(C("AS")) == ("low", "high")
    assert two_to_king.extended_by(C("AS")) == Run.parse("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    ace_high = two_to_king.extended_by(C("AS"), "high")
    assert ace_high is not None and ace_high.high == 14
    assert ace_high.extended_by(C("AS")) is None  # 13 cards


def test_a_two_laid_off_below_three_is_natural() -> None:
    run = Run.parse("3H 4H X 6H")
    low = run.extended_by(C("2H"))
    assert low is not None and low.low == 2 and low.wild_count == 1
    assert low.extended_by(JOKER, "low") is not None  # the 2 did not use up the wild limit
    as_wild = run.extended_by(C("2H"), "high")  # named at the high end, it is a wild for 7H
    assert as_wild is not None and as_wild.wild_count == 2 and stands(as_wild)[-1] == "7H"
    assert Run.parse("3H 4H 5H 6H").extended_by(C("2H"), "high") == Run.parse("3H 4H 5H 6H 2H")


# --------------------------------------------------------------------------------------------------
# Notation
# --------------------------------------------------------------------------------------------------


def test_parse_meld_decides_book_or_run() -> None:
    assert isinstance(parse_meld("9C 9D 9S"), Book)
    assert isinstance(parse_meld("9C 9D 2S"), Book)
    assert isinstance(parse_meld("5H X 2C 8H"), Run)
    # one natural of its rank plus a natural 2: a book would be too wild, so it is a run
    assert parse_meld("2H 3H X X") == Run.parse("2H 3H X X")
    with pytest.raises(MeldError, match=r"more wilds|too many"):
        parse_meld("9C 9D X 2D")
    with pytest.raises(MeldError, match="at least 4"):
        parse_meld("X 2C 5H")


def test_repr_and_str_round_trip() -> None:
    for text in ("5H X 2C 8H", "4H 4H 4S", "JS QS KS X", "AH 2H 3H 4H", "9D 9S 2C"):
        meld = parse_meld(text)
        assert parse_meld(str(meld)) == meld
        assert eval(repr(meld)) == meld  # the repr is runnable


runs_strategy = st.builds(
    lambda suit, low, length, holes: (suit, low, length, holes),
    st.sampled_from(list(Suit)),
    st.integers(1, 11),
    st.integers(4, 13),
    st.lists(st.integers(0, 12), max_size=2, unique=True),
)


@settings(max_examples=examples(200), deadline=None)
@given(runs_strategy)
def test_random_runs_round_trip_and_swap_back(case: tuple[Suit, int, int, list[int]]) -> None:
    suit, low, length, holes = case
    length = min(length, 15 - low)
    if length < 4:
        return
    naturals = [position_card(p, suit) for p in range(low, low + length)]
    placed = [JOKER if i in holes else c for i, c in enumerate(naturals)]
    run = Run.of(placed)
    assert run.stands_for == tuple(naturals)
    assert Run.parse(str(run)) == run
    assert run.wild_count == sum(1 for i in holes if i < length)
    for i in holes:
        if i < length:
            swapped = run.swap(naturals[i])
            assert swapped is not None and swapped[1] is JOKER
            run = swapped[0]
    assert run.wild_count == 0 and format_cards(run.cards) == format_cards(naturals)
