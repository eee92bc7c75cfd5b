"""The library API: find inputs, read records, judge them.  The CLI is a thin layer over this.

``analyze`` is a plain, picklable top-level function (record text or parsed record + ruleset name
→ JSON-ready dict), so that users can run it on any distributed engine (``multiprocessing``,
``concurrent.futures``, Dask, Ray, Spark...): records, rulesets and reports pickle, and a bad
record never raises (see ``docs/scale-out.md``).  Batches with ordering, duplicates and a process
pool are in ``renju_cli.batch``.
"""

from __future__ import annotations

import dataclasses
import errno
import fnmatch
import functools
import glob
import io
import os
import select
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from renju_cli import formats
from renju_cli.formats import ReadOptions, unreadable
from renju_cli.judge import Judgements
from renju_cli.record import Record
from renju_cli.referee import replay
from renju_cli.report import GameReport
from renju_cli.ruleset import Ruleset, RulesetError, load, shipped_names

DEFAULT_RULES = "renju"


def analyze(
    record: Record | str | bytes | bytearray | memoryview,
    rules: str | Ruleset | None = None,
    *,
    path: str = "<string>",
    fmt: str | None = None,
) -> dict[str, Any]:
    """Judge one record and return its report as a JSON-ready dict (the ``check`` record object).

    ``record`` is a parsed ``Record`` or the text of one record in any format ``renju check``
    reads (``"black h8 h9 i8 ..."``, SGF, a board diagram...; ``fmt`` forces the format, and a
    text with several records gives the first: see ``analyze_all``).  ``rules`` is a shipped
    ruleset name, a YAML path or a ``Ruleset``; when ``None`` the record's own rule is used if it
    names a shipped ruleset, else ``renju``.  ``path`` names the record in the report.

    A bad record never raises: what is wrong becomes findings, and a bug met while judging it an
    ``internal-error`` finding.  An unknown ruleset raises ``RulesetError`` (a configuration
    error, not a record's).  The function is picklable and keeps no state between calls.
    """
    path = os.fspath(path)  # (a Path in the report made it no JSON)
    if isinstance(record, (str, bytes, bytearray, memoryview)):
        records = analyze_all(record, rules, path=path, fmt=fmt)
        return records[0]
    if not isinstance(record, Record):
        raise TypeError(_not_a_record(record))
    from renju_cli.batch import Settings, judge_one

    return judge_one(record, Settings(_ruleset_or_none(rules))).report.to_json()


def analyze_all(
    text: str | bytes | bytearray | memoryview,
    rules: str | Ruleset | None = None,
    *,
    path: str = "<string>",
    fmt: str | None = None,
) -> list[dict[str, Any]]:
    """Judge every record of a text (a whole file's content) and return their reports, in
    order; as ``analyze`` otherwise.  An empty text gives one unreadable record; a text that
    no reader recognises is read as a move list (``read_bytes``), where ``renju check`` says
    of a file that it matches no known record format.
    """
    from renju_cli.batch import Settings, judge_one, walk_key

    path = os.fspath(path)
    if isinstance(text, str):
        data = _utf8(text)
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise TypeError(_not_a_record(text))
    settings = Settings(_ruleset_or_none(rules))
    out = []
    # (the bounds of ``renju check`` on the file: the same reports)
    for record in read_bytes(data, path, fmt, walk_key=functools.partial(walk_key, settings)):
        out.append(judge_one(record, settings).report.to_json())
    return out or [judge_one(unreadable(path, "no record found"), settings).report.to_json()]


def read_bytes(
    data: bytes,
    path: str = "<string>",
    fmt: str | None = None,
    options: ReadOptions | None = None,
    walk_key: formats.WalkKey | None = None,
) -> Iterator[Record]:
    """Every record of a file's content held in memory; a move list when no format matches.
    ``walk_key`` bounds its distinct openings, as ``read_path``'s."""
    if fmt is None and data.strip() and formats.detect(data[: formats.HEAD_BYTES], path) is None:
        fmt = "notation"  # the historical reading of analyze(): a bare move list
    sized = (options or ReadOptions()).for_file(len(data))
    stream = io.BufferedReader(io.BytesIO(data))
    yield from formats.read_stream(stream, path, fmt, sized, walk_key)


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8 for the readers, whatever it holds: a lone surrogate (a name decoded
    with ``surrogateescape``, or cut from JSON) raised ``UnicodeEncodeError``; its bytes are
    given back, or written as they stand, and the reader says they are not valid UTF-8."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _not_a_record(value: object) -> str:
    if isinstance(value, os.PathLike):
        return (
            f"a path ({os.fspath(value)!r}) is not a record: pass its content "
            "(Path.read_bytes()), or check it with check_paths"
        )
    return f"a record is a Record, or the text of one as str or bytes, not {type(value).__name__}"


def _ruleset_or_none(rules: str | Ruleset | None) -> Ruleset | None:
    if rules is None or isinstance(rules, Ruleset):
        return rules
    if isinstance(rules, (str, os.PathLike)):
        return load(os.fspath(rules))
    raise TypeError(
        "rules is a shipped ruleset's name, a YAML file's path or a Ruleset, not "
        f"{type(rules).__name__}"
    )


def judge_record(record: Record, rules: str | Ruleset | None = None) -> GameReport:
    """Replay one record under the chosen ruleset (see ``analyze``) and return its report.

    A bug in the referee propagates; ``renju_cli.batch.judge_one`` turns it into a finding.
    """
    return replay(record, choose_ruleset(record, rules))


@functools.cache
def _shipped_set() -> frozenset[str]:
    return frozenset(shipped_names())


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


# -- inputs -----------------------------------------------------------------------------------
@dataclass
class InputError:
    """A path that names no readable input (reported as a finding, or a usage error)."""

    path: str
    message: str


def expand_inputs(
    paths: Iterable[str],
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
) -> Iterator[str | InputError]:
    """Files to read, in a deterministic order: files as given, directories recursed (sorted),
    glob patterns expanded; ``-`` is standard input.  Unreadable paths come as ``InputError``,
    and so do named pipes, sockets and devices found in a directory or by a pattern (a path
    named on its own is read whatever it is: ``<(zcat games.gz)`` is a pipe).

    A file is read once, however many inputs reach it (``dir dir/sub``, ``a.txt ./a.txt``,
    two patterns, a hard link), where it is first reached, as ``pytest`` and ``ruff`` take
    paths: each of its records must appear once in a report and its summary.
    """
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: set[tuple[int, int]] = set()
    for item in _expanded(paths, include, exclude, seen_dirs):
        if isinstance(item, str) and item != "-":
            try:
                st = os.stat(item)
            except (OSError, ValueError):
                st = None  # (``read_path`` says why)
            if st is not None and stat.S_ISREG(st.st_mode):
                key = (st.st_dev, st.st_ino)
                if key in seen_files:
                    continue
                seen_files.add(key)
        yield item


def _expanded(
    paths: Iterable[str],
    include: Iterable[str],
    exclude: Iterable[str],
    seen_dirs: set[tuple[int, int]],
) -> Iterator[str | InputError]:
    include = list(include)
    exclude = list(exclude)

    def wanted(p: str) -> bool:
        name = os.path.basename(p)
        if include and not any(
            fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(p, pat) for pat in include
        ):
            return False
        return not any(fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(p, pat) for pat in exclude)

    for raw in paths:
        if raw == "-":
            yield raw
            continue
        if os.path.isdir(raw):
            # (a directory an earlier input walked is not walked again, and no loop is said)
            yield from _walk(raw, wanted, seen_dirs, again_is_loop=False)
        elif os.path.exists(raw) or os.path.islink(raw):
            yield raw
        elif any(ch in raw for ch in "*?["):
            matches, unsearched = _glob(raw)
            if not matches and not unsearched:
                yield InputError(raw, "the pattern matches no file")
            yield from unsearched  # (before the files: where the search was cut short)
            matches.sort()
            # a directory matched and one inside it (``dir/**`` matches both) are read once;
            # so is a file matched and found again in a matched directory
            found: set[str] = set()
            for m in matches:
                if os.path.isdir(m):
                    walked = _walk(m, wanted, seen_dirs, again_is_loop=False)
                else:
                    walked = iter((_found(m),) if wanted(m) else ())
                for item in walked:
                    key = item.path if isinstance(item, InputError) else item
                    if key not in found:
                        found.add(key)
                        yield item
        elif _missing(raw):
            yield InputError(raw, "no such file or directory")
        else:
            yield raw  # (there but not to be looked at: ``read_path`` says why, one record)


def _missing(path: str) -> bool:
    """Whether ``path`` names nothing (not: a directory on the way may not be searched, the
    name is too long...: ``os.path.exists`` says False for those too, and a file in a
    directory without permission was reported as no such file, and alone as a usage error)."""
    try:
        os.stat(path)
    except OSError as e:
        return e.errno in (errno.ENOENT, errno.ENOTDIR)
    except ValueError:  # (a NUL in the name)
        return False
    return False


def not_the_output(
    inputs: list[str | InputError], output: BinaryIO | TextIO | None
) -> list[str | InputError]:
    """``inputs`` with the file that ``output`` writes to, when it is a regular file, as an
    ``InputError``: ``renju check games/ > games/report.jsonl`` read its own report as it grew,
    ten thousand records of it, as ``grep -r`` would without its "input file is also the
    output" (a report written with ``-o`` goes to a new file, renamed at the end)."""
    try:
        st = os.fstat(output.fileno()) if output is not None else None
    except (OSError, ValueError, io.UnsupportedOperation):
        return inputs
    if st is None or not stat.S_ISREG(st.st_mode):
        return inputs
    written_to = (st.st_dev, st.st_ino)
    out: list[str | InputError] = []
    for item in inputs:
        if isinstance(item, str) and item != "-":
            try:
                mine = os.stat(item)
            except OSError:
                mine = None
            if mine is not None and (mine.st_dev, mine.st_ino) == written_to:
                item = InputError(item, "the input file is also the output: not read")
        out.append(item)
    return out


def _found(path: str, entry: os.DirEntry[str] | None = None) -> str | InputError:
    """A file found in a directory or by a pattern: its path, or an ``InputError`` when it is
    not a regular file (after symbolic links) -- opening a named pipe found this way would wait
    for a writer forever.  A broken link is left to ``read_path``, which says why."""
    try:
        mode = (entry.stat() if entry is not None else os.stat(path)).st_mode
    except OSError:
        return path
    kind = formats.special_kind(mode)
    return path if kind is None else InputError(path, f"not a regular file ({kind}): not read")


def _glob(pattern: str) -> tuple[list[str], list[InputError]]:
    """The paths ``pattern`` matches, as ``glob.glob(recursive=True)`` gives them, and what
    kept a part of it from being searched: a directory that cannot be listed (``glob`` passes
    over it in silence, and the files in it would be lost without a word), a symbolic link to
    a directory that contains it.  ``**`` (any number of directories) never follows a
    directory twice: ``glob`` follows symbolic links under ``**``, so a link to ``.`` gave
    every file 40 times (x/x/x/...) and two such links took gigabytes before the first file
    came out.  In name order; the files a final ``**`` reaches and the directories other
    patterns match (the caller walks them), never a directory reached a second time."""
    dirs_only = pattern.endswith("/")
    parts = pattern.rstrip("/").split("/")
    k = next(i for i, part in enumerate(parts) if glob.has_magic(part))
    root = "/".join(parts[:k]) or ("/" if pattern.startswith("/") else "")
    rest = tuple(parts[k:])
    anywhere = "**" in rest  # (else only the directories the pattern's parts name are read)
    enter_hidden = any(part.startswith(".") for part in rest)  # the pattern names one
    out: list[str] = []
    errors: list[InputError] = []
    seen: set[tuple[int, int]] = set()
    chain: list[tuple[int, int]] = []  # the directories from the root down to the one read
    stack: list[tuple[str, tuple[str, ...]]] = [(root, ())]
    while stack:
        top, rel = stack.pop()
        del chain[len(rel) :]
        try:
            st = os.stat(top or ".")
            key = (st.st_dev, st.st_ino)
            if key in seen:
                continue
            seen.add(key)
            chain.append(key)
            entries = sorted(os.scandir(top or "."), key=lambda e: e.name)
        except OSError as e:
            if rel or e.errno != errno.ENOENT:  # (a root that is not there: no match)
                errors.append(InputError(top or ".", f"cannot list directory: {e.strerror}"))
            continue
        subdirs = []
        for entry in entries:
            path_rel = (*rel, entry.name)
            path = os.path.join(top, entry.name) if top else entry.name
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                try:
                    dir_st = entry.stat()
                except OSError:
                    continue
                entered = (enter_hidden or not entry.name.startswith(".")) and (
                    anywhere
                    or (len(path_rel) < len(rest) and _glob_match(rest[: len(path_rel)], path_rel))
                )
                dir_key = (dir_st.st_dev, dir_st.st_ino)
                if dir_key in seen:  # a link to a directory walked
                    if entered and dir_key in chain:
                        errors.append(
                            InputError(
                                path,
                                "a symbolic link to a directory that contains it (a loop): "
                                "not read again",
                            )
                        )
                    continue
                if entered:
                    subdirs.append((path, path_rel))
                if (dirs_only or rest[-1] != "**") and _glob_match(rest, path_rel):
                    # read by walking it, as what glob gives ("a/**/", "**/sub")
                    out.append(path + "/" if dirs_only else path)
            elif dirs_only or (entry.name.startswith(".") and not enter_hidden):
                continue
            elif (
                # a final "**" takes the files under a directory the rest matches
                _glob_match(rest, path_rel[:-1])
                if rest[-1] == "**"
                else _glob_match(rest, path_rel)
            ):
                out.append(path)
        stack.extend(reversed(subdirs))
    if dirs_only and root and _glob_match(rest, ()):  # "a/**/" matches a/ itself
        out.insert(0, root.rstrip("/") + "/")
    return out, errors


def _glob_match(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    """Whether the parts of a path match the parts of a pattern: ``**`` is any number of
    parts, other parts match one name each as ``fnmatch`` says (case as the name is), and a
    name that starts with ``.`` only a part that does (glob's hidden files).  A walk over
    the pattern's positions (no recursion: trees may be thousands of levels deep)."""
    n = len(pattern)

    def closure(states: set[int]) -> set[int]:
        todo = list(states)
        while todo:  # "**" may match nothing: the position after it is reached too
            i = todo.pop()
            if i < n and pattern[i] == "**" and i + 1 not in states:
                states.add(i + 1)
                todo.append(i + 1)
        return states

    states = closure({0})
    for name in path:
        hidden = name.startswith(".")
        after: set[int] = set()
        for i in states:
            if i == n:
                continue
            part = pattern[i]
            if part == "**":
                if not hidden:
                    after.add(i)
            elif (not hidden or part.startswith(".")) and fnmatch.fnmatchcase(name, part):
                after.add(i + 1)
        if not after:
            return False
        states = closure(after)
    return n in states


def _walk(
    root: str,
    wanted: Any,
    seen: set[tuple[int, int]] | None = None,
    again_is_loop: bool = True,
) -> Iterator[str | InputError]:
    """The files under ``root``, in name order.  A directory is read once: a symbolic link to
    a directory that contains it (a loop) is a finding; a directory reached again by another
    way (``latest -> 2024`` beside ``2024``) is not read twice, and no finding blames it, its
    files were read under the first path (as a ``root`` already read when ``again_is_loop`` is
    false: a pattern matched it and its parent)."""
    seen = set() if seen is None else seen
    stack = [(root, 0)]
    chain: list[tuple[int, int]] = []  # the directories from ``root`` down to the one read
    while stack:
        top, depth = stack.pop()
        del chain[depth:]
        try:
            st = os.stat(top)
        except OSError as e:
            yield InputError(top, f"cannot read: {e.strerror}")
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen:
            if key in chain or (top == root and again_is_loop):
                yield InputError(
                    top, "a symbolic link to a directory that contains it (a loop): not read again"
                )
            continue
        seen.add(key)
        chain.append(key)
        try:
            entries = sorted(os.scandir(top), key=lambda e: e.name)
        except OSError as e:
            yield InputError(top, f"cannot list directory: {e.strerror}")
            continue
        subdirs = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                subdirs.append((entry.path, depth + 1))
            elif wanted(entry.path):
                yield _found(entry.path, entry)
        stack.extend(reversed(subdirs))


def read_path(
    path: str,
    fmt: str | None = None,
    options: ReadOptions | None = None,
    on_read: Callable[[int], None] | None = None,
    walk_key: formats.WalkKey | None = None,
) -> Iterator[Record]:
    """Every record of one file (``-`` = standard input); an unreadable file is one record.

    ``on_read`` is called with the number of bytes each time the file is read further (for a
    progress bar); records come out as their bytes are read, so a big file streams.
    ``walk_key`` bounds the file's distinct openings (``formats.bound_walks``).
    """
    opts = options or ReadOptions()
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (``<&-``)
            yield unreadable("<stdin>", "standard input is closed")
            return
        yield from _read_pipe(_stdin_read(), "<stdin>", fmt, _for_stdin(opts), on_read, walk_key)
        return
    try:
        raw = open(path, "rb", buffering=0)  # noqa: SIM115 - closed below, after the generator
    except OSError as e:
        yield unreadable(path, f"cannot open: {e.strerror or e}")
        return
    except ValueError as e:  # a NUL in the name (as ``check_paths`` says of it)
        yield unreadable(path, f"cannot open: {e}")
        return
    try:
        st = os.fstat(raw.fileno())
        if not stat.S_ISREG(st.st_mode):  # a pipe (``<(zcat games.gz)``) or a device
            yield from _read_pipe(raw.read, path, fmt, opts, on_read, walk_key)
            return
        if st.st_size == 0:
            # (not read: a file of /proc or /sys says size 0 whatever it holds, and some of
            # them block for ever, trace_pipe among them, in a directory walk too)
            yield unreadable(
                path,
                "the file is empty (its size is 0; a file of /proc or /sys that holds "
                "bytes all the same is read through a pipe: cat FILE | renju check -)",
            )
            return
        head = file_head(raw.fileno())
        # read as big as it was when opened: its bounds were set by that size, and what is
        # written to it meanwhile is said, not read (``changed_while_read``)
        sized_raw = Window(raw, st.st_size)
        stream = io.BufferedReader(
            sized_raw if on_read is None else _CountingRaw(sized_raw, on_read)
        )
        count = 0
        nothing: Record | None = None  # "no record found": said only if the file stayed
        sized = opts.for_file(st.st_size)
        for record in formats.read_stream(stream, path, fmt, sized, walk_key):
            if formats.found_nothing(record):
                nothing = record
                continue
            count += 1
            yield record
        changed = changed_while_read(path, st, raw.fileno(), head, count)
        if changed is not None and nothing is not None and _grew(changed):
            # what was read held no record, and more came: both are said (as when it is cut
            # into slices for --jobs)
            yield nothing
            changed.source = dataclasses.replace(changed.source, index=1)
            yield changed
        elif changed is not None:  # (emptied while read: this one record says it)
            yield changed
        elif nothing is not None:
            yield nothing
    except OSError as e:
        yield unreadable(path, f"read error: {e.strerror or e}")
    finally:
        raw.close()


#: Bytes at the start of a file compared when it was opened and once read: a file written
#: anew while it was read (``gen > games.txt``: truncated, then longer than before) differs
#: there, though it only grew.
HEAD_CHECK_BYTES = 4096


def file_head(fd: int, size: int = HEAD_CHECK_BYTES) -> bytes:
    """The first ``size`` bytes of the open file ``fd`` (not moving its position)."""
    try:
        return os.pread(fd, size, 0)
    except OSError:
        return b""


#: How ``changed_while_read`` begins the message of a file that grew.
GREW = "the file grew while it was read"


def _grew(record: Record) -> bool:
    return record.problems[0].message.startswith(GREW)


def changed_while_read(
    path: str, before: os.stat_result, fd: int, head: bytes, index: int
) -> Record | None:
    """The unreadable record that ends a regular file cut short while it was read, written
    over at the same length, or written anew (its first bytes, ``head`` when it was opened,
    are others now): its records may not be what it holds.  A file that grew (a log being
    appended to) was read as big as it was when opened (``Window``): the record says that the
    bytes past that are not read.  ``None`` when the file is the same."""
    after = os.fstat(fd)
    shrunk = after.st_size < before.st_size
    rewritten = after.st_size == before.st_size and after.st_mtime_ns != before.st_mtime_ns
    if not (shrunk or rewritten) and (
        after.st_mtime_ns == before.st_mtime_ns or file_head(fd, len(head)) == head
    ):
        if after.st_size <= before.st_size:
            return None
        return unreadable(
            path,
            f"{GREW} ({before.st_size} bytes when opened, "
            f"{after.st_size} at the end): the records before are those of its first "
            f"{before.st_size} bytes; the bytes written since are not read",
            index=index,
        )
    return unreadable(
        path,
        f"the file changed while it was read ({before.st_size} bytes when opened, "
        f"{after.st_size} at the end): its records may not be what it holds",
        index=index,
    )


def _read_pipe(
    read: Callable[[int], bytes],
    name: str,
    fmt: str | None,
    opts: ReadOptions,
    on_read: Callable[[int], None] | None,
    walk_key: formats.WalkKey | None = None,
) -> Iterator[Record]:
    """The records of a pipe (standard input, a named pipe, a device).  The first kilobytes
    are read before anything else: the format is detected from them, and a pipe delivers a
    few bytes at a time.  Move lists, JSON Lines and PlayOK games are read as a stream: records
    come out as their bytes arrive, and memory stays bounded however much (or how long) is
    piped in.  Other formats are read to their end first (``_Spool``, 64 MiB at most) and
    bounded by their size, as the file named would be.  ``read(n)`` reads once, what has come
    (at most n bytes)."""
    head = b""
    failure: OSError | None = None
    try:
        while len(head) < formats.HEAD_BYTES:
            chunk = read(formats.HEAD_BYTES - len(head))
            if not chunk:
                break
            head += chunk
    except OSError as e:  # the records of what came before it are still read
        failure = e
    if not head and failure is None:
        empty = "standard input is empty" if name == "<stdin>" else "nothing came through it"
        yield unreadable(name, empty)
        return
    if head:
        if on_read is not None:
            on_read(len(head))
        more = read if failure is None else _nothing_more
        counted = on_read
        spool: _Spool | None = None
        # (its format as read_stream tells it, UTF-16 text recoded first: told once, here)
        fmt = fmt or formats.detect_file(head, name)
        if failure is None and opts.sized_for is None and fmt not in PIPE_STREAMED | {None}:
            # a format read whole, or that no feed delivers a record at a time: read to its
            # end first, so that it is bounded by its size as a file is (as far as a file
            # read whole may be, or ``--limit whole-file`` if more)
            limit = max(opts.max_file, ReadOptions.max_file)
            spool = _Spool(read, limit - len(head), on_read)
            failure = spool.failure
            if spool.complete:
                opts = opts.for_file(len(head) + spool.size)
            more, counted = spool.read, None  # (it counts what it reads past the spool)
        stream = io.BufferedReader(_AfterHead(head, more, counted))
        try:
            yield from formats.read_stream(stream, name, fmt, opts, walk_key)
        except OSError as e:
            failure = e
        finally:
            if spool is not None:
                spool.close()  # (its temporary file: a reader may stop before its end)
    if failure is not None:
        yield unreadable(name, f"read error: {failure.strerror or failure}")


def _nothing_more(n: int) -> bytes:
    return b""


#: Formats whose records a pipe may deliver one at a time, as they are written (a live feed of
#: move lists, JSON Lines or PlayOK games): read as they come.  A pipe of another format is read
#: to its end first (``_Spool``): its readers read it whole anyway (SGF, PSQ, diagrams), or no
#: program writes a RenLib library or a RenjuNet database a game at a time.
PIPE_STREAMED = frozenset({"notation", "jsonl", "playok"})


class _Spool:
    """A pipe read to its end (``limit`` bytes at most), in memory up to ``MEMORY`` bytes and
    in a temporary file past that, then read again (``read``): its size is then known, and it
    is bounded by it as a file of that size (a megabyte of RenLib library piped in made
    524,277 records in 9.0 s, 51,883 in 1.0 s named).  A pipe longer than ``limit``, or whose
    rest no temporary file can hold (a full disk), is read on past what was spooled, as a
    stream of unknown size; a read error of the pipe ends it (``failure``)."""

    #: Bytes kept in memory; the rest goes to a temporary file.
    MEMORY = 4 << 20

    def __init__(
        self, read: Callable[[int], bytes], limit: int, on_read: Callable[[int], None] | None
    ) -> None:
        #: the first bytes, in one buffer read back from ``at`` (a pipe written a byte at a
        #: time gives a read a byte: kept one by one, they made reading back quadratic)
        self.memory = bytearray()
        self.at = 0
        self.file: io.FileIO | None = None  # the bytes after them
        self.in_file = 0  # bytes written to it, and not read back yet
        self.after = b""  # the end of a chunk the file could not take (then the pipe)
        self.size = 0
        self.complete = False
        self.failure: OSError | None = None
        self.pipe = read
        self.on_read = on_read
        while self.size <= limit and not self.after:
            try:
                chunk = read(min(1 << 16, limit + 1 - self.size))
            except OSError as e:  # (the records of what came before it are still read)
                self.failure, self.complete = e, True
                break
            if not chunk:
                self.complete = True
                break
            self.size += len(chunk)
            if on_read is not None:
                on_read(len(chunk))
            self._keep(chunk)
        if self.file is not None:
            self.file.seek(0)

    def _keep(self, chunk: bytes) -> None:
        if self.file is None and self.size <= self.MEMORY:
            self.memory += chunk
            return
        view = memoryview(chunk)
        try:
            if self.file is None:
                import tempfile

                self.file = tempfile.TemporaryFile(buffering=0)  # noqa: SIM115 - see close
            while view:  # (unbuffered: what is written is known when a write fails)
                n = self.file.write(view) or 0
                self.in_file += n
                view = view[n:]
        except OSError:
            # no room for the rest: what came is read as it stands and the pipe as a stream
            self.after = bytes(view)

    def read(self, n: int) -> bytes:
        """The next bytes: the spooled ones, then what comes through the pipe (when it was
        not read to its end)."""
        if self.at < len(self.memory):
            data = bytes(self.memory[self.at : self.at + n])
            self.at += len(data)
            if self.at == len(self.memory):
                self.memory, self.at = bytearray(), 0
            return data
        if self.file is not None:
            data = self.file.read(min(n, self.in_file)) if self.in_file else b""
            if data:
                self.in_file -= len(data)
                return data
            self.close()
        if self.after:
            data, self.after = self.after[:n], self.after[n:]
            return data
        if self.complete:
            return b""
        data = self.pipe(n)
        if data and self.on_read is not None:
            self.on_read(len(data))
        return data

    def close(self) -> None:
        """Close the temporary file (when there is one)."""
        if self.file is not None:
            self.file.close()
            self.file = None


def _for_stdin(options: ReadOptions) -> ReadOptions:
    """``options`` for standard input: bounded by its size when it is a file (``< games.txt``);
    a pipe's size is not known, and only ``max_records`` bounds it."""
    try:
        st = os.fstat(sys.stdin.fileno())
        if stat.S_ISREG(st.st_mode):
            return options.for_file(st.st_size - os.lseek(sys.stdin.fileno(), 0, os.SEEK_CUR))
    except (OSError, ValueError, AttributeError):  # no descriptor (tests, embedding programs)
        pass
    return options


def _stdin_read() -> Callable[[int], bytes]:
    """One read of standard input at a time.  From its file descriptor when it has one: a
    buffered ``read1`` takes "nothing yet" on a descriptor that another program left
    non-blocking for its end, and a later write would be lost; here it waits for bytes."""
    buffer = sys.stdin.buffer
    raw = getattr(buffer, "raw", None)
    if not isinstance(raw, io.FileIO):  # (tests, embedding programs: a stream of their own)
        read: Callable[[int], bytes] = getattr(buffer, "read1", buffer.read)
        return read
    fd = raw.fileno()

    def read_once(n: int) -> bytes:
        while (data := raw.read(n)) is None:  # non-blocking, and nothing yet
            select.select([fd], [], [])
        return data

    return read_once


class _AfterHead(io.RawIOBase):
    """A pipe again from its start: the head already read, then the rest as it comes."""

    def __init__(
        self, head: bytes, read: Callable[[int], bytes], on_read: Callable[[int], None] | None
    ) -> None:
        super().__init__()
        self.head = head
        self.read_more = read
        self.on_read = on_read

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.read_more(len(buffer))
        n = len(data)
        buffer[:n] = data
        if n and self.on_read is not None:
            self.on_read(n)
        return n


class Window(io.RawIOBase):
    """``length`` bytes of a raw file from where it stands, read as a file: a slice of it, or
    a regular file as big as it was when opened (one that grows while it is read, a log or a
    sparse file extended by terabytes, would hold the batch for as long as it grows)."""

    def __init__(self, raw: io.RawIOBase, length: int) -> None:
        super().__init__()
        self.raw = raw
        self.left = length

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.left <= 0:
            return 0
        view = memoryview(buffer)[: min(len(buffer), self.left)]
        n = self.raw.readinto(view) or 0
        self.left -= n
        return n

    def fileno(self) -> int:
        return self.raw.fileno()

    def close(self) -> None:
        self.raw.close()
        super().close()


class _CountingRaw(io.RawIOBase):
    """A raw file that reports how many bytes it hands out."""

    def __init__(self, raw: io.RawIOBase, on_read: Callable[[int], None]) -> None:
        super().__init__()
        self.raw = raw
        self.on_read = on_read

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        n = self.raw.readinto(buffer)
        if n:
            self.on_read(n)
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()


def check_paths(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    rules: str | Ruleset | None = None,
    fmt: str | None = None,
    options: ReadOptions | None = None,
    *,
    jobs: int = 1,
) -> Iterator[GameReport]:
    """Judge every record of every input, in input order (``jobs`` > 1: on a process pool,
    with the same result).  ``paths``: paths, directories, patterns, ``-`` (one given alone,
    as a ``str`` or a path, is one input).  An input that cannot be found is an unreadable
    record.  An unknown ``fmt`` raises ``ValueError``."""
    from renju_cli.batch import Batch

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]  # (a str iterated gave its characters: "/" walked the whole disk)
    paths = list(paths)
    if not all(isinstance(p, (str, os.PathLike)) for p in paths):
        raise TypeError("paths are str or os.PathLike (a list of them, or one)")
    if fmt is not None:
        formats.load(fmt)  # (an unknown one raises ValueError, as for analyze)
    batch = Batch(
        list(expand_inputs(os.fspath(p) for p in paths)),
        rules=_ruleset_or_none(rules),
        fmt=fmt,
        options=options,
        jobs=jobs,
    )
    return (report for _, report in batch)  # (not a generator function: it raises at the call)


# -- positions ----------------------------------------------------------------------------------
@dataclass
class Position:
    """A board after some moves of a record, and what happened to reach it."""

    board: Any  # renju_cli.board.Board
    to_move: int  # board.BLACK or board.WHITE
    played: int  # moves applied
    numbers: dict[int, int]  # board index -> move number


def position_after(
    record: Record, ruleset: Ruleset, at: int | None = None, within: Judgements | None = None
) -> Position:
    """Place the setup stones and the first ``at`` moves (all when ``None``), as the referee
    walks them (``referee.position``, which this gives with board indices)."""
    from renju_cli.board import BLACK, WHITE
    from renju_cli.referee import position

    pos = position(record, ruleset, at, within)
    board = pos.board
    to_move = BLACK if pos.to_move.value == "black" else WHITE
    return Position(board, to_move, pos.played, {board.index(p): n for p, n in pos.numbers.items()})
