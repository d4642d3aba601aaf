"""Computer players for Crazy Rummy, three levels, and hints a person can read.

Every level decides from a view alone, deterministic given its seed: the contract distance and a
quick potential before it is down, a planned turn once down; how each level plays is told in
``docs/players.md``.

>>> from rummykit.games import Crazy
>>> state = Crazy().new_hand(players=4, seed=3)
>>> hard = HardCrazyPlayer(seed=1)
>>> action, reason = hard.suggest(state.view(state.to_act))
>>> action in state.legal_actions() and bool(reason)
True
"""

from rummykit.players.crazy.hard import HardCrazyPlayer
from rummykit.players.crazy.levels import EasyCrazyPlayer, MediumCrazyPlayer

__all__ = ["EasyCrazyPlayer", "HardCrazyPlayer", "MediumCrazyPlayer"]
