"""The OpenSpiel classes: a game, its states and its observer, for any :class:`GameSpec`."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from rummykit.games.base import information_state
from rummykit.openspiel.specs import DEFAULTS, GameSpec, spec_for
from rummykit.openspiel.table import Table

__all__ = [
    "BasicRummyGame",
    "CrazyRummyGame",
    "GinRummyGame",
    "RummykitGame",
    "RummykitObserver",
    "RummykitState",
    "game_type",
    "register",
]

_LONG_NAMES = {
    "python_rummykit_gin": "rummykit Gin Rummy",
    "python_rummykit_basic": "rummykit Basic Rummy",
    "python_rummykit_crazy": "rummykit Crazy Rummy",
}
_PLAYERS = {
    "python_rummykit_gin": (2, 2),
    "python_rummykit_basic": (2, 6),
    "python_rummykit_crazy": (2, 6),
}


def game_type(short_name: str) -> Any:
    """The ``pyspiel.GameType`` of one of the games."""
    low, high = _PLAYERS[short_name]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=_LONG_NAMES[short_name],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS[short_name],
    )


def _game_info(spec: GameSpec) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=spec.encoder.num_actions,
        max_chance_outcomes=len(spec.kinds),
        num_players=spec.players,
        min_utility=-spec.max_utility,
        max_utility=spec.max_utility,
        utility_sum=0.0,
        max_game_length=spec.max_game_length,
    )


class RummykitGame(pyspiel.Game):  # type: ignore[misc]
    """A rummykit game as an OpenSpiel game (one class for all three; the spec differs)."""

    def __init__(self, short_name: str, params: dict[str, Any] | None = None) -> None:
        spec = spec_for(short_name, params)
        super().__init__(game_type(short_name), _game_info(spec), dict(spec.params))
        self.spec = spec

    def new_initial_state(self) -> RummykitState:
        """A state before the deal."""
        return RummykitState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RummykitObserver:
        """The observer OpenSpiel asks for: perfect recall gives the information state."""
        return RummykitObserver(
            self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class RummykitState(pyspiel.State):  # type: ignore[misc]
    """A position: chance deals card by card, then the engine's hand is played by numbers."""

    def __init__(self, game: RummykitGame) -> None:
        super().__init__(game)
        self.table = Table(game.spec)

    def current_player(self) -> int:
        """The seat to decide, or OpenSpiel's CHANCE or TERMINAL."""
        table = self.table
        if table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if table.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        seat = table.to_act()
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards chance may deal or draw, with their probabilities."""
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        spec = self.table.spec
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {spec.kinds[action]}"
        return str(self.table.action(int(action)))

    def is_terminal(self) -> bool:
        """True once the hand is scored, or cut at ``max_game_length`` decisions."""
        return self.table.is_over

    def returns(self) -> list[float]:
        """The engine's standings (zero-sum) at the end; zeros before, and for a cut hand."""
        return self.table.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummykitState:
        """A state ``player_id`` cannot tell from this one, the cards it cannot see dealt again
        by the engine's ``resample`` (seeded from OpenSpiel's sampler: reproducible). The other
        seats' records of the cards they drew are dropped (those cards were dealt again)."""
        hand = self.table.hand
        if hand is None or self.table.drawing:
            raise ValueError("resample a position where a player decides, after the deal")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        new: RummykitState = self.clone()
        new.table.hand = hand.resample(player_id, rng)
        for seat, drawn in enumerate(new.table.drawn):
            if seat != player_id:
                drawn.clear()  # what the others drew is dealt again too: only their views remain
        return new

    def __str__(self) -> str:
        return str(self.table)


def _check_seat(spec: GameSpec, player: int) -> int:
    if not 0 <= player < spec.players:
        raise ValueError(f"no player {player} in a game of {spec.players}")
    return player


class RummykitObserver:
    """What one player sees, as OpenSpiel's Python observers give it: ``string_from`` and, for
    the observation (not the information state), ``set_from`` filling ``tensor``.

    The information state is the engine's (:func:`rummykit.games.base.information_state`: the
    view with the history as the seat saw it) with the seat's own dealt and drawn cards in
    order; the observation is the view without the history, and the encoder's vector.
    """

    def __init__(self, spec: GameSpec, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a player's own view (public and its private information)")
        self.spec = spec
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(spec.encoder.observation_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: RummykitState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation vector."""
        table = state.table
        _check_seat(self.spec, player)
        if self.tensor is None:
            return
        encoder = self.spec.encoder
        if table.hand is None:
            self.tensor.fill(0.0)
            hand = encoder.plane("hand")
            pack = self.spec.pack
            for kind in _own_deal(table, player):
                # as the encoders read a hand: 1 for a card, a share of 1 per copy in two packs
                at = hand.start + kind
                self.tensor[at] = min(1.0, self.tensor[at] + 1 / pack[self.spec.kinds[kind]])
            return
        self.tensor[:] = encoder.observation(table.hand.view(player))

    def string_from(self, state: RummykitState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as a string."""
        table = state.table
        spec = self.spec
        _check_seat(spec, player)
        if table.hand is None:
            mine = " ".join(str(spec.kinds[i]) for i in _own_deal(table, player))
            return f"seat {player} dealing ({len(table.dealt)} dealt): {mine}"
        view = table.hand.view(player)
        # (everyone sees a player reach for the stock; only the drawer will see the card)
        waiting = f" (seat {table.hand.to_act} drawing)" if table.drawing else ""
        if not self.perfect_recall:
            data = view.to_dict()
            data.pop("history", None)
            data.pop("legal_actions", None)
            return _compact(data) + waiting
        dealt = " ".join(str(c) for c in table.hand.deal.hands[player])
        drawn = " ".join(str(spec.kinds[i]) for i in table.drawn[player])
        return f"dealt: {dealt}; drew: {drawn}; {information_state(view)}{waiting}"


def _own_deal(table: Table, player: int) -> list[int]:
    size = table.spec.hand_size
    return table.dealt[player * size : (player + 1) * size]


def _compact(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class GinRummyGame(RummykitGame):
    """``python_rummykit_gin``: Gin Rummy."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("python_rummykit_gin", params)


class BasicRummyGame(RummykitGame):
    """``python_rummykit_basic``: Basic Rummy for ``players`` (2-6) under ``preset``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("python_rummykit_basic", params)


class CrazyRummyGame(RummykitGame):
    """``python_rummykit_crazy``: one round (``round``, 1-7) of Crazy Rummy for ``players``
    (2-6)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("python_rummykit_crazy", params)


_CLASSES: dict[str, type[RummykitGame]] = {
    "python_rummykit_gin": GinRummyGame,
    "python_rummykit_basic": BasicRummyGame,
    "python_rummykit_crazy": CrazyRummyGame,
}


def register() -> list[str]:
    """Register the games with OpenSpiel (once) and return their names.

    (A class, not a function, is registered: OpenSpiel keeps the factory until the process
    ends, and freeing a Python function that late aborts the interpreter.)
    """
    names = list(_CLASSES)
    registered = set(pyspiel.registered_names())
    for name in names:
        if name not in registered:
            pyspiel.register_game(game_type(name), _CLASSES[name])
    return names
