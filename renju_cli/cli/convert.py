"""``renju convert``: rewrite records in another format."""

from __future__ import annotations

import dataclasses
import errno
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
    EXIT_USAGE,
    UsageProblem,
    cli,
    input_format_option,
    limit_option,
    read_options,
    shown,
)
from renju_cli.cli.losses import losses, named
from renju_cli.cli.output import OutputError, written
from renju_cli.cli.records import Selection, no_record, record_option


# -- convert --------
@cli.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--to",
    "to",
    type=click.Choice(["jsonl", "notation", "sgf", "psq", "rec"]),
    default="jsonl",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--output",
    "-o",
    default=None,
    help="Output file (psq, rec: a directory, one file per record).",
)
@input_format_option()
@limit_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
@click.option(
    "--keep-damaged",
    is_flag=True,
    help="Write records read with problems too, as they were read (each still said on "
    "standard error, exit code 1).",
)
@record_option()
@click.option(
    "--lossy",
    is_flag=True,
    help="Write records the target cannot hold whole too, without what it cannot hold (each "
    "loss said on standard error).",
)
def convert(
    paths: tuple[str, ...],
    to: str,
    output: str | None,
    input_format: str | None,
    encoding: str | None,
    limits: tuple[str, ...],
    keep_damaged: bool,
    wanted: str | None,
    lossy: bool,
) -> None:
    """Rewrite records in another format: standard notation, JSON Lines, SGF, psq or rec.

    A conversion never changes what a record means: each copy is read back with the target's
    reader and compared with the record (stones, setup, board size, opening decisions, the
    declared result and its reason, the rule, the opening id, comments).  A record the target
    cannot hold whole (the rule of a gomoku record in standard notation or psq, a declared
    result in psq, setup stones in standard notation, comments in JSON Lines...) is not
    written: the message says what would be lost, and the exit code is 1; --lossy writes it
    all the same and says what it lost.  Unreadable records are said on stderr and make the
    exit code 1, and so are records read with problems (what the file says there would be
    lost or changed in the copy; --keep-damaged writes them all the same).  psq and rec
    (Gomotur) write one file per record into the directory -o names (made if missing; -o is
    required with them).

    \b
    Examples:
      renju convert library.lib --to jsonl -o lines.jsonl
      renju convert game.psq --to sgf
      renju convert games.sgf --to psq -o psq-dir/
      renju convert match.rec --to psq -o psq-dir/
      renju convert games.sgf --record 0.1 --to notation --lossy
    """
    from renju_cli import formats

    if to in FILE_PER_RECORD and output is None:
        # (a file per record: a megabyte of short records made 50,000 files in the working
        # directory, unasked)
        raise UsageProblem(
            f"--to {to} writes one file per record: name their directory with -o DIR"
        )
    options = read_options(encoding, limits=limits)
    # every reader imported now, not in the middle of the run (see ``check``): a Ctrl-C that
    # lands in the import of a C extension did not end the run as an interrupt
    formats.available()
    run = _Conversion(to, options, input_format, keep_damaged, wanted, lossy)
    records = run.records(paths)
    if to in FILE_PER_RECORD:
        assert output is not None  # (refused above without one)
        _write_files(run, records, output, to)
    else:
        with written(output) as out:
            for rec in records:
                text = run.rendered(rec)
                if text is not None:
                    out.write(text)
    no_record(wanted, run.count)
    sys.exit(EXIT_FINDINGS if run.bad else EXIT_CLEAN)


#: Formats that hold one game per file.
FILE_PER_RECORD = ("psq", "rec")


def _write_files(run: _Conversion, records: Iterator[Any], target: str, to: str) -> None:
    """One file per record, into the directory ``target``."""
    _output_directory(target)
    for n, rec in enumerate(records):
        text = run.rendered(rec)
        if text is None:
            continue
        stem = os.path.splitext(os.path.basename(rec.source.path))[0]
        name = os.path.join(target, f"{stem}-{n:05d}.{to}")
        # renamed into place whole, but not synced one by one: a file a record, and a sync
        # each made a megabyte of tiny records slow to write
        with written(name, durable=False) as f:
            f.write(text)


class _Conversion:
    """The records of a ``convert`` run, in the target format, and how many were not written
    whole (``bad``: the exit code is 1)."""

    def __init__(
        self,
        to: str,
        options: Any,
        input_format: str | None,
        keep_damaged: bool,
        wanted: str | None = None,
        lossy: bool = False,
    ) -> None:
        from renju_cli import formats

        self.to = to
        self.options = options
        self.input_format = input_format
        self.keep_damaged = keep_damaged
        self.bad = 0
        #: the records ``--record`` selects, and how many it did
        self.selection = Selection(wanted)
        self.count = 0
        #: the first problem of each damaged record --keep-damaged writes, said once written
        self.damaged: dict[int, str] = {}
        # what the writers write, read back under the default bounds (a --limit applies to
        # the input: a comment it cut is read back whole, whatever it is)
        self.back = dataclasses.replace(
            formats.ReadOptions(), encoding="utf-8", board_size=options.board_size
        )
        self.lossy = lossy
        self.write = _writer(to, lossy)

    def records(self, paths: tuple[str, ...]) -> Iterator[Any]:
        """The records of ``paths`` to write: the unreadable ones and (without
        ``--keep-damaged``) those read with problems are said on standard error instead."""
        from renju_cli import api

        return self._read(list(api.expand_inputs(paths)))

    def _read(self, inputs: list[Any]) -> Iterator[Any]:
        from renju_cli import api

        for item in inputs:
            if isinstance(item, api.InputError):
                click.echo(shown(f"{item.path}: {item.message}"), err=True)
                self.bad += 1
                continue
            for rec in api.read_path(item, self.input_format, self.options):
                if self.selected(rec.source) and self._written(rec):
                    yield rec

    def selected(self, source: Any) -> bool:
        """Whether ``--record`` selects the record from ``source`` (counted)."""
        if not self.selection(source):
            return False
        self.count += 1
        return True

    def _written(self, rec: Any) -> bool:
        """Whether ``rec`` is written: not an unreadable one, nor one read with problems
        (the copy would be a clean record: what the reader could not read, ``h8 h9 foo i10``:
        foo, i10 and all after, or read otherwise, a size no board has, would be lost without
        a word) unless ``--keep-damaged``."""
        if rec.unreadable:
            self.bad += 1
            msg = "; ".join(p.message for p in rec.problems)
            click.echo(shown(f"{named(rec)}: {msg}"), err=True)
            return False
        # (a warning or an info of the reader, such as "counted from 0", leaves the record
        # whole: what the copy would change is found by reading it back)
        errors = [p for p in rec.problems if p.severity in ("", "error")]
        if not errors:
            return True
        self.bad += 1
        more = len(errors) - 1
        said = errors[0].message + (f" (and {more} more)" if more else "")
        if not self.keep_damaged:
            click.echo(
                shown(
                    f"{named(rec)}: not converted: it was read with problems, which the copy "
                    f"would lose (--keep-damaged writes it): {said}"
                ),
                err=True,
            )
            return False
        self.damaged[id(rec)] = said  # (said once written: ``rendered``)
        return True

    def rendered(self, rec: Any) -> str | None:
        """One record in the target format; a record the format cannot hold is reported, and
        written only with ``--lossy`` (what it loses said on standard error)."""
        said = self.damaged.pop(id(rec), None)
        buf = io.StringIO()
        try:
            self.write(rec, buf)
            lost = self._lost(rec, buf.getvalue())
        except ValueError as e:
            self.bad += 1
            click.echo(shown(f"{named(rec)}: cannot be written as {self.to}: {e}"), err=True)
            return None
        if lost and not self.lossy:
            self.bad += 1
            click.echo(
                shown(
                    f"{named(rec)}: cannot be written as {self.to}: it would lose "
                    f"{'; '.join(lost)} (--lossy writes it without them)"
                ),
                err=True,
            )
            return None
        if lost:
            click.echo(
                shown(f"{named(rec)}: written as {self.to} without {'; '.join(lost)}"), err=True
            )
        if said is not None:
            click.echo(shown(f"{named(rec)}: written as read, with problems: {said}"), err=True)
        return buf.getvalue()

    def _lost(self, rec: Any, text: str) -> list[str]:
        """What the copy ``text`` of ``rec`` loses: the target's reader must give back the
        record the check sees (a field the writer dropped is a record refused, never a
        conversion that looks clean)."""
        from renju_cli import formats

        data = io.BytesIO(text.encode())
        return losses(rec, list(formats.read_stream(data, "", self.to, self.back)), self.to)


def _writer(to: str, lossy: bool) -> Callable[[Any, TextIO], None]:
    """What writes one record in the format ``to`` (``ValueError``: it cannot hold it; with
    ``lossy`` standard notation writes what it can hold, the comparison says what is lost)."""
    from renju_cli import formats

    if to == "notation":
        return _write_notation_lossy if lossy else _write_notation
    module = formats.load(to)
    if to in FILE_PER_RECORD:
        return module.write_one  # type: ignore[no-any-return]
    return lambda rec, f: module.write([rec], f)


def _write_notation(rec: Any, f: TextIO) -> None:
    from renju_cli.formats.notation import unwritable, write_record

    lost = unwritable(rec)
    if lost:
        raise ValueError("standard notation cannot hold " + "; ".join(lost))
    f.write(write_record(rec) + "\n")


def _write_notation_lossy(rec: Any, f: TextIO) -> None:
    from renju_cli.formats.notation import write_record

    f.write(write_record(rec) + "\n")


def _output_directory(path: str) -> None:
    """Make ``path`` the directory that psq files go into (with its parents); a path that is
    no directory, or cannot be made one, ends the run with one line and exit code 2."""
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:  # a file, a device (/dev/null), a broken link
        error = OutputError(path, OSError(errno.ENOTDIR, "not a directory (one file per record)"))
    except OSError as e:
        error = OutputError(path, e)
    else:
        return
    click.echo(f"renju: {error}", err=True)
    sys.exit(EXIT_USAGE)
