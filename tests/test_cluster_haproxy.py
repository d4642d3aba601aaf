"""Three server processes behind HAProxy (``deploy/haproxy.cfg``) on one PostgreSQL database:
50 tables play, the busiest process is killed with SIGKILL, and every table goes on."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from haproxy_server import HAProxy
from live_server import LiveServer
from test_cluster import post
from test_server import _hidden, _replayed_states, _tokens
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from rummykit.server.store import Store

pytestmark = pytest.mark.server

TABLES = 50
TAKE_OVER = 10.0
"""Seconds within which a killed process's tables must move again."""


@dataclass
class Person:
    """One table's person: plays at once whenever it is their turn, through HAProxy, and
    reconnects whenever the socket goes."""

    port: int
    table: str
    token: str
    views: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    connections: int = 0
    errors: list[str] = field(default_factory=list)
    out_of_order: list[tuple[int, int]] = field(default_factory=list)

    def play(self, until: float) -> None:
        last = -1
        while time.monotonic() < until:
            try:
                url = f"ws://127.0.0.1:{self.port}/ws/{self.table}/0"
                with connect(url, open_timeout=3, close_timeout=1) as ws:
                    ws.send(json.dumps({"t": "hello", "token": self.token}))
                    self.connections += 1
                    fresh = True
                    while time.monotonic() < until:
                        try:
                            message = json.loads(ws.recv(timeout=0.5))
                        except TimeoutError:
                            continue
                        if message["t"] == "error":
                            if not (fresh and message.get("code") == "stale"):
                                self.errors.append(str(message))
                            continue
                        if message["t"] != "view":
                            continue
                        seq = message["seq"]
                        if seq < last or (seq == last and not fresh):
                            self.out_of_order.append((last, seq))
                        last, fresh = seq, False
                        self.views.append((time.monotonic(), message))
                        hand = message["view"]["hand"]
                        if hand["phase"] == "hand_over":
                            ws.send(json.dumps({"t": "next_hand", "seq": seq}))
                        elif hand["legal_actions"]:
                            move = hand["legal_actions"][0]
                            ws.send(json.dumps({"t": "action", "action": move, "seq": seq}))
            except (WebSocketException, OSError, TimeoutError):
                time.sleep(0.2)  # (reconnect)

    def last_seq_before(self, moment: float) -> int:
        return max((m["seq"] for t, m in self.views if t <= moment), default=-1)

    def moved_after(self, moment: float, seq: int) -> float | None:
        """When the first view past ``seq`` came after ``moment``."""
        return next((t for t, m in self.views if t > moment and m["seq"] > seq), None)


def test_a_killed_process_s_tables_go_on_behind_haproxy(
    cluster: tuple[list[LiveServer], HAProxy], pg_address: str
) -> None:
    servers, proxy = cluster
    people = []
    for _ in range(TABLES):
        status, made = post(
            f"http://127.0.0.1:{proxy.port}/",
            "/api/tables",
            {"game": "gin", "level": "easy", "options": {"target_score": 500}},
        )
        assert status == 201, made
        people.append(Person(proxy.port, made["table"], made["token"]))
    start = time.monotonic()
    until = start + 6 + TAKE_OVER + 4
    threads = [threading.Thread(target=p.play, args=(until,)) for p in people]
    for thread in threads:
        thread.start()
    try:
        time.sleep(6)
        busiest = max(proxy.stats().items(), key=lambda item: int(item[1]["scur"] or 0))[0]
        victim = servers[int(busiest[3:]) - 1]
        assert int(proxy.stats()[busiest]["scur"]) > 0
        killed = time.monotonic()
        victim.stop(kill=True)  # SIGKILL
    finally:
        for thread in threads:
            thread.join(until - time.monotonic() + 15)
    store = Store(pg_address)
    try:
        reconnected = 0
        for person in people:
            assert not person.errors, person.errors[:3]
            assert not person.out_of_order, person.out_of_order[:3]
            reconnected += person.connections > 1
            before = person.last_seq_before(killed)
            moved = person.moved_after(killed, before)
            assert moved is not None and moved - killed < TAKE_OVER, (person.table, before)
            stored = store.load(person.table)
            assert stored is not None
            by_seq: dict[int, list[dict[str, Any]]] = {}
            for _, message in person.views:
                by_seq.setdefault(message["seq"], []).append(message)
            replayed = -1
            for replayed, match in enumerate(_replayed_states(stored.record)):  # (one object)
                for message in by_seq.pop(replayed, []):  # no card the person could not see
                    shown = {k: v for k, v in message.items() if k != "previous"}
                    leaked = _tokens(shown) & _hidden(match.hand, 0)
                    assert not leaked, (person.table, replayed, sorted(leaked))
            assert not by_seq, f"views past what is stored: {sorted(by_seq)} > {replayed}"
        assert reconnected > 0  # the killed process's pages came back through another one
    finally:
        store.close()
