"""Signals held back while something must not be cut in two.

A Ctrl-C, SIGTERM or SIGHUP whose handler raises can land in the middle of a fork, of the
import of a C extension or of a temporary file not yet in the hands of the code that removes
it; there its exception may be printed and dropped, or turned into an ``ImportError``, and the
run would go on.  Held back, the signal is handled once the block is done.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

#: Signals whose handlers raise in the parent (Ctrl-C's ``KeyboardInterrupt``, SIGTERM's and
#: SIGHUP's ``Terminated`` of the command line).
HELD = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold back ``HELD`` signals until the block is done.  Nothing is held off the main
    thread, or without POSIX signal masks."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    except (AttributeError, ValueError, OSError):  # no POSIX threads' signal masks
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
