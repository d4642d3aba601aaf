"""The server side of the load benchmark (``bench/load.py``): a ``rummykit serve`` of its own on
loopback (started, watched, stopped), or the check that a given ``--url`` is on loopback."""

from __future__ import annotations

import contextlib
import ctypes
import ipaddress
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVED = re.compile(r"open http://127\.0\.0\.1:(\d+)/")
"""The line ``rummykit serve`` prints once it listens."""


# ----------------------------------------------------------------------------- the server side


def loopback_base(url: str) -> str:
    """``http://HOST:PORT`` of a server on loopback; ValueError for any other address.

    >>> loopback_base("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    >>> loopback_base("http://[::1]:8000")
    'http://[::1]:8000'
    >>> loopback_base("http://192.168.1.20:8000/")
    Traceback (most recent call last):
    ...
    ValueError: 192.168.1.20 is not a loopback address (127.0.0.0/8, localhost or ::1)
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"give the server as http://127.0.0.1:PORT/, not {url!r}")
    host = parts.hostname
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad port in {url!r}") from None
    if host == "localhost":
        try:
            infos = socket.getaddrinfo(host, port or 80, proto=socket.IPPROTO_TCP)
        except OSError as exc:
            raise ValueError(f"localhost does not resolve: {exc}") from None
        addresses = {info[4][0] for info in infos}
        if not addresses or not all(ipaddress.ip_address(a).is_loopback for a in addresses):
            raise ValueError(f"localhost resolves to {sorted(addresses)}, not only loopback")
    else:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            address = None
        if address is None or not address.is_loopback:
            raise ValueError(f"{host} is not a loopback address (127.0.0.0/8, localhost or ::1)")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return f"{parts.scheme}://{netloc}"


def _die_with_parent() -> None:
    """SIGTERM to this process when its parent dies (Linux): the server and the workers do not
    outlive the script, even one killed with SIGKILL."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Server:
    """``rummykit serve`` on 127.0.0.1, port 0, its own SQLite file, in a subprocess."""

    folder: Path
    delay: float
    src: Path | None = None
    """Another source tree to run the server from (its ``rummykit`` package), or None."""
    workers: int = 1
    """Server processes (``rummykit serve --workers``)."""
    proc: subprocess.Popen[bytes] | None = None
    port: int = 0

    @property
    def log(self) -> Path:
        return self.folder / "serve.log"

    def start(self, deadline: float) -> None:
        exe = Path(sys.executable).parent / "rummykit"
        # Every table is created from 127.0.0.1: no limit of new tables a minute per address
        # (an older server, run from --src, ignores the setting).
        env = {**os.environ, "RUMMYKIT_TABLES_PER_MINUTE": "0"}
        if self.src is not None or not exe.exists():
            command = [sys.executable, "-m", "rummykit"]
            if self.src is not None:
                env["PYTHONPATH"] = str(self.src)
        else:
            command = [str(exe)]
        command += ["serve", "--host", "127.0.0.1", "--port", "0"]
        command += ["--db", str(self.folder / "tables.sqlite3"), "--delay", str(self.delay)]
        if self.workers > 1:
            command += ["--workers", str(self.workers)]
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env=env,
                preexec_fn=_die_with_parent,
            )
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"rummykit serve exited ({self.proc.returncode}):\n{self.text()}"
                )
            found = SERVED.search(self.text())
            if found and _answers(f"http://127.0.0.1:{found[1]}"):
                self.port = int(found[1])
                return
            time.sleep(0.05)
        raise RuntimeError(f"rummykit serve did not start in time:\n{self.text()}")

    def text(self) -> str:
        return self.log.read_bytes().decode(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def cpu_seconds(self) -> float | None:
        """User + system CPU seconds so far of the server's process and the processes it
        started (its computer players' worker processes)."""
        if not self.alive():
            return None
        assert self.proc is not None
        stats: dict[int, tuple[int, float]] = {}  # pid -> (parent, CPU seconds)
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks = int(fields[11]) + int(fields[12])
            stats[int(entry.name)] = (int(fields[1]), ticks / os.sysconf("SC_CLK_TCK"))
        if self.proc.pid not in stats:
            return None
        family, total = {self.proc.pid}, 0.0
        grew = True
        while grew:
            grew = False
            for pid, (parent, _) in stats.items():
                if parent in family and pid not in family:
                    family.add(pid)
                    grew = True
        for pid in family:
            total += stats[pid][1]
        return total

    def memory_kb(self, key: str) -> int | None:
        """``VmRSS`` or ``VmHWM`` of the server's process, in kB."""
        if not self.alive():
            return None
        assert self.proc is not None
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return None
        found = re.search(rf"^{key}:\s+(\d+) kB", status, re.M)
        return int(found[1]) if found else None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 4 seconds."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(4)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def log_errors(self) -> list[str]:
        """The lines of the server's log that report an error."""
        lines = self.text().splitlines()
        return [ln for ln in lines if re.search(r"Traceback|ERROR|Exception|Error:", ln)]


def _answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/games", timeout=1):
            return True
    except OSError:
        return False


def watch_server(
    server: Server | None, window: tuple[float, float], problems: list[str]
) -> dict[str, Any]:
    """Wait out the measured window; the server's CPU time over it and its peak memory (None
    for a server this script did not start)."""
    figures: dict[str, Any] = {"server_cpu_s": None, "server_cpu_pct": None, "server_rss_mb": None}
    time.sleep(max(0.0, window[0] - time.monotonic()))
    before = server.cpu_seconds() if server is not None else None
    rss_seen = 0
    while time.monotonic() < window[1]:
        if server is not None:
            rss_seen = max(rss_seen, server.memory_kb("VmRSS") or 0)
            if not server.alive():
                problems.append("the server exited during the run")
                break
        time.sleep(min(0.5, max(0.0, window[1] - time.monotonic())))
    if server is None:
        return figures
    after = server.cpu_seconds()
    if before is not None and after is not None:
        figures["server_cpu_s"] = round(after - before, 2)
        figures["server_cpu_pct"] = round(100 * (after - before) / (window[1] - window[0]), 1)
    peak = max(server.memory_kb("VmHWM") or 0, rss_seen)
    figures["server_rss_mb"] = round(peak / 1024, 1) if peak else None
    return figures
