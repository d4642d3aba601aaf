"""Computer players: the random player (any game, any table size) and the registry."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import Action, Discard, Draw, Pass, Take
from rummykit.games import Gin, Rummy, find_game
from rummykit.games.base import View
from rummykit.games.gin import GinView
from rummykit.games.rummy import RummyView
from rummykit.players import (
    PLAYERS,
    REGISTRY,
    NoActionError,
    Player,
    RandomPlayer,
    UnknownPlayerError,
    find_player,
)
from rummykit.players.reasons import Suggestion
from rummykit.sim import play_hand


class SpyPlayer:
    """Wraps a player and records every argument it is given."""

    def __init__(self, inner: Player) -> None:
        self.name = "spy"
        self.inner = inner
        self.seen: list[object] = []

    def choose(self, view: View) -> Action:
        self.seen.append(view)
        return self.inner.choose(view)

    def suggest(self, view: View) -> Suggestion:
        return self.inner.suggest(view)


def _history(seed: int, p0: int, p1: int) -> list[str]:
    state = play_hand(Gin(), [RandomPlayer(p0), RandomPlayer(p1)], seed, 0)
    return [f"{seat} {action}" for seat, action in state.history]


def test_random_player_is_deterministic_given_its_seed() -> None:
    assert _history(11, 1, 2) == _history(11, 1, 2)
    assert _history(11, 1, 2) != _history(11, 1, 3)


def test_random_player_choices_depend_on_its_own_generator_only() -> None:
    view = Gin().new_hand(seed=3, dealer=0).view(1)
    a, b = RandomPlayer(9), RandomPlayer(9)
    first = [a.choose(view) for _ in range(20)]
    assert first == [b.choose(view) for _ in range(20)]
    assert set(first) == {Take(), Pass()}  # both offer actions come up in 20 tries


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 2**32), player_seed=st.integers(0, 2**32))
def test_random_player_only_picks_legal_actions(seed: int, player_seed: int) -> None:
    state = Gin().new_hand(seed=seed, dealer=seed % 2)
    players = [RandomPlayer(player_seed), RandomPlayer(player_seed + 1)]
    steps = 0
    while not state.is_over and steps < 60:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions
        assert state.can(action, seat)
        state.apply(action, seat)
        steps += 1
    assert steps > 0


@settings(max_examples=examples(10), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    classic=st.booleans(),
    player_seed=st.integers(0, 2**32),
)
def test_random_player_plays_rummy_legally_at_any_table(
    seed: int, players: int, classic: bool, player_seed: int
) -> None:
    game = find_game("rummy-classic" if classic else "rummy")
    state = game.new_hand(players=players, seed=seed, dealer=seed % players)
    bots = [RandomPlayer(player_seed + seat) for seat in range(players)]
    acted = set()
    for _ in range(80):
        seat = state.to_act
        if seat is None:
            break
        view = state.view(seat)
        assert isinstance(view, RummyView) and view.seat == seat
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        state.apply(action, seat)
        acted.add(seat)
    assert acted == set(range(players)) or state.is_over


def test_players_receive_only_views() -> None:
    spies = [SpyPlayer(RandomPlayer(1)), SpyPlayer(RandomPlayer(2))]
    state = play_hand(Gin(), spies, 5, 1)
    assert state.is_over
    for seat, spy in enumerate(spies):
        assert spy.seen, "every seat acts at least once"
        assert all(isinstance(v, GinView) and v.seat == seat for v in spy.seen)
    assert len(spies[0].seen) + len(spies[1].seen) == len(state.history)


def test_rummy_players_receive_only_their_own_views() -> None:
    spies = [SpyPlayer(RandomPlayer(seat)) for seat in range(5)]
    state = play_hand(Rummy(), spies, 9, 3)
    assert state.is_over and state.result is not None
    for seat, spy in enumerate(spies):
        assert spy.seen, "every seat acts at least once"
        assert all(isinstance(v, RummyView) and v.seat == seat for v in spy.seen)
    assert sum(len(spy.seen) for spy in spies) == len(state.history)
    assert state.history[0][0] == 4  # the dealer's left (seat 3 deals) starts


def test_choice_comes_from_the_view_alone() -> None:
    view = Gin().new_hand(seed=3, dealer=0).view(1)
    only = Discard(view.hand[0])
    narrowed = dataclasses.replace(view, legal_actions=(only,))
    player = RandomPlayer(4)
    assert all(player.choose(narrowed) == only for _ in range(5))
    action, reason = player.suggest(narrowed)
    assert action == only and reason


def test_no_legal_action_is_an_error() -> None:
    state = Gin().new_hand(seed=3, dealer=0)
    waiting = state.view(0)  # the non-dealer (seat 1) acts first
    assert waiting.legal_actions == ()
    with pytest.raises(NoActionError, match="seat 0"):
        RandomPlayer(1).choose(waiting)
    table = Rummy().new_hand(players=4, seed=3, dealer=1)
    with pytest.raises(NoActionError, match=r"seat 0 .*seat 2 acts"):
        RandomPlayer(1).choose(table.view(0))


@pytest.mark.parametrize(("game", "level"), [(g, n) for g in REGISTRY for n in REGISTRY[g]])
def test_every_level_refuses_a_view_it_may_not_act_on(game: str, level: str) -> None:
    state = find_game(game).new_hand(players=2 if game == "gin" else 4, seed=3, dealer=1)
    waiting = next(s for s in range(2 if game == "gin" else 4) if s != state.to_act)
    with pytest.raises(NoActionError, match=f"seat {waiting} has no legal action"):
        find_player(game, level, 1).choose(state.view(waiting))
    if level == "random":
        return  # random plays any game's view
    other = Gin() if game != "gin" else Rummy()
    stranger = other.new_hand(seed=3)
    assert stranger.to_act is not None
    with pytest.raises(TypeError, match="player needs a"):
        find_player(game, level, 1).choose(stranger.view(stranger.to_act))


def test_registry_finds_players_by_game_and_name() -> None:
    assert "random" in PLAYERS["gin"]
    assert set(PLAYERS) == set(REGISTRY) == {"gin", "rummy", "crazy"}
    player = find_player("gin", "random", 7)
    assert isinstance(player, RandomPlayer) and isinstance(player, Player)
    assert player.name == "random"
    alias = find_player("gin-rummy", " Random ", 7)
    view = Gin().new_hand(seed=1).view(1)
    assert [alias.choose(view) for _ in range(8)] == [player.choose(view) for _ in range(8)]


@pytest.mark.parametrize("game", ["rummy", "basic-rummy", "rummy-classic", " Rummy-Classic "])
def test_every_rummy_variant_uses_the_rummy_players(game: str) -> None:
    assert PLAYERS["rummy"] == ("random", "easy", "medium", "hard")
    player = find_player(game, "random", 5)
    assert isinstance(player, RandomPlayer) and player.seed == 5
    view = Rummy().new_hand(players=3, seed=2).view(1)
    assert view.legal_actions == (Draw(), Take())
    assert player.choose(view) in view.legal_actions
    with pytest.raises(
        UnknownPlayerError, match=r"for rummy \(valid: random, easy, medium, hard\)"
    ):
        find_player(game, "greedy", 1)


def test_registry_rejects_unknown_names() -> None:
    with pytest.raises(UnknownPlayerError, match="valid: random"):
        find_player("gin", "grandmaster", 1)
    with pytest.raises(ValueError, match="unknown game"):
        find_player("poker", "random", 1)


def test_draw_only_when_the_view_says_so() -> None:
    state = Gin().new_hand(seed=3, dealer=0)
    state.apply(Pass(), 1)
    state.apply(Pass(), 0)
    view = state.view(1)
    assert view.legal_actions == (Draw(),)
    assert RandomPlayer(0).choose(view) == Draw()


def test_find_player_gives_the_table_rules_to_the_player() -> None:
    from typing import Any

    from rummykit.games import find_game
    from rummykit.games.rummy import RummyOptions
    from rummykit.players import find_player

    classic: Any = find_player("rummy-classic", "hard", 1)  # the preset's own rules
    assert classic.options.restock.value == "shuffle"
    straight: Any = find_player("rummy", "hard", 1)
    assert straight.options.restock.value == "turn_over"
    house: Any = find_player(find_game("rummy", {"restock_limit": 3}), "medium", 1)
    assert house.options.restock_limit == 3
    given: Any = find_player("rummy", "easy", 1, options=RummyOptions(restock_limit=2))
    assert given.options.restock_limit == 2
    assert find_player("gin", "random", 1, options=None).name == "random"
