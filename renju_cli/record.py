"""The game record: what every format reader yields and the referee replays.

A record is what the file *says*: the moves in the order they were written, the declared result,
metadata, and the opening side information (swaps, fifth-move offers).  It is not checked here; the
referee decides what is legal.  Readers never raise on a malformed record: they yield a record with
``problems`` filled in, so that the batch goes on and the problem reaches the report.
"""

from __future__ import annotations

import functools
import operator
import stat
from collections.abc import Hashable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from renju_cli.coords import Point


class Color(Enum):
    """A stone colour.  Black moves first."""

    BLACK = "black"
    WHITE = "white"

    # members are singletons compared by identity: hashed by it too, in C (Enum's own hash is a
    # Python call, nine per record in a batch's memo keys and point tables)
    __hash__ = object.__hash__

    @property
    def other(self) -> Color:
        # (a module dict, not ``Color.WHITE``: reading a member off its class is a Python call
        # of Enum's, and ``convert`` asks this of every stone it writes and reads back)
        return _OTHER[self]

    def __str__(self) -> str:
        return self.value


BLACK = Color.BLACK
WHITE = Color.WHITE
_OTHER = {BLACK: WHITE, WHITE: BLACK}


#: ``SourceLocation.variation`` of the first line of a variation tree (its main line; a tree of
#: one line, as every game of an SGF collection, has only that one).
MAIN_LINE = "main"


@dataclass(unsafe_hash=True, slots=True)
class SourceLocation:
    """Where a record (or one of its moves) comes from.  Treat it as immutable (it is hashable);
    it is not frozen because a frozen dataclass costs four times as much to build, and readers
    build one per record (a file may hold hundreds of thousands of tiny records).

    ``index`` is the 0-based position of the record in its file; ``line`` is 1-based; ``offset``
    is a byte offset for binary formats.  ``variation`` names a line of a variation tree
    (RenLib, SGF), e.g. ``"12"`` for the 12th root-to-leaf path.
    """

    path: str
    index: int = 0
    line: int | None = None
    offset: int | None = None
    variation: str | None = None

    @property
    def id(self) -> str:
        """The record's id in its file, which ``--record`` selects: its ``index`` (``"3"``), and
        for a line of a variation tree other than its main line, a dot and the ``variation``
        (``"3.4.3"``: line ``4.3`` of tree 3)."""
        if self.variation is None or self.variation == MAIN_LINE:
            return str(self.index)
        return f"{self.index}.{self.variation}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "id": self.id, "index": self.index}
        out["line"] = self.line
        if self.offset is not None:
            out["offset"] = self.offset
        if self.variation is not None:
            out["variation"] = self.variation
        return out


@dataclass(slots=True)
class Move:
    """One move of a record: a stone at ``point``, or a pass when ``point`` is ``None``.

    ``color`` is set only when the format states the colour (SGF ``B[]``/``W[]``); otherwise the
    referee assumes alternation.  ``token`` is the text as written, for messages.
    """

    point: Point | None
    color: Color | None = None
    line: int | None = None
    offset: int | None = None
    token: str | None = None
    comment: str | None = None

    @property
    def is_pass(self) -> bool:
        return self.point is None


@dataclass(slots=True)
class DeclaredResult:
    """The result a record states, which the board may or may not show.

    ``winner`` is ``"black"``, ``"white"``, ``"draw"`` or ``None`` (unknown); ``reason`` is what the
    format says about how it ended (``resign``, ``time``, ``five``...), ``text`` the raw value.
    """

    winner: str | None
    reason: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass(slots=True)
class ParseProblem:
    """Something a reader could not make sense of.  Becomes a ``parse-error`` finding."""

    message: str
    line: int | None = None
    offset: int | None = None
    fatal: bool = False  # the record could not be read at all (no moves were kept)
    #: the finding's severity: "" for a ``parse-error``'s own (error); "warning" or "info" for
    #: what the reader read as its writing program meant it, saying so
    severity: str = ""


@dataclass(slots=True)
class OpeningEvent:
    """A decision of the opening protocol recorded beside the stones.

    ``kind`` is ``swap`` (colours exchanged), ``no-swap`` (a swap opportunity declined),
    ``choose`` (a colour chosen: ``value`` is ``black``/``white``), ``offers`` (fifth-move
    offers: ``points``), ``declare`` (a declared offer count: ``value``).  ``after`` is the number
    of moves already played when the decision was taken.
    """

    kind: str
    after: int
    value: str | None = None
    points: list[Point] = field(default_factory=list)
    line: int | None = None


def same_events(a: list[OpeningEvent], b: list[OpeningEvent]) -> bool:
    """Whether two records hold the very same event objects (the lines of a variation tree,
    the games of the same swap flags): what is worked out of one holds for the other."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


class GameTree:
    """A variation tree (SGF, RenLib) as its reader walks it: depth first, a line (a record of
    its own) at each leaf.  Its lines point to it (``Branch``); the referee walks the tree along
    them with one board that it takes back to where each line leaves the one before, and keeps
    that walk here (``kept``), so that a shared prefix is judged once; the opening check keeps
    its check of the last line here too.

    The walk stays in the process that made it: a tree sent to another process (a worker of
    the pool) arrives without it, and the lines that come with it share a new one.
    """

    __slots__ = ("kept",)

    def __init__(self) -> None:
        #: what is kept of the walks of the tree (the referee's and the opening check's, under
        #: each ruleset), as its last line left them
        self.kept: dict[Hashable, object] = {}

    def __reduce__(self) -> tuple[type[GameTree], tuple[()]]:
        return (GameTree, ())

    def __repr__(self) -> str:
        return "GameTree()"  # (two reads of a file give the same text)


@dataclass(frozen=True, slots=True)
class Branch:
    """Where a line of a variation tree is: ``line``, its 0-based place among the tree's lines
    (in the reader's depth-first order); ``shared``, the moves it has in common with line
    ``line - 1`` (the depth where the reader's walk came back up to; 0 for the first line).
    Two reads of a file give equal records: the tree is not compared."""

    tree: GameTree = field(compare=False)
    line: int
    shared: int


@dataclass(slots=True)
class Record:
    """A game as written in a file.

    Readers of big files build records (and moves, sources, problems) with positional
    arguments, a third faster than keywords: the order of the fields is part of the contract,
    pinned by ``tests/test_notation.py``; append new fields at the end.
    """

    moves: list[Move]
    source: SourceLocation
    #: Board size when the format states it; ``None`` means "as the ruleset says".
    width: int | None = None
    height: int | None = None
    declared_result: DeclaredResult | None = None
    #: Rule named by the file itself (RenjuNet rule table, SGF ``RU``, PlayOK game type).
    rule: str | None = None
    #: Opening id declared by the file (RenjuNet ``D4``...).
    opening_id: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    #: Stones on the board before move 1 (SGF ``AB``/``AW``, preset engine openings).
    setup: list[tuple[Point, Color]] = field(default_factory=list)
    opening_events: list[OpeningEvent] = field(default_factory=list)
    #: Facts a format stores but this tool cannot interpret (e.g. an opaque RenjuNet ``alt``).
    notes: list[str] = field(default_factory=list)
    problems: list[ParseProblem] = field(default_factory=list)
    #: The player names by colour may differ from the seat that declared the result (PlayOK).
    format: str = "notation"
    #: Why the opening protocol is not followed for this record (``None``: it is): set past a
    #: file's bound on distinct openings (``limits.bound_walks``); its opening is still named.
    protocol_not_followed: str | None = None
    #: The colour to play move 1 when the file says (SGF ``PL`` before the first move, as a
    #: problem's setup does); ``None``: black, or after a setup the side with fewer stones.
    to_move: Color | None = None
    #: The record is a line of a variation tree of more than one line: which, and where it
    #: leaves the line before.
    branch: Branch | None = None

    @property
    def unreadable(self) -> bool:
        """The reader could not recover the record at all."""
        # (a loop, not ``any`` over a generator: asked several times per record, and a flood
        # of tiny records with a parse problem each asks it 200,000 times)
        for problem in self.problems:  # noqa: SIM110
            if problem.fatal:
                return True
        return False


# -- findings: what the referee and the opening check say of a record ---------------------------
ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (INFO, WARNING, ERROR)

#: Every finding code, with its default severity.
CODES: dict[str, str] = {
    "parse-error": ERROR,
    "off-board": ERROR,
    "occupied": ERROR,
    "wrong-color": ERROR,
    "illegal-pass": ERROR,
    "forbidden-move": ERROR,
    "unclaimed-foul": WARNING,
    "move-after-end": ERROR,
    "result-mismatch": ERROR,
    "board-size": WARNING,
    "opening-region": ERROR,
    "opening-not-canonical": ERROR,
    "opening-id-mismatch": ERROR,
    "swap-not-allowed": ERROR,
    "offer-count": ERROR,
    "offer-invalid": ERROR,
    "offer-symmetric": ERROR,
    "kept-not-offered": ERROR,
    "reject-not-allowed": ERROR,
    "relocation-invalid": ERROR,
    "board-not-named": ERROR,
    "unchecked": INFO,
    # batch findings (``renju check``)
    "duplicate": WARNING,
    "internal-error": ERROR,
    # a record with more findings than are listed (``limits.MAX_FINDINGS``)
    "too-many-findings": WARNING,
}


def severity_rank(severity: str) -> int:
    """The rank of a severity: info 0, warning 1, error 2."""
    return _RANK[severity]


_RANK = {severity: rank for rank, severity in enumerate(SEVERITIES)}


@dataclass(slots=True)
class Finding:
    """One problem or fact about a record, with where it is."""

    code: str
    message: str
    severity: str = ""
    move: int | None = None
    point: str | None = None
    line: int | None = None
    offset: int | None = None
    #: ``too-many-findings`` only: the findings not listed, by code
    counts: dict[str, int] | None = None
    #: ``too-many-findings`` only: the findings not listed, by code and severity (not in the
    #: JSON: what the summary counts by severity, and what ``filter_findings`` needs to give the
    #: finding the severity of what it still counts)
    unlisted: dict[tuple[str, str], int] | None = None
    #: ``too-many-findings`` only: why fewer are listed than the cap (not in the JSON:
    #: its message says it, and ``filter_findings`` words it again)
    why: str = ""

    def __post_init__(self) -> None:
        if not self.severity:
            self.severity = CODES.get(self.code, ERROR)

    def unlisted_tally(self) -> dict[tuple[str, str], int]:
        """The findings a ``too-many-findings`` finding stands for, by code and severity: its
        ``unlisted``, or (one made by hand, with ``counts`` only) its counts at its own
        severity; empty for any other finding."""
        if self.unlisted is not None:
            return self.unlisted
        return {(code, self.severity): n for code, n in (self.counts or {}).items()}

    def at(self, line: int | None, offset: int | None) -> Finding:
        """A copy of this finding at another line and offset (built positionally, as the
        fields are declared: a third of what ``replace`` costs).  Its counts are shared, as
        whole findings are where they do not move: nothing changes a finding once made."""
        return Finding(
            self.code,
            self.message,
            self.severity,
            self.move,
            self.point,
            line,
            offset,
            self.counts,
            self.unlisted,
            self.why,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "move": self.move,
            "point": self.point,
            "message": self.message,
        }
        if self.line is not None:
            out["line"] = self.line
        if self.offset is not None:
            out["offset"] = self.offset
        if self.counts is not None:
            out["counts"] = self.counts
        return out


# -- where records come from, and their text in messages ------------------------------------------
def special_kind(mode: int) -> str | None:
    """What a file of ``st_mode`` ``mode`` is when it is neither a regular file nor a directory
    (``a named pipe``, ``a character device``...): such a file is not opened by a search, since
    reading a named pipe waits for a writer for ever."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    for test, words in (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return words
    return "a special file"


def printable(text: str) -> str:
    """``text`` with control characters (a newline in a file name, an escape sequence in a
    record) written as escapes: one record is one line of text, and a file cannot drive the
    terminal that shows its report."""
    if text.isprintable():  # nearly always: one call in C
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def place(source: SourceLocation) -> str:
    """``path:line [id]`` (or ``path@offset [id]``) of a source location, its id the one
    ``--record`` selects (control characters of the path escaped: see ``printable``)."""
    loc = printable(source.path)
    if source.line is not None:
        loc += f":{source.line}"
    elif source.offset is not None:
        loc += f"@{source.offset}"
    return f"{loc} [{source.id}]"


# -- the rules a record may name ----------------------------------------------------------------
def shipped_dir() -> Path:
    """The directory of shipped rulesets: inside the installed package, or the source checkout."""
    # the package's directory, as ``importlib.resources.files("renju_cli")`` gives it for a
    # package on disk, without that import (it pulls in tempfile and zipfile) at every start
    packaged = Path(__file__).parent / "rulesets"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rulesets"


@functools.cache
def shipped_rule_names() -> tuple[str, ...]:
    """The names of the shipped rulesets (files under ``rulesets/``, subdirectories included),
    which a record may name as its rule (``Record.rule``); listed once per process."""
    return tuple(sorted({path.stem for path in shipped_dir().rglob("*.yaml")}))
