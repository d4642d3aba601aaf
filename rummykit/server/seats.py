"""A table's seats: a person (known by the hash of a secret token, or of an invitation code
for a friend who has not come yet) or a computer player."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Seat", "alone", "hash_token", "invite_fits", "seat_number", "token_fits"]


@dataclass
class Seat:
    """A seat: a person or a computer player.

    A person's seat stores the hash of its secret token. A seat kept for a friend starts with no
    token and the hash of its invitation code instead; the friend who brings the code takes the
    seat (a token of their own) and the code is spent. A person may give a ``name``.
    """

    kind: str
    level: str | None = None
    token_hash: str | None = None
    invite_hash: str | None = None
    name: str | None = None
    stand_in: bool = False
    """A computer playing a person's seat (the friend who did not come, or left); ``name`` is
    then that person's name, if they gave one, and ``token_hash`` that person's token, if they
    had taken the seat: when they come back (connect with it), the seat is theirs again."""

    @property
    def open(self) -> bool:
        """True for a seat kept for a friend who has not taken it yet."""
        return self.kind == "human" and self.token_hash is None

    def to_dict(self) -> dict[str, Any]:
        """As stored (hashes only, never a token or a code)."""
        if self.kind == "human":
            out: dict[str, Any] = {"kind": "human", "token": self.token_hash}
            if self.invite_hash is not None:
                out["invite"] = self.invite_hash
            if self.name is not None:
                out["name"] = self.name
            return out
        if self.stand_in:
            out = {"kind": "computer", "level": self.level, "stand_in": True, "name": self.name}
            if self.token_hash is not None:
                out["token"] = self.token_hash
            return out
        return {"kind": "computer", "level": self.level}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seat:
        """A seat as stored."""
        return cls(
            data["kind"],
            level=data.get("level"),
            token_hash=data.get("token"),
            invite_hash=data.get("invite"),
            name=data.get("name"),
            stand_in=bool(data.get("stand_in", False)),
        )

    def public(self) -> dict[str, Any]:
        """As shown to every seat: the kind, the level or the name, and whether a person's seat
        is taken (``joined``)."""
        if self.kind == "human":
            return {"kind": "human", "level": None, "name": self.name, "joined": not self.open}
        if self.stand_in:  # named for the person whose seat it plays
            return {"kind": self.kind, "level": self.level, "stand_in": True, "name": self.name}
        return {"kind": self.kind, "level": self.level}


def hash_token(token: str) -> str:
    """What is stored of a seat's token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def alone(seats: Sequence[Seat]) -> bool:
    """A table of one person against the computer that never had another: every other seat a
    computer of its own (a friend who left or never came sits as a stand-in)."""
    return all(s.kind == "computer" and not s.stand_in for s in seats[1:])


def token_fits(seats: Sequence[Seat], seat: int, token: str) -> bool:
    """True if ``token`` is the secret of ``seat`` among ``seats``: checked from the stored
    seats alone, before any replay (a table's own check is ``Table.check_token``)."""
    if not 0 <= seat < len(seats):
        return False
    stored = seats[seat].token_hash
    return stored is not None and hmac.compare_digest(stored, hash_token(token))


def invite_fits(seats: Sequence[Seat], code: str) -> bool:
    """True if ``code`` is the invitation of a seat nobody has taken yet among ``seats``."""
    digest = hash_token(code)
    return any(
        s.invite_hash is not None and hmac.compare_digest(s.invite_hash, digest) for s in seats
    )


def seat_number(text: str) -> int:
    """A seat number from a path: one or two ASCII digits, no leading zero; else -1."""
    return int(text) if re.fullmatch(r"0|[1-9][0-9]?", text) else -1
