"""Crazy Rummy's action numbers and observation vectors (rummykit.encoding.crazy)."""

from __future__ import annotations

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
    Discard,
    Down,
    Draw,
    LayOff,
    Pass,
    Swap,
    Take,
    parse_action,
)
from rummykit.cards import JOKER, STANDARD_PACK, AnyCard, Card
from rummykit.encoding import CrazyEncoder, Encoder, encoder_for
from rummykit.encoding.crazy import DOWN, KIND_CARDS, NUM_ACTIONS
from rummykit.games.base import Phase
from rummykit.games.crazy import Crazy, CrazyOptions, CrazyState, CrazyView
from rummykit.wild_melds import Book

KINDS = 53


def _crazy(players: int = 4, **options: Any) -> CrazyEncoder:
    enc = encoder_for(Crazy(CrazyOptions(**options)), players)
    assert isinstance(enc, CrazyEncoder)
    return enc


def _counts(enc: Encoder, obs: list[float], name: str) -> Counter[AnyCard]:
    """The copies of each card kind a count plane says (a card's copy 0.5, a joker's 0.25)."""
    plane = enc.plane(name)
    assert plane.size == KINDS
    out: Counter[AnyCard] = Counter()
    for card in KIND_CARDS:
        value = obs[plane.start + card.index]
        if value:
            out[card] = round(value * (4 if card is JOKER else 2))
    return out


@pytest.mark.parametrize("players", range(2, 7))
def test_every_number_but_the_lay_down_is_one_action_and_back(players: int) -> None:
    enc = _crazy(players)
    assert enc.num_actions == NUM_ACTIONS == 3856
    seen = set()
    for i in range(enc.num_actions):
        if i == DOWN:
            continue
        action = enc.action(i)
        assert enc.id_of(action) == i
        assert parse_action(str(action)) == action
        seen.add(str(action))
    assert len(seen) == enc.num_actions - 1
    assert enc.id_of(parse_action("down 9C 9D 9S | 5H X 7H 8H")) == DOWN
    sizes = [p.size for p in enc.planes]
    assert sum(sizes) == enc.observation_size
    assert len(set(p.name for p in enc.planes)) == len(enc.planes)


def test_the_documented_numbers() -> None:
    enc = _crazy()
    named = {0: "draw", 1: "take", 2: "pass", 3: "buy", 5: "discard AC", 57: "discard X"}
    named |= {58: "layoff AC 1", 58 + 53: "layoff AC 1 low", 58 + 106 + 52: "layoff X 1 high"}
    named |= {58 + 159: "layoff AC 2", 2919: "layoff X 18 high", 2920: "swap AC 1"}
    named |= {3855: "swap KS 18"}
    assert {i: str(enc.action(i)) for i in named} == named


def test_the_lay_down_number_is_the_engines_lay_down_in_the_view() -> None:
    state = Crazy().new_hand(players=2, seed=3, round=1)
    enc = _crazy(2)
    with pytest.raises(ValueError, match="pass the view"):
        enc.action(DOWN)
    with pytest.raises(ValueError, match="no lay-down is legal"):
        enc.action(DOWN, state.view(0))
    # Give seat 1 two books, play to its turn, and the number is that lay-down.
    state = Crazy().new_hand(players=2, deal=_deal_with_books(), dealer=0)
    state.apply(Pass(), 0)
    state.apply(Draw(), 1)
    view = state.view(1)
    downs = [a for a in view.legal_actions if isinstance(a, Down)]
    assert len(downs) == 1 and DOWN in enc.legal_ids(view)
    assert enc.action(DOWN, view) == downs[0]
    state.apply(enc.action(DOWN, view), 1)
    assert state.laid_down[1]


def _deal_with_books() -> Any:
    from rummykit.cards import double_pack
    from rummykit.games.deal import Deal

    pack = list(double_pack(4))
    books = [Card.parse(t) for t in ["9C", "9D", "9S", "KC", "KD", "KH"]]
    for card in books:
        pack.remove(card)
    rng = random.Random(5)
    rng.shuffle(pack)
    hands = (tuple(pack[:7]), (*books, pack[7]))
    return Deal(hands=hands, up=pack[8], stock=tuple(pack[9:]))


def test_bad_calls_say_what_is_wrong() -> None:
    enc = _crazy(3)
    with pytest.raises(ValueError, match="2 to 6 players"):
        encoder_for("crazy", 7)
    with pytest.raises(ValueError, match="table of 4"):
        enc.observation(Crazy().new_hand(players=4, seed=1).view(0))
    with pytest.raises(TypeError, match="CrazyView"):
        enc.observation(_gin_view())
    for bad in ("layoff 7H 19", "swap 7H 19", "layoff X 19 low"):
        with pytest.raises(ValueError, match=bad):
            enc.id_of(parse_action(bad))
    assert enc.id_of(LayOff(Card.parse("7H"), 1)) == 58 + Card.parse("7H").index


def _gin_view() -> Any:
    from rummykit.games.gin import Gin

    return Gin().new_hand(seed=1).view(0)


def _check(enc: CrazyEncoder, state: CrazyState, rng: random.Random, deep: bool) -> None:
    """The mask is the engine's legal actions, one number each; observations read the view only."""
    for seat in range(state.players):
        view = state.view(seat)
        ids = enc.legal_ids(view)
        decoded = [enc.action(i, view) for i in ids]
        assert sorted(set(decoded), key=str) == sorted(set(view.legal_actions), key=str)
        assert len(set(ids)) == len(ids) == len(view.legal_actions)
        assert bool(ids) == (seat == state.to_act and not state.is_over)
        mask = enc.legal_mask(view)
        assert [i for i, m in enumerate(mask) if m] == ids
        if not deep:
            continue
        obs = enc.observation(view)
        assert len(obs) == enc.observation_size and all(0.0 <= x <= 1.0 for x in obs)
        assert _counts(enc, obs, "hand") == Counter(view.hand)
        assert _counts(enc, obs, "table") == Counter(c for t in state.table for c in t.meld.cards)
        assert _counts(enc, obs, "discard_top") == Counter(view.discard_pile[-1:])
        assert _counts(enc, obs, "discard_below") == Counter(view.discard_pile[:-1])
        for k in range(1, state.players):
            other = (seat + k) % state.players
            assert _counts(enc, obs, f"left{k}_known") == Counter(view.known_cards[other])
            size = obs[enc.plane(f"left{k}_hand_size").start]
            assert size == pytest.approx(min(len(state.hands[other]), 30) / 30)
            assert obs[enc.plane(f"left{k}_laid_down").start] == float(state.laid_down[other])
        for number in range(len(state.table) + 1, 19):  # the meld slots not in use are empty
            empty = enc.plane(f"meld{number}")
            assert not any(obs[empty.start : empty.start + empty.size])
        accepts = {
            card
            for card in KIND_CARDS
            for t in state.table
            if (
                t.meld.accepts(card, enc.rules)
                if isinstance(t.meld, Book)
                else t.meld.layoff_ends(card, enc.rules)
            )
        }
        plane = enc.plane("table_accepts")
        assert {c for c in KIND_CARDS if obs[plane.start + c.index]} == accepts
        for number, table_meld in enumerate(state.table, 1):
            meld_plane = enc.plane(f"meld{number}")
            assert obs[meld_plane.start] == 1.0
            places = obs[meld_plane.start + 6 + state.players :][:14]
            assert sum(1 for p in places if p) == (
                1 if isinstance(table_meld.meld, Book) else len(table_meld.meld.cards)
            )
        # Nothing hidden: a copy of the round with every unseen card dealt again reads the same.
        guess = state.resample(seat, random.Random(rng.randrange(2**32)))
        assert enc.observation(guess.view(seat)) == obs


_OPTIONS = st.fixed_dictionaries(
    {
        "jokers": st.sampled_from([0, 2, 4]),
        "swap_requires_down": st.booleans(),
        "discard_to_go_out": st.booleans(),
        "discard_taken_twin": st.booleans(),
        "buy_keeps_draw": st.booleans(),
        "max_wilds_run": st.sampled_from([1, 2, 3]),
        "max_buys_per_round": st.sampled_from([None, 1]),
    }
)


@pytest.mark.slow
@settings(max_examples=examples(30), deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    round_=st.integers(1, 7),
    options=_OPTIONS,
)
def test_random_rounds_every_legal_number_is_a_legal_action_and_back(
    players: int, seed: int, round_: int, options: dict[str, Any]
) -> None:
    game = Crazy(CrazyOptions(**options))
    enc = _crazy(players, **options)
    state = game.new_hand(players=players, seed=seed, dealer=seed % players, round=round_)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        _check(enc, state, rng, deep=steps % 7 == 0)
        assert state.to_act is not None
        view = state.view(state.to_act)
        ids = enc.legal_ids(view)
        plays = [i for i in ids if i == DOWN or i >= 58]
        number = rng.choice(plays if plays and rng.random() < 0.8 else ids)
        state.apply(enc.action(number, view), state.to_act)
        steps += 1
        assert steps < 20000
    _check(enc, state, rng, deep=True)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 7))
def test_random_masked_play_completes_seven_round_games(players: int) -> None:
    enc = _crazy(players)
    match = Crazy().new_match(players=players, seed=players)
    rng = random.Random(players)
    kinds: Counter[type] = Counter()
    while not match.is_over:
        hand = match.hand
        seat = hand.to_act
        if seat is None:
            match.next_hand()
            continue
        view = match.view(seat)
        mask = enc.legal_mask(view)
        legal = [i for i, m in enumerate(mask) if m]
        assert legal
        plays = [i for i in legal if i == DOWN or i >= 58]
        number = rng.choice(plays if plays and rng.random() < 0.8 else legal)
        action: Action = enc.action(number, view)
        kinds[type(action)] += 1
        match.apply(action, seat)
    assert match.result is not None and len(match.result.rounds) == 7
    assert kinds[Down] >= 7 and kinds[Discard] and kinds[Draw] and kinds[LayOff]
    if players > 2:
        assert kinds[Buy] or kinds[Pass]
    assert kinds[Take]


def test_a_swap_and_a_buy_have_numbers_in_the_mask() -> None:
    """Seen in random play: some position offers a swap, another a buy, each with its number."""
    enc = _crazy(4, swap_requires_down=False)
    found: set[type] = set()
    for seed in range(40):
        state = Crazy(CrazyOptions(swap_requires_down=False)).new_hand(
            players=4, seed=seed, round=3
        )
        rng = random.Random(seed)
        while not state.is_over and found != {Swap, Buy}:
            assert state.to_act is not None
            view = state.view(state.to_act)
            ids = enc.legal_ids(view)
            for i in ids:
                action = enc.action(i, view)
                if isinstance(action, Swap | Buy):
                    found.add(type(action))
                    assert i >= 2920 if isinstance(action, Swap) else i == 3
            plays = [i for i in ids if i == DOWN or i >= 58]
            state.apply(enc.action(rng.choice(plays or ids), view), state.to_act)
        if found == {Swap, Buy}:
            break
    assert found == {Swap, Buy}


def test_the_phase_and_whose_turn_are_read_from_the_viewer() -> None:
    enc = _crazy(3)
    state = Crazy().new_hand(players=3, seed=2, dealer=1)
    obs = enc.observation(state.view(2))
    phase = enc.plane("phase")
    assert obs[phase.start : phase.start + phase.size] == [1.0, 0.0, 0.0, 0.0, 0.0]
    dealer = enc.plane("dealer")
    assert obs[dealer.start : dealer.start + 3] == [0.0, 0.0, 1.0]  # the dealer is 2 seats on
    assert obs[enc.plane("on_offer").start] == 1.0
    assert obs[enc.plane("round").start] == 1.0
    view = state.view(1)
    assert isinstance(view, CrazyView) and view.phase is Phase.OFFER
    assert enc.legal_ids(view) == [1, 2]
    assert all(isinstance(c, Card) for c in STANDARD_PACK)
