"""Load benchmark of the web server: many tables at once, each a scripted person against computers.

Run it on purpose (issue 25)::

    python bench/load.py --tables 20 --seconds 60
    python bench/load.py --tables 20 --seconds 60 --think 0 --json
    python bench/load.py --tables 10 --seconds 30 --url http://127.0.0.1:8000/ --delay 0.8

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
moves, hints, reconnections) do not depend on the number of client processes, and are the same from run
to run as far as the server's answers are (the server deals from seeds of its own). Each table
is Gin (1 opponent) with probability 1/2, Basic Rummy (``rummy``, 1 to 3 opponents, uniform)
with 1/3, and Crazy Rummy (``crazy``, 3 opponents) otherwise; its computers are all ``medium``
or all ``hard`` (even odds). When a match ends, the same slot draws a new table. The person at
seat 0 says hello with the pace "normal". When it is their turn (``hand.legal_actions`` not
empty, ``hand.to_act`` 0) they think for a time drawn uniformly between 0.5 and 1.5 times
``--think`` (1.5 s by default; 0 answers at once, the saturation mode that gives the ceiling)
and play a sensible legal move: a knock, a lay-down, a meld or a lay-off whenever one is offered
(so hands end), else a draw (from the stock 3 times in 4), a discard that keeps the melds (Gin:
the least deadwood; Crazy Rummy: never a wild), passing most up-cards and 9 buys in 10; a Gin
defender uses ``best_layoffs`` half the time. A finished hand is followed by ``next_hand``
after the same think time. On 1 turn in 20 the person first asks for a ``hint``; after 1
acknowledged move in 40 they close the socket and reconnect with a new hello. Every server
message type is read without failing; an ``error`` answer is counted as an error, except a
``stale`` one on the first request after a (re)connection, counted apart (``stale``). After an
error the person asks for the view again (``{"t": "view"}``).

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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ipaddress
import json
import multiprocessing
import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

from timing import percentile
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

RAMP = 5.0
"""Seconds at most over which the tables' start is staggered."""

GRACE = 30.0
"""Seconds after the ramp-up and the measured window by which everything has stopped."""

SILENCE = 20.0
"""Seconds a socket may stay silent while an answer or a computer's move is due."""

OVERDUE = 5.0
"""Seconds after which an answer (or a computer's move, beyond its pause) still due when the run
ends is counted as an error."""

EARLY_MS = 50.0
"""A computer's move that comes more than this many milliseconds before its pause is over is
counted as early (``early``): the server did not keep the pace."""

SERVER_START = 12.0
"""Seconds the server has to print its port and answer."""

WORKERS_READY = 8.0
"""Seconds the worker processes have to start (import, connect nothing yet)."""

HINT_SHARE = 1 / 20
"""Share of a person's turns that start with a hint."""

RECONNECT_EVERY = 40
"""One acknowledged move in this many is followed by closing the socket and a new hello."""

MAX_TABLES_PER_SLOT = 200
"""Tables at most one slot plays in a row (each a whole match)."""

MAX_CONNECTIONS = 200
"""Connections at most per table."""

MAX_MESSAGES = 200_000
"""Messages at most read on one connection."""

SERVED = re.compile(r"open http://127\.0\.0\.1:(\d+)/")
"""The line ``rummykit serve`` prints once it listens."""

RANKS = "A23456789TJQK"
"""Card ranks, lowest first (the notation of ``docs/notation.md``; ``X`` is a joker)."""

OTHER_MESSAGES = frozenset(
    {"welcome", "seats", "presence", "timeout", "said", "rematch", "check_down", "review"}
)
"""The server's other messages (docs/protocol.md): counted, nothing to answer."""

MOVES = ("action", "best_layoffs", "next_hand")
"""The person's messages that change the table (counted as acknowledged moves)."""


# --------------------------------------------------------------------------- the person's moves


def card_value(card: str) -> int:
    """The rank of a card for choosing discards, higher first out; -1 for a joker (``X``).

    >>> card_value("KS"), card_value("AH"), card_value("TD"), card_value("X")
    (12, 0, 9, -1)
    """
    rank = card[:-1]
    return RANKS.index(rank) if len(rank) == 1 and rank in RANKS else -1


def choose_move(hand: dict[str, Any], aids: dict[str, Any], rng: random.Random) -> str:
    """A sensible legal move for the person, in notation, or ``best_layoffs`` (Gin's defender).

    Lay-downs, melds, knocks and lay-offs come first, so hands end; then a draw (from the stock 3
    times in 4), or a discard that keeps the melds; most up-cards and buys are passed.

    >>> rng = random.Random(1)
    >>> choose_move({"phase": "discard", "legal_actions": ["discard 3H", "meld 2H 3H 4H"]}, {}, rng)
    'meld 2H 3H 4H'
    >>> choose_move({"phase": "discard", "legal_actions": ["discard 3H", "discard KS"]}, {}, rng)
    'discard KS'
    """
    legal = [str(a) for a in hand.get("legal_actions") or ()]
    kinds: dict[str, list[str]] = {}
    for action in legal:
        kinds.setdefault(action.split(" ", 1)[0], []).append(action)
    phase = hand.get("phase")
    left = aids.get("discard_deadwood") or {}
    if "knock" in kinds:  # Gin: knock with the least deadwood
        return min(kinds["knock"], key=lambda a: (left.get(a.split()[-1], 99), a))
    if phase == "layoff" and "done" in kinds and rng.random() < 0.5:
        return "best_layoffs"
    if "down" in kinds:  # Crazy Rummy: lay the contract down
        return kinds["down"][0]
    if "meld" in kinds:  # Basic Rummy: the longest meld
        return max(kinds["meld"], key=lambda a: (len(a.split()), a))
    if "layoff" in kinds:
        return kinds["layoff"][0]
    if phase == "buy":
        return "buy" if "buy" in kinds and rng.random() < 0.1 else "pass"
    if phase == "offer" and "pass" in kinds:
        return "take" if "take" in kinds and rng.random() < 0.3 else "pass"
    if "draw" in kinds:
        return "take" if "take" in kinds and rng.random() < 0.25 else "draw"
    if "discard" in kinds:
        return _discard(kinds["discard"], aids, rng)
    if "done" in kinds:
        return "done"
    return rng.choice(legal)


def _discard(options: list[str], aids: dict[str, Any], rng: random.Random) -> str:
    """The discard to make: Gin the least deadwood left; else the highest card outside the melds
    (never a wild when there is another card)."""
    left = aids.get("discard_deadwood")
    if isinstance(left, dict) and left:
        return min(options, key=lambda a: (left.get(a.split()[-1], 99), -card_value(a.split()[-1])))
    in_melds = {c for meld in aids.get("melds") or () for c in meld}
    wilds = set(aids.get("wilds") or ())
    loose = [a for a in options if a.split()[-1] not in in_melds | wilds]
    plain = [a for a in options if a.split()[-1] not in wilds]
    pool = loose or plain or options
    best = max(card_value(a.split()[-1]) for a in pool)
    return rng.choice([a for a in pool if card_value(a.split()[-1]) == best])


def draw_table(rng: random.Random) -> dict[str, Any]:
    """A new table's request: Gin 1/2, Basic Rummy 1/3 (1-3 opponents), Crazy Rummy 1/6 (3).

    >>> draw_table(random.Random(3))["game"] in {"gin", "rummy", "crazy"}
    True
    """
    roll = rng.random()
    if roll < 1 / 2:
        game, opponents = "gin", 1
    elif roll < 1 / 2 + 1 / 3:
        game, opponents = "rummy", rng.randint(1, 3)
    else:
        game, opponents = "crazy", 3
    level = rng.choice(("medium", "hard"))
    return {"game": game, "opponents": opponents, "level": level}


# ------------------------------------------------------------------------------- measurements


@dataclass
class Stats:
    """What one worker saw; samples and rates count only inside the measured window."""

    start: float
    end: float
    latencies: dict[str, list[float]] = field(default_factory=dict)
    late: list[float] = field(default_factory=list)
    moves: int = 0
    views: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    stale: int = 0
    dropped: int = 0
    close_codes: Counter[str] = field(default_factory=Counter)
    messages: Counter[str] = field(default_factory=Counter)
    tables_created: int = 0
    create_ms: list[float] = field(default_factory=list)
    matches_over: int = 0
    reconnects: int = 0
    heavy_hints: int = 0
    """Hints answered to the ``--hinters`` (not among the figures of the other tables)."""

    def inside(self, now: float) -> bool:
        return self.start <= now <= self.end

    def answered(self, kind: str, sent: float, now: float) -> None:
        if self.inside(now):
            self.latencies.setdefault(kind, []).append(1000 * (now - sent))
            if kind in MOVES:
                self.moves += 1

    def view(self, now: float) -> None:
        if self.inside(now):
            self.views += 1

    def lateness(self, ms: float, now: float) -> None:
        if self.inside(now):
            self.late.append(ms)

    def error(self, code: str, detail: str) -> None:
        self.errors[code] += 1
        if len(self.error_samples) < 20:
            self.error_samples.append(f"{code}: {detail}"[:300])

    def drop(self, code: int | None, detail: str) -> None:
        self.dropped += 1
        self.close_codes[str(code)] += 1
        if len(self.error_samples) < 20:
            self.error_samples.append(f"dropped ({code}): {detail}"[:300])

    def to_dict(self) -> dict[str, Any]:
        """Plain data, to send to the parent process."""
        return {
            "latencies": self.latencies,
            "late": self.late,
            "moves": self.moves,
            "views": self.views,
            "errors": dict(self.errors),
            "error_samples": self.error_samples,
            "stale": self.stale,
            "dropped": self.dropped,
            "close_codes": dict(self.close_codes),
            "messages": dict(self.messages),
            "tables_created": self.tables_created,
            "create_ms": self.create_ms,
            "matches_over": self.matches_over,
            "reconnects": self.reconnects,
            "heavy_hints": self.heavy_hints,
        }


# ------------------------------------------------------------------------------ one table's play


@dataclass(frozen=True)
class Settings:
    """What a worker process is given."""

    index: int
    workers: int
    tables: int
    base: str
    seconds: float
    ramp: float
    think: float
    delay: float
    seed: int
    hinters: int = 0


@dataclass
class Pending:
    """A person's message waiting for its answer."""

    kind: str
    seq: int | None
    sent: float


class Person:
    """The scripted person at seat 0 of one table, over as many connections as it takes."""

    def __init__(
        self,
        settings: Settings,
        rng: random.Random,
        stats: Stats,
        table: str,
        token: str,
        end: float,
    ) -> None:
        self.settings = settings
        self.rng = rng
        self.stats = stats
        self.table = table
        self.token = token
        self.end = end
        self.url = settings.base.replace("http", "ws", 1) + f"/ws/{table}/0"
        self.requests = 0  # person's requests on the current connection

    def think(self) -> float:
        return self.rng.uniform(0.5, 1.5) * self.settings.think

    async def play(self) -> bool:
        """Play the table until its match is over (True) or the time is up (False)."""
        for _ in range(MAX_CONNECTIONS):
            if time.monotonic() >= self.end:
                return False
            outcome = await self._connection()
            if outcome == "over":
                self.stats.matches_over += 1
                return True
            if outcome in ("time", "gone"):
                return False
            if outcome == "failed":
                await asyncio.sleep(1.0)
            self.stats.reconnects += 1
        return False

    async def _connection(self) -> str:
        try:
            wait = max(1.0, min(10.0, self.end - time.monotonic()))
            async with connect(self.url, open_timeout=wait, close_timeout=2, max_size=2**22) as ws:
                return await self._converse(ws)
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            self.stats.drop(code, f"table {self.table}: {exc}")
            return "gone" if code in (4401, 4404) else "dropped"
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
            self.stats.error("connect", f"table {self.table}: {exc!r}")
            return "failed"

    async def _send(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        await ws.send(json.dumps(message))

    async def _request(
        self, ws: ClientConnection, message: dict[str, Any], kind: str, seq: int | None
    ) -> Pending:
        self.requests += 1
        sent = time.monotonic()
        await self._send(ws, message)
        return Pending(kind, seq, sent)

    async def _converse(self, ws: ClientConnection) -> str:
        """One connection: hello, then read and answer until the match is over, the time is up,
        or it is time to reconnect."""
        self.requests = 0
        await self._send(ws, {"t": "hello", "token": self.token, "pace": "normal"})
        latest: dict[str, Any] | None = None  # the last view message
        last_view_at: float | None = None
        unmeasured = True  # the last view was the opening one, or answered {"t": "view"}
        pending: Pending | None = None
        planned: tuple[str, float] | None = None  # ("action" | "next_hand", when)
        heard = time.monotonic()
        for _ in range(MAX_MESSAGES):
            now = time.monotonic()
            if now >= self.end:
                self._left_waiting(pending, planned, heard, now)
                return "time"
            if pending is None and planned is not None and now >= planned[1] and latest:
                pending = await self._move(ws, planned[0], latest)
                planned = None
                continue
            waiting = pending is not None or planned is None
            until = heard + SILENCE if pending is not None or planned is None else planned[1]
            until = min(self.end, until)
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.0, until - now))
            except TimeoutError:
                if waiting and time.monotonic() >= heard + SILENCE:
                    what = f"answer to {pending.kind}" if pending is not None else "computer move"
                    self.stats.error("silent", f"table {self.table}: no {what} in {SILENCE:g} s")
                    return "reconnect"
                continue
            now = heard = time.monotonic()
            try:
                message = json.loads(raw)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                self.stats.error("bad_json", f"table {self.table}: {str(raw)[:80]}")
                continue
            kind = str(message.get("t"))
            self.stats.messages[kind] += 1
            if kind == "view":
                self.stats.view(now)
                log = message.get("log") or []
                computer = bool(log) and all(
                    isinstance(e, dict) and e.get("seat") != 0 for e in log
                )
                if computer and last_view_at is not None and not unmeasured:
                    late = 1000 * (now - last_view_at - self.settings.delay)
                    self.stats.lateness(late, now)
                seq = message.get("seq")
                resync = pending is not None and pending.kind == "view"
                answered = resync or (
                    pending is not None
                    and pending.seq is not None
                    and isinstance(seq, int)
                    and seq > pending.seq
                )
                unmeasured = resync or "hand_log" in message
                latest, last_view_at, planned = message, now, None
                if answered and pending is not None:
                    self.stats.answered(pending.kind, pending.sent, now)
                    done, pending = pending.kind, None
                    if done in MOVES and self.rng.random() < 1 / RECONNECT_EVERY:
                        return "reconnect"
                if (message.get("view") or {}).get("over"):
                    return "over"
            elif kind == "hint":
                if pending is not None and pending.kind == "hint":
                    self.stats.answered("hint", pending.sent, now)
                    pending = None
            elif kind == "error":
                code = str(message.get("code"))
                text = f"table {self.table}: {message.get('message')}"
                if code in ("auth", "unknown_table"):
                    self.stats.error(code, text)
                    return "gone"
                if pending is None:
                    self.stats.error(code, f"unasked: {text}")
                    continue
                if code == "stale" and self.requests == 1:
                    self.stats.stale += 1  # the first request after a (re)connection
                else:
                    self.stats.error(code, f"{pending.kind}: {text}")
                pending, planned = None, None
                pending = await self._request(ws, {"t": "view"}, "view", None)
            elif kind == "welcome" and message.get("seat") != 0:
                self.stats.error("welcome", f"table {self.table}: seat {message.get('seat')}")
            elif kind not in OTHER_MESSAGES:
                self.stats.messages["unexpected"] += 1
            if pending is None and planned is None and latest is not None:
                pending, planned = await self._plan(ws, latest, now)
        return "reconnect"

    def _left_waiting(
        self, pending: Pending | None, planned: tuple[str, float] | None, heard: float, now: float
    ) -> None:
        """At the end of the run: an answer still due after :data:`OVERDUE` seconds, or a
        computer's move that long past its pause, is an error (``no_answer``, ``silent``)."""
        if pending is not None and now - pending.sent > OVERDUE:
            what = f"{pending.kind} unanswered for {now - pending.sent:.1f} s at the end"
            self.stats.error("no_answer", f"table {self.table}: {what}")
        elif pending is None and planned is None and now - heard > self.settings.delay + OVERDUE:
            what = f"no computer move for {now - heard:.1f} s at the end"
            self.stats.error("silent", f"table {self.table}: {what}")

    async def _plan(
        self, ws: ClientConnection, latest: dict[str, Any], now: float
    ) -> tuple[Pending | None, tuple[str, float] | None]:
        """What to do after this view: deal the next hand, or move (perhaps after a hint)."""
        view = latest.get("view") or {}
        hand = view.get("hand") or {}
        if view.get("over"):
            return None, None
        if hand.get("result") is not None or hand.get("to_act") is None:
            return None, ("next_hand", now + self.think())
        if hand.get("to_act") == 0 and hand.get("legal_actions"):
            planned = ("action", now + self.think())
            if self.rng.random() < HINT_SHARE:
                return await self._request(ws, {"t": "hint"}, "hint", None), planned
            return None, planned
        return None, None

    async def _move(self, ws: ClientConnection, kind: str, latest: dict[str, Any]) -> Pending:
        seq = latest.get("seq")
        if not isinstance(seq, int):
            seq = 0
        if kind == "next_hand":
            return await self._request(ws, {"t": "next_hand", "seq": seq}, kind, seq)
        view = latest.get("view") or {}
        move = choose_move(view.get("hand") or {}, latest.get("aids") or {}, self.rng)
        if move == "best_layoffs":
            return await self._request(ws, {"t": "best_layoffs", "seq": seq}, move, seq)
        message = {"t": "action", "action": move, "seq": seq}
        return await self._request(ws, message, "action", seq)


async def create_table(base: str, body: dict[str, Any], stats: Stats) -> tuple[str, str] | None:
    """``POST /api/tables`` (in a thread): the new table and seat 0's token, or None."""

    def post() -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{base}/api/tables",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, {"error": exc.read().decode(errors="replace")[:200]}

    started = time.monotonic()
    try:
        status, answer = await asyncio.to_thread(post)
    except (OSError, ValueError) as exc:
        stats.error("create", repr(exc))
        return None
    now = time.monotonic()
    if status != 201 or not isinstance(answer.get("table"), str):
        stats.error(f"http_{status}", f"POST /api/tables {body}: {answer}")
        return None
    stats.tables_created += 1
    stats.create_ms.append(1000 * (now - started))  # (the ramp-up's too)
    return answer["table"], str(answer["token"])


async def run_slot(settings: Settings, slot: int, begin: float, stats: Stats) -> None:
    """One table after another (a new one when a match ends) from ``begin`` until the end."""
    rng = random.Random(f"rummykit-load:{settings.seed}:{slot}")
    await asyncio.sleep(max(0.0, begin - time.monotonic()))
    for _ in range(MAX_TABLES_PER_SLOT):
        if time.monotonic() >= stats.end:
            return
        body = draw_table(rng)
        created = await create_table(settings.base, body, stats)
        if created is None:
            await asyncio.sleep(1.0)
            continue
        person = Person(settings, rng, stats, *created, end=stats.end)
        if not await person.play():
            return


async def run_hinter(settings: Settings, stats: Stats) -> None:
    """A person at a Gin table who only asks for hints, one after the other, on their turn: the
    strongest player's advice each time, CPU-heavy work for the server, to see whether it slows
    the other tables down (``--hinters``)."""
    created = await create_table(
        settings.base, {"game": "gin", "opponents": 1, "level": "easy"}, stats
    )
    if created is None:
        return
    table, token = created
    url = settings.base.replace("http", "ws", 1) + f"/ws/{table}/0"

    async def answer(ws: ClientConnection, kinds: tuple[str, ...]) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["t"] in kinds and (
                message["t"] != "view" or message["view"]["hand"]["legal_actions"]
            ):
                return message

    async with connect(url, open_timeout=10, close_timeout=2, max_size=2**22) as ws:
        await ws.send(json.dumps({"t": "hello", "token": token}))
        await answer(ws, ("view",))  # the person's turn
        while time.monotonic() < stats.end:
            await ws.send(json.dumps({"t": "hint"}))
            got = await answer(ws, ("hint", "error"))
            if got["t"] == "error":
                stats.error("hinter", str(got)[:200])
                return
            if stats.inside(time.monotonic()):
                stats.heavy_hints += 1


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


# ----------------------------------------------------------------------------- the server side


def loopback_base(url: str) -> str:
    """``http://HOST:PORT`` of a server on loopback; ValueError for any other address.

    >>> loopback_base("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    >>> loopback_base("http://[::1]:8000")
    'http://[::1]:8000'
    >>> loopback_base("http://192.168.1.20:8000/")
    Traceback (most recent call last):
    ...
    ValueError: 192.168.1.20 is not a loopback address (127.0.0.0/8, localhost or ::1)
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"give the server as http://127.0.0.1:PORT/, not {url!r}")
    host = parts.hostname
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad port in {url!r}") from None
    if host == "localhost":
        try:
            infos = socket.getaddrinfo(host, port or 80, proto=socket.IPPROTO_TCP)
        except OSError as exc:
            raise ValueError(f"localhost does not resolve: {exc}") from None
        addresses = {info[4][0] for info in infos}
        if not addresses or not all(ipaddress.ip_address(a).is_loopback for a in addresses):
            raise ValueError(f"localhost resolves to {sorted(addresses)}, not only loopback")
    else:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            address = None
        if address is None or not address.is_loopback:
            raise ValueError(f"{host} is not a loopback address (127.0.0.0/8, localhost or ::1)")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return f"{parts.scheme}://{netloc}"


def _die_with_parent() -> None:
    """SIGTERM to this process when its parent dies (Linux): the server and the workers do not
    outlive the script, even one killed with SIGKILL."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Server:
    """``rummykit serve`` on 127.0.0.1, port 0, its own SQLite file, in a subprocess."""

    folder: Path
    delay: float
    src: Path | None = None
    """Another source tree to run the server from (its ``rummykit`` package), or None."""
    workers: int = 1
    """Server processes (``rummykit serve --workers``)."""
    proc: subprocess.Popen[bytes] | None = None
    port: int = 0

    @property
    def log(self) -> Path:
        return self.folder / "serve.log"

    def start(self, deadline: float) -> None:
        exe = Path(sys.executable).parent / "rummykit"
        env = dict(os.environ)
        if self.src is not None or not exe.exists():
            command = [sys.executable, "-m", "rummykit"]
            if self.src is not None:
                env["PYTHONPATH"] = str(self.src)
        else:
            command = [str(exe)]
        command += ["serve", "--host", "127.0.0.1", "--port", "0"]
        command += ["--db", str(self.folder / "tables.sqlite3"), "--delay", str(self.delay)]
        if self.workers > 1:
            command += ["--workers", str(self.workers)]
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env=env,
                preexec_fn=_die_with_parent,
            )
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"rummykit serve exited ({self.proc.returncode}):\n{self.text()}"
                )
            found = SERVED.search(self.text())
            if found and _answers(f"http://127.0.0.1:{found[1]}"):
                self.port = int(found[1])
                return
            time.sleep(0.05)
        raise RuntimeError(f"rummykit serve did not start in time:\n{self.text()}")

    def text(self) -> str:
        return self.log.read_bytes().decode(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def cpu_seconds(self) -> float | None:
        """User + system CPU seconds so far of the server's process and the processes it
        started (its computer players' worker processes)."""
        if not self.alive():
            return None
        assert self.proc is not None
        stats: dict[int, tuple[int, float]] = {}  # pid -> (parent, CPU seconds)
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks = int(fields[11]) + int(fields[12])
            stats[int(entry.name)] = (int(fields[1]), ticks / os.sysconf("SC_CLK_TCK"))
        if self.proc.pid not in stats:
            return None
        family, total = {self.proc.pid}, 0.0
        grew = True
        while grew:
            grew = False
            for pid, (parent, _) in stats.items():
                if parent in family and pid not in family:
                    family.add(pid)
                    grew = True
        for pid in family:
            total += stats[pid][1]
        return total

    def memory_kb(self, key: str) -> int | None:
        """``VmRSS`` or ``VmHWM`` of the server's process, in kB."""
        if not self.alive():
            return None
        assert self.proc is not None
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return None
        found = re.search(rf"^{key}:\s+(\d+) kB", status, re.M)
        return int(found[1]) if found else None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 4 seconds."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(4)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def log_errors(self) -> list[str]:
        """The lines of the server's log that report an error."""
        lines = self.text().splitlines()
        return [ln for ln in lines if re.search(r"Traceback|ERROR|Exception|Error:", ln)]


def _answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/games", timeout=1):
            return True
    except OSError:
        return False


# ------------------------------------------------------------------------------------ the parent


def _ms(values: list[float], q: float) -> float | None:
    return round(percentile(values, q), 1) if values else None


def merge(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The workers' reports added up."""
    total: dict[str, Any] = {
        "latencies": {},
        "late": [],
        "create_ms": [],
        "errors": Counter(),
        "close_codes": Counter(),
        "messages": Counter(),
        "error_samples": [],
    }
    for key in ("moves", "views", "stale", "dropped", "tables_created", "matches_over"):
        total[key] = 0
    total["reconnects"] = 0
    total["heavy_hints"] = 0
    for report in reports:
        for kind, values in report["latencies"].items():
            total["latencies"].setdefault(kind, []).extend(values)
        total["late"] += report["late"]
        total["create_ms"] += report["create_ms"]
        for key in ("errors", "close_codes", "messages"):
            total[key].update(report[key])
        total["error_samples"] += report["error_samples"]
        for key in ("moves", "views", "stale", "dropped", "tables_created", "matches_over"):
            total[key] += report[key]
        total["reconnects"] += report["reconnects"]
        total["heavy_hints"] += report["heavy_hints"]
    return total


def summary(
    args: argparse.Namespace, total: dict[str, Any], server: dict[str, Any]
) -> dict[str, Any]:
    """The figures of the run, as the JSON output names them."""
    every = [v for values in total["latencies"].values() for v in values]
    seconds = float(args.seconds)
    return {
        "tables": args.tables,
        "seconds": seconds,
        "think": args.think,
        "clients": args.clients,
        "server_workers": args.workers,
        "delay": args.delay,
        "seed": args.seed,
        "p50_ms": _ms(every, 0.5),
        "p99_ms": _ms(every, 0.99),
        "max_ms": round(max(every), 1) if every else None,
        "answers": len(every),
        "late_p50_ms": _ms(total["late"], 0.5),
        "late_p99_ms": _ms(total["late"], 0.99),
        "late_min_ms": round(min(total["late"]), 1) if total["late"] else None,
        "early": sum(1 for v in total["late"] if v < -EARLY_MS),
        "computer_moves": len(total["late"]),
        "actions": total["moves"],
        "actions_per_s": round(total["moves"] / seconds, 2),
        "views_per_s": round(total["views"] / seconds, 2),
        "errors": sum(total["errors"].values()),
        "error_codes": dict(total["errors"]),
        "stale": total["stale"],
        "dropped": total["dropped"],
        "close_codes": dict(total["close_codes"]),
        "by_kind": {
            kind: {
                "count": len(values),
                "p50_ms": _ms(values, 0.5),
                "p99_ms": _ms(values, 0.99),
                "max_ms": round(max(values), 1),
            }
            for kind, values in sorted(total["latencies"].items())
        },
        "create_p50_ms": _ms(total["create_ms"], 0.5),
        "tables_created": total["tables_created"],
        "matches_over": total["matches_over"],
        "reconnects": total["reconnects"],
        "hinters": args.hinters,
        "heavy_hints_per_s": round(total["heavy_hints"] / seconds, 2),
        "messages": dict(sorted(total["messages"].items())),
        **server,
    }


def _cell(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def print_table(figures: dict[str, Any], samples: list[str]) -> None:
    columns = [
        ("tables", "tables", 0),
        ("seconds", "seconds", 0),
        ("p50 ms", "p50_ms", 1),
        ("p99 ms", "p99_ms", 1),
        ("max ms", "max_ms", 1),
        ("late p50", "late_p50_ms", 0),
        ("late p99", "late_p99_ms", 0),
        ("actions/s", "actions_per_s", 2),
        ("views/s", "views_per_s", 1),
        ("errors", "errors", 0),
        ("stale", "stale", 0),
        ("dropped", "dropped", 0),
        ("cpu %", "server_cpu_pct", 1),
        ("rss MB", "server_rss_mb", 1),
    ]
    cells = [_cell(figures[key], digits) for _, key, digits in columns]
    widths = [max(len(name), len(cell)) for (name, _, _), cell in zip(columns, cells, strict=True)]
    print("  ".join(name.rjust(w) for (name, _, _), w in zip(columns, widths, strict=True)))
    print("  ".join(cell.rjust(w) for cell, w in zip(cells, widths, strict=True)))
    print(
        f"think {figures['think']:g} s, delay {figures['delay']:g} s, {figures['clients']}"
        f" client processes, {figures['server_workers']} server processes, seed {figures['seed']}; {figures['answers']} answers,"
        f" {figures['actions']} moves acknowledged, {figures['computer_moves']} computer moves"
        f" timed (late = the interval to the view before minus {figures['delay']:g} s; least"
        f" {_cell(figures['late_min_ms'])} ms, {figures['early']} early by over {EARLY_MS:g} ms)"
    )
    for kind, row in figures["by_kind"].items():
        print(
            f"  {kind:13} {row['count']:6}  p50 {_cell(row['p50_ms'])} ms"
            f"  p99 {_cell(row['p99_ms'])} ms  max {_cell(row['max_ms'])} ms"
        )
    print(
        f"tables created {figures['tables_created']} (POST p50"
        f" {_cell(figures['create_p50_ms'])} ms), matches over {figures['matches_over']},"
        f" reconnections {figures['reconnects']}; server CPU {_cell(figures['server_cpu_s'], 2)}"
        f" s, log errors {_cell(figures['server_log_errors'])}"
    )
    if figures["error_codes"] or figures["close_codes"]:
        print(f"errors by code {figures['error_codes']}, closes {figures['close_codes']}")
    for sample in samples[:10]:
        print(f"  {sample}")


def watch_server(
    server: Server | None, window: tuple[float, float], problems: list[str]
) -> dict[str, Any]:
    """Wait out the measured window; the server's CPU time over it and its peak memory (None
    for a server this script did not start)."""
    figures: dict[str, Any] = {"server_cpu_s": None, "server_cpu_pct": None, "server_rss_mb": None}
    time.sleep(max(0.0, window[0] - time.monotonic()))
    before = server.cpu_seconds() if server is not None else None
    rss_seen = 0
    while time.monotonic() < window[1]:
        if server is not None:
            rss_seen = max(rss_seen, server.memory_kb("VmRSS") or 0)
            if not server.alive():
                problems.append("the server exited during the run")
                break
        time.sleep(min(0.5, max(0.0, window[1] - time.monotonic())))
    if server is None:
        return figures
    after = server.cpu_seconds()
    if before is not None and after is not None:
        figures["server_cpu_s"] = round(after - before, 2)
        figures["server_cpu_pct"] = round(100 * (after - before) / (window[1] - window[0]), 1)
    peak = max(server.memory_kb("VmHWM") or 0, rss_seen)
    figures["server_rss_mb"] = round(peak / 1024, 1) if peak else None
    return figures


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
