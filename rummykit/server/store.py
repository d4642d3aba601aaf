"""Storage of tables as game records, appended action by action, in SQLite or PostgreSQL.

Every table is its seats and a match record (``rummykit.record``): the game, its options, the match
seed, and per hand its dealer, seed and actions. Each accepted action is one row, committed before
the server acknowledges it, so a server killed at any moment loses nothing it has answered; a
table is rebuilt by replaying its record with :func:`rummykit.record.load_record`, which
validates every action again.

A SQLite file (the default, with nothing but the standard library) runs in WAL mode with
``synchronous=FULL``: a commit returns once the log is on the disk, so an acknowledged action
survives the process being killed and the machine losing power. A PostgreSQL address
(``postgresql://...``) keeps the tables where several server processes and machines share them
(:mod:`rummykit.server.dialects`). Writes that come together share one commit
(:mod:`rummykit.server.group_commit`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rummykit.server.dialects import TABLES, Connection, dialect_for
from rummykit.server.group_commit import GroupCommit

__all__ = ["SCHEMA", "Store", "StoreConflict", "StoredTable", "TableSummary"]

T = TypeVar("T")

SCHEMA = TABLES.format(real="REAL", undo_key="")
"""The schema, as SQLite has it (see :data:`rummykit.server.dialects.TABLES`)."""


PRUNED = (
    "DELETE FROM actions WHERE table_id = ?",
    "DELETE FROM hands WHERE table_id = ?",
    "DELETE FROM undos WHERE table_id = ?",
    "DELETE FROM rematches WHERE table_id = ? OR next_id = ?",
    "DELETE FROM leases WHERE table_id = ?",
    "DELETE FROM tables WHERE id = ?",
)
"""How a pruned table goes: everything that refers to it first."""


@dataclass(frozen=True, slots=True)
class TableSummary:
    """A table as its row tells it, without its record: enough to answer who may open it, and
    the start screen's questions (:meth:`Store.summary`)."""

    id: str
    variant: str
    game: str
    seats: list[dict[str, Any]]
    finished: bool
    turn_time: int
    hands: int
    """The hands dealt so far (the one under way included)."""
    next: str | None
    """The rematch of a finished table, if one was started."""


class StoreConflict(Exception):
    """A write that broke a unique key or a reference (e.g. the same action number twice, a
    second rematch of a table, seats changed by someone else first): nothing of it was kept."""


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
    changes: int = 0
    """How many times the table was written after it was created (see :meth:`Store.changes_of`)."""
    seats_version: int = 0
    """How many times its seats were changed (see :meth:`Store.update_seats`)."""


class Store:
    """The tables in one database, safe to call from any thread.

    ``address``: a SQLite file (or ``:memory:``) or a ``postgresql://`` address. Writes are
    committed by a thread of their own, many to a transaction when they come together
    (:class:`~rummykit.server.group_commit.GroupCommit`); each write method returns once its
    write is on disk. Reads use a connection of their own.
    """

    def __init__(self, address: str | Path, *, shared: bool | None = None) -> None:
        self.dialect = dialect_for(address)
        self.shared = self.dialect.shared if shared is None else shared
        """True if other server processes may use this database at the same time (always so
        for PostgreSQL; a SQLite file when the server runs several processes)."""
        self.path = self.dialect.address
        """The file or address, as given."""
        self._writer = self.dialect.connect()
        begin = "BEGIN IMMEDIATE" if self.dialect.name == "sqlite" else "BEGIN"
        self._writes = GroupCommit(self._writer, begin=begin)
        self._reader: Connection | None = None
        if self.dialect.separate_reader():
            self._reader = self.dialect.connect()
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

    def _transaction(self, write: Callable[[Connection], T]) -> T:
        """Run ``write`` in the next group commit; its result once it is on disk. A broken key
        or reference raises :class:`StoreConflict`."""
        try:
            return self._writes.run(write)
        except self.dialect.conflict as exc:
            raise StoreConflict(str(exc)) from exc

    def _read(self, read: Callable[[Connection], T]) -> T:
        """``read(db)`` in one transaction (its queries see the same commit)."""
        if self._reader is None:  # a database in memory: inside the commit thread's transaction
            return self._writes.run(read)
        with self._read_lock:
            self._reader.execute(self.dialect.read_begin)
            try:
                return read(self._reader)
            finally:
                self._reader.execute("COMMIT")

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

        def write(db: Connection) -> None:
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
    ) -> int:
        """Append one accepted action (``number`` counts from 0 within the hand), committed;
        ``stand_in``: the computer made it in a person's seat. Returns the table's changes
        count after it; :class:`StoreConflict` if that action number is taken."""

        def write(db: Connection) -> int:
            db.execute(
                "INSERT INTO actions (table_id, hand, number, seat, action, stand_in)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, hand, number, seat, action, int(stand_in)),
            )
            return _changed(db, table_id, ", finished = ?", (int(finished),))

        return self._transaction(write)

    def undo_action(self, table_id: str, hand: int, number: int, seat: int, action: str) -> int:
        """Remove the last action of hand ``hand`` (it must be action ``number``, by ``seat``,
        ``action``), and note it was taken back; committed. Returns the table's changes count
        after it. Raises ValueError (nothing changed) if the stored last action is not that one."""

        def write(db: Connection) -> int:
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
            db.execute(
                "INSERT INTO undos (table_id, hand, number, seat, action, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, hand, number, seat, action, time.time()),
            )
            return _changed(db, table_id)

        return self._transaction(write)

    def update_seats(
        self, table_id: str, seats: Sequence[dict[str, Any]], version: int
    ) -> tuple[int, int]:
        """Replace the table's seats (a friend took an invited seat), committed, if they are
        still at ``version`` (the ``seats_version`` they were read at); returns the new version
        and the table's changes count. :class:`StoreConflict` (nothing changed) if someone else
        changed them first: of two processes giving the same invited seat, one wins."""

        def write(db: Connection) -> tuple[int, int]:
            row = db.execute(
                "UPDATE tables SET seats = ?, seats_version = seats_version + 1,"
                " changes = changes + 1, updated = ? WHERE id = ? AND seats_version = ?"
                " RETURNING seats_version, changes",
                (json.dumps(seats), time.time(), table_id, version),
            ).fetchone()
            if row is None:
                raise StoreConflict("the seats were changed meanwhile")
            return int(row[0]), int(row[1])

        return self._transaction(write)

    def add_hand(self, table_id: str, number: int, dealer: int, seed: int) -> int:
        """Record that hand ``number`` (from 0) was dealt by ``dealer`` from ``seed``, committed.
        Returns the table's changes count after it; :class:`StoreConflict` if it was dealt."""

        def write(db: Connection) -> int:
            db.execute(
                "INSERT INTO hands (table_id, number, dealer, seed) VALUES (?, ?, ?, ?)",
                (table_id, number, dealer, seed),
            )
            return _changed(db, table_id)

        return self._transaction(write)

    def changes_of(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The changes count of each of these tables (those that exist): a table another
        process wrote since one read it has a higher count than when it was read."""
        if not table_ids:
            return {}
        marks = ", ".join("?" for _ in table_ids)
        rows = self._read(
            lambda db: db.execute(
                f"SELECT id, changes FROM tables WHERE id IN ({marks})", tuple(table_ids)
            ).fetchall()
        )
        return {str(r[0]): int(r[1]) for r in rows}

    # ------------------------------------------------------------------------------ leases

    def take_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        """Make ``owner`` the process running the table's computers and clock for ``seconds``,
        unless another owner's lease has not expired; True if ``owner`` holds it now."""
        now = time.time()

        def write(db: Connection) -> bool:
            db.execute(
                "INSERT INTO leases (table_id, owner, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner,"
                " expires = excluded.expires"
                " WHERE leases.owner = excluded.owner OR leases.expires < ?",
                (table_id, owner, now + seconds, now),
            )
            row = db.execute("SELECT owner FROM leases WHERE table_id = ?", (table_id,)).fetchone()
            return row is not None and str(row[0]) == owner

        return self._transaction(write)

    def renew_leases(self, owner: str, table_ids: Sequence[str], seconds: float) -> set[str]:
        """Extend ``owner``'s leases of these tables by ``seconds`` from now; the tables whose
        lease it still held (the others were taken over after they expired)."""
        if not table_ids:
            return set()
        marks = ", ".join("?" for _ in table_ids)

        def write(db: Connection) -> set[str]:
            rows = db.execute(
                f"UPDATE leases SET expires = ? WHERE owner = ? AND table_id IN ({marks})"
                " RETURNING table_id",
                (time.time() + seconds, owner, *table_ids),
            ).fetchall()
            return {str(r[0]) for r in rows}

        return self._transaction(write)

    def drop_lease(self, table_id: str, owner: str) -> None:
        """Give up ``owner``'s lease of the table (if it holds it)."""

        def write(db: Connection) -> None:
            db.execute("DELETE FROM leases WHERE table_id = ? AND owner = ?", (table_id, owner))

        self._transaction(write)

    def opened(self, table_id: str, at: float | None = None) -> None:
        """Note that a seat's page opened the table at ``at`` (default: now), so it is in use
        (see :meth:`prune`)."""
        when = time.time() if at is None else at

        def write(db: Connection) -> None:
            db.execute("UPDATE tables SET opened = ? WHERE id = ?", (when, table_id))

        self._transaction(write)

    def prune(
        self,
        *,
        finished_days: float,
        unfinished_days: float,
        limit: int = 500,
        now: float | None = None,
    ) -> list[str]:
        """Delete up to ``limit`` tables nobody has played or opened for ``finished_days`` (a
        finished match) or ``unfinished_days`` (one still going) before ``now`` (default: the
        time now), with everything of theirs; returns their ids. Committed."""
        now = time.time() if now is None else now
        finished_before = now - finished_days * 86_400
        unfinished_before = now - unfinished_days * 86_400

        def write(db: Connection) -> list[str]:
            rows = db.execute(
                "SELECT id FROM tables WHERE (finished = 1 AND updated < ? AND opened < ?)"
                " OR (finished = 0 AND updated < ? AND opened < ?) ORDER BY updated LIMIT ?",
                (finished_before, finished_before, unfinished_before, unfinished_before, limit),
            ).fetchall()
            ids = [str(r[0]) for r in rows]
            for table_id in ids:
                for sql in PRUNED:
                    db.execute(sql, (table_id,) * sql.count("?"))
            return ids

        return self._transaction(write)

    def summary(self, table_id: str) -> TableSummary | None:
        """What is known of a table without replaying its record (see :class:`TableSummary`),
        or None if there is no such table: one row and a count, however long the match."""

        def read(db: Connection) -> tuple[Any, Any, Any] | None:
            row = db.execute(
                "SELECT id, variant, game, seats, finished, turn_time FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            hands = db.execute("SELECT COUNT(*) FROM hands WHERE table_id = ?", (table_id,))
            after = db.execute("SELECT next_id FROM rematches WHERE table_id = ?", (table_id,))
            return row, hands.fetchone(), after.fetchone()

        found = self._read(read)
        if found is None:
            return None
        row, hands, after = found
        return TableSummary(
            id=str(row[0]),
            variant=str(row[1]),
            game=str(row[2]),
            seats=json.loads(row[3]),
            finished=bool(row[4]),
            turn_time=int(row[5]),
            hands=int(hands[0]),
            next=None if after is None else str(after[0]),
        )

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

        def read(db: Connection) -> tuple[Any, list[Any], list[Any], list[Any]] | None:
            row = db.execute(
                "SELECT id, created, variant, game, options, seats, seed, finished, turn_time,"
                " changes, seats_version FROM tables WHERE id = ?",
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
                f"SELECT hand FROM undos WHERE table_id = ? ORDER BY {self.dialect.undo_order}",
                (table_id,),
            ).fetchall()
            return row, hands, actions, undos

        found = self._read(read)
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
            changes=int(row[9]),
            seats_version=int(row[10]),
        )


def _changed(db: Connection, table_id: str, also: str = "", params: tuple[Any, ...] = ()) -> int:
    """Count one more change of the table (and set ``also``); its changes count now."""
    row = db.execute(
        f"UPDATE tables SET updated = ?, changes = changes + 1{also} WHERE id = ?"
        " RETURNING changes",
        (time.time(), *params, table_id),
    ).fetchone()
    if row is None:
        raise StoreConflict(f"there is no table {table_id}")
    return int(row[0])
