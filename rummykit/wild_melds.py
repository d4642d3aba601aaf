"""Melds with wild cards (Crazy Rummy): books and runs, each wild with a fixed identity.

A **book** is 3 or more cards of one rank (two packs: ``4H 4H 4S`` is a book). A **run** is 4 or
more cards of one suit in sequence, at most 13 long, the ace high or low but never both, never
wrapping. **Wilds** are all 2s and jokers: at most ``max_wilds_run`` in a run and
``max_wilds_book`` in a book, never more wilds than natural cards. In a book every 2 is wild; in a
run, a 2 of the run's suit in the 2's own place (``AH 2H 3H 4H``) is natural there.

A run is written low to high and each wild's position fixes the card it stands for: in
``5H X 2C 8H`` the joker stands for ``6H`` and ``2C`` for ``7H``, for good. Positions are numbered
1 (ace low), 2-13 (two to king) and 14 (ace high); a run occupies consecutive positions.

>>> from rummykit.cards import JOKER, Card
>>> run = parse_meld("5H X 2C 8H")
>>> run, run.wild_count, [str(c) for c in run.stands_for]
(Run.parse('5H X 2C 8H'), 2, ['5H', '6H', '7H', '8H'])
>>> run.extended_by(JOKER, "high") is None          # a third wild is too many
True
>>> str(run.extended_by(Card.parse("9H")))
'5H X 2C 8H 9H'
>>> new_run, freed = run.swap(Card.parse("6H"))
>>> str(new_run), freed
('5H 6H 2C 8H', JOKER)
>>> book = parse_meld("4H 4H 4S X")
>>> book, book.points, book.swap(Card.parse("4C"))
(Book.parse('4H 4H 4S X'), 35, None)
>>> str(parse_meld("AH 2H 3H 4H").stands_for[-1]), parse_meld("AH 2H 3H 4H").wild_count
('4H', 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, Literal, TypeAlias

from rummykit.cards import AnyCard, Card, Joker, Rank, Suit, format_cards, parse_cards
from rummykit.melds import MeldError

__all__ = [
    "ACE_HIGH",
    "DEFAULT_RULES",
    "MAX_RUN",
    "Book",
    "End",
    "MeldError",
    "Run",
    "WildMeld",
    "WildRules",
    "crazy_points",
    "hand_points",
    "is_wild",
    "parse_meld",
    "position_card",
]

End: TypeAlias = Literal["low", "high"]
"""The end of a run a card is laid off at."""

ACE_HIGH: Final = 14
"""The position of an ace above the king."""

MAX_RUN: Final = 13
"""The longest run: 13 positions (the ace can be at one end only)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WildRules:
    """The meld limits of Crazy Rummy, validated.

    ``max_wilds_run`` / ``max_wilds_book``: the most wilds in one run / book (any meld also never
    has more wilds than natural cards); ``min_book`` / ``min_run``: the fewest cards in a book / run.
    """

    max_wilds_run: int = 2
    max_wilds_book: int = 1
    min_book: int = 3
    min_run: int = 4

    def __post_init__(self) -> None:
        if self.max_wilds_run < 0 or self.max_wilds_book < 0:
            raise ValueError("the wild limits cannot be negative")
        if self.min_book < 3:
            raise ValueError("a book has at least 3 cards (min_book >= 3)")
        if not 3 <= self.min_run <= MAX_RUN:
            raise ValueError(f"min_run must be between 3 and {MAX_RUN}")


DEFAULT_RULES: Final = WildRules()
"""The usual limits: 2 wilds a run, 1 a book, books of 3+, runs of 4+."""


def is_wild(card: AnyCard) -> bool:
    """True for a joker or any 2 (a 2 may still be natural in its own place in a run)."""
    return isinstance(card, Joker) or card.number == 2


_POINTS_BY_NUMBER: Final = (0, 15, 20, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10)


def crazy_points(card: AnyCard) -> int:
    """What the card costs left in a hand: A 15, 9-K 10, 3-8 5, 2 and joker 20.

    >>> [crazy_points(c) for c in parse_cards("AS 2S 3S 8S 9S KS X")]
    [15, 20, 5, 5, 10, 10, 20]
    """
    if isinstance(card, Joker):
        return 20
    return _POINTS_BY_NUMBER[card.number]


def hand_points(cards: Iterable[AnyCard]) -> int:
    """The total of :func:`crazy_points` over the cards."""
    return sum(crazy_points(c) for c in cards)


def position_card(position: int, suit: Suit) -> Card:
    """The natural card at a run position (1 or 14: the ace; 2-13: that rank) of the suit."""
    if not 1 <= position <= ACE_HIGH:
        raise ValueError(f"no run position {position} (positions are 1 to 14)")
    return Card(Rank.from_number(1 if position == ACE_HIGH else position), suit)


def _sort_key(card: AnyCard) -> int:
    return card.sort_key


def _run_error(text: str, cards: tuple[AnyCard, ...], rules: WildRules, reason: str) -> MeldError:
    """Why ``cards`` make no run; when they are natural cards of one suit that make a run once
    put in order (the ace low, or high after the king), that order instead of ``reason``."""
    naturals = [c for c in cards if isinstance(c, Card)]
    if len(naturals) == len(cards) and len({c.suit for c in naturals}) == 1:
        low_first = sorted(naturals, key=lambda c: c.number)
        ace_high = sorted(naturals, key=lambda c: ACE_HIGH if c.number == 1 else c.number)
        for order in (low_first, ace_high):
            if order != naturals and _in_sequence(order):
                return MeldError(
                    f"{text}: write a run from its low card up, e.g. {format_cards(order)}"
                )
    return MeldError(f"{text}: {reason}")


def _in_sequence(cards: list[Card]) -> bool:
    """True if these natural cards (of one suit, of a run's length) make a run written in this
    order, each natural in its place: an ace first is low, an ace last high."""
    places = [c.number for c in cards]
    if places[-1] == 1:
        places[-1] = ACE_HIGH
    return all(b == a + 1 for a, b in pairwise(places))


def _is_run_natural(card: AnyCard, suit: Suit, position: int) -> bool:
    """True if the card is a natural card at this position of a run of the suit."""
    if isinstance(card, Joker) or card.suit is not suit:
        return False
    number = card.number
    if number == 1:
        return position in (1, ACE_HIGH)
    return number == position


# --------------------------------------------------------------------------------------------------
# Books
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Book:
    """A valid book: its rank and its cards, naturals by suit first, then wilds (2s, then jokers).

    Build one with :meth:`of` or :meth:`parse`, which validate; the constructor does not.
    """

    rank: Rank
    cards: tuple[AnyCard, ...]

    @classmethod
    def of(cls, cards: Iterable[AnyCard], rules: WildRules = DEFAULT_RULES) -> Book:
        """The book these cards form, or :class:`MeldError` saying why they form none.

        >>> Book.of(parse_cards("9S 2C 9D"))
        Book.parse('9D 9S 2C')
        >>> Book.of(parse_cards("9S 2C X 9D"))
        Traceback (most recent call last):
        ...
        rummykit.melds.MeldError: 9S 2C X 9D: too many wilds in a book (2; at most 1)
        """
        cs = tuple(cards)
        text = format_cards(cs) or "nothing"
        if len(cs) < rules.min_book:
            raise MeldError(f"{text}: a book needs at least {rules.min_book} cards")
        naturals = sorted((c for c in cs if not is_wild(c)), key=_sort_key)
        wilds = sorted((c for c in cs if is_wild(c)), key=_sort_key)
        if not naturals:
            raise MeldError(f"{text}: a book needs natural cards (every 2 is wild in a book)")
        rank = naturals[0].rank  # type: ignore[union-attr]
        if any(c.rank is not rank for c in naturals):  # type: ignore[union-attr]
            raise MeldError(f"{text}: the natural cards of a book must all be one rank")
        _check_wilds(text, len(wilds), len(naturals), rules.max_wilds_book, "book")
        return cls(rank, (*naturals, *wilds))

    @classmethod
    def parse(cls, text: str, rules: WildRules = DEFAULT_RULES) -> Book:
        """The book written as cards separated by spaces, e.g. ``Book.parse('7S 7D X')``."""
        return cls.of(parse_cards(text), rules)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Book.parse('{self}')"

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def naturals(self) -> tuple[Card, ...]:
        """The natural cards (every 2 in a book is wild)."""
        return tuple(c for c in self.cards if not is_wild(c))  # type: ignore[misc]

    @property
    def wilds(self) -> tuple[AnyCard, ...]:
        """The wild cards (2s and jokers)."""
        return tuple(c for c in self.cards if is_wild(c))

    @property
    def wild_count(self) -> int:
        """How many wilds the book holds."""
        return sum(1 for c in self.cards if is_wild(c))

    @property
    def points(self) -> int:
        """The total :func:`crazy_points` of the cards."""
        return hand_points(self.cards)

    def extended_by(self, card: AnyCard, rules: WildRules = DEFAULT_RULES) -> Book | None:
        """This book with ``card`` laid off onto it, or None if that would break a rule.

        >>> from rummykit.cards import JOKER
        >>> book = Book.parse("7S 7D 7C")
        >>> book.extended_by(Card.parse("7S")), book.extended_by(Card.parse("8S"))
        (Book.parse('7C 7D 7S 7S'), None)
        >>> book.extended_by(JOKER).extended_by(JOKER) is None
        True
        """
        if is_wild(card):
            wilds = self.wild_count + 1
            if wilds > rules.max_wilds_book or wilds > len(self.cards) + 1 - wilds:
                return None
        elif card.rank is not self.rank:  # type: ignore[union-attr]
            return None
        naturals = sorted((*self.naturals, *([] if is_wild(card) else [card])), key=_sort_key)
        wild_cards = sorted((*self.wilds, *([card] if is_wild(card) else [])), key=_sort_key)
        return Book(self.rank, (*naturals, *wild_cards))

    def accepts(self, card: AnyCard, rules: WildRules = DEFAULT_RULES) -> bool:
        """True if ``card`` can be laid off onto this book."""
        return self.extended_by(card, rules) is not None

    def swap(
        self, natural_card: AnyCard, rules: WildRules = DEFAULT_RULES
    ) -> tuple[Book, AnyCard] | None:
        """Always None: a wild in a book can never be taken (only runs allow swaps).

        The signature matches :meth:`Run.swap`, so any meld can be asked.
        """
        return None


# --------------------------------------------------------------------------------------------------
# Runs
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """A valid run: its suit, the position of its first card and its cards low to high.

    ``low`` is 1 when the run starts with an ace low, 2-10 otherwise; the run covers positions
    ``low`` to ``high`` (14 being the ace high). A card at a position is natural there if it is that
    position's card of the run's suit (the 2 of the suit at position 2 included); any other card
    is a wild standing for that position's card. Build one with :meth:`of` or :meth:`parse`, which
    validate; the constructor does not.
    """

    suit: Suit
    low: int
    cards: tuple[AnyCard, ...]

    @classmethod
    def of(cls, cards: Iterable[AnyCard], rules: WildRules = DEFAULT_RULES) -> Run:
        """The run these cards form, written low to high, or :class:`MeldError` saying why not.

        Each wild stands for the card of its position. Reasons: too short, longer than 13, no
        natural card, mixed suits, a card out of sequence (a gap, or two cards for one place),
        going past the ace (no wrapping), too many wilds, more wilds than naturals.

        >>> Run.of(parse_cards("X JH QH KH"))
        Run.parse('X JH QH KH')
        >>> Run.of(parse_cards("JH QH KH X")).stands_for[-1]
        Card.parse('AH')
        >>> Run.of(parse_cards("QH KH AH 2H"))
        Traceback (most recent call last):
        ...
        rummykit.melds.MeldError: QH KH AH 2H: a run cannot go on past the ace (runs do not wrap)
        >>> Run.of(parse_cards("X KH X JH"))
        Traceback (most recent call last):
        ...
        rummykit.melds.MeldError: X KH X JH: write a run from its low card up, e.g. JH X KH X
        """
        cs = tuple(cards)
        n = len(cs)
        text = format_cards(cs) or "nothing"
        if n < rules.min_run:
            raise MeldError(f"{text}: a run needs at least {rules.min_run} cards")
        if n > MAX_RUN:
            raise MeldError(f"{text}: a run is at most {MAX_RUN} cards long")
        anchors = [(i, c) for i, c in enumerate(cs) if isinstance(c, Card) and c.number != 2]
        if not anchors:
            raise MeldError(f"{text}: a run needs natural cards other than 2s")
        suit = anchors[0][1].suit
        if any(c.suit is not suit for _, c in anchors):
            raise MeldError(f"{text}: the natural cards of a run must all be one suit")
        non_aces = [(i, c) for i, c in anchors if c.number != 1]
        # Written high to low (the naturals fall by exactly their distance), and a run the other
        # way round: say how to write it.
        if len(non_aces) >= 2 and len({c.number + i for i, c in non_aces}) == 1:
            try:
                cls.of(cs[::-1], rules)
            except MeldError:
                pass
            else:
                # (natural cards that run without a wild once sorted are told that order)
                raise _run_error(
                    text,
                    cs,
                    rules,
                    f"write a run from its low card up, e.g. {format_cards(cs[::-1])}",
                )
        if non_aces:
            i, c = non_aces[0]
            low = c.number - i
        else:
            i = anchors[0][0]
            fits = [p - i for p in (1, ACE_HIGH) if p - i >= 1 and p - i + n - 1 <= ACE_HIGH]
            if not fits:
                raise _run_error(
                    text, cs, rules, "a run cannot go on past the ace (runs do not wrap)"
                )
            low = fits[0]
        if low < 1:
            raise _run_error(text, cs, rules, "a run cannot go on below the ace (runs do not wrap)")
        if low + n - 1 > ACE_HIGH:
            raise _run_error(text, cs, rules, "a run cannot go on past the ace (runs do not wrap)")
        seen: set[int] = set()
        for i, c in anchors:
            if c.number in seen:
                raise MeldError(f"{text}: two cards for one place ({c} twice)")
            seen.add(c.number)
            if not _is_run_natural(c, suit, low + i):
                raise _run_error(
                    text, cs, rules, f"{c} is out of sequence (write a wild for a missing card)"
                )
        run = cls(suit, low, cs)
        _check_wilds(text, run.wild_count, n - run.wild_count, rules.max_wilds_run, "run")
        return run

    @classmethod
    def parse(cls, text: str, rules: WildRules = DEFAULT_RULES) -> Run:
        """The run written low to high, e.g. ``Run.parse('5H X 2C 8H')``."""
        return cls.of(parse_cards(text), rules)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Run.parse('{self}')"

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def high(self) -> int:
        """The position of the last card (14 for an ace high)."""
        return self.low + len(self.cards) - 1

    @property
    def stands_for(self) -> tuple[Card, ...]:
        """Per position, low to high, the natural card that is there or that the wild stands for."""
        return tuple(position_card(p, self.suit) for p in range(self.low, self.high + 1))

    @property
    def placements(self) -> tuple[tuple[AnyCard, Card], ...]:
        """Per position, low to high: (the card placed, the card it is or stands for)."""
        return tuple(zip(self.cards, self.stands_for, strict=True))

    def is_wild_at(self, index: int) -> bool:
        """True if the card at this index (0 = lowest) is a wild there."""
        return not _is_run_natural(self.cards[index], self.suit, self.low + index)

    @property
    def wild_count(self) -> int:
        """How many wilds the run holds (a 2 of the suit in its own place is not one)."""
        low, suit = self.low, self.suit
        return sum(1 for i, c in enumerate(self.cards) if not _is_run_natural(c, suit, low + i))

    @property
    def naturals(self) -> tuple[Card, ...]:
        """The cards that are natural in their places, low to high."""
        low, suit = self.low, self.suit
        return tuple(
            c  # type: ignore[misc]
            for i, c in enumerate(self.cards)
            if _is_run_natural(c, suit, low + i)
        )

    @property
    def wilds(self) -> tuple[AnyCard, ...]:
        """The cards that are wilds in their places, low to high."""
        low, suit = self.low, self.suit
        return tuple(c for i, c in enumerate(self.cards) if not _is_run_natural(c, suit, low + i))

    @property
    def points(self) -> int:
        """The total :func:`crazy_points` of the cards."""
        return hand_points(self.cards)

    def extended_by(
        self, card: AnyCard, end: End | None = None, rules: WildRules = DEFAULT_RULES
    ) -> Run | None:
        """This run with ``card`` laid off at an end, or None if that is not allowed.

        A natural card goes where it belongs (``end`` may be given; it must then match); an ace
        that fits at both ends of a 2-K run goes low unless ``end`` says otherwise. A wild must
        name its ``end`` (None is refused) and stands for the card one past that end. A 2 of the
        run's suit laid off below a run starting at 3 is natural there (unless ``end`` is
        "high"). Refused: past the ace, longer than 13, or beyond the wild limits.

        >>> from rummykit.cards import JOKER
        >>> run = Run.parse("5H 6H 7H 8H")
        >>> str(run.extended_by(JOKER, "low")), run.extended_by(JOKER) is None
        ('X 5H 6H 7H 8H', True)
        >>> run.extended_by(Card.parse("9H"), "low") is None
        True
        """
        if end not in (None, "low", "high"):
            raise ValueError(f"end must be 'low', 'high' or None, not {end!r}")
        if len(self.cards) >= MAX_RUN:
            return None
        low, high = self.low, self.high
        if isinstance(card, Card) and card.suit is self.suit and card.number != 2:
            options: list[tuple[End, int]] = []
            for position in (1, ACE_HIGH) if card.number == 1 else (card.number,):
                if position == low - 1:
                    options.append(("low", position))
                if position == high + 1:
                    options.append(("high", position))
            options = [o for o in options if end is None or o[0] == end]
            if not options:
                return None
            return self._placed(card, options[0][0])
        if (
            isinstance(card, Card)
            and card.suit is self.suit
            and card.number == 2
            and low == 3
            and end != "high"
        ):
            return self._placed(card, "low")
        if not is_wild(card) or end is None:
            return None
        if (end == "low" and low == 1) or (end == "high" and high == ACE_HIGH):
            return None
        wilds = self.wild_count + 1
        if wilds > rules.max_wilds_run or wilds > len(self.cards) + 1 - wilds:
            return None
        return self._placed(card, end)

    def _placed(self, card: AnyCard, end: End) -> Run:
        if end == "low":
            return Run(self.suit, self.low - 1, (card, *self.cards))
        return Run(self.suit, self.low, (*self.cards, card))

    def layoff_ends(self, card: AnyCard, rules: WildRules = DEFAULT_RULES) -> tuple[End, ...]:
        """The ends at which ``card`` can be laid off (for a natural card, at most one is its own).

        >>> from rummykit.cards import JOKER
        >>> Run.parse("5H 6H 7H 8H").layoff_ends(JOKER), Run.parse("JH QH KH AH").layoff_ends(JOKER)
        (('low', 'high'), ('low',))
        >>> Run.parse("2H 3H 4H 5H").layoff_ends(Card.parse("AH"))
        ('low',)
        """
        ends: tuple[End, ...] = ("low", "high")
        return tuple(e for e in ends if self.extended_by(card, e, rules) is not None)

    def swap(
        self, natural_card: AnyCard, rules: WildRules = DEFAULT_RULES
    ) -> tuple[Run, AnyCard] | None:
        """Replace the wild standing for ``natural_card`` by it: (the new run, the freed wild).

        None if no wild in the run stands for exactly that card (a 2 of the suit in its own place
        is natural and cannot be swapped out).

        >>> Run.parse("AH 2H 3H X").swap(Card.parse("2H")) is None
        True
        >>> Run.parse("AH 2H 3H X").swap(Card.parse("4H"))
        (Run.parse('AH 2H 3H 4H'), JOKER)
        """
        if not isinstance(natural_card, Card) or natural_card.suit is not self.suit:
            return None
        for i, (placed, stands) in enumerate(self.placements):
            if stands is natural_card and self.is_wild_at(i):
                cards = (*self.cards[:i], natural_card, *self.cards[i + 1 :])
                return Run(self.suit, self.low, cards), placed
        return None


WildMeld: TypeAlias = Book | Run
"""A Crazy Rummy meld."""


def _check_wilds(text: str, wilds: int, naturals: int, limit: int, kind: str) -> None:
    if wilds > limit:
        raise MeldError(f"{text}: too many wilds in a {kind} ({wilds}; at most {limit})")
    if wilds > naturals:
        raise MeldError(
            f"{text}: more wilds than natural cards ({wilds} wilds, {naturals} natural)"
        )


def parse_meld(text: str, rules: WildRules = DEFAULT_RULES) -> Book | Run:
    """Read a meld, deciding book or run from the cards (a run written low to high).

    The text is first read as a book when at least two of its cards other than 2s and jokers are
    natural and all those share one rank, otherwise as a run. If that reading is not a valid meld
    but the other one is, the other is taken: so ``2H 3H X X`` (one natural of its own rank, but the
    2 is natural in its place) is a run. The two readings can never both be valid, because a valid
    book has two naturals of one rank, which no run has (the ace cannot be at both ends). When
    neither is valid, the error of the first reading is raised.

    >>> parse_meld("9C 9D 9S"), parse_meld("2H 3H X X")
    (Book.parse('9C 9D 9S'), Run.parse('2H 3H X X'))
    >>> parse_meld("X 2C 5H")
    Traceback (most recent call last):
    ...
    rummykit.melds.MeldError: X 2C 5H: a run needs at least 4 cards
    """
    cards = parse_cards(text)
    naturals = [c for c in cards if not is_wild(c)]
    as_book = len(naturals) >= 2 and len({c.rank for c in naturals}) == 1  # type: ignore[union-attr]
    readers = (Book.of, Run.of) if as_book else (Run.of, Book.of)
    try:
        return readers[0](cards, rules)
    except MeldError as first:
        try:
            return readers[1](cards, rules)
        except MeldError:
            raise first from None
