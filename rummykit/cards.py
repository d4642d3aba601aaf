"""Cards as values: ranks, suits, jokers, packs, and their notation.

A card is written rank then suit: ``7H``, ``TC``, ``QS``, ``AD``. On input ``10C`` is accepted for
``TC``, suit symbols (``7♥``) for letters, and lower case for upper case. A joker is ``X``.

Every card is an interned value: ``Card.parse("7H") is Card.parse("7♥")``, so cards compare and hash
by identity, which is both correct and fast. Two-pack games hold hands as tuples (multisets), never
sets.

>>> c = Card.parse("10h")
>>> c, str(c), c.symbol, c.points
(Card.parse('TH'), 'TH', 'T♥', 10)
>>> [str(card) for card in parse_cards("AS 2s X")]
['AS', '2S', 'X']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import ClassVar, Final, TypeAlias

__all__ = [
    "JOKER",
    "STANDARD_PACK",
    "AnyCard",
    "Card",
    "CardError",
    "Joker",
    "Rank",
    "Suit",
    "cut",
    "double_pack",
    "format_cards",
    "parse_card",
    "parse_cards",
    "shown",
]


class CardError(ValueError):
    """A card token that is not valid notation; the message names the bad token."""


class Suit(StrEnum):
    """The four suits, in the order clubs, diamonds, hearts, spades."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def order(self) -> int:
        """0 for clubs up to 3 for spades."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(StrEnum):
    """The thirteen ranks, ace low first. ``Rank.TEN`` is written ``T``."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def number(self) -> int:
        """1 for the ace up to 13 for the king."""
        return _RANK_NUMBER[self]

    @classmethod
    def from_number(cls, number: int) -> Rank:
        """The rank with this number (1 = ace ... 13 = king)."""
        if not 1 <= number <= 13:
            raise ValueError(f"no rank has number {number}")
        return _RANKS[number - 1]


_SUITS: Final = tuple(Suit)
_RANKS: Final = tuple(Rank)
_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(_SUITS)}
_RANK_NUMBER: Final = {rank: i + 1 for i, rank in enumerate(_RANKS)}
_SUIT_SYMBOL: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Card:
    """A natural card: a rank and a suit. Instances are interned (one object per card).

    Attributes for fast code: ``number`` (1-13), ``suit_index`` (0-3), ``index`` (0-51, suit-major:
    ``suit_index * 13 + number - 1``), ``bit`` (``1 << index``) and ``points`` (the usual rummy value:
    ace 1, two to ten face value, court cards 10).
    """

    __slots__ = ("bit", "index", "number", "points", "rank", "suit", "suit_index", "text")

    rank: Rank
    suit: Suit
    number: int
    suit_index: int
    index: int
    bit: int
    points: int
    text: str
    """The notation, e.g. ``7H`` (the same as ``str(card)``)."""

    _cache: ClassVar[dict[tuple[Rank, Suit], Card]] = {}

    is_joker: ClassVar[bool] = False

    def __new__(cls, rank: Rank | str, suit: Suit | str) -> Card:
        try:
            key = (Rank(rank), Suit(suit))
        except ValueError:
            raise CardError(f"not a card: rank {rank!r}, suit {suit!r}") from None
        card = cls._cache.get(key)
        if card is None:
            card = object.__new__(cls)
            r, s = key
            object.__setattr__(card, "rank", r)
            object.__setattr__(card, "suit", s)
            object.__setattr__(card, "number", r.number)
            object.__setattr__(card, "suit_index", s.order)
            object.__setattr__(card, "index", s.order * 13 + r.number - 1)
            object.__setattr__(card, "bit", 1 << (s.order * 13 + r.number - 1))
            object.__setattr__(card, "points", min(r.number, 10))
            object.__setattr__(card, "text", r.value + s.value)
            cls._cache[key] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (Card, (self.rank.value, self.suit.value))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse('{self.text}')"

    def __lt__(self, other: AnyCard) -> bool:
        return self.sort_key < other.sort_key

    @property
    def sort_key(self) -> int:
        """Suit-major order (clubs, diamonds, hearts, spades; ace low), jokers last."""
        return self.index

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``7♥``."""
        return self.rank.value + self.suit.symbol

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this ``index`` (0-51)."""
        return _BY_INDEX[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one natural card; a joker or anything else raises :class:`CardError`."""
        card = parse_card(text)
        if not isinstance(card, Card):
            raise CardError(f"{text!r} is a joker, not a natural card")
        return card


class Joker:
    """The joker (``X``). There is one joker value; a two-pack game holds several of it."""

    __slots__ = ()
    _instance: ClassVar[Joker | None] = None

    is_joker: ClassVar[bool] = True
    sort_key: ClassVar[int] = 52
    index: ClassVar[int] = 52

    def __new__(cls) -> Joker:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (Joker, ())

    def __copy__(self) -> Joker:
        return self

    def __deepcopy__(self, memo: object) -> Joker:
        return self

    def __str__(self) -> str:
        return "X"

    def __repr__(self) -> str:
        return "JOKER"

    def __lt__(self, other: AnyCard) -> bool:
        return self.sort_key < other.sort_key

    @property
    def symbol(self) -> str:
        """The joker's display form."""
        return "🃏"

    @property
    def bit(self) -> int:
        """Never: a joker has no place in the 52-bit masks of Gin Rummy's solver. Raises a
        ValueError that says so (a plain AttributeError would not)."""
        raise ValueError(
            "a joker (X) has no place in a Gin Rummy hand: the solver takes natural cards"
        )


AnyCard: TypeAlias = Card | Joker
"""A natural card or a joker."""

JOKER: Final = Joker()

STANDARD_PACK: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for suit in _SUITS for rank in _RANKS
)
"""The 52 natural cards in index order (clubs A-K, diamonds, hearts, spades)."""

_BY_INDEX: Final = STANDARD_PACK


def double_pack(jokers: int = 4) -> tuple[AnyCard, ...]:
    """Two 52-card packs and ``jokers`` jokers, unshuffled (a multiset as a tuple)."""
    if jokers < 0:
        raise ValueError("the number of jokers cannot be negative")
    return STANDARD_PACK + STANDARD_PACK + (JOKER,) * jokers


_SUIT_ALIASES: Final = {
    "C": "C",
    "D": "D",
    "H": "H",
    "S": "S",
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
}
_SUIT_ALIASES_ALL: Final = {
    **_SUIT_ALIASES,
    "c": "C",
    "d": "D",
    "h": "H",
    "s": "S",
    "♧": "C",
    "♢": "D",
    "♡": "H",
    "♤": "S",
}
_RANK_ALIASES: Final = {r.value: r.value for r in _RANKS} | {
    "10": "T",
    "a": "A",
    "t": "T",
    "j": "J",
    "q": "Q",
    "k": "K",
}
_TOKEN_SPLIT: Final = re.compile(r"[\s,]+")
_PARSE_CACHE: dict[str, AnyCard] = {}


def cut(text: str, limit: int = 24) -> str:
    """``text`` cut to ``limit`` characters for an error message (input can be long).

    >>> cut("9" * 40, 12)
    '99999999999…'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(text: str, limit: int = 24) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters.

    >>> shown("7Z")
    "'7Z'"
    >>> shown("9" * 40)
    "'99999999999999999999999…'"
    """
    return repr(cut(text, limit))


def parse_card(text: str) -> AnyCard:
    """Parse one card token (``7H``, ``10c``, ``7♥``, ``X``), raising :class:`CardError` if bad."""
    cached = _PARSE_CACHE.get(text)
    if cached is not None:
        return cached
    token = text.strip()
    if token in ("X", "x", "🃏"):
        card: AnyCard = JOKER
    else:
        if len(token) < 2:
            raise CardError(f"not a card: {shown(text)} (write rank then suit, e.g. 7H, TC, X)")
        rank = _RANK_ALIASES.get(token[:-1])
        suit = _SUIT_ALIASES_ALL.get(token[-1])
        if rank is None or suit is None:
            raise CardError(f"not a card: {shown(text)} (write rank then suit, e.g. 7H, TC, X)")
        card = Card(rank, suit)
    if len(_PARSE_CACHE) < 4096:
        _PARSE_CACHE[text] = card
    return card


def parse_cards(text: str | Iterable[str]) -> tuple[AnyCard, ...]:
    """Parse cards separated by spaces or commas, or an iterable of card tokens."""
    if isinstance(text, str):
        tokens = [t for t in _TOKEN_SPLIT.split(text.strip()) if t]
    else:
        tokens = list(text)
    return tuple(parse_card(t) for t in tokens)


def parse_natural_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Like :func:`parse_cards`, but every card must be natural (no joker)."""
    cards = parse_cards(text)
    for card in cards:
        if not isinstance(card, Card):
            raise CardError("a joker (X) is not part of this game")
    return cards  # type: ignore[return-value]


def format_cards(cards: Iterable[AnyCard]) -> str:
    """The cards in notation, separated by single spaces."""
    return " ".join(str(c) for c in cards)
