"""Card memory and opponent inference: what one seat can know about every card, and what it may guess.

A strong player remembers every card that went by: what each opponent discarded, what they took
from the discard pile and what they let go past. From that they know which cards are still
*unseen* (in an opponent's hidden hand or in the stock) and can guess which unseen cards an
opponent probably holds: someone who took the 7 of hearts is likely keeping 7s or hearts near 7;
someone who threw the 7 or drew past it is not.

This module keeps that knowledge apart from any one game:

- :class:`SeatNotes` and :class:`CardMemory` record what one seat saw, built by a game's reader
  (:func:`~rummykit.players.gin.gin_memory` for Gin Rummy, in its players' module; a Basic Rummy
  or Crazy Rummy player can write its own reader over its view and reuse everything else).
- :func:`holding_weights` turns the notes into a relative likelihood, per unseen card, that it
  sits in a given opponent's hand; the meld shapes are a parameter (:func:`standard_partners`
  for sets and ace-low runs).
- :func:`holding_chances` turns weights into probabilities, :func:`meld_chance` says how likely
  an opponent can meld a card (the danger of discarding it), and :func:`sample_hidden` deals the
  unseen cards to the opponent and the stock at random, consistently with the view (used by
  determinized Monte Carlo search).

Cards are handled as indices (0-51) and 52-bit masks (bit ``card.index``), as in the solver.

>>> from rummykit.games import Gin
>>> from rummykit.players.gin import gin_memory
>>> state = Gin().new_hand(seed=7)
>>> state.pass_(); state.pass_(); state.draw()
>>> thrown = state.hands[1][0]
>>> state.discard(thrown)
>>> memory = gin_memory(state.view(0))
>>> memory.seats[1].discarded == (thrown,) and memory.seats[1].refused == (state.deal.up,)
True
>>> memory.unseen.bit_count() == memory.seats[1].hidden + memory.stock_size
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import STANDARD_PACK, Card
from rummykit.solver.deadwood import hand_mask

__all__ = [
    "ALL_CARDS",
    "CardMemory",
    "Partners",
    "SeatNotes",
    "holding_chances",
    "holding_weights",
    "meld_chance",
    "sample_hands",
    "sample_hidden",
    "standard_partners",
]

ALL_CARDS: Final = (1 << 52) - 1
"""The mask of the whole 52-card pack."""

Partners = Callable[[Card], Sequence[tuple[Card, Card]]]
"""For a card, every pair of other cards that forms a meld with it (the game's meld shapes)."""


@dataclass(frozen=True, slots=True)
class SeatNotes:
    """What one seat has shown the table during the hand, in the order it happened."""

    took: tuple[Card, ...]
    """Cards it took from the discard pile (including any it threw again later)."""
    discarded: tuple[Card, ...]
    """Cards it discarded face up."""
    refused: tuple[Card, ...]
    """Top discards it could have taken but drew from the stock (or passed) instead."""
    holds: tuple[Card, ...]
    """Cards it surely holds now (taken from the discard pile and not thrown again)."""
    hidden: int
    """How many of its cards nobody else can see."""


@dataclass(frozen=True, slots=True)
class CardMemory:
    """One seat's knowledge of every card at one moment of a hand.

    The masks split the pack: ``own`` (this seat's hand), ``public`` (face up: discard pile,
    melds on the table), the ``holds`` of every other seat, and ``unseen`` (the other seats'
    hidden cards and the stock, in some order nobody knows).
    """

    seat: int
    own: int
    public: int
    unseen: int
    top: Card | None
    """The top of the discard pile (the card the next player may take)."""
    stock_size: int
    seats: tuple[SeatNotes, ...]

    def unseen_cards(self) -> tuple[Card, ...]:
        """The unseen cards, in index order."""
        return _cards(self.unseen)

    def held_by(self, seat: int) -> int:
        """The mask of cards ``seat`` surely holds."""
        return hand_mask(self.seats[seat].holds)


def _cards(mask: int) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(STANDARD_PACK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _build_partners() -> tuple[tuple[tuple[Card, Card], ...], ...]:
    table = []
    for card in STANDARD_PACK:
        pairs: list[tuple[Card, Card]] = []
        same = [c for c in STANDARD_PACK if c.number == card.number and c is not card]
        pairs.extend((a, b) for i, a in enumerate(same) for b in same[i + 1 :])
        base = 13 * card.suit_index
        n = card.number
        for lo, hi in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)):
            if lo >= 1 and hi <= 13:
                pairs.append((STANDARD_PACK[base + lo - 1], STANDARD_PACK[base + hi - 1]))
        table.append(tuple(pairs))
    return tuple(table)


_PARTNERS: Final = _build_partners()


def standard_partners(card: Card) -> tuple[tuple[Card, Card], ...]:
    """Pairs forming a meld with ``card`` under sets of a rank and ace-low runs (Gin, Basic Rummy).

    >>> [f"{a} {b}" for a, b in standard_partners(Card.parse("2H"))][-3:]
    ['2D 2S', 'AH 3H', '3H 4H']
    >>> len(standard_partners(Card.parse("7S")))
    6
    """
    return _PARTNERS[card.index]


def _near(card: Card) -> tuple[tuple[Card, float], ...]:
    """Cards that combine with ``card`` and how closely: same rank or next in suit 1, two apart 0."""
    out: list[tuple[Card, float]] = [
        (c, 1.0) for c in STANDARD_PACK if c.number == card.number and c is not card
    ]
    base = 13 * card.suit_index
    for step, closeness in ((1, 1.0), (2, 0.0)):
        for n in (card.number - step, card.number + step):
            if 1 <= n <= 13:
                out.append((STANDARD_PACK[base + n - 1], closeness))
    return tuple(out)


_NEAR: Final = tuple(_near(c) for c in STANDARD_PACK)

# How much one piece of evidence multiplies the weight of a nearby card (close, two apart).
TOOK_FACTOR: Final = (2.5, 1.5)
DISCARD_FACTOR: Final = (0.55, 0.8)
REFUSED_FACTOR: Final = (0.75, 0.9)
MIN_WEIGHT: Final = 0.15
MAX_WEIGHT: Final = 6.0


def holding_weights(memory: CardMemory, seat: int) -> list[float]:
    """Per card index, how likely (relative) each unseen card is to be among ``seat``'s hidden cards.

    0 for every card that is not unseen. Every unseen card starts at 1; a card the seat took from
    the discard pile and keeps makes cards of its rank and next to it in suit likelier (it is
    building a meld with them); a card it threw or drew past makes them less likely (it would
    have kept or taken it). Weights stay between :data:`MIN_WEIGHT` and :data:`MAX_WEIGHT`.
    """
    notes = memory.seats[seat]
    factor = [1.0] * 52
    for evidence, (close, far) in (
        (notes.holds, TOOK_FACTOR),
        (notes.discarded, DISCARD_FACTOR),
        (notes.refused, REFUSED_FACTOR),
    ):
        for card in evidence:
            for near, closeness in _NEAR[card.index]:
                factor[near.index] *= close if closeness else far
    unseen = memory.unseen
    return [
        min(MAX_WEIGHT, max(MIN_WEIGHT, factor[i])) if unseen >> i & 1 else 0.0 for i in range(52)
    ]


def holding_chances(memory: CardMemory, seat: int, weights: Sequence[float]) -> list[float]:
    """Per card index, the chance that ``seat`` holds it: 1 for its known cards, else from weights.

    The unseen cards share the seat's hidden count in proportion to their weights (capped at 1).
    """
    total = sum(weights)
    hidden = memory.seats[seat].hidden
    scale = hidden / total if total > 0 else 0.0
    chances = [min(1.0, w * scale) for w in weights]
    for card in memory.seats[seat].holds:
        chances[card.index] = 1.0
    return chances


def meld_chance(
    card: Card, chances: Sequence[float], partners: Partners = standard_partners
) -> float:
    """The chance that a player holding cards with ``chances`` could meld ``card`` if given it.

    Treats the cards as independent: one minus the chance that no pair of partners is held.

    >>> chances = [0.0] * 52
    >>> chances[Card.parse("7C").index] = chances[Card.parse("7D").index] = 1.0
    >>> meld_chance(Card.parse("7H"), chances), meld_chance(Card.parse("8H"), chances)
    (1.0, 0.0)
    """
    miss = 1.0
    for a, b in partners(card):
        p = chances[a.index] * chances[b.index]
        if p:
            miss *= 1.0 - p
    return 1.0 - miss


def sample_hidden(
    memory: CardMemory,
    rng: random.Random,
    weights: Sequence[Sequence[float]],
    *,
    accept: Callable[[int, int], bool] | None = None,
    tries: int = 8,
) -> tuple[list[int], list[Card]]:
    """Deal the unseen cards at random: each other seat's hidden cards, then the stock.

    ``weights[seat]`` (as from :func:`holding_weights`; ignored for this memory's own seat) bias
    which unseen cards a seat gets (sampling without replacement in proportion to the weights).
    Returns, per seat, the mask of its hidden cards (0 for the own seat) and the stock in drawing
    order (the last card is drawn first). ``accept(seat, mask)`` may reject a seat's sample (it is
    dealt again, up to ``tries`` times, and the last one is kept): a way to use evidence about
    whole hands, such as "it would have knocked with that".
    """
    pool = list(_cards(memory.unseen))
    masks = [0] * len(memory.seats)
    for seat, notes in enumerate(memory.seats):
        if seat == memory.seat or notes.hidden == 0:
            continue
        w = weights[seat]
        chosen: list[Card] = []
        for _ in range(max(1, tries)):
            # Efraimidis-Spirakis: the k largest keys u ** (1 / w) are a weighted sample.
            keyed = sorted(pool, key=lambda c: rng.random() ** (1.0 / w[c.index]), reverse=True)
            chosen = keyed[: notes.hidden]
            mask = hand_mask(chosen)
            if accept is None or accept(seat, mask):
                break
        masks[seat] = hand_mask(chosen)
        taken = masks[seat]
        pool = [c for c in pool if not taken & c.bit]
    rng.shuffle(pool)
    return masks, pool


def sample_hands(
    memory: CardMemory,
    seat: int,
    rng: random.Random,
    weights: Sequence[float],
    count: int,
    *,
    accept: Callable[[int, int], bool] | None = None,
    tries: int = 8,
) -> list[int]:
    """``count`` random hidden hands of ``seat`` (masks), dealt as :func:`sample_hidden` deals them.

    The same law as :func:`sample_hidden` for one opponent (weighted sampling without replacement
    from the unseen cards, ``accept`` asked up to ``tries`` times), without dealing the stock: the
    rest of the unseen cards (``memory.unseen & ~mask``) are the stock, in an order nobody knows,
    to be shuffled by whoever needs one. Much cheaper when many hands are wanted.
    """
    pool = _cards(memory.unseen)
    size = memory.seats[seat].hidden
    if size == 0:
        return [0] * count
    bits = [c.bit for c in pool]
    exponents = [1.0 / weights[c.index] for c in pool]
    order = range(len(pool))
    draw = rng.random
    out = []
    for _ in range(count):
        mask = 0
        for _ in range(max(1, tries)):
            # Efraimidis-Spirakis: the k largest keys u ** (1 / w) are a weighted sample.
            keys = [draw() ** e for e in exponents]
            mask = 0
            for i in sorted(order, key=keys.__getitem__, reverse=True)[:size]:
                mask |= bits[i]
            if accept is None or accept(seat, mask):
                break
        out.append(mask)
    return out
