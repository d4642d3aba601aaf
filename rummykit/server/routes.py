"""The JSON API: the games, a new table, a friend's seat, a table's state, a seat given to the
computer, a rematch; with the helpers that read and refuse a request's body."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from rummykit import __version__
from rummykit.server.catalogue import game_catalogue
from rummykit.server.hub import Hub
from rummykit.server.limits import Buckets, Limits
from rummykit.server.names import BadName, NameTaken
from rummykit.server.protocol import DuplicateKeyError, ProtocolError, load_json
from rummykit.server.seats import Seat, invite_fits, seat_number, token_fits
from rummykit.server.tables import Table

__all__ = ["CREATE_FIELDS", "MAX_BODY", "NOT_VALID", "add_routes", "opened_or_refused"]

MAX_BODY = 16_384
"""Bytes at most in a request body (a new table's settings are far smaller)."""

NOT_VALID = "that invitation is not valid, or its seat is already taken"
"""The answer to an invitation code that opens no seat (as :meth:`Table.join` says it)."""

CREATE_FIELDS = frozenset(
    {"game", "opponents", "level", "options", "friends", "name", "turn_time", "deal"}
)
"""The fields of a new table's request."""


async def _read_body(request: Request) -> bytes | None:
    """The request body, or None if it is longer than :data:`MAX_BODY` (read no further)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


def _refuse(status: int, error: str) -> JSONResponse:
    return JSONResponse({"error": error}, status_code=status)


def _bad_name(exc: BadName, status: int) -> JSONResponse:
    """A refused name: why in words, and in one word for the page (``why``, see BadName)."""
    return JSONResponse({"error": str(exc), "field": "name", "why": exc.why}, status_code=status)


def _limited(buckets: Buckets[str] | None, request: Request, what: str) -> JSONResponse | None:
    """429 with ``Retry-After`` if the request's address has spent its budget for ``what``."""
    if buckets is None:
        return None
    address = request.client.host if request.client is not None else ""
    wait = buckets.spend(address, time.monotonic())
    if not wait:
        return None
    seconds = max(1, math.ceil(wait))
    answer = _refuse(429, f"too many {what} from this address: try again in {seconds} s")
    answer.headers["Retry-After"] = str(seconds)
    return answer


async def _object_body(
    request: Request, allowed: frozenset[str], required: frozenset[str] = frozenset()
) -> dict[str, Any] | JSONResponse:
    """The request's JSON object, or the refusal to send: 415 unless it says it is JSON (a
    plain form on another site cannot send it, then), 413 over :data:`MAX_BODY`, 400 for
    anything but a JSON object (or not Unicode, or nested too deep), for a field outside
    ``allowed`` or a ``required`` one missing."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        return _refuse(415, "the body is JSON (Content-Type: application/json)")
    raw = await _read_body(request)
    if raw is None:
        return _refuse(413, f"the body is too long (at most {MAX_BODY} bytes)")
    try:
        body = load_json(raw)
    except DuplicateKeyError as exc:
        return _refuse(400, str(exc))
    except ProtocolError:
        body = None
    if not isinstance(body, dict):
        return _refuse(400, "the body is a JSON object")
    unknown = sorted(set(body) - allowed)
    if unknown:
        return _refuse(400, f"unknown field(s): {', '.join(unknown)}")
    missing = sorted(required - set(body))
    if missing:
        return _refuse(400, f"missing field(s): {', '.join(missing)}")
    return body


async def opened_or_refused(
    hub: Hub, table_id: str, allowed: Callable[[Sequence[Seat]], bool], refusal: str
) -> Table | JSONResponse:
    """:meth:`Hub.opened` for a request over HTTP: 404 or 403 instead of the error."""
    try:
        return await hub.opened(table_id, allowed, refusal)
    except ProtocolError as exc:
        status = 404 if exc.code == "unknown_table" else 403
        return JSONResponse({"error": str(exc)}, status_code=status)


def add_routes(app: FastAPI, hub: Hub, limits: Limits) -> None:
    """The API's routes on ``app``, its tables in ``hub``, its budgets ``limits``."""
    manager = hub.manager
    creating = None if limits.create is None else Buckets[str](limits.create)
    joining = None if limits.join is None else Buckets[str](limits.join)

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """The games, their presets, table sizes, computer levels and main options."""
        return {"version": __version__, "games": [g.to_dict() for g in game_catalogue()]}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> JSONResponse:
        """A new table: ``{"game", "opponents", "level", "options", "friends", "name",
        "turn_time", "deal"}`` -> seat 0, its token, and an invitation code for each friend's
        seat."""
        body = await _object_body(request, CREATE_FIELDS)
        if isinstance(body, JSONResponse):
            return body
        refused = _limited(creating, request, "new tables")
        if refused is not None:
            return refused
        game = body.get("game")
        opponents = body.get("opponents", 1)
        level = body.get("level", "random")
        options = body.get("options", {})
        if (
            not isinstance(game, str)
            or isinstance(opponents, bool)
            or not isinstance(opponents, int)
            or not isinstance(level, str)
            or not isinstance(options, dict)
        ):
            return JSONResponse(
                {"error": "expected game (string), opponents (number), level, options (object)"},
                status_code=400,
            )
        try:
            table, token = manager.create(
                variant=game,
                opponents=opponents,
                level=level,
                options=options,
                friends=body.get("friends", 0),
                name=body.get("name"),
                turn_time=body.get("turn_time", 0),
                deal=body.get("deal"),
            )
        except BadName as exc:
            return _bad_name(exc, 400)
        except (ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        manager.forget(table.id)  # stored; replayed when its seat connects
        invites = [{"seat": seat, "code": code} for seat, code in table.invites.items()]
        return JSONResponse(
            {"table": table.id, "seat": 0, "token": token, "invites": invites}, status_code=201
        )

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, request: Request) -> JSONResponse:
        """A friend takes the seat of an invitation: ``{"code", "name"}`` -> the seat, its token."""
        body = await _object_body(request, frozenset({"code", "name"}), frozenset({"code"}))
        if isinstance(body, JSONResponse):
            return body
        if not isinstance(body["code"], str):
            return _refuse(400, "the invitation's code is text")
        refused = _limited(joining, request, "seats taken")
        if refused is not None:
            return refused
        code = body["code"]
        table = await opened_or_refused(
            hub, table_id, lambda seats: invite_fits(seats, code), NOT_VALID
        )
        if isinstance(table, JSONResponse):
            return table
        try:
            async with hub.lock(table.id):
                seat, token = table.join(code, body.get("name"))
                await hub.broadcast(table.id, table.seats_message())
                hub.wake(table)  # their turn's clock, if it is their turn, runs from now
        except ProtocolError as exc:
            return JSONResponse({"error": str(exc)}, status_code=403)
        except NameTaken as exc:
            return _bad_name(exc, 409)
        except BadName as exc:
            return _bad_name(exc, 400)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        finally:
            hub.release(table.id)
        return JSONResponse({"table": table.id, "seat": seat, "token": token})

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> JSONResponse:
        """Whether a table exists and is unfinished (for the start screen's Continue): from
        the store's row, never replayed for this (anyone may ask), or from memory."""
        table = manager.tables.get(table_id)
        summary = await hub.summary(table_id)
        if summary is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if table is not None:  # (in play: its seats and hands as they are this instant)
            seats, finished, hands = table.seats, table.finished, len(table.match.hands)
        else:
            seats = [Seat.from_dict(s) for s in summary.seats]
            finished, hands = summary.finished, summary.hands
        return JSONResponse(
            {
                "table": summary.id,
                "game": summary.game,
                "variant": summary.variant,
                "over": finished,
                "hand_number": hands,
                "seats": [s.public() for s in seats],
                "next": summary.next if finished else None,
                "turn_time": summary.turn_time,
            }
        )

    @app.post("/api/tables/{table_id}/seats/{seat_text}/computer")
    async def seat_to_computer(table_id: str, seat_text: str, request: Request) -> JSONResponse:
        """A computer plays a person's seat: ``{"by": 0, "token": that seat's token, "level":
        "easy"}`` -> the seats. The table's creator (``by`` 0, the default) may do it for a
        friend who has not taken their seat or is not connected; any other person at the table
        for one who took their seat and is not connected now (the creator too)."""
        body = await _object_body(
            request, frozenset({"by", "token", "level"}), frozenset({"token"})
        )
        if isinstance(body, JSONResponse):
            return body
        by = body.get("by", 0)
        level = body.get("level")
        if type(by) is not int or not isinstance(body["token"], str):
            return _refuse(400, 'the body is {"by": number, "token": text, "level": text}')
        if level is not None and not isinstance(level, str):
            return _refuse(400, 'the body is {"by": number, "token": text, "level": text}')
        seat = seat_number(seat_text)
        token = body["token"]
        refusal = "only the table's creator may do that" if by == 0 else "wrong token"
        table = await opened_or_refused(
            hub, table_id, lambda seats: token_fits(seats, by, token), refusal
        )
        if isinstance(table, JSONResponse):
            return table
        try:
            async with hub.lock(table.id):
                connected = hub.seats_of(table.id)
                after = limits.give_after
                table.give_to_computer(seat, level, connected=connected, by=by, after=after)
                message = table.seats_message()
                await hub.broadcast(table.id, message)
                hub.wake(table)  # it may be that seat's turn
        except ProtocolError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        finally:
            hub.release(table.id)
        return JSONResponse({"seats": message["seats"]})

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch_table(table_id: str, request: Request) -> JSONResponse:
        """After the match: the next one at this table, same game and seats; every person seated
        hears ``{"t": "rematch", "table": id}``. ``{"seat", "token"}`` -> ``{"table"}``."""
        fields = frozenset({"seat", "token"})
        body = await _object_body(request, fields, fields)
        if isinstance(body, JSONResponse):
            return body
        if type(body["seat"]) is not int or not isinstance(body["token"], str):
            return _refuse(400, 'the body is {"seat": number, "token": text}')
        seat, token = body["seat"], body["token"]
        table = await opened_or_refused(
            hub, table_id, lambda seats: token_fits(seats, seat, token), "wrong token for this seat"
        )
        if isinstance(table, JSONResponse):
            return table
        try:
            async with hub.lock(table.id):
                next_id = table.rematch()
                await hub.broadcast(table.id, {"t": "rematch", "table": next_id})
        except ProtocolError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        finally:
            hub.release(table.id)
        return JSONResponse({"table": next_id}, status_code=201)
