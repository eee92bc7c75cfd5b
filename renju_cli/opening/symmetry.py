"""The eight symmetries of the square, and the symmetries of the stones on a board.

Symmetries are named as they map the *recorded* stones onto the table entry: ``identity``,
``rotate-90`` / ``rotate-180`` / ``rotate-270`` (anticlockwise, row 1 at the bottom),
``mirror-column`` (left-right, in the centre column), ``mirror-row`` (top-bottom),
``mirror-diagonal`` (in the a1-o15 diagonal) and ``mirror-antidiagonal`` (in the a15-o1 one).

Offers (``offer`` steps) may not be symmetric: no symmetry of the stones on the board may map
one offer onto another (``symmetric_pairs``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from renju_cli.board import BLACK
from renju_cli.coords import COLUMNS, Point

#: Linear parts (a, b, c, d): (x, y) -> (a*x + b*y, c*x + d*y); y grows upwards.
SYMMETRIES: dict[str, tuple[int, int, int, int]] = {
    "identity": (1, 0, 0, 1),
    "rotate-90": (0, -1, 1, 0),
    "rotate-180": (-1, 0, 0, -1),
    "rotate-270": (0, 1, -1, 0),
    "mirror-column": (-1, 0, 0, 1),
    "mirror-row": (1, 0, 0, -1),
    "mirror-diagonal": (0, 1, 1, 0),
    "mirror-antidiagonal": (0, -1, -1, 0),
}

Offset = tuple[int, int]


def transform(m: tuple[int, int, int, int], v: Offset) -> Offset:
    """The offset ``v`` mapped by the linear part ``m`` of a symmetry."""
    a, b, c, d = m
    return (a * v[0] + b * v[1], c * v[0] + d * v[1])


@dataclass(frozen=True)
class Isometry:
    """``p -> L p + t`` with ``L`` one of ``SYMMETRIES``: a symmetry of some stones."""

    kind: str
    tx: int
    ty: int

    def __call__(self, p: Point) -> Point:
        x, y = transform(SYMMETRIES[self.kind], (p.x, p.y))
        return Point(x + self.tx, y + self.ty)

    def words(self, near: Point) -> str:
        """``a mirror in column h``, ``a half turn about i9``; ``near`` is a stone it maps."""
        k, tx, ty = self.kind, self.tx, self.ty
        if k == "mirror-column":
            return f"a mirror in {_line_name(Fraction(tx, 2), 'column')}"
        if k == "mirror-row":
            return f"a mirror in {_line_name(Fraction(ty, 2), 'row')}"
        if k in ("mirror-diagonal", "mirror-antidiagonal"):
            return self._diagonal_words(near)
        # rotations: the fixed point solves p = L p + t
        a, b, c, d = SYMMETRIES[k]
        det = (1 - a) * (1 - d) - b * c
        px = Fraction((1 - d) * tx + b * ty, det)
        py = Fraction(c * tx + (1 - a) * ty, det)
        turn = "a half turn" if k == "rotate-180" else "a quarter turn"
        return f"{turn} about {_point_name(px, py)}"

    def _diagonal_words(self, near: Point) -> str:
        # the midpoint of a stone and its image is on the axis; step along it to a point
        diagonal = self.kind == "mirror-diagonal"
        image = self(near)
        x2, y2 = near.x + image.x, near.y + image.y
        if x2 % 2:
            x2, y2 = x2 + 1, y2 + (1 if diagonal else -1)
        axis = "diagonal" if diagonal else "anti-diagonal"
        return f"a mirror in the {axis} through {Point(x2 // 2, y2 // 2).name}"


def _line_name(v: Fraction, what: str) -> str:
    if v.denominator == 1:
        n = int(v)
        return f"column {COLUMNS[n]}" if what == "column" else f"row {n + 1}"
    lo = int(v - Fraction(1, 2))
    if what == "column":
        return f"the line between columns {COLUMNS[lo]} and {COLUMNS[lo + 1]}"
    return f"the line between rows {lo + 1} and {lo + 2}"


def _point_name(x: Fraction, y: Fraction) -> str:
    if x.denominator == 1 and y.denominator == 1:
        return Point(int(x), int(y)).name
    lo = Point(int(x - Fraction(x.denominator - 1, 2)), int(y - Fraction(y.denominator - 1, 2)))
    hi = Point(int(x + Fraction(x.denominator - 1, 2)), int(y + Fraction(y.denominator - 1, 2)))
    return f"the midpoint of {lo.name} and {hi.name}"


def stone_symmetries(
    stones: dict[Point, int], width: int, height: int, frame: str
) -> list[Isometry]:
    """Every symmetry other than the identity mapping the stones onto themselves, colour by colour.

    ``frame`` ``pattern`` admits a symmetry about any point; ``board`` only those that also map
    the board onto itself (for a square board: about its centre).
    """
    if frame == "none":
        return []
    black, white = _by_colour(stones)
    corners = {(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)}
    on_board = black or white
    # the board must map onto itself in its own frame, and with no stones to map
    sets = [black, white] if frame != "board" and on_board else [black, white, corners]
    anchor = on_board or corners
    found = (_symmetry(kind, m, anchor, sets) for kind, m in _MOVING.items())
    return [g for g in found if g is not None]


def _by_colour(stones: dict[Point, int]) -> tuple[set[Offset], set[Offset]]:
    """The black stones and the white ones, as (x, y) pairs."""
    black = {(p.x, p.y) for p, s in stones.items() if s == BLACK}
    white = {(p.x, p.y) for p, s in stones.items() if s != BLACK}
    return black, white


#: The symmetries other than the identity.
_MOVING = {kind: m for kind, m in SYMMETRIES.items() if kind != "identity"}


def _symmetry(
    kind: str, m: tuple[int, int, int, int], anchor: set[Offset], sets: list[set[Offset]]
) -> Isometry | None:
    """The symmetry of linear part ``m`` that maps each of ``sets`` onto itself, if any.  A
    translation keeps the order of points: only one can take the images of the ``anchor``
    points onto them, the one from the first image to the first point."""
    a, b, c, d = m
    ax, ay = min(anchor)
    mx, my = min((a * x + b * y, c * x + d * y) for x, y in anchor)
    tx, ty = ax - mx, ay - my
    if all(_maps_onto(m, tx, ty, points) for points in sets):
        return Isometry(kind, tx, ty)
    return None


def _maps_onto(m: tuple[int, int, int, int], tx: int, ty: int, points: set[Offset]) -> bool:
    """Whether ``p -> m p + t`` maps ``points`` onto themselves."""
    a, b, c, d = m
    return all((a * x + b * y + tx, c * x + d * y + ty) in points for x, y in points)


def symmetric_pairs(
    stones: dict[Point, int], width: int, height: int, frame: str, offers: list[Point]
) -> tuple[tuple[tuple[Point, Point], Isometry], ...]:
    """Each offer that a symmetry of the stones (in ``frame``) maps an earlier offer onto, with
    the first such offer and the first such symmetry.  A symmetry maps one point onto an offer,
    so each offer costs a look-up per symmetry, not one per earlier offer (a record may offer
    every point of the board)."""
    if frame == "none" or len(offers) < 2:
        return ()
    symmetries = stone_symmetries(stones, width, height, frame)
    if not symmetries:
        return ()
    # each symmetry's inverse, p = L^T (q - t) (L is a rotation or a mirror), on (x, y) pairs
    inverses = [(g, *SYMMETRIES[g.kind], g.tx, g.ty) for g in symmetries]
    out: list[tuple[tuple[Point, Point], Isometry]] = []
    first_at: dict[Offset, int] = {}  # where each offer is first in the list, so far
    for k, q in enumerate(offers):
        best = _earliest_mapped(q, inverses, first_at)
        first_at.setdefault(q, k)
        if best is not None:
            out.append(((offers[best[0]], q), best[1]))
    return tuple(out)


def _earliest_mapped(
    q: Point,
    inverses: list[tuple[Isometry, int, int, int, int, int, int]],
    first_at: dict[Offset, int],
) -> tuple[int, Isometry] | None:
    """The earliest offer (its index) that one of the symmetries maps onto ``q``, and which."""
    x, y = q
    best: tuple[int, Isometry] | None = None
    for g, a, b, c, d, tx, ty in inverses:
        u, v = x - tx, y - ty
        j = first_at.get((a * u + c * v, b * u + d * v))
        if j is not None and (best is None or j < best[0]):
            best = (j, g)
    return best
