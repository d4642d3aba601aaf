"""The Gin meld solver on the hands real games produce (bench/gin_hands.json), against a
straightforward reference: every meld of the hand, every way to pick disjoint ones."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from rummykit.cards import STANDARD_PACK, Card, parse_natural_cards
from rummykit.solver.deadwood import (
    best_discards,
    discard_deadwoods,
    hand_mask,
    min_deadwood,
    min_deadwood_after_discard,
    min_deadwood_after_discard_mask,
    min_deadwood_mask,
)

HANDS_FILE = Path(__file__).resolve().parent.parent / "bench" / "gin_hands.json"


def recorded(size: int) -> list[tuple[Card, ...]]:
    """The recorded hands of ``size`` cards."""
    data = json.loads(HANDS_FILE.read_text())
    return [parse_natural_cards(text) for text in data["hands"][str(size)]]


def melds_of(mask: int) -> list[int]:
    """Every set (3 or 4 cards of a rank) and run (3+ in a row in a suit, ace low) in ``mask``."""
    out = []
    for rank in range(13):
        suits = [s for s in range(4) if mask >> (13 * s + rank) & 1]
        if len(suits) >= 3:
            for left_out in [None, *suits] if len(suits) == 4 else [None]:
                out.append(sum(1 << (13 * s + rank) for s in suits if s != left_out))
    for suit in range(4):
        for low in range(13):
            run = 0
            for rank in range(low, 13):
                bit = 1 << (13 * suit + rank)
                if not mask & bit:
                    break
                run |= bit
                if rank - low >= 2:
                    out.append(run)
    return out


def points(mask: int) -> int:
    return sum(STANDARD_PACK[i].points for i in range(52) if mask >> i & 1)


@cache
def reference(mask: int) -> int:
    """The least deadwood: leave the lowest card out, or put it in each meld holding it."""
    if not mask:
        return 0
    low = mask & -mask
    best = STANDARD_PACK[low.bit_length() - 1].points + reference(mask ^ low)
    for meld in melds_of(mask):
        if meld & low:
            best = min(best, reference(mask ^ meld))
    return best


def reference_after_discard(mask: int) -> int:
    return min(reference(mask ^ (1 << i)) for i in range(52) if mask >> i & 1)


def test_the_recorded_set_is_what_the_benchmark_says() -> None:
    data = json.loads(HANDS_FILE.read_text())
    assert data["games"] == 30 and data["seed"] == 3
    tens, elevens = recorded(10), recorded(11)
    assert len(tens) >= 200 and len(elevens) >= 200
    assert all(len(set(h)) == 10 for h in tens)
    assert all(len(set(h)) == 11 for h in elevens)


def test_ten_card_hands_match_the_reference() -> None:
    for hand in recorded(10):
        mask = hand_mask(hand)
        expected = reference(mask)
        assert min_deadwood(hand) == expected, hand
        assert min_deadwood_mask(mask) == expected, hand
        after = reference_after_discard(mask)
        assert min_deadwood_after_discard(hand) == after, hand
        assert min_deadwood_after_discard_mask(mask) == after, hand


def test_eleven_card_hands_match_the_reference() -> None:
    for hand in recorded(11):
        mask = hand_mask(hand)
        each = {card: reference(mask ^ card.bit) for card in hand}
        best = min(each.values())
        assert min_deadwood_after_discard(hand) == best, hand
        assert min_deadwood_after_discard_mask(mask) == best, hand
        assert discard_deadwoods(hand) == each, hand
        value, winners = best_discards(hand)
        assert value == best, hand
        assert set(winners) == {c for c, v in each.items() if v == best}, hand
        assert min_deadwood(hand) == reference(mask), hand


def test_the_mask_entry_refuses_what_is_not_a_hand() -> None:
    for bad in (0, -1, 1 << 52, (1 << 12) - 1):
        with pytest.raises(ValueError):
            min_deadwood_after_discard_mask(bad)
