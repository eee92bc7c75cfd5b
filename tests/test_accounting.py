"""Accounting: every record a reader finds appears exactly once in ``renju check``'s output.

The expected records come from the library (``api.expand_inputs`` + ``api.read_path``); the
output of ``renju check --format jsonl`` (in a subprocess, and with ``--jobs 2``) must list the
same records in the same order, each once, judged or as a ``parse-error``; the JSON summary's
counts must add up.  Inputs mix every format, mutants, empty and unreadable files, a directory
that cannot be listed, a symbolic-link loop and files that fail while being read.
"""

from __future__ import annotations

import errno
import io
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from renju_cli import api
from renju_cli import inputs as renju_inputs
from renju_cli.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import fuzz_seeds
import mutate

# (under pytest-xdist the tests run in one worker: the runs they look at are made once)

Key = tuple[str, int, Any, Any]


def key(source: dict[str, Any]) -> Key:
    return (source["path"], source["index"], source.get("variation"), source.get("line"))


def expected(paths: list[str]) -> list[Key]:
    """The records the library finds, in input order."""
    out: list[Key] = []
    for item in api.expand_inputs(paths):
        if isinstance(item, api.InputError):
            out.append((item.path, 0, None, None))
            continue
        out.extend(key(r.source.to_json()) for r in api.read_path(item))
    return out


def make_inputs(root: Path, rnd: random.Random, mutants: int = 12) -> list[str]:
    """A directory of records in every format, mutants of them, an empty file and a loop."""
    games = root / "games"
    (games / "sub").mkdir(parents=True)
    for name, data in fuzz_seeds.own_seeds().items():
        (games / name).write_bytes(data)
    seeds = sorted(fuzz_seeds.own_seeds().values())
    for n in range(mutants):
        (games / "sub" / f"mutant{n:02d}.bin").write_bytes(
            mutate.mutate(rnd.choice(seeds), rnd, seeds)
        )
    (games / "empty.txt").write_bytes(b"")
    (games / "sub" / "loop").symlink_to("..")  # a directory loop
    (games / "self").symlink_to("self")  # a link to itself (ELOOP)
    return [str(games), str(root / "missing.txt")]


def check(args: list[str], *, jobs: int = 1) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "renju_cli", "check", *args, "--jobs", str(jobs)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)


def assert_summary_adds_up(doc: dict[str, Any]) -> None:
    records, summary = doc["records"], doc["summary"]
    assert summary["records"] == len(records)
    assert summary["judged"] + summary["unreadable"] == summary["records"]
    assert summary["unreadable"] == sum(r["unreadable"] for r in records)
    assert summary["with_findings"] == sum(bool(r["findings"]) for r in records)
    listed = Counter(f["code"] for r in records for f in r["findings"])
    # (a record lists ``MAX_FINDINGS``: a ``too-many-findings`` finding counts the rest by code,
    # and the summary counts them too, by code and by severity)
    codes = listed + sum(
        (Counter(f.get("counts", {})) for r in records for f in r["findings"]), Counter()
    )
    assert summary["findings"] == dict(codes)
    assert sum(summary["severities"].values()) == sum(codes.values())
    assert sum(summary["results"].values()) == len(records)
    for r in records:
        if r["unreadable"]:
            assert any(f["code"] == "parse-error" for f in r["findings"])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return make_inputs(tmp_path_factory.mktemp("accounting"), random.Random(7))


@pytest.fixture(scope="module")
def runs(inputs: list[str]) -> dict[int, subprocess.CompletedProcess[str]]:
    """``renju check --format jsonl`` on the inputs, with --jobs 1 and --jobs 2."""
    return {jobs: check([*inputs, "--format", "jsonl"], jobs=jobs) for jobs in (1, 2)}


@pytest.fixture(scope="module")
def jsonl(runs: dict[int, subprocess.CompletedProcess[str]]) -> str:
    return runs[1].stdout


@pytest.mark.parametrize("jobs", [1, 2])
def test_jsonl_lists_every_record_once_in_input_order(
    inputs: list[str], runs: dict[int, subprocess.CompletedProcess[str]], jobs: int
) -> None:
    want = expected(inputs)
    run = runs[jobs]
    assert run.returncode == 1, run.stderr  # the mutants and the missing file are findings
    assert "Traceback" not in run.stderr
    got = [key(json.loads(line)["source"]) for line in run.stdout.splitlines()]
    assert got == want
    assert len(want) > 40


def test_json_summary_adds_up(inputs: list[str]) -> None:
    run = check([*inputs, "--format", "json"])
    doc = json.loads(run.stdout)
    assert [key(r["source"]) for r in doc["records"]] == expected(inputs)
    assert_summary_adds_up(doc)


def test_jobs_2_gives_the_same_bytes(runs: dict[int, subprocess.CompletedProcess[str]]) -> None:
    assert runs[1].stdout == runs[2].stdout


def test_loops_and_missing_paths_are_findings_not_failures(jsonl: str) -> None:
    bad = [json.loads(line) for line in jsonl.splitlines()]
    bad = [r for r in bad if r["unreadable"]]
    paths = {r["source"]["path"] for r in bad}
    assert any(p.endswith("missing.txt") for p in paths)
    assert any(p.endswith("empty.txt") for p in paths)
    assert any(p.endswith("self") for p in paths)


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        main(["check", *args])
    return int(done.value.code or 0), capsys.readouterr().out


@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10**6))
def test_any_set_of_inputs_is_accounted_for(
    seed: int, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = make_inputs(tmp_path_factory.mktemp("any"), random.Random(seed), mutants=6)
    code, out = run_main([*paths, "--format", "json"], capsys)
    doc = json.loads(out)
    assert code in (0, 1)
    assert [key(r["source"]) for r in doc["records"]] == expected(paths)
    assert_summary_adds_up(doc)


# -- the file system failing under the reader ---------------------------------------------------
def refuse_listing(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make listing a directory called ``name`` fail as a mode-000 one does for a user (tests
    run as root, who can list it)."""
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if str(path).endswith(name):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_a_directory_that_cannot_be_listed_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "a.txt").write_text("h8 h9\n")
    (tmp_path / "ok.txt").write_text("h8 h9 i8\n")
    refuse_listing(monkeypatch, "locked")
    code, out = run_main([str(tmp_path), "--format", "jsonl"], capsys)
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    by_name = {r["source"]["path"].rsplit("/", 1)[-1]: r for r in recs}
    assert sorted(by_name) == ["locked", "ok.txt"] and len(recs) == 2
    locked = by_name["locked"]
    assert locked["unreadable"] and "Permission denied" in locked["findings"][0]["message"]
    assert by_name["ok.txt"]["moves"] == 3


@pytest.mark.parametrize(
    "pattern", ["**/*.txt", "*/locked/*.txt", "**", "deep/**/*.txt", "*/*/*.txt"]
)
def test_a_directory_a_pattern_cannot_list_is_a_finding(
    pattern: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A pattern whose search meets a directory it cannot list says so (``glob`` passes over
    it in silence: the games in it were lost without a word, exit code 0):

        work/deep/ok.txt  work/deep/locked/a.txt (locked: cannot be listed)  top.txt
    """
    work = tmp_path / "work"
    (work / "deep" / "locked").mkdir(parents=True)
    (work / "deep" / "locked" / "a.txt").write_text("h8 h9\n")
    (work / "deep" / "ok.txt").write_text("h8 h9 i8\n")
    (tmp_path / "top.txt").write_text("h8 h9 i8 i9\n")
    refuse_listing(monkeypatch, "locked")
    monkeypatch.chdir(work)
    code, out = run_main([pattern, str(tmp_path / "top.txt"), "--format", "jsonl"], capsys)
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    locked = [r for r in recs if r["unreadable"]]
    assert [r["source"]["path"] for r in locked] == [os.path.join("deep", "locked")]
    assert "cannot list directory: Permission denied" in locked[0]["findings"][0]["message"]
    # the file beside it is read when the pattern takes it, and the file after the pattern
    read = [r["moves"] for r in recs if not r["unreadable"]]
    assert read == ([3, 4] if pattern in ("**/*.txt", "**", "deep/**/*.txt") else [4])


def test_a_pattern_searches_only_the_directories_its_parts_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # ``*/*.txt`` never lists deep/locked (no part of it could match there): no finding
    (tmp_path / "deep" / "locked").mkdir(parents=True)
    (tmp_path / "deep" / "ok.txt").write_text("h8 h9 i8\n")
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        assert not str(path).endswith("locked"), "listed a directory the pattern cannot reach"
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(tmp_path)
    code, out = run_main(["*/*.txt", "--format", "jsonl"], capsys)
    assert code == 0 and [json.loads(line)["moves"] for line in out.splitlines()] == [3]


@pytest.mark.skipif(
    os.geteuid() == 0, reason="root reads and lists mode-000 paths; see the monkeypatched tests"
)
def test_real_permissions_are_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "a.txt").write_text("h8 h9\n")
    (tmp_path / "secret.txt").write_text("h8 h9\n")
    (tmp_path / "ok.txt").write_text("h8 h9 i8\n")
    (tmp_path / "locked").chmod(0)
    (tmp_path / "secret.txt").chmod(0)
    try:
        code, out = run_main([str(tmp_path), "--format", "jsonl"], capsys)
    finally:
        (tmp_path / "locked").chmod(0o755)
    recs = {r["source"]["path"].rsplit("/", 1)[-1]: r for r in map(json.loads, out.splitlines())}
    assert code == 1 and sorted(recs) == ["locked", "ok.txt", "secret.txt"]
    assert recs["locked"]["unreadable"] and recs["secret.txt"]["unreadable"]
    assert recs["ok.txt"]["moves"] == 3


def test_a_file_that_cannot_be_opened_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secret, ok = tmp_path / "a-secret.txt", tmp_path / "b-ok.txt"
    secret.write_text("h8 h9\n")
    ok.write_text("h8 h9 i8\n")
    if os.geteuid() != 0:
        secret.chmod(0)  # a real refusal when not root
    else:
        # root reads mode-000 files: make opening this one fail as it would for a user
        real_open = open

        def refusing_open(file: Any, *args: Any, **kwargs: Any) -> Any:
            if str(file) == str(secret):
                raise PermissionError(errno.EACCES, "Permission denied", str(file))
            return real_open(file, *args, **kwargs)

        monkeypatch.setattr(renju_inputs, "open", refusing_open, raising=False)
    code, out = run_main([str(secret), str(ok), "--format", "jsonl"], capsys)
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(recs) == 2
    assert recs[0]["unreadable"] and "Permission denied" in recs[0]["findings"][0]["message"]
    assert recs[1]["moves"] == 3 and not recs[1]["unreadable"]


def test_pipes_and_sockets_found_in_a_directory_are_findings_not_hangs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    (tmp_path / "a.txt").write_text("h8 h9\n")
    os.mkfifo(tmp_path / "b-pipe.txt")  # opening it would wait for a writer forever
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "c.sock"))
        for paths in ([str(tmp_path)], [str(tmp_path / "*")]):
            code, out = run_main([*paths, "--format", "jsonl"], capsys)
            recs = {
                r["source"]["path"].rsplit("/", 1)[-1]: r for r in map(json.loads, out.splitlines())
            }
            assert code == 1 and sorted(recs) == ["a.txt", "b-pipe.txt", "c.sock"]
            assert "a named pipe" in recs["b-pipe.txt"]["findings"][0]["message"]
            assert "a socket" in recs["c.sock"]["findings"][0]["message"]
            assert recs["a.txt"]["moves"] == 2
    finally:
        server.close()


def test_a_named_pipe_named_on_its_own_is_read(tmp_path: Path) -> None:
    # renju check <(zcat games.gz): the shell hands over a pipe
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def write() -> None:
        with open(pipe, "wb") as w:
            w.write(b"h8 h9 i10\n")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    (rec,) = api.read_path(str(pipe), "notation")
    writer.join(10)
    assert len(rec.moves) == 3


class _FailingFile(io.FileIO):
    """A file that fails (EIO) after ``good`` bytes, like one truncated or unmounted mid-read."""

    def __init__(self, path: str, good: int) -> None:
        super().__init__(path, "rb")
        self.good = good

    def readinto(self, buffer: Any) -> int:
        if self.tell() >= self.good:
            raise OSError(errno.EIO, "Input/output error")
        view = memoryview(buffer)[: min(len(buffer), 64, self.good - self.tell())]
        return super().readinto(view) or 0


def test_a_file_that_fails_while_read_keeps_its_records_and_the_batch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = b"".join(b"h8 h9 i8 g8\n" for _ in range(200))
    broken, ok = tmp_path / "a-broken.txt", tmp_path / "b-ok.txt"
    broken.write_bytes(lines)
    ok.write_text("h8 h9 i8\n")
    real_open = open

    def flaky_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) == str(broken):
            return _FailingFile(str(file), good=len(lines) // 2)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(renju_inputs, "open", flaky_open, raising=False)
    code, out = run_main([str(broken), str(ok), "--format", "jsonl"], capsys)
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    from_broken = [r for r in recs if r["source"]["path"] == str(broken)]
    assert len(from_broken) >= 2 and from_broken[-1]["unreadable"]
    assert "Input/output error" in from_broken[-1]["findings"][0]["message"]
    assert recs[-1]["source"]["path"] == str(ok) and recs[-1]["moves"] == 3


def test_a_file_that_grows_while_read_is_read_as_big_as_it_was_and_says_so(
    tmp_path: Path,
) -> None:
    # read to its end, a file that grows as fast as it is read would hold the batch for as
    # long as it grows (a sparse file extended by terabytes)
    path = tmp_path / "growing.txt"
    path.write_bytes(b"h8 h9\n" * 3)
    recs = api.read_path(str(path))
    first = next(recs)
    with path.open("ab") as f:  # another program appends while we read
        f.write(b"i8 i9\n" * 1000)
    *rest, said = recs
    assert [len(r.moves) for r in [first, *rest]] == [2, 2, 2]  # the three records it had
    assert said.unreadable and said.source.index == 3
    assert said.problems[0].message == (
        "the file grew while it was read (18 bytes when opened, 6018 at the end): the records "
        "before are those of its first 18 bytes; the bytes written since are not read"
    )
    # extended by a terabyte of holes while read (no disk used): read no further
    path.write_bytes(b"h8 h9\n" * 3)
    recs = api.read_path(str(path))
    first = next(recs)
    os.truncate(path, 1 << 40)
    *rest, said = recs
    assert len(rest) == 2 and "(18 bytes when opened, 1099511627776 at the end)" in (
        said.problems[0].message
    )


# -- --select / --ignore ---------------------------------------------------------------------
def _check_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    from helpers import run_cli

    code, out, _ = run_cli(capsys, "check", *args, "--format", "json")
    return code, json.loads(out)


def test_filters_apply_to_the_findings_too_many_findings_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 150 moves on h8: 149 "occupied", 100 listed and 49 counted in one too-many-findings.
    # --ignore occupied left "occupied 49" in the summary and exit code 1; --select occupied
    # counted 100 of the 149
    game = tmp_path / "h8.txt"
    game.write_text(" ".join(["h8"] * 150) + "\n")
    code, report = _check_json(capsys, str(game))
    assert code == 1 and report["summary"]["findings"] == {"occupied": 149, "too-many-findings": 1}
    code, report = _check_json(capsys, str(game), "--ignore", "occupied")
    assert code == 0 and report["summary"]["findings"] == {}
    assert report["records"][0]["findings"] == []
    code, report = _check_json(capsys, str(game), "--select", "occupied")
    assert code == 1 and report["summary"]["findings"]["occupied"] == 149
    # the counted findings of a code left, the others dropped from the counts and the words
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(" ".join(["h8"] * 150 + ["z99"] * 30) + "\n")
    code, report = _check_json(capsys, str(mixed), "--ignore", "occupied")
    (elided,) = [f for f in report["records"][0]["findings"] if f["code"] == "too-many-findings"]
    assert elided["counts"] == {"off-board": 30} and "(off-board 30)" in elided["message"]
    assert "occupied" not in report["summary"]["findings"]
    code, report = _check_json(capsys, str(mixed), "--ignore", "too-many-findings")
    assert all(f["code"] != "too-many-findings" for f in report["records"][0]["findings"])


def test_a_record_that_cannot_be_read_or_judged_is_never_filtered_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the README's "--duplicates report --select duplicate" made an empty file pass as clean
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    for args in (["--duplicates", "report", "--select", "duplicate"], ["--ignore", "parse-error"]):
        code, report = _check_json(capsys, str(empty), *args)
        assert code == 1, args
        assert [f["code"] for f in report["records"][0]["findings"]] == ["parse-error"]
        assert report["summary"]["unreadable"] == 1
    # and a record whose judgement failed (a bug) keeps its internal error: exit code 3
    game = tmp_path / "bf.txt"
    game.write_text("h8 h9\n")
    monkeypatch.setenv("RENJU_TEST_FAULT", "raise:bf.txt#0")
    code, report = _check_json(capsys, str(game), "--duplicates", "report", "--select", "duplicate")
    assert code == 3 and report["summary"]["internal_errors"] == 1


def test_filtered_too_many_findings_keep_the_severity_of_what_they_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Under a claim policy a foul is a warning.  110 moves on h8 push it past the 100 listed
    # findings; --select forbidden-move then made the counting finding an *error* (the code's
    # default severity) and exit 1, where the same foul listed was a warning and exit 0; and
    # it still said "the first 100 are" with none listed
    (tmp_path / "claim.yaml").write_text(
        "extends: renju\nname: claim\nforbidden:\n  policy: claim\n"
    )
    game = tmp_path / "many.txt"
    game.write_text("h8 a1 " + "h8 " * 110 + "c3 o15 d3 o14 e4 o13 e5 o12 e3 o11\n")
    rules = str(tmp_path / "claim.yaml")
    code, report = _check_json(capsys, str(game), "-r", rules, "--select", "forbidden-move")
    (elided,) = report["records"][0]["findings"]
    assert code == 0 and elided["severity"] == "warning"
    assert elided["message"] == "1 finding(s) are not listed (forbidden-move 1)"


def test_a_report_written_into_the_directory_read_is_not_read(tmp_path: Path) -> None:
    # ``renju check games/ > games/report.jsonl``: the shell makes the report before the run,
    # and the run read it as it grew (ten thousand records of its own findings); it is said
    # once instead, as grep -r says "input file is also the output"
    import subprocess
    import sys

    games = tmp_path / "games"
    games.mkdir()
    for i in range(30):
        (games / f"g{i:02}.txt").write_text("h8 h9 i8 i9 j8\n")
    report = games / "report.jsonl"
    with report.open("wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "renju_cli", "check", str(games), "--format", "jsonl"],
            stdout=out,
            check=False,
        )
    recs = [json.loads(line) for line in report.read_text().splitlines()]
    assert done.returncode == 1
    assert len(recs) == 31
    mine = [r for r in recs if r["source"]["path"] == str(report)]
    assert len(mine) == 1 and mine[0]["unreadable"]
    assert "the input file is also the output" in mine[0]["findings"][0]["message"]
    assert all(r["moves"] == 5 for r in recs if r is not mine[0])


def test_a_file_of_no_size_is_not_read_and_says_how_to_read_it(tmp_path: Path) -> None:
    # /proc and /sys files have st_size 0 whatever they hold, and some block for ever when
    # read (trace_pipe): they are not read, and the message says how to read one
    path = tmp_path / "status.txt"
    path.write_bytes(b"")
    (empty,) = api.read_path(str(path))
    assert empty.unreadable and empty.problems[0].message == (
        "the file is empty (its size is 0; a file of /proc or /sys that holds bytes all the "
        "same is read through a pipe: cat FILE | renju check -)"
    )


def test_a_file_without_records_that_grows_while_read_says_both(tmp_path: Path) -> None:
    # comment lines only, appended to while read: "no record found" and the growth are both
    # said, with --jobs 1 as with --jobs 2
    path = tmp_path / "comments.txt"
    path.write_bytes(b"# a comment\n" * 10)

    def append(n: int) -> None:  # once the file is open and being read
        if path.stat().st_size == 120:
            with path.open("ab") as f:
                f.write(b"h8 h9\n")

    nothing, grew = api.read_path(str(path), on_read=append)
    assert nothing.source.index == 0 and "no record found" in nothing.problems[0].message
    assert grew.source.index == 1 and grew.problems[0].message.startswith(renju_inputs.GREW)


def test_a_file_in_a_directory_that_cannot_be_searched_is_no_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # os.path.exists says False when a directory on the way is mode 000: the file is no
    # "no such file or directory" usage error (exit 2) but one record saying why it cannot be
    # opened (exit 1), as a file of mode 000 is.  (Permissions are
    # played here: root searches and opens anything.)
    (tmp_path / "locked").mkdir()
    game = tmp_path / "locked" / "game.txt"
    game.write_text("h8 h9\n")
    real_stat, real_open = os.stat, open

    def stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        if "locked" + os.sep in str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    def opener(path: Any, *args: Any, **kwargs: Any) -> Any:
        if "locked" + os.sep in str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(renju_inputs, "open", opener, raising=False)
    assert list(api.expand_inputs([str(game)])) == [str(game)]
    code, out = run_main([str(game), "--format", "jsonl"], capsys)
    (rec,) = map(json.loads, out.splitlines())
    assert code == 1 and rec["findings"][0]["message"] == "cannot open: Permission denied"
    (missing,) = api.expand_inputs([str(tmp_path / "nothing.txt")])
    assert isinstance(missing, api.InputError) and missing.message == "no such file or directory"


def test_a_file_reached_by_several_inputs_is_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # overlapping inputs must not report a file's records twice, under the same source, nor
    # count them twice: as pytest and ruff take paths, a file is read where it is first reached
    (tmp_path / "ov" / "sub").mkdir(parents=True)
    (tmp_path / "ov" / "a.txt").write_text("h8 h9 i8\n")
    (tmp_path / "ov" / "sub" / "b.txt").write_text("h8 h9 i8 g8\n")
    os.link(tmp_path / "ov" / "a.txt", tmp_path / "hard-link.txt")
    monkeypatch.chdir(tmp_path)
    for args, order in [
        (["ov", "ov"], ["ov/a.txt", "ov/sub/b.txt"]),
        (["ov", "ov/sub"], ["ov/a.txt", "ov/sub/b.txt"]),
        (["ov/sub/b.txt", "ov"], ["ov/sub/b.txt", "ov/a.txt"]),
        (["ov/a.txt", "./ov/a.txt", "hard-link.txt"], ["ov/a.txt"]),
        (["ov/**", "ov/sub/*.txt"], ["ov/a.txt", "ov/sub/b.txt"]),
    ]:
        code, out = run_main([*args, "--format", "json"], capsys)
        report = json.loads(out)
        assert [r["source"]["path"] for r in report["records"]] == order, args
        assert report["summary"]["records"] == len(order) and code == 0
    assert list(api.expand_inputs(["-", "ov/a.txt", "ov/a.txt"])) == ["-", "ov/a.txt"]
