"""``rummykit serve``: the web app under uvicorn (one process or several), over HTTP or, given a
certificate and its key, HTTPS; the server and uvicorn are imported only when the command runs.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from rummykit import __version__
from rummykit.cli.common import _err, _missing_extra
from rummykit.server.limits import GIVE_AFTER, TABLES_PER_MINUTE


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")
    ] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLite file of the tables (default: ~/.local/share/rummykit/tables.sqlite3),"
            " or a postgresql:// address shared by several servers."
        ),
    ] = None,
    delay: Annotated[
        float, typer.Option(min=0.0, max=10.0, help="Seconds before each computer move.")
    ] = 0.8,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Server processes sharing the port and the tables.")
    ] = 1,
    tables_per_minute: Annotated[
        int,
        typer.Option(
            min=0,
            max=100_000,
            envvar="RUMMYKIT_TABLES_PER_MINUTE",
            help="New tables a minute from one address (joins: twice that); 0: no limit.",
        ),
    ] = TABLES_PER_MINUTE,
    give_seat_after: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=86_400.0,
            help="Seconds a person must have been gone before another may let the computer"
            " play their seat.",
        ),
    ] = GIVE_AFTER,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another site whose pages may open the game's sockets (https://host[:port]);"
            " repeat for several. The server's own page always may."
        ),
    ] = None,
    certfile: Annotated[
        Path | None,
        typer.Option(
            help="A TLS certificate (PEM, with its chain): serve HTTPS and WSS. Needs --keyfile."
        ),
    ] = None,
    keyfile: Annotated[
        Path | None,
        typer.Option(help="The certificate's private key (PEM, no passphrase). Needs --certfile."),
    ] = None,
) -> None:
    """Play in the browser: serve the web app (open http://HOST:PORT/, or https:// with
    --certfile and --keyfile)."""
    import os

    try:
        import uvicorn
        from uvicorn.supervisors import Multiprocess

        from rummykit.server.app import create_app
        from rummykit.server.gate import guard
        from rummykit.server.limits import Limits
        from rummykit.server.protocol import MAX_MESSAGE
        from rummykit.server.security import normal_origin
    except ModuleNotFoundError as exc:
        raise _missing_extra(exc, "web") from None

    try:
        origins = [normal_origin(o) for o in allow_origin or ()]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--allow-origin") from None
    if (certfile is None) != (keyfile is None):  # (the option left out is the one named)
        given, missing = (
            ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        )
        message = f"not given; {given} needs it: give both, --certfile F --keyfile F"
        raise typer.BadParameter(message, param_hint=missing)
    if db is None:
        data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        db = str(Path(data_home) / "rummykit" / "tables.sqlite3")
    # A WebSocket frame is read whole before its length is checked: keep frames near the
    # longest message (4 bytes a character at most), not uvicorn's 16 MiB.
    settings: dict[str, Any] = dict(
        host=host, port=port, log_level="warning", ws_max_size=4 * MAX_MESSAGE + 1024
    )
    guard(settings)  # connections per address and in all, headers in time (rummykit.server.gate)
    if certfile is not None and keyfile is not None:
        _check_certificate(certfile, keyfile)
        # (every process of --workers loads the same files into its own TLS context)
        settings.update(ssl_certfile=str(certfile), ssl_keyfile=str(keyfile))
    if workers == 1:
        limits = Limits.tables_per_minute(tables_per_minute, give_seat_after)
        app = create_app(db, delay=delay, start_thinkers=True, limits=limits, origins=origins)
        config = uvicorn.Config(app, **settings)
    else:  # each process builds its own application (rummykit.server.app.app_from_environment)
        os.environ.update(RUMMYKIT_DB=db, RUMMYKIT_DELAY=str(delay), RUMMYKIT_SHARED="1")
        os.environ["RUMMYKIT_TABLES_PER_MINUTE"] = str(tables_per_minute)
        os.environ["RUMMYKIT_ORIGINS"] = " ".join(origins)
        os.environ["RUMMYKIT_GIVE_SEAT_AFTER"] = str(give_seat_after)
        config = uvicorn.Config(
            "rummykit.server.app:app_from_environment", factory=True, workers=workers, **settings
        )
    # Bound before the address is printed: port 0 takes a free port, and the line printed
    # names the port really served (tests read it; nothing can take the port in between).
    sock = config.bind_socket()
    served = int(sock.getsockname()[1])
    tls = certfile is not None
    where = serve_addresses(host, served, scheme="https" if tls else "http")
    processes = "" if workers == 1 else f", {workers} processes"
    _err().print(
        f"rummykit {__version__}: {where}  (games kept in {db}{processes})", soft_wrap=True
    )
    if not tls and not is_loopback(host):
        from rummykit.terminal_text import default_language, say

        warning = say(default_language(), "serve_in_clear", port=served)
        _err().print(f"[bold yellow]{escape(warning)}[/]", soft_wrap=True)
    if workers == 1:
        uvicorn.Server(config).run(sockets=[sock])
    else:
        Multiprocess(config, sockets=[sock]).run()  # (a process that dies is replaced)


def serve_addresses(host: str, port: int, lan: str | None = None, scheme: str = "http") -> str:
    """Where to open the page: on this computer, and from other devices when every address is
    served (``0.0.0.0``). ``lan`` is this computer's network address (found when None);
    ``scheme`` is ``https`` when the server speaks TLS.

    >>> serve_addresses("127.0.0.1", 8000)
    'open http://127.0.0.1:8000/'
    >>> serve_addresses("0.0.0.0", 8000, lan="192.168.1.20")
    'open http://127.0.0.1:8000/ here, or http://192.168.1.20:8000/ from other devices (friends)'
    >>> serve_addresses("0.0.0.0", 8443, lan="192.168.1.20", scheme="https")
    'open https://127.0.0.1:8443/ here, or https://192.168.1.20:8443/ from other devices (friends)'
    >>> serve_addresses("::1", 8000)  # (an IPv6 address is bracketed in a link)
    'open http://[::1]:8000/'
    >>> serve_addresses("::", 8000, lan="fd00::20")
    'open http://127.0.0.1:8000/ here, or http://[fd00::20]:8000/ from other devices (friends)'
    """
    if host not in ("0.0.0.0", "::", ""):
        return f"open {scheme}://{_link_host(host)}:{port}/"
    address = lan if lan is not None else _lan_address()
    if address is None:
        return f"open {scheme}://127.0.0.1:{port}/ here, or this computer's network address"
    return (
        f"open {scheme}://127.0.0.1:{port}/ here,"
        f" or {scheme}://{_link_host(address)}:{port}/ from other devices (friends)"
    )


def _link_host(host: str) -> str:
    """``host`` as a link writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def is_loopback(host: str) -> bool:
    """Does ``--host`` keep the server to this computer (so nothing crosses a network)?

    >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.1.1")]
    [True, True, True, True, True]
    >>> [is_loopback(h) for h in ("0.0.0.0", "::", "", "192.168.1.20", "game.example")]
    [False, False, False, False, False]
    """
    import ipaddress

    name = host.strip().lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:  # a name other than localhost may be any address
        return False


class _EncryptedKey(Exception):
    """The key file asked for a passphrase."""


def _no_passphrase() -> str:
    raise _EncryptedKey


def _check_certificate(certfile: Path, keyfile: Path) -> None:
    """Load the certificate and its key as the server will, or exit 2 saying what is wrong
    with which file (before anything listens, rather than a traceback from every process)."""
    import ssl

    for path, option in ((certfile, "--certfile"), (keyfile, "--keyfile")):
        try:
            with path.open("rb") as file:
                file.read(1)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise typer.BadParameter(f"cannot read {path}: {reason}", param_hint=option) from None
    try:  # (a file of certificates, and nothing else, loads as trusted certificates)
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cafile=certfile)
    except ssl.SSLError:
        message = f"{certfile} holds no certificate in PEM form (-----BEGIN CERTIFICATE-----)"
        raise typer.BadParameter(message, param_hint="--certfile") from None
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(
            certfile, keyfile, password=_no_passphrase
        )
    except _EncryptedKey:
        message = f"the key in {keyfile} is locked by a passphrase: give the key without one"
        raise typer.BadParameter(message, param_hint="--keyfile") from None
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            message = f"the key in {keyfile} is not the key of the certificate in {certfile}"
        else:
            message = f"{keyfile} holds no private key in PEM form (-----BEGIN PRIVATE KEY-----)"
        raise typer.BadParameter(message, param_hint="--keyfile") from None


def _lan_address() -> str | None:
    """This computer's address on its local network (no packet is sent), or None."""
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))  # a UDP "connect" only picks the outgoing interface
        address = str(probe.getsockname()[0])
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None
