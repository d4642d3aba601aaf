"""``rummykit review``: a record's decisions of one seat beside the computer's, via Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.games import find_game
from rummykit.games.base import HandState
from rummykit.games.crazy import Crazy
from rummykit.games.match import Match
from rummykit.players import find_player
from rummykit.record import dump_record, hand_record, match_record
from rummykit.review import review_hand

# Plain text, English unless a test says otherwise, wide enough for the lines.
ENV: dict[str, str | None] = {
    "FORCE_COLOR": None,
    "TTY_COMPATIBLE": None,
    "COLUMNS": "100",
    "LC_ALL": None,
    "LC_MESSAGES": None,
    "LANG": "C.UTF-8",
}
runner = CliRunner(env=ENV)
NAMES = ["Ann", "Bob"]


def _gin_match() -> Match:
    """The first two hands of a Gin match (a record saved before the match ends, as
    ``rummykit play --save`` does on quit). Seat 0 plays each decision as a fresh ``medium``
    player seeded with the decision's index (as a review at seed 0 does), seat 1 as ``easy``."""
    game = find_game("gin")
    match = game.new_match(seed=3)
    other = find_player(game, "easy", 1)
    while not (len(match.hands) == 2 and match.hand.is_over):
        hand = match.hand
        if hand.is_over:
            match.next_hand()
            continue
        seat = hand.to_act
        assert seat is not None
        player = find_player(game, "medium", len(hand.history)) if seat == 0 else other
        match.apply(player.choose(hand.view(seat)), seat)
    assert not match.is_over
    return match


@pytest.fixture(scope="module")
def match() -> Match:
    return _gin_match()


@pytest.fixture
def match_file(tmp_path: Path, match: Match) -> Path:
    path = tmp_path / "match.json"
    path.write_text(dump_record(match_record(match, NAMES)), encoding="utf-8")
    return path


def _hand_file(tmp_path: Path, hand: HandState, name: str = "hand.json") -> Path:
    path = tmp_path / name
    path.write_text(dump_record(hand_record(hand)), encoding="utf-8")
    return path


def _play_hand(game_name: str, players: int, seed: int) -> HandState:
    game = find_game(game_name)
    state = game.new_hand(players=players, seed=seed)
    seats = [find_player(game, "medium", seat) for seat in range(players)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(seats[seat].choose(state.view(seat)), seat)
    return state


def test_every_hand_of_a_match_with_a_heading(match_file: Path, match: Match) -> None:
    result = runner.invoke(app, ["review", str(match_file), "--level", "medium"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for number, hand in enumerate(match.hands, 1):
        assert f"Hand {number} · Ann (seat 0)" in out
        review = review_hand(hand, 0, level="medium")
        assert review.agreed == review.decisions  # seat 0 played as medium does when reviewing
        assert review.text("en") in out
    assert out.count("Seat 0's decisions beside the medium computer's") == len(match.hands)


def test_hard_is_the_default_level_and_seat_1_can_be_reviewed(
    match_file: Path, match: Match
) -> None:
    result = runner.invoke(app, ["review", str(match_file), "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert "Hand 1 · Bob (seat 1)" in result.stdout
    assert review_hand(match.hands[0], 1).text("en") in result.stdout


def test_json_holds_each_hands_review(match_file: Path, match: Match) -> None:
    result = runner.invoke(app, ["review", str(match_file), "--json", "-l", "hard"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "gin" and data["players"] == NAMES
    assert (data["seat"], data["level"]) == (0, "hard")
    assert [row["hand"] for row in data["hands"]] == list(range(1, len(match.hands) + 1))
    for row, hand in zip(data["hands"], match.hands, strict=True):
        assert row == {"hand": row["hand"], **review_hand(hand, 0).to_dict()}


def test_one_hand_of_a_match(match_file: Path, match: Match) -> None:
    result = runner.invoke(app, ["review", str(match_file), "--hand", "2"])
    assert result.exit_code == 0, result.output
    assert "Hand 2 · Ann (seat 0)" in result.stdout and "Hand 1" not in result.stdout
    data = json.loads(
        runner.invoke(app, ["review", str(match_file), "--hand", "2", "--json"]).stdout
    )
    assert [row["hand"] for row in data["hands"]] == [2]
    assert data["hands"][0]["steps"] == review_hand(match.hands[1], 0).to_dict()["steps"]


def test_only_different(match_file: Path, match: Match) -> None:
    review = review_hand(match.hands[0], 0)
    assert 0 < review.agreed < review.decisions  # hard does not always agree with medium
    args = ["review", str(match_file), "--hand", "1", "--only-different"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)["hands"][0]
    assert (data["decisions"], data["agreed"]) == (review.decisions, review.agreed)
    assert data["steps"] == [s.to_dict() for s in review.steps if s.verdict == "different"]
    text = runner.invoke(app, args).stdout
    assert f"{review.agreed} of {review.decisions}" in text
    for step in review.steps:
        assert (f"  {step.text('en')}" in text) is (step.verdict == "different")


def test_vietnamese_by_option_or_by_locale(match_file: Path, match: Match) -> None:
    expected = review_hand(match.hands[0], 0).text("vi")
    result = runner.invoke(app, ["review", str(match_file), "--hand", "1", "--lang", "VI"])
    assert result.exit_code == 0, result.output
    assert "Ván 1 · Ann (ghế 0)" in result.stdout and expected in result.stdout
    local = runner.invoke(app, ["review", str(match_file), "--hand", "1"], env={"LANG": "vi_VN"})
    assert local.stdout == result.stdout
    english = runner.invoke(
        app, ["review", str(match_file), "--hand", "1", "--lang", "en"], env={"LANG": "vi_VN"}
    )
    assert "Hand 1 · Ann (seat 0)" in english.stdout


def test_a_single_hand_and_a_crazy_round(tmp_path: Path) -> None:
    rummy = _play_hand("rummy", 3, 5)
    result = runner.invoke(app, ["review", str(_hand_file(tmp_path, rummy)), "--seat", "2"])
    assert result.exit_code == 0, result.output
    assert "Hand 1 · player 3 (seat 2)" in result.stdout
    assert review_hand(rummy, 2).text("en") in result.stdout
    crazy = Crazy().new_hand(players=4, seed=2, round=3)
    players = [find_player("crazy", "medium", seat) for seat in range(4)]
    while not crazy.is_over:
        seat = crazy.to_act
        assert seat is not None
        crazy.apply(players[seat].choose(crazy.view(seat)), seat)
    path = _hand_file(tmp_path, crazy, "crazy.json")
    result = runner.invoke(app, ["review", str(path), "--lang", "vi", "--level", "easy"])
    assert result.exit_code == 0, result.output
    assert "Vòng 3 · player 1 (ghế 0)" in result.stdout
    data = json.loads(runner.invoke(app, ["review", str(path), "--json"]).stdout)
    assert data["game"] == "crazy" and [(r["hand"], r["round"]) for r in data["hands"]] == [(1, 3)]


def test_a_hand_with_no_decision_yet(tmp_path: Path) -> None:
    path = _hand_file(tmp_path, find_game("gin").new_hand(seed=1))
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 0, result.output
    assert "no decision to review" in result.stdout


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["--seat", "2"], 2, "no seat 2 in"),
        (["--seat", "-1"], 2, "its seats are 0 to 1"),
        (["--hand", "0"], 2, "no hand 0 in"),
        (["--hand", "9"], 2, "it has hands 1 to 2"),
        (["--level", "expert"], 2, "unknown level 'expert' (easy, medium or hard)"),
        (["--level", "random"], 2, "unknown level 'random'"),
        (["--lang", "fr"], 2, "unknown language 'fr' (en or vi)"),
    ],
)
def test_bad_arguments_exit_2_saying_why(
    match_file: Path, args: list[str], code: int, needle: str
) -> None:
    result = runner.invoke(app, ["review", str(match_file), *args])
    assert result.exit_code == code
    assert needle in result.stderr and "Traceback" not in result.output
    as_json = runner.invoke(app, ["review", str(match_file), *args, "--json"])
    assert as_json.exit_code == code
    assert needle in json.loads(as_json.stdout)["error"]


def test_a_single_hand_has_only_hand_1(tmp_path: Path) -> None:
    path = _hand_file(tmp_path, _play_hand("gin", 2, 4))
    result = runner.invoke(app, ["review", str(path), "--hand", "2"])
    assert result.exit_code == 2 and "it has 1 hand" in result.stderr
    assert runner.invoke(app, ["review", str(path), "--hand", "1"]).exit_code == 0


def _bad_records(tmp_path: Path) -> list[tuple[Path, str]]:
    hand = _play_hand("gin", 2, 4)
    record: dict[str, Any] = hand_record(hand)
    record["actions"][3] = [record["actions"][3][0], "discard XX"]
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(record), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    return [
        (illegal, "action 4"),
        (broken, "not valid JSON"),
        (tmp_path / "nowhere.json", "no such file"),
    ]


def test_a_record_that_cannot_be_replayed_exits_1(tmp_path: Path) -> None:
    for path, needle in _bad_records(tmp_path):
        result = runner.invoke(app, ["review", str(path)])
        assert result.exit_code == 1, path
        assert needle in result.stderr and "Traceback" not in result.output
        as_json = runner.invoke(app, ["review", str(path), "--json"])
        assert as_json.exit_code == 1
        assert needle in json.loads(as_json.stdout)["error"]


def test_review_errors_in_vietnamese_keep_the_english_detail(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    result = runner.invoke(app, ["review", str(missing), "--lang", "vi"])
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert "lỗi: Không thực hiện được lệnh. Chi tiết (tiếng Anh): no such file:" in said
