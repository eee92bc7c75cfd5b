"""The words of the referee's findings (made only for findings that are listed)."""

from __future__ import annotations

from renju_cli.board import Board
from renju_cli.coords import Point
from renju_cli.judge import DOUBLE_FOUR, DOUBLE_THREE, OVERLINE, Judge, JudgementBound, Verdict
from renju_cli.limits import Judgements
from renju_cli.record import Color, Record
from renju_cli.report import Result
from renju_cli.ruleset import Ruleset

COLORS = {1: "black", 2: "white"}


def board_size(width: int, height: int, ruleset: Ruleset) -> str:
    return (
        f"the record is on a {width}x{height} board; ruleset {ruleset.name} says "
        f"{ruleset.width}x{ruleset.height} (the record's size is used)"
    )


def wrong_color(number: int, color: Color, to_move: str) -> str:
    return f"move {number} is {color.value} but {to_move} is to move"


def after_end(move: int, point: str | None, end: int | None, result: Result, record: Record) -> str:
    return (
        f"move {move} ({point or 'pass'}) comes after the game ended at move {end} "
        f"({result.winner} {result.reason}); {len(record.moves) - move + 1} move(s) follow "
        "the end"
    )


def result_mismatch(declared: str, result: Result) -> str:
    return (
        f"the record declares {_declared(declared)} but the board shows "
        f"{_declared(result.winner)} by {result.reason} at move {result.move}"
        + (f" ({result.point})" if result.point else "")
    )


def _declared(winner: str | None) -> str:
    return "a draw" if winner == "draw" else f"a {winner} win"


def unclaimed(foul_move: int, point: Point, kinds: tuple[str, ...], number: int) -> str:
    if OVERLINE in kinds:
        tail = "; an overline may still be claimed later"
    else:
        tail = "; it can no longer be claimed"
    return (
        f"the foul at move {foul_move} ({point.name}: {', '.join(kinds)}) was not claimed: "
        f"play went on with move {number}{tail}"
    )


def undecided(number: int, point: Point, color: str, bound: Judgements) -> str:
    return (
        f"move {number} ({point.name}): whether {color}'s threes there make a double-three "
        "is not judged: the records checked before it made the "
        f"{bound.limit} double-three judgements (points whose threes are judged, in the "
        f"recursion or not) that a run may make{bound.terms}; the move is taken as not a "
        "double-three"
    )


def foul(
    judge: Judge,
    board: Board,
    index: int,
    stone: int,
    kinds: tuple[str, ...],
    bound: Judgements | None,
    after_end: bool,
    rules: Ruleset,
) -> str:
    """``black h8 makes a double-three (f8-g8-h8, h8-h9-h10); a forbidden move loses``: the
    stones of each kind, judged on ``board`` as it is before the move."""
    try:
        detail = describe(board, judge.verdict(board, index, stone, kinds, bound), kinds)
    except JudgementBound:  # (within the run's bound, as the judgement was)
        detail = describe(board, None, kinds) + (
            " (its threes are not named: naming them takes more double-three judgements "
            "than the run's bound leaves)"
        )
    if rules.policy == "lose":
        tail = "; a forbidden move loses"
    elif rules.policy == "reject":
        tail = f"; the move is not allowed under {rules.name}"
    else:
        tail = "; a foul if claimed at once"
    after = " (after the end of the game)" if after_end else ""
    return f"{COLORS[stone]} {board.name(index)} makes {detail}{after}{tail}"


def describe(board: Board, verdict: Verdict | None, kinds: tuple[str, ...]) -> str:
    """``a double-three (i8-j9-k10, j7-j9-j10)`` and the like (without the stones when there
    is no ``verdict``)."""
    parts = []
    for kind in kinds:
        if verdict is None:
            groups: list[tuple[int, ...]] = []
        elif kind == DOUBLE_THREE:
            groups = verdict.threes
        elif kind == DOUBLE_FOUR:
            groups = verdict.fours
        else:
            groups = [verdict.overline] if verdict.overline else []
        text = ", ".join("-".join(board.name(i) for i in g) for g in groups)
        article = "an" if kind == OVERLINE else "a"
        parts.append(f"{article} {kind}" + (f" ({text})" if text else ""))
    return " and ".join(parts)
