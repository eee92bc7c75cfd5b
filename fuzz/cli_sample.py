#!/usr/bin/env python3
"""Mutants through the real command line: exit codes, tracebacks and accounting.

The library fuzzer (``mutate.py``) is fast; this checks what a user sees, on fewer inputs: each
batch of mutants is written to a directory and checked with ``renju check DIR --format jsonl``
(once with ``--jobs 2``), and some mutants one by one (format detection, then each
``--input-format``).  A failure is an exit code other than 0 or 1, a traceback, or a record
count that differs from what the library reads::

    python fuzz/cli_sample.py --batches 20 --per-batch 100 --singles 200
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_seeds
import fuzz_target
import mutate

from renju_cli import api

RENJU = [sys.executable, "-m", "renju_cli", "check"]


def _run(args: list[str]) -> tuple[int, str, str]:
    done = subprocess.run([*RENJU, *args], capture_output=True, text=True, check=False)
    return done.returncode, done.stdout, done.stderr


def _bad(code: int, stderr: str) -> bool:
    return code not in (0, 1) or "Traceback" in stderr


def main(argv: list[str] | None = None) -> int:
    """Run the sample; exit code 1 on any failure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--per-batch", type=int, default=100)
    parser.add_argument("--singles", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    seeds = list(fuzz_seeds.all_seeds().values())
    failures: list[str] = []
    inputs = records = 0
    with tempfile.TemporaryDirectory() as tmp:
        for b in range(args.batches):
            folder = Path(tmp) / f"batch{b}"
            folder.mkdir()
            for n in range(args.per_batch):
                data = mutate.mutate(rng.choice(seeds), rng, seeds)
                (folder / f"m{n:04d}.in").write_bytes(data)
            inputs += args.per_batch
            want = sum(1 for p in sorted(folder.iterdir()) for _ in api.read_path(str(p)))
            jobs = ["--jobs", "2"] if b % 2 else []
            code, out, err = _run([str(folder), "--format", "jsonl", *jobs])
            got = len(out.splitlines())
            records += got
            if _bad(code, err) or got != want:
                failures.append(f"batch {b}: exit {code}, {got} records for {want}: {err[-300:]}")
        for n in range(args.singles):
            path = Path(tmp) / f"single{n}"
            path.write_bytes(mutate.mutate(rng.choice(seeds), rng, seeds))
            fmt = rng.choice([None, *fuzz_target.FORMATS])
            extra = [] if fmt is None else ["--input-format", fmt]
            code, out, err = _run([str(path), "--format", "json", *extra])
            inputs += 1
            if _bad(code, err):
                failures.append(f"single {n} ({fmt}): exit {code}: {err[-300:]}")
            else:
                records += json.loads(out)["summary"]["records"]
    print(json.dumps({"inputs": inputs, "records": records, "failures": failures}, indent=2))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
