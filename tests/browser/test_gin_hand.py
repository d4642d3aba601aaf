"""A Gin hand by clicks: knocking, sorting the hand, the score of a hand and of a match."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_helpers import (
    HAND_RESULT,
    act,
    best_discard,
    cards,
    check_layoffs_shown,
    draw_or_pass,
    finish_a_gin_match,
    hand,
    next_hand,
    open_session,
    play_on,
    played_table,
    result_open,
    select,
    seq,
    start,
    start_gin_to_one_point,
    wait_turn,
)

SEED = 3
"""The deal of the hand played to a knock (any seed whose hand the person knocks in)."""

BOARD_PLACES = """() => {
  const board = document.getElementById("board").getBoundingClientRect();
  const origin = board.top - document.getElementById("board").scrollTop;
  const bar = document.getElementById("opponents-zone").getBoundingClientRect();
  const log = document.getElementById("log").getBoundingClientRect();
  return [Math.round(bar.top - origin), Math.round(log.bottom - origin), Math.round(board.height)];
}"""
"""Where the board's content (the opponents) starts, from the board's top, scrolled or not, where
the log ends, and the board's height (a phone's log takes the felt the board leaves empty)."""


def test_gin_hand_by_clicks_to_a_knock_and_the_score_screen(
    server: Any, new_page: Any, shot: Any
) -> None:
    page = new_page(phone=True, reduced_motion="no-preference")
    page.goto(server.url)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    shot(page, "phone-start")
    start(page, server.url, "Gin Rummy", level="Hard")  # the strongest computer player
    expect(page.get_by_role("button", name=re.compile(r"^Stock, \d+ cards$"))).to_be_visible()
    # on a phone the opponent's box carries its score and boxes (the score bar shows only yours)
    expect(page.locator("#opponents-zone .opp-score")).to_have_text(
        re.compile(r"^\d+\spoints? · \d+\sbox(es)?$")
    )
    # The hand to a knock is played on a known deal (the random one of the start screen once
    # gave the hard computer every hand of a match: no knock in 300 turns).
    open_session(page, server.url, played_table(server.db, "gin", 1, seed=SEED, level="hard"))
    knocked = hinted = False
    places: set[tuple[int, int, int]] = set()
    for _ in range(300):
        wait_turn(page)
        if result_open(page):
            check_layoffs_shown(page)
            if knocked:
                break
            rematch = page.get_by_role("button", name="Rematch")
            if rematch.is_visible():  # the hard computer won the whole match first: play again
                expect(page.get_by_role("dialog")).to_contain_text("Computer")
                rematch.click()
                page.wait_for_function("() => !document.querySelector('#dlg-result').open")
                continue
            next_hand(page, lambda: act(page, page.get_by_role("button", name="Next hand")))
            continue
        if page.get_by_role("button", name="Pass").is_visible():
            act(page, page.get_by_role("button", name="Pass"))
            continue
        if page.get_by_role("button", name="Best lay-offs").is_visible():
            act(page, page.get_by_role("button", name="Best lay-offs"))  # the computer knocked
            continue
        stock = page.get_by_role("button", name=re.compile("^Stock"))
        if stock.is_enabled():
            places.add(tuple(page.evaluate(BOARD_PLACES)))
            act(page, stock)
            if not knocked and seq(page) > 8:
                shot(page, "phone-gin-table")
            continue
        if not hinted:  # the hard player's advice, with its reason
            page.get_by_role("button", name="Hint").click()
            expect(page.locator("#hint-text")).to_have_text(
                re.compile(r"^Hint: (discard|knock, throwing) (10|[2-9AJQK])[♣♦♥♠]: \w")
            )
            hinted = True
        deadwood, name = best_discard(page)
        button = select(page, name)
        knock = page.get_by_role("button", name=re.compile("^(Knock|Gin)$"))
        if knock.is_enabled() and deadwood <= 10:
            expect(knock).to_have_text("Gin" if deadwood == 0 else "Knock")
            act(page, knock)
            knocked = True
        else:
            act(page, button)  # tapping the selected card again discards it
    else:
        pytest.fail("no knock in 300 turns")
    # Turn after turn, the board starts at its top (no band of empty felt above the scores) and
    # where the log ends follows the board's height, never the log's length: the piles and the
    # table below stay where they were, however long the log is.
    assert len({top for top, _, _ in places}) == 1 and min(places)[0] <= 16, places
    assert len({(log, board) for _, log, board in places}) == len({b for _, _, b in places}), places
    page.wait_for_function("() => document.querySelector('#dlg-result').open")
    dialog = page.get_by_role("dialog")
    # (the knock may have won the whole match: then the dialog says so first)
    expect(dialog.get_by_role("heading", level=2)).to_have_text(
        re.compile(r"^(You knocked|Undercut!|Gin!|The match is over|You won the match!)")
    )
    expect(dialog.get_by_role("heading", name="You (knocked)")).to_be_visible()
    expect(dialog.get_by_role("heading", name="Computer (defended)")).to_be_visible()
    scores = dialog.get_by_role("table").first
    expect(scores).to_contain_text("Total")
    if dialog.get_by_role("button", name="Next hand").is_visible():  # not the match's end
        hand_number = int(page.locator("#scorebar").inner_text().split("Hand ")[1].split()[0])
        expect(scores).to_contain_text(f"Hand {hand_number}")  # a row per hand so far
    shot(page, "phone-gin-result")


def melds_in_hand(page: Any) -> list[int | None]:
    """Per card of the hand, in display order: the number of its meld, or None."""
    found = [re.search(r"in meld (\d+)", c["title"]) for c in cards(page)]
    return [int(f.group(1)) if f else None for f in found]


def test_the_hand_sorts_by_suit_rank_and_melds(server: Any, new_page: Any) -> None:
    page = new_page()
    start(page, server.url, "Gin Rummy")
    sort = page.locator("#btn-sort")
    for _ in range(200):  # play on (best discards) until the hand holds two melds
        wait_turn(page)
        if result_open(page):
            play_on(page)
            continue
        if len({m for m in melds_in_hand(page) if m}) >= 2:
            break
        if draw_or_pass(page):
            continue
        if page.get_by_role("button", name="Best lay-offs").is_visible():
            act(page, page.get_by_role("button", name="Best lay-offs"))  # the computer knocked
            continue
        act(page, select(page, best_discard(page)[1]))
    else:
        pytest.fail("never two melds in the hand")
    # the button names the hand's order now, and its label what a tap does
    expect(sort).to_have_text("Sort: by suit ▸")
    expect(sort).to_have_attribute("aria-label", "Sort: by suit; tap to sort by rank")
    sort.click()
    expect(sort).to_have_text("Sort: by rank ▸")
    ranks = [c["name"].split(" ")[0] for c in cards(page)]
    order = ["ace", *[str(n) for n in range(2, 11)], "jack", "queen", "king"]
    assert ranks == sorted(ranks, key=order.index)
    sort.click()
    expect(sort).to_have_text("Sort: by melds ▸")
    expect(sort).to_have_attribute("aria-label", "Sort: by melds; tap to sort by suit")
    numbers = melds_in_hand(page)
    melded = [n for n in numbers if n is not None]
    # every meld's cards side by side, meld 1 first, and the unmatched cards after them all
    assert numbers[: len(melded)] == melded == sorted(melded), numbers
    assert len(set(melded)) >= 2
    sort.click()
    expect(sort).to_have_text("Sort: by suit ▸")  # back to suits
    # suits in the order ♠ ♥ ♣ ♦: black and red take turns, so no two neighbours look alike
    suits = [c["name"].split(" of ")[1] for c in cards(page)]
    shown = ["spades", "hearts", "clubs", "diamonds"]
    assert suits == sorted(suits, key=shown.index), suits


def test_the_sort_order_is_remembered_per_game_across_a_reload(server: Any, new_page: Any) -> None:
    page = new_page()
    start(page, server.url, "Basic Rummy")
    sort = page.locator("#btn-sort")
    expect(sort).to_have_text("Sort: by suit ▸")
    sort.click()
    expect(sort).to_have_text("Sort: by rank ▸")
    page.reload()  # back to the same table, the hand still by rank
    expect(hand(page).get_by_role("button").first).to_be_visible()
    expect(sort).to_have_text("Sort: by rank ▸")
    ranks = [c["name"].split(" ")[0] for c in cards(page)]
    order = ["ace", *[str(n) for n in range(2, 11)], "jack", "queen", "king"]
    assert ranks == sorted(ranks, key=order.index)
    # per game: a Gin table starts by suit, and Basic Rummy's choice stays
    page.get_by_role("button", name="Menu").click()
    start(page, server.url, "Gin Rummy")
    expect(sort).to_have_text("Sort: by suit ▸")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('rummykit.settings')).sort")
    assert saved == {"rummy": "rank"}


MATCH_RESULT_SHOWN = """() => {
  const dlg = document.querySelector('#dlg-result');
  const top = dlg.getBoundingClientRect().top;
  const buttons = dlg.querySelector(':scope > .row').getBoundingClientRect().top;
  const seen = (el) => { const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= top - 0.5 && r.bottom <= buttons + 0.5; };
  const match = dlg.querySelector('.match-result');
  const rematch = document.getElementById('btn-rematch').getBoundingClientRect();
  return {first: dlg.querySelector('#result-body').firstElementChild.className,
          winner: seen(match.querySelector('h3')), total: seen([...match.querySelectorAll('tr')].pop()),
          rematch: rematch.height > 0 && rematch.bottom <= window.innerHeight};
}"""
"""Whether the end of a match shows its winner and final score first, above the buttons."""


def test_a_laptop_sees_the_match_winner_and_final_score_with_rematch(
    server: Any, new_page: Any, shot: Any
) -> None:
    """At 1366x768 the end of a match opens on its winner and final score (the totals row in
    sight above the buttons, Rematch too); the last hand's details come after them."""
    page = new_page(viewport=(1366, 768))
    page.goto(server.url)
    finish_a_gin_match(page)
    dialog = page.get_by_role("dialog")
    won = page.evaluate(HAND_RESULT)["winners"] == [0]
    title = "You won the match!" if won else "The match is over"
    expect(dialog.get_by_role("heading", level=2)).to_have_text(title)
    expect(dialog.locator(".match-result h3")).to_have_text(re.compile(r"^Winner: "))
    expect(page.get_by_role("button", name="Rematch")).to_be_focused()
    shot(page, "laptop-gin-match-over")
    assert page.evaluate(MATCH_RESULT_SHOWN) == {
        "first": "match-result",
        "winner": True,
        "total": True,
        "rematch": True,
    }


def finished_gin_match(db: Any, *, winner: int) -> dict[str, Any]:
    """A Gin match to 1 point of the server's own database, played out before a page opens it
    (seat 0 by the hard computer, against the easy one): the first seed whose match ``winner``
    wins. Returns the page's stored session."""
    from rummykit.server.store import Store
    from rummykit.server.tables import Table
    from rummykit.server.thinking import make_player

    for seed in range(40):
        table, token = Table.create(
            Store(db), variant="gin", opponents=1, level="easy", seed=seed,
            options={"target_score": 1},
        )  # fmt: skip
        me = make_player(table.hand.game, "hard", seed)
        while not table.finished:
            if table.hand.is_over:
                table.next_hand(0, table.seq)
            elif table.hand.to_act != 0:
                table.step_computer()
            else:
                table.act(0, str(me.choose(table.hand.view(0))), table.seq)
        if table.match_view(0)["result"]["winners"] == [winner]:
            return {"table": table.id, "seat": 0, "token": token, "invites": []}
    pytest.fail(f"no match won by seat {winner} in 40 seeds")


CENTRE_TAKER = """id => { const r = document.getElementById(id).getBoundingClientRect();
  return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).id; }"""
"""The id of the element a tap at the middle of element ``id`` would reach."""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_match_won_is_celebrated_the_first_time_it_is_shown(
    server: Any, new_page: Any, shot: Any, motion: str
) -> None:
    """The first time a page shows the end of a match its reader won, the title says so and card
    suits fall over the screen for a few seconds (none under reduced motion), never in the way
    of a tap, and not again after a reload; a match lost keeps the plain title, with none."""
    page = new_page(reduced_motion=motion)
    open_session(page, server.url, finished_gin_match(server.db, winner=0))
    title = page.locator("#dlg-result").get_by_role("heading", level=2)
    expect(title).to_have_text("You won the match!")
    expect(page.locator("#dlg-result .match-result h3")).to_have_text("Winner: You")
    pieces = page.locator("#dlg-result .celebration .bit")
    # (the pieces come with the dialog, in the same task: a count of 0 is not too early)
    expect(pieces).to_have_count(32 if motion == "no-preference" else 0)
    assert page.evaluate(CENTRE_TAKER, "btn-rematch") == "btn-rematch"
    if motion == "no-preference":
        page.wait_for_timeout(900)
        shot(page, "match-won")
        expect(page.locator(".celebration")).to_have_count(0, timeout=6_000)
        page.reload()
        expect(title).to_have_text("You won the match!")
        expect(page.get_by_role("button", name="Rematch")).to_be_focused()
        expect(page.locator(".celebration")).to_have_count(0)
    lost = new_page(reduced_motion=motion)
    open_session(lost, server.url, finished_gin_match(server.db, winner=1))
    expect(lost.locator("#dlg-result").get_by_role("heading", level=2)).to_have_text(
        "The match is over"
    )
    expect(lost.locator("#dlg-result .match-result h3")).to_have_text("Winner: Computer")
    expect(lost.locator(".celebration")).to_have_count(0)


def test_a_match_over_tells_its_deal_number_and_plays_it_again(server: Any, new_page: Any) -> None:
    """Against the computer, the final score names the match's deal (its address deals it to
    anyone) and "Play deal N again" starts a new table on the same cards: the same first hand
    as a page that opens ``?deal=N`` and starts the same game."""
    page = new_page()
    page.goto(server.url)
    finish_a_gin_match(page)
    again = page.get_by_role("button", name=re.compile(r"^Play deal \d+ again$"))
    expect(again).to_be_visible()
    deal = int(re.findall(r"\d+", again.inner_text())[0])
    expect(page.locator("#dlg-result .result-deal")).to_contain_text(f"/?deal={deal} ")
    old_table = page.evaluate("() => window.rummykit.state.session.table")
    again.click()
    page.wait_for_function(
        "t => window.rummykit.state.session && window.rummykit.state.session.table !== t"
        " && window.rummykit.state.msg && window.rummykit.state.msg.seq === 0",
        arg=old_table,
    )
    expect(page.locator("#dlg-result")).not_to_be_visible()
    replayed = page.evaluate("() => window.rummykit.state.msg.view.hand.hand")
    other = new_page()
    other.goto(f"{server.url}/?deal={deal}")
    start_gin_to_one_point(other)
    assert other.evaluate("() => window.rummykit.state.msg.view.hand.hand") == replayed
