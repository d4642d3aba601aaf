"""Computer players for Gin Rummy, three levels, and hints a person can read.

Every player decides from a :class:`~rummykit.games.gin.GinView` alone (never the state), and is
deterministic given its seed: each decision draws from a generator seeded with the player's seed
and the view's public history, so the same view always gets the same answer.

- ``easy`` (:class:`EasyGinPlayer`) plays legal, sensible moves with deliberate mistakes: it
  sometimes throws a random unmatched card instead of its worst one, overlooks a useful up-card,
  holds on instead of knocking, skips lay-offs, and never watches what the opponent collects.
- ``medium`` (:class:`MediumGinPlayer`) plays sound heuristics on the exact deadwood: it throws
  the card that leaves the least deadwood (keeping the more flexible cards on a tie, and holding
  back cards of the rank of, or next in suit to, a card the opponent took); it takes the up-card
  only when it joins a meld and lowers the deadwood, or allows a knock; it knocks as soon as it
  may, except that early on it waits for gin with a nearly-gin hand; as the defender it lays off
  the best way.
- ``hard`` (:class:`HardGinPlayer`) remembers every card (:mod:`rummykit.players.tracking`) and
  deals the unseen cards at random many times, consistently with what the opponent took, threw,
  drew past and did not knock with: the deals tell it how likely the opponent holds each card
  (so it knows what is dangerous to throw) and what the stock may bring. It scores each discard
  by the deadwood left, what the next stock card may do (the points it may save, the chance it
  allows a knock), and the danger of feeding the opponent, and looks one more draw ahead for the
  best few; it takes the up-card when that leaves a better hand than the average stock card
  would. When it may knock it plays every sampled deal out to the end of the hand both ways
  (determinized Monte Carlo: knocking is scored exactly against the sampled hand, lay-offs and
  undercut included), against hands as good as a real opponent's by then, and waits when waiting
  pays more.

``suggest(view)`` returns the player's move and a short reason, e.g.
``"discard KD: highest card, no meld nearby"``; the hint button uses the hard player's.

>>> from rummykit.games import Gin
>>> state = Gin().new_hand(seed=7)
>>> hard = HardGinPlayer(seed=1)
>>> action, reason = hard.suggest(state.view(state.to_act))
>>> action in state.legal_actions() and bool(reason)
True

The parts: :mod:`~rummykit.players.gin.common`, :mod:`~rummykit.players.gin.memory` (what a
seat knows), :mod:`~rummykit.players.gin.evaluation` (discards scored),
:mod:`~rummykit.players.gin.levels` (easy, medium, the reasons),
:mod:`~rummykit.players.gin.playouts` and :mod:`~rummykit.players.gin.hard`.
"""

from rummykit.players.gin.evaluation import (
    DEFAULT_WEIGHTS,
    HARD_WEIGHTS,
    MEDIUM_WEIGHTS,
    DiscardWeights,
)
from rummykit.players.gin.hard import HardGinPlayer
from rummykit.players.gin.levels import EasyGinPlayer, MediumGinPlayer
from rummykit.players.gin.memory import discarded_cards, gin_memory

__all__ = [
    "DEFAULT_WEIGHTS",
    "HARD_WEIGHTS",
    "MEDIUM_WEIGHTS",
    "DiscardWeights",
    "EasyGinPlayer",
    "HardGinPlayer",
    "MediumGinPlayer",
    "discarded_cards",
    "gin_memory",
]
