"""Benchmark of the Gin Rummy meld solver against OpenSpiel's C++ ``GinRummyUtils.min_deadwood``.

Usage: ``python bench/solver.py [--hands N] [--repeats R] [--seed S]`` (at least 5 repeats)

Both engines get the same hands. Each repeat times one pass of each engine over a row's hands,
back to back, the order alternating from one repeat to the next (rummykit first in even repeats,
OpenSpiel first in odd ones), so that a slow patch of the machine hits both and neither always
runs warm. OpenSpiel's inputs (lists of its card numbers, and for (d) the eleven 10-card lists of
each hand) are made before any timing. The table shows the median calls per second of each, the
median of the per-repeat ratios rummykit / OpenSpiel with their lowest and highest, how the hands
were drawn, and how many hands the two disagree on (OpenSpiel's result is not always the true
minimum, see the 4-card-set hands in tests/test_deadwood.py). The machine's load average is
printed before and after. Rows:

(r10), (r11) the headline: hands from real games, ``bench/gin_hands.json`` (every distinct hand
    a hard player held at a decision in 30 seeded hard-vs-hard hands, made by
    ``bench/gin_hands.py``), 10-card hands with ``min_deadwood``, 11-card hands with
    ``min_deadwood_after_discard``, both against OpenSpiel's ``min_deadwood``; the recorded hands
    are repeated in order to make up ``--hands`` calls a pass;

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
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gin_hands import load_hands

from rummykit.cards import STANDARD_PACK, Card, parse_natural_cards
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


class Timing:
    """One row's timings: per-repeat calls per second of both engines, and their ratios."""

    def __init__(self) -> None:
        self.mine: list[float] = []
        self.theirs: list[float] = []

    @property
    def ratios(self) -> list[float]:
        return [a / b for a, b in zip(self.mine, self.theirs, strict=True)]


def time_pair(
    mine: Callable[[Any], object],
    my_inputs: Sequence[Any],
    theirs: Callable[[Any], object] | None,
    their_inputs: Sequence[Any],
    repeats: int,
) -> Timing:
    """Both engines' calls per second, one pass each per repeat, who goes first alternating."""
    timing = Timing()
    for repeat in range(repeats):
        if theirs is None:
            timing.mine.append(time_pass(mine, my_inputs))
        elif repeat % 2 == 0:
            timing.mine.append(time_pass(mine, my_inputs))
            timing.theirs.append(time_pass(theirs, their_inputs))
        else:
            timing.theirs.append(time_pass(theirs, their_inputs))
            timing.mine.append(time_pass(mine, my_inputs))
    return timing


def real_hands(size: int, calls: int) -> list[Hand]:
    """The recorded hands of ``size`` cards, repeated in order to make ``calls`` of them."""
    recorded = [tuple(parse_natural_cards(text)) for text in load_hands()[size]]
    return [recorded[i % len(recorded)] for i in range(max(calls, len(recorded)))]


def load_text() -> str:
    """The machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def dense_hands_of_width(rng: random.Random, n: int, size: int, width: int) -> list[Hand]:
    """``n`` hands of ``size`` cards from ``width`` adjacent ranks in all four suits."""
    hands = []
    for _ in range(n):
        low = rng.randint(1, 14 - width)
        pool = [c for c in STANDARD_PACK if low <= c.number < low + width]
        hands.append(tuple(rng.sample(pool, size)))
    return hands


@dataclass(frozen=True)
class Row:
    """One benchmark row: both engines' calls and inputs, and how the hands were drawn."""

    name: str
    drawn: str
    mine: Callable[[Any], object]
    my_inputs: Sequence[Any]
    theirs: Callable[[Any], object] | None
    their_inputs: Sequence[Any]
    answer: Callable[[Any], object] | None
    """rummykit's answer per input, compared with OpenSpiel's (None: not comparable)."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per row (default 2000)")
    parser.add_argument("--repeats", type=int, default=9, help="timed passes (default 9, min 5)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    parser.add_argument("--real-only", action="store_true", help="only the real-hands rows")
    args = parser.parse_args(argv)
    if args.repeats < 5:
        parser.error("at least 5 repeats: the table reports medians and spreads")

    rng = random.Random(args.seed)
    real10 = real_hands(10, args.hands)
    real11 = real_hands(11, args.hands)
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

    def os_cards(hands: Sequence[Hand]) -> list[list[int]]:
        return [[openspiel_index(c) for c in hand] for hand in hands]

    def os_tens(hands: Sequence[Hand]) -> list[list[list[int]]]:
        """Per 11-card hand, its eleven 10-card hands (one card left out), made before timing."""
        return [[h[:i] + h[i + 1 :] for i in range(len(h))] for h in os_cards(hands)]

    os_min = utils.min_deadwood if utils is not None else None

    def os_every(tens: list[list[int]]) -> list[int]:
        assert os_min is not None
        return [os_min(ten) for ten in tens]

    after = min_deadwood_after_discard
    real = "real games"
    rows = [
        Row(
            "(r10) real 10: min deadwood",
            real,
            min_deadwood,
            real10,
            os_min,
            os_cards(real10),
            min_deadwood,
        ),
        Row("(r11) real 11: value only", real, after, real11, os_min, os_cards(real11), after),
        Row(
            "(r11) real 11: value + every best",
            real,
            best_discards,
            real11,
            os_min,
            os_cards(real11),
            best_value,
        ),
        Row(
            "(a) random 10: min deadwood",
            "random",
            min_deadwood,
            hands10,
            os_min,
            os_cards(hands10),
            min_deadwood,
        ),
        Row(
            "(b) random 11: value only", "random", after, hands11, os_min, os_cards(hands11), after
        ),
        Row(
            "(b) random 11: value + every best",
            "random",
            best_discards,
            hands11,
            os_min,
            os_cards(hands11),
            best_value,
        ),
        Row(
            "(c) dense 11: value only",
            "dense w4-5",
            after,
            dense11,
            os_min,
            os_cards(dense11),
            after,
        ),
        Row(
            "(c) dense 11: value + every best",
            "dense w4-5",
            best_discards,
            dense11,
            os_min,
            os_cards(dense11),
            best_value,
        ),
        Row(
            "(d) random 11: every discard",
            "random",
            discard_deadwoods,
            hands11,
            os_every if utils else None,
            os_tens(hands11),
            every_discard,
        ),
        Row(
            "extra: (a) from masks",
            "random",
            min_deadwood_mask,
            masks10,
            os_min,
            os_cards(hands10),
            None,
        ),
        Row(
            "extra: (c) 3 ranks: value only",
            "dense w3",
            after,
            dense3,
            os_min,
            os_cards(dense3),
            after,
        ),
        Row(
            "extra: (c) 3 ranks: value + every",
            "dense w3",
            best_discards,
            dense3,
            os_min,
            os_cards(dense3),
            best_value,
        ),
        Row(
            "floor: read the (c) cards only",
            "dense w4-5",
            hand_mask,
            dense11,
            os_min,
            os_cards(dense11),
            None,
        ),
    ]
    if args.real_only:
        rows = rows[:3]

    print(f"calls per row and pass: {args.hands}, repeats: {args.repeats}, seed: {args.seed}")
    print(f"load average (1, 5, 15 min) before: {load_text()}")
    header = (
        f"{'benchmark':34} {'hands':>10} {'rummykit/s':>11} {'OpenSpiel/s':>11}"
        f" {'ratio':>7} {'low-high':>11} {'disagree':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        timing = time_pair(row.mine, row.my_inputs, row.theirs, row.their_inputs, args.repeats)
        mine = statistics.median(timing.mine)
        line = f"{row.name:34} {row.drawn:>10} {mine:11,.0f}"
        if row.theirs is None:
            print(f"{line} {'n/a':>11}")
            continue
        theirs = statistics.median(timing.theirs)
        ratios = timing.ratios
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        line += f" {theirs:11,.0f} {statistics.median(ratios):6.2f}x {spread:>11}"
        if row.answer is None:
            print(f"{line} {'n/a':>8}")
            continue
        disagree = sum(
            row.answer(mine_in) != row.theirs(their_in)
            for mine_in, their_in in zip(row.my_inputs, row.their_inputs, strict=True)
        )
        print(f"{line} {disagree:8d}")
    print(f"load average (1, 5, 15 min) after: {load_text()}")
    print(
        "hands: 'real games' = bench/gin_hands.json (hands held at hard players' decisions in"
        " seeded hard-vs-hard games), repeated in order; 'random' = uniform from the pack;"
        " 'dense w4-5' = 11 distinct cards drawn uniformly from all 4 suits of w adjacent ranks,"
        " w = 4 or 5 (even chances), lowest rank uniform; 'dense w3' the same with w = 3. Ratio:"
        " median of the per-repeat ratios rummykit / OpenSpiel, low-high their range. Floor row:"
        ' reading the cards into a mask, nothing solved. "value only": min_deadwood_after_discard'
        ' (the same quantity as OpenSpiel\'s 11-card call); "value + every best": best_discards,'
        " which also lists every discard achieving the value."
    )
    if utils is None:
        print("(OpenSpiel not installed: pip install -e '.[bench]')")


if __name__ == "__main__":
    main()
