"""The ``hard`` Basic Rummy player: card memory, sampled deals of the hidden cards, and (off by
default) playouts of every sampled deal to the end of the hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.actions import Discard
from rummykit.cards import Card
from rummykit.games.base import Phase
from rummykit.games.rummy import RummyOptions, RummyView
from rummykit.melds import Meld
from rummykit.players.reasons import Suggestion, because
from rummykit.players.rummy.evaluation import HARD_WEIGHTS, RummyWeights, _Context, _ranked
from rummykit.players.rummy.knowledge import (
    _CLOSE,
    _RANK_BITS,
    _cards,
    _closure,
    _ends,
    _know,
    _Knowledge,
    _mask,
    _meld_numbers,
    _MeldNumbers,
    _points,
)
from rummykit.players.rummy.levels import _allowed_now, _Base, _stock_moving
from rummykit.players.rummy.planning import _plans
from rummykit.players.tracking import (
    CardMemory,
    holding_chances,
    holding_weights,
    meld_chance,
    sample_hidden,
)
from rummykit.solver.deadwood import best_arrangement, best_discards, min_deadwood_mask

# --------------------------------------------------------------------------------------- hard


@dataclass(slots=True)
class _Deal:
    """One determinization: every seat's whole hand (0 for this seat) and the stock, top first."""

    hands: list[int]
    stock: list[Card]


def _extend(table: list[_MeldNumbers], laid: int) -> None:
    """Put the cards ``laid`` (as found by :func:`_closure`) onto the melds of ``table``."""
    for i, m in enumerate(table):
        if not laid:
            return
        if m.is_set:
            extra = laid & _RANK_BITS[m.key] & ~m.mask
            if extra and m.mask.bit_count() == 3:
                one = extra & -extra
                table[i] = _MeldNumbers(True, m.key, m.lo, m.hi, m.mask | one)
                laid &= ~one
        else:
            base = 13 * m.key
            lo, hi = m.lo, m.hi
            while lo > 0 and laid >> (base + lo - 1) & 1:
                lo -= 1
                laid &= ~(1 << (base + lo))
            while hi < 12 and laid >> (base + hi + 1) & 1:
                hi += 1
                laid &= ~(1 << (base + hi))
            if (lo, hi) != (m.lo, m.hi):
                table[i] = _MeldNumbers(False, m.key, lo, hi, 0)


def _lay(hand: int, table: list[_MeldNumbers], limit: int | None) -> int:
    """Lay down melds of ``hand`` (one, or all when unlimited); the hand left."""
    if min_deadwood_mask(hand) == _points(hand):
        return hand
    melds = best_arrangement(_cards(hand)).melds
    for meld in melds if limit is None else melds[:limit]:
        table.append(_meld_numbers(meld))
        hand &= ~_mask(meld.cards)
    return hand


def _step(
    hand: int, card: Card, table: list[_MeldNumbers], limit: int | None, keep: bool = False
) -> tuple[int, bool]:
    """One greedy turn with ``card`` drawn (or taken, with ``keep``: it may not be thrown).

    Lays off what fits, throws the card leaving the least deadwood (the highest on a tie), lays
    down melds. Returns the hand left and whether it went out.
    """
    grown = hand | card.bit
    laid = _closure(grown, table)
    if laid:
        _extend(table, laid)
        grown &= ~laid
    if keep and grown == card.bit:
        return grown, False  # (the rules would not have let the last lay-off strand it)
    if grown.bit_count() <= 1:
        return 0, True
    left, throws = best_discards(_cards(grown))
    options = [c for c in throws if not (keep and c is card)]
    if not options:
        options = [max((c for c in _cards(grown) if c is not card), key=lambda c: c.points)]
    throw = max(options, key=lambda c: (c.points, c.number))
    rest = grown & ~throw.bit
    if left == 0 and options[0] in throws:
        melds = best_arrangement(_cards(rest)).melds
        if limit is None or len(melds) <= limit:
            return 0, True
    return _lay(rest, table, limit), False


def _rollout(
    hand: int, table: Sequence[_MeldNumbers], draws: Sequence[Card], limit: int | None
) -> tuple[int, list[int]]:
    """Play ``hand`` alone over ``draws``: the turn it goes out on (0: not within the draws)
    and the points in hand before each turn and after the last."""
    tab = list(table)
    points = [_points(hand)]
    for turn, card in enumerate(draws, 1):
        hand, out = _step(hand, card, tab, limit)
        if out:
            points.append(0)
            return turn, points
        points.append(_points(hand))
    return 0, points


def _outcome(
    mine: tuple[int, list[int]],
    theirs: Sequence[tuple[int, list[int]]],
    players: int,
    first_to_draw: bool = False,
) -> float:
    """Points this seat gains (negative: loses) when the hand ends, from the rollouts of every
    seat (opponents in turn order after this seat).

    ``first_to_draw``: this seat's rollout starts with the current turn, so in every round it
    plays before the opponents (else after them).
    """
    t, ours = mine
    first = min((u for u, _ in theirs if u), default=0)
    lead = 1 if first_to_draw else 0
    if t and (not first or t < first + lead):
        return float(sum(pts[min(t - lead, len(pts) - 1)] for _, pts in theirs))
    if first:
        return -float(ours[min(first - 1 + lead, len(ours) - 1)])
    rest = sum(pts[-1] for _, pts in theirs)
    return rest / players - ours[-1] * (players - 1) / players


SHAPE_SLACK: float = 6.0
"""How much worse (in points of the hand score) hard lets a turn with the top discard score and
still take it, when the card sits next to an unmatched card of its hand (see
:meth:`HardRummyPlayer._take`)."""


class HardRummyPlayer(_Base):
    """Card memory, sampled deals of the hidden cards, and the fully scored turn plan.

    For every decision it deals the unseen cards ``deals`` times at random, consistently with the
    view (:func:`_sample`): each deal gives every opponent a whole hand and orders the stock. The
    deals give the chance each opponent holds each card (the danger of feeding the next player,
    the lay-offs a new meld offers) and each card's chance to be the next stock card, which feed
    the hand score (:class:`RummyWeights`).

    Optionally (``candidates`` > 1, ``search_take``) the best plans and the take-or-draw choice
    are also played out on every deal (determinized Monte Carlo): every seat plays greedily (lay
    off, throw the card leaving least deadwood, lay down melds) with the cards the deal puts on top
    of the stock for it, for ``horizon`` rounds, and a plan is worth what the seat would win or
    lose when the first seat goes out. With that greedy playout policy it measured weaker than the
    scored plan alone, so it is off by default.
    """

    name: str
    sight_only = False

    def __init__(
        self,
        seed: int | None = None,
        *,
        options: RummyOptions | None = None,
        weights: RummyWeights = HARD_WEIGHTS,
        deals: int = 24,
        candidates: int = 1,
        horizon: int = 8,
        search_take: bool = False,
        shape_slack: float = SHAPE_SLACK,
    ) -> None:
        super().__init__(seed, options=options)
        self.name = "hard"
        self.shape_slack = shape_slack
        self.weights = weights
        self.deals = deals
        self.candidates = candidates
        self.horizon = horizon
        self.search_take = search_take
        self._deals: list[_Deal] = []

    def _context(self, view: RummyView, rng: random.Random) -> tuple[_Context, _Knowledge]:
        know = _know(view, turn_over=self.options.restock.value == "turn_over")
        memory = know.memory
        players = len(view.hand_sizes)
        seat = view.seat
        chances, deals = _sample(view, memory, rng, self.deals)
        self._deals = deals
        nxt = (seat + 1) % players
        stock_odds = [0.0] * 52
        held_any = [0.0] * 52
        for card in _cards(memory.unseen):
            miss = 1.0
            inside = 0.0
            for s in range(players):
                if s != seat:
                    p = chances[s][card.index]
                    miss *= 1.0 - min(1.0, p)
                    inside += p
            held_any[card.index] = 1.0 - miss
            stock_odds[card.index] = max(0.0, 1.0 - inside)
        for s in range(players):
            if s != seat:
                for card in memory.seats[s].holds:
                    held_any[card.index] = 1.0
        total = sum(stock_odds)
        odds = [
            (c, stock_odds[c.index] / total)
            for c in _cards(memory.unseen)
            if total > 0 and stock_odds[c.index] > 0
        ]
        # The card this seat draws next: after its turn (or after a take) the other seats draw
        # first; drawing now, it gets the top card.
        later = self._next_draw(know, view, players - 1)
        live = odds if later is None else later
        draw_live = None
        if view.phase is Phase.DRAW:
            now = self._next_draw(know, view, 0)
            draw_live = odds if now is None else now
        nxt_chances = chances[nxt]

        def danger(card: Card) -> float:
            return meld_chance(card, nxt_chances)

        rho = self.weights.rho
        if rho is None:
            fewest = min(view.hand_sizes[s] for s in range(players) if s != seat)
            rho = 1.0 if fewest <= 2 else 0.7 if fewest <= 4 else 0.4
        ctx = _Context(
            self.weights,
            live,
            danger,
            lambda card: held_any[card.index],
            rho,
            self._limit(know, view),
            draw_live=draw_live,
        )
        return ctx, know

    def _next_draw(
        self, know: _Knowledge, view: RummyView, before: int
    ) -> list[tuple[Card, float]] | None:
        """The stock card this seat draws next when ``before`` stock cards go to others first
        (nobody taking a discard meanwhile), as ``live`` odds: the card itself when the stock is
        a known turned-over pile, nothing when the stock runs out before then and no restock is
        left (the hand would end in a stalemate first), None when only the odds are known.

        The restocks left come from the player's options (the view does not carry them).
        """
        if before >= view.stock_size and view.restocks >= self.options.restock_limit:
            return []
        order = know.stock_order
        if order is not None and before < len(order):
            card = order[before]
            if card is not None:
                return [(card, 1.0)]
        return None

    # -- playouts

    def _draw_plan(self, view: RummyView, first: int) -> list[list[int]]:
        """Per seat (this seat included), the stock positions it draws from, round by round,
        when the next stock card drawn is position 0 and ``first`` seat draws it."""
        players = len(view.hand_sizes)
        plan: list[list[int]] = [[] for _ in range(players)]
        for k in range(self.horizon * players):
            plan[(first + k) % players].append(k)
        return plan

    def _playouts(
        self,
        view: RummyView,
        ctx: _Context,
        starts: Sequence[tuple[int, tuple[_MeldNumbers, ...], bool]],
        draws_first: int,
    ) -> list[float]:
        """The mean outcome of each start (hand, table, with this seat's next draw made now) over
        the deals; ``draws_first`` is the seat that draws the next stock card."""
        players = len(view.hand_sizes)
        seat = view.seat
        order = [(seat + k) % players for k in range(1, players)]
        positions = self._draw_plan(view, draws_first)
        totals = [0.0] * len(starts)
        theirs_cache: dict[tuple[int, tuple[_MeldNumbers, ...]], list[tuple[int, list[int]]]] = {}
        for index, deal in enumerate(self._deals):
            stock = deal.stock
            for n, (hand, table, _now) in enumerate(starts):
                key = (index, table)
                theirs = theirs_cache.get(key)
                if theirs is None:
                    theirs = [
                        _rollout(
                            deal.hands[s],
                            table,
                            [stock[i] for i in positions[s] if i < len(stock)],
                            ctx.limit,
                        )
                        for s in order
                    ]
                    theirs_cache[key] = theirs
                mine = _rollout(
                    hand, table, [stock[i] for i in positions[seat] if i < len(stock)], ctx.limit
                )
                totals[n] += _outcome(mine, theirs, players)
        count = max(1, len(self._deals))
        return [t / count for t in totals]

    # -- decisions

    def _turn_with(
        self, view: RummyView, ctx: _Context, rng: random.Random, *, layoffs: bool = True
    ) -> Suggestion:
        hand = list(view.hand)
        table = [t.meld for t in view.table]
        allowed = _allowed_now(view, ctx.limit)
        plans = _plans(hand, table, view.taken_from_discard, allowed)
        legal = set(view.legal_actions)
        plans = [p for p in plans if p.steps and p.steps[0] in legal]
        if not plans:
            action = next(a for a in view.legal_actions if isinstance(a, Discard))
            return Suggestion(action, because("only_choice"))
        before = _ends(tuple(_meld_numbers(m) for m in table))
        ranked = _ranked(plans, ctx, before)
        best = ranked[0][1]
        if best.out or not self._deals:
            return self._explain(best, view, ctx)
        head = [p for _, p in ranked[: self.candidates] if not p.out]
        if len({p.steps[0] for p in head}) <= 1:
            return self._explain(best, view, ctx)
        players = len(view.hand_sizes)
        nxt = (view.seat + 1) % players
        values = self._playouts(view, ctx, [(p.final, p.table, False) for p in head], nxt)
        scored = []
        for (static, plan), value in zip(ranked[: len(head)], values, strict=True):
            danger = 0.0
            if plan.discard is not None:
                danger = ctx.weights.danger * ctx.danger(plan.discard)
            scored.append((-value + danger + 0.05 * static, plan))
        scored.sort(key=lambda vp: (vp[0], len(vp[1].steps)))
        return self._explain(scored[0][1], view, ctx)

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
        """Take ``up`` when the best turn with it scores 2 points better than the hand kept as
        it is; or, when ``up`` goes with an unmatched card of the hand (same rank, next in its
        suit) and the stock is moving (:func:`_stock_moving`), when it scores at most
        ``shape_slack`` points worse: the score looks one draw ahead and undervalues a pair
        that waits for its third card, and a take is a turn that costs the stock nothing.
        With ``search_take``, the playouts decide instead."""
        if not self._deals or not self.search_take:
            if take_value < base - 2.0:
                return True
            return (
                self.shape_slack > 0
                and take_value < base + self.shape_slack
                and _stock_moving(view)
                and bool(_CLOSE[up.index] & _mask(best_arrangement(hand).unmatched))
            )
        tm = tuple(_meld_numbers(m) for m in table)
        hand_m = _mask(hand)
        players = len(view.hand_sizes)
        seat = view.seat
        nxt = (seat + 1) % players
        # Taken: one greedy turn with the up-card, then the stock as the deals order it.
        tab = list(tm)
        after, out = _step(hand_m, up, tab, ctx.limit, keep=True)
        if out:
            return True
        taken = self._playouts(view, ctx, [(after, tuple(tab), False)], nxt)[0]
        # Drawn: each deal's top stock card, one greedy turn, then the rest of the stock.
        total = 0.0
        positions = self._draw_plan(view, seat)
        order = [(seat + k) % players for k in range(1, players)]
        for deal in self._deals:
            stock = deal.stock
            theirs = [
                _rollout(
                    deal.hands[s],
                    tm,
                    [stock[i] for i in positions[s] if i < len(stock)],
                    ctx.limit,
                )
                for s in order
            ]
            mine = _rollout(
                hand_m, tm, [stock[i] for i in positions[seat] if i < len(stock)], ctx.limit
            )
            total += _outcome(mine, theirs, players, first_to_draw=True)
        drawn = total / max(1, len(self._deals))
        return taken > drawn + 0.3


def _sample(
    view: RummyView, memory: CardMemory, rng: random.Random, count: int
) -> tuple[list[list[float]], list[_Deal]]:
    """Deals of the hidden cards consistent with the view, and per seat and card index the
    chance the seat holds the card over those deals.

    The per-card weights (:func:`holding_weights`, with cards that fit the table made unlikely:
    they would have been laid off) bias the deals; a whole hand that would not explain what the
    seat did (it holds a meld it could have laid down, the card it threw made a meld with its
    hand, the top discard it drew past would have) is dealt again most of the time.
    """
    players = len(view.hand_sizes)
    seat = view.seat
    table = tuple(_meld_numbers(t.meld) for t in view.table)
    ends = _ends(table)
    weights: list[list[float]] = []
    for s in range(players):
        if s == seat:
            weights.append([0.0] * 52)
            continue
        w = holding_weights(memory, s)
        for card in _cards(ends & memory.unseen):
            w[card.index] *= 0.3
        weights.append(w)
    last: list[tuple[Card | None, Card | None]] = []
    for s in range(players):
        notes = memory.seats[s]
        thrown = notes.discarded[-1] if notes.discarded else None
        refused = notes.refused[-1] if notes.refused else None
        last.append((thrown, refused))
    held = [_mask(memory.seats[s].holds) for s in range(players)]

    def accept(s: int, hidden: int) -> bool:
        mask = hidden | held[s]
        dw = min_deadwood_mask(mask)
        odds = 1.0
        if dw < _points(mask):
            odds *= 0.3  # it holds a meld it could have laid down
        thrown, refused = last[s]
        if thrown is not None and min_deadwood_mask(mask | thrown.bit) < dw + thrown.points:
            odds *= 0.4
        if (
            refused is not None
            and not mask & refused.bit
            and min_deadwood_mask(mask | refused.bit) < dw + refused.points - 2
        ):
            odds *= 0.4
        return odds >= 1.0 or rng.random() < odds

    counts = [[0] * 52 for _ in range(players)]
    deals: list[_Deal] = []
    for _ in range(count):
        masks, stock = sample_hidden(memory, rng, weights, accept=accept, tries=6)
        hands = [masks[s] | held[s] if s != seat else 0 for s in range(players)]
        deals.append(_Deal(hands, stock[::-1]))
        for s in range(players):
            mask = masks[s]
            tally = counts[s]
            while mask:
                low = mask & -mask
                tally[low.bit_length() - 1] += 1
                mask ^= low
    chances: list[list[float]] = []
    for s in range(players):
        row: list[float] = (
            [k / count for k in counts[s]] if count else holding_chances(memory, s, weights[s])
        )
        for card in memory.seats[s].holds:
            row[card.index] = 1.0
        chances.append(row)
    return chances, deals
