"""What the server tells browsers, and which pages may open its sockets.

The page loads nothing from elsewhere (:data:`CSP`), asks for no power it does not use
(:data:`PERMISSIONS`), and a page of another site cannot open a seat's socket (:func:`same_site`):
it would act with the tokens its visitors keep for this server.
"""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["CSP", "PERMISSIONS", "normal_origin", "same_site"]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)
"""Everything comes from this server: no external font, image or script can load."""

PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), display-capture=()"
"""Powers the page never uses, refused to it and to anything that might get into it (sharing an
invitation and copying it stay allowed)."""


def normal_origin(text: str) -> str:
    """``scheme://host[:port]`` as browsers send it in ``Origin`` (lower case, no path)."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"an origin is http(s)://host[:port], not {text!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_site(origin: str | None, host: str | None, allowed: frozenset[str] = frozenset()) -> bool:
    """May a socket be opened by a page of ``origin`` (its ``Origin`` header) on a server
    reached as ``host`` (its ``Host`` header)? Yes with no ``Origin`` (not a browser: a program
    that holds a token anyway), for the server's own page (the same host and port), and for an
    origin in ``allowed``; no for any other site's page, which must not play with the tokens
    its visitors keep for this server.

    >>> same_site(None, "127.0.0.1:8000"), same_site("http://127.0.0.1:8000", "127.0.0.1:8000")
    (True, True)
    >>> same_site("https://evil.example", "192.168.1.5:8000"), same_site("null", "a:1")
    (False, False)
    >>> same_site("https://play.example", "10.0.0.2:8000", frozenset({"https://play.example"}))
    True
    """
    if origin is None:
        return True
    if origin.lower() in allowed:
        return True
    netloc = urlsplit(origin).netloc.lower()
    return bool(netloc) and netloc == (host or "").lower()
