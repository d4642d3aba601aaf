"""Gin Rummy for two players: options, one hand as a state machine, and a match to 100.

The parts: :mod:`~rummykit.games.gin.rules` (options, outcomes, results),
:mod:`~rummykit.games.gin.view`, :mod:`~rummykit.games.gin.state` (one hand) and
:mod:`~rummykit.games.gin.game` (the game and its match).

>>> from rummykit.actions import Pass
>>> game = Gin()
>>> state = game.new_hand(seed=7)
>>> state.phase, state.to_act
(<Phase.OFFER: 'offer'>, 1)
>>> state.apply(Pass()); state.apply(Pass()); state.phase
<Phase.DRAW: 'draw'>
>>> [str(a) for a in state.legal_actions()]
['draw']
"""

from rummykit.games.gin.game import Gin, GinMatch, GinMatchResult, GinMatchView, gin_hand_from_cards
from rummykit.games.gin.rules import GinDeal, GinHandResult, GinOptions, NextDealer, Outcome
from rummykit.games.gin.state import GinState
from rummykit.games.gin.view import GinView

__all__ = [
    "Gin",
    "GinDeal",
    "GinHandResult",
    "GinMatch",
    "GinMatchResult",
    "GinMatchView",
    "GinOptions",
    "GinState",
    "GinView",
    "NextDealer",
    "Outcome",
    "gin_hand_from_cards",
]
