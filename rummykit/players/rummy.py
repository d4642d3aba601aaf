"""Computer players for Basic Rummy (2-6 players, presets ``rummy`` and ``rummy-classic``).

Every player decides from a :class:`~rummykit.games.rummy.RummyView` alone (never the state) and
is deterministic given its seed: each decision draws from a generator seeded with the player's
seed and the view's public history, so the same view always gets the same answer, whatever the
other seats hold or the stock order.

All three levels plan a whole turn at once (which melds to lay down, which cards to lay off, in an
order the rules allow, and which card to throw), score the hand each plan leaves, and play the
first step of the best plan; asked again after that step, they plan again from the new view.
A plan that empties the hand always wins.

- ``easy`` (:class:`EasyRummyPlayer`) sees only its own deadwood: it lays down what it can, often
  overlooks lay-offs, takes the top discard when it visibly makes a meld (not always) and
  sometimes when it goes with one of its cards, throws a random unmatched card a third of the
  time, and never watches the other players. It never misses going out.
- ``medium`` (:class:`MediumRummyPlayer`) plays the classic sound heuristics: melds go down as soon
  as the rules allow, every card that fits the table is laid off, the card thrown is the one that
  leaves the fewest unmatched points (the highest card on a tie), and the top discard is taken
  when it completes a meld or can be laid off, or when it sits next to an unmatched card of the
  hand (same rank, or next in its suit): a taken discard is a turn that costs the stock nothing,
  and a table where everyone only draws runs out of stock (a stalemate) far more often.
- ``hard`` (:class:`HardRummyPlayer`) remembers every card: what each seat took, threw, drew past
  and laid down (and, after a restock without shuffling, which card the stock gives next). It
  deals the hidden cards at random many times consistently with the view (a deal in which a seat
  holds a meld it would have laid down, or threw a card of its own meld, or drew past a card that
  would have made one, is usually dealt again), and counts how often each opponent holds each
  card: the chance the next player can meld a card (so it does not feed it), the lay-offs a new
  meld would offer the table, and each card's chance to be the next stock card (after a restock
  without shuffling, the very card it draws next: the one after those the other seats draw
  first, or none when the hand would end before its turn). It scores the hand each plan leaves
  by its unmatched cards and points, the expected help and the chance of going
  out on its next stock card (live cards only, by those chances), the points at risk in melds kept
  in hand (weighed by how near an opponent is to going out: it may keep a meld hidden early, it
  lays everything down when someone is close), the danger of feeding the next player and of
  exposing lay-offs; it takes the top discard when the best plan with it scores better than
  without, or not much worse (``shape_slack``) when the card goes with an unmatched card of its
  hand, like medium (every take lengthens the hand by a turn: fewer stalemates). Playouts of
  every sampled deal to the end of the hand (every seat greedy) are built in (``candidates``,
  ``search_take``) but off by default: with a greedy playout policy they measured weaker than the
  scored plan (bench/rummy_players.py, see the report of the commit).

``suggest(view)`` returns the move and a reason, e.g.
``"meld 7♠ 7♦ 7♣: three of a kind, 21 points off your hand"``.

>>> from rummykit.games import Rummy
>>> state = Rummy().new_hand(players=3, seed=7)
>>> hard = HardRummyPlayer(seed=1)
>>> action, reason = hard.suggest(state.view(state.to_act))
>>> action in state.legal_actions() and bool(reason)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Final

from rummykit.actions import Action, Discard, Draw, LayOff, NewMeld, Take
from rummykit.cards import STANDARD_PACK, Card
from rummykit.games.base import Phase, View
from rummykit.games.rummy import RummyOptions, RummyView, hand_size, melds_in
from rummykit.melds import Meld, MeldKind
from rummykit.players.base import SeededPlayer, checked_view, decision_rng
from rummykit.players.reasons import Reason, Suggestion, because, define
from rummykit.players.tracking import (
    ALL_CARDS,
    CardMemory,
    SeatNotes,
    holding_chances,
    holding_weights,
    meld_chance,
    sample_hidden,
)
from rummykit.solver.deadwood import best_arrangement, best_discards, min_deadwood_mask

__all__ = ["EasyRummyPlayer", "HardRummyPlayer", "MediumRummyPlayer", "rummy_memory"]

define(
    {
        "rummy.set3": (
            "three of a kind, {count} points off your hand",
            "bộ ba lá cùng số, bớt {count} điểm trên tay",
        ),
        "rummy.set4": (
            "four of a kind, {count} points off your hand",
            "bộ tứ cùng số, bớt {count} điểm trên tay",
        ),
        "rummy.run": (
            "a run of {size}, {count} points off your hand",
            "sảnh {size} lá cùng chất, bớt {count} điểm trên tay",
        ),
        "rummy.layoff": ("{card} goes on {meld}", "{card} gửi vào bộ {meld}"),
        "rummy.out_this_turn": (
            "then you go out this turn",
            "sau đó bạn hết bài ngay lượt này",
        ),
        "rummy.take_out": ("{card} lets you go out", "lấy {card} là hết bài"),
        "rummy.take_layoff": (
            "{card} can be laid off at once",
            "{card} gửi bài được ngay",
        ),
        "rummy.take_better": (
            "{card} helps more than a stock card is likely to",
            "{card} có lợi hơn một lá rút từ nọc",
        ),
        "rummy.take_shape": (
            "{card} goes with {partner} toward a meld, and leaving the stock makes it last longer",
            "{card} đi với {partner} gần thành bộ, và không rút nọc thì nọc lâu hết hơn",
        ),
        "rummy.take_swap": (
            "{card} is as good to keep as {thrown}, which you can throw instead, and leaving the"
            " stock makes it last longer",
            "{card} giữ cũng tốt như {thrown} (có thể bỏ lá đó thay vào), và không rút nọc thì nọc"
            " lâu hết hơn",
        ),
        "rummy.stock_better": (
            "a stock card is likely to help more than {card}",
            "một lá từ nọc nhiều khả năng có lợi hơn {card}",
        ),
        "rummy.hold": (
            "you keep {cards} in hand: laid down, it would give others lay-offs",
            "giữ {cards} trên tay: hạ xuống sẽ cho người khác gửi bài",
        ),
        "rummy.feeds_not": (
            "the next player is unlikely to use it",
            "người chơi kế tiếp khó dùng được lá này",
        ),
        "rummy.keep_away": (
            "{card} would help the next player, keep it",
            "{card} có thể giúp người chơi kế tiếp, nên giữ lại",
        ),
        "rummy.risk": (
            "an opponent has only {count} cards left",
            "một đối thủ chỉ còn {count} lá",
        ),
        "rummy.seen_meld": ("it makes a meld", "lá này ghép được bộ"),
    }
)

_OUT: Final = 1000.0
"""The value of a plan that empties the hand (lower is better: going out beats everything)."""

_NEAR: Final = tuple(
    sum(
        c.bit
        for c in STANDARD_PACK
        if c is not card
        and (
            c.number == card.number
            or (c.suit_index == card.suit_index and abs(c.number - card.number) <= 2)
        )
    )
    for card in STANDARD_PACK
)
"""Per card index, the mask of cards of its rank or within two in its suit."""

_CLOSE: Final = tuple(
    sum(
        c.bit
        for c in STANDARD_PACK
        if c is not card
        and (
            c.number == card.number
            or (c.suit_index == card.suit_index and abs(c.number - card.number) == 1)
        )
    )
    for card in STANDARD_PACK
)
"""Per card index, the mask of cards of its rank or next to it in its suit."""

_RANK_BITS: Final = tuple(sum(1 << (13 * s + n) for s in range(4)) for n in range(13))


def _cards(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(STANDARD_PACK[low.bit_length() - 1])
        mask ^= low
    return out


def _points(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += STANDARD_PACK[low.bit_length() - 1].points
        mask ^= low
    return total


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


# ------------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class _MeldNumbers:
    """A meld on the table as numbers: a set of ``rank`` (0-12), or a run of ``suit`` lo..hi."""

    is_set: bool
    key: int
    lo: int
    hi: int
    mask: int


def _meld_numbers(meld: Meld) -> _MeldNumbers:
    cards = meld.cards
    if meld.kind is MeldKind.SET:
        n = cards[0].number - 1
        return _MeldNumbers(True, n, n, n, _mask(cards))
    return _MeldNumbers(False, cards[0].suit_index, cards[0].number - 1, cards[-1].number - 1, 0)


def _ends(table: Sequence[_MeldNumbers]) -> int:
    """The cards that fit a meld of the table now."""
    out = 0
    for m in table:
        if m.is_set:
            if m.mask.bit_count() == 3:
                out |= _RANK_BITS[m.key] & ~m.mask
        else:
            base = 13 * m.key
            if m.lo > 0:
                out |= 1 << (base + m.lo - 1)
            if m.hi < 12:
                out |= 1 << (base + m.hi + 1)
    return out


def _closure(hand: int, table: Sequence[_MeldNumbers]) -> int:
    """The cards of ``hand`` that can be laid off onto ``table``, one after another."""
    laid = 0
    for m in table:
        if m.is_set:
            if m.mask.bit_count() == 3:
                laid |= hand & _RANK_BITS[m.key] & ~m.mask
        else:
            base = 13 * m.key
            n = m.lo - 1
            while n >= 0 and hand >> (base + n) & 1:
                laid |= 1 << (base + n)
                n -= 1
            n = m.hi + 1
            while n <= 12 and hand >> (base + n) & 1:
                laid |= 1 << (base + n)
                n += 1
    return laid


# ------------------------------------------------------------------------ what a seat knows


@dataclass(frozen=True, slots=True)
class _Knowledge:
    """One seat's card memory, plus what only Basic Rummy has: a stock known after a restock."""

    memory: CardMemory
    next_stock: Card | None
    """The next stock card, when the stock is a discard pile turned over (known to everyone)."""
    stock_order: tuple[Card | None, ...] | None
    """The whole stock, top first, when it is a discard pile turned over (None where a card
    was never named, e.g. the first up-card); None when the order is not known."""
    ever_two_melds: bool
    """Some seat laid down two melds in one turn (so the table allows more than one)."""


def rummy_memory(view: RummyView, *, turn_over: bool = True) -> CardMemory:
    """Everything ``view.seat`` can know of the cards of a Basic Rummy hand, from its view alone.

    The history is replayed over the discard pile to learn what each seat took, threw and drew
    past. With ``turn_over`` (the ``rummy`` preset), a restocked stock is the old discard pile
    turned over, so the cards drawn from it are known; if the seat's own draws show that the pile
    was shuffled instead, that knowledge is dropped.

    >>> from rummykit.games import Rummy
    >>> state = Rummy().new_hand(players=3, seed=4)
    >>> state.apply(Draw()); state.apply(Discard(state.hands[1][0]))
    >>> memory = rummy_memory(state.view(2))
    >>> memory.seats[1].discarded == (state.discard_pile[-1],)
    True
    """
    return _know(view, turn_over=turn_over).memory


def _know(view: RummyView, *, turn_over: bool = True) -> _Knowledge:
    seat = view.seat
    players = len(view.hand_sizes)
    stock = 52 - players * hand_size(players) - 1
    pile: list[Card | None] = [None]  # None: the first up-card, not named in the history
    took: list[list[Card]] = [[] for _ in range(players)]
    thrown: list[list[Card]] = [[] for _ in range(players)]
    refused: list[list[Card]] = [[] for _ in range(players)]
    holds: list[list[Card]] = [[] for _ in range(players)]
    order: list[Card | None] | None = None
    mine: list[Card] = []  # cards this seat drew from a turned-over stock
    played_by_me: set[Card] = set()
    restocks = 0
    two = False
    melds_now = 0
    last_actor = -1

    def drop(actor: int, card: Card) -> None:
        if card in holds[actor]:
            holds[actor].remove(card)

    for actor, text in view.history:
        if actor != last_actor:
            melds_now = 0
            last_actor = actor
        verb, _, rest = text.partition(" ")
        if verb == "take":
            card = pile.pop() if pile else None
            if card is not None:
                took[actor].append(card)
                holds[actor].append(card)
        elif verb == "draw":
            top = pile[-1] if pile else None
            if top is not None:
                refused[actor].append(top)
            stock -= 1
            if order:
                drawn = order.pop(0)
                if drawn is not None:
                    if actor == seat:
                        mine.append(drawn)
                    else:
                        holds[actor].append(drawn)
        elif verb == "discard":
            card = Card.parse(rest)
            pile.append(card)
            thrown[actor].append(card)
            drop(actor, card)
            if actor == seat:
                played_by_me.add(card)
            if stock == 0 and restocks < view.restocks and len(pile) >= 2:
                restocks += 1
                top_card = pile.pop()
                order = list(pile) if turn_over else None
                stock = len(pile)
                pile = [top_card]
        elif verb == "meld":
            melds_now += 1
            two = two or melds_now >= 2
            for word in rest.split():
                card = Card.parse(word)
                drop(actor, card)
                if actor == seat:
                    played_by_me.add(card)
        elif verb == "layoff":
            card = Card.parse(rest.split()[0])
            drop(actor, card)
            if actor == seat:
                played_by_me.add(card)
    hand = set(view.hand)
    if any(c not in hand and c not in played_by_me for c in mine):
        # The pile was shuffled, not turned over: what others drew from it is unknown.
        order = None
        for s in range(players):
            holds[s] = [c for c in holds[s] if c in took[s]]
    own = _mask(view.hand)
    public = _mask(view.discard_pile)
    for table_meld in view.table:
        public |= _mask(table_meld.meld.cards)
    visible = own | public
    notes = []
    for s in range(players):
        kept = [c for c in dict.fromkeys(holds[s]) if not visible & c.bit] if s != seat else []
        visible |= _mask(kept)
        notes.append(
            SeatNotes(
                took=tuple(took[s]),
                discarded=tuple(thrown[s]),
                refused=tuple(refused[s]),
                holds=tuple(kept),
                hidden=max(0, view.hand_sizes[s] - len(kept)) if s != seat else 0,
            )
        )
    memory = CardMemory(
        seat=seat,
        own=own,
        public=public,
        unseen=ALL_CARDS & ~visible,
        top=view.discard_pile[-1] if view.discard_pile else None,
        stock_size=view.stock_size,
        seats=tuple(notes),
    )
    next_stock = None
    stock_order = None
    if order is not None and len(order) == view.stock_size:
        stock_order = tuple(order)
        if order and order[0] is not None:
            next_stock = order[0]
    return _Knowledge(memory, next_stock, stock_order, two)


# ------------------------------------------------------------------------------- planning


@dataclass(frozen=True, slots=True)
class _Plan:
    """One way to play the rest of a turn: steps in a legal order, and the hand it leaves."""

    steps: tuple[Action, ...]
    final: int
    """The hand at the end of the turn (0 when the plan goes out)."""
    out: bool
    melds: tuple[Meld, ...]
    table: tuple[_MeldNumbers, ...]
    """The table after the plan."""
    discard: Card | None


def _layoff_steps(
    hand: list[Card],
    table: list[Meld],
    taken: Card | None,
    keep_melds: bool,
    no_empty: bool,
) -> list[tuple[Card, int]]:
    """Lay-offs onto ``table`` (changed in place, ``hand`` too), each legal when it is made.

    With ``keep_melds`` only cards that are unmatched in the hand are laid off (a card of a meld
    held in the hand stays).
    """
    done: list[tuple[Card, int]] = []
    changed = True
    while changed:
        changed = False
        # The card taken from the pile first: laid off before the others, it can never be left
        # alone (the order every table's stranding rule allows).
        for card in sorted(hand, key=lambda c: c is not taken):
            left = len(hand) - 1
            if left == 0 and no_empty:
                continue
            if keep_melds:
                mask = _mask(hand)
                if min_deadwood_mask(mask & ~card.bit) != min_deadwood_mask(mask) - card.points:
                    continue
            for number, meld in enumerate(table):
                extended = meld.extended_by(card)
                if extended is not None:
                    if left == 1 and _strands(
                        [c for c in hand if c is not card],
                        taken,
                        [*table[:number], extended, *table[number + 1 :]],
                    ):
                        continue  # it would strand the card taken from the discard pile
                    table[number] = extended
                    hand.remove(card)
                    done.append((card, number + 1))
                    changed = True
                    break
    return done


def _strands(rest: Sequence[Card], taken: Card | None, table: Sequence[Meld]) -> bool:
    """True if a play leaving ``rest`` in hand and ``table`` on the table strands the card taken
    from the discard pile: it is the only card left and fits no meld (the default
    ``stranding="dead_end"`` rule). At a ``"strict"`` table the plans this lets through that
    start with a refused step are dropped by the callers' check of the first step."""
    if len(rest) != 1 or taken is None or rest[0] is not taken:
        return False
    return not any(m.accepts(taken) for m in table)


def _meld_choices(hand: Sequence[Card], allowed: int | None) -> list[tuple[Meld, ...]]:
    """The sets of new melds worth trying: none, each single meld, and with more than one meld
    allowed a turn, every combination of the best arrangement's melds."""
    if allowed == 0:
        return [()]
    out: list[tuple[Meld, ...]] = [(), *((m,) for m in melds_in(hand))]
    if allowed is None or allowed >= 2:
        best = best_arrangement(list(hand)).melds[:4]
        most = len(best) if allowed is None else min(allowed, len(best))
        for size in range(2, most + 1):
            out.extend(combinations(best, size))
    return out


def _plans(
    hand: Sequence[Card],
    table: Sequence[Meld],
    taken: Card | None,
    allowed: int | None,
    *,
    discard: bool = True,
    no_empty: bool = False,
    layoffs: bool = True,
) -> list[_Plan]:
    """Every plan worth scoring for the rest of a turn (see :class:`_Plan`).

    ``allowed`` is how many new melds may still be laid this turn (None: any number). Without
    ``discard`` the plans stop before the discard (the hand as it would be kept).
    """
    out: list[_Plan] = []
    seen: set[tuple[int, int]] = set()
    for choice in _meld_choices(hand, allowed):
        rest = list(hand)
        steps: list[Action] = []
        laid: list[Meld] = []
        ok = True
        for meld in choice:
            for card in meld.cards:
                rest.remove(card)
            if (no_empty and not rest) or _strands(rest, taken, [*table, *laid, meld]):
                ok = False
                break
            steps.append(NewMeld(meld.cards))
            laid.append(meld)
        if not ok:
            continue
        variants = (False, True) if layoffs else ()
        layoff_options: list[tuple[list[Card], list[Meld], list[tuple[Card, int]]]] = []
        if not layoffs:
            layoff_options.append((rest, [*table, *laid], []))
        for keep in variants:
            cards = list(rest)
            new_table = [*table, *laid]
            done = _layoff_steps(cards, new_table, taken, keep, no_empty)
            layoff_options.append((cards, new_table, done))
            if not done:
                break
        for cards, new_table, done in layoff_options:
            mask = _mask(cards)
            all_steps = steps + [LayOff(c, n) for c, n in done]
            tm = tuple(_meld_numbers(m) for m in new_table)
            if not discard:
                key = (mask, -1)
                if key not in seen:
                    seen.add(key)
                    out.append(_Plan(tuple(all_steps), mask, not cards, tuple(laid), tm, None))
                continue
            if not cards:
                out.append(_Plan(tuple(all_steps), 0, True, tuple(laid), tm, None))
                continue
            for card in cards:
                if card is taken:
                    continue
                final = mask & ~card.bit
                key = (final, card.index)
                if key in seen:
                    continue
                seen.add(key)
                out.append(
                    _Plan((*all_steps, Discard(card)), final, not final, tuple(laid), tm, card)
                )
    return out


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
    highest = card in unmatched and card.points >= max(c.points for c in unmatched)
    if highest and loose:
        reason = because("highest_loose")
    elif highest:
        reason = because("highest")
    elif loose:
        reason = because("loose")
    elif card not in unmatched:
        reason = because("spare")
    else:
        reason = because("weakest")
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
