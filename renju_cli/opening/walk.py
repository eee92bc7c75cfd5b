"""The walk: a record's opening against a protocol's steps, one step after another; at a
branch, each option tried and the one that best explains the record kept.

A branch is chosen by the record's evidence: the option that explains the most recorded events
(a list of offers weighs more than a swap flag), then the one with the fewest errors, then the
first listed.  RenjuNet swap flags (``after == -1``, ``value`` = opportunity number) are mapped
to the protocol's swap and choice steps in order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from renju_cli.coords import Point
from renju_cli.limits import MAX_PATHS as MAX_PATHS
from renju_cli.limits import MAX_ROUNDS as MAX_ROUNDS
from renju_cli.limits import MAX_STEPS as MAX_STEPS
from renju_cli.opening.canonical import canonical_fault
from renju_cli.opening.offers import EVIDENCE_DATA, keep, offer
from renju_cli.opening.state import (
    Context,
    Holders,
    WalkState,
    layout,
    make_finding,
    move_words,
    next_move,
    no_center,
    where,
)
from renju_cli.opening.steps import COLORS, SEATS, Step, number_list, other
from renju_cli.record import WARNING, Finding, OpeningEvent


@dataclasses.dataclass
class Budget:
    """What a walk has spent: paths tried and steps applied, and whether options were left
    untried past ``MAX_PATHS`` or ``MAX_STEPS``."""

    paths: int = 0
    steps: int = 0
    cut: bool = False

    def spent(self) -> bool:
        """Whether the walk has tried as many paths or applied as many steps as it may."""
        return self.paths > MAX_PATHS or self.steps > MAX_STEPS


def walk(ctx: Context, steps: tuple[Step, ...], state: WalkState, budget: Budget) -> WalkState:
    """Apply the steps in order; at a branch, try each option and keep the best explanation."""
    budget.paths += 1
    for i, step in enumerate(steps):
        if state.ended:
            return state
        budget.steps += 1
        if step.kind == "branch":
            return _branch(ctx, step, steps[i + 1 :], state, budget)
        state = STEPS[step.kind](ctx, step, state)
    return state


def _branch(
    ctx: Context, step: Step, rest: tuple[Step, ...], state: WalkState, budget: Budget
) -> WalkState:
    best: WalkState | None = None
    best_score: tuple[int, int, int, int, tuple[int, ...]] | None = None
    options = step.options
    last = len(options) - 1
    branches, order = state.branches, state.order
    for j, option in enumerate(options):
        if best is not None and budget.spent():
            budget.cut = True  # (the walk says so)
            break
        # the last option tried walks ``state`` itself: nothing reads it after the branch
        tried = state.fork() if j < last else state
        tried.branches = (*branches, option.name)
        tried.order = (*order, j)
        if option.repeat:
            sub = _repeat(ctx, step, step.chosen[j], rest, tried, budget)
        else:
            sub = walk(ctx, step.chosen[j] + rest, tried, budget)
        score = sub.score()
        if best_score is None or score < best_score:  # (set with ``best``)
            best, best_score = sub, score
    assert best is not None  # a branch has two options or more
    return best


def _repeat(
    ctx: Context,
    step: Step,
    after: tuple[Step, ...],
    rest: tuple[Step, ...],
    state: WalkState,
    budget: Budget,
) -> WalkState:
    """An option that hands the same choice to the other seat, once it placed something, for
    as long as a recorded decision is left to explain (its stones go anywhere)."""
    start = state.n
    sub = walk(ctx, after, state, budget)
    if (
        sub.n > start
        and not sub.ended
        and len(sub.branches) < MAX_ROUNDS
        and ctx.events.decisions_ahead(sub.n, sub.consumed)
    ):
        return walk(ctx, (step.handed_over, *rest), sub, budget)
    return walk(ctx, rest, sub, budget)


def _place(ctx: Context, step: Step, state: WalkState) -> WalkState:
    state, number, point = next_move(ctx, step, state)
    if state.ended or point is None:
        return state
    if step.region.kind != "anywhere":
        if ctx.center is None:
            return state.add(no_center(ctx, step, number))
        if not step.region.contains(point, ctx.center):
            state = state.add(
                make_finding(
                    ctx,
                    "opening-region",
                    _region_words(ctx, step, state, number, point),
                    number,
                    point,
                )
            )
    if step.canonical and number - state.base >= 3:
        state = _canonical(ctx, step, state)
    return state


def _region_words(ctx: Context, step: Step, state: WalkState, number: int, point: Point) -> str:
    """The message of an ``opening-region`` finding."""
    return f"{move_words(state, number, point)} is not {step.region.words()} ({where(ctx, step)})"


def _canonical(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """Stones 1-3 (since the last restart) must be one of the canonical openings."""
    first = _first_three(ctx, state)
    c = ctx.center
    if first is None or c is None:
        return state
    reach = 3 if step.canonical == 52 else 2
    fault = canonical_fault(first, c, reach)
    if fault is None:
        return state
    k = 2 * reach + 1
    why = {
        1: f"stone 1 is not at the centre {c.name}",
        2: f"stone 2 is not next to the centre {c.name} (central 3x3)",
        3: f"stone 3 is not in the central {k}x{k} around {c.name}",
    }[fault]
    number, point = state.base + fault, first[fault - 1]
    which = "a canonical opening" if step.canonical == 26 else "one of the 52 openings"
    return state.add(
        make_finding(
            ctx,
            "opening-not-canonical",
            f"{move_words(state, number, point)}: stones 1-3 "
            f"({' '.join(p.name for p in first)}) are not {which}: {why} ({where(ctx, step)})",
            number,
            point,
        )
    )


def _first_three(ctx: Context, state: WalkState) -> list[Point] | None:
    """Stones 1-3 since the last restart, when a canonical check has something to say."""
    base = state.base
    stones = ctx.points[base : base + 3]
    if any(p is None for p in stones):
        return None  # passes and impossible stones are findings of their own
    if any(base < (move or 9) <= base + 3 for move in state.region_moves):
        return None  # the region finding already says why
    return [p for p in stones if p is not None]


def _decision(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """A ``swap`` or ``choose`` step: find the recorded decision, if any, and apply it."""
    opportunity = state.opportunity + 1
    state.opportunity = opportunity
    index, consumed = ctx.events, state.consumed
    # recorded after the moves walked, or a swap flag numbering this opportunity
    found = index.earliest(
        (index.decisions.get(state.n, ()), index.flags.get(str(opportunity), ())), consumed
    )
    if found is None:  # a swap recorded without its place (SGF SW on the root)
        found = index.first(index.flags.get("", ()), consumed)
    if found is None:  # not recorded: who holds which colour is unknown from here on
        state.set_holders((None, None))
        return state
    event = ctx.record.opening_events[found]
    seat = _seat(step.by, state)
    holders = _decide(event, seat, state.holders)
    if step.take is not None and not _takes(step.take, event, seat, holders):
        # not the option the record took: leave the event for another one
        state.set_holders((None, None))
        return state
    state.set_holders(holders)
    state.use(found, 1)
    return state


def _takes(take: str, event: OpeningEvent, seat: str | None, holders: Holders) -> bool:
    """Whether a recorded decision is the option that takes colour ``take``."""
    if event.kind == "choose":
        return event.value == take
    # a swap flag: did the chooser end up with the colour of this option?
    taken = holders[COLORS.index(take)]
    return seat is None or taken is None or taken == seat


def _seat(by: str | None, state: WalkState) -> str | None:
    if by in SEATS:
        return by
    if by in COLORS:
        return state.holders[COLORS.index(by)]
    return None


def _decide(event: OpeningEvent, seat: str | None, holders: Holders) -> Holders:
    black, white = holders
    if event.kind == "swap":
        return (white, black)
    if event.kind == "no-swap":
        return holders
    if seat is None or event.value not in COLORS:
        return (None, None)
    opponent = SEATS[1 - SEATS.index(seat)]
    return (seat, opponent) if event.value == "black" else (opponent, seat)


def _declare(ctx: Context, step: Step, state: WalkState) -> WalkState:
    state.bounds = (step.low, step.high)
    at = ctx.events.at
    # recorded at no place, or next to the moves walked
    places = sorted({-1, state.n - 1, state.n, state.n + 1})
    i = ctx.events.earliest([at.get(("declare", a), ()) for a in places], state.consumed)
    if i is None:
        return state
    e = ctx.record.opening_events[i]
    state.use(i, EVIDENCE_DATA)
    n = _number(e.value)
    if n is None:
        return state.add(
            make_finding(
                ctx,
                "offer-count",
                f"the declared number of offers {e.value!r} is not a number ({where(ctx, step)})",
                state.n or None,
            )
        )
    state.declared = n
    if n < step.low or (step.high is not None and n > step.high):
        state = state.add(
            make_finding(
                ctx,
                "offer-count",
                f"{n} offers declared with move {state.n}, outside the bounds ({where(ctx, step)})",
                state.n or None,
            )
        )
    return state


def _number(value: str | None) -> int | None:
    """A declared number of offers as written (``None``: no number)."""
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _find_event(ctx: Context, state: WalkState, kind: str) -> int | None:
    """The first unexplained event of ``kind`` recorded after the moves walked so far."""
    for i, e in ctx.events.board.get(state.n, ()):
        if i not in state.consumed and e.kind == kind:
            return i
    return None


def _misfit(ctx: Context, step: Step, state: WalkState, what: str) -> WalkState:
    """A step that needs a recorded event the record does not have: the walk stops here.  In a
    branch another option explains the record better; if none does, the report says so."""
    state.misfit += 1
    state.ended = True
    when = f"after move {state.n}" if state.n else "before move 1"
    return state.add(
        Finding(
            "unchecked",
            f"the record shows no {what} {when}, where {where(ctx, step)}; the opening is "
            "not checked from here",
            severity=WARNING,
            move=state.n or None,
        )
    )


def _reject(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """The opening is rejected: every stone is taken off and the steps after this one number
    their stones from 1 again; ``black`` (the rejecting seat by default) holds black."""
    found = _find_event(ctx, state, "reject")
    if found is None:  # the record did not reject here: this is not the path it took
        return _misfit(ctx, step, state, "rejection (reject)")
    state.use(found, EVIDENCE_DATA)
    seat = _seat(step.black, state)
    state.set_holders((seat, other(seat)) if seat in SEATS else (None, None))
    state.base = state.n
    state.pending, state.offers, state.kept = (), None, None
    state.declared, state.bounds, state.relocated = None, None, frozenset()
    return state


def _relocate(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """A stone of the opening is moved to another point (Nokhrin).  The record writes it as
    ``from-to`` after the last stone."""
    found = _find_event(ctx, state, "relocate")
    if found is None:
        return _misfit(ctx, step, state, "moved stone (from-to)")
    state.use(found, EVIDENCE_DATA)
    event = ctx.record.opening_events[found]
    source = event.points[0] if event.points else None
    target = event.points[1] if len(event.points) > 1 else None
    stones = layout(ctx, state, before=found)
    number = stones[source][0] - state.base if source in stones else None
    problem = _relocation_fault(ctx, step, state, stones, source, target, number)
    if number is not None:
        state.relocated = state.relocated | {number}
    if problem is None:
        return state
    shown = f"{source.name}-{target.name}" if source and target else "the moved stone"
    return state.add(
        make_finding(
            ctx,
            "relocation-invalid",
            f"{shown} after move {state.n} {problem} ({where(ctx, step)})",
            state.n or None,
            target,
        )
    )


def _relocation_fault(
    ctx: Context,
    step: Step,
    state: WalkState,
    stones: dict[Point, tuple[int, int]],
    source: Point | None,
    target: Point | None,
    number: int | None,
) -> str | None:
    """Why a stone cannot move from ``source`` (stone ``number``) to ``target``, if it cannot."""
    if source is None or target is None:
        return "does not name two points"
    return _stone_fault(step, state, source, number) or _target_fault(
        ctx, step, stones, source, target
    )


def _stone_fault(step: Step, state: WalkState, source: Point, number: int | None) -> str | None:
    """Why the stone on ``source`` may not be moved, if it may not."""
    if number is None:
        return f"moves no stone: {source.name} is empty"
    if number not in step.stones:
        return f"moves stone {number} ({source.name}); only stones {number_list(step.stones)}"
    if number in state.relocated and not step.again:
        return f"moves stone {number} ({source.name}) a second time"
    return None


def _target_fault(
    ctx: Context, step: Step, stones: dict[Point, tuple[int, int]], source: Point, target: Point
) -> str | None:
    """Why a stone may not be moved to ``target``, if it may not."""
    if not target.on_board(ctx.width, ctx.height):
        return f"moves {source.name} off the {ctx.width}x{ctx.height} board"
    if target in stones:
        return f"moves {source.name} onto {target.name}, which is taken"
    if ctx.center is not None and not step.region.contains(target, ctx.center):
        return f"moves {source.name} to {target.name}, which is not {step.region.words()}"
    return None


def _require(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """At least one of the listed stones stands in the region (CCTsai: a black at the centre)."""
    if not step.stones:
        return state
    if ctx.center is None:
        return state.add(no_center(ctx, step, state.n))
    listed = _standing(ctx, state, step.stones)
    if any(p is not None and step.region.contains(p, ctx.center) for p in listed):
        return state
    last = state.base + max(step.stones)
    if last > state.n:
        return state  # the record ended before those stones
    return state.add(_none_standing(ctx, step, listed, last))


def _none_standing(ctx: Context, step: Step, listed: list[Point | None], last: int) -> Finding:
    """The finding of a ``require`` step none of whose stones stands in its region."""
    shown = ", ".join(p.name for p in listed if p is not None) or "none on the board"
    return make_finding(
        ctx,
        "opening-region",
        f"none of stones {number_list(step.stones)} ({shown}) is {step.region.words()} "
        f"({where(ctx, step)})",
        last,
        ctx.points[last - 1],
    )


def _standing(ctx: Context, state: WalkState, stones: tuple[int, ...]) -> list[Point | None]:
    """Where the stones of these numbers (from ``state.base``) stand after the moves walked,
    ``None`` for one not on the board.  Without board events a stone stays where its move put
    it (``ctx.points`` places a point once): looked up there, with no layout of the board (a
    protocol may have many ``require`` steps)."""
    base, n = state.base, state.n
    if ctx.events.board:
        numbers = {k - base: p for p, (k, _) in layout(ctx, state).items()}
        return [numbers.get(k) for k in stones]
    points = ctx.points
    return [points[base + k - 1] if 0 < base + k <= n else None for k in stones]


def _turns(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """Turns of one or two stones up to stone ``until`` (Lianhuan).  A swap is possible only
    after a two-stone turn, so a recorded swap after stone k says stones k-1 and k were one turn:
    k-1 must be a stone of these turns before ``pair_before``, and two turns cannot share a
    stone.  Decisions the turns cannot explain are left for ``swap-not-allowed``."""
    first = state.n + 1
    last_pair_end = state.n
    for _ in range(state.base + step.until - state.n):
        state, number, _point = next_move(ctx, step, state)
        if state.ended:
            return state
        k = number - state.base  # the stone just placed ends a two-stone turn if a swap follows
        at = ctx.events.at
        i = ctx.events.earliest(
            (at.get(("swap", number), ()), at.get(("no-swap", number), ())), state.consumed
        )
        if i is not None and (
            number - 1 >= first and k - 1 < step.pair_before and number - 1 > last_pair_end
        ):
            last_pair_end = number
            state.use(i, 1)
            if ctx.record.opening_events[i].kind == "swap":
                state.set_holders((state.holders[1], state.holders[0]))
    return state


STEPS: dict[str, Callable[[Context, Step, WalkState], WalkState]] = {
    "place": _place,
    "swap": _decision,
    "choose": _decision,
    "declare": _declare,
    "offer": offer,
    "keep": keep,
    "reject": _reject,
    "relocate": _relocate,
    "require": _require,
    "turns": _turns,
}
