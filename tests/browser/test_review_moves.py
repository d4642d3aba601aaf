"""The review of a hand ("Review my moves"): each decision beside the hard computer's."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from table_helpers import act, next_hand, play_gin_hand_out, play_on, start

REVIEW_DATA = """() => {
  const ui = window.rummykit.state.ui;
  const r = ui.reviews.get(window.rummykit.state.msg.view.hand_number);
  return r && r.data ? {decisions: r.data.decisions, agreed: r.data.agreed, hand: r.data.hand,
    verdicts: r.data.steps.map((s) => s.verdict)} : null;
}"""


def test_review_my_moves_compares_each_decision_with_the_computer(
    server: Any, new_page: Any, shot: Any
) -> None:
    """A Gin hand on a phone against the hard computer, played by a simple rule; on its score
    screen "Review my moves" lists each of the person's decisions beside the hard player's, the
    ones it chose otherwise first (with the hand, the card played and the card advised marked),
    in English and then Vietnamese, without widening the dialog."""
    page = new_page(phone=True)
    start(page, server.url, "Gin Rummy", level="Hard")
    dialog = page.get_by_role("dialog")
    review_button = dialog.get_by_role("button", name="Review my moves")
    for _ in range(3):  # a hand the computer ends before the person chose anything has no review
        play_gin_hand_out(page)
        review_button.click()
        expect(review_button).to_be_hidden()
        expect(dialog.locator("#review h3")).to_be_visible()
        expect(dialog.locator(".review-pending")).to_have_count(0)  # the answer has come
        if dialog.locator(".review-summary").count():
            break
        expect(dialog.locator("#review")).to_contain_text("You had no decision to make")
        play_on(page)
    summary = dialog.locator(".review-summary")
    expect(summary).to_have_text(
        re.compile(
            r"^(\d+ of your \d+ decisions matched the Hard computer \(or were just as good\)\."
            r"|Every one of your decisions was the computer's choice or just as good\.)$"
        )
    )
    data = page.evaluate(REVIEW_DATA)
    hand_number = page.evaluate("() => window.rummykit.state.msg.view.hand_number")
    assert data["hand"] == hand_number and data["decisions"] == len(data["verdicts"]) > 0
    if "different" in data["verdicts"]:  # the counts; else the one line that all agreed
        numbers = re.findall(r"\d+", summary.inner_text())
        assert [int(n) for n in numbers] == [data["agreed"], data["decisions"]]
    steps = dialog.locator(".review-step")
    expect(steps).to_have_count(data["decisions"])
    different = data["verdicts"].count("different")
    assert data["agreed"] == data["decisions"] - different
    expect(dialog.locator(".review-step.different")).to_have_count(different)
    if different:
        only = dialog.get_by_role("checkbox", name="Only where the computer chose otherwise")
        expect(only).to_be_checked()
        visible = steps.evaluate_all("els => els.filter((e) => e.offsetParent !== null).length")
        assert visible == different  # only the decisions the computer would have made otherwise
        first = dialog.locator(".review-step.different").first
        expect(first.locator(".review-you")).to_have_text(re.compile(r"^You: \w"))
        expect(first.locator(".review-computer")).to_have_text(re.compile(r"^Computer: \w"))
        expect(first.locator(".face.review-advised, .review-pile")).not_to_have_count(0)
        only.uncheck()
        visible = steps.evaluate_all("els => els.filter((e) => e.offsetParent !== null).length")
        assert visible == data["decisions"]
    else:
        assert data["agreed"] == data["decisions"]
    shot(page, "phone-gin-review")
    wide = page.evaluate(
        "() => { const d = document.querySelector('#dlg-result'); return d.scrollWidth - d.clientWidth; }"
    )
    assert wide <= 1, f"the review widens the dialog by {wide}px"
    # The language is switched from the table; the score screen opened again keeps the review.
    dialog.get_by_role("button", name="See the table").click()
    page.get_by_role("button", name="Tiếng Việt").click()
    page.locator("#btn-result").click()
    expect(summary).to_have_text(
        re.compile(
            r"^(\d+/\d+ nước của bạn trùng với máy \(mức Khó\) hoặc tốt không kém\.|Mọi quyết định .*)$"
        )
    )
    expect(steps.first.locator(".review-you")).to_have_text(re.compile(r"^Bạn: \w"))
    dialog.get_by_role("button", name="Xem bàn").click()
    page.get_by_role("button", name="English").click()
    page.locator("#btn-result").click()
    # The next hand's score screen offers its own review again.
    if dialog.get_by_role("button", name="Next hand").is_visible():
        next_hand(page, lambda: act(page, page.get_by_role("button", name="Next hand")))
        expect(page.locator("#review")).to_be_hidden()


REVIEW_SCRIPT = """async () => {
  const results = await import('/js/results.js');
  const step = (number, verdict, played, advice, hand) => ({number, phase: 'discard', hand,
    top: '9C', played, played_text: {en: played, vi: 'vi ' + played},
    advice: {action: advice, reason: [], text: {en: advice + ': why', vi: 'vi ' + advice}},
    advice_move: {en: advice, vi: 'vi ' + advice}, advice_reason: {en: 'why', vi: 'vi why'}, verdict});
  const data = {t: 'review', hand: 1, seat: 0, level: 'hard', decisions: 4, agreed: 2, steps: [
    step(2, 'same', 'draw', 'draw', ['AC', 'KD']),
    step(3, 'as_good', 'discard KD', 'discard QS', ['AC', 'KD', 'QS']),
    step(5, 'different', 'discard 7H', 'discard KD', ['7H', '7H', 'KD']),
    {...step(6, 'different', 'draw', 'take', ['7H', '8H']), phase: 'draw'},
  ]};
  const dlg = document.getElementById('dlg-result');
  dlg.dataset.hand = '1';
  dlg.showModal();
  const ctx = {welcome: {game: 'gin'}, ui: {reviews: new Map([[1, {hand: 1, data}]]), reviewPick: null}};
  results.renderReview(ctx);
  const box = document.getElementById('review');
  const shown = () => [...box.querySelectorAll('.review-step')]
    .filter((e) => e.offsetParent !== null).map((e) => e.querySelector('.review-number').textContent);
  const before = shown();
  const marks = [...box.querySelectorAll('.review-step.different .review-hand > .mini-row .face')]
    .map((f) => [f.classList.contains('review-played'), f.classList.contains('review-advised')]);
  const pile = [...box.querySelectorAll('.review-pile .face')].map((f) =>
    [f.classList.contains('review-played'), f.classList.contains('review-advised')]);
  box.querySelector('input[type=checkbox]').click();
  const after = shown();
  const lines = [...box.querySelectorAll('.review-step')].map((e) => e.innerText.replace(/\\s+/g, ' ').trim());
  const picker = document.getElementById('review-hand');
  const onePicker = picker.hidden;  // one hand so far: nothing to pick
  ctx.ui.reviews = new Map([[2, {hand: 2, data}]]);  // a review of another hand is not shown here
  results.renderReview(ctx);
  const hiddenForOtherHand = box.hidden;
  const button = document.getElementById('btn-review').hidden;
  // The score of hand 2: both hands may be reviewed, hand 1 picked here.
  dlg.dataset.hand = '2';
  ctx.ui.reviews = new Map([[1, {hand: 1, data: {...data, agreed: 1}}], [2, {hand: 2, data}]]);
  ctx.ui.reviewPick = {shown: 2, hand: 1};
  results.renderReview(ctx);
  const picked = {options: [...picker.options].map((o) => o.text), value: picker.value,
    hidden: picker.hidden, title: document.getElementById('review-title').textContent,
    summary: box.querySelector('.review-summary').textContent};
  return {before, after, marks, pile, lines, hiddenForOtherHand, button, onePicker, picked};
}"""


def test_the_review_marks_each_verdict_and_filters_the_different_ones(
    server: Any, new_page: Any
) -> None:
    """The review's rendering from a known answer: a mark and words per verdict, the card
    played and the card advised marked on the hand, the filter, and no review of another hand."""
    page = new_page()
    page.goto(server.url)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    out = page.evaluate(REVIEW_SCRIPT)
    # Numbered among the person's decisions; at first only where the computer chose otherwise.
    assert out["before"] == ["3. ", "4. "]
    assert out["after"] == ["1. ", "2. ", "3. ", "4. "]
    # one of two 7H played (one copy marked), KD advised; then a draw where the computer would
    # take the pile's 9C
    assert out["marks"] == [
        [True, False],
        [False, False],
        [False, True],
        [False, False],
        [False, False],
    ]
    assert out["pile"] == [[False, True]]
    assert out["lines"][0] == "✓ same as the computer: 1. You: draw"
    assert out["lines"][1] == (
        "≈ just as good: 2. You: discard KD Computer: discard QS, just as good (why)"
    )
    assert out["lines"][2].startswith(
        "✗ the computer chose otherwise: 3. You: discard 7H Computer: discard KD (why) Your hand:"
    )
    assert out["hiddenForOtherHand"] is True and out["button"] is False
    assert out["onePicker"] is True
    assert out["picked"] == {
        "options": ["Hand 1", "Hand 2"],
        "value": "1",
        "hidden": False,
        "title": "Hand 1 · Your moves beside the computer's",
        "summary": "1 of your 4 decisions matched the Hard computer (or were just as good).",
    }


REVIEW_CORNERS = """async () => {
  const results = await import('/js/results.js');
  const hand = ['AC', '7C', '9C', 'TC', '7D', 'QD', '3S', '4S', '5S', '6S', '9S'];
  const data = {t: 'review', hand: 1, seat: 0, level: 'hard', decisions: 1, agreed: 0, steps: [
    {number: 1, phase: 'discard', hand, top: '2H', played: 'discard TC', verdict: 'different',
     played_text: {en: 'discard 10♣'}, advice: {action: 'discard QD', reason: [], text: {}},
     advice_move: {en: 'discard Q♦'}, advice_reason: {en: 'why'}}]};
  const dlg = document.getElementById('dlg-result');
  dlg.dataset.hand = '1';
  dlg.showModal();
  const ctx = {welcome: {game: 'gin'}, ui: {reviews: new Map([[1, {hand: 1, data}]]), reviewPick: null}};
  results.renderReview(ctx);
  const row = document.querySelector('.review-step.different .review-hand > .mini-row');
  row.scrollIntoView({block: 'center'});
  // How much of each card shows from its left edge, at the height of its corner index: up to
  // where another card is drawn over it.
  return [...row.querySelectorAll('.face')].map((face) => {
    const r = face.getBoundingClientRect();
    const y = r.top + r.height * 0.15;
    let x = r.left + 1;
    while (x < r.right && face.contains(document.elementFromPoint(x, y))) x += 1;
    return {marked: face.className.includes('review-'), shows: Math.round(x - r.left)};
  });
}"""


def test_the_reviews_marked_cards_hide_no_neighbours_corner(
    server: Any, new_page: Any, shot: Any
) -> None:
    """In "Your hand" of a review, the card played and the card advised are outlined, yet overlap
    as the others do: every card's corner index (rank and suit) stays in sight."""
    page = new_page(viewport=(1366, 768))
    page.goto(server.url)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    shown = page.evaluate(REVIEW_CORNERS)
    assert len(shown) == 11 and [s["marked"] for s in shown].count(True) == 2
    assert min(s["shows"] for s in shown) >= 20, shown
    shot(page, "desktop-review-marked-cards")
