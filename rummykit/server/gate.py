"""The door of the server: how many connections one address and everyone may hold, and how long
a connection may take to say what it wants.

Without it, one client on the network could open a thousand connections that never finish their
request (slowloris) and use up the process's files, so that nobody else is answered. Here every
new connection is counted against its address (:data:`PER_ADDRESS`) and the whole server
(:data:`TOTAL`, within the open-file limit, raised to its hard limit at start: :func:`more_files`);
one over either limit is closed at once. A connection must finish its first request's headers
within :data:`HEADER_SECONDS`, or it is closed. The addresses of trusted proxies (uvicorn's
``forwarded_allow_ips``: 127.0.0.1 unless told otherwise) are not limited per address: a proxy
carries many people's connections (it limits them itself).
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import time
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "HEADER_SECONDS",
    "PER_ADDRESS",
    "Gate",
    "GuardedH11",
    "QuietAccept",
    "guard",
    "more_files",
]

PER_ADDRESS = 100
"""Connections one address may hold at once (a household has a few; a café behind one address, a
few dozen players' pages)."""

TOTAL = 20_000
"""Connections the process may hold at once, at most (and at most the open-file limit less 200)."""

HEADER_SECONDS = 5.0
"""Seconds a new connection has to finish its first request's headers."""


def more_files() -> int:
    """Raise the process's open-file limit to its hard limit; returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # (a container may refuse: keep what there is)
            pass
    return soft


class Gate:
    """The connections held, per address; a connection is let in only within both limits."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int | None = None) -> None:
        self.per_address = per_address
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        self.total = max(16, min(TOTAL, files - 200)) if total is None else total
        trusted = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")  # (as uvicorn reads it)
        self.exempt = frozenset(a.strip() for a in trusted.split(",") if a.strip())
        """Addresses not limited per address (trusted proxies)."""
        self.held: dict[str, set[asyncio.BaseTransport]] = {}
        self.count = 0
        self.refused = 0
        """Connections refused so far (a figure for tests and logs)."""

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection of ``address``; False (not counted) if it is over a limit."""
        held = self.held.setdefault(address, set())
        closed = {t for t in held if t.is_closing()}
        if closed:
            held -= closed
            self.count -= len(closed)
        if self.count >= self.total and self.sweep() >= self.total:
            self.refused += 1
            return False
        if len(held) >= self.per_address and address not in self.exempt:
            self.refused += 1
            return False
        held.add(transport)
        self.count += 1
        return True

    def sweep(self) -> int:
        """Forget every closed connection; the number held now."""
        for address, held in list(self.held.items()):
            held -= {t for t in held if t.is_closing()}
            if not held:
                del self.held[address]
        self.count = sum(len(h) for h in self.held.values())
        return self.count


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol behind the :class:`Gate`, with a deadline for the headers."""

    gate: ClassVar[Gate] = Gate()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else ""
        self.refused_here = not self.gate.admit(address, transport)
        if self.refused_here:
            transport.abort()
            return
        super().connection_made(transport)
        self.header_deadline = self.loop.call_later(HEADER_SECONDS, self._headers_late)

    def _headers_late(self) -> None:
        """No request yet on this connection: it never finished its headers."""
        if self.cycle is None and self.transport.get_protocol() is self:
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.refused_here:
            return
        self.header_deadline.cancel()
        super().connection_lost(exc)


class QuietAccept(logging.Filter):
    """Log asyncio's failed ``accept()`` once every ``every`` seconds, with how many there were
    (out of files, it is logged with a traceback per attempt: hundreds of megabytes)."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self.last = -every
        self.skipped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("socket.accept() out of system resource"):
            return True
        now = time.monotonic()
        if now - self.last < self.every:
            self.skipped += 1
            return False
        self.last = now
        record.msg = f"socket.accept() out of system resource ({self.skipped} more not logged)"
        record.args = ()
        record.exc_info = None
        self.skipped = 0
        return True


def guard(settings: dict[str, Any]) -> None:
    """Put the gate in ``settings`` for ``uvicorn.Config`` (its protocol; worker processes
    import it afresh, with the raised limit they inherit), raise the open-file limit first, and
    quiet the log of failed accepts."""
    more_files()
    GuardedH11.gate = Gate()
    settings["http"] = GuardedH11
    logging.getLogger("asyncio").addFilter(QuietAccept())
