"""``.pos`` reader: a binary position (RenLib, RenjuSolver, renju engine test positions).

Byte 0 is the stone count N (1..225), then N bytes ``row_from_top * 15 + column`` (0-based), black
first, alternating.  Byte 0 of the stone list is a15 (top-left), 112 is h8, 224 is o1.  One record
per file.  A position need not be a game (engine test positions start anywhere): the stones are
yielded as moves in file order, which is the order of placement the file gives.

Bad content never raises.  A byte of 225 or more cannot be a point: the stones before the first
such byte are kept and the rest dropped (dropping one stone in the middle would give every later
stone the other colour); each bad byte is reported with its offset.  A count that does not match
the file length is reported with the offset where the stones run out or the extra bytes start.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

from renju_cli.coords import Point
from renju_cli.formats import ReadOptions
from renju_cli.record import Move, ParseProblem, Record, SourceLocation

NAME = "pos"
EXTENSIONS = (".pos",)

BOARD_SIZE = 15
POINTS = BOARD_SIZE * BOARD_SIZE
#: The count is one byte, so no valid file is longer than this; read one more to see extra data.
_MAX_FILE = 1 + 255


def point_from_byte(value: int) -> Point:
    """The point of a stone byte ``row_from_top * 15 + column`` (must be below 225)."""
    row_from_top, column = divmod(value, BOARD_SIZE)
    return Point(column, BOARD_SIZE - 1 - row_from_top)


def sniff(head: bytes) -> int:
    """1 when ``head`` is a plausible ``.pos`` file (a count byte and points), else 0.

    The format has no signature, so it is never sure; a ``.pos`` file is at most 226 bytes, so
    ``head`` holds all of it.  A count that disagrees with the length is a damaged ``.pos`` file
    still (its reader says so): with the extension, it is read as one rather than as a
    headerless RenLib library.
    """
    return 1 if _shaped_as_position(head) and not _text_after_all(head) else 0


def _shaped_as_position(head: bytes) -> bool:
    """Whether ``head`` is a count byte of 1..225 and at most 225 bytes, each a point."""
    return (
        2 <= len(head) <= POINTS + 1
        and 1 <= head[0] <= POINTS
        and all(b < POINTS for b in head[1:])
    )


def _text_after_all(head: bytes) -> bool:
    """Whether bytes shaped as a position are text: printable text whose first byte happens to
    match its length (a move list, in UTF-8 too: ``h8 h9 i10 # café`` piped in, with no
    extension to tell), or text whose count disagrees with its length (blank lines, a move list
    with a stray NUL...), not a damaged position."""
    if 0x20 <= head[0] < 0x7F and _text(head, "\t\n\r"):
        return True
    return len(head) != head[0] + 1 and (_text(head, "\t\n\r\f\v") or _damaged_text(head))


def _damaged_text(head: bytes) -> bool:
    """Whether ``head`` is a move list with a stray control byte or two (a NUL, a Ctrl-Z):
    UTF-8 text of two points (``h8``) or more, one control character in sixteen at most (a
    damaged position's few bytes may read as one point: ``p1``)."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    controls = _controls(text, "\t\n\r\f\v")
    return controls <= max(1, len(text) // 16) and len(_POINT_WORD.findall(text)) >= 2


#: A point as a move list writes it, standing alone.
_POINT_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][0-9]{1,2}(?![A-Za-z0-9])")


def _text(head: bytes, spaces: str) -> bool:
    """Whether ``head`` is printable text (ASCII among it), but for ``spaces``: UTF-8, or the
    GB18030 of Chinese move lists."""
    for codec in ("utf-8", "gb18030"):
        try:
            text = head.decode(codec)
        except UnicodeDecodeError:
            continue
        return _controls(text, spaces) == 0
    return False


def _controls(text: str, spaces: str) -> int:
    """The characters of ``text`` that are neither printable nor among ``spaces``."""
    return sum(1 for c in text if not (c.isprintable() or c in spaces))


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield the one record of a ``.pos`` file (never raises on bad content)."""
    data = stream.read(_MAX_FILE + 1) or b""
    stones, problems = _declared_stones(data)
    stones, bad = _points_only(stones)
    problems += bad
    if len(stones) > options.max_moves:
        problems.append(ParseProblem(f"more than {options.max_moves} stones; the rest is ignored"))
        stones = stones[: options.max_moves]
    moves = [Move(point_from_byte(b), offset=i + 1, token=str(b)) for i, b in enumerate(stones)]
    if not moves:  # nothing could be kept: the record as a whole is unreadable
        for p in problems:
            p.fatal = True
    yield Record(
        moves=moves,
        source=SourceLocation(path, 0, offset=0),
        width=BOARD_SIZE,
        height=BOARD_SIZE,
        problems=problems,
        format=NAME,
    )


def _declared_stones(data: bytes) -> tuple[bytes, list[ParseProblem]]:
    """The stones the count of a file declares (those that are there), and what is wrong with
    the count: none, out of 1..225, or not the number of stones that follow it."""
    if not data:
        return b"", [ParseProblem("empty file: no stone count", offset=0)]
    count, stones = data[0], len(data) - 1
    problems = []
    if not 1 <= count <= POINTS:
        problems.append(
            ParseProblem(f"stone count {count} at offset 0 is not in 1..{POINTS}", offset=0)
        )
    if stones < count:
        problems.append(
            ParseProblem(
                f"file declares {count} stones but ends after {stones}: "
                f"stone {stones + 1} (offset {stones + 1}) is missing",
                offset=stones + 1,
            )
        )
    elif stones > count:
        extra = "more than 255" if len(data) > _MAX_FILE else str(stones - count)
        problems.append(
            ParseProblem(
                f"file declares {count} stones but {extra} extra bytes follow, "
                f"from offset {count + 1}; they are ignored",
                offset=count + 1,
            )
        )
    return data[1 : 1 + count], problems


def _points_only(stones: bytes) -> tuple[bytes, list[ParseProblem]]:
    """The stones before the first byte that is no point (dropping one stone in the middle
    would give every later stone the other colour), and the problems of the rest: each such
    byte, and the stones left out."""
    bad = [i for i, b in enumerate(stones) if b >= POINTS]
    if not bad:
        return stones, []
    problems = [
        ParseProblem(
            f"byte {stones[i]} at offset {i + 1} (stone {i + 1}) is not a point (0..224)",
            offset=i + 1,
        )
        for i in bad
    ]
    first = bad[0]
    problems.append(
        ParseProblem(
            f"stones from offset {first + 1} on are ignored: {first} of {len(stones)} kept",
            offset=first + 1,
        )
    )
    return stones[:first], problems
