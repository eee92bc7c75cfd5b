"""The ``renju`` command group and what every command shares.

Exit codes (``shared/spec/cli.md``): 0 clean, 1 findings at or above ``--fail-on``, 2 usage or
configuration error, 3 internal error (one line on stderr; the traceback only with ``--debug``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

import click

from renju_cli import __version__, limits

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

F = TypeVar("F", bound=Callable[..., Any])

RULES_HELP = "Ruleset: a shipped name (see 'renju rules list') or a YAML file."
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class UsageProblem(click.UsageError):
    """A configuration problem reported with exit code 2."""


def shown(text: str) -> str:
    """A path or a message from a file, for a message on the terminal: control characters
    escaped (a newline in a file name must not start a line of its own, such as a forged
    ``::error::`` workflow command; ``record.printable``)."""
    from renju_cli.record import printable

    return printable(text)


def load_rules(rules: str | None) -> Any:
    from renju_cli.ruleset import RulesetError, load

    if rules is None:
        return None
    try:
        return load(rules)
    except RulesetError as e:
        raise UsageProblem(f"invalid ruleset {shown(rules)}:\n{e}") from None


#: ``--limit NAME=N``: the bounds a run on untrusted input may tighten (``limits.OPTIONS``).
LIMITS = limits.OPTIONS
_SUFFIXES = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
#: What else a bound given sets (``limits.GIVEN``).
_GIVEN = limits.GIVEN


def parse_limits(limits: tuple[str, ...]) -> dict[str, Any]:
    """``ReadOptions`` fields from ``--limit NAME=N`` values (``N`` may end in K, M or G, powers
    of 1024); a limit may only be lowered: the defaults are what hostile files were measured
    against, and a higher one could make a reader set aside more than a file holds."""
    from renju_cli.formats import ReadOptions

    defaults = ReadOptions()
    fields: dict[str, Any] = {}
    for text in limits:
        name, n = _limit(text)
        field = LIMITS[name][0]
        default = getattr(defaults, field)
        if not 1 <= n <= default:
            raise UsageProblem(f"--limit {name}: {n} is not between 1 and the default, {default}")
        fields[field] = n
        fields.update({k: n if v is None else v for k, v in _GIVEN.get(field, {}).items()})
    return fields


def _limit(text: str) -> tuple[str, int]:
    """The name and the number of one ``--limit NAME=N``."""
    name, sep, value = text.partition("=")
    name, value = name.strip().lower(), value.strip().replace("_", "")
    if not sep or name not in LIMITS:
        raise UsageProblem(
            f"--limit {text!r}: expected NAME=N with NAME one of {', '.join(LIMITS)}"
        )
    n = _number(value)
    if n is None:
        raise UsageProblem(f"--limit {text!r}: {value!r} is not a number (such as 5000 or 64M)")
    return name, n


def _number(value: str) -> int | None:
    """``N``, ``NK``, ``NM`` or ``NG`` (powers of 1024), of 18 digits at most; else ``None``."""
    digits, suffix = (value[:-1], value[-1:].lower()) if value[-1:].isalpha() else (value, "")
    if not (digits.isascii() and digits.isdigit()) or suffix not in _SUFFIXES or len(digits) > 18:
        return None
    return int(digits) * _SUFFIXES[suffix]


def read_options(
    encoding: str | None, board_size: int | None = None, limits: tuple[str, ...] = ()
) -> Any:
    from renju_cli.formats import ReadOptions

    if encoding is not None:
        from renju_cli.formats import ascii_compatible, text_codec

        codec = text_codec(encoding)
        if codec is None:
            raise UsageProblem(f"{encoding!r} is not a text encoding Python knows")
        if not ascii_compatible(codec):
            # text files are split into lines and records as ASCII bytes, then decoded: a
            # UTF-16 file is told by its byte order mark (and XML by its first bytes)
            raise UsageProblem(
                f"--encoding {encoding!r}: give the 8-bit encoding of names and comments "
                "(cp1251, gbk, latin-1...), one that writes ASCII as ASCII and never reads "
                "<>&\"'= as part of another character; UTF-16 and UTF-32 files are recognised "
                "by their byte order mark without it"
            )
    options = ReadOptions(encoding=encoding, board_size=board_size or 15)
    return dataclasses.replace(options, **parse_limits(limits))


def limit_option() -> Callable[[F], F]:
    """``--limit NAME=N``, repeatable: tighter bounds for a run on untrusted input."""
    return click.option(
        "--limit",
        "limits",
        multiple=True,
        metavar="NAME=N",
        help="Lower a bound on what one input file may hold (repeatable; defaults in "
        "parentheses): "
        + "; ".join(f"{name}: {what}" for name, (_, what) in LIMITS.items())
        + ". N may end in K, M or G (powers of 1024). Past a bound, the rest is skipped with a "
        "finding (a comment or name cut short: with a note in the record's notes). "
        "A records limit given replaces the bound by the file's size: --limit records=20000 "
        "for a tighter one, --limit records=16M to read a file of very short records whole.",
    )


def _known_format(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from renju_cli.formats import FORMAT_MODULES

    if value is not None and value not in FORMAT_MODULES:
        raise UsageProblem(f"unknown input format {value!r}; known: {', '.join(FORMAT_MODULES)}")
    return value


def input_format_option() -> Callable[[F], F]:
    return click.option(
        "--input-format",
        default=None,
        metavar="FORMAT",
        callback=_known_format,
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
