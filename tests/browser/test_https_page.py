"""The page over HTTPS (``rummykit serve --certfile F --keyfile F``, a self-signed certificate
for 127.0.0.1 that the browser is told to accept): it loads without an error, its socket is
WSS, a game against the computer plays, and an invitation link is an https:// link a friend
can join by."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from live_server import LiveServer, self_signed
from playwright.sync_api import expect
from table_helpers import cards, hand, invite_to_gin, start, take_the_seat


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("https")
    cert, key = self_signed(folder)
    server = LiveServer(db=folder / "tables.sqlite3", certfile=cert, keyfile=key)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_game_against_the_computer_plays_over_https_and_wss(
    tls_server: LiveServer, new_page: Any
) -> None:
    page = new_page(ignore_https_errors=True)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    start(page, tls_server.url, "Gin Rummy")  # (returns once the hand of a view shows)
    assert page.evaluate("location.protocol") == "https:"
    assert len(cards(page)) >= 10  # (Gin's ten or eleven: the first view came over the socket)
    assert sockets, "no socket opened"
    table = f"wss://127.0.0.1:{tls_server.port}/ws/"
    assert all(url.startswith(table) for url in sockets), sockets


def test_an_invitation_made_over_https_is_an_https_link(
    tls_server: LiveServer, new_page: Any
) -> None:
    host = new_page(ignore_https_errors=True)
    link = invite_to_gin(host, tls_server.url)
    assert link.startswith(f"https://127.0.0.1:{tls_server.port}/#join="), link
    friend = new_page(ignore_https_errors=True)
    take_the_seat(host, friend, link)
    expect(hand(friend).get_by_role("button").first).to_be_visible()
    assert friend.evaluate("location.protocol") == "https:"
