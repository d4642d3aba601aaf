"""The rules of Gin Rummy as data: the table's size, the options, how a hand ends and its
result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from rummykit.cards import Card
from rummykit.games.base import as_seat, check_player_count
from rummykit.games.deal import Deal
from rummykit.games.options import OptionSpec, RulesOptions
from rummykit.melds import Meld

__all__ = [
    "HAND_SIZE",
    "PLAYERS",
    "WALL",
    "GinDeal",
    "GinHandResult",
    "GinOptions",
    "NextDealer",
    "Outcome",
]


PLAYERS = 2


HAND_SIZE = 10


WALL = 2  # a hand is cancelled when an ordinary discard leaves this many cards in the stock


class NextDealer(StrEnum):
    """Who deals the next hand of a match."""

    WINNER = "winner"
    ALTERNATE = "alternate"


class Outcome(StrEnum):
    """How a Gin hand ended."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class GinOptions(RulesOptions):
    """The rules of a Gin Rummy table. Every field is a named option of RULES.md section 2."""

    knock_limit: int = 10
    big_gin: bool = False
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    target_score: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    shutout_double: bool = True
    next_dealer: NextDealer = NextDealer.WINNER

    SPECS: ClassVar[tuple[OptionSpec, ...]] = (
        # Upper bounds generous for any house rule (usual: knock 10, target 100, bonuses
        # 25-100) yet small enough that no table is too big to play or to replay from its record.
        OptionSpec("knock_limit", "int", 0, 100),
        OptionSpec("big_gin", "bool"),
        OptionSpec("gin_bonus", "int", 0, 1_000),
        OptionSpec("big_gin_bonus", "int", 0, 1_000),
        OptionSpec("undercut_bonus", "int", 0, 1_000),
        OptionSpec("target_score", "int", 1, 10_000),
        OptionSpec("game_bonus", "int", 0, 1_000),
        OptionSpec("box_bonus", "int", 0, 1_000),
        OptionSpec("shutout_double", "bool"),
        OptionSpec("next_dealer", "choice", choices=tuple(d.value for d in NextDealer)),
    )
    """Every option and the values it takes, in field order."""
    TITLE = "Gin"
    CHOICES: ClassVar[Mapping[str, type[StrEnum]]] = {"next_dealer": NextDealer}


GinDeal = Deal
"""A Gin deal: two hands of ten, the up-card and the stock (top first); see :class:`Deal`."""


@dataclass(frozen=True, slots=True)
class GinHandResult:
    """How a hand ended and every number its score screen shows."""

    outcome: Outcome
    winner: int | None
    """The seat that scored, or None for a cancelled hand."""
    points: int
    """What the winner scored for this hand (bonus included)."""
    bonus: int
    """The gin, big gin or undercut bonus within ``points``."""
    knocker: int | None
    deadwood: tuple[int, int]
    """Each seat's deadwood (the defender's after lay-offs); zeros for a cancelled hand."""
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    """Each seat's melds as laid (the knocker's before lay-offs)."""
    unmatched: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Each seat's deadwood cards."""
    layoffs: tuple[tuple[Card, int], ...]
    """The defender's lay-offs: (card, meld number, 1-based)."""

    @property
    def scores(self) -> tuple[int, int]:
        """What this hand adds to each seat's total."""
        return (
            self.points if self.winner == 0 else 0,
            self.points if self.winner == 1 else 0,
        )

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "outcome": self.outcome.value,
            "winner": self.winner,
            "points": self.points,
            "scores": list(self.scores),  # per seat, as every game's hand result gives them
            "bonus": self.bonus,
            "knocker": self.knocker,
            "deadwood": list(self.deadwood),
            "melds": [[str(m) for m in ms] for ms in self.melds],
            "unmatched": [[str(c) for c in cs] for cs in self.unmatched],
            "layoffs": [[str(c), n] for c, n in self.layoffs],
        }


def _check_players(players: int) -> None:
    check_player_count("Gin Rummy", players, PLAYERS, PLAYERS)


def _check_seat(dealer: int) -> int:
    seat = as_seat(dealer, 2)
    if seat is None:
        raise ValueError(f"Gin has seats 0 and 1, not {dealer!r}")
    return seat
