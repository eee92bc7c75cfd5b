"""Renderers: the report model as text for people, JSON / JSON Lines for machines, and the CI
formats of ``renju_cli.render_ci`` (GitHub annotations, JUnit XML).

A renderer is fed reports one at a time (``record``), in input order, and closes with the
batch summary (``finish``), so output streams and memory stays flat for JSON Lines and text.
"""

from __future__ import annotations

import json
import os
from typing import Any, TextIO

import orjson

from renju_cli.formats import one_line
from renju_cli.record import SourceLocation
from renju_cli.report import ERROR, GameReport, Summary


class RenderError(OSError):
    """A renderer could not keep what it writes (the JUnit renderer spools a file's cases to a
    temporary file, which a full disk refuses): the report cannot be written."""


class Renderer:
    """Base class: writes to ``out``.

    ``fail_on`` is the lowest severity that fails the run (``--fail-on``; ``None`` = never), for
    formats that mark records as failed (JUnit).
    """

    def __init__(self, out: TextIO, quiet: bool = False, *, fail_on: str | None = ERROR) -> None:
        self.out = out
        self.quiet = quiet
        self.fail_on = fail_on

    def record(self, report: GameReport) -> None:
        raise NotImplementedError

    def finish(self, summary: Summary) -> None:
        pass


def dumps(obj: Any) -> str:
    """Compact JSON on one line, non-ASCII as is but for the characters ``str.splitlines``
    ends a line at (``formats.one_line``).  orjson: a report of a tiny record costs more to
    encode with ``json.dumps`` than to judge; the standard library takes what orjson refuses
    (integers past 64 bits, strings with lone surrogates) and says the same, lone surrogates
    escaped."""
    try:
        return one_line(orjson.dumps(obj).decode())
    except TypeError:  # orjson.JSONEncodeError
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # a lone surrogate (a JSON Lines "\ud800", text decoded as UTF-7): no UTF-8 stream
        # can take it, and an escape says it exactly
        return json.dumps(obj, separators=(",", ":"))
    return one_line(text)


class JsonLinesRenderer(Renderer):
    """One JSON object per record, in input order; no summary (it would break the stream)."""

    def record(self, report: GameReport) -> None:
        self.out.write(dumps(report.to_json()) + "\n")


class JsonRenderer(Renderer):
    """``{"records": [...], "summary": {...}}``, written incrementally."""

    def __init__(self, out: TextIO, quiet: bool = False, *, fail_on: str | None = ERROR) -> None:
        super().__init__(out, quiet, fail_on=fail_on)
        self.count = 0
        self.out.write('{"records":[')

    def record(self, report: GameReport) -> None:
        self.out.write(("," if self.count else "") + "\n" + dumps(report.to_json()))
        self.count += 1

    def finish(self, summary: Summary) -> None:
        self.out.write("\n],\n" + '"summary":' + dumps(summary.to_json()) + "}\n")


def use_color(out: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set to a non-empty value
    (https://no-color.org)."""
    return bool(out.isatty()) and not os.environ.get("NO_COLOR")


def _color(text: str, code: str, enabled: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if enabled else text


_SEVERITY_COLOR = {"error": "31", "warning": "33", "info": "36"}


def printable(text: str) -> str:
    """``text`` with control characters (a newline in a file name, an escape sequence in a
    record) written as escapes: one record is one line of text, and a file cannot drive the
    terminal that shows its report."""
    if text.isprintable():  # nearly always: one call in C
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def where(report: GameReport) -> str:
    """``path:line [index]`` (or ``path@offset [index]``) of a record, for messages."""
    return place(report.source)


def place(s: SourceLocation) -> str:
    """``path:line [index]`` (or ``path@offset [index]``) of a source location (control
    characters of the path escaped: see ``printable``)."""
    loc = printable(s.path)
    if s.line is not None:
        loc += f":{s.line}"
    elif s.offset is not None:
        loc += f"@{s.offset}"
    loc += f" [{s.index}]"
    if s.variation is not None:
        loc += f" line {s.variation}"
    return loc


def result_words(report: GameReport) -> str:
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
        if self.quiet and not report.findings:
            return
        opening = ""
        if report.opening and report.opening.get("id"):
            opening = f" {report.opening['id']} {report.opening.get('name', '')}".rstrip()
        head = (
            f"{where(report)} {report.ruleset}{opening}: {report.moves} "
            f"{'move' if report.moves == 1 else 'moves'}, {result_words(report)}"
        )
        # one write a record (a megabyte of records of a finding a move wrote 150,000 times)
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
        self.out.write(summary_text(summary))


def summary_text(s: Summary) -> str:
    """The batch summary for people: one line of counts, then one line per kind of count."""

    def counts(counter: Any) -> str:
        return ", ".join(f"{k} {n}" for k, n in counter.items())

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
            lines.append(f"{label}: {counts(j[key])}")
    if s.duplicates:
        left_out = f", {s.skipped} skipped" if s.skipped else ""
        lines.append(f"duplicates: {s.duplicates}{left_out}")
    return "".join(line + "\n" for line in lines)


RENDERERS: dict[str, type[Renderer]] = {
    "text": TextRenderer,
    "json": JsonRenderer,
    "jsonl": JsonLinesRenderer,
}

# The CI formats subclass ``Renderer`` and add themselves to RENDERERS: imported last, once the
# base class exists (whichever of the two modules is imported first).
import renju_cli.render_ci  # noqa: E402, F401
