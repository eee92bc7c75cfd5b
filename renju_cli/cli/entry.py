"""The process around the command line: standard streams, signals, and the exit codes of
``shared/spec/cli.md`` for whatever ends a run (never a traceback for bad input)."""

from __future__ import annotations

import contextlib
import gc
import io
import os
import signal
import sys
from collections.abc import Callable
from typing import NoReturn, TextIO

import click

from renju_cli.cli.app import EXIT_CLEAN, EXIT_INTERNAL, EXIT_USAGE, cli, shown
from renju_cli.cli.output import give_up_output, remove_temporaries

#: The exit code of a run interrupted by Ctrl-C.
EXIT_INTERRUPTED = 130


def main(argv: list[str] | None = None) -> None:
    """Run the CLI with the exit-code contract: never a traceback for bad input.

    Without ``argv`` the process is the command's own (``renju``, ``python -m renju_cli``): its
    standard streams and signals are set up for a run; with ``argv`` (tests, embedding
    programs) they are left as they are."""
    if sys.stderr is None:  # started with standard error closed (2>&-): messages go nowhere
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    if argv is None:
        _own_process()
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        code = cli.main(args=argv, prog_name="renju", standalone_mode=False)
    except SystemExit:
        raise
    except BaseException as e:
        handle = _ending(e, debug)
        if handle is None:
            raise
        handle(e)
    if code == 0 and sys.stdout is None:
        # Click "exits" 0 after printing the help or the version, which its echo skips
        # without a word when standard output is closed (``>&-``)
        click.echo("renju: cannot write standard output: it is closed", err=True)
        sys.exit(EXIT_USAGE)


def _own_process() -> None:
    """What a process that runs one command sets up: its collector, its streams, its signals."""
    tune_gc()
    _tolerant_stdout()
    sys.stderr = QuietStderr(sys.stderr)
    _terminate_cleanly()


def tune_gc() -> None:
    """Collect cycles less often in a process that runs one command and exits.

    A batch allocates a few dozen small objects per record, nearly all freed by reference
    counting; the default thresholds still run a young collection every few records and walk
    what start-up built (modules, tables) again and again: 10-20 % of a check.  What exists
    now is frozen (never collected: it lives as long as the process), and young collections
    run every 50,000 allocations (mypy does the same).  Not done when ``main`` is given its
    arguments, as tests and embedding programs do: the process is theirs.
    """
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def forget_interrupt() -> None:
    """Call before exiting on a Ctrl-C that was handled.  A ``KeyboardInterrupt`` raised inside
    ``exec`` of a string (``dataclasses`` and ``namedtuple`` build their methods so, at import)
    sets CPython's "unhandled Ctrl-C" flag even when caught later, and under ``python -m`` the
    process then kills itself with SIGINT at exit instead of ending with code 130.  The next
    ``exec`` of a string clears it."""
    exec("None")


# -- what ends a run --------
def _ending(e: BaseException, debug: bool) -> Callable[[BaseException], NoReturn] | None:
    """How a run ended by ``e`` exits; ``None``: ``e`` goes on (a traceback with ``--debug``)."""
    for kind, handle in _ENDINGS:
        if isinstance(e, kind):
            return handle
    if debug or not isinstance(e, Exception):
        return None
    return _internal_error


def _exit_code(e: BaseException) -> NoReturn:
    assert isinstance(e, click.exceptions.Exit)
    sys.exit(e.exit_code)


def _interrupted(e: BaseException) -> NoReturn:
    remove_temporaries()
    click.echo("renju: interrupted", err=True)
    forget_interrupt()
    sys.exit(EXIT_INTERRUPTED)


def _usage_error(e: BaseException) -> NoReturn:
    assert isinstance(e, click.ClickException)
    # (paths and names come from the user and from directories: no escape sequences)
    # (click types ``message`` as final; it is a plain attribute, read by ``show``)
    setattr(e, "message", "\n".join(shown(line) for line in e.message.split("\n")))  # noqa: B010
    e.show()
    sys.exit(EXIT_USAGE)


def _terminated(e: BaseException) -> NoReturn:
    # the report's temporary file is gone (its context closed on the way here, or, cut short
    # by the signal, removed now); no waiting at exit for workers the signal may have killed
    # mid-message (the pool's thread could wait on the rest for ever): they end with this
    # process
    assert isinstance(e, Terminated)
    remove_temporaries()
    click.echo(f"renju: terminated ({signal.Signals(e.signum).name})", err=True)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(128 + e.signum)


def _reader_gone(e: BaseException) -> NoReturn:
    # The reader went away (renju check ... | head): stop quietly.
    give_up_output(None)
    sys.exit(EXIT_CLEAN)


def _internal_error(e: BaseException) -> NoReturn:
    if isinstance(e, OSError) and _raised_by_click_echo(e):
        # what Click itself prints (--help, --version) onto a full or failing output
        give_up_output(None)
        click.echo(f"renju: cannot write standard output: {e.strerror or e}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(
        f"renju: internal error: {type(e).__name__}: {e} (run with --debug for the traceback)",
        err=True,
    )
    sys.exit(EXIT_INTERNAL)


class Terminated(BaseException):
    """SIGTERM or SIGHUP: ended as Ctrl-C ends a run (the pool stopped, no partial report
    left), with exit code 128 + the signal's number.  Not a ``KeyboardInterrupt``, which
    Click answers with a blank line (to close the terminal's ``^C``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: What ends a run, in the order it is asked, and how the run then exits.
_ENDINGS: tuple[tuple[type[BaseException], Callable[[BaseException], NoReturn]], ...] = (
    (click.exceptions.Exit, _exit_code),
    (click.exceptions.Abort, _interrupted),
    (click.ClickException, _usage_error),
    (Terminated, _terminated),
    (KeyboardInterrupt, _interrupted),
    (BrokenPipeError, _reader_gone),
)


# -- signals and streams --------
def _terminate_cleanly() -> None:
    """SIGTERM (``kill``, a CI job cancelled) and SIGHUP (the terminal closed) end the run as
    Ctrl-C does: without it, they ended the process on the spot, leaving a temporary report
    beside ``--output`` and the workers of ``--jobs N`` running for ever."""

    def stop(signum: int, frame: object) -> None:
        # once: a second signal ends the process on the spot (raised again during the
        # clean-up, it left the interpreter waiting on its workers for ever)
        for other in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(ValueError, OSError):
                signal.signal(other, signal.SIG_DFL)
        raise Terminated(signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):  # not the main thread: left as is
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, stop)


class QuietStderr(io.TextIOBase):
    """Standard error whose own failure never ends the run: a closed pipe or a full disk
    there (``2>/dev/full``, a log reader gone) lose the messages and the progress bar, not the
    report (``--progress -o r.txt`` with standard error a closed pipe exited 0 and wrote no
    report: the bar's broken pipe was taken for standard output's)."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream: TextIO | None = stream

    def _failed(self) -> None:
        # what is still buffered would fail again at exit: the descriptor goes to /dev/null
        stream, self._stream = self._stream, None
        with contextlib.suppress(Exception):
            assert stream is not None
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                return self._stream.write(text)
            except (OSError, ValueError):
                self._failed()
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._failed()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("standard error failed")
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._stream, "errors", None)


def _tolerant_stdout() -> None:
    """Standard output replaces what UTF-8 cannot encode (a lone surrogate in a record's text,
    from a JSON escape or a UTF-7 decoding) instead of failing the run; ``--output`` files are
    opened the same way.  Not done when ``main`` is given its arguments: the process is theirs."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(Exception):  # a stream that cannot change stays as it is
            reconfigure(errors="replace")


def _raised_by_click_echo(e: BaseException) -> bool:
    """Whether ``e`` came out of ``click.echo`` itself: a write of Click's own (the help, the
    version, a usage error), which failed on its stream."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return (
        tb is not None
        and tb.tb_frame.f_code.co_name == "echo"
        and tb.tb_frame.f_globals.get("__name__") == "click.utils"
    )
