"""Playing in the terminal (rummykit.terminal and ``rummykit play``): scripted answers."""

from __future__ import annotations

import io
import json
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.games import GAMES, find_game
from rummykit.games.crazy import CrazyOutcome
from rummykit.games.gin import Outcome
from rummykit.games.rummy import RummyOutcome
from rummykit.players import find_player
from rummykit.players.reasons import Suggestion
from rummykit.record import load_record
from rummykit.review import review_hand
from rummykit.terminal import TerminalGame, _ordered
from rummykit.terminal_text import (
    LANGUAGES,
    MESSAGES,
    PAGE_KEYS,
    Language,
    default_language,
    page_text,
    parse_language,
    say,
    template,
)
from rummykit.texts import section

runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "100"})


def _console(width: int = 100) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, color_system=None, highlight=False), out


def _scripted(answers: list[str]) -> Callable[[str], str]:
    queue: Iterator[str] = iter(answers)

    def ask(prompt: str) -> str:
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    return ask


def _playing_well(table: TerminalGame, by_number: bool) -> Callable[[str], str]:
    """Answers as a hard player would: its move as notation, or as the listed number; Enter
    between hands."""
    adviser = find_player(table.game.name, "hard", seed=5)

    def ask(prompt: str) -> str:
        if prompt != say(table.lang, "prompt_move"):  # the prompts are in the table's language
            between = ("prompt_next_hand", "prompt_next_round", "prompt_match_over")
            assert prompt in (say(table.lang, p) for p in between)
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
    # The final totals, with Gin's match bonuses (the hands' points alone are less).
    result = table.match.result
    assert result is not None
    final = "  ".join(f"{n} {t}" for n, t in zip(table.names, result.totals, strict=True))
    assert f"Final score: {final}" in text
    if game == "gin":
        assert "Game bonus: " in text and "Boxes: " in text
    # What was shown are the person's moves and the computers', as the person's view has them.
    last: Any = table.match.hand.view(0)
    for seat, move in last.history:
        assert f"{table.names[seat]}: {move}" in text


def test_bad_answers_are_explained_and_change_nothing() -> None:
    console, out = _console()
    answers = [
        "foo",
        "99",
        "0",
        "-1",
        "²",
        "discard ZZ",
        "knock AS",
        "hint",
        "help",
        "",
        "pass",
        "quit",
    ]
    table = TerminalGame(find_game("gin"), 2, "medium", 3, console, ask=_scripted(answers))
    before = len(table.match.hand.history)
    assert table.run() is False
    text = out.getvalue()
    assert "unknown action 'foo'" in text
    assert text.count("Pick a number from 1 to 2.") == 3  # 99, 0 and -1
    assert "unknown action '-1'" not in text
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
    # The command it suggests reviews the person's moves of the record.
    said = " ".join(result.output.split())
    assert f"To see your moves beside the computer's: rummykit review {path}" in said
    review = runner.invoke(app, ["review", str(path)])
    assert review.exit_code == 0, review.output
    assert "beside the hard computer's" in review.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play", "gin", "--level", "genius"], "unknown level 'genius'"),
        (["play", "rummy", "--players", "9"], "2 to 6"),
        (["play", "rummy", "--seats", "9"], "2 to 6"),
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


# ---------------------------------------------------------------------------------- Vietnamese


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play command's language follows the locale: the tests start from an English one."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_message_is_worded_in_both_languages_with_the_same_placeholders() -> None:
    assert MESSAGES
    for message, wording in MESSAGES.items():
        assert set(wording) == set(LANGUAGES), message
        en, vi = template("en", message), template("vi", message)
        assert en.strip() and vi.strip(), message
        assert _placeholders(en) == _placeholders(vi), message
        # No markup of its own: the terminal prints catalogue text as console markup.
        assert "[" not in en + vi and "]" not in en + vi, message
        assert "{page:" not in en + vi, message  # every quoted page text was found
        if message.endswith("_many"):  # a plural twin counts
            assert "count" in _placeholders(en) and message.removesuffix("_many") in MESSAGES


def test_every_message_is_translated() -> None:
    same = [m for m in MESSAGES if template("en", m) == template("vi", m)]
    assert same == ["opponent"]  # "{name}: {cards}" has no words of its own


ENGLISH_WORDS = re.compile(
    r"\b(?:card|cards|nobody|empty|known|Stock|Discard|pile|hand|Hand|round|Round|deadwood|"
    r"melds|won|totals|Hint|Your|Press|over|Stopped|You|Computer|match|Match)\b"
)
"""English words of the table that the Vietnamese game never shows (not even in a hint)."""


def test_the_page_texts_quoted_are_the_page_s_own() -> None:
    page = {lang: section(lang, "page") for lang in LANGUAGES}
    assert len(PAGE_KEYS) > 5 and "hint.prefix" in PAGE_KEYS
    for key in PAGE_KEYS:
        for lang in LANGUAGES:
            assert page_text(lang, key) == page[lang][key]
    assert say("vi", "illegal", detail="x").startswith(str(page["vi"]["error.illegal"]))
    assert say("vi", "computer", n=2) == "Máy 2" and say("vi", "you") == "Bạn"
    with pytest.raises(KeyError):
        page_text("vi", "error.stale")  # not one the terminal uses


def test_every_outcome_level_and_game_has_words() -> None:
    for outcome in [*Outcome, *RummyOutcome, *CrazyOutcome]:
        assert f"outcome.{outcome.value}" in MESSAGES
    for level in ("easy", "medium", "hard"):
        assert say("vi", f"level.{level}") != level
    for name in GAMES:
        assert f"game.{find_game(name).name}" in MESSAGES


def test_plurals_and_unknown_messages() -> None:
    assert say("en", "cards", count=1) == "1 card"
    assert say("en", "cards", count=0) == "0 cards"
    assert say("vi", "cards", count=7) == "7 lá"
    with pytest.raises(KeyError):
        say("vi", "no_such_message")


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "vi_VN.UTF-8"}, "vi"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LC_ALL": "C", "LANG": "vi_VN.UTF-8"}, "en"),  # LC_ALL comes first
        ({"LC_ALL": "", "LC_MESSAGES": "vi_VN", "LANG": "en_US.UTF-8"}, "vi"),  # empty: unset
        ({"LC_MESSAGES": "fr_FR", "LANG": "vi_VN"}, "en"),
        ({"LC_ALL": "VI_vn.utf8"}, "vi"),
    ],
)
def test_the_default_language_follows_the_locale(environ: dict[str, str], lang: str) -> None:
    assert default_language(environ) == lang


def test_parse_language_names_the_languages() -> None:
    assert parse_language(" VI ") == "vi" and parse_language("en") == "en"
    with pytest.raises(ValueError, match=r"unknown language 'fr' \(en or vi\)"):
        parse_language("fr")
    with pytest.raises(ValueError, match="unknown language"):
        TerminalGame(find_game("gin"), 2, "easy", 1, _console()[0], lang=cast(Any, "fr"))


NOTATION = {"draw", "take", "pass", "buy", "discard", "knock", "biggin", "layoff", "meld"}
NOTATION |= {"down", "swap", "done", "hint", "help", "quit"}
"""Words the person types back in either language: moves and commands."""


def _english_leaks(text: str) -> list[str]:
    """The English catalogue's own words found in ``text``: every piece of an English template
    between its placeholders (two words or more, or a label with a colon), and every word of four
    letters or more that is not notation, unless the Vietnamese wording has it too (the notation
    lines of help are shared)."""
    leaks = []
    for message in MESSAGES:
        vi = template("vi", message)
        en = template("en", message)
        for piece in re.split(r"\{[^}]*\}", en):
            for line in piece.splitlines():
                words = line.strip(" ,.():")
                wordy = " " in words or (line.strip().endswith(":") and len(words) > 3)
                if wordy and words not in vi and words in text:
                    leaks.append(f"{message}: {words!r}")
        for word in set(re.findall(r"\b[A-Za-z]{4,}\b", re.sub(r"\{[^}]*\}", "", en))):
            if word.lower() in NOTATION or re.search(rf"\b{word}\b", vi):
                continue
            if re.search(rf"\b{word}\b", text):
                leaks.append(f"{message}: {word!r}")
    return leaks


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players", "by_number"),
    [("gin", 2, True), ("rummy", 3, False), ("crazy", 3, True)],
)
def test_a_whole_match_in_vietnamese(game: str, players: int, by_number: bool) -> None:
    options = {"target_score": 30} if game != "crazy" else {}
    console, out = _console()
    table = TerminalGame(find_game(game, options), players, "easy", 11, console, lang="vi")
    table.ask = _playing_well(table, by_number)
    assert table.run() is True
    text = out.getvalue()
    assert table.names == ["Bạn", *(f"Máy {s}" for s in range(1, players))]
    over = "Vòng kết thúc" if game == "crazy" else "Ván kết thúc"
    assert over in text and "Trận đấu kết thúc: " in text and " thắng trận" in text
    assert text.count("Bài của bạn:") >= 3 and "Nọc: " in text and "  tổng: Bạn " in text
    if game == "crazy":
        assert "Vòng 1: hạ bài 2 bộ cùng số" in text and "(tổng điểm thấp nhất thắng)" in text
    if game == "gin":
        assert "bài rác" in text
    last: Any = table.match.hand.view(0)
    for seat, move in last.history:  # the moves are notation, the names Vietnamese
        assert f"{table.names[seat]}: {move}" in text
    assert _english_leaks(text) == []
    assert ENGLISH_WORDS.findall(text) == []
    # The leak check does find English: the same match in English is full of it.
    console, out = _console()
    table = TerminalGame(find_game(game, options), players, "easy", 11, console, lang="en")
    table.ask = _playing_well(table, by_number)
    assert table.run() is True
    assert len(_english_leaks(out.getvalue())) >= 5


def test_bad_answers_are_explained_in_vietnamese_and_change_nothing() -> None:
    console, out = _console(width=400)  # no line wraps
    answers = ["foo", "99", "discard ZZ", "knock AS", "gợi ý", "help", "trợ giúp", "pass", "hint"]
    answers += ["thoát"]
    scripted = _scripted(answers)
    hints: list[tuple[Suggestion, int]] = []

    def ask(prompt: str) -> str:
        answer = scripted(prompt)
        if answer == "gợi ý":  # the advice the hint should give, worked out here
            view: Any = table.match.hand.view(0)
            advice = find_player(table.game, "hard", seed=len(view.history)).suggest(view)
            hints.append((advice, _ordered(view.legal_actions).index(advice.action) + 1))
        return answer

    table = TerminalGame(find_game("gin"), 2, "medium", 3, console, ask=ask, lang="vi")
    before = len(table.match.hand.history)
    assert table.run() is False
    [(hint, number)] = hints
    text = out.getvalue()
    lines = text.splitlines()
    details = [line for line in lines if "Chi tiết (tiếng Anh): " in line]
    assert details == [
        "Không hiểu nước đi này (gõ help để xem cách đi). Chi tiết (tiếng Anh): unknown action"
        " 'foo' (expected draw, take, pass, buy, discard, meld, down, layoff, swap, knock, biggin,"
        " done)",
        "Không hiểu nước đi này (gõ help để xem cách đi). Chi tiết (tiếng Anh): 'discard ZZ':"
        " not a card: 'ZZ' (write rank then suit, e.g. 7H, TC, X)",
        "Không được đi nước này. Chi tiết (tiếng Anh): you must draw a card before you knock",
    ]
    assert "Hãy chọn một số từ 1 đến 2." in lines
    assert hint.text("vi") != hint.text("en")
    # The players' own Vietnamese, then the move to type (its number and notation), every card
    # named as the hand shows it and as it is typed (KD, not K♦): one notation on the screen.
    assert f"Gợi ý: {hint.text('vi', typed=True)}  → {number} {hint.action}" in lines
    hint_lines = [line for line in lines if line.startswith("Gợi ý: ")]
    assert not set("".join(hint_lines)) & set("♣♦♥♠🃏"), hint_lines  # (the help names the signs)
    assert text.count("Gợi ý: ") == 2  # "gợi ý" and "hint" both ask
    assert lines.count("  hint   gợi ý: máy sẽ đi nước nào, và vì sao") == 2  # help, trợ giúp
    assert lines[-1] == "Đã dừng."  # thoát
    # Apart from the engine's own English details, no English.
    vietnamese = "\n".join(line.split("(tiếng Anh): ")[0] for line in lines)
    assert _english_leaks(vietnamese) == [] and ENGLISH_WORDS.findall(vietnamese) == []
    mine = [str(m) for seat, m in table.match.hand.history[before:] if seat == 0]
    assert mine == ["pass"]


def test_the_play_command_in_vietnamese_saves_a_record(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    args = ["play", "gin", "--seed", "8", "--save", str(path), "--lang", "vi"]
    result = runner.invoke(app, args, input="pass\n1\n1\nthoát\n")
    assert result.exit_code == 0, result.output
    assert "rummykit " in result.output
    assert "Gin Rummy, đấu với 1 máy (mức vừa), --seed 8. Gõ help để xem cách đi." in result.output
    assert f"Đã lưu bản ghi trận đấu vào {path} (đến lúc dừng)." in " ".join(result.output.split())
    assert "Record saved" not in result.output and "Your hand" not in result.output
    record = json.loads(path.read_text())
    assert record["players"] == ["Bạn", "Máy 1"]
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0


@pytest.mark.parametrize(
    ("env", "args", "says", "not_says"),
    [
        ({"LANG": "vi_VN.UTF-8"}, [], "Bài của bạn:", "Your hand:"),
        ({"LC_MESSAGES": "vi_VN.UTF-8", "LANG": "en_US.UTF-8"}, [], "Bài của bạn:", "Your hand:"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "vi_VN.UTF-8"}, [], "Your hand:", "Bài của bạn:"),
        ({"LANG": "vi_VN.UTF-8"}, ["--lang", "en"], "Your hand:", "Bài của bạn:"),
        ({"LANG": "en_GB.UTF-8"}, ["--lang", "VI"], "Bài của bạn:", "Your hand:"),
        ({}, [], "Your hand:", "Bài của bạn:"),
    ],
)
def test_the_play_commands_language_follows_the_locale_unless_told(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], args: list[str], says: str, not_says: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = runner.invoke(app, ["play", "gin", "--seed", "3", *args], input="quit\n")
    assert result.exit_code == 0, result.output
    assert says in result.output and not_says not in result.output


def test_the_play_command_refuses_an_unknown_language(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    for lang in ("fr", "", "vietnamese"):
        result = runner.invoke(app, ["play", "gin", "--lang", lang, "--save", str(path)])
        assert result.exit_code == 2
        assert f"unknown language {lang!r} (en or vi)" in " ".join(result.output.split())
        assert not path.exists()  # refused before anything was played or written


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_review_between_hands_shows_the_moves_the_computer_would_have_made_otherwise(
    lang: str,
) -> None:
    """At the first hand's end the person types review (xem lại in Vietnamese): the summary
    counts every decision, and each one the hard player would have made otherwise is listed with
    the hand held then; Enter then deals the next hand as before."""
    console, out = _console(width=200)
    table = TerminalGame(find_game("gin"), 2, "easy", 8, console, lang=cast(Any, lang))
    mover = find_player("gin", "easy", seed=3)  # a weaker player than the adviser
    reviewed: list[Any] = []
    prompts = []

    def ask(prompt: str) -> str:
        if prompt == say(table.lang, "prompt_move"):
            return str(mover.choose(table.match.hand.view(0)))
        prompts.append(prompt)
        if len(prompts) == 1:
            reviewed.append(table.match.hand)
            return "review" if lang == "en" else "Xem lại"
        if len(prompts) == 2:
            return ""
        return "quit"

    table.ask = ask
    assert table.run() is False  # quit at the second hand's end
    assert len(table.match.hands) >= 2 and prompts[0] == prompts[1]  # asked again after review
    text = out.getvalue()
    review = review_hand(reviewed[0], 0)
    assert review.decisions > 0
    head = say(cast(Any, lang), "review_head", agreed=review.agreed, count=review.decisions)
    assert head in text
    flat = " ".join(text.split())  # a long line wraps at the console's width
    for step in review.steps:
        line = " ".join(step.text(cast(Any, lang)).split())
        assert (line in flat) is (step.verdict != "same"), line
    different = [s for s in review.steps if s.verdict == "different"]
    hand_line = "your hand:" if lang == "en" else "bài trên tay:"
    assert different and text.count(hand_line) == len(different)
    if lang == "vi":
        assert "the computer" not in text and "you:" not in text


def test_the_last_hand_of_a_match_can_be_reviewed_too() -> None:
    """After the match's last hand the person may type review; Enter or the end of input then
    finish, and the match counts as played to its end."""
    console, out = _console(width=200)
    table = TerminalGame(find_game("gin", {"target_score": 1}), 2, "easy", 4, console)
    mover = find_player("gin", "easy", seed=2)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        if prompt == say("en", "prompt_move"):
            return str(mover.choose(table.match.hand.view(0)))
        prompts.append(prompt)
        if prompt == say("en", "prompt_match_over") and prompts.count(prompt) == 1:
            return "review"
        if prompt == say("en", "prompt_match_over"):
            raise EOFError  # the end of input finishes, as Enter would
        return ""

    table.ask = ask
    assert table.run() is True and table.match.is_over
    assert prompts[-2:] == [say("en", "prompt_match_over")] * 2
    review = review_hand(table.match.hand, 0)
    head = say("en", "review_head", agreed=review.agreed, count=review.decisions)
    assert review.decisions > 0 and head in out.getvalue()
    assert "Stopped." not in out.getvalue()


@pytest.mark.parametrize(
    ("args", "detail"),
    [
        (["--level", "genius"], "unknown level 'genius' (easy, medium or hard)"),
        (["-o", "knock_limit=99x"], "option knock_limit must be a whole number"),
        (["--players", "5"], "gin needs 2 players, not 5"),
        (["--save", "/nonexistent/folder/m.json"], "cannot write the record"),
    ],
)
def test_the_play_commands_setting_errors_in_vietnamese(args: list[str], detail: str) -> None:
    """A bad setting of `play --lang vi` is said in Vietnamese, keeping the English detail (as
    the game's own errors do), and nothing is played."""
    result = runner.invoke(app, ["play", "gin", "--lang", "vi", *args], input="quit\n")
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "lỗi: Không thực hiện được lệnh. Chi tiết (tiếng Anh):" in said
    assert detail in said and "error:" not in said
    assert "Bài của bạn" not in said  # no game was dealt


@pytest.mark.parametrize(("lang", "word"), [("en", "undo"), ("vi", "đi lại")])
def test_undo_takes_back_a_take_but_never_a_draw(lang: Language, word: str) -> None:
    console, out = _console(width=400)  # no wrapped lines
    table = TerminalGame(find_game("rummy"), 2, "easy", 4, console, lang=lang)
    adviser = find_player("rummy", "medium", seed=2)
    step = 0
    before: dict[str, Any] = {}

    def ask(prompt: str) -> str:
        nonlocal step, before
        view = table.match.hand.view(0)
        legal = [str(a) for a in view.legal_actions]
        if step == 0:
            if prompt != say(lang, "prompt_move"):
                return ""
            if "take" in legal:
                before = view.to_dict()
                step = 1
                return "take"
            return str(adviser.choose(view))
        step += 1
        if step == 2:
            return word  # takes the take back
        if step == 3:
            assert view.to_dict() == before and not table.taken_back
            return word  # nothing left to take back
        if step == 4:
            return "draw"
        if step == 5:
            return word  # a card from the stock was seen: refused
        return "quit"

    table.ask = ask
    assert table.run() is False
    text = out.getvalue()
    assert say(lang, "undone", move="take") in text
    assert text.count(say(lang, "no_undo")) == 2
    # The record keeps the draw, and the computer's discard before it, not the take.
    history = table.match.hand.history
    assert history[-1][0] == 0 and str(history[-1][1]) == "draw"
    assert history[-2][0] == 1 and str(history[-2][1]).startswith("discard")
