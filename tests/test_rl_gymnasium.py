"""rummykit.rl's Gymnasium environments: real gymnasium.Env objects, registered, checked."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import FlattenObservation, RecordEpisodeStatistics

from rummykit.games.base import IllegalActionError
from rummykit.games.gin import GinState
from rummykit.rl import GYMNASIUM_IDS, BasicRummyEnv, CrazyRummyEnv, GinRummyEnv, RummyGymEnv

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("rummykit/GinRummy-v0", {}),
    ("rummykit/BasicRummy-v0", {"players": 3}),
    ("rummykit/CrazyRummy-v0", {"players": 3}),
]
CLASSES = {"GinRummy": GinRummyEnv, "BasicRummy": BasicRummyEnv, "CrazyRummy": CrazyRummyEnv}


def _new(env_id: str, **kwargs: Any) -> RummyGymEnv:
    name = env_id.split("/")[1].removesuffix("-v0")
    env: RummyGymEnv = CLASSES[name](**kwargs)
    return env


def _messages(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught]


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        *GAMES,
        ("rummykit/GinRummy-v0", {"episode": "match", "seat": 1, "reward": "win"}),
        ("rummykit/BasicRummy-v0", {"players": 6, "preset": "rummy-classic"}),
        ("rummykit/CrazyRummy-v0", {"players": 6, "episode": "match", "options": {"jokers": 0}}),
    ],
)
def test_check_env_passes_unwrapped_and_made(env_id: str, kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(_new(env_id, opponents="random", **kwargs))
    # Only the note that an environment made without gymnasium.make has no spec to re-make.
    assert all("not having a spec" in m for m in _messages(caught)), _messages(caught)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = gymnasium.make(env_id, opponents="random", render_mode="ansi", **kwargs)
        check_env(made.unwrapped)
    assert _messages(caught) == []
    assert isinstance(made.unwrapped, RummyGymEnv)
    assert made.spec is not None and made.spec.id == env_id


@pytest.mark.slow  # a fresh interpreter importing Gymnasium and rummykit
def test_the_ids_are_registered_and_the_module_form_needs_no_import() -> None:
    assert set(GYMNASIUM_IDS) <= set(gymnasium.registry)
    code = (
        "import gymnasium, sys;"
        "env = gymnasium.make('rummykit.rl:rummykit/CrazyRummy-v0', opponents='random');"
        "obs, info = env.reset(seed=1);"
        "print(type(env.unwrapped).__name__, obs['action_mask'].sum() > 0)"
    )
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert fresh.stdout.split() == ["CrazyRummyEnv", "True"]


@pytest.mark.parametrize(("env_id", "kwargs"), GAMES)
def test_the_same_seed_gives_the_same_observation(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, opponents="random", **kwargs)
    firsts = []
    for seed in (7, 7, 8):
        obs, _ = env.reset(seed=seed)
        firsts.append(obs)
    assert all(np.array_equal(firsts[0][k], firsts[1][k]) for k in firsts[0])
    assert not np.array_equal(firsts[0]["observation"], firsts[2]["observation"])
    # Seeded once, the resets after it replay too (a new environment, the same seeds).
    runs = []
    for _ in range(2):
        other = gymnasium.make(env_id, opponents="random", **kwargs)
        runs.append([other.reset(seed=seed)[0]["observation"] for seed in (3, None, None)])
    assert all(np.array_equal(a, b) for a, b in zip(runs[0], runs[1], strict=True))
    assert not np.array_equal(runs[0][1], runs[0][2])


@pytest.mark.parametrize(("env_id", "kwargs"), GAMES)
def test_masks_are_the_engines_legal_actions_along_an_episode(
    env_id: str, kwargs: dict[str, Any]
) -> None:
    env = _new(env_id, opponents="medium", **kwargs)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    total = 0.0
    done = False
    steps = 0
    while not done:
        state = env.rummy.state
        view = info["view"]
        legal = np.flatnonzero(obs["action_mask"])
        decoded = {env.rummy.encoder.action(int(i), view) for i in legal}
        assert decoded == set(state.legal_actions(env.rummy.seat))
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert obs["observation"].dtype == np.float32 and obs in env.observation_space
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        total += float(reward)
        done = terminated or truncated
        steps += 1
    assert terminated and not truncated and steps > 1
    assert obs["action_mask"].sum() == 0
    assert total == pytest.approx(info["margin"])


def test_opponents_and_rules_pass_through() -> None:
    env = gymnasium.make(
        "rummykit/GinRummy-v0", opponents="hard", options={"knock_limit": 5}, episode="match"
    )
    rummy = env.unwrapped.rummy  # type: ignore[attr-defined]
    assert rummy.opponents == ("hard",) and rummy.episode == "match"
    assert rummy.game.options.knock_limit == 5
    crazy = gymnasium.make(
        "rummykit/CrazyRummy-v0", players=5, opponents=["random", "easy", "medium", "hard"]
    )
    assert crazy.unwrapped.rummy.opponents == ("random", "easy", "medium", "hard")  # type: ignore[attr-defined]
    assert crazy.action_space == gymnasium.spaces.Discrete(3856)
    basic = BasicRummyEnv(players=4, preset="rummy-classic")
    assert basic.rummy.game.options.restock == "shuffle"  # type: ignore[attr-defined]


def test_an_illegal_number_ends_the_episode_or_raises() -> None:
    env = GinRummyEnv(opponents="random")
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = list(env.rummy.state.history)
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(after["observation"], obs["observation"])
    assert after["observation"] is not obs["observation"]
    assert isinstance(env.rummy.state, GinState) and env.rummy.state.history == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    strict = GinRummyEnv(opponents="random", illegal_reward=None)
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError, match="not legal now"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="render_mode"):
        GinRummyEnv(render_mode="human")  # type: ignore[arg-type]


def test_the_standard_wrappers_work() -> None:
    env = RecordEpisodeStatistics(
        FlattenObservation(gymnasium.make("rummykit/BasicRummy-v0", opponents="random"))
    )
    obs, info = env.reset(seed=4)
    actions = 1267
    assert obs.shape == (env.unwrapped.rummy.observation_size + actions,)  # type: ignore[attr-defined]
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, _, terminated, truncated, info = env.step(int(legal[0]))
        done = terminated or truncated
    assert "episode" in info and info["episode"]["l"] > 0
    limited = gymnasium.make("rummykit/GinRummy-v0", opponents="random", max_episode_steps=2)
    _, info2 = limited.reset(seed=1)
    flags = []
    for _ in range(2):
        _, _, terminated, truncated, info2 = limited.step(
            int(np.flatnonzero(info2["action_mask"])[0])
        )
        flags.append((terminated, truncated))
    assert flags[-1] == (False, True)
    vector = gymnasium.make_vec("rummykit/GinRummy-v0", num_envs=2, opponents="random")
    batch, _ = vector.reset(seed=5)
    assert batch["observation"].shape == (2, 374) and batch["action_mask"].shape == (2, 265)
    picks = np.array([np.flatnonzero(m)[0] for m in batch["action_mask"]])
    batch, rewards, _, _, _ = vector.step(picks)
    assert rewards.shape == (2,)
    vector.close()


def test_render_shows_the_agents_own_view() -> None:
    env = CrazyRummyEnv(players=2, opponents="random", render_mode="ansi", crazy_round=1)
    env.reset(seed=1)
    text = env.render()
    assert text is not None and text.startswith("crazy: seat 0")
    hand = env.rummy.state.hands[0]
    assert all(str(card) in text for card in hand)
    assert CrazyRummyEnv(players=2).render() is None


def test_the_rl_extra_brings_its_packages_and_dev_installs_it() -> None:
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).parent.parent / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text("utf-8"))["project"]["optional-dependencies"]
    names = {d.split(">")[0].split("=")[0].split("<")[0] for d in extras["rl"]}
    assert names == {"numpy", "gymnasium", "pettingzoo"}
    assert any(d.startswith("rummykit[") and "rl" in d for d in extras["dev"])
