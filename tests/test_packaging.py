"""The package: the engine installs alone, each command says which extra it lacks, one version."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

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


PIP_WHEEL = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]


def test_a_new_gin_hand_needs_no_solver_table() -> None:
    """Gin is ready fast (issue 29: in about OpenSpiel's time, bench/import_time.py): importing
    it and dealing a hand builds none of the solver's tables; its first discard does."""
    done = _run(
        "import sys\nfrom rummykit.games.gin import Gin\nstate = Gin().new_hand(seed=7)\n"
        "print('rummykit.solver.deadwood.tables' in sys.modules)\n"
        "state.apply(state.legal_actions()[-1]); state.apply(state.legal_actions()[-1])\n"
        "state.apply(state.legal_actions()[0]); state.legal_actions()\n"
        "print('rummykit.solver.deadwood.tables' in sys.modules)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


GIN_HAND = """
import random
from rummykit.games.gin import Gin
state, rng = Gin().new_hand(seed=7), random.Random(7)
while not state.is_over:
    state.apply(rng.choice(state.legal_actions()))
print(state.result.outcome.value)
"""


@pytest.mark.slow
def test_the_package_installs_alone_in_a_fresh_environment_and_plays_a_hand(
    tmp_path: Path,
) -> None:
    """The issue's "pip install . installs only rummykit": the wheel built from this tree, put
    in a new virtual environment (offline: it needs nothing), brings no other package, and a
    Gin hand plays to its end from Python."""
    built = subprocess.run(
        [*PIP_WHEEL, "-w", str(tmp_path / "wheel"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheel").glob("rummykit-*.whl")
    venv.create(tmp_path / "env", with_pip=True)
    python = str(tmp_path / "env" / "bin" / "python")
    before = _packages(python)
    installed = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    assert _packages(python) - before == {"rummykit"}
    played = subprocess.run(
        [python, "-c", GIN_HAND], capture_output=True, text=True, timeout=60, check=False
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout.strip() in {"knock", "undercut", "gin", "big_gin", "cancelled"}


def _packages(python: str) -> set[str]:
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return {line.split("==")[0].lower() for line in listed.stdout.split()}
