"""``python -m rummykit``: the same command line as ``rummykit`` (see :mod:`rummykit.cli`)."""

from rummykit.cli import app

app(prog_name="rummykit")
