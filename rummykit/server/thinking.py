"""The computer's thinking, run outside the event loop's process when it is heavy.

A hard player's decision, a hint and a review can take from milliseconds to a second of CPU. Run
in a thread, they would hold the interpreter lock that the event loop needs to answer everyone
else; so :class:`Thinker` sends them to worker processes (which run at a lower priority, so that
the event loop's process comes first on a busy machine). Light work (the easy and medium
players) runs in a thread: shipping it to a process would cost more than it takes.

The work is described by small values (:class:`Decision`, :class:`HintWork`,
:class:`ReviewWork`) that carry a snapshot of what they read and can be pickled: they give the
same answer in any process, as the players are seeded by the position only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from rummykit.actions import Action
from rummykit.games.base import Game, HandState, View
from rummykit.players import PLAYERS, Player, RandomPlayer, UnknownPlayerError, find_player
from rummykit.review import review_hand

__all__ = [
    "HEAVY_LEVELS",
    "Decision",
    "HintWork",
    "ReviewWork",
    "Thinker",
    "default_processes",
    "make_player",
]

HEAVY_LEVELS = frozenset({"hard"})
"""The levels whose decisions run in a worker process."""

WORKER_NICENESS = 5
"""How much lower the worker processes' priority is than the server's."""

log = logging.getLogger("rummykit.server")

T = TypeVar("T")


def make_player(game: Game, level: str, seed: int | None) -> Player:
    """A computer player that plans by the table's rules (``game``'s options); the random player
    serves any game not (yet) in the players registry."""
    try:
        return find_player(game, level, seed)
    except UnknownPlayerError:
        if level == "random" and game.name not in PLAYERS:
            return RandomPlayer(seed)
        raise


@dataclass(frozen=True, slots=True)
class Decision:
    """A computer seat's decision: the player of ``level`` seeded ``seed``, on ``view``; or,
    when ``fixed`` is given, that action (no thinking)."""

    game: Game
    level: str
    seed: int
    view: View
    fixed: Action | None = None

    @property
    def heavy(self) -> bool:
        return self.fixed is None and self.level in HEAVY_LEVELS

    def __call__(self) -> Action:
        if self.fixed is not None:
            return self.fixed
        return make_player(self.game, self.level, self.seed).choose(self.view)


@dataclass(frozen=True, slots=True)
class HintWork:
    """What the player of ``level`` would do on ``view``, and why: the ``hint`` message."""

    game: Game
    level: str
    seed: int
    view: View
    seq: int

    @property
    def heavy(self) -> bool:
        return True

    def __call__(self) -> dict[str, Any]:
        player = make_player(self.game, self.level, self.seed)
        return {"t": "hint", "seq": self.seq, **player.suggest(self.view).to_dict()}


@dataclass(frozen=True, slots=True)
class ReviewWork:
    """The review of finished hand ``index`` (from 0) for ``seat``: the ``review`` message.
    ``skip``: the seat's moves a computer made for it (not reviewed)."""

    hand: HandState
    index: int
    seat: int
    level: str
    skip: frozenset[int]

    @property
    def heavy(self) -> bool:
        return True

    def __call__(self) -> dict[str, Any]:
        review = review_hand(self.hand, self.seat, level=self.level, skip=self.skip)
        answer = {"t": "review", "hand": self.index + 1, **review.to_dict()}
        history = self.hand.history
        answer["stood_in"] = sum(
            1 for n, (actor, _) in enumerate(history) if actor == self.seat and n in self.skip
        )
        return answer


def default_processes() -> int:
    """Worker processes for a server on this machine: one per core beyond the first, at least
    one."""
    return max(1, (os.cpu_count() or 1) - 1)


ORPHAN_CHECK = 1.0
"""Seconds between a worker process's checks that its server is still there."""


def _start_worker(server: int) -> None:
    """A worker process's start: a lower priority, and a watch that ends it once its server
    process is gone (killed with SIGKILL, a worker would otherwise live on, an orphan holding
    its memory, or finishing work nobody waits for)."""
    with contextlib.suppress(OSError):  # not allowed: the same priority then
        os.nice(WORKER_NICENESS)
    watch = threading.Thread(target=_end_with, args=(server,), name="rummykit-watch", daemon=True)
    watch.start()


def end_with_parent() -> None:
    """Watch this process's parent, and end this process once it is gone: for the server
    processes of ``rummykit serve --workers``, whose supervisor cannot stop them if it is
    killed outright (each would live on, serving the port to nobody's knowledge; its worker
    processes end with it)."""
    watch = threading.Thread(
        target=_end_with, args=(os.getppid(),), name="rummykit-watch", daemon=True
    )
    watch.start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)


def _ready() -> int:
    return os.getpid()


class Thinker:
    """Runs heavy work in ``processes`` worker processes (started on first use, or by
    :meth:`start`), anything else in a thread; ``processes=0`` runs everything in threads."""

    def __init__(self, processes: int) -> None:
        if processes < 0:
            raise ValueError("processes is 0 or more")
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self.in_processes = 0
        """Jobs run in a worker process so far."""
        self.in_threads = 0
        """Jobs run in a thread so far."""

    def _start_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def start(self) -> list[int]:
        """Start the worker processes now (each imports the engine once), so that the first
        heavy decisions do not wait for it; their process ids."""
        if self.processes == 0:
            return []
        pool = self._start_pool()
        loop = asyncio.get_running_loop()
        jobs = [loop.run_in_executor(pool, _ready) for _ in range(self.processes)]
        return list(await asyncio.gather(*jobs))

    async def run(self, work: Callable[[], T], *, heavy: bool) -> T:
        """``work()``'s result: in a worker process if ``heavy`` (``work`` is pickled there),
        else in a thread. A worker that dies is replaced, and the work done in a thread."""
        if heavy and self.processes > 0:
            pool = self._start_pool()
            try:
                result = await asyncio.get_running_loop().run_in_executor(pool, work)
            except BrokenProcessPool:
                log.error("a thinking process died; starting new ones")
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
            else:
                self.in_processes += 1
                return result
        self.in_threads += 1
        return await asyncio.to_thread(work)

    def close(self) -> None:
        """Stop the worker processes (work under way is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
