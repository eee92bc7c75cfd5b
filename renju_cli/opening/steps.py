"""A compiled opening protocol: its steps, in plain words too.

``compiler`` builds a ``Protocol`` from a ruleset's ``opening`` mapping; the check walks its
steps (``walk``).  Each step kind is documented in ``docs/openings.md``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from renju_cli.coords import Point
from renju_cli.opening.canonical import chebyshev

COLORS = ("black", "white")
SEATS = ("P1", "P2")


class ProtocolError(ValueError):
    """An ``opening`` mapping the engine cannot use (the schema cannot see every mistake)."""


@dataclass(frozen=True)
class Region:
    """``anywhere``, or the central k x k square, or the points outside it."""

    kind: str = "anywhere"
    size: int = 0

    def contains(self, p: Point, c: Point) -> bool:
        """Whether ``p`` is in the region of a board of centre ``c``."""
        if self.kind == "anywhere":
            return True
        inside = chebyshev(p, c) <= (self.size - 1) // 2
        return inside if self.kind == "central" else not inside

    def words(self) -> str:
        """``in the central 5x5``, ``at the centre``, ``anywhere``."""
        if self.kind == "anywhere":
            return "anywhere"
        if self.kind == "central":
            return "at the centre" if self.size == 1 else f"in the central {self.size}x{self.size}"
        return f"outside the central {self.size}x{self.size}"


@dataclass(frozen=True)
class Step:
    """One compiled step; ``label`` numbers it for messages (``3``, ``5b.1``)."""

    kind: str
    label: str
    by: str | None = None
    move: int | None = None
    color: str | None = None
    region: Region = Region()
    canonical: int = 0  # 26: stones 1-3 one of the 26 openings; 52: stone 3 in the 7x7
    take: str | None = None
    low: int = 1
    high: int | None = None
    count: int | None = None  # None: the declared count
    symmetry: str = "pattern"
    forbidden_allowed: bool = False
    options: tuple[Option, ...] = ()
    stones: tuple[int, ...] = ()  # relocate, require: the stones (numbered from the restart)
    again: bool = False  # relocate: a stone moved before may be moved again
    black: str | None = None  # reject: the seat that holds black when the opening restarts
    until: int = 0  # turns: the last stone placed in turns
    pair_before: int = 0  # turns: a two-stone turn starts before this stone
    stacked: bool = False  # offer: one of several offer steps before their keeps

    def words(self) -> str:
        """The step in plain words (``P1 places black 3 in the central 5x5``)."""
        by = self.by or (self.color or "the player to move")
        return _WORDS[self.kind](self, by)

    # A branch's options as the walk takes them, worked out once for the compiled step (the
    # same steps are walked for every record, and the run's bound on walk steps counts steps,
    # so a step must not cost more than its work).

    @functools.cached_property
    def chosen(self) -> tuple[tuple[Step, ...], ...]:
        """A branch's options' steps, with its chooser as ``by`` where they name nobody."""
        return tuple(inherit(o.steps, self.by) for o in self.options)

    @functools.cached_property
    def handed_over(self) -> Step:
        """A branch whose choice passes to the other seat (a ``repeat`` option's next round)."""
        return dataclasses.replace(self, by=other(self.by))


def _place_words(s: Step, by: str) -> str:
    if s.move:
        what = f"{s.color or COLORS[(s.move - 1) % 2]} {s.move}"
    else:
        what = f"a {s.color} stone" if s.color else "a stone"
    if s.canonical and s.region.kind == "anywhere":
        return f"{by} places {what}, and {CANONICAL_WORDS[s.canonical]}"
    text = f"{by} places {what} {s.region.words()}"
    if s.canonical:
        text += f", and {CANONICAL_WORDS[s.canonical]}"
    return text


def _swap_words(s: Step, by: str) -> str:
    return f"{by} may swap colours"


def _choose_words(s: Step, by: str) -> str:
    return f"{by} takes {s.take}" if s.take else f"{by} chooses a colour"


def _declare_words(s: Step, by: str) -> str:
    bound = f"{s.low} to {s.high}" if s.high else f"at least {s.low}"
    return f"{by} declares the number of offers, {bound}"


def _offer_words(s: Step, by: str) -> str:
    n = "the declared number of" if s.count is None else str(s.count)
    rules = [f"{by} offers {n} points for {_target(s)} {s.region.words()}"]
    rules.append("all different and empty")
    if not s.forbidden_allowed:
        rules.append("none forbidden")
    if s.symmetry != "none":
        rules.append(f"no two symmetric in the {s.symmetry} frame")
    return ", ".join(rules)


def _target(s: Step) -> str:
    return f"move {s.move}" if s.move else "the next move"


def _keep_words(s: Step, by: str) -> str:
    return f"{by} keeps one of the offers as {_target(s)}"


def _reject_words(s: Step, by: str) -> str:
    black = f"{s.black} placing black" if s.black else f"{by} placing black"
    return (
        f"{by} rejects the opening: every stone is taken off and the opening starts "
        f"again from stone 1, {black}"
    )


def _relocate_words(s: Step, by: str) -> str:
    once = "" if s.again else " not moved before"
    return (
        f"{by} moves one of stones {number_list(s.stones)}{once} to an empty point "
        f"{s.region.words()}"
    )


def _require_words(s: Step, by: str) -> str:
    return f"one of stones {number_list(s.stones)} must be {s.region.words()}"


def _turns_words(s: Step, by: str) -> str:
    return (
        f"until stone {s.until}, the players take turns: the player to move places "
        f"one stone of the colour due or, when the first of them is before stone "
        f"{s.pair_before}, two stones in a row (one black, one white); only after a "
        "two-stone turn may the opponent swap colours"
    )


def _branch_words(s: Step, by: str) -> str:
    names = " or ".join(o.name for o in s.options)
    return f"{by} chooses: {names}"


_WORDS: dict[str, Callable[[Step, str], str]] = {
    "place": _place_words,
    "swap": _swap_words,
    "choose": _choose_words,
    "declare": _declare_words,
    "offer": _offer_words,
    "keep": _keep_words,
    "reject": _reject_words,
    "relocate": _relocate_words,
    "require": _require_words,
    "turns": _turns_words,
    "branch": _branch_words,
}

CANONICAL_WORDS = {
    26: "stones 1-3 must be one of the 26 canonical openings",
    52: "stones 1-3 must be one of the 52 openings (stone 3 in the central 7x7)",
}


def number_list(numbers: Sequence[int]) -> str:
    """``3, 4 or 5``."""
    names = [str(n) for n in numbers]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


@dataclass(frozen=True)
class Option:
    """One alternative of a ``branch``."""

    name: str
    title: str
    steps: tuple[Step, ...]
    repeat: bool = False


@dataclass(frozen=True)
class Protocol:
    """A compiled opening protocol."""

    name: str
    steps: tuple[Step, ...]
    center: Point | None = None
    no_pass_before: int = 1
    params: dict[str, int] = field(default_factory=dict)
    #: ``False``: stones do not alternate in colour in the opening; each ``place`` (and
    #: ``offer``) step's ``color`` is its stone's colour (Samsone: B B W W W B B W)
    alternate: bool = True
    #: how many moves the steps consume at most (``None``: unbounded), worked out once: asked
    #: of every record read and checked
    reach: int | None = field(init=False, compare=False)
    #: where the steps let a colour change, in words (``decision_places``)
    decision_places: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reach", reach(self.steps))
        object.__setattr__(self, "decision_places", decision_places(self.steps))


def reach(steps: tuple[Step, ...]) -> int | None:
    """How many moves the steps consume at most (``None``: unbounded, a repeated branch)."""
    n = 0
    for s in steps:
        moves = _moves(s)
        if moves is None:
            return None
        n += moves
    return max(n, 3)


def _moves(s: Step) -> int | None:
    """How many moves one step consumes at most (``None``: unbounded)."""
    if s.kind in ("place", "keep"):
        return 1
    if s.kind == "turns":
        return s.until  # an upper bound: the turns end at stone ``until`` after a restart
    if s.kind != "branch":
        return 0
    ends = [None if o.repeat else reach(o.steps) for o in s.options]
    if any(e is None for e in ends):
        return None
    return max(e for e in ends if e is not None)


def decision_places(steps: tuple[Step, ...]) -> str:
    """Where the steps let a colour change, in words (``after move 3 (step 4), ...``)."""
    places: list[str] = []

    def walk(steps: tuple[Step, ...], n: int) -> int:
        for s in steps:
            if s.kind in ("place", "keep"):
                n += 1
            elif s.kind in ("swap", "choose"):
                text = f"after move {n} (step {s.label})"
                if text not in places:
                    places.append(text)
            elif s.kind == "turns":
                places.append(
                    f"after a two-stone turn ending at stone 2 to {s.pair_before} (step {s.label})"
                )
                n += s.until
            elif s.kind == "branch":
                n = max(walk(o.steps, n) for o in s.options)
        return n

    walk(steps, 0)
    return ", ".join(places)


def other(by: str | None) -> str | None:
    """The other seat or colour (``P1`` <-> ``P2``, ``black`` <-> ``white``)."""
    swap = {"P1": "P2", "P2": "P1", "black": "white", "white": "black"}
    return swap.get(by or "", by)


def inherit(steps: tuple[Step, ...], by: str | None) -> tuple[Step, ...]:
    """An option's steps with the branch's chooser as ``by`` where they name nobody."""
    if by is None or all(s.by is not None for s in steps):
        return steps
    return tuple(s if s.by is not None else dataclasses.replace(s, by=by) for s in steps)
