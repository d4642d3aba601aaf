"""Hands as suit vectors: per suit, an int of 13 nibbles counting the cards of each rank."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.cards import STANDARD_PACK, AnyCard, Card, Joker
from rummykit.wild_melds import (
    ACE_HIGH,
)

# A suit vector is an int of 13 nibbles: nibble i counts the cards of rank number i + 1 (nibble 0 the
# ace, nibble 1 the 2s). Run positions are 1 (ace low) .. 13 and 14 (ace high): position p is nibble
# p - 1, and 14 is nibble 0 again.

_TRIGGERS: Final = sum(15 << (4 * i) for i in range(13) if i != 1)  # every nibble but the 2s
_NIBBLE_PTS: Final = (15, 20, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10)
_WILD_PTS: Final = 20
_ONES: Final = sum(1 << (4 * i) for i in range(13))  # a 1 in every nibble
_TWOS: Final = 15 << 4  # the nibble of the 2s
_BOOK_NIBBLES: Final = (0, *range(2, 13))  # every rank but the 2 can make a book


def _nib(position: int) -> int:
    return 0 if position == ACE_HIGH else position - 1


def _count(vec: int, nibble: int) -> int:
    return (vec >> (4 * nibble)) & 15


def _vectors(hand: Sequence[AnyCard]) -> tuple[tuple[int, ...], int]:
    vecs = [0, 0, 0, 0]
    jokers = 0
    for card in hand:
        if isinstance(card, Joker):
            jokers += 1
            continue
        suit, shift = card.suit_index, 4 * (card.number - 1)
        if vecs[suit] >> shift & 15 >= 2:
            raise ValueError(f"three or more {card}: two packs hold two of each card")
        vecs[suit] += 1 << shift
    return tuple(vecs), jokers


def _total_twos(vecs: Sequence[int]) -> int:
    return sum(_count(v, 1) for v in vecs)


def _shapes(vec: int, nibble: int, max_holes: int, max_span: int) -> list[tuple[int, ...]]:
    """The sets of natural positions of a run whose lowest natural card (not a 2) is ``nibble``.

    The card is at its own position (an ace at 1, or at 14 with the run below it); the other
    positions hold cards of ``vec`` above it (or below an ace high), or a natural 2 at position 2.
    At most ``max_holes`` empty positions inside, at most ``max_span`` from end to end.
    """
    out: list[tuple[int, ...]] = []
    twos = _count(vec, 1)

    def extend(positions: tuple[int, ...], last: int, step: int, holes: int, first: int) -> None:
        out.append(tuple(sorted(positions)))
        for gap in range(max_holes - holes + 1):
            q = last + step * (gap + 1)
            if not 2 <= q <= ACE_HIGH or abs(q - first) + 1 > max_span:
                break
            if _count(vec, _nib(q)) if q != 2 else twos:
                extend((*positions, q), q, step, holes + gap, first)

    if nibble == 0:
        extend((1,), 1, 1, 0, 1)
        extend((ACE_HIGH,), ACE_HIGH, -1, 0, ACE_HIGH)
        return out
    p0 = nibble + 1
    extend((p0,), p0, 1, 0, p0)
    if twos and p0 - 3 <= max_holes and p0 - 1 <= max_span:
        extend((2, p0), p0, 1, p0 - 3, 2)
    return out


def _taken(vec_positions: Sequence[int]) -> int:
    total = 0
    for p in vec_positions:
        total += 1 << (4 * _nib(p))
    return total


def _card(s: int, nibble: int) -> Card:
    return STANDARD_PACK[13 * s + nibble]
