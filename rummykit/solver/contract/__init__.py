"""The Crazy Rummy contract solver: can a hand lay down its round's contract, how best, how far.

:func:`solve_contract` answers whether the contract (so many books and runs) can be laid down from
a hand and, if so, returns the way that leaves the fewest points in the hand; every wild is placed
with its identity fixed. :func:`contract_distance` answers how many more cards the hand needs
before it can (0 if it can now), and :func:`missing_cards` names such cards. All three are exact.

>>> from rummykit.cards import parse_cards
>>> hand = parse_cards("5H 8H X 2C 9C 9D 9S KD")
>>> solution = solve_contract(hand, CONTRACTS[1])          # round 2: a book and a run
>>> [str(m) for m in solution.melds], [str(c) for c in solution.left], solution.points_left
(['9C 9D 9S', '5H X 2C 8H'], ['KD'], 10)
>>> solve_contract(parse_cards("5H 8H 9C 9D KD X 3S"), CONTRACTS[0]) is None
True
>>> contract_distance(parse_cards("5H 8H 9C 9D KD X 3S"), CONTRACTS[0])
2
>>> [str(c) for c in missing_cards(parse_cards("5H 8H 9C 9D KD X 3S"), CONTRACTS[0])]
['3C', '9H']

How it works (suit tables, wilds placed last, books tried best bound first, the distance):
``docs/solvers.md``.
"""

from __future__ import annotations

from rummykit.solver.contract.contracts import CONTRACTS, HAND_SIZES, Contract, ContractSolution
from rummykit.solver.contract.distance import contract_distance, missing_cards
from rummykit.solver.contract.distance_tables import _DIST_SHAPES, _DIST_TABLES, _SUIT_DIST_TABLES
from rummykit.solver.contract.solve import _SOLVED, solve_contract
from rummykit.solver.contract.solve_tables import _SOLVE_REST, _SOLVE_SHAPES

__all__ = [
    "CONTRACTS",
    "HAND_SIZES",
    "Contract",
    "ContractSolution",
    "cache_clear",
    "contract_distance",
    "missing_cards",
    "solve_contract",
]


def cache_clear() -> None:
    """Forget the cached suit tables and solutions (they only make repeated calls faster)."""
    _SOLVED.clear()
    _SOLVE_REST.clear()
    _SOLVE_SHAPES.clear()
    _DIST_TABLES.clear()
    _SUIT_DIST_TABLES.clear()
    _DIST_SHAPES.clear()
