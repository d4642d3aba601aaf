"""Simulation: computer players play hands or matches against each other, in parallel.

Every hand (or match) number ``i`` is dealt from ``derive_seed(seed, i)`` and gets fresh players
seeded from that number too, so a report depends only on its arguments, never on ``jobs``.

>>> report = simulate("gin", ["random", "random"], hands=4, seed=1)
>>> report.hands, sum(report.outcomes.values())
(4, 4)
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.games import Gin, GinOptions, find_game
from rummykit.games.base import derive_seed
from rummykit.games.gin import GinMatch, GinState, Outcome
from rummykit.players import Player, find_player

__all__ = [
    "OUTCOMES",
    "PlayerStats",
    "Progress",
    "SimReport",
    "play_hand",
    "play_match",
    "simulate",
]

OUTCOMES: tuple[str, ...] = tuple(o.value for o in Outcome)
"""Every way a hand can end, in report order."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` (hands or matches) while a simulation runs."""


def play_hand(game: Gin, players: Sequence[Player], seed: int | None, dealer: int = 0) -> GinState:
    """Play one hand to its end; ``players[seat]`` decides from ``state.view(seat)`` only."""
    state = game.new_hand(seed=seed, dealer=dealer)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(players[seat].choose(state.view(seat)), seat)
    return state


def play_match(game: Gin, players: Sequence[Player], seed: int | None, dealer: int = 0) -> GinMatch:
    """Play one match to the target score; ``players[seat]`` decides from views only."""
    match = game.new_match(seed=seed, dealer=dealer)
    while True:
        hand = match.hand
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            match.apply(players[seat].choose(hand.view(seat)), seat)
        if match.is_over:
            return match
        match.next_hand()


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One seat's totals over a simulation."""

    name: str
    seat: int
    hands_won: int
    points: int
    """Hand points scored (bonuses of hands included, end-of-match bonuses not)."""
    outcomes: dict[str, int]
    """The hands this seat won, by outcome (knock, gin, big_gin, undercut)."""
    matches_won: int
    mean_total: float | None
    """The mean final match total (with game, box and shutout bonuses); None without matches."""

    def to_dict(self) -> dict[str, Any]:
        """The statistics as JSON data."""
        return {
            "name": self.name,
            "seat": self.seat,
            "hands_won": self.hands_won,
            "points": self.points,
            "outcomes": dict(self.outcomes),
            "matches_won": self.matches_won,
            "mean_total": self.mean_total,
        }


@dataclass(frozen=True, slots=True)
class SimReport:
    """What a simulation found. Everything but the timing depends only on the arguments."""

    game: str
    seed: int
    players: tuple[PlayerStats, ...]
    hands: int
    """Hands played (in matches: every hand of every match, cancelled ones included)."""
    matches: int
    """Matches played (0 when hands were simulated on their own)."""
    outcomes: dict[str, int]
    """Every hand by outcome; the counts add up to ``hands``."""
    actions: int
    """Actions applied over all hands."""
    jobs: int
    elapsed: float
    """Wall-clock seconds."""

    @property
    def hands_per_second(self) -> float:
        """Hands played per wall-clock second."""
        return self.hands / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def mean_actions(self) -> float:
        """Actions per hand on average."""
        return self.actions / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON data."""
        return {
            "game": self.game,
            "seed": self.seed,
            "hands": self.hands,
            "matches": self.matches,
            "outcomes": dict(self.outcomes),
            "actions": self.actions,
            "players": [p.to_dict() for p in self.players],
            "jobs": self.jobs,
            "elapsed": self.elapsed,
            "hands_per_second": self.hands_per_second,
        }


@dataclass
class _Tally:
    """Running totals of a chunk of work; tallies add up (so the order of chunks is irrelevant)."""

    units: int = 0
    hands: int = 0
    actions: int = 0
    outcomes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    won: list[dict[str, int]] = field(
        default_factory=lambda: [dict.fromkeys(OUTCOMES, 0), dict.fromkeys(OUTCOMES, 0)]
    )
    points: list[int] = field(default_factory=lambda: [0, 0])
    matches_won: list[int] = field(default_factory=lambda: [0, 0])
    totals: list[int] = field(default_factory=lambda: [0, 0])

    def add_hand(self, state: GinState) -> None:
        result = state.result
        assert result is not None
        self.hands += 1
        self.actions += len(state.history)
        self.outcomes[result.outcome.value] += 1
        if result.winner is not None:
            self.won[result.winner][result.outcome.value] += 1
            self.points[result.winner] += result.points

    def add_match(self, match: GinMatch) -> None:
        result = match.result
        assert result is not None
        for hand in match.hands:
            self.add_hand(hand)
        self.matches_won[result.winner] += 1
        for seat in (0, 1):
            self.totals[seat] += result.totals[seat]

    def merge(self, other: _Tally) -> None:
        self.units += other.units
        self.hands += other.hands
        self.actions += other.actions
        for name in OUTCOMES:
            self.outcomes[name] += other.outcomes[name]
            for seat in (0, 1):
                self.won[seat][name] += other.won[seat][name]
        for seat in (0, 1):
            self.points[seat] += other.points[seat]
            self.matches_won[seat] += other.matches_won[seat]
            self.totals[seat] += other.totals[seat]


@dataclass(frozen=True, slots=True)
class _Task:
    """A chunk of work a process can run alone (plain data, cheap to pickle)."""

    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    seed: int
    matches: bool
    start: int
    stop: int


def _players_for(task: _Task, unit_seed: int) -> list[Player]:
    return [
        find_player(task.game, name, derive_seed(unit_seed, seat + 1))
        for seat, name in enumerate(task.players)
    ]


def _run(task: _Task) -> _Tally:
    game = find_game(task.game)(GinOptions.from_dict(task.options))
    tally = _Tally()
    for index in range(task.start, task.stop):
        unit_seed = derive_seed(task.seed, index)
        players = _players_for(task, unit_seed)
        if task.matches:
            tally.add_match(play_match(game, players, unit_seed, dealer=index % 2))
        else:
            tally.add_hand(play_hand(game, players, unit_seed, dealer=index % 2))
        tally.units += 1
    return tally


def _chunks(total: int, jobs: int, matches: bool) -> Iterator[tuple[int, int]]:
    # Small chunks keep every process busy and the progress bar moving; big enough to be cheap.
    per_chunk = max(1, min(5 if matches else 100, total // (jobs * 8) or 1))
    for start in range(0, total, per_chunk):
        yield start, min(total, start + per_chunk)


def _options(options: GinOptions | Mapping[str, Any] | None) -> GinOptions:
    if options is None:
        return GinOptions()
    if isinstance(options, GinOptions):
        return options
    return GinOptions.from_dict(options)


def simulate(
    game_name: str,
    player_names: Sequence[str],
    *,
    hands: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    options: GinOptions | Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> SimReport:
    """Play ``hands`` single hands (the dealer alternating) or ``matches`` whole matches.

    ``player_names[seat]`` names the player of each seat (see :data:`rummykit.players.PLAYERS`).
    Work is spread over ``jobs`` processes; the report (timing aside) is the same for any ``jobs``.
    An unknown game, player or option raises ValueError before anything is played.
    """
    if (hands is None) == (matches is None):
        raise ValueError("give exactly one of hands or matches")
    total = hands if hands is not None else matches
    assert total is not None
    if total < 0:
        raise ValueError("the number of hands or matches cannot be negative")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    game_cls = find_game(game_name)
    if len(player_names) != 2:
        raise ValueError(f"{game_cls.name} needs 2 players, not {len(player_names)}")
    names = tuple(find_player(game_cls.name, name, 0).name for name in player_names)
    opts = _options(options)
    tasks = [
        _Task(game_cls.name, opts.to_dict(), names, seed, matches is not None, start, stop)
        for start, stop in _chunks(total, jobs, matches is not None)
    ]
    started = time.perf_counter()
    if progress is not None:
        progress(0, total)
    if jobs == 1 or len(tasks) <= 1:
        tally = _collect(map(_run, tasks), total, progress)
    else:
        with multiprocessing.get_context().Pool(min(jobs, len(tasks))) as pool:
            tally = _collect(pool.imap_unordered(_run, tasks), total, progress)
    elapsed = time.perf_counter() - started
    n_matches = tally.units if matches is not None else 0
    stats = tuple(
        PlayerStats(
            name=names[seat],
            seat=seat,
            hands_won=sum(tally.won[seat].values()),
            points=tally.points[seat],
            outcomes={k: v for k, v in tally.won[seat].items() if k != Outcome.CANCELLED.value},
            matches_won=tally.matches_won[seat],
            mean_total=tally.totals[seat] / n_matches if n_matches else None,
        )
        for seat in (0, 1)
    )
    return SimReport(
        game=game_cls.name,
        seed=seed,
        players=stats,
        hands=tally.hands,
        matches=n_matches,
        outcomes=tally.outcomes,
        actions=tally.actions,
        jobs=jobs,
        elapsed=elapsed,
    )


def _collect(results: Iterator[_Tally], total: int, progress: Progress | None) -> _Tally:
    tally = _Tally()
    for part in results:
        tally.merge(part)
        if progress is not None:
            progress(tally.units, total)
    return tally
