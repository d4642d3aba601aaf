"""What every part of a Crazy Rummy round builds on: the round's fields and the few
moves and questions the offer, the melding and the turn all use."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummykit.actions import Down
from rummykit.cards import AnyCard, Card
from rummykit.games.base import IllegalActionError, Phase
from rummykit.games.crazy.rules import CrazyOptions, CrazyOutcome, CrazyRoundResult
from rummykit.games.dealt import DealtHand
from rummykit.games.mechanics import ActionDispatch, ShuffledRestocks, Tagged
from rummykit.games.table_meld import TableMeld
from rummykit.solver.contract import Contract
from rummykit.wild_melds import Book, End, WildMeld, WildRules, hand_points, is_wild

if TYPE_CHECKING:
    from rummykit.games.crazy.game import Crazy

__all__ = ["CrazyRound"]


def _remove(hand: list[AnyCard], cards: Sequence[AnyCard]) -> None:
    for card in cards:
        hand.remove(card)


def _has_all(hand: Sequence[AnyCard], cards: Sequence[AnyCard]) -> bool:
    need = Counter(cards)
    have = Counter(hand)
    return all(have[c] >= n for c, n in need.items())


class CrazyRound(DealtHand[AnyCard], ActionDispatch, ShuffledRestocks):
    """What the parts of a Crazy Rummy round share: its fields, the ends a card can go on,
    the turn's phase in words, and the end of the round."""

    TITLE = "Crazy Rummy"
    OVER = "the round is over"
    game: Crazy
    options: CrazyOptions
    rules: WildRules
    round: int
    contract: Contract
    table: list[TableMeld[WildMeld]]
    laid_down: list[bool]
    buys: list[int]
    restocks: int
    _tags: list[list[Tagged]]
    """Per seat, cards it holds that everyone saw go in without a take (``PUBLIC``: a wild
    swapped out of a run) or that it drew from a restock's stock (the restock's number), for
    :meth:`resample`."""
    turn: int | None
    offered: AnyCard | None
    offer_from: int
    """Buys stop before this seat (the one that discarded the card on offer)."""
    buy_queue: list[int]
    result: CrazyRoundResult | None
    _down_memo: tuple[tuple[AnyCard | None, ...], Down | None] | None

    def _layoff_ends(self, card: AnyCard, meld: WildMeld) -> list[End | None]:
        """The ways ``card`` can be laid off onto ``meld``, as the end to name (None: no end).

        On a run, a 2 or a joker always names its end, and so does an ace that fits at both ends;
        any other natural card goes to the one end it fits and names none. A book has no ends.
        """
        if isinstance(card, Card) and card.number != 2:  # natural: off its rank or suit, no fit
            if isinstance(meld, Book):
                if card.rank is not meld.rank:
                    return []
            elif card.suit is not meld.suit:
                return []
        if isinstance(meld, Book):
            return [None] if meld.accepts(card, self.rules) else []
        ends = meld.layoff_ends(card, self.rules)
        if is_wild(card) or len(ends) > 1:
            return list(ends)
        return [None] if ends else []

    def _hand_to_play(self) -> list[AnyCard]:
        """The hand of the seat to act, once it has drawn (it may lay down, lay off, swap or
        discard)."""
        if self.phase is not Phase.DISCARD:
            raise IllegalActionError(self._phase_hint())
        return self.hands[self._actor()]

    def _phase_hint(self) -> str:
        if self.phase is Phase.OFFER:
            return "the dealer has the first pick of the up-card: take it or pass"
        if self.phase is Phase.BUY:
            return f"{self.offered} is offered for buying: buy it or pass"
        if self.phase is Phase.DRAW:
            if self.offered is None:
                return "draw first: draw from the stock (no card is on offer)"
            return f"draw first: take {self.offered} or draw from the stock"
        return "you have already drawn: lay down, lay off, swap or discard"

    def _finish_out(self, winner: int) -> None:
        self._end(CrazyOutcome.OUT, winner)

    def _finish_stock_out(self) -> None:
        self._end(CrazyOutcome.STOCK_OUT, None)

    def _end(self, outcome: CrazyOutcome, winner: int | None) -> None:
        self.phase = Phase.HAND_OVER
        self.to_act = None
        self.turn = None
        self.offered = None
        remaining = tuple(tuple(sorted(h, key=lambda c: c.sort_key)) for h in self.hands)
        points = tuple(hand_points(h) for h in self.hands)
        self.result = CrazyRoundResult(outcome, winner, points, remaining)
