"""Positions: the board after move N, walked by the referee as its report is made."""

from __future__ import annotations

import pytest

from renju_cli.coords import parse_point
from renju_cli.formats.notation import parse_record
from renju_cli.record import Color, Move, Record, SourceLocation
from renju_cli.referee import Position, position, replay
from renju_cli.ruleset import load

RENJU = load("renju")


def small(moves: str, size: int = 9) -> Record:
    """A move list on a ``size`` x ``size`` board."""
    record = parse_record(moves)
    record.width = record.height = size
    return record


def setup(stones: str, size: int = 9) -> Record:
    """A record of setup stones only: ``X:a1 O:b2 ...``."""
    record = Record([], SourceLocation("<test>"), width=size, height=size)
    for token in stones.split():
        color, point = token.split(":")
        record.setup.append((parse_point(point), Color.BLACK if color == "X" else Color.WHITE))
    return record


def drawn(pos: Position) -> str:
    return pos.board.diagram(labels=False)


def rows(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines())


def test_the_board_numbers_and_side_to_move_after_move_n() -> None:
    record = small("e5 e6 f5 pass a1 a1 z9 d4")
    pos = position(record, RENJU, 5)
    assert drawn(pos) == rows(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . . X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X . . . . . . . .
        """
    )
    assert pos.played == 5 and pos.to_move is Color.WHITE  # (move 4 was white's pass)
    assert {p.name: n for p, n in pos.numbers.items()} == {"e5": 1, "e6": 2, "f5": 3, "a1": 5}
    # the rest: a taken point and an off-board move are walked, not placed
    end = position(record, RENJU)
    assert end.played == 8 and end.to_move is Color.BLACK
    assert {p.name: n for p, n in end.numbers.items()}["d4"] == 8
    assert len(end.numbers) == 5


@pytest.mark.parametrize(
    ("stones", "to_move"),
    [
        ("", Color.BLACK),
        ("X:e5 O:e6", Color.BLACK),  # equal counts: black to move
        ("X:e5 X:e6 X:e7 X:e8", Color.WHITE),  # the side with fewer stones
        ("X:e5 O:e6 O:e7", Color.BLACK),
    ],
)
def test_who_moves_after_setup_stones(stones: str, to_move: Color) -> None:
    pos = position(setup(stones), RENJU)
    assert pos.to_move is to_move and pos.played == 0 and not pos.numbers
    assert pos.board.stones == len(stones.split())


def test_the_record_says_who_moves_first() -> None:
    record = setup("X:e5 O:e6")
    record.to_move = Color.WHITE
    assert position(record, RENJU).to_move is Color.WHITE
    record.moves.append(Move(parse_point("a1")))
    pos = position(record, RENJU)
    assert pos.to_move is Color.BLACK and pos.board[parse_point("a1")] == 2  # (white)


def test_the_end_of_the_game_as_far_as_the_walk_went() -> None:
    # black's five in column e at move 9; two moves follow the end
    record = small("e1 a1 e2 a3 e3 a5 e4 a7 e5 a9 i9")
    before = position(record, RENJU, 8)
    assert not before.ended and before.first_five is None and before.after_end == ()
    at_five = position(record, RENJU, 9)
    assert at_five.ended and at_five.after_end == ()
    assert (at_five.result.winner, at_five.result.reason, at_five.result.move) == (
        "black",
        "five",
        9,
    )
    assert at_five.first_five is not None
    assert at_five.first_five.stones == ["e1", "e2", "e3", "e4", "e5"]
    end = position(record, RENJU)
    assert end.after_end == (10, 11) and end.played == 11
    assert drawn(end) == rows(
        """
        O . . . . . . . X
        . . . . . . . . .
        O . . . . . . . .
        . . . . . . . . .
        O . . . X . . . .
        . . . . X . . . .
        O . . . X . . . .
        . . . . X . . . .
        O . . . X . . . .
        """
    )
    # the same walk as the report's
    report = replay(record, RENJU)
    assert report.result == end.result and report.first_five == end.first_five


def test_a_forbidden_move_ends_the_game_where_the_report_says() -> None:
    # black's double-three at g7 (move 9: g7-h7-i7 and g7-g8-g9) loses under renju
    record = parse_record("h7 a1 i7 a3 g8 a5 g9 a7 g7 a9")
    report = replay(record, RENJU)
    assert (report.result.reason, report.result.move) == ("forbidden", 9)
    pos = position(record, RENJU)
    assert pos.result == report.result and pos.after_end == (10,)
    assert position(record, RENJU, 8).result.winner is None


def test_a_claimed_foul_ends_the_game_only_at_the_end_of_the_record() -> None:
    rif = load("renju-rif")
    record = parse_record("h7 a1 i7 a3 g8 a5 g9 a7 g7")
    report = replay(record, rif)
    assert (report.result.winner, report.result.reason) == ("white", "forbidden")
    assert position(record, rif).result == report.result
    assert not position(record, rif, 8).ended


def test_the_opening_course_moves_and_clears_stones() -> None:
    nokhrin = load("nokhrin")
    # stone 3 (i10) moved to i9 after move 5: it keeps its number
    moved = position(parse_record("h8 h9 i10 g7 j10 i10-i9 white k7"), nokhrin)
    assert {p.name: n for p, n in moved.numbers.items()} == {
        "h8": 1,
        "h9": 2,
        "i9": 3,
        "g7": 4,
        "j10": 5,
        "k7": 6,
    }
    # a rejected opening takes every stone off: only the moves after it are on the board
    taimla = load("taimla")
    cleared = position(parse_record("h8 h9 i10 a2 b2 reject h8 g8"), taimla)
    assert {p.name: n for p, n in cleared.numbers.items()} == {"h8": 6, "g8": 7}
    assert cleared.board.stones == 2
    assert cleared.board[parse_point("h8")] == 1  # (black again after the rejection)


def test_a_recorded_colour_wins_over_the_course_as_in_the_report() -> None:
    taimla = load("taimla")
    record = parse_record("h8 h9 i10 a2 b2 reject h8 g8")
    record.moves[5].color = Color.WHITE  # black's by the course, after the rejection
    report = replay(record, taimla)
    assert [(f.code, f.move) for f in report.findings] == [("wrong-color", 6)]
    pos = position(record, taimla)
    # move 7 is white's by the course again
    assert pos.board[parse_point("h8")] == 2 and pos.board[parse_point("g8")] == 2


def test_the_two_board_variant_keeps_its_boards_apart() -> None:
    record = parse_record("A:e5 A:e6 B:e6 pass A:a1")
    rules = load("two-board-gomoku")
    pos = position(record, rules)
    assert pos.second_board is not None
    assert pos.board.stones == 3 and pos.second_board.stones == 1
    assert {p.name: n for p, n in pos.numbers.items()} == {"e5": 1, "e6": 2, "a1": 5}
    assert position(record, rules, 1).board.stones == 1
