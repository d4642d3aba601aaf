"""What every game's hand holds from its deal, and the questions every hand answers alike.

A hand state starts with :meth:`DealtHand._deal_out`: the seed or the explicit deal (checked
against the game's pack), the hands, the stock, the up-card, the public cards each seat took,
and an empty history. ``is_over``, ``top_discard``, the repr and the seat check of ``view`` are
the same in every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from rummykit.cards import AnyCard, format_cards
from rummykit.games.base import Phase, as_seat
from rummykit.games.deal import Deal
from rummykit.games.seeding import check_seed, new_rng

if TYPE_CHECKING:
    from rummykit.actions import Action

__all__ = ["DealtHand"]

C = TypeVar("C", bound=AnyCard)


class DealtHand(Generic[C]):
    """The cards and the record of one hand of any game; ``C`` is the game's card type
    (``Card`` for a pack without jokers, ``AnyCard`` with them)."""

    TITLE: ClassVar[str]
    game: Any
    options: Any
    players: int
    dealer: int
    seed: int | None
    deal: Deal
    hands: list[list[C]]
    stock: list[C]
    """The stock, its top card last."""
    discard_pile: list[C]
    """The discard pile, its top card last."""
    known: list[list[C]]
    """Per seat, the cards everyone saw it take from the discard pile and that it still holds."""
    taken: C | None
    """The card the seat to act took from the discard pile this turn, if any."""
    phase: Phase
    to_act: int | None
    history: list[tuple[int, Action]]
    _notation: list[tuple[int, str]]
    """The history as text, for views."""

    def _deal_out(
        self,
        game: Any,
        pack: Sequence[AnyCard],
        *,
        players: int,
        dealer: int,
        seed: int | None,
        deal: Deal | None,
        hand_size: int,
    ) -> None:
        """Start the hand: from ``deal`` when given (checked against ``pack``), else shuffled
        from ``seed``; ``players`` and ``dealer`` are already checked by the game."""
        self.game = game
        self.options = game.options
        self.players = players
        self.dealer = dealer
        self.seed = seed = check_seed(seed)
        if deal is None:
            deal = Deal.shuffled(
                pack, new_rng(seed), dealer=dealer, players=players, hand_size=hand_size
            )
        elif seed is not None:
            raise ValueError("give a seed or a deal, not both")
        else:
            deal.check(pack, players, hand_size)
        self.deal = deal
        # A checked deal holds cards of ``pack`` only: natural cards when it has no joker.
        self.hands = [list(cast("tuple[C, ...]", h)) for h in deal.hands]
        self.stock = list(reversed(cast("tuple[C, ...]", deal.stock)))
        self.discard_pile = [cast(C, deal.up)]
        self.known = [[] for _ in range(players)]
        self.taken = None
        self.history = []
        self._notation = []

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {' '.join(self._repr_parts())}>"

    def _repr_parts(self) -> list[str]:
        """The ``name=value`` parts of the repr; a game adds its own before or after."""
        return [
            f"phase={self.phase.value}",
            f"to_act={self.to_act}",
            f"hands={[format_cards(h) for h in self.hands]}",
        ]

    @property
    def is_over(self) -> bool:
        """True once the hand is scored (or, in Gin, cancelled)."""
        return self.phase is Phase.HAND_OVER

    @property
    def top_discard(self) -> C | None:
        """The top card of the discard pile, if any."""
        return self.discard_pile[-1] if self.discard_pile else None

    def _view_seat(self, seat: object) -> int:
        """``seat`` as a seat number for :meth:`view`, or ValueError."""
        index = as_seat(seat, self.players)
        if index is None:
            raise ValueError(f"no seat {seat!r} at a table of {self.players}")
        return index
