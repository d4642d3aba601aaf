"""The vocabulary every game shares: phases, the illegal-action error, checks of seats and
player counts, and the protocols of a game, a hand, a view and a result."""

from __future__ import annotations

import json
import operator
import random
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, Self, SupportsIndex, cast

from rummykit.cards import AnyCard, Card

if TYPE_CHECKING:
    from rummykit.actions import Action
    from rummykit.games.deal import Deal
    from rummykit.games.match import Match
    from rummykit.games.options import OptionsLike

__all__ = [
    "Game",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "Phase",
    "View",
    "as_seat",
    "check_call",
    "check_player_count",
    "check_players",
    "checked_seat",
    "information_state",
    "natural",
    "standings",
]


class IllegalActionError(ValueError):
    """An action that is not legal now. The message is meant for the player; nothing changed."""


class Phase(StrEnum):
    """Where a hand stands. Every state names its phase explicitly."""

    OFFER = "offer"
    """The first up-card is offered (Gin: non-dealer, then dealer): take or pass."""
    BUY = "buy"
    """Crazy Rummy: a player out of turn is asked whether to buy the offered card."""
    DRAW = "draw"
    """The player to act must draw from the stock or the discard pile."""
    DISCARD = "discard"
    """The player to act has drawn and must discard (or knock, meld, lay off...)."""
    LAYOFF = "layoff"
    """Gin: after a knock the defender lays off cards, then says done."""
    HAND_OVER = "hand_over"
    """The hand is over and scored; no more actions."""


def natural(card: AnyCard) -> Card:
    """``card`` itself if it is a natural card; a joker is refused (for games without jokers)."""
    if not isinstance(card, Card):
        raise IllegalActionError("there are no jokers in this game")
    return card


def check_call(action: object, seat: object) -> None:
    """TypeError for a call that is wrong whatever the position: an action given as text (parse
    it first: ``parse_action("pass")``), or a seat that is not a whole number (``True``).

    >>> check_call("pass", None)
    Traceback (most recent call last):
    TypeError: give an action, not the text 'pass': parse_action('pass') makes one
    """
    if isinstance(action, str):
        raise TypeError(
            f"give an action, not the text {action!r}: parse_action({action!r}) makes one"
        )
    if action is None:
        raise TypeError("give an action, not None (e.g. one of state.legal_actions())")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise TypeError(f"seat must be a whole number or None, not {seat!r}")


def as_seat(value: object, players: int) -> int | None:
    """The seat ``value`` names at a table of ``players`` as an ``int`` (a whole number from 0,
    NumPy's integers too), or None for anything else (``True`` and ``1.0`` equal 1, but are no
    seat)."""
    if isinstance(value, bool):
        return None
    try:
        seat = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
    return seat if 0 <= seat < players else None


def checked_seat(value: object, players: int) -> int:
    """The seat ``value`` names at a table of ``players`` (:func:`as_seat`), or ValueError.

    >>> checked_seat(5, 4)
    Traceback (most recent call last):
    ValueError: no seat 5 at a table of 4
    """
    seat = as_seat(value, players)
    if seat is None:
        raise ValueError(f"no seat {value!r} at a table of {players}")
    return seat


def check_player_count(title: str, count: object, low: int, high: int) -> int:
    """``count`` as an int: TypeError unless it is a whole number (of any integer type),
    ValueError unless it is from ``low`` to ``high``; the message names the game by ``title``.

    >>> check_player_count("Gin Rummy", 3, 2, 2)
    Traceback (most recent call last):
    ValueError: Gin Rummy needs 2 players, not 3
    >>> check_player_count("Basic Rummy", 2.0, 2, 6)
    Traceback (most recent call last):
    TypeError: the number of players must be a whole number, not 2.0
    """
    try:
        if isinstance(count, bool):
            raise TypeError
        number = operator.index(cast(SupportsIndex, count))  # any integer type (NumPy's too)
    except TypeError:
        raise TypeError(f"the number of players must be a whole number, not {count!r}") from None
    if not low <= number <= high:
        if low == high:
            raise ValueError(f"{title} needs {low} players, not {number}")
        raise ValueError(f"{title} is for {low} to {high} players, not {number}")
    return number


def check_players(game: Game, count: int) -> None:
    """Raise ValueError unless ``game`` is played by ``count`` players.

    >>> from rummykit.games import find_game
    >>> check_players(find_game("gin"), 3)
    Traceback (most recent call last):
    ...
    ValueError: gin needs 2 players, not 3
    >>> check_players(find_game("rummy"), 7)
    Traceback (most recent call last):
    ...
    ValueError: rummy is for 2 to 6 players, not 7
    """
    check_player_count(game.name, count, game.min_players, game.max_players)


class HandResult(Protocol):
    """What every game's hand result offers (each game adds its own details)."""

    @property
    def outcome(self) -> StrEnum:
        """How the hand ended (the game's own outcome names)."""
        ...

    @property
    def winner(self) -> int | None:
        """The seat that won the hand, if any."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """What the hand adds to each seat's total."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        ...


class View(Protocol):
    """What every game's view offers: one seat's knowledge, and the actions it may take."""

    @property
    def seat(self) -> int:
        """The seat this view belongs to."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        ...

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions (empty unless it is to act)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data."""
        ...


class HandState(Protocol):
    """One hand of any game: the state machine that the CLI, records, players and server drive."""

    @property
    def game(self) -> Game:
        """The game (and its options) this hand is played under."""
        ...

    @property
    def dealer(self) -> int:
        """The seat that dealt."""
        ...

    @property
    def seed(self) -> int | None:
        """The seed the hand was dealt from (None for an explicit deal)."""
        ...

    @property
    def deal(self) -> Deal:
        """The deal: hands, up-card, stock."""
        ...

    @property
    def phase(self) -> Phase:
        """Where the hand stands."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        ...

    @property
    def history(self) -> Sequence[tuple[int, Action]]:
        """Every action so far, with the seat that took it."""
        ...

    @property
    def names(self) -> tuple[str, ...] | None:
        """The players' names its record gave, if it was loaded from one."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the hand is scored."""
        ...

    @property
    def hands(self) -> Sequence[Sequence[AnyCard]]:
        """Every seat's cards (hidden information: for the engine and the server, not a view)."""
        ...

    @property
    def top_discard(self) -> AnyCard | None:
        """The top card of the discard pile, if any."""
        ...

    @property
    def taken(self) -> AnyCard | None:
        """The card the seat to act took from the discard pile this turn, if any (it may not
        throw it back)."""
        ...

    @property
    def result(self) -> HandResult | None:
        """The result once the hand is over."""
        ...

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for the seat to act; with ``seat``, that seat's (empty when it is
        not its turn)."""
        ...

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` (saying why) unless ``action`` is legal now."""
        ...

    def can(self, action: Action, seat: int | None = None) -> bool:
        """True if ``action`` is legal now (by ``seat``, if given)."""
        ...

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Verify and perform an action."""
        ...

    def view(self, seat: int) -> View:
        """What ``seat`` may see."""
        ...

    def clone(self) -> Self:
        """An independent copy of the hand, to play on without changing this one."""
        ...

    def resample(self, seat: int, rng: random.Random | None = None) -> Self:
        """A copy that ``seat`` cannot tell from this hand, with every card hidden from it (the
        other hands' unknown cards, the stock order, future shuffles) dealt again at random."""
        ...

    @property
    def resampled(self) -> bool:
        """True for a hand made by :meth:`resample` (it has no record)."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Each seat's outcome of the hand, higher better, adding up to zero (see
        :func:`standings`); zeros until the hand is over."""
        ...

    def information_state(self, seat: int) -> str:
        """Everything ``seat`` knows now, as one string (:func:`information_state`)."""
        ...


def information_state(view: View) -> str:
    """A view as one canonical string: equal exactly when two positions look the same to the
    seat, so it can key a table of information sets (as OpenSpiel's information state string).

    It is the view's JSON with sorted keys and no spaces: the seat's own cards, everything
    public, and the history as the seat saw it (so two positions reached by different moves
    differ: perfect recall). A hand and any ``resample(seat)`` of it give the same string.
    """
    return json.dumps(view.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def standings(points: Sequence[float], *, low_wins: bool = False) -> tuple[float, ...]:
    """Each seat's points minus the average of the other seats' points, so that higher is better
    and the standings add up to zero (a common scale for every game, as OpenSpiel's returns):
    negated where the lowest total wins (Crazy Rummy's points are penalties).

    >>> standings((26, 0))
    (26.0, -26.0)
    >>> standings((30, 0, 0))
    (30.0, -15.0, -15.0)
    >>> standings((90, 0, 30), low_wins=True)
    (-75.0, 60.0, 15.0)
    """
    count = len(points)
    if count < 2:
        raise ValueError("standings compare two seats or more")
    total = sum(points)
    sign = -1.0 if low_wins else 1.0
    return tuple(sign * (p - (total - p) / (count - 1)) + 0.0 for p in points)  # never -0.0


class Game(Protocol):
    """A game under its options: it deals hands and matches."""

    name: str
    min_players: int
    max_players: int
    outcomes: tuple[str, ...]
    low_total_wins: bool
    """True when the lowest match total wins (Crazy Rummy counts penalty points)."""

    @property
    def options(self) -> OptionsLike:
        """The game's options."""
        ...

    def new_hand(
        self,
        *,
        players: int = 2,
        seed: int | None = None,
        deal: Deal | None = None,
        dealer: int = 0,
    ) -> HandState:
        """A new hand."""
        ...

    def new_match(
        self,
        *,
        players: int = 2,
        seed: int | None = None,
        dealer: int = 0,
        first_seed: int | None = None,
        first_deal: Deal | None = None,
    ) -> Match:
        """A new match; its first hand from ``first_seed`` or ``first_deal`` if given."""
        ...
