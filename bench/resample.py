"""Determinizing a position (for search): ``state.resample(seat)`` against ``state.clone()``
and OpenSpiel's ``state.resample_from_infostate(player, sampler)``.

Usage: ``python bench/resample.py [--positions N] [--repeats R] [--seed S]`` (OpenSpiel, from the
``bench`` extra, adds its Gin row; without it only rummykit's rows are printed).

Positions are mid-hand: each is a hand played at random for 20 to 40 moves (hands that ended
sooner are dealt again), resampled for the seat to act. Each row times resampling every kept
position once, ``--repeats`` times, and shows the median microseconds per call, beside the
median of ``clone()`` of the same positions (the ratio is resample over clone). The OpenSpiel row
resamples its own Gin positions reached by the same numbers of moves; its ratio is OpenSpiel's
time over rummykit's Gin resample (above 1: rummykit is faster).
"""

from __future__ import annotations

import argparse
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


def positions(name: str, players: int, moves: Sequence[int], seed: int) -> list[HandState]:
    """One mid-hand position per entry of ``moves`` (that many random actions into a hand)."""
    rng = random.Random(seed)
    game = find_game(name)
    out: list[HandState] = []
    for count in moves:
        while True:
            state = game.new_hand(players=players, seed=rng.randrange(1 << 62))
            for _ in range(count):
                if state.is_over:
                    break
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            if not state.is_over:
                out.append(state)
                break
    return out


def openspiel_positions(moves: Sequence[int], seed: int) -> list[Any] | None:
    """Gin positions in OpenSpiel after the same numbers of moves, or None without it."""
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
        if not state.is_terminal():
            out.append(state)
    return out


def per_call(states: Sequence[Any], call: Callable[[Any], Any], repeats: int) -> float:
    """Median microseconds of one call, over ``repeats`` passes over ``states``."""
    for state in states[:10]:
        call(state)  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        for state in states:
            call(state)
        times.append((time.perf_counter() - started) / len(states))
    return statistics.median(times) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300, help="positions (default 300)")
    parser.add_argument("--repeats", type=int, default=7, help="passes (default 7)")
    parser.add_argument("--seed", type=int, default=2024, help="seed")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    moves = [rng.randrange(20, 41) for _ in range(args.positions)]
    draw = random.Random(args.seed + 1)
    rows: list[tuple[str, float, float, str]] = []
    gin_time = 0.0
    for name, players, label in (
        ("gin", 2, "Gin"),
        ("rummy", 4, "Basic Rummy (4), rummy"),
        ("rummy-classic", 4, "Basic Rummy (4), rummy-classic"),
        ("crazy", 4, "Crazy Rummy (4)"),
    ):
        states = positions(name, players, moves, args.seed)
        clone = per_call(states, lambda s: s.clone(), args.repeats)
        resample = per_call(states, lambda s: s.resample(s.to_act, draw), args.repeats)
        gin_time = gin_time or resample
        rows.append((label, resample, clone, f"{resample / clone:.1f}x clone"))
    peer = openspiel_positions(moves, args.seed)
    if peer is not None:
        import pyspiel

        sampler = pyspiel.UniformProbabilitySampler(args.seed, 0.0, 1.0)
        theirs = per_call(
            peer,
            lambda s: s.resample_from_infostate(s.current_player(), sampler),
            args.repeats,
        )
        clone = per_call(peer, lambda s: s.clone(), args.repeats)
        rows.append(("Gin, OpenSpiel", theirs, clone, f"{theirs / gin_time:.1f}x rummykit Gin"))
    else:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): no peer row")
    print(f"{args.positions} positions, 20-40 random moves in, median of {args.repeats} passes")
    print(f"{'':32} {'us/resample':>12} {'us/clone':>9}  ratio")
    for label, micros, clone_micros, ratio in rows:
        print(f"{label:32} {micros:12.1f} {clone_micros:9.1f}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
