"""The page's message catalogues: the same keys and placeholders in Vietnamese and English, every
key the page uses present, and the rules of every game in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rummykit.games import find_game
from rummykit.server.catalogue import MAIN_OPTIONS
from rummykit.server.page import WEB_DIR
from rummykit.server.protocol import PHRASES

pytestmark = pytest.mark.server

LANGUAGES = ("vi", "en")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB_DIR / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def forms(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def test_both_languages_have_the_same_keys() -> None:
    vi, en = catalogue("vi"), catalogue("en")
    assert sorted(set(vi) - set(en)) == []
    assert sorted(set(en) - set(vi)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_are_text_or_plural_forms(lang: str) -> None:
    for key, value in catalogue(lang).items():
        for form in forms(value):
            assert isinstance(form, str) and form.strip(), key
        if isinstance(value, dict):
            assert "other" in value and set(value) <= {"zero", "one", "two", "few", "many", "other"}


def test_placeholders_match_across_languages() -> None:
    vi, en = catalogue("vi"), catalogue("en")
    for key in en:
        want = {p for f in forms(en[key]) for p in PLACEHOLDER.findall(f)}
        got = {p for f in forms(vi[key]) for p in PLACEHOLDER.findall(f)}
        assert got == want, key


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


# -------------------------------------------------------------- hint reasons (Python catalogue)


def test_every_hint_phrase_has_both_languages_with_the_same_placeholders() -> None:
    import rummykit.players  # noqa: F401  (every player module defines its phrases on import)
    from rummykit.players.reasons import CATALOGUE

    assert len(CATALOGUE) > 30
    for key, wording in CATALOGUE.items():
        assert set(wording) == {"en", "vi"}, key
        en, vi = wording["en"], wording["vi"]
        assert en.strip() and vi.strip() and en != vi, key
        assert sorted(PLACEHOLDER.findall(en)) == sorted(PLACEHOLDER.findall(vi)), key


def test_a_hint_reads_in_both_languages_and_a_missing_phrase_is_named() -> None:
    from rummykit.actions import Knock
    from rummykit.cards import Card
    from rummykit.players.reasons import Suggestion, because

    hint = Suggestion(Knock(Card.parse("TD")), because("gin.knock_risk", count=6, risk=12))
    assert hint.text("en") == "knock, throwing 10♦: 6 deadwood, undercut risk about 12%"
    assert hint.text("vi") == "gõ, bỏ 10♦: 6 điểm bài rác, nguy cơ bị bắt ngược khoảng 12%"
    data = hint.to_dict()
    assert data["action"] == "knock TD" and data["reason"][0]["params"] == {"count": 6, "risk": 12}
    with pytest.raises(KeyError, match=r"no\.such"):
        because("no.such").text("vi")
    with pytest.raises(ValueError, match="'en' and 'vi', not 'fr'"):
        hint.text("fr")  # type: ignore[arg-type]


def test_every_phrase_a_person_may_say_is_worded_and_the_page_offers_exactly_those() -> None:
    en, vi = catalogue("en"), catalogue("vi")
    for phrase in PHRASES:
        assert f"say.{phrase}" in en and f"say.{phrase}" in vi, phrase
    actions = (WEB_DIR / "js" / "actions.js").read_text("utf-8")
    listed = re.search(r"const PHRASES = \[([^\]]*)\]", actions)
    assert listed is not None
    assert re.findall(r'"(\w+)"', listed.group(1)) == list(PHRASES)
