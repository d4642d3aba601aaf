"""Basic Rummy for 2-6 agents as a PettingZoo AEC environment (see :mod:`rummykit.rl.aec`).

>>> from rummykit.rl import basic_rummy_v0
>>> env = basic_rummy_v0.env()
>>> env.reset(seed=1)
>>> env.agent_selection in env.possible_agents
True
"""

from __future__ import annotations

from typing import Any, ClassVar

from rummykit.rl.aec import RummyAEC, wrap

__all__ = ["env", "raw_env"]


class raw_env(RummyAEC):
    """Basic Rummy, unwrapped: an illegal action number raises instead of ending the episode."""

    metadata: ClassVar[dict[str, Any]] = {**RummyAEC.metadata, "name": "basic_rummy_v0"}
    game_name: ClassVar[str] = "rummy"


def env(*, illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """Basic Rummy wrapped as PettingZoo's classic games are (``kwargs`` go to :class:`raw_env`:
    ``num_players``, ``options``, ``episode``, ``reward``, ``max_cycles``, ``render_mode``)."""
    return wrap(raw_env(**kwargs), illegal_reward)
