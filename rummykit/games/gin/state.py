"""One hand of Gin Rummy as a state machine: the first-turn offer, draw and discard turns,
knocking, lay-offs and the score."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummykit.actions import Action, BigGin, Discard, Done, Draw, Knock, LayOff, Pass, Take
from rummykit.cards import STANDARD_PACK, Card, format_cards, parse_natural_cards
from rummykit.games.base import IllegalActionError, Phase, checked_seat, natural
from rummykit.games.dealt import DealtHand
from rummykit.games.gin.rules import (
    HAND_SIZE,
    PLAYERS,
    WALL,
    GinDeal,
    GinHandResult,
    GinOptions,
    Outcome,
    _check_seat,
)
from rummykit.games.gin.view import GinView
from rummykit.games.mechanics import ActionDispatch, CloneableHand, redeal_unseen
from rummykit.melds import Meld, MeldError

if TYPE_CHECKING:
    from rummykit.games.gin.game import Gin
    from rummykit.solver.deadwood import Arrangement

# The Gin solver is imported where a move first needs it, not with this module: building its
# tables is most of the time ``import rummykit.games.gin`` would take, and a new hand's first
# moves (the up-card's offer) need none of it.

__all__ = ["GinState"]


class GinState(DealtHand[Card], ActionDispatch, CloneableHand):
    """One hand of Gin Rummy: deal, first-turn offer, draw/discard turns, knock, lay-offs, score.

    Use :meth:`legal_actions`, :meth:`verify`, :meth:`can` and :meth:`apply` (or the named
    methods :meth:`draw`, :meth:`take`, :meth:`pass_`, :meth:`discard`, :meth:`knock`,
    :meth:`lay_off`, :meth:`big_gin`, :meth:`done`). A refused action raises
    :class:`IllegalActionError` and changes nothing.
    """

    TITLE = "Gin Rummy"
    game: Gin
    options: GinOptions

    def __init__(
        self,
        game: Gin,
        *,
        seed: int | None = None,
        deal: GinDeal | None = None,
        dealer: int = 0,
    ) -> None:
        self._deal_out(
            game,
            STANDARD_PACK,
            players=PLAYERS,
            dealer=_check_seat(dealer),
            seed=seed,
            deal=deal,
            hand_size=HAND_SIZE,
        )
        self.phase = Phase.OFFER
        self.to_act: int | None = 1 - self.dealer
        self.offer_passes = 0
        self.stock_only = False  # after both players pass the up-card
        self.knocker: int | None = None
        self.knock_card: Card | None = None
        self.knock_arrangement: Arrangement | None = None
        self.knock_melds: list[Meld] = []
        self.layoffs: list[tuple[Card, int]] = []
        self.result: GinHandResult | None = None
        self._deadwoods: dict[Card, int] | None = None  # per discard, for the 11-card hand

    def _repr_parts(self) -> list[str]:
        return [*super()._repr_parts(), f"up={self.top_discard}"]

    # ----------------------------------------------------------------------------- queries

    def _discard_deadwoods(self) -> dict[Card, int]:
        from rummykit.solver.deadwood import discard_deadwoods

        if self._deadwoods is None:
            assert self.to_act is not None
            self._deadwoods = discard_deadwoods(self.hands[self.to_act])
        return self._deadwoods

    @staticmethod
    def _deadwood_now(hand: list[Card]) -> int:
        from rummykit.solver.deadwood import min_deadwood

        return min_deadwood(hand)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for the seat to act (empty once the hand is over); with ``seat``,
        that seat's: empty when it is not its turn."""
        if seat is not None and checked_seat(seat, self.players) != self.to_act:
            return []
        phase = self.phase
        if phase is Phase.DISCARD:
            assert self.to_act is not None
            hand = self.hands[self.to_act]
            taken = self.taken
            actions: list[Action] = [_DISCARD[c] for c in hand if c is not taken]
            limit = self.options.knock_limit
            deadwoods = self._discard_deadwoods()
            actions.extend(_KNOCK[c] for c in hand if c is not taken and deadwoods[c] <= limit)
            if self.options.big_gin and self._deadwood_now(hand) == 0:
                actions.append(BigGin())
            return actions
        if phase is Phase.DRAW:
            if self.stock_only or not self.discard_pile:
                return [Draw()]
            return [Draw(), Take()]
        if phase is Phase.OFFER:
            return [Take(), Pass()]
        if phase is Phase.LAYOFF:
            assert self.to_act is not None
            out: list[Action] = [
                LayOff(c, i + 1)
                for c in self.hands[self.to_act]
                for i, m in enumerate(self.knock_melds)
                if m.accepts(c)
            ]
            out.append(Done())
            return out
        return []

    # -------------------------------------------------------------------- named actions

    def pass_(self) -> None:
        """Decline the first up-card."""
        self.apply(Pass())

    def knock(self, card: Card | str, melds: Sequence[Meld] | None = None) -> None:
        """Knock discarding ``card`` face down, optionally naming the arrangement."""
        self.apply(Knock(_card(card), None if melds is None else tuple(melds)))

    def big_gin(self) -> None:
        """Lay down all eleven cards after the draw (big gin, when the options allow it)."""
        self.apply(BigGin())

    def done(self) -> None:
        """Finish laying off; the hand is scored."""
        self.apply(Done())

    # --------------------------------------------------------------------------- verify

    def _verify_take(self, action: Take) -> None:
        if self.phase is Phase.OFFER:
            return
        if self.phase is not Phase.DRAW:
            raise IllegalActionError("you have already drawn this turn")
        if self.stock_only:
            raise IllegalActionError(
                "both players passed the up-card: the first draw must come from the stock"
            )
        if not self.discard_pile:
            raise IllegalActionError("the discard pile is empty")

    def _verify_draw(self, action: Draw) -> None:
        if self.phase is Phase.OFFER:
            raise IllegalActionError("the up-card is on offer: take it or pass")
        if self.phase is not Phase.DRAW:
            raise IllegalActionError("you have already drawn this turn")

    def _verify_pass(self, action: Pass) -> None:
        if self.phase is not Phase.OFFER:
            raise IllegalActionError("you can pass only when the first up-card is offered")

    def _verify_discard_phase(self, card: Card, verb: str) -> list[Card]:
        if self.phase is not Phase.DISCARD:
            if self.phase is Phase.LAYOFF:
                raise IllegalActionError(f"you cannot {verb} now: lay off cards or say done")
            raise IllegalActionError(f"you must draw a card before you {verb}")
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        if card not in hand:
            raise IllegalActionError(f"{card} is not in your hand")
        if card is self.taken:
            raise IllegalActionError(
                f"{card} was just taken from the discard pile and cannot be thrown this turn"
            )
        return hand

    def _verify_discard(self, action: Discard) -> None:
        self._verify_discard_phase(natural(action.card), "discard")

    def _verify_knock(self, action: Knock) -> None:
        hand = self._verify_discard_phase(action.card, "knock")
        deadwood = self._discard_deadwoods()[action.card]
        limit = self.options.knock_limit
        if deadwood > limit:
            raise IllegalActionError(
                f"you cannot knock discarding {action.card}: your deadwood would be {deadwood}, "
                f"more than {limit}"
            )
        if action.melds is not None:
            rest = [c for c in hand if c is not action.card]
            for meld in action.melds:
                try:
                    Meld.of(meld.cards)  # a hand-built Meld is re-validated here
                except MeldError as exc:
                    raise IllegalActionError(str(exc)) from None
            used: list[Card] = [c for m in action.melds for c in m.cards]
            if len(set(used)) != len(used):
                raise IllegalActionError("the named melds share a card")
            missing = [c for c in used if c not in rest]
            if missing:
                raise IllegalActionError(
                    f"{format_cards(missing)} not in your hand after the discard"
                )
            named = sum(c.points for c in rest) - sum(c.points for c in used)
            if named != deadwood:
                raise IllegalActionError(
                    f"those melds leave {named} deadwood; the best arrangement leaves {deadwood}"
                )

    def _verify_big_gin(self, action: BigGin) -> None:
        from rummykit.solver.deadwood import min_deadwood

        if not self.options.big_gin:
            raise IllegalActionError("big gin is not played at this table (option big_gin)")
        if self.phase is not Phase.DISCARD:
            raise IllegalActionError("big gin needs all eleven cards melded right after a draw")
        assert self.to_act is not None
        if min_deadwood(self.hands[self.to_act]) != 0:
            raise IllegalActionError("big gin needs all eleven cards in melds")

    def _verify_lay_off(self, action: LayOff) -> None:
        if self.phase is not Phase.LAYOFF:
            raise IllegalActionError("you can lay off only after the other player knocks")
        assert self.to_act is not None
        card = natural(action.card)
        if action.end is not None:
            raise IllegalActionError("a lay-off goes to the end its card fits; name no end in Gin")
        if card not in self.hands[self.to_act]:
            raise IllegalActionError(f"{card} is not in your hand")
        if not 1 <= action.meld <= len(self.knock_melds):
            raise IllegalActionError(
                f"there is no meld number {action.meld} (the knocker laid {len(self.knock_melds)})"
            )
        meld = self.knock_melds[action.meld - 1]
        if not meld.accepts(card):
            raise IllegalActionError(f"{action.card} does not fit meld {action.meld} ({meld})")

    def _verify_done(self, action: Done) -> None:
        if self.phase is not Phase.LAYOFF:
            raise IllegalActionError("'done' ends laying off, which happens only after a knock")

    # -------------------------------------------------------------------------- perform

    def _start_turn(self, seat: int) -> None:
        self.to_act = seat
        self.phase = Phase.DRAW
        self.taken = None
        self._deadwoods = None

    def _perform_take(self, action: Take) -> None:
        seat = self.to_act
        assert seat is not None
        card = self.discard_pile.pop()
        self.hands[seat].append(card)
        self.known[seat].append(card)
        self.taken = card
        self.phase = Phase.DISCARD
        self._deadwoods = None

    def _perform_draw(self, action: Draw) -> None:
        seat = self.to_act
        assert seat is not None
        self.hands[seat].append(self.stock.pop())
        self.stock_only = False
        self.taken = None
        self.phase = Phase.DISCARD
        self._deadwoods = None

    def _perform_pass(self, action: Pass) -> None:
        self.offer_passes += 1
        if self.offer_passes == 1:
            self.to_act = self.dealer
        else:
            self._start_turn(1 - self.dealer)
            self.stock_only = True

    def _remove(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)

    def _perform_discard(self, action: Discard) -> None:
        seat = self.to_act
        assert seat is not None
        card = natural(action.card)
        self._remove(seat, card)
        self.discard_pile.append(card)
        if len(self.stock) <= WALL:
            self._finish_cancelled()
        else:
            self._start_turn(1 - seat)

    def _perform_knock(self, action: Knock) -> None:
        from rummykit.solver.deadwood import Arrangement, best_arrangement

        seat = self.to_act
        assert seat is not None
        self._remove(seat, action.card)
        hand = self.hands[seat]
        if action.melds is None:
            arrangement = best_arrangement(hand)
        else:
            used = {c for m in action.melds for c in m.cards}
            unmatched = tuple(sorted((c for c in hand if c not in used), key=lambda c: c.index))
            arrangement = Arrangement(sum(c.points for c in unmatched), action.melds, unmatched)
        self.knocker = seat
        self.knock_card = action.card
        self.knock_arrangement = arrangement
        self.knock_melds = list(arrangement.melds)
        self.taken = None
        self._deadwoods = None
        if arrangement.deadwood == 0:
            self._finish_gin(Outcome.GIN, self.options.gin_bonus)
        else:
            self.to_act = 1 - seat
            self.phase = Phase.LAYOFF

    def _perform_big_gin(self, action: BigGin) -> None:
        from rummykit.solver.deadwood import best_arrangement

        seat = self.to_act
        assert seat is not None
        self.knocker = seat
        self.knock_arrangement = best_arrangement(self.hands[seat])
        self.knock_melds = list(self.knock_arrangement.melds)
        self._finish_gin(Outcome.BIG_GIN, self.options.big_gin_bonus)

    def _perform_lay_off(self, action: LayOff) -> None:
        seat = self.to_act
        assert seat is not None
        card = natural(action.card)
        self._remove(seat, card)
        index = action.meld - 1
        extended = self.knock_melds[index].extended_by(card)
        assert extended is not None
        self.knock_melds[index] = extended
        self.layoffs.append((card, action.meld))

    def _perform_done(self, action: Done) -> None:
        from rummykit.solver.deadwood import best_arrangement

        knocker = self.knocker
        arrangement = self.knock_arrangement
        assert knocker is not None and arrangement is not None
        defender = 1 - knocker
        own = best_arrangement(self.hands[defender])
        kd, dd = arrangement.deadwood, own.deadwood
        if dd <= kd:
            outcome, winner = Outcome.UNDERCUT, defender
            bonus = self.options.undercut_bonus
            points = kd - dd + bonus
        else:
            outcome, winner, bonus, points = Outcome.KNOCK, knocker, 0, dd - kd
        self._finish(outcome, winner, points, bonus, {knocker: arrangement, defender: own})

    # --------------------------------------------------------------------------- finish

    def _finish_gin(self, outcome: Outcome, bonus: int) -> None:
        from rummykit.solver.deadwood import best_arrangement

        knocker = self.knocker
        arrangement = self.knock_arrangement
        assert knocker is not None and arrangement is not None
        defender = 1 - knocker
        own = best_arrangement(self.hands[defender])
        points = bonus + own.deadwood
        self._finish(outcome, knocker, points, bonus, {knocker: arrangement, defender: own})

    def _finish_cancelled(self) -> None:
        self.phase = Phase.HAND_OVER
        self.to_act = None
        self.result = GinHandResult(
            Outcome.CANCELLED, None, 0, 0, None, (0, 0), ((), ()), ((), ()), ()
        )

    def _finish(
        self,
        outcome: Outcome,
        winner: int,
        points: int,
        bonus: int,
        arrangements: dict[int, Arrangement],
    ) -> None:
        a0, a1 = arrangements[0], arrangements[1]
        self.phase = Phase.HAND_OVER
        self.to_act = None
        self.result = GinHandResult(
            outcome,
            winner,
            points,
            bonus,
            self.knocker,
            (a0.deadwood, a1.deadwood),
            (a0.melds, a1.melds),
            (a0.unmatched, a1.unmatched),
            tuple(self.layoffs),
        )

    # ---------------------------------------------------------------------------- search

    def resample(self, seat: int, rng: random.Random | None = None) -> GinState:
        """A copy of the hand that ``seat`` cannot tell from it, its hidden cards dealt again.

        ``clone()`` copies the true hand (the other hand and the stock order too: perfect
        information); this deals what ``seat`` cannot see again at random with ``rng`` (a new
        ``random.Random()`` when None), for determinized search. The other hand's cards that
        ``seat`` saw it take from the discard pile and still holds (its ``known_cards``) stay
        there; its other cards and the stock are shuffled together and dealt back (same sizes).
        After a knock the knocker's hand is face up and stays; the knock card, face down, is
        hidden from the defender and is dealt again with the stock (the history names the new
        one). ``seat``'s view, and its legal actions when it is to act, are the same as here;
        this hand is unchanged. The copy has no record (``resampled`` is True).

        >>> from rummykit.games.gin import Gin
        >>> state = Gin().new_hand(seed=7)
        >>> guess = state.resample(0, random.Random(1))
        >>> guess.view(0).to_dict() == state.view(0).to_dict(), guess.hands[0] == state.hands[0]
        (True, True)
        >>> sorted(guess.hands[1] + guess.stock) == sorted(state.hands[1] + state.stock)
        True
        """
        _check_seat(seat)  # (Gin's own words for a bad seat)
        new, rng, seat = self._resampling(seat, rng)
        other = 1 - seat
        over = self.phase is Phase.HAND_OVER
        cancelled = over and self.result is not None and self.result.winner is None
        # Face up: the knocker's hand after a knock, both hands once a hand is scored.
        shown = (other,) if self.knocker == other or (over and not cancelled) else ()
        face_down = [new.knock_card] if new.knock_card is not None and self.knocker == other else []
        redeal_unseen(
            new.hands, new.stock, seat, rng, known=new.known, open_hands=shown, extra=face_down
        )
        if face_down and face_down[0] != self.knock_card:
            new.knock_card = card = face_down[0]
            at = next(i for i, (_, a) in enumerate(new.history) if isinstance(a, Knock))
            actor, knock = new.history[at]
            assert isinstance(knock, Knock)
            moved = Knock(card, knock.melds)
            new.history[at] = (actor, moved)
            new._notation[at] = (actor, str(moved))
        if new.to_act != seat:
            new._deadwoods = None
        return new

    # ----------------------------------------------------------------------------- views

    def best_layoffs(self) -> list[Action]:
        """The defender's best lay-offs now (the page's one-tap choice), ending with ``done``."""
        from rummykit.solver.deadwood import best_layoffs

        if self.phase is not Phase.LAYOFF:
            raise IllegalActionError("there is nothing to lay off now")
        assert self.to_act is not None
        plan = best_layoffs(self.hands[self.to_act], self.knock_melds)
        return [*(LayOff(c, i + 1) for c, i in plan.layoffs), Done()]

    def view(self, seat: int) -> GinView:
        """What ``seat`` may see now; the other hand is revealed only once the hand is scored."""
        seat = _check_seat(seat)
        over = self.phase is Phase.HAND_OVER
        knocked = self.knocker is not None
        history = tuple(self._notation)
        if self.knock_card is not None and self.knocker != seat:
            # The knocker's discard is face down: the defender sees only that a knock happened.
            at = next(i for i, (_, a) in enumerate(self.history) if isinstance(a, Knock))
            history = (*history[:at], (history[at][0], "knock"), *history[at + 1 :])
        knock_deadwood: tuple[Card, ...] = ()
        if knocked and self.knock_arrangement is not None:
            knock_deadwood = self.knock_arrangement.unmatched
        return GinView(
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=tuple(sorted(self.hands[seat], key=lambda c: c.index)),
            hand_sizes=(len(self.hands[0]), len(self.hands[1])),
            stock_size=len(self.stock),
            discard_pile=tuple(self.discard_pile),
            known_cards=(tuple(self.known[0]), tuple(self.known[1])),
            taken_from_discard=self.taken if self.to_act == seat else None,
            offer=self.phase is Phase.OFFER,
            legal_actions=tuple(self.legal_actions()) if self.to_act == seat else (),
            knocker=self.knocker,
            knock_melds=tuple(self.knock_melds),
            knock_deadwood=knock_deadwood,
            layoffs=tuple(self.layoffs),
            result=self.result if over else None,
            history=history,
        )


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else parse_natural_cards(card)[0]


# Actions are values: one shared instance per card keeps legal_actions() allocation-free.
_DISCARD: dict[Card, Action] = {c: Discard(c) for c in STANDARD_PACK}


_KNOCK: dict[Card, Action] = {c: Knock(c) for c in STANDARD_PACK}


GinState.VERIFY = {
    Draw: GinState._verify_draw,
    Take: GinState._verify_take,
    Pass: GinState._verify_pass,
    Discard: GinState._verify_discard,
    Knock: GinState._verify_knock,
    BigGin: GinState._verify_big_gin,
    LayOff: GinState._verify_lay_off,
    Done: GinState._verify_done,
}


GinState.PERFORM = {
    Draw: GinState._perform_draw,
    Take: GinState._perform_take,
    Pass: GinState._perform_pass,
    Discard: GinState._perform_discard,
    Knock: GinState._perform_knock,
    BigGin: GinState._perform_big_gin,
    LayOff: GinState._perform_lay_off,
    Done: GinState._perform_done,
}
