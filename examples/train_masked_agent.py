"""Train a small masked agent on Basic Rummy with NumPy alone, then play it against ``random``.

The agent is a linear Q-function over the observation vector of
:mod:`rummykit.rl.basic_rummy_v0`: one weight vector per kind of action (draw, take, discard,
meld, lay-off), plus a bias per action number, so what it learns about one meld carries over to
every meld. It picks the best *legal* action (the observation's ``action_mask`` applied: illegal
numbers are never chosen), exploring at random with probability ``epsilon`` while it learns.
Learning is Monte Carlo: after each hand, the value of each decision moves towards its return,
the points that decision took out of the agent's hand (until its next decision), then the later
decisions' discounted, then the hand's points result (the environment's ``"points"`` reward). The
hand's result alone is too rare a signal for a few thousand steps: two random players finish
only about one Basic Rummy hand in four, the others end in a stalemate.

The agent plays ``player_0`` against a uniformly random ``player_1`` (legal actions only), the
dealer drawn at random each hand. Run it as a script::

    python examples/train_masked_agent.py --steps 3000 --seed 0

or call :func:`train` and :func:`evaluate` (the tests do, at a tiny size).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummykit.rl import basic_rummy_v0

AGENT = "player_0"
POINTS_SCALE = 50.0
"""Points are divided by this to make a reward of about -1 to 1."""
CARD_POINTS = np.array([min(i % 13 + 1, 10) for i in range(52)], dtype=np.float32)
"""What each card counts in a hand (ace 1, court cards 10), in the hand plane's order."""


@dataclass
class LinearQ:
    """Q(s, a) = weights[kind(a)] . observation + bias[a], the best legal action chosen."""

    kinds: np.ndarray[Any, Any]  # the kind of each action number (an index into weights)
    weights: np.ndarray[Any, Any]  # one row per kind of action
    bias: np.ndarray[Any, Any]  # one per action number

    @classmethod
    def for_env(cls, raw: basic_rummy_v0.raw_env) -> LinearQ:
        """Zero weights for ``raw``'s actions, grouped by the kind of action each number is."""
        encoder = raw.encoder
        names = [type(encoder.action(i)).__name__ for i in range(encoder.num_actions)]
        order = sorted(set(names))
        kinds = np.array([order.index(name) for name in names])
        weights = np.zeros((len(order), encoder.observation_size + 1))
        return cls(kinds, weights, np.zeros(encoder.num_actions))

    def values(self, observation: np.ndarray[Any, Any], legal: np.ndarray[Any, Any]) -> Any:
        """The values of the legal action numbers ``legal``."""
        return self.weights[self.kinds[legal]] @ observation + self.bias[legal]

    def choose(self, obs: dict[str, Any], rng: np.random.Generator, epsilon: float = 0.0) -> int:
        """The best legal action (ties broken at random), or with probability ``epsilon`` a
        random legal one."""
        legal = np.flatnonzero(obs["action_mask"])
        if rng.random() < epsilon:
            return int(rng.choice(legal))
        values = self.values(_features(obs), legal)
        best = legal[values >= values.max() - 1e-9]
        return int(rng.choice(best))

    def learn(self, decisions: list[tuple[np.ndarray[Any, Any], int, float]], rate: float) -> None:
        """Move the value of each (features, action) towards its return."""
        for observation, action, target in decisions:
            kind = self.kinds[action]
            error = target - (self.weights[kind] @ observation + self.bias[action])
            self.weights[kind] += rate * error * observation
            self.bias[action] += rate * error


def _features(obs: dict[str, Any]) -> np.ndarray[Any, Any]:
    """The observation vector and a constant 1 (so each kind of action has a bias of its own)."""
    return np.append(obs["observation"], 1.0)


def _hand(
    env: Any,
    seed: int,
    agent: LinearQ | None,
    rng: np.random.Generator,
    epsilon: float,
    seen: list[tuple[np.ndarray[Any, Any], int, float]],
) -> float:
    """Play one hand dealt from ``seed`` (``agent`` None: random for both seats); returns the
    agent's reward. Each agent decision is appended to ``seen`` as (features, action, points in
    hand), and once more at the end with action -1."""
    env.reset(seed=seed)
    hand = env.unwrapped.encoder.plane("hand")
    reward = 0.0
    for name in env.agent_iter():
        obs, step_reward, terminated, truncated, _ = env.last()
        mine = name == AGENT
        if mine:
            reward += step_reward
            held = float(CARD_POINTS @ obs["observation"][hand.start : hand.start + hand.size])
        if terminated or truncated:
            if mine:
                seen.append((_features(obs), -1, held))
            env.step(None)
            continue
        if mine and agent is not None:
            action = agent.choose(obs, rng, epsilon)
            seen.append((_features(obs), action, held))
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return reward


def _returns(
    seen: list[tuple[np.ndarray[Any, Any], int, float]], outcome: float, discount: float
) -> list[tuple[np.ndarray[Any, Any], int, float]]:
    """Each decision with its return: the points it took out of the hand (from this decision
    to the next), then the later ones discounted, and the hand's outcome at the end."""
    out: list[tuple[np.ndarray[Any, Any], int, float]] = []
    later = outcome
    for (features, action, held), (_, _, held_next) in zip(
        reversed(seen[:-1]), reversed(seen[1:]), strict=True
    ):
        later = (held - held_next) / POINTS_SCALE + discount * later
        out.append((features, action, later))
    return out


def train(
    steps: int, seed: int, *, epsilon: float = 0.1, rate: float = 0.01, discount: float = 0.5
) -> LinearQ:
    """An agent trained for at least ``steps`` of its own decisions (whole hands), from ``seed``."""
    env = basic_rummy_v0.env(num_players=2, reward="points")
    agent = LinearQ.for_env(env.unwrapped)
    rng = np.random.default_rng(seed)
    deals = random.Random(seed)
    taken = 0
    while taken < steps:
        seen: list[tuple[np.ndarray[Any, Any], int, float]] = []
        outcome = _hand(env, deals.randrange(2**32), agent, rng, epsilon, seen)
        decisions = _returns(seen, outcome / POINTS_SCALE, discount)
        agent.learn(decisions, rate)
        taken += len(decisions)
    return agent


def evaluate(agent: LinearQ | None, hands: int, seed: int = 10_000) -> tuple[int, int, int]:
    """(hands won, lost, neither) by ``player_0`` against random over the hands dealt from
    ``seed``, ``seed + 1``...; ``agent`` None plays random against random."""
    env = basic_rummy_v0.env(num_players=2)
    rng = np.random.default_rng(seed)
    won = lost = 0
    for k in range(hands):
        outcome = _hand(env, seed + k, agent, rng, 0.0, [])
        won += outcome > 0
        lost += outcome < 0
    return won, lost, hands - won - lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--steps", type=int, default=3000, help="agent decisions to train for")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hands", type=int, default=200, help="hands to evaluate on")
    args = parser.parse_args()
    agent = train(args.steps, args.seed)
    for name, player in (("trained agent", agent), ("random", None)):
        won, lost, neither = evaluate(player, args.hands)
        print(
            f"{name} against random, {args.hands} hands: won {won / args.hands:.0%},"
            f" lost {lost / args.hands:.0%}, no winner {neither / args.hands:.0%}"
        )


if __name__ == "__main__":
    main()
