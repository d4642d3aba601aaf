"""Scoring a Gin hand's discards: the deadwood left, what the next stock card may bring
(the prospects, cached across decisions), the danger of feeding the opponent, and one more
draw ahead."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rummykit.cards import STANDARD_PACK, Card
from rummykit.games.gin import GinView
from rummykit.players.gin.common import _NEAR_MASKS, _near_in_hand
from rummykit.players.gin.memory import gin_memory
from rummykit.players.tracking import CardMemory, holding_chances, holding_weights, meld_chance
from rummykit.solver.deadwood import (
    best_discards,
    discard_deadwoods,
    hand_mask,
    min_deadwood_after_discard_mask,
    min_deadwood_mask,
)

__all__ = ["DEFAULT_WEIGHTS", "HARD_WEIGHTS", "MEDIUM_WEIGHTS", "DiscardWeights"]


@dataclass(slots=True)
class _Analysis:
    """What a decision needs from a view: card memory and the opponent's likely cards."""

    view: GinView
    memory: CardMemory
    opponent: int
    weights: list[float]
    chances: list[float]
    """Per card index, the chance the opponent holds it."""
    live: list[Card]
    """Unseen cards, which may still come from the stock."""
    draw_odds: list[float]
    """Per live card, the chance it is the next stock card (it is not in the opponent's hand)."""
    known_mask: int
    """The cards the opponent surely holds (taken from the discard pile)."""
    prospects: dict[tuple[int, int, int], tuple[float, float, float]] = field(default_factory=dict)
    """Memo of one decision: ``_prospects`` by (10-card mask, its deadwood, knock limit)."""
    draws: list[tuple[int, int, int, float]] = field(default_factory=list)
    """Per live card that may be drawn: its bit, its meld neighbours' mask, its points, its odds."""


def _analyse(view: GinView) -> _Analysis:
    memory = gin_memory(view)
    opponent = 1 - view.seat
    weights = holding_weights(memory, opponent)
    chances = holding_chances(memory, opponent, weights)
    live = list(memory.unseen_cards())
    odds = [max(0.0, 1.0 - chances[c.index]) for c in live]
    total = sum(odds)
    draw_odds = [o / total for o in odds] if total > 0 else odds
    known = hand_mask(view.known_cards[opponent])
    return _Analysis(view, memory, opponent, weights, chances, live, draw_odds, known)


def _build_meld_near_masks() -> tuple[int, ...]:
    out = []
    for card in STANDARD_PACK:
        mask = _NEAR_MASKS[card.index]
        base = 13 * card.suit_index
        for n in (card.number - 2, card.number + 2):
            if 1 <= n <= 13:
                mask &= ~(1 << (base + n - 1))
        out.append(mask)
    return tuple(out)


_MELD_NEAR_MASKS: Final = _build_meld_near_masks()
"""Per card index: the cards of its rank in other suits and next to it in its suit (a meld holding
the card holds one of these)."""


_AFTER_DISCARD: Final[dict[int, int]] = {}
"""The least deadwood after the best discard by 11-card mask, shared by every decision (a pure
function of the hand: a hard player asks for the same hands turn after turn)."""


_AFTER_DISCARD_LIMIT: Final = 1 << 18
"""Hands kept in :data:`_AFTER_DISCARD` before it is emptied (some 25 MB)."""


def _prospects(
    rest: list[Card], deadwood: int, an: _Analysis, limit: int
) -> tuple[float, float, float]:
    """What the next stock card may do for the 10-card hand ``rest`` (of ``deadwood``).

    Returns the expected deadwood saved, the chance it allows a knock and the chance of gin
    (each over the live cards, weighted by the chance each is the next stock card). A card that
    can join no meld with the hand's cards leaves ``min(deadwood, its points + spare)``, where
    ``spare`` is the least deadwood of the hand after its best discard (it stays deadwood unless
    thrown): one solver call for all such cards.
    """
    if deadwood == 0:
        return 0.0, 1.0, 1.0
    mask = hand_mask(rest)
    key = (mask, deadwood, limit)
    found = an.prospects.get(key)
    if found is not None:
        return found
    gain = knock = gin = 0.0
    cache = _AFTER_DISCARD
    spare = -1
    draws = an.draws
    if not draws:
        near = _MELD_NEAR_MASKS
        draws = an.draws = [
            (card.bit, near[card.index], card.points, odds)
            for card, odds in zip(an.live, an.draw_odds, strict=True)
            if odds
        ]
    for bit, next_to, points, odds in draws:
        if mask & bit:
            continue
        if mask & next_to:
            drawn = mask | bit
            value = cache.get(drawn, -1)
            if value < 0:
                if len(cache) >= _AFTER_DISCARD_LIMIT:
                    cache.clear()
                value = cache[drawn] = min_deadwood_after_discard_mask(drawn)
        else:
            if spare < 0:
                spare = min_deadwood_after_discard_mask(mask)
            value = points + spare
            if value > deadwood:
                value = deadwood
        if value < deadwood:
            gain += odds * (deadwood - value)
        if value <= limit:
            knock += odds
            if value == 0:
                gin += odds
    found = an.prospects[key] = (gain, knock, gin)
    return found


@dataclass(frozen=True, slots=True)
class DiscardWeights:
    """How the static discard score weighs its terms against the deadwood left (in points).

    score = deadwood - gain * (expected saving of the next draw) - knock * (chance the next draw
    allows a knock) - gin * (chance of gin on the next draw) + danger * (chance the opponent
    melds the card thrown). ``late_gain``, if set, is the gain weight when the stock is empty
    (it falls linearly from ``gain`` at a full stock).
    """

    gain: float = 2.0
    danger: float = 9.0
    knock: float = 0.0
    gin: float = 0.0
    late_gain: float | None = None
    known_only: bool = False
    """Judge danger only by the cards the opponent took and keeps: a card of the same rank or
    within two in suit is dangerous (1), any other safe (0)."""


DEFAULT_WEIGHTS: Final = DiscardWeights()
"""A balanced score: the next draw's saving counts double, feeding the opponent 9 points."""


MEDIUM_WEIGHTS: Final = DiscardWeights(gain=0.2, danger=6.0, known_only=True)
"""Medium's weights: the least deadwood, the next draw only breaking ties, and cards next to
what the opponent took held back."""


HARD_WEIGHTS: Final = DiscardWeights(knock=30.0)
"""Hard's weights: a draw that allows a knock is worth about 30 points of deadwood."""


def _discard_scores(
    hand: Sequence[Card],
    candidates: Sequence[Card],
    an: _Analysis,
    weights: DiscardWeights = DEFAULT_WEIGHTS,
    limit: int = 10,
) -> dict[Card, tuple[float, int]]:
    """Per candidate discard: (score, deadwood left); the lowest score is best."""
    gain_weight = weights.gain
    if weights.late_gain is not None:
        share = min(1.0, an.view.stock_size / 31)
        gain_weight = weights.late_gain + (gain_weight - weights.late_gain) * share
    table = discard_deadwoods(hand)
    floor = min(table[c] for c in candidates)
    out: dict[Card, tuple[float, int]] = {}
    for card in candidates:
        deadwood = table[card]
        if deadwood > floor + 14:
            out[card] = (float(deadwood) + 100.0, deadwood)
            continue
        rest = [c for c in hand if c is not card]
        gain, knock, gin = _prospects(rest, deadwood, an, limit)
        if not weights.danger:
            danger = 0.0
        elif weights.known_only:
            danger = float(_near_in_hand(card, an.known_mask))
        else:
            danger = meld_chance(card, an.chances)
        score = (
            deadwood
            - gain_weight * gain
            - weights.knock * knock
            - weights.gin * gin
            + weights.danger * danger
            - 0.01 * card.number
        )
        out[card] = (score, deadwood)
    return out


def _static_value(
    rest: list[Card], deadwood: int, an: _Analysis, weights: DiscardWeights, limit: int
) -> float:
    """The static score of a 10-card hand (lower is better), without the danger of a discard."""
    gain, knock, gin = _prospects(rest, deadwood, an, limit)
    return deadwood - weights.gain * gain - weights.knock * knock - weights.gin * gin


def _after_draw_value(
    hand: list[Card],
    an: _Analysis,
    weights: DiscardWeights,
    limit: int,
    keep: Card | None = None,
    width: int = 2,
) -> float:
    """The best static score reachable from an 11-card ``hand`` by one discard (not ``keep``).

    Only the ``width`` discards leaving the least deadwood are scored in full.
    """
    table = discard_deadwoods(hand)
    options = sorted(
        (c for c in table if c is not keep), key=lambda c: (table[c], -c.points, -c.number)
    )[:width]
    best = float("inf")
    for card in options:
        rest = [c for c in hand if c is not card]
        value = _static_value(rest, table[card], an, weights, limit)
        value += weights.danger * meld_chance(card, an.chances)
        if value < best:
            best = value
    return best


def _lookahead_value(rest: list[Card], an: _Analysis, weights: DiscardWeights, limit: int) -> float:
    """The expected static score of a 10-card hand after the next stock card and the best discard.

    Every live card is tried, weighted by the chance it is the next stock card.
    """
    mask = hand_mask(rest)
    base: float | None = None
    total = 0.0
    for card, odds in zip(an.live, an.draw_odds, strict=True):
        if not odds:
            continue
        if card.points >= 10 and not _near_in_hand(card, mask):
            if base is None:
                base = _static_value(rest, min_deadwood_mask(mask), an, weights, limit)
            value = base + weights.danger * meld_chance(card, an.chances)
        else:
            rest.append(card)
            value = _after_draw_value(rest, an, weights, limit)
            rest.pop()
        total += odds * value
    return total


def _gin_outs(rest: list[Card], an: _Analysis) -> int:
    """How many live cards would give the 10-card hand ``rest`` gin on the next draw."""
    outs = 0
    mask = hand_mask(rest)
    for card in an.live:
        if _near_in_hand(card, mask):
            rest.append(card)
            if best_discards(rest)[0] == 0:
                outs += 1
            rest.pop()
    return outs
