"""The ``rummykit`` command: replay and review records, simulate players against each other,
watch a demo, play in the terminal or serve the web app.

Games: ``gin`` (Gin Rummy, alias ``gin-rummy``), Basic Rummy for 2-6 players under its two
presets ``rummy`` (alias ``basic-rummy``) and ``rummy-classic``, and ``crazy`` (Crazy Rummy,
alias ``crazy-rummy``).

::

    rummykit replay game.json [--json]
    rummykit review game.json [--seat 0] [--hand K] [--level hard] [--lang en|vi] [--json]
    rummykit sim gin --players random,random --hands 1000 --jobs 4 [--json] [--option knock_limit=5]
    rummykit sim rummy-classic --players random,random,random,random --option restock=shuffle
    rummykit demo [--game gin|rummy|rummy-classic|crazy] [--seats N] [--seed 7]
    rummykit play [gin|rummy|crazy] [--seats N] [--level medium] [--lang en|vi]
    rummykit serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--certfile F --keyfile F]
    rummykit --version

The package holds the Typer ``app`` and ``main`` (the console script); each command is a module
whose function is registered here, in the order ``rummykit --help`` lists them: ``replay``
(its text in ``replay_text``), ``review``, ``sim``, ``demo``, ``play`` and ``serve``. Beside them:
``common`` (consoles, errors, game lookup, ``--option``), ``cards`` (Rich markup of cards and
names), ``records`` (a record's hands and players) and ``results`` (per-game result wording that
``replay`` and ``demo`` share).
"""

from __future__ import annotations

from typing import Annotated

import typer

from rummykit import __version__
from rummykit.cli import demo, play, replay, review, serve, sim
from rummykit.cli.demo import DEMO_SEED, RUMMY_DEMO_SEEDS

__all__ = ["DEMO_SEED", "RUMMY_DEMO_SEEDS", "app", "main"]

app = typer.Typer(
    name="rummykit",
    help=(
        "Gin Rummy (gin), Basic Rummy for 2-6 players (rummy, rummy-classic) and Crazy Rummy "
        "(crazy): play in the browser (serve) or the terminal (play), replay and review records, "
        "simulate computer players, watch a demo hand."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Markdown joins the lines of a docstring paragraph (the default keeps every line break).
    rich_markup_mode="markdown",
)


def _version(value: bool) -> None:
    if value:
        print(f"rummykit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Show the version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    """The commands below (the app's help text says what rummykit is).

    Games: gin (alias gin-rummy), rummy (alias basic-rummy), rummy-classic and crazy (alias
    crazy-rummy).
    """


# (the order of registration is the order of the commands in rummykit --help)
app.command()(replay.replay)
app.command()(review.review)
app.command()(sim.sim)
app.command()(demo.demo)
app.command()(play.play)
app.command()(serve.serve)


def main() -> None:
    """The console entry point."""
    app()
