"""Basic Rummy computer players: decision time per level, and level-against-level match results.

Run it on purpose::

    python bench/rummy_players.py timing --hands 8 --players 2,4
    python bench/rummy_players.py strength --pair hard,medium --players 2 --matches 200 --seed 1
    python bench/rummy_players.py strength --pair medium,easy --players 4 --matches 200 --seed 1
    python bench/rummy_players.py strength --pair hard,medium --preset rummy-classic --matches 60
    python bench/rummy_players.py combine bench/results/rummy_rummy_hard_v_medium_4p_*.json

``timing`` plays whole hands with every seat at one level and times every decision (each seat's
``choose`` on its own view): median, 90th and 99th percentile and maximum, per level and table
size, per phase too.

``strength`` plays matches (to 100, the preset's rules) with :func:`rummykit.sim.simulate`, the
two levels alternating round the table (``A,B`` or ``A,B,A,B``...) and then the same matches with
the seats swapped (``B,A``, ``B,A,B,A``...), the same deals both ways (the same seed), so neither
seat position nor the luck of the deal favours a level. It reports, per level, the matches won (a
shared win counts for each level among the winners) and the first level's share of the match wins
with a Wilson 95% interval, plus mean hand points per seat. Results are also written as JSON to
``bench/results/`` (gitignored).

Timings are wall-clock on whatever the machine is doing (quote medians); the CPU time of the
deciding process is given too, which a busy machine disturbs less.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from timing import percentile

from rummykit.games import find_game
from rummykit.games.rummy import RummyState
from rummykit.games.seeding import derive_seed
from rummykit.players import find_player
from rummykit.sim import simulate
from rummykit.tournament import wilson

RESULTS = Path(__file__).resolve().parent / "results"
LEVELS = ("easy", "medium", "hard")


def timing(
    levels: list[str], tables: list[int], hands: int, seed: int, preset: str
) -> list[dict[str, Any]]:
    """Time every decision of ``hands`` hands per level and table size (all seats at the level)."""
    game = find_game(preset)
    rows = []
    for level in levels:
        for players in tables:
            times: list[float] = []
            cpu: list[float] = []
            by_phase: dict[str, list[float]] = {}
            for index in range(hands):
                hand_seed = derive_seed(seed, index)
                state = game.new_hand(players=players, seed=hand_seed, dealer=index % players)
                assert isinstance(state, RummyState)
                bots = [
                    find_player(preset, level, derive_seed(hand_seed, s + 1))
                    for s in range(players)
                ]
                while not state.is_over:
                    seat = state.to_act
                    assert seat is not None
                    view = state.view(seat)
                    started = time.perf_counter()
                    cpu_started = time.process_time()
                    action = bots[seat].choose(view)
                    elapsed = time.perf_counter() - started
                    cpu.append(time.process_time() - cpu_started)
                    times.append(elapsed)
                    by_phase.setdefault(view.phase.value, []).append(elapsed)
                    state.apply(action, seat)
            phase_medians = {k: 1000 * statistics.median(v) for k, v in sorted(by_phase.items())}
            row: dict[str, Any] = {
                "level": level,
                "players": players,
                "preset": preset,
                "decisions": len(times),
                "median_ms": 1000 * statistics.median(times),
                "p90_ms": 1000 * percentile(times, 0.90),
                "p99_ms": 1000 * percentile(times, 0.99),
                "max_ms": 1000 * max(times),
                "cpu_median_ms": 1000 * statistics.median(cpu),
                "cpu_p99_ms": 1000 * percentile(cpu, 0.99),
                "median_ms_by_phase": phase_medians,
            }
            rows.append(row)
            print(
                f"{level:>6} {players}p: {len(times):5d} decisions, median {row['median_ms']:7.2f} ms,"
                f" p90 {row['p90_ms']:7.2f} ms, p99 {row['p99_ms']:7.1f} ms,"
                f" max {row['max_ms']:7.1f} ms; CPU time median {row['cpu_median_ms']:6.2f} ms,"
                f" p99 {row['cpu_p99_ms']:6.1f} ms; by phase (median ms): "
                + ", ".join(f"{k} {v:.2f}" for k, v in phase_medians.items()),
                flush=True,
            )
    return rows


def strength(
    first: str, second: str, players: int, matches: int, seed: int, preset: str, jobs: int
) -> dict[str, Any]:
    """``matches`` matches each way round (seats swapped, same deals): match wins per level."""
    started = time.perf_counter()
    wins = {first: 0, second: 0}
    points = {first: 0, second: 0}
    seats_of = {first: 0, second: 0}
    hands = 0
    for flip in (0, 1):
        order = [first if (s + flip) % 2 == 0 else second for s in range(players)]
        report = simulate(preset, order, matches=matches, seed=seed, jobs=jobs)
        hands += report.hands
        for stats in report.players:
            level = order[stats.seat]
            wins[level] += stats.matches_won
            points[level] += stats.points
            seats_of[level] += 1
    decided = wins[first] + wins[second]
    low, high = wilson(wins[first], decided)
    share = wins[first] / decided if decided else 0.0
    mean_points = {
        level: points[level] / (hands * seats_of[level] / 2) for level in (first, second)
    }
    result: dict[str, Any] = {
        "preset": preset,
        "players": players,
        "pair": [first, second],
        "matches": 2 * matches,
        "seed": seed,
        "match_wins": wins,
        "share_first": share,
        "wilson95_first": [low, high],
        "hands": hands,
        "mean_hand_points_per_seat": mean_points,
        "elapsed_s": time.perf_counter() - started,
    }
    print(
        f"{preset} {players}p {first} v {second}: {2 * matches} matches ({hands} hands), match wins "
        f"{first} {wins[first]} / {second} {wins[second]}; {first} wins {100 * share:.1f}% "
        f"[95% CI {100 * low:.1f}-{100 * high:.1f}]; mean hand points per seat "
        + ", ".join(f"{k} {v:.2f}" for k, v in mean_points.items())
        + f"  ({result['elapsed_s']:.0f} s)",
        flush=True,
    )
    return result


def combine(paths: list[str]) -> dict[str, Any]:
    """Sum the match wins of several ``strength`` results of the same pair, table and preset
    (e.g. run with different seeds) and give the share with its Wilson 95% interval."""
    runs = [json.loads(Path(p).read_text()) for p in paths]
    first, second = runs[0]["pair"]
    keys = {(r["preset"], r["players"], tuple(r["pair"])) for r in runs}
    if len(keys) != 1:
        raise SystemExit(f"results of different pairs, tables or presets: {sorted(keys)}")
    wins = {first: sum(r["match_wins"][first] for r in runs)}
    wins[second] = sum(r["match_wins"][second] for r in runs)
    matches = sum(r["matches"] for r in runs)
    decided = wins[first] + wins[second]
    low, high = wilson(wins[first], decided)
    share = wins[first] / decided if decided else 0.0
    print(
        f"{runs[0]['preset']} {runs[0]['players']}p {first} v {second}, seeds "
        f"{', '.join(str(r['seed']) for r in runs)}: {matches} matches, match wins {first} "
        f"{wins[first]} / {second} {wins[second]}; {first} wins {100 * share:.1f}% "
        f"[95% CI {100 * low:.1f}-{100 * high:.1f}]"
    )
    return {"matches": matches, "match_wins": wins, "share_first": share, "wilson95": [low, high]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("timing", help="decision time per level")
    t.add_argument("--levels", default=",".join(LEVELS))
    t.add_argument("--players", default="2,4")
    t.add_argument("--hands", type=int, default=8)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--preset", default="rummy")
    s = sub.add_parser("strength", help="level against level, in matches")
    s.add_argument("--pair", default="hard,medium")
    s.add_argument("--players", type=int, default=2)
    s.add_argument("--matches", type=int, default=100, help="matches each way round")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--preset", default="rummy")
    s.add_argument("--jobs", type=int, default=1)
    c = sub.add_parser("combine", help="sum strength results (JSON files) of several seeds")
    c.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "combine":
        combine(args.files)
        return 0
    RESULTS.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    if args.command == "timing":
        rows = timing(
            args.levels.split(","),
            [int(p) for p in args.players.split(",")],
            args.hands,
            args.seed,
            args.preset,
        )
        out = RESULTS / f"rummy_timing_{stamp}.json"
        out.write_text(json.dumps(rows, indent=2))
    else:
        first, second = args.pair.split(",")
        result = strength(
            first, second, args.players, args.matches, args.seed, args.preset, args.jobs
        )
        out = RESULTS / f"rummy_{args.preset}_{first}_v_{second}_{args.players}p_{stamp}.json"
        out.write_text(json.dumps(result, indent=2))
    print(f"written {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
