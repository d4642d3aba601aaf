"""The contracts of the seven rounds, the hand sizes, and a contract's solution."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rummykit.cards import AnyCard
from rummykit.wild_melds import (
    DEFAULT_RULES,
    Book,
    Run,
    WildMeld,
    WildRules,
)


@dataclass(frozen=True, slots=True)
class Contract:
    """The melds a player must lay down together: so many books and so many runs.

    >>> CONTRACTS[4], str(CONTRACTS[4]), CONTRACTS[4].min_cards()
    (Contract(books=2, runs=1), '2 books + 1 run', 10)
    """

    books: int
    runs: int

    def __post_init__(self) -> None:
        if self.books < 0 or self.runs < 0 or self.books + self.runs == 0:
            raise ValueError("a contract has no negative counts and at least one meld")

    def __str__(self) -> str:
        parts = []
        if self.books:
            parts.append(f"{self.books} book{'s' if self.books > 1 else ''}")
        if self.runs:
            parts.append(f"{self.runs} run{'s' if self.runs > 1 else ''}")
        return " + ".join(parts)

    def min_cards(self, rules: WildRules = DEFAULT_RULES) -> int:
        """The fewest cards that can make the contract."""
        return self.books * rules.min_book + self.runs * rules.min_run


CONTRACTS: Final = (
    Contract(books=2, runs=0),
    Contract(books=1, runs=1),
    Contract(books=0, runs=2),
    Contract(books=3, runs=0),
    Contract(books=2, runs=1),
    Contract(books=1, runs=2),
    Contract(books=0, runs=3),
)
"""The contracts of rounds 1 to 7 (``CONTRACTS[0]`` is round 1)."""

HAND_SIZES: Final = (7, 8, 9, 10, 11, 12, 13)
"""The cards dealt in rounds 1 to 7."""


@dataclass(frozen=True, slots=True)
class ContractSolution:
    """A best way to lay down a contract.

    ``melds`` are the books (by rank, ace first), then the runs (by suit, then position), each a
    valid :class:`~rummykit.wild_melds.Book` or :class:`~rummykit.wild_melds.Run` with every wild's
    identity fixed; ``left`` are the cards kept in hand (sorted); ``points_left`` their points,
    the least possible. Ties are broken deterministically (the same hand, in any order, gets the
    same answer).
    """

    melds: tuple[WildMeld, ...]
    left: tuple[AnyCard, ...]
    points_left: int

    @property
    def books(self) -> tuple[Book, ...]:
        """The books of the solution."""
        return tuple(m for m in self.melds if isinstance(m, Book))

    @property
    def runs(self) -> tuple[Run, ...]:
        """The runs of the solution."""
        return tuple(m for m in self.melds if isinstance(m, Run))
