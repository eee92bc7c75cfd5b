"""Checking one record's opening: name it, compare the declared id, walk the protocol, and tell
the replay what it must follow (``Course``).

What a record can show is checked: positions of stones, canonical openings, where swaps and colour
choices happen, offers (count, validity, symmetry) and the kept fifth, passes in the opening.  Who
physically placed a stone is not in any record; ``by`` words the rule and tracks which seat holds
which colour.  What a record does not store (offers, a declared count) is reported as an
``unchecked`` finding instead of being guessed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from renju_cli.coords import Point, center
from renju_cli.opening.canonical import Identified, lookup_opening, name_of_first_three
from renju_cli.opening.course import Course, course_of
from renju_cli.opening.events import (
    BoardEvents,
    EventIndex,
    has_board_events,
    move_stones,
)
from renju_cli.opening.findings import CappedFindings
from renju_cli.opening.leftovers import events_without_protocol, leftover_events
from renju_cli.opening.offers import offer_names
from renju_cli.opening.rules import protocol_of, restricted_seat
from renju_cli.opening.state import Context, WalkState
from renju_cli.opening.steps import Protocol, ProtocolError
from renju_cli.opening.walk import MAX_PATHS, MAX_STEPS, Budget, walk
from renju_cli.record import WARNING, Finding, OpeningEvent, Record

if TYPE_CHECKING:
    from renju_cli.ruleset import Ruleset


@dataclass
class OpeningCheck:
    """What checking a record's opening found: ``opening`` for the report, findings, and the
    ``course`` the replay follows (``None``: plain alternation on one board).  ``findings``
    are at most ``MAX_FINDINGS``, the first in the report's order; ``dropped`` counts the
    others by code and severity (never made: the report would not list them)."""

    opening: dict[str, Any] | None
    findings: list[Finding]
    course: Course | None = None
    dropped: Counter[tuple[str, str]] | None = None


def check_record(
    record: Record,
    ruleset: Ruleset,
    read: list[int] | None = None,
    spent: Budget | None = None,
) -> OpeningCheck:
    """The check of ``record``'s opening made anew; ``read[0]`` is set to how many of the first
    moves it read when it walked the protocol, or 0 when a setup kept it from walking (only
    they, the setup and the record's events decide it).  ``spent``: a fresh ``Budget`` that
    tells, after, what the walk took."""
    width, height = board_size(record, ruleset)
    if _name_is_all(record, ruleset):
        return OpeningCheck(_name_only(record, width, height), [], None)
    found = CappedFindings()
    protocol = _protocol_or_say(ruleset, found)
    c = board_center(width, height, protocol)
    events = EventIndex(record.opening_events)
    board = events.board
    points = placed_points(record, width, height, _reach(protocol, board), board)
    summary = _named(record, c, points, found)
    state: WalkState | None = None
    stones_read: int | None = None  # of the first moves, when only they decide the check
    if protocol is not None:
        summary = {"id": None, "name": None, "symmetry": None, **summary, "protocol": protocol.name}
        ctx = Context(record, ruleset, protocol, tuple(points), width, height, c, events)
        state, found, stones_read = _check_protocol(ctx, found, summary, spent or Budget())
    elif not record.setup:
        events_without_protocol(ruleset, board, found)
    if read is not None and stones_read is not None:  # (and the moves of the board events)
        read[0] = max([stones_read, *(n + 1 for n in board)])
    course, more = course_of(record, ruleset, state, board)
    for finding in more:
        found.put(finding)
    return OpeningCheck(summary or None, found.listed(), course, found.dropped)


def board_size(record: Record, ruleset: Ruleset) -> tuple[int, int]:
    """The board the record is played on: its own size, else the ruleset's."""
    return record.width or ruleset.width, record.height or record.width or ruleset.height


def _name_is_all(record: Record, ruleset: Ruleset) -> bool:
    """Whether naming the opening is all the check does: no protocol, and nothing recorded
    about the opening that a ruleset without one judges (decisions and offers are only a
    protocol's)."""
    return (
        not ruleset.opening
        and not declared_id(record)
        and restricted_seat(ruleset) is None
        and not (record.opening_events and has_board_events(record.opening_events))
    )


def _reach(protocol: Protocol | None, board: BoardEvents) -> int | None:
    """How many of the first moves matter: those the protocol can reach (without one, stones
    1-3 name the opening), and those before the last board event."""
    reach = protocol.reach if protocol else 3
    if reach is not None and board:
        reach = max(reach, max(board) + 1)
    return reach


def _named(
    record: Record, c: Point | None, points: list[Point | None], found: CappedFindings
) -> dict[str, Any]:
    """The opening its first stones name, for the report; the declared id's findings go to
    ``found``."""
    summary: dict[str, Any] = {}
    if not record.setup and c is not None:
        ident = name_of_first_three(points, c)
        if ident is not None:
            summary.update(ident.to_json())
        for finding in declared_id_findings(record, ident, points):
            found.put(finding)
    return summary


def _check_protocol(
    ctx: Context, found: CappedFindings, summary: dict[str, Any], budget: Budget
) -> tuple[WalkState | None, CappedFindings, int | None]:
    """The record against its protocol: the walk's end, the findings so far, and how many of
    the first moves decide it (0: a setup, which the protocol does not check)."""
    if ctx.record.setup:
        found.put(_setup_finding(ctx.record, ctx.protocol))
        return None, found, 0
    state, found = _follow(ctx, found, summary, budget)
    return state, found, ctx.read[0] if state is not None else None


def _name_only(record: Record, width: int, height: int) -> dict[str, Any] | None:
    """The opening's name, for a ruleset without a protocol (a batch of small records must not
    pay for the walk, which would find nothing more)."""
    c = board_center(width, height, None)
    moves = record.moves
    # (stone 1 off the centre names no opening: no need to place the first stones)
    if len(moves) < 3 or record.setup or c is None or moves[0].point != c:
        return None
    ident = name_of_first_three(placed_points(record, width, height, 3, {}), c)
    return ident.to_json() if ident is not None else None


def _protocol_or_say(ruleset: Ruleset, found: CappedFindings) -> Protocol | None:
    """The ruleset's protocol; one it cannot use is said in ``found``."""
    try:
        return protocol_of(ruleset)
    except ProtocolError as e:
        found.put(
            Finding(
                "unchecked",
                f"the opening protocol of ruleset {ruleset.name} cannot be used ({e}); "
                "the opening is not checked",
                severity=WARNING,
            )
        )
        return None


def _setup_finding(record: Record, protocol: Protocol) -> Finding:
    return Finding(
        "unchecked",
        f"the record starts from {len(record.setup)} setup stone(s); the "
        f"{protocol.name} opening protocol is not checked",
    )


def _follow(
    ctx: Context, found: CappedFindings, summary: dict[str, Any], budget: Budget
) -> tuple[WalkState | None, CappedFindings]:
    """Walk the protocol over the record; the walk's end (``None`` when it could not be
    walked) and the findings so far.  The summary gets what the walk learnt."""
    protocol = ctx.protocol
    try:
        # (a copy: a walk that fails part way leaves the findings made before it)
        state = walk(ctx, protocol.steps, WalkState(findings=found.copy()), budget)
    except RecursionError:  # a user's protocol nested beyond reason
        found.put(
            Finding(
                "unchecked",
                f"the {protocol.name} protocol nests too deeply to be followed; "
                "the opening is not checked",
                severity=WARNING,
            )
        )
        return None, found
    if budget.cut:
        state.findings.put(
            Finding(
                "unchecked",
                f"the {protocol.name} protocol's branches were tried as far as "
                f"{MAX_PATHS} paths or {MAX_STEPS} steps; past that each branch "
                "took its first option, so the findings of its steps may not be "
                "the best explanation of the record",
                severity=WARNING,
            )
        )
    leftover_events(ctx, state)
    summary.update(_protocol_summary(state))
    if state.base and ctx.center is not None:  # name the opening played after a rejection
        ident = name_of_first_three(ctx.points[state.base :], ctx.center)
        summary.update(ident.to_json() if ident else {"id": None, "name": None})
    return state, state.findings


def board_center(width: int, height: int, protocol: Protocol | None) -> Point | None:
    """The centre the protocol names, else the board's own (none on an even side)."""
    if protocol is not None and protocol.center is not None:
        return protocol.center
    if width % 2 == 1 and height % 2 == 1:
        return center(width, height)
    return None


def placed_points(
    record: Record, width: int, height: int, limit: int | None, board: BoardEvents
) -> list[Point | None]:
    """The point of each move that really put a stone on the board (as the referee replays,
    rejections and moved stones included: ``board``, as ``EventIndex.board`` holds them)."""
    taken: dict[Point, int] = {p: 0 for p, _ in record.setup}
    out: list[Point | None] = []
    for n, move in enumerate(record.moves[:limit], 1):
        if board:
            _board_events_before(taken, board.get(n - 1, ()), n, width, height)
        p = move.point
        if p is None or not p.on_board(width, height) or p in taken:
            out.append(None)
            continue
        taken[p] = n
        out.append(p)
    return out


def _board_events_before(
    taken: dict[Point, int],
    events: Sequence[tuple[int, OpeningEvent]],
    n: int,
    width: int,
    height: int,
) -> None:
    """Apply to ``taken`` the board events recorded just before move ``n``."""
    for _, e in events:
        if e.after == n - 1:  # (one recorded before move 1 as after -1 is not applied)
            move_stones(taken, e, width, height)


def declared_id(record: Record) -> str:
    """The opening id the record declares, as it is checked (stripped; "" for none)."""
    return record.opening_id.strip() if record.opening_id else ""


def _quoted_id(declared: str) -> str:
    """A declared opening id as a message quotes it: by its first 40 characters."""
    return repr(declared) if len(declared) <= 40 else repr(declared[:40]) + "..."


def declared_id_findings(
    record: Record, ident: Identified | None, points: Sequence[Point | None]
) -> list[Finding]:
    """The findings of the opening id the record declares, against ``ident``, the opening its
    first three placed ``points`` name (``placed_points``)."""
    declared = declared_id(record)
    if not declared:
        return []
    entry = lookup_opening(declared)
    if entry is None:
        return [
            Finding(
                "unchecked",
                f"the record declares opening {_quoted_id(declared)}, which is not one of the 26 "
                "canonical opening ids; it is not checked against the moves",
            )
        ]
    if sum(p is not None for p in points[:3]) != 3:
        return [
            Finding(
                "unchecked",
                f"the record declares opening {entry.id} ({entry.name}) but has fewer than "
                "three stones; the id is not checked",
            )
        ]
    said = f"the record declares opening {entry.id} ({entry.name}) but stones 1-3"
    if ident is None:
        return [
            Finding(
                "opening-id-mismatch",
                f"{said} ({_first_three(record)}) are not a canonical opening",
                move=3,
            )
        ]
    if ident.opening.id != entry.id:
        o = ident.opening
        return [
            Finding(
                "opening-id-mismatch",
                f"{said} ({_first_three(record)}) are {o.id} ({o.name}, by {ident.symmetry})",
                move=3,
                point=record.moves[2].point.name if record.moves[2].point else None,
            )
        ]
    return []


def _first_three(record: Record) -> str:
    return " ".join(m.point.name if m.point else "pass" for m in record.moves[:3])


def _offers_summary(state: WalkState, out: dict[str, Any]) -> None:
    """The offers and the kept move, in ``out``; by move when there were several."""
    if state.offers is not None:
        out["offers"] = offer_names(state.offers)
    if state.kept is not None:
        out["kept"] = state.kept.name
    if len(state.offered) > 1:  # Lijing, xsir317: offers for moves 4 and 5
        out["offers_by_move"] = {str(n): offer_names(pts) for n, pts in state.offered}
        out["kept_by_move"] = {str(n): p.name for n, p in state.kept_moves}


def _protocol_summary(state: WalkState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.branches:
        out["branch"] = list(state.branches)
    if state.declared is not None:
        out["declared"] = state.declared
    _offers_summary(state, out)
    if state.base:
        out["rejected_after"] = state.base
    if state.relocated:
        out["relocated"] = sorted(state.relocated)
    out["black"] = state.holders[0]
    out["white"] = state.holders[1]
    return out
