"""Hypothesis profiles for the suite, and ``examples(n)``, a test's own budget of examples.

``HYPOTHESIS_PROFILE`` picks a profile; with ``CI`` set the default is ``ci``, else ``dev``:

- ``dev``: random exploration, a new draw every run (the failing blob is printed).
- ``ci``: derandomized, so a CI run never depends on luck.
- ``explore`` (``make test-explore``): every property tries ten times its examples.

A test that sets its own number of examples writes ``max_examples=examples(200)``, so that
``explore`` scales it too (a number set on a test overrides the profile's).
"""

from __future__ import annotations

import os

from hypothesis import settings

EXPLORE_FACTOR = 10

settings.register_profile("dev", print_blob=True)
settings.register_profile("ci", derandomize=True, print_blob=True, database=None)
settings.register_profile("explore", max_examples=100 * EXPLORE_FACTOR, print_blob=True)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")


def examples(n: int) -> int:
    """A test's number of examples under the active profile."""
    return n * EXPLORE_FACTOR if PROFILE == "explore" else n
