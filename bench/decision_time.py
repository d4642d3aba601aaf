"""Gin Rummy decision time per level: median, 90th and 99th percentile, worst, in milliseconds.

Run it on purpose, on an otherwise idle machine::

    python bench/decision_time.py --hands 100 --levels easy,medium,hard

Each level plays ``--hands`` whole hands against ``medium`` (seats and dealers alternate) in one
process, and every decision it makes is timed (``choose(view)``, the view already built, as the
web app calls it). Targets (issue 5): ``hard`` median at most 100 ms and 99th percentile at most
1 s; ``easy`` and ``medium`` median under 10 ms. The table is also written as JSON to
``bench/results/`` (gitignored).

Both clocks are read: wall time (``perf_counter``, what a person waits, the targets' measure)
and the process's CPU time (``process_time``), which other programs sharing the cores do not
inflate; on a busy machine compare the CPU columns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from timing import TARGETS, percentile

from rummykit.games import Gin
from rummykit.games.seeding import derive_seed
from rummykit.players import find_player

RESULTS = Path(__file__).resolve().parent / "results"


def time_level(level: str, hands: int, seed: int) -> tuple[list[float], list[float]]:
    """Milliseconds per decision of ``level`` over ``hands`` hands against ``medium``: wall
    time and CPU time."""
    times: list[float] = []
    cpu: list[float] = []
    game = Gin()
    for index in range(hands):
        hand_seed = derive_seed(seed, index)
        ours = index % 2
        players = [find_player("gin", "medium", derive_seed(hand_seed, 2)) for _ in (0, 1)]
        players[ours] = find_player("gin", level, derive_seed(hand_seed, 1))
        state = game.new_hand(seed=hand_seed, dealer=(index // 2) % 2)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            started = time.perf_counter()
            started_cpu = time.process_time()
            action = players[seat].choose(view)
            if seat == ours:
                times.append(1000 * (time.perf_counter() - started))
                cpu.append(1000 * (time.process_time() - started_cpu))
            state.apply(action, seat)
    return times, cpu


def main(argv: list[str] | None = None) -> int:
    """Time every level asked for and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=100, help="hands per level (default 100)")
    parser.add_argument("--levels", default="easy,medium,hard", help="comma-separated levels")
    parser.add_argument("--seed", type=int, default=11, help="seed of the run")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    rows = {}
    print(
        f"{'level':<8} {'decisions':>9} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8} "
        f"{'cpu med':>8} {'cpu p99':>8}  target (wall)"
    )
    for level in (name.strip() for name in args.levels.split(",")):
        times, cpu = time_level(level, args.hands, args.seed)
        row = {
            "decisions": len(times),
            "median_ms": statistics.median(times),
            "p90_ms": percentile(times, 0.90),
            "p99_ms": percentile(times, 0.99),
            "max_ms": max(times),
            "cpu_median_ms": statistics.median(cpu),
            "cpu_p99_ms": percentile(cpu, 0.99),
        }
        rows[level] = row
        med_limit, p99_limit = TARGETS.get(level, (None, None))
        verdict = []
        if med_limit is not None:
            ok = row["median_ms"] <= med_limit
            verdict.append(f"median <= {med_limit:g} ms {'ok' if ok else 'MISSED'}")
        if p99_limit is not None:
            ok = row["p99_ms"] <= p99_limit
            verdict.append(f"p99 <= {p99_limit:g} ms {'ok' if ok else 'MISSED'}")
        print(
            f"{level:<8} {row['decisions']:>9} {row['median_ms']:>8.2f} {row['p90_ms']:>8.2f} "
            f"{row['p99_ms']:>8.2f} {row['max_ms']:>8.2f} {row['cpu_median_ms']:>8.2f} "
            f"{row['cpu_p99_ms']:>8.2f}  {', '.join(verdict)}",
            flush=True,
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "gin_decision_time.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
