"""Real Gymnasium environments: one seat of a rummy game against rummykit's computer players.

:class:`RummyGymEnv` is a :class:`gymnasium.Env` over :class:`rummykit.env.RummyEnv`: it has an
``observation_space`` (a ``Dict`` of the encoder's observation vector and the ``action_mask``)
and a ``Discrete`` ``action_space``, is seeded by ``reset(seed=)``, and passes Gymnasium's
``check_env``. :class:`GinRummyEnv`, :class:`BasicRummyEnv` and :class:`CrazyRummyEnv` fix the
game; importing :mod:`rummykit.rl` registers them as ``rummykit/GinRummy-v0``,
``rummykit/BasicRummy-v0`` and ``rummykit/CrazyRummy-v0``.

>>> import numpy as np
>>> env = GinRummyEnv(opponents="easy")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].shape, env.action_space
((374,), (265,), Discrete(265))
>>> rng = np.random.default_rng(3)
>>> done = False
>>> while not done:
...     action = rng.choice(np.flatnonzero(obs["action_mask"]))   # a masked random agent
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> obs["action_mask"].sum()
np.int64(0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from rummykit.env import Episode, Reward, RummyEnv
from rummykit.games.match import MatchView

__all__ = ["BasicRummyEnv", "CrazyRummyEnv", "GinRummyEnv", "RummyGymEnv"]

Observation = dict[str, Any]
"""``{"observation": float32 array, "action_mask": int8 array}``."""


class RummyGymEnv(gymnasium.Env[Observation, np.int64]):
    """The agent plays ``seat`` of ``game`` against computer players at the level ``opponents``
    (one name for every other seat, or one per other seat); ``options`` are the game's rules.

    Observations are dicts: ``"observation"`` (float32, the encoder's vector, every entry from
    0 to 1) and ``"action_mask"`` (int8, 1 for each legal action number). An action number that
    is not legal ends the episode with reward ``illegal_reward`` and changes nothing, or raises
    :class:`~rummykit.games.base.IllegalActionError` if ``illegal_reward`` is None. The other
    arguments are :class:`~rummykit.env.RummyEnv`'s: ``players``, ``episode`` ("hand" or
    "match"), ``reward`` ("points" or "win"), ``max_steps``, ``crazy_round``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - read per class

    def __init__(
        self,
        game: str = "gin",
        *,
        players: int = 2,
        opponents: str | Sequence[str] = "medium",
        seat: int = 0,
        episode: Episode = "hand",
        reward: Reward = "points",
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        crazy_round: int | None = None,
        illegal_reward: float | None = -1.0,
        render_mode: Literal["ansi"] | None = None,
    ) -> None:
        self.rummy = RummyEnv(
            game,
            players=players,
            opponents=opponents,
            seat=seat,
            episode=episode,
            reward=reward,
            options=options,
            max_steps=max_steps,
            crazy_round=crazy_round,
        )
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode is None or 'ansi'")
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        size, actions = self.rummy.observation_size, self.rummy.action_size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(actions)
        self._obs: Observation | None = None
        self._info: dict[str, Any] = {}
        self._over = False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rummy!r}>"

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new episode (``seed`` makes it and the unseeded resets after it reproducible;
        ``options`` must be empty: the rules are set when the environment is made)."""
        super().reset(seed=seed)
        deal_seed = int(self.np_random.integers(2**63))
        obs, info = self.rummy.reset(seed=deal_seed, options=options)
        self._over = False
        return self._keep(obs, info)

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play action number ``action``, then the other seats up to the agent's next turn."""
        if self._obs is None or self._over:
            raise RuntimeError("the episode is over (or was never started): call reset()")
        number = int(action)
        if number not in self._info["legal_ids"] and self.illegal_reward is not None:
            self._over = True
            # The same position, as new arrays (a caller may keep and change what it was given).
            same = {name: array.copy() for name, array in self._obs.items()}
            info = {**self._info, "action_mask": same["action_mask"].copy(), "illegal_action": True}
            return same, self.illegal_reward, True, False, info
        # (an illegal number with no illegal_reward: RummyEnv raises, naming the action)
        obs, reward, terminated, truncated, info = self.rummy.step(number)
        self._over = terminated or truncated
        observation, info = self._keep(obs, info)
        return observation, reward, terminated, truncated, info

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the agent's view as text (its hand, the table, its legal
        actions); else None."""
        if self.render_mode != "ansi" or self._obs is None:
            return None
        view = self._info["view"]
        hand: Any = view.hand if isinstance(view, MatchView) else view
        lines = [f"{self.rummy.game.name}: seat {self.rummy.seat}, phase {hand.phase.value}"]
        lines.append("hand: " + " ".join(str(c) for c in hand.hand))
        lines.append("legal: " + ", ".join(str(a) for a in hand.legal_actions))
        return "\n".join(lines)

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal action numbers as booleans (what sb3-contrib's ``MaskablePPO`` asks for)."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        mask: np.ndarray[Any, np.dtype[np.bool_]] = self._obs["action_mask"].astype(bool)
        return mask

    def _keep(self, obs: list[float], info: dict[str, Any]) -> tuple[Observation, dict[str, Any]]:
        """The observation as arrays (kept for an illegal step); ``info["action_mask"]`` too."""
        mask = np.asarray(info["action_mask"], dtype=np.int8)
        self._obs = {"observation": np.asarray(obs, dtype=np.float32), "action_mask": mask}
        self._info = {**info, "action_mask": mask.copy()}
        return self._obs, self._info


class GinRummyEnv(RummyGymEnv):
    """Gin Rummy (two players): ``rummykit/GinRummy-v0``."""

    def __init__(
        self,
        *,
        opponents: str = "medium",
        seat: int = 0,
        episode: Episode = "hand",
        reward: Reward = "points",
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        illegal_reward: float | None = -1.0,
        render_mode: Literal["ansi"] | None = None,
    ) -> None:
        super().__init__(
            "gin",
            opponents=opponents,
            seat=seat,
            episode=episode,
            reward=reward,
            options=options,
            max_steps=max_steps,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
        )


class BasicRummyEnv(RummyGymEnv):
    """Basic Rummy for 2-6 ``players`` (``preset`` "rummy" or "rummy-classic"):
    ``rummykit/BasicRummy-v0``."""

    def __init__(
        self,
        *,
        players: int = 2,
        preset: Literal["rummy", "rummy-classic"] = "rummy",
        opponents: str | Sequence[str] = "medium",
        seat: int = 0,
        episode: Episode = "hand",
        reward: Reward = "points",
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        illegal_reward: float | None = -1.0,
        render_mode: Literal["ansi"] | None = None,
    ) -> None:
        if preset not in ("rummy", "rummy-classic"):
            raise ValueError("preset is 'rummy' or 'rummy-classic'")
        super().__init__(
            preset,
            players=players,
            opponents=opponents,
            seat=seat,
            episode=episode,
            reward=reward,
            options=options,
            max_steps=max_steps,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
        )


class CrazyRummyEnv(RummyGymEnv):
    """Crazy Rummy for 2-6 ``players`` (4 by default): ``rummykit/CrazyRummy-v0``. A hand
    episode is one round (``crazy_round``, or one drawn from the seed); a match all seven."""

    def __init__(
        self,
        *,
        players: int = 4,
        opponents: str | Sequence[str] = "medium",
        seat: int = 0,
        episode: Episode = "hand",
        reward: Reward = "points",
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        crazy_round: int | None = None,
        illegal_reward: float | None = -1.0,
        render_mode: Literal["ansi"] | None = None,
    ) -> None:
        super().__init__(
            "crazy",
            players=players,
            opponents=opponents,
            seat=seat,
            episode=episode,
            reward=reward,
            options=options,
            max_steps=max_steps,
            crazy_round=crazy_round,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
        )
