"""JSON game records: save a hand or a match, load one back replaying and validating every action.

A hand record::

    {"game": "gin", "options": {...}, "players": ["Ann", "Bob"], "dealer": 0, "seed": 7,
     "actions": [[1, "pass"], [0, "take"], [0, "discard KD"], ...]}

``"deal": {"hands": [[...], [...]], "up": "7H", "stock": [...]}`` (stock top first, exactly the
rest of the pack) may replace ``"seed"``. A match record has ``"seed"`` and ``"hands"``: a list of
``{"dealer": d, "seed": s | "deal": {...}, "actions": [...]}`` in order. The format is documented in
``docs/records.md``.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeGuard, cast

from rummykit.actions import ActionSyntaxError, parse_action
from rummykit.games import find_game
from rummykit.games.base import Game, HandState, IllegalActionError, check_players
from rummykit.games.deal import Deal
from rummykit.games.match import Match

__all__ = [
    "RecordError",
    "dump_record",
    "hand_record",
    "is_match",
    "load_record",
    "match_record",
    "parse_json",
    "read_record",
    "write_record",
]

Replayed = HandState | Match


class RecordError(ValueError):
    """A malformed or illegal record; the message names the place (hand, action number) and why."""


def _actions_data(state: HandState) -> list[list[Any]]:
    return [[seat, str(action)] for seat, action in state.history]


def _deal_data(state: HandState) -> dict[str, Any]:
    if state.seed is not None:
        return {"seed": state.seed}
    return {"deal": state.deal.to_dict()}


def _names(players: Sequence[str] | None, count: int) -> list[str]:
    """The players' names for a record of ``count`` seats (ValueError for another number)."""
    if not players:
        return [f"player {i + 1}" for i in range(count)]
    if len(players) != count:
        raise ValueError(f"a record of {count} seats needs {count} names, not {len(players)}")
    for name in players:
        if not isinstance(name, str):
            raise ValueError(f"a player's name is text, not {name!r}")
        if _control(name):  # loading would refuse it: the record would not round-trip
            raise ValueError(f"player name {name!r} holds a control character")
    return list(players)


def _control(name: str) -> bool:
    """Whether a name holds a control character (an ANSI escape would reach terminals; emoji
    joiners are fine)."""
    return any(unicodedata.category(ch) == "Cc" for ch in name)


def _game_name(state: HandState) -> str:
    return state.game.name


def _options(state: HandState) -> dict[str, Any]:
    return state.game.options.to_dict()


def is_match(replayed: Replayed) -> TypeGuard[Match]:
    """True for a match (as opposed to a single hand)."""
    return hasattr(replayed, "next_hand")


def _recordable(state: HandState) -> None:
    if state.resampled:
        raise RecordError(
            "a resampled state has no record: its hidden cards were dealt again at random, so "
            "no deal explains its history (save the hand it was resampled from)"
        )


def hand_record(state: HandState, players: list[str] | None = None) -> dict[str, Any]:
    """The record of one hand (finished or not).

    A hand made by ``state.resample(seat)`` has none: :class:`RecordError`.
    """
    _recordable(state)
    return {
        "game": _game_name(state),
        "options": _options(state),
        "players": _names(players if players is not None else state.names, len(state.deal.hands)),
        "dealer": state.dealer,
        **_round_data(state),
        **_deal_data(state),
        "actions": _actions_data(state),
    }


def _round_data(state: HandState) -> dict[str, Any]:
    """Crazy Rummy: a round on its own names its number (1-7); other games have no rounds."""
    number = getattr(state, "round", None)
    return {} if number is None else {"round": number}


def match_record(match: Match, players: list[str] | None = None) -> dict[str, Any]:
    """The record of a match: every hand in order (:class:`RecordError` if one was resampled)."""
    for hand in match.hands:
        _recordable(hand)
    first = match.hands[0]
    return {
        "game": _game_name(first),
        "options": _options(first),
        "players": _names(players if players is not None else match.names, len(first.deal.hands)),
        "seed": match.seed,
        "hands": [
            {"dealer": h.dealer, **_deal_data(h), "actions": _actions_data(h)} for h in match.hands
        ],
    }


def _dump(value: Any, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, Mapping) and value:
        items = [f"{inner}{json.dumps(k)}: {_dump(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (list, Mapping)) for v in value):
        items = [inner + _dump(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def dump_record(record: Mapping[str, Any]) -> str:
    """A record as JSON text: one action or hand per line, cards of a hand on one line."""
    return _dump(record, "") + "\n"


def _game(data: Mapping[str, Any]) -> Game:
    name = data.get("game")
    if not isinstance(name, str):
        raise RecordError('the record must name its game, e.g. "game": "gin"')
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("options must be an object of name: value")
    try:
        return find_game(name, options)
    except (ValueError, TypeError) as exc:
        raise RecordError(str(exc)) from None


def _players(data: Mapping[str, Any], game: Game) -> int:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names, one per seat")
    for name in players:
        if _control(name):
            raise RecordError(f"player name {name!r} holds a control character")
    try:
        check_players(game, len(players))
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    return len(players)


def _start(data: Mapping[str, Any], where: str) -> tuple[int | None, Deal | None]:
    has_seed, has_deal = "seed" in data, "deal" in data
    if has_seed == has_deal:
        raise RecordError(f"{where}: give exactly one of 'seed' or 'deal'")
    if has_seed:
        seed = data["seed"]
        if type(seed) is not int:
            raise RecordError(f"{where}: seed must be a whole number")
        return seed, None
    try:
        return None, Deal.from_dict(data["deal"])
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _new_hand(
    game: Game, data: Mapping[str, Any], players: int, dealer: int, where: str
) -> HandState:
    seed, deal = _start(data, where)
    try:
        if "round" in data:
            number = data["round"]
            if type(number) is not int:
                raise RecordError(f"{where}: round must be a whole number")
            rounds_game: Any = game  # a game with rounds (Crazy Rummy) takes the round number
            return cast(
                HandState,
                rounds_game.new_hand(
                    players=players, seed=seed, deal=deal, dealer=dealer, round=number
                ),
            )
        return game.new_hand(players=players, seed=seed, deal=deal, dealer=dealer)
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"{where}: {exc}") from None


def _replay(apply: Any, actions: Any, where: str) -> None:
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list of [seat, notation] pairs")
    for number, item in enumerate(actions, 1):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or isinstance(item[0], bool)
            or not isinstance(item[0], int)
            or not isinstance(item[1], str)
        ):
            raise RecordError(
                f'{where}, action {number}: expected [seat, "notation"], got {_json(item)}'
            )
        seat, text = item
        try:
            action = parse_action(text)
            apply(action, seat)
        except (ActionSyntaxError, IllegalActionError) as exc:
            raise RecordError(f"{where}, action {number} (seat {seat}, {text!r}): {exc}") from None


def _dealer(value: Any, players: int, where: str) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise RecordError(f"{where}: dealer must be a seat from 0 to {players - 1}")
    return int(value)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _json(value: Any) -> str:
    """``value`` as it was written in the record (JSON: ``true``, not Python's ``True``)."""
    return json.dumps(value, ensure_ascii=False)


def parse_json(text: str) -> Any:
    """A record's JSON text as data: a leading byte-order mark is skipped, and a key given twice
    in one object (which JSON would quietly resolve to the last) is a :class:`RecordError`."""
    try:
        return json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_no_duplicate_keys)
    except RecordError:
        raise
    except (ValueError, RecursionError) as exc:  # also a number too long, nesting too deep
        raise RecordError(f"not valid JSON: {exc}") from None


def load_record(data: Mapping[str, Any] | str) -> Replayed:
    """Replay a hand or match record (a dict or JSON text), validating every action.

    Returns the resulting :class:`GinState` (hand record) or :class:`GinMatch` (match record).
    Raises :class:`RecordError` naming the hand and action number of the first problem.
    """
    if isinstance(data, str):
        if data.strip().endswith(".json") and not data.lstrip().startswith(("{", "[")):
            raise RecordError(
                f"{data.strip()!r} looks like a file name: load_record reads a record's JSON text"
                " or data; read_record(path) reads a file"
            )
        data = parse_json(data)
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    game = _game(data)
    players = _players(data, game)
    names = tuple(data["players"])
    if "hands" in data:
        match = _load_match(game, players, data)
        cast(Any, match).names = names  # (saved again as they were, the match or a hand of it)
        for hand in match.hands:
            cast(Any, hand).names = names
        return match
    known = {"game", "options", "players", "dealer", "seed", "deal", "actions"}
    if getattr(game, "rounds", None):
        known.add("round")
    extra = sorted(set(data) - known)
    if extra:
        raise RecordError(f"unknown field(s) in a hand record: {', '.join(extra)}")
    if "actions" not in data:  # a cut record must not pass for a hand with no moves
        raise RecordError(
            'a record needs "actions" (a hand: its [seat, "notation"] moves, [] for none) or'
            ' "hands" (a match)'
        )
    dealer = _dealer(data.get("dealer", 0), players, "record")
    state = _new_hand(game, data, players, dealer, "record")
    _replay(state.apply, data["actions"], "record")
    cast(Any, state).names = names  # (saved again as they were)
    return state


def _load_match(game: Game, players: int, data: Mapping[str, Any]) -> Match:
    extra = sorted(set(data) - {"game", "options", "players", "seed", "hands"})
    if extra:
        raise RecordError(f"unknown field(s) in a match record: {', '.join(extra)}")
    hands = data["hands"]
    if not isinstance(hands, list) or not hands:
        raise RecordError("hands must be a non-empty list")
    seed = data.get("seed")
    if type(seed) is not int:
        raise RecordError("a match record needs its seed (a whole number), which deals new hands")
    match: Match | None = None
    for index, hand in enumerate(hands):
        where = f"hand {index + 1}"
        if not isinstance(hand, Mapping):
            raise RecordError(f"{where}: a hand is an object")
        extra = sorted(set(hand) - {"dealer", "seed", "deal", "actions"})
        if extra:
            raise RecordError(f"{where}: unknown field(s) {', '.join(extra)}")
        if "actions" not in hand:
            raise RecordError(f'{where}: "actions" is missing (its moves, [] for none)')
        if match is None:
            dealer = _dealer(hand.get("dealer", 0), players, where)
            first_seed, first_deal = _start(hand, where)
            try:
                match = game.new_match(
                    players=players,
                    seed=seed,
                    dealer=dealer,
                    first_seed=first_seed,
                    first_deal=first_deal,
                )
            except ValueError as exc:
                raise RecordError(f"{where}: {exc}") from None
        else:
            if match.is_over:
                raise RecordError(f"{where}: the match was already over")
            if not match.hand.is_over:
                raise RecordError(f"{where}: hand {index} did not finish")
            dealer = match.next_dealer()
            if "dealer" in hand and _dealer(hand["dealer"], players, where) != dealer:
                raise RecordError(
                    f"{where}: seat {dealer} deals this hand, not seat {hand['dealer']}"
                )
            next_seed, next_deal = _start(hand, where)
            try:
                match.next_hand(seed=next_seed, deal=next_deal)
            except ValueError as exc:
                raise RecordError(f"{where}: {exc}") from None
        _replay(match.apply, hand["actions"], where)
    assert match is not None
    return match


def read_record(path: str | Path) -> Replayed:
    """Load and replay the record in the file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    return load_record(text)


def write_record(path: str | Path, replayed: Replayed, players: list[str] | None = None) -> None:
    """Save a hand or a match as a JSON record at ``path``."""
    if is_match(replayed):
        record = match_record(replayed, players)
    else:
        record = hand_record(cast(HandState, replayed), players)
    Path(path).write_text(dump_record(record), encoding="utf-8")
