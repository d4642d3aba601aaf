"""The ``hard`` Crazy Rummy player: card memory and inference, sampled deals of the hidden hands and
the stock, and the chances it draws from them (cards to be had, cards an opponent can use).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.actions import Buy, Discard, Down, Pass
from rummykit.cards import AnyCard, Card, Joker
from rummykit.games.base import Phase
from rummykit.games.crazy import CrazyOptions, CrazyView
from rummykit.players.crazy.evaluation import _DIST_W, _Ctx, _ctx, _potential
from rummykit.players.crazy.knowledge import (
    _JOKER_KEY,
    _KEYS,
    _fits_table,
    _key,
    _meld_of,
    _Notes,
    _notes,
)
from rummykit.players.crazy.levels import (
    _KEEP_TAKEN,
    _CrazyPlayer,
    _decision_rng,
    _discard_reason,
    _discards,
    _down_action,
    _down_keep_score,
    _down_reason,
    _draw_decision,
    _near_fits,
    _penalty_reason,
    _plan_reason,
    _taken_back,
)
from rummykit.players.crazy.planning import _plan_turn
from rummykit.players.reasons import Suggestion, because
from rummykit.solver.contract import Contract
from rummykit.wild_melds import (
    crazy_points,
    is_wild,
)

# ------------------------------------------------------------------------------- hard player


@dataclass(slots=True)
class _Samples:
    """What the sampled deals of the hidden cards say."""

    stock_share: list[float]
    """Per card kind, the expected copies in the stock (drawable)."""
    use: dict[int, list[float]]
    """Per opponent seat, per card kind, the chance it could use that card if given it."""
    risk: float
    """The chance an opponent goes out before this seat plays again."""


_TOOK: Final = (2.6, 1.9)  # same rank (books) / next in suit (runs)
_THREW: Final = (0.55, 0.7)
_REFUSED: Final = (0.8, 0.85)


def _holding_weights(view: CrazyView, ctx: _Ctx, notes: _Notes, seat: int) -> list[float]:
    """Per card kind, how likely (relative) an unseen card sits in ``seat``'s hidden hand."""
    books = ctx.contract.books > 0
    runs = ctx.contract.runs > 0
    factor = [1.0] * _KEYS
    known = [c for c in view.known_cards[seat] if isinstance(c, Card) and not is_wild(c)]
    evidence = (
        (known + [c for c in notes.took[seat] if c not in known], _TOOK),
        (notes.discarded[seat], _THREW),
        (notes.refused[seat], _REFUSED),
    )
    for cards, (same_rank, near) in evidence:
        for card in cards:
            if not isinstance(card, Card) or is_wild(card):
                continue
            n, s = card.number, card.suit_index
            if books:
                for t in range(4):
                    factor[13 * t + n - 1] *= same_rank
            if runs:
                for d in (-2, -1, 1, 2):
                    m = n + d
                    if 1 <= m <= 13 and m != 2:
                        factor[13 * s + m - 1] *= near if abs(d) == 1 else (1 + near) / 2
    if view.laid_down[seat]:
        # a player who is down lays off what fits: it hardly holds such cards
        for k in range(52):
            if ctx.unseen[k] and ctx.fits(Card.from_index(k)):
                factor[k] *= 0.25
        if ctx.fits(Joker()):
            factor[_JOKER_KEY] *= 0.25
    return [min(6.0, max(0.15, f)) for f in factor]


def _can_use(
    card: AnyCard, counts: list[int], suits: list[int], down: bool, fits: bool, contract: Contract
) -> float:
    """How useful ``card`` is to a hand given as per-kind counts and per-suit rank masks."""
    if down:
        return 1.0 if fits else 0.0
    if is_wild(card):
        return 1.0
    assert isinstance(card, Card)
    use = 0.0
    if contract.books:
        same = sum(counts[13 * t + card.number - 1] for t in range(4))
        use = max(use, 1.0 if same >= 2 else 0.25 if same == 1 else 0.0)
    if contract.runs:
        mask = suits[card.suit_index]
        n = card.number
        near = 0
        for d in (-3, -2, -1, 1, 2, 3):
            m = n + d
            if m == 0:
                m = 13  # ace high sits above the king
            if 1 <= m <= 14 and mask >> (m if m <= 13 else 1) & 1:
                near += 1
        use = max(use, 0.9 if near >= 2 else 0.3 if near == 1 else 0.0)
    return use


def _sample(
    view: CrazyView,
    ctx: _Ctx,
    notes: _Notes,
    rng: random.Random,
    deals: int,
    candidates: Sequence[AnyCard],
) -> _Samples:
    """Deal the unseen cards ``deals`` times, weighted by each opponent's evidence."""
    me = view.seat
    players = len(view.hand_sizes)
    pool: list[int] = [k for k in range(_KEYS) for _ in range(ctx.unseen[k])]
    opponents = [s for s in range(players) if s != me]
    hidden = {s: max(0, view.hand_sizes[s] - len(view.known_cards[s])) for s in opponents}
    total_hidden = sum(hidden.values())
    if len(pool) < total_hidden:  # options differ from the table's: stay safe
        total_hidden = len(pool)
    inverse = {s: [1.0 / w for w in _holding_weights(view, ctx, notes, s)] for s in opponents}
    stock_share = [0.0] * _KEYS
    use: dict[int, list[float]] = {s: [0.0] * _KEYS for s in opponents}
    cand_keys = list(dict.fromkeys(_key(c) for c in candidates))
    fits_key = {k: ctx.fits(_card_of(k)) for k in cand_keys}
    downs = [s for s in opponents if view.laid_down[s]]
    fit_kind = [False] * _KEYS
    if downs:
        for k in range(_KEYS):
            if ctx.unseen[k] or any(_key(c) == k for s in downs for c in view.known_cards[s]):
                fit_kind[k] = ctx.fits(_card_of(k))
    out_hits = 0.0
    for _ in range(deals):
        left = list(pool)
        hands: dict[int, list[int]] = {}
        for s in opponents:
            h = min(hidden[s], len(left))
            inv = inverse[s]
            r = rng.random
            keys = [r() ** inv[k] for k in left]
            chosen = set(sorted(range(len(left)), key=keys.__getitem__, reverse=True)[:h])
            hands[s] = [left[i] for i in chosen]
            left = [left[i] for i in range(len(left)) if i not in chosen]
        for k in left:
            stock_share[k] += 1.0
        rng.shuffle(left)
        stock = left
        none_out = 1.0
        for s in opponents:
            held = hands[s] + [_key(c) for c in view.known_cards[s]]
            counts = [0] * _KEYS
            suits = [0, 0, 0, 0]
            for k in held:
                counts[k] += 1
                if k < 52:
                    suits[k // 13] |= 1 << (k % 13 + 1)
            row = use[s]
            for k in cand_keys:
                row[k] += _can_use(
                    _card_of(k), counts, suits, view.laid_down[s], fits_key[k], ctx.contract
                )
            if view.laid_down[s]:
                stuck = sum(1 for k in held if not fit_kind[k])
                drawn = stock.pop() if stock else None
                if drawn is not None and not fit_kind[drawn]:
                    stuck += 1
                if stuck <= 1:
                    none_out *= 0.0
                elif stuck == 2 and len(held) <= 3:
                    none_out *= 0.85  # a lucky chain of lay-offs, or the next discard
        out_hits += 1.0 - none_out
    scale = 1.0 / max(1, deals)
    return _Samples(
        [x * scale for x in stock_share],
        {s: [x * scale for x in row] for s, row in use.items()},
        out_hits * scale,
    )


def _outs(hand: Sequence[AnyCard], ctx: _Ctx) -> float:
    """Copies still to be had of the cards that would bring the contract one card closer.

    Exact for each card tried (the contract distance of the hand with it), trying one card of
    each rank the hand holds (a book takes any suit, weighed by every suit's copies), the cards
    next to the hand's cards in suit (runs) and one wild (weighed by every wild's copies).
    """
    base = ctx.dist(hand)
    if base == 0:
        return 0.0
    avail = ctx.avail
    tries: dict[int, float] = {}
    naturals = [c for c in hand if isinstance(c, Card) and not is_wild(c)]
    held = [0] * _KEYS
    for c in hand:
        held[_key(c)] += 1
    if ctx.contract.books:
        for n in dict.fromkeys(c.number for c in naturals):
            keys = [13 * t + n - 1 for t in range(4)]
            pick = max(keys, key=lambda k: (avail[k] if held[k] < 2 else -1.0, -k))
            if held[pick] < 2:
                tries[pick] = tries.get(pick, 0.0) + sum(avail[k] for k in keys if held[k] < 2)
    if ctx.contract.runs:
        for c in naturals:
            for d in (-2, -1, 1, 2):
                m = c.number + d
                if m in (0, -1):
                    m += 13  # below the ace: the king side (ace high)
                if m == 14:
                    m = 1
                if not 1 <= m <= 13 or m == 2:
                    continue
                k = 13 * c.suit_index + m - 1
                if held[k] < 2 and k not in tries:
                    tries[k] = avail[k]
    wild_copies = avail[_JOKER_KEY] + sum(avail[13 * t + 1] for t in range(4))
    # one wild to try: a joker while one may come, else a 2 the hand does not hold twice (a
    # third copy is no hand of two packs)
    wild_keys = [_JOKER_KEY] if avail[_JOKER_KEY] > 0 else []
    wild_keys += [13 * t + 1 for t in range(4) if held[13 * t + 1] < 2 and avail[13 * t + 1] > 0]
    if wild_copies > 0 and wild_keys:
        tries[wild_keys[0]] = wild_copies
    total = 0.0
    for k, weight in tries.items():
        if weight > 0 and ctx.dist([*hand, _card_of(k)]) < base:
            total += weight
    return total


_CARD_OF: Final[tuple[AnyCard, ...]] = (*(Card.from_index(i) for i in range(52)), Joker())


def _card_of(key: int) -> AnyCard:
    return _CARD_OF[key]


class HardCrazyPlayer(_CrazyPlayer):
    """Card memory, inference from what opponents took, bought, threw and refused, and sampled
    deals of the hidden cards (determinized) for the danger of each discard and the chance that
    the round ends soon.

    ``deals``: deals sampled per decision. ``danger``: score units for a discard the next player
    surely could use (others count 0.3 as much: they would have to buy it). ``max_buys``: buys a
    round at most. ``lookahead``: when above 1, the best few discards are scored one draw deeper
    with exact outs (the copies left of every card that brings the contract closer), weighed by
    ``outs_weight``; off by default, as it cost several times the time and gained nothing
    measurable. ``hold``: wait with the contract while nobody else is down if laying down would
    leave this many cards that fit nowhere; off by default (laying down at once scored about 3
    points a round better in our trials). ``buy_risk``: score units against a buy per unit of
    the chance that an opponent goes out before this seat plays again (a buy's gain is about 1,
    1.6 when the card completes the contract); 0 by default: buying every card that brings the
    contract closer, whatever that chance, scored 19 points a match better than the old 4.0
    (400 matches against ``medium``, same deals; measured with one penalty card).
    ``plan_nodes``: positions the plan of a turn once down searches at most (lay-offs and swaps
    in every order); 1000, down from the shared 4000, left 500 matches against ``medium``
    unchanged and cut the slowest decision of the timing benchmark from 1.3 s to 0.26 s (eight
    cards in hand, nine melds on the table; a busy machine).
    """

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        *,
        options: CrazyOptions | None = None,
        deals: int = 24,
        danger: float = 50.0,
        max_buys: int = 4,
        lookahead: int = 0,
        outs_weight: float = 150.0,
        hold: int = 0,
        buy_risk: float = 0.0,
        plan_nodes: int = 1000,
    ) -> None:
        super().__init__(seed, options=options)
        self.deals = deals
        self.danger = danger
        self.max_buys = max_buys
        self.lookahead = lookahead
        self.outs_weight = outs_weight
        self.hold = hold
        self.buy_risk = buy_risk
        self.plan_nodes = plan_nodes

    def _hold(self, view: CrazyView, ctx: _Ctx, down: Down) -> bool:
        """Wait with the contract while nobody else is down and laying down now would leave
        ``hold`` or more cards that fit nowhere (they could only go one a turn)."""
        me = view.seat
        if self.hold <= 0 or any(view.laid_down[s] for s in range(len(view.laid_down)) if s != me):
            return False
        if view.stock_size < 25:
            return False
        melds = [t.meld for t in view.table] + [
            m for m in (_meld_of(group, ctx.rules) for group in down.melds) if m is not None
        ]
        left = list(view.hand)
        for group in down.melds:
            for card in group:
                left.remove(card)
        stuck = sum(1 for c in left if not _fits_table(c, melds, ctx.rules))
        return stuck - 1 >= self.hold

    def _decide(self, v: CrazyView) -> Suggestion:
        ctx = _ctx(v, self.options)
        if v.phase in (Phase.OFFER, Phase.DRAW):
            return _draw_decision(v, ctx)
        rng = _decision_rng(self.seed, v)
        notes = _notes(v)
        me = v.seat
        if v.phase is Phase.BUY:
            return self._buy(v, ctx, notes, rng)
        down = _down_action(v)
        if down is not None and not self._hold(v, ctx, down):
            return Suggestion(down, _down_reason(v, down))
        cards = _discards(v)
        samples = _sample(v, ctx, notes, rng, self.deals, cards)
        if down is not None:
            action, reason = self._discard(v, ctx, samples, cards)
            return Suggestion(action, because("crazy.hold") + reason)
        if v.laid_down[me]:
            return self._down_turn(v, ctx, samples)
        return self._discard(v, ctx, samples, cards)

    def _buy(self, view: CrazyView, ctx: _Ctx, notes: _Notes, rng: random.Random) -> Suggestion:
        card = view.offered
        assert card is not None
        me = view.seat
        if view.laid_down[me]:
            return Suggestion(Pass(), because("crazy.down_no_buy"))
        if view.buys[me] >= self.max_buys:
            return Suggestion(Pass(), because("crazy.buys_used", count=view.buys[me]))
        hand = list(view.hand)
        before = ctx.dist(hand)
        after = ctx.dist([*hand, card])
        if after >= before:
            return Suggestion(Pass(), because("crazy.not_worth", card=card))
        risk = 0.0
        if self.buy_risk > 0 and any(
            view.laid_down[s] for s in range(len(view.laid_down)) if s != me
        ):
            samples = _sample(view, ctx, notes, rng, max(8, self.deals // 2), ())
            risk = samples.risk
        # the card saves about a draw (more when it completes the contract); the penalty card
        # and the card itself cost points if the round ends first, but getting down sooner
        # outweighed that in our trials, even with an opponent about to go out (``buy_risk``)
        gain = 1.0 + (0.6 if after == 0 else 0.0) - 0.12 * view.buys[me]
        cost = risk * self.buy_risk + (0.15 if view.stock_size < 10 else 0.0)
        if gain > cost:
            key = "crazy.completes" if after == 0 else "crazy.closer"
            return Suggestion(Buy(), because(key, card=card) + _penalty_reason(self.options))
        return Suggestion(Pass(), because("crazy.risk"))

    def _down_turn(self, view: CrazyView, ctx: _Ctx, samples: _Samples) -> Suggestion:
        me = view.seat
        players = len(view.hand_sizes)
        nxt = (me + 1) % players
        risk = samples.risk
        base = _down_keep_score(risk, _near_fits(view, ctx))
        danger = self.danger

        def score(left: tuple[AnyCard, ...], thrown: AnyCard) -> float:
            value = base(left, thrown)
            k = _key(thrown)
            feed = samples.use[nxt][k] if nxt in samples.use else 0.0
            for s, row in samples.use.items():
                if s != nxt:
                    feed += 0.3 * row[k]
            return value + danger * 0.5 * feed

        plan = _plan_turn(
            view,
            ctx.rules,
            score,
            discard_to_go_out=self.options.discard_to_go_out,
            discard_taken_twin=self.options.discard_taken_twin,
            node_limit=self.plan_nodes,
        )
        return Suggestion(plan.actions[0], _plan_reason(view, plan))

    def _discard(
        self, view: CrazyView, ctx: _Ctx, samples: _Samples, cards: Sequence[AnyCard]
    ) -> Suggestion:
        me = view.seat
        nxt = (me + 1) % len(view.hand_sizes)
        risk = samples.risk
        # the potential counts copies that may still come: from the stock or a discard
        ctx.avail = [
            0.6 * s + 0.4 * u for s, u in zip(samples.stock_share, ctx.unseen, strict=True)
        ]
        hand = list(view.hand)
        best: tuple[float, AnyCard, int] | None = None
        scored: list[tuple[float, AnyCard]] = []
        for card in cards:
            rest = list(hand)
            rest.remove(card)
            dist = ctx.dist(rest)
            k = _key(card)
            feed = samples.use[nxt][k]
            for s, row in samples.use.items():
                if s != nxt:
                    feed += 0.3 * row[k]
            score = (1.0 - risk) * (_DIST_W * dist - 8.0 * _potential(rest, ctx))
            score -= (0.05 + 1.2 * risk) * crazy_points(card)
            score += (1.0 - risk) * self.danger * feed
            if is_wild(card):
                score += 60.0
            if _taken_back(view, card, hand):
                score += (1.0 - risk) * _KEEP_TAKEN
            scored.append((score, card))
            if best is None or score < best[0]:
                best = (score, card, dist)
        assert best is not None
        if self.lookahead > 1 and risk < 0.5:
            # one draw deeper for the best few: the copies left of the cards that would help
            scored.sort(key=lambda sc: sc[0])
            top = [sc for sc in scored[: self.lookahead] if not is_wild(sc[1])]
            if len(top) > 1 and top[1][0] - top[0][0] < 40.0:
                pool = max(1.0, sum(ctx.avail))
                deeper = []
                for score, card in top:
                    rest = list(hand)
                    rest.remove(card)
                    outs = _outs(rest, ctx)
                    deeper.append((score - (1.0 - risk) * self.outs_weight * outs / pool, card))
                score, card = min(deeper, key=lambda sc: sc[0])
                rest = list(hand)
                rest.remove(card)
                best = (score, card, ctx.dist(rest))
        _, card, dist = best
        reason = _discard_reason(ctx, card, dist, risk > 0.3, hand)
        others = [c for s, c in scored if c != card]
        safe = samples.use[nxt][_key(card)] < 0.2
        if safe and any(samples.use[nxt][_key(c)] > 0.5 for c in others):
            reason = reason.also("crazy.unsafe_next")
        return Suggestion(Discard(card), reason)
