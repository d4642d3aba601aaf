"""Game records: golden records replayed move by move, round trips, malformed records refused."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import parse_action
from rummykit.games import Phase, find_game
from rummykit.games.gin import Gin, GinMatch, GinState, Outcome
from rummykit.record import (
    RecordError,
    dump_record,
    hand_record,
    is_match,
    load_record,
    match_record,
    read_record,
    write_record,
)

RECORDS = Path(__file__).parent / "records"


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


def test_golden_hand_replayed_move_by_move() -> None:
    data = golden("gin_hand.json")
    empty = {**data, "actions": []}
    state = load_record(empty)
    assert isinstance(state, GinState)
    # (phase after the action, seat to act after it, cards in seat 0's and seat 1's hands)
    expected = [
        (Phase.OFFER, 0, 10, 10),
        (Phase.DRAW, 1, 10, 10),
        (Phase.DISCARD, 1, 10, 11),
        (Phase.DRAW, 0, 10, 10),
        (Phase.DISCARD, 0, 11, 10),
        (Phase.DRAW, 1, 10, 10),
        (Phase.DISCARD, 1, 10, 11),
        (Phase.DRAW, 0, 10, 10),
        (Phase.DISCARD, 0, 11, 10),
        (Phase.DRAW, 1, 10, 10),
        (Phase.DISCARD, 1, 10, 11),
        (Phase.LAYOFF, 0, 10, 10),
        (Phase.LAYOFF, 0, 9, 10),
        (Phase.HAND_OVER, None, 9, 10),
    ]
    assert len(data["actions"]) == len(expected)
    for (seat, text), (phase, to_act, n0, n1) in zip(data["actions"], expected, strict=True):
        state.apply(parse_action(text), seat)
        assert (state.phase, state.to_act, len(state.hands[0]), len(state.hands[1])) == (
            phase,
            to_act,
            n0,
            n1,
        ), text
    assert [str(c) for c in state.discard_pile] == ["KD", "9S", "2H", "8S"]
    r = state.result
    assert r is not None
    assert (r.outcome, r.winner, r.knocker, r.deadwood, r.points) == (
        Outcome.KNOCK,
        1,
        1,
        (11, 5),
        6,
    )
    assert [str(c) for c in r.unmatched[0]] == ["AS", "KS"]
    assert hand_record(state, data["players"]) == data


def test_golden_match_replays_to_the_same_result() -> None:
    data = golden("gin_match.json")
    match = load_record(data)
    assert isinstance(match, GinMatch) and match.result is not None
    r = match.result
    assert (r.winner, r.hand_points, r.boxes, r.totals, r.shutout) == (
        0,
        (108, 22),
        (10, 3),
        (458, 97),
        False,
    )
    assert len(match.hands) == 13
    assert match_record(match, data["players"]) == data
    assert dump_record(data) == (RECORDS / "gin_match.json").read_text(encoding="utf-8")


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 1))
def test_random_hand_records_round_trip(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    state = Gin().new_hand(seed=seed, dealer=dealer)
    stop = rng.randrange(1, 80)
    while not state.is_over and len(state.history) < stop:
        state.apply(rng.choice(state.legal_actions()))
    text = dump_record(hand_record(state))
    again = load_record(text)
    assert isinstance(again, GinState)
    assert again.hands == state.hands and again.stock == state.stock
    assert again.history == state.history and again.result == state.result
    assert dump_record(hand_record(again)) == text


def test_explicit_deal_round_trips_through_a_file(tmp_path: Path) -> None:
    state = load_record(golden("gin_hand.json"))
    path = tmp_path / "hand.json"
    write_record(path, state, ["An", "Binh"])
    assert read_record(path).result == state.result
    match = load_record(golden("gin_match.json"))
    write_record(path, match)
    again = read_record(path)
    assert isinstance(again, GinMatch) and again.result == match.result


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.json")))
def test_every_golden_record_saves_back_to_the_same_json_with_its_names(
    name: str, tmp_path: Path
) -> None:
    """A loaded record keeps its players' names: saved with no names given, it is the same JSON
    (they used to become "player 1", "player 2"); names given when saving still win, and a
    clone (for search) keeps them too."""
    replayed = read_record(RECORDS / name)
    path = tmp_path / name
    write_record(path, replayed)
    assert json.loads(path.read_text(encoding="utf-8")) == golden(name)
    assert replayed.names == tuple(golden(name)["players"])
    assert replayed.clone().names == replayed.names
    if is_match(replayed):  # (and each hand of a match, saved alone)
        assert all(hand.names == replayed.names for hand in replayed.hands)
    others = [f"P{i}" for i in range(len(golden(name)["players"]))]
    write_record(path, replayed, others)
    assert json.loads(path.read_text(encoding="utf-8"))["players"] == others


def test_a_hand_not_loaded_from_a_record_has_no_names() -> None:
    state = Gin().new_hand(seed=3)
    assert state.names is None and GinMatch(Gin(), seed=3).names is None
    assert hand_record(state)["players"] == ["player 1", "player 2"]


def corrupt(name: str, change: Any) -> dict[str, Any]:
    data = copy.deepcopy(golden(name))
    change(data)
    return data


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        (corrupt("gin_hand.json", lambda d: d.update(game="poker")), "unknown game"),
        (corrupt("gin_hand.json", lambda d: d.pop("game")), "name its game"),
        (corrupt("gin_hand.json", lambda d: d["options"].update(knock=3)), "unknown Gin option"),
        (corrupt("gin_hand.json", lambda d: d.update(seed=3)), "exactly one of"),
        (corrupt("gin_hand.json", lambda d: d["deal"]["stock"].pop()), "missing"),
        (
            corrupt("gin_hand.json", lambda d: d["deal"].update(up="KS")),
            "holds KS 2 times; the pack only once",
        ),
        (corrupt("gin_hand.json", lambda d: d["actions"].insert(5, [0, "discard KD"])), "action 6"),
        (
            corrupt("gin_hand.json", lambda d: d["actions"].__setitem__(3, [0, "discard KS"])),
            "action 4",
        ),
        (corrupt("gin_hand.json", lambda d: d["actions"].__setitem__(2, [1, "drw"])), "action 3"),
        (corrupt("gin_hand.json", lambda d: d["actions"].__setitem__(2, "draw")), "action 3"),
        (
            corrupt("gin_hand.json", lambda d: d["actions"].__setitem__(2, [True, "draw"])),
            re.escape('got [true, "draw"]'),  # as JSON wrote it, not as Python would
        ),
        ("gin_match.json", "looks like a file name: .* read_record\\(path\\) reads a file"),
        (corrupt("gin_hand.json", lambda d: d["actions"].append([0, "draw"])), "action 15"),
        # a cut record must not pass for a hand with no moves
        (corrupt("gin_hand.json", lambda d: d.pop("actions")), 'needs "actions"'),
        (corrupt("gin_match.json", lambda d: d.pop("hands")), 'needs "actions" .* or "hands"'),
        (
            corrupt("gin_match.json", lambda d: d["hands"][1].pop("actions")),
            'hand 2: "actions" is missing',
        ),
        # option values are named as the JSON wrote them
        (corrupt("gin_hand.json", lambda d: d["options"].update(big_gin=None)), "not null$"),
        (corrupt("gin_hand.json", lambda d: d["options"].update(knock_limit=True)), "not true$"),
        (corrupt("gin_hand.json", lambda d: d.update(players=["A"])), "players"),
        (corrupt("gin_hand.json", lambda d: d.update(dealer=2)), "dealer"),
        (corrupt("gin_hand.json", lambda d: d.update(extra=1)), "unknown field"),
        (
            corrupt(
                "gin_match.json", lambda d: d["hands"][1].update(dealer=1 - d["hands"][1]["dealer"])
            ),
            "hand 2",
        ),
        (corrupt("gin_match.json", lambda d: d["hands"].append(d["hands"][0])), "already over"),
        (corrupt("gin_match.json", lambda d: d["hands"][0]["actions"].pop()), "did not finish"),
        (corrupt("gin_match.json", lambda d: d.update(hands=[])), "non-empty"),
        (corrupt("gin_match.json", lambda d: d.update(bogus=1)), "unknown field"),
        (corrupt("gin_match.json", lambda d: d.pop("seed")), "needs its seed"),
        (corrupt("gin_match.json", lambda d: d["hands"][0].update(dealer=0.0)), "dealer must be"),
        (corrupt("gin_hand.json", lambda d: d.update(dealer=1.0)), "dealer must be"),
    ],
)
def test_malformed_records_are_refused_with_the_place(data: Any, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        load_record(data)


def test_illegal_action_message_names_number_seat_and_reason() -> None:
    data = corrupt("gin_hand.json", lambda d: d["actions"].__setitem__(3, [1, "discard 6S"]))
    # Throwing back 6S (drawn from the stock) is legal; seat 0 then takes it, so the knock
    # with 6S at action 12 is the first illegal action.
    with pytest.raises(
        RecordError, match=r"action 12 \(seat 1, 'knock 6S'\): 6S is not in your hand"
    ):
        load_record(data)
    bad = corrupt("gin_hand.json", lambda d: d["actions"].__setitem__(1, [1, "pass"]))
    with pytest.raises(RecordError, match=r"action 2 \(seat 1, 'pass'\): it is not seat 1's turn"):
        load_record(bad)


def test_missing_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "nope.json")


# ------------------------------------------------------------------------------ Basic Rummy


def test_rummy_worked_example_record_replays_to_an_scoring_11() -> None:
    from rummykit.games.rummy import RummyOutcome, RummyState

    state = load_record(golden("rummy_example.json"))
    assert isinstance(state, RummyState)
    r = state.result
    assert r is not None and (r.outcome, r.winner, r.points) == (RummyOutcome.OUT, 0, 11)
    assert hand_record(state, ["An", "Binh"]) == golden("rummy_example.json")


def test_rummy_match_record_replays_and_round_trips() -> None:
    from rummykit.games.rummy import RummyMatch

    data = golden("rummy_match.json")
    match = load_record(data)
    assert isinstance(match, RummyMatch) and match.result is not None
    assert match.players == 4 and match.game.options.melds_per_turn is None
    assert match.result.winners == (2,) and match.result.totals == (0, 0, 142, 0)
    assert [h.dealer for h in match.hands] == [0, 1]
    assert match_record(match, data["players"]) == data


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (
            corrupt("rummy_example.json", lambda d: d["actions"].__setitem__(4, [1, "meld 8H 9H"])),
            "action 5",
        ),
        (
            corrupt("rummy_example.json", lambda d: d["options"].update(melds_per_turn=0)),
            "melds_per_turn",
        ),
        (corrupt("rummy_example.json", lambda d: d.update(players=["An"])), "2 to 6 players"),
        (
            corrupt("rummy_example.json", lambda d: d.update(dealer=2)),
            "dealer must be a seat from 0 to 1",
        ),
        (corrupt("rummy_match.json", lambda d: d.update(players=["A", "B", "C"])), "hand 1"),
        (
            corrupt("gin_hand.json", lambda d: d.update(players=["A", "B", "C"])),
            "gin needs 2 players, not 3",
        ),
    ],
)
def test_malformed_rummy_records_are_refused(data: Any, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        load_record(data)


def test_rummy_classic_name_applies_the_preset() -> None:
    data = golden("rummy_example.json")
    data = {**data, "game": "rummy-classic", "options": {}}
    from rummykit.games.rummy import RummyState

    state = load_record(data)
    assert isinstance(state, RummyState) and state.game.options.melds_per_turn is None
    # under the classic preset the record saves its options in full under the base name
    saved = hand_record(state, ["An", "Binh"])
    assert saved["game"] == "rummy" and saved["options"]["melds_per_turn"] == "unlimited"
    assert saved["options"]["restock"] == "shuffle"


# ------------------------------------------------------------------------------ Crazy Rummy


def test_crazy_game_record_replays_seven_rounds() -> None:
    from rummykit.games.crazy import CrazyMatch

    data = golden("crazy_match.json")
    match = load_record(data)
    assert isinstance(match, CrazyMatch) and match.result is not None
    assert [h.round for h in match.hands] == list(range(1, 8))
    assert [h.dealer for h in match.hands] == [i % 3 for i in range(7)]
    assert match.result.winners == (2,) and match.result.totals == (500, 675, 140)
    assert match_record(match, data["players"]) == data


def test_crazy_round_record_names_its_round() -> None:
    from rummykit.games.crazy import CrazyState

    data = golden("crazy_round5.json")
    assert data["round"] == 5
    state = load_record(data)
    assert (
        isinstance(state, CrazyState)
        and state.round == 5
        and str(state.contract) == "2 books + 1 run"
    )
    assert state.result is not None and state.result.points == (90, 0)
    assert hand_record(state, data["players"]) == data


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (corrupt("crazy_round5.json", lambda d: d.update(round=9)), "rounds 1 to 7"),
        (
            corrupt("crazy_round5.json", lambda d: d.update(round="5")),
            "round must be a whole number",
        ),
        (corrupt("gin_hand.json", lambda d: d.update(round=1)), "unknown field"),
        (corrupt("crazy_round5.json", lambda d: d["options"].update(jokers=-1)), "jokers"),
        (corrupt("crazy_match.json", lambda d: d["hands"].append(d["hands"][0])), "already over"),
    ],
)
def test_malformed_crazy_records_are_refused(data: Any, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        load_record(data)


def test_records_that_could_not_load_are_never_written(tmp_path: Path) -> None:
    """A wrong number of names, or a seed a record cannot hold, is refused at once."""
    state = find_game("rummy").new_hand(players=3, seed=1)
    with pytest.raises(ValueError, match="3 seats needs 3 names, not 1"):
        hand_record(state, ["Ann"])
    with pytest.raises(ValueError, match="3 seats needs 3 names, not 4"):
        write_record(tmp_path / "r.json", state, ["a", "b", "c", "d"])
    assert not (tmp_path / "r.json").exists()
    for game in ("gin", "rummy", "crazy"):
        for seed in ("abc", 1.5, True):
            with pytest.raises(ValueError, match="seed must be a whole number or None"):
                find_game(game).new_hand(players=2, seed=seed)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="seed must be a whole number or None"):
            find_game(game).new_match(players=2, seed="7")  # type: ignore[arg-type]


class _Index:
    """An integer type that is not int (as NumPy's are)."""

    def __index__(self) -> int:
        return 7


def test_any_integer_type_is_a_seed_and_its_record_loads() -> None:
    state = find_game("gin").new_hand(seed=_Index())  # type: ignore[arg-type]
    assert type(state.seed) is int and state.seed == 7
    again = load_record(hand_record(state))
    assert again.view(0).to_dict() == state.view(0).to_dict()


@pytest.mark.parametrize("text", ['{"game": "gin", "seed": ' + "9" * 5000 + "}", "[" * 100_000])
def test_json_too_big_for_python_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(text)


@pytest.mark.parametrize("game", ["gin", "rummy", "crazy"])
def test_a_bool_dealer_or_a_fraction_of_players_is_refused(game: str) -> None:
    # True == 1, so a bool dealer passed as a seat and then wrote a record that failed to load.
    with pytest.raises(ValueError, match=r"not True|from 0 to"):
        find_game(game).new_hand(players=2, seed=1, dealer=True)
    with pytest.raises(TypeError, match=r"whole number, not 2\.0"):
        find_game(game).new_hand(players=2.0, seed=1)  # type: ignore[arg-type]

    class Two:  # an integer type of another library (NumPy's int64, say)
        def __index__(self) -> int:
            return 2

    hand = find_game(game).new_hand(players=Two(), seed=1)  # type: ignore[arg-type]
    assert hand.to_act is not None and len(hand.view(0).to_dict()["hand_sizes"]) == 2
    match = find_game(game).new_match(players=Two(), seed=1)  # type: ignore[arg-type]
    assert match.scores() == (0, 0)


@pytest.mark.parametrize("game", ["gin", "rummy", "crazy"])
def test_text_for_an_action_or_a_bool_for_a_seat_is_a_type_error(game: str) -> None:
    """Mistakes of the caller, not of the player: a TypeError saying what to give instead, and
    the state unchanged."""
    state = find_game(game).new_hand(players=2, seed=3)
    before = state.view(0).to_dict()
    legal = state.legal_actions()[0]
    with pytest.raises(TypeError, match="parse_action"):
        state.apply(str(legal))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat must be a whole number"):
        state.apply(legal, True)
    with pytest.raises(TypeError, match="seat must be a whole number"):
        state.can(legal, "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not None"):
        state.apply(None)  # type: ignore[arg-type]
    assert state.view(0).to_dict() == before
    state.apply(legal, state.to_act)  # the same action, given properly, is taken
