"""Action numbers and observation vectors for learning agents (rummykit.encoding)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import Buy, Down, Knock, LayOff, NewMeld, Swap, parse_action
from rummykit.cards import JOKER, STANDARD_PACK, Card
from rummykit.encoding import MELD_SHAPES, Encoder, GinEncoder, RummyEncoder, encoder_for
from rummykit.games import find_game
from rummykit.games.base import Phase
from rummykit.games.gin import Gin, GinState, GinView
from rummykit.games.rummy import Rummy, RummyState, RummyView
from rummykit.melds import Meld
from rummykit.record import load_record

RECORDS = Path(__file__).parent / "records"
CARD_PLANES = ("hand", "discard_top", "discard_below", "taken_this_turn")


def _cards_in(enc: Encoder, obs: list[float], name: str) -> set[Card]:
    plane = enc.plane(name)
    assert plane.size == 52
    return {c for c in STANDARD_PACK if obs[plane.start + c.index]}


def _rummy2() -> Encoder:
    return encoder_for("rummy", players=2)


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def _encoders() -> list[Encoder]:
    return [encoder_for("gin"), *(encoder_for("rummy", players=n) for n in range(2, 7))]


@pytest.mark.parametrize("enc", _encoders(), ids=repr)
def test_every_number_is_one_action_and_back(enc: Encoder) -> None:
    seen = set()
    for i in range(enc.num_actions):
        action = enc.action(i)
        assert enc.id_of(action) == i
        assert parse_action(str(action)) == action  # every numbered action is plain notation
        seen.add(str(action))
    assert len(seen) == enc.num_actions
    sizes = [p.size for p in enc.planes]
    assert sum(sizes) == enc.observation_size
    assert [p.start for p in enc.planes] == [sum(sizes[:k]) for k in range(len(sizes))]


def test_the_layouts_are_the_documented_ones() -> None:
    gin = encoder_for("gin")
    assert (gin.num_actions, gin.observation_size) == (265, 374)
    assert [str(gin.action(i)) for i in (0, 1, 2, 3, 4, 5, 56, 57, 108, 109, 264)] == [
        "draw", "take", "pass", "done", "biggin", "discard AC", "discard KS", "knock AC",
        "knock KS", "layoff AC 1", "layoff KS 3",
    ]  # fmt: skip
    rummy = encoder_for("rummy", players=4)
    assert rummy.num_actions == 1267
    assert len(MELD_SHAPES) == 329
    assert len({frozenset(m) for m in MELD_SHAPES}) == 329
    assert all(Meld.of(m).cards for m in MELD_SHAPES)  # every shape is a valid meld
    assert str(rummy.action(54)) == "meld AC AD AH AS"
    assert str(rummy.action(55)) == "meld AD AH AS"  # the three without clubs
    assert str(rummy.action(54 + 65)) == "meld AC 2C 3C"
    assert str(rummy.action(382)) == "meld JS QS KS"
    assert str(rummy.action(383)) == "layoff AC 1"
    assert str(rummy.action(1266)) == "layoff KS 17"
    # 6 card planes, 52 and a hand size per other seat, then 7 + players numbers (as documented)
    assert rummy.observation_size == 6 * 52 + 3 * 53 + 7 + 4
    sizes = [encoder_for("rummy", players=n).observation_size for n in range(2, 7)]
    assert sizes == [374, 428, 482, 536, 590]


def test_the_rules_worked_example_by_numbers() -> None:
    """RULES.md's worked example (An and Binh) replayed with action numbers only."""
    record = json.loads((RECORDS / "rummy_example.json").read_text())
    enc = encoder_for("rummy", players=2)
    moves = [(seat, enc.id_of(parse_action(text))) for seat, text in record["actions"]]
    numbers = [number for _, number in moves]
    assert numbers[:3] == [1, 54 + 6 * 5, 2 + 13 + 12]  # take, the four 7s, discard KD
    assert enc.action(numbers[7]) == NewMeld(_cards("3H 4H 5H"))
    assert numbers[7] == 54 + 65 + 2 * 66 + 11 + 10  # hearts' runs, from 3H, the shortest
    record["actions"] = []
    state = load_record(record)
    assert isinstance(state, RummyState)
    for seat, number in moves:
        view = state.view(seat)
        assert number in enc.legal_ids(view)
        assert enc.legal_mask(view)[number] == 1
        state.apply(enc.action(number), seat)
    assert state.result is not None and state.result.winner == 0 and state.result.points == 11


def _check_view(enc: Encoder, view: GinView | RummyView, hidden: set[Card]) -> None:
    """Everything an observation must satisfy, for one seat's view."""
    ids = enc.legal_ids(view)
    assert ids == sorted({enc.id_of(a) for a in view.legal_actions})
    assert len(ids) == len(view.legal_actions)
    mask = enc.legal_mask(view)
    assert len(mask) == enc.num_actions and sum(mask) == len(ids)
    assert all(mask[i] == 1 for i in ids)
    obs = enc.observation(view)
    assert len(obs) == enc.observation_size
    assert all(0.0 <= x <= 1.0 for x in obs)
    assert _cards_in(enc, obs, "hand") == set(view.hand)
    pile = view.discard_pile
    assert _cards_in(enc, obs, "discard_top") == set(pile[-1:])
    assert _cards_in(enc, obs, "discard_below") == set(pile[:-1])
    assert sum(obs[enc.plane("phase").start :][: enc.plane("phase").size]) == 1
    # No plane of card places marks a card the seat cannot know is there: another hand's unseen
    # cards. (``table_accepts`` marks cards by what they would fit, wherever they are.)
    for plane in enc.planes:
        if plane.size == 52 and plane.name != "table_accepts":
            marked = _cards_in(enc, obs, plane.name)
            assert not marked & hidden, plane.name


def _hidden(hands: list[list[Card]], seat: int, known: tuple[tuple[Card, ...], ...]) -> set[Card]:
    out: set[Card] = set()
    for s, hand in enumerate(hands):
        if s != seat:
            out |= set(hand) - set(known[s] if known else ())
    return out


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 1))
def test_random_gin_hands_by_numbers(seed: int, dealer: int) -> None:
    enc = encoder_for(Gin())
    assert isinstance(enc, GinEncoder)
    state = Gin().new_hand(seed=seed, dealer=dealer)
    assert isinstance(state, GinState)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        for seat in (0, 1):
            view = state.view(seat)
            before_knock = state.phase in (Phase.OFFER, Phase.DRAW, Phase.DISCARD)
            hidden = _hidden(state.hands, seat, view.known_cards) if before_knock else set()
            _check_view(enc, view, hidden)
            if seat != state.to_act:
                assert enc.legal_ids(view) == []
        assert state.to_act is not None
        view = state.view(state.to_act)
        state.apply(enc.action(rng.choice(enc.legal_ids(view))))
        steps += 1
        assert steps < 500
    final = state.view(0)
    assert enc.legal_ids(final) == []
    obs = enc.observation(final)
    assert obs[enc.plane("phase").start + 4] == 1.0  # hand over


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    preset=st.sampled_from(["rummy", "rummy-classic"]),
)
def test_random_basic_rummy_hands_by_numbers(players: int, seed: int, preset: str) -> None:
    game = Rummy.preset(preset)
    enc = encoder_for(preset, players=players)
    assert isinstance(enc, RummyEncoder)
    state = game.new_hand(players=players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        if steps % 3 == 0:
            for seat in range(players):
                view = state.view(seat)
                hidden = _hidden(state.hands, seat, view.known_cards)
                _check_view(enc, view, hidden)
                obs = enc.observation(view)
                table = {c for t in state.table for c in t.meld.cards}
                assert _cards_in(enc, obs, "table") == table
                fits = {
                    c
                    for c in STANDARD_PACK
                    if c not in table and any(t.meld.accepts(c) for t in state.table)
                }
                assert _cards_in(enc, obs, "table_accepts") == fits
                for k in range(1, players):
                    other = (seat + k) % players
                    size = obs[enc.plane(f"left{k}_hand_size").start]
                    assert size == pytest.approx(len(state.hands[other]) / 11)
                    assert _cards_in(enc, obs, f"left{k}_known") == set(view.known_cards[other])
        assert state.to_act is not None
        view = state.view(state.to_act)
        ids = enc.legal_ids(view)
        plays = [i for i in ids if isinstance(enc.action(i), NewMeld | LayOff)]
        state.apply(enc.action(rng.choice(plays if plays and rng.random() < 0.7 else ids)))
        steps += 1
        assert steps < 5000


def test_table_accepts_marks_the_cards_that_can_be_laid_off() -> None:
    record = json.loads((RECORDS / "rummy_example.json").read_text())
    record["actions"] = record["actions"][:5]  # An's four 7s and Binh's 8H 9H TH are down
    state = load_record(record)
    enc = encoder_for("rummy", players=2)
    obs = enc.observation(state.view(1))
    # 7H would fit below 8H 9H TH, but it is on the table already; the four 7s take nothing.
    assert _cards_in(enc, obs, "table_accepts") == {Card.parse("JH")}
    record["actions"] = record["actions"][:2]
    state = load_record(record)
    obs = enc.observation(state.view(0))
    assert _cards_in(enc, obs, "table_accepts") == set()


@pytest.mark.parametrize(
    ("call", "error", "says"),
    [
        (lambda: encoder_for("crazy"), ValueError, "Crazy Rummy encoder needs the number"),
        (lambda: encoder_for("rummy"), ValueError, "needs the number of players"),
        (lambda: encoder_for("rummy", players=7), ValueError, "2 to 6 players"),
        (lambda: encoder_for("rummy", players=cast(int, 2.0)), TypeError, "whole number"),
        (lambda: encoder_for("gin", players=3), ValueError, "2 players"),
        (lambda: encoder_for("poker"), ValueError, "unknown game"),
        (lambda: encoder_for("gin").action(265), ValueError, "from 0 to 264"),
        (lambda: encoder_for("gin").action(-1), ValueError, "no action number -1"),
        (lambda: encoder_for("gin").action(True), TypeError, "an int"),
        (lambda: encoder_for("gin").id_of(Buy()), ValueError, "no action number for buy"),
        (lambda: encoder_for("gin").id_of(LayOff(Card.parse("7H"), 4)), ValueError, "layoff 7H 4"),
        (
            lambda: encoder_for("rummy", players=2).id_of(Swap(Card.parse("7H"), 1)),
            ValueError,
            "swap 7H 1",
        ),
        (lambda: encoder_for("gin").id_of(Down(((),))), ValueError, "no action number"),
        (lambda: encoder_for("gin").id_of(Knock(cast(Card, JOKER))), ValueError, "knock X"),
        (lambda: encoder_for("gin").id_of(LayOff(Card.parse("AC"), True)), ValueError, "AC True"),
        (lambda: _rummy2().id_of(parse_action("meld 2C 3C 5C")), ValueError, "2C 3C 5C"),
        (lambda: _rummy2().id_of(NewMeld(_cards("AC AC 2C 3C"))), ValueError, "AC AC 2C"),
        (lambda: _rummy2().id_of(parse_action("layoff X 1")), ValueError, "layoff X 1"),
        (lambda: _rummy2().id_of(parse_action("layoff 7H 18")), ValueError, "layoff 7H 18"),
        (lambda: _rummy2().id_of(parse_action("discard X")), ValueError, "discard X"),
        (lambda: _rummy2().id_of(parse_action("pass")), ValueError, "no action number for pass"),
        (lambda: encoder_for("gin").id_of(parse_action("discard X")), ValueError, "discard X"),
        (
            lambda: encoder_for("gin").id_of(parse_action("knock 9S: 7C 7D 7S")),
            ValueError,
            "knock 9S: 7C",
        ),
        (lambda: encoder_for("gin").plane("nope"), ValueError, "known: hand"),
    ],
)
def test_bad_calls_say_what_is_wrong(call: Any, error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        call()


def test_a_view_of_another_game_or_table_size_is_refused() -> None:
    gin_view = Gin().new_hand(seed=1).view(0)
    rummy_view = find_game("rummy").new_hand(players=3, seed=1).view(0)
    with pytest.raises(TypeError, match="reads a GinView"):
        encoder_for("gin").observation(rummy_view)
    with pytest.raises(TypeError, match="reads a RummyView"):
        encoder_for("rummy", players=3).legal_ids(gin_view)
    with pytest.raises(ValueError, match="for 4 players; the view is of a table of 3"):
        encoder_for("rummy", players=4).observation(rummy_view)
    assert repr(encoder_for("rummy", players=3)) == "encoder_for('rummy', players=3)"


def test_a_match_view_is_read_as_its_hand_in_play() -> None:
    match = Gin().new_match(seed=3)
    enc = encoder_for("gin")
    assert enc.observation(match.view(1)) == enc.observation(match.hand.view(1))
    assert enc.legal_ids(match.view(match.hand.to_act or 0)) == enc.legal_ids(
        match.hand.view(match.hand.to_act or 0)
    )
    rummy = find_game("rummy").new_match(players=3, seed=3)
    three = encoder_for("rummy", players=3)
    assert three.observation(rummy.view(2)) == three.observation(rummy.hand.view(2))


def test_the_encoder_like_the_engine_core_needs_only_the_standard_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys; before = set(sys.modules);"
        "import rummykit.aids, rummykit.encoding, rummykit.env, rummykit.games, rummykit.record,"
        " rummykit.players;"
        "print(sorted({m.split('.')[0] for m in set(sys.modules) - before}"
        " - set(sys.stdlib_module_names) - {'rummykit'}))"
    )
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert fresh.stdout.strip() == "[]"


def _documented_planes(game: str, players: int) -> list[str]:
    """The observation planes in docs/encoding.md's table for ``game``, in the table's order."""
    text = (Path(__file__).parent.parent / "docs" / "encoding.md").read_text("utf-8")
    heading = {"gin": "## Gin Rummy", "rummy": "## Basic Rummy", "crazy": "## Crazy Rummy"}[game]
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    table = section.split("| observation | size | meaning |", 1)[1]
    names: list[str] = []
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cell = line.split("|")[1]
        found = re.findall(r"`(\w+)`", cell)
        if cell.strip().endswith("...") and "meld1" in found[0]:  # one plane per table meld
            found = [f"meld{m}" for m in range(1, 19)]
        elif cell.strip().endswith("..."):  # one plane per other seat: left1_..., left2_...
            found = [found[0].replace("left1", f"left{k}") for k in range(1, players)]
        names.extend(found)
    return names


@pytest.mark.parametrize(
    ("game", "players"), [("gin", 2), ("rummy", 2), ("rummy", 5), ("crazy", 2), ("crazy", 6)]
)
def test_the_documented_planes_are_the_encoders_in_order(game: str, players: int) -> None:
    planes = [p.name for p in encoder_for(game, players=players).planes]
    assert _documented_planes(game, players) == planes
