"""Simulations: counts add up, results do not depend on the number of processes."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.games import Gin, GinOptions
from rummykit.games.base import derive_seed
from rummykit.players import RandomPlayer, UnknownPlayerError
from rummykit.sim import OUTCOMES, SimReport, play_hand, play_match, simulate

# A generous knock limit makes random play end hands by knocking, so points are not all zero.
LOOSE = {"knock_limit": 40, "target_score": 60}


def _stable(report: SimReport) -> dict[str, Any]:
    data = report.to_dict()
    for timing in ("elapsed", "hands_per_second", "jobs"):
        del data[timing]
    return data


def _players(unit_seed: int) -> list[RandomPlayer]:
    return [RandomPlayer(derive_seed(unit_seed, 1)), RandomPlayer(derive_seed(unit_seed, 2))]


def test_hands_are_counted_and_outcomes_add_up() -> None:
    report = simulate("gin", ["random", "random"], hands=30, seed=3, options=LOOSE)
    assert report.hands == 30 and report.matches == 0
    assert set(report.outcomes) == set(OUTCOMES)
    assert sum(report.outcomes.values()) == 30
    decided = 30 - report.outcomes["cancelled"]
    assert decided > 0
    assert sum(p.hands_won for p in report.players) == decided
    for p in report.players:
        assert sum(p.outcomes.values()) == p.hands_won
        assert p.matches_won == 0 and p.mean_total is None
    assert report.actions > 30 * 3
    data = report.to_dict()
    assert data["hands"] == 30 and len(data["players"]) == 2


def test_points_equal_the_sum_of_the_hand_results() -> None:
    seed = 8
    report = simulate("gin", ["random", "random"], hands=20, seed=seed, options=LOOSE)
    game = Gin(GinOptions.from_dict(LOOSE))
    points, won = [0, 0], [0, 0]
    for index in range(20):
        unit_seed = derive_seed(seed, index)
        state = play_hand(game, _players(unit_seed), unit_seed, dealer=index % 2)
        assert state.result is not None
        if state.result.winner is not None:
            points[state.result.winner] += state.result.points
            won[state.result.winner] += 1
    assert sum(points) > 0
    assert [p.points for p in report.players] == points
    assert [p.hands_won for p in report.players] == won


def test_results_do_not_depend_on_jobs() -> None:
    kwargs: dict[str, Any] = {"hands": 40, "seed": 5, "options": LOOSE}
    one = simulate("gin", ["random", "random"], jobs=1, **kwargs)
    two = simulate("gin", ["random", "random"], jobs=2, **kwargs)
    assert two.jobs == 2
    assert _stable(one) == _stable(two)
    assert one.hands_per_second > 0


def test_matches_report_wins_and_mean_totals() -> None:
    seed = 2
    report = simulate("gin", ["random", "random"], matches=3, seed=seed, jobs=2, options=LOOSE)
    assert report.matches == 3
    assert sum(p.matches_won for p in report.players) == 3
    game = Gin(GinOptions.from_dict(LOOSE))
    totals, hands = [0, 0], 0
    for index in range(3):
        unit_seed = derive_seed(seed, index)
        match = play_match(game, _players(unit_seed), unit_seed, dealer=index % 2)
        assert match.result is not None
        hands += len(match.hands)
        for seat in (0, 1):
            totals[seat] += match.result.totals[seat]
    assert report.hands == hands
    assert sum(report.outcomes.values()) == hands
    assert [p.mean_total for p in report.players] == [t / 3 for t in totals]


def test_progress_is_reported_up_to_the_total() -> None:
    calls: list[tuple[int, int]] = []
    simulate(
        "gin", ["random", "random"], hands=12, seed=1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[0] == (0, 12) and calls[-1] == (12, 12)
    done = [d for d, _ in calls]
    assert done == sorted(done)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        simulate("gin", ["random", "random"], hands=1, matches=1)
    with pytest.raises(ValueError, match="exactly one"):
        simulate("gin", ["random", "random"])
    with pytest.raises(UnknownPlayerError, match="valid: random"):
        simulate("gin", ["random", "nobody"], hands=1)
    with pytest.raises(ValueError, match="unknown game"):
        simulate("chess", ["random", "random"], hands=1)
    with pytest.raises(ValueError, match="2 players"):
        simulate("gin", ["random"], hands=1)
    with pytest.raises(ValueError, match="unknown Gin option"):
        simulate("gin", ["random", "random"], hands=1, options={"wilds": True})
