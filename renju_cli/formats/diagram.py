"""Board diagrams as records: a position with no move order (``X``, ``O``, ``.`` cells).

A diagram file holds one position: N lines of N cells, top row first (``shared/spec/cli.md``).
It becomes a record whose stones are ``setup`` stones, so ``check`` can look at it and
``forbidden``/``show`` can work on it.

Reading, line by line (spaces at either end of a line do not count):
    - a row: cells (``X``/``x``/``●`` black, ``O``/``o``/``○`` white, ``.``/``+``/``·`` empty)
      and spaces, with a row number at either end or both;
    - lines passed over: blank lines, ``#`` comments, column labels (letters from ``a``, with
      or without ``i``, or numbers alone), and the legend ``renju show --stones`` writes under
      its board (``3 move(s), white to move``);
    - any other line is damage, never dropped: between the first row and the last, it makes
      the diagram unreadable (its rows can no longer be counted, nor told where they are);
      before or after the rows, it is an unreadable record of its own (a move list beside a
      diagram, a sentence of text).
Every message names the line of the file.
"""

from __future__ import annotations

import codecs
import io
import re
import string
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import BinaryIO

from renju_cli.board import BLACK, DIAGRAM_CELLS, EMPTY, WHITE, Board
from renju_cli.coords import COLUMNS, MAX_SIZE, MIN_SIZE, Point
from renju_cli.formats import (
    ReadOptions,
    clip,
    decode_text,
    lf_line_ends,
    text_lines,
    too_many_records,
    unreadable,
)
from renju_cli.record import Color, ParseProblem, Record, SourceLocation

NAME = "diagram"
EXTENSIONS = (".diagram", ".board")

#: Column label lines: the letters of the columns, with ``i`` or (the Go habit) without.
_LABELS = (COLUMNS, COLUMNS.replace("i", ""))
#: Their starts, each a label line (a set: a file of damaged lines asks for each of them).
_LABEL_STARTS = frozenset(label[:k] for label in _LABELS for k in range(1, len(label) + 1))
#: The legend ``renju show`` writes under its board.
_LEGEND = re.compile(r"\d+ move\(s\), (?:black|white) to move(?:;.*)?")
#: Problems listed at most for one diagram (a damaged file may have a line of each kind per
#: row, and rows by the hundred thousand); one more says how many were not listed.
_MAX_PROBLEMS = 20
_CELLS_SAID = "X, O, ."
#: Lines whose kind one reading keeps (``_line_kind``): a damaged file repeats a few lines.
_MAX_KINDS = 4096


def _is_board_row(line: str) -> bool:
    cells = 0
    for ch in line:
        if ch in DIAGRAM_CELLS:
            cells += 1
        elif not (ch.isspace() or ch.isdigit()):
            return False
    return cells >= 5


def sniff(head: bytes) -> int:
    """2 when the file starts with at least five rows of diagram cells.

    The head is decoded tolerantly: a title or comment in another encoding than UTF-8 (cp1252's
    ``©``) is no row anyway, and the head may end inside a character of several bytes (the
    decoder keeps those back, as for a file that goes on).  A strict decoding made such a
    ``.txt`` diagram a move list, one bogus record per row.
    """
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(head, final=False)
    rows = 0
    for line in text_lines(text):  # (as the reader ends them: at LF, CR LF and CR only)
        if not line.strip():
            continue
        if _is_board_row(line):
            rows += 1
            if rows >= 5:
                return 2
        elif rows:
            return 0
    return 0


def _line_kind(line: str) -> list[int] | str | None:
    """What one non-blank line of a diagram file (spaces stripped) is: a row (its cells), a
    line the reader passes over (``None``), or damage (the character that is no cell: ``_why``
    words it only for the lines a message names)."""
    if line.startswith("#"):
        return None
    cells, stray = _cells(line)
    if not stray:
        return cells or None  # no cells: numbers alone, column numbers
    return None if _passed_over(line) else stray


def _cells(line: str) -> tuple[list[int], str]:
    """The cells of a row (row numbers at either end are none), and the first character that
    is no cell (``""``: none is)."""
    cells: list[int] = []
    for ch in line.strip(string.digits):
        stone = DIAGRAM_CELLS.get(ch)
        if stone is not None:
            cells.append(stone)
        elif not ch.isspace():
            return cells, ch
    return cells, ""


def _passed_over(line: str) -> bool:
    """Whether a line that is no row is one the reader passes over all the same: numbers
    alone, column labels, the legend ``renju show`` writes."""
    letters = "".join(line.split())
    return (
        letters.isdigit()
        or (letters.isascii() and letters.lower() in _LABEL_STARTS)
        or _LEGEND.fullmatch(line) is not None
    )


def _why(stray: str) -> str:
    """Why a line is no row, for its message (``stray``: what ``_line_kind`` found in it)."""
    return f"{stray!r} is none of the cells {_CELLS_SAID}"


#: A damaged line: its number, its text and the character that is no cell (``_line_kind``).
_Damage = tuple[int, str, str]
#: A row: its line number and its cells.
_Row = tuple[int, list[int]]


#: The kinds of lines read so far (``_line_kind``), up to ``_MAX_KINDS`` of them.
_Kinds = dict[str, list[int] | str | None]


def _kind(line: str, kinds: _Kinds) -> list[int] | str | None:
    """``_line_kind(line)``, kept in ``kinds`` (a damaged file repeats a few lines by the
    100,000; rows share their cells then, which nothing changes)."""
    if line in kinds:
        return kinds[line]
    kind = _line_kind(line)
    if len(kinds) < _MAX_KINDS:
        kinds[line] = kind
    return kind


def _last_row(text: str, kinds: _Kinds) -> int:
    """The number of the last row's line in ``text`` (0: no row), looked for from the end: it
    tells damage among the rows (listed in the diagram's record, up to a bound) from damage
    after them (records of their own) as the lines come, so that no line is held back."""
    number = text.count("\n") + 1
    end = len(text)
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end].strip()
        if line and isinstance(_kind(line, kinds), list):
            return number
        number -= 1
        end = start - 1
    return 0


def _listed(problems: Iterable[ParseProblem], total: int, what: str) -> list[ParseProblem]:
    """The first ``_MAX_PROBLEMS`` of ``problems`` (``total`` in all), with one more saying how
    many were left out; the rest are never made (a damaged file has them by the 100,000)."""
    kept = list(islice(problems, _MAX_PROBLEMS + 1))
    if total <= _MAX_PROBLEMS:
        return kept
    return [
        *kept[:_MAX_PROBLEMS],
        ParseProblem(
            f"and {total - _MAX_PROBLEMS} more {what}, not listed",
            line=kept[_MAX_PROBLEMS].line,
            fatal=True,
        ),
    ]


def _damage_among_rows(damaged: list[_Damage], count: int) -> list[ParseProblem]:
    """Why the rows of a diagram with ``count`` damaged lines among them make no board
    (``damaged``: the first of them, one more than are listed)."""
    return _listed(
        (
            ParseProblem(
                f"line {number}: {clip(line)!r} among the diagram's rows is no row "
                f"({_why(stray)}): the diagram cannot be read",
                line=number,
                fatal=True,
            )
            for number, line, stray in damaged
        ),
        count,
        "such lines",
    )


def _shape_problems(rows: list[_Row]) -> list[ParseProblem]:
    """Why ``rows`` make no board: rows of another width than most, a shape that is no board
    (nothing when they make one)."""
    widths = Counter(len(cells) for _, cells in rows)
    usual = widths.most_common(1)[0][0]
    problems = _listed(
        (
            ParseProblem(
                f"line {number}: diagram row {k} from the top has {len(cells)} cells where "
                f"most rows have {usual}",
                line=number,
                fatal=True,
            )
            for k, (number, cells) in enumerate(rows, start=1)
            if len(cells) != usual
        ),
        len(rows) - widths[usual],
        "rows of another width",
    )
    unsquare = _size_problem(rows, usual)
    return problems if unsquare is None else [*problems, unsquare]


def _size_problem(rows: list[_Row], width: int) -> ParseProblem | None:
    """Why rows of ``width`` cells make no board: not square, or of a size no board has."""
    first, last, count = rows[0][0], rows[-1][0], len(rows)
    if width != count:
        said = f"the diagram has {count} row(s) of {width} cells; it must be square (N rows of N)"
    elif not MIN_SIZE <= count <= MAX_SIZE:
        said = f"the diagram is {count}x{count}; boards of {MIN_SIZE} to {MAX_SIZE} rows are read"
    else:
        return None
    return ParseProblem(f"lines {first}-{last}: {said}", line=first, fatal=True)


#: The colour of each kind of stone a row holds.
_COLOURS = {BLACK: Color.BLACK, WHITE: Color.WHITE}


def _setup(rows: list[_Row], labels: list[str]) -> list[tuple[Point, Color]]:
    """The stones of ``rows``, row by row from a1 as a board lists them: the top row first,
    unless the rows are numbered 1, 2, ... from the top (``labels``: the number each row starts
    with, or ``""``), when the numbers say where each row is (read top-down, that board was
    upside down without a word)."""
    numbered_down = labels == [str(k) for k in range(1, len(rows) + 1)]
    bottom_up = rows if numbered_down else reversed(rows)
    return [
        (Point(x, y), _COLOURS[stone])
        for y, (_, cells) in enumerate(bottom_up)
        for x, stone in enumerate(cells)
        if stone != EMPTY
    ]


def _outside(path: str, index: int, damage: _Damage) -> Record:
    """The unreadable record of a damaged line before or after the diagram's rows."""
    number, line, stray = damage
    message = (
        f"line {number}: {clip(line)!r} is neither a diagram row ({_why(stray)}), a column "
        "label nor a # comment: not read"
    )
    return Record(
        moves=[],
        source=SourceLocation(path, index, number),
        problems=[ParseProblem(message, line=number, fatal=True)],
        format=NAME,
    )


def records_from_text(
    text: str, path: str = "<diagram>", options: ReadOptions | None = None
) -> Iterator[Record]:
    """The records of a diagram file: the diagram, and each damaged line before or after its
    rows as an unreadable record of its own, in the order of the file (none when the file
    holds only blank lines, comments and labels)."""
    opts = options or ReadOptions()
    # lines end at LF (CR LF, CR): ``splitlines`` also ends them at form feeds, U+2028 and
    # other characters a comment may hold, and the line numbers drifted
    text = lf_line_ends(text)
    kinds: _Kinds = {}
    reading = _Reading(_last_row(text, kinds))
    for index, damage in enumerate(reading.records(text, kinds)):
        if index >= opts.max_records:
            number = reading.first if damage is None else damage[0]
            yield too_many_records(path, index, number, opts)
            return
        yield reading.diagram(path, index) if damage is None else _outside(path, index, damage)


class _Reading:
    """A diagram file as it is read: the rows of its diagram so far, the number each row
    starts with, and the damaged lines among them."""

    def __init__(self, last: int) -> None:
        self.last = last  # the line of the last row (0: none)
        self.first = 0  # the line of the first row, once read
        self.rows: list[_Row] = []  # (no more kept once damage lies among them)
        self.labels: list[str] = []
        # the damaged lines among the rows: the first ones (those listed, one more), how many
        self.inside: list[_Damage] = []
        self.inside_count = 0

    def records(self, text: str, kinds: _Kinds) -> Iterator[_Damage | None]:
        """The records of the file, in its order: a damaged line before or after the rows, or
        ``None`` for the diagram, once its last row is read."""
        last = self.last
        # one line at a time (a list of them all would hold a string per line of a file of
        # short lines); only LF ends a line, and ``strip`` drops it
        for number, raw in enumerate(io.StringIO(text, newline="\n"), start=1):
            line = raw.strip()
            kind = _kind(line, kinds)
            if kind is None:
                # blank lines, comments and labels alone make no record (``read_stream`` says
                # the file held nothing to check, as for any format)
                continue
            if isinstance(kind, list):
                self._row(number, line, kind)
                if number == last:
                    yield None
            elif self.first and number < last:
                # the board is read no more: only the damage is said, the first of it listed
                self.inside_count += 1
                if self.inside_count <= _MAX_PROBLEMS + 1:
                    self.inside.append((number, line, kind))
            else:  # before the rows or after them: a record of its own
                yield number, line, kind

    def _row(self, number: int, line: str, cells: list[int]) -> None:
        """A row, kept while no damage lies among the rows."""
        self.first = self.first or number
        if not self.inside_count:
            self.rows.append((number, cells))
            self.labels.append(line[: len(line) - len(line.lstrip(string.digits))])

    def diagram(self, path: str, index: int) -> Record:
        """The record of the diagram: unreadable when its rows make no board or damaged lines
        lie among them."""
        source = SourceLocation(path, index, self.first)
        if self.inside_count:
            problems = _damage_among_rows(self.inside, self.inside_count)
        else:
            problems = _shape_problems(self.rows)
        if problems:
            return Record(moves=[], source=source, problems=problems, format=NAME)
        size = len(self.rows)
        setup = _setup(self.rows, self.labels)
        return Record(moves=[], source=source, width=size, height=size, setup=setup, format=NAME)


def parse_board(text: str) -> Board:
    """The position of one board diagram, as this reader reads it (row numbers, column labels
    and ``#`` comments passed over); ``ValueError`` saying why when the text is not one
    readable diagram.  The board knows no file format: this is how a diagram becomes one."""
    records = list(records_from_text(text))
    if not records:
        raise ValueError("no board rows found in the diagram")
    # (every record but the diagram is a damaged line: one record without problems is it)
    bad = [p.message for r in records for p in r.problems]
    if bad:
        raise ValueError("; ".join(bad))
    return Board.from_stones(records[0].setup, records[0].width or 15)


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield the one position of a diagram file, and the damaged lines around it (unreadable
    past ``max_string`` bytes: a board of 26x26 with its labels is a few kilobytes, and what
    lies past the bound would be lost without a word)."""
    data = stream.read(options.max_string + 1)
    if len(data) > options.max_string:
        record = unreadable(
            path,
            f"the file is longer than {options.max_string} bytes, the limit for a board "
            "diagram: not read",
            offset=options.max_string,
        )
        record.format = NAME
        yield record
        return
    # (a byte order mark, as Notepad writes one, is no character of the first line)
    text = decode_text(data, options.encoding, "utf-8").removeprefix("\ufeff")
    yield from records_from_text(text, path, options)
