"""The documentation site: ``mkdocs build --strict`` passes (a broken link, a page left out of
the navigation or a docstring mkdocstrings cannot read fails it), every page of the navigation is
built, and no built page loads anything from the network."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
NAV_PAGE = re.compile(r"^\s+- (?:[^:\n]+: )?([\w/.-]+\.md)\s*$", re.MULTILINE)
"""A page of mkdocs.yml's navigation: ``  - rules/gin.md`` or ``  - Gin Rummy: rules/gin.md``."""
LOADS = {"script": "src", "img": "src", "link": "href", "source": "src", "iframe": "src"}
"""The tags whose address the browser fetches on its own (an ``<a href>`` is a link to follow)."""


class Fetched(HTMLParser):
    """The addresses a page makes the browser fetch, from its tags and inline styles."""

    def __init__(self) -> None:
        super().__init__()
        self.addresses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if (name := LOADS.get(tag)) and values.get(name):
            self.addresses.append(str(values[name]))
        if tag in ("img", "source") and values.get("srcset"):
            self.addresses += [part.split()[0] for part in str(values["srcset"]).split(",")]
        self.addresses += re.findall(r"url\(['\"]?([^'\")]+)", values.get("style") or "")


def fetched(html: str) -> list[str]:
    parser = Fetched()
    parser.feed(html)
    return parser.addresses


def external(addresses: list[str]) -> list[str]:
    return [a for a in addresses if re.match(r"(?i)(https?:)?//", a)]


def nav_pages() -> list[str]:
    return NAV_PAGE.findall((ROOT / "mkdocs.yml").read_text("utf-8"))


def test_an_external_address_is_found() -> None:
    html = (
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">'
        '<script src="//cdn.example/x.js"></script><img src="images/a.png">'
        '<a href="https://example.org/">a link</a><div style="background: url(http://x/y.png)">'
    )
    assert external(fetched(html)) == [
        "https://fonts.googleapis.com/css?family=Roboto",
        "//cdn.example/x.js",
        "http://x/y.png",
    ]


def test_the_navigation_is_read_from_mkdocs_yml() -> None:
    pages = nav_pages()
    assert pages[0] == "index.md"
    assert {"play.md", "rules/gin.md", "rules/rummy.md", "rules/crazy.md", "cli.md"} <= set(pages)
    assert {"api/rummykit.md", "hosting.md", "scaling.md", "benchmarks.md"} <= set(pages)
    assert len(pages) == len(set(pages))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The site, built strictly into a temporary folder, as ``make test`` and CI build it."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    yield out


@pytest.mark.slow
def test_every_page_of_the_navigation_is_built(site: Path) -> None:
    for page in nav_pages():
        assert (DOCS / page).is_file(), page
        built = site / page.replace(".md", ".html")
        assert built.is_file(), page
        assert "<h1" in built.read_text("utf-8"), page


@pytest.mark.slow
def test_no_page_loads_anything_from_the_network(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= len(nav_pages())
    for page in pages:
        html = page.read_text("utf-8")
        assert external(fetched(html)) == [], page.relative_to(site)
        # Material fetches Mermaid from a CDN when a page holds a diagram: none may
        assert 'class="mermaid"' not in html, page.relative_to(site)
    for sheet in site.rglob("*.css"):
        imported = re.findall(r"@import\s+(?:url\()?['\"]?([^'\");]+)", sheet.read_text("utf-8"))
        assert external(imported) == [], sheet.relative_to(site)
        fonts = re.findall(r"url\(['\"]?((?:https?:)?//[^'\")]+)", sheet.read_text("utf-8"))
        assert fonts == [], sheet.relative_to(site)


@pytest.mark.slow
def test_the_api_pages_show_the_docstrings_with_their_examples(site: Path) -> None:
    """mkdocstrings read the docstrings, and the Griffe extension fenced their doctests."""
    games = (site / "api" / "games.html").read_text("utf-8")
    assert "Gin Rummy for two players" in games
    # a doctest is a highlighted console session: its prompt marked as such
    assert '<span class="gp">&gt;&gt;&gt; </span>' in games
    assert "<p>&gt;&gt;&gt;" not in games
    assert "Could not find cross-reference" not in games


def test_the_cli_page_shows_every_command() -> None:
    from rummykit.cli import app

    commands = [
        c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands
    ]
    page = (DOCS / "cli.md").read_text("utf-8")
    assert len(commands) >= 6
    assert [c for c in commands if f"rummykit {c} " not in page] == []
