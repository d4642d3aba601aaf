"""The package: the engine installs alone, each command says which extra it lacks, one version."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import rummykit

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_the_engine_needs_no_package_and_each_extra_says_what_it_adds() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["dependencies"] == []
    extras = project["optional-dependencies"]
    assert {"cli", "web", "postgres", "bench", "dev", "all"} <= set(extras)
    assert any(d.startswith("typer") for d in extras["cli"])
    assert "rummykit[cli]" in extras["web"] and any(d.startswith("fastapi") for d in extras["web"])
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text("utf-8")


def test_the_version_is_written_once() -> None:
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'version = {attr = "rummykit.__version__"}' in text and rummykit.__version__ not in text
    assert importlib.metadata.version("rummykit") == rummykit.__version__


def test_the_command_without_its_extra_says_in_one_line_which_to_install() -> None:
    done = _run("import sys; sys.modules['typer'] = None\nfrom rummykit.entry import main; main()")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "rummykit: the command line needs the 'cli' extra (typer is not installed):"
        " pip install 'rummykit[cli]' (or 'rummykit[web]' to play in the browser)"
    ]


def test_serve_without_the_web_extra_says_in_one_line_which_to_install() -> None:
    done = _run(
        "import sys; sys.modules['uvicorn'] = None\n"
        "from rummykit.cli import app; app(['serve', '--port', '0'], prog_name='rummykit')"
    )
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'rummykit[web]'" in lines[0], lines
    assert "uvicorn is not installed" in lines[0]


def test_an_error_of_rummykit_s_own_is_not_taken_for_a_missing_extra() -> None:
    done = _run(
        "import sys; sys.modules['rummykit.server.app'] = None\n"
        "from rummykit.cli import app; app(['serve', '--port', '0'], prog_name='rummykit')"
    )
    assert done.returncode != 0 and "rummykit.server.app" in done.stderr
    assert "pip install" not in done.stderr
