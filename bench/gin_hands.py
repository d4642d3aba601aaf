"""Record the Gin hands that hard-vs-hard games really produce (the solver benchmark's headline set).

Usage: ``python bench/gin_hands.py [--games N] [--seed S] [--out FILE]``

Plays ``N`` seeded single hands of Gin Rummy between two hard players exactly as
``rummykit sim gin --players hard,hard --hands N --seed S`` does (hand ``i``: seed
``derive_seed(S, i)``, dealer ``i % 2``, the seat players seeded ``derive_seed(seed_i, seat + 1)``)
and records the hand a player holds at each of its decisions: 10 cards when it draws (or is offered
the up-card), 11 cards when it discards or knocks. Lay-off decisions are left out (no solver call
in them). Each distinct hand is kept once, in order of first appearance, as card text such as
``"7C 8C 9C KD"``. The default run (``--games 30 --seed 3``) made ``bench/gin_hands.json``.

With ``--digest`` it prints instead a SHA-256 of every action of every hand played (to check that
a change of the solver or the hard player keeps every decision the same for the same seeds).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummykit.games import Gin
from rummykit.games.gin import GinOptions
from rummykit.games.seeding import derive_seed
from rummykit.players import Player, find_player
from rummykit.sim import play_hand

HANDS_FILE = Path(__file__).resolve().parent / "gin_hands.json"


class _Recorder:
    """Wraps a player: passes its choices through and notes the hand of each decision."""

    def __init__(self, player: Player, seen: dict[str, int]) -> None:
        self.player = player
        self.seen = seen

    def choose(self, view: Any) -> Any:
        if view.phase.name in ("OFFER", "DRAW", "DISCARD"):
            text = " ".join(str(card) for card in sorted(view.hand, key=lambda c: c.index))
            self.seen.setdefault(text, len(self.seen))
        return self.player.choose(view)


def play(games: int, seed: int, players: tuple[str, str] = ("hard", "hard")) -> tuple[Any, ...]:
    """The finished hands of ``games`` seeded Gin hands, as the simulator plays them."""
    game = Gin(GinOptions())
    states = []
    for index in range(games):
        unit = derive_seed(seed, index)
        seats = [
            find_player(game, name, derive_seed(unit, s + 1)) for s, name in enumerate(players)
        ]
        states.append(play_hand(game, seats, unit, dealer=index % 2))
    return tuple(states)


def record(games: int, seed: int) -> list[str]:
    """The distinct 10- and 11-card hands held at the decisions of ``games`` seeded hands."""
    game = Gin(GinOptions())
    seen: dict[str, int] = {}
    for index in range(games):
        unit = derive_seed(seed, index)
        seats: list[Any] = [
            _Recorder(find_player(game, "hard", derive_seed(unit, s + 1)), seen) for s in range(2)
        ]
        play_hand(game, seats, unit, dealer=index % 2)
    return list(seen)


def digest(games: int, seed: int, players: tuple[str, str]) -> str:
    """SHA-256 of every action of ``games`` seeded hands (seat and action, hand by hand)."""
    sha = hashlib.sha256()
    for state in play(games, seed, players):
        for seat, action in state.history:
            sha.update(f"{seat}:{action!r};".encode())
        sha.update(b"|")
    return sha.hexdigest()


def load_hands(path: Path = HANDS_FILE) -> dict[int, list[str]]:
    """The recorded hands by size (10 and 11), as card text."""
    data = json.loads(path.read_text())
    return {int(size): hands for size, hands in data["hands"].items()}


def main(argv: list[str] | None = None) -> None:
    """Record the hands (or print the actions' digest)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="hands played (default 30)")
    parser.add_argument("--seed", type=int, default=3, help="seed (default 3)")
    parser.add_argument("--out", type=Path, default=HANDS_FILE, help="the JSON file written")
    parser.add_argument("--digest", action="store_true", help="print the actions' SHA-256 only")
    parser.add_argument("--players", default="hard,hard", help="with --digest (default hard,hard)")
    args = parser.parse_args(argv)
    if args.digest:
        a, b = args.players.split(",")
        print(digest(args.games, args.seed, (a, b)))
        return
    hands = record(args.games, args.seed)
    by_size = {size: [h for h in hands if len(h.split()) == size] for size in (10, 11)}
    data = {
        "made_by": f"python bench/gin_hands.py --games {args.games} --seed {args.seed}",
        "how": "every distinct hand a hard player held at a draw (10 cards) or discard (11) "
        "decision in seeded hard-vs-hard hands, as rummykit sim gin plays them",
        "games": args.games,
        "seed": args.seed,
        "hands": {str(size): found for size, found in by_size.items()},
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{len(by_size[10])} hands of 10 cards, {len(by_size[11])} of 11 -> {args.out}")


if __name__ == "__main__":
    main()
