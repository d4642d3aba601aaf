"""Crazy Rummy computer players: decision time per level and level-against-level match results.

Run it on purpose (timings want an otherwise idle machine; quote medians)::

    python bench/crazy_players.py time --matches 3 --levels easy,medium,hard
    python bench/crazy_players.py strength --pairs hard:medium,medium:easy --matches 300 --jobs 2

``time`` plays ``--matches`` whole seven-round matches per level at a table of four, the level
at seats 0 and 2 and ``medium`` at seats 1 and 3, and times every decision the level makes
(``choose(view)``, the view already built, as the web app calls it). Targets (the issue):
``hard`` median at most 100 ms and 99th percentile at most 1 s; ``easy`` and ``medium`` median
under 10 ms.

``strength`` plays each pair ``A:B`` as four players, seats A, B, A, B, with
:func:`rummykit.sim.simulate` (the first dealer moves one seat on every match, so each level sits
at every place relative to the dealer; match ``i`` is dealt from ``derive_seed(seed, i)``). A
match is won by the lowest total after seven rounds (ties share). Reported per level: match wins,
the win rate among the matches' winning seats with its Wilson 95% interval (an even share is
50%: each level holds two seats), and the mean final total. Both sub-commands also write JSON
to ``bench/results/`` (gitignored).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from timing import TARGETS, percentile

from rummykit.games import Crazy
from rummykit.games.seeding import derive_seed
from rummykit.players import find_player
from rummykit.sim import simulate
from rummykit.tournament import wilson

RESULTS = Path(__file__).resolve().parent / "results"


def time_level(level: str, matches: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds per decision of ``level``, by phase, over ``matches`` four-player matches."""
    game = Crazy()
    times: dict[str, list[float]] = {}
    for index in range(matches):
        match_seed = derive_seed(seed, index)
        names = [level, "medium", level, "medium"]
        players = [
            find_player("crazy", name, derive_seed(match_seed, seat + 1))
            for seat, name in enumerate(names)
        ]
        match = game.new_match(players=4, seed=match_seed, dealer=index % 4)
        while True:
            state = match.hand
            while not state.is_over:
                seat = state.to_act
                assert seat is not None
                view = state.view(seat)
                started = time.perf_counter()
                action = players[seat].choose(view)
                spent = (time.perf_counter() - started) * 1000
                if names[seat] == level and seat % 2 == 0:
                    times.setdefault(view.phase.value, []).append(spent)
                match.apply(action, seat)
            if match.is_over:
                break
            match.next_hand()
    return times


def cmd_time(args: argparse.Namespace) -> int:
    rows: dict[str, Any] = {}
    ok = True
    print(f"decision time (ms), {args.matches} matches per level, seed {args.seed}")
    print(
        f"{'level':8} {'n':>6} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}   by phase (median)"
    )
    for level in args.levels.split(","):
        by_phase = time_level(level, args.matches, args.seed)
        every = [t for ts in by_phase.values() for t in ts]
        row: dict[str, Any] = {
            "decisions": len(every),
            "median": statistics.median(every),
            "p90": percentile(every, 0.9),
            "p99": percentile(every, 0.99),
            "max": max(every),
            "by_phase": {
                phase: {"n": len(ts), "median": statistics.median(ts), "p99": percentile(ts, 0.99)}
                for phase, ts in sorted(by_phase.items())
            },
        }
        rows[level] = row
        phases = ", ".join(
            f"{p} {v['median']:.1f} (n={v['n']})" for p, v in row["by_phase"].items()
        )
        print(
            f"{level:8} {row['decisions']:>6} {row['median']:>8.2f} {row['p90']:>8.1f} "
            f"{row['p99']:>8.1f} {row['max']:>8.1f}   {phases}"
        )
        median_limit, p99_limit = TARGETS.get(level, (None, None))
        if median_limit is not None and row["median"] > median_limit:
            ok = False
        if p99_limit is not None and row["p99"] > p99_limit:
            ok = False
    _write("crazy_decision_time.json", {"matches": args.matches, "seed": args.seed, **rows})
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


def strength(a: str, b: str, matches: int, seed: int, jobs: int) -> dict[str, Any]:
    """Play ``matches`` four-player matches, seats a, b, a, b; the per-level summary."""
    report = simulate("crazy", [a, b, a, b], matches=matches, seed=seed, jobs=jobs)
    stats = report.players
    wins = {a: stats[0].matches_won + stats[2].matches_won}
    wins[b] = stats[1].matches_won + stats[3].matches_won
    totals = {
        a: ((stats[0].mean_total or 0.0) + (stats[2].mean_total or 0.0)) / 2,
        b: ((stats[1].mean_total or 0.0) + (stats[3].mean_total or 0.0)) / 2,
    }
    decided = wins[a] + wins[b]
    low, high = wilson(wins[a], decided)
    return {
        "pair": f"{a}:{b}",
        "matches": matches,
        "seed": seed,
        "wins": wins,
        "win_rate": wins[a] / decided if decided else 0.0,
        "ci95": [low, high],
        "mean_total": totals,
        "hands": report.hands,
        "outcomes": report.outcomes,
        "elapsed": report.elapsed,
    }


def cmd_strength(args: argparse.Namespace) -> int:
    results = []
    ok = True
    for pair in args.pairs.split(","):
        a, _, b = pair.partition(":")
        row = strength(a, b, args.matches, args.seed, args.jobs)
        results.append(row)
        low, high = row["ci95"]
        print(
            f"{a} v {b}: {args.matches} matches (4 players, seats {a},{b},{a},{b}), seed "
            f"{args.seed}: {a} won {row['wins'][a]}, {b} won {row['wins'][b]}; {a}'s share "
            f"{row['win_rate']:.1%} (95% CI {low:.1%}-{high:.1%}); mean total {a} "
            f"{row['mean_total'][a]:.1f}, {b} {row['mean_total'][b]:.1f}; "
            f"{row['elapsed']:.0f} s"
        )
        if low <= 0.5:
            ok = False
    _write(f"crazy_strength_{args.matches}_{args.seed}.json", {"pairs": results})
    print("every stronger level wins at 95% confidence" if ok else "NOT SIGNIFICANT")
    return 0 if ok else 1


def _write(name: str, data: dict[str, Any]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / name).write_text(json.dumps(data, indent=2) + "\n", "utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    timing = sub.add_parser("time", help="decision time per level")
    timing.add_argument("--matches", type=int, default=3)
    timing.add_argument("--levels", default="easy,medium,hard")
    timing.add_argument("--seed", type=int, default=1)
    timing.set_defaults(run=cmd_time)
    versus = sub.add_parser("strength", help="level against level, four players")
    versus.add_argument("--pairs", default="hard:medium,medium:easy")
    versus.add_argument("--matches", type=int, default=200)
    versus.add_argument("--seed", type=int, default=1)
    versus.add_argument("--jobs", type=int, default=1)
    versus.set_defaults(run=cmd_strength)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
