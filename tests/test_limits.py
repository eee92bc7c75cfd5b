"""``--limit NAME=N``: the bounds of ``ReadOptions`` lowered from the command line.

A run on untrusted input (a CI job over uploaded records) may want tighter bounds than the
defaults, above all on records per file, which bounds the time a flood of tiny records can
take. Each limit cuts what lies past it with a finding, never silently, and ``--jobs 2`` cuts
at the same place as ``--jobs 1``.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli as renju

from renju_cli.cli.app import LIMITS, UsageProblem, parse_limits
from renju_cli.formats import ReadOptions


def jsonl(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code, out, _ = renju(capsys, *args, "--format", "jsonl")
    return code, [json.loads(line) for line in out.splitlines()]


def messages(report: dict[str, Any]) -> list[str]:
    return [str(f["message"]) for f in report["findings"]] + [str(n) for n in report["notes"]]


def test_records_per_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text("h8 h9\ni8 i9\nj8 j9\nk8 k9\nl8 l9\n")
    code, reports = jsonl(capsys, "check", str(games), "--limit", "records=2")
    # two records judged, then one unreadable record that says the rest was not read
    assert [r["unreadable"] for r in reports] == [False, False, True]
    assert "more than 2 records; the rest is not read" in messages(reports[2])[0]
    assert code == 1


def test_moves_per_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("h8 h9 i8 i9 j8 j9\n")
    _, [report] = jsonl(capsys, "check", str(game), "--limit", "moves=4")
    assert report["moves"] == 4
    assert any("4 moves" in m for m in messages(report))  # "more than the limit of 4 moves"


def test_nesting_of_variations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # (;B[hh](;W[ii](;B[jj](;W[kk]))))  -- variations nested four deep
    tree = tmp_path / "tree.sgf"
    tree.write_text("(;SZ[15];B[hh](;W[ii](;B[jj](;W[kk])))(;W[gg]))")
    _, full = jsonl(capsys, "check", str(tree))
    _, cut = jsonl(capsys, "check", str(tree), "--limit", "depth=2")
    assert not any("deeper" in m or "nest" in m for r in full for m in messages(r))
    assert any("deeper" in m or "nest" in m for r in cut for m in messages(r))


def test_string_length(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = tmp_path / "game.sgf"
    game.write_text("(;SZ[15]GN[" + "a very long game name" * 4 + "];B[hh];W[ii])")
    _, [full] = jsonl(capsys, "check", str(game))
    _, [cut] = jsonl(capsys, "check", str(game), "--limit", "string=10")
    assert full["moves"] == cut["moves"] == 2
    assert max(len(v) for v in cut["metadata"].values()) <= 10
    assert max(len(v) for v in full["metadata"].values()) > 10
    assert any("10" in m for m in messages(cut))  # the cut is told


def test_whole_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = tmp_path / "game.sgf"
    game.write_text("(;SZ[15];B[hh];W[ii];B[hi];W[ij])")
    code, [report] = jsonl(capsys, "check", str(game), "--limit", "whole-file=16")
    assert report["unreadable"] and code == 1
    assert "longer than 16 bytes" in messages(report)[0]
    # a suffix: K is 1024
    assert jsonl(capsys, "check", str(game), "--limit", "whole-file=1K")[1][0]["moves"] == 4


def test_diff_and_convert_take_limits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text("h8 h9\ni8 i9\nj8 j9\n")
    _, reports = jsonl(capsys, "check", str(games), "--limit", "records=1")
    assert len(reports) == 2
    code, out, err = renju(
        capsys, "convert", str(games), "--to", "notation", "--limit", "records=1"
    )
    assert out.splitlines() == ["h8 h9"] and "more than 1 records" in err and code == 1
    code, out, _ = renju(
        capsys, "diff", str(games), "-r", "renju", "-r", "freestyle", "--limit", "records=1",
        "--format", "json",
    )  # fmt: skip
    assert json.loads(out)["summary"]["records"] == 2


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("record=5", "expected NAME=N"),
        ("records", "expected NAME=N"),
        ("records=", "not a number"),
        ("records=-1", "not a number"),
        ("records=1.5", "not a number"),
        ("records=5X", "not a number"),
        ("records=\uff15", "not a number"),  # a full-width digit
        ("records=" + "9" * 40, "not a number"),
        ("records=0", "not between 1 and the default"),
        ("moves=5000", "not between 1 and the default, 4096"),  # lowered only
    ],
)
def test_a_bad_limit_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], value: str, why: str
) -> None:
    code, _, err = renju(capsys, "check", "-", "--limit", value, stdin="h8\n")
    assert code == 2 and why in err


def test_limit_values() -> None:
    assert parse_limits(("records=50_000", "whole-file=2M", " Depth = 8 ", "string=1k")) == {
        "max_records": 50_000,
        "bytes_per_record": 0,  # the bound given replaces the bound by the file's size
        "max_file": 2 << 20,
        "max_depth": 8,
        "max_string": 1024,
    }
    assert parse_limits(()) == {}
    with pytest.raises(UsageProblem):
        parse_limits(("string=2G",))  # past the default


def test_the_help_gives_the_defaults_of_read_options() -> None:
    defaults = ReadOptions()
    for name, (field, what) in LIMITS.items():
        shown = re.search(r"\((\d+)([KMG]?)\)$", what)
        assert shown is not None, name
        scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[shown.group(2)]
        assert int(shown.group(1)) * scale == getattr(defaults, field), name


def test_the_help_gives_the_bound_by_size_of_read_options() -> None:
    defaults = ReadOptions()
    said = f"{defaults.records_allowance} + one per {defaults.bytes_per_record} bytes"
    assert said in LIMITS["records"][1]


def test_jobs_2_cuts_where_jobs_1_does(tmp_path: Path) -> None:
    # past SMALL_FILE_BYTES: cut into slices for the workers, whose records the parent counts
    games = tmp_path / "games.txt"
    games.write_text("h8 h9\n" * 20_000)
    again = tmp_path / "games-again.txt"  # (the same file named twice is read once)
    again.write_bytes(games.read_bytes())
    outs = []
    for jobs in ("1", "2"):
        run = subprocess.run(
            [sys.executable, "-m", "renju_cli", "check", str(games), str(again),
             "--limit", "records=300", "--format", "jsonl", "--jobs", jobs],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        assert run.returncode == 1, run.stderr
        outs.append(run.stdout)
    assert outs[0] == outs[1]
    reports = [json.loads(line) for line in outs[0].splitlines()]
    assert len(reports) == 2 * 301  # two files, each cut at 300 records
    assert [r["source"]["index"] for r in reports[:301]] == list(range(301))
    assert reports[300]["unreadable"] and reports[601]["unreadable"]


def test_jobs_2_stops_cutting_a_file_past_its_records(tmp_path: Path) -> None:
    """The slices of a file past ``max_records`` are not cut (nor judged): the bound bounds the
    work, not only the report."""
    from renju_cli.batch import Batch

    games = tmp_path / "games.txt"
    games.write_text("h8 h9\n" * 50_000)
    size = games.stat().st_size
    cut: list[int] = []
    batch = Batch(
        [str(games)],
        jobs=2,
        chunk_records=4,
        options=ReadOptions(max_records=300),
        progress=lambda done, read: cut.append(read),
    )
    reports = [report for _, report in batch]
    assert len(reports) == 301 and reports[-1].unreadable
    # at most the slices in flight past the bound: a few thousand lines of 50,000
    assert cut[-1] < size // 4


def test_limit_resyncs_replaces_the_bound_by_size() -> None:
    from renju_cli.formats import renjunet

    fields = parse_limits(("resyncs=2",))
    assert fields == {"max_resyncs": 2, "bytes_per_resync": 0}
    damaged = "<database><games>\n" + "<game><info>&</info></game>\n" * 5 + "</games></database>"
    options = dataclasses.replace(ReadOptions(), **fields).for_file(len(damaged))
    recs = list(renjunet.read(io.BytesIO(damaged.encode()), "db.rif", options))
    assert len(recs) == 3 and all(r.unreadable for r in recs)
    assert (
        recs[-1]
        .problems[0]
        .message.endswith("; more than 2 XML syntax errors: the rest of the file is not read")
    )


# -- every bound in one place ----------------------------------------------------------------------
def test_the_options_and_the_readers_defaults_come_from_limits() -> None:
    from renju_cli import limits

    assert LIMITS is limits.OPTIONS
    defaults = ReadOptions()
    for name, (field, words) in limits.OPTIONS.items():
        default = getattr(defaults, field)
        # the default the help shows, in parentheses (16M: 16 << 20)
        shown = re.search(r"\((\d+)([KM]?)\)$", words)
        assert shown is not None, name
        assert int(shown.group(1)) << {"": 0, "K": 10, "M": 20}[shown.group(2)] == default, name
    assert defaults.max_moves == limits.MOVES and defaults.max_file == limits.WHOLE_FILE
    sized = defaults.for_file(1 << 20)
    assert sized.max_records == limits.RECORDS_ALLOWANCE + (1 << 20) // limits.BYTES_PER_RECORD
    assert sized.max_walks == limits.WALKS_ALLOWANCE + (1 << 20) // limits.BYTES_PER_WALK
    assert set(limits.GIVEN) <= {field for field, _ in limits.OPTIONS.values()}


def test_a_file_s_walks_are_bounded_outside_the_readers() -> None:
    """``read_stream`` reads; the bound on distinct openings followed is applied by whoever
    knows the rules (``limits.bound_walks``), with the file's sized options."""
    import inspect

    from renju_cli import formats, limits
    from renju_cli.formats.notation import parse_record

    assert "walk_key" not in inspect.signature(formats.read_stream).parameters
    assert not hasattr(formats, "AfterLast") and not hasattr(formats, "bound_walks")
    records = [parse_record(f"h8 h9 {p}") for p in ("i10", "j10", "k10", "j10")]
    options = dataclasses.replace(ReadOptions(), max_walks=2)
    out = list(limits.bound_walks(iter(records), options, lambda r: r.moves[2].point))
    assert [r.protocol_not_followed is not None for r in out] == [False, False, True, False]
    assert out[2].protocol_not_followed == options.too_many_walks()
    unbounded = list(limits.bound_walks(iter(records), ReadOptions(), lambda r: r.moves[2].point))
    assert all(r.protocol_not_followed is None for r in unbounded[:2])
