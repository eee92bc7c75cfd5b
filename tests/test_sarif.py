"""``renju check --format sarif``: a SARIF 2.1.0 log, valid against the OASIS schema, with a
result per finding at the record's file and line, and a rule per finding code."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import run_cli as renju

from renju_cli.output.sarif import DESCRIPTIONS, SarifRenderer, artifact_uri, tool_version
from renju_cli.record import SourceLocation
from renju_cli.report import CODES, Finding, GameReport, Summary

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCHEMA = Path(__file__).resolve().parent / "data" / "sarif" / "sarif-schema-2.1.0.json"

FIVE = "black h8 i9 h9 i10 h10 i11 h11 g8 h12\n"
AFTER_THE_END = "black h8 i9 h9 i10 h10 i11 h11 g8 h12 j12 k13 h9\n"  # two errors


@cache
def validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def valid(text: str) -> dict[str, Any]:
    """The log, parsed, after checking it against the SARIF 2.1.0 schema."""
    log: dict[str, Any] = json.loads(text)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(log)]
    assert errors == []
    return log


def render(*reports: GameReport, summary: Summary | None = None) -> dict[str, Any]:
    out = io.StringIO()
    renderer = SarifRenderer(out)
    counted = Summary()
    for report in reports:
        renderer.record(report)
        counted.add(report)
    renderer.finish(summary or counted)
    return valid(out.getvalue())


def test_the_schema_refuses_what_is_not_sarif() -> None:
    # the validator is a real check: a log without its version, or a result with a level
    # SARIF does not know, is refused
    assert list(validator().iter_errors({"runs": []}))
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [
        {"message": {"text": "m"}, "level": "fatal"}]}]}  # fmt: skip
    assert list(validator().iter_errors(bad))


def test_check_examples_as_sarif(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = renju(capsys, "check", str(EXAMPLES), "--format", "sarif")
    assert code == 1
    log = valid(out)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "renju-cli"
    assert driver["version"] == tool_version()
    _, jsonl, _ = renju(capsys, "check", str(EXAMPLES), "--format", "jsonl")
    findings = [
        (json.loads(line)["source"], f) for line in jsonl.splitlines() for f in
        json.loads(line)["findings"]
    ]  # fmt: skip
    assert len(run["results"]) == len(findings) == 3
    for result, (source, f) in zip(run["results"], findings, strict=True):
        assert result["ruleId"] == f["code"]
        assert driver["rules"][result["ruleIndex"]]["id"] == f["code"]
        assert result["level"] == f["severity"]  # (all errors here)
        assert f["message"] in result["message"]["text"]
        (where,) = result["locations"]
        physical = where["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == Path(source["path"]).as_uri()
        assert physical["region"]["startLine"] == f.get("line", source["line"])
    assert run["invocations"] == [{"executionSuccessful": True}]
    assert run["properties"]["summary"]["records"] == 5


def test_every_finding_code_is_a_rule_with_a_description() -> None:
    log = render()
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CODES)
    assert set(DESCRIPTIONS) == set(CODES)
    for rule in rules:
        assert rule["shortDescription"]["text"] == DESCRIPTIONS[rule["id"]]
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in rules}
    assert levels["forbidden-move"] == "error"
    assert levels["duplicate"] == "warning"
    assert levels["unchecked"] == "note"


def test_levels_follow_the_severity_of_each_finding() -> None:
    source = SourceLocation("games/a.txt", 2, 3)
    report = GameReport(
        source=source,
        ruleset="renju",
        findings=[
            Finding("occupied", "move 11 (h9) is on a taken point", "error", move=11),
            Finding("duplicate", "same game as games/b.txt:1 [0]", "warning"),
            Finding("unchecked", "the offers are not recorded", "info", line=7),
            Finding("parse-error", "a damaged line", "warning", line=9),
        ],
    )
    results = render(report)["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error", "warning", "note", "warning"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results] == [
        3,
        3,
        7,
        9,
    ]
    assert results[0]["message"]["text"] == "record 2, move 11 (h9) is on a taken point"


def test_paths_are_uri_references() -> None:
    assert artifact_uri("games/a b%.txt") == "games/a%20b%25.txt"
    assert artifact_uri("c:d.txt") == "c%3Ad.txt"  # never read as a scheme
    assert artifact_uri("/tmp/x y.sgf") == "file:///tmp/x%20y.sgf"
    assert artifact_uri("partie-à.txt") == "partie-%C3%A0.txt"
    assert artifact_uri("bad-\udcff.txt") == "bad-%FF.txt"  # an undecodable byte of a name
    # and a hostile path is still a valid log
    hostile = GameReport(
        source=SourceLocation('x"\n\x1b[31m\ud800.txt', 0, 1),
        ruleset="renju",
        findings=[Finding("parse-error", "control \x1b[2J characters", "error")],
    )
    render(hostile)


def test_standard_input_and_binary_records() -> None:
    stdin = GameReport(
        source=SourceLocation("<stdin>", 0, 1),
        ruleset="renju",
        findings=[Finding("off-board", "z99 is off the board", "error", move=1)],
    )
    binary = GameReport(
        source=SourceLocation("db.rif", 4, None, offset=1234),
        ruleset="renju",
        findings=[Finding("occupied", "a taken point", "error", move=3)],
    )
    stdin_result, binary_result = render(stdin, binary)["runs"][0]["results"]
    assert "locations" not in stdin_result  # standard input is no file to point at
    (where,) = binary_result["locations"]
    assert where["physicalLocation"]["region"] == {"byteOffset": 1234}


def test_a_bug_marks_the_run_unsuccessful() -> None:
    report = GameReport(
        source=SourceLocation("a.txt", 0, 1),
        ruleset="renju",
        findings=[Finding("internal-error", "KeyError: 3", "error")],
    )
    log = render(report)
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": False}]


def test_results_stream_one_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games.txt"
    games.write_text(FIVE + AFTER_THE_END * 3)
    code, out, _ = renju(capsys, "check", str(games), "--format", "sarif")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 2 + 6  # the head, a line per result, the tail
    assert all(line.lstrip(",").startswith('{"ruleId"') for line in lines[1:-1])
    log = valid(out)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["move-after-end", "occupied"] * 3
