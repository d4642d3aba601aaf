"""Load benchmark of the web server: many tables at once, each a scripted person against computers.

Run it on purpose (issue 25)::

    python bench/load.py --tables 20 --seconds 60
    python bench/load.py --tables 20 --seconds 60 --think 0 --json
    python bench/load.py --tables 10 --seconds 30 --url http://127.0.0.1:8000/ --delay 0.8
    python bench/load.py --tables 100 --seconds 30 --mix gin-easy --think 0

Without ``--url`` it starts a real ``rummykit serve --port 0`` on 127.0.0.1 in a subprocess,
with a fresh SQLite file in a temporary folder and ``--delay D`` (0.8 s by default, the server's
own default: the "normal" pace), reads the port it prints, and stops it at the end (SIGTERM, then
SIGKILL). With ``--url`` it loads that server instead, which must be on this machine's loopback
(127.0.0.0/8, ``localhost`` or ``::1``): any other address is refused, so the benchmark never
sends traffic anywhere else. Give ``--delay`` the server's own delay then, as lateness is
measured against it.

The clients run in ``--clients`` processes (2 by default, started with multiprocessing's
"spawn"), never in the server's; each plays its share of the tables with asyncio and one
``websockets`` socket per table. Tables are created through ``POST /api/tables`` and their start
is staggered evenly over a ramp-up of ``min(5, seconds / 3)`` seconds; the measured window is the
``--seconds`` after the ramp-up, and every table stops at its end. A worker cancels what is left
a few seconds later, and the parent gives up on a worker (and kills it, and the server) at the
latest ``ramp-up + seconds + 30`` seconds after it started: every loop is bounded in count and
time, and a run stops by itself.

How the inputs are drawn. Table ``i`` (0 to ``--tables`` - 1) has its own random generator,
seeded from ``--seed`` (default 1) and ``i``, so a run's choices (games, levels, think times,
moves, hints, reconnections) do not depend on the number of client processes, and are the same
from run to run as far as the server's answers are (the server deals from seeds of its own).
Each table is Gin (1 opponent) with probability 1/2, Basic Rummy (``rummy``, 1 to 3 opponents,
uniform) with 1/3, and Crazy Rummy (``crazy``, 3 opponents) otherwise; its computers are all
``medium`` or all ``hard`` (even odds): that is ``--mix realistic``, the default.
``--mix gin-easy`` makes every table Gin against one ``easy`` computer instead, the workload the
issue's first baseline was measured on (with moves at once, ``--think 0``; the person still says
the pace "normal", so that baseline's "fast" pace, 0.35 of the server's 0.8 s pause, is
``--delay 0.28``). When a match ends, the same slot draws a new table. The person at seat 0 says
hello with the pace "normal". When it is their turn (``hand.legal_actions`` not empty,
``hand.to_act`` 0) they think for a time drawn uniformly between 0.5 and 1.5 times ``--think``
(1.5 s by default; 0 answers at once, the saturation mode that gives the ceiling) and play a
sensible legal move: a knock, a lay-down, a meld or a lay-off whenever one is offered (so hands
end), else a draw (from the stock 3 times in 4), a discard that keeps the melds (Gin: the least
deadwood; Crazy Rummy: never a wild), passing most up-cards and 9 buys in 10; a Gin defender
uses ``best_layoffs`` half the time. A finished hand is followed by ``next_hand`` after the same
think time. On 1 turn in 20 the person first asks for a ``hint``; after 1 acknowledged move in
40 they close the socket and reconnect with a new hello. Every server message type is read
without failing; an ``error`` answer is counted as an error, except a ``stale`` one on the first
request after a (re)connection, counted apart (``stale``). After an error the person asks for
the view again (``{"t": "view"}``).

What it measures, on the client side, over the measured window:

- latency: from a person's message (``action``, ``best_layoffs``, ``next_hand``, ``hint``,
  ``view``) to the server's answer (the first ``view`` whose ``seq`` moved past the one acted
  on, or the ``hint``): p50, p99 and worst, in milliseconds, overall and per message kind;
- computer lateness: for each view bringing a computer's move, the time since the view before
  it on the same socket, minus the pause the server makes before each computer move at the
  normal pace (``--delay``): what a person waits beyond the pace (decision time, queueing);
  p50 and p99 in milliseconds (moves right after a hello or a resynchronising view are left
  out: the server's pause may have started before it);
- acknowledged person moves per second (``action``, ``best_layoffs`` and ``next_hand`` that the
  server answered with a new view), and views per second received in all;
- errors (by code), expected ``stale`` answers, sockets dropped (closed by the server when the
  person had not closed them, by close code), sockets silent for 20 s while an answer or a
  computer's move was due (counted as errors: ``silent``), and answers still due 5 s after they
  were asked for when the run ends (``no_answer``; ``silent`` for a computer's move);
- the server's CPU time (user + system, from ``/proc/PID/stat``, its own and that of the worker
  processes it started) over the window as a percentage of one core, and its peak memory
  (``VmHWM`` of ``/proc/PID/status``, its own process), when this script started the server; and
  the lines of its log that report an error.

``--hinters H`` adds H Gin tables whose person does nothing but ask for hints, one after the
other (each the hard player's advice: CPU-heavy work for the server); their answers are not in the
figures above, only their number (``heavy_hints_per_s``): the other tables' figures show whether
one table's heavy thinking slows the rest down.

``--src DIR`` runs the server from another source tree (``python -m rummykit`` with
``PYTHONPATH=DIR``), for example a git worktree of an older commit: ``bench/load_ab.py`` uses it to
compare two servers in the same run.

The code is in four files: this one (the settings, the client processes, the run and its command
line), ``load_person.py`` (the scripted person and the tables it plays), ``load_server.py`` (the
server: started, watched, stopped; loopback only) and ``load_report.py`` (the figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import queue
import sys
import tempfile
import time
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

from load_person import MIXES, Settings, run_hinter, run_slot
from load_report import Stats, merge, print_table, summary
from load_server import Server, _die_with_parent, loopback_base, watch_server

RAMP = 5.0
"""Seconds at most over which the tables' start is staggered."""

GRACE = 30.0
"""Seconds after the ramp-up and the measured window by which everything has stopped."""

SERVER_START = 12.0
"""Seconds the server has to print its port and answer."""

WORKERS_READY = 8.0
"""Seconds the worker processes have to start (import, connect nothing yet)."""


# ------------------------------------------------------------------------------- the workers


async def run_worker(settings: Settings, t0: float) -> dict[str, Any]:
    """Play this worker's tables (every ``workers``-th) from ``t0``; the worker's report."""
    start = t0 + settings.ramp
    stats = Stats(start=start, end=start + settings.seconds)
    slots = range(settings.index, settings.tables, settings.workers)
    tasks = [
        asyncio.create_task(run_slot(settings, i, t0 + settings.ramp * i / settings.tables, stats))
        for i in slots
    ]
    if settings.index == 0:  # (the first client process runs the hinters)
        tasks += [asyncio.create_task(run_hinter(settings, stats)) for _ in range(settings.hinters)]
    hard = stats.end + 5.0
    done, late = await asyncio.wait(tasks, timeout=max(0.1, hard - time.monotonic()))
    for task in late:
        task.cancel()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*late, return_exceptions=True), 2.0)
    if late:
        stats.error("cancelled", f"{len(late)} table(s) still busy 5 s after the end")
    for task in done:
        exc = task.exception()
        if exc is not None:
            stats.error("client", repr(exc))
    report = stats.to_dict()
    report["index"] = settings.index
    return report


def worker_main(settings: Settings, results: Queue[Any], starts: Queue[Any]) -> None:
    """A worker process: say it is ready, wait for the start time, play, send the report."""
    _die_with_parent()
    results.put({"ready": settings.index})
    try:
        t0 = float(starts.get(timeout=WORKERS_READY + SERVER_START))
        report = asyncio.run(run_worker(settings, t0))
    except BaseException as exc:  # the parent must hear why
        report = {"index": settings.index, "failed": repr(exc)}
    results.put(report)


# ------------------------------------------------------------------------------------ the parent


def stop_workers(processes: list[BaseProcess], by: float) -> None:
    """Let the workers end by themselves until ``by``; then SIGTERM, then SIGKILL."""
    for worker in processes:
        worker.join(max(0.0, by - time.monotonic()))
    for worker in processes:
        if worker.is_alive():
            worker.terminate()
    for worker in processes:
        worker.join(2)
        if worker.is_alive():
            worker.kill()
            worker.join(1)


def run(args: argparse.Namespace) -> int:
    """Start the server (unless ``--url``) and the workers, measure, stop everything, report."""
    began = time.monotonic()
    ramp = min(RAMP, args.seconds / 3) if args.tables > 1 else 0.0
    hard = began + ramp + args.seconds + GRACE
    context = multiprocessing.get_context("spawn")
    results: Queue[Any] = context.Queue()
    starts: Queue[Any] = context.Queue()
    processes: list[BaseProcess] = []
    server: Server | None = None
    server_figures: dict[str, Any] = {"server_cpu_s": None, "server_cpu_pct": None}
    server_figures.update(server_rss_mb=None, server_log_errors=None)
    reports: dict[int, dict[str, Any]] = {}
    log_lines: list[str] = []
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rummykit-load-") as folder:
        try:
            if args.url is None:
                server = Server(Path(folder), args.delay, args.src, args.workers)
                server.start(time.monotonic() + SERVER_START)
                base = f"http://127.0.0.1:{server.port}"
            else:
                base = args.base
            for index in range(args.clients):
                settings = Settings(
                    index=index,
                    workers=args.clients,
                    tables=args.tables,
                    base=base,
                    seconds=float(args.seconds),
                    ramp=ramp,
                    think=args.think,
                    delay=args.delay,
                    seed=args.seed,
                    hinters=args.hinters,
                    mix=args.mix,
                )
                process = context.Process(
                    target=worker_main, args=(settings, results, starts), daemon=True
                )
                process.start()
                processes.append(process)
            ready = 0
            deadline = time.monotonic() + WORKERS_READY
            while ready < args.clients:
                message = results.get(timeout=max(0.1, deadline - time.monotonic()))
                ready += int("ready" in message)
            t0 = time.monotonic() + 0.2  # (CLOCK_MONOTONIC: the same clock in every process)
            for _ in processes:
                starts.put(t0)
            window = (t0 + ramp, t0 + ramp + args.seconds)
            server_figures.update(watch_server(server, window, problems))
            collect_by = min(hard - 12.0, window[1] + 15.0)
            while len(reports) < args.clients and time.monotonic() < collect_by:
                try:
                    message = results.get(timeout=max(0.1, collect_by - time.monotonic()))
                except queue.Empty:
                    break
                if "index" in message:
                    reports[int(message["index"])] = message
        except (RuntimeError, queue.Empty, OSError, KeyboardInterrupt) as exc:
            problems.append(f"{type(exc).__name__}: {exc}")
        finally:
            stop_workers(processes, by=min(time.monotonic() + 2.0, hard - 10.0))
            if server is not None:
                server.stop()
                log_lines = server.log_errors()
                server_figures["server_log_errors"] = len(log_lines)
    for index in range(args.clients):
        report = reports.get(index)
        if report is None:
            problems.append(f"worker {index} sent no report")
        elif "failed" in report:
            problems.append(f"worker {index} failed: {report['failed']}")
    good = [r for r in reports.values() if "failed" not in r]
    total = merge(good)
    figures = summary(args, total, server_figures)
    figures["problems"] = problems
    if args.json:
        print(json.dumps(figures))
    else:
        print_table(figures, total["error_samples"])
    for line in [*problems, *log_lines[:10]]:
        print(line, file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, required=True, help="tables at once (1-1000)")
    parser.add_argument("--seconds", type=float, required=True, help="measured seconds")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (rummykit serve --workers)"
    )
    parser.add_argument(
        "--hinters",
        type=int,
        default=0,
        help="extra tables whose person only asks for hints, one after the other",
    )
    parser.add_argument(
        "--think", type=float, default=1.5, help="mean think time in seconds (0: at once)"
    )
    parser.add_argument("--url", help="a running server on loopback (default: start one)")
    parser.add_argument(
        "--delay", type=float, default=0.8, help="the server's pause before a computer move"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the choices (default 1)")
    parser.add_argument(
        "--mix",
        choices=MIXES,
        default="realistic",
        help="the tables drawn: realistic (the default) or gin-easy (Gin against one easy computer)",
    )
    parser.add_argument(
        "--src", type=Path, help="run the server from this source tree (e.g. a git worktree)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 1000:
        parser.error("--tables is 1 to 1000")
    if not 1 <= args.seconds <= 3600:
        parser.error("--seconds is 1 to 3600")
    if not 1 <= args.clients <= 64:
        parser.error("--clients is 1 to 64")
    if not 1 <= args.workers <= 16:
        parser.error("--workers is 1 to 16")
    if not 0 <= args.think <= 600:
        parser.error("--think is 0 to 600 seconds")
    if not 0 <= args.delay <= 10:
        parser.error("--delay is 0 to 10 seconds (as rummykit serve takes it)")
    args.clients = min(args.clients, args.tables)
    if args.src is not None and not (args.src / "rummykit" / "__init__.py").is_file():
        parser.error("--src: no rummykit package in that folder")
    if args.url is not None:
        try:
            args.base = loopback_base(args.url)
        except ValueError as exc:
            parser.error(f"--url: {exc}; the benchmark only loads a server on this machine")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
