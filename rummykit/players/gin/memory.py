"""What a Gin seat knows of the cards: :func:`gin_memory` reads it from the view alone."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import Card
from rummykit.games.gin import GinView
from rummykit.players.tracking import ALL_CARDS, CardMemory, SeatNotes
from rummykit.solver.deadwood import hand_mask

__all__ = ["discarded_cards", "gin_memory"]


def gin_memory(view: GinView) -> CardMemory:
    """Everything ``view.seat`` can know of the cards of a Gin hand, from its view alone.

    The history is replayed over the discard pile to learn what each seat took, threw and drew
    past. The first up-card is known once it is seen in the pile or kept by whoever took it.
    """
    seat = view.seat
    took: list[list[Card | None]] = [[], []]
    refused: list[list[Card | None]] = [[], []]
    pile: list[Card | None] = [None]  # None: the first up-card, not named in the history
    face_down: Card | None = None
    passes = 0
    for actor, text in view.history:
        verb, _, rest = text.partition(" ")
        if verb == "take":
            took[actor].append(pile.pop() if pile else None)
        elif verb == "pass":
            passes += 1
            refused[actor].append(pile[-1] if pile else None)
        elif verb == "draw":
            if pile and passes != 2:  # right after two passes the draw is forced
                refused[actor].append(pile[-1])
            passes = 0
        elif verb == "discard":
            pile.append(Card.parse(rest))
        elif verb == "knock" and rest and actor == view.seat:
            face_down = Card.parse(rest.partition(":")[0])  # only the knocker sees its card
        # layoff, done and biggin leave the pile alone
    up: Card | None = None
    if None in pile and len(pile) == len(view.discard_pile):
        up = view.discard_pile[pile.index(None)]
    else:
        for s in (0, 1):
            if None in took[s]:
                named = [c for c in took[s] if c is not None]
                extra = [c for c in view.known_cards[s] if c not in named]
                if len(extra) == 1:
                    up = extra[0]

    def resolve(cards: list[Card | None]) -> tuple[Card, ...]:
        out = (c if c is not None else up for c in cards)
        return tuple(c for c in out if c is not None)

    own = hand_mask(view.hand)
    public = hand_mask(view.discard_pile)
    if face_down is not None:
        public |= face_down.bit
    visible = own | public
    hidden = [0, 0]
    for s in (0, 1):
        if s == seat:
            continue
        visible |= hand_mask(view.known_cards[s])
        hidden[s] = view.hand_sizes[s] - len(view.known_cards[s])
    if view.knocker is not None and view.knocker != seat:
        # The knocker's whole hand is face up: melds (with any lay-offs) and deadwood.
        table = 0
        for meld in view.knock_melds:
            table |= hand_mask(meld.cards)
        table |= hand_mask(view.knock_deadwood)
        public |= table & ~own
        visible |= table
        hidden[view.knocker] = 0
    unseen = ALL_CARDS & ~visible
    notes = tuple(
        SeatNotes(
            took=resolve(took[s]),
            discarded=tuple(discarded_cards(view.history, s)),
            refused=resolve(refused[s]),
            holds=view.known_cards[s],
            hidden=hidden[s] if s != seat else 0,
        )
        for s in (0, 1)
    )
    return CardMemory(
        seat=seat,
        own=own,
        public=public,
        unseen=unseen,
        top=view.discard_pile[-1] if view.discard_pile else None,
        stock_size=view.stock_size,
        seats=notes,
    )


def discarded_cards(history: Sequence[tuple[int, str]], seat: int) -> list[Card]:
    """The cards ``seat`` discarded face up, in order, from a history of (seat, notation)."""
    return [Card.parse(text[8:]) for s, text in history if s == seat and text[:8] == "discard "]
