"""Basic Rummy under a set of options (or a preset), and its match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.cards import parse_natural_cards
from rummykit.games.deal import Deal
from rummykit.games.mechanics import RotatingMatch
from rummykit.games.options import SameRules
from rummykit.games.rummy.rules import MAX_PLAYERS, MIN_PLAYERS, RummyOptions, RummyOutcome
from rummykit.games.rummy.state import RummyState

__all__ = ["Rummy", "RummyMatch", "RummyMatchResult", "rummy_hand_from_cards"]


class Rummy(SameRules):
    """Basic Rummy under a set of options (immutable); it creates hands and matches."""

    name = "rummy"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    outcomes: tuple[str, ...] = tuple(o.value for o in RummyOutcome)
    low_total_wins = False

    def __init__(self, options: RummyOptions | None = None) -> None:
        self.options = options if options is not None else RummyOptions()

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None, preset: str = "rummy") -> Rummy:
        """The game under ``preset`` with options given as JSON data overriding it."""
        return cls.preset(preset, **dict(options or {}))

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rummy:
        """The game under a named preset (``rummy`` or ``rummy-classic``), options overridden."""
        return cls(RummyOptions.from_dict(overrides, RummyOptions.preset(name)))

    def __repr__(self) -> str:
        return f"Rummy({self.options!r})"

    def new_hand(
        self,
        *,
        players: int = 2,
        seed: int | None = None,
        deal: Deal | None = None,
        dealer: int = 0,
    ) -> RummyState:
        """A new hand for ``players`` seats, dealt from ``seed`` or from an explicit ``deal``."""
        return RummyState(self, players=players, seed=seed, deal=deal, dealer=dealer)

    def new_match(
        self,
        *,
        players: int = 2,
        seed: int | None = None,
        dealer: int = 0,
        first_seed: int | None = None,
        first_deal: Deal | None = None,
    ) -> RummyMatch:
        """A new match (to ``target_score``, or ``hands`` hands); its first hand is dealt at once."""
        hands = []
        if first_seed is not None or first_deal is not None:
            hands.append(
                self.new_hand(players=players, seed=first_seed, deal=first_deal, dealer=dealer)
            )
        return RummyMatch(self, players=players, seed=seed, dealer=dealer, hands=hands)


@dataclass(frozen=True, slots=True)
class RummyMatchResult:
    """The end of a match: the totals and who won (equal top totals share the win)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    hands: int

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {"winners": list(self.winners), "totals": list(self.totals), "hands": self.hands}


@dataclass
class RummyMatch(RotatingMatch[Rummy, RummyState]):
    """Hands of Basic Rummy to ``target_score`` (or for ``hands`` hands), the deal passing left."""

    TITLE = "Basic Rummy"
    SEATS = (MIN_PLAYERS, MAX_PLAYERS)

    game: Rummy
    players: int = 2
    result: RummyMatchResult | None = None

    def _settle(self) -> None:
        options = self.game.options
        totals = self.scores()
        if options.hands is not None:
            if len(self.hands) < options.hands:
                return
        elif max(totals) < options.target_score:
            return
        best = max(totals)
        winners = tuple(seat for seat, t in enumerate(totals) if t == best)
        self.result = RummyMatchResult(winners, totals, len(self.hands))


def rummy_hand_from_cards(
    hands: Sequence[str],
    up: str,
    stock: str,
    *,
    dealer: int = 0,
    options: RummyOptions | None = None,
) -> RummyState:
    """A hand from card strings (handy in tests and examples)."""
    deal = Deal(
        tuple(parse_natural_cards(h) for h in hands),
        parse_natural_cards(up)[0],
        parse_natural_cards(stock),
    )
    return Rummy(options).new_hand(players=len(hands), deal=deal, dealer=dealer)
