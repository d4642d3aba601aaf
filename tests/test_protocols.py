"""Every game offers the same shape: hands with verify/can/apply/view, matches with a view."""

from __future__ import annotations

import copy
import random
import re
from typing import Any, assert_type

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import Discard, Draw
from rummykit.cards import STANDARD_PACK, Card
from rummykit.games import Crazy, Gin, Rummy, find_game
from rummykit.games.base import Game, HandState, IllegalActionError
from rummykit.games.gin import GinMatchView, GinState
from rummykit.games.match import MatchView
from rummykit.players import RandomPlayer
from rummykit.sim import play_hand

TABLES = [("gin", 2), ("rummy", 4), ("rummy-classic", 3), ("crazy", 4)]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_can_and_verify_agree_with_legal_actions(name: str, players: int) -> None:
    hand = find_game(name).new_hand(players=players, seed=5)
    for _ in range(40):
        seat = hand.to_act
        if seat is None:
            break
        legal = hand.legal_actions()
        candidates = [*legal, Draw(), *(Discard(c) for c in STANDARD_PACK[:13])]
        for action in candidates:
            assert hand.can(action, seat) == (action in legal), (name, action)
            if action not in legal:
                with pytest.raises(IllegalActionError):
                    hand.verify(action, seat)
        hand.apply(legal[0], seat)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_match_has_the_same_view(name: str, players: int) -> None:
    game = find_game(name)
    match = game.new_match(players=players, seed=9)
    bots = [RandomPlayer(seat) for seat in range(players)]
    first = match.view(1)
    assert isinstance(first, MatchView) and first.hand_number == 1 and not first.over
    assert first.scores == (0,) * players and first.hand_scores == ()
    assert first.hand.seat == 1 and first.to_dict()["hand"] == match.hand.view(1).to_dict()
    state = match.hand
    while state.to_act is not None:
        seat = state.to_act
        match.apply(bots[seat].choose(state.view(seat)), seat)
    after = match.view(0)
    assert state.result is not None and after.hand_scores == (state.result.scores,)
    assert after.scores == match.scores()
    data = after.to_dict()
    assert {"hand", "hand_number", "scores", "hand_scores", "result", "over"} <= set(data)
    assert isinstance(after, GinMatchView) == (name == "gin")
    if name == "gin":
        assert set(data) >= {"boxes", "target_score"}
    assert play_hand(game, bots, 3).is_over


def _state_key(state: HandState) -> dict[str, Any]:
    """Everything a hand state holds, comparable (a generator by its state)."""
    key = {k: v.getstate() if isinstance(v, random.Random) else v for k, v in vars(state).items()}
    key["game"] = (type(state.game), state.game.options)
    return key


def _play_randomly(state: HandState, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.to_act
        if seat is None:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))], seat)


@settings(max_examples=examples(40), deadline=None)
@given(
    table=st.sampled_from([*TABLES, ("rummy-classic", 6), ("crazy", 2)]),
    seed=st.integers(0, 10**6),
    branch=st.integers(0, 120),
)
def test_a_clone_plays_on_like_a_deep_copy_and_leaves_the_original_alone(
    table: tuple[str, int], seed: int, branch: int
) -> None:
    name, players = table
    state = find_game(name).new_hand(players=players, seed=seed)
    _play_randomly(state, seed, branch)
    before = copy.deepcopy(state)
    clone = state.clone()
    deep = copy.deepcopy(state)
    assert type(clone) is type(state) and _state_key(clone) == _state_key(deep)
    # Both play on to the end of the hand (restocks included: they draw on the generator).
    _play_randomly(clone, seed + 1, 3000)
    _play_randomly(deep, seed + 1, 3000)
    assert _state_key(clone) == _state_key(deep)
    assert clone.result == deep.result and clone.view(0).to_dict() == deep.view(0).to_dict()
    assert _state_key(state) == _state_key(before)  # the original did not move


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_cloned_match_plays_on_alone(name: str, players: int) -> None:
    match = find_game(name).new_match(players=players, seed=3)
    _play_randomly(match.hand, 3, 25)
    before = copy.deepcopy(match)
    clone, deep = match.clone(), copy.deepcopy(match)
    for m in (clone, deep):  # two hands more, the same way
        for number in range(2):
            _play_randomly(m.hand, number, 3000)
            if m.is_over:
                break
            m.next_hand()
    assert len(clone.hands) == len(deep.hands) > len(match.hands)
    assert clone.scores() == deep.scores()
    assert _state_key(clone.hand) == _state_key(deep.hand)
    assert len(match.hands) == len(before.hands) and match.scores() == before.scores()
    assert _state_key(match.hand) == _state_key(before.hand)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_match_played_through_its_hands_ends_like_one_played_through_apply(
    name: str, players: int
) -> None:
    options = {} if name == "crazy" else {"target_score": 40}
    direct = find_game(name, options).new_match(players=players, seed=4)
    through = find_game(name, options).new_match(players=players, seed=4)
    for number in range(60):
        rng = random.Random(number)
        while direct.hand.to_act is not None:
            legal = direct.hand.legal_actions()
            action = legal[rng.randrange(len(legal))]
            direct.apply(action, direct.hand.to_act)
            through.hand.apply(action, through.hand.to_act)  # the hand only, not the match
        assert through.is_over == direct.is_over
        if direct.is_over:
            break
        direct.next_hand()
        through.next_hand()
    assert through.result == direct.result is not None
    with pytest.raises(IllegalActionError, match="is over"):
        through.next_hand()


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_results_as_json_share_their_keys(name: str, players: int) -> None:
    options = {} if name == "crazy" else {"target_score": 30}
    match = find_game(name, options).new_match(players=players, seed=6)
    while not match.is_over:
        _play_randomly(match.hand, len(match.hands), 3000)
        if not match.is_over:
            match.next_hand()
    hand = match.hand.result
    assert hand is not None and match.result is not None
    assert hand.to_dict()["scores"] == list(hand.scores) and len(hand.scores) == players
    assert match.result.to_dict()["winners"] == list(match.result.winners)


@pytest.mark.parametrize(("name", "players"), TABLES)
@pytest.mark.parametrize("seat", [1.0, True, "0", -1, None, 99])
def test_anything_but_a_seat_number_is_refused_clearly(name: str, players: int, seat: Any) -> None:
    """``view``, ``resample`` and a deal's ``dealer`` take a seat number only: a float or a bool
    equal to a seat (1.0 == True == 1) is refused with the same clear ValueError as a seat out of
    range (a float used to fail inside with a list-index TypeError)."""
    game = find_game(name)
    hand = game.new_hand(players=players, seed=2)
    before = copy.deepcopy(hand.history)
    with pytest.raises(ValueError, match=re.escape(repr(seat))):
        hand.view(seat)
    with pytest.raises(ValueError, match="seat"):
        hand.resample(seat)
    if seat is not None:  # (None: the default dealer)
        with pytest.raises(ValueError):
            game.new_hand(players=players, seed=2, dealer=seat)
    assert hand.history == before


def test_a_game_named_in_code_has_its_own_type() -> None:
    """``find_game("gin")`` gives a type checker (mypy runs over the tests) the game's class and
    so its states, results and views: a researcher's code type-checks without casts."""
    gin = find_game("gin")
    assert_type(gin, Gin)
    assert_type(find_game("rummy-classic"), Rummy)
    assert_type(find_game("crazy-rummy"), Crazy)
    assert_type(find_game("gin".upper()), Game)  # (any other string: some game)
    state = gin.new_hand(seed=7)
    assert_type(state, GinState)
    assert len(state.hands[0]) == 10 and state.result is None
    assert_type(state.view(0).hand, tuple[Card, ...])
    assert type(find_game("rummy-classic")) is Rummy and type(find_game("crazy-rummy")) is Crazy


class _NumpyLikeSeat:
    """A whole number that is not an ``int`` (as NumPy's ``int64``): it has ``__index__``."""

    def __index__(self) -> int:
        return 1


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_seat_number_of_another_integer_type_is_taken(name: str, players: int) -> None:
    """Research loops pass NumPy's integers as seats: anything with ``__index__`` is a seat."""
    hand = find_game(name).new_hand(players=players, seed=2)
    seat: Any = _NumpyLikeSeat()
    assert hand.view(seat) == hand.view(1)
    assert hand.resample(seat, random.Random(1)).view(1).to_dict() == hand.view(1).to_dict()


def _by_name(state: HandState, action: Any) -> None:
    """``action`` through the state's named method, given as text where the method takes it."""
    cards = " ".join(str(c) for c in getattr(action, "cards", ()))
    calls = {
        "Draw": lambda: state.draw(),  # type: ignore[attr-defined]
        "Take": lambda: state.take(),  # type: ignore[attr-defined]
        "Pass": lambda: state.pass_(),  # type: ignore[attr-defined]
        "Buy": lambda: state.buy(),  # type: ignore[attr-defined]
        "Discard": lambda: state.discard(str(action.card)),  # type: ignore[attr-defined]
        "Knock": lambda: state.knock(str(action.card), action.melds),  # type: ignore[attr-defined]
        "BigGin": lambda: state.big_gin(),  # type: ignore[attr-defined]
        "Done": lambda: state.done(),  # type: ignore[attr-defined]
        "NewMeld": lambda: state.meld(cards),  # type: ignore[attr-defined]
        "LayOff": lambda: state.lay_off(str(action.card), action.meld, action.end),  # type: ignore[attr-defined]
        "Swap": lambda: state.swap(str(action.card), action.meld),  # type: ignore[attr-defined]
        "Down": lambda: state.down(  # type: ignore[attr-defined]
            " | ".join(" ".join(str(c) for c in group) for group in action.melds)
        ),
    }
    calls[type(action).__name__]()


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_action_has_a_named_method_that_does_what_apply_does(name: str, players: int) -> None:
    seen: set[str] = set()
    for seed in range(1, 9):
        state = find_game(name).new_hand(players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(state.history) < 400:
            legal = state.legal_actions()
            # (an action of every kind when there is one, so lay-downs and lay-offs come up)
            fresh = [a for a in legal if type(a).__name__ not in seen]
            action = rng.choice(fresh or legal)
            by_name = state.clone()
            _by_name(by_name, action)
            state.apply(action)
            assert by_name == state, (name, str(action))
            seen.add(type(action).__name__)
    expected = {
        "gin": {"Draw", "Take", "Pass", "Discard", "Knock", "LayOff", "Done"},
        "rummy": {"Draw", "Take", "Discard", "NewMeld", "LayOff"},
        "crazy": {"Draw", "Take", "Pass", "Buy", "Discard", "Down", "LayOff"},
    }[find_game(name).name]
    assert expected <= seen, expected - seen
