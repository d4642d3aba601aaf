"""Aids a player may be shown, worked out from their own view only (never another seat's
cards): the melds and deadwood of their hand, the deadwood each discard leaves, the best
lay-offs, the contract's progress, and whether a selection of cards lays the contract down.

The web page shows them beside the table; the terminal, the CLI and learning code may use them
too.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummykit.actions import Down, LayOff
from rummykit.cards import AnyCard
from rummykit.games.base import Phase, View
from rummykit.games.crazy import CrazyOptions, CrazyState, CrazyView
from rummykit.games.gin import GinView
from rummykit.games.rummy import RummyView
from rummykit.solver.contract import Contract, contract_distance, solve_contract
from rummykit.solver.deadwood import best_arrangement, best_layoffs, discard_deadwoods
from rummykit.wild_melds import DEFAULT_RULES, Run, WildRules, is_wild, position_card

__all__ = ["aids", "check_lay_down", "contract_made_of"]


def _cards(cards: Sequence[AnyCard]) -> list[str]:
    return [str(c) for c in cards]


def aids(view: View, options: CrazyOptions | None = None) -> dict[str, Any]:
    """Help for the page computed from ``view`` alone (the seat's own hand and public cards).

    Gin and Basic Rummy: the melds of the best arrangement of the hand (for the coloured bars) and
    its deadwood; Gin, when the seat must discard: the deadwood left by each discard (the Knock
    button reads Gin when it is 0); Gin, when the seat lays off: the best lay-offs. Crazy Rummy:
    the round's contract (with the fewest cards that make it), whether the hand can lay it
    down now, which cards of the hand are
    wilds (to mark them), and, given the game's ``options``, while the seat has not laid down in a
    round in play, ``short``: how many more cards its hand needs to make the contract (0: it
    could lay it down with the cards it holds).
    """
    out: dict[str, Any] = {}
    if isinstance(view, GinView | RummyView):
        hand = view.hand
        arrangement = best_arrangement(hand)
        out["melds"] = [_cards(m.cards) for m in arrangement.melds]
        out["deadwood"] = arrangement.deadwood
        if isinstance(view, GinView) and view.to_act == view.seat:
            if view.phase is Phase.DISCARD and len(hand) == 11:
                deadwoods = discard_deadwoods(hand)
                out["discard_deadwood"] = {str(c): d for c, d in deadwoods.items()}
                out["deadwood"] = min(deadwoods.values())
            elif view.phase is Phase.LAYOFF:
                plan = best_layoffs(hand, view.knock_melds)
                out["best_layoffs"] = [f"layoff {c} {i + 1}" for c, i in plan.layoffs]
                out["deadwood_after_layoffs"] = plan.deadwood
    elif isinstance(view, CrazyView):
        rules = options.rules if options is not None else DEFAULT_RULES
        out["contract"] = {
            "books": view.contract.books,
            "runs": view.contract.runs,
            "cards": view.contract.min_cards(rules),  # the fewest that can make it
        }
        downs = [str(a) for a in view.legal_actions if isinstance(a, Down)]
        out["can_lay_down"] = bool(downs)
        out["wilds"] = sorted({str(c) for c in view.hand if is_wild(c)})
        out["ends"] = _layoff_ends(view)
        if (
            options is not None
            and not view.laid_down[view.seat]
            and view.phase is not Phase.HAND_OVER
        ):
            # (the game's cards always make a contract; were it not so, no count, not no view)
            with contextlib.suppress(ValueError):
                out["short"] = contract_distance(
                    view.hand, view.contract, options.rules, jokers=options.jokers
                )
    return out


def _layoff_ends(view: CrazyView) -> dict[str, str]:
    """For each legal lay-off naming an end of a run: the card it stands for there.

    >>> from rummykit.games.crazy import Crazy
    >>> state = Crazy().new_hand(players=2, seed=1)
    >>> _layoff_ends(state.view(0))  # nothing on the table yet
    {}
    """
    out: dict[str, str] = {}
    for action in view.legal_actions:
        if isinstance(action, LayOff) and action.end is not None:
            meld = view.table[action.meld - 1].meld
            if isinstance(meld, Run):
                place = meld.low - 1 if action.end == "low" else meld.high + 1
                out[str(action)] = str(position_card(place, meld.suit))
    return out


def check_lay_down(state: CrazyState, seat: int, chosen: Sequence[AnyCard]) -> dict[str, Any]:
    """Crazy Rummy: whether the cards ``chosen`` by ``seat`` lay down the round's contract now.

    Returns ``down`` (the lay-down action's text, or None) and ``reason`` ("" when they do;
    ``not_in_hand``; ``not_now``, not this seat's time to lay down; ``no_contract``, with
    ``spare``, how many chosen cards fit in none of the contract's melds when the rest make it,
    or else ``made``, the most of the contract they make (:func:`contract_made_of`);
    ``blocked``, they make it exactly but laying them down would leave no legal way to end the
    turn: the card just taken from the pile may not be the last one left, or a card must be left
    to throw). Only ``seat``'s own view and cards are read.
    """
    view = state.view(seat)
    down: str | None = None
    reason = ""
    more: dict[str, Any] = {}
    if Counter(chosen) - Counter(view.hand):
        reason = "not_in_hand"
    elif view.to_act == seat and view.phase is Phase.DISCARD and not view.laid_down[seat]:
        rules = state.rules
        solution = solve_contract(chosen, view.contract, rules)
        if solution is not None and not solution.left:
            action = Down(tuple(tuple(m.cards) for m in solution.melds))
            if state.can(action, seat):
                down = str(action)
            else:
                reason = "blocked"
        elif solution is not None:
            reason, more = "no_contract", {"spare": len(solution.left)}
        else:
            reason, more = "no_contract", {"made": contract_made_of(chosen, view.contract, rules)}
    else:
        reason = "not_now"
    return {"down": down, "reason": reason, **more}


def contract_made_of(
    cards: Sequence[AnyCard], contract: Contract, rules: WildRules
) -> dict[str, int]:
    """The most melds of ``contract`` that ``cards`` make (more melds first, then more books),
    as ``{"books", "runs"}``; both 0 when they make none."""
    best = (0, 0)
    for books in range(contract.books + 1):
        for runs in range(contract.runs + 1):
            if (books, runs) in ((0, 0), (contract.books, contract.runs)):
                continue
            if (books + runs, books) <= (sum(best), best[0]):
                continue
            if solve_contract(cards, Contract(books, runs), rules) is not None:
                best = (books, runs)
    return {"books": best[0], "runs": best[1]}
