"""Several server processes on one database: every page sees every move, whichever process its
socket reached; an invite is claimed once; a dead process's tables go on in another one."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer
from websockets.sync.client import ClientConnection, connect

from rummykit.server.store import Store

pytestmark = pytest.mark.server

CATCH_UP = 10.0
"""Seconds a page may wait for a move made through another process (it takes about 0.25 s)."""


def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST ``body`` to ``path`` of the server at ``base`` (``http://host:port/``)."""
    request = urllib.request.Request(
        f"{base}{path.lstrip('/')}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def hello(server: LiveServer, table: str, seat: int, token: str) -> ClientConnection:
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{table}/{seat}", open_timeout=10, legacy=True)
    ws.send(json.dumps({"t": "hello", "token": token}))
    return ws


def next_view(ws: ClientConnection, after: int = -1, timeout: float = CATCH_UP) -> dict[str, Any]:
    """The first view with a ``seq`` above ``after``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no view after {after} within {timeout} s"
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        assert message["t"] != "error", message
        if message["t"] == "view" and message["seq"] > after:
            return message


@pytest.fixture
def two_servers(pg_address: str, tmp_path: Path) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two server processes on one PostgreSQL database; the first one's computer waits 1.5 s
    before each move (long enough to kill it while its computer is to move)."""
    first = LiveServer(pg_address, delay=1.5, log=tmp_path / "first.log")
    second = LiveServer(pg_address, delay=0.05, log=tmp_path / "second.log")
    first.start()
    second.start()
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_friends_on_two_processes_see_each_others_moves_in_order(
    two_servers: tuple[LiveServer, LiveServer], pg_address: str
) -> None:
    first, second = two_servers
    status, made = post(first.url, "/api/tables", {"game": "gin", "friends": 1, "opponents": 1})
    assert status == 201
    table, code = made["table"], made["invites"][0]["code"]
    # The same invitation, claimed through both processes: once.
    answers = [
        post(server.url, f"/api/tables/{table}/join", {"code": code}) for server in two_servers
    ]
    assert sorted(status for status, _ in answers) == [200, 403]
    seat1_token = next(body["token"] for status, body in answers if status == 200)
    pages = {0: hello(first, table, 0, made["token"]), 1: hello(second, table, 1, seat1_token)}
    try:
        seen: dict[int, list[int]] = {0: [], 1: []}
        latest = {seat: next_view(ws) for seat, ws in pages.items()}
        for seat in pages:
            seen[seat].append(latest[seat]["seq"])
        for _ in range(8):  # eight moves, each made through one process, seen through both
            hand = latest[0]["view"]["hand"]
            mover = hand["to_act"]
            if hand["phase"] == "hand_over":
                break
            move = latest[mover]["view"]["hand"]["legal_actions"][0]
            pages[mover].send(
                json.dumps({"t": "action", "action": move, "seq": latest[mover]["seq"]})
            )
            for seat, ws in pages.items():
                latest[seat] = next_view(ws, after=latest[seat]["seq"])
                seen[seat].append(latest[seat]["seq"])
            assert latest[0]["seq"] == latest[1]["seq"]
            assert latest[0]["view"]["hand"]["to_act"] == latest[1]["view"]["hand"]["to_act"]
            assert (
                latest[0]["view"]["hand"]["discard_pile"]
                == latest[1]["view"]["hand"]["discard_pile"]
            )
        for seat in pages:
            assert seen[seat] == sorted(set(seen[seat])), seen  # in order, none twice
        assert seen[0][-1] >= 8
    finally:
        for ws in pages.values():
            ws.close()
    store = Store(pg_address)
    stored = store.load(table)
    store.close()
    assert stored is not None
    assert len(stored.record["hands"][0]["actions"]) == latest[0]["seq"]  # every move kept


def play_to_my_turn(ws: ClientConnection, view: dict[str, Any]) -> dict[str, Any]:
    """Views until it is the person's turn (the computer moves in between)."""
    while not view["view"]["hand"]["legal_actions"]:
        view = next_view(ws, after=view["seq"])
    return view


def my_move(ws: ClientConnection, view: dict[str, Any]) -> dict[str, Any]:
    """Play the person's first legal move; the view that acknowledges it."""
    move = view["view"]["hand"]["legal_actions"][0]
    ws.send(json.dumps({"t": "action", "action": move, "seq": view["seq"]}))
    return next_view(ws, after=view["seq"])


def test_a_killed_process_s_table_goes_on_in_another_within_ten_seconds(
    two_servers: tuple[LiveServer, LiveServer], pg_address: str
) -> None:
    first, second = two_servers
    status, made = post(first.url, "/api/tables", {"game": "gin", "level": "easy"})
    assert status == 201
    table, token = made["table"], made["token"]
    ws = hello(first, table, 0, token)
    view = play_to_my_turn(ws, next_view(ws))
    view = play_to_my_turn(ws, my_move(ws, view))  # the computer answered: the first's lease
    view = my_move(ws, view)  # the person's move, acknowledged (on disk)
    acknowledged = view["seq"]
    first.stop(kill=True)  # SIGKILL, its lease held, its computer to move in 1.5 s
    killed = time.monotonic()
    ws.close()
    ws = hello(second, table, 0, token)
    try:
        again = next_view(ws)
        assert again["seq"] >= acknowledged  # nothing acknowledged was lost
        # The computer moves again, from the second process, once the lease has expired.
        view = play_to_my_turn(ws, again)
        assert view["seq"] > acknowledged
        # Not before the lease expired (4 s at least after the kill: it is renewed every 2 s
        # for 6 s), and within 10 s.
        assert 3.5 < time.monotonic() - killed < 10
    finally:
        ws.close()
    store = Store(pg_address)
    stored = store.load(table)
    store.close()
    assert stored is not None
    assert sum(len(h["actions"]) for h in stored.record["hands"]) >= acknowledged


def test_several_processes_on_one_sqlite_file_serve_one_table_together(tmp_path: Path) -> None:
    """``rummykit serve --workers 3``: each connection goes to any of the three processes."""
    server = LiveServer(tmp_path / "three.sqlite3", delay=0.05, workers=3)
    server.start()
    try:
        status, made = post(
            server.url, "/api/tables", {"game": "gin", "friends": 1, "opponents": 1}
        )
        assert status == 201
        table, code = made["table"], made["invites"][0]["code"]
        with ThreadPoolExecutor(4) as pool:  # the same invitation four times at once: once
            answers = list(
                pool.map(
                    lambda _: post(server.url, f"/api/tables/{table}/join", {"code": code}),
                    range(4),
                )
            )
        assert sorted(status for status, _ in answers) == [200, 403, 403, 403]
        tokens = {0: made["token"], 1: next(b["token"] for s, b in answers if s == 200)}
        pages = {seat: hello(server, table, seat, tokens[seat]) for seat in tokens}
        latest = {seat: next_view(ws) for seat, ws in pages.items()}
        for _ in range(10):
            mover = latest[0]["view"]["hand"]["to_act"]
            if latest[0]["view"]["hand"]["phase"] == "hand_over":
                break
            pages[mover].close()  # a new connection, to whichever process takes it
            pages[mover] = hello(server, table, mover, tokens[mover])
            latest[mover] = next_view(pages[mover])
            assert latest[mover]["seq"] == latest[1 - mover]["seq"]
            move = latest[mover]["view"]["hand"]["legal_actions"][0]
            pages[mover].send(
                json.dumps({"t": "action", "action": move, "seq": latest[mover]["seq"]})
            )
            for seat, ws in pages.items():
                latest[seat] = next_view(ws, after=latest[seat]["seq"])
            assert latest[0]["seq"] == latest[1]["seq"]
        for ws in pages.values():
            ws.close()
        assert latest[0]["seq"] >= 10
    finally:
        server.stop()
