"""Seeded random play of Basic and Crazy Rummy gives exactly what it gave before the engines
were made faster (issue 30): every position's legal actions, in order, and every result.

The digests were recorded from commit 53fc064 (before that work). A change that alters any
legal-action list or its order, or any result, changes a digest: if that is meant, say why in
the commit and record the new digests.
"""

from __future__ import annotations

import hashlib
import random
from itertools import combinations

import pytest

from rummykit.cards import STANDARD_PACK, Card
from rummykit.games import Crazy, Rummy
from rummykit.games.base import Game, HandState
from rummykit.games.rummy.state import melds_in
from rummykit.melds import Meld, MeldKind, is_run, is_set

RECORDED = {
    ("crazy", 2): "1945e77201f5a00ae7472bb5",
    ("crazy", 4): "4ce81acaec35ca37e4665f16",
    ("crazy", 6): "c1110e19a1439bb31856e4a1",
    ("rummy", 2): "a1167d5301f636cd4c0667a7",
    ("rummy", 4): "89261c4ea7ddbb07eda7c28c",
    ("rummy", 6): "2823815dc3bc9b1c6a58b3d7",
    ("rummy-classic", 2): "28041f4c71a273da6ce5cb9d",
    ("rummy-classic", 4): "91109f7d373b3c29fbb68990",
    ("rummy-classic", 6): "d78633231875b6bd11ae403a",
}


def digest(game: Game, players: int, hands: int, seed: int, crazy: bool) -> str:
    """Play ``hands`` seeded random hands; a digest of each position's legal actions and each
    result (Crazy Rummy's hands go through rounds 1 to 7)."""
    record = hashlib.sha256()
    rng = random.Random(seed)
    for index in range(hands):
        dealer = index % players
        deal_seed = rng.randrange(1 << 62)
        state: HandState
        if crazy:
            assert isinstance(game, Crazy)
            state = game.new_hand(
                players=players, seed=deal_seed, dealer=dealer, round=index % 7 + 1
            )
        else:
            state = game.new_hand(players=players, seed=deal_seed, dealer=dealer)
        while not state.is_over:
            legal = state.legal_actions()
            record.update(repr(legal).encode())
            state.apply(rng.choice(legal))
        assert state.result is not None
        record.update(repr(state.result.to_dict()).encode())
    return record.hexdigest()[:24]


@pytest.mark.parametrize(("name", "players"), sorted(RECORDED))
def test_random_play_is_what_it_was(name: str, players: int) -> None:
    game: Game = Crazy() if name == "crazy" else Rummy.preset(name)
    hands = 7 if name == "crazy" else 6
    assert digest(game, players, hands, 300 + players, name == "crazy") == RECORDED[name, players]


def every_meld(cards: list[Card]) -> list[Meld]:
    """Every meld of ``cards`` by brute force, in melds_in's order: sets by rank (of three, then
    of four), then runs by suit, lowest card, length."""
    hand = sorted(set(cards), key=lambda c: c.index)
    sets = [
        Meld(MeldKind.SET, combo)
        for number in range(1, 14)
        for size in (3, 4)
        for combo in combinations([c for c in hand if c.number == number], size)
        if is_set(combo)
    ]
    runs = [
        Meld(MeldKind.RUN, tuple(STANDARD_PACK[suit * 13 + n] for n in range(low, high + 1)))
        for suit in range(4)
        for low in range(13)
        for high in range(low + 2, 13)
        if all(STANDARD_PACK[suit * 13 + n] in hand for n in range(low, high + 1))
    ]
    assert all(is_run(m.cards) for m in runs)
    return sets + runs


def test_melds_in_finds_every_meld_in_order() -> None:
    rng = random.Random(30)
    found = 0
    for _ in range(800):
        cards = rng.sample(STANDARD_PACK, rng.randrange(16))
        melds = melds_in(cards)
        assert melds == every_meld(cards)
        found += bool(melds)
    assert found > 150
