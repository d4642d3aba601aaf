"""Review a hand: each decision one seat made, beside what a computer player would have done.

A beginner who played a hand on their own can look back at it the way a chess player looks at a
game review: at each of their decisions, the move they made, the move the ``hard`` player (or any
other level) would have made in their place, and its reason, in English or Vietnamese.

The advice sees exactly what the seat saw then (its own view of the hand, as
``state.view(seat)``), never the other hands or the stock, so a review of a finished hand shows
nothing the seat could not know. Decisions with one legal move (the defender's last ``done``, say)
are left out, and so are moves listed in ``skip`` (the server skips the ones the computer made
for a person who had left).

A decision is ``same`` when the seat did what the computer advises (a knock with the same card,
whatever arrangement it named; a Crazy Rummy lay-down of the same melds, in any order), ``as_good``
when it threw another card of the same value that, like the advised one, has no card of its rank
and no card of its suit within two ranks in the hand and (Basic Rummy) could not be laid off on
the table (Gin and Basic Rummy: the two discards leave equivalent hands), and ``different``
otherwise. A different move is not always a mistake: the computer can be wrong, and a person may
know things about their opponent that it does not.

>>> from rummykit.games.gin import Gin
>>> from rummykit.players import find_player
>>> state = Gin().new_hand(seed=3)
>>> players = [find_player("gin", "medium", seed) for seed in (1, 2)]
>>> while not state.is_over:
...     state.apply(players[state.to_act].choose(state.view(state.to_act)))
>>> review = review_hand(state, 0, level="medium")
>>> review.agreed == review.decisions  # medium played seat 0, so it agrees with itself
True
>>> review.steps[0].verdict
'same'
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias, cast

from rummykit.actions import Action, Discard, Down, Knock, LayOff
from rummykit.cards import AnyCard, Card
from rummykit.games.base import HandState
from rummykit.players import PLAYERS, UnknownPlayerError, find_player
from rummykit.players.reasons import (
    LANGUAGES,
    Language,
    Param,
    Suggestion,
    action_phrase,
    because,
)
from rummykit.record import hand_record, load_record

__all__ = ["REVIEW_LEVEL", "HandReview", "ReviewStep", "Verdict", "review_hand"]

Verdict: TypeAlias = Literal["same", "as_good", "different"]

REVIEW_LEVEL: Final = "hard"
"""The level whose advice a review shows unless told otherwise: the strongest."""


def _text(key: str, lang: Language, **params: Param) -> str:
    return because(key, **params).text(lang)


def _check_language(lang: object) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"a review is worded in 'en' and 'vi', not {lang!r}")


@dataclass(frozen=True, slots=True)
class ReviewStep:
    """One decision of the reviewed seat.

    ``number`` counts the hand's actions from 1 (as records and ``replay`` errors do); ``hand``
    is the seat's cards just before it decided, ``top`` the discard pile's top card then (None
    when the pile was empty); ``played`` is what the seat did and ``advice`` what the computer
    would do, with its reason.
    """

    number: int
    phase: str
    hand: tuple[AnyCard, ...]
    top: AnyCard | None
    played: Action
    advice: Suggestion
    verdict: Verdict

    def text(self, lang: Language = "en") -> str:
        """``"7. you: discard K♦ · the computer: discard Q♣ (highest card, no meld nearby)"``."""
        _check_language(lang)
        played = action_phrase(self.played).text(lang)
        head = f"{self.number}. {_text('review.you', lang)}: {played}"
        if self.verdict == "same":
            return f"{head} · {_text('review.same', lang)}"
        move = action_phrase(self.advice.action).text(lang)
        why = f" ({self.advice.reason.text(lang)})" if self.advice.reason else ""
        return f"{head} · {_text('review.' + self.verdict, lang, move=move, why=why)}"

    def to_dict(self) -> dict[str, Any]:
        """The step as JSON data: cards and actions in notation, the advice as a hint's JSON
        (action, reason phrases, text per language), and per language ``played_text``,
        ``advice_move`` (the advised move alone) and ``advice_reason`` (its reason alone)."""
        return {
            "number": self.number,
            "phase": self.phase,
            "hand": [str(card) for card in self.hand],
            "top": None if self.top is None else str(self.top),
            "played": str(self.played),
            "played_text": {lang: action_phrase(self.played).text(lang) for lang in LANGUAGES},
            "advice": self.advice.to_dict(),
            "advice_move": {
                lang: action_phrase(self.advice.action).text(lang) for lang in LANGUAGES
            },
            "advice_reason": {lang: self.advice.reason.text(lang) for lang in LANGUAGES},
            "verdict": self.verdict,
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """Every reviewed decision of one seat in one hand, in order."""

    seat: int
    level: str
    steps: tuple[ReviewStep, ...]

    @property
    def decisions(self) -> int:
        """How many decisions were reviewed."""
        return len(self.steps)

    @property
    def agreed(self) -> int:
        """How many of them were the computer's move or one just as good."""
        return sum(step.verdict != "different" for step in self.steps)

    def text(self, lang: Language = "en") -> str:
        """A heading line, then one line per decision."""
        _check_language(lang)
        if not self.steps:
            return _text("review.none", lang)
        head = _text(
            "review.head",
            lang,
            seat=self.seat,
            level=_text(f"review.level.{self.level}", lang),
            agreed=self.agreed,
            count=self.decisions,
        )
        return "\n".join([head, *(f"  {step.text(lang)}" for step in self.steps)])

    def __str__(self) -> str:
        return self.text("en")

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON data."""
        return {
            "seat": self.seat,
            "level": self.level,
            "decisions": self.decisions,
            "agreed": self.agreed,
            "steps": [step.to_dict() for step in self.steps],
        }


def _loose(card: Card, hand: Sequence[AnyCard], legal: Sequence[Action], twin: Card) -> bool:
    """No other card of the rank, and none of the suit within two ranks, in ``hand``; and no
    legal lay-off of ``card`` onto the table (Basic Rummy: a card that fits a meld there is worth
    keeping, and throwing it lets the next player lay it off). ``twin``, the other card compared,
    does not count when it has the same rank: of a lone pair, either card may go."""
    for other in hand:
        if other is card or not isinstance(other, Card):
            continue
        if other.number == card.number:
            if other is twin:
                continue
            return False
        if other.suit_index == card.suit_index and abs(other.number - card.number) <= 2:
            return False
    return not any(isinstance(action, LayOff) and action.card == card for action in legal)


def _meld_key(meld: tuple[AnyCard, ...]) -> tuple[str, ...]:
    """A Crazy Rummy meld compared as laid: a run keeps its order (it fixes what each wild
    stands for), a book's cards are compared in any order."""
    ranks = {card.number for card in meld if isinstance(card, Card) and card.number != 2}
    texts = tuple(str(card) for card in meld)
    return tuple(sorted(texts)) if len(ranks) <= 1 else texts


def _same(played: Action, advised: Action) -> bool:
    """The same move: equal actions, a knock with the same card (the arrangement it names is
    one of least deadwood either way), or a lay-down of the same melds in another order."""
    if played == advised:
        return True
    if isinstance(played, Knock) and isinstance(advised, Knock):
        return played.card == advised.card
    if isinstance(played, Down) and isinstance(advised, Down):
        return sorted(map(_meld_key, played.melds)) == sorted(map(_meld_key, advised.melds))
    return False


def _verdict(
    played: Action,
    advised: Action,
    hand: Sequence[AnyCard],
    legal: Sequence[Action],
    wilds: bool,
) -> Verdict:
    if _same(played, advised):
        return "same"
    if (
        not wilds
        and type(played) is type(advised)
        and isinstance(played, Discard | Knock)
        and isinstance(advised, Discard | Knock)
        and isinstance(played.card, Card)
        and isinstance(advised.card, Card)
        and played.card.points == advised.card.points
        and _loose(played.card, hand, legal, advised.card)
        and _loose(advised.card, hand, legal, played.card)
    ):
        return "as_good"
    return "different"


def review_hand(
    hand: HandState,
    seat: int,
    *,
    level: str = REVIEW_LEVEL,
    skip: Container[int] = (),
    seed: int = 0,
) -> HandReview:
    """Replay ``hand`` from its deal and, at each decision ``seat`` made (with more than one legal
    move, and whose 0-based history index is not in ``skip``), ask the ``level`` player what it
    would do from the seat's view then.

    The hand may be finished or still in play. The player for each decision is seeded with
    ``seed`` plus the decision's index, so a review is the same every time. Raises ValueError for
    a seat the hand does not have, or :class:`~rummykit.players.UnknownPlayerError` (a
    ValueError) for a level the game does not have (a level is read in any case, ``"Hard"``).
    """
    seats = len(hand.deal.hands)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ValueError(f"seat must be a whole number from 0 to {seats - 1}, not {seat!r}")
    levels = PLAYERS.get(hand.game.name, ())
    name = level.strip().lower() if isinstance(level, str) else level
    if name not in levels:
        raise UnknownPlayerError(
            f"unknown level {level!r} for {hand.game.name} (valid: {', '.join(levels)})"
        )
    record = hand_record(hand)
    record["actions"] = []
    replay = cast(HandState, load_record(record))
    wilds = hand.game.name == "crazy"
    steps: list[ReviewStep] = []
    for index, (actor, action) in enumerate(hand.history):
        if actor == seat and index not in skip:
            view = replay.view(seat)
            if len(view.legal_actions) > 1:
                advice = find_player(hand.game, name, seed + index).suggest(view)
                held: tuple[AnyCard, ...] = getattr(view, "hand")  # noqa: B009 - every view has it
                pile: tuple[AnyCard, ...] = getattr(view, "discard_pile")  # noqa: B009
                steps.append(
                    ReviewStep(
                        number=index + 1,
                        phase=str(getattr(view, "phase")),  # noqa: B009
                        hand=held,
                        top=pile[-1] if pile else None,
                        played=action,
                        advice=advice,
                        verdict=_verdict(action, advice.action, held, view.legal_actions, wilds),
                    )
                )
        replay.apply(action, actor)
    return HandReview(seat, name, tuple(steps))
