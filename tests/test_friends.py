"""Playing with friends: seats kept for people, invitation codes, joining, and what each sees.

A table created with ``friends`` keeps seats for people; each seat has an invitation code that only
the creator gets. A friend who brings the code takes the seat with a token of their own, and the
code is spent. Every person's messages are checked for hidden cards, over complete matches.
"""

from __future__ import annotations

import random
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from test_server import _hidden, _tokens, check_private, greedy

from rummykit.server import hub as hub_module
from rummykit.server.app import create_app
from rummykit.server.hub import Hub
from rummykit.server.limits import Limits
from rummykit.server.names import MAX_NAME, BadName, NameTaken, clean_name
from rummykit.server.protocol import ProtocolError
from rummykit.server.store import Store
from rummykit.server.tables import DEAL_RANGE, Table, TableManager

pytestmark = pytest.mark.server


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "friends.sqlite3")
    yield s
    s.close()


AT_ONCE = Limits(give_after=0)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # (a seat is given at once here; the wait before it is tested on its own)
    with TestClient(create_app(tmp_path / "web.sqlite3", delay=0, limits=AT_ONCE)) as c:
        yield c


def _play_everyone(table: Table, limit: int = 20_000, *, to_the_end: bool = True) -> int:
    """Play the match to its end (or ``limit`` steps, unless ``to_the_end``), every person
    greedy, checking each person's every message; returns the steps played."""
    people = table.human_seats()
    for sent in range(limit):
        if table.finished:
            return sent
        if table.hand.is_over:
            messages = table.next_hand(people[-1], table.seq)
        elif table.computer_to_act() is not None:
            messages = table.step_computer()
        else:
            seat = table.hand.to_act
            assert seat in people
            legal = [str(a) for a in table.hand.view(seat).legal_actions]
            messages = table.act(seat, greedy(legal), table.seq)
        assert set(messages) == set(people)
        for viewer, message in messages.items():
            check_private(table.match, viewer, message)
    if to_the_end:
        raise AssertionError("the match did not end")
    return limit


@pytest.mark.parametrize(
    ("variant", "opponents", "friends", "options"),
    [
        ("gin", 1, 1, {"target_score": 30}),
        ("rummy", 3, 2, {"hands": 2}),
        ("crazy", 2, 2, {}),
    ],
)
def test_friends_see_only_their_own_cards_over_a_whole_match(
    store: Store, variant: str, opponents: int, friends: int, options: dict[str, Any]
) -> None:
    table, token = Table.create(
        store,
        variant=variant,
        opponents=opponents,
        level="random",
        options=options,
        seed=5,
        friends=friends,
        name="An",
    )
    assert sorted(table.invites) == list(range(1, friends + 1))
    assert [s.kind for s in table.seats].count("human") == friends + 1
    assert table.check_token(0, token)
    tokens = {}
    for seat, code in table.invites.items():
        assert not table.check_token(seat, code)  # a code is not a token
        got, tokens[seat] = table.join(code, f"Friend {seat}")
        assert got == seat
        assert table.check_token(seat, tokens[seat]) and not table.check_token(seat, token)
    assert _play_everyone(table) > 10
    assert table.match.result is not None
    # The stored table has the friends' seats and names, and replays to the same match.
    stored = store.load(table.id)
    assert stored is not None and stored.finished
    again = Table.restore(stored, store)
    assert [s.public() for s in again.seats] == [s.public() for s in table.seats]
    assert again.seats[1].name == "Friend 1"
    assert all(again.check_token(seat, t) for seat, t in tokens.items())
    assert again.invites == {}  # codes are never stored, only their hashes
    for seat in range(1, friends + 1):
        assert again.view_message(seat) == table.view_message(seat)


def test_an_invitation_is_spent_once_and_wrong_codes_take_nothing(store: Store) -> None:
    table, _ = Table.create(store, variant="rummy", opponents=2, level="easy", seed=3, friends=2)
    code1, code2 = table.invites[1], table.invites[2]
    before = [s.to_dict() for s in table.seats]
    for wrong in ("", "x", code1 + "x", code1[:-1]):
        with pytest.raises(ProtocolError, match="not valid"):
            table.join(wrong)
    assert [s.to_dict() for s in table.seats] == before
    seat, _ = table.join(code2, "  Lan  ")
    assert seat == 2 and table.seats[2].name == "Lan"
    with pytest.raises(ProtocolError, match="already taken"):
        table.join(code2)
    with pytest.raises(ValueError, match="at most"):
        table.join(code1, "x" * (MAX_NAME + 1))
    assert table.seats[1].open  # a refused name leaves the seat open
    assert table.join(code1)[0] == 1
    assert table.seats[1].name is None and not table.seats[1].open
    stored = store.load(table.id)
    assert stored is not None
    assert [s.get("name") for s in stored.seats] == [None, None, "Lan"]
    assert all("invite" not in s for s in stored.seats)  # spent codes are forgotten


def test_names_are_cleaned_or_refused() -> None:
    assert clean_name("  Bình   An ") == "Bình An"
    assert clean_name(None) is None and clean_name("   ") is None
    assert clean_name("Minh \u2764\ufe0f") == "Minh \u2764\ufe0f"
    assert clean_name("Lan \U0001f468\u200d\U0001f469") == "Lan \U0001f468\u200d\U0001f469"
    for bad in ("a\x00b", "zero\u200bwidth", "evil\u202egnp.exe", "x" * (MAX_NAME + 1)):
        with pytest.raises(ValueError):
            clean_name(bad)
    # Names that show as nothing (tags, blank letters, a lone variation selector), and accents
    # stacked over the lines around a name.
    for blank in ("\U000e0041" * 5, "\U000e007f", "\u3164", "\u115f", "\u2800\u2800", "\ufe0f"):
        with pytest.raises(ValueError, match="that shows"):
            clean_name(blank)
    with pytest.raises(ValueError, match="at most 3 accents"):
        clean_name("a" + "\u0301" * 23)
    decomposed = unicodedata.normalize("NFD", "Nguyễn Thị Hoà")  # 2 accents on the e
    assert clean_name(decomposed) == decomposed
    assert clean_name("ပြုံး") == "ပြုံး"  # Burmese: its spacing marks take their own room
    assert clean_name("\U0001f44d\U0001f3fd") == "\U0001f44d\U0001f3fd"  # a thumb, skin tone
    with pytest.raises(ValueError):
        clean_name(5)


@pytest.mark.parametrize(
    "name",
    [
        *("You", "you", "COMPUTER", "Computer 2", "Computer for An", "Player 3"),
        *("Bạn", "MÁY", "Máy 2", "Máy chơi thay Lan", "Người chơi 4"),
        unicodedata.normalize("NFD", "máy"),
    ],
)
def test_the_words_the_page_names_seats_with_are_no_names(name: str, store: Store) -> None:
    """A friend named "You" would read on the others' pages as each of them ("You discarded
    7♦"), one named "Computer" as a computer."""
    with pytest.raises(BadName, match="what the page calls a seat"):
        clean_name(name)
    with pytest.raises(ValueError, match="choose another name"):
        Table.create(store, variant="gin", opponents=1, level="easy", friends=1, name=name)
    table, _ = Table.create(store, variant="gin", opponents=1, level="easy", friends=1)
    with pytest.raises(BadName):
        table.join(table.invites[1], name)
    assert table.seats[1].open  # the seat still waits for its friend


def test_names_that_only_contain_those_words_are_fine() -> None:
    for name in ("Youssef", "Computer Nerd 2000", "Bạn Hiền", "Máy Bay", "Player One", "An"):
        assert clean_name(name) == name
    # A dot inside a word (Catalan) is not the page's separator.
    assert clean_name("Marcel·la") == "Marcel·la"


@pytest.mark.parametrize(
    "name",
    [
        *("Máy · Dễ", "Computer · Easy", "Lan · not connected", "Lan · không kết nối"),
        *("An • Khó", "An ·Khó", "An· Khó", "Máy Dễ", "computer easy", "MÁY TRUNG BÌNH"),
        *("Máy: Khó", "Computer - Hard", "Máy Đánh bừa"),
    ],
)
def test_names_that_read_as_the_page_labels_of_a_seat_are_refused(name: str) -> None:
    """The page shows a computer as "Máy · Dễ" and a person as "Lan · not connected": a friend
    with such a name would pass for a computer, or for someone who left."""
    with pytest.raises(BadName, match="choose another name"):
        clean_name(name)


def test_a_friend_cannot_take_a_name_someone_at_the_table_has(store: Store) -> None:
    table, _ = Table.create(
        store, variant="rummy", opponents=3, level="easy", seed=3, friends=2, name="An"
    )
    code1, code2 = table.invites[1], table.invites[2]
    for same in ("An", "an", " AN ", unicodedata.normalize("NFD", "An")):
        with pytest.raises(NameTaken, match="already called"):
            table.join(code1, same)
        assert table.seats[1].open  # the seat still waits for its friend
    assert table.join(code1, "Lan")[0] == 1
    with pytest.raises(NameTaken):
        table.join(code2, "LAN")
    assert table.join(code2, "Lân")[0] == 2  # another name (an accent makes it one)
    # No name at all is never taken (the page says "Player 2").
    other, _ = Table.create(store, variant="gin", opponents=1, level="easy", friends=1)
    assert other.join(other.invites[1])[0] == 1


def test_friends_are_counted_among_the_opponents(store: Store) -> None:
    with pytest.raises(ValueError, match="friends must be 0 to 1"):
        Table.create(store, variant="gin", opponents=1, level="easy", friends=2)
    with pytest.raises(ValueError, match="whole number"):
        Table.create(store, variant="gin", opponents=1, level="easy", friends=True)
    # No computer at the table: the level does not matter.
    table, _ = Table.create(store, variant="gin", opponents=1, level="nobody", friends=1)
    assert [s.kind for s in table.seats] == ["human", "human"]
    assert table.computer_to_act() is None


def _join(client: TestClient, table: str, body: Any) -> Any:
    return client.post(f"/api/tables/{table}/join", json=body)


def test_the_http_api_creates_invitations_and_joins(client: TestClient) -> None:
    response = client.post(
        "/api/tables",
        json={"game": "rummy", "opponents": 3, "friends": 2, "level": "easy", "name": "An"},
    )
    assert response.status_code == 201, response.text
    info = response.json()
    assert [i["seat"] for i in info["invites"]] == [1, 2]
    table = info["table"]
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert seats == [
        {"kind": "human", "level": None, "name": "An", "joined": True},
        {"kind": "human", "level": None, "name": None, "joined": False},
        {"kind": "human", "level": None, "name": None, "joined": False},
        {"kind": "computer", "level": "easy"},
    ]
    code = info["invites"][0]["code"]
    assert _join(client, "nope", {"code": code}).status_code == 404
    assert _join(client, table, {"code": "wrong"}).status_code == 403
    assert _join(client, table, {"cod": code}).status_code == 400
    assert _join(client, table, {"code": code, "seat": 2}).status_code == 400
    assert _join(client, table, [code]).status_code == 400
    assert _join(client, table, {"code": code, "name": "x" * 99}).status_code == 400
    taken = _join(client, table, {"code": code, "name": "an"})  # the host's name
    assert taken.status_code == 409 and taken.json()["field"] == "name", taken.text
    assert taken.json()["why"] == "taken"
    joined = _join(client, table, {"code": code, "name": "Lan"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1 and joined.json()["table"] == table
    assert _join(client, table, {"code": code}).status_code == 403  # spent
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert seats[1] == {"kind": "human", "level": None, "name": "Lan", "joined": True}
    for bad in ({"friends": 4}, {"friends": -1}, {"friends": "1"}, {"name": 7}):
        body = {"game": "rummy", "opponents": 3, "level": "easy", **bad}
        assert client.post("/api/tables", json=body).status_code == 400, bad


def test_a_friend_plays_over_the_socket_and_the_host_hears_them_arrive(
    client: TestClient,
) -> None:
    info = client.post(
        "/api/tables", json={"game": "gin", "opponents": 1, "friends": 1, "name": "An"}
    ).json()
    table, code = info["table"], info["invites"][0]["code"]
    with client.websocket_connect(f"/ws/{table}/0") as host:
        host.send_json({"t": "hello", "token": info["token"]})
        welcome = host.receive_json()
        assert welcome["seats"][1]["joined"] is False
        first = host.receive_json()
        assert first["t"] == "view"
        assert host.receive_json() == {"t": "presence", "online": [0], "reading": []}
        # The friend's seat opens neither with the code nor with the host's token.
        for wrong in (code, info["token"]):
            with client.websocket_connect(f"/ws/{table}/1") as forged:
                forged.send_json({"t": "hello", "token": wrong})
                assert forged.receive_json()["code"] == "auth"
        joined = _join(client, table, {"code": code, "name": "Lan"}).json()
        seats = host.receive_json()
        assert seats["t"] == "seats"
        assert seats["seats"][1] == {"kind": "human", "level": None, "name": "Lan", "joined": True}
        with client.websocket_connect(f"/ws/{table}/1") as friend:
            friend.send_json({"t": "hello", "token": joined["token"]})
            assert friend.receive_json()["seats"][1]["name"] == "Lan"
            view = friend.receive_json()
            assert view["view"]["hand"]["seat"] == 1
            for ws in (host, friend):  # who is at the table now
                assert ws.receive_json() == {"t": "presence", "online": [0, 1], "reading": []}
            sockets = {0: host, 1: friend}
            current = {0: first, 1: view}
            manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
            state = manager.get(table)
            assert state is not None
            moves = 0
            while state.hand.to_act is not None and moves < 12:
                seat = state.hand.to_act
                action = greedy(current[seat]["view"]["hand"]["legal_actions"])
                sockets[seat].send_json({"t": "action", "action": action, "seq": state.seq})
                for viewer, ws in sockets.items():
                    current[viewer] = ws.receive_json()
                    assert current[viewer]["t"] == "view"
                    check_private(state.match, viewer, current[viewer])
                    assert current[viewer]["log"][0]["seat"] == seat
                moves += 1
            assert moves >= 4  # (a greedy knock may end the hand before 12 moves)
        # The friend closed their window: the host is told.
        assert host.receive_json() == {"t": "presence", "online": [0], "reading": []}


def _finish_match(table: Table) -> None:
    """Play to the end of the match, every person greedy."""
    _play_everyone(table)
    assert table.finished


def test_both_people_asking_for_the_next_hand_deal_it_once(store: Store) -> None:
    table, _ = Table.create(
        store,
        variant="gin",
        opponents=1,
        level="easy",
        seed=8,
        friends=1,
        options={"target_score": 500},
    )
    table.join(table.invites[1])
    while not table.hand.is_over:
        seat = table.hand.to_act
        assert seat is not None
        legal = [str(a) for a in table.hand.view(seat).legal_actions]
        table.act(seat, greedy(legal), table.seq)
    asked = table.seq
    first = table.next_hand(0, asked)
    assert set(first) == {0, 1} and len(table.match.hands) == 2
    again = table.next_hand(1, asked)  # the friend pressed Next hand too
    assert set(again) == {1} and len(table.match.hands) == 2
    assert again[1] == table.view_message(1)
    with pytest.raises(ProtocolError, match="view"):
        table.next_hand(1, asked - 1)  # older than that is still stale


def test_a_rematch_seats_the_same_people_once(store: Store) -> None:
    table, token = Table.create(
        store,
        variant="gin",
        opponents=1,
        level="easy",
        seed=2,
        friends=1,
        name="An",
        options={"target_score": 20},
    )
    with pytest.raises(ProtocolError, match="not over"):
        table.rematch()
    _, friend_token = table.join(table.invites[1], "Lan")
    _finish_match(table)
    following = table.rematch()
    assert table.rematch() == following  # asked twice (or by both): one new table
    assert store.next_table(table.id) == following
    manager = TableManager(store)
    new = manager.get(following)
    assert new is not None and not new.finished and new.seq == 0
    assert new.check_token(0, token) and new.check_token(1, friend_token)
    assert [s.public() for s in new.seats] == [s.public() for s in table.seats]
    assert new.hand.game.options == table.hand.game.options
    assert new.match.seed != table.match.seed


def test_the_rematch_endpoint(client: TestClient) -> None:
    info = client.post(
        "/api/tables",
        json={
            "game": "gin",
            "opponents": 1,
            "level": "easy",
            "options": {"target_score": 10},
        },
    ).json()
    table_id = info["table"]
    url = f"/api/tables/{table_id}/rematch"
    body = {"seat": 0, "token": info["token"]}
    assert client.post(url, json=body).status_code == 409  # not over yet
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    table = manager.get(table_id)
    assert table is not None
    _finish_match(table)
    manager.forget(table_id)
    bad_bodies: list[Any] = [{"seat": 0}, {"seat": "0", "token": "t"}, [], {**body, "x": 1}]
    for bad in bad_bodies:
        assert client.post(url, json=bad).status_code == 400, bad
    assert client.post(url, json={"seat": 0, "token": "wrong"}).status_code == 403
    assert client.post(url, json={"seat": 1, "token": info["token"]}).status_code == 403
    assert client.post("/api/tables/nope/rematch", json=body).status_code == 404
    assert client.get(f"/api/tables/{table_id}").json()["next"] is None
    with client.websocket_connect(f"/ws/{table_id}/0") as ws:
        ws.send_json({"t": "hello", "token": info["token"]})
        assert ws.receive_json()["t"] == "welcome"
        assert ws.receive_json()["view"]["over"] is True
        made = client.post(url, json=body)
        assert made.status_code == 201
        following = made.json()["table"]
        assert ws.receive_json() == {"t": "rematch", "table": following}
    assert client.get(f"/api/tables/{table_id}").json()["next"] == following
    again = client.get(f"/api/tables/{following}").json()
    assert again["over"] is False and again["next"] is None
    assert client.post(url, json=body).json()["table"] == following


def test_a_computer_takes_the_seat_of_a_friend_who_is_not_coming(store: Store) -> None:
    table, _ = Table.create(store, variant="rummy", opponents=2, level="easy", seed=4, friends=2)
    code = table.invites[1]
    _, lan = table.join(table.invites[2], "Lan")
    with pytest.raises(ProtocolError, match="is connected"):
        table.give_to_computer(2, "easy", connected=[0, 2])  # Lan is here: Lan plays
    for seat in (0, 3, -1):
        with pytest.raises(ProtocolError, match="is not another person's seat"):
            table.give_to_computer(seat, "easy")
    with pytest.raises(ValueError, match="this table's level, medium, not 'grandmaster'"):
        table.give_to_computer(1, "grandmaster")
    assert table.seats[1].open
    table.give_to_computer(1, "medium")
    assert table.seats[1].public() == {
        "kind": "computer",
        "level": "medium",
        "stand_in": True,
        "name": None,
    }
    with pytest.raises(ProtocolError, match="not valid"):
        table.join(code)  # that invitation is spent
    assert not table.take_back(1)  # nobody ever sat there: nobody can take it back
    # Lan left (not connected): the computer may take over her seat too, until she comes back.
    table.give_to_computer(2, connected=[0], after=0)
    assert table.seats[2].public() == {
        "kind": "computer",
        "level": "medium",
        "stand_in": True,
        "name": "Lan",
    }
    assert table.check_token(2, lan) and not table.check_token(2, "forged")
    played = _play_everyone(table, 6, to_the_end=False)  # the computers play her turns meanwhile
    # A server restart keeps both stand-ins, and Lan's way back.
    again = TableManager(store).get(table.id)
    assert again is not None
    assert [s.public() for s in again.seats] == [s.public() for s in table.seats]
    assert again.check_token(2, lan) and again.seq == table.seq
    assert again.take_back(2) and not again.take_back(2)
    assert again.seats[2].public() == {
        "kind": "human",
        "level": None,
        "name": "Lan",
        "joined": True,
    }
    assert again.check_token(2, lan) and again.human_seats() == [0, 2]
    stored = TableManager(store).get(table.id)
    assert stored is not None and stored.seats[2].public() == again.seats[2].public()
    assert played + _play_everyone(again) > 10  # Lan plays her own turns again


def test_a_friend_lets_the_computer_play_for_a_creator_who_left(store: Store) -> None:
    """Without this a table whose creator closed the page waits for them for ever."""
    table, host = Table.create(store, variant="rummy", opponents=2, level="easy", friends=2)
    table.join(table.invites[2], "Lan")
    with pytest.raises(ProtocolError, match="is connected"):
        table.give_to_computer(0, "easy", connected=[0, 2], by=2)
    with pytest.raises(ProtocolError, match="only the table's creator"):
        table.give_to_computer(1, "easy", connected=[2], by=2)  # nobody has taken it yet
    with pytest.raises(ProtocolError, match="is not another person's seat"):
        table.give_to_computer(2, "easy", connected=[], by=2)  # one's own seat
    for by in (1, 3, 7):  # not taken yet, a computer's, no such seat: nobody to ask
        with pytest.raises(ProtocolError, match="is not a person's seat"):
            table.give_to_computer(0, "easy", connected=[], by=by)
    assert table.seats[0].kind == "human"
    table.give_to_computer(0, "medium", connected=[2], by=2, after=0)
    assert table.seats[0].stand_in and table.seats[0].level == "medium"
    # The creator comes back (a hello with their token): the seat and its powers are theirs.
    assert table.check_token(0, host) and table.take_back(0)
    assert table.seats[0].kind == "human" and table.check_token(0, host)
    table.give_to_computer(1, connected=[0])  # (at the table's level: medium)


def test_the_creator_hands_an_empty_seat_to_the_computer_over_http(client: TestClient) -> None:
    info = client.post(
        "/api/tables",
        json={"game": "rummy", "opponents": 2, "friends": 2, "level": "easy"},
    ).json()
    table = info["table"]
    url = f"/api/tables/{table}/seats/1/computer"
    body = {"token": info["token"], "level": "medium"}
    joined = _join(client, table, {"code": info["invites"][1]["code"], "name": "Lan"}).json()
    assert client.post(url, json={**body, "token": joined["token"]}).status_code == 403
    assert client.post(url, json={**body, "level": "hard"}).status_code == 400  # not its level
    assert client.post(url, json={**body, "level": "grandmaster"}).status_code == 400
    assert client.post(f"/api/tables/{table}/seats/0/computer", json=body).status_code == 409
    assert client.post(f"/api/tables/{table}/seats/x/computer", json=body).status_code == 409
    assert client.post("/api/tables/nope/seats/1/computer", json=body).status_code == 404
    with client.websocket_connect(f"/ws/{table}/0") as host:
        host.send_json({"t": "hello", "token": info["token"]})
        assert host.receive_json()["t"] == "welcome"
        assert host.receive_json()["t"] == "view"
        assert host.receive_json() == {"t": "presence", "online": [0], "reading": []}
        with client.websocket_connect(f"/ws/{table}/2") as lan:
            lan.send_json({"t": "hello", "token": joined["token"]})
            assert [lan.receive_json()["t"] for _ in range(3)] == ["welcome", "view", "presence"]
            # Lan is at the table: her seat is hers.
            lan_seat = f"/api/tables/{table}/seats/2/computer"
            assert client.post(lan_seat, json=body).status_code == 409
            # (Read while her page is open: a page closed before the server has told the
            # others it came may never be announced, as its hello is cut short.)
            assert host.receive_json() == {"t": "presence", "online": [0, 2], "reading": []}
        assert host.receive_json() == {"t": "presence", "online": [0], "reading": []}  # she left
        answer = client.post(url, json=body)
        assert answer.status_code == 200
        seats = host.receive_json()
        assert seats == {"t": "seats", "seats": answer.json()["seats"], "clock": None}
        assert seats["seats"][1] == {
            "kind": "computer",
            "level": "medium",
            "stand_in": True,
            "name": None,
        }
    assert client.post(url, json=body).status_code == 409  # a computer's seat now
    # Lan (not connected to it, over HTTP with her token) may let the computer play An's seat
    # now that An has left; a bad "by" or a forged token changes nothing.
    host_seat = f"/api/tables/{table}/seats/0/computer"
    lan_body = {"by": 2, "token": joined["token"]}  # (the level is the table's)
    for bad, status in (
        ({**lan_body, "by": "2"}, 400),
        ({**lan_body, "by": True}, 400),
        ({**lan_body, "token": "forged"}, 403),
        ({**lan_body, "by": 0}, 403),
    ):
        assert client.post(host_seat, json=bad).status_code == status, bad
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["kind"] == "human"
    answer = client.post(host_seat, json=lan_body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["seats"][0] == {
        "kind": "computer",
        "level": "medium",
        "stand_in": True,
        "name": None,
    }
    with client.websocket_connect(f"/ws/{table}/0") as host:  # An comes back: the seat is his
        host.send_json({"t": "hello", "token": info["token"]})
        assert host.receive_json()["seats"][0] == {
            "kind": "human",
            "level": None,
            "name": None,
            "joined": True,
        }


def test_a_friend_who_comes_back_takes_their_seat_back_from_the_computer(
    client: TestClient,
) -> None:
    """Lan leaves; the creator lets the computer play for her and it plays her turns; when
    Lan's page connects again the seat is hers: everybody is told, and she plays on."""
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    # A fixed deal (seed 5), so that nobody knocks before the hand has gone round twice.
    created, token = manager.create(
        variant="gin", opponents=1, level="easy", friends=1, name="An", seed=5
    )
    table, code = created.id, created.invites[1]
    manager.forget(table)
    joined = _join(client, table, {"code": code, "name": "Lan"}).json()
    with client.websocket_connect(f"/ws/{table}/0") as host:
        host.send_json({"t": "hello", "token": token})
        assert host.receive_json()["t"] == "welcome"
        assert host.receive_json()["t"] == "view"
        assert host.receive_json() == {"t": "presence", "online": [0], "reading": []}
        state = manager.get(table)
        assert state is not None
        # An plays until it is Lan's turn (An's first move if An is not first).
        while state.hand.to_act == 0:
            legal = [str(a) for a in state.hand.view(0).legal_actions]
            host.send_json({"t": "action", "action": greedy(legal), "seq": state.seq})
            assert host.receive_json()["t"] == "view"
        assert state.hand.to_act == 1
        seq_before = state.seq
        answer = client.post(f"/api/tables/{table}/seats/1/computer", json={"token": token})
        assert answer.status_code == 200
        assert host.receive_json()["seats"][1]["stand_in"] is True
        # The computer plays Lan's turn (and An is told of each of its moves), until An's turn.
        # Each of those moves is marked as the computer's, for the log line "Computer for Lan".
        view = host.receive_json()
        assert view["t"] == "view" and view["log"][0]["seat"] == 1
        assert view["log"][0]["stand_in"] is True
        while not view["view"]["hand"]["legal_actions"]:
            view = host.receive_json()
            assert view["t"] == "view" and view["log"][0]["seat"] == 1
            assert view["log"][0]["stand_in"] is True
        assert state.seq > seq_before and state.hand.to_act == 0
        by_computer = [i for i, (seat, _) in enumerate(state.hand.history) if seat == 1]
        # Lan comes back now: she gets the cards the computer kept for her.
        hand_before = sorted(state.hand.view(1).to_dict()["hand"])
        with client.websocket_connect(f"/ws/{table}/1") as lan:
            lan.send_json({"t": "hello", "token": joined["token"]})
            welcome = lan.receive_json()
            back = {"kind": "human", "level": None, "name": "Lan", "joined": True}
            assert welcome["t"] == "welcome" and welcome["seats"][1] == back
            first = lan.receive_json()
            assert sorted(first["view"]["hand"]["hand"]) == hand_before  # the computer's cards
            # Her page's log names the computer's moves as the computer's, An's as An's.
            marked = [i for i, e in enumerate(first["hand_log"]) if e.get("stand_in")]
            assert by_computer and marked == by_computer
            check_private(state.match, 1, {k: v for k, v in first.items() if k != "hand_log"})
            seats = {"t": "seats", "seats": welcome["seats"], "clock": None}  # no time limit
            assert host.receive_json() == seats
            assert host.receive_json() == {"t": "presence", "online": [0, 1], "reading": []}
            assert lan.receive_json() == {"t": "presence", "online": [0, 1], "reading": []}
            # An plays their turn; the computer no longer moves for her: the game waits for her.
            while state.hand.to_act == 0:
                legal = [str(a) for a in state.hand.view(0).legal_actions]
                host.send_json({"t": "action", "action": greedy(legal), "seq": state.seq})
                assert host.receive_json()["log"][0]["seat"] == 0
                mine = lan.receive_json()
                assert mine["log"][0]["seat"] == 0
            assert not state.hand.is_over  # (with this deal nobody has knocked yet)
            assert state.hand.to_act == 1 and state.computer_to_act() is None
            assert manager.get(table) is state and mine["view"]["hand"]["legal_actions"]
            action = greedy(mine["view"]["hand"]["legal_actions"])
            lan.send_json({"t": "action", "action": action, "seq": mine["seq"]})
            mine = lan.receive_json()
            assert mine["t"] == "view" and mine["log"][0]["seat"] == 1
            assert "stand_in" not in mine["log"][0]  # her own move
            assert host.receive_json()["log"][0]["seat"] == 1
        assert host.receive_json() == {"t": "presence", "online": [0], "reading": []}
    # The seat stays hers: stored as a person's, with her token.
    again = TableManager(manager.store).get(table)
    assert again is not None and again.seats[1].kind == "human"
    assert again.check_token(1, joined["token"])
    # Who made each move is stored too: rebuilt from the store, the log still says it.
    log = again.hand_log(1)
    assert [i for i, e in enumerate(log) if e.get("stand_in")] == by_computer


@pytest.mark.parametrize(("variant", "opponents"), [("gin", 1), ("rummy", 2), ("crazy", 2)])
def test_a_friend_who_comes_back_after_a_hand_ended_is_told_how_it_ended(
    store: Store, variant: str, opponents: int
) -> None:
    """Lan left during hand 1; the computer played it out for her and An dealt hand 2. The first
    view of her page when it connects again (the one with ``hand_log``) holds ``previous``: how
    hand 1 ended, as she would have seen it, and which of its moves the computer made for her
    (not those of a computer's own seat); never a card that was still hidden then, nor one of
    hand 2's."""
    table, _ = Table.create(
        store, variant=variant, opponents=opponents, level="easy", seed=5, friends=1
    )
    _, lan = table.join(table.invites[1], "Lan")
    assert "previous" not in table.view_message(1, with_hand_log=True)  # the first hand
    table.give_to_computer(1, connected=[0], after=0)
    while not table.hand.is_over:
        if table.computer_to_act() is not None:
            table.step_computer()
        else:
            legal = [str(a) for a in table.hand.view(0).legal_actions]
            table.act(0, greedy(legal), table.seq)
    # While hand 1's own score is up, it is what a page shows: nothing more is sent.
    assert "previous" not in table.view_message(0, with_hand_log=True)
    first = table.match.hands[0]
    assert first.result is not None
    by_computer = [i for i, (seat, _) in enumerate(first.history) if seat == 1]
    table.next_hand(0, table.seq)
    assert table.take_back(1) and table.check_token(1, lan)
    message = table.view_message(1, with_hand_log=True)
    previous = message["previous"]
    view = previous["view"]
    assert view["hand_number"] == 1 and message["view"]["hand_number"] == 2
    assert view["hand"]["seat"] == 1 and view["hand"]["phase"] == "hand_over"
    assert view["hand"]["result"] == first.result.to_dict()
    assert [seat for seat, _ in view["hand"]["history"]] == [seat for seat, _ in first.history]
    # The scores as they stood at its end (the same now: hand 2 is under way).
    assert view["scores"] == view["hand_scores"][0] == list(first.result.scores)
    assert view["scores"] == message["view"]["scores"]
    assert by_computer and previous["stand_in"] == by_computer
    # Hand 1's cards still hidden at its end (its stock) are not in it; the rest of the message
    # hides hand 2's cards as every view does.
    assert not _tokens(previous) & _hidden(first, 1)
    check_private(
        table.match, 1, {k: v for k, v in message.items() if k not in {"hand_log", "previous"}}
    )
    # An's page gets the same, as An saw hand 1 (An's own moves were An's).
    mine = table.view_message(0, with_hand_log=True)["previous"]
    assert mine["view"]["hand"]["seat"] == 0 and mine["stand_in"] == by_computer
    assert mine["view"]["hand"]["result"] == view["hand"]["result"]
    # Reviewing that hand: none of Lan's moves is hers to review, and the answer says why.
    lan_review = table.review(1, 1)
    assert lan_review["decisions"] == 0 and lan_review["stood_in"] == len(by_computer)
    assert table.review(0, 1)["stood_in"] == 0  # An made An's moves
    # Rebuilt from the store after a restart, it is the same.
    again = TableManager(store).get(table.id)
    assert again is not None
    assert again.view_message(1, with_hand_log=True)["previous"] == previous
    # Only the first view after a (re)connect carries it; the views after each move do not.
    assert "previous" not in table.view_message(1)


def test_people_at_one_table_say_phrases_to_each_other(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phrase goes to everyone connected (the speaker too), in no one's hand log; an unknown
    phrase, extra fields, a second phrase within SAY_INTERVAL, or a table with one person only
    get a clear error and nothing is sent to anyone."""
    # A minute between phrases instead of 2 s: "at once" below must hold even on a machine
    # that stalls for seconds between two messages.
    monkeypatch.setattr(hub_module, "SAY_INTERVAL", 60.0)
    info = client.post(
        "/api/tables", json={"game": "gin", "opponents": 1, "friends": 1, "name": "An"}
    ).json()
    joined = _join(client, info["table"], {"code": info["invites"][0]["code"]}).json()
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{info['table']}/0") as host:
        host.send_json({"t": "hello", "token": info["token"]})
        assert [host.receive_json()["t"] for _ in range(3)] == ["welcome", "view", "presence"]
        with client.websocket_connect(f"/ws/{info['table']}/1") as friend:
            friend.send_json({"t": "hello", "token": joined["token"]})
            assert [friend.receive_json()["t"] for _ in range(2)] == ["welcome", "view"]
            for ws in (host, friend):
                assert ws.receive_json() == {"t": "presence", "online": [0, 1], "reading": []}
            state = manager.get(info["table"])
            assert state is not None
            seq_before = state.seq
            for bad, code in (
                ({"t": "say", "phrase": "rude words"}, "bad_message"),
                ({"t": "say"}, "bad_message"),
                ({"t": "say", "phrase": "nice", "to": 1}, "bad_message"),
                ({"t": "say", "phrase": ["nice"]}, "bad_message"),
            ):
                friend.send_json(bad)
                answer = friend.receive_json()
                assert answer["t"] == "error" and answer["code"] == code, (bad, answer)
            friend.send_json({"t": "say", "phrase": "nice"})
            for ws in (host, friend):
                assert ws.receive_json() == {"t": "said", "seat": 1, "phrase": "nice"}
            friend.send_json({"t": "say", "phrase": "thanks"})  # at once: too fast
            answer = friend.receive_json()
            assert answer["code"] == "too_fast" and "60 seconds" in answer["message"]
            host.send_json({"t": "say", "phrase": "good_luck"})  # each seat has its own pace
            for ws in (host, friend):
                assert ws.receive_json() == {"t": "said", "seat": 0, "phrase": "good_luck"}
            # Nothing of it changed the game: the same view number, no move in the log.
            assert state.seq == seq_before
            friend.send_json({"t": "view"})
            view = friend.receive_json()
            assert view["t"] == "view" and view["seq"] == seq_before and view["log"] == []
    # Against the computer alone, or before an invited friend has come, there is nobody to
    # say it to.
    for body in ({"game": "gin", "opponents": 1}, {"game": "gin", "opponents": 1, "friends": 1}):
        solo = client.post("/api/tables", json=body).json()
        with client.websocket_connect(f"/ws/{solo['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": solo["token"]})
            assert ws.receive_json()["t"] == "welcome"
            ws.send_json({"t": "say", "phrase": "hello"})
            answer = ws.receive_json()
            while answer["t"] in ("view", "presence"):  # the opening, the computer's moves
                answer = ws.receive_json()
            assert answer["t"] == "error" and "nobody else" in answer["message"], body


def _gin_with_a_friend(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Gin table of An and a friend who took the seat: the table's answer and the friend's."""
    info: dict[str, Any] = client.post(
        "/api/tables", json={"game": "gin", "opponents": 1, "friends": 1, "name": "An"}
    ).json()
    joined: dict[str, Any] = _join(
        client, info["table"], {"code": info["invites"][0]["code"]}
    ).json()
    return info, joined


def _hello_types(ws: Any, token: str) -> list[str]:
    """Say hello on a seat's socket: the types of the three messages that answer."""
    ws.send_json({"t": "hello", "token": token})
    return [ws.receive_json()["t"] for _ in range(3)]


def test_the_others_hear_who_is_still_reading_the_score(client: TestClient) -> None:
    """``reading`` on and off reaches every connected seat as ``presence``'s ``reading`` (once a
    change, nothing for a repeat); a malformed one is refused; a page that closes stops reading;
    at a table with one person nothing is sent."""
    info, joined = _gin_with_a_friend(client)
    with client.websocket_connect(f"/ws/{info['table']}/0") as host:
        assert _hello_types(host, info["token"]) == ["welcome", "view", "presence"]
        with client.websocket_connect(f"/ws/{info['table']}/1") as friend:
            assert _hello_types(friend, joined["token"]) == ["welcome", "view", "presence"]
            assert host.receive_json()["online"] == [0, 1]
            friend.send_json({"t": "reading", "on": True})
            for ws in (host, friend):
                assert ws.receive_json() == {"t": "presence", "online": [0, 1], "reading": [1]}
            friend.send_json({"t": "reading", "on": True})  # no change: nothing sent
            for bad in ({"t": "reading"}, {"t": "reading", "on": "yes"}, {"t": "reading", "on": 1}):
                friend.send_json(bad)
                answer = friend.receive_json()
                assert answer["t"] == "error" and answer["code"] == "bad_message", answer
            friend.send_json({"t": "reading", "on": False})
            for ws in (host, friend):
                assert ws.receive_json() == {"t": "presence", "online": [0, 1], "reading": []}
            friend.send_json({"t": "reading", "on": True})
            for ws in (host, friend):
                assert ws.receive_json()["reading"] == [1]
        # The friend's page closed while reading: it reads no more.
        assert host.receive_json() == {"t": "presence", "online": [0], "reading": []}
    alone = client.post("/api/tables", json={"game": "gin", "opponents": 1}).json()
    with client.websocket_connect(f"/ws/{alone['table']}/0") as ws:
        ws.send_json({"t": "hello", "token": alone["token"]})
        assert [ws.receive_json()["t"] for _ in range(2)] == ["welcome", "view"]
        ws.send_json({"t": "reading", "on": True})
        ws.send_json({"t": "view"})  # the next message is the view: nothing came for reading
        assert ws.receive_json()["t"] == "view"


def test_a_page_toggling_reading_cannot_flood_the_table(client: TestClient) -> None:
    """200 changes of ``reading`` in a burst reach the others as a few ``presence`` messages
    (one at once, then one merged per PRESENCE_INTERVAL), the last with the final state."""
    from rummykit.server.hub import PRESENCE_INTERVAL

    info, joined = _gin_with_a_friend(client)
    with client.websocket_connect(f"/ws/{info['table']}/0") as host:
        assert _hello_types(host, info["token"]) == ["welcome", "view", "presence"]
        with client.websocket_connect(f"/ws/{info['table']}/1") as friend:
            _hello_types(friend, joined["token"])
            assert host.receive_json()["online"] == [0, 1]
            started = time.monotonic()
            for i in range(200):
                friend.send_json({"t": "reading", "on": i % 2 == 0})
            friend.send_json({"t": "reading", "on": True})
            # Events, not a fixed wait (the burst may take its time on a busy machine): the
            # friend's view is answered after every change before it is taken in; then the
            # merged presence still due, if any, takes the table's lock, which the host's view
            # waits for, so the host's view comes after the presence with the final state.
            friend.send_json({"t": "view"})
            while friend.receive_json()["t"] != "view":
                pass
            hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
            deadline = time.monotonic() + 60  # (only a hang takes that long)
            while info["table"] in hub.presence_due and time.monotonic() < deadline:
                time.sleep(0.01)
            assert info["table"] not in hub.presence_due
            host.send_json({"t": "view"})
            presences = []
            answer = host.receive_json()
            while answer["t"] != "view":
                assert answer["t"] == "presence", answer
                presences.append(answer)
                answer = host.receive_json()
            elapsed = time.monotonic() - started
            assert presences and presences[-1] == {
                "t": "presence",
                "online": [0, 1],
                "reading": [1],
            }
            assert len(presences) <= 2 + elapsed / PRESENCE_INTERVAL, len(presences)


def test_a_seat_is_given_to_the_computer_only_at_the_tables_level_and_after_a_wait(
    store: Store,
) -> None:
    """A person who left a moment ago (a phone that locked its screen) keeps their seat for
    ``after`` seconds; one whose turn's time ran out may be played for at once; and the
    computer that plays for them is the table's own, never a weaker one."""
    table, _ = Table.create(
        store, variant="rummy", opponents=3, level="hard", friends=2, seed=4, turn_time=30
    )
    for seat in (1, 2):
        table.join(table.invites[seat], f"P{seat}")
    now = [1000.0]
    table.clock = lambda: now[0]
    table.known_since = now[0]
    assert table.computer_level() == "hard"
    table.came(1)
    now[0] += 100
    table.left(1)  # P1's page closes
    now[0] += 10
    with pytest.raises(ProtocolError, match=r"left 10 s ago: .* once they have been gone 30 s"):
        table.give_to_computer(1, connected=[0], after=30)
    for weaker in ("easy", "random", "medium"):
        with pytest.raises(ValueError, match="this table's level, hard"):
            table.give_to_computer(1, weaker, connected=[0], after=30)
    assert table.seats[1].kind == "human"
    now[0] += 20
    table.give_to_computer(1, "hard", connected=[0], after=30)
    assert table.seats[1].public()["level"] == "hard" and table.seats[1].stand_in
    # P2 never opened a page since this copy of the table was made: gone since then.
    table.give_to_computer(2, connected=[0], after=30)
    assert table.seats[2].stand_in


def test_a_person_whose_time_ran_out_may_be_played_for_at_once(store: Store) -> None:
    table, _ = Table.create(
        store, variant="gin", opponents=1, level="easy", friends=1, seed=5, turn_time=30
    )
    table.join(table.invites[1], "Lan")
    now = [1000.0]
    table.clock = lambda: now[0]
    table.known_since = now[0]
    while table.hand.to_act != 1:
        legal = [str(a) for a in table.hand.view(0).legal_actions]
        table.act(0, greedy(legal), table.seq)
    assert table.computer_level() == "medium"  # (no computer at the table: medium)
    table.left(1)
    with pytest.raises(ProtocolError, match="left 0 s ago"):
        table.give_to_computer(1, connected=[0], after=30)
    deadline = table.turn_deadline()
    assert deadline is not None
    now[0] += deadline[1]
    assert table.expire(deadline[0]) == 1  # her time ran out
    table.give_to_computer(1, connected=[0], after=30)
    assert table.seats[1].stand_in and table.seats[1].level == "medium"


def test_over_http_a_seat_just_left_is_kept_for_its_person(tmp_path: Path) -> None:
    """With the server's default wait, a friend who just closed the page keeps the seat: the
    answer says how long they have been gone and how long the wait is."""
    with TestClient(create_app(tmp_path / "wait.sqlite3", delay=30)) as client:
        info = client.post(
            "/api/tables", json={"game": "rummy", "opponents": 1, "friends": 1}
        ).json()
        table = info["table"]
        joined = _join(client, table, {"code": info["invites"][0]["code"], "name": "Lan"})
        with client.websocket_connect(f"/ws/{table}/0") as host:
            host.send_json({"t": "hello", "token": info["token"]})
            assert [host.receive_json()["t"] for _ in range(3)] == ["welcome", "view", "presence"]
            with client.websocket_connect(f"/ws/{table}/1") as lan:
                lan.send_json({"t": "hello", "token": joined.json()["token"]})
                assert [lan.receive_json()["t"] for _ in range(2)] == ["welcome", "view"]
                assert host.receive_json()["online"] == [0, 1]
            assert host.receive_json()["online"] == [0]  # she left
            answer = client.post(
                f"/api/tables/{table}/seats/1/computer", json={"token": info["token"]}
            )
            assert answer.status_code == 409
            assert "once they have been gone 30 s" in answer.json()["error"]
            assert client.get(f"/api/tables/{table}").json()["seats"][1]["kind"] == "human"


def _finish(table: Table) -> None:
    """Play the table's match to its end on the engine: a knock when there is one, else a move
    drawn from a seeded generator."""
    match = table.match
    rng = random.Random(1)
    for _ in range(5_000):
        if match.is_over:
            return
        if match.hand.is_over:
            match.next_hand()
            continue
        legal = match.hand.legal_actions()
        knocks = [a for a in legal if str(a).startswith("knock")]
        match.apply(knocks[0] if knocks else rng.choice(legal))
    raise AssertionError("the match did not end")


def test_a_match_against_the_computer_tells_its_deal_number_once_over(store: Store) -> None:
    """A table against the computer deals a match that is a deal number (``?deal=N``), and its
    view tells it once the match is over, not before (the seed is every hidden card); a table
    with a friend never does, and its seed is no deal number; a rematch is a new deal."""
    table, _ = Table.create(
        store, variant="gin", opponents=1, level="random", options={"target_score": 1}
    )
    first, last = DEAL_RANGE
    assert table.match.seed is not None and first <= table.match.seed <= last
    assert table.deal_number() is None and "deal" not in table.view_message(0)
    _finish(table)
    assert table.deal_number() == table.match.seed == table.view_message(0)["deal_number"]
    again, _ = Table.create(
        store, variant="gin", opponents=1, level="random", deal=table.match.seed
    )
    dealt = cast(Any, table.match.hands[0]).deal.hands[0]
    assert sorted(cast(Any, again.hand).hands[0]) == sorted(dealt)  # (the same cards)
    friends, _ = Table.create(
        store, variant="gin", opponents=1, level="random", friends=1, options={"target_score": 1}
    )
    _finish(friends)
    assert friends.deal_number() is None and "deal_number" not in friends.view_message(0)
    seeds = [
        Table.create(store, variant="rummy", opponents=2, level="random")[0].match.seed
        for _ in range(5)
    ]
    assert all(seed is not None and first <= seed <= last for seed in seeds)
    assert len(set(seeds)) == 5
