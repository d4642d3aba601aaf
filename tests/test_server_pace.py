"""How fast the computer seats move: each page may ask for a pace (``{"t": "pace"}``), and a table
moves at the slowest pace among the pages connected to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.app import create_app
from rummykit.server.hub import Hub
from rummykit.server.protocol import PACES, Hello, PaceRequest, ProtocolError, parse_incoming
from rummykit.server.store import Store
from rummykit.server.tables import TableManager

pytestmark = pytest.mark.server


def test_pace_requests_are_parsed_strictly() -> None:
    for pace in PACES:
        assert parse_incoming(json.dumps({"t": "pace", "pace": pace})) == PaceRequest(pace)
    for bad in [
        {"t": "pace"},
        {"t": "pace", "pace": "FAST"},
        {"t": "pace", "pace": 2},
        {"t": "pace", "pace": "fast", "delay": 0},
    ]:
        with pytest.raises(ProtocolError) as caught:
            parse_incoming(json.dumps(bad))
        assert caught.value.code == "bad_message"


def test_a_table_moves_at_the_slowest_pace_of_the_pages_connected(tmp_path: Path) -> None:
    store = Store(tmp_path / "pace.sqlite3")
    hub = Hub(TableManager(store), delay=0.8)
    first: Any = object()  # stand-ins for two pages' sockets
    second: Any = object()
    assert hub.delay_for("t") == pytest.approx(0.8)  # nobody there: the server's own pause
    hub.sockets["t"] = {0: {first}, 1: {second}}
    assert hub.delay_for("t") == pytest.approx(0.8)  # neither page asked: normal
    hub.paces[first] = "fast"
    assert hub.delay_for("t") == pytest.approx(0.8)  # the friend's page has not asked: normal
    hub.paces[second] = "fast"
    assert hub.delay_for("t") == pytest.approx(0.8 * PACES["fast"])
    hub.paces[second] = "slow"
    assert hub.delay_for("t") == pytest.approx(0.8 * PACES["slow"])
    assert hub.delay_for("other") == pytest.approx(0.8)  # another table is not affected
    store.close()


def test_a_page_asks_for_a_pace_over_the_socket(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "web.sqlite3", delay=30)) as client:
        response = client.post("/api/tables", json={"game": "gin", "opponents": 1})
        info = response.json()
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            first = ws.receive_json()
            assert hub.delay_for(info["table"]) == pytest.approx(30)
            ws.send_json({"t": "pace", "pace": "walk"})
            error = ws.receive_json()
            assert error["t"] == "error" and error["code"] == "bad_message"
            assert "slow, normal, fast" in error["message"]
            ws.send_json({"t": "pace", "pace": "fast"})
            ws.send_json({"t": "view"})  # answered in order: the pace was taken without a word
            again = ws.receive_json()
            assert again["t"] == "view" and again["seq"] == first["seq"]
            assert hub.delay_for(info["table"]) == pytest.approx(30 * PACES["fast"])
        # The page has gone: its pace with it.
        assert not hub.paces


def test_the_pace_comes_with_the_hello_before_the_computers_first_move(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "web.sqlite3", delay=30)) as client:
        info = client.post("/api/tables", json={"game": "gin", "opponents": 1}).json()
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        assert parse_incoming('{"t": "hello", "token": "x", "pace": "slow"}') == Hello("x", "slow")
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"], "pace": "zoom"})
            error = ws.receive_json()
            assert error["t"] == "error" and "one of: slow, normal, fast" in error["message"]
        assert not hub.paces
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"], "pace": "slow"})
            assert ws.receive_json()["t"] == "welcome"
            assert ws.receive_json()["t"] == "view"
            assert hub.delay_for(info["table"]) == pytest.approx(30 * PACES["slow"])
