"""What a Crazy Rummy seat knows: card kinds (52 for the joker), the copies of each still unseen, what
each opponent took, bought, threw and refused, and which cards fit the melds on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import AnyCard, Joker, parse_card
from rummykit.games.crazy import CrazyView
from rummykit.melds import MeldError
from rummykit.wild_melds import (
    Book,
    End,
    Run,
    WildMeld,
    WildRules,
    is_wild,
)

_JOKER_KEY: Final = 52
_KEYS: Final = 53
"""Card kinds: 0-51 the natural cards (``Card.index``), 52 the joker."""


def _key(card: AnyCard) -> int:
    return _JOKER_KEY if isinstance(card, Joker) else card.index


# ------------------------------------------------------------------------------- card counting


def _unseen_counts(view: CrazyView, jokers: int) -> list[int]:
    """Per card kind, the copies this seat has not seen (other hidden hands and the stock)."""
    counts = [2] * 52 + [jokers]
    seen: list[AnyCard] = [*view.hand, *view.discard_pile]
    for table_meld in view.table:
        seen.extend(table_meld.meld.cards)
    for seat, known in enumerate(view.known_cards):
        if seat != view.seat:
            seen.extend(known)
    for card in seen:
        k = _key(card)
        if counts[k] > 0:
            counts[k] -= 1
    return counts


@dataclass(slots=True)
class _Notes:
    """What each seat showed: cards it took or bought, threw, and let go past."""

    took: list[list[AnyCard]]
    discarded: list[list[AnyCard]]
    refused: list[list[AnyCard]]


def _notes(view: CrazyView) -> _Notes:
    """Replay the public history over the top of the discard pile."""
    n = len(view.hand_sizes)
    took: list[list[AnyCard]] = [[] for _ in range(n)]
    discarded: list[list[AnyCard]] = [[] for _ in range(n)]
    refused: list[list[AnyCard]] = [[] for _ in range(n)]
    top: AnyCard | None = None
    if view.history and len(view.discard_pile) >= 1:
        # the first up-card is not named in the history; it is the bottom of the pile while
        # nobody took it (and no restock happened: then it no longer matters much)
        first = view.history[0][1]
        if first in ("pass", "draw"):
            top = view.discard_pile[0]
    pending = top is not None
    for seat, text in view.history:
        verb, _, rest = text.partition(" ")
        if verb == "discard":
            top = parse_card(rest)
            discarded[seat].append(top)
            pending = True
        elif verb in ("take", "buy"):
            if top is not None:
                took[seat].append(top)
            top = None
            pending = False
        elif verb in ("pass", "draw") and pending and top is not None:
            refused[seat].append(top)
    return _Notes(took, discarded, refused)


# ------------------------------------------------------------------------------ table helpers


def _layoffs_of(
    card: AnyCard, meld: WildMeld, rules: WildRules
) -> list[tuple[End | None, WildMeld]]:
    """Each way ``card`` goes onto ``meld``: (the end as the engine names it, the new meld)."""
    if isinstance(meld, Book):
        book = meld.extended_by(card, rules)
        return [] if book is None else [(None, book)]
    out: list[tuple[End | None, WildMeld]] = []
    ends: list[End] = []
    placed: list[Run] = []
    both: tuple[End, End] = ("low", "high")
    for end in both:
        run = meld.extended_by(card, end, rules)
        if run is not None:
            ends.append(end)
            placed.append(run)
    named = is_wild(card) or len(ends) > 1
    for end, run in zip(ends, placed, strict=True):
        out.append((end if named else None, run))
    return out


def _meld_of(cards: Sequence[AnyCard], rules: WildRules) -> WildMeld | None:
    """The meld a group of a lay-down forms (as the engine reads it), or None."""
    for reader in (Book.of, Run.of):
        try:
            return reader(cards, rules)
        except MeldError:
            continue
    return None


def _fits_table(card: AnyCard, melds: Sequence[WildMeld], rules: WildRules) -> bool:
    for meld in melds:
        if isinstance(meld, Book):
            if meld.accepts(card, rules):
                return True
        elif meld.layoff_ends(card, rules):
            return True
    return False


def _sorted(cards: Iterable[AnyCard]) -> tuple[AnyCard, ...]:
    return tuple(sorted(cards, key=lambda c: c.sort_key))
