"""The PettingZoo AEC environments (rummykit.rl.*_v0): PettingZoo's own checks, masked random
play to the end, truncation by ``max_cycles``, and observations that hide other seats' cards."""

from __future__ import annotations

import functools
import pickle
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from rummykit.games.base import IllegalActionError
from rummykit.games.crazy import CrazyState
from rummykit.rl import basic_rummy_v0, crazy_rummy_v0, gin_rummy_v0
from rummykit.rl.aec import RummyAEC

# api_test's generic advice for environments without dict observations (PettingZoo's own card
# games get it too): a dict of an observation vector and a mask is the classic games' shape.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
]


# (module, table size): every game, the smallest and largest tables and one between
TABLES = [
    pytest.param(gin_rummy_v0, 2, id="gin-2"),
    pytest.param(basic_rummy_v0, 2, id="rummy-2"),
    pytest.param(basic_rummy_v0, 4, id="rummy-4"),
    pytest.param(basic_rummy_v0, 6, id="rummy-6"),
    pytest.param(crazy_rummy_v0, 2, id="crazy-2"),
    pytest.param(crazy_rummy_v0, 4, id="crazy-4"),
    pytest.param(crazy_rummy_v0, 6, id="crazy-6"),
]


def _raw(env: Any) -> RummyAEC:
    raw = env.unwrapped
    assert isinstance(raw, RummyAEC)
    return raw


def _play(env: Any, rng: random.Random) -> dict[str, float]:
    """One episode to its end, each agent choosing at random from its own observation's mask;
    returns each agent's total reward."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize(("module", "players"), TABLES)
def test_pettingzoo_api_test(module: ModuleType, players: int) -> None:
    api_test(module.env(num_players=players), num_cycles=200)


@pytest.mark.parametrize(("module", "players"), TABLES)
def test_pettingzoo_seed_test(module: ModuleType, players: int) -> None:
    seed_test(lambda: module.env(num_players=players), num_cycles=100)


@pytest.mark.parametrize(("module", "players"), TABLES)
def test_pettingzoo_api_test_of_a_match_paid_in_points(module: ModuleType, players: int) -> None:
    api_test(module.env(num_players=players, episode="match", reward="points"), num_cycles=100)


@pytest.mark.parametrize(("module", "players"), TABLES)
@pytest.mark.parametrize("max_cycles", [1, 4, 9])
def test_max_cycles_truncates_every_agent(
    module: ModuleType, players: int, max_cycles: int
) -> None:
    """PettingZoo's max_cycles_test in a turn-based game's terms (its own needs a parallel env
    whose every agent acts each cycle, with unmasked actions): the busiest agent takes exactly
    ``max_cycles`` actions, then every agent is truncated and steps once more, with None."""
    env = module.env(num_players=players, max_cycles=max_cycles)
    env.reset(seed=5)
    rng = random.Random(5)
    acted = dict.fromkeys(env.possible_agents, 0)
    iterated = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        iterated[agent] += 1
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        acted[agent] += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert max(acted.values()) == max_cycles
    assert iterated == {agent: acted[agent] + 1 for agent in acted}
    assert env.agents == []


@pytest.mark.parametrize(("module", "players"), TABLES)
def test_masked_random_play_finishes_every_hand(module: ModuleType, players: int) -> None:
    rng = random.Random(players)
    env = module.env(num_players=players, reward="points")
    for seed in range(2):
        env.reset(seed=seed)
        raw = _raw(env)
        totals = _play(env, rng)
        assert raw.state.is_over
        assert env.agents == []
        returns = raw.state.returns()
        assert [totals[a] for a in raw.possible_agents] == pytest.approx(returns)
        assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize(("module", "players"), TABLES)
def test_win_rewards_pay_the_one_winner(module: ModuleType, players: int) -> None:
    env = module.env(num_players=players)
    rng = random.Random(11)
    for seed in range(2):
        env.reset(seed=seed)
        raw = _raw(env)
        totals = _play(env, rng)
        result = raw.state.result
        assert result is not None
        if result.winner is None:
            assert set(totals.values()) == {0.0}
        else:
            winner = raw.possible_agents[result.winner]
            assert totals == {a: 1.0 if a == winner else -1.0 for a in totals}


@pytest.mark.slow
@pytest.mark.parametrize(("module", "players"), [TABLES[0], TABLES[2], TABLES[5]])
def test_a_match_episode_pays_its_standings(module: ModuleType, players: int) -> None:
    env = module.env(num_players=players, episode="match", reward="points")
    env.reset(seed=3)
    raw = _raw(env)
    totals = _play(env, random.Random(3))
    match = raw._match
    assert match is not None and match.is_over and len(match.hands) > 1
    assert [totals[a] for a in raw.possible_agents] == pytest.approx(match.returns())


@pytest.mark.parametrize(("module", "players"), TABLES)
def test_an_observation_never_shows_another_seats_hidden_cards(
    module: ModuleType, players: int
) -> None:
    """Every few moves, each seat's hidden cards (the others' hands and the stock) are dealt
    again as that seat cannot tell apart (``resample``): its observation stays the same."""
    raw: RummyAEC = module.raw_env(num_players=players)
    raw.reset(seed=8)
    rng = random.Random(8)
    moved = 0
    checked_changes = 0
    while not raw.state.is_over and moved < 120:
        if moved % 7 == 0:
            true_hand = raw.state
            for seat, agent in enumerate(raw.possible_agents):
                before = raw.observe(agent)
                other = true_hand.resample(seat, rng)
                if [list(h) for h in other.hands] != [list(h) for h in true_hand.hands]:
                    checked_changes += 1
                raw._hand, raw._seen = other, {}
                after = raw.observe(agent)
                raw._hand, raw._seen = true_hand, {}
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
        obs = raw.observe(raw.agent_selection)
        raw.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        moved += 1
    assert checked_changes > 0  # the hidden cards did change: the check could fail


@pytest.mark.parametrize(("module", "players"), TABLES)
def test_only_the_seat_to_act_has_legal_actions(module: ModuleType, players: int) -> None:
    env = module.env(num_players=players)
    env.reset(seed=2)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)


def test_an_illegal_action_ends_the_wrapped_episode_and_raises_in_the_raw_one() -> None:
    env = gin_rummy_v0.env(illegal_reward=-5.0)
    env.reset(seed=1)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -5.0
    raw = gin_rummy_v0.raw_env()
    raw.reset(seed=1)
    with pytest.raises(IllegalActionError):
        raw.step(illegal)


def test_the_same_seed_deals_the_same_and_another_seed_another() -> None:
    def first(seed: int) -> Any:
        env = basic_rummy_v0.env(num_players=3)
        env.reset(seed=seed)
        return env.observe(env.agent_selection)["observation"]

    assert np.array_equal(first(4), first(4))
    assert not np.array_equal(first(4), first(5))


@pytest.mark.parametrize(("module", "players"), [TABLES[0], TABLES[3], TABLES[5]])
def test_pettingzoo_render_test(
    module: ModuleType, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(functools.partial(module.env, num_players=players))
    assert capsys.readouterr().out.count("player_0 (") >= 5  # "human" printed every render


def test_render_shows_the_table_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    env = gin_rummy_v0.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "player_0 (" in text and "player_1 (" in text
    human = gin_rummy_v0.env(render_mode="human")
    human.reset(seed=1)
    human.step(int(np.flatnonzero(human.observe(human.agent_selection)["action_mask"])[0]))
    assert "player_1 (" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: gin_rummy_v0.env(num_players=3), ValueError),
        (lambda: basic_rummy_v0.env(num_players=7), ValueError),
        (lambda: basic_rummy_v0.env(episode="season"), ValueError),
        (lambda: basic_rummy_v0.env(reward="score"), ValueError),
        (lambda: basic_rummy_v0.env(max_cycles=0), ValueError),
        (lambda: basic_rummy_v0.env(render_mode="rgb_array"), ValueError),
        (lambda: basic_rummy_v0.env(options={"no_such_rule": 1}), ValueError),
        (lambda: crazy_rummy_v0.env(crazy_round=8), ValueError),
        (lambda: crazy_rummy_v0.env(crazy_round=0), ValueError),
    ],
)
def test_bad_arguments_are_refused(make: Callable[[], Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        make()


def test_rules_options_reach_the_game() -> None:
    env = basic_rummy_v0.env(num_players=3, episode="match", options={"hands": 2})
    env.reset(seed=1)
    _play(env, random.Random(1))
    match = _raw(env)._match
    assert match is not None and match.is_over and len(match.hands) == 2


def test_a_crazy_rummy_hand_episode_plays_the_round_asked_or_one_drawn_from_the_seed() -> None:
    def rounds(seed: int, **kwargs: Any) -> list[int]:
        raw = crazy_rummy_v0.raw_env(num_players=3, **kwargs)
        raw.reset(seed=seed)
        played = []
        for _ in range(6):
            state = raw.state
            assert isinstance(state, CrazyState)
            played.append(state.round)
            raw.reset()
        return played

    assert rounds(1, crazy_round=5) == [5] * 6
    drawn = rounds(1)
    assert drawn == rounds(1) and len(set(drawn)) > 1


def test_render_shows_the_melds_on_the_table() -> None:
    raw = basic_rummy_v0.raw_env(num_players=3, render_mode="ansi")
    raw.reset(seed=2)
    rng = random.Random(2)
    while not raw.state.is_over and "table: " not in (raw.render() or ""):
        legal = np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])
        melds = [n for n in legal if 54 <= n < 383]  # Basic Rummy's meld numbers: meld at once
        raw.step(int(melds[0]) if melds else int(rng.choice(legal)))
    assert "table: " in (raw.render() or "")


@pytest.mark.parametrize(
    "make",
    [
        lambda: basic_rummy_v0.raw_env(4, options={"melds_per_turn": None}, reward="points"),
        lambda: crazy_rummy_v0.raw_env(3, crazy_round=6, episode="hand", max_cycles=9),
    ],
)
def test_a_pickled_environment_is_made_again_from_the_same_arguments(
    make: Callable[[], RummyAEC],
) -> None:
    raw = make()
    copy = pickle.loads(pickle.dumps(raw))
    assert type(copy) is type(raw)
    for name in ("num_players", "reward", "episode", "max_cycles"):
        assert getattr(copy, name) == getattr(raw, name)
    assert copy.game.options == raw.game.options
    assert getattr(copy, "crazy_round", None) == getattr(raw, "crazy_round", None)
    raw.reset(seed=3)
    copy.reset(seed=3)
    assert np.array_equal(
        raw.observe("player_1")["observation"], copy.observe("player_1")["observation"]
    )
