"""The ``offer`` and ``keep`` steps: offers for the next move (their count, validity and
symmetry) and the move kept from them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import chain

from renju_cli.board import Board
from renju_cli.coords import Point
from renju_cli.judge import Judgements
from renju_cli.limits import OFFER_JUDGEMENTS as OFFER_JUDGEMENTS
from renju_cli.opening.rules import rules_for
from renju_cli.opening.state import (
    Context,
    WalkState,
    layout,
    make_finding,
    next_move,
    no_center,
    stone_color,
    where,
)
from renju_cli.opening.steps import COLORS, Region, Step
from renju_cli.opening.symmetry import Isometry, symmetric_pairs
from renju_cli.record import Finding

#: How much a recorded list of offers or a declared count weighs against a swap flag (1) when
#: the record's events choose between the options of a branch.
EVIDENCE_DATA = 2

SymmetricPairs = tuple[tuple[tuple[Point, Point], Isometry], ...]


def offer(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """An ``offer`` step: find the recorded offers for the next move and check them."""
    number = state.n + 1 + len(state.pending)  # the move the offers are for
    color = stone_color(ctx, step, state, number)
    found = _recorded(ctx, step, state)
    if not found:
        state.offers = None
        state.pending = (*state.pending, (number, color, None))
        return state.add(
            make_finding(
                ctx,
                "unchecked",
                f"the offers for move {number} are not recorded, so their count, symmetry "
                f"and the kept move are not checked ({where(ctx, step)})",
                number,
            )
        )
    events = ctx.record.opening_events
    points = tuple(chain.from_iterable(events[i].points for i in found))
    for i in found:
        state.use(i, EVIDENCE_DATA)
    state.offers = points
    check = OfferCheck.of(ctx, step, state, color, points)
    state.pending = (*state.pending, (number, color, points))
    state.offered = (*state.offered, (number, points))
    state = _offer_count(ctx, step, state, len(points), number)
    if step.region.kind != "anywhere" and ctx.center is None:
        state.add(no_center(ctx, step, number))
    _report_offers(ctx, step, state, check, number)
    return state


def _recorded(ctx: Context, step: Step, state: WalkState) -> list[int]:
    """The recorded offers (event indices) for the next move that no step explained yet."""
    at = ctx.events.at
    recorded = chain(at.get(("offers", state.n), ()), at.get(("offers", state.n + 1), ()))
    found = [i for i in sorted(recorded) if i not in state.consumed]
    if step.stacked:  # several offer steps before their keeps: one recorded group each
        return found[:1]
    return found


def _report_offers(
    ctx: Context, step: Step, state: WalkState, check: OfferCheck, number: int
) -> None:
    """The findings of offers that cannot be and of symmetric ones, as far as the report can
    list them (the others counted)."""
    findings = state.findings
    for k, (p, problem) in enumerate(check.invalid):
        if not findings.takes(number):  # nor any after it (the same move, later)
            findings.skip("offer-invalid", len(check.invalid) - k)
            break
        words = partial(_offer_problem, ctx, step, p, number, problem)
        state.report(ctx, "offer-invalid", words, number, p)
    for k, (pair, g) in enumerate(check.symmetric):
        if not findings.takes(number):
            findings.skip("offer-symmetric", len(check.symmetric) - k)
            break
        words = partial(_symmetric_offers, ctx, step, check.stones, pair, g, number)
        state.report(ctx, "offer-symmetric", words, number, pair[1])


@dataclass(frozen=True)
class OfferCheck:
    """What an offer step finds of its offers: the stones they are judged among, the offers
    that cannot be (with why), in order, and the symmetric pairs of the others (with the
    symmetry mapping the first onto the second).

    """

    stones: dict[Point, int]
    invalid: tuple[tuple[Point, str], ...]
    symmetric: SymmetricPairs

    @staticmethod
    def of(
        ctx: Context, step: Step, state: WalkState, color: int, points: tuple[Point, ...]
    ) -> OfferCheck:
        """The check of ``points`` offered for a stone of ``color`` by ``step``."""
        stones = {p: c for p, (_, c) in layout(ctx, state).items()}
        for _, c, offered in state.pending:  # offered stones not yet kept stand there too
            stones.update({p: c for p in offered or () if p not in stones})
        invalid, good = _check_offers(ctx, step, state, stones, color, points)
        symmetric = symmetric_pairs(stones, ctx.width, ctx.height, step.symmetry, good)
        return OfferCheck(stones, invalid, symmetric)


def _check_offers(
    ctx: Context,
    step: Step,
    state: WalkState,
    stones: dict[Point, int],
    color: int,
    points: tuple[Point, ...],
) -> tuple[tuple[tuple[Point, str], ...], list[Point]]:
    """The offers that cannot be, with why, and the others."""
    region = step.region
    if region.kind != "anywhere" and ctx.center is None:
        region = Region()  # (the step's finding says why the region is not checked)
    forbidden = None if step.forbidden_allowed else _forbidden_judge(ctx, state, stones, color)
    invalid: list[tuple[Point, str]] = []
    good: list[Point] = []
    offered_once: set[Point] = set()  # ``good`` as a set: an offer is looked up in it
    for p in points:
        problem = _offer_fault(ctx, region, stones, offered_once, forbidden, p)
        if problem is not None:
            invalid.append((p, problem))
        else:
            good.append(p)
            offered_once.add(p)
    return tuple(invalid), good


def _offer_fault(
    ctx: Context,
    region: Region,
    stones: dict[Point, int],
    offered_once: set[Point],
    forbidden: Callable[[Point], tuple[str, ...]] | None,
    p: Point,
) -> str | None:
    """Why the offer ``p`` cannot be, or ``None`` when it can."""
    if not p.on_board(ctx.width, ctx.height):
        return f"is off the {ctx.width}x{ctx.height} board"
    if p in offered_once:
        return "is offered twice"
    if p in stones:
        return "is already taken"
    if ctx.center is not None and not region.contains(p, ctx.center):
        return f"is not {region.words()}"
    if forbidden is not None:
        kinds = forbidden(p)
        if kinds:
            return f"is a forbidden point ({', '.join(kinds)})"
    return None


def _offer_problem(ctx: Context, step: Step, p: Point, number: int, problem: str) -> str:
    return f"offer {p.name} for move {number} {problem} ({where(ctx, step)})"


def _forbidden_judge(
    ctx: Context, state: WalkState, stones: dict[Point, int], stone: int
) -> Callable[[Point], tuple[str, ...]] | None:
    """How the judge sees an offer of ``stone`` (as if played among ``stones``): its forbidden
    kinds by point, on one board for all the offers of a step; ``None`` when none can be."""
    rules = rules_for(ctx.ruleset, state.holders)
    own = sum(1 for s in stones.values() if s == stone)
    if own < 4 or not rules.forbidden_kinds(COLORS[stone - 1]):
        # every forbidden shape (two threes, two fours, six in a row) needs 4 stones besides p
        return None
    board = Board(ctx.width, ctx.height)
    for q, s in stones.items():
        board.place(board.index(q), s)
    judge = rules.judge()
    # Within a bound of their own, from a fresh memo (the answer depends on the offers alone):
    # offers stand on the board while others are judged, and a ruleset of two offer steps
    # could fill it with columns of stones whose double-threes recurse down the columns.  An
    # offer whose threes need more is taken as not a double-three; real offers (a few stones
    # on the board) need none or one or two.
    judge.forget()
    bound = Judgements(OFFER_JUDGEMENTS)
    return lambda p: judge.bounded_kinds(board, board.index(p), stone, bound)[0]


def _offer_count(ctx: Context, step: Step, state: WalkState, got: int, number: int) -> WalkState:
    expected = step.count if step.count is not None else state.declared
    if expected is None:
        return _offer_bounds(ctx, step, state, got, number)
    if got == expected:
        return state
    said = "declared " if step.count is None else ""
    return state.add(
        make_finding(
            ctx,
            "offer-count",
            f"{got} offer(s) recorded for move {number}, {expected} {said}required "
            f"({where(ctx, step)})",
            number,
        )
    )


def _offer_bounds(ctx: Context, step: Step, state: WalkState, got: int, number: int) -> WalkState:
    """The number of offers against the declared bounds, when the count is not recorded."""
    low, high = state.bounds or (1, None)
    if got < low or (high is not None and got > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        return state.add(
            make_finding(
                ctx,
                "offer-count",
                f"{got} offer(s) recorded for move {number}; the declared number must be "
                f"{bound} ({where(ctx, step)})",
                number,
            )
        )
    return state.add(
        make_finding(
            ctx,
            "unchecked",
            f"the declared number of offers is not recorded; only its bounds were checked "
            f"against the {got} offer(s) for move {number} ({where(ctx, step)})",
            number,
        )
    )


def _symmetric_offers(
    ctx: Context,
    step: Step,
    stones: dict[Point, int],
    pair: tuple[Point, Point],
    g: Isometry,
    number: int,
) -> str:
    p, q = pair
    # (after a rejection the board may be empty: its own symmetries are what maps it, and an
    # offer is the point the words of a mirror's axis go through)
    near = next(iter(stones), p)
    what = f"the {len(stones)} stones onto themselves" if stones else "the empty board onto itself"
    return (
        f"offers {p.name} and {q.name} for move {number} are symmetric: "
        f"{g.words(near)} maps {what} and {p.name} onto {q.name} ({where(ctx, step)})"
    )


def keep(ctx: Context, step: Step, state: WalkState) -> WalkState:
    """A ``keep`` step: the next move must be one of the offers for it."""
    target = state.pending[0] if state.pending else None
    state, number, point = next_move(ctx, step, state)
    state.pending = state.pending[1:]
    offers = target[2] if target is not None else None
    if state.ended or offers is None:
        return state
    played = ctx.record.moves[number - 1].point
    if played is None or played not in offers:
        return state.add(_not_offered(ctx, step, number, played, offers))
    state.kept = point
    if point is not None:
        state.kept_moves = (*state.kept_moves, (number, point))
    return state


def _not_offered(
    ctx: Context, step: Step, number: int, played: Point | None, offers: tuple[Point, ...]
) -> Finding:
    """The finding of a kept move that is none of the offers."""
    shown = played.name if played is not None else "a pass"
    return make_finding(
        ctx,
        "kept-not-offered",
        f"move {number} ({shown}) is not one of the offers "
        f"{' '.join(offer_names(offers))} ({where(ctx, step)})",
        number,
        played,
    )


def offer_names(points: tuple[Point, ...]) -> list[str]:
    """The names of offered points."""
    return [p.name for p in points]
