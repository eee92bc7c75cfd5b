"""Black's forbidden moves, one test per rule of ``shared/spec/rules.md`` with its board.

Each diagram is a 15x15 board, top row first: ``X`` black, ``O`` white, ``.`` empty, ``*`` the
point black is about to play.  Every verdict is also checked against the reference judge
(``renju_cli.reference``), a slow transcription of the rules that shares no code with the fast one.
The section numbers in the docstrings are those of rules.md §2 (rules) and §6 (tricky cases).
"""

from __future__ import annotations

from helpers import black_kinds


def test_five_with_overline_on_another_line_wins() -> None:
    """Rule 1: h8 makes the five d8-h8 and, on the column, the overline h8-h13. Five wins first."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . X . . . . . . .
    12 . . . . . . . X . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . . X . . . . . . .
     9 . . . . . . . X . . . . . . .
     8 . . . X X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_five_with_double_four_wins() -> None:
    """Rule 1: h8 makes the five d8-h8 and the fours h8-h11 and h8-k11. Five wins first."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . X . . X . . . .
    10 . . . . . . . X . X . . . . .
     9 . . . . . . . X X . . . . . .
     8 . . . X X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_five_with_double_three_wins() -> None:
    """Rule 1: h8 makes the five d8-h8 and the threes h8-h10 and h8-j10. Five wins first."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . X . X . . . . .
     9 . . . . . . . X X . . . . . .
     8 . . . X X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_six_in_a_row_is_an_overline() -> None:
    """Rule 2: c8-h8 is six in a row: an overline, forbidden for black, no win."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . X X X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["overline"]


def test_seven_in_a_row_is_an_overline() -> None:
    """Rule 2: c8-i8 is seven in a row."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . X X X X X * X . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["overline"]


def test_double_four_on_one_line_x_xxx_x() -> None:
    """Rule 3, shape X.XXX.X: fours e8-g8-h8-i8 (completed at f8) and g8-h8-i8-k8 (at j8)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . . X . X * X . X . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-four"]


def test_double_four_on_one_line_xx_xx_xx() -> None:
    """Rule 3, shape XX.XX.XX: fours d8-e8-g8-h8 (at f8) and g8-h8-j8-k8 (at i8)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . X X . * X . X X . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-four"]


def test_double_four_on_one_line_xxx_x_xxx() -> None:
    """Rule 3, shape XXX.X.XXX: fours c8-d8-e8-g8 (at f8) and g8-i8-j8-k8 (at h8)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . X X X . * . X X X . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-four"]


def test_double_four_on_one_line_at_the_edge() -> None:
    """Rule 3 at the left edge, XX.XX.XX from a8: fours a8-b8-d8-e8 (at c8), d8-e8-g8-h8 (at f8)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 X X . * X . X X . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-four"]


def test_double_four_on_one_line_diagonal() -> None:
    """Rule 3 on a diagonal, X.XXX.X: fours e5-g7-h8-i9 (at f6) and g7-h8-i9-k11 (at j10)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . X . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . X . . . . . .
     8 . . . . . . . * . . . . . . .
     7 . . . . . . X . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . X . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-four"]


def test_open_four_is_one_four() -> None:
    """Rule 3/terms: .XXXX. (e8-h8, completions d8 and i8) is one four, not two."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . . X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_a_four_not_through_p_is_ignored() -> None:
    """Rule 3: l8 makes the four j8-m8; the four a8-d8 on the same row does not contain l8."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 X X X X . . . . . X X * X . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_completion_making_six_is_no_four() -> None:
    """Terms: O X X X h8 . X - the only completion i8 makes e8-j8, six: not a four for black.
    So h8 has one four (h8-h11 on the column): legal."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . . X . . . . . . .
     9 . . . . . . . X . . . . . . .
     8 . . . O X X X * . X . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_same_shape_without_the_white_stone_is_double_four() -> None:
    """The pair of the case above: with d8 empty, e8-h8 is a four again (completed at d8)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . . X . . . . . . .
     9 . . . . . . . X . . . . . . .
     8 . . . . X X X * . X . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-four"]


def test_three_capped_at_distance_one_is_dead() -> None:
    """Rule 6: O X X g8 . . - no straight four can be made on the row (OXXXX.), so only the
    column three g8-g10 counts: legal."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . X . . . . . . . .
     9 . . . . . . X . . . . . . . .
     8 . . . O X X * . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_three_capped_at_distance_two_is_alive() -> None:
    """Rule 6: O . X X g8 . . - h8 makes the straight four e8-h8 (d8 and i8 each give exactly
    five), so the row three is real; with the column three g8-g10: double-three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . X . . . . . . . .
     9 . . . . . . X . . . . . . . .
     8 . . O . X X * . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_three_against_the_edge_is_dead() -> None:
    """Rule 6: |X X c8 . . - a8-d8 would have no room on the left: no three on the row."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . X . . . . . . . . . . . .
     9 . . X . . . . . . . . . . . .
     8 X X * . . . . . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_three_one_point_from_the_edge_is_alive() -> None:
    """Rule 6: |. X X d8 . . - e8 makes the straight four b8-e8 (a8 and f8 both give five)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . X . . . . . . . . . . .
     9 . . . X . . . . . . . . . . .
     8 . X X * . . . . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_diagonal_of_length_five_holds_no_three() -> None:
    """Rule 6: the diagonal a11-e15 has five points, too short for a straight four; with the
    row three d14-f14 there is only one three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . * X X . . . . . . . . .
    13 . . X . . . . . . . . . . . .
    12 . X . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . . . . . . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_diagonal_of_length_six_holds_a_three() -> None:
    """Rule 6: the diagonal a10-f15 has six points: b11-c12-d13 becomes the straight four
    b11-e14 (a10 and f15 both give five); with the row three d13-f13: double-three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . * X X . . . . . . . . .
    12 . . X . . . . . . . . . . . .
    11 . X . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . . . . . . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_three_whose_only_straight_four_point_is_an_overline_point() -> None:
    """Rule 7: the row three e8-f8-g8 has one straight-four point, h8, and h8 makes the overline
    h5-h11: the three is not real, and g8 has only the column three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . X X . . . . . . .
     9 . . . . . . X X . . . . . . .
     8 . . O . X X * . . . . . . . .
     7 . . . . . . . X . . . . . . .
     6 . . . . . . . X . . . . . . .
     5 . . . . . . . X . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_three_whose_only_straight_four_point_is_a_double_four_made_by_p() -> None:
    """Rule 7: the row three e8-f8-g8 has one straight-four point, h8. With g8 on the board, h8
    makes the four e8-h8 and the four h8-h11: a double-four, which exists only because of g8.
    So the row three is not real and g8 is legal (one real three)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . X X . . . . . . .
     9 . . . . . . X X . . . . . . .
     8 . . O . X X * . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_three_with_one_forbidden_and_one_legal_straight_four_point_is_real() -> None:
    """Rule 8: the row three e8-f8-g8 can become a straight four at h8 (an overline point,
    forbidden) or at d8 (legal): it is real, and g8 is a double-three with g8-g10."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . X X . . . . . . .
     9 . . . . . . X X . . . . . . .
     8 . . . . X X * . . . . . . . .
     7 . . . . . . . X . . . . . . .
     6 . . . . . . . X . . . . . . .
     5 . . . . . . . X . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_four_three_is_legal() -> None:
    """Rule 5: h8 makes the four e8-h8 (completed at i8) and the three h8-h10: a four-three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . X . . . . . . .
     9 . . . . . . . X . . . . . . .
     8 . . . O X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_four_three_three_is_forbidden() -> None:
    """Rule 5: a four (e8-h8), and two threes (h8-h10, h8-i9-j10)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . X . X . . . . .
     9 . . . . . . . X X . . . . . .
     8 . . . O X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_three_three_three_is_forbidden() -> None:
    """Rule 5: three threes through h8 (row, column, diagonal)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . X . X . . . . .
     9 . . . . . . . X X . . . . . .
     8 . . . . . X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_four_four_three_is_a_double_four() -> None:
    """Rule 5: fours e8-h8 and h8-h11, and the three h8-i9-j10: double-four (the real threes are
    one, so no double-three)."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . O . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . . X . X . . . . .
     9 . . . . . . . X X . . . . . .
     8 . . . O X X X * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-four"]


def test_shapes_elsewhere_are_ignored() -> None:
    """Rule 12: there is a double-three point at c2 and more shapes around l12; h8 touches none."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . X X . .
    12 . . . . . . . . . . . X X X .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . . . . . * . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . X . . . . . . . . . . . .
     4 . . X . . . . . . . . . . . .
     3 . . X X . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_three_whose_straight_four_point_also_makes_five_not_a_three() -> None:
    """Rule 13 (default not_a_three): the row three e8-f8-g8's only straight-four point h8 would
    also complete the five h8-h12: not a three, so g8 has one three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . X . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . X X . . . . . . .
     9 . . . . . . X X . . . . . . .
     8 . . O . X X * . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_nested_one_level_down() -> None:
    """Rule 9, one level: c4's row three c4-e4 has one straight-four point, f4. With c4 placed,
    f4 makes the four c4-f4 and two real threes (f4-f6, f4-e5-d6): four-three-three,
    forbidden. So the row three is not real; c4 has one three (c4-d3-e2): legal.
    The chain: each link is a three whose only straight-four point is the next link
    (a white stone two points behind it kills the other side), plus a plain three on a
    diagonal. A link is forbidden (four-three-three) exactly when the next link is legal,
    so verdicts alternate down the chain and only full recursion gets them right."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . . . . . . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . X . X . . . . . . . . .
     5 . . . . X X . . . . . . . . .
     4 O . * X X . . . . . . . . . .
     3 . . . X . . . . . . . . . . .
     2 . . . . X O . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_nested_two_levels_down_four_three_with_a_fake_three() -> None:
    """Rule 9 two levels down, and rule 10: c4 -> f4 -> f7 -> i7. i7 is legal (a four only), so
    f7 is four-three-three (forbidden), so f4's column three f4-f6 is fake and f4 is a legal
    four-three: c4's row three is real and c4 is a double-three.
    The chain: each link is a three whose only straight-four point is the next link
    (a white stone two points behind it kills the other side), plus a plain three on a
    diagonal. A link is forbidden (four-three-three) exactly when the next link is legal,
    so verdicts alternate down the chain and only full recursion gets them right."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . .
     8 . . . . . . . . . . . . . . .
     7 . . . O . . X X . . . . . . .
     6 . . . X . X X . . . . . . . .
     5 . . . . X X . X . . . . . . .
     4 O . * X X . . . . . . . . . .
     3 . . . X . . . . . . . . . . .
     2 . . . . X O . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_nested_three_levels_down() -> None:
    """Rule 9, three levels: c4 -> f4 -> f7 -> i7 -> i10 (legal), so i7 forbidden, f7 legal,
    f4 forbidden: c4's row three is fake, c4 legal.
    The chain: each link is a three whose only straight-four point is the next link
    (a white stone two points behind it kills the other side), plus a plain three on a
    diagonal. A link is forbidden (four-three-three) exactly when the next link is legal,
    so verdicts alternate down the chain and only full recursion gets them right."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . .
     9 . . . . . . X . X . . . . . .
     8 . . . . . . . X X . . . . . .
     7 . . . O . . X X . . . . . . .
     6 . . . X . X X . . . . . . . .
     5 . . . . X X . X O . . . . . .
     4 O . * X X . . . . . . . . . .
     3 . . . X . . . . . . . . . . .
     2 . . . . X O . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []


def test_nested_four_levels_down() -> None:
    """Rule 9, four levels: c4 -> f4 -> f7 -> i7 -> i10 -> l10 (legal): i10 forbidden, i7 legal,
    f7 forbidden, f4 legal, so c4 is a double-three. A judge that stops at any depth
    below four gets this wrong.
    The chain: each link is a three whose only straight-four point is the next link
    (a white stone two points behind it kills the other side), plus a plain three on a
    diagonal. A link is forbidden (four-three-three) exactly when the next link is legal,
    so verdicts alternate down the chain and only full recursion gets them right."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . . O . . X X . . . .
     9 . . . . . . X . X X . . . . .
     8 . . . . . . . X X . X . . . .
     7 . . . O . . X X . . . . . . .
     6 . . . X . X X . . . . . . . .
     5 . . . . X X . X O . . . . . .
     4 O . * X X . . . . . . . . . .
     3 . . . X . . . . . . . . . . .
     2 . . . . X O . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_nested_pair_one_far_white_stone_flips_the_verdict() -> None:
    """Rule 9, the pair: the three-level position above (c4 legal) plus one white stone at f10,
    six rows from c4. It kills i7's diagonal three i7-h8-g9, so i7 becomes a legal
    four-three, f7 becomes forbidden, f4 legal: c4's row three is real, c4 a double-three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . .
    10 . . . . . O . . . . . . . . .
     9 . . . . . . X . X . . . . . .
     8 . . . . . . . X X . . . . . .
     7 . . . O . . X X . . . . . . .
     6 . . . X . X X . . . . . . . .
     5 . . . . X X . X O . . . . . .
     4 O . * X X . . . . . . . . . .
     3 . . . X . . . . . . . . . . .
     2 . . . . X O . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == ["double-three"]


def test_five_eye_counts_option() -> None:
    """Rule 13 with three_completion_makes_five: counts — the row three e8-f8-g8 is a three
    because its straight-four point h8 (a five on the column) is a legal move: double-three."""
    board = """
    15 . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . .
    13 . . . . . . . . . . . . . . .
    12 . . . . . . . X . . . . . . .
    11 . . . . . . . X . . . . . . .
    10 . . . . . . X X . . . . . . .
     9 . . . . . . X X . . . . . . .
     8 . . O . X X * . . . . . . . .
     7 . . . . . . . . . . . . . . .
     6 . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . .
     1 . . . . . . . . . . . . . . .
       a b c d e f g h i j k l m n o
    """
    assert black_kinds(board) == []
    assert black_kinds(board, five_eye_counts=True) == ["double-three"]
