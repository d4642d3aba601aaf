"""Computer players for Gin Rummy, three levels, and hints a person can read.

Every player decides from a :class:`~rummykit.games.gin.GinView` alone (never the state), and is
deterministic given its seed: each decision draws from a generator seeded with the player's seed
and the view's public history, so the same view always gets the same answer.

- ``easy`` (:class:`EasyGinPlayer`) plays legal, sensible moves with deliberate mistakes: it
  sometimes throws a random unmatched card instead of its worst one, overlooks a useful up-card,
  holds on instead of knocking, skips lay-offs, and never watches what the opponent collects.
- ``medium`` (:class:`MediumGinPlayer`) plays sound heuristics on the exact deadwood: it throws
  the card that leaves the least deadwood (keeping the more flexible cards on a tie, and holding
  back cards of the rank of, or next in suit to, a card the opponent took); it takes the up-card
  only when it joins a meld and lowers the deadwood, or allows a knock; it knocks as soon as it
  may, except that early on it waits for gin with a nearly-gin hand; as the defender it lays off
  the best way.
- ``hard`` (:class:`HardGinPlayer`) remembers every card (:mod:`rummykit.players.tracking`) and
  deals the unseen cards at random many times, consistently with what the opponent took, threw,
  drew past and did not knock with: the deals tell it how likely the opponent holds each card
  (so it knows what is dangerous to throw) and what the stock may bring. It scores each discard
  by the deadwood left, what the next stock card may do (the points it may save, the chance it
  allows a knock), and the danger of feeding the opponent, and looks one more draw ahead for the
  best few; it takes the up-card when that leaves a better hand than the average stock card
  would. When it may knock it plays every sampled deal out to the end of the hand both ways
  (determinized Monte Carlo: knocking is scored exactly against the sampled hand, lay-offs and
  undercut included), against hands as good as a real opponent's by then, and waits when waiting
  pays more.

``suggest(view)`` returns the player's move and a short reason, e.g.
``"discard KD: highest card, no meld nearby"``; the hint button uses the hard player's.

>>> from rummykit.games import Gin
>>> state = Gin().new_hand(seed=7)
>>> hard = HardGinPlayer(seed=1)
>>> action, reason = hard.suggest(state.view(state.to_act))
>>> action in state.legal_actions() and bool(reason)
True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Final

from rummykit.actions import Action, Discard, Done, Draw, Knock, LayOff, Pass, Take
from rummykit.cards import STANDARD_PACK, Card
from rummykit.games.base import Phase, View
from rummykit.games.gin import GinOptions, GinView
from rummykit.melds import Meld, MeldKind
from rummykit.players.base import SeededPlayer, checked_view, decision_rng
from rummykit.players.reasons import Reason, Suggestion, because, discard_reason
from rummykit.players.tracking import (
    ALL_CARDS,
    CardMemory,
    SeatNotes,
    holding_chances,
    holding_weights,
    meld_chance,
    sample_hands,
)
from rummykit.solver.deadwood import (
    best_arrangement,
    best_discards,
    best_layoffs,
    discard_deadwoods,
    hand_mask,
    mask_cards,
    min_deadwood_after_discard_mask,
    min_deadwood_mask,
)

__all__ = ["EasyGinPlayer", "HardGinPlayer", "MediumGinPlayer", "gin_memory"]

WALL: Final = 2
"""An ordinary discard that leaves this many cards in the stock cancels the hand."""


# ------------------------------------------------------------------------------ small helpers


def _gin_view(view: View) -> GinView:
    return checked_view(view, GinView, "Gin")


def _decision_rng(seed: int, view: GinView) -> random.Random:
    """A generator for one decision: the same seed and public history give the same draws."""
    history = ";".join(text for _, text in view.history)
    hand = "".join(c.text for c in view.hand)
    return decision_rng(seed, view.seat, view.dealer, history, hand)


def _build_near_masks() -> tuple[int, ...]:
    out = []
    for card in STANDARD_PACK:
        mask = 0
        for s in range(4):
            if s != card.suit_index:
                mask |= 1 << (13 * s + card.number - 1)
        base = 13 * card.suit_index
        for n in (card.number - 2, card.number - 1, card.number + 1, card.number + 2):
            if 1 <= n <= 13:
                mask |= 1 << (base + n - 1)
        out.append(mask)
    return tuple(out)


_NEAR_MASKS: Final = _build_near_masks()
"""Per card index: the cards of its rank in other suits and within 2 of it in its suit."""


def _near_in_hand(card: Card, mask: int) -> bool:
    """True if the hand ``mask`` holds a card of ``card``'s rank or within 2 of it in its suit."""
    return bool(mask & _NEAR_MASKS[card.index])


def _melds_with(hand_mask_: int, card: Card) -> bool:
    """True if ``card`` joins a meld in a best arrangement of the hand plus ``card``."""
    return min_deadwood_mask(hand_mask_ | card.bit) < min_deadwood_mask(hand_mask_) + card.points


def _throw_order(card: Card) -> tuple[int, int]:
    """Among equally good discards, throw the highest card (and the higher rank: a K runs less)."""
    return card.points, card.number


def _best_without(hand: Sequence[Card], keep: Card | None) -> tuple[int, Card]:
    """The least deadwood after one discard other than ``keep``, and the card to throw."""
    value, cards = best_discards(hand)
    options = [c for c in cards if c is not keep]
    if options:
        return value, max(options, key=_throw_order)
    table = discard_deadwoods(hand)
    best = min(v for c, v in table.items() if c is not keep)
    return best, max((c for c, v in table.items() if v == best and c is not keep), key=_throw_order)


def _meld_of(hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    """The meld ``card`` joins in the best arrangement of ``hand`` (which holds it), if any."""
    for meld in best_arrangement(hand).melds:
        if card in meld.cards:
            return tuple(meld.cards)
    return ()


def _layoff_decision(view: GinView) -> Suggestion:
    """The defender's best lay-offs, one at a time, then done."""
    plan = best_layoffs(view.hand, view.knock_melds)
    if plan.layoffs:
        card, index = plan.layoffs[0]
        action = LayOff(card, index + 1)
        if action in view.legal_actions:
            meld = tuple(view.knock_melds[index].cards)
            return Suggestion(action, because("gin.layoff", card=card, meld=meld))
    return Suggestion(Done(), because("nothing_fits").also("gin.keep", count=plan.deadwood))


# ------------------------------------------------------------------------------ what a seat knows


def gin_memory(view: GinView) -> CardMemory:
    """Everything ``view.seat`` can know of the cards of a Gin hand, from its view alone.

    The history is replayed over the discard pile to learn what each seat took, threw and drew
    past. The first up-card is known once it is seen in the pile or kept by whoever took it.
    """
    seat = view.seat
    took: list[list[Card | None]] = [[], []]
    refused: list[list[Card | None]] = [[], []]
    pile: list[Card | None] = [None]  # None: the first up-card, not named in the history
    face_down: Card | None = None
    passes = 0
    for actor, text in view.history:
        verb, _, rest = text.partition(" ")
        if verb == "take":
            took[actor].append(pile.pop() if pile else None)
        elif verb == "pass":
            passes += 1
            refused[actor].append(pile[-1] if pile else None)
        elif verb == "draw":
            if pile and passes != 2:  # right after two passes the draw is forced
                refused[actor].append(pile[-1])
            passes = 0
        elif verb == "discard":
            pile.append(Card.parse(rest))
        elif verb == "knock" and rest and actor == view.seat:
            face_down = Card.parse(rest.partition(":")[0])  # only the knocker sees its card
        # layoff, done and biggin leave the pile alone
    up: Card | None = None
    if None in pile and len(pile) == len(view.discard_pile):
        up = view.discard_pile[pile.index(None)]
    else:
        for s in (0, 1):
            if None in took[s]:
                named = [c for c in took[s] if c is not None]
                extra = [c for c in view.known_cards[s] if c not in named]
                if len(extra) == 1:
                    up = extra[0]

    def resolve(cards: list[Card | None]) -> tuple[Card, ...]:
        out = (c if c is not None else up for c in cards)
        return tuple(c for c in out if c is not None)

    own = hand_mask(view.hand)
    public = hand_mask(view.discard_pile)
    if face_down is not None:
        public |= face_down.bit
    visible = own | public
    hidden = [0, 0]
    for s in (0, 1):
        if s == seat:
            continue
        visible |= hand_mask(view.known_cards[s])
        hidden[s] = view.hand_sizes[s] - len(view.known_cards[s])
    if view.knocker is not None and view.knocker != seat:
        # The knocker's whole hand is face up: melds (with any lay-offs) and deadwood.
        table = 0
        for meld in view.knock_melds:
            table |= hand_mask(meld.cards)
        table |= hand_mask(view.knock_deadwood)
        public |= table & ~own
        visible |= table
        hidden[view.knocker] = 0
    unseen = ALL_CARDS & ~visible
    notes = tuple(
        SeatNotes(
            took=resolve(took[s]),
            discarded=tuple(discarded_cards(view.history, s)),
            refused=resolve(refused[s]),
            holds=view.known_cards[s],
            hidden=hidden[s] if s != seat else 0,
        )
        for s in (0, 1)
    )
    return CardMemory(
        seat=seat,
        own=own,
        public=public,
        unseen=unseen,
        top=view.discard_pile[-1] if view.discard_pile else None,
        stock_size=view.stock_size,
        seats=notes,
    )


def discarded_cards(history: Sequence[tuple[int, str]], seat: int) -> list[Card]:
    """The cards ``seat`` discarded face up, in order, from a history of (seat, notation)."""
    return [Card.parse(text[8:]) for s, text in history if s == seat and text[:8] == "discard "]


# ------------------------------------------------------------------------------- the analysis


@dataclass(slots=True)
class _Analysis:
    """What a decision needs from a view: card memory and the opponent's likely cards."""

    view: GinView
    memory: CardMemory
    opponent: int
    weights: list[float]
    chances: list[float]
    """Per card index, the chance the opponent holds it."""
    live: list[Card]
    """Unseen cards, which may still come from the stock."""
    draw_odds: list[float]
    """Per live card, the chance it is the next stock card (it is not in the opponent's hand)."""
    known_mask: int
    """The cards the opponent surely holds (taken from the discard pile)."""
    prospects: dict[tuple[int, int, int], tuple[float, float, float]] = field(default_factory=dict)
    """Memo of one decision: ``_prospects`` by (10-card mask, its deadwood, knock limit)."""
    draws: list[tuple[int, int, int, float]] = field(default_factory=list)
    """Per live card that may be drawn: its bit, its meld neighbours' mask, its points, its odds."""


def _analyse(view: GinView) -> _Analysis:
    memory = gin_memory(view)
    opponent = 1 - view.seat
    weights = holding_weights(memory, opponent)
    chances = holding_chances(memory, opponent, weights)
    live = list(memory.unseen_cards())
    odds = [max(0.0, 1.0 - chances[c.index]) for c in live]
    total = sum(odds)
    draw_odds = [o / total for o in odds] if total > 0 else odds
    known = hand_mask(view.known_cards[opponent])
    return _Analysis(view, memory, opponent, weights, chances, live, draw_odds, known)


def _build_meld_near_masks() -> tuple[int, ...]:
    out = []
    for card in STANDARD_PACK:
        mask = _NEAR_MASKS[card.index]
        base = 13 * card.suit_index
        for n in (card.number - 2, card.number + 2):
            if 1 <= n <= 13:
                mask &= ~(1 << (base + n - 1))
        out.append(mask)
    return tuple(out)


_MELD_NEAR_MASKS: Final = _build_meld_near_masks()
"""Per card index: the cards of its rank in other suits and next to it in its suit (a meld holding
the card holds one of these)."""

_AFTER_DISCARD: Final[dict[int, int]] = {}
"""The least deadwood after the best discard by 11-card mask, shared by every decision (a pure
function of the hand: a hard player asks for the same hands turn after turn)."""
_AFTER_DISCARD_LIMIT: Final = 1 << 18
"""Hands kept in :data:`_AFTER_DISCARD` before it is emptied (some 25 MB)."""


def _prospects(
    rest: list[Card], deadwood: int, an: _Analysis, limit: int
) -> tuple[float, float, float]:
    """What the next stock card may do for the 10-card hand ``rest`` (of ``deadwood``).

    Returns the expected deadwood saved, the chance it allows a knock and the chance of gin
    (each over the live cards, weighted by the chance each is the next stock card). A card that
    can join no meld with the hand's cards leaves ``min(deadwood, its points + spare)``, where
    ``spare`` is the least deadwood of the hand after its best discard (it stays deadwood unless
    thrown): one solver call for all such cards.
    """
    if deadwood == 0:
        return 0.0, 1.0, 1.0
    mask = hand_mask(rest)
    key = (mask, deadwood, limit)
    found = an.prospects.get(key)
    if found is not None:
        return found
    gain = knock = gin = 0.0
    cache = _AFTER_DISCARD
    spare = -1
    draws = an.draws
    if not draws:
        near = _MELD_NEAR_MASKS
        draws = an.draws = [
            (card.bit, near[card.index], card.points, odds)
            for card, odds in zip(an.live, an.draw_odds, strict=True)
            if odds
        ]
    for bit, next_to, points, odds in draws:
        if mask & bit:
            continue
        if mask & next_to:
            drawn = mask | bit
            value = cache.get(drawn, -1)
            if value < 0:
                if len(cache) >= _AFTER_DISCARD_LIMIT:
                    cache.clear()
                value = cache[drawn] = min_deadwood_after_discard_mask(drawn)
        else:
            if spare < 0:
                spare = min_deadwood_after_discard_mask(mask)
            value = points + spare
            if value > deadwood:
                value = deadwood
        if value < deadwood:
            gain += odds * (deadwood - value)
        if value <= limit:
            knock += odds
            if value == 0:
                gin += odds
    found = an.prospects[key] = (gain, knock, gin)
    return found


@dataclass(frozen=True, slots=True)
class DiscardWeights:
    """How the static discard score weighs its terms against the deadwood left (in points).

    score = deadwood - gain * (expected saving of the next draw) - knock * (chance the next draw
    allows a knock) - gin * (chance of gin on the next draw) + danger * (chance the opponent
    melds the card thrown). ``late_gain``, if set, is the gain weight when the stock is empty
    (it falls linearly from ``gain`` at a full stock).
    """

    gain: float = 2.0
    danger: float = 9.0
    knock: float = 0.0
    gin: float = 0.0
    late_gain: float | None = None
    known_only: bool = False
    """Judge danger only by the cards the opponent took and keeps: a card of the same rank or
    within two in suit is dangerous (1), any other safe (0)."""


DEFAULT_WEIGHTS: Final = DiscardWeights()
"""A balanced score: the next draw's saving counts double, feeding the opponent 9 points."""
MEDIUM_WEIGHTS: Final = DiscardWeights(gain=0.2, danger=6.0, known_only=True)
"""Medium's weights: the least deadwood, the next draw only breaking ties, and cards next to
what the opponent took held back."""
HARD_WEIGHTS: Final = DiscardWeights(knock=30.0)
"""Hard's weights: a draw that allows a knock is worth about 30 points of deadwood."""


def _discard_scores(
    hand: Sequence[Card],
    candidates: Sequence[Card],
    an: _Analysis,
    weights: DiscardWeights = DEFAULT_WEIGHTS,
    limit: int = 10,
) -> dict[Card, tuple[float, int]]:
    """Per candidate discard: (score, deadwood left); the lowest score is best."""
    gain_weight = weights.gain
    if weights.late_gain is not None:
        share = min(1.0, an.view.stock_size / 31)
        gain_weight = weights.late_gain + (gain_weight - weights.late_gain) * share
    table = discard_deadwoods(hand)
    floor = min(table[c] for c in candidates)
    out: dict[Card, tuple[float, int]] = {}
    for card in candidates:
        deadwood = table[card]
        if deadwood > floor + 14:
            out[card] = (float(deadwood) + 100.0, deadwood)
            continue
        rest = [c for c in hand if c is not card]
        gain, knock, gin = _prospects(rest, deadwood, an, limit)
        if not weights.danger:
            danger = 0.0
        elif weights.known_only:
            danger = float(_near_in_hand(card, an.known_mask))
        else:
            danger = meld_chance(card, an.chances)
        score = (
            deadwood
            - gain_weight * gain
            - weights.knock * knock
            - weights.gin * gin
            + weights.danger * danger
            - 0.01 * card.number
        )
        out[card] = (score, deadwood)
    return out


def _static_value(
    rest: list[Card], deadwood: int, an: _Analysis, weights: DiscardWeights, limit: int
) -> float:
    """The static score of a 10-card hand (lower is better), without the danger of a discard."""
    gain, knock, gin = _prospects(rest, deadwood, an, limit)
    return deadwood - weights.gain * gain - weights.knock * knock - weights.gin * gin


def _after_draw_value(
    hand: list[Card],
    an: _Analysis,
    weights: DiscardWeights,
    limit: int,
    keep: Card | None = None,
    width: int = 2,
) -> float:
    """The best static score reachable from an 11-card ``hand`` by one discard (not ``keep``).

    Only the ``width`` discards leaving the least deadwood are scored in full.
    """
    table = discard_deadwoods(hand)
    options = sorted(
        (c for c in table if c is not keep), key=lambda c: (table[c], -c.points, -c.number)
    )[:width]
    best = float("inf")
    for card in options:
        rest = [c for c in hand if c is not card]
        value = _static_value(rest, table[card], an, weights, limit)
        value += weights.danger * meld_chance(card, an.chances)
        if value < best:
            best = value
    return best


def _lookahead_value(rest: list[Card], an: _Analysis, weights: DiscardWeights, limit: int) -> float:
    """The expected static score of a 10-card hand after the next stock card and the best discard.

    Every live card is tried, weighted by the chance it is the next stock card.
    """
    mask = hand_mask(rest)
    base: float | None = None
    total = 0.0
    for card, odds in zip(an.live, an.draw_odds, strict=True):
        if not odds:
            continue
        if card.points >= 10 and not _near_in_hand(card, mask):
            if base is None:
                base = _static_value(rest, min_deadwood_mask(mask), an, weights, limit)
            value = base + weights.danger * meld_chance(card, an.chances)
        else:
            rest.append(card)
            value = _after_draw_value(rest, an, weights, limit)
            rest.pop()
        total += odds * value
    return total


def _gin_outs(rest: list[Card], an: _Analysis) -> int:
    """How many live cards would give the 10-card hand ``rest`` gin on the next draw."""
    outs = 0
    mask = hand_mask(rest)
    for card in an.live:
        if _near_in_hand(card, mask):
            rest.append(card)
            if best_discards(rest)[0] == 0:
                outs += 1
            rest.pop()
    return outs


# --------------------------------------------------------------------------- reasons in words


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


# ------------------------------------------------------------------------------------- medium


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
        rest = [c for c in hand if c is not card]
        wait = wait_for_gin and deadwood <= 3 and view.stock_size >= 14 and _gin_outs(rest, an) >= 2
        if not wait:
            return Suggestion(Knock(card), because("gin.knock_early", count=deadwood))
    candidates = _discard_cards(view)
    scores = _discard_scores(hand, candidates, an, weights, limit)
    card = min(candidates, key=lambda c: scores[c][0])
    return Suggestion(Discard(card), _discard_reason(card, hand, an, scores[card][1]))


# --------------------------------------------------------------------------------------- easy


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


# --------------------------------------------------------------------------------------- hard


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


def _layoff_deadwood(mask: int, melds: Sequence[Meld]) -> int:
    """The defender's least deadwood after its best lay-offs onto ``melds`` (as best_layoffs)."""
    per_meld: list[list[int]] = []
    for meld in melds:
        cards = meld.cards
        options = [0]
        if meld.kind is MeldKind.SET:
            if len(cards) == 3:
                missing = sum(1 << (13 * s + cards[0].number - 1) for s in range(4)) & ~hand_mask(
                    cards
                )
                if mask & missing:
                    options.append(missing)
        else:
            base = 13 * cards[0].suit_index
            below: list[int] = []
            n = cards[0].number - 1
            while n >= 1 and mask >> (base + n - 1) & 1:
                below.append((below[-1] if below else 0) | 1 << (base + n - 1))
                n -= 1
            above: list[int] = []
            n = cards[-1].number + 1
            while n <= 13 and mask >> (base + n - 1) & 1:
                above.append((above[-1] if above else 0) | 1 << (base + n - 1))
                n += 1
            options.extend(below)
            options.extend(above)
            options.extend(b | a for b in below for a in above)
        if len(options) > 1:
            per_meld.append(options)
    best = min_deadwood_mask(mask)
    if not per_meld:
        return best
    for combo in product(*per_meld):
        laid = 0
        for bits in combo:
            if laid & bits:
                break
            laid |= bits
        else:
            if laid:
                value = min_deadwood_mask(mask ^ laid)
                if value < best:
                    best = value
    return best


def _settle(
    knocker_hand: list[Card], deadwood: int, defender_hand: list[Card], options: GinOptions
) -> int:
    """Points of a knock for the knocker (negative when the defender undercuts)."""
    if deadwood == 0:
        return options.gin_bonus + min_deadwood_mask(hand_mask(defender_hand))
    melds = best_arrangement(knocker_hand).melds
    defender = _layoff_deadwood(hand_mask(defender_hand), melds)
    if defender <= deadwood:
        return -(deadwood - defender + options.undercut_bonus)
    return defender - deadwood


def _playout(
    hands: list[list[Card]],
    stock: Sequence[Card],
    top: Card | None,
    turn: int,
    can_take: bool,
    options: GinOptions,
) -> int:
    """Both seats play greedily from ``turn``'s draw to the end; points for seat 0 (signed).

    ``hands`` are changed in place; ``stock`` is not. Seat 0 draws from the end of ``stock`` and
    seat 1 from its start: as the stock is in random order this deals the same cards as one pile
    would, but a seat's own draws do not shift when the other seat takes a discard instead, so
    playouts of different moves on the same deal stay comparable.
    """
    limit = options.knock_limit
    masks = [hand_mask(hands[0]), hand_mask(hands[1])]
    low = 0
    high = len(stock)
    while True:
        hand = hands[turn]
        mask = masks[turn]
        taken: Card | None = None
        if can_take and top is not None and _greedy_take(hand, mask, top, limit):
            taken = top
            hand.append(top)
            mask |= top.bit
        else:
            if turn:
                card = stock[low]
                low += 1
            else:
                high -= 1
                card = stock[high]
            hand.append(card)
            mask |= card.bit
        deadwood, thrown = _best_without(hand, taken)
        hand.remove(thrown)
        masks[turn] = mask ^ thrown.bit
        if deadwood <= limit:
            points = _settle(hand, deadwood, hands[1 - turn], options)
            return points if turn == 0 else -points
        if high - low <= WALL:
            return 0
        top = thrown
        can_take = True
        turn ^= 1


@dataclass(slots=True)
class _Deal:
    """One determinization: the opponent's whole hand; the stock is the other unseen cards."""

    opponent: list[Card]
    hidden: int
    """The mask of the opponent's sampled hidden cards."""


def _last_turn(history: Sequence[tuple[int, str]], seat: int) -> list[str]:
    """The actions of ``seat``'s most recent turn (empty if it has not played)."""
    end = len(history)
    while end and history[end - 1][0] != seat:
        end -= 1
    start = end
    while start and history[start - 1][0] == seat:
        start -= 1
    return [text for _, text in history[start:end]]


OPPONENT_DEADWOOD: Final = (57, 47, 38, 31, 28, 26, 24, 21, 19, 18, 17, 16, 15)
"""The opponent's typical deadwood after it has discarded 0, 1, 2, ... times (15 from then on),
measured at the hard player's discards against medium and hard over hands still in play. Hands
dealt from the unseen cards by the per-card weights alone average far more (after 3 discards
about 45 rather than 31; after 6, 38 rather than 24): a player who has drawn and thrown for a few
turns has kept the cards that work together."""


def _tilt(values: Sequence[int], target: float) -> list[float]:
    """Weights ``exp(-s * v)`` (``s >= 0``) that bring the weighted mean of ``values`` down to about
    ``target``; all 1 when the plain mean is already at most ``target``.

    >>> [round(w, 2) for w in _tilt([10, 20, 30], 20)], _tilt([10, 20], 30)
    ([1.0, 1.0, 1.0], [1.0, 1.0])
    >>> weights = _tilt([10, 20, 30], 15)
    >>> round(sum(w * v for w, v in zip(weights, [10, 20, 30])) / sum(weights))
    15
    """
    if statistics.fmean(values) <= target:
        return [1.0] * len(values)
    floor = min(values)
    low, high = 0.0, 1.0
    weights = [1.0] * len(values)
    for _ in range(20):
        mid = (low + high) / 2
        weights = [math.exp(-mid * (v - floor)) for v in values]
        mean = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
        if mean > target:
            low = mid
        else:
            high = mid
    return weights


def _sample_deals(
    view: GinView,
    an: _Analysis,
    rng: random.Random,
    count: int,
    limit: int,
    pool: int = 1,
) -> list[_Deal]:
    """``count`` deals of the unseen cards (opponent's hand, stock order) consistent with the view.

    Cards are drawn by the per-card weights of :func:`holding_weights`; then whole hands that
    would not explain what the opponent just did are dealt again, most of the time: a hand it
    could have knocked with (it discarded instead), a discard that broke one of its melds, an
    up-card it drew past although it would have made a meld, a card it took that fits none of its
    melds. The opponent may be a person who plays otherwise, so no hand is ruled out entirely.

    With ``pool`` > 1, ``pool * count`` hands are dealt so and ``count`` drawn from them (with
    replacement) favouring low deadwood, exponentially, just enough that their mean deadwood is
    the opponent's typical deadwood at this point of the hand (:data:`OPPONENT_DEADWOOD`) rather
    than the much higher mean of hands dealt at random.
    """
    memory = an.memory
    opp = an.opponent
    notes = memory.seats[opp]
    known = an.known_mask
    turn = _last_turn(view.history, opp)
    discarded = Card.parse(turn[-1][8:]) if turn and turn[-1].startswith("discard ") else None
    refused = notes.refused[-1] if "draw" in turn and notes.refused else None
    took = list(notes.holds)

    judged: dict[int, int] = {}  # the deadwood of each hand accept has seen

    def accept(seat: int, hidden: int) -> bool:
        mask = hidden | known
        deadwood = judged[mask] = min_deadwood_mask(mask)
        odds = 1.0
        if discarded is not None:
            if deadwood <= limit:
                odds *= 0.02 if deadwood == 0 else 0.2
            if min_deadwood_mask(mask | discarded.bit) < deadwood + discarded.points:
                odds *= 0.3  # the card it threw would have been in a meld
        if (
            refused is not None
            and not mask & refused.bit
            and min_deadwood_mask(mask | refused.bit) < deadwood + refused.points - 3
        ):
            odds *= 0.4  # the up-card would have made a meld and saved points
        for card in took:
            if min_deadwood_mask(mask ^ card.bit) + card.points <= deadwood:
                odds *= 0.4  # it keeps the card it took outside any meld
        return odds >= 1.0 or rng.random() < odds

    hands = sample_hands(memory, opp, rng, an.weights, count * pool, accept=accept)
    if pool > 1:
        turns = min(len(notes.discarded), len(OPPONENT_DEADWOOD) - 1)
        values = [judged.get(h | known) for h in hands]
        deadwoods = [
            min_deadwood_mask(h | known) if v is None else v
            for h, v in zip(hands, values, strict=True)
        ]
        weights = _tilt(deadwoods, OPPONENT_DEADWOOD[turns])
        hands = rng.choices(hands, weights, k=count)
    known_cards = list(view.known_cards[opp])
    return [_Deal([*known_cards, *mask_cards(hidden)], hidden) for hidden in hands]


def _stock_of(an: _Analysis, deal: _Deal, rng: random.Random) -> list[Card]:
    """A random order of the stock of ``deal`` (the unseen cards it did not give the opponent)."""
    stock = [c for c in an.live if not deal.hidden & c.bit]
    rng.shuffle(stock)
    return stock


def _with_sampled_chances(an: _Analysis, deals: Sequence[_Deal]) -> _Analysis:
    """``an`` with the opponent's holding chances (and the stock odds) counted over ``deals``."""
    counts = [0] * 52
    for deal in deals:
        for card in deal.opponent:
            counts[card.index] += 1
    n = len(deals)
    chances = [k / n for k in counts]
    odds = [max(0.0, 1.0 - chances[c.index]) for c in an.live]
    total = sum(odds)
    draw_odds = [o / total for o in odds] if total > 0 else odds
    return _Analysis(
        an.view, an.memory, an.opponent, an.weights, chances, an.live, draw_odds, an.known_mask
    )


def _paired_gain(values: Sequence[int], base: Sequence[int]) -> tuple[float, float]:
    """Mean and standard error of ``values - base`` over the same deals."""
    n = len(values)
    diffs = [a - b for a, b in zip(values, base, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5


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
    opponent keeps, which made knocking look safer than it is.
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
        if gain <= self.confidence * error:
            return Suggestion(
                Knock(knock_card), because("gin.knock_risk", count=knock_dw, risk=risk)
            )
        return Suggestion(Discard(best), reason.also("gin.wait", count=knock_dw))
