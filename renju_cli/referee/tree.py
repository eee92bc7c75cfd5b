"""The lines of a variation tree, each replayed by resuming the replay of the line before.

A tree reader (SGF, RenLib) gives each root-to-leaf line as a record of its own, in tree order,
and the lines share their first moves (the same move objects).  Replaying each line from the
start would cost the tree's size squared (a hostile comb of a tree: every line as long as the
tree is deep); instead the replay of the last line keeps its state before each move
(``walk.Checkpoint``), goes back to where the next line leaves it, and walks on from there, so a
tree costs about one replayed move per node.  The report is the one a fresh replay gives.
"""

from __future__ import annotations

import threading

from renju_cli.judge import Judgements
from renju_cli.limits import MAX_FINDINGS
from renju_cli.memo import remember
from renju_cli.opening import Course, check_opening, has_board_events
from renju_cli.record import Move, OpeningEvent, Record
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

#: Rulesets whose last line a thread keeps at once (``renju diff`` judges under a few).
RULESETS_KEPT = 16

_LAST = threading.local()  # (a threaded scheduler may replay two trees under one ruleset)


def replay_line(record: Record, ruleset: Ruleset, bound: Judgements | None) -> GameReport:
    """The report of a line of a variation tree, resumed from the line replayed before it
    under ``ruleset`` in this thread where the two share their first moves."""
    check = check_opening(record, ruleset, bound)
    walk = last_walk(ruleset)
    shared = shared_prefix(walk, record, check.course) if walk is not None else None
    resume: Checkpoint | None = None
    if walk is None or shared is None:
        walk = Replay(record, ruleset, new_report(record, ruleset), check.course, bound)
        walk.checkpoints = []
        if not hasattr(_LAST, "walks"):
            forget()
        remember(_LAST.walks, id(ruleset), (ruleset, walk), RULESETS_KEPT)
    else:
        resume = rewind(walk, shared)
        if record.problems != walk.record.problems:  # (as many: ``shared_prefix``)
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
    return report


def last_walk(ruleset: Ruleset) -> Replay | None:
    """The replay of the last line this thread replayed under ``ruleset``, kept to resume."""
    last = getattr(_LAST, "walks", {}).get(id(ruleset))
    return last[1] if last is not None and last[0] is ruleset else None


def forget() -> None:
    """Keep no line of this thread to resume."""
    _LAST.walks = {}


def shared_prefix(walk: Replay, record: Record, course: Course | None) -> int | None:
    """How many first moves ``record`` shares with the line ``walk`` walked, when ``walk``
    can resume from there; ``None`` when it must start over."""
    old, checkpoints, rules = walk.record, walk.checkpoints, walk.rules
    if (
        checkpoints is None
        or (record.width or rules.width, record.height or record.width or rules.height)
        != (walk.board.width, walk.board.height)
        or record.setup != old.setup
        or record.to_move != old.to_move
        # (as many problems: they are the first findings, rewritten in place)
        or len(record.problems) != len(old.problems)
        or not _alike_for_the_board(record.opening_events, old.opening_events)
        or course != walk.course
    ):
        return None
    k = _common_prefix(old.moves, record.moves, len(checkpoints) - 1)
    guided = course.until if course is not None else 0
    # from the first move on; from the start too when there are setup stones (placing them
    # costs more than taking the last line's moves back)
    return k if k >= max(guided, 0 if record.setup else 1) else None


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


def _common_prefix(a: list[Move], b: list[Move], limit: int) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (at most ``limit``): a
    binary search over slices, compared in C (lines of thousands of moves)."""
    n = min(len(a), len(b), limit)
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo]; a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo
