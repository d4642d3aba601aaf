"""What one seat may know of a Basic Rummy hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.actions import Action
from rummykit.cards import Card
from rummykit.games.base import Phase
from rummykit.games.rummy.rules import RummyHandResult
from rummykit.games.table_meld import TableMeld
from rummykit.melds import Meld

__all__ = ["RummyView"]


@dataclass(frozen=True, slots=True)
class RummyView:
    """What one seat may know of a hand: never another hand's cards or the stock order."""

    seat: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    """This seat's cards, sorted by suit then rank."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[Card, ...]
    """The face-up discard pile, bottom first (the last card is the top)."""
    table: tuple[TableMeld[Meld], ...]
    """Melds on the table in the order laid (meld number = position + 1)."""
    taken_from_discard: Card | None
    """The card this seat took from the discard pile this turn (it may not be discarded)."""
    melds_this_turn: int
    restocks: int
    legal_actions: tuple[Action, ...]
    result: RummyHandResult | None
    """The hand's result as this seat may see it (:meth:`RummyHandResult.seen_by`)."""
    history: tuple[tuple[int, str], ...]
    known_cards: tuple[tuple[Card, ...], ...] = ()
    """Per seat, the cards it took from the discard pile and still holds (everyone saw them
    taken, and nobody has seen them leave)."""

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data."""
        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "known_cards": [[str(c) for c in cs] for cs in self.known_cards],
            "stock_size": self.stock_size,
            "discard_pile": [str(c) for c in self.discard_pile],
            "table": [t.to_dict() for t in self.table],
            "taken_from_discard": None
            if self.taken_from_discard is None
            else str(self.taken_from_discard),
            "melds_this_turn": self.melds_this_turn,
            "restocks": self.restocks,
            "legal_actions": [str(a) for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_dict(),
            "history": [list(h) for h in self.history],
        }
