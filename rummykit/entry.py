"""The ``rummykit`` command's entry point (and ``python -m rummykit``): the command line when its
packages (the ``cli`` extra: Typer and Rich) are installed, else one line saying how to install
them. The engine itself needs none of them."""

from __future__ import annotations

import sys

CLI_PACKAGES = frozenset({"typer", "rich", "click"})
"""What the command line imports beyond the standard library (Click comes with Typer)."""


def main() -> None:
    """Run the command line, or say which extra to install."""
    try:
        from rummykit.cli import app
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in CLI_PACKAGES:
            raise
        sys.exit(
            f"rummykit: the command line needs the 'cli' extra ({exc.name} is not installed):"
            " pip install 'rummykit[cli]' (or 'rummykit[web]' to play in the browser)"
        )
    app(prog_name="rummykit")
