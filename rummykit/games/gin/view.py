"""What one seat may know of a Gin Rummy hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.actions import Action
from rummykit.cards import Card
from rummykit.games.base import Phase
from rummykit.games.gin.rules import GinHandResult
from rummykit.melds import Meld

__all__ = ["GinView"]


@dataclass(frozen=True, slots=True)
class GinView:
    """What one seat may know of a hand: never the other hand's hidden cards or the stock order."""

    seat: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    """This seat's cards, sorted by suit then rank."""
    hand_sizes: tuple[int, int]
    stock_size: int
    discard_pile: tuple[Card, ...]
    """The face-up discard pile, bottom first (the last card is the top)."""
    known_cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Per seat, the cards it took from the discard pile and still holds (public knowledge)."""
    taken_from_discard: Card | None
    """The card this seat took from the discard pile this turn (it may not be discarded)."""
    offer: bool
    """True while the first up-card is being offered."""
    legal_actions: tuple[Action, ...]
    knocker: int | None
    knock_melds: tuple[Meld, ...]
    """After a knock: the knocker's melds with any lay-offs added."""
    knock_deadwood: tuple[Card, ...]
    """After a knock: the knocker's deadwood cards (shown face up)."""
    layoffs: tuple[tuple[Card, int], ...]
    result: GinHandResult | None
    history: tuple[tuple[int, str], ...]
    """Every action so far as (seat, notation); a knocker's face-down card is hidden."""

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data, for the server and for tests."""
        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard_pile": [str(c) for c in self.discard_pile],
            "known_cards": [[str(c) for c in cs] for cs in self.known_cards],
            "taken_from_discard": None
            if self.taken_from_discard is None
            else str(self.taken_from_discard),
            "offer": self.offer,
            "legal_actions": [str(a) for a in self.legal_actions],
            "knocker": self.knocker,
            "knock_melds": [str(m) for m in self.knock_melds],
            "knock_deadwood": [str(c) for c in self.knock_deadwood],
            "layoffs": [[str(c), n] for c, n in self.layoffs],
            "result": None if self.result is None else self.result.to_dict(),
            "history": [list(h) for h in self.history],
        }
