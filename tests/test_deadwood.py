"""The Gin Rummy meld solver against brute force, known hands and the OpenSpiel bug hands."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.cards import STANDARD_PACK, Card, parse_natural_cards
from rummykit.melds import Meld, MeldKind, is_run, is_set
from rummykit.solver.deadwood import (
    Arrangement,
    LayoffPlan,
    best_arrangement,
    best_discards,
    best_layoffs,
    discard_deadwoods,
    hand_mask,
    min_deadwood,
    min_deadwood_after_discard,
    min_deadwood_mask,
)
from rummykit.solver.deadwood import arrangement as solver_arrangement
from rummykit.solver.deadwood import core as solver_core
from rummykit.solver.deadwood import discards as solver_discards

EXAMPLES = 400


def cards(text: str) -> tuple[Card, ...]:
    """Cards from notation."""
    return parse_natural_cards(text)


def card(text: str) -> Card:
    """One card from notation."""
    return Card.parse(text)


# --------------------------------------------------------------------------------------------------
# Brute force: every meld of the hand, then every way to split the hand into disjoint melds
# --------------------------------------------------------------------------------------------------


def brute_melds(hand: Sequence[Card]) -> list[int]:
    """The masks of every valid meld of cards of the hand (checked with rummykit.melds)."""
    melds: list[int] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.number, []).append(c)
        by_suit.setdefault(c.suit_index, []).append(c)
    for group in by_rank.values():
        for size in (3, 4):
            for combo in combinations(group, size):
                assert is_set(combo)
                melds.append(sum(c.bit for c in combo))
    for group in by_suit.values():
        ordered = sorted(group, key=lambda c: c.number)
        for i in range(len(ordered)):
            for j in range(i + 3, len(ordered) + 1):
                window = ordered[i:j]
                if is_run(window):
                    melds.append(sum(c.bit for c in window))
    return melds


@cache
def brute_solver(hand_bits: int) -> Brute:
    """A memoised brute-force solver for the sub-hands of one hand."""
    return Brute([STANDARD_PACK[i] for i in range(52) if hand_bits >> i & 1])


class Brute:
    """Least deadwood of any sub-hand of one hand, by exhaustive search over meld partitions."""

    def __init__(self, hand: Sequence[Card]) -> None:
        self.melds = brute_melds(hand)
        self.memo: dict[int, int] = {0: 0}

    def deadwood(self, mask: int) -> int:
        """The least deadwood of the cards in ``mask`` (a subset of the hand)."""
        found = self.memo.get(mask)
        if found is not None:
            return found
        low = mask & -mask
        best = STANDARD_PACK[low.bit_length() - 1].points + self.deadwood(mask ^ low)
        for meld in self.melds:
            if meld & low and meld & mask == meld:
                best = min(best, self.deadwood(mask ^ meld))
        self.memo[mask] = best
        return best


def brute_deadwood(hand: Iterable[Card]) -> int:
    """Brute-force least deadwood."""
    mask = sum(c.bit for c in hand)
    return brute_solver(mask).deadwood(mask)


def brute_discards(hand: Sequence[Card]) -> dict[Card, int]:
    """Brute-force least deadwood of the hand without each card."""
    mask = sum(c.bit for c in hand)
    brute = brute_solver(mask)
    return {c: brute.deadwood(mask ^ c.bit) for c in hand}


def check_arrangement(hand: Iterable[Card], arrangement: Arrangement) -> None:
    """The arrangement is a valid split of exactly this hand, with consistent deadwood."""
    hand_set = set(hand)
    seen: set[Card] = set()
    for meld in arrangement.melds:
        assert Meld.of(meld.cards) == meld
        assert not seen & set(meld.cards), "melds overlap"
        seen |= set(meld.cards)
    assert not seen & set(arrangement.unmatched)
    assert seen | set(arrangement.unmatched) == hand_set
    assert len(seen) + len(arrangement.unmatched) == len(hand_set)
    assert list(arrangement.unmatched) == sorted(arrangement.unmatched, key=lambda c: c.index)
    assert arrangement.deadwood == sum(c.points for c in arrangement.unmatched)


# --------------------------------------------------------------------------------------------------
# Hand strategies
# --------------------------------------------------------------------------------------------------


def random_hands(size: int) -> st.SearchStrategy[list[Card]]:
    """Hands of ``size`` cards from the whole pack."""
    return st.lists(st.sampled_from(STANDARD_PACK), min_size=size, max_size=size, unique=True)


@st.composite
def dense_hands(draw: st.DrawFn, size: int = 11) -> list[Card]:
    """Meld-dense hands: cards from only 3 to 5 adjacent ranks, all suits."""
    width = draw(st.integers(3, 5))
    low = draw(st.integers(1, 14 - width))
    pool = [c for c in STANDARD_PACK if low <= c.number < low + width]
    n = min(size, len(pool))
    return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))


@st.composite
def hands_with_fours(draw: st.DrawFn, fours: int) -> list[Card]:
    """11 cards holding all four cards of ``fours`` ranks, the rest from near them.

    The solver has its own paths for one and for two ranks held in all four suits.
    """
    low = draw(st.integers(1, 9))
    ranks = draw(st.lists(st.integers(low, low + 4), min_size=fours, max_size=fours, unique=True))
    hand = [c for c in STANDARD_PACK if c.number in ranks]
    pool = [c for c in STANDARD_PACK if low - 1 <= c.number <= low + 5 and c not in hand]
    return hand + draw(
        st.lists(
            st.sampled_from(pool), min_size=11 - len(hand), max_size=11 - len(hand), unique=True
        )
    )


HAND_KINDS = {
    "random10": random_hands(10),
    "random11": random_hands(11),
    "dense10": dense_hands(10),
    "dense11": dense_hands(11),
    "one_rank_in_all_suits": hands_with_fours(1),
    "two_ranks_in_all_suits": hands_with_fours(2),
}


@st.composite
def three_rank_hands(draw: st.DrawFn) -> list[Card]:
    """11 of the 12 cards of 3 adjacent ranks: three ranks of possible sets, always gin."""
    low = draw(st.integers(1, 11))
    pool = [c for c in STANDARD_PACK if low <= c.number < low + 3]
    return draw(st.lists(st.sampled_from(pool), min_size=11, max_size=11, unique=True))


VALUE_HAND_KINDS = {
    "random11": random_hands(11),
    "dense11": dense_hands(11),
    "dense3ranks": three_rank_hands(),
    "one_rank_in_all_suits": hands_with_fours(1),
    "two_ranks_in_all_suits": hands_with_fours(2),
}


# --------------------------------------------------------------------------------------------------
# Property tests against brute force
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", HAND_KINDS)
@settings(max_examples=examples(EXAMPLES), deadline=None)
@given(data=st.data())
def test_min_deadwood_and_arrangement_match_brute_force(kind: str, data: st.DataObject) -> None:
    hand = data.draw(HAND_KINDS[kind])
    expected = brute_deadwood(hand)
    assert min_deadwood(hand) == expected
    assert min_deadwood_mask(hand_mask(hand)) == expected
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood == expected
    assert best_arrangement(reversed(hand)) == arrangement


@pytest.mark.parametrize("kind", HAND_KINDS)
@settings(max_examples=examples(EXAMPLES), deadline=None)
@given(data=st.data())
def test_discards_match_brute_force(kind: str, data: st.DataObject) -> None:
    hand = data.draw(HAND_KINDS[kind])
    expected = brute_discards(hand)
    values = discard_deadwoods(hand)
    assert values == expected
    assert list(values) == sorted(hand, key=lambda c: c.index)
    best = min(expected.values())
    winners = tuple(sorted((c for c, v in expected.items() if v == best), key=lambda c: c.index))
    assert best_discards(hand) == (best, winners)


@settings(max_examples=examples(200), deadline=None)
@given(size=st.integers(0, 9), data=st.data())
def test_small_hands_match_brute_force(size: int, data: st.DataObject) -> None:
    hand = data.draw(st.one_of(random_hands(size), dense_hands(size)))
    assert min_deadwood(hand) == brute_deadwood(hand)
    check_arrangement(hand, best_arrangement(hand))
    assert discard_deadwoods(hand) == brute_discards(hand)
    if hand:
        assert best_discards(hand)[0] == min(brute_discards(hand).values())


@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_forced_dynamic_programme_matches_brute_force(data: st.DataObject) -> None:
    """The fallback for hands with very many set choices, forced on small hands."""
    hand = data.draw(st.one_of(dense_hands(11), dense_hands(8), random_hands(11)))
    expected = brute_discards(hand)
    with pytest.MonkeyPatch.context() as patch:
        for module in (solver_core, solver_discards):  # the modules that read the limit
            patch.setattr(module, "_MAX_SET_CHOICES", 0)
        assert min_deadwood(hand) == brute_deadwood(hand)
        arrangement = best_arrangement(hand)
        check_arrangement(hand, arrangement)
        assert arrangement.deadwood == brute_deadwood(hand)
        assert discard_deadwoods(hand) == expected
        assert best_discards(hand)[0] == min(expected.values())
    mask = hand_mask(hand)
    assert solver_core._rank_dp(mask)[0] == brute_deadwood(hand)
    from_dp = solver_arrangement._arrangement_from_dp(mask)
    check_arrangement(hand, from_dp)
    assert from_dp.deadwood == brute_deadwood(hand)


@settings(max_examples=examples(100), deadline=None)
@given(size=st.integers(12, 52), data=st.data())
def test_big_hands_enumeration_and_dynamic_programme_agree(size: int, data: st.DataObject) -> None:
    hand = data.draw(st.one_of(random_hands(size), dense_hands(size)))
    mask = hand_mask(hand)
    by_dp = solver_core._rank_dp(mask)[0]
    assert min_deadwood(hand) == by_dp
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood == by_dp


def test_whole_pack() -> None:
    assert min_deadwood(STANDARD_PACK) == 0
    arrangement = best_arrangement(STANDARD_PACK)
    check_arrangement(STANDARD_PACK, arrangement)
    assert arrangement.unmatched == ()
    assert best_discards(STANDARD_PACK)[0] == 0


def test_set_heavy_hands_use_the_dynamic_programme() -> None:
    """Hands with 6**5 or more set choices, beyond the enumeration limit."""
    hand = [c for c in STANDARD_PACK if c.number in (1, 3, 5, 7, 9)]
    assert min_deadwood(hand) == 0
    hand = [c for c in STANDARD_PACK if c.number in (2, 3, 5, 7, 9, 11)] + [card("AC")]
    mask = hand_mask(hand)
    assert min_deadwood(hand) == 0
    check_arrangement(hand, best_arrangement(hand))
    values = discard_deadwoods(hand)
    assert values == {c: solver_core._rank_dp(mask ^ c.bit)[0] for c in hand}
    assert values[card("AC")] == 0
    assert values[card("2C")] == 1
    assert best_discards(hand)[0] == 0


@pytest.mark.parametrize("kind", VALUE_HAND_KINDS)
@settings(max_examples=examples(EXAMPLES), deadline=None)
@given(data=st.data())
def test_min_deadwood_after_discard_matches_brute_force(kind: str, data: st.DataObject) -> None:
    hand = data.draw(VALUE_HAND_KINDS[kind])
    expected = min(brute_discards(hand).values())
    assert min_deadwood_after_discard(hand) == expected
    assert min_deadwood_after_discard(reversed(hand)) == expected
    assert best_discards(hand)[0] == expected


@settings(max_examples=examples(300), deadline=None)
@given(size=st.integers(1, 10), data=st.data())
def test_min_deadwood_after_discard_small_hands(size: int, data: st.DataObject) -> None:
    hand = data.draw(st.one_of(random_hands(size), dense_hands(size)))
    assert min_deadwood_after_discard(hand) == min(brute_discards(hand).values())


@settings(max_examples=examples(60), deadline=None)
@given(size=st.integers(12, 30), data=st.data())
def test_min_deadwood_after_discard_big_hands(size: int, data: st.DataObject) -> None:
    """Hands beyond 11 cards, including 4+ ranks of possible sets (the general fallback)."""
    hand = data.draw(st.one_of(random_hands(size), dense_hands(size)))
    mask = hand_mask(hand)
    expected = min(min_deadwood_mask(mask ^ c.bit) for c in hand)
    assert min_deadwood_after_discard(hand) == expected


def test_min_deadwood_after_discard_set_heavy_hand() -> None:
    hand = [c for c in STANDARD_PACK if c.number in (2, 3, 5, 7, 9, 11)] + [card("AC")]
    assert min_deadwood_after_discard(hand) == 0
    assert min_deadwood_after_discard(STANDARD_PACK) == 0


# --------------------------------------------------------------------------------------------------
# Known hands
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AC 2C 3C 7D 7H 7S 9H TH JH QH", 0),  # gin
        ("QH KH AH", 21),  # Q-K-A is not a run
        ("AH 2H 3H", 0),  # A-2-3 is
        ("KS AS 2S", 13),  # no wrapping
        ("7H 7D 7C 7S 8S 9S", 0),  # 7H 7D 7C + 7S 8S 9S
        ("7H 7D 7C 7S 8S", 8),  # the set of four beats 7S 8S
        ("", 0),
        ("KD", 10),
    ],
)
def test_known_hands(text: str, expected: int) -> None:
    hand = cards(text)
    assert min_deadwood(hand) == expected
    check_arrangement(hand, best_arrangement(hand))
    assert best_arrangement(hand).deadwood == expected


def test_set_of_four_shared_with_a_run() -> None:
    arrangement = best_arrangement(cards("7H 7D 7C 7S 8S 9S"))
    assert arrangement.deadwood == 0
    assert {str(m) for m in arrangement.melds} == {"7C 7D 7H", "7S 8S 9S"}
    assert [m.kind for m in arrangement.melds] == [MeldKind.SET, MeldKind.RUN]


def test_arrangement_order_is_sets_then_runs() -> None:
    arrangement = best_arrangement(cards("9H TH JH 2C 2D 2S 4S 5S 6S KD"))
    assert [str(m) for m in arrangement.melds] == ["2C 2D 2S", "9H TH JH", "4S 5S 6S"]
    assert arrangement.unmatched == (card("KD"),)


@pytest.mark.parametrize(
    ("text", "discard"),
    [
        ("6S 7S 8S 9S 8C 8D 8H 3D AH 7D 7H", "9S"),
        ("7D 8D 9D 9S 9C 9H AC 2S TD 8C 8S", "TD"),
    ],
)
def test_openspiel_bug_hands(text: str, discard: str) -> None:
    """Hands on which OpenSpiel's min_deadwood answers 11: the best discard leaves 10."""
    hand = cards(text)
    best, winners = best_discards(hand)
    assert best == 10
    assert card(discard) in winners
    assert discard_deadwoods(hand)[card(discard)] == 10
    rest = [c for c in hand if c is not card(discard)]
    assert min_deadwood(rest) == 10
    check_arrangement(rest, best_arrangement(rest))
    assert min_deadwood_after_discard(hand) == 10


def test_best_discards_lists_every_winner() -> None:
    assert best_discards(cards("AC 2C 3C 4H 4D 4S 9D KH KD")) == (19, cards("KD KH"))
    assert best_discards(cards("AC 2C 3C 4H 4D 4S 9D KH")) == (9, cards("KH"))


def test_best_discards_merges_winners_of_several_choices_of_sets() -> None:
    # Beside the set of four 8s, 27 is reached with the jacks as a set (discarding TD or QD) and
    # with the run TD JD QD (discarding TC, JH or JS): two choices of sets tie, and every
    # discard of both must be listed.
    hand = cards("8C 8D 8H 8S JH JD 7H JS QD TD TC")
    expected_value = min(brute_discards(hand).values())
    winners = sorted(
        (c for c, v in brute_discards(hand).items() if v == expected_value), key=lambda c: c.index
    )
    assert best_discards(hand) == (27, tuple(winners))
    assert len(winners) == 5


def test_discard_from_a_set_of_four() -> None:
    # A set of four, two runs and KH: discarding KH is gin; discarding an 8 leaves a set of three.
    hand = cards("8C 8D 8H 8S AS 2S 3S 5D 6D 7D KH")
    values = discard_deadwoods(hand)
    assert values[card("KH")] == 0
    assert all(values[c] == 10 for c in cards("8C 8D 8H 8S"))
    assert best_discards(hand) == (0, (card("KH"),))


def test_errors() -> None:
    with pytest.raises(ValueError):
        hand_mask(cards("7H 7H"))
    with pytest.raises(ValueError):
        min_deadwood(cards("7H 8H 7H"))
    with pytest.raises(ValueError):
        best_discards(())
    # 10 and 11 cards are read by a separate unrolled path (a repeat carries into another bit).
    with pytest.raises(ValueError):
        min_deadwood(cards("AC 2C 3C 4C 5C 6C 7C 8C 9C AC"))
    with pytest.raises(ValueError):
        best_discards(cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC 2C"))
    with pytest.raises(ValueError):
        discard_deadwoods(cards("KS KS KS KS 2D 3D 4D 5D 6D 7D 8D"))
    with pytest.raises(ValueError):
        min_deadwood_after_discard(())
    with pytest.raises(ValueError):
        min_deadwood_after_discard(cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC 2C"))
    with pytest.raises(ValueError):
        min_deadwood_after_discard(cards("7H 8H 7H"))
    with pytest.raises(ValueError):
        min_deadwood_mask(1 << 52)
    with pytest.raises(ValueError):
        min_deadwood_mask(-1)
    with pytest.raises(ValueError):
        best_layoffs(cards("7H"), [Meld.parse("7H 8H 9H")])


def test_iterables_are_accepted() -> None:
    hand = cards("AH 2H 3H 9C")
    assert min_deadwood(iter(hand)) == 9
    assert min_deadwood(set(hand)) == 9
    assert discard_deadwoods(c for c in hand) == discard_deadwoods(hand)
    assert min_deadwood_after_discard(iter(hand)) == 0
    assert min_deadwood_after_discard(set(hand)) == 0
    assert hand_mask(hand) == sum(c.bit for c in hand)


# --------------------------------------------------------------------------------------------------
# Lay-offs
# --------------------------------------------------------------------------------------------------


def brute_layoffs(hand: Iterable[Card], melds: Sequence[Meld]) -> tuple[int, int]:
    """(least deadwood, fewest lay-offs for it) by trying every legal sequence of lay-offs."""
    memo: dict[tuple[frozenset[Card], tuple[Meld, ...]], tuple[int, int]] = {}

    def go(left: frozenset[Card], table: tuple[Meld, ...]) -> tuple[int, int]:
        key = (left, table)
        if key in memo:
            return memo[key]
        best = (brute_deadwood(left), 0)
        for c in left:
            for i, meld in enumerate(table):
                grown = meld.extended_by(c)
                if grown is not None:
                    d, n = go(left - {c}, (*table[:i], grown, *table[i + 1 :]))
                    best = min(best, (d, n + 1))
        memo[key] = best
        return best

    return go(frozenset(hand), tuple(melds))


def check_plan(hand: Sequence[Card], melds: Sequence[Meld], plan: LayoffPlan) -> None:
    """The plan is legal one lay-off at a time and its arrangement covers the rest."""
    table = list(melds)
    left = set(hand)
    for c, i in plan.layoffs:
        assert c in left
        grown = table[i].extended_by(c)
        assert grown is not None, f"{c} does not fit {table[i]}"
        table[i] = grown
        left.remove(c)
    check_arrangement(left, plan.arrangement)
    assert plan.deadwood == plan.arrangement.deadwood
    assert plan.arrangement == best_arrangement(left)


@cache
def window_melds(low: int) -> tuple[Meld, ...]:
    """Every meld of cards of the six ranks from ``low``."""
    pool = [c for c in STANDARD_PACK if low <= c.number < low + 6]
    return tuple(
        Meld.of(STANDARD_PACK[i] for i in range(52) if m >> i & 1) for m in brute_melds(pool)
    )


@st.composite
def layoff_cases(draw: st.DrawFn) -> tuple[list[Card], list[Meld]]:
    """A knocker's 1-3 disjoint melds and a defender's hand, all near the same ranks."""
    low = draw(st.integers(1, 8))
    melds: list[Meld] = []
    used = 0
    for _ in range(draw(st.integers(1, 3))):
        free = [m for m in window_melds(low) if not hand_mask(m.cards) & used]
        if not free:
            break
        meld = draw(st.sampled_from(free))
        melds.append(meld)
        used |= hand_mask(meld.cards)
    rest = [c for c in STANDARD_PACK if low - 1 <= c.number < low + 7 and not c.bit & used]
    size = draw(st.integers(0, min(8, len(rest))))
    hand = draw(st.lists(st.sampled_from(rest), min_size=size, max_size=size, unique=True))
    return hand, melds


@settings(max_examples=examples(EXAMPLES), deadline=None)
@given(case=layoff_cases())
def test_best_layoffs_matches_brute_force(case: tuple[list[Card], list[Meld]]) -> None:
    hand, melds = case
    plan = best_layoffs(hand, melds)
    check_plan(hand, melds, plan)
    assert (plan.deadwood, len(plan.layoffs)) == brute_layoffs(hand, melds)


def test_layoffs_extend_both_ends_beyond_earlier_layoffs() -> None:
    melds = [Meld.parse("5H 6H 7H")]
    hand = cards("3H 9H 4H KC 8H")
    plan = best_layoffs(hand, melds)
    assert plan.deadwood == 10
    assert plan.layoffs == tuple((c, 0) for c in cards("4H 3H 8H 9H"))
    check_plan(hand, melds, plan)


def test_layoff_completes_a_set_of_four() -> None:
    melds = [Meld.parse("9C 9D 9H"), Meld.parse("2S 3S 4S 5S")]
    hand = cards("9S KD 2C")
    plan = best_layoffs(hand, melds)
    assert plan.layoffs == ((card("9S"), 0),)
    assert plan.deadwood == 12
    check_plan(hand, melds, plan)


def test_keeping_a_card_in_an_own_meld_beats_laying_it_off() -> None:
    melds = [Meld.parse("5H 6H 7H")]
    hand = cards("8H 8C 8D KS")
    plan = best_layoffs(hand, melds)
    assert plan.layoffs == ()
    assert plan.deadwood == 10
    assert [str(m) for m in plan.arrangement.melds] == ["8C 8D 8H"]
    check_plan(hand, melds, plan)


def test_equal_plans_prefer_fewer_layoffs() -> None:
    plan = best_layoffs(cards("2H 3H 4H"), [Meld.parse("5H 6H 7H")])
    assert plan.deadwood == 0
    assert plan.layoffs == ()


def test_a_card_fitting_two_melds_goes_where_it_helps() -> None:
    melds = [Meld.parse("8C 8D 8H"), Meld.parse("5S 6S 7S")]
    hand = cards("8S 9S 4D")
    plan = best_layoffs(hand, melds)
    assert plan.layoffs == ((card("8S"), 1), (card("9S"), 1))
    assert plan.deadwood == 4
    check_plan(hand, melds, plan)


def test_layoffs_seeded_random_cases() -> None:
    """A fixed batch on top of the hypothesis cases, with two and three runs in one suit."""
    rng = random.Random(7)
    for _ in range(150):
        suit = rng.choice("CDHS")
        low = rng.randint(1, 5)
        melds = [
            Meld.of(card(f"{n}{suit}") for n in ranks)
            for ranks in (
                ("A23456789TJQK"[low - 1 : low + 2]),
                ("A23456789TJQK"[low + 3 : low + 6]),
            )
        ]
        taken = {c for m in melds for c in m.cards}
        pool = [c for c in STANDARD_PACK if c not in taken and low - 2 <= c.number <= low + 8]
        hand = rng.sample(pool, rng.randint(1, 8))
        plan = best_layoffs(hand, melds)
        check_plan(hand, melds, plan)
        assert (plan.deadwood, len(plan.layoffs)) == brute_layoffs(hand, melds)


def test_a_joker_is_refused_with_a_value_error_that_names_it() -> None:
    from rummykit.cards import parse_cards

    for hand in ("AC X 3C", "AC 2C 3C 4C 5C 6C 7C 8C 9C X", "AC 2C 3C 4C 5C 6C 7C 8C 9C TC X"):
        cards = parse_cards(hand)
        for solve in (min_deadwood, best_arrangement, best_discards, discard_deadwoods):
            with pytest.raises(ValueError, match="joker"):
                solve(cards)  # type: ignore[arg-type]


def test_text_or_bare_cards_for_melds_get_a_type_error_that_says_what_to_give() -> None:

    for solve in (
        min_deadwood,
        best_arrangement,
        best_discards,
        discard_deadwoods,
        min_deadwood_after_discard,
    ):
        with pytest.raises(TypeError, match=r"not the text '7H 8H 9H': parse_cards\("):
            solve("7H 8H 9H")  # type: ignore[arg-type]
    hand = parse_natural_cards("7H 2H 6S")
    with pytest.raises(TypeError, match=r"Meld objects, e\.g\. Meld\.parse"):
        best_layoffs(hand, [parse_natural_cards("3H 4H 5H")])  # type: ignore[list-item]
    assert best_layoffs(hand, [Meld.parse("3H 4H 5H")]).deadwood == 13  # 2H goes on; 7H, 6S left
