"""Group commit: writes that wait together share one transaction, each keeps its own outcome."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.group_commit import GroupCommit


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "g.db"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(
            "CREATE TABLE parent (id INTEGER PRIMARY KEY);"
            "CREATE TABLE rows (n INTEGER PRIMARY KEY,"
            " parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);"
        )
    return path


@pytest.fixture
def commits(db_path: Path) -> Iterator[GroupCommit]:
    db = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA foreign_keys=ON")
    group = GroupCommit(db)
    yield group
    group.close()
    db.close()


def stored(db_path: Path) -> list[int]:
    """The rows as another connection sees them (committed only)."""
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        return [n for (n,) in db.execute("SELECT n FROM rows ORDER BY n")]


def insert(n: int) -> Callable[[sqlite3.Connection], int]:
    def write(db: sqlite3.Connection) -> int:
        db.execute("INSERT INTO rows (n) VALUES (?)", (n,))
        return n

    return write


def held_batch(
    commits: GroupCommit, writes: list[Callable[[sqlite3.Connection], Any]]
) -> list[Any]:
    """Run ``writes`` from threads of their own while the commit thread is held on a first write,
    so that all of them wait in the queue and go in one batch; each one's result or error."""
    release = threading.Event()
    started = threading.Event()

    def hold(db: sqlite3.Connection) -> None:
        started.set()
        assert release.wait(10)

    holder = threading.Thread(target=commits.run, args=(hold,))
    holder.start()
    assert started.wait(10)
    outcomes: list[Any] = [None] * len(writes)

    def call(i: int) -> None:
        try:
            outcomes[i] = commits.run(writes[i])
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(writes))]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while commits._queue.qsize() < len(writes):  # every write waits behind the held one
        assert time.monotonic() < deadline
        time.sleep(0.005)
    release.set()
    for t in [holder, *threads]:
        t.join(10)
    return outcomes


def test_writes_that_wait_together_share_one_commit(commits: GroupCommit, db_path: Path) -> None:
    outcomes = held_batch(commits, [insert(n) for n in range(10)])
    assert outcomes == list(range(10))
    assert stored(db_path) == list(range(10))
    assert (commits.batches, commits.writes) == (2, 11)  # the held write's batch, then the ten


def test_a_write_returns_only_once_another_connection_sees_it(
    commits: GroupCommit, db_path: Path
) -> None:
    for n in range(5):
        assert commits.run(insert(n)) == n
        assert stored(db_path)[-1] == n


def test_a_failing_write_is_undone_alone_and_its_caller_hears_why(
    commits: GroupCommit, db_path: Path
) -> None:
    def half_then_fail(db: sqlite3.Connection) -> None:
        db.execute("INSERT INTO rows (n) VALUES (100)")
        raise ValueError("not this one")

    outcomes = held_batch(commits, [insert(1), half_then_fail, insert(2), insert(1)])
    assert outcomes[0] == 1 and outcomes[2] == 2
    assert isinstance(outcomes[1], ValueError) and str(outcomes[1]) == "not this one"
    assert isinstance(outcomes[3], sqlite3.IntegrityError)  # the same key twice
    assert stored(db_path) == [1, 2]


def test_a_failed_commit_keeps_nothing_of_its_batch_and_tells_every_caller(
    commits: GroupCommit, db_path: Path
) -> None:
    def orphan(db: sqlite3.Connection) -> None:  # its foreign key is checked at COMMIT only
        db.execute("INSERT INTO rows (n, parent) VALUES (50, 999)")

    outcomes = held_batch(commits, [insert(1), orphan, insert(2)])
    assert all(isinstance(o, sqlite3.IntegrityError) for o in outcomes)
    assert stored(db_path) == []
    assert commits.run(insert(3)) == 3  # and the next batch commits as usual
    assert stored(db_path) == [3]


def test_close_commits_what_waits_then_refuses_more(commits: GroupCommit, db_path: Path) -> None:
    commits.run(insert(1))
    commits.close()
    commits.close()  # twice is harmless
    assert stored(db_path) == [1]
    with pytest.raises(RuntimeError, match="closed"):
        commits.run(insert(2))
