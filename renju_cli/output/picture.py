"""Board pictures: a position drawn as a self-contained SVG, and as PNG when resvg is installed.

The SVG is written directly (it is a drawing, every text in it escaped): the board with its
coordinates, stones with their move numbers, the winning row ringed (a five, or an overline that
wins), black's forbidden points marked with their kind (``3×3`` double-three, ``4×4``
double-four, ``6+`` overline), stones played on a forbidden point (fouls) ringed in red with their
kind, and stones played after the end of the game faded, with a dashed edge.  Every element that
stands for something on the board carries ``data-point`` (and ``data-move``, ``data-kinds``), so
that a browser test or a script can find it.

PNG goes through ``resvg-py`` (the resvg renderer in one wheel, no system library), an optional
extra: ``pip install 'renju-cli[png]'``.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol
from xml.sax.saxutils import escape, quoteattr

from renju_cli.board import BLACK, WHITE, Board
from renju_cli.coords import COLUMNS, Point
from renju_cli.judge import Judge
from renju_cli.ruleset import Ruleset

#: Pixels between two lines of the board.
CELL = 32
#: The kind labels drawn at forbidden points (the text board of ``renju show`` uses 3, 4, 6).
KIND_LABEL = {"double-three": "3×3", "double-four": "4×4", "overline": "6+"}

BOARD_COLOR = "#dcb35c"
LINE_COLOR = "#4a3a1c"
BLACK_COLOR = "#141414"
WHITE_COLOR = "#f7f7f2"
FIVE_COLOR = "#ff9900"
FORBIDDEN_COLOR = "#d0021b"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


class Position(Protocol):
    """A board after some moves of a record, as the caller's walk of the record gives it."""

    @property
    def board(self) -> Board:
        """The stones."""

    @property
    def to_move(self) -> int:
        """``BLACK`` or ``WHITE``."""

    @property
    def played(self) -> int:
        """The moves walked."""

    @property
    def numbers(self) -> Mapping[int, int]:
        """Board index -> move number of the stones played (setup stones have none)."""


class PictureError(Exception):
    """A picture that cannot be made (PNG without its optional renderer)."""


@dataclass
class Marks:
    """What a picture shows besides the stones; points are board indices.

    ``numbers``: move number of each stone that has one (setup stones have none);
    ``five``: the stones of the winning row, ``row`` its word (``five``, or ``overline`` for a
    longer row that wins); ``forbidden``: empty points black may not play, with their kinds;
    ``fouls``: stones played on a forbidden point, with their kinds; ``after``: stones played
    after the end of the game.
    """

    numbers: dict[int, int] = field(default_factory=dict)
    five: tuple[int, ...] = ()
    forbidden: dict[int, tuple[str, ...]] = field(default_factory=dict)
    fouls: dict[int, tuple[str, ...]] = field(default_factory=dict)
    after: frozenset[int] = frozenset()
    row: str = "five"


def row_word(stones: int, five_length: int) -> str:
    """``five`` for a row of the winning length, ``overline`` for a longer one."""
    return "overline" if stones > five_length else "five"


def position_marks(
    pos: Position, ruleset: Ruleset, forbidden: bool = True, *, end: int | None = None
) -> Marks:
    """The marks of a position: its move numbers, the first winning row on the board in move
    order, and (with ``forbidden``, when black is to move or no move was played) black's
    forbidden points with their kinds.  ``end``: the move that ended the game, if it ended: the
    stones after it are marked as such, and no point is forbidden for a move that will not come.
    """
    judge = ruleset.judge()
    five = _first_five(pos, judge, end)
    asked = forbidden and _black_asked(pos, end)
    after = frozenset() if end is None else frozenset(i for i, n in pos.numbers.items() if n > end)
    return Marks(
        numbers=dict(pos.numbers),
        five=five,
        forbidden=dict(judge.forbidden_points(pos.board, BLACK)) if asked else {},
        after=after,
        row=row_word(len(five), ruleset.five_length),
    )


def _first_five(pos: Position, judge: Judge, end: int | None) -> tuple[int, ...]:
    """The first winning row on the board in move order, by move ``end`` (``()``: none)."""
    board = pos.board
    for i in sorted(pos.numbers, key=pos.numbers.__getitem__):
        if end is not None and pos.numbers[i] > end:
            break
        row = judge.five_at(board, i, board.cells[i])
        if row is not None:
            return row
    return ()


def _black_asked(pos: Position, end: int | None) -> bool:
    """Whether the position asks where black may not play: black is to move (on a diagram, no
    move played, whoever is to move), and the game did not end by it (no move will come)."""
    over = end is not None and pos.played >= end
    return not over and (pos.to_move == BLACK or pos.played == 0)


def legend(pos: Position, marks: Marks) -> list[str]:
    """The words under a picture: moves and side to move, the winning row, the forbidden
    points, the moves after the end."""
    board = pos.board
    lines = [f"{pos.played} move(s), {'black' if pos.to_move == BLACK else 'white'} to move"]
    if marks.five:
        lines.append(f"{marks.row}: " + "-".join(board.name(i) for i in marks.five))
    if marks.forbidden:
        points = sorted(marks.forbidden.items(), key=lambda ik: board.point(ik[0]))
        lines.append("forbidden: " + ", ".join(f"{board.name(i)} {'+'.join(k)}" for i, k in points))
    if marks.after:
        after = sorted(marks.after, key=marks.numbers.__getitem__)
        lines.append(
            "after the end: " + ", ".join(f"{marks.numbers[i]} {board.name(i)}" for i in after)
        )
    return lines


def kind_label(kinds: Sequence[str]) -> str:
    """``3×3``, ``4×4``, ``6+``, or several joined: ``4×4 6+``."""
    return " ".join(KIND_LABEL.get(k, k) for k in kinds)


@dataclass(frozen=True)
class Geometry:
    """Where things are in a picture of a ``width`` x ``height`` board."""

    width: int
    height: int
    cell: int = CELL

    @property
    def margin(self) -> int:
        """Room around the grid for the coordinates, clear of stones on the edge lines."""
        return round(self.cell * 1.25)

    @property
    def label_offset(self) -> float:
        """Distance from the outer lines to the centre of a coordinate."""
        return self.cell * 0.85

    @property
    def board_px(self) -> tuple[int, int]:
        """Size in pixels of the board part of the picture (without captions)."""
        return (
            (self.width - 1) * self.cell + 2 * self.margin,
            (self.height - 1) * self.cell + 2 * self.margin,
        )

    def center(self, point: Point) -> tuple[float, float]:
        """Pixel centre of a point (row 1 at the bottom)."""
        return (
            float(self.margin + point.x * self.cell),
            float(self.margin + (self.height - 1 - point.y) * self.cell),
        )


def star_points(width: int, height: int) -> list[Point]:
    """The marked points of the grid: the centre, and the 4th lines' crossings on big boards."""
    stars = []
    if width >= 13 and height >= 13:
        for x in (3, width - 4):
            for y in (3, height - 4):
                stars.append(Point(x, y))
    if width % 2 and height % 2:
        stars.append(Point(width // 2, height // 2))
    return stars


def board_svg(
    board: Board,
    marks: Marks | None = None,
    *,
    title: str = "",
    caption: Sequence[str] = (),
    cell: int = CELL,
) -> str:
    """The position as a standalone SVG document (a string).

    ``title`` names the picture (``<title>``, for screen readers and tooltips); ``caption``
    lines are written under the board, wrapped to its width.
    """
    marks = marks or Marks()
    geo = Geometry(board.width, board.height, cell)
    w, h = geo.board_px
    font_px = round(cell * 0.4)
    wrap = max(20, int(w / (font_px * 0.58)))
    lines = [part for text in caption for part in _wrap(text, wrap)]
    legend = _legend(marks)
    if legend:
        lines.extend(_wrap(legend, wrap))
    total_h = h + (len(lines) * round(font_px * 1.4) + (cell // 3 if lines else 0))
    label = title or f"renju board {board.width}x{board.height}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{total_h}" '
        f'viewBox="0 0 {w} {total_h}" role="img" aria-label={quoteattr(label)} '
        f'class="renju-board" font-family={quoteattr(FONT)}>',
        f"<title>{escape(label)}</title>",
        f'<rect class="board" x="0" y="0" width="{w}" height="{h}" fill="{BOARD_COLOR}"/>',
    ]
    out.extend(_grid(board, geo))
    out.extend(_stones(board, geo, marks))
    out.extend(_five_rings(board, geo, marks.five, marks.row))
    out.extend(_fouls(board, geo, marks.fouls))
    out.extend(_forbidden(board, geo, marks.forbidden))
    if lines:
        out.append(
            f'<rect class="caption" x="0" y="{h}" width="{w}" '
            f'height="{total_h - h}" fill="#ffffff"/>'
        )
        y = h + cell // 3 + font_px
        out.append(f'<g class="caption" font-size="{font_px}" fill="#222222">')
        for text in lines:
            out.append(f'<text x="{cell // 3}" y="{y}">{escape(text)}</text>')
            y += round(font_px * 1.4)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _wrap(text: str, width: int) -> list[str]:
    """Caption lines: break at spaces only (``double-three`` stays whole)."""
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def _legend(marks: Marks) -> str:
    kinds = {k for ks in (*marks.forbidden.values(), *marks.fouls.values()) for k in ks}
    parts = [f"{KIND_LABEL[k]} {k}" for k in KIND_LABEL if k in kinds]
    if marks.after:
        parts.append("faded: played after the end of the game")
    return "marks: " + ", ".join(parts) if parts else ""


def _grid(board: Board, geo: Geometry) -> list[str]:
    c, m, off = geo.cell, geo.margin, geo.label_offset
    x_end = m + (board.width - 1) * c
    y_end = m + (board.height - 1) * c
    out = [f'<g class="grid" stroke="{LINE_COLOR}" stroke-width="1">']
    for x in range(board.width):
        px = m + x * c
        out.append(f'<line x1="{px}" y1="{m}" x2="{px}" y2="{y_end}"/>')
    for y in range(board.height):
        py = m + y * c
        out.append(f'<line x1="{m}" y1="{py}" x2="{x_end}" y2="{py}"/>')
    out.append("</g>")
    out.append(f'<g class="stars" fill="{LINE_COLOR}">')
    for p in star_points(board.width, board.height):
        cx, cy = geo.center(p)
        out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{c * 0.09:g}"/>')
    out.append("</g>")
    size = round(c * 0.38)
    out.append(
        f'<g class="coordinates" font-size="{size}" fill="{LINE_COLOR}" text-anchor="middle">'
    )
    for x in range(board.width):
        col_x = float(m + x * c)
        for row_y in (m - off, y_end + off):
            out.append(f'<text x="{col_x:g}" y="{row_y:g}" dy="0.35em">{COLUMNS[x]}</text>')
    for y in range(board.height):
        row_y = float(m + (board.height - 1 - y) * c)
        for col_x in (m - off, x_end + off):
            out.append(f'<text x="{col_x:g}" y="{row_y:g}" dy="0.35em">{y + 1}</text>')
    out.append("</g>")
    return out


#: How a stone of each colour is drawn: its class, fill, edge and the ink of its number.
_LOOKS = {
    BLACK: ("black", BLACK_COLOR, "#000000", "#ffffff"),
    WHITE: ("white", WHITE_COLOR, "#555555", "#111111"),
}


def _stones(board: Board, geo: Geometry, marks: Marks) -> list[str]:
    out = ['<g class="stones" text-anchor="middle">']
    for i in board.points():
        look = _LOOKS.get(board.cells[i])
        if look is not None:
            number = marks.numbers.get(i)
            out.extend(_stone(board.point(i), look, geo, number, i in marks.after))
    out.append("</g>")
    return out


def _stone(
    point: Point, look: tuple[str, str, str, str], geo: Geometry, number: int | None, after: bool
) -> list[str]:
    """A stone, with its move number; faded, with a dashed edge, when played ``after`` the
    end of the game."""
    color, fill, edge, ink = look
    c = geo.cell
    cx, cy = geo.center(point)
    data = f'data-point="{point.name}"' + (f' data-move="{number}"' if number is not None else "")
    if after:
        head = f'<g class="stone {color} after" {data} opacity="0.45">'
        stroke = f'stroke-width="2" stroke-dasharray="{c * 0.12:g} {c * 0.08:g}"'
    else:
        head = f'<g class="stone {color}" {data}>'
        stroke = 'stroke-width="1"'
    out = [
        head,
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{c * 0.46:g}" fill="{fill}" stroke="{edge}" '
        f"{stroke}/>",
    ]
    if number is not None:
        text = str(number)
        size = c * (0.44 if len(text) <= 2 else 0.36)
        out.append(
            f'<text x="{cx:g}" y="{cy:g}" dy="0.35em" font-size="{size:g}" fill="{ink}">'
            f"{text}</text>"
        )
    out.append("</g>")
    return out


def _five_rings(board: Board, geo: Geometry, five: tuple[int, ...], row: str) -> list[str]:
    """The winning row ringed (class ``five``, and ``overline`` for a longer row)."""
    if not five:
        return []
    names = " ".join(board.name(i) for i in five)
    kind = "five" if row == "five" else f"five {row}"
    out = [
        f'<g class="{kind}" data-points="{names}" fill="none" stroke="{FIVE_COLOR}" '
        f'stroke-width="{geo.cell * 0.1:g}">'
    ]
    for i in five:
        cx, cy = geo.center(board.point(i))
        out.append(
            f'<circle data-point="{board.name(i)}" cx="{cx:g}" cy="{cy:g}" '
            f'r="{geo.cell * 0.46:g}"/>'
        )
    out.append("</g>")
    return out


def _fouls(board: Board, geo: Geometry, fouls: dict[int, tuple[str, ...]]) -> list[str]:
    """Stones played on a forbidden point: a red ring, and the kind on a red tag."""
    c = geo.cell
    out = []
    for i in sorted(fouls):
        point = board.point(i)
        cx, cy = geo.center(point)
        label = kind_label(fouls[i])
        size = c * 0.3
        tag_w = max(c * 0.8, len(label) * size * 0.62 + c * 0.16)
        tag_h = c * 0.38
        tx, ty = cx + c * 0.15, cy - c * 0.72
        out.append(
            f'<g class="foul" data-point="{point.name}" data-kinds="{" ".join(fouls[i])}">'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{c * 0.5:g}" fill="none" '
            f'stroke="{FORBIDDEN_COLOR}" stroke-width="{c * 0.1:g}"/>'
            f'<rect x="{tx:g}" y="{ty:g}" width="{tag_w:g}" height="{tag_h:g}" '
            f'rx="{c * 0.08:g}" fill="{FORBIDDEN_COLOR}"/>'
            f'<text x="{tx + tag_w / 2:g}" y="{ty + tag_h / 2:g}" dy="0.35em" '
            f'font-size="{size:g}" font-weight="bold" fill="#ffffff" text-anchor="middle">'
            f"{escape(label)}</text></g>"
        )
    return out


def _forbidden(board: Board, geo: Geometry, points: dict[int, tuple[str, ...]]) -> list[str]:
    """Empty points black may not play: a red dashed circle with the kind in it."""
    c = geo.cell
    out = []
    for i in sorted(points):
        point = board.point(i)
        cx, cy = geo.center(point)
        kinds = points[i]
        out.append(
            f'<g class="forbidden" data-point="{point.name}" data-kinds="{" ".join(kinds)}">'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{c * 0.4:g}" fill="{BOARD_COLOR}" '
            f'stroke="{FORBIDDEN_COLOR}" stroke-width="{c * 0.06:g}" '
            f'stroke-dasharray="{c * 0.12:g} {c * 0.08:g}"/>'
        )
        size = c * (0.3 if len(kinds) == 1 else 0.22)
        top = cy - (len(kinds) - 1) * size * 0.55
        for n, kind in enumerate(kinds):
            out.append(
                f'<text x="{cx:g}" y="{top + n * size * 1.1:g}" dy="0.35em" '
                f'font-size="{size:g}" font-weight="bold" fill="{FORBIDDEN_COLOR}" '
                f'text-anchor="middle">{escape(KIND_LABEL.get(kind, kind))}</text>'
            )
        out.append("</g>")
    return out


def svg_to_png(svg: str) -> bytes:
    """Render an SVG document to PNG bytes with resvg (the optional ``png`` extra)."""
    try:
        # by name: the package is optional, and type-checking must not need it installed
        resvg_py = importlib.import_module("resvg_py")
    except ImportError:
        raise PictureError(
            "PNG pictures need the resvg-py package: pip install 'renju-cli[png]'"
        ) from None
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg))
    except ValueError as e:  # resvg's word for a picture it cannot draw
        raise PictureError(f"cannot render the picture: {e}") from None
