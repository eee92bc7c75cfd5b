"""What a walk through a protocol's steps knows of the record (``Context``) and where it stands
(``WalkState``), and the findings its steps make."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from renju_cli.board import BLACK, WHITE
from renju_cli.coords import Point
from renju_cli.opening.events import EventIndex, move_stones
from renju_cli.opening.findings import CappedFindings
from renju_cli.opening.steps import COLORS, Protocol, Step
from renju_cli.record import Finding, Record

if TYPE_CHECKING:
    from renju_cli.ruleset import Ruleset

Holders = tuple[str | None, str | None]


@dataclass(frozen=True)
class Context:
    """The record walked, under which rules, and what every step asks of it."""

    record: Record
    ruleset: Ruleset
    protocol: Protocol
    points: tuple[Point | None, ...]  # the stone each move placed (None: pass, off-board, taken)
    width: int
    height: int
    center: Point | None
    events: EventIndex
    #: the highest move number a step has asked for (``next_move``): what the check read
    read: list[int] = field(default_factory=lambda: [3])


@dataclass
class WalkState:
    """Where a walk through the steps stands; ``fork`` copies it to try a branch's option."""

    n: int = 0
    evidence: int = 0
    holders: Holders = ("P1", "P2")  # seat holding black, white
    consumed: set[int] = field(default_factory=set)
    findings: CappedFindings = field(default_factory=CappedFindings)
    opportunity: int = 0
    declared: int | None = None
    bounds: tuple[int, int | None] | None = None
    offers: tuple[Point, ...] | None = None
    kept: Point | None = None
    branches: tuple[str, ...] = ()
    ended: bool = False
    order: tuple[int, ...] = ()
    #: moves before the last rejection: stones of the protocol are numbered from here
    base: int = 0
    #: the colour of each move walked (BLACK/WHITE), move 1 first
    colors: tuple[int, ...] = ()
    #: offers not yet kept: (move, colour, points or None when not recorded), first kept first
    pending: tuple[tuple[int, int, tuple[Point, ...] | None], ...] = ()
    #: offers and kept stones by move, when a protocol has several offer steps
    offered: tuple[tuple[int, tuple[Point, ...]], ...] = ()
    kept_moves: tuple[tuple[int, Point], ...] = ()
    #: stones (numbers from ``base``) moved by a ``relocate`` step
    relocated: frozenset[int] = frozenset()
    #: (moves played, holders) each time the holders changed
    holder_log: tuple[tuple[int, Holders], ...] = ()
    #: steps that need a recorded event the record does not have (a rejection, a moved stone):
    #: a path with any is the worst explanation of the record
    misfit: int = 0
    #: the moves of the ``opening-region`` findings so far (a canonical check says no more)
    region_moves: tuple[int | None, ...] = ()

    def add(self, finding: Finding) -> WalkState:
        """Add a finding made already; the state, for the step to return."""
        if finding.code == "opening-region":
            self.region_moves = (*self.region_moves, finding.move)
        self.findings.put(finding)
        return self

    def report(
        self,
        ctx: Context,
        code: str,
        words: Callable[[], str],
        number: int | None,
        point: Point | None = None,
    ) -> None:
        """Add the finding ``make_finding`` makes of ``words()``, worded only if the report can
        list it (the loops over offers and events, which a hostile record makes long)."""
        self.findings.add(
            code, number or None, lambda: make_finding(ctx, code, words(), number, point)
        )

    def fork(self) -> WalkState:
        """A copy to walk apart (a branch's option tried)."""
        # (the fields copied as they are, but for the two containers a walk changes in place;
        # every option tried forks, so no generic copy protocol)
        other = object.__new__(WalkState)
        fields = self.__dict__.copy()
        fields["consumed"] = set(self.consumed)
        fields["findings"] = self.findings.copy()
        other.__dict__ = fields
        return other

    def use(self, event: int, weight: int) -> None:
        """Count a recorded event as explained by the walk."""
        self.consumed.add(event)
        self.evidence += weight

    def set_holders(self, holders: Holders) -> None:
        """Change who holds which colour, remembering from which move."""
        if holders != self.holders:
            self.holder_log = (*self.holder_log, (self.n, holders))
        self.holders = holders

    def score(self) -> tuple[int, int, int, int, tuple[int, ...]]:
        """Smaller is a better explanation: no missing rejection or moved stone, more recorded
        events used, fewer errors, fewer unchecked facts, then the options listed first.  A
        list of offers or a declared count weighs more than a swap flag or a colour choice."""
        found = self.findings
        return (self.misfit, -self.evidence, found.errors, found.unchecked, self.order)


def where(ctx: Context, step: Step) -> str:
    """``step 3 of renju-rif: P1 places black 3 ...``: the rule a finding breaks."""
    return f"step {step.label} of {ctx.ruleset.name}: {step.words()}"


def make_finding(
    ctx: Context, code: str, message: str, number: int | None, point: Point | None = None
) -> Finding:
    """A finding of move ``number`` (its line and offset in the file: the move's)."""
    move = ctx.record.moves[number - 1] if number and number <= len(ctx.record.moves) else None
    return Finding(
        code,
        message,
        move=number if number else None,
        point=point.name if point is not None else None,
        line=move.line if move is not None else None,
        offset=move.offset if move is not None else None,
    )


def move_words(state: WalkState, number: int, point: Point) -> str:
    """``move 7 (h9)`` and, after a rejected opening, which stone of the new opening it is."""
    if not state.base:
        return f"move {number} ({point.name})"
    return f"move {number} ({point.name}, stone {number - state.base} of the new opening)"


def no_center(ctx: Context, step: Step, number: int) -> Finding:
    """The finding of a region step on a board without a single centre."""
    return make_finding(
        ctx,
        "unchecked",
        f"move {number}: the {ctx.width}x{ctx.height} board has no single centre and the "
        f"ruleset names none (opening.center); the region is not checked ({where(ctx, step)})",
        number,
    )


def stone_color(ctx: Context, step: Step, state: WalkState, number: int) -> int:
    """The colour of the stone a step places: alternation from black since the last restart,
    or the step's own colour in a protocol whose stones do not alternate."""
    if not ctx.protocol.alternate and step.color in COLORS:
        return BLACK if step.color == "black" else WHITE
    if step.kind == "keep" and state.pending:
        return state.pending[0][1]
    return BLACK if (number - state.base) % 2 == 1 else WHITE


def next_move(ctx: Context, step: Step, state: WalkState) -> tuple[WalkState, int, Point | None]:
    """Take the next move for a ``place``, ``keep`` or ``turns`` step; report a pass the
    opening forbids."""
    number = state.n + 1
    if number > ctx.read[0]:
        ctx.read[0] = number
    if number > len(ctx.record.moves):
        state.ended = True
        return state, number, None
    state.n = number
    state.colors = (*state.colors, stone_color(ctx, step, state, number))
    rules = ctx.ruleset
    if ctx.record.moves[number - 1].point is None:
        referee_allows = rules.passes_allowed and number >= rules.pass_not_before
        if referee_allows and number < ctx.protocol.no_pass_before:
            state = state.add(
                make_finding(
                    ctx,
                    "illegal-pass",
                    f"move {number} is a pass; the {ctx.protocol.name} opening allows no pass "
                    f"before move {ctx.protocol.no_pass_before} ({where(ctx, step)})",
                    number,
                )
            )
    return state, number, ctx.points[number - 1]


def layout(
    ctx: Context, state: WalkState, before: int | None = None
) -> dict[Point, tuple[int, int]]:
    """The stones on the board after the moves walked, as the record moved or took them off:
    point -> (move number, colour).  ``before``: of the board events after the last move, only
    those recorded before this event index (Nokhrin: two stones moved after move 5)."""
    stones: dict[Point, tuple[int, int]] = {}
    for n in range(state.n + 1):
        p = ctx.points[n - 1] if n else None
        if p is not None:
            stones[p] = (n, state.colors[n - 1])
        for i, e in ctx.events.board.get(n, ()):
            if n < state.n or before is None or i < before:
                move_stones(stones, e, ctx.width, ctx.height)
    return stones
