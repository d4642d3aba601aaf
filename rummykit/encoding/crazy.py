"""Crazy Rummy's encoder: 3856 action numbers; the observation grows with the table.

A lay-down is a whole contract with each wild standing for a chosen card: far too many to number.
So one number, :data:`DOWN`, stands for the lay-down the engine lists among the legal actions
(the one that leaves the fewest points in hand, or when that one is refused by the going-out
rules, the best one that is not), and :meth:`CrazyEncoder.action` turns it into that concrete
``down`` given the view of the seat to act. Every other action has its own number: the draw, the
up-card's take, pass and buy, each discard, each lay-off (card, meld, end) and each wild swap
(card, meld). Layouts are in ``docs/encoding.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rummykit.actions import Action, Buy, Discard, Down, Draw, LayOff, Pass, Swap, Take
from rummykit.cards import JOKER, STANDARD_PACK, AnyCard, Card
from rummykit.encoding.base import CARDS, Encoder, Readable, View
from rummykit.games.base import Phase
from rummykit.games.crazy import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, CrazyView
from rummykit.games.table_meld import TableMeld
from rummykit.solver.contract import CONTRACTS
from rummykit.wild_melds import (
    ACE_HIGH,
    DEFAULT_RULES,
    Book,
    End,
    Run,
    WildMeld,
    WildRules,
    position_card,
)

__all__ = ["CRAZY_MAX_TABLE_MELDS", "DOWN", "CrazyEncoder"]

KINDS: Final = CARDS + 1
"""Card kinds in a Crazy Rummy plane: the 52 cards by ``card.index``, then the joker (52)."""

KIND_CARDS: Final[tuple[AnyCard, ...]] = (*STANDARD_PACK, JOKER)

CRAZY_PHASES: Final = (Phase.OFFER, Phase.BUY, Phase.DRAW, Phase.DISCARD, Phase.HAND_OVER)

CRAZY_MAX_TABLE_MELDS: Final = max(c.books + c.runs for c in CONTRACTS) * MAX_PLAYERS
"""18: only contracts are laid (at most 3 melds each), one per seat, at most 6 seats."""

DOWN: Final = 4
"""The number of the lay-down the engine lists (resolved against a view)."""

ENDS: Final[tuple[End | None, ...]] = (None, "low", "high")
"""A lay-off's end, in the order of its numbers: none named (a book, or a natural card that fits
one end of a run), the low end, the high end."""

DISCARD_FIRST: Final = 5
LAYOFF_FIRST: Final = DISCARD_FIRST + KINDS
SWAP_FIRST: Final = LAYOFF_FIRST + CRAZY_MAX_TABLE_MELDS * len(ENDS) * KINDS
NUM_ACTIONS: Final = SWAP_FIRST + CRAZY_MAX_TABLE_MELDS * CARDS

RUN_POSITIONS: Final = ACE_HIGH
"""14 places a meld's cards may take: 1 (ace low), 2-13, 14 (ace high)."""

MAX_HAND: Final = 30
"""Hand sizes are read as ``min(size, 30) / 30`` (13 dealt, and every buy adds 2 by default)."""

MAX_BUYS: Final = 10
STOCK: Final = 2 * CARDS + 4
"""The most cards a Crazy Rummy pack has (two packs and four jokers)."""

_WILDS: Final[tuple[AnyCard, ...]] = (*(c for c in STANDARD_PACK if c.number == 2), JOKER)

_SIMPLE: Final[dict[type, int]] = {Draw: 0, Take: 1, Pass: 2, Buy: 3, Down: DOWN}


class CrazyEncoder(Encoder):
    """Crazy Rummy at a table of ``players`` under the meld limits ``rules`` (the game's).

    Actions: 0 ``draw``, 1 ``take``, 2 ``pass``, 3 ``buy``, 4 ``down`` (the lay-down the engine
    lists; :meth:`action` needs the view for it); 5-57 ``discard`` by card kind (52: a joker);
    58-2919 ``layoff`` by table meld (1-18), then end (none, low, high), then card kind;
    2920-3855 ``swap`` by table meld (1-18) then card index.
    """

    TITLE = "Crazy Rummy"
    VIEW = CrazyView

    def __init__(self, players: int, rules: WildRules = DEFAULT_RULES) -> None:
        self.game = "crazy"
        self.players = players
        self.rules = rules
        self._accepts_memo: dict[WildMeld, frozenset[AnyCard]] = {}
        actions: list[Action] = [Draw(), Take(), Pass(), Buy(), Down(())]
        actions += [Discard(c) for c in KIND_CARDS]
        actions += [
            LayOff(c, m, end)
            for m in range(1, CRAZY_MAX_TABLE_MELDS + 1)
            for end in ENDS
            for c in KIND_CARDS
        ]
        actions += [Swap(c, m) for m in range(1, CRAZY_MAX_TABLE_MELDS + 1) for c in STANDARD_PACK]
        assert len(actions) == NUM_ACTIONS
        planes: list[tuple[str, int]] = [
            ("hand", KINDS),
            ("discard_top", KINDS),
            ("discard_below", KINDS),
            ("taken_this_turn", KINDS),
            ("table", KINDS),
            ("table_accepts", KINDS),
        ]
        planes += [(f"meld{m}", _meld_size(players)) for m in range(1, CRAZY_MAX_TABLE_MELDS + 1)]
        planes += [(f"left{k}_known", KINDS) for k in range(1, players)]
        for name in ("hand_size", "laid_down", "buys"):
            planes += [(f"left{k}_{name}", 1) for k in range(1, players)]
        planes += [
            ("on_offer", 1),
            ("laid_down", 1),
            ("buys", 1),
            ("phase", len(CRAZY_PHASES)),
            ("round", ROUNDS),
            ("dealer", players),
            ("turn", players),
            ("to_act", 1),
            ("stock_size", 1),
        ]
        super().__init__(actions, planes)

    def _resolve(self, number: int, view: Readable | None) -> Action:
        if number != DOWN:
            return self._actions[number]
        if view is None:
            raise ValueError(
                f"action number {DOWN} lays down the contract the engine finds best: pass the"
                " view of the seat to act to get its cards"
            )
        hand = self._check(view)
        for action in hand.legal_actions:
            if isinstance(action, Down):
                return action
        raise ValueError(f"no lay-down is legal in this view (action number {DOWN})")

    def _number(self, action: Action) -> int:
        kind = type(action)
        if kind is Discard:
            assert isinstance(action, Discard)
            return DISCARD_FIRST + action.card.index
        if kind is LayOff:
            assert isinstance(action, LayOff)
            meld = action.meld
            if not _meld_in_range(meld) or action.end not in ENDS:
                return -1
            slot = (meld - 1) * len(ENDS) + ENDS.index(action.end)
            return LAYOFF_FIRST + slot * KINDS + action.card.index
        if kind is Swap:
            assert isinstance(action, Swap)
            card: object = action.card
            if not isinstance(card, Card) or not _meld_in_range(action.meld):
                return -1
            return SWAP_FIRST + (action.meld - 1) * CARDS + card.index
        return _SIMPLE.get(kind, -1)

    def _fill(self, view: View, out: list[float]) -> None:
        assert isinstance(view, CrazyView)
        me = view.seat
        n = self.players
        self._counts(out, "hand", view.hand)
        pile = view.discard_pile
        self._counts(out, "discard_top", pile[-1:])
        self._counts(out, "discard_below", pile[:-1])
        if view.taken_from_discard is not None:
            self._counts(out, "taken_this_turn", (view.taken_from_discard,))
        self._counts(out, "table", [c for t in view.table for c in t.meld.cards])
        self._cards_of(out, "table_accepts", self._accepted(view.table))
        for number, table_meld in enumerate(view.table[:CRAZY_MAX_TABLE_MELDS], 1):
            self._meld(out, f"meld{number}", table_meld, me)
        for k in range(1, n):
            seat = (me + k) % n
            self._counts(out, f"left{k}_known", view.known_cards[seat])
            self._scalar(out, f"left{k}_hand_size", min(view.hand_sizes[seat], MAX_HAND) / MAX_HAND)
            self._scalar(out, f"left{k}_laid_down", float(view.laid_down[seat]))
            self._scalar(out, f"left{k}_buys", min(view.buys[seat], MAX_BUYS) / MAX_BUYS)
        self._scalar(out, "on_offer", float(view.offered is not None))
        self._scalar(out, "laid_down", float(view.laid_down[me]))
        self._scalar(out, "buys", min(view.buys[me], MAX_BUYS) / MAX_BUYS)
        self._one_hot(out, "phase", CRAZY_PHASES.index(view.phase))
        self._one_hot(out, "round", view.round - 1)
        self._one_hot(out, "dealer", (view.dealer - me) % n)
        if view.turn is not None:
            self._one_hot(out, "turn", (view.turn - me) % n)
        self._scalar(out, "to_act", float(view.to_act == me))
        self._scalar(out, "stock_size", min(view.stock_size, STOCK) / STOCK)

    def _counts(self, out: list[float], name: str, cards: Iterable[AnyCard]) -> None:
        """Each card kind's copies: a card's two copies read 1, a joker's four."""
        start = self._starts[name]
        for card in cards:
            index = card.index
            out[start + index] = min(1.0, out[start + index] + (0.25 if index == CARDS else 0.5))

    def _cards_of(self, out: list[float], name: str, cards: Iterable[AnyCard]) -> None:
        start = self._starts[name]
        for card in cards:
            out[start + card.index] = 1.0

    def _accepted(self, table: Sequence[TableMeld[WildMeld]]) -> set[AnyCard]:
        """The card kinds that some table meld would take as a lay-off now."""
        out: set[AnyCard] = set()
        for t in table:
            out |= self._accepted_by(t.meld)
        return out

    def _accepted_by(self, meld: WildMeld) -> frozenset[AnyCard]:
        """The card kinds ``meld`` would take (remembered: a meld changes only when it grows)."""
        known = self._accepts_memo.get(meld)
        if known is not None:
            return known
        if len(self._accepts_memo) > 4096:
            self._accepts_memo.clear()
        if isinstance(meld, Book):
            near = [STANDARD_PACK[13 * s + meld.rank.number - 1] for s in range(4)]
            found = frozenset(c for c in (*near, *_WILDS) if meld.accepts(c, self.rules))
        else:
            ends = [p for p in (meld.low - 1, meld.high + 1) if 1 <= p <= ACE_HIGH]
            near = [position_card(p, meld.suit) for p in ends]
            found = frozenset(c for c in (*near, *_WILDS) if meld.layoff_ends(c, self.rules))
        self._accepts_memo[meld] = found
        return found

    def _meld(self, out: list[float], name: str, table_meld: TableMeld[WildMeld], me: int) -> None:
        """One table meld: present, is a run, its owner (counted from this seat), its suit (a
        run), its places (1 a natural card, 0.5 a wild), its cards / 16 and its wilds / 8."""
        n = self.players
        start = self._starts[name]
        meld = table_meld.meld
        out[start] = 1.0
        out[start + 2 + (table_meld.owner - me) % n] = 1.0
        places = start + 2 + n + 4 - 1  # position 1 is the first place
        if isinstance(meld, Run):
            out[start + 1] = 1.0
            out[start + 2 + n + meld.suit.order] = 1.0
            for i in range(len(meld.cards)):
                out[places + meld.low + i] = 0.5 if meld.is_wild_at(i) else 1.0
        else:
            out[places + meld.rank.number] = 1.0
        out[start + 2 + n + 4 + RUN_POSITIONS] = min(len(meld.cards), 16) / 16
        out[start + 2 + n + 4 + RUN_POSITIONS + 1] = min(meld.wild_count, 8) / 8


def _meld_size(players: int) -> int:
    """Entries per table meld: present, run, owner (one per seat), suit (4), places (14), the
    number of cards, the number of wilds."""
    return 2 + players + 4 + RUN_POSITIONS + 2


def _meld_in_range(meld: object) -> bool:
    return (
        not isinstance(meld, bool) and isinstance(meld, int) and 1 <= meld <= CRAZY_MAX_TABLE_MELDS
    )


def check_players(players: int | None) -> int:
    """``players`` for a Crazy Rummy encoder (2-6); ValueError or TypeError naming the problem."""
    if players is None:
        raise ValueError(
            f"a Crazy Rummy encoder needs the number of players ({MIN_PLAYERS}-{MAX_PLAYERS})"
        )
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players is a whole number, not {type(players).__name__}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Crazy Rummy is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    return players
