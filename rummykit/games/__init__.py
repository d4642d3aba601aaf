"""The games rummykit plays, found by name: ``find_game("gin")``, ``find_game("rummy-classic")``.

>>> find_game("rummy-classic", {"rummy_bonus": True}).options.melds_per_turn is None
True
>>> sorted(GAMES)
['basic-rummy', 'crazy', 'crazy-rummy', 'gin', 'gin-rummy', 'rummy', 'rummy-classic']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal, overload

from rummykit.games.base import Game, IllegalActionError, Phase

if TYPE_CHECKING:
    from rummykit.games.crazy import Crazy, CrazyOptions
    from rummykit.games.gin import Gin, GinOptions
    from rummykit.games.rummy import Rummy, RummyOptions

_MODULES = {
    "Crazy": "crazy",
    "CrazyOptions": "crazy",
    "Gin": "gin",
    "GinOptions": "gin",
    "Rummy": "rummy",
    "RummyOptions": "rummy",
}
"""Each game's module is imported when the game is first asked for: a program that plays Gin
never builds Crazy Rummy's contract solver."""


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"rummykit.games.{module}"), name)


__all__ = [
    "GAMES",
    "Crazy",
    "CrazyOptions",
    "Game",
    "Gin",
    "GinOptions",
    "IllegalActionError",
    "Phase",
    "Rummy",
    "RummyOptions",
    "find_game",
]

GameFactory = Callable[[Mapping[str, Any] | None], Game]
"""Makes a game from options given as JSON data (missing options take the variant's defaults)."""


def _gin(options: Mapping[str, Any] | None) -> Game:
    from rummykit.games.gin import Gin

    return Gin.from_options(options)


def _rummy(preset: str) -> GameFactory:
    def make(options: Mapping[str, Any] | None) -> Game:
        from rummykit.games.rummy import Rummy

        return Rummy.from_options(options, preset)

    return make


def _crazy(options: Mapping[str, Any] | None) -> Game:
    from rummykit.games.crazy import Crazy

    return Crazy.from_options(options)


GAMES: dict[str, GameFactory] = {
    "gin": _gin,
    "gin-rummy": _gin,
    "rummy": _rummy("rummy"),
    "basic-rummy": _rummy("rummy"),
    "rummy-classic": _rummy("rummy-classic"),
    "crazy": _crazy,
    "crazy-rummy": _crazy,
}
"""Every game variant by name and alias."""


@overload
def find_game(
    name: Literal["gin", "gin-rummy"], options: Mapping[str, Any] | None = None
) -> Gin: ...
@overload
def find_game(
    name: Literal["rummy", "basic-rummy", "rummy-classic"], options: Mapping[str, Any] | None = None
) -> Rummy: ...
@overload
def find_game(
    name: Literal["crazy", "crazy-rummy"], options: Mapping[str, Any] | None = None
) -> Crazy: ...
@overload
def find_game(name: str, options: Mapping[str, Any] | None = None) -> Game: ...
def find_game(name: str, options: Mapping[str, Any] | None = None) -> Game:
    """The game (variant) called ``name``, with ``options`` overriding its defaults.

    Raises ValueError listing the known names, or naming a bad option. A name written out (e.g.
    ``find_game("gin")``) gives a type checker the game's own class, and so its hands' states
    (``GinState``: ``state.hands``, ``state.result.points``...).
    """
    if not isinstance(name, str):
        raise ValueError("a game name is a string")
    try:
        factory = GAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r} (known: {known})") from None
    return factory(options)
