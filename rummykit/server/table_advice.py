"""The computer's advice at a table: a hint for the move to make, the review of a finished
hand, and Crazy Rummy's check of a lay-down."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummykit.aids import check_lay_down
from rummykit.cards import CardError, parse_card
from rummykit.games.crazy import CrazyState
from rummykit.server.catalogue import levels_for
from rummykit.server.protocol import ProtocolError
from rummykit.server.thinking import HintWork, ReviewWork

if TYPE_CHECKING:
    from rummykit.server.table_host import TableHost

__all__ = ["HINT_LEVELS", "TableAdvice"]

HINT_LEVELS = ("hard", "medium", "easy", "random")
"""The hint comes from the strongest of these levels that the game has."""


class TableAdvice:
    """Hints, reviews and the lay-down check: a part of :class:`Table`."""

    @property
    def advice_level(self: TableHost) -> str:
        """The level whose advice hints and reviews give: the strongest the game has."""
        levels = levels_for(self.variant)
        return next((lv for lv in HINT_LEVELS if lv in levels), levels[0])

    def hint(self: TableHost, seat: int) -> dict[str, Any]:
        """What the strongest computer player would do for ``seat`` now, and why."""
        return self.hint_task(seat)()

    def hint_task(self: TableHost, seat: int) -> HintWork:
        """Check a hint request of ``seat`` and return the work to do (see :meth:`hint`), which
        reads only a snapshot of the seat's view and so may run anywhere."""
        view = self.hand.view(seat)
        if self.hand.is_over:
            raise ProtocolError("the hand is over: there is no move to hint", "not_your_turn")
        if not view.legal_actions:
            raise ProtocolError("it is not your turn", "not_your_turn")
        # Seeded by the position in the hand, as a review seeds each decision (rummykit.review):
        # the hint and the review of the same move give the same advice.
        return HintWork(self.hand.game, self.advice_level, len(self.hand.history), view, self.seq)

    def review(self: TableHost, seat: int, number: int | None) -> dict[str, Any]:
        """The review of ``seat``'s decisions in hand ``number`` (see :meth:`review_task`),
        kept for the next time it is asked for."""
        work = self.review_task(seat, number)
        if isinstance(work, ReviewWork):
            return self.keep_review(work(), seat)
        return work

    def review_task(self: TableHost, seat: int, number: int | None) -> ReviewWork | dict[str, Any]:
        """Check a review request of ``seat`` for hand ``number`` (from 1; None for the hand on
        the table) and return the review made before, or the work to make it. The work reads
        only that finished hand (it cannot change), so it may run anywhere, outside the table's
        lock; give its answer to :meth:`keep_review`.

        The answer is :meth:`rummykit.review.HandReview.to_dict` with ``t`` and ``hand``: the
        seat's own decisions (moves the computer made for it while the person was away are left
        out) beside the strongest computer player's, from the seat's own views only, and
        ``stood_in``, the number of those moves. Raises :class:`ProtocolError` for a hand the
        match does not have (``bad_message``) or one still in play (``not_over``).
        """
        hands = self.match.hands
        index = len(hands) - 1 if number is None else number - 1
        if not 0 <= index < len(hands):
            so_far = f"{len(hands)} hand" + ("" if len(hands) == 1 else "s")
            raise ProtocolError(f"this match has {so_far} so far: there is no hand {number}")
        hand = hands[index]
        if not hand.is_over:
            raise ProtocolError("a hand can be reviewed once it is over", "not_over")
        done = self.reviews.get((index, seat))
        if done is not None:
            return done
        return ReviewWork(hand, index, seat, self.advice_level, self.stand_in_numbers(index))

    def keep_review(self: TableHost, answer: dict[str, Any], seat: int) -> dict[str, Any]:
        """Keep a review made by a :class:`ReviewWork` (a finished hand's review never changes);
        the review kept."""
        return self.reviews.setdefault((int(answer["hand"]) - 1, seat), answer)

    def check_down(self: TableHost, seat: int, cards: Sequence[str]) -> dict[str, Any]:
        """Crazy Rummy: whether the selected cards lay down the contract, and the lay-down, or
        why not (see :func:`rummykit.aids.check_lay_down`)."""
        if not isinstance(self.hand, CrazyState):
            raise ProtocolError("only Crazy Rummy has a contract to lay down")
        try:
            chosen = [parse_card(c) for c in cards]
        except CardError as exc:
            raise ProtocolError(str(exc)) from None
        answer = check_lay_down(self.hand, seat, chosen)
        return {"t": "check_down", "seq": self.seq, "cards": list(cards), **answer}
