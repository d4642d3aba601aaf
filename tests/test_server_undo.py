"""Taking a move back, alone against the computer (``{"t": "undo"}``).

A person playing alone against the computer may take back a move of their own turn that showed
them no hidden card and kept the turn with them: taking the discard, a meld, a lay-down, a
lay-off, a swap. Checked here: after a take-back the seat sees exactly the view it had before the
move (and the same aids), the view number only grows, the store's record loses the move and a
restart replays the same table; everything else (a draw from the stock, a move that passed the
turn, a table with friends, a stale or malformed message) is refused with a clear error and
changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from test_server import check_private, greedy

from rummykit.actions import UNDOABLE, Draw
from rummykit.server.app import create_app
from rummykit.server.protocol import ProtocolError, UndoRequest, parse_incoming
from rummykit.server.store import Store
from rummykit.server.tables import Table, TableManager

pytestmark = pytest.mark.server


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "undo.sqlite3")
    yield s
    s.close()


def _seen(table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    """What seat 0 is shown: its match view and its aids."""
    message = table.view_message(0)
    return message["view"], message["aids"]


def _to_person(table: Table) -> None:
    """Let the computer seats move until the person at seat 0 is to act (or the hand ends)."""
    while table.computer_to_act() is not None:
        table.step_computer()


def _refused(table: Table, seq: int, code: str, words: str) -> None:
    before = (table.seq, _seen(table), table.view_message(0)["undo"])
    with pytest.raises(ProtocolError) as caught:
        table.undo(0, seq)
    assert caught.value.code == code and words in str(caught.value)
    assert (table.seq, _seen(table), table.view_message(0)["undo"]) == before


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    setup=st.sampled_from(
        [("gin", 1), ("rummy", 1), ("rummy-classic", 2), ("crazy", 2), ("crazy", 3)]
    ),
    seed=st.integers(0, 10**6),
)
def test_a_take_back_restores_the_seats_view_exactly(
    tmp_path_factory: pytest.TempPathFactory, setup: tuple[str, int], seed: int
) -> None:
    variant, opponents = setup
    store = Store(tmp_path_factory.mktemp("undo") / "t.sqlite3")
    table, _ = Table.create(store, variant=variant, opponents=opponents, level="easy", seed=seed)
    rng = random.Random(seed)
    undone = 0
    for _ in range(400):
        _to_person(table)
        if table.hand.is_over:
            break
        legal = [str(a) for a in table.hand.view(0).legal_actions]
        # Mostly the greedy move (melds, lay-offs), sometimes any legal one (takes, swaps).
        action = greedy(legal) if rng.random() < 0.6 else rng.choice(legal)
        before, seq = _seen(table), table.seq
        message = table.act(0, action, seq)[0]
        kept = table.undoable(0)
        shown = message["view"]["hand"]["history"][-1][1]
        assert message["undo"] is None if kept is None else message["undo"]["action"] == shown
        if kept is None:
            assert not isinstance(table.hand.history[-1][1], UNDOABLE) or table.hand.to_act != 0
            continue
        assert str(kept) == action
        if rng.random() < 0.5:
            taken = table.undo(0, table.seq)
            assert set(taken) == {0}
            back = taken[0]
            check_private(table.match, 0, back)
            assert back["undone"] == message["undo"] and back["undone"]["seat"] == 0
            assert back["log"] == [] and back["seq"] == table.seq == seq + 2
            assert (back["view"], back["aids"]) == before
            undone += 1
    stored = store.load(table.id)
    assert stored is not None and len(stored.undos) == undone
    again = Table.restore(stored, store)
    assert again.seq == table.seq
    assert again.view_message(0) == table.view_message(0)
    store.close()


def _basic_table_at_a_take(store: Store) -> Table:
    """A Basic Rummy table alone against the computer, the person to draw and able to take."""
    for seed in range(100):
        table, _ = Table.create(store, variant="rummy", opponents=1, level="medium", seed=seed)
        for _ in range(30):
            _to_person(table)
            legal = [str(a) for a in table.hand.view(0).legal_actions]
            if "take" in legal:
                return table
            table.act(0, greedy(legal), table.seq)
    raise AssertionError("no take found")


def test_moves_of_one_turn_are_taken_back_one_by_one_and_survive_a_restart(
    store: Store,
) -> None:
    # Find a turn where the person takes the discard and melds with it.
    for seed in range(300):
        table, _ = Table.create(
            store, variant="rummy-classic", opponents=1, level="medium", seed=seed
        )
        found = False
        for _ in range(40):
            _to_person(table)
            if table.hand.is_over:
                break
            start = (_seen(table), table.seq)
            if "take" in [str(a) for a in table.hand.view(0).legal_actions]:
                table.act(0, "take", table.seq)
                melds = [
                    str(a) for a in table.hand.view(0).legal_actions if str(a).startswith("meld")
                ]
                if melds and len(table.hand.view(0).to_dict()["hand"]) > 3:
                    table.act(0, melds[0], table.seq)
                    found = True
                    break
            legal = [str(a) for a in table.hand.view(0).legal_actions]
            table.act(0, greedy(legal), table.seq)
        if found:
            break
    else:
        raise AssertionError("no take-and-meld turn found")
    meld = str(table.hand.history[-1][1])
    assert table.view_message(0)["undo"] == {"seat": 0, "action": meld}
    first = table.undo(0, table.seq)[0]
    assert first["undone"]["action"] == meld and first["undo"]["action"] == "take"
    # The card taken is named: the card on the pile once the take is taken back too.
    taken = first["undo"]["card"]
    assert taken in first["view"]["hand"]["hand"]
    # The record lost the meld; a restart replays to the same table.
    again = TableManager(store).get(table.id)
    assert again is not None and again is not table
    assert again.view_message(0) == table.view_message(0)
    second = again.undo(0, again.seq)[0]
    assert second["undone"]["action"] == "take" and second["undo"] is None
    assert second["view"]["hand"]["discard_pile"][-1] == taken
    assert (second["view"], second["aids"]) == start[0]
    assert second["seq"] == start[1] + 4  # two moves and two take-backs
    stored = store.load(table.id)
    assert stored is not None and len(stored.undos) == 2
    _refused(again, again.seq, "illegal", "no move of this turn")
    # A message for a view before the take-backs is stale.
    _refused(again, start[1], "stale", "stale")


def test_a_draw_from_the_stock_and_a_discard_stay(store: Store) -> None:
    table = _basic_table_at_a_take(store)
    table.act(0, "draw", table.seq)
    assert isinstance(table.hand.history[-1][1], Draw)
    assert table.view_message(0)["undo"] is None
    _refused(table, table.seq, "illegal", "draw cannot be taken back")
    card = greedy([str(a) for a in table.hand.view(0).legal_actions if str(a).startswith("dis")])
    table.act(0, card, table.seq)
    # The computer is to act: not the person's turn.
    _refused(table, table.seq, "not_your_turn", "not your turn")


def test_gin_takes_back_the_up_card_taken_on_the_offer(store: Store) -> None:
    for seed in range(50):
        table, _ = Table.create(store, variant="gin", opponents=1, level="medium", seed=seed)
        _to_person(table)
        if table.hand.phase.value == "offer" and table.hand.to_act == 0:
            break
    else:
        raise AssertionError("no offer to the person")
    before = _seen(table)
    table.act(0, "take", table.seq)
    back = table.undo(0, table.seq)[0]
    assert (back["view"], back["aids"]) == before
    assert back["view"]["hand"]["phase"] == "offer"


def test_no_take_backs_at_a_table_with_friends(store: Store) -> None:
    table, _ = Table.create(store, variant="rummy", opponents=2, level="medium", friends=1, seed=3)
    for _ in range(300):  # the friend at seat 1 plays greedily too
        _to_person(table)
        seat = table.hand.to_act
        assert seat is not None and not table.hand.is_over, "no take for the person"
        legal = [str(a) for a in table.hand.view(seat).legal_actions]
        if seat == 0 and "take" in legal:
            break
        table.act(seat, greedy(legal), table.seq)
    table.act(0, "take", table.seq)
    assert table.view_message(0)["undo"] is None
    _refused(table, table.seq, "illegal", "alone against the computer")
    # Nor when the friend took their seat and left, a computer playing it until they come back.
    again, _ = Table.create(store, variant="rummy", opponents=1, level="medium", friends=1, seed=5)
    code = again.invites[1]
    again.join(code, "Lan")
    again.give_to_computer(1, connected=[0], by=0, after=0)
    assert again.people() == 2 and again.human_seats() == [0]
    for _ in range(300):
        _to_person(again)
        legal = [str(a) for a in again.hand.view(0).legal_actions]
        if "take" in legal:
            break
        again.act(0, greedy(legal), again.seq)
    else:
        raise AssertionError("no take for the person")
    again.act(0, "take", again.seq)
    assert again.view_message(0)["undo"] is None
    _refused(again, again.seq, "illegal", "alone against the computer")


def test_the_undo_message_is_read_and_checked() -> None:
    assert parse_incoming('{"t": "undo", "seq": 7}') == UndoRequest(7)
    for bad in ['{"t": "undo"}', '{"t": "undo", "seq": "7"}', '{"t": "undo", "seq": 1, "x": 2}']:
        with pytest.raises(ProtocolError) as caught:
            parse_incoming(bad)
        assert caught.value.code == "bad_message"


def test_a_take_back_over_the_socket(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s.sqlite3", delay=0)) as client:
        response = client.post(
            "/api/tables", json={"game": "rummy", "opponents": 1, "level": "medium"}
        )
        info = response.json()
        manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            for _ in range(500):
                message = ws.receive_json()
                assert message["t"] == "view"
                hand = message["view"]["hand"]
                assert hand["phase"] != "hand_over", "no take found in the hand"
                if hand["to_act"] != 0:
                    continue
                if "take" in hand["legal_actions"]:
                    break
                ws.send_json(
                    {"t": "action", "action": greedy(hand["legal_actions"]), "seq": message["seq"]}
                )
            ws.send_json({"t": "action", "action": "take", "seq": message["seq"]})
            taken = ws.receive_json()
            top = message["view"]["hand"]["discard_pile"][-1]
            assert taken["undo"] == {"seat": 0, "action": "take", "card": top}
            ws.send_json({"t": "undo", "seq": message["seq"]})  # stale: the view before the take
            stale = ws.receive_json()
            assert stale["t"] == "error" and stale["code"] == "stale"
            ws.send_json({"t": "undo", "seq": taken["seq"]})
            back = ws.receive_json()
            assert back["t"] == "view" and back["undone"] == taken["undo"]
            assert back["view"] == message["view"] and back["seq"] == taken["seq"] + 1
            table = manager.get(info["table"])
            assert table is not None and table.seq == back["seq"]
