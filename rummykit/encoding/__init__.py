"""Fixed action numbers and observation vectors for learning agents.

Reinforcement-learning code wants what OpenSpiel and RLCard give it: every action of a game as a
number from a fixed range, a mask of the legal ones, and each seat's observation as a vector of a
fixed length. An :class:`Encoder` gives exactly that, on top of the engine's own actions and views,
for Gin Rummy, Basic Rummy (both presets) and Crazy Rummy, at any table size. It reads only views,
so an observation holds what that seat may know and nothing else.

>>> from rummykit.actions import parse_action
>>> from rummykit.games.gin import Gin
>>> state = Gin().new_hand(seed=7)
>>> enc = encoder_for("gin")
>>> enc.num_actions, enc.observation_size
(265, 374)
>>> view = state.view(state.to_act)
>>> [(i, str(enc.action(i))) for i in enc.legal_ids(view)]
[(1, 'take'), (2, 'pass')]
>>> state.apply(enc.action(2))
>>> enc.id_of(parse_action("discard KD")), str(enc.action(5 + 13 + 4))
(30, 'discard 5D')
>>> obs = enc.observation(state.view(0))
>>> len(obs), sum(obs[enc.plane("hand").start :][:52])
(374, 10.0)

A Crazy Rummy lay-down is a whole contract with wilds standing for chosen cards, too many to
number: one number (4) stands for the lay-down the engine lists, and ``action(4, view)`` gives
its cards in that view. The layouts, and what an agent can and cannot express, are documented in
``docs/encoding.md``.
"""

from __future__ import annotations

from rummykit.encoding.base import Encoder, Plane
from rummykit.encoding.crazy import CrazyEncoder, check_players
from rummykit.encoding.gin import GinEncoder
from rummykit.encoding.rummy import MELD_SHAPES, RummyEncoder
from rummykit.games.base import Game
from rummykit.games.rummy import MAX_PLAYERS, MIN_PLAYERS

__all__ = [
    "MELD_SHAPES",
    "CrazyEncoder",
    "Encoder",
    "GinEncoder",
    "Plane",
    "RummyEncoder",
    "encoder_for",
]


def encoder_for(game: Game | str, players: int | None = None) -> Encoder:
    """The encoder of ``game`` (a game or its name) at a table of ``players``.

    Gin is always two players; Basic Rummy and Crazy Rummy need ``players`` (2-6). A Crazy Rummy
    encoder reads the game's meld limits (its ``table_accepts`` plane). ValueError for an unknown
    game or table size.
    """
    from rummykit.games import find_game
    from rummykit.games.crazy import Crazy

    found = find_game(game) if isinstance(game, str) else game
    if found.name == "gin":
        if players not in (None, 2):
            raise ValueError("Gin Rummy is a game for 2 players")
        return GinEncoder()
    if found.name == "rummy":
        if players is None:
            raise ValueError("a Basic Rummy encoder needs the number of players (2-6)")
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"players is a whole number, not {type(players).__name__}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Basic Rummy is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        return RummyEncoder(found.name, players)
    if isinstance(found, Crazy):
        return CrazyEncoder(check_players(players), found.rules)
    raise ValueError(f"no encoder for {found.name}")
