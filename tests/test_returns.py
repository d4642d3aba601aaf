"""``returns()`` of hands and matches: one scale for every game, higher better, adding up to 0."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.games import find_game
from rummykit.games.base import standings

SETUPS = [("gin", 2), ("rummy", 2), ("rummy-classic", 4), ("crazy", 3), ("crazy", 5)]


def _play_hand(state: object, rng: random.Random) -> None:
    while not state.is_over:  # type: ignore[attr-defined]
        state.apply(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]


@settings(max_examples=examples(25), deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6))
def test_a_hands_returns_add_up_to_zero_and_rank_the_seats(
    setup: tuple[str, int], seed: int
) -> None:
    name, players = setup
    game = find_game(name)  # (Crazy Rummy: random play rarely goes out; 5 restocks end it)
    state = game.new_hand(players=players, seed=seed)
    assert state.returns() == (0.0,) * players  # nothing is decided yet
    _play_hand(state, random.Random(seed))
    returns = state.returns()
    result = state.result
    assert result is not None and len(returns) == players
    assert math.isclose(sum(returns), 0.0, abs_tol=1e-9)
    scores = result.scores
    # Better for each seat exactly when its score is better (higher; in Crazy Rummy lower).
    for a in range(players):
        for b in range(players):
            better = scores[a] < scores[b] if game.low_total_wins else scores[a] > scores[b]
            assert (returns[a] > returns[b]) == better
    if result.winner is not None:
        assert returns[result.winner] == max(returns)


@pytest.mark.parametrize(("name", "players"), [("gin", 2), ("rummy", 3), ("crazy", 3)])
def test_a_matchs_returns_are_its_final_standings(name: str, players: int) -> None:
    game = find_game(name, {"target_score": 30} if name != "crazy" else {})
    match = game.new_match(players=players, seed=5)
    rng = random.Random(5)
    assert match.returns() == (0.0,) * players
    while not match.is_over:
        if match.hand.is_over:
            assert match.returns() == standings(match.scores(), low_wins=game.low_total_wins)
            match.next_hand()
            continue
        match.apply(rng.choice(match.hand.legal_actions()))
    assert match.result is not None
    assert match.returns() == standings(match.result.totals, low_wins=game.low_total_wins)
    best = max(range(players), key=lambda s: match.returns()[s])
    assert best in match.result.winners


def test_standings_refuse_a_table_of_one() -> None:
    with pytest.raises(ValueError, match="two seats or more"):
        standings((5,))
