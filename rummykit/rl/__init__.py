"""rummykit for reinforcement learning (the ``rl`` extra: NumPy, Gymnasium, PettingZoo).

Importing this package registers the Gymnasium environments ``rummykit/GinRummy-v0``,
``rummykit/BasicRummy-v0`` and ``rummykit/CrazyRummy-v0`` (Gymnasium 1.x has no plugin hook, so
``gymnasium.make("rummykit.rl:rummykit/GinRummy-v0")`` imports it for you). See ``docs/rl.md``.

PettingZoo AEC environments, one module per game, each with ``env(**kwargs)`` (wrapped the
PettingZoo way) and ``raw_env``: :mod:`rummykit.rl.gin_rummy_v0`,
:mod:`rummykit.rl.basic_rummy_v0` and :mod:`rummykit.rl.crazy_rummy_v0` (their shared code is
:mod:`rummykit.rl.aec`); see ``docs/pettingzoo.md``.
"""

from __future__ import annotations

import gymnasium

from rummykit.rl.gymnasium_envs import BasicRummyEnv, CrazyRummyEnv, GinRummyEnv, RummyGymEnv

__all__ = ["GYMNASIUM_IDS", "BasicRummyEnv", "CrazyRummyEnv", "GinRummyEnv", "RummyGymEnv"]

GYMNASIUM_IDS = {
    "rummykit/GinRummy-v0": "rummykit.rl.gymnasium_envs:GinRummyEnv",
    "rummykit/BasicRummy-v0": "rummykit.rl.gymnasium_envs:BasicRummyEnv",
    "rummykit/CrazyRummy-v0": "rummykit.rl.gymnasium_envs:CrazyRummyEnv",
}
"""Each registered environment id and the class it makes."""

for _id, _entry_point in GYMNASIUM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=_entry_point)
