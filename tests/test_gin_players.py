"""Gin Rummy computer players (easy, medium, hard) and the card memory they rely on."""

from __future__ import annotations

import copy
import random
import statistics
import sys
from collections.abc import Callable, Iterator
from functools import partial
from types import FrameType
from typing import cast

import pytest

from rummykit.actions import Action, Discard, Done, Draw, Knock, LayOff, Pass, Take, parse_action
from rummykit.cards import STANDARD_PACK, Card, parse_natural_cards
from rummykit.games import Gin, Rummy
from rummykit.games.base import Phase
from rummykit.games.gin import GinState, GinView, gin_hand_from_cards
from rummykit.games.seeding import derive_seed
from rummykit.players import PLAYERS, REGISTRY, Player, RandomPlayer, find_player
from rummykit.players.gin import EasyGinPlayer, HardGinPlayer, MediumGinPlayer, gin_memory
from rummykit.players.gin.evaluation import _analyse
from rummykit.players.gin.playouts import OPPONENT_DEADWOOD, _Deal, _layoff_deadwood, _sample_deals
from rummykit.players.tracking import (
    CardMemory,
    holding_chances,
    holding_weights,
    meld_chance,
    sample_hidden,
)
from rummykit.sim import play_hand
from rummykit.solver.deadwood import best_arrangement, best_layoffs, hand_mask, min_deadwood_mask

LEVELS = ("easy", "medium", "hard")


def _cards(text: str) -> tuple[Card, ...]:
    return parse_natural_cards(text)


def _walk(seed: int, players: list[Player], dealer: int = 0) -> Iterator[tuple[GinState, int]]:
    """Every decision of a hand: (state, seat to act) before the action is applied."""
    state = Gin().new_hand(seed=seed, dealer=dealer)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        yield state, seat
        state.apply(players[seat].choose(state.view(seat)), seat)


# ------------------------------------------------------------------------------ registry


def test_levels_are_registered_for_gin() -> None:
    assert PLAYERS["gin"] == ("random", "easy", "medium", "hard")
    for level, cls in zip(LEVELS, (EasyGinPlayer, MediumGinPlayer, HardGinPlayer), strict=True):
        player = find_player("gin-rummy", level, 5)
        assert isinstance(player, cls) and isinstance(player, Player)
        assert player.name == level
        assert REGISTRY["gin"][level] is cast(object, cls)


def test_a_gin_player_refuses_other_views_and_waiting() -> None:
    state = Gin().new_hand(seed=3, dealer=0)
    waiting = state.view(0)  # seat 1 is offered the up-card first
    table = Rummy().new_hand(players=2, seed=3)
    assert table.to_act is not None
    rummy_view = table.view(table.to_act)
    for level in LEVELS:
        with pytest.raises(ValueError, match="seat 0"):
            find_player("gin", level, 1).choose(waiting)
        with pytest.raises(TypeError, match="GinView"):
            find_player("gin", level, 1).choose(rummy_view)


# -------------------------------------------------------------------------- legal moves


@pytest.mark.parametrize(("level", "hands"), [("easy", 12), ("medium", 12), ("hard", 3)])
def test_players_choose_only_legal_actions(level: str, hands: int) -> None:
    seen_phases: set[Phase] = set()
    for index in range(hands):
        players = [find_player("gin", level, index), find_player("gin", "medium", index + 50)]
        if index % 2:
            players.reverse()
        for state, seat in _walk(derive_seed(17, index), players, dealer=index % 2):
            view = state.view(seat)
            action = players[seat].choose(view)
            assert action in view.legal_actions, (level, str(action))
            seen_phases.add(view.phase)
    assert {Phase.OFFER, Phase.DRAW, Phase.DISCARD} <= seen_phases


def test_every_level_finishes_hands_against_random_play() -> None:
    for level in LEVELS:
        state = play_hand(Gin(), [find_player("gin", level, 2), RandomPlayer(3)], 41)
        assert state.is_over and state.result is not None


# ------------------------------------------------------------------------- determinism


def _history(level: str, seed: int, player_seed: int) -> list[str]:
    players = [find_player("gin", level, player_seed), find_player("gin", "medium", 9)]
    state = play_hand(Gin(), players, seed)
    return [f"{seat} {action}" for seat, action in state.history]


@pytest.mark.parametrize("level", LEVELS)
def test_players_are_deterministic_given_a_seed(level: str) -> None:
    assert _history(level, 23, 4) == _history(level, 23, 4)


def test_easy_player_depends_on_its_seed() -> None:
    histories = {tuple(_history("easy", 23, s)) for s in range(6)}
    assert len(histories) > 1


@pytest.mark.parametrize("level", LEVELS)
def test_a_decision_depends_on_the_view_only(level: str) -> None:
    """Asked twice, or by a fresh player with the same seed, the answer is the same."""
    state = Gin().new_hand(seed=5, dealer=1)
    state.apply(Pass(), 0)
    state.apply(Pass(), 1)
    state.apply(Draw(), 0)
    view = state.view(0)
    player = find_player("gin", level, 8)
    first = player.choose(view)
    assert player.choose(view) == first
    assert find_player("gin", level, 8).choose(view) == first
    assert player.suggest(view)[0] == first


# ----------------------------------------------------------------------------- no peeking


def _reshuffle_hidden(state: GinState, seat: int, rng: random.Random) -> GinState:
    """A copy of ``state`` in which the other seat's hidden cards and the stock are dealt anew."""
    other = copy.deepcopy(state)
    opp = 1 - seat
    known = set(other.known[opp])
    hidden = [c for c in other.hands[opp] if c not in known]
    pool = hidden + other.stock
    rng.shuffle(pool)
    other.hands[opp] = list(other.known[opp]) + pool[: len(hidden)]
    other.stock = pool[len(hidden) :]
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_no_peeking_hidden_cards_do_not_change_a_decision(level: str) -> None:
    rng = random.Random(12)
    compared = changed = 0
    for index in range(2 if level == "hard" else 4):
        players = [find_player("gin", level, 30 + index), find_player("gin", "medium", 60)]
        for state, seat in _walk(derive_seed(99, index), players, dealer=index % 2):
            if seat != 0 or state.phase is Phase.LAYOFF or rng.random() < 0.5:
                continue
            twin = _reshuffle_hidden(state, seat, rng)
            assert twin.view(seat) == state.view(seat)
            changed += twin.hands[1] != state.hands[1] or twin.stock != state.stock
            fresh = [find_player("gin", level, 30 + index) for _ in (0, 1)]
            assert fresh[0].choose(state.view(seat)) == fresh[1].choose(twin.view(seat))
            compared += 1
    assert compared >= 4 and changed >= compared - 1


# ------------------------------------------------------------------------------- suggest


@pytest.mark.parametrize("level", LEVELS)
def test_suggest_gives_a_legal_action_and_a_reason(level: str) -> None:
    players = [find_player("gin", level, 1), find_player("gin", "medium", 2)]
    count = 0
    for index in range(2):
        for state, seat in _walk(derive_seed(7, index), players, dealer=index):
            if seat != 0:
                continue
            view = state.view(seat)
            action, reason = players[0].suggest(view)
            assert action in view.legal_actions
            assert reason and len(str(reason)) > 3 and reason.text("vi")
            count += 1
    assert count > 5


def _deal(hand0: str, hand1: str, up: str, stock_top: str = "", dealer: int = 0) -> GinState:
    """A hand with the given cards; the stock is ``stock_top`` and then the rest in pack order."""
    fixed = [*_cards(hand0), *_cards(hand1), Card.parse(up), *_cards(stock_top)]
    rest = [c for c in STANDARD_PACK if c not in fixed]
    stock = " ".join(str(c) for c in (*_cards(stock_top), *rest))
    return gin_hand_from_cards([hand0, hand1], up, stock, dealer=dealer)


def test_hint_discards_a_lone_king_and_says_why() -> None:
    # Seat 1 draws 5C onto 2C 3C 4C; of AD 5H 9S KD left over, the lone king goes.
    state = _deal("2S 4S 6S 8S TS QS 3H 6H 8H JH", "2C 3C 4C 7D 7H 7S AD 5H 9S KD", "QC", "5C")
    state.apply(Pass(), 1)
    state.apply(Pass(), 0)
    state.apply(Draw(), 1)
    view = state.view(1)
    hint = MediumGinPlayer(1).suggest(view)
    assert hint.action == Discard(Card.parse("KD"))
    assert str(hint).startswith("discard K♦: highest card, no meld nearby"), str(hint)
    assert hint.text("vi").startswith("bỏ K♦: lá cao nhất, không gần bộ nào"), hint.text("vi")
    assert hint.reason.keys[0] == "highest_loose"
    hard = HardGinPlayer(1).suggest(view)
    assert hard.action == Discard(Card.parse("KD")) and str(hard).startswith("discard K♦: ")


# ------------------------------------------------------------------------- clear choices


def test_gin_is_always_taken_and_knocked() -> None:
    for level in ("medium", "hard"):
        state = _deal("2S 4S 6S 8S TS QS 3H 6H 7H 9H", "AC 2C 3C 7D 8D 9D 5S 5H 5C KD", "4C")
        player = find_player("gin", level, 3)
        take, reason = player.suggest(state.view(1))
        assert take == Take() and reason.keys == ("gin.gives_gin",)  # 4C leaves only KD unmatched
        state.apply(take, 1)
        assert player.choose(state.view(1)) == Knock(Card.parse("KD"))
        state.apply(Knock(Card.parse("KD")), 1)
        assert state.result is not None and state.result.outcome.value == "gin"


def test_defender_lays_off_the_best_way() -> None:
    for level in ("medium", "hard"):
        state = _deal(
            "3H 4H 5H 7C 7D 7S 9S TS JS 2C", "6H 8H AS 2S QD KD KC 4D 8C 8D", "AC", dealer=1
        )
        state.apply(Take(), 0)
        state.apply(Knock(Card.parse("2C")), 0)  # melds 3H-5H, 7s, 9S-JS; AC left over
        assert state.phase is Phase.LAYOFF
        plan = best_layoffs(state.hands[1], state.knock_melds)
        assert plan.layoffs  # 6H goes onto 3H 4H 5H
        player = find_player("gin", level, 4)
        while not state.is_over:
            action, reason = player.suggest(state.view(1))
            assert isinstance(action, LayOff | Done) and reason
            state.apply(action, 1)
        assert state.result is not None
        assert state.result.deadwood[1] == plan.deadwood
        assert len(state.layoffs) == len(plan.layoffs)


def test_hard_knocks_early_with_a_low_count_and_names_the_risk() -> None:
    # Seat 1 draws 5C: 2C-5C, three 7s; AD 2H 3S left after throwing KD: 6 deadwood, first turn.
    state = _deal("2S 4S 6S 8S TS QS 3H 6H 8H JH", "2C 3C 4C 7D 7H 7S AD 2H 3S KD", "QC", "5C")
    state.apply(Pass(), 1)
    state.apply(Pass(), 0)
    state.apply(Draw(), 1)
    hint = HardGinPlayer(2).suggest(state.view(1))
    action = hint.action
    assert action == Knock(Card.parse("KD"))
    assert str(hint).startswith("knock, throwing K♦: 6 deadwood, undercut risk about"), str(hint)


def _late_knock_position() -> GinState:
    """Seat 0 to discard on its 13th turn (19 cards in the stock), able to knock with 7 (5s, 8s;
    AD AS 2S 3D left after throwing 6H), while seat 1, which took 9D and 4S from the pile, holds
    three 4s, three 7s, three 9s and 2D: 2 deadwood, so a knock now is undercut."""
    state = gin_hand_from_cards(
        ["8C 4S 6H 9C AS 2S JD KD AD 5H", "9H 4D QH KS 7H 2D 7C TC 6C TD"],
        "KH",
        "4H 3D 7S 8S JH 5D 9S 9D 8H 5C QC 3H TH AH KC AC 6D JS 2H JC 5S QD 7D 6S TS QS 3S 2C"
        " 8D 4C 3C",
        dealer=0,
    )
    moves = (
        "1 pass, 0 pass, 1 draw, 1 discard KS, 0 draw, 0 discard KD, 1 draw, 1 discard QH,"
        " 0 draw, 0 discard JD, 1 draw, 1 discard JH, 0 draw, 0 discard 9C, 1 draw, 1 discard TC,"
        " 0 draw, 0 discard 9D, 1 take, 1 discard TD, 0 draw, 0 discard 4S, 1 take, 1 discard 6C,"
        " 0 draw"
    )
    for move in moves.split(", "):
        seat, _, text = move.partition(" ")
        state.apply(parse_action(text), int(seat))
    return state


def test_hard_does_not_knock_into_a_likely_undercut() -> None:
    state = _late_knock_position()
    view = state.view(0)
    assert set(view.hand) == set(_cards("5C 8C AD 3D 5D 5H 6H 8H AS 2S 8S"))
    assert Knock(Card.parse("6H")) in view.legal_actions
    # Knocking really is undercut: seat 1 lays down 2 deadwood (2D).
    trial = copy.deepcopy(state)
    trial.apply(Knock(Card.parse("6H")), 0)
    medium = MediumGinPlayer(1)
    while not trial.is_over:
        trial.apply(medium.choose(trial.view(1)), 1)
    assert trial.result is not None and trial.result.outcome.value == "undercut"
    # The hard player reads the two takes and the turns played as a strong hand and waits (the
    # old one, judging against hands dealt at random, knocked with every seed).
    for seed in range(1, 7):
        hint = HardGinPlayer(seed).suggest(view)
        assert isinstance(hint.action, Discard), (seed, str(hint))
        assert "gin.wait" in hint.reason.keys, (seed, str(hint))


def test_hard_deals_the_opponent_hands_as_good_as_a_real_one() -> None:
    """The knock is judged on sampled hands whose mean deadwood is the opponent's typical deadwood
    by then (24 after six discards), not the much higher mean of hands dealt at random."""
    state = _late_knock_position()
    view = state.view(0)
    an = _analyse(view)
    plain = _sample_deals(view, an, random.Random(3), 200, 10)
    tilted = _sample_deals(view, an, random.Random(3), 200, 10, 3)

    def mean(deals: list[_Deal]) -> float:
        return statistics.fmean(min_deadwood_mask(hand_mask(d.opponent)) for d in deals)

    target = OPPONENT_DEADWOOD[6]  # seat 1 has discarded six times (KS QH JH TC TD 6C)
    assert mean(plain) > target + 8
    assert abs(mean(tilted) - target) < 3
    assert len(tilted) == 200 and all(len(d.opponent) == 10 for d in tilted)
    for deal in tilted:  # still consistent with the view: the two cards it took, no seen card
        assert {Card.parse("9D"), Card.parse("4S")} <= set(deal.opponent)
        assert not set(deal.opponent) & (set(view.hand) | set(view.discard_pile))


def test_fast_layoff_count_matches_the_solver() -> None:
    rng = random.Random(5)
    pool = [c for c in STANDARD_PACK if c.number <= 8]  # dense: many melds and lay-offs
    laid = 0
    for _ in range(300):
        cards = rng.sample(pool, 20)
        melds = best_arrangement(cards[:10]).melds
        plan = best_layoffs(cards[10:], melds)
        assert _layoff_deadwood(hand_mask(cards[10:]), melds) == plan.deadwood
        laid += bool(plan.layoffs)
    assert laid > 50


# ------------------------------------------------------------------------------ memory


def _played(seed: int, steps: int) -> GinState:
    """A hand after ``steps`` actions of two medium players."""
    players: list[Player] = [MediumGinPlayer(1), MediumGinPlayer(2)]
    state = Gin().new_hand(seed=seed, dealer=0)
    for _ in range(steps):
        seat = state.to_act
        if seat is None:
            break
        state.apply(players[seat].choose(state.view(seat)), seat)
    return state


def test_memory_accounts_for_every_card() -> None:
    for seed in range(6):
        state = _played(seed, 14)
        if state.phase not in (Phase.DRAW, Phase.DISCARD):
            continue
        for seat in (0, 1):
            view = state.view(seat)
            memory = gin_memory(view)
            opp = 1 - seat
            assert memory.own == hand_mask(state.hands[seat])
            assert memory.unseen & memory.own == 0 and memory.unseen & memory.public == 0
            hidden = [c for c in state.hands[opp] if c not in state.known[opp]]
            assert memory.unseen == hand_mask(hidden) | hand_mask(state.stock)
            assert memory.seats[opp].hidden == len(hidden)
            assert memory.seats[opp].holds == tuple(state.known[opp])


SEAT0 = "AS 3S 5S 7S 9S JS 2H 4H 6H 8H"
SEAT1 = "2C 3C 4C 7D 7H 5H 5D AC 9C KD"


def test_memory_reads_takes_discards_and_refusals() -> None:
    state = _deal(SEAT0, SEAT1, "7C")
    state.apply(Take(), 1)  # 7C makes three 7s
    state.apply(Discard(Card.parse("KD")), 1)
    state.apply(Draw(), 0)  # draws past KD
    state.apply(Discard(Card.parse("JS")), 0)
    memory = gin_memory(state.view(0))
    opp = memory.seats[1]
    assert opp.took == (Card.parse("7C"),) and opp.holds == (Card.parse("7C"),)
    assert opp.discarded == (Card.parse("KD"),)
    assert memory.seats[0].refused == (Card.parse("KD"),)
    assert memory.seats[0].discarded == (Card.parse("JS"),)
    assert memory.top == Card.parse("JS")
    mine = gin_memory(state.view(1))  # seat 1 saw the same public events
    assert mine.seats[0].refused == (Card.parse("KD"),)
    assert mine.seats[1].took == (Card.parse("7C"),)


def test_the_first_up_card_is_named_when_taken_or_refused() -> None:
    state = _deal(SEAT0, SEAT1, "7C")
    state.apply(Take(), 1)
    state.apply(Discard(Card.parse("KD")), 1)
    assert gin_memory(state.view(0)).seats[1].took == (Card.parse("7C"),)
    passed = _deal(SEAT0, SEAT1, "QH")
    passed.apply(Pass(), 1)
    passed.apply(Pass(), 0)
    passed.apply(Draw(), 1)  # forced: not a refusal
    memory = gin_memory(passed.view(0))
    assert memory.seats[1].refused == (Card.parse("QH"),)
    assert memory.seats[0].refused == (Card.parse("QH"),)


def test_holding_weights_follow_the_evidence() -> None:
    state = _deal(SEAT0, SEAT1, "7C")
    state.apply(Take(), 1)
    state.apply(Discard(Card.parse("KD")), 1)
    memory = gin_memory(state.view(0))
    weights = holding_weights(memory, 1)
    w = {c: weights[c.index] for c in memory.unseen_cards()}
    assert w[Card.parse("7D")] > 1.0 and w[Card.parse("8C")] > 1.0  # near the taken 7C
    assert w[Card.parse("KC")] < 1.0 and w[Card.parse("QD")] < 1.0  # near the thrown KD
    assert w[Card.parse("2D")] == 1.0
    assert all(weights[c.index] == 0.0 for c in state.hands[0])
    chances = holding_chances(memory, 1, weights)
    assert chances[Card.parse("7C").index] == 1.0
    assert sum(chances) == pytest.approx(10.0, abs=0.6)
    assert meld_chance(Card.parse("7S"), chances) > meld_chance(Card.parse("QS"), chances)


def test_sampling_deals_only_unseen_cards() -> None:
    state = _played(3, 9)
    seat = state.to_act
    assert seat is not None
    memory: CardMemory = gin_memory(state.view(seat))
    opp = 1 - seat
    weights = [holding_weights(memory, s) if s != seat else [0.0] * 52 for s in (0, 1)]
    rng = random.Random(1)
    seen: set[int] = set()
    for _ in range(30):
        masks, stock = sample_hidden(memory, rng, weights)
        assert masks[seat] == 0
        assert masks[opp].bit_count() == memory.seats[opp].hidden
        assert len(stock) == memory.stock_size
        assert masks[opp] | hand_mask(stock) == memory.unseen
        seen.add(masks[opp])
    assert len(seen) > 20
    rejected = sample_hidden(memory, rng, weights, accept=lambda s, m: False, tries=3)
    assert rejected[0][opp].bit_count() == memory.seats[opp].hidden


# ------------------------------------------------------------------------------ strength


def _duplicate(a: str, b: str, deals: int, seed: int) -> int:
    """Hand points of ``a`` minus ``b`` over ``deals`` deals, each played with both seatings."""
    game = Gin()
    total = 0
    for index in range(deals):
        hand_seed = derive_seed(seed, index)
        for ours in (0, 1):
            players = [find_player("gin", b, hand_seed + 1), find_player("gin", b, hand_seed + 1)]
            players[ours] = find_player("gin", a, hand_seed + 2)
            state = play_hand(game, players, hand_seed, dealer=index % 2)
            result = state.result
            assert result is not None
            if result.winner is not None:
                total += result.points if result.winner == ours else -result.points
    return total


def test_levels_are_ordered_medium_beats_easy() -> None:
    """A seeded smoke check of the level order (the benchmark in bench/ measures it properly)."""
    assert _duplicate("medium", "easy", 40, 5) > 200


@pytest.mark.slow
def test_levels_are_ordered_hard_beats_medium() -> None:
    """Hard out-scores medium over the same deals (about 3.8 points a hand over 1000 deals both
    ways round in bench/gin_duel.py); 48 hands only catch a gross regression, such as hard waiting
    instead of knocking."""
    assert _duplicate("hard", "medium", 24, 3) > 0


def _python_calls(decide: Callable[[], object]) -> int:
    """How many Python function calls ``decide()`` makes: a measure of its work that, unlike a
    stopwatch, does not depend on the machine or on what else runs on it."""
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    before = sys.getprofile()
    sys.setprofile(count)
    try:
        decide()
    finally:
        sys.setprofile(before)
    return calls


def _work_per_decision(level: str, hands: int) -> list[int]:
    """Python calls of each decision ``level`` makes at seat 0 in ``hands`` seeded hands against
    medium."""
    work: list[int] = []
    for index in range(hands):
        players = [find_player("gin", level, index), find_player("gin", "medium", 9)]
        for state, seat in _walk(derive_seed(71, index), players, dealer=index % 2):
            if seat == 0:
                work.append(_python_calls(partial(players[0].choose, state.view(seat))))
    return work


def test_easy_and_medium_decide_with_little_work() -> None:
    """Easy and medium are the quick levels (bench/decision_time.py times them: median under
    10 ms). Their work is counted here, not timed, so that a busy machine cannot fail the test.
    Now: easy about 60 calls a decision at the median and 90 at most, medium about 50 and 700;
    hard, which samples deals and plays them out, about 5000 at the median. The bounds leave
    several times the room medium needs, and no room for a search like hard's."""
    for level in ("easy", "medium"):
        work = _work_per_decision(level, 4)
        assert min(work) > 0, level  # (choose itself is a call: the counter counts)
        assert statistics.median(work) < 500 and max(work) < 5000, (level, sorted(work))
    # The count tells such a search apart: hard's median decision is far over the bound.
    assert statistics.median(_work_per_decision("hard", 1)) > 2000


def test_views_are_gin_views() -> None:
    view = Gin().new_hand(seed=1).view(1)
    assert isinstance(view, GinView)
    action: Action = MediumGinPlayer(1).choose(view)
    assert action in (Take(), Pass())
