"""Lay-offs: the defender's best lay-offs onto the knocker's melds, then own melds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from rummykit.cards import Card
from rummykit.melds import Meld, MeldKind
from rummykit.solver.deadwood.arrangement import Arrangement, _best_arrangement_mask
from rummykit.solver.deadwood.core import hand_mask, min_deadwood_mask
from rummykit.solver.deadwood.tables import _CARDS


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """The defender's best play after a knock: lay-offs, then own melds.

    ``layoffs`` are ``(card, meld index)`` pairs (indices into the knocker's melds) in an order that
    is legal one card at a time; ``arrangement`` is the best arrangement of the cards left after the
    lay-offs; ``deadwood`` is the defender's resulting deadwood (equal to
    ``arrangement.deadwood``).
    """

    deadwood: int
    layoffs: tuple[tuple[Card, int], ...]
    arrangement: Arrangement


def _layoff_options(mask: int, meld: Meld) -> list[tuple[int, tuple[Card, ...]]]:
    """Every way to lay off cards of the hand ``mask`` onto one meld, as (mask, cards in order).

    The first option is laying off nothing. Runs take ``k`` cards below (laid off downwards) and
    ``j`` cards above (laid off upwards); a set of three takes its fourth card.
    """
    options: list[tuple[int, tuple[Card, ...]]] = [(0, ())]
    cards = meld.cards
    if meld.kind is MeldKind.SET:
        if len(cards) == 3:
            number = cards[0].number
            held = {c.suit_index for c in cards}
            for s in range(4):
                if s not in held:
                    card = _CARDS[13 * s + number - 1]
                    if mask & card.bit:
                        options.append((card.bit, (card,)))
        return options
    off = 13 * cards[0].suit_index
    lo = min(c.number for c in cards)
    hi = max(c.number for c in cards)
    below: list[Card] = []
    n = lo - 1
    while n >= 1 and mask >> (off + n - 1) & 1:
        below.append(_CARDS[off + n - 1])
        n -= 1
    above: list[Card] = []
    n = hi + 1
    while n <= 13 and mask >> (off + n - 1) & 1:
        above.append(_CARDS[off + n - 1])
        n += 1
    for k in range(len(below) + 1):
        for j in range(len(above) + 1):
            if k == j == 0:
                continue
            laid = (*below[:k], *above[:j])
            options.append((sum(c.bit for c in laid), laid))
    return options


def best_layoffs(hand: Iterable[Card], melds: Sequence[Meld]) -> LayoffPlan:
    """The defender's best lay-offs onto the knocker's ``melds``, then the best own melds.

    Exact: every combination of lay-offs is tried (cards go on one at a time; runs grow at either
    end, also beyond cards laid off earlier; a set of three takes its fourth card), and the cards
    left are arranged with the least deadwood. The plan with the least deadwood wins; among equal
    plans the one with the fewest lay-offs, then the first in a fixed order.
    """
    mask = hand_mask(hand)
    table = 0
    for meld in melds:
        if not isinstance(meld, Meld):
            raise TypeError(
                f"the knocker's melds are Meld objects, e.g. Meld.parse('3H 4H 5H'), not {meld!r}"
            )
        bits = hand_mask(meld.cards)
        if table & bits:
            raise ValueError("the knocker's melds share a card")
        table |= bits
    if table & mask:
        raise ValueError("a card is both in the hand and in the knocker's melds")
    per_meld = [_layoff_options(mask, meld) for meld in melds]
    best_key = (min_deadwood_mask(mask), 0)
    best_laid: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    best_mask = 0
    for combo in product(*per_meld):
        laid_mask = 0
        count = 0
        for bits, laid in combo:
            if laid_mask & bits:
                break
            laid_mask |= bits
            count += len(laid)
        else:
            if not laid_mask or (best_key[0] == 0 and count >= best_key[1]):
                continue
            key = (min_deadwood_mask(mask ^ laid_mask), count)
            if key < best_key:
                best_key = key
                best_laid = combo
                best_mask = laid_mask
    layoffs = tuple((card, i) for i, (_, laid) in enumerate(best_laid) for card in laid)
    arrangement = _best_arrangement_mask(mask ^ best_mask)
    return LayoffPlan(arrangement.deadwood, layoffs, arrangement)
