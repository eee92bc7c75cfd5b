#!/usr/bin/env python3
"""Mutation fuzzer for every reader, the referee and the ruleset loader.

Inputs are mutants of the seeds (``fuzz_seeds``: our own records in every format, windows of the
real samples in ``../shared/corpus`` and the regression corpus): bit flips, interesting bytes,
deletions, duplications (deep nesting), splices of two seeds, truncations, insertions of tokens
that mean something to some format, repeated chunks and extreme numbers.  Each mutant is read with
format detection or with one reader forced, and goes through ``fuzz_target.run_input`` (read,
check invariants, judge, render); a small share goes through the ruleset loader instead.  Mutants
that give a new kind of outcome join the pool, a cheap stand-in for coverage guidance.

Anything that raises is a failure: the input is saved under ``OUT/crashes/`` with its traceback,
once per distinct (exception, place).  Inputs slower than ``--slow`` seconds go to ``OUT/slow/``.
Both cores are used by default::

    python fuzz/mutate.py --inputs 1000000 --workers 2 --out fuzz/out
    python fuzz/mutate.py --inputs 20000 --seed 7          # a quick run

Exit code 0 when no input failed, 1 otherwise.  Totals go to ``OUT/summary.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import re
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_seeds
import fuzz_target

#: Tokens that mean something to at least one format (structure, bounds, hostile constructs).
TOKENS: tuple[bytes, ...] = (
    b"(;", b"(", b")", b";", b"[", b"]", b"\\", b"B[", b"W[", b"AB[", b"AW[", b"AE[]", b"SZ[",
    b"SZ[26]", b"SZ[27]", b"SZ[0]", b"SZ[5:26]", b"SZ[99999999999999999999]", b"CA[gbk]",
    b"CA[utf-16]", b"CA[shift_jis]", b"CA[zlib]", b"CA[base64]", b"RE[", b"RU[", b"SW[", b"5A[",
    b"FA[", b"GM[", b"tt", b"zz", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\x00", b"\x81]",
    b"<", b">", b"</game>", b"<game>", b"<move>", b"</move>", b"<info>", b"<![CDATA[", b"]]>",
    b'<!DOCTYPE d [<!ENTITY a "aaaa">]>', b"&a;", b"&amp;", b"&#0;", b"&#xD800;",
    b'<!DOCTYPE d SYSTEM "file:///etc/passwd">', b'<?xml version="1.0" encoding="utf-16"?>',
    b'<?xml version="1.0" encoding="rot13"?>', b'encoding="zlib"', b"<database>", b"</database>",
    b'rule="1"', b'opening="999"', b'bresult="2"', b'alt="a1 z99"', b'swap="RR-+"', b"xmlns:a=",
    b"Piskvorky 20x20, 11:11, 0\n", b"Piskvorky 0x0", b"Piskvorky 27x27", b"Piskvorky 9999x5",
    b"-1", b"0", b"26", b"27", b"255", b"256", b"65535", b"4294967296", b"-99999999999",
    b"99999999999999999999999", b"1e308", b"NaN", b"Infinity", b"\n", b"\r\n", b"\r", b",",
    b"pass", b"swap", b"noswap", b"black", b"white", b"draw", b"--", b"1-0", b"0-1", b"1/2-1/2",
    b"*", b"1.", b"{", b"}", b"{j10 k7}", b"#", b"h8", b"z26", b"a99", b"o15", b"\xe2\x84\xaa8",
    b'[Site "PlayOK"]', b'[GameType "61,15"]', b'[GameType "60,26"]', b'[GameType "61,99"]',
    b'[Result "1-0"]', b'[Black "', b'"]', b'{"moves": ', b'"size": 26', b'"size": 1e9',
    b'"size": -1', b'"size": true', b'"size": 99999999999999999999', b'"moves": [1, null, {}]',
    b'"result": {"winner": 1}', b'"offers": "h8"', b'"metadata": []', b"[[[[[[[[", b"{{{{{{{{",
    b"X", b"O", b".", b"\xe2\x97\x8f", b"\xe2\x97\x8b", b"+", b"\xffRenLib\xff\x03\x00",
    b"\xff" * 10, b"\x78\x00", b"\x00\x40", b"\x78\x80", b"\x78\x01\x01\x00", b"\x78\x08",
    b"\x78\x20\x41\xc1", b"\x78\xff", b"\x00\x00", b"!!python/object/apply:os.system ['true']",
    b"!!python/name:os.system", b"&anchor", b"*anchor", b"<<: *anchor", b"extends: ",
    b"extends: renju\n", b"board:\n  size: 26\n", b"five:\n  length: 99\n", b"move_limit: 0",
    b"\t", b"%YAML 1.1\n", b"---\n", b"!!binary", b"!custom",
)  # fmt: skip
_INTERESTING_BYTES = b"\x00\x01\x7f\x80\xff\n\r\t ,.;:[](){}<>\"'\\/-+*#&!%0123456789"
_NUMBER = re.compile(rb"-?\d+")
_EXTREME = (b"0", b"-1", b"5", b"25", b"26", b"27", b"225", b"226", b"255", b"256", b"4096",
            b"4097", b"99999999999999999999")  # fmt: skip
MAX_INPUT = 64 * 1024


def mutate(data: bytes, rng: random.Random, pool: list[bytes]) -> bytes:
    """One to five stacked mutations of ``data``."""
    buf = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 5))):
        op = rng.randrange(12)
        n = len(buf)
        at = rng.randrange(n + 1)
        if op == 0 and n:  # flip bits
            i = rng.randrange(n)
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1 and n:  # an interesting byte
            buf[rng.randrange(n)] = rng.choice(_INTERESTING_BYTES)
        elif op == 2 and n:  # delete a range
            end = min(n, at + rng.choice((1, 2, 4, 16, 64, 512)))
            del buf[at:end]
        elif op == 3 and n:  # duplicate a range elsewhere
            start = rng.randrange(n)
            chunk = buf[start : start + rng.choice((1, 2, 8, 32, 256))]
            buf[at:at] = chunk
        elif op in (4, 5):  # insert a token
            buf[at:at] = rng.choice(TOKENS)
        elif op == 6 and pool:  # splice with another seed
            other = rng.choice(pool)
            cut = rng.randrange(len(other) + 1)
            buf = buf[:at] + bytearray(other[cut:])
        elif op == 7 and n:  # truncate
            del buf[rng.randrange(n) :]
        elif op == 8:  # a chunk or token repeated many times (nesting, long strings, bounds)
            unit = rng.choice(TOKENS) if rng.random() < 0.5 or not n else buf[at : at + 4]
            buf[at:at] = bytes(unit) * rng.choice((16, 256, 5000))
        elif op == 9:  # an extreme number in place of one
            numbers = list(_NUMBER.finditer(bytes(buf)))
            if numbers:
                m = rng.choice(numbers)
                buf[m.start() : m.end()] = rng.choice(_EXTREME)
        elif op == 10 and n:  # swap two lines
            lines = bytes(buf).split(b"\n")
            if len(lines) > 2:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                buf = bytearray(b"\n".join(lines))
        elif op == 11 and n:  # random bytes
            buf[at:at] = rng.randbytes(rng.choice((1, 3, 16)))
        if len(buf) > MAX_INPUT:
            del buf[MAX_INPUT:]
    return bytes(buf)


def _signature(exc: BaseException) -> str:
    """Where a failure comes from: exception type and the innermost project frame."""
    frames = traceback.extract_tb(exc.__traceback__)
    place = "?"
    for frame in reversed(frames):
        if "renju_cli" in frame.filename or "fuzz_target" in frame.filename:
            place = f"{Path(frame.filename).name}:{frame.lineno}"
            break
    return f"{type(exc).__name__}@{place}"


def _outcome(data: bytes, fmt: str | None) -> str:
    """A coarse label of what reading gave, to keep mutants that reach something new."""
    import io

    from renju_cli.formats import read_stream

    labels = set()
    for n, record in enumerate(read_stream(io.BufferedReader(io.BytesIO(data)), "x", fmt)):
        if n >= 8:
            break
        for p in record.problems[:2]:
            labels.add(re.sub(r"\d+|'[^']*'|\"[^\"]*\"", "#", p.message)[:60])
        labels.add(f"{record.format}:{bool(record.moves)}:{bool(record.setup)}")
    return f"{fmt}|" + "|".join(sorted(labels))


def worker(args: tuple[int, int, int, str, float]) -> dict[str, Any]:
    """Run ``count`` inputs with seed ``seed``; return the totals."""
    count, seed, wid, out, slow = args
    rng = random.Random(seed * 1000 + wid)
    fuzz_target.warm_up()
    seeds = fuzz_seeds.all_seeds()
    pool = list(seeds.values())
    yaml_pool = [v for k, v in seeds.items() if k.endswith(".yaml")]
    seen_outcomes: set[str] = set()
    failures: dict[str, dict[str, Any]] = {}
    stats: dict[str, Any] = {"inputs": 0, "records": 0, "rulesets": 0, "rulesets_loaded": 0,
                             "slow": 0, "max_seconds": 0.0, "failed_inputs": 0}  # fmt: skip
    started = time.monotonic()
    out_dir = Path(out)
    for i in range(count):
        is_ruleset = rng.random() < 0.04
        base = rng.choice(yaml_pool if is_ruleset and rng.random() < 0.8 else pool)
        data = mutate(base, rng, pool)
        fmt = None if rng.random() < 0.35 else rng.choice(fuzz_target.FORMATS)
        # one input in ten under the tightest bounds (``--limit``): the code that cuts short
        tight = rng.random() < 0.1
        options = fuzz_target.TIGHT if tight else fuzz_target.OPTIONS
        target = "ruleset" if is_ruleset else (fmt or "detect") + (".tight" if tight else "")
        t0 = time.perf_counter()
        try:
            if is_ruleset:
                stats["rulesets"] += 1
                stats["rulesets_loaded"] += fuzz_target.run_ruleset(data)
            else:
                stats["records"] += fuzz_target.run_input(data, fmt, options=options)
        except Exception as exc:
            stats["failed_inputs"] += 1
            sig = _signature(exc)
            entry = failures.setdefault(sig, {"count": 0})
            entry["count"] += 1
            if entry["count"] == 1:
                digest = hashlib.sha1(data).hexdigest()[:12]
                crash_dir = out_dir / "crashes"
                crash_dir.mkdir(parents=True, exist_ok=True)
                (crash_dir / f"{digest}.{target}.bin").write_bytes(data)
                (crash_dir / f"{digest}.{target}.txt").write_text(
                    f"{sig}\n{traceback.format_exc()}", encoding="utf-8"
                )
                entry["example"] = f"{digest}.{target}.bin"
        elapsed = time.perf_counter() - t0
        stats["inputs"] += 1
        stats["max_seconds"] = max(stats["max_seconds"], elapsed)
        if elapsed > slow:
            stats["slow"] += 1
            slow_dir = out_dir / "slow"
            slow_dir.mkdir(parents=True, exist_ok=True)
            digest = hashlib.sha1(data).hexdigest()[:12]
            (slow_dir / f"{digest}.{target}.{elapsed:.2f}s.bin").write_bytes(data)
        # keep mutants that reach a new outcome (a few hundred at most)
        if not is_ruleset and len(pool) < 3000 and rng.random() < 0.05:
            try:
                label = _outcome(data, fmt)
            except Exception:
                label = ""
            if label and label not in seen_outcomes:
                seen_outcomes.add(label)
                pool.append(data)
        if i % 20000 == 0 and i:
            rate = i / (time.monotonic() - started)
            print(f"[worker {wid}] {i}/{count} inputs, {rate:.0f}/s, "
                  f"{stats['failed_inputs']} failed", file=sys.stderr, flush=True)  # fmt: skip
    stats["seconds"] = time.monotonic() - started
    stats["failures"] = failures
    stats["pool"] = len(pool)
    return stats


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer; exit code 1 when an input failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="total inputs to run")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "out"))
    parser.add_argument("--slow", type=float, default=1.0, help="seconds that make an input slow")
    args = parser.parse_args(argv)
    per = [args.inputs // args.workers + (w < args.inputs % args.workers)
           for w in range(args.workers)]  # fmt: skip
    jobs = [(n, args.seed, w, args.out, args.slow) for w, n in enumerate(per)]
    started = time.monotonic()
    if args.workers == 1:
        results = [worker(jobs[0])]
    else:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(worker, jobs)
    total: dict[str, Any] = {"failures": {}}
    for r in results:
        for key, value in r.items():
            if key == "failures":
                for sig, entry in value.items():
                    agg = total["failures"].setdefault(sig, {"count": 0})
                    agg["count"] += entry["count"]
                    agg.setdefault("example", entry.get("example"))
            elif key == "max_seconds":
                total[key] = max(total.get(key, 0.0), value)
            elif isinstance(value, (int, float)):
                total[key] = total.get(key, 0) + value
    total["wall_seconds"] = round(time.monotonic() - started, 1)
    total["workers"] = args.workers
    total["seed"] = args.seed
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "summary.json").write_text(json.dumps(total, indent=2) + "\n", "utf-8")
    print(json.dumps(total, indent=2))
    return 1 if total["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
