"""Value only: the least deadwood after the best discard (hand-unrolled hot loops)."""

from __future__ import annotations

from collections.abc import Iterable

from rummykit.cards import Card
from rummykit.solver.deadwood.core import _sequence
from rummykit.solver.deadwood.discards import _discard_values
from rummykit.solver.deadwood.tables import (
    _ALL,
    _BIG,
    _COL,
    _DMIN,
    _KEEPS,
    _KEEPS_FOUR,
    _RUN_DW,
    _RUNNABLE,
    _SEQUENCES,
    _TOP_POINTS,
    _VALUE_ROWS,
)


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
    return _after_discard_sets(mask, tri, c, d, h, s)


def min_deadwood_after_discard_mask(mask: int) -> int:
    """:func:`min_deadwood_after_discard` of the hand given as a 52-bit mask of 1 to 11 cards.

    The mask of a hand is :func:`~rummykit.solver.deadwood.hand_mask`'s. Raises ValueError for an
    empty mask, a mask of more than 11 cards or one outside 0 to 2**52 - 1.
    """
    if mask <= 0 or mask > _ALL or mask.bit_count() > 11:
        raise ValueError(f"not a mask of 1 to 11 cards: {mask!r}")
    t = _RUN_DW
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    tri = (c & d & (h | s)) | (h & s & (c | d))
    if not tri:
        e = _DMIN
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
    return _after_discard_sets(mask, tri, c, d, h, s)


def _after_discard_sets(mask: int, tri: int, c: int, d: int, h: int, s: int) -> int:
    """``min_deadwood_after_discard`` of a hand of at most 11 cards with sets possible at ``tri``
    (``c``, ``d``, ``h``, ``s``: its suit masks)."""
    t = _RUN_DW
    e = _DMIN
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
