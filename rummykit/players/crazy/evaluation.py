"""The hand measures of the Crazy Rummy players: the contract distance in score units and the quick
*potential* of a hand (pairs, near-books, run windows, weighed by the copies still unseen).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rummykit.cards import AnyCard, Joker
from rummykit.games.crazy import CrazyOptions, CrazyView
from rummykit.players.crazy.knowledge import _fits_table, _key, _sorted, _unseen_counts
from rummykit.solver.contract import Contract, contract_distance
from rummykit.wild_melds import (
    WildRules,
)

_DIST_W: Final = 100.0
"""Score units of one card of contract distance."""

# -------------------------------------------------------------------------- the hand measures


@dataclass(slots=True)
class _Ctx:
    """One decision's facts and memos."""

    view: CrazyView
    options: CrazyOptions
    rules: WildRules
    contract: Contract
    unseen: list[int]
    avail: list[float]
    """Per card kind, how many copies may still come this seat's way (for the potential)."""
    dist_memo: dict[tuple[AnyCard, ...], int] = field(default_factory=dict)
    fit_memo: dict[int, bool] = field(default_factory=dict)

    def dist(self, hand: Sequence[AnyCard]) -> int:
        key = _sorted(hand)
        found = self.dist_memo.get(key)
        if found is None:
            found = contract_distance(key, self.contract, self.rules, jokers=self.options.jokers)
            self.dist_memo[key] = found
        return found

    def fits(self, card: AnyCard) -> bool:
        k = _key(card)
        found = self.fit_memo.get(k)
        if found is None:
            found = _fits_table(card, [t.meld for t in self.view.table], self.rules)
            self.fit_memo[k] = found
        return found


def _ctx(view: CrazyView, options: CrazyOptions) -> _Ctx:
    unseen = _unseen_counts(view, options.jokers)
    return _Ctx(view, options, options.rules, view.contract, unseen, [float(u) for u in unseen])


_BOOK_VALUE: Final = (0.0, 0.4, 1.6, 3.2)
_RUN_VALUE: Final = (0.0, 0.3, 1.2, 2.6, 4.0)


def _potential(hand: Sequence[AnyCard], ctx: _Ctx) -> float:
    """How promising a hand is for the contract beyond its distance (higher is better)."""
    contract = ctx.contract
    avail = ctx.avail
    nat = [[0] * 15 for _ in range(4)]
    wilds = 0
    for card in hand:
        if isinstance(card, Joker) or card.number == 2:
            wilds += 1
            continue
        nat[card.suit_index][card.number] += 1
    total = 0.0
    if contract.books:
        values = []
        for n in (1, *range(3, 14)):
            k = nat[0][n] + nat[1][n] + nat[2][n] + nat[3][n]
            if not k:
                continue
            a = min(6.0, sum(avail[13 * s + n - 1] for s in range(4)))
            if k >= 3:
                values.append(_BOOK_VALUE[3] + 0.3 * (k - 3))
            elif k == 2:
                values.append(_BOOK_VALUE[2] + 0.25 * a)
            else:
                values.append(_BOOK_VALUE[1] + 0.08 * a)
        values.sort(reverse=True)
        total += sum(values[: contract.books]) + 0.5 * sum(
            values[contract.books : contract.books + 1]
        )
    if contract.runs:
        windows: list[float] = []
        for s in range(4):
            row = nat[s]
            has = [0] * 15
            for p in range(1, 14):
                has[p] = 1 if row[p] else 0
            has[14] = has[1]
            best: list[tuple[float, int]] = []
            for lo in range(1, 12):
                m = has[lo] + has[lo + 1] + has[lo + 2] + has[lo + 3]
                if m == 0:
                    continue
                missing = 0.0
                for p in range(lo, lo + 4):
                    if not has[p]:
                        missing += min(2.0, avail[13 * s + (0 if p == 14 else p - 1)])
                extra = 0
                p = lo + 4
                while p <= 14 and has[p]:
                    extra += 1
                    p += 1
                best.append((_RUN_VALUE[m] + 0.12 * missing + 0.3 * extra, lo))
            best.sort(reverse=True)
            if best:
                windows.append(best[0][0])
                second = next((v for v, lo in best[1:] if abs(lo - best[0][1]) >= 4), None)
                if second is not None:
                    windows.append(second)
        windows.sort(reverse=True)
        total += sum(windows[: contract.runs]) + 0.5 * sum(
            windows[contract.runs : contract.runs + 1]
        )
    return total + 0.8 * wilds
