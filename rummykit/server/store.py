"""SQLite storage of tables as game records, appended action by action.

Every table is its seats and a match record (``rummykit.record``): the game, its options, the match
seed, and per hand its dealer, seed and actions. Each accepted action is one row, committed before
the server acknowledges it, so a server killed at any moment loses nothing it has answered; on
start, every unfinished table is rebuilt by replaying its record with
:func:`rummykit.record.load_record`, which validates every action again.

The database runs in WAL mode with ``synchronous=FULL``: a commit returns once the log is on the
disk, so an acknowledged action survives the process being killed and the machine losing power.
Writes that come together share one commit (:mod:`rummykit.server.group_commit`). The standard
library's ``sqlite3`` is all it needs.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rummykit.server.group_commit import GroupCommit

__all__ = ["SCHEMA", "Store", "StoredTable"]

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    variant TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    turn_time INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    stand_in INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, hand, number)
);
CREATE TABLE IF NOT EXISTS undos (
    table_id TEXT NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS undos_by_table ON undos(table_id);
CREATE TABLE IF NOT EXISTS rematches (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    next_id TEXT NOT NULL REFERENCES tables(id)
);
"""
"""The tables: ``tables`` (one row a table; ``turn_time``: the seconds a person has for a turn at
a table with friends, 0 for no limit), ``hands`` (dealer and seed of each hand),
``actions`` (one row per accepted action, in order; ``stand_in`` marks a move the computer made
in a person's seat while they were away), ``undos`` (each move a person took back, playing
alone against the computer, in the order taken back; its row in ``actions`` is gone) and
``rematches`` (the table that follows a finished one, with the same seats)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: its seats and its match record (ready for ``load_record``)."""

    id: str
    created: float
    variant: str
    """The game name the table was created with (e.g. ``rummy-classic``)."""
    seats: list[dict[str, Any]]
    finished: bool
    record: dict[str, Any]
    stand_in_moves: frozenset[tuple[int, int]] = frozenset()
    """(hand, action number) of the moves the computer made in a person's seat."""
    undos: tuple[int, ...] = ()
    """The hand (from 0) of each move taken back, in order."""
    turn_time: int = 0
    """The seconds a person has for a turn (0: no limit)."""


class Store:
    """One SQLite database of tables, safe to call from any thread.

    Writes are committed by a thread of their own, many to a transaction when they come together
    (:class:`~rummykit.server.group_commit.GroupCommit`); each write method returns once its
    write is on disk. Reads use a connection of their own (WAL lets them run beside a commit).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        memory = self.path == ":memory:"
        if not memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=10000")
        db.executescript(SCHEMA)
        columns = {row[1] for row in db.execute("PRAGMA table_info(actions)")}
        if "stand_in" not in columns:  # a database written before the column existed
            db.execute("ALTER TABLE actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0")
        columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
        if "turn_time" not in columns:  # likewise
            db.execute("ALTER TABLE tables ADD COLUMN turn_time INTEGER NOT NULL DEFAULT 0")
        self._writes = GroupCommit(db)
        self._writer = db
        # A database in memory exists on its one connection: reads go through the commit thread.
        self._reader: sqlite3.Connection | None = None
        if not memory:
            self._reader = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._reader.execute("PRAGMA busy_timeout=10000")
        self._read_lock = threading.Lock()

    @property
    def commits(self) -> tuple[int, int]:
        """Transactions committed since the store was opened, and the writes in them."""
        return self._writes.batches, self._writes.writes

    def close(self) -> None:
        """Commit what is waiting and close the database."""
        self._writes.close()
        with self._read_lock:
            if self._reader is not None:
                self._reader.close()
        self._writer.close()

    def _transaction(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``write`` in the next group commit; its result once it is on disk."""
        return self._writes.run(write)

    def _read(self, read: Callable[[sqlite3.Connection], T]) -> T:
        if self._reader is None:
            return self._writes.run(read)
        with self._read_lock:
            return read(self._reader)

    def create_table(
        self,
        table_id: str,
        *,
        variant: str,
        game: str,
        options: dict[str, Any],
        seats: Sequence[dict[str, Any]],
        seed: int,
        dealer: int,
        hand_seed: int,
        after: str | None = None,
        turn_time: int = 0,
    ) -> None:
        """Store a new table and its first hand, committed; ``after``: the finished table it is
        the rematch of (at most one rematch a table: a second raises sqlite3.IntegrityError);
        ``turn_time``: the seconds a person has for a turn (0: no limit)."""
        now = time.time()

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO tables"
                " (id, created, updated, variant, game, options, seats, seed, turn_time)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    now,
                    now,
                    variant,
                    game,
                    json.dumps(options),
                    json.dumps(seats),
                    seed,
                    turn_time,
                ),
            )
            if after is not None:
                db.execute(
                    "INSERT INTO rematches (table_id, next_id) VALUES (?, ?)", (after, table_id)
                )
            db.execute(
                "INSERT INTO hands (table_id, number, dealer, seed) VALUES (?, 0, ?, ?)",
                (table_id, dealer, hand_seed),
            )

        self._transaction(write)

    def append_action(
        self,
        table_id: str,
        hand: int,
        number: int,
        seat: int,
        action: str,
        *,
        finished: bool,
        stand_in: bool = False,
    ) -> None:
        """Append one accepted action (``number`` counts from 0 within the hand), committed;
        ``stand_in``: the computer made it in a person's seat."""

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO actions (table_id, hand, number, seat, action, stand_in)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, hand, number, seat, action, int(stand_in)),
            )
            db.execute(
                "UPDATE tables SET updated = ?, finished = ? WHERE id = ?",
                (time.time(), int(finished), table_id),
            )

        self._transaction(write)

    def undo_action(self, table_id: str, hand: int, number: int, seat: int, action: str) -> None:
        """Remove the last action of hand ``hand`` (it must be action ``number``, by ``seat``,
        ``action``), and note it was taken back; committed. Raises ValueError (nothing changed)
        if the stored last action is not that one."""

        def write(db: sqlite3.Connection) -> None:
            last = db.execute(
                "SELECT number, seat, action FROM actions WHERE table_id = ? AND hand = ?"
                " ORDER BY number DESC LIMIT 1",
                (table_id, hand),
            ).fetchone()
            if last is None or tuple(last) != (number, seat, action):
                raise ValueError(f"action {number} is not the last stored action of hand {hand}")
            db.execute(
                "DELETE FROM actions WHERE table_id = ? AND hand = ? AND number = ?",
                (table_id, hand, number),
            )
            now = time.time()
            db.execute(
                "INSERT INTO undos (table_id, hand, number, seat, action, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, hand, number, seat, action, now),
            )
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (now, table_id))

        self._transaction(write)

    def update_seats(self, table_id: str, seats: Sequence[dict[str, Any]]) -> None:
        """Replace the table's seats (a friend took an invited seat), committed."""

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE tables SET seats = ?, updated = ? WHERE id = ?",
                (json.dumps(seats), time.time(), table_id),
            )

        self._transaction(write)

    def add_hand(self, table_id: str, number: int, dealer: int, seed: int) -> None:
        """Record that hand ``number`` (from 0) was dealt by ``dealer`` from ``seed``, committed."""

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO hands (table_id, number, dealer, seed) VALUES (?, ?, ?, ?)",
                (table_id, number, dealer, seed),
            )
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id))

        self._transaction(write)

    def next_table(self, table_id: str) -> str | None:
        """The rematch of a finished table, if one was started."""
        row = self._read(
            lambda db: db.execute(
                "SELECT next_id FROM rematches WHERE table_id = ?", (table_id,)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    def table_ids(self, *, unfinished_only: bool = True) -> list[str]:
        """The ids of the stored tables (unfinished ones only, by default), oldest first."""
        where = " WHERE finished = 0" if unfinished_only else ""
        rows = self._read(
            lambda db: db.execute(f"SELECT id FROM tables{where} ORDER BY created").fetchall()
        )
        return [str(r[0]) for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        """The table with this id and its record, or None if there is none."""

        def read(db: sqlite3.Connection) -> tuple[Any, list[Any], list[Any], list[Any]] | None:
            row = db.execute(
                "SELECT id, created, variant, game, options, seats, seed, finished, turn_time"
                " FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            hands = db.execute(
                "SELECT number, dealer, seed FROM hands WHERE table_id = ? ORDER BY number",
                (table_id,),
            ).fetchall()
            actions = db.execute(
                "SELECT hand, number, seat, action, stand_in FROM actions WHERE table_id = ?"
                " ORDER BY hand, number",
                (table_id,),
            ).fetchall()
            undos = db.execute(
                "SELECT hand FROM undos WHERE table_id = ? ORDER BY rowid", (table_id,)
            ).fetchall()
            return row, hands, actions, undos

        # (one read transaction, so that the four queries see the same commit)
        found = self._read(lambda db: _in_read_transaction(db, read))
        if found is None:
            return None
        row, hands, actions, undos = found
        seats = json.loads(row[5])
        per_hand: dict[int, list[list[Any]]] = {int(h[0]): [] for h in hands}
        stand_in_moves = set()
        for hand, number, seat, action, stand_in in actions:
            per_hand.setdefault(int(hand), []).append([int(seat), str(action)])
            if stand_in:
                stand_in_moves.add((int(hand), int(number)))
        record = {
            "game": row[3],
            "options": json.loads(row[4]),
            "players": [f"seat {i}" for i in range(len(seats))],
            "seed": int(row[6]),
            "hands": [
                {"dealer": int(h[1]), "seed": int(h[2]), "actions": per_hand[int(h[0])]}
                for h in hands
            ],
        }
        return StoredTable(
            id=str(row[0]),
            created=float(row[1]),
            variant=str(row[2]),
            seats=seats,
            finished=bool(row[7]),
            record=record,
            stand_in_moves=frozenset(stand_in_moves),
            undos=tuple(int(u[0]) for u in undos),
            turn_time=int(row[8]),
        )


def _in_read_transaction(db: sqlite3.Connection, read: Callable[[sqlite3.Connection], T]) -> T:
    """``read(db)`` inside one transaction (a savepoint when one is open already)."""
    db.execute("SAVEPOINT one_read")
    try:
        return read(db)
    finally:
        db.execute("RELEASE one_read")
