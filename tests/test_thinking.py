"""The computer's heavy thinking runs in worker processes and decides exactly as in the server's."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest
from fastapi.testclient import TestClient
from live_server import LiveServer

from rummykit.actions import parse_action
from rummykit.games import find_game
from rummykit.server.app import create_app
from rummykit.server.store import Store
from rummykit.server.tables import Table
from rummykit.server.thinking import Decision, HintWork, Thinker

T = TypeVar("T")


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    one = Thinker(1)
    yield one
    one.close()


def run(thinker: Thinker, work: Callable[[], T], *, heavy: bool) -> T:
    """``thinker.run`` on an event loop of its own, in a thread (a test run may already have one
    in its main thread: Playwright's)."""

    async def go() -> T:
        return await thinker.run(work, heavy=heavy)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, go()).result()


@dataclass(frozen=True)
class DieIfNotIn:
    """Work that kills the worker process running it, and answers only in ``pid`` itself."""

    pid: int

    def __call__(self) -> str:
        if os.getpid() != self.pid:
            os._exit(3)
        return "in the server's process"


def test_heavy_work_runs_in_another_process_and_light_work_in_this_one(thinker: Thinker) -> None:
    before = (thinker.in_processes, thinker.in_threads)
    assert run(thinker, os.getpid, heavy=True) != os.getpid()
    assert run(thinker, os.getpid, heavy=False) == os.getpid()
    assert (thinker.in_processes, thinker.in_threads) == (before[0] + 1, before[1] + 1)
    assert run(Thinker(0), os.getpid, heavy=True) == os.getpid()  # no processes: threads


@pytest.mark.parametrize("game", ["gin", "rummy", "crazy"])
def test_a_hard_decision_and_a_hint_are_the_same_in_a_worker_process(
    thinker: Thinker, game: str
) -> None:
    state = find_game(game).new_hand(seed=11)
    for step in range(12):  # a few positions into the hand
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        decision = Decision(state.game, "hard", 1000 + step, view)
        assert decision.heavy
        chosen = run(thinker, decision, heavy=True)
        assert chosen == decision()
        hint = HintWork(state.game, "hard", step, view, seq=step)
        assert run(thinker, hint, heavy=True) == hint()
        state.apply(chosen, seat)
        if state.is_over:
            break


def test_light_levels_and_fixed_moves_are_not_heavy() -> None:
    state = find_game("crazy").new_hand(seed=2)
    view = state.view(0)
    assert not Decision(state.game, "medium", 1, view).heavy
    assert not Decision(state.game, "hard", 1, view, fixed=parse_action("pass")).heavy
    assert Decision(state.game, "hard", 1, view, fixed=parse_action("pass"))() == parse_action(
        "pass"
    )


def test_a_worker_that_dies_is_replaced_and_its_work_done_in_a_thread() -> None:
    thinker = Thinker(1)
    try:
        assert run(thinker, DieIfNotIn(os.getpid()), heavy=True) == "in the server's process"
        assert thinker.in_threads == 1
        assert run(thinker, os.getpid, heavy=True) != os.getpid()  # a new worker
        assert thinker.in_processes == 1
    finally:
        thinker.close()


def test_the_server_sends_hard_computers_and_hints_to_its_worker_process(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db", delay=0.0, thinkers=1)
    with TestClient(app) as client:
        made = client.post("/api/tables", json={"game": "gin", "level": "hard"}).json()
        with client.websocket_connect(f"/ws/{made['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": made["token"]})
            assert ws.receive_json()["t"] == "welcome"
            view = ws.receive_json()
            while not view["view"]["hand"]["legal_actions"]:  # the computer moves first
                view = ws.receive_json()
            ws.send_json({"t": "hint"})
            hint = ws.receive_json()
            assert hint["t"] == "hint" and hint["seq"] == view["seq"]
            moved = 0
            while moved < 2:  # two moves of the person's, so the computer moved in between
                hand = view["view"]["hand"]
                assert hand["phase"] != "hand_over"
                if hand["legal_actions"]:
                    action = hand["legal_actions"][0]
                    ws.send_json({"t": "action", "action": action, "seq": view["seq"]})
                    moved += 1
                view = ws.receive_json()
                assert view["t"] == "view", view
        thinker = app.state.hub.thinker
        assert thinker.in_processes >= 2  # the hint, then the computer's decisions
        assert thinker.in_threads == 0


def test_a_table_decides_the_same_whatever_runs_its_decisions(tmp_path: Path) -> None:
    """A hard computer's move, decided in a worker process, is the one decided in place."""
    store = Store(tmp_path / "d.db")
    table, _ = Table.create(store, variant="crazy", opponents=3, level="hard", seed=5)
    thinker = Thinker(1)
    try:
        for _ in range(20):
            if table.computer_to_act() is None:
                break
            seat, decision = table.computer_decision()
            action = run(thinker, decision, heavy=decision.heavy)
            assert action == decision()
            table.apply_computer(seat, action)
    finally:
        thinker.close()
        store.close()


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # (gone meanwhile)
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.server
def test_the_worker_processes_end_with_a_server_killed_outright(tmp_path: Path) -> None:
    """A server killed with SIGKILL cannot stop its worker processes: each notices by itself
    that its server is gone and ends (they used to live on as orphans, ~45 MB each)."""
    server = LiveServer(db=tmp_path / "orphans.sqlite3")
    server.start()
    try:
        assert server.proc is not None
        workers: set[int] = set()
        for _ in range(200):  # (started at once by rummykit serve; spawned in a moment)
            workers = {p for p in _children(server.proc.pid) if "spawn_main" in _cmdline(p)}
            if workers:
                break
            time.sleep(0.05)
        assert workers, "the server started no worker process"
        server.proc.kill()
        server.proc.wait(10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.1)
        assert not [p for p in workers if _alive(p)], "worker processes outlived their server"
    finally:
        server.stop()


@pytest.mark.server
def test_the_server_processes_of_workers_end_with_their_supervisor_killed_outright(
    tmp_path: Path,
) -> None:
    """``rummykit serve --workers 2`` killed with SIGKILL: its server processes (and their worker
    processes) end by themselves (they used to serve on, orphans, for ever)."""
    server = LiveServer(db=tmp_path / "supervised.sqlite3", workers=2)
    server.start()
    try:
        assert server.proc is not None
        family: set[int] = set()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            servers = {p for p in _children(server.proc.pid) if "spawn_main" in _cmdline(p)}
            family = servers | {c for p in servers for c in _children(p)}
            if len(servers) == 2 and len(family) >= 4:  # (each server's thinker, spawned late)
                break
            time.sleep(0.05)
        assert len(family) >= 4, f"two servers and their workers, not {family}"
        server.proc.kill()
        server.proc.wait(10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(p) for p in family):
            time.sleep(0.1)
        assert not [p for p in family if _alive(p)], "server processes outlived their supervisor"
    finally:
        server.stop()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""
