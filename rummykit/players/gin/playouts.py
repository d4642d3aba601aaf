"""The hard Gin player's search: deals of the unseen cards sampled to fit what the opponent
did, and each hand played out to its end, knocking now or waiting."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final

from rummykit.cards import Card
from rummykit.games.gin import GinOptions, GinView
from rummykit.melds import Meld, MeldKind
from rummykit.players.gin.common import WALL, _best_without
from rummykit.players.gin.evaluation import _Analysis
from rummykit.players.gin.levels import _greedy_take
from rummykit.players.tracking import sample_hands
from rummykit.solver.deadwood import best_arrangement, hand_mask, mask_cards, min_deadwood_mask

__all__ = ["OPPONENT_DEADWOOD"]


def _layoff_deadwood(mask: int, melds: Sequence[Meld]) -> int:
    """The defender's least deadwood after its best lay-offs onto ``melds`` (as best_layoffs)."""
    per_meld: list[list[int]] = []
    for meld in melds:
        cards = meld.cards
        options = [0]
        if meld.kind is MeldKind.SET:
            if len(cards) == 3:
                missing = sum(1 << (13 * s + cards[0].number - 1) for s in range(4)) & ~hand_mask(
                    cards
                )
                if mask & missing:
                    options.append(missing)
        else:
            base = 13 * cards[0].suit_index
            below: list[int] = []
            n = cards[0].number - 1
            while n >= 1 and mask >> (base + n - 1) & 1:
                below.append((below[-1] if below else 0) | 1 << (base + n - 1))
                n -= 1
            above: list[int] = []
            n = cards[-1].number + 1
            while n <= 13 and mask >> (base + n - 1) & 1:
                above.append((above[-1] if above else 0) | 1 << (base + n - 1))
                n += 1
            options.extend(below)
            options.extend(above)
            options.extend(b | a for b in below for a in above)
        if len(options) > 1:
            per_meld.append(options)
    best = min_deadwood_mask(mask)
    if not per_meld:
        return best
    for combo in product(*per_meld):
        laid = 0
        for bits in combo:
            if laid & bits:
                break
            laid |= bits
        else:
            if laid:
                value = min_deadwood_mask(mask ^ laid)
                if value < best:
                    best = value
    return best


def _settle(
    knocker_hand: list[Card], deadwood: int, defender_hand: list[Card], options: GinOptions
) -> int:
    """Points of a knock for the knocker (negative when the defender undercuts)."""
    if deadwood == 0:
        return options.gin_bonus + min_deadwood_mask(hand_mask(defender_hand))
    melds = best_arrangement(knocker_hand).melds
    defender = _layoff_deadwood(hand_mask(defender_hand), melds)
    if defender <= deadwood:
        return -(deadwood - defender + options.undercut_bonus)
    return defender - deadwood


def _playout(
    hands: list[list[Card]],
    stock: Sequence[Card],
    top: Card | None,
    turn: int,
    can_take: bool,
    options: GinOptions,
) -> int:
    """Both seats play greedily from ``turn``'s draw to the end; points for seat 0 (signed).

    ``hands`` are changed in place; ``stock`` is not. Seat 0 draws from the end of ``stock`` and
    seat 1 from its start: as the stock is in random order this deals the same cards as one pile
    would, but a seat's own draws do not shift when the other seat takes a discard instead, so
    playouts of different moves on the same deal stay comparable.
    """
    if len(stock) <= WALL:
        return 0  # the discard before this turn cancelled the hand
    limit = options.knock_limit
    masks = [hand_mask(hands[0]), hand_mask(hands[1])]
    low = 0
    high = len(stock)
    while True:
        hand = hands[turn]
        mask = masks[turn]
        taken: Card | None = None
        if can_take and top is not None and _greedy_take(hand, mask, top, limit):
            taken = top
            hand.append(top)
            mask |= top.bit
        else:
            if turn:
                card = stock[low]
                low += 1
            else:
                high -= 1
                card = stock[high]
            hand.append(card)
            mask |= card.bit
        deadwood, thrown = _best_without(hand, taken)
        hand.remove(thrown)
        masks[turn] = mask ^ thrown.bit
        if deadwood <= limit:
            points = _settle(hand, deadwood, hands[1 - turn], options)
            return points if turn == 0 else -points
        if high - low <= WALL:
            return 0
        top = thrown
        can_take = True
        turn ^= 1


@dataclass(slots=True)
class _Deal:
    """One determinization: the opponent's whole hand; the stock is the other unseen cards."""

    opponent: list[Card]
    hidden: int
    """The mask of the opponent's sampled hidden cards."""


def _last_turn(history: Sequence[tuple[int, str]], seat: int) -> list[str]:
    """The actions of ``seat``'s most recent turn (empty if it has not played)."""
    end = len(history)
    while end and history[end - 1][0] != seat:
        end -= 1
    start = end
    while start and history[start - 1][0] == seat:
        start -= 1
    return [text for _, text in history[start:end]]


OPPONENT_DEADWOOD: Final = (57, 47, 38, 31, 28, 26, 24, 21, 19, 18, 17, 16, 15)
"""The opponent's typical deadwood after it has discarded 0, 1, 2, ... times (15 from then on),
measured at the hard player's discards against medium and hard over hands still in play. Hands
dealt from the unseen cards by the per-card weights alone average far more (after 3 discards
about 45 rather than 31; after 6, 38 rather than 24): a player who has drawn and thrown for a few
turns has kept the cards that work together."""


def _tilt(values: Sequence[int], target: float) -> list[float]:
    """Weights ``exp(-s * v)`` (``s >= 0``) that bring the weighted mean of ``values`` down to about
    ``target``; all 1 when the plain mean is already at most ``target``.

    >>> [round(w, 2) for w in _tilt([10, 20, 30], 20)], _tilt([10, 20], 30)
    ([1.0, 1.0, 1.0], [1.0, 1.0])
    >>> weights = _tilt([10, 20, 30], 15)
    >>> round(sum(w * v for w, v in zip(weights, [10, 20, 30])) / sum(weights))
    15
    """
    if statistics.fmean(values) <= target:
        return [1.0] * len(values)
    floor = min(values)
    low, high = 0.0, 1.0
    weights = [1.0] * len(values)
    for _ in range(20):
        mid = (low + high) / 2
        weights = [math.exp(-mid * (v - floor)) for v in values]
        mean = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
        if mean > target:
            low = mid
        else:
            high = mid
    return weights


def _sample_deals(
    view: GinView,
    an: _Analysis,
    rng: random.Random,
    count: int,
    limit: int,
    pool: int = 1,
) -> list[_Deal]:
    """``count`` deals of the unseen cards (opponent's hand, stock order) consistent with the view.

    Cards are drawn by the per-card weights of :func:`holding_weights`; then whole hands that
    would not explain what the opponent just did are dealt again, most of the time: a hand it
    could have knocked with (it discarded instead), a discard that broke one of its melds, an
    up-card it drew past although it would have made a meld, a card it took that fits none of its
    melds. The opponent may be a person who plays otherwise, so no hand is ruled out entirely.

    With ``pool`` > 1, ``pool * count`` hands are dealt so and ``count`` drawn from them (with
    replacement) favouring low deadwood, exponentially, just enough that their mean deadwood is
    the opponent's typical deadwood at this point of the hand (:data:`OPPONENT_DEADWOOD`) rather
    than the much higher mean of hands dealt at random.
    """
    memory = an.memory
    opp = an.opponent
    notes = memory.seats[opp]
    known = an.known_mask
    turn = _last_turn(view.history, opp)
    discarded = Card.parse(turn[-1][8:]) if turn and turn[-1].startswith("discard ") else None
    refused = notes.refused[-1] if "draw" in turn and notes.refused else None
    took = list(notes.holds)

    judged: dict[int, int] = {}  # the deadwood of each hand accept has seen

    def accept(seat: int, hidden: int) -> bool:
        mask = hidden | known
        deadwood = judged[mask] = min_deadwood_mask(mask)
        odds = 1.0
        if discarded is not None:
            if deadwood <= limit:
                odds *= 0.02 if deadwood == 0 else 0.2
            if min_deadwood_mask(mask | discarded.bit) < deadwood + discarded.points:
                odds *= 0.3  # the card it threw would have been in a meld
        if (
            refused is not None
            and not mask & refused.bit
            and min_deadwood_mask(mask | refused.bit) < deadwood + refused.points - 3
        ):
            odds *= 0.4  # the up-card would have made a meld and saved points
        for card in took:
            if min_deadwood_mask(mask ^ card.bit) + card.points <= deadwood:
                odds *= 0.4  # it keeps the card it took outside any meld
        return odds >= 1.0 or rng.random() < odds

    hands = sample_hands(memory, opp, rng, an.weights, count * pool, accept=accept)
    if pool > 1:
        turns = min(len(notes.discarded), len(OPPONENT_DEADWOOD) - 1)
        values = [judged.get(h | known) for h in hands]
        deadwoods = [
            min_deadwood_mask(h | known) if v is None else v
            for h, v in zip(hands, values, strict=True)
        ]
        weights = _tilt(deadwoods, OPPONENT_DEADWOOD[turns])
        hands = rng.choices(hands, weights, k=count)
    known_cards = list(view.known_cards[opp])
    return [_Deal([*known_cards, *mask_cards(hidden)], hidden) for hidden in hands]


def _stock_of(an: _Analysis, deal: _Deal, rng: random.Random) -> list[Card]:
    """A random order of the stock of ``deal`` (the unseen cards it did not give the opponent)."""
    stock = [c for c in an.live if not deal.hidden & c.bit]
    rng.shuffle(stock)
    return stock


def _with_sampled_chances(an: _Analysis, deals: Sequence[_Deal]) -> _Analysis:
    """``an`` with the opponent's holding chances (and the stock odds) counted over ``deals``."""
    counts = [0] * 52
    for deal in deals:
        for card in deal.opponent:
            counts[card.index] += 1
    n = len(deals)
    chances = [k / n for k in counts]
    odds = [max(0.0, 1.0 - chances[c.index]) for c in an.live]
    total = sum(odds)
    draw_odds = [o / total for o in odds] if total > 0 else odds
    return _Analysis(
        an.view, an.memory, an.opponent, an.weights, chances, an.live, draw_odds, an.known_mask
    )


def _paired_gain(values: Sequence[int], base: Sequence[int]) -> tuple[float, float]:
    """Mean and standard error of ``values - base`` over the same deals."""
    n = len(values)
    diffs = [a - b for a, b in zip(values, base, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5
