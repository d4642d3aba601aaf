"""Branching a position (for search): ``state.clone()`` against OpenSpiel's ``state.clone()``.

Usage: ``python bench/clone.py [--positions N] [--repeats R] [--seed S]`` (needs the ``bench``
extra for OpenSpiel; without it only rummykit's rows are printed).

Positions are taken from uniformly random play: each engine plays ``--positions`` Gin hands from
their deal for a random number of moves (0 to 40, the same numbers in both engines) and keeps the
state. Each row times cloning every kept position once, ``--repeats`` times, and shows the median
microseconds per clone; the ratio is OpenSpiel's time over rummykit's (above 1: rummykit is
faster). Extra rows, with no peer (OpenSpiel has no Basic or Crazy Rummy, RLCard no clone):
``copy.deepcopy`` of the same Gin states (what a user would do without ``clone``), and
``clone()`` of Basic Rummy (4 players) and Crazy Rummy (4 players) positions.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummykit.games import find_game
from rummykit.games.base import HandState


def rummykit_positions(name: str, players: int, moves: Sequence[int], seed: int) -> list[Any]:
    """One random position per entry of ``moves`` (that many random actions into a hand)."""
    rng = random.Random(seed)
    game = find_game(name)
    out: list[HandState] = []
    for count in moves:
        state = game.new_hand(players=players, seed=rng.randrange(1 << 62))
        for _ in range(count):
            if state.to_act is None:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))], state.to_act)
        out.append(state)
    return out


def openspiel_positions(moves: Sequence[int], seed: int) -> list[Any] | None:
    """The same in OpenSpiel's gin_rummy (chance sampled), or None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    out = []
    for count in moves:
        state = game.new_initial_state()
        made = 0
        while not state.is_terminal() and (made < count or state.is_chance_node()):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                made += 1
        out.append(state)
    return out


def per_clone(states: Sequence[Any], clone: Callable[[Any], Any], repeats: int) -> float:
    """Median microseconds to clone one state, over ``repeats`` passes over ``states``."""
    for state in states[:10]:
        clone(state)  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        for state in states:
            clone(state)
        times.append((time.perf_counter() - started) / len(states))
    return statistics.median(times) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500, help="positions (default 500)")
    parser.add_argument("--repeats", type=int, default=7, help="passes (default 7)")
    parser.add_argument("--seed", type=int, default=2024, help="seed")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    moves = [rng.randrange(41) for _ in range(args.positions)]
    gin = rummykit_positions("gin", 2, moves, args.seed)
    ours = per_clone(gin, lambda s: s.clone(), args.repeats)
    rows: list[tuple[str, float, str]] = [("Gin, rummykit state.clone()", ours, "")]
    peer = openspiel_positions(moves, args.seed)
    if peer is not None:
        theirs = per_clone(peer, lambda s: s.clone(), args.repeats)
        rows.append(("Gin, OpenSpiel state.clone()", theirs, f"{theirs / ours:.1f}x"))
    else:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): no peer row")
    deep = per_clone(gin, copy.deepcopy, max(1, args.repeats // 3))
    rows.append(("Gin, rummykit copy.deepcopy", deep, f"{deep / ours:.1f}x"))
    for name, label in (("rummy", "Basic Rummy"), ("crazy", "Crazy Rummy")):
        states = rummykit_positions(name, 4, moves, args.seed)
        rows.append(
            (
                f"{label} (4), rummykit state.clone()",
                per_clone(states, lambda s: s.clone(), args.repeats),
                "",
            )
        )
    print(f"{args.positions} positions, 0-40 random moves in, median of {args.repeats} passes")
    print(f"{'':40} {'us/clone':>9}  {'that / rummykit Gin clone':>25}")
    for label, micros, ratio in rows:
        print(f"{label:40} {micros:9.1f}  {ratio:>25}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
