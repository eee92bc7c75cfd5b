"""The report as JSON for machines: one document (``json``), or one object a line (``jsonl``)."""

from __future__ import annotations

import json
from typing import Any, TextIO

import orjson

from renju_cli.formats import one_line
from renju_cli.output.base import Renderer
from renju_cli.report import ERROR, GameReport, Summary


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
        """The record's object on one line."""
        self.out.write(dumps(report.to_json()) + "\n")


class JsonRenderer(Renderer):
    """``{"records": [...], "summary": {...}}``, written incrementally."""

    def __init__(self, out: TextIO, quiet: bool = False, *, fail_on: str | None = ERROR) -> None:
        super().__init__(out, quiet, fail_on=fail_on)
        self.count = 0
        self.out.write('{"records":[')

    def record(self, report: GameReport) -> None:
        """The record's object, one line of the list."""
        self.out.write(("," if self.count else "") + "\n" + dumps(report.to_json()))
        self.count += 1

    def finish(self, summary: Summary) -> None:
        """The summary, and the end of the document."""
        self.out.write("\n],\n" + '"summary":' + dumps(summary.to_json()) + "}\n")
