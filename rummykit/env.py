"""One seat against computer players, as a learning agent's environment.

:class:`RummyEnv` has the shape of Gymnasium's single-agent API without depending on it:
``reset(seed)`` gives ``(observation, info)`` and ``step(number)`` gives ``(observation,
reward, terminated, truncated, info)``. The agent plays one seat of Gin Rummy, Basic Rummy or
Crazy Rummy by the action numbers of :mod:`rummykit.encoding`; the other seats are rummykit's computer players,
which move by themselves until it is the agent's turn again. Observations and ``info`` come
from the agent's own view only, so the agent never sees another seat's cards or the stock.

An episode is one hand (``episode="hand"``, the default) or a whole match (``"match"``), and the
reward is ``"points"`` (the agent's points minus the other seats' average, as they change: a
whole episode's rewards add up to its final margin, bonuses included; in Crazy Rummy, whose
points are bad, the other seats' average minus the agent's) or ``"win"`` (+1 when the agent alone
wins the hand or match at the end, -1 when another seat does, 0 for a shared win or a hand nobody
won). A Crazy Rummy hand episode is one round: ``crazy_round`` (1-7), or a round drawn at random.

:mod:`rummykit.rl` makes real Gymnasium environments of it (spaces, ``check_env``, wrappers).

What differs from Gymnasium: there are no space objects (``action_size`` and
``observation_size`` give the sizes, ``info["action_mask"]`` the legal numbers), ``reset`` takes
no options (the rules are set when the environment is made), and a hand episode whose hand ends
before the agent's first move (a Basic Rummy player going out at once) is dealt again.

>>> env = RummyEnv("gin", opponents="medium")
>>> obs, info = env.reset(seed=3)
>>> len(obs) == env.observation_size and len(info["action_mask"]) == env.action_size
True
>>> total, done = 0.0, False
>>> while not done:
...     number = info["legal_ids"][0]            # an agent's choice among the legal numbers
...     obs, reward, done, truncated, info = env.step(number)
...     total += reward
>>> total == info["margin"]
True
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from rummykit.encoding import Encoder, encoder_for
from rummykit.games import find_game
from rummykit.games.base import Game, HandState, IllegalActionError, check_player_count, standings
from rummykit.games.crazy import ROUNDS, Crazy
from rummykit.games.match import Match
from rummykit.players import Player, find_player

__all__ = ["RummyEnv"]

Episode = Literal["hand", "match"]
Reward = Literal["points", "win"]

MAX_DEALS = 100
"""Hands dealt at most by one ``reset`` of a hand episode that keeps ending before the agent acts."""


class RummyEnv:
    """The agent plays ``seat`` of ``game`` (Gin Rummy, Basic Rummy and its presets, or Crazy
    Rummy) against computer players named by ``opponents`` (one name for every other seat, or
    one per other seat in seat order), under ``options`` overriding the game's rules.

    ``max_steps`` (the agent's actions in one episode) truncates an episode that runs longer.
    ``crazy_round`` fixes the round of a Crazy Rummy hand episode (None: a round from 1 to 7
    drawn with the episode's generator). Bad arguments raise ValueError naming the problem.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(
        self,
        game: str | Game = "gin",
        *,
        players: int = 2,
        opponents: str | Sequence[str] = "medium",
        seat: int = 0,
        episode: Episode = "hand",
        reward: Reward = "points",
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        crazy_round: int | None = None,
    ) -> None:
        if isinstance(game, str):
            self.game: Game = find_game(game, options)
        elif options is not None:
            raise ValueError("pass options with a game name, not with a game")
        else:
            self.game = game
        check_player_count(self.game.name, players, self.game.min_players, self.game.max_players)
        self.encoder: Encoder = encoder_for(self.game, players)
        if not (type(seat) is int and 0 <= seat < players):
            raise ValueError(f"seat is a whole number from 0 to {players - 1}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents are needed, not {len(names)}")
        for name in names:
            find_player(self.game, name)  # an unknown name is refused now, not at reset
        if episode not in ("hand", "match"):
            raise ValueError("episode is 'hand' or 'match'")
        if reward not in ("points", "win"):
            raise ValueError("reward is 'points' or 'win'")
        if max_steps is not None and not (type(max_steps) is int and max_steps > 0):
            raise ValueError("max_steps is a positive whole number or None")
        if crazy_round is not None and not (
            isinstance(self.game, Crazy) and type(crazy_round) is int and 1 <= crazy_round <= 7
        ):
            raise ValueError("crazy_round is a Crazy Rummy round from 1 to 7, or None")
        self.players = players
        self.seat = seat
        self.opponents = tuple(names)
        self.episode = episode
        self.reward = reward
        self.max_steps = max_steps
        self.crazy_round = crazy_round
        self.action_size = self.encoder.num_actions
        self.observation_size = self.encoder.observation_size
        self._match: Match | None = None
        self._hand: HandState | None = None
        self._seats: dict[int, Player] = {}
        self._steps = 0
        self._done = True
        self._paid = 0.0  # the points margin paid out as rewards so far in this episode
        self._seen: tuple[Any, list[int]] | None = None  # the agent's view and its legal numbers
        self._rng = random.Random()

    def __repr__(self) -> str:
        return (
            f"RummyEnv({self.game.name!r}, players={self.players}, opponents={self.opponents},"
            f" seat={self.seat}, episode={self.episode!r}, reward={self.reward!r})"
        )

    # -------------------------------------------------------------------------------- the API

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[list[float], dict[str, Any]]:
        """Deal a new episode and play the other seats up to the agent's first decision; returns
        its observation and ``info``.

        ``seed`` makes the episode, and the episodes after it reset without a seed, reproducible
        (as in Gymnasium); ``options`` must be empty (set rules when making the environment).
        """
        if options:
            raise ValueError("reset takes no options: pass the rules as RummyEnv(options=...)")
        if seed is not None:
            self._rng = random.Random(seed)
        others = [s for s in range(self.players) if s != self.seat]
        self._seats = {
            s: find_player(self.game, name, seed=self._rng.randrange(2**32))
            for s, name in zip(others, self.opponents, strict=True)
        }
        self._steps = 0
        self._done = False
        self._paid = 0.0
        for _ in range(MAX_DEALS):
            self._deal()
            self._play_others()
            if not self._episode_over():
                return self._observe(), self._info()
        raise RuntimeError(f"{MAX_DEALS} deals in a row ended before the agent's first move")

    def step(self, action: int) -> tuple[list[float], float, bool, bool, dict[str, Any]]:
        """Play the agent's action number ``action``, then the other seats up to the agent's next
        decision or the episode's end.

        An illegal number raises :class:`IllegalActionError` (a number out of range ValueError)
        and changes nothing; a step after the episode ended raises RuntimeError.
        """
        if self._done:
            raise RuntimeError("the episode is over (or was never started): call reset()")
        try:
            number = operator.index(action)  # any whole number: numpy's too, never a bool
        except TypeError:
            raise TypeError(f"an action number is a whole number, not {action!r:.40}") from None
        if isinstance(action, bool):
            raise TypeError("an action number is a whole number, not a bool")
        if not 0 <= number < self.action_size:
            self.encoder.action(number)  # raises the encoder's ValueError naming the range
        if self._seen is None or number not in self._seen[1]:
            raise IllegalActionError(
                f"action number {number} ({self._name_of(number)}) is not legal now;"
                " info['legal_ids'] lists the legal ones"
            )
        self._apply(self.encoder.action(number, self._seen[0]), self.seat)
        self._steps += 1
        self._play_others()
        terminated = self._episode_over()
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        if self.reward == "points":
            # Everything scored since the last reward, before the agent's first move included.
            standing = self._standing()
            reward = standing - self._paid
            self._paid = standing
        else:
            reward = float(self._winner_sign()) if terminated else 0.0
        return self._observe(), reward, terminated, truncated, self._info()

    def close(self) -> None:
        """Nothing to release (for code written against Gymnasium's API)."""

    @property
    def state(self) -> HandState:
        """The hand in play, with every seat's cards: for checking and debugging, not for the
        agent (whose observations hold only what its seat may know)."""
        return self._current()

    # ------------------------------------------------------------------------------ the work

    def _deal(self) -> None:
        dealer = self._rng.randrange(self.players)
        seed = self._rng.randrange(2**32)
        if self.episode == "match":
            self._match = self.game.new_match(players=self.players, seed=seed, dealer=dealer)
            self._hand = None
        else:
            self._match = None
            self._hand = self._new_hand(seed, dealer)

    def _new_hand(self, seed: int, dealer: int) -> HandState:
        if not isinstance(self.game, Crazy):
            return self.game.new_hand(players=self.players, seed=seed, dealer=dealer)
        number = self.crazy_round or self._rng.randint(1, ROUNDS)
        return self.game.new_hand(players=self.players, seed=seed, dealer=dealer, round=number)

    def _current(self) -> HandState:
        if self._match is not None:
            return self._match.hand
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    def _apply(self, action: Any, seat: int) -> None:
        if self._match is not None:
            self._match.apply(action, seat)
        else:
            self._current().apply(action, seat)

    def _play_others(self) -> None:
        """Computer seats move (and, in a match, the next hands are dealt) until the agent is to
        act or the episode is over."""
        while True:
            hand = self._current()
            seat = hand.to_act
            if seat is None:
                if self._match is None or self._match.is_over:
                    return
                self._match.next_hand()
                continue
            if seat == self.seat:
                return
            self._apply(self._seats[seat].choose(hand.view(seat)), seat)

    def _episode_over(self) -> bool:
        if self._match is not None:
            return self._match.is_over
        return self._current().is_over

    def _totals(self) -> tuple[int, ...]:
        """Each seat's points so far in the episode (a finished match's totals, bonuses in)."""
        if self._match is not None:
            result = self._match.result
            return tuple(result.totals) if result is not None else self._match.scores()
        result_of_hand = self._current().result
        if result_of_hand is None:
            return (0,) * self.players
        return tuple(result_of_hand.scores)

    def _standing(self) -> float:
        """The agent's points minus the other seats' average (negated where points are bad)."""
        return standings(self._totals(), low_wins=self.game.low_total_wins)[self.seat]

    def _name_of(self, number: int) -> str:
        """The notation of action ``number`` now, for a message (a lay-down not legal now: its
        verb)."""
        try:
            return f"{self.encoder.action(number, self._seen[0] if self._seen else None)!s:.60}"
        except ValueError:
            return "down"

    def _winner_sign(self) -> int:
        if self._match is not None:
            result = self._match.result
            winners: tuple[int, ...] = tuple(result.winners) if result is not None else ()
        else:
            hand_result = self._current().result
            winner = None if hand_result is None else hand_result.winner
            winners = () if winner is None else (winner,)
        if not winners or (self.seat in winners and len(winners) > 1):
            return 0
        return 1 if winners == (self.seat,) else -1

    def _view(self) -> Any:
        if self._match is not None:
            return self._match.view(self.seat)
        return self._current().view(self.seat)

    def _observe(self) -> list[float]:
        """The observation; the view and its legal numbers are kept for ``_info`` and the next
        step's check (a view is built once per step)."""
        view = self._view()
        self._seen = (view, self.encoder.legal_ids(view))
        return self.encoder.observation(view)

    def _info(self) -> dict[str, Any]:
        assert self._seen is not None
        view, ids = self._seen
        mask = [0] * self.action_size
        for i in ids:
            mask[i] = 1
        return {
            "legal_ids": ids,
            "action_mask": mask,
            "view": view,
            "steps": self._steps,
            "margin": self._standing(),
        }
