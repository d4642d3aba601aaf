"""The two databases the store speaks: SQLite (embedded, the default) and PostgreSQL (shared).

A :class:`Dialect` opens connections and knows what differs between the two: the schema, how a
query marks its parameters, how a transaction begins, and which errors mean "that row exists
already". The store's queries are written once, with ``?`` for parameters.

PostgreSQL needs psycopg 3 (``pip install 'rummykit[postgres]'``); it is imported only when a
``postgresql://`` address is given.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Connection", "Dialect", "PostgresDialect", "SqliteDialect", "dialect_for"]

TABLES = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created {real} NOT NULL,
    updated {real} NOT NULL,
    variant TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed BIGINT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    turn_time INTEGER NOT NULL DEFAULT 0,
    seats_version INTEGER NOT NULL DEFAULT 0,
    changes INTEGER NOT NULL DEFAULT 0,
    opened DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    seed BIGINT NOT NULL,
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
    {undo_key}
    table_id TEXT NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at {real} NOT NULL
);
CREATE INDEX IF NOT EXISTS undos_by_table ON undos(table_id);
CREATE TABLE IF NOT EXISTS rematches (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    next_id TEXT NOT NULL REFERENCES tables(id)
);
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires {real} NOT NULL
);
"""
"""The tables: ``tables`` (one row a table; ``turn_time``: the seconds a person has for a turn at
a table with friends, 0 for no limit; ``seats_version``: counts the changes of ``seats``, so that
of two processes changing them at once one wins and the other is told; ``changes``: counts every
write after its creation, so that a process sees that another one wrote it; ``opened``: when a
seat's page last opened it, roughly, for pruning the tables nobody opens any more), ``hands`` (dealer and
seed of each hand), ``actions`` (one row per accepted action, in order; ``stand_in`` marks a move
the computer made in a person's seat while they were away), ``undos`` (each move a person took
back, playing alone against the computer, in the order taken back; its row in ``actions`` is
gone), ``rematches`` (the table that follows a finished one, with the same seats) and ``leases``
(which server process runs a table's computers and clock, until when)."""

COLUMNS_ADDED = {
    "actions": [("stand_in", "INTEGER NOT NULL DEFAULT 0")],
    "tables": [
        ("turn_time", "INTEGER NOT NULL DEFAULT 0"),
        ("seats_version", "INTEGER NOT NULL DEFAULT 0"),
        ("changes", "INTEGER NOT NULL DEFAULT 0"),
        ("opened", "DOUBLE PRECISION NOT NULL DEFAULT 0"),
    ],
}
"""Columns a database written by an older rummykit may lack, added when it is opened (each
spelled as both databases read it)."""


class Connection(Protocol):
    """What the store needs of a connection: ``execute`` returning a cursor."""

    def execute(self, sql: str, params: Any = ...) -> Any: ...

    def close(self) -> None: ...


class Dialect(Protocol):
    """One database: how to reach it and what it spells differently."""

    name: str
    address: str
    """The file or the address, as given."""
    shared: bool
    """True if other processes (or machines) may use the same database at once."""
    read_begin: str
    """How a read transaction begins (several queries seeing the same commit)."""
    undo_order: str
    """The column giving the order the undos were stored in."""
    conflict: tuple[type[Exception], ...]
    """The errors that mean a unique key or reference was broken."""

    def connect(self) -> Connection:
        """A new connection in autocommit mode with the schema in place."""

    def separate_reader(self) -> bool:
        """True if a second connection sees the first one's commits (not so for :memory:)."""


class _Converting:
    """A connection whose queries are written with ``?`` and sent with ``%s``."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self.raw.execute(sql.replace("?", "%s"), params)

    def close(self) -> None:
        self.raw.close()


@dataclass
class SqliteDialect:
    """A SQLite file, in WAL mode with ``synchronous=FULL``: a commit returns once the log is on
    the disk (it survives the process being killed and the machine losing power)."""

    address: str
    name: str = "sqlite"
    shared: bool = False
    read_begin: str = "BEGIN"
    undo_order: str = "rowid"
    conflict: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def connect(self) -> Connection:
        if self.address != ":memory:":
            Path(self.address).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.address, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=10000")
        db.executescript(TABLES.format(real="REAL", undo_key=""))
        for table, columns in COLUMNS_ADDED.items():
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for column, spec in columns:
                if column not in have:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {spec}")
        return db

    def separate_reader(self) -> bool:
        return self.address != ":memory:"


@dataclass
class PostgresDialect:
    """A PostgreSQL database (psycopg 3), shared by every server process that names it. A commit
    returns once PostgreSQL has it on disk (``synchronous_commit`` on, its default)."""

    address: str
    name: str = "postgresql"
    shared: bool = True
    read_begin: str = "BEGIN ISOLATION LEVEL REPEATABLE READ"
    undo_order: str = "seq"
    conflict: tuple[type[Exception], ...] = ()

    def __post_init__(self) -> None:
        psycopg = _psycopg()
        self.conflict = (psycopg.errors.IntegrityError,)

    def connect(self) -> Connection:
        psycopg = _psycopg()
        raw = psycopg.connect(self.address, autocommit=True)
        db = _Converting(raw)
        with _advisory_lock(raw):  # two processes starting at once: one creates the schema
            for statement in TABLES.format(
                real="DOUBLE PRECISION", undo_key="seq BIGSERIAL PRIMARY KEY,"
            ).split(";"):
                if statement.strip():
                    raw.execute(statement)
            for table, columns in COLUMNS_ADDED.items():
                for column, spec in columns:
                    raw.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {spec}")
        return db

    def separate_reader(self) -> bool:
        return True


@contextlib.contextmanager
def _advisory_lock(raw: Any) -> Iterator[None]:
    raw.execute("SELECT pg_advisory_lock(7215)")
    try:
        yield
    finally:
        raw.execute("SELECT pg_advisory_unlock(7215)")


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - the extra not installed
        raise RuntimeError(
            "a PostgreSQL database needs psycopg 3: pip install 'rummykit[postgres]'"
        ) from None
    return psycopg


def is_postgres(address: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) address."""
    return address.startswith(("postgresql://", "postgres://"))


def dialect_for(address: str | Path) -> SqliteDialect | PostgresDialect:
    """The dialect for a SQLite file (a path) or a PostgreSQL address."""
    text = str(address)
    return PostgresDialect(text) if is_postgres(text) else SqliteDialect(text)
