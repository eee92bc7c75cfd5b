#!/usr/bin/env python3
"""Same behaviour: ``renju check --format jsonl`` of this tree against another revision.

Runs both trees' ``python -m renju_cli check INPUT --format jsonl --rules R`` on every input
(``examples/``, ``tests/data/``, ``../shared/corpus/`` when present, and a generated file of
games) under each ruleset, and compares the records one by one::

    python bench/same_output.py --base main~10
    python bench/same_output.py --base 7950701 --games 10000 --drop source.id

``--drop FIELD`` leaves a dotted field out of both sides before comparing (a field added on
purpose); ``--show N`` prints the first N differing records of each run.  Exits 1 when any
record differs, 0 when every run is byte-identical (after ``--drop``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ("renju", "renju-rif", "standard", "freestyle")


def worktree(rev: str, where: Path) -> Path:
    """A checkout of ``rev`` (made once, kept in ``where`` for the next run)."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", rev], capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = where / f"tree-{sha[:12]}"
    if not tree.exists():
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), sha],
            capture_output=True,
            check=True,
        )
    return tree


def games_file(base: Path, where: Path, games: int) -> Path:
    """Generated games, made by the base tree's generator so both sides read the same bytes."""
    out = where / f"games-{games}.txt"
    if not out.exists():
        env = {**os.environ, "PYTHONPATH": str(base)}
        cmd = [sys.executable, str(base / "bench" / "gen_games.py"), "--games", str(games)]
        subprocess.run([*cmd, "--seed", "1", "-o", str(out)], env=env, check=True)
    return out


def check(tree: Path, target: Path, rules: str) -> list[bytes]:
    """The JSON Lines of ``tree``'s ``renju check``; run from the tree's parent folder, since
    ``python -m`` puts the working folder before ``PYTHONPATH``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, "-m", "renju_cli", "check", str(target), "--format", "jsonl"]
    run = subprocess.run([*cmd, "--rules", rules], env=env, capture_output=True, cwd=tree.parent)
    return run.stdout.splitlines()


def dropped(line: bytes, fields: Sequence[str]) -> object:
    if not fields:
        return line
    record = json.loads(line)
    for field in fields:
        *parents, last = field.split(".")
        node = record
        for key in parents:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node.pop(last, None)
    return record


def compare(old: list[bytes], new: list[bytes], fields: Sequence[str]) -> list[str]:
    """One line per record that differs (or is missing on one side)."""
    out = []
    for n in range(max(len(old), len(new))):
        a = dropped(old[n], fields) if n < len(old) else None
        b = dropped(new[n], fields) if n < len(new) else None
        if a != b:
            out.append(f"record {n}:\n  base: {old[n : n + 1]!r}\n  this: {new[n : n + 1]!r}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the revision to compare with")
    parser.add_argument("--games", type=int, default=10_000, help="generated games (0: none)")
    parser.add_argument("--rules", action="append", help=f"rulesets (default {', '.join(RULES)})")
    parser.add_argument("--drop", action="append", default=[], help="a dotted field to ignore")
    parser.add_argument("--show", type=int, default=3, help="differing records shown per run")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "same-output")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    base = worktree(args.base, args.work)
    # (the base tree's copies: paths in the reports are then the same on both sides)
    inputs = [base / "examples", base / "tests" / "data"]
    if (ROOT.parent / "shared" / "corpus").is_dir():
        inputs.append(ROOT.parent / "shared" / "corpus")
    if args.games:
        inputs.append(games_file(base, args.work, args.games))
    differing = 0
    for target in inputs:
        for rules in args.rules or RULES:
            old, new = check(base, target, rules), check(ROOT, target, rules)
            diffs = compare(old, new, args.drop)
            differing += len(diffs)
            name = os.path.relpath(target, ROOT)
            print(f"{name} --rules {rules}: {len(new)} records, {len(diffs)} differ")
            for diff in diffs[: args.show]:
                print("  " + diff.replace("\n", "\n  "))
    print(f"{differing} differing record(s)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
