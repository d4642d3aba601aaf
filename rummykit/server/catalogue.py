"""The games the server offers (``GET /api/games``): each game's presets, table sizes, computer
levels and options, and the options' server caps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rummykit.games import GAMES, find_game
from rummykit.games.options import OptionSpec
from rummykit.players import PLAYERS

__all__ = [
    "MAIN_OPTIONS",
    "SERVER_CAPS",
    "VARIANTS",
    "GameInfo",
    "check_server_caps",
    "game_catalogue",
    "levels_for",
]

VARIANTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("gin", "gin", ()),
    ("rummy", "rummy", ("rummy", "rummy-classic")),
    ("crazy", "crazy", ()),
)
"""The games the start screen offers: (key, default variant, presets). A game whose name
``find_game`` does not know yet is left out."""

MAIN_OPTIONS: dict[str, tuple[str, ...]] = {
    "gin": ("target_score", "knock_limit"),
    "rummy": ("target_score",),
    "crazy": (),
}
"""Per game, the options the start screen lets a person set."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the start screen needs to know about one game."""

    key: str
    presets: tuple[str, ...]
    min_players: int
    max_players: int
    default_players: int
    levels: tuple[str, ...]
    options: dict[str, Any]
    main_options: tuple[str, ...]
    specs: tuple[dict[str, Any], ...] = ()
    """Every option of the game: name, kind and values (:class:`OptionSpec`), for the house
    rules on the start screen."""
    preset_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each preset's options (``options`` are the first preset's)."""

    def to_dict(self) -> dict[str, Any]:
        """As JSON data."""
        return {
            "key": self.key,
            "presets": list(self.presets),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players,
            "levels": list(self.levels),
            "options": self.options,
            "main_options": list(self.main_options),
            "specs": list(self.specs),
            "preset_options": self.preset_options,
        }


def levels_for(game: str) -> tuple[str, ...]:
    """The computer levels ``find_player`` offers for ``game`` (the random player at least)."""
    canonical = find_game(game).name
    return PLAYERS.get(canonical) or ("random",)


SERVER_CAPS: Mapping[str, int] = {"target_score": 1_000, "max_restocks": 20, "restock_limit": 20}
"""Options a table on the server may set less far than the engine allows, so that every match
ends (a target of at most 1,000 points; a hand's stock made again at most 20 times, never
without end): a record stays short enough to replay at once, and nobody can make one that
never stops growing."""


def server_spec(spec: OptionSpec) -> OptionSpec:
    """``spec`` as the server offers it (see :data:`SERVER_CAPS`)."""
    cap = SERVER_CAPS.get(spec.name)
    if cap is None or spec.kind != "int":
        return spec
    return replace(spec, high=min(spec.high, cap), none=None)


def check_server_caps(options: Mapping[str, Any]) -> None:
    """Raise ValueError for an option beyond what the server allows (:data:`SERVER_CAPS`)."""
    for name, cap in SERVER_CAPS.items():
        if name not in options:
            continue
        value = options[name]  # (an unlimited one reads as a word, or None)
        if not isinstance(value, int) or value > cap:
            raise ValueError(f"{name} is at most {cap} at a table on this server")


def game_catalogue() -> list[GameInfo]:
    """Every game the server can seat, for ``GET /api/games``."""
    out = []
    for key, variant, presets in VARIANTS:
        if variant not in GAMES:
            continue
        game = find_game(variant)
        default = 4 if game.name == "crazy" else 2
        out.append(
            GameInfo(
                key=key,
                presets=presets,
                min_players=game.min_players,
                max_players=game.max_players,
                default_players=max(game.min_players, min(default, game.max_players)),
                levels=levels_for(variant),
                options=game.options.to_dict(),
                main_options=MAIN_OPTIONS.get(key, ()),
                specs=tuple(server_spec(spec).to_dict() for spec in type(game.options).SPECS),
                preset_options={p: find_game(p).options.to_dict() for p in presets},
            )
        )
    return out
