"""Two servers under the same load, interleaved: an older commit's against this tree's.

    python bench/load_ab.py --old 0da9eb2 --tables 100 --seconds 30 --repeats 3
    python bench/load_ab.py --old 0da9eb2 --tables 30 --seconds 20 --think 0 --delay 0

Each repeat runs ``bench/load.py`` once against each server, one after the other, the order
swapped every repeat (old first in odd repeats), so that both see the same machine over the same
minutes. The old server runs from a git worktree of ``--old`` made in a temporary folder (removed
at the end), with this tree's Python environment; the load is the same (same ``--seed``, so the
same draws of games, levels, think times and moves as far as the servers' deals allow, from
the same ``--mix``). The figures are the medians over the repeats with their spread (min-max),
and the ratio new/old of the medians. Loopback only, bounded: each run stops by itself (see
``bench/load.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from load_person import MIXES
from worktree import old_tree

HERE = Path(__file__).resolve().parent

FIGURES = [
    ("p50 ms", "p50_ms"),
    ("p99 ms", "p99_ms"),
    ("max ms", "max_ms"),
    ("computer late p99 ms", "late_p99_ms"),
    ("actions/s", "actions_per_s"),
    ("server CPU %", "server_cpu_pct"),
    ("hinters' hints/s", "heavy_hints_per_s"),
    ("errors", "errors"),
]


def one_run(src: Path | None, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, str(HERE / "load.py"), "--json"]
    command += ["--tables", str(args.tables), "--seconds", str(args.seconds)]
    command += ["--think", str(args.think), "--delay", str(args.delay), "--seed", str(args.seed)]
    command += ["--hinters", str(args.hinters), "--mix", args.mix]
    if src is not None:
        command += ["--src", str(src)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + 120)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        raise RuntimeError(f"bench/load.py gave no figures:\n{done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(lines[-1])
    return figures


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    med = statistics.median(values)
    return f"{med:,.1f} ({min(values):,.1f}-{max(values):,.1f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the older commit (any git revision)")
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.5)
    parser.add_argument("--delay", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hinters", type=int, default=0, help="see bench/load.py")
    parser.add_argument("--mix", choices=MIXES, default="realistic", help="see bench/load.py")
    parser.add_argument("--json", action="store_true", help="every run's figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.repeats <= 20:
        parser.error("--repeats is 1 to 20")
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    with old_tree(args.old) as worktree:
        for repeat in range(args.repeats):
            order = ["old", "new"] if repeat % 2 == 0 else ["new", "old"]
            for name in order:
                figures = one_run(worktree if name == "old" else None, args)
                runs[name].append(figures)
                print(
                    f"repeat {repeat + 1} {name}: p50 {figures['p50_ms']} ms,"
                    f" p99 {figures['p99_ms']} ms, {figures['actions_per_s']} actions/s,"
                    f" errors {figures['errors']}",
                    file=sys.stderr,
                )
    if args.json:
        print(json.dumps(runs))
        return 0
    print(
        f"{args.tables} tables, {args.seconds:g} s measured, think {args.think:g} s,"
        f" delay {args.delay:g} s, seed {args.seed}, mix {args.mix}, {args.hinters} hinters;"
        f" {args.repeats} repeats, interleaved;"
        f" old = {args.old}, new = this tree. Median (min-max) over the repeats."
    )
    print("| figure | old | new | new/old |\n|---|---|---|---|")
    for label, key in FIGURES:
        old = [float(r[key]) for r in runs["old"] if r.get(key) is not None]
        new = [float(r[key]) for r in runs["new"] if r.get(key) is not None]
        ratio = "-"
        if old and new and statistics.median(old) > 0:
            ratio = f"{statistics.median(new) / statistics.median(old):.2f}"
        print(f"| {label} | {spread(old)} | {spread(new)} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
