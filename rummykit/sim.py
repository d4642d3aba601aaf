"""Simulation: computer players play hands or matches of any game against each other, in parallel.

Every hand (or match) number ``i`` is dealt from ``derive_seed(seed, i)`` by seat ``i % players``
and gets fresh players seeded from that number too, so a report depends only on its arguments,
never on ``jobs``. The table size is the number of player names. Single hands of Crazy Rummy go
through the seven rounds in turn (hand ``i`` is round ``i % 7 + 1``), unless one round is asked for.

>>> report = simulate("gin", ["random", "random"], hands=4, seed=1)
>>> report.hands, sum(report.outcomes.values())
(4, 4)
>>> report = simulate("rummy-classic", ["random"] * 4, hands=2, seed=1)
>>> report.game, report.variant, len(report.players), list(report.outcomes)
('rummy', 'rummy-classic', 4, ['out', 'stalemate'])
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar, overload

from rummykit.games import find_game
from rummykit.games.base import Game, HandState, check_players
from rummykit.games.crazy import ROUNDS, Crazy
from rummykit.games.gin import Gin, GinMatch, GinState
from rummykit.games.match import Match
from rummykit.games.options import OptionsLike
from rummykit.games.rummy import Rummy, RummyMatch, RummyState
from rummykit.games.seeding import derive_seed
from rummykit.players import Player, find_player, registered_names

__all__ = [
    "MAX_ACTIONS",
    "MAX_HANDS",
    "PlayerStats",
    "Progress",
    "SimReport",
    "StuckError",
    "Tally",
    "check_players",
    "play_hand",
    "play_match",
    "run_chunks",
    "simulate",
]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` (hands or matches) while a simulation runs."""

MAX_ACTIONS = 50_000
"""A hand that has not ended after this many actions is stuck (random play needs a few hundred)."""

MAX_HANDS = 10_000
"""A match that has not ended after this many hands is stuck."""


class StuckError(RuntimeError):
    """A hand or match that does not end: players that never draw from the stock, say."""


def _play_out(state: HandState, players: Sequence[Player], apply: Any) -> None:
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None:
            return
        apply(players[seat].choose(state.view(seat)), seat)
    if not state.is_over:
        raise StuckError(f"a hand did not end within {MAX_ACTIONS} actions (seed {state.seed})")


@overload
def play_hand(
    game: Gin, players: Sequence[Player], seed: int | None, dealer: int = 0, round: None = None
) -> GinState: ...
@overload
def play_hand(
    game: Rummy, players: Sequence[Player], seed: int | None, dealer: int = 0, round: None = None
) -> RummyState: ...
@overload
def play_hand(
    game: Game,
    players: Sequence[Player],
    seed: int | None,
    dealer: int = 0,
    round: int | None = None,
) -> HandState: ...
def play_hand(
    game: Game,
    players: Sequence[Player],
    seed: int | None,
    dealer: int = 0,
    round: int | None = None,
) -> HandState:
    """Play one hand for ``len(players)`` seats to its end; ``players[seat]`` sees only its view.

    ``round`` (Crazy Rummy only, 1-7; default 1) is the round dealt: its hand size and contract.
    Raises :class:`StuckError` if the hand has not ended after :data:`MAX_ACTIONS` actions.
    """
    if round is None:
        state = game.new_hand(players=len(players), seed=seed, dealer=dealer)
    elif isinstance(game, Crazy):
        state = game.new_hand(players=len(players), seed=seed, dealer=dealer, round=round)
    else:
        raise ValueError(f"{game.name} has no rounds: only Crazy Rummy deals a given round")
    _play_out(state, players, state.apply)
    return state


@overload
def play_match(
    game: Gin, players: Sequence[Player], seed: int | None, dealer: int = 0
) -> GinMatch: ...
@overload
def play_match(
    game: Rummy, players: Sequence[Player], seed: int | None, dealer: int = 0
) -> RummyMatch: ...
@overload
def play_match(
    game: Game, players: Sequence[Player], seed: int | None, dealer: int = 0
) -> Match: ...
def play_match(game: Game, players: Sequence[Player], seed: int | None, dealer: int = 0) -> Match:
    """Play one whole match for ``len(players)`` seats; ``players[seat]`` decides from views only.

    Raises :class:`StuckError` if a hand or the match does not end (:data:`MAX_ACTIONS`,
    :data:`MAX_HANDS`).
    """
    match = game.new_match(players=len(players), seed=seed, dealer=dealer)
    for _ in range(MAX_HANDS):
        _play_out(match.hand, players, match.apply)
        if match.is_over:
            return match
        match.next_hand()
    raise StuckError(f"a match did not end within {MAX_HANDS} hands (seed {seed})")


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One seat's totals over a simulation."""

    name: str
    seat: int
    hands_won: int
    points: int
    """Hand points scored: the sum of the hands' ``scores`` for this seat (end-of-match bonuses
    not included)."""
    outcomes: dict[str, int]
    """The hands this seat won, by outcome (every outcome of the game; those that nobody wins,
    such as Gin's ``cancelled`` or Rummy's ``stalemate``, stay at 0)."""
    matches_won: int
    """Matches won; a shared win (equal top totals) counts for every winner."""
    mean_total: float | None
    """The mean final match total (Gin: with game, box and shutout bonuses); None without
    matches."""

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
    """The game's canonical name (``rummy`` for every Basic Rummy variant)."""
    variant: str
    """The game name as asked for (e.g. ``rummy-classic``), lower case."""
    options: dict[str, Any]
    """Every option of the game as played (the variant's defaults with the given overrides)."""
    seed: int
    players: tuple[PlayerStats, ...]
    """One entry per seat, seat 0 first."""
    hands: int
    """Hands played (in matches: every hand of every match, cancelled ones included)."""
    matches: int
    """Matches played (0 when hands were simulated on their own)."""
    outcomes: dict[str, int]
    """Every hand by outcome, in the game's order of outcomes; the counts add up to ``hands``."""
    actions: int
    """Actions applied over all hands."""
    jobs: int
    elapsed: float
    """Wall-clock seconds."""
    round: int | None = None
    """Crazy Rummy's single hands: the one round every hand was dealt in, or None when they went
    through rounds 1-7 in turn (and for matches and the other games)."""

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
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "hands": self.hands,
            "matches": self.matches,
            "outcomes": dict(self.outcomes),
            "actions": self.actions,
            "players": [p.to_dict() for p in self.players],
            "jobs": self.jobs,
            "elapsed": self.elapsed,
            "hands_per_second": self.hands_per_second,
            "round": self.round,
        }


@dataclass
class _Tally:
    """Running totals of a chunk of work; tallies add up (so the order of chunks is irrelevant)."""

    seats: int
    outcome_names: tuple[str, ...]
    units: int = 0
    hands: int = 0
    actions: int = 0
    outcomes: dict[str, int] = field(init=False)
    won: list[dict[str, int]] = field(init=False)
    points: list[int] = field(init=False)
    matches_won: list[int] = field(init=False)
    totals: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.outcomes = dict.fromkeys(self.outcome_names, 0)
        self.won = [dict.fromkeys(self.outcome_names, 0) for _ in range(self.seats)]
        self.points = [0] * self.seats
        self.matches_won = [0] * self.seats
        self.totals = [0] * self.seats

    def add_hand(self, state: HandState) -> None:
        result = state.result
        assert result is not None
        outcome = str(result.outcome.value)
        self.hands += 1
        self.actions += len(state.history)
        self.outcomes[outcome] += 1
        if result.winner is not None:
            self.won[result.winner][outcome] += 1
        for seat, points in enumerate(result.scores):
            self.points[seat] += points

    def add_match(self, match: Match) -> None:
        result = match.result
        assert result is not None
        for hand in match.hands:
            self.add_hand(hand)
        for seat in result.winners:
            self.matches_won[seat] += 1
        for seat, total in enumerate(result.totals):
            self.totals[seat] += total

    def merge(self, other: _Tally) -> None:
        self.units += other.units
        self.hands += other.hands
        self.actions += other.actions
        for name in self.outcome_names:
            self.outcomes[name] += other.outcomes[name]
            for seat in range(self.seats):
                self.won[seat][name] += other.won[seat][name]
        for seat in range(self.seats):
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
    round: int | None = None
    """Crazy Rummy's single hands: every hand in this round, or (None) rounds 1-7 in turn."""


def _players_for(task: _Task, game: Game, unit_seed: int) -> list[Player]:
    return [
        find_player(game, name, derive_seed(unit_seed, seat + 1))  # by the table's rules
        for seat, name in enumerate(task.players)
    ]


def _run(task: _Task) -> _Tally:
    game = find_game(task.game, task.options)
    seats = len(task.players)
    tally = _Tally(seats, game.outcomes)
    for index in range(task.start, task.stop):
        unit_seed = derive_seed(task.seed, index)
        players = _players_for(task, game, unit_seed)
        if task.matches:
            tally.add_match(play_match(game, players, unit_seed, dealer=index % seats))
        else:
            deal_round = None
            if isinstance(game, Crazy):
                deal_round = task.round if task.round is not None else index % ROUNDS + 1
            tally.add_hand(
                play_hand(game, players, unit_seed, dealer=index % seats, round=deal_round)
            )
        tally.units += 1
    return tally


MAX_HANDS = 100_000_000
"""The most hands one simulation plays (about a day at the engine's pace on one core)."""

MAX_MATCHES = 10_000_000
"""The most matches one simulation plays."""


def check_count(total: int, matches: bool) -> None:
    """ValueError if ``total`` hands (or matches) is more than one run plays: its work is
    planned up front, so an absurd count would fill the memory before the first hand."""
    limit, unit = (MAX_MATCHES, "matches") if matches else (MAX_HANDS, "hands")
    if total > limit:
        raise ValueError(
            f"at most {limit:,} {unit} a run, not {total:,} (run several with other seeds)"
        )


def _chunks(total: int, jobs: int, matches: bool) -> Iterator[tuple[int, int]]:
    # Small chunks keep every process busy and the progress bar moving; big enough to be cheap.
    per_chunk = max(1, min(5 if matches else 100, total // (jobs * 8) or 1))
    for start in range(0, total, per_chunk):
        yield start, min(total, start + per_chunk)


def simulate(
    game_name: str,
    player_names: Sequence[str],
    *,
    hands: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    options: Mapping[str, Any] | OptionsLike | None = None,
    progress: Progress | None = None,
    round: int | None = None,
) -> SimReport:
    """Play ``hands`` single hands (the deal passing round the table) or ``matches`` matches.

    ``game_name`` is any game name or alias (``gin``, ``rummy``, ``rummy-classic``...);
    ``options`` (JSON data, e.g. ``{"melds_per_turn": "unlimited"}``, or an options object such
    as ``GinOptions``) override the variant's defaults. ``player_names[seat]`` names the player of
    each seat (see :data:`rummykit.players.PLAYERS`); their number is the table size. Work is
    spread over ``jobs`` processes; the report (timing aside) is the same for any ``jobs``. An
    unknown game, player or option, or a table size the game does not allow, raises ValueError
    before anything is played.

    Single hands of Crazy Rummy go through rounds 1-7 in turn; ``round`` (1-7) plays every hand
    in that round instead. ``round`` with any other game, or with ``matches``, raises ValueError.
    """
    if (hands is None) == (matches is None):
        raise ValueError("give exactly one of hands or matches")
    total = hands if hands is not None else matches
    assert total is not None
    if total < 0:
        raise ValueError("the number of hands or matches cannot be negative")
    check_count(total, matches is not None)
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if options is not None and not isinstance(options, Mapping):
        if not callable(getattr(options, "to_dict", None)):
            raise ValueError("options must be a mapping of name: value")
        options = options.to_dict()  # an options object, e.g. GinOptions
    find_game(game_name)  # an unknown name is reported before a bad option
    game = find_game(game_name, options)
    check_players(game, len(player_names))
    if round is not None:
        if not isinstance(game, Crazy):
            raise ValueError(f"{game.name} has no rounds: only Crazy Rummy deals a given round")
        if matches is not None:
            raise ValueError("a round is for single hands: a match plays all seven rounds")
        if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round <= ROUNDS:
            raise ValueError(f"round must be 1 to {ROUNDS}, got {round!r}")
    names = registered_names(game, player_names)
    variant = game_name.strip().lower()
    played = game.options.to_dict()
    tasks = [
        _Task(variant, played, names, seed, matches is not None, start, stop, round)
        for start, stop in _chunks(total, jobs, matches is not None)
    ]
    started = time.perf_counter()
    tally = run_chunks(_run, tasks, _Tally(len(names), game.outcomes), total, jobs, progress)
    elapsed = time.perf_counter() - started
    n_matches = tally.units if matches is not None else 0
    stats = tuple(
        PlayerStats(
            name=names[seat],
            seat=seat,
            hands_won=sum(tally.won[seat].values()),
            points=tally.points[seat],
            outcomes=dict(tally.won[seat]),
            matches_won=tally.matches_won[seat],
            mean_total=tally.totals[seat] / n_matches if n_matches else None,
        )
        for seat in range(len(names))
    )
    return SimReport(
        game=game.name,
        variant=variant,
        options=played,
        seed=seed,
        players=stats,
        hands=tally.hands,
        matches=n_matches,
        outcomes=tally.outcomes,
        actions=tally.actions,
        jobs=jobs,
        elapsed=elapsed,
        round=round,
    )


class Tally(Protocol):
    """Results of a chunk of work that add up in any order."""

    units: int
    """Hands or matches counted."""

    def merge(self, other: Self) -> None:
        """Add ``other``'s results to these."""
        ...


TallyT = TypeVar("TallyT", bound=Tally)
TaskT = TypeVar("TaskT")


def run_chunks(
    run: Callable[[TaskT], TallyT],
    tasks: Sequence[TaskT],
    tally: TallyT,
    total: int,
    jobs: int,
    progress: Progress | None,
) -> TallyT:
    """Run every task (over ``jobs`` processes when there is more than one task), merging each
    result into ``tally`` and reporting ``progress(units, total)`` as results arrive."""
    if progress is not None:
        progress(0, total)
    if jobs == 1 or len(tasks) <= 1:
        return _collect(tally, map(run, tasks), total, progress)
    pool = multiprocessing.get_context().Pool(min(jobs, len(tasks)), _ignore_interrupts)
    with pool:
        return _collect(tally, pool.imap_unordered(run, tasks), total, progress)


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool (no worker traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _collect(
    tally: TallyT, results: Iterator[TallyT], total: int, progress: Progress | None
) -> TallyT:
    for part in results:
        tally.merge(part)
        if progress is not None:
            progress(tally.units, total)
    return tally
