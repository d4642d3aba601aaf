"""Melds of natural cards with the ace low (Gin Rummy and Basic Rummy).

A **set** is 3 or 4 cards of one rank; a **run** is 3 or more cards of one suit in consecutive rank,
the ace low only and never wrapping (``QC KC AC`` is not a run).

>>> m = Meld.of(parse_natural_cards("5H 3H 4H"))
>>> m, str(m), m.kind
(Meld.parse('3H 4H 5H'), '3H 4H 5H', <MeldKind.RUN: 'run'>)
>>> str(m.extended_by(Card.parse("6H")))
'3H 4H 5H 6H'
>>> m.extended_by(Card.parse("7H")) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rummykit.cards import Card, format_cards, parse_natural_cards

__all__ = ["Meld", "MeldError", "MeldKind", "is_run", "is_set"]


class MeldError(ValueError):
    """Cards that do not form a valid meld; the message says why."""


class MeldKind(StrEnum):
    """A set (same rank) or a run (same suit, consecutive ranks)."""

    SET = "set"
    RUN = "run"


def is_set(cards: Iterable[Card]) -> bool:
    """True for 3 or 4 distinct cards of one rank."""
    cs = tuple(cards)
    return 3 <= len(cs) <= 4 and len({c.number for c in cs}) == 1 and len(set(cs)) == len(cs)


def is_run(cards: Iterable[Card]) -> bool:
    """True for 3 or more cards of one suit in consecutive rank, ace low."""
    cs = tuple(cards)
    if len(cs) < 3 or len({c.suit_index for c in cs}) != 1:
        return False
    numbers = sorted(c.number for c in cs)
    return numbers == list(range(numbers[0], numbers[0] + len(numbers)))


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld of natural cards, its cards in order (runs low to high, sets by suit)."""

    kind: MeldKind
    cards: tuple[Card, ...]

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Meld:
        """The meld these cards form, or :class:`MeldError` saying why they form none."""
        cs = tuple(sorted(cards, key=lambda c: c.index))
        if len(cs) < 3:
            raise MeldError(f"{format_cards(cs) or 'nothing'}: a meld needs at least 3 cards")
        if is_set(cs):
            return cls(MeldKind.SET, cs)
        if is_run(cs):
            return cls(MeldKind.RUN, cs)
        if len({c.number for c in cs}) == 1:
            raise MeldError(f"{format_cards(cs)}: a set has 3 or 4 different cards of one rank")
        if len({c.suit_index for c in cs}) == 1:
            raise MeldError(
                f"{format_cards(cs)}: not consecutive (the ace is low only and runs do not wrap)"
            )
        raise MeldError(f"{format_cards(cs)}: neither one rank nor one suit in sequence")

    @classmethod
    def parse(cls, text: str) -> Meld:
        """The meld written as cards separated by spaces, e.g. ``Meld.parse('7S 7D 7C')``."""
        return cls.of(parse_natural_cards(text))

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse('{self}')"

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def points(self) -> int:
        """The total point value of the cards (ace 1, court cards 10)."""
        return sum(c.points for c in self.cards)

    def extended_by(self, card: Card) -> Meld | None:
        """This meld with ``card`` laid off onto it, or None if the card does not fit."""
        if card in self.cards:
            return None
        if self.kind is MeldKind.SET:
            if len(self.cards) < 4 and card.number == self.cards[0].number:
                return Meld(MeldKind.SET, tuple(sorted((*self.cards, card), key=lambda c: c.index)))
            return None
        if card.suit_index != self.cards[0].suit_index:
            return None
        if card.number == self.cards[0].number - 1:
            return Meld(MeldKind.RUN, (card, *self.cards))
        if card.number == self.cards[-1].number + 1:
            return Meld(MeldKind.RUN, (*self.cards, card))
        return None

    def accepting_bits(self) -> int:
        """The bits (:attr:`Card.bit`) of every card this meld :meth:`accepts`, together."""
        cards = self.cards
        if self.kind is MeldKind.SET:
            if len(cards) >= 4:
                return 0
            shift = cards[0].number - 1
            bits = (1 << shift) | (1 << (13 + shift)) | (1 << (26 + shift)) | (1 << (39 + shift))
            for card in cards:
                bits &= ~card.bit
            return bits
        low, high = cards[0], cards[-1]
        below = low.bit >> 1 if low.number > 1 else 0
        return below | (high.bit << 1 if high.number < 13 else 0)

    def accepts(self, card: Card) -> bool:
        """True if ``card`` can be laid off onto this meld (as :meth:`extended_by`, without
        building the longer meld: legal actions ask this of every card and meld)."""
        cards = self.cards
        if card in cards:
            return False
        if self.kind is MeldKind.SET:
            return len(cards) < 4 and card.number == cards[0].number
        if card.suit_index != cards[0].suit_index:
            return False
        number = card.number
        return number == cards[0].number - 1 or number == cards[-1].number + 1
