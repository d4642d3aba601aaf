"""How a hand's result is worded, per game, where ``replay`` and ``demo`` both print it: Gin's
melds, deadwood and score, Basic and Crazy Rummy's table melds, the cards left in hand, and who
went out."""

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
from rummykit.wild_melds import hand_points


def _print_gin_result(out: Console, result: GinHandResult, players: list[str]) -> None:
    if result.outcome is Outcome.CANCELLED:
        out.print("The hand was [bold]cancelled[/] at the wall: nobody scores.")
        return
    for seat in (0, 1):
        role = "knocker" if seat == result.knocker else "defender"
        out.print(
            f"  {escape(players[seat])} ({role}): melds {_melds(result.melds[seat])}, "
            f"deadwood {_cards(result.unmatched[seat])} = {result.deadwood[seat]}"
        )
    if result.layoffs:
        laid = ", ".join(f"{_card(c)} on meld {n}" for c, n in result.layoffs)
        out.print(f"  lay-offs: {laid}")
    winner = _name(players, result.winner)
    bonus = f" (bonus {result.bonus})" if result.bonus else ""
    out.print(
        f"[bold]{result.outcome.value.replace('_', ' ')}[/]: "
        f"[bold]{winner}[/] scores [bold]{result.points}[/] points{bonus}"
    )


def _print_rummy_table(out: Console, hand: RummyState | CrazyState, players: Sequence[str]) -> None:
    """The melds on the table (Basic or Crazy Rummy), numbered as lay-offs name them, with the
    seat that laid each."""
    table: Sequence[TableMeld[Any]] = hand.table
    if not table:
        out.print("Table: no melds")
        return
    out.print("Table:")
    for number, table_meld in enumerate(table, 1):
        owner = _name(players, table_meld.owner)
        out.print(f"  {number}. [{_cards(table_meld.meld.cards)}] laid by {owner}")


def _print_rummy_hands(out: Console, hand: RummyState, players: Sequence[str]) -> None:
    """Every player's cards (sorted) and their value."""
    for seat, player in enumerate(players):
        cards = _sorted(hand.hands[seat])
        value = sum(c.points for c in cards)
        out.print(f"  {escape(player)}: {_cards(cards)} = {value}")


def _print_rummy_result(out: Console, result: RummyHandResult, players: Sequence[str]) -> None:
    if result.outcome is RummyOutcome.STALEMATE:
        out.print("[bold]stalemate[/]: the stock ran out for good, nobody scores.")
        return
    bonus = " (rummy: doubled)" if result.rummy else ""
    out.print(
        f"[bold]out[/]: [bold]{_name(players, result.winner)}[/] goes out and scores "
        f"[bold]{result.points}[/] point{'s' if result.points != 1 else ''}{bonus}"
    )


CRAZY_STOCK_OUT = "[bold]stock out[/]: nobody went out; everyone scores their cards."
"""How a Crazy Rummy round that nobody went out of ends."""


def _print_crazy_hands(out: Console, hand: CrazyState, players: Sequence[str]) -> None:
    """Every player's cards, as they lie, and their points (in Crazy Rummy, points are bad)."""
    out.print("Cards left in hand (points are bad):")
    for seat, player in enumerate(players):
        held = hand.hands[seat]
        out.print(f"  {escape(player)}: {_cards(held)} = {hand_points(held)}")
