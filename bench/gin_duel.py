"""Gin Rummy duel: two players on the same seeded deals, both ways round, hand by hand.

Run it on purpose, one process (it is meant to be cheap and to share the machine)::

    python bench/gin_duel.py --a hard --b medium --deals 400
    python bench/gin_duel.py --a hard --b /tmp/old_gin_players.py:HardGinPlayer --deals 400

Deal ``i`` (seed ``derive_seed(seed, i)``, dealer ``i % 2``) is played twice: ``A`` in seat 0
and ``B`` in seat 1, then the seats swapped, each player with the same seed both times. As both
players meet the same cards from both seats, most of the luck of the deal cancels out: the
report gives ``A``'s mean points margin per hand (its hand score minus ``B``'s) with a 95%
interval over the deals (normal approximation on the per-deal mean of the two hands), ``A``'s
hand win rate (over the hands somebody won, with its Wilson interval), how the hands ended, and
``A``'s decision time (median, 95th percentile and worst, wall and CPU milliseconds, ``choose``
only). A margin interval above zero says ``A`` plays the better Gin hand-for-hand; it does not
measure match play (target score, box and game bonuses; see ``gin_strength.py``).

A player is a registered Gin level (``easy``, ``medium``, ``hard``, ...) or ``FILE.py:CLASS``, a
player class loaded from a file (built as ``CLASS(seed, options=GinOptions())``): a way to pit a
working copy of a player against the version before a change without committing the old copy.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from timing import percentile

from rummykit.games import Gin
from rummykit.games.gin import GinOptions
from rummykit.games.seeding import derive_seed
from rummykit.players import Player, find_player
from rummykit.sim import MAX_ACTIONS
from rummykit.tournament import wilson

RESULTS = Path(__file__).resolve().parent / "results"


def load_player(spec: str, seed: int) -> Player:
    """A registered Gin level by name, or ``FILE.py:CLASS`` built with ``seed``."""
    if ":" not in spec:
        return find_player("gin", spec, seed)
    path, _, name = spec.rpartition(":")
    module_name = "duel_" + Path(path).stem
    module = sys.modules.get(module_name)
    if module is None:
        loader = importlib.util.spec_from_file_location(module_name, path)
        if loader is None or loader.loader is None:
            raise SystemExit(f"cannot load {path}")
        module = importlib.util.module_from_spec(loader)
        sys.modules[module_name] = module
        loader.loader.exec_module(module)
    factory: Any = getattr(module, name)
    player = factory(seed, options=GinOptions())
    if not isinstance(player, Player):
        raise SystemExit(f"{spec} is not a player")
    return player


@dataclass(slots=True)
class Duel:
    """The running tally of a duel, from ``A``'s side."""

    margins: list[float] = field(default_factory=list)
    """Per deal: A's mean margin per hand over its two hands."""
    wins: int = 0
    losses: int = 0
    cancelled: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)


def play(a: str, b: str, index: int, seed: int, duel: Duel) -> None:
    """Deal ``index`` both ways round; adds to ``duel``."""
    hand_seed = derive_seed(seed, index)
    dealer = index % 2
    margin = 0
    for ours in (0, 1):
        players = [load_player(b, derive_seed(hand_seed, 2))] * 2
        players[ours] = load_player(a, derive_seed(hand_seed, 1))
        state = Gin().new_hand(seed=hand_seed, dealer=dealer)
        for _ in range(MAX_ACTIONS):
            seat = state.to_act
            if seat is None:
                break
            view = state.view(seat)
            started = time.perf_counter()
            started_cpu = time.process_time()
            action = players[seat].choose(view)
            if seat == ours:
                duel.wall_ms.append(1000 * (time.perf_counter() - started))
                duel.cpu_ms.append(1000 * (time.process_time() - started_cpu))
            state.apply(action, seat)
        result = state.result
        assert result is not None, "the hand did not end"
        scores = result.scores
        margin += scores[ours] - scores[1 - ours]
        if result.winner is None:
            duel.cancelled += 1
            duel.outcomes[result.outcome.value] += 1
        else:
            won = result.winner == ours
            duel.wins += won
            duel.losses += not won
            duel.outcomes[f"{result.outcome.value}/{'A' if won else 'B'}"] += 1
    duel.margins.append(margin / 2)


def summary(duel: Duel) -> dict[str, Any]:
    """The report's numbers."""
    n = len(duel.margins)
    mean = statistics.fmean(duel.margins)
    error = statistics.stdev(duel.margins) / n**0.5 if n > 1 else 0.0
    decided = duel.wins + duel.losses
    low, high = wilson(duel.wins, decided) if decided else (0.0, 1.0)
    return {
        "deals": n,
        "hands": 2 * n,
        "margin_per_hand": mean,
        "margin_95": [mean - 1.96 * error, mean + 1.96 * error],
        "hand_wins": duel.wins,
        "hand_losses": duel.losses,
        "cancelled": duel.cancelled,
        "hand_win_rate": duel.wins / decided if decided else 0.0,
        "hand_win_rate_95": [low, high],
        "outcomes": dict(sorted(duel.outcomes.items())),
        "decisions": len(duel.wall_ms),
        "wall_ms": {
            "median": statistics.median(duel.wall_ms),
            "p95": percentile(duel.wall_ms, 0.95),
            "max": max(duel.wall_ms),
        },
        "cpu_ms": {
            "median": statistics.median(duel.cpu_ms),
            "p95": percentile(duel.cpu_ms, 0.95),
            "max": max(duel.cpu_ms),
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Play the duel and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--a", default="hard", help="player A: a level or FILE.py:CLASS")
    parser.add_argument("--b", default="medium", help="player B: a level or FILE.py:CLASS")
    parser.add_argument("--deals", type=int, default=200, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=2025, help="seed of the run")
    parser.add_argument("--start", type=int, default=0, help="index of the first deal")
    parser.add_argument("--out", type=Path, default=None, help="JSON report path")
    parser.add_argument("--every", type=int, default=50, help="progress line every N deals")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    duel = Duel()
    started = time.perf_counter()
    for index in range(args.start, args.start + args.deals):
        play(args.a, args.b, index, args.seed, duel)
        done = index - args.start + 1
        if args.every and done % args.every == 0 and done < args.deals:
            s = summary(duel)
            low, high = s["margin_95"]
            print(
                f"  {done} deals: margin {s['margin_per_hand']:+.2f} [{low:+.2f}, {high:+.2f}]"
                f"  {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    report = summary(duel)
    report.update(a=args.a, b=args.b, seed=args.seed, start=args.start)
    low, high = report["margin_95"]
    wl, wh = report["hand_win_rate_95"]
    wall, cpu = report["wall_ms"], report["cpu_ms"]
    print(f"A = {args.a}   B = {args.b}   deals {args.deals} (hands {2 * args.deals})")
    print(
        f"A's margin per hand: {report['margin_per_hand']:+.2f} points (95% {low:+.2f} to {high:+.2f})"
    )
    print(
        f"A's hand win rate: {100 * report['hand_win_rate']:.1f}% of {report['hand_wins'] + report['hand_losses']}"
        f" decided hands (95% {100 * wl:.1f} to {100 * wh:.1f}); {report['cancelled']} cancelled"
    )
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in report["outcomes"].items()))
    print(
        f"A's decisions {report['decisions']}: wall median {wall['median']:.1f} ms, p95 "
        f"{wall['p95']:.1f}, max {wall['max']:.1f}; CPU median {cpu['median']:.1f}, p95 "
        f"{cpu['p95']:.1f}, max {cpu['max']:.1f}"
    )
    out = args.out
    if out is None:
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / "gin_duel.json"
    out.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
