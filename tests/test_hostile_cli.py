"""Clean failure modes of ``renju check``: a closed pipe, Ctrl-C and a full disk.

Each ends with at most one line on standard error, no traceback and the documented exit code
(2 for an output that cannot be written, 130 for an interrupt), and a report file is never left
looking complete: it is written to a temporary file and renamed only when whole.  The runs are
real subprocesses on a large input (those about what a path or a record prints run in this
process); nothing here is timed.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import run_cli as renju

RENJU = [sys.executable, "-m", "renju_cli"]


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Some thousands of games in standard notation (long enough to be caught mid-run)."""
    rnd = random.Random(1)
    points = [f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)]
    lines = [" ".join(rnd.sample(points, 40)) for _ in range(6000)]
    path = tmp_path_factory.mktemp("big") / "games.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def assert_clean_failure(stderr: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) <= 1, stderr


def leftovers(directory: Path, keep: set[str]) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name not in keep)


def test_a_closed_pipe_ends_quietly(big: Path) -> None:
    # renju check big | head -1
    proc = subprocess.Popen(
        [*RENJU, "check", str(big), "--format", "jsonl"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # head exits
    stderr = proc.stderr.read().decode()
    code = proc.wait(timeout=600)
    assert first.startswith(b"{")
    assert code in (0, 1), stderr  # not 3 (internal error), not killed by SIGPIPE
    assert_clean_failure(stderr)


def test_a_shell_pipeline_to_head(big: Path) -> None:
    renju = f"{sys.executable} -m renju_cli"
    cmd = f"{renju} check '{big}' --format jsonl | head -1; exit ${{PIPESTATUS[0]}}"
    run = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=600)
    assert len(run.stdout.splitlines()) == 1
    assert run.returncode in (0, 1)
    assert_clean_failure(run.stderr)


@pytest.mark.parametrize("to_file", [False, True])
def test_ctrl_c_exits_130_and_leaves_no_partial_report(
    big: Path, tmp_path: Path, to_file: bool
) -> None:
    report = tmp_path / "report.json"
    report.write_text("the previous report\n")
    args = [*RENJU, "check", str(big), "--format", "json"]
    if to_file:
        # --progress-like output would go to stderr only on a terminal; here we wait for the
        # first bytes of the temporary report instead
        args += ["-o", str(report)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    if to_file:
        _wait_for_temporary(tmp_path, {"report.json"}, proc)
    else:
        assert proc.stdout.read(1) == b"{"  # it is running and writing
    proc.send_signal(signal.SIGINT)
    stderr = proc.stderr.read().decode()
    code = proc.wait(timeout=600)
    assert code == 130, stderr
    assert_clean_failure(stderr)
    assert "interrupt" in stderr.lower()
    assert report.read_text() == "the previous report\n"
    assert leftovers(tmp_path, {"report.json"}) == []


def _wait_for_temporary(directory: Path, keep: set[str], proc: subprocess.Popen[bytes]) -> None:
    # the report's temporary file appears once the run has started writing
    while not leftovers(directory, keep):
        assert proc.poll() is None, "finished before it could be interrupted"
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.05)


@contextlib.contextmanager
def tiny_tmpfs(where: Path) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(
            f"cannot mount a 16 kB tmpfs here (needs root): {mounted.stderr.decode().strip()}"
        )
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


def test_a_full_disk_on_output_is_a_one_line_error(big: Path, tmp_path: Path) -> None:
    with tiny_tmpfs(tmp_path / "disk") as disk:
        (disk / "report.json").write_text("old\n")
        run = subprocess.run(
            [*RENJU, "check", str(big), "--format", "json", "-o", str(disk / "report.json")],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert run.returncode == 2
        assert_clean_failure(run.stderr)
        assert "No space left on device" in run.stderr
        assert (disk / "report.json").read_text() == "old\n"  # never a partial report
        assert leftovers(disk, {"report.json"}) == []


def run_onto_a_device(
    tmp_path: Path, name: str, minor: int, command: list[str]
) -> subprocess.CompletedProcess[str]:
    """``renju COMMAND g.txt ... -o DEVICE`` onto a private character device (``mem`` minor
    3 is /dev/null, 7 /dev/full: the real ones are never put at risk), which must still be a
    device afterwards: a device is written in place, never renamed over."""
    device = tmp_path / name
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except OSError as e:
        pytest.skip(f"cannot make a device node here (needs root): {e}")
    game = tmp_path / "g.txt"
    game.write_text("h8 h9 i8\n")
    run = subprocess.run(
        [*RENJU, command[0], str(game), *command[1:], "-o", str(device)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    still_a_device = stat.S_ISCHR(device.lstat().st_mode)
    if not still_a_device:
        device.unlink()
    assert still_a_device, "the device node was replaced by a regular file"
    return run


def test_a_device_that_is_always_full(tmp_path: Path) -> None:
    run = run_onto_a_device(tmp_path, "full", 7, ["check", "--format", "json"])
    assert run.returncode == 2
    assert_clean_failure(run.stderr)
    assert "No space left on device" in run.stderr
    assert leftovers(tmp_path, {"full", "g.txt"}) == []


#: Text with lone surrogates, which no UTF-8 stream takes: a JSON escape, an SGF whose charset
#: is UTF-7 ("+2AA-" decodes to U+D800).  Both once ended the run with exit code 3.
SURROGATES = {
    "games.jsonl": '{"moves":"h8","metadata":{"x":"\\ud800"}}\n'
    '{"moves":"h8 h9","result":"\\udc00"}\n{"moves":"i9"}\n',
    "game.sgf": "(;GM[4]CA[UTF-7]SZ[15]PB[+2AA-];B[hh])",
}


@pytest.mark.parametrize("fmt", ["jsonl", "json", "text", "github", "junit"])
def test_lone_surrogates_in_a_record_are_written_not_fatal(tmp_path: Path, fmt: str) -> None:
    for name, text in SURROGATES.items():
        (tmp_path / name).write_text(text)
    run = subprocess.run(
        [*RENJU, "check", str(tmp_path), "--format", fmt], capture_output=True, check=False
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout.decode("utf-8")  # well-formed UTF-8
    if fmt == "jsonl":
        reports = [json.loads(line) for line in out.splitlines()]
        assert len(reports) == 4  # three JSON Lines records and the SGF game
        # escaped in the JSON, so the value read back is the very one of the record
        assert reports[1]["metadata"] == {"x": "\ud800"}
        assert reports[0]["metadata"]["black"] == "\ud800"


def test_standard_output_replaces_what_utf8_cannot_encode() -> None:
    # the safety net under every renderer: a character no UTF-8 stream takes becomes "?"
    code = "import sys, renju_cli.cli.entry as c; c._tolerant_stdout(); print('a\\ud800b')"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert run.returncode == 0 and run.stdout == b"a?b\n"


@pytest.mark.parametrize(
    "command",
    [["diff", "-r", "renju", "-r", "freestyle"], ["convert", "--to", "jsonl"]],
    ids=["diff", "convert"],
)
def test_diff_and_convert_write_a_device_in_place(tmp_path: Path, command: list[str]) -> None:
    # they wrote through click's atomic file, which renamed a regular file over the device
    run = run_onto_a_device(tmp_path, "null", 3, command)
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "command",
    [["diff", "-r", "renju", "-r", "freestyle"], ["convert", "--to", "jsonl"]],
    ids=["diff", "convert"],
)
def test_an_interrupted_diff_or_convert_leaves_the_output_as_it_was(
    big: Path, tmp_path: Path, command: list[str]
) -> None:
    # click's atomic file renamed the partial report over the old one even when interrupted
    target = tmp_path / "out.txt"
    target.write_text("ORIGINAL\n")
    proc = subprocess.Popen(
        [*RENJU, command[0], str(big), str(big), str(big), *command[1:], "-o", str(target)],
        stderr=subprocess.PIPE,
    )
    _wait_for_temporary(tmp_path, {"out.txt"}, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 130, err
    assert target.read_text() == "ORIGINAL\n"
    assert leftovers(tmp_path, {"out.txt"}) == []


@pytest.mark.parametrize(
    "command", [["check"], ["diff", "-r", "renju", "-r", "freestyle"], ["convert"]]
)
def test_standard_output_or_error_closed(tmp_path: Path, command: list[str]) -> None:
    game = tmp_path / "g.txt"
    game.write_text("h8 h9 i8\n")
    args = [*RENJU, command[0], str(game), *command[1:]]
    # standard output closed: the report cannot be written, exit code 2 and one line
    run = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False,
                         text=True, pass_fds=(), preexec_fn=lambda: os.close(1))  # fmt: skip
    assert run.returncode == 2 and "cannot write standard output" in run.stderr
    assert_clean_failure(run.stderr)
    # standard error closed: the run goes on (messages go nowhere), the report is whole
    quiet = subprocess.run(args, stdout=subprocess.PIPE, check=False,
                           preexec_fn=lambda: os.close(2))  # fmt: skip
    assert quiet.returncode in (0, 1) and quiet.stdout


def test_the_commands_write_standard_output_only_through_cli_output() -> None:
    # what makes one command a way of writing stand for all that write that way below:
    # every click.echo of the commands goes to standard error, nothing prints
    import ast

    cli = Path(__file__).resolve().parents[1] / "renju_cli" / "cli"
    direct = []
    for path in sorted(cli.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            to_err = any(k.arg == "err" and getattr(k.value, "value", None) is True
                         for k in node.keywords)  # fmt: skip
            if name in ("print", "sys.stdout.write") or (name == "click.echo" and not to_err):
                direct.append(f"{path.name}:{node.lineno}: {name}")
    assert direct == []


@pytest.mark.parametrize(
    "command",
    [
        ["show", "-"],  # output.echo: show in every format, forbidden, rules
        ["show", "-", "--svg", "-"],  # output.written: pictures and reports
        ["--help"],  # Click's own (a command's --help is printed by the same callback)
        ["--version"],
    ],
)
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_every_way_of_writing_says_when_standard_output_cannot_be_written(
    command: list[str],
) -> None:
    # show, forbidden, rules and Click's own help and version printed through click.echo,
    # which made a full disk an internal error (exit 3) and a closed output a silent exit 0
    game = b"h8 h9 i8\n"
    with open("/dev/full", "wb") as full:
        run = subprocess.run([*RENJU, *command], input=game, stdout=full, stderr=subprocess.PIPE,
                             check=False)  # fmt: skip
    err = run.stderr.decode()
    assert run.returncode == 2 and "cannot write standard output: No space left" in err, err
    assert_clean_failure(err)
    # (Click's echo writes nothing at all when standard output is closed: said for the help
    # and the version too)
    closed = subprocess.run([*RENJU, *command], input=game, stderr=subprocess.PIPE, check=False,
                            preexec_fn=lambda: os.close(1))  # fmt: skip
    assert closed.returncode == 2 and b"cannot write standard output" in closed.stderr


@pytest.mark.parametrize(
    "command",
    # one a way of writing: through ``output.echo``, a picture, a YAML text
    [["show", "-"], ["show", "-", "--svg", "-"], ["rules", "show", "renju", "--yaml"]],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(command: list[str]) -> None:
    game = b"h8 h9 i8\n"
    proc = subprocess.Popen([*RENJU, *command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdout.close()
    _, err_bytes = proc.communicate(game, timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err_bytes


def test_a_newline_in_a_path_starts_no_line_of_its_own_on_standard_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # a forged GitHub workflow command: the runner reads standard error too
    code, _, err = renju(capsys, "check", str(tmp_path / "x\n::error::INJECTED"))
    assert code == 2
    assert not any(line.startswith("::") for line in err.splitlines())
    assert "x\\n::error::INJECTED" in err


def test_diff_text_escapes_what_a_record_says(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = (
        '{"moves":"f8 a1 g8 a3 h9 a5 h10 a7 h8","result":{"winner":"black",'
        '"reason":"resign\\n::error file=x::INJECTED\\u001b[2J"}}\n'
    )
    (tmp_path / "inj.jsonl").write_text(record)
    code, out, _ = renju(
        capsys, "diff", str(tmp_path / "inj.jsonl"), "-r", "renju", "-r", "freestyle"
    )
    assert code == 1
    assert "\x1b" not in out
    assert not any(line.startswith("::") for line in out.splitlines())
    assert "resign\\n::error file=x::INJECTED\\x1b[2J" in out


def test_a_long_output_name_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the temporary file's name (".NAME.random.tmp") passed the 255-byte limit
    game = tmp_path / "g.txt"
    game.write_text("h8 h9 i8\n")
    target = tmp_path / ("a" * 250 + ".txt")
    code, _, _ = renju(capsys, "check", str(game), "-o", str(target))
    assert code == 0 and target.read_text().startswith(str(game))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_end_the_run_as_ctrl_c_does(
    big: Path, tmp_path: Path, signum: int
) -> None:
    """``kill`` (a CI job cancelled) or a closed terminal ended the process on the spot: the
    temporary report stayed beside the output and the workers of --jobs 2 ran for ever."""
    target = tmp_path / "out.txt"
    target.write_text("ORIGINAL\n")
    proc = subprocess.Popen(
        [*RENJU, "check", str(big), str(big), "-j", "2", "-o", str(target)],
        stderr=subprocess.PIPE,
        # as from a terminal: under nohup SIGHUP is ignored, and the tool keeps an ignored
        # signal ignored (a CI run started with nohup failed this test)
        preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL),
    )
    _wait_for_temporary(tmp_path, {"out.txt"}, proc)
    workers = subprocess.run(
        ["pgrep", "-P", str(proc.pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 128 + signum, err
    assert err.decode().strip() == f"renju: terminated ({signal.Signals(signum).name})"
    assert target.read_text() == "ORIGINAL\n"
    assert leftovers(tmp_path, {"out.txt"}) == []
    for _ in range(100):  # the workers end with the parent
        if not any(os.path.exists(f"/proc/{pid}") and not _zombie(pid) for pid in workers):
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"workers {workers} outlived the run")


def _zombie(pid: str) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True


def test_ctrl_c_while_the_command_line_is_imported() -> None:
    # the first tenth of a second: a Ctrl-C there printed Python's traceback
    code = (
        "import builtins, sys\n"
        "real = builtins.__import__\n"
        "def imp(name, *a, **k):\n"
        "    if name == 'renju_cli.cli':\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = imp\n"
        "from renju_cli.__main__ import run\n"
        "sys.argv = ['renju', 'check', '-']\n"
        "run()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 130 and run.stderr == "renju: interrupted\n"


@pytest.mark.parametrize("command", [["check", "--progress"], ["convert", "--to", "jsonl"]])
@pytest.mark.parametrize("stderr", ["closed pipe", "full"])
def test_a_failing_standard_error_loses_messages_not_the_report(
    tmp_path: Path, command: list[str], stderr: str
) -> None:
    """Standard error a pipe whose reader is gone, or /dev/full: the progress bar's write
    failed, was taken for standard output's closed pipe, and the run ended with exit 0 and no
    report written (``--progress -o r.txt``)."""
    if stderr == "full" and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full (Linux)")
    games = tmp_path / "g.txt"
    games.write_text("h8 h9 i8\nzz\n")  # a record with a parse error: exit code 1
    report = tmp_path / "report.out"
    read_end, write_end = os.pipe()
    os.close(read_end)
    target = open(os.devnull if stderr != "full" else "/dev/full", "w")  # noqa: SIM115
    try:
        run = subprocess.run(
            [*RENJU, command[0], str(games), *command[1:], "-o", str(report)],
            stdout=subprocess.PIPE, stderr=write_end if stderr != "full" else target,
            check=False, timeout=300,
        )  # fmt: skip
    finally:
        os.close(write_end)
        target.close()
    # (convert: the record read in part is not converted, which is said and exits 1 too)
    assert run.returncode == 1
    assert report.exists() and report.read_text()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_convert_to_psq_leaves_no_temporary_file(
    tmp_path: Path, signum: int
) -> None:
    """``convert --to psq -o DIR`` writes a file per record, each through a temporary file: a
    signal between a temporary file's creation and the code that removes it on failure left it
    in the directory.  Interrupted at random moments, none is ever left."""
    tiny = tmp_path / "tiny.txt"  # a file a record: files come fast, the window is often hit
    tiny.write_text("h8 h9\n" * 20_000)
    rnd = random.Random(signum)
    for attempt in range(3):
        out = tmp_path / f"psq-{attempt}"
        proc = subprocess.Popen(
            [*RENJU, "convert", str(tiny), "--to", "psq", "-o", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        while not (out.exists() and any(out.iterdir())):
            assert proc.poll() is None, "finished before it could be interrupted"
            time.sleep(0.01)
        time.sleep(rnd.uniform(0, 0.1))  # (a file is written every fraction of a millisecond)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 128 + signum, err
        assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_temporaries_of_outputs_cut_short_are_removed_at_a_signals_exit(tmp_path: Path) -> None:
    # a signal's exception raised in the machinery of a ``with`` (between its exit and the
    # generator it resumes) leaves the output's generator suspended, its clean-up not run, and
    # SIGTERM's exit (os._exit) collects nothing: a temporary file stayed
    from renju_cli.cli.output import _TEMPORARIES, remove_temporaries, report_output

    target = tmp_path / "out.txt"
    cut_short = report_output(str(target))
    out = cut_short.__enter__()  # never exited, as the signal left it
    out.write("half a report")
    [tmp] = [Path(t) for t in _TEMPORARIES if Path(t).parent == tmp_path]
    assert tmp.exists()
    remove_temporaries()
    assert not tmp.exists() and not target.exists() and not _TEMPORARIES
    # a finished output leaves nothing to remove
    with report_output(str(target)) as whole:
        whole.write("a report\n")
    assert target.read_text() == "a report\n" and not _TEMPORARIES
