"""The FastAPI application: the page, a small JSON API, and one WebSocket per seat.

The async edge of rummykit. :func:`create_app` builds the application from its parts:
the live tables (:mod:`~rummykit.server.hub`), the JSON API (:mod:`~rummykit.server.routes`), a
seat's socket (:mod:`~rummykit.server.seat_socket`) and the page (:mod:`~rummykit.server.page`);
:func:`app_from_environment` builds it for one of several server processes.

Routes: ``GET /`` (the page, static files from ``rummykit/web``), ``GET /api/games``,
``POST /api/tables``, ``GET /api/tables/{id}``, ``WS /ws/{table}/{seat}``. The protocol is in
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import Response

from rummykit import __version__
from rummykit.server.hub import Hub
from rummykit.server.limits import GIVE_AFTER, TABLES_PER_MINUTE, Limits
from rummykit.server.page import serve_page
from rummykit.server.pruning import PRUNE_EVERY, prune_forever
from rummykit.server.routes import add_routes
from rummykit.server.seat_socket import add_seat_socket
from rummykit.server.security import CSP, PERMISSIONS, normal_origin
from rummykit.server.store import Store
from rummykit.server.tables import TableManager
from rummykit.server.thinking import Thinker, default_processes, end_with_parent

__all__ = ["app_from_environment", "create_app"]

THREADS = 64
"""Threads for the engine's work and the store's reads and writes (see ``lifespan``)."""


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

    add_routes(app, hub, limits)
    add_seat_socket(app, hub, limits, other_sites, opened_at)
    serve_page(app, web_dir)
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
    end_with_parent()  # (its supervisor, killed outright, cannot stop it)
    return create_app(
        db, delay=delay, start_thinkers=True, shared=shared or None, limits=limits, origins=origins
    )
