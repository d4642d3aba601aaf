"""A record as ``replay`` and ``review`` read it: its hands (and match), its seats, the players'
names it gives, and a row of data per hand with the running totals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rummykit.games.base import HandState
from rummykit.games.match import Match
from rummykit.record import is_match, parse_json


def _split(replayed: HandState | Match) -> tuple[list[HandState], Match | None]:
    """Every hand of a replayed record, and the match if it is one."""
    if is_match(replayed):
        return list(replayed.hands), replayed
    return [cast(HandState, replayed)], None


def _seats(hand: HandState) -> int:
    return len(hand.deal.hands)


def _record_players(text: str, seats: int) -> list[str]:
    try:
        players = parse_json(text).get("players")
    except (ValueError, AttributeError):
        players = None
    if (
        isinstance(players, list)
        and len(players) == seats
        and all(isinstance(p, str) for p in players)
    ):
        return players
    return [f"player {seat + 1}" for seat in range(seats)]


def _hand_rows(hands: Sequence[HandState]) -> list[dict[str, Any]]:
    """Per hand: number, dealer, actions, result and the running totals (from ``scores``)."""
    rows: list[dict[str, Any]] = []
    totals = [0] * _seats(hands[0])
    for number, hand in enumerate(hands, 1):
        result = hand.result
        if result is not None:
            for seat, points in enumerate(result.scores):
                totals[seat] += points
        rows.append(
            {
                "hand": number,
                "dealer": hand.dealer,
                "phase": hand.phase.value,
                "actions": len(hand.history),
                "result": None if result is None else result.to_dict(),
                "totals": list(totals),
            }
        )
    return rows
