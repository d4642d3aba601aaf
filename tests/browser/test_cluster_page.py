"""A page playing through HAProxy in front of three servers: when its server is killed, the page
reconnects by itself to another one and the game goes on where it was."""

from __future__ import annotations

import time
from typing import Any

import pytest
from haproxy_server import HAProxy
from live_server import LiveServer
from playwright.sync_api import expect
from table_helpers import cards, gin_simple_move, seq, start, wait_turn

pytestmark = pytest.mark.server


def serving(proxy: HAProxy) -> str:
    """The server that holds the page's socket: the one HAProxy says serves a session, the same
    in five looks in a row (the page's other requests are over by then)."""
    seen: list[list[str]] = []
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        busy = sorted(name for name, row in proxy.stats().items() if int(row["scur"] or 0) > 0)
        seen.append(busy)
        if len(seen) >= 5 and all(b == busy and len(busy) == 1 for b in seen[-5:]):
            return busy[0]
        time.sleep(0.1)
    raise AssertionError(f"no one server held the page's socket: {seen[-5:]}")


def test_a_page_behind_haproxy_goes_on_when_its_server_is_killed(
    cluster: tuple[list[LiveServer], HAProxy], new_page: Any
) -> None:
    servers, proxy = cluster
    page = new_page()
    start(page, f"http://127.0.0.1:{proxy.port}/", "Gin Rummy")
    for _ in range(3):
        gin_simple_move(page)
    wait_turn(page)
    before = [c["name"] for c in cards(page)]
    before_seq = seq(page)
    page.evaluate("() => { window.__oldWelcome = window.rummykit.state.welcome; }")
    victim = servers[int(serving(proxy)[3:]) - 1]
    victim.stop(kill=True)  # SIGKILL
    # The page reconnects by itself (through HAProxy, to another server) and shows the same hand.
    page.wait_for_function(
        "s => window.rummykit.state.welcome !== window.__oldWelcome"
        " && Number(document.querySelector('#table').dataset.seq) === s"
        " && document.querySelector('#conn').hidden",
        arg=before_seq,
        timeout=20_000,
    )
    assert [c["name"] for c in cards(page)] == before
    # And the game goes on: the person moves, the computer answers from another server (once
    # the killed one's lease has expired).
    for _ in range(2):
        gin_simple_move(page)
    expect(page.locator("#conn")).to_be_hidden()
    assert seq(page) > before_seq + 1
