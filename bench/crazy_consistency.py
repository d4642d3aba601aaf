"""Crazy Rummy computer players: how often a card taken from the discard pile (or bought) is thrown
away again by the same player soon after, and why.

Run it on purpose (it plays whole rounds; keep ``--rounds`` modest on a shared machine)::

    python bench/crazy_consistency.py --rounds 140 --seed 1
    python bench/crazy_consistency.py --rounds 70 --table hard,hard,hard,hard --examples 3

Round ``i`` is round ``i % 7 + 1`` of the game, dealt from ``derive_seed(seed, i)`` by seat
``i % players``; the players are ``--table`` (default ``hard,medium,hard,medium``), seeded from the
same number. ``--module PATH`` plays a single-file copy of the Crazy Rummy players saved elsewhere
(an older ``rummykit/players/crazy.py``, from before it became the package ``players/crazy/``, say)
instead of the package's, to compare before and after on the same deals.

Every time a player who is not down takes the offered card (its draw, or the dealer's first
up-card) or buys it, the card is followed through that player's next three turns. Counted per
level: the cards taken, and how many of them the same player discards again within its next 1, 2
or 3 turns. Each such *take then throw* is classified by the contract distance
(:func:`rummykit.solver.contract.contract_distance`, the cards still missing) of the hands
involved: ``H`` the hand before the take, ``K`` the hand at the end of the take's turn (for a buy,
``H`` and the card: the penalty card is a new card, unknown when buying) and ``D`` the hand just
before the discard:

- ``take_not_closer``: the card did not bring the contract closer (``dist(H + card)`` was not
  below ``dist(H)``), so a reason "brings the contract closer" would have been false;
- ``unneeded_after_turn``: it did, but already at the end of that turn the card was not needed
  (``dist(K - card) == dist(K)``): the turn's own discard undid the gain;
- ``thrown_while_needed``: the card was still needed at the discard (throwing it made the
  distance worse): the discard weighed something else above the contract (points, danger of
  feeding the next player, the potential of the rest);
- ``own_discards``: it was needed after the take's turn, is not needed at the discard, and would
  still be needed with every card that came in since added to ``K``: the player's own discards
  since (of the card's partners) are what made it useless;
- ``new_cards``: it was needed after the take's turn and the cards that came in since made it
  useless (new information: a fair change of plan);
- ``laid_down``: the player laid down its contract in between (without the card).

A card laid down or laid off before any copy is thrown is no longer followed.

The first four, where no new card explains the throw, are the *inconsistent* ones; the script
also says how many of all the throws happened although the distance at the discard was no worse
than at the end of the take's turn.

It also checks every hint's contract phrase against the distance: a discard said to be "not
needed" (or "one is enough") although throwing it makes the distance worse, and a take or buy
said to bring the contract closer although the best hand kept after the turn is no closer.
``--examples N`` prints up to N cases per kind with the hands
and the reasons the player gave (the Hint text).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from rummykit.actions import Buy, Discard, Draw, Take
from rummykit.cards import AnyCard
from rummykit.games import Crazy, Phase
from rummykit.games.crazy import CrazyOptions, CrazyState, CrazyView
from rummykit.games.seeding import derive_seed
from rummykit.players import Player, find_player
from rummykit.players.reasons import Suggestion
from rummykit.solver.contract import Contract, contract_distance

KINDS = (
    "take_not_closer",
    "unneeded_after_turn",
    "thrown_while_needed",
    "own_discards",
    "new_cards",
    "laid_down",
)
INCONSISTENT = KINDS[:4]
WINDOW = 3

PlayerFactory = Callable[[str, int], Player]


def _cards(cards: Sequence[AnyCard]) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: c.sort_key))


def _minus(hand: Sequence[AnyCard], *cards: AnyCard) -> list[AnyCard]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _multiset_minus(a: Sequence[AnyCard], b: Sequence[AnyCard]) -> list[AnyCard]:
    return list((Counter(a) - Counter(b)).elements())


class Distances:
    """Memoized contract distances for one contract and set of rules."""

    def __init__(self, options: CrazyOptions) -> None:
        self.options = options
        self.memo: dict[tuple[Contract, tuple[AnyCard, ...]], int] = {}

    def __call__(self, hand: Sequence[AnyCard], contract: Contract) -> int:
        key = (contract, tuple(sorted(hand, key=lambda c: c.sort_key)))
        found = self.memo.get(key)
        if found is None:
            found = contract_distance(
                key[1], contract, self.options.rules, jokers=self.options.jokers
            )
            self.memo[key] = found
        return found


@dataclass(slots=True)
class Taken:
    """One card a player took or bought, followed through its next turns."""

    seat: int
    level: str
    how: str
    card: AnyCard
    before: list[AnyCard]
    turn: int
    reason: str
    contract: Contract
    round: int
    held: int = 1
    """Copies of the card in the hand (it is followed until one leaves other than by a discard)."""
    after_turn: list[AnyCard] | None = None
    """``K``: the hand at the end of the take's turn."""
    turn_log: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Throw:
    taken: Taken
    offset: int
    kind: str
    hand: list[AnyCard]
    reason: str
    no_worse: bool
    dists: str


@dataclass(slots=True)
class Tally:
    taken: Counter[str] = field(default_factory=Counter)
    """Per level, cards taken or bought while not down."""
    taken_closer: Counter[str] = field(default_factory=Counter)
    """Per level, of those, the ones whose take really brought the contract closer."""
    thrown: dict[str, Counter[int]] = field(default_factory=dict)
    """Per level, take-then-throw cases by the turn offset of the discard (1-3)."""
    kinds: dict[str, Counter[str]] = field(default_factory=dict)
    no_worse: Counter[str] = field(default_factory=Counter)
    shed: Counter[str] = field(default_factory=Counter)
    """Per level, take-then-throw cases whose discard hint was to shed high cards (risk)."""
    examples: dict[str, list[Throw]] = field(default_factory=dict)
    decisions: Counter[str] = field(default_factory=Counter)
    spare_said: Counter[str] = field(default_factory=Counter)
    """Per level, discards whose reason says the card is not needed (or one copy is enough)."""
    spare_false: Counter[str] = field(default_factory=Counter)
    """Of those, the ones where throwing the card made the contract distance worse."""
    closer_said: Counter[str] = field(default_factory=Counter)
    """Per level, takes and buys whose reason says the card brings the contract closer."""
    closer_false: Counter[str] = field(default_factory=Counter)
    """Of those, the ones where the hand kept after the turn is no closer than without it."""
    false_examples: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def _classify(
    item: Taken, hand: list[AnyCard], down_now: bool, dist: Distances
) -> tuple[str, bool, str]:
    """The kind of one take-then-throw, whether the distance was no worse than after the take's
    turn, and the distances as text."""
    contract = item.contract
    card = item.card
    d_h = dist(item.before, contract)
    d_hc = dist([*item.before, card], contract)
    k = item.after_turn if item.after_turn is not None else [*item.before, card]
    d_k = dist(k, contract)
    d_k_minus = dist(_minus(k, card), contract)
    d_d = dist(hand, contract)
    d_d_minus = dist(_minus(hand, card), contract)
    text = (
        f"dist H {d_h} -> H+card {d_hc}; after the turn {d_k} (without the card {d_k_minus}); "
        f"at the discard {d_d} -> {d_d_minus} after it"
    )
    no_worse = d_d_minus <= d_k
    if down_now:
        return "laid_down", no_worse, text
    if d_hc >= d_h:
        return "take_not_closer", no_worse, text
    if d_k_minus <= d_k:
        return "unneeded_after_turn", no_worse, text
    if d_d_minus > d_d:
        return "thrown_while_needed", no_worse, text
    # with every card that came in since and none thrown, is the card still needed?
    grown = [*k, *_multiset_minus(hand, k)]
    if dist(_minus(grown, card), contract) <= dist(grown, contract):
        return "new_cards", no_worse, text
    return "own_discards", no_worse, text


def play_round(
    index: int,
    seed: int,
    names: Sequence[str],
    make: PlayerFactory,
    tally: Tally,
    dist: Distances,
    examples: int,
) -> None:
    game = Crazy()
    round_seed = derive_seed(seed, index)
    seats = len(names)
    bots = [make(name, derive_seed(round_seed, seat + 1)) for seat, name in enumerate(names)]
    state: CrazyState = game.new_hand(
        players=seats, seed=round_seed, dealer=index % seats, round=index % 7 + 1
    )
    turns = [0] * seats
    open_items: list[list[Taken]] = [[] for _ in range(seats)]
    for _ in range(5000):
        seat = state.to_act
        if seat is None:
            break
        view = state.view(seat)
        started = time.perf_counter()
        suggestion = bots[seat].suggest(view)
        tally.seconds[names[seat]] = tally.seconds.get(names[seat], 0.0) + (
            time.perf_counter() - started
        )
        tally.decisions[names[seat]] += 1
        action = suggestion.action
        reason = suggestion.text("en")
        _check_reason(view, suggestion, names[seat], tally, dist, examples)
        own_turn = view.turn == seat and view.phase in (Phase.OFFER, Phase.DRAW)
        if own_turn and isinstance(action, Draw | Take):
            turns[seat] += 1
            open_items[seat] = [t for t in open_items[seat] if turns[seat] - t.turn <= WINDOW]
        if isinstance(action, Discard):
            offset_items = [t for t in open_items[seat] if t.card == action.card]
            for item in offset_items:
                offset = turns[seat] - item.turn
                if offset == 0:
                    continue  # the other copy of a card held twice, thrown in the take's turn
                kind, no_worse, text = _classify(item, list(view.hand), view.laid_down[seat], dist)
                level = item.level
                tally.thrown.setdefault(level, Counter())[offset] += 1
                tally.kinds.setdefault(level, Counter())[kind] += 1
                tally.no_worse[level] += no_worse
                tally.shed[level] += "crazy.shed" in suggestion.reason.keys
                shown = tally.examples.setdefault(f"{level}:{kind}", [])
                if len(shown) < examples:
                    shown.append(Throw(item, offset, kind, list(view.hand), reason, no_worse, text))
                open_items[seat].remove(item)
                break
        state.apply(action, seat)
        if isinstance(action, Take | Buy) and not view.laid_down[seat]:
            card = view.offered
            assert card is not None
            how = "buy" if isinstance(action, Buy) else "take"
            item = Taken(
                seat,
                names[seat],
                how,
                card,
                list(view.hand),
                turns[seat],
                reason,
                view.contract,
                view.round,
            )
            if how == "buy" or view.phase is Phase.OFFER:
                # a buy's penalty card is a new card (unknown when buying): not part of ``K``
                item.after_turn = [*view.hand, card]
            tally.taken[names[seat]] += 1
            contract = view.contract
            if dist([*view.hand, card], contract) < dist(list(view.hand), contract):
                tally.taken_closer[names[seat]] += 1
            item.held = state.hands[seat].count(card)
            open_items[seat].append(item)
        for item in list(open_items[seat]):
            now = state.hands[seat].count(item.card)
            if now < item.held and not isinstance(action, Discard):
                open_items[seat].remove(item)  # laid down or laid off: no longer in the hand
                continue
            item.held = now
            if item.turn == turns[seat] and item.after_turn is None and isinstance(action, Discard):
                item.after_turn = list(state.hands[seat])
            if item.turn <= turns[seat] <= item.turn + WINDOW and not isinstance(action, Draw):
                item.turn_log.append(f"turn +{turns[seat] - item.turn}: {action} ({reason})")
    assert state.is_over, f"round {index} did not end"


def _check_reason(
    view: CrazyView,
    suggestion: Suggestion,
    level: str,
    tally: Tally,
    dist: Distances,
    examples: int,
) -> None:
    """Count the hints whose contract phrase is false."""
    keys = suggestion.reason.keys
    action = suggestion.action
    hand = list(view.hand)
    contract = view.contract
    false = False
    if isinstance(action, Discard) and ({"crazy.spare", "crazy.spare_copy"} & set(keys)):
        tally.spare_said[level] += 1
        false = dist(_minus(hand, action.card), contract) > dist(hand, contract)
        tally.spare_false[level] += false
    elif isinstance(action, Take | Buy) and ({"crazy.closer", "crazy.dealer_take"} & set(keys)):
        card = view.offered
        assert card is not None
        tally.closer_said[level] += 1
        # the turn goes on with a discard (not of this card; a buy's penalty card is unknown):
        # the best hand kept is no closer than the hand without the card
        grown = [*hand, card]
        kept = min(dist(_minus(grown, c), contract) for c in dict.fromkeys(hand))
        if isinstance(action, Buy) or view.phase is Phase.OFFER:
            kept = dist(grown, contract)
        false = kept >= dist(hand, contract)
        tally.closer_false[level] += false
    if false and len(tally.false_examples) < examples * 4:
        tally.false_examples.append(
            f"[{level}] round {view.round}: {_cards(hand)}; offered {view.offered}: "
            f"{suggestion.text('en')}"
        )


def _module_factory(path: Path) -> PlayerFactory:
    spec = importlib.util.spec_from_file_location("crazy_players_under_test", path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    classes = {
        "easy": module.EasyCrazyPlayer,
        "medium": module.MediumCrazyPlayer,
        "hard": module.HardCrazyPlayer,
    }

    def make(name: str, seed: int) -> Player:
        player: Player = classes[name](seed, options=CrazyOptions())
        return player

    return make


def _package_factory(name: str, seed: int) -> Player:
    return find_player("crazy", name, seed)


def _share(count: int, total: int) -> str:
    return f"{count} ({count / total:.1%})" if total else str(count)


def report(tally: Tally, rounds: int, seed: int, names: Sequence[str]) -> None:
    print(f"{rounds} rounds (rounds 1-7 in turn), seed {seed}, table {','.join(names)}")
    for level in dict.fromkeys(names):
        taken = tally.taken[level]
        thrown = tally.thrown.get(level, Counter())
        kinds = tally.kinds.get(level, Counter())
        within = [sum(thrown[o] for o in range(1, w + 1)) for w in range(1, WINDOW + 1)]
        bad = sum(kinds[k] for k in INCONSISTENT)
        ms = 1000 * tally.seconds.get(level, 0.0) / max(1, tally.decisions[level])
        print(
            f"{level}: {taken} cards taken or bought while not down "
            f"({tally.taken_closer[level]} brought the contract closer); "
            f"{tally.decisions[level]} decisions, mean {ms:.2f} ms"
        )
        print(
            "  thrown again within 1 / 2 / 3 turns: "
            + " / ".join(_share(n, taken) for n in within)
            + f"; distance no worse than after the take's turn: {tally.no_worse[level]}"
            + f"; thrown to shed points (an opponent may go out): {tally.shed[level]}"
        )
        print("  by kind: " + ", ".join(f"{k} {kinds[k]}" for k in KINDS))
        print(f"  inconsistent (no new card explains it): {_share(bad, taken)}")
        print(
            f"  false reasons: 'not needed' {tally.spare_false[level]} of "
            f"{tally.spare_said[level]}; 'brings the contract closer' "
            f"{tally.closer_false[level]} of {tally.closer_said[level]}"
        )


def show_examples(tally: Tally) -> None:
    for line in tally.false_examples:
        print(f"\nfalse reason {line}")
    for key, cases in sorted(tally.examples.items()):
        for case in cases:
            item = case.taken
            print(
                f"\n[{key}] round {item.round} seat {item.seat}: {item.how} {item.card} "
                f"into {_cards(item.before)}"
            )
            print(f"  hint: {item.reason}")
            if item.after_turn is not None:
                print(f"  after that turn: {_cards(item.after_turn)}")
            for line in item.turn_log:
                print(f"  {line}")
            print(f"  discard {item.card} {case.offset} turn(s) later from {_cards(case.hand)}")
            print(f"  hint: {case.reason}")
            print(f"  {case.dists}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=70)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table", default="hard,medium,hard,medium")
    parser.add_argument("--examples", type=int, default=0, help="cases shown per kind")
    parser.add_argument("--module", type=Path, help="a one-file copy of the players to play")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.table.split(",")]
    make = _module_factory(args.module) if args.module else _package_factory
    tally = Tally()
    dist = Distances(CrazyOptions())
    started = time.perf_counter()
    for index in range(args.rounds):
        play_round(index, args.seed, names, make, tally, dist, args.examples)
    report(tally, args.rounds, args.seed, names)
    print(f"{time.perf_counter() - started:.0f} s")
    show_examples(tally)
    return 0


if __name__ == "__main__":
    sys.exit(main())
