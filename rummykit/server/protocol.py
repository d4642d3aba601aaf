"""The messages a page and the server exchange over a seat's WebSocket, and their validation.

Every message is one JSON object with a type ``t``. The page sends intents; the server answers
with views (``state.view(seat)`` only, never the state), errors, hints and checks. The full
protocol is documented in ``docs/protocol.md``.

>>> parse_incoming('{"t": "action", "action": "discard 7H", "seq": 4}')
ActionIntent(action='discard 7H', seq=4)
>>> parse_incoming('{"t": "action", "action": "discard 7H"}')
Traceback (most recent call last):
...
rummykit.server.protocol.ProtocolError: 'action' needs 'seq', a whole number (the seq of the view you act on)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

__all__ = [
    "MAX_MESSAGE",
    "PACES",
    "PHRASES",
    "ActionIntent",
    "Back",
    "BestLayoffs",
    "CheckDown",
    "Hello",
    "HintRequest",
    "Incoming",
    "NextHand",
    "PaceRequest",
    "ProtocolError",
    "Reading",
    "ReviewRequest",
    "Say",
    "UndoRequest",
    "ViewRequest",
    "error_message",
    "load_json",
    "parse_incoming",
]

MAX_MESSAGE = 4096
"""The longest message (in characters) the server reads; anything longer is refused."""


class ProtocolError(ValueError):
    """A message the server refuses; the text says why and is sent back to the page.

    ``code`` names the kind of problem for programs: ``bad_message``, ``stale``, ``not_your_turn``,
    ``illegal``, ``auth``, ``unknown_table``, ``over``, ``too_fast``, ``not_over``.
    """

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message on a socket: the seat's secret token, and the pace at which this person
    wants the computer seats to move (one of :data:`PACES`, or None for ``normal``)."""

    token: str
    pace: str | None = None


@dataclass(frozen=True, slots=True)
class ActionIntent:
    """Take an action (in the notation of ``docs/notation.md``) on the view numbered ``seq``."""

    action: str
    seq: int


@dataclass(frozen=True, slots=True)
class NextHand:
    """Deal the next hand once the current one is over (``seq`` as for an action)."""

    seq: int


@dataclass(frozen=True, slots=True)
class BestLayoffs:
    """Gin, the defender after a knock: make the best lay-offs and say done, in one tap."""

    seq: int


@dataclass(frozen=True, slots=True)
class Reading:
    """This page shows a hand's score now (``on``), or has closed it: at a table of several
    people, the others' pages say who is still reading it."""

    on: bool


@dataclass(frozen=True, slots=True)
class Back:
    """The person is back: their turns are theirs again (after two turns in a row ran out of
    time, the computer played them at once)."""


@dataclass(frozen=True, slots=True)
class UndoRequest:
    """Take back this seat's last move of its turn (alone against the computer; ``seq`` as for
    an action)."""

    seq: int


@dataclass(frozen=True, slots=True)
class HintRequest:
    """Ask the computer player what it would do now, and why."""


@dataclass(frozen=True, slots=True)
class ViewRequest:
    """Ask for the full view again (after a reconnect)."""


@dataclass(frozen=True, slots=True)
class CheckDown:
    """Crazy Rummy: do these selected cards lay down the round's contract, and how?"""

    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """Review this seat's decisions in a finished hand of the match (``hand`` counts from 1;
    None for the hand on the table) beside the strongest computer player's."""

    hand: int | None


PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.35}
"""How fast the computer seats move, as a person may ask: each a factor of the server's pause
before a computer move (``rummykit serve --delay``)."""


@dataclass(frozen=True, slots=True)
class PaceRequest:
    """The pace at which this person wants the computer seats to move (one of :data:`PACES`)."""

    pace: str


PHRASES = (
    "hello",
    "good_luck",
    "nice",
    "oops",
    "thinking",
    "your_turn",
    "thanks",
    "well_played",
    "again",
)
"""What a person may say to the others at a table of several people: a fixed set of friendly
phrases, each worded by the page in its reader's language (no free text to moderate)."""


@dataclass(frozen=True, slots=True)
class Say:
    """A table of several people: say one of :data:`PHRASES` to everyone there."""

    phrase: str


Incoming: TypeAlias = (
    Hello
    | ActionIntent
    | NextHand
    | BestLayoffs
    | HintRequest
    | ViewRequest
    | CheckDown
    | Say
    | ReviewRequest
    | PaceRequest
    | UndoRequest
    | Reading
    | Back
)
"""Any message a page may send."""


class DuplicateKeyError(ProtocolError):
    """A message or a body that gives one key twice in an object."""


class _DuplicateKey(Exception):
    """A key given twice in one JSON object (read as its last value by ``json``)."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


def load_json(text: str | bytes) -> Any:
    """JSON text as data; :class:`ProtocolError` if it is not JSON a page could send.

    Refused besides bad syntax: nesting too deep for the parser (it would raise RecursionError),
    strings holding lone surrogates (``"\\udc80"``), which are not Unicode text and could not be
    stored, hashed or echoed back in an error message, and a key given twice in one object
    (which one would count?).

    >>> load_json('{"t": "view", "t": "hint"}')
    Traceback (most recent call last):
    ...
    rummykit.server.protocol.DuplicateKeyError: the key 't' appears twice in one object

    >>> load_json('{"t": "view"}')
    {'t': 'view'}
    >>> load_json('[' * 5000 + ']' * 5000)
    Traceback (most recent call last):
    ...
    rummykit.server.protocol.ProtocolError: a message is a JSON object, e.g. {"t": "view"}
    >>> load_json('{"token": "\\udc80"}')
    Traceback (most recent call last):
    ...
    rummykit.server.protocol.ProtocolError: a message holds text that is not valid Unicode
    >>> load_json(b'{"code": "\\xff"}')
    Traceback (most recent call last):
    ...
    rummykit.server.protocol.ProtocolError: a message holds text that is not valid Unicode
    """
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except _DuplicateKey as exc:
        raise DuplicateKeyError(f"the key {exc.args[0]!r} appears twice in one object") from None
    except UnicodeDecodeError:  # bytes that are not UTF-8 (nor UTF-16/32)
        raise ProtocolError("a message holds text that is not valid Unicode") from None
    except (ValueError, RecursionError):  # JSONDecodeError, and numbers too long to read
        raise ProtocolError('a message is a JSON object, e.g. {"t": "view"}') from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("a message holds text that is not valid Unicode") from None
    except RecursionError:
        raise ProtocolError('a message is a JSON object, e.g. {"t": "view"}') from None
    return data


def _seq(data: dict[str, Any], kind: str) -> int:
    seq = data.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise ProtocolError(
            f"'{kind}' needs 'seq', a whole number (the seq of the view you act on)"
        )
    return seq


def _one_of(
    data: dict[str, Any], kind: str, field: str, choices: Iterable[str], verb: str = "needs"
) -> str:
    """``data[field]``, which must be one of ``choices`` (a word the page picks from a list)."""
    value = data.get(field)
    if not isinstance(value, str) or value not in choices:
        raise ProtocolError(f"'{kind}' {verb} '{field}', one of: {', '.join(choices)}")
    return value


def _fields(data: dict[str, Any], kind: str, allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed - {"t"})
    if extra:
        raise ProtocolError(f"unexpected field(s) in '{kind}': {', '.join(extra)}")


def parse_incoming(text: str | bytes) -> Incoming:
    """Read one message from a page; raises :class:`ProtocolError` saying what is wrong."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message is UTF-8 JSON text") from None
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"message too long (at most {MAX_MESSAGE} characters)")
    data = load_json(text)
    if not isinstance(data, dict):
        raise ProtocolError('a message is a JSON object, e.g. {"t": "view"}')
    kind = data.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("a message needs its type 't' (a string)")
    if kind == "hello":
        _fields(data, kind, {"token", "pace"})
        token = data.get("token")
        if not isinstance(token, str) or not token:
            raise ProtocolError("'hello' needs the seat's 'token'", "auth")
        pace = None if data.get("pace") is None else _one_of(data, kind, "pace", PACES, "takes")
        return Hello(token, pace)
    if kind == "action":
        _fields(data, kind, {"action", "seq"})
        action = data.get("action")
        if not isinstance(action, str) or not action.strip():
            raise ProtocolError("'action' needs 'action', the action's notation, e.g. 'draw'")
        return ActionIntent(action.strip(), _seq(data, kind))
    if kind == "next_hand":
        _fields(data, kind, {"seq"})
        return NextHand(_seq(data, kind))
    if kind == "best_layoffs":
        _fields(data, kind, {"seq"})
        return BestLayoffs(_seq(data, kind))
    if kind == "reading":
        _fields(data, kind, {"on"})
        on = data.get("on")
        if not isinstance(on, bool):
            raise ProtocolError("'reading' needs 'on', true or false")
        return Reading(on)
    if kind == "undo":
        _fields(data, kind, {"seq"})
        return UndoRequest(_seq(data, kind))
    if kind == "back":
        _fields(data, kind, set())
        return Back()
    if kind == "hint":
        _fields(data, kind, set())
        return HintRequest()
    if kind == "view":
        _fields(data, kind, set())
        return ViewRequest()
    if kind == "check_down":
        _fields(data, kind, {"cards"})
        cards = data.get("cards")
        if (
            not isinstance(cards, list)
            or len(cards) > 40
            or not all(isinstance(c, str) and 0 < len(c) <= 3 for c in cards)
        ):
            raise ProtocolError("'check_down' needs 'cards', a list of card strings")
        return CheckDown(tuple(cards))
    if kind == "say":
        _fields(data, kind, {"phrase"})
        return Say(_one_of(data, kind, "phrase", PHRASES))
    if kind == "review":
        _fields(data, kind, {"hand"})
        hand = data.get("hand")
        if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int) or hand < 1):
            raise ProtocolError("'review' takes 'hand', the hand's number in the match (from 1)")
        return ReviewRequest(hand)
    if kind == "pace":
        _fields(data, kind, {"pace"})
        return PaceRequest(_one_of(data, kind, "pace", PACES))
    known = (
        "hello, action, next_hand, best_layoffs, undo, hint, view, check_down, say, review, pace,"
        " reading, back"
    )
    raise ProtocolError(f"unknown message type {kind!r} (known: {known})")


def error_message(exc: ProtocolError) -> dict[str, Any]:
    """The error message sent back for a refused message (nothing changed)."""
    return {"t": "error", "code": exc.code, "message": str(exc)}
