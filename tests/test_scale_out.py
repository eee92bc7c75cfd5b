"""Scale-out: records, reports and ``analyze`` pickle, run on a process pool and on a Dask
cluster with the results of a plain loop."""

from __future__ import annotations

import builtins
import json
import pickle
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli as renju

import renju_cli
from renju_cli import api
from renju_cli.record import Record

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
CORPUS = ROOT.parent / "shared" / "corpus"

TEXTS = [
    "black h8 i9 h9 i10 h10 i11 h11 g8 h12",
    "white f8 a1 g8 a3 h9 a5 h10 a7 h8",
    '{"moves": "h8 i9 h9 i10 h10 i11 h11 g8 h12", "rule": "freestyle"}',
    "(;GM[4]SZ[15];B[hh];W[hi];B[ih])",
    "this is not a record",
    "",
]


def all_records() -> Iterator[Record]:
    """Records of every format at hand: the examples, and the shared corpus when present."""
    paths = [str(EXAMPLES)]
    if CORPUS.is_dir():
        paths.append(str(CORPUS / "**" / "*.*"))
    for item in api.expand_inputs(paths, exclude=["Allrenjuopenings.lib"]):
        if isinstance(item, str):
            yield from api.read_path(item)


def test_records_and_reports_pickle_without_loss() -> None:
    records = list(all_records())
    formats = {r.format for r in records}
    assert {"notation", "jsonl"} <= formats
    if CORPUS.is_dir():
        assert {"psq", "pos", "renlib", "playok"} <= formats
    assert pickle.loads(pickle.dumps(records)) == records
    for record in records[:: max(1, len(records) // 200)]:
        report = api.judge_record(record)
        assert pickle.loads(pickle.dumps(report)).to_json() == report.to_json()


def test_analyze_is_a_picklable_top_level_function() -> None:
    assert pickle.loads(pickle.dumps(renju_cli.analyze)) is api.analyze
    assert renju_cli.analyze(TEXTS[0])["result"] == {
        "winner": "black",
        "reason": "five",
        "move": 9,
        "point": "h12",
    }


def test_analyze_on_a_process_pool_gives_the_results_of_a_loop() -> None:
    records = list(api.read_path(str(EXAMPLES / "after-the-end.txt"))) + [
        r for t in TEXTS for r in api.read_bytes(t.encode())
    ]
    work: list[Record | str] = [*TEXTS, *records]
    expected = [api.analyze(w) for w in work]
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(api.analyze, work, ["renju"] * len(work))) == [
            api.analyze(w, "renju") for w in work
        ]
        assert list(pool.map(api.analyze, work)) == expected
    json.dumps(expected)  # JSON-ready


def test_analyze_reads_any_format_and_never_raises_on_a_bad_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert api.analyze(TEXTS[2])["result"]["winner"] == "black"  # jsonl
    assert api.analyze(TEXTS[2])["ruleset"] == "freestyle"  # the record's own rule
    assert api.analyze(TEXTS[3])["moves"] == 3  # SGF
    junk = api.analyze(TEXTS[4])
    assert [f["code"] for f in junk["findings"]] == ["parse-error"]
    assert api.analyze("")["unreadable"] is True

    def boom(*_: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("renju_cli.tasks.replay", boom)  # what judges each record
    broken = api.analyze(TEXTS[0])
    assert [(f["code"], f["severity"]) for f in broken["findings"]] == [("internal-error", "error")]
    assert "RuntimeError: a bug" in broken["findings"][0]["message"]


def test_analyze_all_gives_every_record_of_a_text() -> None:
    text = "\n".join([TEXTS[0], TEXTS[1]])
    reports = api.analyze_all(text, path="two.txt")
    assert [r["source"] for r in reports] == [
        {"path": "two.txt", "id": "0", "index": 0, "line": 1},
        {"path": "two.txt", "id": "1", "index": 1, "line": 2},
    ]
    assert api.analyze(text)["source"]["index"] == 0


def test_check_paths_with_jobs_is_check_paths() -> None:
    serial = [r.to_json() for r in api.check_paths([str(EXAMPLES)])]
    assert [r.to_json() for r in api.check_paths([str(EXAMPLES)], jobs=2)] == serial
    assert len(serial) == 5


def test_the_library_takes_what_its_callers_pass_or_says_what_it_wants(tmp_path: Path) -> None:
    # a lone surrogate in a str (no UnicodeEncodeError), a bytearray or a Path (no
    # AttributeError deep in the batch), a str as check_paths' paths (one path, not its
    # characters: "/" would walk the disk), an unknown format (a ValueError, not an internal
    # error in every file), a NUL in a path
    lone = json.loads('"h8 h9 \\udc80 i10"')
    assert api.analyze(lone)["source"]["path"] == "<string>"  # (its byte 0x80 reads as .pos)
    surrogate = api.analyze(lone, fmt="notation")
    assert surrogate["moves"] == 2  # (the byte is a parse error: found U+FFFD)
    assert "found '\ufffd'" in surrogate["findings"][0]["message"]
    assert api.analyze(bytearray(b"h8 h9 i10"))["moves"] == 3
    assert api.analyze(memoryview(b"h8 h9 i10"))["moves"] == 3
    game = tmp_path / "game.txt"
    game.write_text("h8 h9 i10\n")
    with pytest.raises(TypeError, match=r"is not a record: pass its content"):
        api.analyze(game)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"not int"):
        api.analyze(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rules is a shipped ruleset's name"):
        api.analyze("h8 h9", rules=5)  # type: ignore[arg-type]
    assert [r.moves for r in api.check_paths(str(game))] == [3]
    assert [r.moves for r in api.check_paths(game)] == [3]
    assert [r.moves for r in api.check_paths([game, str(game)], rules="freestyle")] == [3]
    with pytest.raises(ValueError, match="unknown format 'nope'"):
        api.check_paths([str(game)], fmt="nope")
    (bad,) = api.read_path("a\x00b")
    (also,) = api.check_paths(["a\x00b"])
    assert bad.unreadable and "cannot open: embedded null byte" in bad.problems[0].message
    assert also.unreadable and also.findings[0].message == bad.problems[0].message


# -- Dask -----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "games.rif"
    generator = str(ROOT / "bench" / "gen_renjunet.py")
    subprocess.run(
        [sys.executable, generator, "--games", "120", "--seed", "9", "-o", str(path)],
        check=True,
        capture_output=True,
    )
    return path


def test_check_runs_on_a_dask_cluster(capsys: pytest.CaptureFixture[str], database: Path) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask is not installed (pip install 'renju-cli[dask]')"
    )
    args = ("check", str(database), str(EXAMPLES), "-f", "jsonl", "--duplicates", "report")
    local = renju(capsys, *args)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        remote = renju(capsys, *args, "--dask", cluster.scheduler_address)
    assert remote == local
    assert len(local[1].splitlines()) == 125


def test_dask_without_dask_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_dask(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "distributed":
            raise ImportError("No module named 'distributed'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    code, _, err = renju(capsys, "check", str(EXAMPLES), "--dask", "tcp://127.0.0.1:8786")
    assert code == 2
    assert "--dask needs Dask: pip install 'renju-cli[dask]'" in err


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("not-json", "not a Dask scheduler file (Expecting value"),
        ("no-address", 'not a Dask scheduler file (JSON that gives the scheduler\'s "address")'),
        ("tls", "cannot reach the Dask scheduler tls://127.0.0.1:1: TypeError: "),
        # refused at once, without waiting for Dask's connection timeout
        ("tcp://127.0.0.1:99999", "tcp://127.0.0.1:99999: port 99999 is out of range"),
        ("tcp://[::1", "tcp://[::1: invalid address '[::1'"),
    ],
)
def test_a_dask_address_that_cannot_be_reached_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, said: str
) -> None:
    # any file names a scheduler file: one of another kind must be a usage error, not an
    # assertion failing in Dask (exit 3), nor a TypeError for a scheme Dask needs more for
    pytest.importorskip(
        "distributed", reason="Dask is not installed (pip install 'renju-cli[dask]')"
    )
    address = kind if "://" in kind else "tls://127.0.0.1:1"
    if kind in ("not-json", "no-address"):
        path = tmp_path / "scheduler.json"
        path.write_text("h8 h9 i10\n" if kind == "not-json" else '{"id": "x"}')
        address = str(path)
    code, _, err = renju(capsys, "check", str(EXAMPLES), "--dask", address)
    assert code == 2, err
    assert said in err
