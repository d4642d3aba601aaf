"""Simulations: counts add up, results do not depend on the number of processes, any table size."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit import sim
from rummykit.actions import Action, Discard, Take
from rummykit.games import Gin, GinOptions, Rummy, find_game
from rummykit.games.base import View
from rummykit.games.crazy import CrazyState
from rummykit.games.seeding import derive_seed
from rummykit.players import RandomPlayer, UnknownPlayerError
from rummykit.players.reasons import Suggestion, because
from rummykit.sim import SimReport, StuckError, play_hand, play_match, simulate

# A generous knock limit makes random play end hands by knocking, so points are not all zero.
LOOSE = {"knock_limit": 40, "target_score": 60}


def _stable(report: SimReport) -> dict[str, Any]:
    data = report.to_dict()
    for timing in ("elapsed", "hands_per_second", "jobs"):
        del data[timing]
    return data


def _players(unit_seed: int, seats: int = 2) -> list[RandomPlayer]:
    return [RandomPlayer(derive_seed(unit_seed, seat + 1)) for seat in range(seats)]


def test_hands_are_counted_and_outcomes_add_up() -> None:
    report = simulate("gin", ["random", "random"], hands=30, seed=3, options=LOOSE)
    assert report.hands == 30 and report.matches == 0
    assert list(report.outcomes) == list(Gin.outcomes)
    assert sum(report.outcomes.values()) == 30
    decided = 30 - report.outcomes["cancelled"]
    assert decided > 0
    assert sum(p.hands_won for p in report.players) == decided
    for p in report.players:
        assert sum(p.outcomes.values()) == p.hands_won
        assert p.outcomes["cancelled"] == 0
        assert p.matches_won == 0 and p.mean_total is None
    assert report.actions > 30 * 3
    data = report.to_dict()
    assert data["hands"] == 30 and len(data["players"]) == 2
    assert data["options"]["knock_limit"] == 40 and data["variant"] == "gin"


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


# Seeds and sizes chosen so that somebody goes out (random Basic Rummy mostly ends in stalemate).
@pytest.mark.parametrize(("seats", "hands", "seed"), [(2, 8, 1), (4, 10, 0), (6, 16, 0)])
def test_rummy_at_every_table_size(seats: int, hands: int, seed: int) -> None:
    names = ["random"] * seats
    report = simulate("rummy", names, hands=hands, seed=seed)
    assert report.game == "rummy" and len(report.players) == seats
    assert [p.seat for p in report.players] == list(range(seats))
    assert list(report.outcomes) == ["out", "stalemate"]
    assert sum(report.outcomes.values()) == hands
    assert sum(p.hands_won for p in report.players) == report.outcomes["out"]
    # Replay every hand: the dealer goes round the table, points are the hands' scores.
    game = Rummy()
    points, won, actions = [0] * seats, [0] * seats, 0
    for index in range(hands):
        unit_seed = derive_seed(seed, index)
        state = play_hand(game, _players(unit_seed, seats), unit_seed, dealer=index % seats)
        assert state.dealer == index % seats and state.result is not None
        actions += len(state.history)
        for s, score in enumerate(state.result.scores):
            points[s] += score
        if state.result.winner is not None:
            won[state.result.winner] += 1
    assert sum(points) > 0
    assert [p.points for p in report.players] == points
    assert [p.hands_won for p in report.players] == won
    assert report.actions == actions
    assert _stable(simulate("rummy", names, hands=hands, seed=seed, jobs=2)) == _stable(report)


def test_rummy_matches_share_tied_wins() -> None:
    seed, seats = 1, 3
    options = {"hands": 3}
    report = simulate("rummy", ["random"] * seats, matches=2, seed=seed, options=options)
    assert report.matches == 2 and report.hands == 6  # every match is exactly 3 hands
    assert report.options["hands"] == 3
    game = find_game("rummy", options)
    wins, totals = [0] * seats, [0] * seats
    for index in range(2):
        unit_seed = derive_seed(seed, index)
        match = play_match(game, _players(unit_seed, seats), unit_seed, dealer=index % seats)
        assert match.result is not None and len(match.hands) == 3
        for s in match.result.winners:
            wins[s] += 1
        for s, total in enumerate(match.result.totals):
            totals[s] += total
    assert [p.matches_won for p in report.players] == wins
    assert sum(wins) > 2  # this run has a tie, and a tie counts for every winner
    assert [p.mean_total for p in report.players] == [t / 2 for t in totals]
    jobs2 = simulate("rummy", ["random"] * seats, matches=2, seed=seed, options=options, jobs=2)
    assert _stable(jobs2) == _stable(report)


def test_options_apply_over_the_variant_defaults() -> None:
    plain = simulate("rummy", ["random"] * 3, hands=1, seed=1)
    classic = simulate("rummy-classic", ["random"] * 3, hands=1, seed=1)
    tuned = simulate(
        "rummy", ["random"] * 3, hands=1, seed=1, options={"melds_per_turn": "unlimited"}
    )
    assert plain.options["melds_per_turn"] == 1 and plain.options["restock"] == "turn_over"
    assert classic.variant == "rummy-classic" and classic.game == "rummy"
    assert classic.options["melds_per_turn"] == "unlimited"
    assert classic.options["restock"] == "shuffle"
    assert tuned.options["melds_per_turn"] == "unlimited"
    assert tuned.options["restock"] == "turn_over"
    as_object = simulate("gin", ["random"] * 2, hands=1, options=GinOptions(knock_limit=7))
    assert as_object.options["knock_limit"] == 7


def test_progress_is_reported_up_to_the_total() -> None:
    calls: list[tuple[int, int]] = []
    simulate(
        "gin", ["random", "random"], hands=12, seed=1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[0] == (0, 12) and calls[-1] == (12, 12)
    done = [d for d, _ in calls]
    assert done == sorted(done)


class _AlwaysTakes:
    """Never draws from the stock: takes the discard and throws another card, for ever."""

    name = "taker"

    def choose(self, view: View) -> Action:
        if Take() in view.legal_actions:
            return Take()
        return next(a for a in view.legal_actions if isinstance(a, Discard))

    def suggest(self, view: View) -> Suggestion:
        return Suggestion(self.choose(view), because("random"))


def test_a_hand_that_never_ends_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "MAX_ACTIONS", 300)
    with pytest.raises(StuckError, match="300 actions"):
        play_hand(Rummy(), [_AlwaysTakes(), _AlwaysTakes()], 4)
    with pytest.raises(StuckError, match="300 actions"):
        play_match(Rummy(), [_AlwaysTakes(), _AlwaysTakes()], 4)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        simulate("gin", ["random", "random"], hands=1, matches=1)
    with pytest.raises(ValueError, match="exactly one"):
        simulate("gin", ["random", "random"])
    with pytest.raises(UnknownPlayerError, match="valid: random"):
        simulate("gin", ["random", "nobody"], hands=1)
    with pytest.raises(UnknownPlayerError, match="for rummy"):
        simulate("rummy-classic", ["random", "random", "nobody"], hands=1)
    with pytest.raises(ValueError, match="unknown game"):
        simulate("chess", ["random", "random"], hands=1)
    with pytest.raises(ValueError, match="gin needs 2 players, not 1"):
        simulate("gin", ["random"], hands=1)
    with pytest.raises(ValueError, match="gin needs 2 players, not 3"):
        simulate("gin", ["random"] * 3, hands=1)
    with pytest.raises(ValueError, match="rummy is for 2 to 6 players, not 7"):
        simulate("rummy", ["random"] * 7, hands=1)
    with pytest.raises(ValueError, match="unknown Gin option"):
        simulate("gin", ["random", "random"], hands=1, options={"wilds": True})
    with pytest.raises(ValueError, match="unknown Rummy option"):
        simulate("rummy", ["random", "random"], hands=1, options={"knock_limit": 5})
    with pytest.raises(ValueError, match="option restock"):
        simulate("rummy", ["random", "random"], hands=1, options={"restock": "sideways"})


def _crazy_points(seed: int, seats: int, rounds: list[int]) -> list[int]:
    """Each seat's points over single Crazy Rummy hands played one by one in the given rounds."""
    game = find_game("crazy")
    points = [0] * seats
    for index, round_number in enumerate(rounds):
        unit_seed = derive_seed(seed, index)
        state = play_hand(
            game, _players(unit_seed, seats), unit_seed, dealer=index % seats, round=round_number
        )
        assert isinstance(state, CrazyState) and state.round == round_number
        assert state.result is not None
        for s, score in enumerate(state.result.scores):
            points[s] += score
    return points


@pytest.mark.slow
def test_crazy_hands_go_through_the_seven_rounds() -> None:
    seed, seats = 4, 3
    report = simulate("crazy", ["random"] * seats, hands=9, seed=seed)
    assert report.round is None and report.to_dict()["round"] is None
    cycled = _crazy_points(seed, seats, [1, 2, 3, 4, 5, 6, 7, 1, 2])
    assert [p.points for p in report.players] == cycled
    # Not what round 1 nine times gives: the rounds really differ.
    assert cycled != _crazy_points(seed, seats, [1] * 9)
    assert _stable(simulate("crazy", ["random"] * seats, hands=9, seed=seed, jobs=2)) == _stable(
        report
    )


def test_crazy_hands_in_one_round() -> None:
    report = simulate("crazy", ["random", "random"], hands=4, seed=2, round=7)
    assert report.round == 7 and report.to_dict()["round"] == 7
    assert [p.points for p in report.players] == _crazy_points(2, 2, [7] * 4)


@pytest.mark.parametrize(
    ("game", "kwargs", "message"),
    [
        ("gin", {"hands": 1, "round": 2}, "gin has no rounds"),
        ("crazy", {"matches": 1, "round": 2}, "a round is for single hands"),
        ("crazy", {"hands": 1, "round": 8}, "round must be 1 to 7, got 8"),
        ("crazy", {"hands": 1, "round": 0}, "round must be 1 to 7, got 0"),
        ("crazy", {"hands": 1, "round": True}, "round must be 1 to 7, got True"),
    ],
)
def test_a_round_only_for_single_crazy_hands(
    game: str, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(game, ["random", "random"], **kwargs)
    with pytest.raises(ValueError, match="gin has no rounds"):
        play_hand(Gin(), _players(1), 1, round=3)
