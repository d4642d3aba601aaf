"""Group commit: many writes to one SQLite connection, committed together by a thread of their own.

Every accepted action is committed before it is acknowledged, and a commit in
``synchronous=FULL`` waits for the disk. One commit per action makes the disk the ceiling of the
whole server. Here each write waits in a queue; one thread takes every write waiting, runs each
inside a savepoint of one transaction (a write that fails is rolled back alone, and only its caller
hears of it), commits once, and only then answers each caller. So a write still returns only once
it is on disk, and a busy server pays one wait for the disk per batch instead of per action.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol, TypeVar

__all__ = ["GroupCommit"]

T = TypeVar("T")


class Executes(Protocol):
    """A database connection in autocommit mode (SQLite's or psycopg's)."""

    def execute(self, sql: str, params: Any = ...) -> Any: ...


Write = Callable[[Any], Any]


class GroupCommit:
    """Runs writes on ``db`` in a thread of its own, up to ``max_batch`` to a transaction.

    ``db`` must be in autocommit mode (SQLite's ``isolation_level=None``) and used by nothing else
    while this runs; ``begin`` is how its transactions begin. :meth:`run` may be called from any
    thread but this one's.
    """

    def __init__(
        self, db: Executes, *, begin: str = "BEGIN IMMEDIATE", max_batch: int = 256
    ) -> None:
        self._db = db
        self._begin = begin
        self._max_batch = max_batch
        self._queue: queue.SimpleQueue[tuple[Write, Future[Any]] | None] = queue.SimpleQueue()
        self._closed = False
        self._close_lock = threading.Lock()
        self.batches = 0
        """Transactions committed so far (a figure for tests and benchmarks)."""
        self.writes = 0
        """Writes committed so far, in those transactions."""
        self._thread = threading.Thread(target=self._loop, name="rummykit-commit", daemon=True)
        self._thread.start()

    def run(self, write: Callable[[Any], T]) -> T:
        """Run ``write(db)`` in the next transaction and return its result once committed.

        Raises what ``write`` raised (nothing of it is kept), or the commit's error (nothing of
        the batch is kept), or RuntimeError once closed.
        """
        future: Future[T] = Future()
        with self._close_lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._queue.put((write, future))
        return future.result()

    def close(self) -> None:
        """Commit what is waiting, then stop the thread."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(None)
        self._thread.join()

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self._max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Write, Future[Any]]]) -> None:
        db = self._db
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            db.execute(self._begin)
            for write, future in batch:
                db.execute("SAVEPOINT one_write")
                try:
                    result = write(db)
                except Exception as exc:  # this write only: undone, told to its caller
                    db.execute("ROLLBACK TO one_write")
                    db.execute("RELEASE one_write")
                    outcomes.append((future, None, exc))
                else:
                    db.execute("RELEASE one_write")
                    outcomes.append((future, result, None))
            db.execute("COMMIT")
        except Exception as exc:  # the transaction failed: nothing of the batch is kept
            with contextlib.suppress(Exception):  # (none may be open: BEGIN failed)
                db.execute("ROLLBACK")
            for _, future in batch:
                future.set_exception(exc)
            return
        self.batches += 1
        self.writes += len(outcomes)
        for future, result, error in outcomes:
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)
