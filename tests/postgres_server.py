"""A real PostgreSQL server for the tests: Debian's, started on 127.0.0.1 in a temporary folder.

``PostgresServer.start()`` runs ``initdb`` and ``pg_ctl start`` on a free port (trust
authentication for the user ``rummykit``, reachable from loopback only); ``database()`` creates a
fresh database and returns its address; ``stop()`` stops the server and removes the folder.
PostgreSQL refuses to run as root: as root, the folder is given to the ``postgres`` user and the
server runs as that user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "rummykit"


def pg_bin() -> Path | None:
    """The folder of Debian's PostgreSQL programs (the newest version), or None."""
    override = os.environ.get("RUMMYKIT_PG_BIN")
    if override:
        return Path(override) if (Path(override) / "initdb").exists() else None
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    def __init__(self) -> None:
        self.bin = pg_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is missing (apt-get install postgresql)")
        self.folder = Path(tempfile.mkdtemp(prefix="rummykit-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self._as: list[str] = []
        self._count = 0
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        assert self.bin is not None
        subprocess.run(
            [*self._as, str(self.bin / command[0]), *command[1:]],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8")
        for _ in range(5):  # a port taken between choosing and binding it: another one
            self.port = _free_port()
            options = (
                f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1"
                " -c max_connections=300 -c shared_buffers=32MB"
            )
            log = str(self.folder / "server.log")
            try:
                self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")
            except subprocess.CalledProcessError:
                continue
            return
        raise RuntimeError(f"PostgreSQL did not start: {self.log()}")

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def address(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new, empty database; its address."""
        import psycopg

        self._count += 1
        name = f"t{os.getpid()}_{self._count}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.address(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.address(name)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
