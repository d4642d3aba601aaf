"""Browser tests: a real ``rummykit serve`` on 127.0.0.1 and Debian's Chromium, headless.

Playwright (Python) drives ``/usr/bin/chromium`` (never a downloaded browser). The server runs in
a subprocess on a free port with a temporary SQLite file. Screenshots go to ``test-artifacts/``.
The tests skip when Chromium or Playwright is missing on a developer machine; with ``CI`` set
(``.ci/run`` installs both) a missing Chromium is an error instead.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}

if os.environ.get("CI") and not CHROMIUM.exists():  # pragma: no cover - .ci/run installs it
    # In CI a missing browser is a failure, never a quiet skip.
    raise RuntimeError("CI: /usr/bin/chromium is missing (install Debian's chromium)")
playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():  # pragma: no cover - CI installs it
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A ``rummykit serve`` subprocess; ``restart(kill=True)`` kills it with SIGKILL first."""

    db: Path
    port: int
    delay: float = 0.05
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        exe = str(Path(sys.executable).parent / "rummykit")
        args = ["serve", "--port", str(self.port), "--db", str(self.db), "--delay", str(self.delay)]
        self.proc = subprocess.Popen([exe, *args], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}api/games", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("rummykit serve did not start")

    def stop(self, *, kill: bool = False) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def restart(self, *, kill: bool = True) -> None:
        self.stop(kill=kill)
        self.start()

    def games(self) -> list[str]:
        import json

        with urllib.request.urlopen(f"{self.url}api/games", timeout=5) as response:
            data: dict[str, Any] = json.loads(response.read())
        return [g["key"] for g in data["games"]]


def _server(tmp: Path) -> Iterator[Server]:
    server = Server(db=tmp / "tables.sqlite3", port=free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server shared by the tests that do not restart it."""
    yield from _server(tmp_path_factory.mktemp("serve"))


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own, free to be killed and restarted."""
    yield from _server(tmp_path)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    ARTIFACTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """A factory of pages in fresh contexts (language, size, motion); errors on the page fail."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(
        *,
        locale: str = "en-US",
        phone: bool = False,
        reduced_motion: str = "reduce",
        viewport: tuple[int, int] | None = None,
    ) -> Any:
        size: dict[str, Any] = PHONE if phone else DESKTOP
        if viewport is not None:  # (a phone's keeps its touch screen)
            size = {**size, "viewport": {"width": viewport[0], "height": viewport[1]}}
        context = browser.new_context(locale=locale, reduced_motion=reduced_motion, **size)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda m: errors.append(m.text) if _counts(m) else None)
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == [], errors


def _counts(message: Any) -> bool:
    """A console error that is a fault of the page (not a socket dropped by a killed server)."""
    if message.type != "error":
        return False
    text = str(message.text)
    return "WebSocket" not in text and "Failed to load resource" not in text


def save_shot(page: Any, name: str) -> None:
    """Save a screenshot as a test artefact."""
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


@pytest.fixture
def shot() -> Any:
    """``shot(page, name)`` saves a screenshot under ``test-artifacts/``."""
    return save_shot


os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
