"""What every Gin level uses: the view check, the decision's generator, cards near a card,
melds a card makes, and the defender's lay-offs."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rummykit.actions import Done, LayOff
from rummykit.cards import STANDARD_PACK, Card
from rummykit.games.base import View
from rummykit.games.gin import GinView
from rummykit.players.base import checked_view, decision_rng
from rummykit.players.reasons import Suggestion, because
from rummykit.solver.deadwood import (
    best_arrangement,
    best_discards,
    best_layoffs,
    discard_deadwoods,
    min_deadwood_mask,
)

__all__ = ["WALL"]


WALL: Final = 2
"""An ordinary discard that leaves this many cards in the stock cancels the hand."""


def _gin_view(view: View) -> GinView:
    return checked_view(view, GinView, "Gin")


def _decision_rng(seed: int, view: GinView) -> random.Random:
    """A generator for one decision: the same seed and public history give the same draws."""
    history = ";".join(text for _, text in view.history)
    hand = "".join(c.text for c in view.hand)
    return decision_rng(seed, view.seat, view.dealer, history, hand)


def _build_near_masks() -> tuple[int, ...]:
    out = []
    for card in STANDARD_PACK:
        mask = 0
        for s in range(4):
            if s != card.suit_index:
                mask |= 1 << (13 * s + card.number - 1)
        base = 13 * card.suit_index
        for n in (card.number - 2, card.number - 1, card.number + 1, card.number + 2):
            if 1 <= n <= 13:
                mask |= 1 << (base + n - 1)
        out.append(mask)
    return tuple(out)


_NEAR_MASKS: Final = _build_near_masks()
"""Per card index: the cards of its rank in other suits and within 2 of it in its suit."""


def _near_in_hand(card: Card, mask: int) -> bool:
    """True if the hand ``mask`` holds a card of ``card``'s rank or within 2 of it in its suit."""
    return bool(mask & _NEAR_MASKS[card.index])


def _melds_with(hand_mask_: int, card: Card) -> bool:
    """True if ``card`` joins a meld in a best arrangement of the hand plus ``card``."""
    return min_deadwood_mask(hand_mask_ | card.bit) < min_deadwood_mask(hand_mask_) + card.points


def _throw_order(card: Card) -> tuple[int, int]:
    """Among equally good discards, throw the highest card (and the higher rank: a K runs less)."""
    return card.points, card.number


def _best_without(hand: Sequence[Card], keep: Card | None) -> tuple[int, Card]:
    """The least deadwood after one discard other than ``keep``, and the card to throw."""
    value, cards = best_discards(hand)
    options = [c for c in cards if c is not keep]
    if options:
        return value, max(options, key=_throw_order)
    table = discard_deadwoods(hand)
    best = min(v for c, v in table.items() if c is not keep)
    return best, max((c for c, v in table.items() if v == best and c is not keep), key=_throw_order)


def _meld_of(hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    """The meld ``card`` joins in the best arrangement of ``hand`` (which holds it), if any."""
    for meld in best_arrangement(hand).melds:
        if card in meld.cards:
            return tuple(meld.cards)
    return ()


def _layoff_decision(view: GinView) -> Suggestion:
    """The defender's best lay-offs, one at a time, then done."""
    plan = best_layoffs(view.hand, view.knock_melds)
    if plan.layoffs:
        card, index = plan.layoffs[0]
        action = LayOff(card, index + 1)
        if action in view.legal_actions:
            meld = tuple(view.knock_melds[index].cards)
            return Suggestion(action, because("gin.layoff", card=card, meld=meld))
    return Suggestion(Done(), because("nothing_fits").also("gin.keep", count=plan.deadwood))
