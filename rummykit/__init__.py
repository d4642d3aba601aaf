"""rummykit: Basic Rummy, Gin Rummy and Crazy Rummy as a fast, exact rules engine.

The names most programs need are here, loaded on first use (so ``import rummykit`` and
``rummykit --version`` stay instant):

>>> import rummykit
>>> state = rummykit.find_game("gin").new_hand(seed=7)
>>> state.apply(rummykit.parse_action("pass"))
>>> rummykit.min_deadwood(rummykit.parse_natural_cards("7H 7D 7C 8S 9S TS 2C"))
2

Games and rules: :func:`find_game`, :data:`GAMES`, :class:`Gin`, :class:`Rummy`, :class:`Crazy`
and their options, :class:`Phase`, :class:`IllegalActionError`. Cards and actions:
:class:`Card`, :func:`parse_card`, :func:`parse_cards`, :func:`parse_natural_cards` (no jokers:
what the Gin solver takes), :func:`parse_action`. Records:
:func:`load_record`, :func:`read_record`, :func:`write_record`, :func:`hand_record`,
:func:`match_record`, :class:`RecordError`. Computer players: :func:`find_player`. The meld
solver: :func:`min_deadwood`, :func:`best_discards`, :func:`best_arrangement`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_HOMES = {
    "rummykit.games": (
        "GAMES",
        "Crazy",
        "CrazyOptions",
        "Gin",
        "GinOptions",
        "IllegalActionError",
        "Phase",
        "Rummy",
        "RummyOptions",
        "find_game",
    ),
    "rummykit.cards": ("Card", "parse_card", "parse_cards", "parse_natural_cards"),
    "rummykit.actions": ("ActionSyntaxError", "parse_action"),
    "rummykit.record": (
        "RecordError",
        "hand_record",
        "load_record",
        "match_record",
        "read_record",
        "write_record",
    ),
    "rummykit.players": ("find_player",),
    "rummykit.solver.deadwood": ("best_arrangement", "best_discards", "min_deadwood"),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "GAMES",
    "ActionSyntaxError",
    "Card",
    "Crazy",
    "CrazyOptions",
    "Gin",
    "GinOptions",
    "IllegalActionError",
    "Phase",
    "RecordError",
    "Rummy",
    "RummyOptions",
    "__version__",
    "best_arrangement",
    "best_discards",
    "find_game",
    "find_player",
    "hand_record",
    "load_record",
    "match_record",
    "min_deadwood",
    "parse_action",
    "parse_card",
    "parse_cards",
    "parse_natural_cards",
    "read_record",
    "write_record",
]

if TYPE_CHECKING:
    from rummykit.actions import ActionSyntaxError, parse_action
    from rummykit.cards import Card, parse_card, parse_cards, parse_natural_cards
    from rummykit.games import (
        GAMES,
        Crazy,
        CrazyOptions,
        Gin,
        GinOptions,
        IllegalActionError,
        Phase,
        Rummy,
        RummyOptions,
        find_game,
    )
    from rummykit.players import find_player
    from rummykit.record import (
        RecordError,
        hand_record,
        load_record,
        match_record,
        read_record,
        write_record,
    )
    from rummykit.solver.deadwood import best_arrangement, best_discards, min_deadwood


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'rummykit' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # found once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
