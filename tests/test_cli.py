"""The command line: replay, sim, demo and --version, through Typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit import __version__
from rummykit.cli import app
from rummykit.games import Gin, GinOptions
from rummykit.games.gin import GinState, Outcome
from rummykit.players import RandomPlayer
from rummykit.record import dump_record, hand_record, match_record
from rummykit.sim import play_hand, play_match

# Plain text whatever the environment says (no forced colour), wide enough for the tables.
runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "100"})
PLAYERS = ["Ann", "Bob"]


def _knocked_hand() -> GinState:
    """The first seeded random hand that ends with a knock (a fixed, deterministic search)."""
    game = Gin(GinOptions(knock_limit=30))
    for seed in range(100):
        state = play_hand(game, [RandomPlayer(seed), RandomPlayer(seed + 1)], seed, 0)
        assert state.result is not None
        if state.result.outcome is Outcome.KNOCK:
            return state
    raise AssertionError("no knock in 100 hands")


@pytest.fixture(scope="module")
def knocked() -> GinState:
    return _knocked_hand()


def _write(tmp_path: Path, record: dict[str, Any], name: str = "hand.json") -> Path:
    path = tmp_path / name
    path.write_text(dump_record(record), encoding="utf-8")
    return path


def test_replay_prints_the_winner_and_points(tmp_path: Path, knocked: GinState) -> None:
    path = _write(tmp_path, hand_record(knocked, PLAYERS))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert knocked.result is not None and knocked.result.winner is not None
    winner = PLAYERS[knocked.result.winner]
    assert f"{winner} scores {knocked.result.points} points" in result.stdout
    assert "knock" in result.stdout


def test_replay_json_matches_the_replayed_state(tmp_path: Path, knocked: GinState) -> None:
    path = _write(tmp_path, hand_record(knocked, PLAYERS))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert knocked.result is not None and knocked.result.winner is not None
    assert data["kind"] == "hand" and data["players"] == PLAYERS
    assert data["hands"][0]["result"] == knocked.result.to_dict()
    assert data["hands"][0]["actions"] == len(knocked.history)
    expected = [0, 0]
    expected[knocked.result.winner] = knocked.result.points
    assert data["scores"] == expected
    views = data["final"]["views"]
    assert [v["seat"] for v in views] == [0, 1]
    assert views[0] == knocked.view(0).to_dict()


def test_replay_of_a_match(tmp_path: Path) -> None:
    game = Gin(GinOptions(knock_limit=30, target_score=40))
    match = play_match(game, [RandomPlayer(1), RandomPlayer(2)], 3)
    assert match.result is not None
    path = _write(tmp_path, match_record(match, PLAYERS), "match.json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert f"Match won by {PLAYERS[match.result.winner]}" in result.stdout
    data = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert data["kind"] == "match" and data["match_result"] == match.result.to_dict()
    assert len(data["hands"]) == len(match.hands)
    assert data["scores"] == list(match.scores())


def test_an_illegal_action_in_the_middle_is_named(tmp_path: Path, knocked: GinState) -> None:
    record = hand_record(knocked, PLAYERS)
    actions = record["actions"]
    middle = len(actions) // 2
    seat = actions[middle][0]
    actions.insert(middle, [seat, "pass"])  # the right seat, but pass is legal only on the offer
    path = _write(tmp_path, record)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"action {middle + 1} " in result.stderr
    assert "pass" in result.stderr
    assert result.stdout == ""


def test_malformed_json_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"game": "gin", "actions": [', encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "not valid JSON" in result.stderr


def test_missing_file_exits_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 1
    assert "no such file" in result.stderr


def test_sim_json_counts_add_up() -> None:
    args = ["sim", "gin", "--players", "random,random", "--hands", "16", "--seed", "4", "--json"]
    result = runner.invoke(app, [*args, "--option", "knock_limit=30"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 16
    assert sum(data["outcomes"].values()) == 16
    won = sum(p["hands_won"] for p in data["players"])
    assert won == 16 - data["outcomes"]["cancelled"] and won > 0
    assert sum(p["points"] for p in data["players"]) > 0


def test_sim_table_and_default_hands() -> None:
    result = runner.invoke(app, ["sim", "gin", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "gin: 100 hands" in result.stdout
    assert "hands won" in result.stdout and "cancelled" in result.stdout


def test_sim_matches_table() -> None:
    result = runner.invoke(
        app,
        ["sim", "gin", "-m", "2", "-o", "knock_limit=30", "-o", "target_score=30"],
    )
    assert result.exit_code == 0, result.output
    assert "in 2 matches" in result.stdout and "matches won" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sim", "gin", "--players", "random,wizard"], "valid: random"),
        (["sim", "poker"], "valid: gin"),
        (["sim", "gin", "--players", "random"], "2 players"),
        (["sim", "gin", "--option", "wilds=2"], "unknown Gin option"),
        (["sim", "gin", "--hands", "2", "--matches", "2"], "not both"),
    ],
)
def test_sim_usage_errors_exit_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert needle in result.stderr


def test_demo_plays_a_hand_to_the_score() -> None:
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "Gin Rummy" in result.stdout
    assert any(symbol in result.stdout for symbol in "♣♦♥♠")
    assert " 1. Bob " in result.stdout  # the non-dealer acts first
    assert "scores" in result.stdout  # the default seed is a hand that ends with a knock


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"rummykit {__version__}"
