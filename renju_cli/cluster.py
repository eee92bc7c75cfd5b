"""A batch judged on a Dask cluster (``renju check --dask``): one client feeds many workers.

The client cuts the inputs into units that name their data (``renju_cli.units``): a group of
small files, a big file of a format read whole, or a byte range of whole records of a big
move-list or JSON Lines file.  To cut a line-based file it reads its lines once, without
parsing them: a range ends where the format's reader starts a record, and the client counts
those starts, so that each range knows the number of its first record and the workers number
theirs as the reader of the whole file does.  The workers read their units from the storage
they share with the client, parse and judge them, and send back the reports rendered (text or
JSON Lines) with their counts; the client writes them in input order.  The outputs that need
the reports themselves (JSON Lines framed as one JSON document aside: the JUnit, GitHub and
SARIF formats, ``--duplicates``, ``--record``, ``--html``) get them back pickled instead.

Faults.  A unit is pure: when its worker dies, Dask runs it again elsewhere, and the result is
the same, so no record is lost or judged twice.  A unit whose workers keep dying (Dask's
``KilledWorker``) is read by the client and judged again one record at a time, each alone, so
that only the record that kills its worker is reported (as with ``--jobs``).  A range whose
bytes are not those cut (the file changed) ends its file with a record that says so; a range
that holds other than the records counted is judged again with the right numbers.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import glob
import io
import mmap
import os
import re
import stat
import uuid
import zlib
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from renju_cli import formats
from renju_cli.batch import LINE_FORMATS, SMALL_FILE_BYTES, Batch, LineCutter
from renju_cli.duplicates import DuplicateIndex
from renju_cli.formats import ReadOptions, no_record_message, unreadable
from renju_cli.inputs import InputError, Window, changed_while_read, file_head
from renju_cli.limits import HUGE
from renju_cli.output.base import Renderer
from renju_cli.record import Record
from renju_cli.report import GameReport, Summary
from renju_cli.tasks import Judged, failed_report, judge_one, read_file, why
from renju_cli.units import Done, Part, Rendering, Sink, Unit, is_url, judge_unit, read_part

#: Bytes of input per unit, at least and at most.  A unit of 1 MiB of move lists is about a
#: second of judging: the client's cost of a unit (a few milliseconds) and the scheduler's are
#: then small beside it.  Bigger units cost the workers memory (a unit's bytes, and its
#: rendered reports, about twice as many) and make the last of a batch longer to wait for.
MIN_UNIT_BYTES = 256 << 10
MAX_UNIT_BYTES = 8 << 20
#: Units each worker gets of a batch at least, when its inputs are big enough: the workers
#: finish close together.
UNITS_PER_WORKER = 16
#: Small files in one unit, at most.
FILES_PER_UNIT = 512
#: Units in flight per worker thread: results are taken in input order, and a worker that
#: finished the units after one still being judged (on a worker the machine holds back) goes
#: on with the next ones.
UNITS_IN_FLIGHT = 4


class ClusterLost(Exception):
    """The Dask scheduler was lost in the middle of the batch."""


def unit_bytes(total: int, workers: int) -> int:
    """The bytes of input per unit for a batch of ``total`` bytes on ``workers`` workers."""
    share = total // max(1, workers * UNITS_PER_WORKER)
    return min(MAX_UNIT_BYTES, max(MIN_UNIT_BYTES, share))


@dataclass
class _Step:
    """A unit for the workers, or records judged here (an input that cannot be read, standard
    input, what ends a file cut into ranges), with how far the inputs were read."""

    unit: Unit | None = None
    items: Iterable[Record | GameReport] = ()
    #: the input cut into ranges that the step belongs to (its numbering, and whether it ended)
    input_no: int | None = None
    #: the record that ends a file cut into ranges (it changed while read): numbered after them
    renumber: bool = False
    read_bytes: int = 0


@dataclass
class _Ranged:
    """A file cut into ranges, as its ranges come back: the number of its next record, and
    whether it ended (a range that could not be read as cut, or its bound on records)."""

    max_records: int
    next: int = 0
    #: a database's: the moves of its ranges so far, against the file's budget
    moves: int = 0
    #: a range could not be read as cut: nothing more of the file is reported
    ended: bool = False
    #: a range reached the bound on records: no later range is reported (a change is)
    full: bool = False


@dataclass
class ClusterBatch(Batch):
    """A :class:`~renju_cli.batch.Batch` judged on a Dask cluster: ``client`` is a
    ``distributed.Client``.  The output is that of ``--jobs 1``, byte for byte.

    ``ship_bytes``: units carry their files' bytes, for workers that cannot read the files.
    ``unit_bytes``: bytes of input per unit (by default, from the inputs' size and the
    workers', see :func:`unit_bytes`).  ``pending``: units in flight (by default
    ``UNITS_IN_FLIGHT`` a worker thread).
    """

    client: Any = None
    ship_bytes: bool = False
    unit_bytes: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._ranged: dict[int, _Ranged] = {}
        self._token = uuid.uuid4().hex[:12]
        self._files = 0  # inputs planned so far

    # -- what the caller iterates or asks for -----------------------------------------------
    def run(self) -> Generator[tuple[Record | None, GameReport], None, None]:
        """The reports in input order, as ``Batch.run`` gives them (the records too, when
        ``read_in_workers`` is false)."""
        index = DuplicateIndex()
        done_records = 0
        rendering = Rendering(records=not self.read_in_workers)
        for step, done in self._results(rendering):
            records: Iterable[Record | None] = done.records or [None] * len(done.judged)
            for judged, record in zip(done.judged, records, strict=True):
                report = self._reported(judged, index)
                if report is not None:
                    yield record, report
            done_records += done.reports
            if self.progress is not None:
                self.progress(done_records, step.read_bytes)

    def rendered(self, renderer: Renderer) -> bool:
        """Write every report into ``renderer`` as the workers rendered it, and count them in
        ``summary``; ``False`` (nothing done) when its format, ``--duplicates`` or
        ``read_in_workers`` need the reports themselves (iterate :meth:`run`)."""
        from renju_cli.output.json import JsonLinesRenderer, JsonRenderer
        from renju_cli.output.text import TextRenderer

        if self.duplicates != "off" or not self.read_in_workers:
            return False
        if type(renderer) is TextRenderer:
            fmt, color = "text", renderer.color
        elif type(renderer) in (JsonLinesRenderer, JsonRenderer):
            fmt, color = "jsonl", False
        else:
            return False
        rendering = Rendering(fmt, renderer.quiet, color, self._select, self._ignore)
        write = _json_list(renderer) if type(renderer) is JsonRenderer else renderer.out.write
        done_records = 0
        for step, done in self._results(rendering):
            _add(self.summary, done.summary)
            if done.text:
                write(done.text)
            done_records += done.reports
            if self.progress is not None:
                self.progress(done_records, step.read_bytes)
        return True

    # -- units in flight, results in order --------------------------------------------------
    def _results(self, rendering: Rendering) -> Iterator[tuple[_Step, Done]]:
        workers = max(1, sum(self.client.nthreads().values()))
        pending = self.pending or UNITS_IN_FLIGHT * workers
        size = self.unit_bytes or unit_bytes(self.total_bytes(), workers)
        queue: deque[tuple[_Step, Any]] = deque()
        steps = iter(_Plan(self, size).steps())
        try:
            while True:
                while len(queue) < pending:
                    step = next(steps, None)
                    if step is None:
                        break
                    queue.append((step, self._submit(step.unit, rendering)))
                if not queue:
                    return
                step, future = queue.popleft()
                done = self._take(step, future, rendering)
                if done is not None:
                    yield step, done
        finally:
            futures = [future for _, future in queue if future is not None]
            if futures:
                with contextlib.suppress(Exception):
                    self.client.cancel(futures)

    def _submit(self, unit: Unit | None, rendering: Rendering, key: str = "") -> Any:
        if unit is None:
            return None
        part = unit.ranged()
        start = part.first_index if part is not None else 0
        name = f"renju-unit-{self._token}-{unit.number}-{start}{key}"
        return self.client.submit(judge_unit, unit, self.settings, rendering, key=name, pure=False)

    def _take(self, step: _Step, future: Any, rendering: Rendering) -> Done | None:
        """The result of ``step`` (``None``: nothing to report, its file ended before it)."""
        ranged = self._ranged.get(step.input_no) if step.input_no is not None else None
        if ranged is not None and (ranged.ended or (ranged.full and step.unit is not None)):
            if future is not None:
                future.cancel()
            return None
        if step.unit is None:
            return self._here(step, ranged, rendering)
        part = step.unit.ranged()
        if ranged is None or part is None:
            return self._result(step.unit, future, rendering)
        return self._range(step.unit, part, ranged, future, rendering)

    def _range(
        self, unit: Unit, part: Part, ranged: _Ranged, future: Any, rendering: Rendering
    ) -> Done:
        """The result of a range, numbered after the ranges before it."""
        if part.first_index != ranged.next:
            # the ranges before held other than the records counted: number this one anew
            future.cancel()
            part = dataclasses.replace(part, first_index=ranged.next)
            unit = dataclasses.replace(unit, parts=(part,))
            future = self._submit(unit, rendering, "-again")
        done = self._result(unit, future, rendering)
        assert part.options is not None
        # (the range kept to the budget of its own bytes; those before it, to theirs)
        within = ranged.moves <= part.options.moves_per_byte * part.offset
        if part.head and (done.trouble or not within):
            # a range of a database read otherwise than the whole file would be: the rest is
            # read whole (later ranges, and what ends the file, are its reader's)
            ranged.ended = True
            return self._rest(unit.number, part, ranged.next, rendering)
        ranged.next += done.read
        ranged.moves += done.moves
        ranged.ended, ranged.full = done.ended, done.full
        return done

    def _rest(self, number: int, part: Part, first: int, rendering: Rendering) -> Done:
        """A file read whole, its records from number ``first`` on."""
        data = _whole(part.path) if self.ship_bytes else None
        rest = Part(part.path, self.fmt, self.options, first_index=first, data=data)
        unit = Unit(number, (rest,))
        return self._result(unit, self._submit(unit, rendering, "-rest"), rendering)

    def _here(self, step: _Step, ranged: _Ranged | None, rendering: Rendering) -> Done:
        """Judge the records of a step here."""
        sink = Sink(rendering)
        for item in step.items:
            if step.renumber and ranged is not None:
                index = min(ranged.next, ranged.max_records + 1)
                item.source = dataclasses.replace(item.source, index=index)
            sink.add(judge_one(item, self.settings), item)
        return sink.finish()

    def _result(self, unit: Unit, future: Any, rendering: Rendering) -> Done:
        try:
            done: Done = self._gather(future)
            return done
        except Exception as e:
            if future.status != "error":  # cancelled: the scheduler is gone
                raise ClusterLost(f"the Dask cluster was lost: {why(e)}") from None
            return self._isolate(unit, e, rendering)

    def _gather(self, future: Any) -> Any:
        """The result of ``future``, fetched from its worker (not through the scheduler, which
        would then carry every report: unless Dask's configuration says otherwise)."""
        direct = self.client.direct_to_workers
        return self.client.gather(future, direct=True if direct is None else direct)

    def _isolate(self, unit: Unit, error: Exception, rendering: Rendering) -> Done:
        """Judge a unit that failed again, each of its records alone on the cluster (the client
        reads them), so that only a record that kills its worker is reported."""
        sink = Sink(rendering)
        alone = Rendering(records=False)
        items: list[Record | GameReport] = list(unit.records)
        for part in unit.parts:
            items.extend(read_part(part, self.settings, sink.done))
        for n, item in enumerate(items):
            if isinstance(item, GameReport):  # never judged, so never fails
                sink.add(judge_one(item, self.settings), item)
                continue
            future = self._submit(Unit(unit.number, records=(item,)), alone, f"-alone-{n}")
            try:
                judged: Judged = self._gather(future).judged[0]
            except Exception as e:
                if future.status != "error":
                    raise ClusterLost(f"the Dask cluster was lost: {why(e)}") from None
                message = f"the worker judging this record stopped: {_stopped(e)}"
                judged = Judged(failed_report(item, self.settings, message))
            sink.add(judged, item)
        return sink.finish()


def _stopped(e: Exception) -> str:
    """Why a worker stopped, in words that do not change from run to run (Dask's own message
    names the workers' addresses)."""
    if type(e).__name__ == "KilledWorker":
        return "KilledWorker: every worker that judged it died (a crash, or out of memory)"
    return why(e)


def _json_list(renderer: Renderer) -> Callable[[str], None]:
    """How JSON Lines are written into a JSON renderer's list of records."""

    def write(text: str) -> None:
        lines = text[:-1].split("\n")
        head = "," if renderer.count else ""  # type: ignore[attr-defined]
        renderer.out.write(head + "\n" + ",\n".join(lines))
        renderer.count += len(lines)  # type: ignore[attr-defined]

    return write


def _add(total: Summary, part: Summary) -> None:
    """Count into ``total`` the records ``part`` counted (the batch's own counts aside)."""
    total.records += part.records
    total.unreadable += part.unreadable
    total.internal_errors += part.internal_errors
    total.with_findings += part.with_findings
    total.openings.update(part.openings)
    total.by_kind.update(part.by_kind)
    total.outcomes.update(part.outcomes)


# -- which inputs ---------------------------------------------------------------------------------
def expand_inputs(
    paths: Iterable[str], include: Iterable[str] = (), exclude: Iterable[str] = ()
) -> Iterator[str | InputError]:
    """``inputs.expand_inputs`` for a cluster: paths as it expands them, and fsspec URLs
    (``s3://bucket/games/``, ``gs://.../*.rif``, ``file:///...``) expanded by their
    filesystem (a directory recursed, a pattern matched, in name order), for the workers to
    read.  A URL needs fsspec and the filesystem's package (s3fs, gcsfs...) here and on the
    workers."""
    from renju_cli.inputs import expand_inputs as expand_paths

    local: list[str] = []
    for raw in paths:
        if not is_url(raw):
            local.append(raw)
            continue
        yield from expand_paths(local, include, exclude)
        local = []
        yield from _urls(raw, tuple(include), tuple(exclude))
    yield from expand_paths(local, include, exclude)


def _urls(
    url: str, include: tuple[str, ...], exclude: tuple[str, ...]
) -> Iterator[str | InputError]:
    """The files a URL names."""
    import fnmatch

    try:
        import fsspec  # type: ignore[import-untyped, unused-ignore]

        fs, path = fsspec.core.url_to_fs(url)
        if glob.has_magic(path):
            found = [p for p in fs.glob(path) if not fs.isdir(p)]
        elif fs.isdir(path):
            found = list(fs.find(path))
        else:
            found = [path] if fs.exists(path) else []
    except Exception as e:  # fsspec missing, a filesystem not installed, no access...
        yield InputError(url, f"cannot list: {why(e)}")
        return
    if not found:
        yield InputError(url, "no such file or directory")

    def wanted(p: str) -> bool:
        name = p.rsplit("/", 1)[-1]
        if include and not any(fnmatch.fnmatch(name, i) or fnmatch.fnmatch(p, i) for i in include):
            return False
        return not any(fnmatch.fnmatch(name, e) or fnmatch.fnmatch(p, e) for e in exclude)

    for p in sorted(found):
        if wanted(p):
            yield fs.unstrip_protocol(p)


# -- cutting the inputs into units --------------------------------------------------------------
class _Plan:
    """The steps of a batch, in input order: the inputs cut into units as they are needed."""

    def __init__(self, batch: ClusterBatch, size: int) -> None:
        self.batch = batch
        self.size = size
        self.numbers = iter(range(1 << 62))
        self.group: list[Part] = []
        self.group_bytes = 0
        self.read = 0  # bytes of the inputs read or named so far (progress)

    def steps(self) -> Iterator[_Step]:
        batch = self.batch
        for input_no, entry in enumerate(batch.inputs):
            batch.summary.files += 1
            if isinstance(entry, InputError):
                yield from self.flush()
                yield _Step(items=[unreadable(entry.path, entry.message)], read_bytes=self.read)
            elif entry == "-":
                yield from self.flush()
                items = read_file("-", batch.fmt, batch.options, batch.settings, self._count)
                yield _Step(items=items, read_bytes=self.read)
            elif is_url(entry):
                yield from self.flush()
                yield self._unit((Part(entry, batch.fmt, batch.options),))
            else:
                yield from self._file(entry, input_no)
        yield from self.flush()

    def _count(self, n: int) -> None:
        self.read += n

    def _unit(self, parts: tuple[Part, ...], input_no: int | None = None) -> _Step:
        return _Step(Unit(next(self.numbers), parts), input_no=input_no, read_bytes=self.read)

    def flush(self) -> Iterator[_Step]:
        """The unit of the small files gathered so far."""
        if self.group:
            yield self._unit(tuple(self.group))
            self.group, self.group_bytes = [], 0

    def _file(self, path: str, input_no: int) -> Iterator[_Step]:
        batch = self.batch
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            st = None
        if st is None or not stat.S_ISREG(st.st_mode):
            # a pipe (``<(zcat games.gz)``) or a device is read once, here; what cannot be
            # opened is said as with --jobs 1
            yield from self.flush()
            items = read_file(path, batch.fmt, batch.options, batch.settings, self._count)
            yield _Step(items=items, read_bytes=self.read)
        elif st.st_size <= SMALL_FILE_BYTES:
            data = _whole(path) if batch.ship_bytes else None
            self.group.append(Part(path, batch.fmt, batch.options, data=data))
            self.group_bytes += st.st_size
            self.read += st.st_size
            if self.group_bytes >= self.size or len(self.group) >= FILES_PER_UNIT:
                yield from self.flush()
        else:
            yield from self.flush()
            yield from self._big(path, input_no)

    def _big(self, path: str, input_no: int) -> Iterator[_Step]:
        """A big file: cut into ranges when its records are lines, else one unit."""
        batch = self.batch
        try:
            raw = open(path, "rb", buffering=0)  # noqa: SIM115 - closed below
        except (OSError, ValueError):
            yield self._unit((Part(path, batch.fmt, batch.options),))  # the worker says why
            return
        with raw:
            opened = os.fstat(raw.fileno())
            stream = io.BufferedReader(Window(raw, opened.st_size))
            head = stream.peek(formats.HEAD_BYTES)[: formats.HEAD_BYTES]
            fmt = batch.fmt or formats.detect(head, path)
            if fmt == "renjunet" and formats.recoding(head) is None:
                cuts = _database_cuts(raw.fileno(), opened.st_size, self.size, batch.options)
                if cuts is not None:
                    yield from self._database(path, opened, cuts, input_no)
                    return
            if fmt not in LINE_FORMATS or formats.recoding(head) is not None:
                # (a file recoded as it is read, UTF-16 or CR line ends, is read whole)
                data = _whole(path) if batch.ship_bytes else None
                self.read += opened.st_size
                yield self._unit((Part(path, batch.fmt, batch.options, data=data),))
                return
            assert fmt is not None
            yield from self._ranges(stream, path, fmt, opened, input_no)

    def _ranges(
        self,
        stream: io.BufferedReader[Window],
        path: str,
        fmt: str,
        opened: os.stat_result,
        input_no: int,
    ) -> Iterator[_Step]:
        """A line-based file cut into ranges of whole records (as ``Batch._cut`` cuts slices
        for ``--jobs``); what ends it (a read error, a change while it was read) after them."""
        batch = self.batch
        options = formats.text_options(batch.options or ReadOptions())
        options = options.for_file(opened.st_size).for_format(fmt)
        self.batch._ranged[input_no] = ranged = _Ranged(options.max_records)
        cutter = _Cutter(path, fmt, options, self.size, batch.ship_bytes)
        opened_head = file_head(stream.fileno())
        failure: OSError | None = None
        changed: Record | None = None
        try:
            for part in cutter.parts(stream):
                self.read += part.length or 0
                yield self._unit((part,), input_no)
            changed = changed_while_read(path, opened, stream.fileno(), opened_head, 0)
        except OSError as e:  # a disk error: the whole lines before it are checked
            failure = e
            cutter.drop_broken_line()
        if cutter.any_record:
            part = cutter.cut()
            self.read += part.length or 0
            yield self._unit((part,), input_no)
        elif not cutter.any_record and failure is None:
            ranged.next = 1  # (the file's one record: "no record found")
            yield _Step(items=[unreadable(path, no_record_message(fmt))], read_bytes=self.read)
        if changed is not None:
            yield _Step(items=[changed], input_no=input_no, renumber=True, read_bytes=self.read)
        if failure is not None:
            message = f"read error: {failure.strerror or failure}"
            yield _Step(items=[unreadable(path, message)], read_bytes=self.read)

    def _database(
        self, path: str, opened: os.stat_result, cuts: _Cuts, input_no: int
    ) -> Iterator[_Step]:
        """A database cut into ranges of whole games, each read after its tables."""
        batch = self.batch
        options = (batch.options or ReadOptions()).for_file(opened.st_size)
        self.batch._ranged[input_no] = _Ranged(options.max_records)
        first = 0
        for offset, length, line, games, checksum in cuts.ranges:
            data = None
            if batch.ship_bytes:
                data = _bytes_at(path, 0, cuts.head) + _bytes_at(path, offset, length)
            part = Part(
                path, "renjunet", options, offset, length, line, first, games, checksum, data,
                cuts.head,
            )  # fmt: skip
            first += games
            self.read = offset + length
            yield self._unit((part,), input_no)
        self.read = opened.st_size


def _bytes_at(path: str, offset: int, length: int) -> bytes:
    """``length`` bytes of the file ``path`` from ``offset``."""
    with open(path, "rb", buffering=0) as raw:
        return os.pread(raw.fileno(), length, offset)


@dataclass
class _Cuts:
    """A database cut into ranges: its head's length (the tables, up to the first game), and
    each range's offset, length, first line, games counted and CRC-32 (of the head and it)."""

    head: int
    ranges: list[tuple[int, int, int, int, int]]


#: The XML declaration's encoding, when it names one.
_DECLARED = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")
#: What may follow the last game: the end tags of the elements around the games.
_TAIL = re.compile(rb"\s*</games>\s*</database>\s*")
#: Bytes after the last game, at most.
_TAIL_BYTES = 1024


def _database_cuts(fd: int, size: int, unit: int, options: ReadOptions | None) -> _Cuts | None:
    """Where a RenjuNet database may be cut: before a ``<game`` that starts a line after a game
    ends, in a file that its reader reads as its own bytes (UTF-8 or ASCII, no byte order mark,
    no CR) and whose games hold nothing that a game's start tag could hide in (comments, CDATA
    sections, processing instructions, declarations), its tables first and nothing after its
    games but their end tags.  ``None``: it is read whole.  One pass of ``bytes.find`` and
    ``count`` over the file (a gigabyte a second or so), with no parsing."""
    if size == 0:
        return None
    with mmap.mmap(fd, size, access=mmap.ACCESS_READ) as mm:
        view = memoryview(mm)
        try:
            return _cuts_in(mm, view, size, unit, options)
        finally:
            view.release()


def _cuts_in(
    mm: mmap.mmap, view: memoryview, size: int, unit: int, options: ReadOptions | None
) -> _Cuts | None:
    if not _own_bytes(mm, options):
        return None
    head = _game_line(mm, 0, size)
    last = mm.rfind(b"</game>")
    if head < 0 or last < head or size - last > _TAIL_BYTES:
        return None
    end = last + len(b"</game>")
    if not _TAIL.fullmatch(mm[end:]) or not _plain_games(mm, head, end):
        return None
    head_bytes = view[:head].tobytes()
    head_crc = zlib.crc32(head_bytes)
    ranges = []
    start, line = head, 1 + head_bytes.count(b"\n")
    while start < end:
        stop = _game_line(mm, start + unit, end)
        stop = end if stop < 0 else stop
        chunk = view[start:stop].tobytes()
        games = chunk.count(b"<game") - chunk.count(b"<games")
        ranges.append((start, stop - start, line, games, zlib.crc32(chunk, head_crc)))
        line += chunk.count(b"\n")
        start = stop
    return _Cuts(head, ranges)


def _own_bytes(mm: mmap.mmap, options: ReadOptions | None) -> bool:
    """Whether the database's reader reads its own bytes: UTF-8 (or ASCII), without a byte
    order mark or CR (its lines and offsets are then the file's)."""
    declared = _DECLARED.match(mm, 0, 512)
    encoding = declared.group(1).decode("ascii") if declared else (options and options.encoding)
    codec = formats.lookup_codec(encoding or "utf-8")
    if codec is None or codec.name not in ("utf-8", "ascii"):
        return False
    return mm[:3] != codecs.BOM_UTF8 and mm.find(b"\r") < 0


def _plain_games(mm: mmap.mmap, head: int, end: int) -> bool:
    """Whether nothing in the games (from ``head`` to ``end``) could hide a game's start tag
    or change how the rest reads: no comment, CDATA section, declaration or processing
    instruction; no entity declared in the tables."""
    return (
        mm.find(b"<!", head, end) < 0
        and mm.find(b"<?", head, end) < 0
        and (mm.find(b"<!ENTITY", 0, head) < 0)
    )


def _game_line(mm: mmap.mmap, start: int, end: int) -> int:
    """Where the first line from ``start`` on that starts with a game's start tag after the
    end of a game (or the tables) begins; -1: none before ``end``."""
    at = mm.find(b"\n<game", max(start - 1, 0), end)
    while at >= 0:
        after = mm[at + 6 : at + 7]
        before = mm[max(at - 64, 0) : at].rstrip(b" \t")
        if after in (b" ", b"\t", b">", b"/") and before.endswith((b">",)):
            return at + 1
        at = mm.find(b"\n<game", at + 1, end)
    return -1


def _whole(path: str) -> bytes | None:
    """The bytes of a file, for workers that cannot read it (``None``: it cannot be read here
    either, and the worker says why)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except (OSError, ValueError):
        return None


class _Cutter(LineCutter):
    """A line-based file cut into ranges of about ``size`` bytes, each ending where the format's
    reader starts a record; it counts the records it starts, so that each range knows the
    number of its first."""

    def __init__(self, path: str, fmt: str, options: ReadOptions, size: int, keep: bool) -> None:
        super().__init__(path, fmt, options, HUGE if keep else None)
        self.size = size
        self.first_index = self.records = 0  # the range's first record, and records begun in it

    def parts(self, stream: io.BufferedReader[Window]) -> Iterator[Part]:
        """The ranges before the last (``cut`` gives it)."""
        starts_record = formats.load(self.fmt).starts_record
        options = self.options
        bound = options.max_records
        for raw in iter(lambda: stream.readline(options.max_string + 1), b""):
            if self.line_start:
                if self.any_record:
                    if starts_record(raw, options):
                        if self.offset - self.start >= self.size:
                            yield self.cut()
                        self.records += 1
                elif starts_record(raw, options, after_record=False):
                    self.any_record = True
                    self.records = 1
                self.begin_line()
            self.add(raw)
            if self.first_index + self.records > bound and self.line_start:
                self.full = True  # (the record of number max_records: its first line is in)
                return

    def cut(self) -> Part:
        """The range of the lines read since the last, and a new one begun."""
        start, length, first, _, crc, data = self.take()
        part = Part(
            self.path,
            self.fmt,
            self.options,
            start,
            length,
            first,
            self.first_index,
            self.records,
            crc,
            data,
        )
        self.first_index += self.records
        self.records = 0
        return part
