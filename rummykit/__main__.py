"""``python -m rummykit``: the same command line as ``rummykit`` (see :mod:`rummykit.cli`)."""

from rummykit.entry import main

main()
