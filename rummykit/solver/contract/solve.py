"""Solving: the books, merging the suit tables, the best lay-down (``solve_contract``)."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations_with_replacement, groupby, product
from typing import Final, TypeAlias

from rummykit.cards import JOKER, STANDARD_PACK, AnyCard, Card
from rummykit.solver.contract.caches import _remember
from rummykit.solver.contract.contracts import Contract, ContractSolution
from rummykit.solver.contract.screen import may_lay_down
from rummykit.solver.contract.solve_tables import (
    _points,
    _run_interval,
    _Shape,
    _solve_table,
    _SolveTable,
)
from rummykit.solver.contract.vectors import (
    _BOOK_NIBBLES,
    _NIBBLE_PTS,
    _ONES,
    _WILD_PTS,
    _card,
    _nib,
    _total_twos,
    _vectors,
)
from rummykit.wild_melds import (
    ACE_HIGH,
    DEFAULT_RULES,
    Book,
    Run,
    WildMeld,
    WildRules,
    hand_points,
)

# A book choice: per book, (rank nibble, copies taken per suit).
_BookSpec: TypeAlias = tuple[int, tuple[int, int, int, int]]


def _min_book_naturals(rules: WildRules) -> int:
    n = 1
    while n + min(rules.max_wilds_book, n) < rules.min_book:
        n += 1
    return n


def _book_interval(n: int, rules: WildRules) -> tuple[int, int]:
    return max(0, rules.min_book - n), min(rules.max_wilds_book, n)


def _sub_counts(
    counts: Sequence[int], fixed: Sequence[bool], least: int, most: int
) -> list[tuple[int, int, int, int]]:
    """Per-suit taken counts (each up to ``counts``, all of a ``fixed`` suit), total in range."""
    ranges = [range(c, c + 1) if f else range(c + 1) for c, f in zip(counts, fixed, strict=True)]
    out = []
    for taken in product(*ranges):
        if least <= sum(taken) <= most:
            out.append((taken[0], taken[1], taken[2], taken[3]))
    out.sort(key=lambda t: (-sum(t), t))
    return out


_NEIGHBOURS: dict[int, tuple[int, ...]] = {}


def _isolated(vec: int, nibble: int, rules: WildRules) -> bool:
    """True if no run of the suit can hold a card at ``nibble`` (no other card near enough)."""
    reach = rules.max_wilds_run + 1
    masks = _NEIGHBOURS.get(reach)
    if masks is None:
        found = []
        for n in range(13):
            mask = 0
            for p in (1, ACE_HIGH) if n == 0 else (n + 1,):
                for q in range(max(1, p - reach), min(ACE_HIGH, p + reach) + 1):
                    if _nib(q) != n:
                        mask |= 15 << (4 * _nib(q))
            found.append(mask)
        masks = _NEIGHBOURS[reach] = tuple(found)
    return not vec & masks[nibble]


_ALLOCATIONS: dict[int, list[tuple[int, ...]]] = {}


def _allocations(runs: int, *, exact: bool = True) -> list[tuple[int, ...]]:
    """Every way of spreading ``runs`` runs (or, if not ``exact``, up to so many) over the suits."""
    key = runs if exact else -1 - runs
    found = _ALLOCATIONS.get(key)
    if found is None:
        found = _ALLOCATIONS[key] = [
            a
            for a in product(range(runs + 1), repeat=4)
            if sum(a) == runs or (not exact and sum(a) < runs)
        ]
    return found


_Ranks: TypeAlias = tuple[tuple[int, int], ...]  # the books' ranks: (nibble, books of it)
_Pick: TypeAlias = tuple[tuple[int, ...], ...]  # per rank, the copies per suit its books take


def _book_choices(
    vecs: tuple[int, ...],
    books: int,
    runs: int,
    rules: WildRules,
    floor: Callable[[int], int],
) -> Iterator[tuple[int, int, int, _Ranks, _Pick]]:
    """The ways of choosing the books worth trying, best bound first: (bound, least and most
    wilds of the books, ranks, copies taken).

    ``floor(most wilds of the books)`` bounds the points the runs leave with every card free, so
    the bound of a choice is that minus the points of the naturals its books take. Ranks are
    expanded into choices only when their own bound (every copy taken) comes up.

    A copy of a book's rank that no run uses is better in a book than in hand, so the books take
    every copy but those the runs may use: in a suit with ``j`` runs, up to ``j`` copies of the
    rank (a run holds one card of each rank), none if no run of the suit can reach the card.
    """
    n_min = _min_book_naturals(rules)
    copies = {r: tuple(v >> (4 * r) & 15 for v in vecs) for r in _BOOK_NIBBLES}
    intervals: dict[tuple[int, int], tuple[int, int]] = {}

    def interval(n: int, k: int) -> tuple[int, int]:
        """Least and most wilds of ``k`` books sharing ``n`` copies as evenly as possible."""
        found = intervals.get((n, k))
        if found is None:
            sizes = [n // k + (i < n % k) for i in range(k)]
            found = intervals[n, k] = (
                sum(_book_interval(m, rules)[0] for m in sizes),
                sum(_book_interval(m, rules)[1] for m in sizes),
            )
        return found

    heap: list[tuple[int, int, int, int, _Ranks, _Pick]] = []
    totals = {r: sum(copies[r]) for r in _BOOK_NIBBLES}
    ranks = [r for r in _BOOK_NIBBLES if totals[r] >= n_min]
    for combo in combinations_with_replacement(ranks, books):
        per_rank = tuple((r, len(list(group))) for r, group in groupby(combo))
        if all(totals[r] >= k * n_min for r, k in per_rank):
            points = sum(totals[r] * _NIBBLE_PTS[r] for r, _ in per_rank)
            hi = sum(interval(totals[r], k)[1] for r, k in per_rank)
            heapq.heappush(heap, (floor(hi) - points, 0, 0, 0, per_rank, ()))
    options: dict[tuple[int, int], list[tuple[int, ...]]] = {}  # by (rank, books)

    def takes(r: int, k: int) -> list[tuple[int, ...]]:
        """The copies per suit ``k`` books of rank ``r`` may take: all but up to ``runs`` in all
        (none where no run can reach the card)."""
        found = options.get((r, k))
        if found is None:
            ranges = [
                range(c if _isolated(v, r, rules) else max(0, c - runs), c + 1)
                for c, v in zip(copies[r], vecs, strict=True)
            ]
            found = options[r, k] = [
                t for t in product(*ranges) if sum(t) >= k * n_min and totals[r] - sum(t) <= runs
            ]
        return found

    while heap:
        bound, expanded, lo, hi, per_rank, pick = heapq.heappop(heap)
        if expanded:
            yield bound, lo, hi, per_rank, pick
            continue
        # the copies left in a suit are for its runs: no more than ``runs`` runs in all
        picks = [
            p
            for p in product(*(takes(r, k) for r, k in per_rank))
            if len(p) == 1
            or sum(
                max(copies[r][s] - taken[s] for (r, _), taken in zip(per_rank, p, strict=True))
                for s in range(4)
            )
            <= runs
        ]
        for pick in picks:
            lo = hi = points = 0
            for (r, k), taken in zip(per_rank, pick, strict=True):
                n = sum(taken)
                points += n * _NIBBLE_PTS[r]
                low, high = interval(n, k)
                lo += low
                hi += high
            heapq.heappush(heap, (floor(hi) - points, 1, lo, hi, per_rank, pick))


def _book_specs(
    vecs: tuple[int, ...], per_rank: _Ranks, pick: _Pick
) -> tuple[list[int], tuple[tuple[int, tuple[int, ...]], ...]]:
    """The cards left per suit and the books (rank nibble, copies per suit) of a book choice."""
    left = list(vecs)
    specs: list[tuple[int, tuple[int, ...]]] = []
    for (r, k), taken in zip(per_rank, pick, strict=True):
        for s in range(4):
            left[s] -= taken[s] << (4 * r)
        specs.extend((r, per_suit) for per_suit in _split(taken, k))
    return left, tuple(specs)


def _split(taken: Sequence[int], k: int) -> list[tuple[int, ...]]:
    """Deal the taken copies (per suit) into ``k`` books as evenly as possible."""
    cards = [s for s in range(4) for _ in range(taken[s])]
    hands: list[list[int]] = [[0, 0, 0, 0] for _ in range(k)]
    for i, s in enumerate(cards):
        hands[i % k][s] += 1
    return [tuple(h) for h in hands]


# A chain of suit picks: (earlier chain, suit, the suit's runs) or None.
_Chain: TypeAlias = tuple["_Chain", int, tuple[_Shape, ...]] | None


def _merge_solve(
    tables: Sequence[_SolveTable], runs: int, wilds: int, lo0: int, hi0: int
) -> dict[tuple[int, int, int, int], tuple[int, _Chain]]:
    cur: dict[tuple[int, int, int, int], tuple[int, _Chain]] = {
        (0, lo0, min(hi0, wilds), 0): (0, None)
    }
    for s, table in enumerate(tables):
        nxt: dict[tuple[int, int, int, int], tuple[int, _Chain]] = {}
        for (j1, lo1, hi1, t1), (left1, chain) in cur.items():
            for (j2, lo2, hi2, t2), (left2, shapes) in table.items():
                j = j1 + j2
                lo = lo1 + lo2
                t = t1 + t2
                if j > runs or lo + t > wilds:
                    continue
                k = (j, lo, min(hi1 + hi2, wilds), t)
                left = left1 + left2
                old = nxt.get(k)
                if old is None or left < old[0]:
                    nxt[k] = (left, (chain, s, shapes) if shapes else chain)
        cur = nxt
    return cur


_FAR: Final = 1 << 30  # more points than any hand has


def _solve_cost(
    merged: dict[tuple[int, int, int, int], tuple[int, _Chain]], runs: int, wilds: int
) -> tuple[int, _Chain] | None:
    """The best (points left, runs) of merged suit tables: all the runs, wilds within limits."""
    best: tuple[int, _Chain] | None = None
    for (j, lo, hi, twos), (left, chain) in merged.items():
        pool = wilds - twos
        if j == runs and lo <= pool:
            cost = left + _WILD_PTS * (pool - min(pool, hi))
            if best is None or cost < best[0]:
                best = (cost, chain)
    return best


def _left_floors(table: _SolveTable, vec: int, cap: int, runs: int, rules: WildRules) -> list[int]:
    """Per number of runs (0 to ``runs``), no more than the least points the suit can keep with
    that many runs, from its table for up to ``cap`` runs.

    Beyond ``cap``: each more run melds at most what the best single run melds, and a run needs
    ``ceil(min_run / 2)`` natural cards at least.
    """
    floors = [_FAR] * (runs + 1)
    for (j, _, _, _), (left, _) in table.items():
        floors[j] = min(floors[j], left)
    if cap < runs:
        most = min(floors[: cap + 1])
        one_run = floors[0] - min(floors[:2])
        cards = _cards(vec)
        for j in range(cap + 1, runs + 1):
            if j * ((rules.min_run + 1) // 2) <= cards:
                floors[j] = max(0, most - (j - cap) * one_run)
    return floors


_SMALL_SUIT: Final = 6  # cards of a suit whose tables for every run count are quick to build


def _first_caps(vecs: Sequence[int], runs: int) -> list[int]:
    """The runs each suit's first table allows: all for a small suit, else one."""
    return [runs if _cards(v) <= _SMALL_SUIT else min(runs, 1) for v in vecs]


def _cards(vec: int) -> int:
    """The cards of a suit vector (no count above 2)."""
    return (vec & _ONES).bit_count() + 2 * (vec & _ONES << 1).bit_count()


def _solve_runs(
    vecs: Sequence[int],
    runs: int,
    wilds: int,
    lo0: int,
    hi0: int,
    rules: WildRules,
    enough: int | None,
    hints: Sequence[Sequence[int]] | None = None,
) -> tuple[dict[tuple[int, int, int, int], tuple[int, _Chain]], int, list[list[int]]]:
    """The suit tables merged, with books needing ``lo0`` to ``hi0`` wilds, a lower bound on the
    points of any way they leave out, and per suit and number of runs, a lower bound on the
    points the suit keeps (see :func:`_left_floors`; none if every table is complete; ``hints``
    are more such bounds).

    Tables for many runs in a suit are slow on big hands and seldom needed: each suit starts
    with a table for one run and gets one for more only while the bound on the points left with
    more runs in it (the other suits then make fewer) is below the best found (and ``enough``).
    """
    if runs <= 1:  # a table for one run is complete
        tables = [_solve_table(v, runs, rules) for v in vecs]
        return _merge_solve(tables, runs, wilds, lo0, hi0), _FAR, []
    caps = _first_caps(vecs, runs)
    allocations = _allocations(runs)
    while True:
        tables = [_solve_table(v, cap, rules) for v, cap in zip(vecs, caps, strict=True)]
        merged = _merge_solve(tables, runs, wilds, lo0, hi0)
        if min(caps) == runs:
            return merged, _FAR, []
        floors = [
            _left_floors(t, v, cap, runs, rules)
            for t, v, cap in zip(tables, vecs, caps, strict=True)
        ]
        if hints:
            floors = [list(map(max, f, h)) for f, h in zip(floors, hints, strict=True)]
        found = _solve_cost(merged, runs, wilds)
        limit = min(_FAR if found is None else found[0], _FAR if enough is None else enough)
        beyond = {
            s: min(
                (
                    sum(f[j] for f, j in zip(floors, a, strict=True))
                    for a in allocations
                    if a[s] > caps[s]
                ),
            )
            for s in range(4)
            if caps[s] < runs
        }
        more = [s for s, bound in beyond.items() if bound < limit]
        if not more:
            return merged, min(beyond.values()), floors
        for s in more:
            caps[s] += 1


def solve_contract(
    hand: Sequence[AnyCard], contract: Contract, rules: WildRules = DEFAULT_RULES
) -> ContractSolution | None:
    """The best way to lay down ``contract`` from ``hand``, or None if it cannot be laid down.

    Best means the fewest points left in hand. Exactly ``contract.books`` books and
    ``contract.runs`` runs, each at least the minimum size and possibly longer, every wild placed
    within the limits and its identity fixed. Wilds are placed jokers first, then 2s by suit, so
    kept wilds are 2s where there is a choice; extra wilds lengthen a run at its high end first.
    """
    vecs, jokers = _vectors(hand)
    if len(hand) < contract.min_cards(rules) or not may_lay_down(hand, contract, rules):
        return None
    key = (vecs, jokers, contract, rules)  # the hand as a multiset: its order changes nothing
    if key in _SOLVED:
        return _SOLVED[key]
    return _remember(_SOLVED, key, _solve(hand, vecs, jokers, contract, rules))


_SOLVED: dict[tuple[tuple[int, ...], int, Contract, WildRules], ContractSolution | None] = {}
"""Solutions of hands already solved (search asks again of hands it has seen)."""


def _solve(
    hand: Sequence[AnyCard],
    vecs: tuple[int, ...],
    jokers: int,
    contract: Contract,
    rules: WildRules,
) -> ContractSolution | None:
    """:func:`solve_contract` of a hand that passed the screen."""
    wilds = jokers + _total_twos(vecs)
    # the runs with every card free: no solution if they cannot be made, and a bound for each
    # choice of books (they take cards from the runs, never give any)
    full, beyond, full_floors = _solve_runs(vecs, contract.runs, wilds, 0, 0, rules, None)
    ends = [
        (left, wilds - twos, hi)
        for (j, lo, hi, twos), (left, _) in full.items()
        if j == contract.runs and lo <= wilds - twos
    ]
    if not ends:
        return None
    if not contract.books:
        runs_only = _solve_cost(full, contract.runs, wilds)
        assert runs_only is not None
        return _finish(hand, runs_only[0], (), runs_only[1], jokers, rules)
    floors: dict[int, int] = {}

    def floor(book_hi: int) -> int:
        found = floors.get(book_hi)
        if found is None:
            found = floors[book_hi] = min(
                beyond,
                min(left + _WILD_PTS * (pool - min(pool, hi + book_hi)) for left, pool, hi in ends),
            )
        return found

    best: tuple[int, tuple[tuple[int, tuple[int, ...]], ...], _Chain] | None = None
    for bound, book_lo, book_hi, per_rank, pick in _book_choices(
        vecs, contract.books, contract.runs, rules, floor
    ):
        if best is not None and bound >= best[0]:
            break
        if book_lo > wilds:
            continue
        rest, specs = _book_specs(vecs, per_rank, pick)
        # a suit keeps at least what it keeps with every card, less the points the books take
        hints = []
        if full_floors:  # else the whole hand's tables are complete, and so are these
            hints = [
                [max(0, f - (_points(v) - _points(r))) for f in floors]
                for floors, v, r in zip(full_floors, vecs, rest, strict=True)
            ]
        merged, _, _ = _solve_runs(
            rest,
            contract.runs,
            wilds,
            book_lo,
            book_hi,
            rules,
            None if best is None else best[0],
            hints,
        )
        found = _solve_cost(merged, contract.runs, wilds)
        if found is not None and (best is None or found[0] < best[0]):
            best = (found[0], specs, found[1])
    if best is None:
        return None
    return _finish(hand, *best, jokers, rules)


def _finish(
    hand: Sequence[AnyCard],
    cost: int,
    specs: Sequence[tuple[int, tuple[int, ...]]],
    chain: _Chain,
    jokers: int,
    rules: WildRules,
) -> ContractSolution:
    """The solution of the chosen books and runs, checked against its cost."""
    solution = _build_solution(hand, specs, _unchain(chain), jokers, rules)
    if solution.points_left != cost:  # pragma: no cover - a bug, never expected
        raise AssertionError(f"solver inconsistency: {solution} costs {cost}")
    return solution


def _unchain(chain: _Chain) -> list[tuple[int, _Shape]]:
    picks: list[tuple[int, _Shape]] = []
    while chain is not None:
        chain, s, shapes = chain
        picks[:0] = [(s, shape) for shape in shapes]
    return picks


def _build_solution(
    hand: Sequence[AnyCard],
    specs: Sequence[tuple[int, tuple[int, ...]]],
    run_shapes: Sequence[tuple[int, _Shape]],
    jokers: int,
    rules: WildRules,
) -> ContractSolution:
    """Turn the chosen books and runs into melds, placing the wilds."""
    run_shapes = sorted(run_shapes)
    remaining = Counter(hand)
    book_naturals: list[list[AnyCard]] = []
    intervals: list[tuple[int, int]] = []
    for r, per_suit in specs:
        cards: list[AnyCard] = [_card(s, r) for s in range(4) for _ in range(per_suit[s])]
        book_naturals.append(cards)
        intervals.append(_book_interval(len(cards), rules))
    for _, shape in run_shapes:
        intervals.append(_run_interval(shape, rules))
    for s, shape in run_shapes:
        for p in shape:
            remaining[_position_card(p, s)] -= 1
    for cards in book_naturals:
        for c in cards:
            remaining[c] -= 1
    pool: list[AnyCard] = [JOKER] * remaining[JOKER]
    for s in range(4):
        two = _card(s, 1)
        pool.extend([two] * remaining[two])
    counts = [low for low, _ in intervals]
    extra = min(len(pool), sum(high for _, high in intervals)) - sum(counts)
    for i, (low, high) in enumerate(intervals):
        more = min(extra, high - low)
        counts[i] += more
        extra -= more
    melds: list[WildMeld] = []
    wild_iter = iter(pool)
    for i, cards in enumerate(book_naturals):
        wild_cards = [next(wild_iter) for _ in range(counts[i])]
        melds.append(Book.of([*cards, *wild_cards], rules))
    for i, (s, shape) in enumerate(run_shapes):
        w = counts[len(book_naturals) + i]
        melds.append(_place_run(s, shape, [next(wild_iter) for _ in range(w)], rules))
    used = Counter(c for m in melds for c in m.cards)
    left_counter = Counter(hand)
    left_counter.subtract(used)
    if any(v < 0 for v in left_counter.values()):  # pragma: no cover - a bug
        raise AssertionError("solver used cards it does not have")
    left = tuple(sorted(left_counter.elements(), key=lambda c: c.sort_key))
    return ContractSolution(tuple(melds), left, hand_points(left))


def _position_card(position: int, s: int) -> Card:
    return STANDARD_PACK[13 * s + _nib(position)]


def _place_run(s: int, shape: _Shape, wilds: list[AnyCard], rules: WildRules) -> Run:
    """The run with naturals at ``shape`` and the wilds in its gaps, then at its high end first."""
    low, high = shape[0], shape[-1]
    extra = len(wilds) - (high - low + 1 - len(shape))
    while extra > 0 and high < ACE_HIGH:
        high += 1
        extra -= 1
    while extra > 0:
        low -= 1
        extra -= 1
    it = iter(wilds)
    naturals = set(shape)
    cards = [_position_card(p, s) if p in naturals else next(it) for p in range(low, high + 1)]
    return Run.of(cards, rules)
