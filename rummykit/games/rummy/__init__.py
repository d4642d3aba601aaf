"""Basic Rummy for 2-6 players: options with two presets, one hand as a state machine, a match.

Presets: ``rummy`` (Straight Rummy: one new meld a turn, the discard pile turned over once) and
``rummy-classic`` (any number of melds a turn, the discard pile shuffled once).

The parts: :mod:`~rummykit.games.rummy.rules` (options, presets, outcomes, results),
:mod:`~rummykit.games.rummy.view`, :mod:`~rummykit.games.rummy.state` (one hand) and
:mod:`~rummykit.games.rummy.game` (the game and its match).

>>> game = Rummy.preset("rummy")
>>> state = game.new_hand(players=4, seed=7)
>>> state.phase, state.to_act, [len(h) for h in state.hands]
(<Phase.DRAW: 'draw'>, 1, [7, 7, 7, 7])
"""

from rummykit.games.rummy.game import Rummy, RummyMatch, RummyMatchResult, rummy_hand_from_cards
from rummykit.games.rummy.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    Restock,
    RummyHandResult,
    RummyOptions,
    RummyOutcome,
    Stranding,
    hand_size,
)
from rummykit.games.rummy.state import RummyState, melds_in
from rummykit.games.rummy.view import RummyView
from rummykit.games.table_meld import TableMeld

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRESETS",
    "Restock",
    "Rummy",
    "RummyHandResult",
    "RummyMatch",
    "RummyMatchResult",
    "RummyOptions",
    "RummyOutcome",
    "RummyState",
    "RummyView",
    "Stranding",
    "TableMeld",
    "hand_size",
    "melds_in",
    "rummy_hand_from_cards",
]
