"""A game outlives its page and server: restarts, Continue, stored settings, the record of wins."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from table_helpers import (
    HAND_RESULT,
    LISTEN_LIVE,
    act,
    best_discard,
    cards,
    drew,
    finish_a_gin_match,
    gin_simple_move,
    hand,
    next_hand,
    open_settings,
    result_open,
    select,
    seq,
    start,
    wait_turn,
)


def test_moves_made_while_the_connection_was_down_reach_the_log(server: Any, new_page: Any) -> None:
    """The page's connection drops after its discard and comes back after the computer has
    moved: the computer's moves are logged (and read out) as if seen live, so the log is the
    one a fresh page builds from the hand's moves (it used to miss them)."""
    page = new_page()
    start(page, server.url, "Gin Rummy")
    for _ in range(20):
        wait_turn(page)
        if result_open(page):
            next_hand(page, lambda: act(page, page.get_by_role("button", name="Next hand")))
            continue
        if page.get_by_role("button", name="Pass").is_visible():
            act(page, page.get_by_role("button", name="Pass"))
            continue
        if not drew(page):
            continue
        if page.get_by_role("button", name=re.compile("^(Knock|Gin)")).is_enabled():
            continue  # (the test wants a hand that goes on)
        break
    moves = page.evaluate("() => window.rummykit.state.msg.view.hand.history.length")
    page.evaluate(LISTEN_LIVE)
    # The connection drops as the discard is answered, and comes back 4 s later.
    page.evaluate(
        """() => {
      const conn = window.rummykit.state.conn;
      const open = conn.open.bind(conn);
      conn.open = () => setTimeout(open, 4000);
      const ws = conn.ws;
      ws.addEventListener("message", () => ws.close(), { once: true });
    }"""
    )
    act(page, select(page, best_discard(page)[1]))
    expect(page.locator("#conn")).to_be_visible()
    # Meanwhile the computer draws and throws (or knocks); the page comes back to that.
    page.wait_for_function(
        "n => window.rummykit.state.msg.view.hand.history.length > n + 1"
        " && document.querySelector('#conn').hidden",
        arg=moves + 1,
        timeout=20_000,
    )
    lines = page.locator("#log li").all_inner_texts()
    dealt = [i for i, line in enumerate(lines) if line.startswith("Hand ")]
    live = lines[dealt[-1] + 1 :] if dealt else lines
    assert any(line.startswith("Computer") for line in live[-2:]), live
    spoken = " ".join(page.evaluate("() => window.__live"))
    assert "Computer" in spoken, spoken
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
    again = page.locator("#log li").all_inner_texts()
    assert again[-len(live) :] == live


def test_a_lost_connection_is_said_once_and_a_move_tried_meanwhile_points_at_it(
    server: Any, new_page: Any
) -> None:
    """While the page reconnects, the pill at the top says so; a move tried meanwhile draws the
    eye to it and reads it out, but does not say it a second time in the alert box (the two
    were stacked over the score bar)."""
    page = new_page()
    start(page, server.url, "Gin Rummy")
    wait_turn(page)
    page.evaluate(LISTEN_LIVE)
    page.evaluate(
        """() => {
      const conn = window.rummykit.state.conn;
      const open = conn.open.bind(conn);
      conn.open = () => setTimeout(open, 3000);
      conn.ws.close();
    }"""
    )
    lost = "Connection lost, reconnecting…"
    expect(page.locator("#conn")).to_have_text(lost)
    pass_ = page.get_by_role("button", name="Pass")
    move = pass_ if pass_.is_visible() else page.get_by_role("button", name=re.compile("^Stock"))
    move.click()
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bnudge\b"))
    assert page.evaluate("() => window.__live").count(lost) == 1
    expect(page.locator("#alert")).to_be_empty()
    expect(page.get_by_text(lost)).to_have_count(1)
    # Back: the pill goes, and the move can be made.
    expect(page.locator("#conn")).to_be_hidden(timeout=10_000)
    act(page, move)
    expect(page.locator("#alert")).to_be_empty()


def test_stored_settings_or_records_of_the_wrong_shape_do_not_stop_the_page(
    server: Any, new_page: Any
) -> None:
    """Values an older page or a hand edit left in the browser's storage are dropped: the
    start screen comes up (it used to stay on "Loading" with a script error)."""
    page = new_page()
    page.goto(server.url)
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    page.evaluate(
        """() => {
      localStorage.setItem('rummykit.stats', JSON.stringify({rows: null, seen: []}));
      localStorage.setItem('rummykit.settings', JSON.stringify({game: 'gin', options: 'x', sort: 3}));
    }"""
    )
    page.reload()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    expect(page.locator("#loading")).to_be_hidden()
    page.evaluate(
        """() => localStorage.setItem('rummykit.stats', JSON.stringify({
      rows: {'gin|2|easy': {hands: 'many', hands_won: 1}, 'gin|2|hard': [1]}, seen: []}))"""
    )
    page.reload()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    expect(page.locator("#stats")).to_be_hidden()  # nothing sound left to show
    start(page, server.url, "Gin Rummy")  # and a game starts


def test_the_browsers_back_button_goes_from_the_table_to_the_start_screen(
    server: Any, new_page: Any
) -> None:
    """Back at a table first closes a dialog open on it, then goes to the start screen (not off
    the site), which offers Continue; Forward goes back to the table, and a reload there stays at
    the table."""
    page = new_page()
    start(page, server.url, "Gin Rummy")
    table = page.evaluate("() => window.rummykit.state.session.table")
    page.keyboard.press("?")
    expect(page.locator("#dlg-keys")).to_be_visible()
    page.go_back()
    expect(page.locator("#dlg-keys")).to_be_hidden()
    expect(hand(page).get_by_role("button").first).to_be_visible()  # still at the table
    page.go_back()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    assert page.url.startswith(server.url)
    continue_button = page.locator(f'#continue-box button[data-table="{table}"]')
    expect(continue_button).to_have_text("Continue")
    page.go_forward()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    # A "#" part typed in (a link cut short) is no step back: the table stays.
    page.evaluate("() => { location.hash = 'join=cut'; }")
    page.wait_for_timeout(300)
    expect(hand(page).get_by_role("button").first).to_be_visible()
    assert page.evaluate("() => window.rummykit.state.session.table") == table
    page.go_back()  # (off the entry the "#" made, to the table's own)
    expect(hand(page).get_by_role("button").first).to_be_visible()
    page.reload()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    assert page.evaluate("() => window.rummykit.state.session.table") == table
    page.go_back()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(continue_button).to_be_visible()
    # The Menu button leaves the table's entry too: Continue, then Menu, then Back leaves the
    # page as it would from the start screen, with no second step to the table.
    continue_button.click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    # (the focus goes to the start screen's heading, not the page's body)
    expect(page.get_by_role("heading", name="New game")).to_be_focused()
    page.wait_for_function("() => history.state === null")


def test_a_second_window_takes_the_seat_and_the_first_steps_back(
    server: Any, new_page: Any
) -> None:
    first = new_page()
    start(first, server.url, "Gin Rummy")
    second = first.context.new_page()  # the same browser profile: it can continue the game
    second.goto(server.url)
    second.get_by_role("button", name="Continue").click()
    expect(hand(second).get_by_role("button").first).to_be_visible()
    # the first window goes back to the start screen, says why, and does not fight back
    expect(first.get_by_role("heading", name="New game")).to_be_visible()
    expect(first.get_by_role("alert")).to_contain_text("open in another window")
    first.wait_for_timeout(2000)
    expect(second.locator("#conn")).to_be_hidden()
    expect(first.locator("#table")).to_be_hidden()


def test_a_game_resumes_after_the_server_is_killed(
    own_server: Any, new_page: Any, shot: Any
) -> None:
    page = new_page()
    start(page, own_server.url, "Gin Rummy")
    for _ in range(6):
        gin_simple_move(page)
    wait_turn(page)
    before = [c["name"] for c in cards(page)]
    before_seq = seq(page)
    # the moves of this hand as the page logged them live (after the last "Hand n is dealt.")
    lines = page.locator("#log li").all_inner_texts()
    dealt = [i for i, line in enumerate(lines) if line.startswith("Hand ")]
    live = lines[dealt[-1] + 1 :] if dealt else lines
    own_server.restart(kill=True)
    # the page reconnects by itself and shows the same hand
    page.wait_for_function(
        "s => Number(document.querySelector('#table').dataset.seq) === s"
        " && document.querySelector('#conn').hidden",
        arg=before_seq,
    )
    assert [c["name"] for c in cards(page)] == before
    # a reload goes straight back to the game (this tab was showing it)
    page.reload()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    expect(page.locator("#start")).to_be_hidden()
    page.wait_for_function(
        "s => Number(document.querySelector('#table').dataset.seq) === s", arg=before_seq
    )
    assert [c["name"] for c in cards(page)] == before
    # the log starts again from the hand's moves, own draws naming their card as they did live
    # (before the hand log carried "gained", an own draw came back as "You drew from the stock")
    assert page.locator("#log li").all_inner_texts() == live
    # after Menu, a reload stays on the start screen, which offers to continue
    if result_open(page):  # (the hand had ended: its score is up again after the reload)
        page.locator("#btn-see-table").click()
    page.get_by_role("button", name="Menu").click()
    page.reload()
    page.get_by_role("button", name="Continue").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    page.wait_for_function(
        "s => Number(document.querySelector('#table').dataset.seq) === s", arg=before_seq
    )


def test_the_record_counts_each_hand_and_match_once(server: Any, new_page: Any) -> None:
    """A whole Gin match (to 1 point) against the easy computer: the start screen's record then
    shows it, once, however often its score screen came back (a reload), in both languages, and
    "Clear the record" empties it."""
    page = new_page()
    page.goto(server.url)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.locator("#stats")).to_be_hidden()  # nothing played in this browser yet
    hands = finish_a_gin_match(page)
    won = page.evaluate(HAND_RESULT)["winners"] == [0]
    expect(page.get_by_role("dialog")).to_contain_text("Winner: You" if won else "Winner: Computer")
    # A reload goes back to the finished table, and its score screen opens again.
    page.reload()
    page.wait_for_function("() => document.querySelector('#dlg-result').open")
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    record = page.locator("#stats")
    record.get_by_text("Your record").click()
    hands_won = sum(1 for w in hands.values() if w == 0)
    share = int(100 * hands_won / len(hands) + 0.5)  # rounded half up, as the page does
    expect(record.get_by_role("listitem")).to_have_count(1)  # this table's kind, once
    expect(record.get_by_role("listitem").locator("p")).to_have_text(
        [
            "Gin Rummy · vs the computer (Easy)",
            "Matches won: " + ("1 of 1 (100%)" if won else "0 of 1 (0%)"),
            f"Hands won: {hands_won} of {len(hands)} ({share}%)",
        ]
    )
    page.get_by_role("button", name="Tiếng Việt").click()
    expect(record.get_by_role("listitem").locator("p")).to_have_text(
        [
            "Gin Rummy · với máy (Dễ)",
            "Trận thắng: " + ("1/1 (100%)" if won else "0/1 (0%)"),
            f"Ván thắng: {hands_won}/{len(hands)} ({share}%)",
        ]
    )
    page.get_by_role("button", name="English").click()
    page.once("dialog", lambda dialog: dialog.accept())
    record.get_by_role("button", name="Clear the record").click()
    expect(record).to_be_hidden()
    page.reload()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.locator("#stats")).to_be_hidden()


def test_the_last_finished_match_is_offered_again_on_the_start_screen(
    server: Any, new_page: Any
) -> None:
    """A finished match, left by New game and the page reloaded, is still on the start screen
    ("Last match", who played, when) with "See the result", which opens its final score again
    (Review my moves, Rematch); Remove forgets it, after a confirmation."""
    page = new_page()
    page.goto(server.url)
    finish_a_gin_match(page)
    title = "You won the match!" if page.evaluate(HAND_RESULT)["winners"] == [0] else None
    table = page.evaluate("() => window.rummykit.state.session.table")
    page.get_by_role("button", name="New game").click()
    page.reload()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    box = page.locator("#continue-box")
    expect(box.get_by_role("listitem")).to_have_count(1)
    expect(box.get_by_role("listitem")).to_have_text(
        re.compile(
            r"^Last match: Gin Rummy, over\. Played with a computer \(Easy\)\."
            r" Finished today at \d\d:\d\d\."
        )
    )
    expect(box.get_by_role("button", name="Continue")).to_have_count(0)
    box.get_by_role("button", name="See the result").click()
    dialog = page.locator("#dlg-result")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", level=2)).to_have_text(title or "The match is over")
    expect(dialog.get_by_role("button", name="Review my moves")).to_be_visible()
    expect(dialog.get_by_role("button", name="Rematch")).to_be_visible()
    assert page.evaluate("() => window.rummykit.state.session.table") == table
    # In Vietnamese too, then Remove (confirmed) forgets it.
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name="Tiếng Việt").click()
    expect(box.get_by_role("listitem")).to_contain_text("Trận vừa chơi: Gin Rummy, đã kết thúc.")
    expect(box.get_by_role("button", name="Xem kết quả")).to_be_visible()
    page.get_by_role("button", name="English").click()
    asked: list[str] = []

    def confirm(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", confirm)
    box.get_by_role("button", name="Remove this finished match of Gin Rummy from the list").click()
    expect(box).to_be_hidden()
    assert asked and "finished match" in asked[0]
    sessions = page.evaluate("() => JSON.parse(localStorage.getItem('rummykit.sessions'))")
    assert all(s["table"] != table for s in sessions)


RECORD_SCRIPT = """async () => {
  const stats = await import('/js/stats.js');
  const welcome = (table) => ({table, seat: 0, game: 'rummy', seats: [
    {kind: 'human', joined: true}, {kind: 'computer', level: 'easy'}, {kind: 'computer', level: 'easy'}]});
  const ended = (winner, winners) => ({view: {hand_number: 1, over: true,
    hand: {result: {winner}}, result: {winners}}});
  const counted = [
    stats.recordResult(welcome('t1'), ended(0, [0])),        // won
    stats.recordResult(welcome('t2'), ended(0, [0])),        // won: a run of 2
    stats.recordResult(welcome('t3'), ended(null, [0, 1, 2])), // a stalemate: everybody tied
    stats.recordResult(welcome('t4'), ended(1, [1])),        // lost
    stats.recordResult(welcome('t4'), ended(1, [1])),        // the same hand again
  ];
  stats.renderStats();
  const lines = [...document.querySelectorAll('#stats-list p')].map((p) => p.textContent);
  stats.clearStats();
  const again = stats.recordResult(welcome('t1'), ended(0, [0])); // counted before the clearing
  stats.renderStats();
  return {counted, lines, again, hidden: document.getElementById('stats').hidden};
}"""


def test_the_record_counts_only_outright_wins_and_never_a_hand_twice(
    server: Any, new_page: Any
) -> None:
    """A tie (a stalemate that leaves every seat level) is neither a win nor part of a run of
    wins; a hand is counted once, even after the record was cleared."""
    page = new_page()
    page.goto(server.url)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    out = page.evaluate(RECORD_SCRIPT)
    assert out["counted"] == [True, True, True, True, False]
    assert out["lines"] == [
        "Basic Rummy, 3 players · vs the computer (Easy)",
        "Matches won: 2 of 4, 1 tied (50%) · best run: 2 in a row",
        "Hands won: 2 of 4 (50%)",
    ]
    assert out["again"] is False and out["hidden"] is True


CONTINUE_LINE = (
    r"^You have an unfinished game of {game} \(hand 1\)\. With {who}\. "
    r"Last played today at \d\d:\d\d\.$"
)


def test_the_continue_list_says_who_and_when_and_forgets_a_game(
    server: Any, new_page: Any, shot: Any
) -> None:
    """Each unfinished game says who else plays and when this browser last saw it; Remove (after
    a confirmation) forgets that seat in this browser. On a touch phone there is no keyboard
    button, and the long name of a rule set wraps instead of being cut."""
    page = new_page(locale="vi-VN", phone=True)
    page.goto(server.url)
    expect(page.get_by_role("heading", name="Trận mới")).to_be_visible()
    expect(page.locator("#btn-keys")).to_be_hidden()  # a touch screen has no keyboard
    page.get_by_role("radio", name=re.compile("^Rummy cơ bản")).check()
    open_settings(page)
    page.locator("#preset").select_option(label="Rummy truyền thống (hạ bao nhiêu bộ cũng được)")
    box = page.locator("#preset").bounding_box()
    form = page.locator("#start-form").bounding_box()
    assert box and form and box["x"] + box["width"] <= form["x"] + form["width"] + 0.5
    assert box["height"] > 50, box  # two lines: the whole name
    page.get_by_role("button", name="English").click()
    page.get_by_label("Opponents").select_option(label="2 opponents")
    page.get_by_label("Computer level").select_option(label="Hard")
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    rummy_table = page.evaluate("() => window.rummykit.state.session.table")
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
    open_settings(page)
    page.get_by_label("Your opponent").select_option(label="A friend (send them a link)")
    page.locator("#start").get_by_label("Your name").fill("An")
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()
    page.get_by_role("button", name="Menu").click()
    entries = page.locator("#continue-list li")
    expect(entries).to_have_count(2)
    gin, rummy = entries.nth(0), entries.nth(1)  # the one played last first
    line = CONTINUE_LINE.format(game="Gin Rummy", who="a friend not joined yet")
    expect(gin.locator("p")).to_have_text(re.compile(line))
    line = CONTINUE_LINE.format(game="Basic Rummy", who=r"2 computers \(Hard\)")
    expect(rummy.locator("p")).to_have_text(re.compile(line))
    shot(page, "phone-continue-list")
    remove = rummy.get_by_role("button", name="Remove this game of Basic Rummy from the list")
    page.once("dialog", lambda d: d.dismiss())  # changed their mind: nothing is forgotten
    remove.click()
    expect(entries).to_have_count(2)
    page.once("dialog", lambda d: d.accept())
    remove.click()
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("Gin Rummy")
    stored = page.evaluate("() => localStorage.getItem('rummykit.sessions')")
    assert rummy_table not in stored
    page.reload()
    expect(page.locator("#continue-list li")).to_have_count(1)
