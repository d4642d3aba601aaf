"""The suite's own set-up: a missing Chromium is said loudly, never as a quiet "1 skipped"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist"]


def run_browser_tests(chosen: str, **env: str) -> subprocess.CompletedProcess[str]:
    """pytest on the browser tests whose names match ``chosen``, in ``env`` (CI unset unless
    given), with Chromium looked for where ``RUMMYKIT_CHROMIUM`` says."""
    environment = {k: v for k, v in os.environ.items() if k != "CI"} | env
    return subprocess.run(
        [*PYTEST, "tests/browser", "-k", chosen],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_a_missing_chromium_is_said_loudly_at_the_end(tmp_path: Path) -> None:
    chromium = str(tmp_path / "no-chromium")
    run = run_browser_tests(
        "language_switch or sort_order_is_remembered", RUMMYKIT_CHROMIUM=chromium
    )
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert "2 skipped" in out, out
    assert "2 BROWSER TESTS WERE SKIPPED" in out, out
    assert "sudo apt-get install chromium" in out, out


@pytest.mark.slow
def test_under_ci_a_missing_chromium_fails_the_run(tmp_path: Path) -> None:
    run = run_browser_tests(
        "language_switch", CI="true", RUMMYKIT_CHROMIUM=str(tmp_path / "no-chromium")
    )
    assert run.returncode != 0
    assert "chromium is missing" in run.stdout + run.stderr
