"""Hints a person can read, in English and Vietnamese: the action and the reasons behind it.

A player's :meth:`~rummykit.players.base.Player.suggest` returns a :class:`Suggestion`: the action
and a :class:`Reason`, a short list of phrases. Each phrase is a catalogue key with parameters,
never finished text, so the same hint reads well in either language; ``str()`` gives English.

Every phrase is worded in the ``hints`` section of rummykit's catalogues (:mod:`rummykit.texts`),
keys namespaced by game (``gin.highest``); the tests check that both languages use the same
placeholders. Cards given as parameters are shown the way the page shows them (``10♥``, ``K♦``,
``🃏``); a list of cards joins with spaces.

>>> from rummykit.actions import Discard
>>> from rummykit.cards import Card
>>> hint = Suggestion(Discard(Card.parse("KD")), because("highest_loose").also("deadwood_left", count=12))
>>> str(hint)
'discard K♦: highest card, no meld nearby; 12 deadwood left'
>>> hint.text("vi")
'bỏ K♦: lá cao nhất, không gần bộ nào; còn 12 điểm bài rác'
>>> action, reason = hint  # a suggestion unpacks like a pair
>>> reason.to_list()
[{'key': 'highest_loose', 'params': {}}, {'key': 'deadwood_left', 'params': {'count': 12}}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, TypeAlias, cast

from rummykit.actions import (
    Action,
    BigGin,
    Buy,
    Discard,
    Done,
    Down,
    Draw,
    Knock,
    LayOff,
    NewMeld,
    Pass,
    Swap,
    Take,
)
from rummykit.cards import AnyCard, Card, Joker
from rummykit.texts import LANGUAGES, Language, section

__all__ = [
    "LANGUAGES",
    "Language",
    "Param",
    "Phrase",
    "Reason",
    "Suggestion",
    "action_phrase",
    "because",
    "card_text",
    "discard_reason",
]

Param: TypeAlias = "str | int | AnyCard | Sequence[AnyCard] | Sequence[Sequence[AnyCard]]"
"""A phrase parameter: a number, a word, a card or a list of cards."""


def card_text(card: AnyCard, *, typed: bool = False) -> str:
    """A card as the page shows it: ``10♥``, ``K♦``, ``🃏``; ``typed``: as it is typed, ``TH``,
    ``KD``, ``X`` (the terminal's way, so that one screen names cards one way)."""
    if typed:
        return str(card)
    if isinstance(card, Card):
        return ("10" if card.rank.value == "T" else card.rank.value) + card.suit.symbol
    return card.symbol


def _param_text(value: Param, typed: bool = False) -> str:
    if isinstance(value, (str, int)):
        return str(value)
    if isinstance(value, (Card, Joker)):
        return card_text(value, typed=typed)
    if value and not isinstance(value[0], (Card, Joker)):  # melds apart: "4♣ 4♦ 2♦ + 8♣ 8♦ 2♠"
        return " + ".join(
            _param_text(tuple(cast(Sequence[AnyCard], group)), typed) for group in value
        )
    return " ".join(card_text(cast(AnyCard, c), typed=typed) for c in value)


def _param_json(value: Param) -> str | int:
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, (Card, Joker)):
        return str(value)
    if value and not isinstance(value[0], (Card, Joker)):  # (a lay-down's melds, as shown)
        return _param_text(value)
    return " ".join(str(c) for c in value)


@dataclass(frozen=True, slots=True)
class Phrase:
    """One catalogue key and its parameters."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    def text(self, lang: Language = "en", *, typed: bool = False) -> str:
        """The phrase in ``lang``, cards as the page shows them or, ``typed``, as they are typed
        (:func:`card_text`); raises ValueError for a language other than ``en`` and ``vi``,
        KeyError for a key missing from the catalogue."""
        if lang not in LANGUAGES:
            raise ValueError(f"hints are worded in 'en' and 'vi', not {lang!r}")
        template = section(lang, "hints").get(self.key)
        if not isinstance(template, str):
            raise KeyError(f"reason phrase {self.key!r} has no {lang} wording")
        return template.format(**{n: _param_text(v, typed) for n, v in self.params})

    def to_dict(self) -> dict[str, Any]:
        """``{"key": ..., "params": {...}}`` with cards as notation (``KD``)."""
        return {"key": self.key, "params": {n: _param_json(v) for n, v in self.params}}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is good: phrases read in order, joined with ``; ``."""

    phrases: tuple[Phrase, ...] = ()

    def also(self, key: str, **params: Param) -> Reason:
        """This reason with one more phrase."""
        return Reason((*self.phrases, Phrase(key, tuple(params.items()))))

    def __add__(self, other: Reason) -> Reason:
        return Reason(self.phrases + other.phrases)

    def __bool__(self) -> bool:
        return bool(self.phrases)

    def text(self, lang: Language = "en", *, typed: bool = False) -> str:
        """The reason in ``lang`` (``typed``: see :meth:`Phrase.text`)."""
        return "; ".join(p.text(lang, typed=typed) for p in self.phrases)

    def __str__(self) -> str:
        return self.text("en")

    @property
    def keys(self) -> tuple[str, ...]:
        """The phrase keys, in order (handy in tests)."""
        return tuple(p.key for p in self.phrases)

    def to_list(self) -> list[dict[str, Any]]:
        """The phrases as JSON data."""
        return [p.to_dict() for p in self.phrases]


def because(key: str, **params: Param) -> Reason:
    """A reason of one phrase; chain more with :meth:`Reason.also`."""
    return Reason((Phrase(key, tuple(params.items())),))


def _cards_of(action: Action) -> tuple[AnyCard, ...]:
    if isinstance(action, (Discard, Knock, LayOff, Swap)):
        return (action.card,)
    if isinstance(action, NewMeld):
        return tuple(action.cards)
    return ()


_ACTION_KEYS: Final[dict[type, str]] = {
    Draw: "act.draw",
    Take: "act.take",
    Pass: "act.pass",
    Buy: "act.buy",
    Discard: "act.discard",
    Knock: "act.knock",
    BigGin: "act.biggin",
    LayOff: "act.layoff",
    NewMeld: "act.meld",
    Down: "act.down",
    Swap: "act.swap",
    Done: "act.done",
}


def action_phrase(action: Action) -> Phrase:
    """The action as a phrase: ``discard K♦``, ``bỏ K♦``; a lay-down names its melds apart, a
    lay-off or a swap the table meld by its number.

    >>> from rummykit.actions import parse_action
    >>> action_phrase(parse_action("down 4C 4D 2D | 8C 8D 2S")).text("en")
    'lay down 4♣ 4♦ 2♦ + 8♣ 8♦ 2♠'
    >>> action_phrase(parse_action("layoff X 2 low")).text("vi")
    'gửi 🃏 vào bộ 2'
    """
    key = _ACTION_KEYS[type(action)]
    if isinstance(action, Down):  # each meld apart: "lay down 4♣ 4♦ 2♦ + 8♣ 8♦ 2♠"
        return Phrase(key, (("cards", action.melds),))
    if isinstance(action, (LayOff, Swap)):
        # the meld by its number on the table, as the page shows it
        return Phrase(key, (("cards", _cards_of(action)), ("meld", action.meld)))
    return Phrase(key, (("cards", _cards_of(action)),))


class Suggestion(NamedTuple):
    """A player's advice: the action and why. Unpacks as ``action, reason``."""

    action: Action
    reason: Reason

    def text(self, lang: Language = "en", *, typed: bool = False) -> str:
        """``"discard K♦: highest card, no meld nearby"`` in ``lang`` (``typed``: ``discard KD:
        ...``, see :meth:`Phrase.text`)."""
        head = action_phrase(self.action).text(lang, typed=typed)
        return f"{head}: {self.reason.text(lang, typed=typed)}" if self.reason else head

    def __str__(self) -> str:
        return self.text("en")

    def to_dict(self) -> dict[str, Any]:
        """The suggestion as sent to the page: the action, the phrases and the text per language."""
        return {
            "action": str(self.action),
            "reason": self.reason.to_list(),
            "text": {lang: self.text(lang) for lang in LANGUAGES},
        }


def discard_reason(card: Card, unmatched: Sequence[Card], loose: bool) -> Reason:
    """Why ``card`` is the one to throw, by where it stands in the hand's best arrangement
    (``unmatched``: its cards in no meld): the highest of those, with no meld nearby
    (``loose``) or not, a loose card, a card the melds can spare, or the weakest left."""
    highest = card in unmatched and card.points >= max(c.points for c in unmatched)
    if highest and loose:
        return because("highest_loose")
    if highest:
        return because("highest")
    if loose:
        return because("loose")
    if card not in unmatched:
        return because("spare")
    return because("weakest")
