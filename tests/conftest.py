"""pytest hooks for the whole run.

CPython before 3.11.5 (Debian 12's 3.11.2, the CI machine's) can keep the interpreter from
exiting after a process pool lost a worker: at exit, ``concurrent.futures`` joins the pool's
manager thread, which waits for the call queue's feeder thread, which waits for a sentinel that
only a later exit handler sends (CPython gh-94777 and its neighbours).  Tests here kill workers on
purpose; ``renju_cli.batch._unblock_broken`` makes the common case end, but a CI run was seen to
print its summary and then wait for ever.  On such Pythons the process ends itself once pytest
has reported, with pytest's exit status.  So does every pytest-xdist worker, on any Python, once
it has sent its reports: freeing each object its tests made is time the run waits for and
nobody uses (the process that started the workers exits as usual, removing its locks).

A shell starts a background job with Ctrl-C ignored, and an ignored signal stays ignored across
``exec``: the tests that interrupt a ``renju`` child would wait for ever on it.  Caught here, it
is the default again in every child.

Where ``PYTHONDONTWRITEBYTECODE`` is set (CI machines, containers), every ``renju`` process the
tests start compiled the package anew: half of its start-up, and a sixth of the suite.  Its
bytecode is written once here, before the workers start.  The test modules as pytest rewrites
their asserts are kept too: without them each worker rewrites all of them at every run, some
seconds each.
"""

from __future__ import annotations

import compileall
import contextlib
import importlib
import os
import signal
import sys
from pathlib import Path

import pytest

_STATUS: list[int] = []


def pytest_configure(config: pytest.Config) -> None:
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if not hasattr(config, "workerinput"):  # (once: in the process that starts the workers)
        compile_the_package()
    sys.dont_write_bytecode = False  # (the test modules as pytest rewrote them, kept)


def pytest_collection(session: pytest.Session) -> None:
    """Each pytest-xdist worker imports the test modules from its own place in their list
    first (of two, one from the top and one from the middle): on a first run they rewrite
    different halves, and each reads the other's from the cache."""
    worker = getattr(session.config, "workerinput", None)
    if worker is None:
        return
    tests = sorted(Path(__file__).parent.glob("test_*.py"))
    start = int(worker["workerid"].removeprefix("gw")) * len(tests) // int(worker["workercount"])
    for path in tests[start:] + tests[:start]:
        # (a module that cannot be imported is said as pytest collects it)
        with contextlib.suppress(Exception, pytest.skip.Exception):
            importlib.import_module(path.stem)


def compile_the_package() -> None:
    """Write the bytecode of the package the tests' processes import: the checkout's (what
    ``python -m renju_cli`` finds from here) and the installed one."""
    import renju_cli

    here = Path(__file__).resolve().parents[1] / "renju_cli"
    for package in {here, Path(renju_cli.__file__).resolve().parent}:
        compileall.compile_dir(package, quiet=2)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    worker = hasattr(config, "workerinput")
    if (worker or sys.version_info < (3, 11, 5)) and _STATUS:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_STATUS[-1])
