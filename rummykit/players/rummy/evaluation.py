"""The hand measures of the Basic Rummy players: the weights of each level (:class:`RummyWeights`)
and the score of the hand a plan leaves (lower is better, going out beats everything).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from rummykit.cards import Card
from rummykit.melds import Meld
from rummykit.players.rummy.knowledge import (
    _NEAR,
    _cards,
    _closure,
    _ends,
    _meld_numbers,
    _MeldNumbers,
    _points,
)
from rummykit.players.rummy.planning import _Plan, _plans
from rummykit.solver.deadwood import best_arrangement, best_discards, min_deadwood_mask

_OUT: Final = 1000.0
"""The value of a plan that empties the hand (lower is better: going out beats everything)."""

# ------------------------------------------------------------------------------ evaluation


@dataclass(frozen=True, slots=True)
class RummyWeights:
    """How a level scores the hand a plan leaves (lower is better), in points of deadwood.

    score = unmatched points + ``count`` * unmatched cards + ``rho`` * points held in melds in hand
    - ``gain`` * (expected points the next stock card saves) - ``out`` * (chance it lets the hand
    go out) + ``danger`` * (chance the next player melds the card thrown) + ``exposure`` * (cards
    that new melds let opponents lay off, by the chance they hold them).
    """

    count: float = 4.0
    gain: float = 1.0
    out: float = 25.0
    danger: float = 8.0
    exposure: float = 0.0
    rho: float | None = 1.0
    """None: grows as an opponent nears going out (the hard level)."""
    top_k: int = 6
    """How many plans (the best by the quick score) are scored in full."""


EASY_WEIGHTS: Final = RummyWeights(count=1.0, gain=0.0, out=0.0, danger=0.0, top_k=0)
"""Easy's score: the points left unmatched, nothing more."""
MEDIUM_WEIGHTS: Final = RummyWeights(gain=0.0, out=0.0, danger=0.0, top_k=0)
"""Medium's score: the points left unmatched and held in melds (so melds go down at once)."""
HARD_WEIGHTS: Final = RummyWeights(exposure=3.0, rho=None)
"""Hard's score: every term, the points held in melds weighed by how near an opponent is to
going out."""


@dataclass(slots=True)
class _Context:
    """What scoring needs besides the hand: draw odds, dangers, the meld limit."""

    weights: RummyWeights
    live: list[tuple[Card, float]]
    """Per card that may be the next stock card, the chance it is."""
    danger: Callable[[Card], float]
    held: Callable[[Card], float]
    """The chance that some opponent holds a card (for the exposure of a new meld)."""
    rho: float
    limit: int | None
    """New melds allowed a turn (future turns)."""
    draw_live: list[tuple[Card, float]] | None = None
    """Like ``live``, for the card drawn now instead of a take (None: the same as ``live``)."""
    cache: dict[tuple[int, tuple[_MeldNumbers, ...]], float] = field(default_factory=dict)


def _hand_value(final: int, table: tuple[_MeldNumbers, ...], ctx: _Context) -> float:
    """The score of a hand kept at the end of a turn (lower is better)."""
    key = (final, table)
    cached = ctx.cache.get(key)
    if cached is not None:
        return cached
    w = ctx.weights
    dw = min_deadwood_mask(final)
    pts = _points(final)
    arrangement = best_arrangement(_cards(final))
    value = dw + w.count * len(arrangement.unmatched) + ctx.rho * (pts - dw)
    if ctx.limit is not None and len(arrangement.melds) > ctx.limit:
        value += 3.0 * (len(arrangement.melds) - ctx.limit)
    if w.gain or w.out:
        gain = out = 0.0
        ends = _ends(table)
        for card, odds in ctx.live:
            bit = card.bit
            if not (_NEAR[card.index] & final or bit & ends) or final & bit:
                continue
            grown = final | bit
            left = grown & ~_closure(grown, table)
            if left.bit_count() <= 1:
                out += odds
                gain += odds * dw
                continue
            after, throws = best_discards(_cards(left))
            if after == 0:
                melds = len(best_arrangement(_cards(left & ~throws[0].bit)).melds)
                if ctx.limit is None or melds <= ctx.limit:
                    out += odds
            if after < dw:
                gain += odds * (dw - after)
        value -= w.gain * gain + w.out * out
    ctx.cache[key] = value
    return value


def _quick(plan: _Plan, ctx: _Context) -> float:
    if plan.out:
        return -_OUT
    dw = min_deadwood_mask(plan.final)
    value = dw + ctx.rho * (_points(plan.final) - dw)
    if plan.discard is not None and ctx.weights.danger:
        value += ctx.weights.danger * ctx.danger(plan.discard)
    return value


def _plan_value(plan: _Plan, ctx: _Context, before: int) -> float:
    """The full score of a plan; ``before`` is the mask of table ends before the turn."""
    if plan.out:
        return -_OUT + len(plan.steps)  # fewer steps: the same result sooner
    w = ctx.weights
    value = _hand_value(plan.final, plan.table, ctx)
    if plan.discard is not None and w.danger:
        value += w.danger * ctx.danger(plan.discard)
    if w.exposure and plan.melds:
        fresh = _ends(plan.table) & ~before
        value += w.exposure * sum(ctx.held(c) for c in _cards(fresh))
    return value


def _ranked(plans: list[_Plan], ctx: _Context, before: int) -> list[tuple[float, _Plan]]:
    """The plans by score, best first: the best few by the quick score are scored in full."""
    quick = sorted(plans, key=lambda p: (_quick(p, ctx), len(p.steps)))
    k = ctx.weights.top_k
    if k <= 0:
        return [(_quick(p, ctx), p) for p in quick]
    head = [(_plan_value(p, ctx, before), p) for p in quick[:k]]
    head.sort(key=lambda vp: (vp[0], len(vp[1].steps)))
    tail = [(_quick(p, ctx) + 1e6, p) for p in quick[k:]]
    return head + tail


def _best_value(
    hand: Sequence[Card],
    table: Sequence[Meld],
    taken: Card | None,
    allowed: int | None,
    ctx: _Context,
    *,
    discard: bool = True,
) -> tuple[float, _Plan | None]:
    plans = _plans(hand, table, taken, allowed, discard=discard)
    if not plans:
        return float("inf"), None
    before = _ends(tuple(_meld_numbers(m) for m in table))
    value, plan = _ranked(plans, ctx, before)[0]
    return value, plan
