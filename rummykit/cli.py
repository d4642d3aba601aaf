"""The ``rummykit`` command: replay records, simulate players against each other, watch a demo.

Games: ``gin`` (Gin Rummy, alias ``gin-rummy``) and Basic Rummy for 2-6 players under its two
presets ``rummy`` (alias ``basic-rummy``) and ``rummy-classic``.

::

    rummykit replay game.json [--json]
    rummykit review game.json [--seat 0] [--hand K] [--level hard] [--lang en|vi] [--json]
    rummykit sim gin --players random,random --hands 1000 --jobs 4 [--json] [--option knock_limit=5]
    rummykit sim rummy-classic --players random,random,random,random --option restock=shuffle
    rummykit demo [--game gin|rummy|rummy-classic] [--players N] [--seed 7]
    rummykit serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--certfile F --keyfile F]
    rummykit --version
"""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich import progress as rich_progress
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rummykit import __version__
from rummykit.actions import (
    Action,
    BigGin,
    Buy,
    Discard,
    Done,
    Down,
    Draw,
    Knock,
    LayOff,
    NewMeld,
    Pass,
    Swap,
    Take,
)
from rummykit.cards import AnyCard, Card
from rummykit.games import GAMES, Game, Gin, find_game
from rummykit.games.base import HandState, Phase, View
from rummykit.games.crazy import CrazyMatch, CrazyState
from rummykit.games.gin import GinHandResult, GinMatch, GinState, Outcome
from rummykit.games.match import Match
from rummykit.games.rummy import (
    RummyHandResult,
    RummyMatch,
    RummyOutcome,
    RummyState,
    RummyView,
    melds_in,
)
from rummykit.games.seeding import derive_seed
from rummykit.games.table_meld import TableMeld
from rummykit.players import PLAYERS, RandomPlayer, UnknownPlayerError, find_player
from rummykit.players.reasons import Suggestion, because, define
from rummykit.record import RecordError, is_match, load_record, parse_json
from rummykit.server.limits import GIVE_AFTER, TABLES_PER_MINUTE
from rummykit.sim import (
    Progress,
    SimReport,
    StuckError,
    check_count,
    check_players,
    simulate,
)
from rummykit.tournament import TournamentReport, round_robin
from rummykit.wild_melds import hand_points

__all__ = ["DEMO_SEED", "RUMMY_DEMO_SEEDS", "app", "main"]

GAME_NAMES = ", ".join(sorted(GAMES))
"""Every game name and alias the commands accept, for help and error messages."""

app = typer.Typer(
    name="rummykit",
    help=(
        "Gin Rummy (gin), Basic Rummy for 2-6 players (rummy, rummy-classic) and Crazy Rummy "
        "(crazy): play in the browser (serve) or the terminal (play), replay and review records, "
        "simulate computer players, watch a demo hand."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Markdown joins the lines of a docstring paragraph (the default keeps every line break).
    rich_markup_mode="markdown",
)

DEMO_SEED = 204
"""The Gin hand ``rummykit demo`` plays unless told otherwise."""

RUMMY_DEMO_SEEDS: dict[int, int] = {2: 311, 3: 349, 4: 86, 5: 91, 6: 425}
"""Per table size, the Basic Rummy hand ``rummykit demo --game rummy`` plays unless told otherwise.

Each one ends, under both presets, with a player going out within a few turns, after at least one
meld and one lay-off."""

DEMO_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
"""The players of a demo, seat 0 first."""

MAX_DEMO_ACTIONS = 5_000
"""A demo hand stops (as a safety net) after this many actions."""


def _out() -> Console:
    return Console(highlight=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def _fail(message: str, code: int, lang: str = "en") -> typer.Exit:
    """Say what is wrong on stderr and give the exit to raise. In Vietnamese (``play --lang
    vi``) the line says so in Vietnamese and keeps the English detail, as the game's own errors
    do."""
    if lang == "vi":
        from rummykit.terminal_text import say

        line = say("vi", "setting_error", detail=escape(message))
        _err().print(f"[bold red]lỗi:[/] {line}", soft_wrap=True)
    else:
        _err().print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def _json_fail(message: str, as_json: bool, code: int, lang: str = "en") -> typer.Exit:
    """As :func:`_fail`, or with ``--json`` the message as ``{"error": ...}`` on stdout."""
    if as_json:
        print(json.dumps({"error": message}, ensure_ascii=False))
        return typer.Exit(code)
    return _fail(message, code, lang)


def _version(value: bool) -> None:
    if value:
        print(f"rummykit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Show the version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    """The commands below (the app's help text says what rummykit is).

    Games: gin (alias gin-rummy), rummy (alias basic-rummy), rummy-classic and crazy (alias
    crazy-rummy).
    """


def _find_game(name: str, options: Mapping[str, Any] | None = None, lang: str = "en") -> Game:
    """The game called ``name``, or exit 2 listing the valid names (or naming the bad option)."""
    try:
        find_game(name)
    except ValueError:
        raise _fail(f"unknown game {name!r} (valid: {GAME_NAMES})", 2, lang) from None
    try:
        return find_game(name, options)
    except (ValueError, TypeError) as exc:
        raise _fail(str(exc), 2, lang) from None


# ----------------------------------------------------------------------------------- cards


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


# ---------------------------------------------------------------------------------- replay


def _split(replayed: HandState | Match) -> tuple[list[HandState], Match | None]:
    """Every hand of a replayed record, and the match if it is one."""
    if is_match(replayed):
        return list(replayed.hands), replayed
    return [cast(HandState, replayed)], None


def _seats(hand: HandState) -> int:
    return len(hand.deal.hands)


def _replay_fail(message: str, as_json: bool) -> typer.Exit:
    return _json_fail(message, as_json, 1)


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


def _replay_data(replayed: HandState | Match, players: list[str]) -> dict[str, Any]:
    """The replay as JSON data, built from the protocols every game shares."""
    hands, match = _split(replayed)
    last = hands[-1]
    rows = _hand_rows(hands)
    data: dict[str, Any] = {
        "kind": "match" if match is not None else "hand",
        "game": last.game.name,
        "players": players,
        "options": last.game.options.to_dict(),
        "hands": rows,
        "scores": rows[-1]["totals"],
        "final": {
            "phase": last.phase.value,
            "to_act": last.to_act,
            "views": [last.view(seat).to_dict() for seat in range(_seats(last))],
        },
    }
    if match is not None:
        data["match_over"] = match.is_over
        data["match_result"] = None if match.result is None else match.result.to_dict()
    return data


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


def _print_rummy_result(out: Console, result: RummyHandResult, players: Sequence[str]) -> None:
    if result.outcome is RummyOutcome.STALEMATE:
        out.print("[bold]stalemate[/]: the stock ran out for good, nobody scores.")
        return
    bonus = " (rummy: doubled)" if result.rummy else ""
    out.print(
        f"[bold]out[/]: [bold]{_name(players, result.winner)}[/] goes out and scores "
        f"[bold]{result.points}[/] point{'s' if result.points != 1 else ''}{bonus}"
    )


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
    down = ", ".join(_name(players, s) for s, d in enumerate(last.down) if d) or "nobody"
    to_act = "" if last.to_act is None else f", {_name(players, last.to_act)} to act"
    out.print(
        f"Final state: round {last.round} ({last.contract}), [bold]{last.phase.value}[/]"
        f"{to_act}; stock {len(last.stock)}, discard pile top "
        f"{_cards(last.discard_pile[-1:])}; down: {down}"
    )
    _print_rummy_table(out, last, players)
    out.print("Cards left in hand (points are bad):")
    for seat, player in enumerate(players):
        held = last.hands[seat]
        out.print(f"  {escape(player)}: {_cards(held)} = {hand_points(held)}")
    result = last.result
    if result is not None:
        if result.winner is None:
            out.print("[bold]stock out[/]: nobody went out; everyone scores their cards.")
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


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A hand or match record (JSON) of any game.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Replay a record of any game, validating every action; show the final state and scores.

    With --json a record that cannot be replayed prints ``{"error": "..."}`` (and exits 1).
    """
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _replay_fail(f"no such file: {file}", as_json) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _replay_fail(f"cannot read {file}: {exc}", as_json) from None
    try:
        replayed = load_record(text)
    except RecordError as exc:
        raise _replay_fail(f"{file}: {exc}", as_json) from None
    hands, _ = _split(replayed)
    players = _record_players(text, _seats(hands[0]))
    if as_json:
        print(json.dumps(_replay_data(replayed, players), indent=1, ensure_ascii=False))
    else:
        _print_replay(replayed, players)


# ---------------------------------------------------------------------------------- review


REVIEW_LEVELS = ("easy", "medium", "hard")
"""The computer levels ``rummykit review`` compares with."""


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="A hand or match record (JSON) of any game.")],
    seat: Annotated[
        int, typer.Option("--seat", help="The seat to review, from 0 (you, in rummykit play).")
    ] = 0,
    hand: Annotated[
        int | None,
        typer.Option("--hand", help="Only this hand of a match record, from 1 (default: all)."),
    ] = None,
    level: Annotated[
        str, typer.Option("--level", "-l", help="The computer to compare with: easy, medium, hard.")
    ] = "hard",
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the review: en or vi (default: vi when the locale, LC_ALL, "
            "LC_MESSAGES or LANG, starts with vi, else en).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    only_different: Annotated[
        bool,
        typer.Option(
            "--only-different",
            help="Show only the decisions where the computer would have played otherwise.",
        ),
    ] = False,
) -> None:
    """Review a seat's decisions in a record: at each one, what the seat played beside what the
    computer (hard unless told otherwise) would play from the seat's view then, and why.

    A record that cannot be replayed exits 1, a bad seat, hand, level or language exits 2; with
    --json either prints ``{"error": "..."}``. With --only-different the counts still cover
    every decision.
    """
    from rummykit.review import review_hand
    from rummykit.terminal_text import default_language, parse_language, say

    try:
        language = default_language() if lang is None else parse_language(lang)
    except ValueError as exc:
        raise _json_fail(str(exc), as_json, 2) from None
    name = level.strip().lower()
    if name not in REVIEW_LEVELS:
        raise _json_fail(f"unknown level {level!r} (easy, medium or hard)", as_json, 2, language)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _json_fail(f"no such file: {file}", as_json, 1, language) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _json_fail(f"cannot read {file}: {exc}", as_json, 1, language) from None
    try:
        replayed = load_record(text)
    except RecordError as exc:
        raise _json_fail(f"{file}: {exc}", as_json, 1, language) from None
    hands, _ = _split(replayed)
    seats = _seats(hands[0])
    if not 0 <= seat < seats:
        raise _json_fail(
            f"no seat {seat} in {file}: its seats are 0 to {seats - 1}", as_json, 2, language
        )
    numbers = list(range(1, len(hands) + 1))
    if hand is not None:
        if hand not in numbers:
            count = "1 hand" if len(hands) == 1 else f"hands 1 to {len(hands)}"
            raise _json_fail(f"no hand {hand} in {file}: it has {count}", as_json, 2, language)
        numbers = [hand]
    players = _record_players(text, seats)
    rows: list[dict[str, Any]] = []
    out = None if as_json else _out()
    for number in numbers:
        played = hands[number - 1]
        result = review_hand(played, seat, level=name)
        steps = [s for s in result.steps if s.verdict == "different" or not only_different]
        round_number = getattr(played, "round", None)
        if out is None:
            row: dict[str, Any] = {"hand": number}
            if round_number is not None:
                row["round"] = round_number
            data = result.to_dict()
            data["steps"] = [s.to_dict() for s in steps]
            rows.append(row | data)
            continue
        message = "review_hand" if round_number is None else "review_round"
        heading = say(
            language,
            message,
            n=number if round_number is None else round_number,
            name=players[seat],
            seat=seat,
        )
        if number != numbers[0]:
            out.print()
        out.print(f"[bold]{escape(heading)}[/]", soft_wrap=True)
        lines = result.text(language).splitlines()[:1]
        lines += [f"  {s.text(language)}" for s in steps] if result.steps else []
        out.print(escape("\n".join(lines)), soft_wrap=True)
    if out is None:
        data = {"game": hands[0].game.name, "players": players, "seat": seat, "level": name}
        print(json.dumps(data | {"hands": rows}, indent=1, ensure_ascii=False))


# ------------------------------------------------------------------------------------- sim


def _parse_option(text: str) -> tuple[str, Any]:
    """``name=value``; the value is JSON if it parses (``true``, ``3``, ``"x"``), else a string
    (``True`` and ``FALSE`` are read as true and false too)."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise ValueError(f"--option takes name=value, not {text!r}")
    if raw.strip().lower() in ("true", "false"):
        return name.strip(), raw.strip().lower() == "true"
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return name.strip(), value


def _parse_options(texts: Sequence[str]) -> dict[str, Any]:
    """Every ``--option``; ValueError for a bad one or a name given twice (as a record refuses
    a key given twice rather than keep its last value)."""
    options: dict[str, Any] = {}
    for text in texts:
        name, value = _parse_option(text)
        if name in options:
            raise ValueError(f"--option {name} is given twice")
        options[name] = value
    return options


def _lower_choices(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """Choices written in any case on the command line, as game names may be (``Shuffle``)."""
    specs = {spec.name: spec for spec in type(game.options).SPECS}
    out = dict(options)
    for key, value in options.items():
        spec = specs.get(key)
        if spec is None or not isinstance(value, str):
            continue
        if value.lower() in spec.choices or value.lower() == spec.none:
            out[key] = value.lower()
    return out


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


_OUTCOME_LABELS = {"cancelled": "cancelled (wall)"}


def _sim_table(report: SimReport) -> Table:
    """The report as a narrow table: one row a statistic, one column a seat, plus all hands."""
    plural = "es" if report.matches != 1 else ""
    matches = f" in {report.matches} match{plural}" if report.matches else ""
    seats = report.players
    size = f" ({len(seats)} players)" if len(seats) > 2 else ""
    rounds = ""
    if report.game == "crazy" and not report.matches:
        rounds = f" in round {report.round}" if report.round else " (rounds 1-7 in turn)"
    table = Table(
        title=(
            f"{report.variant}{size}: {report.hands} hands{matches}{rounds}, seed {report.seed}"
        ),
        caption=(
            f"{report.hands_per_second:,.0f} hands/s, {report.mean_actions:.1f} actions a hand, "
            f"{report.elapsed:.2f} s on {report.jobs} job{'s' if report.jobs != 1 else ''}"
        ),
    )
    table.add_column("")
    for p in seats:
        header = f"{p.name} (seat {p.seat})" if len(seats) <= 2 else f"{p.name}\nseat {p.seat}"
        table.add_column(escape(header), justify="right")
    table.add_column("all", justify="right")
    blank = [""] * len(seats)

    def row(label: str, values: list[str], total: str = "") -> None:
        table.add_row(label, *values, total)

    if report.matches:
        won = [p.matches_won for p in seats]
        row("matches won", [str(w) for w in won], str(report.matches))
        row("match win %", [_percent(w, report.matches) for w in won])
        row("mean final total", [f"{p.mean_total or 0:.1f}" for p in seats])
    row("hands played", blank, str(report.hands))
    row("hands won", [str(p.hands_won) for p in seats], str(sum(p.hands_won for p in seats)))
    row("hand win %", [_percent(p.hands_won, report.hands) for p in seats])
    points = "penalty points (lower is better)" if report.game == "crazy" else "points"
    row(points, [str(p.points) for p in seats], str(sum(p.points for p in seats)))
    for outcome, count in report.outcomes.items():
        label = _OUTCOME_LABELS.get(outcome, outcome.replace("_", " "))
        won_by = [p.outcomes.get(outcome, 0) for p in seats]
        if not any(won_by):  # an outcome nobody wins (the wall, a stalemate), or none yet
            row(label, blank, str(count))
        else:
            row(label, [str(w) for w in won_by], str(count))
    return table


def _progress_bar(stack: contextlib.ExitStack, label: str, as_json: bool) -> Progress | None:
    """A Rich progress bar on stderr, closed with ``stack``, as a simulation callback; None for
    JSON output or when stderr is not a terminal."""
    if as_json or not sys.stderr.isatty():
        return None
    bar = stack.enter_context(
        rich_progress.Progress(
            rich_progress.TextColumn("[progress.description]{task.description}"),
            rich_progress.BarColumn(),
            rich_progress.MofNCompleteColumn(),
            rich_progress.TimeElapsedColumn(),
            console=_err(),
            auto_refresh=False,  # no refresh thread: worker processes are forked
            transient=True,
        )
    )
    task = bar.add_task(label, total=None)

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total, refresh=True)

    return progress


def _example_players(game: Game) -> str:
    return ",".join(["random"] * game.min_players)


@app.command()
def sim(
    game: Annotated[
        str, typer.Argument(help=f"The game: {GAME_NAMES} (Basic Rummy: 2-6 players).")
    ],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help=(
                "Comma-separated player names, seat 0 first; their number is the table size. "
                "With --matches, names that do not make one table (or --seats, or --round-robin) "
                "play a round robin."
            ),
        ),
    ] = "random,random",
    hands: Annotated[
        int | None, typer.Option("--hands", "-n", min=0, help="Single hands (default 100).")
    ] = None,
    matches: Annotated[
        int | None,
        typer.Option(
            "--matches",
            "-m",
            min=0,
            help="Whole matches instead of hands (a round robin without it plays 30).",
        ),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats", min=1, help="Round robin at tables of this size (e.g. 4 for Crazy Rummy)."
        ),
    ] = None,
    round_robin_: Annotated[
        bool,
        typer.Option(
            "--round-robin",
            help="Rate the players: Elo-style ratings and head-to-head records with 95% intervals.",
        ),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help=(
                "A rules option as name=value (repeatable); the value is JSON if it parses, "
                "else text: knock_limit=5, melds_per_turn=unlimited, restock=shuffle."
            ),
        ),
    ] = None,
    round_: Annotated[
        int | None,
        typer.Option(
            "--round",
            min=1,
            max=7,
            help=(
                "Crazy Rummy's single hands: deal every hand in this round (1-7). "
                "Without it they go through rounds 1-7 in turn."
            ),
        ),
    ] = None,
) -> None:
    """Simulate computer players against each other and report wins, points and outcomes.

    With --matches and players that do not make one table, --seats or --round-robin, the
    players meet in a round robin and are rated (Elo-style), with each pair's record and 95%
    interval.
    """
    _find_game(game)
    if hands is not None and matches is not None:
        raise _fail("give --hands or --matches, not both", 2)
    try:
        options = _parse_options(option or ())
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    options = _lower_choices(_find_game(game), options)
    played = _find_game(game, options)
    names = [p.strip() for p in players.split(",")]
    valid = ", ".join(PLAYERS.get(played.name, ()))
    for name in names:
        try:
            find_player(played.name, name, 0)
        except UnknownPlayerError:
            raise _fail(f"unknown player {name!r} for {played.name} (valid: {valid})", 2) from None
    one_table = played.min_players <= len(names) <= played.max_players
    tournament = round_robin_ or seats is not None or (matches is not None and not one_table)
    if round_ is not None and (played.name != "crazy" or matches is not None or tournament):
        raise _fail("--round is for single hands of Crazy Rummy (--hands)", 2)
    if tournament:
        if hands is not None:
            raise _fail("a round robin plays whole matches: give --matches, not --hands", 2)
        _round_robin(
            game, names, 30 if matches is None else matches, seats, seed, jobs, options, as_json
        )
        return
    if hands is None and matches is None:
        hands = 100
    try:
        check_count(matches if matches is not None else cast(int, hands), matches is not None)
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    try:
        check_players(played, len(names))
    except ValueError as exc:
        raise _fail(
            f"{exc} (e.g. --players {_example_players(played)}; or --matches N for a round robin)",
            2,
        ) from None
    with contextlib.ExitStack() as stack:
        progress = _progress_bar(stack, "matches" if matches is not None else "hands", as_json)
        try:
            report = simulate(
                game,
                names,
                hands=hands,
                matches=matches,
                seed=seed,
                jobs=jobs,
                options=options,
                progress=progress,
                round=round_,
            )
        except StuckError as exc:
            raise _fail(_stuck(exc), 1) from None
    if as_json:
        print(json.dumps(report.to_dict(), indent=1))
    else:
        _out().print(_sim_table(report))


def _stuck(exc: StuckError) -> str:
    """A game that did not end, and what usually makes it end."""
    return (
        f"{exc}: these players may never end a hand under these rules (random players in Crazy"
        " Rummy with unlimited restocks, say); set a limit, e.g. -o max_restocks=5"
    )


def _round_robin(
    game: str,
    names: list[str],
    matches: int,
    seats: int | None,
    seed: int,
    jobs: int,
    options: dict[str, Any],
    as_json: bool,
) -> None:
    with contextlib.ExitStack() as stack:
        progress = _progress_bar(stack, "matches", as_json)
        try:
            report = round_robin(
                game,
                names,
                matches=matches,
                seats=seats,
                seed=seed,
                jobs=jobs,
                options=options,
                progress=progress,
            )
        except ValueError as exc:
            raise _fail(str(exc), 2) from None
        except StuckError as exc:
            raise _fail(_stuck(exc), 1) from None
    if as_json:
        print(json.dumps(report.to_dict(), indent=1))
        return
    out = _out()
    out.print(_ratings_table(report))
    if report.pairs:
        out.print(_pairs_table(report))


def _rr_caption(report: TournamentReport) -> str:
    caption = f"{report.elapsed:.1f} s on {report.jobs} job{'s' if report.jobs != 1 else ''}"
    if report.matches and not report.balanced:
        caption += (
            f"\nunbalanced: play a multiple of {report.cycle} matches to give every player "
            "every seat and order equally"
        )
    if len(report.players) < report.seats:
        caption += (
            "\nfewer players than seats: a player at several seats of a table counts once per "
            "seat (matches, win %)"
        )
    return caption


def _ratings_table(report: TournamentReport) -> Table:
    """One row per player, best rating first."""
    low_wins = " (lowest total wins)" if find_game(report.game).low_total_wins else ""
    table = Table(
        title=(
            f"{report.variant} round robin, {report.seats} seats: {report.matches} matches, "
            f"{report.hands} hands, seed {report.seed}"
        ),
        caption=_rr_caption(report),
        caption_justify="left",
    )
    for header in ("player", "rating", "matches", "match win %", "95% interval"):
        table.add_column(header, justify="left" if header == "player" else "right")
    table.add_column("points / hand", justify="right")
    table.add_column(f"mean final total{low_wins}", justify="right")
    for p in report.players:
        low, high = p.win_interval
        table.add_row(
            escape(p.name),
            f"{p.rating:.0f}",
            str(p.matches),
            f"{100 * p.win_rate:.1f}",
            f"{100 * low:.1f}-{100 * high:.1f}",
            f"{p.mean_points:.1f}",
            f"{p.mean_total:.1f}",
        )
    return table


def _pairs_table(report: TournamentReport) -> Table:
    """Every pair's head-to-head record (final totals compared in each shared match)."""
    table = Table(title="head to head (final totals compared)")
    for header in ("pair", "won", "lost", "tied", "score %", "95% interval", "verdict"):
        table.add_column(header, justify="left" if header in ("pair", "verdict") else "right")
    for pair in report.pairs:
        low, high = pair.interval
        leader = pair.leader
        verdict = f"{leader} better" if leader else "not clear"
        table.add_row(
            escape(f"{pair.a} v {pair.b}"),
            str(pair.a_wins),
            str(pair.b_wins),
            str(pair.ties),
            f"{100 * pair.rate:.1f}",
            f"{100 * low:.1f}-{100 * high:.1f}",
            escape(verdict),
        )
    return table


# ------------------------------------------------------------------------------ demo: Gin


def _describe_gin(action: Action, seat: int, state: GinState) -> str:
    """The Gin action just applied by ``seat``, in words."""
    if isinstance(action, Pass):
        return "passes on the up-card"
    if isinstance(action, Take):
        taken = state.hands[seat][-1]  # a taken card joins the end of the hand
        return f"takes {_card(taken)} from the discard pile"
    if isinstance(action, Draw):
        return "draws from the stock"
    if isinstance(action, Discard):
        return f"discards {_card(action.card)}"
    if isinstance(action, Knock):
        return f"knocks, discarding {_card(action.card)} face down"
    if isinstance(action, BigGin):
        return "goes big gin"
    if isinstance(action, LayOff):
        return f"lays off {_card(action.card)} on meld {action.meld}"
    if isinstance(action, Done):
        return "is done laying off"
    return str(action)  # pragma: no cover


def _demo_bots(seed: int) -> list[RandomPlayer]:
    return [RandomPlayer(derive_seed(seed, 1)), RandomPlayer(derive_seed(seed, 2))]


def _gin_demo(seed: int) -> None:
    out = _out()
    players = list(DEMO_NAMES[:2])
    bots = _demo_bots(seed)
    state = Gin().new_hand(seed=seed, dealer=0)
    out.print(f"[bold]Gin Rummy[/], seed {seed}: Ann v Bob, both playing at random. Ann deals.")
    for seat in (0, 1):
        out.print(f"  {players[seat]}: {_cards(sorted(state.hands[seat]))}")
    out.print(f"  up-card {_card(state.discard_pile[-1])}, {len(state.stock)} cards in the stock\n")
    turn = 0
    phrases: list[str] = []
    while not state.is_over:
        actor = state.to_act
        assert actor is not None
        action = bots[actor].choose(state.view(actor))
        state.apply(action, actor)
        phrases.append(_describe_gin(action, actor, state))
        if state.to_act != actor:  # the turn passed (or the hand ended): one line a turn
            turn += 1
            line = f"{turn:3}. {players[actor]} " + ", ".join(phrases)
            if isinstance(action, Discard):
                line += f"   [dim]stock {len(state.stock)}[/]"
            out.print(line)
            phrases = []
    assert state.result is not None
    out.print()
    _print_gin_result(out, state.result, players)


# ---------------------------------------------------------------------------- demo: Rummy


define(
    {
        "demo.greedy": (
            "melds, lays off and throws high cards whenever it can",
            "hạ bộ, gửi bài và bỏ lá cao mỗi khi có thể",
        )
    }
)


class _GreedyRummy:
    """The demo's Basic Rummy policy (not a registered player): it decides from its view only.

    It takes the top discard when that card makes a meld with its hand or fits a table meld, else
    draws from the stock; then lays down the longest meld it can, lays off whatever fits, and
    throws its highest card.
    """

    name = "greedy"

    def choose(self, view: View) -> Action:
        """The greedy action for a Basic Rummy view."""
        assert isinstance(view, RummyView)
        actions = view.legal_actions
        if view.phase is Phase.DRAW:
            top = view.discard_pile[-1] if view.discard_pile else None
            if top is not None and Take() in actions and self._wants(view, top):
                return Take()
            return Draw()
        melds = [a for a in actions if isinstance(a, NewMeld)]
        if melds:
            return max(melds, key=lambda a: len(a.cards))
        layoffs = [a for a in actions if isinstance(a, LayOff)]
        if layoffs:
            return layoffs[0]
        discards = [a.card for a in actions if isinstance(a, Discard) and isinstance(a.card, Card)]
        return Discard(max(discards, key=lambda c: (c.points, c.number, c.index)))

    def suggest(self, view: View) -> Suggestion:
        """The greedy action and why."""
        return Suggestion(self.choose(view), because("demo.greedy"))

    @staticmethod
    def _wants(view: RummyView, card: Card) -> bool:
        if any(t.meld.accepts(card) for t in view.table):
            return True
        return any(card in meld.cards for meld in melds_in([*view.hand, card]))


def _describe_rummy(action: Action, seat: int, state: RummyState) -> str:
    """The Basic Rummy action just applied by ``seat``, in words."""
    if isinstance(action, Draw):
        return "draws from the stock"
    if isinstance(action, Take):
        assert state.taken is not None
        return f"takes {_card(state.taken)} from the discard pile"
    if isinstance(action, NewMeld):
        return f"melds {_cards(action.cards)}"
    if isinstance(action, LayOff):
        meld = state.table[action.meld - 1].meld
        return f"lays off {_card(action.card)} on meld {action.meld} (now {_cards(meld.cards)})"
    if isinstance(action, Discard):
        if not state.hands[seat]:
            return f"discards {_card(action.card)} face down"
        return f"discards {_card(action.card)}"
    return str(action)  # pragma: no cover


def _print_deal(
    out: Console, names: Sequence[str], hands: Sequence[Sequence[AnyCard]], state: Any
) -> None:
    """A demo's deal: each player's cards (as sorted by the caller), the up-card, the stock."""
    for name, cards in zip(names, hands, strict=True):
        out.print(f"  {name}: {_cards(cards)}")
    out.print(f"  up-card {_card(state.discard_pile[-1])}, {len(state.stock)} cards in the stock\n")


def _rummy_demo(variant: str, game: Game, players: int, seed: int) -> None:
    out = _out()
    names = list(DEMO_NAMES[:players])
    state = game.new_hand(players=players, seed=seed, dealer=0)
    assert isinstance(state, RummyState)
    bot = _GreedyRummy()
    everyone = "both" if players == 2 else "all"
    out.print(
        f"[bold]Basic Rummy[/] ({variant}), seed {seed}: {_names(names, range(players))}, "
        f"{everyone} playing greedily (meld and lay off whenever possible, throw the highest "
        f"card). {names[0]} deals."
    )
    _print_deal(out, names, [_sorted(h) for h in state.hands], state)
    turn = 0
    phrases: list[str] = []
    for _ in range(MAX_DEMO_ACTIONS):
        actor = state.to_act
        if actor is None:
            break
        restocks = state.restocks
        action = bot.choose(state.view(actor))
        state.apply(action, actor)
        phrases.append(_describe_rummy(action, actor, state))
        if state.to_act != actor:  # the turn passed (or the hand ended): one line a turn
            turn += 1
            if not state.hands[actor]:
                phrases.append("[bold]and is out![/]")
            restocked = state.restocks > restocks  # the stock ran out after this discard
            line = f"{turn:3}. {names[actor]} " + ", ".join(phrases)
            if isinstance(action, Discard) and state.hands[actor]:
                line += f"   [dim]stock {0 if restocked else len(state.stock)}[/]"
            out.print(line)
            phrases = []
            if restocked:
                how = "shuffled" if state.options.restock.value == "shuffle" else "turned over"
                out.print(
                    f"     [dim]the discard pile is {how} to make a new stock "
                    f"of {len(state.stock)} cards[/]"
                )
    out.print()
    if state.result is None:  # pragma: no cover - a safety net, greedy hands end
        out.print(f"The demo stops after {MAX_DEMO_ACTIONS} actions.")
        return
    _print_rummy_table(out, state, names)
    out.print("Cards left in hand:")
    _print_rummy_hands(out, state, names)
    _print_rummy_result(out, state.result, names)


def _describe_crazy(
    action: Action, state: CrazyState, offered: AnyCard | None, phase: Phase
) -> str:
    """The Crazy Rummy action just applied, in words (``offered``: the discard on offer then)."""
    card = _card(offered) if offered is not None else "the discard"
    if isinstance(action, Draw):
        return "draws from the stock"
    if isinstance(action, Take):
        return f"takes {card}"
    if isinstance(action, Pass):
        return f"does not buy {card}" if phase is Phase.BUY else f"passes on {card}"
    if isinstance(action, Buy):
        penalty = state.options.penalty_cards
        return f"buys {card} (and takes {penalty} penalty card{'s' if penalty != 1 else ''})"
    if isinstance(action, Down):
        return "lays down the contract: " + " | ".join(_cards(m) for m in action.melds)
    if isinstance(action, LayOff):
        meld = state.table[action.meld - 1].meld
        return f"lays off {_card(action.card)} on meld {action.meld} (now {_cards(meld.cards)})"
    if isinstance(action, Swap):
        return f"swaps {_card(action.card)} into meld {action.meld} and takes its wild"
    if isinstance(action, Discard):
        return f"discards {_card(action.card)}"
    return str(action)  # pragma: no cover


def _crazy_demo(game: Game, players: int, seed: int) -> None:
    """Round 1 of Crazy Rummy between ``medium`` players, one line per action (buys included,
    declined buys left out)."""
    out = _out()
    names = list(DEMO_NAMES[:players])
    state = game.new_hand(players=players, seed=seed, dealer=0)
    assert isinstance(state, CrazyState)
    bots = [find_player("crazy", "medium", seed=seed + seat) for seat in range(players)]
    out.print(
        f"[bold]Crazy Rummy[/], round {state.round} (contract: {state.contract}), seed {seed}: "
        f"{_names(names, range(players))}, the medium computer player at every seat. "
        f"{names[0]} deals; points left in hand are bad."
    )
    _print_deal(out, names, [sorted(h, key=lambda c: c.sort_key) for h in state.hands], state)
    number = 0
    for _ in range(MAX_DEMO_ACTIONS):
        actor = state.to_act
        if actor is None:
            break
        offered = state.discard_pile[-1] if state.discard_pile else None
        phase = state.phase
        action = bots[actor].choose(state.view(actor))
        state.apply(action, actor)
        if isinstance(action, Pass) and phase is Phase.BUY:
            continue  # declined buys would fill the screen
        number += 1
        out.print(f"{number:3}. {names[actor]} {_describe_crazy(action, state, offered, phase)}")
    out.print()
    if state.result is None:  # pragma: no cover - a safety net, rounds end
        out.print(f"The demo stops after {MAX_DEMO_ACTIONS} actions.")
        return
    _print_rummy_table(out, state, names)
    out.print("Cards left in hand (points are bad):")
    for seat, name in enumerate(names):
        out.print(f"  {name}: {_cards(state.hands[seat])} = {hand_points(state.hands[seat])}")
    winner = state.result.winner
    if winner is None:
        out.print("[bold]stock out[/]: nobody went out; everyone scores their cards.")
    else:
        out.print(f"[bold]{names[winner]}[/] goes out and scores 0; the others score their cards.")


@app.command()
def demo(
    game: Annotated[str, typer.Option("--game", "-g", help=f"The game: {GAME_NAMES}.")] = "gin",
    players: Annotated[
        int | None,
        typer.Option(
            "--seats",
            "--players",
            "-p",
            help=(
                "Table size (gin: 2; rummy: 2-6, default 2; crazy: 2-6, default 4); --players"
                " is the old name."
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", help="Seed of the hand (default: a hand worth watching)."),
    ] = None,
) -> None:
    """Play one seeded demo hand and show it turn by turn.

    Gin: random v random. Basic Rummy: greedy players that meld and lay off whenever they can.
    Crazy Rummy: round 1 between medium computer players (4 of them unless --players says).
    """
    played = _find_game(game)
    usual = 4 if played.name == "crazy" else played.min_players  # Crazy Rummy: 4 is usual
    size = players if players is not None else usual
    try:
        check_players(played, size)
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    if played.name == "gin":
        _gin_demo(DEMO_SEED if seed is None else seed)
    elif played.name == "rummy":
        default = RUMMY_DEMO_SEEDS.get(size, 0)
        _rummy_demo(game.strip().lower(), played, size, default if seed is None else seed)
    elif played.name == "crazy":
        _crazy_demo(played, size, 1 if seed is None else seed)
    else:  # pragma: no cover - every game of GAMES has a demo
        raise _fail(f"no demo for {played.name} yet", 2)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help=f"The game: {GAME_NAMES}.")] = "gin",
    players: Annotated[
        int | None,
        typer.Option(
            "--seats",
            "--players",
            "-p",
            help=(
                "Table size, you included (gin: 2; rummy: 2-6, default 2; crazy: default 4);"
                " --players is the old name (sim's --players names the players)."
            ),
        ),
    ] = None,
    level: Annotated[
        str, typer.Option("--level", "-l", help="The computer players: easy, medium or hard.")
    ] = "medium",
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Seed of the match (default: random).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A rules option as name=value (repeatable), as for sim: target_score=50.",
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Write the match record here at the end (or on quit)."),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the game: en or vi (default: vi when the locale, LC_ALL, "
            "LC_MESSAGES or LANG, starts with vi, else en).",
        ),
    ] = None,
) -> None:
    """Play a match in the terminal against computer players (you are seat 0).

    Each turn lists your legal moves, numbered: answer with a number or the move's notation
    (discard KD), hint for advice, help, or quit. The browser game (serve) shows more.
    """
    import random as _random

    from rummykit.record import dump_record, match_record
    from rummykit.terminal import TerminalGame
    from rummykit.terminal_text import default_language, parse_language, say

    try:
        language = default_language() if lang is None else parse_language(lang)
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    try:
        options = _parse_options(option or ())
    except ValueError as exc:
        raise _fail(str(exc), 2, language) from None
    played = _find_game(game, _lower_choices(_find_game(game, lang=language), options), language)
    if level.strip().lower() not in ("easy", "medium", "hard"):
        raise _fail(f"unknown level {level!r} (easy, medium or hard)", 2, language)
    usual = 4 if played.name == "crazy" else played.min_players
    size = players if players is not None else usual
    try:
        check_players(played, size)
    except ValueError as exc:
        raise _fail(str(exc), 2, language) from None
    if save is not None:
        try:  # a record that cannot be written is said now, not after the whole match
            with save.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            message = f"cannot write the record to {save}: {exc.strerror}"
            raise _fail(message, 2, language) from None
    if seed is None:
        seed = _random.SystemRandom().randrange(1 << 31)
    out = _out()
    level = level.strip().lower()
    game_name = say(language, f"game.{played.name}")
    level_name = say(language, f"level.{level}")
    out.print(
        escape(
            say(
                language,
                "welcome",
                version=__version__,
                game=game_name,
                count=size - 1,
                level=level_name,
                seed=seed,
            )
        ),
        highlight=False,
    )
    table = TerminalGame(played, size, level, seed, out, lang=language)
    finished = table.run()
    if save is not None:
        names = table.names
        try:
            save.write_text(dump_record(match_record(table.match, names)) + "\n", encoding="utf-8")
        except OSError as exc:
            message = f"cannot write the record to {save}: {exc.strerror}"
            raise _fail(message, 1, language) from None
        review = f"rummykit review {shlex.quote(str(save))}"
        saved = say(
            language, "saved_whole" if finished else "saved_so_far", path=save, command=review
        )
        out.print(escape(saved), highlight=False)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")
    ] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLite file of the tables (default: ~/.local/share/rummykit/tables.sqlite3),"
            " or a postgresql:// address shared by several servers."
        ),
    ] = None,
    delay: Annotated[
        float, typer.Option(min=0.0, max=10.0, help="Seconds before each computer move.")
    ] = 0.8,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Server processes sharing the port and the tables.")
    ] = 1,
    tables_per_minute: Annotated[
        int,
        typer.Option(
            min=0,
            max=100_000,
            envvar="RUMMYKIT_TABLES_PER_MINUTE",
            help="New tables a minute from one address (joins: twice that); 0: no limit.",
        ),
    ] = TABLES_PER_MINUTE,
    give_seat_after: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=86_400.0,
            help="Seconds a person must have been gone before another may let the computer"
            " play their seat.",
        ),
    ] = GIVE_AFTER,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another site whose pages may open the game's sockets (https://host[:port]);"
            " repeat for several. The server's own page always may."
        ),
    ] = None,
    certfile: Annotated[
        Path | None,
        typer.Option(
            help="A TLS certificate (PEM, with its chain): serve HTTPS and WSS. Needs --keyfile."
        ),
    ] = None,
    keyfile: Annotated[
        Path | None,
        typer.Option(help="The certificate's private key (PEM, no passphrase). Needs --certfile."),
    ] = None,
) -> None:
    """Play in the browser: serve the web app (open http://HOST:PORT/, or https:// with
    --certfile and --keyfile)."""
    import os

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from rummykit.server.app import create_app
    from rummykit.server.gate import guard
    from rummykit.server.limits import Limits
    from rummykit.server.protocol import MAX_MESSAGE
    from rummykit.server.security import normal_origin

    try:
        origins = [normal_origin(o) for o in allow_origin or ()]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--allow-origin") from None
    if (certfile is None) != (keyfile is None):  # (the option left out is the one named)
        given, missing = (
            ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        )
        message = f"not given; {given} needs it: give both, --certfile F --keyfile F"
        raise typer.BadParameter(message, param_hint=missing)
    if db is None:
        data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        db = str(Path(data_home) / "rummykit" / "tables.sqlite3")
    # A WebSocket frame is read whole before its length is checked: keep frames near the
    # longest message (4 bytes a character at most), not uvicorn's 16 MiB.
    settings: dict[str, Any] = dict(
        host=host, port=port, log_level="warning", ws_max_size=4 * MAX_MESSAGE + 1024
    )
    guard(settings)  # connections per address and in all, headers in time (rummykit.server.gate)
    if certfile is not None and keyfile is not None:
        _check_certificate(certfile, keyfile)
        # (every process of --workers loads the same files into its own TLS context)
        settings.update(ssl_certfile=str(certfile), ssl_keyfile=str(keyfile))
    if workers == 1:
        limits = Limits.tables_per_minute(tables_per_minute, give_seat_after)
        app = create_app(db, delay=delay, start_thinkers=True, limits=limits, origins=origins)
        config = uvicorn.Config(app, **settings)
    else:  # each process builds its own application (rummykit.server.app.app_from_environment)
        os.environ.update(RUMMYKIT_DB=db, RUMMYKIT_DELAY=str(delay), RUMMYKIT_SHARED="1")
        os.environ["RUMMYKIT_TABLES_PER_MINUTE"] = str(tables_per_minute)
        os.environ["RUMMYKIT_ORIGINS"] = " ".join(origins)
        os.environ["RUMMYKIT_GIVE_SEAT_AFTER"] = str(give_seat_after)
        config = uvicorn.Config(
            "rummykit.server.app:app_from_environment", factory=True, workers=workers, **settings
        )
    # Bound before the address is printed: port 0 takes a free port, and the line printed
    # names the port really served (tests read it; nothing can take the port in between).
    sock = config.bind_socket()
    served = int(sock.getsockname()[1])
    tls = certfile is not None
    where = serve_addresses(host, served, scheme="https" if tls else "http")
    processes = "" if workers == 1 else f", {workers} processes"
    _err().print(
        f"rummykit {__version__}: {where}  (games kept in {db}{processes})", soft_wrap=True
    )
    if not tls and not is_loopback(host):
        from rummykit.terminal_text import default_language, say

        warning = say(default_language(), "serve_in_clear", port=served)
        _err().print(f"[bold yellow]{escape(warning)}[/]", soft_wrap=True)
    if workers == 1:
        uvicorn.Server(config).run(sockets=[sock])
    else:
        Multiprocess(config, sockets=[sock]).run()  # (a process that dies is replaced)


def serve_addresses(host: str, port: int, lan: str | None = None, scheme: str = "http") -> str:
    """Where to open the page: on this computer, and from other devices when every address is
    served (``0.0.0.0``). ``lan`` is this computer's network address (found when None);
    ``scheme`` is ``https`` when the server speaks TLS.

    >>> serve_addresses("127.0.0.1", 8000)
    'open http://127.0.0.1:8000/'
    >>> serve_addresses("0.0.0.0", 8000, lan="192.168.1.20")
    'open http://127.0.0.1:8000/ here, or http://192.168.1.20:8000/ from other devices (friends)'
    >>> serve_addresses("0.0.0.0", 8443, lan="192.168.1.20", scheme="https")
    'open https://127.0.0.1:8443/ here, or https://192.168.1.20:8443/ from other devices (friends)'
    >>> serve_addresses("::1", 8000)  # (an IPv6 address is bracketed in a link)
    'open http://[::1]:8000/'
    >>> serve_addresses("::", 8000, lan="fd00::20")
    'open http://127.0.0.1:8000/ here, or http://[fd00::20]:8000/ from other devices (friends)'
    """
    if host not in ("0.0.0.0", "::", ""):
        return f"open {scheme}://{_link_host(host)}:{port}/"
    address = lan if lan is not None else _lan_address()
    if address is None:
        return f"open {scheme}://127.0.0.1:{port}/ here, or this computer's network address"
    return (
        f"open {scheme}://127.0.0.1:{port}/ here,"
        f" or {scheme}://{_link_host(address)}:{port}/ from other devices (friends)"
    )


def _link_host(host: str) -> str:
    """``host`` as a link writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def is_loopback(host: str) -> bool:
    """Does ``--host`` keep the server to this computer (so nothing crosses a network)?

    >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.1.1")]
    [True, True, True, True, True]
    >>> [is_loopback(h) for h in ("0.0.0.0", "::", "", "192.168.1.20", "game.example")]
    [False, False, False, False, False]
    """
    import ipaddress

    name = host.strip().lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:  # a name other than localhost may be any address
        return False


class _EncryptedKey(Exception):
    """The key file asked for a passphrase."""


def _no_passphrase() -> str:
    raise _EncryptedKey


def _check_certificate(certfile: Path, keyfile: Path) -> None:
    """Load the certificate and its key as the server will, or exit 2 saying what is wrong
    with which file (before anything listens, rather than a traceback from every process)."""
    import ssl

    for path, option in ((certfile, "--certfile"), (keyfile, "--keyfile")):
        try:
            with path.open("rb") as file:
                file.read(1)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise typer.BadParameter(f"cannot read {path}: {reason}", param_hint=option) from None
    try:  # (a file of certificates, and nothing else, loads as trusted certificates)
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cafile=certfile)
    except ssl.SSLError:
        message = f"{certfile} holds no certificate in PEM form (-----BEGIN CERTIFICATE-----)"
        raise typer.BadParameter(message, param_hint="--certfile") from None
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(
            certfile, keyfile, password=_no_passphrase
        )
    except _EncryptedKey:
        message = f"the key in {keyfile} is locked by a passphrase: give the key without one"
        raise typer.BadParameter(message, param_hint="--keyfile") from None
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            message = f"the key in {keyfile} is not the key of the certificate in {certfile}"
        else:
            message = f"{keyfile} holds no private key in PEM form (-----BEGIN PRIVATE KEY-----)"
        raise typer.BadParameter(message, param_hint="--keyfile") from None


def _lan_address() -> str | None:
    """This computer's address on its local network (no packet is sent), or None."""
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))  # a UDP "connect" only picks the outgoing interface
        address = str(probe.getsockname()[0])
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None


def main() -> None:
    """The console entry point."""
    app()
