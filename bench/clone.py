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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from positions import openspiel_positions, per_call, rummykit_positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500, help="positions (default 500)")
    parser.add_argument("--repeats", type=int, default=7, help="passes (default 7)")
    parser.add_argument("--seed", type=int, default=2024, help="seed")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    moves = [rng.randrange(41) for _ in range(args.positions)]
    gin = rummykit_positions("gin", 2, moves, args.seed)
    ours = per_call(gin, lambda s: s.clone(), args.repeats)
    rows: list[tuple[str, float, str]] = [("Gin, rummykit state.clone()", ours, "")]
    peer = openspiel_positions(moves, args.seed)
    if peer is not None:
        theirs = per_call(peer, lambda s: s.clone(), args.repeats)
        rows.append(("Gin, OpenSpiel state.clone()", theirs, f"{theirs / ours:.1f}x"))
    else:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): no peer row")
    deep = per_call(gin, copy.deepcopy, max(1, args.repeats // 3))
    rows.append(("Gin, rummykit copy.deepcopy", deep, f"{deep / ours:.1f}x"))
    for name, label in (("rummy", "Basic Rummy"), ("crazy", "Crazy Rummy")):
        states = rummykit_positions(name, 4, moves, args.seed)
        rows.append(
            (
                f"{label} (4), rummykit state.clone()",
                per_call(states, lambda s: s.clone(), args.repeats),
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
