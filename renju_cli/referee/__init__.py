"""The referee: replay a record under a ruleset and report what happened.

``replay`` gives a record's report; ``position`` gives the board after move N, from the same
walk.  The walk itself is ``walk.Replay`` (the two-board variant: ``twoboard``); the lines of a
variation tree are walked as a tree, each from where it leaves the line before (``tree``); the
words of findings are in ``words``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from renju_cli.board import BLACK, Board
from renju_cli.coords import Point
from renju_cli.judge import Judgements
from renju_cli.opening import OpeningCheck, check_opening
from renju_cli.record import Color, Record
from renju_cli.referee.tree import replay_line
from renju_cli.referee.twoboard import TwoBoardReplay
from renju_cli.referee.walk import (
    COLOR_NAME,
    Replay,
    finish,
    list_within,
    listing_cap,
    new_report,
    problems_not_made,
)
from renju_cli.report import FirstFive, GameReport, Result, elide_findings
from renju_cli.ruleset import Ruleset

__all__ = ["COLOR_NAME", "Position", "Replay", "new_report", "position", "replay"]


def replay(record: Record, ruleset: Ruleset, within: Judgements | None = None) -> GameReport:
    """Replay ``record`` under ``ruleset`` and return its report (never raises on bad records).

    ``within``: the run's bounds (the batch gives them): the double-three judgements the record
    may make (a move the bound leaves undecided is taken as not a double-three, with an
    ``unchecked`` warning; the judge's memo starts afresh, so that what a record spends depends
    on it alone), the opening walk's steps and the findings its report may list.
    """
    if (
        record.branch is not None
        and record.moves
        and not record.unreadable
        and _variant(ruleset) is None
    ):
        report = replay_line(record, ruleset, within)
    else:
        report = replay_uncached(record, ruleset, within)
    if within is not None and within.listed is not None and report.findings:
        list_within(report, within.listed)
    return report


def replay_uncached(
    record: Record, ruleset: Ruleset, within: Judgements | None = None
) -> GameReport:
    """``replay`` from the start, even for a line of a variation tree (the tests compare the
    two); without charging the findings it lists to ``within``."""
    report = new_report(record, ruleset)
    if record.unreadable:
        report.findings = elide_findings(report.findings, problems_not_made(record))
        return report
    walk, check = _walker(record, ruleset, report, within)
    walk.cap = listing_cap(within)
    walk.run()
    finish(report, check, walk)
    return report


def _variant(ruleset: Ruleset) -> object:
    return ruleset.data.get("variant")


def _walker(
    record: Record, ruleset: Ruleset, report: GameReport, bound: Judgements | None
) -> tuple[Replay, OpeningCheck]:
    """The replay of ``record`` under ``ruleset`` (not run yet), and its opening check."""
    if _variant(ruleset) == "two-board":
        return TwoBoardReplay(record, ruleset, report, None, bound), OpeningCheck(None, [])
    # the opening first: it says which colour each opening stone is, which stones a
    # rejection or a moved stone took off, and whose forbidden moves bind which colour
    check = check_opening(record, ruleset, bound)
    return Replay(record, ruleset, report, check.course, bound), check


@dataclass(frozen=True)
class Position:
    """The board after the first ``played`` moves of a record, as the referee's walk left it.

    ``numbers``: the move number of each stone a move placed (setup stones have none; a stone
    moved by the opening keeps its number).  ``result``: how the game ended, if it ended at or
    before move ``played`` (``result.decided``); ``first_five``: the report's first five, if
    made by then.  ``second_board``: board b of the two-board variant (``board`` is board a).
    """

    board: Board
    to_move: Color
    played: int
    numbers: Mapping[Point, int]
    result: Result
    first_five: FirstFive | None = None
    second_board: Board | None = None

    @property
    def ended(self) -> bool:
        """Whether the game ended at or before move ``played``."""
        return self.result.decided

    @property
    def after_end(self) -> tuple[int, ...]:
        """The numbers of the moves walked after the end of the game (none if it goes on)."""
        end = self.result.move
        if not self.result.decided or end is None:
            return ()
        return tuple(range(end + 1, self.played + 1))


def position(
    record: Record, ruleset: Ruleset, at: int | None = None, within: Judgements | None = None
) -> Position:
    """The position after move ``at`` of ``record`` (``None``: after its last move), walked as
    ``replay`` walks it: setup stones, the opening's course (a rejected opening clears the
    board, a moved stone moves, the protocol may say a stone's colour), and the moves that can
    be placed (passes, moves off the board or on a taken point are walked, not placed).

    Before move 1 the side to move is what the record says (SGF ``PL``), else black when the
    setup holds as many black stones as white, else the side with fewer.  ``within``: the
    run's bounds, as ``replay`` takes them.  Never raises for a bad record.
    """
    walk = _walker(record, ruleset, new_report(record, ruleset), within)[0]
    walk.cap = 0  # (no findings are needed: none is worded)
    walk.numbers = {}
    walk.run(stop=at)
    board = walk.board
    name = board.point
    result = walk.result
    ff = walk.report.first_five
    return Position(
        board,
        Color.BLACK if walk.to_move == BLACK else Color.WHITE,
        walk.played,
        {name(i): n for i, n in walk.numbers.items()},
        Result(result.winner, result.reason, result.move, result.point),
        None if ff is None else FirstFive(ff.move, ff.color, ff.point, list(ff.stones)),
        walk.second_board,
    )
