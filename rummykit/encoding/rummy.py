"""Basic Rummy's encoder: 1267 action numbers; the observation grows with the table
(``docs/encoding.md``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.actions import Action, Discard, Draw, LayOff, NewMeld, Take
from rummykit.cards import STANDARD_PACK, Card
from rummykit.encoding.base import CARDS, Encoder, View, layoff_number
from rummykit.games.base import Phase
from rummykit.games.rummy import RummyView
from rummykit.games.table_meld import TableMeld
from rummykit.melds import Meld, MeldKind

__all__ = ["MELD_SHAPES", "RummyEncoder"]

RUMMY_PHASES: Final = (Phase.DRAW, Phase.DISCARD, Phase.HAND_OVER)

RUMMY_MAX_TABLE_MELDS: Final = 17
"""At most 17 melds fit on a Basic Rummy table (52 cards, at least 3 a meld)."""


def _meld_shapes() -> tuple[tuple[Card, ...], ...]:
    """Every meld of one pack: each rank's set of four then its sets of three (by the suit left
    out, clubs first), rank by rank; then each suit's runs by lowest card, then by length."""
    shapes: list[tuple[Card, ...]] = []
    for number in range(1, 14):
        four = tuple(STANDARD_PACK[13 * s + number - 1] for s in range(4))
        shapes.append(four)
        shapes.extend(tuple(c for c in four if c is not out) for out in four)
    for s in range(4):
        for low in range(1, 12):
            for high in range(low + 2, 14):
                shapes.append(tuple(STANDARD_PACK[13 * s + n - 1] for n in range(low, high + 1)))
    return tuple(shapes)


MELD_SHAPES: Final = _meld_shapes()
"""The 329 melds of one pack (65 sets, 264 runs) in the order of their action numbers."""

_SHAPE_NUMBERS: Final = {sum(c.bit for c in shape): i for i, shape in enumerate(MELD_SHAPES)}


class RummyEncoder(Encoder):
    """Basic Rummy at a table of ``players``: 1267 action numbers; the observation grows with the
    table (52 entries and a hand size per other seat).

    Actions: 0 ``draw``, 1 ``take``; 2-53 ``discard`` by card index; 54-382 ``meld`` by
    :data:`MELD_SHAPES`; 383-1266 ``layoff`` by table meld number (1-17) then card index.
    Other seats come in playing order from the viewer's left.
    """

    TITLE = "Basic Rummy"
    VIEW = RummyView

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players
        actions: list[Action] = [Draw(), Take()]
        actions += [Discard(c) for c in STANDARD_PACK]
        actions += [NewMeld(shape) for shape in MELD_SHAPES]
        actions += [
            LayOff(c, m) for m in range(1, RUMMY_MAX_TABLE_MELDS + 1) for c in STANDARD_PACK
        ]
        planes: list[tuple[str, int]] = [
            ("hand", CARDS),
            ("discard_top", CARDS),
            ("discard_below", CARDS),
            ("table", CARDS),
            ("table_accepts", CARDS),
            ("taken_this_turn", CARDS),
        ]
        for k in range(1, players):
            planes.append((f"left{k}_known", CARDS))
        for k in range(1, players):
            planes.append((f"left{k}_hand_size", 1))
        planes += [
            ("phase", len(RUMMY_PHASES)),
            ("dealer", players),
            ("to_act", 1),
            ("melds_this_turn", 1),
            ("stock_size", 1),
            ("restocks", 1),
        ]
        super().__init__(actions, planes)

    def _number(self, action: Action) -> int:
        kind = type(action)
        if kind is Discard:
            assert isinstance(action, Discard)
            return 2 + action.card.index if isinstance(action.card, Card) else -1
        if kind is NewMeld:
            assert isinstance(action, NewMeld)
            bits = 0
            for natural in action.cards:
                if not isinstance(natural, Card):
                    return -1  # a joker
                bits |= natural.bit
            if bits.bit_count() != len(action.cards):
                return -1  # a card written twice
            return 54 + _SHAPE_NUMBERS.get(bits, -55)
        if kind is LayOff:
            assert isinstance(action, LayOff)
            return layoff_number(action, 383, RUMMY_MAX_TABLE_MELDS)
        return 0 if kind is Draw else 1 if kind is Take else -1

    def _fill(self, view: View, out: list[float]) -> None:
        assert isinstance(view, RummyView)
        me = view.seat
        n = self.players
        self._cards(out, "hand", view.hand)
        pile = view.discard_pile
        self._cards(out, "discard_top", pile[-1:])
        self._cards(out, "discard_below", pile[:-1])
        on_table = [c for t in view.table for c in t.meld.cards]
        self._cards(out, "table", on_table)
        self._cards(out, "table_accepts", _accepted(view.table, set(on_table)))
        if view.taken_from_discard is not None:
            self._cards(out, "taken_this_turn", (view.taken_from_discard,))
        for k in range(1, n):
            seat = (me + k) % n
            if view.known_cards:
                self._cards(out, f"left{k}_known", view.known_cards[seat])
            self._scalar(out, f"left{k}_hand_size", view.hand_sizes[seat] / 11)
        self._one_hot(out, "phase", RUMMY_PHASES.index(view.phase))
        self._one_hot(out, "dealer", (view.dealer - me) % n)
        self._scalar(out, "to_act", float(view.to_act == me))
        self._scalar(out, "melds_this_turn", min(view.melds_this_turn, 4) / 4)
        self._scalar(out, "stock_size", view.stock_size / CARDS)
        self._scalar(out, "restocks", min(view.restocks, 4) / 4)


def _accepted(table: Sequence[TableMeld[Meld]], on_table: set[Card]) -> list[Card]:
    """The cards not on the table that some table meld would take."""
    out: list[Card] = []
    for t in table:
        cards = t.meld.cards
        if t.meld.kind is MeldKind.SET:
            near = [STANDARD_PACK[13 * s + cards[0].number - 1] for s in range(4)]
        else:
            base = 13 * cards[0].suit_index - 1
            near = [
                STANDARD_PACK[base + n]
                for n in (cards[0].number - 1, cards[-1].number + 1)
                if 1 <= n <= 13
            ]
        out.extend(c for c in near if c not in on_table and t.meld.accepts(c))
    return out
