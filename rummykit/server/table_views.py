"""What a seat is sent of a table: the welcome, its view message with the aids, the hand's
log as the seat saw it, and the hand before the one in play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from rummykit.actions import Action, Buy, Draw, Pass, Take
from rummykit.aids import aids
from rummykit.cards import AnyCard
from rummykit.games.base import HandState, View
from rummykit.games.crazy import CrazyOptions
from rummykit.record import hand_record, load_record

if TYPE_CHECKING:
    from rummykit.server.table_host import TableHost

__all__ = ["TableViews", "names_the_pile"]


def names_the_pile(action: Action, game: str) -> bool:
    """Whether the log names the discard pile's top card with ``action``: the card taken, bought
    or passed on; in Crazy Rummy also the card a draw from the stock left (the others may buy it
    before the drawer's card comes)."""
    return isinstance(action, Take | Buy | Pass) or (game == "crazy" and isinstance(action, Draw))


class TableViews:
    """The messages that show a seat the table: a part of :class:`Table`."""

    def welcome(self: TableHost, seat: int) -> dict[str, Any]:
        """The first message to a seat: the table, the game and its options, the seats."""
        return {
            "t": "welcome",
            "table": self.id,
            "seat": seat,
            "game": self.game_name,
            "variant": self.variant,
            "options": self.hand.game.options.to_dict(),
            "seats": [s.public() for s in self.seats],
            "turn_time": self.turn_time,
        }

    def match_view(self: TableHost, seat: int) -> dict[str, Any]:
        """What ``seat`` may see of the match: the hand's view, the scores, the results."""
        return self.match.view(seat).to_dict()

    def view_message(
        self: TableHost,
        seat: int,
        log: Sequence[dict[str, Any]] = (),
        gained: Sequence[str] = (),
        *,
        with_hand_log: bool = False,
    ) -> dict[str, Any]:
        """The view message for ``seat``: ``view(seat)`` data, aids, and the log of the last move.

        ``with_hand_log`` adds ``hand_log``, every move of the hand so far as the seat saw it (for
        a page that joins mid-hand), and, while a hand after the first is in play, ``previous``
        (see :meth:`previous_hand`).
        """
        seen = self.match.view(seat)
        return self._view_message(seat, seen.to_dict(), seen.hand, log, gained, with_hand_log)

    def _view_message(
        self: TableHost,
        seat: int,
        data: dict[str, Any],
        view: View,
        log: Sequence[dict[str, Any]],
        gained: Sequence[str],
        with_hand_log: bool = False,
    ) -> dict[str, Any]:
        """:meth:`view_message` from the seat's match view already built (``data``, with the
        hand's ``view``)."""
        message = {
            "t": "view",
            "seq": self.seq,
            "view": data,
            "aids": aids(view, self._crazy_options()),
            "log": list(log),
            "gained": list(gained),
            "undo": self._undo_entry(seat) if self.undoable(seat) is not None else None,
            "clock": self.turn_clock(),
            "away": self.away_seats(),
        }
        deal = self.deal_number()
        if deal is not None:
            message["deal_number"] = deal
        if with_hand_log:
            message["hand_log"] = self.hand_log(seat)
            previous = self.previous_hand(seat)
            if previous is not None:
                message["previous"] = previous
        return message

    def previous_hand(self: TableHost, seat: int) -> dict[str, Any] | None:
        """How the hand before the one in play ended, as ``seat`` saw it then; None in the first
        hand, or once the hand in play is over (its own score is what a page shows then).

        ``view`` is the match view as it stood at that hand's end (the scores have not changed
        since: the hand in play is not over), and ``stand_in`` the numbers of that hand's moves
        the computer made in a person's seat. A page that did not show that hand's end (it was
        closed, or its connection down, while the others finished it) shows it from this. It
        holds nothing the seat was not shown when the hand ended.
        """
        hands = self.match.hands
        if len(hands) < 2 or self.hand.is_over:
            return None
        index = len(hands) - 2
        view = self.match_view(seat)
        view["hand"] = hands[index].view(seat).to_dict()
        view["hand_number"] = index + 1
        return {"view": view, "stand_in": sorted(self.stand_in_numbers(index))}

    def stand_in_numbers(self: TableHost, index: int) -> frozenset[int]:
        """The numbers (from 0) of the moves of hand ``index`` (from 0) that the computer made
        in a person's seat."""
        return frozenset(number for hand, number in self.stand_in_moves if hand == index)

    def _crazy_options(self: TableHost) -> CrazyOptions | None:
        options = self.hand.game.options
        return options if isinstance(options, CrazyOptions) else None

    def hand_log(self: TableHost, seat: int) -> list[dict[str, Any]]:
        """The hand's moves so far as ``seat`` saw them, in the form of a view message's ``log``.

        Each ``take`` and ``buy`` names the card taken, and each ``pass`` the card passed on and
        its ``phase`` (``offer``, or ``buy`` for a card not bought): it is public, and always the latest
        discard (or the up-card when nothing was discarded yet), since a card is taken from the
        pile only right after it was thrown. A move that brought cards into the seat's own hand
        (its draws, a buy's penalty cards, the draw after a declined buy) lists them under
        ``gained``, as the view message of that move did; the hand is replayed from its deal to
        find them. A move the computer made in a person's seat has ``stand_in`` true.
        """
        hand = self.hand
        seen = hand.view(seat).to_dict()["history"]
        record = hand_record(hand)
        record["actions"] = []
        replay = cast(HandState, load_record(record))

        def holding() -> Counter[str]:
            # The seat's cards straight from the replayed state: a view would list the whole
            # history (and Crazy Rummy's legal lay-downs) after every move of a long hand.
            hands: list[list[AnyCard]] = getattr(replay, "hands")  # noqa: B009 - every game has them
            return Counter(str(card) for card in hands[seat])

        held = holding()
        entries: list[dict[str, Any]] = []
        hand_number = len(self.match.hands) - 1
        for number, ((actor, action), (_, text)) in enumerate(zip(hand.history, seen, strict=True)):
            entry: dict[str, Any] = {"seat": actor, "action": text}
            if (hand_number, number) in self.stand_in_moves:
                entry["stand_in"] = True
            pile: list[AnyCard] = getattr(replay, "discard_pile")  # noqa: B009 - every game has it
            if names_the_pile(action, self.game_name) and pile:
                entry["card"] = str(pile[-1])
            if isinstance(action, Pass):
                entry["phase"] = replay.phase.value
            replay.apply(action, actor)
            now = holding()
            gained = list((now - held).elements())
            if gained:
                entry["gained"] = gained
            held = now
            entries.append(entry)
        return entries
