"""Crazy Rummy soak: a thousand seven-round games at 2-6 players, every round checked.

The games run over both cores of the machine. Every round must end; at its end the 104 cards and
the jokers are all accounted for, every meld on the table is valid under the table's rules, and the
scores are the points left in each hand. Set RUMMYKIT_SOAK_GAMES to play more or fewer.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections import Counter

import pytest

from rummykit.actions import Action, Discard, Down, LayOff, Swap
from rummykit.cards import AnyCard, Card
from rummykit.games.crazy import Crazy, CrazyOptions, CrazyOutcome
from rummykit.wild_melds import Book, Run, hand_points, is_wild

pytestmark = pytest.mark.soak

GAMES = int(os.environ.get("RUMMYKIT_SOAK_GAMES", "1000"))

# A few tables with other options, so the soak covers them too.
OPTIONS = [
    CrazyOptions(),
    CrazyOptions(jokers=2, penalty_cards=2),
    CrazyOptions(max_buys_per_round=2, discard_to_go_out=True),
    CrazyOptions(max_wilds_run=1, max_wilds_book=2, swap_requires_down=False),
]


def potential(card: AnyCard, hand: list[AnyCard]) -> int:
    """How useful a card looks for books and runs (wilds most of all): a cheap discard guide."""
    if is_wild(card):
        return 100
    assert isinstance(card, Card)
    same_rank = sum(1 for c in hand if isinstance(c, Card) and c.number == card.number)
    near = sum(
        1
        for c in hand
        if isinstance(c, Card) and c.suit is card.suit and 0 < abs(c.number - card.number) <= 2
    )
    return same_rank + near


def choose(legal: list[Action], hand: list[AnyCard], rng: random.Random) -> Action:
    """Random play that leans towards going out: plays first, then keeps promising cards."""
    plays = [a for a in legal if isinstance(a, Down | LayOff | Swap)]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards and rng.random() < 0.7:
        low = min(potential(a.card, hand) for a in discards)
        return rng.choice([a for a in discards if potential(a.card, hand) == low])
    return rng.choice(legal)


def play(index: int) -> tuple[int, Counter[str], int]:
    """Play game ``index``; return (players, round outcomes, actions), raising on any breach."""
    players = 2 + index % 5
    game = Crazy(OPTIONS[index % len(OPTIONS)])
    match = game.new_match(players=players, seed=index, dealer=index % players)
    rng = random.Random(index)
    outcomes: Counter[str] = Counter()
    actions = 0
    while True:
        state = match.hand
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            match.apply(choose(state.legal_actions(), state.hands[seat], rng))
            actions += 1
            assert actions < 100_000, f"game {index} does not end"
        cards = [c for h in state.hands for c in h] + state.stock + state.discard_pile
        cards += [c for t in state.table for c in t.meld.cards]
        assert Counter(cards) == Counter(game.pack), f"game {index}: cards not conserved"
        for t in state.table:
            meld = t.meld
            again = (
                Book.of(meld.cards, game.rules)
                if isinstance(meld, Book)
                else Run.of(meld.cards, game.rules)
            )
            assert again == meld, f"game {index}: invalid meld {meld}"
        result = state.result
        assert result is not None
        assert result.points == tuple(hand_points(h) for h in state.hands)
        if result.outcome is CrazyOutcome.OUT:
            assert result.winner is not None and not state.hands[result.winner]
        outcomes[result.outcome.value] += 1
        if match.is_over:
            break
        match.next_hand()
    final = match.result
    assert final is not None and len(match.hands) == 7
    assert final.totals == match.scores()
    assert final.winners == tuple(i for i, t in enumerate(final.totals) if t == min(final.totals))
    return players, outcomes, actions


def test_a_thousand_seven_round_games() -> None:
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(play, range(GAMES), chunksize=10)
    assert len(results) == GAMES
    by_size = Counter(p for p, _, _ in results)
    assert set(by_size) == {2, 3, 4, 5, 6} or GAMES < 5
    outcomes: Counter[str] = Counter()
    for _, o, _ in results:
        outcomes.update(o)
    assert sum(outcomes.values()) == 7 * GAMES
    assert outcomes["out"] > GAMES  # players do go out, in more than one round a game on average
