"""Computer players, found by game and name: ``find_player("gin", "random", seed=7)``.

Every player sees only a view (:class:`~rummykit.games.base.View`), never the state, and plans by
the table's rules (``find_player(game, name, seed)`` with a game built with house rules, or
``options=``). To add a player, write its class (constructed as ``Cls(seed, options=...)``) and
add one line to :data:`REGISTRY` under the game's canonical name (``Game.name``): every variant and
alias of that game then finds it.

>>> PLAYERS["gin"], PLAYERS["rummy"]
(('random', 'easy', 'medium', 'hard'), ('random', 'easy', 'medium', 'hard'))
>>> find_player("gin-rummy", "random", seed=3)
RandomPlayer(seed=3)
>>> find_player("rummy-classic", "random", seed=4)
RandomPlayer(seed=4)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from rummykit.games import Game, find_game
from rummykit.players.base import NoActionError, Player, RandomPlayer, View
from rummykit.players.crazy import EasyCrazyPlayer, HardCrazyPlayer, MediumCrazyPlayer
from rummykit.players.gin import EasyGinPlayer, HardGinPlayer, MediumGinPlayer
from rummykit.players.rummy import EasyRummyPlayer, HardRummyPlayer, MediumRummyPlayer

__all__ = [
    "PLAYERS",
    "REGISTRY",
    "NoActionError",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "UnknownPlayerError",
    "View",
    "find_player",
    "registered_names",
]


class PlayerFactory(Protocol):
    """Makes a player from a seed (None: seeded from the system) and the table's rules (None:
    the game's standard options)."""

    def __call__(self, seed: int | None = None, /, *, options: Any = None) -> Player:
        """The new player."""
        ...


REGISTRY: dict[str, dict[str, PlayerFactory]] = {
    "gin": {
        "random": RandomPlayer,
        "easy": EasyGinPlayer,
        "medium": MediumGinPlayer,
        "hard": HardGinPlayer,
    },
    "rummy": {
        "random": RandomPlayer,
        "easy": EasyRummyPlayer,
        "medium": MediumRummyPlayer,
        "hard": HardRummyPlayer,
    },
    "crazy": {
        "random": RandomPlayer,
        "easy": EasyCrazyPlayer,
        "medium": MediumCrazyPlayer,
        "hard": HardCrazyPlayer,
    },
}
"""Per game (canonical name: ``find_game(name).name``), every player by name. One line each."""

PLAYERS: dict[str, tuple[str, ...]] = {game: tuple(names) for game, names in REGISTRY.items()}
"""Per game (canonical name), the names :func:`find_player` accepts."""


class UnknownPlayerError(ValueError):
    """A player name that the game does not have; the message lists the valid names."""


def find_player(
    game: str | Game, name: str, seed: int | None = None, *, options: Any = None
) -> Player:
    """A new player called ``name`` for ``game`` (a game, or any name, alias or variant), seeded
    with ``seed``, that plans by the table's rules: ``options`` if given, else the game's own
    (a variant's preset, e.g. ``rummy-classic`` shuffles its restocks).

    The game's canonical name (``find_game(game).name``) picks the players, so ``rummy-classic``
    uses the ``rummy`` players. Raises :class:`UnknownPlayerError` listing the valid names, or
    ValueError for an unknown game.
    """
    found = find_game(game) if isinstance(game, str) else game
    canonical = found.name
    players = REGISTRY.get(canonical, {})
    factory = players.get(name.strip().lower())
    if factory is None:
        valid = ", ".join(players) or "none"
        raise UnknownPlayerError(f"unknown player {name!r} for {canonical} (valid: {valid})")
    return factory(seed, options=found.options if options is None else options)


def registered_names(game: str | Game, names: Iterable[str]) -> tuple[str, ...]:
    """The names players are registered under for ``game``, as given (any case, spaces around):
    what simulations and tournaments report them by. A player class registered under a new name
    may keep its parent's ``name`` (e.g. ``"random"``): two such would be counted as one.
    Raises :class:`UnknownPlayerError` for a name not registered, before anything is played."""
    found = find_game(game) if isinstance(game, str) else game
    checked = []
    for name in names:
        find_player(found, name, 0)
        checked.append(name.strip().lower())
    return tuple(checked)
