"""The Crazy Rummy contract solver: can a hand lay down its round's contract, how best, how far.

:func:`solve_contract` answers whether the contract (so many books and runs) can be laid down from
a hand and, if so, returns the way that leaves the fewest points in the hand; every wild is placed
with its identity fixed. :func:`contract_distance` answers how many more cards the hand needs
before it can (0 if it can now), and :func:`missing_cards` names such cards. All three are exact.

>>> from rummykit.cards import parse_cards
>>> hand = parse_cards("5H 8H X 2C 9C 9D 9S KD")
>>> solution = solve_contract(hand, CONTRACTS[1])          # round 2: a book and a run
>>> [str(m) for m in solution.melds], [str(c) for c in solution.left], solution.points_left
(['9C 9D 9S', '5H X 2C 8H'], ['KD'], 10)
>>> solve_contract(parse_cards("5H 8H 9C 9D KD X 3S"), CONTRACTS[0]) is None
True
>>> contract_distance(parse_cards("5H 8H 9C 9D KD X 3S"), CONTRACTS[0])
2
>>> [str(c) for c in missing_cards(parse_cards("5H 8H 9C 9D KD X 3S"), CONTRACTS[0])]
['3C', '9H']

How it works (suit tables, wilds placed last, books tried best bound first, the distance):
``docs/solvers.md``.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, groupby, product
from typing import Final, TypeAlias, TypeVar

from rummykit.cards import JOKER, STANDARD_PACK, AnyCard, Card, Joker
from rummykit.wild_melds import (
    ACE_HIGH,
    DEFAULT_RULES,
    MAX_RUN,
    Book,
    Run,
    WildMeld,
    WildRules,
    hand_points,
)

__all__ = [
    "CONTRACTS",
    "HAND_SIZES",
    "Contract",
    "ContractSolution",
    "cache_clear",
    "contract_distance",
    "missing_cards",
    "solve_contract",
]


@dataclass(frozen=True, slots=True)
class Contract:
    """The melds a player must lay down together: so many books and so many runs.

    >>> CONTRACTS[4], str(CONTRACTS[4]), CONTRACTS[4].min_cards()
    (Contract(books=2, runs=1), '2 books + 1 run', 10)
    """

    books: int
    runs: int

    def __post_init__(self) -> None:
        if self.books < 0 or self.runs < 0 or self.books + self.runs == 0:
            raise ValueError("a contract has no negative counts and at least one meld")

    def __str__(self) -> str:
        parts = []
        if self.books:
            parts.append(f"{self.books} book{'s' if self.books > 1 else ''}")
        if self.runs:
            parts.append(f"{self.runs} run{'s' if self.runs > 1 else ''}")
        return " + ".join(parts)

    def min_cards(self, rules: WildRules = DEFAULT_RULES) -> int:
        """The fewest cards that can make the contract."""
        return self.books * rules.min_book + self.runs * rules.min_run


CONTRACTS: Final = (
    Contract(books=2, runs=0),
    Contract(books=1, runs=1),
    Contract(books=0, runs=2),
    Contract(books=3, runs=0),
    Contract(books=2, runs=1),
    Contract(books=1, runs=2),
    Contract(books=0, runs=3),
)
"""The contracts of rounds 1 to 7 (``CONTRACTS[0]`` is round 1)."""

HAND_SIZES: Final = (7, 8, 9, 10, 11, 12, 13)
"""The cards dealt in rounds 1 to 7."""


@dataclass(frozen=True, slots=True)
class ContractSolution:
    """A best way to lay down a contract.

    ``melds`` are the books (by rank, ace first), then the runs (by suit, then position), each a
    valid :class:`~rummykit.wild_melds.Book` or :class:`~rummykit.wild_melds.Run` with every wild's
    identity fixed; ``left`` are the cards kept in hand (sorted); ``points_left`` their points,
    the least possible. Ties are broken deterministically (the same hand, in any order, gets the
    same answer).
    """

    melds: tuple[WildMeld, ...]
    left: tuple[AnyCard, ...]
    points_left: int

    @property
    def books(self) -> tuple[Book, ...]:
        """The books of the solution."""
        return tuple(m for m in self.melds if isinstance(m, Book))

    @property
    def runs(self) -> tuple[Run, ...]:
        """The runs of the solution."""
        return tuple(m for m in self.melds if isinstance(m, Run))


# --------------------------------------------------------------------------------------------------
# Hands as suit vectors
# --------------------------------------------------------------------------------------------------
#
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
    seen: Counter[Card] = Counter()
    for card in hand:
        if isinstance(card, Joker):
            jokers += 1
            continue
        seen[card] += 1
        if seen[card] > 2:
            raise ValueError(f"three or more {card}: two packs hold two of each card")
        vecs[card.suit_index] += 1 << (4 * (card.number - 1))
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


# --------------------------------------------------------------------------------------------------
# Caches
# --------------------------------------------------------------------------------------------------

_CACHE_LIMIT: Final = 50_000  # entries per cache; a full cache starts again empty
_DIST_TABLES: dict[tuple[int, int, int, WildRules], _DistRecords] = {}


def cache_clear() -> None:
    """Forget the cached suit tables (they only make repeated calls faster)."""
    _SOLVE_REST.clear()
    _SOLVE_SHAPES.clear()
    _DIST_TABLES.clear()
    _SUIT_DIST_TABLES.clear()
    _DIST_SHAPES.clear()


_K = TypeVar("_K")
_V = TypeVar("_V")
_P = TypeVar("_P")


def _remember(cache: dict[_K, _V], key: _K, value: _V) -> _V:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


# --------------------------------------------------------------------------------------------------
# Solving: the suit tables
# --------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------
# Solving: books, merging, the answer
# --------------------------------------------------------------------------------------------------

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
    if len(hand) < contract.min_cards(rules):
        return None
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


# --------------------------------------------------------------------------------------------------
# Distance: the suit tables
# --------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------
# Distance: books, merging, the answer
# --------------------------------------------------------------------------------------------------

# A book of the distance: (rank nibble or -1 for one made of missing cards only, copies taken per
# suit, length)
_DistBook: TypeAlias = tuple[int, tuple[int, int, int, int], int]


def _dist_book_options(vecs: tuple[int, ...], runs: int, rules: WildRules) -> list[_DistBook]:
    options: list[_DistBook] = []
    for n in _book_lengths(rules):
        for r in _BOOK_NIBBLES:
            counts = [_count(v, r) for v in vecs]
            if not sum(counts):
                continue
            if runs == 0:
                # suits do not matter: take from the first suits
                for k in range(1, min(n, sum(counts)) + 1):
                    taken = [0, 0, 0, 0]
                    need = k
                    for s in range(4):
                        taken[s] = min(counts[s], need)
                        need -= taken[s]
                    options.append((r, (taken[0], taken[1], taken[2], taken[3]), n))
            else:
                for t in _sub_counts(counts, [False] * 4, 1, n):
                    options.append((r, t, n))
        options.append((-1, (0, 0, 0, 0), n))
    return options


def _books_fit(books: Sequence[_DistBook], vecs: Sequence[int], *, by_suit: bool) -> bool:
    """True if the hand holds the copies the books take (by suit, or by rank only)."""
    ranks = [r for r, _, _ in books if r >= 0]
    if len(set(ranks)) == len(ranks):
        return True  # each book alone fits
    for rank in set(ranks):
        taken = [0, 0, 0, 0]
        for r, per_suit, _ in books:
            if r == rank:
                for s in range(4):
                    taken[s] += per_suit[s]
        have = [_count(v, rank) for v in vecs]
        if by_suit and any(t > h for t, h in zip(taken, have, strict=True)):
            return False
        if not by_suit and sum(taken) > sum(have):
            return False
    return True


def _assign_suits(books: Sequence[_DistBook], vecs: Sequence[int]) -> tuple[_DistBook, ...]:
    """The books with their copies taken from the suits the hand has (when suits do not matter)."""
    free = [list(_count(v, r) for r in range(13)) for v in vecs]
    out: list[_DistBook] = []
    for r, taken, n in books:
        if r < 0:
            out.append((r, taken, n))
            continue
        need = sum(taken)
        per_suit = [0, 0, 0, 0]
        for s in range(4):
            k = min(need, free[s][r])
            per_suit[s] = k
            free[s][r] -= k
            need -= k
        out.append((r, (per_suit[0], per_suit[1], per_suit[2], per_suit[3]), n))
    return tuple(out)


def _book_cost(book: _DistBook, rules: WildRules) -> tuple[int, int]:
    _, taken, n = book
    holes = n - sum(taken)
    return holes, min(_book_room(n, rules), holes)


_DistChain: TypeAlias = tuple["_DistChain", int, tuple[_DistRun, ...]] | None


def _spread(naturals: int, lengths: Sequence[int], rules: WildRules) -> tuple[int, ...]:
    """How many naturals each book of these lengths gets so the books hold the most wilds."""
    best: tuple[int, ...] = ()
    best_room = -1
    for split in product(*(range(n + 1) for n in lengths)):
        if sum(split) == naturals:
            room = sum(
                min(_book_room(n, rules), n - k) for n, k in zip(lengths, split, strict=True)
            )
            if room > best_room:
                best, best_room = split, room
    return best


_BookGroups: TypeAlias = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]


def _dist_books_only(vecs: tuple[int, ...], jokers: int, books: int, rules: WildRules) -> _Plan:
    """The best plan for a contract of books only: a dynamic programme over the ranks."""
    wilds = jokers + _total_twos(vecs)
    lengths = _book_lengths(rules)
    # per state (books made, room): least gaps and the books (rank, lengths, naturals each)
    states: dict[tuple[int, int], tuple[int, _BookGroups]] = {(0, 0): (0, ())}
    for r in (*_BOOK_NIBBLES, -1):
        copies = sum(_count(v, r) for v in vecs) if r >= 0 else 0
        if r >= 0 and not copies:
            continue
        options: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]] = []
        for k in range(1, books + 1):
            for lens in combinations_with_replacement(lengths, k):
                split = _spread(min(copies, sum(lens)), lens, rules)
                gaps = sum(lens) - sum(split)
                room = sum(
                    min(_book_room(n, rules), n - m) for n, m in zip(lens, split, strict=True)
                )
                options.append((k, gaps, room, lens, split))
        nxt = dict(states)
        for (b, room0), (gaps0, chosen) in states.items():
            for k, gaps, room, lens, split in options:
                if b + k > books:
                    continue
                key = (b + k, min(wilds, room0 + room))
                total = gaps0 + gaps
                old = nxt.get(key)
                if old is None or total < old[0]:
                    nxt[key] = (total, (*chosen, (r, lens, split)))
        states = nxt
    best: tuple[int, _BookGroups] | None = None
    for (b, room), (gaps, chosen) in states.items():
        if b == books:
            cost = gaps - min(wilds, room)
            if best is None or cost < best[0]:
                best = (cost, chosen)
    assert best is not None
    cost, chosen = best
    free = [[_count(v, r) for r in range(13)] for v in vecs]
    plan_books: list[_DistBook] = []
    for r, lens, split in chosen:
        for n, m in zip(lens, split, strict=True):
            taken = [0, 0, 0, 0]
            for s in range(4):
                if r >= 0:
                    taken[s] = min(m - sum(taken), free[s][r])
                    free[s][r] -= taken[s]
            plan_books.append((r, (taken[0], taken[1], taken[2], taken[3]), n))
    return _Plan(cost, tuple(plan_books), (), 0)


def _merge_dist(
    tables: Sequence[_DistTable], runs: int, wilds: int
) -> dict[tuple[int, int, int], tuple[int, _DistChain]]:
    cur: dict[tuple[int, int, int], tuple[int, _DistChain]] = {(0, 0, 0): (0, None)}
    for s, table in enumerate(tables):
        nxt: dict[tuple[int, int, int], tuple[int, _DistChain]] = {}
        for (j1, room1, t1), (gaps1, chain) in cur.items():
            for (j2, room2, t2), (gaps2, placed) in table.items():
                j = j1 + j2
                if j > runs:
                    continue
                k = (j, min(room1 + room2, wilds), t1 + t2)
                gaps = gaps1 + gaps2
                old = nxt.get(k)
                if old is None or gaps < old[0]:
                    nxt[k] = (gaps, (chain, s, placed) if placed else chain)
        cur = _frontier(nxt)
    return cur


def _dist_cost(
    merged: dict[tuple[int, int, int], tuple[int, _DistChain]],
    runs: int,
    wilds: int,
    book_gaps: int,
    book_room: int,
    rules: WildRules,
) -> tuple[int, _DistChain, int] | None:
    """The best (cards to add, runs, runs of missing cards only) of merged suit tables."""
    scratch_gaps = rules.min_run
    scratch_room = min(_run_room(rules.min_run, rules), rules.min_run)
    best: tuple[int, _DistChain, int] | None = None
    for (j, room, twos), (gaps, chain) in merged.items():
        z = runs - j
        pool = wilds - twos
        cost = book_gaps + gaps + z * scratch_gaps - min(pool, book_room + room + z * scratch_room)
        if best is None or cost < best[0]:
            best = (cost, chain, z)
    return best


def _dist_runs(
    vecs: Sequence[int],
    originals: Sequence[int],
    runs: int,
    wilds: int,
    book_gaps: int,
    book_room: int,
    rules: WildRules,
    enough: int | None,
) -> tuple[dict[tuple[int, int, int], tuple[int, _DistChain]], list[tuple[int, int]]]:
    """The distance tables of the suits merged (with books of these gaps and wild room), and
    lower bounds for the ways they leave out: (gaps of the runs, their gaps beyond their room);
    such a way needs at least ``max(book_gaps + gaps - wilds, book_gaps - book_room + net)``.

    As for solving, a suit starts with a table for one run and gets one for more only while the
    bound is below the best found (and ``enough``). The bound holds as a run never has more wild
    room than gaps, and a run taken away never adds gaps nor gaps beyond room.
    """
    caps = _first_caps(vecs, runs) if runs > 1 else [runs] * 4
    scratch_gaps = rules.min_run
    scratch_net = scratch_gaps - min(_run_room(rules.min_run, rules), rules.min_run)
    allocations = _allocations(runs, exact=False)
    while True:
        tables = [
            _suit_dist_table(v, o, cap, rules)
            for v, o, cap in zip(vecs, originals, caps, strict=True)
        ]
        merged = _merge_dist(tables, runs, wilds)
        if min(caps) == runs:
            return merged, []
        found = _dist_cost(merged, runs, wilds, book_gaps, book_room, rules)
        limit = min(_FAR if found is None else found[0], _FAR if enough is None else enough)
        # per suit and number of runs: least gaps, least gaps beyond wild room
        least: list[list[tuple[int, int]]] = []
        for table, cap in zip(tables, caps, strict=True):
            per_j = [(_FAR, _FAR)] * (runs + 1)
            for (j, room, _), (gaps, _) in table.items():
                g, n = per_j[j]
                per_j[j] = (min(g, gaps), min(n, gaps - room))
            for j in range(cap + 1, runs + 1):
                per_j[j] = per_j[cap]
            least.append(per_j)
        pairs: list[tuple[int, int]] = []
        more: set[int] = set()
        for alloc in allocations:
            beyond = [s for s in range(4) if alloc[s] > caps[s]]
            if not beyond:
                continue
            z = runs - sum(alloc)
            gaps = z * scratch_gaps + sum(f[j][0] for f, j in zip(least, alloc, strict=True))
            net = z * scratch_net + sum(f[j][1] for f, j in zip(least, alloc, strict=True))
            pairs.append((gaps, net))
            if max(book_gaps + gaps - wilds, book_gaps - book_room + net) < limit:
                more.update(beyond)
        if not more:
            return merged, pairs
        for s in more:
            caps[s] += 1


@dataclass(frozen=True, slots=True)
class _Plan:
    """A way to complete the contract: books, runs per suit, runs of missing cards only."""

    cost: int
    books: tuple[_DistBook, ...]
    runs: tuple[tuple[int, _DistRun], ...]
    scratch_runs: int


def _dist_plans(
    vecs: tuple[int, ...], jokers: int, contract: Contract, rules: WildRules, exhaustive: bool
) -> Iterator[_Plan]:
    """The best plan (or, if ``exhaustive``, every plan, in no order)."""
    if contract.runs == 0 and not exhaustive:
        yield _dist_books_only(vecs, jokers, contract.books, rules)
        return
    wilds = jokers + _total_twos(vecs)
    n_runs = contract.runs
    scratch_gaps = rules.min_run
    scratch_room = min(_run_room(rules.min_run, rules), rules.min_run)
    book_options = _dist_book_options(vecs, n_runs, rules) if contract.books else []
    costs = [_book_cost(b, rules) for b in book_options]
    if exhaustive:
        for combo in combinations_with_replacement(range(len(book_options)), contract.books):
            fitted = _dist_rest(vecs, tuple(book_options[i] for i in combo), n_runs)
            if fitted is not None:
                books, rest = fitted
                records = [
                    _dist_table(rest[s], vecs[s], n_runs, rules, keep_all=True) for s in range(4)
                ]
                book_gaps = sum(costs[i][0] for i in combo)
                book_room = sum(costs[i][1] for i in combo)
                yield from _every_dist_plan(
                    records, books, book_gaps, book_room, wilds, n_runs, rules
                )
        return
    # a lower bound for each choice of books: the runs with every card free (the books can only
    # take cards away from them), per wild room of the books
    most_room = contract.books * rules.max_wilds_book
    full, beyond = _dist_runs(vecs, vecs, n_runs, wilds, 0, 0, rules, None)
    if not contract.books:
        runs_only = _dist_cost(full, n_runs, wilds, 0, 0, rules)
        assert runs_only is not None
        cost, chain, z = runs_only
        yield _Plan(cost, (), tuple(_unchain_dist(chain)), z)
        return
    ends = [
        (gaps + (n_runs - j) * scratch_gaps, wilds - twos, room + (n_runs - j) * scratch_room)
        for (j, room, twos), (gaps, _) in full.items()
    ]
    floors = {
        book_room: min(
            min((max(g - wilds, net - book_room) for g, net in beyond), default=_FAR),
            min(g - min(pool, book_room + room) for g, pool, room in ends),
        )
        for book_room in range(most_room + 1)
    }
    # the books are tried by kind (gaps, wild room), the kinds in order of their bound
    kinds: dict[tuple[int, int], list[int]] = {}
    for i, kind in enumerate(costs):
        kinds.setdefault(kind, []).append(i)
    groups = []
    for picked in combinations_with_replacement(sorted(kinds), contract.books):
        book_gaps = sum(g for g, _ in picked)
        book_room = sum(r for _, r in picked)
        groups.append((book_gaps + floors[book_room], book_gaps, book_room, picked))
    groups.sort()
    best_cost: int | None = None
    best_plan: _Plan | None = None
    for bound, book_gaps, book_room, picked in groups:
        for combo in _combos(picked, kinds):
            if best_cost is not None and bound >= best_cost:
                break
            fitted = _dist_rest(vecs, tuple(book_options[i] for i in combo), n_runs)
            if fitted is None:
                continue
            books, rest = fitted
            merged, _ = _dist_runs(
                rest, vecs, n_runs, wilds, book_gaps, book_room, rules, best_cost
            )
            found = _dist_cost(merged, n_runs, wilds, book_gaps, book_room, rules)
            if found is not None and (best_cost is None or found[0] < best_cost):
                best_cost, chain, z = found
                best_plan = _Plan(best_cost, books, tuple(_unchain_dist(chain)), z)
    if best_plan is not None:
        yield best_plan


def _combos(
    picked: Sequence[tuple[int, int]], kinds: dict[tuple[int, int], list[int]]
) -> Iterator[tuple[int, ...]]:
    """Every choice of books (indices) with these kinds."""
    parts = [
        list(combinations_with_replacement(kinds[kind], n))
        for kind, n in sorted(Counter(picked).items())
    ]
    for pick in product(*parts):
        yield tuple(i for part in pick for i in part)


def _dist_rest(
    vecs: tuple[int, ...], books: tuple[_DistBook, ...], n_runs: int
) -> tuple[tuple[_DistBook, ...], list[int]] | None:
    """The books (with their suits, if suits do not matter) and the cards left for the runs once
    the books take theirs, or None if the hand does not hold what the books take."""
    if not _books_fit(books, vecs, by_suit=n_runs > 0):
        return None
    if n_runs == 0:
        books = _assign_suits(books, vecs)
    rest = list(vecs)
    for r, taken, _ in books:
        if r >= 0:
            for s in range(4):
                rest[s] -= taken[s] << (4 * r)
    return books, rest


def _every_dist_plan(
    records: Sequence[_DistRecords],
    books: tuple[_DistBook, ...],
    book_gaps: int,
    book_room: int,
    wilds: int,
    n_runs: int,
    rules: WildRules,
) -> Iterator[_Plan]:
    scratch_gaps = rules.min_run
    scratch_room = min(_run_room(rules.min_run, rules), rules.min_run)
    placed_records: list[list[tuple[int, int, int, int, tuple[_DistRun, ...]]]] = []
    for _, every, spare in records:
        placed: list[tuple[int, int, int, int, tuple[_DistRun, ...]]] = []
        for j, gaps, room, twos, raw in every:
            runs_placed = _place_dist_runs(raw, spare, rules)
            if runs_placed is not None:
                placed.append((j, gaps, room, twos, runs_placed))
        placed_records.append(placed)
    for pick in product(*placed_records):
        j = sum(p[0] for p in pick)
        if j > n_runs:
            continue
        gaps = sum(p[1] for p in pick)
        room = sum(p[2] for p in pick)
        twos = sum(p[3] for p in pick)
        z = n_runs - j
        cost = (
            book_gaps
            + gaps
            + z * scratch_gaps
            - min(wilds - twos, book_room + room + z * scratch_room)
        )
        chosen = tuple((s, run) for s, p in enumerate(pick) for run in p[4])
        yield _Plan(cost, books, chosen, z)


def _unchain_dist(chain: _DistChain) -> list[tuple[int, _DistRun]]:
    picks: list[tuple[int, _DistRun]] = []
    while chain is not None:
        chain, s, placed = chain
        picks[:0] = [(s, run) for run in placed]
    return picks


def _card(s: int, nibble: int) -> Card:
    return STANDARD_PACK[13 * s + nibble]


def _realise(
    plan: _Plan, hand: Sequence[AnyCard], jokers_in_game: int, rules: WildRules
) -> tuple[AnyCard, ...] | None:
    """The cards to add for the plan, or None if it needs a card that does not exist (a third
    copy, or more wilds than the game has).

    Every slot of every meld is a natural card of the hand, a wild slot or a card to add. Wild
    slots (as many as the limits allow) take the hand's wilds first; the other slots, and wild
    slots left over, take added natural cards, or added wilds where no copy is left.
    """
    committed = Counter(hand)
    added: list[AnyCard] = []

    def take_natural(card: Card) -> bool:
        if committed[card] >= 2:
            return False
        committed[card] += 1
        added.append(card)
        return True

    def take_wild() -> bool:
        if committed[JOKER] < jokers_in_game:
            committed[JOKER] += 1
            added.append(JOKER)
            return True
        return any(take_natural(_card(s, 1)) for s in range(4))

    free_wilds = committed[JOKER]
    for s in range(4):
        free_wilds += committed[_card(s, 1)]
    free_wilds -= sum(1 for _, (shape, _, _, _) in plan.runs if 2 in shape)
    # slots to fill, per meld: (kind, suit or rank, first position or length, [(index, wild?)])
    melds: list[tuple[str, int, int, list[tuple[int, bool]]]] = []
    for r, taken, n in plan.books:
        holes = n - sum(taken)
        room = min(_book_room(n, rules), holes)
        melds.append(("book", r, n, [(i, i < room) for i in range(holes)]))
    for s, (shape, n, low, wild_at) in plan.runs:
        gaps = [(p - low, p in wild_at) for p in range(low, low + n) if p not in shape]
        melds.append(("run", s, low, gaps))
    room = min(_run_room(rules.min_run, rules), rules.min_run)
    for _ in range(plan.scratch_runs):
        melds.append(("scratch", -1, rules.min_run, [(i, i < room) for i in range(rules.min_run)]))
    # the hand's wilds go to wild slots, in order; the others need cards
    to_fill: list[list[tuple[int, bool]]] = []
    for _, _, _, slots in melds:
        rest = []
        for index, wild in slots:
            if wild and free_wilds > 0:
                free_wilds -= 1
            else:
                rest.append((index, wild))
        to_fill.append(rest)
    # books of added cards only take the rank with the most copies left
    planned: Counter[int] = Counter()
    for m, (kind, r, n, slots) in enumerate(melds):
        if kind == "book" and r < 0:
            r = max(
                _BOOK_NIBBLES,
                key=lambda x: (sum(2 - committed[_card(t, x)] for t in range(4)) - planned[x], -x),
            )
            planned[r] += len(to_fill[m])
            melds[m] = (kind, r, n, slots)
    # first the slots that must take a natural card (a run's exact card, a book's rank in any
    # suit), then the wild slots no hand wild reached: a natural card if a copy is left, else a wild
    for wild_pass, kind_pass in ((False, "run"), (False, "book"), (True, "run"), (True, "book")):
        for (kind, x, low, _), rest in zip(melds, to_fill, strict=True):
            if kind != kind_pass:
                continue
            for index, wild in rest:
                if wild != wild_pass:
                    continue
                if kind == "run":
                    ok = take_natural(_card(x, _nib(low + index)))
                else:  # the suit with the most copies left
                    t = min(range(4), key=lambda t: committed[_card(t, x)])
                    ok = take_natural(_card(t, x))
                if not ok and not (wild and take_wild()):
                    return None
    for (kind, _, n, _), rest in zip(melds, to_fill, strict=True):
        if kind != "scratch":
            continue
        window = next(
            (
                (s, low)
                for s in range(4)
                for low in range(1, ACE_HIGH - n + 2)
                if all(committed[_card(s, _nib(low + i))] < 2 for i, _ in rest)
            ),
            None,
        )
        if window is None:
            return None
        s, low = window
        for i, _ in rest:
            take_natural(_card(s, _nib(low + i)))
    return tuple(sorted(added, key=lambda c: c.sort_key))


def missing_cards(
    hand: Sequence[AnyCard],
    contract: Contract,
    rules: WildRules = DEFAULT_RULES,
    *,
    jokers: int = 4,
) -> tuple[AnyCard, ...]:
    """Fewest cards which, added to ``hand``, let it lay down ``contract`` (empty if it can now).

    Any card of the game may be named (two packs and ``jokers`` jokers), none beyond its copies:
    a natural card the hand holds twice cannot be named again. One of the best answers is given,
    deterministically; natural cards are named where they do as well as wilds.
    """
    vecs, hand_jokers = _vectors(hand)
    for exhaustive in (False, True):
        plans = list(_dist_plans(vecs, hand_jokers, contract, rules, exhaustive))
        plans.sort(key=lambda p: p.cost)
        for plan in plans:
            added = _realise(plan, hand, jokers, rules)
            if added is not None:
                if len(added) != plan.cost:  # pragma: no cover - a bug
                    raise AssertionError("distance plan and its cards disagree")
                return added
    raise ValueError("the contract cannot be completed with the cards of this game")


def contract_distance(
    hand: Sequence[AnyCard],
    contract: Contract,
    rules: WildRules = DEFAULT_RULES,
    *,
    jokers: int = 4,
) -> int:
    """How many more cards ``hand`` needs to lay down ``contract``: 0 if it can now.

    The least number of cards of the game (two packs and ``jokers`` jokers, never a third copy of
    a card) that, added to the hand, make the contract possible. See :func:`missing_cards`.

    Remembered for the last few thousand hands (a hand is asked about again and again: the
    page's aids after every move at the table, the players for each card they weigh).
    """
    return _distance(tuple(hand), contract, rules, jokers)


@lru_cache(maxsize=8192)
def _distance(hand: tuple[AnyCard, ...], contract: Contract, rules: WildRules, jokers: int) -> int:
    return len(missing_cards(hand, contract, rules, jokers=jokers))
