"""Whole-turn plans for Basic Rummy: which melds to lay down, which cards to lay off (in an order the
rules allow) and which card to throw, every choice a turn allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from rummykit.actions import Action, Discard, LayOff, NewMeld
from rummykit.cards import Card
from rummykit.games.rummy import melds_in
from rummykit.melds import Meld
from rummykit.players.rummy.knowledge import _mask, _meld_numbers, _MeldNumbers
from rummykit.solver.deadwood import best_arrangement, min_deadwood_mask

# ------------------------------------------------------------------------------- planning


@dataclass(frozen=True, slots=True)
class _Plan:
    """One way to play the rest of a turn: steps in a legal order, and the hand it leaves."""

    steps: tuple[Action, ...]
    final: int
    """The hand at the end of the turn (0 when the plan goes out)."""
    out: bool
    melds: tuple[Meld, ...]
    table: tuple[_MeldNumbers, ...]
    """The table after the plan."""
    discard: Card | None


def _layoff_steps(
    hand: list[Card],
    table: list[Meld],
    taken: Card | None,
    keep_melds: bool,
    no_empty: bool,
) -> list[tuple[Card, int]]:
    """Lay-offs onto ``table`` (changed in place, ``hand`` too), each legal when it is made.

    With ``keep_melds`` only cards that are unmatched in the hand are laid off (a card of a meld
    held in the hand stays).
    """
    done: list[tuple[Card, int]] = []
    changed = True
    while changed:
        changed = False
        # The card taken from the pile first: laid off before the others, it can never be left
        # alone (the order every table's stranding rule allows).
        for card in sorted(hand, key=lambda c: c is not taken):
            left = len(hand) - 1
            if left == 0 and no_empty:
                continue
            if keep_melds:
                mask = _mask(hand)
                if min_deadwood_mask(mask & ~card.bit) != min_deadwood_mask(mask) - card.points:
                    continue
            for number, meld in enumerate(table):
                extended = meld.extended_by(card)
                if extended is not None:
                    if left == 1 and _strands(
                        [c for c in hand if c is not card],
                        taken,
                        [*table[:number], extended, *table[number + 1 :]],
                    ):
                        continue  # it would strand the card taken from the discard pile
                    table[number] = extended
                    hand.remove(card)
                    done.append((card, number + 1))
                    changed = True
                    break
    return done


def _strands(rest: Sequence[Card], taken: Card | None, table: Sequence[Meld]) -> bool:
    """True if a play leaving ``rest`` in hand and ``table`` on the table strands the card taken
    from the discard pile: it is the only card left and fits no meld (the default
    ``stranding="dead_end"`` rule). At a ``"strict"`` table the plans this lets through that
    start with a refused step are dropped by the callers' check of the first step."""
    if len(rest) != 1 or taken is None or rest[0] is not taken:
        return False
    return not any(m.accepts(taken) for m in table)


def _meld_choices(hand: Sequence[Card], allowed: int | None) -> list[tuple[Meld, ...]]:
    """The sets of new melds worth trying: none, each single meld, and with more than one meld
    allowed a turn, every combination of the best arrangement's melds."""
    if allowed == 0:
        return [()]
    out: list[tuple[Meld, ...]] = [(), *((m,) for m in melds_in(hand))]
    if allowed is None or allowed >= 2:
        best = best_arrangement(list(hand)).melds[:4]
        most = len(best) if allowed is None else min(allowed, len(best))
        for size in range(2, most + 1):
            out.extend(combinations(best, size))
    return out


def _plans(
    hand: Sequence[Card],
    table: Sequence[Meld],
    taken: Card | None,
    allowed: int | None,
    *,
    discard: bool = True,
    no_empty: bool = False,
    layoffs: bool = True,
) -> list[_Plan]:
    """Every plan worth scoring for the rest of a turn (see :class:`_Plan`).

    ``allowed`` is how many new melds may still be laid this turn (None: any number). Without
    ``discard`` the plans stop before the discard (the hand as it would be kept).
    """
    out: list[_Plan] = []
    seen: set[tuple[int, int]] = set()
    for choice in _meld_choices(hand, allowed):
        rest = list(hand)
        steps: list[Action] = []
        laid: list[Meld] = []
        ok = True
        for meld in choice:
            for card in meld.cards:
                rest.remove(card)
            if (no_empty and not rest) or _strands(rest, taken, [*table, *laid, meld]):
                ok = False
                break
            steps.append(NewMeld(meld.cards))
            laid.append(meld)
        if not ok:
            continue
        variants = (False, True) if layoffs else ()
        layoff_options: list[tuple[list[Card], list[Meld], list[tuple[Card, int]]]] = []
        if not layoffs:
            layoff_options.append((rest, [*table, *laid], []))
        for keep in variants:
            cards = list(rest)
            new_table = [*table, *laid]
            done = _layoff_steps(cards, new_table, taken, keep, no_empty)
            layoff_options.append((cards, new_table, done))
            if not done:
                break
        for cards, new_table, done in layoff_options:
            mask = _mask(cards)
            all_steps = steps + [LayOff(c, n) for c, n in done]
            tm = tuple(_meld_numbers(m) for m in new_table)
            if not discard:
                key = (mask, -1)
                if key not in seen:
                    seen.add(key)
                    out.append(_Plan(tuple(all_steps), mask, not cards, tuple(laid), tm, None))
                continue
            if not cards:
                out.append(_Plan(tuple(all_steps), 0, True, tuple(laid), tm, None))
                continue
            for card in cards:
                if card is taken:
                    continue
                final = mask & ~card.bit
                key = (final, card.index)
                if key in seen:
                    continue
                seen.add(key)
                out.append(
                    _Plan((*all_steps, Discard(card)), final, not final, tuple(laid), tm, card)
                )
    return out
