"""Play a match in the terminal against computer players: ``rummykit play``.

The person sits at seat 0 and sees only their own view, like every player; the computer seats
decide from theirs. Each turn shows the table and a numbered list of the legal moves: answer with
a number or the move's notation (``discard KD``, ``meld 7C 7D 7H``), ``hint`` for the computer's
advice and why, ``undo`` to take back a move of this turn that showed no hidden card
(:func:`~rummykit.games.undo.undoable_move`), ``help``, or ``quit``. A wrong answer is explained
and asked again; nothing changes. The match's record can be saved for ``rummykit replay``.

Everything shown is worded in English or Vietnamese (``lang``): the ``terminal`` section of
rummykit's catalogues (``rummykit/texts``), read through :mod:`rummykit.terminal_text`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from rummykit.actions import Action, ActionSyntaxError, parse_action
from rummykit.cards import AnyCard, Card
from rummykit.games.base import Game, HandState, IllegalActionError
from rummykit.games.match import Match
from rummykit.games.undo import undoable_move
from rummykit.players import find_player
from rummykit.players.base import Player
from rummykit.review import review_hand
from rummykit.solver.deadwood import best_arrangement
from rummykit.terminal_text import COMMANDS, LANGUAGES, MESSAGES, Language, say

__all__ = ["HELP", "Quit", "TerminalGame"]

HELP = say("en", "help")
"""What ``help`` prints (in English; ``say("vi", "help")`` in Vietnamese)."""


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
    and raises EOFError when there is no more input, which counts as ``quit``. ``lang`` is the
    language of everything shown (``en`` or ``vi``); the seats' names follow it unless ``name``
    is given.
    """

    game: Game
    players: int
    level: str
    seed: int | None
    console: Console
    ask: Callable[[str], str] = input
    name: str | None = None
    lang: Language = "en"
    match: Match = field(init=False)
    computers: dict[int, Player] = field(init=False)
    shown: int = field(init=False, default=0)
    taken_back: list[Match] = field(init=False, default_factory=list)
    """The match before each move of the person's turn that ``undo`` may take back."""

    def __post_init__(self) -> None:
        if self.lang not in LANGUAGES:
            raise ValueError(f"unknown language {self.lang!r} (en or vi)")
        self.match = self.game.new_match(players=self.players, seed=self.seed)
        base = self.seed if self.seed is not None else 0
        self.computers = {
            seat: find_player(self.game, self.level, seed=base * 10 + seat)
            for seat in range(1, self.players)
        }

    @property
    def names(self) -> list[str]:
        """Seat names: the person, then "Computer 1", "Computer 2"... (Vietnamese: "Bạn",
        "Máy 1"...)."""
        you = self.name if self.name is not None else self._say("you")
        return [you, *(self._say("computer", n=s) for s in range(1, self.players))]

    def _say(self, message: str, **params: object) -> str:
        """A catalogue message in the game's language. The catalogue holds no markup (no square
        brackets), so the text is console markup exactly when the parameters are: escape plain
        text (a name, an error's detail) before passing it."""
        return say(self.lang, message, **params)

    @property
    def rounds(self) -> bool:
        """True when the game deals rounds with contracts (Crazy Rummy), not hands."""
        return hasattr(self.match.hand, "contract")

    def run(self) -> bool:
        """Play until the match is over (True) or the person quits (False)."""
        try:
            while True:
                hand = self.match.hand
                if hand.is_over:
                    self._show_log()
                    self._show_result()
                    if self.match.is_over:
                        self._last_review(hand)
                        return True
                    prompt = self._say("prompt_next_round" if self.rounds else "prompt_next_hand")
                    while _command(self._ask(prompt)) == "review":
                        self._review(hand)
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
            self.console.print(self._say("stopped"), highlight=False)
            return False

    # ------------------------------------------------------------------ the person's turn

    def _ask(self, prompt: str) -> str:
        try:
            answer = self.ask(prompt).strip()
        except (EOFError, KeyboardInterrupt):  # end of input or Ctrl-C: stop, no traceback
            raise Quit from None
        if _command(answer) == "quit":
            raise Quit
        return answer

    def _turn(self) -> None:
        view = self.match.hand.view(0)
        legal = _ordered(view.legal_actions)
        self._show_table(view)
        self._show_moves(legal)
        while True:
            answer = self._ask(self._say("prompt_move"))
            if not answer:
                continue
            command = _command(answer)
            if command == "help":
                self.console.print(escape(self._say("help")), highlight=False)
                continue
            if command == "hint":
                self._hint(view)
                continue
            if command == "undo":
                if self._undo():
                    return
                continue
            action = self._read(answer, legal)
            if action is None:
                continue
            before = self.match.clone()
            try:
                self.match.apply(action, 0)
            except IllegalActionError as exc:  # the engine says why, in English
                self.console.print(
                    f"[yellow]{self._say('illegal', detail=escape(str(exc)))}[/]", highlight=False
                )
                continue
            if undoable_move(self.match.hand, 0) is not None:
                self.taken_back.append(before)
            else:
                self.taken_back.clear()
            return

    def _undo(self) -> bool:
        """Take back the person's last move of this turn, if it may be (True), or say why not."""
        if not self.taken_back:
            self.console.print(f"[yellow]{self._say('no_undo')}[/]", highlight=False)
            return False
        view: Any = self.match.hand.view(0)
        move = view.history[-1][1]
        self.match = self.taken_back.pop()
        self.shown = min(self.shown, len(self.match.hand.history))
        self.console.print(self._say("undone", move=escape(move)), highlight=False)
        return True

    def _read(self, answer: str, legal: Sequence[Action]) -> Action | None:
        """The action the answer names (a number of the list or notation), or None after saying
        what is wrong with it."""
        if answer.isascii() and answer.lstrip("+-").isdigit():  # -1 is a number too
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.console.print(
                f"[yellow]{self._say('pick_number', count=len(legal))}[/]", highlight=False
            )
            return None
        try:
            return parse_action(answer)
        except ActionSyntaxError as exc:  # the parser says what it expected, in English
            self.console.print(
                f"[yellow]{self._say('not_understood', detail=escape(str(exc)))}[/]",
                highlight=False,
            )
            return None

    def _hint(self, view: Any) -> None:
        adviser = find_player(self.game, "hard", seed=len(view.history))
        advice = adviser.suggest(view)
        # The advice names cards as they are typed (TC), as the hand shows them; the move to
        # type follows, with its number.
        legal = _ordered(view.legal_actions)
        move = f"{legal.index(advice.action) + 1} {advice.action}"
        text = self._say("hint", text=escape(advice.text(self.lang, typed=True)))
        self.console.print(f"{text}  → {escape(move)}", highlight=False)

    def _last_review(self, hand: HandState) -> None:
        """After the match's last hand: review it if asked; Enter, quit or the end of input
        finish (the match is over either way)."""
        prompt = self._say("prompt_match_over")
        try:
            while _command(self._ask(prompt)) == "review":
                self._review(hand)
        except Quit:
            pass

    def _review(self, hand: HandState) -> None:
        """The person's decisions in the finished ``hand`` that the hard player would have made
        otherwise (or just as well otherwise), with the hand they held then."""
        review = review_hand(hand, 0)
        if not review.steps:
            self.console.print(self._say("review_none"), highlight=False)
            return
        head = self._say("review_head", agreed=review.agreed, count=review.decisions)
        self.console.print(f"[bold]{head}[/]", highlight=False)
        shown = [step for step in review.steps if step.verdict != "same"]
        for step in shown:
            self.console.print("  " + escape(step.text(self.lang)), highlight=False)
            if step.verdict == "different":
                self.console.print(
                    self._say("review_held", cards=_cards(step.hand)), highlight=False
                )
        if not shown:
            self.console.print(self._say("review_all_same"), highlight=False)
        elif any(step.verdict == "different" for step in shown):
            self.console.print(self._say("review_note"), highlight=False)

    # ------------------------------------------------------------------ what is shown

    def _show_log(self) -> None:
        """The moves since the person last looked, as their view tells them (in notation)."""
        view: Any = self.match.hand.view(0)
        history: Sequence[tuple[int, str]] = view.history
        names = self.names
        for seat, text in history[self.shown :]:
            self.console.print(f"  {escape(names[seat])}: {escape(text)}", highlight=False)
        self.shown = len(history)

    def _scores(self, scores: Sequence[int]) -> str:
        return "  ".join(
            f"{escape(name)} {score}" for name, score in zip(self.names, scores, strict=True)
        )

    def _contract(self, contract: Any) -> str:
        """A Crazy Rummy contract: "2 books + 1 run", "2 bộ cùng số + 1 sảnh"."""
        parts = [
            self._say(f"contract.{kind}", count=count)
            for kind, count in (("books", contract.books), ("runs", contract.runs))
            if count
        ]
        return " + ".join(parts)

    def _show_table(self, view: Any) -> None:
        out = self.console
        match_view = self.match.view(0)
        header = "header_round" if self.rounds else "header_hand"
        game = self._say(f"game.{self.game.name}")
        scores = self._scores(match_view.scores)
        out.rule(self._say(header, game=game, n=match_view.hand_number, scores=scores))
        if self.rounds:
            out.print(
                self._say("contract_line", n=view.round, contract=self._contract(view.contract))
            )
        offered = getattr(view, "offered", None)
        if offered is not None and view.phase.value in ("offer", "buy"):
            out.print(self._say("offered", card=_card(offered)))
        pile = view.discard_pile
        top = _card(pile[-1]) if pile else self._say("empty")
        if len(pile) > 1:
            top += f" ({self._say('cards', count=len(pile))})"
        stock = self._say("cards", count=view.stock_size)
        out.print(self._say("piles", stock=stock, top=top), highlight=False)
        for number, meld in enumerate(getattr(view, "table", ()), start=1):
            out.print(self._say("meld", n=number, cards=_cards(meld.meld.cards)))
        for number, meld in enumerate(getattr(view, "knock_melds", ()), start=1):
            out.print(self._say("knock_meld", n=number, cards=_cards(meld.cards)))
        for seat in range(1, self.players):
            known = view.known_cards[seat] if view.known_cards else ()
            name = escape(self.names[seat])
            cards = self._say("cards", count=view.hand_sizes[seat])
            if known:
                line = self._say("opponent_known", name=name, cards=cards, known=_cards(known))
            else:
                line = self._say("opponent", name=name, cards=cards)
            out.print(line, highlight=False)
        hand = list(view.hand)
        out.print(self._say("your_hand", cards=_cards(hand)), highlight=False)
        if self.game.name == "gin":
            arrangement = best_arrangement([c for c in hand if isinstance(c, Card)])
            melds = " · ".join(_cards(m.cards) for m in arrangement.melds)
            out.print(
                self._say("best_melds", melds=melds or "-", count=arrangement.deadwood),
                highlight=False,
            )

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
        who = escape(names[winner]) if isinstance(winner, int) else self._say("nobody")
        how = (
            f"outcome.{data.get('outcome', 'over')}"  # a new outcome is shown as the engine has it
        )
        outcome = self._say(how) if how in MESSAGES else escape(how.removeprefix("outcome."))
        over = self._say("round_over" if self.rounds else "hand_over")
        self.console.print(
            f"[bold]{over}[/]: {self._say('won_by', outcome=outcome, name=who)}", highlight=False
        )
        scores = data.get("scores")
        if isinstance(scores, list):
            this = "this_round" if self.rounds else "this_hand"
            self.console.print(self._say(this, scores=self._scores(scores)), highlight=False)
        totals = self.match.view(0).scores
        self.console.print(self._say("totals", scores=self._scores(totals)), highlight=False)
        final = self.match.result
        if final is not None:
            summary = final.to_dict()
            winners = ", ".join(escape(names[s]) for s in summary.get("winners", []))
            won = "match_won_lowest" if self.game.low_total_wins else "match_won"
            self.console.print(
                f"[bold]{self._say('match_over')}[/]: "
                f"{self._say(won, names=winners or self._say('nobody'))}",
                highlight=False,
            )
            # Gin's match bonuses, then the final totals they make (the hands' points above
            # are without them).
            for key in ("game_bonus", "box_bonus"):
                if isinstance(summary.get(key), list):
                    line = self._say(key, scores=self._scores(summary[key]))
                    self.console.print(line, highlight=False)
            if summary.get("shutout"):
                self.console.print(self._say("shutout"), highlight=False)
            self.console.print(
                f"[bold]{self._say('final_totals', scores=self._scores(final.totals))}[/]",
                highlight=False,
            )


def _command(answer: str) -> str | None:
    """``quit``, ``help`` or ``hint`` when the answer is one of their words (either language)."""
    said = unicodedata.normalize("NFC", answer.strip().lower())
    for command, words in COMMANDS.items():
        if said in words:
            return command
    return None


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
