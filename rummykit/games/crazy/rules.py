"""The rules of Crazy Rummy as data: the rounds, the options (every one a named option of
RULES.md section 3), how a round ends and its result."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from rummykit.cards import AnyCard
from rummykit.games.options import OptionSpec, RulesOptions
from rummykit.solver.contract import CONTRACTS
from rummykit.wild_melds import WildRules

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ROUNDS",
    "CrazyOptions",
    "CrazyOutcome",
    "CrazyRoundResult",
]

ROUNDS = len(CONTRACTS)
MIN_PLAYERS, MAX_PLAYERS = 2, 6


class CrazyOutcome(StrEnum):
    """How a round of Crazy Rummy ended."""

    OUT = "out"
    """A player got rid of every card."""
    STOCK_OUT = "stock_out"
    """A card had to be drawn and none could be had: everyone scores their hand."""


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class CrazyOptions(RulesOptions):
    """The rules of a Crazy Rummy table; every field is a named option of RULES.md section 3."""

    jokers: int = 4
    max_wilds_run: int = 2
    max_wilds_book: int = 1
    penalty_cards: int = 1
    """Cards a buyer takes from the stock with the bought card."""
    max_buys_per_round: int | None = None
    """How often one player may buy in a round; None: no limit."""
    swap_requires_down: bool = True
    """True: a player swaps wilds out of runs only after laying down their own contract."""
    discard_to_go_out: bool = False
    """True: the last card must be discarded, not played onto the table."""
    max_restocks: int | None = 5
    """How often in a round the discards become a new stock; then the round ends. None: always."""
    discard_taken_twin: bool = False
    """True: a player who took a card from the discard pile may throw its twin (the identical
    card of the other pack) in the same turn. False: at a real table nobody can tell the two
    apart, so throwing the twin is throwing back the card taken, which RULES.md forbids."""
    buy_keeps_draw: bool = True
    """True: a buy must leave a card for the draw of the player in turn (who passed on the card
    and draws after the buyers were asked), from the stock or the discards that may be shuffled
    into it. False: a buyer may take the last cards, and the round then ends before that player
    draws (as the engine played before the option existed)."""

    SPECS: ClassVar[tuple[OptionSpec, ...]] = (
        # RULES.md section 3: two packs "plus `jokers` jokers (default 4)"; a pack carries at
        # most 2 jokers, so 4 is also the most.
        OptionSpec("jokers", "int", 0, 4, note="two packs carry at most 2 jokers each"),
        # A run is at most 13 cards and never holds more wilds than naturals, so it cannot hold
        # more than 6; a book has at most 8 naturals (two packs), so at most 8 wilds.
        OptionSpec("max_wilds_run", "int", 0, 6, note="a run holds at most 6"),
        OptionSpec("max_wilds_book", "int", 0, 8, note="a book holds at most 8"),
        OptionSpec("penalty_cards", "int", 0, 5),
        OptionSpec("max_buys_per_round", "int", 0, 100, none="unlimited"),
        OptionSpec("swap_requires_down", "bool"),
        OptionSpec("discard_to_go_out", "bool"),
        OptionSpec("max_restocks", "int", 0, 100, none="unlimited"),
        OptionSpec("discard_taken_twin", "bool"),
        OptionSpec("buy_keeps_draw", "bool"),
    )
    """Every option and the values it takes, in field order."""
    TITLE = "Crazy Rummy"

    @property
    def rules(self) -> WildRules:
        """The meld limits these options set."""
        return WildRules(max_wilds_run=self.max_wilds_run, max_wilds_book=self.max_wilds_book)


@dataclass(frozen=True, slots=True)
class CrazyRoundResult:
    """How a round ended; points are bad."""

    outcome: CrazyOutcome
    winner: int | None
    """The seat that went out (None when the stock ran out)."""
    points: tuple[int, ...]
    """Per seat, the points of the cards left in hand."""
    remaining: tuple[tuple[AnyCard, ...], ...]

    @property
    def scores(self) -> tuple[int, ...]:
        """What this round adds to each seat's total (bad points)."""
        return self.points

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "outcome": self.outcome.value,
            "winner": self.winner,
            "points": list(self.points),
            "remaining": [[str(c) for c in cs] for cs in self.remaining],
            "scores": list(self.scores),
        }
