"""bench/gin_strength.py's OpenSpiel opponent: by default it lays off the best way as the
defender; ``openspiel-no-layoffs``, the published bot, answers ``done`` at once."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rummykit.actions import Done, LayOff, parse_action
from rummykit.cards import STANDARD_PACK, parse_natural_cards
from rummykit.games import Phase
from rummykit.games.gin import GinState, gin_hand_from_cards

HARNESS = Path(__file__).parent.parent / "bench" / "gin_strength.py"
KNOCKER = "3H 4H 5H 7C 7D 7S 9D TD JD KS"
DEFENDER = "2C 3C 4C 6H QH QD QC 8S 9S AS"  # 6H goes on the knocker's 3H 4H 5H


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gin_strength", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look the module up by name)
    spec.loader.exec_module(module)
    return module


def _knocked(harness: ModuleType, lays_off: bool) -> tuple[GinState, Any]:
    """Seat 1 knocks with KS; the bot defends seat 0 and can lay off 6H."""
    used = {c for text in (KNOCKER, DEFENDER, "KD 6S") for c in parse_natural_cards(text)}
    rest = " ".join(str(c) for c in STANDARD_PACK if c not in used)
    hand = gin_hand_from_cards([DEFENDER, KNOCKER], "KD", "6S " + rest, dealer=0)
    bot = harness.MirroredBot(hand, 0, lays_off=lays_off)
    for text in ("pass", "pass", "draw", "knock KS"):
        seat = hand.to_act
        assert seat is not None
        action = parse_action(text)
        hand.apply(action, seat)
        bot.mirror(hand, seat, action)
    assert (hand.phase, hand.to_act) == (Phase.LAYOFF, 0)
    return hand, bot


@pytest.mark.parametrize("lays_off", [True, False])
def test_the_default_bot_lays_off_and_the_published_one_does_not(lays_off: bool) -> None:
    harness = _harness()
    hand, bot = _knocked(harness, lays_off)
    run = 1 + [str(m) for m in hand.knock_melds].index("3H 4H 5H")
    first = bot.choose(hand)
    if lays_off:
        assert first == LayOff(parse_natural_cards("6H")[0], run)
        hand.apply(first, 0)
        assert bot.choose(hand) == Done()
    else:
        assert first == Done()


def test_the_opponents_are_named() -> None:
    harness = _harness()
    assert harness.OPENSPIEL == "openspiel"
    assert harness.OPENSPIEL_NO_LAYOFFS == "openspiel-no-layoffs"
    assert "best way" in harness.OPPONENT_NAMES["openspiel"]
    assert "never lays off" in harness.OPPONENT_NAMES["openspiel-no-layoffs"]


@pytest.mark.slow
def test_a_seeded_match_is_reproducible_against_each_opponent() -> None:
    """One match to 100 against each bot: the same seed gives the same tally, with no anomaly."""
    harness = _harness()
    for opponent in ("openspiel", "openspiel-no-layoffs"):
        first = harness.play_match_vs_bot("hard", 0, 7, opponent)
        again = harness.play_match_vs_bot("hard", 0, 7, opponent)
        assert replace(first, seconds=0.0) == replace(again, seconds=0.0)  # (the time varies)
        assert first.matches == 1 and first.anomalies == 0
