"""Recorded opening events that no step explains: a swap or a colour choice where the protocol
has none, offers or a declared count it does not ask for, a rejection or a moved stone it does
not allow, or any of those under a ruleset without a protocol.

Only the findings the report can list are looked at one by one (in the report's order); the
others are counted by code, all at once: a record may hold thousands of such events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING

from renju_cli.opening.events import LEFTOVER_CODES, BoardEvents, EventIndex
from renju_cli.opening.findings import CappedFindings
from renju_cli.opening.state import Context, WalkState, make_finding
from renju_cli.opening.steps import Protocol
from renju_cli.record import Finding, OpeningEvent

if TYPE_CHECKING:
    from renju_cli.ruleset import Ruleset


def leftover_events(ctx: Context, state: WalkState) -> None:
    """The events of the record that no step of the walk explained, as findings."""
    index, consumed, found = ctx.events, state.consumed, state.findings
    if not index.leftover or len(consumed) >= len(index.events):
        return
    allowed = _allowed(ctx.protocol)
    # the codes of the events looked at (explained, or added below): the others are skipped
    seen = _codes_explained(index, consumed)
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


def _allowed(protocol: Protocol) -> str:
    """Where the protocol allows colour changes, in words."""
    if protocol.decision_places:
        return f"{protocol.name} allows colour changes only {protocol.decision_places}"
    return f"{protocol.name} has no swap or colour choice"


def _codes_explained(index: EventIndex, consumed: set[int]) -> dict[str, int]:
    """The leftover codes of the events the walk explained, counted."""
    seen: dict[str, int] = {}
    for i in consumed:
        code = LEFTOVER_CODES.get(index.events[i].kind)
        if code is not None:
            seen[code] = seen.get(code, 0) + 1
    return seen


def _leftover_finding(ctx: Context, e: OpeningEvent, allowed: str) -> Finding:
    """The finding of a recorded event that no step of the protocol explains."""
    when = f"after move {e.after}" if e.after > 0 else "before move 1"
    return _LEFTOVER[e.kind](ctx, e, allowed, when)


def _decision(ctx: Context, e: OpeningEvent, allowed: str, when: str) -> Finding:
    if e.after == -1 and e.value and e.kind == "swap":
        text = (
            f"the record's swap flag {e.value} marks a swap, but "
            f"{ctx.protocol.name} has fewer swap opportunities ({allowed})"
        )
        return make_finding(ctx, "swap-not-allowed", text, None)
    what = "a swap" if e.kind == "swap" else f"a colour choice ({e.value})"
    text = f"{what} {when}: {allowed} (ruleset {ctx.ruleset.name})"
    return make_finding(ctx, "swap-not-allowed", text, _move(e))


def _offers(ctx: Context, e: OpeningEvent, allowed: str, when: str) -> Finding:
    pts = " ".join(p.name for p in e.points)
    return make_finding(
        ctx,
        "offer-invalid",
        f"offers {{{pts}}} {when}: {ctx.ruleset.name} has no offer step there",
        e.after + 1 if e.after >= 0 else None,
    )


def _declare(ctx: Context, e: OpeningEvent, allowed: str, when: str) -> Finding:
    return make_finding(
        ctx,
        "offer-count",
        f"{e.value} offers declared {when}: {ctx.ruleset.name} has no declaration there",
        _move(e),
    )


def _reject(ctx: Context, e: OpeningEvent, allowed: str, when: str) -> Finding:
    return make_finding(
        ctx,
        "reject-not-allowed",
        f"the opening is rejected {when}: {ctx.ruleset.name} allows no rejection there (the "
        "stones are taken off all the same, as the record says)",
        _move(e),
    )


def _relocate(ctx: Context, e: OpeningEvent, allowed: str, when: str) -> Finding:
    shown = "-".join(p.name for p in e.points)
    return make_finding(
        ctx,
        "relocation-invalid",
        f"a stone is moved ({shown}) {when}: {ctx.ruleset.name} allows no moved stone there",
        _move(e),
        e.points[-1] if e.points else None,
    )


def _move(e: OpeningEvent) -> int | None:
    return e.after if e.after > 0 else None


_LEFTOVER: dict[str, Callable[[Context, OpeningEvent, str, str], Finding]] = {
    "swap": _decision,
    "choose": _decision,
    "offers": _offers,
    "declare": _declare,
    "reject": _reject,
    "relocate": _relocate,
}


def events_without_protocol(ruleset: Ruleset, board: BoardEvents, found: CappedFindings) -> None:
    """A rejection or a moved stone under a ruleset without an opening protocol."""
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
