"""Crazy Rummy under a set of options, and its seven-round game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummykit.cards import AnyCard, double_pack
from rummykit.games.crazy.rules import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, CrazyOptions, CrazyOutcome
from rummykit.games.crazy.state import CrazyState
from rummykit.games.deal import Deal
from rummykit.games.mechanics import RotatingMatch
from rummykit.games.options import SameRules

__all__ = ["Crazy", "CrazyMatch", "CrazyMatchResult"]


class Crazy(SameRules):
    """Crazy Rummy under a set of options (immutable); it creates rounds and seven-round games."""

    name = "crazy"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    rounds = ROUNDS
    outcomes: tuple[str, ...] = tuple(o.value for o in CrazyOutcome)
    low_total_wins = True

    def __init__(self, options: CrazyOptions | None = None) -> None:
        self.options = options if options is not None else CrazyOptions()
        self.rules = self.options.rules
        self.pack: tuple[AnyCard, ...] = double_pack(self.options.jokers)

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> Crazy:
        """The game with options given as JSON data (defaults for the missing ones)."""
        return cls(CrazyOptions.from_dict(options or {}))

    def __repr__(self) -> str:
        return f"Crazy({self.options!r})"

    def new_hand(
        self,
        *,
        players: int = 4,
        seed: int | None = None,
        deal: Deal | None = None,
        dealer: int = 0,
        round: int = 1,
    ) -> CrazyState:
        """A new round (``round`` 1-7 sets the hand size and contract)."""
        return CrazyState(self, players=players, seed=seed, deal=deal, dealer=dealer, round=round)

    def new_match(
        self,
        *,
        players: int = 4,
        seed: int | None = None,
        dealer: int = 0,
        first_seed: int | None = None,
        first_deal: Deal | None = None,
    ) -> CrazyMatch:
        """A new seven-round game; its first round is dealt at once."""
        hands = []
        if first_seed is not None or first_deal is not None:
            hands.append(
                self.new_hand(players=players, seed=first_seed, deal=first_deal, dealer=dealer)
            )
        return CrazyMatch(self, players=players, seed=seed, dealer=dealer, hands=hands)


@dataclass(frozen=True, slots=True)
class CrazyMatchResult:
    """The end of a seven-round game: totals per seat (lowest wins; ties share)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...]
    """Per round, each seat's points."""

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "winners": list(self.winners),
            "totals": list(self.totals),
            "rounds": [list(r) for r in self.rounds],
        }


@dataclass
class CrazyMatch(RotatingMatch[Crazy, CrazyState]):
    """A game of Crazy Rummy: rounds 1 to 7, the deal passing left; the lowest total wins."""

    TITLE = "Crazy Rummy"
    SEATS = (MIN_PLAYERS, MAX_PLAYERS)
    MATCH_OVER = "the game is over"
    HAND_GOES_ON = "the current round is not over"

    game: Crazy
    players: int = 4
    result: CrazyMatchResult | None = None

    def _settle(self) -> None:
        if len(self.hands) == ROUNDS:
            totals = self.scores()
            best = min(totals)
            self.result = CrazyMatchResult(
                tuple(s for s, t in enumerate(totals) if t == best),
                totals,
                tuple(h.result.points for h in self.hands if h.result is not None),
            )

    def _deal(self, seed: int | None, deal: Deal | None, dealer: int) -> CrazyState:
        round_ = len(self.hands) + 1
        return self.game.new_hand(
            players=self.players, seed=seed, deal=deal, dealer=dealer, round=round_
        )
