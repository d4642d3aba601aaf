"""Turns once down in Crazy Rummy: lay-offs and wild swaps in every order, then the discard, planned
to leave the fewest cards and points (going out when it can).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rummykit.actions import Action, Discard, LayOff, Swap
from rummykit.cards import AnyCard, Card
from rummykit.games.crazy import CrazyView
from rummykit.players.crazy.knowledge import _layoffs_of, _sorted
from rummykit.wild_melds import (
    Run,
    WildMeld,
    WildRules,
    is_wild,
)

# --------------------------------------------------------------------------- turns once down


@dataclass(slots=True)
class _Plan:
    """The best way found to play the rest of a turn once down."""

    score: float
    actions: tuple[Action, ...]
    left: tuple[AnyCard, ...]
    """The cards kept after the turn (empty: out)."""


_OUT_SCORE: Final = -1_000_000.0

_KeepScore = Callable[[tuple[AnyCard, ...], AnyCard], float]
"""Scores the hand kept after a turn once down, given the card thrown (lower is better)."""


def _plan_turn(
    view: CrazyView,
    rules: WildRules,
    keep_score: _KeepScore,
    *,
    swaps: bool = True,
    discard_to_go_out: bool = False,
    discard_taken_twin: bool = False,
    node_limit: int = 4000,
) -> _Plan:
    """Search lay-offs and swaps in every order, then the discard, for the best leftover hand.

    ``keep_score(left, thrown)`` scores the hand kept after discarding ``thrown`` (lower is
    better); going out scores best of all. With ``discard_to_go_out`` the last card cannot be
    laid off. The plan's first action is always one of the view's legal actions.
    """
    me = view.seat
    taken = view.taken_from_discard
    owners = [t.owner for t in view.table]
    start_table = tuple(t.meld for t in view.table)
    memo: dict[tuple[tuple[AnyCard, ...], tuple[str, ...]], _Plan] = {}
    nodes = 0

    def finish(hand: tuple[AnyCard, ...]) -> _Plan:
        if not hand:
            return _Plan(_OUT_SCORE, (), ())
        best: _Plan | None = None
        for card in dict.fromkeys(hand):
            # The taken card stays, and its twin too unless the table allows it. (A twin laid
            # off earlier in the plan would make the last copy throwable: missed, which only
            # leaves a plan out.)
            if card == taken and (hand.count(card) < 2 or not discard_taken_twin):
                continue
            rest = list(hand)
            rest.remove(card)
            if not rest:
                return _Plan(_OUT_SCORE + 1, (Discard(card),), ())
            value = keep_score(tuple(rest), card)
            if best is None or value < best.score:
                best = _Plan(value, (Discard(card),), tuple(rest))
        if best is None:  # only the taken card and its twins: no throw ends the turn here
            return _Plan(math.inf, (), tuple(hand))
        return best

    def search(hand: tuple[AnyCard, ...], table: tuple[WildMeld, ...]) -> _Plan:
        nonlocal nodes
        key = (hand, tuple(str(m) for m in table))
        found = memo.get(key)
        if found is not None:
            return found
        nodes += 1
        best = finish(hand)
        if best.score <= _OUT_SCORE or nodes > node_limit:
            memo[key] = best
            return best
        moves: list[tuple[int, Action, tuple[AnyCard, ...], tuple[WildMeld, ...]]] = []
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            if taken is not None and rest and card != taken and all(c == taken for c in rest):
                continue  # would strand the card taken from the pile (and its twins)
            if discard_to_go_out and not rest:
                continue
            for index, meld in enumerate(table):
                for end, new in _layoffs_of(card, meld, rules):
                    order = 1 if is_wild(card) else 0
                    new_table = (*table[:index], new, *table[index + 1 :])
                    moves.append((order, LayOff(card, index + 1, end), tuple(rest), new_table))
        if swaps:
            for card in dict.fromkeys(c for c in hand if isinstance(c, Card) and not is_wild(c)):
                for index, meld in enumerate(table):
                    if owners[index] == me or not isinstance(meld, Run):
                        continue
                    swapped = meld.swap(card, rules)
                    if swapped is None:
                        continue
                    new_run, wild = swapped
                    rest = list(hand)
                    rest.remove(card)
                    new_hand = _sorted([*rest, wild])
                    new_table = (*table[:index], new_run, *table[index + 1 :])
                    moves.append((2, Swap(card, index + 1), new_hand, new_table))
        moves.sort(key=lambda m: m[0])
        for _, action, new_hand, new_table in moves:
            sub = search(new_hand, new_table)
            if sub.score < best.score:
                best = _Plan(sub.score, (action, *sub.actions), sub.left)
                if best.score <= _OUT_SCORE + 1:
                    break
        memo[key] = best
        return best

    plan = search(_sorted(view.hand), start_table)
    if not plan.actions or plan.actions[0] not in view.legal_actions:  # a safety net
        throw = next((a for a in view.legal_actions if isinstance(a, Discard)), None)
        if throw is None:  # only twins of the taken card left to throw: one goes on the table
            return _Plan(math.inf, (view.legal_actions[0],), tuple(view.hand))
        rest = list(view.hand)
        rest.remove(throw.card)
        return _Plan(keep_score(tuple(rest), throw.card), (throw,), tuple(rest))
    return plan
