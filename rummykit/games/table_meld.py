"""A meld on the table, in any game: the cards and the seat that laid it (once laid, a meld
belongs to nobody: anyone may lay off on it, and lay-offs become part of it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rummykit.melds import Meld
from rummykit.wild_melds import Book, Run, is_wild

__all__ = ["TableMeld"]

M = TypeVar("M", bound=Meld | Book | Run)


@dataclass(frozen=True, slots=True)
class TableMeld(Generic[M]):
    """A meld on the table and the seat that laid it (Basic Rummy: a :class:`Meld`; Crazy Rummy:
    a :class:`~rummykit.wild_melds.Book` or :class:`~rummykit.wild_melds.Run`, wilds and all)."""

    meld: M
    owner: int

    def __str__(self) -> str:
        return str(self.meld)

    def to_dict(self) -> dict[str, Any]:
        """The meld as JSON data; with wild cards, which of its cards are wilds and what they
        stand for (a run, per card, the card it is or stands for; a book its ``rank``).

        >>> TableMeld(Meld.parse("5H 6H 7H"), owner=0).to_dict()
        {'meld': '5H 6H 7H', 'owner': 0}
        >>> TableMeld(Book.parse("9D 9S 2C"), owner=1).to_dict()
        {'meld': '9D 9S 2C', 'kind': 'book', 'owner': 1, 'wild': [False, False, True], 'rank': '9'}
        """
        meld = self.meld
        if isinstance(meld, Meld):
            return {"meld": str(meld), "owner": self.owner}
        data: dict[str, Any] = {
            "meld": str(meld),
            "kind": "run" if isinstance(meld, Run) else "book",
            "owner": self.owner,
        }
        if isinstance(meld, Run):
            data["wild"] = [meld.is_wild_at(i) for i in range(len(meld.cards))]
            data["stands_for"] = [str(c) for c in meld.stands_for]
        else:
            data["wild"] = [is_wild(c) for c in meld.cards]
            data["rank"] = str(meld.rank)
        return data
