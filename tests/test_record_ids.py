"""One id per record: ``source.id`` in every report, printed by the text output, and
``--record ID`` selecting that record, with the same report, on every command that reads
records (check, show, forbidden, convert, diff)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli as renju

from renju_cli.cli.records import Selection
from renju_cli.record import MAIN_LINE, SourceLocation

#: Two game trees: the first with four lines (two branchings), the second a single line.
TREE = """(;GM[4]FF[4]SZ[15]RU[renju]
;B[hh];W[hi]
(;B[ih];W[gh](;B[ii];W[jj])(;B[jg]))
(;B[gi];W[ig](;B[fj])(;B[ff])))
(;GM[4]FF[4]SZ[15];B[hh];W[ii];B[hg])
"""
TREE_IDS = ["0", "0.0.1", "0.1", "0.1.1", "1"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    path = tmp_path / "tree.sgf"
    path.write_text(TREE)
    return path


def _jsonl(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def _labels(text: str) -> list[str]:
    """The ids in brackets of the records of a text report (not its findings or summary)."""
    return [line.split(" [")[1].split("]")[0] for line in text.splitlines() if " [" in line]


def test_the_id_is_the_index_and_the_line_of_a_tree() -> None:
    assert SourceLocation("a", 3).id == "3"
    assert SourceLocation("a", 3, variation=MAIN_LINE).id == "3"
    assert SourceLocation("a", 3, variation="4.3").id == "3.4.3"


def test_every_record_of_a_tree_has_its_own_id_in_json_and_text(
    capsys: pytest.CaptureFixture[str], tree: Path
) -> None:
    sources = [r["source"] for r in _jsonl(renju(capsys, "check", str(tree), "-f", "jsonl")[1])]
    assert [s["id"] for s in sources] == TREE_IDS
    # the id comes right after the path, as in spec/cli.md
    assert all(list(s)[:3] == ["path", "id", "index"] for s in sources)
    _, text, _ = renju(capsys, "check", str(tree))
    assert _labels(text) == TREE_IDS
    assert "] line " not in text  # (the label it replaces: "[0] line 0.1")


@pytest.mark.parametrize("wanted", TREE_IDS)
def test_check_record_gives_the_report_of_the_whole_run(
    capsys: pytest.CaptureFixture[str], tree: Path, wanted: str
) -> None:
    reports = _jsonl(renju(capsys, "check", str(tree), "-f", "jsonl")[1])
    whole = {r["source"]["id"]: r for r in reports}
    code, out, _ = renju(capsys, "check", str(tree), "-f", "jsonl", "--record", wanted)
    assert code == 0
    assert _jsonl(out) == [whole[wanted]]
    _, text, _ = renju(capsys, "check", str(tree), "--record", wanted)
    assert text.startswith(f"{tree}:") and _labels(text) == [wanted]
    assert "1 record(s): 1 judged" in text


@pytest.mark.parametrize("wanted", TREE_IDS)
def test_every_command_selects_the_same_record(
    capsys: pytest.CaptureFixture[str], tree: Path, tmp_path: Path, wanted: str
) -> None:
    (report,) = _jsonl(renju(capsys, "check", str(tree), "-f", "jsonl", "--record", wanted)[1])
    moves = report["moves"]
    shown = json.loads(renju(capsys, "show", str(tree), "--record", wanted, "-f", "json")[1])
    assert shown["moves"] == moves
    forbidden = json.loads(
        renju(capsys, "forbidden", str(tree), "--record", wanted, "-f", "json")[1]
    )
    assert forbidden["moves"] == moves
    code, out, _ = renju(capsys, "convert", str(tree), "--to", "jsonl", "--record", wanted)
    (converted,) = _jsonl(out)
    assert code == 0 and len(converted["moves"].split()) == moves
    code, out, _ = renju(
        capsys, "diff", str(tree), "-r", "renju", "-r", "freestyle", "--record", wanted,
        "-f", "json",
    )  # fmt: skip
    assert json.loads(out)["summary"]["records"] == 1


def test_a_plain_number_still_selects_a_record_of_a_move_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    games = tmp_path / "games.txt"
    games.write_text("h8 h9 i8\nh8 h9\n")
    for command in ("show", "forbidden"):
        doc = json.loads(renju(capsys, command, str(games), "--record", "1", "-f", "json")[1])
        assert doc["moves"] == 2
        doc = json.loads(renju(capsys, command, str(games), "-f", "json")[1])
        assert doc["moves"] == 3  # the first record without --record


def _selected(wanted: str | None, sources: list[SourceLocation]) -> list[str]:
    selection = Selection(wanted)
    return [s.id for s in sources if selection(s)]


def test_a_plain_number_selects_the_first_record_of_that_index() -> None:
    # a RenLib library numbers its lines 0, 1, ... and names them 1, 2, ...: "3" is its 4th
    lines = [SourceLocation("d.lib", i, None, 0, str(i + 1)) for i in range(5)]
    assert _selected("3", lines) == ["3.4"]
    assert _selected("3.4", lines) == ["3.4"]
    # in a tree, the main line comes first and is the one selected
    tree = [SourceLocation("t.sgf", 2, 1, None, v) for v in (MAIN_LINE, "1", "2")]
    assert _selected("2", tree) == ["2"]
    assert _selected("2.1", tree) == ["2.1"]
    assert _selected(None, tree) == ["2", "2.1", "2.2"]


@pytest.mark.parametrize("command", ["check", "show", "forbidden", "convert", "diff"])
def test_a_missing_or_malformed_id_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tree: Path, command: str
) -> None:
    rules = ["-r", "renju", "-r", "freestyle"] if command == "diff" else []
    code, _, err = renju(capsys, command, str(tree), *rules, "--record", "0.7")
    assert code == 2 and "0.7" in err
    code, _, err = renju(capsys, command, str(tree), *rules, "--record", "x1")
    assert code == 2 and "'x1' is not a record id" in err
