"""Taking a move back: a person playing alone against the computer may take back their own
last move while the turn is still theirs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.actions import Action, Take
from rummykit.games.undo import undoable_move
from rummykit.server.protocol import ProtocolError

if TYPE_CHECKING:
    from rummykit.server.table_host import TableHost

__all__ = ["TableUndo"]


class TableUndo:
    """Taking back a seat's last move: a part of :class:`Table`."""

    def undoable(self: TableHost, seat: int) -> Action | None:
        """The move ``seat`` may take back now (:meth:`undo`), or None.

        Only a person playing alone against the computer may, only their own last move while
        the turn is still theirs (:func:`~rummykit.games.undo.undoable_move`), and only one
        they made themselves (not a computer standing in for them).
        """
        return self._undoable(seat)[0]

    def _undoable(self: TableHost, seat: int) -> tuple[Action | None, str]:
        """The move ``seat`` may take back, or None and why not."""
        # Every other seat a computer player's own: none kept for a friend, none played by a
        # computer standing in for a person who may come back.
        others = (s for other, s in enumerate(self.seats) if other != seat)
        if self.seats[seat].kind != "human" or any(s.kind == "human" or s.stand_in for s in others):
            return None, "moves are taken back only when you play alone against the computer"
        hand = self.hand
        if self.match.is_over or hand.is_over or hand.to_act != seat or not hand.history:
            return None, "there is no move of this turn to take back"
        actor, last = hand.history[-1]
        number = len(hand.history) - 1
        if actor != seat or (len(self.match.hands) - 1, number) in self.stand_in_moves:
            return None, "there is no move of this turn to take back"
        action = undoable_move(hand, seat)
        if action is None:
            return None, (
                f"{last} cannot be taken back: only a move that kept your turn and showed you "
                "no hidden card can (taking the discard, a meld, a lay-off, a swap)"
            )
        return action, ""

    def _undo_entry(self: TableHost, seat: int) -> dict[str, Any]:
        """The seat's last move as a log entry (see :meth:`view_message`), a ``take`` with the
        card taken (the seat knows it: the card it may not throw back this turn)."""
        actor, action = self.hand.history[-1]
        entry: dict[str, Any] = {"seat": actor, "action": str(action)}
        taken = self.hand.taken
        if isinstance(action, Take) and taken is not None:
            entry["card"] = str(taken)
        return entry

    def undo(self: TableHost, seat: int, seq: int) -> dict[int, dict[str, Any]]:
        """Take back ``seat``'s last move (see :meth:`undoable`), committed first.

        The seat's message is its view as it was before the move, with ``undone``, the move
        taken back as a log entry.
        """
        self._check_turn(seat, seq)
        action, why = self._undoable(seat)
        if action is None:
            raise ProtocolError(why, "illegal")
        hand = self.hand
        entry = self._undo_entry(seat)
        hand_number = len(self.match.hands) - 1
        number = len(hand.history) - 1
        try:
            self.store.undo_action(self.id, hand_number, number, seat, str(action))
        except ValueError:  # pragma: no cover - the store holds what the table played
            self.reload()
            raise ProtocolError("that move cannot be taken back now", "stale") from None
        self.reload()
        message = self.view_message(seat)
        message["undone"] = entry
        return {seat: message}
