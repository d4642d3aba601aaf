"""Gin Rummy under a set of options, and its match to 100 (boxes, game and shutout
bonuses)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rummykit.actions import Action
from rummykit.cards import parse_natural_cards
from rummykit.games.base import IllegalActionError
from rummykit.games.deal import Deal
from rummykit.games.gin.rules import (
    PLAYERS,
    GinDeal,
    GinOptions,
    NextDealer,
    Outcome,
    _check_players,
    _check_seat,
)
from rummykit.games.gin.state import GinState
from rummykit.games.gin.view import GinView
from rummykit.games.match import MatchView, match_view
from rummykit.games.mechanics import MatchMechanics
from rummykit.games.options import SameRules
from rummykit.games.seeding import check_seed, derive_seed

__all__ = ["Gin", "GinMatch", "GinMatchResult", "GinMatchView", "gin_hand_from_cards"]


class Gin(SameRules):
    """The game of Gin Rummy under a set of options (immutable); it creates hands and matches."""

    name = "gin"
    min_players = max_players = PLAYERS
    outcomes: tuple[str, ...] = tuple(o.value for o in Outcome)
    low_total_wins = False

    def __init__(self, options: GinOptions | None = None) -> None:
        self.options = options if options is not None else GinOptions()

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> Gin:
        """The game with options given as JSON data (defaults for the missing ones)."""
        return cls(GinOptions.from_dict(options or {}))

    def __repr__(self) -> str:
        return f"Gin({self.options!r})"

    def new_hand(
        self,
        *,
        players: int = PLAYERS,
        seed: int | None = None,
        deal: GinDeal | None = None,
        dealer: int = 0,
    ) -> GinState:
        """A new hand dealt from ``seed`` (or at random) or from an explicit ``deal``."""
        _check_players(players)
        return GinState(self, seed=seed, deal=deal, dealer=dealer)

    def new_match(
        self,
        *,
        players: int = PLAYERS,
        seed: int | None = None,
        dealer: int = 0,
        first_seed: int | None = None,
        first_deal: GinDeal | None = None,
    ) -> GinMatch:
        """A new match to ``target_score``; its first hand is dealt at once."""
        _check_players(players)
        hands = []
        if first_seed is not None or first_deal is not None:
            hands.append(self.new_hand(seed=first_seed, deal=first_deal, dealer=dealer))
        return GinMatch(self, seed=seed, dealer=dealer, hands=hands)


@dataclass(frozen=True, slots=True)
class GinMatchResult:
    """The end of a match: who won and the breakdown of both totals."""

    winner: int
    hand_points: tuple[int, int]
    boxes: tuple[int, int]
    """Hands won by each seat (cancelled hands are nobody's)."""
    game_bonus: tuple[int, int]
    box_bonus: tuple[int, int]
    shutout: bool
    """True if the loser scored no hand points and the winner's total was doubled."""
    totals: tuple[int, int]

    @property
    def winners(self) -> tuple[int]:
        """The winning seat, as a tuple (the shape every game's match result shares)."""
        return (self.winner,)

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "winner": self.winner,
            "winners": [self.winner],  # the shape every game's match result shares
            "hand_points": list(self.hand_points),
            "boxes": list(self.boxes),
            "game_bonus": list(self.game_bonus),
            "box_bonus": list(self.box_bonus),
            "shutout": self.shutout,
            "totals": list(self.totals),
        }


@dataclass(frozen=True)
class GinMatchView(MatchView):
    """One seat's view of a match: the hand in play, the running scores, boxes and the target."""

    hand: GinView
    boxes: tuple[int, int] = (0, 0)
    target_score: int = 100

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data."""
        return {
            **super().to_dict(),
            "boxes": list(self.boxes),
            "target_score": self.target_score,
        }


@dataclass
class GinMatch(MatchMechanics):
    """A match of hands to ``target_score``, with game, box and shutout bonuses at the end.

    ``match.hand`` is the hand in play; once it is over, :meth:`next_hand` deals the next one (the
    dealer follows option ``next_dealer``; a cancelled hand is dealt again by the same dealer).
    """

    game: Gin
    seed: int | None = None
    dealer: int = 0
    hands: list[GinState] = field(default_factory=list)
    result: GinMatchResult | None = None

    def __post_init__(self) -> None:
        _check_seat(self.dealer)
        self.seed = check_seed(self.seed)
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(1 << 62)
        if not self.hands:
            self.hands.append(
                self.game.new_hand(seed=derive_seed(self.seed, 0), dealer=self.dealer)
            )

    @property
    def hand(self) -> GinState:
        """The current (last) hand."""
        return self.hands[-1]

    @property
    def is_over(self) -> bool:
        """True once a player has reached the target score."""
        self._catch_up()
        return self.result is not None

    def scores(self) -> tuple[int, int]:
        """Hand points won so far by each seat (before end-of-match bonuses)."""
        totals = [0, 0]
        for h in self.hands:
            if h.result is not None and h.result.winner is not None:
                totals[h.result.winner] += h.result.points
        return totals[0], totals[1]

    def boxes(self) -> tuple[int, int]:
        """Hands won by each seat so far."""
        won = [0, 0]
        for h in self.hands:
            if h.result is not None and h.result.winner is not None:
                won[h.result.winner] += 1
        return won[0], won[1]

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` to the current hand; settles the match when a hand ends it."""
        if self.is_over:
            raise IllegalActionError("the match is over")
        self.hand.apply(action, seat)
        if self.hand.is_over:
            self._settle()

    def next_dealer(self) -> int:
        """Who deals the next hand."""
        last = self.hand
        assert last.result is not None
        if last.result.winner is None:
            return last.dealer
        if self.game.options.next_dealer is NextDealer.WINNER:
            return last.result.winner
        return 1 - last.dealer

    def next_hand(self, *, seed: int | None = None, deal: GinDeal | None = None) -> GinState:
        """Deal the next hand (from the match seed unless a seed or deal is given)."""
        if self.is_over:
            raise IllegalActionError("the match is over")
        if not self.hand.is_over:
            raise IllegalActionError("the current hand is not over")
        if seed is None and deal is None:
            assert self.seed is not None
            seed = derive_seed(self.seed, len(self.hands))
        hand = self.game.new_hand(seed=seed, deal=deal, dealer=self.next_dealer())
        self.hands.append(hand)
        return hand

    def view(self, seat: int) -> GinMatchView:
        """What ``seat`` may see of the match: the current hand's view and the scores so far."""
        self._catch_up()
        base = match_view(self, seat)
        assert isinstance(base.hand, GinView)
        return GinMatchView(
            hand=base.hand,
            hand_number=base.hand_number,
            scores=base.scores,
            hand_scores=base.hand_scores,
            result=base.result,
            boxes=self.boxes(),
            target_score=self.game.options.target_score,
        )

    def _settle(self) -> None:
        options = self.game.options
        points = self.scores()
        if max(points) < options.target_score:
            return
        winner = 0 if points[0] >= options.target_score else 1
        boxes = self.boxes()
        game_bonus = [0, 0]
        game_bonus[winner] = options.game_bonus
        box_bonus = (boxes[0] * options.box_bonus, boxes[1] * options.box_bonus)
        totals = [points[i] + game_bonus[i] + box_bonus[i] for i in (0, 1)]
        shutout = options.shutout_double and points[1 - winner] == 0
        if shutout:
            totals[winner] *= 2
        self.result = GinMatchResult(
            winner,
            points,
            boxes,
            (game_bonus[0], game_bonus[1]),
            box_bonus,
            shutout,
            (totals[0], totals[1]),
        )


def gin_hand_from_cards(
    hands: Iterable[str], up: str, stock: str, *, dealer: int = 0, options: GinOptions | None = None
) -> GinState:
    """A hand from card strings (handy in tests and examples)."""
    h = tuple(parse_natural_cards(x) for x in hands)
    deal = Deal(h, parse_natural_cards(up)[0], parse_natural_cards(stock))
    return Gin(options).new_hand(deal=deal, dealer=dealer)
