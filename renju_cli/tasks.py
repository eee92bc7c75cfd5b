"""Units of work for a batch, and judging them: a record, a small file a worker reads whole, a
slice of a big line-based file.  Judging never raises: a bug becomes an ``internal-error``
finding and the batch goes on.  Everything here pickles, and the functions a worker runs are
top-level, so that any ``concurrent.futures.Executor`` can run them (``renju_cli.batch``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import itertools
import os
import zlib
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, NamedTuple

from renju_cli import formats, limits, opening
from renju_cli.duplicates import game_key
from renju_cli.formats import ReadOptions, unreadable
from renju_cli.inputs import Window, read_path
from renju_cli.judge import Judgements, Listings, WalkSteps
from renju_cli.record import Record, SourceLocation
from renju_cli.referee import replay
from renju_cli.report import Finding, GameReport
from renju_cli.ruleset import Ruleset, RulesetError, load, shipped_names

#: Test hook, read only by the test suite: ``raise:NAME#INDEX`` makes judging the record of
#: index INDEX in the file named NAME raise; ``crash:NAME#INDEX`` kills the worker process
#: judging it (only in a worker, never in the main process); ``stall:NAME#INDEX:MARKER``
#: makes the first worker process to judge it write its process id into the file MARKER and
#: wait there a minute (for the test to kill it), and those after go on.
FAULT_ENV = "RENJU_TEST_FAULT"

#: Numbers of the runs of this process (``Settings.run``).
_RUNS: Iterator[int] = itertools.count()


@dataclass(frozen=True)
class Settings:
    """What judging a record needs besides the record.  Pickles; sent with every chunk."""

    #: the ruleset for every record; ``None``: the record's own rule when shipped, else renju
    rules: Ruleset | None = None
    #: compute the duplicate key of each record
    keys: bool = False
    #: the test hook (``FAULT_ENV``), read once when the batch starts, not once per record
    fault: str | None = field(default_factory=lambda: os.environ.get(FAULT_ENV) or None)
    #: double-three judgements the records judged with these settings may make (a run of
    #: ``renju check``, a library call): an allowance, and one more for every so many records
    #: (``ReadOptions.judgements_allowance``, ``records_per_judgement``; 0: none)
    judgements: tuple[int, int] = (
        ReadOptions.judgements_allowance,
        ReadOptions.records_per_judgement,
    )
    #: steps of opening-protocol walks they may take: an allowance, and so many more for
    #: each record (``ReadOptions.walk_steps_allowance``, ``walk_steps_per_record``)
    walk_steps: tuple[int, int] = (
        ReadOptions.walk_steps_allowance,
        ReadOptions.walk_steps_per_record,
    )
    #: findings their reports may list: an allowance, and so many more for each record
    #: (``ReadOptions.listed_allowance``, ``listed_per_record``)
    listed: tuple[int, int] = (ReadOptions.listed_allowance, ReadOptions.listed_per_record)
    #: which run these settings are of: each process keeps one bound on judgements per run
    #: (``_bound_of``; a worker process counts what the chunks it judges spend)
    run: tuple[int, int] = field(default_factory=lambda: (os.getpid(), next(_RUNS)), compare=False)


class Judged(NamedTuple):
    """The report of one record, and its duplicate key when asked for (a tuple: one is made
    per record of a batch)."""

    report: GameReport
    key: bytes | None = None


@dataclass(frozen=True)
class FileTask:
    """A file for a worker to read and judge whole: the parent only names it."""

    path: str
    fmt: str | None = None
    options: ReadOptions | None = None


@dataclass(frozen=True)
class TextSlice:
    """Whole records of a big line-based file, ``length`` bytes from ``offset``, for a worker
    to parse and judge: their bytes (``data``), or, for a slice past ``SLICE_DATA_BYTES``, only
    their place, which the worker reads from the file if it is still the file ``identity``
    (device, inode) names.

    ``first_line`` numbers the slice's lines as in the file; record indices start from 0 in
    every slice and are renumbered by the parent, which sees the slices in order.
    """

    path: str
    fmt: str
    options: ReadOptions
    offset: int
    length: int
    first_line: int
    lines: int
    data: bytes | None = None
    identity: tuple[int, int] | None = None
    #: the position of the file among the batch's inputs (a file may be given twice)
    input_no: int = 0
    #: the CRC-32 of the slice's bytes as the parent cut them, when it came without them: the
    #: worker reads them from the file, which may have been written anew since (same inode,
    #: same size or more)
    checksum: int | None = None


#: A unit's entries: a record to judge, the report of one that could not be read, a file, or
#: a slice of a file.
Item = Record | GameReport | FileTask | TextSlice


#: The ruleset of a record that names none that is shipped.
DEFAULT_RULES = "renju"


def choose_ruleset(record: Record, rules: str | Ruleset | None) -> Ruleset:
    """The explicit ruleset, else the record's own rule when shipped, else ``renju``."""
    if isinstance(rules, Ruleset):
        return rules
    if rules is not None:
        return load(rules)
    if record.rule and record.rule in _shipped_set():
        try:
            return load(record.rule)
        except RulesetError:
            pass
    return load(DEFAULT_RULES)


@functools.cache
def _shipped_set() -> frozenset[str]:
    return frozenset(shipped_names())


def judge_one(item: Record | GameReport, settings: Settings) -> Judged:
    """Judge one record; never raises: a bug becomes an ``internal-error`` finding."""
    if isinstance(item, GameReport):
        return Judged(item)
    try:
        if settings.fault:
            _fault(item, settings.fault)
        ruleset = settings.rules or choose_ruleset(item, None)
        bound = _bound_of(settings)
        bound.next_record()
        report = replay(item, ruleset, bound)
        key = game_key(item, ruleset) if settings.keys else None
    except Exception as e:  # any bug in one record must not stop the batch
        return Judged(failed_report(item, settings, f"judging this record failed: {why(e)}"))
    return Judged(report, key)


#: The bound on double-three judgements of each run this process judged for, the latest last.
_BOUNDS: dict[tuple[int, int], Judgements] = {}


def _bound_of(settings: Settings) -> Judgements:
    """What the records judged here with ``settings`` (one run) may still spend."""
    bound = _BOUNDS.get(settings.run)
    if bound is None:
        if len(_BOUNDS) >= 64:  # (a process serving many library calls)
            del _BOUNDS[next(iter(_BOUNDS))]
        allowance, per = settings.judgements
        steps, per_record = settings.walk_steps
        walks = WalkSteps(
            steps, _terms(steps, per_record, f"{per_record} per record", "walk-steps"), per_record
        )
        findings, more = settings.listed
        listed = Listings(findings, _terms(findings, more, f"{more} per record", "findings"), more)
        bound = _BOUNDS[settings.run] = Judgements(
            allowance,
            _terms(allowance, per, f"one per {per} records", "judgements"),
            per,
            walks,
            listed,
        )
    return bound


def _terms(allowance: int, per: int, growth: str, limit: str) -> str:
    """How a run's bound was set, for its messages: ``allowance`` + ``growth`` by default
    (``per``: not 0), or ``--limit limit=N``."""
    if per:
        return f" (at most {allowance} + {growth}; --limit {limit}=N sets it)"
    return f" (--limit {limit})"


def walk_key(settings: Settings, record: Record) -> Hashable | None:
    """``opening.walk_key`` of ``record`` under the ruleset ``judge_one`` will judge it by."""
    return opening.walk_key(record, settings.rules or choose_ruleset(record, None))


def judge_chunk(items: Sequence[Item], settings: Settings) -> list[list[Judged]]:
    """Judge a unit of work, in order: one report per record, every record of a file."""
    out = []
    for item in items:
        if isinstance(item, Record):  # most items: a record read by the parent
            out.append([judge_one(item, settings)])
        elif isinstance(item, FileTask):
            records = read_file(item.path, item.fmt, item.options, settings)
            out.append([judge_one(r, settings) for r in records])
        elif isinstance(item, TextSlice):
            out.append([judge_one(r, settings) for r in read_slice(item, settings)])
        else:  # the report of an input that could not be read
            out.append([judge_one(item, settings)])
    return out


def read_file(
    path: str,
    fmt: str | None,
    options: ReadOptions | None,
    settings: Settings,
    on_read: Callable[[int], None] | None = None,
) -> Iterator[Record | GameReport]:
    """Every record of one input (``inputs.read_path``); never raises: a bug in a reader ends the
    file with an unreadable report whose finding says so."""
    count = 0
    try:
        walks = functools.partial(walk_key, settings)
        for record in read_path(path, fmt, options, on_read, walks):
            count += 1
            yield record
    except Exception as e:  # a bug in a reader: report it, go on with the next file
        where = SourceLocation("<stdin>" if path == "-" else path, count)
        lost = Record(moves=[], source=where, format="unknown")
        message = f"reading stopped here: {why(e)}; the rest of the file is not checked"
        report = failed_report(lost, settings, message)
        report.unreadable = True
        yield report


def read_slice(item: TextSlice, settings: Settings) -> Iterator[Record | GameReport]:
    """The records of a slice (``read_file`` for a part of a file): from its bytes, or from the
    file when the slice came without them and the file is still the one that was cut."""
    options = dataclasses.replace(item.options, first_line=item.first_line)
    fmt = formats.load(item.fmt)

    def read(stream: BinaryIO, path: str, options: formats.ReadOptions) -> Iterator[Record]:
        # (each slice has the file's bounds on opening events and walks: see
        # ``formats.bound_events``)
        records = formats.bound_events(fmt.read(stream, path, options), options)
        return limits.bound_walks(records, options, functools.partial(walk_key, settings))

    count = 0
    with contextlib.ExitStack() as stack:
        try:
            if item.data is not None:
                records = read(io.BytesIO(item.data), item.path, options)
            else:
                raw = stack.enter_context(open(item.path, "rb", buffering=0))
                st = os.fstat(raw.fileno())
                end = item.offset + item.length
                if (st.st_dev, st.st_ino) != item.identity or st.st_size < end:
                    yield unreadable(
                        item.path,
                        "the file changed while it was read: its lines from "
                        f"{item.first_line} on are not checked",
                        line=item.first_line,
                    )
                    return
                raw.seek(item.offset)
                if item.checksum is not None and _crc32(raw, item.length) != item.checksum:
                    yield unreadable(
                        item.path,
                        "the file changed while it was read: its lines from "
                        f"{item.first_line} on are not checked (they are not the bytes cut)",
                        line=item.first_line,
                    )
                    return
                raw.seek(item.offset)
                records = read(io.BufferedReader(Window(raw, item.length)), item.path, options)
            for record in records:
                count += 1
                yield record
        except OSError as e:  # a disk error: as with --jobs 1, the records before it are kept
            yield unreadable(item.path, f"read error: {e.strerror or e}", line=item.first_line)
        except Exception as e:  # a bug in a reader: report it, go on with the next slice
            lost = Record(moves=[], source=SourceLocation(item.path, count), format="unknown")
            report = failed_report(lost, settings, f"reading stopped here: {why(e)}")
            report.unreadable = True
            yield report


def _crc32(raw: BinaryIO, length: int) -> int:
    """The CRC-32 of the next ``length`` bytes of ``raw`` (fewer at its end), read in pieces."""
    crc, left = 0, length
    while left > 0:
        piece = raw.read(min(left, 1 << 20))
        if not piece:
            break
        crc = zlib.crc32(piece, crc)
        left -= len(piece)
    return crc


def failed_report(record: Record, settings: Settings, message: str) -> GameReport:
    """The report of a record that could not be judged: one ``internal-error`` finding."""
    try:
        name = choose_ruleset(record, settings.rules).name
    except Exception:  # the failure may be right there: name the default
        name = DEFAULT_RULES
    return GameReport(
        source=record.source,
        ruleset=name,
        moves=len(record.moves),
        format=record.format,
        declared_result=record.declared_result,
        metadata=dict(record.metadata),
        notes=list(record.notes),
        findings=[Finding("internal-error", message)],
    )


def why(e: BaseException) -> str:
    """An exception in a few words: its type, and its message if it has one."""
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _fault(record: Record, spec: str) -> None:
    kind, _, target = spec.partition(":")
    target, _, marker = target.partition(":")
    if target != f"{os.path.basename(record.source.path)}#{record.source.index}":
        return
    import multiprocessing

    in_worker = multiprocessing.parent_process() is not None
    if kind == "crash" and in_worker:
        os._exit(70)
    if kind == "stall":
        if in_worker:
            _stall(marker)
        return
    raise RuntimeError(f"fault injected by {FAULT_ENV}")


def _stall(marker: str) -> None:
    """Wait a minute, the first time only: the process that creates ``marker`` writes its id
    into it and waits."""
    import time

    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)
    time.sleep(60)
