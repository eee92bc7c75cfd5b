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
        # clears CPython's "unhandled Ctrl-C" flag, as ``cli.entry.forget_interrupt`` does
        # (the command line it would come from is the import that was interrupted)
        exec("None")
        sys.exit(130)
    main()


if __name__ == "__main__":
    run()
