"""Tables: a match of any game, its seats (one person, the rest computer players) and turn flow.

Everything here is synchronous; :mod:`rummykit.server.app` wraps it in the async edge. A table
holds a :class:`~rummykit.games.match.Match`, checks every intent of a seat (its token, the view
``seq`` it acts on, whose turn it is, the action's legality by the engine), commits each accepted
action to the :class:`~rummykit.server.store.Store` before answering, and runs the computer seats
one action at a time (:meth:`Table.step_computer`) so the page can show each move.

What a seat is sent is built from ``state.view(seat)`` only, plus aids computed from that view
(the melds found in the seat's own hand, its deadwood) and a log of the last move as that seat saw
it. Nothing here ever puts another seat's cards or the stock in a message.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from rummykit.actions import (
    Action,
    ActionSyntaxError,
    Buy,
    Draw,
    Pass,
    Take,
    parse_action,
)
from rummykit.aids import aids, check_lay_down
from rummykit.cards import AnyCard, CardError, cut, parse_card
from rummykit.games import find_game
from rummykit.games.base import Game, HandState, IllegalActionError, Phase, View
from rummykit.games.crazy import CrazyOptions, CrazyState
from rummykit.games.gin import GinView
from rummykit.games.match import Match
from rummykit.games.undo import undoable_move
from rummykit.players import Player
from rummykit.record import RecordError, hand_record, is_match, load_record
from rummykit.server.catalogue import check_server_caps, levels_for
from rummykit.server.limits import GIVE_AFTER
from rummykit.server.names import NameTaken, clean_name, same_name
from rummykit.server.protocol import ProtocolError
from rummykit.server.seats import Seat, alone, hash_token, token_fits
from rummykit.server.store import Store, StoreConflict, StoredTable
from rummykit.server.thinking import Decision, HintWork, ReviewWork, make_player

log = logging.getLogger("rummykit.server")

__all__ = [
    "Table",
    "TableManager",
    "decision_seed",
]

HINT_LEVELS = ("hard", "medium", "easy", "random")
"""The hint comes from the strongest of these levels that the game has."""

OPTIONS_ADDED: dict[str, dict[str, Any]] = {
    "crazy": {"discard_taken_twin": True, "buy_keeps_draw": False}
}
"""Per game, the options added since tables were first stored, each with the value that plays
a table stored without it as it was played then (in Crazy Rummy, the twin of a card just taken
could be thrown before ``discard_taken_twin`` existed, and a buy could take the stock's last
card before ``buy_keeps_draw``)."""

TURN_TIME_RANGE = (5, 600)
"""The seconds a table with friends may give a person for a turn (or 0, no limit)."""

DEAL_RANGE = (1, 999_999_999)
"""The deal numbers a person may ask for at a table against the computer (``?deal=N`` on the
page): the match's seed, so the same number deals the same cards, and the computer plays the
same way to the same moves."""

OVERTAKEN = "another move was made at this table first; nothing changed (here is the table now)"
"""The answer to a move that another server process's move overtook."""

TIMEOUT_LEVEL = "medium"
"""The computer level that finishes a turn whose time ran out (an offer to buy is passed)."""

AWAY_AFTER = 2
"""After this many turns in a row whose time ran out, a person is away: the computer plays
their turns at once, until they say they are back."""


def _seed() -> int:
    return secrets.randbelow(1 << 62)


def decision_seed(match_seed: int, seat: int, hand: int, actions: int) -> int:
    """The seed of a computer seat's player for one decision: a function of the match seed, the
    seat and the position in the match (hand number, actions so far in that hand) only.

    >>> decision_seed(5, 1, 0, 3) == decision_seed(5, 1, 0, 3) != decision_seed(5, 1, 0, 4)
    True
    """
    text = f"rummykit-decision|{match_seed}|{seat}|{hand}|{actions}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big") % (1 << 62)


def _names_the_pile(action: Action, game: str) -> bool:
    """Whether the log names the discard pile's top card with ``action``: the card taken, bought
    or passed on; in Crazy Rummy also the card a draw from the stock left (the others may buy it
    before the drawer's card comes)."""
    return isinstance(action, Take | Buy | Pass) or (game == "crazy" and isinstance(action, Draw))


class Table:
    """One match at a table: the seats, the match, the view counter ``seq``, the store."""

    def __init__(
        self,
        table_id: str,
        variant: str,
        match: Match,
        seats: list[Seat],
        store: Store,
        stand_in_moves: Iterable[tuple[int, int]] = (),
        undos: Iterable[int] = (),
        turn_time: int = 0,
        changes: int = 0,
        seats_version: int = 0,
    ) -> None:
        self.id = table_id
        self.variant = variant
        self.match = match
        self.seats = seats
        self.store = store
        self.game_name = match.hand.game.name
        self.invites: dict[int, str] = {}
        """Seat -> invitation code, on a table just created with friends only."""
        self.stand_in_moves = set(stand_in_moves)
        """(hand, action number) of the moves the computer made in a person's seat: the log
        names them so after a reload too."""
        self.undos = list(undos)
        """The hand (from 0) of each move taken back (:meth:`undo`), in order."""
        self.reviews: dict[tuple[int, int], dict[str, Any]] = {}
        """(hand index, seat) -> the review sent for it (see :meth:`review_task`)."""
        self.turn_time = turn_time
        """The seconds a person has for a turn, 0 for no limit (see :meth:`turn_clock`)."""
        self.clock: Callable[[], float] = time.monotonic
        """The time in seconds, for the turn clock (tests set their own)."""
        self._turn: tuple[int, int, int] | None = None
        self._turn_started = 0.0
        self._timed_out: tuple[int, int, int] | None = None
        self._timed_out_turn: tuple[int, int, int] | None = None
        self.missed: dict[int, int] = {}
        """Per person's seat, how many of their turns in a row ran out of time (in memory)."""
        self.known_since = self.clock()
        """When this copy of the table was made: a seat not seen since is absent from then."""
        self.left_at: dict[int, float] = {}
        """Per person's seat whose page closed, when (see :meth:`left` and :meth:`absent`)."""
        self.changes = changes
        """The table's changes count in the store as this copy knows it (see
        :meth:`Store.changes_of`); -1 once another process is known to have written it."""
        self.seats_version = seats_version
        """The version of the seats this copy holds (see :meth:`Store.update_seats`)."""

    # ---------------------------------------------------------------------------- creation

    @classmethod
    def create(
        cls,
        store: Store,
        *,
        variant: str,
        opponents: int,
        level: str,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        friends: int = 0,
        name: str | None = None,
        turn_time: int = 0,
        deal: int | None = None,
    ) -> tuple[Table, str]:
        """A new table: the person at seat 0, ``opponents`` other players at ``level``.

        The first ``friends`` of the opponents are people: seats 1 to ``friends`` are kept for
        them, each with an invitation code, which the new table holds in :attr:`invites` (seat
        -> code; only the hashes are stored, so a table read back from the store has none). The
        rest are computer players. ``name`` names seat 0. ``turn_time``, at a table with
        friends: the seconds each person has for a turn (:data:`TURN_TIME_RANGE`), after which
        the computer finishes it for them; 0 for no limit. ``deal``, at a table without
        friends: a deal number (:data:`DEAL_RANGE`), used as the match's seed (with friends,
        whoever chose it could know every hand).

        Returns the table and seat 0's secret token. Raises ValueError for a bad game, option,
        table size, level, number of friends, name, turn time or deal.
        """
        game: Game = find_game(variant, options or {})
        check_server_caps(game.options.to_dict())
        variant = variant.strip().lower()  # as the start screen names it (its presets too)
        players = opponents + 1
        if not game.min_players <= players <= game.max_players:
            raise ValueError(
                f"{game.name} is for {game.min_players} to {game.max_players} players, "
                f"so {game.min_players - 1} to {game.max_players - 1} opponents"
            )
        if isinstance(friends, bool) or not isinstance(friends, int):
            raise ValueError("friends is a whole number")
        if not 0 <= friends <= opponents:
            raise ValueError(f"friends must be 0 to {opponents} (the number of opponents)")
        name = clean_name(name)
        low, high = TURN_TIME_RANGE
        if isinstance(turn_time, bool) or not isinstance(turn_time, int):
            raise ValueError("turn_time is a whole number of seconds (0 for no limit)")
        if turn_time and not low <= turn_time <= high:
            raise ValueError(f"turn_time must be 0 (no limit) or {low} to {high} seconds")
        if turn_time and not friends:
            raise ValueError("a time limit for a turn is for a table with friends")
        if deal is not None:
            first, last = DEAL_RANGE
            if isinstance(deal, bool) or not isinstance(deal, int) or not first <= deal <= last:
                raise ValueError(f"deal is a whole number from {first} to {last}")
            if friends:
                raise ValueError("a deal number is for a table against the computer only")
            seed = deal
        if friends < opponents and level not in levels_for(variant):
            raise ValueError(
                f"unknown level {level!r} for {game.name} (valid: {', '.join(levels_for(variant))})"
            )
        token = secrets.token_urlsafe(24)
        seats = [Seat("human", token_hash=hash_token(token), name=name)]
        invites: dict[int, str] = {}
        for seat in range(1, friends + 1):
            invites[seat] = secrets.token_urlsafe(18)
            seats.append(Seat("human", invite_hash=hash_token(invites[seat])))
        seats.extend(Seat("computer", level=level) for _ in range(opponents - friends))
        table = cls._new(store, variant, game, seats, seed, turn_time=turn_time)
        table.invites = invites
        return table, token

    @classmethod
    def _new(
        cls,
        store: Store,
        variant: str,
        game: Game,
        seats: list[Seat],
        seed: int | None,
        after: str | None = None,
        *,
        turn_time: int = 0,
    ) -> Table:
        """Deal a new match for ``seats`` and store it (as the rematch of ``after``, if given).

        Against the computer alone, a match drawn at random is a deal number (:data:`DEAL_RANGE`),
        which the table names once the match is over, so it can be played again or passed on."""
        if seed is None:
            seed = DEAL_RANGE[0] + secrets.randbelow(DEAL_RANGE[1]) if alone(seats) else _seed()
        match_seed = seed
        match = game.new_match(players=len(seats), seed=match_seed, dealer=0)
        table_id = secrets.token_hex(8)
        first = match.hand
        store.create_table(
            table_id,
            variant=variant,
            game=game.name,
            options=game.options.to_dict(),
            seats=[s.to_dict() for s in seats],
            seed=match_seed,
            dealer=first.dealer,
            hand_seed=cast(int, first.seed),
            after=after,
            turn_time=turn_time,
        )
        return cls(table_id, variant, match, seats, store, turn_time=turn_time)

    def rematch(self) -> str:
        """The id of the next match at this table, started now if nobody has yet: the same game,
        options and seats (each person keeps their token and name, each computer its level).

        Any person at the table may ask once the match is over; asking again (or after another
        person) gives the same table. Raises ProtocolError if the match is not over.
        """
        if not self.finished:
            raise ProtocolError("the match is not over yet", "illegal")
        found = self.store.next_table(self.id)
        if found is not None:
            return found
        seats = [replace(s) for s in self.seats]
        try:
            table = Table._new(
                self.store,
                self.variant,
                self.hand.game,
                seats,
                None,
                after=self.id,
                turn_time=self.turn_time,
            )
        except StoreConflict:  # pragma: no cover - another process won the race
            found = self.store.next_table(self.id)
            assert found is not None
            return found
        return table.id

    @classmethod
    def restore(cls, stored: StoredTable, store: Store) -> Table:
        """Rebuild a stored table by replaying its record (every action validated again).

        An option the table was stored without (:data:`OPTIONS_ADDED`) keeps its old rule."""
        record = dict(stored.record)
        added = OPTIONS_ADDED.get(str(record.get("game")), {})
        record["options"] = {**added, **record.get("options", {})}
        replayed = load_record(record)
        if not is_match(replayed):  # pragma: no cover - the store writes match records
            raise RecordError("a table's record is a match record")
        seats = [Seat.from_dict(s) for s in stored.seats]
        return cls(
            stored.id,
            stored.variant,
            replayed,
            seats,
            store,
            stored.stand_in_moves,
            stored.undos,
            stored.turn_time,
            stored.changes,
            stored.seats_version,
        )

    # ----------------------------------------------------------------------------- queries

    @property
    def hand(self) -> HandState:
        """The hand in play."""
        return self.match.hand

    @property
    def seq(self) -> int:
        """The number of changes so far (actions, new hands, take-backs); each view carries it.

        It only grows: a take-back removes an action (one less) and counts twice, so a message
        for the view before the move taken back is stale too.
        """
        actions = sum(len(h.history) for h in self.match.hands)
        return actions + len(self.match.hands) - 1 + 2 * len(self.undos)

    @property
    def finished(self) -> bool:
        """True once the match is over."""
        return self.match.is_over

    def deal_number(self) -> int | None:
        """The match's deal number, told once the match is over at a table of one person against
        the computer that never had another (then nothing is hidden any more, and nobody else's
        cards were at stake; a friend who left or never came is a stand-in seat, never alone):
        ``?deal=N`` deals it again. None otherwise, and for a seed outside :data:`DEAL_RANGE`."""
        seed = self.match.seed
        first, last = DEAL_RANGE
        if not self.match.is_over or not alone(self.seats) or seed is None:
            return None
        return seed if first <= seed <= last else None

    def human_seats(self) -> list[int]:
        """The seats played by people."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def people(self) -> int:
        """How many people are at the table: seats they took (played by them, or by a computer
        standing in for one until they come back), not seats kept for a friend not come yet."""
        return sum(1 for s in self.seats if (s.kind == "human" and not s.open) or s.stand_in)

    def check_token(self, seat: int, token: str) -> bool:
        """True if ``token`` is the secret of ``seat``: a person's seat, or one a computer plays
        for its person until they come back."""
        return token_fits(self.seats, seat, token)

    def join(self, code: str, name: str | None = None) -> tuple[int, str]:
        """A friend takes the seat kept for them with invitation ``code``; committed.

        Returns the seat and its new secret token; the code is spent. Raises ProtocolError
        ("auth") for a code that matches no open seat (wrong, or already used), :class:`BadName`
        (a ValueError) for a bad name, :class:`NameTaken` for a name another seat has.
        """
        name = clean_name(name)
        try:
            return self._join(hash_token(code), name)
        except StoreConflict:  # another process changed the seats first: try on the new ones
            return self._join(hash_token(code), name)

    def _join(self, digest: str, name: str | None) -> tuple[int, str]:
        for number, seat in enumerate(self.seats):
            if (
                seat.open
                and seat.invite_hash is not None
                and hmac.compare_digest(seat.invite_hash, digest)
            ):
                if name is not None and any(
                    other.name is not None and same_name(other.name, name) for other in self.seats
                ):
                    raise NameTaken(f"someone at this table is already called {name}", "taken")
                token = secrets.token_urlsafe(24)
                self._replace_seat(number, Seat("human", token_hash=hash_token(token), name=name))
                return number, token
        raise ProtocolError("that invitation is not valid, or its seat is already taken", "auth")

    def computer_level(self) -> str:
        """The level of the table's computer: its computer players' (the first that is not
        playing for a person), else medium (the page shows the same)."""
        for s in self.seats:
            if s.kind == "computer" and not s.stand_in and s.level is not None:
                return s.level
        levels = levels_for(self.variant)
        return TIMEOUT_LEVEL if TIMEOUT_LEVEL in levels else levels[0]

    def left(self, seat: int) -> None:
        """The last page of ``seat`` closed now (the server calls it; see :meth:`absent`)."""
        self.left_at[seat] = self.clock()

    def came(self, seat: int) -> None:
        """A page of ``seat`` is open (the server calls it)."""
        self.left_at.pop(seat, None)

    def absent(self, seat: int) -> float:
        """Seconds since ``seat``'s page closed (since this copy was made, if unknown)."""
        return self.clock() - self.left_at.get(seat, self.known_since)

    def give_to_computer(
        self,
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

    def take_back(self, seat: int) -> bool:
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

    def _replace_seat(self, seat: int, new: Seat) -> None:
        """Change one seat, committed; :class:`StoreConflict` (the seats reloaded from the store,
        nothing changed) if another process changed the seats first."""
        seats = [new if i == seat else s for i, s in enumerate(self.seats)]
        try:
            version, changes = self.store.update_seats(
                self.id, [s.to_dict() for s in seats], self.seats_version
            )
        except StoreConflict:
            self.reload()
            raise
        self.seats = seats
        self.seats_version = version
        self._wrote(changes)

    def _wrote(self, changes: int) -> None:
        """Note the table's changes count after a write of this copy's: one more than it knew,
        or else another process wrote the table in between (the copy is out of date)."""
        self.changes = changes if changes == self.changes + 1 else -1

    def seats_message(self) -> dict[str, Any]:
        """The seats as every seat may see them (sent when a friend takes a seat, or a computer
        a person's), with the turn clock, which starts when a friend who was waited for comes."""
        return {"t": "seats", "seats": [s.public() for s in self.seats], "clock": self.turn_clock()}

    def computer_to_act(self) -> int | None:
        """The computer seat that acts now, if one does: a computer's seat, or a person's whose
        time for this turn ran out (:meth:`expire`)."""
        if self.match.is_over or self.hand.is_over:
            return None
        seat = self.hand.to_act
        if seat is not None and (self.seats[seat].kind == "computer" or self.timed_out(seat)):
            return seat
        return None

    # -------------------------------------------------------------------------- turn clock

    def _turn_key(self) -> tuple[int, int, int] | None:
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

    def _turn_id(self) -> tuple[int, int, int] | None:
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

    def _observe(self) -> tuple[int, int, int] | None:
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

    def away(self, seat: int) -> bool:
        """True if ``seat``'s last :data:`AWAY_AFTER` turns in a row ran out of time: the
        computer plays their turns at once until they are back (:meth:`back`)."""
        return self.missed.get(seat, 0) >= AWAY_AFTER

    def turn_clock(self) -> dict[str, Any] | None:
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

    def _left(self) -> float:
        """The seconds left of the turn whose clock runs (below 0 once it is over)."""
        return self._turn_started + self.turn_time - self.clock()

    def turn_deadline(self) -> tuple[tuple[int, int, int], float] | None:
        """The person's turn under a clock and the seconds left, or None (see
        :meth:`turn_clock`); to wait for, then :meth:`expire`."""
        clock = self.turn_clock()
        if clock is None or clock.get("out"):
            return None
        assert self._turn is not None
        return self._turn, self._left()

    def expire(self, turn: tuple[int, int, int]) -> int | None:
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

    def timed_out(self, seat: int) -> bool:
        """True if ``seat``'s time for the turn under way ran out (or they are away)."""
        key = self._observe()
        return key is not None and key[1] == seat and key == self._timed_out

    def back(self, seat: int) -> dict[int, dict[str, Any]]:
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

    def away_seats(self) -> list[int]:
        """The people who are away (:meth:`away`)."""
        return [seat for seat in self.human_seats() if self.away(seat)]

    def welcome(self, seat: int) -> dict[str, Any]:
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

    def match_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see of the match: the hand's view, the scores, the results."""
        return self.match.view(seat).to_dict()

    def view_message(
        self,
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
        self,
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

    def previous_hand(self, seat: int) -> dict[str, Any] | None:
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

    def stand_in_numbers(self, index: int) -> frozenset[int]:
        """The numbers (from 0) of the moves of hand ``index`` (from 0) that the computer made
        in a person's seat."""
        return frozenset(number for hand, number in self.stand_in_moves if hand == index)

    def _crazy_options(self) -> CrazyOptions | None:
        options = self.hand.game.options
        return options if isinstance(options, CrazyOptions) else None

    def hand_log(self, seat: int) -> list[dict[str, Any]]:
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
            if _names_the_pile(action, self.game_name) and pile:
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

    # ----------------------------------------------------------------------------- actions

    def _check_turn(self, seat: int, seq: int) -> None:
        if self.match.is_over:
            raise ProtocolError("the match is over", "over")
        if seq != self.seq:
            raise ProtocolError(
                f"that message is for view {cut(str(seq), 12)}, but the table is at view {self.seq}"
                " (a stale or repeated message); nothing changed",
                "stale",
            )
        if self.seats[seat].kind != "human":  # pragma: no cover - sockets are for people only
            raise ProtocolError("a computer plays that seat", "auth")
        if self.hand.is_over:
            raise ProtocolError("the hand is over: deal the next one", "not_your_turn")
        if self.hand.to_act != seat:
            raise ProtocolError(
                f"it is not your turn (seat {self.hand.to_act} is to act)", "not_your_turn"
            )
        if self.timed_out(seat):
            raise ProtocolError(
                "your time for this turn ran out: the computer is finishing it", "not_your_turn"
            )

    def act(self, seat: int, text: str, seq: int) -> dict[int, dict[str, Any]]:
        """A person's action, checked and committed; returns the view message for each person."""
        self._check_turn(seat, seq)
        try:
            action = parse_action(text)
        except ActionSyntaxError as exc:
            raise ProtocolError(str(exc)) from None
        return self._apply(seat, action)

    def step_computer(self) -> dict[int, dict[str, Any]]:
        """Let the computer seat to act take one action; returns the messages for the people."""
        seat, decide = self.computer_decision()
        return self.apply_computer(seat, decide())

    def computer_decision(self) -> tuple[int, Decision]:
        """The computer seat to act and its decision, to run anywhere (a worker thread or
        process: see :mod:`rummykit.server.thinking`).

        The decision reads only a snapshot of that seat's view, so it may run while the event
        loop goes on; apply its answer with :meth:`apply_computer` under the table's lock.
        """
        seat = self.computer_to_act()
        if seat is None:
            raise ProtocolError("no computer seat is to act", "not_your_turn")
        level = self.seats[seat].level or TIMEOUT_LEVEL  # a person's seat: time ran out
        view = self.hand.view(seat)
        seed = self._decision_seed(seat)
        if self.timed_out(seat) and self.hand.phase is Phase.BUY:
            # A card is bought only when its person says so.
            return seat, Decision(self.hand.game, level, seed, view, fixed=Pass())
        return seat, Decision(self.hand.game, level, seed, view)

    def computer_player(self, seat: int) -> Player:
        """A fresh player for computer ``seat``'s decision now (see :meth:`_decision_seed`)."""
        level = self.seats[seat].level or TIMEOUT_LEVEL  # a person's seat: time ran out
        return make_player(self.hand.game, level, self._decision_seed(seat))

    def _decision_seed(self, seat: int) -> int:
        """The seed of ``seat``'s player for its decision now.

        It comes from the match seed, the seat and the position in the match (hand number,
        actions so far in the hand), never from earlier decisions: a table replayed from the store
        after a restart decides exactly as it would have without the restart.
        """
        seed = self.match.seed if self.match.seed is not None else 0
        return decision_seed(seed, seat, len(self.match.hands) - 1, len(self.hand.history))

    def apply_computer(self, seat: int, action: Action) -> dict[int, dict[str, Any]]:
        """Apply a computer seat's decision (it must still be that seat's turn)."""
        if self.computer_to_act() != seat:
            raise ProtocolError("the computer's turn has passed", "stale")
        return self._apply(seat, action)

    def best_layoffs(self, seat: int, seq: int) -> dict[int, dict[str, Any]]:
        """Gin's one-tap choice for the defender: the best lay-offs, then done."""
        self._check_turn(seat, seq)
        view = self.hand.view(seat)
        if not isinstance(view, GinView) or view.phase is not Phase.LAYOFF:
            raise ProtocolError("there is nothing to lay off now", "illegal")
        plan = aids(view)["best_layoffs"]
        messages: dict[int, dict[str, Any]] = {}
        logs: dict[int, list[dict[str, Any]]] = {}
        for text in [*plan, "done"]:
            messages = self._apply(seat, parse_action(text))
            for s, m in messages.items():
                logs.setdefault(s, []).extend(m["log"])
        for s, m in messages.items():
            m["log"] = logs[s]
        return messages

    def next_hand(self, seat: int, seq: int) -> dict[int, dict[str, Any]]:
        """Deal the next hand (a person asks, once the hand is over); committed first."""
        if self.match.is_over:
            raise ProtocolError("the match is over", "over")
        # The view before this hand was dealt: the actions and take-backs of the hand came since.
        undone = 2 * self.undos.count(len(self.match.hands) - 1)
        dealt_at = self.seq - len(self.hand.history) - undone - 1
        if seq == dealt_at and len(self.match.hands) > 1:
            # Another person asked first (both pressed Next hand): it is dealt already.
            return {seat: self.view_message(seat)}
        if seq != self.seq:
            raise ProtocolError(
                f"that message is for view {cut(str(seq), 12)}, but the table is at view {self.seq}",
                "stale",
            )
        if not self.hand.is_over:
            raise ProtocolError("the hand is not over yet", "illegal")
        hand = self.match.next_hand()
        number = len(self.match.hands) - 1
        try:
            changes = self.store.add_hand(self.id, number, hand.dealer, cast(int, hand.seed))
        except StoreConflict:
            self.reload()  # dealt by another process first
            raise ProtocolError(OVERTAKEN, "stale") from None
        except Exception:
            self.match.hands.pop()  # type: ignore[attr-defined]
            raise
        self._wrote(changes)
        return {s: self.view_message(s) for s in self.human_seats()}

    def undoable(self, seat: int) -> Action | None:
        """The move ``seat`` may take back now (:meth:`undo`), or None.

        Only a person playing alone against the computer may, only their own last move while
        the turn is still theirs (:func:`~rummykit.games.undo.undoable_move`), and only one
        they made themselves (not a computer standing in for them).
        """
        return self._undoable(seat)[0]

    def _undoable(self, seat: int) -> tuple[Action | None, str]:
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

    def _undo_entry(self, seat: int) -> dict[str, Any]:
        """The seat's last move as a log entry (see :meth:`view_message`), a ``take`` with the
        card taken (the seat's view names it: the card it may not throw back this turn)."""
        data = self.hand.view(seat).to_dict()
        actor, action = self.hand.history[-1]
        entry: dict[str, Any] = {"seat": actor, "action": data["history"][-1][1]}
        taken = data["taken_from_discard"]
        if isinstance(action, Take) and taken:
            entry["card"] = taken
        return entry

    def undo(self, seat: int, seq: int) -> dict[int, dict[str, Any]]:
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

    def _apply(self, seat: int, action: Action) -> dict[int, dict[str, Any]]:
        """Apply, commit, and build each person's message (with the move as they saw it)."""
        hand = self.hand
        before = {s: Counter(str(c) for c in hand.hands[s]) for s in self.human_seats()}
        offered = None if hand.top_discard is None else str(hand.top_discard)
        phase = hand.phase
        # Asked before the move, which may end the turn: the computer's moves in a person's seat.
        stand_in = self.seats[seat].stand_in or self.timed_out(seat)
        try:
            self.match.apply(action, seat)
        except IllegalActionError as exc:
            raise ProtocolError(str(exc), "illegal") from None
        number = len(hand.history) - 1
        hand_number = len(self.match.hands) - 1
        try:
            changes = self.store.append_action(
                self.id,
                hand_number,
                number,
                seat,
                str(action),
                finished=self.finished,
                stand_in=stand_in,
            )
        except StoreConflict:
            # Another process's move came first: not accepted; the table as stored now.
            self.reload()
            raise ProtocolError(OVERTAKEN, "stale") from None
        except Exception:
            # Not committed, so not accepted: rebuild the table from what is stored.
            self.reload()
            raise
        self._wrote(changes)
        if stand_in:
            self.stand_in_moves.add((hand_number, number))
        elif not (phase is Phase.BUY and isinstance(action, Pass)):
            # A move of their own: the person is here. (Not a card not bought: the page says
            # that by itself when the person asked not to be asked again, or cannot buy.)
            self.missed.pop(seat, None)
        messages = {}
        for viewer in self.human_seats():
            match_view = self.match.view(viewer)
            data = match_view.to_dict()
            seen = data["hand"]["history"][-1][1]
            entry: dict[str, Any] = {"seat": seat, "action": seen}
            if stand_in:
                entry["stand_in"] = True
            if _names_the_pile(action, self.game_name) and offered is not None:
                entry["card"] = offered
            if isinstance(action, Pass):  # passing on the up-card, or not buying it
                entry["phase"] = phase.value
            after = Counter(data["hand"]["hand"])
            gained = list((after - before[viewer]).elements())
            messages[viewer] = self._view_message(viewer, data, match_view.hand, [entry], gained)
        return messages

    def reload(self) -> None:
        """Read the table again from the store (another process wrote it, or a write failed)."""
        stored = self.store.load(self.id)
        if stored is None:  # pragma: no cover - the table was stored when created
            return
        restored = Table.restore(stored, self.store)
        self.match = restored.match
        self.stand_in_moves = restored.stand_in_moves
        self.undos = restored.undos
        self.seats = restored.seats
        self.seats_version = restored.seats_version
        self.changes = restored.changes

    # ------------------------------------------------------------------------------ helpers

    @property
    def advice_level(self) -> str:
        """The level whose advice hints and reviews give: the strongest the game has."""
        levels = levels_for(self.variant)
        return next((lv for lv in HINT_LEVELS if lv in levels), levels[0])

    def hint(self, seat: int) -> dict[str, Any]:
        """What the strongest computer player would do for ``seat`` now, and why."""
        return self.hint_task(seat)()

    def hint_task(self, seat: int) -> HintWork:
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

    def review(self, seat: int, number: int | None) -> dict[str, Any]:
        """The review of ``seat``'s decisions in hand ``number`` (see :meth:`review_task`),
        kept for the next time it is asked for."""
        work = self.review_task(seat, number)
        if isinstance(work, ReviewWork):
            return self.keep_review(work(), seat)
        return work

    def review_task(self, seat: int, number: int | None) -> ReviewWork | dict[str, Any]:
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

    def keep_review(self, answer: dict[str, Any], seat: int) -> dict[str, Any]:
        """Keep a review made by a :class:`ReviewWork` (a finished hand's review never changes);
        the review kept."""
        return self.reviews.setdefault((int(answer["hand"]) - 1, seat), answer)

    def check_down(self, seat: int, cards: Sequence[str]) -> dict[str, Any]:
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


class TableManager:
    """The tables in memory; any other stored table is replayed from the store on request."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    def create(self, **kwargs: Any) -> tuple[Table, str]:
        """Create a table (see :meth:`Table.create`)."""
        table, token = Table.create(self.store, **kwargs)
        self.tables[table.id] = table
        return table, token

    def get(self, table_id: str) -> Table | None:
        """The table with this id, replayed from the store if it is not in memory.

        None if there is no such table, or if its record cannot be replayed (logged).
        """
        table = self.tables.get(table_id)
        if table is None:
            table = self.replay(table_id)
            if table is not None:
                self.tables[table_id] = table
        return table

    def replay(self, table_id: str) -> Table | None:
        """The table replayed from the store, not kept in memory (see :meth:`keep`): the slow
        part of :meth:`get`, for a worker thread. None as for :meth:`get`."""
        stored = self.store.load(table_id)
        if stored is None:
            return None
        try:
            return Table.restore(stored, self.store)
        except (RecordError, ValueError):
            log.error("table %s could not be replayed from its record", table_id)
            return None

    def keep(self, table: Table) -> Table:
        """Keep a replayed table in memory, unless a copy already is: the one to use."""
        return self.tables.setdefault(table.id, table)

    def forget(self, table_id: str) -> None:
        """Drop a table from memory; it stays in the store and :meth:`get` replays it again."""
        self.tables.pop(table_id, None)
