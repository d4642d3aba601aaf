"""Time to a first Gin hand in a fresh interpreter: rummykit against OpenSpiel.

Usage: ``python bench/import_time.py [--repeats R]`` (needs OpenSpiel: the ``openspiel`` or
``bench`` extra).

Each repeat starts two fresh Python processes, one per side, one after the other; the side that
goes first alternates from repeat to repeat, so that neither always meets a warmer disk cache or
a quieter machine. In each process the script takes ``time.perf_counter()``, then

- rummykit: ``import rummykit.games.gin`` and ``Gin().new_hand(seed=1)``;
- OpenSpiel: ``import pyspiel``, ``pyspiel.load_game("gin_rummy")`` and ``new_initial_state()``;

and prints the time taken. The parent also times the whole process (interpreter start and exit
included). The table shows, per side, the median and the spread (lowest-highest) of both, in
milliseconds, and the ratio of the medians (rummykit / OpenSpiel: below 1, rummykit is ready
sooner).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SIDES = {
    "rummykit": "import rummykit.games.gin as g; g.Gin().new_hand(seed=1)",
    "OpenSpiel": "import pyspiel; pyspiel.load_game('gin_rummy').new_initial_state()",
}

_CHILD = "import time; t = time.perf_counter(); {code}; print((time.perf_counter() - t) * 1000)"


def run_once(code: str) -> tuple[float, float]:
    """(milliseconds to the first hand inside the process, milliseconds of the whole process)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD.format(code=code)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
    )
    whole = (time.perf_counter() - started) * 1000
    return float(done.stdout.strip().splitlines()[-1]), whole


def spread(values: list[float]) -> str:
    """Median and lowest-highest, in milliseconds."""
    return f"{statistics.median(values):7.1f} ({min(values):.1f}-{max(values):.1f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="repeats (default 9)")
    args = parser.parse_args(argv)
    for code in SIDES.values():
        run_once(code)  # warm-up: byte-code compiled, files in the disk cache
    inside: dict[str, list[float]] = {side: [] for side in SIDES}
    whole: dict[str, list[float]] = {side: [] for side in SIDES}
    order = list(SIDES)
    for repeat in range(args.repeats):
        for side in order if repeat % 2 == 0 else order[::-1]:
            ms, total = run_once(SIDES[side])
            inside[side].append(ms)
            whole[side].append(total)
    print(f"{args.repeats} repeats, fresh processes, sides alternating first; ms: median (range)")
    print(f"{'side':<10} {'import + first hand':>26} {'whole process':>26}")
    for side in SIDES:
        print(f"{side:<10} {spread(inside[side]):>26} {spread(whole[side]):>26}")
    ours, theirs = (statistics.median(inside[s]) for s in SIDES)
    ours_whole, theirs_whole = (statistics.median(whole[s]) for s in SIDES)
    print(
        f"ratio rummykit / OpenSpiel: {ours / theirs:.2f} (import + first hand),"
        f" {ours_whole / theirs_whole:.2f} (whole process)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
