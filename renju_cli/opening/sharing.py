"""``check_opening``: the check of a record's opening as the referee asks for it, shared between
records that begin alike, and bounded by the run's walk steps and the file's walks.

Records that begin with the same stones and record nothing else get the same check (the walk
reads no move past the protocol's reach): it is made once and given to each with the lines of
its own moves.  Opening books, RenLib trees and databases repeat a few openings thousands of
times, and a walk costs more than the rest of a short record.  A line of a variation tree shares
the check of the line before it when it leaves that line past what the check read (the tree
keeps the check).  The file's bound on walks (``limits.bound_walks``) counts walks as these
share them, so what a file costs is bounded by its size.
"""

from __future__ import annotations

import dataclasses
import operator
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from renju_cli.coords import Point
from renju_cli.judge import Judgements, WalkSteps
from renju_cli.limits import TreeLine
from renju_cli.memo import remember
from renju_cli.opening.canonical import name_of_first_three
from renju_cli.opening.check import (
    OpeningCheck,
    board_center,
    board_size,
    check_record,
    declared_id,
    declared_id_findings,
    placed_points,
)
from renju_cli.opening.course import course_of
from renju_cli.opening.events import DECLARED_KEPT, BoardEvents, board_events
from renju_cli.opening.rules import usable_protocol
from renju_cli.opening.steps import Protocol
from renju_cli.opening.walk import Budget
from renju_cli.record import (
    WARNING,
    Branch,
    Color,
    Finding,
    OpeningEvent,
    Record,
    same_events,
)

if TYPE_CHECKING:
    from renju_cli.ruleset import Ruleset


def check_opening(
    record: Record, ruleset: Ruleset, within: Judgements | None = None
) -> OpeningCheck:
    """Name the record's opening and check it against the ruleset's protocol.  Never raises.

    ``within``: the run's bound, whose ``walk_steps`` the walks are charged to; past it, a
    record that would be walked is not (``not_followed``), and its check is not remembered.
    """
    if record.protocol_not_followed is not None:
        past = _past_the_file_bound(record, ruleset, record.protocol_not_followed)
        if past is not None:
            return past
    steps = within.walk_steps if within is not None else None
    key = memo_key(record, ruleset)
    if key is not None:
        return _remembered(record, ruleset, steps, key)
    if record.branch is None or not ruleset.opening:
        return _walked(record, ruleset, steps)
    return _tree_line(record, record.branch, ruleset, steps)


def _remembered(
    record: Record, ruleset: Ruleset, steps: WalkSteps | None, key: tuple[Any, ...]
) -> OpeningCheck:
    """The check remembered under ``key`` (``memo_key``), made and kept if there is none."""
    hit = _CHECKED.get(key)
    if hit is not None and hit[0] is ruleset:
        return _for_record(hit[1], record)
    if steps is not None and steps.left <= 0:
        return _walked(record, ruleset, steps)  # (named only: never remembered)
    check = _walked(record, ruleset, steps)
    # kept in containers of its own, the findings shared (nothing changes a finding once
    # made), so that records that all begin differently do not pay for a second copy
    remember(
        _CHECKED, key, (ruleset, _with_findings(check, list(check.findings))), _CHECKED_ENTRIES
    )
    return check


def _past_the_file_bound(record: Record, ruleset: Ruleset, why: str) -> OpeningCheck | None:
    """The check of a record past its file's bound on walks (``why``), whose protocol is not
    followed: never a remembered one either, which would depend on what this process judged
    before (``--jobs``).  ``None`` when it walks no protocol anyway."""
    if not ruleset.opening or record.setup:
        return None
    protocol = usable_protocol(ruleset)
    return None if protocol is None else not_followed(record, ruleset, protocol, why)


def _tree_line(
    record: Record, branch: Branch, ruleset: Ruleset, steps: WalkSteps | None
) -> OpeningCheck:
    """The check of a line of a variation tree: the line before's, when this line leaves it
    past what that check read, with the same setup and events (the tree's root events are the
    same objects in every line); kept on the tree for the line after."""
    kept_on = branch.tree.kept
    key = ("opening", id(ruleset))
    # taken out while in use: another thread checking the same tree makes a check of its own
    kept = kept_on.pop(key, None)
    if isinstance(kept, _Line) and kept.serves(record, ruleset, branch):
        kept_on[key] = dataclasses.replace(kept, line=branch.line)
        return _for_record(kept.check, record)
    read = [-1]
    check = _walked(record, ruleset, steps, read)
    if read[0] >= 0:
        kept_on[key] = _Line.of(record, branch, ruleset, read[0], _for_record(check, record))
    return check


#: ``check_opening``'s checks by ``memo_key``, with the ruleset they were made under (its id
#: is in the key; kept, so that a reused id is never mistaken).  Bounded: cleared when full;
#: room for more than the distinct openings a megabyte may walk (``ReadOptions.max_walks``),
#: so that a file's opening is walked once however far apart its records are.
_CHECKED: dict[tuple[Any, ...], tuple[Ruleset, OpeningCheck]] = {}
_CHECKED_ENTRIES = 16384


def _walked(
    record: Record, ruleset: Ruleset, steps: WalkSteps | None, read: list[int] | None = None
) -> OpeningCheck:
    """``check_record``, its walk's steps charged to ``steps``; past them, a record whose
    protocol would be walked is not (``read`` left as it was: nothing to remember)."""
    if steps is None:
        return check_record(record, ruleset, read)
    if steps.left <= 0 and ruleset.opening and not record.setup:
        protocol = usable_protocol(ruleset)
        if protocol is not None:
            steps.cuts += 1  # (never remembered: ``Allowance.cuts``)
            return not_followed(
                record,
                ruleset,
                protocol,
                f"the records checked before it took the {steps.limit} steps of opening-"
                f"protocol walks (each step applied in each option tried) that a run may "
                f"take{steps.terms}",
            )
    spent = Budget()
    check = check_record(record, ruleset, read, spent)
    steps.left -= spent.paths + spent.steps  # (a path tried costs a step)
    return check


def memo_key(record: Record, ruleset: Ruleset) -> tuple[Any, ...] | None:
    """What a check of ``record`` under ``ruleset`` depends on, when that is only its first
    stones and its declared opening id: no setup, no opening events, and a protocol that
    reaches a known number of moves (RenjuNet declares the id of every game).  ``None``
    otherwise (and for rulesets without a protocol, whose check is cheaper than the key)."""
    if record.setup or record.opening_events or not ruleset.opening:
        return None
    protocol = usable_protocol(ruleset)
    if protocol is None:
        return None
    return stones_key(record, ruleset, protocol)


def stones_key(record: Record, ruleset: Ruleset, protocol: Protocol) -> tuple[Any, ...] | None:
    """What the check of a record without events depends on: the ruleset, the board, the
    declared id and the stones as far as the protocol reaches (``None``: no known reach, or
    a declared id too long to keep)."""
    reach = protocol.reach
    if reach is None:
        return None
    declared = declared_id(record)
    if declared:  # (checked against stones 1-3)
        if len(declared) > DECLARED_KEPT:
            return None  # (no opening is named so: not kept, by the thousand, in keys)
        reach = max(reach, 3)
    moves = record.moves
    return (
        id(ruleset),
        record.width,
        record.height,
        declared,
        min(len(moves), reach),
        *[m.point for m in moves[:reach]],
    )


def walk_key(record: Record, ruleset: Ruleset) -> Hashable | None:
    """Which records share the walk of ``record``'s opening protocol, as a key for
    ``limits.bound_walks``, which counts the walks a file makes; ``None`` when checking its
    opening walks no protocol (none, a setup).  As ``check_opening`` shares walks:

    - records of the same first stones (and declared id) and no events share one
      anywhere in the file (the memo): their ``memo_key``;
    - a line of a variation tree shares the walk of the line before it when it leaves that
      line past what the walk read, with the very same events (``_tree_line``): a
      ``limits.TreeLine``, with the stones as far as the protocol and the events reach (at
      least what a walk reads);
    - any other record is walked on its own: a key of its own.
    """
    if not ruleset.opening or record.setup:
        return None
    protocol = usable_protocol(ruleset)
    if protocol is None:
        return None
    events = record.opening_events
    if not events:
        key = stones_key(record, ruleset, protocol)  # (``memo_key``'s)
        if key is not None:
            return key
    if record.branch is None:
        return (object(),)  # no memo serves it
    return _line_key(record, record.branch, ruleset, protocol)


def _line_key(record: Record, branch: Branch, ruleset: Ruleset, protocol: Protocol) -> TreeLine:
    """The walk key of a line of a tree: the moves as far as the protocol and the events reach
    (at least what a walk reads), and what ``_Line.serves`` compares."""
    events = record.opening_events
    reach = protocol.reach
    if reach is not None and events:
        reach = max(reach, max(map(_AFTER, events)) + 2)
    reached = len(record.moves) if reach is None else min(len(record.moves), reach)
    plain = (id(ruleset), record.width, record.height, record.opening_id)
    return TreeLine(plain, reached, events, branch.tree, branch.line, branch.shared)


_AFTER = operator.attrgetter("after")


def not_followed(record: Record, ruleset: Ruleset, protocol: Protocol, why: str) -> OpeningCheck:
    """The check of a record whose protocol is not followed (``why``): its opening named, the
    declared id compared, one finding saying so; the referee still applies its board events
    and seat rules, which cost no walk.

    Without board events or a setup it depends on the first three stones, the declared id,
    the board and ``why`` only, and is remembered by them: a file past its bound on walks
    holds tens of thousands of records, and such a file's records may all begin alike.
    """
    board = board_events(record.opening_events)
    if board or record.setup or len(record.opening_id or "") > DECLARED_KEPT:
        return _not_followed(record, ruleset, protocol, why, board)
    first = tuple(m.point for m in record.moves[:3])
    key = (id(ruleset), why, *board_size(record, ruleset), record.opening_id, first)
    hit = _NOT_FOLLOWED.get(key)
    if hit is not None and hit[0] is ruleset and hit[1] is not None:
        return _with_findings(hit[1], list(hit[1].findings))
    check = _not_followed(record, ruleset, protocol, why, board)
    # kept from the second record that begins so: records that all begin otherwise must not
    # each keep a check
    kept = None if hit is None else _with_findings(check, list(check.findings))
    remember(_NOT_FOLLOWED, key, (ruleset, kept), _CHECKED_ENTRIES)
    return check


#: ``not_followed``'s checks of records without board events or setup, by what they depend
#: on, with the ruleset they were made under (its id is in the key; ``None``: seen once).
#: Cleared when full.
_NOT_FOLLOWED: dict[tuple[Any, ...], tuple[Ruleset, OpeningCheck | None]] = {}


def _not_followed(
    record: Record, ruleset: Ruleset, protocol: Protocol, why: str, board: BoardEvents
) -> OpeningCheck:
    """``not_followed`` made anew.  (A plain list of findings, in the report's order: those
    without a move, then those of the declared id's move 3; too few to cap.)"""
    width, height = board_size(record, ruleset)
    summary: dict[str, Any] = {"id": None, "name": None, "symmetry": None}
    declared: list[Finding] = []
    c = board_center(width, height, protocol)
    if c is not None:
        points = placed_points(record, width, height, 3, board)
        ident = name_of_first_three(points, c)
        if ident is not None:
            summary.update(ident.to_json())
        declared = declared_id_findings(record, ident, points)
    summary.update(protocol=protocol.name, black=None, white=None)
    said = Finding(
        "unchecked",
        f"the {protocol.name} opening protocol is not followed for this record: {why}",
        severity=WARNING,
    )
    course, seats = course_of(record, ruleset, None, board)
    return OpeningCheck(summary, [said, *seats, *declared], course)


def _for_record(check: OpeningCheck, record: Record) -> OpeningCheck:
    """A copy of a remembered ``check`` for ``record``: its findings with the lines of its own
    moves (a finding of a move has its line; the key holds no opening event, whose line a
    finding could have; a finding already on them is shared), the summary and counts its own
    to change."""
    moves = record.moves
    findings = []
    for f in check.findings:
        line, offset = f.line, f.offset
        if f.move is not None and line is not None:
            # the line of the move, as ``make_finding`` gives it: none past the record's end
            # (an event's finding may name a move a shorter line of the tree does not have)
            if 0 < f.move <= len(moves):
                line, offset = moves[f.move - 1].line, moves[f.move - 1].offset
            else:
                line, offset = None, None
        if line == f.line and offset == f.offset:
            findings.append(f)  # (nothing changes a finding once made: shared as it is)
            continue
        findings.append(f.at(line, offset))
    return _with_findings(check, findings)


def _with_findings(check: OpeningCheck, findings: list[Finding]) -> OpeningCheck:
    """``check`` with ``findings``, in containers of its own (summary, counts): what a report
    does with one copy never reaches another, nor the memo's."""
    opening = (
        {k: list(v) if isinstance(v, list) else v for k, v in check.opening.items()}
        if check.opening is not None
        else None
    )
    dropped = Counter(check.dropped) if check.dropped is not None else None
    return OpeningCheck(opening, findings, check.course, dropped)


@dataclass(frozen=True)
class _Line:
    """The check of a line of a variation tree, kept on the tree: the line it was made for or
    last served (``line``), its ruleset, board, declared id, events (the objects) and setup
    stones, and how many of its first moves it read (``length``: at most ``read``)."""

    rules: Ruleset
    line: int
    board: tuple[int | None, int | None, str | None]
    events: list[OpeningEvent]
    setup: list[tuple[Point, Color]]
    read: int
    length: int
    check: OpeningCheck

    @classmethod
    def of(
        cls, record: Record, branch: Branch, ruleset: Ruleset, read: int, check: OpeningCheck
    ) -> _Line:
        """The check of ``record``, which read its first ``read`` moves."""
        board = (record.width, record.height, record.opening_id)
        events, setup = list(record.opening_events), list(record.setup)
        return cls(
            ruleset, branch.line, board, events, setup, read, min(len(record.moves), read), check
        )

    def serves(self, record: Record, ruleset: Ruleset, branch: Branch) -> bool:
        """Whether ``record``, the next line of the tree, begins as this check's line did as far
        as it read: it leaves the line before past them, and holds as many, with the same
        rules, board, setup and events."""
        return (
            ruleset is self.rules
            and branch.line == self.line + 1
            and branch.shared >= self.length
            and min(len(record.moves), self.read) == self.length
            and record.setup == self.setup
            and (record.width, record.height, record.opening_id) == self.board
            and same_events(record.opening_events, self.events)
        )
