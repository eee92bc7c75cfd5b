"""The report model: findings, per-record reports and the batch summary.

Renderers (``renju_cli.output``) turn these into text, JSON, JSON Lines and CI formats; the JSON
field names are the contract of ``shared/spec/cli.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from renju_cli.limits import MAX_FINDINGS as MAX_FINDINGS
from renju_cli.memo import remember
from renju_cli.record import CODES as CODES
from renju_cli.record import ERROR as ERROR
from renju_cli.record import INFO as INFO
from renju_cli.record import SEVERITIES as SEVERITIES
from renju_cli.record import WARNING as WARNING
from renju_cli.record import DeclaredResult, SourceLocation
from renju_cli.record import Finding as Finding
from renju_cli.record import severity_rank as severity_rank

#: The code of the finding that counts those a record does not list.
TOO_MANY = "too-many-findings"


def elide_findings(
    findings: list[Finding],
    dropped: Mapping[tuple[str, str], int] | None = None,
    cap: int = MAX_FINDINGS,
    why: str = "",
) -> list[Finding]:
    """``findings`` cut to ``cap``, the rest (and ``dropped``: findings never made, counted by
    code and severity) counted by code in one ``too-many-findings`` finding of the worst
    severity among them; ``why``: the reason it gives, when not ``MAX_FINDINGS`` (one such
    finding already last in ``findings`` is merged into the new one)."""
    if len(findings) <= cap and not dropped:
        return findings
    # (plain dicts: past the run's bound on findings listed, every record is cut here)
    tally = dict(dropped) if dropped else {}
    if findings and _is_tally(findings[-1]):  # counted again, with the findings cut now
        why = why or findings[-1].why
        _count(tally, findings[-1].unlisted_tally())
        findings = findings[:-1]
    kept = findings[:cap]
    for f in findings[cap:]:
        key = (f.code, f.severity)
        tally[key] = tally.get(key, 0) + 1
    unlisted = {key: n for key, n in tally.items() if n > 0}
    if unlisted:
        kept.append(_elided(unlisted, len(kept), why))
    return kept


def _is_tally(f: Finding) -> bool:
    """Whether ``f`` is a ``too-many-findings`` finding that counts the findings not listed."""
    return f.code == TOO_MANY and f.counts is not None


def _count(tally: dict[tuple[str, str], int], counts: Mapping[tuple[str, str], int]) -> None:
    """Add ``counts`` (of findings by code and severity) to ``tally``."""
    for key, n in counts.items():
        tally[key] = tally.get(key, 0) + n


def _elided(unlisted: dict[tuple[str, str], int], listed: int, why: str = "") -> Finding:
    """The ``too-many-findings`` finding that counts ``unlisted`` (by code and severity) after
    ``listed`` findings, of the worst severity among them.  Shared by the records that count
    the same (nothing changes a finding once made)."""
    # (past the run's bound on findings listed, every record makes one, and a hostile file's
    # records mostly count alike: the same few codes, the same numbers)
    if len(unlisted) <= 4:
        key = (listed, why, *unlisted.items())
        known = _ELIDED.get(key)
        if known is None:
            known = remember(_ELIDED, key, _new_elided(unlisted, listed, why), _ELIDED_ENTRIES)
        return known
    return _new_elided(unlisted, listed, why)


#: ``_elided`` findings by what they count (cleared when full).
_ELIDED: dict[tuple[object, ...], Finding] = {}
_ELIDED_ENTRIES = 1024


def _new_elided(unlisted: dict[tuple[str, str], int], listed: int, why: str) -> Finding:
    counts: dict[str, int] = {}
    worst = INFO
    for (code, severity), n in sorted(unlisted.items()):
        counts[code] = counts.get(code, 0) + n
        if severity_rank(severity) > severity_rank(worst):
            worst = severity
    total = sum(counts.values())
    text = ", ".join([f"{code} {n}" for code, n in counts.items()])
    because = f", as {why}" if why else ""
    words = (
        f"{total} more finding(s) are not listed ({text}){because}; the first {listed} are"
        if listed
        else f"{total} finding(s) are not listed ({text}){because}"
    )
    return Finding(TOO_MANY, words, worst, None, None, None, None, counts, unlisted, why)


def filter_findings(
    findings: list[Finding],
    unreadable: bool,
    select: frozenset[str] = frozenset(),
    ignore: frozenset[str] = frozenset(),
) -> list[Finding]:
    """The findings that ``--select`` (when given) and ``--ignore`` leave.

    The findings a ``too-many-findings`` finding counts are filtered alike: its counts keep the
    codes left (it goes when none is left, or when it is ignored itself), so that the summary
    and the exit code see only what the filters let through.  An ``internal-error`` and the
    ``parse-error`` of a record that could not be read are never filtered out: such a record is
    never clean (as a linter reports a syntax error whatever rules are selected).
    """

    def kept(code: str) -> bool:
        return (not select or code in select) and code not in ignore

    out: list[Finding] = []
    for f in findings:
        if _is_tally(f):
            whole = len(out) == len(findings) - 1  # (no finding before it filtered out)
            left = None if TOO_MANY in ignore else _tally_left(f, kept, len(out), whole)
            if left is not None:
                out.append(left)
        elif _always_reported(f, unreadable) or kept(f.code):
            out.append(f)
    return out


def _always_reported(f: Finding, unreadable: bool) -> bool:
    """An ``internal-error``, or the ``parse-error`` of a record that could not be read."""
    return f.code == "internal-error" or (unreadable and f.code == "parse-error")


def _tally_left(
    f: Finding, kept: Callable[[str], bool], listed: int, whole: bool
) -> Finding | None:
    """The tally ``f`` of the codes ``kept`` leaves, after ``listed`` findings; ``f`` itself
    when it keeps them all and ``whole``: no finding before it was filtered out (``None``:
    none is left)."""
    unlisted = f.unlisted_tally()
    left = {key: n for key, n in unlisted.items() if kept(key[0])}
    if whole and len(left) == len(unlisted):
        return f
    return _elided(left, listed, f.why) if left else None


@dataclass(slots=True)
class Result:
    """How the game ended on the board."""

    winner: str | None = None  # black, white, draw
    reason: str | None = None  # five, overline, forbidden, passes, board-full, move-limit
    move: int | None = None
    point: str | None = None

    @property
    def decided(self) -> bool:
        return self.winner is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "move": self.move,
            "point": self.point,
        }


@dataclass(slots=True)
class FirstFive:
    move: int
    color: str
    point: str
    stones: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "color": self.color, "point": self.point, "stones": self.stones}


@dataclass(slots=True)
class ForbiddenMove:
    move: int
    point: str
    kinds: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "point": self.point, "kinds": self.kinds}


@dataclass(slots=True)
class GameReport:
    """What replaying one record found.

    The referee builds reports (and their findings, results...) with positional arguments, once
    per record of a batch: the order of the fields is part of the contract, pinned by
    ``tests/test_referee.py``; append new fields at the end.
    """

    source: SourceLocation
    ruleset: str
    moves: int = 0
    format: str = "notation"
    opening: dict[str, Any] | None = None
    result: Result = field(default_factory=Result)
    declared_result: DeclaredResult | None = None
    first_five: FirstFive | None = None
    forbidden_moves: list[ForbiddenMove] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unreadable: bool = False

    def worst(self) -> str | None:
        """The highest severity among the findings, or ``None``."""
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=severity_rank)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source.to_json(),
            "format": self.format,
            "ruleset": self.ruleset,
            "moves": self.moves,
            "opening": self.opening,
            "result": self.result.to_json(),
            "declared_result": self.declared_result.to_json() if self.declared_result else None,
            "first_five": self.first_five.to_json() if self.first_five else None,
            # (an empty comprehension still costs a call: most reports of a batch have none)
            "forbidden_moves": [f.to_json() for f in self.forbidden_moves]
            if self.forbidden_moves
            else [],
            "findings": [f.to_json() for f in self.findings] if self.findings else [],
            "metadata": self.metadata,
            "notes": self.notes,
            "unreadable": self.unreadable,
        }


@dataclass
class Summary:
    """Counts over a batch, in the order records were reported.

    ``records == judged + unreadable + internal_errors``: a record whose judgement failed (an
    ``internal-error`` finding) was read but not judged.  ``duplicates`` counts records found to
    be the same game as an earlier one; ``skipped`` those of them left out of the report
    (``--duplicates skip``), which are not counted in ``records``.  ``findings`` (by code) and
    ``severities`` count the same findings: those listed, a ``too-many-findings`` finding among
    them, and those it stands for, so that both add up to one total.
    """

    records: int = 0
    unreadable: int = 0
    internal_errors: int = 0
    with_findings: int = 0
    #: opening id -> count, for records whose opening was named
    openings: Counter[str] = field(default_factory=Counter)
    files: int = 0
    duplicates: int = 0
    skipped: int = 0
    #: findings by code and severity, and results by winner and reason (``add`` counts one key
    #: a finding and a record: the counts below are read from these once, at the end)
    by_kind: Counter[tuple[str, str]] = field(default_factory=Counter)
    outcomes: Counter[tuple[str | None, str | None]] = field(default_factory=Counter)

    @property
    def judged(self) -> int:
        return self.records - self.unreadable - self.internal_errors

    @property
    def findings(self) -> Counter[str]:
        """Findings by code."""
        return _tally(self.by_kind, lambda code, _: code)

    @property
    def severities(self) -> Counter[str]:
        """Findings by severity."""
        return _tally(self.by_kind, lambda _, severity: severity)

    @property
    def results(self) -> Counter[str]:
        """Records by ``winner/reason`` (``black/five``...) or ``undecided``."""
        return _tally(
            self.outcomes, lambda winner, reason: f"{winner}/{reason}" if winner else "undecided"
        )

    @property
    def winners(self) -> Counter[str]:
        """Records by winner: ``black``, ``white``, ``draw`` or ``undecided``."""
        return _tally(self.outcomes, lambda winner, _: winner or "undecided")

    def add(self, report: GameReport) -> None:
        """Count one reported record (after ``--select``/``--ignore``)."""
        self.records += 1
        findings = report.findings
        if report.unreadable:
            self.unreadable += 1
        if findings:
            self.with_findings += 1
            _count_kinds(self.by_kind, findings)
            if not report.unreadable and any(f.code == "internal-error" for f in findings):
                self.internal_errors += 1
        r = report.result
        self.outcomes[r.winner, r.reason] += 1
        opening = report.opening
        if opening and opening.get("id"):
            self.openings[str(opening["id"])] += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "judged": self.judged,
            "unreadable": self.unreadable,
            "internal_errors": self.internal_errors,
            "with_findings": self.with_findings,
            "findings": dict(sorted(self.findings.items())),
            "severities": dict(sorted(self.severities.items(), key=lambda kv: _sev_order(kv[0]))),
            "results": dict(sorted(self.results.items())),
            "winners": dict(sorted(self.winners.items())),
            "openings": dict(sorted(self.openings.items())),
            "files": self.files,
            "duplicates": self.duplicates,
            "skipped": self.skipped,
        }


def _count_kinds(by_kind: Counter[tuple[str, str]], findings: list[Finding]) -> None:
    """Count ``findings`` by code and severity, and the findings a ``too-many-findings``
    finding stands for."""
    for f in findings:
        by_kind[f.code, f.severity] += 1
        if f.counts:
            by_kind.update(f.unlisted_tally())


def _tally(pairs: Counter[tuple[Any, Any]], name: Callable[[Any, Any], str]) -> Counter[str]:
    """``pairs`` counted again by the ``name`` of each pair."""
    out: Counter[str] = Counter()
    for (a, b), n in pairs.items():
        out[name(a, b)] += n
    return out


def _sev_order(severity: str) -> int:
    # errors first, as people read them; unknown severities last
    return -severity_rank(severity) if severity in SEVERITIES else 1
