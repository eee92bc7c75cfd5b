"""``renju diff``: the same records under two or more rulesets, and where the rulings part.

Each record is replayed by the referee once per ruleset.  When the outcomes (``result``: winner,
reason, move, point) are not all the same, the diff names the first move where the per-move
rulings differ, e.g. ``move 23 j9: forbidden double-three, white wins under renju; legal under
freestyle``.

The per-move rulings (``MoveRuling``) are read off the referee's own reports rather than
computed by a second replay loop: a report lists every forbidden move with its kinds
(``forbidden_moves``), every finding that judges one move (off the board, occupied, illegal
pass...), the first five and the move that ended the game.  That is the complete ruling of every
move up to the end of the game, and the first parting move is never later than the earliest end:
where one ruleset ends the game, the others either do not, or end it differently (otherwise the
outcomes would be equal).  So the diff cannot disagree with ``renju check``, caro's blocked fives,
pass rules and move limits included.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from renju_cli.coords import point_name
from renju_cli.formats import ReadOptions, unreadable
from renju_cli.inputs import InputError, expand_inputs, read_path
from renju_cli.output.json import dumps
from renju_cli.output.text import result_words, where
from renju_cli.record import DeclaredResult, Record, SourceLocation, printable
from renju_cli.report import GameReport, Result
from renju_cli.ruleset import Ruleset
from renju_cli.tasks import Settings, judge_one

#: Finding codes that judge the one move they name (``forbidden-move`` is a ruling's ``kinds``);
#: the others are about the record as a whole (``result-mismatch``, ``move-after-end``...).
MOVE_CODES = (
    "off-board",
    "occupied",
    "wrong-color",
    "illegal-pass",
    "unclaimed-foul",
    "opening-region",
    "opening-not-canonical",
    "swap-not-allowed",
    "offer-count",
    "offer-invalid",
    "offer-symmetric",
    "kept-not-offered",
)
#: The finding of a record the referee failed on (a bug): its result means nothing.
FAILED = "internal-error"

_PROBLEM_WORDS = {
    "off-board": "off the board",
    "occupied": "on an occupied point",
    "wrong-color": "the wrong colour",
    "illegal-pass": "an illegal pass",
    "unclaimed-foul": "a foul left unclaimed",
}


@dataclass(frozen=True)
class MoveRuling:
    """What one ruleset says about one move of a record.

    ``kinds`` are the forbidden kinds of the move, ``five`` whether it makes the winning row
    (a five, or an overline where that wins), ``findings`` the codes of the findings that judge
    this move, ``end`` the ``(winner, reason)`` when the game ends on this move.
    """

    move: int
    point: str
    kinds: tuple[str, ...] = ()
    five: bool = False
    findings: tuple[str, ...] = ()
    end: tuple[str, str] | None = None

    @property
    def verdict(self) -> str:
        """One word for the ruling: ``legal``, ``five``, ``forbidden`` or ``illegal``."""
        if self.kinds:
            return "forbidden"
        if self.five:
            return "five"
        if any(c != "wrong-color" for c in self.findings):
            return "illegal"
        return "legal"

    def same_as(self, other: MoveRuling) -> bool:
        """Whether two rulesets rule this move alike."""
        return (self.kinds, self.five, self.findings, self.end) == (
            other.kinds,
            other.five,
            other.findings,
            other.end,
        )

    def words(self) -> str:
        """For people: ``forbidden double-three, white wins``, ``legal``, ``five, black wins``."""
        return ", ".join([*(self._what() or ["legal"]), *self._then()])

    def _what(self) -> list[str]:
        """What the move is, when it is more than legal: forbidden, illegal, the winning row."""
        parts = ["forbidden " + " and ".join(self.kinds)] if self.kinds else []
        parts += [_PROBLEM_WORDS.get(code, code) for code in self.findings]
        if self.five and self.end is not None:
            parts.append(self.end[1])  # five, or an overline where that wins
        return parts

    def _then(self) -> list[str]:
        """What follows the move: the end of the game, or play that goes on past a foul."""
        if self.end is None:
            return ["play goes on"] if self.kinds else []
        winner, reason = self.end
        return ["a draw by " + reason if winner == "draw" else f"{winner} wins"]

    def to_json(self) -> dict[str, Any]:
        """The ruling in the ``parting.rulings`` objects of ``renju diff --format json``."""
        return {
            "verdict": self.verdict,
            "kinds": list(self.kinds),
            "five": self.five,
            "findings": list(self.findings),
            "end": {"winner": self.end[0], "reason": self.end[1]} if self.end else None,
            "words": self.words(),
        }


def rulings(record: Record, report: GameReport, upto: int | None = None) -> list[MoveRuling]:
    """The ruling of moves 1 to ``upto`` of ``record``, read off its ``report``.

    ``upto`` defaults to the move that ended the game (the last move when undecided); past the
    end of the game a report does not list later fives, so rulings there are not complete.
    """
    result = report.result
    upto = min(_end_of_play(record, result) if upto is None else upto, len(record.moves))
    kinds = {f.move: tuple(f.kinds) for f in report.forbidden_moves}
    findings = _move_findings(report)
    five_move = report.first_five.move if report.first_five is not None else None
    end = (str(result.winner), str(result.reason)) if result.decided else None
    return [
        MoveRuling(
            move=number,
            point=point_name(record.moves[number - 1].point),
            kinds=kinds.get(number, ()),
            five=five_move == number,
            findings=findings.get(number, ()),
            end=end if result.move == number else None,
        )
        for number in range(1, upto + 1)
    ]


def _end_of_play(record: Record, result: Result) -> int:
    """The move that ended the game, else the last move of the record."""
    if result.decided and result.move is not None:
        return result.move
    return len(record.moves)


def _move_findings(report: GameReport) -> dict[int, tuple[str, ...]]:
    """The codes of the findings that judge each move, in the order of ``MOVE_CODES``."""
    codes: dict[int, set[str]] = {}
    for f in report.findings:
        if f.move is not None and f.code in MOVE_CODES:
            codes.setdefault(f.move, set()).add(f.code)
    return {move: tuple(sorted(found, key=MOVE_CODES.index)) for move, found in codes.items()}


@dataclass
class Parting:
    """The first move that the rulesets rule differently, with each ruleset's ruling."""

    move: int
    point: str
    rulings: list[tuple[str, MoveRuling]]  #: (ruleset name, ruling), in the order given

    def message(self) -> str:
        """The parting for people, rulesets that rule alike named together, in the order given.

        E.g. ``move 23 j9: forbidden double-three, white wins under renju; legal under freestyle``.
        """
        groups: dict[str, list[str]] = {}
        for name, ruling in self.rulings:
            groups.setdefault(ruling.words(), []).append(name)
        text = "; ".join(f"{words} under {', '.join(names)}" for words, names in groups.items())
        return f"move {self.move} {self.point}: {text}"

    def to_json(self) -> dict[str, Any]:
        """The ``parting`` object of ``renju diff --format json``."""
        return {
            "move": self.move,
            "point": self.point,
            "rulings": [{"ruleset": name, **r.to_json()} for name, r in self.rulings],
            "message": self.message(),
        }


@dataclass
class RecordDiff:
    """One record judged under several rulesets: the reports, in the order of the rulesets."""

    record: Record
    reports: list[GameReport]
    parting: Parting | None = None

    @property
    def source(self) -> SourceLocation:
        return self.record.source

    @property
    def unreadable(self) -> bool:
        return self.record.unreadable

    @property
    def failed(self) -> list[str]:
        """Messages of the referee's failures on this record (a bug), one per failed ruleset."""
        return [
            f"{r.ruleset}: {f.message}"
            for r in self.reports
            for f in r.findings
            if f.code == FAILED
        ]

    @property
    def listed(self) -> bool:
        """Whether the JSON diffs list the record: its outcomes differ, or it could not be read
        or judged."""
        return self.differs or self.unreadable or bool(self.failed)

    @property
    def differs(self) -> bool:
        """Whether the outcomes (winner, reason, move, point) are not all the same.

        A record that the referee failed on under some ruleset has no outcome to compare.
        """
        if self.failed:
            return False
        first = self.reports[0].result.to_json()
        return any(r.result.to_json() != first for r in self.reports[1:])

    def to_json(self) -> dict[str, Any]:
        """One record object of ``renju diff --format json`` / ``jsonl``."""
        declared: DeclaredResult | None = self.record.declared_result
        return {
            "source": self.source.to_json(),
            "format": self.record.format,
            "moves": len(self.record.moves),
            "declared_result": declared.to_json() if declared else None,
            "differs": self.differs,
            "failed": self.failed,
            "outcomes": [
                {"ruleset": r.ruleset, "result": r.result.to_json()} for r in self.reports
            ],
            "parting": self.parting.to_json() if self.parting else None,
        }


def first_parting(record: Record, reports: Sequence[GameReport]) -> Parting | None:
    """The first move whose rulings differ between ``reports`` (one record, several rulesets).

    ``None`` when the rulings agree on every move up to the earliest end of the game.
    """
    upto = min((_end_of_play(record, r.result) for r in reports), default=len(record.moves))
    names = [r.ruleset for r in reports]
    for here in zip(*(rulings(record, r, upto) for r in reports), strict=True):
        if any(not here[0].same_as(other) for other in here[1:]):
            return Parting(here[0].move, here[0].point, list(zip(names, here, strict=True)))
    return None


def _settings(rulesets: Sequence[Ruleset], options: ReadOptions | None) -> list[Settings]:
    """The settings of a run under each ruleset: the bound on double-three judgements of
    ``options`` holds for the whole run, as for ``renju check``."""
    opts = options or ReadOptions()
    terms = (opts.judgements_allowance, opts.records_per_judgement)
    steps = (opts.walk_steps_allowance, opts.walk_steps_per_record)
    listed = (opts.listed_allowance, opts.listed_per_record)
    return [
        Settings(rules, judgements=terms, walk_steps=steps, listed=listed) for rules in rulesets
    ]


def diff_record(
    record: Record, rulesets: Sequence[Ruleset], options: ReadOptions | None = None
) -> RecordDiff:
    """Replay ``record`` under each ruleset; find the parting move when the outcomes differ.
    ``options``: their bound on double-three judgements (a run of its own).

    Never raises on a bad record: a failure of the referee is an ``internal-error`` finding of
    that ruleset's report (``RecordDiff.failed``).
    """
    return _diff(record, _settings(rulesets, options))


def _diff(record: Record, settings: Sequence[Settings]) -> RecordDiff:
    """``diff_record`` with the settings of a run under each ruleset."""
    diff = RecordDiff(record, [judge_one(record, s).report for s in settings])
    if diff.differs:
        diff.parting = first_parting(record, diff.reports)
    return diff


def diff_paths(
    paths: Iterable[str],
    rulesets: Sequence[Ruleset],
    fmt: str | None = None,
    options: ReadOptions | None = None,
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
) -> Iterator[RecordDiff]:
    """Diff every record of every input, in input order (a missing input is unreadable)."""
    yield from diff_inputs(expand_inputs(paths, include, exclude), rulesets, fmt, options)


def diff_inputs(
    inputs: Iterable[str | InputError],
    rulesets: Sequence[Ruleset],
    fmt: str | None = None,
    options: ReadOptions | None = None,
) -> Iterator[RecordDiff]:
    """Diff every record of inputs already expanded by ``expand_inputs`` (one run)."""
    settings = _settings(rulesets, options)
    for item in inputs:
        if isinstance(item, InputError):
            yield _diff(unreadable(item.path, item.message), settings)
            continue
        for record in read_path(item, fmt, options):
            yield _diff(record, settings)


# -- output ---------------------------------------------------------------------------------------
@dataclass
class DiffSummary:
    """Counts over a batch of diffs."""

    rulesets: list[str]
    records: int = 0
    unreadable: int = 0
    differing: int = 0
    #: records the referee failed on under some ruleset (a bug: see their findings)
    failed: int = 0
    #: how often each pair of outcomes occurs, e.g. ``white/forbidden -> undecided``
    changes: dict[str, int] = field(default_factory=dict)

    def add(self, diff: RecordDiff) -> None:
        self.records += 1
        if diff.unreadable:
            self.unreadable += 1
        if diff.failed:
            self.failed += 1
        if diff.differs:
            self.differing += 1
            key = " -> ".join(_outcome_key(r) for r in diff.reports)
            self.changes[key] = self.changes.get(key, 0) + 1

    def to_json(self) -> dict[str, Any]:
        """The ``summary`` object of ``renju diff --format json``."""
        return {
            "rulesets": self.rulesets,
            "records": self.records,
            "unreadable": self.unreadable,
            "differing": self.differing,
            "failed": self.failed,
            "changes": dict(sorted(self.changes.items())),
        }


def _outcome_key(report: GameReport) -> str:
    r = report.result
    return f"{r.winner}/{r.reason}" if r.winner else "undecided"


class DiffRenderer:
    """Base class: fed every diff in input order, then the summary; prints differing records."""

    def __init__(self, out: TextIO, rulesets: Sequence[str]) -> None:
        self.out = out
        self.rulesets = list(rulesets)

    def record(self, diff: RecordDiff) -> None:
        raise NotImplementedError

    def finish(self, summary: DiffSummary) -> None:
        pass


class DiffTextRenderer(DiffRenderer):
    """A block per differing record: each ruleset's result, then the parting move."""

    def record(self, diff: RecordDiff) -> None:
        if diff.unreadable:
            problems = "; ".join(p.message for p in diff.record.problems)
            self.out.write(f"{where(diff.reports[0])}: unreadable: {printable(problems)}\n")
            return
        if diff.failed:
            self.out.write(f"{where(diff.reports[0])}: could not be judged: ")
            self.out.write(printable("; ".join(diff.failed)) + "\n")
            return
        if diff.differs:
            self._outcomes(diff)

    def _outcomes(self, diff: RecordDiff) -> None:
        """Each ruleset's result, then the parting move."""
        width = max(len(r.ruleset) for r in diff.reports)
        self.out.write(f"{where(diff.reports[0])}: outcomes differ\n")
        for r in diff.reports:
            # (a declared result's words come from the record: no control characters)
            self.out.write(f"  {r.ruleset:<{width}}  {printable(result_words(r))}\n")
        if diff.parting is not None:
            self.out.write(f"  rulings part at {printable(diff.parting.message())}\n")
        else:
            self.out.write("  the rulings do not part on any move\n")

    def finish(self, summary: DiffSummary) -> None:
        s = summary
        self.out.write(
            f"{s.records} record(s) under {', '.join(s.rulesets)}: {s.differing} with "
            f"differing outcomes, {s.unreadable} unreadable"
            + (f", {s.failed} not judged (internal error)" if s.failed else "")
            + "\n"
        )
        if s.changes:
            parts = ", ".join(f"{k} {n}" for k, n in sorted(s.changes.items()))
            self.out.write(f"changes: {parts}\n")


class DiffJsonLinesRenderer(DiffRenderer):
    """One JSON object per differing, unreadable or failed record, in input order; no summary."""

    def record(self, diff: RecordDiff) -> None:
        if diff.listed:
            self.out.write(dumps(diff.to_json()) + "\n")


class DiffJsonRenderer(DiffRenderer):
    """``{"rulesets": [...], "records": [...], "summary": {...}}``, written incrementally."""

    def __init__(self, out: TextIO, rulesets: Sequence[str]) -> None:
        super().__init__(out, rulesets)
        self.count = 0
        self.out.write('{"rulesets":' + dumps(self.rulesets) + ',"records":[')

    def record(self, diff: RecordDiff) -> None:
        if diff.listed:
            self.out.write(("," if self.count else "") + "\n" + dumps(diff.to_json()))
            self.count += 1

    def finish(self, summary: DiffSummary) -> None:
        self.out.write("\n],\n" + '"summary":' + dumps(summary.to_json()) + "}\n")


DIFF_RENDERERS: dict[str, type[DiffRenderer]] = {
    "text": DiffTextRenderer,
    "json": DiffJsonRenderer,
    "jsonl": DiffJsonLinesRenderer,
}
