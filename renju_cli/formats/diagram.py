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

from renju_cli.board import BLACK, DIAGRAM_CELLS, EMPTY, Board
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
    cells: list[int] = []
    stray = ""
    for ch in line.strip(string.digits):  # row numbers at either end are no cells
        stone = DIAGRAM_CELLS.get(ch)
        if stone is not None:
            cells.append(stone)
        elif not ch.isspace():
            stray = ch
            break
    if not stray:
        return cells or None  # no cells: numbers alone, column numbers
    letters = "".join(line.split())
    if letters.isdigit():
        return None
    is_word = letters.isascii() and letters.isalpha()
    if is_word and letters.lower() in _LABEL_STARTS:
        return None
    if _LEGEND.fullmatch(line):
        return None
    return stray


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


def _diagram_problems(rows: list[_Row], damaged: list[_Damage], count: int) -> list[ParseProblem]:
    """Why the rows of a diagram, with the ``count`` damaged lines among them (``damaged``: the
    first of them, one more than are listed), make no board (nothing when they make one)."""
    if count:
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
    first, last, count = rows[0][0], rows[-1][0], len(rows)
    if usual != count:
        said = f"the diagram has {count} row(s) of {usual} cells; it must be square (N rows of N)"
    elif not MIN_SIZE <= count <= MAX_SIZE:
        said = f"the diagram is {count}x{count}; boards of {MIN_SIZE} to {MAX_SIZE} rows are read"
    else:
        return problems
    return [*problems, ParseProblem(f"lines {first}-{last}: {said}", line=first, fatal=True)]


def _diagram(
    first: int,
    rows: list[_Row],
    damaged: tuple[list[_Damage], int],
    path: str,
    index: int,
    labels: list[str],
) -> Record:
    """The record of the diagram whose first row is on line ``first`` and whose rows are
    ``rows`` (none kept once damage lies among them): unreadable when they make no board or
    damaged lines lie among them (``damaged``: the first ones and how many).  ``labels``: the
    number each row starts with (``""``)."""
    source = SourceLocation(path, index, first)
    problems = _diagram_problems(rows, *damaged)
    if problems:
        return Record(moves=[], source=source, problems=problems, format=NAME)
    size = len(rows)
    # the top row first, unless the rows are numbered 1, 2, ... from the top: then the labels
    # say where each row is (read top-down, that board was upside down without a word)
    bottom_up = rows if labels == [str(k) for k in range(1, size + 1)] else reversed(rows)
    setup = []
    black, white = Color.BLACK, Color.WHITE  # (read off the class once: a Python call each)
    for y, (_, cells) in enumerate(bottom_up):  # row by row from a1, as a board lists them
        for x, stone in enumerate(cells):
            if stone != EMPTY:
                setup.append((Point(x, y), black if stone == BLACK else white))
    return Record(moves=[], source=source, width=size, height=size, setup=setup, format=NAME)


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
    last = _last_row(text, kinds)
    first = 0  # the line of the first row, once read
    rows: list[_Row] = []  # (no more kept once damage among them makes the diagram unreadable)
    labels: list[str] = []  # the number each row starts with, if any
    inside: list[_Damage] = []  # the first damaged lines among the rows: those listed, one more
    inside_count = 0
    index = 0
    # one line at a time (a list of them all held a string per line of a file of short lines);
    # only LF ends a line now, and ``strip`` drops it
    for number, raw in enumerate(io.StringIO(text, newline="\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        kind = _kind(line, kinds)
        if kind is None:
            # blank lines, comments and labels alone: no record (``read_stream`` says the file
            # held nothing to check, as for any format)
            continue
        entry: _Damage | None = None  # None: the diagram, once its last row is read
        if isinstance(kind, list):
            first = first or number
            if not inside_count:
                rows.append((number, kind))
                labels.append(line[: len(line) - len(line.lstrip(string.digits))])
            if number != last:
                continue
        elif first and number < last:
            inside_count += 1
            if len(inside) <= _MAX_PROBLEMS:
                inside.append((number, line, kind))
            if inside_count == 1:  # the board is read no more: only the damage is said
                rows.clear()
                labels.clear()
            continue
        else:
            entry = (number, line, kind)  # before the rows or after them: a record of its own
        if index >= opts.max_records:
            yield too_many_records(path, index, first if entry is None else entry[0], opts)
            return
        yield (
            _outside(path, index, entry)
            if entry is not None
            else _diagram(first, rows, (inside, inside_count), path, index, labels)
        )
        index += 1


def parse_board(text: str) -> Board:
    """The position of one board diagram, as this reader reads it (row numbers, column labels
    and ``#`` comments passed over); ``ValueError`` saying why when the text is not one
    readable diagram.  The board knows no file format: this is how a diagram becomes one."""
    records = list(records_from_text(text))
    if not records:
        raise ValueError("no board rows found in the diagram")
    bad = [p.message for r in records for p in r.problems]
    if bad or len(records) != 1:
        raise ValueError("; ".join(bad) or "more than one diagram")
    [record] = records
    return Board.from_stones(record.setup, record.width or 15)


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
