"""Engine speed: random-v-random Gin Rummy hands in rummykit, OpenSpiel and RLCard, same run;
Basic and Crazy Rummy against an older commit of rummykit.

Run it on purpose (``make bench`` or ``python bench/engine.py --hands 300 --repeats 5``); it needs
the ``bench`` extra (open-spiel, rlcard). ``--games rummy,crazy`` gives the Basic and Crazy
Rummy rows instead (no peer engine: this tree against ``--old``, see ``bench/house_engines.py``
for how their hands are drawn and timed); ``--games gin,rummy,crazy`` gives both tables. Each engine plays ``--hands`` hands of uniformly random
play, ``--repeats`` times; the table shows the median hands per second, the mean actions a hand
(random play lengths differ between engines, so per-action speed is shown too) and the ratios of
rummykit to each peer. ``--profile`` adds a cProfile of the rummykit loop.

What is timed:

- rummykit: ``state.legal_actions()`` + ``rng.choice`` + ``state.apply`` from deal to score.
- OpenSpiel ``gin_rummy``: a Python loop; chance nodes sampled from ``state.chance_outcomes()``
  with ``random.Random``, decisions uniform over ``state.legal_actions()``.
- RLCard ``gin-rummy``: ``env.run()`` with two ``RandomAgent``s (its normal path; it also builds
  observation arrays every step, which is part of what a user of RLCard pays).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from house_engines import BASELINE, compare

from rummykit.games import Gin

Runner = Callable[[int, int], tuple[int, int]]
"""Plays ``hands`` hands from ``seed``; returns (actions, hands that ran to the wall)."""


@dataclass(frozen=True)
class Measure:
    """One engine's result: median speed over the repeats and the shape of its hands."""

    name: str
    hands: int
    hands_per_second: float
    actions_per_hand: float
    wall_fraction: float
    """The share of hands that ended at the wall (cancelled / dead hand) rather than by a knock."""

    @property
    def actions_per_second(self) -> float:
        """Actions (decisions) applied per second."""
        return self.hands_per_second * self.actions_per_hand


def run_rummykit(hands: int, seed: int) -> tuple[int, int]:
    """The rummykit loop: legal actions, a uniform choice, apply."""
    rng = random.Random(seed)
    game = Gin()
    actions = walls = 0
    for index in range(hands):
        state = game.new_hand(seed=rng.randrange(1 << 62), dealer=index % 2)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        actions += len(state.history)
        assert state.result is not None
        walls += state.result.winner is None
    return actions, walls


def openspiel_chance(state: Any, rng: random.Random) -> None:
    """Apply one of an OpenSpiel chance node's outcomes (the deal), uniformly from ``rng``."""
    outcomes = state.chance_outcomes()
    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])


def run_openspiel(hands: int, seed: int) -> tuple[int, int]:
    """OpenSpiel's C++ gin_rummy driven from Python, chance sampled like rummykit's deal."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = walls = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                openspiel_chance(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        walls += state.returns()[0] == 0
    return actions, walls


def run_rlcard(hands: int, seed: int) -> tuple[int, int]:
    """RLCard's env.run() with two random agents (numpy's global generator, seeded)."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.games.gin_rummy.utils.action_event import DeclareDeadHandAction

    np.random.seed(seed % (1 << 32))
    env = rlcard.make("gin-rummy", config={"seed": seed % (1 << 32)})
    counter = [0]

    class CountingAgent(RandomAgent):  # type: ignore[misc]
        def eval_step(self, state: Any) -> tuple[Any, dict[str, Any]]:
            counter[0] += 1
            return self.step(state), {}

    env.set_agents([CountingAgent(num_actions=env.num_actions) for _ in range(2)])
    walls = 0
    for _ in range(hands):
        env.run(is_training=False)
        walls += isinstance(env.game.round.going_out_action, DeclareDeadHandAction)
    return counter[0], walls


ENGINES: dict[str, Runner] = {
    "rummykit": run_rummykit,
    "openspiel": run_openspiel,
    "rlcard": run_rlcard,
}


def measure(name: str, runner: Runner, hands: int, repeats: int, seed: int) -> Measure:
    """Run ``runner`` ``repeats`` times (after one small warm-up) and take the median speed."""
    runner(min(hands, 5), seed - 1)
    speeds: list[float] = []
    actions = walls = 0
    for repeat in range(repeats):
        started = time.perf_counter()
        a, w = runner(hands, seed + repeat)
        speeds.append(hands / (time.perf_counter() - started))
        actions += a
        walls += w
    total = hands * repeats
    return Measure(name, hands, statistics.median(speeds), actions / total, walls / total)


def profile_rummykit(hands: int, seed: int, top: int = 25) -> str:
    """A cProfile of the rummykit loop, sorted by own time."""
    profiler = cProfile.Profile()
    profiler.runcall(run_rummykit, hands, seed)
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    return text.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run every engine, print the table and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=300, help="hands per repeat (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per engine (default 5)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the first repeat")
    parser.add_argument(
        "--engines", default=",".join(ENGINES), help=f"comma-separated subset of {list(ENGINES)}"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the rummykit loop")
    parser.add_argument(
        "--games", default="gin", help="comma-separated: gin (the peer table), rummy, crazy"
    )
    parser.add_argument(
        "--old", default=BASELINE, help=f"the older commit for rummy and crazy (default {BASELINE})"
    )
    args = parser.parse_args(argv)
    if args.hands < 1 or args.repeats < 1:
        parser.error("--hands and --repeats must be at least 1")
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    house = [g for g in games if g in ("rummy", "crazy")]
    if set(games) - {"gin", *house}:
        parser.error("--games takes gin, rummy and crazy")
    if house:
        compare(house, args.old, args.repeats, args.seed, scale=1.0)
    if "gin" not in games:
        return 0

    results: dict[str, Measure] = {}
    for name in args.engines.split(","):
        runner = ENGINES.get(name.strip())
        if runner is None:
            parser.error(f"unknown engine {name!r} (known: {', '.join(ENGINES)})")
        try:
            results[name] = measure(name, runner, args.hands, args.repeats, args.seed)
        except ImportError as exc:
            print(f"{name}: skipped ({exc}); install the bench extra", file=sys.stderr)
            continue
        m = results[name]
        print(f"  {name}: {m.hands_per_second:,.0f} hands/s", file=sys.stderr, flush=True)

    print(
        f"\nrandom v random Gin Rummy, {args.hands} hands x {args.repeats} repeats "
        f"(median), Python {sys.version.split()[0]}"
    )
    header = f"{'engine':<10} {'hands/s':>9} {'actions/hand':>13} {'actions/s':>10} {'at wall':>8}"
    print(header)
    print("-" * len(header))
    for m in results.values():
        print(
            f"{m.name:<10} {m.hands_per_second:>9,.0f} {m.actions_per_hand:>13.1f} "
            f"{m.actions_per_second:>10,.0f} {m.wall_fraction:>8.0%}"
        )
    ours = results.get("rummykit")
    if ours is not None:
        print()
        for peer, target in (("openspiel", 2.0), ("rlcard", 10.0)):
            other = results.get(peer)
            if other is None:
                continue
            ratio = ours.hands_per_second / other.hands_per_second
            per_action = ours.actions_per_second / other.actions_per_second
            verdict = "meets" if ratio >= target else "MISSES"
            print(
                f"rummykit / {peer}: {ratio:.2f}x hands/s, {per_action:.2f}x actions/s "
                f"({verdict} the {target:g}x target)"
            )
    if "openspiel" in results:
        print(
            "note: OpenSpiel's random play mostly runs to the wall; its hands also count the "
            "knock/meld/lay-off decisions of its own action encoding (chance deals not counted)."
        )
    if args.profile:
        print("\n" + profile_rummykit(args.hands, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
