"""Each socket's own queue of messages on their way, so that a page that stops reading holds up
nobody else.

A table's messages are made under its lock. Sending them there would make everyone at the table
wait for its slowest socket: a phone asleep with its connection full makes each send wait for the
time limit. So a message is only put in its socket's outbox (no waiting), and a task of the
socket's own sends the messages in order. A socket that falls behind (its outbox full, or one
message taking longer than the time limit to go out) is closed with :data:`FELL_BEHIND`; its page
reconnects by itself and asks for the view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Coroutine
from typing import Any, Protocol, TypeVar

__all__ = ["FELL_BEHIND", "LIMIT", "LIMIT_CHARS", "TIMEOUT", "Outbox", "Socket"]

T = TypeVar("T")

LIMIT = 64
"""Messages at most waiting in an outbox: a page this far behind is closed (it reconnects)."""

LIMIT_CHARS = 1 << 20
"""Characters at most waiting in an outbox (a view is a few thousand)."""

TIMEOUT = 2.0
"""Seconds one message (or the close) may take to go out; a page slower than that is closed."""

FELL_BEHIND = 1011
"""Close code for a socket that fell behind."""


class Socket(Protocol):
    """What an outbox needs of a socket (Starlette's ``WebSocket`` has it)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Outbox:
    """The messages waiting to go out on one socket, and the task that sends them in order.

    :meth:`put` never waits: it starts the task if none runs, and the task ends once the outbox
    is empty (an idle socket holds no task). Once the outbox is closed (:meth:`close`, or the
    socket fell behind) the task closes the socket, giving up after ``timeout``; :meth:`stop`
    drops everything at once (the socket is gone).
    """

    def __init__(
        self,
        ws: Socket,
        *,
        limit: int = LIMIT,
        limit_chars: int = LIMIT_CHARS,
        timeout: float = TIMEOUT,
    ) -> None:
        self.ws = ws
        self.limit = limit
        self.limit_chars = limit_chars
        self.timeout = timeout
        self.code: int | None = None
        """The code the socket is closed with, once the outbox takes no more messages."""
        self.task: asyncio.Task[None] | None = None
        """The task sending the messages, while there are some (or the close)."""
        loop = asyncio.get_running_loop()
        self.closed: asyncio.Future[None] = loop.create_future()
        """Done once the socket is closed, or given up."""
        self._closing: asyncio.Future[None] = loop.create_future()  # cuts a send short
        self._queue: deque[str] = deque()
        self._chars = 0
        self._reader: asyncio.Task[Any] | None = None  # the task in :meth:`read`, if any
        self._cut = False  # True once the close cancelled that read

    def __len__(self) -> int:
        return len(self._queue)

    def put(self, message: dict[str, Any]) -> bool:
        """Queue ``message`` (encoded now: later changes to it are not sent). False if the outbox
        is closed, or this message would make it too long (then it is closed: the page fell
        behind)."""
        if self.code is not None:
            return False
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        if self._queue and (
            len(self._queue) >= self.limit or self._chars + len(text) > self.limit_chars
        ):
            self.close(FELL_BEHIND)
            return False
        self._queue.append(text)
        self._chars += len(text)
        self._start()
        return True

    def close(self, code: int) -> None:
        """Take no more messages, drop those waiting, and close the socket with ``code`` (a
        message going out now is given up)."""
        if self.code is not None:
            return
        self.code = code
        self._queue.clear()
        self._chars = 0
        self._closing.set_result(None)
        self._cut_read()
        self._start()

    def stop(self) -> None:
        """The socket is gone: drop everything and end the task now."""
        if self.code is None:
            self.code = 1000
            self._queue.clear()
            self._chars = 0
            self._closing.set_result(None)
        self._cut_read()
        if self.task is not None:
            self.task.cancel()
        if not self.closed.done():
            self.closed.set_result(None)

    async def read(self, receiving: Coroutine[Any, Any, T]) -> T | None:
        """``receiving``'s result, or None once the outbox is closed: then only after the
        socket is (a page that fell behind may still be sending: it is not listened to any
        more, even if its messages are there already).

        The read runs in the caller's own task, with no task or future of its own (this is on
        every message a page sends). Closing the outbox cuts it short by cancelling that
        task's wait, and only that: a cancel from elsewhere goes on as usual."""
        reader = asyncio.current_task()
        if self.code is None and reader is not None:
            self._reader = reader
            try:
                result = await receiving
            except asyncio.CancelledError:
                if not self._cut or reader.uncancel() > 0:
                    raise
            else:
                if self._cut:  # (the read swallowed the cancel)
                    reader.uncancel()
                if self.code is None:
                    return result
            finally:
                self._reader = None
                self._cut = False
        else:
            receiving.close()
        await asyncio.shield(self.closed)
        return None

    def _cut_read(self) -> None:
        if self._reader is not None and not self._cut:
            self._cut = True
            self._reader.cancel()

    def _start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while self._queue and self.code is None:
            text = self._queue.popleft()
            self._chars -= len(text)
            if not await self._send(text):
                self.close(FELL_BEHIND)
        if self.code is not None and not self.closed.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(self.code), self.timeout)
            if not self.closed.done():
                self.closed.set_result(None)

    async def _send(self, text: str) -> bool:
        """Send one message: False if it failed, took longer than the limit, or the outbox was
        closed meanwhile."""
        sending = asyncio.ensure_future(self.ws.send_text(text))
        try:
            await asyncio.wait(
                (sending, self._closing), timeout=self.timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            if not sending.done():
                sending.cancel()
        return sending.done() and not sending.cancelled() and sending.exception() is None
