"""Action notation: every action round-trips, bad text gets a clear error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.actions import (
    Action,
    ActionSyntaxError,
    BigGin,
    Discard,
    Done,
    Draw,
    Knock,
    LayOff,
    Pass,
    Take,
    parse_action,
)
from rummykit.cards import STANDARD_PACK, Card
from rummykit.melds import Meld

cards = st.sampled_from(STANDARD_PACK)
melds = st.sampled_from(
    [Meld.parse(t) for t in ("3H 4H 5H", "7C 7D 7S", "9D TD JD QD", "AS 2S 3S", "KC KD KH KS")]
)
actions: st.SearchStrategy[Action] = st.one_of(
    st.sampled_from([Draw(), Take(), Pass(), Done(), BigGin()]),
    st.builds(Discard, cards),
    st.builds(Knock, cards),
    st.builds(Knock, cards, st.lists(melds, min_size=1, max_size=3).map(tuple)),
    st.builds(LayOff, cards, st.integers(1, 9)),
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
        ("discard X", "joker"),
        ("draw 7H", "no arguments"),
        ("layoff 7H", "meld number"),
        ("layoff 7H 0", "meld number"),
        ("layoff 7H two", "meld number"),
        ("knock 9S: 3H 4H", "at least 3"),
        ("knock 9S: 3H 4H 5H |", "empty meld"),
        ("discard 7H: 8H", "unexpected"),
    ],
)
def test_bad_notation_is_refused_clearly(text: str, fragment: str) -> None:
    with pytest.raises(ActionSyntaxError, match=fragment):
        parse_action(text)


def test_non_string_is_refused() -> None:
    with pytest.raises(ActionSyntaxError):
        parse_action(7)  # type: ignore[arg-type]
