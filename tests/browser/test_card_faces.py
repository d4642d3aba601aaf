"""Cards that look like a real deck: pips laid out by rank, pictures on the court cards and the
joker, and a corner index that stays readable in a fanned hand and in the four-colour deck."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_helpers import act, hand, start, wait_turn

FACES = """async () => {
  const cards = await import('/js/cards.js');
  const row = document.createElement('div');
  row.id = 'faces';
  document.body.prepend(row);
  const out = [];
  for (const text of ['AS', '2H', '3C', '4D', '5S', '6H', '7C', '8D', '9S', 'TH',
                      'JC', 'QD', 'KS', 'KH', 'X']) {
    const face = cards.face(text);
    face.style.width = '90px';
    row.append(face);
    const picture = face.querySelector('.picture');
    const corner = face.querySelector('.corner').getBoundingClientRect();
    const pips = [...face.querySelectorAll('.pips > span')];
    out.push({
      text, pips: pips.length,
      pipColours: [...new Set(pips.map((p) => getComputedStyle(p).color))],
      cornerColour: getComputedStyle(face.querySelector('.corner')).color,
      picture: picture ? getComputedStyle(picture).backgroundImage : null,
      clear: [...pips, ...(picture ? [picture] : [])].every((p) => {
        const r = p.getBoundingClientRect();
        return r.left >= corner.right - 0.5 || r.top >= corner.bottom - 0.5;
      }),
    });
  }
  return out;
}"""
"""Each face as the page draws it: its pips and their colours, its index's colour, its picture,
and whether every pip and picture keeps clear of the corner index."""


@pytest.mark.parametrize("four_colour", [False, True])
def test_cards_look_like_a_real_deck_in_both_decks(
    server: Any, new_page: Any, shot: Any, four_colour: bool
) -> None:
    """Court cards showed a letter and a pip: now each number card has its rank's pips (an ace
    one big one), in its suit's colour in either deck; each court card and the joker a picture,
    served by the page itself; and nothing covers the corner index."""
    page = new_page()
    page.goto(server.url)
    expect(page.locator("#btn-start")).to_be_visible()
    if four_colour:
        page.get_by_role("button", name="Four-colour deck").click()
    faces = page.evaluate(FACES)
    page.wait_for_load_state("networkidle")
    shot(page, f"faces-{'four' if four_colour else 'two'}-colour")
    for face in faces:
        assert face["clear"], face
        if face["text"][0] in "JQKX":
            assert face["pips"] == 0 and face["picture"], face
            continue
        rank = "A23456789T".index(face["text"][0]) + 1
        assert face["pips"] == rank and face["picture"] in (None, "none"), face
        assert face["pipColours"] == [face["cornerColour"]], face
    colours = {f["text"][-1]: f["cornerColour"] for f in faces if f["text"] != "X"}
    assert len(set(colours.values())) == (4 if four_colour else 2), colours
    pictures = {f["text"]: f["picture"] for f in faces if f["picture"] not in (None, "none")}
    assert sorted(pictures) == ["JC", "KH", "KS", "QD", "X"], pictures
    for url in pictures.values():
        path = url.split('url("', 1)[1].rstrip('")').replace(server.url, "")
        answer = page.request.get(server.url + path)
        assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml"), path
        assert b"<svg" in answer.body()[:200], path


def test_a_fanned_hand_on_the_smallest_phone_shows_each_cards_index(
    server: Any, new_page: Any, shot: Any
) -> None:
    """At 320x568 the hand overlaps its cards: each card's corner index (rank and suit) is in
    the part of the card that shows, pictures or not, and eleven cards (after a draw) keep one
    row (two rows left the table above them too short for its prompt)."""
    page = new_page(phone=True, viewport=(320, 568))
    start(page, server.url, "Gin Rummy")
    for _ in range(6):  # to this seat's discard: eleven cards
        wait_turn(page)
        if page.evaluate("() => window.rummykit.state.msg.view.hand.phase") == "discard":
            break
        pass_ = page.get_by_role("button", name="Pass")
        act(
            page,
            pass_ if pass_.is_visible() else page.get_by_role("button", name=re.compile("^Stock")),
        )
    expect(hand(page).get_by_role("button")).to_have_count(11)
    rows = page.evaluate(
        "() => new Set([...document.querySelectorAll('#hand .card')]"
        ".map((b) => Math.round(b.offsetTop))).size"
    )
    assert rows == 1
    covered = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card')].filter((b) => {
          const next = b.nextElementSibling;
          if (!next) return false;
          const corner = b.querySelector('.corner').getBoundingClientRect();
          const n = next.getBoundingClientRect();
          return Math.abs(n.top - b.getBoundingClientRect().top) < 10 && corner.right > n.left + 0.5;
        }).map((b) => b.dataset.card)"""
    )
    shot(page, "phone-320-hand-faces")
    assert covered == []
