"""Gin Rummy's encoder: 265 action numbers, 374 observation entries (``docs/encoding.md``)."""

from __future__ import annotations

from typing import Final

from rummykit.actions import Action, BigGin, Discard, Done, Draw, Knock, LayOff, Pass, Take
from rummykit.cards import STANDARD_PACK, Card
from rummykit.encoding.base import CARDS, Encoder, View, layoff_number
from rummykit.games.base import Phase
from rummykit.games.gin import GinView

__all__ = ["GinEncoder"]

GIN_PHASES: Final = (Phase.OFFER, Phase.DRAW, Phase.DISCARD, Phase.LAYOFF, Phase.HAND_OVER)

GIN_MAX_KNOCK_MELDS: Final = 3
"""A knocker lays down at most 3 melds (10 cards, at least 3 a meld)."""

_GIN_SIMPLE: Final[dict[type, int]] = {Draw: 0, Take: 1, Pass: 2, Done: 3, BigGin: 4}


class GinEncoder(Encoder):
    """Gin Rummy: 265 action numbers and 374 observation entries.

    Actions: 0 ``draw``, 1 ``take``, 2 ``pass``, 3 ``done``, 4 ``biggin``; 5-56 ``discard`` and
    57-108 ``knock`` by card index (a knock lays down the engine's best arrangement, as in the
    views' legal actions); 109-264 ``layoff`` by meld number (1-3) then card index.
    """

    TITLE = "Gin"
    VIEW = GinView

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
            return layoff_number(action, 109, GIN_MAX_KNOCK_MELDS)
        return _GIN_SIMPLE.get(kind, -1)

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
