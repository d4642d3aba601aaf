"""Budgets that keep one client from crowding out the others: token buckets, per key.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; each request spends one. A
person never meets these limits in play; a script that floods the server does, and is told how
long to wait. Pure and synchronous: the caller passes the time (``time.monotonic()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["GIVE_AFTER", "TABLES_PER_MINUTE", "Bucket", "Buckets", "Budget", "Limits"]

K = TypeVar("K")

TABLES_PER_MINUTE = 30
"""New tables a minute from one address, by default (joins: twice that)."""

GIVE_AFTER = 30.0
"""Seconds a person's page must have been closed before another person may let the computer
play their seat, by default (at once if their turn's time ran out): a phone that locked its
screen for a moment keeps its seat."""


@dataclass(frozen=True, slots=True)
class Budget:
    """``burst`` requests at once, then ``rate`` a second."""

    burst: float
    rate: float

    def __post_init__(self) -> None:
        if not (self.burst >= 1 and self.rate > 0):
            raise ValueError("a budget allows at least one request at once, and some a second")

    @classmethod
    def per_minute(cls, count: float, burst: float | None = None) -> Budget:
        """``count`` a minute, ``burst`` (default ``count``) at once."""
        return cls(count if burst is None else burst, count / 60)


@dataclass(slots=True)
class Bucket:
    """One client's tokens under a :class:`Budget`."""

    budget: Budget
    tokens: float
    when: float

    def spend(self, now: float) -> float:
        """Spend a token: 0.0 if there was one, else the seconds until there is (nothing spent).

        >>> b = Bucket(Budget(2, 1.0), 2.0, 0.0)
        >>> b.spend(0.0), b.spend(0.0), b.spend(0.0), b.spend(0.5), b.spend(1.0)
        (0.0, 0.0, 1.0, 0.5, 0.0)
        """
        budget = self.budget
        self.tokens = min(budget.burst, self.tokens + (now - self.when) * budget.rate)
        self.when = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / budget.rate

    def full(self, now: float) -> bool:
        """True once the bucket has refilled: forgetting it changes nothing."""
        return self.tokens + (now - self.when) * self.budget.rate >= self.budget.burst


@dataclass
class Buckets(Generic[K]):
    """A bucket per key (a client's address, a socket), created full on first use; full
    buckets are forgotten now and then, so the keys held stay bounded by the clients active."""

    budget: Budget
    _held: dict[K, Bucket] = field(default_factory=dict)
    _swept: float = 0.0

    def spend(self, key: K, now: float) -> float:
        """Spend one of ``key``'s tokens: 0.0, or the seconds to wait (nothing spent).

        >>> b: Buckets[str] = Buckets(Budget.per_minute(60, burst=1))
        >>> b.spend("a", 0.0), b.spend("a", 0.0), b.spend("b", 0.0), b.spend("a", 1.0)
        (0.0, 1.0, 0.0, 0.0)
        """
        if now - self._swept > 60:
            self._swept = now
            for stale in [k for k, bucket in self._held.items() if bucket.full(now)]:
                del self._held[stale]
        bucket = self._held.get(key)
        if bucket is None:
            bucket = self._held[key] = Bucket(self.budget, self.budget.burst, now)
        return bucket.spend(now)

    def forget(self, key: K) -> None:
        """Drop ``key``'s bucket (a socket closed)."""
        self._held.pop(key, None)


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's budgets; None lifts one (a benchmark, a test of something else)."""

    create: Budget | None = Budget(TABLES_PER_MINUTE, TABLES_PER_MINUTE / 60)
    """New tables from one address, 30 a minute (a rematch needs a finished match: not
    counted)."""
    join: Budget | None = Budget(2 * TABLES_PER_MINUTE, 2 * TABLES_PER_MINUTE / 60)
    """Seats taken with an invitation from one address, 60 a minute (right or wrong codes
    alike)."""
    asks: Budget | None = Budget(burst=40, rate=5.0)
    """Hints, views, lay-down checks and reviews asked on one socket: 40 at once, 5 a second."""
    give_after: float = GIVE_AFTER
    """Seconds a person's page must have been closed before another person may let the
    computer play their seat (:data:`GIVE_AFTER`)."""

    @classmethod
    def tables_per_minute(cls, count: int, give_after: float = GIVE_AFTER) -> Limits:
        """The default budgets with ``count`` new tables a minute per address (joins twice
        that; 0 lifts both), and ``give_after``."""
        if count < 0:
            raise ValueError("tables a minute is 0 (no limit) or more")
        if give_after < 0:
            raise ValueError("the seconds before a seat may be given are 0 or more")
        if count == 0:
            return cls(create=None, join=None, give_after=give_after)
        create, join = Budget.per_minute(count), Budget.per_minute(2 * count)
        return cls(create=create, join=join, give_after=give_after)
