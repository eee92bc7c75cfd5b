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
from renju_cli.cli.output import OutputError, written


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
@click.option(
    "--keep-damaged",
    is_flag=True,
    help="Write records read with problems too, as they were read (each still said on "
    "standard error, exit code 1).",
)
def convert(
    paths: tuple[str, ...],
    to: str,
    output: str | None,
    input_format: str | None,
    encoding: str | None,
    limits: tuple[str, ...],
    keep_damaged: bool,
) -> None:
    """Rewrite records in another format: standard notation, JSON Lines, SGF or psq.

    Unreadable records are reported on stderr and make the exit code 1, and so are records
    read with problems (parse errors: what the file says there would be lost or changed in
    the copy; --keep-damaged writes them all the same) and records the target format cannot
    hold whole (setup stones or a board size in standard notation,
    a colour choice or a rejection in SGF...): they are not written, and the message says what
    would be lost.  psq writes one file per record into the directory -o names (made if
    missing; -o is required with --to psq).

    \b
    Examples:
      renju convert library.lib --to jsonl -o lines.jsonl
      renju convert game.psq --to sgf
      renju convert games.sgf --to psq -o psq-dir/
    """
    from renju_cli import formats

    if to == "psq" and output is None:
        # (a file per record: a megabyte of short records made 50,000 files in the working
        # directory, unasked)
        raise UsageProblem("--to psq writes one file per record: name their directory with -o DIR")
    options = read_options(encoding, limits=limits)
    # every reader imported now, not in the middle of the run (see ``check``): a Ctrl-C that
    # lands in the import of a C extension did not end the run as an interrupt
    formats.available()
    run = _Conversion(to, options, input_format, keep_damaged)
    records = run.records(paths)
    if to == "psq":
        assert output is not None  # (refused above without one)
        _write_psq(run, records, output)
    else:
        with written(output) as out:
            for rec in records:
                text = run.rendered(rec)
                if text is not None:
                    out.write(text)
    sys.exit(EXIT_FINDINGS if run.bad else EXIT_CLEAN)


def _write_psq(run: _Conversion, records: Iterator[Any], target: str) -> None:
    """One psq file per record, into the directory ``target``."""
    _output_directory(target)
    for n, rec in enumerate(records):
        text = run.rendered(rec)
        if text is None:
            continue
        stem = os.path.splitext(os.path.basename(rec.source.path))[0]
        name = os.path.join(target, f"{stem}-{n:05d}.psq")
        # renamed into place whole, but not synced one by one: a file a record, and a sync
        # each made a megabyte of tiny records slow to write
        with written(name, durable=False) as f:
            f.write(text)


class _Conversion:
    """The records of a ``convert`` run, in the target format, and how many were not written
    whole (``bad``: the exit code is 1)."""

    def __init__(self, to: str, options: Any, input_format: str | None, keep_damaged: bool) -> None:
        from renju_cli import formats

        self.to = to
        self.options = options
        self.input_format = input_format
        self.keep_damaged = keep_damaged
        self.bad = 0
        #: the first problem of each damaged record --keep-damaged writes, said once written
        self.damaged: dict[int, str] = {}
        # what the writers write, read back under the default bounds (a --limit applies to
        # the input: a comment it cut is read back whole, whatever it is)
        self.back = dataclasses.replace(
            formats.ReadOptions(), encoding="utf-8", board_size=options.board_size
        )
        self.write = _writer(to)

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
                if self._written(rec):
                    yield rec

    def _written(self, rec: Any) -> bool:
        """Whether ``rec`` is written: not an unreadable one, nor one read with problems
        (the copy would be a clean record: what the reader could not read, ``h8 h9 foo i10``:
        foo, i10 and all after, or read otherwise, a size no board has, would be lost without
        a word) unless ``--keep-damaged``."""
        if rec.unreadable:
            self.bad += 1
            msg = "; ".join(p.message for p in rec.problems)
            click.echo(shown(f"{_named(rec)}: {msg}"), err=True)
            return False
        if not rec.problems:
            return True
        self.bad += 1
        more = len(rec.problems) - 1
        said = rec.problems[0].message + (f" (and {more} more)" if more else "")
        if not self.keep_damaged:
            click.echo(
                shown(
                    f"{_named(rec)}: not converted: it was read with problems, which the copy "
                    f"would lose (--keep-damaged writes it): {said}"
                ),
                err=True,
            )
            return False
        self.damaged[id(rec)] = said  # (said once written: ``rendered``)
        return True

    def rendered(self, rec: Any) -> str | None:
        """One record in the target format; a record the format cannot hold is reported."""
        from renju_cli import formats

        said = self.damaged.pop(id(rec), None)
        buf = io.StringIO()
        try:
            self.write(rec, buf)
            # what the target's reader gives back must be the record the check sees: a field
            # the writer dropped is a record refused, never a conversion that looks clean
            data = io.BytesIO(buf.getvalue().encode())
            again = list(formats.read_stream(data, "", self.to, self.back))
            lost = _lost(rec, again, self.to)
            if lost:
                raise ValueError(f"it would lose {lost}")
        except ValueError as e:
            self.bad += 1
            click.echo(shown(f"{_named(rec)}: cannot be written as {self.to}: {e}"), err=True)
            return None
        if said is not None:
            click.echo(shown(f"{_named(rec)}: written as read, with problems: {said}"), err=True)
        return buf.getvalue()


def _writer(to: str) -> Callable[[Any, TextIO], None]:
    """What writes one record in the format ``to`` (``ValueError``: it cannot hold it)."""
    from renju_cli import formats

    if to == "notation":
        return _write_notation
    module = formats.load(to)
    if to == "psq":
        return module.write_one  # type: ignore[no-any-return]
    return lambda rec, f: module.write([rec], f)


def _write_notation(rec: Any, f: TextIO) -> None:
    from renju_cli.formats.notation import unwritable, write_record

    lost = unwritable(rec)
    if lost:
        raise ValueError("standard notation cannot hold " + "; ".join(lost))
    f.write(write_record(rec) + "\n")


def _named(rec: Any) -> str:
    """``FILE [INDEX]`` of a record, and its variation when it is a later line of a tree (the
    lines of an SGF tree share their index)."""
    source = rec.source
    name = f"{source.path} [{source.index}]"
    if source.variation not in (None, "main"):
        name += f" variation {source.variation}"
    return name


def _output_directory(path: str) -> None:
    """Make ``path`` the directory that psq files go into (with its parents); a path that is
    no directory, or cannot be made one, ends the run with one line and exit code 2."""
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:  # a file, a device (/dev/null), a broken link
        error = OutputError(
            path, OSError(errno.ENOTDIR, "not a directory (psq: one file per record)")
        )
    except OSError as e:
        error = OutputError(path, e)
    else:
        return
    click.echo(f"renju: {error}", err=True)
    sys.exit(EXIT_USAGE)


#: What each target holds besides moves, setup, size, opening events and two-board boards:
#: standard notation and psq have no rule or opening id, psq no declared result (its result
#: codes are not documented; see ``formats.psq``).
_HOLDS_RESULT = frozenset({"jsonl", "sgf", "notation"})
_HOLDS_RULE = frozenset({"jsonl", "sgf"})


def _lost(before: Any, again: list[Any], to: str) -> str | None:
    """What of ``before`` (a record) the records ``again`` read back from its conversion to
    ``to`` do not hold, in words; ``None`` when they hold what the check of it uses."""
    if len(again) != 1:
        return f"its being one record (it reads back as {len(again)})"
    after = again[0]
    for lost in _LOSSES:
        said = lost(before, after, to)
        if said is not None:
            return said
    return None


def _lost_reading(before: Any, after: Any, to: str) -> str | None:
    if after.problems:
        return f"its reading (it reads back with: {after.problems[0].message})"
    return None


def _lost_stones(before: Any, after: Any, to: str) -> str | None:
    if to == "psq":  # setup stones are written as the first moves (Gomocup's preset openings)
        was = [(p, c) for p, c in before.setup] + _stones(before.moves, len(before.setup))
        now = [(p, c) for p, c in after.setup] + _stones(after.moves, len(after.setup))
    else:
        was, now = _stones(before.moves), _stones(after.moves)
        if _setup(before) != _setup(after):
            return f"the setup stones ({len(before.setup)} read back as {len(after.setup)})"
    if was != now:
        n = next((i for i, (a, b) in enumerate(zip(was, now, strict=False)) if a != b), None)
        n = min(len(was), len(now)) if n is None else n
        return f"the stones from stone {n + 1} on ({len(was)} moves, read back as {len(now)})"
    return None


def _lost_size(before: Any, after: Any, to: str) -> str | None:
    size, size_again = (before.width, before.height), (after.width, after.height)
    if (
        size != size_again
        and size != (None, None)
        and not (size == (15, 15) and size_again == (None, None))
    ):
        return f"the board size {before.width}x{before.height}"
    return None


def _lost_events(before: Any, after: Any, to: str) -> str | None:
    events, events_again = _events(before), _events(after)
    if events != events_again:
        return "the opening decisions ({}; read back as {})".format(
            ", ".join(events) or "none", ", ".join(events_again) or "none"
        )
    if before.metadata.get("boards", "") != after.metadata.get("boards", ""):
        return "the boards (A:/B:) of two-board stones"
    return None


def _lost_result(before: Any, after: Any, to: str) -> str | None:
    if to in _HOLDS_RESULT and _winner(before) != _winner(after):
        return f"the declared result ({_winner(before)}; read back as {_winner(after)})"
    return None


def _lost_rule(before: Any, after: Any, to: str) -> str | None:
    if to not in _HOLDS_RULE:
        return None
    if before.rule != after.rule:
        return f"the rule {before.rule!r} (read back as {after.rule!r})"
    if before.opening_id != after.opening_id:
        return f"the opening id {before.opening_id!r}"
    return None


#: What a conversion may lose, in the order it is looked for.
_LOSSES = (_lost_reading, _lost_stones, _lost_size, _lost_events, _lost_result, _lost_rule)


def _stones(moves: list[Any], after: int = 0) -> list[tuple[Any, Any]]:
    """Points and colours of moves, colours alternating from black where none is stated (from
    white after an odd number ``after`` of stones)."""
    from renju_cli.record import BLACK, WHITE

    out: list[tuple[Any, Any]] = []
    expected = WHITE if after % 2 else BLACK
    for m in moves:
        color = m.color or expected
        out.append((m.point, color))
        expected = color.other
    return out


def _setup(record: Any) -> list[tuple[int, int, str]]:
    return sorted((p.x, p.y, c.value) for p, c in record.setup)


def _events(record: Any) -> list[str]:
    """The opening events, in the order the check walks them, as text for a message."""
    out = []
    for e in sorted(record.opening_events, key=lambda e: e.after):
        what = e.kind + (f" {e.value}" if e.value else "")
        if e.points:
            what += " {" + " ".join(p.name for p in e.points) + "}"
        out.append(f"{what} after move {e.after}")
    return out


def _winner(record: Any) -> str | None:
    return record.declared_result.winner if record.declared_result is not None else None
