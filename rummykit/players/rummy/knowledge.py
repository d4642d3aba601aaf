"""What a Basic Rummy seat knows: cards as 52-bit masks, the melds on the table (which cards they
take), and the card memory read from a view (:func:`rummy_memory`, :class:`_Knowledge`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import STANDARD_PACK, Card
from rummykit.games.rummy import RummyView, hand_size
from rummykit.melds import Meld, MeldKind
from rummykit.players.tracking import (
    ALL_CARDS,
    CardMemory,
    SeatNotes,
)

_NEAR: Final = tuple(
    sum(
        c.bit
        for c in STANDARD_PACK
        if c is not card
        and (
            c.number == card.number
            or (c.suit_index == card.suit_index and abs(c.number - card.number) <= 2)
        )
    )
    for card in STANDARD_PACK
)
"""Per card index, the mask of cards of its rank or within two in its suit."""

_CLOSE: Final = tuple(
    sum(
        c.bit
        for c in STANDARD_PACK
        if c is not card
        and (
            c.number == card.number
            or (c.suit_index == card.suit_index and abs(c.number - card.number) == 1)
        )
    )
    for card in STANDARD_PACK
)
"""Per card index, the mask of cards of its rank or next to it in its suit."""

_RANK_BITS: Final = tuple(sum(1 << (13 * s + n) for s in range(4)) for n in range(13))


def _cards(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(STANDARD_PACK[low.bit_length() - 1])
        mask ^= low
    return out


def _points(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += STANDARD_PACK[low.bit_length() - 1].points
        mask ^= low
    return total


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


# ------------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class _MeldNumbers:
    """A meld on the table as numbers: a set of ``rank`` (0-12), or a run of ``suit`` lo..hi."""

    is_set: bool
    key: int
    lo: int
    hi: int
    mask: int


def _meld_numbers(meld: Meld) -> _MeldNumbers:
    cards = meld.cards
    if meld.kind is MeldKind.SET:
        n = cards[0].number - 1
        return _MeldNumbers(True, n, n, n, _mask(cards))
    return _MeldNumbers(False, cards[0].suit_index, cards[0].number - 1, cards[-1].number - 1, 0)


def _ends(table: Sequence[_MeldNumbers]) -> int:
    """The cards that fit a meld of the table now."""
    out = 0
    for m in table:
        if m.is_set:
            if m.mask.bit_count() == 3:
                out |= _RANK_BITS[m.key] & ~m.mask
        else:
            base = 13 * m.key
            if m.lo > 0:
                out |= 1 << (base + m.lo - 1)
            if m.hi < 12:
                out |= 1 << (base + m.hi + 1)
    return out


def _closure(hand: int, table: Sequence[_MeldNumbers]) -> int:
    """The cards of ``hand`` that can be laid off onto ``table``, one after another."""
    laid = 0
    for m in table:
        if m.is_set:
            if m.mask.bit_count() == 3:
                laid |= hand & _RANK_BITS[m.key] & ~m.mask
        else:
            base = 13 * m.key
            n = m.lo - 1
            while n >= 0 and hand >> (base + n) & 1:
                laid |= 1 << (base + n)
                n -= 1
            n = m.hi + 1
            while n <= 12 and hand >> (base + n) & 1:
                laid |= 1 << (base + n)
                n += 1
    return laid


# ------------------------------------------------------------------------ what a seat knows


@dataclass(frozen=True, slots=True)
class _Knowledge:
    """One seat's card memory, plus what only Basic Rummy has: a stock known after a restock."""

    memory: CardMemory
    next_stock: Card | None
    """The next stock card, when the stock is a discard pile turned over (known to everyone)."""
    stock_order: tuple[Card | None, ...] | None
    """The whole stock, top first, when it is a discard pile turned over (None where a card
    was never named, e.g. the first up-card); None when the order is not known."""
    ever_two_melds: bool
    """Some seat laid down two melds in one turn (so the table allows more than one)."""


def rummy_memory(view: RummyView, *, turn_over: bool = True) -> CardMemory:
    """Everything ``view.seat`` can know of the cards of a Basic Rummy hand, from its view alone.

    The history is replayed over the discard pile to learn what each seat took, threw and drew
    past. With ``turn_over`` (the ``rummy`` preset), a restocked stock is the old discard pile
    turned over, so the cards drawn from it are known; if the seat's own draws show that the pile
    was shuffled instead, that knowledge is dropped.

    >>> from rummykit.actions import Discard, Draw
    >>> from rummykit.games import Rummy
    >>> state = Rummy().new_hand(players=3, seed=4)
    >>> state.apply(Draw()); state.apply(Discard(state.hands[1][0]))
    >>> memory = rummy_memory(state.view(2))
    >>> memory.seats[1].discarded == (state.discard_pile[-1],)
    True
    """
    return _know(view, turn_over=turn_over).memory


def _know(view: RummyView, *, turn_over: bool = True) -> _Knowledge:
    seat = view.seat
    players = len(view.hand_sizes)
    stock = 52 - players * hand_size(players) - 1
    pile: list[Card | None] = [None]  # None: the first up-card, not named in the history
    took: list[list[Card]] = [[] for _ in range(players)]
    thrown: list[list[Card]] = [[] for _ in range(players)]
    refused: list[list[Card]] = [[] for _ in range(players)]
    holds: list[list[Card]] = [[] for _ in range(players)]
    order: list[Card | None] | None = None
    mine: list[Card] = []  # cards this seat drew from a turned-over stock
    played_by_me: set[Card] = set()
    restocks = 0
    two = False
    melds_now = 0
    last_actor = -1

    def drop(actor: int, card: Card) -> None:
        if card in holds[actor]:
            holds[actor].remove(card)

    for actor, text in view.history:
        if actor != last_actor:
            melds_now = 0
            last_actor = actor
        verb, _, rest = text.partition(" ")
        if verb == "take":
            card = pile.pop() if pile else None
            if card is not None:
                took[actor].append(card)
                holds[actor].append(card)
        elif verb == "draw":
            top = pile[-1] if pile else None
            if top is not None:
                refused[actor].append(top)
            stock -= 1
            if order:
                drawn = order.pop(0)
                if drawn is not None:
                    if actor == seat:
                        mine.append(drawn)
                    else:
                        holds[actor].append(drawn)
        elif verb == "discard":
            card = Card.parse(rest)
            pile.append(card)
            thrown[actor].append(card)
            drop(actor, card)
            if actor == seat:
                played_by_me.add(card)
            if stock == 0 and restocks < view.restocks and len(pile) >= 2:
                restocks += 1
                top_card = pile.pop()
                order = list(pile) if turn_over else None
                stock = len(pile)
                pile = [top_card]
        elif verb == "meld":
            melds_now += 1
            two = two or melds_now >= 2
            for word in rest.split():
                card = Card.parse(word)
                drop(actor, card)
                if actor == seat:
                    played_by_me.add(card)
        elif verb == "layoff":
            card = Card.parse(rest.split()[0])
            drop(actor, card)
            if actor == seat:
                played_by_me.add(card)
    hand = set(view.hand)
    if any(c not in hand and c not in played_by_me for c in mine):
        # The pile was shuffled, not turned over: what others drew from it is unknown.
        order = None
        for s in range(players):
            holds[s] = [c for c in holds[s] if c in took[s]]
    own = _mask(view.hand)
    public = _mask(view.discard_pile)
    for table_meld in view.table:
        public |= _mask(table_meld.meld.cards)
    visible = own | public
    notes = []
    for s in range(players):
        kept = [c for c in dict.fromkeys(holds[s]) if not visible & c.bit] if s != seat else []
        visible |= _mask(kept)
        notes.append(
            SeatNotes(
                took=tuple(took[s]),
                discarded=tuple(thrown[s]),
                refused=tuple(refused[s]),
                holds=tuple(kept),
                hidden=max(0, view.hand_sizes[s] - len(kept)) if s != seat else 0,
            )
        )
    memory = CardMemory(
        seat=seat,
        own=own,
        public=public,
        unseen=ALL_CARDS & ~visible,
        top=view.discard_pile[-1] if view.discard_pile else None,
        stock_size=view.stock_size,
        seats=tuple(notes),
    )
    next_stock = None
    stock_order = None
    if order is not None and len(order) == view.stock_size:
        stock_order = tuple(order)
        if order and order[0] is not None:
            next_stock = order[0]
    return _Knowledge(memory, next_stock, stock_order, two)
