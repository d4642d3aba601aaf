"""``rummykit serve --certfile F --keyfile F``: a real server speaks HTTPS and WSS (and nothing in
clear), with one process or several; without TLS on an address other devices can reach, it says
at start what travels in clear and how to add TLS; the two options go together, and a file that
cannot serve is refused before anything listens.

Everything stays on loopback: a server bound to ``0.0.0.0`` is reached at 127.0.0.1 and stopped
as soon as it has printed its lines. The certificate is made by openssl for 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import re
import ssl
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer, self_signed
from typer.testing import CliRunner
from websockets.sync.client import connect

from rummykit.cli import app
from rummykit.terminal_text import Language, say

pytestmark = pytest.mark.server

runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "200"})


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key."""
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The servers started speak English whatever the machine's locale."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _running(server: LiveServer) -> Iterator[LiveServer]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _post(server: LiveServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{server.url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10, context=server.ssl_context()) as answer:
        assert answer.status == 201
        data: dict[str, Any] = json.loads(answer.read())
    return data


@pytest.mark.parametrize(("workers", "host"), [(1, None), (2, "0.0.0.0")])
def test_the_server_speaks_https_and_wss_and_nothing_in_clear(
    tmp_path: Path,
    certificate: tuple[Path, Path],
    english: None,
    workers: int,
    host: str | None,
) -> None:
    """The page, the API and a seat's socket over TLS; plain HTTP on the same port gets no
    answer, and a client that does not trust the certificate is turned away. With several
    processes each one serves TLS; on every address, with TLS, there is no warning."""
    cert, key = certificate
    server = LiveServer(
        db=tmp_path / "tls.sqlite3", workers=workers, host=host, certfile=cert, keyfile=key
    )
    for running in _running(server):
        log = running.log.read_text()
        assert re.search(rf"open https://127\.0\.0\.1:{running.port}/", log), log
        assert "http://" not in log and say("en", "serve_in_clear", port=running.port) not in log
        assert running.url.startswith("https://")
        assert (f"{workers} processes" in log) == (workers > 1), log
        assert "gin" in running.games()  # (over https, trusting the certificate)
        page = urllib.request.urlopen(running.url, timeout=10, context=running.ssl_context())
        with page:
            assert page.status == 200 and b"<html" in page.read()
        with pytest.raises((OSError, http.client.HTTPException)):
            urllib.request.urlopen(f"http://127.0.0.1:{running.port}/api/games", timeout=10)
        with pytest.raises(urllib.error.URLError) as untrusted:
            urllib.request.urlopen(
                f"{running.url}api/games", timeout=10, context=ssl.create_default_context()
            )
        assert isinstance(untrusted.value.reason, ssl.SSLCertVerificationError)
        # A table, and its seat's socket over WSS: hello is welcomed, then the view comes.
        for _ in range(workers):  # (with two processes, most likely one table on each)
            made = _post(running, "api/tables", {"game": "gin", "level": "easy"})
            url = f"wss://127.0.0.1:{running.port}/ws/{made['table']}/{made['seat']}"
            with connect(url, ssl=running.ssl_context(), open_timeout=10, proxy=None) as ws:
                ws.send(json.dumps({"t": "hello", "token": made["token"]}))
                assert json.loads(ws.recv(timeout=10))["t"] == "welcome"
                assert json.loads(ws.recv(timeout=10))["t"] == "view"


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_server_open_to_the_network_in_clear_says_what_that_means(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: Language
) -> None:
    """``--host 0.0.0.0`` without TLS: the warning (in the locale's language) names what
    travels in clear, who could read it, and both ways to add TLS."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "vi_VN.UTF-8" if lang == "vi" else "C.UTF-8")
    server = LiveServer(db=tmp_path / "clear.sqlite3", host="0.0.0.0")
    for running in _running(server):
        log = running.log.read_text()
    warning = say(lang, "serve_in_clear", port=server.port)
    assert warning in log, log
    assert re.search(rf"open http://127\.0\.0\.1:{server.port}/ here", log), log
    for words in ("Wi-Fi", "--certfile cert.pem --keyfile key.pem", "caddy reverse-proxy"):
        assert words in warning
    if lang == "en":
        for words in ("unencrypted", "seat tokens", "invitation links", "take a seat"):
            assert words in warning


def test_a_server_on_loopback_says_nothing_new(tmp_path: Path, english: None) -> None:
    server = LiveServer(db=tmp_path / "loopback.sqlite3")
    for running in _running(server):
        log = running.log.read_text()
    assert re.search(rf"^rummykit \S+: open http://127\.0\.0\.1:{server.port}/  \(", log), log
    assert "Warning" not in log and "unencrypted" not in log and "caddy" not in log


@pytest.fixture
def never_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``serve`` run through Typer's runner fails instead of serving (and never returning)
    should the options be taken."""

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server was started")

    monkeypatch.setattr("rummykit.server.app.create_app", started)


def _openssl(*args: str) -> None:
    subprocess.run(["/usr/bin/openssl", *args], check=True, capture_output=True, timeout=60)


@pytest.mark.parametrize(
    ("given", "missing"), [("--certfile", "--keyfile"), ("--keyfile", "--certfile")]
)
def test_the_certificate_and_its_key_go_together(
    certificate: tuple[Path, Path], never_serves: None, given: str, missing: str
) -> None:
    cert, key = certificate
    result = runner.invoke(app, ["serve", given, str(cert if given == "--certfile" else key)])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {missing}: not given; {given} needs it" in result.output
    assert "Traceback" not in result.output


def test_a_file_that_cannot_serve_is_refused_before_anything_listens(
    tmp_path: Path, certificate: tuple[Path, Path], never_serves: None
) -> None:
    """Each case names the option and what is wrong with which file, with no traceback."""
    cert, key = certificate
    other, locked = tmp_path / "other.pem", tmp_path / "locked.pem"
    _openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", str(other))
    _openssl("pkey", "-in", str(key), "-aes128", "-passout", "pass:secret", "-out", str(locked))
    missing = tmp_path / "nope.pem"
    cases = [
        (missing, key, "--certfile", f"cannot read {missing}: No such file or directory"),
        (cert, tmp_path, "--keyfile", f"cannot read {tmp_path}"),
        (key, key, "--certfile", f"{key} holds no certificate in PEM form"),
        (cert, cert, "--keyfile", f"{cert} holds no private key in PEM form"),
        (cert, other, "--keyfile", f"the key in {other} is not the key of the certificate"),
        (cert, locked, "--keyfile", f"the key in {locked} is locked by a passphrase"),
    ]
    for certfile, keyfile, option, words in cases:
        args = ["serve", "--port", "0", "--certfile", str(certfile), "--keyfile", str(keyfile)]
        result = runner.invoke(app, [*args, "--db", str(tmp_path / "never.sqlite3")])
        assert result.exit_code == 2, result.output
        output = " ".join(result.output.replace("│", " ").split())  # (the box's lines joined)
        assert f"Invalid value for {option}: {words}" in output, output
        assert "Traceback" not in result.output
