"""Action notation: every action round-trips, bad text gets a clear error."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.actions import (
    Action,
    ActionSyntaxError,
    BigGin,
    Buy,
    Discard,
    Done,
    Down,
    Draw,
    Knock,
    LayOff,
    Pass,
    Swap,
    Take,
    parse_action,
)
from rummykit.cards import JOKER, STANDARD_PACK, Card, parse_cards
from rummykit.melds import Meld

cards = st.sampled_from(STANDARD_PACK)
any_cards = st.sampled_from([*STANDARD_PACK, JOKER])
melds = st.sampled_from(
    [Meld.parse(t) for t in ("3H 4H 5H", "7C 7D 7S", "9D TD JD QD", "AS 2S 3S", "KC KD KH KS")]
)
actions: st.SearchStrategy[Action] = st.one_of(
    st.sampled_from([Draw(), Take(), Pass(), Done(), BigGin()]),
    st.builds(Discard, cards),
    st.builds(Knock, cards),
    st.builds(Knock, cards, st.lists(melds, min_size=1, max_size=3).map(tuple)),
    st.builds(LayOff, cards, st.integers(1, 9)),
    st.builds(LayOff, any_cards, st.integers(1, 9), st.sampled_from(["low", "high"])),
    st.builds(Discard, any_cards),
    st.just(Buy()),
    st.builds(Swap, cards, st.integers(1, 20)),
    st.builds(
        Down,
        st.lists(
            st.lists(any_cards, min_size=1, max_size=6).map(tuple), min_size=1, max_size=3
        ).map(tuple),
    ),
)


@given(actions)
def test_every_action_round_trips(action: Action) -> None:
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", Draw()),
        ("  Take ", Take()),
        ("discard 10d", Discard(Card.parse("TD"))),
        ("discard K♦", Discard(Card.parse("KD"))),
        ("knock 9S", Knock(Card.parse("9S"))),
        ("layoff 7H 2", LayOff(Card.parse("7H"), 2)),
        ("layoff x 3 HIGH", LayOff(JOKER, 3, "high")),
        ("discard X", Discard(JOKER)),
        ("buy", Buy()),
        ("swap 7h 3", Swap(Card.parse("7H"), 3)),
        (
            "down 5H X 2C 8H|9C 9D 9S",
            Down((tuple(parse_cards("5H X 2C 8H")), tuple(parse_cards("9C 9D 9S")))),
        ),
        (
            "knock 9S: 3H 4H 5H|7C 7D 7S",
            Knock(Card.parse("9S"), (Meld.parse("3H 4H 5H"), Meld.parse("7C 7D 7S"))),
        ),
    ],
)
def test_parse_examples(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("fly", "unknown action"),
        ("discard", "exactly one card"),
        ("discard 7H 8H", "exactly one card"),
        ("discard 7Z", "not a card"),
        ("knock X", "joker"),
        ("layoff X 2 middle", "'low' or 'high'"),
        ("down", "'down' takes"),
        ("down 7H 8H |", "'down' takes"),
        ("swap X 2", "the natural card a wild stands for, not a joker"),
        ("swap 7H", "'swap' takes"),
        ("buy 7H", "no arguments"),
        ("draw 7H", "no arguments"),
        ("layoff 7H", "meld number"),
        ("layoff 7H 0", "meld number"),
        ("layoff 7H two", "meld number"),
        ("layoff 7H ²", "meld number"),  # a digit to str.isdigit, not to int()
        ("layoff 7H " + "9" * 5000, "meld number"),  # too long for int()
        ("knock 9S: 3H 4H", "at least 3"),
        ("knock 9S: 3H 4H 5H |", "empty meld"),
        ("discard 7H: 8H", "unexpected"),
        ("pass:", "no arguments"),  # a ':' with nothing after it (was read as a plain pass)
        ("discard 7H:", "unexpected"),
    ],
)
def test_bad_notation_is_refused_clearly(text: str, fragment: str) -> None:
    with pytest.raises(ActionSyntaxError, match=fragment):
        parse_action(text)


def test_non_string_is_refused() -> None:
    with pytest.raises(ActionSyntaxError):
        parse_action(7)  # type: ignore[arg-type]


def test_actions_are_shared_by_copies_like_cards() -> None:
    # Values that never change: a deep copy of a game state shares them (and is faster for it).
    for text in ("draw", "discard 7H", "knock 9S", "layoff X 2 low", "meld 7S 7D 7C", "done"):
        action = parse_action(text)
        assert copy.deepcopy(action) is action and copy.copy(action) is action


def test_a_knock_naming_no_meld_round_trips() -> None:
    """``Knock(card, ())`` names an arrangement with no meld (legal with a high knock limit):
    written "knock 3H: ", it reads back as itself, not as a plain knock or an error."""
    card = Card.parse("3H")
    for action in (Knock(card), Knock(card, ()), Knock(card, (Meld.parse("7H 8H 9H"),))):
        assert parse_action(str(action)) == action
    assert parse_action("knock 3H:") == Knock(card, ())
