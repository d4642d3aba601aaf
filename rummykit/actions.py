"""Actions as small frozen values whose ``str`` is their notation; :func:`parse_action` inverts it.

The full notation is documented in ``docs/notation.md``. Every action round-trips:
``parse_action(str(action)) == action``.

>>> parse_action("discard 10d")
Discard(card=Card.parse('TD'))
>>> str(parse_action("knock 9S: 3H 4H 5H | 7C 7D 7S | 9D TD JD"))
'knock 9S: 3H 4H 5H | 7C 7D 7S | 9D TD JD'
>>> str(parse_action("layoff 7H 2"))
'layoff 7H 2'
>>> str(parse_action("down 5H X 2C 8H | 9C 9D 9S"))
'down 5H X 2C 8H | 9C 9D 9S'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from rummykit.cards import (
    AnyCard,
    Card,
    CardError,
    parse_card,
    parse_cards,
    parse_natural_cards,
    shown,
)
from rummykit.melds import Meld, MeldError

End: TypeAlias = Literal["low", "high"]
"""Which end of a run a lay-off goes to (named for a wild in Crazy Rummy)."""

__all__ = [
    "UNDOABLE",
    "Action",
    "ActionSyntaxError",
    "BigGin",
    "Buy",
    "Discard",
    "Done",
    "Down",
    "Draw",
    "Knock",
    "LayOff",
    "NewMeld",
    "Pass",
    "Swap",
    "Take",
    "parse_action",
]


class ActionSyntaxError(ValueError):
    """Text that is not valid action notation; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take:
    """Take the top card of the discard pile (or the offered up-card)."""

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline the offered up-card."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Buy:
    """Crazy Rummy: buy the offered card out of turn, with the penalty card(s) from the stock."""

    def __str__(self) -> str:
        return "buy"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card`` face up, ending the turn."""

    card: AnyCard

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock:
    """Knock (or go gin) discarding ``card`` face down.

    ``melds`` optionally names the knocker's arrangement; it must be one of least deadwood.
    Without it the engine lays down its own best arrangement.
    """

    card: Card
    melds: tuple[Meld, ...] | None = None

    def __str__(self) -> str:
        if self.melds is None:
            return f"knock {self.card}"
        return f"knock {self.card}: " + " | ".join(str(m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class BigGin:
    """Big gin: all eleven cards melded after the draw, the hand ends with no discard."""

    def __str__(self) -> str:
        return "biggin"


@dataclass(frozen=True, slots=True)
class LayOff:
    """Lay ``card`` off onto meld number ``meld`` (1-based, in the order the melds were laid).

    ``end`` names the end of a run a wild goes to (Crazy Rummy); a natural card's end is implied.
    """

    card: AnyCard
    meld: int
    end: End | None = None

    def __str__(self) -> str:
        end = f" {self.end}" if self.end is not None else ""
        return f"layoff {self.card} {self.meld}{end}"


@dataclass(frozen=True, slots=True)
class Down:
    """Crazy Rummy: lay down the round's contract, meld by meld (each run written low to high).

    The melds are kept as written: a run's order fixes what each wild in it stands for.
    """

    melds: tuple[tuple[AnyCard, ...], ...]

    def __str__(self) -> str:
        return "down " + " | ".join(" ".join(str(c) for c in m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class Swap:
    """Crazy Rummy: put natural ``card`` in place of the wild standing for it in run ``meld``."""

    card: Card
    meld: int

    def __str__(self) -> str:
        return f"swap {self.card} {self.meld}"


@dataclass(frozen=True, slots=True)
class NewMeld:
    """Lay down a new meld from the hand (Basic Rummy). The cards are kept in index order."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=lambda c: c.index)))

    def __str__(self) -> str:
        return "meld " + " ".join(c.text for c in self.cards)


@dataclass(frozen=True, slots=True)
class Done:
    """Finish laying off (the defender after a knock)."""

    def __str__(self) -> str:
        return "done"


Action: TypeAlias = (
    Draw | Take | Pass | Discard | Knock | BigGin | LayOff | Done | NewMeld | Down | Buy | Swap
)
"""Any action of any game."""

UNDOABLE: tuple[type[Action], ...] = (Take, NewMeld, LayOff, Down, Swap)
"""The moves a player may fairly take back while the turn is still theirs (the web app and the
terminal game allow it to a person playing alone against the computer): none shows the player
a hidden card. Only such a move that left the turn with them can be taken back (Crazy Rummy's
dealer taking the up-card passes the turn: it stays). A draw from the stock shows a card (a buy
its penalty card), and a discard, a pass, a knock or ``done`` passes the turn on, so none of
those is among them."""


def _itself(action: Action, memo: object) -> Action:
    return action


# Actions are values that never change (frozen, holding only cards, numbers and tuples), so a deep
# copy of a game state, whose history lists them, may share them as it shares cards.
for _kind in (Draw, Take, Pass, Discard, Knock, BigGin, LayOff, Done, NewMeld, Down, Buy, Swap):
    setattr(_kind, "__deepcopy__", _itself)  # noqa: B010 - a method on every action class
    setattr(_kind, "__copy__", lambda action: action)  # noqa: B010

_BARE: dict[str, Action] = {
    "draw": Draw(),
    "take": Take(),
    "pass": Pass(),
    "biggin": BigGin(),
    "done": Done(),
    "buy": Buy(),
}


def _one_card(verb: str, args: list[str]) -> AnyCard:
    if len(args) != 1:
        raise ActionSyntaxError(f"'{verb}' takes exactly one card, e.g. '{verb} KD'")
    return parse_card(args[0])


def _meld_number(text: str) -> int:
    # ASCII digits only ("²" is a digit to str.isdigit), and few: no table has 10**6 melds.
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or int(text) < 1:
        raise ActionSyntaxError(f"meld number must be a whole number from 1, not {shown(text, 13)}")
    return int(text)


def parse_action(text: str) -> Action:
    """Parse one action from its notation; raises :class:`ActionSyntaxError` naming the problem."""
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action is a string, not {type(text).__name__}")
    head, colon, tail = text.strip().partition(":")
    words = head.split()
    if not words:
        raise ActionSyntaxError("empty action")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb in _BARE:
            if args or colon:
                raise ActionSyntaxError(f"'{verb}' takes no arguments")
            return _BARE[verb]
        if colon and verb != "knock":
            raise ActionSyntaxError(f"unexpected ':' in {shown(text, 40)}")
        if verb == "discard":
            return Discard(_one_card(verb, args))
        if verb == "knock":
            card = parse_natural_cards(args)[0] if len(args) == 1 else None
            if card is None:
                raise ActionSyntaxError("'knock' takes exactly one card, e.g. 'knock 9S'")
            if not colon:
                return Knock(card)
            if not tail.strip():  # (a knock naming an arrangement with no meld: "knock 3H: ")
                return Knock(card, ())
            groups = tail.split("|")
            if any(not g.strip() for g in groups):
                raise ActionSyntaxError("empty meld in knock (write melds separated by '|')")
            return Knock(card, tuple(Meld.parse(g) for g in groups))
        if verb == "meld":
            if not args:
                raise ActionSyntaxError("'meld' takes the cards of the meld, e.g. 'meld 7S 7D 7C'")
            cards = parse_natural_cards(args)
            if len(set(cards)) != len(cards):
                raise ActionSyntaxError("a meld cannot hold the same card twice")
            return NewMeld(cards)
        if verb == "layoff":
            if len(args) not in (2, 3):
                raise ActionSyntaxError(
                    "'layoff' takes a card, a meld number and for a wild the end: "
                    "'layoff 7H 2', 'layoff X 3 high'"
                )
            end = args[2].lower() if len(args) == 3 else None
            if end not in (None, "low", "high"):
                raise ActionSyntaxError(
                    f"the end of a run is 'low' or 'high', not {shown(args[2])}"
                )
            return LayOff(parse_card(args[0]), _meld_number(args[1]), end)  # type: ignore[arg-type]
        if verb == "down":
            groups = " ".join(args).split("|")
            if not args or any(not g.strip() for g in groups):
                raise ActionSyntaxError(
                    "'down' takes the contract's melds separated by '|', e.g. 'down 9C 9D 9S | 5H X 7H 8H'"
                )
            return Down(tuple(parse_cards(g) for g in groups))
        if verb == "swap":
            if len(args) != 2:
                raise ActionSyntaxError(
                    "'swap' takes a natural card and a meld number: 'swap 7H 3'"
                )
            natural = parse_card(args[0])
            if not isinstance(natural, Card):
                raise ActionSyntaxError(
                    "'swap' takes the natural card a wild stands for, not a joker: 'swap 7H 3'"
                )
            return Swap(natural, _meld_number(args[1]))
    except (CardError, MeldError) as exc:
        raise ActionSyntaxError(f"{shown(text.strip(), 40)}: {exc}") from None
    raise ActionSyntaxError(
        f"unknown action {shown(words[0])} (expected draw, take, pass, buy, discard, meld, down, layoff, swap, knock, biggin, done)"
    )
