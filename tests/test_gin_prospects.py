"""The hard Gin player's look at the next stock card (``_prospects``) against the plain way: the
least deadwood after the best discard, solved afresh for every live card."""

from __future__ import annotations

from rummykit.cards import Card
from rummykit.games import Gin
from rummykit.games.base import Phase
from rummykit.players.gin import HardGinPlayer
from rummykit.players.gin.common import _gin_view
from rummykit.players.gin.evaluation import _MELD_NEAR_MASKS, _analyse, _Analysis, _prospects
from rummykit.solver.deadwood import hand_mask, min_deadwood, min_deadwood_after_discard


def plain_prospects(
    rest: list[Card], deadwood: int, an: _Analysis, limit: int
) -> tuple[float, float, float]:
    """``_prospects`` without shortcuts or memos, in the same order (so the same sums)."""
    if deadwood == 0:
        return 0.0, 1.0, 1.0
    gain = knock = gin = 0.0
    for card, odds in zip(an.live, an.draw_odds, strict=True):
        if not odds or card in rest:
            continue
        value = min_deadwood_after_discard([*rest, card])
        if value < deadwood:
            gain += odds * (deadwood - value)
        if value <= limit:
            knock += odds
            if value == 0:
                gin += odds
    return gain, knock, gin


def test_prospects_match_the_plain_way_at_every_discard_of_seeded_hands() -> None:
    players = [HardGinPlayer(11), HardGinPlayer(12)]
    checked = lone = 0
    for seed in (1, 2):
        state = Gin().new_hand(seed=seed, dealer=seed % 2)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = _gin_view(state.view(seat))
            if view.phase is Phase.DISCARD:
                an = _analyse(view)
                for card in view.hand:
                    rest = [c for c in view.hand if c is not card]
                    deadwood = min_deadwood(rest)
                    expected = plain_prospects(rest, deadwood, an, 10)
                    assert _prospects(rest, deadwood, an, 10) == expected
                    assert _prospects(rest, deadwood, an, 10) == expected  # memo
                    mask = hand_mask(rest)
                    lone += sum(not mask & _MELD_NEAR_MASKS[c.index] for c in an.live)
                    checked += 1
            state.apply(players[seat].choose(state.view(seat)), seat)
    assert checked > 100
    assert lone > 100  # the shortcut for cards that meld with nothing was exercised
