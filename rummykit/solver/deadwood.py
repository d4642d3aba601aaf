"""The exact Gin Rummy meld solver: least deadwood, best arrangement, best discard, best lay-offs.

Sets are 3 or 4 cards of one rank; runs are 3 or more consecutive cards of one suit, the ace low
only. A hand's deadwood is the least total of points of cards left out of melds, over every way of
splitting the hand into non-overlapping melds.

How it works (a hand as a 52-bit mask, tables per suit, the choices of sets): ``docs/solvers.md``.

>>> from rummykit.cards import parse_natural_cards
>>> hand = parse_natural_cards("7H 7D 7C 7S 8S 9S 2C")
>>> arrangement = best_arrangement(hand)
>>> arrangement.deadwood, [str(m) for m in arrangement.melds], [str(c) for c in arrangement.unmatched]
(2, ['7C 7D 7H', '7S 8S 9S'], ['2C'])
>>> best_discards(parse_natural_cards("6S 7S 8S 9S 8C 8D 8H 3D AH 7D 7H"))
(10, (Card.parse('9S'),))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product, repeat
from typing import Final, TypeAlias

from rummykit.cards import STANDARD_PACK, Card
from rummykit.melds import Meld, MeldKind

__all__ = [
    "Arrangement",
    "LayoffPlan",
    "best_arrangement",
    "best_discards",
    "best_layoffs",
    "discard_deadwoods",
    "hand_mask",
    "min_deadwood",
    "min_deadwood_after_discard",
    "min_deadwood_mask",
]


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


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """The defender's best play after a knock: lay-offs, then own melds.

    ``layoffs`` are ``(card, meld index)`` pairs (indices into the knocker's melds) in an order that
    is legal one card at a time; ``arrangement`` is the best arrangement of the cards left after the
    lay-offs; ``deadwood`` is the defender's resulting deadwood (equal to
    ``arrangement.deadwood``).
    """

    deadwood: int
    layoffs: tuple[tuple[Card, int], ...]
    arrangement: Arrangement


# --------------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------------

_COL: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the 4 bits of one rank (ace) in a 52-bit mask
_ALL: Final = (1 << 52) - 1
_BIG: Final = 1 << 30
_POINTS: Final = tuple(min(i + 1, 10) for i in range(13))  # points by bit position in a suit
_CARDS: Final = STANDARD_PACK  # card by index
_SUIT_OFFSETS: Final = (0, 13, 26, 39)
_SEQUENCES: Final = (tuple, list)  # hands taken as they are; other iterables are copied first
# Above this many set choices the rank-by-rank dynamic programme is used instead of enumeration
# (never for hands of 11 cards or fewer, which have at most 72).
_MAX_SET_CHOICES: Final = 512

# The set choices tried for one rank, or for a combination of ranks: the masks of the cards put in
# sets, and (in parallel, or None when all are empty) "extras": (deadwood added, mask of cards)
# pairs for discarding a card that is in one of those sets.
_Extras: TypeAlias = tuple[tuple[int, int], ...]
_Options: TypeAlias = tuple[Sequence[int], Sequence[_Extras] | None]


def _build_run_tables() -> tuple[list[int], list[int]]:
    """Run-only least deadwood of every 13-bit suit mask, and the run taken at its lowest card.

    ``choice[m]`` is 0 when the lowest card of ``m`` is deadwood in the best layout, else the length
    of the run starting at it (ties go to the longest run).
    """
    size = 1 << 13
    dw = [0] * size
    choice = [0] * size
    points = _POINTS
    for m in range(1, size):
        low = m & -m
        b = low.bit_length() - 1
        best = points[b] + dw[m ^ low]
        pick = 0
        run = low
        k = 1
        while b + k < 13 and m >> (b + k) & 1:
            run |= 1 << (b + k)
            k += 1
            if k >= 3:
                v = dw[m ^ run]
                if v <= best:
                    best = v
                    pick = k
        dw[m] = best
        choice[m] = pick
    return dw, choice


def _build_drop_tables(
    dw: list[int],
) -> tuple[list[tuple[tuple[int, int], ...]], list[int], list[int], list[int]]:
    """Per suit mask: each card's change in run-only deadwood when it is removed, and more.

    ``drop[m]`` holds ``(bit position, delta)`` pairs in increasing position; ``dmin[m]`` is the
    least delta (``_BIG`` for the empty mask) and ``darg[m]`` the mask of cards achieving it;
    ``runnable[m]`` is the mask of cards lying in 3 or more consecutive cards of ``m`` (the only
    cards that can ever be in a run).
    """
    size = 1 << 13
    drop: list[tuple[tuple[int, int], ...]] = [()] * size
    dmin = [_BIG] * size
    darg = [0] * size
    runnable = [0] * size
    for m in range(1, size):
        base = dw[m]
        items = []
        mn = _BIG
        arg = 0
        x = m
        while x:
            low = x & -x
            x ^= low
            dv = dw[m ^ low] - base
            items.append((low.bit_length() - 1, dv))
            if dv < mn:
                mn = dv
                arg = low
            elif dv == mn:
                arg |= low
        drop[m] = tuple(items)
        dmin[m] = mn
        darg[m] = arg
        triples = m & m >> 1 & m >> 2
        runnable[m] = triples | triples << 1 | triples << 2
    return drop, dmin, darg, runnable


def _build_set_options() -> tuple[list[dict[int, tuple[int, ...]]], list[dict[int, _Options]]]:
    """Per rank: every set choice by the cards held, and the set choices worth trying.

    ``every[r][held]`` (``held`` being the rank's cards shifted down to the ace position, 3 or 4 of
    them) lists the set of four, then the sets of three by the suit left out ("no set" is always
    tried first by the callers, so it is not listed).
    ``pruned[r][held | runnable << 1]`` (``runnable`` marking held cards that lie in 3+ consecutive
    cards of their suit, the only cards that can ever be in a run) leaves out choices that are
    never strictly better: a card that can never run is better in a set than free, so no choice
    leaves such a card free beside a set, or makes no set although 3 such cards are held. The
    extras keep discards of set cards exact with the pruned choices: a card of a set of four can be
    discarded leaving a set of three (deadwood + 0), and when the set is exactly 3 cards that can
    never run, discarding one leaves the other two as deadwood.
    """
    every: list[dict[int, tuple[int, ...]]] = []
    pruned: list[dict[int, _Options]] = []
    spread = [sum(1 << (13 * s) for s in range(4) if p >> s & 1) for p in range(16)]
    for r in range(13):
        all_by_held: dict[int, tuple[int, ...]] = {}
        by_key: dict[int, _Options] = {}
        two_dead = 2 * _POINTS[r]
        for held in range(16):
            if held.bit_count() < 3:
                continue
            full = spread[held] << r
            threes = [spread[held & ~(1 << f)] << r for f in range(4) if held >> f & 1]
            all_by_held[spread[held]] = (full, *threes) if held.bit_count() == 4 else (full,)
            for run in range(16):
                if run & ~held:
                    continue
                dead = held & ~run
                found: list[tuple[int, _Extras]] = []
                if dead.bit_count() <= 2:
                    found.append((0, ()))
                if held.bit_count() == 4:
                    found.append((full, ((0, full),)))
                    for f in range(4):
                        if run >> f & 1:
                            q = held & ~(1 << f)
                            extras: _Extras = ((two_dead, spread[q] << r),) if q == dead else ()
                            found.append((spread[q] << r, extras))
                else:
                    found.append((full, ((two_dead, full),) if dead == held else ()))
                us = tuple(u for u, _ in found)
                ex = tuple(e for _, e in found)
                by_key[spread[held] | spread[run] << 1] = (us, ex if any(ex) else None)
        every.append(all_by_held)
        pruned.append(by_key)
    return every, pruned


def _build_suit_cards() -> tuple[list[tuple[Card, ...]], ...]:
    """For each suit, the cards of every 13-bit mask of that suit, by rank."""
    tables = []
    for s in range(4):
        suit_cards = STANDARD_PACK[13 * s : 13 * s + 13]
        table: list[tuple[Card, ...]] = [()] * 8192
        for m in range(1, 8192):
            top = m.bit_length() - 1
            table[m] = (*table[m ^ 1 << top], suit_cards[top])
        tables.append(table)
    return tuple(tables)


_RUN_DW, _RUN_CHOICE = _build_run_tables()
_DROP, _DMIN, _DARG, _RUNNABLE = _build_drop_tables(_RUN_DW)
_SET_EVERY, _SET_PRUNED = _build_set_options()


def _build_set_rows(
    pruned: list[dict[int, _Options]],
) -> list[dict[int, tuple[tuple[int, int, int], ...]]]:
    """``pruned`` with each choice as a ``(u, extra, extra mask)`` row (``_BIG``, 0 for none).

    Every pruned choice has at most one extra, so one row per choice is enough.
    """
    rows_by_rank = []
    for by_key in pruned:
        rows_by_key: dict[int, tuple[tuple[int, int, int], ...]] = {}
        for key, (us, ex) in by_key.items():
            rows = []
            for i, u in enumerate(us):
                extras = ex[i] if ex is not None else ()
                if len(extras) > 1:  # pragma: no cover - by construction
                    raise AssertionError("a set choice with two extras")
                xv, xm = extras[0] if extras else (_BIG, 0)
                rows.append((u, xv, xm))
            rows_by_key[key] = tuple(rows)
        rows_by_rank.append(rows_by_key)
    return rows_by_rank


_SET_ROWS = _build_set_rows(_SET_PRUNED)
_SUIT_CARDS: Final = _build_suit_cards()


# --------------------------------------------------------------------------------------------------
# Set choices
# --------------------------------------------------------------------------------------------------


def _sequence(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards as a tuple; TypeError for text (a list or a tuple never comes here: the
    solver's entry points take those as they are)."""
    if isinstance(cards, str):
        raise TypeError(f"give cards, not the text {cards!r}: parse_cards({cards!r}) makes them")
    return tuple(cards)


def hand_mask(cards: Iterable[Card]) -> int:
    """The 52-bit mask of the cards (bit ``card.index``); a repeated card raises ValueError."""
    seq = cards if isinstance(cards, _SEQUENCES) else _sequence(cards)
    n = len(seq)
    if n == 10:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        )
    elif n == 11:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        ) + k10.bit
    else:
        mask = 0
        for card in seq:
            mask += card.bit
    if mask.bit_count() != n:
        # A repeated card carries into another bit: the sum has fewer bits than cards.
        raise ValueError("a card appears more than once in the hand")
    return mask


def _choices(mask: int, tri: int, c: int, d: int, h: int, s: int) -> _Options | None:
    """The set choices to try, besides no sets at all, for a hand with sets possible at ``tri``.

    ``c``, ``d``, ``h``, ``s`` are the hand's suit masks. With one such rank: every choice, no
    extras. With more: the pruned choices of each rank, combined. None if there are too many (then
    the caller uses the dynamic programme).
    """
    if not tri & (tri - 1):
        r = tri.bit_length() - 1
        return _SET_EVERY[r][(mask >> r) & _COL], None
    rn = _RUNNABLE
    runnable = rn[c] | rn[d] << 13 | rn[h] << 26 | rn[s] << 39
    table = _SET_PRUNED
    low = tri & -tri
    tri ^= low
    r = low.bit_length() - 1
    us, ex = table[r][(mask >> r) & _COL | ((runnable >> r) & _COL) << 1]
    n = len(us)
    while tri:
        low = tri & -tri
        tri ^= low
        r = low.bit_length() - 1
        more_us, more_ex = table[r][(mask >> r) & _COL | ((runnable >> r) & _COL) << 1]
        n *= len(more_us)
        if n > _MAX_SET_CHOICES:
            return None
        if ex is not None or more_ex is not None:
            left = ex if ex is not None else ((),) * len(us)
            right = more_ex if more_ex is not None else ((),) * len(more_us)
            ex = [a + b for a in left for b in right]
        us = [a | b for a in us for b in more_us]
    if us[0] == 0:
        # No sets at all: the callers have tried it already.
        us = us[1:]
        if ex is not None:
            ex = ex[1:]
    return us, ex


def _triples(mask: int) -> int:
    """The 13-bit mask of ranks of which the hand holds 3 or 4 cards."""
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    return (c & d & (h | s)) | (h & s & (c | d))


# --------------------------------------------------------------------------------------------------
# Least deadwood
# --------------------------------------------------------------------------------------------------


def _min_with_sets(mask: int, tri: int, best: int) -> int:
    """The least deadwood of a hand with sets possible at ``tri``; ``best`` is the no-set value.

    Up to three such ranks with at most one of them held in all four suits (every hand of 10
    cards, nearly every one of 11): the choices of ``_KEEPS`` (one mask of ranks kept for every
    suit), plus, for a rank held in all four suits, its sets of three leaving out a card that can
    run (leaving out one that cannot run is never better than the set of four). Otherwise the
    pruned choices of each rank combined (``_choices``), or the rank-by-rank dynamic programme.
    """
    t = _RUN_DW
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    four = c & d & h & s
    if not four:
        keeps = _KEEPS.get(tri)
    elif not four & (four - 1) and (split := _KEEPS_FOUR.get(tri | four << 13)) is not None:
        in_set, keeps = split
        rn = _RUNNABLE
        run_c = rn[c] & four
        run_d = rn[d] & four
        run_h = rn[h] & four
        run_s = rn[s] & four
        for keep in in_set:
            xc = c & keep
            xd = d & keep
            xh = h & keep
            xs = s & keep
            tc = t[xc]
            td = t[xd]
            th = t[xh]
            ts = t[xs]
            v = tc + td + th + ts
            if v < best:
                best = v
            if run_c:
                v = t[xc | four] + td + th + ts
                if v < best:
                    best = v
            if run_d:
                v = tc + t[xd | four] + th + ts
                if v < best:
                    best = v
            if run_h:
                v = tc + td + t[xh | four] + ts
                if v < best:
                    best = v
            if run_s:
                v = tc + td + th + t[xs | four]
                if v < best:
                    best = v
    else:
        keeps = None
    if keeps is not None:
        for keep in keeps:
            v = t[c & keep] + t[d & keep] + t[h & keep] + t[s & keep]
            if v < best:
                best = v
        return best
    choices = _choices(mask, tri, c, d, h, s)
    if choices is None:
        return _rank_dp(mask)[0]
    for u in choices[0]:
        x = mask ^ u
        v = t[x & 0x1FFF] + t[(x >> 13) & 0x1FFF] + t[(x >> 26) & 0x1FFF] + t[x >> 39]
        if v < best:
            best = v
    return best


def min_deadwood_mask(mask: int) -> int:
    """The least deadwood of the hand given as a 52-bit mask (see :func:`hand_mask`). Hot path.

    A mask outside 0 to 2**52 - 1 raises ValueError.
    """
    if mask < 0 or mask > _ALL:
        raise ValueError(f"not a 52-bit card mask: {mask!r}")
    t = _RUN_DW
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    best = t[c] + t[d] + t[h] + t[s]
    tri = (c & d & (h | s)) | (h & s & (c | d))
    if not tri or not best:
        return best
    return _min_with_sets(mask, tri, best)


def min_deadwood(cards: Iterable[Card]) -> int:
    """The least deadwood of a hand of any size (0 to 52 cards)."""
    seq = cards if isinstance(cards, _SEQUENCES) else _sequence(cards)
    n = len(seq)
    if n == 10:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        )
    elif n == 11:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        ) + k10.bit
    else:
        mask = 0
        for card in seq:
            mask += card.bit
    if mask.bit_count() != n:
        # A repeated card carries into another bit: the sum has fewer bits than cards.
        raise ValueError("a card appears more than once in the hand")
    t = _RUN_DW
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    best = t[c] + t[d] + t[h] + t[s]
    tri = (c & d & (h | s)) | (h & s & (c | d))
    if not tri or not best:
        return best
    return _min_with_sets(mask, tri, best)


# --------------------------------------------------------------------------------------------------
# Rank-by-rank dynamic programme (for hands with very many set choices)
# --------------------------------------------------------------------------------------------------
def _build_dp_tables() -> tuple[list[list[tuple[int, int, int]]], list[int], list[list[int]]]:
    """Role patterns per held pattern, pending runs per state, and next states.

    A state holds, for each suit, the length (capped at 3) of the run ending at the previous rank,
    2 bits per suit. ``roles[p]`` lists ``(run, set, dead)`` 4-bit patterns splitting the held
    pattern ``p`` with 0, 3 or 4 cards in the set; ``pending[state]`` is the pattern of suits whose
    run is still shorter than 3 (they must continue); ``nxt[state][run]`` is the next state.
    """
    roles: list[list[tuple[int, int, int]]] = []
    for p in range(16):
        suits = [s for s in range(4) if p >> s & 1]
        found = []
        for choice in product(range(3), repeat=len(suits)):
            run = set_ = dead = 0
            for s, role in zip(suits, choice, strict=True):
                if role == 0:
                    run |= 1 << s
                elif role == 1:
                    set_ |= 1 << s
                else:
                    dead |= 1 << s
            if set_.bit_count() in (0, 3, 4):
                found.append((run, set_, dead))
        roles.append(found)
    pending = [0] * 256
    nxt = [[0] * 16 for _ in range(256)]
    for state in range(256):
        lengths = [(state >> (2 * s)) & 3 for s in range(4)]
        pending[state] = sum(1 << s for s in range(4) if lengths[s] in (1, 2))
        for run in range(16):
            nxt[state][run] = sum(
                min(lengths[s] + 1, 3) << (2 * s) for s in range(4) if run >> s & 1
            )
    return roles, pending, nxt


_DP_ROLES, _DP_PENDING, _DP_NEXT = _build_dp_tables()


def _rank_dp(mask: int) -> tuple[int, list[tuple[int, int]]]:
    """Least deadwood by a dynamic programme over the ranks, with the per-rank roles.

    Returns the deadwood and, for each rank, ``(run, set)`` 4-bit suit patterns of the cards used
    in runs and in a set. Exact for any hand; used when set choices are too many to enumerate.
    """
    layer: dict[int, int] = {0: 0}
    backs: list[dict[int, tuple[int, int, int]]] = []
    pending = _DP_PENDING
    nxt = _DP_NEXT
    for r in range(13):
        held = (
            (mask >> r & 1)
            | (mask >> (r + 12) & 2)
            | (mask >> (r + 24) & 4)
            | (mask >> (r + 36) & 8)
        )
        pts = _POINTS[r]
        roles = _DP_ROLES[held]
        new: dict[int, int] = {}
        back: dict[int, tuple[int, int, int]] = {}
        for state, cost in layer.items():
            must = pending[state]
            if must & ~held:
                continue
            row = nxt[state]
            for run, set_, dead in roles:
                if must & ~run:
                    continue
                ns = row[run]
                nc = cost + pts * dead.bit_count()
                if nc < new.get(ns, _BIG):
                    new[ns] = nc
                    back[ns] = (state, run, set_)
        layer = new
        backs.append(back)
    best = _BIG
    end = 0
    for state, cost in layer.items():
        if not pending[state] and cost < best:
            best = cost
            end = state
    roles_by_rank: list[tuple[int, int]] = [(0, 0)] * 13
    state = end
    for r in range(12, -1, -1):
        prev, run, set_ = backs[r][state]
        roles_by_rank[r] = (run, set_)
        state = prev
    return best, roles_by_rank


# --------------------------------------------------------------------------------------------------
# Arrangements
# --------------------------------------------------------------------------------------------------


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
    unmatched = _cards_of(rest)
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


# --------------------------------------------------------------------------------------------------
# Discards
# --------------------------------------------------------------------------------------------------


def _cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, by index."""
    sc = _SUIT_CARDS
    return (
        sc[0][mask & 0x1FFF]
        + sc[1][(mask >> 13) & 0x1FFF]
        + sc[2][(mask >> 26) & 0x1FFF]
        + sc[3][mask >> 39]
    )


def _discard_values(mask: int) -> dict[Card, int]:
    """For each card of the hand (in index order), the least deadwood of the hand without it."""
    t = _RUN_DW
    drop = _DROP
    cards = _CARDS
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    tri = (c & d & (h | s)) | (h & s & (c | d))
    base = t[c] + t[d] + t[h] + t[s]
    result: dict[Card, int] = {}
    for i, dv in drop[c]:
        result[cards[i]] = base + dv
    for i, dv in drop[d]:
        result[cards[13 + i]] = base + dv
    for i, dv in drop[h]:
        result[cards[26 + i]] = base + dv
    for i, dv in drop[s]:
        result[cards[39 + i]] = base + dv
    if not tri:
        return result
    choices = _choices(mask, tri, c, d, h, s)
    if choices is None:
        return {card: min_deadwood_mask(mask ^ card.bit) for card in _cards_of(mask)}
    us, ex = choices
    for u, extras in zip(us, repeat(()) if ex is None else ex, strict=False):
        x = mask ^ u
        c = x & 0x1FFF
        d = (x >> 13) & 0x1FFF
        h = (x >> 26) & 0x1FFF
        s = x >> 39
        base = t[c] + t[d] + t[h] + t[s]
        for off, m in ((0, c), (13, d), (26, h), (39, s)):
            for i, dv in drop[m]:
                card = cards[off + i]
                v = base + dv
                if v < result[card]:
                    result[card] = v
        for extra, em in extras:
            v = base + extra
            while em:
                low = em & -em
                em ^= low
                card = cards[low.bit_length() - 1]
                if v < result[card]:
                    result[card] = v
    return result


def discard_deadwoods(cards: Iterable[Card]) -> dict[Card, int]:
    """For every card in the hand, the least deadwood of the hand without that card.

    The keys are the hand's cards in index order. Hot path: the engine calls this on every 11-card
    hand.
    """
    seq = cards if isinstance(cards, _SEQUENCES) else _sequence(cards)
    n = len(seq)
    if n == 10:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        )
    elif n == 11:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        ) + k10.bit
    else:
        mask = 0
        for card in seq:
            mask += card.bit
    if mask.bit_count() != n:
        # A repeated card carries into another bit: the sum has fewer bits than cards.
        raise ValueError("a card appears more than once in the hand")
    return _discard_values(mask)


def best_discards(cards: Iterable[Card]) -> tuple[int, tuple[Card, ...]]:
    """The least deadwood after one discard, and every discard achieving it (sorted by index).

    Raises ValueError for an empty hand (there is nothing to discard).
    """
    seq = cards if isinstance(cards, _SEQUENCES) else _sequence(cards)
    n = len(seq)
    if n == 10:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        )
    elif n == 11:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        ) + k10.bit
    else:
        mask = 0
        for card in seq:
            mask += card.bit
    if mask.bit_count() != n:
        # A repeated card carries into another bit: the sum has fewer bits than cards.
        raise ValueError("a card appears more than once in the hand")
    if not mask:
        raise ValueError("an empty hand has no discard")
    t = _RUN_DW
    e = _DMIN
    a = _DARG
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    tri = (c & d & (h | s)) | (h & s & (c | d))
    if not tri:
        ec = e[c]
        ed = e[d]
        eh = e[h]
        es = e[s]
        low = ec
        if ed < low:
            low = ed
        if eh < low:
            low = eh
        if es < low:
            low = es
        sc = _SUIT_CARDS
        return t[c] + t[d] + t[h] + t[s] + low, (
            (sc[0][a[c]] if ec == low else ())
            + (sc[1][a[d]] if ed == low else ())
            + (sc[2][a[h]] if eh == low else ())
            + (sc[3][a[s]] if es == low else ())
        )
    four = c & d & h & s
    if n <= 11 and not four & (four - 1):
        # At most three ranks of sets and at most one of them held in all four suits.
        best, arg = _discards_uniform(c, d, h, s, tri, four)
        return best, _cards_of(arg)
    # Bigger hands, or two ranks held in all four suits: from the layout with no set.
    ec = e[c]
    ed = e[d]
    eh = e[h]
    es = e[s]
    low = ec
    if ed < low:
        low = ed
    if eh < low:
        low = eh
    if es < low:
        low = es
    best = t[c] + t[d] + t[h] + t[s] + low
    arg = (
        (a[c] if ec == low else 0)
        | (a[d] << 13 if ed == low else 0)
        | (a[h] << 26 if eh == low else 0)
        | (a[s] << 39 if es == low else 0)
    )
    if not tri & (tri - 1):
        # One rank with a possible set: every choice, no extras needed.
        r = tri.bit_length() - 1
        for u in _SET_EVERY[r][(mask >> r) & _COL]:
            x = mask ^ u
            c = x & 0x1FFF
            d = (x >> 13) & 0x1FFF
            h = (x >> 26) & 0x1FFF
            s = x >> 39
            ec = e[c]
            ed = e[d]
            eh = e[h]
            es = e[s]
            low = ec
            if ed < low:
                low = ed
            if eh < low:
                low = eh
            if es < low:
                low = es
            v = t[c] + t[d] + t[h] + t[s] + low
            if v > best:
                continue
            found = (
                (a[c] if ec == low else 0)
                | (a[d] << 13 if ed == low else 0)
                | (a[h] << 26 if eh == low else 0)
                | (a[s] << 39 if es == low else 0)
            )
            if v < best:
                best = v
                arg = found
            else:
                arg |= found
        return best, _cards_of(arg)
    found_sets = _discards_with_sets(mask, tri, best, arg)
    if found_sets is None:
        values = _discard_values(mask)
        best = min(values.values())
        return best, tuple(card for card, v in values.items() if v == best)
    return found_sets[0], _cards_of(found_sets[1])


def _discards_uniform(c: int, d: int, h: int, s: int, tri: int, four: int) -> tuple[int, int]:
    """``best_discards`` (value and the mask of winning discards) of a hand of at most 11 cards
    with sets possible at ``tri`` and at most one rank held in all four suits (``four``).

    The choices of sets of ``min_deadwood_after_discard``: a mask of ranks kept, the same in
    every suit, for every subset of ``tri``; with ``four``, its set of four (whose cards can each
    be discarded leaving a set of three) and its sets of three leaving out a card that can run.
    A choice whose run-only deadwood is more than 10 (the most a discard saves) above the best
    is skipped; ties count, as every winning discard is wanted.
    """
    t = _RUN_DW
    e = _DMIN
    a = _DARG
    best = _BIG
    arg = 0
    thr = _BIG + 10
    if not four:
        keeps = _KEEPS[tri]
    else:
        rn = _RUNNABLE
        run_c = rn[c] & four
        run_d = rn[d] & four
        run_h = rn[h] & four
        run_s = rn[s] & four
        set_of_four = four | four << 13 | four << 26 | four << 39
        in_set, keeps = _KEEPS_FOUR[tri | four << 13]
        for keep in in_set:
            xc = c & keep
            xd = d & keep
            xh = h & keep
            xs = s & keep
            tc = t[xc]
            td = t[xd]
            th = t[xh]
            ts = t[xs]
            v = tc + td + th + ts
            if v <= thr:
                ec = e[xc]
                ed = e[xd]
                eh = e[xh]
                es = e[xs]
                low = 0
                if ec < low:
                    low = ec
                if ed < low:
                    low = ed
                if eh < low:
                    low = eh
                if es < low:
                    low = es
                w = v + low
                if w <= best:
                    found = (
                        (a[xc] if ec == low else 0)
                        | (a[xd] << 13 if ed == low else 0)
                        | (a[xh] << 26 if eh == low else 0)
                        | (a[xs] << 39 if es == low else 0)
                        | (set_of_four if not low else 0)
                    )
                    if w < best:
                        best = w
                        arg = found
                        thr = w + 10
                    else:
                        arg |= found
            if run_c:
                y = xc | four
                v = t[y] + td + th + ts
                if v <= thr:
                    ec = e[y]
                    ed = e[xd]
                    eh = e[xh]
                    es = e[xs]
                    low = ec
                    if ed < low:
                        low = ed
                    if eh < low:
                        low = eh
                    if es < low:
                        low = es
                    w = v + low
                    if w <= best:
                        found = (
                            (a[y] if ec == low else 0)
                            | (a[xd] << 13 if ed == low else 0)
                            | (a[xh] << 26 if eh == low else 0)
                            | (a[xs] << 39 if es == low else 0)
                        )
                        if w < best:
                            best = w
                            arg = found
                            thr = w + 10
                        else:
                            arg |= found
            if run_d:
                y = xd | four
                v = tc + t[y] + th + ts
                if v <= thr:
                    ec = e[xc]
                    ed = e[y]
                    eh = e[xh]
                    es = e[xs]
                    low = ec
                    if ed < low:
                        low = ed
                    if eh < low:
                        low = eh
                    if es < low:
                        low = es
                    w = v + low
                    if w <= best:
                        found = (
                            (a[xc] if ec == low else 0)
                            | (a[y] << 13 if ed == low else 0)
                            | (a[xh] << 26 if eh == low else 0)
                            | (a[xs] << 39 if es == low else 0)
                        )
                        if w < best:
                            best = w
                            arg = found
                            thr = w + 10
                        else:
                            arg |= found
            if run_h:
                y = xh | four
                v = tc + td + t[y] + ts
                if v <= thr:
                    ec = e[xc]
                    ed = e[xd]
                    eh = e[y]
                    es = e[xs]
                    low = ec
                    if ed < low:
                        low = ed
                    if eh < low:
                        low = eh
                    if es < low:
                        low = es
                    w = v + low
                    if w <= best:
                        found = (
                            (a[xc] if ec == low else 0)
                            | (a[xd] << 13 if ed == low else 0)
                            | (a[y] << 26 if eh == low else 0)
                            | (a[xs] << 39 if es == low else 0)
                        )
                        if w < best:
                            best = w
                            arg = found
                            thr = w + 10
                        else:
                            arg |= found
            if run_s:
                y = xs | four
                v = tc + td + th + t[y]
                if v <= thr:
                    ec = e[xc]
                    ed = e[xd]
                    eh = e[xh]
                    es = e[y]
                    low = ec
                    if ed < low:
                        low = ed
                    if eh < low:
                        low = eh
                    if es < low:
                        low = es
                    w = v + low
                    if w <= best:
                        found = (
                            (a[xc] if ec == low else 0)
                            | (a[xd] << 13 if ed == low else 0)
                            | (a[xh] << 26 if eh == low else 0)
                            | (a[y] << 39 if es == low else 0)
                        )
                        if w < best:
                            best = w
                            arg = found
                            thr = w + 10
                        else:
                            arg |= found
    for keep in keeps:
        xc = c & keep
        xd = d & keep
        xh = h & keep
        xs = s & keep
        v = t[xc] + t[xd] + t[xh] + t[xs]
        if v > thr:
            continue
        ec = e[xc]
        ed = e[xd]
        eh = e[xh]
        es = e[xs]
        low = ec
        if ed < low:
            low = ed
        if eh < low:
            low = eh
        if es < low:
            low = es
        w = v + low
        if w <= best:
            found = (
                (a[xc] if ec == low else 0)
                | (a[xd] << 13 if ed == low else 0)
                | (a[xh] << 26 if eh == low else 0)
                | (a[xs] << 39 if es == low else 0)
            )
            if w < best:
                best = w
                arg = found
                thr = w + 10
            else:
                arg |= found
    return best, arg


def _discards_with_sets(mask: int, tri: int, best: int, arg: int) -> tuple[int, int] | None:
    """The least deadwood after one discard and the mask of the discards achieving it.

    For a hand with sets possible at two or more ranks ``tri``; ``best`` and ``arg`` are the
    no-set value and winners. The pruned choices of the first rank are the outer loop, the
    combined choices of the other ranks the inner one. A choice whose run-only deadwood, less the
    most a discard can save (the points of the hand's highest card), is already above the best is
    skipped before its discards are looked at. None if there are too many choices.
    """
    t = _RUN_DW
    e = _DMIN
    a = _DARG
    rn = _RUNNABLE
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    runnable = rn[c] | rn[d] << 13 | rn[h] << 26 | rn[s] << 39
    pmax = _POINTS[(c | d | h | s).bit_length() - 1]
    table = _SET_ROWS
    low = tri & -tri
    tri ^= low
    r = low.bit_length() - 1
    outer = table[r][(mask >> r) & _COL | ((runnable >> r) & _COL) << 1]
    low = tri & -tri
    tri ^= low
    r = low.bit_length() - 1
    inner = table[r][(mask >> r) & _COL | ((runnable >> r) & _COL) << 1]
    n = len(outer) * len(inner)
    while tri:
        low = tri & -tri
        tri ^= low
        r = low.bit_length() - 1
        more = table[r][(mask >> r) & _COL | ((runnable >> r) & _COL) << 1]
        n *= len(more)
        if n > _MAX_SET_CHOICES:
            return None
        combined = []
        for u2, xv2, xm2 in inner:
            for u3, xv3, xm3 in more:
                if xv2 < xv3:
                    combined.append((u2 | u3, xv2, xm2))
                elif xv3 < xv2:
                    combined.append((u2 | u3, xv3, xm3))
                else:
                    combined.append((u2 | u3, xv2, xm2 | xm3))
        inner = tuple(combined)
    for u1, xv1, xm1 in outer:
        m1 = mask ^ u1
        for u2, xv2, xm2 in inner:
            if not u2 and not u1:
                continue
            x = m1 ^ u2
            c = x & 0x1FFF
            d = (x >> 13) & 0x1FFF
            h = (x >> 26) & 0x1FFF
            s = x >> 39
            v = t[c] + t[d] + t[h] + t[s]
            if v - pmax > best:
                continue
            ec = e[c]
            ed = e[d]
            eh = e[h]
            es = e[s]
            low = ec
            if ed < low:
                low = ed
            if eh < low:
                low = eh
            if es < low:
                low = es
            xv = xv1 if xv1 < xv2 else xv2
            if xv < low:
                low = xv
            v += low
            if v > best:
                continue
            found = (
                (a[c] if ec == low else 0)
                | (a[d] << 13 if ed == low else 0)
                | (a[h] << 26 if eh == low else 0)
                | (a[s] << 39 if es == low else 0)
            )
            if xv == low:
                if xv1 == low:
                    found |= xm1
                if xv2 == low:
                    found |= xm2
            if v < best:
                best = v
                arg = found
            else:
                arg |= found
    return best, arg


# --------------------------------------------------------------------------------------------------
# Value only: the least deadwood after the best discard
# --------------------------------------------------------------------------------------------------


def _build_value_rows(
    rows_by_rank: list[dict[int, tuple[tuple[int, int, int], ...]]],
) -> list[dict[int, tuple[tuple[int, int], ...]]]:
    """``_SET_ROWS`` as ``(u, extra)`` pairs, sets first (largest first) and "no set" last.

    Sets are tried first because in a hand with several possible sets they are usually part of
    the best layout, so a good value is found early and more choices are skipped by the bound.
    """
    out = []
    for by_key in rows_by_rank:
        out.append(
            {
                key: tuple(
                    (u, xv)
                    for u, xv, _ in sorted(rows, key=lambda row: (not row[0], -row[0].bit_count()))
                )
                for key, rows in by_key.items()
            }
        )
    return out


def _build_keeps() -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[tuple[int, ...], ...]]]:
    """The "same in every suit" set choices of up to 3 ranks, as 13-bit masks of ranks kept.

    ``keeps[ranks]`` (``ranks`` a 13-bit mask of 1 to 3 ranks) lists, for every subset of those
    ranks whose cards all go into sets, the mask of the other ranks: biggest subsets first (sets
    are usually part of the best layout, so a good value is found early), the empty subset (no
    set) last. ``with_four[ranks | four << 13]`` (``four`` one of the ranks, the one held in all
    four suits) splits that list in two, in the same order: the keeps where ``four`` is a set of
    four, then the others.
    """
    keeps: dict[int, tuple[int, ...]] = {}
    with_four: dict[int, tuple[tuple[int, ...], ...]] = {}
    for n in (1, 2, 3):
        for ranks in combinations(range(13), n):
            held = sum(1 << r for r in ranks)
            subsets = [
                sum(1 << r for r in subset)
                for size in range(n, -1, -1)
                for subset in combinations(ranks, size)
            ]
            keeps[held] = tuple(0x1FFF & ~subset for subset in subsets)
            for r in ranks:
                with_four[held | 1 << (r + 13)] = (
                    tuple(keep for keep in keeps[held] if not keep >> r & 1),
                    tuple(keep for keep in keeps[held] if keep >> r & 1),
                )
    return keeps, with_four


_VALUE_ROWS = _build_value_rows(_SET_ROWS)
_KEEPS, _KEEPS_FOUR = _build_keeps()
# The points of the highest card of every 13-bit mask of ranks (0 for none).
_TOP_POINTS: Final = (0, *(_POINTS[m.bit_length() - 1] for m in range(1, 8192)))


def min_deadwood_after_discard(cards: Iterable[Card]) -> int:
    """The least deadwood of the hand after discarding one card (the best discard).

    Exact, value only: the same number as ``best_discards(cards)[0]``, without finding every
    discard achieving it, so the search stops at gin (0) and skips set choices that cannot beat
    the best value found so far. Raises ValueError for an empty hand or a repeated card.

    How: with no rank held in all four suits, every rank holding 3 cards is either a set or no
    set, the same choice in every suit, so a choice is one mask of ranks kept in the suits and
    every choice is tried (sets first) with four table look-ups, no extras needed. With one rank
    held in all four suits, its set of four is one more such choice (with the extra that
    discarding one of its cards leaves a set of three), and its sets of three are tried only
    leaving out a card that can run. With two such ranks, the pruned choices of each rank are
    combined as in ``best_discards``.

    >>> from rummykit.cards import parse_natural_cards
    >>> min_deadwood_after_discard(parse_natural_cards("6S 7S 8S 9S 8C 8D 8H 3D AH 7D 7H"))
    10
    >>> min_deadwood_after_discard(parse_natural_cards("AC 2C 3C 7D 7H 7S 9H TH JH QH KD"))
    0
    """
    seq = cards if isinstance(cards, _SEQUENCES) else _sequence(cards)
    n = len(seq)
    if n == 11:
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10 = seq
        mask = (
            k0.bit + k1.bit + k2.bit + k3.bit + k4.bit + k5.bit + k6.bit + k7.bit + k8.bit + k9.bit
        ) + k10.bit
    else:
        if not n:
            raise ValueError("an empty hand has no discard")
        mask = 0
        for card in seq:
            mask += card.bit
        if n > 11 and mask.bit_count() == n:
            # Bigger than a Gin Rummy hand (possibly with four or more ranks of sets): the
            # general way, every discard.
            return min(_discard_values(mask).values())
    if mask.bit_count() != n:
        # A repeated card carries into another bit: the sum has fewer bits than cards.
        raise ValueError("a card appears more than once in the hand")
    t = _RUN_DW
    e = _DMIN
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    tri = (c & d & (h | s)) | (h & s & (c | d))
    if not tri:
        low = e[c]
        ed = e[d]
        if ed < low:
            low = ed
        ed = e[h]
        if ed < low:
            low = ed
        ed = e[s]
        if ed < low:
            low = ed
        return t[c] + t[d] + t[h] + t[s] + low
    four = c & d & h & s
    best = _BIG
    # A discard lowers the deadwood of a layout by at most 10 (the most a card counts): a
    # choice whose deadwood before the discard reaches ``thr`` cannot win.
    thr = _BIG + 10
    if not four:
        keeps = _KEEPS[tri]
    elif not four & (four - 1):
        # One rank held in all four suits (``four``, one bit): first the choices where it is a set
        # of four, each followed by its sets of three leaving out a card that can run, then the
        # choices where it is no set.
        rn = _RUNNABLE
        run_c = rn[c] & four
        run_d = rn[d] & four
        run_h = rn[h] & four
        run_s = rn[s] & four
        in_set, keeps = _KEEPS_FOUR[tri | four << 13]
        for keep in in_set:
            xc = c & keep
            xd = d & keep
            xh = h & keep
            xs = s & keep
            tc = t[xc]
            td = t[xd]
            th = t[xh]
            ts = t[xs]
            v = tc + td + th + ts
            if v < thr:
                # A card of the set of four can be discarded leaving a set of three: low <= 0.
                low = 0
                ed = e[xc]
                if ed < low:
                    low = ed
                ed = e[xd]
                if ed < low:
                    low = ed
                ed = e[xh]
                if ed < low:
                    low = ed
                ed = e[xs]
                if ed < low:
                    low = ed
                v += low
                if v < best:
                    if not v:
                        return 0
                    thr += v - best
                    best = v
            if run_c:
                y = xc | four
                v = t[y] + td + th + ts
                if v < thr:
                    low = e[y]
                    ed = e[xd]
                    if ed < low:
                        low = ed
                    ed = e[xh]
                    if ed < low:
                        low = ed
                    ed = e[xs]
                    if ed < low:
                        low = ed
                    v += low
                    if v < best:
                        if not v:
                            return 0
                        thr += v - best
                        best = v
            if run_d:
                y = xd | four
                v = tc + t[y] + th + ts
                if v < thr:
                    low = e[y]
                    ed = e[xc]
                    if ed < low:
                        low = ed
                    ed = e[xh]
                    if ed < low:
                        low = ed
                    ed = e[xs]
                    if ed < low:
                        low = ed
                    v += low
                    if v < best:
                        if not v:
                            return 0
                        thr += v - best
                        best = v
            if run_h:
                y = xh | four
                v = tc + td + t[y] + ts
                if v < thr:
                    low = e[y]
                    ed = e[xc]
                    if ed < low:
                        low = ed
                    ed = e[xd]
                    if ed < low:
                        low = ed
                    ed = e[xs]
                    if ed < low:
                        low = ed
                    v += low
                    if v < best:
                        if not v:
                            return 0
                        thr += v - best
                        best = v
            if run_s:
                y = xs | four
                v = tc + td + th + t[y]
                if v < thr:
                    low = e[y]
                    ed = e[xc]
                    if ed < low:
                        low = ed
                    ed = e[xd]
                    if ed < low:
                        low = ed
                    ed = e[xh]
                    if ed < low:
                        low = ed
                    v += low
                    if v < best:
                        if not v:
                            return 0
                        thr += v - best
                        best = v
    else:
        return _after_discard_fours(mask, tri)
    for keep in keeps:
        v = t[c & keep] + t[d & keep]
        if v >= thr:
            continue  # often already out of reach with two suits (most choices are)
        v += t[h & keep] + t[s & keep]
        if v >= thr:
            continue
        low = e[c & keep]
        ed = e[d & keep]
        if ed < low:
            low = ed
        ed = e[h & keep]
        if ed < low:
            low = ed
        ed = e[s & keep]
        if ed < low:
            low = ed
        v += low
        if v < best:
            if not v:
                return 0
            thr += v - best
            best = v
    return best


def _after_discard_fours(mask: int, tri: int) -> int:
    """``min_deadwood_after_discard`` of a hand holding two or three ranks in all four suits.

    The pruned choices of each rank, with their extras (which keep discards of set cards exact),
    as nested loops, sets first, starting from the value with no set.
    """
    t = _RUN_DW
    e = _DMIN
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    low = e[c]
    ed = e[d]
    if ed < low:
        low = ed
    ed = e[h]
    if ed < low:
        low = ed
    ed = e[s]
    if ed < low:
        low = ed
    best = t[c] + t[d] + t[h] + t[s] + low
    if not best:
        return 0
    pmax = _TOP_POINTS[c | d | h | s]
    rn = _RUNNABLE
    table = _VALUE_ROWS
    col = _COL
    runnable = rn[c] | rn[d] << 13 | rn[h] << 26 | rn[s] << 39
    low = tri & -tri
    tri ^= low
    r = low.bit_length() - 1
    rows1 = table[r][(mask >> r) & col | ((runnable >> r) & col) << 1]
    low = tri & -tri
    tri ^= low
    r = low.bit_length() - 1
    rows2 = table[r][(mask >> r) & col | ((runnable >> r) & col) << 1]
    if not tri:
        for u1, xv1 in rows1:
            m1 = mask ^ u1
            for u2, xv2 in rows2:
                x = m1 ^ u2
                if x == mask:
                    continue
                c = x & 0x1FFF
                d = (x >> 13) & 0x1FFF
                h = (x >> 26) & 0x1FFF
                s = x >> 39
                v = t[c] + t[d] + t[h] + t[s]
                if v - pmax >= best:
                    continue
                low = xv1 if xv1 < xv2 else xv2
                ed = e[c]
                if ed < low:
                    low = ed
                ed = e[d]
                if ed < low:
                    low = ed
                ed = e[h]
                if ed < low:
                    low = ed
                ed = e[s]
                if ed < low:
                    low = ed
                v += low
                if v < best:
                    if not v:
                        return 0
                    best = v
        return best
    r = tri.bit_length() - 1
    rows3 = table[r][(mask >> r) & col | ((runnable >> r) & col) << 1]
    for u1, xv1 in rows1:
        m1 = mask ^ u1
        for u2, xv2 in rows2:
            m2 = m1 ^ u2
            xv12 = xv1 if xv1 < xv2 else xv2
            for u3, xv3 in rows3:
                x = m2 ^ u3
                if x == mask:
                    continue
                c = x & 0x1FFF
                d = (x >> 13) & 0x1FFF
                h = (x >> 26) & 0x1FFF
                s = x >> 39
                v = t[c] + t[d] + t[h] + t[s]
                if v - pmax >= best:
                    continue
                low = xv12 if xv12 < xv3 else xv3
                ed = e[c]
                if ed < low:
                    low = ed
                ed = e[d]
                if ed < low:
                    low = ed
                ed = e[h]
                if ed < low:
                    low = ed
                ed = e[s]
                if ed < low:
                    low = ed
                v += low
                if v < best:
                    if not v:
                        return 0
                    best = v
    return best


# --------------------------------------------------------------------------------------------------
# Lay-offs
# --------------------------------------------------------------------------------------------------


def _layoff_options(mask: int, meld: Meld) -> list[tuple[int, tuple[Card, ...]]]:
    """Every way to lay off cards of the hand ``mask`` onto one meld, as (mask, cards in order).

    The first option is laying off nothing. Runs take ``k`` cards below (laid off downwards) and
    ``j`` cards above (laid off upwards); a set of three takes its fourth card.
    """
    options: list[tuple[int, tuple[Card, ...]]] = [(0, ())]
    cards = meld.cards
    if meld.kind is MeldKind.SET:
        if len(cards) == 3:
            number = cards[0].number
            held = {c.suit_index for c in cards}
            for s in range(4):
                if s not in held:
                    card = _CARDS[13 * s + number - 1]
                    if mask & card.bit:
                        options.append((card.bit, (card,)))
        return options
    off = 13 * cards[0].suit_index
    lo = min(c.number for c in cards)
    hi = max(c.number for c in cards)
    below: list[Card] = []
    n = lo - 1
    while n >= 1 and mask >> (off + n - 1) & 1:
        below.append(_CARDS[off + n - 1])
        n -= 1
    above: list[Card] = []
    n = hi + 1
    while n <= 13 and mask >> (off + n - 1) & 1:
        above.append(_CARDS[off + n - 1])
        n += 1
    for k in range(len(below) + 1):
        for j in range(len(above) + 1):
            if k == j == 0:
                continue
            laid = (*below[:k], *above[:j])
            options.append((sum(c.bit for c in laid), laid))
    return options


def best_layoffs(hand: Iterable[Card], melds: Sequence[Meld]) -> LayoffPlan:
    """The defender's best lay-offs onto the knocker's ``melds``, then the best own melds.

    Exact: every combination of lay-offs is tried (cards go on one at a time; runs grow at either
    end, also beyond cards laid off earlier; a set of three takes its fourth card), and the cards
    left are arranged with the least deadwood. The plan with the least deadwood wins; among equal
    plans the one with the fewest lay-offs, then the first in a fixed order.
    """
    mask = hand_mask(hand)
    table = 0
    for meld in melds:
        if not isinstance(meld, Meld):
            raise TypeError(
                f"the knocker's melds are Meld objects, e.g. Meld.parse('3H 4H 5H'), not {meld!r}"
            )
        bits = hand_mask(meld.cards)
        if table & bits:
            raise ValueError("the knocker's melds share a card")
        table |= bits
    if table & mask:
        raise ValueError("a card is both in the hand and in the knocker's melds")
    per_meld = [_layoff_options(mask, meld) for meld in melds]
    best_key = (min_deadwood_mask(mask), 0)
    best_laid: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    best_mask = 0
    for combo in product(*per_meld):
        laid_mask = 0
        count = 0
        for bits, laid in combo:
            if laid_mask & bits:
                break
            laid_mask |= bits
            count += len(laid)
        else:
            if not laid_mask or (best_key[0] == 0 and count >= best_key[1]):
                continue
            key = (min_deadwood_mask(mask ^ laid_mask), count)
            if key < best_key:
                best_key = key
                best_laid = combo
                best_mask = laid_mask
    layoffs = tuple((card, i) for i, (_, laid) in enumerate(best_laid) for card in laid)
    arrangement = _best_arrangement_mask(mask ^ best_mask)
    return LayoffPlan(arrangement.deadwood, layoffs, arrangement)
