"""``rummykit sim``: computer players against each other, hands or whole matches, reported as
a table of wins, points and outcomes (or JSON); players that do not make one table meet in a
round robin, rated with head-to-head records."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Annotated, Any, cast

import typer
from rich import progress as rich_progress
from rich.markup import escape
from rich.table import Table

from rummykit.cli.common import (
    GAME_NAMES,
    _err,
    _fail,
    _find_game,
    _lower_choices,
    _out,
    _parse_options,
)
from rummykit.games import Game, find_game
from rummykit.players import PLAYERS, UnknownPlayerError, find_player
from rummykit.sim import Progress, SimReport, StuckError, check_count, check_players, simulate
from rummykit.tournament import TournamentReport, round_robin


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
