"""Round robins: the schedule, the statistics (Wilson intervals, Bradley-Terry ratings), the
direction of each game's totals, determinism over processes, and the CLI."""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import combinations
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.games import find_game
from rummykit.players import (
    REGISTRY,
    Player,
    PlayerFactory,
    RandomPlayer,
    UnknownPlayerError,
    find_player,
)
from rummykit.sim import play_match, simulate
from rummykit.tournament import (
    _add_match,
    _seating,
    _Tally,
    bradley_terry,
    lineups,
    round_robin,
    wilson,
)

runner = CliRunner()


# ------------------------------------------------------------------------------ statistics


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(602, 1000)
    assert (round(low, 4), round(high, 4)) == (0.5713, 0.6319)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_observed_rate(successes: int, trials: int) -> None:
    successes = min(successes, trials)
    low, high = wilson(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


@settings(max_examples=examples(60))
@given(st.integers(0, 200), st.integers(0, 200))
def test_two_player_ratings_follow_the_odds(a_wins: int, b_wins: int) -> None:
    ratings = bradley_terry(["a", "b"], {("a", "b"): a_wins, ("b", "a"): b_wins})
    assert math.isclose(ratings["a"] + ratings["b"], 3000, abs_tol=1e-6)
    if a_wins + b_wins == 0:
        assert ratings["a"] == ratings["b"] == 1500
        return
    odds = (a_wins + 0.5) / (b_wins + 0.5)  # the prior adds one drawn game
    assert math.isclose(ratings["a"] - ratings["b"], 400 * math.log10(odds), abs_tol=1e-3)


def test_ratings_order_a_transitive_field() -> None:
    wins = {("h", "m"): 70, ("m", "h"): 30, ("m", "e"): 70, ("e", "m"): 30}
    wins |= {("h", "e"): 85, ("e", "h"): 15}
    ratings = bradley_terry(["e", "m", "h"], wins)
    assert ratings["h"] > ratings["m"] > ratings["e"]
    assert math.isclose(sum(ratings.values()) / 3, 1500, abs_tol=1e-6)


# -------------------------------------------------------------------------------- schedule


def test_lineups_cover_every_pair_or_cycle_the_list() -> None:
    assert lineups(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert lineups(2, 2) == [(0, 1)]
    cycled = lineups(3, 4)
    assert Counter(i for table in cycled for i in table) == {0: 12, 1: 12, 2: 12}
    assert {frozenset(pair) for t in lineups(5, 3) for pair in combinations(t, 2)} == {
        frozenset(pair) for pair in combinations(range(5), 2)
    }


def _rotations(table: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {table[k:] + table[:k] for k in range(len(table))}


@pytest.mark.parametrize(
    ("players", "seats"), [(2, 3), (3, 3), (3, 4), (4, 3), (4, 4), (5, 4), (2, 4), (6, 4)]
)
def test_every_player_sits_directly_after_every_other_equally_often(
    players: int, seats: int
) -> None:
    """Who sits after whom decides who draws whose discards: up to four seats the schedule
    balances it exactly, and no table is the same order round the table as another."""
    tables = lineups(players, seats)
    after = Counter(
        (table[k], table[(k + 1) % seats])
        for table in tables
        for k in range(seats)
        if table[k] != table[(k + 1) % seats]
    )
    assert set(after) == {(a, b) for a in range(players) for b in range(players) if a != b}
    assert len(set(after.values())) == 1, after
    assert all(_rotations(t).isdisjoint(_rotations(u)) for t, u in combinations(tables, 2))


def test_five_and_six_seats_play_both_directions() -> None:
    tables = lineups(6, 6)
    assert tables == [(0, 1, 2, 3, 4, 5), (0, 5, 4, 3, 2, 1)]


def test_every_player_sits_in_every_seat_equally_often() -> None:
    names = ("easy", "medium", "hard")
    cycle = len(lineups(3, 4)) * 4
    seatings = [_seating(names, 4, i) for i in range(cycle)]
    for seat in range(4):
        assert Counter(s[seat] for s in seatings) == {"easy": 12, "medium": 12, "hard": 12}
    assert {s[0] for s in seatings[:4]} == set(names)  # a table's four rotations come together


# ---------------------------------------------------------------------- playing and tallying


def test_a_round_robin_gives_every_player_its_share_and_counts_every_pair() -> None:
    report = round_robin("gin", ["easy", "medium", "random"], matches=12, seed=5)
    assert report.matches == 12 and report.seats == 2
    assert {p.name: p.matches for p in report.players} == {"easy": 8, "medium": 8, "random": 8}
    assert [p.rating for p in report.players] == sorted(
        (p.rating for p in report.players), reverse=True
    )
    assert sum(p.wins for p in report.players) >= 12  # every match has a winner (or shares one)
    assert {(p.a, p.b) for p in report.pairs} | {(p.b, p.a) for p in report.pairs} >= {
        ("easy", "medium"),
        ("medium", "random"),
        ("easy", "random"),
    }
    assert all(p.games == 4 for p in report.pairs)
    assert sum(p.hands for p in report.players) == 2 * report.hands
    assert report.cycle == 6 and report.balanced and report.to_dict()["balanced"] is True
    assert report.beats("medium", "random") and not report.beats("random", "medium")


def test_a_round_robin_does_not_depend_on_jobs() -> None:
    one = round_robin("gin", ["easy", "medium"], matches=6, seed=9).to_dict()
    two = round_robin("gin", ["easy", "medium"], matches=6, seed=9, jobs=2).to_dict()
    for report in (one, two):
        del report["elapsed"], report["jobs"]
    assert one == two


def test_the_lowest_total_wins_a_crazy_rummy_comparison() -> None:
    game = find_game("crazy")
    players = [find_player("crazy", "random", seed) for seed in range(3)]
    match = play_match(game, players, 11)
    tally = _Tally()
    _add_match(tally, game, ("a", "b", "c"), match)
    assert match.result is not None
    totals = dict(zip("abc", match.result.totals, strict=True))
    for (x, y), count in tally.wins.items():
        assert count == 1 and totals[x] < totals[y]
    assert sum(tally.wins.values()) + sum(tally.ties.values()) == 3
    winners = {"abc"[seat] for seat in match.result.winners}
    assert all(totals[w] == min(totals.values()) for w in winners)


def test_a_table_size_the_game_does_not_allow_is_refused() -> None:
    with pytest.raises(ValueError, match="not 3"):
        round_robin("gin", ["easy", "medium"], matches=2, seats=3)
    with pytest.raises(ValueError, match="unknown player"):
        round_robin("gin", ["easy", "wizard"], matches=2)


# ------------------------------------------------------------------------------------- CLI


def test_sim_with_more_players_than_seats_plays_a_round_robin() -> None:
    result = runner.invoke(app, ["sim", "gin", "-p", "easy,medium,random", "-m", "6"])
    assert result.exit_code == 0, result.output
    assert "gin round robin, 2 seats: 6 matches" in result.output
    for name in ("easy", "medium", "random"):
        assert name in result.output
    assert "head to head" in result.output and "95% interval" in result.output
    assert "unbalanced" not in result.output


def test_sim_says_when_a_round_robin_is_unbalanced() -> None:
    result = runner.invoke(app, ["sim", "gin", "-p", "easy,medium,random", "-m", "4"])
    assert result.exit_code == 0, result.output
    assert "unbalanced: play a multiple of 6 matches" in " ".join(result.output.split())


def test_sim_round_robin_json() -> None:
    args = ["sim", "rummy", "-p", "random", "--seats", "3", "-m", "3", "--json"]
    data = json.loads(runner.invoke(app, args).output)
    assert data["seats"] == 3 and data["matches"] == 3
    assert [p["name"] for p in data["players"]] == ["random"] and data["pairs"] == []
    assert data["players"][0]["matches"] == 9


def test_a_round_robin_of_zero_matches_plays_none_and_says_how_seats_count() -> None:
    result = runner.invoke(app, ["sim", "gin", "-p", "random,random", "--seats", "2", "-m", "0"])
    assert result.exit_code == 0, result.output
    assert "0 matches, 0 hands" in result.output
    result = runner.invoke(app, ["sim", "rummy", "-p", "random,easy", "--seats", "3", "-m", "2"])
    text = " ".join(result.output.split())
    assert "a player at several seats of a table counts once per seat" in text


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sim", "gin", "-p", "easy,medium,random", "-n", "4"], "--matches N for a round robin"),
        (["sim", "gin", "-p", "easy,medium", "--seats", "2", "-n", "4"], "give --matches"),
        (["sim", "gin", "-p", "easy,medium", "--seats", "3", "-m", "2"], "not 3"),
    ],
)
def test_round_robin_usage_errors_exit_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert needle in result.output


class _Mine(RandomPlayer):
    """A researcher's own player: a subclass that keeps its parent's ``name`` ("random")."""


def test_a_registered_player_is_reported_by_its_registered_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tournaments and simulations name each player as it was registered and asked for (any
    case): a registered subclass of the random player is not merged with "random" (it was)."""

    def mine(seed: int | None, options: Any = None) -> Player:
        return _Mine(seed)

    monkeypatch.setitem(REGISTRY["gin"], "mine", cast(PlayerFactory, mine))
    report = round_robin("gin", [" Mine", "random"], matches=4, seed=1)
    assert sorted(p.name for p in report.players) == ["mine", "random"]
    assert sum(p.matches for p in report.players) == 2 * 4
    sim = simulate("gin", ["MINE", "random"], hands=6, seed=1)
    assert [p.name for p in sim.players] == ["mine", "random"]
    with pytest.raises(UnknownPlayerError, match="unknown player 'yours'"):
        round_robin("gin", ["yours", "random"], matches=2, seed=1)
