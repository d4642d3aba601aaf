"""Which move a seat may take back (the page and the terminal offer it against the computer)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.actions import UNDOABLE
from rummykit.games.base import HandState

if TYPE_CHECKING:
    from rummykit.actions import Action

__all__ = [
    "undoable_move",
]


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
