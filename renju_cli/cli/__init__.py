"""The ``renju`` command line: a thin layer over ``renju_cli.api``.

Exit codes (``shared/spec/cli.md``): 0 clean, 1 findings at or above ``--fail-on``, 2 usage or
configuration error, 3 internal error (one line on stderr; the traceback only with ``--debug``).
One module per command; each registers itself on the ``cli`` group of ``app``; ``entry`` runs
the group in its process.
"""

from __future__ import annotations

from renju_cli.cli import check, convert, diff, position, rules  # noqa: F401 - register commands
from renju_cli.cli.app import cli
from renju_cli.cli.entry import main

__all__ = ["cli", "main"]
