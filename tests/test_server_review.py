"""Reviewing a finished hand at a table: each of a person's decisions beside the strongest
computer player's (``{"t": "review"}``), from the seat's own views only.

Tables are played through :class:`Table` with the true state at hand, so each review can be
checked against the replayed hand: the steps are exactly the seat's own decisions, moves the
computer made for the seat are left out, and no card the seat never saw appears. Then the same
over a real WebSocket, with the refusals (a hand still in play, a hand the match does not have,
malformed requests), each a clear error that changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_server import _public, _tokens, greedy

from rummykit.games.base import HandState
from rummykit.record import hand_record, load_record
from rummykit.server import tables
from rummykit.server.app import create_app
from rummykit.server.protocol import ProtocolError, ReviewRequest, parse_incoming
from rummykit.server.store import Store
from rummykit.server.tables import Table, TableManager

pytestmark = pytest.mark.server


def _seen_by(hand: HandState, seat: int) -> set[str]:
    """Every card ``seat`` saw in ``hand``: public ones and those it ever held."""
    record = hand_record(hand)
    record["actions"] = []
    replay: Any = load_record(record)
    held = {str(c) for c in replay.hands[seat]}
    for actor, action in hand.history:
        replay.apply(action, actor)
        held |= {str(c) for c in replay.hands[seat]}
    return _public(hand, seat) | held


def _decisions(hand: HandState, seat: int, skip: set[int]) -> list[int]:
    """1-based numbers of the actions ``seat`` chose among several legal ones."""
    record = hand_record(hand)
    record["actions"] = []
    replay: Any = load_record(record)
    numbers = []
    for index, (actor, action) in enumerate(hand.history):
        if actor == seat and index not in skip and len(replay.view(seat).legal_actions) > 1:
            numbers.append(index + 1)
        replay.apply(action, actor)
    return numbers


def _finish_hand(table: Table) -> None:
    while not table.hand.is_over:
        if table.computer_to_act() is not None:
            table.step_computer()
        else:
            table.act(0, greedy([str(a) for a in table.hand.view(0).legal_actions]), table.seq)


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = Store(tmp_path / "review.sqlite3")
    yield s
    s.close()


@pytest.mark.parametrize(
    ("variant", "opponents"), [("gin", 1), ("rummy", 2), ("rummy-classic", 3), ("crazy", 2)]
)
def test_a_review_is_the_seats_own_decisions_and_names_no_card_it_never_saw(
    store: Store, variant: str, opponents: int
) -> None:
    table, _ = Table.create(store, variant=variant, opponents=opponents, level="medium", seed=4)
    with pytest.raises(ProtocolError) as caught:
        table.review_task(0, None)
    assert caught.value.code == "not_over"
    _finish_hand(table)
    hand = table.hand
    answer = table.review(0, None)
    assert answer["t"] == "review" and answer["hand"] == 1 and answer["seat"] == 0
    assert answer["level"] == "hard"
    steps = answer["steps"]
    assert [s["number"] for s in steps] == _decisions(hand, 0, set())
    assert answer["decisions"] == len(steps) > 0
    assert answer["agreed"] == sum(s["verdict"] != "different" for s in steps)
    for step in steps:
        assert step["played"] == str(hand.history[step["number"] - 1][1])
        assert step["advice"]["text"]["en"] and step["advice"]["text"]["vi"]
    leaked = _tokens(answer) - _seen_by(hand, 0)
    assert not leaked, f"the review named cards seat 0 never saw: {sorted(leaked)}"
    json.dumps(answer)  # JSON data, as sent
    # The same answer again without working it out again, and the hand by its number too.
    assert table.review(0, None) is answer
    assert table.review(0, 1) is answer


def test_moves_the_computer_made_for_a_person_are_left_out(store: Store) -> None:
    table, _ = Table.create(store, variant="gin", opponents=1, level="medium", seed=9)
    _finish_hand(table)
    full = table.review(0, None)
    first = full["steps"][0]["number"] - 1
    table.reviews.clear()
    table.stand_in_moves.add((0, first))  # as if the computer had made that move for seat 0
    skipped = table.review(0, None)
    assert [s["number"] for s in skipped["steps"]] == [s["number"] for s in full["steps"][1:]]


def test_an_earlier_hand_of_the_match_can_be_reviewed_and_a_missing_one_is_refused(
    store: Store,
) -> None:
    table, _ = Table.create(store, variant="rummy", opponents=1, level="medium", seed=2)
    _finish_hand(table)
    first = table.review(0, None)
    table.next_hand(0, table.seq)
    assert not table.hand.is_over
    again = table.review(0, 1)
    assert again["hand"] == 1 and again["steps"] == first["steps"]
    for number, code in [(2, "not_over"), (3, "bad_message"), (0, "bad_message")]:
        with pytest.raises(ProtocolError) as caught:
            table.review_task(0, number)
        assert caught.value.code == code, number


def test_review_requests_are_parsed_strictly() -> None:
    assert parse_incoming('{"t": "review"}') == ReviewRequest(None)
    assert parse_incoming('{"t": "review", "hand": 3}') == ReviewRequest(3)
    for bad in [
        {"t": "review", "hand": 0},
        {"t": "review", "hand": -1},
        {"t": "review", "hand": True},
        {"t": "review", "hand": "1"},
        {"t": "review", "hand": 1.0},
        {"t": "review", "seat": 1},
    ]:
        with pytest.raises(ProtocolError) as caught:
            parse_incoming(json.dumps(bad))
        assert caught.value.code == "bad_message"


def test_a_review_over_the_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A fixed deal: a table created over the API is dealt at random, and in about one deal in
    # 500 the computer takes the first up-card and knocks at once, which leaves seat 0 nothing
    # to decide (only "done") and so nothing to review. This deal gives seat 0 seven decisions.
    monkeypatch.setattr(tables, "_seed", lambda: 2)
    with TestClient(create_app(tmp_path / "web.sqlite3", delay=0)) as client:
        response = client.post(
            "/api/tables",
            json={
                "game": "gin",
                "opponents": 1,
                "level": "medium",
                "options": {"target_score": 10},
            },
        )
        info = response.json()
        manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            refused_early = False
            for _ in range(2000):
                message = ws.receive_json()
                assert message["t"] == "view", message
                hand = message["view"]["hand"]
                if hand["phase"] == "hand_over":
                    break
                if hand["legal_actions"]:
                    if not refused_early:
                        ws.send_json({"t": "review"})
                        error = ws.receive_json()
                        assert error["t"] == "error" and error["code"] == "not_over"
                        refused_early = True
                    action = greedy(hand["legal_actions"])
                    ws.send_json({"t": "action", "action": action, "seq": message["seq"]})
            else:
                pytest.fail("the hand did not end")
            table = manager.get(info["table"])
            assert table is not None
            before = (table.seq, len(table.match.hands))
            for bad, code in [
                ({"t": "review", "hand": 2}, "bad_message"),
                ({"t": "review", "hand": "one"}, "bad_message"),
                ({"t": "review", "token": info["token"]}, "bad_message"),
            ]:
                ws.send_json(bad)
                error = ws.receive_json()
                assert error["t"] == "error" and error["code"] == code, (bad, error)
            ws.send_json({"t": "review"})
            review = ws.receive_json()
            assert (table.seq, len(table.match.hands)) == before  # a review changes nothing
        assert review["t"] == "review" and review["hand"] == 1 and review["seat"] == 0
        assert review["decisions"] == len(review["steps"]) > 0
        finished = table.match.hands[0]
        assert [s["number"] for s in review["steps"]] == _decisions(finished, 0, set())
        assert not _tokens(review) - _seen_by(finished, 0)


@pytest.mark.parametrize(("variant", "opponents"), [("gin", 1), ("rummy", 2), ("crazy", 2)])
def test_following_every_hint_reviews_as_the_same_moves(
    store: Store, variant: str, opponents: int
) -> None:
    # The hint and the review ask the same player with the same seed at the same position, so a
    # person who played every hint is told each move was the computer's own choice, in every
    # hand of the match (the hint was once seeded by the table's view number, which only the
    # first hand shares with the position in the hand).
    table, _ = Table.create(store, variant=variant, opponents=opponents, level="medium", seed=0)
    for number in (1, 2):
        while not table.hand.is_over:
            if table.computer_to_act() is not None:
                table.step_computer()
            else:
                table.act(0, table.hint(0)["action"], table.seq)
        review = table.review(0, number)
        assert review["decisions"] > 3
        assert {step["verdict"] for step in review["steps"]} == {"same"}
        if number == 1:
            table.next_hand(0, table.seq)
