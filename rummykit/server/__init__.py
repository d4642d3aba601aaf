"""The web server: tables of any game played in the browser, one WebSocket per seat.

The async code of rummykit lives in :mod:`rummykit.server.app` and the modules it is built from
(:mod:`~.hub`, :mod:`~.routes`, :mod:`~.seat_socket`, :mod:`~.page`); :mod:`~.tables`,
:mod:`~.store` and :mod:`~.protocol` are synchronous and wrap the engine, which never imports them.
Start it with ``rummykit serve``.
"""
