"""Fixed action numbers and observation vectors for learning agents (Gin and Basic Rummy).

Reinforcement-learning code wants what OpenSpiel and RLCard give it: every action of a game as a
number from a fixed range, a mask of the legal ones, and each seat's observation as a vector of a
fixed length. An :class:`Encoder` gives exactly that, on top of the engine's own actions and views,
for Gin Rummy and Basic Rummy (both presets, any table size). It reads only views, so an
observation holds what that seat may know and nothing else.

>>> from rummykit.actions import parse_action
>>> from rummykit.games.gin import Gin
>>> state = Gin().new_hand(seed=7)
>>> enc = encoder_for("gin")
>>> enc.num_actions, enc.observation_size
(265, 374)
>>> view = state.view(state.to_act)
>>> [(i, str(enc.action(i))) for i in enc.legal_ids(view)]
[(1, 'take'), (2, 'pass')]
>>> state.apply(enc.action(2))
>>> enc.id_of(parse_action("discard KD")), str(enc.action(5 + 13 + 4))
(30, 'discard 5D')
>>> obs = enc.observation(state.view(0))
>>> len(obs), sum(obs[enc.plane("hand").start :][:52])
(374, 10.0)

Crazy Rummy has no such encoder: a lay-down is a whole contract with wilds standing for chosen
cards, far too many to number. Its observations and actions stay the views and the notation.
The layouts are documented in ``docs/encoding.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from rummykit.actions import (
    Action,
    BigGin,
    Discard,
    Done,
    Draw,
    Knock,
    LayOff,
    NewMeld,
    Pass,
    Take,
)
from rummykit.cards import STANDARD_PACK, Card
from rummykit.games.base import Game, Phase
from rummykit.games.base import View as AnyView
from rummykit.games.gin import GinView
from rummykit.games.match import MatchView
from rummykit.games.rummy import MAX_PLAYERS, MIN_PLAYERS, RummyView
from rummykit.games.table_meld import TableMeld
from rummykit.melds import Meld, MeldKind

__all__ = ["MELD_SHAPES", "Encoder", "GinEncoder", "Plane", "RummyEncoder", "encoder_for"]

View: TypeAlias = GinView | RummyView
"""A view an encoder reads."""

Readable: TypeAlias = AnyView | MatchView
"""What the encoders take: a hand's view, or a match's (whose hand in play is read)."""

CARDS: Final = 52
"""Cards in a plane: one entry per card, in ``card.index`` order (clubs, diamonds, hearts, spades,
each ace to king)."""

GIN_PHASES: Final = (Phase.OFFER, Phase.DRAW, Phase.DISCARD, Phase.LAYOFF, Phase.HAND_OVER)
RUMMY_PHASES: Final = (Phase.DRAW, Phase.DISCARD, Phase.HAND_OVER)

GIN_MAX_KNOCK_MELDS: Final = 3
"""A knocker lays down at most 3 melds (10 cards, at least 3 a meld)."""

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
_GIN_SIMPLE: Final[dict[type, int]] = {Draw: 0, Take: 1, Pass: 2, Done: 3, BigGin: 4}


@dataclass(frozen=True, slots=True)
class Plane:
    """One named part of an observation vector: ``size`` entries from ``start``."""

    name: str
    start: int
    size: int


class Encoder:
    """Numbers for one game's actions and vectors for its views (see :func:`encoder_for`).

    ``num_actions`` numbers cover every action the game can have; ``id_of`` and ``action`` map
    one to the other (``action(id_of(a)) == a``); ``legal_ids`` and ``legal_mask`` give the legal
    ones of a view (none unless its seat is to act). ``observation`` is a list of
    ``observation_size`` floats from 0 to 1, laid out as ``planes``.
    """

    game: str
    players: int
    num_actions: int
    planes: tuple[Plane, ...]

    def __init__(self, actions: Sequence[Action], planes: Sequence[tuple[str, int]]) -> None:
        self._actions = tuple(actions)
        self.num_actions = len(self._actions)
        laid: list[Plane] = []
        start = 0
        for name, size in planes:
            laid.append(Plane(name, start, size))
            start += size
        self.planes = tuple(laid)
        self.observation_size = start
        self._starts = {plane.name: plane.start for plane in laid}

    def __repr__(self) -> str:
        return f"encoder_for({self.game!r}, players={self.players})"

    def action(self, number: int) -> Action:
        """The action numbered ``number``; ValueError outside ``range(num_actions)``."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"an action number is an int, not {type(number).__name__}")
        if not 0 <= number < self.num_actions:
            raise ValueError(
                f"no action number {number} (they run from 0 to {self.num_actions - 1})"
            )
        return self._actions[number]

    def id_of(self, action: Action) -> int:
        """The number of ``action``; ValueError for an action this game never has."""
        number = self._number(action)
        if number < 0:
            raise ValueError(f"{self.game} has no action number for {action!s:.60}")
        return number

    def legal_ids(self, view: Readable) -> list[int]:
        """The numbers of the view's legal actions, in increasing order."""
        hand = self._check(view)
        number = self._number
        numbers = sorted([number(a) for a in hand.legal_actions])
        if numbers and numbers[0] < 0:  # pragma: no cover - every legal action is numbered
            bad = next(a for a in hand.legal_actions if number(a) < 0)
            raise ValueError(f"{self.game} has no action number for the legal {bad!s:.60}")
        return numbers

    def legal_mask(self, view: Readable) -> list[int]:
        """1 for each legal action number of the view, else 0 (``num_actions`` entries)."""
        mask = [0] * self.num_actions
        for i in self.legal_ids(view):
            mask[i] = 1
        return mask

    def observation(self, view: Readable) -> list[float]:
        """The view as ``observation_size`` numbers from 0 to 1 (see ``planes``)."""
        hand = self._check(view)
        out = [0.0] * self.observation_size
        self._fill(hand, out)
        return out

    def plane(self, name: str) -> Plane:
        """The part of the observation called ``name``."""
        for plane in self.planes:
            if plane.name == name:
                return plane
        known = ", ".join(p.name for p in self.planes)
        raise ValueError(f"no plane {name!r} (known: {known})")

    # ------------------------------------------------------------------ for the games

    def _check(self, view: Readable) -> View:
        """The hand view to read; TypeError or ValueError for one of another game or table."""
        raise NotImplementedError

    def _number(self, action: Action) -> int:
        """The number of ``action``, or -1 if it has none (worked out, not looked up: fast)."""
        raise NotImplementedError

    def _fill(self, view: View, out: list[float]) -> None:
        raise NotImplementedError

    def _cards(self, out: list[float], name: str, cards: Iterable[Card]) -> None:
        start = self._starts[name]
        for card in cards:
            out[start + card.index] = 1.0

    def _one_hot(self, out: list[float], name: str, index: int) -> None:
        out[self._starts[name] + index] = 1.0

    def _scalar(self, out: list[float], name: str, value: float) -> None:
        out[self._starts[name]] = value


class GinEncoder(Encoder):
    """Gin Rummy: 265 action numbers and 374 observation entries.

    Actions: 0 ``draw``, 1 ``take``, 2 ``pass``, 3 ``done``, 4 ``biggin``; 5-56 ``discard`` and
    57-108 ``knock`` by card index (a knock lays down the engine's best arrangement, as in the
    views' legal actions); 109-264 ``layoff`` by meld number (1-3) then card index.
    """

    def __init__(self) -> None:
        self.game = "gin"
        self.players = 2
        actions: list[Action] = [Draw(), Take(), Pass(), Done(), BigGin()]
        actions += [Discard(c) for c in STANDARD_PACK]
        actions += [Knock(c) for c in STANDARD_PACK]
        actions += [LayOff(c, m) for m in range(1, GIN_MAX_KNOCK_MELDS + 1) for c in STANDARD_PACK]
        planes = [
            ("hand", CARDS),
            ("discard_top", CARDS),
            ("discard_below", CARDS),
            ("opponent_known", CARDS),
            ("taken_this_turn", CARDS),
            ("knock_melds", CARDS),
            ("knock_deadwood", CARDS),
            ("phase", len(GIN_PHASES)),
            ("to_act", 1),
            ("dealer", 1),
            ("knocked_by_me", 1),
            ("stock_size", 1),
            ("opponent_hand_size", 1),
        ]
        super().__init__(actions, planes)

    def _number(self, action: Action) -> int:
        kind = type(action)
        if kind is Discard:
            assert isinstance(action, Discard)
            return 5 + action.card.index if isinstance(action.card, Card) else -1
        if kind is Knock:
            assert isinstance(action, Knock)
            card: object = action.card
            return 57 + action.card.index if isinstance(card, Card) and action.melds is None else -1
        if kind is LayOff:
            assert isinstance(action, LayOff)
            return _layoff_number(action, 109, GIN_MAX_KNOCK_MELDS)
        return _GIN_SIMPLE.get(kind, -1)

    def _check(self, view: Readable) -> View:
        hand = view.hand if isinstance(view, MatchView) else view
        if not isinstance(hand, GinView):
            raise TypeError(f"a Gin encoder reads a GinView, not {type(hand).__name__}")
        return hand

    def _fill(self, view: View, out: list[float]) -> None:
        assert isinstance(view, GinView)
        me = view.seat
        other = 1 - me
        self._cards(out, "hand", view.hand)
        pile = view.discard_pile
        self._cards(out, "discard_top", pile[-1:])
        self._cards(out, "discard_below", pile[:-1])
        self._cards(out, "opponent_known", view.known_cards[other])
        if view.taken_from_discard is not None:
            self._cards(out, "taken_this_turn", (view.taken_from_discard,))
        self._cards(out, "knock_melds", [c for m in view.knock_melds for c in m.cards])
        self._cards(out, "knock_deadwood", view.knock_deadwood)
        self._one_hot(out, "phase", GIN_PHASES.index(view.phase))
        self._scalar(out, "to_act", float(view.to_act == me))
        self._scalar(out, "dealer", float(view.dealer == me))
        self._scalar(out, "knocked_by_me", float(view.knocker == me))
        self._scalar(out, "stock_size", view.stock_size / (CARDS - 21))
        self._scalar(out, "opponent_hand_size", view.hand_sizes[other] / 11)


class RummyEncoder(Encoder):
    """Basic Rummy at a table of ``players``: 1267 action numbers; the observation grows with the
    table (52 entries and a hand size per other seat).

    Actions: 0 ``draw``, 1 ``take``; 2-53 ``discard`` by card index; 54-382 ``meld`` by
    :data:`MELD_SHAPES`; 383-1266 ``layoff`` by table meld number (1-17) then card index.
    Other seats come in playing order from the viewer's left.
    """

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
            return _layoff_number(action, 383, RUMMY_MAX_TABLE_MELDS)
        return 0 if kind is Draw else 1 if kind is Take else -1

    def _check(self, view: Readable) -> View:
        hand = view.hand if isinstance(view, MatchView) else view
        if not isinstance(hand, RummyView):
            raise TypeError(f"a Basic Rummy encoder reads a RummyView, not {type(hand).__name__}")
        if len(hand.hand_sizes) != self.players:
            raise ValueError(
                f"this encoder is for {self.players} players; the view is of a table of"
                f" {len(hand.hand_sizes)}"
            )
        return hand

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


def _layoff_number(action: LayOff, first: int, melds: int) -> int:
    """The number of a lay-off among those from ``first``, meld by meld (1 to ``melds``), card by
    card; -1 for a joker, a named end or a meld beyond them."""
    card, meld = action.card, action.meld
    if (
        not isinstance(card, Card)
        or action.end is not None
        or isinstance(meld, bool)
        or not isinstance(meld, int)
        or not 1 <= meld <= melds
    ):
        return -1
    return first + (action.meld - 1) * CARDS + card.index


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


def encoder_for(game: Game | str, players: int | None = None) -> Encoder:
    """The encoder of ``game`` (a game or its name) at a table of ``players``.

    Gin is always two players; Basic Rummy needs ``players`` (2-6). ValueError for Crazy Rummy
    (its lay-downs cannot be numbered) or an unknown game.
    """
    from rummykit.games import find_game

    found = find_game(game) if isinstance(game, str) else game
    if found.name == "gin":
        if players not in (None, 2):
            raise ValueError("Gin Rummy is a game for 2 players")
        return GinEncoder()
    if found.name == "rummy":
        if players is None:
            raise ValueError("a Basic Rummy encoder needs the number of players (2-6)")
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"players is a whole number, not {type(players).__name__}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Basic Rummy is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        return RummyEncoder(found.name, players)
    raise ValueError(
        f"no encoder for {found.name}: a Crazy Rummy lay-down is a whole contract with wilds"
        " standing for chosen cards, too many to number; use its views and notation"
    )
