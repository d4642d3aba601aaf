"""The command line for every game: replay, sim, demo and --version, via Typer's test runner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit import __version__
from rummykit.actions import LayOff
from rummykit.cli import app
from rummykit.games import Gin, GinOptions, Rummy, find_game
from rummykit.games.gin import GinState, Outcome
from rummykit.games.rummy import RummyMatch, RummyOutcome, RummyState
from rummykit.players import RandomPlayer
from rummykit.players.greedy import GreedyRummy
from rummykit.record import dump_record, hand_record, match_record
from rummykit.sim import StuckError, play_hand, play_match

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


def test_replay_json_reports_an_error_as_json(tmp_path: Path, knocked: GinState) -> None:
    record = hand_record(knocked, PLAYERS)
    record["actions"].insert(3, [record["actions"][3][0], "knock KS"])
    path = _write(tmp_path, record)
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"].startswith(f"{path}: ")
    assert "action 4" in json.loads(result.stdout)["error"]


def test_a_byte_order_mark_is_skipped_and_a_repeated_key_refused(
    tmp_path: Path, knocked: GinState
) -> None:
    text = json.dumps(hand_record(knocked, PLAYERS))
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert PLAYERS[0] in result.stdout  # the names are read from the same text
    path.write_text(text.replace('"seed": ', '"seed": 1, "seed": ', 1), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "'seed' appears twice" in result.stderr
    assert "not valid JSON" not in result.stderr  # it is valid JSON; the record is refused


def test_a_player_name_with_a_control_character_is_refused(
    tmp_path: Path, knocked: GinState
) -> None:
    with pytest.raises(ValueError, match="control character"):  # saving refuses it too
        hand_record(knocked, ["An\x1b[2J", "Binh"])
    data = hand_record(knocked, ["An", "Binh"])
    path = _write(tmp_path, {**data, "players": ["An\x1b[2J", "Binh"]})  # a hand-made file
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "control character" in result.stderr
    assert "\x1b" not in result.stdout
    family = "Lan \U0001f468\u200d\U0001f469\u200d\U0001f467"  # joiners, as the web app allows
    path = _write(tmp_path, hand_record(knocked, [family, "Bình"]))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output


def test_sim_options_are_read_in_any_case() -> None:
    args = ["sim", "rummy", "-n", "2", "-o", "restock=Shuffle", "-o", "rummy_bonus=True"]
    result = runner.invoke(app, [*args, "-o", "melds_per_turn=Unlimited", "--json"])
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["options"]
    assert options["restock"] == "shuffle" and options["rummy_bonus"] is True
    assert options["melds_per_turn"] == "unlimited"


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
        (["sim", "poker"], "gin, gin-rummy, rummy, rummy-classic"),
        (["sim", "gin", "--players", "random"], "2 players"),
        (["sim", "gin", "--option", "wilds=2"], "unknown Gin option"),
        (["sim", "gin", "--hands", "2", "--matches", "2"], "not both"),
        (
            ["sim", "gin", "-o", "knock_limit=5", "-o", "knock_limit=9"],
            "knock_limit is given twice",
        ),
        # planned up front, an absurd count once filled the memory before the first hand
        (["sim", "gin", "--hands", "9" * 20], "at most 100,000,000 hands a run"),
        (["sim", "gin", "--matches", "20000000"], "at most 10,000,000 matches a run"),
        (["sim", "gin", "-p", "easy,medium,hard", "-m", "9" * 12], "at most 10,000,000 matches"),
        (
            ["sim", "gin", "-o", "knock_limit=null"],
            "knock_limit must be a whole number from 0 to 100, not null",
        ),
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


# ------------------------------------------------------------------------------ Basic Rummy

RUMMY_PLAYERS = ["Ann", "Bob", "Cid"]


def _greedy_hand(seats: int = 3) -> RummyState:
    """The first seeded greedy hand that ends by somebody going out after a lay-off."""
    for seed in range(50):
        state = play_hand(Rummy(), [GreedyRummy()] * seats, seed, seed % seats)
        assert state.result is not None
        laid_off = any(isinstance(a, LayOff) for _, a in state.history)
        if state.result.outcome is RummyOutcome.OUT and laid_off and state.result.points:
            return state
    raise AssertionError("no greedy hand went out in 50 seeds")


@pytest.fixture(scope="module")
def rummy_hand() -> RummyState:
    return _greedy_hand()


def test_replay_of_a_rummy_hand(tmp_path: Path, rummy_hand: RummyState) -> None:
    path = _write(tmp_path, hand_record(rummy_hand, RUMMY_PLAYERS))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert rummy_hand.result is not None and rummy_hand.result.winner is not None
    winner = RUMMY_PLAYERS[rummy_hand.result.winner]
    assert f"{winner} goes out and scores {rummy_hand.result.points} points" in out
    assert "Ann (seat 0), Bob (seat 1), Cid (seat 2)" in out
    for number, table_meld in enumerate(rummy_hand.table, 1):
        symbols = " ".join(c.symbol for c in table_meld.meld.cards)
        assert f"{number}. [{symbols}] laid by {RUMMY_PLAYERS[table_meld.owner]}" in out
    for seat, name in enumerate(RUMMY_PLAYERS):
        assert f"{name}: " in out
        assert f"= {rummy_hand.result.hand_values[seat]}" in out


def test_replay_json_of_a_rummy_hand(tmp_path: Path, rummy_hand: RummyState) -> None:
    path = _write(tmp_path, hand_record(rummy_hand, RUMMY_PLAYERS))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert rummy_hand.result is not None
    assert data["kind"] == "hand" and data["game"] == "rummy"
    assert data["players"] == RUMMY_PLAYERS
    assert data["options"] == rummy_hand.game.options.to_dict()
    assert data["hands"][0]["result"] == rummy_hand.result.to_dict()
    assert data["hands"][0]["actions"] == len(rummy_hand.history)
    assert data["scores"] == list(rummy_hand.result.scores) and sum(data["scores"]) > 0
    views = data["final"]["views"]
    assert [v["seat"] for v in views] == [0, 1, 2]
    assert views == [rummy_hand.view(seat).to_dict() for seat in range(3)]


def test_replay_of_a_rummy_match(tmp_path: Path) -> None:
    game = find_game("rummy-classic", {"hands": 3})
    match = play_match(game, [GreedyRummy()] * 4, 5)
    assert isinstance(match, RummyMatch) and match.result is not None
    names = ["Ann", "Bob", "Cid", "Dee"]
    path = _write(tmp_path, match_record(match, names), "match.json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    winners = [names[s] for s in match.result.winners]
    assert ("Match won by " if len(winners) == 1 else "Match shared by ") in result.stdout
    assert all(w in result.stdout for w in winners)
    assert "(3 hands)" in result.stdout
    data = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert data["kind"] == "match" and data["match_over"] is True
    assert data["match_result"] == match.result.to_dict()
    assert len(data["hands"]) == 3
    assert [h["result"] for h in data["hands"]] == [
        h.result.to_dict() if h.result is not None else None for h in match.hands
    ]
    assert data["scores"] == list(match.scores()) == list(match.result.totals)
    assert len(data["final"]["views"]) == 4


def test_an_illegal_rummy_action_is_named(tmp_path: Path, rummy_hand: RummyState) -> None:
    record = hand_record(rummy_hand, RUMMY_PLAYERS)
    actions = record["actions"]
    seat = actions[4][0]
    actions.insert(4, [seat, "knock KD"])  # not an action of Basic Rummy at all
    path = _write(tmp_path, record)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "action 5 " in result.stderr and "knock KD" in result.stderr
    assert result.stdout == ""


def test_a_rummy_record_with_seven_players_exits_1(tmp_path: Path) -> None:
    record = hand_record(Rummy().new_hand(players=3, seed=1), RUMMY_PLAYERS)
    record["players"] = [f"p{i}" for i in range(7)]
    result = runner.invoke(app, ["replay", str(_write(tmp_path, record))])
    assert result.exit_code == 1
    assert "2 to 6 players, not 7" in result.stderr


def test_sim_rummy_classic_with_five_players() -> None:
    args = ["sim", "rummy-classic", "-p", ",".join(["random"] * 5), "-n", "12", "--json"]
    result = runner.invoke(app, [*args, "--option", "restock=shuffle", "-o", "rummy_bonus=true"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 12 and data["variant"] == "rummy-classic" and data["game"] == "rummy"
    assert [p["seat"] for p in data["players"]] == [0, 1, 2, 3, 4]
    assert set(data["outcomes"]) == {"out", "stalemate"}
    assert sum(data["outcomes"].values()) == 12
    assert sum(p["hands_won"] for p in data["players"]) == data["outcomes"]["out"]
    assert data["options"]["restock"] == "shuffle" and data["options"]["rummy_bonus"] is True
    assert data["options"]["melds_per_turn"] == "unlimited"


def test_sim_rummy_options_parse_as_json_or_text() -> None:
    args = ["sim", "rummy", "-p", "random,random,random", "-n", "2", "--json"]
    result = runner.invoke(
        app, [*args, "-o", "melds_per_turn=unlimited", "-o", "restock_limit=2", "-o", "hands=3"]
    )
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["options"]
    assert options["melds_per_turn"] == "unlimited"
    assert options["restock_limit"] == 2 and options["hands"] == 3


def test_sim_rummy_table_has_a_column_per_seat() -> None:
    result = runner.invoke(app, ["sim", "rummy", "-p", "random,random,random,random", "-n", "6"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "rummy (4 players): 6 hands" in out
    assert "seat 3" in out and "seat 4" not in out
    assert "stalemate" in out and "out " in out


def test_sim_rummy_matches() -> None:
    args = ["sim", "rummy", "-p", "random,random,random", "-m", "2", "--option", "hands=3"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["matches"] == 2 and data["hands"] == 6
    assert sum(p["matches_won"] for p in data["players"]) >= 2
    table = runner.invoke(app, args)
    assert table.exit_code == 0 and "6 hands in 2 matches" in table.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sim", "gin", "--players", "random,random,random"], "gin needs 2 players, not 3"),
        (["sim", "rummy", "-p", ",".join(["random"] * 7)], "rummy is for 2 to 6 players, not 7"),
        (["sim", "rummy-classic", "-p", "random"], "rummy is for 2 to 6 players, not 1"),
        (["sim", "rummy", "-p", "random,wizard"], "valid: random"),
        (["sim", "rummy", "-o", "knock_limit=3"], "unknown Rummy option"),
        (["sim", "rummy", "-o", "restock=sideways"], "option restock"),
        (["sim", "rummy", "-o", "restock"], "name=value"),
        (["demo", "--game", "gin", "--players", "3"], "gin needs 2 players, not 3"),
        (["demo", "--game", "rummy", "--players", "7"], "2 to 6 players, not 7"),
        (
            ["demo", "--game", "poker"],
            "valid: basic-rummy, crazy, crazy-rummy, gin, gin-rummy, rummy, rummy-classic",
        ),
    ],
)
def test_multi_game_usage_errors_exit_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert needle in result.stderr


def test_rummy_demo_plays_a_hand_to_the_score() -> None:
    result = runner.invoke(app, ["demo", "--game", "rummy"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Basic Rummy (rummy), seed 311: Ann and Bob" in out
    assert " 1. Bob " in out  # the dealer's left starts
    assert " melds " in out and " lays off " in out and " discards " in out
    assert any(symbol in out for symbol in "♣♦♥♠")
    assert "and is out!" in out and "goes out and scores" in out
    assert "laid by" in out


def test_rummy_classic_demo_at_a_bigger_table() -> None:
    result = runner.invoke(app, ["demo", "-g", "rummy-classic", "-p", "4", "-s", "86"])
    assert result.exit_code == 0, result.output
    assert "Basic Rummy (rummy-classic), seed 86: Ann, Bob, Cid and Dee" in result.stdout
    assert "Dee: " in result.stdout and "goes out and scores" in result.stdout


def test_help_shows_flags_without_a_value() -> None:
    """A flag takes no value, and the help does not suggest one ("--json <bool>" made a reader
    write "--json true", which is refused)."""
    result = runner.invoke(app, ["replay", "--help"], env={"COLUMNS": "100"})
    line = next(x for x in result.stdout.splitlines() if "│ --json" in x)
    assert "Print the result as JSON" in line and "bool" not in line.lower(), line


def test_help_mentions_every_game() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert all(name in result.stdout for name in ("gin", "rummy", "rummy-classic", "crazy"))
    sim_help = runner.invoke(app, ["sim", "--help"])
    assert "rummy-classic" in sim_help.stdout and "2-6 players" in sim_help.stdout


def test_rummy_demo_tells_of_a_restock_and_a_stalemate() -> None:
    result = runner.invoke(app, ["demo", "-g", "rummy-classic", "-p", "6", "-s", "1"])
    assert result.exit_code == 0, result.output
    assert "the discard pile is shuffled to make a new stock of " in result.stdout
    assert "stalemate: the stock ran out for good, nobody scores." in result.stdout


RECORDS = Path(__file__).parent / "records"


def test_replay_of_a_crazy_round_and_game() -> None:
    """Crazy Rummy replays show each round's contract and the penalty points, the last round's
    table and hands, and the lowest total as the winner (no "points to the winner" column)."""
    from rummykit.games.crazy import CrazyMatch, CrazyState
    from rummykit.record import read_record
    from rummykit.wild_melds import hand_points

    round5 = read_record(RECORDS / "crazy_round5.json")
    assert isinstance(round5, CrazyState) and round5.result is not None
    result = runner.invoke(app, ["replay", str(RECORDS / "crazy_round5.json")])
    assert result.exit_code == 0, result.output
    out = result.stdout
    header = next(line for line in out.splitlines() if "┃ # ┃" in line)
    assert "round" in header and "points" not in header  # the winner scores nothing here
    assert "round 5 (2 books + 1 run), hand_over" in out
    for number, table_meld in enumerate(round5.table, 1):
        assert f"{number}. [{' '.join(c.symbol for c in table_meld.meld.cards)}]" in out
    assert f"= {hand_points(round5.hands[0])}" in out
    assert "goes out; the others score the cards left in their hands" in out
    game = read_record(RECORDS / "crazy_match.json")
    assert isinstance(game, CrazyMatch) and game.result is not None
    result = runner.invoke(app, ["replay", str(RECORDS / "crazy_match.json")])
    assert result.exit_code == 0, result.output
    names = json.loads((RECORDS / "crazy_match.json").read_text())["players"]
    winner = names[game.result.winners[0]]
    assert f"Game won by {winner} with the lowest total" in result.stdout
    total_row = next(line for line in result.stdout.splitlines() if "│ total" in line)
    assert total_row.replace("│", " ").split()[1:] == [str(t) for t in game.result.totals]


def test_crazy_demo_plays_round_one_at_four() -> None:
    result = runner.invoke(app, ["demo", "--game", "crazy"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Crazy Rummy, round 1 (contract: 2 books), seed 1: Ann, Bob, Cid and Dee" in out
    assert " lays down the contract: " in out and " discards " in out
    assert "Cards left in hand (points are bad):" in out and "Dee: " in out
    assert "goes out and scores 0" in out or "stock out" in out
    two = runner.invoke(app, ["demo", "-g", "crazy", "-p", "2", "-s", "5"])
    assert two.exit_code == 0, two.output
    assert "Ann and Bob" in two.stdout and " buys " not in two.stdout  # two players never buy


def test_sim_crazy_hands_by_round() -> None:
    cycled = runner.invoke(app, ["sim", "crazy", "-p", "random,random", "-n", "3", "--json"])
    assert cycled.exit_code == 0, cycled.output
    assert json.loads(cycled.stdout)["round"] is None
    table = runner.invoke(app, ["sim", "crazy", "-p", "random,random", "-n", "2"])
    assert "(rounds 1-7 in turn)" in table.stdout
    one = runner.invoke(app, ["sim", "crazy", "-p", "random,random", "-n", "2", "--round", "6"])
    assert one.exit_code == 0, one.output
    assert "2 hands in round 6" in one.stdout
    as_json = runner.invoke(
        app, ["sim", "crazy", "-p", "random,random", "-n", "2", "--round", "6", "--json"]
    )
    assert json.loads(as_json.stdout)["round"] == 6
    for argv in (
        ["sim", "gin", "--round", "2"],
        ["sim", "crazy", "-p", "random,random", "-m", "1", "--round", "2"],
    ):
        refused = runner.invoke(app, argv)
        assert refused.exit_code == 2
        assert "--round is for single hands of Crazy Rummy" in refused.output


def test_python_m_rummykit_is_the_cli() -> None:
    root = Path(__file__).resolve().parents[1]
    args = [sys.executable, "-m", "rummykit", "sim", "gin", "--hands", "3", "--json"]
    done = subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] == 3
    usage = subprocess.run(
        [sys.executable, "-m", "rummykit", "--help"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert usage.returncode == 0 and "Usage: rummykit" in usage.stdout


def test_a_simulation_that_does_not_end_says_so_without_a_traceback(monkeypatch: Any) -> None:
    """Random players in Crazy Rummy with unlimited restocks may never end a hand (nobody goes
    out, and the stock is always rebuilt): the CLI says what to change, exit 1."""
    import rummykit.sim

    monkeypatch.setattr(rummykit.sim, "MAX_ACTIONS", 300)  # (a stuck hand is found at once)
    players = ["-p", "random,random,random,random", "-o", "max_restocks=unlimited"]
    for count in (["-n", "1"], ["-m", "4", "--seats", "4"]):  # single hands, a round robin
        result = runner.invoke(app, ["sim", "crazy", *players, *count])
        assert result.exit_code == 1, result.output
        assert "did not end within 300 actions" in result.stderr
        assert "set a limit, e.g. -o max_restocks=5" in result.stderr
        assert not isinstance(result.exception, StuckError)
