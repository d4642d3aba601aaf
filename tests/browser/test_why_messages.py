"""A move that cannot be made says why: greyed-out buttons, taps out of turn, cards that stay."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_helpers import (
    act,
    best_discard,
    cards,
    open_session,
    open_settings,
    select,
    select_only,
    seq,
    start,
    wait_turn,
)


def test_a_greyed_out_button_says_why_when_tapped(server: Any, new_page: Any) -> None:
    """Discard and Meld stay greyed out until the move is legal, yet a tap on them (or on a table
    meld the card does not fit) explains what is missing instead of doing nothing."""
    page = new_page()
    start(page, server.url, "Basic Rummy", level="Easy")
    wait_turn(page)
    pile = page.get_by_role("button", name=re.compile("^Discard pile, top card "))
    found = re.search(r"top card (.+)$", pile.get_attribute("aria-label") or "")
    assert found
    taken = found.group(1)
    act(page, page.get_by_role("button", name=re.compile("^Take")))
    discard = page.get_by_role("button", name="Discard", exact=True)
    meld = page.get_by_role("button", name="Meld", exact=True)
    alert = page.locator("#alert")
    # Nothing selected: greyed out (for Playwright too), but a tap tells what to do.
    expect(discard).to_be_disabled()
    expect(discard).to_have_attribute("aria-disabled", "true")
    discard.click(force=True)
    expect(alert).to_contain_text("Select one card first")
    meld.click(force=True)
    expect(alert).to_have_text("Select the cards of a meld first")
    # The card just taken from the pile cannot go straight back.
    select_only(page, taken)
    expect(discard).to_be_disabled()
    discard.click(force=True)
    expect(alert).to_have_text(
        "You cannot throw back the card you just took from the discard pile this turn"
    )
    meld.click(force=True)
    expect(alert).to_contain_text("do not make a meld")
    before = seq(page)  # nothing was sent on those taps: the next move is the next view
    # Any other card goes.
    other = next(c["name"] for c in cards(page) if c["name"] != taken)
    select_only(page, other)
    expect(discard).to_be_enabled()
    expect(discard).not_to_have_attribute("aria-disabled", "true")
    act(page, discard)
    assert seq(page) > before


def pile_top(page: Any) -> str:
    """The discard pile's top card, by name, as the pile's label says it (either language)."""
    label = page.locator("#discard").get_attribute("aria-label") or ""
    found = re.search(r"(?:top card|lá trên cùng) (.+)$", label)
    assert found, label
    return found.group(1)


def wait_for_turn_of(pages: dict[int, Any]) -> int:
    """The seat whose page says it is its turn (both pages having seen the same view)."""
    for _ in range(100):
        for seat, page in pages.items():
            if page.title().startswith("●"):
                return seat
        pages[0].wait_for_timeout(100)
    pytest.fail("no page says it is its turn")


def test_a_move_that_does_nothing_says_why_and_a_good_move_clears_the_error(
    server: Any, new_page: Any
) -> None:
    """Basic Rummy between An (English) and Lan (Vietnamese): a tap on the stock or the pile out
    of turn names whose turn it is (once in two seconds); on one's own turn the stock says a
    card was drawn already, the pile asks for the card to throw, two cards and Discard ask for
    one, Meld with no meld says what a meld is, the card just taken cannot be thrown back; and
    the red error goes as soon as a move of this person is accepted."""
    host = new_page()
    host.goto(server.url)
    host.get_by_role("radio", name=re.compile("^Basic Rummy")).check()
    open_settings(host)
    host.get_by_label("Opponents").select_option(label="1 opponent")
    host.get_by_label("Of them, friends").select_option(label="1 friend")
    host.locator("#start").get_by_label("Your name").fill("An")
    host.get_by_role("button", name="Play").click()
    link = host.locator("#invite-list input").first.input_value()
    friend = new_page(locale="vi-VN")
    friend.goto(link)
    friend.locator("#join").get_by_label("Tên của bạn").fill("Lan")
    friend.get_by_role("button", name="Vào bàn").click()
    expect(host.locator("#opponents-zone")).to_contain_text("Lan")
    pages = {0: host, 1: friend}
    names = {0: "An", 1: "Lan"}
    checked: set[str] = set()
    for _ in range(2):  # a turn of each, whoever starts
        seat = wait_for_turn_of(pages)
        acting, waiting = pages[seat], pages[1 - seat]
        alert = waiting.locator("#alert")
        # Out of turn: the stock (greyed out, yet it takes a tap) names the person to wait for.
        waiting.locator("#stock").click(force=True)
        if waiting is host:
            expect(alert).to_have_text(f"It is not your turn: waiting for {names[seat]}")
            # not again within two seconds, however often the person taps or presses D
            waiting.evaluate("() => (document.querySelector('#alert').textContent = '')")
            waiting.keyboard.press("d")
            waiting.locator("#discard").click(force=True)
            waiting.wait_for_timeout(500)
            expect(alert).to_have_text("")
            waiting.wait_for_timeout(1600)
            waiting.keyboard.press("d")
            expect(alert).to_have_text(f"It is not your turn: waiting for {names[seat]}")
        else:
            expect(alert).to_have_text(f"Chưa đến lượt bạn: đang chờ {names[seat]}")
        taken = pile_top(acting)
        act(acting, acting.locator("#discard"))  # a tap on the pile takes its top card
        others = [c["name"] for c in cards(acting) if c["name"] != taken]
        alert = acting.locator("#alert")
        if acting is friend:
            # Vietnamese: the card just taken cannot go straight back, and the page says why.
            select_only(friend, taken)
            friend.locator("#discard").click(force=True)
            expect(alert).to_have_text(
                "Không được bỏ lại lá vừa lấy từ chồng bài bỏ trong lượt này"
            )
            select_only(friend, others[0])
            act(friend, friend.get_by_role("button", name="Bỏ bài", exact=True))
            checked.add("vi")
            continue
        acting.locator("#stock").click(force=True)
        expect(alert).to_have_text(
            "You have your card for this turn already: meld, lay off, or throw a card"
        )
        acting.locator("#discard").click(force=True)
        expect(alert).to_have_text("Select the card to throw first, then tap the pile")
        select(acting, others[0])
        select(acting, others[1])
        acting.get_by_role("button", name="Discard", exact=True).click(force=True)
        expect(alert).to_have_text("Select only one card to discard")
        acting.get_by_role("button", name="Meld", exact=True).click(force=True)
        expect(alert).to_have_text(
            "The selected cards do not make a meld you can lay down now. A meld is 3 or 4 cards"
            " of one rank, or 3 or more cards in a row of one suit; the ace is low."
        )
        shown = acting.evaluate("Date.now()")
        expect(alert).not_to_have_class(re.compile(r"\bnotice\b"))  # an error, in red
        # A move that stands: the error about the try before it goes at once (not after 6 s).
        select_only(acting, others[0])
        act(acting, acting.get_by_role("button", name="Discard", exact=True))
        expect(alert).to_have_text("", timeout=1000)
        assert acting.evaluate("Date.now()") - shown < 5000
        checked.add("en")
    assert checked == {"en", "vi"}


def test_gin_says_why_the_taken_card_stays_and_why_knock_is_greyed(
    server: Any, new_page: Any
) -> None:
    """Gin: a second tap on a card throws it, but on the card just taken it says why it stays;
    a tap on the greyed-out Knock says what the deadwood must come down to."""
    page = new_page()
    start(page, server.url, "Gin Rummy", level="Easy")
    alert = page.locator("#alert")
    for _ in range(40):
        wait_turn(page)
        take = page.get_by_role("button", name=re.compile("^Take "))
        if take.is_visible() and take.is_enabled():
            pile = page.get_by_role("button", name=re.compile("^Discard pile, top card "))
            taken = re.sub(r"^.*top card ", "", pile.get_attribute("aria-label") or "")
            act(page, take)
            break
        act(page, page.get_by_role("button", name=re.compile("^(Pass|Stock)")).first)
        deadwood, name = best_discard(page)
        act(page, select(page, name))
    else:
        pytest.fail("no up-card or discard to take came")
    card = select(page, taken)
    card.click()
    expect(alert).to_have_text(
        "You cannot throw back the card you just took from the discard pile this turn"
    )
    deadwood, _ = best_discard(page)
    knock = page.get_by_role("button", name=re.compile("^(Knock|Gin)$"))
    if deadwood > 10:
        expect(knock).to_have_attribute("aria-disabled", "true")
        knock.click(force=True)
        expect(alert).to_have_text(
            f"You may knock once your deadwood is 10 or less: your best throw leaves {deadwood}"
        )
    else:  # a rare deal: the knock is there to take
        expect(knock).to_be_enabled()
        expect(knock).not_to_have_attribute("aria-disabled", "true")


def test_crazy_says_why_the_twin_of_the_last_card_cannot_be_taken(
    server: Any, new_page: Any
) -> None:
    """Crazy Rummy, two packs: with one card left, 4♦, and the other 4♦ on the pile, taking it
    would leave two cards neither of which may be thrown, so the server offers no Take; a tap on
    the pile says why instead of only "draw". The position is played on a table of the server's
    own database (seed 60, the medium computer), then continued in the page."""
    from rummykit.games.crazy import CrazyState
    from rummykit.server.store import Store
    from rummykit.server.tables import Table

    mine = ["pass", "draw", "discard AH", "draw", "discard 7C", "draw"]
    mine += ["down 8D 8D 2S | QC QS QS", "discard 3C"]
    store = Store(server.db)
    table, token = Table.create(store, variant="crazy", opponents=1, level="medium", seed=60)
    for text in mine:
        while table.hand.to_act != 0:
            table.step_computer()
        table.act(0, text, table.seq)
    while table.hand.to_act != 0:
        table.step_computer()
    state = table.hand
    assert isinstance(state, CrazyState)
    assert state.phase.value == "draw" and [str(c) for c in state.hands[0]] == ["4D"]
    assert str(state.offered) == "4D" and [str(a) for a in state.legal_actions()] == ["draw"]
    page = new_page()
    open_session(page, server.url, {"table": table.id, "seat": 0, "token": token, "invites": []})
    wait_turn(page)
    page.get_by_role("button", name=re.compile("^Discard pile, top card ")).click(force=True)
    expect(page.locator("#alert")).to_have_text(
        "You cannot take 4 of diamonds: your hand holds only the same card, and none of them could be"
        " thrown this turn (house rule: Throw the twin of a card just taken). Draw from the stock"
    )
    before = seq(page)
    act(page, page.get_by_role("button", name=re.compile("^(Draw|Stock)")).first)
    assert seq(page) > before and len(cards(page)) == 2


def test_crazy_says_why_a_card_goes_on_no_meld_before_the_contract_is_down(
    server: Any, new_page: Any
) -> None:
    """A computer has laid down; the person has not, selects a card and taps a table meld: the
    message says why it goes nowhere (it used to name the card and the meld only). The position
    is played on a table of the server's own database (seed 1, two medium computers; the person
    draws and throws their first card), then continued in the page."""
    from rummykit.server.store import Store
    from rummykit.server.tables import Table

    store = Store(server.db)
    table, token = Table.create(store, variant="crazy", opponents=2, level="medium", seed=1)
    for _ in range(400):
        if table.hand.to_act != 0:
            table.step_computer()
            continue
        view = table.hand.view(0)
        legal = [str(a) for a in view.legal_actions]
        if table.hand.phase.value == "discard" and view.table and not view.laid_down[0]:  # type: ignore[attr-defined]
            break
        move = next((a for a in ("draw", "pass") if a in legal), None)
        table.act(0, move or next(a for a in legal if a.startswith("discard")), table.seq)
    else:
        pytest.fail("no computer laid down first")
    page = new_page()
    open_session(page, server.url, {"table": table.id, "seat": 0, "token": token, "invites": []})
    wait_turn(page)
    name = cards(page)[0]["name"]
    select(page, name)
    page.locator('#melds-zone button.table-meld[data-meld="1"]').click(force=True)
    expect(page.locator("#alert")).to_contain_text(
        f"The {name} does not fit meld 1: you lay off once your contract is down"
    )
