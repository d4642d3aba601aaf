"""One client holding a thousand connections cannot lock the others out (issue 26, item 1).

A real ``rummykit serve`` on 127.0.0.1. The attacker, from 127.0.0.3, opens 1,100 connections
that never finish: half stop in the middle of their request's headers (slowloris), half are
WebSocket upgrades that never say hello. Meanwhile a person, from 127.0.0.2, loads the page,
creates a table, says hello and plays a move: each answered at once, not locked out. The server refuses
the attacker's connections beyond its budget per address, closes the unfinished ones once their
time is up, and its log stays small. Loopback only; every loop is bounded.
"""

from __future__ import annotations

import base64
import http.client
import json
import logging
import os
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import LiveServer
from test_server import greedy
from websockets.sync.client import connect

from rummykit.server.gate import HEADER_SECONDS, PER_ADDRESS, Gate, QuietAccept

pytestmark = pytest.mark.server

ATTACKER = "127.0.0.3"
PERSON = "127.0.0.2"
CONNECTIONS = 1_100


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < CONNECTIONS + 500:  # (this test's own sockets)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    live = LiveServer(db=tmp_path / "gate.sqlite3")
    live.start()
    try:
        yield live
    finally:
        live.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _attack(port: int) -> list[socket.socket]:
    """CONNECTIONS unfinished connections from ATTACKER (each refused or held)."""
    held: list[socket.socket] = []
    key = base64.b64encode(os.urandom(16)).decode()
    for i in range(CONNECTIONS):
        s = socket.socket()
        s.settimeout(5)
        s.bind((ATTACKER, 0))
        try:
            s.connect(("127.0.0.1", port))
            if i % 2:
                s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            else:
                s.sendall(
                    (
                        "GET /ws/nope/0 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n"
                    ).encode()
                )
        except OSError:
            pass
        held.append(s)
    return held


def _closed_by_server(s: socket.socket) -> bool:
    """True if the server has closed this connection (end of file or reset)."""
    s.setblocking(False)
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def _timed(what: str, took: list[tuple[str, float]], started: float) -> None:
    took.append((what, time.monotonic() - started))


def test_a_thousand_unfinished_connections_from_one_address_lock_nobody_out(
    server: LiveServer,
) -> None:
    held = _attack(server.port)
    try:
        took: list[tuple[str, float]] = []
        page = http.client.HTTPConnection(
            "127.0.0.1", server.port, timeout=10, source_address=(PERSON, 0)
        )
        started = time.monotonic()
        page.request("GET", "/")
        answer = page.getresponse()
        assert answer.status == 200 and b"rummykit" in answer.read()
        _timed("page", took, started)
        started = time.monotonic()
        body = json.dumps({"game": "gin", "opponents": 1})
        page.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
        answer = page.getresponse()
        assert answer.status == 201
        info = json.loads(answer.read())
        _timed("new table", took, started)
        sock = socket.create_connection(
            ("127.0.0.1", server.port), timeout=10, source_address=(PERSON, 0)
        )
        started = time.monotonic()
        with connect(
            f"ws://127.0.0.1:{server.port}/ws/{info['table']}/0", sock=sock, open_timeout=10
        ) as ws:
            ws.send(json.dumps({"t": "hello", "token": info["token"]}))
            assert json.loads(ws.recv(timeout=10))["t"] == "welcome"
            view = json.loads(ws.recv(timeout=10))
            _timed("hello", took, started)
            hand = view["view"]["hand"]
            if hand["to_act"] == 0 and hand["legal_actions"]:
                started = time.monotonic()
                move = greedy([str(a) for a in hand["legal_actions"]])
                ws.send(json.dumps({"t": "action", "action": move, "seq": view["seq"]}))
                assert json.loads(ws.recv(timeout=10))["t"] == "view"
                _timed("move", took, started)
        # Locked out, the person would wait for ever (here the sockets' 10 s timeouts). Served,
        # each step takes milliseconds on a quiet machine; the bound leaves room for a loaded
        # one (a page took 1.5 s with two CI runs and a browser suite sharing the 2 cores).
        assert all(seconds < 5.0 for _, seconds in took), took
        # The server kept at most its budget of the attacker's connections, and closes the
        # unfinished ones once their time is up (headers: HEADER_SECONDS; hello: 5 s).
        refused = sum(_closed_by_server(s) for s in held)
        assert refused >= CONNECTIONS - PER_ADDRESS, refused
        deadline = time.monotonic() + HEADER_SECONDS + 10
        while time.monotonic() < deadline:
            open_ones = [s for s in held if not _closed_by_server(s)]
            if not open_ones:
                break
            time.sleep(0.2)
        assert not [s for s in held if not _closed_by_server(s)], "still held after their time"
    finally:
        for s in held:
            s.close()
    assert server.log.stat().st_size < 1_000_000


class FakeTransport:
    def __init__(self) -> None:
        self.closing = False

    def is_closing(self) -> bool:
        return self.closing


def test_the_gate_counts_connections_per_address_and_in_all() -> None:
    gate = Gate(per_address=2, total=3)
    gate.exempt = frozenset({"10.0.0.1"})  # (a trusted proxy)
    a = [FakeTransport() for _ in range(3)]
    assert [gate.admit("192.168.1.5", t) for t in a] == [True, True, False]  # type: ignore[arg-type]
    a[0].closing = True  # one of them closed: room again
    assert gate.admit("192.168.1.5", a[2])  # type: ignore[arg-type]
    proxy = [FakeTransport() for _ in range(2)]
    assert gate.admit("10.0.0.1", proxy[0])  # type: ignore[arg-type]
    assert not gate.admit("10.0.0.1", proxy[1])  # type: ignore[arg-type]  # (3 in all)
    for t in a:
        t.closing = True
    assert gate.admit("10.0.0.1", proxy[1])  # type: ignore[arg-type]  # (swept: room in all)
    assert gate.refused == 2 and gate.sweep() == 2


def test_failed_accepts_are_logged_once_an_interval_with_a_count() -> None:
    quiet = QuietAccept(every=10.0)

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, msg, (), None)

    accept = "socket.accept() out of system resource\nsocket: <socket>"
    assert quiet.filter(record("something else")) and quiet.filter(record("again"))
    first = record(accept)
    assert quiet.filter(first) and "0 more not logged" in first.getMessage()
    assert [quiet.filter(record(accept)) for _ in range(50)] == [False] * 50
    quiet.last -= 10.0  # (ten seconds later)
    later = record(accept)
    assert quiet.filter(later) and "50 more not logged" in later.getMessage()
