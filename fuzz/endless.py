#!/usr/bin/env python3
"""Endless input: does ``renju check`` stay in bounded memory on a stream that never ends?

Each probe is a format, a head and a unit repeated for ever, written into a named pipe (or
standard input) that ``renju check --input-format FMT`` reads; after ``--seconds`` the run is
interrupted (SIGINT, as Ctrl-C) unless it ended by itself (a reader that reads a whole file
refuses past ``ReadOptions.max_file``).  The peak memory of that process alone (``os.wait4``)
must stay under ``--mb``::

    python fuzz/endless.py                    # every probe, 5 s each
    python fuzz/endless.py --seconds 10 notation-continued stdin-notation

A line per probe (JSON): seconds, peak MB, whether it ended by itself, its exit code.  Exit code
1 when a probe goes past the memory bound or the tool fails (exit code 3 or a traceback).  Run
it from a small process (a shell, not a test runner that loaded much): on Linux, a child's peak
memory counts the peak of the process that started it (the high-water mark survives exec).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

RENLIB_HEAD = b"\xffRenLib\xff\x03\x00" + b"\xff" * 10

#: name -> (format, head, unit repeated for ever, through standard input instead of a pipe)
PROBES: dict[str, tuple[str, bytes, bytes, bool]] = {
    "notation-no-line-end": ("notation", b"h8 ", b"\x00", False),
    "notation-records": ("notation", b"", b"h8 h9\n", False),
    "notation-continued": ("notation", b"1. h8\n", b"2. h9\n", False),
    "sgf-one-tree": ("sgf", b"(;", b"B[hh];", False),
    "psq-moves": ("psq", b"Piskvorky 15x15, 11:11, 0\n", b"8,8,0\n", False),
    "gomocup-lines": ("gomocup-openings", b"", b"0,0\n", False),
    "playok-tags": ("playok", b"", b'[Site "PlayOK"]\n', False),
    "playok-movetext": ("playok", b'[Site "PlayOK"]\n\n', b"1. h8 h9 ", False),
    "playok-comment": ("playok", b'[Site "PlayOK"]\n\n1. h8 {', b"comment ", False),
    "jsonl-records": ("jsonl", b"", b'{"moves":"h8 h9"}\n', False),
    "jsonl-string": ("jsonl", b'{"moves":"h8","x":"', b"a", False),
    "renjunet-games": ("renjunet", b"<database><games>", b"<game><move>h8</move></game>", False),
    "renjunet-attribute": ("renjunet", b'<database><games><game id="', b"x", False),
    "renjunet-text": ("renjunet", b"<database><games><game><move>h8", b" ", False),
    "renlib-siblings": ("renlib", RENLIB_HEAD + b"\x78\x00", b"\x79\xc0", False),
    "diagram-row": ("diagram", b"", b"X", False),
    "stdin-notation": ("notation", b"", b"h8 h9\n", True),
    "stdin-sgf": ("sgf", b"(;", b"B[hh];", True),
}


def _feed(out: IO[bytes], head: bytes, unit: bytes, stop: threading.Event) -> None:
    block = unit * max(1, 65536 // len(unit))
    try:
        out.write(head)
        while not stop.is_set():
            out.write(block)
    except (BrokenPipeError, OSError, ValueError):
        pass  # the reader stopped: it refused the stream, or was interrupted
    finally:
        with contextlib.suppress(OSError):
            out.close()


def _feed_pipe(pipe: Path, head: bytes, unit: bytes, stop: threading.Event) -> None:
    with open(pipe, "wb") as out:  # waits for the reader to open it
        _feed(out, head, unit, stop)


#: Seconds a probe has to end after its Ctrl-C before it is killed.
GRACE = 20.0


def _wait(pid: int, seconds: float) -> tuple[int, int, os.struct_rusage]:
    """``os.wait4`` of ``pid`` for at most ``seconds`` (pid 0: still running)."""
    deadline = time.perf_counter() + seconds
    found = os.wait4(pid, os.WNOHANG)
    while found[0] == 0 and time.perf_counter() < deadline:
        time.sleep(0.05)
        found = os.wait4(pid, os.WNOHANG)
    return found


def run(name: str, seconds: float, directory: Path) -> dict[str, object]:
    fmt, head, unit, via_stdin = PROBES[name]
    cmd = [sys.executable, "-m", "renju_cli", "check", "--input-format", fmt, "-f", "jsonl"]
    stop = threading.Event()
    t0 = time.perf_counter()
    if via_stdin:
        proc = subprocess.Popen(
            [*cmd, "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        assert proc.stdin is not None
        feeder = threading.Thread(target=_feed, args=(proc.stdin, head, unit, stop), daemon=True)
    else:
        pipe = directory / name
        os.mkfifo(pipe)
        proc = subprocess.Popen(
            [*cmd, str(pipe)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        feeder = threading.Thread(target=_feed_pipe, args=(pipe, head, unit, stop), daemon=True)
    feeder.start()
    ended = True
    # ``os.wait4`` (not ``poll``, which would reap the child first) for its peak memory
    pid, status, usage = _wait(proc.pid, seconds)
    if pid == 0:
        ended = False
        proc.send_signal(signal.SIGINT)
        pid, status, usage = _wait(proc.pid, GRACE)
        if pid == 0:  # Ctrl-C did not end it: a failure, not a run that waits for ever
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    stop.set()
    code = os.waitstatus_to_exitcode(status)
    return {
        "name": name,
        "format": fmt,
        "seconds": round(time.perf_counter() - t0, 2),
        "ended_by_itself": ended,
        "exit": code,
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
        "traceback": "Traceback" in err,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help=f"probes (default: all): {', '.join(PROBES)}")
    parser.add_argument("--seconds", type=float, default=5.0, help="interrupt after (default 5)")
    parser.add_argument("--mb", type=float, default=200.0, help="memory bound (default 200)")
    args = parser.parse_args(argv)
    # a shell starts a background job with Ctrl-C ignored, and an ignored signal stays ignored
    # in a child: caught here, it is the default again in each probe
    signal.signal(signal.SIGINT, signal.default_int_handler)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.names or list(PROBES):
            row = run(name, args.seconds, Path(tmp))
            over = float(str(row["peak_mb"])) > args.mb
            failed = row["traceback"] or row["exit"] == 3
            bad += bool(over or failed)
            print(
                json.dumps(row) + ("  <-- OVER" if over else "") + ("  <-- FAIL" if failed else "")
            )
            sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
