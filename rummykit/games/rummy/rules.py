"""The rules of Basic Rummy as data: table sizes, the options and their two presets, how a hand
ends and its result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from rummykit.cards import Card
from rummykit.games.base import check_player_count
from rummykit.games.options import OptionSpec, RulesOptions, options_repr

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRESETS",
    "Restock",
    "RummyHandResult",
    "RummyOptions",
    "RummyOutcome",
    "Stranding",
    "hand_size",
]


MIN_PLAYERS, MAX_PLAYERS = 2, 6


def hand_size(players: int) -> int:
    """Cards dealt to each player: 10 for two, 7 for three or four, 6 for five or six."""
    check_player_count("Basic Rummy", players, MIN_PLAYERS, MAX_PLAYERS)
    return 10 if players == 2 else 7 if players <= 4 else 6


class Restock(StrEnum):
    """How the discard pile becomes a new stock when the stock runs out."""

    TURN_OVER = "turn_over"
    """Turned over without shuffling: the oldest discard is drawn first."""
    SHUFFLE = "shuffle"
    """Shuffled with the game's generator."""


class Stranding(StrEnum):
    """When a meld or lay-off that would leave only the card just taken from the pile is refused."""

    DEAD_END = "dead_end"
    """Only when that card could not then be laid off either (the turn could not end)."""
    STRICT = "strict"
    """Always (RULES.md's wording), even when the card could go out onto the table next."""


class RummyOutcome(StrEnum):
    """How a hand of Basic Rummy ended."""

    OUT = "out"
    """A player got rid of every card."""
    STALEMATE = "stalemate"
    """The stock ran out with no restock left: nobody scores."""


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class RummyOptions(RulesOptions):
    """The rules of a Basic Rummy table; every field is a named option of RULES.md section 1."""

    melds_per_turn: int | None = 1
    """New melds a player may lay down in one turn; None means unlimited."""
    discard_to_go_out: bool = False
    """True: the last card must be discarded (a meld or lay-off may not empty the hand)."""
    stranding: Stranding = Stranding.DEAD_END
    """When a play leaving only the card just taken from the discard pile is refused."""
    restock: Restock = Restock.TURN_OVER
    restock_limit: int = 1
    """How many times in a hand the discard pile may become the stock."""
    rummy_bonus: bool = False
    """Double the score of a player who goes out in one turn without having melded before."""
    target_score: int = 100
    hands: int | None = None
    """Play this many hands instead of playing to ``target_score``."""

    SPECS: ClassVar[tuple[OptionSpec, ...]] = (
        # Upper bounds generous for any house rule yet small enough that no table is too big to
        # play or to replay from its record.
        OptionSpec("melds_per_turn", "int", 1, 100, none="unlimited"),
        OptionSpec("discard_to_go_out", "bool"),
        OptionSpec("stranding", "choice", choices=tuple(r.value for r in Stranding)),
        OptionSpec("restock", "choice", choices=tuple(r.value for r in Restock)),
        OptionSpec("restock_limit", "int", 0, 100),
        OptionSpec("rummy_bonus", "bool"),
        OptionSpec("target_score", "int", 1, 10_000),
        OptionSpec("hands", "int", 1, 1_000, none="unset"),
    )
    """Every option and the values it takes, in field order."""
    TITLE = "Rummy"
    CHOICES: ClassVar[Mapping[str, type[StrEnum]]] = {"stranding": Stranding, "restock": Restock}

    def __repr__(self) -> str:
        return options_repr(self, PRESETS)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RummyOptions:
        """The options of a named preset (``rummy`` or ``rummy-classic``), some overridden.

        >>> RummyOptions.preset("rummy-classic", restock_limit=2)
        RummyOptions.preset('rummy-classic', restock_limit=2)
        """
        try:
            base = PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})") from None
        return replace(base, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON data (``"unlimited"`` for no meld limit; ``hands`` unset is
        ``null``, as records have always written it)."""
        data = RulesOptions.to_dict(self)
        data["hands"] = self.hands
        return data


PRESETS: dict[str, RummyOptions] = {
    "rummy": RummyOptions(),
    "rummy-classic": RummyOptions(melds_per_turn=None, restock=Restock.SHUFFLE),
}
"""The two named presets: ``rummy`` (after pagat's Straight Rummy) and ``rummy-classic``."""


@dataclass(frozen=True, slots=True)
class RummyHandResult:
    """How a hand ended and every number of its score screen."""

    outcome: RummyOutcome
    winner: int | None
    points: int
    """What the winner scored (doubled by the rummy bonus if it applied)."""
    rummy: bool
    """True if the rummy bonus doubled the score."""
    hand_values: tuple[int, ...]
    """Per seat, the value of the cards left in hand."""
    remaining: tuple[tuple[Card, ...], ...]
    """Per seat, the cards left in hand."""

    @property
    def scores(self) -> tuple[int, ...]:
        """What this hand adds to each seat's total."""
        return tuple(
            self.points if seat == self.winner else 0 for seat in range(len(self.hand_values))
        )

    def seen_by(self, seat: int) -> RummyHandResult:
        """The result as ``seat`` may see it.

        After a stalemate nobody scores, so no hand is shown: every other seat's ``remaining``
        is empty and its ``hand_values`` 0 (both lists keep one entry per seat). After a player
        went out every hand left is scored and shown.
        """
        if self.outcome is not RummyOutcome.STALEMATE:
            return self
        return replace(
            self,
            hand_values=tuple(v if s == seat else 0 for s, v in enumerate(self.hand_values)),
            remaining=tuple(cs if s == seat else () for s, cs in enumerate(self.remaining)),
        )

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "outcome": self.outcome.value,
            "winner": self.winner,
            "points": self.points,
            "rummy": self.rummy,
            "hand_values": list(self.hand_values),
            "remaining": [[str(c) for c in cs] for cs in self.remaining],
            "scores": list(self.scores),
        }
