"""Duplicate games: a key that is the same for a game written in any of the ways it can be.

Two records are **the same game** when their stones, placed in order, are the same up to one of
the symmetries of the board (the 8 of a square, the 4 of a rectangle), with two allowances for
how records are written rather than how the game went:

- the **opening stones** (the first :data:`OPENING_STONES` moves) count as a set of black and a
  set of white stones: the opener places them together in every renju protocol (and with a
  swap after each in Taraguchi or Tarannikov, which still leaves the same position), so a record
  that lists stone 3 before stone 1 is the same game;
- **setup stones** (SGF ``AB``/``AW``, engine openings) count as sets, as their formats do.

Everything else is play and its order counts.  Side information is left out of the key: the
declared result, the players, the fifth-move offers and swap decisions (two databases often
keep different amounts of it for the same game).  Records with no stone at all (unreadable or
empty) have no key: they are not games to compare.

The key is a 16-byte digest, so a batch of millions of records keeps a small index.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable
from typing import cast

from renju_cli.coords import MAX_SIZE, Point
from renju_cli.opening.check import board_size
from renju_cli.record import Color, Finding, Record, SourceLocation, place
from renju_cli.ruleset import Ruleset

#: Moves at the start of a record that form a set of stones rather than a sequence.
OPENING_STONES = 3

_Transform = Callable[[int, int], tuple[int, int]]
_Stone = tuple[int, int, int]  # (colour 0/1, x, y); a pass is (colour, -1, -1)


#: The symmetries of a square board, identity first, each as (mirror the columns, mirror the
#: rows, then exchange columns and rows); a rectangle has the first four.  ``symmetries`` and
#: the tables of ``_images`` are both made from these.
_SYMMETRIES = (
    (False, False, False),
    (True, False, False),
    (False, True, False),
    (True, True, False),
    (False, False, True),
    (False, True, True),
    (True, False, True),
    (True, True, True),
)


def _symmetries_of(width: int, height: int) -> tuple[tuple[bool, bool, bool], ...]:
    return _SYMMETRIES if width == height else _SYMMETRIES[:4]


def symmetries(width: int, height: int) -> list[_Transform]:
    """The symmetries of a ``width`` x ``height`` board, identity first."""
    return [_transform(width - 1, height - 1, *s) for s in _symmetries_of(width, height)]


def _transform(w: int, h: int, mirror_x: bool, mirror_y: bool, exchange: bool) -> _Transform:
    def transform(x: int, y: int) -> tuple[int, int]:
        u = w - x if mirror_x else x
        v = h - y if mirror_y else y
        return (v, u) if exchange else (u, v)

    return transform


def _stones(record: Record) -> tuple[list[_Stone], list[_Stone]]:
    """The setup stones and the moves as (colour, x, y); colours as the referee assumes them:
    the one a move states, else alternating from black (white when the setup has more black
    stones)."""
    black = Color.BLACK  # (a member read off its class is a Python call of Enum's: once)
    setup = [(0 if c is black else 1, p.x, p.y) for p, c in record.setup]
    to_move = _first_colour(sum(1 for s in setup if s[0] == 0), len(setup))
    moves = []
    for m in record.moves:
        colour = to_move if m.color is None else (0 if m.color is black else 1)
        p = m.point if m.point is not None else Point(-1, -1)
        moves.append((colour, p.x, p.y))
        to_move = 1 - colour
    return setup, moves


def _first_colour(blacks: int, stones: int) -> int:
    """The colour of the first move when the moves do not state theirs: black, or white when
    ``blacks`` of the ``stones`` of the setup are more than half."""
    return 0 if blacks <= stones - blacks else 1


def game_key(record: Record, ruleset: Ruleset) -> bytes | None:
    """The duplicate key of a record judged under ``ruleset`` (its board size when the record
    states none); ``None`` when the record has no stone."""
    if record.unreadable or not (record.moves or record.setup):
        return None
    width, height = board_size(record, ruleset)
    codes = _record_codes(record, width, height)
    if codes is None:  # a stone off the board
        return _key_of_stones(record, width, height)
    return _key_of_codes(*codes, width, height)


def _key_of_stones(record: Record, width: int, height: int) -> bytes:
    """``game_key`` with the symmetries worked out stone by stone."""
    setup, moves = _stones(record)
    head, tail = moves[:OPENING_STONES], moves[OPENING_STONES:]
    forms = [_image(t, setup, head, tail) for t in symmetries(width, height)]
    text = repr((width, height, min(forms))).encode()
    import hashlib  # (here: hashlib loads OpenSSL, which a batch without --duplicates skips)

    return hashlib.blake2b(text, digest_size=16).digest()


def _image(
    t: _Transform, setup: list[_Stone], head: list[_Stone], tail: list[_Stone]
) -> tuple[tuple[_Stone, ...], ...]:
    """The stones under the symmetry ``t``: the setup and the opening stones as sorted sets,
    the rest in order."""
    moved = functools.partial(_moved, t)
    return (
        tuple(sorted(map(moved, setup))),
        tuple(sorted(map(moved, head))),
        tuple(map(moved, tail)),
    )


def _moved(t: _Transform, s: _Stone) -> _Stone:
    if s[1] < 0:  # a pass is the same in every frame
        return s
    x, y = t(s[1], s[2])
    return (s[0], x, y)


# -- the same key, by table: every line of a variation tree is keyed whole, so the stones are
# -- mapped by tables in C, not by a Python call per stone and symmetry
def _record_codes(record: Record, width: int, height: int) -> tuple[list[int], list[int]] | None:
    """The setup stones and the moves of ``record`` as ``_stones`` gives them, each as one
    number (``colour * (cells + 1) + cell``, the pass as cell ``cells``); ``None`` when a
    stone is off the board, on any side (no table holds its images; RenLib writes a row -1,
    whose cell would be another point's).  Worked out by loops in C when every move states
    its colour (as tree formats do), else in one pass over the moves."""
    setup = _coded([p for p, _ in record.setup], [c for _, c in record.setup], width, height)
    if setup is None:
        return None
    stated = [m.color for m in record.moves]
    if None in stated:
        played = _alternating(record, stated, setup, width, height)
    else:  # each move's colour is its own
        played = _coded([m.point for m in record.moves], stated, width, height)
    return None if played is None else (setup, played)


def _alternating(
    record: Record, stated: list[Color | None], setup: list[int], width: int, height: int
) -> list[int] | None:
    """The codes of moves whose colours alternate (from ``_first_colour``) where they do not
    state theirs; ``None`` when one is off the board."""
    stride = width * height + 1
    cell_of = _cells(width, height)
    to_move = _first_colour(sum(map(stride.__gt__, setup)), len(setup))
    codes: list[int] = []
    append = codes.append
    black = Color.BLACK
    for m, color in zip(record.moves, stated, strict=True):
        colour = to_move if color is None else (0 if color is black else 1)
        cell = cell_of.get(m.point)
        if cell is None:
            return None
        append(colour * stride + cell)
        to_move = 1 - colour
    return codes


def _coded(
    points: list[Point | None], colors: list[Color | None], width: int, height: int
) -> list[int] | None:
    """The codes of stones of stated colours (a pass: ``None``), by loops in C: each its
    colour's base plus its cell; ``None`` when one is off the board."""
    found = list(map(_cells(width, height).get, points))
    if None in found:
        return None
    base: dict[Color | None, int] = {Color.BLACK: 0, Color.WHITE: width * height + 1}
    return list(map(int.__add__, map(base.__getitem__, colors), cast("list[int]", found)))


# The tables of a board size are kept for every size met (boards are 5x5 to 26x26: 484 sizes,
# a few megabytes for all): a file that cycles through more sizes than a bounded cache holds
# would miss it at every record.  The tables share their points and numbers (``_GRID``,
# ``_CODES``) across sizes.


@functools.cache
def _cells(width: int, height: int) -> dict[Point | None, int]:
    """The cell of every point on a ``width`` x ``height`` board, and of the pass (``None``):
    cell ``width * height``."""
    codes = _CODES
    out: dict[Point | None, int] = {
        _GRID[x][y]: codes[x * height + y] for x in range(width) for y in range(height)
    }
    out[None] = codes[width * height]
    return out


@functools.cache
def _images(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each symmetry of the board (in the order of ``symmetries``), the code of the image of
    every stone code: a stone of colour ``c`` at cell ``i`` is code ``c * (cells + 1) + i``, the
    pass cell ``cells``."""
    grid = [(x, y) for x in range(width) for y in range(height)]
    return tuple(_image_table(grid, width, height, *s) for s in _symmetries_of(width, height))


def _image_table(
    grid: list[tuple[int, int]],
    width: int,
    height: int,
    mirror_x: bool,
    mirror_y: bool,
    exchange: bool,
) -> tuple[int, ...]:
    """The code of the image of every stone code under one symmetry."""
    # the image's cell under the symmetry, cell by cell (``_transform``'s arithmetic by
    # column and row: a call a cell would be most of the time of a size's tables)
    cols = _lines(width, mirror_x)
    rows = _lines(height, mirror_y)
    if exchange:  # (a square board)
        frame = [rows[y] * height + cols[x] for x, y in grid]
    else:
        frame = [cols[x] * height + rows[y] for x, y in grid]
    cells = width * height
    white = [c + cells + 1 for c in frame]
    return tuple(map(_CODES.__getitem__, [*frame, cells, *white, 2 * cells + 1]))


def _lines(n: int, mirror: bool) -> list[int]:
    """Where the columns (or rows) ``0 .. n - 1`` go, mirrored or not."""
    return list(range(n - 1, -1, -1)) if mirror else list(range(n))


#: The points of the biggest board, by column and row; the numbers of its codes.
_GRID = [[Point(x, y) for y in range(MAX_SIZE)] for x in range(MAX_SIZE)]
_CODES = tuple(range(2 * (MAX_SIZE * MAX_SIZE + 1)))


#: Moves after the opening stones whose images tell the symmetries apart in a real game
#: (``_least_image``).
FIRST_TAIL = 16


def _least_image(
    setup: list[int], head: list[int], tail: list[int], tables: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The least of the images of (the setup and the opening stones as sorted sets, the rest
    in order) under the symmetries whose ``tables`` are given.

    Tuples compare from their first element, so a symmetry whose image is greater within the
    first moves of the tail is greater whole: the symmetries are narrowed on the first
    ``FIRST_TAIL`` moves, and in a real game one is left, the only one mapped to the end (a
    tree keys each of its lines, and a hostile comb's are thousands of moves long).  Those
    still alike
    (a line of passes and centre stones, alike under all eight) are mapped whole and compared,
    as each image was before the narrowing."""
    stones = _setup_images(setup, tables)
    parts = [
        (image, tuple(sorted(map(t.__getitem__, head))))
        for t, image in zip(tables, stones, strict=True)
    ]
    least = min(parts)
    alike = [t for t, part in zip(tables, parts, strict=True) if part == least]
    if len(alike) > 1 and len(tail) > FIRST_TAIL:
        images = [tuple(map(t.__getitem__, tail[:FIRST_TAIL])) for t in alike]
        first = min(images)
        alike = [t for t, image in zip(alike, images, strict=True) if image == first]
    if len(alike) == 1:
        return (*least, tuple(map(alike[0].__getitem__, tail)))
    return (*least, min(tuple(map(t.__getitem__, tail)) for t in alike))


def _setup_images(setup: list[int], tables: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """The images of the setup stones under each symmetry, sorted."""
    return [tuple(sorted(map(t.__getitem__, setup))) for t in tables]


def _key_of_codes(setup: list[int], moves: list[int], width: int, height: int) -> bytes:
    """``game_key`` of stones as codes: the least of their images under the symmetries (the
    setup and the opening stones as sorted sets, the rest in order), as a digest."""
    best = _least_image(
        setup, moves[:OPENING_STONES], moves[OPENING_STONES:], _images(width, height)
    )
    numbers = array("H", (width, height, len(best[0]), len(best[1])))
    for part in best:
        numbers.extend(part)
    import hashlib  # (see above)

    return hashlib.blake2b(b"codes" + numbers.tobytes(), digest_size=16).digest()


class DuplicateIndex:
    """The first record seen of every game key, in the order records are offered."""

    def __init__(self) -> None:
        self.first: dict[bytes, SourceLocation] = {}

    def seen(self, key: bytes | None, source: SourceLocation) -> SourceLocation | None:
        """The first occurrence of ``key`` when it was seen before, else ``None`` (and
        ``source`` becomes its first occurrence)."""
        if key is None:
            return None
        if key in self.first:
            return self.first[key]
        self.first[key] = source
        return None


def duplicate_finding(first: SourceLocation) -> Finding:
    """The ``duplicate`` finding of a record that repeats the game at ``first``."""
    return Finding(
        "duplicate",
        f"the same game as {place(first)} (up to a board symmetry and the order of the "
        f"opening stones)",
    )
