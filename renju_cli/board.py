"""The board: one flat array of points with a wall around it, and its lines as bit strings.

Points on the board are small ints (``index``) into ``Board.cells``, like python-chess squares;
``Point`` (column, row) is the public, size-independent name of a point.  The array has one ring of
``WALL`` cells around the board and a shared wall column between rows, so that stepping one point
in any of the four line directions from a board point lands on the board or on a wall and never
outside the array: scans stop at the first wall, and need no bounds checks.

Beside the array the board keeps every *line* (each row, column and diagonal) as one int with two
bits per point (``EMPTY``, ``BLACK``, ``WHITE``, ``WALL``), padded with ``LINE_PAD`` wall points
at both ends, updated by ``place`` and ``remove``.  The judge reads the window of a line around a
point with one shift and one mask (``Geometry.slots``) instead of walking the array.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from renju_cli.coords import COLUMNS, MAX_SIZE, MIN_SIZE, Point
from renju_cli.record import Color

EMPTY = 0
BLACK = 1
WHITE = 2
WALL = 3

STONE = {Color.BLACK: BLACK, Color.WHITE: WHITE}
COLOR_OF = {BLACK: Color.BLACK, WHITE: Color.WHITE}

#: Wall points padding each end of a line: windows of radius up to this stay inside the line's int.
LINE_PAD = 10


def _splitmix64(x: int) -> int:
    # A fixed, well-mixed 64-bit sequence: the same keys in every process, and no import of
    # ``random`` at start-up.
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFF_FFFF_FFFF_FFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFF_FFFF_FFFF_FFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFF_FFFF_FFFF_FFFF
    return x ^ (x >> 31)


class Geometry:
    """What every board of one size shares: the empty array, the lines and where points sit.

    ``slots[index]`` is ``(line0, shift0, line1, shift1, line2, shift2, line3, shift3)``: for each
    of the four directions (``Board.directions`` order), which entry of ``Board.lines`` holds the
    point and the bit position of its two bits there (``None`` for wall cells).  ``zobrist[index]``
    holds the point's hash keys by stone, shared by every size; ``empty_hash``, the hash of the
    empty board, is the size's own, so that boards of two sizes with stones at the same indices
    do not share a hash (the judge's memo relies on it).
    ``index_of_point`` maps every ``Point`` on the board to its index (a replay's one lookup per
    move); off-board points are absent.
    """

    __slots__ = (
        "cells",
        "directions",
        "empty_hash",
        "height",
        "index_of_point",
        "lines",
        "names",
        "slots",
        "stride",
        "width",
        "zobrist",
    )

    def __init__(self, width: int, height: int) -> None:
        # (a file may hold games of every size: 484 rectangles, each geometry built once, in
        # loops over the board's points and lines rather than over every cell four times)
        self.width = width
        self.height = height
        self.stride = stride = width + 1
        cells = [WALL] * ((height + 3) * stride)
        bases = [(y + 1) * stride + 1 for y in range(height)]
        for base in bases:
            cells[base : base + width] = [EMPTY] * width
        self.cells = cells
        self.directions = (1, stride, stride + 1, stride - 1)
        pad_bits = (1 << (2 * LINE_PAD)) - 1
        lines: list[int] = []
        where: list[list[int]] = [[] for _ in cells]
        board_points = [p for base in bases for p in range(base, base + width)]
        for d in self.directions:
            for p in board_points:
                # a line starts at a board point whose predecessor along d is a wall
                if cells[p - d] == EMPTY:
                    continue
                line = len(lines)
                shift = 2 * LINE_PAD
                q = p
                while cells[q] == EMPTY:
                    where[q] += (line, shift)
                    shift += 2
                    q += d
                lines.append(pad_bits | pad_bits << shift)
        self.lines = lines
        self.slots: list[tuple[int, ...] | None] = [tuple(w) if w else None for w in where]
        self.index_of_point: dict[Point, int] = {}
        #: the standard notation of each board index (messages name thousands of stones)
        self.names = [""] * len(cells)
        for y, base in enumerate(bases):
            row = range(base, base + width)
            self.index_of_point.update(zip(_ROWS[y][:width], row, strict=True))
            self.names[base : base + width] = _ROW_NAMES[y][:width]
        #: the stones' keys are shared by every size (``_ZOBRIST``); the empty board's hash
        #: is the size's own, so that boards of two sizes with stones at the same indices do not
        #: share a hash (the judge's memo relies on it)
        self.zobrist = _ZOBRIST
        self.empty_hash = _splitmix64((width << 40) | (height << 32) | 1 << 63)


#: Every point of the biggest board by row (``_ROWS[y][x]``), and their names: a geometry takes
#: a row's first ``width``.
_ROWS = [[Point(x, y) for x in range(MAX_SIZE)] for y in range(MAX_SIZE)]
_ROW_NAMES = [[p.name for p in row] for row in _ROWS]
#: The Zobrist keys of array indices by stone (``EMPTY`` 0), as far as the biggest board's array
#: reaches: one table for every size, made at import (never grown while threads build boards).
_ZOBRIST: list[tuple[int, int, int]] = [
    (0, _splitmix64(2 * i), _splitmix64(2 * i + 1)) for i in range((MAX_SIZE + 3) * (MAX_SIZE + 1))
]


_GEOMETRIES: dict[tuple[int, int], Geometry] = {}


def geometry(width: int, height: int) -> Geometry:
    """The shared geometry of a ``width`` x ``height`` board."""
    g = _GEOMETRIES.get((width, height))
    if g is None:
        g = _GEOMETRIES[(width, height)] = Geometry(width, height)
    return g


class Board:
    """A rectangular board of ``width`` x ``height`` points (5 to 26 each) with its stones.

    ``directions`` are the four line steps in the array: horizontal, vertical and the two
    diagonals.  ``hash`` is a Zobrist hash of the stones and ``lines`` the lines as bit strings
    (see the module docstring), both kept up to date by ``place``/``remove``; ``slots`` is
    ``Geometry.slots``.  Change stones only through ``place`` and ``remove``.
    """

    __slots__ = (
        "cells",
        "directions",
        "geometry",
        "hash",
        "height",
        "lines",
        "slots",
        "stones",
        "stride",
        "width",
        "zobrist",
    )

    def __init__(self, width: int = 15, height: int | None = None) -> None:
        h = width if height is None else height
        g = _GEOMETRIES.get((width, h))  # (a batch makes a board per record: sizes seen before)
        if g is None:
            for side in (width, h):
                if not MIN_SIZE <= side <= MAX_SIZE:
                    raise ValueError(f"board sides must be {MIN_SIZE} to {MAX_SIZE}, not {side}")
            g = geometry(width, h)
        self.geometry = g
        self.width = width
        self.height = h
        self.stride = g.stride
        self.cells = g.cells[:]
        self.lines = g.lines[:]
        self.slots = g.slots
        self.zobrist = g.zobrist
        self.directions = g.directions
        self.hash = g.empty_hash
        self.stones = 0

    # -- points ---------------------------------------------------------------------------
    def index_of(self, x: int, y: int) -> int:
        """Array index of the point in column ``x``, row ``y`` (0-based, row 0 at the bottom)."""
        return (y + 1) * self.stride + x + 1

    def index(self, point: Point) -> int:
        """Array index of a point that is on the board."""
        if not point.on_board(self.width, self.height):
            raise ValueError(f"{point.name} is off a {self.width}x{self.height} board")
        return self.index_of(point.x, point.y)

    def point(self, index: int) -> Point:
        """The point at an array index."""
        y, x = divmod(index, self.stride)
        return Point(x - 1, y - 1)

    def name(self, index: int) -> str:
        """Standard notation of the point at an array index."""
        return self.geometry.names[index] or self.point(index).name

    def on_board(self, point: Point) -> bool:
        return point.on_board(self.width, self.height)

    def points(self) -> Iterator[int]:
        """Every board index, row by row from ``a1``."""
        for y in range(self.height):
            base = self.index_of(0, y)
            yield from range(base, base + self.width)

    # -- stones ---------------------------------------------------------------------------
    def __getitem__(self, point: Point) -> int:
        return self.cells[self.index(point)]

    def place(self, index: int, stone: int) -> None:
        """Put a stone (``BLACK`` or ``WHITE``) on an empty point."""
        self.cells[index] = stone
        self.hash ^= self.zobrist[index][stone]
        self.stones += 1
        lines = self.lines
        l0, s0, l1, s1, l2, s2, l3, s3 = self.slots[index]  # type: ignore[misc]
        lines[l0] |= stone << s0
        lines[l1] |= stone << s1
        lines[l2] |= stone << s2
        lines[l3] |= stone << s3

    def place_all(self, stones: Iterable[tuple[int, int]]) -> None:
        """``place`` each ``(index, stone)`` (a setup position: up to a whole board at once)."""
        cells, zobrist, lines, slots = self.cells, self.zobrist, self.lines, self.slots
        h = self.hash
        n = 0
        for index, stone in stones:
            cells[index] = stone
            h ^= zobrist[index][stone]
            n += 1
            l0, s0, l1, s1, l2, s2, l3, s3 = slots[index]  # type: ignore[misc]
            lines[l0] |= stone << s0
            lines[l1] |= stone << s1
            lines[l2] |= stone << s2
            lines[l3] |= stone << s3
        self.hash = h
        self.stones += n

    def remove(self, index: int) -> None:
        """Take the stone off a point."""
        cells = self.cells
        stone = cells[index]
        self.hash ^= self.zobrist[index][stone]
        cells[index] = EMPTY
        self.stones -= 1
        lines = self.lines
        l0, s0, l1, s1, l2, s2, l3, s3 = self.slots[index]  # type: ignore[misc]
        lines[l0] ^= stone << s0  # the point's two bits held exactly ``stone``
        lines[l1] ^= stone << s1
        lines[l2] ^= stone << s2
        lines[l3] ^= stone << s3

    @property
    def full(self) -> bool:
        return self.stones >= self.width * self.height

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.geometry, other.slots, other.zobrist = self.geometry, self.slots, self.zobrist
        other.width, other.height, other.stride = self.width, self.height, self.stride
        other.cells = self.cells[:]
        other.lines = self.lines[:]
        other.directions = self.directions
        other.hash, other.stones = self.hash, self.stones
        return other

    @classmethod
    def from_stones(
        cls, stones: Iterable[tuple[Point, Color]], width: int = 15, height: int | None = None
    ) -> Board:
        """A board with the given stones on it."""
        board = cls(width, height)
        for point, color in stones:
            board.place(board.index(point), STONE[color])
        return board

    # -- diagrams -------------------------------------------------------------------------
    def to_diagram(self, marks: dict[int, str] | None = None, labels: bool = True) -> str:
        """The board as text, top row first: ``X`` black, ``O`` white, ``.`` empty, with row
        numbers and column letters unless ``labels`` is false (``from_diagram`` reads it back).

        ``marks`` overrides what is drawn at some points (a move number, a forbidden-point
        sign); each cell is as wide as the widest mark.
        """
        marks = marks or {}
        cell_w = max([1, *(len(m) for m in marks.values())])
        glyph = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        rows = []
        for y in range(self.height - 1, -1, -1):
            cells = []
            for x in range(self.width):
                i = self.index_of(x, y)
                cells.append(marks.get(i, glyph[self.cells[i]]).rjust(cell_w))
            line = " ".join(cells)
            rows.append(f"{y + 1:>2} {line}" if labels else line)
        if labels:
            rows.append("   " + " ".join(c.rjust(cell_w) for c in COLUMNS[: self.width]))
        return "\n".join(rows)

    diagram = to_diagram

    def __str__(self) -> str:
        return self.to_diagram()

    @classmethod
    def from_diagram(cls, text: str) -> Board:
        """The board a diagram draws: rows of cells, top row first (``X``/``x``/``●`` black,
        ``O``/``o``/``○`` white, ``.``/``+``/``·`` empty, spaces between them or not), a row
        number at either end of a row or none; blank lines, ``#`` comments, column labels
        and the legend ``renju show`` writes under a board are passed over.  Rows numbered
        1, 2, ... from the top are read as numbered (row 1 at the bottom).

        Raises ``ValueError`` saying why when the text is not one diagram of equal rows.
        """
        rows: list[list[int]] = []
        numbers: list[str] = []  # the number each row starts with ("" when none)
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for n, line in enumerate((line.strip() for line in lines), 1):
            cells = _diagram_row(line)
            if isinstance(cells, str):
                raise ValueError(f"line {n}: {line!r} is no row of a diagram ({cells})")
            if cells is not None:
                rows.append(cells)
                numbers.append(line[: len(line) - len(line.lstrip("0123456789"))])
        if not rows:
            raise ValueError("no board rows found in the diagram")
        width = len(rows[0])
        for k, cells in enumerate(rows, 1):
            if len(cells) != width:
                raise ValueError(
                    f"diagram row {k} from the top has {len(cells)} cells where row 1 has {width}"
                )
        board = cls(width, len(rows))  # (ValueError for a side off the sizes boards take)
        upward = numbers == [str(k) for k in range(1, len(rows) + 1)]
        stones = [
            (board.index_of(x, y), stone)
            for y, cells in enumerate(rows if upward else reversed(rows))
            for x, stone in enumerate(cells)
            if stone != EMPTY
        ]
        board.place_all(stones)
        return board


#: Characters a diagram may use for each kind of point.
DIAGRAM_CELLS = {
    "X": BLACK,
    "x": BLACK,
    "●": BLACK,
    "O": WHITE,
    "o": WHITE,
    "○": WHITE,
    ".": EMPTY,
    "+": EMPTY,
    "·": EMPTY,
}


def parse_diagram(text: str) -> Board:
    """``Board.from_diagram(text)``."""
    return Board.from_diagram(text)


def _diagram_row(line: str) -> list[int] | str | None:
    """The cells of a diagram's line (stripped), ``None`` for a line passed over, or why it is
    neither (a character that is no cell)."""
    if not line or line.startswith("#"):
        return None
    cells: list[int] = []
    for ch in line.strip("0123456789"):  # row numbers at either end are no cells
        stone = DIAGRAM_CELLS.get(ch)
        if stone is not None:
            cells.append(stone)
        elif not ch.isspace():
            break
    else:
        return cells or None  # (numbers alone: column numbers)
    letters = "".join(line.split())
    if letters.isascii() and letters.isalpha() and letters.lower() in _LABEL_STARTS:
        return None
    if _LEGEND.fullmatch(line):
        return None
    return f"{ch!r} is none of the cells X, O, ."


#: Column label lines: the letters of the columns, with ``i`` or (the Go habit) without.
_LABEL_STARTS = frozenset(
    label[:k] for label in (COLUMNS, COLUMNS.replace("i", "")) for k in range(1, len(label) + 1)
)
#: The legend ``renju show`` writes under its board.
_LEGEND = re.compile(r"\d+ move\(s\), (?:black|white) to move(?:;.*)?")
