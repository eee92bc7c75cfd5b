"""Opening protocols as data, and the 26 canonical renju openings.

A ruleset's ``opening`` mapping is a list of *steps* (``shared/spec/openings.md``,
``docs/notation.md``); this module compiles it into a :class:`Protocol` and checks a record
against it.  No protocol is known by name here: RIF, Taraguchi-N, Swap2 and the others are YAML
files under ``rulesets/``.

The vocabulary (each step is a mapping with one key):

``place``   the next stone: ``move`` number, ``color``, ``by`` (seat ``P1``/``P2`` or the holder of
            ``black``/``white``), ``region`` (``anywhere``, ``{central: k}``, ``{outside: k}``)
            and ``canonical`` (stones 1-3 must be one of the 26 canonical openings);
``swap``    the ``by`` seat may exchange colours;
``choose``  the ``by`` seat chooses its colour (``take``: only that colour, a branch option);
``declare`` the ``by`` seat declares how many offers will follow (``min``/``max``);
``offer``   offers for the next move: ``count`` (a number, ``$param`` or ``declared``), the
            ``symmetry`` frame (``pattern``, ``board``, ``none``); offers may not be forbidden;
``keep``    the next move must be one of the offers;
``branch``  named ``options``, each a list of steps; ``repeat`` hands the same choice to the
            other seat after the option (Super Sakata);
``reject``  the opening is rejected: every stone comes off and the following steps number their
            stones from 1 again, ``black`` (a seat) holding black (Taimla);
``relocate`` one of ``stones`` moves to an empty point of ``region`` (Nokhrin);
``require`` at least one of ``stones`` stands in ``region`` (CCTsai);
``turns``   turns of one or two stones up to stone ``until``, a swap only after two (Lianhuan).

Several offer steps before their keeps take one recorded group each (Lijing); ``canonical: 52``
is the set of 52 openings (stone 3 in the 7x7); ``opening.alternate: false`` gives each stone
its step's colour (Samsone); ``forbidden.restricted_seat`` binds the rules written for black to
a seat (Yunhe Xia, ``rules_for``).  ``check_opening`` returns, besides findings, the ``Course``
the referee follows: colours, rejections and moved stones, and the rules in force per move.
The full vocabulary is documented in ``docs/openings.md``.

Numbers may be ``$name`` references to ``opening.params``, so that ``Taraguchi-N`` is
``extends: taraguchi-10`` plus ``opening: {params: {offers: N}}``.

What a record can show is checked: positions of stones, canonical openings, where swaps and colour
choices happen, offers (count, validity, symmetry) and the kept fifth, passes in the opening.  Who
physically placed a stone is not in any record; ``by`` words the rule and tracks which seat holds
which colour.  Decisions are :class:`~renju_cli.record.OpeningEvent` s; RenjuNet swap flags
(``after == -1``, ``value`` = opportunity number) are mapped to the protocol's swap and choice
steps in order.  What a record does not store (offers, a declared count) is reported as an
``unchecked`` finding instead of being guessed.  A branch is chosen by the record's evidence: the
option that explains the most recorded events (a list of offers weighs more than a swap flag),
then the one with the fewest errors, then the first listed.

Symmetries of the square are named as they map the *recorded* stones onto the table entry:
``identity``, ``rotate-90`` / ``rotate-180`` / ``rotate-270`` (anticlockwise, row 1 at the
bottom), ``mirror-column`` (left-right, in the centre column), ``mirror-row`` (top-bottom),
``mirror-diagonal`` (in the a1-o15 diagonal) and ``mirror-antidiagonal`` (in the a15-o1 one).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import heapq
import json
import operator
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache, partial
from itertools import chain
from pathlib import Path
from typing import Any, TypeVar, cast

from renju_cli.board import BLACK, WHITE, Board
from renju_cli.coords import COLUMNS, Point, center, parse_point
from renju_cli.formats import AfterLast
from renju_cli.judge import Judgements, WalkSteps
from renju_cli.memo import remember
from renju_cli.record import Color, OpeningEvent, Record, same_events
from renju_cli.report import CODES, ERROR, INFO, MAX_FINDINGS, WARNING, Finding
from renju_cli.ruleset import Ruleset

COLORS = ("black", "white")
SEATS = ("P1", "P2")
#: Linear parts (a, b, c, d): (x, y) -> (a*x + b*y, c*x + d*y); y grows upwards.
SYMMETRIES: dict[str, tuple[int, int, int, int]] = {
    "identity": (1, 0, 0, 1),
    "rotate-90": (0, -1, 1, 0),
    "rotate-180": (-1, 0, 0, -1),
    "rotate-270": (0, 1, -1, 0),
    "mirror-column": (-1, 0, 0, 1),
    "mirror-row": (1, 0, 0, -1),
    "mirror-diagonal": (0, 1, 1, 0),
    "mirror-antidiagonal": (0, -1, -1, 0),
}
#: A branch search never walks more paths than this, nor applies more steps in all (guards
#: against hostile rulesets: 2,000 paths of 200 steps each took 1.5 s a record; real records
#: take at most 13 paths and 20 steps; what a run may walk in all is bounded apart, by
#: ``ReadOptions.walk_steps_allowance``).  Past either, each branch takes its first option
#: only, with a warning.
MAX_PATHS = 2000
MAX_STEPS = 20000
#: A protocol has at most this many steps, counted in every option of its branches (shipped
#: protocols: 14 at most; a user's ruleset of 2 kB made 19,900 with YAML aliases, each walk
#: of a record 70 ms).
MAX_PROTOCOL_STEPS = 256
#: How much a recorded list of offers or a declared count weighs against a swap flag (1) when
#: the record's events choose between the options of a branch.
EVIDENCE_DATA = 2
#: A repeated branch (Super Sakata) is followed this many rounds at most: 24 stones added in
#: pairs is far past any game played (a hostile record with a swap recorded at no place made
#: every line of a tree walk 100 rounds, three options each: 4 ms a line).
MAX_ROUNDS = 12

_PARAM = re.compile(r"^\$([a-z][a-z0-9_]*)$")
_DECISIONS = ("swap", "no-swap", "choose")


# -- the 26 canonical openings -------------------------------------------------------------------
@dataclass(frozen=True)
class CanonicalOpening:
    """One of the 26 openings in standard orientation (stone 2 at h9 or i9, offsets from h8)."""

    id: str
    number: int
    type: str
    name: str
    kanji: str
    kana: str
    second: tuple[int, int]
    third: tuple[int, int]
    renjunet_id: int | None


@cache
def canonical_openings() -> tuple[CanonicalOpening, ...]:
    """The table shipped in ``renju_cli/data/openings26.json``."""
    # (the package's directory, as ``importlib.resources.files`` gives it on disk: that import
    # pulls in tempfile and zipfile at start-up, see ``ruleset.shipped_dir``)
    raw = (Path(__file__).parent / "data" / "openings26.json").read_text("utf-8")
    out = []
    for o in json.loads(raw)["openings"]:
        pts = [parse_point(s["point"]) for s in o["stones"]]
        c = pts[0]
        out.append(
            CanonicalOpening(
                id=o["id"],
                number=int(o["number"]),
                type=o["type"],
                name=o["romaji"],
                kanji=o.get("kanji", ""),
                kana=o.get("kana", ""),
                second=(pts[1].x - c.x, pts[1].y - c.y),
                third=(pts[2].x - c.x, pts[2].y - c.y),
                renjunet_id=o.get("renjunet_opening_id"),
            )
        )
    return tuple(out)


@cache
def _by_stones() -> dict[tuple[tuple[int, int], tuple[int, int]], CanonicalOpening]:
    return {(o.second, o.third): o for o in canonical_openings()}


def lookup_opening(text: str) -> CanonicalOpening | None:
    """The opening a declared id names: ``D4``, ``d4``, ``Kagetsu``, ``D4 Kagetsu``, ``花月``."""
    key = " ".join(text.split()).casefold()
    for o in canonical_openings():
        names = {o.id.casefold(), o.name.casefold(), o.kanji, o.kana}
        names.add(f"{o.id} {o.name}".casefold())
        if key in names:
            return o
    return None


@dataclass(frozen=True)
class Identified:
    """A recorded opening named: the table entry and the symmetry mapping the record onto it."""

    opening: CanonicalOpening
    symmetry: str

    def to_json(self) -> dict[str, Any]:
        o = self.opening
        return {"id": o.id, "name": o.name, "symmetry": self.symmetry, "type": o.type}


def _apply(m: tuple[int, int, int, int], v: tuple[int, int]) -> tuple[int, int]:
    a, b, c, d = m
    return (a * v[0] + b * v[1], c * v[0] + d * v[1])


def chebyshev(p: Point, c: Point) -> int:
    """Distance in the sense of the central k x k squares (king moves)."""
    return max(abs(p.x - c.x), abs(p.y - c.y))


def canonical_fault(stones: Sequence[Point], c: Point, reach: int = 2) -> int | None:
    """The first of stones 1-3 that keeps them from being a canonical opening (1-based).

    ``reach`` 2: the 26 openings (stone 3 in the central 5x5); 3: the 52 openings (7x7).
    """
    if stones[0] != c:
        return 1
    if chebyshev(stones[1], c) != 1:
        return 2
    if chebyshev(stones[2], c) > reach or stones[2] in (stones[0], stones[1]):
        return 3
    return None


def identify(stones: Sequence[Point], c: Point) -> Identified | None:
    """Name a canonical opening (stones 1-3 about the centre ``c``), or ``None``."""
    if len(stones) < 3 or canonical_fault(stones, c) is not None:
        return None
    o2 = (stones[1].x - c.x, stones[1].y - c.y)
    o3 = (stones[2].x - c.x, stones[2].y - c.y)
    table = _by_stones()
    for name, m in SYMMETRIES.items():
        entry = table.get((_apply(m, o2), _apply(m, o3)))
        if entry is not None:
            return Identified(entry, name)
    return None  # unreachable with a complete table: the 26 classes cover all 184 openings


# -- symmetries of a position (for offers) ---------------------------------------------------------
@dataclass(frozen=True)
class Isometry:
    """``p -> L p + t`` with ``L`` one of ``SYMMETRIES``: a symmetry of some stones."""

    kind: str
    tx: int
    ty: int

    def __call__(self, p: Point) -> Point:
        x, y = _apply(SYMMETRIES[self.kind], (p.x, p.y))
        return Point(x + self.tx, y + self.ty)

    def words(self, near: Point) -> str:
        """``a mirror in column h``, ``a half turn about i9``; ``near`` is a stone it maps."""
        k, tx, ty = self.kind, self.tx, self.ty
        if k == "mirror-column":
            return f"a mirror in {_line_name(Fraction(tx, 2), 'column')}"
        if k == "mirror-row":
            return f"a mirror in {_line_name(Fraction(ty, 2), 'row')}"
        if k in ("mirror-diagonal", "mirror-antidiagonal"):
            # the midpoint of a stone and its image is on the axis; step along it to a point
            image = self(near)
            x2, y2 = near.x + image.x, near.y + image.y
            if x2 % 2:
                x2, y2 = x2 + 1, y2 + (1 if k == "mirror-diagonal" else -1)
            axis = "diagonal" if k == "mirror-diagonal" else "anti-diagonal"
            return f"a mirror in the {axis} through {Point(x2 // 2, y2 // 2).name}"
        # rotations: the fixed point solves p = L p + t
        a, b, c, d = SYMMETRIES[k]
        det = (1 - a) * (1 - d) - b * c
        px = Fraction((1 - d) * tx + b * ty, det)
        py = Fraction(c * tx + (1 - a) * ty, det)
        turn = "a half turn" if k == "rotate-180" else "a quarter turn"
        return f"{turn} about {_point_name(px, py)}"


def _line_name(v: Fraction, what: str) -> str:
    if v.denominator == 1:
        n = int(v)
        return f"column {COLUMNS[n]}" if what == "column" else f"row {n + 1}"
    lo = int(v - Fraction(1, 2))
    if what == "column":
        return f"the line between columns {COLUMNS[lo]} and {COLUMNS[lo + 1]}"
    return f"the line between rows {lo + 1} and {lo + 2}"


def _point_name(x: Fraction, y: Fraction) -> str:
    if x.denominator == 1 and y.denominator == 1:
        return Point(int(x), int(y)).name
    lo = Point(int(x - Fraction(x.denominator - 1, 2)), int(y - Fraction(y.denominator - 1, 2)))
    hi = Point(int(x + Fraction(x.denominator - 1, 2)), int(y + Fraction(y.denominator - 1, 2)))
    return f"the midpoint of {lo.name} and {hi.name}"


def stone_symmetries(
    stones: dict[Point, int], width: int, height: int, frame: str
) -> list[Isometry]:
    """Every symmetry other than the identity mapping the stones onto themselves, colour by colour.

    ``frame`` ``pattern`` admits a symmetry about any point; ``board`` only those that also map
    the board onto itself (for a square board: about its centre).
    """
    if frame == "none":
        return []
    black = frozenset((p.x, p.y) for p, s in stones.items() if s == BLACK)
    white = frozenset((p.x, p.y) for p, s in stones.items() if s != BLACK)
    return list(_symmetries(black, white, width, height, frame == "board"))


@lru_cache(maxsize=4096)
def _symmetries(
    black: frozenset[tuple[int, int]],
    white: frozenset[tuple[int, int]],
    width: int,
    height: int,
    board_only: bool,
) -> tuple[Isometry, ...]:
    # cached: a database repeats the same few thousand opening positions
    corners = {(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)}
    anchors = black or white
    out = []
    for kind, (a, b, c, d) in SYMMETRIES.items():
        if not anchors:  # no stones: the symmetries of the board itself
            candidates = corners
        else:  # the anchor must land on a stone of its colour
            x0, y0 = min(anchors)
            ax, ay = a * x0 + b * y0, c * x0 + d * y0
            candidates = {(x - ax, y - ay) for x, y in anchors}
        for tx, ty in sorted(candidates):
            if kind == "identity" and (tx, ty) == (0, 0):
                continue
            if not all((a * x + b * y + tx, c * x + d * y + ty) in black for x, y in black):
                continue
            if not all((a * x + b * y + tx, c * x + d * y + ty) in white for x, y in white):
                continue
            image = {(a * x + b * y + tx, c * x + d * y + ty) for x, y in corners}
            if (board_only or not anchors) and image != corners:
                continue
            out.append(Isometry(kind, tx, ty))
    return tuple(out)


# -- the protocol --------------------------------------------------------------------------------
class ProtocolError(ValueError):
    """An ``opening`` mapping the engine cannot use (the schema cannot see every mistake)."""


@dataclass(frozen=True)
class Region:
    """``anywhere``, or the central k x k square, or the points outside it."""

    kind: str = "anywhere"
    size: int = 0

    def contains(self, p: Point, c: Point) -> bool:
        if self.kind == "anywhere":
            return True
        inside = chebyshev(p, c) <= (self.size - 1) // 2
        return inside if self.kind == "central" else not inside

    def words(self) -> str:
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
        if self.kind == "place":
            if self.move:
                what = f"{self.color or COLORS[(self.move - 1) % 2]} {self.move}"
            else:
                what = f"a {self.color} stone" if self.color else "a stone"
            if self.canonical and self.region.kind == "anywhere":
                return f"{by} places {what}, and {_CANONICAL_WORDS[self.canonical]}"
            text = f"{by} places {what} {self.region.words()}"
            if self.canonical:
                text += f", and {_CANONICAL_WORDS[self.canonical]}"
            return text
        if self.kind == "swap":
            return f"{by} may swap colours"
        if self.kind == "choose":
            return f"{by} takes {self.take}" if self.take else f"{by} chooses a colour"
        if self.kind == "declare":
            bound = f"{self.low} to {self.high}" if self.high else f"at least {self.low}"
            return f"{by} declares the number of offers, {bound}"
        if self.kind == "offer":
            n = "the declared number of" if self.count is None else str(self.count)
            target = f"move {self.move}" if self.move else "the next move"
            rules = [f"{by} offers {n} points for {target} {self.region.words()}"]
            rules.append("all different and empty")
            if not self.forbidden_allowed:
                rules.append("none forbidden")
            if self.symmetry != "none":
                rules.append(f"no two symmetric in the {self.symmetry} frame")
            return ", ".join(rules)
        if self.kind == "keep":
            target = f"move {self.move}" if self.move else "the next move"
            return f"{by} keeps one of the offers as {target}"
        if self.kind == "reject":
            black = f"{self.black} placing black" if self.black else f"{by} placing black"
            return (
                f"{by} rejects the opening: every stone is taken off and the opening starts "
                f"again from stone 1, {black}"
            )
        if self.kind == "relocate":
            which = _number_list(self.stones)
            once = "" if self.again else " not moved before"
            return f"{by} moves one of stones {which}{once} to an empty point {self.region.words()}"
        if self.kind == "require":
            return f"one of stones {_number_list(self.stones)} must be {self.region.words()}"
        if self.kind == "turns":
            return (
                f"until stone {self.until}, the players take turns: the player to move places "
                f"one stone of the colour due or, when the first of them is before stone "
                f"{self.pair_before}, two stones in a row (one black, one white); only after a "
                "two-stone turn may the opponent swap colours"
            )
        names = " or ".join(o.name for o in self.options)
        return f"{by} chooses: {names}"


_CANONICAL_WORDS = {
    26: "stones 1-3 must be one of the 26 canonical openings",
    52: "stones 1-3 must be one of the 52 openings (stone 3 in the central 7x7)",
}


def _number_list(numbers: Sequence[int]) -> str:
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
    #: how many moves the steps consume at most (``_reach``; ``None``: unbounded), worked out
    #: once: asked of every record read and checked
    reach: int | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reach", _reach(self.steps))


def compile_protocol(opening: dict[str, Any], unnamed: str = "unnamed") -> Protocol:
    """Compile a ruleset's ``opening`` mapping (already schema-valid) into a ``Protocol``;
    ``unnamed``: its name when the mapping gives none (the ruleset's: messages say "the NAME
    opening protocol", which read "the opening protocol opening protocol" by default)."""
    params = {str(k): int(v) for k, v in (opening.get("params") or {}).items()}
    frame = str(opening.get("symmetry", "pattern"))

    def number(value: Any, what: str) -> int:
        if isinstance(value, str):
            m = _PARAM.match(value)
            if m is None or m.group(1) not in params:
                raise ProtocolError(f"{what}: {value!r} names no entry of opening.params")
            return params[m.group(1)]
        return int(value)

    def region(raw: Any, what: str) -> Region:
        if raw is None or raw == "anywhere":
            return Region()
        if isinstance(raw, dict) and len(raw) == 1:
            kind, size = next(iter(raw.items()))
            k = number(size, f"{what}.region.{kind}")
            if kind in ("central", "outside") and k >= 1 and k % 2 == 1:
                return Region(str(kind), k)
        raise ProtocolError(f"{what}: region must be anywhere, {{central: k}} or {{outside: k}}")

    def steps(raw: Any, prefix: str) -> tuple[Step, ...]:
        out = []
        for i, item in enumerate(raw or [], 1):
            label = f"{prefix}{i}"
            if not isinstance(item, dict) or len(item) != 1:
                raise ProtocolError(f"step {label}: a step is a mapping with one key")
            kind, body = next(iter(item.items()))
            body = body or {}
            what = f"step {label} ({kind})"
            common: dict[str, Any] = {"kind": kind, "label": label, "by": body.get("by")}
            if kind == "place":
                out.append(
                    Step(
                        **common,
                        move=body.get("move"),
                        color=body.get("color"),
                        region=region(body.get("region"), what),
                        canonical=_canonical_set(body.get("canonical", False)),
                    )
                )
            elif kind in ("swap", "choose"):
                out.append(Step(**common, take=body.get("take")))
            elif kind == "declare":
                high = body.get("max")
                out.append(
                    Step(
                        **common,
                        low=number(body.get("min", 1), f"{what}.min"),
                        high=None if high is None else number(high, f"{what}.max"),
                    )
                )
            elif kind == "offer":
                count = body.get("count")
                out.append(
                    Step(
                        **common,
                        move=body.get("move"),
                        color=body.get("color"),
                        count=None if count == "declared" else number(count, f"{what}.count"),
                        symmetry=str(body.get("symmetry", frame)),
                        region=region(body.get("region"), what),
                        forbidden_allowed=bool(body.get("forbidden_allowed", False)),
                    )
                )
            elif kind == "keep":
                out.append(Step(**common, move=body.get("move")))
            elif kind == "reject":
                out.append(Step(**common, black=body.get("black", body.get("by"))))
            elif kind in ("relocate", "require"):
                out.append(
                    Step(
                        **common,
                        stones=tuple(int(n) for n in body.get("stones") or ()),
                        region=region(body.get("region"), what),
                        again=bool(body.get("again", False)),
                    )
                )
            elif kind == "turns":
                until = number(body.get("until"), f"{what}.until")
                pair_before = number(body.get("pair_before", until), f"{what}.pair_before")
                out.append(Step(**common, until=until, pair_before=pair_before))
            elif kind == "branch":
                options = []
                for j, opt in enumerate(body.get("options") or []):
                    letter = chr(ord("a") + j)
                    options.append(
                        Option(
                            name=str(opt.get("name", letter)),
                            title=str(opt.get("title", "")),
                            steps=steps(opt.get("steps"), f"{label}{letter}."),
                            repeat=bool(opt.get("repeat", False)),
                        )
                    )
                if len(options) < 2:
                    raise ProtocolError(f"{what}: a branch needs two options or more")
                out.append(Step(**common, options=tuple(options)))
            else:
                raise ProtocolError(f"step {label}: unknown step {kind!r}")
        return _stack_offers(out)

    raw_center = opening.get("center")
    compiled = steps(opening.get("steps"), "")
    written = _steps_written(compiled)
    if written > MAX_PROTOCOL_STEPS:
        raise ProtocolError(
            f"the protocol has {written} steps, counted in every option of its branches "
            f"(with YAML aliases followed); at most {MAX_PROTOCOL_STEPS}"
        )
    return Protocol(
        name=str(opening.get("name", unnamed)),
        steps=compiled,
        center=parse_point(raw_center) if raw_center else None,
        no_pass_before=int(opening.get("no_pass_before", 1)),
        params=params,
        alternate=bool(opening.get("alternate", True)),
    )


def _steps_written(steps: tuple[Step, ...]) -> int:
    """How many steps ``steps`` hold, those of the options of their branches included."""
    return sum(1 + sum(_steps_written(o.steps) for o in s.options) for s in steps)


def _canonical_set(raw: Any) -> int:
    """``canonical: true`` is the 26 openings; ``26`` and ``52`` name the set."""
    if raw is True:
        return 26
    if raw in (False, None):
        return 0
    if raw in (26, 52):
        return int(raw)
    raise ProtocolError(f"canonical must be true, false, 26 or 52, not {raw!r}")


def _stack_offers(steps: list[Step]) -> tuple[Step, ...]:
    """Mark offer steps that follow one another before their keeps (Lijing: two 4ths, then two
    5ths): each of them takes one recorded group of offers, in order."""
    out = list(steps)
    run: list[int] = []
    for i, s in enumerate([*steps, Step("keep", "")]):
        if s.kind == "offer":
            run.append(i)
        elif s.kind in ("keep", "place", "branch", "turns", "reject"):
            if len(run) > 1:
                for j in run:
                    out[j] = dataclasses.replace(out[j], stacked=True)
            run = []
    return tuple(out)


_PROTOCOLS: dict[int, tuple[dict[str, Any], str, Protocol | ProtocolError]] = {}


def protocol_of(ruleset: Ruleset) -> Protocol | None:
    """The compiled protocol of a ruleset (cached), ``None`` without one.

    Raises ``ProtocolError`` when the ruleset's ``opening`` cannot be used.
    """
    raw = ruleset.opening
    if not raw:
        return None
    hit = _PROTOCOLS.get(id(raw))
    # (rulesets that extend one share its mapping: an unnamed protocol is named after each)
    if hit is None or hit[0] is not raw or hit[1] != ruleset.name:
        compiled: Protocol | ProtocolError
        try:
            compiled = compile_protocol(raw, ruleset.name)
        except ProtocolError as e:
            compiled = e
        hit = remember(_PROTOCOLS, id(raw), (raw, ruleset.name, compiled), 256)
    if isinstance(hit[2], ProtocolError):
        raise hit[2]
    return hit[2]


def lint(protocol: Protocol) -> list[str]:
    """Inconsistencies a schema cannot see: move numbers and colours out of step with the walk."""
    problems: list[str] = []

    def walk(steps: Sequence[Step], n: int, base: int, pending: int) -> tuple[int, int, int]:
        # n: moves so far; base: moves before the last restart (stones are numbered from it);
        # pending: offer steps not yet kept
        for i, s in enumerate(steps):
            if s.kind in ("place", "keep", "offer"):
                number = n + 1 + (pending if s.kind == "offer" else 0)
                stone = number - base
                if s.move is not None and s.move != stone:
                    problems.append(f"step {s.label}: move {s.move}, but it is move {stone}")
                if protocol.alternate:
                    colour = COLORS[(stone - 1) % 2]
                    if s.color is not None and s.color != colour:
                        problems.append(f"step {s.label}: stone {stone} is {colour}, not {s.color}")
                elif s.kind != "keep" and s.color is None:
                    problems.append(
                        f"step {s.label}: stones do not alternate in this opening "
                        "(alternate: false), so the step must name the colour"
                    )
                if s.kind == "offer":
                    pending += 1
                else:
                    n = number
                    pending = max(0, pending - 1) if s.kind == "keep" else pending
            elif s.kind == "turns":
                if s.until <= n - base:
                    problems.append(f"step {s.label}: turns until stone {s.until}, already placed")
                n = base + max(s.until, n - base)
            elif s.kind == "reject":
                base, pending = n, 0
            elif s.kind == "branch":
                ends = sorted({walk(o.steps, n, base, pending) for o in s.options if not o.repeat})
                moves = sorted({e[0] for e in ends})
                if len(moves) > 1 and i + 1 < len(steps):
                    shown = ", ".join(map(str, moves[:-1])) + f" and {moves[-1]}"
                    problems.append(
                        f"step {s.label}: options end at different moves ({shown}) and steps follow"
                    )
                if ends:
                    n, base, pending = ends[-1]
        return n, base, pending

    walk(protocol.steps, 0, 0, 0)
    return problems


# -- checking a record ---------------------------------------------------------------------------
#: Record events that change the stones on the board (the referee applies them too).
BOARD_EVENTS = ("reject", "relocate")


def has_board_events(events: list[OpeningEvent]) -> bool:
    """Whether ``events`` hold a rejection or a moved stone: the events that change the board
    (the referee applies them; their findings name the event's line)."""
    for e in events:  # noqa: SIM110 (no generator: asked once per record)
        if e.kind in BOARD_EVENTS:
            return True
    return False


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


class _Findings:
    """The findings of a check as the report will list them: at most ``MAX_FINDINGS``, the
    first by move (those without one first), then as made; the others are only counted by code
    and severity.  A finding past the cap is never worded (a hostile record offers one point
    4,000 times, and wording each offer's finding cost more than the rest of the check), so
    most are added as ``make``, called only if the finding is kept."""

    __slots__ = ("dropped", "errors", "heap", "made", "unchecked")

    def __init__(self) -> None:
        #: ``(-move, -order, finding)``: the last kept in the report's order on top
        self.heap: list[tuple[int, int, Finding]] = []
        self.made = 0  # findings added so far: the order of the next one
        self.dropped: Counter[tuple[str, str]] | None = None
        #: every finding added, kept or not, as a walk's ``score`` counts them
        self.errors = 0
        self.unchecked = 0

    def copy(self) -> _Findings:
        other = object.__new__(_Findings)  # (every option tried forks: no __init__ to undo)
        other.heap = self.heap[:]
        other.made = self.made
        other.dropped = Counter(self.dropped) if self.dropped else None
        other.errors, other.unchecked = self.errors, self.unchecked
        return other

    def takes(self, move: int | None) -> bool:
        """Whether a finding of ``move`` added now would be kept (it may push out another)."""
        heap = self.heap
        if len(heap) < MAX_FINDINGS:
            return True
        key = -1 if move is None else move  # as the report sorts: one without a move first
        top_key, top_order = -heap[0][0], -heap[0][1]
        return key < top_key or (key == top_key and self.made < top_order)

    def add(
        self, code: str, move: int | None, make: Callable[[], Finding], severity: str = ""
    ) -> None:
        """Add the finding ``make()`` would make (``code``, ``move`` and ``severity`` as it
        will have them), making it only if it is kept."""
        severity = severity or CODES.get(code, ERROR)
        if severity == INFO:
            self.unchecked += 1
        else:
            self.errors += 1
        taken = self.takes(move)
        order = self.made
        self.made += 1
        if not taken:
            self._drop(code, severity, 1)
            return
        entry = (-(-1 if move is None else move), -order, make())
        if len(self.heap) < MAX_FINDINGS:
            heapq.heappush(self.heap, entry)
        else:
            out = heapq.heapreplace(self.heap, entry)[2]
            self._drop(out.code, out.severity, 1)

    def put(self, finding: Finding) -> None:
        """Add a finding made already."""
        self.add(finding.code, finding.move, lambda: finding, finding.severity)

    def skip(self, code: str, count: int, severity: str = "") -> None:
        """Count ``count`` findings of ``code`` that would not be kept (``takes`` said so for
        the first: the others come after it), without making them."""
        if count <= 0:
            return
        severity = severity or CODES.get(code, ERROR)
        if severity == INFO:
            self.unchecked += count
        else:
            self.errors += count
        self.made += count
        self._drop(code, severity, count)

    def _drop(self, code: str, severity: str, count: int) -> None:
        if self.dropped is None:
            self.dropped = Counter()
        self.dropped[code, severity] += count

    def listed(self) -> list[Finding]:
        """The findings kept, in the report's order."""
        return [f for _, _, f in sorted(self.heap, reverse=True)]


#: The finding of a recorded event that no step explains, by the event's kind.
_LEFTOVER_CODES = {
    "swap": "swap-not-allowed",
    "choose": "swap-not-allowed",
    "offers": "offer-invalid",
    "declare": "offer-count",
    "reject": "reject-not-allowed",
    "relocate": "relocation-invalid",
}


class _Events:
    """A record's opening events, looked up by kind and by the moves played before them, so
    that a step finds its event without a pass over all of them (a record may hold thousands).

    Made once per list of events (``of``): the lines of a variation tree share the events of
    its first nodes, and a root of 4,000 ``SW`` values was gone through in every line.
    """

    def __init__(self, events: list[OpeningEvent]) -> None:
        self.events = list(events)  # (a copy: the record's list is its reader's)
        #: rejections and moved stones by the moves played before them (``after`` below 0 as
        #: 0), with their indices, in record order
        self.board: dict[int, list[tuple[int, OpeningEvent]]] = {}
        #: (kind, after) -> indices, in record order
        self.at: dict[tuple[str, int], list[int]] = {}
        #: decisions (swap, no-swap, choose) by ``after``; and of those with ``after`` -1 (no
        #: place recorded), by value ("" for none): RenjuNet's swap flags number opportunities
        self.decisions: dict[int, list[int]] = {}
        self.flags: dict[str, list[int]] = {}
        #: the decisions by ``after``, then index, and their ``after`` values (to find those
        #: still ahead of a walk)
        self.ahead: list[int] = []
        self.ahead_after: list[int] = []
        #: the events whose finding says no step explains them, in the report's order: (the
        #: finding's move or -1, index, code); and their codes counted
        self.leftover: list[tuple[int, int, str]] = []
        self.codes: Counter[str] = Counter()
        # one pass, names bound to locals: a record may hold 4,000 swap flags, and a file
        # hundreds of such records
        at: defaultdict[tuple[str, int], list[int]] = defaultdict(list)
        board: defaultdict[int, list[tuple[int, OpeningEvent]]] = defaultdict(list)
        decisions: defaultdict[int, list[int]] = defaultdict(list)
        flags: defaultdict[str, list[int]] = defaultdict(list)
        leftover = self.leftover
        leftover_code = _LEFTOVER_CODES.get
        for i, e in enumerate(self.events):
            kind, after = e.kind, e.after
            at[kind, after].append(i)
            if kind in _DECISIONS:
                decisions[after].append(i)
                if after == -1:
                    flags[e.value or ""].append(i)
            elif kind in BOARD_EVENTS:
                board[max(after, 0)].append((i, e))
            code = leftover_code(kind)
            if code is not None:
                leftover.append((_leftover_move(e) or -1, i, code))
        # (plain dicts: a lookup of a missing key must not add it)
        self.at, self.board, self.decisions = dict(at), dict(board), dict(decisions)
        self.flags = dict(flags)
        self.codes.update(code for _, _, code in leftover)
        leftover.sort()
        # the decisions by ``after``, then index (each list of ``decisions`` is in index order)
        places = sorted(decisions)
        self.ahead = [i for after in places for i in decisions[after]]
        self.ahead_after = [after for after in places for _ in decisions[after]]

    @staticmethod
    def of(events: list[OpeningEvent]) -> _Events:
        """The index of ``events``: the last one made, when its events are the same, or the
        same but for their lines and hold no rejection or moved stone (only the findings of
        those name an event's line: the games of a collection that each say ``SW[1]``)."""
        global _LAST_EVENTS
        last = _LAST_EVENTS
        # (the lines of a tree hold the same event objects: compared in C, one by one)
        if last is not None and len(last.events) == len(events):
            if last.events == events:
                return last
            if not last.board and all(map(_alike, last.events, events)):
                return last
        # a few events without a rejection or a moved stone: by what they say (the lines of a
        # tree whose leaves each say their own SW[1]..SW[4])
        key = _said(events) if small_events(events) else None
        made = _SAID.get(key) if key is not None else None
        if made is None:
            made = _Events(events)
            if key is not None and not made.board:
                remember(_SAID, key, made, _SAID_ENTRIES)
        _LAST_EVENTS = made
        return made

    def first(self, indices: Sequence[int], consumed: set[int]) -> int | None:
        """The first of ``indices`` that no step has explained yet."""
        for i in indices:
            if i not in consumed:
                return i
        return None

    def earliest(self, lists: Sequence[Sequence[int]], consumed: set[int]) -> int | None:
        """The first event in record order, of any of ``lists``, not explained yet."""
        # (a loop, not generators: every decision step of every option tried asks, and the
        # lists are mostly empty)
        best: int | None = None
        for indices in lists:
            for i in indices:
                if i not in consumed:
                    if best is None or i < best:
                        best = i
                    break
        return best

    def decisions_ahead(self, n: int, consumed: set[int]) -> bool:
        """Whether a decision recorded after move ``n`` or later, or at no place, is not
        explained yet."""
        start = bisect.bisect_left(self.ahead_after, n)
        unplaced = bisect.bisect_left(self.ahead_after, 0)
        ahead = chain(self.ahead[start:], self.ahead[:unplaced])
        return any(i not in consumed for i in ahead)


_LAST_EVENTS: _Events | None = None


def _alike(a: OpeningEvent, b: OpeningEvent) -> bool:
    """Whether two events say the same but for their lines."""
    return a.kind == b.kind and a.after == b.after and a.value == b.value and a.points == b.points


def small_events(events: list[OpeningEvent]) -> bool:
    """Whether ``events`` are few and small enough to be part of a memo's key (``_SAID``, the
    referee's memo of short records): ``SMALL_EVENTS`` at most, of as many points at most (an
    offer may name thousands: a thousand such indexes kept 80 MB), values of ``DECLARED_KEPT``
    characters at most (a memo of a run would keep a long one thousands of times)."""
    if len(events) > SMALL_EVENTS:
        return False
    for e in events:
        if len(e.points) > SMALL_EVENTS or len(e.value or "") > DECLARED_KEPT:
            return False
    return True


def _said(events: list[OpeningEvent]) -> tuple[object, ...]:
    """What ``events`` say, but for their lines (a key of ``_SAID``)."""
    return tuple((e.kind, e.after, e.value, *e.points) for e in events)


#: Indexes of a few events (``small_events``), by what they say; none with a rejection or a
#: moved stone, whose findings name the event's line.  Cleared when full.
_SAID: dict[tuple[object, ...], _Events] = {}
_SAID_ENTRIES = 1024
#: Events of a record (and points of an event) that memos key at most (``small_events``).
SMALL_EVENTS = 8


def _leftover_move(e: OpeningEvent) -> int | None:
    """The move of the finding of an event that no step explains (``None``: none)."""
    if e.kind == "offers":
        return e.after + 1 if e.after >= 0 else None
    if e.kind == "swap" and e.after == -1 and e.value:
        return None
    return e.after if e.after > 0 else None


@dataclass(frozen=True)
class _Context:
    record: Record
    ruleset: Ruleset
    protocol: Protocol
    points: tuple[Point | None, ...]  # the stone each move placed (None: pass, off-board, taken)
    width: int
    height: int
    center: Point | None
    events: _Events
    #: the highest move number a step has asked for (``_next_move``): what the check read
    read: list[int] = field(default_factory=lambda: [3])


@dataclass
class _State:
    """Where a walk through the steps stands; ``fork`` copies it to try a branch's option."""

    n: int = 0
    evidence: int = 0
    holders: tuple[str | None, str | None] = ("P1", "P2")  # seat holding black, white
    consumed: set[int] = field(default_factory=set)
    findings: _Findings = field(default_factory=_Findings)
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
    holder_log: tuple[tuple[int, tuple[str | None, str | None]], ...] = ()
    #: steps that need a recorded event the record does not have (a rejection, a moved stone):
    #: a path with any is the worst explanation of the record
    misfit: int = 0
    #: the moves of the ``opening-region`` findings so far (a canonical check says no more)
    region_moves: tuple[int | None, ...] = ()

    def add(self, finding: Finding) -> _State:
        if finding.code == "opening-region":
            self.region_moves = (*self.region_moves, finding.move)
        self.findings.put(finding)
        return self

    def report(
        self,
        ctx: _Context,
        code: str,
        words: Callable[[], str],
        number: int | None,
        point: Point | None = None,
    ) -> None:
        """Add the finding ``_finding`` makes of ``words()``, worded only if the report can
        list it (the loops over offers and events, which a hostile record makes long)."""
        self.findings.add(code, number or None, lambda: _finding(ctx, code, words(), number, point))

    def fork(self) -> _State:
        # (not copy.copy: its generic protocol cost more than the rest of a short walk)
        other = object.__new__(_State)
        fields = self.__dict__.copy()  # (a copy given whole: cheaper than an update)
        fields["consumed"] = set(self.consumed)
        fields["findings"] = self.findings.copy()
        other.__dict__ = fields
        return other

    def use(self, event: int, weight: int) -> None:
        """Count a recorded event as explained by the walk."""
        self.consumed.add(event)
        self.evidence += weight

    def set_holders(self, holders: tuple[str | None, str | None]) -> None:
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


def check_opening(
    record: Record, ruleset: Ruleset, within: Judgements | None = None
) -> OpeningCheck:
    """Name the record's opening and check it against the ruleset's protocol.  Never raises.

    Records that begin with the same stones and record nothing else, or the same few opening
    events (swaps, offers, declared counts, colour choices: ``_events_key``), get the same
    check (the walk reads no move past the protocol's reach): it is made once and given to
    each with the lines of its own moves.  Opening books, RenLib trees and databases repeat a
    few openings thousands of times, and a walk costs more than the rest of a short record.

    ``within``: the run's bound, whose ``walk_steps`` the walks are charged to; past it, a
    record that would be walked is not (``_not_followed``), and its check is not remembered.
    """
    if record.protocol_not_followed is not None and ruleset.opening and not record.setup:
        # past the file's bound on walks (``batch.bound_walks``): never a remembered check
        # either, which would depend on what this process judged before (``--jobs``)
        protocol = _usable_protocol(ruleset)
        if protocol is not None:
            return _not_followed(record, ruleset, protocol, record.protocol_not_followed)
    steps = within.walk_steps if within is not None else None
    key = _memo_key(record, ruleset)
    if key is None:
        if record.source.variation is None or not ruleset.opening:
            return _walked(record, ruleset, steps)
        # a line of a variation tree: as the line before when it begins with the same stones
        # as far as that line's check read them, with the same events (the tree's root
        # events are the same objects in every line)
        kept = _LAST_LINE.get(record, ruleset)
        if kept is not None:
            return _for_record(kept, record)
        read = [-1]
        check = _walked(record, ruleset, steps, read)
        if read[0] >= 0:
            _LAST_LINE.keep(record, ruleset, read[0], _for_record(check, record))
        return check
    hit = _CHECKED.get(key)
    if hit is not None and hit[0] is ruleset:
        return _for_record(hit[1], record)
    if steps is not None and steps.left <= 0:
        return _walked(record, ruleset, steps)  # (named only: never remembered)
    check = _walked(record, ruleset, steps)
    # kept in containers of its own, the findings shared (nothing changes a finding once
    # made): records that all begin differently (a hostile batch of distinct games) must not
    # pay for a copy each, nor for a second walk of stones seen twice
    remember(
        _CHECKED, key, (ruleset, _with_findings(check, list(check.findings))), _CHECKED_ENTRIES
    )
    return check


#: ``check_opening``'s checks by ``_memo_key``, with the ruleset they were made under (its id
#: is in the key; kept, so that a reused id is never mistaken).  Bounded: cleared when full;
#: room for more than the distinct openings a megabyte may walk (``ReadOptions.max_walks``),
#: so that a file's opening is walked once however far apart its records are (about 1.5 kB a
#: check: 25 MB full).
_CHECKED: dict[tuple[Any, ...], tuple[Ruleset, OpeningCheck]] = {}
_CHECKED_ENTRIES = 16384


def _walked(
    record: Record, ruleset: Ruleset, steps: WalkSteps | None, read: list[int] | None = None
) -> OpeningCheck:
    """``_check_opening``, its walk's steps charged to ``steps``; past them, a record whose
    protocol would be walked is not (``read`` left as it was: nothing to remember)."""
    if steps is None:
        return _check_opening(record, ruleset, read)
    if steps.left <= 0 and ruleset.opening and not record.setup:
        protocol = _usable_protocol(ruleset)
        if protocol is not None:
            steps.cuts += 1  # (never remembered: ``Allowance.cuts``)
            return _not_followed(
                record,
                ruleset,
                protocol,
                f"the records checked before it took the {steps.limit} steps of opening-"
                f"protocol walks (each step applied in each option tried) that a run may "
                f"take{steps.terms}",
            )
    before = steps_taken()
    check = _check_opening(record, ruleset, read)
    steps.left -= steps_taken() - before
    return check


#: ``steps_taken``, per thread.
_STEPS_TAKEN = threading.local()


def steps_taken() -> int:
    """Steps of opening-protocol walks this thread took so far (``_walked`` charges the
    difference a walk makes to the run): a thread's own, so that threads checking records at
    once (a Dask worker's, a library user's pool) are not charged each other's steps (the
    review of stop 29: 73 of 180 small checks in 8 threads were cut by the bound on steps)."""
    taken: int = getattr(_STEPS_TAKEN, "n", 0)
    return taken


def _take_steps(n: int) -> None:
    _STEPS_TAKEN.n = steps_taken() + n


def _memo_key(record: Record, ruleset: Ruleset) -> tuple[Any, ...] | None:
    """What a check of ``record`` under ``ruleset`` depends on, when that is only its first
    stones and its declared opening id, and its opening events when it has a few
    (``_events_key``): no setup, and a protocol that reaches a known number of moves (RenjuNet
    declares the id of every game).  ``None``
    otherwise (and for rulesets without a protocol, whose check is cheaper than the key)."""
    if record.setup or not ruleset.opening:
        return None
    protocol = _usable_protocol(ruleset)
    if protocol is None:
        return None
    if record.opening_events:
        return _events_key(record, ruleset, protocol)
    return _stones_key(record, ruleset, protocol)


#: Records of at most this many opening events, each of at most this many points, have their
#: checks remembered with their events (``_events_key``).
_MEMO_EVENTS = 8
_MEMO_EVENT_POINTS = 8


def _events_key(record: Record, ruleset: Ruleset, protocol: Protocol) -> tuple[Any, ...] | None:
    """``_stones_key`` of a record with a few opening events, and the events (their kind,
    place, value and points: a finding takes its line from a move, never from an event, under
    a protocol).  As without events, the walk reads no stone past the protocol's reach: an
    event after it is only told as not explained, by its own words and move number.  Files of
    swap and offer lines repeat a few openings thousands of times, and each was walked anew.
    ``None`` for a line of a variation tree (``_LastLine`` shares its walks), for many events,
    for a rejection or a moved stone, and for a protocol of no known reach."""
    events = record.opening_events
    if record.source.variation is not None or len(events) > _MEMO_EVENTS:
        return None
    signature = []
    for e in events:
        if len(e.points) > _MEMO_EVENT_POINTS or e.kind in BOARD_EVENTS:
            return None  # (a board event's course holds the event itself, its line too)
        signature.append((e.kind, e.after, e.value, *e.points))
    stones = _stones_key(record, ruleset, protocol)
    return None if stones is None else (*stones, "events", tuple(signature))


def _stones_key(record: Record, ruleset: Ruleset, protocol: Protocol) -> tuple[Any, ...] | None:
    reach = protocol.reach
    if reach is None:
        return None
    declared = _declared(record)
    if declared:  # (checked against stones 1-3: ``_declared_id``)
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


#: Longest declared opening id kept in the keys of remembered checks (and of the referee's
#: memo of short records): ids and names of the 26 canonical openings are short, and a JSON
#: Lines ``opening`` of 64 kB in each record of a run's files held 239 MB of keys and messages
#: (red team 7; 412 MB in the referee's memo, red team 9).
DECLARED_KEPT = 64


def walk_key(record: Record, ruleset: Ruleset) -> Hashable | None:
    """Which records share the walk of ``record``'s opening protocol, as a key for
    ``formats.bound_walks``, which counts the walks a file makes; ``None`` when checking its
    opening walks no protocol (none, a setup).  As ``check_opening`` shares walks:

    - records of the same first stones (and declared id) and no events share one
      anywhere in the file (the memo): their ``_memo_key``;
    - a line of a variation tree shares the walk of the line walked just before it when both
      begin alike as far as the walk read, with the very same events (``_LastLine``):
      ``formats.AfterLast`` of what that compares, with the stones as far as the protocol and
      the events reach (at least what a walk reads);
    - any other record is walked on its own: a key of its own.
    """
    if not ruleset.opening or record.setup:
        return None
    protocol = _usable_protocol(ruleset)
    if protocol is None:
        return None
    events = record.opening_events
    if not events:
        key = _stones_key(record, ruleset, protocol)  # (``_memo_key``'s)
        if key is not None:
            return key
    if record.source.variation is None:
        return (object(),)  # no memo serves it
    reach = protocol.reach
    if reach is not None and events:
        reach = max(reach, max(map(_AFTER, events)) + 2)
    # (``map``, not generators: asked of every record a file reads)
    stones = tuple(map(_POINT, record.moves[:reach]))
    return AfterLast((id(ruleset), record.width, record.height, record.opening_id, stones), events)


_AFTER = operator.attrgetter("after")
_POINT = operator.attrgetter("point")


def _usable_protocol(ruleset: Ruleset) -> Protocol | None:
    try:
        return protocol_of(ruleset)
    except ProtocolError:
        return None


def _not_followed(record: Record, ruleset: Ruleset, protocol: Protocol, why: str) -> OpeningCheck:
    """The check of a record whose protocol is not followed (``why``): its opening named, the
    declared id compared, one finding saying so; the referee still applies its board events
    and seat rules (``_course``), which cost no walk.  (A plain list of findings, in the
    report's order: those without a move, then those of the declared id's move 3; too few to
    cap.)"""
    width = record.width or ruleset.width
    height = record.height or record.width or ruleset.height
    board = _board_events(record.opening_events)
    key: tuple[Any, ...] | None = None
    hit = None
    if not board and not record.setup and len(record.opening_id or "") <= DECLARED_KEPT:
        # what the check depends on then: the first three stones, the declared id, the size
        # (a hostile file's records past the bound on walks, by the ten thousand, begin alike)
        first = tuple(m.point for m in record.moves[:3])
        key = (id(ruleset), why, width, height, record.opening_id, first)
        hit = _NOT_FOLLOWED.get(key)
        if hit is not None and hit[0] is ruleset and hit[1] is not None:
            return _with_findings(hit[1], list(hit[1].findings))
    summary: dict[str, Any] = {"id": None, "name": None, "symmetry": None}
    declared: list[Finding] = []
    c = _board_center(width, height, protocol)
    if c is not None:
        points = _placed_points(record, width, height, 3, board)
        ident = _name_of_first_three(points, c)
        if ident is not None:
            summary.update(ident.to_json())
        declared = _declared_id(record, ident, points)
    summary.update(protocol=protocol.name, black=None, white=None)
    said = _not_followed_finding(protocol.name, why)
    course, seats = _course(record, ruleset, None, board)
    check = OpeningCheck(summary, [said, *seats, *declared], course)
    if key is not None:
        # kept from the second record that begins so on (records that all begin otherwise
        # must not pay for a copy each); its findings name no line (the declared id's are of
        # move 3 without one)
        kept = None if hit is None else _with_findings(check, list(check.findings))
        remember(_NOT_FOLLOWED, key, (ruleset, kept), _CHECKED_ENTRIES)
    return check


def _board_events(events: list[OpeningEvent]) -> dict[int, list[tuple[int, OpeningEvent]]]:
    """``_Events.board`` of ``events``: a few events are first looked at for a rejection or a
    moved stone (records past the bound on walks, by the ten thousand, mostly have none, and
    their index cost more than the rest of their check); many, by the index (the lines of a
    tree share theirs, found in one comparison)."""
    if not events or (len(events) <= SMALL_EVENTS and not has_board_events(events)):
        return {}
    return _Events.of(events).board


#: ``_not_followed`` checks of records without board events or setup, by what they depend on,
#: with the ruleset they were made under (its id is in the key; ``None``: seen once).  Cleared
#: when full.
_NOT_FOLLOWED: dict[tuple[Any, ...], tuple[Ruleset, OpeningCheck | None]] = {}


@functools.lru_cache(maxsize=64)
def _not_followed_finding(protocol: str, why: str) -> Finding:
    """The finding that says a record's protocol is not followed: the same words for every
    record past the bound that cut it (a hostile file's records, by the ten thousand), shared
    (nothing changes a finding once made)."""
    return Finding(
        "unchecked",
        f"the {protocol} opening protocol is not followed for this record: {why}",
        severity=WARNING,
    )


def _for_record(check: OpeningCheck, record: Record) -> OpeningCheck:
    """A copy of a memoized ``check`` for ``record``: its findings with the lines of its own
    moves (a finding of a move has its line; the key holds no opening event, whose line a
    finding could have; a finding already on them is shared), the summary and counts its own
    to change."""
    moves = record.moves
    findings = []
    for f in check.findings:
        line, offset = f.line, f.offset
        if f.move is not None and line is not None:
            # the line of the move, as ``_finding`` gives it: none past the record's end (an
            # event's finding may name a move a shorter line of the tree does not have)
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


class _LastLine:
    """The check of the last line of a variation tree, and what it read: its ruleset, board,
    declared id, events (the objects), setup stones and its first ``read`` stones
    (``_Context.read``, and the board events' moves).

    Kept as one tuple, written and read in one step: threads (a Dask worker's, a library
    user's pool) check lines of other trees at once, and a check must never be handed out
    with another line's stones."""

    _Kept = tuple[
        Ruleset,
        tuple[int | None, int | None, str | None],
        list[OpeningEvent],
        list[tuple[Point, Color]],
        int,
        int,
        list[Point | None],
        OpeningCheck,
    ]

    def __init__(self) -> None:
        self.kept: _LastLine._Kept | None = None

    def get(self, record: Record, ruleset: Ruleset) -> OpeningCheck | None:
        kept = self.kept  # (once: another thread may keep another line meanwhile)
        if kept is None:
            return None
        kept_rules, board, kept_events, setup, read, length, points, check = kept
        moves, events = record.moves, record.opening_events
        if (
            ruleset is not kept_rules
            or record.setup != setup  # (a tree's lines share its root's list: compared in C)
            or (record.width, record.height, record.opening_id) != board
            or not same_events(events, kept_events)
            or min(len(moves), read) != length
        ):
            return None
        # (the moves past those read do not matter: the shorter list ends the loop)
        for move, point in zip(moves, points, strict=False):
            if move.point != point:
                return None
        return check

    def keep(self, record: Record, ruleset: Ruleset, read: int, check: OpeningCheck) -> None:
        moves = record.moves
        self.kept = (
            ruleset,
            (record.width, record.height, record.opening_id),
            list(record.opening_events),
            list(record.setup),
            read,
            min(len(moves), read),
            [m.point for m in moves[:read]],
            check,
        )


_LAST_LINE = _LastLine()


def _check_opening(record: Record, ruleset: Ruleset, read: list[int] | None = None) -> OpeningCheck:
    """``check_opening`` made anew; ``read[0]`` is set to how many of the first moves it read
    when it walked the protocol, or 0 when a setup kept it from walking (only they, the setup
    and the record's events decide it)."""
    width = record.width or ruleset.width
    height = record.height or record.width or ruleset.height
    if (
        not ruleset.opening
        and not _declared(record)
        and restricted_seat(ruleset) is None
        and not (record.opening_events and has_board_events(record.opening_events))
    ):
        # no protocol and nothing recorded about the opening that a ruleset without one
        # judges (decisions and offers are only a protocol's): only its name (a batch of
        # small records must not pay for the walk below, which would find nothing more)
        c = _board_center(width, height, None)
        moves = record.moves
        # (stone 1 off the centre names no opening: nearly every record of a batch of
        # distinct games, which must not pay for placing its first stones to learn that)
        if len(moves) < 3 or record.setup or c is None or moves[0].point != c:
            return OpeningCheck(None, [], None)
        ident = _name_of_first_three(_placed_points(record, width, height, 3, {}), c)
        return OpeningCheck(ident.to_json() if ident is not None else None, [], None)
    found = _Findings()
    try:
        protocol = protocol_of(ruleset)
    except ProtocolError as e:
        protocol = None
        found.put(
            Finding(
                "unchecked",
                f"the opening protocol of ruleset {ruleset.name} cannot be used ({e}); "
                "the opening is not checked",
                severity=WARNING,
            )
        )
    c = _board_center(width, height, protocol)
    events = _Events.of(record.opening_events)
    board_events = events.board
    # only the stones the protocol can reach matter (without one, stones 1-3 name the opening)
    reach = protocol.reach if protocol else 3
    if reach is not None and board_events:
        reach = max(reach, max(board_events) + 1)
    points = _placed_points(record, width, height, reach, board_events)
    summary: dict[str, Any] = {}
    if not record.setup and c is not None:
        ident = _name_of_first_three(points, c)
        if ident is not None:
            summary.update(ident.to_json())
        for finding in _declared_id(record, ident, points):
            found.put(finding)
    state: _State | None = None
    stones_read: int | None = None  # of the first moves, when only they decide the check
    if protocol is not None:
        summary = {"id": None, "name": None, "symmetry": None, **summary}
        summary["protocol"] = protocol.name
        if record.setup:
            found.put(
                Finding(
                    "unchecked",
                    f"the record starts from {len(record.setup)} setup stone(s); the "
                    f"{protocol.name} opening protocol is not checked",
                )
            )
            stones_read = 0  # (the setup and the events decide it)
        else:
            ctx = _Context(record, ruleset, protocol, tuple(points), width, height, c, events)
            budget = [0, 0, 0]  # paths tried, steps applied, whether options were left untried
            try:
                # (a copy: a walk that fails part way leaves the findings made before it)
                state = _walk(ctx, protocol.steps, _State(findings=found.copy()), budget)
            except RecursionError:  # a user's protocol nested beyond reason
                _take_steps(budget[0] + budget[1])
                found.put(
                    Finding(
                        "unchecked",
                        f"the {protocol.name} protocol nests too deeply to be followed; "
                        "the opening is not checked",
                        severity=WARNING,
                    )
                )
            else:
                stones_read = ctx.read[0]
                _take_steps(budget[0] + budget[1])  # (a path tried costs a step)
                found = state.findings
                if budget[2]:
                    found.put(
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
                if state.base and c is not None:  # name the opening played after a rejection
                    ident = _name_of_first_three(points[state.base :], c)
                    summary.update(ident.to_json() if ident else {"id": None, "name": None})
    elif not record.setup:
        _events_without_protocol(record, ruleset, board_events, found)
    if read is not None and stones_read is not None:  # (and the moves of the board events)
        read[0] = (
            max([stones_read, *(n + 1 for n in board_events)]) if board_events else stones_read
        )
    course, more = _course(record, ruleset, state, board_events)
    for finding in more:
        found.put(finding)
    return OpeningCheck(summary or None, found.listed(), course, found.dropped)


def _name_of_first_three(points: Sequence[Point | None], c: Point) -> Identified | None:
    """The opening named by the first three placed stones of ``points``, if they name one."""
    first = [p for p in points[:3] if p is not None]
    if len(first) != 3:
        return None
    # (the lines of a tree begin with the same three stones: the last answer, kept whole in
    # one tuple, as threads may ask at once)
    global _LAST_IDENTIFIED
    last = _LAST_IDENTIFIED
    if last is not None and last[0] == first and last[1] == c:
        return last[2]
    ident = identify(first, c)
    _LAST_IDENTIFIED = (first, c, ident)
    return ident


_LAST_IDENTIFIED: tuple[list[Point], Point, Identified | None] | None = None


def _events_without_protocol(
    record: Record,
    ruleset: Ruleset,
    board_events: dict[int, list[tuple[int, OpeningEvent]]],
    found: _Findings,
) -> None:
    """A rejection or a moved stone under a ruleset without an opening protocol.  Only those
    the report can list are looked at one by one (in the report's order); the others are
    counted by code, all at once (a record may reject after every move)."""
    # (a finding's move is ``e.after or None``, and the report puts ``None`` as -1)
    events = sorted(
        (-1 if e.after == 0 else e.after, i, e)
        for i, e in chain.from_iterable(board_events.values())
    )
    left = Counter(_LEFTOVER_CODES[e.kind] for _, _, e in events)
    for _, _, e in events:
        if not found.takes(e.after or None):
            break  # nor any after it: their findings come later in the report
        code = _LEFTOVER_CODES[e.kind]
        left[code] -= 1
        found.add(code, e.after or None, partial(_no_protocol_finding, ruleset, e))
    for code, count in left.items():
        found.skip(code, count)


def _no_protocol_finding(ruleset: Ruleset, e: OpeningEvent) -> Finding:
    code = _LEFTOVER_CODES[e.kind]
    what = "a rejection of the opening" if e.kind == "reject" else "a moved stone"
    return Finding(
        code,
        f"{what} after move {e.after}: ruleset {ruleset.name} has no opening protocol",
        move=e.after or None,
        line=e.line,
    )


def _course(
    record: Record,
    ruleset: Ruleset,
    state: _State | None,
    board_events: dict[int, list[tuple[int, OpeningEvent]]],
) -> tuple[Course | None, list[Finding]]:
    """What the replay must follow besides alternation: colours, board events, seat rules."""
    walked = state.colors if state is not None else ()
    if not board_events and walked == _ALTERNATION[: len(walked)] and not restricted_seat(ruleset):
        return None, []  # plain alternation (most records): what the loops below would find
    events = {n: tuple(e for _, e in pairs) for n, pairs in board_events.items()}
    colors: dict[int, int] = {}
    last = max([len(walked), *(n + 1 for n in events)])
    color = WHITE  # the colour of the stone before move 1
    for n in range(1, min(last, len(record.moves)) + 1):
        if any(e.kind == "reject" for e in events.get(n - 1, ())) and n > len(walked):
            color = WHITE  # an opening rejected beyond the protocol's steps starts with black
        color = walked[n - 1] if n <= len(walked) else BLACK + WHITE - color
        colors[n] = color
    if all(c == (BLACK if n % 2 else WHITE) for n, c in colors.items()):
        colors = {}  # plain alternation: the replay needs no help
    rules, findings = _seat_rules(ruleset, state)
    if not colors and not events and len(rules) <= 1 and (not rules or rules[0][1] is ruleset):
        return None, findings
    until = max([*colors, *(n + 1 for n in events), *(m for m, _ in rules), 1])
    return Course(colors, events, rules, until), findings


#: Colours in plain alternation from black, as far as a walk may place stones.
_ALTERNATION = tuple(BLACK if n % 2 == 0 else WHITE for n in range(4096 + 1))


# -- forbidden moves bound to a seat ---------------------------------------------------------
def restricted_seat(ruleset: Ruleset) -> str | None:
    """The seat the rules written for black bind (``forbidden.restricted_seat``), if any."""
    seat = (ruleset.data.get("forbidden") or {}).get("restricted_seat")
    return seat if seat in SEATS else None


_EXCHANGED: dict[int, tuple[Ruleset, Ruleset]] = {}


def rules_for(ruleset: Ruleset, holders: tuple[str | None, str | None]) -> Ruleset:
    """The ruleset to judge with while ``holders`` hold (black, white).

    Under ``forbidden.restricted_seat`` the rules written for black (forbidden kinds, overline)
    bind that seat whichever colour it holds: when it holds white, the colours' rules are
    exchanged.  Otherwise the ruleset itself.
    """
    seat = restricted_seat(ruleset)
    if seat is None or holders[1] != seat:
        return ruleset
    hit = _EXCHANGED.get(id(ruleset))
    if hit is None or hit[0] is not ruleset:
        swapped = dataclasses.replace(
            ruleset,
            overline={"black": ruleset.overline["white"], "white": ruleset.overline["black"]},
            forbidden={"black": ruleset.forbidden["white"], "white": ruleset.forbidden["black"]},
        )
        hit = remember(_EXCHANGED, id(ruleset), (ruleset, swapped), 64)
    return hit[1]


def _seat_rules(
    ruleset: Ruleset, state: _State | None
) -> tuple[tuple[tuple[int, Ruleset], ...], list[Finding]]:
    """From which move which rules apply, as the seats hold the colours (seat-bound rules)."""
    seat = restricted_seat(ruleset)
    if seat is None:
        return (), []
    known: tuple[str | None, str | None] = ("P1", "P2")
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


def _reach(steps: tuple[Step, ...]) -> int | None:
    """How many moves the steps consume at most (``None``: unbounded, a repeated branch)."""
    n = 0
    for s in steps:
        if s.kind in ("place", "keep"):
            n += 1
        elif s.kind == "turns":
            n += s.until  # an upper bound: the turns end at stone ``until`` after a restart
        elif s.kind == "branch":
            ends = [None if o.repeat else _reach(o.steps) for o in s.options]
            if any(e is None for e in ends):
                return None
            n += max(e for e in ends if e is not None)
    return max(n, 3)


def _board_center(width: int, height: int, protocol: Protocol | None) -> Point | None:
    if protocol is not None and protocol.center is not None:
        return protocol.center
    if width % 2 == 1 and height % 2 == 1:
        return center(width, height)
    return None


def _placed_points(
    record: Record,
    width: int,
    height: int,
    limit: int | None,
    board_events: dict[int, list[tuple[int, OpeningEvent]]],
) -> list[Point | None]:
    """The point of each move that really put a stone on the board (as the referee replays,
    rejections and moved stones included: ``board_events``, as ``_Events.board`` holds them)."""
    taken: dict[Point, int] = {p: 0 for p, _ in record.setup}
    out: list[Point | None] = []
    for n, move in enumerate(record.moves[:limit], 1):
        for _, e in board_events.get(n - 1, ()) if board_events else ():
            if e.after == n - 1:  # (one recorded before move 1 as after -1 is not applied)
                move_stones(taken, e, width, height)
        p = move.point
        if p is None or not p.on_board(width, height) or p in taken:
            out.append(None)
            continue
        taken[p] = n
        out.append(p)
    return out


def move_stones(stones: dict[Point, Any], event: OpeningEvent, width: int, height: int) -> bool:
    """Apply a rejection (every stone off) or a moved stone (``relocate``: ``points`` are from
    and to) to ``stones`` (point -> anything), for the opening check.  The referee applies the
    same conditions to its board's cells directly (``referee._Replay._board_event``, which must
    stay in step with this: both must see the same board).  False when a stone cannot move:
    nothing on the first point, or the second taken or off the board."""
    if event.kind == "reject":
        stones.clear()
        return True
    if event.kind != "relocate" or len(event.points) != 2:
        return False
    source, target = event.points
    if source not in stones or target in stones or not target.on_board(width, height):
        return False
    stones[target] = stones.pop(source)
    return True


def _declared(record: Record) -> str:
    """The opening id the record declares, as it is checked (stripped; "" for none)."""
    return record.opening_id.strip() if record.opening_id else ""


def _quoted_id(declared: str) -> str:
    """A declared opening id as a message quotes it: by its first 40 characters."""
    return repr(declared) if len(declared) <= 40 else repr(declared[:40]) + "..."


def _declared_id(
    record: Record, ident: Identified | None, points: Sequence[Point | None]
) -> list[Finding]:
    """The findings of the opening id the record declares, against ``ident``, the opening its
    first three placed ``points`` name (``_placed_points``)."""
    declared = _declared(record)
    if not declared:
        return []
    have_three = sum(p is not None for p in points[:3]) == 3
    entry = lookup_opening(declared)
    if entry is None:
        return [
            Finding(
                "unchecked",
                f"the record declares opening {_quoted_id(declared)}, which is not one of the 26 "
                "canonical opening ids; it is not checked against the moves",
            )
        ]
    if not have_three:
        return [
            Finding(
                "unchecked",
                f"the record declares opening {entry.id} ({entry.name}) but has fewer than "
                "three stones; the id is not checked",
            )
        ]
    if ident is None:
        return [
            Finding(
                "opening-id-mismatch",
                f"the record declares opening {entry.id} ({entry.name}) but stones 1-3 "
                f"({_first_three(record)}) are not a canonical opening",
                move=3,
            )
        ]
    if ident.opening.id != entry.id:
        o = ident.opening
        return [
            Finding(
                "opening-id-mismatch",
                f"the record declares opening {entry.id} ({entry.name}) but stones 1-3 "
                f"({_first_three(record)}) are {o.id} ({o.name}, by {ident.symmetry})",
                move=3,
                point=record.moves[2].point.name if record.moves[2].point else None,
            )
        ]
    return []


def _first_three(record: Record) -> str:
    return " ".join(m.point.name if m.point else "pass" for m in record.moves[:3])


def _names(points: tuple[Point, ...]) -> tuple[str, ...]:
    """The names of offered points; the last asked for are kept (every line of a variation
    tree may name the same thousands of offers)."""
    global _LAST_NAMES
    last = _LAST_NAMES
    if last is not None and last[0] == points:
        return last[1]
    names = tuple(p.name for p in points)
    _LAST_NAMES = (points, names)
    return names


_LAST_NAMES: tuple[tuple[Point, ...], tuple[str, ...]] | None = None


def _protocol_summary(state: _State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.branches:
        out["branch"] = list(state.branches)
    if state.declared is not None:
        out["declared"] = state.declared
    if state.offers is not None:
        out["offers"] = list(_names(state.offers))
    if state.kept is not None:
        out["kept"] = state.kept.name
    if len(state.offered) > 1:  # Lijing, xsir317: offers for moves 4 and 5
        out["offers_by_move"] = {str(n): list(_names(pts)) for n, pts in state.offered}
        out["kept_by_move"] = {str(n): p.name for n, p in state.kept_moves}
    if state.base:
        out["rejected_after"] = state.base
    if state.relocated:
        out["relocated"] = sorted(state.relocated)
    out["black"] = state.holders[0]
    out["white"] = state.holders[1]
    return out


# -- the walk ------------------------------------------------------------------------------------
def _walk(ctx: _Context, steps: tuple[Step, ...], state: _State, budget: list[int]) -> _State:
    """Apply the steps in order; at a branch, try each option and keep the best explanation."""
    budget[0] += 1
    for i, step in enumerate(steps):
        if state.ended:
            return state
        budget[1] += 1
        if step.kind == "branch":
            return _branch(ctx, step, steps[i + 1 :], state, budget)
        state = _STEPS[step.kind](ctx, step, state)
    return state


def _branch(
    ctx: _Context, step: Step, rest: tuple[Step, ...], state: _State, budget: list[int]
) -> _State:
    best: _State | None = None
    best_score: tuple[int, int, int, int, tuple[int, ...]] | None = None
    options = step.options
    last = len(options) - 1
    branches, order = state.branches, state.order
    # each option's steps as ``inherit`` gives them, looked up once per branch walked
    afters = _PER_PROTOCOL.get(
        (step, "inherit"), lambda: tuple(inherit(o.steps, step.by) for o in options)
    )
    for j, option in enumerate(options):
        if best is not None and (budget[0] > MAX_PATHS or budget[1] > MAX_STEPS):
            budget[2] = 1  # (the walk says so)
            break
        # the last option tried walks ``state`` itself: nothing reads it after the branch
        # (a fork per option was most of a short walk's allocations)
        tried = state.fork() if j < last else state
        tried.branches = (*branches, option.name)
        tried.order = (*order, j)
        after = afters[j]
        if option.repeat:
            # the same choice passes to the other seat, once the option placed something
            again = _PER_PROTOCOL.get(
                (step, "again"), lambda: dataclasses.replace(step, by=_other(step.by))
            )
            start = tried.n
            sub = _walk(ctx, after, tried, budget)
            if (
                sub.n > start
                and not sub.ended
                and len(sub.branches) < MAX_ROUNDS
                and _decisions_ahead(ctx, sub)
            ):
                sub = _walk(ctx, (again, *rest), sub, budget)
            else:
                sub = _walk(ctx, rest, sub, budget)
        else:
            sub = _walk(ctx, after + rest, tried, budget)
        score = sub.score()
        if best_score is None or score < best_score:  # (set with ``best``)
            best, best_score = sub, score
    assert best is not None  # a branch has two options or more
    return best


def _decisions_ahead(ctx: _Context, state: _State) -> bool:
    """Whether a recorded decision is still unexplained: only then can another round of a
    repeated branch explain more of the record (its stones go anywhere)."""
    return ctx.events.decisions_ahead(state.n, state.consumed)


def inherit(steps: tuple[Step, ...], by: str | None) -> tuple[Step, ...]:
    """An option's steps with the branch's chooser as ``by`` where they name nobody."""
    return _PER_PROTOCOL.get(
        (steps, f"inherit {by}"),
        lambda: tuple(s if s.by is not None else dataclasses.replace(s, by=by) for s in steps),
    )


class _ByIdentity:
    """What a protocol's steps give, worked out once and found by the steps' identity and what
    is worked out (each use its own tag: ``()`` is one object, the steps of every empty
    option and protocol): the same compiled steps are walked for every record, and hashing
    them is as slow as the work (the steps are kept beside the result, so a reused id is never
    mistaken)."""

    def __init__(self) -> None:
        self._hits: dict[tuple[int, str], tuple[object, object]] = {}

    def get(self, key: tuple[object, str], make: Callable[[], _T]) -> _T:
        steps, extra = key
        hit = self._hits.get((id(steps), extra))
        if hit is not None and hit[0] is steps:
            return cast(_T, hit[1])
        value = make()
        remember(self._hits, (id(steps), extra), (steps, value), 1024)
        return value


_T = TypeVar("_T")
_PER_PROTOCOL = _ByIdentity()


def _other(by: str | None) -> str | None:
    swap = {"P1": "P2", "P2": "P1", "black": "white", "white": "black"}
    return swap.get(by or "", by)


def _where(ctx: _Context, step: Step) -> str:
    return f"step {step.label} of {ctx.ruleset.name}: {step.words()}"


def _finding(
    ctx: _Context, code: str, message: str, number: int | None, point: Point | None = None
) -> Finding:
    move = ctx.record.moves[number - 1] if number and number <= len(ctx.record.moves) else None
    return Finding(
        code,
        message,
        move=number if number else None,
        point=point.name if point is not None else None,
        line=move.line if move is not None else None,
        offset=move.offset if move is not None else None,
    )


def _next_move(ctx: _Context, step: Step, state: _State) -> tuple[_State, int, Point | None]:
    """Take the next move for a ``place`` or ``keep`` step; report a pass the opening forbids."""
    number = state.n + 1
    if number > ctx.read[0]:
        ctx.read[0] = number
    if number > len(ctx.record.moves):
        state.ended = True
        return state, number, None
    state.n = number
    state.colors = (*state.colors, _stone_color(ctx, step, state, number))
    rules = ctx.ruleset
    if ctx.record.moves[number - 1].point is None:
        referee_allows = rules.passes_allowed and number >= rules.pass_not_before
        if referee_allows and number < ctx.protocol.no_pass_before:
            state = state.add(
                _finding(
                    ctx,
                    "illegal-pass",
                    f"move {number} is a pass; the {ctx.protocol.name} opening allows no pass "
                    f"before move {ctx.protocol.no_pass_before} ({_where(ctx, step)})",
                    number,
                )
            )
    return state, number, ctx.points[number - 1]


def _place(ctx: _Context, step: Step, state: _State) -> _State:
    state, number, point = _next_move(ctx, step, state)
    if state.ended or point is None:
        return state
    if step.region.kind != "anywhere":
        if ctx.center is None:
            return state.add(_no_center(ctx, step, number))
        if not step.region.contains(point, ctx.center):
            state = state.add(
                _finding(
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


def _region_words(ctx: _Context, step: Step, state: _State, number: int, point: Point) -> str:
    """The message of an ``opening-region`` finding, worded once per step, move, point and
    restart: a batch of openings played off the centre words the same few hundred messages
    again and again, and the wording cost a third of their walk."""
    key = (id(step), number, point, state.base, ctx.ruleset.name)
    hit = _REGION_WORDS.get(key)
    if hit is not None and hit[0] is step:
        return hit[1]
    words = (
        f"{_move_words(state, number, point)} is not {step.region.words()} ({_where(ctx, step)})"
    )
    # (the step kept: its id is never another's)
    remember(_REGION_WORDS, key, (step, words), 1 << 16)
    return words


_REGION_WORDS: dict[tuple[int, int, Point, int, str], tuple[Step, str]] = {}


def _move_words(state: _State, number: int, point: Point) -> str:
    """``move 7 (h9)`` and, after a rejected opening, which stone of the new opening it is."""
    if not state.base:
        return f"move {number} ({point.name})"
    return f"move {number} ({point.name}, stone {number - state.base} of the new opening)"


def _stone_color(ctx: _Context, step: Step, state: _State, number: int) -> int:
    """The colour of the stone a step places: alternation from black since the last restart,
    or the step's own colour in a protocol whose stones do not alternate."""
    if not ctx.protocol.alternate and step.color in COLORS:
        return BLACK if step.color == "black" else WHITE
    if step.kind == "keep" and state.pending:
        return state.pending[0][1]
    return BLACK if (number - state.base) % 2 == 1 else WHITE


def _no_center(ctx: _Context, step: Step, number: int) -> Finding:
    return _finding(
        ctx,
        "unchecked",
        f"move {number}: the {ctx.width}x{ctx.height} board has no single centre and the "
        f"ruleset names none (opening.center); the region is not checked ({_where(ctx, step)})",
        number,
    )


def _canonical(ctx: _Context, step: Step, state: _State) -> _State:
    base = state.base
    stones = ctx.points[base : base + 3]
    if ctx.center is None or any(p is None for p in stones):
        return state  # passes and impossible stones are findings of their own
    if any(base < (move or 9) <= base + 3 for move in state.region_moves):
        return state  # the region finding already says why
    first = [p for p in stones if p is not None]
    reach = 3 if step.canonical == 52 else 2
    fault = canonical_fault(first, ctx.center, reach)
    if fault is None:
        return state
    c = ctx.center.name
    k = 2 * reach + 1
    why = {
        1: f"stone 1 is not at the centre {c}",
        2: f"stone 2 is not next to the centre {c} (central 3x3)",
        3: f"stone 3 is not in the central {k}x{k} around {c}",
    }[fault]
    point = first[fault - 1]
    which = "a canonical opening" if step.canonical == 26 else "one of the 52 openings"
    return state.add(
        _finding(
            ctx,
            "opening-not-canonical",
            f"{_move_words(state, base + fault, point)}: stones 1-3 "
            f"({' '.join(p.name for p in first)}) are not {which}: {why} ({_where(ctx, step)})",
            base + fault,
            point,
        )
    )


def _decision(ctx: _Context, step: Step, state: _State) -> _State:
    """A ``swap`` or ``choose`` step: find the recorded decision, if any, and apply it."""
    opportunity = state.opportunity + 1
    state.opportunity = opportunity
    events = ctx.record.opening_events
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
    event = events[found]
    seat = _seat(step.by, state)
    holders = _decide(event, seat, state.holders)
    if step.take is not None:
        if event.kind == "choose":
            fits = event.value == step.take
        else:  # a swap flag: did the chooser end up with the colour of this option?
            taken = holders[COLORS.index(step.take)]
            fits = seat is None or taken is None or taken == seat
        if not fits:  # not the option the record took: leave the event for another one
            state.set_holders((None, None))
            return state
    state.set_holders(holders)
    state.use(found, 1)
    return state


def _seat(by: str | None, state: _State) -> str | None:
    if by in SEATS:
        return by
    if by in COLORS:
        return state.holders[COLORS.index(by)]
    return None


def _decide(
    event: OpeningEvent, seat: str | None, holders: tuple[str | None, str | None]
) -> tuple[str | None, str | None]:
    black, white = holders
    if event.kind == "swap":
        return (white, black)
    if event.kind == "no-swap":
        return holders
    if seat is None or event.value not in COLORS:
        return (None, None)
    other = SEATS[1 - SEATS.index(seat)]
    return (seat, other) if event.value == "black" else (other, seat)


def _declare(ctx: _Context, step: Step, state: _State) -> _State:
    state.bounds = (step.low, step.high)
    at = ctx.events.at
    # recorded at no place, or next to the moves walked
    places = sorted({-1, state.n - 1, state.n, state.n + 1})
    i = ctx.events.earliest([at.get(("declare", a), ()) for a in places], state.consumed)
    if i is None:
        return state
    e = ctx.record.opening_events[i]
    state.use(i, EVIDENCE_DATA)
    try:
        n = int(str(e.value).strip())
    except ValueError:
        return state.add(
            _finding(
                ctx,
                "offer-count",
                f"the declared number of offers {e.value!r} is not a number ({_where(ctx, step)})",
                state.n or None,
            )
        )
    state.declared = n
    if n < step.low or (step.high is not None and n > step.high):
        state = state.add(
            _finding(
                ctx,
                "offer-count",
                f"{n} offers declared with move {state.n}, outside the bounds "
                f"({_where(ctx, step)})",
                state.n or None,
            )
        )
    return state


def _offer(ctx: _Context, step: Step, state: _State) -> _State:
    number = state.n + 1 + len(state.pending)  # the move the offers are for
    color = _stone_color(ctx, step, state, number)
    at, consumed = ctx.events.at, state.consumed
    recorded = chain(at.get(("offers", state.n), ()), at.get(("offers", state.n + 1), ()))
    found = [i for i in sorted(recorded) if i not in consumed]
    if step.stacked:  # several offer steps before their keeps: one recorded group each
        found = found[:1]
    if not found:
        state.offers = None
        state.pending = (*state.pending, (number, color, None))
        return state.add(
            _finding(
                ctx,
                "unchecked",
                f"the offers for move {number} are not recorded, so their count, symmetry "
                f"and the kept move are not checked ({_where(ctx, step)})",
                number,
            )
        )
    events = ctx.record.opening_events
    points = tuple(chain.from_iterable(events[i].points for i in found))
    for i in found:
        state.use(i, EVIDENCE_DATA)
    state.offers = points
    check = _OfferCheck.of(ctx, step, state, color, points)
    state.pending = (*state.pending, (number, color, points))
    state.offered = (*state.offered, (number, points))
    state = _offer_count(ctx, step, state, len(points), number)
    if step.region.kind != "anywhere" and ctx.center is None:
        state.add(_no_center(ctx, step, number))
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
    return state


@dataclass(frozen=True)
class _OfferCheck:
    """What an offer step finds of its offers: the stones they are judged among, the offers
    that cannot be (with why), in order, and the symmetric pairs of the others (with the
    symmetry mapping the first onto the second).

    It depends on the offers and the board only, so the last one made is kept (``of``): the
    lines of a variation tree that share the first moves and the offers (an ``FA`` of 4,000
    points before the fifth moves of 500 lines) do not check each offer again.
    """

    key: tuple[Any, ...]
    rules: Ruleset
    stones: dict[Point, int]
    invalid: tuple[tuple[Point, str], ...]
    symmetric: tuple[tuple[tuple[Point, Point], Isometry], ...]

    @staticmethod
    def of(
        ctx: _Context, step: Step, state: _State, color: int, points: tuple[Point, ...]
    ) -> _OfferCheck:
        global _LAST_OFFER_CHECK
        layout = _layout(ctx, state)
        rules = rules_for(ctx.ruleset, state.holders)
        key = (layout, state.pending, points, step, color, ctx.width, ctx.height, ctx.center)
        last = _LAST_OFFER_CHECK
        if last is not None and last.rules is rules and last.key == key:
            return last
        stones = {p: c for p, (_, c) in layout.items()}
        for _, c, offered in state.pending:  # offered stones not yet kept stand there too
            stones.update({p: c for p in offered or () if p not in stones})
        found = _check_offers(ctx, step, state, stones, color, points)
        made = _OfferCheck(key, rules, stones, *found)
        _LAST_OFFER_CHECK = made
        return made


_LAST_OFFER_CHECK: _OfferCheck | None = None


def _check_offers(
    ctx: _Context,
    step: Step,
    state: _State,
    stones: dict[Point, int],
    color: int,
    points: tuple[Point, ...],
) -> tuple[tuple[tuple[Point, str], ...], tuple[tuple[tuple[Point, Point], Isometry], ...]]:
    """The offers that cannot be, with why, and the symmetric pairs of the others."""
    region = step.region
    if region.kind != "anywhere" and ctx.center is None:
        region = Region()  # (the step's finding says why the region is not checked)
    forbidden = None if step.forbidden_allowed else _forbidden_judge(ctx, state, stones, color)
    invalid: list[tuple[Point, str]] = []
    good: list[Point] = []
    offered_once: set[Point] = set()  # ``good`` as a set: an offer is looked up in it
    width, height, middle = ctx.width, ctx.height, ctx.center
    for p in points:
        problem = None
        if not p.on_board(width, height):
            problem = f"is off the {width}x{height} board"
        elif p in offered_once:
            problem = "is offered twice"
        elif p in stones:
            problem = "is already taken"
        elif middle is not None and not region.contains(p, middle):
            problem = f"is not {region.words()}"
        elif forbidden is not None:
            kinds = forbidden(p)
            if kinds:
                problem = f"is a forbidden point ({', '.join(kinds)})"
        if problem is not None:
            invalid.append((p, problem))
        else:
            good.append(p)
            offered_once.add(p)
    return tuple(invalid), _symmetric_pairs(ctx, step, stones, good)


def _layout(
    ctx: _Context, state: _State, before: int | None = None
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


def _offer_problem(ctx: _Context, step: Step, p: Point, number: int, problem: str) -> str:
    return f"offer {p.name} for move {number} {problem} ({_where(ctx, step)})"


def _forbidden_judge(
    ctx: _Context, state: _State, stones: dict[Point, int], stone: int
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
    # could fill it with columns of stones whose double-threes recurse down the columns (a
    # user's ruleset: 1 MB in 50 s).  An offer whose threes need more is taken as not a
    # double-three; real offers (a few stones on the board) need none or one or two.
    judge.forget()
    bound = Judgements(OFFER_JUDGEMENTS)
    return lambda p: judge.bounded_kinds(board, board.index(p), stone, bound)[0]


#: Double-three judgements the offers of one step may make together (``_forbidden_judge``).
OFFER_JUDGEMENTS = 64


def _offer_count(ctx: _Context, step: Step, state: _State, got: int, number: int) -> _State:
    expected = step.count if step.count is not None else state.declared
    if expected is not None:
        if got != expected:
            said = "declared " if step.count is None else ""
            return state.add(
                _finding(
                    ctx,
                    "offer-count",
                    f"{got} offer(s) recorded for move {number}, {expected} {said}required "
                    f"({_where(ctx, step)})",
                    number,
                )
            )
        return state
    low, high = state.bounds or (1, None)
    if got < low or (high is not None and got > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        return state.add(
            _finding(
                ctx,
                "offer-count",
                f"{got} offer(s) recorded for move {number}; the declared number must be "
                f"{bound} ({_where(ctx, step)})",
                number,
            )
        )
    return state.add(
        _finding(
            ctx,
            "unchecked",
            f"the declared number of offers is not recorded; only its bounds were checked "
            f"against the {got} offer(s) for move {number} ({_where(ctx, step)})",
            number,
        )
    )


def _symmetric_pairs(
    ctx: _Context, step: Step, stones: dict[Point, int], offers: list[Point]
) -> tuple[tuple[tuple[Point, Point], Isometry], ...]:
    """Each offer that a symmetry of the stones maps an earlier offer onto, with the first such
    offer and the first such symmetry.  A symmetry maps one point onto an offer, so each offer
    costs a look-up per symmetry, not one per earlier offer (672 offers on 26x26 took 0.7 s a
    record)."""
    if step.symmetry == "none" or len(offers) < 2:
        return ()
    symmetries = stone_symmetries(stones, ctx.width, ctx.height, step.symmetry)
    if not symmetries:
        return ()
    # each symmetry's inverse, p = L^T (q - t) (L is a rotation or a mirror), worked out
    # inline on (x, y) pairs (a point is one)
    inverses = [(g, *SYMMETRIES[g.kind], g.tx, g.ty) for g in symmetries]
    out: list[tuple[tuple[Point, Point], Isometry]] = []
    first_at: dict[tuple[int, int], int] = {}  # where each offer is first in the list, so far
    for k, q in enumerate(offers):
        x, y = q
        best: tuple[int, Isometry] | None = None  # the earliest offer mapped onto q, and how
        for g, a, b, c, d, tx, ty in inverses:
            u, v = x - tx, y - ty
            j = first_at.get((a * u + c * v, b * u + d * v))
            if j is not None and (best is None or j < best[0]):
                best = (j, g)
        first_at.setdefault(q, k)
        if best is not None:
            out.append(((offers[best[0]], q), best[1]))
    return tuple(out)


def _symmetric_offers(
    ctx: _Context,
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
        f"{g.words(near)} maps {what} and {p.name} onto {q.name} ({_where(ctx, step)})"
    )


def _keep(ctx: _Context, step: Step, state: _State) -> _State:
    target = state.pending[0] if state.pending else None
    state, number, point = _next_move(ctx, step, state)
    state.pending = state.pending[1:]
    offers = target[2] if target is not None else None
    if state.ended or offers is None:
        return state
    move = ctx.record.moves[number - 1]
    if move.point is None or move.point not in offers:
        shown = move.point.name if move.point is not None else "a pass"
        return state.add(
            _finding(
                ctx,
                "kept-not-offered",
                f"move {number} ({shown}) is not one of the offers "
                f"{' '.join(_names(offers))} ({_where(ctx, step)})",
                number,
                move.point,
            )
        )
    state.kept = point
    if point is not None:
        state.kept_moves = (*state.kept_moves, (number, point))
    return state


def _find_event(ctx: _Context, state: _State, kind: str) -> int | None:
    """The first unexplained event of ``kind`` recorded after the moves walked so far."""
    for i, e in ctx.events.board.get(state.n, ()):
        if i not in state.consumed and e.kind == kind:
            return i
    return None


def _misfit(ctx: _Context, step: Step, state: _State, what: str) -> _State:
    """A step that needs a recorded event the record does not have: the walk stops here.  In a
    branch another option explains the record better; if none does, the report says so."""
    state.misfit += 1
    state.ended = True
    when = f"after move {state.n}" if state.n else "before move 1"
    return state.add(
        Finding(
            "unchecked",
            f"the record shows no {what} {when}, where {_where(ctx, step)}; the opening is "
            "not checked from here",
            severity=WARNING,
            move=state.n or None,
        )
    )


def _reject(ctx: _Context, step: Step, state: _State) -> _State:
    """The opening is rejected: every stone is taken off and the steps after this one number
    their stones from 1 again; ``black`` (the rejecting seat by default) holds black."""
    found = _find_event(ctx, state, "reject")
    if found is None:  # the record did not reject here: this is not the path it took
        return _misfit(ctx, step, state, "rejection (reject)")
    state.use(found, EVIDENCE_DATA)
    seat = _seat(step.black, state)
    state.set_holders((seat, _other(seat)) if seat in SEATS else (None, None))
    state.base = state.n
    state.pending, state.offers, state.kept = (), None, None
    state.declared, state.bounds, state.relocated = None, None, frozenset()
    return state


def _relocate(ctx: _Context, step: Step, state: _State) -> _State:
    """A stone of the opening is moved to another point (Nokhrin).  The record writes it as
    ``from-to`` after the last stone."""
    found = _find_event(ctx, state, "relocate")
    if found is None:
        return _misfit(ctx, step, state, "moved stone (from-to)")
    state.use(found, EVIDENCE_DATA)
    event = ctx.record.opening_events[found]
    source = event.points[0] if event.points else None
    target = event.points[1] if len(event.points) > 1 else None
    stones = _layout(ctx, state, before=found)
    problem = None
    number = stones[source][0] - state.base if source in stones else None
    if source is None or target is None:
        problem = "does not name two points"
    elif number is None:
        problem = f"moves no stone: {source.name} is empty"
    elif number not in step.stones:
        problem = f"moves stone {number} ({source.name}); only stones {_number_list(step.stones)}"
    elif number in state.relocated and not step.again:
        problem = f"moves stone {number} ({source.name}) a second time"
    elif not target.on_board(ctx.width, ctx.height):
        problem = f"moves {source.name} off the {ctx.width}x{ctx.height} board"
    elif target in stones:
        problem = f"moves {source.name} onto {target.name}, which is taken"
    elif ctx.center is not None and not step.region.contains(target, ctx.center):
        problem = f"moves {source.name} to {target.name}, which is not {step.region.words()}"
    if number is not None:
        state.relocated = state.relocated | {number}
    if problem is None:
        return state
    shown = f"{source.name}-{target.name}" if source and target else "the moved stone"
    return state.add(
        _finding(
            ctx,
            "relocation-invalid",
            f"{shown} after move {state.n} {problem} ({_where(ctx, step)})",
            state.n or None,
            target,
        )
    )


def _require(ctx: _Context, step: Step, state: _State) -> _State:
    """At least one of the listed stones stands in the region (CCTsai: a black at the centre)."""
    if not step.stones:
        return state
    if ctx.center is None:
        return state.add(_no_center(ctx, step, state.n))
    listed = _standing(ctx, state, step.stones)
    if any(p is not None and step.region.contains(p, ctx.center) for p in listed):
        return state
    last = state.base + max(step.stones)
    if last > state.n:
        return state  # the record ended before those stones
    shown = ", ".join(p.name for p in listed if p is not None) or "none on the board"
    return state.add(
        _finding(
            ctx,
            "opening-region",
            f"none of stones {_number_list(step.stones)} ({shown}) is {step.region.words()} "
            f"({_where(ctx, step)})",
            last,
            ctx.points[last - 1],
        )
    )


def _standing(ctx: _Context, state: _State, stones: tuple[int, ...]) -> list[Point | None]:
    """Where the stones of these numbers (from ``state.base``) stand after the moves walked,
    ``None`` for one not on the board.  Without board events a stone stays where its move put
    it (``ctx.points`` places a point once): looked up there, with no layout of the board (a
    user's protocol of 199 ``require`` steps laid the board out 199 times a record)."""
    base, n = state.base, state.n
    if ctx.events.board:
        numbers = {k - base: p for p, (k, _) in _layout(ctx, state).items()}
        return [numbers.get(k) for k in stones]
    points = ctx.points
    return [points[base + k - 1] if 0 < base + k <= n else None for k in stones]


def _turns(ctx: _Context, step: Step, state: _State) -> _State:
    """Turns of one or two stones up to stone ``until`` (Lianhuan).  A swap is possible only
    after a two-stone turn, so a recorded swap after stone k says stones k-1 and k were one turn:
    k-1 must be a stone of these turns before ``pair_before``, and two turns cannot share a
    stone.  Decisions the turns cannot explain are left for ``swap-not-allowed``."""
    first = state.n + 1
    last_pair_end = state.n
    for _ in range(state.base + step.until - state.n):
        state, number, _point = _next_move(ctx, step, state)
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


_STEPS = {
    "place": _place,
    "swap": _decision,
    "choose": _decision,
    "declare": _declare,
    "offer": _offer,
    "keep": _keep,
    "reject": _reject,
    "relocate": _relocate,
    "require": _require,
    "turns": _turns,
}


def _leftover_events(ctx: _Context, state: _State) -> None:
    """Recorded decisions and offers that no step of the protocol explains.  Only those the
    report can list are looked at one by one (``_Events.leftover`` is in the report's order);
    the others are counted by code, all at once."""
    index, consumed, found = ctx.events, state.consumed, state.findings
    if not index.leftover or len(consumed) >= len(index.events):
        return
    steps = ctx.protocol.steps
    places = _PER_PROTOCOL.get((steps, "places"), lambda: _decision_places(steps))
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
        code = _LEFTOVER_CODES.get(index.events[i].kind)
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


def _leftover_finding(ctx: _Context, e: OpeningEvent, allowed: str) -> Finding:
    """The finding of a recorded event that no step of the protocol explains."""
    when = f"after move {e.after}" if e.after > 0 else "before move 1"
    number = e.after if e.after > 0 else None
    rules = ctx.ruleset.name
    if e.kind in ("swap", "choose"):
        what = "a swap" if e.kind == "swap" else f"a colour choice ({e.value})"
        if e.after == -1 and e.value and e.kind == "swap":
            text = (
                f"the record's swap flag {e.value} marks a swap, but "
                f"{ctx.protocol.name} has fewer swap opportunities ({allowed})"
            )
            number = None
        else:
            text = f"{what} {when}: {allowed} (ruleset {rules})"
        return _finding(ctx, "swap-not-allowed", text, number)
    if e.kind == "offers":
        pts = " ".join(p.name for p in e.points)
        return _finding(
            ctx,
            "offer-invalid",
            f"offers {{{pts}}} {when}: {rules} has no offer step there",
            e.after + 1 if e.after >= 0 else None,
        )
    if e.kind == "declare":
        return _finding(
            ctx,
            "offer-count",
            f"{e.value} offers declared {when}: {rules} has no declaration there",
            number,
        )
    if e.kind == "reject":
        return _finding(
            ctx,
            "reject-not-allowed",
            f"the opening is rejected {when}: {rules} allows no rejection there (the stones "
            "are taken off all the same, as the record says)",
            number,
        )
    shown = "-".join(p.name for p in e.points)
    return _finding(
        ctx,
        "relocation-invalid",
        f"a stone is moved ({shown}) {when}: {rules} allows no moved stone there",
        number,
        e.points[-1] if e.points else None,
    )


def _decision_places(steps: tuple[Step, ...]) -> str:
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
                ends = [walk(o.steps, n) for o in s.options]
                n = max(ends)
        return n

    walk(steps, 0)
    return ", ".join(places)
