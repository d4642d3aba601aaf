"""Every game offers the same shape: hands with verify/can/apply/view, matches with a view."""

from __future__ import annotations

import pytest

from rummykit.actions import Discard, Draw
from rummykit.cards import STANDARD_PACK
from rummykit.games import find_game
from rummykit.games.base import IllegalActionError, MatchView
from rummykit.games.gin import GinMatchView
from rummykit.players import RandomPlayer
from rummykit.sim import play_hand

TABLES = [("gin", 2), ("rummy", 4), ("rummy-classic", 3), ("crazy", 4)]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_can_and_verify_agree_with_legal_actions(name: str, players: int) -> None:
    hand = find_game(name).new_hand(players=players, seed=5)
    for _ in range(40):
        seat = hand.to_act
        if seat is None:
            break
        legal = hand.legal_actions()
        candidates = [*legal, Draw(), *(Discard(c) for c in STANDARD_PACK[:13])]
        for action in candidates:
            assert hand.can(action, seat) == (action in legal), (name, action)
            if action not in legal:
                with pytest.raises(IllegalActionError):
                    hand.verify(action, seat)
        hand.apply(legal[0], seat)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_match_has_the_same_view(name: str, players: int) -> None:
    game = find_game(name)
    match = game.new_match(players=players, seed=9)
    bots = [RandomPlayer(seat) for seat in range(players)]
    first = match.view(1)
    assert isinstance(first, MatchView) and first.hand_number == 1 and not first.over
    assert first.scores == (0,) * players and first.hand_scores == ()
    assert first.hand.seat == 1 and first.to_dict()["hand"] == match.hand.view(1).to_dict()
    state = match.hand
    while state.to_act is not None:
        seat = state.to_act
        match.apply(bots[seat].choose(state.view(seat)), seat)
    after = match.view(0)
    assert state.result is not None and after.hand_scores == (state.result.scores,)
    assert after.scores == match.scores()
    data = after.to_dict()
    assert {"hand", "hand_number", "scores", "hand_scores", "result", "over"} <= set(data)
    assert isinstance(after, GinMatchView) == (name == "gin")
    if name == "gin":
        assert set(data) >= {"boxes", "target_score"}
    assert play_hand(game, bots, 3).is_over
