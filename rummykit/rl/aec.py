"""PettingZoo AEC environments for rummykit's games: the shared code.

:class:`RummyAEC` is one hand (or one match) of a game, every seat an agent (``player_0`` ...),
turn-based as PettingZoo's classic card games are: ``agent_selection`` is always the seat the
rules say is to act, and a seat often acts several times in a row (draw, then discard). Each
agent observes a dict with its ``observation`` vector and its ``action_mask``, both from
:mod:`rummykit.encoding` and so from that seat's own view: no other seat's cards, no stock. A
seat that is not to act has an all-zero mask.

Rewards come when points are scored: ``reward="win"`` (the default) pays +1 to the one winner
of the hand (or match) and -1 to every other seat at its end, 0 to all for a shared win or a
hand nobody won; ``reward="points"`` pays each seat its standing (its points minus the other
seats' average, penalties counted against it in Crazy Rummy) as it changes, so an episode's
rewards add up to the final margins. The game modules (``gin_rummy_v0`` ...) make the
environments; this module needs NumPy, Gymnasium and PettingZoo (the ``rl`` extra).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummykit.encoding import Encoder, encoder_for
from rummykit.games import find_game
from rummykit.games.base import Game, HandState, IllegalActionError, check_player_count
from rummykit.games.match import Match

__all__ = ["RummyAEC", "wrap"]

Episode = Literal["hand", "match"]
Reward = Literal["points", "win"]
RenderMode = Literal["ansi", "human"]
Observation = dict[str, np.ndarray[Any, Any]]


class RummyAEC(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo has no type hints
    """One episode of ``game`` for ``num_players`` agents under ``options`` (the game's rules,
    as :func:`rummykit.games.find_game` takes them).

    ``episode`` is ``"hand"`` or ``"match"``; ``reward`` is ``"win"`` or ``"points"`` (see the
    module); ``max_cycles`` truncates the episode for every agent once one agent has taken that
    many actions; ``render_mode`` ``"ansi"`` makes :meth:`render` return the table as text,
    ``"human"`` prints it after every step. It pickles as PettingZoo's games do (EzPickle): the
    copy is made again from the same arguments, before its first ``reset``. An illegal action number raises
    :class:`~rummykit.games.base.IllegalActionError` here; the wrapped ``env()`` of each game
    module ends the episode instead, as PettingZoo's classic games do.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "rummy_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_name: ClassVar[str] = "rummy"

    def __init__(
        self,
        num_players: int = 2,
        *,
        options: Mapping[str, Any] | None = None,
        episode: Episode = "hand",
        reward: Reward = "win",
        max_cycles: int | None = None,
        render_mode: RenderMode | None = None,
    ) -> None:
        EzPickle.__init__(
            self,
            num_players,
            options=options,
            episode=episode,
            reward=reward,
            max_cycles=max_cycles,
            render_mode=render_mode,
        )
        super().__init__()
        self.game: Game = find_game(self.game_name, options)
        check_player_count(
            self.game.name, num_players, self.game.min_players, self.game.max_players
        )
        self.encoder: Encoder = encoder_for(self.game, num_players)
        if episode not in ("hand", "match"):
            raise ValueError("episode is 'hand' or 'match'")
        if reward not in ("points", "win"):
            raise ValueError("reward is 'win' or 'points'")
        if max_cycles is not None and not (type(max_cycles) is int and max_cycles > 0):
            raise ValueError("max_cycles is a positive whole number or None")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode is None, 'ansi' or 'human'")
        self.num_players = num_players
        self.episode = episode
        self.reward = reward
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agents = self.possible_agents[:]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, 1.0, shape=(self.encoder.observation_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(self.encoder.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.encoder.num_actions) for a in self.possible_agents
        }
        self._rng = random.Random()
        self._hand: HandState | None = None
        self._match: Match | None = None
        self._moves = [0] * num_players
        self._paid = [0.0] * num_players  # the points standings paid out so far
        self._seen: dict[int, tuple[Any, Observation]] = {}  # this step's views and observations

    def __repr__(self) -> str:
        return f"{self.metadata['name']}(num_players={self.num_players})"

    # ------------------------------------------------------------------------- the API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new episode. ``seed`` makes it, and the episodes reset after it without a seed,
        reproducible; ``options`` is not read (rules are set when the environment is made)."""
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self._rng.randrange(self.num_players)
        deal_seed = self._rng.randrange(2**32)
        players = self.num_players
        if self.episode == "match":
            self._match = self.game.new_match(players=players, seed=deal_seed, dealer=dealer)
            self._hand = None
        else:
            self._match = None
            self._hand = self._new_hand(deal_seed, dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._moves = [0] * players
        self._paid = [0.0] * players
        self._seen = {}
        seat = self.state.to_act
        assert seat is not None, "a new hand has a seat to act"
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation vector and action mask, from its own view only."""
        seat = self.possible_agents.index(agent)
        if seat not in self._seen:
            view = self._view(seat)
            self._seen[seat] = (
                view,
                {
                    "observation": np.asarray(self.encoder.observation(view), dtype=np.float32),
                    "action_mask": np.asarray(self.encoder.legal_mask(view), dtype=np.int8),
                },
            )
        return {key: value.copy() for key, value in self._seen[seat][1].items()}

    def step(self, action: int | None) -> None:
        """Play ``action`` (a number) for ``agent_selection``; None for an agent that is done."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or isinstance(action, bool):
            raise TypeError(f"an action number is a whole number, not {action!r}")
        number = operator.index(action)
        seat = self.possible_agents.index(agent)
        if not 0 <= number < self.encoder.num_actions:
            self.encoder.action(number)  # the encoder's ValueError, naming the range
        if not self.observe(agent)["action_mask"][number]:
            raise IllegalActionError(f"action number {number} is not legal for {agent} now")
        chosen = self.encoder.action(number, self._seen[seat][0])  # (a lay-down needs the view)
        if self._match is not None:
            self._match.apply(chosen, seat)
        else:
            self.state.apply(chosen, seat)
        self._seen = {}
        self._moves[seat] += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._score()
        over = self._over()
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and max(self._moves) >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        if not over:
            to_act = self.state.to_act
            assert to_act is not None, "a hand in play has a seat to act"
            self.agent_selection = self.possible_agents[to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (every seat's cards: this is for a person watching, never an
        agent's observation); printed, and None returned, in ``"human"`` mode."""
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    @property
    def state(self) -> HandState:
        """The hand in play, every seat's cards included: for checking, never for an agent."""
        if self._match is not None:
            return self._match.hand
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    # ------------------------------------------------------------------------ the work

    def _new_hand(self, seed: int, dealer: int) -> HandState:
        """The hand of a hand episode (a game module may choose more, e.g. Crazy Rummy's round)."""
        return self.game.new_hand(players=self.num_players, seed=seed, dealer=dealer)

    def _view(self, seat: int) -> Any:
        return self._match.view(seat) if self._match is not None else self.state.view(seat)

    def _over(self) -> bool:
        """True once the episode is over; in a match, a finished hand is followed by the next."""
        if self._match is None:
            return self.state.is_over
        if self.state.is_over and not self._match.is_over:
            self._match.next_hand(seed=self._rng.randrange(2**32))
        return self._match.is_over

    def _score(self) -> None:
        """Pay this step's rewards (before a match deals its next hand)."""
        done = self._match.is_over if self._match is not None else self.state.is_over
        if self.reward == "points":
            source = self._match if self._match is not None else self.state
            standings = source.returns()
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = standings[seat] - self._paid[seat]
            self._paid = list(standings)
        elif done:
            winners = self._winners()
            if len(winners) == 1:
                for seat, agent in enumerate(self.possible_agents):
                    self.rewards[agent] = 1.0 if seat in winners else -1.0

    def _winners(self) -> tuple[int, ...]:
        if self._match is not None:
            result = self._match.result
            return tuple(result.winners) if result is not None else ()
        hand_result = self.state.result
        winner = None if hand_result is None else hand_result.winner
        return () if winner is None else (winner,)

    def _text(self) -> str:
        hand = self.state
        top = hand.top_discard
        lines = [
            f"{self.metadata['name']}: {hand.phase}, "
            + (f"player_{hand.to_act} to act" if hand.to_act is not None else "hand over"),
            f"discard pile top: {top if top is not None else '(empty)'}",
        ]
        table = getattr(hand, "table", None)  # Basic and Crazy Rummy's melds on the table
        if table:
            lines.append("table: " + " | ".join(str(meld) for meld in table))
        for seat, cards in enumerate(hand.hands):
            shown = " ".join(str(card) for card in cards)
            lines.append(f"player_{seat} ({len(cards)}): {shown}")
        if self._match is not None:
            lines.append("match scores: " + " ".join(str(s) for s in self._match.scores()))
        return "\n".join(lines)


def wrap(raw: RummyAEC, illegal_reward: float = -1.0) -> Any:
    """``raw`` wrapped as PettingZoo's classic games are: an illegal action ends the episode
    with ``illegal_reward`` for the agent that made it (0 for the others), an action number
    out of range is refused, and the API's call order is enforced."""
    env: Any = wrappers.TerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
