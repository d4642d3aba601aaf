"""What ``rummykit play`` says, in English and Vietnamese: one catalogue keyed by message id
(``review`` and ``serve`` have their few lines here too).

Each message is a template with ``{placeholders}``; both languages use the same ones (the tests
check). They are the ``terminal`` section of rummykit's catalogues (:mod:`rummykit.texts`). The
Vietnamese wording uses the page's terms (its ``page`` section and the rules pages): *nọc*
(stock), *chồng bài bỏ* (discard pile), *bộ* (meld), *sảnh* (run), *bộ cùng số* (book), *bài
rác* (deadwood), *gõ* (knock), *ù Gin* (gin), *gửi bài* (lay off), *hạ bài* (lay down a
contract), *ván* (hand), *vòng* (Crazy Rummy's round), *trận* (match). A few lines
are the page's own, quoted as ``{page:KEY}`` (:data:`PAGE_KEYS`), so the two cannot drift apart.

Move notation (``discard KD``) and the commands ``hint``, ``help`` and ``quit`` are not
translated: they are what the person types back.

>>> say("vi", "pick_number", count=2)
'Hãy chọn một số từ 1 đến 2.'
>>> say("en", "cards", count=1), say("en", "cards", count=3), say("vi", "cards", count=3)
('1 card', '3 cards', '3 lá')
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Final

from rummykit.texts import LANGUAGES, Language, section, text

__all__ = [
    "COMMANDS",
    "LANGUAGES",
    "MESSAGES",
    "PAGE_KEYS",
    "Language",
    "default_language",
    "page_text",
    "parse_language",
    "say",
    "template",
]

MESSAGES: Final[Mapping[str, Mapping[Language, str]]] = {
    key: {lang: text(lang, "terminal", key) for lang in LANGUAGES}
    for key in section("en", "terminal")
}
"""Every message of the terminal game, by id, per language: the ``terminal`` section of the
catalogues (:mod:`rummykit.texts`). ``{page:KEY}`` stands for the page's own wording of ``KEY``
in the same language (a text, not a placeholder); a message whose id has a ``_many`` twin is the
singular of a count (see :func:`say`)."""

_PAGE_MARK: Final = re.compile(r"\{page:([\w.]+)\}")

PAGE_KEYS: Final[tuple[str, ...]] = tuple(
    sorted({key for m in MESSAGES.values() for t in m.values() for key in _PAGE_MARK.findall(t)})
)
"""The page's keys the terminal reuses (``{page:KEY}`` in :data:`MESSAGES`)."""

COMMANDS: Final[dict[str, tuple[str, ...]]] = {
    "quit": ("quit", "q", "exit", "thoát", "thoat"),
    "help": ("help", "?", "trợ giúp", "tro giup"),
    "hint": ("hint", "gợi ý", "goi y"),
    "review": ("review", "xem lại", "xem lai"),
    "undo": ("undo", "đi lại", "di lai"),
}
"""What the person may type for each command, in either language (lower case)."""


def page_text(lang: Language, key: str) -> str:
    """The page's wording of ``key`` (one of :data:`PAGE_KEYS`) in ``lang``."""
    if key not in PAGE_KEYS:
        raise KeyError(f"{key!r} is not one of the page's texts the terminal uses")
    return text(lang, "page", key)


def template(lang: Language, message: str) -> str:
    """The template of ``message`` in ``lang``, with the page's texts it quotes filled in."""
    return _PAGE_MARK.sub(lambda m: page_text(lang, m[1]), MESSAGES[message][lang])


def say(lang: Language, message: str, **params: object) -> str:
    """``message`` in ``lang`` with its placeholders filled in.

    With a ``count`` parameter other than 1 and a ``{message}_many`` twin, the twin is used.
    Raises KeyError for an unknown message id or a missing parameter.
    """
    if message not in MESSAGES:
        raise KeyError(f"no terminal message {message!r}")
    many = f"{message}_many"
    if params.get("count", 1) != 1 and many in MESSAGES:
        message = many
    return template(lang, message).format(**params)


def parse_language(value: str) -> Language:
    """``en`` or ``vi`` (any case, spaces around ignored); ValueError naming both otherwise."""
    lang = value.strip().lower()
    for known in LANGUAGES:
        if lang == known:
            return known
    raise ValueError(f"unknown language {value!r} (en or vi)")


def default_language(environ: Mapping[str, str] | None = None) -> Language:
    """``vi`` when the locale (the first set of LC_ALL, LC_MESSAGES, LANG) starts with ``vi``,
    else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "vi" if value.lower().startswith("vi") else "en"
    return "en"
