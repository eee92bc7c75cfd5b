"""From a ruleset's ``opening`` mapping (YAML) to a ``Protocol``, and what a schema cannot see.

Numbers may be ``$name`` references to ``opening.params``, so that ``Taraguchi-N`` is
``extends: taraguchi-10`` plus ``opening: {params: {offers: N}}``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

from renju_cli.coords import parse_point
from renju_cli.limits import MAX_PROTOCOL_STEPS as MAX_PROTOCOL_STEPS
from renju_cli.opening.steps import COLORS, Option, Protocol, ProtocolError, Region, Step

_PARAM = re.compile(r"^\$([a-z][a-z0-9_]*)$")


def compile_protocol(opening: dict[str, Any], unnamed: str = "unnamed") -> Protocol:
    """Compile a ruleset's ``opening`` mapping (already schema-valid) into a ``Protocol``;
    ``unnamed``: its name when the mapping gives none (the ruleset's: messages say "the NAME
    opening protocol", which read "the opening protocol opening protocol" by default)."""
    params = {str(k): int(v) for k, v in (opening.get("params") or {}).items()}
    compiler = _Compiler(params, str(opening.get("symmetry", "pattern")))
    compiled = compiler.steps(opening.get("steps"), "")
    written = _steps_written(compiled)
    if written > MAX_PROTOCOL_STEPS:
        raise ProtocolError(
            f"the protocol has {written} steps, counted in every option of its branches "
            f"(with YAML aliases followed); at most {MAX_PROTOCOL_STEPS}"
        )
    raw_center = opening.get("center")
    return Protocol(
        name=str(opening.get("name", unnamed)),
        steps=compiled,
        center=parse_point(raw_center) if raw_center else None,
        no_pass_before=int(opening.get("no_pass_before", 1)),
        params=params,
        alternate=bool(opening.get("alternate", True)),
    )


class _Compiler:
    """Compiles steps with the protocol's ``params`` and default symmetry ``frame``."""

    def __init__(self, params: dict[str, int], frame: str) -> None:
        self.params = params
        self.frame = frame
        self.kinds: dict[str, Callable[[dict[str, Any], dict[str, Any], str], Step]] = {
            "place": self.place,
            "swap": self.decision,
            "choose": self.decision,
            "declare": self.declare,
            "offer": self.offer,
            "keep": self.keep,
            "reject": self.reject,
            "relocate": self.stones,
            "require": self.stones,
            "turns": self.turns,
            "branch": self.branch,
        }

    def steps(self, raw: Any, prefix: str) -> tuple[Step, ...]:
        """The steps of a list (labels ``prefix`` + 1, 2...)."""
        out = []
        for i, item in enumerate(raw or [], 1):
            label = f"{prefix}{i}"
            if not isinstance(item, dict) or len(item) != 1:
                raise ProtocolError(f"step {label}: a step is a mapping with one key")
            kind, body = next(iter(item.items()))
            make = self.kinds.get(kind)
            if make is None:
                raise ProtocolError(f"step {label}: unknown step {kind!r}")
            body = body or {}
            common: dict[str, Any] = {"kind": kind, "label": label, "by": body.get("by")}
            out.append(make(common, body, f"step {label} ({kind})"))
        return _stack_offers(out)

    def number(self, value: Any, what: str) -> int:
        """A number, or the ``$name`` of one of the params."""
        if isinstance(value, str):
            m = _PARAM.match(value)
            if m is None or m.group(1) not in self.params:
                raise ProtocolError(f"{what}: {value!r} names no entry of opening.params")
            return self.params[m.group(1)]
        return int(value)

    def region(self, raw: Any, what: str) -> Region:
        """``anywhere``, ``{central: k}`` or ``{outside: k}`` (k odd)."""
        if raw is None or raw == "anywhere":
            return Region()
        if isinstance(raw, dict) and len(raw) == 1:
            kind, size = next(iter(raw.items()))
            k = self.number(size, f"{what}.region.{kind}")
            if kind in ("central", "outside") and k >= 1 and k % 2 == 1:
                return Region(str(kind), k)
        raise ProtocolError(f"{what}: region must be anywhere, {{central: k}} or {{outside: k}}")

    def place(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        return Step(
            **common,
            move=body.get("move"),
            color=body.get("color"),
            region=self.region(body.get("region"), what),
            canonical=_canonical_set(body.get("canonical", False)),
        )

    def decision(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        return Step(**common, take=body.get("take"))

    def declare(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        high = body.get("max")
        return Step(
            **common,
            low=self.number(body.get("min", 1), f"{what}.min"),
            high=None if high is None else self.number(high, f"{what}.max"),
        )

    def offer(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        count = body.get("count")
        return Step(
            **common,
            move=body.get("move"),
            color=body.get("color"),
            count=None if count == "declared" else self.number(count, f"{what}.count"),
            symmetry=str(body.get("symmetry", self.frame)),
            region=self.region(body.get("region"), what),
            forbidden_allowed=bool(body.get("forbidden_allowed", False)),
        )

    def keep(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        return Step(**common, move=body.get("move"))

    def reject(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        return Step(**common, black=body.get("black", body.get("by")))

    def stones(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        return Step(
            **common,
            stones=tuple(int(n) for n in body.get("stones") or ()),
            region=self.region(body.get("region"), what),
            again=bool(body.get("again", False)),
        )

    def turns(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        until = self.number(body.get("until"), f"{what}.until")
        pair_before = self.number(body.get("pair_before", until), f"{what}.pair_before")
        return Step(**common, until=until, pair_before=pair_before)

    def branch(self, common: dict[str, Any], body: dict[str, Any], what: str) -> Step:
        options = []
        for j, opt in enumerate(body.get("options") or []):
            letter = chr(ord("a") + j)
            options.append(
                Option(
                    name=str(opt.get("name", letter)),
                    title=str(opt.get("title", "")),
                    steps=self.steps(opt.get("steps"), f"{common['label']}{letter}."),
                    repeat=bool(opt.get("repeat", False)),
                )
            )
        if len(options) < 2:
            raise ProtocolError(f"{what}: a branch needs two options or more")
        return Step(**common, options=tuple(options))


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


def lint(protocol: Protocol) -> list[str]:
    """Inconsistencies a schema cannot see: move numbers and colours out of step with the walk."""
    linter = _Linter(protocol.alternate)
    linter.walk(protocol.steps, _Count(0, 0, 0))
    return linter.problems


@dataclasses.dataclass(frozen=True, order=True)
class _Count:
    """Where the lint's walk stands: ``n`` moves so far, ``base`` moves before the last restart
    (stones are numbered from it), ``pending`` offer steps not yet kept."""

    n: int
    base: int
    pending: int


class _Linter:
    def __init__(self, alternate: bool) -> None:
        self.alternate = alternate
        self.problems: list[str] = []

    def walk(self, steps: Sequence[Step], at: _Count) -> _Count:
        for i, s in enumerate(steps):
            if s.kind in ("place", "keep", "offer"):
                at = self.stone(s, at)
            elif s.kind == "turns":
                if s.until <= at.n - at.base:
                    self.problems.append(
                        f"step {s.label}: turns until stone {s.until}, already placed"
                    )
                at = dataclasses.replace(at, n=at.base + max(s.until, at.n - at.base))
            elif s.kind == "reject":
                at = _Count(at.n, at.n, 0)
            elif s.kind == "branch":
                at = self.branch(s, at, i + 1 < len(steps))
        return at

    def stone(self, s: Step, at: _Count) -> _Count:
        number = at.n + 1 + (at.pending if s.kind == "offer" else 0)
        stone = number - at.base
        if s.move is not None and s.move != stone:
            self.problems.append(f"step {s.label}: move {s.move}, but it is move {stone}")
        self.colour(s, stone)
        if s.kind == "offer":
            return dataclasses.replace(at, pending=at.pending + 1)
        pending = max(0, at.pending - 1) if s.kind == "keep" else at.pending
        return _Count(number, at.base, pending)

    def colour(self, s: Step, stone: int) -> None:
        """The step's colour against the colour of its stone."""
        if self.alternate:
            colour = COLORS[(stone - 1) % 2]
            if s.color is not None and s.color != colour:
                self.problems.append(f"step {s.label}: stone {stone} is {colour}, not {s.color}")
        elif s.kind != "keep" and s.color is None:
            self.problems.append(
                f"step {s.label}: stones do not alternate in this opening "
                "(alternate: false), so the step must name the colour"
            )

    def branch(self, s: Step, at: _Count, more: bool) -> _Count:
        ends = sorted({self.walk(o.steps, at) for o in s.options if not o.repeat})
        moves = sorted({e.n for e in ends})
        if len(moves) > 1 and more:
            shown = ", ".join(map(str, moves[:-1])) + f" and {moves[-1]}"
            self.problems.append(
                f"step {s.label}: options end at different moves ({shown}) and steps follow"
            )
        return ends[-1] if ends else at
