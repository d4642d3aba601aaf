"""Least deadwood: the set choices of a hand, the enumeration over them, and the rank-by-rank
dynamic programme for hands with very many set choices.
"""

from __future__ import annotations

from collections.abc import Iterable

from rummykit.cards import Card
from rummykit.solver.deadwood.tables import (
    _ALL,
    _BIG,
    _COL,
    _DP_NEXT,
    _DP_PENDING,
    _DP_ROLES,
    _MAX_SET_CHOICES,
    _POINTS,
    _RUN_DW,
    _RUNNABLE,
    _SEQUENCES,
    _SET_EVERY,
    _SET_KEEPS,
    _SET_KEEPS_FOUR,
    _SET_PRUNED,
    _SUIT_CARDS,
    _Options,
)


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


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a 52-bit mask, by index (the inverse of :func:`hand_mask`)."""
    sc = _SUIT_CARDS
    return (
        sc[0][mask & 0x1FFF]
        + sc[1][(mask >> 13) & 0x1FFF]
        + sc[2][(mask >> 26) & 0x1FFF]
        + sc[3][mask >> 39]
    )


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
    run (leaving out one that cannot run is never better than the set of four); no set at all
    is ``best`` already, so not tried again. Otherwise the pruned choices of each rank combined (``_choices``), or the rank-by-rank dynamic programme.
    """
    t = _RUN_DW
    c = mask & 0x1FFF
    d = (mask >> 13) & 0x1FFF
    h = (mask >> 26) & 0x1FFF
    s = mask >> 39
    four = c & d & h & s
    if not four:
        keeps = _SET_KEEPS.get(tri)
    elif not four & (four - 1) and (split := _SET_KEEPS_FOUR.get(tri | four << 13)) is not None:
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
