"""SARIF 2.1.0 for ``renju check --format sarif``: findings for code-scanning dashboards.

One run of the tool ``renju-cli``; its rules are the finding codes, each with a description;
each finding is a result with the code as its rule, a level from its severity (``info`` is a
``note``), its message, and the record's file and line as its location (a record read from
standard input has none).  The document is written as records come, one result a line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from renju_cli.output.base import Renderer
from renju_cli.output.json import dumps
from renju_cli.output.text import finding_text
from renju_cli.report import CODES, ERROR, INFO, WARNING, Finding, GameReport, Summary

#: The schema a SARIF 2.1.0 log names (the OASIS standard with its first errata).
SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
VERSION = "2.1.0"
TOOL = "renju-cli"
#: SARIF's level of each severity.
LEVELS = {ERROR: "error", WARNING: "warning", INFO: "note"}

#: What each finding code means: the rules of the run.
DESCRIPTIONS = {
    "parse-error": "A record, or a part of it, could not be read.",
    "off-board": "A move or stone outside the board.",
    "occupied": "A move on a point that already holds a stone.",
    "wrong-color": "A stone of the wrong colour for its turn.",
    "illegal-pass": "A pass that the rules or the opening protocol do not allow.",
    "forbidden-move": "A move on a forbidden point (double-three, double-four or overline).",
    "unclaimed-foul": "A forbidden move that the opponent did not claim at once.",
    "move-after-end": "A move recorded after the game had ended.",
    "result-mismatch": "The declared result differs from the result on the board.",
    "board-size": "The record's board size differs from the ruleset's.",
    "opening-region": "An opening stone outside the region its protocol step allows.",
    "opening-not-canonical": "The first three stones are not one of the 26 canonical openings.",
    "opening-id-mismatch": "The declared opening names another opening than its stones.",
    "swap-not-allowed": "A swap or colour choice where the opening protocol has none.",
    "offer-count": "Not the number of offers that the opening protocol requires.",
    "offer-invalid": "An offer off the board, on a stone, repeated, outside its region or on "
    "a forbidden point.",
    "offer-symmetric": "Two offers that a symmetry of the stones maps onto each other.",
    "kept-not-offered": "The kept move is not one of the offers.",
    "reject-not-allowed": "A rejection where the opening protocol has none.",
    "relocation-invalid": "A moved stone that the opening protocol does not let move there.",
    "board-not-named": "Two-board gomoku: a stone that names no board.",
    "unchecked": "A check that the record does not allow (offers not recorded, a preset position).",
    "duplicate": "A record of the same game as an earlier one, up to board symmetry.",
    "internal-error": "The record could not be judged: a bug in renju-cli.",
    "too-many-findings": "More findings than are listed for one record; the rest are counted.",
}


def tool_version() -> str | None:
    """The installed version of renju-cli (``None`` when it is not installed)."""
    from importlib import metadata  # (only a SARIF log needs it)

    try:
        return metadata.version(TOOL)
    except metadata.PackageNotFoundError:
        return None


def rules() -> list[dict[str, Any]]:
    """The reporting descriptors of the run: one per finding code, in the order of ``CODES``."""
    return [
        {
            "id": code,
            "shortDescription": {"text": DESCRIPTIONS.get(code, code)},
            "defaultConfiguration": {"level": LEVELS.get(severity, "error")},
        }
        for code, severity in CODES.items()
    ]


def artifact_uri(path: str) -> str:
    """A path as a URI reference: relative paths stay relative (to the directory the check ran
    in), absolute ones are ``file:`` URIs; bytes outside ASCII are percent-encoded (a name
    undecodable in UTF-8 by its own bytes)."""
    absolute = os.path.isabs(path)
    text = Path(path).as_posix() if absolute else path.replace(os.sep, "/")
    try:
        encoded = quote(text, safe="/", errors="surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte
        encoded = quote(text, safe="/", errors="replace")
    return f"file://{encoded}" if absolute else encoded


def location(report: GameReport, f: Finding) -> dict[str, Any] | None:
    """Where a finding is: the record's file, and the finding's line (else the record's, else
    its byte offset); ``None`` for standard input."""
    path = report.source.path
    if path.startswith("<"):  # <stdin> is no file
        return None
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(path)}}
    line = f.line if f.line is not None else report.source.line
    offset = f.offset if f.offset is not None else report.source.offset
    if line is not None and line >= 1:
        physical["region"] = {"startLine": line}
    elif offset is not None and offset >= 0:
        physical["region"] = {"byteOffset": offset}
    return {"physicalLocation": physical}


def result(report: GameReport, f: Finding, index: dict[str, int]) -> dict[str, Any]:
    """The SARIF result of one finding."""
    out: dict[str, Any] = {
        "ruleId": f.code,
        "level": LEVELS.get(f.severity, "error"),
        "message": {"text": f"record {report.source.index}, {finding_text(f)}"},
    }
    if f.code in index:
        out["ruleIndex"] = index[f.code]
    where = location(report, f)
    if where is not None:
        out["locations"] = [where]
    return out


class SarifRenderer(Renderer):
    """One SARIF log of one run, results written as records come."""

    def __init__(self, out: TextIO, quiet: bool = False, *, fail_on: str | None = ERROR) -> None:
        super().__init__(out, quiet, fail_on=fail_on)
        driver: dict[str, Any] = {"name": TOOL}
        version = tool_version()
        if version is not None:
            driver["version"] = version
        driver["rules"] = rules()
        self.index = {code: n for n, code in enumerate(CODES)}
        self.count = 0
        head = dumps({"$schema": SCHEMA, "version": VERSION})[:-1]
        self.out.write(f'{head},"runs":[{{"tool":{{"driver":{dumps(driver)}}},"results":[')

    def record(self, report: GameReport) -> None:
        """A result for each finding of the record."""
        for f in report.findings:
            self.out.write(
                ("," if self.count else "") + "\n" + dumps(result(report, f, self.index))
            )
            self.count += 1

    def finish(self, summary: Summary) -> None:
        """The invocation (successful unless a record met a bug) and the counts of the run."""
        invocation = {"executionSuccessful": not summary.internal_errors}
        properties = {"summary": summary.to_json()}
        self.out.write(
            f'\n],"invocations":[{dumps(invocation)}],"properties":{dumps(properties)}}}]}}\n'
        )
