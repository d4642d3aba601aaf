"""Hypothesis profiles for the suite, and ``examples(n)``, a test's own budget of examples.

``HYPOTHESIS_PROFILE`` picks a profile; with ``CI`` set the default is ``ci``, else ``dev``:

- ``dev``: random exploration, a new draw every run (the failing blob is printed).
- ``ci``: derandomized, so a CI run never depends on luck.
- ``explore`` (``make test-explore``): every property tries ten times its examples.

None of them times an example (no deadline, no "too slow" health check).

A test that sets its own number of examples writes ``max_examples=examples(200)``, so that
``explore`` scales it too (a number set on a test overrides the profile's).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

EXPLORE_FACTOR = 10

# No deadline and no "too slow" health check in any profile: both time each example, and a busy
# machine would fail a correct test by luck (speed is measured in bench/, never in a test).
UNTIMED = settings(
    settings.get_profile("default"),  # (not the profile Hypothesis loads by itself under CI)
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", UNTIMED)
settings.register_profile("ci", UNTIMED, derandomize=True, database=None)
settings.register_profile("explore", UNTIMED, max_examples=100 * EXPLORE_FACTOR)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")


def examples(n: int) -> int:
    """A test's number of examples under the active profile."""
    return n * EXPLORE_FACTOR if PROFILE == "explore" else n
