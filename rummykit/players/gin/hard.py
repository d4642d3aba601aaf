"""The hard Gin player: card memory, sampled deals, scored discards and playouts of the knock."""

from __future__ import annotations

import random

from rummykit.actions import Action, Discard, Draw, Knock, Pass, Take
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
    _near_in_hand,
)
from rummykit.players.gin.evaluation import (
    HARD_WEIGHTS,
    DiscardWeights,
    _after_draw_value,
    _analyse,
    _Analysis,
    _discard_scores,
    _lookahead_value,
)
from rummykit.players.gin.levels import (
    _best_knock,
    _discard_cards,
    _discard_reason,
    _draw_reason,
    _knocks,
    _take_helps,
    _take_reason,
)
from rummykit.players.gin.playouts import (
    _Deal,
    _paired_gain,
    _playout,
    _sample_deals,
    _settle,
    _stock_of,
    _with_sampled_chances,
)
from rummykit.players.reasons import Suggestion, because
from rummykit.players.tracking import meld_chance
from rummykit.solver.deadwood import hand_mask, min_deadwood_mask

__all__ = ["HardGinPlayer"]


class HardGinPlayer(SeededPlayer):
    """Card memory, sampled inference, a two-draw lookahead and determinized Monte Carlo.

    For every decision it deals the unseen cards ``deals`` times at random, consistently with its
    view (:func:`_sample_deals`), and counts how often the opponent holds each card: that is its
    estimate of what the opponent collects (the danger of a discard) and of what the stock may
    bring. A discard is chosen by the static score with ``weights`` (:class:`DiscardWeights`),
    the ``lookahead`` best of which are scored again one draw deeper (the expected score after
    the next stock card and the best discard then); the up-card is taken when the hand after
    taking it scores better than the expected hand after a stock card (``expect_draws``). When
    it may knock, it plays each of ``deals`` sampled deals out to the end of the hand both ways
    (knock now: scored exactly against the sampled hand, lay-offs and undercut included; or throw
    the best discard and play on, both seats greedy) and waits only if waiting wins by more than
    ``confidence`` standard errors (``search_knock``; 0: whichever pays more on average). Those
    deals are drawn from ``knock_pool`` times as many, favouring hands of the low deadwood a real
    opponent has by then (:func:`_sample_deals`): hands dealt at random are far worse than what an
    opponent keeps, which made knocking look safer than it is. At the wall, where a discard
    cancels the hand (0 for both), it knocks exactly when the knock pays on average.
    """

    name: str

    def __init__(
        self,
        seed: int | None = None,
        *,
        options: GinOptions | None = None,
        deals: int = 100,
        weights: DiscardWeights = HARD_WEIGHTS,
        lookahead: int = 3,
        confidence: float = 0.0,
        expect_draws: bool = True,
        search_knock: bool = True,
        sampled_inference: bool = True,
        knock_pool: int = 3,
    ) -> None:
        self.name = "hard"
        super().__init__(seed)
        self.options = options if options is not None else GinOptions()
        self.deals = deals
        self.weights = weights
        self.lookahead = lookahead
        self.confidence = confidence
        self.expect_draws = expect_draws
        self.search_knock = search_knock
        self.sampled_inference = sampled_inference
        self.knock_pool = knock_pool

    def suggest(self, view: View) -> Suggestion:
        """The hard player's action and a short reason a person understands."""
        v = _gin_view(view)
        if v.phase is Phase.LAYOFF:
            return _layoff_decision(v)
        legal = v.legal_actions
        if legal == (Draw(),):
            return Suggestion(legal[0], _draw_reason(None, v.hand))
        an = _analyse(v)
        rng = _decision_rng(self.seed, v)
        deals = _sample_deals(v, an, rng, self.deals, self.options.knock_limit)
        if self.sampled_inference:
            an = _with_sampled_chances(an, deals)
        if v.phase in (Phase.OFFER, Phase.DRAW):
            return self._draw(v, an)
        return self._discard(v, an, deals, rng)

    def _draw(self, view: GinView, an: _Analysis) -> Suggestion:
        """Take the up-card, or draw from the stock (pass, at the first-turn offer)."""
        offer = view.phase is Phase.OFFER
        other: Action = Pass() if offer else Draw()
        up = view.discard_pile[-1]
        hand = list(view.hand)
        limit = self.options.knock_limit
        after, _ = _best_without([*hand, up], up)
        if after == 0:
            return Suggestion(Take(), _take_reason(up, hand))
        mask = hand_mask(hand)
        obvious = not _near_in_hand(up, mask) and after >= min_deadwood_mask(mask) - 3
        if obvious and after > limit:
            return Suggestion(other, _draw_reason(up, hand))
        if self.expect_draws:
            take_value = _after_draw_value([*hand, up], an, self.weights, limit, keep=up)
            take = take_value < _lookahead_value(hand, an, self.weights, limit)
        else:
            take = _take_helps(view, limit)
        if take:
            return Suggestion(Take(), _take_reason(up, hand))
        return Suggestion(other, _draw_reason(up, hand))

    def _discard(
        self, view: GinView, an: _Analysis, deals: list[_Deal], rng: random.Random
    ) -> Suggestion:
        """Knock, or throw the card that leaves the best hand."""
        hand = list(view.hand)
        limit = self.options.knock_limit
        knocks = _knocks(view)
        knock_card: Card | None = None
        knock_dw = 0
        if knocks:
            knock_card, knock_dw = _best_knock(knocks)
            if knock_dw == 0:
                return Suggestion(Knock(knock_card), because("gin.gin"))
            if not self.search_knock:
                return Suggestion(Knock(knock_card), because("gin.knock_early", count=knock_dw))
        discards = _discard_cards(view)
        scores = _discard_scores(hand, discards, an, self.weights, limit)
        ranked = sorted(discards, key=lambda c: scores[c][0])
        if self.lookahead > 1:
            danger = self.weights.danger
            deeper = {
                c: _lookahead_value([x for x in hand if x is not c], an, self.weights, limit)
                + danger * meld_chance(c, an.chances)
                for c in ranked[: self.lookahead]
            }
            ranked[: self.lookahead] = sorted(deeper, key=lambda c: deeper[c])
        best = ranked[0]
        reason = _discard_reason(best, hand, an, scores[best][1])
        if knock_card is None:
            return Suggestion(Discard(best), reason)
        if self.knock_pool > 1:
            deals = _sample_deals(view, an, rng, self.deals, limit, self.knock_pool)
        knocking: list[int] = []
        waiting: list[int] = []
        rest = [c for c in hand if c is not knock_card]
        mine = [c for c in hand if c is not best]
        for deal in deals:
            knocking.append(_settle(rest, knock_dw, list(deal.opponent), self.options))
            hands = [list(mine), list(deal.opponent)]
            stock = _stock_of(an, deal, rng)
            waiting.append(_playout(hands, stock, best, 1, True, self.options))
        gain, error = _paired_gain(waiting, knocking)
        risk = round(100 * sum(v < 0 for v in knocking) / len(deals))
        knock_reason = because("gin.knock_risk", count=knock_dw, risk=risk)
        if view.stock_size <= WALL:
            # The discard would cancel the hand (0 for both): knock if the knock pays on average.
            if gain < 0:
                return Suggestion(
                    Knock(knock_card),
                    because("gin.wall_knock").also("gin.knock_risk", count=knock_dw, risk=risk),
                )
            return Suggestion(
                Discard(best), reason.also("gin.wall_cancel", count=knock_dw, risk=risk)
            )
        if gain <= self.confidence * error:
            return Suggestion(Knock(knock_card), knock_reason)
        if view.stock_size <= WALL + 1:
            # The opponent's next discard cancels the hand unless it takes this one: no gin to wait for.
            return Suggestion(
                Discard(best), reason.also("gin.wait_risk", count=knock_dw, risk=risk)
            )
        return Suggestion(Discard(best), reason.also("gin.wait", count=knock_dw))
