"""rummykit's games as OpenSpiel Python games (the ``openspiel`` extra: ``open-spiel>=2``).

Importing this package registers them with ``pyspiel``: ``python_rummykit_gin``,
``python_rummykit_basic`` (parameters ``players``, 2-6, and ``preset``) and
``python_rummykit_crazy`` (one round of Crazy Rummy: ``players``, 2-6, and ``round``, 1-7). Chance deals the cards
one by one, and each draw from a hidden stock (Crazy Rummy: the whole stock after the up-card);
returns are the engine's zero-sum standings. See ``docs/openspiel.md``.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(
        "rummykit.openspiel needs OpenSpiel: pip install 'rummykit[openspiel]'"
    ) from error

from rummykit.openspiel.game import RummykitGame, RummykitObserver, RummykitState, register

__all__ = ["GAMES", "RummykitGame", "RummykitObserver", "RummykitState", "register"]

GAMES: tuple[str, ...] = tuple(register())
"""The names of the games registered with OpenSpiel."""
