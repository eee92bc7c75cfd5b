"""The ``renju`` command line: a thin layer over ``renju_cli.api``.

Exit codes (``shared/spec/cli.md``): 0 clean, 1 findings at or above ``--fail-on``, 2 usage or
configuration error, 3 internal error (one line on stderr; the traceback only with ``--debug``).
One module per command; each registers itself on the ``cli`` group of ``app``.
"""

from __future__ import annotations

import os
import sys

import click

from renju_cli.cli import check, convert, diff, position, rules  # noqa: F401 - register commands
from renju_cli.cli.app import EXIT_CLEAN, EXIT_INTERNAL, EXIT_USAGE, cli

__all__ = ["cli", "main"]


# -- entry point --------
def main(argv: list[str] | None = None) -> None:
    """Run the CLI with the exit-code contract: never a traceback for bad input."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="renju", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("renju: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("renju: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (renju check ... | head): stop quietly.
        _silence_stdout()
        sys.exit(EXIT_CLEAN)
    except SystemExit:
        raise
    except Exception as e:
        if debug:
            raise
        click.echo(
            f"renju: internal error: {type(e).__name__}: {e} (run with --debug for the traceback)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
