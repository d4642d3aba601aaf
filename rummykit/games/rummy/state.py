"""One hand of Basic Rummy as a state machine: draw, meld, lay off, discard, restock, until
someone goes out; and the melds a set of cards holds."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from rummykit.actions import Action, Discard, Draw, LayOff, NewMeld, Take
from rummykit.cards import STANDARD_PACK, Card, format_cards, parse_natural_cards
from rummykit.games.base import (
    IllegalActionError,
    Phase,
    as_seat,
    check_player_count,
    checked_seat,
    natural,
)
from rummykit.games.deal import Deal
from rummykit.games.dealt import DealtHand
from rummykit.games.mechanics import (
    PUBLIC,
    ActionDispatch,
    CloneableHand,
    ShuffledRestocks,
    Tagged,
    redeal_unseen,
)
from rummykit.games.rummy.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Restock,
    RummyHandResult,
    RummyOptions,
    RummyOutcome,
    Stranding,
    hand_size,
)
from rummykit.games.rummy.view import RummyView
from rummykit.games.table_meld import TableMeld
from rummykit.melds import Meld, MeldError, MeldKind

if TYPE_CHECKING:
    from rummykit.games.rummy.game import Rummy

__all__ = ["RummyState", "melds_in"]

_DISCARDS = {card: Discard(card) for card in STANDARD_PACK}
"""Each card's discard (actions are values: one of each serves every list)."""


class RummyState(DealtHand[Card], ActionDispatch, CloneableHand, ShuffledRestocks):
    """One hand of Basic Rummy: draw, meld, lay off, discard, until someone goes out.

    Use :meth:`legal_actions`, :meth:`verify`, :meth:`can` and :meth:`apply` (or the named
    methods :meth:`draw`, :meth:`take`, :meth:`meld`, :meth:`lay_off`, :meth:`discard`). A
    refused action raises :class:`IllegalActionError` and changes nothing.
    """

    TITLE = "Basic Rummy"
    game: Rummy
    options: RummyOptions

    def __init__(
        self,
        game: Rummy,
        *,
        players: int = 2,
        seed: int | None = None,
        deal: Deal | None = None,
        dealer: int = 0,
    ) -> None:
        players = check_player_count("Basic Rummy", players, MIN_PLAYERS, MAX_PLAYERS)
        size = hand_size(players)
        seat = as_seat(dealer, players)
        if seat is None:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
        self._deal_out(
            game,
            STANDARD_PACK,
            players=players,
            dealer=seat,
            seed=seed,
            deal=deal,
            hand_size=size,
        )
        self.table: list[TableMeld[Meld]] = []
        self.phase = Phase.DRAW
        self.to_act: int | None = (seat + 1) % players
        self.melds_this_turn = 0
        self.restocks = 0
        self._tags: list[list[Tagged]] | None = None
        """After the first restock, per seat, the cards it drew since and still holds, tagged
        with the restock that made their stock (``PUBLIC`` when it was turned over: everyone
        knows its order), for :meth:`resample`."""
        self.played_before = [False] * players  # melded or laid off in an earlier turn
        self.played_this_turn = False
        self.result: RummyHandResult | None = None

    def _repr_parts(self) -> list[str]:
        return [*super()._repr_parts(), f"table={[str(t) for t in self.table]}"]

    # --------------------------------------------------------------------------------- queries

    def _meld_allowed(self) -> bool:
        limit = self.options.melds_per_turn
        return limit is None or self.melds_this_turn < limit

    def _strands(self, cards: Sequence[Card], meld: int | None = None) -> str | None:
        """Why melding ``cards`` (or laying off the one card onto meld number ``meld``) now is
        refused by the going-out rules, if it is.

        Refused: emptying the hand under ``discard_to_go_out``, and leaving only the card just
        taken from the discard pile, which may not be thrown back: under ``stranding="strict"``
        always, under ``"dead_end"`` only when that card would not fit any meld on the table after
        this play either (it could then go out as a lay-off, so the turn can still end).
        """
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        left = len(hand) - len(cards)
        if left == 0 and self.options.discard_to_go_out:
            return "at this table you must go out by discarding your last card (discard_to_go_out)"
        taken = self.taken
        if left != 1 or taken is None or taken in cards or taken not in hand:
            return None
        if self.options.stranding is Stranding.DEAD_END and not self.options.discard_to_go_out:
            table = [t.meld for t in self.table]
            if meld is None:
                table.append(Meld.of(cards))
            else:
                extended = table[meld - 1].extended_by(cards[0])
                assert extended is not None
                table[meld - 1] = extended
            if any(m.accepts(taken) for m in table):
                return None  # the taken card goes out onto the table next
            return (
                f"that would leave you holding only {taken}, which you took from the discard "
                "pile this turn: it cannot be thrown back and would not fit any meld on the table"
            )
        return (
            f"that would leave you holding only {taken}, which you took from the discard "
            "pile this turn and cannot throw back"
        )

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for the seat to act (empty once the hand is over); with ``seat``,
        that seat's: empty when it is not its turn."""
        if seat is not None and checked_seat(seat, self.players) != self.to_act:
            return []
        if self.phase is Phase.DRAW:
            return [Draw(), Take()] if self.discard_pile else [Draw()]
        if self.phase is not Phase.DISCARD:
            return []
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        taken = self.taken
        actions: list[Action] = []
        if self._meld_allowed():
            actions.extend(
                NewMeld(m.cards) for m in melds_in(hand) if self._strands(m.cards) is None
            )
        fits = [table_meld.meld.accepting_bits() for table_meld in self.table]
        if fits:
            for card in hand:
                bit = card.bit
                for number, bits in enumerate(fits, 1):
                    if bits & bit and self._strands((card,), number) is None:
                        actions.append(LayOff(card, number))
        actions += [_DISCARDS[c] for c in hand if c is not taken]
        return actions

    # ------------------------------------------------------------------------ named actions

    def meld(self, cards: Sequence[Card] | str) -> None:
        """Lay a new meld of ``cards`` on the table (``"5H 6H 7H"`` or cards)."""
        self.apply(NewMeld(parse_natural_cards(cards) if isinstance(cards, str) else tuple(cards)))

    # -------------------------------------------------------------------------------- verify

    def _verify_draw(self, action: Draw | Take) -> None:
        if self.phase is not Phase.DRAW:
            raise IllegalActionError("you have already drawn this turn")

    def _verify_take(self, action: Take) -> None:
        self._verify_draw(action)
        if not self.discard_pile:
            raise IllegalActionError("the discard pile is empty")

    def _hand_to_play(self) -> list[Card]:
        """The hand of the seat to act, once it has drawn (it may meld, lay off, discard)."""
        if self.phase is not Phase.DISCARD:
            raise IllegalActionError("draw a card first (from the stock or the discard pile)")
        assert self.to_act is not None
        return self.hands[self.to_act]

    def _verify_discard(self, action: Discard) -> None:
        hand = self._hand_to_play()
        if natural(action.card) not in hand:
            raise IllegalActionError(f"{action.card} is not in your hand")
        if action.card is self.taken:
            raise IllegalActionError(
                f"{action.card} was just taken from the discard pile and cannot be thrown this turn"
            )

    def _verify_meld(self, action: NewMeld) -> None:
        hand = self._hand_to_play()
        cards = action.cards
        try:  # cards that make no meld at all: say so first, held or not
            Meld.of(cards)
        except MeldError as exc:
            raise IllegalActionError(str(exc)) from None
        self._verify_held(cards, hand)
        if not self._meld_allowed():
            limit = self.options.melds_per_turn
            raise IllegalActionError(
                f"you may lay down only {limit} new meld{'s' if limit != 1 else ''} a turn "
                "(lay-offs are still allowed)"
            )
        self._verify_leaves_a_discard(cards, None)

    def _verify_lay_off(self, action: LayOff) -> None:
        hand = self._hand_to_play()
        if action.end is not None:
            raise IllegalActionError("a lay-off goes to the end its card fits; name no end here")
        card = natural(action.card)
        self._verify_held((card,), hand)
        if not 1 <= action.meld <= len(self.table):
            raise IllegalActionError(
                f"there is no meld number {action.meld} (the table has {len(self.table)})"
            )
        meld = self.table[action.meld - 1].meld
        if not meld.accepts(card):
            raise IllegalActionError(f"{action.card} does not fit meld {action.meld} ({meld})")
        self._verify_leaves_a_discard((card,), action.meld)

    @staticmethod
    def _verify_held(cards: Sequence[Card], hand: list[Card]) -> None:
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalActionError(f"{format_cards(missing)} not in your hand")

    def _verify_leaves_a_discard(self, cards: Sequence[Card], meld: int | None) -> None:
        reason = self._strands(cards, meld)
        if reason is not None:
            raise IllegalActionError(reason)

    # ------------------------------------------------------------------------------ perform

    def _perform_draw(self, action: Draw) -> None:
        actor = self._actor()
        drawn = self.stock.pop()
        self.hands[actor].append(drawn)
        if self._tags is not None:
            self._tags[actor].append((self._stock_tag(), drawn))
        self.phase = Phase.DISCARD

    def _perform_take(self, action: Take) -> None:
        actor = self._actor()
        card = self.discard_pile.pop()
        self.hands[actor].append(card)
        self.known[actor].append(card)
        self.taken = card
        self.phase = Phase.DISCARD

    def _perform_meld(self, action: NewMeld) -> None:
        actor = self._actor()
        for card in action.cards:
            self.hands[actor].remove(card)
        self.table.append(TableMeld(Meld.of(action.cards), actor))
        self.melds_this_turn += 1
        self.played_this_turn = True
        self._played(actor)

    def _perform_lay_off(self, action: LayOff) -> None:
        actor = self._actor()
        card = natural(action.card)
        self.hands[actor].remove(card)
        index = action.meld - 1
        extended = self.table[index].meld.extended_by(card)
        assert extended is not None
        self.table[index] = TableMeld(extended, self.table[index].owner)
        self.played_this_turn = True
        self._played(actor)

    def _perform_discard(self, action: Discard) -> None:
        actor = self._actor()
        card = natural(action.card)
        self.hands[actor].remove(card)
        self.discard_pile.append(card)
        if self._played(actor):
            self._next_turn(actor)

    def _played(self, actor: int) -> bool:
        """After cards left ``actor``'s hand: what is known of it follows; the hand is over if it
        is empty. True while the hand goes on."""
        hand = self.hands[actor]
        if self.known[actor]:
            self.known[actor] = [c for c in self.known[actor] if c in hand]  # one pack: unique
        if self._tags is not None and self._tags[actor]:
            self._tags[actor] = [t for t in self._tags[actor] if t[1] in hand]
        if not hand:
            self._finish_out(actor)
            return False
        return True

    # -------------------------------------------------------------------------------- turns

    def _next_turn(self, seat: int) -> None:
        self.played_before[seat] = self.played_before[seat] or self.played_this_turn
        self.played_this_turn = False
        self.to_act = (seat + 1) % self.players
        self.phase = Phase.DRAW
        self.taken = None
        self.melds_this_turn = 0
        if not self.stock:
            if self.restocks < self.options.restock_limit and len(self.discard_pile) >= 2:
                self._restock()
            else:
                self._finish_stalemate()

    def _restock(self) -> None:
        top = self.discard_pile.pop()
        old = self.discard_pile
        if self.options.restock is Restock.SHUFFLE:
            self._shuffle(old)
            self.stock = old
        else:
            self.stock = old[::-1]  # turned over: the oldest discard is now on top
        self.discard_pile = [top]
        self.restocks += 1
        if self._tags is None:
            self._tags = [[] for _ in range(self.players)]

    def _stock_tag(self) -> int:
        """What the stock's cards are to :func:`redeal_unseen`: the deal's (0), a shuffled
        restock's number, or ``PUBLIC`` once the discard pile was turned over (order known)."""
        if not self.restocks:
            return 0
        return self.restocks if self.options.restock is Restock.SHUFFLE else PUBLIC

    # -------------------------------------------------------------------------------- search

    def resample(self, seat: int, rng: random.Random | None = None) -> RummyState:
        """A copy of the hand that ``seat`` cannot tell from it, its hidden cards dealt again.

        ``clone()`` copies the true hand (other hands and the stock order too: perfect
        information); this deals what ``seat`` cannot see again at random with ``rng`` (a new
        ``random.Random()`` when None), for determinized search. Another seat's cards that
        ``seat`` saw it take from the discard pile and still holds (its ``known_cards``) stay
        there; its other cards and the stock are shuffled together and dealt back (same sizes).
        A restock's stock is made of cards everyone saw in the pile: turned over (``rummy``),
        its order is known, so it and the cards drawn from it stay; shuffled
        (``rummy-classic``), its cards are dealt again only among the stock and the cards drawn
        from it. The generator of future shuffles is seeded again from ``rng``. ``seat``'s view,
        and its legal actions when it is to act, are the same as here; this hand is unchanged.
        The copy has no record (``resampled`` is True).

        >>> from rummykit.games.rummy import Rummy
        >>> state = Rummy.preset("rummy").new_hand(players=3, seed=1)
        >>> guess = state.resample(1, random.Random(2))
        >>> guess.view(1).to_dict() == state.view(1).to_dict(), guess.hands[1] == state.hands[1]
        (True, True)
        """
        new, rng, seat = self._resampling(seat, rng)
        new._forget_generator(rng)
        result = self.result
        shown = range(self.players) if result is not None and result.winner is not None else ()
        tags = redeal_unseen(
            new.hands,
            new.stock,
            seat,
            rng,
            known=new.known,
            open_hands=shown,
            tags=new._tags,
            stock_tag=new._stock_tag(),
        )
        new._tags = tags
        if result is not None and result.winner is None:
            new._finish_stalemate()  # the hidden hands changed: score them again (unseen)
        return new

    def _finish_out(self, winner: int) -> None:
        values = tuple(sum(c.points for c in h) for h in self.hands)
        points = sum(values)
        rummy = self.options.rummy_bonus and not self.played_before[winner]
        if rummy:
            points *= 2
        self._end(RummyOutcome.OUT, winner, points, rummy, values)

    def _finish_stalemate(self) -> None:
        values = tuple(sum(c.points for c in h) for h in self.hands)
        self._end(RummyOutcome.STALEMATE, None, 0, False, values)

    def _end(
        self,
        outcome: RummyOutcome,
        winner: int | None,
        points: int,
        rummy: bool,
        values: tuple[int, ...],
    ) -> None:
        self.phase = Phase.HAND_OVER
        self.to_act = None
        remaining = tuple(tuple(sorted(h, key=lambda c: c.index)) for h in self.hands)
        self.result = RummyHandResult(outcome, winner, points, rummy, values, remaining)

    # --------------------------------------------------------------------------------- views

    def view(self, seat: int) -> RummyView:
        """What ``seat`` may see now (other hands only by size, the stock only by size)."""
        seat = self._view_seat(seat)
        return RummyView(
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=tuple(sorted(self.hands[seat], key=lambda c: c.index)),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            discard_pile=tuple(self.discard_pile),
            table=tuple(self.table),
            taken_from_discard=self.taken if self.to_act == seat else None,
            melds_this_turn=self.melds_this_turn if self.to_act == seat else 0,
            restocks=self.restocks,
            legal_actions=tuple(self.legal_actions()) if self.to_act == seat else (),
            result=None if self.result is None else self.result.seen_by(seat),
            history=tuple(self._notation),
            known_cards=tuple(tuple(k) for k in self.known),
        )


RummyState.VERIFY = {
    Draw: RummyState._verify_draw,
    Take: RummyState._verify_take,
    NewMeld: RummyState._verify_meld,
    LayOff: RummyState._verify_lay_off,
    Discard: RummyState._verify_discard,
}


RummyState.PERFORM = {
    Draw: RummyState._perform_draw,
    Take: RummyState._perform_take,
    NewMeld: RummyState._perform_meld,
    LayOff: RummyState._perform_lay_off,
    Discard: RummyState._perform_discard,
}


_RUN_STARTS = sum(((1 << 11) - 1) << (13 * suit) for suit in range(4))
"""The bits (:attr:`Card.bit`) of the cards that may start a run of three: ace to jack."""

_RANKS = 0x1FFF
"""One suit's 13 bits of a hand's mask (ace first)."""


def _triples(mask: int) -> int:
    """The ranks (bit ``number - 1``) held in three suits or four, of a hand's bit mask."""
    a, b, c, d = mask & _RANKS, (mask >> 13) & _RANKS, (mask >> 26) & _RANKS, mask >> 39
    return (a & b & (c | d)) | (c & d & (a | b))


def melds_in(cards: Iterable[Card]) -> list[Meld]:
    """Every meld (set of 3-4, run of 3+, ace low) that can be made from ``cards``: the sets
    by rank (ace first; of three, then of four), then the runs by suit, lowest card, length.

    Read from the hand's bit mask (:attr:`Card.bit`); most hands hold no meld at all."""
    mask = 0
    for card in cards:
        mask |= card.bit
    starts = mask & (mask >> 1) & (mask >> 2) & _RUN_STARTS
    ranks = _triples(mask)
    found: list[Meld] = []
    while ranks:
        low = ranks & -ranks
        shift = low.bit_length() - 1
        same = [STANDARD_PACK[13 * s + shift] for s in range(4) if mask >> (13 * s + shift) & 1]
        found += [Meld(MeldKind.SET, combo) for combo in combinations(same, 3)]
        if len(same) == 4:
            found.append(Meld(MeldKind.SET, tuple(same)))
        ranks ^= low
    while starts:
        low = starts & -starts
        index = low.bit_length() - 1
        top = 13 * (index // 13) + 12  # the suit's king
        run: tuple[Card, ...] = (
            STANDARD_PACK[index],
            STANDARD_PACK[index + 1],
            STANDARD_PACK[index + 2],
        )
        found.append(Meld(MeldKind.RUN, run))
        high = index + 3
        while high <= top and mask >> high & 1:
            run = (*run, STANDARD_PACK[high])
            found.append(Meld(MeldKind.RUN, run))
            high += 1
        starts ^= low
    return found
