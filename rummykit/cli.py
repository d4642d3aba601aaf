"""The ``rummykit`` command: replay records, simulate players against each other, watch a demo.

::

    rummykit replay game.json [--json]
    rummykit sim gin --players random,random --hands 1000 --jobs 4 [--json] [--option knock_limit=5]
    rummykit demo [--seed 7]
    rummykit --version
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import progress as rich_progress
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rummykit import __version__
from rummykit.actions import Action, BigGin, Discard, Done, Draw, Knock, LayOff, Pass, Take
from rummykit.cards import Card
from rummykit.games import GAMES, Gin, find_game
from rummykit.games.base import derive_seed
from rummykit.games.gin import GinHandResult, GinMatch, GinOptions, GinState, Outcome
from rummykit.players import PLAYERS, RandomPlayer, UnknownPlayerError, find_player
from rummykit.record import RecordError, load_record
from rummykit.sim import OUTCOMES, Progress, SimReport, simulate

__all__ = ["app", "main"]

app = typer.Typer(
    name="rummykit",
    help="Gin Rummy (and soon Rummy and Crazy Rummy): replay records, simulate players, demo.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DEMO_SEED = 204
"""The hand ``rummykit demo`` plays unless told otherwise."""


def _out() -> Console:
    return Console(highlight=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def _fail(message: str, code: int) -> typer.Exit:
    _err().print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


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
    """Gin Rummy rules engine: replay records, simulate computer players, watch a demo hand."""


# ----------------------------------------------------------------------------------- cards


def _card(card: Card) -> str:
    colour = "red" if card.suit.is_red else "default"
    return f"[bold {colour}]{card.symbol}[/]"


def _cards(cards: Any) -> str:
    return " ".join(_card(c) for c in cards) or "-"


def _melds(melds: Any) -> str:
    return "  ".join(f"[{_cards(m.cards)}]" for m in melds) or "-"


def _name(players: list[str], seat: int | None) -> str:
    return "-" if seat is None else escape(players[seat])


# ---------------------------------------------------------------------------------- replay


def _record_players(text: str) -> list[str]:
    try:
        players = json.loads(text).get("players")
    except (ValueError, AttributeError):
        players = None
    if isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players):
        return players
    return ["player 1", "player 2"]


def _hand_rows(hands: list[GinState]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    totals = [0, 0]
    for number, hand in enumerate(hands, 1):
        result = hand.result
        if result is not None and result.winner is not None:
            totals[result.winner] += result.points
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


def _replay_data(replayed: GinState | GinMatch, players: list[str]) -> dict[str, Any]:
    hands = replayed.hands if isinstance(replayed, GinMatch) else [replayed]
    last = hands[-1]
    rows = _hand_rows(hands)
    data: dict[str, Any] = {
        "kind": "match" if isinstance(replayed, GinMatch) else "hand",
        "game": last.game.name,
        "players": players,
        "options": last.options.to_dict(),
        "hands": rows,
        "scores": rows[-1]["totals"],
        "final": {
            "phase": last.phase.value,
            "to_act": last.to_act,
            "views": [last.view(seat).to_dict() for seat in (0, 1)],
        },
    }
    if isinstance(replayed, GinMatch):
        data["match_over"] = replayed.is_over
        data["match_result"] = None if replayed.result is None else replayed.result.to_dict()
    return data


def _print_replay(replayed: GinState | GinMatch, players: list[str]) -> None:
    out = _out()
    hands = replayed.hands if isinstance(replayed, GinMatch) else [replayed]
    last = hands[-1]
    kind = "match" if isinstance(replayed, GinMatch) else "hand"
    out.print(
        f"[bold]{last.game.name}[/] {kind}: {escape(players[0])} (seat 0) v "
        f"{escape(players[1])} (seat 1), {len(hands)} hand{'s' if len(hands) != 1 else ''}"
    )
    table = Table(title="Hands")
    for column in ("#", "dealer", "actions", "outcome", "winner", "points", "deadwood"):
        table.add_column(
            column, justify="right" if column in ("#", "actions", "points") else "left"
        )
    table.add_column(escape(players[0]), justify="right")
    table.add_column(escape(players[1]), justify="right")
    for row, hand in zip(_hand_rows(hands), hands, strict=True):
        result = hand.result
        if result is None:
            cells = [f"in play ({hand.phase.value})", "-", "-", "-"]
        elif result.winner is None:
            cells = [result.outcome.value, "-", "0", "-"]
        else:
            cells = [
                result.outcome.value,
                _name(players, result.winner),
                str(result.points),
                f"{result.deadwood[0]} / {result.deadwood[1]}",
            ]
        totals = row["totals"]
        table.add_row(
            str(row["hand"]),
            _name(players, hand.dealer),
            str(row["actions"]),
            *cells,
            str(totals[0]),
            str(totals[1]),
        )
    out.print(table)
    _print_final_state(out, last, players)
    if isinstance(replayed, GinMatch):
        _print_match(out, replayed, players)


def _print_match(out: Console, match: GinMatch, players: list[str]) -> None:
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


def _print_final_state(out: Console, hand: GinState, players: list[str]) -> None:
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
        _print_result(out, hand.result, players)


def _print_result(out: Console, result: GinHandResult, players: list[str]) -> None:
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


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A hand or match record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Replay a record, validating every action, and show the final state and scores."""
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _fail(f"no such file: {file}", 1) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(f"cannot read {file}: {exc}", 1) from None
    try:
        replayed = load_record(text)
    except RecordError as exc:
        raise _fail(f"{file}: {exc}", 1) from None
    players = _record_players(text)
    if as_json:
        print(json.dumps(_replay_data(replayed, players), indent=1, ensure_ascii=False))
    else:
        _print_replay(replayed, players)


# ------------------------------------------------------------------------------------- sim


def _parse_option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise ValueError(f"--option takes name=value, not {text!r}")
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return name.strip(), value


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _sim_table(report: SimReport) -> Table:
    """The report as a narrow table: one row a statistic, one column a seat, plus all hands."""
    plural = "es" if report.matches != 1 else ""
    matches = f" in {report.matches} match{plural}" if report.matches else ""
    table = Table(
        title=f"{report.game}: {report.hands} hands{matches}, seed {report.seed}",
        caption=(
            f"{report.hands_per_second:,.0f} hands/s, {report.mean_actions:.1f} actions a hand, "
            f"{report.elapsed:.2f} s on {report.jobs} job{'s' if report.jobs != 1 else ''}"
        ),
    )
    table.add_column("")
    for p in report.players:
        table.add_column(f"{escape(p.name)} (seat {p.seat})", justify="right")
    table.add_column("all", justify="right")
    seats = report.players

    def row(label: str, values: list[str], total: str = "") -> None:
        table.add_row(label, *values, total)

    if report.matches:
        won = [p.matches_won for p in seats]
        row("matches won", [str(w) for w in won], str(report.matches))
        row("match win %", [_percent(w, report.matches) for w in won])
        row("mean final total", [f"{p.mean_total or 0:.1f}" for p in seats])
    decided = report.hands - report.outcomes[Outcome.CANCELLED.value]
    row("hands played", ["", ""], str(report.hands))
    row("hands won", [str(p.hands_won) for p in seats], str(decided))
    row("hand win %", [_percent(p.hands_won, report.hands) for p in seats])
    row("points", [str(p.points) for p in seats], str(sum(p.points for p in seats)))
    for outcome in OUTCOMES:
        label = outcome.replace("_", " ")
        if outcome == Outcome.CANCELLED.value:
            row(f"{label} (wall)", ["", ""], str(report.outcomes[outcome]))
        else:
            row(label, [str(p.outcomes[outcome]) for p in seats], str(report.outcomes[outcome]))
    return table


def _progress_bar(stack: contextlib.ExitStack, label: str) -> Progress:
    """A Rich progress bar on stderr, closed with ``stack``, as a simulation callback."""
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


@app.command()
def sim(
    game: Annotated[str, typer.Argument(help="The game, e.g. gin.")],
    players: Annotated[
        str, typer.Option("--players", "-p", help="Comma-separated player names, seat 0 first.")
    ] = "random,random",
    hands: Annotated[
        int | None, typer.Option("--hands", "-n", min=0, help="Single hands (default 100).")
    ] = None,
    matches: Annotated[
        int | None, typer.Option("--matches", "-m", min=0, help="Whole matches instead of hands.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rules option as name=value (repeatable)."),
    ] = None,
) -> None:
    """Simulate computer players against each other and report wins, points and outcomes."""
    try:
        game_cls = find_game(game)
    except ValueError:
        raise _fail(f"unknown game {game!r} (valid: {', '.join(sorted(GAMES))})", 2) from None
    names = [p.strip() for p in players.split(",")]
    valid = ", ".join(PLAYERS.get(game_cls.name, ()))
    if len(names) != 2:
        raise _fail(f"{game_cls.name} needs 2 players, e.g. --players random,random", 2)
    for name in names:
        try:
            find_player(game_cls.name, name, 0)
        except UnknownPlayerError:
            raise _fail(
                f"unknown player {name!r} for {game_cls.name} (valid: {valid})", 2
            ) from None
    if hands is not None and matches is not None:
        raise _fail("give --hands or --matches, not both", 2)
    if hands is None and matches is None:
        hands = 100
    try:
        options = GinOptions.from_dict(dict(_parse_option(o) for o in option or ()))
    except (ValueError, TypeError) as exc:
        raise _fail(str(exc), 2) from None
    with contextlib.ExitStack() as stack:
        progress = None
        if not as_json and sys.stderr.isatty():
            progress = _progress_bar(stack, "matches" if matches is not None else "hands")
        report = simulate(
            game_cls.name,
            names,
            hands=hands,
            matches=matches,
            seed=seed,
            jobs=jobs,
            options=options,
            progress=progress,
        )
    if as_json:
        print(json.dumps(report.to_dict(), indent=1))
    else:
        _out().print(_sim_table(report))


# ------------------------------------------------------------------------------------ demo


def _describe(action: Action, seat: int, state: GinState) -> str:
    """The action just applied by ``seat``, in words."""
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


@app.command()
def demo(
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the hand.")] = DEMO_SEED,
) -> None:
    """Play one seeded random-v-random Gin hand and show it turn by turn."""
    out = _out()
    players = ["Ann", "Bob"]
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
        phrases.append(_describe(action, actor, state))
        if state.to_act != actor:  # the turn passed (or the hand ended): one line a turn
            turn += 1
            line = f"{turn:3}. {players[actor]} " + ", ".join(phrases)
            if isinstance(action, Discard):
                line += f"   [dim]stock {len(state.stock)}[/]"
            out.print(line)
            phrases = []
    assert state.result is not None
    out.print()
    _print_result(out, state.result, players)


def main() -> None:
    """The console entry point."""
    app()
