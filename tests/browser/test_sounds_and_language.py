"""The language switch (English and Vietnamese) and the sounds."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from table_helpers import (
    SOUNDS,
    act,
    gin_turn_to_knock,
    hand,
    open_settings,
    play_on,
    result_open,
    start,
    wait_turn,
)


def test_language_switch(server: Any, new_page: Any, shot: Any) -> None:
    page = new_page(locale="vi-VN")
    page.goto(server.url)
    expect(page.get_by_role("heading", name="Trận mới")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    shot(page, "desktop-start-vi")
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("button", name="Play").click()
    first = hand(page).get_by_role("button").first
    expect(first).to_have_attribute(
        "aria-label", re.compile(r" of (clubs|diamonds|hearts|spades)$")
    )
    wait_turn(page)
    pass_ = page.get_by_role("button", name="Pass")
    act(
        page, pass_ if pass_.is_visible() else page.get_by_role("button", name=re.compile("^Stock"))
    )
    log = page.locator("#log li")
    moves = log.count()
    assert moves >= 1
    expect(log.last).to_have_text(re.compile(r"^(You|Computer) "))
    page.get_by_role("button", name="Tiếng Việt").click()
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(first).to_have_attribute("aria-label", re.compile(r" (chuồn|rô|cơ|bích)$"))
    # the log keeps every move, now worded in Vietnamese
    expect(log.first).to_have_text(re.compile(r"^(Bạn|Máy) "))
    assert log.count() >= moves
    expect(page.get_by_role("button", name=re.compile(r"^Nọc, còn \d+ lá$"))).to_be_visible()
    expect(page.get_by_role("button", name="Gõ")).to_be_visible()
    wait_turn(page)
    page.get_by_role(
        "button", name="Gợi ý"
    ).click()  # the hint is worded on the server, in Vietnamese
    # after the move above it may be any phase of a turn: pass, take, draw, discard or knock
    expect(page.locator("#hint-text")).to_have_text(
        re.compile(r"^Gợi ý: (bỏ qua|lấy|rút|bỏ [0-9AJQK]+[♣♦♥♠]|gõ)")
    )
    # "bạn" (you) put in where a Vietnamese sentence starts gets its capital letter
    titles = page.evaluate(
        """async () => {
          const { sentenceCase } = await import("/js/results.js");
          return [sentenceCase("Ù Gin! bạn được 25 điểm"), sentenceCase("bạn được 10 điểm."),
                  sentenceCase("Máy gõ: bạn được 3 điểm"), sentenceCase("7 points to you.")];
        }"""
    )
    assert titles == [
        "Ù Gin! Bạn được 25 điểm",
        "Bạn được 10 điểm.",
        "Máy gõ: bạn được 3 điểm",
        "7 points to you.",
    ]
    page.get_by_role("button", name="Luật chơi").click()
    expect(
        page.get_by_role("dialog").get_by_role("heading", name="Tóm tắt luật Gin Rummy")
    ).to_be_visible()
    page.keyboard.press("Escape")
    shot(page, "desktop-gin-vi")


def test_the_vietnamese_menu_button_fits_the_top_bar_of_a_small_phone(
    server: Any, new_page: Any, shot: Any
) -> None:
    """The button back to the start screen is in Vietnamese too, and on a 360 px phone the top
    bar keeps one row (its buttons side by side)."""
    page = new_page(locale="vi-VN", phone=True)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(server.url)
    page.get_by_role("button", name="Chơi", exact=True).click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    leave = page.locator("#btn-leave")
    expect(leave).to_have_text("Trang chủ")
    tops = page.locator(".tools button:visible").evaluate_all(
        "bs => bs.map((b) => Math.round(b.getBoundingClientRect().top))"
    )
    assert len(tops) >= 4 and len(set(tops)) == 1, tops
    shot(page, "phone-360-vi-topbar")
    leave.click()
    expect(page.get_by_role("heading", name="Trận mới")).to_be_visible()


def test_the_sounds_help_names_the_s_key_only_where_there_is_a_keyboard(
    server: Any, new_page: Any
) -> None:
    for phone, shown in ((False, True), (True, False)):
        page = new_page(phone=phone)
        page.goto(server.url)
        open_settings(page)
        expect(page.locator("#sound-help")).to_contain_text("the end of a hand")
        key = page.locator("#sound-help .keys-only")
        expect(key).to_be_visible() if shown else expect(key).to_be_hidden()


def test_the_servers_words_write_a_joker_as_the_page_does(server: Any, new_page: Any) -> None:
    """Hints and reviews come worded by the server, with 🃏 for a joker (which some devices draw
    as an empty box); the page writes it "Joker", as in the log, and reads it out in words."""
    page = new_page(locale="vi-VN")
    page.goto(server.url)
    expect(page.get_by_role("button", name="Chơi", exact=True)).to_be_visible()
    shown, spoken = page.evaluate(
        """async () => {
      const cards = await import('/js/cards.js');
      const text = 'gửi 🃏 vào bộ 2';
      return [cards.shownText(text), cards.spokenCards(text)];
    }"""
    )
    assert (shown, spoken) == ("gửi Joker vào bộ 2", "gửi Joker vào bộ 2")


def test_sounds_play_when_turned_on_and_the_s_key_turns_them_off(
    server: Any, new_page: Any
) -> None:
    """Sounds are off until the person ticks "Sounds"; then a Gin hand against the computer
    chimes when the turn comes to the person and ticks for the moves (really played: the audio
    engine runs), and the S key at the table turns them off, which the browser remembers."""
    page = new_page()
    page.goto(server.url)
    open_settings(page)
    box = page.get_by_label("Sounds")
    expect(box).not_to_be_checked()
    box.check()
    start(page, server.url, "Gin Rummy", level="Easy")

    def my_turn_at_the_table() -> None:
        wait_turn(page)
        while result_open(page):  # a hand over: on to the next one
            play_on(page)
            wait_turn(page)

    for _ in range(6):
        my_turn_at_the_table()
        gin_turn_to_knock(page)
    counts = page.evaluate(SOUNDS)
    assert counts["turn"] >= 2 and counts["card"] + counts["turn"] >= 4, counts
    assert counts["state"] == "running"
    my_turn_at_the_table()
    page.locator("body").focus()
    page.keyboard.press("s")
    expect(page.locator("#alert")).to_have_text("Sounds off")
    before = page.evaluate(SOUNDS)
    for _ in range(4):
        wait_turn(page)
        if result_open(page):
            break
        gin_turn_to_knock(page)
    after = page.evaluate(SOUNDS)
    assert {k: after[k] for k in ("card", "turn", "win", "lose")} == {
        k: before[k] for k in ("card", "turn", "win", "lose")
    }, (before, after)
    page.reload()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    if result_open(page):  # the hand ended meanwhile: its score comes back after the reload
        page.get_by_role("button", name="See the table").click()
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_label("Sounds")).not_to_be_checked()  # remembered off
