"""Cards, melds and player names in Rich markup, as every command prints them (hearts and
diamonds in red, jokers in magenta, names escaped)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from rummykit.cards import AnyCard, Card


def _card(card: AnyCard) -> str:
    if not isinstance(card, Card):
        return f"[bold magenta]{card.symbol}[/]"
    colour = "red" if card.suit.is_red else "default"
    return f"[bold {colour}]{card.symbol}[/]"


def _cards(cards: Any) -> str:
    return " ".join(_card(c) for c in cards) or "-"


def _melds(melds: Any) -> str:
    return "  ".join(f"[{_cards(m.cards)}]" for m in melds) or "-"


def _sorted(cards: Any) -> list[Card]:
    return sorted(cards, key=lambda c: c.index)


def _name(players: Sequence[str], seat: int | None) -> str:
    return "-" if seat is None else escape(players[seat])


def _names(players: Sequence[str], seats: Sequence[int]) -> str:
    names = [_name(players, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
