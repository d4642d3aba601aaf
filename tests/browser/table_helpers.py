"""Helpers shared by the browser test files (not tests themselves): the page is found by role and
accessible name as a person (or a screen reader) would; a seat waits for the server's views, plays
simple turns of Gin, Basic and Crazy Rummy, and opens tables played on the server's own database."""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from typing import Any, cast

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

MY_TURN_OR_OVER = """() => {
  const dlg = document.querySelector('#dlg-result');
  // (in Crazy Rummy a seat asked whether to buy is marked "asked": its decision too)
  return (dlg && dlg.open) || Boolean(document.querySelector('.scores li.me.acting, .scores li.me.asked'));
}"""

VALUES = {"ace": 1, "jack": 10, "queen": 10, "king": 10, "joker": 25}


def hand(page: Any) -> Any:
    return page.get_by_role("group", name=re.compile(r"^(Your hand|Bài của bạn)"))


def cards(page: Any) -> list[dict[str, str]]:
    """The hand in display order: name, title (meld, deadwood, fits) and whether selected."""
    data: list[dict[str, str]] = (
        hand(page)
        .get_by_role("button")
        .evaluate_all(
            """els => els.map(e => ({name: e.getAttribute('aria-label'), title: e.title || '',
                              pressed: e.getAttribute('aria-pressed')}))"""
        )
    )
    return data


def seq(page: Any) -> int:
    return int(page.locator("#table").get_attribute("data-seq") or -1)


PAGE_STATE = """() => ({
  seq: document.querySelector('#table').dataset.seq,
  alert: document.querySelector('#alert').textContent,
  result_open: document.querySelector('#dlg-result').open,
  next_hidden: document.querySelector('#btn-next').hidden,
  focus: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
})"""


def wait_past(page: Any, before: int, what: str) -> None:
    """Wait for a view newer than ``before``; if none comes, fail with what the page showed."""
    try:
        page.wait_for_function(
            "s => Number(document.querySelector('#table').dataset.seq) > s", arg=before
        )
    except PlaywrightTimeoutError:
        state = page.evaluate(PAGE_STATE)
        pytest.fail(f"no new view after {what} (view {before}); the page: {state}")


def act(page: Any, locator: Any) -> None:
    """Click and wait for the server's next view."""
    before = seq(page)
    locator.click()
    wait_past(page, before, f"clicking {locator}")


def press(page: Any, key: str) -> None:
    """Press a key that sends an intent and wait for the server's next view."""
    before = seq(page)
    page.keyboard.press(key)
    wait_past(page, before, f"pressing {key!r}")


def wait_turn(page: Any) -> None:
    page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)


def result_open(page: Any) -> bool:
    return bool(page.locator("#dlg-result").evaluate("d => d.open"))


KNOCKER_MELDS = """() => {
  const seat = document.querySelector('#dlg-result .result-seat');
  return seat ? [...seat.querySelectorAll('.result-melds > .mini-row')].map((row) => ({
    no: row.querySelector(':scope > .meld-no')?.textContent ?? null,
    laid: [...row.querySelectorAll('.face.laid-off .corner')].map((c) => c.textContent),
  })) : [];
}"""
"""The knocker's melds on Gin's score screen (its first seat): each one's number and the cards
laid off on it, as their corners read ("8♥")."""


def check_layoffs_shown(page: Any) -> int:
    """Gin's score screen numbers the knocker's melds as the table did, and shows each card the
    defender laid off on the meld "Laid off: 8♥ on meld 2, ..." names, marked; returns how many
    cards were laid off."""
    listed = " ".join(page.locator("#dlg-result .result-layoffs").all_inner_texts())
    laid = re.findall(r"(\S+) on meld (\d+)", listed)
    expect(page.locator("#dlg-result .face.laid-off")).to_have_count(len(laid))
    melds = page.evaluate(KNOCKER_MELDS)
    assert [m["no"] for m in melds] == [str(n) for n in range(1, len(melds) + 1)], melds
    for card, number in laid:
        assert card in melds[int(number) - 1]["laid"], (card, number, melds)
    return len(laid)


def next_hand(page: Any, ask: Any) -> None:
    """Ask for the next hand, then wait until its view has closed the result dialog."""
    ask()
    page.wait_for_function("() => !document.querySelector('#dlg-result').open")


LISTEN_LIVE = """() => {
  window.__live = [];
  if (window.__liveObserver) return;
  window.__liveObserver = new MutationObserver((changes) => changes.forEach((c) =>
    c.addedNodes.forEach((n) => window.__live.push(n.textContent))));
  window.__liveObserver.observe(document.querySelector('#live'), { childList: true });
}"""


def play_on(page: Any) -> None:
    """After a hand: the next hand, or a rematch when that hand ended the match."""
    following = page.get_by_role("button", name=re.compile(r"^Next (hand|round)$"))
    if following.is_visible():
        page.evaluate(LISTEN_LIVE)
        next_hand(page, lambda: act(page, following))
        # a screen reader hears the new hand, and in Crazy Rummy the new round's contract
        page.wait_for_function(
            r"""() => window.__live.some((t) =>
              /^Hand \d+ is dealt\.$/.test(t) || /^Round \d is dealt\. Contract: \d/.test(t))"""
        )
    else:
        page.get_by_role("button", name="Rematch").click()
        page.wait_for_function("() => !document.querySelector('#dlg-result').open")


IN_VIEW = """sel => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  if (!(r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight + 0.5)) return false;
  // and not hidden by a scrolled box it sits in (the board scrolls above the hand)
  for (let box = el.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflowY === "visible") continue;
    const b = box.getBoundingClientRect();
    if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) return false;
  }
  return true;
}"""


def drew(page: Any) -> bool:
    """Draw from the stock if the turn allows it now; whether it did."""
    stock = page.get_by_role("button", name=re.compile("^Stock"))
    if not stock.is_enabled():
        return False
    act(page, stock)
    return True


def past_score_or_draw(page: Any) -> bool:
    """Wait for this seat's turn; close a hand's score or draw from the stock if that is what
    the turn asks. True if it did either (the caller's loop goes round again), False when the
    card to play next is the caller's to choose."""
    wait_turn(page)
    if result_open(page):
        play_on(page)
        return True
    return drew(page)


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is wholly in sight: inside the window and not scrolled out of a box."""
    return bool(page.evaluate(IN_VIEW, selector))


def card_button(page: Any, name: str) -> Any:
    return hand(page).get_by_role("button", name=name, exact=True).first


def tap_card(button: Any) -> None:
    """Tap a card of the hand where a person would: its left part, which the next card never
    covers (a long hand on a phone shows only 40% of each card, so its middle is the next
    card's)."""
    box = button.bounding_box()
    where = {"x": box["width"] * 0.2, "y": box["height"] / 2} if box else None
    button.click(position=where)


def select(page: Any, name: str) -> Any:
    button = card_button(page, name)
    key = button.get_attribute("data-key")
    chosen = "(key) => window.rummykit.state.ui.selected.has(key)"
    # The page's own selection decides, not the drawn one: a redraw may still be on its way (a
    # loaded machine), and a tap on a card already selected throws it in Gin.
    if not page.evaluate(chosen, key):
        tap_card(button)
        try:
            page.wait_for_function(chosen, arg=key, timeout=2_000)
        except PlaywrightTimeoutError:
            # The hand may still be settling (a card just drawn slides in) as the click lands,
            # and another card takes it: tap this one again.
            tap_card(button)
    expect(button).to_have_attribute("aria-pressed", "true")
    return button


def clear_selection(page: Any) -> None:
    """Unselect every selected card (Basic and Crazy Rummy: a tap toggles one card).

    Cards are addressed by their key, not their name (Crazy Rummy has two of each), and the
    redraw is awaited, so a later ``select`` never reads a stale ``aria-pressed``."""
    pressed = hand(page).locator('button.card[aria-pressed="true"]')
    for key in pressed.evaluate_all("bs => bs.map((b) => b.dataset.key)"):
        tap_card(hand(page).locator(f'button.card[data-key="{key}"]'))
    expect(pressed).to_have_count(0)


def select_only(page: Any, name: str) -> Any:
    clear_selection(page)
    return select(page, name)


def discard_first(page: Any, names: list[str]) -> None:
    """Throw the first of ``names`` that may be thrown now (not the card just taken)."""
    for name in dict.fromkeys(names):
        select_only(page, name)
        discard = page.get_by_role("button", name="Discard", exact=True)
        if discard.is_enabled():
            act(page, discard)
            return


def discard_highest(page: Any, names: list[str]) -> None:
    """Throw the highest of ``names`` that may be thrown now (not the card just taken)."""
    discard_first(page, sorted(dict.fromkeys(names), key=value, reverse=True))


def discard_for_books(page: Any) -> None:
    """Crazy Rummy: throw the highest card whose rank is held once, keeping pairs and wilds
    (so that a book contract comes together); the highest card if every rank is paired."""
    names = [c["name"] for c in cards(page)]
    ranks = Counter(n.split(" ")[0] for n in names)
    wild = ("2", "Joker")
    loners = [n for n in names if ranks[n.split(" ")[0]] == 1 and n.split(" ")[0] not in wild]
    rest = [n for n in names if n not in loners]
    discard_first(
        page, sorted(loners, key=value, reverse=True) + sorted(rest, key=value, reverse=True)
    )


def deadwood_if_discarded(title: str) -> int | None:
    m = re.search(r"deadwood (\d+) if discarded", title)
    return int(m.group(1)) if m else None


def value(name: str) -> int:
    rank = name.split(" ")[0]
    return VALUES.get(rank, int(rank) if rank.isdigit() else 0)


def open_settings(page: Any) -> Any:
    """Unfold the start screen's settings (folded under Play) once the screen is drawn; the
    settings' box."""
    expect(page.locator("#btn-start")).to_be_visible()
    settings = page.locator("#settings")
    if not settings.evaluate("d => d.open"):
        settings.locator("summary").first.click()
    expect(settings).to_have_attribute("open", "")
    return settings


def start(
    page: Any,
    url: str,
    game: str,
    opponents: str | None = None,
    level: str | None = None,
    *,
    preset: str | None = None,
    friends: str | None = None,
    name: str | None = None,
    deal: int | None = 1,
) -> None:
    """Start ``game`` from the start screen with the choices given (the form's own otherwise).

    Against the computer, on deal number ``deal``: the same cards and the same computer moves
    every run, so that no test passes or fails by the luck of a deal (None: a random deal). The
    page ignores it at a table with friends."""
    page.goto(url if deal is None else f"{url}/?deal={deal}")
    page.get_by_role("radio", name=re.compile(f"^{game}")).check()
    if level is None and not friends:
        level = "Easy"  # (the games the tests were written for; a first visit gets Medium)
    if preset or opponents or friends or level or name:
        open_settings(page)
    if preset:
        page.locator("#preset").select_option(label=preset)
    if opponents:
        page.get_by_label("Opponents").select_option(label=opponents)
    if friends:
        page.get_by_label("Of them, friends").select_option(label=friends)
    if level:
        page.get_by_label("Computer level").select_option(label=level)
    if name:
        page.locator("#start").get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()


def start_with_house_rule(
    page: Any, url: str, game: str, opponents: str, rule: str, value: str
) -> None:
    """Start ``game`` against ``opponents`` with one house rule (a number field) set."""
    page.goto(url)
    page.get_by_role("radio", name=re.compile(f"^{game}")).check()
    open_settings(page)
    page.get_by_label("Opponents").select_option(label=opponents)
    house = page.locator("#house")
    house.locator("summary").click()
    house.get_by_label(rule).fill(value)
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()


def best_discard(page: Any) -> tuple[int, str]:
    options = [(deadwood_if_discarded(c["title"]), c["name"]) for c in cards(page)]
    return min((d, n) for d, n in options if d is not None)


FOCUS_PLACE = """() => document.activeElement.closest('#hand button.card') ? 'hand'
  : document.activeElement.id || document.activeElement.tagName"""
"""Where the focus is: "hand" (a card of the hand), else the focused element's id or tag."""


def wait_focus_placed(page: Any, mine: bool | None = None) -> str:
    """Wait until the focus is on the hand's card under the cursor (on this person's move) or
    on the prompt (else), never left on the page's body; ``mine`` says which is expected."""
    want = {True: ["hand"], False: ["prompt"], None: ["hand", "prompt"]}[mine]
    try:
        page.wait_for_function(f"() => {json.dumps(want)}.includes(({FOCUS_PLACE})())")
    except PlaywrightTimeoutError:
        pytest.fail(f"the focus is on {page.evaluate(FOCUS_PLACE)}, not on {want}")
    return str(page.evaluate(FOCUS_PLACE))


def draw_or_throw_highest(page: Any) -> None:
    """Basic Rummy, playing only to run the stock down: draw, else throw the highest card."""
    if not drew(page):
        discard_highest(page, [c["name"] for c in cards(page)])


def draw_or_pass(page: Any) -> bool:
    """Crazy Rummy's start of a turn: pass the offer, or draw from the stock; False if neither."""
    if page.get_by_role("button", name="Pass").is_visible():
        act(page, page.get_by_role("button", name="Pass"))
        return True
    return drew(page)


def gin_simple_move(page: Any) -> None:
    """Wait for the person's turn, then one simple Gin move: the next hand, the best lay-offs,
    pass, draw from the stock, or throw the best discard."""
    wait_turn(page)
    if result_open(page):
        next_hand(page, lambda: act(page, page.get_by_role("button", name="Next hand")))
    elif page.get_by_role("button", name="Best lay-offs").is_visible():
        act(page, page.get_by_role("button", name="Best lay-offs"))
    elif page.get_by_role("button", name="Pass").is_visible():
        act(page, page.get_by_role("button", name="Pass"))
    elif page.get_by_role("button", name=re.compile("^Stock")).is_enabled():
        act(page, page.get_by_role("button", name=re.compile("^Stock")))
    else:
        act(page, select(page, best_discard(page)[1]))


def gin_turn_to_knock(page: Any) -> None:
    """One Gin move that knocks whenever it may: pass, draw, lay off, knock or throw."""
    for name in ("Pass", "Best lay-offs"):
        button = page.get_by_role("button", name=name)
        if button.is_visible():
            act(page, button)
            return
    if drew(page):
        return
    deadwood, name = best_discard(page)
    card = select(page, name)
    knock = page.get_by_role("button", name=re.compile("^(Knock|Gin)$"))
    act(page, knock if knock.is_enabled() and deadwood <= 10 else card)


def play_gin_hand_out(page: Any) -> None:
    """Play this seat's Gin turns (knocking whenever it may) until the hand's score is up."""
    for _ in range(400):
        wait_turn(page)
        if result_open(page):
            return
        gin_turn_to_knock(page)
    pytest.fail("the hand did not end")


def start_gin_to_one_point(page: Any) -> None:
    """From the start screen, Gin to 1 point against the easy computer, until the hand shows."""
    page.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
    open_settings(page)
    page.get_by_label("Computer level").select_option(label="Easy")
    page.get_by_label("Target score").fill("1")
    page.get_by_role("button", name="Play").click()
    expect(hand(page).get_by_role("button").first).to_be_visible()


def finish_a_gin_match(page: Any) -> dict[int, Any]:
    """From the start screen, a whole Gin match to 1 point against the easy computer, left on
    its final score; returns each hand's winner by hand number."""
    start_gin_to_one_point(page)
    winners: dict[int, Any] = {}
    for _ in range(400):
        wait_turn(page)
        if result_open(page):
            result = page.evaluate(HAND_RESULT)
            winners[result["hand"]] = result["winner"]
            if result["over"]:
                return winners
            next_hand(page, lambda: act(page, page.get_by_role("button", name="Next hand")))
            continue
        gin_turn_to_knock(page)
    pytest.fail("the match did not end")


def gin_with_a_friend(server: Any, new_page: Any, target: str | None = None) -> tuple[Any, Any]:
    """A Gin table of two people in two windows: An (the host, who sends the link) and Lan."""
    host = new_page()
    link = invite_to_gin(host, server.url, target)
    friend = new_page()
    take_the_seat(host, friend, link)
    return host, friend


def invite_to_gin(host: Any, url: str, target: str | None = None) -> str:
    """An starts Gin with a friend from the start screen; the invitation link."""
    host.goto(url)
    host.get_by_role("radio", name=re.compile("^Gin Rummy")).check()
    open_settings(host)
    host.get_by_label("Your opponent").select_option(label="A friend (send them a link)")
    host.locator("#start").get_by_label("Your name").fill("An")
    if target is not None:
        host.get_by_label("Target score").fill(target)
    host.get_by_role("button", name="Play").click()
    return str(host.locator("#invite-list input").first.input_value())


def take_the_seat(host: Any, friend: Any, link: str) -> None:
    """Lan opens the invitation ``link`` and takes the seat; An's page sees her come."""
    friend.goto(link)
    friend.locator("#join").get_by_label("Your name").fill("Lan")
    friend.get_by_role("button", name="Take my seat").click()
    expect(host.locator("#opponents-zone")).to_contain_text("Lan")


HAND_RESULT = """() => {
  const v = window.rummykit.state.msg.view;
  return {hand: v.hand_number, winner: v.hand.result ? v.hand.result.winner : null, over: v.over,
          winners: v.over ? v.result.winners : null};
}"""


SOUNDS = """async () => {
  const sound = await import('/js/sound.js');
  return {...sound.played, state: sound.audioState()};
}"""


def played_table(
    db: Any,
    variant: str,
    opponents: int,
    *,
    seed: int,
    buy_to: int = 0,
    until: str = "draw",
    options: dict[str, Any] | None = None,
    level: str = "easy",
) -> dict[str, Any]:
    """A table of the server's own database played on by the computers (at ``level``) and a simple seat 0
    (buys while its hand holds fewer than ``buy_to`` cards, draws, throws its first card), up to
    seat 0's draw once it holds ``buy_to`` cards (``until="draw"``), a buy offered to it
    (``"buy"``), its lay-offs after a Gin knock (``"layoff"``), or the end of the hand
    (``"over"``); returns the page's stored session.
    ``options``: the table's house rules."""
    from rummykit.server.store import Store
    from rummykit.server.tables import Table

    table, token = Table.create(
        Store(db), variant=variant, opponents=opponents, level=level, seed=seed, options=options
    )
    for _ in range(5000):
        state = table.hand
        if state.is_over:
            break
        if state.to_act != 0:
            table.step_computer()
            continue
        legal = [str(a) for a in state.legal_actions()]
        size = len(cast(Any, state).hands[0])  # (Crazy Rummy's state: the seat's cards)
        if until == "buy" and "buy" in legal:
            break
        if until == "draw" and "draw" in legal and size >= buy_to:
            break
        if until == "layoff" and "done" in legal:
            break
        if "buy" in legal and size < buy_to:
            action = "buy"
        elif "pass" in legal:
            action = "pass"
        elif "draw" in legal:
            action = "draw"
        else:
            action = next(a for a in legal if a.startswith("discard"))
        table.act(0, action, table.seq)
    assert (until == "over") == table.hand.is_over
    return {"table": table.id, "seat": 0, "token": token, "invites": []}


def open_session(page: Any, url: str, session: dict[str, Any]) -> None:
    """Open a stored table in the page (as Continue on the start screen does)."""
    page.goto(url)
    page.evaluate("s => localStorage.setItem('rummykit.sessions', JSON.stringify([s]))", session)
    page.reload()
    page.locator("#continue-list button").first.click()
    page.wait_for_function(
        "() => document.querySelector('#dlg-result').open || document.querySelector('#hand .card')"
    )


def gin_on_the_clock(
    db: Any, url: str, *, seed: int, turn_time: int = 5, quiet_turns: int = 5
) -> dict[str, Any]:
    """A Gin table of two people in the server's database, ``turn_time`` seconds a turn, seat
    1 kept for a friend; returns seat 0's stored session, its ``invites`` holding seat 1's link.

    The deal is fixed (``seed``), and checked first on a copy played offline: ``quiet_turns``
    turns in a row whose time runs out, each finished by the computer, leave the hand going. A
    test that lets turns run out thus never meets a knock by luck (a random deal did, rarely)."""
    import tempfile
    from pathlib import Path

    from rummykit.server.store import Store
    from rummykit.server.tables import Table

    def create(store: Any) -> tuple[Any, str]:
        return Table.create(
            store,
            variant="gin",
            opponents=1,
            level="medium",
            friends=1,
            seed=seed,
            turn_time=turn_time,
            name="An",
        )

    with (
        tempfile.TemporaryDirectory() as folder,
        contextlib.closing(Store(Path(folder) / "copy.sqlite3")) as store,
    ):
        copy, _ = create(store)
        copy.join(copy.invites[1], "Lan")
        now = [1000.0]
        copy.clock = lambda: now[0]
        for turn in range(quiet_turns):
            deadline = copy.turn_deadline()
            if deadline is not None:  # (none for a person away: the computer plays at once)
                now[0] += deadline[1]
                assert copy.expire(deadline[0]) is not None
            seat = copy.computer_to_act()
            while seat is not None and copy.computer_to_act() == seat:  # (that turn only)
                copy.step_computer()
            assert not copy.hand.is_over, f"seed {seed}: the hand ends on turn {turn + 1}"
    table, token = create(Store(db))
    link = f"{url.rstrip('/')}/#join={table.id}.{table.invites[1]}"
    return {"table": table.id, "seat": 0, "token": token, "invites": [{"seat": 1, "link": link}]}
