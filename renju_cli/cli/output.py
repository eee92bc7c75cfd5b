"""Where a command's report goes: standard output, or a file written atomically.

``report_output`` is what every command that writes a report uses (``check``, ``diff``,
``convert``): a file is written to a temporary file beside it and renamed over it only when
complete, so that a failed or interrupted run leaves it as it was; a device or a named pipe is
written in place (renaming over it would replace the device node); a write error becomes
``OutputError`` (exit code 2, one line), a closed pipe stays ``BrokenPipeError`` (quiet exit).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO, cast

import click

from renju_cli.cli.app import EXIT_CLEAN, EXIT_USAGE


class OutputError(Exception):
    """The report cannot be written (a full disk, a missing directory...)."""

    def __init__(self, target: str, error: OSError) -> None:
        from renju_cli.record import printable

        super().__init__(f"cannot write {printable(target)}: {error.strerror or error}")


class _Checked:
    """A text stream whose write errors become ``OutputError`` (a closed pipe stays a
    ``BrokenPipeError``: the reader went away, which is no error of ours)."""

    def __init__(self, stream: TextIO, target: str) -> None:
        self.stream = stream
        self.target = target

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(self.target, e) from None

    def write(self, text: str) -> int:
        # once per record: no extra call level
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(self.target, e) from None

    def flush(self) -> None:
        self._call(self.stream.flush)

    def close(self) -> None:
        self._call(self.stream.close)

    def isatty(self) -> bool:
        return self.stream.isatty()


@contextlib.contextmanager
def report_output(path: str | None, durable: bool = True) -> Iterator[TextIO]:
    """Standard output, or ``path`` written atomically: the report goes to a temporary file
    beside it, renamed over ``path`` only once complete; on any failure (a full disk, Ctrl-C)
    the temporary file is removed and ``path`` is left as it was.  A ``path`` that is no
    regular file (a device, a named pipe) is written in place: renaming over it would replace
    the device node itself; a symbolic link is followed, so the link stays.  ``durable``:
    its data synced to the disk before the rename (one file of many may skip it)."""
    if path is None or path == "-":
        if sys.stdout is None:  # started with standard output closed (>&-)
            raise OutputError("standard output", OSError(errno.EBADF, "it is closed"))
        yield from _guarded(sys.stdout, "standard output")
    elif _special(path):
        yield from _in_place(path)
    else:
        yield from _atomic(path, durable)


def _in_place(path: str) -> Iterator[TextIO]:
    """``path`` that is no regular file (a device, a named pipe), written where it is."""
    try:
        stream = open(path, "w", encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError as e:
        raise OutputError(path, e) from None
    try:
        yield from _guarded(stream, path)
    finally:
        with contextlib.suppress(OSError):  # what failed was reported; closing retries it
            stream.close()


def _atomic(path: str, durable: bool) -> Iterator[TextIO]:
    """``path`` written to a temporary file beside it, renamed over it once whole."""
    from renju_cli.signals import signals_held

    real = os.path.realpath(path)
    # a Ctrl-C between the temporary file's creation and the ``try`` that removes it left it
    # behind (convert --to psq makes one per record): signals are held back until inside the
    # ``try``
    held = contextlib.ExitStack()
    held.enter_context(signals_held())
    try:
        fd, tmp = _temporary_beside(real)
    except OSError as e:
        held.close()
        raise OutputError(path, e) from None
    _TEMPORARIES.add(tmp)
    # errors="replace": an undecodable file name must not stop the report
    out = _Checked(open(fd, "w", encoding="utf-8", errors="replace"), path)  # noqa: SIM115
    try:
        held.close()  # a signal held back is handled here, where the file is removed
        yield cast(TextIO, out)
        _finish(out, fd, tmp, real, durable)
    except BaseException:
        with contextlib.suppress(OSError):
            out.stream.close()
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _TEMPORARIES.discard(tmp)
        raise


def _finish(out: _Checked, fd: int, tmp: str, real: str, durable: bool) -> None:
    """The whole temporary file ``tmp`` (``fd``, written through ``out``) flushed, synced when
    ``durable``, closed and renamed over ``real``."""
    out.flush()
    try:
        if durable:
            os.fsync(fd)
        out.close()
        _put_in_place(tmp, real)
        _TEMPORARIES.discard(tmp)
    except OSError as e:
        raise OutputError(out.target, e) from None


#: Temporary files made and not yet renamed or removed.  A signal's exception raised in the
#: machinery of a ``with`` (between its exit and the generator it resumes) leaves the
#: generator suspended, its ``except`` not run, and SIGTERM's exit does not wait for it to be
#: collected: a ``convert --to psq`` interrupted so could leave a temporary file.
_TEMPORARIES: set[str] = set()


def remove_temporaries() -> None:
    """Remove the temporary files of outputs not finished (before an exit that collects
    nothing: ``os._exit`` on SIGTERM)."""
    for tmp in list(_TEMPORARIES):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _TEMPORARIES.discard(tmp)


def _guarded(stream: TextIO, target: str) -> Iterator[TextIO]:
    out = _Checked(stream, target)
    yield cast(TextIO, out)
    out.flush()  # a full disk shows here, not at exit


def _special(path: str) -> bool:
    """Whether ``path`` exists and is no regular file (a device, a named pipe): written in
    place, since renaming over it would replace the node itself.  A missing path is not (it is
    created; a broken link is replaced)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _temporary_beside(real: str) -> tuple[int, str]:
    """A new temporary file in the directory of ``real``, to be renamed over it when whole."""
    import tempfile  # (here: it pulls in shutil and random, which output to a terminal skips)

    return tempfile.mkstemp(
        # (the name cut: with the random part, a name of 250 bytes would pass the limit)
        prefix=f".{os.fsdecode(os.fsencode(os.path.basename(real))[:100])}.",
        suffix=".tmp",
        dir=os.path.dirname(real),
    )


def _put_in_place(tmp: str, real: str) -> None:
    """The whole temporary file ``tmp`` renamed over ``real``, with the mode ``real`` had."""
    os.chmod(tmp, _new_file_mode(real))
    os.replace(tmp, real)


def _new_file_mode(path: str) -> int:
    """The mode of the file being replaced, else what ``open`` would give a new file."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def give_up_output(output: str | None) -> None:
    """Point standard output (when it is the output) at /dev/null: what is still buffered for
    it would fail again at exit, after the one line that said why."""
    if (output is None or output == "-") and sys.stdout is not None:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())


@contextlib.contextmanager
def written(path: str | None, durable: bool = True) -> Iterator[TextIO]:
    """``report_output`` with its failures turned into the exit-code contract: an output that
    cannot be written (or a renderer's spool: ``render.RenderError``) ends the run with one
    line and exit code 2, a closed pipe quietly."""
    try:
        with report_output(path, durable) as out:
            yield out
    except OutputError as e:
        give_up_output(path)
        click.echo(f"renju: {e}", err=True)
        sys.exit(EXIT_USAGE)
    except BrokenPipeError:
        # the reader went away (renju check ... | head): stop quietly, as asked.  Handled here
        # because Click turns EPIPE into exit code 1 before the entry point sees it
        give_up_output(None)
        sys.exit(EXIT_CLEAN)
    except OSError as e:
        from renju_cli.output import RenderError  # (not at start-up: it imports orjson)

        if not isinstance(e, RenderError):
            raise
        give_up_output(path)
        click.echo(f"renju: cannot write the report: {e.strerror}", err=True)
        sys.exit(EXIT_USAGE)


def echo(text: str, *, nl: bool = True) -> None:
    """``click.echo`` to standard output under ``written``'s contract: standard output closed
    (``>&-``) or full ends the run with one line and exit code 2, a closed pipe quietly."""
    with written(None) as out:
        out.write(text + "\n" if nl else text)


def write_bytes(path: str, data: bytes) -> None:
    """``data`` into ``path`` as ``report_output`` writes (a PNG picture): atomically for a file,
    in place for a device or a named pipe, ``-`` to standard output; a failure is one line and
    exit code 2, a closed pipe a quiet exit (``written``)."""
    if path == "-":
        with written(None) as out:
            out.flush()  # (text written before goes first)
            try:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                raise
            except OSError as e:
                raise OutputError("standard output", e) from None
        return
    try:
        if _special(path):
            with open(path, "wb") as f:
                f.write(data)
            return
        real = os.path.realpath(path)
        fd, tmp = _temporary_beside(real)
        try:
            with open(fd, "wb") as f:
                f.write(data)
            _put_in_place(tmp, real)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as e:
        click.echo(f"renju: {OutputError(path, e)}", err=True)
        sys.exit(EXIT_USAGE)
