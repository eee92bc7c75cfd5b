"""The judge beyond the rule diagrams: every kind reported, board sizes, properties."""

from __future__ import annotations

import functools
import random

import pytest
from helpers import black_kinds, position, random_board, reference_position
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.board import BLACK, WHITE, Board
from renju_cli.coords import Point
from renju_cli.judge import (
    KINDS,
    RENJU_BLACK,
    ColorRules,
    Judge,
    analyze_window,
    shape_counts,
    window_table,
)
from renju_cli.record import Color, Move, Record, SourceLocation
from renju_cli.referee import replay
from renju_cli.ruleset import load


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


# -- Judge.quiet: too few stones of a colour for a five or a forbidden shape ----------------------
@functools.cache  # (the same for every set of forbidden kinds: counted once)
def _fewest_in_one_line(k: int, overline_wins: bool, stone: int) -> dict[str, int]:
    """The fewest stones of ``stone`` beside the move, on one line of an empty board, that give
    the line's window each count of ``shape_counts`` (opponent stones and edges only block:
    they never make a shape, so an empty line gives the least)."""
    table = window_table(k, not overline_wins, stone)
    beside = [d for d in range(-k, k + 1) if d]  # the window's cells but the move's own
    fewest: dict[str, int] = {}
    for chosen in range(1 << len(beside)):
        raw = sum(stone << 2 * (k + d) for i, d in enumerate(beside) if chosen >> i & 1)
        code = table.codes.get(raw)
        fives, overlines, fours, threes = shape_counts(
            table.new_code(raw) if code is None else code
        )
        n = chosen.bit_count()
        for name, has in (
            ("five", fives),
            ("overline", overlines),
            ("four", fours),
            ("two fours", fours >= 2),
            ("three", threes),
            ("two threes", threes >= 2),
        ):
            if has and n < fewest.get(name, n + 1):
                fewest[name] = n
    return fewest


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("overline_wins", [False, True])
@pytest.mark.parametrize("kinds", [(), ("double-three",), ("double-four", "overline"), KINDS])
def test_quiet_is_never_more_than_the_stones_a_shape_needs(
    k: int, overline_wins: bool, kinds: tuple[str, ...]
) -> None:
    """``Judge.quiet[stone]``: below that many stones of its colour on the board, a move's lines
    are not looked at.  Line by line, every shape its rules care about needs at least that
    many: a five, and each forbidden kind, in one line or (fours, threes) in two.  For k = 5
    and renju black: the five X X X X *, the double-four X . X * X . X in one line, the
    double-three of two lines X X * and * X X crossing; so 4 stones.  Where an overline wins,
    one line holds two threes with 3: X . X * . X is X . X X and X X . X (where a five must be
    exactly five, filling either gap makes a four whose five would be an overline)."""
    rules = ColorRules(overline_wins=overline_wins, forbidden=frozenset(kinds))
    quiet = Judge(rules, rules, five_length=k).quiet[BLACK]
    fewest = _fewest_in_one_line(k, overline_wins, BLACK)
    needs = [fewest["five"]]
    if "overline" in kinds:
        needs.append(fewest["overline"])
    if "double-four" in kinds:
        needs += [fewest["two fours"], 2 * fewest["four"]]
    if "double-three" in kinds:
        needs += [fewest.get("two threes", k + 1), 2 * fewest["three"]]
    assert quiet == min(needs)  # as few as is safe, and no fewer: the shortcut is exact


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["renju", "freestyle", "omok", "caro"]))
def test_moves_of_a_quiet_colour_show_no_shape(seed: int, name: str) -> None:
    """On boards of every mix of stones, a colour with fewer than ``quiet`` stones has no move
    whose ``shape`` holds a five or a shape its rules forbid (what the replay skips)."""
    from renju_cli.judge import FIVES
    from renju_cli.ruleset import load

    rng = random.Random(seed)
    judge = load(name).judge()
    for stone in (BLACK, WHITE):
        few = rng.randrange(judge.quiet[stone])  # of the colour; the other: any number
        board = random_board(rng, 15, 0, 0.5)
        for color, n in ((stone, few), (BLACK + WHITE - stone, rng.randrange(60))):
            while n:
                i = board.index_of(rng.randrange(15), rng.randrange(15))
                if not board.cells[i]:
                    board.place(i, color)
                    n -= 1
        for i in board.points():
            if not board.cells[i]:
                assert not judge.shape(board, i, stone) & (judge.hot[stone] | FIVES)


# -- an exact five before an overline ------------------------------------------------------------
# One white move at * makes an overline (O) in one line and an exact five (F) in another.  Each
# board, turned and mirrored the eight ways of the square, puts the two lines in every order the
# judge may look at them: the move wins by the five, whose stones are the five's.
FIVE_AND_OVERLINE = [
    """
    11 . . . . . . . . . . .
    10 . . . . . F . . . . .
     9 . . . . . F . . . . .
     8 . . . . . F . . . . .
     7 . . . . . F . . . . .
     6 . . O O O * O O . . .
     5 . . . . . . . . . . .
     4 . . . . . . . . . . .
     3 . . . . . . . . . . .
     2 . . . . . . . . . . .
     1 . . . . . . . . . . .
       a b c d e f g h i j k
    """,
    """
    11 . . . . . . . . . . .
    10 . F . . . . . . . . .
     9 . . F . . . . . . . .
     8 . . . F . . . O . . .
     7 . . . . F . O . . . .
     6 . . . . . * . . . . .
     5 . . . . O . . . . . .
     4 . . . O . . . . . . .
     3 . . O . . . . . . . .
     2 . . . . . . . . . . .
     1 . . . . . . . . . . .
       a b c d e f g h i j k
    """,
    """
    11 . . . . . . . . . . .
    10 . . . . . . . . . F .
     9 . . . . . . . . F . .
     8 . . . . . . . F . . .
     7 . . . . . . F . . . .
     6 . . O O O * O O . . .
     5 . . . . . . . . . . .
     4 . . . . . . . . . . .
     3 . . . . . . . . . . .
     2 . . . . . . . . . . .
     1 . . . . . . . . . . .
       a b c d e f g h i j k
    """,
    """
    11 . . . . . . . . . . .
    10 . . . . . . . . . . .
     9 . . . . . . . . . . .
     8 . . . . . . . O . . .
     7 . . . . . . O . . . .
     6 . . . . . * F F F F .
     5 . . . . O . . . . . .
     4 . . . O . . . . . . .
     3 . . O . . . . . . . .
     2 . . . . . . . . . . .
     1 . . . . . . . . . . .
       a b c d e f g h i j k
    """,
]
SIDE = 11


def drawn_points(diagram: str) -> dict[tuple[int, int], str]:
    """The marked points of a diagram with row labels: ``(x, y)`` -> ``O``, ``F`` or ``*``."""
    rows = [line.split() for line in diagram.strip().splitlines() if line.split()[0].isdigit()]
    return {
        (x, int(row[0]) - 1): cell for row in rows for x, cell in enumerate(row[1:]) if cell != "."
    }


def turned(points: dict[tuple[int, int], str], way: int) -> dict[tuple[int, int], str]:
    """``points`` under one of the eight symmetries of the square board."""
    n = SIDE - 1

    def move(x: int, y: int) -> tuple[int, int]:
        if way & 4:
            x, y = y, x
        return (n - x if way & 1 else x, n - y if way & 2 else y)

    return {move(x, y): cell for (x, y), cell in points.items()}


def line_of(points: list[tuple[int, int]]) -> tuple[int, int]:
    """The step of the line through ``points`` (two or more in a row), made unique by sign."""
    (x0, y0), (x1, y1) = sorted(points)[:2]
    return (x1 - x0, y1 - y0)


def board_of(points: dict[tuple[int, int], str], stone: int) -> tuple[Board, int]:
    board = Board(SIDE)
    for (x, y), cell in points.items():
        if cell != "*":
            board.place(board.index_of(x, y), stone)
    [move] = [xy for xy, cell in points.items() if cell == "*"]
    return board, board.index_of(*move)


FREESTYLE_JUDGE = Judge(ColorRules(overline_wins=True), ColorRules(overline_wins=True))


def test_an_exact_five_wins_before_an_overline_whatever_the_line_order() -> None:
    orders = set()
    for diagram in FIVE_AND_OVERLINE:
        for way in range(8):
            points = turned(drawn_points(diagram), way)
            five = sorted(xy for xy, cell in points.items() if cell in "F*")
            over = [xy for xy, cell in points.items() if cell in "O*"]
            orders.add((line_of(over), line_of(five)))
            for judge, stone in (
                (Judge(), WHITE),
                (FREESTYLE_JUDGE, WHITE),
                (FREESTYLE_JUDGE, BLACK),
            ):
                board, p = board_of(points, stone)
                row = judge.five_at(board, p, stone)
                assert row is not None
                assert sorted((board.point(i).x, board.point(i).y) for i in row) == five
                assert judge.verdict(board, p, stone).five == row
    assert len(orders) == 12  # every ordered pair of two of the four lines


def test_the_report_says_five_and_names_the_five() -> None:
    for diagram in FIVE_AND_OVERLINE:
        for way in range(8):
            points = turned(drawn_points(diagram), way)
            for rules, color in (
                ("renju", Color.WHITE),
                ("freestyle", Color.WHITE),
                ("freestyle", Color.BLACK),
            ):
                report = replay(one_move_record(points, color), load(rules))
                assert (report.result.winner, report.result.reason) == (color.value, "five")
                assert report.first_five is not None
                five = [Point(x, y).name for (x, y), cell in points.items() if cell in "F*"]
                assert sorted(report.first_five.stones) == sorted(five)


def test_an_overline_alone_is_an_overline() -> None:
    for diagram in FIVE_AND_OVERLINE:
        points = {xy: cell for xy, cell in drawn_points(diagram).items() if cell != "F"}
        for rules in ("renju", "freestyle"):
            report = replay(one_move_record(points, Color.WHITE), load(rules))
            assert (report.result.winner, report.result.reason) == ("white", "overline")
            assert report.first_five is not None and len(report.first_five.stones) == 6


def one_move_record(points: dict[tuple[int, int], str], color: Color) -> Record:
    """Setup stones of ``color`` on the drawn stones, and ``color``'s move at ``*``."""
    [move] = [Point(*xy) for xy, cell in points.items() if cell == "*"]
    record = Record([Move(move)], SourceLocation("<drawn>"), width=SIDE, height=SIDE)
    record.setup = [(Point(*xy), color) for xy, cell in points.items() if cell != "*"]
    record.to_move = color
    return record
