"""The server's message validation: every malformed message is refused with a clear reason."""

from __future__ import annotations

import json

import pytest

from rummykit.server.protocol import (
    MAX_MESSAGE,
    ActionIntent,
    BestLayoffs,
    CheckDown,
    Hello,
    HintRequest,
    NextHand,
    ProtocolError,
    ViewRequest,
    error_message,
    parse_incoming,
)

pytestmark = pytest.mark.server


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"t": "hello", "token": "abc"}', Hello("abc")),
        ('{"t": "action", "action": " discard 7H ", "seq": 3}', ActionIntent("discard 7H", 3)),
        ('{"t": "next_hand", "seq": 0}', NextHand(0)),
        ('{"t": "best_layoffs", "seq": 9}', BestLayoffs(9)),
        ('{"t": "hint"}', HintRequest()),
        ('{"t": "view"}', ViewRequest()),
        ('{"t": "check_down", "cards": ["7H", "X"]}', CheckDown(("7H", "X"))),
        (b'{"t": "view"}', ViewRequest()),
    ],
)
def test_valid_messages_parse(text: str | bytes, expected: object) -> None:
    assert parse_incoming(text) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "JSON object"),
        ("[1, 2]", "JSON object"),
        ('{"type": "view"}', "type 't'"),
        ('{"t": "dance"}', "unknown message type 'dance'"),
        ('{"t": "action", "seq": 1}', "'action' needs 'action'"),
        ('{"t": "action", "action": "", "seq": 1}', "'action' needs 'action'"),
        ('{"t": "action", "action": "draw"}', "needs 'seq'"),
        ('{"t": "action", "action": "draw", "seq": "1"}', "needs 'seq'"),
        ('{"t": "action", "action": "draw", "seq": true}', "needs 'seq'"),
        ('{"t": "action", "action": "draw", "seq": -1}', "needs 'seq'"),
        (
            '{"t": "action", "action": "draw", "seq": 1, "seat": 1}',
            "unexpected field(s) in 'action': seat",
        ),
        ('{"t": "hello"}', "token"),
        ('{"t": "next_hand"}', "needs 'seq'"),
        ('{"t": "check_down", "cards": "7H 8H"}', "list of card strings"),
        ('{"t": "check_down", "cards": [7]}', "list of card strings"),
        (b"\xff\xfe", "UTF-8"),
    ],
)
def test_bad_messages_are_refused_with_a_reason(text: str | bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_incoming(text)
    assert reason in str(info.value)


def test_a_huge_message_is_refused() -> None:
    with pytest.raises(ProtocolError, match="too long"):
        parse_incoming(json.dumps({"t": "view", "pad": "x" * MAX_MESSAGE}))


def test_error_messages_carry_code_and_text() -> None:
    exc = ProtocolError("it is not your turn", "not_your_turn")
    assert error_message(exc) == {
        "t": "error",
        "code": "not_your_turn",
        "message": "it is not your turn",
    }
    assert ProtocolError("x").code == "bad_message"
