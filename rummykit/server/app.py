"""The FastAPI application: the page, a small JSON API, and one WebSocket per seat.

This is rummykit's only async code. Each table has a lock: a person's intent and a computer
seat's move are handled one at a time, committed to the store, and the resulting views are put in
each socket's outbox before the lock is released (sent in order by the socket's own task, never
awaited under the lock), so every socket receives views in ``seq`` order. After a person's action,
a task runs the computer seats one action at a time, ``delay`` seconds apart, so the page can show
each move.

Routes: ``GET /`` (the page, static files from ``rummykit/web``), ``GET /api/games``,
``POST /api/tables``, ``GET /api/tables/{id}``, ``WS /ws/{table}/{seat}``. The protocol is in
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from rummykit import __version__
from rummykit.server.catalogue import game_catalogue
from rummykit.server.limits import GIVE_AFTER, TABLES_PER_MINUTE, Buckets, Limits
from rummykit.server.names import BadName, NameTaken
from rummykit.server.outbox import Outbox
from rummykit.server.protocol import (
    PACES,
    ActionIntent,
    Back,
    BestLayoffs,
    CheckDown,
    DuplicateKeyError,
    Hello,
    HintRequest,
    NextHand,
    PaceRequest,
    ProtocolError,
    Reading,
    ReviewRequest,
    Say,
    UndoRequest,
    ViewRequest,
    error_message,
    load_json,
    parse_incoming,
)
from rummykit.server.pruning import PRUNE_EVERY, note_opened, prune_forever
from rummykit.server.seats import Seat, invite_fits, token_fits
from rummykit.server.security import CSP, PERMISSIONS, normal_origin, same_site
from rummykit.server.store import Store, TableSummary
from rummykit.server.tables import Table, TableManager
from rummykit.server.thinking import Thinker, default_processes

__all__ = ["WEB_DIR", "Hub", "PageCompression", "app_from_environment", "create_app"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The page's static files (HTML, CSS, JavaScript modules, catalogues, rules)."""

HELLO_TIMEOUT = 5.0
"""Seconds a new socket has to say hello with its token."""

SEND_TIMEOUT = 2.0
"""Seconds a socket may take to accept one message; one that takes longer (it stopped reading)
is closed. Messages wait in each socket's own outbox (:class:`Outbox`), so a slow socket never
holds up its table."""

MAX_BODY = 16_384
"""Bytes at most in a request body (a new table's settings are far smaller)."""

COMPRESS_FROM = 1024
"""Bytes from which the page's files are sent gzip-compressed (to browsers that accept it)."""

SAY_INTERVAL = 2.0
"""Seconds a seat waits between two phrases (``say``), so that nobody floods a table."""

PRESENCE_INTERVAL = 0.5
"""Seconds at least between two ``presence`` messages at a table: changes closer together (a
page toggling ``reading``, a socket coming and going) are merged into the next message."""

WATCH_INTERVAL = 0.25
"""Seconds between two looks at the store for tables another server process wrote (a shared
store only): how late a page learns of a move made through another process."""

LEASE_SECONDS = 6.0
"""How long a process's lease on a table (running its computers and clock) lasts unless renewed;
renewed every third of it, taken over by another process once it has expired."""

THREADS = 64
"""Threads for the engine's work and the store's reads and writes (see ``lifespan``)."""

REPLACED = 4409
"""Close code for a seat's older socket when the same seat says hello on a new one."""

log = logging.getLogger("rummykit.server")

Messages = dict[int, dict[str, Any]]


def _seat_number(text: str) -> int:
    """A seat number from a path: one or two ASCII digits, no leading zero; else -1."""
    return int(text) if re.fullmatch(r"0|[1-9][0-9]?", text) else -1


class TableLock:
    """A table's lock that knows whether anyone holds it or waits for it.

    A table is dropped from memory only when nobody does (see :meth:`Hub.release`): a socket that
    has looked the table up and waits for its lock must find the same table object after the
    wait, never a copy replayed from the store beside it.
    """

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self.users = 0
        """Coroutines holding the lock or waiting for it."""

    def locked(self) -> bool:
        """True while anyone holds the lock or waits for it."""
        return self.users > 0

    async def __aenter__(self) -> None:
        self.users += 1  # before any await: a waiter counts at once
        try:
            await self._lock.acquire()
        except BaseException:
            self.users -= 1
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()
        self.users -= 1


class Hub:
    """The live side of the tables: a socket per seat, a lock per table, computer-move tasks.

    A table stays in memory while a socket is open on it or its computers are moving; then it is
    forgotten, and the next socket replays it from the store (which holds every accepted action).
    """

    def __init__(self, manager: TableManager, delay: float, thinker: Thinker | None = None) -> None:
        self.manager = manager
        self.delay = delay
        self.thinker = Thinker(0) if thinker is None else thinker
        """Where the computer thinks (threads only unless given worker processes)."""
        self.store = manager.store
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process's name in the store's leases."""
        self.leased: set[str] = set()
        """The tables whose computers and clock this process runs (a shared store only)."""
        self.watcher: asyncio.Task[None] | None = None
        self.sockets: dict[str, dict[int, set[WebSocket]]] = {}
        self.locks: dict[str, TableLock] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}
        self.said: dict[str, dict[int, float]] = {}  # when each seat last said a phrase
        self.reviewing: set[tuple[str, int]] = set()  # (table, seat) with a review in the works
        self.paces: dict[WebSocket, str] = {}  # the pace each page asked for (see delay_for)
        self.reading: set[WebSocket] = set()  # pages showing a hand's score (see reading_seats)
        self.clocks: dict[str, tuple[tuple[int, int, int], asyncio.Task[None]]] = {}
        """Per table, the person's turn whose time is running and the task that ends it."""
        self.presence_sent: dict[str, float] = {}  # when each table's last presence went out
        self.presence_due: dict[str, asyncio.Task[None]] = {}  # a presence waiting its turn
        self.loading: dict[str, asyncio.Future[Table | None]] = {}  # replays under way
        self.outboxes: dict[WebSocket, Outbox] = {}  # each joined socket's messages on their way

    async def table(self, table_id: str) -> Table | None:
        """The table, replayed from the store in a worker thread if it is not in memory (one
        replay a table at a time: others asking meanwhile wait for it), so that a long record
        never holds up the event loop. None as for :meth:`TableManager.get`."""
        table = self.manager.tables.get(table_id)
        if table is not None:
            return table
        loading = self.loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(asyncio.to_thread(self.manager.replay, table_id))
            self.loading[table_id] = loading
            loading.add_done_callback(lambda _: self.loading.pop(table_id, None))
        replayed = await asyncio.shield(loading)
        return None if replayed is None else self.manager.keep(replayed)

    async def summary(self, table_id: str) -> TableSummary | None:
        """What the store's row says of a table (no replay), read in a worker thread."""
        return await asyncio.to_thread(self.store.summary, table_id)

    def lock(self, table_id: str) -> TableLock:
        """The lock that serialises everything done to one table."""
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = TableLock()
        return lock

    def join(self, table_id: str, seat: int, ws: WebSocket) -> None:
        """Register a seat's socket; the seat's older sockets are closed (one socket a seat)."""
        seats = self.sockets.setdefault(table_id, {})
        for old in seats.get(seat, set()):
            if old in self.outboxes:
                self.outboxes[old].close(REPLACED)
        seats[seat] = {ws}
        self.outboxes[ws] = Outbox(ws, timeout=SEND_TIMEOUT)

    def leave(self, table_id: str, seat: int, ws: WebSocket) -> None:
        """Forget a closed socket (and the table, if nothing else holds it in memory)."""
        self.sockets.get(table_id, {}).get(seat, set()).discard(ws)
        self.paces.pop(ws, None)
        self.reading.discard(ws)
        outbox = self.outboxes.pop(ws, None)
        if outbox is not None:
            outbox.stop()
        self.release(table_id)

    def release(self, table_id: str) -> None:
        """Drop an idle table from memory: no socket open, no computer moving, nobody holding or
        waiting for its lock."""
        if any(self.sockets.get(table_id, {}).values()):
            return
        runner = self.runners.get(table_id)
        lock = self.locks.get(table_id)
        if (runner is not None and not runner.done()) or (lock is not None and lock.locked()):
            return
        self.sockets.pop(table_id, None)
        self.runners.pop(table_id, None)
        self._stop_clock(table_id)
        self.presence_sent.pop(table_id, None)
        due = self.presence_due.pop(table_id, None)
        if due is not None and due is not asyncio.current_task():
            due.cancel()
        self.locks.pop(table_id, None)
        self.said.pop(table_id, None)
        self.manager.forget(table_id)
        if table_id in self.leased:  # let another process take it over at once
            self.leased.discard(table_id)
            loop = asyncio.get_running_loop()
            loop.run_in_executor(None, self._drop_lease, table_id)

    def _drop_lease(self, table_id: str) -> None:
        try:
            self.store.drop_lease(table_id, self.owner)
        except Exception:  # it expires by itself
            log.warning("could not give up the lease of table %s", table_id)

    async def owns(self, table_id: str) -> bool:
        """True if this process may run the table's computers and clock: always with a store of
        its own; with a shared store, once it holds the table's lease."""
        if not self.store.shared or table_id in self.leased:
            return True
        took = await asyncio.to_thread(self.store.take_lease, table_id, self.owner, LEASE_SECONDS)
        if took:
            self.leased.add(table_id)
        return took

    async def send_to(self, ws: WebSocket, message: dict[str, Any]) -> bool:
        """Put one message in the socket's outbox (never waits); False if the socket is gone,
        or fell behind and is being closed (its page reconnects and asks for the view)."""
        outbox = self.outboxes.get(ws)
        return outbox is not None and outbox.put(message)

    async def receive(self, ws: WebSocket) -> str | bytes | None:
        """The socket's next message, or None once it is closed, or its outbox closed it (what
        a page says while its outbox closes it is not listened to)."""
        outbox = self.outboxes.get(ws)
        return None if outbox is None else await outbox.read(_receive(ws))

    async def send(self, table_id: str, messages: Messages) -> None:
        """Send each seat its message on its socket (call with the table lock)."""
        for seat, message in messages.items():
            for ws in list(self.sockets.get(table_id, {}).get(seat, ())):
                if not await self.send_to(ws, message):
                    self.sockets.get(table_id, {}).get(seat, set()).discard(ws)

    async def presence(self, table: Table, *, merge: bool = False) -> None:
        """At a table of several people, tell each connected seat who is connected now and who
        reads a hand's score. A socket coming or going is told at once; a change a page asks
        for (``reading``, ``merge``) at most once every :data:`PRESENCE_INTERVAL`: one closer
        to the last message is sent when the interval is over, merged with any other change
        by then, so that a page cannot flood the table."""
        if len(table.human_seats()) < 2:
            return
        due = self.presence_due.get(table.id)
        if merge and due is not None and not due.done():
            return  # a message is on its way, with the state at its time
        sent = self.presence_sent.get(table.id)
        wait = 0.0 if sent is None else sent + PRESENCE_INTERVAL - time.monotonic()
        if merge and wait > 0:
            self.presence_due[table.id] = asyncio.create_task(self._presence_later(table, wait))
        else:
            await self._send_presence(table)

    async def _presence_later(self, table: Table, wait: float) -> None:
        await asyncio.sleep(wait)
        try:
            await self._send_presence(table)
        except Exception:
            log.exception("presence failed at table %s", table.id)
        finally:
            self._presence_done(table.id)
            self.release(table.id)  # its last page may have closed while this was sent

    def _presence_done(self, table_id: str) -> None:
        """The table's pending presence, if it is the task running now, has read the state it
        sends: a change from now on needs a message of its own."""
        if self.presence_due.get(table_id) is asyncio.current_task():
            del self.presence_due[table_id]

    async def _send_presence(self, table: Table) -> None:
        async with self.lock(table.id):
            self._presence_done(table.id)  # (a change while this is sent is sent after it)
            self.presence_sent[table.id] = time.monotonic()
            online = self.seats_of(table.id)
            reading = self.reading_seats(table.id)
            await self.broadcast(table.id, {"t": "presence", "online": online, "reading": reading})

    def reading_seats(self, table_id: str) -> list[int]:
        """The seats of a table whose page shows a hand's score now (it said so)."""
        sockets = self.sockets.get(table_id, {})
        return [seat for seat, held in sockets.items() if held & self.reading]

    def seats_of(self, table_id: str) -> list[int]:
        """The seats of a table with a socket open."""
        return [seat for seat, sockets in self.sockets.get(table_id, {}).items() if sockets]

    async def broadcast(self, table_id: str, message: dict[str, Any]) -> None:
        """Send the same message to every seat with a socket open (call with the table lock)."""
        await self.send(table_id, dict.fromkeys(self.seats_of(table_id), message))

    async def say(self, table: Table, seat: int, phrase: str) -> None:
        """Tell everyone at a table of several people what ``seat`` says (call with the table
        lock). Not stored: a phrase is for the people there now."""
        if table.people() < 2:
            raise ProtocolError("there is nobody else at this table to say it to")
        now = time.monotonic()
        said = self.said.setdefault(table.id, {})
        if now - said.get(seat, -SAY_INTERVAL) < SAY_INTERVAL:
            raise ProtocolError(f"one phrase every {SAY_INTERVAL:g} seconds", "too_fast")
        said[seat] = now
        await self.broadcast(table.id, {"t": "said", "seat": seat, "phrase": phrase})

    async def review(self, table: Table, seat: int, ws: WebSocket, number: int | None) -> None:
        """Answer ``seat``'s request to review a finished hand. The request is checked under the
        table's lock; the review itself (one computer decision per move of the seat, up to a
        second for a long hand) runs in a worker process outside it, so the table goes on. One
        review at a time per seat (``too_fast`` otherwise)."""
        key = (table.id, seat)
        if key in self.reviewing:
            raise ProtocolError("your last review is still being prepared", "too_fast")
        async with self.lock(table.id):
            work = table.review_task(seat, number)
        if isinstance(work, dict):  # made before
            await self.send_to(ws, work)
            return
        self.reviewing.add(key)
        try:
            answer = table.keep_review(await self.thinker.run(work, heavy=work.heavy), seat)
        finally:
            self.reviewing.discard(key)
        await self.send_to(ws, answer)

    def delay_for(self, table_id: str) -> float:
        """The pause before a computer move at a table: the server's ``delay`` times the factor
        of the slowest pace among the pages connected there (a page that asked for none counts
        as ``normal``), so the computer never moves faster than someone there can follow."""
        pages = [ws for sockets in self.sockets.get(table_id, {}).values() for ws in sockets]
        factor = max((PACES[self.paces.get(ws, "normal")] for ws in pages), default=1.0)
        return self.delay * factor

    def wake(self, table: Table) -> None:
        """Start the computer seats' moves if one is to act and none is running, and the turn
        clock if a person is to act at a table with a time limit (:meth:`arm`). Call with the
        table's lock."""
        runner = self.runners.get(table.id)
        if table.computer_to_act() is not None and (runner is None or runner.done()):
            self.runners[table.id] = asyncio.create_task(self._run_computers(table))
        self.arm(table)

    def arm(self, table: Table) -> None:
        """Make sure a task ends the person's turn under way when its time is up (call after
        every change at the table, with its lock); a clock for a turn already over is
        stopped."""
        deadline = table.turn_deadline()
        running = self.clocks.get(table.id)
        if running is not None:
            turn, task = running
            if deadline is not None and deadline[0] == turn and not task.done():
                return
            self._stop_clock(table.id)
        if deadline is not None:
            turn, left = deadline
            task = asyncio.create_task(self._time_out(table, turn, left))
            self.clocks[table.id] = (turn, task)

    def _stop_clock(self, table_id: str) -> None:
        running = self.clocks.pop(table_id, None)
        if running is not None and running[1] is not asyncio.current_task():
            running[1].cancel()

    async def _time_out(self, table: Table, turn: tuple[int, int, int], left: float) -> None:
        """Wait out a person's turn; if it is still theirs then, the computer finishes it and
        every page hears ``{"t": "timeout", "seat"}``."""
        try:
            await self._end_turn(table, turn, left)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the turn clock failed at table %s", table.id)

    async def _end_turn(self, table: Table, turn: tuple[int, int, int], left: float) -> None:
        await asyncio.sleep(max(0.0, left))
        if not await self.owns(table.id):
            return  # its owner ends the turn (see watch)
        async with self.lock(table.id):
            if self.clocks.get(table.id, (None,))[0] == turn:
                del self.clocks[table.id]
            seat = table.expire(turn)
            if seat is None:
                self.arm(table)  # time is left after all (a clock set back), or a new turn
                return
            await self.broadcast(table.id, {"t": "timeout", "seat": seat})
            self.wake(table)

    async def _run_computers(self, table: Table) -> None:
        try:
            if await self.owns(table.id):  # else its owner moves them (see watch)
                await self._computer_moves(table)
        finally:
            if self.runners.get(table.id) is asyncio.current_task():
                del self.runners[table.id]
                self.release(table.id)

    async def _computer_moves(self, table: Table) -> None:
        while True:
            await asyncio.sleep(self.delay_for(table.id))
            async with self.lock(table.id):
                if table.computer_to_act() is None:
                    return
                try:
                    seat, decision = table.computer_decision()
                    # The hard players think for up to a second: in another process.
                    action = await self.thinker.run(decision, heavy=decision.heavy)
                    messages = await asyncio.to_thread(table.apply_computer, seat, action)
                except Exception:
                    log.exception("computer move failed at table %s", table.id)
                    return
                await self.send(table.id, messages)
                self.arm(table)
                # A person's turn next: stop now, so that their move wakes a new runner with a
                # full pause (sleeping on, this one would answer a quick person at once).
                if table.computer_to_act() is None:
                    return

    def start(self) -> None:
        """Start watching a shared store for other processes' writes and dead owners."""
        if self.store.shared and self.watcher is None:
            self.watcher = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        """With a shared store: every :data:`WATCH_INTERVAL`, bring the tables in memory that
        another process wrote up to date (each page is sent the table as it is now); every
        third of :data:`LEASE_SECONDS`, renew this process's leases (a table whose lease was
        taken over stops moving here) and wake the tables whose computers or clock nobody
        runs, so that this process takes them over when their owner has died."""
        renew_every = max(1, round(LEASE_SECONDS / 3 / WATCH_INTERVAL))
        rounds = 0
        while True:
            await asyncio.sleep(WATCH_INTERVAL)
            rounds += 1
            try:
                await self._catch_up_all()
                if rounds % renew_every == 0:
                    await self._renew_leases()
                    for table in list(self.manager.tables.values()):
                        async with self.lock(table.id):
                            self.wake(table)
                        self.release(table.id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("watching the shared store failed")

    async def _catch_up_all(self) -> None:
        tables = dict(self.manager.tables)
        if not tables:
            return
        stored = await asyncio.to_thread(self.store.changes_of, list(tables))
        for table_id, changes in stored.items():
            table = tables[table_id]
            if changes != table.changes:
                await self.catch_up(table)

    async def catch_up(self, table: Table) -> None:
        """Read a table another process wrote again, and send each page connected here the
        table as it is now (and the seats, if they changed)."""
        async with self.lock(table.id):
            stored = await asyncio.to_thread(self.store.changes_of, [table.id])
            if stored.get(table.id, table.changes) == table.changes:
                return  # (read again meanwhile)
            seats = [s.public() for s in table.seats]
            await asyncio.to_thread(table.reload)
            if [s.public() for s in table.seats] != seats:
                await self.broadcast(table.id, table.seats_message())
            online = self.seats_of(table.id)
            views = await asyncio.to_thread(
                lambda: {s: table.view_message(s, with_hand_log=True) for s in online}
            )
            await self.send(table.id, views)
            self.wake(table)

    async def _renew_leases(self) -> None:
        if not self.leased:
            return
        held = await asyncio.to_thread(
            self.store.renew_leases, self.owner, sorted(self.leased), LEASE_SECONDS
        )
        for table_id in self.leased - held:  # expired, and taken over: stop moving it here
            self.leased.discard(table_id)
            runner = self.runners.get(table_id)
            if runner is not None:
                runner.cancel()
            self._stop_clock(table_id)

    async def stop(self) -> None:
        """Cancel the computer-move tasks and the sends under way (on shutdown), and give up this
        process's leases."""
        tasks = [*self.runners.values(), *(task for _, task in self.clocks.values())]
        if self.watcher is not None:
            tasks.append(self.watcher)
        tasks += self.presence_due.values()
        for outbox in self.outboxes.values():  # (uvicorn closes the sockets themselves)
            outbox.stop()
            if outbox.task is not None:
                tasks.append(outbox.task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table_id in list(self.leased):
            self.leased.discard(table_id)
            await asyncio.to_thread(self._drop_lease, table_id)


ASKS = (HintRequest, ViewRequest, CheckDown, ReviewRequest)
"""The questions a socket asks (they change nothing): under a budget (:attr:`Limits.asks`)."""

NOT_VALID = "that invitation is not valid, or its seat is already taken"
"""The answer to an invitation code that opens no seat (as :meth:`Table.join` says it)."""

CREATE_FIELDS = frozenset(
    {"game", "opponents", "level", "options", "friends", "name", "turn_time", "deal"}
)
"""The fields of a new table's request."""


async def _read_body(request: Request) -> bytes | None:
    """The request body, or None if it is longer than :data:`MAX_BODY` (read no further)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


def _refuse(status: int, error: str) -> JSONResponse:
    return JSONResponse({"error": error}, status_code=status)


def _bad_name(exc: BadName, status: int) -> JSONResponse:
    """A refused name: why in words, and in one word for the page (``why``, see BadName)."""
    return JSONResponse({"error": str(exc), "field": "name", "why": exc.why}, status_code=status)


def _limited(buckets: Buckets[str] | None, request: Request, what: str) -> JSONResponse | None:
    """429 with ``Retry-After`` if the request's address has spent its budget for ``what``."""
    if buckets is None:
        return None
    address = request.client.host if request.client is not None else ""
    wait = buckets.spend(address, time.monotonic())
    if not wait:
        return None
    seconds = max(1, math.ceil(wait))
    answer = _refuse(429, f"too many {what} from this address: try again in {seconds} s")
    answer.headers["Retry-After"] = str(seconds)
    return answer


async def _object_body(
    request: Request, allowed: frozenset[str], required: frozenset[str] = frozenset()
) -> dict[str, Any] | JSONResponse:
    """The request's JSON object, or the refusal to send: 415 unless it says it is JSON (a
    plain form on another site cannot send it, then), 413 over :data:`MAX_BODY`, 400 for
    anything but a JSON object (or not Unicode, or nested too deep), for a field outside
    ``allowed`` or a ``required`` one missing."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        return _refuse(415, "the body is JSON (Content-Type: application/json)")
    raw = await _read_body(request)
    if raw is None:
        return _refuse(413, f"the body is too long (at most {MAX_BODY} bytes)")
    try:
        body = load_json(raw)
    except DuplicateKeyError as exc:
        return _refuse(400, str(exc))
    except ProtocolError:
        body = None
    if not isinstance(body, dict):
        return _refuse(400, "the body is a JSON object")
    unknown = sorted(set(body) - allowed)
    if unknown:
        return _refuse(400, f"unknown field(s): {', '.join(unknown)}")
    missing = sorted(required - set(body))
    if missing:
        return _refuse(400, f"missing field(s): {', '.join(missing)}")
    return body


async def _receive(ws: WebSocket) -> str | bytes | None:
    """The next message's text (or bytes), or None once the socket is closed."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


class PageCompression:
    """Gzip the page's own files, and nothing else.

    The page (HTML, CSS, JavaScript modules, catalogues) is about 170 KB and a third of that
    compressed: a phone on a slow link starts playing sooner. The API is left alone: its answers are
    small and carry seat tokens next to text the caller chose, which is what compression side
    channels (BREACH) feed on. WebSocket messages are compressed by the WebSocket layer itself.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_FROM, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith("/api/"):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def create_app(
    db: str | Path,
    *,
    delay: float = 0.8,
    web_dir: Path | None = None,
    thinkers: int | None = None,
    start_thinkers: bool = False,
    shared: bool | None = None,
    limits: Limits | None = None,
    origins: Iterable[str] = (),
    prune_every: float = PRUNE_EVERY,
) -> FastAPI:
    """The application serving the page and the tables stored in the SQLite file ``db``.

    ``delay`` is the pause in seconds before each computer move (the page animates them).
    ``thinkers``: the worker processes for the computer's heavy thinking (default: one per core
    beyond the first; 0: threads only), started with the first heavy decision, or at once with
    ``start_thinkers``. ``db`` may also be a ``postgresql://`` address; ``shared``: other server
    processes use the same database (always so for PostgreSQL; say so for a SQLite file served
    by several processes). ``limits``: the budgets of one client (default :class:`Limits`).
    ``origins``: the pages of other sites allowed to open sockets (``https://host[:port]``);
    the server's own page always is (see :func:`same_site`). Every ``prune_every`` seconds the
    tables nobody has opened for long are deleted (:mod:`rummykit.server.pruning`).
    """
    other_sites = frozenset(normal_origin(o) for o in origins)
    opened_at: dict[str, float] = {}  # when this process last noted each table as opened
    limits = Limits() if limits is None else limits
    creating = None if limits.create is None else Buckets[str](limits.create)
    joining = None if limits.join is None else Buckets[str](limits.join)
    asking = None if limits.asks is None else Buckets[WebSocket](limits.asks)
    store = Store(db, shared=shared)
    manager = TableManager(store)
    thinker = Thinker(default_processes() if thinkers is None else thinkers)
    hub = Hub(manager, delay, thinker)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Threads wait on the disk (each commit) more than they compute: more of them than
        # asyncio's default (cores + 4), so that one batch of commits can hold many tables' moves.
        threads = ThreadPoolExecutor(THREADS, thread_name_prefix="rummykit")
        asyncio.get_running_loop().set_default_executor(threads)
        if start_thinkers:
            await thinker.start()
        hub.start()
        pruner = asyncio.create_task(prune_forever(store, prune_every, opened_at))
        # Tables are replayed from the store when a seat connects, not all at start: a server
        # with many stored games starts at once, and an abandoned game costs no memory.
        yield
        pruner.cancel()
        await hub.stop()
        thinker.close()
        store.close()
        threads.shutdown(wait=False)

    app = FastAPI(
        title="rummykit",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.hub = hub
    app.state.manager = manager

    async def opened(
        table_id: str, allowed: Callable[[Sequence[Seat]], bool], refusal: str
    ) -> Table:
        """The table for a request whose secret ``allowed`` checks against its seats; raises
        ProtocolError ``unknown_table`` if there is none, ``auth`` (``refusal``) unless
        allowed. The secret is checked first, from memory or the store's row; only then is a
        table not in memory replayed (off the event loop), so that nobody without a secret can
        make the server replay a long record."""
        table = manager.tables.get(table_id)
        if table is None:
            summary = await hub.summary(table_id)
            if summary is None:
                raise ProtocolError("there is no such table", "unknown_table")
            if not allowed([Seat.from_dict(s) for s in summary.seats]):
                raise ProtocolError(refusal, "auth")
            table = await hub.table(table_id)
            if table is None:  # (its record no longer replays: logged)
                raise ProtocolError("there is no such table", "unknown_table")
        elif not allowed(table.seats):
            raise ProtocolError(refusal, "auth")
        return table

    async def opened_or_refused(
        table_id: str, allowed: Callable[[Sequence[Seat]], bool], refusal: str
    ) -> Table | JSONResponse:
        """:func:`opened` for a request over HTTP: 404 or 403 instead of the error."""
        try:
            return await opened(table_id, allowed, refusal)
        except ProtocolError as exc:
            status = 404 if exc.code == "unknown_table" else 403
            return JSONResponse({"error": str(exc)}, status_code=status)

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Permissions-Policy"] = PERMISSIONS
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        if request.url.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"
        else:
            # Revalidate the page's files on every load (a cheap 304 when unchanged), so a browser
            # never runs old JavaScript against a newer server.
            response.headers["Cache-Control"] = "no-cache"
        return response

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """The games, their presets, table sizes, computer levels and main options."""
        return {"version": __version__, "games": [g.to_dict() for g in game_catalogue()]}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> JSONResponse:
        """A new table: ``{"game", "opponents", "level", "options", "friends", "name",
        "turn_time", "deal"}`` -> seat 0, its token, and an invitation code for each friend's
        seat."""
        body = await _object_body(request, CREATE_FIELDS)
        if isinstance(body, JSONResponse):
            return body
        refused = _limited(creating, request, "new tables")
        if refused is not None:
            return refused
        game = body.get("game")
        opponents = body.get("opponents", 1)
        level = body.get("level", "random")
        options = body.get("options", {})
        if (
            not isinstance(game, str)
            or isinstance(opponents, bool)
            or not isinstance(opponents, int)
            or not isinstance(level, str)
            or not isinstance(options, dict)
        ):
            return JSONResponse(
                {"error": "expected game (string), opponents (number), level, options (object)"},
                status_code=400,
            )
        try:
            table, token = manager.create(
                variant=game,
                opponents=opponents,
                level=level,
                options=options,
                friends=body.get("friends", 0),
                name=body.get("name"),
                turn_time=body.get("turn_time", 0),
                deal=body.get("deal"),
            )
        except BadName as exc:
            return _bad_name(exc, 400)
        except (ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        manager.forget(table.id)  # stored; replayed when its seat connects
        invites = [{"seat": seat, "code": code} for seat, code in table.invites.items()]
        return JSONResponse(
            {"table": table.id, "seat": 0, "token": token, "invites": invites}, status_code=201
        )

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, request: Request) -> JSONResponse:
        """A friend takes the seat of an invitation: ``{"code", "name"}`` -> the seat, its token."""
        body = await _object_body(request, frozenset({"code", "name"}), frozenset({"code"}))
        if isinstance(body, JSONResponse):
            return body
        if not isinstance(body["code"], str):
            return _refuse(400, "the invitation's code is text")
        refused = _limited(joining, request, "seats taken")
        if refused is not None:
            return refused
        code = body["code"]
        table = await opened_or_refused(table_id, lambda seats: invite_fits(seats, code), NOT_VALID)
        if isinstance(table, JSONResponse):
            return table
        try:
            async with hub.lock(table.id):
                seat, token = table.join(code, body.get("name"))
                await hub.broadcast(table.id, table.seats_message())
                hub.wake(table)  # their turn's clock, if it is their turn, runs from now
        except ProtocolError as exc:
            return JSONResponse({"error": str(exc)}, status_code=403)
        except NameTaken as exc:
            return _bad_name(exc, 409)
        except BadName as exc:
            return _bad_name(exc, 400)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        finally:
            hub.release(table.id)
        return JSONResponse({"table": table.id, "seat": seat, "token": token})

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> JSONResponse:
        """Whether a table exists and is unfinished (for the start screen's Continue): from
        the store's row, never replayed for this (anyone may ask), or from memory."""
        table = manager.tables.get(table_id)
        summary = await hub.summary(table_id)
        if summary is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if table is not None:  # (in play: its seats and hands as they are this instant)
            seats, finished, hands = table.seats, table.finished, len(table.match.hands)
        else:
            seats = [Seat.from_dict(s) for s in summary.seats]
            finished, hands = summary.finished, summary.hands
        return JSONResponse(
            {
                "table": summary.id,
                "game": summary.game,
                "variant": summary.variant,
                "over": finished,
                "hand_number": hands,
                "seats": [s.public() for s in seats],
                "next": summary.next if finished else None,
                "turn_time": summary.turn_time,
            }
        )

    @app.post("/api/tables/{table_id}/seats/{seat_text}/computer")
    async def seat_to_computer(table_id: str, seat_text: str, request: Request) -> JSONResponse:
        """A computer plays a person's seat: ``{"by": 0, "token": that seat's token, "level":
        "easy"}`` -> the seats. The table's creator (``by`` 0, the default) may do it for a
        friend who has not taken their seat or is not connected; any other person at the table
        for one who took their seat and is not connected now (the creator too)."""
        body = await _object_body(
            request, frozenset({"by", "token", "level"}), frozenset({"token"})
        )
        if isinstance(body, JSONResponse):
            return body
        by = body.get("by", 0)
        level = body.get("level")
        if type(by) is not int or not isinstance(body["token"], str):
            return _refuse(400, 'the body is {"by": number, "token": text, "level": text}')
        if level is not None and not isinstance(level, str):
            return _refuse(400, 'the body is {"by": number, "token": text, "level": text}')
        seat = _seat_number(seat_text)
        token = body["token"]
        refusal = "only the table's creator may do that" if by == 0 else "wrong token"
        table = await opened_or_refused(
            table_id, lambda seats: token_fits(seats, by, token), refusal
        )
        if isinstance(table, JSONResponse):
            return table
        try:
            async with hub.lock(table.id):
                connected = hub.seats_of(table.id)
                after = limits.give_after
                table.give_to_computer(seat, level, connected=connected, by=by, after=after)
                message = table.seats_message()
                await hub.broadcast(table.id, message)
                hub.wake(table)  # it may be that seat's turn
        except ProtocolError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        finally:
            hub.release(table.id)
        return JSONResponse({"seats": message["seats"]})

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch_table(table_id: str, request: Request) -> JSONResponse:
        """After the match: the next one at this table, same game and seats; every person seated
        hears ``{"t": "rematch", "table": id}``. ``{"seat", "token"}`` -> ``{"table"}``."""
        fields = frozenset({"seat", "token"})
        body = await _object_body(request, fields, fields)
        if isinstance(body, JSONResponse):
            return body
        if type(body["seat"]) is not int or not isinstance(body["token"], str):
            return _refuse(400, 'the body is {"seat": number, "token": text}')
        seat, token = body["seat"], body["token"]
        table = await opened_or_refused(
            table_id, lambda seats: token_fits(seats, seat, token), "wrong token for this seat"
        )
        if isinstance(table, JSONResponse):
            return table
        try:
            async with hub.lock(table.id):
                next_id = table.rematch()
                await hub.broadcast(table.id, {"t": "rematch", "table": next_id})
        except ProtocolError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        finally:
            hub.release(table.id)
        return JSONResponse({"table": next_id}, status_code=201)

    @app.websocket("/ws/{table_id}/{seat_text}")
    async def seat_socket(ws: WebSocket, table_id: str, seat_text: str) -> None:
        if not same_site(ws.headers.get("origin"), ws.headers.get("host"), other_sites):
            await ws.close(code=4403)  # (before accepting: the upgrade is answered 403)
            return
        await ws.accept()
        seat = _seat_number(seat_text)
        try:
            first = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
        except TimeoutError:
            await ws.close(code=4408)
            return
        if first is None:
            return
        table = None
        try:
            hello = parse_incoming(first)
            if not isinstance(hello, Hello):
                raise ProtocolError("say hello with the seat's token first", "auth")
            token = hello.token
            table = await opened(
                table_id, lambda seats: token_fits(seats, seat, token), "wrong token for this seat"
            )
        except ProtocolError as exc:
            with contextlib.suppress(Exception):  # (not joined: nobody else waits for this)
                await asyncio.wait_for(ws.send_json(error_message(exc)), SEND_TIMEOUT)
                code = 4404 if exc.code == "unknown_table" else 4401
                await asyncio.wait_for(ws.close(code=code), SEND_TIMEOUT)
            return
        assert table is not None
        note_opened(store, table.id, opened_at)
        joined = False
        try:  # (from the join on, whatever ends this socket, even a cancelled hello, leaves)
            async with hub.lock(table.id):
                if table.take_back(seat):  # a computer played for them while they were away
                    await hub.broadcast(table.id, table.seats_message())
                hub.join(table.id, seat, ws)
                table.came(seat)
                joined = True
                if hello.pace is not None:
                    hub.paces[ws] = hello.pace  # before the computer's first move after this join
                # (how long a person's seat is kept after their page closed: see mayGive)
                welcome = {**table.welcome(seat), "give_after": limits.give_after}
                ok = await hub.send_to(ws, welcome)
                opening = await asyncio.to_thread(table.view_message, seat, with_hand_log=True)
                ok = ok and await hub.send_to(ws, opening)
            if not ok:
                return
            await hub.presence(table)
            async with hub.lock(table.id):
                hub.wake(table)
            while True:
                text = await hub.receive(ws)
                if text is None:
                    break
                await _handle(table, seat, ws, text)
        finally:
            if asking is not None:
                asking.forget(ws)
            if joined:
                hub.leave(table.id, seat, ws)
                if seat not in hub.seats_of(table.id):  # (not replaced by a newer socket)
                    table.left(seat)
                if hub.seats_of(table.id):  # still in memory: tell the others this seat left
                    await hub.presence(table)
                    hub.release(table.id)  # (the others may have left while it was sent)

    async def _handle(table: Table, seat: int, ws: WebSocket, text: str | bytes) -> None:
        try:
            message = parse_incoming(text)
            if asking is not None and isinstance(message, ASKS):
                wait = asking.spend(ws, time.monotonic())
                if wait:
                    raise ProtocolError(
                        f"too many questions at once: try again in {math.ceil(wait)} s", "too_fast"
                    )
            if isinstance(message, ReviewRequest):
                await hub.review(table, seat, ws, message.hand)
                return
            if isinstance(message, PaceRequest):
                hub.paces[ws] = message.pace  # from the next computer move on; no answer
                return
            if isinstance(message, Reading):
                # The others' pages say who is still reading the score; no answer.
                before = ws in hub.reading
                if message.on:
                    hub.reading.add(ws)
                else:
                    hub.reading.discard(ws)
                if before != message.on:
                    await hub.presence(table, merge=True)
                return
            # The engine's work (a Crazy Rummy hand can grow large, and its legal lay-downs are
            # solved for every view) runs in a worker thread under the table's lock, so that a
            # slow move at one table never holds up the others.
            async with hub.lock(table.id):
                if isinstance(message, ActionIntent):
                    messages = await asyncio.to_thread(table.act, seat, message.action, message.seq)
                    await hub.send(table.id, messages)
                elif isinstance(message, NextHand):
                    messages = await asyncio.to_thread(table.next_hand, seat, message.seq)
                    await hub.send(table.id, messages)
                elif isinstance(message, BestLayoffs):
                    messages = await asyncio.to_thread(table.best_layoffs, seat, message.seq)
                    await hub.send(table.id, messages)
                elif isinstance(message, UndoRequest):
                    messages = await asyncio.to_thread(table.undo, seat, message.seq)
                    await hub.send(table.id, messages)
                elif isinstance(message, Back):
                    await hub.send(table.id, await asyncio.to_thread(table.back, seat))
                elif isinstance(message, HintRequest):
                    work = table.hint_task(seat)
                    await hub.send_to(ws, await hub.thinker.run(work, heavy=work.heavy))
                elif isinstance(message, ViewRequest):
                    await hub.send_to(ws, await asyncio.to_thread(table.view_message, seat))
                elif isinstance(message, CheckDown):
                    answer = await asyncio.to_thread(table.check_down, seat, message.cards)
                    await hub.send_to(ws, answer)
                elif isinstance(message, Say):
                    await hub.say(table, seat, message.phrase)
                else:
                    raise ProtocolError("you have already said hello")
                hub.wake(table)
        except ProtocolError as exc:
            await hub.send_to(ws, error_message(exc))
        except Exception:
            log.exception("failed to handle a message at table %s", table.id)
            await hub.send_to(
                ws, {"t": "error", "code": "server", "message": "the server could not do that"}
            )

    static = web_dir if web_dir is not None else WEB_DIR
    app.mount("/", StaticFiles(directory=static, html=True), name="web")
    app.add_middleware(PageCompression)
    return app


ENVIRONMENT = (
    "RUMMYKIT_DB",
    "RUMMYKIT_DELAY",
    "RUMMYKIT_SHARED",
    "RUMMYKIT_TABLES_PER_MINUTE",
    "RUMMYKIT_ORIGINS",
    "RUMMYKIT_GIVE_SEAT_AFTER",
)
"""The settings :func:`app_from_environment` reads (``rummykit serve --workers`` sets them)."""


def app_from_environment() -> FastAPI:
    """The application of one of several server processes (``rummykit serve --workers N``):
    the database in ``RUMMYKIT_DB``, the computer's pause in ``RUMMYKIT_DELAY``, and
    ``RUMMYKIT_SHARED`` set to 1 when other processes share the database, and the new tables a
    minute from one address in ``RUMMYKIT_TABLES_PER_MINUTE`` (see :meth:`Limits.tables_per_minute`;
    each process keeps its own count), the seconds before a person's seat may be given to the
    computer in ``RUMMYKIT_GIVE_SEAT_AFTER``, and other sites allowed to open sockets in
    ``RUMMYKIT_ORIGINS`` (separated by spaces)."""
    db = os.environ["RUMMYKIT_DB"]
    delay = float(os.environ.get("RUMMYKIT_DELAY", "0.8"))
    shared = os.environ.get("RUMMYKIT_SHARED") == "1"
    limits = Limits.tables_per_minute(
        int(os.environ.get("RUMMYKIT_TABLES_PER_MINUTE", TABLES_PER_MINUTE)),
        float(os.environ.get("RUMMYKIT_GIVE_SEAT_AFTER", GIVE_AFTER)),
    )
    origins = os.environ.get("RUMMYKIT_ORIGINS", "").split()
    return create_app(
        db, delay=delay, start_thinkers=True, shared=shared or None, limits=limits, origins=origins
    )
