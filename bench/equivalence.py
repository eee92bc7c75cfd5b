#!/usr/bin/env python3
"""The long run: the fast judge against the reference judge on 10^6 random points.

Boards come from two sources, half each: random stones clustered around the centre (sizes 7 to
19, 10-50 % full, 50-80 % black, so that forbidden points are common), and positions from
generated games (``gen_games``) cut at a random move.  On every board, every empty point is
judged both ways for black (``Judge.forbidden_kinds`` vs ``reference.Position.forbidden``, and
``Judge.five_at`` vs ``makes_five``), and ``Judge.forbidden_points`` is compared with the
reference's list.  Both settings of the five-eye option are used, one board in two each::

    python bench/equivalence.py                    # 10^6 points, both cores
    python bench/equivalence.py --points 20000 --jobs 1

Prints the boards and points checked, the forbidden verdicts met per kind, and every mismatch
(with its board); the exit status is 1 when there is any mismatch.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_games import games

from renju_cli.board import BLACK, EMPTY, WHITE, Board
from renju_cli.judge import RENJU_BLACK, Judge
from renju_cli.reference import Position

CHUNK_POINTS = 20_000
_COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def _clustered(rng: random.Random) -> Board:
    size = rng.choice((7, 9, 11, 13, 15, 15, 15, 19))
    board = Board(size)
    stones = int(size * size * rng.uniform(0.1, 0.5))
    share = rng.uniform(0.5, 0.8)
    c = size / 2 - 0.5
    placed = 0
    while placed < stones:
        x = min(size - 1, max(0, round(rng.gauss(c, size / 5))))
        y = min(size - 1, max(0, round(rng.gauss(c, size / 5))))
        i = board.index_of(x, y)
        if board.cells[i] == EMPTY:
            board.place(i, BLACK if rng.random() < share else WHITE)
            placed += 1
    return board


def _from_game(names: list[str], rng: random.Random) -> Board:
    board = Board(15)
    stone = BLACK
    for name in names[: rng.randint(min(8, len(names)), len(names))]:
        board.place(board.index_of(_COLUMNS.index(name[0]), int(name[1:]) - 1), stone)
        stone = BLACK + WHITE - stone
    return board


def _reference(board: Board, five_eye: bool) -> Position:
    stones = {}
    for i in board.points():
        if board.cells[i] != EMPTY:
            pt = board.point(i)
            stones[(pt.x, pt.y)] = "B" if board.cells[i] == BLACK else "W"
    return Position(board.width, stones, five_eye_counts=five_eye)


def check_chunk(job: tuple[int, int]) -> tuple[int, int, Counter[str], list[str]]:
    """Judge boards until ``points`` points are checked; returns boards, points, kinds met and
    mismatch descriptions.  ``job`` = (seed, points)."""
    seed, quota = job
    rng = random.Random(seed)
    generated = [names for _, names in games(40, seed)]
    judges = {False: Judge(RENJU_BLACK), True: Judge(RENJU_BLACK, five_eye_counts=True)}
    boards = points = 0
    kinds_met: Counter[str] = Counter()
    mismatches: list[str] = []
    while points < quota:
        board = _clustered(rng) if boards % 2 else _from_game(rng.choice(generated), rng)
        five_eye = rng.random() < 0.5
        judge, ref = judges[five_eye], _reference(board, five_eye)
        boards += 1
        expected = {}
        for p in board.points():
            if board.cells[p] != EMPTY:
                continue
            points += 1
            pt = board.point(p)
            want = tuple(ref.forbidden(pt.x, pt.y))
            got = judge.forbidden_kinds(board, p, BLACK)
            if want:
                expected[p] = want
                kinds_met.update(want)
            else:
                kinds_met["legal"] += 1
            if got != want:
                mismatches.append(f"{pt.name}: judge {got}, reference {want}")
            if (judge.five_at(board, p, BLACK) is not None) != ref.makes_five(pt.x, pt.y):
                mismatches.append(f"{pt.name}: five_at disagrees with the reference")
        listed = dict(judge.forbidden_points(board))
        if listed != expected:
            mismatches.append(f"forbidden_points: {listed} vs reference {expected}")
        if mismatches and not mismatches[-1].startswith("five-eye"):
            mismatches.append(f"five-eye {five_eye}, board:\n{board.diagram()}")
    return boards, points, kinds_met, mismatches


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison and print what was checked."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--points", type=int, default=1_000_000, help="points to judge (10^6)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = ap.parse_args(argv)
    jobs = [
        (args.seed * 1_000_003 + i, min(CHUNK_POINTS, args.points - start))
        for i, start in enumerate(range(0, args.points, CHUNK_POINTS))
    ]
    t0 = time.perf_counter()
    boards = points = 0
    kinds: Counter[str] = Counter()
    mismatches: list[str] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for b, p, k, found in pool.imap_unordered(check_chunk, jobs):
            boards, points = boards + b, points + p
            kinds.update(k)
            mismatches.extend(found)
            if sys.stderr.isatty():
                print(f"\r{points:,} points", end="", file=sys.stderr)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    elapsed = time.perf_counter() - t0
    print(f"boards checked: {boards:,}")
    print(f"points checked: {points:,} (forbidden_kinds and five_at each, vs the reference)")
    print(f"forbidden_points lists compared: {boards:,}")
    print("verdicts met: " + ", ".join(f"{k} {n:,}" for k, n in sorted(kinds.items())))
    print(f"mismatches: {sum(1 for m in mismatches if not m.startswith('five-eye'))}")
    for m in mismatches[:40]:
        print(m)
    print(f"time: {elapsed:.0f} s with {args.jobs} job(s)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
