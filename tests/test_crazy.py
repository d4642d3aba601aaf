"""Crazy Rummy: the offer and buy sequence, contracts, lay-offs, swaps, scoring, random play."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import (
    Buy,
    Discard,
    Down,
    Draw,
    LayOff,
    Pass,
    Swap,
    Take,
    parse_action,
)
from rummykit.cards import JOKER, AnyCard, Card, double_pack, parse_cards
from rummykit.games import IllegalActionError, Phase, find_game
from rummykit.games.crazy import (
    Crazy,
    CrazyMatch,
    CrazyOptions,
    CrazyOutcome,
    CrazyState,
    TableMeld,
)
from rummykit.games.deal import Deal
from rummykit.wild_melds import Book, Run, crazy_points, hand_points

C = Card.parse


def deal(
    hands: list[str], up: str, stock_top: str = "", *, jokers: int = 4
) -> tuple[tuple[tuple[AnyCard, ...], ...], AnyCard, tuple[AnyCard, ...]]:
    """Hands, up-card and a stock that starts with ``stock_top`` and holds the rest of the pack."""
    pack = Counter(double_pack(jokers))
    held = [parse_cards(h) for h in hands]
    top = parse_cards(stock_top)
    used = Counter([c for h in held for c in h] + [*parse_cards(up), *top])
    assert not used - pack, "the test deal uses a card more than twice"
    rest = sorted((pack - used).elements(), key=lambda c: c.sort_key)
    return tuple(held), parse_cards(up)[0], (*top, *rest)


def table(
    hands: list[str],
    up: str,
    stock_top: str = "",
    *,
    round: int = 1,
    dealer: int = 0,
    **options: Any,
) -> CrazyState:
    held, upcard, stock = deal(hands, up, stock_top)
    game = Crazy(CrazyOptions(**options))
    return game.new_hand(
        players=len(hands), deal=Deal(held, upcard, stock), dealer=dealer, round=round
    )


def play(state: CrazyState, *moves: str) -> None:
    for text in moves:
        state.apply(parse_action(text))


def conserved(state: CrazyState) -> None:
    cards = [c for h in state.hands for c in h] + state.stock + state.discard_pile
    cards += [c for t in state.table for c in t.meld.cards]
    assert Counter(cards) == Counter(state.game.pack)


# Round 1 (2 books), four players, seat 0 deals: seat 1 plays first.
FOUR = [
    "3C 4C 5C 6C 7C 8C 9C",
    "3D 4D 5D 6D 7D 8D 9D",
    "3H 4H 5H 6H 7H 8H 9H",
    "3S 4S 5S 6S 7S 8S 9S",
]


# ---------------------------------------------------------------------------- offer and buys


def test_dealer_takes_the_first_up_card_and_does_not_discard() -> None:
    s = table(FOUR, "KD", "AS QS")
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.OFFER, 0, [Take(), Pass()])
    play(s, "take")
    assert len(s.hands[0]) == 8 and s.discard_pile == []
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.DRAW, 1, [Draw()])
    with pytest.raises(IllegalActionError, match=r"draw first: draw from the stock \(no card"):
        play(s, "take")
    play(s, "draw")
    assert (s.phase, s.to_act, s.hands[1][-1]) == (Phase.DISCARD, 1, C("AS"))


def test_next_player_takes_the_up_card_as_the_draw() -> None:
    s = table(FOUR, "KD", "AS QS")
    play(s, "pass")
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.DRAW, 1, [Take(), Draw()])
    play(s, "take")
    assert (s.phase, s.to_act, s.taken) == (Phase.DISCARD, 1, C("KD"))
    with pytest.raises(IllegalActionError, match="just taken"):
        play(s, "discard KD")
    play(s, "discard 9D")
    # the discard is offered to seat 2 first
    assert (s.phase, s.to_act, s.offered) == (Phase.DRAW, 2, C("9D"))


def test_third_player_buys_with_a_penalty_card() -> None:
    s = table(FOUR, "KD", "AS QS JS")
    play(s, "pass", "draw")  # seat 1 declines: seat 2 is asked first
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.BUY, 2, [Buy(), Pass()])
    play(s, "buy")
    assert sorted(map(str, s.hands[2][-2:])) == ["AS", "KD"] and len(s.hands[2]) == 9
    assert s.buys == [0, 0, 1, 0]
    # then seat 1 draws from the stock as usual
    assert (s.phase, s.to_act, s.hands[1][-1], len(s.hands[1])) == (Phase.DISCARD, 1, C("QS"), 8)
    assert s.view(0).known_cards[2] == (C("KD"),)
    assert "AS" not in str(s.view(0).to_dict())  # the penalty card stays hidden


def test_fourth_player_buys_after_the_third_passes() -> None:
    s = table(FOUR, "KD", "AS QS JS")
    play(s, "pass", "draw", "pass")
    assert (s.phase, s.to_act) == (Phase.BUY, 3)
    play(s, "buy")
    assert len(s.hands[3]) == 9 and len(s.hands[2]) == 7
    assert (s.to_act, s.hands[1][-1]) == (1, C("QS"))


def test_nobody_buys_and_the_dealer_is_not_asked_again() -> None:
    s = table(FOUR, "KD", "AS QS JS")
    play(s, "pass", "draw", "pass", "pass")
    assert (s.phase, s.to_act, s.hands[1][-1]) == (Phase.DISCARD, 1, C("AS"))
    assert s.discard_pile == [C("KD")] and s.offered is None
    # after seat 1's discard, seats 3 and 0 may buy (seat 2 is to draw; seat 1 threw it)
    play(s, "discard 9D", "draw")
    assert (s.phase, s.to_act) == (Phase.BUY, 3)
    play(s, "pass")
    assert (s.phase, s.to_act) == (Phase.BUY, 0)
    play(s, "pass")
    assert (s.phase, s.to_act) == (Phase.DISCARD, 2)


def test_buy_limit() -> None:
    s = table(FOUR, "KD", "AS QS JS TS 9S", max_buys_per_round=1)
    play(s, "pass", "draw", "buy")  # seat 2 buys KD
    play(s, "discard 9D", "draw")  # seat 2 to draw; seats 3, 0 may buy
    play(s, "pass", "pass", "discard 9H", "draw")  # seat 3 declines 9H: seats 0 and 1 asked
    play(s, "pass", "pass")
    play(s, "discard 9S", "draw")  # seat 0 declines 9S: seats 1 and 2 asked
    play(s, "pass")
    assert (s.phase, s.to_act) == (Phase.BUY, 2)
    assert s.legal_actions() == [Pass()]
    with pytest.raises(IllegalActionError, match="at most 1 times a round"):
        play(s, "buy")


def test_two_players_never_buy() -> None:
    s = table(FOUR[:2], "KD", "AS QS")
    play(s, "pass", "draw")
    assert (s.phase, s.to_act) == (Phase.DISCARD, 1)
    play(s, "discard 9D", "draw")
    assert (s.phase, s.to_act) == (Phase.DISCARD, 0)


def test_penalty_options() -> None:
    s = table(FOUR, "KD", "AS QS JS", penalty_cards=2)
    play(s, "pass", "draw", "buy")
    assert len(s.hands[2]) == 10 and s.hands[1][-1] == C("JS")


def _offered_to_buyers(stock: int, under: int, **options: Any) -> CrazyState:
    """Seat 1 passed on KD (four players): seat 2 is asked to buy it, with ``stock`` cards in
    the stock and ``under`` discards below KD (white-box: the rest of the stock is set aside in
    a list the test keeps, and every card is still counted by ``conserved`` through it)."""
    s = table(FOUR, "KD", **options)
    play(s, "pass")
    spare = s.stock[: len(s.stock) - stock - under]
    s.discard_pile = [*s.stock[len(spare) : len(spare) + under], *s.discard_pile]
    s.stock = s.stock[len(s.stock) - stock :] if stock else []
    s.hands[3].extend(spare)  # out of the way (seat 3 is not asked before seat 2)
    play(s, "draw")
    assert (s.phase, s.to_act, s.offered, s.turn) == (Phase.BUY, 2, C("KD"), 1)
    conserved(s)
    return s


@pytest.mark.parametrize(
    ("stock", "under", "restocks", "buy"),
    [
        (1, 5, 0, False),  # the last card would be the penalty: no draw for seat 1
        (2, 5, 0, True),
        (1, 1, 5, False),  # a new stock keeps the pile's top card: 1 card under KD is not enough
        (1, 2, 5, True),  # the draw shuffles the discard under the new top into a new stock
        (0, 2, 5, True),  # the penalty shuffles both cards under KD; the draw takes the other
        (0, 1, 5, False),
    ],
)
def test_a_buy_must_leave_the_player_in_turn_a_card_to_draw(
    stock: int, under: int, restocks: int, buy: bool
) -> None:
    s = _offered_to_buyers(stock, under, max_restocks=restocks)
    assert (Buy() in s.legal_actions()) is buy
    if not buy:
        before = s.view(2).to_dict()
        with pytest.raises(IllegalActionError, match="must keep a card for seat 1, who draws"):
            play(s, "buy")
        assert s.view(2).to_dict() == before
        play(s, "pass", "pass")  # seats 2 and 3 pass: seat 1 draws
    else:
        play(s, "buy")
        assert len(s.hands[2]) == 9
    assert (s.phase, s.to_act, len(s.hands[1])) == (Phase.DISCARD, 1, 8)


def test_a_house_rule_lets_a_buy_take_the_last_card_and_end_the_round() -> None:
    """``buy_keeps_draw`` off: the engine's rule before the option existed."""
    s = _offered_to_buyers(1, 5, max_restocks=0, buy_keeps_draw=False)
    assert s.legal_actions() == [Buy(), Pass()]
    play(s, "buy")
    r = s.result
    assert r is not None and r.outcome is CrazyOutcome.STOCK_OUT and len(s.hands[1]) == 7
    assert CrazyOptions().buy_keeps_draw is True


@pytest.mark.slow
def test_a_buy_never_ends_the_round_in_random_games() -> None:
    """With few restocks the stock runs out often; after every buy the player in turn draws."""
    buys = 0
    for seed in range(12):
        options = CrazyOptions(max_restocks=seed % 2, penalty_cards=1 + seed % 3)
        match = Crazy(options).new_match(players=4 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            if match.hand.is_over:
                match.next_hand()
            state = match.hand
            legal = state.legal_actions()
            choice = Buy() if Buy() in legal else rng.choice(legal)
            turn = state.turn
            match.apply(choice)
            if isinstance(choice, Buy):
                buys += 1
                assert (state.phase, state.to_act) == (Phase.DISCARD, turn)
    assert buys > 100


# ------------------------------------------------------------------------------- contracts

ROUND3 = ["4S 5S 6S 7S 9D TD JD QD 6H", "5H X 7H 8H 9C TC JC QC 3D"]


def test_contract_swap_layoff_and_going_out() -> None:
    s = table(ROUND3, "KS", "KC 3C", round=3)
    assert str(s.contract) == "2 runs"
    play(s, "pass", "draw")  # seat 1 draws KC
    down = Down((parse_cards("5H X 7H 8H"), parse_cards("9C TC JC QC")))
    assert s.can(down)
    play(s, "down 5H X 7H 8H | 9C TC JC QC")
    assert s.laid_down == [False, True] and sorted(map(str, s.hands[1])) == ["3D", "KC"]
    assert [str(c) for c in s.table[0].meld.stands_for] == ["5H", "6H", "7H", "8H"]  # type: ignore[union-attr]
    play(s, "layoff KC 2")  # onto his own run 9C-QC
    play(s, "discard 3D")  # his last card: out by discarding it
    r = s.result
    assert r is not None and r.winner == 1 and r.outcome is CrazyOutcome.OUT
    assert r.points == (hand_points(s.hands[0]), 0)


def test_swap_a_wild_out_of_a_run() -> None:
    s = table(ROUND3, "KS", "KH 3C", round=3)
    play(s, "pass", "draw")  # seat 1 draws KH
    play(s, "down 5H X 7H 8H | 9C TC JC QC", "discard KH")
    play(s, "draw")  # seat 0 declines KH, draws 3C
    with pytest.raises(IllegalActionError, match="before swapping"):
        play(s, "swap 6H 1")
    play(s, "down 4S 5S 6S 7S | 9D TD JD QD")
    assert Swap(C("6H"), 1) in s.legal_actions()
    play(s, "swap 6H 1")
    assert str(s.table[0].meld) == "5H 6H 7H 8H" and JOKER in s.hands[0]
    # Everyone saw the joker go into seat 0's hand: the other seat knows it is there.
    assert s.view(1).known_cards[0] == (JOKER,)
    assert Swap(C("8S"), 3) not in s.legal_actions()  # own runs are not swapped from
    play(s, "layoff X 2 high")  # the joker now stands for KC
    assert s.view(1).known_cards[0] == ()  # laid off: no longer held
    assert [str(c) for c in s.table[1].meld.stands_for][-1] == "KC"  # type: ignore[union-attr]
    play(s, "discard 3C")
    r = s.result
    assert r is not None and r.winner == 0 and r.points == (0, 5)  # seat 1 kept 3D


def test_wilds_in_books_can_never_be_taken() -> None:
    hands = ["7S 9H 9D 9S KC KD KH", "7H 7D X 8C 8C 8D 3D"]
    s = table(hands, "4C", "5C 5D 5H", round=1)
    play(s, "pass", "draw")  # seat 1 draws 5C
    play(s, "down 7H 7D X | 8C 8C 8D", "discard 5C")
    play(s, "draw", "down 9H 9D 9S | KC KD KH")  # seat 0 holds 7S and 5D
    with pytest.raises(IllegalActionError, match="book can never be taken"):
        play(s, "swap 7S 1")
    assert Swap(C("7S"), 1) not in s.legal_actions()
    play(s, "layoff 7S 1")  # a natural card can still be laid off onto the book
    assert len(s.table[0].meld) == 4


def test_lay_off_before_ones_contract_is_refused() -> None:
    hands = ["7S 9H 9D 4S KC KD QH", "7H 7D X 8C 8C 8D 3D"]
    s = table(hands, "4C", "5C 5D 5H", round=1)
    play(s, "pass", "draw", "down 7H 7D X | 8C 8C 8D", "discard 5C")
    play(s, "draw")
    with pytest.raises(IllegalActionError, match="lay down your own contract before laying off"):
        play(s, "layoff 7S 1")
    assert not any(isinstance(a, LayOff) for a in s.legal_actions())


@pytest.mark.parametrize(
    ("moves", "stock_top", "options", "kept"),
    [
        # The best lay-down would leave only 5C, just taken from the pile: keep a 9 back too.
        (("pass", "take"), "", {}, "9C 5C"),
        # Laying down all 8 cards would empty the hand, which this table refuses: keep the 4C.
        (("pass", "draw"), "4C", {"discard_to_go_out": True}, "4C"),
    ],
)
def test_a_lay_down_the_going_out_rules_refuse_gives_way_to_another(
    moves: tuple[str, ...], stock_top: str, options: dict[str, Any], kept: str
) -> None:
    """legal_actions offers the contract whenever it can be laid down: if the best lay-down is
    refused, the best one that keeps another card back (fewest points kept)."""
    s = table(["KC KD QS QH 3C 3D 7H", "4H 4S 4D 9C 9D 9S 9H"], "5C", stock_top, **options)
    play(s, *moves)
    downs = [a for a in s.legal_actions() if isinstance(a, Down)]
    assert len(downs) == 1 and s.can(downs[0])
    laid = Counter(c for meld in downs[0].melds for c in meld)
    left = Counter(s.hands[1]) - laid
    assert hand_points(left.elements()) == hand_points(parse_cards(kept))
    assert sorted(left.elements(), key=str) != [s.taken]
    play(s, str(downs[0]))
    assert s.laid_down[1] and len(s.hands[1]) == len(parse_cards(kept))


def _down_and_take_10h(**options: Any) -> CrazyState:
    """Round 2, two players: seat 0 is down holding 9H, seat 1's run 5H-8H is on the table, and
    seat 0 has just taken the 10H seat 1 threw."""
    s = table(
        ["3C 3D 3S 4C 5C 6C 7C 9H", "QC QD QS 5H 6H 7H 8H TH"],
        "2D",
        "KS JD",
        round=2,
        dealer=1,
        **options,
    )
    play(s, "pass", "draw", "down 3C 3D 3S | 4C 5C 6C 7C", "discard KS")
    play(s, "draw", "down QC QD QS | 5H 6H 7H 8H", "discard TH", "take")
    assert s.hands[0] == list(parse_cards("9H TH")) and s.taken == C("TH")
    return s


def test_the_card_just_taken_may_go_out_onto_the_table() -> None:
    """RULES.md section 3 only forbids throwing the taken card back: laying off 9H, which leaves
    only the taken 10H, is fine when 10H then fits the table, and takes the player out."""
    s = _down_and_take_10h()
    assert LayOff(C("9H"), 4) in s.legal_actions()
    play(s, "layoff 9H 4")
    assert s.legal_actions() == [LayOff(C("TH"), 4)]  # it may not be thrown back
    play(s, "layoff TH 4")
    assert s.result is not None and s.result.winner == 0 and s.result.outcome.value == "out"


def test_the_card_just_taken_still_strands_when_it_cannot_go_out() -> None:
    # A table that makes you go out by a discard: 10H could only be thrown, which is refused.
    s = _down_and_take_10h(discard_to_go_out=True)
    assert s.legal_actions() == [Discard(C("9H"))]
    before = s.view(0).to_dict()
    with pytest.raises(IllegalActionError, match="holding only TH, which you took"):
        play(s, "layoff 9H 4")
    assert s.view(0).to_dict() == before


def test_a_copy_of_the_card_just_taken_may_be_laid_off() -> None:
    """Seat 0 holds 7H and takes the other 7H: either copy may go onto the book of 7s, and the
    one left is then the player's own, free to be thrown or laid off."""
    s = table(
        ["7C 7D 7S 3C 4C 5C 6C 7H", "QC QD QS 5H 6H 8H 9H 7H"], "2D", "KS TH", round=2, dealer=1
    )
    play(s, "pass", "draw", "down 7C 7D 7S | 3C 4C 5C 6C", "discard KS")
    play(s, "draw", "discard 7H", "take")
    assert s.hands[0] == list(parse_cards("7H 7H"))
    # Neither 7H may be thrown yet: nobody could tell the twin from the card just taken.
    assert s.legal_actions() == [LayOff(C("7H"), 1)]
    before = s.view(0).to_dict()
    with pytest.raises(IllegalActionError, match="its twin cannot be thrown"):
        play(s, "discard 7H")
    assert s.view(0).to_dict() == before
    play(s, "layoff 7H 1")
    assert s.taken is None and set(s.legal_actions()) == {LayOff(C("7H"), 1), Discard(C("7H"))}
    play(s, "discard 7H")
    assert s.result is not None and s.result.winner == 0


def _holding_7h_when_7h_is_thrown(**options: Any) -> CrazyState:
    """Seat 0 is down with one card, 7H, and seat 1 throws the other 7H; the table (a book of
    8s, the run 3C-6C) takes no 7H."""
    s = table(
        ["8C 8D 8S 3C 4C 5C 6C 7H", "QC QD QS 5H 6H 8H 9H 7H"],
        "2D",
        "KS TH",
        round=2,
        dealer=1,
        **options,
    )
    play(s, "pass", "draw", "down 8C 8D 8S | 3C 4C 5C 6C", "discard KS", "draw", "discard 7H")
    assert s.hands[0] == [C("7H")] and s.to_act == 0 and s.phase is Phase.DRAW
    return s


def test_the_twin_of_a_card_held_alone_is_not_taken_when_it_could_never_be_thrown() -> None:
    s = _holding_7h_when_7h_is_thrown()
    assert s.legal_actions() == [Draw()]
    before = s.view(0).to_dict()
    with pytest.raises(IllegalActionError, match="would leave you only its twins"):
        play(s, "take")
    assert s.view(0).to_dict() == before
    conserved(s)


def test_a_house_rule_lets_the_twin_of_the_card_just_taken_be_thrown() -> None:
    s = _holding_7h_when_7h_is_thrown(discard_taken_twin=True)
    assert s.legal_actions() == [Take(), Draw()]
    play(s, "take")
    assert s.legal_actions() == [Discard(C("7H"))]
    play(s, "discard 7H")  # a turn that changed nothing: what the default rule prevents
    assert s.hands[0] == [C("7H")] and s.discard_pile[-1] == C("7H") and s.to_act == 1
    assert CrazyOptions().discard_taken_twin is False
    assert CrazyOptions.from_dict({"discard_taken_twin": True}).discard_taken_twin is True


@pytest.mark.parametrize("twin", [False, True])
def test_a_lay_down_leaving_the_card_just_taken_and_its_twin(twin: bool) -> None:
    """Seat 0 takes the up-card 7H holding the other 7H: laying down its contract would leave
    both 7H, which fit no meld. Refused by default (neither may be thrown), and the lay-down is
    not offered; with discard_taken_twin the twin is thrown and the lay-down stands."""
    s = table(
        ["8C 8D 8S 3C 4C 5C 6C 7H", "QC QD QS 5H 6H 8H 9H TD"],
        "7H",
        "KS TH",
        round=2,
        dealer=1,
        discard_taken_twin=twin,
    )
    play(s, "pass", "take")
    down = "down 8C 8D 8S | 3C 4C 5C 6C"
    assert (parse_action(down) in s.legal_actions()) is twin
    if not twin:
        before = s.view(0).to_dict()
        with pytest.raises(IllegalActionError, match="only 7H and its twin: you took 7H"):
            play(s, down)
        assert s.view(0).to_dict() == before
        return
    play(s, down)
    assert s.legal_actions() == [Discard(C("7H"))]


@pytest.mark.parametrize("twin", [False, True])
def test_a_swap_that_would_leave_the_joker_just_taken_and_its_twin_is_refused(twin: bool) -> None:
    """Seat 0 (down, holding 4H) takes a joker from the pile. Swapping 4H for the joker in a full
    run of hearts would leave two jokers, neither of which may be thrown (one was just taken,
    the other cannot be told from it), and a joker fits no meld on the table (the run is 13
    cards, the clubs run holds its one wild, books take none): refused, so the turn can always
    end. With discard_taken_twin the swap stands and a joker is thrown."""
    s = table(
        ["8C 8D 8S 3C 4C 5C 6C 4H", "QC QD QS 5S 6S 8H 9H X"],
        "2D",
        "KS TH",
        round=2,
        dealer=1,
        max_wilds_book=0,
        max_wilds_run=1,
        discard_taken_twin=twin,
    )
    play(s, "pass", "draw", "down 8C 8D 8S | 3C 4C 5C 6C", "discard KS")
    # A long round, set up at once: seat 1 owns a full run of hearts whose joker stands for 4H.
    s.table.append(TableMeld(Run.parse("AH 2H 3H X 5H 6H 7H 8H 9H TH JH QH KH"), 1))
    s.table[1] = TableMeld(Run.parse("3C X 5C 6C"), 0)
    s.laid_down[1] = True
    s.hands[1] = [C("QC"), JOKER]
    s.to_act = s.turn = 1
    play(s, "draw", "discard X", "take")
    swap = parse_action("swap 4H 3")
    assert (swap in s.legal_actions()) is twin
    if not twin:
        before = s.view(0).to_dict()
        with pytest.raises(IllegalActionError, match="would leave you holding only X and its twin"):
            play(s, "swap 4H 3")
        assert s.view(0).to_dict() == before
        assert s.legal_actions() == [Discard(C("4H"))]
        return
    play(s, "swap 4H 3")
    assert s.legal_actions() == [Discard(JOKER)]


def test_a_lay_down_may_leave_the_card_just_taken_when_it_fits_the_table() -> None:
    s = table(
        ["3C 3D 3S 3H 4C 5C 6C 7C", "QC QD QS 5H 6H 7H 8H 9H"], "2D", "KS JD", round=2, dealer=1
    )
    play(s, "pass", "draw", "discard KS", "draw", "down QC QD QS | 5H 6H 7H 8H", "discard 9H")
    play(s, "take")
    play(s, "down 3C 3D 3H 3S | 4C 5C 6C 7C")  # leaves only the 9H just taken: it fits 5H-8H
    play(s, "layoff 9H 2")
    assert s.result is not None and s.result.winner == 0


def test_down_must_be_exactly_the_contract() -> None:
    hands = ["7S 9H 9D 4S KC KD QH", "7H 7D X 2S 8C 8C 8D"]
    s = table(hands, "4C", "8S 5D", round=1)
    play(s, "pass", "draw")  # seat 1 draws 8S
    with pytest.raises(IllegalActionError, match="exactly 2 books"):
        play(s, "down 7H 7D X")
    with pytest.raises(IllegalActionError, match="7H 7D 8S: "):
        play(s, "down 7H 7D 8S | 8C 8C 8D")
    with pytest.raises(IllegalActionError, match="too many wilds"):
        s.verify(Down((parse_cards("7H 7D X 2S"), parse_cards("8C 8C 8D"))))
    with pytest.raises(IllegalActionError, match="not in your hand"):
        play(s, "down 7H 7D 7S | 8C 8C 8D")
    play(s, "down 7H 7D X | 8C 8C 8D 8S")  # a longer book is fine
    with pytest.raises(IllegalActionError, match="already"):
        play(s, "down 7H 7D X | 8C 8C 8D 8S")


@pytest.mark.parametrize(
    ("round", "down", "says"),
    [
        # a round of books: three 2s, or a natural and two wilds, are books gone wrong
        (1, "down 2C 2D 2H | 8C 8C 8D", "2C 2D 2H: a book needs natural cards"),
        (1, "down 7H X 2S | 8C 8C 8D", "7H X 2S: too many wilds in a book"),
        # a round of runs: a short group is a run gone wrong
        (3, "down 2C 2D 2H | 4C 5C 6C 7C", "2C 2D 2H: a run needs at least 4 cards"),
        # book and run: three cards cannot be a run, four of one suit can
        (2, "down 2C 2D 2H | 4C 5C 6C 7C", "2C 2D 2H: a book needs natural cards"),
        (2, "down 8C 8C 8D | 4C 5C 7H 8H", "4C 5C 7H 8H: the natural cards of a run"),
    ],
)
def test_a_meld_that_is_neither_is_explained_as_the_kind_the_contract_asks(
    round: int, down: str, says: str
) -> None:
    s = Crazy().new_hand(players=2, seed=1, round=round)
    play(s, "pass", "draw")
    assert (s.phase, s.to_act) == (Phase.DISCARD, 1)
    # white-box: a hand holding every group tried (the deal is not checked again)
    s.hands[1] = list(parse_cards("2C 2D 2H 8C 8C 8D 4C 5C 6C 7C 7H X 2S 8H"))
    before = s.view(1).to_dict()
    with pytest.raises(IllegalActionError, match=re.escape(says)):
        play(s, down)
    assert s.view(1).to_dict() == before


@pytest.mark.parametrize(
    ("run", "ok"),
    [
        ("JH QH KH AH", True),
        ("AH 2H 3H 4H", True),
        ("QH KH AH 2H", False),
        ("KH AH 2H 3H", False),
        ("AH 2H X 2C 5H", True),
        ("X X 5H 6H", True),
        ("X 2C 2D 6H 7H", False),
    ],
)
def test_runs_ace_high_and_low_no_wrap_and_natural_twos(run: str, ok: bool) -> None:
    # round 2: one book and one run
    cards = run.split()
    book = "9C 9D 9S"
    filler = ["3D", "3S", "4D", "4S"][: 8 - 3 - len(cards)] if len(cards) < 5 else []
    hand = " ".join([*cards, *book.split(), *filler][:8])
    s = table([hand, "5C 5D 5S 6C 6D 6S 7C 7D"], "KS", "QS JS", round=2, dealer=1)
    play(s, "pass", "draw")
    action = Down((parse_cards(run), parse_cards(book)))
    assert s.can(action) is ok
    if ok:
        s.apply(action)
        placed = s.table[0].meld
        assert isinstance(placed, Run)
        if run.startswith("AH 2H"):
            assert placed.is_wild_at(1) is False  # the 2H is natural in its own place


# ---------------------------------------------------------------------------- stock running out


def test_empty_stock_reshuffles_the_discards_except_the_top() -> None:
    s = table(FOUR[:2], "KD", "AS QS")
    play(s, "pass", "draw", "discard 9D")
    # white-box: move the whole stock under the top discard, so the stock has run out
    s.discard_pile = [*s.stock, *s.discard_pile]
    s.stock = []
    pile = list(s.discard_pile)
    play(s, "draw")
    assert s.discard_pile == [pile[-1]]
    assert Counter(s.stock) + Counter([s.hands[0][-1]]) == Counter(pile[:-1])
    conserved(s)


def test_no_card_anywhere_ends_the_round_with_everyone_scoring() -> None:
    s = table(FOUR[:2], "KD", "AS QS")
    play(s, "pass", "draw", "discard 9D")
    s.stock = []
    s.discard_pile = s.discard_pile[-1:]
    play(s, "draw")
    r = s.result
    assert r is not None and r.outcome is CrazyOutcome.STOCK_OUT and r.winner is None
    assert r.points == tuple(hand_points(h) for h in s.hands)


def test_card_points() -> None:
    assert [crazy_points(c) for c in parse_cards("AS 2S 3S 8S 9S TS JS QS KS X")] == [
        15,
        20,
        5,
        5,
        10,
        10,
        10,
        10,
        10,
        20,
    ]


def test_views_hide_hands_and_stock() -> None:
    s = Crazy().new_hand(players=4, seed=11, round=7)
    v = s.view(2).to_dict()
    assert v["hand_sizes"] == [13, 13, 13, 13] and v["stock_size"] == len(s.stock)
    assert v["contract"] == {"books": 0, "runs": 3}
    assert Counter(v["hand"]) == Counter(str(c) for c in s.hands[2])
    text = str(v)
    for seat in (0, 1, 3):
        for card in set(s.hands[seat]) - set(s.hands[2]) - set(s.discard_pile):
            assert f"'{card}'" not in text
    assert v["legal_actions"] == [] and s.view(0).legal_actions == (Take(), Pass())


# ------------------------------------------------------------------------------- random play


def check(state: CrazyState) -> None:
    conserved(state)
    rules = state.rules
    for t in state.table:
        meld = t.meld
        again = Book.of(meld.cards, rules) if isinstance(meld, Book) else Run.of(meld.cards, rules)
        assert again == meld


def play_game(match: CrazyMatch, rng: random.Random, check_every: int = 0) -> int:
    steps = 0
    while not match.is_over:
        if match.hand.is_over:
            match.next_hand()
        state = match.hand
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if check_every and steps % check_every == 0:
            for action in legal:
                assert state.can(action), action
        plays = [a for a in legal if isinstance(a, Down | LayOff | Swap)]
        choice = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal)
        match.apply(choice)
        check(state)
        steps += 1
        assert steps < 20000
    return steps


@pytest.mark.slow
@settings(max_examples=examples(8), deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_random_games_keep_every_invariant(players: int, seed: int) -> None:
    match = Crazy().new_match(players=players, seed=seed, dealer=seed % players)
    play_game(match, random.Random(seed), check_every=3)
    r = match.result
    assert r is not None and len(match.hands) == 7
    assert [h.round for h in match.hands] == list(range(1, 8))
    assert [h.dealer for h in match.hands] == [(seed % players + i) % players for i in range(7)]
    for h in match.hands:
        res = h.result
        assert res is not None
        assert res.points == tuple(hand_points(x) for x in h.hands)
        if res.outcome is CrazyOutcome.OUT:
            assert res.winner is not None and res.points[res.winner] == 0
    assert r.totals == tuple(sum(rnd[i] for rnd in r.rounds) for i in range(players))
    assert r.winners == tuple(i for i, t in enumerate(r.totals) if t == min(r.totals))


@pytest.mark.slow
def test_many_random_games_end() -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(20):
        players = 2 + seed % 5
        match = Crazy().new_match(players=players, seed=seed)
        play_game(match, random.Random(seed))
        outcomes.update(h.result.outcome.value for h in match.hands if h.result)
    assert outcomes["out"] > 40


def test_illegal_actions_change_nothing() -> None:
    s = table(ROUND3, "KS", "KC 3C", round=3)
    before = (list(map(list, s.hands)), list(s.stock), list(s.discard_pile), s.phase, s.to_act)
    for text in [
        "draw",
        "buy",
        "discard 4S",
        "down 4S 5S 6S 7S | 9D TD JD QD",
        "swap 6H 1",
        "layoff X 1 low",
    ]:
        with pytest.raises(IllegalActionError):
            play(s, text)
        assert (
            list(map(list, s.hands)),
            list(s.stock),
            list(s.discard_pile),
            s.phase,
            s.to_act,
        ) == before
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        s.apply(Pass(), 1)
    with pytest.raises(ValueError, match="rounds 1 to 7"):
        Crazy().new_hand(round=8)
    with pytest.raises(ValueError, match="2 to 6 players"):
        Crazy().new_hand(players=7)
    assert Discard(C("4S")) not in s.legal_actions()


@pytest.mark.parametrize(
    ("name", "high"),
    [
        ("jokers", 4),
        ("max_wilds_run", 6),
        ("max_wilds_book", 8),
        ("penalty_cards", 5),
        ("max_buys_per_round", 100),
        ("max_restocks", 100),
    ],
)
def test_numeric_options_are_bounded(name: str, high: int) -> None:
    for value in (0, high):
        assert getattr(CrazyOptions.from_dict({name: value}), name) == value
    for value in (-1, high + 1):
        with pytest.raises(ValueError, match=rf"option {name} must be .* from 0 to {high}"):
            CrazyOptions.from_dict({name: value})
    if name in ("max_buys_per_round", "max_restocks"):
        assert getattr(CrazyOptions.from_dict({name: "unlimited"}), name) is None


def test_a_huge_joker_count_is_refused_before_dealing() -> None:
    with pytest.raises(ValueError, match="option jokers must be a whole number from 0 to 4"):
        find_game("crazy", {"jokers": 3_000_000})
    s = Crazy(CrazyOptions(jokers=4)).new_hand(players=4, seed=1)
    assert sum(len(h) for h in s.hands) + len(s.stock) + len(s.discard_pile) == 108


def test_restock_limit_ends_a_round_that_cannot_end() -> None:
    for limit, ends in ((0, True), (1, False)):
        s = table(FOUR[:2], "KD", "AS QS", max_restocks=limit)
        play(s, "pass", "draw", "discard 9D")
        s.discard_pile = [*s.stock, *s.discard_pile]
        s.stock = []
        play(s, "draw")
        assert s.is_over is ends
        if ends:
            r = s.result
            assert r is not None and r.outcome is CrazyOutcome.STOCK_OUT
        else:
            assert s.restocks == 1
    assert CrazyOptions.from_dict({"max_restocks": "unlimited"}).max_restocks is None
    assert CrazyOptions(max_restocks=None).to_dict()["max_restocks"] == "unlimited"
    with pytest.raises(ValueError, match="max_restocks"):
        CrazyOptions(max_restocks=-1)


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5))
def test_a_known_card_thrown_is_no_longer_known_whatever_copy_was_thrown(
    seed: int, players: int
) -> None:
    # With two packs a player may hold a second, hidden copy of a card it took. When it throws
    # that card, nobody can tell which copy went: the others' view must not say it still holds
    # one (it once did exactly when the hidden copy was there).
    state: Any = find_game("crazy").new_hand(players=players, seed=seed, dealer=0)
    rng = random.Random(seed)
    thrown = 0
    while not state.is_over and thrown < 12:
        legal = state.legal_actions()
        seat = state.to_act
        assert seat is not None
        known = list(state.view((seat + 1) % players).known_cards[seat])
        takes = [a for a in legal if isinstance(a, Take | Buy)]
        throws = [a for a in legal if isinstance(a, Discard) and a.card in known]
        if throws:
            action: Any = throws[0]
        else:
            action = rng.choice(takes) if takes and rng.random() < 0.6 else rng.choice(legal)
        state.apply(action)
        for other in range(players):
            shown = state.view(other).known_cards
            for holder in range(players):  # what anyone is said to hold, it holds
                assert not Counter(shown[holder]) - Counter(state.hands[holder])
        if isinstance(action, Discard) and action.card in known:
            thrown += 1
            after = state.view((seat + 1) % players).known_cards[seat]
            assert list(after).count(action.card) == known.count(action.card) - 1
