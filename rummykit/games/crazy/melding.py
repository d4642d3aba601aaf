"""Cards onto the table in Crazy Rummy: laying down the contract, laying off, swapping a
wild out of a run, and the going-out rules that may refuse a play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial

from rummykit.actions import Down, LayOff, Swap
from rummykit.cards import AnyCard, Card, format_cards
from rummykit.games.base import IllegalActionError
from rummykit.games.crazy.round import CrazyRound, _has_all, _remove
from rummykit.games.mechanics import PUBLIC, Tagged
from rummykit.games.table_meld import TableMeld
from rummykit.melds import MeldError
from rummykit.solver.contract import solve_contract
from rummykit.wild_melds import Book, Run, WildMeld, hand_points, is_wild

__all__ = ["CrazyMelding"]


class CrazyMelding(CrazyRound):
    """Laying down, laying off and swapping, checked and played."""

    def _best_down(self, hand: list[AnyCard]) -> Down | None:
        """The lay-down that leaves the fewest points (memoised for the hand as it is now).

        When the best one is refused by the going-out rules (it would empty the hand under
        ``discard_to_go_out``, or leave only the card just taken from the pile), the best lay-down
        that keeps back some other card is offered instead, if there is one.
        """
        key = (*hand, self.taken)
        if self._down_memo is not None and self._down_memo[0] == key:
            return self._down_memo[1]
        best = solve_contract(hand, self.contract, self.rules)
        down = None
        if best is not None:
            laid = sum(len(m.cards) for m in best.melds)
            melds = best.melds
            if self._strands(laid, best.left, None, partial(self._melds_now, melds)) is None:
                down = Down(tuple(tuple(m.cards) for m in best.melds))
            else:
                down = self._down_keeping_back(hand)
        self._down_memo = (key, down)
        return down

    def _down_keeping_back(self, hand: list[AnyCard]) -> Down | None:
        """The best lay-down that keeps back at least one chosen card and is not refused.

        Every legal lay-down keeps some card other than the one just taken (or two copies of
        it), so solving the hand without each card in turn (or without both copies) finds one.
        """
        found: tuple[int, Down] | None = None
        for card in dict.fromkeys(hand):
            kept_back = [card] * (2 if card == self.taken and hand.count(card) > 1 else 1)
            for count in range(1, len(kept_back) + 1):
                rest = list(hand)
                for _ in range(count):
                    rest.remove(card)
                solution = solve_contract(rest, self.contract, self.rules)
                if solution is None:
                    continue
                left = [*solution.left, *[card] * count]
                laid = len(hand) - len(left)
                melds = solution.melds
                after = partial(self._melds_now, melds)
                if self._strands(laid, left, None, after) is not None:
                    continue
                points = hand_points(left)
                if found is None or points < found[0]:
                    found = (points, Down(tuple(tuple(m.cards) for m in solution.melds)))
                break
        return found[1] if found is not None else None

    def _strands(
        self,
        removed: int,
        left: Sequence[AnyCard] | None = None,
        card: AnyCard | None = None,
        table_after: Callable[[], Sequence[WildMeld]] | None = None,
    ) -> str | None:
        """Why playing ``removed`` cards onto the table now is refused by the going-out rules.

        Two dead ends are refused: an empty hand under ``discard_to_go_out``, and a hand of only
        the card just taken from the pile (which may not be thrown back), or of it and its twin
        (unless ``discard_taken_twin``), when that card cannot go onto the table either
        (``table_after()`` is the table after this play) or the table forbids going out that
        way. A play that puts a copy of the taken card on the table leaves the player's own
        copy, which may be thrown. (Decision: RULES.md section 3 only forbids discarding the
        taken card; this keeps a turn that can still end.)
        """
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        remaining = len(hand) - removed
        if remaining == 0 and self.options.discard_to_go_out:
            return "at this table you must go out by discarding your last card (discard_to_go_out)"
        taken = self.taken
        if remaining >= 1 and taken is not None:
            if left is None:
                rest = list(hand)
                if card is not None:
                    rest.remove(card)
                left = rest
            if any(c != taken for c in left) or list(left).count(taken) < hand.count(taken):
                return None  # another card can be thrown, or a copy of it went onto the table
            if len(left) > 1 and self.options.discard_taken_twin:
                return None  # the player's own twin of it can be thrown
            # One copy left must go out onto the table, which discard_to_go_out forbids; of two
            # or more, one laid off makes the rest the player's own, to throw.
            last = len(left) == 1 and self.options.discard_to_go_out
            melds = () if last or table_after is None else table_after()
            if any(self._layoff_ends(taken, meld) for meld in melds):
                return None  # the taken card goes out onto the table next
            if len(left) > 1:
                return (
                    f"that would leave you holding only {taken} and its twin: you took {taken}"
                    " from the discard pile this turn, so neither may be thrown (house rule"
                    " discard_taken_twin allows the twin), and it fits no meld on the table"
                )
            return (
                f"that would leave you holding only {taken}, which you took from the discard "
                "pile this turn: it cannot be thrown back"
                + (
                    ""
                    if self.options.discard_to_go_out
                    else " and would not fit any meld on the table"
                )
            )
        return None

    def _melds_now(self, more: Sequence[WildMeld] = ()) -> list[WildMeld]:
        """The melds on the table, then ``more``."""
        return [*(t.meld for t in self.table), *more]

    def _table_with_layoff(self, action: LayOff) -> list[WildMeld]:
        """The melds on the table after ``action`` (checked to fit)."""
        melds = [t.meld for t in self.table]
        meld = melds[action.meld - 1]
        extended = (
            meld.extended_by(action.card, self.rules)
            if isinstance(meld, Book)
            else meld.extended_by(action.card, action.end, self.rules)
        )
        if extended is not None:
            melds[action.meld - 1] = extended
        return melds

    def _melds_of(self, groups: Sequence[Sequence[AnyCard]]) -> list[WildMeld]:
        """Each group as a book or a run (read as in :func:`rummykit.wild_melds.parse_meld`).

        A group that is neither is explained as the kind the player most likely meant: the only
        kind the round's contract has, else a book when its natural cards share a rank or it is
        too short for a run (``2C 2D 2H`` in a round of books is a book of wild 2s, not a short
        run)."""
        melds: list[WildMeld] = []
        for group in groups:
            cards = tuple(group)
            naturals = {c.number for c in cards if isinstance(c, Card) and not is_wild(c)}
            count = sum(1 for c in cards if not is_wild(c))
            as_book = count >= 2 and len(naturals) == 1
            errors: dict[type, MeldError] = {}
            for kind in (Book, Run) if as_book else (Run, Book):
                try:
                    melds.append(kind.of(cards, self.rules))
                    break
                except MeldError as error:
                    errors[kind] = error
            else:
                if self.contract.books == 0 or self.contract.runs == 0:
                    meant: type = Run if self.contract.books == 0 else Book
                else:
                    meant = Book if as_book or len(cards) < 4 else Run  # a run has 4 cards or more
                raise IllegalActionError(str(errors[meant]))
        return melds

    def _verify_down(self, action: Down) -> None:
        hand = self._hand_to_play()
        actor = self._actor()
        if self.laid_down[actor]:
            raise IllegalActionError(
                "you have laid down your contract already; play further cards by laying off"
            )
        cards = [c for group in action.melds for c in group]
        if not _has_all(hand, cards):
            missing = Counter(cards) - Counter(hand)
            raise IllegalActionError(f"{format_cards(missing.elements())} not in your hand")
        melds = self._melds_of(action.melds)
        books = sum(1 for m in melds if isinstance(m, Book))
        runs = len(melds) - books
        if (books, runs) != (self.contract.books, self.contract.runs):
            raise IllegalActionError(
                f"round {self.round} needs exactly {self.contract}; that is "
                f"{books} book{'s' if books != 1 else ''} and {runs} run{'s' if runs != 1 else ''}"
            )
        left = list(hand)
        _remove(left, cards)
        reason = self._strands(len(cards), left, None, partial(self._melds_now, melds))
        if reason is not None:
            raise IllegalActionError(reason)

    def _verify_layoff(self, action: LayOff) -> None:
        hand = self._hand_to_play()
        actor = self._actor()
        if not self.laid_down[actor]:
            raise IllegalActionError("lay down your own contract before laying off")
        if action.card not in hand:
            raise IllegalActionError(f"{action.card} is not in your hand")
        meld = self._table_meld(action.meld)
        ends = self._layoff_ends(action.card, meld)
        if action.end not in ends:
            if not ends:
                if isinstance(meld, Book):
                    why = "not its rank, or too many wilds"
                    raise IllegalActionError(
                        f"{action.card} does not fit book {action.meld} ({meld}): {why}"
                    )
                why = "not its suit or next in line, past the ace, or too many wilds"
                raise IllegalActionError(
                    f"{action.card} does not fit run {action.meld} ({meld}): {why}"
                )
            if isinstance(meld, Book):
                raise IllegalActionError("a book has no ends: lay off onto it without naming one")
            if None in ends:
                raise IllegalActionError(
                    f"{action.card} fits only one end of run {action.meld}: write "
                    f"'layoff {action.card} {action.meld}'"
                )
            raise IllegalActionError(
                f"name the end {action.card} goes to: "
                + " or ".join(f"'layoff {action.card} {action.meld} {e}'" for e in ends)
            )
        reason = self._strands(1, None, action.card, partial(self._table_with_layoff, action))
        if reason is not None:
            raise IllegalActionError(reason)

    def _verify_swap(self, action: Swap) -> None:
        hand = self._hand_to_play()
        actor = self._actor()
        if self.options.swap_requires_down and not self.laid_down[actor]:
            raise IllegalActionError("lay down your own contract before swapping wilds")
        if action.card not in hand:
            raise IllegalActionError(f"{action.card} is not in your hand")
        table_meld = self._table(action.meld)
        if isinstance(table_meld.meld, Book):
            raise IllegalActionError("wilds in a book can never be taken")
        if table_meld.owner == actor:
            raise IllegalActionError("you can swap wilds only out of other players' runs")
        if table_meld.meld.swap(action.card, self.rules) is None:
            raise IllegalActionError(
                f"no wild in run {action.meld} ({table_meld.meld}) stands for {action.card}"
            )
        reason = self._swap_strands(action, hand)
        if reason is not None:
            raise IllegalActionError(reason)

    def _swap_strands(self, action: Swap, hand: Sequence[AnyCard]) -> str | None:
        """Why a swap (checked to fit) is refused by the going-out rules (:meth:`_strands`): the
        wild it frees would leave a hand of only the card just taken from the pile and its twin
        (a joker taken, a joker freed). None if the swap is fine."""
        if self.taken is None:
            return None
        run = self.table[action.meld - 1].meld
        assert isinstance(run, Run)
        swapped = run.swap(action.card, self.rules)
        assert swapped is not None
        new_run, wild = swapped
        left = [*hand, wild]
        left.remove(action.card)
        melds = self._melds_now()
        melds[action.meld - 1] = new_run
        return self._strands(0, left, None, lambda: melds)

    def _table(self, number: int) -> TableMeld[WildMeld]:
        if not 1 <= number <= len(self.table):
            raise IllegalActionError(
                f"there is no meld number {number} (the table has {len(self.table)})"
            )
        return self.table[number - 1]

    def _table_meld(self, number: int) -> WildMeld:
        return self._table(number).meld

    def _perform_down(self, action: Down) -> None:
        actor = self._actor()
        hand = self.hands[actor]
        laid: list[AnyCard] = []
        for meld in self._melds_of(action.melds):
            _remove(hand, meld.cards)
            laid += meld.cards
            self.table.append(TableMeld(meld, actor))
            if self.taken in meld.cards:
                self.taken = None  # the taken card is on the table (any copy left is own)
        self.laid_down[actor] = True
        self._forget(actor, laid)
        self._check_out(actor)

    def _perform_lay_off(self, action: LayOff) -> None:
        actor = self._actor()
        index = action.meld - 1
        meld = self.table[index].meld
        extended: WildMeld | None
        if isinstance(meld, Book):
            extended = meld.extended_by(action.card, self.rules)
        else:
            extended = meld.extended_by(action.card, action.end, self.rules)
        assert extended is not None
        self.hands[actor].remove(action.card)
        self.table[index] = TableMeld(extended, self.table[index].owner)
        if action.card == self.taken:
            self.taken = None  # the taken card is on the table (any copy left is own)
        self._forget(actor, [action.card])
        self._check_out(actor)

    def _perform_swap(self, action: Swap) -> None:
        actor = self._actor()
        index = action.meld - 1
        run = self.table[index].meld
        assert isinstance(run, Run)
        swapped = run.swap(action.card, self.rules)
        assert swapped is not None
        new_run, wild = swapped
        self.hands[actor].remove(action.card)
        self.hands[actor].append(wild)
        self._tags[actor].append((PUBLIC, wild))
        self.table[index] = TableMeld(new_run, self.table[index].owner)
        if action.card == self.taken:
            self.taken = None  # the taken card is on the table
        self._forget(actor, [action.card])

    def _forget(self, seat: int, gone: Sequence[AnyCard]) -> None:
        """``gone`` left ``seat``'s hand face up: of the cards everyone knows it holds (taken or
        bought from the pile, a wild swapped out of a run), one copy of each card gone is no
        longer known to be there. With two packs nobody can tell whether the known copy or the
        other left, so the known one counts as gone: what the others see never depends on a
        copy they did not see (the true hand decided it once, and told them of a hidden copy).
        The restock tags (:meth:`resample`'s own bookkeeping of hidden cards) follow the hand.
        """
        if not self.known[seat] and not self._tags[seat]:
            return
        known = list(self.known[seat])
        public = [card for tag, card in self._tags[seat] if tag == PUBLIC]
        for card in gone:
            if card in known:
                known.remove(card)
            elif card in public:
                public.remove(card)
        self.known[seat] = known
        tags: list[Tagged] = [(PUBLIC, card) for card in public]
        if all(tag == PUBLIC for tag, _ in self._tags[seat]):
            self._tags[seat] = tags  # no restock's card to follow: no counting needed
            return
        # A restock's card stays tagged while the hand holds more copies than are known.
        hand = self.hands[seat]
        held: dict[AnyCard, int] = {}
        for tag, card in self._tags[seat]:
            if tag != PUBLIC:
                count = held.get(card)
                if count is None:
                    count = hand.count(card) - known.count(card) - public.count(card)
                if count > 0:
                    tags.append((tag, card))
                    count -= 1
                held[card] = count
        self._tags[seat] = tags

    def _check_out(self, seat: int) -> None:
        if not self.hands[seat]:
            self._finish_out(seat)
