"""What the OpenSpiel games need to know of each rummykit game: its engine, table, pack, chance
and sizes (standard library only; the OpenSpiel classes are in :mod:`rummykit.openspiel.game`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from rummykit.cards import AnyCard
from rummykit.encoding import Encoder, encoder_for
from rummykit.games import find_game
from rummykit.games.base import Game, HandState
from rummykit.games.deal import Deal

__all__ = ["DEFAULTS", "GameSpec", "spec_for"]

MAX_DEADWOOD = 98
"""The most deadwood ten cards can hold (K K Q Q J J T T 9 9 of two suits each)."""

PACK_POINTS = 340
"""The points of a whole standard pack (ace 1, 2-10 as marked, pictures 10)."""


@dataclass(frozen=True, eq=False)
class GameSpec:
    """One rummykit game at one table, as an OpenSpiel game sees it.

    Chance deals ``hand_size`` cards to seat 0, then to seat 1 and so on, then the up-card, one
    card (one outcome) at a time. With ``draw_by_chance`` each draw from a stock whose order is
    hidden is one more chance outcome (the card drawn); otherwise chance deals the whole stock,
    in order, right after the up-card. Outcome numbers are positions in ``kinds``.
    """

    short_name: str
    params: tuple[tuple[str, Any], ...]
    game: Game
    players: int
    hand_size: int
    kinds: tuple[AnyCard, ...]
    pack: Counter[AnyCard]
    encoder: Encoder
    draw_by_chance: bool
    hidden_stock: Callable[[HandState], bool]
    max_game_length: int
    max_utility: float
    round: int | None = None
    """Crazy Rummy's round (1-7: its hand size and contract); None for the other games."""

    @property
    def dealer(self) -> int:
        """The seat that deals: the last, so seat 0 plays first (as in OpenSpiel's games)."""
        return self.players - 1

    @property
    def dealt_before_play(self) -> int:
        """Chance outcomes before the first decision."""
        table = self.players * self.hand_size + 1
        return table if self.draw_by_chance else sum(self.pack.values())

    def kind_of(self, card: AnyCard) -> int:
        """The chance outcome number of ``card``."""
        return self._numbers[card]

    @property
    def _numbers(self) -> dict[AnyCard, int]:
        return _kind_numbers(self.kinds)

    def new_hand(self, dealt: list[int]) -> HandState:
        """The hand that the chance outcomes ``dealt`` (all of :attr:`dealt_before_play`) deal.
        With draws by chance, the stock is placed in pack order until its cards are drawn."""
        cards = [self.kinds[i] for i in dealt]
        size = self.hand_size
        hands = tuple(tuple(cards[s * size : (s + 1) * size]) for s in range(self.players))
        up = cards[self.players * size]
        if self.draw_by_chance:
            rest = self.pack - Counter(cards)
            stock = tuple(c for c in self.kinds for _ in range(rest[c]))
        else:
            stock = tuple(cards[self.players * size + 1 :])
        deal = Deal(hands, up, stock)
        if self.round is None:
            return self.game.new_hand(players=self.players, deal=deal, dealer=self.dealer)
        crazy: Any = self.game
        return cast(
            HandState,
            crazy.new_hand(players=self.players, deal=deal, dealer=self.dealer, round=self.round),
        )


@cache
def _kind_numbers(kinds: tuple[AnyCard, ...]) -> dict[AnyCard, int]:
    return {card: i for i, card in enumerate(kinds)}


def _distinct(pack: Any) -> tuple[AnyCard, ...]:
    return tuple(dict.fromkeys(pack))


def _always(hand: HandState) -> bool:
    return True


def _basic_hidden(hand: HandState) -> bool:
    """Basic Rummy's stock order is hidden until a restock turns the pile over unshuffled."""
    state: Any = hand
    return bool(state.restocks == 0 or state.options.restock.value == "shuffle")


def _gin(params: Mapping[str, Any]) -> GameSpec:
    game = find_game("gin")
    from rummykit.cards import STANDARD_PACK

    options: Any = game.options
    bonus = max(options.gin_bonus, options.big_gin_bonus, options.undercut_bonus)
    return GameSpec(
        short_name="python_rummykit_gin",
        params=tuple(sorted(params.items())),
        game=game,
        players=2,
        hand_size=10,
        kinds=_distinct(STANDARD_PACK),
        pack=Counter(STANDARD_PACK),
        encoder=encoder_for(game),
        draw_by_chance=True,
        hidden_stock=_always,
        max_game_length=int(params["max_game_length"]),
        max_utility=float(bonus + MAX_DEADWOOD),
    )


def _basic(params: Mapping[str, Any]) -> GameSpec:
    from rummykit.cards import STANDARD_PACK
    from rummykit.games.rummy import hand_size

    players = int(params["players"])
    game = find_game(str(params["preset"]))
    return GameSpec(
        short_name="python_rummykit_basic",
        params=tuple(sorted(params.items())),
        game=game,
        players=players,
        hand_size=hand_size(players),
        kinds=_distinct(STANDARD_PACK),
        pack=Counter(STANDARD_PACK),
        encoder=encoder_for(game, players),
        draw_by_chance=True,
        hidden_stock=_basic_hidden,
        max_game_length=int(params["max_game_length"]),
        max_utility=float(2 * PACK_POINTS),  # a winner's points, doubled for a rummy at most
    )


def _crazy(params: Mapping[str, Any]) -> GameSpec:
    from rummykit.solver.contract import HAND_SIZES

    players = int(params["players"])
    round_ = int(params["round"])
    if not 1 <= round_ <= len(HAND_SIZES):
        raise ValueError(f"Crazy Rummy has rounds 1 to {len(HAND_SIZES)}, not {round_}")
    game = find_game("crazy")
    pack: Any = cast(Any, game).pack  # two packs with jokers
    kinds = _distinct(pack)  # the 52 cards by index, then the joker: the encoder's kinds
    worst = sum(_points(c) for c in pack)  # no seat can hold more penalty points than this
    return GameSpec(
        short_name="python_rummykit_crazy",
        params=tuple(sorted(params.items())),
        game=game,
        players=players,
        hand_size=HAND_SIZES[round_ - 1],
        kinds=kinds,
        pack=Counter(pack),
        encoder=encoder_for(game, players),
        # Draws also come in the middle of other actions (buys, restocks): chance deals the
        # whole stock at the start instead; later restocks are shuffled by the engine.
        draw_by_chance=False,
        hidden_stock=_always,
        max_game_length=int(params["max_game_length"]),
        max_utility=float(2 * worst),
        round=round_,
    )


def _points(card: AnyCard) -> int:
    """A card's points in Crazy Rummy's count (an upper bound is all the specs need)."""
    points = getattr(card, "points", None)
    return int(points) if isinstance(points, int) else 50


DEFAULTS: dict[str, dict[str, Any]] = {
    "python_rummykit_gin": {"max_game_length": 300},
    "python_rummykit_basic": {"players": 2, "preset": "rummy", "max_game_length": 1000},
    "python_rummykit_crazy": {"players": 4, "round": 1, "max_game_length": 2000},
}
"""Each game's OpenSpiel parameters and their defaults."""

_BUILDERS: dict[str, Callable[[Mapping[str, Any]], GameSpec]] = {
    "python_rummykit_gin": _gin,
    "python_rummykit_basic": _basic,
    "python_rummykit_crazy": _crazy,
}


@cache
def _spec(short_name: str, params: tuple[tuple[str, Any], ...]) -> GameSpec:
    return _BUILDERS[short_name](dict(params))


def spec_for(short_name: str, params: Mapping[str, Any] | None = None) -> GameSpec:
    """The spec of the game registered as ``short_name`` with ``params`` (defaults filled in)."""
    if short_name not in DEFAULTS:
        raise ValueError(
            f"no rummykit OpenSpiel game {short_name!r} (known: {', '.join(DEFAULTS)})"
        )
    full = dict(DEFAULTS[short_name])
    unknown = set(params or {}) - set(full)
    if unknown:
        raise ValueError(f"{short_name} has no parameter {', '.join(sorted(unknown))}")
    full.update(params or {})
    if int(full["max_game_length"]) < 1:
        raise ValueError("max_game_length must be at least 1")
    return _spec(short_name, tuple(sorted(full.items())))
