"""Solving, per suit: the run shapes worth trying and the suit tables of the fewest points left."""

from __future__ import annotations

from typing import TypeAlias

from rummykit.solver.contract.caches import _CACHE_LIMIT
from rummykit.solver.contract.vectors import (
    _NIBBLE_PTS,
    _ONES,
    _TRIGGERS,
    _TWOS,
    _count,
    _taken,
)
from rummykit.wild_melds import (
    ACE_HIGH,
    MAX_RUN,
    WildRules,
)

_Shape: TypeAlias = tuple[int, ...]
# (runs, least wilds, most wilds, natural 2s used) -> (points left of the suit, the runs' positions)
_SolveTable: TypeAlias = dict[tuple[int, int, int, int], tuple[int, tuple[_Shape, ...]]]


def _run_interval(shape: _Shape, rules: WildRules) -> tuple[int, int]:
    n = len(shape)
    span = shape[-1] - shape[0] + 1
    return max(span, rules.min_run) - n, min(rules.max_wilds_run, n, MAX_RUN - n)


_ShapeInfo: TypeAlias = tuple[_Shape, int, int, int, int]
# per rules: (cards from the lowest up, those with many copies, a 2?, nibble) -> shapes
_SOLVE_SHAPES: dict[WildRules, dict[tuple[int, int, bool, int], tuple[_ShapeInfo, ...]]] = {}


def _solve_shapes(
    vec: int,
    nibble: int,
    runs: int,
    rules: WildRules,
    memo: dict[tuple[int, int, bool, int], tuple[_ShapeInfo, ...]],
) -> tuple[_ShapeInfo, ...]:
    """The runs through the lowest card: (positions, cards taken, least, most wilds, 2s used).

    ``runs`` is how many runs the suit may still make, this one included. A run that leaves out a
    card it could hold (inside it or next to an end, not a 2) is dropped when the hand has more
    copies of that card than the other runs can take: a copy then stays in hand, and the run with
    it is as good on wilds and leaves fewer points. ``memo`` caches them for ``rules``.
    """
    # the cards below the lowest one are gone: only which cards above it the hand has (some, more
    # copies than ``runs``) and whether it has a 2 matter
    some = (vec | vec >> 1) & _ONES  # two copies at most
    many = some if runs <= 1 else (vec >> 1) & _ONES if runs == 2 else 0
    key = (some >> (4 * nibble), many >> (4 * nibble), vec & _TWOS != 0, nibble)
    found = memo.get(key)
    if found is None:
        out = []
        for shape in _unbeaten_shapes(_positions(some), _positions(many), nibble, rules):
            low, high = _run_interval(shape, rules)
            if low <= high:
                out.append((shape, _taken(shape), low, high, 1 if 2 in shape else 0))
        found = memo[key] = tuple(out)
    return found


_UNSAFE: dict[WildRules, int] = {}


def _unsafe_length(rules: WildRules) -> int:
    """The fewest naturals of a run that one more natural makes hold fewer wilds."""
    found = _UNSAFE.get(rules)
    if found is None:

        def holds(n: int) -> int:
            return min(rules.max_wilds_run, n, MAX_RUN - n)

        found = _UNSAFE[rules] = min(
            (n for n in range(1, MAX_RUN) if holds(n + 1) < holds(n)), default=MAX_RUN
        )
    return found


def _positions(flags: int) -> int:
    """Run positions (bit p for position p, the ace at 1 and 14) of nibble flags."""
    out = 0
    while flags:
        low = flags & -flags
        out |= 2 << ((low.bit_length() - 1) >> 2)
        flags ^= low
    if out & 2:
        out |= 1 << ACE_HIGH
    return out


def _unbeaten_shapes(present: int, many: int, nibble: int, rules: WildRules) -> list[_Shape]:
    """The sets of natural positions of :func:`_shapes` (holes up to the wild limit, 13 long at
    most) for a suit with cards at positions ``present``, but those another run beats: one with
    a card more that must stay in hand otherwise (one at ``many``, not a 2) in a hole or next to
    its free end, while that card does not lower the wilds the run holds (a run of 12 naturals
    holds fewer than one of 11)."""
    heavy = many & ~7  # never the ace low nor a 2
    most = rules.max_wilds_run
    unsafe = _unsafe_length(rules)
    out: list[_Shape] = []

    def extend(
        positions: list[int], last: int, step: int, holes: int, first: int, blocked: bool
    ) -> None:
        n = len(positions)
        if n >= unsafe or not blocked:
            nxt = last + step
            free_end = 3 <= nxt <= ACE_HIGH and abs(nxt - first) < MAX_RUN and heavy >> nxt & 1
            if n >= unsafe or not free_end:
                out.append(tuple(positions) if step > 0 else tuple(reversed(positions)))
        for gap in range(most - holes + 1):
            q = last + step * (gap + 1)
            if not 2 <= q <= ACE_HIGH or abs(q - first) + 1 > MAX_RUN:
                break
            if present >> q & 1:
                low, high = (last, q) if step > 0 else (q, last)
                now_blocked = blocked or bool(heavy & ((1 << high) - (2 << low)))
                if now_blocked:
                    # every run of this branch is beaten if none can reach ``unsafe`` naturals
                    if step > 0:
                        window = (2 << min(first + MAX_RUN - 1, ACE_HIGH)) - (2 << q)
                    else:
                        window = (1 << q) - (1 << max(first - MAX_RUN + 1, 2))
                    if n + 1 + (present & window).bit_count() < unsafe:
                        continue
                extend([*positions, q], q, step, holes + gap, first, now_blocked)

    if nibble == 0:
        extend([1], 1, 1, 0, 1, False)
        extend([ACE_HIGH], ACE_HIGH, -1, 0, ACE_HIGH, False)
        return out
    p0 = nibble + 1
    extend([p0], p0, 1, 0, p0, False)
    if present >> 2 & 1 and p0 - 3 <= most and p0 - 1 <= MAX_RUN:
        extend([2, p0], p0, 1, p0 - 3, 2, False)
    return out


def _keep_best(table: _SolveTable) -> _SolveTable:
    """Drop entries another entry with as many runs and the same 2s beats on every count."""
    groups: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    kept: _SolveTable = {}
    for k in sorted(table, key=lambda k: (table[k][0], k[1], -k[2])):
        j, lo, hi, twos = k
        left = table[k][0]
        group = groups.setdefault((j, twos), [])
        if any(kl <= left and klo <= lo and khi >= hi for kl, klo, khi in group):
            continue
        group.append((left, lo, hi))
        kept[k] = table[k]
    return kept


def _points(vec: int) -> int:
    """The points of a suit vector's cards but the 2s."""
    total = 0
    nibble = 0
    vec &= _TRIGGERS
    while vec:
        total += (vec & 15) * _NIBBLE_PTS[nibble]
        vec >>= 4
        nibble += 1
    return total


_SolveMemo: TypeAlias = dict[tuple[int, int], _SolveTable]
_SOLVE_REST: dict[WildRules, _SolveMemo] = {}


def _solve_rest(
    v: int,
    max_runs: int,
    rules: WildRules,
    memo: _SolveMemo,
    shapes: dict[tuple[int, int, bool, int], tuple[_ShapeInfo, ...]],
) -> _SolveTable:
    """The table of the cards of ``v``: a dynamic programme from the lowest card up, cached in
    ``memo`` (run shapes in ``shapes``).

    The lowest card other than a 2 either stays in hand (with its copies) or is the lowest card
    of a run; what is left of the suit is solved the same way.
    """
    key = (v, max_runs)
    found = memo.get(key)
    if found is not None:
        return found
    if not max_runs:
        found = memo[key] = {(0, 0, 0, 0): (_points(v), ())}
        return found
    triggers = v & _TRIGGERS
    if not triggers:
        found = memo[key] = {(0, 0, 0, 0): (0, ())}
        return found
    nibble = ((triggers & -triggers).bit_length() - 1) >> 2
    count = _count(v, nibble)
    points = count * _NIBBLE_PTS[nibble]
    skip = _solve_rest(v - (count << (4 * nibble)), max_runs, rules, memo, shapes)
    table: _SolveTable = {k: (left + points, runs) for k, (left, runs) in skip.items()}
    for shape, taken, low, high, two in _solve_shapes(v, nibble, max_runs, rules, shapes):
        rest = _solve_rest(v - taken, max_runs - 1, rules, memo, shapes)
        for (j, lo, hi, twos), (left, runs) in rest.items():
            k = (j + 1, lo + low, hi + high, twos + two)
            old = table.get(k)
            if old is None or left < old[0]:
                table[k] = (left, (shape, *runs))
    found = memo[key] = _keep_best(table) if len(table) > 8 else table
    return found


def _solve_table(vec: int, max_runs: int, rules: WildRules) -> _SolveTable:
    """Every useful way of making up to ``max_runs`` runs from one suit's cards (cached)."""
    memo = _SOLVE_REST.get(rules)
    if memo is None or len(memo) >= _CACHE_LIMIT:
        memo = _SOLVE_REST[rules] = {}
    shapes = _SOLVE_SHAPES.get(rules)
    if shapes is None or len(shapes) >= _CACHE_LIMIT:
        shapes = _SOLVE_SHAPES[rules] = {}
    return _solve_rest(vec, max_runs, rules, memo, shapes)
