"""``rummykit review``: a seat's decisions in a record beside what a computer player would have
played from the seat's view, and why (English or Vietnamese, or JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from rummykit.cli.common import _json_fail, _out
from rummykit.cli.records import _record_players, _seats, _split
from rummykit.record import RecordError, load_record

REVIEW_LEVELS = ("easy", "medium", "hard")
"""The computer levels ``rummykit review`` compares with."""


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
