"""The ``renju`` command group and what every command shares.

Exit codes (``shared/spec/cli.md``): 0 clean, 1 findings at or above ``--fail-on``, 2 usage or
configuration error, 3 internal error (one line on stderr; the traceback only with ``--debug``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

import click

from renju_cli import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

F = TypeVar("F", bound=Callable[..., Any])

RULES_HELP = "Ruleset: a shipped name (see 'renju rules list') or a YAML file."
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class UsageProblem(click.UsageError):
    """A configuration problem reported with exit code 2."""


def load_rules(rules: str | None) -> Any:
    from renju_cli.ruleset import RulesetError, load

    if rules is None:
        return None
    try:
        return load(rules)
    except RulesetError as e:
        raise UsageProblem(f"invalid ruleset {rules}:\n{e}") from None


def read_options(encoding: str | None, board_size: int | None = None) -> Any:
    from renju_cli.formats import ReadOptions

    if encoding is not None:
        from renju_cli.formats import text_codec

        if text_codec(encoding) is None:
            raise UsageProblem(f"{encoding!r} is not a text encoding Python knows")
    return ReadOptions(encoding=encoding, board_size=board_size or 15)


@contextmanager
def open_output(path: str | None) -> Iterator[TextIO]:
    """Standard output, or a file written atomically (a partial file never looks complete)."""
    if path is None or path == "-":
        yield sys.stdout
        return
    with click.open_file(path, "w", encoding="utf-8", atomic=True) as f:
        yield f  # type: ignore[misc]


def input_format_option() -> Callable[[F], F]:
    return click.option(
        "--input-format",
        default=None,
        metavar="FORMAT",
        help="Read inputs as this format instead of detecting it "
        "(notation, jsonl, diagram, renjunet, renlib, sgf, psq, pos, playok).",
    )


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="renju")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Analyze renju and gomoku game records: legality, forbidden moves, results.

    \b
    Examples:
      renju check examples/
      renju check games.rif --rules renju-rif --format jsonl
      echo "h8 h9 i8 g8 j8 k8 i9 i10 j10 k11" | renju check -
      renju forbidden position.txt --format json
      renju show game.txt --at 23
      renju rules list
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
