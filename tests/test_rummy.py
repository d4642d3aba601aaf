"""Basic Rummy: the worked example of RULES.md, every rule's legal and refused case, random play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import Action, Discard, Draw, LayOff, NewMeld, Take, parse_action
from rummykit.cards import STANDARD_PACK, Card, parse_natural_cards
from rummykit.games import IllegalActionError, Phase
from rummykit.games.deal import Deal
from rummykit.games.rummy import (
    PRESETS,
    Restock,
    Rummy,
    RummyOptions,
    RummyOutcome,
    RummyState,
    Stranding,
    hand_size,
    melds_in,
    rummy_hand_from_cards,
)
from rummykit.players import find_player

C = Card.parse

# The worked example (from source 001): An is seat 0, Binh (seat 1) deals, An starts.
AN = "7S 7D 7C KD 3H 4H 5H 9C TC JC"
BINH = "2S 2C 2D 8H 9H TH QS QH AS 6H"
UP = "7H"
STOCK_TOP = "AC 8C 3S 9S 4S QC"
EXAMPLE = [
    (0, "take"),
    (0, "meld 7S 7D 7C 7H"),
    (0, "discard KD"),
    (1, "draw"),
    (1, "meld 8H 9H TH"),
    (1, "discard QS"),
    (0, "draw"),
    (0, "meld 3H 4H 5H"),
    (0, "discard 8C"),
    (1, "draw"),
    (1, "meld 2S 2C 2D"),
    (1, "discard QH"),
    (0, "draw"),
    (0, "meld 9C TC JC"),
    (0, "discard 9S"),
]


def rest(*used: str) -> str:
    taken = {c for text in used for c in parse_natural_cards(text)}
    return " ".join(str(c) for c in STANDARD_PACK if c not in taken)


def example(preset: str = "rummy", **overrides: Any) -> RummyState:
    options = RummyOptions.from_dict(overrides, PRESETS[preset])
    stock = STOCK_TOP + " " + rest(AN, BINH, UP, STOCK_TOP)
    return rummy_hand_from_cards([AN, BINH], UP, stock, dealer=1, options=options)


def play(state: RummyState, *moves: tuple[int, str] | str) -> None:
    for move in moves:
        seat, text = move if isinstance(move, tuple) else (state.to_act, move)
        state.apply(parse_action(text), seat)


def snapshot(s: RummyState) -> tuple[Any, ...]:
    return (
        [list(h) for h in s.hands],
        list(s.stock),
        list(s.discard_pile),
        list(s.table),
        s.phase,
        s.to_act,
        s.taken,
        s.melds_this_turn,
        s.restocks,
        list(s.played_before),
        s.played_this_turn,
        list(s.history),
        s.result,
    )


# ----------------------------------------------------------------------------- worked example


def test_worked_example_move_by_move() -> None:
    s = example()
    assert (s.to_act, s.phase) == (0, Phase.DRAW)
    sizes = []
    for seat, text in EXAMPLE:
        s.apply(parse_action(text), seat)
        sizes.append((len(s.hands[0]), len(s.hands[1])))
    assert sizes == [
        (11, 10),
        (7, 10),
        (6, 10),
        (6, 11),
        (6, 8),
        (6, 7),
        (7, 7),
        (4, 7),
        (3, 7),
        (3, 8),
        (3, 5),
        (3, 4),
        (4, 4),
        (1, 4),
        (0, 4),
    ]
    r = s.result
    assert s.is_over and r is not None
    assert (r.outcome, r.winner, r.points, r.rummy) == (RummyOutcome.OUT, 0, 11, False)
    assert set(r.remaining[1]) == set(parse_natural_cards("AS 6H AC 3S"))
    assert r.hand_values == (0, 11) and r.scores == (11, 0)
    assert [str(t) for t in s.table] == [
        "7C 7D 7H 7S",
        "8H 9H TH",
        "3H 4H 5H",
        "2C 2D 2S",
        "9C TC JC",
    ]
    assert [t.owner for t in s.table] == [0, 1, 0, 1, 0]


def test_worked_example_second_meld_legal_only_in_classic() -> None:
    second = NewMeld(parse_natural_cards("3H 4H 5H"))
    for preset, legal in (("rummy", False), ("rummy-classic", True)):
        s = example(preset)
        play(s, "take", "meld 7S 7D 7C 7H")
        assert (second in s.legal_actions()) is legal
        if legal:
            s.apply(second)
            assert len(s.hands[0]) == 4
        else:
            with pytest.raises(IllegalActionError, match="only 1 new meld a turn"):
                s.apply(second)
            # a lay-off is not a meld: still allowed after the turn's one meld
            assert s.can(LayOff(C("3H"), 1)) is False  # 3H does not fit the 7s
            assert len(s.hands[0]) == 7


# ------------------------------------------------------------------------------ every rule


def test_hand_sizes_and_presets() -> None:
    assert [hand_size(n) for n in range(2, 7)] == [10, 7, 7, 6, 6]
    with pytest.raises(ValueError, match="2 to 6"):
        hand_size(7)
    classic = Rummy.preset("rummy-classic")
    assert classic.options.melds_per_turn is None and classic.options.restock is Restock.SHUFFLE
    assert Rummy.preset("rummy", restock_limit=3).options.restock_limit == 3
    with pytest.raises(ValueError, match="unknown preset"):
        Rummy.preset("gin")
    with pytest.raises(ValueError, match="unknown Rummy option"):
        Rummy.preset("rummy", melds=2)
    with pytest.raises(ValueError, match="restock"):
        RummyOptions(restock="burn")  # type: ignore[arg-type]
    assert RummyOptions.from_dict(PRESETS["rummy-classic"].to_dict()) == PRESETS["rummy-classic"]
    for players in range(2, 7):
        s = Rummy().new_hand(players=players, seed=players)
        assert [len(h) for h in s.hands] == [hand_size(players)] * players
        assert len(s.stock) == 52 - players * hand_size(players) - 1
        assert s.to_act == 1 % players


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [
        ("melds_per_turn", 1, 100),
        ("restock_limit", 0, 100),
        ("target_score", 1, 10_000),
        ("hands", 1, 1_000),
    ],
)
def test_numeric_options_are_bounded(name: str, low: int, high: int) -> None:
    for value in (low, high):
        assert getattr(RummyOptions.from_dict({name: value}), name) == value
    for value in (low - 1, high + 1):
        with pytest.raises(ValueError, match=rf"option {name} must be .* from {low} to {high}"):
            RummyOptions.from_dict({name: value})
    if name in ("melds_per_turn", "hands"):  # None: unlimited / unset, as before
        assert getattr(RummyOptions.from_dict({name: None}), name) is None


def holding(cards: str) -> RummyState:
    """A two-player hand where seat 1 (to act first) holds ``cards`` padded to ten, and drew."""
    mine = parse_natural_cards(cards)
    free = [c for c in STANDARD_PACK if c not in mine]
    hand = [*mine, *free[: 10 - len(mine)]]
    other, up, stock = (
        free[10 - len(mine) : 20 - len(mine)],
        free[20 - len(mine)],
        free[21 - len(mine) :],
    )
    deal = Deal((tuple(other), tuple(hand)), up, tuple(stock))
    s = Rummy().new_hand(deal=deal, dealer=0)
    play(s, "draw")
    return s


@pytest.mark.parametrize(
    ("cards", "ok"),
    [
        ("QC KC AC", False),
        ("KC AC 2C", False),
        ("AC 2C 3C", True),
        ("7S 7D", False),
        ("7S 7D 7C", True),
        ("7S 7D 7C 7H", True),
        ("9C TC JC QC KC", True),
        ("9C TC QC", False),
    ],
)
def test_meld_shapes(cards: str, ok: bool) -> None:
    s = holding(cards)
    assert s.can(NewMeld(parse_natural_cards(cards))) is ok
    assert (NewMeld(parse_natural_cards(cards)) in s.legal_actions()) is ok


def test_taken_card_cannot_be_discarded() -> None:
    s = example()
    play(s, "take")
    assert Discard(C("7H")) not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="just taken"):
        play(s, "discard 7H")
    play(s, "discard KD")
    assert s.to_act == 1


def test_lay_off_onto_a_set_of_four_is_refused_and_onto_a_run_accepted() -> None:
    s = example()
    play(s, "take", "meld 7S 7D 7C 7H", "discard KD", "draw", "meld 8H 9H TH", "discard QS")
    play(s, "draw")  # An draws 8C
    with pytest.raises(IllegalActionError, match="does not fit meld 1"):
        play(s, "layoff 8C 1")
    play(s, "meld 3H 4H 5H")
    assert s.can(LayOff(C("JC"), 2)) is False
    play(s, "discard 8C", "draw")  # Binh draws 3S
    play(s, "meld 2S 2C 2D")  # Binh's one new meld this turn
    play(s, "layoff 6H 3")  # still allowed, onto An's 3H 4H 5H: melds belong to nobody
    assert str(s.table[2]) == "3H 4H 5H 6H" and s.table[2].owner == 0
    assert s.can(LayOff(C("AC"), 4)) is False  # AC does not fit 2C 2D 2S (a set of three 2s)


def test_going_out_by_melding_every_card() -> None:
    hand = "2C 3C 4C 5C 6C 7C 8C 9C TC JC"
    other = "2D 3D 4D 5D 6D 7D 8D 9D TD JD"
    stock = "QC " + rest(hand, other, "KS", "QC")
    for forbid in (False, True):
        s = rummy_hand_from_cards(
            [other, hand], "KS", stock, dealer=0, options=RummyOptions(discard_to_go_out=forbid)
        )
        play(s, "draw")  # QC: eleven clubs in a row
        whole = NewMeld(parse_natural_cards(hand + " QC"))
        if forbid:
            with pytest.raises(IllegalActionError, match="discard_to_go_out"):
                s.apply(whole)
            play(s, "meld 2C 3C 4C 5C 6C 7C 8C 9C TC JC", "discard QC")
        else:
            s.apply(whole)
        r = s.result
        assert r is not None and r.winner == 1 and r.points == sum(c.points for c in s.hands[0])


def test_rummy_bonus_doubles_going_out_in_one_turn() -> None:
    hand = "2C 3C 4C 5C 6C 7C 8C 9C TC JC"
    other = "2D 3D 4D 5D 6D 7D 8D 9D TD JD"
    stock = "QC " + rest(hand, other, "KS", "QC")
    for bonus in (False, True):
        s = rummy_hand_from_cards(
            [other, hand], "KS", stock, options=RummyOptions(rummy_bonus=bonus)
        )
        play(s, "draw", "meld 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC")
        r = s.result
        assert r is not None and r.rummy is bonus
        assert r.points == (2 if bonus else 1) * sum(c.points for c in parse_natural_cards(other))


def test_rummy_bonus_not_after_an_earlier_meld() -> None:
    s = example(rummy_bonus=True)
    play(s, *EXAMPLE)
    r = s.result
    assert r is not None and not r.rummy and r.points == 11


def test_stranded_hand_is_refused_before_it_happens() -> None:
    s = example()
    play(s, "take", "meld 7S 7D 7C 7H", "discard KD", "draw", "discard QS")
    play(s, "draw", "meld 3H 4H 5H", "discard 8C", "draw", "discard QH")
    assert sorted(map(str, s.hands[0])) == ["9C", "JC", "TC"]
    play(s, "take")  # An takes QH: 9C TC JC QH
    stranding = NewMeld(parse_natural_cards("9C TC JC"))
    assert stranding not in s.legal_actions()
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="leave you holding only QH"):
        s.apply(stranding)
    assert snapshot(s) == before
    play(s, "discard 9C")
    assert s.to_act == 1


def test_holding_one_card_may_take_and_throw_the_other() -> None:
    hand = "2C 3C 4C 5C 6C 7C 8C 9C TC KH"
    other = "2D 3D 4D 5D 6D 7D 8D 9D TD JD"
    stock = "QS JS " + rest(hand, other, "KS", "QS JS")
    s = rummy_hand_from_cards([other, hand], "KS", stock, options=RummyOptions(melds_per_turn=None))
    play(s, "draw", "meld 2C 3C 4C 5C 6C 7C 8C 9C TC", "discard QS")  # holds KH
    play(s, "draw", "discard JS")
    assert s.hands[1] == [C("KH")]
    play(s, "take")  # JS
    assert Discard(C("JS")) not in s.legal_actions() and Discard(C("KH")) in s.legal_actions()
    play(s, "discard KH")
    assert s.hands[1] == [C("JS")] and not s.is_over and s.to_act == 0


def one_card_then_take(
    held: str, melds: tuple[str, ...], stranding: str, thrown: str = "9H", **options: Any
) -> RummyState:
    """Seat 1 lays down ``melds``, keeps ``held`` and, after seat 0 throws ``thrown``, takes it."""
    laid = " ".join(melds)
    other = f"{thrown} 2S 4S 6S 8S TS 3D 5D 7D KC"
    hand = f"{held} {laid}"
    stock = "AS QS " + rest(hand, other, "KH", "AS QS")
    rules = RummyOptions(melds_per_turn=None, stranding=Stranding(stranding), **options)
    s = rummy_hand_from_cards([other, hand], "KH", stock, options=rules)
    play(s, "draw", *(f"meld {m}" for m in melds), "discard AS", "draw", f"discard {thrown}")
    play(s, "take")
    assert sorted(map(str, s.hands[1])) == sorted([*held.split(), thrown])
    assert s.taken == C(thrown)
    return s


def test_a_layoff_may_leave_the_taken_card_when_it_then_goes_out() -> None:
    # Decision (docs/rules/rummy.md): RULES.md refuses a play that leaves only the card just
    # taken "because the turn could not be ended"; here it can: 8H goes onto 5H-7H, then 9H.
    s = one_card_then_take("8H", ("5H 6H 7H", "2C 3C 4C", "JD QD KD"), "dead_end")
    assert LayOff(C("8H"), 1) in s.legal_actions() and LayOff(C("9H"), 1) not in s.legal_actions()
    play(s, "layoff 8H 1", "layoff 9H 1")
    r = s.result
    # Seat 0 kept 2S 4S 6S 8S TS 3D 5D 7D KC and drew QS.
    assert r is not None and r.winner == 1 and r.points == 2 + 4 + 6 + 8 + 10 + 3 + 5 + 7 + 10 + 10


def test_a_meld_may_leave_the_taken_card_when_it_fits_the_new_meld() -> None:
    s = one_card_then_take("6H 7H 8H", ("2C 3C 4C", "TD JD QD KD"), "dead_end")
    play(s, "meld 6H 7H 8H", "layoff 9H 3")
    assert s.result is not None and s.result.winner == 1


@pytest.mark.parametrize("preset", ["rummy", "rummy-classic"])
def test_presets_follow_the_reason_of_the_stranding_rule(preset: str) -> None:
    assert PRESETS[preset].stranding is Stranding.DEAD_END


def test_strict_stranding_refuses_what_rules_md_says() -> None:
    s = one_card_then_take("8H", ("5H 6H 7H", "2C 3C 4C", "JD QD KD"), "strict")
    assert [str(a) for a in s.legal_actions()] == ["discard 8H"]
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="leave you holding only 9H"):
        s.apply(parse_action("layoff 8H 1"))
    assert snapshot(s) == before
    s = one_card_then_take("6H 7H 8H", ("2C 3C 4C", "TD JD QD KD"), "strict")
    with pytest.raises(IllegalActionError, match="leave you holding only 9H"):
        s.apply(parse_action("meld 6H 7H 8H"))


def test_going_out_by_a_layoff_is_still_refused_under_discard_to_go_out() -> None:
    hand = "8H 5H 6H 7H 2C 3C 4C JD QD KD"
    other = "9H 2S 4S 6S 8S TS 3D 5D 7D 9D"
    options = RummyOptions(melds_per_turn=None, discard_to_go_out=True)
    stock = "AS QS " + rest(hand, other, "KH", "AS QS")
    s = rummy_hand_from_cards([other, hand], "KH", stock, options=options)
    play(s, "draw", "meld 5H 6H 7H", "meld 2C 3C 4C", "meld JD QD KD", "discard AS")
    play(s, "draw", "discard 9H", "take")
    with pytest.raises(IllegalActionError, match="leave you holding only 9H"):
        s.apply(parse_action("layoff 8H 1"))


@pytest.mark.parametrize("stranding", ["dead_end", "strict"])
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_players_go_out_through_the_taken_card_only_when_the_table_allows(
    stranding: str, level: str
) -> None:
    s = one_card_then_take("8H", ("5H 6H 7H", "2C 3C 4C", "JD QD KD"), stranding)
    player = find_player("rummy", level, seed=3)  # built without the options, as in the app
    expected = "layoff 8H 1" if stranding == "dead_end" else "discard 8H"
    assert str(player.suggest(s.view(1)).action) == expected


def deal_to_empty_stock(restock: str, limit: int) -> RummyState:
    """Two players who can never meld, playing the stock out (the dealer is seat 0)."""
    a = "2C 4C 6C 8C TC QC 2D 4D 6D 8D"
    b = "3H 5H 7H 9H JH KH 3S 5S 7S 9S"
    up = "AS"
    stock = rest(a, b, up)
    options = RummyOptions(restock=Restock(restock), restock_limit=limit)
    return rummy_hand_from_cards([a, b], up, stock, dealer=0, options=options)


def run_out(s: RummyState) -> list[Card]:
    """Draw and throw back the drawn card until the stock runs out (a restock or the end)."""
    thrown: list[Card] = []
    restocks = s.restocks
    while s.restocks == restocks and not s.is_over:
        play(s, "draw")
        seat = s.to_act
        assert seat is not None
        card = s.hands[seat][-1]
        play(s, f"discard {card}")
        thrown.append(card)
    return thrown


@pytest.mark.parametrize("restock", ["turn_over", "shuffle"])
def test_restock_each_way_then_stalemate(restock: str) -> None:
    s = deal_to_empty_stock(restock, 1)
    thrown = run_out(s)
    assert s.restocks == 1 and not s.is_over
    # the top discard stays face up; the rest became the stock
    assert s.discard_pile == [thrown[-1]]
    old = [C("AS"), *thrown[:-1]]
    stock_top_first = s.stock[::-1]
    if restock == "turn_over":
        assert stock_top_first == old  # the oldest discard is drawn first
    else:
        assert sorted(c.index for c in stock_top_first) == sorted(c.index for c in old)
        assert stock_top_first != old
    assert s.legal_actions() == [Draw(), Take()]
    run_out(s)
    r = s.result
    assert s.is_over and r is not None and r.outcome is RummyOutcome.STALEMATE
    assert r.winner is None and r.scores == (0, 0)


def test_restock_limit_zero_is_an_immediate_stalemate() -> None:
    s = deal_to_empty_stock("turn_over", 0)
    run_out(s)
    r = s.result
    assert r is not None and r.outcome is RummyOutcome.STALEMATE and s.restocks == 0


def test_shuffle_restock_is_reproducible_from_the_deal() -> None:
    a, b = deal_to_empty_stock("shuffle", 1), deal_to_empty_stock("shuffle", 1)
    run_out(a), run_out(b)
    assert a.stock == b.stock


def test_melds_in_lists_every_meld() -> None:
    found = {str(m) for m in melds_in(parse_natural_cards("7S 7D 7C 7H 8H 9H"))}
    assert found == {
        "7C 7D 7H",
        "7C 7D 7S",
        "7C 7H 7S",
        "7D 7H 7S",
        "7C 7D 7H 7S",
        "7H 8H 9H",
    }
    assert {str(m) for m in melds_in(parse_natural_cards("QC KC AC 2C 3C"))} == {"AC 2C 3C"}


def test_wrong_turn_wrong_phase_and_foreign_actions() -> None:
    s = example()
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        s.apply(Draw(), 1)
    with pytest.raises(IllegalActionError, match="draw a card first"):
        play(s, "discard KD")
    with pytest.raises(IllegalActionError, match="not an action of Basic Rummy"):
        play(s, "pass")
    play(s, "draw")
    with pytest.raises(IllegalActionError, match="already drawn"):
        play(s, "take")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        play(s, "meld 2S 2C 2D")
    # Cards that make no meld at all are told so first, held or not.
    with pytest.raises(IllegalActionError, match="needs at least 3 cards"):
        play(s, "meld AH 2H")
    with pytest.raises(IllegalActionError, match="the ace is low only"):
        play(s, "meld QC KC AC")
    with pytest.raises(IllegalActionError, match="no meld number 1"):
        play(s, "layoff 7S 1")


# ---------------------------------------------------------------------------- random play


def every_action(s: RummyState) -> list[Action]:
    assert s.to_act is not None
    hand = s.hands[s.to_act]
    pool: list[Action] = [Draw(), Take()]
    pool += [Discard(c) for c in STANDARD_PACK]
    pool += [LayOff(c, n) for c in hand for n in range(1, len(s.table) + 2)]
    pool += [NewMeld(m.cards) for m in melds_in(hand)]
    pool += [NewMeld(parse_natural_cards("QC KC AC")), NewMeld(tuple(hand[:3]))]
    return pool


def check_invariants(s: RummyState) -> None:
    cards = [*(c for h in s.hands for c in h), *s.stock, *s.discard_pile]
    cards += [c for t in s.table for c in t.meld.cards]
    assert sorted(c.index for c in cards) == list(range(52))
    from rummykit.melds import Meld

    for t in s.table:
        assert Meld.of(t.meld.cards) == t.meld


@pytest.mark.slow
@settings(max_examples=examples(30), deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32), st.sampled_from(sorted(PRESETS)), st.booleans())
def test_random_hands_refuse_exactly_the_illegal_actions(
    players: int, seed: int, preset: str, forbid: bool
) -> None:
    game = Rummy.preset(preset, discard_to_go_out=forbid)
    s = game.new_hand(players=players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    steps = 0
    while not s.is_over:
        legal = s.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if steps % 5 == 0:
            before = snapshot(s)
            for action in every_action(s):
                assert s.can(action) == (action in legal), action
                if action not in legal:
                    with pytest.raises(IllegalActionError):
                        s.apply(action)
                    assert snapshot(s) == before
        s.apply(rng.choice(legal))
        check_invariants(s)
        steps += 1
        assert steps < 5000


def play_randomly(s: RummyState, rng: random.Random) -> None:
    """Prefer melds and lay-offs (so hands end), else any legal action."""
    while not s.is_over:
        legal = s.legal_actions()
        plays = [a for a in legal if isinstance(a, NewMeld | LayOff)]
        s.apply(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))


@pytest.mark.slow
def test_thousands_of_random_hands_for_every_table_size() -> None:
    outcomes: dict[tuple[int, RummyOutcome], int] = {}
    for seed in range(1500):
        players = 2 + seed % 5
        game = Rummy.preset("rummy-classic" if seed % 2 else "rummy")
        s = game.new_hand(players=players, seed=seed, dealer=seed % players)
        play_randomly(s, random.Random(seed))
        check_invariants(s)
        r = s.result
        assert r is not None
        key = (players, r.outcome)
        outcomes[key] = outcomes.get(key, 0) + 1
        values = tuple(sum(c.points for c in h) for h in s.hands)
        assert r.hand_values == values
        if r.outcome is RummyOutcome.OUT:
            assert r.winner is not None and not s.hands[r.winner]
            assert r.points == sum(values) and sum(r.scores) == r.points
        else:
            assert r.winner is None and r.scores == (0,) * players
    for players in range(2, 7):
        assert outcomes.get((players, RummyOutcome.OUT), 0) > 30


def test_match_to_target_and_to_a_number_of_hands() -> None:
    m = Rummy().new_match(players=3, seed=9)
    rng = random.Random(9)
    dealers = [m.hand.dealer]
    while not m.is_over:
        if m.hand.is_over:
            m.next_hand()
            dealers.append(m.hand.dealer)
        legal = m.hand.legal_actions()
        plays = [a for a in legal if isinstance(a, NewMeld | LayOff)]
        m.apply(rng.choice(plays) if plays else rng.choice(legal))
    r = m.result
    assert r is not None and max(r.totals) >= 100
    assert r.winners == tuple(i for i, t in enumerate(r.totals) if t == max(r.totals))
    assert dealers == [i % 3 for i in range(len(dealers))]
    assert r.totals == m.scores()
    fixed = Rummy(RummyOptions(hands=3)).new_match(players=2, seed=1)
    while not fixed.is_over:
        if fixed.hand.is_over:
            fixed.next_hand()
        legal = fixed.hand.legal_actions()
        plays = [a for a in legal if isinstance(a, NewMeld | LayOff)]
        fixed.apply(rng.choice(plays) if plays else rng.choice(legal))
    assert fixed.result is not None and fixed.result.hands == 3


def test_view_hides_other_hands_and_stock() -> None:
    s = Rummy().new_hand(players=4, seed=3)
    v = s.view(2)
    data = str(v.to_dict())
    assert v.hand_sizes == (7, 7, 7, 7) and v.stock_size == len(s.stock)
    for seat in (0, 1, 3):
        for card in s.hands[seat]:
            assert f"'{card}'" not in data
    for card in s.stock:
        assert f"'{card}'" not in data
    assert v.legal_actions == () and s.view(1).legal_actions == (Draw(), Take())
    with pytest.raises(ValueError, match="no seat 4"):
        s.view(4)


def test_stalemate_result_shows_each_seat_only_its_own_cards() -> None:
    """Nobody scores a stalemate, so no hand is shown; after going out every loser's hand is."""
    seen: set[RummyOutcome] = set()
    for seed in range(200):
        players = 2 + seed % 3
        s = Rummy().new_hand(players=players, seed=seed, dealer=seed % players)
        play_randomly(s, random.Random(seed))
        full = s.result
        assert full is not None
        hands = [[str(c) for c in sorted(h, key=lambda c: c.index)] for h in s.hands]
        # The state's own result (records, the CLI) is always complete.
        assert [[str(c) for c in cs] for cs in full.remaining] == hands
        assert full.hand_values == tuple(sum(c.points for c in h) for h in s.hands)
        for seat in range(players):
            shown = s.view(seat).to_dict()["result"]
            assert len(shown["remaining"]) == len(shown["hand_values"]) == players
            if full.outcome is RummyOutcome.STALEMATE:
                assert shown["remaining"][seat] == hands[seat]
                assert shown["hand_values"][seat] == full.hand_values[seat]
                for other in set(range(players)) - {seat}:
                    assert shown["remaining"][other] == [] and shown["hand_values"][other] == 0
                    leaked = set(hands[other]) & set(str(shown).replace("'", " ").split())
                    assert not leaked, f"seat {seat} saw seat {other}'s {sorted(leaked)}"
                assert shown["scores"] == [0] * players
            else:
                assert shown == full.to_dict()  # every loser's cards are scored, so shown
        seen.add(full.outcome)
        if seen == set(RummyOutcome):
            break
    assert seen == set(RummyOutcome)


def test_deal_must_match_the_table() -> None:
    with pytest.raises(ValueError, match="7 are dealt here"):
        Rummy().new_hand(
            players=3,
            deal=Deal((parse_natural_cards(AN),) * 3, C("7H"), ()),
        )
    with pytest.raises(ValueError, match="give a seed or a deal"):
        Rummy().new_hand(seed=1, deal=Deal((), C("7H"), ()))
    assert Take() in example().legal_actions()


def test_unlimited_and_unset_are_accepted_as_written_in_the_messages() -> None:
    options = RummyOptions.from_dict({"melds_per_turn": "unlimited", "hands": "unset"})
    assert options.melds_per_turn is None and options.hands is None
    assert RummyOptions.from_dict(options.to_dict()) == options


def test_a_card_taken_from_the_pile_is_known_until_it_leaves_the_hand() -> None:
    s = example()
    play(s, "take")  # An takes the up-card 7H: everyone saw it
    assert s.view(1).known_cards == ((C("7H"),), ())
    assert s.view(1).to_dict()["known_cards"] == [["7H"], []]
    play(s, "meld 7S 7D 7C 7H")  # and everyone sees it go
    assert s.view(1).known_cards == ((), ())
    one = one_card_then_take("8H", ("5H 6H 7H", "2C 3C 4C", "JD QD KD"), "dead_end")
    assert one.view(0).known_cards == ((), (C("9H"),))
    play(one, "layoff 8H 1")
    assert one.view(0).known_cards == ((), (C("9H"),))


@pytest.mark.parametrize(
    ("stranding", "discard_to_go_out"), [("strict", False), ("dead_end", True)]
)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_players_lay_off_the_taken_card_first_where_the_other_order_is_refused(
    stranding: str, discard_to_go_out: bool, level: str
) -> None:
    # Holding 8H, seat 1 takes 9S (sorted after 8H): 9S goes onto the 9s, then 8H onto 5H-7H
    # (or is thrown).
    melds = ("5H 6H 7H", "9C 9D 9H", "2C 3C 4C")
    s = one_card_then_take("8H", melds, stranding, "9S", discard_to_go_out=discard_to_go_out)
    player = find_player("rummy", level, seed=3)
    for _ in range(3):
        if s.is_over:
            break
        s.apply(player.suggest(s.view(1)).action, 1)
    assert s.result is not None and s.result.winner == 1
