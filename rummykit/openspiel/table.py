"""One OpenSpiel state's rummykit side: the deal so far, then the engine's hand, a draw waiting
for chance, and each seat's own draws. Standard library only."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rummykit.actions import Action, Draw
from rummykit.games.base import HandState
from rummykit.openspiel.specs import GameSpec, spec_for

__all__ = ["Table"]


class Table:
    """The rummykit position behind an OpenSpiel state (everything it must copy or save).

    OpenSpiel clones a Python state by deep-copying its attributes, so a state keeps only this
    object, which copies itself with the engine's fast ``clone()``.
    """

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.dealt: list[int] = []
        """Chance outcomes of the deal, in order (see :class:`GameSpec`)."""
        self.hand: HandState | None = None
        """The engine's hand, once the deal is complete."""
        self.drawing = False
        """A player chose to draw from a hidden stock: chance picks the card next."""
        self.drawn: list[list[int]] = [[] for _ in range(spec.players)]
        """Per seat, the cards (outcome numbers) it drew by chance, in order: its private
        observations beyond the deal."""
        self.decisions = 0
        self.truncated = False
        """The hand reached ``max_game_length`` decisions unfinished: it ends, every return 0."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        new = Table.__new__(Table)
        new.spec = self.spec
        new.dealt = list(self.dealt)
        new.hand = None if self.hand is None else self.hand.clone()
        new.drawing = self.drawing
        new.drawn = [list(d) for d in self.drawn]
        new.decisions = self.decisions
        new.truncated = self.truncated
        return new

    def __getstate__(self) -> dict[str, Any]:
        data = dict(vars(self))
        spec = data.pop("spec")
        data["spec_key"] = (spec.short_name, spec.params)
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        data = dict(data)
        name, params = data.pop("spec_key")
        vars(self).update(data)
        self.spec = spec_for(name, dict(params))

    # ----------------------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.truncated or (self.hand is not None and self.hand.is_over and not self.drawing)

    @property
    def is_chance(self) -> bool:
        return not self.is_over and (self.hand is None or self.drawing)

    def to_act(self) -> int | None:
        """The seat to decide (None at chance nodes and at the end)."""
        if self.is_over or self.is_chance:
            return None
        assert self.hand is not None
        return self.hand.to_act

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards chance may deal or draw next, with their probabilities."""
        spec = self.spec
        if self.hand is None:
            left = spec.pack - Counter(spec.kinds[i] for i in self.dealt)
        else:
            left = Counter(_stock(self.hand))
        total = sum(left.values())
        return sorted((spec.kind_of(card), n / total) for card, n in left.items())

    def legal_ids(self, seat: int) -> list[int]:
        """The action numbers ``seat`` may take now (none unless it is to decide)."""
        if self.to_act() != seat:
            return []
        assert self.hand is not None
        number = self.spec.encoder.id_of
        return sorted({number(a) for a in self.hand.legal_actions()})  # (two packs: copies)

    # ----------------------------------------------------------------------------- moves

    def apply(self, number: int) -> None:
        """Apply a chance outcome or the decision numbered ``number``."""
        spec = self.spec
        if self.hand is None:
            self.dealt.append(number)
            if len(self.dealt) == spec.dealt_before_play:
                self.hand = spec.new_hand(self.dealt)
            return
        if self.drawing:
            card = spec.kinds[number]
            stock = _stock(self.hand)
            # The engine draws the top card (the end of its list): chance's card goes there.
            at = len(stock) - 1 - stock[::-1].index(card)
            stock[at], stock[-1] = stock[-1], stock[at]
            seat = self.hand.to_act
            assert seat is not None
            self.hand.apply(Draw())
            self.drawn[seat].append(number)
            self.drawing = False
            return
        action = self.action(number)
        if isinstance(action, Draw) and spec.draw_by_chance and spec.hidden_stock(self.hand):
            self.hand.verify(action)
            self.drawing = True
        else:
            self.hand.apply(action)
        self.decisions += 1
        if self.decisions >= spec.max_game_length and not self.is_over:
            self.truncated = True

    def action(self, number: int) -> Action:
        """The engine's action numbered ``number`` now (Crazy Rummy's lay-down depends on the
        cards of the seat to act)."""
        hand = self.hand
        seat = None if hand is None else hand.to_act
        view = None if hand is None or seat is None else hand.view(seat)
        return self.spec.encoder.action(number, view)

    def returns(self) -> list[float]:
        """Each seat's return: the engine's standings once the hand is over, else zeros."""
        if self.hand is None or self.truncated or not self.is_over:
            return [0.0] * self.spec.players
        return list(self.hand.returns())

    def __str__(self) -> str:
        spec = self.spec
        if self.hand is None:
            cards = " ".join(str(spec.kinds[i]) for i in self.dealt)
            return f"dealing: {cards}"
        hand: Any = self.hand
        lines = [repr(hand)]
        lines.append(f"stock: {' '.join(str(c) for c in _stock(self.hand))}")
        lines.append(f"discard pile: {' '.join(str(c) for c in hand.discard_pile)}")
        lines.append(f"history: {'; '.join(f'{s}:{a}' for s, a in hand.history)}")
        if self.drawing:
            lines.append("drawing")
        if self.truncated:
            lines.append(f"truncated after {self.decisions} decisions")
        return "\n".join(lines)


def _stock(hand: HandState) -> list[Any]:
    """The engine's stock, top card last (every game keeps it as ``stock``)."""
    stock: list[Any] = getattr(hand, "stock")  # noqa: B009 - not in the HandState protocol
    return stock
