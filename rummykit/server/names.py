"""Seat names a person gives: what is accepted, and why another is refused (in one word the
page turns into a sentence of its language)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

__all__ = ["MAX_NAME", "BadName", "NameTaken", "clean_name", "same_name"]

MAX_NAME = 24
"""The longest name a person may give their seat (in characters)."""


def _hidden_char(ch: str) -> bool:
    """A character that is not shown as itself: controls, unassigned or private code points and
    format characters (such as the right-to-left override, which could disguise a name), except
    the joiners and tags that compose emoji (👨‍👩‍👧, flags)."""
    category = unicodedata.category(ch)
    if category != "Cf":
        return category.startswith("C")
    return not (ch in "\u200c\u200d" or "\U000e0020" <= ch <= "\U000e007f")


class BadName(ValueError):
    """A name a person gave that cannot name a seat: the message says why, and ``why`` names
    the reason in one word for the page, which says it in the person's language (``name.<why>``
    in its catalogues): text, hidden, long, blank, accents, reserved, dot or taken."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


RESERVED_NAMES = re.compile(
    r"(you|computer|computer \d+|computer for .*|player \d+"
    r"|bạn|máy|máy \d+|máy chơi thay .*|người chơi \d+"
    r"|(computer|máy)\W*(random moves|easy|medium|hard|đánh bừa.*|dễ|trung bình|khó))"
)
"""Names the page gives seats itself, in English and Vietnamese (``seat.*`` in the page's
catalogues), and a computer's name with its level ("Computer Easy", "Máy Dễ": the page shows
"Máy · Dễ"): a person named "You" or "Computer" would read on the others' pages as one of them,
or as a computer."""


def clean_name(value: Any) -> str | None:
    """A seat name as given by a person: trimmed, inner spaces collapsed, at most ``MAX_NAME``
    characters, no control characters, none of the words the page names seats with
    (:data:`RESERVED_NAMES`, in any case); None for no name. Anything else raises
    :class:`BadName`.

    >>> clean_name("  Lan   Anh ")
    'Lan Anh'
    >>> clean_name("") is None
    True
    >>> clean_name("Lan \U0001f468\u200d\U0001f469\u200d\U0001f467")  # an emoji family: joiners
    'Lan 👨\u200d👩\u200d👧'
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadName("a name is text", "text")
    name = " ".join(value.split())
    if any(_hidden_char(ch) for ch in name):
        raise BadName("a name may not hold control characters", "hidden")
    if len(name) > MAX_NAME:
        raise BadName(f"a name is at most {MAX_NAME} characters", "long")
    if name and not any(_visible(ch) for ch in name):
        raise BadName("a name needs a letter, digit or sign that shows", "blank")
    marks = 0
    for ch in name:
        marks = marks + 1 if unicodedata.category(ch) == "Mn" else 0  # (Mc takes its own room)
        if marks > MAX_MARKS:  # stacked accents draw over the lines around the name
            raise BadName(f"a name puts at most {MAX_MARKS} accents on one letter", "accents")
    if RESERVED_NAMES.fullmatch(unicodedata.normalize("NFC", name).casefold()):
        raise BadName(
            f"{name!r} is what the page calls a seat (You, Computer, Player 2...): choose another name",
            "reserved",
        )
    if LABEL_DOT.search(name):
        # "Máy · Dễ" or "Lan · not connected" would read as the page's own label of a seat.
        raise BadName(
            f"{name!r}: a dot between spaces is how the page adds a seat's level or state to its"
            " name: choose another name",
            "dot",
        )
    return name or None


LABEL_DOT = re.compile(
    r"\s[\u00b7\u2022\u2027\u2219\u22c5\u30fb]|[\u00b7\u2022\u2027\u2219\u22c5\u30fb]\s"
)
"""A middle dot (or a look-alike) beside a space: the page writes "name · level" and "name · not
connected". A dot inside a word (the Catalan "l·l") is fine."""


class NameTaken(BadName):
    """A name another seat at the table already has (two "An"s cannot be told apart)."""


def same_name(a: str, b: str) -> bool:
    """Whether two seat names read the same (case, and composed or decomposed accents, aside)."""
    return unicodedata.normalize("NFC", a).casefold() == unicodedata.normalize("NFC", b).casefold()


MAX_MARKS = 3
"""The most combining marks in a row in a name (Vietnamese written with combining accents
needs 2: e, dot below, circumflex)."""

_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters (and the Braille blank) that show as nothing."""


def _visible(ch: str) -> bool:
    """A character that shows something: a letter, digit, punctuation or symbol, not blank."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LETTERS
