"""A replay printed as text: the table of hands every game shares, then per game (Gin, Basic
Rummy, Crazy Rummy) the final state, the hand's result and the match's."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rummykit.cli.cards import _cards, _name, _names
from rummykit.cli.common import _out
from rummykit.cli.records import _hand_rows, _split
from rummykit.cli.results import (
    CRAZY_STOCK_OUT,
    _print_crazy_hands,
    _print_gin_result,
    _print_rummy_hands,
    _print_rummy_result,
    _print_rummy_table,
)
from rummykit.games.base import HandState
from rummykit.games.crazy import CrazyMatch, CrazyState
from rummykit.games.gin import GinMatch, GinState, Outcome
from rummykit.games.match import Match
from rummykit.games.rummy import RummyMatch, RummyState


def _hands_table(
    hands: Sequence[HandState],
    players: Sequence[str],
    extra: Mapping[str, Sequence[str]] | None = None,
    *,
    winner_points: bool = True,
) -> Table:
    """One row a hand: dealer, actions, outcome, winner, the winner's points (unless
    ``winner_points`` is false: in Crazy Rummy the winner scores nothing), ``extra`` columns,
    running totals."""
    extra = extra or {}
    table = Table(title="Hands")
    points_column = ("points",) if winner_points else ()
    for column in ("#", "dealer", "actions", "outcome", "winner", *points_column, *extra):
        table.add_column(
            column,
            justify="right" if column in ("#", "actions", "points") else "left",
            no_wrap=column in ("outcome", "contract"),  # short words, read whole
        )
    for player in players:
        table.add_column(escape(player), justify="right")
    for index, (row, hand) in enumerate(zip(_hand_rows(hands), hands, strict=True)):
        result = hand.result
        more = [values[index] for values in extra.values()]
        if result is None:
            cells = [f"in play ({hand.phase.value})", "-", "-", *more]
        elif result.winner is None:
            cells = [result.outcome.value, "-", "0", *more]
        else:
            points = result.scores[result.winner]
            cells = [result.outcome.value, _name(players, result.winner), str(points), *more]
        if not winner_points:
            del cells[2]
        table.add_row(
            str(row["hand"]),
            _name(players, hand.dealer),
            str(row["actions"]),
            *cells,
            *(str(t) for t in row["totals"]),
        )
    return table


def _print_replay(replayed: HandState | Match, players: list[str]) -> None:
    out = _out()
    hands, match = _split(replayed)
    last = hands[-1]
    kind = "match" if match is not None else "hand"
    joiner = " v " if len(players) == 2 else ", "
    seats = joiner.join(f"{escape(p)} (seat {seat})" for seat, p in enumerate(players))
    count = f"{len(hands)} hand{'s' if len(hands) != 1 else ''}"
    out.print(
        f"[bold]{last.game.name}[/] {kind}: {seats}{',' if len(players) == 2 else ';'} {count}"
    )
    if isinstance(replayed, GinState | GinMatch):
        _print_gin_replay(out, replayed, players)
    elif isinstance(replayed, RummyState | RummyMatch):
        _print_rummy_replay(out, replayed, players)
    elif isinstance(replayed, CrazyState | CrazyMatch):
        _print_crazy_replay(out, replayed, players)
    else:  # pragma: no cover - every game has its own printing; this is the fallback
        out.print(_hands_table(hands, players))


# --------------------------------------------------------------------------- replay: Gin


def _print_gin_replay(out: Console, replayed: GinState | GinMatch, players: list[str]) -> None:
    hands = replayed.hands if isinstance(replayed, GinMatch) else [replayed]
    deadwood = [
        "-" if h.result is None else f"{h.result.deadwood[0]} / {h.result.deadwood[1]}"
        for h in hands
    ]
    out.print(_hands_table(hands, players, {"deadwood": deadwood}))
    _print_gin_final_state(out, hands[-1], players)
    if isinstance(replayed, GinMatch):
        _print_gin_match(out, replayed, players)


def _print_gin_match(out: Console, match: GinMatch, players: list[str]) -> None:
    result = match.result
    if result is None:
        scores = match.scores()
        out.print(
            f"Match in progress: {scores[0]} - {scores[1]} (to {match.game.options.target_score})"
        )
        return
    summary = Table(title=f"Match won by {escape(players[result.winner])}")
    summary.add_column("")
    for seat in (0, 1):
        summary.add_column(escape(players[seat]), justify="right")
    for label, values in (
        ("hand points", result.hand_points),
        ("boxes (hands won)", result.boxes),
        ("game bonus", result.game_bonus),
        ("box bonus", result.box_bonus),
    ):
        summary.add_row(label, str(values[0]), str(values[1]))
    if result.shutout:
        summary.add_row("shutout", *("x2" if s == result.winner else "" for s in (0, 1)))
    summary.add_row("[bold]total[/]", *(f"[bold]{t}[/]" for t in result.totals))
    out.print(summary)


def _print_gin_final_state(out: Console, hand: GinState, players: list[str]) -> None:
    """The last hand: its phase, the cards where they lie, and its result once scored."""
    to_act = "" if hand.to_act is None else f", {_name(players, hand.to_act)} to act"
    out.print(
        f"Final state: [bold]{hand.phase.value}[/]{to_act}; stock {len(hand.stock)}, "
        f"discard pile top {_cards(hand.discard_pile[-1:])}"
    )
    if hand.result is None or hand.result.outcome is Outcome.CANCELLED:
        for seat in (0, 1):
            out.print(f"  {escape(players[seat])}: {_cards(sorted(hand.hands[seat]))}")
    if hand.result is not None:
        _print_gin_result(out, hand.result, players)


# ------------------------------------------------------------------------- replay: Rummy


def _print_rummy_replay(
    out: Console, replayed: RummyState | RummyMatch, players: list[str]
) -> None:
    hands = replayed.hands if isinstance(replayed, RummyMatch) else [replayed]
    last = hands[-1]
    _print_options(out, last.options.to_dict())
    out.print(_hands_table(hands, players))
    _print_rummy_final_state(out, last, players)
    if isinstance(replayed, RummyMatch):
        _print_rummy_match(out, replayed, players)


def _print_options(out: Console, options: Mapping[str, Any]) -> None:
    """A replay's rules options on one dim line (text as is, other values as JSON)."""
    shown = (f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in options.items())
    out.print("[dim]options: " + escape(", ".join(shown)) + "[/]")


def _print_rummy_final_state(out: Console, hand: RummyState, players: list[str]) -> None:
    """The last hand: its phase, the table melds and their owners, every hand, the result."""
    to_act = "" if hand.to_act is None else f", {_name(players, hand.to_act)} to act"
    restocks = f", restocked {hand.restocks}x" if hand.restocks else ""
    out.print(
        f"Final state: [bold]{hand.phase.value}[/]{to_act}; stock {len(hand.stock)}, "
        f"discard pile top {_cards(hand.discard_pile[-1:])}{restocks}"
    )
    _print_rummy_table(out, hand, players)
    out.print("Cards left in hand:")
    _print_rummy_hands(out, hand, players)
    if hand.result is not None:
        _print_rummy_result(out, hand.result, players)


def _print_rummy_match(out: Console, match: RummyMatch, players: list[str]) -> None:
    options = match.game.options
    goal = f"{options.hands} hands" if options.hands is not None else f"to {options.target_score}"
    result = match.result
    if result is None:
        scores = " - ".join(str(s) for s in match.scores())
        out.print(f"Match in progress: {scores} ({goal}, {len(match.hands)} played)")
        return
    verb = "won" if len(result.winners) == 1 else "shared"
    summary = Table(title=f"Match {verb} by {_names(players, result.winners)} ({goal})")
    summary.add_column("")
    for player in players:
        summary.add_column(escape(player), justify="right")
    won = [0] * len(players)
    for hand in match.hands:
        if hand.result is not None and hand.result.winner is not None:
            won[hand.result.winner] += 1
    summary.add_row("hands won", *(str(w) for w in won))
    summary.add_row("[bold]total[/]", *(f"[bold]{t}[/]" for t in result.totals))
    out.print(summary)


# ------------------------------------------------------------------------ replay: Crazy Rummy


def _print_crazy_replay(
    out: Console, replayed: CrazyState | CrazyMatch, players: list[str]
) -> None:
    """Rounds (their contract, the penalty points each seat took), the last round's table and
    hands, and the game's result: the lowest total wins."""
    hands = replayed.hands if isinstance(replayed, CrazyMatch) else [replayed]
    last = hands[-1]
    _print_options(out, last.options.to_dict())
    # In a match the hand's number is its round; a single round's record names its round.
    extra = {} if isinstance(replayed, CrazyMatch) else {"round": [str(last.round)]}
    extra["contract"] = [str(h.contract) for h in hands]
    out.print(_hands_table(hands, players, extra, winner_points=False))
    down = ", ".join(_name(players, s) for s, d in enumerate(last.laid_down) if d) or "nobody"
    to_act = "" if last.to_act is None else f", {_name(players, last.to_act)} to act"
    out.print(
        f"Final state: round {last.round} ({last.contract}), [bold]{last.phase.value}[/]"
        f"{to_act}; stock {len(last.stock)}, discard pile top "
        f"{_cards(last.discard_pile[-1:])}; down: {down}"
    )
    _print_rummy_table(out, last, players)
    _print_crazy_hands(out, last, players)
    result = last.result
    if result is not None:
        if result.winner is None:
            out.print(CRAZY_STOCK_OUT)
        else:
            out.print(
                f"[bold]out[/]: [bold]{_name(players, result.winner)}[/] goes out; the others"
                " score the cards left in their hands."
            )
    if isinstance(replayed, CrazyMatch):
        match_result = replayed.result
        if match_result is None:
            totals = " - ".join(str(t) for t in replayed.scores())
            out.print(f"Game in progress: {totals} after {len(hands)} of 7 rounds")
            return
        verb = "won" if len(match_result.winners) == 1 else "shared"
        winners = _names(players, match_result.winners)
        out.print(f"Game {verb} by [bold]{winners}[/] with the lowest total")
        summary = Table(title="Totals (lowest wins)")
        summary.add_column("")
        for player in players:
            summary.add_column(escape(player), justify="right")
        summary.add_row("[bold]total[/]", *(f"[bold]{t}[/]" for t in match_result.totals))
        out.print(summary)
