"""``rummykit play``: a match in the terminal against computer players; the game itself is
:class:`rummykit.terminal.TerminalGame`, imported when the command runs."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from rummykit import __version__
from rummykit.cli.common import GAME_NAMES, _fail, _find_game, _lower_choices, _out, _parse_options
from rummykit.sim import check_players


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
