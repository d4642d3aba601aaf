"""examples/train_masked_agent.py at a tiny size: seeded, deterministic, and better than random."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).parent.parent / "examples" / "train_masked_agent.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_masked_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks its module up by name)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_briefly_trained_agent_beats_random() -> None:
    """1,500 decisions of training (about 40 hands), then 40 seeded hands against random: on 8
    training seeds the agent won 41-52 of 60 such hands where random won 13 (lost 0-5)."""
    example = _example()
    agent = example.train(1500, seed=0)
    won, lost, neither = example.evaluate(agent, 40)
    random_won, _, _ = example.evaluate(None, 40)
    assert won + lost + neither == 40
    assert won >= 3 * lost and won >= 2 * random_won
    assert random_won < 20  # the same hands, random against random: no easy hands


def test_training_is_deterministic() -> None:
    example = _example()
    first, second = example.train(60, seed=3), example.train(60, seed=3)
    assert (first.weights == second.weights).all() and (first.bias == second.bias).all()
    assert first.weights.any()  # it did learn something
