"""Basic and Crazy Rummy random play: this tree against a pinned older commit, in the same run.

    python bench/engine.py --games rummy,crazy --old 53fc064 --repeats 5

(or ``python bench/house_engines.py`` with the same options). There is no peer engine for these
games, so each row compares this tree with the older commit's code, checked out into a temporary
git worktree (``bench/worktree.py``).

How hands are drawn: for each game and table size, ``random.Random(seed + repeat)`` draws each
hand's deal seed; the dealer rotates; Crazy Rummy's hands cycle through rounds 1 to 7 (every
contract equally often). Every decision is uniform over ``legal_actions()`` from the same
generator, so both trees play exactly the same hands with the same choices, and the run checks
it: each side reports a digest of every position's legal actions and every result, and a
mismatch stops the bench.

What is timed: dealing, ``legal_actions()``, ``rng.choice`` and ``apply`` until the hand is over
(the digest is not timed), as CPU time (``time.process_time``: the machine is shared, and CPU
time is steadier than the clock under load) inside a fresh process per measurement.
Within each repeat, each row runs both trees one after the other, the order swapped every
repeat. The table gives medians (min-max) of hands and actions per second and of the per-repeat
ratios new/old, and the machine's load average (1 minute) around the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from worktree import ROOT, old_tree

BASELINE = "53fc064"
"""Main before the issue-30 speed work on these engines."""

SIZES = (2, 4, 6)
HANDS = {"rummy": 300, "crazy": 60}
"""Hands per measurement: about a second or more of the older code's play each."""

RUN = """
import hashlib, json, random, sys, time
from rummykit.games import Crazy, Rummy

kind, players, hands, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = Crazy() if kind == "crazy" else Rummy()

def play(record):
    rng = random.Random(seed)
    actions = 0
    for index in range(hands):
        options = {"players": players, "seed": rng.randrange(1 << 62), "dealer": index % players}
        if kind == "crazy":
            options["round"] = index % 7 + 1
        state = game.new_hand(**options)
        while not state.is_over:
            legal = state.legal_actions()
            if record is not None:
                record.update(repr(legal).encode())
            state.apply(rng.choice(legal))
            actions += 1
        if record is not None:
            record.update(repr(state.result.to_dict()).encode())
    return actions

started = time.process_time()
actions = play(None)
seconds = time.process_time() - started
digest = hashlib.sha256()
play(digest)
print(json.dumps({"actions": actions, "seconds": seconds, "digest": digest.hexdigest()}))
"""


@dataclass
class Row:
    """One game and table size: per repeat, each tree's speeds and the ratios."""

    game: str
    players: int
    hands: int
    speeds: dict[str, list[float]] = field(default_factory=lambda: {"old": [], "new": []})
    actions: dict[str, list[float]] = field(default_factory=lambda: {"old": [], "new": []})
    ratios: list[float] = field(default_factory=list)


def one_run(src: Path, game: str, players: int, hands: int, seed: int) -> dict[str, float | str]:
    """One measurement in a fresh process whose ``rummykit`` is the one under ``src``."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, game, str(players), str(hands), str(seed)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        timeout=1200,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"the run failed in {src}:\n{done.stderr[-2000:]}")
    figures: dict[str, float | str] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def spread(values: list[float], digits: int = 0) -> str:
    """The median and the range, ``123 (110-130)``."""
    return (
        f"{statistics.median(values):,.{digits}f} "
        f"({min(values):,.{digits}f}-{max(values):,.{digits}f})"
    )


def compare(games: list[str], old: str, repeats: int, seed: int, scale: float) -> list[Row]:
    """Run every row ``repeats`` times, both trees each time (order swapped every repeat)."""
    rows = [
        Row(game, players, max(1, round(HANDS[game] * scale)))
        for game in games
        for players in SIZES
    ]
    loads = [os.getloadavg()[0]]
    with old_tree(old) as worktree:
        for repeat in range(repeats):
            order = ("old", "new") if repeat % 2 == 0 else ("new", "old")
            for row in rows:
                seen: dict[str, dict[str, float | str]] = {}
                for name in order:
                    src = worktree if name == "old" else ROOT
                    seen[name] = one_run(src, row.game, row.players, row.hands, seed + repeat)
                if seen["old"]["digest"] != seen["new"]["digest"]:
                    raise SystemExit(f"{row.game} at {row.players}: the trees played differently")
                for name, run in seen.items():
                    speed = row.hands / float(run["seconds"])
                    row.speeds[name].append(speed)
                    row.actions[name].append(float(run["actions"]) / float(run["seconds"]))
                row.ratios.append(row.speeds["new"][-1] / row.speeds["old"][-1])
                print(
                    f"repeat {repeat + 1} {row.game} {row.players}p: "
                    f"{row.speeds['old'][-1]:.0f} -> {row.speeds['new'][-1]:.0f} hands/s",
                    file=sys.stderr,
                    flush=True,
                )
            loads.append(os.getloadavg()[0])
    print(
        f"\nrandom play, {repeats} repeats interleaved (order swapped each repeat); "
        f"old = {old}, new = this tree; same hands, same choices (digests match); "
        f"load average (1 min) {min(loads):.1f}-{max(loads):.1f}, "
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )
    print(
        "| game | players | hands | old hands/s | new hands/s | new actions/s | new/old |\n"
        "|---|---|---|---|---|---|---|"
    )
    for row in rows:
        print(
            f"| {row.game} | {row.players} | {row.hands} | {spread(row.speeds['old'])} | "
            f"{spread(row.speeds['new'])} | {spread(row.actions['new'])} | "
            f"{spread(row.ratios, 2)} |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", default="rummy,crazy", help="comma-separated: rummy, crazy")
    parser.add_argument("--old", default=BASELINE, help=f"older commit (default {BASELINE})")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="hands per measurement, times the defaults"
    )
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in HANDS]
    if unknown or args.repeats < 1:
        parser.error(f"games are among {list(HANDS)}; --repeats at least 1")
    compare(games, args.old, args.repeats, args.seed, args.scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
