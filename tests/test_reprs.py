"""Reprs that run and states that compare: ``eval(repr(x)) == x`` for cards, actions, options and
games, and ``==`` between hands in the same position (``state.clone() == state``)."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

import rummykit.actions
import rummykit.cards
import rummykit.games.crazy
import rummykit.games.gin
import rummykit.games.rummy
from rummykit.cards import JOKER, STANDARD_PACK
from rummykit.games import Crazy, Gin, Rummy
from rummykit.games.crazy import CrazyOptions
from rummykit.games.gin import GinOptions, NextDealer
from rummykit.games.options import OptionSpec
from rummykit.games.rummy import PRESETS, Restock, RummyOptions

NAMES: dict[str, Any] = {}
for module in (rummykit.cards, rummykit.actions, rummykit.games.gin, rummykit.games.rummy):
    NAMES.update({name: getattr(module, name) for name in module.__all__})
NAMES.update({name: getattr(rummykit.games.crazy, name) for name in rummykit.games.crazy.__all__})
"""What a user has after ``from rummykit.<module> import *`` of the cards, the actions and the
three games: the names a repr may use."""

GAMES = [(Gin, 2), (Rummy, 4), (Crazy, 4)]


def runs(value: Any) -> bool:
    return bool(eval(repr(value), dict(NAMES)) == value)  # (our own reprs only)


def test_every_card_and_the_joker_print_as_code_that_makes_them() -> None:
    for card in [*STANDARD_PACK, JOKER]:
        assert runs(card), repr(card)


def test_every_action_of_played_hands_prints_as_code_that_makes_it() -> None:
    """Every action legal somewhere in a few played hands of each game (draws, takes, buys,
    discards, melds, lay-downs with jokers, lay-offs with ends, swaps, knocks)."""
    kinds: set[str] = set()
    for game_type, players in GAMES:
        for seed in range(4):
            state = game_type().new_hand(players=players, seed=seed)
            rng = random.Random(seed)
            while not state.is_over:
                legal = state.legal_actions()
                for action in legal:
                    assert runs(action), repr(action)
                    kinds.add(type(action).__name__)
                state.apply(rng.choice(legal))
    assert {"Draw", "Take", "Discard", "Knock", "NewMeld", "LayOff", "Down", "Buy"} <= kinds


def _value(data: st.DataObject, spec: OptionSpec) -> Any:
    if spec.kind == "bool":
        return data.draw(st.booleans())
    if spec.kind == "choice":
        return data.draw(st.sampled_from(spec.choices))
    number = st.integers(spec.low, spec.high)
    return data.draw(number | st.none() if spec.none is not None else number)


@given(st.data())
def test_options_print_as_code_that_makes_them(data: st.DataObject) -> None:
    """Any options of any game, as their repr says (only what differs from the defaults or from
    the nearest preset, enums as ``Enum.MEMBER``), evaluate back to equal options, and so does
    the game they make."""
    cls: Any = data.draw(st.sampled_from([GinOptions, RummyOptions, CrazyOptions]))
    chosen = data.draw(st.lists(st.sampled_from(cls.SPECS), unique=True, max_size=4))
    values = {spec.name: _value(data, spec) for spec in chosen}
    try:
        options = cls(**values)
    except ValueError:
        assume(False)  # (options that do not go together: refused, as they should be)
    assert runs(options), repr(options)
    assert "<" not in repr(options)
    game = {GinOptions: Gin, RummyOptions: Rummy, CrazyOptions: Crazy}[cls](options)
    assert runs(game), repr(game)


def test_option_reprs_name_what_differs_from_the_defaults_or_the_preset() -> None:
    assert repr(GinOptions()) == "GinOptions()"
    assert repr(GinOptions(next_dealer=NextDealer.ALTERNATE)) == (
        "GinOptions(next_dealer=NextDealer.ALTERNATE)"
    )
    assert repr(PRESETS["rummy-classic"]) == "RummyOptions.preset('rummy-classic')"
    assert repr(RummyOptions(melds_per_turn=None, restock=Restock.SHUFFLE, restock_limit=2)) == (
        "RummyOptions.preset('rummy-classic', restock_limit=2)"
    )
    assert repr(RummyOptions(melds_per_turn=3)) == "RummyOptions(melds_per_turn=3)"
    assert repr(Rummy.preset("rummy-classic")) == "Rummy(RummyOptions.preset('rummy-classic'))"


def test_a_hand_equals_its_clone_and_its_deep_copy_until_one_of_them_moves() -> None:
    for game_type, players in GAMES:
        assert game_type() == game_type() and hash(game_type()) == hash(game_type())
        state = game_type().new_hand(players=players, seed=5)
        rng = random.Random(5)
        for _ in range(12):
            if state.is_over:
                break
            twin = state.clone()
            assert twin == state and copy.deepcopy(state) == state
            twin.apply(rng.choice(twin.legal_actions()))
            assert twin != state
            state.apply(twin.history[-1][1])
            assert twin == state  # (the same move: the same position again)
        other = game_type().new_hand(players=players, seed=6)
        assert other != state
        assert state != state.resample(0, random.Random(1)) or state.is_over


def test_every_game_answers_the_same_questions_of_a_hand() -> None:
    """One shape for the three games: ``is_over``, ``top_discard``, ``legal_actions(seat)`` (that
    seat's, empty when it is not its turn; a seat out of range refused)."""
    for game_type, players in GAMES:
        state = game_type().new_hand(players=players, seed=2)
        assert state.top_discard == state.discard_pile[-1] and state.is_over is False
        seat = state.to_act
        assert state.legal_actions(seat) == state.legal_actions()
        for other in range(players):
            if other != seat:
                assert state.legal_actions(other) == []
        for bad in (-1, players, 1.0):
            try:
                state.legal_actions(bad)
            except ValueError:
                continue
            raise AssertionError(f"seat {bad!r} was not refused")
