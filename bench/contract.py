"""Speed of the Crazy Rummy contract solver: ``solve_contract`` and ``contract_distance``.

Usage: ``python bench/contract.py [--hands N] [--repeats R] [--seed S]``

Each row times one pass over the same seeded hands (random natural cards plus 2-4 wilds: 2s or
jokers, from two packs and 4 jokers), repeated; the table shows the median calls per second.
"cold" passes start with empty suit-table caches (``cache_clear()`` before each pass); "warm"
passes run again over hands already seen, which is close to a computer player's use, where one
card changes a turn and three suits of four are already in the cache. Rows: round 7 (3 runs,
13 cards), round 6 (1 book + 2 runs, 13 cards) and round 5 (2 books + 1 run, 11 cards), then big
hands as after many buys (45 cards, a tenth as many hands) for rounds 5 and 7.
No peer implements these rules, so there is no ratio column.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummykit.cards import AnyCard, double_pack
from rummykit.solver.contract import (
    CONTRACTS,
    Contract,
    cache_clear,
    contract_distance,
    solve_contract,
)
from rummykit.wild_melds import is_wild

Hand = tuple[AnyCard, ...]


def make_hands(count: int, size: int, seed: int) -> list[Hand]:
    """Seeded hands of ``size`` cards with 2-4 wilds (2s or jokers) from two packs and 4 jokers."""
    rng = random.Random(seed)
    pack = double_pack(4)
    wilds = [c for c in pack if is_wild(c)]
    naturals = [c for c in pack if not is_wild(c)]
    hands = []
    for _ in range(count):
        k = rng.randint(2, 4)
        hands.append(tuple(rng.sample(wilds, k) + rng.sample(naturals, size - k)))
    return hands


def rate(
    fn: Callable[[Hand, Contract], object],
    hands: Sequence[Hand],
    contract: Contract,
    repeats: int,
    *,
    warm: bool,
) -> float:
    """Median calls per second over ``repeats`` passes."""
    rates = []
    cache_clear()
    if warm:
        for hand in hands:
            fn(hand, contract)
    for _ in range(repeats):
        if not warm:
            cache_clear()
        start = time.perf_counter()
        for hand in hands:
            fn(hand, contract)
        rates.append(len(hands) / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv: Sequence[str] | None = None) -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    rows = [(7, 13, 1), (6, 13, 1), (5, 11, 1), (5, 45, 10), (7, 45, 10)]
    functions: list[tuple[str, Callable[[Hand, Contract], object]]] = [
        ("solve_contract", solve_contract),
        ("contract_distance", contract_distance),
    ]
    print(f"{args.hands} hands a row, median of {args.repeats} passes, calls per second")
    print(f"{'round':<24} {'cards':>5} {'function':<18} {'cold':>8} {'warm':>8} {'can lay':>8}")
    for round_no, size, fewer in rows:
        contract = CONTRACTS[round_no - 1]
        hands = make_hands(max(1, args.hands // fewer), size, args.seed + round_no)
        can = sum(solve_contract(h, contract) is not None for h in hands)
        for name, fn in functions:
            cold = rate(fn, hands, contract, args.repeats, warm=False)
            warm = rate(fn, hands, contract, args.repeats, warm=True)
            label = f"{round_no} ({contract})"
            print(f"{label:<24} {size:>5} {name:<18} {cold:>8.0f} {warm:>8.0f} {can:>8}")


if __name__ == "__main__":
    main()
