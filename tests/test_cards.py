"""Cards: notation in and out, interning, packs, and clear errors."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import (
    JOKER,
    STANDARD_PACK,
    Card,
    CardError,
    Joker,
    Rank,
    Suit,
    double_pack,
    format_cards,
    parse_card,
    parse_cards,
    parse_natural_cards,
)


def test_pack_has_52_distinct_cards_in_index_order() -> None:
    assert len(STANDARD_PACK) == 52
    assert len(set(STANDARD_PACK)) == 52
    assert [c.index for c in STANDARD_PACK] == list(range(52))
    assert str(STANDARD_PACK[0]) == "AC" and str(STANDARD_PACK[-1]) == "KS"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H", "7H"),
        ("TC", "TC"),
        ("10C", "TC"),
        ("10c", "TC"),
        ("7♥", "7H"),
        ("Q♠", "QS"),
        ("a♦", "AD"),
        (" kd ", "KD"),
        ("X", "X"),
    ],
)
def test_parse_accepts_every_documented_spelling(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["", "7", "1H", "11C", "7Z", "ZH", "HH", "7HH", "joker", "10"])
def test_parse_rejects_bad_tokens_naming_them(bad: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


def test_cards_are_interned_values() -> None:
    assert Card.parse("7H") is Card("7", "H") is Card(Rank.SEVEN, Suit.HEARTS)
    assert Card.parse("7H") is not Card.parse("7D")
    assert pickle.loads(pickle.dumps(Card.parse("QS"))) is Card.parse("QS")
    assert copy.deepcopy(Card.parse("QS")) is Card.parse("QS")
    assert pickle.loads(pickle.dumps(JOKER)) is JOKER is Joker()
    with pytest.raises(AttributeError):
        Card.parse("7H").points = 3


def test_card_attributes() -> None:
    c = Card.parse("JD")
    assert (c.number, c.suit_index, c.index, c.points) == (11, 1, 13 + 10, 10)
    assert c.bit == 1 << c.index
    assert Card.parse("AS").points == 1 and Card.parse("9C").points == 9
    assert Card.from_index(c.index) is c
    assert c.symbol == "J♦"
    assert repr(c) == "Card.parse('JD')" and eval(repr(c)) is c


def test_parse_natural_refuses_jokers() -> None:
    with pytest.raises(CardError):
        parse_natural_cards("7H X")
    with pytest.raises(CardError):
        Card.parse("X")


def test_double_pack() -> None:
    pack = double_pack(4)
    assert len(pack) == 108
    assert pack.count(JOKER) == 4
    assert pack.count(Card.parse("7H")) == 2
    assert len(double_pack(0)) == 104
    with pytest.raises(ValueError):
        double_pack(-1)


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    assert format_cards(parse_cards("7H, 8h 10♥,X")) == "7H 8H TH X"
    assert parse_cards(["7H", "8H"]) == (Card.parse("7H"), Card.parse("8H"))
    assert parse_cards("") == ()


@given(st.lists(st.sampled_from([*STANDARD_PACK, JOKER]), max_size=20))
def test_notation_round_trips(cards: list[Card | Joker]) -> None:
    assert list(parse_cards(format_cards(cards))) == cards
    assert all(parse_card(c.symbol) is c for c in cards if isinstance(c, Card))


def test_the_package_offers_the_main_names_loaded_on_first_use() -> None:
    """``import rummykit`` gives the main API (each name the same object as in its module),
    loads no game until one is asked for, and names a missing attribute clearly."""
    import subprocess
    import sys

    import rummykit
    from rummykit.games import find_game
    from rummykit.record import load_record

    assert sorted(rummykit.__all__) == sorted(["__version__", *rummykit._WHERE])
    for name in rummykit.__all__:
        assert getattr(rummykit, name) is not None
    assert rummykit.find_game is find_game and rummykit.load_record is load_record
    assert "find_player" in dir(rummykit)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = rummykit.nope
    code = "import sys, rummykit; print('rummykit.games' in sys.modules)"
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert fresh.stdout.strip() == "False"
