"""A Griffe extension for the API pages (mkdocs.yml loads it): docstrings are written for
``help()`` and doctest, so before Markdown reads them each doctest block (``>>>`` lines and
their output, up to a blank line) is fenced as a Python console session, Sphinx roles
(``:func:`find_game```) become plain code, and a paragraph ending ``::`` before an indented
block (reStructuredText's mark of a literal block, which Markdown reads as code anyway) ends
with one colon."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|data|meth|attr|mod|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    r"""``text`` with each doctest block fenced, Sphinx roles as code and ``::`` as ``:``.

    >>> fence_doctests("See :func:`f`.\n\n>>> 1 + 1\n2\n\nAfter.").split("\n")
    ['See `f`.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'After.']
    >>> fence_doctests("A record::\n\n    {}")
    'A record:\n\n    {}'
    """
    out: list[str] = []
    fenced = in_block = False
    for line in ROLE.sub(r"`\1`", text).split("\n"):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        elif not fenced and not in_block and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_block = True
        elif in_block and not stripped:
            out.append(f"{indent}```")
            in_block = False
        out.append(line[:-1] if not fenced and line.endswith("::") else line)
    if in_block:
        out.append(f"{indent}```")
    return "\n".join(out)


class FenceDoctests(griffe.Extension):
    """Fences the doctests of every docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
