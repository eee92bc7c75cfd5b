"""Board diagrams as records: a position with no move order (``X``, ``O``, ``.`` cells).

A diagram file holds one position: N lines of N cells, top row first (``shared/spec/cli.md``).
It becomes a record whose stones are ``setup`` stones, so ``check`` can look at it and
``forbidden``/``show`` can work on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from renju_cli.board import BLACK, DIAGRAM_CELLS, EMPTY, parse_diagram
from renju_cli.formats import ReadOptions, decode_text, unreadable
from renju_cli.record import Color, Record, SourceLocation

NAME = "diagram"
EXTENSIONS = (".diagram", ".board")


def _is_board_row(line: str) -> bool:
    cells = 0
    for ch in line:
        if ch in DIAGRAM_CELLS:
            cells += 1
        elif not (ch.isspace() or ch.isdigit()):
            return False
    return cells >= 5


def sniff(head: bytes) -> int:
    """2 when the file starts with at least five rows of diagram cells."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return 0
    rows = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        if _is_board_row(line):
            rows += 1
            if rows >= 5:
                return 2
        elif rows:
            return 0
    return 0


def record_from_text(text: str, path: str = "<diagram>") -> Record:
    """The record of one diagram; a diagram that cannot be read gives an unreadable record."""
    try:
        board = parse_diagram(text)
    except ValueError as e:
        return unreadable(path, f"not a board diagram: {e}", line=1)
    setup = []
    for index in board.points():
        stone = board.cells[index]
        if stone != EMPTY:
            setup.append((board.point(index), Color.BLACK if stone == BLACK else Color.WHITE))
    return Record(
        moves=[],
        source=SourceLocation(path, 0, 1),
        width=board.width,
        height=board.height,
        setup=setup,
        format=NAME,
    )


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield the one position of a diagram file (unreadable past ``max_string`` bytes: a board
    of 26x26 with its labels is a few kilobytes, and what lies past the bound would be lost
    without a word)."""
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
    yield record_from_text(decode_text(data, options.encoding, "utf-8"), path)
