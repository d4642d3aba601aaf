"""Friends away from the table: the computer plays for them, the turn clock, coming back."""

from __future__ import annotations

import re
from typing import Any

import pytest
from live_server import LiveServer
from playwright.sync_api import expect
from table_helpers import (
    SOUNDS,
    act,
    gin_on_the_clock,
    gin_turn_to_knock,
    gin_with_a_friend,
    hand,
    next_hand,
    open_session,
    open_settings,
    play_gin_hand_out,
    result_open,
    start,
    wait_turn,
)


def test_the_computer_plays_for_a_friend_who_is_not_coming(server: Any, new_page: Any) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy", "2 opponents", "Medium", friends="1 friend")
    zone = page.locator("#opponents-zone")
    expect(zone).to_contain_text("Player 2 · not here yet")
    page.keyboard.press("u")  # nothing is ever taken back at a table with friends
    expect(page.locator("#alert")).to_have_text("At a table with friends, moves are not taken back")
    page.get_by_role("button", name="Let the computer play instead of Player 2").click()
    expect(page.locator("#invite-panel")).to_be_hidden()
    expect(zone).not_to_contain_text("not here yet")
    # The stand-in is named for the seat it plays, at the level of the table's computer.
    expect(page.locator("#opponents-zone .opp-name")).to_have_text(
        ["Computer for Player 2 · Medium", "Computer · Medium"]
    )
    # The game goes on: the computers (seat 1 first, left of the dealer) play up to this person.
    wait_turn(page)
    log = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("Computer for Player 2 ") for line in log), log
    assert any(line.startswith("Computer ") and " for " not in line for line in log), log


def test_a_friend_still_reading_the_score_is_named_and_told_their_turn_has_come(
    own_server: Any, new_page: Any
) -> None:
    host, friend = gin_with_a_friend(own_server, new_page)
    pages = {"You": host, "Lan": friend}
    for _ in range(400):
        host.wait_for_function(
            "() => document.querySelector('#dlg-result').open"
            " || Boolean(document.querySelector('.scores li.acting'))"
        )
        if result_open(host):
            break
        who = pages[host.locator(".scores li.acting .who").inner_text()]
        expect(who).to_have_title("● Your turn · rummykit")  # that page knows it is its move
        gin_turn_to_knock(who)
    else:
        pytest.fail("the hand did not end")
    friend.wait_for_function("() => document.querySelector('#dlg-result').open")
    # Each sees the other reading the score, after a dropped connection too (both pages
    # reconnect by themselves and say again that they are reading).
    expect(host.locator("#opponents-zone")).to_contain_text("reading the score")
    expect(friend.locator("#opponents-zone")).to_contain_text("reading the score")
    for page in (host, friend):
        page.evaluate("() => { window.__oldWelcome = window.rummykit.state.welcome; }")
    own_server.restart(kill=True)
    for page in (host, friend):
        # welcomed again on a new socket, and told since who is here
        page.wait_for_function(
            "() => window.rummykit.state.welcome !== window.__oldWelcome"
            " && window.rummykit.state.online && window.rummykit.state.online.size === 2",
            timeout=20_000,
        )
    for page in (host, friend):
        expect(page.locator("#opponents-zone")).to_contain_text("reading the score")
    next_hand(host, lambda: act(host, host.get_by_role("button", name=re.compile("^Next hand"))))
    expect(friend.locator("#opponents-zone")).not_to_contain_text("reading the score")
    # An plays until it is Lan's turn; Lan's score screen says the turn has come, An's prompt
    # says whom the table waits for, and why.
    for _ in range(3):
        if friend.evaluate("() => window.rummykit.state.msg.view.hand.to_act === 1"):
            break
        gin_turn_to_knock(host)
    turn = friend.locator("#result-turn")
    expect(turn).to_have_text("Hand 2 has started, and it is your turn.")
    expect(host.locator("#prompt")).to_have_text("Waiting for Lan, who is still reading the score…")
    friend.get_by_role("button", name="To the next hand (already dealt)").click()
    expect(host.locator("#prompt")).to_have_text("Waiting for Lan…")
    expect(host.locator("#opponents-zone")).not_to_contain_text("reading the score")
    expect(turn).to_be_hidden()
    # An nudges: Lan's page shows it by An's name and rings the turn's chime again (sounds on).
    friend.keyboard.press("s")
    chimes = friend.evaluate(SOUNDS)["turn"]
    host.get_by_role("button", name="Say…").click()
    host.get_by_role("button", name="Your turn!").click()
    expect(friend.locator("#opponents-zone .bubble")).to_have_text("Your turn!")
    friend.wait_for_function(
        "async (n) => (await import('/js/sound.js')).played.turn === n + 1", arg=chimes
    )


def test_a_friend_back_after_a_hand_ended_without_them_sees_its_score_first(
    server: Any, new_page: Any
) -> None:
    """Lan closes her page; An lets the computer play for her, finishes the hand and deals the
    next. When Lan comes back (her page opens again), it opens the score of the hand she missed, as
    for a hand dealt while the score is up, naming a knock the computer made for her as the
    computer's; once closed, it does not come back on a reload."""
    host, friend = gin_with_a_friend(server, new_page)
    expect(hand(friend).get_by_role("button").first).to_be_visible()
    friend.goto("about:blank")  # Lan leaves (her seat stays stored in her browser)
    host.get_by_role("button", name="Let the computer play instead of Lan").click()
    expect(host.locator("#opponents-zone .opp-name")).to_have_text("Computer for Lan · Medium")
    play_gin_hand_out(host)
    result = host.evaluate("() => window.rummykit.state.msg.view.hand.result")
    next_hand(host, lambda: act(host, host.get_by_role("button", name=re.compile("^Next hand"))))
    expect(host.locator("#scorebar")).to_contain_text("Hand 2")
    friend.goto(server.url)  # (the page goes back to the table it was at)
    dialog = friend.locator("#dlg-result")
    friend.wait_for_function("() => document.querySelector('#dlg-result').open")
    assert dialog.evaluate("d => d.dataset.hand") == "1"
    title = dialog.get_by_role("heading", level=2)
    if result["outcome"] == "knock":  # (else gin or an undercut: named by who scored)
        knocker = "Computer for you" if result["knocker"] == 1 else "An"
        expect(title).to_have_text(re.compile(f"^{knocker} knocked: "))
    else:
        expect(title).to_have_text(re.compile(r"^(Gin|Big gin|Undercut|The hand is cancelled)"))
    if result["outcome"] != "cancelled":  # the melds and the totals after that hand
        knocked = "Computer for you" if result["knocker"] == 1 else "An"
        expect(dialog.locator(".result-seat h3").first).to_have_text(f"{knocked} (knocked)")
        expect(dialog.locator(".result-seat h3")).to_have_count(2)
        totals = dialog.locator("table tr").last
        expect(totals).to_contain_text(str(result["scores"][result["winner"]]))
    headline = title.inner_text()
    # Lan's record counts that hand (once, as every hand).
    counted = friend.evaluate(
        "() => JSON.parse(localStorage.getItem('rummykit.stats')).seen"
        ".includes(`${window.rummykit.state.welcome.table}#1`)"
    )
    assert counted
    # The log says how it ended, above the hand in play; the button only closes the score.
    close = friend.get_by_role("button", name="To the next hand (already dealt)")
    expect(close).to_be_focused()
    # Her moves were all the computer's: a review of that hand says so.
    dialog.get_by_role("button", name="Review my moves").click()
    expect(dialog.locator("#review")).to_contain_text(
        "The computer made every one of your moves in this hand (you were away)"
    )
    close.click()
    expect(dialog).not_to_have_attribute("open", "")
    log = friend.locator("#log li").all_inner_texts()
    assert headline in log and log.index(headline) < log.index("Hand 2 is dealt."), log
    expect(friend.locator("#scorebar")).to_contain_text("Hand 2")
    friend.reload()
    expect(hand(friend).get_by_role("button").first).to_be_visible()
    friend.wait_for_timeout(300)  # (a score that opened would be open by now)
    assert not result_open(friend)
    # Lan's page stays open this time, but its connection is down (and comes back only when
    # the test says) while hand 2 is played out and hand 3 dealt: on reconnecting, the same.
    friend.evaluate(
        """() => {
      const conn = window.rummykit.state.conn;
      window.__reopen = conn.open.bind(conn);
      conn.open = () => {};
      conn.ws.close();
    }"""
    )
    host.get_by_role("button", name="Let the computer play instead of Lan").click()
    play_gin_hand_out(host)
    next_hand(host, lambda: act(host, host.get_by_role("button", name=re.compile("^Next hand"))))
    expect(host.locator("#scorebar")).to_contain_text("Hand 3")
    friend.evaluate("() => window.__reopen()")
    friend.wait_for_function("() => document.querySelector('#dlg-result').open")
    assert dialog.evaluate("d => d.dataset.hand") == "2"
    headline = title.inner_text()
    close.click()
    log = friend.locator("#log li").all_inner_texts()
    assert headline in log and log.index(headline) < log.index("Hand 3 is dealt."), log
    # Who knocked, in a title: the computer when it made the knock for this person (from the
    # marks sent with a hand shown after it ended, or from the log of the hand just over).
    assert friend.evaluate(KNOCK_TITLES) == [
        "Computer for you knocked: 7 points to you",
        "You knocked: 7 points to you",
        "Computer for you knocked: 7 points to you",
        "You knocked: 7 points to you",
    ]


KNOCK_TITLES = """async () => {
  const { resultTitle } = await import('/js/results.js');
  const { welcome, msg } = window.rummykit.state;
  const r = { outcome: 'knock', knocker: 1, winner: 1, points: 7 };
  const history = [[0, 'draw'], [1, 'knock 9S'], [0, 'done']];
  const past = { ...msg, view: { ...msg.view, hand: { ...msg.view.hand, history } } };
  const ctx = { welcome, msg, seat: 1, ui: { log: [] } };
  const move = (seat, action, standIn) => ({ kind: 'move', entry: { seat, action }, gained: [], standIn });
  return [
    resultTitle({ ...ctx, msg: past, standIns: new Set([1]) }, r),
    resultTitle({ ...ctx, msg: past, standIns: new Set([0, 2]) }, r),
    resultTitle({ ...ctx, ui: { log: [{ kind: 'hand', n: 1 }, move(1, 'knock 9S', true), move(0, 'done', false)] } }, r),
    resultTitle({ ...ctx, ui: { log: [move(1, 'knock 9S', true), { kind: 'hand', n: 2 }, move(1, 'knock', false)] } }, r),
  ];
}"""


def test_a_turn_runs_out_and_the_computer_finishes_it_for_the_friend(
    server: Any, new_page: Any, shot: Any
) -> None:
    """A table with friends and a time for a turn: the start screen offers it only with
    friends, both pages count the turn down by the person to act (red when it is short), and
    when the time is up the computer finishes the turn, the log and the prompt say so in both
    pages, and the clock moves on to the other person with a full turn. After two turns in a
    row out of time a person is away (the computer plays their turns at once) until they press
    "I'm back"."""
    host = new_page()
    host.goto(server.url)
    host.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
    open_settings(host)
    expect(host.get_by_label("Time for a turn")).to_be_hidden()  # alone: no clock
    host.get_by_label("Your opponent").select_option(label="A friend (send them a link)")
    limit = host.get_by_label("Time for a turn")
    expect(limit).to_be_visible()
    labels = limit.locator("option").all_inner_texts()
    assert labels == ["No limit", "30 seconds", "1 minute", "2 minutes"]
    host.locator("#start").get_by_label("Your name").fill("An")
    # The page offers half a minute at least; a short limit (the server takes 5 seconds or
    # more) keeps the test quick.
    limit.evaluate("(s) => { s.append(new Option('5 s', '5')); s.value = '5'; }")
    host.get_by_role("button", name="Play").click()
    expect(host.locator("#house-line")).to_contain_text("Time for a turn: 5 seconds")
    # The turns that run out are played on a table of a known deal, which no knock ends early
    # (a random deal did, seldom: the hand ended before the second turn out of time).
    session = gin_on_the_clock(server.db, server.url, seed=11)
    open_session(host, server.url, session)
    friend = new_page(phone=True)
    friend.goto(session["invites"][0]["link"])
    expect(friend.locator("#join-text")).to_contain_text(
        "You have 5 seconds for each turn; when it runs out, the computer finishes the turn"
    )
    friend.locator("#join").get_by_label("Your name").fill("Lan")
    friend.get_by_role("button", name="Take my seat").click()
    expect(host.locator("#opponents-zone")).to_contain_text("Lan")
    pages = {0: host, 1: friend}
    for page in pages.values():
        expect(page.locator("#house-line")).to_contain_text("Time for a turn: 5 seconds")
        expect(page.locator("#turn-clock")).to_be_visible()
        expect(page.locator("#turn-clock")).to_have_class(re.compile(r"\blow\b"))
    to_act = host.evaluate("() => window.rummykit.state.msg.view.hand.to_act")
    acting, waiting = pages[to_act], pages[1 - to_act]
    names = {0: "An", 1: "Lan"}
    expect(acting.locator("#turn-clock")).to_have_class(re.compile(r"\bmine\b"))
    expect(waiting.locator("#turn-clock")).not_to_have_class(re.compile(r"\bmine\b"))
    assert re.fullmatch(r"0:0[0-5]", acting.locator("#turn-clock .time").inner_text())
    shot(friend, "phone-turn-clock")
    expect(acting.locator("#log")).to_contain_text(
        "Your time ran out: the computer plays this turn for you", timeout=12_000
    )
    expect(waiting.locator("#log")).to_contain_text(
        f"Time ran out for {names[to_act]}: the computer plays the turn"
    )
    # The computer's move is named as its own, made for that person.
    expect(waiting.locator("#log")).to_contain_text(f"Computer for {names[to_act]}")
    # Then the other person's turn, with its own full clock.
    expect(waiting.locator("#turn-clock")).to_have_class(re.compile(r"\bmine\b"))
    expect(waiting).to_have_title("● Your turn · rummykit")
    expect(acting).to_have_title("rummykit")
    expect(acting.locator("#turn-clock")).not_to_have_class(re.compile(r"\bmine\b"))
    # The other person's time runs out too; then the first one's again: two turns in a row out
    # of time, so the computer plays their turns at once until they say they are back.
    expect(waiting.locator("#log")).to_contain_text("Your time ran out", timeout=12_000)
    expect(acting.locator("#away-panel")).to_be_visible(timeout=15_000)
    expect(acting.locator("#away-panel")).to_contain_text("Your time ran out on two turns in a row")
    expect(waiting.locator("#away-panel")).to_be_hidden()
    box = waiting.locator(f'#opponents-zone .opp[data-seat="{to_act}"]')
    expect(box).to_contain_text("away: the computer plays")
    shot(acting, "turn-clock-away")
    acting.get_by_role("button", name="I'm back").click()
    expect(acting.locator("#away-panel")).to_be_hidden()
    expect(box).not_to_contain_text("away: the computer plays")


def test_a_friend_who_just_left_keeps_the_seat_for_a_while(tmp_path: Any, new_page: Any) -> None:
    """On a server that keeps a seat 6 s after its page closed (30 s by default), the button
    that lets the computer play for the friend who left shows only once that time is over,
    and then works."""
    server = LiveServer(db=tmp_path / "wait.sqlite3", give_seat_after=6)
    server.start()
    try:
        host, friend = gin_with_a_friend(server, new_page)
        expect(host.locator("#opponents-zone")).to_contain_text("Lan")
        friend.close()
        expect(host.locator("#opponents-zone")).to_contain_text("Lan · not connected")
        give = host.get_by_role("button", name="Let the computer play instead of Lan")
        expect(give).to_have_count(0)  # (she may be back in a moment)
        expect(give).to_be_visible(timeout=20_000)
        give.click()
        expect(host.locator("#opponents-zone .opp-name")).to_have_text("Computer for Lan · Medium")
    finally:
        server.stop()
