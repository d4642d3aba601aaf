"""Best arrangement: the melds and unmatched cards of a least-deadwood layout."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.melds import Meld, MeldKind
from rummykit.solver.deadwood.core import _choices, _rank_dp, hand_mask, mask_cards
from rummykit.solver.deadwood.tables import _CARDS, _COL, _RUN_CHOICE, _RUN_DW, _SUIT_OFFSETS


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A way of laying out a hand with the least deadwood.

    ``melds`` are non-overlapping valid melds, sets first (by rank), then runs (by suit, then by
    lowest card); ``unmatched`` are the cards in no meld, sorted by index; ``deadwood`` is the total
    of their points.
    """

    deadwood: int
    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]


def _set_melds(u: int) -> list[Meld]:
    """The sets making up the set-choice mask ``u``, by rank."""
    melds = []
    for r in range(13):
        col = (u >> r) & _COL
        if col:
            cards = tuple(_CARDS[r + off] for off in _SUIT_OFFSETS if col >> off & 1)
            melds.append(Meld(MeldKind.SET, cards))
    return melds


def _arrangement_with_sets(mask: int, u: int) -> Arrangement:
    """The arrangement using the sets ``u`` and the best runs of the remaining cards."""
    melds = _set_melds(u)
    unmatched: list[Card] = []
    rest = mask ^ u
    choice = _RUN_CHOICE
    for off in _SUIT_OFFSETS:
        m = (rest >> off) & 0x1FFF
        while m:
            low = m & -m
            b = low.bit_length() - 1
            k = choice[m]
            if k == 0:
                unmatched.append(_CARDS[off + b])
                m ^= low
            else:
                melds.append(Meld(MeldKind.RUN, tuple(_CARDS[off + b + i] for i in range(k))))
                m ^= ((1 << k) - 1) << b
    return Arrangement(sum(c.points for c in unmatched), tuple(melds), tuple(unmatched))


def _arrangement_from_dp(mask: int) -> Arrangement:
    """The arrangement found by the rank-by-rank dynamic programme."""
    deadwood, roles = _rank_dp(mask)
    u = 0
    run_mask = 0
    for r, (run, set_) in enumerate(roles):
        for s in range(4):
            if set_ >> s & 1:
                u |= 1 << (13 * s + r)
            if run >> s & 1:
                run_mask |= 1 << (13 * s + r)
    melds = _set_melds(u)
    for off in _SUIT_OFFSETS:
        m = (run_mask >> off) & 0x1FFF
        while m:
            low = m & -m
            b = low.bit_length() - 1
            k = 0
            while b + k < 13 and m >> (b + k) & 1:
                k += 1
            melds.append(Meld(MeldKind.RUN, tuple(_CARDS[off + b + i] for i in range(k))))
            m ^= ((1 << k) - 1) << b
    rest = mask & ~(u | run_mask)
    unmatched = mask_cards(rest)
    return Arrangement(deadwood, tuple(melds), unmatched)


def _best_arrangement_mask(mask: int) -> Arrangement:
    """The best arrangement of a hand given as a mask (first best set choice in a fixed order)."""
    t = _RUN_DW
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    tri = (c & d & (h | s)) | (h & s & (c | d))
    best = t[c] + t[d] + t[h] + t[s]
    best_u = 0
    if tri and best:
        choices = _choices(mask, tri, c, d, h, s)
        if choices is None:
            return _arrangement_from_dp(mask)
        for u in choices[0]:
            x = mask ^ u
            v = t[x & 0x1FFF] + t[(x >> 13) & 0x1FFF] + t[(x >> 26) & 0x1FFF] + t[x >> 39]
            if v < best:
                best = v
                best_u = u
    return _arrangement_with_sets(mask, best_u)


def best_arrangement(cards: Iterable[Card]) -> Arrangement:
    """An arrangement of the hand with the least deadwood.

    Deterministic: the result depends only on the set of cards. Among equally good arrangements the
    first set choice in a fixed order wins (rank by rank: no set, the set of four, sets of three),
    and runs are taken as long as possible.
    """
    return _best_arrangement_mask(hand_mask(cards))
