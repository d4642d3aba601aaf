"""Gin Rummy: every rule of RULES.md section 2, illegal actions, views, and random-play invariants."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import (
    Action,
    BigGin,
    Discard,
    Done,
    Draw,
    Knock,
    LayOff,
    Pass,
    Take,
    parse_action,
)
from rummykit.cards import STANDARD_PACK, Card, parse_natural_cards
from rummykit.games import IllegalActionError, Phase, find_game
from rummykit.games.gin import (
    Gin,
    GinDeal,
    GinMatch,
    GinOptions,
    GinState,
    NextDealer,
    Outcome,
    gin_hand_from_cards,
)
from rummykit.melds import Meld

C = Card.parse

# Seat 0 deals; seat 1 (non-dealer) holds three melds and KS.
KNOCKER = "3H 4H 5H 7C 7D 7S 9D TD JD KS"
DEFENDER = "2C 3C 4C 6H QH QD QC 8S 9S AS"


def rest_of_pack(*used: str) -> str:
    taken = {c for text in used for c in parse_natural_cards(text)}
    return " ".join(str(c) for c in STANDARD_PACK if c not in taken)


def scripted(stock_top: str = "6S 2H", up: str = "KD", **options: Any) -> GinState:
    stock = stock_top + " " + rest_of_pack(KNOCKER, DEFENDER, up, stock_top)
    return gin_hand_from_cards(
        [DEFENDER, KNOCKER], up, stock, dealer=0, options=GinOptions(**options)
    )


def snapshot(state: GinState) -> tuple[Any, ...]:
    return (
        [list(h) for h in state.hands],
        list(state.stock),
        list(state.discard_pile),
        state.phase,
        state.to_act,
        state.offer_passes,
        state.stock_only,
        state.taken,
        [list(k) for k in state.known],
        list(state.history),
        state.knocker,
        list(state.knock_melds),
        list(state.layoffs),
        state.result,
    )


def play(state: GinState, *actions: str) -> None:
    """Apply actions written in notation, in order."""
    for text in actions:
        state.apply(parse_action(text))


def every_action(state: GinState) -> list[Action]:
    pool: list[Action] = [Draw(), Take(), Pass(), Done(), BigGin()]
    for card in STANDARD_PACK:
        pool += [Discard(card), Knock(card)]
        pool += [LayOff(card, i) for i in range(1, 5)]
    return pool


# ----------------------------------------------------------------------------------- the deal


def test_seeded_deal_is_reproducible_and_complete() -> None:
    a, b = Gin().new_hand(seed=11), Gin().new_hand(seed=11)
    assert a.hands == b.hands and a.stock == b.stock and a.discard_pile == b.discard_pile
    assert [len(h) for h in a.hands] == [10, 10]
    assert len(a.stock) == 31 and len(a.discard_pile) == 1
    assert Gin().new_hand(seed=12).hands != a.hands


def test_explicit_deal_must_be_exactly_one_pack() -> None:
    up = "KD"
    with pytest.raises(ValueError, match="missing"):
        gin_hand_from_cards([DEFENDER, KNOCKER], up, "6S 2H")
    with pytest.raises(ValueError, match="holds 3H 2 times; the pack only once"):
        gin_hand_from_cards(
            [DEFENDER, KNOCKER], "3H", rest_of_pack(KNOCKER, DEFENDER, "KD") + " KD"
        )
    with pytest.raises(ValueError, match="10 are dealt here"):
        Gin().new_hand(deal=GinDeal.from_dict({"hands": [["AS"], ["2S"]], "up": "3S", "stock": []}))
    with pytest.raises(ValueError, match="not in this game's pack"):
        stock = [*rest_of_pack(KNOCKER, DEFENDER, "KD").split(), "X"]
        data = {"hands": [DEFENDER.split(), KNOCKER.split()], "up": "KD", "stock": stock}
        Gin().new_hand(deal=GinDeal.from_dict(data))


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [
        ("knock_limit", 0, 100),
        ("target_score", 1, 10_000),
        ("gin_bonus", 0, 1_000),
        ("big_gin_bonus", 0, 1_000),
        ("undercut_bonus", 0, 1_000),
        ("game_bonus", 0, 1_000),
        ("box_bonus", 0, 1_000),
    ],
)
def test_numeric_options_are_bounded(name: str, low: int, high: int) -> None:
    for value in (low, high):
        assert getattr(GinOptions.from_dict({name: value}), name) == value
    for value in (low - 1, high + 1):
        with pytest.raises(ValueError, match=rf"option {name} must be .* from {low} to {high}"):
            GinOptions.from_dict({name: value})


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="knock_limit"):
        GinOptions(knock_limit=-1)
    with pytest.raises(ValueError, match="next_dealer"):
        GinOptions(next_dealer="loser")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole number"):
        GinOptions(target_score="100")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown Gin option"):
        GinOptions.from_dict({"knocklimit": 5})
    assert GinOptions.from_dict(GinOptions(big_gin=True).to_dict()) == GinOptions(big_gin=True)
    assert isinstance(find_game("GIN"), Gin)
    with pytest.raises(ValueError, match="known"):
        find_game("poker")


# ------------------------------------------------------------------------------ first turn


def test_offer_non_dealer_then_dealer_then_stock_only() -> None:
    s = scripted()
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.OFFER, 1, [Take(), Pass()])
    with pytest.raises(IllegalActionError, match="take it or pass"):
        s.draw()
    s.pass_()
    assert (s.phase, s.to_act) == (Phase.OFFER, 0)
    s.pass_()
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.DRAW, 1, [Draw()])
    with pytest.raises(IllegalActionError, match="from the stock"):
        s.take()
    s.draw()
    assert C("6S") in s.hands[1]


def test_taking_the_up_card_is_the_draw_and_it_cannot_be_thrown() -> None:
    s = scripted()
    s.take()
    assert (s.phase, s.to_act, s.taken) == (Phase.DISCARD, 1, C("KD"))
    assert Discard(C("KD")) not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="just taken"):
        s.discard("KD")
    with pytest.raises(IllegalActionError, match="just taken"):
        s.knock("KD")
    # seat 1 can knock at once: it holds three melds + KS + KD.
    assert Knock(C("KS")) in s.legal_actions()
    s.discard("KS")
    assert (s.phase, s.to_act, s.top_discard) == (Phase.DRAW, 0, C("KS"))
    assert s.view(0).known_cards[1] == (C("KD"),)


def test_dealer_may_take_after_non_dealer_passes() -> None:
    s = scripted()
    s.pass_()
    s.take()
    assert (s.phase, s.to_act) == (Phase.DISCARD, 0)
    s.discard("AS")
    assert (s.phase, s.to_act, s.legal_actions()) == (Phase.DRAW, 1, [Draw(), Take()])


def test_wrong_seat_and_wrong_phase_are_refused() -> None:
    s = scripted()
    with pytest.raises(IllegalActionError, match="not seat 0's turn"):
        s.apply(Pass(), seat=0)
    with pytest.raises(IllegalActionError, match="draw a card"):
        s.discard("KS")
    with pytest.raises(IllegalActionError, match="after the other player knocks"):
        s.lay_off("KS", 1)
    with pytest.raises(IllegalActionError, match="not in your hand"):
        play(s, "pass", "pass", "draw", "discard QH")


# ----------------------------------------------------------------------------- knock, score


def test_scripted_knock_with_a_lay_off() -> None:
    s = scripted()
    play(s, "pass", "pass", "draw")  # seat 1 draws 6S
    assert Knock(C("KS")) in s.legal_actions()
    assert Knock(C("3H")) not in s.legal_actions()  # breaking a run leaves 6 + 10 + 3 > 10
    with pytest.raises(IllegalActionError, match="deadwood would be"):
        s.knock("9D")
    s.knock("KS")
    assert (s.phase, s.to_act, s.knocker) == (Phase.LAYOFF, 0, 1)
    assert sorted(str(m) for m in s.knock_melds) == ["3H 4H 5H", "7C 7D 7S", "9D TD JD"]
    run = 1 + [str(m) for m in s.knock_melds].index("3H 4H 5H")
    assert LayOff(C("6H"), run) in s.legal_actions()
    assert s.best_layoffs() == [LayOff(C("6H"), run), Done()]
    with pytest.raises(IllegalActionError, match="does not fit"):
        s.lay_off("8S", run)
    with pytest.raises(IllegalActionError, match="no meld number 4"):
        s.lay_off("6H", 4)
    s.lay_off("6H", run)
    assert str(s.knock_melds[run - 1]) == "3H 4H 5H 6H"
    s.done()
    r = s.result
    assert r is not None and s.is_over and s.legal_actions() == []
    assert (r.outcome, r.winner, r.knocker, r.deadwood, r.points) == (
        Outcome.KNOCK,
        1,
        1,
        (18, 6),
        12,
    )
    assert r.layoffs == ((C("6H"), run),)
    with pytest.raises(IllegalActionError, match="over"):
        s.draw()


def test_undercut_including_a_tie() -> None:
    # The defender (seat 0) holds 9 points of deadwood after laying off; the knocker holds 9.
    knocker = "3H 4H 5H 7C 7D 7S 9D TD JD 9C"
    defender = "2C 3C 4C QH QD QC KS KD KH 9H"
    stock = "AS 2H " + rest_of_pack(knocker, defender, "8C", "AS 2H")
    s = gin_hand_from_cards([defender, knocker], "8C", stock, dealer=0)
    play(s, "pass", "pass", "draw")  # AS
    s.knock("AS")
    assert s.knock_arrangement is not None and s.knock_arrangement.deadwood == 9
    s.done()
    r = s.result
    assert r is not None
    assert (r.outcome, r.winner, r.points, r.bonus) == (Outcome.UNDERCUT, 0, 0 + 25, 25)


def test_gin_scores_bonus_and_allows_no_lay_offs() -> None:
    s = scripted(stock_top="8D 2H")
    play(s, "pass", "pass", "draw")  # 8D joins 9D TD JD
    s.knock("KS")
    r = s.result
    assert s.is_over and r is not None
    # defender: 2C3C4C QHQDQC + 6H 8S 9S AS = 24; no lay-off of 6H allowed after gin.
    assert (r.outcome, r.winner, r.points, r.bonus, r.deadwood) == (
        Outcome.GIN,
        1,
        25 + 24,
        25,
        (24, 0),
    )
    assert r.layoffs == ()


BIG_GIN_HAND = "3H 4H 5H 7C 7D 7S 9D TD JD 8D"


def big_gin_deal(big_gin: bool) -> GinState:
    stock = "2H 2S " + rest_of_pack(BIG_GIN_HAND, DEFENDER, "KC", "2H 2S")
    options = GinOptions(big_gin=big_gin)
    s = gin_hand_from_cards([DEFENDER, BIG_GIN_HAND], "KC", stock, options=options)
    play(s, "pass", "pass", "draw")  # 2H: eleven cards in melds
    return s


def test_big_gin_is_an_option() -> None:
    s = big_gin_deal(False)
    assert BigGin() not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="big_gin"):
        s.apply(BigGin())
    assert BigGin() in big_gin_deal(True).legal_actions()


def test_big_gin_scores_its_bonus() -> None:
    s = big_gin_deal(True)
    s.apply(BigGin())
    r = s.result
    assert r is not None and (r.outcome, r.points, r.bonus) == (Outcome.BIG_GIN, 31 + 24, 31)
    assert r.deadwood == (24, 0) and len(s.hands[1]) == 11


def test_big_gin_needs_every_card_melded() -> None:
    s = scripted(big_gin=True)
    play(s, "pass", "pass", "draw")
    with pytest.raises(IllegalActionError, match="all eleven"):
        s.apply(BigGin())


def test_knock_limit_option() -> None:
    s = scripted(knock_limit=5)
    play(s, "pass", "pass", "draw")  # 6S: deadwood 6 after throwing KS
    assert not any(isinstance(a, Knock) for a in s.legal_actions())
    s = scripted(knock_limit=6)
    play(s, "pass", "pass", "draw")
    assert [a for a in s.legal_actions() if isinstance(a, Knock)] == [Knock(C("KS"))]


def test_named_arrangement_must_be_a_best_one() -> None:
    s = scripted()
    play(s, "pass", "pass", "draw")
    with pytest.raises(IllegalActionError, match="leave"):
        s.knock("KS", [Meld.parse("3H 4H 5H"), Meld.parse("7C 7D 7S")])
    with pytest.raises(IllegalActionError, match="not in your hand"):
        s.knock("KS", [Meld.parse("3H 4H 5H"), Meld.parse("7C 7D 7H"), Meld.parse("9D TD JD")])
    melds = [Meld.parse("9D TD JD"), Meld.parse("3H 4H 5H"), Meld.parse("7C 7D 7S")]
    s.knock("KS", melds)
    assert s.knock_melds == melds


@pytest.mark.parametrize(
    ("hand", "discard"),
    [("6S 7S 8S 9S 8C 8D 8H 3D AH 7D 7H", "9S"), ("7D 8D 9D 9S 9C 9H AC 2S TD 8C 8S", "TD")],
)
def test_knocks_openspiel_refuses_are_legal(hand: str, discard: str) -> None:
    cards = hand.split()
    drawn = cards.pop(cards.index(discard))
    held = " ".join(cards)
    free = [str(c) for c in STANDARD_PACK if str(c) not in hand.split() and str(c) != "KS"]
    other = " ".join(free[:10])
    stock = drawn + " " + rest_of_pack(held, other, "KS", drawn)
    s = gin_hand_from_cards([other, held], "KS", stock, dealer=0)
    play(s, "pass", "pass", "draw")
    assert Knock(C(discard)) in s.legal_actions()
    s.knock(discard)
    assert s.knock_arrangement is not None and s.knock_arrangement.deadwood == 10


# --------------------------------------------------------------------------------- the wall


def play_to_the_wall(seed: int) -> GinState:
    s = Gin(GinOptions(knock_limit=0)).new_hand(seed=seed)
    play(s, "pass", "pass")
    while not s.is_over:
        if s.phase is Phase.DRAW:
            s.draw()
        else:
            hand = s.hands[s.to_act or 0]
            s.discard(hand[-1])  # throws what it drew: no gin possible with a fixed hand
    return s


def test_the_wall_cancels_the_hand() -> None:
    s = play_to_the_wall(3)
    assert len(s.stock) == 2
    assert (
        s.result is not None and s.result.outcome is Outcome.CANCELLED and s.result.winner is None
    )


# ------------------------------------------------------------------------------------ views


def test_view_hides_the_other_hand_and_the_stock() -> None:
    s = scripted()
    play(s, "take", "discard KS")
    v = s.view(0)
    assert set(v.hand) == set(parse_natural_cards(DEFENDER))
    assert v.hand_sizes == (10, 10) and v.stock_size == 31
    assert v.known_cards == ((), (C("KD"),))
    text = str(v.to_dict())
    for card in s.hands[1]:
        if card is not C("KD"):
            assert f"'{card}'" not in text
    for card in s.stock:
        assert f"'{card}'" not in text
    assert v.legal_actions == (Draw(), Take()) and s.view(1).legal_actions == ()


def test_knock_card_stays_face_down_for_the_defender() -> None:
    s = scripted()
    play(s, "pass", "pass", "draw", "knock KS")
    v = s.view(0)
    assert "KS" not in str(v.to_dict()["history"]) and C("KS") not in v.discard_pile
    assert str(s.view(1).history[-1][1]) == "knock KS"
    assert [str(c) for c in v.knock_deadwood] == ["6S"]


# ------------------------------------------------------------------------------------ match


def finish_hand(match: GinMatch, winner: int, points: int) -> None:
    """Drive the current hand to a knock scoring ``points`` for ``winner`` (test helper)."""
    from rummykit.games.gin import GinHandResult

    hand = match.hand
    hand.phase = Phase.HAND_OVER
    hand.to_act = None
    hand.result = GinHandResult(
        Outcome.KNOCK, winner, points, 0, winner, (0, 0), ((), ()), ((), ()), ()
    )
    match._settle()


def test_match_bonuses_and_shutout() -> None:
    m = Gin().new_match(seed=1)
    finish_hand(m, 0, 60)
    assert not m.is_over and m.next_dealer() == 0
    m.next_hand()
    finish_hand(m, 0, 45)
    r = m.result
    assert r is not None
    assert (r.winner, r.hand_points, r.boxes, r.game_bonus, r.box_bonus) == (
        0,
        (105, 0),
        (2, 0),
        (100, 0),
        (50, 0),
    )
    assert r.shutout and r.totals == ((105 + 100 + 50) * 2, 0)
    with pytest.raises(IllegalActionError, match="over"):
        m.next_hand()


def test_match_without_shutout_and_alternating_dealer() -> None:
    m = Gin(GinOptions(next_dealer=NextDealer.ALTERNATE, target_score=50)).new_match(seed=1)
    finish_hand(m, 1, 20)
    assert m.next_dealer() == 1
    m.next_hand()
    finish_hand(m, 0, 55)
    r = m.result
    assert r is not None and not r.shutout
    assert r.totals == (55 + 100 + 25, 20 + 25)


def test_cancelled_hand_is_dealt_again_by_the_same_dealer() -> None:
    m = Gin().new_match(seed=5, dealer=1)
    with pytest.raises(IllegalActionError, match="not over"):
        m.next_hand()
    hand = m.hand
    hand.phase, hand.to_act = Phase.HAND_OVER, None
    hand._finish_cancelled()
    assert m.next_dealer() == 1
    assert m.next_hand().dealer == 1


def test_real_match_to_100_plays_out() -> None:
    rng = random.Random(4)
    m = Gin().new_match(seed=4)
    while not m.is_over:
        if m.hand.is_over:
            m.next_hand()
        m.apply(rng.choice(m.hand.legal_actions()))
    r = m.result
    assert r is not None
    assert r.hand_points[r.winner] >= 100 > r.hand_points[1 - r.winner]
    assert sum(r.boxes) == sum(1 for h in m.hands if h.result and h.result.winner is not None)
    v = m.view(1)
    assert v.scores == r.hand_points and v.result == r and v.hand_number == len(m.hands)
    assert v.hand.hand == tuple(sorted(m.hand.hands[1], key=lambda c: c.index))
    assert v.to_dict()["result"]["totals"] == list(r.totals)


# ------------------------------------------------------------------------- random invariants


def conserved(s: GinState) -> None:
    cards = [*s.hands[0], *s.hands[1], *s.stock, *s.discard_pile, *(c for c, _ in s.layoffs)]
    if s.knock_card is not None:
        cards.append(s.knock_card)
    assert sorted(c.index for c in cards) == list(range(52))


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_random_hands_refuse_exactly_the_illegal_actions(seed: int, big_gin: bool) -> None:
    """At every step: can() agrees with legal_actions(), and refused actions change nothing."""
    rng = random.Random(seed)
    s = Gin(GinOptions(big_gin=big_gin)).new_hand(seed=seed, dealer=seed % 2)
    steps = 0
    while not s.is_over:
        legal = s.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if steps % 7 == 0:  # the full check is slow; sample the steps
            before = snapshot(s)
            for action in every_action(s):
                if action in legal:
                    assert s.can(action)
                else:
                    assert not s.can(action), action
                    with pytest.raises(IllegalActionError):
                        s.apply(action)
                    assert snapshot(s) == before
        s.apply(rng.choice(legal), seat=s.to_act)
        conserved(s)
        steps += 1
        assert steps < 200
    assert s.result is not None


@pytest.mark.slow
def test_thousands_of_random_hands_conserve_cards_and_score_consistently() -> None:
    outcomes: dict[Outcome, int] = {}
    for seed in range(2000):
        rng = random.Random(seed)
        s = Gin().new_hand(seed=seed, dealer=seed % 2)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        conserved(s)
        r = s.result
        assert r is not None
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
        if r.outcome is Outcome.CANCELLED:
            assert len(s.stock) == 2 and r.points == 0
            continue
        assert r.knocker is not None
        kd, dd = r.deadwood[r.knocker], r.deadwood[1 - r.knocker]
        assert kd <= 10
        if r.outcome is Outcome.KNOCK:
            assert r.winner == r.knocker and r.points == dd - kd > 0
        elif r.outcome is Outcome.UNDERCUT:
            assert r.winner == 1 - r.knocker and r.points == kd - dd + 25
        else:
            assert r.outcome is Outcome.GIN and kd == 0 and r.points == 25 + dd
        for seat in (0, 1):
            held = set(s.hands[seat])
            assert {c for m in r.melds[seat] for c in m.cards} | set(r.unmatched[seat]) == held
            assert sum(c.points for c in r.unmatched[seat]) == r.deadwood[seat]
    assert set(outcomes) >= {Outcome.KNOCK, Outcome.GIN, Outcome.CANCELLED}
