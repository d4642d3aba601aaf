"""Debian's HAProxy for the tests, run with the shipped ``deploy/haproxy.cfg`` on 127.0.0.1.

``HAProxy(servers, folder).start()`` listens on a free port in front of the given
``host:port`` servers (the config names three) and answers ``stats()`` from its stats socket.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

CONFIG = Path(__file__).resolve().parent.parent / "deploy" / "haproxy.cfg"


def haproxy_path() -> str | None:
    """HAProxy's program, or None if it is not installed."""
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HAProxy:
    def __init__(self, servers: list[str], folder: Path) -> None:
        assert len(servers) == 3, "deploy/haproxy.cfg names three servers"
        self.servers = servers
        self.folder = folder
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.stats_path = folder / "haproxy.sock"

    def start(self) -> None:
        program = haproxy_path()
        assert program is not None, "HAProxy is missing (apt-get install haproxy)"
        for _ in range(5):  # a port taken between choosing and binding it: another one
            self.port = _free_port()
            env = {
                **os.environ,
                "RUMMYKIT_LISTEN": f"127.0.0.1:{self.port}",
                "RUMMYKIT_STATS": str(self.stats_path),
                **{f"RUMMYKIT_APP{i + 1}": address for i, address in enumerate(self.servers)},
            }
            log = (self.folder / "haproxy.log").open("ab")
            self.proc = subprocess.Popen(
                [program, "-db", "-f", str(CONFIG)], env=env, stdout=log, stderr=log
            )
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    return
                except OSError:
                    time.sleep(0.05)
            self.stop()
        raise AssertionError(f"HAProxy did not start: {(self.folder / 'haproxy.log').read_text()}")

    def stats(self) -> dict[str, dict[str, str]]:
        """Per server of the backend (``app1``...): its row of ``show stat`` (``scur``: sockets
        and requests it serves now, ``status``: UP or DOWN)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(str(self.stats_path))
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
        return {
            r["svname"]: r
            for r in rows
            if r.get("pxname") == "servers" and r["svname"].startswith("app")
        }

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
