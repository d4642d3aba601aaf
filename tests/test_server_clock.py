"""The turn clock at a table with friends (``turn_time``).

A table with friends may give each person a time for a turn. Checked here: the limit is
validated when the table is created (and stored, kept by a rematch, read back after a restart);
every view carries the time left of the person to act, the same for every seat, counting over
the whole turn (a draw does not reset it); when the time is up the computer finishes the turn for
that person (its moves marked as the computer's, in the views and the store), the person's own
messages for that turn are refused, and an offer to buy is passed, never bought; a seat kept for
a friend who has not come has no clock; and over a real socket the pages hear ``timeout``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_server import check_private, greedy

from rummykit.actions import Pass
from rummykit.games.base import Phase
from rummykit.server.app import create_app
from rummykit.server.dialects import COLUMNS_ADDED
from rummykit.server.protocol import ProtocolError
from rummykit.server.store import SCHEMA, Store
from rummykit.server.tables import TIMEOUT_LEVEL, Table

pytestmark = pytest.mark.server


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "clock.sqlite3")
    yield s
    s.close()


def friends_table(
    store: Store, variant: str = "gin", friends: int = 1, opponents: int = 1, **kwargs: Any
) -> tuple[Table, Clock]:
    """A table of people only (every friend has taken their seat), 30 seconds a turn."""
    kwargs.setdefault("turn_time", 30)
    table, _ = Table.create(
        store,
        variant=variant,
        opponents=opponents,
        level="medium",
        friends=friends,
        seed=kwargs.pop("seed", 5),
        **kwargs,
    )
    for code in list(table.invites.values()):
        table.join(code, None)
    clock = Clock()
    table.clock = clock
    return table, clock


def person_acts(table: Table, seat: int) -> None:
    """One greedy move by the person at ``seat`` (whose turn it is)."""
    legal = [str(a) for a in table.hand.view(seat).legal_actions]
    table.act(seat, greedy(legal), table.seq)


def expire_now(table: Table, clock: Clock) -> int:
    """Move the clock to the end of the turn under way and end it; returns the seat."""
    deadline = table.turn_deadline()
    assert deadline is not None
    turn, left = deadline
    clock.now += left
    seat = table.expire(turn)
    assert seat == turn[1]
    return seat


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (True, "whole number"),
        ("30", "whole number"),
        (30.5, "whole number"),
        (4, r"0 \(no limit\) or 5 to 600"),
        (601, r"0 \(no limit\) or 5 to 600"),
        (-30, r"0 \(no limit\) or 5 to 600"),
    ],
)
def test_a_bad_turn_time_is_refused_and_nothing_is_stored(
    store: Store, value: Any, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        Table.create(store, variant="gin", opponents=1, level="medium", friends=1, turn_time=value)
    assert store.table_ids(unfinished_only=False) == []


def test_a_turn_time_is_for_a_table_with_friends(store: Store) -> None:
    with pytest.raises(ValueError, match="for a table with friends"):
        Table.create(store, variant="rummy", opponents=2, level="medium", turn_time=30)
    assert store.table_ids(unfinished_only=False) == []
    table, _ = Table.create(store, variant="rummy", opponents=2, level="medium", turn_time=0)
    assert table.turn_clock() is None and table.welcome(0)["turn_time"] == 0


def test_every_view_shows_the_time_left_over_the_whole_turn(store: Store) -> None:
    table, clock = friends_table(store)
    assert table.welcome(1)["turn_time"] == 30
    seat = table.hand.to_act
    assert seat is not None
    first = {s: table.view_message(s)["clock"] for s in (0, 1)}
    assert first == {s: {"seat": seat, "left": 30.0, "limit": 30} for s in (0, 1)}
    clock.now += 12
    assert table.view_message(1 - seat)["clock"] == {"seat": seat, "left": 18.0, "limit": 30}
    # Gin's first offer is a single decision; play to a draw, whose turn goes on to a discard.
    while table.hand.phase is not Phase.DRAW:
        person_acts(table, table.hand.to_act)  # type: ignore[arg-type]
    drawer = table.hand.to_act
    assert drawer is not None
    assert table.view_message(drawer)["clock"]["left"] == 30.0  # a new turn: a new clock
    clock.now += 7
    person_acts(table, drawer)  # the draw: still the drawer's turn
    assert table.hand.to_act == drawer
    assert table.view_message(drawer)["clock"] == {"seat": drawer, "left": 23.0, "limit": 30}
    clock.now += 50
    assert table.view_message(drawer)["clock"]["left"] == 0.0  # never below zero


def test_the_computer_finishes_a_turn_whose_time_ran_out(store: Store) -> None:
    table, clock = friends_table(store, seed=11)
    while table.hand.phase is not Phase.DRAW:
        person_acts(table, table.hand.to_act)  # type: ignore[arg-type]
    deadline = table.turn_deadline()
    assert deadline is not None
    turn, left = deadline
    clock.now += left - 0.5
    assert table.expire(turn) is None  # half a second left: nothing changes
    assert table.computer_to_act() is None
    seq = table.seq
    seat = expire_now(table, clock)
    assert table.timed_out(seat) and table.computer_to_act() == seat
    assert table.seq == seq  # nothing was played yet
    for viewer in (0, 1):  # every page says so while the computer finishes the turn
        out = {"seat": seat, "left": 0.0, "limit": 30, "out": True}
        assert table.view_message(viewer)["clock"] == out
    assert table.turn_deadline() is None
    legal = [str(a) for a in table.hand.view(seat).legal_actions]
    with pytest.raises(ProtocolError, match="time for this turn ran out") as caught:
        table.act(seat, legal[0], seq)
    assert caught.value.code == "not_your_turn" and table.seq == seq
    entries = []
    while table.hand.to_act == seat and not table.hand.is_over:
        messages = table.step_computer()
        assert set(messages) == {0, 1}
        for viewer, message in messages.items():
            check_private(table.match, viewer, message)
            assert message["log"][0]["stand_in"] is True and message["log"][0]["seat"] == seat
            if table.hand.to_act == seat:  # a move of the turn to come: still the computer's
                assert message["clock"]["out"] is True
        entries.append(messages[seat]["log"][0]["action"])
    assert entries[0] == "draw" and len(entries) >= 2  # drew, then threw (or knocked)
    assert not table.timed_out(seat)
    stored = store.load(table.id)
    assert stored is not None
    hand = len(table.match.hands) - 1
    moves = range(len(table.hand.history) - len(entries), len(table.hand.history))
    assert {(hand, n) for n in moves} <= stored.stand_in_moves
    assert table.seats[seat].kind == "human"  # the seat stays the person's
    if not table.hand.is_over:
        other = table.hand.to_act
        assert other == 1 - seat
        assert table.view_message(other)["clock"] == {"seat": other, "left": 30.0, "limit": 30}
        assert table.computer_to_act() is None  # the next turn is the person's own


def test_an_offer_to_buy_is_passed_when_its_time_runs_out(store: Store) -> None:
    table, clock = friends_table(store, "crazy", friends=2, opponents=2, seed=3)
    for _ in range(200):
        if table.hand.phase is Phase.BUY and table.turn_deadline() is not None:
            break
        person_acts(table, table.hand.to_act)  # type: ignore[arg-type]
    else:
        pytest.fail("no offer to buy came")
    seat = expire_now(table, clock)
    asked, decide = table.computer_decision()
    assert asked == seat and decide() == Pass()
    messages = table.step_computer()
    entry = messages[seat]["log"][0]
    assert entry["action"] == "pass" and entry["stand_in"] is True and entry["phase"] == "buy"
    assert not table.timed_out(seat)


def test_a_seat_kept_for_a_friend_has_no_clock(store: Store) -> None:
    table, _ = Table.create(
        store, variant="gin", opponents=1, level="medium", friends=1, turn_time=30, seed=2
    )
    while table.hand.to_act == 0:
        person_acts(table, 0)
    assert table.hand.to_act == 1 and table.seats[1].open
    assert table.turn_clock() is None and table.turn_deadline() is None
    for code in table.invites.values():
        table.join(code, "Lan")
    assert table.turn_clock() == {"seat": 1, "left": 30.0, "limit": 30}


def test_the_time_limit_is_stored_and_kept_by_a_rematch(store: Store) -> None:
    table, _ = friends_table(store, "gin", turn_time=45, options={"target_score": 1})
    stored = store.load(table.id)
    assert stored is not None and stored.turn_time == 45
    restored = Table.restore(stored, store)
    assert restored.turn_time == 45
    assert restored.turn_clock() == {"seat": restored.hand.to_act, "left": 45.0, "limit": 45}
    for _ in range(2000):
        if table.finished:
            break
        if table.hand.is_over:
            table.next_hand(0, table.seq)
        else:
            person_acts(table, table.hand.to_act)  # type: ignore[arg-type]
    assert table.finished
    again = store.load(table.rematch())
    assert again is not None and again.turn_time == 45


def test_a_database_from_before_the_turn_clock_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    schema = SCHEMA
    for column, spec in COLUMNS_ADDED["tables"]:  # the tables as they were before these
        schema = schema.replace(f",\n    {column} {spec}", "")
    old.executescript(schema)
    old.execute(
        "INSERT INTO tables (id, created, updated, variant, game, options, seats, seed)"
        " VALUES ('t1', 0, 0, 'gin', 'gin', '{}', '[]', 7)"
    )
    old.commit()
    assert "turn_time" not in {row[1] for row in old.execute("PRAGMA table_info(tables)")}
    assert "changes" not in {row[1] for row in old.execute("PRAGMA table_info(tables)")}
    old.close()
    store = Store(path)
    try:
        stored = store.load("t1")
        assert stored is not None and stored.turn_time == 0 and stored.changes == 0
        table, _ = friends_table(store, turn_time=20)
        loaded = store.load(table.id)
        assert loaded is not None and loaded.turn_time == 20
    finally:
        store.close()


def test_the_timeout_level_is_a_level_of_every_game() -> None:
    from rummykit.server.catalogue import levels_for

    for variant in ("gin", "rummy", "rummy-classic", "crazy"):
        assert TIMEOUT_LEVEL in levels_for(variant)


def test_a_turn_runs_out_over_the_socket(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s.sqlite3", delay=0)) as client:
        bad = client.post(
            "/api/tables",
            json={"game": "gin", "opponents": 1, "friends": 1, "turn_time": 2},
        )
        assert bad.status_code == 400 and "5 to 600" in bad.json()["error"]
        # The turn's clock cannot start before the table exists: the timeout comes at least
        # 5 s after this, however long the set-up below takes on a busy machine.
        started = time.monotonic()
        created = client.post(
            "/api/tables",
            json={"game": "gin", "opponents": 1, "friends": 1, "name": "An", "turn_time": 5},
        ).json()
        table_id = created["table"]
        code = created["invites"][0]["code"]
        joined = client.post(f"/api/tables/{table_id}/join", json={"code": code}).json()
        assert client.get(f"/api/tables/{table_id}").json()["turn_time"] == 5
        tokens = {0: created["token"], 1: joined["token"]}
        with (
            client.websocket_connect(f"/ws/{table_id}/0") as ws0,
            client.websocket_connect(f"/ws/{table_id}/1") as ws1,
        ):
            sockets = {0: ws0, 1: ws1}
            latest: dict[int, dict[str, Any]] = {}
            for seat, ws in sockets.items():
                ws.send_json({"t": "hello", "token": tokens[seat]})
                welcome = ws.receive_json()
                assert welcome["t"] == "welcome" and welcome["turn_time"] == 5
                latest[seat] = ws.receive_json()
            to_act = latest[0]["view"]["hand"]["to_act"]
            assert latest[0]["clock"]["seat"] == to_act and 0 < latest[0]["clock"]["left"] <= 5
            waiting = sockets[to_act]
            heard: list[dict[str, Any]] = []
            while not heard or heard[-1]["t"] != "timeout":
                heard.append(waiting.receive_json())  # presence, then the timeout
            assert heard[-1] == {"t": "timeout", "seat": to_act}
            assert time.monotonic() - started >= 4.5  # (5 s; the half second is to spare)
            stale = latest[to_act]
            move = greedy(stale["view"]["hand"]["legal_actions"])
            waiting.send_json({"t": "action", "action": move, "seq": stale["seq"]})
            answers: list[dict[str, Any]] = []
            errors: list[dict[str, Any]] = []
            views: list[dict[str, Any]] = []
            while not errors or not views or views[-1]["view"]["hand"]["to_act"] == to_act:
                message = waiting.receive_json()
                answers.append(message)
                (errors if message["t"] == "error" else views).append(message)
                assert len(answers) < 20, answers
            # Refused: the computer finishes the turn (or it already had, which makes it stale).
            assert errors and errors[0]["code"] in {"not_your_turn", "stale"}
            assert views and all(v["log"][0]["stand_in"] is True for v in views)
            assert all(v["log"][0]["seat"] == to_act for v in views)
            after = views[-1]
            if after["view"]["hand"]["phase"] != "hand_over":
                # A clock of its own for the next turn, running: the turn out of time would
                # read 0 and "out". (Exactly how much is left depends on how fast this machine
                # built the view; the fresh clock's full time is checked with a hand-moved
                # clock in test_the_computer_finishes_a_turn_whose_time_ran_out.)
                clock = after["clock"]
                assert clock["seat"] == 1 - to_act and clock["limit"] == 5 and "out" not in clock
                assert 0 < clock["left"] <= 5


def computer_finishes(table: Table) -> None:
    """The computer's moves until a person is to act on their own (or the hand ends)."""
    while table.computer_to_act() is not None:
        table.step_computer()


def person_turn(table: Table, seat: int) -> None:
    """The person at ``seat`` plays their whole turn (greedy)."""
    while table.hand.to_act == seat and not table.hand.is_over:
        person_acts(table, seat)


def gin_in_draw(store: Store) -> tuple[Table, Clock, int, int]:
    """A Gin table of two people past the first offer: (table, clock, the seat to act, the
    other)."""
    table, clock = friends_table(store, seed=11)
    while table.hand.phase is not Phase.DRAW:
        person_acts(table, table.hand.to_act)  # type: ignore[arg-type]
    seat = table.hand.to_act
    assert seat is not None
    return table, clock, seat, 1 - seat


def test_after_two_turns_in_a_row_out_of_time_the_computer_plays_at_once(store: Store) -> None:
    table, clock, a, b = gin_in_draw(store)
    for missed in (1, 2):
        assert table.hand.to_act == a and not table.away(a)
        expire_now(table, clock)
        computer_finishes(table)
        assert table.missed == {a: missed}
        person_turn(table, b)
    assert not table.hand.is_over and table.hand.to_act == a
    # Away: the turn is the computer's from its start, with no wait; every view says so.
    assert table.away(a) and table.computer_to_act() == a
    for viewer in (a, b):
        message = table.view_message(viewer)
        assert message["away"] == [a]
        assert message["clock"] == {"seat": a, "left": 0.0, "limit": 30, "out": True, "away": True}
    assert table.turn_deadline() is None
    first = len(table.hand.history)
    computer_finishes(table)
    hand = len(table.match.hands) - 1
    assert {(hand, n) for n in range(first, len(table.hand.history))} <= table.stand_in_moves
    # Only the away person may say they are back, and only while away.
    with pytest.raises(ProtocolError, match="not playing your turns"):
        table.back(b)
    messages = table.back(a)
    assert set(messages) == {a, b} and all(m["away"] == [] for m in messages.values())
    with pytest.raises(ProtocolError, match="not playing your turns"):
        table.back(a)
    person_turn(table, b)
    assert table.view_message(a)["clock"] == {"seat": a, "left": 30.0, "limit": 30}
    assert table.computer_to_act() is None


def test_back_in_time_for_the_turn_under_way_plays_it(store: Store) -> None:
    table, clock, a, b = gin_in_draw(store)
    for _ in range(2):
        expire_now(table, clock)
        computer_finishes(table)
        person_turn(table, b)
    assert table.computer_to_act() == a  # away: the computer is to play a's turn
    clock.now += 100
    table.back(a)
    assert table.computer_to_act() is None and not table.timed_out(a)
    assert table.view_message(b)["clock"] == {"seat": a, "left": 30.0, "limit": 30}
    person_acts(table, a)  # the person's own move is accepted


def test_a_move_of_ones_own_between_two_turns_out_of_time_is_not_away(store: Store) -> None:
    table, clock, a, b = gin_in_draw(store)
    expire_now(table, clock)
    computer_finishes(table)
    person_turn(table, b)
    person_turn(table, a)  # a turn of their own
    assert a not in table.missed
    person_turn(table, b)
    expire_now(table, clock)
    assert table.missed == {a: 1} and not table.away(a)


def test_back_over_the_socket_is_checked(tmp_path: Path) -> None:
    from rummykit.server.protocol import Back, parse_incoming

    assert parse_incoming('{"t": "back"}') == Back()
    with pytest.raises(ProtocolError, match="unexpected field"):
        parse_incoming('{"t": "back", "seat": 1}')
    with TestClient(create_app(tmp_path / "s.sqlite3", delay=0)) as client:
        created = client.post("/api/tables", json={"game": "gin", "opponents": 1}).json()
        with client.websocket_connect(f"/ws/{created['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": created["token"]})
            assert ws.receive_json()["t"] == "welcome"
            view = ws.receive_json()
            assert view["away"] == [] and view["clock"] is None
            ws.send_json({"t": "back"})
            error = ws.receive_json()
            while error["t"] == "view":  # the computer's moves, if it is to act
                error = ws.receive_json()
            assert error["t"] == "error" and error["code"] == "illegal"


def phase_of(table: Table) -> Phase:
    """The hand's phase now (a call, so a type checker does not pin it from an earlier test)."""
    return table.hand.phase


def test_a_crazy_turn_out_of_time_stays_the_computers_across_the_offers_to_buy(
    store: Store,
) -> None:
    """Crazy Rummy: time runs out as a person decides whether to take the card on offer; the
    computer draws from the stock for them, the others are asked to buy the card passed on, and
    then the rest of that same turn is still the computer's (no second clock, no second turn
    out of time). A card a person does not buy is not a sign they are back: the page passes
    by itself when they asked not to be asked again."""
    from rummykit.actions import Draw

    for seed in range(1, 40):
        table, clock = friends_table(store, "crazy", friends=2, opponents=2, seed=seed)
        found = False
        for _ in range(300):
            hand = table.hand
            seat = hand.to_act
            assert seat is not None
            if hand.phase is Phase.DRAW and table.turn_deadline() is not None:
                choice = table.computer_player(seat).choose(hand.view(seat))
                if choice == Draw() and hand.legal_actions() != [Draw()]:
                    found = True
                    break
            person_acts(table, seat)
        if found:
            break
    assert found
    a = expire_now(table, clock)
    table.step_computer()  # passes on the card and draws: the others are asked to buy it
    asked = []
    while table.hand.phase is Phase.BUY:
        other = table.hand.to_act
        assert other is not None and other != a
        asked.append(other)
        table.act(other, "pass", table.seq)
    assert asked and table.hand.to_act == a
    assert table.computer_to_act() == a and table.timed_out(a)
    assert table.view_message(a)["clock"] == {"seat": a, "left": 0.0, "limit": 30, "out": True}
    while table.computer_to_act() == a:
        table.step_computer()
    assert table.missed.get(a) == 1 and not table.away(a)
    assert all(table.missed.get(other, 0) == 0 for other in asked)
    for _ in range(300):  # the next offer to buy that person passes keeps their count
        if phase_of(table) is Phase.BUY and table.hand.to_act == asked[0]:
            table.missed[asked[0]] = 1  # as after a turn out of time
            table.act(asked[0], "pass", table.seq)
            assert table.missed.get(asked[0]) == 1
            break
        seat = table.hand.to_act
        assert seat is not None
        if table.computer_to_act() is not None:
            table.step_computer()
        else:
            person_acts(table, seat)
    else:
        pytest.fail("that person was never asked to buy again")
