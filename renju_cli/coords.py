"""Points and standard notation.

A point is ``Point(x, y)``: ``x`` the column counted from the left (0 = ``a``), ``y`` the row
counted from the **bottom** (0 = row ``1``), as in standard renju notation where ``h8`` is the
centre of the 15x15 board and ``a1`` its bottom-left corner.  Column letters run ``a``, ``b`` …
``z`` and include ``i`` (boards up to 26x26).  Every record format converts its own coordinates
to this one frame, so the referee and the judge never see a format's origin.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

MIN_SIZE = 5
MAX_SIZE = 26
COLUMNS = "abcdefghijklmnopqrstuvwxyz"

#: One point in standard notation: a column letter and a 1-based row number.
POINT_RE = re.compile(r"([a-zA-Z])([1-9][0-9]?)")


class Point(NamedTuple):
    """A board point: column ``x`` from the left, row ``y`` from the bottom, both 0-based."""

    x: int
    y: int

    @property
    def name(self) -> str:
        """The point in lower-case standard notation (``h8``)."""
        # (looked up: reports, conversions and messages name millions of points)
        known = _NAMES.get(self)
        return known if known is not None else f"{COLUMNS[self.x]}{self.y + 1}"

    def __str__(self) -> str:
        return self.name

    def on_board(self, width: int, height: int | None = None) -> bool:
        """Whether the point is on a ``width`` x ``height`` board (square without ``height``)."""
        h = width if height is None else height
        return 0 <= self.x < width and 0 <= self.y < h


#: ``Point.name`` of every point of the biggest board.
_NAMES = {Point(x, y): f"{COLUMNS[x]}{y + 1}" for x in range(MAX_SIZE) for y in range(MAX_SIZE)}


def parse_point(text: str) -> Point:
    """Parse one point in standard notation (``h8``, ``H8``, ``o15``).

    The point is not checked against any board size: an off-board point is a finding of the
    referee, not a parse error, so that it can be reported with its move number.
    """
    known = _PARSED.get(text)
    if known is not None:
        return known
    m = POINT_RE.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"not a point in standard notation: {text!r}")
    row = int(m.group(2))
    if row < 1:
        raise ValueError(f"row must be 1 or more: {text!r}")
    point = Point(COLUMNS.index(m.group(1).lower()), row - 1)
    if m.end() - m.start() == len(text):
        # the names without spaces: at most 52 letters x 99 rows (a RenjuNet game may offer
        # every point of the board, and a file hold hundreds of such games)
        _PARSED[text] = point
    return point


#: ``parse_point``'s points by the names it was given (without surrounding spaces).
_PARSED: dict[str, Point] = {}


def point_name(point: Point | None) -> str:
    """Standard notation of a point, ``pass`` for ``None``."""
    return "pass" if point is None else point.name


@functools.lru_cache(maxsize=64)
def center(width: int, height: int | None = None) -> Point:
    """The central point (for even sizes, the lower-left of the four central points); made
    once per size (asked for every record checked)."""
    h = width if height is None else height
    return Point((width - 1) // 2, (h - 1) // 2)
