"""Rules options as validated data: the checks of one option, its spec (the single source
of the page's house rules and of ``GET /api/games``), and reprs that evaluate back to the options."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Literal, Protocol, Self, cast

__all__ = [
    "OptionSpec",
    "OptionsLike",
    "RulesOptions",
    "SameRules",
    "as_written",
    "check_option",
    "check_options",
    "option_repr",
    "options_repr",
]


def check_option(
    name: str, value: object, low: int, high: int, *, none: str | None = None, note: str = ""
) -> None:
    """Raise ValueError naming option ``name`` unless ``value`` is a whole number from ``low`` to
    ``high``, or None when ``none`` names what None means (``"unlimited"``, ``"unset"``).

    Every numeric option has an upper bound, so that no table can be made too big to play or to
    replay from its record.

    >>> check_option("jokers", 5, 0, 4, note="at most 2 a pack")
    Traceback (most recent call last):
    ValueError: option jokers must be a whole number from 0 to 4 (at most 2 a pack), not 5
    >>> check_option("max_restocks", None, 0, 100, none="unlimited")
    """
    if value is None and none is not None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        allowed = f"a whole number from {low} to {high}"
        if none is not None:
            allowed += f" or {none}"
        if note:
            allowed += f" ({note})"
        raise ValueError(f"option {name} must be {allowed}, not {as_written(value)}")


def as_written(value: object) -> str:
    """``value`` as a record or a command line writes it: JSON (``null``, ``true``, ``"deal"``,
    ``NaN``), or Python's repr for what JSON cannot hold.

    >>> as_written(None), as_written(True), as_written("deal"), as_written(float("nan"))
    ('null', 'true', '"deal"', 'NaN')
    """
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """The values one named rules option takes: the single source of its checks, of the web app's
    house-rules form and of ``GET /api/games``.

    ``kind`` is ``"bool"``, ``"int"`` (a whole number from ``low`` to ``high``, or None when
    ``none`` names what None means, e.g. ``"unlimited"``) or ``"choice"`` (one of ``choices``).

    >>> spec = OptionSpec("restock", "choice", choices=("turn_over", "shuffle"))
    >>> spec.check("shuffle")
    >>> spec.check("deal")
    Traceback (most recent call last):
    ValueError: option restock must be "turn_over" or "shuffle", not "deal"
    >>> OptionSpec("rummy_bonus", "bool").check(1)
    Traceback (most recent call last):
    ValueError: option rummy_bonus must be true or false, not 1
    """

    name: str
    kind: Literal["bool", "int", "choice"]
    low: int = 0
    high: int = 0
    none: str | None = None
    choices: tuple[str, ...] = ()
    note: str = ""

    def check(self, value: object) -> None:
        """Raise ValueError, naming the option and what it takes, unless ``value`` fits."""
        if self.kind == "int":
            check_option(self.name, value, self.low, self.high, none=self.none, note=self.note)
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(
                    f"option {self.name} must be true or false, not {as_written(value)}"
                )
        elif value not in self.choices:  # a StrEnum member equals its value
            allowed = " or ".join(as_written(c) for c in self.choices)
            raise ValueError(f"option {self.name} must be {allowed}, not {as_written(value)}")

    def to_dict(self) -> dict[str, Any]:
        """As JSON data: ``name``, ``kind`` and, as they apply, ``low``/``high``/``none`` or
        ``choices``."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.kind == "int":
            out.update(low=self.low, high=self.high, none=self.none)
        elif self.kind == "choice":
            out["choices"] = list(self.choices)
        return out


def check_options(options: Any, specs: Sequence[OptionSpec]) -> None:
    """Check every field of an options object against its spec (ValueError for the first bad
    one)."""
    for spec in specs:
        spec.check(getattr(options, spec.name))


class RulesOptions:
    """What every game's options dataclass shares: checked on creation (each field against its
    spec in ``SPECS``, choices made members of their enum), a repr that evaluates back, and
    JSON data both ways, None written as the spec names it (``"unlimited"``).

    A subclass is a frozen dataclass made with ``repr=False`` (the repr is this one)."""

    __slots__ = ()
    SPECS: ClassVar[tuple[OptionSpec, ...]]
    TITLE: ClassVar[str]
    """The game's name in messages ("unknown Gin option(s): ...")."""
    CHOICES: ClassVar[Mapping[str, type[StrEnum]]] = {}
    """The enum of each choice option."""

    def __post_init__(self) -> None:
        check_options(self, self.SPECS)
        for name, kind in self.CHOICES.items():
            object.__setattr__(self, name, kind(getattr(self, name)))

    def __repr__(self) -> str:
        return options_repr(self)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON data."""
        data: dict[str, Any] = {}
        for spec in self.SPECS:
            value = getattr(self, spec.name)
            if isinstance(value, StrEnum):
                value = value.value
            elif value is None:
                value = spec.none
            data[spec.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: Self | None = None) -> Self:
        """Options from JSON data on top of ``base`` (default: the defaults); an unknown name
        or a bad value raises ValueError."""
        if not isinstance(data, Mapping):
            raise ValueError("options must be an object of name: value")
        known = {spec.name for spec in cls.SPECS}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown {cls.TITLE} option(s): {', '.join(unknown)}"
                f" (known: {', '.join(sorted(known))})"
            )
        values = dict(data)
        for spec in cls.SPECS:
            if spec.none is not None and values.get(spec.name) == spec.none:
                values[spec.name] = None
        start: Any = base if base is not None else cls()
        return cast(Self, dataclasses.replace(start, **values))


class SameRules:
    """Games are equal when they are the same game under equal options (``Gin() == Gin()``), so
    that states and matches of equal games compare equal too."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(cast(Any, other).options == cast(Any, self).options)

    def __hash__(self) -> int:
        return hash((type(self), cast(Any, self).options))


def option_repr(value: Any) -> str:
    """An option's value as Python that evaluates back to it: an enum as ``Enum.MEMBER``."""
    if isinstance(value, StrEnum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


def options_repr(options: Any, presets: Mapping[str, Any] | None = None) -> str:
    """Options as Python that evaluates back to equal options, naming only what differs from the
    defaults, or, for a game with presets, from the preset they differ least from:
    ``GinOptions(knock_limit=7)``, ``RummyOptions.preset('rummy-classic', restock_limit=2)``."""
    cls = type(options)

    def changes(base: Any) -> list[str]:
        return [
            f"{f.name}={option_repr(getattr(options, f.name))}"
            for f in dataclasses.fields(options)
            if getattr(options, f.name) != getattr(base, f.name)
        ]

    plain = changes(cls())
    if presets:
        name, base = min(presets.items(), key=lambda item: len(changes(item[1])))
        if base != cls() and len(changes(base)) < len(plain):
            return f"{cls.__name__}.preset({', '.join([repr(name), *changes(base)])})"
    return f"{cls.__name__}({', '.join(plain)})"


class OptionsLike(Protocol):
    """Every options object turns into JSON data, and lists its options' specs."""

    SPECS: ClassVar[tuple[OptionSpec, ...]]

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON data."""
        ...
