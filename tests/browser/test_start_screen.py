"""The start screen's choices: house rules, computer speed, advice on every turn, guided games."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from live_server import LiveServer
from playwright.sync_api import expect
from table_helpers import (
    cards,
    draw_or_throw_highest,
    hand,
    in_view,
    invite_to_gin,
    open_settings,
    result_open,
    start,
    wait_focus_placed,
    wait_turn,
)


def test_house_rules_are_chosen_on_the_start_screen_and_shown_at_the_table(
    server: Any, new_page: Any, shot: Any
) -> None:
    """Every option of the game can be changed under House rules; the table plays by them and
    says which differ from the standard rules; the choice is remembered and can be reset."""
    page = new_page()
    page.goto(f"{server.url}/?deal=1")  # (see start)
    page.get_by_role("radio", name=re.compile("^Basic Rummy")).check()
    open_settings(page)
    house = page.locator("#house")
    house.locator("summary").click()
    expect(house.get_by_label("New melds a turn")).to_have_value("1")  # Straight Rummy: one
    house.get_by_label("When the stock runs out").select_option(label="Shuffle the pile")
    limit = house.get_by_label("Times the pile becomes the stock")
    limit.fill("500")
    page.get_by_role("button", name="Play").click()  # out of range: the form says so, no game
    assert limit.evaluate("e => !e.validity.valid")
    expect(page.locator("#start")).to_be_visible()
    limit.fill("3")
    house.get_by_label("Rummy bonus").check()
    expect(house.locator("summary")).to_contain_text("(3 changed)")
    shot(page, "desktop-house-rules")
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    expect(page.locator("#house-line")).to_have_text(
        "House rules: When the stock runs out: Shuffle the pile; Times the pile becomes the"
        " stock: 3; Rummy bonus: on"
    )
    # Back at the start screen the choice is kept; Standard rules puts every rule back.
    page.get_by_role("button", name="Menu").click()
    open_settings(page)
    expect(house.locator("summary")).to_contain_text("(3 changed)")
    page.locator("#preset").select_option(label="Classic Rummy (any number of melds)")
    expect(house.get_by_label("New melds a turn")).to_have_value("")  # any number: no limit
    expect(house.get_by_label("When the stock runs out")).to_have_value("shuffle")
    expect(house.locator("summary")).not_to_contain_text("changed")
    house.get_by_label("Times the pile becomes the stock").fill("2")
    expect(house.locator("summary")).to_contain_text("(1 changed)")
    page.get_by_role("button", name="Standard rules").click()
    expect(house.locator("summary")).not_to_contain_text("changed")
    expect(house.get_by_label("Times the pile becomes the stock")).to_have_value("1")
    # A game with no house rule changed shows no such line.
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    expect(page.locator("#house-line")).to_be_hidden()


def test_advice_on_every_turn_shows_the_hint_without_choosing_for_the_person(
    server: Any, new_page: Any
) -> None:
    """With "Advice on every turn" the hard player's advice appears at each of the person's
    decisions, without a key or a button, and selects no card; the choice is remembered."""
    page = new_page()
    page.goto(f"{server.url}/?deal=1")  # (see start)
    page.get_by_role("radio", name=re.compile("^Basic Rummy")).check()
    open_settings(page)
    coach = page.get_by_label("Advice on every turn (to learn)")
    expect(coach).not_to_be_checked()
    coach.check()
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    advice = page.locator("#hint-text")
    expect(page.locator("#btn-say")).to_be_hidden()  # no one but computers to talk to
    seen: set[str] = set()
    for _ in range(6):
        wait_turn(page)
        if result_open(page):
            break
        expect(advice).to_have_text(re.compile(r"^Hint: \w"))
        text = advice.inner_text()
        seen.add(text.split(":")[1].split()[0])
        # the advice is words only: the person's selection is their own
        expect(hand(page).locator('button.card[aria-pressed="true"]')).to_have_count(0)
        draw_or_throw_highest(page)
    # advice for each kind of decision: the draw (draw, take) and the rest of the turn
    assert {"draw", "take"} & seen and {"discard", "meld", "lay"} & seen, seen
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_label("Advice on every turn (to learn)")).to_be_checked()


def test_a_guided_game_is_one_easy_computer_and_advice_on_every_turn(
    server: Any, new_page: Any
) -> None:
    page = new_page(locale="vi-VN", phone=True)
    page.goto(f"{server.url}/?deal=1")  # (see start)
    page.get_by_role("radio", name=re.compile("^Rummy cơ bản")).check()
    open_settings(page)
    page.get_by_label("Đối thủ", exact=True).select_option(label="3 đối thủ")
    page.get_by_label("Trình độ của máy").select_option(label="Khó")
    page.get_by_role("button", name="Mới chơi? Chơi một trận có hướng dẫn").click()
    # First, the game's first steps, one tip at a time, over the table.
    intro = page.get_by_role("dialog", name=re.compile(r"^Rummy cơ bản: làm quen"))
    expect(intro).to_have_accessible_name("Rummy cơ bản: làm quen (1/4)")
    expect(intro).to_contain_text("Mục tiêu: là người đầu tiên hết bài.")
    expect(intro.get_by_role("button", name="Quay lại")).to_be_hidden()
    for n in (2, 3, 4):
        intro.get_by_role("button", name="Tiếp").click()
        expect(intro).to_have_accessible_name(f"Rummy cơ bản: làm quen ({n}/4)")
    intro.get_by_role("button", name="Quay lại").click()
    expect(intro).to_contain_text("gửi bài")  # tip 3: laying off
    intro.get_by_role("button", name="Tiếp").click()
    expect(intro.get_by_role("button", name="Tiếp")).to_be_hidden()
    intro.get_by_role("button", name="Đã hiểu").click()
    expect(intro).to_be_hidden()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    # whatever was chosen before: one opponent, the easy computer
    expect(page.locator("#opponents-zone .opp")).to_have_count(1)
    expect(page.locator("#opponents-zone .opp .level")).to_have_text("· Dễ")
    wait_turn(page)
    expect(page.locator("#hint-text")).to_have_text(re.compile(r"^Gợi ý: \w"))
    page.get_by_role("button", name="Trang chủ").click()
    expect(page.get_by_label("Gợi ý mỗi lượt (để học chơi)")).to_be_checked()


def test_the_computer_speed_is_chosen_on_the_start_screen_and_sent_to_the_table(
    server: Any, new_page: Any
) -> None:
    """ "Computer speed" (slow, normal, fast) is remembered by the browser and sent to the table
    each time the page joins it (the server moves its computer seats at the slowest pace asked
    for there)."""
    page = new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    page.goto(server.url)
    open_settings(page)
    speed = page.get_by_label("Computer speed")
    expect(speed).to_have_value("normal")
    expect(speed.locator("option")).to_have_text(["Slow", "Normal", "Fast"])
    speed.select_option(label="Fast")
    page.reload()  # remembered as soon as it is chosen
    open_settings(page)
    expect(page.get_by_label("Computer speed")).to_have_value("fast")
    page.get_by_role("button", name="Tiếng Việt").click()
    expect(page.get_by_label("Tốc độ của máy").locator("option")).to_have_text(
        ["Chậm", "Bình thường", "Nhanh"]
    )
    page.get_by_role("button", name="English").click()
    expect(page.get_by_label("Computer speed")).to_be_visible()  # back in English (and stored)
    start(page, server.url, "Gin Rummy")
    # A reload joins the table again, and asks for the same pace again.
    page.reload()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    for _ in range(50):  # the frame's event may reach the test a moment after the page sent it
        if len([f for f in sent if '"hello"' in f]) == 2:
            break
        page.wait_for_timeout(100)
    hellos = [json.loads(f) for f in sent if '"hello"' in f]
    assert [h.get("pace") for h in hellos] == ["fast", "fast"]


def test_a_guided_game_starts_when_its_tips_are_closed(server: Any, new_page: Any) -> None:
    """The tips come first, over the start screen: no table is made (so no computer plays)
    until they are closed, here with Esc."""
    page = new_page(phone=True)
    made: list[str] = []
    page.on("request", lambda r: made.append(r.url) if r.method == "POST" else None)
    page.goto(f"{server.url}/?deal=1")  # (see start)
    page.get_by_role("radio", name=re.compile("^Basic Rummy")).check()
    page.get_by_role("button", name="New to this game? Try a guided game").click()
    intro = page.get_by_role("dialog", name=re.compile(r"^Basic Rummy: first steps"))
    expect(intro).to_have_accessible_name("Basic Rummy: first steps (1/4)")
    page.wait_for_timeout(1500)  # time enough for a computer move, were there a table
    assert made == []
    expect(page.locator("#table")).to_be_hidden()
    intro.get_by_role("button", name="Next tip").click()
    # (the focus stays on the button; the next tip is read out, its cards in words)
    expect(page.locator("#dlg-intro .dialog-live")).to_contain_text(
        "Basic Rummy: first steps (2/4). "
    )
    page.keyboard.press("Escape")
    expect(intro).to_be_hidden()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    wait_focus_placed(page)  # not left on the start screen's button, now hidden
    assert [url for url in made if url.endswith("/api/tables")] == [f"{server.url}api/tables"]
    expect(page.locator("#opponents-zone .opp")).to_have_count(1)
    expect(page.locator("#opponents-zone .opp .level")).to_have_text("· Easy")


def test_a_guided_crazy_rummy_game_has_two_computers_so_buying_can_happen(
    server: Any, new_page: Any
) -> None:
    """Its tips teach "May I?", which needs a third player (nobody may buy at two)."""
    page = new_page(phone=True)
    page.goto(f"{server.url}/?deal=1")  # (see start)
    page.get_by_role("radio", name=re.compile("^Crazy Rummy")).check()
    page.get_by_role("button", name="New to this game? Try a guided game").click()
    intro = page.get_by_role("dialog", name=re.compile(r"^Crazy Rummy: first steps"))
    intro.get_by_role("button", name="Next tip").click()
    intro.get_by_role("button", name="Next tip").click()
    expect(intro).to_contain_text("May I?")
    page.keyboard.press("Escape")
    expect(hand(page).get_by_role("button").first).to_be_visible()
    expect(page.locator("#opponents-zone .opp")).to_have_count(2)
    expect(page.locator("#opponents-zone .opp .level")).to_have_text(["· Easy", "· Easy"])


def test_the_rules_open_before_the_list_of_games_has_come(server: Any, new_page: Any) -> None:
    """Rules tapped while the list of games is still on its way (a slow network, a busy
    server) open the rules of the game last played, else Gin, with no error on the page (the
    page read the start screen's choice from a list still empty; seen once in CI)."""
    page = new_page(phone=True, viewport=(320, 568))

    def slow_games(route: Any) -> None:
        page.wait_for_timeout(1000)
        route.continue_()

    page.route("**/api/games", slow_games)
    page.goto(server.url, wait_until="domcontentloaded")
    page.get_by_role("button", name="Rules").click()
    dialog = page.get_by_role("dialog", name="Rules")
    expect(dialog).to_be_visible()
    expect(page.locator("#rules-body")).to_contain_text("Gin")
    assert page.locator("#rules-body").get_attribute("data-game") == "gin"
    expect(page.locator("#start")).to_be_visible()  # (the list came after all)
    # A slow answer still on its way when the test ends would fail the next test's first call.
    page.unroute_all(behavior="wait")


def test_the_rules_of_the_last_tab_tapped_win_over_a_slower_answer(
    server: Any, new_page: Any
) -> None:
    """Gin's rules are slow to come; Basic Rummy's tab, tapped meanwhile, is what the dialog
    shows once both have come (a late answer used to overwrite the tab tapped last)."""
    page = new_page()
    gin_asked: list[str] = []

    def slow_gin(route: Any) -> None:
        gin_asked.append(route.request.url)
        page.wait_for_timeout(800)
        route.continue_()

    gin_came: list[str] = []
    page.route("**/rules/gin.*.html", slow_gin)
    page.on("requestfinished", lambda r: gin_came.append(r.url) if "/rules/gin." in r.url else None)
    page.goto(server.url)
    dialog = page.get_by_role("dialog", name="Rules")
    page.get_by_role("button", name="Rules").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Basic Rummy").click()
    body = page.locator("#rules-body")
    expect(body).to_have_attribute("data-game", "rummy")
    expect(body).not_to_have_attribute("aria-busy", "true")
    for _ in range(200):  # (until the slow Gin answer has come, to be dropped)
        if gin_came:
            break
        page.wait_for_timeout(50)
    assert gin_asked and gin_came, "Gin's rules were not asked for first, or never came"
    page.evaluate("() => new Promise(r => setTimeout(r, 100))")  # (its text read, then dropped)
    assert body.get_attribute("data-game") == "rummy"
    expect(body).not_to_contain_text("Gin Rummy in short")
    expect(dialog.get_by_role("button", name="Basic Rummy")).to_have_attribute(
        "aria-pressed", "true"
    )
    # Another slow answer still on its way when the test ends (a second ask for Gin's rules)
    # would fail the next test's first call with "Target page ... has been closed".
    page.unroute_all(behavior="wait")


def test_too_many_new_games_from_one_network_are_told_when_to_try_again(
    tmp_path: Any, new_page: Any
) -> None:
    """A server that allows one new table a minute per address: the second Play says, in
    the page's language, how long to wait, and the start screen stays as it was."""
    server = LiveServer(db=tmp_path / "rationed.sqlite3", tables_per_minute=1)
    server.start()
    try:
        start(new_page(), server.url, "Gin Rummy")
        page = new_page()  # (another tab of the same network)
        page.goto(server.url)
        page.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
        page.get_by_role("button", name="Play").click()
        alert = page.locator("#alert")
        expect(alert).to_contain_text(
            re.compile(r"Too many requests from this network just now: try again in \d+ s")
        )
        expect(page.locator("#start")).to_be_visible()
        vi = new_page(locale="vi-VN")
        vi.goto(server.url)
        vi.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
        vi.get_by_role("button", name="Chơi", exact=True).click()
        expect(vi.locator("#alert")).to_contain_text(re.compile(r"thử lại sau \d+ giây"))
    finally:
        server.stop()


def test_a_deal_number_in_the_address_deals_the_same_cards_against_the_computer(
    server: Any, new_page: Any
) -> None:
    """``?deal=42``: the start screen says which deal it is, and each game against the computer
    from that address gets the same cards (another number, others). With a friend at the table
    the note says the cards are dealt at random, and the table is made (the page sends no deal:
    the server would refuse it)."""
    dealt = []
    for deal in (42, 42, 43):
        page = new_page()
        page.goto(f"{server.url}/?deal={deal}")
        page.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
        expect(page.locator("#deal-note")).to_have_text(
            f"Deal {deal}: everyone who opens this link against the computer gets the same cards."
        )
        page.get_by_role("button", name="Play").click()
        expect(hand(page).get_by_role("button").first).to_be_visible()
        dealt.append(sorted(c["name"] for c in cards(page)))
    assert dealt[0] == dealt[1] != dealt[2] and len(dealt[0]) == 10
    host = new_page()
    link = invite_to_gin(host, f"{server.url}/?deal=42")
    assert "#join=" in link
    expect(host.locator("#deal-note")).to_contain_text(
        "with friends, the cards are dealt at random"
    )


SCREENS = [(320, 568), (390, 844), (768, 1024), (1280, 800)]
"""The sizes every start-screen check runs at: small and large phones, a tablet, a laptop."""


@pytest.mark.parametrize("locale", ["en-US", "vi-VN"])
def test_play_is_in_view_at_once_on_every_screen_with_the_settings_folded(
    server: Any, new_page: Any, shot: Any, locale: str
) -> None:
    """Play was under a long form (y about 1,056 on a laptop, 1,143 on a phone): now it comes
    right under the games, on every screen from 320x568 up, with what it starts in words; the
    settings are folded one tap below, and a first visit plays Gin against a Medium computer."""
    for width, height in SCREENS:
        page = new_page(locale=locale, phone=width < 700, viewport=(width, height))
        page.goto(server.url)
        play = page.locator("#btn-start")
        expect(play).to_be_visible()
        assert in_view(page, "#btn-start"), (width, height)
        assert in_view(page, "#start-choice"), (width, height)
        expect(page.locator("#settings")).not_to_have_attribute("open", "")
        expect(page.locator("#level")).to_be_hidden()
        want = {
            "en-US": "Against the computer (Medium) · to 100 points",
            "vi-VN": "Chơi với 1 máy (Trung bình) · tới 100 điểm",
        }[locale]
        expect(page.locator("#start-choice")).to_have_text(want)
        expect(play).to_have_accessible_description(want)
        shot(page, f"start-{locale[:2]}-{width}x{height}")


def test_a_returning_player_starts_their_last_game_with_one_tap(server: Any, new_page: Any) -> None:
    """The game last played, with its settings, is what Play starts on the next visit: one tap,
    and the words beside Play say what it is."""
    page = new_page()
    page.goto(server.url)
    page.get_by_role("radio", name=re.compile("^Basic Rummy")).check()
    settings = open_settings(page)
    settings.locator("#preset").select_option(label="Classic Rummy (any number of melds)")
    settings.get_by_label("Opponents").select_option(label="2 opponents")
    settings.get_by_label("Computer level").select_option(label="Hard")
    settings.get_by_label("Target score").fill("250")
    expect(page.locator("#start-choice")).to_have_text(
        "Against 2 computers (Hard) · Classic Rummy (any number of melds) · to 250 points"
    )
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    # The next visit (a new tab of the same browser): the same game, folded, in one tap.
    page = page.context.new_page()
    page.goto(server.url)
    expect(page.locator("#settings")).not_to_have_attribute("open", "")
    expect(page.locator("#start-choice")).to_have_text(
        "Against 2 computers (Hard) · Classic Rummy (any number of melds) · to 250 points"
    )
    page.get_by_role("button", name="Play", exact=True).click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    expect(page.locator("#opponents-zone .opp .level")).to_have_text(["· Hard", "· Hard"])
    info = page.evaluate("() => window.rummykit.state.welcome")
    assert (info["game"], info["variant"]) == ("rummy", "rummy-classic"), info


def test_a_refused_setting_unfolds_the_settings_to_show_it(server: Any, new_page: Any) -> None:
    """A target score out of range, left in the folded settings, would stop Play without a word
    (the browser cannot point at a hidden field): Play unfolds them and the field says why."""
    page = new_page()
    page.goto(server.url)
    open_settings(page).get_by_label("Target score").fill("5000")
    page.locator("#settings > summary").click()  # folded again
    expect(page.locator("#settings")).not_to_have_attribute("open", "")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#settings")).to_have_attribute("open", "")
    expect(page.get_by_label("Target score")).to_be_visible()
    assert page.get_by_label("Target score").evaluate("e => !e.validity.valid")
    expect(page.locator("#start")).to_be_visible()


def test_the_vietnamese_start_screen_names_the_presets_in_vietnamese(
    server: Any, new_page: Any
) -> None:
    """The preset list left "Straight Rummy" in English."""
    page = new_page(locale="vi-VN")
    page.goto(server.url)
    page.get_by_role("radio", name=re.compile("^Rummy cơ bản")).check()
    options = open_settings(page).locator("#preset option").all_inner_texts()
    assert options == [
        "Rummy từng bộ (mỗi lượt hạ một bộ)",
        "Rummy truyền thống (hạ bao nhiêu bộ cũng được)",
    ]
    assert not any(re.search(r"\b(Straight|Classic)\b", o) for o in options)


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_each_games_rules_end_with_strategy_tips_one_tap_from_the_table(
    server: Any, new_page: Any, lang: str
) -> None:
    """The Gin source ends with strategy tips, and the page had one of them: now every game's
    rules end with five, in both languages, and Rules at the table opens them in one tap, with a
    button at the top that goes straight to the tips."""
    words = {
        "en": ("Rules", "Strategy tips", ["Gin Rummy", "Basic Rummy", "Crazy Rummy"]),
        "vi": ("Luật chơi", "Mẹo chiến thuật", ["Gin Rummy", "Rummy cơ bản", "Crazy Rummy"]),
    }[lang]
    rules, tips, games = words
    page = new_page()
    start(page, server.url, "Gin Rummy")
    if lang == "vi":
        page.get_by_role("button", name="Tiếng Việt").click()
    page.get_by_role("button", name=rules, exact=True).click()
    dialog = page.get_by_role("dialog")
    for n, game in enumerate(games):
        if n:  # (the table's own game opens first)
            dialog.get_by_role("button", name=game, exact=True).click()
        expect(dialog.get_by_role("button", name=game, exact=True)).to_have_attribute(
            "aria-pressed", "true"
        )
        heading = dialog.get_by_role("heading", name=tips, exact=True)
        expect(heading).to_be_attached()
        expect(dialog.locator(".tips li")).to_have_count(5)
        dialog.get_by_role("button", name=f"{tips} ↓").click()
        expect(heading).to_be_in_viewport()
        # (the focus moves to the tips, for a screen reader; read from the page, which may not
        # be the window in front when tests run side by side)
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.id === 'tips'"
        )
