"""The greedy Basic Rummy policy of ``rummykit demo --game rummy``: not a registered player (no
``find_player`` name), a simple, readable opponent whose hands end within a few turns.
"""

from __future__ import annotations

from rummykit.actions import Action, Discard, Draw, LayOff, NewMeld, Take
from rummykit.cards import Card
from rummykit.games.base import Phase, View
from rummykit.games.rummy import RummyView, melds_in
from rummykit.players.reasons import Suggestion, because

__all__ = ["GreedyRummy"]


class GreedyRummy:
    """The demo's Basic Rummy policy (not a registered player): it decides from its view only.

    It takes the top discard when that card makes a meld with its hand or fits a table meld, else
    draws from the stock; then lays down the longest meld it can, lays off whatever fits, and
    throws its highest card.
    """

    name = "greedy"

    def choose(self, view: View) -> Action:
        """The greedy action for a Basic Rummy view."""
        assert isinstance(view, RummyView)
        actions = view.legal_actions
        if view.phase is Phase.DRAW:
            top = view.discard_pile[-1] if view.discard_pile else None
            if top is not None and Take() in actions and self._wants(view, top):
                return Take()
            return Draw()
        melds = [a for a in actions if isinstance(a, NewMeld)]
        if melds:
            return max(melds, key=lambda a: len(a.cards))
        layoffs = [a for a in actions if isinstance(a, LayOff)]
        if layoffs:
            return layoffs[0]
        discards = [a.card for a in actions if isinstance(a, Discard) and isinstance(a.card, Card)]
        return Discard(max(discards, key=lambda c: (c.points, c.number, c.index)))

    def suggest(self, view: View) -> Suggestion:
        """The greedy action and why."""
        return Suggestion(self.choose(view), because("demo.greedy"))

    @staticmethod
    def _wants(view: RummyView, card: Card) -> bool:
        if any(t.meld.accepts(card) for t in view.table):
            return True
        return any(card in meld.cards for meld in melds_in([*view.hand, card]))
