"""Play a match in the terminal against computer players: ``rummykit play``.

The person sits at seat 0 and sees only their own view, like every player; the computer seats
decide from theirs. Each turn shows the table and a numbered list of the legal moves: answer with
a number or the move's notation (``discard KD``, ``meld 7C 7D 7H``), ``hint`` for the computer's
advice and why, ``help``, or ``quit``. A wrong answer is explained and asked again; nothing
changes. The match's record can be saved for ``rummykit replay``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from rummykit.actions import Action, ActionSyntaxError, parse_action
from rummykit.cards import AnyCard, Card
from rummykit.games.base import Game, IllegalActionError, Match
from rummykit.players import find_player
from rummykit.players.base import Player
from rummykit.solver.deadwood import best_arrangement

__all__ = ["HELP", "Quit", "TerminalGame"]

HELP = """\
Answer with the number of a move or the move itself, for example:
  draw | take | pass | discard KD | knock 9S | layoff 7H 2 | done
  meld 7C 7D 7H (Basic Rummy) | down 5H X 2C 8H | 9C 9D 9S | buy | swap 7H 3 (Crazy Rummy)
Cards: rank A 2-9 T J Q K (or 10), suit C D H S (or the symbols); X is a joker.
  hint   what the computer would do, and why
  help   this text
  quit   stop here (the match so far can still be saved)"""
"""What ``help`` prints."""


LONG_MOVE = 24
"""Moves longer than this (a Crazy Rummy lay-down) are listed on a line of their own."""


class Quit(Exception):
    """The person asked to stop."""


def _card(card: AnyCard) -> str:
    """A card in notation (what the person types back), hearts and diamonds in red."""
    if not isinstance(card, Card):
        return "[magenta]X[/]"
    return f"[red]{card}[/]" if card.suit.value in "DH" else str(card)


def _cards(cards: Sequence[AnyCard]) -> str:
    return " ".join(_card(c) for c in cards) if cards else "-"


@dataclass
class TerminalGame:
    """One match between a person (seat 0) and computer players, in a terminal.

    ``ask`` reads the person's answer to a prompt (``input`` by default; tests give their own)
    and raises EOFError when there is no more input, which counts as ``quit``.
    """

    game: Game
    players: int
    level: str
    seed: int | None
    console: Console
    ask: Callable[[str], str] = input
    name: str = "You"
    match: Match = field(init=False)
    computers: dict[int, Player] = field(init=False)
    shown: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.match = self.game.new_match(players=self.players, seed=self.seed)
        base = self.seed if self.seed is not None else 0
        self.computers = {
            seat: find_player(self.game, self.level, seed=base * 10 + seat)
            for seat in range(1, self.players)
        }

    @property
    def names(self) -> list[str]:
        """Seat names: the person, then "Computer 1", "Computer 2"..."""
        return [self.name, *(f"Computer {s}" for s in range(1, self.players))]

    def run(self) -> bool:
        """Play until the match is over (True) or the person quits (False)."""
        try:
            while True:
                hand = self.match.hand
                if hand.is_over:
                    self._show_log()
                    self._show_result()
                    if self.match.is_over:
                        return True
                    self._ask("Press Enter for the next hand (or type quit): ")
                    self.match.next_hand()
                    self.shown = 0
                    continue
                seat = hand.to_act
                assert seat is not None
                if seat == 0:
                    self._show_log()
                    self._turn()
                else:
                    self.match.apply(self.computers[seat].choose(hand.view(seat)), seat)
        except (Quit, KeyboardInterrupt):  # Ctrl-C while a computer thinks stops cleanly too
            self.console.print("Stopped.")
            return False

    # ------------------------------------------------------------------ the person's turn

    def _ask(self, prompt: str) -> str:
        try:
            answer = self.ask(prompt).strip()
        except (EOFError, KeyboardInterrupt):  # end of input or Ctrl-C: stop, no traceback
            raise Quit from None
        if answer.lower() in ("quit", "q", "exit"):
            raise Quit
        return answer

    def _turn(self) -> None:
        view = self.match.hand.view(0)
        legal = _ordered(view.legal_actions)
        self._show_table(view)
        self._show_moves(legal)
        while True:
            answer = self._ask("Your move: ")
            if not answer:
                continue
            if answer.lower() in ("help", "?"):
                self.console.print(escape(HELP), highlight=False)
                continue
            if answer.lower() == "hint":
                self._hint(view)
                continue
            action = self._read(answer, legal)
            if action is None:
                continue
            try:
                self.match.apply(action, 0)
            except IllegalActionError as exc:
                self.console.print(f"[yellow]Not now:[/] {escape(str(exc))}", highlight=False)
                continue
            return

    def _read(self, answer: str, legal: Sequence[Action]) -> Action | None:
        """The action the answer names (a number of the list or notation), or None after saying
        what is wrong with it."""
        if answer.isascii() and answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.console.print(f"[yellow]Pick a number from 1 to {len(legal)}.[/]")
            return None
        try:
            return parse_action(answer)
        except ActionSyntaxError as exc:
            self.console.print(
                f"[yellow]{escape(str(exc))}[/] (type help for the moves)", highlight=False
            )
            return None

    def _hint(self, view: Any) -> None:
        adviser = find_player(self.game, "hard", seed=len(view.history))
        advice = adviser.suggest(view)
        self.console.print(f"Hint: {escape(advice.text('en'))}", highlight=False)

    # ------------------------------------------------------------------ what is shown

    def _show_log(self) -> None:
        """The moves since the person last looked, as their view tells them."""
        view: Any = self.match.hand.view(0)
        history: Sequence[tuple[int, str]] = view.history
        names = self.names
        for seat, text in history[self.shown :]:
            self.console.print(f"  {names[seat]}: {escape(text)}", highlight=False)
        self.shown = len(history)

    def _show_table(self, view: Any) -> None:
        out = self.console
        match_view = self.match.view(0)
        scores = "  ".join(
            f"{name} {score}" for name, score in zip(self.names, match_view.scores, strict=True)
        )
        part = "round" if hasattr(view, "contract") else "hand"
        out.rule(f"{self.game.name} · {part} {match_view.hand_number} · {scores}")
        if hasattr(view, "contract"):
            out.print(f"Round {view.round}: lay down {view.contract}")
        offered = getattr(view, "offered", None)
        if offered is not None and view.phase.value in ("offer", "buy"):
            out.print(f"Offered: {_card(offered)}")
        top = view.discard_pile[-1] if view.discard_pile else None
        out.print(
            f"Stock: {view.stock_size} cards   Discard pile: "
            f"{_card(top) if top is not None else 'empty'}"
            f"{f' ({len(view.discard_pile)} cards)' if len(view.discard_pile) > 1 else ''}"
        )
        for number, meld in enumerate(getattr(view, "table", ()), start=1):
            out.print(f"  meld {number}: {_cards(meld.meld.cards)}")
        for number, meld in enumerate(getattr(view, "knock_melds", ()), start=1):
            out.print(f"  knocker's meld {number}: {_cards(meld.cards)}")
        for seat in range(1, self.players):
            known = view.known_cards[seat] if view.known_cards else ()
            extra = f", known: {_cards(known)}" if known else ""
            size = view.hand_sizes[seat]
            out.print(f"{self.names[seat]}: {size} card{'' if size == 1 else 's'}{extra}")
        hand = list(view.hand)
        line = f"Your hand: {_cards(hand)}"
        if self.game.name == "gin":
            arrangement = best_arrangement([c for c in hand if isinstance(c, Card)])
            melds = " · ".join(_cards(m.cards) for m in arrangement.melds)
            line += f"\n  best melds: {melds or '-'}   deadwood {arrangement.deadwood}"
        out.print(line)

    def _show_moves(self, legal: Sequence[Action]) -> None:
        """The numbered moves: long ones (a lay-down) a line each, the rest in columns."""
        moves = [(i, str(a)) for i, a in enumerate(legal, start=1)]  # notation, typed back as is
        for i, text in moves:
            if len(text) > LONG_MOVE:
                self.console.print(f"  [bold]{i}[/] {escape(text)}", highlight=False)
        short = [(i, text) for i, text in moves if len(text) <= LONG_MOVE]
        if not short:
            return
        width = max(len(f"{i} {text}") for i, text in short) + 3
        per_line = max(1, (self.console.width - 2) // width)
        for start in range(0, len(short), per_line):
            cells = [
                f"[bold]{i}[/] {escape(text)}" + " " * (width - len(f"{i} {text}"))
                for i, text in short[start : start + per_line]
            ]
            self.console.print("  " + "".join(cells).rstrip(), highlight=False)

    def _show_result(self) -> None:
        result = self.match.hand.result
        assert result is not None
        data = result.to_dict()
        names = self.names
        winner = data.get("winner")
        who = names[winner] if isinstance(winner, int) else "nobody"
        self.console.print(
            f"[bold]Hand over[/]: {data.get('outcome', 'over')}, won by {who}", highlight=False
        )
        scores = data.get("scores")
        if isinstance(scores, list):
            self.console.print(
                "  this hand: " + "  ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True)),
                highlight=False,
            )
        totals = self.match.view(0).scores
        self.console.print(
            "  totals: " + "  ".join(f"{n} {s}" for n, s in zip(names, totals, strict=True)),
            highlight=False,
        )
        final = self.match.result
        if final is not None:
            winners = [names[s] for s in final.to_dict().get("winners", [])]
            lower = " (lowest total wins)" if self.game.low_total_wins else ""
            self.console.print(
                f"[bold]Match over[/]: {', '.join(winners) or 'nobody'} won{lower}.",
                highlight=False,
            )


def _ordered(actions: Sequence[Action]) -> list[Action]:
    """The legal moves grouped by kind (in the order the game lists the kinds), each kind's
    cards in the order the hand is shown (by suit, then rank), lay-offs by meld."""
    kinds: dict[type, int] = {}
    for action in actions:
        kinds.setdefault(type(action), len(kinds))

    def key(action: Action) -> tuple[int, int, int]:
        card = getattr(action, "card", None)
        index = card.index if isinstance(card, Card) else 52
        return kinds[type(action)], getattr(action, "meld", 0), index

    return sorted(actions, key=key)
