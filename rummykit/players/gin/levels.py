"""The easy and medium Gin players, and the reasons every level gives for a discard, a draw
or a take."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.actions import Action, Discard, Done, Draw, Knock, LayOff, Pass, Take
from rummykit.cards import Card
from rummykit.games.base import Phase, View
from rummykit.games.gin import GinOptions, GinView
from rummykit.players.base import SeededPlayer
from rummykit.players.gin.common import (
    WALL,
    _best_without,
    _decision_rng,
    _gin_view,
    _layoff_decision,
    _meld_of,
    _melds_with,
    _near_in_hand,
    _throw_order,
)
from rummykit.players.gin.evaluation import (
    MEDIUM_WEIGHTS,
    DiscardWeights,
    _analyse,
    _Analysis,
    _discard_scores,
    _gin_outs,
)
from rummykit.players.reasons import Reason, Suggestion, because, discard_reason
from rummykit.solver.deadwood import (
    best_arrangement,
    discard_deadwoods,
    hand_mask,
    min_deadwood_mask,
)

__all__ = ["EasyGinPlayer", "MediumGinPlayer"]


def _discard_reason(card: Card, hand: Sequence[Card], an: _Analysis, deadwood: int) -> Reason:
    """Why throwing ``card`` is sensible, in a few words."""
    mask = hand_mask(hand) & ~card.bit
    opp = an.memory.seats[an.opponent]
    safe_from = [d for d in opp.discarded if d.number == card.number] or [
        d for d in opp.discarded if d.suit is card.suit and abs(d.number - card.number) == 1
    ]
    loose = not _near_in_hand(card, mask)
    arrangement = best_arrangement(list(hand))
    unmatched = arrangement.unmatched
    reason = discard_reason(card, unmatched, loose)
    if safe_from:
        reason = reason.also("gin.safe", card=safe_from[-1])
    return reason.also("deadwood_left", count=deadwood)


def _draw_reason(up: Card | None, hand: Sequence[Card]) -> Reason:
    if up is None:
        return because("stock_only")
    if not _near_in_hand(up, hand_mask(hand)):
        return because("completes_nothing", card=up)
    return because("gin.reveal", card=up)


def _take_reason(up: Card, hand: Sequence[Card]) -> Reason:
    cards = [*hand, up]
    knock_dw, _ = _best_without(cards, up)
    meld = _meld_of(cards, up)
    if knock_dw == 0:
        return because("gin.gives_gin", card=up)
    if meld and knock_dw <= 10:
        return because("makes_meld", cards=meld).also("gin.lets_knock")
    if meld:
        return because("makes_meld", cards=meld)
    return because("gin.lowers", card=up, count=knock_dw)


def _take_helps(view: GinView, limit: int) -> bool:
    """Medium's rule: take the up-card when it joins a meld and lowers the deadwood, or allows a
    knock right away."""
    up = view.discard_pile[-1]
    mask = hand_mask(view.hand)
    cards = [*view.hand, up]
    after, _ = _best_without(cards, up)
    if after <= limit:
        return True
    return _melds_with(mask, up) and after < min_deadwood_mask(mask)


def _discard_cards(view: GinView) -> list[Card]:
    """The cards this seat may discard now."""
    return [
        a.card for a in view.legal_actions if isinstance(a, Discard) and isinstance(a.card, Card)
    ]


def _knocks(view: GinView) -> dict[Card, int]:
    """Per legal knock card, the knocker's deadwood."""
    cards = [a.card for a in view.legal_actions if isinstance(a, Knock)]
    if not cards:
        return {}
    table = discard_deadwoods(view.hand)
    return {c: table[c] for c in cards}


def _best_knock(knocks: dict[Card, int]) -> tuple[Card, int]:
    best = min(knocks.values())
    card = max((c for c, v in knocks.items() if v == best), key=_throw_order)
    return card, best


class MediumGinPlayer(SeededPlayer):
    """Sound heuristics on the exact deadwood (see the module's description).

    ``weights`` set the static discard score (:class:`DiscardWeights`); ``wait_for_gin`` lets it
    hold a very low knock early when gin is near.
    """

    name: str

    def __init__(
        self,
        seed: int | None = None,
        *,
        options: GinOptions | None = None,
        weights: DiscardWeights = MEDIUM_WEIGHTS,
        wait_for_gin: bool = True,
    ) -> None:
        self.name = "medium"
        self.weights = weights
        super().__init__(seed)
        self.options = options if options is not None else GinOptions()
        self.wait_for_gin = wait_for_gin

    def suggest(self, view: View) -> Suggestion:
        """The medium player's action and why."""
        v = _gin_view(view)
        return _medium_decision(
            v,
            self.options.knock_limit,
            weights=self.weights,
            wait_for_gin=self.wait_for_gin,
        )


def _medium_decision(
    view: GinView,
    limit: int,
    *,
    weights: DiscardWeights = MEDIUM_WEIGHTS,
    wait_for_gin: bool = True,
) -> Suggestion:
    if view.phase is Phase.LAYOFF:
        return _layoff_decision(view)
    legal = view.legal_actions
    if view.phase in (Phase.OFFER, Phase.DRAW):
        if Take() in legal and view.discard_pile:
            up = view.discard_pile[-1]
            if _take_helps(view, limit):
                return Suggestion(Take(), _take_reason(up, view.hand))
            other: Action = Pass() if view.phase is Phase.OFFER else Draw()
            return Suggestion(other, _draw_reason(up, view.hand))
        return Suggestion(legal[0], _draw_reason(None, view.hand))
    an = _analyse(view)
    knocks = _knocks(view)
    hand = list(view.hand)
    if knocks:
        card, deadwood = _best_knock(knocks)
        if deadwood == 0:
            return Suggestion(Knock(card), because("gin.gin"))
        if view.stock_size <= WALL:
            return Suggestion(
                Knock(card), because("gin.wall_knock").also("gin.keep", count=deadwood)
            )
        rest = [c for c in hand if c is not card]
        wait = wait_for_gin and deadwood <= 3 and view.stock_size >= 14 and _gin_outs(rest, an) >= 2
        if not wait:
            return Suggestion(Knock(card), because("gin.knock_early", count=deadwood))
    candidates = _discard_cards(view)
    scores = _discard_scores(hand, candidates, an, weights, limit)
    card = min(candidates, key=lambda c: scores[c][0])
    return Suggestion(Discard(card), _discard_reason(card, hand, an, scores[card][1]))


class EasyGinPlayer(SeededPlayer):
    """A beginner: sensible legal moves with deliberate mistakes (see the module's description)."""

    name: str
    MISTAKE: Final = 0.35
    """The chance of throwing a random unmatched card instead of the worst one."""

    def __init__(self, seed: int | None = None, *, options: GinOptions | None = None) -> None:
        self.name = "easy"
        super().__init__(seed)
        self.options = options if options is not None else GinOptions()

    def suggest(self, view: View) -> Suggestion:
        """The easy player's action and a plain reason."""
        v = _gin_view(view)
        rng = _decision_rng(self.seed, v)
        legal = v.legal_actions
        if v.phase is Phase.LAYOFF:
            if rng.random() < 0.5:
                return Suggestion(Done(), because("gin.enough"))
            layoffs = [a for a in legal if isinstance(a, LayOff)]
            if layoffs:
                return Suggestion(layoffs[0], because("fits_meld", card=layoffs[0].card))
            return Suggestion(Done(), because("nothing_fits"))
        if v.phase in (Phase.OFFER, Phase.DRAW):
            other: Action = Pass() if v.phase is Phase.OFFER else Draw()
            if Take() in legal and v.discard_pile:
                up = v.discard_pile[-1]
                if _melds_with(hand_mask(v.hand), up) and rng.random() < 0.7:
                    return Suggestion(Take(), because("gin.a_meld"))
            return Suggestion(other if other in legal else legal[0], because("gin.try_stock"))
        hand = list(v.hand)
        knocks = _knocks(v)
        if knocks:
            card, deadwood = _best_knock(knocks)
            if v.stock_size <= WALL:
                return Suggestion(Knock(card), because("gin.wall_knock"))
            if v.stock_size == WALL + 1:  # no draw of its own is left unless this discard is taken
                return Suggestion(Knock(card), because("deadwood_left", count=deadwood))
            if deadwood <= 4 or rng.random() < 0.4:
                return Suggestion(Knock(card), because("deadwood_left", count=deadwood))
        taken = v.taken_from_discard
        deadwood, card = _best_without(hand, taken)
        if rng.random() < self.MISTAKE:
            loose = [c for c in best_arrangement(hand).unmatched if c is not taken]
            if loose:
                card = loose[rng.randrange(len(loose))]
                return Suggestion(Discard(card), because("gin.no_fit"))
        return Suggestion(
            Discard(card), because("gin.no_fit").also("deadwood_left", count=deadwood)
        )


def _greedy_take(hand: list[Card], mask: int, up: Card, limit: int) -> bool:
    """The playout policy's draw: the up-card if it melds (lowering the deadwood) or allows a knock."""
    now = min_deadwood_mask(mask)
    with_up = min_deadwood_mask(mask | up.bit)
    if with_up < now + up.points:
        return True
    if with_up - 10 <= limit:
        hand.append(up)
        after = _best_without(hand, up)[0]
        hand.pop()
        return after <= limit
    return False
