"""How a hand's result is worded, per game, where ``replay`` and ``demo`` both print it: Gin's
melds, deadwood and score, Basic and Crazy Rummy's table melds, the cards left in hand, and who
went out. The lines are the ``cli`` section of rummykit's catalogues (:mod:`rummykit.texts`), in
English; the outcome words are the terminal game's (``outcome.knock``, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from rummykit.cli.cards import _card, _cards, _melds, _name, _sorted
from rummykit.games.crazy import CrazyState
from rummykit.games.gin import GinHandResult, Outcome
from rummykit.games.rummy import RummyHandResult, RummyOutcome, RummyState
from rummykit.games.table_meld import TableMeld
from rummykit.terminal_text import say
from rummykit.texts import text
from rummykit.wild_melds import hand_points


def _line(key: str, **params: object) -> str:
    """The ``cli`` catalogue's line ``key``, in English, with ``params`` filled in."""
    return text("en", "cli", key).format(**params)


def _outcome(value: str) -> str:
    """An outcome's word as the terminal game says it (``big gin``), in bold."""
    return f"[bold]{say('en', f'outcome.{value}')}[/]"


def _print_gin_result(out: Console, result: GinHandResult, players: list[str]) -> None:
    if result.outcome is Outcome.CANCELLED:
        out.print(_line("result.cancelled", outcome=_outcome(result.outcome.value)))
        return
    for seat in (0, 1):
        line = _line(
            "result.gin_seat",
            name=escape(players[seat]),
            role=_line("result.knocker" if seat == result.knocker else "result.defender"),
            melds=_melds(result.melds[seat]),
            cards=_cards(result.unmatched[seat]),
            deadwood=result.deadwood[seat],
        )
        out.print(line)
    if result.layoffs:
        laid = ", ".join(_line("result.layoff", card=_card(c), n=n) for c, n in result.layoffs)
        out.print(_line("result.layoffs", layoffs=laid))
    out.print(
        _line(
            "result.gin_scores",
            outcome=_outcome(result.outcome.value),
            name=f"[bold]{_name(players, result.winner)}[/]",
            points=f"[bold]{result.points}[/]",
            bonus=_line("result.bonus", bonus=result.bonus) if result.bonus else "",
        )
    )


def _print_rummy_table(out: Console, hand: RummyState | CrazyState, players: Sequence[str]) -> None:
    """The melds on the table (Basic or Crazy Rummy), numbered as lay-offs name them, with the
    seat that laid each."""
    table: Sequence[TableMeld[Any]] = hand.table
    if not table:
        out.print(_line("result.no_melds"))
        return
    out.print(_line("result.table"))
    for number, table_meld in enumerate(table, 1):
        owner = _name(players, table_meld.owner)
        meld = f"[{_cards(table_meld.meld.cards)}]"
        out.print(_line("result.table_meld", n=number, meld=meld, owner=owner))


def _print_rummy_hands(out: Console, hand: RummyState, players: Sequence[str]) -> None:
    """Every player's cards (sorted) and their value."""
    for seat, player in enumerate(players):
        cards = _sorted(hand.hands[seat])
        value = sum(c.points for c in cards)
        out.print(_line("result.hand", name=escape(player), cards=_cards(cards), points=value))


def _print_rummy_result(out: Console, result: RummyHandResult, players: Sequence[str]) -> None:
    if result.outcome is RummyOutcome.STALEMATE:
        out.print(_line("result.stalemate", outcome=_outcome(result.outcome.value)))
        return
    line = _line(
        "result.out" if result.points == 1 else "result.out_many",
        outcome=_outcome(result.outcome.value),
        name=f"[bold]{_name(players, result.winner)}[/]",
        count=f"[bold]{result.points}[/]",
        doubled=_line("result.doubled") if result.rummy else "",
    )
    out.print(line)


CRAZY_STOCK_OUT = _line("result.stock_out", outcome=_outcome("stock_out"))
"""How a Crazy Rummy round that nobody went out of ends."""


def _print_crazy_hands(out: Console, hand: CrazyState, players: Sequence[str]) -> None:
    """Every player's cards, as they lie, and their points (in Crazy Rummy, points are bad)."""
    out.print(_line("result.crazy_hands"))
    for seat, player in enumerate(players):
        held = hand.hands[seat]
        out.print(
            _line("result.hand", name=escape(player), cards=_cards(held), points=hand_points(held))
        )
