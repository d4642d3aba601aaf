"""Gin Rummy against OpenSpiel's ``gin_rummy`` on the same deals and draws (for
``test_openspiel.py`` and ``docs/openspiel.md``).

A playout deals both games the same cards, then plays random legal rummykit actions, each
translated into OpenSpiel's (a knock is OpenSpiel's knock, discard, the knocker's melds and a
pass; the defender's "done" is a pass, its own melds and a pass). At every decision the legal
actions must match once mapped, and at the end the returns, except where OpenSpiel is known to
differ; each such position is recognised by its rule and counted under its name:

- ``taken_card_discard``: OpenSpiel lets a player discard the card just taken from the pile.
- ``taken_card_knock``: so OpenSpiel also lets a player knock by throwing the taken card back.
- ``refused_knock``: OpenSpiel's 11-card ``min_deadwood`` over-counts some meld-dense hands,
  so it refuses a knock whose best discard leaves 10 deadwood (the knock is not played there).
- ``chained_layoff``: OpenSpiel lets a card onto a run only next to the run as laid or to one
  earlier lay-off there (AC after 3C and 2C on 4C-8C is refused; the lay-off is not played).
- ``wall_knock``: when a discard leaves two cards in the stock rummykit cancels the hand; OpenSpiel
  first lets the next player take that discard and knock (we pass, as the hand ends anyway).
- ``upcard_limit``: OpenSpiel ends a hand at the 50th draw from the discard pile (returns 0).
- ``tie_not_undercut``: a tie on deadwood after a knock is an undercut (the defender scores the
  bonus); OpenSpiel scores it 0 for both.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pyspiel

import rummykit.openspiel  # noqa: F401  (registers the games)
from rummykit.actions import Discard, Done, Draw, Knock, LayOff, Pass, Take
from rummykit.cards import AnyCard, Card
from rummykit.games.base import Phase, natural
from rummykit.games.gin import GinState
from rummykit.melds import Meld, MeldKind
from rummykit.solver.deadwood import (
    best_arrangement,
    discard_deadwoods,
    min_deadwood,
    min_deadwood_after_discard,
)

__all__ = ["DIFFERENCES", "Mismatch", "compare_legal", "os_card", "playout"]

DIFFERENCES = (
    "taken_card_discard",
    "taken_card_knock",
    "refused_knock",
    "chained_layoff",
    "wall_knock",
    "upcard_limit",
    "tie_not_undercut",
)

_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}  # OpenSpiel: suit-major, spades first, ace low
_UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
_DRAW_UPCARD = int(pyspiel.gin_rummy.DRAW_UPCARD_ACTION)
_DRAW_STOCK = int(pyspiel.gin_rummy.DRAW_STOCK_ACTION)
_PASS = int(pyspiel.gin_rummy.PASS_ACTION)
_KNOCK = int(pyspiel.gin_rummy.KNOCK_ACTION)
_MELD_BASE = int(pyspiel.gin_rummy.MELD_ACTION_BASE)
_UPCARD_LIMIT = int(pyspiel.gin_rummy.MAX_NUM_DRAW_UPCARD_ACTIONS)


def os_card(card: AnyCard) -> int:
    """The card's number in OpenSpiel's gin_rummy."""
    natural_card = natural(card)
    return _SUIT[natural_card.suit.value] * 13 + natural_card.number - 1


def _os_melds(meld: Meld) -> list[int]:
    """OpenSpiel's meld actions for ``meld``: it numbers runs of 3 to 5 cards only, so a longer
    run is laid as two (6 = 3 + 3, 7 = 3 + 4, ... 10 = 5 + 5)."""
    cards = sorted(os_card(c) for c in meld.cards)
    parts = [cards] if len(cards) <= 5 else [cards[: len(cards) // 2], cards[len(cards) // 2 :]]
    return [_MELD_BASE + int(_UTILS.meld_to_int(part)) for part in parts]


class Mismatch(AssertionError):
    """The two games disagree where no known difference explains it."""


def playout(seed: int, counts: Counter[str]) -> int:
    """Play one seeded hand in both games, checking as it goes; add each known difference met
    to ``counts`` (and ``positions`` compared, ``hands``). Returns the decisions played."""
    rng = random.Random(seed)
    ours_game = pyspiel.load_game("python_rummykit_gin")
    ours = ours_game.new_initial_state()
    theirs = pyspiel.load_game("gin_rummy").new_initial_state()
    kinds = ours.table.spec.kinds
    upcard_draws = 0
    decisions = 0
    counts["hands"] += 1
    while not ours.is_terminal():
        if ours.is_chance_node():
            outcomes = [o for o, _ in ours.chance_outcomes()]
            mapped = sorted(os_card(kinds[o]) for o in outcomes)
            _same(theirs.is_chance_node(), True, "chance node", ours)
            _same(sorted(o for o, _ in theirs.chance_outcomes()), mapped, "chance outcomes", ours)
            outcome = rng.choice(outcomes)
            ours.apply_action(outcome)
            theirs.apply_action(os_card(kinds[outcome]))
            continue
        hand = ours.table.hand
        assert isinstance(hand, GinState)
        seat = ours.current_player()
        _same(theirs.current_player(), seat, "player to act", ours)
        counts["positions"] += 1
        actions = [ours.table.spec.encoder.action(n) for n in ours.legal_actions()]
        refused = compare_legal(hand, actions, theirs, counts, ours)
        choices = [a for a in actions if a not in refused]
        action = _choose(hand, choices, rng)
        decisions += 1
        if isinstance(action, Take) and hand.phase is Phase.DRAW:
            upcard_draws += 1
        taken = hand.taken
        knock_cards = {os_card(a.card) for a in actions if isinstance(a, Knock)}
        ours.apply_action(ours.table.spec.encoder.id_of(action))
        if _play_theirs(action, taken, knock_cards, hand, ours, theirs, counts):
            continue
        if upcard_draws == _UPCARD_LIMIT:
            _same(theirs.is_terminal(), True, "end at OpenSpiel's upcard limit", ours)
            counts["upcard_limit"] += 1
            return decisions
    _compare_returns(ours, theirs, counts)
    counts[f"outcome {ours.table.hand.result.outcome.value}"] += 1
    return decisions


def _choose(hand: GinState, choices: list[Any], rng: random.Random) -> Any:
    """A random action, most often a sensible one (so that hands reach knocks, gins,
    undercuts and lay-offs, which uniformly random play rarely does)."""
    if rng.random() < 0.25:
        return rng.choice(choices)
    knocks = [a for a in choices if isinstance(a, Knock)]
    if knocks and rng.random() < 0.3:
        return rng.choice(knocks)
    discards = [a for a in choices if isinstance(a, Discard)]
    if discards:
        seat = hand.to_act
        assert seat is not None
        left = discard_deadwoods(hand.hands[seat])
        return min(discards, key=lambda a: (left[natural(a.card)], rng.random()))
    layoffs = [a for a in choices if isinstance(a, LayOff)]
    return rng.choice(layoffs or choices)


def compare_legal(
    hand: GinState, actions: list[Any], theirs: Any, counts: Counter[str], ours: Any
) -> set[Any]:
    """Compare the legal actions; return those OpenSpiel refuses by a known difference."""
    legal = set(theirs.legal_actions())
    phase = hand.phase
    if phase in (Phase.OFFER, Phase.DRAW):
        first = {Take: _DRAW_UPCARD, Pass: _PASS, Draw: _DRAW_STOCK}
        _same(legal, {first[type(a)] for a in actions}, f"{phase.value} actions", ours)
        return set()
    if phase is Phase.LAYOFF:
        mine = {_PASS if isinstance(a, Done) else os_card(a.card) for a in actions}
        if theirs.finished_layoffs():  # a gin: no lay-offs (OpenSpiel goes to the melds)
            _same(mine, {_PASS}, "no lay-offs on gin", ours)
            return set()
        chained = {a for a in actions if isinstance(a, LayOff) and _chained(hand, a)}
        if chained:
            counts["chained_layoff"] += 1
        _same(legal, mine - {os_card(a.card) for a in chained}, "lay-offs", ours)
        return chained
    assert phase is Phase.DISCARD
    seat = hand.to_act
    assert seat is not None
    discards = {os_card(a.card) for a in actions if isinstance(a, Discard)}
    knocks = [a for a in actions if isinstance(a, Knock)]
    taken = hand.taken
    if taken is not None:
        counts["taken_card_discard"] += 1
        legal.discard(os_card(taken))
        rest = [c for c in hand.hands[seat] if c is not taken]
        if not knocks and _KNOCK in legal and min_deadwood(rest) <= hand.options.knock_limit:
            counts["taken_card_knock"] += 1  # only by throwing the taken card back
            legal.discard(_KNOCK)
    refused = bool(knocks) and _KNOCK not in legal
    if refused:
        cards = [os_card(c) for c in hand.hands[seat]]
        if not (
            _UTILS.min_deadwood(cards) > hand.options.knock_limit
            and min_deadwood_after_discard(hand.hands[seat]) <= hand.options.knock_limit
        ):
            raise Mismatch(f"a knock refused without OpenSpiel's over-count:\n{ours}")
        counts["refused_knock"] += 1
    expected = discards | ({_KNOCK} if knocks and not refused else set())
    _same(legal, expected, "discard actions", ours)
    return set(knocks) if refused else set()


def _chained(hand: GinState, action: LayOff) -> bool:
    """True for a lay-off OpenSpiel misses: onto a run, next neither to the run as laid nor to
    an earlier lay-off that touched it (OpenSpiel extends a run by those lay-offs only)."""
    arrangement = hand.knock_arrangement
    assert arrangement is not None
    meld = arrangement.melds[action.meld - 1]
    if meld.kind is not MeldKind.RUN:
        return False
    low, high = meld.cards[0].number, meld.cards[-1].number
    touching = [
        c.number for c, m in hand.layoffs if m == action.meld and c.number in (low - 1, high + 1)
    ]
    low, high = min([low, *touching]), max([high, *touching])
    return natural(action.card).number not in (low - 1, high + 1)


def _play_theirs(
    action: Any,
    taken: Card | None,
    knock_cards: set[int],
    hand: GinState,
    ours: Any,
    theirs: Any,
    counts: Counter[str],
) -> bool:
    """Play rummykit's ``action`` (already applied to ``ours``; ``taken`` is the card taken from
    the pile this turn before it) in OpenSpiel, checking each step is legal there. True if the
    caller should go straight on to the next position."""
    if isinstance(action, Take):
        theirs.apply_action(_DRAW_UPCARD)
    elif isinstance(action, Pass):
        theirs.apply_action(_PASS)
    elif isinstance(action, Draw):
        theirs.apply_action(_DRAW_STOCK)
        return True
    elif isinstance(action, Discard):
        theirs.apply_action(os_card(action.card))
        if hand.is_over:  # the wall: rummykit cancels the hand
            legal = theirs.legal_actions()
            if _KNOCK in legal:
                counts["wall_knock"] += 1
            _same(_PASS in legal, True, "a pass at the wall", ours)
            theirs.apply_action(_PASS)
    elif isinstance(action, Knock):
        theirs.apply_action(_KNOCK)
        seat = hand.knocker
        assert seat is not None
        legal = set(theirs.legal_actions())
        # OpenSpiel's knock discards are every card whose discard leaves little enough
        # deadwood; rummykit's are the same cards, less the one just taken (if any).
        if taken is not None:
            legal.discard(os_card(taken))
        _same(legal, knock_cards, "knock discards", ours)
        theirs.apply_action(os_card(action.card))
        for meld in hand.knock_melds:
            for number in _os_melds(meld):
                _step(theirs, number, "a knock meld", ours)
        _step(theirs, _PASS, "the end of the knock", ours)
        if hand.is_over:  # gin: rummykit scores at once; OpenSpiel asks the defender's melds
            _defender_melds(hand, theirs, ours)
    elif isinstance(action, LayOff):
        _step(theirs, os_card(action.card), "a lay-off", ours)
    elif isinstance(action, Done):
        _step(theirs, _PASS, "the end of the lay-offs", ours)
        _defender_melds(hand, theirs, ours)
    else:  # pragma: no cover - big gin is off by default
        raise Mismatch(f"no OpenSpiel action for {action}")
    return False


def _defender_melds(hand: GinState, theirs: Any, ours: Any) -> None:
    """Lay the defender's best melds in OpenSpiel (rummykit counts its deadwood that way)."""
    seat = 1 - (hand.knocker or 0)
    for meld in best_arrangement(hand.hands[seat]).melds:
        for number in _os_melds(meld):
            _step(theirs, number, "a defender's meld", ours)
    _step(theirs, _PASS, "the end of the defender's melds", ours)


def _compare_returns(ours: Any, theirs: Any, counts: Counter[str]) -> None:
    _same(theirs.is_terminal(), True, "both hands over", ours)
    mine, other = list(ours.returns()), list(theirs.returns())
    hand = ours.table.hand
    result = hand.result
    if result.outcome.value == "undercut" and mine != other:
        knocker = hand.knocker
        if other == [0.0, 0.0] and _deadwood(result, knocker) == _deadwood(result, 1 - knocker):
            counts["tie_not_undercut"] += 1
            return
    _same(other, mine, "returns", ours)


def _deadwood(result: Any, seat: int) -> int:
    return int(result.deadwood[seat])


def _step(theirs: Any, action: int, what: str, ours: Any) -> None:
    if action not in theirs.legal_actions():
        raise Mismatch(f"OpenSpiel refuses {what} ({action}):\n{ours}\n{theirs}")
    theirs.apply_action(action)


def _same(theirs: Any, ours_value: Any, what: str, ours: Any) -> None:
    if theirs != ours_value:
        raise Mismatch(f"{what}: OpenSpiel {theirs!r}, rummykit {ours_value!r}\n{ours}")
