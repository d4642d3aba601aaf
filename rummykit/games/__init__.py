"""The games rummykit plays, found by name: ``find_game("gin")``."""

from __future__ import annotations

from rummykit.games.base import IllegalActionError, Phase
from rummykit.games.gin import Gin, GinOptions

__all__ = ["GAMES", "Gin", "GinOptions", "IllegalActionError", "Phase", "find_game"]

GAMES: dict[str, type[Gin]] = {"gin": Gin, "gin-rummy": Gin}
"""Every game by name and alias."""


def find_game(name: str) -> type[Gin]:
    """The game class named ``name`` (or an alias); raises ValueError listing the known names."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r} (known: {known})") from None
