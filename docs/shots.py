"""Retake the pictures of the documentation (docs/images/*.png) from a real server.

Run from the top of the checkout, with Debian's Chromium installed:

    python docs/shots.py

It starts ``rummykit serve`` on a free port with a temporary database (as the browser tests do:
tests/live_server.py), drives /usr/bin/chromium through Playwright on fixed deals, so the same
cards come back every run, and writes one small PNG (a palette of 256 colours: png_palette.py)
per state of the page that the manual shows. ``python docs/shots.py gin-hand rules`` retakes two.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
sys.path += [str(ROOT / "docs"), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from live_server import LiveServer  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from png_palette import to_palette  # noqa: E402
from table_helpers import (  # noqa: E402
    act,
    invite_to_gin,
    open_settings,
    play_gin_hand_out,
    start,
    wait_turn,
)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
DESKTOP = {"viewport": {"width": 1100, "height": 720}}
PHONE = {"viewport": {"width": 390, "height": 780}, "has_touch": True, "is_mobile": True}
SHORT_PHONE = {**PHONE, "viewport": {"width": 390, "height": 310}}


def start_screen(page: Any, url: str) -> None:
    """The start screen with its settings unfolded."""
    page.goto(url)
    page.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
    open_settings(page)


def gin_hand(page: Any, url: str) -> None:
    """A Gin hand against the hard computer, its melds marked, after Hint (a deal with two sets)."""
    start(page, url, "Gin Rummy", level="Hard", deal=2)
    wait_turn(page)
    for name in ("Pass", "Stock"):
        button = page.get_by_role("button", name=re.compile(f"^{name}"))
        if button.is_visible() and button.is_enabled():
            act(page, button)
            break
    wait_turn(page)
    page.get_by_role("button", name="Hint").click()
    page.wait_for_timeout(300)


def gin_score(page: Any, url: str) -> None:
    """The score screen of a Gin hand played out (knocking as soon as the hand may)."""
    start(page, url, "Gin Rummy", level="Easy", deal=3)
    play_gin_hand_out(page)
    expect(page.locator("#dlg-result")).to_be_visible()


def rummy_phone(page: Any, url: str) -> None:
    """Basic Rummy on a phone against three computers, a few turns in."""
    start(page, url, "Basic Rummy", opponents="3 opponents", deal=5)
    wait_turn(page)


def crazy_round(page: Any, url: str) -> None:
    """Crazy Rummy against three computers: the round's contract and what the hand lacks."""
    start(page, url, "Crazy Rummy", opponents="3 opponents", deal=2)
    wait_turn(page)
    page.wait_for_timeout(2500)  # (the new round's banner fades)


def rules(page: Any, url: str) -> None:
    """Gin's rules on the page, one tap from the table."""
    start(page, url, "Gin Rummy", deal=1)
    page.get_by_role("button", name="Rules").click()
    page.wait_for_timeout(500)


def invitation(page: Any, url: str) -> None:
    """A friend's phone opening their invitation to An's Gin table (An invites on a desktop)."""
    host = page.context.browser.new_context(locale="en-US", **DESKTOP)
    link = invite_to_gin(host.new_page(), url)
    page.goto(link)
    expect(page.get_by_role("button", name="Take my seat")).to_be_visible()
    host.close()


SHOTS: dict[str, tuple[dict[str, Any], Callable[[Any, str], None]]] = {
    "start": (PHONE, start_screen),
    "gin-hand": (DESKTOP, gin_hand),
    "gin-score": (DESKTOP, gin_score),
    "rummy-phone": (PHONE, rummy_phone),
    "crazy-round": (DESKTOP, crazy_round),
    "rules": (PHONE, rules),
    "invitation": (SHORT_PHONE, invitation),
}


def main(names: list[str]) -> None:
    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(db=Path(tmp) / "tables.sqlite3")
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                for name in names or list(SHOTS):
                    size, take = SHOTS[name]
                    context = browser.new_context(locale="en-US", reduced_motion="reduce", **size)
                    context.set_default_timeout(20_000)
                    page = context.new_page()
                    take(page, server.url.rstrip("/"))
                    path = IMAGES / f"{name}.png"
                    page.screenshot(path=str(path))
                    to_palette(path)
                    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
                    context.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
