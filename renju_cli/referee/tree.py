"""The lines of a variation tree, walked as a tree: one board, taken back up to each new line.

A tree reader (SGF, RenLib) walks its tree depth first and gives each root-to-leaf line as a
record of its own, in that order; each names its tree and the moves it shares with the line
before (``record.Branch``).  The referee walks the tree along them: the replay of a line keeps
its state before each move (``walk.Checkpoint``), the next line takes it back to where it leaves
(``rewind``) and walks on from there.  So a shared prefix is judged once, and a tree costs about
one replayed move per node (replaying each line from the start would cost a hostile comb of a
tree its size squared).  The report of each line is the one a fresh replay gives.

The walk is kept on the tree (``GameTree.kept``), one per ruleset; a line judged out of the
tree's order (alone, or in another process) is replayed from the start.
"""

from __future__ import annotations

from typing import NamedTuple

from renju_cli.judge import Judgements
from renju_cli.limits import MAX_FINDINGS
from renju_cli.opening import Course, check_opening, has_board_events
from renju_cli.record import Branch, OpeningEvent, Record
from renju_cli.referee.walk import (
    Checkpoint,
    Replay,
    finish,
    listing_cap,
    new_report,
    problem_finding,
)
from renju_cli.report import FirstFive, ForbiddenMove, GameReport, Result
from renju_cli.ruleset import Ruleset


class TreeWalk(NamedTuple):
    """The walk of a tree under ``ruleset``, as line ``line`` left it (kept on the tree)."""

    ruleset: Ruleset
    line: int
    walk: Replay


def replay_line(record: Record, ruleset: Ruleset, bound: Judgements | None) -> GameReport:
    """The report of a line of a variation tree (``record.branch``), walked on from where it
    leaves the line before when that line was the last one walked under ``ruleset``."""
    branch = record.branch
    assert branch is not None
    check = check_opening(record, ruleset, bound)
    kept_on, key = branch.tree.kept, ("referee", id(ruleset))
    # taken out while it walks: another thread judging the same tree starts a walk of its own
    kept = kept_on.pop(key, None)
    if not isinstance(kept, TreeWalk) or kept.ruleset is not ruleset:
        kept = None
    shared = _resumable(kept, record, branch, check.course)
    resume: Checkpoint | None = None
    if kept is None or shared is None:
        walk = Replay(record, ruleset, new_report(record, ruleset), check.course, bound)
        walk.checkpoints = []
    else:
        walk = kept.walk
        resume = rewind(walk, shared)
        if record.problems != walk.record.problems:  # (as many: ``_resumable``)
            findings = walk.report.findings
            for i, problem in enumerate(record.problems[:MAX_FINDINGS]):
                findings[i] = problem_finding(problem)
        walk.record = record
        walk.bound = bound
    # (past the run's bound on findings listed, a line drops what it cannot list; one resumed
    # from a line that dropped more lists no more than that line did)
    walk.cap = listing_cap(bound)
    walk.run(resume=resume)
    report = report_copy(walk, record)
    finish(report, check, walk)
    kept_on[key] = TreeWalk(ruleset, branch.line, walk)
    return report


def _resumable(
    kept: TreeWalk | None, record: Record, branch: Branch, course: Course | None
) -> int | None:
    """The moves from which the kept walk of ``record``'s tree goes on to ``record``: where the
    line leaves the line before, when the walk is at that line and the two begin alike but for
    their moves; ``None`` when it must start over."""
    if kept is None or kept.line != branch.line - 1:
        return None
    walk = kept.walk
    assert walk.checkpoints is not None
    # (a line cut at the bound on moves shares no more than it holds)
    shared = min(branch.shared, len(record.moves), len(walk.checkpoints) - 1)
    guided = course.until if course is not None else 0
    # from the first move on; from the start too when there are setup stones (placing them
    # costs more than taking the last line's moves back)
    if shared < max(guided, 0 if record.setup else 1) or course != walk.course:
        return None
    return shared if _alike_but_for_moves(record, walk.record) else None


def _alike_but_for_moves(record: Record, old: Record) -> bool:
    """Whether a walk of ``old`` serves ``record`` up to their shared moves: the same setup,
    side to move and board events, and as many problems (they are the first findings,
    rewritten in place)."""
    return (
        record.setup == old.setup
        and record.to_move == old.to_move
        and len(record.problems) == len(old.problems)
        and _alike_for_the_board(record.opening_events, old.opening_events)
    )


def rewind(walk: Replay, k: int) -> Checkpoint:
    """Take ``walk`` back to its state before move ``k + 1``; that state, for ``run`` to go
    on from."""
    assert walk.checkpoints is not None
    c = walk.checkpoints[k]
    del walk.checkpoints[k:]  # the walk puts it back before move k + 1
    board, placed, own, cells = walk.board, walk.placed, walk.own, walk.board.cells
    for index in reversed(placed[c.placed :]):
        own[cells[index]] -= 1
        board.remove(index)
    del placed[c.placed :]
    report = walk.report
    del report.findings[c.findings :]
    del report.forbidden_moves[c.forbidden :]
    if walk.dropped_tally is not None:
        walk.dropped_tally.subtract(walk.dropped[c.dropped :])
    del walk.dropped[c.dropped :]
    if not c.five:
        report.first_five = None
    r = walk.result
    r.winner, r.reason, r.move, r.point = c.result
    walk.end_move, walk.after_end_reported, walk.after_end_at = c.end
    walk.undecided_at, undecided = c.unchecked
    del walk.undecided[undecided:]
    walk.reset_first_at()
    return c


def report_copy(walk: Replay, record: Record) -> GameReport:
    """The report of ``record`` from ``walk``'s state: fresh objects, so that the caller may
    change it and the walk may go on.  (Findings are shared: nothing changes one once made.)"""
    judged = walk.report
    r, ff = judged.result, judged.first_five
    return GameReport(
        record.source,
        walk.rules.name,
        len(record.moves),
        record.format,
        None,
        Result(r.winner, r.reason, r.move, r.point),
        record.declared_result,
        None if ff is None else FirstFive(ff.move, ff.color, ff.point, list(ff.stones)),
        [ForbiddenMove(f.move, f.point, list(f.kinds)) for f in judged.forbidden_moves],
        list(judged.findings),
        dict(record.metadata),
        list(record.notes),
        record.unreadable,
    )


def _alike_for_the_board(a: list[OpeningEvent], b: list[OpeningEvent]) -> bool:
    """Whether a replay of a record with the opening events ``b`` serves one with ``a``: the
    same events, or neither with a rejection or a moved stone (the only events a replay reads
    besides its course, which is compared apart)."""
    return not (has_board_events(a) or has_board_events(b)) or a == b
