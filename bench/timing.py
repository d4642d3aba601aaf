"""What the decision-time benchmarks share: the time budgets of issue 5 and the percentile.

Imported by ``decision_time.py``, ``rummy_players.py`` and ``crazy_players.py`` (run as
``python bench/NAME.py``, so this folder is on the import path).
"""

from __future__ import annotations

TARGETS = {"easy": (10.0, None), "medium": (10.0, None), "hard": (100.0, 1000.0)}
"""Per level: (median, 99th percentile) limits in milliseconds; None for no limit."""


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0 to 1) of ``values`` by the nearest-rank method.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 1))
    return ordered[int(rank) - 1]
