"""The board: one flat array of points with a wall around it.

Points on the board are small ints (``index``) into ``Board.cells``, like python-chess squares;
``Point`` (column, row) is the public, size-independent name of a point.  The array has one ring of
``WALL`` cells around the board and a shared wall column between rows, so that stepping one point
in any of the four line directions from a board point lands on the board or on a wall and never
outside the array: scans stop at the first wall, and need no bounds checks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from renju_cli.coords import COLUMNS, MAX_SIZE, MIN_SIZE, Point
from renju_cli.record import Color

EMPTY = 0
BLACK = 1
WHITE = 2
WALL = 3

STONE = {Color.BLACK: BLACK, Color.WHITE: WHITE}
COLOR_OF = {BLACK: Color.BLACK, WHITE: Color.WHITE}

_ZOBRIST_RNG = random.Random(0x5EED_4E4A)
#: Zobrist keys per array index and stone, shared by all boards (largest board first).
_ZOBRIST: list[tuple[int, int, int]] = [
    (0, _ZOBRIST_RNG.getrandbits(64), _ZOBRIST_RNG.getrandbits(64))
    for _ in range((MAX_SIZE + 3) * (MAX_SIZE + 1))
]


class Board:
    """A rectangular board of ``width`` x ``height`` points (5 to 26 each) with its stones.

    ``directions`` are the four line steps in the array: horizontal, vertical and the two
    diagonals.  ``hash`` is a Zobrist hash of the stones, kept up to date by ``place``/``remove``.
    """

    __slots__ = ("cells", "directions", "hash", "height", "stones", "stride", "width")

    def __init__(self, width: int = 15, height: int | None = None) -> None:
        h = width if height is None else height
        for side in (width, h):
            if not MIN_SIZE <= side <= MAX_SIZE:
                raise ValueError(f"board sides must be {MIN_SIZE} to {MAX_SIZE}, not {side}")
        self.width = width
        self.height = h
        self.stride = width + 1
        self.cells = [WALL] * ((h + 3) * self.stride)
        for y in range(h):
            for x in range(width):
                self.cells[self.index_of(x, y)] = EMPTY
        self.directions = (1, self.stride, self.stride + 1, self.stride - 1)
        self.hash = 0
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
        return self.point(index).name

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
        self.hash ^= _ZOBRIST[index][stone]
        self.stones += 1

    def remove(self, index: int) -> None:
        """Take the stone off a point."""
        self.hash ^= _ZOBRIST[index][self.cells[index]]
        self.cells[index] = EMPTY
        self.stones -= 1

    @property
    def full(self) -> bool:
        return self.stones >= self.width * self.height

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.width, other.height, other.stride = self.width, self.height, self.stride
        other.cells = self.cells[:]
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
    def diagram(
        self,
        marks: dict[int, str] | None = None,
        labels: bool = True,
    ) -> str:
        """The board as text, top row first: ``X`` black, ``O`` white, ``.`` empty.

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

    def __str__(self) -> str:
        return self.diagram()


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
    """Read a board diagram: N lines of N cells, top row first.

    Spaces, row numbers at either end and a line of column letters are ignored.  The board
    size is the number of rows, which must equal the number of cells in every row.
    """
    rows: list[list[int]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        cells = []
        for ch in line:
            if ch in DIAGRAM_CELLS:
                cells.append(DIAGRAM_CELLS[ch])
            elif ch.isspace() or ch.isdigit():
                continue
            else:
                cells = []
                break
        if not cells:
            continue  # a label row or a comment
        rows.append(cells)
    if not rows:
        raise ValueError("no board rows found in the diagram")
    size = len(rows)
    for n, row in enumerate(rows, 1):
        if len(row) != size:
            raise ValueError(
                f"diagram row {n} from the top has {len(row)} cells; "
                f"a {size}-row board needs {size}"
            )
    board = Board(size)
    for r, row in enumerate(rows):
        y = size - 1 - r
        for x, stone in enumerate(row):
            if stone != EMPTY:
                board.place(board.index_of(x, y), stone)
    return board
