"""The vocabulary every game shares: phases, the illegal-action error, and seeded dealing."""

from __future__ import annotations

import dataclasses
import json
import operator
import random
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Literal,
    Protocol,
    Self,
    SupportsIndex,
    TypeVar,
    cast,
)

from rummykit.actions import UNDOABLE
from rummykit.cards import AnyCard, Card, parse_card, parse_cards

if TYPE_CHECKING:
    from rummykit.actions import Action

__all__ = [
    "PUBLIC",
    "CloneableHand",
    "Deal",
    "Game",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "Match",
    "MatchMechanics",
    "MatchResult",
    "OptionSpec",
    "Phase",
    "ShuffledRestocks",
    "Tagged",
    "View",
    "check_call",
    "check_option",
    "check_options",
    "check_player_count",
    "check_players",
    "check_seed",
    "clone_state",
    "derive_seed",
    "information_state",
    "natural",
    "new_rng",
    "redeal_unseen",
    "standings",
    "undoable_move",
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


def check_option(
    name: str, value: object, low: int, high: int, *, none: str | None = None, note: str = ""
) -> None:
    """Raise ValueError naming option ``name`` unless ``value`` is a whole number from ``low`` to
    ``high``, or None when ``none`` names what None means (``"unlimited"``, ``"unset"``).

    Every numeric option has an upper bound, so that no table can be made too big to play or to
    replay from its record.

    >>> check_option("jokers", 5, 0, 4, note="at most 2 a pack")
    Traceback (most recent call last):
    ValueError: option jokers must be a whole number from 0 to 4 (at most 2 a pack), not 5
    >>> check_option("max_restocks", None, 0, 100, none="unlimited")
    """
    if value is None and none is not None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        allowed = f"a whole number from {low} to {high}"
        if none is not None:
            allowed += f" or {none}"
        if note:
            allowed += f" ({note})"
        raise ValueError(f"option {name} must be {allowed}, not {as_written(value)}")


def as_written(value: object) -> str:
    """``value`` as a record or a command line writes it: JSON (``null``, ``true``, ``"deal"``,
    ``NaN``), or Python's repr for what JSON cannot hold.

    >>> as_written(None), as_written(True), as_written("deal"), as_written(float("nan"))
    ('null', 'true', '"deal"', 'NaN')
    """
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """The values one named rules option takes: the single source of its checks, of the web app's
    house-rules form and of ``GET /api/games``.

    ``kind`` is ``"bool"``, ``"int"`` (a whole number from ``low`` to ``high``, or None when
    ``none`` names what None means, e.g. ``"unlimited"``) or ``"choice"`` (one of ``choices``).

    >>> spec = OptionSpec("restock", "choice", choices=("turn_over", "shuffle"))
    >>> spec.check("shuffle")
    >>> spec.check("deal")
    Traceback (most recent call last):
    ValueError: option restock must be "turn_over" or "shuffle", not "deal"
    >>> OptionSpec("rummy_bonus", "bool").check(1)
    Traceback (most recent call last):
    ValueError: option rummy_bonus must be true or false, not 1
    """

    name: str
    kind: Literal["bool", "int", "choice"]
    low: int = 0
    high: int = 0
    none: str | None = None
    choices: tuple[str, ...] = ()
    note: str = ""

    def check(self, value: object) -> None:
        """Raise ValueError, naming the option and what it takes, unless ``value`` fits."""
        if self.kind == "int":
            check_option(self.name, value, self.low, self.high, none=self.none, note=self.note)
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(
                    f"option {self.name} must be true or false, not {as_written(value)}"
                )
        elif value not in self.choices:  # a StrEnum member equals its value
            allowed = " or ".join(as_written(c) for c in self.choices)
            raise ValueError(f"option {self.name} must be {allowed}, not {as_written(value)}")

    def to_dict(self) -> dict[str, Any]:
        """As JSON data: ``name``, ``kind`` and, as they apply, ``low``/``high``/``none`` or
        ``choices``."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.kind == "int":
            out.update(low=self.low, high=self.high, none=self.none)
        elif self.kind == "choice":
            out["choices"] = list(self.choices)
        return out


def check_options(options: Any, specs: Sequence[OptionSpec]) -> None:
    """Check every field of an options object against its spec (ValueError for the first bad
    one)."""
    for spec in specs:
        spec.check(getattr(options, spec.name))


def check_seed(seed: object) -> int | None:
    """``seed`` as an int (any integer type, e.g. NumPy's), or None; anything else (a bool, a
    float, text) raises ValueError, so that every seed a game accepts can be saved in a record.

    >>> check_seed(7), check_seed(None)
    (7, None)
    >>> check_seed("7")
    Traceback (most recent call last):
    ValueError: seed must be a whole number or None, not '7'
    """
    if seed is None:
        return None
    if not isinstance(seed, bool):
        try:
            return operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"seed must be a whole number or None, not {seed!r}")


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


def new_rng(seed: int | None) -> random.Random:
    """The game's one random generator: seeded for reproducible games."""
    return random.Random(seed)


def derive_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a match seeded with ``seed`` (stable across versions)."""
    return (seed * 1_000_003 + index * 7_919 + 1) % (1 << 62)


def _card_list(value: Any, what: str) -> tuple[AnyCard, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f"{what} must be a list of card strings")
    return parse_cards(value)


@dataclass(frozen=True, slots=True)
class Deal:
    """An explicit deal: every hand (seat order), the up-card, and the stock (top first).

    A game checks a deal against its pack and hand size with :meth:`check` before playing it.
    """

    hands: tuple[tuple[AnyCard, ...], ...]
    up: AnyCard
    stock: tuple[AnyCard, ...]

    def check(self, pack: Sequence[AnyCard], players: int, hand_size: int) -> None:
        """Raise ValueError unless this deal is exactly ``pack`` dealt to ``players`` hands."""
        if len(self.hands) != players:
            raise ValueError(f"the deal has {len(self.hands)} hands, not {players}")
        for seat, hand in enumerate(self.hands):
            if len(hand) != hand_size:
                raise ValueError(
                    f"the hand of seat {seat} has {len(hand)} cards; {hand_size} are dealt here"
                )
        have = Counter([*(c for h in self.hands for c in h), self.up, *self.stock])
        want = Counter(pack)
        foreign = [str(c) for c in have if c not in want]
        if foreign:
            raise ValueError(f"{' '.join(foreign)} is not in this game's pack")
        for card, times in have.items():
            if times > want[card]:
                held = {1: "once", 2: "twice"}.get(want[card], f"{want[card]} times")
                raise ValueError(f"the deal holds {card} {times} times; the pack only {held}")
        missing = [str(c) for c, n in (want - have).items() for _ in range(n)]
        if missing:
            raise ValueError(f"the deal is missing {' '.join(missing)}")

    @classmethod
    def shuffled(
        cls,
        pack: Sequence[AnyCard],
        rng: random.Random,
        *,
        dealer: int,
        players: int,
        hand_size: int,
    ) -> Deal:
        """Shuffle ``pack`` with ``rng`` and deal one card at a time from the dealer's left."""
        cards = list(pack)
        rng.shuffle(cards)
        hands: list[tuple[AnyCard, ...]] = [()] * players
        dealt = players * hand_size
        for offset in range(players):
            seat = (dealer + 1 + offset) % players
            hands[seat] = tuple(cards[offset:dealt:players])
        return cls(tuple(hands), cards[dealt], tuple(cards[dealt + 1 :]))

    def rng_seed(self) -> int:
        """A seed derived from the deal itself, for a game's later shuffles (stable, 32 bits)."""
        text = "|".join(" ".join(str(c) for c in h) for h in self.hands)
        return zlib.crc32(f"{text}|{self.up}|{' '.join(str(c) for c in self.stock)}".encode())

    def to_dict(self) -> dict[str, Any]:
        """The deal as JSON data (card notation strings)."""
        return {
            "hands": [[str(c) for c in h] for h in self.hands],
            "up": str(self.up),
            "stock": [str(c) for c in self.stock],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deal:
        """A deal from JSON data; malformed data or bad cards raise ValueError."""
        if not isinstance(data, Mapping) or set(data) != {"hands", "up", "stock"}:
            raise ValueError("a deal is an object with exactly 'hands', 'up' and 'stock'")
        hands = data["hands"]
        if not isinstance(hands, list):
            raise ValueError("deal.hands must be a list of hands")
        if not isinstance(data["up"], str):
            raise ValueError("deal.up must be a card string")
        return cls(
            tuple(_card_list(h, "each hand") for h in hands),
            parse_card(data["up"]),
            _card_list(data["stock"], "deal.stock"),
        )


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


def undoable_move(state: HandState, seat: int) -> Action | None:
    """``seat``'s last move if it may fairly be taken back now, else None: the hand is in play,
    ``seat`` made the last move and is still to act, and the move is one of
    :data:`~rummykit.actions.UNDOABLE` (it showed no hidden card). Who may take moves back at
    all (a person alone against the computer) is for the caller to decide.

    >>> from rummykit.games.gin import Gin
    >>> from rummykit.actions import parse_action
    >>> state = Gin().new_hand(seed=7, dealer=1)
    >>> state.apply(parse_action("take"))
    >>> str(undoable_move(state, 0)), undoable_move(state, 1)
    ('take', None)
    """
    if state.is_over or state.to_act != seat or not state.history:
        return None
    actor, action = state.history[-1]
    return action if actor == seat and isinstance(action, UNDOABLE) else None


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


class SameRules:
    """Games are equal when they are the same game under equal options (``Gin() == Gin()``), so
    that states and matches of equal games compare equal too."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(cast(Any, other).options == cast(Any, self).options)

    def __hash__(self) -> int:
        return hash((type(self), cast(Any, self).options))


def option_repr(value: Any) -> str:
    """An option's value as Python that evaluates back to it: an enum as ``Enum.MEMBER``."""
    if isinstance(value, StrEnum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


def options_repr(options: Any, presets: Mapping[str, Any] | None = None) -> str:
    """Options as Python that evaluates back to equal options, naming only what differs from the
    defaults, or, for a game with presets, from the preset they differ least from:
    ``GinOptions(knock_limit=7)``, ``RummyOptions.preset('rummy-classic', restock_limit=2)``."""
    cls = type(options)

    def changes(base: Any) -> list[str]:
        return [
            f"{f.name}={option_repr(getattr(options, f.name))}"
            for f in dataclasses.fields(options)
            if getattr(options, f.name) != getattr(base, f.name)
        ]

    plain = changes(cls())
    if presets:
        name, base = min(presets.items(), key=lambda item: len(changes(item[1])))
        if base != cls() and len(changes(base)) < len(plain):
            return f"{cls.__name__}.preset({', '.join([repr(name), *changes(base)])})"
    return f"{cls.__name__}({', '.join(plain)})"


class CloneableHand:
    """Gives a hand state :meth:`clone`, ``==`` and :meth:`returns` (and the flag its
    :meth:`resample` copies set)."""

    DERIVED: ClassVar[frozenset[str]] = frozenset({"_notation", "_deadwoods", "_down_memo"})
    """Attributes computed from the rest (caches, the history as text): not compared."""

    def __eq__(self, other: object) -> bool:
        """Whether two hands are in the same position: same game and options, same cards in
        the same places, same history (``state.clone() == state``)."""
        if type(other) is not type(self):
            return NotImplemented
        mine, theirs = vars(self), vars(other)
        names = (set(mine) | set(theirs)) - self.DERIVED
        return all(_same(mine.get(name), theirs.get(name)) for name in names)

    __hash__ = None  # type: ignore[assignment]  # (a hand changes as it is played)

    names: tuple[str, ...] | None = None
    """The players' names a record gave this hand (:func:`rummykit.record.load_record`), which
    saving it writes again unless other names are given; None otherwise."""

    resampled: bool = False
    """True for a hand made by ``resample(seat)``: its hidden cards were dealt again, so no deal
    explains its history and it has no record (its ``seed`` is None, and its ``deal`` keeps only
    what the seat saw dealt, the rest placed at random)."""

    def clone(self) -> Self:
        """An independent copy of the hand (for search: branch, play on, throw away).

        Much faster than ``copy.deepcopy`` (see :func:`clone_state`).

        >>> from rummykit.games import Gin
        >>> state = Gin().new_hand(seed=7)
        >>> branch = state.clone()
        >>> branch.apply(branch.legal_actions()[0])
        >>> len(branch.history), len(state.history)
        (1, 0)
        """
        return clone_state(self)

    def returns(self) -> tuple[float, ...]:
        """Each seat's outcome of the hand on one scale for every game: its points minus the
        other seats' average (:func:`standings`; Crazy Rummy's penalty points count against),
        higher better, adding up to zero; zeros until the hand is over.

        >>> from rummykit.games.gin import Gin
        >>> state = Gin().new_hand(seed=7)
        >>> state.returns()
        (0.0, 0.0)
        """
        state = cast(Any, self)
        result = state.result
        if result is None:
            return (0.0,) * int(state.players)
        return standings(result.scores, low_wins=state.game.low_total_wins)

    def information_state(self, seat: int) -> str:
        """Everything ``seat`` knows now, as one string (:func:`information_state` of its view).

        >>> from rummykit.games.gin import Gin
        >>> state = Gin().new_hand(seed=7)
        >>> state.information_state(0) == state.resample(0).information_state(0)
        True
        >>> state.information_state(0) == state.information_state(1)
        False
        """
        return information_state(cast(Any, self).view(seat))

    def _resampling(self, seat: int, rng: random.Random | None) -> tuple[Self, random.Random, int]:
        """The start of every :meth:`resample`: a clone marked resampled whose deal keeps no
        trace of the true one, the generator (a new one for None), and ``seat`` checked, as an
        ``int``."""
        players = cast(Any, self).players
        index = as_seat(seat, players)
        if index is None:
            raise ValueError(f"no seat {seat!r} at a table of {players}")
        seat = index
        if rng is None:
            rng = random.Random()
        new = self.clone()
        new.resampled = True
        new._hide_deal(seat, rng)
        return new, rng, seat

    def _hide_deal(self, seat: int, rng: random.Random) -> None:
        """For a resampled hand: no seed (it would deal the true hand again) and a deal that
        keeps only what ``seat`` saw dealt (its own hand, the up-card), every other card of the
        deal placed at random (the true places would tell where the hidden cards went)."""
        state = cast(Any, self)
        deal: Deal = state.deal
        rest = [card for other, hand in enumerate(deal.hands) if other != seat for card in hand]
        rest += deal.stock
        draw = rng.random
        rest.sort(key=lambda _: draw())
        hands: list[tuple[Any, ...]] = []
        at = 0
        for other, hand in enumerate(deal.hands):
            if other == seat:
                hands.append(hand)
            else:
                hands.append(tuple(rest[at : at + len(hand)]))
                at += len(hand)
        state.deal = Deal(tuple(hands), deal.up, tuple(rest[at:]))
        state.seed = None


Tagged = tuple[int, Any]
"""A card of a hand with where it came from: ``(k, card)``, drawn from the stock that restock
``k`` (1, 2, ...) made, or ``(PUBLIC, card)``, seen by everyone going into that hand."""

PUBLIC = -1
"""The tag of a card everyone saw go into a hand (not taken from the pile: those are ``known``)."""


def redeal_unseen(
    hands: list[list[Any]],
    stock: list[Any],
    seat: int,
    rng: random.Random,
    *,
    known: Sequence[Sequence[Any]],
    open_hands: Sequence[int] = (),
    tags: Sequence[Sequence[Tagged]] | None = None,
    stock_tag: int = 0,
    extra: list[Any] | None = None,
) -> list[list[Tagged]] | None:
    """Deal again, in place, every card of ``hands`` and ``stock`` that ``seat`` cannot see.

    Hidden from ``seat``: the cards of the other hands except their ``known`` ones (per seat, a
    multiset they surely hold) and the whole hands of ``open_hands`` (shown face up), and the
    stock. Cards hidden alike are shuffled together and dealt back into the same places (same
    hand sizes, same stock size): with no restock yet, all of them. A restock makes a stock of
    cards everyone saw in the discard pile, so its cards stay apart: ``tags`` lists, per seat,
    the cards drawn from such a stock (``(k, card)``, from restock ``k``: shuffled only with the
    other cards of that stock) or seen by everyone going into the hand (``(PUBLIC, card)``:
    they stay); the stock is of restock ``stock_tag`` (0: the deal's; ``PUBLIC``: turned over,
    its order known, so it stays). ``extra`` holds more hidden cards of the deal's kind (Gin's
    face-down knock card). Returns the tags the hands hold now (None when ``tags`` is None).

    >>> hands, stock = [["AS", "2S"], ["3S", "4S", "5S"]], ["6S", "7S"]
    >>> _ = redeal_unseen(hands, stock, 0, random.Random(1), known=[[], ["4S"]])
    >>> hands[0], "4S" in hands[1], sorted(hands[1] + stock)
    (['AS', '2S'], True, ['3S', '4S', '5S', '6S', '7S'])
    """
    pool: list[Any] = []  # the deal's kind (tag 0): usually every hidden card
    whole: list[int] = []  # hands dealt again whole (the usual case)
    places: list[tuple[int, int]] = []  # (seat, index) of tag-0 cards of the other hands
    later: dict[int, tuple[list[Any], list[tuple[int, int]]]] = {}  # the same, per restock
    kept: list[list[Tagged]] | None = None if tags is None else [[] for _ in hands]
    for other, hand in enumerate(hands):
        if other == seat or other in open_hands:
            if kept is not None and tags is not None:
                kept[other] = list(tags[other])
            continue
        held = known[other]
        marked = tags[other] if tags is not None else ()
        if not held and not marked:
            whole.append(other)
            pool += hand
            continue
        need = list(held)  # a few cards; cards are interned, so `in` is fast
        for index, card in enumerate(hand):
            if need and card in need:
                need.remove(card)
                continue
            tag = 0
            if marked:
                tag = next((t for t, c in marked if c == card), 0)
                if tag:
                    marked = list(marked)  # this one is used: a copy of the card may be another
                    marked.remove((tag, card))
            if tag == 0:
                pool.append(card)
                places.append((other, index))
            elif tag == PUBLIC:
                assert kept is not None
                kept[other].append((PUBLIC, card))
            else:
                cards, spots = later.setdefault(tag, ([], []))
                cards.append(card)
                spots.append((other, index))
    if extra:
        pool += extra
    if stock_tag == 0:
        pool += stock
    elif stock_tag != PUBLIC:
        later.setdefault(stock_tag, ([], []))[0].extend(stock)
    draw = rng.random
    # Sorting by random keys shuffles uniformly, and faster than rng.shuffle in pure Python.
    pool.sort(key=lambda _: draw())
    at = 0
    for other in whole:
        size = len(hands[other])
        hands[other][:] = pool[at : at + size]
        at += size
    if extra:
        extra[:] = pool[at : at + len(extra)]
        at += len(extra)
    for other, index in places:
        hands[other][index] = pool[at]
        at += 1
    if stock_tag == 0:
        stock[:] = pool[at:]
    for tag, (cards, spots) in later.items():
        cards.sort(key=lambda _: draw())
        for at, (other, index) in enumerate(spots):
            card = hands[other][index] = cards[at]
            assert kept is not None
            kept[other].append((tag, card))
        if tag == stock_tag:
            stock[:] = cards[len(spots) :]
    return kept


class MatchMechanics:
    """What every game's match shares besides its rules: cloning, and settling the match however
    its hands were played. A match holds its ``hands`` (the last one in play) and its ``result``
    (None until settled), and decides in ``_settle`` whether the hands so far end it."""

    hands: list[Any]
    result: Any
    names: tuple[str, ...] | None = None
    """The players' names a record gave this match (:func:`rummykit.record.load_record`), which
    saving it writes again unless other names are given; None otherwise."""

    def returns(self) -> tuple[float, ...]:
        """Each seat's standing in the match (:func:`standings`): from the final totals once the
        match is over (Gin's bonuses in), else from the totals so far."""
        state = cast(Any, self)
        totals = self.result.totals if self.result is not None else state.scores()
        return standings(totals, low_wins=state.hands[-1].game.low_total_wins)

    def clone(self) -> Self:
        """An independent copy of the match: the hand in play cloned, the finished hands shared
        (they cannot change)."""
        copied = dataclasses.replace(
            cast(Any, self), hands=[*self.hands[:-1], self.hands[-1].clone()]
        )
        copied.names = self.names  # (not a field of the match's dataclass)
        return cast(Self, copied)

    def _catch_up(self) -> None:
        """Settle the match if its last hand ended through ``match.hand.apply`` (not ``apply``):
        the match is decided however its hands were played."""
        if self.result is None and self.hands[-1].is_over:
            self._settle()

    def _settle(self) -> None:  # pragma: no cover - every match defines it
        raise NotImplementedError


class ShuffledRestocks:
    """For a hand whose restocks may be shuffled: the generator, made at the first shuffle from
    the seed (or, for an explicit deal, from the deal itself), so that a hand without a shuffle,
    and its clones, never build it."""

    seed: int | None
    deal: Deal
    _rng: random.Random | None = None
    _reseed: int | None = None
    """A resampled hand's seed for its generator (its future shuffles are hidden information,
    so they do not follow the hand it was resampled from)."""

    def _shuffle(self, cards: list[Any]) -> None:
        """Shuffle a new stock with the hand's generator."""
        if self._rng is None:
            seed = self.seed
            if self._reseed is not None:
                seed = self._reseed
            elif seed is None:
                seed = self.deal.rng_seed()
            else:
                seed = derive_seed(seed, 1 << 20)
            self._rng = random.Random(seed)
        self._rng.shuffle(cards)

    def _forget_generator(self, rng: random.Random) -> None:
        """Seed the generator again from ``rng`` (for a resampled hand), when it is first used."""
        self._rng = None
        self._reseed = rng.getrandbits(64)


_State = TypeVar("_State")


def _same(a: Any, b: Any) -> bool:
    """Equal values; random generators are equal when they are in the same state."""
    if type(a) is random.Random and type(b) is random.Random:
        return bool(a.getstate() == b.getstate())
    return bool(a == b)


def clone_state(state: _State) -> _State:
    """A copy of a hand's state that plays on independently of ``state``, fast.

    A hand state holds values that never change (cards, actions, melds, options, results: all
    frozen), lists of them, lists of such lists (the hands), small dicts of them and its own
    random generator; the lists, dicts and generator are copied, the values shared. Far cheaper
    than ``copy.deepcopy``, which walks every card. The states' tests check that a clone and a
    deep copy play on alike, and that playing a clone leaves the original as it was.
    """
    new = object.__new__(type(state))
    copied = new.__dict__
    for name, value in vars(state).items():
        kind = type(value)
        if kind is list:
            if value and type(value[0]) is list:
                value = [list(inner) for inner in value]
            else:
                value = value.copy()
        elif kind is dict:
            value = value.copy()
        elif kind is random.Random:
            rng = random.Random()
            rng.setstate(value.getstate())
            value = rng
        copied[name] = value
    return new


class MatchResult(Protocol):
    """What every game's match result offers."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (ties share the win)."""
        ...

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's final total."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        ...


class Match(Protocol):
    """A match of hands of any game."""

    @property
    def seed(self) -> int | None:
        """The match seed, from which new hands are dealt."""
        ...

    @property
    def hands(self) -> Sequence[HandState]:
        """Every hand so far, the current one last."""
        ...

    @property
    def names(self) -> tuple[str, ...] | None:
        """The players' names its record gave, if it was loaded from one."""
        ...

    def clone(self) -> Self:
        """An independent copy of the match, to play on without changing this one."""
        ...

    @property
    def hand(self) -> HandState:
        """The current hand."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the match is decided."""
        ...

    @property
    def result(self) -> MatchResult | None:
        """The result once the match is over."""
        ...

    def scores(self) -> tuple[int, ...]:
        """Each seat's total so far."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Each seat's standing in the match, higher better, adding up to zero."""
        ...

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply an action to the current hand."""
        ...

    def next_dealer(self) -> int:
        """Who deals the next hand."""
        ...

    def next_hand(self, *, seed: int | None = None, deal: Deal | None = None) -> HandState:
        """Deal the next hand."""
        ...

    def view(self, seat: int) -> MatchView:
        """What ``seat`` may see of the match: the hand's view and the scores."""
        ...


@dataclass(frozen=True)
class MatchView:
    """One seat's view of a match of any game: the hand in play and the scores so far.

    Games add their own public match data in subclasses (Gin: boxes and the target score).
    """

    hand: View
    hand_number: int
    """1 for the first hand (Crazy Rummy: the round; Gin: cancelled hands count)."""
    scores: tuple[int, ...]
    """Each seat's running total."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each finished hand's scores, seat by seat, in order."""
    result: MatchResult | None

    @property
    def over(self) -> bool:
        """True once the match is decided."""
        return self.result is not None

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data."""
        return {
            "hand": self.hand.to_dict(),
            "hand_number": self.hand_number,
            "scores": list(self.scores),
            "hand_scores": [list(s) for s in self.hand_scores],
            "result": None if self.result is None else self.result.to_dict(),
            "over": self.over,
        }


def match_view(match: Match, seat: int) -> MatchView:
    """The generic :class:`MatchView` of any match (games with extra public data override it)."""
    return MatchView(
        hand=match.hand.view(seat),
        hand_number=len(match.hands),
        scores=match.scores(),
        hand_scores=tuple(h.result.scores for h in match.hands if h.result is not None),
        result=match.result,
    )


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


class OptionsLike(Protocol):
    """Every options object turns into JSON data, and lists its options' specs."""

    SPECS: ClassVar[tuple[OptionSpec, ...]]

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON data."""
        ...
