"""Computer players for Basic Rummy (2-6 players, presets ``rummy`` and ``rummy-classic``).

Three levels (``easy``, ``medium``, ``hard``) that decide from a view alone, deterministic given
their seed, and plan a whole turn at once; how each level plays is told in ``docs/players.md``.

>>> from rummykit.games import Rummy
>>> state = Rummy().new_hand(players=3, seed=7)
>>> hard = HardRummyPlayer(seed=1)
>>> action, reason = hard.suggest(state.view(state.to_act))
>>> action in state.legal_actions() and bool(reason)
True
"""

from rummykit.players.rummy.evaluation import EASY_WEIGHTS as EASY_WEIGHTS
from rummykit.players.rummy.evaluation import HARD_WEIGHTS as HARD_WEIGHTS
from rummykit.players.rummy.evaluation import MEDIUM_WEIGHTS as MEDIUM_WEIGHTS
from rummykit.players.rummy.evaluation import RummyWeights as RummyWeights
from rummykit.players.rummy.hard import SHAPE_SLACK as SHAPE_SLACK
from rummykit.players.rummy.hard import HardRummyPlayer
from rummykit.players.rummy.knowledge import rummy_memory
from rummykit.players.rummy.levels import EasyRummyPlayer, MediumRummyPlayer

__all__ = ["EasyRummyPlayer", "HardRummyPlayer", "MediumRummyPlayer", "rummy_memory"]
