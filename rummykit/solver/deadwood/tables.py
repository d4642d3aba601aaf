"""The solver's constants and precomputed tables (built once, at import).

Per-suit run tables, the set choices per rank, the rank-by-rank programme's states, and the
rows the value-only loops read; see ``docs/solvers.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from typing import Final, TypeAlias

from rummykit.cards import STANDARD_PACK, Card

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
# The same without the last choice (no set at all), for searches that start from its value.
_SET_KEEPS: Final = {ranks: keeps[:-1] for ranks, keeps in _KEEPS.items()}
_SET_KEEPS_FOUR: Final = {key: (in_set, rest[:-1]) for key, (in_set, rest) in _KEEPS_FOUR.items()}
# The points of the highest card of every 13-bit mask of ranks (0 for none).
_TOP_POINTS: Final = (0, *(_POINTS[m.bit_length() - 1] for m in range(1, 8192)))
