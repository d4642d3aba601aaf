"""What several ``rummykit`` commands share: the consoles, failing with a message and an exit
code (``--json`` too), finding a game by name, and reading ``--option name=value``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from rummykit.games import GAMES, Game, find_game

GAME_NAMES = ", ".join(sorted(GAMES))
"""Every game name and alias the commands accept, for help and error messages."""


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


def _missing_extra(exc: ModuleNotFoundError, extra: str) -> typer.Exit:
    """The exit for a command whose packages are not installed: one line naming the extra to
    install (``pip install 'rummykit[web]'``). An import error of rummykit's own is re-raised."""
    if (exc.name or "").partition(".")[0] == "rummykit":
        raise exc
    line = (
        f"this command needs rummykit's '{extra}' extra ({exc.name} is not installed):"
        f" pip install 'rummykit[{extra}]'"
    )
    _err().print(f"[bold red]error:[/] {escape(line)}", soft_wrap=True)
    return typer.Exit(1)
