"""The scripted person of the load benchmark (``bench/load.py``): the tables it asks for, the
moves it chooses, and one table's play over a websocket (and the ``--hinters``' hints)."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from load_report import MOVES, Stats
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

SILENCE = 20.0
"""Seconds a socket may stay silent while an answer or a computer's move is due."""

OVERDUE = 5.0
"""Seconds after which an answer (or a computer's move, beyond its pause) still due when the run
ends is counted as an error."""

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

RANKS = "A23456789TJQK"
"""Card ranks, lowest first (the notation of ``docs/notation.md``; ``X`` is a joker)."""

OTHER_MESSAGES = frozenset(
    {"welcome", "seats", "presence", "timeout", "said", "rematch", "check_down", "review"}
)
"""The server's other messages (docs/protocol.md): counted, nothing to answer."""

MIXES = ("realistic", "gin-easy")
"""The draws of tables ``--mix`` offers: ``realistic`` (Gin, Basic Rummy and Crazy Rummy against
medium or hard computers), ``gin-easy`` (every table Gin against one easy computer)."""


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


def draw_table(rng: random.Random, mix: str = "realistic") -> dict[str, Any]:
    """A new table's request. ``realistic``: Gin 1/2, Basic Rummy 1/3 (1-3 opponents), Crazy
    Rummy 1/6 (3), against medium or hard computers; ``gin-easy``: Gin against one easy computer,
    every time (the generator is not used).

    >>> draw_table(random.Random(3))["game"] in {"gin", "rummy", "crazy"}
    True
    >>> draw_table(random.Random(3), "gin-easy")
    {'game': 'gin', 'opponents': 1, 'level': 'easy'}
    """
    if mix == "gin-easy":
        return {"game": "gin", "opponents": 1, "level": "easy"}
    if mix != "realistic":
        raise ValueError(f"unknown mix {mix!r} (one of {', '.join(MIXES)})")
    roll = rng.random()
    if roll < 1 / 2:
        game, opponents = "gin", 1
    elif roll < 1 / 2 + 1 / 3:
        game, opponents = "rummy", rng.randint(1, 3)
    else:
        game, opponents = "crazy", 3
    level = rng.choice(("medium", "hard"))
    return {"game": game, "opponents": opponents, "level": level}


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
    mix: str = "realistic"
    """The draw of games and levels (one of :data:`MIXES`)."""


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
        body = draw_table(rng, settings.mix)
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
