"""Inputs: which files to read, and the records of each.

``expand_inputs`` turns what was named (files, directories, glob patterns, ``-`` for standard
input) into the files to read, in a deterministic order, each once.  ``read_path`` reads one of
them into records: a regular file as big as it was when opened, a pipe from its first kilobytes
(read ahead when its format is read whole, ``_Spool``).  ``read_bytes`` reads content already in
memory.  A path that cannot be read is an ``InputError``, or one unreadable record: never an
exception, never a record dropped without a word.
"""

from __future__ import annotations

import dataclasses
import errno
import fnmatch
import glob
import io
import os
import select
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, TextIO

from renju_cli import formats, limits
from renju_cli.formats import ReadOptions, unreadable
from renju_cli.record import Record

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

#: A directory by device and inode: reached by two paths, it is still one directory.
DirKey = tuple[int, int]

#: What is said of a symbolic link to a directory that contains it.
LOOP = "a symbolic link to a directory that contains it (a loop): not read again"


@dataclass
class InputError:
    """A path that names no readable input (reported as a finding, or a usage error)."""

    path: str
    message: str


# -- which files ---------------------------------------------------------------------------------
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
    wanted = _Filter(tuple(include), tuple(exclude))
    seen_dirs: set[DirKey] = set()
    seen_files: set[DirKey] = set()
    for raw in paths:
        for item in _expanded(raw, wanted, seen_dirs):
            if isinstance(item, str) and _read_before(item, seen_files):
                continue
            yield item


def _read_before(path: str, seen_files: set[DirKey]) -> bool:
    """Whether ``path`` is a regular file reached before (and remember it if not)."""
    if path == "-":
        return False
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False  # (``read_path`` says why)
    if not stat.S_ISREG(st.st_mode):
        return False
    key = (st.st_dev, st.st_ino)
    if key in seen_files:
        return True
    seen_files.add(key)
    return False


@dataclass(frozen=True)
class _Filter:
    """``--include`` and ``--exclude``: patterns matched against a file's name or its path."""

    include: tuple[str, ...]
    exclude: tuple[str, ...]

    def __call__(self, path: str) -> bool:
        if self.include and not _any_match(path, self.include):
            return False
        return not _any_match(path, self.exclude)


def _any_match(path: str, patterns: tuple[str, ...]) -> bool:
    name = os.path.basename(path)
    return any(fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(path, pat) for pat in patterns)


def _expanded(raw: str, wanted: _Filter, seen_dirs: set[DirKey]) -> Iterator[str | InputError]:
    """What one named input stands for."""
    if raw == "-":
        yield raw
    elif os.path.isdir(raw):
        # (a directory an earlier input walked is not walked again, and no loop is said)
        yield from _walk(raw, wanted, seen_dirs, again_is_loop=False)
    elif os.path.exists(raw) or os.path.islink(raw):
        yield raw
    elif glob.has_magic(raw):
        yield from _pattern_inputs(raw, wanted, seen_dirs)
    elif _missing(raw):
        yield InputError(raw, "no such file or directory")
    else:
        yield raw  # (there but not to be looked at: ``read_path`` says why, one record)


def _pattern_inputs(
    pattern: str, wanted: _Filter, seen_dirs: set[DirKey]
) -> Iterator[str | InputError]:
    """The files a glob pattern matches, in the order of their paths (a directory matched
    stands for the files under it), after what kept a part of the tree from being searched."""
    matches, unsearched = _glob(pattern)
    if not matches and not unsearched:
        yield InputError(pattern, "the pattern matches no file")
    yield from unsearched
    # a directory matched and one inside it (``dir/**`` matches both) are read once; so is a
    # file matched and found again in a matched directory
    found: set[str] = set()
    for match in sorted(matches):
        if os.path.isdir(match):
            walked = _walk(match, wanted, seen_dirs, again_is_loop=False)
        else:
            walked = iter((_found(match),) if wanted(match) else ())
        for item in walked:
            key = item.path if isinstance(item, InputError) else item
            if key not in found:
                found.add(key)
                yield item


def _missing(path: str) -> bool:
    """Whether ``path`` names nothing (not: a directory on the way may not be searched, the
    name is too long...: ``os.path.exists`` says False for those too, but such a file is
    there, and ``read_path`` says why it cannot be read)."""
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
    ``InputError``: ``renju check games/ > games/report.jsonl`` would read its own report as it
    grew, as ``grep -r`` would without its "input file is also the output" (a report written
    with ``-o`` goes to a new file, renamed at the end)."""
    try:
        st = os.fstat(output.fileno()) if output is not None else None
    except (OSError, ValueError, io.UnsupportedOperation):
        return inputs
    if st is None or not stat.S_ISREG(st.st_mode):
        return inputs
    written_to = (st.st_dev, st.st_ino)
    return [_not_written_to(item, written_to) for item in inputs]


def _not_written_to(item: str | InputError, written_to: DirKey) -> str | InputError:
    if isinstance(item, InputError) or item == "-":
        return item
    try:
        mine = os.stat(item)
    except OSError:
        return item
    if (mine.st_dev, mine.st_ino) == written_to:
        return InputError(item, "the input file is also the output: not read")
    return item


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


def _listing(top: str) -> list[os.DirEntry[str]] | InputError:
    """The entries of a directory in name order, or why it cannot be listed."""
    try:
        return sorted(os.scandir(top or "."), key=lambda e: e.name)
    except OSError as e:
        return InputError(top or ".", f"cannot list directory: {e.strerror}")


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _walk(
    root: str,
    wanted: Callable[[str], bool],
    seen: set[DirKey] | None = None,
    again_is_loop: bool = True,
) -> Iterator[str | InputError]:
    """The files under ``root``, in name order.  A directory is read once: a symbolic link to
    a directory that contains it (a loop) is a finding; a directory reached again by another
    way (``latest -> 2024`` beside ``2024``) is not read twice, and no finding blames it, its
    files were read under the first path (as a ``root`` already read when ``again_is_loop`` is
    false: a pattern matched it and its parent)."""
    seen = set() if seen is None else seen
    stack = [(root, 0)]
    chain: list[DirKey] = []  # the directories from ``root`` down to the one read
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
                yield InputError(top, LOOP)
            continue
        seen.add(key)
        chain.append(key)
        entries = _listing(top)
        if isinstance(entries, InputError):
            yield entries
            continue
        subdirs = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if _is_dir(entry):
                subdirs.append((entry.path, depth + 1))
            elif wanted(entry.path):
                yield _found(entry.path, entry)
        stack.extend(reversed(subdirs))


# -- glob patterns -------------------------------------------------------------------------------
def _glob(pattern: str) -> tuple[list[str], list[InputError]]:
    """The paths ``pattern`` matches, as ``glob.glob(recursive=True)`` gives them, and what
    kept a part of it from being searched: a directory that cannot be listed, a symbolic link
    to a directory that contains it.  The files a final ``**`` reaches and the directories
    other patterns match (the caller walks them), never a directory reached a second time.

    The standard library's ``glob`` is not used as it is: it passes over a directory it cannot
    list in silence (the files in it would be lost without a word), and it follows symbolic
    links under ``**`` again and again (a link to ``.`` gives every file once more under
    x/, x/x/, x/x/x/..., and two such links make the search exponential).  Names are matched
    part by part with ``fnmatch``, as ``glob`` matches them."""
    search = _Search(_Pattern.of(pattern))
    search.run()
    return search.out, search.errors


@dataclass(frozen=True)
class _Pattern:
    """A glob pattern split at its first part with a wildcard: the directory it searches
    (``root``), the parts that names below it must match (``rest``), and whether it ends
    with ``/`` (directories only)."""

    root: str
    rest: tuple[str, ...]
    dirs_only: bool

    @classmethod
    def of(cls, pattern: str) -> _Pattern:
        parts = pattern.rstrip("/").split("/")
        k = next(i for i, part in enumerate(parts) if glob.has_magic(part))
        root = "/".join(parts[:k]) or ("/" if pattern.startswith("/") else "")
        return cls(root, tuple(parts[k:]), pattern.endswith("/"))

    @property
    def anywhere(self) -> bool:
        """Whether any directory below the root may hold a match (else only the directories
        the pattern's parts name are read)."""
        return "**" in self.rest

    @property
    def hidden(self) -> bool:
        """Whether hidden names are looked at: the pattern names one."""
        return any(part.startswith(".") for part in self.rest)

    def matches(self, rel: tuple[str, ...]) -> bool:
        return _glob_match(self.rest, rel)

    def enters(self, rel: tuple[str, ...]) -> bool:
        """Whether a directory at ``rel`` below the root may hold a match."""
        if rel[-1].startswith(".") and not self.hidden:
            return False
        return self.anywhere or (
            len(rel) < len(self.rest) and _glob_match(self.rest[: len(rel)], rel)
        )

    def takes_dir(self, rel: tuple[str, ...]) -> bool:
        """Whether a directory matches, to be read by walking it (``a/**/``, ``**/sub``)."""
        return (self.dirs_only or self.rest[-1] != "**") and self.matches(rel)

    def takes_file(self, rel: tuple[str, ...]) -> bool:
        """Whether a file matches: a final ``**`` takes the files under a directory that the
        rest of the pattern matches."""
        if self.dirs_only or (rel[-1].startswith(".") and not self.hidden):
            return False
        return self.matches(rel[:-1] if self.rest[-1] == "**" else rel)


class _Search:
    """The walk behind ``_glob``, from the pattern's root down, each directory once."""

    def __init__(self, pattern: _Pattern) -> None:
        self.pattern = pattern
        self.out: list[str] = []
        self.errors: list[InputError] = []
        self.seen: set[DirKey] = set()
        self.chain: list[DirKey] = []  # the directories from the root down to the one read

    def run(self) -> None:
        pattern = self.pattern
        stack: list[tuple[str, tuple[str, ...]]] = [(pattern.root, ())]
        while stack:
            top, rel = stack.pop()
            del self.chain[len(rel) :]
            stack.extend(reversed(self._visit(top, rel)))
        if pattern.dirs_only and pattern.root and pattern.matches(()):  # "a/**/" matches a/
            self.out.insert(0, pattern.root.rstrip("/") + "/")

    def _visit(self, top: str, rel: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
        """Read one directory: its matches kept, the directories to enter given back."""
        try:
            st = os.stat(top or ".")
        except OSError as e:
            if rel or e.errno != errno.ENOENT:  # (a root that is not there: no match)
                self.errors.append(InputError(top or ".", f"cannot list directory: {e.strerror}"))
            return []
        key = (st.st_dev, st.st_ino)
        if key in self.seen:
            return []
        self.seen.add(key)
        self.chain.append(key)
        entries = _listing(top)
        if isinstance(entries, InputError):
            self.errors.append(entries)
            return []
        subdirs = []
        for entry in entries:
            path_rel = (*rel, entry.name)
            path = os.path.join(top, entry.name) if top else entry.name
            if not _is_dir(entry):
                if self.pattern.takes_file(path_rel):
                    self.out.append(path)
            elif self._directory(entry, path, path_rel):
                subdirs.append((path, path_rel))
        return subdirs

    def _directory(self, entry: os.DirEntry[str], path: str, rel: tuple[str, ...]) -> bool:
        """Keep a directory that matches; whether to enter it."""
        try:
            st = entry.stat()
        except OSError:
            return False
        entered = self.pattern.enters(rel)
        key = (st.st_dev, st.st_ino)
        if key in self.seen:  # a link to a directory walked
            if entered and key in self.chain:
                self.errors.append(InputError(path, LOOP))
            return False
        if self.pattern.takes_dir(rel):
            self.out.append(path + "/" if self.pattern.dirs_only else path)
        return entered


def _glob_match(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    """Whether the parts of a path match the parts of a pattern: ``**`` is any number of
    parts, other parts match one name each as ``fnmatch`` says (case as the name is), and a
    name that starts with ``.`` only a part that does (glob's hidden files).  A walk over
    the pattern's positions (no recursion: trees may be thousands of levels deep)."""
    states = _after_stars(pattern, {0})
    for name in path:
        hidden = name.startswith(".")
        after: set[int] = set()
        for i in states:
            part = pattern[i] if i < len(pattern) else None
            if part == "**":
                if not hidden:
                    after.add(i)
            elif (
                part is not None
                and (not hidden or part.startswith("."))
                and fnmatch.fnmatchcase(name, part)
            ):
                after.add(i + 1)
        if not after:
            return False
        states = _after_stars(pattern, after)
    return len(pattern) in states


def _after_stars(pattern: tuple[str, ...], states: set[int]) -> set[int]:
    """``states`` and the positions after the ``**`` they stand on (``**`` may match no
    name)."""
    todo = list(states)
    while todo:
        i = todo.pop()
        if i < len(pattern) and pattern[i] == "**" and i + 1 not in states:
            states.add(i + 1)
            todo.append(i + 1)
    return states


# -- the records of a file -----------------------------------------------------------------------
def read_path(
    path: str,
    fmt: str | None = None,
    options: ReadOptions | None = None,
    on_read: Callable[[int], None] | None = None,
    walk_key: limits.WalkKey | None = None,
) -> Iterator[Record]:
    """Every record of one file (``-`` = standard input); an unreadable file is one record.

    ``on_read`` is called with the number of bytes each time the file is read further (for a
    progress bar); records come out as their bytes are read, so a big file streams.
    ``walk_key`` bounds the file's distinct openings (``limits.bound_walks``).
    """
    opts = options or ReadOptions()
    if path == "-":
        yield from _read_stdin(fmt, opts, on_read, walk_key)
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
        elif st.st_size == 0:
            # (not read: a file of /proc or /sys says size 0 whatever it holds, and some of
            # them block for ever, trace_pipe among them, in a directory walk too)
            yield unreadable(path, EMPTY_FILE)
        else:
            yield from _read_file(raw, st, path, fmt, opts.for_file(st.st_size), on_read, walk_key)
    except OSError as e:
        yield unreadable(path, f"read error: {e.strerror or e}")
    finally:
        raw.close()


def read_binary(
    file: BinaryIO,
    name: str = "<stream>",
    fmt: str | None = None,
    options: ReadOptions | None = None,
    walk_key: limits.WalkKey | None = None,
) -> Iterator[Record]:
    """Every record of a binary file object from where it stands, read as a pipe is (its
    format told from its first kilobytes, read ahead when the format is read whole); ``name``
    names it in the records.  The caller closes it."""
    read: Callable[[int], bytes] = getattr(file, "read1", file.read)
    yield from _read_pipe(read, name, fmt, options or ReadOptions(), None, walk_key)


#: What is said of a regular file of size 0.
EMPTY_FILE = (
    "the file is empty (its size is 0; a file of /proc or /sys that holds "
    "bytes all the same is read through a pipe: cat FILE | renju check -)"
)


def _read_file(
    raw: io.FileIO,
    opened: os.stat_result,
    path: str,
    fmt: str | None,
    sized: ReadOptions,
    on_read: Callable[[int], None] | None,
    walk_key: limits.WalkKey | None,
) -> Iterator[Record]:
    """The records of a regular file, read as big as it was when opened: its bounds were set
    by that size, and what is written to it meanwhile is said, not read
    (``changed_while_read``)."""
    head = file_head(raw.fileno())
    window = Window(raw, opened.st_size)
    stream = io.BufferedReader(window if on_read is None else _CountingRaw(window, on_read))
    count = 0
    nothing: Record | None = None  # "no record found": said only if the file stayed
    records = formats.read_stream(stream, path, fmt, sized)
    for record in limits.bound_walks(records, sized, walk_key):
        if formats.found_nothing(record):
            nothing = record
            continue
        count += 1
        yield record
    changed = changed_while_read(path, opened, raw.fileno(), head, count)
    if changed is None:
        if nothing is not None:
            yield nothing
        return
    if nothing is not None and _grew(changed):
        # what was read held no record, and more came: both are said (as when it is cut into
        # slices for --jobs)
        yield nothing
        changed.source = dataclasses.replace(changed.source, index=1)
    yield changed


def read_bytes(
    data: bytes,
    path: str = "<string>",
    fmt: str | None = None,
    options: ReadOptions | None = None,
    walk_key: limits.WalkKey | None = None,
) -> Iterator[Record]:
    """Every record of a file's content held in memory; a move list when no format matches.
    ``walk_key`` bounds its distinct openings, as ``read_path``'s."""
    if fmt is None and data.strip() and formats.detect(data[: formats.HEAD_BYTES], path) is None:
        fmt = "notation"  # the historical reading of analyze(): a bare move list
    sized = (options or ReadOptions()).for_file(len(data))
    stream = io.BufferedReader(io.BytesIO(data))
    yield from limits.bound_walks(formats.read_stream(stream, path, fmt, sized), sized, walk_key)


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


# -- pipes ---------------------------------------------------------------------------------------
def _read_stdin(
    fmt: str | None,
    opts: ReadOptions,
    on_read: Callable[[int], None] | None,
    walk_key: limits.WalkKey | None,
) -> Iterator[Record]:
    if sys.stdin is None:  # started with standard input closed (``<&-``)
        yield unreadable("<stdin>", "standard input is closed")
        return
    yield from _read_pipe(_stdin_read(), "<stdin>", fmt, _for_stdin(opts), on_read, walk_key)


def _read_pipe(
    read: Callable[[int], bytes],
    name: str,
    fmt: str | None,
    opts: ReadOptions,
    on_read: Callable[[int], None] | None,
    walk_key: limits.WalkKey | None = None,
) -> Iterator[Record]:
    """The records of a pipe (standard input, a named pipe, a device).  The first kilobytes
    are read before anything else: the format is detected from them, and a pipe delivers a
    few bytes at a time.  Move lists, JSON Lines and PlayOK games are read as a stream: records
    come out as their bytes arrive, and memory stays bounded however much (or how long) is
    piped in.  Other formats are read to their end first (``_Spool``, 64 MiB at most) and
    bounded by their size, as the file named would be.  ``read(n)`` reads once, what has come
    (at most n bytes)."""
    head, failure = _pipe_head(read)
    if not head and failure is None:
        empty = "standard input is empty" if name == "<stdin>" else "nothing came through it"
        yield unreadable(name, empty)
        return
    if head:
        if on_read is not None:
            on_read(len(head))
        piped = _Piped(head, read, failure, on_read)
        # (its format as read_stream tells it, UTF-16 text recoded first: told once, here)
        fmt = fmt or formats.detect_file(head, name)
        stream = piped.stream(fmt, opts)
        try:
            yield from limits.bound_walks(
                formats.read_stream(stream, name, fmt, piped.opts), piped.opts, walk_key
            )
        except OSError as e:
            piped.failure = e
        finally:
            piped.close()  # (its temporary file: a reader may stop before its end)
        failure = piped.failure
    if failure is not None:
        yield unreadable(name, f"read error: {failure.strerror or failure}")


def _pipe_head(read: Callable[[int], bytes]) -> tuple[bytes, OSError | None]:
    """The first ``formats.HEAD_BYTES`` of a pipe (fewer if it ends), and the read error that
    cut them short, if one did (the records of what came before it are still read)."""
    head = b""
    try:
        while len(head) < formats.HEAD_BYTES:
            chunk = read(formats.HEAD_BYTES - len(head))
            if not chunk:
                break
            head += chunk
    except OSError as e:
        return head, e
    return head, None


#: Formats whose records a pipe may deliver one at a time, as they are written (a live feed of
#: move lists, JSON Lines or PlayOK games): read as they come.  A pipe of another format is read
#: to its end first (``_Spool``): its readers read it whole anyway (SGF, PSQ, diagrams), or no
#: program writes a RenLib library or a RenjuNet database a game at a time.
PIPE_STREAMED = frozenset({"notation", "jsonl", "playok"})


class _Piped:
    """A pipe after its head: read on as it comes, or read to its end first (``stream``)."""

    def __init__(
        self,
        head: bytes,
        read: Callable[[int], bytes],
        failure: OSError | None,
        on_read: Callable[[int], None] | None,
    ) -> None:
        self.head = head
        self.read = read
        self.failure = failure
        self.on_read = on_read
        self.spool: _Spool | None = None
        self.opts = ReadOptions()

    def stream(self, fmt: str | None, opts: ReadOptions) -> io.BufferedReader:
        """The pipe from its start; ``opts`` sized when it was read to its end."""
        self.opts = opts
        if self.failure is not None:
            return io.BufferedReader(_AfterHead(self.head, _nothing_more, self.on_read))
        if opts.sized_for is not None or fmt in PIPE_STREAMED or fmt is None:
            return io.BufferedReader(_AfterHead(self.head, self.read, self.on_read))
        # a format read whole, or that no feed delivers a record at a time: read to its end
        # first, so that it is bounded by its size as a file is (as far as a file read whole
        # may be, or ``--limit whole-file`` if more)
        limit = max(opts.max_file, ReadOptions.max_file)
        spool = self.spool = _Spool(self.read, limit - len(self.head), self.on_read)
        self.failure = spool.failure
        if spool.complete:
            self.opts = opts.for_file(len(self.head) + spool.size)
        # (the spool counts what it reads past what it holds)
        return io.BufferedReader(_AfterHead(self.head, spool.read, None))

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()


def _nothing_more(n: int) -> bytes:
    return b""


class _Spool:
    """A pipe read to its end (``limit`` bytes at most), in memory up to ``MEMORY`` bytes and
    in a temporary file past that, then read again (``read``): its size is then known, and it
    is bounded by it as a file of that size is (a RenLib library piped in, unbounded, would
    make ten times the records of the file named, in ten times the time).  A pipe longer
    than ``limit``, or whose rest no temporary file can hold (a full disk), is read on past
    what was spooled, as a stream of unknown size; a read error of the pipe ends it
    (``failure``)."""

    #: Bytes kept in memory; the rest goes to a temporary file.
    MEMORY = 4 << 20

    def __init__(
        self, read: Callable[[int], bytes], limit: int, on_read: Callable[[int], None] | None
    ) -> None:
        #: the first bytes, in one buffer read back from ``at`` (a pipe written a byte at a
        #: time gives a read a byte: kept one by one, reading them back would be quadratic)
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
                import tempfile  # (here: a move list piped in never needs it)

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

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer)
        if self.head:
            n = min(len(view), len(self.head))
            view[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.read_more(len(view))
        n = len(data)
        view[:n] = data
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

    def readinto(self, buffer: WriteableBuffer) -> int:
        if self.left <= 0:
            return 0
        view = memoryview(buffer)
        view = view[: min(len(view), self.left)]
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

    def readinto(self, buffer: WriteableBuffer) -> int | None:
        n = self.raw.readinto(buffer)
        if n:
            self.on_read(n)
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()
