"""The start of a Crazy Rummy turn: the up-card offered (the dealer's first pick, then each
discard), buying it out of turn with penalty cards, drawing, and restocking from the pile."""

from __future__ import annotations

from rummykit.actions import Buy, Draw, Pass, Take
from rummykit.cards import AnyCard
from rummykit.games.base import IllegalActionError, Phase
from rummykit.games.crazy.round import CrazyRound

__all__ = ["CrazyOffer"]


class CrazyOffer(CrazyRound):
    """Taking, passing on, buying and drawing the offered card or the stock."""

    def _can_restock(self) -> bool:
        limit = self.options.max_restocks
        return limit is None or self.restocks < limit

    def _stock_available(self, keep_top: bool) -> int:
        """Cards that could come from the stock now (restocking the discard pile if needed)."""
        if not self._can_restock():
            return len(self.stock)
        pile = len(self.discard_pile) - (1 if keep_top and self.discard_pile else 0)
        return len(self.stock) + max(0, pile)

    def _can_buy(self, seat: int) -> bool:
        limit = self.options.max_buys_per_round
        if limit is not None and self.buys[seat] >= limit:
            return False
        return self._can_pay() and (not self.options.buy_keeps_draw or self._buy_leaves_draw())

    def _can_pay(self) -> bool:
        """Whether the stock can give a buyer the penalty cards (the bought card is the top of
        the pile; the rest of the pile may be shuffled into a new stock)."""
        return self._stock_available(keep_top=True) >= self.options.penalty_cards

    def _buy_leaves_draw(self) -> bool:
        """Whether, after a buy and its penalty cards, the player in turn still gets a card for
        the draw: from what the stock keeps, or from a new stock shuffled from the discards
        (those under the bought card, less the new top card, which stays face up)."""
        penalty = self.options.penalty_cards
        stock = len(self.stock)
        under = len(self.discard_pile) - 1  # the cards under the bought one
        if stock >= penalty:  # the penalty needs no new stock
            return stock > penalty or (self._can_restock() and under > 1)
        # The penalty shuffles every card under the bought one into a new stock (when allowed).
        return self._can_restock() and stock + under > penalty

    def _may_take(self, seat: int) -> bool:
        """Whether ``seat`` may take the offered card in its turn: not when its hand holds only
        twins of it (so taking it leaves nothing it may throw, unless ``discard_taken_twin``)
        and no copy can go onto the table."""
        card = self.offered
        hand = self.hands[seat]
        if card is None:
            return False
        if self.options.discard_taken_twin or any(c != card for c in hand):
            return True
        return self.laid_down[seat] and any(self._layoff_ends(card, t.meld) for t in self.table)

    def _verify_pick(self, action: Take | Pass | Buy | Draw) -> None:
        """Taking, passing on or buying the card on offer, or drawing: only when it is that
        seat's time to."""
        allowed = {
            Phase.OFFER: (Take, Pass),
            Phase.BUY: (Buy, Pass),
            Phase.DRAW: (Take, Draw) if self.offered is not None else (Draw,),
        }.get(self.phase, ())
        if not isinstance(action, allowed):
            raise IllegalActionError(self._phase_hint())

    def _verify_take(self, action: Take) -> None:
        self._verify_pick(action)
        if self.phase is Phase.DRAW and not self._may_take(self._actor()):
            raise IllegalActionError(
                f"taking {self.offered} would leave you only its twins, which you could not"
                " throw this turn, and none fits a meld on the table: draw from the stock"
            )

    def _verify_buy(self, action: Buy) -> None:
        self._verify_pick(action)
        actor = self._actor()
        if not self._can_buy(actor):
            limit = self.options.max_buys_per_round
            if limit is not None and self.buys[actor] >= limit:
                raise IllegalActionError(f"you may buy at most {limit} times a round")
            if not self._can_pay():
                raise IllegalActionError("there are not enough cards left to pay the penalty")
            raise IllegalActionError(
                f"the stock must keep a card for seat {self.turn}, who draws next after"
                " passing on the card (house rule buy_keeps_draw off allows the buy)"
            )

    def _perform_take(self, action: Take) -> None:
        seat = self._actor()
        card = self.discard_pile.pop()
        self.hands[seat].append(card)
        self.known[seat].append(card)
        self.offered = None
        if self.phase is Phase.OFFER:
            # The dealer's first pick: no discard; the next player draws from the stock.
            self.phase = Phase.DRAW
            self.to_act = self.turn
            return
        self.taken = card
        self.phase = Phase.DISCARD

    def _perform_pass(self, action: Pass) -> None:
        if self.phase is Phase.OFFER:
            self.phase = Phase.DRAW
            self.to_act = self.turn
            return
        self._next_buyer()

    def _perform_draw(self, action: Draw) -> None:
        """The player to move draws from the stock; first, others may buy the offered card."""
        turn = self.turn
        assert turn is not None
        if self.offered is None:
            self._draw_for_turn()
            return
        queue = []
        seat = (turn + 1) % self.players
        while seat != self.offer_from and seat != turn:
            queue.append(seat)
            seat = (seat + 1) % self.players
        self.buy_queue = queue
        self._next_buyer()

    def _next_buyer(self) -> None:
        while self.buy_queue:
            seat = self.buy_queue.pop(0)
            self.phase = Phase.BUY
            self.to_act = seat
            return
        self.offered = None
        self._draw_for_turn()

    def _perform_buy(self, action: Buy) -> None:
        seat = self._actor()
        card = self.discard_pile.pop()
        self.hands[seat].append(card)
        self.known[seat].append(card)
        self.buys[seat] += 1
        for _ in range(self.options.penalty_cards):
            drawn = self._from_stock(keep_top=False)
            assert drawn is not None  # _can_buy checked there were enough
            self.hands[seat].append(drawn)
            if self.restocks:
                self._tags[seat].append((self.restocks, drawn))
        self.buy_queue = []
        self.offered = None
        self._draw_for_turn()

    def _from_stock(self, keep_top: bool = True) -> AnyCard | None:
        """The top card of the stock, first turning the discard pile into a new stock if empty.

        The pile's top card stays face up, except while a card is being bought: the bought card
        has already left the pile, so the whole rest of the pile is shuffled.
        """
        keep = 1 if keep_top else 0
        if not self.stock and len(self.discard_pile) > keep and self._can_restock():
            self.restocks += 1
            top = self.discard_pile[len(self.discard_pile) - keep :]
            rest = self.discard_pile[: len(self.discard_pile) - keep]
            self._shuffle(rest)
            self.stock = rest
            self.discard_pile = top
        return self.stock.pop() if self.stock else None

    def _draw_for_turn(self) -> None:
        turn = self.turn
        assert turn is not None
        card = self._from_stock()
        if card is None:
            self._finish_stock_out()
            return
        self.hands[turn].append(card)
        if self.restocks:
            self._tags[turn].append((self.restocks, card))
        self.to_act = turn
        self.phase = Phase.DISCARD
        self.taken = None

    def _offer_discard(self, seat: int) -> None:
        self.turn = (seat + 1) % self.players
        self.to_act = self.turn
        self.offered = self.discard_pile[-1]
        self.offer_from = seat
        self.phase = Phase.DRAW
        self.taken = None
