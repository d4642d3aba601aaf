"""The store keeps the same tables in SQLite and in PostgreSQL: written, refused and read back alike."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from rummykit.actions import parse_action
from rummykit.server.protocol import ProtocolError
from rummykit.server.store import Store, StoreConflict
from rummykit.server.tables import Table

pytestmark = pytest.mark.server


@pytest.fixture
def store(store_address: str) -> Iterator[Store]:
    s = Store(store_address)
    yield s
    s.close()


def new_table(store: Store, table_id: str = "t1", **extra: object) -> None:
    store.create_table(
        table_id,
        variant="gin",
        game="gin",
        options={"target_score": 100},
        seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}],
        seed=(1 << 62) - 1,  # the largest seed the server draws
        dealer=1,
        hand_seed=(1 << 62) - 2,
        **extra,  # type: ignore[arg-type]
    )


def test_a_table_reads_back_as_written(store: Store) -> None:
    new_table(store, turn_time=30)
    store.append_action("t1", 0, 0, 0, "draw stock", finished=False)
    store.append_action("t1", 0, 1, 0, "discard 9H", finished=False, stand_in=True)
    store.add_hand("t1", 1, 0, 77)
    assert store.update_seats("t1", [{"kind": "human", "name": "An"}, {"kind": "computer"}], 0) == (
        1,
        4,
    )
    stored = store.load("t1")
    assert stored is not None
    assert stored.variant == "gin" and stored.turn_time == 30 and not stored.finished
    assert stored.seats == [{"kind": "human", "name": "An"}, {"kind": "computer"}]
    assert stored.record["seed"] == (1 << 62) - 1
    assert stored.record["hands"] == [
        {"dealer": 1, "seed": (1 << 62) - 2, "actions": [[0, "draw stock"], [0, "discard 9H"]]},
        {"dealer": 0, "seed": 77, "actions": []},
    ]
    assert stored.stand_in_moves == frozenset({(0, 1)})
    assert (stored.changes, stored.seats_version) == (4, 1)
    assert store.table_ids() == ["t1"]
    assert store.load("nope") is None


def test_the_same_action_number_twice_is_refused_and_changes_nothing(store: Store) -> None:
    new_table(store)
    store.append_action("t1", 0, 0, 0, "draw stock", finished=False)
    with pytest.raises(StoreConflict):
        store.append_action("t1", 0, 0, 0, "draw discard", finished=True)
    stored = store.load("t1")
    assert stored is not None and not stored.finished
    assert stored.record["hands"][0]["actions"] == [[0, "draw stock"]]
    with pytest.raises(StoreConflict):  # an action of a table that does not exist
        store.append_action("nope", 0, 0, 0, "draw stock", finished=False)


def test_an_undo_removes_the_last_action_only_and_is_remembered_in_order(store: Store) -> None:
    new_table(store)
    store.append_action("t1", 0, 0, 0, "draw stock", finished=False)
    store.append_action("t1", 0, 1, 0, "meld 5H 6H 7H", finished=False)
    with pytest.raises(ValueError, match="not the last"):
        store.undo_action("t1", 0, 0, 0, "draw stock")
    store.undo_action("t1", 0, 1, 0, "meld 5H 6H 7H")
    store.add_hand("t1", 1, 0, 5)
    store.append_action("t1", 1, 0, 1, "draw stock", finished=False)
    store.undo_action("t1", 1, 0, 1, "draw stock")
    stored = store.load("t1")
    assert stored is not None
    assert stored.record["hands"][0]["actions"] == [[0, "draw stock"]]
    assert stored.undos == (0, 1)


def test_a_table_has_one_rematch_at_most_and_finished_tables_are_left_out(store: Store) -> None:
    new_table(store)
    store.append_action("t1", 0, 0, 0, "draw stock", finished=True)
    new_table(store, "t2", after="t1")
    with pytest.raises(StoreConflict):
        new_table(store, "t3", after="t1")
    assert store.next_table("t1") == "t2" and store.next_table("t2") is None
    assert store.load("t3") is None  # nothing of the refused table was kept
    assert store.table_ids() == ["t2"]
    assert store.table_ids(unfinished_only=False) == ["t1", "t2"]


def test_writes_from_many_threads_are_all_kept(store: Store) -> None:
    for i in range(8):
        new_table(store, f"t{i}")

    def play(i: int) -> None:
        for n in range(25):
            store.append_action(f"t{i}", 0, n, n % 2, f"discard {n}", finished=False)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for i in range(8):
        stored = store.load(f"t{i}")
        assert stored is not None
        assert [a[1] for a in stored.record["hands"][0]["actions"]] == [
            f"discard {n}" for n in range(25)
        ]
    batches, writes = store.commits
    assert writes == 8 + 8 * 25 and batches <= writes


def test_a_played_table_replays_from_either_store(store_address: str) -> None:
    store = Store(store_address)
    table, _ = Table.create(store, variant="crazy", opponents=3, level="medium", seed=12)
    for _ in range(60):
        seat = table.computer_to_act()
        if seat is None:
            if table.hand.is_over:
                break
            view = table.hand.view(0)
            table.act(0, str(view.legal_actions[0]), table.seq)
        else:
            table.step_computer()
    store.close()
    again = Store(store_address)  # as after a restart
    stored = again.load(table.id)
    assert stored is not None
    restored = Table.restore(stored, again)
    assert restored.hand.history == table.hand.history
    assert restored.seq == table.seq
    assert parse_action(str(table.hand.history[-1][1])) == table.hand.history[-1][1]
    again.close()


def test_seats_change_only_from_the_version_read(store: Store) -> None:
    new_table(store)
    one = [{"kind": "human", "name": "An"}, {"kind": "computer"}]
    two = [{"kind": "human", "name": "Binh"}, {"kind": "computer"}]
    assert store.update_seats("t1", one, 0) == (1, 1)
    with pytest.raises(StoreConflict):  # read at version 0 by someone else: too late
        store.update_seats("t1", two, 0)
    stored = store.load("t1")
    assert stored is not None and stored.seats == one and stored.changes == 1


def test_every_write_counts_a_change_that_others_can_see(store: Store) -> None:
    new_table(store)
    new_table(store, "t2")
    assert store.changes_of(["t1", "t2", "nope"]) == {"t1": 0, "t2": 0}
    assert store.append_action("t1", 0, 0, 0, "draw stock", finished=False) == 1
    assert store.add_hand("t1", 1, 0, 3) == 2
    assert store.append_action("t1", 1, 0, 0, "draw stock", finished=False) == 3
    store.undo_action("t1", 1, 0, 0, "draw stock")
    assert store.changes_of(["t1", "t2"]) == {"t1": 4, "t2": 0}
    assert store.changes_of([]) == {}


def test_a_lease_has_one_owner_until_it_expires(store: Store) -> None:
    assert store.take_lease("t1", "a", 60)
    assert store.take_lease("t1", "a", 60)  # its owner renews it
    assert not store.take_lease("t1", "b", 60)
    assert store.renew_leases("b", ["t1"], 60) == set()
    assert store.renew_leases("a", ["t1", "t2"], 60) == {"t1"}
    assert store.take_lease("t2", "b", -1)  # (taken already expired)
    assert store.take_lease("t2", "a", 60)  # an expired lease is taken over
    assert store.renew_leases("b", ["t2"], 60) == set()
    store.drop_lease("t1", "b")  # not b's: nothing happens
    assert not store.take_lease("t1", "b", 60)
    store.drop_lease("t1", "a")
    assert store.take_lease("t1", "b", 60)


def _open_seat_table(store: Store) -> tuple[Table, str]:
    table, _ = Table.create(store, variant="gin", opponents=1, level="easy", friends=1, seed=3)
    return table, table.invites[1]


def test_an_invite_is_claimed_once_by_two_processes_at_once(store_address: str) -> None:
    store = Store(store_address, shared=True)
    table, code = _open_seat_table(store)
    stored = store.load(table.id)
    assert stored is not None
    here, there = Table.restore(stored, store), Table.restore(stored, store)  # two processes
    seat, token = here.join(code, "An")
    assert seat == 1 and here.check_token(1, token)
    with pytest.raises(ProtocolError) as refused:
        there.join(code, "Binh")  # its copy still shows the seat open
    assert refused.value.code == "auth"
    assert there.seats[1].name == "An" and there.check_token(1, token)  # it read the seats again
    final = store.load(table.id)
    assert final is not None and final.seats[1]["name"] == "An"
    store.close()


def test_a_move_overtaken_by_another_process_is_refused_as_stale(store_address: str) -> None:
    store = Store(store_address, shared=True)
    table, _ = Table.create(store, variant="rummy", opponents=1, level="easy", seed=8)
    while table.computer_to_act() is not None:
        table.step_computer()
    stored = store.load(table.id)
    assert stored is not None
    here, there = Table.restore(stored, store), Table.restore(stored, store)
    legal = [str(a) for a in here.hand.view(0).legal_actions]
    here.act(0, legal[0], here.seq)
    with pytest.raises(ProtocolError) as refused:
        there.act(0, legal[-1], there.seq)  # the same turn, on an out-of-date copy
    assert refused.value.code == "stale"
    assert there.hand.history == here.hand.history  # it read the table again
    assert there.changes == here.changes == store.changes_of([table.id])[table.id]
    store.close()


def test_tables_nobody_opens_any_more_are_pruned_with_all_of_theirs(store: Store) -> None:
    """A finished match goes 3 days after it was last played or opened, one still going after
    30 (as the server prunes); a rematch link to a pruned table goes with it."""
    day = 86_400.0
    new_table(store, "done")
    store.append_action("done", 0, 0, 0, "draw stock", finished=True)
    new_table(store, "next", after="done")  # its rematch, still going
    new_table(store, "going")
    store.append_action("going", 0, 0, 0, "draw stock", finished=False)
    store.undo_action("going", 0, 0, 0, "draw stock")
    start = time.time()

    def prune(days_later: float) -> list[str]:
        return store.prune(finished_days=3, unfinished_days=30, now=start + days_later * day)

    assert prune(2.9) == []
    assert prune(3.1) == ["done"]
    assert store.load("done") is None and store.next_table("done") is None
    assert store.load("next") is not None and store.load("going") is not None
    store.opened("going", at=start + 10 * day)  # a page opened it on day 10: kept till day 40
    assert prune(30.1) == ["next"]
    assert store.load("going") is not None
    assert prune(39.9) == []
    assert prune(40.1) == ["going"]
    assert store.table_ids(unfinished_only=False) == []
    # Nothing of theirs is left to refer to them: the same ids can be used again.
    new_table(store, "done")
    store.append_action("done", 0, 0, 0, "draw stock", finished=False)
    again = store.load("done")
    assert again is not None and again.record["hands"][0]["actions"] == [[0, "draw stock"]]
