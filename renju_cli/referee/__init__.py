"""The referee: replay a record under a ruleset and report what happened.

The referee reads every move to the end of the record, even past the end of the game, so that
every problem is reported; the *result* is fixed by the first event that ends the game (a five, a
forbidden move under ``lose``, passes, a full board, the move limit).
"""

from __future__ import annotations

import copy
import dataclasses
import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from renju_cli.board import BLACK, EMPTY, STONE, WHITE, Board
from renju_cli.coords import Point
from renju_cli.judge import (
    DOUBLE_FOUR,
    DOUBLE_THREE,
    FIVES,
    OVERLINE,
    Judge,
    JudgementBound,
    Judgements,
    Listings,
    Verdict,
    row_through,
)
from renju_cli.limits import UNDECIDED_NAMED
from renju_cli.memo import remember
from renju_cli.opening import (
    DECLARED_KEPT,
    Course,
    OpeningCheck,
    check_opening,
    has_board_events,
    small_events,
)
from renju_cli.record import MAIN_LINE, Color, Move, OpeningEvent, ParseProblem, Record
from renju_cli.report import (
    CODES,
    ERROR,
    MAX_FINDINGS,
    TOO_MANY,
    WARNING,
    Finding,
    FirstFive,
    ForbiddenMove,
    GameReport,
    Result,
    elide_findings,
)
from renju_cli.ruleset import Ruleset

COLOR_NAME = {BLACK: "black", WHITE: "white"}
#: A cell of ``Board.cells`` (as bytes) that holds a stone.
_STONE_CELL = re.compile(b"[%c%c]" % (BLACK, WHITE))


#: The double-three judgements the record being judged may still make, set by ``replay``
#: (``None``: no bound).
_BOUND: Judgements | None = None
#: the last setup placed on a fresh board (its stones, the board after them, who moves
#: first), and how many stones make a setup worth keeping so
_LAST_SETUP: tuple[list[tuple[Point, Color]], Board, int] | None = None
_SETUP_WORTH_KEEPING = 16


def replay(record: Record, ruleset: Ruleset, within: Judgements | None = None) -> GameReport:
    """Replay ``record`` under ``ruleset`` and return its report (never raises on bad records).

    ``within``: the double-three judgements it may make (the batch gives its run's bound,
    ``Judge.bounded_kinds``): a move the bound leaves undecided is taken as not a
    double-three, with an ``unchecked`` warning; the replay starts the judge's memo afresh, so
    that what it spends depends on the record alone.

    A short record is replayed once per distinct content and ruleset (``_Memo``): a file of a
    million one-move records must not cost a million replays.
    """
    if within is None:
        return _replay(record, ruleset)
    global _BOUND
    before, _BOUND = _BOUND, within
    try:
        report = _replay(record, ruleset)
    finally:
        _BOUND = before
    if within.listed is not None and report.findings:
        _list_within(report, within.listed)
    return report


def _list_within(report: GameReport, listed: Listings) -> None:
    """Charge the findings ``report`` lists to the run's bound on them; past it, list only
    what is left of it, the rest counted in the ``too-many-findings`` finding, which says why
    (``_Replay`` made no more than that already, when it could know: ``_listing_cap``)."""
    findings = report.findings
    n = len(findings) - (findings[-1].code == TOO_MANY)
    if n > listed.left and not report.unreadable:  # (why it is unreadable: always listed)
        report.findings = elide_findings(findings, None, max(listed.left, 0), _unlisted(listed))
        n = len(report.findings) - 1
    listed.left -= n


def _unlisted(listed: Listings) -> str:
    """Why a record lists fewer findings than it has: the run's bound on findings listed.  The
    same words for every record (the terms of a bound that grows, not its size so far): past
    the bound, each record of a hostile file makes one such finding, and records that count
    the same findings share it (``report._elided``)."""
    if listed.gain:
        return f"the run's reports may list no more findings{listed.terms}"
    return f"the run's reports may list {listed.limit} finding(s){listed.terms}"


def _listing_cap() -> int:
    """How many findings the record being replayed may list (``_list_within`` charges them);
    fewer than ``MAX_FINDINGS`` counts as a cut (its report is never remembered)."""
    listed = _BOUND.listed if _BOUND is not None else None
    if listed is None or listed.left >= MAX_FINDINGS:
        return MAX_FINDINGS
    listed.cuts += 1
    return max(listed.left, 0)


def _replay(record: Record, ruleset: Ruleset) -> GameReport:
    memo = _Memo.of(ruleset)
    variation = record.source.variation
    tree_line = variation is not None and memo.enabled and not record.unreadable
    if tree_line and variation != MAIN_LINE and record.moves:
        # a later line of a variation tree: it shares its first moves with the line before
        # (the same nodes), so resuming that line's replay costs its new moves; it is seldom
        # like an earlier line in the memo's sense (its moves lie at their nodes' places).  A
        # line without moves has nothing to resume: the memo takes it, as a tree's first line.
        return memo.replay_line(record)
    if memo.resting > 0 and memo.takes(record):
        # (a record the memo would key, a tree's first line among them: the bare games of an
        # SGF collection are lines of trees of one line)
        memo.resting -= 1
        return replay_uncached(record, ruleset)
    key = memo.key(record)
    if key is None:  # too long for the memo, or not plain
        if tree_line and variation != MAIN_LINE:
            return memo.replay_line(record)
        # A tree's first line is replayed as any record, not resumably: most trees are one
        # line (the games of a collection), and keeping a checkpoint before each move cost a
        # tenth of their check.  A tree's second line starts its resumable replay anew (its
        # first moves are replayed twice, once per tree), and the lines after it resume.
        return replay_uncached(record, ruleset)
    seen = memo.reports.get(key, _UNSEEN)
    bound = _BOUND
    if isinstance(seen, _Template):
        # (charged the judgements its replay made, as a replay would spend them: past
        # the bound, replayed, to leave undecided what the bound leaves undecided)
        if bound is None or bound.left >= seen.deep:
            if bound is not None:
                bound.left -= seen.deep
            memo.unseen = 0
            return seen.report_for(record, ruleset)
        return replay_uncached(record, ruleset)
    # a template is kept from the second time a content is seen: a batch of short records
    # that are all different must not pay for a copy of each report it will never reuse (nor
    # for counting what its replay spent)
    judge = None if seen is _UNSEEN else _judge_of(ruleset)
    spent = judge.judgements if judge is not None else 0
    cuts = bound.all_cuts() if bound is not None else 0
    report = replay_uncached(record, ruleset)
    if bound is not None and bound.all_cuts() != cuts:
        return report  # (never remembered: what a bound left undecided, unwalked or unlisted)
    memo.put(
        key,
        None if judge is None else _Template(report, record, ruleset, judge.judgements - spent),
    )
    if seen is _UNSEEN:
        memo.unseen += 1
        if memo.unseen >= MEMO_SIZE:
            # a memo full of contents seen once: the records are all different (a flood of
            # distinct games), and the keys cost more than they save; rest a while
            memo.unseen, memo.resting = 0, MEMO_SIZE
    else:
        memo.unseen = 0
    return report


def _new_report(record: Record, ruleset: Ruleset) -> GameReport:
    """The report before the replay: what the record says, and its parse problems."""
    # positional: the field order of GameReport is a contract (see there); a batch of tiny
    # records builds one report per record
    report = GameReport(
        record.source,
        ruleset.name,
        len(record.moves),
        record.format,
        None,
        Result(),
        record.declared_result,
        None,
        [],
        [],
        dict(record.metadata),
        list(record.notes),
        record.unreadable,
    )
    # the first ``MAX_FINDINGS`` only: they sort first, so the rest would never be listed (a
    # tree's problems repeat in each of its lines); ``_Replay`` counts the rest as dropped
    for problem in record.problems[:MAX_FINDINGS]:
        report.findings.append(_problem_finding(problem))
    return report


def _problem_finding(problem: ParseProblem) -> Finding:
    return Finding(
        "parse-error", problem.message, problem.severity, line=problem.line, offset=problem.offset
    )


def _problems_not_made(record: Record) -> Counter[tuple[str, str]] | None:
    unmade = len(record.problems) - MAX_FINDINGS
    return Counter({("parse-error", ERROR): unmade}) if unmade > 0 else None


def _finish(report: GameReport, check: OpeningCheck, walk: _Replay) -> None:
    """Add what the opening check found; findings by move; at most ``MAX_FINDINGS``."""
    report.opening = check.opening
    report.findings.extend(check.findings)
    # by move number, stable; findings without a move first
    report.findings.sort(key=lambda f: -1 if f.move is None else f.move)
    dropped = walk.dropped_counts()
    if check.dropped:  # findings of the opening that were never made (past the cap)
        dropped = check.dropped + dropped if dropped else check.dropped
    why = ""
    if walk.cap < MAX_FINDINGS:  # (past the run's bound on findings listed: ``_listing_cap``)
        assert _BOUND is not None and _BOUND.listed is not None
        why = _unlisted(_BOUND.listed)
    report.findings = elide_findings(report.findings, dropped, walk.cap, why)


def replay_uncached(record: Record, ruleset: Ruleset) -> GameReport:
    """``replay`` without the memo of short records or the resumed lines of a variation tree
    (the tests compare them)."""
    report = _new_report(record, ruleset)
    if record.unreadable:
        report.findings = elide_findings(report.findings, _problems_not_made(record))
        return report
    walk, check = _walker(record, ruleset, report)
    walk.cap = _listing_cap()
    walk.run()
    _finish(report, check, walk)
    return report


def _walker(record: Record, ruleset: Ruleset, report: GameReport) -> tuple[_Replay, OpeningCheck]:
    """The replay of ``record`` under ``ruleset`` (not run yet), and its opening check."""
    if ruleset.data.get("variant") == "two-board":
        from renju_cli.twoboard import TwoBoardReplay  # a variant of its own: see twoboard.py

        return TwoBoardReplay(record, ruleset, report), OpeningCheck(None, [])
    # the opening first: it says which colour each opening stone is, which stones a
    # rejection or a moved stone took off, and whose forbidden moves bind which colour
    check = check_opening(record, ruleset, _BOUND)
    return _Replay(record, ruleset, report, check.course), check


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
    global _BOUND
    before, _BOUND = _BOUND, within
    try:
        walk = _walker(record, ruleset, _new_report(record, ruleset))[0]
        walk.cap = 0  # (no findings are needed: none is worded)
        walk.numbers = {}
        walk.run(stop=at)
    finally:
        _BOUND = before
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


# -- the memo of short records -------------------------------------------------------------------
#: Records of at most this many moves are looked up in the memo: their key is cheap to build, and
#: they are the ones whose replay costs more than its moves (a batch of tiny records).
MEMO_MOVES = 8
#: Distinct short records remembered per ruleset; the memo starts over when full.
MEMO_SIZE = 4096
#: Rulesets with a memo at once (``renju diff`` judges under a few): memory stays bounded.
MEMO_RULESETS = 16


def _report_like(
    record: Record,
    ruleset: Ruleset,
    judged: GameReport,
    line_shift: int = 0,
    offset_shift: int = 0,
) -> GameReport:
    """The report of ``record`` with fresh copies of what the replay of ``judged`` found
    (result, first five, forbidden moves, findings with their lines and offsets shifted,
    opening): a report handed out is the caller's to change, and the memo or the resumable
    replay keeps its own.  (Findings not shifted are shared: nothing changes a finding once
    made, as the opening check's memo shares them too.)"""
    r, ff = judged.result, judged.first_five
    return GameReport(
        record.source,
        ruleset.name,
        len(record.moves),
        record.format,
        _fresh_opening(judged.opening),
        Result(r.winner, r.reason, r.move, r.point),
        record.declared_result,
        None if ff is None else FirstFive(ff.move, ff.color, ff.point, list(ff.stones)),
        # (most short records have neither: an empty comprehension still costs a call)
        [ForbiddenMove(f.move, f.point, list(f.kinds)) for f in judged.forbidden_moves]
        if judged.forbidden_moves
        else [],
        _findings_at(judged.findings, line_shift, offset_shift),
        dict(record.metadata),
        list(record.notes),
        record.unreadable,
    )


def _findings_at(findings: list[Finding], line_shift: int, offset_shift: int) -> list[Finding]:
    """A list of its own of ``findings``, their lines and offsets shifted: those that do not
    move are shared (a line of a variation tree, whose findings stay where they are, repeats
    its root's problems in every line)."""
    if not line_shift and not offset_shift:
        return list(findings)
    return [
        _shifted(f, line_shift, offset_shift) if f.line is not None or f.offset is not None else f
        for f in findings
    ]


def _shifted(finding: Finding, line_shift: int, offset_shift: int) -> Finding:
    """``finding`` at its line and offset shifted; a parse error that names its own line
    first (``_unlined``) names the line it is shifted to."""
    line, offset = finding.line, finding.offset
    moved = finding.at(
        None if line is None else line + line_shift,
        None if offset is None else offset + offset_shift,
    )
    if line is None or finding.code != "parse-error" or not line_shift:
        return moved
    unlined = _unlined(finding.message, line)
    if isinstance(unlined, tuple):
        moved.message = f"line {line + line_shift}{unlined[0]}"
    return moved


def _unlined(message: str, line: int | None) -> str | tuple[str]:
    """A parse problem's ``message`` without the "line N" it starts with, when N is its own
    ``line`` (which the memo's key holds relative to the record's start): identical records
    on other lines share one report, as a file of one damaged line repeated 40,000 times does
    (each was replayed: 1.6 s, 2.8 times the undamaged file).  The message itself otherwise."""
    if line is not None and message.startswith("line "):
        prefix = f"line {line}"
        if message.startswith(prefix) and not message[len(prefix) : len(prefix) + 1].isdigit():
            return (message[len(prefix) :],)
    return message


_SCALARS = (str, int, bool, type(None))


def _fresh_opening(opening: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of an opening summary: a flat dict (an opening's name) costs a ``dict``, a
    protocol's summary (lists of offers...) a deep copy."""
    if opening is None:
        return None
    if all(type(v) in _SCALARS for v in opening.values()):
        return dict(opening)
    return copy.deepcopy(opening)


class _Template:
    """A report of a short record, to give any record with the same key a report of its own.

    Findings of a record the memo takes can only hold the lines and offsets of its moves and
    parse problems (it has no opening events; setup stones have none), and the key holds those
    relative to the record's start, so shifting them by the start is exact.
    """

    __slots__ = ("deep", "line", "offset", "report")

    def __init__(self, report: GameReport, record: Record, ruleset: Ruleset, deep: int = 0) -> None:
        self.line = record.source.line or 0
        self.offset = record.source.offset or 0
        self.report = _report_like(record, ruleset, report)  # its own: ``report`` is handed out
        #: the double-three judgements its replay made (charged on each use under a bound)
        self.deep = deep

    def report_for(self, record: Record, ruleset: Ruleset) -> GameReport:
        """The report of ``record``, whose key is this template's: fresh objects throughout."""
        return _report_like(
            record,
            ruleset,
            self.report,
            (record.source.line or 0) - self.line,
            (record.source.offset or 0) - self.offset,
        )


class _Memo:
    """Reports of short records by content, for one ruleset."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        #: templates by key; ``None``: the key was seen once
        self.reports: dict[tuple[object, ...], _Template | None] = {}
        # a variant with a replay of its own reads more of the record than the key holds
        self.enabled = ruleset.data.get("variant") is None
        # contents seen for the first time in a row; records replayed without the memo
        self.unseen = 0
        self.resting = 0
        # per thread: a threaded scheduler (Dask workers, a library user's thread pool) may
        # replay two trees under one ruleset at once
        self._local = threading.local()

    @property
    def walker(self) -> _Replay | None:
        """This thread's replay of the last line of a variation tree (``replay_line``)."""
        walker: _Replay | None = getattr(self._local, "walker", None)
        return walker

    @walker.setter
    def walker(self, walker: _Replay | None) -> None:
        self._local.walker = walker

    @classmethod
    def of(cls, ruleset: Ruleset) -> _Memo:
        memo = _MEMOS.get(id(ruleset))
        if memo is None or memo.ruleset is not ruleset:
            memo = remember(_MEMOS, id(ruleset), _Memo(ruleset), MEMO_RULESETS)
        return memo

    def takes(self, record: Record) -> bool:
        """Whether ``record`` is short and plain: one the memo keys (its opening events too,
        when they are few and small: a file may repeat a line of a swap or a declared offer
        count thousands of times, and such a record's check costs more than one without)."""
        return (
            len(record.moves) <= MEMO_MOVES
            and len(record.setup) <= MEMO_MOVES
            and len(record.problems) <= MEMO_MOVES
            and (not record.opening_events or small_events(record.opening_events))
            # (the key holds the id: a long one would be kept, for the run, 65,536 times)
            and len(record.opening_id or "") <= DECLARED_KEPT
            # (its report depends on what this process judged before: never shared)
            and record.protocol_not_followed is None
            and self.enabled
        )

    def key(self, record: Record) -> tuple[object, ...] | None:
        """Everything of ``record`` its replay reads, or ``None`` when it is not short and plain."""
        if not self.takes(record):
            return None
        moves, problems, setup = record.moves, record.problems, record.setup
        line = record.source.line or 0
        offset = record.source.offset or 0
        declared = record.declared_result
        return (
            record.width,
            record.height,
            record.to_move,
            record.opening_id,
            declared.winner if declared is not None else None,
            tuple(setup),
            tuple(
                (
                    e.kind,
                    e.after,
                    e.value,
                    tuple(e.points),
                    None if e.line is None else e.line - line,
                )
                for e in record.opening_events
            )
            if record.opening_events
            else (),
            tuple(
                (
                    _unlined(p.message, p.line),
                    p.fatal,
                    None if p.line is None else p.line - line,
                    None if p.offset is None else p.offset - offset,
                )
                for p in problems
            )
            if problems
            else (),
            *[
                (
                    m.point,
                    m.color,
                    m.token,
                    None if m.line is None else m.line - line,
                    None if m.offset is None else m.offset - offset,
                )
                for m in moves
            ],
        )

    def replay_line(self, record: Record) -> GameReport:
        """Replay a line of a variation tree, resuming the replay of the line before from the
        last move the two share: a tree's lines come one after the other in tree order, so a
        library costs about one replayed move per node instead of one per move of every line
        (a hostile comb of a tree would otherwise cost its size squared)."""
        check = check_opening(record, self.ruleset, _BOUND)
        walker = self.walker
        shared = walker.shared_prefix(record, check.course) if walker is not None else None
        resume: _Checkpoint | None = None
        if walker is None or shared is None:
            walker = _Replay(
                record,
                self.ruleset,
                _new_report(record, self.ruleset),
                check.course,
                resumable=True,
            )
            self.walker = walker
        else:
            resume = walker.rewind(shared)
            if record.problems != walker.record.problems:  # (as many: ``shared_prefix``)
                findings = walker.report.findings
                for i, problem in enumerate(record.problems[:MAX_FINDINGS]):
                    findings[i] = _problem_finding(problem)
            walker.record = record
        # (past the run's bound on findings listed, a line drops what it cannot list; one
        # resumed from a line that dropped more lists no more than that line did)
        walker.cap = _listing_cap()
        walker.run(resume=resume)
        report = walker.report_copy(record)
        _finish(report, check, walker)
        return report

    def put(self, key: tuple[object, ...], template: _Template | None) -> None:
        """Remember ``key``'s template, or (``None``) that it was seen once."""
        remember(self.reports, key, template, MEMO_SIZE)


_MEMOS: dict[int, _Memo] = {}
_UNSEEN = object()


def _alike_for_the_board(a: list[OpeningEvent], b: list[OpeningEvent]) -> bool:
    """Whether a replay of a record with the opening events ``b`` serves one with ``a``: the
    same events, or neither with a rejection or a moved stone (the only events a replay reads
    besides its course, which is compared apart: the lines of a tree whose leaves each say
    their own swap were replayed whole, each)."""
    # (in this order: the lines of a tree whose leaves say their own events hold none that
    # change the board, and comparing the events themselves costs more)
    return not (has_board_events(a) or has_board_events(b)) or a == b


def _common_prefix(a: list[Move], b: list[Move], limit: int) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (at most ``limit``).  Equal
    moves replay alike; list comparison runs in C and takes shared objects at once, so this is
    a binary search over slices rather than a Python loop over thousands of moves."""
    n = min(len(a), len(b), limit)
    if n <= 16:
        # (a short line: a loop costs less than slices; a tree's lines share move objects)
        for i in range(n):
            x, y = a[i], b[i]
            # (moves at other points differ: told without the dataclass's field-by-field
            # comparison, which the sibling lines of a tree paid at each of their first moves)
            if x is not y and (x.point != y.point or x != y):
                return i
        return n
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


class _Checkpoint(NamedTuple):
    """A resumable replay's state before a move: lengths of what only grows, and the rest."""

    findings: int
    forbidden: int
    dropped: int
    placed: int
    five: bool
    result: tuple[str | None, str | None, int | None, str | None]
    end: tuple[int | None, bool, int | None]
    unchecked: tuple[int | None, int]
    walk: tuple[int, int, tuple[int, Point, tuple[str, ...], int] | None]


class _Replay:
    """The state of one replay; ``run`` walks the moves."""

    def __init__(
        self,
        record: Record,
        ruleset: Ruleset,
        report: GameReport,
        course: Course | None = None,
        *,
        resumable: bool = False,
    ) -> None:
        self.record = record
        self.rules = ruleset
        self.report = report
        self.course = course
        width = record.width or ruleset.width
        height = record.height or record.width or ruleset.height
        if (width, height) != (ruleset.width, ruleset.height):
            report.findings.append(
                Finding(
                    "board-size",
                    f"the record is on a {width}x{height} board; ruleset {ruleset.name} "
                    f"says {ruleset.width}x{ruleset.height} (the record's size is used)",
                )
            )
        self.board = Board(width, height)
        self.judge = _judge_of(ruleset)
        self.result = report.result
        self.end_move: int | None = None
        self.after_end_reported = False
        #: findings past ``MAX_FINDINGS``, never made: counted by (code, severity), and listed
        #: in order so that a resumed replay can take the last ones back
        self.dropped_tally = _problems_not_made(record)
        self.dropped: list[tuple[str, str]] = (
            list(self.dropped_tally.elements()) if self.dropped_tally else []
        )
        #: findings it lists at most: ``MAX_FINDINGS``, fewer past the run's bound on them
        #: (``_listing_cap``; the report is cut to that anyway, and those past it cost nothing
        #: to drop here)
        self.cap = MAX_FINDINGS
        #: the first move at each point, for messages, filled as far as they ask
        self._first_at: dict[Point, int] = {}
        self._scanned = 0
        self.after_end_at: int | None = None  # index of the move-after-end finding
        #: the moves the bound on double-three judgements left undecided (number, point), and
        #: the index of the one ``unchecked`` finding that lists them all
        self.undecided: list[tuple[int, Point]] = []
        self.undecided_at: int | None = None
        #: that finding's own words, before the later moves are named (a resumed replay names
        #: its own later moves, not those of the line it resumed from)
        self.undecided_said = ""
        #: a resumable replay (``_Memo.replay_line``) keeps, before each move, what it needs to
        #: come back there: ``_Checkpoint`` values, and the stones it placed in order
        self.checkpoints: list[_Checkpoint] | None = [] if resumable else None
        self.placed: list[int] = []
        #: stones of each colour on the board, at least (``run``)
        self.own = [0, 0, 0]
        #: the move number of each stone placed by a move, by board index, when asked
        #: (``position``: ``None`` otherwise, and kept by no replay of a report)
        self.numbers: dict[int, int] | None = None
        #: after ``run``: the moves walked, and the colour to play the next one
        self.played = 0
        self.to_move = BLACK
        #: the two-board variant's second board
        self.second_board: Board | None = None

    def dropped_counts(self) -> Counter[tuple[str, str]] | None:
        if self.checkpoints is None:  # (no rewinds: counted once, at the end)
            return Counter(self.dropped) if self.dropped else None
        if self.dropped_tally is None:
            return None
        return +self.dropped_tally  # without the codes a rewind took back to zero

    # -- resuming (lines of a variation tree) ---------------------------------------------------
    def shared_prefix(self, record: Record, course: Course | None) -> int | None:
        """How many first moves ``record`` shares with the line this replay walked (the same
        move objects: a tree reader hands every line its nodes' moves), when this replay can
        resume from there; ``None`` when it must start over."""
        old = self.record
        checkpoints = self.checkpoints
        if (
            checkpoints is None
            or (
                record.width or self.rules.width,
                record.height or record.width or self.rules.height,
            )
            != (self.board.width, self.board.height)
            or record.setup != old.setup
            or record.to_move != old.to_move
            # (as many problems: they are the first findings, rewritten in place by
            # ``replay_line``; a comb of bad leaves says one of its own in each line)
            or len(record.problems) != len(old.problems)
            or not _alike_for_the_board(record.opening_events, old.opening_events)
            or course != self.course
        ):
            return None
        k = _common_prefix(old.moves, record.moves, len(checkpoints) - 1)
        guided = course.until if course is not None else 0
        # from the first move on; from the start too when there are setup stones (placing
        # them costs more than taking the last line's moves back: 676 stones from 9 bytes of
        # SGF ``AB[aa:zz]``, in game after game)
        return k if k >= max(guided, 0 if record.setup else 1) else None

    def rewind(self, k: int) -> _Checkpoint:
        """Back to the state before move ``k + 1`` (after ``k`` moves); that state, for
        ``run(resume=...)`` to go on from."""
        assert self.checkpoints is not None
        c = self.checkpoints[k]
        del self.checkpoints[k:]  # the walk puts it back before move k + 1
        board, placed, own, cells = self.board, self.placed, self.own, self.board.cells
        for index in reversed(placed[c.placed :]):
            own[cells[index]] -= 1
            board.remove(index)
        del placed[c.placed :]
        report = self.report
        del report.findings[c.findings :]
        del report.forbidden_moves[c.forbidden :]
        if self.dropped_tally is not None:
            self.dropped_tally.subtract(self.dropped[c.dropped :])
        del self.dropped[c.dropped :]
        if not c.five:
            report.first_five = None
        r = self.result
        r.winner, r.reason, r.move, r.point = c.result
        self.end_move, self.after_end_reported, self.after_end_at = c.end
        self.undecided_at, undecided = c.unchecked
        del self.undecided[undecided:]
        self._first_at, self._scanned = {}, 0
        return c

    def _checkpoint(
        self, to_move: int, passes: int, pending: tuple[int, Point, tuple[str, ...], int] | None
    ) -> _Checkpoint:
        """The state before the next move (``to_move``... are the walk's own locals)."""
        report, result = self.report, self.result
        # (``tuple.__new__``: the named tuple's own ``__new__`` is a Python call, once a move)
        return tuple.__new__(
            _Checkpoint,
            (
                len(report.findings),
                len(report.forbidden_moves),
                len(self.dropped),
                len(self.placed),
                report.first_five is not None,
                (result.winner, result.reason, result.move, result.point),
                (self.end_move, self.after_end_reported, self.after_end_at),
                (self.undecided_at, len(self.undecided)),
                (to_move, passes, pending),
            ),
        )

    def report_copy(self, record: Record) -> GameReport:
        """The report of ``record`` from this (resumable) replay's state: fresh objects, so
        that the caller may change it and the replay may go on."""
        return _report_like(record, self.rules, self.report)

    def add(
        self,
        code: str,
        message: str | Callable[[], str],
        move: Move | None,
        number: int | None,
        point: Point | None = None,
        severity: str = "",
    ) -> None:
        if len(self.report.findings) >= self.cap:
            entry = (code, severity or CODES.get(code, ERROR))
            self.dropped.append(entry)
            if self.checkpoints is not None:  # (a resumable replay counts as it goes)
                if self.dropped_tally is None:
                    self.dropped_tally = Counter()
                self.dropped_tally[entry] += 1
            return
        if not isinstance(message, str):
            message = message()
        self.report.findings.append(
            Finding(
                code,
                message,
                severity=severity,
                move=number,
                point=point.name if point is not None else None,
                line=move.line if move is not None else None,
                offset=move.offset if move is not None else None,
            )
        )

    def end(self, winner: str, reason: str, number: int, point: Point | None) -> None:
        if self.result.decided:
            return
        self.result.winner = winner
        self.result.reason = reason
        self.result.move = number
        self.result.point = point.name if point is not None else None
        self.end_move = number

    def run(self, resume: _Checkpoint | None = None, stop: int | None = None) -> None:
        """Walk the moves (after ``rewind``: on from the checkpoint it returned), then close;
        with ``stop``, walk the first ``stop`` moves only (the end of the record is then not
        reached unless it has no more)."""
        # The loop runs for every move of every record: names are bound to locals, points are
        # turned into array indices inline, and one window lookup (``Judge.shape``) per move
        # tells whether the move may be forbidden and whether it makes a five.
        board, rules, judge, result = self.board, self.rules, self.judge, self.result
        report = self.report
        cells, width, height = board.cells, board.width, board.height
        index_of_point = board.geometry.index_of_point
        shape, place, hot, quiet = judge.shape, board.place, judge.hot, judge.quiet
        full_draw, area = rules.board_full_draw, width * height
        move_limit = rules.move_limit
        moves = self.record.moves
        last = len(moves) if stop is None else max(0, min(stop, len(moves)))
        checkpoints, placed, numbers = self.checkpoints, self.placed, self.numbers
        pending_claim: tuple[int, Point, tuple[str, ...], int] | None
        if resume is None:
            to_move = self._place_setup()
            if self.record.to_move is not None:  # the file says who plays move 1 (SGF PL)
                to_move = STONE[self.record.to_move]
            passes = 0
            pending_claim = None
            start = 0
            # the stones of each colour on the board (``Judge.quiet``: a colour with fewer than
            # its ``quiet`` plays without a look at its lines); a board event only takes stones
            # off, so that counting on past one never counts too few
            if board.stones:  # (setup stones)
                self.own = [0, cells.count(BLACK), cells.count(WHITE)]
        else:
            assert checkpoints is not None
            to_move, passes, pending_claim = resume.walk
            start = len(checkpoints)  # the moves before the checkpoint
        own = self.own  # (a rewind took back the stones it took off)
        guided = self.course.until if self.course is not None else 0
        bound = _BOUND
        if bound is not None:
            judge.forget()  # (what the record spends of the bound depends on it alone)
        walked = moves if not start and last == len(moves) else moves[start:last]
        for number, move in enumerate(walked, start + 1):
            if checkpoints is not None:
                checkpoints.append(self._checkpoint(to_move, passes, pending_claim))
            point = move.point
            if number <= guided:  # the opening's course: board events, colours, seat rules
                to_move = self._follow_course(number, to_move)
                judge = self.judge
                shape, hot, quiet = judge.shape, judge.hot, judge.quiet
            if result.winner is not None and not self.after_end_reported:
                self._after_end(number, move)
            stone = to_move
            to_move = BLACK + WHITE - stone
            if move.color is not None and STONE[move.color] != stone:
                self.add(
                    "wrong-color",
                    partial(self._wrong_color, number, move, stone),  # made only if listed
                    move,
                    number,
                    point,
                )
                stone = STONE[move.color]
                to_move = BLACK + WHITE - stone
            if pending_claim is not None:
                self._unclaimed(pending_claim, number, move)
                pending_claim = None

            if point is None:  # a pass
                if not rules.passes_allowed:
                    self.add(
                        "illegal-pass",
                        f"move {number}: ruleset {rules.name} allows no passes",
                        move,
                        number,
                    )
                elif number < rules.pass_not_before:
                    self.add(
                        "illegal-pass",
                        f"move {number}: no pass before move "
                        f"{rules.pass_not_before} under {rules.name}",
                        move,
                        number,
                    )
                passes += 1
                limit = rules.consecutive_passes_draw
                if limit is not None and passes >= limit:
                    self.end("draw", "passes", number, None)
                self._limits(number, point)
                continue
            passes = 0

            index = index_of_point.get(point)
            if index is None:
                self.add(
                    "off-board",
                    f"move {number} ({_name(point)}) is off the {width}x{height} board",
                    move,
                    number,
                    point,
                )
                continue
            if cells[index] != EMPTY:
                self.add(
                    "occupied",
                    partial(self._occupied, number, point),  # made only if listed
                    move,
                    number,
                    point,
                )
                continue

            if own[stone] < quiet[stone]:
                code = 0  # (too few stones of its colour for a five or a forbidden shape)
            elif hot[stone] or report.first_five is None or not result.decided:
                code = shape(board, index, stone)
            else:  # (a colour without forbidden moves, once a five changes nothing more)
                code = 0
            if code & hot[stone] and not code & FIVES:
                kinds, undecided = judge.bounded_kinds(board, index, stone, bound)
                if undecided:
                    assert bound is not None  # (only a bound leaves one undecided)
                    self._undecided(number, move, point, stone, bound)
                if kinds:
                    pending_claim = self._foul(number, move, point, index, stone, kinds)
            place(index, stone)
            own[stone] += 1
            placed.append(index)
            if numbers is not None:
                numbers[index] = number
            # (after the end, once the first five is known, a five changes nothing)
            if code & FIVES and (report.first_five is None or not result.decided):
                five = self._five(index, stone)
                if five is not None:
                    self._record_five(number, point, stone, five)
            if (full_draw and board.stones >= area) or (
                move_limit is not None and number >= move_limit
            ):
                self._limits(number, point)
        if checkpoints is not None:  # the state after the last move, to resume from there too
            checkpoints.append(self._checkpoint(to_move, passes, pending_claim))
        self.played, self.to_move = last, to_move
        if last < len(moves):
            return  # (stopped before the end: what the end decides is not decided)
        # What only the end of the record decides (a resumed replay rewinds it all)
        if pending_claim is not None and not result.decided and rules.policy == "claim":
            # The record ends on the foul: the opponent's claim is the natural reading.
            n, p, _, stone = pending_claim
            self.end(COLOR_NAME[BLACK + WHITE - stone], "forbidden", n, p)
        self._count_after_end()
        self._list_undecided()
        self._check_declared()

    # -- pieces of the replay -------------------------------------------------------------------
    def _after_end(self, number: int, move: Move) -> None:
        """Report the first move played after the end of the game (once)."""
        self.after_end_reported = True
        if len(self.report.findings) < self.cap:
            self.after_end_at = len(self.report.findings)
        self.add("move-after-end", "", move, number, move.point)  # the words: at the end

    def _count_after_end(self) -> None:
        """Word the move-after-end finding, which counts the moves to the end of the record."""
        at = self.after_end_at
        if at is None:
            return
        findings = self.report.findings
        f = findings[at]
        assert f.move is not None
        result = self.result
        findings[at] = dataclasses.replace(
            f,
            message=f"move {f.move} ({f.point or 'pass'}) comes after the game ended at move "
            f"{self.end_move} ({result.winner} {result.reason}); "
            f"{len(self.record.moves) - f.move + 1} move(s) follow the end",
        )

    def _follow_course(self, number: int, to_move: int) -> int:
        """Before move ``number``: apply the board events recorded before it, switch to the
        rules in force from it, and return the colour it is (the opening may say)."""
        course = self.course
        assert course is not None
        for event in course.board_events.get(number - 1, ()):
            self._board_event(event)
        for start, ruleset in course.rules:
            if start == number:
                self.judge = _judge_of(ruleset)
        return course.colors.get(number, to_move)

    def _board_event(self, event: OpeningEvent) -> None:
        """A rejected opening (every stone off) or a moved stone, on the conditions of
        ``opening.move_stones`` (which the opening check applies to its own map of stones:
        keep the two in step), applied to the cells without gathering the board's stones."""
        # the board's stones are not gathered for one event: a record may hold thousands
        board = self.board
        if not board.stones:
            return  # nothing to take off or move
        cells = board.cells
        if event.kind == "reject":
            # the stones found by a scan in C (a record may reject after every move)
            for m in _STONE_CELL.finditer(bytes(cells)):
                board.remove(m.start())
            if self.numbers is not None:
                self.numbers.clear()
            return
        # one stone moves, on the conditions of ``move_stones``
        at = board.geometry.index_of_point
        source, target = event.points if len(event.points) == 2 else (None, None)
        s = at.get(source) if event.kind == "relocate" and source is not None else None
        t = at.get(target) if target is not None else None
        if s is None or t is None or cells[s] not in (BLACK, WHITE) or cells[t] != EMPTY:
            return  # an impossible move of a stone: the opening check reports it
        stone = cells[s]
        board.remove(s)
        board.place(t, stone)
        if self.numbers is not None and s in self.numbers:
            self.numbers[t] = self.numbers.pop(s)

    def _place_setup(self) -> int:
        """Place the setup stones; the colour to move first: black, unless the setup has more
        black stones than white (counted as written, off-board and repeated ones too)."""
        setup = self.record.setup
        if not setup:
            return BLACK
        # (a setup may cover the board, 676 stones from a 9-byte SGF AB[aa:zz]: checked in a
        # loop bound to locals, placed in one call)
        cells, index_of_point = self.board.cells, self.board.geometry.index_of_point
        board = self.board
        black = Color.BLACK  # (a member read off its class is a Python call of Enum's: once)
        if not board.stones:
            global _LAST_SETUP
            last = _LAST_SETUP
            # the setup of the record before, as readers share it (the same stones, in a
            # list compared in C): its board copied, not placed again (5,000 records of 208
            # setup stones each spent a quarter of their check placing them)
            if last is not None and last[1].geometry is board.geometry and last[0] == setup:
                board.restore(last[1])
                return last[2]
            # the usual case, on the fresh board: every stone on it and none twice, said by
            # loops in C; the loop below then only finds who moves first
            indices = [index_of_point.get(point) for point, _ in setup]
            if None not in indices and len(set(indices)) == len(indices):
                colors = [BLACK if color is black else WHITE for _, color in setup]
                board.place_all(zip(indices, colors, strict=True))  # type: ignore[arg-type]
                blacks = colors.count(BLACK)
                first = BLACK if blacks <= len(setup) - blacks else WHITE
                if len(setup) >= _SETUP_WORTH_KEEPING:
                    _LAST_SETUP = (list(setup), board.copy(), first)
                return first
        stones: list[tuple[int, int]] = []
        taken: set[int] = set()
        blacks = 0
        for point, color in setup:
            stone = BLACK if color is black else WHITE
            blacks += stone == BLACK
            index = index_of_point.get(point)
            if index is None:
                self.add(
                    "off-board", f"setup stone {point.name} is off the board", None, None, point
                )
            elif cells[index] != EMPTY or index in taken:
                self.add("occupied", f"setup stone {point.name} is placed twice", None, None, point)
            else:
                taken.add(index)
                stones.append((index, stone))
        self.board.place_all(stones)
        return BLACK if blacks <= len(setup) - blacks else WHITE

    @staticmethod
    def _wrong_color(number: int, move: Move, stone: int) -> str:
        assert move.color is not None
        return f"move {number} is {move.color.value} but {COLOR_NAME[stone]} is to move"

    def _occupied(self, number: int, point: Point) -> str:
        return f"move {number} ({point.name}) is on a point already taken" + self._placed_at(
            point, number
        )

    def _placed_at(self, point: Point, before: int) -> str:
        for e in self.record.opening_events:
            if e.kind == "relocate" and e.points[-1:] == [point] and e.after < before:
                return f" by the stone moved there after move {e.after}"
        # the moves before ``before`` are scanned once in all, not once per occupied move (a
        # hostile record may hold thousands): replays ask in move order
        first_at, moves = self._first_at, self.record.moves
        while self._scanned < before - 1:
            p = moves[self._scanned].point
            self._scanned += 1
            if p is not None:
                first_at.setdefault(p, self._scanned)
        n = first_at.get(point)
        return " by a setup stone" if n is None or n >= before else f" by move {n}"

    def _five(self, index: int, stone: int) -> tuple[int, ...] | None:
        row = self.judge.five_at(self.board, index, stone)
        if row is not None and self.rules.blocked_five and self._blocked(row):
            # caro: a row blocked at both ends by the opponent does not win; look for another
            for d in self.board.directions:
                other = row_through(self.board, index, d, stone)
                if (
                    other != row
                    and len(other) >= self.rules.five_length
                    and not self._blocked(other)
                ):
                    return other
            return None
        return row

    def _blocked(self, row: tuple[int, ...]) -> bool:
        """Caro: both ends of the row are opponent stones (or the edge, if it blocks)."""
        if len(row) < 2:
            return False
        d = row[1] - row[0]
        cells = self.board.cells
        stone = cells[row[0]]
        ends = (cells[row[0] - d], cells[row[-1] + d])
        blocking = {BLACK + WHITE - stone}
        if self.rules.edge_blocks:
            blocking.add(3)
        return all(e in blocking for e in ends)

    def _record_five(self, number: int, point: Point, stone: int, row: tuple[int, ...]) -> None:
        color = COLOR_NAME[stone]
        stones = [self.board.name(i) for i in row]
        if self.report.first_five is None:
            self.report.first_five = FirstFive(number, color, point.name, stones)
        reason = "overline" if len(row) > self.rules.five_length else "five"
        self.end(color, reason, number, point)

    def _foul(
        self, number: int, move: Move, point: Point, index: int, stone: int, kinds: tuple[str, ...]
    ) -> tuple[int, Point, tuple[str, ...], int] | None:
        """Report a forbidden move; apply the ruleset's policy.  Returns a pending claim."""
        self.report.forbidden_moves.append(ForbiddenMove(number, point.name, list(kinds)))
        color = COLOR_NAME[stone]
        policy = self.rules.policy
        after = " (after the end of the game)" if self.result.decided else ""
        if policy == "lose":
            tail = "; a forbidden move loses"
        elif policy == "reject":
            tail = f"; the move is not allowed under {self.rules.name}"
        else:
            tail = "; a foul if claimed at once"

        def words() -> str:
            # made only if the finding is listed (a record past MAX_FINDINGS fouls, as a full
            # board played on after its end, would judge each one's stones for nothing); the
            # board is as before the move: ``add`` calls it at once
            board, judge, bound = self.board, self.judge, _BOUND
            key = (judge, board.hash, index, stone)
            # (not for threes under a bound: what naming them spends of it must not depend
            # on what was named before)
            remembered = bound is None or DOUBLE_THREE not in kinds
            detail = _DETAILS.get(key) if remembered else None
            if detail is None:
                try:
                    verdict = judge.verdict(board, index, stone, kinds, bound)
                except JudgementBound:  # (within the file's bound, as the judgement was)
                    detail = _describe(board, None, kinds) + (
                        " (its threes are not named: naming them takes more double-three "
                        "judgements than the run's bound leaves)"
                    )
                else:
                    detail = _describe(board, verdict, kinds)
                    if remembered:
                        remember(_DETAILS, key, detail, 4096)
            return f"{color} {point.name} makes {detail}{after}{tail}"

        claimed = policy not in ("lose", "reject")  # a foul only if the opponent claims it
        self.add("forbidden-move", words, move, number, point, WARNING if claimed else "")
        if policy == "lose":
            self.end(COLOR_NAME[BLACK + WHITE - stone], "forbidden", number, point)
        return (number, point, kinds, stone) if claimed else None

    def _undecided(
        self, number: int, move: Move, point: Point, stone: int, bound: Judgements
    ) -> None:
        """A move whose threes the bound on double-three judgements left unjudged: taken as
        not a double-three, with a warning that says so; one warning per record, at its first
        such move, lists the others (past the bound, every move of a record of black columns
        may be one: a warning each made a megabyte's report 57,000 warnings long)."""
        bound.cuts += 1  # (never remembered: ``Allowance.cuts``)
        self.undecided.append((number, point))
        if len(self.undecided) > 1:
            return
        at = len(self.report.findings)
        color = COLOR_NAME[stone]
        self.add(
            "unchecked",
            lambda: (
                f"move {number} ({point.name}): whether {color}'s threes there make a "
                "double-three is not judged: the records checked before it made the "
                f"{bound.limit} double-three judgements (points whose threes are judged, "
                f"in the recursion or not) that a run may make{bound.terms}; the move is "
                "taken as not a double-three"
            ),
            move,
            number,
            point,
            WARNING,
        )
        if at < len(self.report.findings):  # (listed, not past MAX_FINDINGS)
            self.undecided_at = at
            self.undecided_said = self.report.findings[at].message

    def _list_undecided(self) -> None:
        """Name, in the record's one ``unchecked`` warning of the bound on judgements, the
        later moves it left undecided too (from its own words: a resumed replay's warning may
        name the later moves of the line before)."""
        at, later = self.undecided_at, self.undecided[1:]
        if at is None:
            return
        findings = self.report.findings
        message = self.undecided_said
        if later:
            named = ", ".join(f"{n} ({p.name})" for n, p in later[:UNDECIDED_NAMED])
            more = len(later) - UNDECIDED_NAMED
            message += (
                f"; so are the {len(later)} later move(s) of the record the bound leaves "
                f"undecided: {named}" + (f" and {more} more" if more > 0 else "")
            )
        if findings[at].message != message:
            findings[at] = dataclasses.replace(findings[at], message=message)

    def _unclaimed(
        self, pending: tuple[int, Point, tuple[str, ...], int], number: int, move: Move
    ) -> None:
        foul_move, point, kinds, _ = pending
        if self.result.decided:
            return
        if OVERLINE in kinds:
            tail = "; an overline may still be claimed later"
        else:
            tail = "; it can no longer be claimed"
        self.add(
            "unclaimed-foul",
            f"the foul at move {foul_move} ({point.name}: "
            f"{', '.join(kinds)}) was not claimed: play went on with move {number}{tail}",
            move,
            foul_move,
            point,
        )

    def _limits(self, number: int, point: Point | None) -> None:
        if self.rules.board_full_draw and self.board.full:
            self.end("draw", "board-full", number, point)
        limit = self.rules.move_limit
        if limit is not None and number >= limit:
            self.end("draw", "move-limit", number, point)

    def _check_declared(self) -> None:
        declared = self.record.declared_result
        if declared is None or declared.winner is None:
            return
        r = self.result
        if not r.decided:
            return  # resignation, time, agreement: not visible on the board
        if declared.winner != r.winner:
            self.add(
                "result-mismatch",
                f"the record declares {_declared_words(declared.winner)} but the board shows "
                f"{_declared_words(r.winner)} by {r.reason} at move {r.move}"
                + (f" ({r.point})" if r.point else ""),
                None,
                r.move,
            )


_JUDGES: dict[int, tuple[Ruleset, Judge]] = {}
#: the stones of a foul, in words, by (judge, Zobrist hash of the board, point, colour): the
#: same position judged again (copies of one game in a file) is not analysed again
_DETAILS: dict[tuple[Judge, int, int, int], str] = {}


def _judge_of(ruleset: Ruleset) -> Judge:
    """``ruleset.judge()``, remembered by identity: a batch replays thousands of records under
    one ruleset, and building the judge's key costs more than a short replay's first moves."""
    hit = _JUDGES.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    return remember(_JUDGES, id(ruleset), (ruleset, ruleset.judge()), 64)[1]


def _declared_words(winner: str | None) -> str:
    if winner == "draw":
        return "a draw"
    return f"a {winner} win"


def _name(point: Point | None) -> str:
    return "pass" if point is None else point.name


def _describe(board: Board, verdict: Verdict | None, kinds: tuple[str, ...]) -> str:
    """``a double-three (i8-j9-k10, j7-j9-j10)`` and the like, for messages (without the
    stones when there is no ``verdict``)."""
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
