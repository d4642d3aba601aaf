"""The page: its static files (``rummykit/web``), served from ``/``, gzip-compressed by
:class:`PageCompression` (the API's answers never are)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["COMPRESS_FROM", "WEB_DIR", "PageCompression", "serve_page"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The page's static files (HTML, CSS, JavaScript modules, catalogues, rules)."""

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


def serve_page(app: FastAPI, web_dir: Path | None = None) -> None:
    """Serve the page's files from ``/`` (from ``web_dir``, default :data:`WEB_DIR`), compressed;
    call after every other route (the page's mount takes whatever path is left)."""
    static = web_dir if web_dir is not None else WEB_DIR
    app.mount("/", StaticFiles(directory=static, html=True), name="web")
    app.add_middleware(PageCompression)
