"""Batches: judge many records in input order, on one core, a process pool or a cluster.

How work is split.  The parent process expands the inputs.  A **small file** (up to
:data:`SMALL_FILE_BYTES`) goes to a local worker by name: the worker reads and judges it whole,
so a directory of many small records costs the parent nothing but a listing.  A big file of
move lists or JSON Lines is **cut by the parent into slices of whole records** (raw lines, cut
only where a record starts) that the workers parse and judge: sending bytes costs nothing, while
a parsed record costs more to pickle than to judge.  Every other file is **read by the parent**,
streaming, and sent as **chunks of parsed records** (a chunk of a 100 000-game database needs no
worker to re-parse the file up to it), standard input alike.  (A cluster, ``--dask``, is
``renju_cli.cluster``'s: its workers read their share of the files themselves.)  Work units hold
:data:`CHUNK_RECORDS` records or small files; at most a few per worker are in flight, so memory
stays flat however big the batch is.

Order.  Chunks are numbered as they are cut and their results are handed out strictly in that
order, whatever order the workers finish in: the output of ``--jobs N`` is the output of
``--jobs 1``, byte for byte (the same readers run, and the reports come back through pickle,
which keeps every field).

Failures.  Judging one record is wrapped (:func:`judge_one`), and so is reading a file: a bug
becomes an ``internal-error`` finding and the batch goes on.  When a worker process dies (a
crash, the OOM killer), every chunk it may have taken is judged again one record at a time, each
alone on a fresh pool (a small file is then read by the parent), so that only the record that
kills its worker is reported and no record is lost or judged twice.

Any ``concurrent.futures.Executor`` can run the chunks (:class:`Batch` takes a factory of
them): a ``ProcessPoolExecutor`` for ``--jobs``, or any other a library caller passes.  The
functions sent to workers are top-level and their arguments pickle.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import io
import itertools
import os
import signal
import stat
import sys
import zlib
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from renju_cli import formats
from renju_cli.duplicates import DuplicateIndex, duplicate_finding
from renju_cli.formats import ReadOptions, no_record_message, too_many_records, unreadable
from renju_cli.inputs import InputError, Window, changed_while_read, file_head
from renju_cli.record import Record
from renju_cli.report import TOO_MANY, GameReport, Summary, filter_findings
from renju_cli.ruleset import Ruleset
from renju_cli.signals import HELD, signals_held
from renju_cli.tasks import (
    FileTask,
    Item,
    Judged,
    Settings,
    TextSlice,
    failed_report,
    judge_chunk,
    judge_one,
    read_file,
    read_slice,
    why,
)

if TYPE_CHECKING:
    # (imported where a pool or an executor is used: ``concurrent.futures`` and
    # ``multiprocessing`` pull in logging, pickle and sockets, which ``--jobs 1`` never needs)
    import concurrent.futures as cf

    from renju_cli.output.base import Renderer

#: Records per work unit: enough to make the cost of sending one small (a chunk is tens of
#: milliseconds of judging), few enough that small batches still spread over the workers.
CHUNK_RECORDS = 32
#: Chunks in flight per worker: one being judged, one waiting, so no worker idles.
PENDING_PER_WORKER = 2
#: Files up to this size are read by a local worker rather than by the parent.
SMALL_FILE_BYTES = 64 << 10

#: Formats whose records are lines.  A big file of them is cut into slices of whole records
#: that the workers parse themselves: raw bytes cost nothing to send, while parsed records cost
#: more to send (pickle) than to judge.
LINE_FORMATS = ("notation", "jsonl")
#: Bytes of a slice that go to the worker with it; a bigger slice (a long line or record) goes as
#: its place in the file, and the worker reads it (memory stays bounded, in flight too).
SLICE_DATA_BYTES = 64 << 10
#: ``source.index`` of the record that the slicer adds after a file's last slice: the parent
#: numbers it after the file's records.
UNNUMBERED = -1
#: Lines of a big line-based file per slice.
SLICE_LINES = 64

#: ``--duplicates`` modes.
DUPLICATE_MODES = ("off", "report", "skip")

ExecutorFactory = Callable[[], "cf.Executor"]


def _damaged(report: GameReport) -> bool:
    """Whether ``report`` says that its record could not be read whole: a ``parse-error``
    listed, or counted by its ``too-many-findings`` finding (past the run's bound on findings
    listed, a damaged copy lists none, and must not be skipped as a clean one)."""
    for f in report.findings:
        if f.code == "parse-error" or (f.code == TOO_MANY and "parse-error" in (f.counts or {})):
            return True
    return False


# -- executors ----------------------------------------------------------------------------------
def cpu_count() -> int:
    """The cores this process may run on (``--jobs 0``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _worker_init(parent: int | None = None) -> None:
    # Ctrl-C reaches the whole process group: the parent handles it and stops the pool;
    # a worker that also raised KeyboardInterrupt would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGHUP (a closed terminal, sent to the whole group): the parent ends the run and stops
    # the pool.  SIGTERM keeps its default: the pool itself ends a broken pool's workers with
    # it.  And a worker ends when the parent dies, however it dies (else it slept for ever,
    # holding the pipe a reader of the report waits on)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    # forked while the parent held them back (``_submit_held``): what came meanwhile is
    # ignored or ends the worker, as just set
    with contextlib.suppress(AttributeError, ValueError, OSError):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)
    _die_with_parent(parent)
    # What the worker inherited (modules, the parent's state when forked) lives as long as
    # it does: keep the garbage collector from walking it again after every chunk, and collect
    # young cycles less often (see ``renju_cli.cli.tune_gc``).
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def _die_with_parent(parent: int | None) -> None:
    """Ask Linux to kill this process when its parent ends (``prctl``'s ``PR_SET_PDEATHSIG``);
    elsewhere nothing: the pool's own pipes end the workers there."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):  # no libc to be found: the pipes still end them
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        if parent is not None and os.getppid() != parent:  # it died before the call
            os.kill(os.getpid(), signal.SIGKILL)


def _submit_held(
    executor: cf.Executor, items: Sequence[Item], settings: Settings
) -> cf.Future[Results]:
    """``executor.submit(judge_chunk, ...)`` with ``HELD`` signals held back until it returns:
    a submit may fork the pool's workers, and an exception a handler raises inside the
    interpreter's fork hooks is printed and dropped ("Exception ignored in: _releaseLock"):
    the run would go on as if never interrupted.  Held, the signal is handled once the
    submit is back, where its exception ends the run.  The threads
    the pool starts here inherit the mask: signals go to this one, as Python wants anyway."""
    with signals_held():
        return executor.submit(judge_chunk, items, settings)


def process_pool(jobs: int) -> ExecutorFactory:
    """A factory of process pools of ``jobs`` workers."""

    def make() -> cf.Executor:
        import concurrent.futures as cf

        return cf.ProcessPoolExecutor(
            max_workers=jobs, initializer=_worker_init, initargs=(os.getpid(),)
        )

    return make


def _stop(executor: cf.Executor, wait: bool = False) -> None:
    """Shut ``executor`` down; ``wait`` for its workers when nothing is left to cancel.

    Waiting matters at the normal end of a batch: a process pool left running while the
    interpreter exits races its own wake-up pipe and prints a traceback now and then
    ("Exception ignored ... Bad file descriptor").  An early stop (a closed pipe, Ctrl-C) does
    not wait.
    """
    try:
        executor.shutdown(wait=wait, cancel_futures=True)
    except TypeError:  # executors that predate cancel_futures (Dask's)
        executor.shutdown(wait=wait)


def _unblock_broken(executor: cf.Executor) -> None:
    """Let a process pool that lost a worker end: before Python 3.11.5 (and 3.12), its feeder
    thread could wait for ever to write work for the dead workers into a full pipe, and the
    interpreter waits for that thread at exit (CPython gh-94777, Debian's 3.11.2 among them: a
    run that lost a worker would never exit).  Closing this process's read end of that pipe,
    as later versions do, makes the write fail instead."""
    if _pool_closes_its_pipe():
        return  # (closing it twice, from two threads, could close a descriptor reused since)
    reader = getattr(getattr(executor, "_call_queue", None), "_reader", None)
    if reader is not None:
        with contextlib.suppress(OSError):
            reader.close()


@functools.cache
def _pool_closes_its_pipe() -> bool:
    """Whether this Python's process pool closes that pipe itself when it breaks (the fix of
    gh-94777); when its source cannot be read, it is left alone."""
    try:
        import inspect
        from concurrent.futures import process

        source = inspect.getsource(process._ExecutorManagerThread.terminate_broken)
    except (OSError, TypeError, AttributeError):
        return True
    return "_reader.close()" in source


#: Records of fewer moves than this on average are judged by the parent rather than sent to
#: a worker: sending a record and its report back through pickle costs more than judging it.
SEND_MOVES = 12
#: A slice of a move-list or JSON Lines file whose lines are shorter than this on average holds
#: records that small (a move is three bytes and a space).
SEND_LINE_BYTES = 4 * SEND_MOVES


def _worth_sending(items: Sequence[Item]) -> bool:
    """Whether a chunk is worth a worker: files always (the worker reads them), parsed records
    and slices of a line-based file only when their records are not tiny."""
    moves = records = 0
    for item in items:
        if isinstance(item, FileTask):
            return True
        if isinstance(item, TextSlice):
            if item.length >= SEND_LINE_BYTES * item.lines:
                return True
        elif isinstance(item, Record):
            moves += len(item.moves)
            records += 1
    return records > 0 and moves >= SEND_MOVES * records


@dataclass
class Chunk:
    """A unit of work: records and files in input order, and how far the input was read when
    it was cut."""

    items: list[Item]
    read_bytes: int = 0


Results = list[list[Judged]]  # per item of a chunk: its reports


class _Engine:
    """Runs chunks on an executor and hands their results out in chunk order."""

    def __init__(self, settings: Settings, factory: ExecutorFactory, pending: int) -> None:
        self.settings = settings
        self.factory = factory
        self.pending = max(1, pending)
        self.executor = factory()
        self.broken = False  # the current executor lost a worker

    def run(self, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Results]]:
        import concurrent.futures as cf

        # (chunk, its future, the executor it went to), oldest first
        queue: deque[tuple[Chunk, cf.Future[Results], cf.Executor]] = deque()
        source = iter(chunks)
        try:
            while True:
                while len(queue) < self.pending:
                    chunk = next(source, None)
                    if chunk is None:
                        break
                    queue.append((chunk, *self._submit(chunk.items)))
                if not queue:
                    return
                chunk, future, executor = queue.popleft()
                try:
                    results = future.result()
                except Exception as e:  # the worker died, or the engine lost the task
                    self.broken = isinstance(e, cf.BrokenExecutor) and executor is self.executor
                    results = [self._isolate(item) for item in chunk.items]
                    if self.broken:
                        self._renew()
                yield chunk, results
        finally:
            for _, future, _ in queue:
                future.cancel()
            if self.broken:
                _unblock_broken(self.executor)
            _stop(self.executor, wait=not queue)  # all done: let the workers end first

    def _submit(self, items: Sequence[Item]) -> tuple[cf.Future[Results], cf.Executor]:
        import concurrent.futures as cf

        if not _worth_sending(items):
            # judged here, now: a finished future keeps the chunk in its place in the order
            done: cf.Future[Results] = cf.Future()
            done.set_result(judge_chunk(items, self.settings))
            return done, self.executor
        try:
            return _submit_held(self.executor, items, self.settings), self.executor
        except cf.BrokenExecutor:  # a worker died: what it had taken is isolated when reached
            self._renew()
            return _submit_held(self.executor, items, self.settings), self.executor

    def _renew(self) -> None:
        _unblock_broken(self.executor)
        _stop(self.executor)
        self.executor = self.factory()
        self.broken = False

    def _isolate(self, item: Item) -> list[Judged]:
        """Judge one item of a failed chunk alone on the executor (a file: each of its records
        alone), so that only a record that kills its worker is reported."""
        import concurrent.futures as cf

        if self.broken:
            self._renew()
        try:
            return _submit_held(self.executor, [item], self.settings).result()[0]
        except Exception as e:
            self.broken = isinstance(e, cf.BrokenExecutor)
            stopped = why(e)
        if isinstance(item, FileTask):
            records = read_file(item.path, item.fmt, item.options, self.settings)
            return [j for r in records for j in self._isolate(r)]
        if isinstance(item, TextSlice):
            return [j for r in read_slice(item, self.settings) for j in self._isolate(r)]
        assert isinstance(item, Record)  # a GameReport is never judged, so never fails
        message = f"the worker judging this record stopped: {stopped}"
        return [Judged(failed_report(item, self.settings, message))]


# -- a batch ------------------------------------------------------------------------------------
@dataclass
class _Progress:
    bytes: int = 0

    def add(self, n: int) -> None:
        self.bytes += n


@dataclass
class Batch:
    """A ``check`` run over inputs, iterated for ``(record, report)`` in input order.

    ``inputs`` are what ``inputs.expand_inputs`` gives.  ``rules`` is the ruleset for every record
    (``None``: each record's own rule when shipped, else renju).  Each report has passed the
    duplicate check (``duplicates``: ``off``, ``report`` adds a ``duplicate`` finding, ``skip``
    leaves the record out) and the ``select``/``ignore`` filters, and is counted in ``summary``.

    ``record`` is ``None`` when the input could not be read into a record, or when a worker
    read it (``read_in_workers=False`` keeps every record here, e.g. for the HTML report).

    ``jobs`` > 1 judges on a process pool of that many workers; ``executor`` (a factory of
    ``concurrent.futures.Executor``) runs the chunks elsewhere, with ``pending`` chunks in
    flight; its workers get records, never file names (``renju_cli.cluster.ClusterBatch``
    judges on a Dask cluster whose workers read the files).  ``progress`` is
    called after each chunk with the records handed out and the input bytes read so far.
    """

    inputs: Sequence[str | InputError]
    rules: Ruleset | None = None
    fmt: str | None = None
    options: ReadOptions | None = None
    select: Iterable[str] = ()
    ignore: Iterable[str] = ()
    duplicates: str = "off"
    jobs: int = 1
    executor: ExecutorFactory | None = None
    pending: int | None = None
    chunk_records: int = CHUNK_RECORDS
    progress: Callable[[int, int], None] | None = None
    read_in_workers: bool = True
    summary: Summary = field(default_factory=Summary)

    def __post_init__(self) -> None:
        if self.duplicates not in DUPLICATE_MODES:
            raise ValueError(f"duplicates must be one of {', '.join(DUPLICATE_MODES)}")
        self._read = _Progress()
        self._select = frozenset(self.select)
        self._ignore = frozenset(self.ignore)
        self._options = self.options or ReadOptions()
        self.settings = Settings(
            self.rules,
            keys=self.duplicates != "off",
            judgements=(
                self._options.judgements_allowance,
                self._options.records_per_judgement,
            ),
            walk_steps=(
                self._options.walk_steps_allowance,
                self._options.walk_steps_per_record,
            ),
            listed=(self._options.listed_allowance, self._options.listed_per_record),
        )
        #: inputs read in slices whose records reached ``max_records``: no more slices are cut
        self._full: set[int] = set()
        #: the options of each input read in slices, bounded by its size (``for_file``)
        self._sized: dict[int, ReadOptions] = {}

    def total_bytes(self) -> int:
        """The size of the input files (standard input and devices count 0), for progress."""
        total = 0
        for item in self.inputs:
            if isinstance(item, str) and item != "-":
                with contextlib.suppress(OSError):
                    total += os.stat(item).st_size
        return total

    def rendered(self, renderer: Renderer) -> bool:
        """Whether the batch wrote its reports into ``renderer`` itself, and counted them in
        ``summary`` (a cluster's workers render them: ``renju_cli.cluster``); ``False``, as
        here: iterate :meth:`run` and render what it yields."""
        return False

    def __iter__(self) -> Iterator[tuple[Record | None, GameReport]]:
        return self.run()

    def run(self) -> Generator[tuple[Record | None, GameReport], None, None]:
        """The reports, in input order (close the generator to stop early: the workers stop)."""
        index = DuplicateIndex()
        slices = _SliceNumbers(self)
        done = 0
        for chunk, results in self._judged():
            for item, judged_all in zip(chunk.items, results, strict=True):
                done += len(judged_all)
                record = item if isinstance(item, Record) else None
                sliced = slices.input_of(item)
                for judged in judged_all:
                    if sliced is not None:  # renumbered in the file: a slice starts from 0
                        renumbered = slices.renumbered(sliced, record, judged)
                        if renumbered is None:
                            continue
                        judged = renumbered
                    report = self._reported(judged, index)
                    if report is not None:
                        yield record, report
            if self.progress is not None:
                self.progress(done, chunk.read_bytes)

    def _reported(self, judged: Judged, index: DuplicateIndex) -> GameReport | None:
        """A report as the batch reports it (duplicates told, findings filtered, counted), or
        ``None`` for a duplicate left out."""
        report, key = judged
        first = index.seen(key, report.source) if key else None
        if first is not None:
            self.summary.duplicates += 1
            # a copy with damage of its own is reported: skipping it would hide what is wrong
            # with it (``h8 h9 i9 zz`` after ``h8 h9 i9``)
            if self.duplicates == "skip" and not _damaged(report):
                self.summary.skipped += 1
                return None
            report.findings.append(duplicate_finding(first))
        if self._select or self._ignore:
            report.findings = filter_findings(
                report.findings, report.unreadable, self._select, self._ignore
            )
        self.summary.add(report)
        return report

    def _pool(self) -> ExecutorFactory | None:
        if self.executor is not None:
            return self.executor
        return process_pool(self.jobs) if self.jobs > 1 else None

    def _judged(self) -> Iterator[tuple[Chunk, Results]]:
        factory = self._pool()
        chunks = self._chunks(by_name=factory is not None and self.executor is None)
        if factory is None:
            for chunk in chunks:
                yield chunk, judge_chunk(chunk.items, self.settings)
            return
        # A batch of one chunk is judged here: starting workers would cost more than it saves.
        first = next(chunks, None)
        second = next(chunks, None) if first is not None else None
        if first is None or second is None:
            if first is not None:
                yield first, judge_chunk(first.items, self.settings)
            return
        pending = self.pending or PENDING_PER_WORKER * self.jobs
        engine = _Engine(self.settings, factory, pending)
        yield from engine.run(itertools.chain((first, second), chunks))

    def _chunks(self, by_name: bool) -> Iterator[Chunk]:
        items: list[Item] = []
        records = 0  # in the chunk so far: a slice of a file counts its lines
        for item in self._items(by_name and self.read_in_workers):
            items.append(item)
            # (a slice holds 64 lines or more: 32 slices to a chunk would make results of
            # thousands of reports, megabytes unpickled at once in the parent)
            records += item.lines if isinstance(item, TextSlice) else 1
            if records >= self.chunk_records:
                yield Chunk(items, self._read.bytes)
                items, records = [], 0
        if items:
            yield Chunk(items, self._read.bytes)

    def _items(self, by_name: bool) -> Iterator[Item]:
        """Every record of every input in input order, or the names of small files."""
        for input_no, entry in enumerate(self.inputs):
            self.summary.files += 1
            if isinstance(entry, InputError):
                yield unreadable(entry.path, entry.message)
                continue
            size = _small_file_size(entry) if by_name else None
            if size is not None:
                self._read.add(size)
                yield FileTask(entry, self.fmt, self.options)
                continue
            slices = self._slices(entry, input_no) if by_name else None
            if slices is not None:
                yield from slices
                continue
            yield from read_file(entry, self.fmt, self.options, self.settings, self._read.add)

    def _slices(self, path: str, input_no: int) -> Iterator[TextSlice | Record] | None:
        """A big move-list or JSON Lines file cut into slices of whole records (or, when no
        line starts one, its unreadable record), or ``None`` when the file is of another format,
        not a regular file (a pipe is opened once, by ``read_file``) or cannot be opened
        (``read_file`` says why)."""
        if path == "-":
            return None
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None
            raw = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by the generator below
        except OSError:
            return None
        try:
            st = os.fstat(raw.fileno())
        except OSError:
            raw.close()
            return None  # (``read_file`` says why)
        # cut as big as it was when opened, as ``inputs.read_path`` reads it
        stream = io.BufferedReader(Window(raw, st.st_size))
        try:
            head = stream.peek(formats.HEAD_BYTES)[: formats.HEAD_BYTES]
            fmt = self.fmt or formats.detect(head, path)
        except OSError:
            head, fmt = b"", None
        if fmt not in LINE_FORMATS or formats.recoding(head) is not None:
            # a file recoded as it is read (UTF-16, CR line ends) is read whole: its own
            # bytes do not cut into its lines
            stream.close()
            return None
        return self._cut(stream, path, fmt, st, input_no)

    def _cut(
        self,
        stream: io.BufferedReader[Window],
        path: str,
        fmt: str,
        opened: os.stat_result,
        input_no: int,
    ) -> Iterator[TextSlice | Record]:
        """Slices of ``SLICE_LINES`` lines or more, each starting where the format's reader
        starts a record (its own ``starts_record``: the slices read as the whole file does).
        A read error ends the file as with ``--jobs 1``; a file truncated, rewritten or grown
        while cut is said after its last slice, as the reader of the whole file says it."""
        # as the reader of the whole file: its encoding, its bound on records
        options = formats.text_options(self._options).for_file(opened.st_size).for_format(fmt)
        self._sized[input_no] = options
        cutter = _Cutter(path, fmt, options, (opened.st_dev, opened.st_ino), input_no)
        opened_head = file_head(stream.fileno())
        failure: OSError | None = None
        changed: Record | None = None
        with stream:
            try:
                for piece in cutter.slices(stream, lambda: input_no in self._full):
                    self._read.add(piece.length)  # (progress: once a slice, not once a line)
                    yield piece
                # (its index is the parent's to number)
                changed = changed_while_read(path, opened, stream.fileno(), opened_head, UNNUMBERED)
            except OSError as e:  # a disk error: the whole lines before it are checked
                failure = e
                cutter.drop_broken_line()
        if cutter.any_record:
            if not cutter.full:  # (past the bound the reader stops, then looks for a change)
                piece = cutter.cut()
                self._read.add(piece.length)
                yield piece
        elif failure is None:
            self._read.add(cutter.offset)
            yield unreadable(path, no_record_message(fmt))
        if changed is not None:
            if not cutter.any_record:  # after the file's one record ("no record found")
                changed.source = dataclasses.replace(changed.source, index=1)
            yield changed
        if failure is not None:
            yield unreadable(path, f"read error: {failure.strerror or failure}")


class _SliceNumbers:
    """The records of files cut into slices, numbered as the reader of the whole file numbers
    them (each slice numbers its own from 0), and cut off where that reader would stop."""

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.next_index: dict[int, int] = {}  # the next record index, by input
        self.last_input, self.last_path = 0, ""  # the last slice's: the file a slicer's record ends
        # inputs whose slices found the file changed or unreadable: as the reader of the whole
        # file, which stops there, the rest of their records is not reported (one finding)
        self.ended: set[int] = set()

    def input_of(self, item: Item) -> int | None:
        """The input whose records ``item`` holds, when they are numbered here."""
        if isinstance(item, TextSlice):
            self.last_input, self.last_path = item.input_no, item.path
            return item.input_no
        if (
            isinstance(item, Record)
            and item.source.index == UNNUMBERED
            and item.source.path == self.last_path
        ):
            # the record that ends a file cut into slices ("changed while it was read"):
            # numbered after the file's records, as the reader numbers it
            return self.last_input
        return None

    def renumbered(self, sliced: int, record: Record | None, judged: Judged) -> Judged | None:
        """``judged`` numbered in its file, the refusal past ``max_records`` in its place, or
        ``None`` past that (and past the end of a file that changed)."""
        report = judged.report
        batch = self.batch
        if sliced in self.ended:
            return None
        if report.unreadable and _ends_the_file(report):
            self.ended.add(sliced)
            batch._full.add(sliced)  # and the slicer stops
        n = self.next_index.get(sliced, 0)
        self.next_index[sliced] = n + 1
        sized = batch._sized.get(sliced, batch._options)
        if record is not None and record.source.index == UNNUMBERED:
            # the slicer's record that ends the file (changed or grew while read): after the
            # refusal past max_records, as the reader of the whole file says it after its
            # last record
            n = min(n, sized.max_records + 1)
        elif n >= sized.max_records:  # as the reader of the whole file would stop
            batch._full.add(sliced)  # the slicer stops: the rest is not judged
            if n > sized.max_records:
                return None
            s = report.source
            return judge_one(too_many_records(s.path, n, s.line, sized), batch.settings)
        report.source = dataclasses.replace(report.source, index=n)
        return judged


class LineCutter:
    """A line-based file read line by line (a long line in bounded pieces) to be cut into pieces
    of whole records: where the piece read so far starts, its first line and lines begun, the
    CRC-32 of its bytes and, up to ``keep`` bytes (``None``: none), the bytes themselves.
    ``Batch`` cuts slices for its pool with it, ``cluster`` ranges for Dask workers."""

    def __init__(self, path: str, fmt: str, options: ReadOptions, keep: int | None) -> None:
        self.path, self.fmt, self.options, self.keep = path, fmt, options, keep
        self.start = self.offset = 0  # byte offsets of the piece's start, and of the next read
        self.first = self.number = 1  # line numbers of the piece's first line, and the next
        self.lines = 0  # lines begun in the piece
        self.any_record = False  # a file of blank or comment lines is one unreadable record
        self.full = False  # past max_records: the rest is not cut (a change is still said)
        self.line_start = True  # the next read starts a line (a long line comes in pieces)
        self.line_at = self.kept_at = 0  # where the last line begun starts: in the file, in kept
        self.kept: list[bytes] | None = [] if keep is not None else None
        self.kept_size = 0
        self.crc = self.crc_at_line = 0  # of the piece's bytes, and before its last line begun

    def begin_line(self) -> None:
        """A line begins with the next bytes read."""
        self.lines += 1
        self.number += 1
        self.line_at, self.kept_at = self.offset, len(self.kept) if self.kept is not None else 0
        self.crc_at_line = self.crc

    def add(self, raw: bytes) -> None:
        """Bytes read: a line or a piece of one."""
        self.offset += len(raw)
        self.crc = zlib.crc32(raw, self.crc)
        self.line_start = raw.endswith(b"\n")
        if self.kept is not None:
            self.kept_size += len(raw)
            if self.keep is not None and self.kept_size > self.keep:
                self.kept = None  # the worker reads this piece from the file
            else:
                self.kept.append(raw)

    def drop_broken_line(self) -> None:
        """Leave out a line that a read error cut (it is not read, as with ``--jobs 1``)."""
        if not self.line_start:
            self.offset, self.lines, self.crc = self.line_at, self.lines - 1, self.crc_at_line
            if self.kept is not None:
                del self.kept[self.kept_at :]

    def take(self) -> tuple[int, int, int, int, int, bytes | None]:
        """The piece read since the last (its start, length, first line, lines begun, CRC-32
        and bytes, ``None`` when not kept), and a new one begun."""
        kept = self.kept
        piece = (
            self.start,
            self.offset - self.start,
            self.first,
            self.lines,
            self.crc,
            b"".join(kept) if kept is not None else None,
        )
        self.start, self.first, self.lines, self.crc = self.offset, self.number, 0, 0
        self.kept = [] if self.keep is not None else None
        self.kept_size = 0
        return piece


class _Cutter(LineCutter):
    """One file cut into slices of whole records as its lines are read (``Batch._cut``).

    Lines are read a bounded piece at a time; a slice carries its bytes up to
    ``SLICE_DATA_BYTES``, and a bigger one (a long line, a record continued line after line)
    only its place in the file and their checksum, and the worker reads them itself: memory
    does not grow with a long line or a long record.
    """

    def __init__(
        self, path: str, fmt: str, options: ReadOptions, identity: tuple[int, int], input_no: int
    ) -> None:
        super().__init__(path, fmt, options, SLICE_DATA_BYTES)
        self.identity, self.input_no = identity, input_no

    def slices(
        self, stream: io.BufferedReader[Window], full: Callable[[], bool]
    ) -> Iterator[TextSlice]:
        """The slices before the last (``cut`` gives it), until ``full()`` says the file's
        records reached their bound."""
        starts_record = formats.load(self.fmt).starts_record
        options = self.options
        for raw in iter(functools.partial(stream.readline, options.max_string + 1), b""):
            if self.line_start:
                if self.lines >= SLICE_LINES and starts_record(raw, options):
                    if full():  # past max_records, as the reports say: no more is cut
                        self.full = True
                        return
                    yield self.cut()
                elif not self.any_record:
                    self.any_record = starts_record(raw, options, after_record=False)
                self.begin_line()
            self.add(raw)

    def cut(self) -> TextSlice:
        """The slice of the lines read since the last, and a new one begun."""
        start, length, first, lines, crc, data = self.take()
        self.any_record = True
        return TextSlice(
            self.path,
            self.fmt,
            self.options,
            start,
            length,
            first,
            lines,
            data,
            self.identity,
            self.input_no,
            None if data is not None else crc,
        )


#: How ``read_slice`` says that the file cannot be read on from a slice.
_SLICE_ENDS = ("the file changed while it was read", "read error:")


def _ends_the_file(report: GameReport) -> bool:
    return bool(report.findings) and report.findings[0].message.startswith(_SLICE_ENDS)


def _small_file_size(path: str) -> int | None:
    """The size of a regular file of at most ``SMALL_FILE_BYTES``, else ``None``."""
    if path == "-":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None  # the parent reads it and reports why it cannot
    if not stat.S_ISREG(st.st_mode) or st.st_size > SMALL_FILE_BYTES:
        return None
    return st.st_size
