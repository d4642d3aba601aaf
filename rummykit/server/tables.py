"""Tables: a match of any game, its seats (one person, the rest computer players) and turn flow.

Everything here is synchronous; :mod:`rummykit.server.app` wraps it in the async edge. A table
holds a :class:`~rummykit.games.match.Match`, checks every intent of a seat (its token, the view
``seq`` it acts on, whose turn it is, the action's legality by the engine), commits each accepted
action to the :class:`~rummykit.server.store.Store` before answering, and runs the computer seats
one action at a time (:meth:`Table.step_computer`) so the page can show each move.

What a seat is sent is built from ``state.view(seat)`` only, plus aids computed from that view
(the melds found in the seat's own hand, its deadwood) and a log of the last move as that seat saw
it. Nothing here ever puts another seat's cards or the stock in a message.

A :class:`Table` is made of parts kept in modules of their own: the messages a seat is sent
(:mod:`~.table_views`), the turn clock and people away (:mod:`~.table_clock`), taking a move
back (:mod:`~.table_undo`), hints and reviews (:mod:`~.table_advice`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, cast

from rummykit.actions import Action, ActionSyntaxError, Pass, parse_action
from rummykit.aids import aids
from rummykit.cards import cut
from rummykit.games import find_game
from rummykit.games.base import Game, HandState, IllegalActionError, Phase
from rummykit.games.gin import GinView
from rummykit.games.match import Match
from rummykit.players import Player
from rummykit.record import RecordError, is_match, load_record
from rummykit.server.catalogue import check_server_caps, levels_for
from rummykit.server.names import NameTaken, clean_name, same_name
from rummykit.server.protocol import ProtocolError
from rummykit.server.seats import Seat, alone, hash_token, token_fits
from rummykit.server.store import Store, StoreConflict, StoredTable
from rummykit.server.table_advice import TableAdvice
from rummykit.server.table_clock import TurnClock
from rummykit.server.table_undo import TableUndo
from rummykit.server.table_views import TableViews, names_the_pile
from rummykit.server.thinking import Decision, make_player

log = logging.getLogger("rummykit.server")

__all__ = [
    "Table",
    "TableManager",
    "decision_seed",
]

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


class Table(TableViews, TurnClock, TableUndo, TableAdvice):
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
            if names_the_pile(action, self.game_name) and offered is not None:
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
