"""The page: its static files (``rummykit/web``), served from ``/``, and its words, the ``page``
section of rummykit's catalogues (``/i18n/<lang>.json``), gzip-compressed by
:class:`PageCompression` (the API's answers never are)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from rummykit.texts import LANGUAGES, section

__all__ = ["COMPRESS_FROM", "WEB_DIR", "PageCompression", "page_words", "serve_page"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The page's static files (HTML, CSS, JavaScript modules, rules)."""

COMPRESS_FROM = 1024
"""Bytes from which the page's files are sent gzip-compressed (to browsers that accept it)."""


class PageCompression:
    """Gzip the page's own files, and nothing else.

    The page (HTML, CSS, JavaScript modules, catalogues) is about 170 KB and a third of that
    compressed: a phone on a slow link starts playing sooner. The API is left alone: its answers are
    small and carry seat tokens next to text the caller chose, which is what compression side
    channels (BREACH) feed on. WebSocket messages are compressed by the WebSocket layer itself.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_FROM, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith("/api/"):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


@cache
def page_words(lang: str) -> tuple[bytes, str]:
    """The ``page`` section of the ``lang`` catalogue as the page fetches it (JSON), and its ETag;
    KeyError for a language rummykit does not speak."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    body = json.dumps(dict(section(lang, "page")), ensure_ascii=False, separators=(",", ":"))
    data = body.encode("utf-8")
    return data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def serve_page(app: FastAPI, web_dir: Path | None = None) -> None:
    """Serve the page's words at ``/i18n/<lang>.json`` (:func:`page_words`: the page section alone,
    not the terminal's lines nor the hints, which the server words itself) and its files from
    ``/`` (from ``web_dir``, default :data:`WEB_DIR`), compressed; call after every other route
    (the page's mount takes whatever path is left).

    The words are revalidated as the files are (``Cache-Control: no-cache``, set by the app): an
    ETag answers a browser that has them already with a 304.
    """

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    def words(lang: str, request: Request) -> Response:
        try:
            data, etag = page_words(lang)
        except KeyError:
            raise HTTPException(status_code=404) from None
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers={"ETag": etag})
        return Response(data, media_type="application/json", headers={"ETag": etag})

    static = web_dir if web_dir is not None else WEB_DIR
    app.mount("/", StaticFiles(directory=static, html=True), name="web")
    app.add_middleware(PageCompression)
