"""``rummykit replay``: replay a record of any game, validating every action, and show the final
state and scores as text (:mod:`rummykit.cli.replay_text`) or JSON (built here from the protocols
every game shares)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from rummykit.cli.common import _json_fail
from rummykit.cli.records import _hand_rows, _record_players, _seats, _split
from rummykit.cli.replay_text import _print_replay
from rummykit.games.base import HandState
from rummykit.games.match import Match
from rummykit.record import RecordError, load_record


def _replay_fail(message: str, as_json: bool) -> typer.Exit:
    return _json_fail(message, as_json, 1)


def _replay_data(replayed: HandState | Match, players: list[str]) -> dict[str, Any]:
    """The replay as JSON data, built from the protocols every game shares."""
    hands, match = _split(replayed)
    last = hands[-1]
    rows = _hand_rows(hands)
    data: dict[str, Any] = {
        "kind": "match" if match is not None else "hand",
        "game": last.game.name,
        "players": players,
        "options": last.game.options.to_dict(),
        "hands": rows,
        "scores": rows[-1]["totals"],
        "final": {
            "phase": last.phase.value,
            "to_act": last.to_act,
            "views": [last.view(seat).to_dict() for seat in range(_seats(last))],
        },
    }
    if match is not None:
        data["match_over"] = match.is_over
        data["match_result"] = None if match.result is None else match.result.to_dict()
    return data


def replay(
    file: Annotated[Path, typer.Argument(help="A hand or match record (JSON) of any game.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Replay a record of any game, validating every action; show the final state and scores.

    With --json a record that cannot be replayed prints ``{"error": "..."}`` (and exits 1).
    """
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _replay_fail(f"no such file: {file}", as_json) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _replay_fail(f"cannot read {file}: {exc}", as_json) from None
    try:
        replayed = load_record(text)
    except RecordError as exc:
        raise _replay_fail(f"{file}: {exc}", as_json) from None
    hands, _ = _split(replayed)
    players = _record_players(text, _seats(hands[0]))
    if as_json:
        print(json.dumps(_replay_data(replayed, players), indent=1, ensure_ascii=False))
    else:
        _print_replay(replayed, players)
