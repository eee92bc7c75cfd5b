"""Batch ``renju check``: inputs, parallel judging in input order, failures, filters, summary,
the output file, the progress bar, closed pipes, Ctrl-C and NO_COLOR."""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import generated_database
from helpers import run_cli as renju

from renju_cli import api, inputs
from renju_cli.batch import Batch, cpu_count
from renju_cli.formats import ReadOptions
from renju_cli.output.text import TextRenderer
from renju_cli.record import Record
from renju_cli.report import GameReport
from renju_cli.tasks import FAULT_ENV, FileTask, TextSlice

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
CORPUS = ROOT.parent / "shared" / "corpus"

FIVE = "black h8 i9 h9 i10 h10 i11 h11 g8 h12\n"  # black five at move 9
DOUBLE_THREE = "white f8 a1 g8 a3 h9 a5 h10 a7 h8\n"  # black's double-three at move 9


def subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", FAULT_ENV)}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic RenjuNet database of 150 games (the bench generator, deterministic)."""
    return generated_database(tmp_path_factory.mktemp("db") / "games.rif", 150, seed=5)


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """A directory tree of move lists: a/clean.moves, a/b/foul.moves, notes.md, .hidden/x."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "clean.moves").write_text(FIVE)
    (tmp_path / "a" / "b" / "foul.moves").write_text(DOUBLE_THREE)
    (tmp_path / "a" / "b" / "two.moves").write_text(FIVE + DOUBLE_THREE)
    (tmp_path / "notes.md").write_text("not a record\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.moves").write_text(FIVE)
    return tmp_path


def paths_of(out: str) -> list[tuple[str, int]]:
    return [(r["source"]["path"], r["source"]["index"]) for r in map(json.loads, out.splitlines())]


# -- inputs ---------------------------------------------------------------------------------------
def test_directories_are_searched_recursively_in_name_order(
    capsys: pytest.CaptureFixture[str], games: Path
) -> None:
    code, out, _ = renju(capsys, "check", str(games), "-f", "jsonl")
    assert code == 1
    names = [os.path.relpath(p, games) for p, _ in paths_of(out)]
    # a directory's files by name, then its subdirectories; hidden entries skipped; a file of
    # no known format is an unreadable record
    assert names == [
        "notes.md",
        "a/clean.moves",
        "a/b/foul.moves",
        "a/b/two.moves",
        "a/b/two.moves",
    ]


def test_include_and_exclude_patterns(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    _, out, _ = renju(capsys, "check", str(games), "-f", "jsonl", "--include", "*.moves")
    assert {os.path.basename(p) for p, _ in paths_of(out)} == {
        "foul.moves",
        "two.moves",
        "clean.moves",
    }
    _, out, _ = renju(
        capsys, "check", str(games), "-f", "jsonl", "--include", "*.moves", "--exclude", "*/b/*"
    )
    assert [os.path.basename(p) for p, _ in paths_of(out)] == ["clean.moves"]


def test_glob_patterns_and_standard_input(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    pattern = str(games / "a" / "**" / "*.moves")
    code, out, _ = renju(capsys, "check", pattern, "-", "-f", "jsonl", stdin=FIVE)
    assert code == 1
    found = [(os.path.basename(p), i) for p, i in paths_of(out)]
    # the matches of a pattern in the order of their paths, then standard input
    assert found == [
        ("foul.moves", 0),
        ("two.moves", 0),
        ("two.moves", 1),
        ("clean.moves", 0),
        ("<stdin>", 0),
    ]


def test_a_pattern_reads_each_file_once_and_follows_no_loop(tmp_path: Path) -> None:
    """``glob`` follows symbolic links under ``**``: a link to ``.`` gives each file again
    under x/x/x/..., two such links make the search exponential; and ``dir/**`` matches the
    directory and the files in it, which must be read once.

        tree/a.txt  tree/sub/b.txt  tree/.hidden.txt  tree/x -> .  tree/y -> .
    """
    from renju_cli.inputs import InputError, expand_inputs

    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    for name in ("a.txt", "sub/b.txt", ".hidden.txt"):
        (tree / name).write_text("h8 h9\n")
    (tree / "x").symlink_to(".")
    (tree / "y").symlink_to(".")
    files = [str(tree / "a.txt"), str(tree / "sub" / "b.txt")]
    for pattern in ("**/*.txt", "**", "*/*.txt", "**/sub/*.txt", "s*"):
        found = list(expand_inputs([str(tree / pattern)]))
        paths = [f for f in found if isinstance(f, str)]
        assert len(paths) == len(set(paths)), pattern  # never twice
        if pattern in ("**/*.txt", "**"):
            assert paths == files, pattern
        # the links to a directory read before are said, once each, never followed
        assert all("(a loop)" in e.message for e in found if isinstance(e, InputError))
    # a loop met by the search is said, as a directory read whole says it
    found = list(expand_inputs([str(tree / "**" / "sub" / "*.txt")]))
    assert [f for f in found if isinstance(f, str)] == files[1:]
    assert [(e.path, "(a loop)" in e.message) for e in found if isinstance(e, InputError)] == [
        (str(tree / "x"), True),
        (str(tree / "y"), True),
    ]


def test_patterns_read_what_glob_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The files a pattern reads are those of ``glob.glob(recursive=True)`` (its directories
    walked), without the paths through a link to a directory read before:

        top.txt  a/x.txt  a/b/y.txt  a/b/c/w.txt  .hid/h.txt  .hid/c/k.txt  z/.dot.txt  self -> .
    """
    import glob

    from renju_cli.inputs import expand_inputs

    for name in ("top.txt", "a/x.txt", "a/b/y.txt", "a/b/c/w.txt", ".hid/h.txt", ".hid/c/k.txt",
                 "z/.dot.txt"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("h8\n")
    (tmp_path / "self").symlink_to(".")
    monkeypatch.chdir(tmp_path)

    def by_glob(pattern: str) -> list[str]:
        out = set()
        for m in glob.glob(pattern, recursive=True):
            if not os.path.isdir(m):
                out.add(os.path.normpath(m))
                continue
            for top, dirs, files in os.walk(m):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                out.update(os.path.normpath(os.path.join(top, f)) for f in files
                           if not f.startswith("."))  # fmt: skip
        return sorted(p for p in out if not p.startswith("self/"))

    for pattern in ("**", "**/*.txt", "a/**", "a/**/", "**/", "*/**", "a/*/**", "**/.hid/*",
                    ".hid/**", "**/b", "**/c", "./**/*.txt", "[ab]/**/*.txt", "**/*",
                    "*", "*.txt", "*/*.txt", "a/*/*.txt", "[ab]/*", ".hid/*/k.txt", "*/c/*",
                    "a/b/*", "*/b/c/*.txt", "z/*", "z/.*"):  # fmt: skip
        found = [f for f in expand_inputs([pattern]) if isinstance(f, str)]
        assert sorted(os.path.normpath(f) for f in found) == by_glob(pattern), pattern
        assert len(found) == len(set(found)), pattern
    # 800 directories deep: no recursion limit
    deep = tmp_path / "deep" / "/".join(["d"] * 800)
    deep.mkdir(parents=True)
    (deep / "x.txt").write_text("h8\n")
    assert len(list(expand_inputs(["deep/**/*.txt"]))) == 1


def test_standard_input_is_streamed_and_loses_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    piped = (FIVE + DOUBLE_THREE) * 500  # 24 kB: the head read for detection, then the rest
    code, out, _ = renju(capsys, "check", "-", "-f", "jsonl", stdin=piped)
    assert code == 1
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) == 1000
    assert [r["source"]["index"] for r in reports] == list(range(1000))
    assert [r["result"]["reason"] for r in reports[:2]] == ["five", "forbidden"]


@pytest.mark.parametrize("codec", ["utf-8", "utf-16"])
def test_standard_input_is_judged_as_it_arrives(codec: str) -> None:
    # a pipe that stays open (a live feed, an endless stream): reports come out before its end,
    # also when it is recoded as it is read
    import select

    proc = subprocess.Popen(
        [sys.executable, "-m", "renju_cli", "check", "-", "-f", "jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        # past the head, and output past a pipe's buffer
        proc.stdin.write(("h8 h9\n" * 5000).encode(codec))
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "no report before the end of standard input"
        first = json.loads(proc.stdout.readline())
        assert first["source"] == {"path": "<stdin>", "id": "0", "index": 0, "line": 1}
    finally:
        proc.stdin.close()
        proc.stdout.read()
        proc.wait(60)


def test_a_non_blocking_standard_input_is_waited_for() -> None:
    # a program that left its end of the pipe non-blocking for ours: "nothing yet" is no end
    import time

    r, w = os.pipe()
    os.set_blocking(r, False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "renju_cli", "check", "-", "-f", "jsonl"],
        stdin=r,
        stdout=subprocess.PIPE,
        env=subprocess_env(),
    )
    os.close(r)
    time.sleep(0.5)  # nothing has come yet
    os.write(w, b"h8 h9\n" * 500)
    time.sleep(0.5)  # a pause after the first bytes
    os.write(w, b"h8 h9 i10\n" * 10)
    os.close(w)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0 and out.count(b"\n") == 510


def test_a_read_error_in_the_first_kilobytes_of_standard_input_keeps_what_came(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class FailingSoon(io.RawIOBase):
        sent = False

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            if self.sent:
                raise OSError(5, "Input/output error")
            self.sent = True
            data = b"h8 h9\nh8 h9 i10\n"
            buffer[: len(data)] = data
            return len(data)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(FailingSoon())))
    code, out, _ = renju(capsys, "check", "-", "-f", "jsonl")
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["moves"] for r in reports[:2]] == [2, 3] and len(reports) == 3
    assert "read error: Input/output error" in reports[2]["findings"][0]["message"]
    assert code == 1


def test_a_closed_standard_input_is_one_unreadable_record() -> None:
    done = subprocess.run(
        f"{sys.executable} -m renju_cli check - -f jsonl <&-",
        shell=True,
        capture_output=True,
        env=subprocess_env(),
        check=False,
    )
    (report,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1 and "standard input is closed" in report["findings"][0]["message"]


def test_a_named_pipe_is_detected_from_its_first_kilobytes(tmp_path: Path) -> None:
    # <(printf '\n'; sleep 1; cat games.sgf): the first read gives one byte
    import threading
    import time

    pipe = tmp_path / "games"
    os.mkfifo(pipe)

    def write() -> None:
        with open(pipe, "wb", buffering=0) as w:
            w.write(b"\n")
            time.sleep(0.3)
            w.write(b"(;GM[4]SZ[15];B[hh];W[hi])\n" * 300)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    recs = list(inputs.read_path(str(pipe)))
    writer.join(10)
    assert len(recs) == 300 and recs[0].format == "sgf" and not recs[0].problems


def test_a_standard_input_that_fails_is_one_unreadable_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Failing())))
    code, out, _ = renju(capsys, "check", "-", "-f", "jsonl")
    (report,) = [json.loads(line) for line in out.splitlines()]
    assert report["unreadable"] and report["source"]["path"] == "<stdin>"
    assert "read error: Input/output error" in report["findings"][0]["message"]
    assert code == 1


def test_a_missing_input_is_an_unreadable_record_but_no_input_at_all_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], games: Path
) -> None:
    code, out, _ = renju(capsys, "check", str(games / "a" / "clean.moves"), "nope.moves")
    assert code == 1
    assert "nope.moves" in out and "no such file or directory" in out
    assert "2 record(s): 1 judged, 1 unreadable" in out
    code, _, err = renju(capsys, "check", "nope.moves", "nope/*.sgf")
    assert code == 2
    assert "no input found" in err


# -- parallel judging -----------------------------------------------------------------------------
# (github, junit and sarif render the records and the summary that json compares whole)
@pytest.mark.parametrize("fmt", ["text", "json", "jsonl"])
def test_jobs_give_the_output_of_one_job_byte_for_byte(
    capsys: pytest.CaptureFixture[str], database: Path, games: Path, fmt: str
) -> None:
    args = ("check", str(database), str(EXAMPLES), str(games), "-f", fmt, "--duplicates", "report")
    one = renju(capsys, *args, "--jobs", "1")
    two = renju(capsys, *args, "--jobs", "2")
    assert one == two
    assert one[0] == 1 and one[1]


def test_jobs_0_means_one_worker_per_core(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    assert cpu_count() >= 1
    one = renju(capsys, "check", str(database), "-f", "jsonl")
    assert renju(capsys, "check", str(database), "-f", "jsonl", "-j", "0") == one


def test_order_holds_whatever_order_workers_finish_in(database: Path, games: Path) -> None:
    """One-record chunks on two workers finish out of order; reports still come in order."""
    named = list(inputs.expand_inputs([str(games), str(database)]))
    serial = [r.to_json() for _, r in Batch(named)]
    parallel = [r.to_json() for _, r in Batch(named, jobs=2, chunk_records=1)]
    assert parallel == serial
    assert len(serial) == 155


def test_many_small_files_read_by_the_workers_come_out_in_order(tmp_path: Path) -> None:
    games = [FIVE, DOUBLE_THREE, FIVE + DOUBLE_THREE, "h8 h8\n", "not a record\n"]
    for n in range(60):
        (tmp_path / f"g{n:02d}.moves").write_text(games[n % len(games)])
    named = list(inputs.expand_inputs([str(tmp_path)]))
    serial = [r.to_json() for _, r in Batch(named)]
    batch = Batch(named, jobs=2, chunk_records=3)
    pairs = list(batch)
    assert [r.to_json() for _, r in pairs] == serial
    assert len(serial) == 72
    assert all(record is None for record, _ in pairs)  # read by the workers, not here
    kept = list(Batch(named, jobs=2, chunk_records=3, read_in_workers=False))
    assert all(record is not None for record, _ in kept)
    assert [r.to_json() for _, r in kept] == serial


@pytest.mark.parametrize("suffix", [".txt", ".jsonl"])
def test_a_big_line_file_is_cut_into_slices_of_whole_records(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    suffix: str,
) -> None:
    """A big move-list (or JSON Lines) file goes to the workers as slices of raw lines; a slice
    never starts inside a record (``3. i8`` continues the line before), and record indices and
    line numbers are those of the whole file."""
    from renju_cli import batch

    monkeypatch.setattr(batch, "SLICE_LINES", 3)  # cut often, in tests
    monkeypatch.setattr(batch, "SMALL_FILE_BYTES", 0)  # every file is "big"
    if suffix == ".txt":
        games = [
            FIVE,
            "1. h8 2. h9\n",
            "# a comment\n",
            "3. i8 4. i9\n",
            "\n",
            "5. j10\n",
            DOUBLE_THREE,
            "h8 zz\n",
        ] * 9
    else:
        games = ['{"moves": "h8 i9 h9 i10 h10 i11 h11 g8 h12"}\n', "\n", "not json\n"] * 20
    f = tmp_path / f"games{suffix}"
    f.write_text("".join(games))
    one = renju(capsys, "check", str(f), "-f", "jsonl")
    two = renju(capsys, "check", str(f), "-f", "jsonl", "-j", "2")
    assert two == one
    reports = [json.loads(line) for line in one[1].splitlines()]
    assert [r["source"]["index"] for r in reports] == list(range(len(reports)))
    if suffix == ".txt":
        assert len(reports) == 9 * 4
        assert [r["moves"] for r in reports[:4]] == [9, 5, 9, 1]  # 1. ... 5. is one record
        assert reports[4]["source"]["line"] == 9  # each group of games is 8 lines
        assert reports[3]["findings"][0]["line"] == 8


# lines that only the reader's own rules tell apart (the slicer once judged bytes): each file
# must give the same report with --jobs 2, cut every 3 lines, as with --jobs 1
TRICKY_SLICES = {
    "bom-and-blank-lines": "\ufeff\n" + "\n" * 40,  # nothing to check, also cut in slices
    "nbsp-lines": "\u00a0\n" * 40,  # blank to the reader (str.strip), not to bytes
    "fullwidth-move-number": "h8 h9\n" * 5 + "1. h8 h9\n\uff12. i8 g8\n" + "h8 h9\n" * 5,
    "ideographic-space": "h8 h9\n" * 5 + "1. h8\n\u3000 2. i8\n" + "h8 h9\n" * 5,
    "huge-move-number": "h8 h9\n" * 5 + "1" * 5000 + ". h8\n" + "h8 h9\n" * 5,
    "long-continued-record": "1. h8\n" + "2. h9\n" * 300 + "h8 h9\n" * 5,
    "overlong-line": "h8 " + "x" * 3000 + "\n" + "h8 h9\n" * 5,
    "only-continuations": "2. h8 h9\n" * 40,  # the first line still starts a record
    "big-slices": ("h8 h9 " * 2000 + "\n") * 30,  # slices past SLICE_DATA_BYTES: read by place
}


@pytest.mark.parametrize("name", sorted(TRICKY_SLICES))
def test_slices_start_where_the_reader_starts_a_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    from renju_cli import batch

    monkeypatch.setattr(batch, "SLICE_LINES", 3)
    monkeypatch.setattr(batch, "SMALL_FILE_BYTES", 0)
    f = tmp_path / f"{name}.txt"
    f.write_text(TRICKY_SLICES[name])
    options = ["-f", "jsonl", "--input-format", "notation"]
    one = renju(capsys, "check", str(f), *options)
    assert renju(capsys, "check", str(f), *options, "-j", "2") == one
    assert one[0] in (0, 1) and one[1]  # never an internal error, never nothing


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32-le", "cp037"])
def test_an_encoding_that_is_not_ascii_compatible_is_not_used_on_lines(
    tmp_path: Path, encoding: str
) -> None:
    """The command line refuses such an --encoding; given to the library, it decoded lines of
    even length as UTF-16 (garbage) and made the --jobs 2 slicer cut a continued record in
    two.  Text lines are read as if no encoding was given."""
    from renju_cli.batch import Batch
    from renju_cli.formats import ReadOptions

    f = tmp_path / "enc.txt"
    f.write_text("\n".join(["# " + "x" * 70_000] + ["h8 h9"] * 63 + ["2. i9"]) + "\n")
    want = [(r.source.line, r.moves) for _, r in Batch([str(f)], jobs=1)]
    for jobs in (1, 2):
        got = Batch([str(f)], jobs=jobs, options=ReadOptions(encoding=encoding))
        assert [(r.source.line, r.moves) for _, r in got] == want
    assert len(want) == 63 and want[-1][1] == 3


def test_a_slice_of_a_file_that_changed_since_it_was_cut_is_a_finding(tmp_path: Path) -> None:
    from renju_cli.formats import ReadOptions
    from renju_cli.tasks import Settings, TextSlice, read_slice

    f = tmp_path / "games.txt"
    f.write_text("h8 h9\n" * 100)
    st = f.stat()
    slice_ = TextSlice(str(f), "notation", ReadOptions(), 60, 60, 11, 10, None, (0, 0))
    (rec,) = read_slice(slice_, Settings(None))
    assert isinstance(rec, Record) and rec.unreadable and rec.source.line == 11
    assert "the file changed while it was read" in rec.problems[0].message
    same = TextSlice(
        str(f), "notation", ReadOptions(), 60, 60, 11, 10, None, (st.st_dev, st.st_ino)
    )
    recs = list(read_slice(same, Settings(None)))
    assert [r.source.line for r in recs if isinstance(r, Record)] == list(range(11, 21))


def test_a_slice_of_a_file_written_anew_in_place_since_it_was_cut_is_a_finding(
    tmp_path: Path,
) -> None:
    # the same inode and size, other bytes (a program rewriting its output while the parent
    # cuts the next slices): a worker must not read the new lines as the file's (--jobs 2
    # would report more records than the file holds, with no finding). The checksum of the
    # bytes cut tells.
    import zlib

    from renju_cli.formats import ReadOptions
    from renju_cli.tasks import Settings, TextSlice, read_slice

    f = tmp_path / "games.txt"
    f.write_text("h8 h9\n" * 100)
    st = f.stat()
    identity = (st.st_dev, st.st_ino)
    cut = f.read_bytes()[60:120]

    def slice_of(checksum: int) -> TextSlice:
        return TextSlice(
            str(f), "notation", ReadOptions(), 60, 60, 11, 10, None, identity, 0, checksum
        )

    assert len(list(read_slice(slice_of(zlib.crc32(cut)), Settings(None)))) == 10
    with open(f, "r+b") as out:  # (in place: the same inode)
        out.write(b"i9 j9\n" * 100)
    (rec,) = read_slice(slice_of(zlib.crc32(cut)), Settings(None))
    assert isinstance(rec, Record) and rec.unreadable and rec.source.line == 11
    assert rec.problems[0].message == (
        "the file changed while it was read: its lines from 11 on are not checked (they are "
        "not the bytes cut)"
    )


def test_slices_that_come_without_their_bytes_carry_their_checksum(tmp_path: Path) -> None:
    import zlib

    from renju_cli.batch import SLICE_DATA_BYTES, Batch
    from renju_cli.tasks import TextSlice

    f = tmp_path / "long.txt"
    f.write_bytes((b"h8 h9 i10 # " + b"x" * 2000 + b"\n") * 200 + b"h8 h9\n" * 300)
    batch = Batch([str(f)], jobs=2)
    slices = [s for s in batch._slices(str(f), 0) or () if isinstance(s, TextSlice)]
    data = f.read_bytes()
    assert any(s.data is None for s in slices) and any(s.data is not None for s in slices)
    for s in slices:
        assert s.length <= SLICE_DATA_BYTES or s.data is None
        if s.data is None:
            assert s.checksum == zlib.crc32(data[s.offset : s.offset + s.length])
        else:
            assert s.checksum is None and s.data == data[s.offset : s.offset + s.length]


def test_a_read_error_while_cutting_ends_the_file_as_with_one_job(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a disk error part way: the records before it, then one unreadable record (not exit 3)
    import errno

    from renju_cli import batch

    f = tmp_path / "games.txt"
    f.write_bytes(b"h8 h9 i8\n" * 20_000)
    real_open = open

    class Failing(io.FileIO):
        def readinto(self, buffer: Any) -> int:
            if self.tell() >= 100_000:
                raise OSError(errno.EIO, "Input/output error")
            return super().readinto(buffer) or 0

    def failing_open(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if str(path) == str(f):
            return io.BufferedReader(Failing(str(path), "rb"))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(batch, "open", failing_open, raising=False)
    reports = [r for _, r in Batch([str(f)], jobs=2)]
    assert reports[-1].unreadable and "read error: Input/output error" in str(reports[-1].findings)
    assert len(reports) > 100_000 // 9 and not any(r.unreadable for r in reports[:-1])
    assert [r.source.index for r in reports[:-1]] == list(range(len(reports) - 1))


def test_a_file_cut_short_while_it_is_read_ends_with_a_finding(tmp_path: Path) -> None:
    """Truncated while read: the records read, then one unreadable record that says so, where
    the report looked complete (the records past the cut were silently missing)."""
    from renju_cli.inputs import read_path

    f = tmp_path / "games.txt"
    f.write_bytes(b"h8 h9 i8\n" * 100_000)
    records: list[Record] = []
    unbounded = ReadOptions(bytes_per_record=0)  # short records: not the bound by size here
    for record in read_path(str(f), options=unbounded):
        if not records:
            os.truncate(f, 200_000)  # a log rotated, a copy restarted...
        records.append(record)
    *read, last = records
    assert len(read) < 100_000 and not any(r.unreadable for r in read)
    assert last.unreadable and last.source.index == len(read)
    assert "the file changed while it was read (900000 bytes when opened, 200000 at the end)" in (
        last.problems[0].message
    )
    # a file left alone: no such record
    assert not any(r.unreadable for r in read_path(str(f), options=unbounded))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_written_anew_and_longer_while_it_is_read_ends_with_a_finding(
    tmp_path: Path, jobs: int
) -> None:
    """``gen > games.txt`` while it is checked: truncated, then written longer than before.
    It only grew, so it passed as appended to, and the report mixed old and new records
    without a word; its first bytes tell."""
    from renju_cli.batch import Batch

    f = tmp_path / "games.txt"
    f.write_bytes(b"h8 h9 i8 g8\n" * 8_000)  # (96 kB: cut in slices for --jobs 2)
    reports: list[GameReport] = []
    unbounded = ReadOptions(bytes_per_record=0)  # short records: not the bound by size here
    for _, report in Batch([str(f)], jobs=jobs, options=unbounded):
        if not reports:
            with open(f, "r+b") as out:
                out.truncate(0)
                out.write(b"a1 o15 a15 o1 b2\n" * 8_000)
        reports.append(report)
    assert reports[-1].unreadable
    assert "the file changed while it was read (96000 bytes when opened, 136000 at the " in (
        reports[-1].findings[0].message
    )
    # appended to: read as big as it was when opened, the growth said once at the end
    # (reading on held the batch for as long as the file grew)
    f.write_bytes(b"h8 h9 i8 g8\n" * 8_000)
    reports = []
    for _, report in Batch([str(f)], jobs=jobs, options=unbounded):
        if not reports:
            with open(f, "ab") as out:
                out.write(b"a1 o15\n" * 1000)
        reports.append(report)
    assert len(reports) == 8_001 and [r.unreadable for r in reports].count(True) == 1
    assert all(r.moves == 4 for r in reports[:-1])
    assert reports[-1].source.index == 8_000
    assert "the file grew while it was read (96000 bytes when opened, 103000 at the end)" in (
        reports[-1].findings[0].message
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_past_its_records_bound_that_changes_while_read_says_both(
    tmp_path: Path, jobs: int
) -> None:
    """The refusal past ``max_records``, then the change, with any ``--jobs``: with 2 the
    slicer stops at the bound, and must still look at the file (appended to, or truncated,
    while checked) for the change to be said."""
    from renju_cli.batch import Batch

    f = tmp_path / "games.txt"
    f.write_bytes(b"h8 h9 i8 g8\n" * 30_000)
    bounded = ReadOptions(max_records=8_000)
    reports: list[GameReport] = []
    for _, report in Batch([str(f)], jobs=jobs, options=bounded):
        if not reports:
            with open(f, "ab") as out:
                out.write(b"a1 o15\n" * 1000)
        reports.append(report)
    assert len(reports) == 8_002
    assert [r.source.index for r in reports[-2:]] == [8_000, 8_001]
    assert "more than 8000 records" in reports[-2].findings[0].message
    assert reports[-1].findings[0].message.startswith(inputs.GREW)
    assert not any(r.unreadable for r in reports[:-2])


def test_jobs_2_says_once_that_a_file_changed_while_it_was_cut(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With ``--jobs 2`` a slice past ``SLICE_DATA_BYTES`` is read by the worker from the file:
    a file replaced or deleted by then must not give one unreadable record per slice (a big
    file has thousands).  The first says it; the file's later slices are not reported, as the
    reader of the whole file stops there; and the slicer's own check ends it when it changed
    under it."""
    from renju_cli import batch

    monkeypatch.setattr(batch, "SLICE_DATA_BYTES", 0)  # every slice is read by place
    monkeypatch.setattr(batch, "SLICE_LINES", 10)
    monkeypatch.setattr(batch, "SMALL_FILE_BYTES", 0)  # every file is "big": cut in slices
    f = tmp_path / "games.txt"
    f.write_bytes(b"h8 h9 i8\n" * 2_000)
    replaced = False

    def judge_chunk(items: Any, settings: Any) -> Any:
        nonlocal replaced
        if not replaced:  # the file is replaced before the workers read their slices
            replaced = True
            (tmp_path / "new.txt").write_bytes(b"a1\n" * 10)
            os.replace(tmp_path / "new.txt", f)
        return real(items, settings)

    real = batch.judge_chunk
    monkeypatch.setattr(batch, "judge_chunk", judge_chunk)
    reports = [r for _, r in Batch([str(f)], jobs=2, chunk_records=4)]
    unreadable = [r for r in reports if r.unreadable]
    assert len(unreadable) == 1, [r.findings[0].message for r in unreadable]
    assert "the file changed while it was read" in unreadable[0].findings[0].message
    assert [r.source.index for r in reports] == list(range(len(reports)))


def test_a_named_pipe_with_jobs_is_opened_once(tmp_path: Path) -> None:
    # opened to look at it, closed, opened again, the writer's bytes would be lost, or the
    # second open would wait for ever
    import threading

    pipe = tmp_path / "games.txt"
    os.mkfifo(pipe)

    def write() -> None:
        with open(pipe, "wb") as w:
            w.write(b"h8 h9 i10\n" * 10_000)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    reports = list(api.check_paths([str(pipe)], jobs=2))
    writer.join(10)
    assert len(reports) == 10_000 and not reports[0].findings


def test_cutting_a_big_file_holds_none_of_it(tmp_path: Path) -> None:
    # the parent finds where records start, a bounded piece at a time; workers read the bytes
    import tracemalloc

    f = tmp_path / "big.txt"
    f.write_bytes(b"1. h8\n" + b"2. h9\n" * 100_000 + b"h8 " + b"x" * (8 << 20) + b"\n")
    tracemalloc.start()
    try:
        covered = sum(getattr(item, "length", 0) for item in Batch([str(f)], jobs=2)._items(True))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # a piece of at most max_string (1 MiB) and its decoded copies, not the 9 MB file
    assert peak < 6 << 20
    assert covered == f.stat().st_size  # the slices cover the file


def test_the_corpus_is_judged_the_same_in_parallel(capsys: pytest.CaptureFixture[str]) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is absent ({CORPUS})")
    # every format of the corpus, but of the big RenLib files only one (to stay fast)
    args = ("check", str(CORPUS), "-f", "jsonl", "--exclude", "Allrenjuopenings.lib")
    one = renju(capsys, *args)
    assert renju(capsys, *args, "-j", "2") == one
    assert len(one[1].splitlines()) > 500


# -- failures -------------------------------------------------------------------------------------
def internal_errors(out: str) -> list[tuple[str, int]]:
    return [
        (os.path.basename(r["source"]["path"]), r["source"]["index"])
        for r in map(json.loads, out.splitlines())
        if any(f["code"] == "internal-error" for f in r["findings"])
    ]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bug_in_one_record_is_a_finding_and_the_batch_goes_on(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: Path,
    jobs: str,
) -> None:
    clean = renju(capsys, "check", str(database), "-f", "jsonl")[1].splitlines()
    monkeypatch.setenv(FAULT_ENV, "raise:games.rif#40")
    code, out, _ = renju(capsys, "check", str(database), "-f", "jsonl", "-j", jobs)
    assert code == 3  # a bug: every record reported, exit 3
    assert internal_errors(out) == [("games.rif", 40)]
    lines = out.splitlines()
    assert [i for p, i in paths_of(out)] == list(range(150))
    assert lines[:40] == clean[:40] and lines[41:] == clean[41:]
    finding = json.loads(lines[40])["findings"][0]
    assert finding["severity"] == "error"
    assert "RuntimeError: fault injected" in finding["message"]


def test_a_worker_that_dies_loses_and_repeats_no_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, database: Path
) -> None:
    clean = renju(capsys, "check", str(database), "-f", "jsonl")[1].splitlines()
    monkeypatch.setenv(FAULT_ENV, "crash:games.rif#70")
    code, out, _ = renju(capsys, "check", str(database), "-f", "jsonl", "-j", "2")
    assert code == 3
    assert [i for _, i in paths_of(out)] == list(range(150))  # each record once, in order
    assert internal_errors(out) == [("games.rif", 70)]  # only the record that killed it
    lines = out.splitlines()
    assert lines[:70] == clean[:70] and lines[71:] == clean[71:]
    assert "worker judging this record stopped" in lines[70]


def test_a_run_that_lost_a_worker_exits(database: Path) -> None:
    # before Python 3.11.5, the broken pool's feeder thread could block the interpreter's exit
    # for ever (CPython gh-94777); in a process of its own, as a user's run is
    env = subprocess_env(**{FAULT_ENV: "crash:games.rif#3"})
    # the hang came with some runs only, and only on those Pythons
    for _ in range(3 if sys.version_info < (3, 11, 5) else 1):
        done = subprocess.run(
            [sys.executable, "-m", "renju_cli", "check", str(database), "-j", "2", "-f", "jsonl"],
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 3 and done.stdout.count(b"\n") == 150


def test_a_worker_that_dies_on_a_small_file_loses_no_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for n in range(40):
        (tmp_path / f"g{n:02d}.moves").write_text(FIVE + DOUBLE_THREE)
    clean = renju(capsys, "check", str(tmp_path), "-f", "jsonl")[1].splitlines()
    monkeypatch.setenv(FAULT_ENV, "crash:g17.moves#1")
    code, out, _ = renju(capsys, "check", str(tmp_path), "-f", "jsonl", "-j", "2")
    assert code == 3
    assert internal_errors(out) == [("g17.moves", 1)]
    lines = out.splitlines()
    assert len(lines) == 80
    assert lines[:35] == clean[:35] and lines[36:] == clean[36:]


def test_a_bug_in_a_reader_is_a_finding_and_the_next_file_is_read(
    monkeypatch: pytest.MonkeyPatch, games: Path
) -> None:
    from renju_cli.formats import notation

    real = notation.read

    def broken(stream: Any, path: str, options: Any) -> Iterator[Record]:
        if path.endswith("two.moves"):
            yield next(iter(real(stream, path, options)))
            raise ValueError("reader bug")
        yield from real(stream, path, options)

    monkeypatch.setattr(notation, "read", broken)
    named = list(inputs.expand_inputs([str(games / "a")]))
    reports = [r for _, r in Batch(named)]
    where = [(os.path.basename(r.source.path), r.source.index) for r in reports]
    assert where == [("clean.moves", 0), ("foul.moves", 0), ("two.moves", 0), ("two.moves", 1)]
    lost = reports[3]
    assert lost.unreadable and [f.code for f in lost.findings] == ["internal-error"]
    assert "ValueError: reader bug" in lost.findings[0].message


# -- filters, exit codes, summary -------------------------------------------------------------
def test_select_ignore_and_fail_on(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    target = str(games / "a")
    assert renju(capsys, "check", target)[0] == 1
    assert renju(capsys, "check", target, "--ignore", "forbidden-move")[0] == 0
    code, out, _ = renju(capsys, "check", target, "-f", "json", "--select", "move-after-end")
    assert code == 0
    assert json.loads(out)["summary"]["findings"] == {}
    code, out, _ = renju(
        capsys, "check", target, "-f", "json", "--select", "forbidden-move,move-after-end"
    )
    assert code == 1
    assert json.loads(out)["summary"]["findings"] == {"forbidden-move": 2}
    assert renju(capsys, "check", target, "--fail-on", "never")[0] == 0
    dup = ("--duplicates", "report", "--select", "duplicate")
    assert renju(capsys, "check", target, *dup)[0] == 0  # a duplicate is a warning
    assert renju(capsys, "check", target, *dup, "--fail-on", "warning")[0] == 1
    code, _, err = renju(capsys, "check", target, "--select", "forbidden-move,nonsense")
    assert code == 2 and "nonsense" in err


def test_the_summary_counts_everything(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    code, out, _ = renju(capsys, "check", str(games), "-f", "json", "--duplicates", "report")
    assert code == 1
    summary = json.loads(out)["summary"]
    assert summary == {
        "records": 5,
        "judged": 4,
        "unreadable": 1,
        "internal_errors": 0,
        "with_findings": 4,
        "findings": {"duplicate": 2, "forbidden-move": 2, "parse-error": 1},
        "severities": {"error": 3, "warning": 2},
        "results": {"black/five": 2, "undecided": 1, "white/forbidden": 2},
        "winners": {"black": 2, "undecided": 1, "white": 2},
        "openings": {"I6": 2},
        "files": 4,
        "duplicates": 2,
        "skipped": 0,
    }
    _, text, _ = renju(capsys, "check", str(games), "--duplicates", "skip")
    tail = text.splitlines()[-7:]
    assert tail == [
        "3 record(s): 2 judged, 1 unreadable, 2 with findings",
        "findings: forbidden-move 1, parse-error 1",
        "severities: error 2",
        "results: black/five 1, undecided 1, white/forbidden 1",
        "winners: black 1, undecided 1, white 1",
        "openings: I6 1",
        "duplicates: 2, 2 skipped",
    ]


# -- the output file ------------------------------------------------------------------------------
def test_output_is_written_atomically_over_an_old_report(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out" / "report.json"
    target.parent.mkdir()
    target.write_text("old")
    target.chmod(0o640)
    code, out, _ = renju(capsys, "check", str(games / "a"), "-f", "json", "-o", str(target))
    assert code == 1 and out == ""
    assert json.loads(target.read_text())["summary"]["records"] == 4
    assert target.stat().st_mode & 0o777 == 0o640
    assert os.listdir(target.parent) == ["report.json"]


def test_output_through_a_link_or_to_a_pipe_keeps_what_is_there(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    real = tmp_path / "reports" / "latest.jsonl"
    real.parent.mkdir()
    link = tmp_path / "latest.jsonl"
    link.symlink_to(real)
    renju(capsys, "check", str(games / "a"), "-f", "jsonl", "-o", str(link))
    assert link.is_symlink() and len(real.read_text().splitlines()) == 4
    # a named pipe is written in place, not renamed over
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    renju(capsys, "check", str(games / "a"), "-f", "jsonl", "-o", str(fifo))
    got, _ = reader.communicate(timeout=30)
    assert len(got.splitlines()) == 4
    assert fifo.is_fifo()


def test_an_unwritable_output_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    target = tmp_path / "missing-dir" / "report.json"
    code, out, err = renju(capsys, "check", str(games / "a"), "-o", str(target))
    assert code == 2 and out == ""
    assert err == f"renju: cannot write {target}: No such file or directory\n"


def _small_file_limit() -> None:
    # the file size limit stands in for a full disk: a write past it fails (EFBIG)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_full_disk_leaves_no_partial_file(database: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("the old report\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "renju_cli",
            "check",
            str(database),
            "-f",
            "json",
            "-o",
            str(target),
        ],
        capture_output=True,
        text=True,
        preexec_fn=_small_file_limit,
        env=subprocess_env(),
    )
    assert proc.returncode == 2
    assert proc.stderr == f"renju: cannot write {target}: File too large\n"
    assert target.read_text() == "the old report\n"  # untouched
    assert os.listdir(tmp_path) == ["report.json"]  # no temporary file left


# -- terminals, pipes and signals -----------------------------------------------------------------
def _run_with_stderr_on_a_terminal(args: list[str]) -> tuple[int, bytes]:
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "renju_cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=subprocess_env(),
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        seen += data
    os.close(master)
    return proc.wait(), seen


def test_a_progress_bar_on_a_terminal_only(database: Path) -> None:
    code, seen = _run_with_stderr_on_a_terminal(["check", str(database), "-f", "jsonl"])
    assert code == 1
    last = seen.decode().split("\r")[-2]
    assert "checking" in last and "100%" in last and "150 records" in last
    assert "records/s" in last
    code, seen = _run_with_stderr_on_a_terminal(["check", str(EXAMPLES), "--no-progress"])
    assert code == 1 and b"checking" not in seen


def test_no_progress_bar_when_standard_error_is_no_terminal(
    capsys: pytest.CaptureFixture[str], database: Path
) -> None:
    assert not sys.stderr.isatty()
    code, out, err = renju(capsys, "check", str(database), "-f", "jsonl")
    assert code == 1 and out and err == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_pipe_ends_quietly(database: Path, jobs: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "renju_cli", "check", str(database), "-f", "jsonl", "-j", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline())["source"]["index"] == 0
    proc.stdout.close()  # as `head -1` does
    err = proc.stderr.read()
    assert proc.wait() == 0
    assert err == b""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_without_a_traceback(database: Path, jobs: str) -> None:
    big = [str(database)] * 20  # long enough to be interrupted
    proc = subprocess.Popen(
        [sys.executable, "-m", "renju_cli", "check", *big, "-f", "jsonl", "-j", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
        start_new_session=True,  # its own process group, as a shell job: ^C reaches workers too
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode().strip() == "renju: interrupted"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _report() -> GameReport:
    return api.judge_record(inputs.read_bytes(DOUBLE_THREE.encode()).__next__())


@pytest.mark.parametrize(
    ("no_color", "colored"), [(None, True), ("1", False), ("", True)], ids=["unset", "1", "empty"]
)
def test_no_color_is_respected(
    monkeypatch: pytest.MonkeyPatch, no_color: str | None, colored: bool
) -> None:
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    out = _Terminal()
    TextRenderer(out).record(_report())
    assert ("\033[31m" in out.getvalue()) is colored
    piped = io.StringIO()
    TextRenderer(piped).record(_report())
    assert "\033[" not in piped.getvalue()  # never on a pipe


# -- --html ---------------------------------------------------------------------------------------
def test_html_report_of_the_batch(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    pytest.importorskip("jinja2", reason="the HTML report needs Jinja2")
    site = tmp_path / "site"
    code, _, _ = renju(
        capsys, "check", str(games / "a"), "--html", str(site), "--html-boards", "all", "-j", "2"
    )
    assert code == 1
    assert (site / "index.html").is_file()
    assert len(list(site.glob("record-*.html"))) == 4


def test_a_pool_run_ends_without_noise_on_stderr(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    database: Path,
) -> None:
    # the pool is shut down and waited for at the normal end: left running while the
    # interpreter exited, it printed "Exception ignored ... Bad file descriptor" now and then
    # (3 runs in 6 on 20,000 games, a race).  The wait is what is proved, every time; one run
    # of the command then ends with nothing on standard error.
    import concurrent.futures as cf

    waits: list[bool] = []
    shutdown = cf.ProcessPoolExecutor.shutdown

    def spied(self: cf.ProcessPoolExecutor, wait: bool = True, **kwargs: Any) -> None:
        waits.append(wait)
        shutdown(self, wait, **kwargs)

    big = tmp_path / "big.txt"
    big.write_text((FIVE + DOUBLE_THREE) * 1000)  # sliced between the two workers
    args = ["check", str(big), str(database), "-j", "2", "-f", "jsonl"]
    with monkeypatch.context() as patched:
        patched.setattr(cf.ProcessPoolExecutor, "shutdown", spied)
        code, _, err = renju(capsys, *args, "-o", str(tmp_path / "in-process.jsonl"))
    assert code == 1 and err == ""  # (1: the double-threes)
    assert waits and all(waits)
    done = subprocess.run(
        [sys.executable, "-m", "renju_cli", *args, "-o", str(tmp_path / "out.jsonl")],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == ""


def test_tiny_records_are_judged_by_the_parent_and_the_output_is_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from renju_cli.batch import SEND_MOVES, _worth_sending
    from renju_cli.formats import ReadOptions
    from renju_cli.formats.notation import parse_record

    tiny = parse_record("h8 h9")
    game = parse_record(FIVE.split(" ", 1)[1] * 2)
    assert len(game.moves) >= SEND_MOVES
    assert not _worth_sending([tiny] * 32)  # pickling them costs more than judging them
    assert _worth_sending([game] * 32)
    assert _worth_sending([FileTask("x.txt")])  # a worker reads it: nothing is pickled
    opts = ReadOptions()
    assert not _worth_sending([TextSlice("t", "notation", opts, 0, len(b"a1\n") * 64, 1, 64)])
    line = (" ".join(["h8"] * 20) + "\n").encode()  # 20 moves a record
    assert _worth_sending([TextSlice("t", "notation", opts, 0, len(line) * 64, 1, 64)])
    # a file of tiny records and real games mixed: the same report with --jobs 2
    big = tmp_path / "mixed.txt"
    big.write_text(("a1\nb2 c3\n" * 200 + FIVE + DOUBLE_THREE) * 30)
    outs = []
    for jobs in ("1", "2"):
        # (12,060 records in 57 KB: past the bound by size, which is not what is tested)
        args = ("check", str(big), "-j", jobs, "-f", "jsonl", "--limit", "records=16M")
        code, out, err = renju(capsys, *args)
        assert code == 1 and err == ""
        outs.append(out)
    assert outs[0] == outs[1] and outs[0].count("\n") == 30 * 402


def test_text_names_the_line_of_a_finding_in_a_record_of_many_lines(tmp_path: Path) -> None:
    # an SGF game over several lines: the bad move is on line 3, the record starts on line 1
    game = tmp_path / "game.sgf"
    game.write_text("(;GM[4]SZ[15]\n;B[hh]\n;W[zz]\n;B[ii])\n(;B[hh])\n")
    out = io.StringIO()
    renderer = TextRenderer(out, color=False)
    for report in api.check_paths([str(game)]):
        renderer.record(report)
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("renju: 1 move, undecided on the board")  # one move, not "moves"
    assert lines[1].startswith("  error parse-error at line 3: coordinate [zz]")
    assert lines[2].endswith("renju: 1 move, undecided on the board") and len(lines) == 3


def test_text_never_carries_control_characters_of_a_file(tmp_path: Path) -> None:
    # a newline in a file name or an attribute, an escape sequence in a record: one record is
    # one line of text, and a file cannot drive the terminal that shows its report
    (tmp_path / "e\nfake.txt:1 [0] renju: 0 moves, black wins").write_text("h8 h9\n")
    (tmp_path / "f.rif").write_text(
        '<?xml version="1.0"?><database><games><game id="1&#10;x"><move>h8 zz</move></game>'
        "</games></database>"
    )
    (tmp_path / "g.txt").write_text("h8 \x1b[31mRED\n")
    out = io.StringIO()
    renderer = TextRenderer(out, color=False)
    for report in api.check_paths([str(tmp_path)]):
        renderer.record(report)
    text = out.getvalue()
    assert "\x1b" not in text and "\\nfake.txt" in text and "id=1\\nx" in text
    assert len(text.splitlines()) == 5  # three records, two of them with one finding


def test_usage_errors_never_carry_control_characters_of_a_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = renju(capsys, "check", "no\x1b]0;pwned\x07such")
    assert code == 2 and "\x1b" not in err and "\\x1b]0" in err


@pytest.mark.parametrize(
    ("suffix", "line"), [(".txt", "h8 h9\n"), (".jsonl", '{"moves": "h8 h9"}\n')]
)
def test_records_past_max_records_are_refused_alike_with_jobs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, suffix: str, line: str
) -> None:
    # the reader of the whole file stops at the record one too many and says so; cut into
    # slices, the parent counts a file's records across them and stops at the same place
    from renju_cli import batch
    from renju_cli.formats import ReadOptions

    monkeypatch.setattr(batch, "SLICE_LINES", 3)
    monkeypatch.setattr(batch, "SMALL_FILE_BYTES", 0)
    f = tmp_path / f"games{suffix}"
    f.write_text(line * 20)
    runs = []
    for jobs in (1, 2):
        reports = [r for _, r in Batch([str(f)], jobs=jobs, options=ReadOptions(max_records=5))]
        runs.append(
            [(r.source.index, r.source.line, r.unreadable, str(r.findings)) for r in reports]
        )
    assert runs[0] == runs[1] and len(runs[0]) == 6
    assert runs[0][5][:3] == (5, 6, True) and "more than 5 records" in runs[0][5][3]


def test_a_file_given_twice_is_numbered_from_0_each_time_with_jobs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from renju_cli import batch

    monkeypatch.setattr(batch, "SLICE_LINES", 3)
    monkeypatch.setattr(batch, "SMALL_FILE_BYTES", 0)
    f = tmp_path / "games.txt"
    f.write_text("h8 h9\n" * 10)
    reports = [r for _, r in Batch([str(f), str(f)], jobs=2)]
    assert [r.source.index for r in reports] == list(range(10)) * 2


def test_a_file_emptied_while_it_is_read_is_one_record(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Emptied after it was opened, before it was read: one record says that the file
    changed while it was read ("no record found" as well would be two records of one
    path)."""
    from renju_cli import formats
    from renju_cli.inputs import read_path

    f = tmp_path / "games.txt"
    f.write_bytes(b"h8 h9 i9\nh8 h9\n")
    read_stream = formats.read_stream

    def emptied(*args: Any, **kwargs: Any) -> Any:
        os.truncate(f, 0)
        return read_stream(*args, **kwargs)

    monkeypatch.setattr(formats, "read_stream", emptied)
    [record] = list(read_path(str(f)))
    assert record.unreadable and "changed while it was read (15 bytes when opened, 0 at" in (
        record.problems[0].message
    )
    # a file that holds nothing to check, left alone, is still that one record
    monkeypatch.setattr(formats, "read_stream", read_stream)
    f.write_bytes(b"\n\n")
    [record] = list(read_path(str(f)))
    assert record.unreadable and formats.found_nothing(record)


def test_a_directory_reached_twice_is_read_once_and_blamed_for_nothing(tmp_path: Path) -> None:
    """``latest -> 2024`` beside ``2024``: the real directory, reached second, is no
    unreadable record (which would exit 1 on clean records).  It is read once, under the
    first path; only a loop (a link to a directory that contains it) is said.

        games/2024/a.txt  games/latest -> 2024  games/2024/up -> ..
    """
    from renju_cli.inputs import InputError, expand_inputs

    games = tmp_path / "games"
    (games / "2024").mkdir(parents=True)
    (games / "2024" / "a.txt").write_text("h8 h9\n")
    (games / "latest").symlink_to("2024")
    found = list(expand_inputs([str(games)]))
    assert found == [str(games / "2024" / "a.txt")]
    (games / "2024" / "up").symlink_to("..")
    found = list(expand_inputs([str(games)]))
    assert found[0] == str(games / "2024" / "a.txt")
    [loop] = found[1:]
    assert isinstance(loop, InputError) and loop.path == str(games / "2024" / "up")
    assert "(a loop)" in loop.message


def test_a_chunk_of_slices_counts_their_lines(tmp_path: Path) -> None:
    # A slice of a big move-list file holds 64 lines or more: 32 slices to a chunk would make
    # results of thousands of reports, unpickled at once in the parent.  A chunk closes once
    # its slices hold ``chunk_records`` lines: here one slice each.
    from renju_cli import batch
    from renju_cli.tasks import TextSlice

    f = tmp_path / "big.txt"
    f.write_text("h8 h9 i8 i9 j8 j9 k8 k9 l8\n" * 20_000)  # 540 kB: cut into slices
    run = Batch([str(f)], jobs=2)
    chunks = list(run._chunks(by_name=True))
    assert len(chunks) > 1
    slices = [item for c in chunks for item in c.items if isinstance(item, TextSlice)]
    assert len(slices) == len(chunks)  # (each slice alone reaches 32 lines)
    assert sum(s.lines for s in slices) == 20_000
    assert batch.CHUNK_RECORDS < batch.SLICE_LINES
