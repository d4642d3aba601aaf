"""A real ``rummykit serve`` in a subprocess on 127.0.0.1, for tests that need one.

The server is started on port 0: it binds a free port itself and prints the address it serves,
which is read from its log. No port is picked ahead and released (another process, such as a
second test run beside this one, could take it in between and answer for it). A restart asks for
the same port again, so that pages open on the old one reconnect; if that port is taken, the
server exits and ``start`` says so instead of talking to someone else's server.

With a certificate and its key (:func:`self_signed` makes one for 127.0.0.1) the server speaks
HTTPS and WSS, and the helpers here trust that certificate.
"""

from __future__ import annotations

import json
import re
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVED = re.compile(r"open https?://127\.0\.0\.1:(\d+)/")


def self_signed(folder: Path, timeout: float = 60) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, good for two days, and its key
    (unencrypted), made by openssl in ``folder``: ``(cert.pem, key.pem)``."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    args = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost"]
    args += ["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]
    subprocess.run(
        ["/usr/bin/openssl", *args, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=timeout,
    )
    return cert, key


@dataclass
class LiveServer:
    """``rummykit serve`` on its own SQLite file (or a PostgreSQL address, with ``log`` the file
    of its output), with ``workers`` processes; ``restart(kill=True)`` kills it first."""

    db: Path | str
    delay: float = 0.05
    port: int = 0  # 0 until the first start; then the port it serves, kept across restarts
    proc: subprocess.Popen[bytes] | None = None
    log: Path = None  # type: ignore[assignment]  # (set by __post_init__ for a SQLite file)
    workers: int = 1
    tables_per_minute: int = 0
    """New tables a minute from one address: none by default (the browser suite makes many
    from 127.0.0.1); a test of the limit gives one."""
    give_seat_after: float = 0.0
    """Seconds before a person's seat may be given to the computer: none by default (the
    browser suite gives a seat at once); a test of the wait gives one."""
    allow_origin: str | None = None
    """Another site allowed to open sockets (``--allow-origin``)."""
    host: str | None = None
    """The address to listen on (``--host``; the server's own default, 127.0.0.1, if None). It
    is always reached at 127.0.0.1 (``0.0.0.0`` serves loopback too)."""
    certfile: Path | None = None
    keyfile: Path | None = None
    """A certificate and its key (``--certfile``, ``--keyfile``): HTTPS and WSS."""

    def __post_init__(self) -> None:
        if self.log is None:
            assert isinstance(self.db, Path), "give a log file with a PostgreSQL address"
            self.log = self.db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/"

    @property
    def scheme(self) -> str:
        return "http" if self.certfile is None else "https"

    def ssl_context(self) -> ssl.SSLContext | None:
        """A client's TLS context that trusts the server's certificate (None without TLS)."""
        if self.certfile is None:
            return None
        return ssl.create_default_context(cafile=str(self.certfile))

    def start(self, timeout: float = 20) -> None:
        exe = str(Path(sys.executable).parent / "rummykit")
        args = ["serve", "--port", str(self.port), "--db", str(self.db), "--delay", str(self.delay)]
        args += ["--workers", str(self.workers), "--tables-per-minute", str(self.tables_per_minute)]
        args += ["--give-seat-after", str(self.give_seat_after)]
        if self.allow_origin is not None:
            args += ["--allow-origin", self.allow_origin]
        if self.host is not None:
            args += ["--host", self.host]
        if self.certfile is not None:
            args += ["--certfile", str(self.certfile)]
        if self.keyfile is not None:
            args += ["--keyfile", str(self.keyfile)]
        offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen([exe, *args], stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        port = 0
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"rummykit serve exited ({self.proc.returncode}):\n{self._log(offset)}"
                )
            if not port and (found := SERVED.search(self._log(offset))):
                port = int(found[1])
            if port and self._answers(port):
                self.port = port
                return
            time.sleep(0.05)
        self.stop(kill=True)
        raise AssertionError(f"rummykit serve did not start in {timeout} s:\n{self._log(offset)}")

    def stop(self, *, kill: bool = False) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def restart(self, *, kill: bool = True) -> None:
        self.stop(kill=kill)
        self.start()

    def games(self) -> list[str]:
        """The keys of the games the server offers."""
        context = self.ssl_context()
        with urllib.request.urlopen(f"{self.url}api/games", timeout=5, context=context) as response:
            data: dict[str, Any] = json.loads(response.read())
        return [g["key"] for g in data["games"]]

    def _log(self, offset: int) -> str:
        with self.log.open("rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def _answers(self, port: int) -> bool:
        url = f"{self.scheme}://127.0.0.1:{port}/api/games"
        try:
            with urllib.request.urlopen(url, timeout=1, context=self.ssl_context()):
                return True
        except OSError:
            return False
