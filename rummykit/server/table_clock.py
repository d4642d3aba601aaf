"""A table's turn clock, and the people who are away or gone: the time a person has for a turn,
the computer finishing a turn whose time ran out, a person away after :data:`AWAY_AFTER` such
turns, and a person's seat given to the computer (and taken back)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummykit.actions import Buy, Pass
from rummykit.server.limits import GIVE_AFTER
from rummykit.server.protocol import ProtocolError
from rummykit.server.seats import Seat

if TYPE_CHECKING:
    from rummykit.server.table_host import TableHost

__all__ = ["AWAY_AFTER", "TurnClock"]

AWAY_AFTER = 2
"""After this many turns in a row whose time ran out, a person is away: the computer plays
their turns at once, until they say they are back."""


class TurnClock:
    """The turn clock and the seats of people away or gone: a part of :class:`Table`."""

    # (set in Table.__init__; declared here too, as this part sets them)
    _turn: tuple[int, int, int] | None
    _timed_out: tuple[int, int, int] | None
    _timed_out_turn: tuple[int, int, int] | None

    def left(self: TableHost, seat: int) -> None:
        """The last page of ``seat`` closed now (the server calls it; see :meth:`absent`)."""
        self.left_at[seat] = self.clock()

    def came(self: TableHost, seat: int) -> None:
        """A page of ``seat`` is open (the server calls it)."""
        self.left_at.pop(seat, None)

    def absent(self: TableHost, seat: int) -> float:
        """Seconds since ``seat``'s page closed (since this copy was made, if unknown)."""
        return self.clock() - self.left_at.get(seat, self.known_since)

    def give_to_computer(
        self: TableHost,
        seat: int,
        level: str | None = None,
        *,
        connected: Sequence[int] = (),
        by: int = 0,
        after: float = GIVE_AFTER,
    ) -> None:
        """A computer player at the table's level (:meth:`computer_level`) takes a person's
        seat, asked by the person at seat ``by`` (whose token the caller has checked): one
        nobody has taken (the friend is not coming; the invitation is spent; only the creator,
        seat 0, may do that) or one whose person is not ``connected`` now and has been gone
        ``after`` seconds (see :meth:`absent`), or whose time for a turn ran out (they
        left: the computer plays for them until they come back, see :meth:`take_back`; anyone
        else at the table may do that, so that a table whose creator left can go on).
        Committed. The computer keeps the person's name. ``level``, if given, must be the
        table's. Raises ProtocolError for one's own seat, a computer's seat, a connected
        person's, one gone only a moment, or a seat not taken yet asked by anyone but the
        creator; ValueError for another level."""
        if not 0 <= by < len(self.seats) or self.seats[by].kind != "human" or self.seats[by].open:
            raise ProtocolError(f"seat {by} is not a person's seat", "auth")
        if not 0 <= seat < len(self.seats) or seat == by or self.seats[seat].kind != "human":
            raise ProtocolError(f"seat {seat} is not another person's seat", "illegal")
        if self.seats[seat].open and by != 0:
            raise ProtocolError(
                "only the table's creator may give a seat nobody has taken yet", "illegal"
            )
        if seat in connected:
            raise ProtocolError(f"the person at seat {seat} is connected: they play it", "illegal")
        own = self.computer_level()
        if level is not None and level != own:
            raise ValueError(f"the computer plays at this table's level, {own}, not {level!r}")
        gone = self.absent(seat)
        ran_out = self.away(seat) or self.timed_out(seat)
        if not self.seats[seat].open and gone < after and not ran_out:
            raise ProtocolError(
                f"the person at seat {seat} left {gone:.0f} s ago: the computer may take their"
                f" seat once they have been gone {after:.0f} s",
                "illegal",
            )
        person = self.seats[seat]
        computer = Seat(
            "computer",
            level=own,
            name=person.name,
            stand_in=True,
            token_hash=person.token_hash,
        )
        self._replace_seat(seat, computer)

    def take_back(self: TableHost, seat: int) -> bool:
        """The person whose seat a computer plays for them is back: the seat is theirs again.

        Call once their token is checked (:meth:`check_token`). Committed. False (nothing
        changed) if ``seat`` is not such a seat.
        """
        stand_in = self.seats[seat]
        if not stand_in.stand_in or stand_in.token_hash is None:
            return False
        person = Seat("human", token_hash=stand_in.token_hash, name=stand_in.name)
        self._replace_seat(seat, person)
        return True

    def _turn_key(self: TableHost) -> tuple[int, int, int] | None:
        """The person's turn under way, as (hand index, seat, its first action's number), or
        None when no person is to act. A turn is the run of decisions one seat makes in a row:
        Gin's draw, knock and lay-offs, or an offer to buy out of turn, each alone."""
        if self.match.is_over or self.hand.is_over:
            return None
        seat = self.hand.to_act
        if seat is None or self.seats[seat].kind != "human" or self.seats[seat].open:
            return None  # a computer, or a friend who has not come yet (the creator decides)
        history = self.hand.history
        start = len(history)
        while start and history[start - 1][0] == seat:
            start -= 1
        return (len(self.match.hands) - 1, seat, start)

    def _turn_id(self: TableHost) -> tuple[int, int, int] | None:
        """The whole turn under way of the person to act, as :meth:`_turn_key` but reaching back
        over the offers to buy that Crazy Rummy makes in the middle of a turn (the others asked
        for the card the player passed on, between its draw and the rest of its turn)."""
        key = self._turn_key()
        if key is None or self.game_name != "crazy":
            return key
        hand_index, seat, start = key
        history = self.hand.history
        i = start
        while i:
            actor, action = history[i - 1]
            if actor == seat:
                start = i = i - 1
            elif isinstance(action, Buy | Pass):
                i -= 1  # another seat asked to buy: still this turn if the seat acted before
            else:
                break
        return (hand_index, seat, start)

    def _observe(self: TableHost) -> tuple[int, int, int] | None:
        """The person's turn under a clock (see :meth:`_turn_key`), or None; a new turn starts
        its clock now, and is the computer's at once if its person is away, or if it goes on a
        turn whose time ran out (after Crazy Rummy's offers to buy)."""
        key = self._turn_key() if self.turn_time else None
        if key is not None and key != self._turn:
            self._turn = key
            self._turn_started = self.clock()
            if self.away(key[1]) or (
                self._timed_out_turn is not None and self._turn_id() == self._timed_out_turn
            ):
                self._timed_out = key
        return key

    def away(self: TableHost, seat: int) -> bool:
        """True if ``seat``'s last :data:`AWAY_AFTER` turns in a row ran out of time: the
        computer plays their turns at once until they are back (:meth:`back`)."""
        return self.missed.get(seat, 0) >= AWAY_AFTER

    def turn_clock(self: TableHost) -> dict[str, Any] | None:
        """The time left for the person to act, as ``{"seat", "left", "limit"}`` (seconds), or
        None when no limit runs (no ``turn_time``, or a computer to act). Once the time ran out,
        ``left`` is 0 and ``out`` is true while the computer finishes the turn (and ``away`` is
        true if the person is away, see :meth:`away`). A turn's clock starts when this is first
        asked after the turn began (every change asks at once, to build the views); a table read
        back from the store starts it anew."""
        key = self._observe()
        if key is None:
            return None
        seat = key[1]
        if key == self._timed_out:
            out = {"seat": seat, "left": 0.0, "limit": self.turn_time, "out": True}
            return {**out, "away": True} if self.away(seat) else out
        return {"seat": seat, "left": round(max(0.0, self._left()), 1), "limit": self.turn_time}

    def _left(self: TableHost) -> float:
        """The seconds left of the turn whose clock runs (below 0 once it is over)."""
        return self._turn_started + self.turn_time - self.clock()

    def turn_deadline(self: TableHost) -> tuple[tuple[int, int, int], float] | None:
        """The person's turn under a clock and the seconds left, or None (see
        :meth:`turn_clock`); to wait for, then :meth:`expire`."""
        clock = self.turn_clock()
        if clock is None or clock.get("out"):
            return None
        assert self._turn is not None
        return self._turn, self._left()

    def expire(self: TableHost, turn: tuple[int, int, int]) -> int | None:
        """End ``turn`` (from :meth:`turn_deadline`) if it is still under way and its time is up:
        the computer finishes it (:meth:`computer_to_act`; its moves are marked as the
        computer's, and an offer to buy is passed). Returns the seat, or None if nothing
        changed (the turn is over, or time is left)."""
        if self.turn_deadline() is None or self._turn != turn:
            return None
        if self._left() > 0:
            return None
        self._timed_out = turn
        self._timed_out_turn = self._turn_id()
        self.missed[turn[1]] = self.missed.get(turn[1], 0) + 1
        return turn[1]

    def timed_out(self: TableHost, seat: int) -> bool:
        """True if ``seat``'s time for the turn under way ran out (or they are away)."""
        key = self._observe()
        return key is not None and key[1] == seat and key == self._timed_out

    def back(self: TableHost, seat: int) -> dict[int, dict[str, Any]]:
        """The person at ``seat``, away, is back: their turns are theirs again, the one under way
        too if it is theirs (with a full clock). Returns the view message for each person.
        Raises ProtocolError if they were not away."""
        if not self.away(seat):
            raise ProtocolError("the computer is not playing your turns", "illegal")
        del self.missed[seat]
        key = self._observe()
        if key is not None and key[1] == seat and key == self._timed_out:
            self._timed_out = self._timed_out_turn = None
            self._turn_started = self.clock()
        return {viewer: self.view_message(viewer) for viewer in self.human_seats()}

    def away_seats(self: TableHost) -> list[int]:
        """The people who are away (:meth:`away`)."""
        return [seat for seat in self.human_seats() if self.away(seat)]
