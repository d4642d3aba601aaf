"""The page's words (the ``page`` section of ``rummykit/texts``, served at ``/i18n/<lang>.json``):
every key the page uses present, and nothing but that section sent; the rules of every game in
both languages. The catalogues' keys and placeholders: ``test_texts.py``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from rummykit.games import find_game
from rummykit.server.catalogue import MAIN_OPTIONS
from rummykit.server.page import WEB_DIR, serve_page
from rummykit.server.protocol import PHRASES
from rummykit.texts import section

pytestmark = pytest.mark.server

LANGUAGES = ("vi", "en")


def catalogue(lang: str) -> dict[str, Any]:
    return dict(section(lang, "page"))  # type: ignore[arg-type]


def test_the_page_gets_its_section_alone_revalidated_with_an_etag() -> None:
    app = FastAPI()
    serve_page(app)
    with TestClient(app) as client:
        for lang in LANGUAGES:
            answer = client.get(f"/i18n/{lang}.json", headers={"Accept-Encoding": "gzip"})
            assert answer.status_code == 200 and answer.json() == catalogue(lang)
            assert answer.headers["content-type"].startswith("application/json")
            assert answer.headers["content-encoding"] == "gzip"  # as the page's files are
            words = answer.json()  # not the terminal's lines, nor the hints (the server words them)
            assert "hint.prefix" in words and "serve_in_clear" not in words
            assert "highest_loose" not in words and "act.discard" not in words
            etag = answer.headers["etag"]
            again = client.get(f"/i18n/{lang}.json", headers={"If-None-Match": etag})
            assert again.status_code == 304 and again.content == b""
        en, vi = (client.get(f"/i18n/{lang}.json").headers["etag"] for lang in ("en", "vi"))
        assert en != vi
        assert client.get("/i18n/fr.json").status_code == 404
        assert client.get("/i18n/en.json", headers={"If-None-Match": vi}).status_code == 200


def _used_keys() -> set[str]:
    used: set[str] = set()
    html = (WEB_DIR / "index.html").read_text("utf-8")
    used |= set(re.findall(r'data-i18n(?:-label|-title)?="([^"]+)"', html))
    for path in (WEB_DIR / "js").glob("*.js"):
        text = path.read_text("utf-8")
        used |= set(re.findall(r'\bt\(\s*"([\w.?-]+)"', text))
        for a, b in re.findall(r'"([\w.]+)" : "([\w.]+)"', text):
            if "." in a and "." in b:
                used |= {a, b}
    return used


def test_every_key_the_page_uses_exists() -> None:
    en = catalogue("en")
    missing = sorted(k for k in _used_keys() if k not in en)
    assert missing == []


def test_every_key_of_the_page_is_used() -> None:
    """Each key is named whole in the page's HTML or JavaScript, or starts like a key the page
    builds (`` `opt.${name}` ``): a key no code asks for is gone from the catalogues."""
    code = "\n".join(
        path.read_text("utf-8") for path in [WEB_DIR / "index.html", *(WEB_DIR / "js").glob("*.js")]
    )
    built = {p for p in re.findall(r"`([a-z_.]+)\$\{", code) if p.endswith((".", "_"))}
    assert {"opt.", "rank.", "say."} <= built
    unused = [
        key
        for key in catalogue("en")
        if f'"{key}"' not in code
        and f"'{key}'" not in code
        and not any(key.startswith(prefix) for prefix in built)
    ]
    assert unused == []


def test_keys_built_at_run_time_exist() -> None:
    en = catalogue("en")
    families = {
        "rank": "A 2 3 4 5 6 7 8 9 T J Q K",
        "suit": "C D H S",
        "level": "random easy medium hard",
        "game": "gin rummy crazy",
        "preset": "rummy rummy-classic",
        "error": "bad_message stale not_your_turn illegal auth unknown_table over too_fast server not_over",
        "review.verdict": "same as_good different",
        "intro.gin": "1 2 3 4",
        "intro.rummy": "1 2 3 4",
        "intro.crazy": "1 2 3 4",
        "conn": "connecting open reconnecting replaced",
        "name.why": "text hidden long blank accents reserved dot",
        "result.gin": "knock undercut gin big_gin cancelled",
    }
    for prefix, names in families.items():
        for name in names.split():
            assert f"{prefix}.{name}" in en, f"{prefix}.{name}"
    for game in families["game"].split():
        assert f"game.{game}.about" in en and f"game.{game}.summary" in en
    for mode in ("suit", "rank", "melds", "custom"):  # the sort button names the hand's order
        assert f"hand.sort_{mode}" in en
    keys = [
        "arrows",
        "space",
        "enter",
        "d",
        "t",
        "p",
        "b",
        "k",
        "m",
        "l",
        "o",
        "a",
        "u",
        "h",
        "r",
        "s",
        "v",
    ]
    for key in [*keys, "n", "?"]:
        assert f"keys.{key}" in en and f"keys.{key}.key" in en


@pytest.mark.parametrize("game", ["gin", "rummy", "crazy"])
def test_every_house_rule_has_a_label_and_every_choice_a_name(game: str) -> None:
    # The house-rules form labels option NAME with opt.NAME and choice C with opt.NAME.C (the
    # main options, set on the start screen itself, have labels of their own).
    en = catalogue("en")
    for spec in type(find_game(game).options).SPECS:
        if spec.name in MAIN_OPTIONS[game]:
            continue
        assert f"opt.{spec.name}" in en, spec.name
        for choice in spec.choices:
            assert f"opt.{spec.name}.{choice}" in en, f"{spec.name}.{choice}"


@pytest.mark.parametrize("game", ["gin", "rummy", "crazy"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_of_every_game_in_both_languages(game: str, lang: str) -> None:
    path: Path = WEB_DIR / "rules" / f"{game}.{lang}.html"
    text = path.read_text("utf-8")
    assert text.count("<h3>") >= 4
    assert "<script" not in text and "http" not in text


def test_every_phrase_a_person_may_say_is_worded_and_the_page_offers_exactly_those() -> None:
    en, vi = catalogue("en"), catalogue("vi")
    for phrase in PHRASES:
        assert f"say.{phrase}" in en and f"say.{phrase}" in vi, phrase
    actions = (WEB_DIR / "js" / "actions.js").read_text("utf-8")
    listed = re.search(r"const PHRASES = \[([^\]]*)\]", actions)
    assert listed is not None
    assert re.findall(r'"(\w+)"', listed.group(1)) == list(PHRASES)
