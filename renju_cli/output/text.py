"""The report as text for people: one line per record, its findings indented, a summary.

Also the small text forms other outputs share: a record's place (``path:line [index]``), its
result in words, a finding on one line, and ``printable`` (control characters escaped).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

from renju_cli.output.base import Renderer
from renju_cli.record import place as place
from renju_cli.record import printable as printable
from renju_cli.report import ERROR, Finding, GameReport, Summary


def use_color(out: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set to a non-empty value
    (https://no-color.org)."""
    return bool(out.isatty()) and not os.environ.get("NO_COLOR")


def _color(text: str, code: str, enabled: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if enabled else text


_SEVERITY_COLOR = {"error": "31", "warning": "33", "info": "36"}


def where(report: GameReport) -> str:
    """``path:line [index]`` (or ``path@offset [index]``) of a record, for messages."""
    return place(report.source)


def result_words(report: GameReport) -> str:
    """The result on the board in words, and the declared result when the record has one."""
    r = report.result
    if r.winner is None:
        text = "undecided on the board"
    elif r.winner == "draw":
        text = f"draw ({r.reason}) at move {r.move}"
    else:
        text = f"{r.winner} wins by {r.reason} at move {r.move}" + (
            f" ({r.point})" if r.point else ""
        )
    d = report.declared_result
    if d is not None and d.winner is not None:
        text += f"; declared: {d.winner}" + (f" ({d.reason})" if d.reason else "")
    return text


def finding_text(f: Finding) -> str:
    """A finding on one line: ``move 23 (j9): message``."""
    if f.move is None or f.message.startswith(f"move {f.move} "):
        return f.message
    at = f"move {f.move}" + (f" ({f.point})" if f.point else "")
    return f"{at}: {f.message}"


class TextRenderer(Renderer):
    """One line per record, then its findings indented; a summary at the end."""

    def __init__(
        self,
        out: TextIO,
        quiet: bool = False,
        color: bool | None = None,
        *,
        fail_on: str | None = ERROR,
    ) -> None:
        super().__init__(out, quiet, fail_on=fail_on)
        if color is None:
            color = use_color(out)
        self.color = color

    def record(self, report: GameReport) -> None:
        """One line for the record, one more for each finding."""
        if self.quiet and not report.findings:
            return
        opening = ""
        if report.opening and report.opening.get("id"):
            opening = f" {report.opening['id']} {report.opening.get('name', '')}".rstrip()
        head = (
            f"{where(report)} {report.ruleset}{opening}: {report.moves} "
            f"{'move' if report.moves == 1 else 'moves'}, {result_words(report)}"
        )
        # one write a record: a record of thousands of findings is one call, not thousands
        parts = [printable(head), "\n"]
        line = report.source.line
        for f in report.findings:
            sev = _color(f.severity, _SEVERITY_COLOR.get(f.severity, "0"), self.color)
            at = f" move {f.move}" if f.move is not None else ""
            if f.line is not None and f.line != line and not f.message.startswith("line "):
                at += f" at line {f.line}"  # a record of many lines: where to look
            parts.append(f"  {sev} {f.code}{at}: {printable(f.message)}\n")
        self.out.write("".join(parts))

    def finish(self, summary: Summary) -> None:
        """The summary of the run."""
        self.out.write(summary_text(summary))


def _counts(counter: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in counter.items())


def summary_text(s: Summary) -> str:
    """The batch summary for people: one line of counts, then one line per kind of count."""
    head = (
        f"{s.records} record(s): {s.judged} judged, {s.unreadable} unreadable, "
        f"{s.with_findings} with findings"
    )
    if s.internal_errors:
        head += f", {s.internal_errors} internal error(s)"
    lines = [head]
    j = s.to_json()
    for label, key in (
        ("findings", "findings"),
        ("severities", "severities"),
        ("results", "results"),
        ("winners", "winners"),
        ("openings", "openings"),
    ):
        if j[key]:
            lines.append(f"{label}: {_counts(j[key])}")
    if s.duplicates:
        left_out = f", {s.skipped} skipped" if s.skipped else ""
        lines.append(f"duplicates: {s.duplicates}{left_out}")
    return "".join(line + "\n" for line in lines)
