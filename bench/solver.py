"""Benchmark of the Gin Rummy meld solver against OpenSpiel's C++ ``GinRummyUtils.min_deadwood``.

Usage: ``python bench/solver.py [--hands N] [--repeats R] [--seed S]``

Both engines get the same seeded hands. Each row times one pass over all hands, repeated; the table
shows the median calls per second, the ratio rummykit / OpenSpiel, and how many hands the two
disagree on (OpenSpiel's result is not always the true minimum, see the 4-card-set hands in
tests/test_deadwood.py). Rows:

(a) random 10-card hands, least deadwood: ``min_deadwood`` vs ``min_deadwood``;
(b) random 11-card hands, least deadwood after the best discard, value only:
    ``min_deadwood_after_discard`` vs ``min_deadwood`` (for 11 cards OpenSpiel's ``min_deadwood``
    is already the value after the best discard, and only the value: the apples-to-apples row);
    also "value + every best discard": ``best_discards``, which lists every discard achieving the
    value too (more work: no stopping at the first gin), against the same OpenSpiel call;
(c) meld-dense 11-card hands, as (b) (both rows, same hands). Each hand: a width w of 4 or 5
    ranks (even chances), a lowest rank uniform among the 14 - w possible, then 11 distinct cards
    drawn uniformly from the 4 * w cards of those w adjacent ranks in all four suits (16 or 20
    cards). Such hands have 1 to 3 ranks holding 3 or 4 cards and many overlapping runs;
(d) random 11-card hands, the deadwood after each possible discard (the game engine's hot path):
    ``discard_deadwoods`` vs eleven ``min_deadwood`` calls on the 10-card hands.

Extra rows: (a) with rummykit given the hands as 52-bit masks (``min_deadwood_mask``, the
solver without reading the cards); (c) with w = 3, value only and value + every best discard
(11 of the 12 cards of 3 adjacent ranks: always gin after the best discard, and every hand has
three ranks of possible sets); and a
floor: ``hand_mask`` alone on the (c) hands, i.e. only reading the 11 cards into a mask, against
OpenSpiel solving them. No solver that reads the cards can beat that ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummykit.cards import STANDARD_PACK, Card
from rummykit.solver.deadwood import (
    best_discards,
    discard_deadwoods,
    hand_mask,
    min_deadwood,
    min_deadwood_after_discard,
    min_deadwood_mask,
)

Hand = tuple[Card, ...]

# OpenSpiel numbers cards suit-major with suits in the order spades, clubs, diamonds, hearts and
# rank = card % 13 (ace low): 0 = As, 13 = Ac, 26 = Ad, 39 = Ah. Checked against card_string below.
_OPENSPIEL_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}


def openspiel_index(card: Card) -> int:
    """The card's number in OpenSpiel's gin_rummy (0-51)."""
    return _OPENSPIEL_SUIT[card.suit.value] * 13 + card.number - 1


def load_openspiel() -> Any | None:
    """OpenSpiel's GinRummyUtils (13 ranks, 4 suits, hand size 10), or None if not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for card in STANDARD_PACK:
        expected = str(card)[0] + str(card)[1].lower()
        got = utils.card_string(openspiel_index(card))
        if got != expected:
            raise RuntimeError(f"OpenSpiel card order changed: {card} -> {got}")
    return utils


def random_hands(rng: random.Random, n: int, size: int) -> list[Hand]:
    """``n`` random hands of ``size`` cards."""
    return [tuple(rng.sample(STANDARD_PACK, size)) for _ in range(n)]


def dense_hands(rng: random.Random, n: int, size: int) -> list[Hand]:
    """``n`` meld-dense hands: ``size`` cards from 4 or 5 adjacent ranks in all four suits.

    Per hand: the width (4 or 5) with even chances, the lowest rank uniformly, then ``size``
    distinct cards uniformly from the ``4 * width`` cards of those ranks.
    """
    hands = []
    for _ in range(n):
        width = rng.choice((4, 5))
        low = rng.randint(1, 14 - width)
        pool = [c for c in STANDARD_PACK if low <= c.number < low + width]
        hands.append(tuple(rng.sample(pool, size)))
    return hands


def time_pass(func: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    """Calls per second of ``func`` over one pass through ``inputs``."""
    start = time.perf_counter()
    for item in inputs:
        func(item)
    return len(inputs) / (time.perf_counter() - start)


def time_pair(
    mine: Callable[[Any], object],
    my_inputs: Sequence[Any],
    theirs: Callable[[Any], object] | None,
    their_inputs: Sequence[Any],
    repeats: int,
) -> tuple[float, float | None, float | None]:
    """Median calls per second of both engines and the median of the per-repeat speed ratios.

    The two engines alternate pass by pass, so that a slow patch of the machine hits both.
    """
    mine_rates: list[float] = []
    their_rates: list[float] = []
    ratios: list[float] = []
    for _ in range(repeats):
        mine_rates.append(time_pass(mine, my_inputs))
        if theirs is not None:
            their_rates.append(time_pass(theirs, their_inputs))
            ratios.append(mine_rates[-1] / their_rates[-1])
    if theirs is None:
        return statistics.median(mine_rates), None, None
    return (
        statistics.median(mine_rates),
        statistics.median(their_rates),
        statistics.median(ratios),
    )


def dense_hands_of_width(rng: random.Random, n: int, size: int, width: int) -> list[Hand]:
    """``n`` hands of ``size`` cards from ``width`` adjacent ranks in all four suits."""
    hands = []
    for _ in range(n):
        low = rng.randint(1, 14 - width)
        pool = [c for c in STANDARD_PACK if low <= c.number < low + width]
        hands.append(tuple(rng.sample(pool, size)))
    return hands


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per row (default 2000)")
    parser.add_argument("--repeats", type=int, default=9, help="timed passes (default 9)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands10 = random_hands(rng, args.hands, 10)
    hands11 = random_hands(rng, args.hands, 11)
    dense11 = dense_hands(rng, args.hands, 11)
    dense3 = dense_hands_of_width(rng, args.hands, 11, 3)
    masks10 = [hand_mask(hand) for hand in hands10]
    utils = load_openspiel()

    def best_value(hand: Hand) -> int:
        return best_discards(hand)[0]

    def every_discard(hand: Hand) -> list[int]:
        values = discard_deadwoods(hand)
        return [values[c] for c in hand]

    def os_every_discard(hand: list[int]) -> list[int]:
        assert utils is not None
        return [utils.min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand))]

    os_min = utils.min_deadwood if utils is not None else None
    os_every = os_every_discard if utils is not None else None
    # name, rummykit call and its inputs, OpenSpiel call, the hands, rummykit's answer per hand
    rows: list[tuple[str, Callable[[Any], object], Sequence[Any], Any, list[Hand], Any]] = [
        ("(a) random 10: min deadwood", min_deadwood, hands10, os_min, hands10, min_deadwood),
        (
            "(b) random 11: value only",
            min_deadwood_after_discard,
            hands11,
            os_min,
            hands11,
            min_deadwood_after_discard,
        ),
        ("(b) random 11: value + every best", best_discards, hands11, os_min, hands11, best_value),
        (
            "(c) dense 11: value only",
            min_deadwood_after_discard,
            dense11,
            os_min,
            dense11,
            min_deadwood_after_discard,
        ),
        ("(c) dense 11: value + every best", best_discards, dense11, os_min, dense11, best_value),
        (
            "(d) random 11: every discard",
            discard_deadwoods,
            hands11,
            os_every,
            hands11,
            every_discard,
        ),
        ("extra: (a) from masks", min_deadwood_mask, masks10, os_min, hands10, min_deadwood),
        (
            "extra: (c) 3 ranks: value only",
            min_deadwood_after_discard,
            dense3,
            os_min,
            dense3,
            min_deadwood_after_discard,
        ),
        ("extra: (c) 3 ranks: value + every", best_discards, dense3, os_min, dense3, best_value),
        ("floor: read the (c) cards only", hand_mask, dense11, os_min, dense11, None),
    ]

    print(f"hands per row: {args.hands}, repeats: {args.repeats}, seed: {args.seed}")
    header = f"{'benchmark':34} {'rummykit/s':>12} {'OpenSpiel/s':>12} {'ratio':>8} {'disagree':>9}"
    print(header)
    print("-" * len(header))
    for name, func, inputs, os_func, hands, answer in rows:
        os_hands = [[openspiel_index(c) for c in hand] for hand in hands]
        rk_rate, os_rate, ratio = time_pair(func, inputs, os_func, os_hands, args.repeats)
        if os_func is None or os_rate is None or ratio is None:
            print(f"{name:34} {rk_rate:12,.0f} {'n/a':>12} {'n/a':>8} {'n/a':>9}")
            continue
        if answer is None:
            print(f"{name:34} {rk_rate:12,.0f} {os_rate:12,.0f} {ratio:7.2f}x {'n/a':>9}")
            continue
        disagree = sum(
            answer(hand) != os_func(os_hand) for hand, os_hand in zip(hands, os_hands, strict=True)
        )
        print(f"{name:34} {rk_rate:12,.0f} {os_rate:12,.0f} {ratio:7.2f}x {disagree:9d}")
    print(
        "(c): 11 distinct cards drawn uniformly from all 4 suits of w adjacent ranks, w = 4 or 5"
        " (even chances), lowest rank uniform; the 3-rank row uses w = 3. Floor row: reading the"
        ' cards into a mask, nothing solved. "value only": min_deadwood_after_discard (the'
        ' same quantity as OpenSpiel\'s 11-card call); "value + every best": best_discards, which'
        " also lists every discard achieving the value."
    )
    if utils is None:
        print("(OpenSpiel not installed: pip install -e '.[bench]')")


if __name__ == "__main__":
    main()
