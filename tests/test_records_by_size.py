"""The bound on records by a file's size: at most ``records_allowance`` + one per
``bytes_per_record`` bytes (8,192 + one per 32 bytes by default, one per 24 in a RenLib library).

Time goes with records: each is judged and reported, 6-30 microseconds apiece whatever is in it.
A hostile file packs a record in two or three bytes (``a1`` lines, ``()`` trees, a RenLib root
with half a million one-move lines), a megabyte of them took 3 to 15 s; real records take more
room (a game from nine moves, a RenLib library about 20 bytes a line), and the first 8,192
records of any file are never cut.  Past the bound the rest of the file is one unreadable
record that says why and how to lift it (``--limit records=N`` replaces the bound).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli as renju

from renju_cli.api import read_bytes, read_path
from renju_cli.formats import ReadOptions

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import hostile

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def test_the_bound_grows_with_the_size_of_the_file() -> None:
    opts = ReadOptions()
    assert (opts.records_allowance, opts.bytes_per_record) == (8192, 32)
    assert opts.for_file(0).max_records == 8192
    assert opts.for_file(1 << 20).max_records == 8192 + (1 << 20) // 32  # 40,960 for 1 MB
    # a RenLib library packs its lines tighter: one per 24 bytes
    renlib = opts.for_file(1 << 20).for_format("renlib")
    assert renlib.max_records == 8192 + (1 << 20) // 24 and renlib.bytes_per_record == 24
    assert opts.for_file(1 << 20).for_format("sgf").max_records == 40960
    # a bound given, or a density of the caller's, is not changed by the format
    assert given_density(opts) == 8192 + (1 << 20) // 100
    # past the fixed bound the fixed bound stays (a 300 GB file)
    assert opts.for_file(300 << 30).max_records == opts.max_records
    # set once: the options of a file are not lowered again for a slice of it
    sized = opts.for_file(1000)
    assert sized.for_file(10) is sized and sized.sized_for == 1000
    # a bound given (--limit records=N) replaces it
    given = ReadOptions(max_records=50, bytes_per_record=0)
    assert given.for_file(10).max_records == 50


def given_density(opts: ReadOptions) -> int:
    own = dataclasses.replace(opts, bytes_per_record=100).for_file(1 << 20)
    assert ReadOptions(max_records=50, bytes_per_record=0).for_format("renlib").max_records == 50
    return own.for_format("renlib").max_records


def test_the_message_says_why_and_how_to_lift_it() -> None:
    said = ReadOptions().for_file(32_000).too_many("lines")
    assert said == (
        "more than 9192 lines in a file of 32000 bytes (at most 8192 + one per 32 bytes; "
        "--limit records=N sets the bound)"
    )
    said = ReadOptions().for_file(24_000).for_format("renlib").too_many("lines")
    assert said == (
        "more than 9192 lines in a file of 24000 bytes (at most 8192 + one per 24 bytes; "
        "--limit records=N sets the bound)"
    )
    assert ReadOptions(max_records=7).too_many() == "more than 7 records"


# Every reader stops at the bound with the same record: the tiny-record floods of
# fuzz/hostile.py at 2 KB, read with a bound of 10 records + one per 100 bytes.
FLOODS = [
    "notation-tiny-records",
    "jsonl-tiny-records",
    "sgf-tiny-games",
    "sgf-many-siblings",
    "sgf-empty-variations",
    "renlib-wide",
    "renjunet-tiny-games",
    "playok-tiny-games",
    "gomocup-many-lines",
]


@pytest.mark.parametrize("name", FLOODS)
def test_every_reader_stops_at_the_bound(name: str) -> None:
    data = hostile.HOSTILE[name](2048)
    small = ReadOptions(records_allowance=10, bytes_per_record=100)
    bound = 10 + len(data) // 100
    records = list(read_bytes(data, f"{name}.bin", options=small))
    whole = list(read_bytes(data, f"{name}.bin", options=ReadOptions(bytes_per_record=0)))
    assert len(whole) > bound + 1, "the flood must hold more records than the bound"
    *read, last = records
    assert len(read) == bound
    assert last.problems and last.problems[-1].fatal
    assert f"more than {bound} " in last.problems[-1].message
    assert f"in a file of {len(data)} bytes" in last.problems[-1].message
    # the records before the bound are those of the whole reading
    assert [r.moves for r in read] == [r.moves for r in whole[:bound]]


def jsonl(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_a_flood_is_cut_and_jobs_2_cuts_where_jobs_1_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 30,000 one-move records in 90,000 bytes: 8,192 + 2,812 of them are read; big enough
    # to be cut into slices for --jobs 2
    flood = tmp_path / "flood.txt"
    flood.write_bytes(b"a1\n" * 30_000)
    outs = []
    for jobs in ("1", "2"):
        code, out, err = renju(capsys, "check", str(flood), "--format", "jsonl", "--jobs", jobs)
        assert code == 1 and err == ""
        outs.append(out)
    assert outs[0] == outs[1]
    reports = jsonl(outs[0])
    assert len(reports) == 11_004 + 1
    assert [r["source"]["index"] for r in reports] == list(range(11_005))
    assert not any(r["unreadable"] for r in reports[:-1])
    [finding] = reports[-1]["findings"]
    assert finding["message"] == (
        "line 11005: more than 11004 records in a file of 90000 bytes (at most 8192 + one per "
        "32 bytes; --limit records=N sets the bound); the rest is not read"
    )


def test_a_records_limit_replaces_the_bound(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    flood = tmp_path / "flood.txt"
    flood.write_bytes(b"a1\n" * 10_000)  # bound: 8,192 + 937
    code, out, _ = renju(capsys, "check", str(flood), "--format", "jsonl")
    assert len(jsonl(out)) == 9_129 + 1 and code == 1
    code, out, _ = renju(capsys, "check", str(flood), "--format", "jsonl", "--limit", "records=16M")
    assert len(jsonl(out)) == 10_000 and code == 0  # read whole
    code, out, _ = renju(capsys, "check", str(flood), "--format", "jsonl", "--limit", "records=5")
    reports = jsonl(out)
    assert (
        len(reports) == 6
        and "more than 5 records; the rest" in reports[-1]["findings"][0]["message"]
    )


def test_standard_input_from_a_file_is_bounded_by_its_size(tmp_path: Path) -> None:
    flood = tmp_path / "flood.txt"
    flood.write_bytes(b"a1\n" * 10_000)
    with open(flood, "rb") as stdin:
        run = subprocess.run(
            [sys.executable, "-m", "renju_cli", "check", "-", "--format", "jsonl"],
            stdin=stdin, capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
    reports = jsonl(run.stdout)
    assert run.returncode == 1 and len(reports) == 9_130  # 8,192 + 937, and the cut
    assert "in a file of 30000 bytes" in reports[-1]["findings"][0]["message"]
    # a pipe has no size: only the fixed bound holds
    piped = subprocess.run(
        [sys.executable, "-m", "renju_cli", "check", "-", "--format", "jsonl"],
        input=b"a1\n" * 10_000, capture_output=True, check=False, timeout=300,
    )  # fmt: skip
    assert piped.returncode == 0 and piped.stdout.count(b"\n") == 10_000


def test_real_games_are_far_from_the_bound(tmp_path: Path) -> None:
    # 10,000 short games that end in a five (9 moves, 27 bytes a line), past the allowance of
    # 8,192: all read (the bound, 8,192 + one per 32 bytes, holds up to 52,000 such lines)
    games = tmp_path / "games.txt"
    games.write_bytes(b"h8 a1 i8 a2 j8 a3 k8 a4 l8\n" * 10_000)
    records = list(read_path(str(games)))
    assert len(records) == 10_000 and not any(r.problems for r in records)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the team's real records are absent ({CORPUS})")
def test_the_real_records_of_the_corpus_are_far_from_the_bound() -> None:
    # bytes per record of every real file, against the 32 the bound allows past its allowance
    # (24 in a RenLib library, which holds a line in about 20-30 bytes of tree and comments)
    seen = 0
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.name == "SOURCES.md":
            continue
        records = list(read_path(str(path)))
        assert not any("in a file of" in p.message for r in records for p in r.problems), path
        if len(records) > 100:
            seen += 1
            assert os.path.getsize(path) / len(records) > 20, path
    assert seen >= 3  # the PlayOK export and both RenLib libraries


def test_an_sgf_tree_is_parsed_only_as_far_as_the_bound() -> None:
    # (;SZ[15];B[hh](;W[a1])(;W[a2])...(;W[o15]) then a second game: 20 lines in one tree,
    # a bound of 5 lines.  The tree is not parsed past its 7th line (a megabyte of such
    # siblings took a second to parse whole), the first 5 are the lines of a whole reading.
    points = [f"{c}{r}" for c in "abcdefghijklmnoq" for r in "abcdefghijklmno"]
    tree = b"(;SZ[15];B[hh]" + b"".join(b"(;W[%s])" % p.encode() for p in points[:20]) + b")"
    data = tree + b"\n(;SZ[15];B[hh];W[ii])\n"
    bounded = ReadOptions(max_records=5, bytes_per_record=0)
    records = list(read_bytes(data, "t.sgf", "sgf", bounded))
    whole = list(read_bytes(data, "t.sgf", "sgf"))
    assert len(whole) == 21
    assert [r.moves for r in records[:5]] == [r.moves for r in whole[:5]]
    assert len(records) == 6 and records[5].problems[-1].message == (
        "more than 5 records; the rest is not read"
    )
    # the parse itself stopped at the 7th line
    from renju_cli.formats.sgf import _Parser

    parser = _Parser(data, bounded)
    parsed = parser.parse_tree(max_lines=6)
    assert parsed.cut and parsed.root is not None and parsed.root.children is not None
    assert len(parsed.root.children[0].children or []) == 7 and parser.pos < len(tree)
    # a tree that cannot be read (its size): one unreadable record, and the rest of the file
    # is still said not to be read (the tree held more lines than the bound)
    bad = data.replace(b"SZ[15]", b"SZ[99]", 1)
    records = list(read_bytes(bad, "t.sgf", "sgf", bounded))
    assert len(records) == 2 and all(r.problems and r.problems[-1].fatal for r in records)
    assert records[1].problems[-1].message == "more than 5 records; the rest is not read"
