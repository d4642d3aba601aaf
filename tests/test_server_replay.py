"""A table not in memory is replayed from its record only for someone who holds its secret, off
the event loop, once however many ask at the same time (issue 26, item 2).

Replaying a long record costs; an unauthenticated request (a table's summary, a hello or a join
with a wrong secret) must not make the server do it, and while one table is replayed every other
table goes on. Replays are counted by wrapping ``TableManager.replay``; "off the event loop" is
shown without timing anything: a replay held on an event does not stop another table's move from
being answered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server import greedy

from rummykit.server.app import create_app
from rummykit.server.tables import Table, TableManager

pytestmark = pytest.mark.server


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "replay.sqlite3", delay=30)) as c:
        yield c


def _manager(client: TestClient) -> TableManager:
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    return manager


def _count_replays(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, hold: threading.Event | None = None
) -> list[str]:
    """Count the replays (and hold each on ``hold`` until it is set, if given)."""
    manager = _manager(client)
    replays: list[str] = []
    original: Callable[[str], Table | None] = manager.replay

    def replay(table_id: str) -> Table | None:
        replays.append(table_id)
        if hold is not None:
            assert hold.wait(30), "the replay was held for ever"
        return original(table_id)

    monkeypatch.setattr(manager, "replay", replay)
    return replays


def _played(client: TestClient, game: str = "gin", moves: int = 6, **body: Any) -> dict[str, Any]:
    """A table where seat 0 made some moves, then forgotten by the server (stored only)."""
    info: dict[str, Any] = client.post("/api/tables", json={"game": game, **body}).json()
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        ws.send_json({"t": "hello", "token": info["token"]})
        assert ws.receive_json()["t"] == "welcome"
        view = ws.receive_json()
        for _ in range(moves):
            hand = view["view"]["hand"]
            if hand["to_act"] != 0 or not hand["legal_actions"]:
                break
            move = greedy([str(a) for a in hand["legal_actions"]])
            ws.send_json({"t": "action", "action": move, "seq": view["seq"]})
            view = ws.receive_json()
    assert info["table"] not in _manager(client).tables  # (its last socket closed: forgotten)
    return info


def test_a_summary_is_read_from_the_row_and_says_what_a_replay_would(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = _played(client, friends=1)
    replays = _count_replays(client, monkeypatch)
    url = f"/api/tables/{info['table']}"
    from_row = client.get(url).json()
    assert replays == [] and info["table"] not in _manager(client).tables
    table = _manager(client).get(info["table"])  # now in memory: the answer comes from it
    assert table is not None
    assert client.get(url).json() == from_row
    assert from_row["hand_number"] == len(table.match.hands) == 1
    assert from_row["seats"] == [s.public() for s in table.seats]
    assert client.get("/api/tables/nope").status_code == 404


def test_no_secret_no_replay(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hello with a wrong token, a join with a wrong code, a seat or rematch asked with a
    forged token: refused from the stored seats, nothing replayed; the right token replays
    the table once."""
    info = _played(client, friends=1)
    table = info["table"]
    replays = _count_replays(client, monkeypatch)
    with client.websocket_connect(f"/ws/{table}/0") as ws:
        ws.send_json({"t": "hello", "token": "forged"})
        assert ws.receive_json()["code"] == "auth"
    with client.websocket_connect("/ws/nope/0") as ws:
        ws.send_json({"t": "hello", "token": "forged"})
        assert ws.receive_json()["code"] == "unknown_table"
    join = client.post(f"/api/tables/{table}/join", json={"code": "wrong"})
    assert join.status_code == 403 and "not valid" in join.json()["error"]
    forged = {"token": "forged"}
    assert client.post(f"/api/tables/{table}/seats/1/computer", json=forged).status_code == 403
    rematch = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, **forged})
    assert rematch.status_code == 403
    assert replays == [] and table not in _manager(client).tables
    with client.websocket_connect(f"/ws/{table}/0") as ws:
        ws.send_json({"t": "hello", "token": info["token"]})
        assert ws.receive_json()["t"] == "welcome"
        assert ws.receive_json()["t"] == "view"
        assert replays == [table]


def test_a_replay_runs_off_the_event_loop_and_once_for_all_who_ask(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two pages open a stored table at once while its replay is held: the other table's
    person still plays (the event loop is free), and when the replay is let go both pages
    get the one same table."""
    stored = _played(client, friends=1)
    other = client.post("/api/tables", json={"game": "gin"}).json()
    hold = threading.Event()
    welcomes: list[dict[str, Any]] = []

    def open_stored() -> None:
        try:
            with client.websocket_connect(f"/ws/{stored['table']}/0") as ws:
                ws.send_json({"t": "hello", "token": stored["token"]})
                welcomes.append(ws.receive_json())
                welcomes.append(ws.receive_json())
        except WebSocketDisconnect as closed:  # (one seat, one socket: the later replaces)
            welcomes.append({"t": "closed", "code": closed.code})

    pages = [threading.Thread(target=open_stored) for _ in range(2)]
    with client.websocket_connect(f"/ws/{other['table']}/0") as ws:
        ws.send_json({"t": "hello", "token": other["token"]})
        assert ws.receive_json()["t"] == "welcome"
        view = ws.receive_json()
        replays = _count_replays(client, monkeypatch, hold)  # (the other table is in memory)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        asked: list[str] = []  # the pages whose hello reached the replay (or its wait)
        original = hub.table

        async def table(table_id: str) -> Table | None:
            asked.append(table_id)
            found: Table | None = await original(table_id)
            return found

        monkeypatch.setattr(hub, "table", table)
        for page in pages:
            page.start()
        hand = view["view"]["hand"]
        assert hand["to_act"] == 0 or not hand["legal_actions"]
        if hand["legal_actions"]:
            move = greedy([str(a) for a in hand["legal_actions"]])
            ws.send_json({"t": "action", "action": move, "seq": view["seq"]})
            assert ws.receive_json()["t"] == "view"  # answered while the replay is held
        ws.send_json({"t": "view"})
        assert ws.receive_json()["t"] == "view"
        for _ in range(600):  # until both pages wait for the one replay (a slow thread's too)
            if replays and asked.count(stored["table"]) == 2:
                break
            threading.Event().wait(0.05)
        assert replays == [stored["table"]] and asked == [stored["table"]] * 2
    assert not hold.is_set() and welcomes == []  # (both pages still wait for the replay)
    hold.set()
    for page in pages:
        page.join(30)
        assert not page.is_alive()
    assert replays == [stored["table"]]  # one replay for both
    kinds = [m["t"] for m in welcomes]
    assert kinds.count("welcome") >= 1 and kinds.count("view") >= 1, welcomes
    assert all(m["t"] != "closed" or m["code"] == 4409 for m in welcomes), welcomes
