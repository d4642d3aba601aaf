"""Basic Rummy: a meld and a lay-off, taking back, the stock turned over, the log, thrown cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_helpers import (
    HAND_RESULT,
    act,
    cards,
    clear_selection,
    discard_highest,
    draw_or_throw_highest,
    drew,
    hand,
    past_score_or_draw,
    play_on,
    press,
    result_open,
    select,
    select_only,
    seq,
    start,
    start_with_house_rule,
    value,
    wait_focus_placed,
    wait_past,
    wait_turn,
)

ACTIVE_MELD = "() => document.activeElement.closest('button.table-meld')?.dataset.meld ?? null"


def test_basic_rummy_hand_with_a_meld_and_a_lay_off(server: Any, new_page: Any, shot: Any) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy")
    melded = laid_off = False
    turn_melded = -1
    for _ in range(400):
        wait_turn(page)
        if result_open(page):
            if melded and laid_off:
                break
            melded = laid_off = False
            play_on(page)
            continue
        stock = page.get_by_role("button", name=re.compile("^Stock"))
        if stock.is_enabled():
            act(page, stock)
            turn = seq(page)
            continue
        info = cards(page)
        groups: dict[str, list[str]] = {}
        for c in info:
            m = re.search(r"in meld (\d+)", c["title"])
            if m:
                groups.setdefault(m.group(1), []).append(c["name"])
        meld = page.get_by_role("button", name="Meld", exact=True)
        if groups and turn_melded != turn:
            turn_melded = turn
            for name in next(iter(groups.values())):
                select(page, name)
            if meld.is_enabled():
                expect(meld).to_have_class(re.compile(r"\blit\b"))  # lit as the next step
                act(page, meld)
                melded = True
                # a meld on the table is shown in full, not greyed like a button that is off
                opacity = page.locator(".table-meld").first.evaluate(
                    "e => getComputedStyle(e).opacity"
                )
                assert opacity == "1"
                continue
            clear_selection(page)
        fits = [
            (c["name"], m.group(1))
            for c in info
            if (m := re.search(r"fits meld (\d+)", c["title"]))
        ]
        if fits:
            # by keyboard: F goes to the melds on the table (reachable with nothing selected
            # too), the arrows move along them, Enter lays the card off, the focus comes back
            name, number = fits[0]
            clear_selection(page)
            page.keyboard.press("f")
            assert page.evaluate(ACTIVE_MELD) is not None
            select_only(page, name).focus()
            page.keyboard.press("f")
            for _ in range(40):
                if page.evaluate(ACTIVE_MELD) == number:
                    break
                page.keyboard.press("ArrowRight")
            assert page.evaluate(ACTIVE_MELD) == number
            press(page, "Enter")
            page.wait_for_function("() => document.activeElement.matches('#hand button.card')")
            laid_off = True
            if melded:
                shot(page, "desktop-rummy-table")
            continue
        in_melds = {n for g in groups.values() for n in g}
        candidates = [c["name"] for c in info if c["name"] not in in_melds] or [
            c["name"] for c in info
        ]
        discard_highest(page, candidates)
    else:
        pytest.fail("no hand with a meld and a lay-off")
    assert melded and laid_off
    expect(page.get_by_role("dialog").get_by_role("table")).to_be_visible()


def test_a_double_click_makes_one_move_and_no_error(server: Any, new_page: Any) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy")
    wait_turn(page)
    size = len(cards(page))
    before = seq(page)
    page.get_by_role("button", name="Draw").dblclick()
    wait_past(page, before, "a double-click on Draw")
    expect(hand(page).get_by_role("button")).to_have_count(size + 1)
    names = [c["name"] for c in cards(page)]
    select_only(page, max(names, key=value))
    before = seq(page)
    page.get_by_role("button", name="Discard", exact=True).dblclick()
    wait_past(page, before, "a double-click on Discard")
    expect(hand(page).get_by_role("button")).to_have_count(size)
    # the second click of each is not sent, so nothing calls it "a stale or repeated message"
    page.wait_for_timeout(500)
    expect(page.locator("#alert")).to_have_text("")


def test_the_log_says_when_the_discard_pile_becomes_the_stock(server: Any, new_page: Any) -> None:
    """Four at the table draw the stock down fast: the log says the pile was turned over, and
    that it was the last time (the default preset restocks once)."""
    page = new_page()
    start(page, server.url, "Basic Rummy", opponents="3 opponents", level="Easy")
    log = page.locator("#log li")
    for _ in range(300):
        wait_turn(page)
        if any("The stock ran out" in line for line in log.all_inner_texts()):
            break
        if result_open(page):  # somebody went out first: the next hand
            play_on(page)
            continue
        draw_or_throw_highest(page)
    else:
        pytest.fail("the stock never ran out")
    expect(page.locator("#log")).to_contain_text(
        "The stock ran out: the discard pile, all but its top card, is turned over as the new"
        " stock. That was the last time: if the stock runs out again, the hand ends and nobody"
        " scores."
    )


def test_a_stalemate_says_why_and_which_house_rule_makes_it_rarer(
    server: Any, new_page: Any
) -> None:
    """Six at a table that never reuses the pile: the stock (15 cards) runs out within a few
    rounds, and the score screen says how often the pile may be reused and where to change it."""
    page = new_page()
    start_with_house_rule(
        page, server.url, "Basic Rummy", "5 opponents", "Times the pile becomes the stock", "0"
    )
    dialog = page.get_by_role("dialog")
    for _ in range(300):
        wait_turn(page)
        if result_open(page):
            if "Stalemate" in dialog.get_by_role("heading", level=2).inner_text():
                break
            play_on(page)  # somebody went out first: the next hand
            continue
        draw_or_throw_highest(page)
    else:
        pytest.fail("no stalemate")
    expect(dialog).to_contain_text(
        "At this table the discard pile becomes the stock 0 times. For fewer hands without a"
        " winner, raise “Times the pile becomes the stock” under House rules"
    )


def thrown_by_seat(history: list[list[Any]]) -> dict[int, list[tuple[str, int | None]]]:
    """From a seat's view of the moves: each seat's thrown cards in order, with who picked each
    up again (the last thrown card still on the pile is the one a take or a buy picks up)."""
    by_seat: dict[int, list[list[Any]]] = {}
    on_pile: list[list[Any]] = []
    for seat, action in history:
        words = action.split()
        if words[0] in ("discard", "knock") and len(words) > 1:
            item = [words[1], None]
            by_seat.setdefault(seat, []).append(item)
            if words[0] == "discard":
                on_pile.append(item)
        elif words[0] in ("take", "buy") and on_pile:
            on_pile.pop()[1] = seat
    return {seat: [(c, s) for c, s in items] for seat, items in by_seat.items()}


PILE_DIALOG = """() => {
  const body = document.getElementById('pile-body');
  const seats = [...body.querySelectorAll('.pile-seat')].map((p) =>
    [...p.querySelectorAll('.face')].map((f) => f.classList.contains('taken')));
  return {now: [...body.querySelectorAll('.pile-now .face')].length, seats,
          title: document.getElementById('pile-title').textContent,
          hand: window.rummykit.state.msg.view.hand};
}"""


def test_the_thrown_cards_show_the_pile_and_each_players_throws(
    server: Any, new_page: Any, shot: Any
) -> None:
    """ "Thrown cards (N)" opens every card thrown this hand, by player, those picked up again
    faded, and the pile as it is now; V opens it too, in Vietnamese as well."""
    page = new_page(phone=True)
    start(page, server.url, "Basic Rummy", opponents="2 opponents", level="Easy")
    button = page.get_by_role("button", name=re.compile(r"^Thrown cards \(\d+\)$"))
    for _ in range(60):
        wait_turn(page)
        if result_open(page) or (button.is_visible() and seq(page) > 12):
            break
        draw_or_throw_highest(page)
    if result_open(page):
        page.get_by_role("button", name="See the table").click()
    count = int(re.findall(r"\d+", button.inner_text())[0])
    assert count >= 2
    button.click()
    dialog = page.get_by_role("dialog", name="Thrown cards")
    expect(dialog).to_be_visible()
    shown = page.evaluate(PILE_DIALOG)
    hand_view = shown["hand"]
    assert shown["now"] == len(hand_view["discard_pile"])
    expected = thrown_by_seat(hand_view["history"])
    players = len(hand_view["hand_sizes"])
    assert shown["seats"] == [
        [s is not None for _, s in expected.get(seat, [])] for seat in range(players)
    ]
    assert sum(len(v) for v in shown["seats"]) == count
    shot(page, "phone-thrown-cards")
    dialog.get_by_role("button", name="Close").click()
    page.locator("body").focus()
    page.get_by_role("button", name="Tiếng Việt").click()
    page.locator("body").focus()
    page.keyboard.press("v")
    expect(page.get_by_role("dialog", name="Bài đã bỏ")).to_be_visible()
    expect(page.locator("#pile-body")).to_contain_text("Trên chồng bài bỏ lúc này")


def test_alone_against_the_computer_a_take_is_taken_back_by_button_and_key(
    server: Any, new_page: Any, shot: Any
) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy")
    undo = page.get_by_role("button", name="Undo", exact=True)
    take = page.get_by_role("button", name=re.compile("^Take"))
    stock = page.get_by_role("button", name=re.compile("^Stock"))
    log = page.locator("#log li")
    for _ in range(200):
        wait_turn(page)
        if result_open(page):
            play_on(page)
            continue
        if stock.is_enabled() and take.is_visible() and take.is_enabled():
            break
        if stock.is_enabled():
            act(page, stock)
            expect(undo).to_be_hidden()  # a card from the stock was seen: no taking it back
        discard_highest(page, [c["name"] for c in cards(page)])
    else:
        pytest.fail("never able to take the discard")
    held = sorted(c["name"] for c in cards(page))
    expect(undo).to_be_hidden()
    act(page, take)
    expect(undo).to_be_visible()
    assert (undo.get_attribute("title") or "").startswith("Take back: You took ")
    taken = log.last.inner_text()
    assert taken.startswith("You took ")
    shot(page, "desktop-rummy-undo")
    act(page, undo)
    # The hand, the piles and the choice are as they were; the log says what was taken back.
    expect(undo).to_be_hidden()
    assert sorted(c["name"] for c in cards(page)) == held
    expect(log.last).to_have_text(f"Taken back: {taken}")
    assert taken not in log.all_inner_texts()
    expect(take).to_be_enabled()
    expect(stock).to_be_enabled()
    # By keyboard: T takes the card again, U takes it back again.
    press(page, "t")
    expect(undo).to_be_visible()
    press(page, "u")
    expect(undo).to_be_hidden()
    assert sorted(c["name"] for c in cards(page)) == held
    assert not page.locator("#alert").inner_text().strip()
    # With nothing left to take back, U says why (as the server's answer has no move to undo).
    page.keyboard.press("u")
    expect(page.locator("#alert")).to_have_text(
        "Nothing to take back: a card drawn from the stock was seen, and a discard (or any move"
        " that passes the turn on) stays"
    )


def test_the_log_keeps_the_whole_hand_and_ends_with_its_outcome(server: Any, new_page: Any) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy", opponents="3 opponents", level="Easy")
    log = page.locator("#log li")
    first = ""
    for _ in range(1000):
        wait_turn(page)
        if result_open(page):
            lines = log.all_inner_texts()
            title = page.locator("#result-title").inner_text()
            if page.evaluate(HAND_RESULT)["over"]:
                # (a hand that ends the match: its headline is under the match's final score)
                title = page.locator("#dlg-result .hand-headline").inner_text()
            # The last line says how the hand ended, as the score screen's title does.
            assert title and lines[-1] == title
            dealt = [
                i for i, line in enumerate(lines) if re.fullmatch(r"Hand \d+ is dealt\.", line)
            ]
            # The whole hand is there: its first line (hand 1), or the line that dealt it.
            assert (lines[0] == first) if not dealt else len(lines) - dealt[-1] > 1
            if len(lines) - (dealt[-1] + 1 if dealt else 0) > 41:
                break  # a hand longer than the 40 lines the log used to keep
            over = page.evaluate(HAND_RESULT)["over"]
            play_on(page)
            if over:
                first = ""  # a rematch: a new table, whose log starts afresh
            continue
        if not first and log.count():
            first = log.first.inner_text()
        if drew(page):
            continue
        discard_highest(page, [c["name"] for c in cards(page)])
    else:
        pytest.fail("no hand longer than 40 lines")
    page.get_by_role("button", name="See the table").click()
    expect(log.last).to_have_text(title)
    # Worded again in the other language, the outcome too.
    page.get_by_role("button", name="Tiếng Việt").click()
    expect(log.last).not_to_have_text(title)
    assert log.count() == len(lines)


def test_a_meld_taken_back_comes_back_selected_to_try_again(server: Any, new_page: Any) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy")
    undo = page.get_by_role("button", name="Undo", exact=True)
    meld = page.get_by_role("button", name="Meld", exact=True)
    for _ in range(300):
        if past_score_or_draw(page):
            continue
        groups: dict[str, list[str]] = {}
        for c in cards(page):
            m = re.search(r"in meld (\d+)", c["title"])
            if m:
                groups.setdefault(m.group(1), []).append(c["name"])
        if groups and len(cards(page)) > 4:
            melded = next(iter(groups.values()))
            clear_selection(page)
            for name in melded:
                select(page, name)
            if meld.is_enabled():
                on_table = page.locator(".table-meld").count()
                act(page, meld)
                # the Meld button (greyed now) hands the focus back to the hand's cursor
                wait_focus_placed(page, mine=True)
                break
        discard_highest(page, [c["name"] for c in cards(page)])
    else:
        pytest.fail("no meld to lay down")
    expect(page.locator(".table-meld")).to_have_count(on_table + 1)
    act(page, undo)
    expect(page.locator(".table-meld")).to_have_count(on_table)
    chosen = [c["name"] for c in cards(page) if c["pressed"] == "true"]
    assert sorted(chosen) == sorted(melded)
    expect(page.locator("#hand .card.new")).to_have_count(0)
    expect(meld).to_be_enabled()  # the same meld may be laid down again at once
