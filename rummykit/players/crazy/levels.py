"""The Crazy Rummy players' shared decisions (laying down, the discard, the draw, their reasons), their
common base and the ``easy`` and ``medium`` levels.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rummykit.actions import Action, Buy, Discard, Down, Draw, LayOff, Pass, Swap, Take
from rummykit.cards import AnyCard, Card
from rummykit.games.base import Phase, View
from rummykit.games.crazy import CrazyOptions, CrazyView
from rummykit.players.base import SeededPlayer, checked_view, decision_rng
from rummykit.players.crazy.evaluation import _DIST_W, _Ctx, _ctx, _potential
from rummykit.players.crazy.knowledge import _KEYS, _key
from rummykit.players.crazy.planning import _KeepScore, _Plan, _plan_turn
from rummykit.players.reasons import Reason, Suggestion, because
from rummykit.wild_melds import (
    Run,
    crazy_points,
    is_wild,
    position_card,
)

_KEEP_TAKEN: Final = 12.0
"""Score units for ``hard`` throwing back a card it took from the pile (or bought) and still holds,
while not down. Only near-ties feel it (one card of distance is 100): the player took it for its
contract, every player saw that, and when a card drawn since does as well it keeps the card it
chose rather than undo its own take (hints that say "take A♣" and soon "throw A♣" read as a
contradiction, and throwing it back tells the table the plan changed). In 400 matches against
the old ``hard`` it won as often and scored the same; ``medium`` with it scored about 13 points a
match worse than without, so ``medium`` does without."""


def _taken_back(view: CrazyView, card: AnyCard, hand: Sequence[AnyCard]) -> bool:
    """Whether discarding ``card`` throws back a copy this seat took from the pile or bought."""
    mine = view.known_cards[view.seat]
    return card in mine and hand.count(card) <= mine.count(card)


def _crazy_view(view: View) -> CrazyView:
    return checked_view(view, CrazyView, "Crazy Rummy")


def _decision_rng(seed: int, view: CrazyView) -> random.Random:
    """A generator for one decision: the same seed and public history give the same draws."""
    history = ";".join(f"{s}{text}" for s, text in view.history)
    hand = "".join(str(c) for c in view.hand)
    return decision_rng(seed, view.seat, view.round, view.dealer, history, hand)


def _plural(key: str, count: int) -> Reason:
    if count == 1:
        return because(f"{key}_one")
    return because(f"{key}_many", count=count)


# -------------------------------------------------------------------------- shared decisions


def _down_action(view: CrazyView) -> Down | None:
    return next((a for a in view.legal_actions if isinstance(a, Down)), None)


def _down_reason(view: CrazyView, down: Down) -> Reason:
    laid = sum(len(m) for m in down.melds)
    if laid == len(view.hand):
        return because("crazy.down_out")
    return because("crazy.contract_met")


def _discards(view: CrazyView) -> list[AnyCard]:
    return [a.card for a in view.legal_actions if isinstance(a, Discard)]


def _plan_reason(view: CrazyView, plan: _Plan) -> Reason:
    first = plan.actions[0]
    table = [t.meld for t in view.table]
    if isinstance(first, LayOff):
        reason = because("crazy.layoff", card=first.card, meld=table[first.meld - 1].cards)
    elif isinstance(first, Swap):
        meld = table[first.meld - 1]
        swapped = meld.swap(first.card) if isinstance(meld, Run) else None
        wild = swapped[1] if swapped is not None else first.card
        reason = because("crazy.swap", card=first.card, wild=wild, meld=meld.cards)
        if len(plan.actions) > 1 and isinstance(plan.actions[1], LayOff):
            reason = reason.also("crazy.swap_play")
    else:
        assert isinstance(first, Discard)
        if not plan.left:
            return because("crazy.last_card")
        reason = because("crazy.no_fit", card=first.card)
        if crazy_points(first.card) >= 10:
            reason = reason.also("crazy.high", card=first.card, count=crazy_points(first.card))
    if not plan.left:
        return reason.also("goes_out")
    return reason + _plural("crazy.left", len(plan.left))


def _down_keep_score(risk: float, near: Sequence[float] | None = None) -> _KeepScore:
    """The leftover score once down: cards to get rid of first, then their points.

    ``near`` (per card kind) is a bonus for keeping a card that may fit the table soon.
    """

    def score(left: tuple[AnyCard, ...], thrown: AnyCard) -> float:
        points = sum(crazy_points(c) for c in left)
        bonus = sum(6.0 for c in left if is_wild(c))  # a wild is easy to lay off later
        if near is not None:
            bonus += sum(near[_key(c)] for c in left)
        return 30.0 * len(left) + (0.4 + risk) * points - bonus

    return score


def _near_fits(view: CrazyView, ctx: _Ctx) -> list[float]:
    """Per card kind, a bonus for a card one card away from a run end (it fits once that card
    is laid off, by anyone), weighed by the copies of that card still to come."""
    near = [0.0] * _KEYS
    for table_meld in view.table:
        run = table_meld.meld
        if not isinstance(run, Run):
            continue
        for gap, beyond in ((run.low - 1, run.low - 2), (run.high + 1, run.high + 2)):
            if not (1 <= gap <= 14 and 1 <= beyond <= 14) or 2 in (gap, beyond):
                continue
            g = position_card(gap, run.suit).index
            b = position_card(beyond, run.suit).index
            if ctx.unseen[g]:
                near[b] = max(near[b], 4.0 * min(2, ctx.unseen[g]))
    return near


def _replacement(ctx: _Ctx, card: AnyCard, hand: Sequence[AnyCard]) -> AnyCard | None:
    """A card of ``hand`` without which ``card`` would be needed for the contract (it does the
    job ``card`` was taken for), or None. Only a card of the same rank or suit, or a wild, is
    named (a beginner sees why it can stand in), those of the same rank first."""

    def kin(other: AnyCard) -> int:
        if isinstance(card, Card) and isinstance(other, Card):
            if other.number == card.number:
                return 0
            if other.suit_index == card.suit_index:
                return 1
        return 2

    for other in sorted(dict.fromkeys(hand), key=kin):
        if other == card or (kin(other) == 2 and not is_wild(other)):
            continue
        rest = list(hand)
        rest.remove(other)
        without = list(rest)
        without.remove(card)
        if ctx.dist(without) > ctx.dist(rest):
            return other
    return None


def _discard_reason(
    ctx: _Ctx, card: AnyCard, dist: int, shed: bool, hand: Sequence[AnyCard]
) -> Reason:
    points = crazy_points(card)
    if shed:
        return because("crazy.shed").also("crazy.high", card=card, count=points)
    # Holding the same card twice (two packs), "not needed" would read as if no copy were: say
    # that one is enough (a hint to take it may have come just before). A card taken from the
    # pile for the contract (the hint said so) and thrown now: say which card took its place.
    other = None
    if hand.count(card) == 1 and _taken_back(ctx.view, card, hand):
        other = _replacement(ctx, card, hand)
    if other is not None:
        reason = because("crazy.replaced", card=card, other=other)
    else:
        spare = "crazy.spare_copy" if hand.count(card) > 1 else "crazy.spare"
        reason = because(spare, card=card)
    if points >= 10:
        reason = reason.also("crazy.high", card=card, count=points)
    return reason + _plural("crazy.need", dist) if dist else reason


def _draw_decision(view: CrazyView, ctx: _Ctx, *, notice: bool = True) -> Suggestion:
    """Take the offered card or draw (pass at the dealer's first offer)."""
    offer = view.phase is Phase.OFFER
    other: Action = Pass() if offer else Draw()
    card = view.offered
    legal = view.legal_actions
    if card is None or Take() not in legal:
        return Suggestion(legal[0], because("stock_only"))
    hand = list(view.hand)
    me = view.seat
    if view.laid_down[me]:
        if not offer and ctx.fits(card) and notice:
            return Suggestion(Take(), because("crazy.layable", card=card))
        return Suggestion(other, because("crazy.no_fit", card=card))
    before = ctx.dist(hand)
    after = ctx.dist([*hand, card])
    if notice and after < before:
        if offer:
            return Suggestion(Take(), because("crazy.dealer_take", card=card))
        key = "crazy.completes" if after == 0 else "crazy.closer"
        return Suggestion(Take(), because(key, card=card))
    reason = because("crazy.no_help", card=card)
    if offer:
        # The dealer's first offer: a pass draws nothing; the next player plays on.
        return Suggestion(other, reason.also("crazy.pass_on"))
    # "draw from the stock instead" only where the move itself is not the draw (a pass).
    return Suggestion(other, reason if isinstance(other, Draw) else reason.also("crazy.stock"))


def _risk_simple(view: CrazyView) -> float:
    """A rough chance that an opponent goes out before this seat plays again."""
    risk = 0.0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat or not view.laid_down[seat]:
            continue
        if size <= 1:
            risk = max(risk, 0.6)
        elif size <= 2:
            risk = max(risk, 0.4)
        elif size <= 3:
            risk = max(risk, 0.15)
    return risk


def _penalty_reason(options: CrazyOptions) -> Reason:
    if options.penalty_cards == 1:
        return because("crazy.penalty_one")
    return because("crazy.penalty_many", count=options.penalty_cards)


# ------------------------------------------------------------------------------- the players


class _CrazyPlayer(SeededPlayer):
    """What the three levels share: the seed, the options, and the checks of ``suggest``."""

    name: str = "crazy"

    def __init__(self, seed: int | None = None, *, options: CrazyOptions | None = None) -> None:
        super().__init__(seed)
        self.options = options if options is not None else CrazyOptions()

    def suggest(self, view: View) -> Suggestion:
        """This player's action and a short reason a person understands."""
        v = _crazy_view(view)
        legal = v.legal_actions
        if len(legal) == 1:
            return Suggestion(legal[0], because("only_choice"))
        return self._decide(v)

    def _decide(self, v: CrazyView) -> Suggestion:  # pragma: no cover - every level overrides it
        """The decision when there is a choice (``v`` is this player's own Crazy Rummy view)."""
        raise NotImplementedError


class MediumCrazyPlayer(_CrazyPlayer):
    """Sound heuristics on the exact contract distance; see the module's description."""

    max_buys: int = 1
    """Buys a round at most."""
    potential_weight: float = 8.0
    """Score units per unit of potential (tie-breaks between hands equally far)."""

    name = "medium"

    def _decide(self, v: CrazyView) -> Suggestion:
        ctx = _ctx(v, self.options)
        # no card memory: every card is taken to be as available as at the deal
        ctx.avail = [2.0] * 52 + [float(self.options.jokers)]
        if v.phase is Phase.BUY:
            return self._buy(v, ctx)
        if v.phase in (Phase.OFFER, Phase.DRAW):
            return _draw_decision(v, ctx)
        return self._turn(v, ctx)

    def _buy(self, view: CrazyView, ctx: _Ctx) -> Suggestion:
        card = view.offered
        assert card is not None
        if view.laid_down[view.seat]:
            return Suggestion(Pass(), because("crazy.down_no_buy"))
        if view.buys[view.seat] >= self.max_buys:
            return Suggestion(Pass(), because("crazy.buys_used", count=view.buys[view.seat]))
        if _risk_simple(view) > 0.3:
            return Suggestion(Pass(), because("crazy.risk"))
        hand = list(view.hand)
        after = ctx.dist([*hand, card])
        if after < ctx.dist(hand):
            key = "crazy.completes" if after == 0 else "crazy.closer"
            return Suggestion(Buy(), because(key, card=card) + _penalty_reason(self.options))
        return Suggestion(Pass(), because("crazy.not_worth", card=card))

    def _turn(self, view: CrazyView, ctx: _Ctx) -> Suggestion:
        down = _down_action(view)
        if down is not None:
            return Suggestion(down, _down_reason(view, down))
        risk = _risk_simple(view)
        if view.laid_down[view.seat]:
            plan = _plan_turn(
                view,
                ctx.rules,
                _down_keep_score(risk),
                discard_to_go_out=self.options.discard_to_go_out,
                discard_taken_twin=self.options.discard_taken_twin,
            )
            return Suggestion(plan.actions[0], _plan_reason(view, plan))
        return self._discard(view, ctx, risk)

    def _discard(self, view: CrazyView, ctx: _Ctx, risk: float) -> Suggestion:
        hand = list(view.hand)
        nxt = (view.seat + 1) % len(view.hand_sizes)
        feeds_next = view.laid_down[nxt]
        best: tuple[float, AnyCard, int] | None = None
        for card in _discards(view):
            rest = list(hand)
            rest.remove(card)
            dist = ctx.dist(rest)
            score = (1.0 - risk) * (_DIST_W * dist - self.potential_weight * _potential(rest, ctx))
            score -= (0.05 + risk) * crazy_points(card)
            if is_wild(card):
                score += 60.0
            if feeds_next and ctx.fits(card):
                score += 25.0
            if best is None or score < best[0]:
                best = (score, card, dist)
        assert best is not None
        _, card, dist = best
        return Suggestion(Discard(card), _discard_reason(ctx, card, dist, risk > 0.3, hand))


class EasyCrazyPlayer(_CrazyPlayer):
    """A beginner's player: legal and sensible, with deliberate mistakes (see the module)."""

    mistake: float = 0.35
    """How often a discard ignores the contract and throws a high card."""

    name = "easy"

    def _decide(self, v: CrazyView) -> Suggestion:
        legal = v.legal_actions
        rng = _decision_rng(self.seed, v)
        ctx = _ctx(v, self.options)
        if v.phase is Phase.BUY:
            card = v.offered
            assert card is not None
            hand = list(v.hand)
            if (
                not v.laid_down[v.seat]
                and v.buys[v.seat] == 0
                and rng.random() < 0.5
                and ctx.dist([*hand, card]) == 0
            ):
                return Suggestion(Buy(), because("crazy.completes", card=card))
            return Suggestion(Pass(), because("crazy.not_worth", card=card))
        if v.phase in (Phase.OFFER, Phase.DRAW):
            return _draw_decision(v, ctx, notice=rng.random() < 0.6)
        down = _down_action(v)
        if down is not None:
            laid = sum(len(m) for m in down.melds)
            if laid == len(v.hand) or rng.random() < 0.7:
                return Suggestion(down, _down_reason(v, down))
        me = v.seat
        if v.laid_down[me]:
            layoffs = [a for a in legal if isinstance(a, LayOff)]
            natural = [a for a in layoffs if not is_wild(a.card)]
            if natural and (len(v.hand) == 1 or rng.random() < 0.75):
                act = natural[0]
                meld = v.table[act.meld - 1].meld.cards
                return Suggestion(act, because("crazy.layoff", card=act.card, meld=meld))
            if layoffs and len(v.hand) == 1:
                act = layoffs[0]
                meld = v.table[act.meld - 1].meld.cards
                return Suggestion(act, because("crazy.layoff", card=act.card, meld=meld))
        cards = _discards(v)
        if not cards:  # only the taken card and its twin: one goes on the table
            act = next(a for a in legal if isinstance(a, LayOff))
            meld = v.table[act.meld - 1].meld.cards
            return Suggestion(act, because("crazy.layoff", card=act.card, meld=meld))
        if len(v.hand) == 1 and cards:
            return Suggestion(Discard(cards[0]), because("crazy.last_card"))
        naturals = [c for c in cards if not is_wild(c)] or cards
        if v.laid_down[me] or rng.random() < self.mistake:
            card = max(naturals, key=lambda c: (crazy_points(c), rng.random()))
            return Suggestion(
                Discard(card), because("crazy.high", card=card, count=crazy_points(card))
            )
        hand = list(v.hand)

        def key(c: AnyCard) -> tuple[int, int]:
            rest = list(hand)
            rest.remove(c)
            return ctx.dist(rest), -crazy_points(c)

        card = min(naturals, key=key)
        return Suggestion(Discard(card), _discard_reason(ctx, card, key(card)[0], False, hand))
