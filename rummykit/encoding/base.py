"""What every game's encoder shares: the :class:`Encoder` interface, planes and card planes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from rummykit.actions import Action, LayOff
from rummykit.cards import Card
from rummykit.games.base import View as AnyView
from rummykit.games.crazy import CrazyView
from rummykit.games.gin import GinView
from rummykit.games.match import MatchView
from rummykit.games.rummy import RummyView

View: TypeAlias = GinView | RummyView | CrazyView
"""A view an encoder reads."""

Readable: TypeAlias = AnyView | MatchView
"""What the encoders take: a hand's view, or a match's (whose hand in play is read)."""

CARDS: Final = 52
"""Cards in a plane: one entry per card, in ``card.index`` order (clubs, diamonds, hearts, spades,
each ace to king)."""


@dataclass(frozen=True, slots=True)
class Plane:
    """One named part of an observation vector: ``size`` entries from ``start``."""

    name: str
    start: int
    size: int


class Encoder:
    """Numbers for one game's actions and vectors for its views (see :func:`encoder_for`).

    ``num_actions`` numbers cover every action the game can have; ``id_of`` and ``action`` map
    one to the other (``action(id_of(a)) == a``, except that every Crazy Rummy lay-down has one
    number); ``legal_ids`` and ``legal_mask`` give the legal
    ones of a view (none unless its seat is to act). ``observation`` is a list of
    ``observation_size`` floats from 0 to 1, laid out as ``planes``.
    """

    TITLE: ClassVar[str]
    """The game's name in messages ("a Gin encoder reads a GinView")."""
    VIEW: ClassVar[type]
    """The hand view it reads."""
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

    def action(self, number: int, view: Readable | None = None) -> Action:
        """The action numbered ``number``; ValueError outside ``range(num_actions)``.

        A number whose action depends on the position (Crazy Rummy's lay-down: which cards) needs
        the ``view`` of the seat to act, and is then that position's concrete action.
        """
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"an action number is an int, not {type(number).__name__}")
        if not 0 <= number < self.num_actions:
            raise ValueError(
                f"no action number {number} (they run from 0 to {self.num_actions - 1})"
            )
        return self._resolve(number, view)

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
        hand = view.hand if isinstance(view, MatchView) else view
        if not isinstance(hand, self.VIEW):
            raise TypeError(
                f"a {self.TITLE} encoder reads a {self.VIEW.__name__}, not {type(hand).__name__}"
            )
        assert isinstance(hand, GinView | RummyView | CrazyView)
        if len(hand.hand_sizes) != self.players:
            raise ValueError(
                f"this encoder is for {self.players} players; the view is of a table of"
                f" {len(hand.hand_sizes)}"
            )
        return hand

    def _resolve(self, number: int, view: Readable | None) -> Action:
        """The action of a checked ``number`` (in ``view`` where that matters)."""
        return self._actions[number]

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


def layoff_number(action: LayOff, first: int, melds: int) -> int:
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
