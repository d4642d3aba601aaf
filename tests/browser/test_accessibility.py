"""A screen reader at the table: the focus after each step, cards in words, what is read out."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_helpers import (
    FOCUS_PLACE,
    LISTEN_LIVE,
    cards,
    discard_first,
    gin_turn_to_knock,
    gin_with_a_friend,
    hand,
    open_session,
    past_score_or_draw,
    play_on,
    played_table,
    press,
    result_open,
    seq,
    start,
    wait_focus_placed,
    wait_past,
    wait_turn,
)

MY_MOVE = """() => { const s = window.rummykit.state; const h = s.msg.view.hand;
  return h.to_act === s.session.seat && h.phase !== 'hand_over' && h.legal_actions.length > 0; }"""


def test_the_focus_goes_to_the_hand_or_the_prompt_after_play_continue_and_discard(
    server: Any, new_page: Any
) -> None:
    """Play by the keyboard, Discard by its button (which then hides) and Continue in another
    window leave the focus on the hand's card (this person's move) or the prompt, not nowhere."""
    page = new_page()
    page.goto(f"{server.url}/?deal=1")  # (see start)
    page.get_by_role("radio", name=re.compile("^Basic Rummy")).check()
    play = page.get_by_role("button", name="Play")
    play.focus()
    page.keyboard.press("Enter")
    expect(hand(page).get_by_role("button").first).to_be_visible()
    wait_focus_placed(page)
    for _ in range(40):
        if not past_score_or_draw(page):
            break
    else:
        pytest.fail("never my turn to discard")
    discard = page.get_by_role("button", name="Discard", exact=True)
    discard_first(page, [c["name"] for c in cards(page)])  # a click on Discard
    expect(discard).to_be_hidden()
    # The prompt, placed when the discard's answer came (the computer's turn); or the hand, if
    # the computer's move came with it in one redraw. A move after that leaves it where it is.
    wait_focus_placed(page)
    # the keys go on from the prompt as from nowhere: an arrow moves into the hand
    if page.evaluate(FOCUS_PLACE) == "prompt":
        page.keyboard.press("ArrowRight")
        assert page.evaluate(FOCUS_PLACE) == "hand"
    other = page.context.new_page()  # Continue, in a second window of the same browser
    other.goto(server.url)
    other.get_by_role("button", name="Continue").click()
    expect(hand(other).get_by_role("button").first).to_be_visible()
    wait_focus_placed(other)


CARD_WORDS = r"(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)"
CARD_WORDS_VI = r"(Át|[2-9]|10|J|Q|K) (chuồn|rô|cơ|bích)"
SUIT_SYMBOLS = re.compile("[♣♦♥♠]")


def test_a_screen_reader_hears_cards_named_in_words(server: Any, new_page: Any) -> None:
    """Names and announcements say "king of clubs" where the page shows "K♣": the Take button,
    the prompt and every move read out, in both languages."""
    page = new_page()
    start(page, server.url, "Gin Rummy")
    page.evaluate(LISTEN_LIVE)
    for _ in range(60):  # until the computer has discarded and the pile may be taken
        wait_turn(page)
        if result_open(page):
            play_on(page)
            continue
        heard = page.evaluate("() => window.__live")
        take = page.get_by_role("button", name=re.compile("^Take "))
        if any(line.startswith("Computer discarded ") for line in heard) and take.is_visible():
            break
        gin_turn_to_knock(page)
    else:
        pytest.fail("the computer never discarded before my turn")
    discarded = [line for line in heard if line.startswith("Computer discarded ")]
    assert all(re.fullmatch(f"Computer discarded {CARD_WORDS}", line) for line in discarded), heard
    assert not [line for line in heard if SUIT_SYMBOLS.search(line)], heard
    # the button shows the symbol and is named in words
    expect(take).to_have_text(re.compile(r"^Take (10|[2-9AJQK])[♣♦♥♠]$"))
    expect(take).to_have_accessible_name(re.compile(f"^Take {CARD_WORDS}$"))
    prompt = page.locator("#prompt")
    expect(prompt.locator("[aria-hidden=true]")).to_contain_text(SUIT_SYMBOLS)
    expect(prompt.locator(".sr-only")).to_contain_text(re.compile(CARD_WORDS))
    page.get_by_role("button", name="Tiếng Việt").click()
    expect(page.get_by_role("button", name=re.compile("^Lấy "))).to_have_accessible_name(
        re.compile(f"^Lấy {CARD_WORDS_VI}$")
    )
    expect(prompt.locator(".sr-only")).to_contain_text(re.compile(CARD_WORDS_VI))
    # a hint read out names its cards too ("Gợi ý: lấy 7 cơ …")
    page.evaluate(LISTEN_LIVE)
    page.get_by_role("button", name="Gợi ý").click()
    expect(page.locator("#hint-text")).to_have_text(re.compile(r"^Gợi ý: "))
    page.wait_for_function("() => window.__live.some((t) => t.startsWith('Gợi ý: '))")
    hint = [t for t in page.evaluate("() => window.__live") if t.startswith("Gợi ý: ")]
    assert not SUIT_SYMBOLS.search(hint[0]), hint


def test_keys_that_cannot_act_say_why_and_a_crazy_round_is_read_out_from_the_start(
    server: Any, new_page: Any
) -> None:
    """D, T and P on one's own turn when they cannot act say why, as a tap on a pile does
    (they said nothing); a Crazy Rummy table read out its round and contract only from round
    2 on, now from the first view; asked to buy, the card and the penalty are read out too."""
    page = new_page()
    open_session(page, server.url, played_table(server.db, "rummy", 1, seed=4))
    page.locator("body").focus()
    press(page, "d")  # draws
    alert = page.locator("#alert")
    for key in ("d", "t"):
        page.keyboard.press(key)
        expect(alert).to_have_text(
            "You have your card for this turn already: meld, lay off, or throw a card"
        )
        page.evaluate("() => { document.getElementById('alert').textContent = ''; }")
    page.keyboard.press("p")
    expect(alert).to_contain_text("then discard")  # (what to do instead: the prompt)
    page.keyboard.press("r")  # (the cards move: said, not only seen)
    expect(page.locator("#live")).to_contain_text("Hand sorted by ")
    crazy = new_page()
    open_session(crazy, server.url, played_table(server.db, "crazy", 2, seed=7))
    expect(crazy.locator("#live")).to_contain_text("Round 1 is dealt. Contract: 2 books")
    # Asked "May I?": the card on offer (in words) and the penalty are read out with the prompt.
    asked = new_page()
    open_session(asked, server.url, played_table(server.db, "crazy", 3, seed=7, until="buy"))
    expect(asked.locator("#live")).to_contain_text(
        re.compile(r"May I\?.* of \w+ is on offer\. Buy it out of turn\? You also take 1 penalty")
    )


def test_news_is_read_out_inside_an_open_dialog(server: Any, new_page: Any) -> None:
    """While a dialog is open, a screen reader reads only the dialog: the friend's moves and
    the turn coming back are read out from a live region inside it (they went to the page's
    own, out of reach, and were never heard); a friend's joining is read out once."""
    host, friend = gin_with_a_friend(server, new_page)
    news = host.locator("#live p, #alert")
    expect(host.locator("#alert")).to_contain_text("Lan has joined the table")
    assert not any("Lan has joined" in x for x in host.locator("#live p").all_inner_texts())
    assert not any("back at the table" in x for x in news.all_inner_texts())
    acting = "() => document.querySelector('.scores li.acting .who')?.textContent"
    for _ in range(10):  # the host plays until it is Lan's turn
        host.wait_for_function(acting)
        if host.evaluate(acting) == "Lan":
            break
        gin_turn_to_knock(host)
    host.locator("body").focus()
    host.keyboard.press("v")
    expect(host.locator("#dlg-pile")).to_have_attribute("open", "")
    for _ in range(3):  # Lan's turn, to its end
        if host.evaluate(acting) != "Lan":
            break
        before = seq(host)
        gin_turn_to_knock(friend)
        wait_past(host, before, "Lan's move")
    live = host.locator("#dlg-pile .dialog-live")
    expect(live).to_contain_text("Lan ")
    expect(live).to_contain_text("Your turn")
    host.keyboard.press("Escape")
    expect(host.locator("#dlg-pile")).not_to_have_attribute("open", "")
