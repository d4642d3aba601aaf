"""Budgets, old tables pruned, and the doors a page of another site could knock on (issue 26).

A request that is not JSON is refused (415), so a plain form on any site cannot create tables
through a visitor's browser; new tables and joins from one address are rationed (429 with
``Retry-After``); the questions a socket asks (hints, views, lay-down checks, reviews) have a
budget; a page of another site cannot open a seat's socket; the answers carry a
``Permissions-Policy`` and a ``Cross-Origin-Opener-Policy``. The budgets are drawn with a rate
so slow (one token in 1,000 s) that no test here depends on the machine's speed.
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from live_server import LiveServer
from starlette.websockets import WebSocketDisconnect
from test_server import greedy
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from rummykit.server.app import create_app
from rummykit.server.limits import Budget, Limits
from rummykit.server.tables import TableManager

pytestmark = pytest.mark.server

SLOW = 0.001
"""A budget's rate in these tests: one token in 1,000 s, so none comes back during a test."""


def _client(tmp_path: Path, limits: Limits | None = None) -> TestClient:
    return TestClient(create_app(tmp_path / "limits.sqlite3", delay=30, limits=limits))


def _stored(client: TestClient) -> list[str]:
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    return manager.store.table_ids(unfinished_only=False)


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "text/plain"},
        {"Content-Type": "application/x-www-form-urlencoded"},
        {"Content-Type": "multipart/form-data; boundary=x"},
        {},
    ],
)
def test_a_body_that_does_not_say_it_is_json_is_refused(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    """What a plain HTML form on any site can send (text/plain, a form) creates nothing."""
    body = json.dumps({"game": "gin", "opponents": 1}).encode()
    with _client(tmp_path) as client:
        answer = client.post("/api/tables", content=body, headers=headers)
        assert answer.status_code == 415
        assert "Content-Type: application/json" in answer.json()["error"]
        assert _stored(client) == []
        info = client.post("/api/tables", json={"game": "gin", "opponents": 1, "friends": 1})
        assert info.status_code == 201  # (JSON, with a charset or not, is welcome)
        code = info.json()["invites"][0]["code"]
        url = f"/api/tables/{info.json()['table']}/join"
        plain = client.post(url, content=json.dumps({"code": code}), headers=headers)
        assert plain.status_code == 415
        typed = {"Content-Type": "application/json; charset=utf-8"}
        assert (
            client.post(url, content=json.dumps({"code": code}), headers=typed).status_code == 200
        )


def test_new_tables_from_one_address_are_rationed(tmp_path: Path) -> None:
    limits = Limits(create=Budget(3, SLOW), join=Budget(2, SLOW))
    with _client(tmp_path, limits) as client:
        made = [client.post("/api/tables", json={"game": "gin", "friends": 1}) for _ in range(3)]
        assert [m.status_code for m in made] == [201, 201, 201]
        refused = client.post("/api/tables", json={"game": "gin"})
        assert refused.status_code == 429
        wait = int(refused.headers["Retry-After"])
        assert 900 <= wait <= 1000  # (one token in 1,000 s)
        assert f"try again in {wait} s" in refused.json()["error"]
        assert len(_stored(client)) == 3  # nothing made by the refused one
        # Joins have a budget of their own; a wrong code spends it too.
        table = made[0].json()["table"]
        url = f"/api/tables/{table}/join"
        assert client.post(url, json={"code": "wrong"}).status_code == 403
        code = made[0].json()["invites"][0]["code"]
        assert client.post(url, json={"code": code}).status_code == 200
        again = client.post(f"/api/tables/{made[1].json()['table']}/join", json={"code": "x"})
        assert again.status_code == 429 and int(again.headers["Retry-After"]) >= 900
        # A body that is not even a JSON object is refused for that, spending nothing.
        assert client.post("/api/tables", json=[1]).status_code == 400
        assert client.post("/api/tables", json={"game": "gin"}).status_code == 429


def _post(url: str, body: dict[str, Any]) -> tuple[int, Message, dict[str, Any]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, json.loads(refused.read())


@pytest.fixture
def rationed(tmp_path: Path) -> Iterator[LiveServer]:
    """A real server with one new table a minute per address (joins: two)."""
    server = LiveServer(db=tmp_path / "rationed.sqlite3", tables_per_minute=1)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_real_server_rations_each_address_as_its_command_line_says(
    rationed: LiveServer,
) -> None:
    """``rummykit serve --tables-per-minute 1``: the second table within the minute is refused,
    with the wait in ``Retry-After``; the first table's friend can still join."""
    status, _, first = _post(f"{rationed.url}api/tables", {"game": "gin", "friends": 1})
    assert status == 201
    status, headers, refused = _post(f"{rationed.url}api/tables", {"game": "gin"})
    assert status == 429 and 1 <= int(headers["Retry-After"]) <= 60, refused
    assert "too many new tables" in refused["error"]
    join = f"{rationed.url}api/tables/{first['table']}/join"
    status, _, seat = _post(join, {"code": first["invites"][0]["code"], "name": "Lan"})
    assert status == 200 and seat["seat"] == 1


def test_a_socket_that_asks_too_much_is_told_to_wait_and_can_still_play(tmp_path: Path) -> None:
    """Hints, views and lay-down checks share a budget per socket; moves are not in it, and
    a new socket has a budget of its own."""
    limits = Limits(asks=Budget(5, SLOW))
    with _client(tmp_path, limits) as client:
        info = client.post("/api/tables", json={"game": "gin", "opponents": 1}).json()
        path = f"/ws/{info['table']}/0"
        with client.websocket_connect(path) as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            view = ws.receive_json()
            for ask in [{"t": "view"}] * 3 + [{"t": "hint"}, {"t": "check_down", "cards": []}]:
                ws.send_json(ask)
                answer = ws.receive_json()  # (a check of no cards is an error of its own)
                assert answer.get("code") != "too_fast", (ask, answer)
            ws.send_json({"t": "view"})
            refused = ws.receive_json()
            assert refused["t"] == "error" and refused["code"] == "too_fast"
            assert "too many questions at once: try again in" in refused["message"]
            ws.send_json({"t": "hint"})
            assert ws.receive_json()["code"] == "too_fast"
            # Moves are not questions: the game goes on.
            hand = view["view"]["hand"]
            if hand["to_act"] == 0:
                move = greedy([str(a) for a in hand["legal_actions"]])
                ws.send_json({"t": "action", "action": move, "seq": view["seq"]})
                assert ws.receive_json()["t"] == "view"
        with client.websocket_connect(path) as ws:  # a new socket, a new budget
            ws.send_json({"t": "hello", "token": info["token"]})
            assert [ws.receive_json()["t"] for _ in range(2)] == ["welcome", "view"]
            ws.send_json({"t": "view"})
            assert ws.receive_json()["t"] == "view"


def test_the_default_budgets_are_what_the_docs_say() -> None:
    """docs/protocol.md quotes these numbers; a change here is a change there."""
    limits = Limits()
    assert (limits.create, limits.join) == (Budget(30, 0.5), Budget(60, 1.0))
    assert limits.asks == Budget(40, 5.0)
    assert Limits.tables_per_minute(0) == Limits(create=None, join=None)
    assert Limits.tables_per_minute(6).create == Budget(6, 0.1)
    with pytest.raises(ValueError, match="at least one request"):
        Budget(0, 1.0)
    docs = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    docs = " ".join(docs.split())  # (the words may break across lines)
    for words in ("30 new tables a minute", "60 joins a minute", "40 at once, then 5 a second"):
        assert words in docs, words


def test_answers_refuse_powers_the_page_never_uses(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        for path in ("/", "/api/games"):
            headers = client.get(path).headers
            assert "camera=()" in headers["Permissions-Policy"]
            assert "microphone=()" in headers["Permissions-Policy"]
            assert headers["Cross-Origin-Opener-Policy"] == "same-origin"


def test_a_page_of_another_site_cannot_open_a_seat(tmp_path: Path) -> None:
    """The server's own page and programs (no ``Origin``) may; another site's page may not,
    unless the server was told to allow it."""
    with _client(tmp_path) as client:
        info = client.post("/api/tables", json={"game": "gin"}).json()
        path = f"/ws/{info['table']}/0"
        for origin in ("https://evil.example", "null", "http://testserver.evil.example"):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(path, headers={"Origin": origin}),
            ):
                pass
            assert refused.value.code == 4403, origin
        with client.websocket_connect(path, headers={"Origin": "http://testserver"}) as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"


def test_a_real_server_refuses_a_foreign_origin_but_lets_an_allowed_one_in(
    tmp_path: Path,
) -> None:
    """Over a real socket the refusal is the upgrade's answer, 403; ``--allow-origin`` opens
    the door to one more site (a page hosted elsewhere, say)."""
    server = LiveServer(db=tmp_path / "origin.sqlite3", allow_origin="https://cards.example")
    server.start()
    try:
        status, _, info = _post(f"{server.url}api/tables", {"game": "gin"})
        assert status == 201
        ws_url = f"ws://127.0.0.1:{server.port}/ws/{info['table']}/0"
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url, origin=Origin("https://evil.example"), open_timeout=10)
        assert refused.value.response.status_code == 403
        for origin in (f"http://127.0.0.1:{server.port}", "https://cards.example"):
            with connect(ws_url, origin=Origin(origin), open_timeout=10) as ws:
                ws.send(json.dumps({"t": "hello", "token": info["token"]}))
                assert json.loads(ws.recv(timeout=10))["t"] == "welcome"
    finally:
        server.stop()


def test_the_server_prunes_what_nobody_opens_and_notes_what_is_opened(tmp_path: Path) -> None:
    """A table last played and opened long ago is deleted by the server by itself (here it
    prunes every 0.2 s; by default every hour); a seat's hello notes its table as opened."""
    db = tmp_path / "prune.sqlite3"
    with TestClient(create_app(db, delay=30, prune_every=0.2)) as client:
        old = client.post("/api/tables", json={"game": "gin"}).json()
        kept = client.post("/api/tables", json={"game": "gin"}).json()
        raw = sqlite3.connect(db)
        try:
            with raw:  # (as if the last move and the last visit were 31 days ago)
                month_ago = time.time() - 31 * 86_400
                raw.execute(
                    "UPDATE tables SET updated = ?, opened = ? WHERE id = ?",
                    (month_ago, month_ago, old["table"]),
                )
            for _ in range(200):
                if client.get(f"/api/tables/{old['table']}").status_code == 404:
                    break
                time.sleep(0.05)
            assert client.get(f"/api/tables/{old['table']}").status_code == 404
            assert client.get(f"/api/tables/{kept['table']}").status_code == 200
            assert raw.execute(
                "SELECT COUNT(*) FROM actions WHERE table_id = ?", (old["table"],)
            ).fetchone() == (0,)
            with client.websocket_connect(f"/ws/{kept['table']}/0") as ws:
                ws.send_json({"t": "hello", "token": kept["token"]})
                assert ws.receive_json()["t"] == "welcome"
            for _ in range(200):
                (opened,) = raw.execute(
                    "SELECT opened FROM tables WHERE id = ?", (kept["table"],)
                ).fetchone()
                if opened:
                    break
                time.sleep(0.05)
            assert abs(opened - time.time()) < 60
        finally:
            raw.close()


@pytest.mark.parametrize(
    ("game", "options", "says"),
    [
        ("gin", {"target_score": 1001}, "target_score is at most 1000"),
        ("rummy", {"target_score": 5000}, "target_score is at most 1000"),
        ("rummy", {"restock_limit": 21}, "restock_limit is at most 20"),
        ("crazy", {"max_restocks": None}, "max_restocks is at most 20"),
        ("crazy", {"max_restocks": 50}, "max_restocks is at most 20"),
    ],
)
def test_a_match_that_could_go_on_without_end_is_not_made(
    tmp_path: Path, game: str, options: dict[str, Any], says: str
) -> None:
    """The engine allows targets up to 10,000 and unlimited restocks; a table on the server
    stops at 1,000 points and 20 restocks a hand, so that every record stays short. The start
    screen is offered the same bounds."""
    with _client(tmp_path) as client:
        refused = client.post("/api/tables", json={"game": game, "options": options})
        assert refused.status_code == 400 and says in refused.json()["error"]
        assert _stored(client) == []
        name, cap = next(iter(options)), int(says.rsplit(" ", 1)[1])
        made = client.post("/api/tables", json={"game": game, "options": {name: cap}})
        assert made.status_code == 201, made.text
        offered = next(g for g in client.get("/api/games").json()["games"] if g["key"] == game)
        spec = next(s for s in offered["specs"] if s["name"] == name)
        assert spec["high"] == cap and spec["none"] is None
