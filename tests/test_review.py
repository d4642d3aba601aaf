"""rummykit.review: which decisions are reviewed, what the advice may see, the verdicts, the text."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from rummykit.actions import Action, Discard, Down, Knock, LayOff, parse_action
from rummykit.cards import STANDARD_PACK, AnyCard, Card, parse_cards
from rummykit.games import find_game
from rummykit.games.base import HandState, View
from rummykit.games.deal import Deal
from rummykit.games.gin import Gin, GinState
from rummykit.players import Player, UnknownPlayerError, find_player
from rummykit.players.reasons import Suggestion
from rummykit.review import HandReview, _verdict, review_hand
from rummykit.texts import section

TABLES = [("gin", 2), ("rummy", 2), ("rummy", 3), ("rummy", 4), ("crazy", 3), ("crazy", 4)]
"""Every game at the table sizes the review is tested at."""


def _play(game_name: str, players: int, seat: int, level: str, seed: int) -> HandState:
    """A hand in which ``seat`` plays every decision as a fresh ``level`` player seeded with
    ``seed`` plus the decision's history index (as a review seeds its advice), the other seats
    as ``medium`` players seeded once."""
    game = find_game(game_name)
    state = game.new_hand(players=players, seed=seed, dealer=seed % players)
    others = {s: find_player(game, "medium", 100 + s) for s in range(players) if s != seat}
    while not state.is_over:
        actor = state.to_act
        assert actor is not None
        view = state.view(actor)
        if actor == seat:
            action = find_player(game, level, seed + len(state.history)).choose(view)
        else:
            action = others[actor].choose(view)
        state.apply(action, actor)
    return state


def _fresh(hand: HandState) -> HandState:
    """A new hand dealt like ``hand``, before any action."""
    extra: dict[str, Any] = {}
    if hand.game.name == "crazy":
        extra["round"] = getattr(hand, "round")  # noqa: B009 - a Crazy Rummy round has one
    return hand.game.new_hand(
        players=len(hand.deal.hands),
        seed=hand.seed,
        deal=None if hand.seed is not None else hand.deal,
        dealer=hand.dealer,
        **extra,
    )


def _expected(hand: HandState, seat: int, skip: frozenset[int] = frozenset()) -> Iterator[Any]:
    """Replay ``hand`` and yield, for every decision the review must show, the replayed state
    just before it (with the action's index and the action)."""
    state = _fresh(hand)
    for index, (actor, action) in enumerate(hand.history):
        if actor == seat and index not in skip:
            assert state.to_act == seat
            if len(state.legal_actions()) > 1:
                yield index, action, state.clone()
        state.apply(action, actor)


def _check_structure(
    hand: HandState, seat: int, review: HandReview, skip: frozenset[int] = frozenset()
) -> None:
    """The steps are exactly the seat's decisions with a choice, in order, each with what the
    seat held and saw then; the advice is a legal move; the counts add up."""
    expected = list(_expected(hand, seat, skip))
    assert [step.number for step in review.steps] == [index + 1 for index, _, _ in expected]
    for step, (_, action, before) in zip(review.steps, expected, strict=True):
        assert step.played == action
        hands: list[list[AnyCard]] = getattr(before, "hands")  # noqa: B009
        pile: list[AnyCard] = getattr(before, "discard_pile")  # noqa: B009
        assert Counter(step.hand) == Counter(hands[seat])
        assert step.top == (pile[-1] if pile else None)
        assert step.phase == before.phase.value
        assert before.can(step.advice.action, seat), (step.number, step.advice.action)
        if step.played == step.advice.action:
            assert step.verdict == "same"
        if step.verdict == "as_good":
            assert hand.game.name != "crazy"
            played, advised = step.played, step.advice.action
            assert isinstance(played, Discard | Knock) and isinstance(advised, Discard | Knock)
            assert isinstance(played.card, Card) and isinstance(advised.card, Card)
            assert played.card.points == advised.card.points
    assert review.seat == seat
    assert review.decisions == len(review.steps)
    assert review.agreed == sum(step.verdict in ("same", "as_good") for step in review.steps)


# ------------------------------------------------------------------------ which decisions


@pytest.mark.parametrize(("game", "players"), TABLES)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_level_reviewed_at_its_own_level_and_seeds_agrees_with_itself(
    game: str, players: int, level: str
) -> None:
    seed = 11
    seat = seed % players
    hand = _play(game, players, seat, level, seed)
    review = review_hand(hand, seat, level=level, seed=seed)
    _check_structure(hand, seat, review)
    assert review.decisions > 0
    assert [step.verdict for step in review.steps] == ["same"] * review.decisions
    assert review.agreed == review.decisions


@settings(max_examples=examples(30), deadline=None)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10_000),
    seat_pick=st.integers(0, 5),
    level=st.sampled_from(["random", "easy", "medium"]),
    skip_every=st.integers(0, 4),
)
def test_the_steps_are_the_seats_decisions_with_a_choice(
    table: tuple[str, int], seed: int, seat_pick: int, level: str, skip_every: int
) -> None:
    game, players = table
    seat = seat_pick % players
    hand = _play(game, players, (seat + 1) % players, "random", seed)  # another seat varies
    skip = frozenset(range(0, len(hand.history), skip_every)) if skip_every else frozenset()
    review = review_hand(hand, seat, level=level, skip=skip, seed=seed)
    _check_structure(hand, seat, review, skip)
    assert not {step.number - 1 for step in review.steps} & skip


def test_a_hand_still_in_play_is_reviewed_up_to_now() -> None:
    whole = _play("rummy", 3, 0, "medium", 4)
    partial = _fresh(whole)
    for actor, action in whole.history[: len(whole.history) // 2]:
        partial.apply(action, actor)
    review = review_hand(partial, 0, level="medium")
    _check_structure(partial, 0, review)
    assert (
        review.to_dict()["steps"]
        == review_hand(whole, 0, level="medium").to_dict()["steps"][: review.decisions]
    )


def test_skip_leaves_out_those_history_indices() -> None:
    hand = _play("gin", 2, 0, "medium", 5)
    whole = review_hand(hand, 0, level="medium")
    assert whole.decisions >= 3
    dropped = {whole.steps[0].number - 1, whole.steps[2].number - 1}
    fewer = review_hand(hand, 0, level="medium", skip=dropped)
    assert [s.number for s in fewer.steps] == [
        s.number for s in whole.steps if s.number - 1 not in dropped
    ]
    kept = {s.number: s for s in whole.steps}
    assert all(s == kept[s.number] for s in fewer.steps)


# --------------------------------------------------------------- what the advice may see


class _Spy:
    """A player that records every view it is shown (and never plays)."""

    def __init__(self, inner: Player, seen: list[View]) -> None:
        self.inner = inner
        self.seen = seen

    def choose(self, view: View) -> Action:
        raise AssertionError("a review asks for advice, it never plays")

    def suggest(self, view: View) -> Suggestion:
        self.seen.append(view)
        return self.inner.suggest(view)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_advice_is_only_ever_shown_the_seats_own_view(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat = players - 1
    hand = _play(game, players, seat, "medium", 21)
    seen: list[View] = []

    def spying(game: Any, name: str, seed: int | None = None, **kw: Any) -> Any:
        return _Spy(find_player(game, name, seed, **kw), seen)  # the real one

    monkeypatch.setattr("rummykit.review.find_player", spying)
    review = review_hand(hand, seat, level="hard")
    assert len(seen) == review.decisions > 0
    before = [state for _, _, state in _expected(hand, seat)]
    for view, state in zip(seen, before, strict=True):
        assert not isinstance(view, GinState) and type(view).__name__.endswith("View")
        assert view.seat == seat
        assert view.to_dict() == state.view(seat).to_dict()


def _card_tokens(data: Any) -> set[str]:
    """Every word of every string in ``data`` (cards appear as ``7H``, also inside actions)."""
    if isinstance(data, str):
        return set(re.split(r"[\s|:,]+", data))
    if isinstance(data, dict):
        return set().union(*map(_card_tokens, data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*map(_card_tokens, data)) if data else set()
    return set()


def _views(hand: HandState, seat: int) -> list[dict[str, Any]]:
    """Every view ``seat`` had of ``hand``, from the deal to the end, as JSON data."""
    state = _fresh(hand)
    views = [state.view(seat).to_dict()]
    for actor, action in hand.history:
        state.apply(action, actor)
        views.append(state.view(seat).to_dict())
    return views


@pytest.mark.parametrize(
    ("game", "players", "seed"), [("gin", 2, 3), ("gin", 2, 6), ("rummy", 3, 8), ("rummy", 4, 2)]
)
def test_hidden_cards_elsewhere_do_not_change_the_review(
    game: str, players: int, seed: int
) -> None:
    """Two hands that differ only in cards ``seat`` never saw (in other hands and deep in the
    stock) give the same review. The hands stop after the seat's last draw or discard before
    anyone knocks or goes out, which shows other cards (a knocker's melds, the score)."""
    seat = 0
    played = _play(game, players, seat, "medium", seed)
    replay, last = _fresh(played), 0
    for index, (actor, action) in enumerate(played.history):
        replay.apply(action, actor)
        if replay.phase.value not in ("offer", "draw", "discard", "buy") or index >= 40:
            break  # (and 40 actions leave cards unseen: a long hand may show them all)
        if actor == seat:
            last = index
    hand = _fresh(played)
    for actor, action in played.history[: last + 1]:
        hand.apply(action, actor)
    seen = set().union(*map(_card_tokens, _views(hand, seat)))
    deal = hand.deal
    places = [(s, i) for s in range(players) if s != seat for i in range(len(deal.hands[s]))]
    places += [(players, i) for i in range(len(deal.stock))]
    rows = [list(h) for h in deal.hands] + [list(deal.stock)]
    hidden = [(s, i) for s, i in places if str(rows[s][i]) not in seen]
    assert any(s < players for s, _ in hidden) and any(s == players for s, _ in hidden)
    cards = [rows[s][i] for s, i in hidden]
    for (s, i), card in zip(hidden, cards[1:] + cards[:1], strict=True):  # a cyclic shift
        rows[s][i] = card
    other = Deal(hands=tuple(map(tuple, rows[:players])), up=deal.up, stock=tuple(rows[players]))
    original = find_game(game).new_hand(players=players, deal=deal, dealer=hand.dealer)
    changed = find_game(game).new_hand(players=players, deal=other, dealer=hand.dealer)
    for actor, action in hand.history:
        original.apply(action, actor)
        changed.apply(action, actor)
    assert getattr(original, "hands") != getattr(changed, "hands")  # noqa: B009
    assert _views(original, seat) == _views(changed, seat)  # the seat cannot tell them apart
    first = review_hand(original, seat, level="hard")
    assert first.decisions > 0
    assert first.to_dict() == review_hand(changed, seat, level="hard").to_dict()


# ------------------------------------------------------------------------------ verdicts


def _gin_position(seat1: str, drawn: str) -> GinState:
    """Seat 1 (the non-dealer) holds ``seat1``, both pass the up-card, and seat 1 draws
    ``drawn``: seat 1 is to discard from 11 cards."""
    mine = tuple(parse_cards(seat1))
    theirs = tuple(parse_cards("2C 3C 4S 6H 7H 8H 9D TD JS JC"))
    up, top = parse_cards("6S")[0], parse_cards(drawn)[0]
    used = {*mine, *theirs, up, top}
    stock = (top, *(c for c in STANDARD_PACK if c not in used))
    state = Gin().new_hand(deal=Deal(hands=(theirs, mine), up=up, stock=stock), dealer=0)
    for text in ("pass", "pass", "draw"):
        state.apply(parse_action(text))
    return state


def _discarding(state: GinState, card: str) -> HandReview:
    played = state.clone()
    played.apply(parse_action(f"discard {card}"))
    return review_hand(played, 1)


def test_two_loose_cards_of_one_value_are_as_good_and_the_advised_one_the_same() -> None:
    # K♠ and Q♦ have no card of their rank and none of their suit within two ranks.
    state = _gin_position("AH 2H 3H 5S 5D 5C 8C 9C KS QD", "4D")
    reviews = {card: _discarding(state, card) for card in ("KS", "QD")}
    last = {card: review.steps[-1] for card, review in reviews.items()}
    assert {step.number for step in last.values()} == {4}
    advised = {step.advice.action for step in last.values()}
    assert len(advised) == 1  # the same view, the same seed: the same advice
    assert advised <= {Discard(Card.parse("KS")), Discard(Card.parse("QD"))}
    verdicts = {card: step.verdict for card, step in last.items()}
    assert sorted(verdicts.values()) == ["as_good", "same"]
    for card, review in reviews.items():
        assert review.agreed == review.decisions
        as_good = last[card].verdict == "as_good"
        assert ("just as good" in review.text("en")) is as_good
        assert ("tốt ngang nhau" in last[card].text("vi")) is as_good


def test_a_card_next_to_another_is_not_loose_so_throwing_it_is_different() -> None:
    # Q♦ now has J♦ beside it: throwing it is not the same as throwing the loose K♠.
    state = _gin_position("AH 2H 3H 5S 5D 5C 8C 9C KS QD", "JD")
    step = _discarding(state, "QD").steps[-1]
    assert step.advice.action == Discard(Card.parse("KS"))
    assert step.verdict == "different"
    assert _discarding(state, "KS").steps[-1].verdict == "same"


def test_loose_cards_of_different_values_are_different() -> None:
    state = _gin_position("AH 2H 3H 5S 5D 5C 8C 9C KS QD", "4D")
    step = _discarding(state, "8C").steps[-1]  # 8♣ is next to 9♣ anyway; and worth 8
    assert step.verdict == "different"


def _c(text: str) -> Card:
    return Card.parse(text)


def test_verdict_details() -> None:
    hand = tuple(parse_cards("AH 2H 3H 5S 5D 5C 8C 9C KS QD 4D"))
    k, q = Discard(_c("KS")), Discard(_c("QD"))
    assert _verdict(q, k, hand, (k, q), wilds=False) == "as_good"
    # Crazy Rummy has wilds: no discard is ever called as good as another
    assert _verdict(q, k, hand, (k, q), wilds=True) == "different"
    # Basic Rummy: a card that can be laid off on the table is not loose
    assert _verdict(q, k, hand, (k, q, LayOff(_c("QD"), 1)), wilds=False) == "different"
    # of a lone pair (no third card of the rank, no suit neighbours), either card may go
    pair = tuple(parse_cards("AH 2H 3H 5S 5D 5C 8C 9C KS KH 4D"))
    kh, ks = Discard(_c("KH")), Discard(_c("KS"))
    assert _verdict(kh, ks, pair, (kh, ks), wilds=False) == "as_good"
    # but not when a third card of the rank is in hand, or a suit neighbour
    three = tuple(parse_cards("AH 2H 3H 5S 5D 8C 9C KS KH KD 4D"))
    assert _verdict(kh, ks, three, (kh, ks), wilds=False) == "different"
    near = tuple(parse_cards("AH 2H 3H 5S 5D 5C 8C QH KS KH 4D"))
    assert _verdict(kh, ks, near, (kh, ks), wilds=False) == "different"
    # a knock with the same card is the same move whatever arrangement it names
    named = parse_action("knock KS: AH 2H 3H | 5S 5D 5C")
    assert isinstance(named, Knock) and named.melds is not None
    assert _verdict(named, Knock(_c("KS")), hand, (), wilds=False) == "same"
    assert _verdict(Knock(_c("QD")), Knock(_c("KS")), hand, (), wilds=False) == "as_good"
    assert _verdict(Discard(_c("KS")), Knock(_c("KS")), hand, (), wilds=False) == "different"
    # a Crazy Rummy lay-down: melds in any order, a book's cards in any order, a run's not
    books = Down(((_c("9C"), _c("9D"), _c("9S")), (_c("4H"), _c("4S"), _c("4D"))))
    again = Down(((_c("4D"), _c("4H"), _c("4S")), (_c("9S"), _c("9C"), _c("9D"))))
    assert _verdict(books, again, hand, (), wilds=True) == "same"
    run = Down(((_c("5H"), _c("6H"), _c("2C"), _c("8H")), (_c("9C"), _c("9D"), _c("9S"))))
    moved = Down(((_c("9C"), _c("9D"), _c("9S")), (_c("5H"), _c("6H"), _c("2C"), _c("8H"))))
    wild_elsewhere = Down(
        ((_c("2C"), _c("5H"), _c("6H"), _c("8H")), (_c("9C"), _c("9D"), _c("9S")))
    )
    assert _verdict(run, moved, hand, (), wilds=True) == "same"
    assert _verdict(run, wild_elsewhere, hand, (), wilds=True) == "different"


# ---------------------------------------------------------------------------- arguments


@pytest.fixture(scope="module")
def gin_hand() -> HandState:
    return _play("gin", 2, 0, "medium", 9)


@pytest.mark.parametrize("seat", [-1, 2, 7, True, False, 0.0, "0", None])
def test_a_seat_the_hand_does_not_have_is_refused(gin_hand: HandState, seat: Any) -> None:
    with pytest.raises(ValueError, match=r"seat must be a whole number from 0 to 1"):
        review_hand(gin_hand, seat)


@pytest.mark.parametrize("level", ["expert", "", "hard!", "medium hard"])
def test_an_unknown_level_is_refused_naming_the_valid_ones(gin_hand: HandState, level: str) -> None:
    with pytest.raises(UnknownPlayerError, match=r"unknown level .* \(valid: random, easy"):
        review_hand(gin_hand, 0, level=level)


def test_a_level_is_read_in_any_case(gin_hand: HandState) -> None:
    review = review_hand(gin_hand, 0, level=" Medium ")
    assert review.level == "medium"
    assert review.to_dict() == review_hand(gin_hand, 0, level="medium").to_dict()
    assert "vừa" in review.text("vi")


def test_only_english_and_vietnamese(gin_hand: HandState) -> None:
    review = review_hand(gin_hand, 0, level="medium")
    for lang in ("fr", "EN", ""):
        with pytest.raises(ValueError, match=r"'en' and 'vi'"):
            review.text(lang)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"'en' and 'vi'"):
            review.steps[0].text(lang)  # type: ignore[arg-type]


def test_no_decision_to_review() -> None:
    state = Gin().new_hand(seed=1)
    review = review_hand(state, 0)
    assert review.steps == () and review.agreed == 0 == review.decisions
    assert review.text("en") == "no decision to review"
    assert review.text("vi") == "không có nước đi nào để xem lại"


# --------------------------------------------------------------------- text and JSON


def _english_fragments() -> set[str]:
    """The literal words of every English catalogue phrase that differs from its Vietnamese
    wording (placeholders cut out), at least two words long."""
    fragments: set[str] = set()
    hints = {lang: section(lang, "hints") for lang in ("en", "vi")}
    for key, en in hints["en"].items():
        if en == hints["vi"][key] or not isinstance(en, str):
            continue
        for part in re.split(r"\{[^}]*\}", en):
            part = part.strip(" ,.;:()·")
            if re.search(r"[a-z]{2,} [a-z]{2,}", part):
                fragments.add(part)
    return fragments


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_text_in_both_languages(game: str, players: int) -> None:
    hand = _play(game, players, 0, "easy", 30)
    review = review_hand(hand, 0, level="hard")
    assert review.decisions > 0
    english, vietnamese = review.text("en"), review.text("vi")
    assert str(review) == english
    assert len(english.splitlines()) == len(vietnamese.splitlines()) == review.decisions + 1
    assert english.startswith("Seat 0's decisions beside the hard computer's:")
    assert vietnamese.startswith("Các nước đi của ghế 0 so với máy mức khó:")
    assert f"{review.agreed} of {review.decisions}" in english
    leaked = [f for f in _english_fragments() if f in vietnamese]
    assert not leaked, leaked
    for step, line in zip(review.steps, vietnamese.splitlines()[1:], strict=True):
        assert line.strip().startswith(f"{step.number}. bạn: ")
        assert step.text("vi") == line.strip()


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_json_round_trips_and_has_the_agreed_shape(game: str, players: int) -> None:
    hand = _play(game, players, 1, "easy", 31)
    review = review_hand(hand, 1, level="medium")
    data = review.to_dict()
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert set(data) == {"seat", "level", "decisions", "agreed", "steps"}
    assert (data["seat"], data["level"]) == (1, "medium")
    assert (data["decisions"], data["agreed"]) == (review.decisions, review.agreed)
    keys = {"number", "phase", "hand", "top", "played", "played_text", "advice", "verdict"}
    keys |= {"advice_move", "advice_reason"}
    for step, row in zip(review.steps, data["steps"], strict=True):
        assert set(row) == keys
        assert row["number"] == step.number and row["phase"] == step.phase
        assert row["hand"] == [str(c) for c in step.hand]
        assert row["top"] == (None if step.top is None else str(step.top))
        assert parse_action(row["played"]) == step.played
        assert set(row["played_text"]) == {"en", "vi"}
        assert {"action", "reason", "text"} <= set(row["advice"])
        assert parse_action(row["advice"]["action"]) == step.advice.action
        assert row["advice"]["text"] == {"en": step.advice.text("en"), "vi": step.advice.text("vi")}
        assert row["verdict"] in ("same", "as_good", "different")
        for lang in ("en", "vi"):  # the advised move and its reason, apart, make up its text
            move, why = row["advice_move"][lang], row["advice_reason"][lang]
            assert row["advice"]["text"][lang] == (f"{move}: {why}" if why else move)


@pytest.mark.parametrize(("game", "players"), [("gin", 2), ("rummy", 4), ("crazy", 4)])
def test_a_review_is_the_same_every_time(game: str, players: int) -> None:
    hand = _play(game, players, 0, "easy", 40)
    first = review_hand(hand, 0, level="hard", seed=5)
    second = review_hand(hand, 0, level="hard", seed=5)
    assert first == second
    assert first.to_dict() == second.to_dict()
    assert first.text("vi") == second.text("vi")
