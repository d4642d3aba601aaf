"""The cache limit and the helper that stores into a bounded cache."""

from __future__ import annotations

from typing import Final, TypeVar

_CACHE_LIMIT: Final = 50_000  # entries per cache; a full cache starts again empty

_K = TypeVar("_K")
_V = TypeVar("_V")


def _remember(cache: dict[_K, _V], key: _K, value: _V) -> _V:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value
