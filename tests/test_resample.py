"""``state.resample(seat, rng)``: a hand the seat cannot tell from the true one, hidden cards dealt
again (determinization for search), in Gin, Basic Rummy (both presets) and Crazy Rummy."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import (
    Action,
    Buy,
    Done,
    Down,
    Knock,
    LayOff,
    NewMeld,
    Swap,
    Take,
    parse_action,
)
from rummykit.cards import STANDARD_PACK, Card, parse_cards
from rummykit.games import Crazy, Gin, Rummy, find_game
from rummykit.games.base import HandState, Phase, information_state
from rummykit.games.crazy import CrazyState
from rummykit.games.deal import Deal
from rummykit.games.gin import GinState
from rummykit.games.mechanics import PUBLIC
from rummykit.games.rummy import RummyState
from rummykit.record import RecordError, dump_record, hand_record, load_record, match_record

AnyState = GinState | RummyState | CrazyState


# ------------------------------------------------------------------------------------ helpers


def new_state(name: str, players: int, seed: int, round: int = 1) -> AnyState:
    game = find_game(name)
    if isinstance(game, Crazy):
        return game.new_hand(players=players, seed=seed, dealer=seed % players, round=round)
    state = game.new_hand(players=players, seed=seed, dealer=seed % players)
    assert isinstance(state, GinState | RummyState)
    return state


def random_move(state: HandState, rng: random.Random, keen: float) -> Action:
    """A random legal action; with chance ``keen`` a take, buy, meld or lay-off when there is one
    (so that positions with known cards and a table come up), else any."""
    legal = state.legal_actions()
    plays = [a for a in legal if isinstance(a, Take | Buy | NewMeld | Down | LayOff | Swap)]
    if plays and rng.random() < keen:
        return rng.choice(plays)
    return rng.choice(legal)


def play(state: HandState, rng: random.Random, steps: int, keen: float = 0.3) -> None:
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(random_move(state, rng, keen))


def play_out(state: HandState, rng: random.Random) -> None:
    """Random legal play to the end of the hand: melds and lay-offs preferred, and no takes from
    the pile (two players taking each other's discards could go on for ever), so it ends."""
    for _ in range(5000):
        if state.is_over:
            return
        legal = [a for a in state.legal_actions() if not isinstance(a, Take)]
        plays = [a for a in legal if isinstance(a, NewMeld | Down | LayOff | Swap)]
        state.apply(rng.choice(plays if plays and rng.random() < 0.7 else legal))
    raise AssertionError("the hand did not end")


def snapshot(state: Any) -> dict[str, Any]:
    """Every attribute of a hand state as plain values (its generator as its state), but for the
    caches that ``legal_actions`` fills."""
    out: dict[str, Any] = {}
    for name, value in vars(state).items():
        if name in ("_deadwoods", "_down_memo"):
            continue
        if isinstance(value, random.Random):
            out[name] = value.getstate()
        elif name in ("game", "options", "rules"):
            out[name] = id(value)
        else:
            out[name] = copy.deepcopy(value)
    return out


def pack_of(state: AnyState) -> Counter[Any]:
    """Every card of the hand wherever it is: hands, stock, pile, table, a knock card."""
    cards: Counter[Any] = Counter()
    for hand in state.hands:
        cards.update(hand)
    cards.update(state.stock)
    cards.update(state.discard_pile)
    if isinstance(state, GinState):
        if state.knock_card is not None:
            cards[state.knock_card] += 1
        if state.knocker is not None:
            cards.update(c for c, _ in state.layoffs)  # on the knocker's melds, not in a hand
    else:
        for meld in state.table:
            cards.update(meld.meld.cards)
    return cards


def full_pack(state: AnyState) -> Counter[Any]:
    if isinstance(state, CrazyState):
        return Counter(state.game.pack)
    return Counter(STANDARD_PACK)


def tagged(state: Any, tag: int) -> Counter[Any]:
    """The cards of the other hands drawn from restock ``tag``'s stock, with that stock."""
    out: Counter[Any] = Counter()
    tags = getattr(state, "_tags", None) or []
    for seat_tags in tags:
        out.update(card for t, card in seat_tags if t == tag)
    if state.restocks == tag and not (
        isinstance(state, RummyState) and state._stock_tag() == PUBLIC
    ):
        out.update(state.stock)
    return out


def check_resample(state: Any, seat: int, rng: random.Random) -> Any:
    """Resample ``state`` for ``seat`` and check every promise of ``resample``."""
    before = snapshot(state)
    view = state.view(seat).to_dict()
    new = state.resample(seat, rng)
    # The original is unchanged.
    assert snapshot(state) == before
    assert state.view(seat).to_dict() == view
    assert new.resampled
    # The seat cannot tell them apart.
    assert new.view(seat).to_dict() == view
    if state.to_act == seat:
        assert new.legal_actions() == state.legal_actions()
    assert new.phase is state.phase and new.to_act == state.to_act
    # Its own hand and everything public never move.
    assert new.hands[seat] == state.hands[seat]
    assert new.discard_pile == state.discard_pile
    assert [len(h) for h in new.hands] == [len(h) for h in state.hands]
    assert len(new.stock) == len(state.stock)
    # Every card exactly once (twice with two packs).
    assert pack_of(new) == pack_of(state) == full_pack(state)
    # Known cards stay with their holders.
    assert new.known == state.known
    for hand, known in zip(new.hands, new.known, strict=True):
        assert not Counter(known) - Counter(hand)
    # Cards seen going into a hand (swapped wilds, draws from a turned-over stock) stay too, and
    # a shuffled restock's cards stay among its stock and the cards drawn from it.
    tags = getattr(state, "_tags", None)
    if tags:
        new_tags = new._tags
        for other in range(len(state.hands)):
            old_public = Counter(c for t, c in tags[other] if t == PUBLIC)
            assert Counter(c for t, c in new_tags[other] if t == PUBLIC) == old_public
            assert not old_public - Counter(new.hands[other])
            assert not Counter(c for _, c in new_tags[other]) - Counter(new.hands[other])
        for tag in range(1, state.restocks + 1):
            assert tagged(new, tag) == tagged(state, tag)
    if isinstance(state, RummyState) and state._stock_tag() == PUBLIC:
        assert new.stock == state.stock  # turned over: its order is known to all
    return new


# ------------------------------------------------------------------------ property tests


TABLES = st.one_of(
    st.tuples(st.just("gin"), st.just(2)),
    st.tuples(st.sampled_from(["rummy", "rummy-classic"]), st.integers(2, 6)),
    st.tuples(st.just("crazy"), st.integers(2, 6)),
)


@settings(max_examples=examples(60), deadline=None)
@given(
    TABLES,
    st.integers(0, 2**32),
    st.integers(0, 400),
    st.floats(0, 1),
    st.integers(1, 7),
    st.integers(0, 5),
)
def test_resample_keeps_the_seats_view_and_plays_on(
    table: tuple[str, int], seed: int, steps: int, keen: float, round: int, seat_pick: int
) -> None:
    name, players = table
    state = new_state(name, players, seed, round)
    rng = random.Random(seed)
    play(state, rng, steps, keen)
    seat = seat_pick % players
    new = check_resample(state, seat, random.Random(seed + 1))
    # A resample of a resample is one too; another seat's resample of the same position also.
    check_resample(new, seat, random.Random(seed + 2))
    check_resample(state, (seat + 1) % players, random.Random(seed + 3))
    # The resampled hand plays on to its end, and the original is untouched by it.
    before = snapshot(state)
    play_out(new, random.Random(seed + 4))
    assert new.is_over and new.result is not None
    assert pack_of(new) == full_pack(state)
    assert snapshot(state) == before


@settings(max_examples=examples(25), deadline=None)
@given(
    st.sampled_from(["rummy", "rummy-classic", "crazy"]),
    st.integers(2, 6),
    st.integers(0, 2**32),
    st.integers(0, 5),
)
def test_resample_after_restocks(name: str, players: int, seed: int, seat_pick: int) -> None:
    # Plain random play (mostly discards) runs the stock out; resample at every restock.
    state = new_state(name, players, seed, round=7 if name == "crazy" else 1)
    assert not isinstance(state, GinState)
    rng = random.Random(seed)
    seen = 0
    while not state.is_over and seen < 3:
        restocks = state.restocks
        state.apply(random_move(state, rng, 0.05))
        if state.restocks > restocks or (state.restocks and rng.random() < 0.05):
            seen += 1
            seat = (seat_pick + seen) % players
            new = check_resample(state, seat, random.Random(seed + seen))
            play_out(new, random.Random(seed - seen))


# ---------------------------------------------------------------------------- specific cases


def test_known_cards_and_buys_stay_in_crazy_rummy() -> None:
    # Find a round where a seat other than 0 bought a card, then resample for seat 0.
    for seed in range(200):
        state = Crazy().new_hand(players=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            legal = state.legal_actions()
            buys = [a for a in legal if isinstance(a, Buy)]
            action = buys[0] if buys and state.to_act != 0 else rng.choice(legal)
            state.apply(action)
            if buys and action is buys[0]:
                buyer = state.history[-1][0]
                assert state.known[buyer]
                for n in range(20):
                    new = check_resample(state, 0, random.Random(n))
                    assert not Counter(state.known[buyer]) - Counter(new.hands[buyer])
                return
    raise AssertionError("no buy in 200 rounds")


def test_swapped_wilds_stay_with_who_swapped_them() -> None:
    # Round 3 (2 runs): seat 1 lays down a run with a joker, seat 0 swaps its 6H for the joker.
    hands = [parse_cards("4S 5S 6S 7S 9D TD JD QD 6H"), parse_cards("5H X 7H 8H 9C TC JC QC 3D")]
    top = parse_cards("KH 3C")
    pack = Counter(Crazy().pack)
    pack.subtract([*hands[0], *hands[1], *top, Card.parse("KS")])
    stock = (*top, *sorted(pack.elements(), key=lambda c: c.sort_key))
    state = Crazy().new_hand(
        players=2, deal=Deal(tuple(hands), Card.parse("KS"), stock), dealer=0, round=3
    )
    for text in ["pass", "draw", "down 5H X 7H 8H | 9C TC JC QC", "discard KH", "draw"]:
        state.apply(parse_action(text))
    state.apply(parse_action("down 4S 5S 6S 7S | 9D TD JD QD"))
    state.apply(parse_action("swap 6H 1"))
    joker = state.hands[0][-1]
    assert str(joker) == "X" and state._tags[0] == [(PUBLIC, joker)]
    moved = 0
    for n in range(30):
        new = check_resample(state, 1, random.Random(n))
        assert joker in new.hands[0] and new._tags[0] == [(PUBLIC, joker)]
        moved += str(new.hands[0][0]) != "3C"
    assert moved > 20  # the other card (3C, drawn from the stock) is dealt again
    state.apply(parse_action("discard X"))  # a swapped wild thrown is forgotten
    assert state._tags[0] == []


def test_a_turned_over_stock_stays_and_a_shuffled_one_is_dealt_again() -> None:
    def after_restock(preset: str) -> RummyState:
        for seed in range(100):
            state = Rummy.preset(preset).new_hand(players=3, seed=seed)
            rng = random.Random(seed)
            while not state.is_over:
                state.apply(random_move(state, rng, 0.0))
                ready = state.restocks and len(state.stock) >= 10 and state.phase is Phase.DRAW
                if ready and any(state._tags or ()):
                    return state
        raise AssertionError("no restock")

    turned = after_restock("rummy")
    for n in range(10):
        new = check_resample(turned, 0, random.Random(n))
        assert new.stock == turned.stock
        for seat in (1, 2):
            drawn = [c for _, c in (turned._tags or [])[seat]]
            assert all(c in new.hands[seat] for c in drawn)
    shuffled = after_restock("rummy-classic")
    stocks = {tuple(shuffled.resample(0, random.Random(n)).stock) for n in range(10)}
    assert len(stocks) > 1
    pile = set(tagged(shuffled, shuffled.restocks))
    assert all(set(s) <= pile for s in stocks)


def test_the_restock_generator_is_seeded_again() -> None:
    state = Rummy.preset("rummy-classic").new_hand(players=2, seed=3)
    rng = random.Random(3)
    while len(state.stock) > 0 and not state.is_over:
        state.apply(random_move(state, rng, 0.0))
        if len(state.stock) == 0:
            break
    assert not state.is_over and not state.stock and state.restocks == 0
    # The next discard turns the pile into a shuffled stock: its order is hidden information.
    discard = next(a for a in state.legal_actions() if str(a).startswith("discard"))
    orders = set()
    for n in range(6):
        new = state.resample(1 - state.to_act if state.to_act is not None else 0, random.Random(n))
        new.apply(discard)
        orders.add(tuple(new.stock))
    truth = state.clone()
    truth.apply(discard)
    assert len(orders) > 1 and truth.restocks == 1


def test_each_hidden_card_lands_everywhere_about_evenly() -> None:
    state = Gin().new_hand(seed=11)
    play(state, random.Random(11), 14, keen=0.5)
    assert state.phase is Phase.DRAW and state.to_act == 0
    opponent = [c for c in state.hands[1] if c not in state.known[1]]
    hidden = opponent + state.stock
    share = len(opponent) / len(hidden)
    in_hand: Counter[Any] = Counter()
    on_top: Counter[Any] = Counter()
    draws = 200
    for n in range(draws):
        new = state.resample(0, random.Random(n))
        in_hand.update(new.hands[1])
        on_top[new.stock[-1]] += 1
        assert all(c in new.hands[1] for c in state.known[1])
    for card in hidden:
        assert abs(in_hand[card] / draws - share) < 0.2, card
    assert set(on_top) <= set(hidden) and len(on_top) > len(hidden) // 2
    assert max(on_top.values()) < draws * 0.2


def test_rngs_decide_the_deal() -> None:
    for name, players in (("gin", 2), ("rummy", 4), ("rummy-classic", 3), ("crazy", 4)):
        state = new_state(name, players, 5)
        play(state, random.Random(5), 12)
        one = state.resample(0, random.Random(1))
        again = state.resample(0, random.Random(1))
        other = state.resample(0, random.Random(2))
        assert one.hands == again.hands and one.stock == again.stock
        assert (one.hands, one.stock) != (other.hands, other.stock)
        fresh = state.resample(0)  # rng=None: a fresh generator
        assert fresh.view(0).to_dict() == state.view(0).to_dict()


def test_resample_refuses_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="Gin has seats 0 and 1"):
        Gin().new_hand(seed=1).resample(2)
    with pytest.raises(ValueError, match="no seat 4 at a table of 4"):
        Rummy().new_hand(players=4, seed=1).resample(4)
    with pytest.raises(ValueError, match="no seat True"):
        Crazy().new_hand(players=4, seed=1).resample(True)


def test_gin_knock_card_is_dealt_again_for_the_defender() -> None:
    for seed in range(300):
        state = Gin().new_hand(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            knocks = [a for a in legal if isinstance(a, Knock)]
            if knocks:
                state.apply(knocks[0])
                break
            state.apply(rng.choice(legal))
        if state.phase is Phase.LAYOFF:
            break
    else:
        raise AssertionError("no knock")
    knocker = state.knocker
    assert knocker is not None and state.knock_card is not None
    defender = 1 - knocker
    cards: Counter[Any] = Counter()
    for n in range(60):
        new = check_resample(state, defender, random.Random(n))
        assert new.hands[knocker] == state.hands[knocker]  # face up
        assert new.knock_card is not None
        cards[new.knock_card] += 1
        assert new.knock_card in state.stock or new.knock_card == state.knock_card
        seat, knock = new.history[-1]
        assert seat == knocker and isinstance(knock, Knock) and knock.card == new.knock_card
        assert new._notation[-1] == (knocker, str(knock))
        assert new.view(defender).legal_actions == state.view(defender).legal_actions
        new.apply(Done())
        assert new.result is not None
    assert len(cards) > 5
    # The knocker knows its own card and sees nothing of the defender's taken cards move.
    mine = check_resample(state, knocker, random.Random(1))
    assert mine.knock_card == state.knock_card and mine.history == state.history
    # Once scored, both hands are face up: only the stock (and the knock card) is hidden.
    over = state.clone()
    over.apply(Done())
    again = check_resample(over, defender, random.Random(2))
    assert again.hands == over.hands


def test_a_resampled_hand_has_no_record() -> None:
    state = Gin().new_hand(seed=7)
    play(state, random.Random(7), 10)
    new = state.resample(0, random.Random(1))
    with pytest.raises(RecordError, match="a resampled state has no record"):
        hand_record(new)
    # A clone of it neither; the hand it came from still has its record.
    with pytest.raises(RecordError, match="no deal explains its history"):
        hand_record(new.clone())
    record = hand_record(state)
    assert load_record(dump_record(record)).view(0).to_dict() == state.view(0).to_dict()
    match = Rummy().new_match(players=3, seed=4)
    match.hands[-1] = match.hand.resample(1, random.Random(0))
    with pytest.raises(RecordError, match="a resampled state has no record"):
        match_record(match)


def test_a_resampled_hand_keeps_no_trace_of_the_true_deal() -> None:
    # The true seed would deal the true hand again, and the true deal would tell where every
    # hidden card started: a resampled hand keeps only what the seat saw dealt.
    for name, players in (("gin", 2), ("rummy", 4), ("crazy", 3)):
        state = new_state(name, players, 9)
        play(state, random.Random(9), 8)
        assert state.seed is not None
        guesses = [state.resample(1, random.Random(k)) for k in range(6)]
        for guess in guesses:
            assert guess.seed is None
            assert guess.deal.hands[1] == state.deal.hands[1] and guess.deal.up == state.deal.up
            dealt = [c for h in guess.deal.hands for c in h] + [guess.deal.up, *guess.deal.stock]
            true = [c for h in state.deal.hands for c in h] + [state.deal.up, *state.deal.stock]
            assert sorted(map(str, dealt)) == sorted(map(str, true))
            assert [len(h) for h in guess.deal.hands] == [len(h) for h in state.deal.hands]
        # The other seats' dealt hands are a guess, not the truth, and differ between guesses.
        others = {tuple(g.deal.hands[0]) for g in guesses}
        assert len(others) > 1 and tuple(state.deal.hands[0]) not in others


@settings(max_examples=examples(25), deadline=None)
@given(
    setup=st.sampled_from([("gin", 2), ("rummy", 4), ("rummy-classic", 3), ("crazy", 4)]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
)
def test_the_information_state_is_what_the_seat_knows(
    setup: tuple[str, int], seed: int, steps: int
) -> None:
    name, players = setup
    state = new_state(name, players, seed)
    play(state, random.Random(seed), steps)
    rng = random.Random(seed + 1)
    for seat in range(players):
        key = state.information_state(seat)
        assert key == information_state(state.view(seat))
        # The same for any deal of what the seat cannot see, and for a clone ...
        assert state.resample(seat, rng).information_state(seat) == key
        assert state.clone().information_state(seat) == key
        # ... and not for another seat, which holds other cards.
        assert all(state.information_state(o) != key for o in range(players) if o != seat)
    if not state.is_over:
        # A move changes what every seat knows (the history at least).
        before = [state.information_state(s) for s in range(players)]
        state.apply(random_move(state, rng, 0.3))
        assert all(state.information_state(s) != before[s] for s in range(players))
