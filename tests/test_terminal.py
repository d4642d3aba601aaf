"""Playing in the terminal (rummykit.terminal and ``rummykit play``): scripted answers."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.games import find_game
from rummykit.players import find_player
from rummykit.record import load_record
from rummykit.terminal import TerminalGame, _ordered

runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "100"})


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=100, color_system=None, highlight=False), out


def _scripted(answers: list[str]) -> Callable[[str], str]:
    queue: Iterator[str] = iter(answers)

    def ask(prompt: str) -> str:
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    return ask


def _playing_well(table: TerminalGame, by_number: bool) -> Callable[[str], str]:
    """Answers as a hard player would: its move as notation, or as the listed number."""
    adviser = find_player(table.game.name, "hard", seed=5)

    def ask(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            return ""
        view = table.match.hand.view(0)
        action = adviser.choose(view)
        if by_number:
            return str(_ordered(view.legal_actions).index(action) + 1)
        return str(action)

    return ask


@pytest.mark.parametrize(
    ("game", "players", "by_number"),
    [("gin", 2, False), ("rummy", 3, True), ("crazy", 3, False)],
)
def test_a_whole_match_played_from_the_terminal(game: str, players: int, by_number: bool) -> None:
    options = {"target_score": 30} if game != "crazy" else {}
    played = find_game(game, options)
    console, out = _console()
    table = TerminalGame(played, players, "easy", 11, console)
    table.ask = _playing_well(table, by_number)
    assert table.run() is True
    assert table.match.is_over
    text = out.getvalue()
    assert "Match over" in text and ("Round over" if game == "crazy" else "Hand over") in text
    assert text.count("Your hand:") >= 3
    # What was shown are the person's moves and the computers', as the person's view has them.
    last: Any = table.match.hand.view(0)
    for seat, move in last.history:
        assert f"{table.names[seat]}: {move}" in text


def test_bad_answers_are_explained_and_change_nothing() -> None:
    console, out = _console()
    answers = ["foo", "99", "0", "²", "discard ZZ", "knock AS", "hint", "help", "", "pass", "quit"]
    table = TerminalGame(find_game("gin"), 2, "medium", 3, console, ask=_scripted(answers))
    before = len(table.match.hand.history)
    assert table.run() is False
    text = out.getvalue()
    assert "unknown action 'foo'" in text
    assert "Pick a number from 1 to 2." in text
    assert "unknown action '²'" in text  # a digit, but not one to count with
    assert "not a card: 'ZZ'" in text
    assert "Not now:" in text  # a knock during the up-card offer
    assert "Hint: " in text and "hint   what the computer would do" in text
    assert "Stopped." in text
    # The bad answers moved nothing: only the pass (and the computer's replies) were played.
    mine = [move for seat, move in table.match.hand.history[before:] if seat == 0]
    assert [str(m) for m in mine] == ["pass"]


def test_end_of_input_or_ctrl_c_stops_the_match() -> None:
    console, _ = _console()
    table = TerminalGame(find_game("rummy"), 4, "easy", 1, console, ask=_scripted([]))
    assert table.run() is False
    assert not table.match.is_over

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    table = TerminalGame(find_game("gin"), 2, "easy", 1, console, ask=interrupted)
    assert table.run() is False

    class Thinking:  # Ctrl-C while a computer player thinks
        name = "easy"

        def choose(self, view: Any) -> Any:
            raise KeyboardInterrupt

    table = TerminalGame(find_game("gin"), 2, "easy", 1, console, ask=_scripted(["pass"]))
    table.computers[1] = cast(Any, Thinking())
    assert table.run() is False


def test_the_moves_are_listed_in_hand_order_and_numbered() -> None:
    console, out = _console()
    answers = ["pass", "1", "1", "quit"]  # pass the up-card, then draw, then the first discard
    table = TerminalGame(find_game("gin"), 2, "medium", 3, console, ask=_scripted(answers))
    table.run()
    text = out.getvalue()
    listed = [line for line in text.splitlines() if line.strip().startswith("1 discard")]
    assert listed, text
    hand_line = [line for line in text.splitlines() if line.startswith("Your hand:")][2]
    first = hand_line.split()[2]  # the hand is shown by suit, then rank
    assert listed[0].split()[2] == first
    mine = [str(m) for s, m in table.match.hand.history if s == 0]
    assert mine[-1] == f"discard {first}"


def test_the_play_command_saves_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    result = runner.invoke(
        app, ["play", "gin", "--seed", "8", "--save", str(path)], input="pass\n1\n1\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "seed 8" in result.output and "Record saved" in result.output
    record = json.loads(path.read_text())
    assert record["players"] == ["You", "Computer 1"]
    replayed = load_record(record)
    actions = [text for seat, text in record["hands"][0]["actions"] if seat == 0]
    assert actions[:2] == ["pass", "draw"]
    assert replayed is not None
    again = runner.invoke(app, ["replay", str(path)])
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play", "gin", "--level", "genius"], "unknown level 'genius'"),
        (["play", "rummy", "--players", "9"], "2 to 6"),
        (["play", "poker"], "unknown game"),
        (["play", "gin", "-o", "knock_limit=-1"], "knock_limit"),
        (["play", "gin", "-o", "nonsense"], "name=value"),
        (["play", "gin", "--save", "/nonexistent/folder/m.json"], "cannot write the record"),
    ],
)
def test_the_play_command_refuses_bad_settings(args: list[str], says: str) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2
    assert says in result.output
