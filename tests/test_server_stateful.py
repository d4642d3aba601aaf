"""A table with friends driven by random sequences of requests (hypothesis stateful testing).

Several people share a table with the computer, backed by a real SQLite file. Hypothesis mixes
good moves with bad ones in any order: moves out of turn, stale or repeated view numbers,
malformed or illegal actions, take-backs (refused with friends), a computer standing in for a
person and giving the seat back, next hands asked for too early or in time, play to the end of
the match, and restarts of the server (the table read back from its file, showing every seat
the same). After every step:

- a refused request raised :class:`ProtocolError` and changed nothing (the view number, every
  seat's view, the stored record);
- every message each person was sent, and each person's view and hand log now, name no card
  hidden from them (the checks of ``test_server``);
- the file holds every move of every hand and the seats as they are in memory.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from hypothesis_profiles import examples
from test_server import _hidden, _tokens, check_private, greedy

from rummykit.server.protocol import ProtocolError
from rummykit.server.store import Store
from rummykit.server.tables import Table

# (a Hypothesis state machine: make test-explore runs it too, with ten times its examples)
pytestmark = [pytest.mark.server, pytest.mark.hypothesis]

# (variant, opponents, friends): every game, with people and computers mixed.
SETUPS = [
    ("gin", 1, 1),
    ("rummy", 2, 1),
    ("rummy-classic", 3, 2),
    ("crazy", 2, 2),
    ("crazy", 3, 1),
]

BAD_TEXTS = [
    "",
    " ",
    "draw draw",
    "discard",
    "discard ZZ",
    "discard 7H 7H",
    "knock",
    "layoff 7H 99",
    "meld 2C",
    "down",
    "buy 3",
    "swap X 0",
    "take\x00",
    "\u202edraw",
    "discard " + "7" * 500,
]


class FriendsTable(RuleBasedStateMachine):
    """One table, its people, and the store it lives in."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "table.sqlite3"
        self.store = Store(self.path)
        self.table: Table
        self.connected: set[int] = set()

    def teardown(self) -> None:
        self.store.close()
        self.dir.cleanup()

    # --------------------------------------------------------------------------- helpers

    def _snapshot(self) -> tuple[int, str, str]:
        """The table's state as the people and the file see it."""
        table = self.table
        views = json.dumps(
            [table.view_message(s)["view"] for s in range(len(table.seats))], sort_keys=True
        )
        stored = self.store.load(table.id)
        assert stored is not None
        return table.seq, views, json.dumps(stored.record, sort_keys=True)

    def _refused(self, call: Any, *args: Any) -> ProtocolError:
        before = self._snapshot()
        with pytest.raises(ProtocolError) as caught:
            call(*args)
        assert str(caught.value), "a refusal says why"
        assert self._snapshot() == before, f"{call.__name__}{args} was refused but changed things"
        return caught.value

    def _check_sent(self, messages: dict[int, dict[str, Any]]) -> None:
        assert set(messages) <= set(self.table.human_seats())
        for seat, message in messages.items():
            check_private(self.table.match, seat, message)
            assert message["seq"] == self.table.seq

    def _people_to_act(self) -> int | None:
        table = self.table
        if table.finished or table.hand.is_over or table.computer_to_act() is not None:
            return None
        seat = table.hand.to_act
        return seat if seat in table.human_seats() else None

    # ----------------------------------------------------------------------------- rules

    @initialize(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
    def create(self, setup: tuple[str, int, int], seed: int) -> None:
        variant, opponents, friends = setup
        self.table, _ = Table.create(
            self.store,
            variant=variant,
            opponents=opponents,
            level="easy",
            seed=seed,
            friends=friends,
            name="Lan",
        )
        for seat, code in sorted(self.table.invites.items()):
            joined, token = self.table.join(code, f"Friend {seat}")
            assert joined == seat and self.table.check_token(seat, token)
        self.connected = set(self.table.human_seats())

    @rule(pick=st.integers(0, 10**6), best=st.booleans())
    def move(self, pick: int, best: bool) -> None:
        """The person to act plays a legal move (the greedy one, or any)."""
        seat = self._people_to_act()
        if seat is None:
            return
        legal = [str(a) for a in self.table.hand.view(seat).legal_actions]
        action = greedy(legal) if best else legal[pick % len(legal)]
        seq = self.table.seq
        messages = self.table.act(seat, action, seq)
        event(f"a person moved: {action.split()[0]}")
        assert self.table.seq > seq
        self._check_sent(messages)

    @rule(steps=st.integers(1, 120), seed=st.integers(0, 10**6))
    def play_on(self, steps: int, seed: int) -> None:
        """The table plays on for a while: computers step, people play mostly greedy moves and
        ask for the next hand when one ends."""
        rng = random.Random(seed)
        for _ in range(steps):
            table = self.table
            if table.finished:
                event("the match ended")
                break
            if table.hand.is_over:
                event("a hand ended")
                self._check_sent(table.next_hand(rng.choice(table.human_seats()), table.seq))
                continue
            if table.computer_to_act() is not None:
                self._check_sent(table.step_computer())
                continue
            seat = self._people_to_act()
            assert seat is not None, "neither a computer nor a person is to act"
            legal = [str(a) for a in table.hand.view(seat).legal_actions]
            action = greedy(legal) if rng.random() < 0.8 else rng.choice(legal)
            self._check_sent(table.act(seat, action, table.seq))

    @rule()
    def computer(self) -> None:
        """A computer seat to act takes one step."""
        if self.table.finished or self.table.computer_to_act() is None:
            return
        self._check_sent(self.table.step_computer())

    @rule(pick=st.integers(0, 10**6))
    def out_of_turn(self, pick: int) -> None:
        """A person not to act sends a move that would be legal for the one who is."""
        table = self.table
        if table.finished or table.hand.is_over:
            return
        to_act = table.hand.to_act
        others = [s for s in table.human_seats() if s != to_act]
        if to_act is None or not others:
            return
        seat = others[pick % len(others)]
        legal = [str(a) for a in table.hand.view(to_act).legal_actions]
        error = self._refused(table.act, seat, legal[pick % len(legal)], table.seq)
        assert error.code == "not_your_turn"

    @rule(delta=st.sampled_from([-1, -2, 1, 7, -(10**9)]))
    def stale(self, delta: int) -> None:
        """The person to act sends a move for an older (or a future) view."""
        seat = self._people_to_act()
        if seat is None:
            return
        legal = [str(a) for a in self.table.hand.view(seat).legal_actions]
        seq = self.table.seq + delta
        if seq == self.table.seq:
            return
        error = self._refused(self.table.act, seat, legal[0], seq)
        assert error.code == "stale"

    @rule(text=st.sampled_from(BAD_TEXTS) | st.text(max_size=20))
    def malformed_or_illegal(self, text: str) -> None:
        """The person to act sends something that is no legal move of theirs."""
        seat = self._people_to_act()
        if seat is None:
            return
        if text.strip() in {str(a) for a in self.table.hand.view(seat).legal_actions}:
            return
        error = self._refused(self.table.act, seat, text, self.table.seq)
        event(f"refused: {error.code}")
        assert error.code in ("illegal", "bad_message")

    @rule(pick=st.integers(0, 10**6))
    def take_back_a_move(self, pick: int) -> None:
        """A person asks to take a move back: never at a table with friends."""
        people = self.table.human_seats()
        seat = people[pick % len(people)]
        self._refused(self.table.undo, seat, self.table.seq)

    @rule(pick=st.integers(0, 10**6))
    def someone_leaves(self, pick: int) -> None:
        """A person leaves; another at the table gives their seat to the computer."""
        people = [s for s in self.table.human_seats() if s in self.connected]
        if len(people) < 2:
            return
        seat = people[pick % len(people)]
        by = next(s for s in people if s != seat)
        self.connected.discard(seat)
        self.table.give_to_computer(seat, connected=sorted(self.connected), by=by, after=0)
        assert self.table.seats[seat].stand_in and seat not in self.table.human_seats()

    @rule(pick=st.integers(0, 10**6))
    def someone_comes_back(self, pick: int) -> None:
        """A person whose seat a computer played comes back: it is theirs again."""
        away = [s for s, seat in enumerate(self.table.seats) if seat.stand_in]
        if not away:
            return
        seat = away[pick % len(away)]
        assert self.table.take_back(seat)
        self.connected.add(seat)
        assert seat in self.table.human_seats()

    @rule(pick=st.integers(0, 10**6))
    def next_hand(self, pick: int) -> None:
        """A person asks for the next hand: dealt once the hand is over, refused before."""
        table = self.table
        people = table.human_seats()
        seat = people[pick % len(people)]
        if table.finished:
            assert self._refused(table.next_hand, seat, table.seq).code == "over"
        elif not table.hand.is_over:
            assert self._refused(table.next_hand, seat, table.seq).code == "illegal"
        else:
            hands = len(table.match.hands)
            self._check_sent(table.next_hand(seat, table.seq))
            event("next hand dealt")
            assert len(table.match.hands) == hands + 1

    @rule()
    def restart(self) -> None:
        """The server restarts: the table is read back from its file and shows the same."""
        before = self._snapshot()
        self.store.close()
        self.store = Store(self.path)
        stored = self.store.load(self.table.id)
        assert stored is not None
        self.table = Table.restore(stored, self.store)
        assert self._snapshot() == before

    # ------------------------------------------------------------------------ invariants

    @invariant()
    def nothing_hidden_is_shown(self) -> None:
        table = self.table
        for seat in table.human_seats():
            check_private(table.match, seat, table.view_message(seat))
            leaked = _tokens(table.hand_log(seat)) & _hidden(table.hand, seat)
            assert not leaked, f"seat {seat}'s hand log names hidden cards {sorted(leaked)}"

    @invariant()
    def the_file_holds_every_move(self) -> None:
        stored = self.store.load(self.table.id)
        assert stored is not None
        hands = stored.record.get("hands", [])
        assert len(hands) == len(self.table.match.hands)
        for kept, played in zip(hands, self.table.match.hands, strict=True):
            assert [tuple(a) for a in kept["actions"]] == [
                (seat, str(action)) for seat, action in played.history
            ]
        assert [s.to_dict() for s in self.table.seats] == list(stored.seats)


FriendsTable.TestCase.settings = settings(
    max_examples=examples(25),
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_a_friends_table_under_random_requests = FriendsTable.TestCase
