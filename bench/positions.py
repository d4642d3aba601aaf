"""What the position benchmarks share (``clone.py``, ``resample.py``): random positions in
rummykit and in OpenSpiel's Gin, and the median time of one call over them.

Imported by those scripts (run as ``python bench/NAME.py``, so this folder is on the import path).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.games import find_game
from rummykit.games.base import HandState


def rummykit_positions(
    name: str, players: int, moves: Sequence[int], seed: int, *, in_play: bool = False
) -> list[HandState]:
    """One position per entry of ``moves``: that many uniformly random actions into a hand
    (fewer if it ended). With ``in_play``, a hand that ended sooner is dealt again."""
    rng = random.Random(seed)
    game = find_game(name)
    out: list[HandState] = []
    for count in moves:
        while True:
            state = game.new_hand(players=players, seed=rng.randrange(1 << 62))
            for _ in range(count):
                if state.is_over:
                    break
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            if not (in_play and state.is_over):
                out.append(state)
                break
    return out


def openspiel_positions(
    moves: Sequence[int], seed: int, *, in_play: bool = False
) -> list[Any] | None:
    """The same in OpenSpiel's ``gin_rummy`` (chance sampled), or None without OpenSpiel. With
    ``in_play``, a hand that ended sooner is left out."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    out = []
    for count in moves:
        state = game.new_initial_state()
        made = 0
        while not state.is_terminal() and (made < count or state.is_chance_node()):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                made += 1
        if not (in_play and state.is_terminal()):
            out.append(state)
    return out


def per_call(states: Sequence[Any], call: Callable[[Any], Any], repeats: int) -> float:
    """Median microseconds of one call, over ``repeats`` passes over ``states``."""
    for state in states[:10]:
        call(state)  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        for state in states:
            call(state)
        times.append((time.perf_counter() - started) / len(states))
    return statistics.median(times) * 1e6
