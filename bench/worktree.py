"""An older commit's tree beside this one, for the benchmarks that compare the two
(``load_ab.py``, ``table_cpu.py``): a git worktree in a temporary folder, removed at the end."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def old_tree(revision: str) -> Iterator[Path]:
    """The source tree of ``revision`` (any git revision), while the ``with`` block runs."""
    with tempfile.TemporaryDirectory(prefix="rummykit-old-") as folder:
        worktree = Path(folder) / "old"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree), revision],
            check=True,
            capture_output=True,
        )
        try:
            yield worktree
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                capture_output=True,
                check=False,
            )
