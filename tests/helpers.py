"""Shared test helpers: board diagrams with a marked point, and judging it two ways."""

from __future__ import annotations

from renju_cli.board import BLACK, WHITE, Board, parse_diagram
from renju_cli.judge import Judge
from renju_cli.reference import Position

MARK = "*"


def position(diagram: str) -> tuple[Board, int]:
    """A board from a diagram in which ``*`` marks the (empty) point to judge."""
    rows = [
        line
        for line in diagram.splitlines()
        if MARK in line or "X" in line or "O" in line or "." in line
    ]
    mark = None
    for r, line in enumerate(rows):
        cells = [ch for ch in line if ch in "XO.*"]
        if MARK in cells:
            mark = (cells.index(MARK), len(rows) - 1 - r)
    assert mark is not None, "the diagram marks no point with *"
    board = parse_diagram(diagram.replace(MARK, "."))
    return board, board.index_of(*mark)


def black_kinds(diagram: str, five_eye_counts: bool = False) -> list[str]:
    """The forbidden kinds of black at ``*``, checked against the reference judge."""
    board, p = position(diagram)
    judge = Judge(five_eye_counts=five_eye_counts)
    fast = list(judge.forbidden_kinds(board, p, BLACK))
    ref = reference_position(board, five_eye_counts)
    pt = board.point(p)
    assert ref.forbidden(pt.x, pt.y) == fast, "the judge and the reference judge disagree"
    return fast


def reference_position(board: Board, five_eye_counts: bool = False) -> Position:
    stones = {}
    for i in board.points():
        if board.cells[i] in (BLACK, WHITE):
            pt = board.point(i)
            stones[(pt.x, pt.y)] = "B" if board.cells[i] == BLACK else "W"
    return Position(board.width, stones, five_eye_counts=five_eye_counts)
