"""CI formats of ``renju check``: GitHub Actions annotations and JUnit XML.

``--format github`` writes workflow commands (``::error file=…,line=…::…``) for the first
findings, as many as GitHub shows for one step (:data:`ANNOTATION_CAP` per severity), then one
line counting the rest, then the text summary; when ``$GITHUB_STEP_SUMMARY`` is set, a Markdown
summary with every count and the first findings is appended to that file.

``--format junit`` writes one ``<testsuite>`` per input file and one ``<testcase>`` per record;
every finding at or above ``--fail-on`` is a ``<failure>`` (an ``internal-error`` is an
``<error>``: the record could not be judged), the others go to the case's ``<system-out>``.  The
document validates against the common JUnit schema (Jenkins' ``junit-10.xsd``, the one pytest
validates its own output with).  It carries no times, so that equal inputs give equal bytes.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from typing import TYPE_CHECKING, TextIO

from renju_cli.output.base import Renderer, RenderError
from renju_cli.output.text import finding_text, place, summary_text
from renju_cli.record import SourceLocation
from renju_cli.report import ERROR, INFO, SEVERITIES, WARNING, Finding, GameReport, Summary

if TYPE_CHECKING:
    import tempfile

#: GitHub shows at most 10 error, 10 warning and 10 notice annotations per step (and 50 per
#: job); annotations past that are dropped silently, so we count them ourselves instead.
ANNOTATION_CAP = 10
#: Workflow command per severity.
ANNOTATION_COMMAND = {ERROR: "error", WARNING: "warning", INFO: "notice"}
#: Findings listed one by one in the step summary (the file may hold 1 MiB per step).
SUMMARY_ROWS = 50
STEP_SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


# -- GitHub Actions -------------------------------------------------------------------------------
def _escape_data(text: str) -> str:
    # as @actions/core's escapeData: the message ends at the end of the line
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    # as @actions/core's escapeProperty: ':' and ',' separate properties
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(report: GameReport, f: Finding) -> str:
    """The workflow command that annotates ``f`` at its file and line."""
    props = []
    path = report.source.path
    if not path.startswith("<"):  # <stdin> is no file of the repository
        props.append(f"file={_escape_property(os.path.normpath(path))}")
        line = f.line if f.line is not None else report.source.line
        if line is not None:
            props.append(f"line={line}")
    props.append(f"title={_escape_property(f'renju {f.code}')}")
    message = f"record {report.source.index}, {finding_text(f)}"
    command = ANNOTATION_COMMAND.get(f.severity, "error")
    return f"::{command} {','.join(props)}::{_escape_data(message)}"


def _md(text: str) -> str:
    """Text safe in a Markdown table cell: no markup, no HTML, one line."""
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|#~])", r"\\\1", text)


class GithubRenderer(Renderer):
    """GitHub Actions workflow annotations, then a count of the rest and the summary."""

    def __init__(
        self,
        out: TextIO,
        quiet: bool = False,
        *,
        fail_on: str | None = ERROR,
        step_summary: str | None = None,
    ) -> None:
        super().__init__(out, quiet, fail_on=fail_on)
        self.step_summary = (
            step_summary if step_summary is not None else os.environ.get(STEP_SUMMARY_ENV)
        )
        self.shown = dict.fromkeys(SEVERITIES, 0)
        self.more = 0
        self.rows: list[tuple[str, Finding]] = []
        self.rows_more = 0

    def record(self, report: GameReport) -> None:
        for f in report.findings:
            if self.shown.get(f.severity, ANNOTATION_CAP) < ANNOTATION_CAP:
                self.shown[f.severity] += 1
                self.out.write(annotation(report, f) + "\n")
            else:
                self.more += 1
            if len(self.rows) < SUMMARY_ROWS:
                self.rows.append((place(report.source), f))
            else:
                self.rows_more += 1

    def finish(self, summary: Summary) -> None:
        if self.more:
            self.out.write(
                f"renju: {self.more} more finding(s) not annotated (GitHub shows at most "
                f"{ANNOTATION_CAP} per severity in a step); run with --format text to see all\n"
            )
        self.out.write(summary_text(summary))
        if self.step_summary:
            try:
                with open(self.step_summary, "a", encoding="utf-8", errors="replace") as f:
                    f.write(self.markdown(summary))
            except OSError as e:
                print(
                    f"renju: cannot write the step summary {self.step_summary}: {e.strerror or e}",
                    file=sys.stderr,
                )

    def markdown(self, s: Summary) -> str:
        """The step summary: the counts, then the first findings."""
        j = s.to_json()
        out = [
            "## renju check\n\n",
            "| records | judged | unreadable | with findings | duplicates |\n",
            "|---:|---:|---:|---:|---:|\n",
            f"| {s.records} | {s.judged} | {s.unreadable} | {s.with_findings} "
            f"| {s.duplicates} |\n\n",
        ]
        for title, key in (
            ("Findings", "findings"),
            ("Results", "results"),
            ("Openings", "openings"),
        ):
            if j[key]:
                out.append(f"| {title.lower()} | count |\n|---|---:|\n")
                out.extend(f"| {_md(str(k))} | {n} |\n" for k, n in j[key].items())
                out.append("\n")
        if self.rows:
            out.append("### First findings\n\n| record | severity | code | finding |\n")
            out.append("|---|---|---|---|\n")
            for where, f in self.rows:
                out.append(
                    f"| {_md(where)} | {f.severity} | {_md(f.code)} | {_md(finding_text(f))} |\n"
                )
            if self.rows_more:
                out.append(f"\n… and {self.rows_more} more.\n")
            out.append("\n")
        return "".join(out)


# -- JUnit XML -----------------------------------------------------------------------------------
@functools.cache
def _not_xml() -> re.Pattern[str]:
    """What XML 1.0 cannot carry (control characters, lone surrogates from undecodable file
    names).  Compiled for a JUnit report only: its character class is slow to compile."""
    return re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


#: Test cases of one file are kept in memory up to this size, then on disk.
_SPOOL_BYTES = 8 << 20


def _xml_text(text: str) -> str:
    from xml.sax.saxutils import escape  # imported by JunitRenderer: see there

    return escape(_not_xml().sub("\ufffd", text))


def _xml_attr(text: str) -> str:
    from xml.sax.saxutils import quoteattr

    return quoteattr(_not_xml().sub("\ufffd", text), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _spool_error(e: OSError) -> RenderError:
    import tempfile

    return RenderError(
        e.errno, f"the JUnit cases spooled in {tempfile.gettempdir()}: {e.strerror or e}"
    )


def _read_spool(spool: tempfile.SpooledTemporaryFile[str]) -> str:
    try:
        return spool.read(1 << 16)
    except OSError as e:
        raise _spool_error(e) from None


class JunitRenderer(Renderer):
    """One ``<testsuite>`` per input file, one ``<testcase>`` per record.

    A suite's counts come before its cases, so the cases of the current file are spooled (in
    memory, then on disk past a few MiB) until the file ends: memory stays flat on a big batch.
    """

    def __init__(self, out: TextIO, quiet: bool = False, *, fail_on: str | None = ERROR) -> None:
        super().__init__(out, quiet, fail_on=fail_on)
        # Imported when a JUnit report is asked for, not with this module: xml.sax.saxutils
        # pulls in urllib.request, http.client and ssl (and tempfile shutil and random), which
        # every other format would pay for at start-up.  Now, not at the first record: a Ctrl-C
        # must not land in an import.
        import tempfile  # noqa: F401
        import xml.sax.saxutils  # noqa: F401

        _not_xml()  # (compiled now too)
        self.threshold = None if fail_on is None else SEVERITIES.index(fail_on)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="renju check">\n')
        self.path: str | None = None
        self.spool: tempfile.SpooledTemporaryFile[str] | None = None
        self.tests = self.failures = self.errors = 0

    def _fails(self, f: Finding) -> bool:
        return self.threshold is not None and SEVERITIES.index(f.severity) >= self.threshold

    def record(self, report: GameReport) -> None:
        path = report.source.path
        if path != self.path:
            self._close_suite()
            self.path = path
            import tempfile  # (imported by ``__init__``)

            self.spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115 - closed with the suite
                max_size=_SPOOL_BYTES, mode="w+", encoding="utf-8"
            )
        assert self.spool is not None
        self.tests += 1
        head = f"    <testcase name={_xml_attr(_case_name(report.source))} "
        head += f"classname={_xml_attr(path)}"
        parts = []
        other = []
        for f in report.findings:
            text = f"{f.severity} {f.code}: {finding_text(f)}"
            if f.code == "internal-error":
                self.errors += 1
                tag = "error"
            elif self._fails(f):
                self.failures += 1
                tag = "failure"
            else:
                other.append(text)
                continue
            parts.append(
                f"      <{tag} type={_xml_attr(f.code)} message={_xml_attr(finding_text(f))}>"
                f"{_xml_text(text)}</{tag}>\n"
            )
        if other:
            parts.append(f"      <system-out>{_xml_text(chr(10).join(other))}</system-out>\n")
        case = f"{head}>\n{''.join(parts)}    </testcase>\n" if parts else f"{head}/>\n"
        try:
            self.spool.write(case)
        except OSError as e:  # rolled over to a temporary file on a full disk
            raise _spool_error(e) from None

    def _close_suite(self) -> None:
        if self.spool is None or self.path is None:
            return
        self.out.write(
            f'  <testsuite name={_xml_attr(self.path)} tests="{self.tests}" '
            f'failures="{self.failures}" errors="{self.errors}" skipped="0">\n'
        )
        spool = self.spool
        spool.seek(0)
        while chunk := _read_spool(spool):
            self.out.write(chunk)
        spool.close()
        self.out.write("  </testsuite>\n")
        self.spool = None
        self.tests = self.failures = self.errors = 0

    def finish(self, summary: Summary) -> None:
        self._close_suite()
        self.out.write("</testsuites>\n")


def _case_name(source: SourceLocation) -> str:
    name = f"record {source.index}"
    if source.line is not None:
        name += f" (line {source.line})"
    if source.variation is not None:
        name += f" line of play {source.variation}"
    return name
