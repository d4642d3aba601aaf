"""Crazy Rummy: seven contract rounds, two packs with jokers, wild 2s, buying the up-card.

A game of Crazy Rummy is a match of seven rounds (:class:`CrazyMatch`); each round is a
:class:`CrazyState`. Points left in hand are bad: after round 7 the lowest total wins.

The parts: :mod:`~rummykit.games.crazy.rules` (options, outcomes, results),
:mod:`~rummykit.games.crazy.view`, the round's :mod:`~rummykit.games.crazy.offer` (the up-card,
buying, drawing) and :mod:`~rummykit.games.crazy.melding` (laying down, laying off, swapping),
put together in :mod:`~rummykit.games.crazy.state`; :mod:`~rummykit.games.crazy.game` holds the
game and its match.

>>> game = Crazy()
>>> state = game.new_hand(players=4, seed=3)
>>> state.round, str(state.contract), [len(h) for h in state.hands]
(1, '2 books', [7, 7, 7, 7])
>>> state.phase, state.to_act                 # the dealer has the first pick of the up-card
(<Phase.OFFER: 'offer'>, 0)
"""

from rummykit.games.crazy.game import Crazy, CrazyMatch, CrazyMatchResult
from rummykit.games.crazy.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    CrazyOptions,
    CrazyOutcome,
    CrazyRoundResult,
)
from rummykit.games.crazy.state import CrazyState
from rummykit.games.crazy.view import CrazyView
from rummykit.games.table_meld import TableMeld

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ROUNDS",
    "Crazy",
    "CrazyMatch",
    "CrazyMatchResult",
    "CrazyOptions",
    "CrazyOutcome",
    "CrazyRoundResult",
    "CrazyState",
    "CrazyView",
    "TableMeld",
]
