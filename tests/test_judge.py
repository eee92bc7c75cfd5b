"""The judge beyond the rule diagrams: every kind reported, board sizes, properties."""

from __future__ import annotations

import random

from helpers import black_kinds, position, random_board, reference_position
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.board import BLACK, WHITE, Board
from renju_cli.judge import RENJU_BLACK, ColorRules, Judge, analyze_window


def test_every_kind_that_applies_is_reported() -> None:
    """Rule 5: no precedence between kinds. h8 closes the overline b8-h8 on the row and the
    fours h8-h11 (column) and h8-k11 (diagonal): overline and double-four both."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . X . . X . . . .
    10 . . . . . . . X . X . . . . .
     9 . . . . . . . X X . . . . . .
     8 . X X X X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["overline", "double-four"]


def test_verdict_names_the_stones() -> None:
    board, p = position("""
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . . X . . . .
    . . . . * X X . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """)
    v = Judge().verdict(board, p, BLACK)
    assert v.kinds == ("double-three",)
    names = sorted("-".join(board.name(i) for i in t) for t in v.threes)
    assert names == ["e5-e6-e7", "e5-f5-g5"]


def test_small_and_large_boards() -> None:
    """The 5x5 board has no room for a straight four; on 26x26 the edge is column z."""
    small = Board(5)
    for x, y in ((1, 2), (2, 2), (2, 1), (2, 3)):
        small.place(small.index_of(x, y), BLACK)
    assert Judge().forbidden_kinds(small, small.index_of(3, 2), BLACK) == ()
    big = Board(26)
    for x in (19, 21, 23, 25):  # t1 v1 x1 z1: X.X*X.X against the right edge, * = w1
        big.place(big.index_of(x, 0), BLACK)
    assert Judge().forbidden_kinds(big, big.index_of(22, 0), BLACK) == ("double-four",)
    assert big.name(big.index_of(25, 0)) == "z1"


def test_white_has_no_forbidden_moves_in_renju() -> None:
    board = Board(15)
    for x in (2, 3, 4, 5, 7):  # c8-f8 and h8: g8 makes an overline, which wins for white
        board.place(board.index_of(x, 7), WHITE)
    assert Judge().forbidden_kinds(board, board.index_of(6, 7), WHITE) == ()
    assert Judge().five_at(board, board.index_of(6, 7), WHITE) is not None


def test_omok_for_both_colours_judges_white_too() -> None:
    both = Judge(
        black=ColorRules(False, frozenset({"double-three"})),
        white=ColorRules(False, frozenset({"double-three"})),
    )
    board = Board(15)
    for x, y in ((5, 7), (6, 7), (7, 8), (7, 9)):
        board.place(board.index_of(x, y), WHITE)
    assert both.forbidden_kinds(board, board.index_of(7, 7), WHITE) == ("double-three",)


def test_window_facts_open_four_and_split_threes() -> None:
    # r = 5: bit 5 is p.  Stones at bits 4, 6, 7 with p: .XXXX. is one four, two completions.
    facts = analyze_window((1 << 4) | (1 << 6) | (1 << 7), 0, 5, 5, True)
    assert len(facts.fours) == 1
    # .X.XX. : p at bit 5, stones at 3 and 6: one three whose only point is bit 4
    facts = analyze_window((1 << 3) | (1 << 6), 0, 5, 5, True)
    assert [off for off, _ in facts.threes] == [-1]


# -- properties: the fast judge agrees with the reference on random positions ----------------------
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([7, 9, 15, 19]),
    density=st.floats(0.1, 0.45),
    black_share=st.floats(0.45, 0.75),
    five_eye=st.booleans(),
)
def test_fast_judge_matches_reference(
    seed: int, size: int, density: float, black_share: float, five_eye: bool
) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size, int(size * size * density), black_share)
    ref = reference_position(board, five_eye)
    judge = Judge(RENJU_BLACK, five_eye_counts=five_eye)
    for i in board.points():
        if board.cells[i]:
            continue
        pt = board.point(i)
        assert list(judge.forbidden_kinds(board, i, BLACK)) == ref.forbidden(pt.x, pt.y), (
            f"{pt.name}\n{board.diagram()}"
        )


def test_forbidden_points_is_every_forbidden_empty_point() -> None:
    rng = random.Random(7)
    board = random_board(rng, 15, 70, 0.65)
    judge = Judge()
    listed = dict(judge.forbidden_points(board))
    for i in board.points():
        if not board.cells[i]:
            assert listed.get(i, ()) == judge.forbidden_kinds(board, i, BLACK)
    # judging never leaves a stone behind
    assert board.stones == 70
