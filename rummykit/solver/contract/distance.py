"""The distance: books, merging the suit tables, the plans and their cards
(``contract_distance``, ``missing_cards``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import TypeAlias

from rummykit.cards import JOKER, AnyCard, Card
from rummykit.solver.contract.contracts import Contract
from rummykit.solver.contract.distance_tables import (
    _book_lengths,
    _book_room,
    _dist_table,
    _DistRecords,
    _DistRun,
    _DistTable,
    _frontier,
    _place_dist_runs,
    _run_room,
    _suit_dist_table,
)
from rummykit.solver.contract.solve import _FAR, _allocations, _first_caps, _sub_counts
from rummykit.solver.contract.vectors import (
    _BOOK_NIBBLES,
    _card,
    _count,
    _nib,
    _total_twos,
    _vectors,
)
from rummykit.wild_melds import (
    ACE_HIGH,
    DEFAULT_RULES,
    WildRules,
)

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
