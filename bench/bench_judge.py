#!/usr/bin/env python3
"""Speed of the judge and of the replay, on generated games (see ``bench/README.md``).

Prints, for the same generated games:

- *judge loop*: µs per move to replay the moves on a bare ``Board``, judging every black move
  (``Judge.forbidden_kinds``) and looking for a five after every move (``Judge.five_at``);
- *referee replay*: µs per move of ``referee.replay`` on the parsed records (the whole report:
  findings, results, first five), under the ``renju`` ruleset;
- *forbidden points*: ms per position to list every forbidden point of black
  (``Judge.forbidden_points``) on mid-game positions, each with a fresh judge (no warm memo).

Times are CPU time of this process (``time.process_time_ns``), so that other work on a shared
machine counts less.  Each figure is the median and the 90th percentile over games (positions),
plus the mean::

    python bench/bench_judge.py --games 2000
    python bench/bench_judge.py --games 300 --profile judge   # cProfile of one part
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from renju_cli.board import BLACK, WHITE, Board
from renju_cli.formats.notation import parse_record
from renju_cli.judge import Judge
from renju_cli.record import Record
from renju_cli.referee import replay
from renju_cli.ruleset import load

SIZE = 15


def _indices(board: Board, names: list[str]) -> list[int]:
    return [board.index_of(ord(n[0]) - 97, int(n[1:]) - 1) for n in names]


def judge_loop(judge: Judge, board: Board, moves: list[int]) -> int:
    """Replay ``moves`` on an empty board, judging black; returns the number of fouls + fives."""
    forbidden_kinds, five_at, place = judge.forbidden_kinds, judge.five_at, board.place
    events = 0
    stone = BLACK
    for p in moves:
        if stone == BLACK and forbidden_kinds(board, p, BLACK):
            events += 1
        place(p, stone)
        if five_at(board, p, stone) is not None:
            events += 1
        stone = BLACK + WHITE - stone
    for p in moves:
        board.remove(p)
    return events


def _generate(count: int, seed: int) -> list[tuple[str | None, list[str]]]:
    from gen_games import generated as games  # needs this tree's judge; --input does not

    t0 = time.perf_counter()
    generated = list(games(count, seed))
    print(f"generated {len(generated)} games in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return generated


def _read(path: str, count: int) -> list[tuple[str | None, list[str]]]:
    out: list[tuple[str | None, list[str]]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            tokens = line.split()
            if tokens and tokens[0] in ("black", "white", "draw"):
                out.append((tokens[0], tokens[1:]))
            else:
                out.append((None, tokens))
            if len(out) == count:
                break
    return out


def _summary(label: str, unit: str, values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
    return (
        f"{label:<22} median {statistics.median(values):8.2f} {unit}   p90 {p90:8.2f} {unit}   "
        f"mean {statistics.fmean(values):8.2f} {unit}   (n={len(values)})"
    )


def _timed(fn: Callable[[], object]) -> float:
    t = time.process_time_ns()
    fn()
    return (time.process_time_ns() - t) / 1000.0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=2000, help="generated games (default 2000)")
    ap.add_argument(
        "--seed", type=int, default=1, help="gen_games.py seed (default 1: the 100k file's games)"
    )
    ap.add_argument(
        "--input",
        default=None,
        help="read games from this gen_games.py text file instead (e.g. to time an older tree)",
    )
    ap.add_argument("--positions", type=int, default=300, help="mid-game positions (default 300)")
    ap.add_argument("--at", type=int, default=30, help="moves played in a mid-game position")
    ap.add_argument(
        "--profile",
        choices=("judge", "replay", "forbidden"),
        default=None,
        help="run one part under cProfile and print the top functions instead of figures",
    )
    args = ap.parse_args(argv)

    generated = _read(args.input, args.games) if args.input else _generate(args.games, args.seed)
    board = Board(SIZE)
    move_lists = [_indices(board, names) for _, names in generated]
    records: list[Record] = [
        parse_record(((res + " ") if res else "") + " ".join(names), "<gen>", i)
        for i, (res, names) in enumerate(generated)
    ]
    total_moves = sum(len(m) for m in move_lists)
    print(f"{total_moves} moves, {total_moves / len(move_lists):.1f} per game")
    ruleset = load("renju")
    judge = ruleset.judge()

    positions: list[Board] = []
    for moves in move_lists:
        if len(moves) > args.at and len(positions) < args.positions:
            b = Board(SIZE)
            stone = BLACK
            for p in moves[: args.at]:
                b.place(p, stone)
                stone = BLACK + WHITE - stone
            positions.append(b)

    def run_judge() -> list[float]:
        return [_timed(partial(judge_loop, judge, board, m)) / len(m) for m in move_lists if m]

    def run_replay() -> list[float]:
        return [_timed(partial(replay, r, ruleset)) / len(r.moves) for r in records if r.moves]

    # a fresh judge per position, like the ruleset's, so that no memo carries over
    black, white = judge.rules[BLACK], judge.rules[WHITE]

    def fresh_listing(b: Board) -> object:
        return Judge(black, white, judge.k, judge.five_eye_counts).forbidden_points(b)

    def run_forbidden() -> list[float]:
        return [_timed(partial(fresh_listing, b)) / 1000.0 for b in positions]

    parts = {"judge": run_judge, "replay": run_replay, "forbidden": run_forbidden}
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(parts[args.profile])
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return 0

    run_judge()  # warm the pattern tables
    gc.collect()
    print(_summary("judge loop", "µs/move", run_judge()))
    print(_summary("referee replay", "µs/move", run_replay()))
    print(_summary("forbidden points", "ms/pos", run_forbidden()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
