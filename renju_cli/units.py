"""Work units of a batch on a cluster (``renju check --dask``), and judging one on a worker.

A unit names its data rather than carrying it: whole files (a group of small ones, or one big
file of a format read whole), or a byte range of whole records of a big move-list or JSON Lines
file, with the line and the record number it starts at and the CRC-32 of its bytes as they were
cut.  The worker reads its unit from storage it shares with the client (a filesystem mounted
alike, or an fsspec URL such as ``s3://...``), parses and judges it, and returns what the
client writes: the unit's reports already rendered (text, JSON Lines) with their counts, or,
for the outputs that need the reports themselves, the reports.  Where the workers do not see
the files, a unit carries their raw bytes instead (``data``), never parsed records.

A unit is pure: run twice, it gives the same result, so that a unit lost with its worker is
simply run again.  Everything here pickles, and :func:`judge_unit` is top-level.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import io
import os
import socket
import zlib
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from renju_cli import formats, limits
from renju_cli.formats import ReadOptions, too_many_records, unreadable
from renju_cli.inputs import EMPTY_FILE, Window
from renju_cli.output.base import Renderer
from renju_cli.record import Record, SourceLocation
from renju_cli.report import GameReport, Summary, filter_findings
from renju_cli.tasks import Judged, Settings, failed_report, judge_one, read_file, walk_key, why

#: How a worker says that the bytes of a range are not those the client cut.
CHANGED = "the file changed while it was read"


def is_url(path: str) -> bool:
    """Whether ``path`` is a URL for fsspec (``s3://bucket/games.txt``) rather than a path of
    the local filesystem; ``file://`` URLs count as URLs too."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme.isidentifier()


@dataclass(frozen=True)
class Part:
    """One file, or a byte range of whole records of a line-based file, for a worker to read.

    A range (``length`` not ``None``) starts at line ``first_line`` and record number
    ``first_index`` of its file; the client counted ``records`` record starts in it, and
    ``checksum`` is the CRC-32 of its bytes as it cut them (after the ``head`` first bytes of
    the file, for a range of a database's games: its tables, read first).  ``options`` are the
    file's, sized by its size.  ``data``: the bytes themselves (the whole file's, or the head's
    and the range's), for workers that cannot read the file.  A whole file with a
    ``first_index`` reports its records from that one on (those before were reported from
    ranges of it).
    """

    path: str
    fmt: str | None = None
    options: ReadOptions | None = None
    offset: int = 0
    length: int | None = None
    first_line: int = 1
    first_index: int = 0
    records: int = 0
    checksum: int = 0
    data: bytes | None = None
    head: int = 0


@dataclass(frozen=True)
class Unit:
    """What one task judges: parts, in input order, or records the client read itself (a unit
    whose workers kept dying is judged again one record at a time)."""

    number: int
    parts: tuple[Part, ...] = ()
    records: tuple[Record | GameReport, ...] = ()

    def ranged(self) -> Part | None:
        """The unit's range of a line-based file (a unit holds one at most, alone)."""
        if len(self.parts) == 1 and self.parts[0].length is not None:
            return self.parts[0]
        return None


@dataclass(frozen=True)
class Rendering:
    """What a worker returns: reports rendered in ``fmt`` (``text`` or ``jsonl``) after the
    ``select``/``ignore`` filters, with their counts; or (``fmt`` ``None``) the judged reports
    themselves, and the records too with ``records``."""

    fmt: str | None = None
    quiet: bool = False
    color: bool = False
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    records: bool = False


@dataclass
class Done:
    """A unit judged: its reports rendered (``text``) and counted (``summary``), or the reports
    (``judged``, with the ``records`` read when asked for)."""

    text: str = ""
    summary: Summary = field(default_factory=Summary)
    judged: list[Judged] = field(default_factory=list)
    records: list[Record | None] = field(default_factory=list)
    #: reports made (for progress)
    reports: int = 0
    #: records the reader gave for the unit's range (the next range's numbers follow them)
    read: int = 0
    #: the range could not be read as cut (the file changed, a read error): its file ends there
    ended: bool = False
    #: the range's records reached the file's ``max_records``: its file ends there
    full: bool = False
    #: moves (and text) of the database range's records, for the file's budget
    moves: int = 0
    #: the database range was not read as the whole file would be (damage, a bound, bytes
    #: that are not UTF-8...): the file is read whole from the range's first record on
    trouble: bool = False


def judge_unit(unit: Unit, settings: Settings, rendering: Rendering) -> Done:
    """Read and judge ``unit`` (on a worker); never raises on bad input."""
    _tune_collector()
    sink = Sink(rendering)
    for part in unit.parts:
        for item in read_part(part, settings, sink.done):
            sink.add(judge_one(item, settings), item)
    for item in unit.records:
        sink.add(judge_one(item, settings), item)
    return sink.finish()


class Sink:
    """Collects the judged reports of a unit as ``rendering`` asks (also used by the client for
    what it judges itself)."""

    def __init__(self, rendering: Rendering) -> None:
        self.rendering = rendering
        self.done = Done()
        self.buffer = io.StringIO()
        self.renderer: Renderer | None = None
        if rendering.fmt is not None:
            from renju_cli.output.json import JsonLinesRenderer
            from renju_cli.output.text import TextRenderer

            if rendering.fmt == "text":
                self.renderer = TextRenderer(self.buffer, rendering.quiet, rendering.color)
            else:
                self.renderer = JsonLinesRenderer(self.buffer)

    def add(self, judged: Judged, item: Record | GameReport | None = None) -> None:
        """One record's report, as the batch reports it."""
        done = self.done
        done.reports += 1
        if self.renderer is None:
            done.judged.append(judged)
            if self.rendering.records:
                done.records.append(item if isinstance(item, Record) else None)
            return
        report = judged.report
        rendering = self.rendering
        if rendering.select or rendering.ignore:
            report.findings = filter_findings(
                report.findings, report.unreadable, rendering.select, rendering.ignore
            )
        done.summary.add(report)
        self.renderer.record(report)

    def finish(self) -> Done:
        """What was collected."""
        self.done.text = self.buffer.getvalue()
        return self.done


@functools.cache
def _tune_collector() -> None:
    """Collect cycles less often in a worker process, as ``renju`` does in its own
    (``cli.entry.tune_gc``): judging allocates a few dozen short-lived objects a record.  Only
    in a process started for the work (a Dask nanny's worker): a worker thread in someone
    else's process (an in-process cluster, a test) leaves its collector alone."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)


# -- reading a part -------------------------------------------------------------------------------
def read_part(part: Part, settings: Settings, done: Done) -> Iterator[Record | GameReport]:
    """The records of ``part``, numbered as in their file; what ends the file is noted in
    ``done``."""
    if part.length is not None:
        return _range_records(part, settings, done)
    if part.first_index:  # (the rest of a database cut into ranges)
        whole = dataclasses.replace(part, first_index=0)
        records = read_part(whole, settings, done)
        return (r for r in records if r.source.index >= part.first_index)
    if part.data is not None:
        return _guarded(_data_records(part.data, part, settings), part.path, settings)
    if is_url(part.path):
        return _url_records(part, settings)
    if not os.path.lexists(part.path):  # (on a cluster: most likely a storage not shared)
        return iter([unreadable(part.path, _unseen(part.path, "No such file or directory"))])
    return read_file(part.path, part.fmt, part.options, settings)


def _unseen(path: str, reason: str) -> str:
    """What a record says of a file that the worker cannot open."""
    return (
        f"cannot open on the worker ({socket.gethostname()}): {reason}; the workers read the "
        "files where renju finds them (shared storage), or are sent their bytes "
        "(--dask-ship-bytes)"
    )


def _data_records(data: bytes, part: Part, settings: Settings) -> Iterator[Record]:
    """The records of a whole file's bytes, read as ``inputs.read_path`` reads the file."""
    if not data:
        yield unreadable(part.path, EMPTY_FILE)
        return
    sized = (part.options or ReadOptions()).for_file(len(data))
    stream = io.BufferedReader(io.BytesIO(data))
    records = formats.read_stream(stream, part.path, part.fmt, sized)
    yield from limits.bound_walks(records, sized, functools.partial(walk_key, settings))


def _url_records(part: Part, settings: Settings) -> Iterator[Record | GameReport]:
    """The records of a file named by an fsspec URL, read whole."""
    try:
        data = _fetch(part.path)
    except Exception as e:  # whatever the filesystem raises: the file is not read
        yield unreadable(part.path, f"cannot read {part.path}: {why(e)}")
        return
    yield from _guarded(_data_records(data, part, settings), part.path, settings)


def _fetch(url: str, start: int | None = None, end: int | None = None) -> bytes:
    """The bytes of ``url`` (from ``start`` to ``end``), through fsspec."""
    import fsspec  # type: ignore[import-untyped, unused-ignore]

    fs, path = fsspec.core.url_to_fs(url)
    data = fs.cat_file(path, start=start, end=end)
    return bytes(data)


def _guarded(
    records: Iterator[Record],
    path: str,
    settings: Settings,
    index: int = 0,
    rest: str = "; the rest of the file is not checked",
) -> Iterator[Record | GameReport]:
    """``records``; a bug in a reader ends them with an unreadable report that says so
    (``tasks.read_file`` does the same for a file it opens, ``read_slice`` for a slice)."""
    count = 0
    try:
        for record in records:
            count += 1
            yield record
    except Exception as e:  # a bug in a reader: report it, go on with the next part
        lost = Record(moves=[], source=SourceLocation(path, index + count), format="unknown")
        message = f"reading stopped here: {why(e)}{rest}"
        report = failed_report(lost, settings, message)
        report.unreadable = True
        yield report


def _range_records(part: Part, settings: Settings, done: Done) -> Iterator[Record | GameReport]:
    """The records of a range, numbered from ``first_index``, up to the file's bound on
    records; a range whose bytes are not those cut ends its file with a record that says so."""
    assert part.length is not None and part.fmt is not None and part.options is not None
    options = dataclasses.replace(part.options, first_line=part.first_line)
    with contextlib.ExitStack() as stack:
        stream, problem = _range_stream(part, stack)
        if stream is None:
            done.ended = True
            yield unreadable(part.path, problem, index=part.first_index, line=part.first_line)
            return
        if part.head:
            data = stream.read()
            read = database_range(data[: part.head], data[part.head :], part, done)
        else:
            read = formats.load(part.fmt).read(stream, part.path, options)
        records = formats.bound_events(read, options)
        walks = limits.bound_walks(records, options, functools.partial(walk_key, settings))
        done.read = yield from _numbered(walks, part, settings, done, options)


def _numbered(
    records: Iterator[Record],
    part: Part,
    settings: Settings,
    done: Done,
    options: ReadOptions,
) -> Generator[Record | GameReport, None, int]:
    """The records of a range numbered from its first, up to the file's bound; how many
    numbers they took."""
    n = part.first_index
    # (a bug in the reader ends the range, not the file: the next range is read as cut)
    for record in _guarded(records, part.path, settings, n, rest=""):
        if isinstance(record, GameReport):
            n += 1  # (it takes a number, as the report of a slice that fails with --jobs)
            yield record
            break
        if n >= options.max_records:  # where the reader of the whole file stops
            done.full = True
            n += 1  # (what may end the file after it is numbered after it)
            yield too_many_records(part.path, n - 1, record.source.line, options)
            break
        record.source = dataclasses.replace(record.source, index=n)
        n += 1
        yield record
    return n - part.first_index


def _range_stream(part: Part, stack: contextlib.ExitStack) -> tuple[BinaryIO | None, str]:
    """The bytes of a range as a stream, or ``None`` and what is wrong with them.  A range of
    a local file is read twice, its checksum first, so that memory does not grow with it (a
    record of many lines is one range); a database's head and range, or a URL's, are held."""
    assert part.length is not None
    changed = (
        f"{CHANGED}: its lines from {part.first_line} on are not checked (they are not the "
        "bytes it was cut into)"
    )
    if part.data is not None:
        return io.BufferedReader(io.BytesIO(part.data)), ""
    try:
        if is_url(part.path) or part.head:
            data = _head_and_range(part)
            if len(data) != part.head + part.length or zlib.crc32(data) != part.checksum:
                return None, changed
            return io.BufferedReader(io.BytesIO(data)), ""
        raw = stack.enter_context(open(part.path, "rb", buffering=0))  # noqa: SIM115
        if _crc32_at(raw.fileno(), part.offset, part.length) != (part.length, part.checksum):
            return None, changed
        raw.seek(part.offset)
        return io.BufferedReader(Window(raw, part.length)), ""
    except FileNotFoundError as e:
        return None, _unseen(part.path, e.strerror or str(e))
    except OSError as e:
        return None, f"read error: {e.strerror or e}"
    except Exception as e:  # an fsspec filesystem's own errors
        return None, f"read error: {why(e)}"


def _head_and_range(part: Part) -> bytes:
    """The bytes of a database's head and of the range, or of a URL's range."""
    assert part.length is not None
    if is_url(part.path):
        head = _fetch(part.path, 0, part.head) if part.head else b""
        return head + _fetch(part.path, part.offset, part.offset + part.length)
    return _pread(part.path, 0, part.head) + _pread(part.path, part.offset, part.length)


def _crc32_at(fd: int, offset: int, length: int) -> tuple[int, int]:
    """How many of the ``length`` bytes from ``offset`` the file holds, and their CRC-32."""
    crc = read = 0
    while read < length:
        piece = os.pread(fd, min(length - read, 1 << 20), offset + read)
        if not piece:
            break
        crc = zlib.crc32(piece, crc)
        read += len(piece)
    return read, crc


def _pread(path: str, offset: int, length: int) -> bytes:
    """``length`` bytes of the file ``path`` from ``offset`` (fewer at its end)."""
    pieces = []
    with open(path, "rb", buffering=0) as raw:
        fd = raw.fileno()
        while length > 0:
            piece = os.pread(fd, min(length, 1 << 30), offset)
            if not piece:
                break
            pieces.append(piece)
            offset += len(piece)
            length -= len(piece)
    return b"".join(pieces)


# -- a range of a database's games ----------------------------------------------------------------
def database_range(head: bytes, body: bytes, part: Part, done: Done) -> Iterator[Record]:
    """The games of a range of a RenjuNet database (``body``, whole ``<game>`` elements), read
    after the file's ``head`` (its tables, up to the first game) by the database's own reader,
    its lines and record numbers those of the file.  Anything the reader of the whole file
    might read otherwise (damage, a bound reached, bytes that are not clean UTF-8, tables
    among the games) sets ``done.trouble``: the client then has the file read whole."""
    from renju_cli.formats.renjunet import parse
    from renju_cli.formats.renjunet.recoder import Recoder
    from renju_cli.formats.renjunet.source import Pos, Source

    assert part.options is not None
    target = _tables_read(head, part)
    enclosing = target.open_elements() if target is not None else None
    if target is None or not enclosing:
        done.trouble = True
        return
    tables = _tables(target)
    prefix = "".join(f"<{e.qname}{e.declared}>" for e in enclosing)
    closing = "".join(f"</{e.qname}>" for e in reversed(enclosing)).encode()
    target.recoder = recoder = Recoder(io.BytesIO(body + closing), target.recoder.encoding)
    source = Source(recoder.chunks(), part.options.max_file)
    # (a range starts a line: no CR; its bytes are counted from its start, so that the
    # reader's own bound on moves holds it to the budget of its bytes: the client checks the
    # ranges before it against theirs)
    start = Pos(0, part.first_line, 0, False)
    parser = parse.make_parser(target)
    target.restart(parser, start, prefix)
    target.index = part.first_index
    source.kept_pos = start
    source.prefix = prefix.encode()
    end = None
    while end is None:
        end = parse.feed_next(parser, source, target)
        yield from target.take()
    done.moves = target.emitted
    changed = _tables(target) != tables
    done.trouble = bool(end or recoder.notes or recoder.replaced) or changed


def _tables_read(head: bytes, part: Part) -> Any:
    """The reader's target once it read the database's head (``None``: the head has damage,
    bytes that are not clean UTF-8, or a game)."""
    from renju_cli.formats.renjunet import parse
    from renju_cli.formats.renjunet.recoder import Recoder
    from renju_cli.formats.renjunet.target import Target

    assert part.options is not None
    parse.load_xml()
    recoder = Recoder(io.BytesIO(head), part.options.encoding)
    target = Target(part.path, part.options, recoder)
    parser = parse.make_parser(target)
    try:
        for chunk in recoder.chunks():
            parser.feed(chunk)
    except Exception:  # the reader of the whole file says what is wrong
        return None
    if target.index or target.game is not None or recoder.notes or recoder.replaced:
        return None
    return target


def _tables(target: Any) -> tuple[object, ...]:
    """What a database's tables hold, to see whether a range changed them (an entry's
    attributes are never changed in place: one read again replaces it)."""
    tables = target.tables
    entries = {name: dict(table) for name, table in tables.entries.items()}
    return entries, frozenset(tables.seen), frozenset(tables.overflow)
