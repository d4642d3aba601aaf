"""Discards: the deadwood after each discard and the best discards (hand-unrolled hot loops)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat

from rummykit.cards import Card
from rummykit.solver.deadwood.core import _choices, _sequence, mask_cards, min_deadwood_mask
from rummykit.solver.deadwood.tables import (
    _BIG,
    _CARDS,
    _COL,
    _DARG,
    _DMIN,
    _DROP,
    _KEEPS,
    _KEEPS_FOUR,
    _MAX_SET_CHOICES,
    _POINTS,
    _RUN_DW,
    _RUNNABLE,
    _SEQUENCES,
    _SET_EVERY,
    _SET_ROWS,
    _SUIT_CARDS,
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
        return {card: min_deadwood_mask(mask ^ card.bit) for card in mask_cards(mask)}
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
        return best, mask_cards(arg)
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
        return best, mask_cards(arg)
    found_sets = _discards_with_sets(mask, tri, best, arg)
    if found_sets is None:
        values = _discard_values(mask)
        best = min(values.values())
        return best, tuple(card for card, v in values.items() if v == best)
    return found_sets[0], mask_cards(found_sets[1])


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
