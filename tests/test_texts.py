"""rummykit's catalogues (``rummykit/texts``): in both languages the same sections, the same keys
and the same placeholders; every key the Python code names is there, and every key of the hints,
the terminal and the CLI is used (the page's keys: ``test_i18n.py``)."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from rummykit.actions import Knock
from rummykit.cards import Card
from rummykit.players.reasons import _ACTION_KEYS, Suggestion, because
from rummykit.texts import LANGUAGES, SECTIONS, section, text

PLACEHOLDER = re.compile(r"\{(\w+)\}")
PACKAGE = Path(__file__).resolve().parents[1] / "rummykit"
PYTHON = {path: path.read_text("utf-8") for path in PACKAGE.rglob("*.py")}
"""rummykit's Python sources, where the keys of the hints, the terminal and the CLI are named."""


def raw(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        files("rummykit.texts").joinpath(f"{lang}.json").read_text("utf-8")
    )
    return data


def forms(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def placeholders(value: Any) -> list[str]:
    """Every placeholder of a wording, over its plural forms (sorted, each once a form)."""
    return sorted({p for form in forms(value) for p in PLACEHOLDER.findall(form)})


def test_both_languages_have_the_same_sections_and_keys() -> None:
    en, vi = raw("en"), raw("vi")
    assert list(en) == list(vi) == list(SECTIONS)
    for name in SECTIONS:
        assert sorted(set(vi[name]) - set(en[name])) == [], name
        assert sorted(set(en[name]) - set(vi[name])) == [], name
        assert list(en[name]) == list(vi[name]), f"{name}: keep the keys in the same order"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", SECTIONS)
def test_every_wording_is_text_or_the_page_s_plural_forms(lang: str, name: str) -> None:
    for key, value in raw(lang)[name].items():
        for form in forms(value):
            assert isinstance(form, str) and form.strip(), key
        if isinstance(value, dict):
            assert name == "page", f"{name}.{key}: only the page picks plural forms itself"
            assert "other" in value and set(value) <= {"zero", "one", "two", "few", "many", "other"}


@pytest.mark.parametrize("name", SECTIONS)
def test_placeholders_match_across_languages(name: str) -> None:
    en, vi = raw("en")[name], raw("vi")[name]
    for key in en:
        assert placeholders(vi[key]) == placeholders(en[key]), f"{name}.{key}"
        for form in forms(en[key]) + forms(vi[key]):  # a placeholder's braces are whole
            assert form.count("{") == form.count("}"), f"{name}.{key}"


def test_every_hint_phrase_is_translated() -> None:
    en = section("en", "hints")
    assert len(en) > 30
    for key in en:
        assert text("en", "hints", key) != text("vi", "hints", key), key


def test_the_loader_names_what_is_missing() -> None:
    assert text("vi", "terminal", "stopped") == "Đã dừng."
    with pytest.raises(KeyError, match=r"no hints text 'no\.such'"):
        text("vi", "hints", "no.such")
    with pytest.raises(KeyError, match=r"no page text 'start\.opponents_n'"):
        text("en", "page", "start.opponents_n")  # plural forms, not a plain text
    with pytest.raises(ValueError, match="'en' and 'vi', not 'fr'"):
        section("fr", "page")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        section("en", "hints")["x"] = "y"  # type: ignore[index]


def test_a_hint_reads_in_both_languages_and_a_missing_phrase_is_named() -> None:
    hint = Suggestion(Knock(Card.parse("TD")), because("gin.knock_risk", count=6, risk=12))
    assert hint.text("en") == "knock, throwing 10♦: 6 deadwood, undercut risk about 12%"
    assert hint.text("vi") == "gõ, bỏ 10♦: 6 điểm bài rác, nguy cơ bị bắt ngược khoảng 12%"
    data = hint.to_dict()
    assert data["action"] == "knock TD" and data["reason"][0]["params"] == {"count": 6, "risk": 12}
    with pytest.raises(KeyError, match=r"no\.such"):
        because("no.such").text("vi")
    with pytest.raises(ValueError, match="'en' and 'vi', not 'fr'"):
        hint.text("fr")  # type: ignore[arg-type]


# ---------------------------------------------------------------- keys named in the code

CALLS = {
    "hints": re.compile(r"""\b(?:because|also|_text)\(\s*["']([\w.]+)["']\s*[,)]"""),
    "terminal": re.compile(
        r"""\b_?say\(\s*(?:["'](?:en|vi)["'],\s*|[\w.]+,\s*)?["'](?!(?:en|vi)["'])([\w.]+)["']\s*[,)]"""
    ),
    "cli": re.compile(r"""\b_line\(\s*["']([\w.]+)["']\s*[,)]"""),
}
"""Per section, the calls that name a key of it in the code: ``because("gin.highest")``,
``say("vi", "stopped")``, ``_line("result.table")``."""

FAMILIES = {
    "hints": re.compile(
        r"crazy\.(?:need|left)_(?:one|many)|review\.level\.\w+|review\.(?:as_good|different)"
    ),
    "terminal": re.compile(r"\w+_many|(?:contract|game|outcome|level)\.\w+"),
    "cli": re.compile(r"result\.out_many"),
}
"""Per section, the keys the code builds at run time: hints' ``f"{key}_one"``,
``f"review.level.{level}"`` and a review's verdict; the terminal's plural twins of a count, a
contract's meld kinds, the games', the outcomes' and the levels' words."""


@pytest.mark.parametrize("name", ["hints", "terminal", "cli"])
def test_every_key_the_code_names_exists(name: str) -> None:
    named = {key for source in PYTHON.values() for key in CALLS[name].findall(source)}
    if name == "hints":
        named |= set(_ACTION_KEYS.values())
    assert len(named) > 10
    missing = sorted(k for k in named if k not in section("en", name))
    assert missing == []


@pytest.mark.parametrize("name", ["hints", "terminal", "cli"])
def test_every_key_is_used(name: str) -> None:
    sources = "\n".join(PYTHON.values())
    unused = [
        key
        for key in section("en", name)
        if f'"{key}"' not in sources
        and f"'{key}'" not in sources
        and not FAMILIES[name].fullmatch(key)
    ]
    assert unused == []
