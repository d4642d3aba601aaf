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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from positions import openspiel_positions, per_call, rummykit_positions


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
        states = rummykit_positions(name, players, moves, args.seed, in_play=True)
        clone = per_call(states, lambda s: s.clone(), args.repeats)
        resample = per_call(states, lambda s: s.resample(s.to_act, draw), args.repeats)
        gin_time = gin_time or resample
        rows.append((label, resample, clone, f"{resample / clone:.1f}x clone"))
    peer = openspiel_positions(moves, args.seed, in_play=True)
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
