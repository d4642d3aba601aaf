"""The server: tables, the SQLite store, the WebSocket protocol, hidden information and restarts.

Complete matches of every game are played through :class:`Table` (synchronously, with the true
state at hand) and every message sent to a person is checked: it never names a card hidden from
that seat (another hand's cards, the stock, the knocker's face-down discard). Then the same over a
real WebSocket (Starlette's test client), the refusals (malformed, out of turn, replayed, forged),
and a real ``rummykit serve`` killed with SIGKILL mid-game and started again.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import sqlite3
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from live_server import LiveServer

from rummykit.actions import Down, Knock, LayOff, parse_action
from rummykit.aids import aids
from rummykit.cards import Card, parse_card
from rummykit.games import GAMES, find_game
from rummykit.games.base import HandState
from rummykit.games.crazy import Crazy, CrazyView
from rummykit.games.gin import GinState
from rummykit.games.match import Match
from rummykit.players import PLAYERS, REGISTRY, RandomPlayer
from rummykit.server.app import create_app
from rummykit.server.catalogue import SERVER_CAPS, check_server_caps, game_catalogue
from rummykit.server.store import Store
from rummykit.server.tables import Table, TableManager
from rummykit.solver.contract import Contract, contract_distance, solve_contract

pytestmark = pytest.mark.server

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS]|X)(?![A-Za-z0-9])")


@pytest.fixture(autouse=True)
def crazy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Crazy Rummy is played here even before the registry lists it (then with random players)."""
    if "crazy" not in GAMES:
        monkeypatch.setitem(GAMES, "crazy", Crazy.from_options)


# ------------------------------------------------------------------------------- hidden cards


def _tokens(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def _public(hand: HandState, viewer: int) -> set[str]:
    """Every card that has been face up on the table in this hand (as ``viewer`` saw it)."""
    seen = {str(hand.deal.up)}
    for seat, action in hand.history:
        if isinstance(action, Knock) and seat != viewer:
            continue  # the knocker's discard is face down
        seen |= _tokens(str(action))
    for table_meld in getattr(hand, "table", []):
        seen |= _tokens(str(table_meld))
        seen |= {str(c) for c in getattr(table_meld.meld, "stands_for", ())}  # what wilds stand for
    if isinstance(hand, GinState) and hand.knock_arrangement is not None:
        arrangement = hand.knock_arrangement
        seen |= {str(c) for m in arrangement.melds for c in m.cards}
        seen |= {str(c) for c in arrangement.unmatched}
    return seen


def _hidden(hand: HandState, viewer: int) -> set[str]:
    """Cards ``viewer`` must not see now: other hands and the stock, less what was public.

    With two packs a card name is hidden only while no copy of it is visible to the seat.
    """
    state: Any = hand
    cards: set[str] = {str(c) for c in state.stock}
    for seat, held in enumerate(state.hands):
        if seat != viewer:
            if hand.is_over:  # the score screen shows every hand
                cards -= {str(c) for c in held}
            else:
                cards |= {str(c) for c in held}
    public = _public(hand, viewer)
    cards -= public
    cards -= {str(c) for c in state.hands[viewer]}
    # The knocker's discard is face down, unless the card was public before (the viewer threw
    # it and saw it taken: a friends' table under random requests met that).
    if isinstance(hand, GinState) and hand.knock_card is not None and hand.knocker != viewer:
        cards |= {str(hand.knock_card)} - public
    return cards


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def check_private(match: Match, seat: int, message: dict[str, Any]) -> None:
    """``message`` (sent to ``seat`` now) names no hidden card and carries no state."""
    # The ``ends`` aid names the places just beyond a table run (what a wild laid there would
    # stand for), from the public run alone: places, not cards anybody holds.
    ends = message.get("aids", {}).get("ends", {})
    shown = {**message, "aids": {k: v for k, v in message.get("aids", {}).items() if k != "ends"}}
    leaked = (_tokens(shown) | _tokens(list(ends))) & _hidden(match.hand, seat)
    assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)}: {message}"
    assert set(message) <= {
        "t",
        "seq",
        "view",
        "aids",
        "log",
        "gained",
        "undo",
        "undone",
        "clock",
        "away",
        "deal_number",
    }
    assert not {"stock", "deal"} & set(_keys(message))
    # A match's deal number is every hidden card: told only once the match is over.
    assert "deal_number" not in message or message["view"]["over"]
    assert message["view"]["hand"]["seat"] == seat


# ------------------------------------------------------------------------------ a simple player

VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, "X": 25, "2": 20}


def _value(card: str) -> int:
    rank = card[0]
    return VALUES.get(rank, 0) if not rank.isdigit() or rank == "2" else int(rank)


def greedy(legal: list[str]) -> str:
    """A quick player for tests: knock, lay down, meld, lay off; else throw the highest card."""
    for verb in ("knock", "biggin", "down", "meld", "layoff", "done", "draw", "pass"):
        for action in legal:
            if action.split()[0] == verb:
                return action
    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        return max(discards, key=lambda a: (_value(a.split()[1]), a))
    return legal[0]


def play_table(table: Table, limit: int = 20_000) -> int:
    """Play the table's match to its end (seat 0 greedy), checking every message sent to seat 0."""
    for sent in range(limit):
        if table.finished:
            return sent
        if table.hand.is_over:
            messages = table.next_hand(0, table.seq)
        elif table.computer_to_act() is not None:
            messages = table.step_computer()
        else:
            legal = [str(a) for a in table.hand.view(0).legal_actions]
            messages = table.act(0, greedy(legal), table.seq)
        assert set(messages) == {0}
        check_private(table.match, 0, messages[0])
        assert messages[0]["seq"] == table.seq
    raise AssertionError("the match did not end")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "tables.sqlite3")
    yield s
    s.close()


@pytest.mark.parametrize(
    ("variant", "opponents", "options"),
    [
        ("gin", 1, {"target_score": 30}),
        ("rummy", 1, {"hands": 2}),
        ("rummy-classic", 3, {"hands": 1}),
        ("crazy", 2, {}),
    ],
)
def test_complete_matches_never_show_hidden_cards(
    store: Store, variant: str, opponents: int, options: dict[str, Any]
) -> None:
    table, token = Table.create(
        store, variant=variant, opponents=opponents, level="random", options=options, seed=11
    )
    assert table.check_token(0, token) and not table.check_token(0, token + "x")
    assert not table.check_token(1, token)
    sent = play_table(table)
    assert sent > 10
    assert table.match.result is not None
    # The stored record replays to the same match.
    stored = store.load(table.id)
    assert stored is not None and stored.finished
    again = Table.restore(stored, store)
    assert again.seq == table.seq
    assert again.match.scores() == table.match.scores()
    assert again.view_message(0) == table.view_message(0)


def _play_steps(table: Table, steps: int) -> None:
    """``steps`` moves: the computer's, or the person's at seat 0 (greedy)."""
    for _ in range(steps):
        if table.computer_to_act() is not None:
            table.step_computer()
        else:
            table.act(0, greedy([str(a) for a in table.hand.view(0).legal_actions]), table.seq)


def test_an_unfinished_table_is_restored_exactly(store: Store) -> None:
    table, _ = Table.create(store, variant="gin", opponents=1, level="random", seed=5)
    _play_steps(table, 25)
    again = TableManager(store).get(table.id)  # replayed from the store
    assert again is not None and again is not table
    assert again.view_message(0) == table.view_message(0)
    assert again.view_message(1) == table.view_message(1)


def test_a_database_from_before_the_stand_in_column_opens_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    store = Store(path)
    table, token = Table.create(store, variant="gin", opponents=1, level="random", seed=5)
    _play_steps(table, 6)
    store.close()
    # Rewrite the actions table as the older schema had it (no stand_in column).
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE old AS SELECT table_id, hand, number, seat, action FROM actions;
        DROP TABLE actions;
        CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), hand INTEGER NOT NULL,
            number INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
            PRIMARY KEY (table_id, hand, number));
        INSERT INTO actions SELECT * FROM old;
        DROP TABLE old;
        """
    )
    db.close()
    store = Store(path)
    try:
        again = TableManager(store).get(table.id)
        assert again is not None and again.view_message(0) == table.view_message(0)
        assert not again.stand_in_moves and again.check_token(0, token)
        _play_steps(again, 4)  # new moves go into the new column
        stored = store.load(table.id)
        assert stored is not None and len(stored.record["hands"][0]["actions"]) == 10
    finally:
        store.close()


def test_gin_aids_come_from_the_seats_own_hand(store: Store) -> None:
    table, _ = Table.create(store, variant="gin", opponents=1, level="random", seed=3)
    while table.hand.to_act != 0 or table.hand.phase.value != "discard":
        if table.computer_to_act() is not None:
            table.step_computer()
        else:
            legal = [str(a) for a in table.hand.view(0).legal_actions]
            table.act(0, "draw" if "draw" in legal else "pass", table.seq)
    aids = table.view_message(0)["aids"]
    hand = table.hand.view(0).to_dict()["hand"]
    assert set(aids["discard_deadwood"]) == set(hand)
    assert aids["deadwood"] == min(aids["discard_deadwood"].values())
    assert {c for m in aids["melds"] for c in m} <= set(hand)


@pytest.mark.parametrize(
    ("cards", "made"),
    [
        ("7H 7D 7S", {"books": 1, "runs": 0}),
        ("4H 5H 6H 7H", {"books": 0, "runs": 1}),
        ("4H 5H 2C 7H 9S", {"books": 0, "runs": 1}),  # a wild 2 fills the run
        ("4H 5H 9S KD QC", {"books": 0, "runs": 0}),
    ],
)
def test_what_cards_make_of_a_contract_they_do_not_make(cards: str, made: dict[str, int]) -> None:
    """Round 2's contract, a book and a run: what a selection makes of it, for the page."""
    from rummykit.aids import contract_made_of

    parsed = [parse_card(c) for c in cards.split()]
    assert contract_made_of(parsed, Contract(1, 1), Crazy().options.rules) == made


def _made_of_cards(cards: list[str]) -> dict[str, int]:
    """Round 1's contract is 2 books: the cards make one if they are a book, else none."""
    parsed = [parse_card(c) for c in cards]
    one = solve_contract(parsed, Contract(1, 0)) is not None
    return {"books": int(one), "runs": 0}


def test_crazy_check_down_answers_from_the_selection(store: Store) -> None:
    table, _ = Table.create(store, variant="crazy", opponents=2, level="random", seed=2)
    options = Crazy().options
    for _ in range(3000):
        view = table.hand.view(0)
        assert isinstance(view, CrazyView)
        if not view.laid_down[0] and not table.hand.is_over:  # the count the page shows
            lacking = contract_distance(view.hand, view.contract, options.rules)
            assert table.view_message(0)["aids"]["short"] == lacking
        downs = [str(a) for a in view.legal_actions if str(a).startswith("down ")]
        if downs:
            break
        if table.hand.is_over:
            table.next_hand(0, table.seq)
        elif table.computer_to_act() is not None:
            table.step_computer()
        else:
            legal = [str(a) for a in view.legal_actions]
            choice = "buy" if "buy" in legal else greedy(legal)
            table.act(0, choice, table.seq)
    else:
        pytest.fail("never able to lay down")
    down = parse_action(downs[0])
    assert isinstance(down, Down)
    chosen = [str(c) for meld in down.melds for c in meld]
    answer = table.check_down(0, chosen)
    assert answer["down"] is not None and answer["reason"] == ""
    assert answer["seq"] == table.seq  # the view it was checked on
    assert table.hand.can(parse_action(answer["down"]), 0)
    assert table.check_down(0, ["KS", "KS", "KS", "KS", "KS"])["down"] is None
    # Cards that do not make the contract: what they make instead, for the page to say why.
    hand = [str(c) for c in table.hand.view(0).hand]  # type: ignore[attr-defined]
    for extra in set(hand) - set(chosen):
        answer = table.check_down(0, [*chosen, extra])
        if answer["down"] is None:  # the extra card fits none of the melds
            assert answer["reason"] == "no_contract" and answer["spare"] == 1
    assert table.hand.view(0).contract == Contract(2, 0)  # type: ignore[attr-defined]
    assert table.view_message(0)["aids"]["contract"] == {"books": 2, "runs": 0, "cards": 6}
    books = [c for c in chosen if not c.startswith("2") and c != "X"]
    answer = table.check_down(0, books[:3])
    assert answer["reason"] == "no_contract" and answer["made"] == _made_of_cards(books[:3])
    # How many cards the hand lacks for the contract: none now; no count once it is laid down.
    assert table.view_message(0)["aids"]["short"] == 0
    table.act(0, downs[0], table.seq)
    assert "short" not in table.view_message(0)["aids"]
    # the aids mark the wilds of the seat's own hand: its 2s and jokers, nothing else
    message = table.view_message(0)
    hand = message["view"]["hand"]["hand"]
    assert message["aids"]["wilds"] == sorted({c for c in hand if c == "X" or c.startswith("2")})
    for meld in message["view"]["hand"]["table"]:
        cards = meld["meld"].split()
        assert len(meld["wild"]) == len(cards)
        if meld["kind"] == "book":
            assert meld["wild"] == [c == "X" or c.startswith("2") for c in cards]


def test_game_catalogue_lists_levels_and_options() -> None:
    games = {g.key: g for g in game_catalogue()}
    assert {"gin", "rummy"} <= set(games)
    assert games["gin"].min_players == games["gin"].max_players == 2
    assert games["rummy"].presets == ("rummy", "rummy-classic")
    assert "random" in games["gin"].levels
    assert games["gin"].options["target_score"] == 100


def test_the_catalogue_specs_are_the_options_checks() -> None:
    """The start screen's house rules come from each game's option specs: one per option, in
    order, and a value in range is accepted by the game while one just outside is refused."""
    for info in game_catalogue():
        variant = info.presets[0] if info.presets else info.key
        defaults = find_game(variant).options.to_dict()
        assert [spec["name"] for spec in info.specs] == list(defaults)
        for preset in info.presets:
            assert info.preset_options[preset] == find_game(preset).options.to_dict()
        for spec in info.specs:
            name = spec["name"]
            if spec["kind"] == "int":
                for ok in (spec["low"], spec["high"]):
                    assert find_game(variant, {name: ok}).options.to_dict()[name] == ok
                with pytest.raises(ValueError, match=f"option {name} must be"):
                    find_game(variant, {name: spec["low"] - 1})
                if name in SERVER_CAPS:  # (the engine allows more; a table on the server not)
                    with pytest.raises(ValueError, match=f"{name} is at most {spec['high']}"):
                        check_server_caps({name: spec["high"] + 1})
                else:
                    with pytest.raises(ValueError, match=f"option {name} must be"):
                        find_game(variant, {name: spec["high"] + 1})
            elif spec["kind"] == "choice":
                for choice in spec["choices"]:
                    assert find_game(variant, {name: choice}).options.to_dict()[name] == choice
                with pytest.raises(ValueError, match=f"option {name} must be"):
                    find_game(variant, {name: "nonsense"})
            else:
                flipped = not defaults[name]
                assert find_game(variant, {name: flipped}).options.to_dict()[name] is flipped
                with pytest.raises(ValueError, match=f"option {name} must be true or false"):
                    find_game(variant, {name: "yes"})


# ---------------------------------------------------------------------------------- WebSocket


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "web.sqlite3", delay=0)) as c:
        yield c


def _new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"level": "random", **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def _replayed_states(record: dict[str, Any]) -> Iterator[Match]:
    """The match after each change (seq 0, 1, 2...), replaying a stored record step by step."""
    game = find_game(record["game"], record["options"])
    match: Match | None = None
    for index, hand in enumerate(record["hands"]):
        if match is None:
            match = game.new_match(
                players=len(record["players"]),
                seed=record["seed"],
                dealer=hand["dealer"],
                first_seed=hand["seed"],
            )
        else:
            match.next_hand(seed=hand["seed"])
        yield match
        for seat, text in hand["actions"]:
            match.apply(parse_action(text), seat)
            yield match
        assert index < len(record["hands"])


@pytest.fixture
def client_on_each_store(store_address: str) -> Iterator[TestClient]:
    """A client of an app on a SQLite file, then of one on a PostgreSQL database."""
    with TestClient(create_app(store_address, delay=0)) as c:
        yield c


def test_a_gin_hand_over_the_socket_shows_only_the_seats_view(
    client_on_each_store: TestClient,
) -> None:
    client = client_on_each_store
    info = _new_table(client, game="gin", opponents=1, options={"target_score": 10})
    views: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        ws.send_json({"t": "hello", "token": info["token"]})
        welcome = ws.receive_json()
        assert welcome["t"] == "welcome" and welcome["game"] == "gin" and welcome["seat"] == 0
        assert welcome["seats"] == [
            {"kind": "human", "level": None, "name": None, "joined": True},
            {"kind": "computer", "level": "random"},
        ]
        for _ in range(2000):
            message = ws.receive_json()
            assert message["t"] == "view", message
            views.append(message)
            hand = message["view"]["hand"]
            if hand["phase"] == "hand_over":
                break
            if hand["legal_actions"]:
                action = greedy(hand["legal_actions"])
                ws.send_json({"t": "action", "action": action, "seq": message["seq"]})
        else:
            pytest.fail("the hand did not end")
    seqs = [v["seq"] for v in views]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    stored = manager.store.load(info["table"])
    assert stored is not None
    by_seq = {}
    for seq, match in enumerate(_replayed_states(stored.record)):
        if seq in seqs:
            by_seq[seq] = (_hidden(match.hand, 0), match.hand.view(0).to_dict())
    for message in views:
        hidden, view = by_seq[message["seq"]]
        assert not _tokens(message) & hidden
        assert message["view"]["hand"] == view


def _connect(client: TestClient, info: dict[str, Any]) -> Any:
    ws = client.websocket_connect(f"/ws/{info['table']}/0")
    return ws


def test_refused_messages_change_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "r.sqlite3", delay=30)) as client:
        info = _new_table(client, game="gin", opponents=1)
        manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
        table = manager.get(info["table"])
        assert table is not None
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            first = ws.receive_json()
            seq = first["seq"]
            assert first["view"]["hand"]["to_act"] == 1  # the computer is offered the up-card

            def refused(message: Any, code: str) -> None:
                before = (table.seq, len(table.hand.history))
                ws.send_text(message if isinstance(message, str) else json.dumps(message))
                answer = ws.receive_json()
                assert answer["t"] == "error" and answer["code"] == code, answer
                assert (table.seq, len(table.hand.history)) == before

            refused("{not json", "bad_message")
            refused({"t": "teleport"}, "bad_message")
            refused({"t": "action", "action": "pass", "seq": seq}, "not_your_turn")
            refused({"t": "action", "action": "fly away", "seq": seq}, "not_your_turn")
            refused({"t": "action", "action": "pass", "seq": seq + 5}, "stale")
            refused({"t": "hello", "token": info["token"]}, "bad_message")
            refused({"t": "next_hand", "seq": seq}, "illegal")
            refused({"t": "check_down", "cards": ["7H"]}, "bad_message")
            refused({"t": "hint"}, "not_your_turn")
            # let the computer act, then replay an old message and try illegal and malformed moves
            while table.hand.to_act == 1:
                table.step_computer()
            ws.send_json({"t": "view"})
            current = ws.receive_json()
            now = current["seq"]
            assert now > seq and current["view"]["hand"]["to_act"] == 0
            refused({"t": "action", "action": "pass", "seq": seq}, "stale")
            refused({"t": "action", "action": "discard 2Q", "seq": now}, "bad_message")
            refused({"t": "action", "action": "knock AS", "seq": now}, "illegal")
            refused({"t": "action", "action": "buy", "seq": now}, "illegal")
            legal = current["view"]["hand"]["legal_actions"]
            ws.send_json({"t": "action", "action": legal[0], "seq": now})
            accepted = ws.receive_json()
            assert accepted["t"] == "view" and accepted["seq"] == now + 1
            assert accepted["log"][0]["seat"] == 0
            refused({"t": "action", "action": legal[0], "seq": now}, "stale")
            ws.send_json({"t": "hint"})
            hint = ws.receive_json()
            assert hint["t"] in ("hint", "error")


def test_forged_sockets_are_refused(client: TestClient) -> None:
    info = _new_table(client, game="gin", opponents=1)
    other = _new_table(client, game="gin", opponents=1)
    for path, token in [
        (f"/ws/{info['table']}/0", other["token"]),
        (f"/ws/{info['table']}/1", info["token"]),
        (f"/ws/{info['table']}/7", info["token"]),
        ("/ws/nosuchtable/0", info["token"]),
    ]:
        with client.websocket_connect(path) as ws:
            ws.send_json({"t": "hello", "token": token})
            answer = ws.receive_json()
            assert answer["t"] == "error" and answer["code"] in ("auth", "unknown_table")
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        ws.send_json({"t": "view"})
        assert ws.receive_json()["code"] == "auth"


def test_http_api(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["key"] for g in games][:2] == ["gin", "rummy"]
    bad = [
        {},
        {"game": "chess", "opponents": 1},
        {"game": "gin", "opponents": 3},
        {"game": "gin", "opponents": 1, "level": "grandmaster"},
        {"game": "gin", "opponents": 1, "options": {"knock_limit": "ten"}},
        {"game": "gin", "opponents": True},
    ]
    for body in bad:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400 and response.json()["error"], body
    json_type = {"Content-Type": "application/json"}
    assert client.post("/api/tables", content=b"[", headers=json_type).status_code == 400
    info = _new_table(client, game="rummy-classic", opponents=3)
    summary = client.get(f"/api/tables/{info['table']}").json()
    assert summary["game"] == "rummy" and summary["variant"] == "rummy-classic"
    assert not summary["over"] and summary["hand_number"] == 1
    assert "token" not in json.dumps(summary)
    assert client.get("/api/tables/unknown").status_code == 404
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/i18n/vi.json").json()["action.knock"] == "Gõ"


def _first_hand(client: TestClient, info: dict[str, Any]) -> list[str]:
    """Seat 0's cards in the first view of the table ``info`` names."""
    with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
        ws.send_json({"t": "hello", "token": info["token"]})
        assert ws.receive_json()["t"] == "welcome"
        view = ws.receive_json()
        assert view["t"] == "view"
        cards: list[str] = view["view"]["hand"]["hand"]
        return cards


def test_a_deal_number_deals_the_same_cards_against_the_computer_only(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "deal.sqlite3", delay=30)) as client:
        hands = [
            _first_hand(client, _new_table(client, game=game, opponents=1, deal=deal))
            for game, deal in [("gin", 42), ("gin", 42), ("gin", 43)]
        ]
        assert hands[0] == hands[1] != hands[2] and len(hands[0]) == 10
        # Refused, nothing made: a deal out of range or not a whole number, or with friends.
        before = len(client.app.state.manager.store.table_ids(unfinished_only=False))  # type: ignore[attr-defined]
        for deal in [0, -1, 1_000_000_000, "42", 4.2, True, None]:
            body = {"game": "gin", "opponents": 1, "level": "random", "deal": deal}
            response = client.post("/api/tables", json=body)
            assert response.status_code == (201 if deal is None else 400), deal
            if deal is not None:
                assert "deal" in response.json()["error"]
        friendly = {"game": "gin", "opponents": 1, "friends": 1, "deal": 42}
        response = client.post("/api/tables", json=friendly)
        assert response.status_code == 400 and "computer" in response.json()["error"]
        after = len(client.app.state.manager.store.table_ids(unfinished_only=False))  # type: ignore[attr-defined]
        assert after == before + 1  # (the one without a deal)


# ------------------------------------------------------------------------ SIGKILL and restart


def _new_gin_table(port: int) -> dict[str, Any]:
    """A Gin table against a random computer on the server at ``port``: seat 0's details."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps({"game": "gin", "opponents": 1, "level": "random"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        info: dict[str, Any] = json.loads(response.read())
    return info


def _receive_view(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["t"] == "view":
            return message


def test_a_server_killed_mid_game_resumes_exactly(tmp_path: Path, store_address: str) -> None:
    """SIGKILL, then a new server on the same port and database (a SQLite file, then a
    PostgreSQL database): the table is exactly where the last acknowledged move left it."""
    from websockets.sync.client import connect

    db: Path | str = Path(store_address) if store_address.endswith(".sqlite3") else store_address
    server = LiveServer(db, delay=0, log=tmp_path / "kill.log")
    server.start()
    try:
        info = _new_gin_table(server.port)
        url = f"ws://127.0.0.1:{server.port}/ws/{info['table']}/0"
        acted = 0
        with connect(url) as ws:
            ws.send(json.dumps({"t": "hello", "token": info["token"]}))
            last = _receive_view(ws)
            while acted < 12:
                hand = last["view"]["hand"]
                if hand["phase"] == "hand_over":
                    ws.send(json.dumps({"t": "next_hand", "seq": last["seq"]}))
                elif hand["legal_actions"]:
                    action = greedy(hand["legal_actions"])
                    ws.send(json.dumps({"t": "action", "action": action, "seq": last["seq"]}))
                    acted += 1
                last = _receive_view(ws)
                while last["view"]["hand"]["to_act"] == 1:
                    last = _receive_view(ws)  # the computer's moves follow at once
        server.restart(kill=True)  # SIGKILL, then a new server on the same port
        with connect(url) as ws:
            ws.send(json.dumps({"t": "hello", "token": info["token"]}))
            again = _receive_view(ws)
        assert again["seq"] == last["seq"]
        assert again["view"] == last["view"]
        assert again["aids"] == last["aids"]
    finally:
        server.stop()
    if isinstance(db, Path):
        assert db.exists()


def test_cards_regex_finds_card_tokens() -> None:
    assert _tokens({"a": ["7H", "TC"], "b": "discard X", "c": "layoff 8D 2 high"}) == {
        "7H",
        "TC",
        "X",
        "8D",
    }
    assert Card.parse("TC").text == "TC"


class _WaitingPlayer:
    """A computer player that thinks until the test lets it go (a stand-in for a slow level)."""

    started = threading.Event()
    release = threading.Event()
    done = threading.Event()

    def __init__(self, seed: int | None = None, *, options: Any = None) -> None:
        self.name = "waiting"
        self.inner = RandomPlayer(seed)

    def choose(self, view: Any) -> Any:
        _WaitingPlayer.started.set()
        _WaitingPlayer.release.wait(10)
        _WaitingPlayer.done.set()
        return self.inner.choose(view)

    def suggest(self, view: Any) -> Any:
        return self.inner.suggest(view)


def test_the_computer_pauses_after_a_persons_move_however_quick_their_turn(
    tmp_path: Path,
) -> None:
    """Each computer move comes a full pause after the move before it, a person's included,
    however soon that person moved after the computer (a runner that slept on after handing the
    turn over once answered a person who took half the pause at once, half a pause early)."""
    delay = 0.4
    gaps: list[float] = []
    with TestClient(create_app(tmp_path / "pause.sqlite3", delay=delay)) as client:
        info = _new_table(client, game="gin", opponents=1, level="random")
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            message = ws.receive_json()
            while len(gaps) < 5:
                hand = message["view"]["hand"]
                if hand["phase"] == "hand_over":
                    ws.send_json({"t": "next_hand", "seq": message["seq"]})
                elif hand["legal_actions"]:
                    legal = hand["legal_actions"]
                    if "draw" in legal or "pass" in legal:
                        time.sleep(delay / 2)  # half the pause to think, then the turn at once
                    ws.send_json({"t": "action", "action": greedy(legal), "seq": message["seq"]})
                    message = ws.receive_json()  # this move, acknowledged
                    after = message["view"]["hand"]
                    if after["phase"] != "hand_over" and not after["legal_actions"]:
                        handed_over = time.monotonic()  # the turn is the computer's now
                        message = ws.receive_json()  # its first move
                        gaps.append(time.monotonic() - handed_over)
                    continue
                message = ws.receive_json()
    # (a timer never fires early; a busy machine only makes the gaps longer)
    assert min(gaps) > 0.8 * delay, gaps


def test_a_socket_closed_during_its_hello_is_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket whose handler ends while the opening view is being built (the page closed,
    and the server cancelled the handler) is forgotten, not left registered at its table."""
    building = threading.Event()
    release = threading.Event()
    real_view = Table.view_message

    def view_message(self: Table, seat: int, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if kwargs.get("with_hand_log"):  # the opening view of a hello
            building.set()
            release.wait(10)
        return real_view(self, seat, *args, **kwargs)

    monkeypatch.setattr(Table, "view_message", view_message)
    with TestClient(create_app(tmp_path / "closed.sqlite3", delay=0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        info = _new_table(client, game="gin", opponents=1, level="random")
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            assert building.wait(10)
        release.set()  # (the page is gone; its handler was cancelled while it waited)
        deadline = time.monotonic() + 10
        while any(hub.sockets.get(info["table"], {}).values()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(hub.sockets.get(info["table"], {}).values())


def test_a_thinking_computer_does_not_hold_up_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(REGISTRY["gin"], "waiting", _WaitingPlayer)
    monkeypatch.setitem(PLAYERS, "gin", (*PLAYERS["gin"], "waiting"))
    _WaitingPlayer.started.clear()
    _WaitingPlayer.release.clear()
    _WaitingPlayer.done.clear()
    with TestClient(create_app(tmp_path / "slow.sqlite3", delay=0)) as client:
        info = _new_table(client, game="gin", opponents=1, level="waiting")
        with client.websocket_connect(f"/ws/{info['table']}/0") as ws:
            ws.send_json({"t": "hello", "token": info["token"]})
            assert ws.receive_json()["t"] == "welcome"
            message = ws.receive_json()
            while not _WaitingPlayer.started.is_set():
                legal = message["view"]["hand"]["legal_actions"]
                if legal:
                    ws.send_json({"t": "action", "action": greedy(legal), "seq": message["seq"]})
                    message = ws.receive_json()
                else:
                    assert _WaitingPlayer.started.wait(5)
            response = client.get(f"/api/tables/{info['table']}")  # served while it thinks
            assert response.status_code == 200
            # (were the server held up by the thinking, it would answer only once that ended)
            assert not _WaitingPlayer.done.is_set()
            _WaitingPlayer.release.set()
            moved = ws.receive_json()
            assert moved["t"] == "view" and moved["seq"] > message["seq"]


@pytest.mark.parametrize(
    ("variant", "opponents", "level"),
    [
        ("gin", 1, "random"),
        ("gin", 1, "medium"),
        ("rummy", 3, "medium"),
        ("rummy", 3, "random"),
        ("crazy", 3, "easy"),
        ("crazy", 2, "random"),
    ],
)
def test_computer_decisions_do_not_change_across_a_restart(
    store: Store, variant: str, opponents: int, level: str
) -> None:
    """A restored table's computers decide exactly as the uninterrupted table's would.

    The original table plays on; a copy replayed from the store at that point is kept in step
    (its actions applied to its match only, as the original already stored them), and each
    computer decision of both must be the same, whatever the players decided before the restart.
    """
    table, _ = Table.create(store, variant=variant, opponents=opponents, level=level, seed=21)

    def human(t: Table) -> str:
        return greedy([str(a) for a in t.hand.view(0).legal_actions])

    for _ in range(12):
        if table.hand.is_over:
            table.next_hand(0, table.seq)
        elif table.computer_to_act() is not None:
            table.step_computer()
        else:
            table.act(0, human(table), table.seq)
    again = TableManager(store).get(table.id)  # replayed from the store
    assert again is not None and again is not table
    decisions = 0
    while decisions < 12 and not table.finished:
        assert again.seq == table.seq
        if table.hand.is_over:
            table.next_hand(0, table.seq)
            again.match.next_hand()
        elif table.computer_to_act() is not None:
            seat, decide = table.computer_decision()
            seat_again, decide_again = again.computer_decision()
            action = decide()
            assert (seat_again, decide_again()) == (seat, action), f"decision {decisions}"
            decisions += 1
            table.apply_computer(seat, action)
            again.match.apply(action, seat)
        else:
            text = human(table)
            assert human(again) == text
            table.act(0, text, table.seq)
            again.match.apply(parse_action(text), 0)
    assert decisions == 12


def test_crazy_aids_name_the_card_a_wild_stands_for_at_each_end() -> None:
    """For every legal lay-off onto an end of a run, the aids name the card of the run's suit
    just beyond that end (what a wild becomes there), so the page can label the choice."""
    checked = 0
    for seed in range(40):
        state = Crazy().new_hand(players=3, seed=seed, round=3)  # the two-runs round
        rng = random.Random(seed)
        while not state.is_over and checked < 30:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            ends = aids(view)["ends"]
            wanted = {str(a): a for a in view.legal_actions if isinstance(a, LayOff) and a.end}
            assert set(ends) == set(wanted)
            for text, card in ends.items():
                run = view.to_dict()["table"][wanted[text].meld - 1]
                order = "A23456789TJQKA"
                first, last = run["stands_for"][0], run["stands_for"][-1]
                if text.endswith(" low"):
                    assert order.index(card[0]) == order.index(first[0]) - 1
                else:
                    assert order.rindex(card[0]) == order.index(last[0], 1) + 1
                assert card[1] == first[1]
                checked += 1
            legal = state.legal_actions()
            eager = [a for a in legal if str(a).startswith(("down", "layoff"))]
            state.apply(eager[0] if eager else rng.choice(legal))
        if checked >= 30:
            break
    assert checked >= 10


# ------------------------------------------------------------------- one slow table, others on


def test_a_slow_move_at_one_table_holds_up_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's work for a person's message runs off the event loop: while one table is
    still building a view (a Crazy Rummy hand can grow large), the server answers everyone else.
    The slow view waits until the test has its other answer, so no stopwatch is needed: were the
    view built on the event loop, the other request could not be answered and would time out."""
    import asyncio

    import uvicorn
    from websockets.sync.client import connect

    slow = threading.Event()
    building = threading.Event()
    answered = threading.Event()
    real_view = Table.view_message

    def view_message(self: Table, seat: int, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if slow.is_set():
            building.set()
            answered.wait(30)  # thinking, holding no lock but the table's
        return real_view(self, seat, *args, **kwargs)

    monkeypatch.setattr(Table, "view_message", view_message)
    config = uvicorn.Config(
        create_app(tmp_path / "slow.sqlite3", delay=0), port=0, log_level="warning"
    )
    sock = config.bind_socket()  # port 0: a free port, held from now on
    port = sock.getsockname()[1]
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        info = _new_gin_table(port)
        with connect(f"ws://127.0.0.1:{port}/ws/{info['table']}/0") as ws:
            ws.send(json.dumps({"t": "hello", "token": info["token"]}))
            _receive_view(ws)
            slow.set()
            ws.send(json.dumps({"t": "view"}))  # this table now builds its view until answered
            assert building.wait(10)
            # (answered at all: the other table's view is still waiting for this answer)
            with urllib.request.urlopen(f"{base}/api/games", timeout=10) as response:
                assert response.status == 200
            answered.set()
            assert _receive_view(ws)["view"]["hand"]["hand"]  # the slow answer comes all the same
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_table_waited_for_is_never_replayed_beside_itself(store: Store) -> None:
    """A socket looks a table up and waits for its lock while the last socket on it leaves: the
    table must stay in memory, so the waiter and everyone after it share one table object (a
    copy replayed from the store beside it would split the game in two)."""
    import asyncio

    from rummykit.server.hub import Hub

    manager = TableManager(store)
    created, _ = manager.create(variant="gin", opponents=1, level="random", friends=1)
    hub = Hub(manager, 0)
    found: list[Any] = []

    async def busy() -> None:  # the seat that leaves: its last message still holds the lock
        async with hub.lock(created.id):
            await asyncio.sleep(0.05)
        hub.release(created.id)  # its socket closes: nothing else is open on the table

    async def waiter() -> None:  # a seat saying hello meanwhile
        await asyncio.sleep(0.01)
        table = manager.get(created.id)
        async with hub.lock(created.id):
            found.append(table)
            found.append(manager.get(created.id))
        hub.release(created.id)

    async def main() -> None:
        await asyncio.gather(busy(), waiter())

    # In a thread of its own: the browser tests keep an event loop running in this one.
    thread = threading.Thread(target=lambda: asyncio.run(main()))
    thread.start()
    thread.join(10)
    assert len(found) == 2
    assert found[0] is found[1]  # the same table after the wait, not a replayed copy
    assert created.id not in manager.tables  # and once nobody holds it, it is dropped


def test_computer_players_plan_by_the_tables_rules(store: Store) -> None:
    """The computer seats (and the hint) are built with the table's options, preset and house
    rules included: a classic table shuffles its restocks, and this one reuses the pile 3 times."""
    manager = TableManager(store)
    table, _ = manager.create(
        variant="rummy-classic", opponents=2, level="hard", options={"restock_limit": 3}
    )
    player: Any = table.computer_player(1)
    assert player.options == table.hand.game.options
    assert (player.options.restock.value, player.options.restock_limit) == ("shuffle", 3)


def test_a_table_stored_before_an_option_existed_keeps_its_old_rule(store: Store) -> None:
    """A Crazy Rummy table stored before ``discard_taken_twin`` existed may hold a turn that
    threw the twin of the card just taken (allowed then): it is read back with the old rule, so
    no game is lost, while a new table refuses such a throw."""
    from rummykit.actions import Action, Discard, Draw, Take
    from rummykit.server.tables import OPTIONS_ADDED

    assert OPTIONS_ADDED["crazy"]["discard_taken_twin"] is True
    for seed in range(40):
        table, _ = Table.create(
            store,
            variant="crazy",
            opponents=1,
            level="random",
            seed=seed,
            options={"discard_taken_twin": True},
        )
        state: Any = table.hand
        threw_twin = False
        for _ in range(300):
            if state.is_over or threw_twin:
                break
            seat, legal = state.to_act, state.legal_actions()
            twin = [a for a in legal if isinstance(a, Discard) and a.card == state.taken]
            action: Action
            if Take() in legal and state.offered in state.hands[seat]:
                action = Take()
            elif twin:
                action, threw_twin = twin[0], True
            else:
                action = next((a for a in legal if isinstance(a, Draw)), legal[-1])
            table._apply(seat, action)
        if threw_twin:
            break
    assert threw_twin
    _read_back_without(store, table, "discard_taken_twin")


def _read_back_without(store: Store, table: Table, option: str) -> None:
    """Store ``table`` as if ``option`` had not existed, read it back: the same moves stand
    under the old rule, while a new table plays the option's default."""
    from rummykit.server.tables import OPTIONS_ADDED

    with contextlib.closing(sqlite3.connect(store.path)) as db, db:  # as stored before it existed
        db.execute(
            f"UPDATE tables SET options = json_remove(options, '$.{option}') WHERE id = ?",
            (table.id,),
        )
    stored = store.load(table.id)
    assert stored is not None and option not in stored.record["options"]
    restored = Table.restore(stored, store)
    assert restored.hand.history == table.hand.history
    old_rule = getattr(restored.hand.game.options, option)
    assert old_rule is OPTIONS_ADDED["crazy"][option]
    new, _ = Table.create(store, variant="crazy", opponents=1, level="random", seed=1)
    assert getattr(new.hand.game.options, option) is not old_rule


def test_a_table_stored_before_buy_keeps_draw_keeps_a_buy_of_the_last_card(store: Store) -> None:
    """Before ``buy_keeps_draw`` a buy could take the stock's last card and end the round
    before the player in turn drew: such a stored table is read back with that rule."""
    from rummykit.actions import Buy

    options = {"buy_keeps_draw": False, "max_restocks": 0}
    ended = False
    for seed in range(40):
        table, _ = Table.create(
            store, variant="crazy", opponents=3, level="random", seed=seed, options=options
        )
        state: Any = table.hand
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            action = Buy() if Buy() in legal else rng.choice(legal)
            table._apply(state.to_act, action)
            ended = isinstance(action, Buy) and state.is_over
        if ended:
            break
    assert ended
    _read_back_without(store, table, "buy_keeps_draw")
