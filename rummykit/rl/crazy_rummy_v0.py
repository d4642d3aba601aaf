"""Crazy Rummy for 2-6 agents as a PettingZoo AEC environment (see :mod:`rummykit.rl.aec`).

A hand episode is one round: ``crazy_round`` (1-7) fixes it, None (the default) draws it from
the episode's generator. A lay-down is one action number, the lay-down the engine lists for the
position (see ``docs/encoding.md``).

>>> from rummykit.rl import crazy_rummy_v0
>>> env = crazy_rummy_v0.env(num_players=4, crazy_round=2)
>>> env.reset(seed=1)
>>> [len(cards) for cards in env.unwrapped.state.hands]
[8, 8, 8, 8]
"""

from __future__ import annotations

from typing import Any, ClassVar

from gymnasium.utils import EzPickle

from rummykit.games.base import HandState
from rummykit.games.crazy import ROUNDS, Crazy
from rummykit.rl.aec import RummyAEC, wrap

__all__ = ["env", "raw_env"]


class raw_env(RummyAEC):
    """Crazy Rummy, unwrapped: an illegal action number raises instead of ending the episode."""

    metadata: ClassVar[dict[str, Any]] = {**RummyAEC.metadata, "name": "crazy_rummy_v0"}
    game_name: ClassVar[str] = "crazy"

    def __init__(self, num_players: int = 2, *, crazy_round: int | None = None, **kwargs: Any):
        if crazy_round is not None and not (
            type(crazy_round) is int and 1 <= crazy_round <= ROUNDS
        ):
            raise ValueError(f"crazy_round is a round from 1 to {ROUNDS}, or None")
        super().__init__(num_players, **kwargs)
        self.crazy_round = crazy_round
        EzPickle.__init__(self, num_players, crazy_round=crazy_round, **kwargs)

    def _new_hand(self, seed: int, dealer: int) -> HandState:
        assert isinstance(self.game, Crazy)
        number = self.crazy_round or self._rng.randint(1, ROUNDS)
        return self.game.new_hand(players=self.num_players, seed=seed, dealer=dealer, round=number)


def env(*, illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """Crazy Rummy wrapped as PettingZoo's classic games are (``kwargs`` go to :class:`raw_env`:
    ``num_players``, ``crazy_round``, ``options``, ``episode``, ``reward``, ``max_cycles``,
    ``render_mode``)."""
    return wrap(raw_env(**kwargs), illegal_reward)
