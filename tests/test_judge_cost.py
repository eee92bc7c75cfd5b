"""What judging costs in dense positions, counted (``Judge.deep_judgements``), never timed.

The hostile position: full black rows 1, 4, 7, ... with two empty rows between them.  Every
empty point between two rows makes threes on the column and both diagonals, and each straight-four
point makes a four and two more threes one row over, so whether a point is a double-three is
decided by a chain of nested threes running to the edge of the board (rules.md §2.4: never cap
the recursion).  The judge used to explore every branch of that chain: about 3,000 points
judged in depth for one move on 26x26, 15 ms a move, and 277,000 status look-ups for 564 moves
of a hostile file.  Now it stops as soon as the count of real threes is known and remembers
answers by the points they depend on.

Diagrams: ``X`` black, ``O`` white, ``.`` empty, ``3`` an empty point where black's move is a
double-three (as ``renju show`` marks it); rows are labelled on the left, top row first.
"""

from __future__ import annotations

from helpers import reference_position

from renju_cli.board import BLACK, EMPTY, WHITE, Board
from renju_cli.judge import DOUBLE_THREE, Judge

#: Black rows 1, 4, ..., 13 on 13x13.  The chains of threes alternate: a point is forbidden
#: when the chain towards each edge has the right length, which here is every other column.
ROWS_13 = """
13 X X X X X X X X X X X X X
12 . . . . . . . . . . . . .
11 . . . . . . . . . . . . .
10 X X X X X X X X X X X X X
 9 . . . 3 . 3 . 3 . 3 . . .
 8 . . . 3 . 3 . 3 . 3 . . .
 7 X X X X X X X X X X X X X
 6 . . . 3 . 3 . 3 . 3 . . .
 5 . . . 3 . 3 . 3 . 3 . . .
 4 X X X X X X X X X X X X X
 3 . . . . . . . . . . . . .
 2 . . . . . . . . . . . . .
 1 X X X X X X X X X X X X X
   a b c d e f g h i j k l m
"""

#: The hostile position itself: on an even width the two edges ask for opposite parities, and
#: only columns c and x are forbidden, decided 20 columns away.  The marks are the previous
#: judge's too; the reference judge gave the same pattern (columns c and r) for every point of
#: these rows on 20x20, in 15 CPU-minutes: on 26x26 it would take hours.
ROWS_26 = """
26 . . . . . . . . . . . . . . . . . . . . . . . . . .
25 X X X X X X X X X X X X X X X X X X X X X X X X X X
24 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
23 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
22 X X X X X X X X X X X X X X X X X X X X X X X X X X
21 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
20 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
19 X X X X X X X X X X X X X X X X X X X X X X X X X X
18 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
17 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
16 X X X X X X X X X X X X X X X X X X X X X X X X X X
15 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
14 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
13 X X X X X X X X X X X X X X X X X X X X X X X X X X
12 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
11 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
10 X X X X X X X X X X X X X X X X X X X X X X X X X X
 9 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
 8 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
 7 X X X X X X X X X X X X X X X X X X X X X X X X X X
 6 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
 5 . . 3 . . . . . . . . . . . . . . . . . . . . 3 . .
 4 X X X X X X X X X X X X X X X X X X X X X X X X X X
 3 . . . . . . . . . . . . . . . . . . . . . . . . . .
 2 . . . . . . . . . . . . . . . . . . . . . . . . . .
 1 X X X X X X X X X X X X X X X X X X X X X X X X X X
   a b c d e f g h i j k l m n o p q r s t u v w x y z
"""

#: Points judged in depth for one move in ROWS_26 with a fresh judge: at most 41 now (the chain
#: to each edge, about two points a column), 3,084 before; the bound leaves room, not a cliff.
MOVE_LIMIT = 64
#: The same for ``forbidden_points`` of the whole ROWS_26 board (5,446 now).
LISTING_LIMIT = 8_000


def _read(diagram: str) -> tuple[Board, dict[int, tuple[str, ...]]]:
    """The board of a diagram and its marked forbidden points (all double-threes)."""
    rows = []
    for line in diagram.strip().splitlines():
        cells = line.split()
        if cells and cells[0].isdigit():
            rows.append(cells[1:])
    board = Board(len(rows))
    marks: dict[int, tuple[str, ...]] = {}
    for r, cells in enumerate(rows):
        assert len(cells) == len(rows), f"row {len(rows) - r} has {len(cells)} cells"
        for x, cell in enumerate(cells):
            p = board.index_of(x, len(rows) - 1 - r)
            if cell == "X":
                board.place(p, BLACK)
            elif cell == "O":
                board.place(p, WHITE)
            elif cell == "3":
                marks[p] = (DOUBLE_THREE,)
    return board, marks


def test_rows_on_13x13_as_the_reference_judges_them() -> None:
    board, marks = _read(ROWS_13)
    assert dict(Judge().forbidden_points(board)) == marks
    # The reference explores every branch (seconds per row here, minutes per point on 26x26):
    # it checks the rows next to the edges and one row of chains, forbidden points included.
    ref = reference_position(board)
    for y in (1, 2, 4, 10, 11):
        for x in range(board.width):
            p = board.index_of(x, y)
            assert tuple(ref.forbidden(x, y)) == marks.get(p, ()), board.name(p)


def test_rows_on_26x26_are_judged_cheaply() -> None:
    board, marks = _read(ROWS_26)
    listing = Judge()
    assert dict(listing.forbidden_points(board)) == marks
    assert listing.deep_judgements <= LISTING_LIMIT
    worst = 0
    for p in board.points():
        if board.cells[p] != EMPTY:
            continue
        judge = Judge()  # nothing remembered from other moves
        assert judge.forbidden_kinds(board, p, BLACK) == marks.get(p, ()), board.name(p)
        worst = max(worst, judge.deep_judgements)
    assert worst <= MOVE_LIMIT
    assert board.stones == 9 * 26  # judging leaves no stone behind


def test_a_far_stone_does_not_make_the_judge_start_again() -> None:
    """Games of a hostile file share the rows and differ by one white stone far away: the
    answers the recursion remembered still apply, since they do not depend on that stone."""
    board, _ = _read(ROWS_26)
    judge = Judge()
    c5 = board.index_of(2, 4)
    assert judge.forbidden_kinds(board, c5, BLACK) == (DOUBLE_THREE,)
    first = judge.deep_judgements
    assert first > 10
    board.place(board.index_of(25, 25), WHITE)  # z26
    assert judge.forbidden_kinds(board, c5, BLACK) == (DOUBLE_THREE,)
    assert judge.deep_judgements == first


def test_a_stone_on_the_chain_changes_verdicts_far_away() -> None:
    """A white stone at c5 cuts the chains of row 5 at the left edge, which makes d5, e5 and
    every other point up to w5 double-threes.  A judge that remembers answers must not give the
    old ones: a shared judge agrees with a fresh judge for each stone added."""
    board, marks = _read(ROWS_26)
    shared = Judge()
    row5 = [board.index_of(x, 4) for x in range(26)]
    before = [shared.forbidden_kinds(board, p, BLACK) for p in row5]
    assert before == [marks.get(p, ()) for p in row5]
    flipped = 0
    for white in ("c5", "m6", "z26", "a2"):
        w = board.index_of(ord(white[0]) - 97, int(white[1:]) - 1)
        board.place(w, WHITE)
        for p in row5:
            if board.cells[p] == EMPTY:
                kinds = shared.forbidden_kinds(board, p, BLACK)
                assert kinds == Judge().forbidden_kinds(board, p, BLACK), (white, board.name(p))
                flipped += kinds != marks.get(p, ())
        board.remove(w)
    w5 = board.index_of(22, 4)
    board.place(board.index_of(2, 4), WHITE)
    assert shared.forbidden_kinds(board, w5, BLACK) == (DOUBLE_THREE,)
    assert flipped >= 10
