"""An explicit deal (every hand, the up-card and the stock), checked against a game's pack."""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummykit.cards import AnyCard, parse_card, parse_cards

if TYPE_CHECKING:
    pass

__all__ = [
    "Deal",
]


def _card_list(value: Any, what: str) -> tuple[AnyCard, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f"{what} must be a list of card strings")
    return parse_cards(value)


@dataclass(frozen=True, slots=True)
class Deal:
    """An explicit deal: every hand (seat order), the up-card, and the stock (top first).

    A game checks a deal against its pack and hand size with :meth:`check` before playing it.
    """

    hands: tuple[tuple[AnyCard, ...], ...]
    up: AnyCard
    stock: tuple[AnyCard, ...]

    def check(self, pack: Sequence[AnyCard], players: int, hand_size: int) -> None:
        """Raise ValueError unless this deal is exactly ``pack`` dealt to ``players`` hands."""
        if len(self.hands) != players:
            raise ValueError(f"the deal has {len(self.hands)} hands, not {players}")
        for seat, hand in enumerate(self.hands):
            if len(hand) != hand_size:
                raise ValueError(
                    f"the hand of seat {seat} has {len(hand)} cards; {hand_size} are dealt here"
                )
        have = Counter([*(c for h in self.hands for c in h), self.up, *self.stock])
        want = Counter(pack)
        foreign = [str(c) for c in have if c not in want]
        if foreign:
            raise ValueError(f"{' '.join(foreign)} is not in this game's pack")
        for card, times in have.items():
            if times > want[card]:
                held = {1: "once", 2: "twice"}.get(want[card], f"{want[card]} times")
                raise ValueError(f"the deal holds {card} {times} times; the pack only {held}")
        missing = [str(c) for c, n in (want - have).items() for _ in range(n)]
        if missing:
            raise ValueError(f"the deal is missing {' '.join(missing)}")

    @classmethod
    def shuffled(
        cls,
        pack: Sequence[AnyCard],
        rng: random.Random,
        *,
        dealer: int,
        players: int,
        hand_size: int,
    ) -> Deal:
        """Shuffle ``pack`` with ``rng`` and deal one card at a time from the dealer's left."""
        cards = list(pack)
        rng.shuffle(cards)
        hands: list[tuple[AnyCard, ...]] = [()] * players
        dealt = players * hand_size
        for offset in range(players):
            seat = (dealer + 1 + offset) % players
            hands[seat] = tuple(cards[offset:dealt:players])
        return cls(tuple(hands), cards[dealt], tuple(cards[dealt + 1 :]))

    def rng_seed(self) -> int:
        """A seed derived from the deal itself, for a game's later shuffles (stable, 32 bits)."""
        text = "|".join(" ".join(str(c) for c in h) for h in self.hands)
        return zlib.crc32(f"{text}|{self.up}|{' '.join(str(c) for c in self.stock)}".encode())

    def to_dict(self) -> dict[str, Any]:
        """The deal as JSON data (card notation strings)."""
        return {
            "hands": [[str(c) for c in h] for h in self.hands],
            "up": str(self.up),
            "stock": [str(c) for c in self.stock],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deal:
        """A deal from JSON data; malformed data or bad cards raise ValueError."""
        if not isinstance(data, Mapping) or set(data) != {"hands", "up", "stock"}:
            raise ValueError("a deal is an object with exactly 'hands', 'up' and 'stock'")
        hands = data["hands"]
        if not isinstance(hands, list):
            raise ValueError("deal.hands must be a list of hands")
        if not isinstance(data["up"], str):
            raise ValueError("deal.up must be a card string")
        return cls(
            tuple(_card_list(h, "each hand") for h in hands),
            parse_card(data["up"]),
            _card_list(data["stock"], "deal.stock"),
        )
