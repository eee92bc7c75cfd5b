"""pytest hooks for the whole run.

CPython before 3.11.5 (Debian 12's 3.11.2, the CI machine's) can keep the interpreter from
exiting after a process pool lost a worker: at exit, ``concurrent.futures`` joins the pool's
manager thread, which waits for the call queue's feeder thread, which waits for a sentinel that
only a later exit handler sends (CPython gh-94777 and its neighbours).  Tests here kill workers on
purpose; ``renju_cli.batch._unblock_broken`` makes the common case end, but a CI run was seen to
print its summary and then wait for ever.  On such Pythons the process ends itself once pytest
has reported, with pytest's exit status.

A shell starts a background job with Ctrl-C ignored, and an ignored signal stays ignored across
``exec``: the tests that interrupt a ``renju`` child would wait for ever on it.  Caught here, it
is the default again in every child.

Under ``--dist loadgroup`` (pyproject's addopts) a module marked ``xdist_group`` runs whole in
one xdist worker, so that its costly module fixtures (a Dask cluster, a 100,000-record archive,
the corpus) are made once.  pytest-xdist 3.8 groups by a suffix it writes into each test's
node id, which pytest 9.2's structured node ids no longer take (pytest-xdist issue 1386): the
tests were spread one by one and every module fixture made in both workers.  The scheduler
below groups such a module by its path, read from the module's own mark.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

_STATUS: list[int] = []


def pytest_configure(config: pytest.Config) -> None:
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    if sys.version_info < (3, 11, 5) and _STATUS:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_STATUS[-1])


def grouped_modules(config: pytest.Config) -> frozenset[str]:
    """The test modules marked ``xdist_group``, as node ids name them."""
    here = Path(__file__).resolve().parent
    return frozenset(
        path.relative_to(config.rootpath).as_posix()
        for path in here.glob("test_*.py")
        if "pytest.mark.xdist_group(" in path.read_text("utf-8")
    )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling  # type: ignore[import-untyped]

    grouped = grouped_modules(config)

    class ModuleGroups(LoadGroupScheduling):  # type: ignore[misc]
        """``loadgroup``, and a module marked ``xdist_group`` one unit of work."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in grouped else super()._split_scope(nodeid)

    return ModuleGroups(config, log)
