"""Crazy Rummy: the lay-down, buying ("May I?"), stop asking, no buy left, a new round."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_helpers import (
    act,
    cards,
    discard_for_books,
    discard_highest,
    draw_or_pass,
    in_view,
    open_session,
    play_on,
    result_open,
    select,
    select_only,
    start,
    start_with_house_rule,
    wait_past,
    wait_turn,
)

SHORT_SHOWN = """() => {
  const short = window.rummykit.state.msg.aids.short;
  const line = document.querySelector('#scorebar .game-line').textContent;
  if (short === 0) return line.endsWith(' · your hand makes it');
  return short > 0 && line.endsWith(` · ${short} more card${short === 1 ? '' : 's'} needed`);
}"""
"""The score bar shows the server's count of the cards the hand lacks for the contract. Read in
one go: the hand can change on another seat's move during this seat's turn (the card drawn for
it once nobody buys the up-card it passed), so reading the count, then the bar, raced."""


def test_crazy_rummy_round_with_a_lay_down_and_a_buy(server: Any, new_page: Any, shot: Any) -> None:
    if "crazy" not in server.games():
        pytest.skip("Crazy Rummy is not registered in find_game yet")
    page = new_page(phone=True)
    start(page, server.url, "Crazy Rummy", opponents="2 opponents")
    expect(page.locator("#scorebar")).to_contain_text("Round 1 of 7 · Contract: 2 books")
    # seat 0 deals round 1: the page says so, and what the dealer's first choice means
    expect(page.locator(".scores li.me .dealer")).to_have_text("dealer")
    wait_turn(page)
    expect(page.locator("#prompt")).to_contain_text("You dealt, so the up-card")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-text")).to_contain_text(re.compile("^Hint: (take|pass)"))
    expect(page.locator("#hint-text")).not_to_contain_text("draw from the stock")
    bought = laid = False
    for _ in range(400):
        if bought and laid:
            break
        wait_turn(page)
        if result_open(page):  # the round ended first: try the next one
            bought = laid = False
            play_on(page)
            continue
        panel = page.get_by_role("group", name="May I?")
        if panel.is_visible():
            expect(panel).to_contain_text("penalty card")
            # asked whether to buy, not this seat's turn: the player who passed is outlined
            expect(page.locator(".scores li.me")).to_have_class(re.compile(r"\basked\b"))
            expect(page.locator(".scores li.acting")).to_have_count(1)
            expect(page.locator(".scores li.me.acting")).to_have_count(0)
            expect(page).to_have_title("● May I? · rummykit")
            # on the phone the question, the hand and the answers all fit on one screen
            assert in_view(page, "#buy-panel") and in_view(page, "#hand")
            if not bought:
                shot(page, "phone-crazy-may-i")
            answer = "Buy" if not bought else "Pass"
            said = "You bought " if answer == "Buy" else "You did not buy "
            before = [x for x in page.locator("#log li").all_inner_texts() if x.startswith(said)]
            act(page, panel.get_by_role("button", name=answer))
            if not before:  # the log names the card bought, or the one passed on
                expect(page.locator("#log li").filter(has_text=said)).not_to_have_count(0)
            bought = True
            continue
        if not laid:  # the hand's distance from the contract, as the server counts it
            page.wait_for_function(SHORT_SHOWN, timeout=5_000)
        if draw_or_pass(page):
            continue
        pick = page.get_by_role("button", name="Pick contract")
        if pick.is_visible() and not laid:
            expect(page.locator("#scorebar")).to_contain_text("· your hand makes it")
            down = page.get_by_role("button", name="Lay down")
            # too few cards, then six that are not the contract: the message says what is wrong
            names = [c["name"] for c in cards(page)]
            select_only(page, names[0])
            down.click(force=True)
            expect(page.locator("#alert")).to_have_text(
                re.compile(r"^The contract \(.+\) needs at least \d+ cards$")
            )
            pick.click()
            chosen = [c["name"] for c in cards(page) if c["pressed"] == "true"]
            # (the selection is read out: the cards moved into it silently)
            expect(page.locator("#live")).to_contain_text("Selected for the contract: ")
            others = [n for n in names if n not in chosen]
            if others:
                select(page, others[0])
                page.wait_for_function("() => window.rummykit.state.ui.down?.answer")
                if page.evaluate("() => window.rummykit.state.ui.down.action") is None:
                    down.click(force=True)  # (the extra card fits none of the two books)
                    expect(page.locator("#alert")).to_contain_text(
                        "The selected cards make the contract, but 1 of them fits in none"
                    )
                pick.click()
            down = page.get_by_role("button", name="Lay down")
            expect(down).to_be_enabled()
            expect(down).to_have_class(re.compile(r"\blit\b"))  # lit as the next step
            act(page, down)
            laid = True
            expect(page.get_by_role("heading", name="Laid by you")).to_be_visible()
            expect(page.locator("#scorebar")).not_to_contain_text("your hand")
            shot(page, "phone-crazy-laid-down")
            continue
        discard_highest(page, [c["name"] for c in cards(page)])  # (each name tried once)
    assert bought and laid


HEAR_MOVES = """() => {
  window.heard = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) window.heard.push(node.textContent);
  }).observe(document.getElementById("live"), { childList: true, subtree: true });
}"""
"""Keep every line the live region reads out (each move once), in ``window.heard``."""
NOT_BOUGHT = "You did not buy "

HEAR_ALERTS = """() => {
  window.alerted = [];
  window.noticed = [];
  const box = document.getElementById("alert");
  new MutationObserver(() => {
    if (!box.textContent) return;
    window.alerted.push(box.textContent);
    if (box.classList.contains("notice")) window.noticed.push(box.textContent);
  }).observe(box, { childList: true, subtree: true, characterData: true });
}"""
"""Keep every text the alert box (role alert: read out when it changes) shows, in
``window.alerted``, and in ``window.noticed`` those it shows of its own accord (a notice, not
the answer to a tap that could not act, which repeats the prompt)."""

PROMPT_SEQ_HELD = """() => [
  document.getElementById("prompt").textContent,
  Number(document.getElementById("table").dataset.seq),
  document.querySelectorAll("#hand button").length,
  Boolean(document.querySelector(".scores li.me.acting, .scores li.me.asked")),
]"""


def test_stop_asking_passes_every_later_offer_of_the_round(server: Any, new_page: Any) -> None:
    """Crazy Rummy at four: after "Stop asking this round" the page passes each later offer of
    the round itself (saying so), and asks again in the next round."""
    page = new_page()
    start(page, server.url, "Crazy Rummy", opponents="3 opponents")
    page.evaluate(HEAR_MOVES)
    stopped: str | None = None  # the round in which the person last said stop
    clicks = 0
    for _ in range(900):
        wait_turn(page)
        if result_open(page):
            play_on(page)
            continue
        found = re.search(r"Round \d+", page.locator("#scorebar").inner_text())
        assert found is not None
        round_now = found.group()
        prompt, before, held, mine = page.evaluate(PROMPT_SEQ_HELD)  # all at one moment
        if not mine:
            continue  # the page's own pass went by already
        if prompt == "Not buying this round: passing.":
            assert stopped == round_now
            wait_past(page, before, "the page's own pass")  # no click: the page said pass
            assert page.evaluate(PROMPT_SEQ_HELD)[2] == held  # nothing bought
            continue
        panel = page.get_by_role("group", name="May I?")
        if panel.is_visible():
            assert round_now != stopped, f"asked to buy again in {round_now}"
            passes = [m for m in page.evaluate("() => window.heard") if m.startswith(NOT_BOUGHT)]
            if stopped is not None and len(passes) > clicks:
                break  # the page passed at least once by itself, and a new round asks again
            act(page, panel.get_by_role("button", name="Stop asking this round"))
            clicks += 1
            stopped = round_now
            continue
        if draw_or_pass(page):
            continue
        discard_for_books(page)
    else:
        pytest.fail("no offer passed by the page, then asked again in a new round")


SELECTION_SCRIPT = """async () => {
  const { keptSelection } = await import('/js/selection.js');
  const keys = (cards) => {
    const seen = {};
    return new Set(cards.map((c) => `${c}#${(seen[c] = (seen[c] || 0) + 1) - 1}`));
  };
  const kept = (selected, before, after) =>
    [...keptSelection(new Set(selected), before, after, keys(after))].sort();
  return [
    kept(['9H#1'], ['9H', '9H', '2C'], ['9H', '2C']),      // one copy thrown: the other not picked
    kept(['2C#0', '9H#0'], ['9H', '9H', '2C'], ['9H', '2C']),
    kept(['2C#0'], ['2C'], ['2C', '9H']),                 // a card drawn: the choice stays
    kept(['KS#0'], ['KS', '2C'], ['2C']),                 // the card itself gone
    kept(['2C#0'], null, ['2C']),                         // a new hand: keys that exist
  ];
}"""


def test_throwing_one_of_two_identical_cards_leaves_the_other_unselected(
    server: Any, new_page: Any
) -> None:
    """Crazy Rummy's two packs give a hand two copies of a card: when one goes, the copy left
    takes over its key, and must not look chosen (Discard would then stay greyed)."""
    page = new_page()
    page.goto(server.url)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    assert page.evaluate(SELECTION_SCRIPT) == [[], ["2C#0"], ["2C#0"], [], ["2C#0"]]


def test_asked_to_buy_with_no_buy_left_the_page_passes_by_itself(
    server: Any, new_page: Any
) -> None:
    """Crazy Rummy with no buy allowed (a house rule): an offer whose only answer is pass is
    answered by the page itself, which says why once; the "May I?" question is never asked."""
    page = new_page()
    start_with_house_rule(
        page, server.url, "Crazy Rummy", "3 opponents", "Buys per player a round", "0"
    )
    page.evaluate(HEAR_MOVES)
    page.evaluate(HEAR_ALERTS)
    panel = page.get_by_role("group", name="May I?")
    for _ in range(400):
        wait_turn(page)
        # Looked at before a round's score is closed: the next round would say it once more.
        if page.evaluate("() => window.noticed.length"):
            break  # the page passed by itself (once a round, so stop within this round)
        if result_open(page):
            play_on(page)
            continue
        prompt, before, _, mine = page.evaluate(PROMPT_SEQ_HELD)
        if not mine:
            continue
        assert not panel.is_visible(), "asked to buy with no buy left"
        if prompt == "No buys are left for you this round: passing.":
            wait_past(page, before, "the page's own pass")  # no click: the page said pass
            continue
        if draw_or_pass(page):
            continue
        discard_for_books(page)
    else:
        pytest.fail("never offered a card to buy")
    expect(page.locator("#log li").filter(has_text=NOT_BOUGHT)).not_to_have_count(0)
    # Said once, by the alert box alone (not by the log's live region too). A tap that cannot
    # act while the page passes repeats the prompt in the box, as any such tap does: those
    # are not notices, and this test's own taps may land then.
    noticed = page.evaluate("() => window.noticed")
    heard = [x for x in page.evaluate("() => window.heard") if x.startswith("No buys")]
    assert noticed == ["No buys are left for you this round: passing."], noticed
    assert heard == [], heard


def test_a_new_crazy_round_shows_its_number_and_contract_for_a_moment(
    server: Any, new_page: Any
) -> None:
    """Round 1 is played to its end on a table of the server's own database (the person plays
    simple moves); its score is up in the page, and Next round shows "Round 2 of 7" with the new
    contract in a banner over the table, which then goes (it takes no tap)."""
    from rummykit.server.store import Store
    from rummykit.server.tables import Table

    store = Store(server.db)
    table, token = Table.create(store, variant="crazy", opponents=2, level="medium", seed=3)
    for _ in range(2000):
        if table.hand.is_over:
            break
        if table.hand.to_act != 0:
            table.step_computer()
            continue
        legal = [str(a) for a in table.hand.view(0).legal_actions]
        for verb in ("down", "layoff", "draw", "pass"):
            move = next((a for a in legal if a.split()[0] == verb), None)
            if move:
                break
        table.act(0, move or max(legal, key=lambda a: a.split()[-1]), table.seq)
    else:
        pytest.fail("round 1 did not end")
    page = new_page()
    open_session(page, server.url, {"table": table.id, "seat": 0, "token": token, "invites": []})
    expect(page.locator("#dlg-result")).to_have_attribute("open", "")
    expect(page.locator("#banner")).to_be_hidden()
    page.get_by_role("button", name="Next round").click()
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Round 2 of 7Contract: 1 book + 1 run")
    expect(banner).to_have_attribute("aria-hidden", "true")  # (the live region says it)
    expect(banner).to_be_hidden(timeout=6_000)
