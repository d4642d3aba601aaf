"""The player protocol and the simplest player.

A computer player decides from a view alone (:class:`~rummykit.games.base.View`: one seat's
knowledge of a hand of any game), so a player can never peek at another hand or the stock order.

>>> from rummykit.games import Gin, Rummy
>>> state = Gin().new_hand(seed=7)
>>> player = RandomPlayer(seed=1)
>>> action = player.choose(state.view(state.to_act))
>>> action in state.legal_actions()
True
>>> table = Rummy().new_hand(players=4, seed=7)
>>> player.choose(table.view(table.to_act)) in table.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Protocol, TypeVar, runtime_checkable

from rummykit.actions import Action
from rummykit.games.base import View
from rummykit.players.reasons import Suggestion, because

__all__ = [
    "NoActionError",
    "Player",
    "RandomPlayer",
    "SeededPlayer",
    "Suggestion",
    "View",
    "checked_view",
    "decision_rng",
]

V = TypeVar("V")


class NoActionError(ValueError):
    """A player was asked to act on a view that lists no legal action (not its turn)."""


@runtime_checkable
class Player(Protocol):
    """A computer player: it sees only a view and answers with one of its legal actions."""

    name: str
    """A short name for tables and records, e.g. ``"random"``."""

    def choose(self, view: View) -> Action:
        """One action out of ``view.legal_actions``."""
        ...

    def suggest(self, view: View) -> Suggestion:
        """The action this player would take and why (:mod:`rummykit.players.reasons`)."""
        ...


def checked_view(view: View, kind: type[V], game: str) -> V:
    """``view`` as the game's own view type, if it is one and lists an action for its seat.

    Raises TypeError for another game's view and :class:`NoActionError` when the seat may not act.
    """
    if not isinstance(view, kind):
        raise TypeError(f"a {game} player needs a {kind.__name__}, not {type(view).__name__}")
    _check_turn(view)
    return view


def _check_turn(view: View) -> None:
    if not view.legal_actions:
        raise NoActionError(f"seat {view.seat} has no legal action now (seat {view.to_act} acts)")


def decision_rng(seed: int, *parts: object) -> random.Random:
    """A generator for one decision, seeded by the player's seed and ``parts`` (what the decision
    sees: the seat, the public history, the hand), so the same seed and view give the same draws.

    >>> first, again = decision_rng(1, 0, "draw;discard KD"), decision_rng(1, 0, "draw;discard KD")
    >>> first.random() == again.random()
    True
    """
    return random.Random("|".join(str(part) for part in (seed, *parts)))


class SeededPlayer:
    """What the computer levels share: a seed (a fresh random one when none is given) and
    ``choose``, the action of ``suggest``. Subclasses set ``name`` and write ``suggest``."""

    name: str

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 62)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def choose(self, view: View) -> Action:
        """This player's action."""
        return self.suggest(view)[0]

    def suggest(self, view: View) -> Suggestion:  # pragma: no cover - every level overrides it
        """This player's action and a short reason a person understands."""
        raise NotImplementedError


class RandomPlayer:
    """Picks uniformly among the legal actions with its own generator (deterministic per seed).

    It plays any game: it needs nothing from a view but ``seat``, ``to_act`` and
    ``legal_actions`` (so ``options``, the table's rules, are accepted and not needed).
    """

    name: str

    def __init__(self, seed: int | None = None, *, options: object = None) -> None:
        self.name = "random"
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomPlayer(seed={self.seed!r})"

    def choose(self, view: View) -> Action:
        """A uniformly random action out of ``view.legal_actions``."""
        _check_turn(view)
        actions = view.legal_actions
        return actions[self._rng.randrange(len(actions))]

    def suggest(self, view: View) -> Suggestion:
        """A random legal action, and the reason: there is none."""
        return Suggestion(self.choose(view), because("random"))
