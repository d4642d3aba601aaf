"""Crazy Rummy: seven contract rounds, two packs with jokers, wild 2s, buying the up-card.

A game of Crazy Rummy is a match of seven rounds (:class:`CrazyMatch`); each round is a
:class:`CrazyState`. Points left in hand are bad: after round 7 the lowest total wins.

>>> game = Crazy()
>>> state = game.new_hand(players=4, seed=3)
>>> state.round, str(state.contract), [len(h) for h in state.hands]
(1, '2 books', [7, 7, 7, 7])
>>> state.phase, state.to_act                 # the dealer has the first pick of the up-card
(<Phase.OFFER: 'offer'>, 0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import partial
from typing import Any, ClassVar

from rummykit.actions import Action, Buy, Discard, Down, Draw, LayOff, Pass, Swap, Take
from rummykit.cards import (
    AnyCard,
    Card,
    double_pack,
    format_cards,
    parse_cards,
    parse_natural_cards,
)
from rummykit.games.base import (
    IllegalActionError,
    Phase,
    as_seat,
    check_player_count,
    checked_seat,
)
from rummykit.games.deal import Deal
from rummykit.games.mechanics import (
    PUBLIC,
    ActionDispatch,
    CloneableHand,
    RotatingMatch,
    ShuffledRestocks,
    Tagged,
    redeal_unseen,
)
from rummykit.games.options import OptionSpec, SameRules, check_options, options_repr
from rummykit.games.seeding import check_seed, new_rng
from rummykit.games.table_meld import TableMeld
from rummykit.melds import MeldError
from rummykit.solver.contract import CONTRACTS, HAND_SIZES, Contract, solve_contract
from rummykit.wild_melds import Book, End, Run, WildMeld, WildRules, hand_points, is_wild

__all__ = [
    "ROUNDS",
    "Crazy",
    "CrazyMatch",
    "CrazyMatchResult",
    "CrazyOptions",
    "CrazyOutcome",
    "CrazyRoundResult",
    "CrazyState",
    "CrazyView",
    "TableMeld",
]

ROUNDS = len(CONTRACTS)
MIN_PLAYERS, MAX_PLAYERS = 2, 6


class CrazyOutcome(StrEnum):
    """How a round of Crazy Rummy ended."""

    OUT = "out"
    """A player got rid of every card."""
    STOCK_OUT = "stock_out"
    """A card had to be drawn and none could be had: everyone scores their hand."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CrazyOptions:
    """The rules of a Crazy Rummy table; every field is a named option of RULES.md section 3."""

    jokers: int = 4
    max_wilds_run: int = 2
    max_wilds_book: int = 1
    penalty_cards: int = 1
    """Cards a buyer takes from the stock with the bought card."""
    max_buys_per_round: int | None = None
    """How often one player may buy in a round; None: no limit."""
    swap_requires_down: bool = True
    """True: a player swaps wilds out of runs only after laying down their own contract."""
    discard_to_go_out: bool = False
    """True: the last card must be discarded, not played onto the table."""
    max_restocks: int | None = 5
    """How often in a round the discards become a new stock; then the round ends. None: always."""
    discard_taken_twin: bool = False
    """True: a player who took a card from the discard pile may throw its twin (the identical
    card of the other pack) in the same turn. False: at a real table nobody can tell the two
    apart, so throwing the twin is throwing back the card taken, which RULES.md forbids."""
    buy_keeps_draw: bool = True
    """True: a buy must leave a card for the draw of the player in turn (who passed on the card
    and draws after the buyers were asked), from the stock or the discards that may be shuffled
    into it. False: a buyer may take the last cards, and the round then ends before that player
    draws (as the engine played before the option existed)."""

    SPECS: ClassVar[tuple[OptionSpec, ...]] = (
        # RULES.md section 3: two packs "plus `jokers` jokers (default 4)"; a pack carries at
        # most 2 jokers, so 4 is also the most.
        OptionSpec("jokers", "int", 0, 4, note="two packs carry at most 2 jokers each"),
        # A run is at most 13 cards and never holds more wilds than naturals, so it cannot hold
        # more than 6; a book has at most 8 naturals (two packs), so at most 8 wilds.
        OptionSpec("max_wilds_run", "int", 0, 6, note="a run holds at most 6"),
        OptionSpec("max_wilds_book", "int", 0, 8, note="a book holds at most 8"),
        OptionSpec("penalty_cards", "int", 0, 5),
        OptionSpec("max_buys_per_round", "int", 0, 100, none="unlimited"),
        OptionSpec("swap_requires_down", "bool"),
        OptionSpec("discard_to_go_out", "bool"),
        OptionSpec("max_restocks", "int", 0, 100, none="unlimited"),
        OptionSpec("discard_taken_twin", "bool"),
        OptionSpec("buy_keeps_draw", "bool"),
    )
    """Every option and the values it takes, in field order."""

    def __post_init__(self) -> None:
        check_options(self, self.SPECS)

    @property
    def rules(self) -> WildRules:
        """The meld limits these options set."""
        return WildRules(max_wilds_run=self.max_wilds_run, max_wilds_book=self.max_wilds_book)

    def __repr__(self) -> str:
        return options_repr(self)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON data (``"unlimited"`` for no buy limit)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in ("max_buys_per_round", "max_restocks"):
            if data[name] is None:
                data[name] = "unlimited"
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CrazyOptions:
        """Options from JSON data; an unknown name or a bad value raises ValueError."""
        if not isinstance(data, Mapping):
            raise ValueError("options must be an object of name: value")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown Crazy Rummy option(s): {', '.join(unknown)}"
                f" (known: {', '.join(sorted(known))})"
            )
        values = dict(data)
        for name in ("max_buys_per_round", "max_restocks"):
            if values.get(name) == "unlimited":
                values[name] = None
        return replace(cls(), **values)


@dataclass(frozen=True, slots=True)
class CrazyRoundResult:
    """How a round ended; points are bad."""

    outcome: CrazyOutcome
    winner: int | None
    """The seat that went out (None when the stock ran out)."""
    points: tuple[int, ...]
    """Per seat, the points of the cards left in hand."""
    remaining: tuple[tuple[AnyCard, ...], ...]

    @property
    def scores(self) -> tuple[int, ...]:
        """What this round adds to each seat's total (bad points)."""
        return self.points

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "outcome": self.outcome.value,
            "winner": self.winner,
            "points": list(self.points),
            "remaining": [[str(c) for c in cs] for cs in self.remaining],
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class CrazyView:
    """What one seat may know of a round: never another hand's cards or the stock order."""

    seat: int
    round: int
    contract: Contract
    dealer: int
    phase: Phase
    to_act: int | None
    turn: int | None
    """The seat whose turn it is (during a buy offer, someone else may be to act)."""
    hand: tuple[AnyCard, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[AnyCard, ...]
    offered: AnyCard | None
    """The card on offer (to take or buy), if any."""
    table: tuple[TableMeld[WildMeld], ...]
    laid_down: tuple[bool, ...]
    buys: tuple[int, ...]
    known_cards: tuple[tuple[AnyCard, ...], ...]
    """Per seat, the cards everyone saw go into its hand and that it still holds: taken or
    bought from the discard pile, or a wild it swapped out of a run."""
    taken_from_discard: AnyCard | None
    legal_actions: tuple[Action, ...]
    result: CrazyRoundResult | None
    history: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data."""
        return {
            "seat": self.seat,
            "round": self.round,
            "contract": {"books": self.contract.books, "runs": self.contract.runs},
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "turn": self.turn,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard_pile": [str(c) for c in self.discard_pile],
            "offered": None if self.offered is None else str(self.offered),
            "table": [t.to_dict() for t in self.table],
            "laid_down": list(self.laid_down),
            "buys": list(self.buys),
            "known_cards": [[str(c) for c in cs] for cs in self.known_cards],
            "taken_from_discard": None
            if self.taken_from_discard is None
            else str(self.taken_from_discard),
            "legal_actions": [str(a) for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_dict(),
            "history": [list(h) for h in self.history],
        }


class Crazy(SameRules):
    """Crazy Rummy under a set of options (immutable); it creates rounds and seven-round games."""

    name = "crazy"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    rounds = ROUNDS
    outcomes: tuple[str, ...] = tuple(o.value for o in CrazyOutcome)
    low_total_wins = True

    def __init__(self, options: CrazyOptions | None = None) -> None:
        self.options = options if options is not None else CrazyOptions()
        self.rules = self.options.rules
        self.pack: tuple[AnyCard, ...] = double_pack(self.options.jokers)

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> Crazy:
        """The game with options given as JSON data (defaults for the missing ones)."""
        return cls(CrazyOptions.from_dict(options or {}))

    def __repr__(self) -> str:
        return f"Crazy({self.options!r})"

    def new_hand(
        self,
        *,
        players: int = 4,
        seed: int | None = None,
        deal: Deal | None = None,
        dealer: int = 0,
        round: int = 1,
    ) -> CrazyState:
        """A new round (``round`` 1-7 sets the hand size and contract)."""
        return CrazyState(self, players=players, seed=seed, deal=deal, dealer=dealer, round=round)

    def new_match(
        self,
        *,
        players: int = 4,
        seed: int | None = None,
        dealer: int = 0,
        first_seed: int | None = None,
        first_deal: Deal | None = None,
    ) -> CrazyMatch:
        """A new seven-round game; its first round is dealt at once."""
        hands = []
        if first_seed is not None or first_deal is not None:
            hands.append(
                self.new_hand(players=players, seed=first_seed, deal=first_deal, dealer=dealer)
            )
        return CrazyMatch(self, players=players, seed=seed, dealer=dealer, hands=hands)


def _remove(hand: list[AnyCard], cards: Sequence[AnyCard]) -> None:
    for card in cards:
        hand.remove(card)


def _has_all(hand: Sequence[AnyCard], cards: Sequence[AnyCard]) -> bool:
    need = Counter(cards)
    have = Counter(hand)
    return all(have[c] >= n for c, n in need.items())


class CrazyState(ActionDispatch, CloneableHand, ShuffledRestocks):
    """One round of Crazy Rummy: the up-card offer and buys, turns, contracts, going out.

    Use :meth:`legal_actions`, :meth:`verify`, :meth:`can` and :meth:`apply` (or the named
    methods :meth:`take`, :meth:`pass_`, :meth:`buy`, :meth:`draw`, :meth:`down`,
    :meth:`lay_off`, :meth:`swap`, :meth:`discard`). A refused action raises
    :class:`IllegalActionError` and changes nothing. :meth:`legal_actions` lists every legal
    action except that, of the many ways to lay down a contract, it lists the one that leaves the
    fewest points in hand; :meth:`verify` accepts any legal lay-down.
    """

    TITLE = "Crazy Rummy"
    OVER = "the round is over"

    def __init__(
        self,
        game: Crazy,
        *,
        players: int = 4,
        seed: int | None = None,
        deal: Deal | None = None,
        dealer: int = 0,
        round: int = 1,
    ) -> None:
        players = check_player_count("Crazy Rummy", players, MIN_PLAYERS, MAX_PLAYERS)
        if isinstance(round, bool) or round not in range(1, ROUNDS + 1):
            raise ValueError(f"Crazy Rummy has rounds 1 to {ROUNDS}, not {round!r}")
        seat = as_seat(dealer, players)
        if seat is None:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
        dealer = seat
        self.game = game
        self.options = game.options
        self.rules = game.rules
        self.players = players
        self.dealer = dealer
        self.round = round
        self.contract = CONTRACTS[round - 1]
        self.seed = seed = check_seed(seed)
        size = HAND_SIZES[round - 1]
        if deal is None:
            deal = Deal.shuffled(
                game.pack, new_rng(seed), dealer=dealer, players=players, hand_size=size
            )
        elif seed is not None:
            raise ValueError("give a seed or a deal, not both")
        else:
            deal.check(game.pack, players, size)
        self.deal = deal
        self.hands: list[list[AnyCard]] = [list(h) for h in deal.hands]
        self.stock: list[AnyCard] = list(reversed(deal.stock))
        self.discard_pile: list[AnyCard] = [deal.up]
        self.table: list[TableMeld[WildMeld]] = []
        self.laid_down = [False] * players
        self.buys = [0] * players
        self.restocks = 0
        self.known: list[list[AnyCard]] = [[] for _ in range(players)]
        self._tags: list[list[Tagged]] = [[] for _ in range(players)]
        """Per seat, cards it holds that everyone saw go in without a take (``PUBLIC``: a wild
        swapped out of a run) or that it drew from a restock's stock (the restock's number), for
        :meth:`resample`."""
        self.phase = Phase.OFFER
        self.to_act: int | None = dealer
        self.turn: int | None = (dealer + 1) % players
        self.offered: AnyCard | None = deal.up
        self.offer_from: int = dealer  # buys stop before this seat
        self.buy_queue: list[int] = []
        self.taken: AnyCard | None = None
        self.history: list[tuple[int, Action]] = []
        self._notation: list[tuple[int, str]] = []
        self.result: CrazyRoundResult | None = None
        self._down_memo: tuple[tuple[AnyCard | None, ...], Down | None] | None = None

    def __repr__(self) -> str:
        return (
            f"<CrazyState round={self.round} phase={self.phase.value} to_act={self.to_act} "
            f"hands={[format_cards(h) for h in self.hands]}>"
        )

    # --------------------------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        """True once the round is scored."""
        return self.phase is Phase.HAND_OVER

    @property
    def top_discard(self) -> AnyCard | None:
        """The top card of the discard pile, if any."""
        return self.discard_pile[-1] if self.discard_pile else None

    def _can_restock(self) -> bool:
        limit = self.options.max_restocks
        return limit is None or self.restocks < limit

    def _stock_available(self, keep_top: bool) -> int:
        """Cards that could come from the stock now (restocking the discard pile if needed)."""
        if not self._can_restock():
            return len(self.stock)
        pile = len(self.discard_pile) - (1 if keep_top and self.discard_pile else 0)
        return len(self.stock) + max(0, pile)

    def _can_buy(self, seat: int) -> bool:
        limit = self.options.max_buys_per_round
        if limit is not None and self.buys[seat] >= limit:
            return False
        return self._can_pay() and (not self.options.buy_keeps_draw or self._buy_leaves_draw())

    def _can_pay(self) -> bool:
        """Whether the stock can give a buyer the penalty cards (the bought card is the top of
        the pile; the rest of the pile may be shuffled into a new stock)."""
        return self._stock_available(keep_top=True) >= self.options.penalty_cards

    def _buy_leaves_draw(self) -> bool:
        """Whether, after a buy and its penalty cards, the player in turn still gets a card for
        the draw: from what the stock keeps, or from a new stock shuffled from the discards
        (those under the bought card, less the new top card, which stays face up)."""
        penalty = self.options.penalty_cards
        stock = len(self.stock)
        under = len(self.discard_pile) - 1  # the cards under the bought one
        if stock >= penalty:  # the penalty needs no new stock
            return stock > penalty or (self._can_restock() and under > 1)
        # The penalty shuffles every card under the bought one into a new stock (when allowed).
        return self._can_restock() and stock + under > penalty

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for the seat to act (a contract: only its best lay-down); with
        ``seat``, that seat's: empty when it is not its turn."""
        if seat is not None and checked_seat(seat, self.players) != self.to_act:
            return []
        phase = self.phase
        if phase is Phase.OFFER:
            return [Take(), Pass()]
        if phase is Phase.BUY:
            assert self.to_act is not None
            return [Buy(), Pass()] if self._can_buy(self.to_act) else [Pass()]
        if phase is Phase.DRAW:
            assert self.to_act is not None
            can_take = self.offered is not None and self._may_take(self.to_act)
            return [Take(), Draw()] if can_take else [Draw()]
        if phase is not Phase.DISCARD:
            return []
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        actions: list[Action] = []
        if not self.laid_down[seat]:
            down = self._best_down(hand)
            if down is not None:
                actions.append(down)
        else:
            for card in dict.fromkeys(hand):
                for number, table_meld in enumerate(self.table, 1):
                    for end in self._layoff_ends(card, table_meld.meld):
                        layoff = LayOff(card, number, end)
                        after = partial(self._table_with_layoff, layoff)
                        if self._strands(1, None, card, after) is None:
                            actions.append(layoff)
        if self.laid_down[seat] or not self.options.swap_requires_down:
            for card in dict.fromkeys(c for c in hand if isinstance(c, Card)):
                for number, table_meld in enumerate(self.table, 1):
                    meld = table_meld.meld
                    if (
                        table_meld.owner != seat
                        and isinstance(meld, Run)
                        and meld.swap(card)
                        and self._swap_strands(Swap(card, number), hand) is None
                    ):
                        actions.append(Swap(card, number))
        # The card taken from the pile stays (and its twin, unless the table allows throwing it).
        actions.extend(Discard(c) for c in dict.fromkeys(hand) if self._may_throw(c, hand))
        return actions

    def _may_take(self, seat: int) -> bool:
        """Whether ``seat`` may take the offered card in its turn: not when its hand holds only
        twins of it (so taking it leaves nothing it may throw, unless ``discard_taken_twin``)
        and no copy can go onto the table."""
        card = self.offered
        hand = self.hands[seat]
        if card is None:
            return False
        if self.options.discard_taken_twin or any(c != card for c in hand):
            return True
        return self.laid_down[seat] and any(self._layoff_ends(card, t.meld) for t in self.table)

    def _may_throw(self, card: AnyCard, hand: Sequence[AnyCard]) -> bool:
        """Whether ``card`` of ``hand`` may be discarded now: not the card just taken from the
        pile, nor its twin unless ``discard_taken_twin`` (a twin laid on the table first makes
        the copy left the player's own: :attr:`taken` is cleared then)."""
        if card != self.taken:
            return True
        return self.options.discard_taken_twin and hand.count(card) > 1

    def _best_down(self, hand: list[AnyCard]) -> Down | None:
        """The lay-down that leaves the fewest points (memoised for the hand as it is now).

        When the best one is refused by the going-out rules (it would empty the hand under
        ``discard_to_go_out``, or leave only the card just taken from the pile), the best lay-down
        that keeps back some other card is offered instead, if there is one.
        """
        key = (*hand, self.taken)
        if self._down_memo is not None and self._down_memo[0] == key:
            return self._down_memo[1]
        best = solve_contract(hand, self.contract, self.rules)
        down = None
        if best is not None:
            laid = sum(len(m.cards) for m in best.melds)
            melds = best.melds
            if self._strands(laid, best.left, None, partial(self._melds_now, melds)) is None:
                down = Down(tuple(tuple(m.cards) for m in best.melds))
            else:
                down = self._down_keeping_back(hand)
        self._down_memo = (key, down)
        return down

    def _down_keeping_back(self, hand: list[AnyCard]) -> Down | None:
        """The best lay-down that keeps back at least one chosen card and is not refused.

        Every legal lay-down keeps some card other than the one just taken (or two copies of
        it), so solving the hand without each card in turn (or without both copies) finds one.
        """
        found: tuple[int, Down] | None = None
        for card in dict.fromkeys(hand):
            kept_back = [card] * (2 if card == self.taken and hand.count(card) > 1 else 1)
            for count in range(1, len(kept_back) + 1):
                rest = list(hand)
                for _ in range(count):
                    rest.remove(card)
                solution = solve_contract(rest, self.contract, self.rules)
                if solution is None:
                    continue
                left = [*solution.left, *[card] * count]
                laid = len(hand) - len(left)
                melds = solution.melds
                after = partial(self._melds_now, melds)
                if self._strands(laid, left, None, after) is not None:
                    continue
                points = hand_points(left)
                if found is None or points < found[0]:
                    found = (points, Down(tuple(tuple(m.cards) for m in solution.melds)))
                break
        return found[1] if found is not None else None

    def _layoff_ends(self, card: AnyCard, meld: WildMeld) -> list[End | None]:
        """The ways ``card`` can be laid off onto ``meld``, as the end to name (None: no end).

        On a run, a 2 or a joker always names its end, and so does an ace that fits at both ends;
        any other natural card goes to the one end it fits and names none. A book has no ends.
        """
        if isinstance(meld, Book):
            return [None] if meld.accepts(card, self.rules) else []
        ends = meld.layoff_ends(card, self.rules)
        if is_wild(card) or len(ends) > 1:
            return list(ends)
        return [None] if ends else []

    def _strands(
        self,
        removed: int,
        left: Sequence[AnyCard] | None = None,
        card: AnyCard | None = None,
        table_after: Callable[[], Sequence[WildMeld]] | None = None,
    ) -> str | None:
        """Why playing ``removed`` cards onto the table now is refused by the going-out rules.

        Two dead ends are refused: an empty hand under ``discard_to_go_out``, and a hand of only
        the card just taken from the pile (which may not be thrown back), or of it and its twin
        (unless ``discard_taken_twin``), when that card cannot go onto the table either
        (``table_after()`` is the table after this play) or the table forbids going out that
        way. A play that puts a copy of the taken card on the table leaves the player's own
        copy, which may be thrown. (Decision: RULES.md section 3 only forbids discarding the
        taken card; this keeps a turn that can still end.)
        """
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        remaining = len(hand) - removed
        if remaining == 0 and self.options.discard_to_go_out:
            return "at this table you must go out by discarding your last card (discard_to_go_out)"
        taken = self.taken
        if remaining >= 1 and taken is not None:
            if left is None:
                rest = list(hand)
                if card is not None:
                    rest.remove(card)
                left = rest
            if any(c != taken for c in left) or list(left).count(taken) < hand.count(taken):
                return None  # another card can be thrown, or a copy of it went onto the table
            if len(left) > 1 and self.options.discard_taken_twin:
                return None  # the player's own twin of it can be thrown
            # One copy left must go out onto the table, which discard_to_go_out forbids; of two
            # or more, one laid off makes the rest the player's own, to throw.
            last = len(left) == 1 and self.options.discard_to_go_out
            melds = () if last or table_after is None else table_after()
            if any(self._layoff_ends(taken, meld) for meld in melds):
                return None  # the taken card goes out onto the table next
            if len(left) > 1:
                return (
                    f"that would leave you holding only {taken} and its twin: you took {taken}"
                    " from the discard pile this turn, so neither may be thrown (house rule"
                    " discard_taken_twin allows the twin), and it fits no meld on the table"
                )
            return (
                f"that would leave you holding only {taken}, which you took from the discard "
                "pile this turn: it cannot be thrown back"
                + (
                    ""
                    if self.options.discard_to_go_out
                    else " and would not fit any meld on the table"
                )
            )
        return None

    def _melds_now(self, more: Sequence[WildMeld] = ()) -> list[WildMeld]:
        """The melds on the table, then ``more``."""
        return [*(t.meld for t in self.table), *more]

    def _table_with_layoff(self, action: LayOff) -> list[WildMeld]:
        """The melds on the table after ``action`` (checked to fit)."""
        melds = [t.meld for t in self.table]
        meld = melds[action.meld - 1]
        extended = (
            meld.extended_by(action.card, self.rules)
            if isinstance(meld, Book)
            else meld.extended_by(action.card, action.end, self.rules)
        )
        if extended is not None:
            melds[action.meld - 1] = extended
        return melds

    # ---------------------------------------------------------------------------------- verify

    # ------------------------------------------------------------------------ named actions

    def pass_(self) -> None:
        """Pass on the card on offer (the dealer's first pick, or a card to buy)."""
        self.apply(Pass())

    def buy(self) -> None:
        """Buy the card on offer out of turn (with the penalty cards from the stock)."""
        self.apply(Buy())

    def down(self, melds: Sequence[Sequence[AnyCard]] | str) -> None:
        """Lay down the round's contract: ``melds`` as groups of cards, or as text
        (``"9C 9D X | 5H 6H 7H 8H"``)."""
        if isinstance(melds, str):
            melds = [parse_cards(group) for group in melds.split("|")]
        self.apply(Down(tuple(tuple(group) for group in melds)))

    def swap(self, card: Card | str, meld: int) -> None:
        """Put ``card`` in a run of the table (meld number ``meld``) in place of the wild that
        stands for it, and take the wild."""
        self.apply(Swap(parse_natural_cards(card)[0] if isinstance(card, str) else card, meld))

    # -------------------------------------------------------------------------------- verify

    def _verify_pick(self, action: Take | Pass | Buy | Draw) -> None:
        """Taking, passing on or buying the card on offer, or drawing: only when it is that
        seat's time to."""
        allowed = {
            Phase.OFFER: (Take, Pass),
            Phase.BUY: (Buy, Pass),
            Phase.DRAW: (Take, Draw) if self.offered is not None else (Draw,),
        }.get(self.phase, ())
        if not isinstance(action, allowed):
            raise IllegalActionError(self._phase_hint())

    def _verify_take(self, action: Take) -> None:
        self._verify_pick(action)
        if self.phase is Phase.DRAW and not self._may_take(self._actor()):
            raise IllegalActionError(
                f"taking {self.offered} would leave you only its twins, which you could not"
                " throw this turn, and none fits a meld on the table: draw from the stock"
            )

    def _verify_buy(self, action: Buy) -> None:
        self._verify_pick(action)
        actor = self._actor()
        if not self._can_buy(actor):
            limit = self.options.max_buys_per_round
            if limit is not None and self.buys[actor] >= limit:
                raise IllegalActionError(f"you may buy at most {limit} times a round")
            if not self._can_pay():
                raise IllegalActionError("there are not enough cards left to pay the penalty")
            raise IllegalActionError(
                f"the stock must keep a card for seat {self.turn}, who draws next after"
                " passing on the card (house rule buy_keeps_draw off allows the buy)"
            )

    def _hand_to_play(self) -> list[AnyCard]:
        """The hand of the seat to act, once it has drawn (it may lay down, lay off, swap or
        discard)."""
        if self.phase is not Phase.DISCARD:
            raise IllegalActionError(self._phase_hint())
        return self.hands[self._actor()]

    def _verify_discard(self, action: Discard) -> None:
        hand = self._hand_to_play()
        if action.card not in hand:
            raise IllegalActionError(f"{action.card} is not in your hand")
        if not self._may_throw(action.card, hand):
            if hand.count(action.card) > 1:
                raise IllegalActionError(
                    f"{action.card} was just taken from the discard pile, and its twin cannot"
                    " be thrown this turn either: nobody could tell them apart"
                    " (house rule discard_taken_twin allows it)"
                )
            raise IllegalActionError(
                f"{action.card} was just taken from the discard pile and cannot be thrown this turn"
            )

    def _phase_hint(self) -> str:
        if self.phase is Phase.OFFER:
            return "the dealer has the first pick of the up-card: take it or pass"
        if self.phase is Phase.BUY:
            return f"{self.offered} is offered for buying: buy it or pass"
        if self.phase is Phase.DRAW:
            if self.offered is None:
                return "draw first: draw from the stock (no card is on offer)"
            return f"draw first: take {self.offered} or draw from the stock"
        return "you have already drawn: lay down, lay off, swap or discard"

    def _melds_of(self, groups: Sequence[Sequence[AnyCard]]) -> list[WildMeld]:
        """Each group as a book or a run (read as in :func:`rummykit.wild_melds.parse_meld`).

        A group that is neither is explained as the kind the player most likely meant: the only
        kind the round's contract has, else a book when its natural cards share a rank or it is
        too short for a run (``2C 2D 2H`` in a round of books is a book of wild 2s, not a short
        run)."""
        melds: list[WildMeld] = []
        for group in groups:
            cards = tuple(group)
            naturals = {c.number for c in cards if isinstance(c, Card) and not is_wild(c)}
            count = sum(1 for c in cards if not is_wild(c))
            as_book = count >= 2 and len(naturals) == 1
            errors: dict[type, MeldError] = {}
            for kind in (Book, Run) if as_book else (Run, Book):
                try:
                    melds.append(kind.of(cards, self.rules))
                    break
                except MeldError as error:
                    errors[kind] = error
            else:
                if self.contract.books == 0 or self.contract.runs == 0:
                    meant: type = Run if self.contract.books == 0 else Book
                else:
                    meant = Book if as_book or len(cards) < 4 else Run  # a run has 4 cards or more
                raise IllegalActionError(str(errors[meant]))
        return melds

    def _verify_down(self, action: Down) -> None:
        hand = self._hand_to_play()
        actor = self._actor()
        if self.laid_down[actor]:
            raise IllegalActionError(
                "you have laid down your contract already; play further cards by laying off"
            )
        cards = [c for group in action.melds for c in group]
        if not _has_all(hand, cards):
            missing = Counter(cards) - Counter(hand)
            raise IllegalActionError(f"{format_cards(missing.elements())} not in your hand")
        melds = self._melds_of(action.melds)
        books = sum(1 for m in melds if isinstance(m, Book))
        runs = len(melds) - books
        if (books, runs) != (self.contract.books, self.contract.runs):
            raise IllegalActionError(
                f"round {self.round} needs exactly {self.contract}; that is "
                f"{books} book{'s' if books != 1 else ''} and {runs} run{'s' if runs != 1 else ''}"
            )
        left = list(hand)
        _remove(left, cards)
        reason = self._strands(len(cards), left, None, partial(self._melds_now, melds))
        if reason is not None:
            raise IllegalActionError(reason)

    def _verify_layoff(self, action: LayOff) -> None:
        hand = self._hand_to_play()
        actor = self._actor()
        if not self.laid_down[actor]:
            raise IllegalActionError("lay down your own contract before laying off")
        if action.card not in hand:
            raise IllegalActionError(f"{action.card} is not in your hand")
        meld = self._table_meld(action.meld)
        ends = self._layoff_ends(action.card, meld)
        if action.end not in ends:
            if not ends:
                if isinstance(meld, Book):
                    why = "not its rank, or too many wilds"
                    raise IllegalActionError(
                        f"{action.card} does not fit book {action.meld} ({meld}): {why}"
                    )
                why = "not its suit or next in line, past the ace, or too many wilds"
                raise IllegalActionError(
                    f"{action.card} does not fit run {action.meld} ({meld}): {why}"
                )
            if isinstance(meld, Book):
                raise IllegalActionError("a book has no ends: lay off onto it without naming one")
            if None in ends:
                raise IllegalActionError(
                    f"{action.card} fits only one end of run {action.meld}: write "
                    f"'layoff {action.card} {action.meld}'"
                )
            raise IllegalActionError(
                f"name the end {action.card} goes to: "
                + " or ".join(f"'layoff {action.card} {action.meld} {e}'" for e in ends)
            )
        reason = self._strands(1, None, action.card, partial(self._table_with_layoff, action))
        if reason is not None:
            raise IllegalActionError(reason)

    def _verify_swap(self, action: Swap) -> None:
        hand = self._hand_to_play()
        actor = self._actor()
        if self.options.swap_requires_down and not self.laid_down[actor]:
            raise IllegalActionError("lay down your own contract before swapping wilds")
        if action.card not in hand:
            raise IllegalActionError(f"{action.card} is not in your hand")
        table_meld = self._table(action.meld)
        if isinstance(table_meld.meld, Book):
            raise IllegalActionError("wilds in a book can never be taken")
        if table_meld.owner == actor:
            raise IllegalActionError("you can swap wilds only out of other players' runs")
        if table_meld.meld.swap(action.card, self.rules) is None:
            raise IllegalActionError(
                f"no wild in run {action.meld} ({table_meld.meld}) stands for {action.card}"
            )
        reason = self._swap_strands(action, hand)
        if reason is not None:
            raise IllegalActionError(reason)

    def _swap_strands(self, action: Swap, hand: Sequence[AnyCard]) -> str | None:
        """Why a swap (checked to fit) is refused by the going-out rules (:meth:`_strands`): the
        wild it frees would leave a hand of only the card just taken from the pile and its twin
        (a joker taken, a joker freed). None if the swap is fine."""
        if self.taken is None:
            return None
        run = self.table[action.meld - 1].meld
        assert isinstance(run, Run)
        swapped = run.swap(action.card, self.rules)
        assert swapped is not None
        new_run, wild = swapped
        left = [*hand, wild]
        left.remove(action.card)
        melds = self._melds_now()
        melds[action.meld - 1] = new_run
        return self._strands(0, left, None, lambda: melds)

    def _table(self, number: int) -> TableMeld[WildMeld]:
        if not 1 <= number <= len(self.table):
            raise IllegalActionError(
                f"there is no meld number {number} (the table has {len(self.table)})"
            )
        return self.table[number - 1]

    def _table_meld(self, number: int) -> WildMeld:
        return self._table(number).meld

    # ----------------------------------------------------------------------------------- apply

    def _perform_down(self, action: Down) -> None:
        actor = self._actor()
        hand = self.hands[actor]
        laid: list[AnyCard] = []
        for meld in self._melds_of(action.melds):
            _remove(hand, meld.cards)
            laid += meld.cards
            self.table.append(TableMeld(meld, actor))
            if self.taken in meld.cards:
                self.taken = None  # the taken card is on the table (any copy left is own)
        self.laid_down[actor] = True
        self._forget(actor, laid)
        self._check_out(actor)

    def _perform_lay_off(self, action: LayOff) -> None:
        actor = self._actor()
        index = action.meld - 1
        meld = self.table[index].meld
        extended: WildMeld | None
        if isinstance(meld, Book):
            extended = meld.extended_by(action.card, self.rules)
        else:
            extended = meld.extended_by(action.card, action.end, self.rules)
        assert extended is not None
        self.hands[actor].remove(action.card)
        self.table[index] = TableMeld(extended, self.table[index].owner)
        if action.card == self.taken:
            self.taken = None  # the taken card is on the table (any copy left is own)
        self._forget(actor, [action.card])
        self._check_out(actor)

    def _perform_swap(self, action: Swap) -> None:
        actor = self._actor()
        index = action.meld - 1
        run = self.table[index].meld
        assert isinstance(run, Run)
        swapped = run.swap(action.card, self.rules)
        assert swapped is not None
        new_run, wild = swapped
        self.hands[actor].remove(action.card)
        self.hands[actor].append(wild)
        self._tags[actor].append((PUBLIC, wild))
        self.table[index] = TableMeld(new_run, self.table[index].owner)
        if action.card == self.taken:
            self.taken = None  # the taken card is on the table
        self._forget(actor, [action.card])

    def _perform_discard(self, action: Discard) -> None:
        actor = self._actor()
        self.hands[actor].remove(action.card)
        self.discard_pile.append(action.card)
        self._forget(actor, [action.card])
        if not self.hands[actor]:
            self._finish_out(actor)
        else:
            self._offer_discard(actor)

    def _forget(self, seat: int, gone: Sequence[AnyCard]) -> None:
        """``gone`` left ``seat``'s hand face up: of the cards everyone knows it holds (taken or
        bought from the pile, a wild swapped out of a run), one copy of each card gone is no
        longer known to be there. With two packs nobody can tell whether the known copy or the
        other left, so the known one counts as gone: what the others see never depends on a
        copy they did not see (the true hand decided it once, and told them of a hidden copy).
        The restock tags (:meth:`resample`'s own bookkeeping of hidden cards) follow the hand.
        """
        if not self.known[seat] and not self._tags[seat]:
            return
        known = list(self.known[seat])
        public = [card for tag, card in self._tags[seat] if tag == PUBLIC]
        for card in gone:
            if card in known:
                known.remove(card)
            elif card in public:
                public.remove(card)
        self.known[seat] = known
        held = Counter(self.hands[seat]) - Counter(known) - Counter(public)
        tags: list[Tagged] = [(PUBLIC, card) for card in public]
        for tag, card in self._tags[seat]:
            if tag != PUBLIC and held[card] > 0:
                held[card] -= 1
                tags.append((tag, card))
        self._tags[seat] = tags

    def _check_out(self, seat: int) -> None:
        if not self.hands[seat]:
            self._finish_out(seat)

    # ------------------------------------------------------------------------- offer and buying

    def _perform_take(self, action: Take) -> None:
        seat = self._actor()
        card = self.discard_pile.pop()
        self.hands[seat].append(card)
        self.known[seat].append(card)
        self.offered = None
        if self.phase is Phase.OFFER:
            # The dealer's first pick: no discard; the next player draws from the stock.
            self.phase = Phase.DRAW
            self.to_act = self.turn
            return
        self.taken = card
        self.phase = Phase.DISCARD

    def _perform_pass(self, action: Pass) -> None:
        if self.phase is Phase.OFFER:
            self.phase = Phase.DRAW
            self.to_act = self.turn
            return
        self._next_buyer()

    def _perform_draw(self, action: Draw) -> None:
        """The player to move draws from the stock; first, others may buy the offered card."""
        turn = self.turn
        assert turn is not None
        if self.offered is None:
            self._draw_for_turn()
            return
        queue = []
        seat = (turn + 1) % self.players
        while seat != self.offer_from and seat != turn:
            queue.append(seat)
            seat = (seat + 1) % self.players
        self.buy_queue = queue
        self._next_buyer()

    def _next_buyer(self) -> None:
        while self.buy_queue:
            seat = self.buy_queue.pop(0)
            self.phase = Phase.BUY
            self.to_act = seat
            return
        self.offered = None
        self._draw_for_turn()

    def _perform_buy(self, action: Buy) -> None:
        seat = self._actor()
        card = self.discard_pile.pop()
        self.hands[seat].append(card)
        self.known[seat].append(card)
        self.buys[seat] += 1
        for _ in range(self.options.penalty_cards):
            drawn = self._from_stock(keep_top=False)
            assert drawn is not None  # _can_buy checked there were enough
            self.hands[seat].append(drawn)
            if self.restocks:
                self._tags[seat].append((self.restocks, drawn))
        self.buy_queue = []
        self.offered = None
        self._draw_for_turn()

    def _from_stock(self, keep_top: bool = True) -> AnyCard | None:
        """The top card of the stock, first turning the discard pile into a new stock if empty.

        The pile's top card stays face up, except while a card is being bought: the bought card
        has already left the pile, so the whole rest of the pile is shuffled.
        """
        keep = 1 if keep_top else 0
        if not self.stock and len(self.discard_pile) > keep and self._can_restock():
            self.restocks += 1
            top = self.discard_pile[len(self.discard_pile) - keep :]
            rest = self.discard_pile[: len(self.discard_pile) - keep]
            self._shuffle(rest)
            self.stock = rest
            self.discard_pile = top
        return self.stock.pop() if self.stock else None

    def _draw_for_turn(self) -> None:
        turn = self.turn
        assert turn is not None
        card = self._from_stock()
        if card is None:
            self._finish_stock_out()
            return
        self.hands[turn].append(card)
        if self.restocks:
            self._tags[turn].append((self.restocks, card))
        self.to_act = turn
        self.phase = Phase.DISCARD
        self.taken = None

    def _offer_discard(self, seat: int) -> None:
        self.turn = (seat + 1) % self.players
        self.to_act = self.turn
        self.offered = self.discard_pile[-1]
        self.offer_from = seat
        self.phase = Phase.DRAW
        self.taken = None

    # ---------------------------------------------------------------------------------- finish

    def _finish_out(self, winner: int) -> None:
        self._end(CrazyOutcome.OUT, winner)

    def _finish_stock_out(self) -> None:
        self._end(CrazyOutcome.STOCK_OUT, None)

    def _end(self, outcome: CrazyOutcome, winner: int | None) -> None:
        self.phase = Phase.HAND_OVER
        self.to_act = None
        self.turn = None
        self.offered = None
        remaining = tuple(tuple(sorted(h, key=lambda c: c.sort_key)) for h in self.hands)
        points = tuple(hand_points(h) for h in self.hands)
        self.result = CrazyRoundResult(outcome, winner, points, remaining)

    # ---------------------------------------------------------------------------------- search

    def resample(self, seat: int, rng: random.Random | None = None) -> CrazyState:
        """A copy of the round that ``seat`` cannot tell from it, its hidden cards dealt again.

        ``clone()`` copies the true round (other hands and the stock order too: perfect
        information); this deals what ``seat`` cannot see again at random with ``rng`` (a new
        ``random.Random()`` when None), for determinized search. Another seat's cards that
        ``seat`` saw it take or buy from the discard pile (its ``known_cards``; a buyer's
        penalty cards stay hidden) or swap out of a run, and still holds, stay there; its other
        cards and the stock are shuffled together and dealt back (same sizes). A restock's
        stock is made of cards everyone saw in the pile: its cards are dealt again only among
        the stock and the cards drawn from it. The generator of future shuffles is seeded again
        from ``rng``. ``seat``'s view, and its legal actions when it is to act, are the same as
        here; this round is unchanged. The copy has no record (``resampled`` is True).

        >>> state = Crazy().new_hand(players=3, seed=5)
        >>> guess = state.resample(2, random.Random(3))
        >>> guess.view(2).to_dict() == state.view(2).to_dict(), guess.hands[2] == state.hands[2]
        (True, True)
        """
        new, rng, seat = self._resampling(seat, rng)
        new._forget_generator(rng)
        shown = range(self.players) if self.result is not None else ()  # the result shows all
        tagged = any(self._tags)
        tags = redeal_unseen(
            new.hands,
            new.stock,
            seat,
            rng,
            known=new.known,
            open_hands=shown,
            tags=new._tags if tagged else None,
            stock_tag=self.restocks,
        )
        if tags is not None:
            new._tags = tags
        return new

    # ----------------------------------------------------------------------------------- views

    def view(self, seat: int) -> CrazyView:
        """What ``seat`` may see now."""
        index = as_seat(seat, self.players)
        if index is None:
            raise ValueError(f"no seat {seat!r} at a table of {self.players}")
        seat = index
        return CrazyView(
            seat=seat,
            round=self.round,
            contract=self.contract,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            turn=self.turn,
            hand=tuple(sorted(self.hands[seat], key=lambda c: c.sort_key)),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            discard_pile=tuple(self.discard_pile),
            offered=self.offered,
            table=tuple(self.table),
            laid_down=tuple(self.laid_down),
            buys=tuple(self.buys),
            known_cards=tuple(
                (*known, *(card for tag, card in tags if tag == PUBLIC))
                for known, tags in zip(self.known, self._tags, strict=True)
            ),
            taken_from_discard=self.taken if self.to_act == seat else None,
            legal_actions=tuple(self.legal_actions()) if self.to_act == seat else (),
            result=self.result,
            history=tuple(self._notation),
        )


CrazyState.VERIFY = {
    Take: CrazyState._verify_take,
    Pass: CrazyState._verify_pick,
    Buy: CrazyState._verify_buy,
    Draw: CrazyState._verify_pick,
    Down: CrazyState._verify_down,
    LayOff: CrazyState._verify_layoff,
    Swap: CrazyState._verify_swap,
    Discard: CrazyState._verify_discard,
}
CrazyState.PERFORM = {
    Take: CrazyState._perform_take,
    Pass: CrazyState._perform_pass,
    Buy: CrazyState._perform_buy,
    Draw: CrazyState._perform_draw,
    Down: CrazyState._perform_down,
    LayOff: CrazyState._perform_lay_off,
    Swap: CrazyState._perform_swap,
    Discard: CrazyState._perform_discard,
}


# -------------------------------------------------------------------------------------- match


@dataclass(frozen=True, slots=True)
class CrazyMatchResult:
    """The end of a seven-round game: totals per seat (lowest wins; ties share)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...]
    """Per round, each seat's points."""

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "winners": list(self.winners),
            "totals": list(self.totals),
            "rounds": [list(r) for r in self.rounds],
        }


@dataclass
class CrazyMatch(RotatingMatch[Crazy, CrazyState]):
    """A game of Crazy Rummy: rounds 1 to 7, the deal passing left; the lowest total wins."""

    TITLE = "Crazy Rummy"
    SEATS = (MIN_PLAYERS, MAX_PLAYERS)
    MATCH_OVER = "the game is over"
    HAND_GOES_ON = "the current round is not over"

    game: Crazy
    players: int = 4
    result: CrazyMatchResult | None = None

    def _settle(self) -> None:
        if len(self.hands) == ROUNDS:
            totals = self.scores()
            best = min(totals)
            self.result = CrazyMatchResult(
                tuple(s for s, t in enumerate(totals) if t == best),
                totals,
                tuple(h.result.points for h in self.hands if h.result is not None),
            )

    def _deal(self, seed: int | None, deal: Deal | None, dealer: int) -> CrazyState:
        round_ = len(self.hands) + 1
        return self.game.new_hand(
            players=self.players, seed=seed, deal=deal, dealer=dealer, round=round_
        )
