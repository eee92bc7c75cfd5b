"""What every renderer of ``renju check`` is: fed reports one at a time, closed by the summary.

A renderer is fed reports one at a time (``record``), in input order, and closes with the
batch summary (``finish``), so output streams and memory stays flat.
"""

from __future__ import annotations

from typing import TextIO

from renju_cli.report import ERROR, GameReport, Summary


class RenderError(OSError):
    """A renderer could not keep what it writes (the JUnit renderer spools a file's cases to a
    temporary file, which a full disk refuses): the report cannot be written."""


class Renderer:
    """Base class: writes to ``out``.

    ``fail_on`` is the lowest severity that fails the run (``--fail-on``; ``None`` = never), for
    formats that mark records as failed (JUnit).
    """

    def __init__(self, out: TextIO, quiet: bool = False, *, fail_on: str | None = ERROR) -> None:
        self.out = out
        self.quiet = quiet
        self.fail_on = fail_on

    def record(self, report: GameReport) -> None:
        """Render the report of one record."""
        raise NotImplementedError

    def finish(self, summary: Summary) -> None:
        """Close the output with the batch summary."""
