"""The quick screen before the contract solver never turns away a hand the solver can lay down."""

from __future__ import annotations

import random

import pytest

import rummykit.solver.contract.solve as solve_module
from rummykit.cards import Card, double_pack, parse_cards
from rummykit.solver.contract import CONTRACTS, HAND_SIZES, solve_contract
from rummykit.solver.contract.screen import may_lay_down
from rummykit.wild_melds import DEFAULT_RULES, WildRules

RULES = (
    DEFAULT_RULES,
    WildRules(max_wilds_run=1, max_wilds_book=2, min_book=4, min_run=3),
    WildRules(max_wilds_run=0, max_wilds_book=0),
    WildRules(max_wilds_run=3, min_run=5),
)


@pytest.mark.parametrize("dense", [False, True])
def test_a_screened_out_hand_has_no_lay_down(monkeypatch: pytest.MonkeyPatch, dense: bool) -> None:
    monkeypatch.setattr(solve_module, "may_lay_down", lambda *_: True)  # the solver alone
    rng = random.Random(30 + dense)
    pack = double_pack(4)
    if dense:  # two suits and the wilds: many hands can lay down, many nearly can
        pack = tuple(
            c for c in pack if not isinstance(c, Card) or c.suit_index < 2 or c.number == 2
        )
    screened = solvable = 0
    for _ in range(1500):
        index = rng.randrange(7)
        rules = rng.choice(RULES)
        hand = rng.sample(pack, HAND_SIZES[index] + rng.randrange(5))
        solution = solve_contract(hand, CONTRACTS[index], rules)
        if not may_lay_down(hand, CONTRACTS[index], rules):
            screened += 1
            assert solution is None, (hand, index, rules)
        solvable += solution is not None
    assert screened > 300 and solvable > 100  # both sides of the screen were tried


def test_the_screen_passes_a_hand_that_lays_down() -> None:
    hand = parse_cards("5H 8H X 2C 9C 9D 9S KD")
    assert may_lay_down(hand, CONTRACTS[1], DEFAULT_RULES)
    assert not may_lay_down(parse_cards("5H 8H 9C 9D KD X 3S"), CONTRACTS[0], DEFAULT_RULES)
