"""``--record ID``: one record of each file, by the id ``check`` prints (``source.id``).

An id is the record's index in its file (``3``: the fourth record, from 0), and for a line of
a variation tree other than its main line, a dot and the line's name as its reader gives it
(``SourceLocation.id``): SGF names a line by the child taken at each branching where it leaves
the main line (``3.4.3``: tree 3, the fifth child at the first branching, then the fourth),
RenLib by its number from 1 (``3.4``: the fourth line of the library).  A plain number ``N``
also selects the first record of index ``N`` (the main line of tree ``N``, the line ``N`` of a
library), as ``--record N`` always did.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from renju_cli.cli.app import EXIT_USAGE

F = TypeVar("F", bound=Callable[..., Any])

#: What an id is, for the help of every ``--record``.
ID_HELP = (
    "ID is what check prints in brackets (source.id in JSON): N for the record of index N "
    "(from 0), N.L for line L of variation tree N (SGF: the child taken at each branching off "
    "the main line, trailing zeros dropped; RenLib: the line's number from 1)."
)
RECORD_HELP = "Only the record of this id in each file. " + ID_HELP

_ID = re.compile(r"[0-9]+(?:\.[0-9]+)*")


def _record_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A record id (numbers joined by dots), or ``None`` when not given."""
    if value is None:
        return None
    text = value.strip()
    if not _ID.fullmatch(text):
        raise click.BadParameter(
            f"{value!r} is not a record id (such as 3, or 3.4.3 for a line of a variation tree: "
            "the id check prints in brackets)",
            ctx,
            param,
        )
    return text


def record_option(text: str = RECORD_HELP) -> Callable[[F], F]:
    """``--record ID`` (``None`` when not given)."""
    return click.option(
        "--record", "wanted", default=None, metavar="ID", callback=_record_id, help=text
    )


class Selection:
    """Which records ``--record`` keeps: those of id ``wanted`` and, for a plain number, the
    first record of that index in each file (all records without ``wanted``)."""

    def __init__(self, wanted: str | None) -> None:
        self.wanted = wanted
        self.index = int(wanted) if wanted is not None and wanted.isdigit() else None
        #: the files whose record of ``index`` was kept
        self.taken: set[str] = set()

    def __call__(self, source: Any) -> bool:
        """Whether the record from ``source`` (a ``SourceLocation``) is kept."""
        if self.wanted is None:
            return True
        if source.id == self.wanted:
            self.taken.add(source.path)
            return True
        if self.index == source.index and source.path not in self.taken:
            self.taken.add(source.path)
            return True
        return False


def no_record(wanted: str | None, selected: int) -> None:
    """End a run whose ``--record`` selected no record of any input with exit code 2."""
    if wanted is not None and not selected:
        click.echo(f"renju: no input has a record of id {wanted}", err=True)
        sys.exit(EXIT_USAGE)
