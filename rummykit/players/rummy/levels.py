"""The Basic Rummy players' common base (a turn from the best plan, the reasons a person reads) and
the ``easy`` and ``medium`` levels.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from rummykit.actions import Discard, Draw, LayOff, NewMeld, Take
from rummykit.cards import Card
from rummykit.games.base import Phase, View
from rummykit.games.rummy import RummyOptions, RummyView, melds_in
from rummykit.melds import Meld, MeldKind
from rummykit.players.base import SeededPlayer, checked_view, decision_rng
from rummykit.players.reasons import Reason, Suggestion, because, discard_reason
from rummykit.players.rummy.evaluation import (
    EASY_WEIGHTS,
    MEDIUM_WEIGHTS,
    RummyWeights,
    _best_value,
    _Context,
    _ranked,
)
from rummykit.players.rummy.knowledge import (
    _CLOSE,
    _NEAR,
    _cards,
    _ends,
    _know,
    _Knowledge,
    _mask,
    _meld_numbers,
    _points,
)
from rummykit.players.rummy.planning import _Plan, _plans
from rummykit.players.tracking import (
    ALL_CARDS,
    CardMemory,
)
from rummykit.solver.deadwood import best_arrangement

# ------------------------------------------------------------------------------ the players


def _rummy_view(view: View) -> RummyView:
    return checked_view(view, RummyView, "Basic Rummy")


def _decision_rng(seed: int, view: RummyView) -> random.Random:
    """A generator for one decision: the same seed and public history give the same draws."""
    history = ";".join(text for _, text in view.history)
    hand = "".join(c.text for c in view.hand)
    return decision_rng(seed, view.seat, view.dealer, history, hand)


def _allowed_now(view: RummyView, limit: int | None) -> int | None:
    """New melds still allowed this turn, as far as the view tells (None: any number)."""
    if not any(isinstance(a, NewMeld) for a in view.legal_actions):
        return 0
    if limit is None or view.melds_this_turn >= limit:
        return None  # more melds are legal than the assumed limit: the table has none
    return limit - view.melds_this_turn


def _meld_reason(meld: Meld) -> Reason:
    count = meld.points
    if meld.kind is MeldKind.SET:
        return because("rummy.set4" if len(meld) == 4 else "rummy.set3", count=count)
    return because("rummy.run", size=len(meld), count=count)


def _discard_reason(card: Card, hand: Sequence[Card], final: int, danger: float) -> Reason:
    rest = _mask(hand) & ~card.bit
    arrangement = best_arrangement(list(hand))
    unmatched = arrangement.unmatched
    # "no meld nearby" only with no card of its rank and none of its suit within two ranks
    loose = not _NEAR[card.index] & rest
    reason = discard_reason(card, unmatched, loose)
    if danger < 0.1 and _CLOSE[card.index] & rest:
        reason = reason.also("rummy.feeds_not")
    return reason.also("points_left", count=_points(final))


def _step_reason(plan: _Plan, hand: Sequence[Card], table: Sequence[Meld], danger: float) -> Reason:
    step = plan.steps[0]
    if isinstance(step, NewMeld):
        reason = _meld_reason(Meld.of(step.cards))
    elif isinstance(step, LayOff):
        meld = table[step.meld - 1].cards if step.meld <= len(table) else ()
        if meld:
            reason = because("rummy.layoff", card=step.card, meld=meld)
        else:
            reason = because("fits_meld", card=step.card)
    else:
        assert isinstance(step, Discard) and isinstance(step.card, Card)
        if plan.out:
            return because("goes_out")
        reason = _discard_reason(step.card, hand, plan.final, danger)
        held = [m for m in best_arrangement(_cards(plan.final)).melds]
        if held and melds_in(hand) and not plan.melds:
            reason = reason.also("rummy.hold", cards=held[0].cards)
        return reason
    if plan.out:
        reason = reason.also("rummy.out_this_turn")
    return reason


class _Base(SeededPlayer):
    """What every level shares: options, the seed, the turn planner."""

    name: str = "base"
    weights: RummyWeights = MEDIUM_WEIGHTS

    def __init__(self, seed: int | None = None, *, options: RummyOptions | None = None) -> None:
        super().__init__(seed)
        self.options = options if options is not None else RummyOptions()

    def suggest(self, view: View) -> Suggestion:
        """This player's action and a short reason a person understands."""
        v = _rummy_view(view)
        if v.phase is Phase.DRAW:
            if Take() not in v.legal_actions or not v.discard_pile:
                return Suggestion(Draw(), because("stock_only"))
            return self._draw(v)
        return self._turn(v)

    # -- helpers shared by the levels

    def _limit(self, know: _Knowledge | None, view: RummyView) -> int | None:
        limit = self.options.melds_per_turn
        if know is not None and know.ever_two_melds:
            return None
        if view.melds_this_turn >= 1 and any(isinstance(a, NewMeld) for a in view.legal_actions):
            return None
        return limit

    def _context(self, view: RummyView, rng: random.Random) -> tuple[_Context, _Knowledge]:
        know = _know(view, turn_over=self.options.restock.value == "turn_over")
        memory = know.memory
        live = _cards(memory.unseen & ~_held_mask(memory))
        # Sight only: every card not in view is equally likely the next stock card.
        hidden = _cards(ALL_CARDS & ~memory.own & ~memory.public)
        pool = hidden if self.sight_only else live
        odds = 1.0 / len(pool) if pool else 0.0
        nxt = (view.seat + 1) % len(view.hand_sizes)
        took = _mask(memory.seats[nxt].holds)

        def danger(card: Card) -> float:
            return 1.0 if _CLOSE[card.index] & took else 0.0

        ctx = _Context(
            self.weights,
            [(c, odds) for c in pool],
            danger,
            lambda card: 0.0,
            1.0 if self.weights.rho is None else self.weights.rho,
            self._limit(know, view),
        )
        return ctx, know

    sight_only: bool = True

    def _draw(self, view: RummyView) -> Suggestion:
        rng = _decision_rng(self.seed, view)
        ctx, know = self._context(view, rng)
        return self._draw_with(view, ctx, know, rng)

    def _draw_with(
        self, view: RummyView, ctx: _Context, know: _Knowledge, rng: random.Random
    ) -> Suggestion:
        up = view.discard_pile[-1]
        hand = list(view.hand)
        table = [t.meld for t in view.table]
        limit = ctx.limit
        take_value, take_plan = _best_value([*hand, up], table, up, limit, ctx)
        if take_plan is not None and take_plan.out:
            return Suggestion(Take(), because("rummy.take_out", card=up))
        near = (
            _NEAR[up.index] & _mask(hand) or _ends(tuple(_meld_numbers(m) for m in table)) & up.bit
        )
        if not near:
            return Suggestion(Draw(), because("completes_nothing", card=up))
        now = ctx if ctx.draw_live is None else replace(ctx, live=ctx.draw_live, cache={})
        base, _ = _best_value(hand, table, None, limit, now, discard=False)
        if self._take(view, ctx, take_value, base, hand, table, up):
            return Suggestion(Take(), _take_reason(up, hand, table, take_plan))
        return Suggestion(Draw(), because("rummy.stock_better", card=up))

    def _take(
        self,
        view: RummyView,
        ctx: _Context,
        take_value: float,
        base: float,
        hand: list[Card],
        table: list[Meld],
        up: Card,
    ) -> bool:
        return take_value < base - 2.0

    def _turn(self, view: RummyView) -> Suggestion:
        rng = _decision_rng(self.seed, view)
        ctx, _ = self._context(view, rng)
        return self._turn_with(view, ctx, rng)

    def _turn_with(
        self, view: RummyView, ctx: _Context, rng: random.Random, *, layoffs: bool = True
    ) -> Suggestion:
        hand = list(view.hand)
        table = [t.meld for t in view.table]
        allowed = _allowed_now(view, ctx.limit)
        plans = _plans(hand, table, view.taken_from_discard, allowed, layoffs=layoffs)
        legal = set(view.legal_actions)
        plans = [p for p in plans if p.steps and p.steps[0] in legal]
        if not plans:
            action = next(a for a in view.legal_actions if isinstance(a, Discard))
            return Suggestion(action, because("only_choice"))
        before = _ends(tuple(_meld_numbers(m) for m in table))
        _, plan = _ranked(plans, ctx, before)[0]
        return self._explain(plan, view, ctx)

    def _explain(self, plan: _Plan, view: RummyView, ctx: _Context) -> Suggestion:
        table = [t.meld for t in view.table]
        step = plan.steps[0]
        danger = (
            ctx.danger(step.card)
            if isinstance(step, Discard) and isinstance(step.card, Card)
            else 0.0
        )
        return Suggestion(step, _step_reason(plan, view.hand, table, danger))


def _stock_moving(view: RummyView) -> bool:
    """True unless every other seat took the top discard in its last turn.

    A take that only improves the shape of a hand (no meld, no lay-off) is allowed only when the
    stock is moving: then no table of computer players passes discards round for ever, since in
    any round of turns somebody draws from the stock.
    """
    players = len(view.hand_sizes)
    takes = 0
    for _, text in reversed(view.history):
        if text == "draw":
            return True
        if text == "take":
            takes += 1
            if takes >= players - 1:
                return False
    return True


def _held_mask(memory: CardMemory) -> int:
    mask = 0
    for notes in memory.seats:
        mask |= _mask(notes.holds)
    return mask


def _partners(up: Card, hand: Sequence[Card], plan: _Plan | None) -> list[Card]:
    """The unmatched cards of ``hand`` that ``up`` goes with (same rank, or next in its suit),
    but not the card ``plan`` (the turn planned with ``up`` taken) throws: a take "for" a card
    thrown at once would be no reason at all."""
    thrown = plan.discard if plan is not None else None
    return [c for c in best_arrangement(hand).unmatched if _CLOSE[up.index] & c.bit and c != thrown]


def _take_reason(
    up: Card, hand: Sequence[Card], table: Sequence[Meld], plan: _Plan | None = None
) -> Reason:
    for meld in melds_in([*hand, up]):
        if up in meld.cards:
            return because("makes_meld", cards=meld.cards)
    if any(m.accepts(up) for m in table):
        return because("rummy.take_layoff", card=up)
    partners = _partners(up, hand, plan)
    if partners:
        return because("rummy.take_shape", card=up, partner=partners[0])
    if plan is not None and plan.discard is not None and _CLOSE[up.index] & plan.discard.bit:
        # Kept instead of the card it goes with: a card for a card, the stock left alone.
        return because("rummy.take_swap", card=up, thrown=plan.discard)
    return because("rummy.take_better", card=up)


class MediumRummyPlayer(_Base):
    """Sound heuristics on the visible cards (see the module's description)."""

    name: str

    def __init__(
        self,
        seed: int | None = None,
        *,
        options: RummyOptions | None = None,
        weights: RummyWeights = MEDIUM_WEIGHTS,
        simple_take: bool = True,
    ) -> None:
        super().__init__(seed, options=options)
        self.name = "medium"
        self.weights = weights
        self.simple_take = simple_take

    def _take(
        self,
        view: RummyView,
        ctx: _Context,
        take_value: float,
        base: float,
        hand: list[Card],
        table: list[Meld],
        up: Card,
    ) -> bool:
        if not self.simple_take:
            return take_value < base - 2.0
        if any(m.accepts(up) for m in table):
            return True
        if any(up in m.cards for m in melds_in([*hand, up])):
            return True
        if not _stock_moving(view):
            return False
        loose = _mask(best_arrangement(hand).unmatched)
        return bool(_CLOSE[up.index] & loose)


class EasyRummyPlayer(_Base):
    """A beginner: sensible legal moves with deliberate mistakes (see the module's description)."""

    name: str
    MISTAKE: Final = 0.35
    """The chance of throwing a random unmatched card instead of the worst one."""
    OVERLOOK: Final = 0.5
    """The chance of not seeing the lay-offs this turn."""
    LIKE: Final = 0.3
    """The chance of taking a top discard that goes with one of its cards (same rank, next in
    the suit) when it makes no meld; tables of beginners that only draw end in a stalemate more
    often than not."""

    def __init__(self, seed: int | None = None, *, options: RummyOptions | None = None) -> None:
        super().__init__(seed, options=options)
        self.name = "easy"
        self.weights = EASY_WEIGHTS

    def _draw(self, view: RummyView) -> Suggestion:
        rng = _decision_rng(self.seed, view)
        up = view.discard_pile[-1]
        hand = list(view.hand)
        if any(up in m.cards for m in melds_in([*hand, up])) and rng.random() < 0.6:
            return Suggestion(Take(), because("rummy.seen_meld"))
        if _CLOSE[up.index] & _mask(hand) and _stock_moving(view) and rng.random() < self.LIKE:
            partner = next(c for c in hand if _CLOSE[up.index] & c.bit)
            return Suggestion(Take(), because("rummy.take_shape", card=up, partner=partner))
        return Suggestion(Draw(), because("completes_nothing", card=up))

    def _turn(self, view: RummyView) -> Suggestion:
        rng = _decision_rng(self.seed, view)
        ctx, _ = self._context(view, rng)
        hand = list(view.hand)
        table = [t.meld for t in view.table]
        allowed = _allowed_now(view, ctx.limit)
        legal = set(view.legal_actions)
        # Going out is never missed.
        for plan in _plans(hand, table, view.taken_from_discard, allowed):
            if plan.out and plan.steps[0] in legal:
                return self._explain(plan, view, ctx)
        see_layoffs = rng.random() >= self.OVERLOOK
        choice = self._turn_with(view, ctx, rng, layoffs=see_layoffs)
        if isinstance(choice.action, Discard) and rng.random() < self.MISTAKE:
            loose = [
                c
                for c in best_arrangement(hand).unmatched
                if c is not view.taken_from_discard and Discard(c) in legal
            ]
            if loose:
                card = loose[rng.randrange(len(loose))]
                return Suggestion(Discard(card), because("loose"))
        return choice
