"""Fixtures for the tests that need PostgreSQL: one real server per test session, started on
first use (``postgres_server``), a fresh database per test (``pg_address``), and
``store_address``, a database of each kind (SQLite file, PostgreSQL), for the tests that must hold
for both. Without PostgreSQL these tests are skipped, and fail under ``CI`` (``.ci/run`` installs
it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_server import PostgresServer, pg_bin

MISSING = "PostgreSQL is not installed: apt-get install postgresql"
HAPROXY_MISSING = "HAProxy is not installed: apt-get install haproxy"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say loudly how many tests were skipped for want of PostgreSQL or HAProxy."""
    for missing in (MISSING, HAPROXY_MISSING):
        skipped = [
            r for r in terminalreporter.stats.get("skipped", []) if missing in str(r.longrepr)
        ]
        if skipped:
            terminalreporter.write_sep("!", f"{len(skipped)} TESTS WERE SKIPPED", red=True)
            terminalreporter.write_line(missing, red=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    if pg_bin() is None:
        if os.environ.get("CI"):  # pragma: no cover - .ci/run installs it
            pytest.fail(f"CI: {MISSING}")
        pytest.skip(MISSING)
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_address(postgres_server: PostgresServer) -> str:
    """The address of a new, empty PostgreSQL database."""
    return postgres_server.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_address(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each kind: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.database()
