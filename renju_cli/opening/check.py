"""Checking one record's opening: name it, compare the declared id, walk the protocol, and tell
the replay what it must follow (``Course``).

What a record can show is checked: positions of stones, canonical openings, where swaps and colour
choices happen, offers (count, validity, symmetry) and the kept fifth, passes in the opening.  Who
physically placed a stone is not in any record; ``by`` words the rule and tracks which seat holds
which colour.  What a record does not store (offers, a declared count) is reported as an
``unchecked`` finding instead of being guessed.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any

from renju_cli.board import BLACK, WHITE
from renju_cli.coords import Point, center
from renju_cli.opening.canonical import Identified, lookup_opening, name_of_first_three
from renju_cli.opening.events import (
    LEFTOVER_CODES,
    BoardEvents,
    EventIndex,
    has_board_events,
    move_stones,
)
from renju_cli.opening.findings import CappedFindings
from renju_cli.opening.offers import offer_names
from renju_cli.opening.rules import protocol_of, restricted_seat, rules_for
from renju_cli.opening.state import Context, Holders, WalkState, make_finding
from renju_cli.opening.steps import PER_PROTOCOL, Protocol, ProtocolError, decision_places
from renju_cli.opening.walk import MAX_PATHS, MAX_STEPS, Budget, walk
from renju_cli.record import OpeningEvent, Record
from renju_cli.report import WARNING, Finding

if TYPE_CHECKING:
    from renju_cli.ruleset import Ruleset


@dataclass(frozen=True)
class Course:
    """What the opening tells the replay beyond "stones alternate from black on one board".

    ``colors``: move number -> ``BLACK``/``WHITE`` for every move of the opening when some
    stone's colour is not the one alternation from black gives (``alternate: false``, a
    rejected opening); empty otherwise.  ``board_events``: the record's ``reject`` and
    ``relocate`` events by the number of moves played before them, in record order.
    ``rules``: ``(move, ruleset)`` pairs - from that move on, judge with that ruleset
    (seat-bound forbidden moves: the rules written for black follow the restricted seat).
    ``until``: no move after it needs any of this.
    """

    colors: dict[int, int]
    board_events: dict[int, tuple[OpeningEvent, ...]]
    rules: tuple[tuple[int, Ruleset], ...]
    until: int


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


def check_record(record: Record, ruleset: Ruleset, read: list[int] | None = None) -> OpeningCheck:
    """The check of ``record``'s opening made anew; ``read[0]`` is set to how many of the first
    moves it read when it walked the protocol, or 0 when a setup kept it from walking (only
    they, the setup and the record's events decide it)."""
    width = record.width or ruleset.width
    height = record.height or record.width or ruleset.height
    if (
        not ruleset.opening
        and not declared_id(record)
        and restricted_seat(ruleset) is None
        and not (record.opening_events and has_board_events(record.opening_events))
    ):
        # no protocol and nothing recorded about the opening that a ruleset without one
        # judges (decisions and offers are only a protocol's): only its name
        return OpeningCheck(_name_only(record, width, height), [], None)
    found = CappedFindings()
    protocol = _protocol_or_say(ruleset, found)
    c = board_center(width, height, protocol)
    events = EventIndex.of(record.opening_events)
    board = events.board
    # only the stones the protocol can reach matter (without one, stones 1-3 name the opening)
    reach = protocol.reach if protocol else 3
    if reach is not None and board:
        reach = max(reach, max(board) + 1)
    points = placed_points(record, width, height, reach, board)
    summary: dict[str, Any] = {}
    if not record.setup and c is not None:
        ident = name_of_first_three(points, c)
        if ident is not None:
            summary.update(ident.to_json())
        for finding in declared_id_findings(record, ident, points):
            found.put(finding)
    state: WalkState | None = None
    stones_read: int | None = None  # of the first moves, when only they decide the check
    if protocol is not None:
        summary = {"id": None, "name": None, "symmetry": None, **summary}
        summary["protocol"] = protocol.name
        if record.setup:
            found.put(_setup_finding(record, protocol))
            stones_read = 0  # (the setup and the events decide it)
        else:
            ctx = Context(record, ruleset, protocol, tuple(points), width, height, c, events)
            state, found = _follow(ctx, found, summary)
            stones_read = ctx.read[0] if state is not None else None
    elif not record.setup:
        _events_without_protocol(ruleset, board, found)
    if read is not None and stones_read is not None:  # (and the moves of the board events)
        read[0] = max([stones_read, *(n + 1 for n in board)]) if board else stones_read
    course, more = course_of(record, ruleset, state, board)
    for finding in more:
        found.put(finding)
    return OpeningCheck(summary or None, found.listed(), course, found.dropped)


def _name_only(record: Record, width: int, height: int) -> dict[str, Any] | None:
    """The opening's name, for a ruleset without a protocol (a batch of small records must not
    pay for the walk, which would find nothing more)."""
    c = board_center(width, height, None)
    moves = record.moves
    # (stone 1 off the centre names no opening: nearly every record of a batch of distinct
    # games, which must not pay for placing its first stones to learn that)
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
    ctx: Context, found: CappedFindings, summary: dict[str, Any]
) -> tuple[WalkState | None, CappedFindings]:
    """Walk the protocol over the record; the walk's end (``None`` when it could not be
    walked) and the findings so far.  The summary gets what the walk learnt."""
    protocol = ctx.protocol
    budget = Budget()
    try:
        # (a copy: a walk that fails part way leaves the findings made before it)
        state = walk(ctx, protocol.steps, WalkState(findings=found.copy()), budget)
    except RecursionError:  # a user's protocol nested beyond reason
        _take_steps(budget.paths + budget.steps)
        found.put(
            Finding(
                "unchecked",
                f"the {protocol.name} protocol nests too deeply to be followed; "
                "the opening is not checked",
                severity=WARNING,
            )
        )
        return None, found
    _take_steps(budget.paths + budget.steps)  # (a path tried costs a step)
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
    _leftover_events(ctx, state)
    summary.update(_protocol_summary(state))
    if state.base and ctx.center is not None:  # name the opening played after a rejection
        ident = name_of_first_three(ctx.points[state.base :], ctx.center)
        summary.update(ident.to_json() if ident else {"id": None, "name": None})
    return state, state.findings


#: ``steps_taken``, per thread.
_STEPS_TAKEN = threading.local()


def steps_taken() -> int:
    """Steps of opening-protocol walks this thread took so far (the run is charged the
    difference a walk makes): a thread's own, so that threads checking records at once (a
    Dask worker's, a library user's pool) are not charged each other's steps."""
    taken: int = getattr(_STEPS_TAKEN, "n", 0)
    return taken


def _take_steps(n: int) -> None:
    _STEPS_TAKEN.n = steps_taken() + n


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
        for _, e in board.get(n - 1, ()) if board else ():
            if e.after == n - 1:  # (one recorded before move 1 as after -1 is not applied)
                move_stones(taken, e, width, height)
        p = move.point
        if p is None or not p.on_board(width, height) or p in taken:
            out.append(None)
            continue
        taken[p] = n
        out.append(p)
    return out


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


def _protocol_summary(state: WalkState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.branches:
        out["branch"] = list(state.branches)
    if state.declared is not None:
        out["declared"] = state.declared
    if state.offers is not None:
        out["offers"] = list(offer_names(state.offers))
    if state.kept is not None:
        out["kept"] = state.kept.name
    if len(state.offered) > 1:  # Lijing, xsir317: offers for moves 4 and 5
        out["offers_by_move"] = {str(n): list(offer_names(pts)) for n, pts in state.offered}
        out["kept_by_move"] = {str(n): p.name for n, p in state.kept_moves}
    if state.base:
        out["rejected_after"] = state.base
    if state.relocated:
        out["relocated"] = sorted(state.relocated)
    out["black"] = state.holders[0]
    out["white"] = state.holders[1]
    return out


def _events_without_protocol(ruleset: Ruleset, board: BoardEvents, found: CappedFindings) -> None:
    """A rejection or a moved stone under a ruleset without an opening protocol.  Only those
    the report can list are looked at one by one (in the report's order); the others are
    counted by code, all at once (a record may reject after every move)."""
    # (a finding's move is ``e.after or None``, and the report puts ``None`` as -1)
    events = sorted(
        (-1 if e.after == 0 else e.after, i, e) for i, e in chain.from_iterable(board.values())
    )
    left = Counter(LEFTOVER_CODES[e.kind] for _, _, e in events)
    for _, _, e in events:
        if not found.takes(e.after or None):
            break  # nor any after it: their findings come later in the report
        code = LEFTOVER_CODES[e.kind]
        left[code] -= 1
        found.add(code, e.after or None, partial(_no_protocol_finding, ruleset, e))
    for code, count in left.items():
        found.skip(code, count)


def _no_protocol_finding(ruleset: Ruleset, e: OpeningEvent) -> Finding:
    code = LEFTOVER_CODES[e.kind]
    what = "a rejection of the opening" if e.kind == "reject" else "a moved stone"
    return Finding(
        code,
        f"{what} after move {e.after}: ruleset {ruleset.name} has no opening protocol",
        move=e.after or None,
        line=e.line,
    )


def course_of(
    record: Record, ruleset: Ruleset, state: WalkState | None, board: BoardEvents
) -> tuple[Course | None, list[Finding]]:
    """What the replay must follow besides alternation: colours, board events, seat rules."""
    walked = state.colors if state is not None else ()
    if not board and walked == _ALTERNATION[: len(walked)] and not restricted_seat(ruleset):
        return None, []  # plain alternation (most records): what the loops below would find
    events = {n: tuple(e for _, e in pairs) for n, pairs in board.items()}
    colors = _colors(record, walked, events)
    rules, findings = _seat_rules(ruleset, state)
    if not colors and not events and len(rules) <= 1 and (not rules or rules[0][1] is ruleset):
        return None, findings
    until = max([*colors, *(n + 1 for n in events), *(m for m, _ in rules), 1])
    return Course(colors, events, rules, until), findings


def _colors(
    record: Record, walked: tuple[int, ...], events: dict[int, tuple[OpeningEvent, ...]]
) -> dict[int, int]:
    """The colour of each move of the opening, when some is not the one alternation from
    black gives (empty otherwise)."""
    colors: dict[int, int] = {}
    last = max([len(walked), *(n + 1 for n in events)])
    color = WHITE  # the colour of the stone before move 1
    for n in range(1, min(last, len(record.moves)) + 1):
        if any(e.kind == "reject" for e in events.get(n - 1, ())) and n > len(walked):
            color = WHITE  # an opening rejected beyond the protocol's steps starts with black
        color = walked[n - 1] if n <= len(walked) else BLACK + WHITE - color
        colors[n] = color
    if all(c == (BLACK if n % 2 else WHITE) for n, c in colors.items()):
        return {}  # plain alternation: the replay needs no help
    return colors


#: Colours in plain alternation from black, as far as a walk may place stones.
_ALTERNATION = tuple(BLACK if n % 2 == 0 else WHITE for n in range(4096 + 1))


def _seat_rules(
    ruleset: Ruleset, state: WalkState | None
) -> tuple[tuple[tuple[int, Ruleset], ...], list[Finding]]:
    """From which move which rules apply, as the seats hold the colours (seat-bound rules)."""
    seat = restricted_seat(ruleset)
    if seat is None:
        return (), []
    known: Holders = ("P1", "P2")
    out: list[tuple[int, Ruleset]] = [(1, rules_for(ruleset, known))]
    for n, holders in state.holder_log if state is not None else ():
        if None in holders:
            continue  # not recorded: the last known holders stay
        known = holders
        rules = rules_for(ruleset, holders)
        if rules is not out[-1][1]:
            out.append((n + 1, rules))
    findings = []
    if state is None or None in state.holders:
        black, white = known
        findings.append(
            Finding(
                "unchecked",
                f"the record does not show who holds which colour after the opening; forbidden "
                f"moves bind seat {seat} and are judged as if {black} holds black and {white} "
                "white",
            )
        )
    return tuple(out), findings


def _leftover_events(ctx: Context, state: WalkState) -> None:
    """Recorded decisions and offers that no step of the protocol explains.  Only those the
    report can list are looked at one by one (``EventIndex.leftover`` is in the report's
    order); the others are counted by code, all at once."""
    index, consumed, found = ctx.events, state.consumed, state.findings
    if not index.leftover or len(consumed) >= len(index.events):
        return
    steps = ctx.protocol.steps
    places = PER_PROTOCOL.get((steps, "places"), lambda: decision_places(steps))
    name = ctx.protocol.name
    allowed = (
        f"{name} allows colour changes only {places}"
        if places
        else f"{name} has no swap or colour choice"
    )
    # the codes of the events looked at (explained, or added below): the others are skipped
    # (counted apart from ``index.codes``, a Counter whose copy cost as much as this loop)
    seen: dict[str, int] = {}
    for i in consumed:
        code = LEFTOVER_CODES.get(index.events[i].kind)
        if code is not None:
            seen[code] = seen.get(code, 0) + 1
    for move, i, code in index.leftover:
        if i in consumed:
            continue
        if not found.takes(move):
            break  # nor any after it: their findings come later in the report
        seen[code] = seen.get(code, 0) + 1
        event = index.events[i]
        found.add(code, None if move < 0 else move, partial(_leftover_finding, ctx, event, allowed))
    for code, count in index.codes.items():
        found.skip(code, count - seen.get(code, 0))


def _leftover_finding(ctx: Context, e: OpeningEvent, allowed: str) -> Finding:
    """The finding of a recorded event that no step of the protocol explains."""
    when = f"after move {e.after}" if e.after > 0 else "before move 1"
    number = e.after if e.after > 0 else None
    rules = ctx.ruleset.name
    if e.kind in ("swap", "choose"):
        return _leftover_decision(ctx, e, allowed, when, number)
    if e.kind == "offers":
        pts = " ".join(p.name for p in e.points)
        return make_finding(
            ctx,
            "offer-invalid",
            f"offers {{{pts}}} {when}: {rules} has no offer step there",
            e.after + 1 if e.after >= 0 else None,
        )
    if e.kind == "declare":
        return make_finding(
            ctx,
            "offer-count",
            f"{e.value} offers declared {when}: {rules} has no declaration there",
            number,
        )
    if e.kind == "reject":
        return make_finding(
            ctx,
            "reject-not-allowed",
            f"the opening is rejected {when}: {rules} allows no rejection there (the stones "
            "are taken off all the same, as the record says)",
            number,
        )
    shown = "-".join(p.name for p in e.points)
    return make_finding(
        ctx,
        "relocation-invalid",
        f"a stone is moved ({shown}) {when}: {rules} allows no moved stone there",
        number,
        e.points[-1] if e.points else None,
    )


def _leftover_decision(
    ctx: Context, e: OpeningEvent, allowed: str, when: str, number: int | None
) -> Finding:
    """The finding of a swap or colour choice that no step explains."""
    if e.after == -1 and e.value and e.kind == "swap":
        text = (
            f"the record's swap flag {e.value} marks a swap, but "
            f"{ctx.protocol.name} has fewer swap opportunities ({allowed})"
        )
        return make_finding(ctx, "swap-not-allowed", text, None)
    what = "a swap" if e.kind == "swap" else f"a colour choice ({e.value})"
    return make_finding(
        ctx, "swap-not-allowed", f"{what} {when}: {allowed} (ruleset {ctx.ruleset.name})", number
    )
