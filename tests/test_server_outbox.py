"""A socket that stops reading holds up nobody: each socket's outbox (issue 26).

Messages to a socket wait in its own outbox, sent in order by a task of its own; a socket that
falls behind (its outbox full, or one message slower than the time limit) is closed with 1011 and
forgotten. Checked on the outbox alone, on the hub with stand-in sockets, and on a real server
with a raw socket that says hello and then never reads again while two friends play on.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer
from websockets.sync.client import ClientConnection, connect

from rummykit.server import hub as hub_module
from rummykit.server.hub import REPLACED, SAY_INTERVAL, Hub
from rummykit.server.outbox import FELL_BEHIND, Outbox
from rummykit.server.store import Store
from rummykit.server.tables import TableManager

pytestmark = pytest.mark.server


class _Page:
    """A page's socket as the outbox sees it: it accepts each message once ``gate`` is open,
    or never (``stuck``: its page stopped reading); it never says anything."""

    def __init__(self, *, stuck: bool = False) -> None:
        self.stuck = stuck
        self.gate = asyncio.Event()
        self.gate.set()
        self.got: list[dict[str, Any]] = []
        self.given_up = 0  # sends cancelled before they went out
        self.closed_with: int | None = None

    async def send_text(self, data: str) -> None:
        try:
            await self.gate.wait()
            if self.stuck:
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.given_up += 1
            raise
        self.got.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def _run_apart(coroutine: Any) -> Any:
    """Run a coroutine on an event loop of its own, in a thread (a test run may already have
    one in its main thread: Playwright's)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _until(done: Callable[[], bool]) -> None:
    """Wait until ``done()`` holds, looking every 10 ms (in this task: no other one is
    started); fail after a minute."""
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, "waited a minute"
        await asyncio.sleep(0.01)


def _others() -> set[asyncio.Task[Any]]:
    """The tasks on this loop besides the one running."""
    return asyncio.all_tasks() - {asyncio.current_task()}


# ------------------------------------------------------------------------------- the outbox


def test_an_outbox_sends_in_order_and_never_waits() -> None:
    async def run() -> None:
        page = _Page()
        page.gate.clear()  # the page is busy: nothing goes out yet
        outbox = Outbox(page)
        for n in range(10):
            assert outbox.put({"n": n})  # taken at once, though nothing went out
        assert page.got == []
        page.gate.set()
        await _until(lambda: len(page.got) == 10)
        message = {"n": 10}
        assert outbox.put(message)
        message["n"] = 99  # a message is sent as it was when put
        await _until(lambda: len(page.got) == 11)
        assert [m["n"] for m in page.got] == list(range(11))
        # An idle outbox holds no task.
        await _until(lambda: outbox.task is not None and outbox.task.done())
        assert _others() == set() and len(outbox) == 0 and outbox.code is None

    _run_apart(run())


def test_a_full_outbox_closes_its_socket() -> None:
    async def run() -> None:
        page = _Page(stuck=True)
        outbox = Outbox(page, limit=4, timeout=60)  # no time limit to speak of: the count
        assert outbox.put({"n": 0})
        await _until(lambda: len(outbox) == 0)  # on its way (for ever)
        for n in range(1, 5):
            assert outbox.put({"n": n})
        assert not outbox.put({"n": 5})  # a fifth waiting: this page fell behind
        assert outbox.code == FELL_BEHIND
        await asyncio.wait_for(outbox.closed, 60)
        assert page.closed_with == FELL_BEHIND
        assert page.given_up == 1  # the message on its way was given up at once
        assert not outbox.put({"n": 6})
        await _until(lambda: not _others())  # nothing left running
        assert len(outbox) == 0 and page.got == []

    _run_apart(run())


def test_a_slow_send_closes_the_socket() -> None:
    async def run() -> None:
        page = _Page(stuck=True)
        outbox = Outbox(page, timeout=0.05)
        assert outbox.put({"n": 0}) and outbox.put({"n": 1})
        await asyncio.wait_for(outbox.closed, 60)
        assert page.closed_with == FELL_BEHIND and page.given_up == 1
        assert outbox.code == FELL_BEHIND and len(outbox) == 0
        assert not outbox.put({"n": 2})
        await _until(lambda: not _others())

    _run_apart(run())


def test_the_characters_waiting_are_bounded_too() -> None:
    async def run() -> None:
        page = _Page(stuck=True)
        outbox = Outbox(page, limit_chars=100, timeout=60)
        big = {"x": "a" * 200}
        assert outbox.put(big)
        await _until(lambda: len(outbox) == 0)
        assert outbox.put(big)  # alone in the outbox: taken, however long
        assert not outbox.put({"x": "b"})  # anything more is too much
        await asyncio.wait_for(outbox.closed, 60)
        assert page.closed_with == FELL_BEHIND

    _run_apart(run())


def test_a_stopped_outbox_leaves_nothing_behind() -> None:
    async def run() -> None:
        page = _Page(stuck=True)
        outbox = Outbox(page, timeout=60)
        for n in range(3):
            assert outbox.put({"n": n})
        await _until(lambda: len(outbox) == 2)
        outbox.stop()  # the page closed its socket
        await _until(lambda: not _others())
        assert outbox.task is not None and outbox.task.cancelled()
        assert outbox.closed.done() and len(outbox) == 0
        assert page.closed_with is None  # nothing more is said to a socket that is gone
        assert not outbox.put({"n": 3})

    _run_apart(run())


def test_a_socket_is_not_listened_to_once_its_outbox_closed_it() -> None:
    async def run() -> None:
        page = _Page(stuck=True)
        outbox = Outbox(page, timeout=0.05)
        assert await outbox.read(asyncio.sleep(0, "said")) == "said"
        assert outbox.put({"n": 0})  # never accepted: closed after 0.05 s
        assert await asyncio.wait_for(outbox.read(page.receive()), 60) is None
        assert page.closed_with == FELL_BEHIND and outbox.closed.done()  # the close went out first
        await _until(lambda: not _others())  # the read given up is not left waiting

    _run_apart(run())


async def _answer(said: asyncio.Future[str]) -> str:
    return await said


def test_a_read_is_cut_short_by_the_close_and_by_nothing_else_it_did_not_ask_for() -> None:
    async def run() -> None:
        page = _Page()
        outbox = Outbox(page, timeout=60)
        # A read cut short by the socket being gone ends with None, in the reader's own task.
        reading = asyncio.ensure_future(outbox.read(page.receive()))
        await _until(lambda: outbox._reader is not None)
        outbox.stop()
        assert await asyncio.wait_for(reading, 60) is None
        assert not reading.cancelled() and reading.cancelling() == 0  # nothing left to undo
        # A cancel from elsewhere (the server shutting down) is not swallowed.
        other = Outbox(page, timeout=60)
        reading = asyncio.ensure_future(other.read(page.receive()))
        await _until(lambda: other._reader is not None)
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        # Both at once: the outside cancel still wins.
        third = Outbox(page, timeout=60)
        reading = asyncio.ensure_future(third.read(page.receive()))
        await _until(lambda: third._reader is not None)
        reading.cancel()
        third.close(FELL_BEHIND)
        with pytest.raises(asyncio.CancelledError):
            await reading
        # A message that came in just as the outbox closed is not listened to.
        fourth = Outbox(page, timeout=60)
        said: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        answering = asyncio.ensure_future(fourth.read(_answer(said)))
        await _until(lambda: fourth._reader is not None)
        said.set_result("draw")
        fourth.close(FELL_BEHIND)
        assert await asyncio.wait_for(answering, 60) is None
        assert page.closed_with == FELL_BEHIND
        await _until(lambda: not _others())

    _run_apart(run())


# ------------------------------------------------------------------------------- the hub


def test_a_socket_that_stops_reading_holds_nothing_up_and_is_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "SEND_TIMEOUT", 0.05)
    store = Store(tmp_path / "stuck.sqlite3")
    hub = Hub(TableManager(store), delay=0)

    async def run() -> None:
        stuck, good = _Page(stuck=True), _Page()
        hub.join("t", 0, stuck)  # type: ignore[arg-type]
        hub.join("t", 1, good)  # type: ignore[arg-type]
        view = {"t": "view", "seq": 1}
        # Sending (under the table's lock) only queues: it ends without waiting once.
        sending = hub.send("t", {0: view, 1: view})
        with pytest.raises(StopIteration):
            sending.send(None)
        await _until(lambda: good.got == [view])
        await asyncio.wait_for(hub.outboxes[stuck].closed, 60)  # type: ignore[index]
        assert stuck.closed_with == FELL_BEHIND and stuck.given_up == 1
        # Its socket's handler hears nothing more from it, and its seat gets nothing more.
        assert await asyncio.wait_for(hub.receive(stuck), 60) is None  # type: ignore[arg-type]
        assert not await hub.send_to(stuck, view)  # type: ignore[arg-type]
        await hub.send("t", {0: view, 1: view})
        assert hub.sockets["t"][0] == set()
        await _until(lambda: len(good.got) == 2)
        # The handlers leave: the hub holds nothing for either socket.
        hub.leave("t", 0, stuck)  # type: ignore[arg-type]
        hub.leave("t", 1, good)  # type: ignore[arg-type]
        await _until(lambda: not _others())
        assert hub.outboxes == {} and hub.sockets == {} and hub.locks == {}

    try:
        _run_apart(run())
    finally:
        store.close()


def test_a_replaced_socket_is_closed_with_its_own_code(tmp_path: Path) -> None:
    store = Store(tmp_path / "replaced.sqlite3")
    hub = Hub(TableManager(store), delay=0)

    async def run() -> None:
        old, new = _Page(), _Page()
        old.gate.clear()  # busy: a message waits in its outbox
        hub.join("t", 0, old)  # type: ignore[arg-type]
        await hub.broadcast("t", {"t": "said", "seat": 0, "phrase": "nice"})
        hub.join("t", 0, new)  # type: ignore[arg-type]
        await hub.broadcast("t", {"t": "said", "seat": 0, "phrase": "thanks"})
        old.gate.set()
        await asyncio.wait_for(hub.outboxes[old].closed, 60)  # type: ignore[index]
        assert old.closed_with == REPLACED
        await _until(lambda: len(new.got) == 1)
        assert new.got[0]["phrase"] == "thanks" and new.closed_with is None
        hub.leave("t", 0, old)  # type: ignore[arg-type]
        hub.leave("t", 0, new)  # type: ignore[arg-type]
        await _until(lambda: not _others())
        assert hub.outboxes == {} and hub.sockets == {}

    try:
        _run_apart(run())
    finally:
        store.close()


# ------------------------------------------------------------------------------- a real server

ANSWER = 2.5
"""Seconds an answer may take, however busy the machine (milliseconds on a quiet one). A socket
that does not read used to hold every send to it (under the table's lock) for up to 5 s: the
bound sits between the two, with room for a machine shared by two CI runs."""


def _post(server: LiveServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{server.url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
    return data


class _StalledPage:
    """A raw socket that opens a seat's WebSocket, says hello, reads its welcome and view, and
    then never reads again (a phone asleep with its connection full). Its receive buffer is
    tiny and its segments small, so the server's side fills after some 100 KB."""

    def __init__(self, port: int, path: str, token: str) -> None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        if hasattr(socket, "TCP_MAXSEG"):  # small segments: a small send buffer on the server
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        self.sock = sock
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        sock.sendall(self.frame({"t": "hello", "token": token}))
        assert [self.message()["t"] for _ in range(2)] == ["welcome", "view"]

    @staticmethod
    def frame(message: dict[str, Any]) -> bytes:
        """A masked text frame, as a client sends."""
        payload = json.dumps(message).encode()
        assert len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bytes([0x81, 0x80 | len(payload)]) + mask + masked

    def _more(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        self.buffer += data

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self._more()
        taken, self.buffer = self.buffer[:n], self.buffer[n:]
        return taken

    def next_frame(self) -> tuple[int, bytes]:
        """The next frame from the server: its opcode and payload (EOFError at the end)."""
        first, second = self._take(2)
        length = second & 0x7F
        if length == 126:
            length = int.from_bytes(self._take(2), "big")
        elif length == 127:
            length = int.from_bytes(self._take(8), "big")
        return first & 0x0F, self._take(length)

    def message(self) -> dict[str, Any]:
        opcode, payload = self.next_frame()
        assert opcode == 1, (opcode, payload)
        data: dict[str, Any] = json.loads(payload)
        return data

    def flood(self, stop: threading.Event) -> None:
        """Ask for the view 1000 times a second, until told to stop or the server stops
        reading."""
        batch = self.frame({"t": "view"}) * 10
        self.sock.settimeout(2)
        while not stop.wait(0.01):
            try:
                self.sock.sendall(batch)
            except OSError:
                return

    def close_code(self, timeout: float) -> int | None:
        """Read all the server sent until it closed the connection: the close frame's code, if
        one came (a connection this far behind may be ended without one); fails if the
        server does not close it within ``timeout``."""
        deadline = time.monotonic() + timeout
        code = None
        self.sock.settimeout(1)
        while time.monotonic() < deadline:
            try:
                opcode, payload = self.next_frame()
            except (EOFError, ConnectionResetError):
                return code
            except TimeoutError:
                continue
            if opcode == 8:
                code = int.from_bytes(payload[:2], "big")
        raise AssertionError(f"the server did not close the stalled socket in {timeout} s")


class _Friend:
    """A person's page over a real WebSocket: reads everything, keeps the last view."""

    def __init__(self, server: LiveServer, table: str, seat: int, token: str) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/{table}/{seat}"
        self.seat = seat
        self.ws: ClientConnection = connect(url, open_timeout=10, proxy=None, legacy=True)
        self.ws.send(json.dumps({"t": "hello", "token": token}))
        self.online: list[int] = []
        self.view = self.wait("view")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def wait(
        self, *kinds: str, after: int = -1, seat: int | None = None, timeout: float = 15
    ) -> dict[str, Any]:
        """The next message of one of ``kinds`` (a view past ``after``, a phrase of ``seat``);
        the others are read on the way (the last view and presence kept)."""
        deadline = time.monotonic() + timeout
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(deadline - time.monotonic()))
            if message["t"] == "presence":
                self.online = message["online"]
            if message["t"] == "view":
                self.view = message
            if message["t"] not in kinds or (message["t"] == "view" and message["seq"] <= after):
                continue
            if seat is None or message.get("seat", seat) == seat:
                return message


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "stalled.sqlite3", delay=0.05)
    live.start()
    try:
        yield live
    finally:
        live.stop()


def test_a_page_that_stops_reading_does_not_delay_the_others(server: LiveServer) -> None:
    """Basic Rummy, three people. Seat 0's page says hello and stops reading while it floods
    the server with requests for the view; seats 1 and 2 play (seat 1 moves first), say
    phrases and ask for the view. Every answer comes within :data:`ANSWER`, and the server
    closes seat 0's socket (the others are told it left)."""
    made = _post(server, "api/tables", {"game": "rummy", "opponents": 2, "friends": 2})
    table = made["table"]
    tokens = {0: made["token"]}
    for invite in made["invites"]:
        joined = _post(server, f"api/tables/{table}/join", {"code": invite["code"]})
        tokens[joined["seat"]] = joined["token"]
    stalled = _StalledPage(server.port, f"/ws/{table}/0", tokens[0])
    friends = {seat: _Friend(server, table, seat, tokens[seat]) for seat in (1, 2)}
    stop = threading.Event()
    flooding = threading.Thread(target=stalled.flood, args=(stop,), daemon=True)
    try:
        while friends[1].online != [0, 1, 2]:
            friends[1].wait("presence")
        assert friends[1].view["view"]["hand"]["to_act"] == 1
        flooding.start()
        flooded = time.monotonic()
        dropped = 0.0  # seconds from the flood's start until seat 0 is seen gone
        times: list[tuple[str, float]] = []
        said = {1: -SAY_INTERVAL, 2: -SAY_INTERVAL}
        moves = 0
        deadline = time.monotonic() + 60
        while not (0 not in friends[1].online and moves == 4 and len(times) >= 12):
            assert time.monotonic() < deadline, f"seat 0 was never closed; answers: {times}"
            seat = 1 + len(times) % 2
            me, other = friends[seat], friends[3 - seat]
            hand = me.view["view"]["hand"]
            start = time.monotonic()
            if hand["to_act"] == seat and hand["legal_actions"] and len(times) >= 3 * moves:
                legal = hand["legal_actions"]
                action = next((a for a in legal if a == "draw"), None) or next(
                    a for a in legal if a.startswith("discard")
                )
                seq = me.view["seq"]
                me.send({"t": "action", "action": action, "seq": seq})
                answer = me.wait("view", "error", after=seq)
                assert answer["t"] == "view", answer
                other.wait("view", after=seq)
                what = action.split()[0]
                moves += 1
            elif start - said[seat] > SAY_INTERVAL + 0.1:
                me.send({"t": "say", "phrase": "nice"})
                answer = me.wait("said", "error", seat=seat)
                assert answer["t"] == "said", answer
                other.wait("said", seat=seat)
                said[seat] = time.monotonic()  # (the server heard it before this)
                what = "say"
            else:
                me.send({"t": "view"})
                answer = me.wait("view", "error")
                assert answer["t"] == "view" or answer["code"] == "too_fast", answer
                what = "view"
            times.append((what, round(time.monotonic() - start, 3)))
            assert times[-1][1] < ANSWER, f"an answer took {times[-1][1]} s; answers: {times}"
            if not dropped and 0 not in friends[1].online:
                dropped = time.monotonic() - flooded
            time.sleep(0.05)
        print(f"answers beside a page that does not read: {times}; gone after {dropped:.1f} s")
    finally:
        stop.set()
        for friend in friends.values():
            friend.ws.close()
    flooding.join(30)
    code = stalled.close_code(timeout=30)
    print(f"the stalled socket was closed by the server (close code {code})")
    assert code in (None, FELL_BEHIND)
