"""The walk of one record: setup stones, the opening's course, then every move in order.

``Replay`` holds what the walk has found so far (the board, the result, the report's findings)
and ``run`` walks the moves, even past the end of the game, so that every problem is reported;
the result is fixed by the first event that ends the game (a five, a forbidden move under
``lose``, passes, a full board, the move limit).  The two-board variant walks on its own
(``twoboard``), with the same findings and results.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

import renju_cli.referee.words as words
from renju_cli.board import BLACK, EMPTY, STONE, WHITE, Board
from renju_cli.coords import Point
from renju_cli.judge import FIVES, Judge, Judgements, Listings, row_through
from renju_cli.limits import MAX_FINDINGS, UNDECIDED_NAMED
from renju_cli.memo import remember
from renju_cli.opening import Course, OpeningCheck
from renju_cli.record import Color, Move, OpeningEvent, ParseProblem, Record
from renju_cli.report import (
    CODES,
    ERROR,
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

#: A claim the opponent may still make: (move number, point, forbidden kinds, colour).
Pending = tuple[int, Point, tuple[str, ...], int]


def new_report(record: Record, ruleset: Ruleset) -> GameReport:
    """The report before the replay: what the record says, and its parse problems."""
    # positional: the field order of GameReport is a contract (see there)
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
    # tree's problems repeat in each of its lines); the replay counts the rest as dropped
    for problem in record.problems[:MAX_FINDINGS]:
        report.findings.append(problem_finding(problem))
    return report


def problem_finding(problem: ParseProblem) -> Finding:
    """The ``parse-error`` finding of a reader's problem."""
    return Finding(
        "parse-error", problem.message, problem.severity, line=problem.line, offset=problem.offset
    )


def problems_not_made(record: Record) -> Counter[tuple[str, str]] | None:
    """The parse errors past ``MAX_FINDINGS``, never made into findings, by code and severity."""
    unmade = len(record.problems) - MAX_FINDINGS
    return Counter({("parse-error", ERROR): unmade}) if unmade > 0 else None


def listing_cap(bound: Judgements | None) -> int:
    """How many findings the record about to be replayed may list (``list_within`` charges
    them): ``MAX_FINDINGS``, fewer past the run's bound on findings listed."""
    listed = bound.listed if bound is not None else None
    if listed is None or listed.left >= MAX_FINDINGS:
        return MAX_FINDINGS
    listed.cuts += 1
    return max(listed.left, 0)


def list_within(report: GameReport, listed: Listings) -> None:
    """Charge the findings ``report`` lists to the run's bound on them; past it, list only
    what is left of it, the rest counted in the ``too-many-findings`` finding, which says why
    (the replay made no more than that already, when it could know: ``listing_cap``)."""
    findings = report.findings
    n = len(findings) - (findings[-1].code == TOO_MANY)
    if n > listed.left and not report.unreadable:  # (why it is unreadable: always listed)
        report.findings = elide_findings(findings, None, max(listed.left, 0), unlisted(listed))
        n = len(report.findings) - 1
    listed.left -= n


def unlisted(listed: Listings) -> str:
    """Why a record lists fewer findings than it has: the run's bound on findings listed.  The
    same words for every record (the terms of a bound that grows, not its size so far)."""
    if listed.gain:
        return f"the run's reports may list no more findings{listed.terms}"
    return f"the run's reports may list {listed.limit} finding(s){listed.terms}"


def finish(report: GameReport, check: OpeningCheck, walk: Replay) -> None:
    """Add what the opening check found; findings by move; at most ``walk.cap``."""
    report.opening = check.opening
    report.findings.extend(check.findings)
    # by move number, stable; findings without a move first
    report.findings.sort(key=lambda f: -1 if f.move is None else f.move)
    dropped = walk.dropped_counts()
    if check.dropped:  # findings of the opening that were never made (past the cap)
        dropped = check.dropped + dropped if dropped else check.dropped
    why = ""
    if walk.cap < MAX_FINDINGS:  # (past the run's bound on findings listed: ``listing_cap``)
        assert walk.bound is not None and walk.bound.listed is not None
        why = unlisted(walk.bound.listed)
    report.findings = elide_findings(report.findings, dropped, walk.cap, why)


class Checkpoint(NamedTuple):
    """A replay's state before a move, to come back to (``tree``): the lengths of what only
    grows, and the rest."""

    findings: int
    forbidden: int
    dropped: int
    placed: int
    five: bool
    result: tuple[str | None, str | None, int | None, str | None]
    end: tuple[int | None, bool, int | None]
    unchecked: tuple[int | None, int]
    walk: tuple[int, int, Pending | None]


class Replay:
    """The state of one replay; ``run`` walks the moves.

    ``bound``: the run's bounds (``None``: none): the double-three judgements the record may
    make, the opening walk's steps and the findings it may list.
    """

    def __init__(
        self,
        record: Record,
        ruleset: Ruleset,
        report: GameReport,
        course: Course | None = None,
        bound: Judgements | None = None,
    ) -> None:
        self.record = record
        self.rules = ruleset
        self.report = report
        self.course = course
        self.bound = bound
        width = record.width or ruleset.width
        height = record.height or record.width or ruleset.height
        if (width, height) != (ruleset.width, ruleset.height):
            report.findings.append(Finding("board-size", words.board_size(width, height, ruleset)))
        self.board = Board(width, height)
        self.judge = judge_of(ruleset)
        self.result = report.result
        self.end_move: int | None = None
        self.after_end_reported = False
        self.after_end_at: int | None = None  # index of the move-after-end finding
        #: findings past ``cap``, never made: by (code, severity), in order, so that a resumed
        #: replay can take the last ones back (``tree``)
        self.dropped_tally = problems_not_made(record)
        self.dropped: list[tuple[str, str]] = (
            list(self.dropped_tally.elements()) if self.dropped_tally else []
        )
        #: findings it lists at most: ``MAX_FINDINGS``, fewer past the run's bound on them
        self.cap = MAX_FINDINGS
        #: the first move at each point, for messages, filled as far as they ask
        self._first_at: dict[Point, int] = {}
        self._scanned = 0
        #: the moves the bound on double-three judgements left undecided (number, point), the
        #: index of the one ``unchecked`` finding that lists them all, and its own words
        self.undecided: list[tuple[int, Point]] = []
        self.undecided_at: int | None = None
        self.undecided_said = ""
        #: a resumable replay keeps its state before each move (``tree``)
        self.checkpoints: list[Checkpoint] | None = None
        #: the stones placed by moves, in order
        self.placed: list[int] = []
        #: stones of each colour on the board, at least (``Judge.quiet``)
        self.own = [0, 0, 0]
        #: the move number of each stone placed by a move, by board index, when asked
        self.numbers: dict[int, int] | None = None
        #: after ``run``: the moves walked, and the colour to play the next one
        self.played = 0
        self.to_move = BLACK
        #: the two-board variant's second board
        self.second_board: Board | None = None

    # -- findings and the end ---------------------------------------------------------------------
    def add(
        self,
        code: str,
        message: str | Callable[[], str],
        move: Move | None,
        number: int | None,
        point: Point | None = None,
        severity: str = "",
    ) -> None:
        """Report a finding (its words made only if it is listed: past ``cap`` it is counted)."""
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

    def dropped_counts(self) -> Counter[tuple[str, str]] | None:
        """The findings never made (past ``cap``), by code and severity."""
        if self.checkpoints is None:  # (no rewinds: counted once, at the end)
            return Counter(self.dropped) if self.dropped else None
        if self.dropped_tally is None:
            return None
        return +self.dropped_tally  # without the codes a rewind took back to zero

    def reset_first_at(self) -> None:
        """Forget where each point was first played (a rewind takes moves back)."""
        self._first_at, self._scanned = {}, 0

    def end(self, winner: str, reason: str, number: int, point: Point | None) -> None:
        """End the game, unless it has ended already."""
        if self.result.decided:
            return
        self.result.winner = winner
        self.result.reason = reason
        self.result.move = number
        self.result.point = point.name if point is not None else None
        self.end_move = number

    # -- the walk ---------------------------------------------------------------------------------
    def run(self, resume: Checkpoint | None = None, stop: int | None = None) -> None:
        """Walk the moves (after ``tree.rewind``: on from the checkpoint it returned), then
        close; with ``stop``, walk the first ``stop`` moves only (the end of the record is then
        not reached unless it has no more)."""
        moves = self.record.moves
        last = len(moves) if stop is None else max(0, min(stop, len(moves)))
        pending: Pending | None
        if resume is None:
            to_move, passes, pending, start = self._place_setup(), 0, None, 0
            if self.record.to_move is not None:  # the file says who plays move 1 (SGF PL)
                to_move = STONE[self.record.to_move]
        else:
            assert self.checkpoints is not None
            (to_move, passes, pending), start = resume.walk, len(self.checkpoints)
        if self.bound is not None:
            self.judge.forget()  # (what the record spends of the bound depends on it alone)
        to_move, passes, pending = self._walk(start, last, to_move, passes, pending)
        if self.checkpoints is not None:  # the state after the last move, to resume from
            self.checkpoints.append(self.checkpoint(to_move, passes, pending))
        self.played, self.to_move = last, to_move
        if last == len(moves):  # (stopped before the end: what the end decides is open)
            self._close(pending)

    def _walk(
        self, start: int, last: int, to_move: int, passes: int, pending: Pending | None
    ) -> tuple[int, int, Pending | None]:
        """Walk moves ``start + 1`` to ``last``; the walk's state after them."""
        # (the loop runs for every move of every record: what it reads is bound to locals, and
        # a move that makes no five and no shape its colour may not play is placed inline)
        moves, rules = self.record.moves, self.rules
        result, report, checkpoints = self.result, self.report, self.checkpoints
        guided = self.course.until if self.course is not None else 0
        board = self.board
        cells, index_of_point, place = board.cells, board.geometry.index_of_point, board.place
        own, placed, numbers = self.own, self.placed, self.numbers
        judge = self.judge
        shape, hot, quiet = judge.shape, judge.hot, judge.quiet
        # the first move that may fill the board or reach the move limit (a move adds one
        # stone at most)
        watch = min(
            board.width * board.height - board.stones + start
            if rules.board_full_draw
            else len(moves) + 1,
            rules.move_limit if rules.move_limit is not None else len(moves) + 1,
        )
        walked = moves if not start and last == len(moves) else moves[start:last]
        for number, move in enumerate(walked, start + 1):
            if checkpoints is not None:
                checkpoints.append(self.checkpoint(to_move, passes, pending))
            if number <= guided:  # the opening's course: board events, colours, seat rules
                to_move = self._follow_course(number, to_move)
                judge = self.judge
                shape, hot, quiet = judge.shape, judge.hot, judge.quiet
            if result.winner is not None and not self.after_end_reported:
                self.note_after_end(number, move)
            stone = to_move
            if move.color is not None and STONE[move.color] != stone:
                stone = self._wrong_color(number, move, stone)
            to_move = BLACK + WHITE - stone
            if pending is not None:
                self._unclaimed(pending, number, move)
                pending = None
            point = move.point
            if point is None:
                passes = self._pass(number, move, passes)
                continue
            passes = 0
            index = index_of_point.get(point)
            if index is None or cells[index] != EMPTY:
                self._not_placed(number, move, point, index)
                continue
            # one window lookup (``Judge.shape``) tells whether the move may be forbidden and
            # whether it makes a five; a colour with too few stones needs none, nor a colour
            # without forbidden moves once a five has ended the game
            code = 0
            if own[stone] >= quiet[stone] and (
                hot[stone] or report.first_five is None or not result.decided
            ):
                code = shape(board, index, stone)
            if code & (hot[stone] | FIVES):
                pending = self._play(number, move, point, index, stone, code)
            else:
                place(index, stone)
                own[stone] += 1
                placed.append(index)
                if numbers is not None:
                    numbers[index] = number
            if number >= watch:
                self._limits(number, point)
        return to_move, passes, pending

    def _play(
        self, number: int, move: Move, point: Point, index: int, stone: int, code: int
    ) -> Pending | None:
        """Place move ``number`` on the empty ``index``, whose shape ``code`` may make a five or
        a forbidden move: judged first, then the five looked for; a claim the opponent may make
        of it, if any."""
        report, result = self.report, self.result
        pending = None
        if not code & FIVES:
            pending = self._judge_foul(number, move, point, index, stone)
        self.board.place(index, stone)
        self.own[stone] += 1
        self.placed.append(index)
        if self.numbers is not None:
            self.numbers[index] = number
        # (after the end, once the first five is known, a five changes nothing)
        if code & FIVES and (report.first_five is None or not result.decided):
            five = self._five(index, stone)
            if five is not None:
                self._record_five(number, point, stone, five)
        return pending

    def _close(self, pending: Pending | None) -> None:
        """What only the end of the record decides."""
        if pending is not None and not self.result.decided and self.rules.policy == "claim":
            # The record ends on the foul: the opponent's claim is the natural reading.
            n, p, _, stone = pending
            self.end(COLOR_NAME[BLACK + WHITE - stone], "forbidden", n, p)
        self.word_after_end()
        self._list_undecided()
        self.check_declared()

    def checkpoint(self, to_move: int, passes: int, pending: Pending | None) -> Checkpoint:
        """The state before the next move (``to_move``, ``passes``, ``pending``: the walk's)."""
        report, result = self.report, self.result
        return Checkpoint(
            len(report.findings),
            len(report.forbidden_moves),
            len(self.dropped),
            len(self.placed),
            report.first_five is not None,
            (result.winner, result.reason, result.move, result.point),
            (self.end_move, self.after_end_reported, self.after_end_at),
            (self.undecided_at, len(self.undecided)),
            (to_move, passes, pending),
        )

    # -- moves that place nothing -----------------------------------------------------------------
    def _wrong_color(self, number: int, move: Move, stone: int) -> int:
        """A move whose colour is not the one to move: reported, played as written."""
        assert move.color is not None
        said = partial(words.wrong_color, number, move.color, COLOR_NAME[stone])
        self.add("wrong-color", said, move, number, move.point)  # (worded only if listed)
        return STONE[move.color]

    def _pass(self, number: int, move: Move, passes: int) -> int:
        """A pass: checked against the rules; the passes in a row after it."""
        rules = self.rules
        if not rules.passes_allowed:
            said = f"move {number}: ruleset {rules.name} allows no passes"
            self.add("illegal-pass", said, move, number)
        elif number < rules.pass_not_before:
            said = f"move {number}: no pass before move {rules.pass_not_before} under {rules.name}"
            self.add("illegal-pass", said, move, number)
        passes += 1
        limit = rules.consecutive_passes_draw
        if limit is not None and passes >= limit:
            self.end("draw", "passes", number, None)
        self._limits(number, None)
        return passes

    def _not_placed(self, number: int, move: Move, point: Point, index: int | None) -> None:
        """A move off the board (``index`` None) or on a point already taken."""
        if index is None:
            board = self.board
            said = f"move {number} ({point.name}) is off the {board.width}x{board.height} board"
            self.add("off-board", said, move, number, point)
        else:
            self.add("occupied", partial(self._occupied, number, point), move, number, point)

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

    # -- the end of the game ----------------------------------------------------------------------
    def note_after_end(self, number: int, move: Move) -> None:
        """Report the first move played after the end of the game (once)."""
        self.after_end_reported = True
        if len(self.report.findings) < self.cap:
            self.after_end_at = len(self.report.findings)
        self.add("move-after-end", "", move, number, move.point)  # the words: at the end

    def word_after_end(self) -> None:
        """Word the move-after-end finding, which counts the moves to the end of the record."""
        at = self.after_end_at
        if at is None:
            return
        findings = self.report.findings
        f = findings[at]
        assert f.move is not None and self.end_move is not None
        said = words.after_end(f.move, f.point, self.end_move, self.result, self.record)
        findings[at] = dataclasses.replace(f, message=said)

    def _limits(self, number: int, point: Point | None) -> None:
        if self.rules.board_full_draw and self.board.full:
            self.end("draw", "board-full", number, point)
        limit = self.rules.move_limit
        if limit is not None and number >= limit:
            self.end("draw", "move-limit", number, point)

    def check_declared(self) -> None:
        declared = self.record.declared_result
        r = self.result
        if declared is None or declared.winner is None or not r.decided:
            return  # resignation, time, agreement: not visible on the board
        if declared.winner != r.winner:
            said = words.result_mismatch(declared.winner, r)
            self.add("result-mismatch", said, None, r.move)

    # -- the opening ------------------------------------------------------------------------------
    def _follow_course(self, number: int, to_move: int) -> int:
        """Before move ``number``: apply the board events recorded before it, switch to the
        rules in force from it, and return the colour it is (the opening may say)."""
        course = self.course
        assert course is not None
        for event in course.board_events.get(number - 1, ()):
            self._board_event(event)
        for start, ruleset in course.rules:
            if start == number:
                self.judge = judge_of(ruleset)
        return course.colors.get(number, to_move)

    def _board_event(self, event: OpeningEvent) -> None:
        """A rejected opening (every stone off) or a moved stone, on the conditions of
        ``opening.move_stones`` (which the opening check applies to its own map of stones:
        keep the two in step), applied to the cells without gathering the board's stones."""
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
        board = self.board
        cells, index_of_point = board.cells, board.geometry.index_of_point
        black = Color.BLACK
        stones: list[tuple[int, int]] = []
        taken: set[int] = set()
        blacks = 0
        for point, color in setup:
            stone = BLACK if color is black else WHITE
            blacks += stone == BLACK
            index = index_of_point.get(point)
            if index is None:
                said = f"setup stone {point.name} is off the board"
                self.add("off-board", said, None, None, point)
            elif cells[index] != EMPTY or index in taken:
                self.add("occupied", f"setup stone {point.name} is placed twice", None, None, point)
            else:
                taken.add(index)
                stones.append((index, stone))
        board.place_all(stones)
        if board.stones:
            self.own = [0, cells.count(BLACK), cells.count(WHITE)]
        return BLACK if blacks <= len(setup) - blacks else WHITE

    # -- fives and fouls --------------------------------------------------------------------------
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

    def _judge_foul(
        self, number: int, move: Move, point: Point, index: int, stone: int
    ) -> Pending | None:
        """Judge a move whose shape may be forbidden, within the run's bound on judgements;
        a claim the opponent may make of it, if it is a foul."""
        bound = self.bound
        kinds, undecided = self.judge.bounded_kinds(self.board, index, stone, bound)
        if undecided:
            assert bound is not None  # (only a bound leaves one undecided)
            self._undecided(number, move, point, stone, bound)
        return self._foul(number, move, point, index, stone, kinds) if kinds else None

    def _foul(
        self, number: int, move: Move, point: Point, index: int, stone: int, kinds: tuple[str, ...]
    ) -> Pending | None:
        """Report a forbidden move; apply the ruleset's policy.  Returns a pending claim."""
        self.report.forbidden_moves.append(ForbiddenMove(number, point.name, list(kinds)))
        policy = self.rules.policy
        # (worded only if listed; the board is as before the move: ``add`` asks at once)
        said = partial(
            words.foul,
            self.judge,
            self.board,
            index,
            stone,
            kinds,
            self.bound,
            self.result.decided,
            self.rules,
        )
        claimed = policy not in ("lose", "reject")  # a foul only if the opponent claims it
        self.add("forbidden-move", said, move, number, point, WARNING if claimed else "")
        if policy == "lose":
            self.end(COLOR_NAME[BLACK + WHITE - stone], "forbidden", number, point)
        return (number, point, kinds, stone) if claimed else None

    def _undecided(
        self, number: int, move: Move, point: Point, stone: int, bound: Judgements
    ) -> None:
        """A move whose threes the bound on double-three judgements left unjudged: taken as
        not a double-three, with one warning per record, at its first such move, which lists
        the others (``_list_undecided``)."""
        bound.cuts += 1
        self.undecided.append((number, point))
        if len(self.undecided) > 1:
            return
        at = len(self.report.findings)
        said = partial(words.undecided, number, point, COLOR_NAME[stone], bound)
        self.add("unchecked", said, move, number, point, WARNING)
        if at < len(self.report.findings):  # (listed, not past the cap)
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

    def _unclaimed(self, pending: Pending, number: int, move: Move) -> None:
        foul_move, point, kinds, _ = pending
        if not self.result.decided:
            said = words.unclaimed(foul_move, point, kinds, number)
            self.add("unclaimed-foul", said, move, foul_move, point)


_JUDGES: dict[int, tuple[Ruleset, Judge]] = {}


def judge_of(ruleset: Ruleset) -> Judge:
    """``ruleset.judge()``, remembered by identity: a batch replays thousands of records under
    one ruleset, and building the judge's key costs more than a short replay's first moves."""
    hit = _JUDGES.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    return remember(_JUDGES, id(ruleset), (ruleset, ruleset.judge()), 64)[1]
