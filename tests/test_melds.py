"""Natural melds with the ace low: sets, runs, lay-offs."""

from __future__ import annotations

import pytest

from rummykit.cards import Card
from rummykit.melds import Meld, MeldError, MeldKind, is_run, is_set


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("7S 7D 7C", MeldKind.SET),
        ("7S 7D 7C 7H", MeldKind.SET),
        ("AC 2C 3C", MeldKind.RUN),
        ("9H TH JH QH KH", MeldKind.RUN),
        ("3H 5H 4H", MeldKind.RUN),
    ],
)
def test_valid_melds(text: str, kind: MeldKind) -> None:
    assert Meld.parse(text).kind is kind


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("QC KC AC", "ace is low"),
        ("KC AC 2C", "ace is low"),
        ("7S 7D", "at least 3"),
        ("7S 8S 8S", "not consecutive"),
        ("7S 8D 9S", "neither"),
        ("3H 4H 6H", "not consecutive"),
    ],
)
def test_invalid_melds_say_why(text: str, reason: str) -> None:
    with pytest.raises(MeldError, match=reason):
        Meld.parse(text)


def test_is_set_and_is_run() -> None:
    c = Card.parse
    assert is_set([c("7S"), c("7D"), c("7C")])
    assert not is_set([c("7S"), c("7S"), c("7C")])
    assert not is_run([c("QC"), c("KC"), c("AC")])
    assert is_run([c("AC"), c("2C"), c("3C")])


def test_lay_offs_extend_runs_at_either_end_and_sets_to_four() -> None:
    run = Meld.parse("4H 5H 6H")
    assert str(run.extended_by(Card.parse("7H"))) == "4H 5H 6H 7H"
    assert str(run.extended_by(Card.parse("3H"))) == "3H 4H 5H 6H"
    assert run.extended_by(Card.parse("8H")) is None
    assert run.extended_by(Card.parse("7S")) is None
    four = Meld.parse("6S 6D 6C").extended_by(Card.parse("6H"))
    assert four is not None and len(four) == 4
    assert four.extended_by(Card.parse("6H")) is None
    assert not Meld.parse("QH KH JH").accepts(Card.parse("AH"))
    assert Meld.parse("2C 3C 4C").accepts(Card.parse("AC"))
    assert Meld.parse("2C 3C 4C").points == 9
