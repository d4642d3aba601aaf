"""The live side of the tables: a socket per seat, a lock per table, computer-move tasks.

Each table has a lock (:class:`TableLock`): a person's intent and a computer seat's move are
handled one at a time, and the resulting views put in each socket's outbox before the lock is
released. The :class:`Hub` runs the computers' turns and the turn clocks, and with a shared store
holds leases on tables and catches up with what other server processes wrote.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import WebSocket

from rummykit.server.outbox import Outbox
from rummykit.server.protocol import PACES, ProtocolError
from rummykit.server.seats import Seat
from rummykit.server.store import TableSummary
from rummykit.server.tables import Table, TableManager
from rummykit.server.thinking import Thinker

__all__ = [
    "LEASE_SECONDS",
    "PRESENCE_INTERVAL",
    "REPLACED",
    "SAY_INTERVAL",
    "SEND_TIMEOUT",
    "WATCH_INTERVAL",
    "Hub",
    "TableLock",
    "next_message",
]

SEND_TIMEOUT = 2.0
"""Seconds a socket may take to accept one message; one that takes longer (it stopped reading)
is closed. Messages wait in each socket's own outbox (:class:`Outbox`), so a slow socket never
holds up its table."""

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

REPLACED = 4409
"""Close code for a seat's older socket when the same seat says hello on a new one."""

log = logging.getLogger("rummykit.server")

Messages = dict[int, dict[str, Any]]


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

    async def opened(
        self, table_id: str, allowed: Callable[[Sequence[Seat]], bool], refusal: str
    ) -> Table:
        """The table for a request whose secret ``allowed`` checks against its seats; raises
        ProtocolError ``unknown_table`` if there is none, ``auth`` (``refusal``) unless
        allowed. The secret is checked first, from memory or the store's row; only then is a
        table not in memory replayed (off the event loop), so that nobody without a secret can
        make the server replay a long record."""
        table = self.manager.tables.get(table_id)
        if table is None:
            summary = await self.summary(table_id)
            if summary is None:
                raise ProtocolError("there is no such table", "unknown_table")
            if not allowed([Seat.from_dict(s) for s in summary.seats]):
                raise ProtocolError(refusal, "auth")
            table = await self.table(table_id)
            if table is None:  # (its record no longer replays: logged)
                raise ProtocolError("there is no such table", "unknown_table")
        elif not allowed(table.seats):
            raise ProtocolError(refusal, "auth")
        return table

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
        return None if outbox is None else await outbox.read(next_message(ws))

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


async def next_message(ws: WebSocket) -> str | bytes | None:
    """The next message's text (or bytes), or None once the socket is closed."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""
