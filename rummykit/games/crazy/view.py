"""What one seat may know of a Crazy Rummy round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.actions import Action
from rummykit.cards import AnyCard
from rummykit.games.base import Phase
from rummykit.games.crazy.rules import CrazyRoundResult
from rummykit.games.table_meld import TableMeld
from rummykit.solver.contract import Contract
from rummykit.wild_melds import WildMeld

__all__ = ["CrazyView"]


@dataclass(frozen=True, slots=True)
class CrazyView:
    """What one seat may know of a round: never another hand's cards or the stock order."""

    seat: int
    round: int
    contract: Contract
    dealer: int
    phase: Phase
    to_act: int | None
    turn: int | None
    """The seat whose turn it is (during a buy offer, someone else may be to act)."""
    hand: tuple[AnyCard, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[AnyCard, ...]
    offered: AnyCard | None
    """The card on offer (to take or buy), if any."""
    table: tuple[TableMeld[WildMeld], ...]
    laid_down: tuple[bool, ...]
    buys: tuple[int, ...]
    known_cards: tuple[tuple[AnyCard, ...], ...]
    """Per seat, the cards everyone saw go into its hand and that it still holds: taken or
    bought from the discard pile, or a wild it swapped out of a run."""
    taken_from_discard: AnyCard | None
    legal_actions: tuple[Action, ...]
    result: CrazyRoundResult | None
    history: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data."""
        return {
            "seat": self.seat,
            "round": self.round,
            "contract": {"books": self.contract.books, "runs": self.contract.runs},
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "turn": self.turn,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard_pile": [str(c) for c in self.discard_pile],
            "offered": None if self.offered is None else str(self.offered),
            "table": [t.to_dict() for t in self.table],
            "laid_down": list(self.laid_down),
            "buys": list(self.buys),
            "known_cards": [[str(c) for c in cs] for cs in self.known_cards],
            "taken_from_discard": None
            if self.taken_from_discard is None
            else str(self.taken_from_discard),
            "legal_actions": [str(a) for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_dict(),
            "history": [list(h) for h in self.history],
        }
