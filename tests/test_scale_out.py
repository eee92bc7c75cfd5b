"""Scale-out: records, reports and ``analyze`` pickle, run on a process pool and on a Dask
cluster with the results of a plain loop; ``renju check --dask`` against a real scheduler and
workers (processes of their own, on 127.0.0.1) gives the output of ``--jobs 1``, and loses no
record when a worker dies."""

from __future__ import annotations

import builtins
import json
import os
import pickle
import random
import re
import signal
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from helpers import generated_database
from helpers import run_cli as renju

import renju_cli
from renju_cli import api, cluster
from renju_cli.formats import ReadOptions
from renju_cli.record import Record
from renju_cli.tasks import FAULT_ENV, Settings
from renju_cli.units import Part, Rendering, Unit, judge_unit

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
CORPUS = ROOT.parent / "shared" / "corpus"

# (under pytest-xdist the tests run in one worker: the Dask cluster is started once)

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
    return generated_database(tmp_path_factory.mktemp("db") / "games.rif", 120, seed=9)


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


# -- Dask: a scheduler and two one-thread workers of their own --------------------------------
NEEDS_DASK = "Dask is not installed (pip install 'renju-cli[dask]')"
#: Seconds a cluster may take to start or to stop (the machine may be busy).
START_SECONDS = 120


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Dask scheduler file: ``dask scheduler`` and ``dask worker --nworkers 2 --nthreads 1``
    started here on 127.0.0.1, stopped at the end.  A unit is given up (``KilledWorker``) once
    two workers died running it."""
    distributed = pytest.importorskip("distributed", reason=NEEDS_DASK)
    where = tmp_path_factory.mktemp("dask")
    file = where / "scheduler.json"
    env = dict(
        os.environ,
        DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="1",
        # (as Dask's own tests do: a worker started again after a kill is forked from a
        # process that has Dask imported, not a Python that imports it anew)
        DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD="forkserver",
    )
    env.pop(FAULT_ENV, None)
    dask = [sys.executable, "-m", "dask"]
    common = ["--no-dashboard", "--scheduler-file", str(file)]
    started: list[subprocess.Popen[bytes]] = []
    try:
        started.append(
            _start([*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", *common], env, where)
        )
        _wait_for(file.exists, "the scheduler file")
        worker = [*dask, "worker", "--nworkers", "2", "--nthreads", "1", "--host", "127.0.0.1"]
        started.append(_start([*worker, "--local-directory", str(where), *common], env, where))
        with distributed.Client(scheduler_file=str(file), timeout=START_SECONDS) as client:
            client.wait_for_workers(2, timeout=START_SECONDS)
        yield str(file)
    finally:
        for process in reversed(started):
            _stop(process)


def _start(args: list[str], env: dict[str, str], where: Path) -> subprocess.Popen[bytes]:
    log = open(where / f"{args[3]}.log", "wb")  # noqa: SIM115 - the process holds it
    return subprocess.Popen(args, env=env, stdout=log, stderr=log, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a process of the cluster and the processes it started (its own session)."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def _wait_for(ready: Any, what: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while not ready():
        assert time.monotonic() < deadline, f"{what} did not come"
        time.sleep(0.1)


def _moves(rng: random.Random, n: int) -> str:
    points = rng.sample([f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)], n)
    return " ".join(points)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory, database: Path) -> list[str]:
    """Inputs of every kind of unit: a big move-list file, a big JSON Lines file and a big
    database (cut into ranges), a directory of small files (read in groups), a small database
    (read whole), a file that is not there."""
    where = tmp_path_factory.mktemp("inputs")
    rng = random.Random(34)
    lines = [
        f"{rng.choice(['black ', 'white ', ''])}{_moves(rng, rng.randint(5, 40))}"
        for _ in range(300)
    ]
    lines[7] = "# a comment, then a blank line\n"
    lines[100] = "h8 h9 zz9 i10"  # a parse error
    lines[201] = "h8 h9 h8"  # an occupied point
    (where / "big.txt").write_text("\n".join(lines) + "\n")
    objects = [
        json.dumps({"moves": _moves(rng, rng.randint(5, 30)), "rule": "freestyle"})
        for _ in range(200)
    ]
    (where / "big.jsonl").write_text("\n".join(objects) + "\n")
    small = where / "small"
    small.mkdir()
    for n in range(30):
        (small / f"g{n:02d}.txt").write_text(lines[n] + "\n" + lines[n + 1] + "\n")
    big = generated_database(where / "big.rif", 160, seed=3)  # (107 kB)
    return [
        str(big),
        str(where / "big.txt"),
        str(small),
        str(where / "big.jsonl"),
        str(database),
        str(EXAMPLES),
        str(where / "missing.txt"),
    ]


@pytest.fixture
def small_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """Units of 4 KiB at least, so that the small inputs are cut into many."""
    monkeypatch.setattr(cluster, "MIN_UNIT_BYTES", 4 << 10)


@pytest.mark.parametrize(
    "options",
    [
        ("-f", "jsonl"),
        ("-f", "text", "--quiet", "--select", "occupied,parse-error,result-mismatch"),
        ("-f", "json", "--limit", "records=150"),
        ("-f", "jsonl", "--dask-ship-bytes"),
        ("-f", "sarif", "--duplicates", "report"),
    ],
)
def test_dask_gives_the_output_of_one_job_byte_for_byte(
    capsys: pytest.CaptureFixture[str],
    scheduler: str,
    inputs: list[str],
    small_units: None,
    options: tuple[str, ...],
) -> None:
    one = renju(capsys, "check", *inputs, *options)
    assert one[1].count("\n") > 30
    assert renju(capsys, "check", *inputs, *options, "--dask", scheduler) == one


@pytest.mark.parametrize(
    ("damage", "replacement", "cut"),
    [
        # an XML syntax error: the reader resumes at the next game
        ("<move>", "<move><bad", True),
        ('opening="', 'opening="\xff', True),  # a byte that is not UTF-8
        ("<game ", "<!-- a comment --><game ", False),  # not cut at all: read whole
        # a table among the games: the reader of the whole file reads it there
        ("", '</games><players><player id="1" name="A"/></players><games>', True),
    ],
)
def test_a_database_read_otherwise_than_whole_is_read_whole_from_that_range_on(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    scheduler: str,
    small_units: None,
    damage: str,
    replacement: str,
    cut: bool,
) -> None:
    # the ranges before the trouble are the whole file's; from the range that holds it on,
    # the file is read whole (its reader resumes, says what is wrong and numbers the games)
    path = generated_database(tmp_path / "games.rif", 200, seed=3)
    raw = path.read_bytes()
    game = raw.index(b'<game id="120"')
    target = damage.encode("latin-1")
    at = raw.index(target, game)
    path.write_bytes(raw[:at] + replacement.encode("latin-1") + raw[at + len(target) :])
    one = renju(capsys, "check", str(path), "-f", "jsonl")
    rests: list[int] = []
    real = cluster.ClusterBatch._rest

    def rest(self: Any, number: int, part: Part, first: int, rendering: Any) -> Any:
        rests.append(first)
        return real(self, number, part, first, rendering)

    monkeypatch.setattr(cluster.ClusterBatch, "_rest", rest)
    assert renju(capsys, "check", str(path), "-f", "jsonl", "--dask", scheduler) == one
    assert len(rests) == (1 if cut else 0)
    assert all(0 < first <= 120 for first in rests)


def test_a_database_past_its_budget_of_moves_stops_where_the_whole_file_does(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    scheduler: str,
    small_units: None,
) -> None:
    # every game names one player of a very long name: the text the games repeat outgrows
    # the file's budget (moves and text by its bytes), and its reader stops there
    path = generated_database(tmp_path / "games.rif", 300, seed=3)
    raw = re.sub(rb'(black|white)="\d+"', rb'\1="1"', path.read_bytes())
    raw = re.sub(rb'(<player id="1" [^>]*?name=")[^"]*"', rb"\g<1>" + b"N" * 20000 + b'"', raw)
    path.write_bytes(raw)
    one = renju(capsys, "check", str(path), "-f", "jsonl")
    assert "budget" in one[1].splitlines()[-1]
    rests: list[int] = []
    real = cluster.ClusterBatch._rest

    def rest(self: Any, number: int, part: Part, first: int, rendering: Any) -> Any:
        rests.append(first)
        return real(self, number, part, first, rendering)

    monkeypatch.setattr(cluster.ClusterBatch, "_rest", rest)
    assert renju(capsys, "check", str(path), "-f", "jsonl", "--dask", scheduler) == one
    assert len(rests) == 1


def test_workers_read_fsspec_urls_themselves(
    capsys: pytest.CaptureFixture[str], scheduler: str, inputs: list[str]
) -> None:
    pytest.importorskip("fsspec", reason="fsspec is not installed")
    small = Path(inputs[2])
    local = renju(capsys, "check", str(small), inputs[1], "-f", "jsonl")
    url = f"file://{small}/*.txt"
    remote = renju(capsys, "check", url, inputs[1], "-f", "jsonl", "--dask", scheduler)
    named = f'"path":"file://{small}/'
    assert remote == (local[0], local[1].replace(f'"path":"{small}/', named), local[2])
    assert remote[1].count(named) == 58
    code, _, err = renju(capsys, "check", f"file://{small}/none/", "--dask", scheduler)
    assert code == 2 and "none/: no such file or directory" in err


def test_an_html_report_on_a_cluster_draws_every_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scheduler: str, inputs: list[str]
) -> None:
    # the workers send the records back with their reports: the pages have their boards
    here, there = tmp_path / "here", tmp_path / "there"
    one = renju(capsys, "check", inputs[2], "--html", str(here), "--html-boards", "all")
    two = renju(
        capsys,
        "check",
        inputs[2],
        "--html",
        str(there),
        "--html-boards",
        "all",
        "--dask",
        scheduler,
    )
    assert one[:2] == two[:2]
    pages = sorted(p.relative_to(here) for p in here.rglob("*") if p.is_file())
    assert len(pages) > 50
    assert pages == sorted(p.relative_to(there) for p in there.rglob("*") if p.is_file())
    for page in pages:
        assert (here / page).read_bytes() == (there / page).read_bytes(), page


def test_ranges_numbered_again_when_their_records_were_miscounted(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    scheduler: str,
    inputs: list[str],
    small_units: None,
) -> None:
    # a range that holds other records than the client counted (a reader and its
    # starts_record at odds): the ranges after it are judged again, numbered as the file is
    one = renju(capsys, "check", inputs[1], "-f", "jsonl")
    real = cluster._Cutter.cut

    def miscounted(self: Any) -> Part:
        part = real(self)
        return Part(**{**part.__dict__, "records": part.records + 1})

    monkeypatch.setattr(cluster._Cutter, "cut", miscounted)
    assert renju(capsys, "check", inputs[1], "-f", "jsonl", "--dask", scheduler) == one


def test_a_worker_killed_in_the_middle_of_a_unit_loses_and_repeats_no_record(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    scheduler: str,
    inputs: list[str],
    small_units: None,
) -> None:
    one = renju(capsys, "check", inputs[1], "-f", "jsonl")
    # the worker that judges record 150 stops there and says so; it is killed, and Dask runs
    # its unit again on another worker (the file says it was stalled once: it goes on there)
    marker = tmp_path / "stalled"
    monkeypatch.setenv(FAULT_ENV, f"stall:big.txt#150:{marker}")
    killed: list[int] = []

    def kill_the_worker() -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            text = marker.read_text() if marker.exists() else ""
            if text.endswith("\n"):
                killed.append(int(text))
                os.kill(killed[0], signal.SIGKILL)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_the_worker)
    killer.start()
    try:
        assert renju(capsys, "check", inputs[1], "-f", "jsonl", "--dask", scheduler) == one
    finally:
        killer.join()
    assert killed, "no worker judged record 150"


def test_a_record_that_kills_every_worker_is_reported_alone(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    scheduler: str,
    inputs: list[str],
) -> None:
    # its unit is given up after two workers died on it: the client reads the unit and sends
    # each record alone, and only the one that kills its worker is reported so
    args = ("check", inputs[2], "-f", "jsonl")
    clean = renju(capsys, *args)[1].splitlines()
    monkeypatch.setenv(FAULT_ENV, "crash:g05.txt#1")
    code, out, _ = renju(capsys, *args, "--dask", scheduler)
    assert code == 3
    lines = out.splitlines()
    assert len(lines) == len(clean)
    sources = [json.loads(line)["source"] for line in clean]
    (at,) = [n for n, s in enumerate(sources) if s["path"].endswith("g05.txt") and s["index"] == 1]
    broken = [n for n, line in enumerate(lines) if "internal-error" in line]
    assert broken == [at]
    assert lines[:at] == clean[:at] and lines[at + 1 :] == clean[at + 1 :]
    finding = json.loads(lines[at])["findings"][0]
    assert finding["message"] == (
        "the worker judging this record stopped: KilledWorker: every worker that judged it "
        "died (a crash, or out of memory)"
    )


# -- units, without a cluster ------------------------------------------------------------------
def _range(path: Path, data: bytes, **changes: Any) -> Unit:
    options = ReadOptions()
    part = Part(str(path), "notation", options, 0, len(data), 1, 0, 2, zlib.crc32(data))
    return Unit(0, (Part(**{**part.__dict__, **changes}),))


def test_a_range_numbers_its_records_from_its_first(tmp_path: Path) -> None:
    data = b"h8 h9 i9\nblack h8 i9 h9 i10 h10 i11 h11 g8 h12\n"
    path = tmp_path / "games.txt"
    path.write_bytes(b"x" * 10 + data)
    done = judge_unit(
        _range(path, data, offset=10, first_line=4, first_index=7), Settings(), Rendering()
    )
    assert [(j.report.source.index, j.report.source.line) for j in done.judged] == [(7, 4), (8, 5)]
    assert (done.read, done.ended, done.full) == (2, False, False)


def test_a_range_whose_file_changed_since_it_was_cut_says_so_and_ends_the_file(
    tmp_path: Path,
) -> None:
    data = b"h8 h9 i9\nh8 h9 i10\n"
    path = tmp_path / "games.txt"
    path.write_bytes(data.replace(b"i10", b"j10"))  # the same size, other bytes
    done = judge_unit(
        _range(path, data, first_line=3, first_index=5), Settings(), Rendering("jsonl")
    )
    assert done.ended and done.reports == 1
    report = json.loads(done.text)
    assert report["source"]["index"] == 5
    assert report["findings"][0]["message"] == (
        "the file changed while it was read: its lines from 3 on are not checked (they are not "
        "the bytes it was cut into)"
    )
    path.write_bytes(data[:-1])  # shorter
    assert judge_unit(_range(path, data), Settings(), Rendering()).ended


def test_a_range_past_the_files_bound_on_records_ends_it(tmp_path: Path) -> None:
    data = b"h8 h9\nh8 h10\nh8 h11\n"
    path = tmp_path / "games.txt"
    path.write_bytes(data)
    options = ReadOptions(max_records=4)
    done = judge_unit(
        _range(path, data, options=options, first_index=3, records=3), Settings(), Rendering()
    )
    reports = [j.report for j in done.judged]
    assert [r.source.index for r in reports] == [3, 4]
    assert reports[1].unreadable and "more than 4 records" in reports[1].findings[0].message
    assert done.full and done.read == 2


def test_a_worker_that_cannot_see_a_file_says_what_to_do(tmp_path: Path) -> None:
    missing = str(tmp_path / "elsewhere.txt")
    done = judge_unit(Unit(0, (Part(missing),)), Settings(), Rendering())
    (judged,) = done.judged
    message = judged.report.findings[0].message
    assert message.startswith("cannot open on the worker (")
    assert "(shared storage), or are sent their bytes (--dask-ship-bytes)" in message
    shipped = judge_unit(Unit(0, (Part(missing, data=b"h8 h9 i10\n"),)), Settings(), Rendering())
    assert shipped.judged[0].report.moves == 3


def test_units_grow_with_the_batch_within_bounds() -> None:
    assert cluster.unit_bytes(1 << 20, 2) == cluster.MIN_UNIT_BYTES
    assert cluster.unit_bytes(64 << 20, 2) == 2 << 20  # 16 units a worker
    assert cluster.unit_bytes(1 << 40, 256) == cluster.MAX_UNIT_BYTES
