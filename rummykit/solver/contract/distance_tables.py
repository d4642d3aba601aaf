"""The distance, per suit: the run shapes and the suit tables of the fewest missing cards."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import TypeAlias, TypeVar

from rummykit.solver.contract.caches import _remember
from rummykit.solver.contract.solve_tables import _Shape
from rummykit.solver.contract.vectors import _TRIGGERS, _count, _nib, _shapes, _taken
from rummykit.wild_melds import (
    ACE_HIGH,
    MAX_RUN,
    WildRules,
)

_DIST_TABLES: dict[tuple[int, int, int, WildRules], _DistRecords] = {}


_P = TypeVar("_P")


# A run of the distance: (natural positions, length, first position, positions filled by wilds)
_DistRun: TypeAlias = tuple[_Shape, int, int, tuple[int, ...]]
# Per suit: (runs, wild room, natural 2s used) -> (gaps, the runs)
_DistTable: TypeAlias = dict[tuple[int, int, int], tuple[int, tuple[_DistRun, ...]]]
# Every way, placed or not, for the rare fallback: (runs, gaps, room, 2s, (positions, length)...)
_DistAll: TypeAlias = list[tuple[int, int, int, int, tuple[tuple[_Shape, int], ...]]]
_DistRecords: TypeAlias = tuple[_DistTable, _DistAll, tuple[int, ...]]


def _run_lengths(rules: WildRules) -> range:
    return range(rules.min_run, max(rules.min_run, min(MAX_RUN, 2 * rules.max_wilds_run)) + 1)


def _book_lengths(rules: WildRules) -> range:
    return range(rules.min_book, max(rules.min_book, 2 * rules.max_wilds_book) + 1)


def _run_room(length: int, rules: WildRules) -> int:
    return min(rules.max_wilds_run, length // 2)


def _book_room(length: int, rules: WildRules) -> int:
    return min(rules.max_wilds_book, length // 2)


def _frontier(
    table: dict[tuple[int, int, int], tuple[int, _P]],
) -> dict[tuple[int, int, int], tuple[int, _P]]:
    """Drop entries (runs, room, 2s) -> gaps beaten by one with as many runs and 2s, at least as
    much room and no more gaps."""
    out: dict[tuple[int, int, int], tuple[int, _P]] = {}
    least: dict[tuple[int, int], int] = {}
    for k in sorted(table, key=lambda k: (k[0], k[2], -k[1])):
        group = (k[0], k[2])
        gaps = table[k][0]
        if group in least and gaps >= least[group]:
            continue
        least[group] = gaps
        out[k] = table[k]
    return out


_DIST_SHAPES: dict[
    tuple[int, int, WildRules], tuple[tuple[int, tuple[_Shape, int], int, int, int], ...]
] = {}


def _dist_shapes(
    vec: int, nibble: int, rules: WildRules
) -> tuple[tuple[int, tuple[_Shape, int], int, int, int], ...]:
    """The short runs through the lowest card: (cards taken, (positions, length), gaps, room, 2s)."""
    key = (vec, nibble, rules)
    found = _DIST_SHAPES.get(key)
    if found is not None:
        return found
    lengths = _run_lengths(rules)
    longest = lengths[-1]
    out = []
    for shape in _shapes(vec, nibble, longest, longest):
        span = shape[-1] - shape[0] + 1
        taken = _taken(shape)
        two = 1 if 2 in shape else 0
        for n in lengths:
            if n >= span:
                holes = n - len(shape)
                out.append((taken, (shape, n), holes, min(_run_room(n, rules), holes), two))
    return _remember(_DIST_SHAPES, key, tuple(out))


def _dist_table(
    vec: int, original: int, max_runs: int, rules: WildRules, *, keep_all: bool = False
) -> _DistRecords:
    """Every useful way of making up to ``max_runs`` short runs from one suit's cards and others.

    ``vec`` holds the cards free for runs, ``original`` the hand's cards of the suit (no more than
    two copies of a card can exist). With ``keep_all``, every way is also listed (not cached).
    """
    key = (vec, original, max_runs, rules)
    if not keep_all:
        cached = _DIST_TABLES.get(key)
        if cached is not None:
            return cached
    lengths = _run_lengths(rules)
    two_runs = [(((2,), n), n - 1, min(_run_room(n, rules), n - 1)) for n in lengths]
    table: _DistTable = {}
    every: _DistAll = []
    spare = tuple(max(0, 2 - _count(original, i)) for i in range(13))

    def record(runs: tuple[tuple[_Shape, int], ...], gaps: int, room: int, twos: int) -> None:
        if keep_all:
            every.append((len(runs), gaps, room, twos, runs))
        k = (len(runs), room, twos)
        old = table.get(k)
        if old is None or gaps < old[0]:
            placed = _place_dist_runs(runs, spare, rules) if runs else ()
            if placed is not None:
                table[k] = (gaps, placed)

    def walk(v: int, runs: tuple[tuple[_Shape, int], ...], gaps: int, room: int, twos: int) -> None:
        triggers = v & _TRIGGERS
        if not triggers:
            record(runs, gaps, room, twos)
            free_twos = (v >> 4) & 15
            for extra in range(1, min(max_runs - len(runs), free_twos) + 1):
                for more in combinations_with_replacement(two_runs, extra):
                    record(
                        runs + tuple(m[0] for m in more),
                        gaps + sum(m[1] for m in more),
                        room + sum(m[2] for m in more),
                        twos + extra,
                    )
            return
        nibble = ((triggers & -triggers).bit_length() - 1) >> 2
        count = (v >> (4 * nibble)) & 15
        walk(v - (count << (4 * nibble)), runs, gaps, room, twos)
        if len(runs) < max_runs:
            for taken, run, holes, more_room, two in _dist_shapes(v, nibble, rules):
                walk(v - taken, (*runs, run), gaps + holes, room + more_room, twos + two)

    walk(vec, (), 0, 0, 0)
    if keep_all:
        return _frontier(table), every, spare
    return _remember(_DIST_TABLES, key, (_frontier(table), every, spare))


_SUIT_DIST_TABLES: dict[tuple[int, int, int, WildRules], _DistTable] = {}


def _clusters(original: int, longest: int) -> list[int]:
    """Nibble masks of the groups of a suit's cards that a run of ``longest`` cards can join.

    Cards further apart than a run can reach never share a run, so each group's runs can be
    found alone. The ace is one card at both ends, so it joins the groups at either end.
    """
    positions = [p for p in range(1, ACE_HIGH + 1) if _count(original, _nib(p))]
    groups: list[list[int]] = []
    for p in positions:
        if groups and p - groups[-1][-1] < longest:
            groups[-1].append(p)
        else:
            groups.append([p])
    if len(groups) > 1 and groups[0][0] == 1 and groups[-1][-1] == ACE_HIGH:
        groups[0].extend(groups.pop())
    return [sum(15 << (4 * n) for n in {_nib(p) for p in group}) for group in groups]


def _suit_dist_table(vec: int, original: int, max_runs: int, rules: WildRules) -> _DistTable:
    """The distance table of one suit, built from the tables of its groups of cards.

    Runs of different groups never hold the same card of the hand; they could want the same
    missing card more than twice, which the final check of the plan catches (then every plan
    is searched).
    """
    key = (vec, original, max_runs, rules)
    cached = _SUIT_DIST_TABLES.get(key)
    if cached is not None:
        return cached
    masks = _clusters(original, _run_lengths(rules)[-1])
    if len(masks) <= 1:
        table = _dist_table(vec, original, max_runs, rules)[0]
    else:
        parts = [_dist_table(vec & m, original & m, max_runs, rules)[0] for m in masks]
        cur: _DistTable = {(0, 0, 0): (0, ())}
        for part in parts:
            nxt: _DistTable = {}
            for (j1, room1, t1), (gaps1, runs1) in cur.items():
                for (j2, room2, t2), (gaps2, runs2) in part.items():
                    j = j1 + j2
                    if j > max_runs:
                        continue
                    k = (j, room1 + room2, t1 + t2)
                    gaps = gaps1 + gaps2
                    old = nxt.get(k)
                    if old is None or gaps < old[0]:
                        nxt[k] = (gaps, runs1 + runs2)
            cur = _frontier(nxt)
        table = cur
    return _remember(_SUIT_DIST_TABLES, key, table)


def _windows(shape: _Shape, n: int) -> range:
    return range(max(1, shape[-1] - n + 1), min(shape[0], ACE_HIGH - n + 1) + 1)


def _place_dist_runs(
    runs: Sequence[tuple[_Shape, int]], spare: Sequence[int], rules: WildRules
) -> tuple[_DistRun, ...] | None:
    """Windows and wild-filled gaps for the runs of one suit so no card is needed thrice.

    Gaps not filled by wilds need a card the hand lacks; ``spare[nibble]`` copies of each exist.
    Returns None if no placement works.
    """
    if not runs:
        return ()
    first = []
    demand = [0] * 13
    for shape, n in runs:
        low = _windows(shape, n)[0]
        holes = [p for p in range(low, low + n) if p not in shape]
        room = min(_run_room(n, rules), len(holes))
        # wilds go to the gaps whose card is scarcest
        wild = tuple(sorted(sorted(holes, key=lambda p: (spare[_nib(p)], -p))[:room]))
        first.append((shape, n, low, wild))
        for p in holes:
            if p not in wild:
                demand[_nib(p)] += 1
    if all(d <= spare[i] for i, d in enumerate(demand)):
        return tuple(first)
    # search the windows and wild-filled gaps of each run in turn, backtracking
    options: list[list[tuple[_DistRun, list[int]]]] = []
    for shape, n in runs:
        per_run = []
        for low in _windows(shape, n):
            holes = [p for p in range(low, low + n) if p not in shape]
            room = min(_run_room(n, rules), len(holes))
            for wild in combinations(holes, room):
                needs = [_nib(p) for p in holes if p not in wild]
                per_run.append(((shape, n, low, wild), needs))
        options.append(per_run)
    demand = [0] * 13
    chosen: list[_DistRun] = []

    def search(i: int) -> bool:
        if i == len(options):
            return True
        for run, needs in options[i]:
            for x in needs:
                demand[x] += 1
            if all(demand[x] <= spare[x] for x in needs):
                chosen.append(run)
                if search(i + 1):
                    return True
                chosen.pop()
            for x in needs:
                demand[x] -= 1
        return False

    return tuple(chosen) if search(0) else None
