"""Pure solvers: no game state, no third-party imports."""

from rummykit.solver.deadwood import (
    Arrangement,
    LayoffPlan,
    best_arrangement,
    best_discards,
    best_layoffs,
    discard_deadwoods,
    hand_mask,
    min_deadwood,
    min_deadwood_after_discard,
    min_deadwood_mask,
)

__all__ = [
    "Arrangement",
    "LayoffPlan",
    "best_arrangement",
    "best_discards",
    "best_layoffs",
    "discard_deadwoods",
    "hand_mask",
    "min_deadwood",
    "min_deadwood_after_discard",
    "min_deadwood_mask",
]
