"""Round-robin tournaments between computer players, with Elo-style ratings and confidence.

:func:`round_robin` plays whole matches of any game between named players (``easy``,
``medium``, ``hard``...), at tables of ``seats`` seats, and reports per player the match win rate,
mean hand points and mean final total, an Elo-style rating, and every pair's head-to-head record
with a 95% confidence interval, so one can say "hard beats medium" with a measured confidence.

**Schedule** (:func:`lineups`). With at least as many players as seats, every combination of
``seats`` players gets a table; with fewer (say three levels at a four-seat Crazy Rummy table)
the list is cycled to fill the seats (``easy,medium,hard,easy``, ...). At three seats or more
each table is also played in every order round the table: who sits after whom matters a great
deal (the next player draws your discards and may buy them): with one fixed order, ``medium``
always sat after ``easy`` and looked as strong as ``hard``. Each table is played
``seats`` times in a row, rotating the players one seat on each time, from the same seed: a
duplicate format, so every player meets the same deals from every seat and the luck of the deal
mostly cancels out. Match ``i`` is dealt from ``derive_seed(seed, i // seats)``, so a
report depends only on its arguments, never on ``jobs``.

**Head to head.** In every match, each pair of different players is compared on the final totals
(the higher wins; in Crazy Rummy the lower): a win, a loss or a tie (half a win each). A pair's
record gives a win rate with a Wilson 95% interval; when the interval lies above one half, the
first player beats the second "at 95% confidence". A name listed twice is one player whose seats
pool their results (pairs of the same name are not compared).

**Rating.** A Bradley-Terry fit of all the pairwise results (the maximum-likelihood strengths,
with one drawn game against each opponent added as a prior so a player who never wins still gets
a finite rating), scaled like Elo: 400 points for odds of 10 to 1, averaging 1500.

>>> report = round_robin("gin", ["random", "random"], matches=2, seed=1)
>>> [(p.name, p.matches) for p in report.players]
[('random', 4)]
>>> report.pairs
()
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, permutations
from typing import Any

from rummykit.games import find_game
from rummykit.games.base import Game, check_players
from rummykit.games.options import OptionsLike
from rummykit.games.seeding import derive_seed
from rummykit.players import find_player, registered_names
from rummykit.sim import Progress, check_count, play_match, run_chunks

__all__ = [
    "Entrant",
    "PairResult",
    "TournamentReport",
    "bradley_terry",
    "lineups",
    "round_robin",
    "wilson",
]

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default); ``(0, 1)`` without trials.

    >>> low, high = wilson(60, 100)
    >>> round(low, 3), round(high, 3)
    (0.502, 0.691)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def bradley_terry(
    names: Sequence[str], wins: Mapping[tuple[str, str], float], *, iterations: int = 500
) -> dict[str, float]:
    """Elo-style ratings (mean 1500, 400 points for odds of 10 to 1) from pairwise wins.

    ``wins[(a, b)]`` is how often ``a`` beat ``b`` (ties count half to each). One drawn game
    against every opponent met is added as a prior, so every rating is finite.

    >>> r = bradley_terry(["a", "b"], {("a", "b"): 75, ("b", "a"): 25})
    >>> round(r["a"] - r["b"])  # 75.5 to 25.5 with the prior: odds of about 3 to 1
    189
    """
    met = {
        (a, b)
        for (x, y) in wins
        for a, b in ((x, y), (y, x))
        if x != y and wins.get((x, y), 0) + wins.get((y, x), 0) > 0
    }
    won = {(a, b): wins.get((a, b), 0.0) + 0.5 for a, b in met}
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        new: dict[str, float] = {}
        for a in names:
            total = sum(w for (x, _), w in won.items() if x == a)
            denominator = sum(
                (won[(a, b)] + won[(b, a)]) / (strength[a] + strength[b])
                for (x, b) in met
                if x == a
            )
            new[a] = total / denominator if denominator else strength[a]
        mean_log = sum(math.log(s) for s in new.values()) / len(new)
        new = {a: s / math.exp(mean_log) for a, s in new.items()}
        done = all(abs(math.log(new[a] / strength[a])) < 1e-10 for a in names)
        strength = new
        if done:
            break
    return {a: 1500 + 400 * math.log10(s) for a, s in strength.items()}


def lineups(players: int, seats: int) -> list[tuple[int, ...]]:
    """The tables of a round robin, as indices into the list of players, seat 0 first.

    With at least as many players as seats, every combination of ``seats`` players makes a
    table; with fewer, the list is cycled from each player in turn. At three seats or more the
    order round the table matters (a player draws what the one before it throws), so each table
    comes in every order round the table, counted once up to rotation (at five or six seats,
    in both directions of play). Up to four seats every player then sits directly after every
    other equally often.

    >>> lineups(3, 2)
    [(0, 1), (0, 2), (1, 2)]
    >>> lineups(3, 3)
    [(0, 1, 2), (0, 2, 1)]
    >>> lineups(3, 4)[:3]
    [(0, 1, 2, 0), (0, 1, 0, 2), (0, 2, 1, 0)]
    >>> len(lineups(3, 4)), len(lineups(4, 4)), len(lineups(6, 6))
    (9, 6, 2)
    """
    return list(_lineups(players, seats))


@cache
def _lineups(players: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """:func:`lineups`, computed once per size (every match asks for its table)."""
    if players >= seats:
        base = list(combinations(range(players), seats))
    else:
        base = [tuple((start + k) % players for k in range(seats)) for start in range(players)]
    if seats < 3:
        return tuple(base)
    tables: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for table in base:
        for order in _orders(table):
            key = min(order[k:] + order[:k] for k in range(seats))
            if key not in seen:
                seen.add(key)
                tables.append(order)
    return tuple(tables)


def _orders(table: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The orders round the table to play ``table`` in (seat 0 kept; rotations follow later)."""
    first, rest = table[0], table[1:]
    if len(table) <= 4:
        for order in permutations(rest):
            yield (first, *order)
    else:
        yield table
        yield (first, *reversed(rest))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player's results over the tournament (all its seats pooled)."""

    name: str
    matches: int
    """Seats played: a name listed twice at a table counts twice."""
    wins: int
    """Matches won (a shared win counts for every winner)."""
    hands: int
    """Hands played in those seats."""
    hand_points: int
    """Hand points scored (Crazy Rummy: penalty points taken)."""
    total: int
    """The sum of the final match totals."""
    rating: float

    @property
    def win_rate(self) -> float:
        """Matches won per match played."""
        return self.wins / self.matches if self.matches else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        return wilson(self.wins, self.matches)

    @property
    def mean_points(self) -> float:
        """Hand points per hand played."""
        return self.hand_points / self.hands if self.hands else 0.0

    @property
    def mean_total(self) -> float:
        """The mean final match total."""
        return self.total / self.matches if self.matches else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The results as JSON data."""
        low, high = self.win_interval
        return {
            "name": self.name,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_interval": [low, high],
            "hands": self.hands,
            "hand_points": self.hand_points,
            "mean_points": self.mean_points,
            "mean_total": self.mean_total,
            "rating": self.rating,
        }


@dataclass(frozen=True, slots=True)
class PairResult:
    """Two players' head-to-head record: every match in which both sat, compared on totals."""

    a: str
    b: str
    a_wins: int
    b_wins: int
    ties: int

    @property
    def games(self) -> int:
        """Comparisons made."""
        return self.a_wins + self.b_wins + self.ties

    @property
    def rate(self) -> float:
        """``a``'s score rate (ties count half)."""
        return (self.a_wins + self.ties / 2) / self.games if self.games else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of ``a``'s score rate."""
        return wilson(self.a_wins + self.ties / 2, self.games)

    @property
    def leader(self) -> str | None:
        """The player who is better at 95% confidence, or None when it is not clear."""
        low, high = self.interval
        if low > 0.5:
            return self.a
        if high < 0.5:
            return self.b
        return None

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data."""
        low, high = self.interval
        return {
            "a": self.a,
            "b": self.b,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "ties": self.ties,
            "rate": self.rate,
            "interval": [low, high],
            "leader": self.leader,
        }


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """What a round robin found. Everything but the timing depends only on the arguments."""

    game: str
    variant: str
    options: dict[str, Any]
    seed: int
    seats: int
    matches: int
    hands: int
    players: tuple[Entrant, ...]
    """Best rating first."""
    pairs: tuple[PairResult, ...]
    """Every pair of different players that met, the better-rated one as ``a``."""
    jobs: int
    elapsed: float
    cycle: int = 0
    """Matches in one full schedule (every table from every seat); a multiple of it gives every
    player the same share of seats, orders and deals."""

    @property
    def balanced(self) -> bool:
        """True if the matches played make whole schedules."""
        return self.cycle > 0 and self.matches % self.cycle == 0

    def beats(self, a: str, b: str) -> bool:
        """True if ``a`` beat ``b`` head to head at 95% confidence."""
        return any(p.leader == a and {p.a, p.b} == {a, b} for p in self.pairs)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON data."""
        return {
            "game": self.game,
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "seats": self.seats,
            "matches": self.matches,
            "hands": self.hands,
            "players": [p.to_dict() for p in self.players],
            "pairs": [p.to_dict() for p in self.pairs],
            "jobs": self.jobs,
            "elapsed": self.elapsed,
            "cycle": self.cycle,
            "balanced": self.balanced,
        }


@dataclass
class _Tally:
    """Results of a chunk of matches, by player name; tallies add up in any order."""

    units: int = 0
    hands: int = 0
    seats: dict[str, list[int]] = field(default_factory=dict)
    """name -> [matches, wins, hands, hand points, total]"""
    wins: dict[tuple[str, str], int] = field(default_factory=dict)
    ties: dict[tuple[str, str], int] = field(default_factory=dict)

    def merge(self, other: _Tally) -> None:
        self.units += other.units
        self.hands += other.hands
        for name, row in other.seats.items():
            mine = self.seats.setdefault(name, [0] * 5)
            for k, value in enumerate(row):
                mine[k] += value
        for key, value in other.wins.items():
            self.wins[key] = self.wins.get(key, 0) + value
        for pair, count in other.ties.items():
            self.ties[pair] = self.ties.get(pair, 0) + count


@dataclass(frozen=True, slots=True)
class _Task:
    variant: str
    options: dict[str, Any]
    names: tuple[str, ...]
    seats: int
    seed: int
    start: int
    stop: int


def _seating(names: Sequence[str], seats: int, index: int) -> tuple[str, ...]:
    """Who sits where in match ``index``: the table, rotated one seat per repetition."""
    tables = _lineups(len(names), seats)
    block, turn = divmod(index, seats)
    table = tables[block % len(tables)]
    return tuple(names[table[(seat + turn) % seats]] for seat in range(seats))


def _run(task: _Task) -> _Tally:
    game = find_game(task.variant, task.options)
    tally = _Tally()
    for index in range(task.start, task.stop):
        seating = _seating(task.names, task.seats, index)
        deal_seed = derive_seed(task.seed, index // task.seats)
        player_seed = derive_seed(task.seed, 1_000_000 + index)
        players = [
            find_player(game, name, derive_seed(player_seed, seat + 1))  # by the table's rules
            for seat, name in enumerate(seating)
        ]
        match = play_match(game, players, deal_seed)
        _add_match(tally, game, seating, match)
        tally.units += 1
    return tally


def _add_match(tally: _Tally, game: Game, seating: Sequence[str], match: Any) -> None:
    result = match.result
    totals: tuple[int, ...] = result.totals
    hands = len(match.hands)
    tally.hands += hands
    points = [0] * len(seating)
    for hand in match.hands:
        for seat, value in enumerate(hand.result.scores):
            points[seat] += value
    for seat, name in enumerate(seating):
        row = tally.seats.setdefault(name, [0] * 5)
        row[0] += 1
        row[1] += seat in result.winners
        row[2] += hands
        row[3] += points[seat]
        row[4] += totals[seat]
    sign = -1 if game.low_total_wins else 1
    for i, j in combinations(range(len(seating)), 2):
        a, b = seating[i], seating[j]
        if a == b:
            continue
        diff = sign * (totals[i] - totals[j])
        if diff > 0:
            tally.wins[(a, b)] = tally.wins.get((a, b), 0) + 1
        elif diff < 0:
            tally.wins[(b, a)] = tally.wins.get((b, a), 0) + 1
        else:
            key = (min(a, b), max(a, b))
            tally.ties[key] = tally.ties.get(key, 0) + 1


def _chunks(total: int, jobs: int) -> Iterator[tuple[int, int]]:
    per_chunk = max(1, min(4, total // (jobs * 8) or 1))
    for start in range(0, total, per_chunk):
        yield start, min(total, start + per_chunk)


def round_robin(
    game_name: str,
    player_names: Sequence[str],
    *,
    matches: int,
    seats: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    options: Mapping[str, Any] | OptionsLike | None = None,
    progress: Progress | None = None,
) -> TournamentReport:
    """Play ``matches`` whole matches between the named players and rate them.

    ``seats`` is the table size (default: the game's only size, else the number of players
    within the game's limits). Make ``matches`` a multiple of the report's ``cycle`` (``seats``
    times the number of :func:`lineups`) to give every player the same share. An unknown game,
    player or option, or a table size the game does not allow, raises ValueError before anything
    is played.
    """
    if matches < 0:
        raise ValueError("the number of matches cannot be negative")
    check_count(matches, matches=True)
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if not player_names:
        raise ValueError("name at least one player")
    if options is not None and not isinstance(options, Mapping):
        options = options.to_dict()
    find_game(game_name)
    game = find_game(game_name, options)
    if seats is None:
        seats = min(max(len(player_names), game.min_players), game.max_players)
    check_players(game, seats)
    names = registered_names(game, player_names)
    variant = game_name.strip().lower()
    played = game.options.to_dict()
    tasks = [
        _Task(variant, played, names, seats, seed, start, stop)
        for start, stop in _chunks(matches, jobs)
    ]
    started = time.perf_counter()
    tally = run_chunks(_run, tasks, _Tally(), matches, jobs, progress)
    elapsed = time.perf_counter() - started
    distinct = list(dict.fromkeys(names))
    ratings = bradley_terry(distinct, _with_ties(tally))
    entrants = sorted((_entrant(name, tally, ratings[name]) for name in distinct), key=_by_rating)
    order = {e.name: k for k, e in enumerate(entrants)}
    pairs = []
    for a, b in combinations(distinct, 2):
        if order[b] < order[a]:
            a, b = b, a
        a_wins = tally.wins.get((a, b), 0)
        b_wins = tally.wins.get((b, a), 0)
        ties = tally.ties.get((min(a, b), max(a, b)), 0)
        if a_wins + b_wins + ties:
            pairs.append(PairResult(a, b, a_wins, b_wins, ties))
    pairs.sort(key=lambda p: (order[p.a], order[p.b]))
    return TournamentReport(
        game=game.name,
        variant=variant,
        options=played,
        seed=seed,
        seats=seats,
        matches=tally.units,
        hands=tally.hands,
        players=tuple(entrants),
        pairs=tuple(pairs),
        jobs=jobs,
        elapsed=elapsed,
        cycle=len(_lineups(len(names), seats)) * seats,
    )


def _entrant(name: str, tally: _Tally, rating: float) -> Entrant:
    played, wins, hands, points, total = tally.seats.get(name, [0] * 5)
    return Entrant(name, played, wins, hands, points, total, rating)


def _by_rating(entrant: Entrant) -> float:
    return -entrant.rating


def _with_ties(tally: _Tally) -> dict[tuple[str, str], float]:
    wins: dict[tuple[str, str], float] = {key: float(n) for key, n in tally.wins.items()}
    for (a, b), count in tally.ties.items():
        wins[(a, b)] = wins.get((a, b), 0) + count / 2
        wins[(b, a)] = wins.get((b, a), 0) + count / 2
    return wins
