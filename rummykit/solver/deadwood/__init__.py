"""The exact Gin Rummy meld solver: least deadwood, best arrangement, best discard, best lay-offs.

Sets are 3 or 4 cards of one rank; runs are 3 or more consecutive cards of one suit, the ace low
only. A hand's deadwood is the least total of points of cards left out of melds, over every way of
splitting the hand into non-overlapping melds.

How it works (a hand as a 52-bit mask, tables per suit, the choices of sets): ``docs/solvers.md``.

>>> from rummykit.cards import parse_natural_cards
>>> hand = parse_natural_cards("7H 7D 7C 7S 8S 9S 2C")
>>> arrangement = best_arrangement(hand)
>>> arrangement.deadwood, [str(m) for m in arrangement.melds], [str(c) for c in arrangement.unmatched]
(2, ['7C 7D 7H', '7S 8S 9S'], ['2C'])
>>> best_discards(parse_natural_cards("6S 7S 8S 9S 8C 8D 8H 3D AH 7D 7H"))
(10, (Card.parse('9S'),))
"""

from __future__ import annotations

from rummykit.solver.deadwood.after_discard import (
    min_deadwood_after_discard,
    min_deadwood_after_discard_mask,
)
from rummykit.solver.deadwood.arrangement import Arrangement, best_arrangement
from rummykit.solver.deadwood.core import (
    hand_mask,
    mask_cards,
    min_deadwood,
    min_deadwood_mask,
)
from rummykit.solver.deadwood.discards import best_discards, discard_deadwoods
from rummykit.solver.deadwood.layoffs import LayoffPlan, best_layoffs

__all__ = [
    "Arrangement",
    "LayoffPlan",
    "best_arrangement",
    "best_discards",
    "best_layoffs",
    "discard_deadwoods",
    "hand_mask",
    "mask_cards",
    "min_deadwood",
    "min_deadwood_after_discard",
    "min_deadwood_after_discard_mask",
    "min_deadwood_mask",
]
