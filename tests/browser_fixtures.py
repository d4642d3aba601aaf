"""Fixtures of the browser tests (``tests/browser``): a real ``rummykit serve`` on 127.0.0.1
and Debian's Chromium, headless. Loaded by ``tests/conftest.py`` as a plugin.

Playwright (Python) drives ``/usr/bin/chromium`` (never a downloaded browser). The server runs in
a subprocess on a port it picks itself (``live_server``) with a temporary SQLite file.
Screenshots go to ``test-artifacts/`` at the top of the checkout. Every test in
``tests/browser`` is marked ``browser``. On a developer machine without Chromium each test is
skipped, and the run ends by saying so loudly with the command that installs it; with ``CI`` set
(``.ci/run`` installs it) a missing Chromium is an error instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer
from playwright import sync_api as playwright_api

# Debian's Chromium; RUMMYKIT_CHROMIUM names another path (the suite's own test of a missing one)
CHROMIUM = Path(os.environ.get("RUMMYKIT_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
MISSING = f"Debian's Chromium is not installed ({CHROMIUM})"
INSTALL = "sudo apt-get install chromium"

if os.environ.get("CI") and not CHROMIUM.exists():  # pragma: no cover - .ci/run installs it
    # In CI a missing browser is a failure, never a quiet skip.
    raise RuntimeError(f"CI: {CHROMIUM} is missing (install Debian's chromium)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in ``tests/browser`` is a browser test (``-m "not browser"`` leaves them out)."""
    here = Path(__file__).parent / "browser"
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Skipped browser tests are said loudly at the end, with the command that installs Chromium."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if MISSING in str(r.longrepr)]
    if skipped:
        terminalreporter.write_sep("!", f"{len(skipped)} BROWSER TESTS WERE SKIPPED", red=True)
        terminalreporter.write_line(f"{MISSING}. Install it, then run make test again:")
        terminalreporter.write_line(f"    {INSTALL}", bold=True)


def _server(tmp: Path) -> Iterator[LiveServer]:
    server = LiveServer(db=tmp / "tables.sqlite3")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server shared by the tests that do not restart it."""
    yield from _server(tmp_path_factory.mktemp("serve"))


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of the test's own, free to be killed and restarted."""
    yield from _server(tmp_path)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():  # pragma: no cover - CI installs it
        pytest.skip(MISSING)
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
        ignore_https_errors: bool = False,
    ) -> Any:
        size: dict[str, Any] = PHONE if phone else DESKTOP
        if viewport is not None:  # (a phone's keeps its touch screen)
            size = {**size, "viewport": {"width": viewport[0], "height": viewport[1]}}
        if ignore_https_errors:  # (a server of the tests' own self-signed certificate)
            size = {**size, "ignore_https_errors": True}
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
