#!/usr/bin/env python3
"""End to end: ``renju check --format jsonl`` as a user runs it, in a child process.

Measures, each in a fresh ``renju`` process (output to /dev/null):

- *throughput*: games/s on a generated move-list file (``gen_games.py``, 100,000 games by
  default), by wall time and by the child's CPU time (the machine may be shared);
  with ``--jobs N`` too when ``renju check`` has that option;
- *start-up*: wall time of ``renju check`` on one small record (median of several runs);
- *memory*: peak RSS of the child (``os.wait4``) on the move-list file and on a generated
  RenjuNet XML file (``gen_renjunet.py``, 500 MB by default) and one a tenth of its size, to show
  that the peak does not grow with the number of records.

Input files are generated into ``--workdir`` (default ``/tmp/bench``) once and reused::

    python bench/bench_check.py                       # everything (generates ~0.5 GB once)
    python bench/bench_check.py --games 10000 --xml-mb 0   # quicker; no XML run
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable


def _renju() -> list[str]:
    """The ``renju`` command of this interpreter's environment."""
    script = Path(PYTHON).with_name("renju")
    return [str(script)] if script.exists() else [PYTHON, "-m", "renju_cli"]


def run_child(argv: list[str]) -> tuple[float, float, int, int]:
    """Run a command with its output discarded: (wall s, CPU s, peak RSS KiB, exit status)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode


def ensure(path: Path, argv: list[str]) -> Path:
    """Generate ``path`` with ``argv`` (+ ``-o path``) unless it exists already."""
    if not path.exists():
        print(f"generating {path} ...", file=sys.stderr)
        tmp = path.with_suffix(path.suffix + ".part")
        subprocess.run([*argv, "-o", str(tmp)], check=True)
        tmp.rename(path)
    return path


def _count(path: Path, needle: bytes) -> int:
    """Occurrences of ``needle`` in a file, read in blocks."""
    n = 0
    tail = b""
    with path.open("rb") as f:
        while block := f.read(1 << 22):
            data = tail + block
            n += data.count(needle)
            tail = data[-(len(needle) - 1) :]  # too short to hold a whole needle
    return n


def _has_jobs_option() -> bool:
    out = subprocess.run([*_renju(), "check", "--help"], capture_output=True, text=True).stdout
    return "--jobs" in out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the end-to-end measurements and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=100_000, help="games in the move-list file")
    ap.add_argument("--moves", type=int, default=68, help="gen_games.py --moves (default 68)")
    ap.add_argument("--xml-mb", type=int, default=500, help="size of the RenjuNet file (0: skip)")
    ap.add_argument("--workdir", default="/tmp/bench", help="where inputs are generated")
    ap.add_argument("--startup-runs", type=int, default=10, help="runs for the start-up median")
    args = ap.parse_args(argv)
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    renju = _renju()
    jobs = os.cpu_count() or 1

    games = ensure(
        work / f"games-{args.games}-s1-m{args.moves}.txt",
        [
            PYTHON,
            str(HERE / "gen_games.py"),
            "--games",
            str(args.games),
            "--moves",
            str(args.moves),
            "--seed",
            "1",
            "--jobs",
            str(jobs),
        ],
    )
    moves = 0
    for line in games.open(encoding="utf-8"):
        tokens = line.split()
        moves += len(tokens) - (bool(tokens) and tokens[0] in ("black", "white", "draw"))
    print(f"move-list file: {games} ({games.stat().st_size / 1e6:.1f} MB, {args.games} games)")
    print(f"  {moves / args.games:.1f} moves per game")

    variants: list[list[str]] = [[]]
    if _has_jobs_option():
        variants = [["--jobs", "1"], ["--jobs", str(jobs)]]
    else:
        print("  (renju check has no --jobs option yet: one process only)")
    rates = {}
    for extra in variants:
        wall, cpu, rss, _ = run_child([*renju, "check", str(games), "--format", "jsonl", *extra])
        label = " ".join(extra) or "one process"
        rates[label] = args.games / wall
        print(
            f"  check --format jsonl {label}: {wall:.1f} s wall, {cpu:.1f} s CPU -> "
            f"{args.games / wall:,.0f} games/s (wall), {args.games / cpu:,.0f} games/CPU-s; "
            f"peak RSS {rss / 1024:.0f} MiB"
        )
    if len(rates) == 2:
        one, many = rates.values()
        print(f"  --jobs {jobs} / --jobs 1 speed-up: {many / one:.2f}x")

    # An installed package has its byte-code compiled; a work tree (PYTHONDONTWRITEBYTECODE)
    # may not: compile it, so that start-up is not the compiler's time.
    import renju_cli

    package = Path(renju_cli.__file__).parent
    subprocess.run(
        [PYTHON, "-m", "compileall", "-q", str(package)], check=False, stdout=subprocess.DEVNULL
    )
    small = work / "one.txt"
    small.write_text("black h8 h9 i8 g8 j8 k8 i9 i10 j10 k11 i7 i6 g10 h10 f11 e12 j7 k6\n")
    walls = [run_child([*renju, "check", str(small)])[0] for _ in range(args.startup_runs)]
    print(
        f"start-up (check of one small record): median {statistics.median(walls):.3f} s, "
        f"min {min(walls):.3f} s over {len(walls)} runs"
    )

    if args.xml_mb:
        for mb in (max(1, args.xml_mb // 10), args.xml_mb):
            xml = ensure(
                work / f"renjunet-{mb}mb.rif",
                [PYTHON, str(HERE / "gen_renjunet.py"), "--size-mb", str(mb), "--seed", "1"],
            )
            wall, cpu, rss, _ = run_child([*renju, "check", str(xml), "--format", "jsonl"])
            size = xml.stat().st_size / 1e6
            count = _count(xml, b"<game ")
            print(
                f"RenjuNet XML {size:.0f} MB, {count:,} games: {wall:.1f} s wall, {cpu:.1f} s CPU, "
                f"{count / wall:,.0f} games/s; peak RSS {rss / 1024:.0f} MiB"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
