"""Matches of any game: the protocol every match follows, its result, and a seat's view of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Self

from rummykit.games.base import HandState, View

if TYPE_CHECKING:
    from rummykit.actions import Action
    from rummykit.games.deal import Deal

__all__ = [
    "Match",
    "MatchResult",
    "MatchView",
    "match_view",
]


class MatchResult(Protocol):
    """What every game's match result offers."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (ties share the win)."""
        ...

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's final total."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        ...


class Match(Protocol):
    """A match of hands of any game."""

    @property
    def seed(self) -> int | None:
        """The match seed, from which new hands are dealt."""
        ...

    @property
    def hands(self) -> Sequence[HandState]:
        """Every hand so far, the current one last."""
        ...

    @property
    def names(self) -> tuple[str, ...] | None:
        """The players' names its record gave, if it was loaded from one."""
        ...

    def clone(self) -> Self:
        """An independent copy of the match, to play on without changing this one."""
        ...

    @property
    def hand(self) -> HandState:
        """The current hand."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the match is decided."""
        ...

    @property
    def result(self) -> MatchResult | None:
        """The result once the match is over."""
        ...

    def scores(self) -> tuple[int, ...]:
        """Each seat's total so far."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Each seat's standing in the match, higher better, adding up to zero."""
        ...

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply an action to the current hand."""
        ...

    def next_dealer(self) -> int:
        """Who deals the next hand."""
        ...

    def next_hand(self, *, seed: int | None = None, deal: Deal | None = None) -> HandState:
        """Deal the next hand."""
        ...

    def view(self, seat: int) -> MatchView:
        """What ``seat`` may see of the match: the hand's view and the scores."""
        ...


@dataclass(frozen=True)
class MatchView:
    """One seat's view of a match of any game: the hand in play and the scores so far.

    Games add their own public match data in subclasses (Gin: boxes and the target score).
    """

    hand: View
    hand_number: int
    """1 for the first hand (Crazy Rummy: the round; Gin: cancelled hands count)."""
    scores: tuple[int, ...]
    """Each seat's running total."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each finished hand's scores, seat by seat, in order."""
    result: MatchResult | None

    @property
    def over(self) -> bool:
        """True once the match is decided."""
        return self.result is not None

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data."""
        return {
            "hand": self.hand.to_dict(),
            "hand_number": self.hand_number,
            "scores": list(self.scores),
            "hand_scores": [list(s) for s in self.hand_scores],
            "result": None if self.result is None else self.result.to_dict(),
            "over": self.over,
        }


def match_view(match: Match, seat: int) -> MatchView:
    """The generic :class:`MatchView` of any match (games with extra public data override it)."""
    return MatchView(
        hand=match.hand.view(seat),
        hand_number=len(match.hands),
        scores=match.scores(),
        hand_scores=tuple(h.result.scores for h in match.hands if h.result is not None),
        result=match.result,
    )
