"""The WebSocket of a seat (``/ws/{table}/{seat}``): its hello with the seat's token, the
welcome and first view, then each message the page sends, handled under the table's lock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time

from fastapi import FastAPI, WebSocket

from rummykit.server.hub import SEND_TIMEOUT, Hub, next_message
from rummykit.server.limits import Buckets, Limits
from rummykit.server.protocol import (
    ActionIntent,
    Back,
    BestLayoffs,
    CheckDown,
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
    parse_incoming,
)
from rummykit.server.pruning import note_opened
from rummykit.server.seats import seat_number, token_fits
from rummykit.server.security import same_site
from rummykit.server.tables import Table

__all__ = ["ASKS", "HELLO_TIMEOUT", "add_seat_socket"]

HELLO_TIMEOUT = 5.0
"""Seconds a new socket has to say hello with its token."""

ASKS = (HintRequest, ViewRequest, CheckDown, ReviewRequest)
"""The questions a socket asks (they change nothing): under a budget (:attr:`Limits.asks`)."""

log = logging.getLogger("rummykit.server")


def add_seat_socket(
    app: FastAPI,
    hub: Hub,
    limits: Limits,
    other_sites: frozenset[str],
    opened_at: dict[str, float],
) -> None:
    """The seats' socket route on ``app``: sockets allowed from the server's own page and
    ``other_sites``; ``opened_at`` notes when each table was last opened (see
    :func:`note_opened`)."""
    store = hub.store
    asking = None if limits.asks is None else Buckets[WebSocket](limits.asks)

    @app.websocket("/ws/{table_id}/{seat_text}")
    async def seat_socket(ws: WebSocket, table_id: str, seat_text: str) -> None:
        if not same_site(ws.headers.get("origin"), ws.headers.get("host"), other_sites):
            await ws.close(code=4403)  # (before accepting: the upgrade is answered 403)
            return
        await ws.accept()
        seat = seat_number(seat_text)
        try:
            first = await asyncio.wait_for(next_message(ws), HELLO_TIMEOUT)
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
            table = await hub.opened(
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
