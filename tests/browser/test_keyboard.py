"""Playing by the keyboard alone: the keys for each move, the cursor in the hand, the keys' help."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_helpers import (
    best_discard,
    card_button,
    cards,
    hand,
    next_hand,
    play_on,
    press,
    result_open,
    seq,
    start,
    wait_focus_placed,
    wait_turn,
)


def test_gin_hand_by_keyboard_alone(server: Any, new_page: Any, shot: Any) -> None:
    page = new_page()
    page.goto(server.url)
    for _ in range(30):
        if page.evaluate("document.activeElement && document.activeElement.id") == "btn-start":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(hand(page).get_by_role("button").first).to_be_visible()
    wait_focus_placed(page)  # Play has gone with the start screen: the focus is not lost
    knocked = arrowed = False
    for _ in range(300):
        wait_turn(page)
        if result_open(page):
            if knocked:
                break
            if not page.get_by_role("button", name="Next hand").is_visible():
                # the computer won the whole match first: Rematch has the focus, Enter takes it
                rematch = page.get_by_role("button", name="Rematch")
                expect(rematch).to_be_focused()
                page.keyboard.press("Enter")
                page.wait_for_function("() => !document.querySelector('#dlg-result').open")
                continue
            next_hand(page, lambda: press(page, "n"))
            continue
        if page.get_by_role("button", name="Pass").is_visible():
            press(page, "p")
            continue
        if page.get_by_role("button", name="Best lay-offs").is_visible():
            press(page, "a")  # the computer knocked: the best lay-offs, then done
            continue
        if page.get_by_role("button", name=re.compile("^Stock")).is_enabled():
            press(page, "d")
            if not arrowed:
                # With the focus nowhere (a click on the felt, say), an arrow key moves it into
                # the hand.
                page.evaluate("() => document.activeElement.blur()")
                page.keyboard.press("ArrowRight")
                assert page.evaluate("document.activeElement.closest('#hand') !== null")
                arrowed = True
            continue
        for _ in range(40):
            if page.evaluate("document.activeElement.closest('#hand') !== null"):
                break
            page.keyboard.press("Tab")
        deadwood, name = best_discard(page)
        names = [c["name"] for c in cards(page)]
        here = names.index(page.evaluate("document.activeElement.getAttribute('aria-label')"))
        target = names.index(name)
        for _ in range(abs(target - here)):
            page.keyboard.press("ArrowRight" if target > here else "ArrowLeft")
        chosen = "() => window.rummykit.state.ui.selected.has(document.activeElement.dataset.key)"
        if target == here and not page.evaluate(chosen):
            page.keyboard.press("Space")  # (a focus that came by itself has selected it)
        expect(card_button(page, name)).to_have_attribute("aria-pressed", "true")
        knock = page.get_by_role("button", name=re.compile("^(Knock|Gin)$"))
        if knock.is_enabled() and deadwood <= 10:
            press(page, "k")
            knocked = True
        else:
            press(page, "Enter")
        if not knocked and seq(page) > 10:
            shot(page, "desktop-gin-table")
    else:
        pytest.fail("no knock in 300 turns")
    assert arrowed
    page.wait_for_function("() => document.querySelector('#dlg-result').open")
    expect(page.get_by_role("dialog").get_by_role("heading", name="You (knocked)")).to_be_visible()
    shot(page, "desktop-gin-result")


FOCUSED_CARD = """() => {
  const b = document.activeElement.closest('#hand button.card');
  return b ? {name: b.getAttribute('aria-label'), pressed: b.getAttribute('aria-pressed')} : null;
}"""
"""The hand's card with the focus (its name and whether it is selected), or None."""


def test_gin_selects_the_card_the_focus_lands_on_by_keys(server: Any, new_page: Any) -> None:
    """In Gin the card under the cursor is the selected one: so it is when the focus enters the
    hand (an arrow key from nowhere, Tab), and when it comes back by itself (a dialog closed)."""
    page = new_page()
    start(page, server.url, "Gin Rummy")
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("ArrowRight")  # the focus enters the hand
    card = page.evaluate(FOCUSED_CARD)
    assert card is not None, "the arrow key did not move the focus into the hand"
    button = card_button(page, card["name"])
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(hand(page).locator('button.card[aria-pressed="true"]')).to_have_count(1)
    page.keyboard.press("Space")  # unselected on purpose, then Tab away and back
    expect(button).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_CARD) is None
    page.keyboard.press("Shift+Tab")
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(button).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("?")  # the keys' help, closed: the focus comes back to the card
    expect(page.get_by_role("dialog", name="Keyboard")).to_be_visible()
    page.keyboard.press("Escape")
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-pressed", "true")


def test_after_a_discard_by_keys_the_cursor_keeps_its_place(server: Any, new_page: Any) -> None:
    """A thrown card's place goes to the card after it, and the cursor stays there (on the new
    last card when the last one was thrown), not back on the first card."""
    page = new_page()
    start(page, server.url, "Gin Rummy")
    for at in (7, -1):  # the 8th card, then the last
        for _ in range(40):
            wait_turn(page)
            if result_open(page):
                play_on(page)
            elif page.get_by_role("button", name="Pass").is_visible():
                press(page, "p")
            elif page.get_by_role("button", name="Best lay-offs").is_visible():
                press(page, "a")
            elif page.get_by_role("button", name=re.compile("^Stock")).is_enabled():
                press(page, "d")  # from the stock: any card may be thrown
                break
        else:
            pytest.fail("never my turn to draw")
        before = [c["name"] for c in cards(page)]
        card_button(page, before[0]).focus()
        page.keyboard.press("Home" if at >= 0 else "End")
        for _ in range(max(at, 0)):
            page.keyboard.press("ArrowRight")
        expect(card_button(page, before[at])).to_be_focused()
        press(page, "Enter")
        after = [c["name"] for c in cards(page)]
        assert after == (before[:at] + before[at + 1 :] if at >= 0 else before[:-1])
        # the card that took its place (the new last card), selected: the cursor in Gin
        expect(card_button(page, after[at])).to_be_focused()
        expect(card_button(page, after[at])).to_have_attribute("aria-pressed", "true")


def test_enter_throws_the_card_under_the_cursor_in_basic_rummy(server: Any, new_page: Any) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy")
    for _ in range(40):
        wait_turn(page)
        if result_open(page):
            play_on(page)
            continue
        if page.get_by_role("button", name=re.compile("^Stock")).is_enabled():
            break
    else:
        pytest.fail("never my turn to draw")
    press(page, "d")  # draw from the stock: every card may then be discarded
    before = [c["name"] for c in cards(page)]
    focused = hand(page).get_by_role("button").nth(2)
    focused.focus()
    page.keyboard.press("ArrowRight")  # the cursor moves; nothing is selected in Basic Rummy
    assert all(c["pressed"] == "false" for c in cards(page))
    thrown = before[3]
    press(page, "Enter")
    after = [c["name"] for c in cards(page)]
    assert len(after) == len(before) - 1 and thrown not in after


def test_the_keys_help_words_n_for_the_game(server: Any, new_page: Any) -> None:
    """N deals the next round in Crazy Rummy and the next hand in the other games: the keys'
    help says which, at the table and on the start screen, in both languages."""
    page = new_page()
    start(page, server.url, "Crazy Rummy")
    keys = page.get_by_role("dialog", name="Keyboard")
    page.keyboard.press("?")
    expect(keys).to_contain_text("Score screen, next round")
    expect(keys).not_to_contain_text("next hand")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Tiếng Việt").click()
    page.get_by_role("button", name="Phím tắt").click()
    keys_vi = page.get_by_role("dialog", name="Phím tắt")
    expect(keys_vi).to_contain_text("Bảng điểm, vòng tiếp")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="English").click()
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
    page.get_by_role("button", name="Keys").click()
    expect(keys).to_contain_text("Score screen, next hand")
    expect(keys).not_to_contain_text("next round")
