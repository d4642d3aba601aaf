"""The server's table layer alone: CPU per person move, an older commit's against this tree's.

    python bench/table_cpu.py --old 72ca39a --repeats 5

What a person's move costs the server below its sockets: check, apply, the write to a SQLite file
(through the group commit), each person's view message with its aids, and the JSON text; the
computers' moves that follow (medium players, decided in the same process) count with it. No
sockets, no event loop: the part of the server's CPU that the game engine and the table modules
decide (``bench/load.py`` measures the whole server).

Inputs: ``--tables`` tables in the shares of ``bench/load.py``'s realistic mix (Gin 1/2, Basic
Rummy 1/3 at two and four seats, Crazy Rummy 1/6 at four; every computer medium, since the
server sends hard ones to worker processes), dealt from seeds 1000, 1001, ...; then
``--moves`` times a table drawn at random (seed 1) plays its computers' moves and then one
random legal move of the person. The same draws for both trees.

Each repeat runs both trees, each in a fresh process, the order swapped every repeat. Prints
the median (min-max) CPU milliseconds per person move and the ratio new/old of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from worktree import ROOT, old_tree

MIX = [("gin", 1), ("rummy", 1), ("gin", 1), ("rummy", 3), ("gin", 1), ("crazy", 3)]
"""(game, opponents) of the tables, in turn."""

RUN = """
import json, random, sys, tempfile, time
from rummykit.server.store import Store
from rummykit.server.tables import Table
from rummykit.server.protocol import ProtocolError

tables_n, moves, mix = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
rng = random.Random(1)
with tempfile.TemporaryDirectory() as folder:
    store = Store(folder + "/tables.sqlite3")
    tables = []
    for i in range(tables_n):
        game, opponents = mix[i % len(mix)]
        table, _ = Table.create(store, variant=game, opponents=opponents, level="medium",
                                seed=1000 + i)
        tables.append(table)
    person = 0
    start = time.process_time()
    for _ in range(moves):
        table = rng.choice(tables)
        while table.computer_to_act() is not None:
            seat, decide = table.computer_decision()
            for message in table.apply_computer(seat, decide()).values():
                json.dumps(message, separators=(",", ":"))
        if table.finished:
            continue
        actions = list(table.hand.view(0).legal_actions)
        if not actions:
            try:
                table.next_hand(0, table.seq)
            except ProtocolError:
                pass
            continue
        for message in table.act(0, str(rng.choice(actions)), table.seq).values():
            json.dumps(message, separators=(",", ":"))
        person += 1
    cpu = time.process_time() - start
    store.close()
print(json.dumps({"person_moves": person, "cpu_s": cpu}))
"""


def one_run(src: Path, tables: int, moves: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(tables), str(moves), json.dumps(MIX)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        timeout=600,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"the run failed in {src}:\n{done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the older commit (any git revision)")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    per_move: dict[str, list[float]] = {"old": [], "new": []}
    moves_seen: set[float] = set()
    with old_tree(args.old) as worktree:
        for repeat in range(args.repeats):
            order = ["old", "new"] if repeat % 2 == 0 else ["new", "old"]
            for name in order:
                run = one_run(worktree if name == "old" else ROOT, args.tables, args.moves)
                ms = 1000 * run["cpu_s"] / run["person_moves"]
                per_move[name].append(ms)
                moves_seen.add(run["person_moves"])
                print(f"repeat {repeat + 1} {name}: {ms:.3f} ms", file=sys.stderr)
    old, new = (statistics.median(per_move[k]) for k in ("old", "new"))
    print(
        f"{args.tables} tables, {args.moves} draws (person moves: "
        f"{', '.join(str(int(m)) for m in sorted(moves_seen))}), {args.repeats} repeats,"
        f" interleaved; old = {args.old}, new = this tree."
    )
    print("| CPU ms per person move | median (min-max) |\n|---|---|")
    for name, values in per_move.items():
        print(f"| {name} | {statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f}) |")
    print(f"| new/old | {new / old:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
