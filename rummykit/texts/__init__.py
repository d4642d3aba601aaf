"""Everything rummykit says, one catalogue a language: ``texts/en.json`` and ``texts/vi.json``.

Each file has the same sections, each a map from key to wording (``{name}`` marks a parameter):

- ``page``: the web page's words (a count's plural forms as ``{"one": ..., "other": ...}``);
  the server sends the page this section alone (``/i18n/<lang>.json``).
- ``hints``: the phrases of a hint, namespaced by game (``gin.highest``), see
  :mod:`rummykit.players.reasons`.
- ``terminal``: what ``rummykit play``, ``review`` and ``serve`` print, see
  :mod:`rummykit.terminal_text`.
- ``cli``: the result lines ``rummykit replay`` and ``demo`` print (:mod:`rummykit.cli.results`),
  in English so far; their outcome words are the terminal's (``outcome.big_gin``).

The CLI's help texts and the reports of ``replay``, ``demo`` and ``sim`` (tables, narration) stay
in its code, in English: tables of figures for developers, read with the code that fills them.

Read with the standard library only: the engine's hints use it. The tests check that both
languages have the same keys in every section, with the same placeholders.

>>> text("vi", "hints", "highest")
'lá lẻ cao nhất'
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

__all__ = ["LANGUAGES", "SECTIONS", "Language", "Wording", "section", "text"]

Language: TypeAlias = Literal["en", "vi"]
LANGUAGES: Final[tuple[Language, ...]] = ("en", "vi")

SECTIONS: Final[tuple[str, ...]] = ("page", "hints", "terminal", "cli")
"""The sections of every catalogue, in file order."""

Wording: TypeAlias = "str | dict[str, str]"
"""A key's wording: a text, or (in ``page``) its plural forms by Intl.PluralRules category."""


@cache
def _catalogue(lang: Language) -> MappingProxyType[str, MappingProxyType[str, Wording]]:
    if lang not in LANGUAGES:
        raise ValueError(f"rummykit's words are in 'en' and 'vi', not {lang!r}")
    raw = files(__name__).joinpath(f"{lang}.json").read_text("utf-8")
    data: dict[str, dict[str, Wording]] = json.loads(raw)
    return MappingProxyType({name: MappingProxyType(data[name]) for name in SECTIONS})


def section(lang: Language, name: str) -> MappingProxyType[str, Wording]:
    """Section ``name`` of the ``lang`` catalogue, read once (KeyError for an unknown section,
    ValueError for a language other than ``en`` and ``vi``)."""
    return _catalogue(lang)[name]


def text(lang: Language, name: str, key: str) -> str:
    """The wording of ``key`` in section ``name`` of ``lang``, a plain text (KeyError naming the
    key when the section has no such text)."""
    value = section(lang, name).get(key)
    if not isinstance(value, str):
        raise KeyError(f"the {lang} catalogue has no {name} text {key!r}")
    return value
