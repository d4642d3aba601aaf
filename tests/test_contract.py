"""The Crazy Rummy contract solver, checked on worked hands and against brute force."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.cards import JOKER, AnyCard, Card, Joker, Rank, Suit, double_pack, parse_cards
from rummykit.solver.contract import (
    CONTRACTS,
    HAND_SIZES,
    Contract,
    ContractSolution,
    cache_clear,
    contract_distance,
    missing_cards,
    solve_contract,
)
from rummykit.wild_melds import MAX_RUN, Book, Run, WildRules, crazy_points, hand_points, is_wild

PACK = double_pack(4)
RULES = WildRules()

# --------------------------------------------------------------------------------------------------
# Brute force: every sub-multiset that is a meld, every choice of melds
# --------------------------------------------------------------------------------------------------


def bf_is_book(cards: Sequence[AnyCard], rules: WildRules) -> bool:
    """A book straight from the rules: one rank of naturals, 2s and jokers wild."""
    naturals = [c for c in cards if isinstance(c, Card) and c.number != 2]
    wilds = len(cards) - len(naturals)
    return (
        len(cards) >= rules.min_book
        and len({c.number for c in naturals}) == 1
        and wilds <= rules.max_wilds_book
        and wilds <= len(naturals)
    )


def bf_is_run(cards: Sequence[AnyCard], rules: WildRules) -> bool:
    """A run straight from the rules: some suit and window of positions (1 = ace low, 14 = ace
    high) where every natural card (not a 2) sits at its own place, each 2 either natural at
    place 2 of its suit or wild, the rest wild, within the wild limits."""
    n = len(cards)
    if n < rules.min_run or n > 13:
        return False
    others = [c for c in cards if isinstance(c, Card) and c.number != 2]
    twos = [c for c in cards if isinstance(c, Card) and c.number == 2]
    for suit in Suit:
        for low in range(1, 15 - n + 1):
            window = range(low, low + n)
            places = []
            for c in others:
                spots = [
                    p
                    for p in window
                    if c.suit is suit and (p == c.number or (c.number == 1 and p == 14))
                ]
                if not spots:
                    break
                places.append(spots[0])
            else:
                if len(set(places)) != len(places):
                    continue
                two_can_be_natural = (
                    2 in window and 2 not in places and any(t.suit is suit for t in twos)
                )
                for natural_two in {False, two_can_be_natural}:
                    naturals = len(others) + natural_two
                    wilds = n - naturals
                    if wilds <= rules.max_wilds_run and wilds <= naturals:
                        return True
    return False


def sub_multisets(cards: Sequence[AnyCard]) -> Iterator[tuple[AnyCard, ...]]:
    counts = Counter(cards)
    kinds = sorted(counts, key=lambda c: c.sort_key)
    for pick in product(*(range(counts[k] + 1) for k in kinds)):
        yield tuple(k for k, m in zip(kinds, pick, strict=True) for _ in range(m))


def bf_melds(
    hand: Sequence[AnyCard], rules: WildRules
) -> tuple[list[Counter[AnyCard]], list[Counter[AnyCard]]]:
    """Every book and every run (as multisets) inside the hand."""
    wilds = [c for c in hand if is_wild(c)]
    wild_subsets = list(sub_multisets(wilds))
    books: list[Counter[AnyCard]] = []
    runs: list[Counter[AnyCard]] = []
    for rank in Rank:
        same = [c for c in hand if isinstance(c, Card) and c.rank is rank and rank is not Rank.TWO]
        for nat in sub_multisets(same):
            for w in wild_subsets:
                if nat and bf_is_book((*nat, *w), rules):
                    books.append(Counter((*nat, *w)))
    for suit in Suit:
        same = [c for c in hand if isinstance(c, Card) and c.suit is suit and c.number != 2]
        for nat in sub_multisets(same):
            for w in wild_subsets:
                if nat and bf_is_run((*nat, *w), rules):
                    runs.append(Counter((*nat, *w)))
    return books, runs


def bf_best(hand: Sequence[AnyCard], contract: Contract, rules: WildRules = RULES) -> int | None:
    """The fewest points left after laying down the contract, or None, by trying every choice."""
    books, runs = bf_melds(hand, rules)
    have = Counter(hand)
    total = hand_points(hand)
    best: int | None = None

    def choose(
        kind: list[Counter[AnyCard]], k: int, start: int, left: Counter[AnyCard], then: int
    ) -> None:
        nonlocal best
        if k == 0:
            if then == 0:
                points = hand_points(left.elements())
                if best is None or points < best:
                    best = points
            else:
                choose(runs, contract.runs, 0, left, 0)
            return
        for i in range(start, len(kind)):
            meld = kind[i]
            if all(left[c] >= m for c, m in meld.items()):
                choose(kind, k - 1, i, left - meld, then)

    if contract.books:
        choose(books, contract.books, 0, have, contract.runs)
    else:
        choose(runs, contract.runs, 0, have, 0)
    assert best is None or 0 <= best <= total
    return best


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def cards(text: str) -> tuple[AnyCard, ...]:
    return parse_cards(text)


def check_solution(hand: Sequence[AnyCard], contract: Contract, sol: ContractSolution) -> None:
    """The solution is legal: the right melds, each valid by the meld classes, cards conserved."""
    assert len(sol.books) == contract.books
    assert len(sol.runs) == contract.runs
    for meld in sol.melds:
        if isinstance(meld, Book):
            assert Book.of(meld.cards, RULES) == meld
            assert len(meld) >= RULES.min_book
        else:
            assert Run.of(meld.cards, RULES) == meld
            assert len(meld) >= RULES.min_run
    used = Counter(c for m in sol.melds for c in m.cards)
    assert used + Counter(sol.left) == Counter(hand)
    assert sol.points_left == hand_points(sol.left)


UNIVERSE: tuple[AnyCard, ...] = (*sorted(set(PACK) - {JOKER}, key=lambda c: c.sort_key), JOKER)


def can_add(hand: Sequence[AnyCard], extra: Sequence[AnyCard], jokers: int = 4) -> bool:
    counts = Counter(hand) + Counter(extra)
    return all(k <= (jokers if isinstance(c, Joker) else 2) for c, k in counts.items())


def additions(hand: Sequence[AnyCard], k: int) -> Iterator[tuple[AnyCard, ...]]:
    for extra in combinations_with_replacement(UNIVERSE, k):
        if can_add(hand, extra):
            yield extra


@cache
def index_hand(indices: tuple[int, ...]) -> tuple[AnyCard, ...]:
    return tuple(PACK[i] for i in indices)


# --------------------------------------------------------------------------------------------------
# The contracts
# --------------------------------------------------------------------------------------------------


def test_contract_table() -> None:
    assert [str(c) for c in CONTRACTS] == [
        "2 books",
        "1 book + 1 run",
        "2 runs",
        "3 books",
        "2 books + 1 run",
        "1 book + 2 runs",
        "3 runs",
    ]
    assert HAND_SIZES == (7, 8, 9, 10, 11, 12, 13)
    assert [c.min_cards() for c in CONTRACTS] == [s - 1 for s in HAND_SIZES]
    with pytest.raises(ValueError):
        Contract(books=0, runs=0)


# For each round: a hand that makes it, one a card short (distance 1), one that needs its wild, one
# where the wild limits forbid it, and that hand with one wild replaced by the card it would stand
# for (which makes it).
ROUND_HANDS = {
    1: (
        "9C 9D 9S 4H 4S 4D KC",
        "9C 9D 9S 4H 6S KD KC",
        "9C 9D X 4H 4S 4D KC",
        "9C X 2D 4H 4S 4D KC",
        "9C 9H 2D 4H 4S 4D KC",
    ),
    2: (
        "9C 9D 9S 4H 5H 6H 7H KC",
        "9C 9D 9S 4H 5H 7H KC QD",
        "9C 9D 9S 4H X 6H 7H 3S",
        "9C 9D 9S 4H X 2C X KD",
        "9C 9D 9S 4H 5H 2C X KD",
    ),
    3: (
        "4H 5H 6H 7H TS JS QS KS 3C",
        "4H 5H 6H 7H TS JS QS 5C 3C",
        "4H 5H X 7H TS JS QS 2D 3C",
        "4H X X 2C 8H TS JS QS KS",
        "4H 5H X 2C 8H TS JS QS KS",
    ),
    4: (
        "9C 9D 9S 4H 4S 4D KC KD KH 3S",
        "9C 9D 9S 4H 4S 4D KC QD KH 3S",
        "9C 9D 9S 4H 4S 4D KC 2D KH 3S",
        "9C 9D 9S 4H X 2S KC 2D KH 3S",
        "9C 9D 9S 4H 4C 2S KC 2D KH 3S",
    ),
    5: (
        "9C 9D 9S 4H 4S 4D 5C 6C 7C 8C 3S",
        "9C 9D 9S 4H 4S 4D 5C 6C 7C TC 3S",
        "9C 9D 9S 4H 4S 4D 5C 6C 2H 8C 3S",
        "9C 9D 9S 4H 4S X 5C X 2H 2D 3S",
        "9C 9D 9S 4H 4S X 5C X 2H 8C 3S",
    ),
    6: (
        "9C 9D 9S 4H 5H 6H 7H TS JS QS KS 3C",
        "9C 9D 9S 4H 5H 6H 7H TS JS QS 3C 5D",
        "9C 9D 9S 4H 5H 6H 7H TS JS X KS 3C",
        "9C 9D 9S 4H X X X 8H TS JS QS KS",
        "9C 9D 9S 4H 5H X X 8H TS JS QS KS",
    ),
    7: (
        "4H 5H 6H 7H TS JS QS KS 3C 4C 5C 6C 8D",
        "4H 5H 6H 7H TS JS QS KS 3C 4C 6C 8D 9D",
        "4H 5H 6H 7H TS JS QS KS 3C 4C X 6C 8D",
        "4H 5H 6H 7H TS JS QS KS 3C X X 2D 8D",
        "4H 5H 6H 7H TS JS QS KS 3C X X 5C 8D",
    ),
}


@pytest.mark.parametrize("round_no", range(1, 8))
def test_each_contract(round_no: int) -> None:
    contract = CONTRACTS[round_no - 1]
    makes, short, with_wild, too_wild, fixed = (cards(t) for t in ROUND_HANDS[round_no])
    for hand in (makes, short, with_wild, too_wild, fixed):
        assert len(hand) == HAND_SIZES[round_no - 1]
    sol = solve_contract(makes, contract)
    assert sol is not None
    check_solution(makes, contract, sol)
    assert sol.points_left == bf_best(makes, contract)
    assert contract_distance(makes, contract) == 0
    assert missing_cards(makes, contract) == ()

    assert solve_contract(short, contract) is None
    assert bf_best(short, contract) is None
    assert contract_distance(short, contract) == 1
    extra = missing_cards(short, contract)
    assert len(extra) == 1 and solve_contract((*short, *extra), contract) is not None

    sol = solve_contract(with_wild, contract)
    assert sol is not None
    check_solution(with_wild, contract, sol)
    assert sol.points_left == bf_best(with_wild, contract)
    assert sum(m.wild_count for m in sol.melds) >= 1
    without = tuple(c for c in with_wild if not is_wild(c))
    assert solve_contract(without, contract) is None

    assert solve_contract(too_wild, contract) is None
    assert bf_best(too_wild, contract) is None
    assert contract_distance(too_wild, contract) >= 1
    sol = solve_contract(fixed, contract)
    assert sol is not None
    check_solution(fixed, contract, sol)
    assert (
        Counter(too_wild) - Counter(fixed)
        and sum((Counter(fixed) - Counter(too_wild)).values()) == 1
    )


def test_best_way_keeps_the_fewest_points() -> None:
    # 9C 9D 9S X could be the book, but the joker is better spent on the run; KC is left
    hand = cards("9C 9D 9S X 4H 5H 7H KC")
    sol = solve_contract(hand, CONTRACTS[1])
    assert sol is not None
    assert [str(m) for m in sol.melds] == ["9C 9D 9S", "4H 5H X 7H"]
    assert [str(c) for c in sol.left] == ["KC"]
    assert sol.points_left == 10


def test_extra_wilds_lengthen_melds_and_the_rest_is_kept() -> None:
    hand = cards("9C 9D 9S 4H 5H 6H 7H X X X 2D")
    sol = solve_contract(hand, CONTRACTS[1])
    assert sol is not None
    check_solution(hand, CONTRACTS[1], sol)
    # the book takes one wild, the run two (at its high end), the 2D stays (jokers go first)
    assert [str(m) for m in sol.melds] == ["9C 9D 9S X", "4H 5H 6H 7H X X"]
    assert [str(c) for c in sol.left] == ["2D"]
    assert sol.points_left == 20
    assert str(sol.runs[0].stands_for[-1]) == "9H"


def test_a_natural_two_in_its_place_does_not_count_as_wild() -> None:
    # AH 2H 3H X X: the 2H is natural, so two jokers fit; 2D is a third wild, kept
    hand = cards("AH 2H 3H X X 2D 9C 9D 9S")
    sol = solve_contract(hand, CONTRACTS[1])
    assert sol is not None
    check_solution(hand, CONTRACTS[1], sol)
    run = sol.runs[0]
    assert run.wild_count == 2 and Card.parse("2H") in run.naturals
    assert sol.points_left == 0  # 2D goes to the book


def test_ace_high_and_ace_low_runs_in_a_contract() -> None:
    hand = cards("JS QS KS AS AH 2H 3H 4H 8D")
    sol = solve_contract(hand, CONTRACTS[2])
    assert sol is not None
    assert sorted(str(r) for r in sol.runs) == ["AH 2H 3H 4H", "JS QS KS AS"]
    assert {r.low for r in sol.runs} == {1, 11}
    assert solve_contract(cards("QS KS AS 2S 3S 8D 8C 8H 9H"), CONTRACTS[2]) is None


def test_books_may_share_a_rank_and_use_duplicates() -> None:
    hand = cards("4H 4H 4S 4S 4D 4C KD")
    sol = solve_contract(hand, CONTRACTS[0])
    assert sol is not None
    check_solution(hand, CONTRACTS[0], sol)
    assert {b.rank for b in sol.books} == {Rank.FOUR}
    assert [str(c) for c in sol.left] == ["KD"]


def test_runs_may_share_a_suit() -> None:
    hand = cards("4H 5H 6H 7H 4H 5H 6H 7H 9C")
    sol = solve_contract(hand, CONTRACTS[2])
    assert sol is not None
    assert [str(r) for r in sol.runs] == ["4H 5H 6H 7H", "4H 5H 6H 7H"]


def test_answer_does_not_depend_on_the_order_of_the_hand() -> None:
    hand = cards("9C 9D 9S X 2D 4H 5H 7H KC 8H 3S 3D")
    first = solve_contract(hand, CONTRACTS[1])
    assert first is not None
    assert solve_contract(tuple(reversed(hand)), CONTRACTS[1]) == first
    cache_clear()
    assert solve_contract(hand[3:] + hand[:3], CONTRACTS[1]) == first
    assert missing_cards(hand, CONTRACTS[6]) == missing_cards(tuple(reversed(hand)), CONTRACTS[6])


def test_too_few_cards_and_bad_hands() -> None:
    assert solve_contract(cards("9C 9D 9S"), CONTRACTS[0]) is None
    assert contract_distance(cards("9C 9D 9S"), CONTRACTS[0]) == 3
    assert contract_distance((), CONTRACTS[6]) == 12
    assert contract_distance((JOKER,) * 4, CONTRACTS[0]) == 4
    with pytest.raises(ValueError, match="two of each"):
        solve_contract(cards("9C 9C 9C"), CONTRACTS[0])


def test_distance_respects_the_copies_in_the_packs() -> None:
    # 5H twice already: the run 3H 4H _ 6H cannot be completed by a third 5H, only by a wild
    hand = cards("5H 5H 5D 3H 4H 6H")
    extra = missing_cards(hand, CONTRACTS[1])
    assert len(extra) == contract_distance(hand, CONTRACTS[1]) == 1
    assert Counter((*hand, *extra))[Card.parse("5H")] <= 2
    assert solve_contract((*hand, *extra), CONTRACTS[1]) is not None
    # with no jokers in the game and every 2 in the hand, no wild can be added
    hand = cards("2C 2C 2D 2D 2H 2H 2S 2S")
    assert contract_distance(hand, CONTRACTS[0], jokers=0) == 4
    assert contract_distance(hand, CONTRACTS[0], jokers=4) == 4
    extra = missing_cards(hand, CONTRACTS[0], jokers=0)
    assert JOKER not in extra and solve_contract((*hand, *extra), CONTRACTS[0]) is not None


def test_the_exhaustive_fallback_gives_the_same_distance(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the best plan cannot be realised (a card would be needed thrice), every plan is
    tried in order; force that path and check it finds the same distance."""
    from rummykit.solver.contract import distance as module

    hands = [
        (cards("5H 6H 8H 9C 9D 2S X KD"), CONTRACTS[1]),
        (cards("4H 5H 6H 7H TS JS 3C 4C 8D 2D X"), CONTRACTS[6]),
        (cards("9C 9D 4H 4S KD 2C 7H"), CONTRACTS[0]),
        (cards("9C 9D 9S 4H 5H 7H TS JS 2D 3C 5D"), CONTRACTS[5]),
    ]
    expected = [contract_distance(h, c) for h, c in hands]
    real = module._realise
    refused: set[int] = set()

    def first_refused(plan: module._Plan, *args: object, **kwargs: object) -> object:
        if id(plan) not in refused and len(refused) < 1:
            refused.add(id(plan))
            return None
        return real(plan, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "_realise", first_refused)
    for (hand, contract), d in zip(hands, expected, strict=True):
        refused.clear()
        extra = missing_cards(hand, contract)
        assert refused and len(extra) == d
        assert solve_contract((*hand, *extra), contract) is not None


def test_distance_with_an_ace_run_at_both_ends_of_a_suit() -> None:
    # clubs: AC 2C ... 9C ... KC: the ace links the low and the high cards of the suit
    hand = cards("2D 2H KC 2C 3S 4D 5D X 3D 7D TH 9C AC")
    sol = solve_contract(hand, CONTRACTS[5])
    assert sol is not None and sol.points_left == bf_best(hand, CONTRACTS[5]) == 20
    assert contract_distance(hand, CONTRACTS[5]) == 0
    hand = cards("AC 2C KC QC 9D 9S 9H 5S")
    assert contract_distance(hand, CONTRACTS[1]) == 0
    assert contract_distance(cards("AC KC 3C 9D 9S 9H 5S"), CONTRACTS[1]) == 2
    assert missing_cards(cards("AC KC QC 3C 9D 9S 9H"), CONTRACTS[1]) == (Card.parse("JC"),)


def test_points_of_cards() -> None:
    assert [crazy_points(c) for c in cards("AS 2S 3S 8S 9S TS KS X")] == [
        15,
        20,
        5,
        5,
        10,
        10,
        10,
        20,
    ]


# --------------------------------------------------------------------------------------------------
# Against brute force
# --------------------------------------------------------------------------------------------------


def random_hand(draw: st.DrawFn, size: int) -> tuple[AnyCard, ...]:
    indices = draw(
        st.lists(st.integers(0, len(PACK) - 1), min_size=size, max_size=size, unique=True)
    )
    return index_hand(tuple(sorted(indices)))


@st.composite
def hands_any(draw: st.DrawFn) -> tuple[Contract, tuple[AnyCard, ...]]:
    round_no = draw(st.integers(1, 7))
    size = HAND_SIZES[round_no - 1] + draw(st.integers(-1, 1))
    return CONTRACTS[round_no - 1], random_hand(draw, size)


@st.composite
def hands_dense(draw: st.DrawFn) -> tuple[Contract, tuple[AnyCard, ...]]:
    """Hands drawn from a few ranks and suits (plus wilds), where melds are many."""
    round_no = draw(st.integers(1, 7))
    size = HAND_SIZES[round_no - 1] + draw(st.integers(-1, 1))
    low = draw(st.integers(1, 13))
    ranks = {(low + i - 1) % 13 + 1 for i in range(draw(st.integers(3, 6)))}
    suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=3))
    pool = [
        c
        for c in PACK
        if isinstance(c, Joker) or c.number == 2 or (c.number in ranks and c.suit in suits)
    ]
    size = min(size, len(pool))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return CONTRACTS[round_no - 1], tuple(pool[i] for i in sorted(picks))


@st.composite
def hands_at_the_ends(draw: st.DrawFn) -> tuple[Contract, tuple[AnyCard, ...]]:
    """Hands of aces, low and high cards of one or two suits, where runs may go either way."""
    round_no = draw(st.integers(1, 7))
    suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=2))
    ranks = {1, 2, 3, 4, 11, 12, 13, draw(st.integers(6, 9))}  # and a card in the middle
    pool = [c for c in PACK if isinstance(c, Joker) or (c.number in ranks and c.suit in suits)]
    size = min(HAND_SIZES[round_no - 1] + draw(st.integers(-1, 1)), len(pool))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return CONTRACTS[round_no - 1], tuple(pool[i] for i in sorted(picks))


def check_against_brute_force(contract: Contract, hand: tuple[AnyCard, ...]) -> None:
    expected = bf_best(hand, contract)
    sol = solve_contract(hand, contract)
    if expected is None:
        assert sol is None
        assert contract_distance(hand, contract) >= 1
    else:
        assert sol is not None
        check_solution(hand, contract, sol)
        assert sol.points_left == expected
        assert contract_distance(hand, contract) == 0


@pytest.mark.slow
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_any())
def test_solver_matches_brute_force_on_random_hands(
    case: tuple[Contract, tuple[AnyCard, ...]],
) -> None:
    check_against_brute_force(*case)


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_dense())
def test_solver_matches_brute_force_on_dense_hands(
    case: tuple[Contract, tuple[AnyCard, ...]],
) -> None:
    check_against_brute_force(*case)


@pytest.mark.slow
@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_at_the_ends())
def test_solver_matches_brute_force_around_the_ace(
    case: tuple[Contract, tuple[AnyCard, ...]],
) -> None:
    check_against_brute_force(*case)


def check_distance(contract: Contract, hand: tuple[AnyCard, ...], brute_below: int) -> None:
    """The distance d is reached by the named cards (checked by brute force) and by no d - 1
    cards: every multiset of d - 1 cards of the packs is tried, with the brute force when d - 1
    is at most 1 and with ``solve_contract`` (itself checked against brute force above) always."""
    d = contract_distance(hand, contract)
    extra = missing_cards(hand, contract)
    assert len(extra) == d
    assert can_add(hand, extra)
    assert bf_best((*hand, *extra), contract) is not None
    if 1 <= d <= brute_below + 1:
        for more in additions(hand, d - 1):
            assert solve_contract((*hand, *more), contract) is None, more
            if d - 1 <= 1:
                assert bf_best((*hand, *more), contract) is None, more


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[Contract, tuple[AnyCard, ...]]:
    contract = CONTRACTS[draw(st.integers(0, 2))]
    dense = draw(st.booleans())
    size = contract.min_cards() + draw(st.integers(-1, 1))  # so d - 1 added cards could do
    if not dense:
        return contract, random_hand(draw, size)
    low = draw(st.integers(1, 13))
    ranks = {(low + i - 1) % 13 + 1 for i in range(draw(st.integers(2, 5)))}
    suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=2))
    pool = [
        c
        for c in PACK
        if isinstance(c, Joker) or c.number == 2 or (c.number in ranks and c.suit in suits)
    ]
    size = min(size, len(pool))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return contract, tuple(pool[i] for i in sorted(picks))


@pytest.mark.slow
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands())
def test_distance_matches_brute_force_on_small_hands(
    case: tuple[Contract, tuple[AnyCard, ...]],
) -> None:
    check_distance(*case, brute_below=2)


@pytest.mark.slow
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_any())
def test_distance_named_cards_complete_the_contract(
    case: tuple[Contract, tuple[AnyCard, ...]],
) -> None:
    check_distance(*case, brute_below=1)


# --------------------------------------------------------------------------------------------------
# Big hands (after many buys): the shortcuts against the plain search
# --------------------------------------------------------------------------------------------------


def big_hand(seed: int, size: int, suits: int = 4) -> tuple[AnyCard, ...]:
    """A seeded hand of ``size`` cards of the two packs, naturals from ``suits`` suits only."""
    rng = random.Random(seed)
    keep = set(rng.sample(list(Suit), suits))
    pool = [c for c in PACK if isinstance(c, Joker) or c.number == 2 or c.suit in keep]
    return tuple(rng.sample(pool, size))


def plain_points(hand: Sequence[AnyCard], contract: Contract) -> int | None:
    """The fewest points left, by the plain search the solver cuts short: every choice of books
    (any copies of any ranks), every run count per suit, every run through each lowest card."""
    from rummykit.solver.contract import solve, solve_tables, vectors

    vecs, jokers = vectors._vectors(hand)
    wilds = jokers + vectors._total_twos(vecs)
    n_min = solve._min_book_naturals(RULES)
    best: int | None = None
    ranks = [r for r in vectors._BOOK_NIBBLES if sum(vectors._count(v, r) for v in vecs) >= n_min]
    for combo in combinations_with_replacement(ranks, contract.books):
        picks = []
        for r, k in Counter(combo).items():
            counts = [vectors._count(v, r) for v in vecs]
            picks.append(
                [(r, k, t) for t in product(*(range(c + 1) for c in counts)) if sum(t) >= k * n_min]
            )
        for picked in product(*picks):
            rest = list(vecs)
            lo = hi = 0
            for r, k, taken in picked:
                for s in range(4):
                    rest[s] -= taken[s] << (4 * r)
                for per_suit in solve._split(taken, k):
                    low, high = solve._book_interval(sum(per_suit), RULES)
                    lo, hi = lo + low, hi + high
            tables = [solve_tables._solve_table(v, contract.runs, RULES) for v in rest]
            merged = solve._merge_solve(tables, contract.runs, wilds, lo, hi)
            found = solve._solve_cost(merged, contract.runs, wilds)
            if found is not None and (best is None or found[0] < best):
                best = found[0]
    return best


def use_plain_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, suit tables for every run count at once, with every run shape."""
    from rummykit.solver.contract import distance, solve, solve_tables, vectors

    def every_shape(
        present: int, many: int, nibble: int, rules: WildRules
    ) -> list[tuple[int, ...]]:
        vec = sum(1 << (4 * (p - 1)) for p in range(1, 14) if present >> p & 1)
        return vectors._shapes(vec, nibble, rules.max_wilds_run, MAX_RUN)

    for module in (solve, distance):  # the modules that call _first_caps
        monkeypatch.setattr(module, "_first_caps", lambda vecs, runs: [runs] * 4)
    monkeypatch.setattr(solve_tables, "_unbeaten_shapes", every_shape)
    cache_clear()


@pytest.mark.parametrize(
    ("seed", "size", "suits"),
    [
        (1, 22, 4),
        (2, 26, 3),
        (3, 20, 2),
        (4, 32, 4),
        (5, 28, 2),
        (6, 30, 3),
        (7, 16, 1),
        (8, 20, 1),
    ],
)
def test_big_hands_match_the_plain_search(
    seed: int, size: int, suits: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solving and the distance give the same values without their shortcuts (lazy tables for
    more runs, runs beaten by a card more, the bounds on the books)."""
    hand = big_hand(seed, size, suits)
    cache_clear()
    fast = [solve_contract(hand, c) for c in CONTRACTS]
    distances = [contract_distance(hand, c) for c in CONTRACTS]
    for contract, sol, d in zip(CONTRACTS, fast, distances, strict=True):
        assert (sol is None) == (d > 0)
        if sol is not None:
            check_solution(hand, contract, sol)
    use_plain_tables(monkeypatch)
    for contract, sol, d in zip(CONTRACTS, fast, distances, strict=True):
        assert plain_points(hand, contract) == (None if sol is None else sol.points_left)
        assert contract_distance(hand, contract) == d
    cache_clear()


def test_a_fifty_card_hand_lays_down_every_contract() -> None:
    hand = big_hand(2026, 50)
    for contract in CONTRACTS:
        sol = solve_contract(hand, contract)
        assert sol is not None
        check_solution(hand, contract, sol)
        assert contract_distance(hand, contract) == 0
        assert missing_cards(hand, contract) == ()


def test_a_big_hand_without_runs() -> None:
    # every copy of A, 4, 7, T and K, no wilds: books galore, but each run needs two more cards
    hand = tuple(c for c in PACK if isinstance(c, Card) and c.number in (1, 4, 7, 10, 13))
    assert len(hand) == 40
    points = {c: solve_contract(hand, c) for c in CONTRACTS if not c.runs}
    assert {str(c): s.points_left for c, s in points.items() if s} == {
        "2 books": 160,
        "3 books": 80,
    }
    for contract in CONTRACTS:
        if contract.runs:
            assert solve_contract(hand, contract) is None
            assert contract_distance(hand, contract) == 2 * contract.runs
            extra = missing_cards(hand, contract)
            assert solve_contract((*hand, *extra), contract) is not None


def test_two_runs_in_one_long_suit_beat_runs_in_two() -> None:
    # hearts 3-9 twice make two runs; one of them and 4S 5S X 7S leave more points
    hand = cards("3H 4H 5H 6H 7H 8H 9H 3H 4H 5H 6H 7H 8H 9H 4S 5S 7S X KD QC 9C")
    sol = solve_contract(hand, CONTRACTS[2])
    assert sol is not None
    check_solution(hand, CONTRACTS[2], sol)
    assert [str(c) for c in sol.left] == ["9C", "QC", "KD", "4S", "5S", "7S"]
    assert sol.points_left == 45 == plain_points(hand, CONTRACTS[2])
