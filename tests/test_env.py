"""RummyEnv: one seat against computer players by action numbers, as a learning agent sees it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.encoding import encoder_for
from rummykit.encoding.crazy import DOWN
from rummykit.env import RummyEnv
from rummykit.games import find_game
from rummykit.games.base import IllegalActionError
from rummykit.games.crazy import CrazyRoundResult, CrazyState
from rummykit.games.gin import GinHandResult


def _play(env: RummyEnv, seed: int, pick: random.Random) -> tuple[list[Any], float, dict[str, Any]]:
    """One episode with random legal numbers: every step's (obs, reward, done), the total, info."""
    obs, info = env.reset(seed=seed)
    steps: list[Any] = [(obs, 0.0, False)]
    total = 0.0
    done = truncated = False
    while not (done or truncated):
        obs, reward, done, truncated, info = env.step(pick.choice(info["legal_ids"]))
        steps.append((obs, reward, done))
        total += reward
    return steps, total, info


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    setup=st.sampled_from(
        [
            ("gin", 2, "hand", None),
            ("rummy", 4, "hand", None),
            ("rummy-classic", 3, "hand", None),
            ("gin", 2, "match", {"target_score": 50}),
            ("rummy", 5, "match", {"hands": 2}),
            ("crazy", 4, "hand", None),
            ("crazy", 2, "match", {"jokers": 2}),
        ]
    ),
)
def test_an_episode_keeps_the_api_and_its_rewards_add_up_to_the_margin(
    seed: int, setup: tuple[str, int, str, dict[str, int] | None]
) -> None:
    game, players, episode, options = setup
    env = RummyEnv(
        game,
        players=players,
        opponents="random",
        episode=episode,  # type: ignore[arg-type]
        options=options,
        seat=seed % players,
    )
    obs, info = env.reset(seed=seed)
    pick = random.Random(seed)
    total = 0.0
    done = truncated = False
    while not (done or truncated):
        assert len(obs) == env.observation_size and all(0.0 <= x <= 1.0 for x in obs)
        assert info["legal_ids"], "the agent is asked only when it has a move"
        assert [i for i, m in enumerate(info["action_mask"]) if m] == info["legal_ids"]
        # the observation is the encoder's reading of the agent's own view, nothing more
        view = info["view"].hand if episode == "match" else info["view"]
        assert view.seat == env.seat
        assert obs == env.encoder.observation(info["view"])
        assert env.state.to_act == env.seat
        obs, reward, done, truncated, info = env.step(pick.choice(info["legal_ids"]))
        total += reward
    assert done and not truncated
    assert info["legal_ids"] == [] and sum(info["action_mask"]) == 0
    assert total == pytest.approx(info["margin"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_points_reward_is_the_hand_score_margin_and_the_win_reward_its_sign() -> None:
    for seed in range(12):
        points = RummyEnv("gin", opponents="medium")
        wins = RummyEnv("gin", opponents="medium", reward="win")
        _, total, _ = _play(points, seed, random.Random(seed))
        steps, sign, _ = _play(wins, seed, random.Random(seed))
        result = points.state.result
        assert isinstance(result, GinHandResult)
        scores = result.scores
        assert total == scores[0] - scores[1]  # two seats: mine minus the other's
        assert sign == (0 if result.winner is None else 1 if result.winner == 0 else -1)
        assert all(r == 0.0 for _, r, _ in steps[:-1])  # "win" pays at the end only
        assert wins.state.result == result  # the same seed and choices: the same hand


def test_a_seed_replays_the_same_episode_and_another_seed_another() -> None:
    a = _play(RummyEnv("rummy", players=3, opponents="hard"), 5, random.Random(1))
    b = _play(RummyEnv("rummy", players=3, opponents="hard"), 5, random.Random(1))
    c = _play(RummyEnv("rummy", players=3, opponents="hard"), 6, random.Random(1))
    assert a[0] == b[0] and a[1] == b[1]
    assert a[0] != c[0]


def test_an_illegal_or_unknown_number_is_refused_and_changes_nothing() -> None:
    env = RummyEnv("gin", opponents="easy", seat=1)
    obs, info = env.reset(seed=11)
    illegal = next(i for i in range(env.action_size) if i not in info["legal_ids"])
    history = list(env.state.history)
    with pytest.raises(IllegalActionError, match=f"action number {illegal} .* not legal now"):
        env.step(illegal)
    with pytest.raises(ValueError, match="no action number 9999"):
        env.step(9999)
    with pytest.raises(TypeError):
        env.step("draw")  # type: ignore[arg-type]
    assert list(env.state.history) == history
    again, _, _, _, _ = env.step(info["legal_ids"][0])  # and the episode goes on
    assert len(again) == len(obs)
    assert list(env.state.history)[: len(history) + 1][-1][0] == 1  # the agent's move, seat 1


def test_the_agent_can_sit_anywhere_and_the_others_move_by_themselves() -> None:
    for seat in range(4):
        env = RummyEnv("rummy", players=4, seat=seat, opponents=["easy", "medium", "hard"])
        _, info = env.reset(seed=seat)
        assert env.state.to_act == seat and info["view"].seat == seat
        env.step(info["legal_ids"][0])
        assert env.state.to_act in (seat, None)


def test_a_match_episode_deals_hand_after_hand_until_the_match_is_over() -> None:
    env = RummyEnv("gin", episode="match", opponents="medium", options={"target_score": 60})
    _, info = env.reset(seed=2)
    pick = random.Random(2)
    hands = {info["view"].hand_number}
    total, done = 0.0, False
    while not done:
        _, reward, done, _, info = env.step(pick.choice(info["legal_ids"]))
        total += reward
        hands.add(info["view"].hand_number)
    assert info["view"].over and len(hands) > 1
    totals = info["view"].result.totals
    assert total == pytest.approx(totals[0] - totals[1]) == info["margin"]


def test_max_steps_truncates_an_episode() -> None:
    env = RummyEnv("rummy", players=2, opponents="random", max_steps=3)
    _, info = env.reset(seed=1)
    flags = []
    for _ in range(3):
        _, _, done, truncated, info = env.step(info["legal_ids"][0])
        flags.append((done, truncated))
    assert flags[-1] == (False, True) and flags[0] == (False, False)
    with pytest.raises(RuntimeError):
        env.step(info["legal_ids"][0] if info["legal_ids"] else 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "gin", "crazy_round": 1}, "crazy_round is a Crazy Rummy round"),
        ({"game": "crazy", "crazy_round": 8}, "crazy_round is a Crazy Rummy round"),
        ({"game": "chess"}, "unknown game"),
        ({"game": "gin", "players": 3}, "gin needs 2 players, not 3"),
        ({"game": "rummy", "players": 7}, "rummy is for 2 to 6 players"),
        ({"game": "gin", "seat": 2}, "seat is a whole number from 0 to 1"),
        ({"game": "rummy", "players": 3, "opponents": ["easy"]}, "2 opponents are needed"),
        ({"game": "gin", "opponents": "grandmaster"}, "unknown player 'grandmaster'"),
        ({"game": "gin", "episode": "forever"}, "episode is 'hand' or 'match'"),
        ({"game": "gin", "reward": "glory"}, "reward is 'points' or 'win'"),
        ({"game": "gin", "max_steps": 0}, "max_steps is a positive whole number"),
        ({"game": "gin", "options": {"knock_limit": -1}}, "knock_limit"),
        ({"game": find_game("gin"), "options": {"knock_limit": 5}}, "pass options with a game"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, Any], message: str) -> None:
    game = kwargs.pop("game")
    with pytest.raises(ValueError, match=message):
        RummyEnv(game, **kwargs)


def test_sizes_are_the_encoders() -> None:
    env = RummyEnv("rummy", players=5)
    enc = encoder_for("rummy", players=5)
    assert (env.action_size, env.observation_size) == (enc.num_actions, enc.observation_size)
    assert "players=5" in repr(env)


class Number:
    """A whole number that is not an int (as numpy's integers are)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_gymnasium_callers_are_served_numbers_options_and_seeding() -> None:
    env = RummyEnv("gin", opponents="random")
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(seed=1, options={"knock_limit": 5})
    obs, info = env.reset(seed=1, options={})
    _, _, _, _, info = env.step(Number(info["legal_ids"][0]))  # type: ignore[arg-type]
    assert info["steps"] == 1
    with pytest.raises(TypeError, match="bool"):
        env.step(True)
    env.close()
    # Seeded once, the episodes after it (reset without a seed) replay too.
    runs = []
    for _ in range(2):
        env = RummyEnv("gin", opponents="random")
        firsts = []
        for seed in (42, None, None):
            obs, _ = env.reset(seed=seed)
            firsts.append(obs)
        runs.append(firsts)
    assert runs[0] == runs[1] and runs[0][1] != runs[0][2]


def test_the_win_reward_of_a_match_and_of_a_hand_nobody_won() -> None:
    env = RummyEnv(
        "gin",
        episode="match",
        reward="win",
        opponents="medium",
        seat=1,
        options={"target_score": 30},
    )
    steps, total, info = _play(env, 4, random.Random(4))
    winners = info["view"].result.winners
    assert total == (1 if winners == (1,) else -1) and steps[-1][1] == total
    stalemates = 0
    for seed in range(30):  # random seats rarely finish a Basic Rummy hand: a stalemate
        env = RummyEnv("rummy", players=4, reward="win", opponents="random")
        steps, total, _ = _play(env, seed, random.Random(seed))
        result = env.state.result
        if result is not None and result.winner is None:
            stalemates += 1
            assert total == 0 and all(r == 0 for _, r, _ in steps)
    assert stalemates > 0


def _round(env: RummyEnv) -> int:
    state = env.state
    assert isinstance(state, CrazyState)
    return state.round


def test_crazy_rummy_pays_the_bad_points_turned_round_and_plays_the_chosen_round() -> None:
    for seed in range(4):
        points = RummyEnv("crazy", players=3, opponents="medium", crazy_round=2)
        wins = RummyEnv("crazy", players=3, opponents="medium", crazy_round=2, reward="win")
        _, total, _ = _play(points, seed, random.Random(seed))
        _, sign, _ = _play(wins, seed, random.Random(seed))
        result = points.state.result
        assert isinstance(result, CrazyRoundResult) and _round(points) == 2
        mine, others = result.points[0], result.points[1:]
        assert total == pytest.approx(sum(others) / 2 - mine)  # fewer points than the others: > 0
        assert sign == (0 if result.winner is None else 1 if result.winner == 0 else -1)


def test_a_crazy_rummy_hand_episode_draws_its_round_from_the_seed() -> None:
    env = RummyEnv("crazy", players=4, opponents="random")
    rounds = []
    for seed in range(12):
        env.reset(seed=seed)
        rounds.append(_round(env))
        env.reset(seed=seed)
        assert _round(env) == rounds[-1]
    assert len(set(rounds)) > 2 and set(rounds) <= set(range(1, 8))


def test_the_lay_down_number_is_refused_when_no_lay_down_is_legal() -> None:
    env = RummyEnv("crazy", players=2, opponents="random", crazy_round=7)
    _, info = env.reset(seed=1)
    assert DOWN not in info["legal_ids"]
    with pytest.raises(IllegalActionError, match=r"action number 4 \(down\) is not legal"):
        env.step(DOWN)
