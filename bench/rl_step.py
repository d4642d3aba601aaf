"""A learning agent's loop: observation, legal-action mask, a numbered action; Gin, same run.

Run it on purpose (``python bench/rl_step.py --hands 200 --repeats 5``); it needs the ``bench``
extra (open-spiel, rlcard). Every decision of a random-v-random Gin hand is what a reinforcement
learning loop pays per step:

- rummykit: ``state.view(seat)``, ``encoder.observation(view)``, ``encoder.legal_mask(view)`` (for
  a network) and a uniform choice among ``encoder.legal_ids(view)`` (:mod:`rummykit.encoding`),
  ``state.apply``;
- OpenSpiel ``gin_rummy``: ``state.observation_tensor()``, ``state.legal_actions_mask()`` and a
  uniform choice among ``state.legal_actions()``, ``state.apply_action`` (chance nodes sampled,
  not counted as decisions);
- RLCard ``gin-rummy``: ``env.step(action)``, which returns the next observation and legal
  actions, a uniform choice among those.

The table shows the median decisions per second over the repeats and rummykit's ratio to each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import openspiel_chance

from rummykit.encoding import encoder_for
from rummykit.games import Gin

Runner = Callable[[int, int], int]
"""Plays ``hands`` hands from ``seed``; returns the number of decisions made."""


def run_rummykit(hands: int, seed: int) -> int:
    """The loop through rummykit's views and its Gin encoder."""
    rng = random.Random(seed)
    game = Gin()
    enc = encoder_for(game)
    decisions = 0
    for index in range(hands):
        state = game.new_hand(seed=rng.randrange(1 << 62), dealer=index % 2)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            enc.observation(view)
            enc.legal_mask(view)
            state.apply(enc.action(rng.choice(enc.legal_ids(view))))
            decisions += 1
    return decisions


def run_openspiel(hands: int, seed: int) -> int:
    """OpenSpiel's C++ gin_rummy driven from Python."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                openspiel_chance(state, rng)
                continue
            state.observation_tensor()
            state.legal_actions_mask()
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def run_rlcard(hands: int, seed: int) -> int:
    """RLCard's env.reset() / env.step() loop (observations built by the env every step)."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed % (1 << 32)})
    rng = random.Random(seed)
    decisions = 0
    for _ in range(hands):
        state, _player = env.reset()
        while not env.is_over():
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            decisions += 1
    return decisions


ENGINES: dict[str, Runner] = {
    "rummykit": run_rummykit,
    "openspiel": run_openspiel,
    "rlcard": run_rlcard,
}


def main(argv: list[str] | None = None) -> int:
    """Time every engine, then print decisions per second and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=200, help="hands per repeat (default 200)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per engine (default 5)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the first repeat")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.repeats < 1:
        parser.error("--hands and --repeats must be at least 1")
    rates: dict[str, list[float]] = {name: [] for name in ENGINES}
    available = dict(ENGINES)
    for repeat in range(args.repeats):
        # The engines take turns repeat by repeat, so a slow patch of the machine hits them all.
        for name, runner in list(available.items()):
            try:
                started = time.perf_counter()
                decisions = runner(args.hands, args.seed + repeat)
            except ImportError as exc:
                print(f"{name}: skipped ({exc}); install the bench extra", file=sys.stderr)
                del available[name]
                continue
            rates[name].append(decisions / (time.perf_counter() - started))
    print(
        f"RL loop on random-v-random Gin hands (observation + legal mask + numbered action),"
        f" {args.hands} hands x {args.repeats} repeats, median; Python {sys.version.split()[0]}"
    )
    header = f"{'engine':<10} {'decisions/s':>12} {'rummykit is':>12}"
    print(header)
    print("-" * len(header))
    ours = statistics.median(rates["rummykit"])
    for name, values in rates.items():
        if not values:
            continue
        rate = statistics.median(values)
        ratio = "" if name == "rummykit" else f"{ours / rate:.2f}x"
        print(f"{name:<10} {rate:>12,.0f} {ratio:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
