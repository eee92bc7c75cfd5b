"""CI outputs of ``renju check``: GitHub annotations and step summary, JUnit XML validated
against the common JUnit schema, and the pre-commit hook as the pre-commit tool reads it."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli as renju

from renju_cli.cli.check import FORMATS
from renju_cli.output import RENDERERS
from renju_cli.output.ci import ANNOTATION_CAP, GithubRenderer, JunitRenderer, annotation
from renju_cli.record import SourceLocation
from renju_cli.report import Finding, GameReport, Summary

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
XSD = Path(__file__).resolve().parent / "data" / "junit" / "junit-10.xsd"

FIVE = "black h8 i9 h9 i10 h10 i11 h11 g8 h12\n"
DOUBLE_THREE = "white f8 a1 g8 a3 h9 a5 h10 a7 h8\n"
AFTER_THE_END = "black h8 i9 h9 i10 h10 i11 h11 g8 h12 j12 k13 h9\n"  # two errors


def test_every_check_format_has_a_renderer() -> None:
    assert set(FORMATS) == set(RENDERERS)


# -- GitHub ---------------------------------------------------------------------------------------
def report_with(findings: list[Finding], path: str = "games/a.txt", line: int = 3) -> GameReport:
    return GameReport(source=SourceLocation(path, 2, line), ruleset="renju", findings=findings)


def test_an_annotation_names_file_line_code_and_escapes_what_it_must() -> None:
    f = Finding("forbidden-move", "black j9: 100% a double-three\nsecond line", move=23, point="j9")
    line = annotation(report_with([f], path="./games/a,b:c.txt"), f)
    assert line == (
        "::error file=games/a%2Cb%3Ac.txt,line=3,title=renju forbidden-move::"
        "record 2, move 23 (j9): black j9: 100%25 a double-three%0Asecond line"
    )
    w = Finding("duplicate", "the same game as x", line=7)
    assert annotation(report_with([w]), w).startswith("::warning file=games/a.txt,line=7,")
    i = Finding("unchecked", "not checked")
    assert annotation(report_with([i]), i).startswith("::notice ")
    stdin = report_with([f], path="<stdin>")
    assert annotation(stdin, f).startswith("::error title=renju forbidden-move::")


def test_annotations_stop_at_the_cap_per_severity_and_count_the_rest(tmp_path: Path) -> None:
    out = io.StringIO()
    summary_file = tmp_path / "summary.md"
    renderer = GithubRenderer(out, step_summary=str(summary_file))
    summary = Summary()
    for n in range(15):
        report = report_with(
            [
                Finding("occupied", f"error {n}", move=n + 1),
                Finding("duplicate", f"warning {n} | with a pipe"),
            ]
        )
        renderer.record(report)
        summary.add(report)
    renderer.finish(summary)
    lines = out.getvalue().splitlines()
    errors = [x for x in lines if x.startswith("::error ")]
    warnings = [x for x in lines if x.startswith("::warning ")]
    assert len(errors) == len(warnings) == ANNOTATION_CAP == 10
    assert errors[0].endswith("error 0") and errors[-1].endswith("error 9")  # the first ones
    assert lines[20] == (
        "renju: 10 more finding(s) not annotated (GitHub shows at most 10 per severity in a "
        "step); run with --format text to see all"
    )
    assert lines[21] == "15 record(s): 15 judged, 0 unreadable, 15 with findings"
    md = summary_file.read_text()
    assert md.startswith("## renju check\n")
    assert "| 15 | 15 | 0 | 15 | 0 |" in md
    assert "| duplicate | 15 |" in md and "| occupied | 15 |" in md
    assert "warning 0 \\| with a pipe" in md  # a pipe cannot end a table cell
    assert "… and -20 more" not in md and md.count("games/a.txt:3 \\[2\\]") == 30


def test_the_step_summary_is_appended_when_github_sets_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    summary_file = tmp_path / "step-summary.md"
    summary_file.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary_file))
    code, out, _ = renju(capsys, "check", str(EXAMPLES), "-f", "github")
    assert code == 1
    assert out.splitlines()[0].startswith("::error file=")
    md = summary_file.read_text()
    assert md.startswith("earlier step\n## renju check\n")
    assert "| forbidden-move | 1 |" in md and "### First findings" in md
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    renju(capsys, "check", str(EXAMPLES), "-f", "github")
    assert summary_file.read_text() == md  # not set: not written


def test_an_unwritable_step_summary_is_one_line_and_the_check_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "no-dir" / "summary.md"))
    code, out, err = renju(capsys, "check", str(EXAMPLES), "-f", "github")
    assert code == 1 and "record(s)" in out
    assert err.startswith("renju: cannot write the step summary ") and err.count("\n") == 1


# -- JUnit ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def schema() -> object:
    xmlschema = pytest.importorskip("xmlschema", reason="validating JUnit XML needs xmlschema")
    return xmlschema.XMLSchema(str(XSD))


@pytest.fixture
def records(tmp_path: Path) -> Path:
    """Records with clean, failing and warning outcomes, and a file name XML must escape."""
    (tmp_path / "clean.moves").write_text(FIVE)
    (tmp_path / 'fouls & "quotes" <1>.moves').write_text(DOUBLE_THREE + AFTER_THE_END + FIVE)
    (tmp_path / "junk.moves").write_bytes(b"\x00\x01 not \x1b a record")
    return tmp_path


def test_junit_validates_against_the_junit_schema(
    capsys: pytest.CaptureFixture[str], schema: object, records: Path
) -> None:
    code, out, _ = renju(capsys, "check", str(records), str(EXAMPLES), "-f", "junit")
    assert code == 1
    schema.validate(io.StringIO(out))  # type: ignore[attr-defined]


def test_junit_has_a_case_per_record_and_a_failure_per_error(
    capsys: pytest.CaptureFixture[str], records: Path
) -> None:
    _, out, _ = renju(capsys, "check", str(records), "-f", "junit", "--duplicates", "report")
    root = ET.fromstring(out)
    suites = root.findall("testsuite")
    assert [os.path.basename(s.get("name", "")) for s in suites] == [
        "clean.moves",
        'fouls & "quotes" <1>.moves',
        "junk.moves",
    ]
    clean, fouls, junk = suites
    assert (clean.get("tests"), clean.get("failures")) == ("1", "0")
    cases = fouls.findall("testcase")
    names = [c.get("name") for c in cases]
    assert names == ["record 0 (line 1)", "record 1 (line 2)", "record 2 (line 3)"]
    assert [f.get("type") for f in cases[0].findall("failure")] == ["forbidden-move"]
    assert [f.get("type") for f in cases[1].findall("failure")] == ["move-after-end", "occupied"]
    # the third record is clean.moves' game again: a duplicate, a warning, so no failure
    assert cases[2].find("failure") is None
    assert "warning duplicate: the same game as " in (cases[2].findtext("system-out") or "")
    assert (fouls.get("tests"), fouls.get("failures"), fouls.get("errors")) == ("3", "3", "0")
    assert junk.find("testcase/failure").get("type") == "parse-error"  # type: ignore[union-attr]


def test_junit_failures_follow_fail_on_and_internal_errors_are_errors(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    records: Path,
) -> None:
    # a copy of the file, under the same name elsewhere (the same file given twice is read
    # once): a duplicate of its record
    (records / "copy").mkdir()
    copy = records / "copy" / "clean.moves"
    copy.write_bytes((records / "clean.moves").read_bytes())
    args = ("check", str(records / "clean.moves"), str(copy), "-f", "junit")
    _, out, _ = renju(capsys, *args, "--duplicates", "report", "--fail-on", "warning")
    first, second = ET.fromstring(out).findall("testsuite/testcase")
    assert first.find("failure") is None
    assert second.find("failure").get("type") == "duplicate"  # type: ignore[union-attr]
    _, out, _ = renju(capsys, *args, "--fail-on", "never")
    assert ET.fromstring(out).find(".//failure") is None
    monkeypatch.setenv("RENJU_TEST_FAULT", "raise:clean.moves#0")
    _, out, _ = renju(capsys, *args)
    suites = ET.fromstring(out).findall("testsuite")  # (a suite a file): both records fail
    assert [(t.get("tests"), t.get("errors"), t.get("failures")) for t in suites] == [
        ("1", "1", "0")
    ] * 2
    assert [e.get("type") for e in ET.fromstring(out).findall(".//error")] == ["internal-error"] * 2


def test_junit_is_the_same_bytes_from_one_run_to_the_next(
    capsys: pytest.CaptureFixture[str], records: Path
) -> None:
    first = renju(capsys, "check", str(records), "-f", "junit")
    assert renju(capsys, "check", str(records), "-f", "junit") == first  # no times, no dates


def test_junit_spools_a_big_file_without_holding_it(records: Path) -> None:
    out = io.StringIO()
    renderer = JunitRenderer(out)
    for n in range(3):
        renderer.record(
            GameReport(source=SourceLocation("big.rif", n), ruleset="renju", findings=[])
        )
    renderer.finish(Summary())
    assert out.getvalue().count("<testcase ") == 3
    assert '<testsuite name="big.rif" tests="3" failures="0" errors="0"' in out.getvalue()


# -- pre-commit -----------------------------------------------------------------------------------
def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=os.path.dirname(sys.executable))
    if found is None:
        pytest.skip(f"the {name} command is not installed")
    return found


def test_the_pre_commit_hook_runs_renju_check(tmp_path: Path) -> None:
    """The hook as pre-commit reads it: ``.pre-commit-hooks.yaml`` passes pre-commit's own
    manifest schema, pre-commit's own file classifier picks the staged records (not other
    files), and its entry (the ``renju`` console script the package installs) with its args
    fails on a record with an error, names only the records with findings, and passes a good
    one.  (Installing the hook from the checkout is what ``pip install .`` does: ``.ci/run``.)"""
    from importlib.metadata import entry_points

    pytest.importorskip("pre_commit", reason="pre-commit is not installed")
    from pre_commit.clientlib import load_manifest  # type: ignore[import-untyped]
    from pre_commit.commands.run import (  # type: ignore[import-untyped]
        Classifier,
        filter_by_include_exclude,
    )

    (hook,) = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    assert hook["id"] == "renju-check" and hook["language"] == "python"
    assert hook["pass_filenames"] and not hook["always_run"]
    command, *subcommand = hook["entry"].split()
    (script,) = entry_points(group="console_scripts", name=command)
    assert script.value == "renju_cli.__main__:run"

    games = tmp_path / "games"
    games.mkdir()
    (games / "good.moves").write_text(FIVE)
    (games / "bad.moves").write_text(DOUBLE_THREE)
    (games / "README.txt").write_text("not a record: the hook's file pattern leaves it out\n")
    (games / "link.sgf").symlink_to(games / "good.moves")  # (types: [file] leaves out links)

    def staged(*names: str) -> list[str]:
        chosen = filter_by_include_exclude(names, hook["files"], hook["exclude"])
        classifier = Classifier([str(games / name) for name in chosen])
        return list(
            classifier.by_types(
                classifier.filenames, hook["types"], hook["types_or"], hook["exclude_types"]
            )
        )

    def run(*names: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [_tool(command), *subcommand, *hook["args"], *staged(*names)],
            cwd=games,
            capture_output=True,
            text=True,
            timeout=600,
        )

    assert staged("good.moves", "bad.moves", "README.txt", "link.sgf") == [
        str(games / "good.moves"),
        str(games / "bad.moves"),
    ]
    failed = run("good.moves", "bad.moves", "README.txt")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "bad.moves:1 [0]" in failed.stdout and "forbidden-move" in failed.stdout
    assert "good.moves" not in failed.stdout  # --quiet: only records with findings
    assert failed.stderr == ""  # --no-progress: no bar
    passed = run("good.moves")
    assert passed.returncode == 0, passed.stdout + passed.stderr


def test_a_junit_spool_that_cannot_be_written_is_an_output_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The cases of a file are spooled to a temporary file past a few MiB: a full disk there
    ended the run as an internal error (exit code 3)."""
    import errno
    import tempfile

    class FullSpool(tempfile.SpooledTemporaryFile):  # type: ignore[type-arg]
        def write(self, s: Any) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", FullSpool)
    game = tmp_path / "g.txt"
    game.write_text("h8 h9 i8\n")
    code, _, err = renju(capsys, "check", str(game), "-f", "junit", "-o", str(tmp_path / "r.xml"))
    assert code == 2
    assert "cannot write the report: the JUnit cases spooled in" in err
    assert "No space left on device" in err
    assert not (tmp_path / "r.xml").exists()
