"""The server under hostile or unlucky input: malformed JSON, oversized bodies, a slow socket, a
seat opened twice, and tables kept in memory only while they are in use (a socket that stops
reading: ``test_server_outbox.py``)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.server import page as page_module
from rummykit.server.app import create_app
from rummykit.server.hub import Hub
from rummykit.server.store import Store
from rummykit.server.tables import Table, TableManager

pytestmark = pytest.mark.server


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(tmp_path / "h.sqlite3", delay=30)) as c:
        yield c


def _new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def _hello(ws: Any, token: str) -> dict[str, Any]:
    ws.send_json({"t": "hello", "token": token})
    assert ws.receive_json()["t"] == "welcome"
    view: dict[str, Any] = ws.receive_json()
    assert view["t"] == "view"
    return view


JSON_TYPE = {"Content-Type": "application/json"}

DEEP = "[" * 5000 + "]" * 5000
SURROGATE = '{"t": "hello", "token": "\\udc80"}'


@pytest.mark.parametrize("text", [DEEP, SURROGATE, '{"t": "hello", "\\ud800": 1}'])
def test_a_bad_hello_gets_an_error_and_a_close(client: TestClient, text: str) -> None:
    info = _new_table(client, game="gin", opponents=1)
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        ws.send_text(text)
        answer = ws.receive_json()
        assert answer["t"] == "error" and answer["code"] in ("bad_message", "auth")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


def test_an_error_message_does_not_echo_long_input(client: TestClient) -> None:
    info = _new_table(client, game="gin", opponents=1)
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        _hello(ws, info["token"])
        for message in (
            {"t": "action", "action": "discard " + "7" * 3000, "seq": 1},
            {"t": "action", "action": "draw", "seq": int("9" * 3000)},
        ):
            ws.send_json(message)
            answer = ws.receive_json()
            assert answer["t"] == "error" and len(answer["message"]) < 300, answer


def test_bad_json_after_hello_changes_nothing(client: TestClient) -> None:
    info = _new_table(client, game="gin", opponents=1)
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        first = _hello(ws, info["token"])
        table = manager.tables[info["table"]]
        before = (table.seq, len(table.hand.history))
        for text in (
            DEEP,
            '{"t": "action", "action": "draw", "seq": 1, "\\udc80": 1}',
            '{"t": "view", "t": "hint"}',  # which one? neither
        ):
            ws.send_text(text)
            answer = ws.receive_json()
            assert answer == {"t": "error", "code": "bad_message", "message": answer["message"]}
            assert (table.seq, len(table.hand.history)) == before
        ws.send_json({"t": "view"})  # the socket still works
        assert ws.receive_json()["seq"] == first["seq"]


@pytest.mark.parametrize("path", ["abc", "²", "00", "٠", "０"])
def test_a_seat_path_that_is_not_a_number_is_refused(client: TestClient, path: str) -> None:
    # (a superscript two passes str.isdigit() but not int(): it once crashed the handler)
    info = _new_table(client, game="gin", opponents=1)
    with client.websocket_connect(f"/ws/{info['table']}/{path}") as ws:
        ws.send_json({"t": "hello", "token": info["token"]})
        assert ws.receive_json()["code"] == "auth"
    answer = client.post(
        f"/api/tables/{info['table']}/seats/{path}/computer",
        json={"token": info["token"], "level": "easy"},
    )
    assert answer.status_code == 409


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        (b'{"game": "gin", "pad": "' + b"x" * 20_000 + b'"}', 413, "too long"),
        (DEEP.encode(), 400, "JSON object"),
        (b'{"game": "gin", "options": {"\\ud800": 1}}', 400, "JSON object"),
        (b'{"game": "gin", "options": []}', 400, "options (object)"),
        (b'{"game": "gin", "options": 0}', 400, "options (object)"),
        (b'{"game": "gin", "colour": "red"}', 400, "unknown field(s): colour"),
        (b'{"game": "gin", "game": "crazy"}', 400, "the key 'game' appears twice"),
        (b'{"game": "crazy", "opponents": -1}', 400, "2 to 6 players, so 1 to 5 opponents"),
        # a number too long for Python to read (over 4300 digits) once gave a 500
        (b'{"game": "gin", "opponents": ' + b"9" * 5000 + b"}", 400, "JSON object"),
    ],
)
def test_bad_table_requests_are_refused(
    client: TestClient, body: bytes, status: int, says: str
) -> None:
    response = client.post("/api/tables", content=body, headers=JSON_TYPE)
    assert response.status_code == status
    assert says in response.json()["error"]
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    assert manager.store.table_ids(unfinished_only=False) == []


def test_no_api_browser_pages_that_would_load_outside_scripts(client: TestClient) -> None:
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert client.get(path).status_code == 404


def test_a_second_socket_on_a_seat_replaces_the_first(client: TestClient) -> None:
    info = _new_table(client, game="gin", opponents=1)
    with client.websocket_connect(f"/ws/{info['table']}/0") as old:
        view = _hello(old, info["token"])
        with client.websocket_connect(f"/ws/{info['table']}/0") as new:
            again = _hello(new, info["token"])
            assert again["seq"] == view["seq"]
            with pytest.raises(WebSocketDisconnect) as closed:
                old.receive_json()
            assert closed.value.code == 4409
            new.send_json({"t": "view"})
            assert new.receive_json()["t"] == "view"


def test_tables_are_replayed_on_connect_and_forgotten_when_idle(tmp_path: Path) -> None:
    db = tmp_path / "lazy.sqlite3"
    with TestClient(create_app(db, delay=0)) as client:
        info = _new_table(client, game="rummy", opponents=2)
        manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.tables == {}  # stored, not held: nobody is at the table yet
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            first = _hello(ws, info["token"])
            assert list(manager.tables) == [info["table"]]
            last = first
            for _ in range(3):  # three actions of this seat, reading every computer move
                while last["view"]["hand"]["to_act"] not in (0, None):
                    last = ws.receive_json()
                legal = last["view"]["hand"]["legal_actions"]
                if not legal:  # the hand is over
                    break
                ws.send_json({"t": "action", "action": legal[0], "seq": last["seq"]})
                last = ws.receive_json()
            while last["view"]["hand"]["to_act"] not in (0, None):
                last = ws.receive_json()
        # held while the computers finish their moves, then dropped
        deadline = time.monotonic() + 10
        while manager.tables and time.monotonic() < deadline:
            time.sleep(0.02)
        assert manager.tables == {}
        assert client.get(f"/api/tables/{info['table']}").json()["over"] is False
        assert manager.tables == {}
    # a new server starts without replaying anything, and the seat finds its game as it was
    with TestClient(create_app(db, delay=30)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.tables == {}
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            again = _hello(ws, info["token"])
            assert again["seq"] == last["seq"]
            assert again["view"] == last["view"]


@pytest.mark.parametrize(("variant", "opponents"), [("gin", 1), ("rummy", 2), ("crazy", 3)])
def test_the_hand_log_for_a_late_joiner_matches_the_live_log(
    tmp_path: Path, variant: str, opponents: int
) -> None:
    """A page that joins mid-hand gets every move so far, each take and buy with its card and
    each card that came into its own hand, just as a page that watched the whole hand was told
    them (and nothing of another seat's hand)."""
    store = Store(tmp_path / "log.sqlite3")
    table, _ = Table.create(store, variant=variant, opponents=opponents, level="easy", seed=11)
    live: list[dict[str, Any]] = []
    taken = 0
    for _ in range(400):
        if table.hand.is_over:
            break
        if table.computer_to_act() is not None:
            messages = table.step_computer()
        else:
            legal = [str(a) for a in table.hand.view(0).legal_actions]
            # take or buy whenever allowed, at first, so the log has cards to name; then draw
            choice = next((a for a in legal if a in ("take", "buy")), None) if taken < 2 else None
            if choice is None:
                choice = next(a for a in legal if a.startswith(("discard", "draw", "pass")))
            messages = table.act(0, choice, table.seq)
        (entry,) = messages[0]["log"]
        if messages[0]["gained"]:
            entry = {**entry, "gained": messages[0]["gained"]}
        live.append(entry)
        taken = sum(1 for e in live if e["action"] in ("take", "buy"))
        drawn = sum(1 for e in live if e["seat"] == 0 and e["action"] == "draw")
        # stop when seat 0 is to act, so that its last draw has reached its hand (in Crazy
        # Rummy a draw waits for the others to pass on the discard)
        if taken >= 2 and drawn >= 2 and len(live) >= 12 and table.hand.to_act == 0:
            break
    assert taken >= 1
    mine = Counter(e["action"] for e in live if e["seat"] == 0)
    # every draw and take of seat 0 brought it one card it was told of; a buy two (the penalty)
    got = sum(len(e.get("gained", ())) for e in live)
    assert mine["draw"] >= 2
    assert got == mine["draw"] + mine["take"] + 2 * mine["buy"]
    # A pass names the card passed on, and whether it was the up-card offer or a buy declined.
    passes = [e for e in live if e["action"] == "pass"]
    assert all(e["card"] and e["phase"] in ("offer", "buy") for e in passes)
    assert {e["phase"] for e in passes} == {"gin": {"offer"}, "rummy": set(), "crazy": {"buy"}}[
        variant
    ]
    # A Crazy Rummy draw names the card it left on the pile, if any (offered to the others
    # first); in the other games a draw names none.
    named = [e["card"] for e in live if e["action"] == "draw" and "card" in e]
    assert bool(named) == (variant == "crazy")
    assert table.hand_log(0) == live
    again = table.view_message(0, with_hand_log=True)
    assert again["hand_log"] == live


def test_a_table_whose_record_no_longer_replays_is_unknown(tmp_path: Path) -> None:
    """A stored table that fails to replay is logged and treated as unknown, not raised."""
    store = Store(tmp_path / "broken.sqlite3")
    table, _ = Table.create(store, variant="gin", opponents=1, level="random", seed=4)
    while table.computer_to_act() is not None or not table.hand.view(0).legal_actions:
        table.step_computer()
    table.act(0, str(table.hand.view(0).legal_actions[0]), table.seq)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE actions SET action = 'knock AS' WHERE table_id = ?", (table.id,))
    assert TableManager(store).get(table.id) is None


def test_the_page_is_sent_compressed_and_revalidated_but_the_api_is_not(client: TestClient) -> None:
    page = page_module.WEB_DIR / "js" / "main.js"
    response = client.get("/js/main.js", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in response.headers["vary"].lower()
    assert response.content == page.read_bytes()  # httpx undoes the gzip
    assert response.num_bytes_downloaded < page.stat().st_size / 2
    assert response.headers["cache-control"] == "no-cache"
    # The page's files are revalidated: unchanged, the answer is an empty 304.
    again = client.get("/js/main.js", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""
    # A browser that does not accept gzip gets the file as it is.
    plain = client.get("/js/main.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == page.read_bytes()
    # The API (seat tokens next to text the caller chose) is never compressed nor cached.
    api = client.post(
        "/api/tables",
        json={"game": "gin", "opponents": 1, "name": "x" * 2000},
        headers={"Accept-Encoding": "gzip"},
    )
    assert api.status_code in (201, 400)
    assert "content-encoding" not in api.headers
    assert api.headers["cache-control"] == "no-store"
    games = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
    assert len(games.content) > 1024
    assert "content-encoding" not in games.headers


def test_the_page_has_an_icon_and_a_manifest_to_install_it(client: TestClient) -> None:
    """The tab shows the page's own icon, and a phone can put the page on its home screen: the
    manifest names it, starts at the start screen, and its icon is served."""
    page = client.get("/").text
    assert '<link rel="icon" href="/icon.svg" type="image/svg+xml">' in page
    assert '<link rel="manifest" href="/manifest.json">' in page
    manifest = client.get("/manifest.json")
    assert manifest.status_code == 200
    data = manifest.json()
    assert data["short_name"] == "rummykit" and data["start_url"] == "/"
    assert data["display"] == "standalone"
    assert '<link rel="apple-touch-icon" href="/icon-180.png">' in page
    sizes = set()
    for icon in [*data["icons"], {"src": "/icon-180.png", "type": "image/png", "sizes": "180x180"}]:
        served = client.get(icon["src"])
        assert served.status_code == 200
        assert served.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/svg+xml":
            assert served.content.startswith(b"<svg") and b"</svg>" in served.content
        else:  # a PNG of the size it claims (width and height from its header)
            assert served.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = (int.from_bytes(served.content[o : o + 4], "big") for o in (16, 20))
            assert icon["sizes"] == f"{width}x{height}"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes  # what a phone needs to install it


def test_a_game_name_is_stored_as_the_start_screen_names_it(client: TestClient) -> None:
    """Any case and spaces are read, but the table keeps the preset's own name, which the page
    compares its rules with (it once listed the classic preset's rules as house rules)."""
    info = _new_table(client, game=" RUMMY-Classic ", opponents=1)
    assert client.get(f"/api/tables/{info['table']}").json()["variant"] == "rummy-classic"
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        ws.send_json({"t": "hello", "token": info["token"]})
        assert ws.receive_json()["variant"] == "rummy-classic"


def test_a_refused_name_is_marked_so_the_page_can_say_so(client: TestClient) -> None:
    """The start screen words a refused name in the reader's language: the answer names the
    field. Another error names none."""
    body = {"game": "gin", "opponents": 1, "friends": 1}
    answer = client.post("/api/tables", json={**body, "name": "Computer"})
    assert answer.status_code == 400 and answer.json()["field"] == "name"
    assert "choose another name" in answer.json()["error"]
    answer = client.post("/api/tables", json={**body, "opponents": 9, "name": "Lan"})
    assert answer.status_code == 400 and "field" not in answer.json()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (7, "text"),
        ("Lan\u202e", "hidden"),
        ("x" * 25, "long"),
        ("\u200d", "blank"),
        ("a\u0301\u0301\u0301\u0301", "accents"),
        ("Máy", "reserved"),
        ("Lan · Dễ", "dot"),
    ],
)
def test_a_refused_name_says_why_in_one_word_for_the_page(
    client: TestClient, name: object, why: str
) -> None:
    """The page says in one short sentence, in the reader's language, what to change in a name
    (``name.why.<why>`` in its catalogues): the answer names the reason, at a new table and at
    an invitation alike, and the seat stays open."""
    body = {"game": "gin", "opponents": 1, "friends": 1}
    answer = client.post("/api/tables", json={**body, "name": name})
    assert answer.status_code == 400 and answer.json()["why"] == why, answer.text
    info = client.post("/api/tables", json=body).json()
    code = info["invites"][0]["code"]
    url = f"/api/tables/{info['table']}/join"
    answer = client.post(url, json={"code": code, "name": name})
    assert answer.status_code == 400 and answer.json()["why"] == why, answer.text
    assert answer.json()["field"] == "name"
    assert client.get(f"/api/tables/{info['table']}").json()["seats"][1]["joined"] is False
    for lang in ("en", "vi"):
        catalogue = client.get(f"/i18n/{lang}.json").json()
        assert f"name.why.{why}" in catalogue and len(catalogue[f"name.why.{why}"]) < 90


class _Forgets:
    store = SimpleNamespace(shared=False)  # a store of its own: no other process to watch

    def __init__(self) -> None:
        self.forgotten: list[str] = []

    def forget(self, table_id: str) -> None:
        self.forgotten.append(table_id)


class _People:
    id = "t1"

    def human_seats(self) -> list[int]:
        return [0, 1, 2]


class _Page:
    """A page's socket that takes ``slow`` seconds to accept a message."""

    def __init__(self) -> None:
        self.slow = 0.0
        self.got: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        await asyncio.sleep(self.slow)
        self.got.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


async def _settle() -> None:
    """Wait until every other task on this event loop is done (the hub's presence messages and
    closes running in the background): an event to wait for, not a guess at how long they take
    on this machine. A task that never ends fails the test after a minute instead of hanging."""

    caller = asyncio.current_task()

    async def others_done() -> None:
        while others := asyncio.all_tasks() - {caller, asyncio.current_task()}:
            await asyncio.wait(others)

    await asyncio.wait_for(others_done(), 60)


async def _until(done: Callable[[], bool]) -> None:
    """Wait until ``done()`` holds, looking every 10 ms; fail after a minute."""

    async def poll() -> None:
        while not done():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), 60)


def _run_apart(coroutine: Any) -> Any:
    """Run a coroutine on an event loop of its own, in a thread (a test run may already have
    one in its main thread: Playwright's)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_reading_change_while_a_merged_presence_is_sent_is_sent_too() -> None:
    """A change that comes while a merged presence is on its way to a slow page (its state
    already read) gets a message of its own, so the last one says the state as it is; and a
    table whose pages all closed meanwhile is released once the message is out.

    The test waits for events, never a fixed time: on a machine so slow that the merged message
    was not due any more (half a second after the first), it is sent at once and the outcome is
    the same."""

    async def race() -> tuple[list[dict[str, Any]], Hub]:
        hub = Hub(_Forgets(), 0.0)  # type: ignore[arg-type]
        table: Any = _People()
        fast, slow, reader = _Page(), _Page(), _Page()
        for seat, ws in enumerate((fast, slow, reader)):
            hub.join(table.id, seat, ws)  # type: ignore[arg-type]
        await hub.presence(table)  # a page came: at once
        slow.slow = 0.6
        hub.reading.add(reader)  # type: ignore[arg-type]
        await hub.presence(table, merge=True)  # due after the interval
        # Once the fast page has it, the merged presence has read the state and is on its way
        # to the slow page, whose outbox takes 0.6 s over it (this test's wait wakes first: its
        # timer is due before the slow page's).
        await _until(lambda: len(fast.got) == 2)
        hub.reading.discard(reader)
        await hub.presence(table, merge=True)
        await _settle()  # every message sent
        return fast.got, hub

    got, hub = _run_apart(race())
    assert got[-1] == {"t": "presence", "online": [0, 1, 2], "reading": []}
    assert [m["reading"] for m in got] == [[], [2], []] and hub.presence_due == {}

    async def leak() -> Hub:
        hub = Hub(_Forgets(), 0.0)  # type: ignore[arg-type]
        table: Any = _People()
        first, second = _Page(), _Page()
        hub.join(table.id, 0, first)  # type: ignore[arg-type]
        hub.join(table.id, 1, second)  # type: ignore[arg-type]
        await hub.presence(table)
        first.slow = 0.6
        hub.reading.add(second)  # type: ignore[arg-type]
        await hub.presence(table, merge=True)
        # The merged presence leaves the table's due list as it takes the table's lock; the
        # slow page's outbox then takes 0.6 s over it (this test's wait wakes first: its timer
        # is due before the slow page's).
        await _until(lambda: table.id not in hub.presence_due)
        hub.leave(table.id, 1, second)  # type: ignore[arg-type]
        hub.leave(table.id, 0, first)  # type: ignore[arg-type]
        await _settle()
        return hub

    hub = _run_apart(leak())
    manager: Any = hub.manager
    assert manager.forgotten == ["t1"] and hub.locks == {} and hub.sockets == {}
