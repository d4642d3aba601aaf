"""A quick test that a hand cannot make a contract, before the full solve.

Most hands a game asks about cannot lay down their contract, and saying so with the full
solver costs as much as solving. :func:`may_lay_down` counts, with every card free for the
books and for the runs at once, the fewest wilds the contract's melds could need and the most
melds each rank and suit could give; False means no way exists (the solver would find none),
True only that the solver must look.

Why each bound holds: a book of ``n`` naturals needs ``min_book - n`` wilds (and ``n`` at least
``_min_book_naturals``); every stretch of ``min_run`` places in a run has at most
``max_wilds_run`` wilds, so a run in a suit needs at least ``min_run`` less the most naturals
of that suit in any such stretch, and at least ``min_run - max_wilds_run`` natural cards of
its own. Counting every 2 as a wild as well as a natural only loosens the test.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import AnyCard, Card
from rummykit.solver.contract.contracts import Contract
from rummykit.wild_melds import WildRules

__all__ = ["may_lay_down"]


def _min_book_naturals(rules: WildRules) -> int:
    """The fewest natural cards of a book (as the solver's own count)."""
    n = 1
    while n + min(rules.max_wilds_book, n) < rules.min_book:
        n += 1
    return n


def _cheapest(costs: list[tuple[int, int]], melds: int) -> int | None:
    """The fewest wilds ``melds`` melds need, from (wilds each, how many) offers; None when
    the offers hold fewer melds."""
    total = 0
    for cost, count in sorted(costs):
        take = min(count, melds)
        total += cost * take
        melds -= take
        if not melds:
            return total
    return None if melds else total


_BEST_WINDOWS: dict[int, int] = {}


def _best_window(places: int, span: int) -> int:
    """The most places of ``places`` (bits 1 to 14) in any ``span`` places in a row."""
    key = places | span << 15
    best = _BEST_WINDOWS.get(key)
    if best is None:
        window = (1 << span) - 1
        best = max((places >> low & window).bit_count() for low in range(1, 16 - span))
        if len(_BEST_WINDOWS) >= 1 << 16:  # every suit pattern of two run lengths, at most
            _BEST_WINDOWS.clear()
        _BEST_WINDOWS[key] = best
    return best


def may_lay_down(hand: Sequence[AnyCard], contract: Contract, rules: WildRules) -> bool:
    """False only if ``hand`` surely cannot lay down ``contract`` (see the module's notes)."""
    wilds = 0
    ranks = [0] * 14  # natural cards per number (1-13), 2s too
    places = [0, 0, 0, 0]  # per suit, a bit per place of a run (1: ace low ... 14: ace high)
    suit_cards = [0, 0, 0, 0]
    for card in hand:
        if not isinstance(card, Card):
            wilds += 1
            continue
        number = card.number
        if number == 2:
            wilds += 1
        ranks[number] += 1
        suit = card.suit_index
        suit_cards[suit] += 1
        places[suit] |= 1 << number | (1 << 14 if number == 1 else 0)
    need = 0
    if contract.books:
        least = _min_book_naturals(rules)
        offers = [
            (max(0, rules.min_book - count), count // least)
            for number, count in enumerate(ranks)
            if number != 2 and count >= least
        ]
        cost = _cheapest(offers, contract.books)
        if cost is None:
            return False
        need += cost
    if contract.runs:
        span = rules.min_run
        fewest = span - rules.max_wilds_run  # naturals in any run
        offers = []
        for suit in range(4):
            bits = places[suit]
            if not bits or suit_cards[suit] < fewest:
                continue
            best = _best_window(bits, span)
            if best >= fewest:
                offers.append((span - best, suit_cards[suit] // fewest))
        cost = _cheapest(offers, contract.runs)
        if cost is None:
            return False
        need += cost
    return need <= wilds
