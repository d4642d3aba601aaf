"""Fixtures for the tests that need PostgreSQL: one real server per test session, started on
first use (``postgres_server``), a fresh database per test (``pg_address``), ``store_address``, a
database of each kind (SQLite file, PostgreSQL), for the tests that must hold for both, and
``cluster``, three ``rummykit serve`` on one PostgreSQL database behind HAProxy. Without
PostgreSQL or HAProxy these tests are skipped, and fail under ``CI`` (``.ci/run`` installs
them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from haproxy_server import HAProxy, haproxy_path
from live_server import LiveServer
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


@pytest.fixture
def cluster(pg_address: str, tmp_path: Path) -> Iterator[tuple[list[LiveServer], HAProxy]]:
    """Three server processes on one PostgreSQL database (computers moving 0.2 s after each
    move) behind HAProxy with the shipped ``deploy/haproxy.cfg``."""
    if haproxy_path() is None:
        if os.environ.get("CI"):  # pragma: no cover - .ci/run installs it
            pytest.fail(f"CI: {HAPROXY_MISSING}")
        pytest.skip(HAPROXY_MISSING)
    servers = [LiveServer(pg_address, delay=0.2, log=tmp_path / f"app{i}.log") for i in range(1, 4)]
    proxy: HAProxy | None = None
    try:
        for server in servers:
            server.start()
        proxy = HAProxy([f"127.0.0.1:{s.port}" for s in servers], tmp_path)
        proxy.start()
        yield servers, proxy
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.stop()
