"""The run's bound on the findings its reports list (a 1 MB hostile file within 2 s).

Each finding a report lists is built, worded, written and counted: 3-5 microseconds.  A
record lists ``MAX_FINDINGS`` at most, but a hostile file of records of ten moves on one point
lists nine each, 315,000 in a megabyte.  A run's reports list at most
``ReadOptions.listed_allowance`` (16,384) findings plus ``listed_per_record`` (2) for each
record (``--limit findings=N``: N, no more by records); past it, a record's findings are
counted in its ``too-many-findings`` finding, which says why, and the summary and the exit
code still count every one.  Real records list next to none (59 in 4,920).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import run_cli

from renju_cli.formats.notation import parse_record
from renju_cli.judge import Judgements, Listings
from renju_cli.referee import replay
from renju_cli.referee.walk import unlisted
from renju_cli.report import MAX_FINDINGS
from renju_cli.ruleset import load
from renju_cli.tasks import Settings, _bound_of

WHY = "as the run's reports may list"


def _check(capsys: Any, *args: str) -> tuple[int, list[dict[str, Any]]]:
    code, out, err = run_cli(capsys, "check", "--format", "json", *args)
    assert "Traceback" not in err
    doc = json.loads(out)
    return code, doc["records"]


def _codes(report: dict[str, Any]) -> list[str]:
    return [f["code"] for f in report["findings"]]


def test_past_the_run_s_bound_a_record_s_findings_are_counted_not_listed(
    tmp_path: Path, capsys: Any
) -> None:
    # four records of four moves on h8: three occupied findings each (the memo of short
    # records sees them alike); the run may list 5 findings
    path = tmp_path / "same-point.txt"
    path.write_text("h8 h8 h8 h8\n" * 4)
    code, records = _check(capsys, str(path), "--limit", "findings=5")
    assert code == 1  # the findings not listed are findings still
    assert _codes(records[0]) == ["occupied"] * 3
    # the second lists what is left (2), and counts the third, saying why
    assert _codes(records[1]) == ["occupied", "occupied", "too-many-findings"]
    last = records[1]["findings"][-1]
    assert last["counts"] == {"occupied": 1}
    assert last["severity"] == "error"
    assert f"{WHY} 5 finding(s) (--limit findings)" in last["message"]
    assert "the first 2 are" in last["message"]
    # the others list none
    for r in records[2:]:
        assert _codes(r) == ["too-many-findings"]
        assert r["findings"][0]["counts"] == {"occupied": 3}
    # the summary counts every finding
    code, out, _ = run_cli(capsys, "check", "--format", "json", str(path), "--limit", "findings=5")
    assert json.loads(out)["summary"]["findings"]["occupied"] == 12


def test_by_default_each_record_adds_two_to_the_bound(tmp_path: Path, capsys: Any) -> None:
    # 3 findings a record, 2 more allowed a record: nothing is cut before the allowance of
    # 16,384 is spent, so a few records list all they have
    path = tmp_path / "same-point.txt"
    path.write_text("a1 h8 h8 h8\nb1 h8 h8 h8 h8\n")
    _, records = _check(capsys, str(path))
    assert _codes(records[0]) == ["occupied"] * 2
    assert _codes(records[1]) == ["occupied"] * 3
    # how a record past the default bound says it
    bound = _bound_of(Settings())
    assert bound.listed is not None
    assert (bound.listed.limit, bound.listed.gain, bound.listed.every) == (16384, 2, 1)
    # (the terms, not the bound so far: the same words in every record past it)
    assert unlisted(bound.listed) == (
        "the run's reports may list no more findings (at most 16384 + 2 per record; "
        "--limit findings=N sets it)"
    )
    bound.listed.next_record()
    assert "no more findings (at most 16384 + 2 per record" in unlisted(bound.listed)


def test_an_unreadable_record_always_lists_why(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text('{"moves": "h8 h8 h8 h8"}\n{"moves": 5}\n{"moves": "h8 h8"}\n')
    _, records = _check(capsys, str(path), "--limit", "findings=1")
    assert _codes(records[0]) == ["occupied", "too-many-findings"]
    assert records[1]["unreadable"] and "parse-error" in _codes(records[1])
    assert _codes(records[2]) == ["too-many-findings"]


def test_a_record_listed_in_part_is_not_remembered_so() -> None:
    # the memo of short records keeps a report from the second time a content is seen: one
    # made past the bound would list too little for a record judged within it later
    record = "h8 h8 h8 h8"
    rules = load("renju")
    tight = Judgements(10**6, listed=Listings(1))
    listed = [[f.code for f in replay(parse_record(record), rules, tight).findings] for _ in "abc"]
    assert listed == [["occupied", "too-many-findings"]] + [["too-many-findings"]] * 2
    roomy = Judgements(10**6, listed=Listings(10**6))
    for _ in range(2):
        whole = replay(parse_record(record), rules, roomy)
        assert [f.code for f in whole.findings] == ["occupied"] * 3
    assert roomy.listed is not None and roomy.listed.left == 10**6 - 6


def test_a_record_whose_opening_findings_were_cut_is_not_remembered_so() -> None:
    # three opening-region findings of the opening check, none of the replay's own: cut when
    # the report is finished, and never kept for a later record of the same moves
    rules = load("renju-rif")
    tight = Judgements(10**6, listed=Listings(1))
    for _ in range(3):
        replay(parse_record("a1 a2 a3"), rules, tight)
    whole = replay(parse_record("a1 a2 a3"), rules, Judgements(10**6, listed=Listings(100)))
    assert [f.code for f in whole.findings] == ["opening-region"] * 3


def test_a_record_of_more_than_max_findings_past_the_bound_counts_them_once(
    tmp_path: Path, capsys: Any
) -> None:
    # 149 occupied findings: MAX_FINDINGS made, the rest counted; past the bound none listed,
    # one too-many-findings finding counting all 149
    path = tmp_path / "long.txt"
    path.write_text("h8 " * 150 + "\n" + "h8 " * 150 + "\n")
    _, records = _check(capsys, str(path), "--limit", f"findings={MAX_FINDINGS}")
    assert len(records[0]["findings"]) == MAX_FINDINGS + 1
    assert records[0]["findings"][-1]["counts"] == {"occupied": 149 - MAX_FINDINGS}
    assert _codes(records[1]) == ["too-many-findings"]
    assert records[1]["findings"][0]["counts"] == {"occupied": 149}
    assert WHY in records[1]["findings"][0]["message"]


def _per_code(report: dict[str, Any]) -> dict[str, int]:
    """Every finding of a report by code, those listed and those its too-many-findings counts."""
    out: dict[str, int] = {}
    for f in report["findings"]:
        for code, n in (f.get("counts") or {f["code"]: 1}).items():
            out[code] = out.get(code, 0) + n
    return out


def test_the_lines_of_a_tree_past_the_bound_count_what_they_do_not_list(
    tmp_path: Path, capsys: Any
) -> None:
    # a tree whose lines resume the replay of the line before: each line's moves on taken
    # points, so each lists a few findings; past the bound a line lists what is left and
    # counts the rest, and every line still accounts for each of its findings
    lines = "".join(f"(;B[a{c}];W[a{c}];B[a{c}];W[a{c}])" for c in "abcdefgh")
    path = tmp_path / "tree.sgf"
    path.write_text(f"(;SZ[15];B[hh];W[hh]{lines})")
    _, whole = _check(capsys, str(path))
    _, cut = _check(capsys, str(path), "--limit", "findings=7")
    assert len(whole) == len(cut) == 8
    assert [_per_code(r) for r in whole] == [_per_code(r) for r in cut]
    listed = [sum(f["code"] != "too-many-findings" for f in r["findings"]) for r in cut]
    assert sum(listed) == 7 and listed[-1] == 0
    assert all(f["code"] != "too-many-findings" for f in whole[-1]["findings"])


def test_a_filter_keeps_the_reason_of_what_is_not_listed(tmp_path: Path, capsys: Any) -> None:
    # past the bound, a record's too-many-findings finding counts two codes; --ignore drops
    # one of them, and the finding worded again still says why the rest is not listed
    path = tmp_path / "two-codes.txt"
    path.write_text("h8 h8 h8 z99 z99\n" * 2)
    _, records = _check(capsys, str(path), "--limit", "findings=1", "--ignore", "off-board")
    last = records[1]["findings"][-1]
    assert last["counts"] == {"occupied": 2}
    assert f"{WHY} 1 finding(s) (--limit findings)" in last["message"]


def test_records_past_the_bound_that_count_alike_say_it_alike() -> None:
    # past the default bound every record of a hostile file counts its findings in one
    # too-many-findings finding; its words are the bound's terms, not its size so far, so
    # records that count the same findings share one (made once), and those that count
    # others get their own
    rules = load("renju")
    listed = Listings(0, " (at most 0 + 2 per record; --limit findings=N sets it)", 2)
    bound = Judgements(10**6, listed=listed)
    reports = []
    for record in ["h8 h8 h8 h8 h8", "h8 h8 h8 h8 h8 h8", "h8 h8 h8 h8 h8 h8", "h9 h9 h9 h9 h9"]:
        listed.left = 0  # (nothing left to list: the run's bound is spent)
        reports.append(replay(parse_record(record), rules, bound))
        listed.next_record()
    last = [r.findings[-1] for r in reports]
    assert [f.counts for f in last] == [{"occupied": n} for n in (4, 5, 5, 4)]
    assert last[1] is last[2] and last[0] is last[3]
    assert last[0].message == (
        "4 finding(s) are not listed (occupied 4), as the run's reports may list no more "
        "findings (at most 0 + 2 per record; --limit findings=N sets it)"
    )
