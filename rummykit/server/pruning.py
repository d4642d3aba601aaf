"""Old tables go: the ones nobody has played or opened for long are deleted by the server.

A seat's hello notes its table as opened (:func:`note_opened`, at most once an hour per table and
process); every hour :func:`prune_forever` deletes a finished match untouched for
:data:`FINISHED_DAYS` and one still going untouched for :data:`UNFINISHED_DAYS`
(:meth:`Store.prune <rummykit.server.store.Store.prune>`).
"""

from __future__ import annotations

import asyncio
import logging
import time

from rummykit.server.store import Store

__all__ = ["FINISHED_DAYS", "PRUNE_EVERY", "UNFINISHED_DAYS", "note_opened", "prune_forever"]

log = logging.getLogger("rummykit.server")

PRUNE_EVERY = 3600.0
"""Seconds between two prunings of old tables."""

FINISHED_DAYS = 3.0
"""A finished match nobody has opened for this many days is deleted (the page keeps its seat as
long)."""

UNFINISHED_DAYS = 30.0
"""A match still going that nobody has played or opened for this many days is deleted."""

PRUNE_BATCH = 500
"""Tables deleted in one transaction at most, so that pruning never holds the others up."""

OPENED_EVERY = 3600.0
"""A table's ``opened`` time is written at most this often (a write per hello would cost)."""


def note_opened(store: Store, table_id: str, opened_at: dict[str, float]) -> None:
    """Note in the store, in the background and at most once every :data:`OPENED_EVERY`
    seconds per table, that a seat's page opened the table (so it is not pruned)."""
    now = time.monotonic()
    if now - opened_at.get(table_id, -OPENED_EVERY) < OPENED_EVERY:
        return
    opened_at[table_id] = now

    def write() -> None:
        try:
            store.opened(table_id)
        except Exception:  # (noted again at the next hello)
            opened_at.pop(table_id, None)
            log.warning("could not note that table %s was opened", table_id)

    asyncio.get_running_loop().run_in_executor(None, write)


async def prune_forever(store: Store, every: float, opened_at: dict[str, float]) -> None:
    """Delete the tables nobody has opened for long, every ``every`` seconds (the first time
    soon after the start)."""
    await asyncio.sleep(min(every, 60.0))
    while True:
        try:
            while True:
                gone = await asyncio.to_thread(
                    store.prune,
                    finished_days=FINISHED_DAYS,
                    unfinished_days=UNFINISHED_DAYS,
                    limit=PRUNE_BATCH,
                )
                if gone:
                    log.info("pruned %d tables nobody had opened for long", len(gone))
                if len(gone) < PRUNE_BATCH:
                    break
        except Exception:
            log.exception("pruning old tables failed (tried again later)")
        now = time.monotonic()
        for table_id in [t for t, at in opened_at.items() if now - at >= OPENED_EVERY]:
            del opened_at[table_id]
        await asyncio.sleep(every)
