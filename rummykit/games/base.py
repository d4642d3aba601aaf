"""The vocabulary every game shares: phases, the illegal-action error, and seeded dealing."""

from __future__ import annotations

import random
from enum import StrEnum

__all__ = ["IllegalActionError", "Phase", "derive_seed", "new_rng"]


class IllegalActionError(ValueError):
    """An action that is not legal now. The message is meant for the player; nothing changed."""


class Phase(StrEnum):
    """Where a hand stands. Every state names its phase explicitly."""

    OFFER = "offer"
    """The first up-card is offered (Gin: non-dealer, then dealer): take or pass."""
    DRAW = "draw"
    """The player to act must draw from the stock or the discard pile."""
    DISCARD = "discard"
    """The player to act has drawn and must discard (or knock, meld, lay off...)."""
    LAYOFF = "layoff"
    """Gin: after a knock the defender lays off cards, then says done."""
    HAND_OVER = "hand_over"
    """The hand is over and scored; no more actions."""


def new_rng(seed: int | None) -> random.Random:
    """The game's one random generator: seeded for reproducible games."""
    return random.Random(seed)


def derive_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a match seeded with ``seed`` (stable across versions)."""
    return (seed * 1_000_003 + index * 7_919 + 1) % (1 << 62)
