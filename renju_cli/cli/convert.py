"""``renju convert``: rewrite records in another format."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import click

from renju_cli.cli.app import (
    CONTEXT,
    EXIT_CLEAN,
    EXIT_FINDINGS,
    cli,
    input_format_option,
    limit_option,
    read_options,
    shown,
)
from renju_cli.cli.output import written


# -- convert --------
@cli.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--to",
    "to",
    type=click.Choice(["jsonl", "notation", "sgf", "psq"]),
    default="jsonl",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--output", "-o", default=None, help="Output file (psq: a directory, one file per record)."
)
@input_format_option()
@limit_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
def convert(
    paths: tuple[str, ...],
    to: str,
    output: str | None,
    input_format: str | None,
    encoding: str | None,
    limits: tuple[str, ...],
) -> None:
    """Rewrite records in another format: standard notation, JSON Lines, SGF or psq.

    Unreadable records are reported on stderr and make the exit code 1.

    \b
    Examples:
      renju convert library.lib --to jsonl -o lines.jsonl
      renju convert game.psq --to sgf
      renju convert games.sgf --to psq -o psq-dir/
    """
    from renju_cli import api, formats
    from renju_cli.formats.notation import write_record

    options = read_options(encoding, limits=limits)
    # every reader imported now, not in the middle of the run (see ``check``): a Ctrl-C that
    # lands in the import of a C extension did not end the run as an interrupt
    formats.available()
    inputs = list(api.expand_inputs(paths))
    bad = 0

    def records() -> Iterator[Any]:
        nonlocal bad
        for item in inputs:
            if isinstance(item, api.InputError):
                click.echo(shown(f"{item.path}: {item.message}"), err=True)
                bad += 1
                continue
            for rec in api.read_path(item, input_format, options):
                if rec.unreadable:
                    bad += 1
                    msg = "; ".join(p.message for p in rec.problems)
                    click.echo(shown(f"{rec.source.path} [{rec.source.index}]: {msg}"), err=True)
                    continue
                yield rec

    def rendered(rec: Any, write: Callable[[list[Any], TextIO], None]) -> str | None:
        """One record in the target format; a record the format cannot hold is reported."""
        nonlocal bad
        buf = io.StringIO()
        try:
            write([rec], buf)
        except ValueError as e:
            bad += 1
            click.echo(
                shown(f"{rec.source.path} [{rec.source.index}]: cannot be written as {to}: {e}"),
                err=True,
            )
            return None
        return buf.getvalue()

    if to == "psq":
        target = output or "."
        os.makedirs(target, exist_ok=True)
        psq = formats.load("psq")
        for n, rec in enumerate(records()):
            text = rendered(rec, lambda recs, f: psq.write_one(recs[0], f))
            if text is None:
                continue
            stem = os.path.splitext(os.path.basename(rec.source.path))[0]
            name = os.path.join(target, f"{stem}-{n:05d}.psq")
            with written(name) as f:
                f.write(text)
    else:
        writer: Callable[[list[Any], TextIO], None]
        if to == "notation":

            def writer(recs: list[Any], f: TextIO) -> None:
                f.write(write_record(recs[0]) + "\n")

        else:
            writer = formats.load(to).write
        with written(output) as out:
            for rec in records():
                text = rendered(rec, writer)
                if text is not None:
                    out.write(text)
    sys.exit(EXIT_FINDINGS if bad else EXIT_CLEAN)
