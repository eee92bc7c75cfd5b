"""``python -m renju_cli`` and the ``renju`` command: the command line."""

from __future__ import annotations

import sys


def run() -> None:
    """Import the command line, then run it: a Ctrl-C during the imports (Click and the rest,
    the first tenth of a second) ends the run as a later one does, without a traceback."""
    try:
        from renju_cli.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("renju: interrupted\n")
        forget_interrupt()
        sys.exit(130)
    main()


def forget_interrupt() -> None:
    """Call before exiting on a Ctrl-C that was handled.  A ``KeyboardInterrupt`` raised inside
    ``exec`` of a string (``dataclasses`` and ``namedtuple`` build their methods so, at import)
    sets CPython's "unhandled Ctrl-C" flag even when caught later, and under ``python -m`` the
    process then kills itself with SIGINT at exit instead of ending with code 130 (seen in
    2 runs of 100 interrupted while importing).  The next ``exec`` of a string clears it."""
    exec("None")


if __name__ == "__main__":
    run()
