"""One round of Crazy Rummy as a state: its deal, its legal actions, the discard that ends a
turn, resampling and views."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from rummykit.actions import Action, Buy, Discard, Down, Draw, LayOff, Pass, Swap, Take
from rummykit.cards import AnyCard, Card, parse_cards, parse_natural_cards
from rummykit.games.base import IllegalActionError, Phase, as_seat, check_player_count, checked_seat
from rummykit.games.crazy.melding import CrazyMelding
from rummykit.games.crazy.offer import CrazyOffer
from rummykit.games.crazy.rules import MAX_PLAYERS, MIN_PLAYERS, ROUNDS
from rummykit.games.crazy.view import CrazyView
from rummykit.games.deal import Deal
from rummykit.games.mechanics import PUBLIC, CloneableHand, redeal_unseen
from rummykit.solver.contract import CONTRACTS, HAND_SIZES
from rummykit.wild_melds import Run

if TYPE_CHECKING:
    from rummykit.games.crazy.game import Crazy

__all__ = ["CrazyState"]


class CrazyState(CrazyOffer, CrazyMelding, CloneableHand):
    """One round of Crazy Rummy: the up-card offer and buys, turns, contracts, going out.

    Use :meth:`legal_actions`, :meth:`verify`, :meth:`can` and :meth:`apply` (or the named
    methods :meth:`take`, :meth:`pass_`, :meth:`buy`, :meth:`draw`, :meth:`down`,
    :meth:`lay_off`, :meth:`swap`, :meth:`discard`). A refused action raises
    :class:`IllegalActionError` and changes nothing. :meth:`legal_actions` lists every legal
    action except that, of the many ways to lay down a contract, it lists the one that leaves the
    fewest points in hand; :meth:`verify` accepts any legal lay-down.
    """

    def __init__(
        self,
        game: Crazy,
        *,
        players: int = 4,
        seed: int | None = None,
        deal: Deal | None = None,
        dealer: int = 0,
        round: int = 1,
    ) -> None:
        players = check_player_count("Crazy Rummy", players, MIN_PLAYERS, MAX_PLAYERS)
        if isinstance(round, bool) or round not in range(1, ROUNDS + 1):
            raise ValueError(f"Crazy Rummy has rounds 1 to {ROUNDS}, not {round!r}")
        seat = as_seat(dealer, players)
        if seat is None:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
        self._deal_out(
            game,
            game.pack,
            players=players,
            dealer=seat,
            seed=seed,
            deal=deal,
            hand_size=HAND_SIZES[round - 1],
        )
        self.rules = game.rules
        self.round = round
        self.contract = CONTRACTS[round - 1]
        self.table = []
        self.laid_down = [False] * players
        self.buys = [0] * players
        self.restocks = 0
        self._tags = [[] for _ in range(players)]
        self.phase = Phase.OFFER
        self.to_act = seat
        self.turn = (seat + 1) % players
        self.offered = self.deal.up
        self.offer_from = seat  # buys stop before this seat
        self.buy_queue = []
        self.result = None
        self._down_memo = None

    def _repr_parts(self) -> list[str]:
        return [f"round={self.round}", *super()._repr_parts()]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for the seat to act (a contract: only its best lay-down); with
        ``seat``, that seat's: empty when it is not its turn."""
        if seat is not None and checked_seat(seat, self.players) != self.to_act:
            return []
        phase = self.phase
        if phase is Phase.OFFER:
            return [Take(), Pass()]
        if phase is Phase.BUY:
            assert self.to_act is not None
            return [Buy(), Pass()] if self._can_buy(self.to_act) else [Pass()]
        if phase is Phase.DRAW:
            assert self.to_act is not None
            can_take = self.offered is not None and self._may_take(self.to_act)
            return [Take(), Draw()] if can_take else [Draw()]
        if phase is not Phase.DISCARD:
            return []
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        actions: list[Action] = []
        if not self.laid_down[seat]:
            down = self._best_down(hand)
            if down is not None:
                actions.append(down)
        else:
            for card in dict.fromkeys(hand):
                for number, table_meld in enumerate(self.table, 1):
                    for end in self._layoff_ends(card, table_meld.meld):
                        layoff = LayOff(card, number, end)
                        after = partial(self._table_with_layoff, layoff)
                        if self._strands(1, None, card, after) is None:
                            actions.append(layoff)
        if self.laid_down[seat] or not self.options.swap_requires_down:
            for card in dict.fromkeys(c for c in hand if isinstance(c, Card)):
                for number, table_meld in enumerate(self.table, 1):
                    meld = table_meld.meld
                    if (
                        table_meld.owner != seat
                        and isinstance(meld, Run)
                        and meld.swap(card)
                        and self._swap_strands(Swap(card, number), hand) is None
                    ):
                        actions.append(Swap(card, number))
        # The card taken from the pile stays (and its twin, unless the table allows throwing it).
        if self.taken is None:
            actions.extend(Discard(c) for c in dict.fromkeys(hand))
        else:
            actions.extend(Discard(c) for c in dict.fromkeys(hand) if self._may_throw(c, hand))
        return actions

    def _may_throw(self, card: AnyCard, hand: Sequence[AnyCard]) -> bool:
        """Whether ``card`` of ``hand`` may be discarded now: not the card just taken from the
        pile, nor its twin unless ``discard_taken_twin`` (a twin laid on the table first makes
        the copy left the player's own: :attr:`taken` is cleared then)."""
        if card != self.taken:
            return True
        return self.options.discard_taken_twin and hand.count(card) > 1

    def pass_(self) -> None:
        """Pass on the card on offer (the dealer's first pick, or a card to buy)."""
        self.apply(Pass())

    def buy(self) -> None:
        """Buy the card on offer out of turn (with the penalty cards from the stock)."""
        self.apply(Buy())

    def down(self, melds: Sequence[Sequence[AnyCard]] | str) -> None:
        """Lay down the round's contract: ``melds`` as groups of cards, or as text
        (``"9C 9D X | 5H 6H 7H 8H"``)."""
        if isinstance(melds, str):
            melds = [parse_cards(group) for group in melds.split("|")]
        self.apply(Down(tuple(tuple(group) for group in melds)))

    def swap(self, card: Card | str, meld: int) -> None:
        """Put ``card`` in a run of the table (meld number ``meld``) in place of the wild that
        stands for it, and take the wild."""
        self.apply(Swap(parse_natural_cards(card)[0] if isinstance(card, str) else card, meld))

    def _verify_discard(self, action: Discard) -> None:
        hand = self._hand_to_play()
        if action.card not in hand:
            raise IllegalActionError(f"{action.card} is not in your hand")
        if not self._may_throw(action.card, hand):
            if hand.count(action.card) > 1:
                raise IllegalActionError(
                    f"{action.card} was just taken from the discard pile, and its twin cannot"
                    " be thrown this turn either: nobody could tell them apart"
                    " (house rule discard_taken_twin allows it)"
                )
            raise IllegalActionError(
                f"{action.card} was just taken from the discard pile and cannot be thrown this turn"
            )

    def _perform_discard(self, action: Discard) -> None:
        actor = self._actor()
        self.hands[actor].remove(action.card)
        self.discard_pile.append(action.card)
        self._forget(actor, [action.card])
        if not self.hands[actor]:
            self._finish_out(actor)
        else:
            self._offer_discard(actor)

    def resample(self, seat: int, rng: random.Random | None = None) -> CrazyState:
        """A copy of the round that ``seat`` cannot tell from it, its hidden cards dealt again.

        ``clone()`` copies the true round (other hands and the stock order too: perfect
        information); this deals what ``seat`` cannot see again at random with ``rng`` (a new
        ``random.Random()`` when None), for determinized search. Another seat's cards that
        ``seat`` saw it take or buy from the discard pile (its ``known_cards``; a buyer's
        penalty cards stay hidden) or swap out of a run, and still holds, stay there; its other
        cards and the stock are shuffled together and dealt back (same sizes). A restock's
        stock is made of cards everyone saw in the pile: its cards are dealt again only among
        the stock and the cards drawn from it. The generator of future shuffles is seeded again
        from ``rng``. ``seat``'s view, and its legal actions when it is to act, are the same as
        here; this round is unchanged. The copy has no record (``resampled`` is True).

        >>> from rummykit.games.crazy import Crazy
        >>> state = Crazy().new_hand(players=3, seed=5)
        >>> guess = state.resample(2, random.Random(3))
        >>> guess.view(2).to_dict() == state.view(2).to_dict(), guess.hands[2] == state.hands[2]
        (True, True)
        """
        new, rng, seat = self._resampling(seat, rng)
        new._forget_generator(rng)
        shown = range(self.players) if self.result is not None else ()  # the result shows all
        tagged = any(self._tags)
        tags = redeal_unseen(
            new.hands,
            new.stock,
            seat,
            rng,
            known=new.known,
            open_hands=shown,
            tags=new._tags if tagged else None,
            stock_tag=self.restocks,
        )
        if tags is not None:
            new._tags = tags
        return new

    def view(self, seat: int) -> CrazyView:
        """What ``seat`` may see now."""
        seat = self._view_seat(seat)
        return CrazyView(
            seat=seat,
            round=self.round,
            contract=self.contract,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            turn=self.turn,
            hand=tuple(sorted(self.hands[seat], key=lambda c: c.sort_key)),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            discard_pile=tuple(self.discard_pile),
            offered=self.offered,
            table=tuple(self.table),
            laid_down=tuple(self.laid_down),
            buys=tuple(self.buys),
            known_cards=tuple(
                (*known, *(card for tag, card in tags if tag == PUBLIC))
                for known, tags in zip(self.known, self._tags, strict=True)
            ),
            taken_from_discard=self.taken if self.to_act == seat else None,
            legal_actions=tuple(self.legal_actions()) if self.to_act == seat else (),
            result=self.result,
            history=tuple(self._notation),
        )


CrazyState.VERIFY = {
    Take: CrazyState._verify_take,
    Pass: CrazyState._verify_pick,
    Buy: CrazyState._verify_buy,
    Draw: CrazyState._verify_pick,
    Down: CrazyState._verify_down,
    LayOff: CrazyState._verify_layoff,
    Swap: CrazyState._verify_swap,
    Discard: CrazyState._verify_discard,
}
CrazyState.PERFORM = {
    Take: CrazyState._perform_take,
    Pass: CrazyState._perform_pass,
    Buy: CrazyState._perform_buy,
    Draw: CrazyState._perform_draw,
    Down: CrazyState._perform_down,
    LayOff: CrazyState._perform_lay_off,
    Swap: CrazyState._perform_swap,
    Discard: CrazyState._perform_discard,
}
