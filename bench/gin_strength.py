"""Gin Rummy strength: rummykit's players against OpenSpiel's and RLCard's bots, or each other.

Run it on purpose (it needs the ``bench`` extra for OpenSpiel and RLCard)::

    python bench/gin_strength.py --level hard --matches 1000 --jobs 2
    python bench/gin_strength.py --level hard --opponent openspiel-no-layoffs --matches 1000
    python bench/gin_strength.py --level hard --opponent rlcard-novice --matches 1000 --jobs 2
    python bench/gin_strength.py --level hard --opponent medium --matches 400
    python bench/gin_strength.py --round-robin easy,medium,hard --matches 300

Every match is played to 100 under RULES.md (rummykit's engine and match scoring: game bonus,
box bonus, shutout; undercut on a tie; a hand cancelled at the wall). The report gives the match
win rate with a Wilson 95% confidence interval, hand points and outcomes, and is also written as
JSON to ``bench/results/`` (gitignored).

**How OpenSpiel's bot plays here.** Hands are run in rummykit's engine, which decides what is
legal and scores everything, and ``pyspiel.make_simple_gin_rummy_bot`` is wrapped as a player. The
wrapper keeps a mirror ``gin_rummy`` state of OpenSpiel in step with the hand: the deal is played
into it as chance outcomes (OpenSpiel's player 0 is rummykit's non-dealer, who is offered the
up-card first in both engines), every draw, take, pass and discard of either side is applied to
it, and a stock draw is followed by the chance outcome of the card rummykit dealt. The bot
decides from that mirror (it reads only its own observation tensor), and its move is translated
back; its knock is OpenSpiel's two steps (knock, then the card thrown face down) made one
rummykit ``knock CARD``. As the defender the published bot never lays off (its documented
behaviour), which throws away points a careful player keeps, so by default (``--opponent
openspiel``) the wrapped bot lays off the best way, with rummykit's exact
:meth:`GinState.best_layoffs` (the lay-offs that leave the least deadwood), one card at a time,
then ``done``; everything else is the bot's own. ``--opponent openspiel-no-layoffs`` plays the
published bot as it is: it answers ``done`` at once. Why this way round: the match must be scored by RULES.md (OpenSpiel scores a
tied undercut as nothing and plays on at the wall; rummykit does not), and our players must see
the exact view they see in the app, which only rummykit's engine gives; the bot, a fixed C++
policy over its own observation, loses nothing by being mirrored. Any move of the bot that
rummykit refuses is counted as an anomaly and reported (3 in 1,000 matches: the bot throwing
back the up-card it had just taken).

**How RLCard's novice agent plays here** (``--opponent rlcard-novice``). RLCard 1.2's
``GinRummyNoviceRuleAgent`` (model ``gin-rummy-novice-rule``) is called as RLCard's
``GinRummyEnv`` calls it, with the state that environment extracts, but built from rummykit's
``state.view(seat)`` rather than from a mirrored RLCard game: the five 52-card planes (own hand,
top discard, the rest of the discard pile, the cards the opponent holds because it took them from
the pile, all others unknown) and the ordered legal action ids, computed as RLCard's judge does
with its own ``get_going_out_cards`` and default ``Settings`` (gin alone when some discard leaves
no deadwood; else every discard but the card just picked up, plus a knock with each card that
leaves 10 or less). The agent reads only its hand and those ids: it goes gin if it can, else
knocks if it can (with a random one of its knock cards, not the one of least deadwood), else
throws a card that leaves the least deadwood (ties at random); at a draw it has no rule and picks
stock or discard pile at random. Its id is translated back; RLCard's gin, which throws the first
gin card its judge lists, becomes rummykit's ``knock CARD``, scored as gin. Why not a mirror:
RLCard's game cannot hold rummykit's deal (it has no up-card and deals the non-dealer eleven), so
a mirror would mean patching its piles by hand, while the view already holds exactly what the
agent's seat may see. Its random choices come from numpy's global generator, seeded from each
match's seed, so a run is reproducible. Rules that differ, and how they are bridged: RLCard has
no up-card offer, so at rummykit's offer the agent gets its draw choice (pick up = ``take``, draw
= ``pass``: it takes the up-card half the time); RLCard has no lay-offs (nor undercut bonus, nor
match scoring: a hand pays 1 for gin, 0.2 for a knock), so as the defender it answers ``done``;
at the wall RLCard lets the next player still pick up the last discard or declare a dead hand,
where RULES.md cancels the hand once a discard leaves two cards in the stock, so the agent never
meets that choice here; RLCard has no big gin (eleven melded cards go gin with a discard, as under
rummykit's default ``big_gin`` off). RLCard forbids throwing the card just picked up but leaves it
among its knock and gin cards, so the agent may knock with it: rummykit refuses that, and it is
counted as an anomaly (by kind in the report) and replaced by :func:`_closest_legal`.

``--opponent LEVEL`` plays a head-to-head against another of our levels the same way (seats and
first dealers alternate; no mirror). ``--round-robin`` plays a round robin of the named levels
over ``--matches`` matches in all with :func:`rummykit.tournament.round_robin` (the same as
``rummykit sim gin --players ...``): per player match wins, mean hand points, mean final total
and an Elo-style rating, and each pair's record with its 95% interval.

Matches alternate who sits where and who deals first; match ``i`` uses seed
``derive_seed(seed, i)`` for the deals and our player, so a run is reproducible and does not
depend on ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter, OrderedDict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rummykit import tournament
from rummykit.actions import Action, Discard, Done, Draw, Knock, Pass, Take
from rummykit.cards import STANDARD_PACK, Card
from rummykit.games import Gin
from rummykit.games.base import Phase
from rummykit.games.gin import GinMatch, GinState, GinView
from rummykit.games.seeding import derive_seed
from rummykit.players import find_player
from rummykit.sim import MAX_ACTIONS, MAX_HANDS
from rummykit.solver.deadwood import best_arrangement, discard_deadwoods
from rummykit.tournament import wilson

RESULTS = Path(__file__).resolve().parent / "results"

_OS_SUITS = {"S": 0, "C": 1, "D": 2, "H": 3}
_OS_DRAW_UPCARD = 52
_OS_DRAW_STOCK = 53
_OS_PASS = 54
_OS_KNOCK = 55


def os_card(card: Card) -> int:
    """OpenSpiel's action number for a card (suits spades, clubs, diamonds, hearts; ace first)."""
    return _OS_SUITS[card.suit.value] * 13 + card.number - 1


_FROM_OS: dict[int, Card] = {}


def from_os(index: int) -> Card:
    """The card of an OpenSpiel card number."""
    if not _FROM_OS:
        for suit, offset in _OS_SUITS.items():
            for number, rank in enumerate("A23456789TJQK", start=1):
                _FROM_OS[offset * 13 + number - 1] = Card.parse(rank + suit)
    return _FROM_OS[index]


class MirroredBot:
    """OpenSpiel's simple gin rummy bot playing one seat of a rummykit hand through a mirror."""

    def __init__(self, hand: GinState, seat: int, lays_off: bool = True) -> None:
        import pyspiel

        game = pyspiel.load_game("gin_rummy")
        self.seat = seat
        self.lays_off = lays_off
        """Lay off the best way as the defender (else ``done`` at once, as the published bot)."""
        self.non_dealer = 1 - hand.dealer
        self.os_player = 0 if seat == self.non_dealer else 1
        self.bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), self.os_player)
        self.state = game.new_initial_state()
        deal = hand.deal
        first, second = deal.hands[self.non_dealer], deal.hands[hand.dealer]
        for card in (*first, *second, deal.up):
            assert isinstance(card, Card)
            self.state.apply_action(os_card(card))
        self.live = True
        self.anomalies = 0

    def mirror(self, hand: GinState, seat: int, action: Action) -> None:
        """Apply to the mirror the rummykit action just applied by ``seat`` to ``hand``."""
        if not self.live:
            return
        if isinstance(action, Take):
            self.state.apply_action(_OS_DRAW_UPCARD)
        elif isinstance(action, Pass):
            self.state.apply_action(_OS_PASS)
        elif isinstance(action, Draw):
            self.state.apply_action(_OS_DRAW_STOCK)
            self.state.apply_action(os_card(hand.hands[seat][-1]))  # the card dealt
        elif isinstance(action, Discard) and isinstance(action.card, Card):
            self.state.apply_action(os_card(action.card))
        else:  # a knock: the bot no longer needs the mirror (lay-offs come from rummykit)
            self.live = False

    def choose(self, hand: GinState) -> Action:
        """The bot's move in rummykit terms."""
        if hand.phase is Phase.LAYOFF:
            # The published bot never lays off; the default one lays off the best way.
            return hand.best_layoffs()[0] if self.lays_off else Done()
        legal = hand.legal_actions()
        move = self.bot.step(self.state)
        if move == _OS_DRAW_UPCARD:
            action: Action = Take()
        elif move == _OS_DRAW_STOCK:
            action = Draw()
        elif move == _OS_PASS:
            action = Pass() if hand.phase is Phase.OFFER else Draw()
        elif move == _OS_KNOCK:
            # OpenSpiel knocks in two steps; ask for the card on a copy and forget the plan (the
            # bot reads everything else from the observation, so a restart loses nothing).
            probe = self.state.clone()
            probe.apply_action(_OS_KNOCK)
            action = Knock(from_os(self.bot.step(probe)))
            self.bot.restart()
        else:
            action = Discard(from_os(move))
        if action not in legal:
            self.anomalies += 1
            action = _closest_legal(hand, legal)
        return action


OPENSPIEL = "openspiel"
"""OpenSpiel's simple bot, laying off the best way as the defender (the default opponent)."""
OPENSPIEL_NO_LAYOFFS = "openspiel-no-layoffs"
"""OpenSpiel's simple bot as published: as the defender it never lays off."""
OPENSPIEL_BOTS = (OPENSPIEL, OPENSPIEL_NO_LAYOFFS)
RLCARD_NOVICE = "rlcard-novice"
PUBLIC_BOTS = (*OPENSPIEL_BOTS, RLCARD_NOVICE)
"""The public opponents (any other ``--opponent`` is one of our levels)."""

# RLCard's gin rummy action ids (rlcard/games/gin_rummy/utils/action_event.py).
_RL_DRAW = 2
_RL_PICK_UP = 3
_RL_DEAD_HAND = 4
_RL_GIN = 5
_RL_DISCARD = 6  # + card id
_RL_KNOCK = 58  # + card id


class RLCardNovice:
    """RLCard's ``GinRummyNoviceRuleAgent`` playing one seat of a rummykit hand from its view.

    The agent is RLCard's own object, called as RLCard's environment calls it: with the state
    ``GinRummyEnv`` would extract (``obs``, five 52-card planes, and ``legal_actions``, an ordered
    dict of action ids), built here from ``state.view(seat)`` with RLCard's own helpers and
    default settings. Its action id is translated back to a rummykit action.
    """

    def __init__(self, seat: int) -> None:
        from rlcard.games.gin_rummy import judge
        from rlcard.games.gin_rummy.utils import utils
        from rlcard.games.gin_rummy.utils.settings import Settings
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        self.seat = seat
        self.agent = GinRummyNoviceRuleAgent()
        self.settings = Settings()
        self._judge = judge
        self._utils = utils
        self.anomalies: Counter[str] = Counter()
        """Moves rummykit refused, by kind (RLCard's action, and why)."""

    def _rl_card(self, card: Card) -> Any:
        return self._utils.card_from_text(str(card))

    def _card_id(self, card: Card) -> int:
        return int(self._utils.get_card_id(self._rl_card(card)))

    def _card(self, card_id: int) -> Card:
        return Card.parse(str(self._utils.get_card(card_id)))

    def _going_out(self, hand: tuple[Card, ...]) -> tuple[list[Card], list[Card]]:
        """RLCard's knock cards and gin cards of an 11-card hand (in RLCard's order)."""
        knock, gin = self._judge.get_going_out_cards(
            [self._rl_card(c) for c in hand], self.settings.going_out_deadwood_count
        )
        return [Card.parse(str(c)) for c in knock], [Card.parse(str(c)) for c in gin]

    def observe(self, view: GinView) -> dict[str, Any]:
        """The state RLCard's environment would give the agent in this position."""
        import numpy as np

        def plane(cards: list[Card]) -> Any:
            row = np.zeros(52, dtype=int)
            for card in cards:
                row[self._card_id(card)] = 1
            return row

        pile = list(view.discard_pile)
        known = list(view.known_cards[1 - self.seat])
        seen = {*view.hand, *pile, *known}
        unknown = [c for c in STANDARD_PACK if c not in seen]
        obs = np.array(
            [
                plane(list(view.hand)),
                plane(pile[-1:]),
                plane(pile[:-1]),
                plane(known),
                plane(unknown),
            ]
        )
        legal: list[int]
        if view.phase is Phase.DISCARD:
            knock, gin = self._going_out(view.hand)
            if self.settings.is_allowed_gin and gin:
                legal = [_RL_GIN]
            else:
                taken = view.taken_from_discard
                if self.settings.is_allowed_to_discard_picked_up_card:
                    taken = None
                legal = [_RL_DISCARD + self._card_id(c) for c in view.hand if c is not taken]
                legal += [_RL_KNOCK + self._card_id(c) for c in knock]
        elif view.stock_size <= self.settings.stockpile_dead_card_count:
            legal = [_RL_DEAD_HAND, _RL_PICK_UP]  # never met: rummykit cancels the hand first
        elif Take() in view.legal_actions:
            legal = [_RL_DRAW, _RL_PICK_UP]  # a draw turn or the up-card offer
        else:
            legal = [_RL_DRAW]  # both players passed the up-card
        legal_actions = OrderedDict((a, None) for a in legal)
        return {"obs": obs, "legal_actions": legal_actions, "raw_legal_actions": legal}

    def translate(self, view: GinView, move: int) -> tuple[Action | None, str]:
        """The rummykit action of an RLCard action id (None if it has none), and its kind."""
        if move == _RL_DRAW:
            return (Pass() if view.phase is Phase.OFFER else Draw()), "draw"
        if move == _RL_PICK_UP:
            return Take(), "pick up"
        if move == _RL_GIN:
            # RLCard's round throws the first gin card its judge lists.
            return Knock(self._going_out(view.hand)[1][0]), "gin"
        if _RL_DISCARD <= move < _RL_KNOCK:
            return Discard(self._card(move - _RL_DISCARD)), "discard"
        if _RL_KNOCK <= move < _RL_KNOCK + 52:
            return Knock(self._card(move - _RL_KNOCK)), "knock"
        return None, "declare dead hand"

    def choose(self, hand: GinState) -> Action:
        """The agent's move in rummykit terms (``done`` as the defender: RLCard has no lay-offs)."""
        view = hand.view(self.seat)
        if view.phase is Phase.LAYOFF:
            return Done()
        move = int(self.agent.step(self.observe(view)))
        action, kind = self.translate(view, move)
        legal = list(view.legal_actions)
        if action is None or action not in legal:
            card = action.card if isinstance(action, Discard | Knock) else None
            why = "the card just taken" if card is view.taken_from_discard else "refused"
            self.anomalies[f"{kind}: {why}" if card is not None else kind] += 1
            action = _closest_legal(hand, legal)
        return action


OPPONENT_NAMES = {
    OPENSPIEL: "OpenSpiel simple gin rummy bot, laying off the best way (rummykit's best_layoffs)",
    OPENSPIEL_NO_LAYOFFS: "OpenSpiel simple gin rummy bot as published (never lays off)",
    RLCARD_NOVICE: "RLCard GinRummyNoviceRuleAgent (never lays off)",
}
"""The report's name of each public opponent."""


def _closest_legal(hand: GinState, legal: list[Action]) -> Action:
    """A public bot's policy within rummykit's rules, for a move rummykit refuses.

    The cases known: OpenSpiel lets a player throw back the up-card it just took, so the simple
    bot takes the first up-card to knock with a dealt hand of 10 deadwood or less, throwing it
    back; RLCard forbids discarding the card just taken but not knocking or going gin with it.
    Here the bot knocks if it legally can (least deadwood), else throws its highest unmatched card.
    """
    knocks = [a for a in legal if isinstance(a, Knock)]
    if knocks:
        table = discard_deadwoods(hand.hands[hand.to_act or 0])
        return min(knocks, key=lambda a: table[a.card] if isinstance(a, Knock) else 0)
    discards = [a.card for a in legal if isinstance(a, Discard) and isinstance(a.card, Card)]
    seat = hand.to_act
    assert seat is not None
    unmatched = [c for c in best_arrangement(hand.hands[seat]).unmatched if c in discards]
    pool = unmatched or discards
    return Discard(max(pool, key=lambda c: (c.points, c.number)))


@dataclass
class Tally:
    """Totals over some matches (they add up, so chunks can be merged)."""

    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    """Hand points: ours, the opponent's."""
    totals: list[int] = field(default_factory=lambda: [0, 0])
    """Final match totals with bonuses: ours, the opponent's."""
    outcomes: dict[str, int] = field(default_factory=dict)
    """Hands by outcome and winner: e.g. ``knock/us``, ``undercut/them``, ``cancelled``."""
    decisions: int = 0
    seconds: float = 0.0
    """Time our player spent deciding."""
    anomalies: int = 0
    anomaly_kinds: dict[str, int] = field(default_factory=dict)
    """Refused moves by kind (RLCard's novice only), e.g. ``knock: the card just taken``."""

    def merge(self, other: Tally) -> None:
        """Add ``other`` into this tally."""
        self.matches += other.matches
        self.wins += other.wins
        self.hands += other.hands
        for i in (0, 1):
            self.points[i] += other.points[i]
            self.totals[i] += other.totals[i]
        for key, n in other.outcomes.items():
            self.outcomes[key] = self.outcomes.get(key, 0) + n
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.anomalies += other.anomalies
        for key, n in other.anomaly_kinds.items():
            self.anomaly_kinds[key] = self.anomaly_kinds.get(key, 0) + n


def play_match_vs_bot(level: str, index: int, seed: int, opponent: str = OPENSPIEL) -> Tally:
    """Match ``index``: our ``level`` against ``opponent`` (OpenSpiel's simple bot laying off
    the best way, the published one that never lays off, RLCard's novice rule agent or another of
    our levels), to 100 under RULES.md.

    Match ``index`` puts our player in seat ``index % 2`` with dealer ``(index // 2) % 2``, so
    every four matches cover both seats and both first dealers. RLCard's agent draws its random
    choices from numpy's global generator, which is seeded here from the match seed.
    """
    match_seed = derive_seed(seed, index)
    ours = index % 2
    dealer = (index // 2) % 2
    player = find_player("gin", level, derive_seed(match_seed, 1))
    rival = (
        None
        if opponent in PUBLIC_BOTS
        else find_player("gin", opponent, derive_seed(match_seed, 2))
    )
    novice = None
    if opponent == RLCARD_NOVICE:
        import numpy as np

        np.random.seed(derive_seed(match_seed, 3) % (1 << 32))
        novice = RLCardNovice(1 - ours)
    match: GinMatch = Gin().new_match(seed=match_seed, dealer=dealer)
    tally = Tally(matches=1)
    for _ in range(MAX_HANDS):
        hand = match.hand
        bot = (
            MirroredBot(hand, 1 - ours, lays_off=opponent == OPENSPIEL)
            if opponent in OPENSPIEL_BOTS
            else None
        )
        for _ in range(MAX_ACTIONS):
            seat = hand.to_act
            if seat is None:
                break
            if seat == ours:
                started = time.perf_counter()
                action = player.choose(hand.view(seat))
                tally.seconds += time.perf_counter() - started
                tally.decisions += 1
            elif bot is not None:
                action = bot.choose(hand)
            elif novice is not None:
                action = novice.choose(hand)
            else:
                assert rival is not None
                action = rival.choose(hand.view(seat))
            match.apply(action, seat)
            if bot is not None:
                bot.mirror(hand, seat, action)
        if bot is not None:
            tally.anomalies += bot.anomalies
        result = hand.result
        assert result is not None
        tally.hands += 1
        who = "" if result.winner is None else ("/us" if result.winner == ours else "/them")
        key = result.outcome.value + who
        tally.outcomes[key] = tally.outcomes.get(key, 0) + 1
        if match.is_over:
            break
        match.next_hand()
    if novice is not None:
        tally.anomalies += novice.anomalies.total()
        tally.anomaly_kinds = dict(novice.anomalies)
    final = match.result
    assert final is not None
    tally.wins += final.winner == ours
    tally.points[0] += final.hand_points[ours]
    tally.points[1] += final.hand_points[1 - ours]
    tally.totals[0] += final.totals[ours]
    tally.totals[1] += final.totals[1 - ours]
    return tally


def _run_chunk(args: tuple[str, str, int, int, int]) -> Tally:
    level, opponent, seed, start, stop = args
    tally = Tally()
    for index in range(start, stop):
        tally.merge(play_match_vs_bot(level, index, seed, opponent))
    return tally


def run_vs_bot(level: str, matches: int, seed: int, jobs: int, opponent: str = OPENSPIEL) -> Tally:
    """Play ``matches`` matches against ``opponent`` (OpenSpiel's laying-off bot by default) over
    ``jobs`` processes, printing a progress line (matches, wins, win rate) every 50 matches."""
    per = max(1, min(10, matches // (jobs * 4) or 1))
    chunks = [(level, opponent, seed, s, min(matches, s + per)) for s in range(0, matches, per)]
    tally = Tally()
    reported = 0

    def progress() -> None:
        nonlocal reported
        if tally.matches - reported >= 50 or tally.matches == matches:
            reported = tally.matches
            low, high = wilson(tally.wins, tally.matches)
            print(
                f"  progress {tally.matches}/{matches}: {tally.wins} won = "
                f"{tally.wins / tally.matches:.1%} (95% CI {low:.1%} to {high:.1%})",
                file=sys.stderr,
                flush=True,
            )

    if jobs == 1:
        for part in map(_run_chunk, chunks):
            tally.merge(part)
            progress()
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for part in pool.imap_unordered(_run_chunk, chunks):
                tally.merge(part)
                progress()
    return tally


def round_robin(levels: list[str], matches: int, seed: int, jobs: int) -> dict[str, Any]:
    """Every pair of ``levels`` plays (:func:`rummykit.tournament.round_robin`); the report."""
    report = tournament.round_robin("gin", levels, matches=matches, seed=seed, jobs=jobs)
    for pair in report.pairs:
        low, high = pair.interval
        print(
            f"  {pair.a} v {pair.b}: {pair.a_wins}-{pair.b_wins} = {pair.rate:.1%} "
            f"(95% CI {low:.1%} to {high:.1%})",
            flush=True,
        )
    for p in report.players:
        print(
            f"  {p.name:<8} won {p.wins}/{p.matches} = {p.win_rate:.1%}, "
            f"hand points {p.mean_points:.1f}/hand, final total {p.mean_total:.1f}/match, "
            f"Elo {p.rating:.0f}"
        )
    return report.to_dict()


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the matches, print and save the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--level", default="hard", help="our player: easy, medium or hard")
    parser.add_argument(
        "--opponent",
        default=OPENSPIEL,
        help="openspiel (OpenSpiel's simple bot, laying off the best way as the defender; "
        "default), openspiel-no-layoffs (the published bot, which never lays off), rlcard-novice "
        "(RLCard's novice rule agent) or one of our levels for a head-to-head",
    )
    parser.add_argument("--matches", type=int, default=200, help="matches to play (default 200)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the run")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--out", type=Path, default=None, help="JSON report path")
    parser.add_argument(
        "--round-robin", default=None, help="comma-separated levels: a round robin of --matches"
    )
    args = parser.parse_args(argv)
    if args.matches < 1 or args.jobs < 1:
        parser.error("--matches and --jobs must be at least 1")
    started = time.perf_counter()
    if args.round_robin:
        levels = [n.strip() for n in args.round_robin.split(",")]
        print(f"round robin of {', '.join(levels)}, {args.matches} matches")
        table = round_robin(levels, args.matches, args.seed, args.jobs)
        table["elapsed"] = time.perf_counter() - started
        out = args.out or RESULTS / f"gin_round_robin_{'_'.join(levels)}_{args.matches}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(table, indent=1))
        return 0
    tally = run_vs_bot(args.level, args.matches, args.seed, args.jobs, args.opponent)
    wins, n = tally.wins, tally.matches
    extra: dict[str, Any] = asdict(tally)
    extra["mean_decision_ms"] = 1000 * tally.seconds / max(1, tally.decisions)
    elapsed = time.perf_counter() - started
    low, high = wilson(wins, n)
    summary = {
        "level": args.level,
        "opponent": args.opponent,
        "opponent_name": OPPONENT_NAMES.get(args.opponent, f"rummykit {args.opponent}"),
        "matches": n,
        "wins": wins,
        "win_rate": wins / n,
        "ci95": [low, high],
        "seed": args.seed,
        "jobs": args.jobs,
        "elapsed": elapsed,
        "detail": extra,
    }
    print(
        f"{args.level} v {args.opponent}: {wins}/{n} matches won = {wins / n:.1%} "
        f"(95% CI {low:.1%} to {high:.1%}), {elapsed:.0f} s"
    )
    outcomes = Counter(tally.outcomes)
    print(
        f"  hands {tally.hands}, hand points us {tally.points[0]} / them {tally.points[1]} "
        f"(per match {tally.points[0] / n:.1f} / {tally.points[1] / n:.1f}), "
        f"mean decision {extra['mean_decision_ms']:.1f} ms, anomalies {tally.anomalies}"
    )
    print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    if tally.anomaly_kinds:
        kinds = sorted(tally.anomaly_kinds.items())
        print("  anomalies: " + ", ".join(f"{k} {v}" for k, v in kinds))
    out = args.out or RESULTS / f"gin_{args.level}_v_{args.opponent}_{n}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
