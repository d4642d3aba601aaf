"""Seeds: checked, made into the game's random generator, and derived for each hand of a match."""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

__all__ = [
    "check_seed",
    "derive_seed",
    "new_rng",
]


def check_seed(seed: object) -> int | None:
    """``seed`` as an int (any integer type, e.g. NumPy's), or None; anything else (a bool, a
    float, text) raises ValueError, so that every seed a game accepts can be saved in a record.

    >>> check_seed(7), check_seed(None)
    (7, None)
    >>> check_seed("7")
    Traceback (most recent call last):
    ValueError: seed must be a whole number or None, not '7'
    """
    if seed is None:
        return None
    if not isinstance(seed, bool):
        try:
            return operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"seed must be a whole number or None, not {seed!r}")


def new_rng(seed: int | None) -> random.Random:
    """The game's one random generator: seeded for reproducible games."""
    return random.Random(seed)


def derive_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a match seeded with ``seed`` (stable across versions)."""
    return (seed * 1_000_003 + index * 7_919 + 1) % (1 << 62)
