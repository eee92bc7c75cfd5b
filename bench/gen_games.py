#!/usr/bin/env python3
"""Generate plausible renju games as move lists, for benchmarks.

The games are made by two greedy, noisy players on a 15x15 board: they play next to the stones
already there, make fours and threes, block the opponent's, and take a five when they have one.
Black usually avoids its forbidden points but sometimes plays one (a foul; the game then stops
there most of the time, as under "a forbidden move loses").  A game ends with a five, a foul, or
after 63 to 88 moves (``--moves 68``): about 60 moves on average.  Output is deterministic: the
same arguments give the same bytes::

    python bench/gen_games.py --games 100000 --seed 1 --jobs 2 -o /tmp/games.txt
    python bench/gen_games.py --games 1000 --format jsonl -o /tmp/games.jsonl

``--format text`` (default) writes one game per line, the declared result first
(``black h8 h9 ...``), which ``renju check`` reads as standard notation; ``--format jsonl`` writes
``{"moves": "h8 h9 ...", "result": "black"}`` objects.  Games are made in chunks of
``CHUNK`` with their own seeds, so ``--jobs`` changes the speed, never the output.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
from collections.abc import Iterator, Sequence

from renju_cli.board import BLACK, EMPTY, WHITE, Board
from renju_cli.judge import Judge, shape_counts

SIZE = 15
CHUNK = 2000


def _neighbours(board: Board) -> list[list[int]]:
    """For each array index, the board points within two steps of it (in a fixed order)."""
    out: list[list[int]] = [[] for _ in board.cells]
    for p in board.points():
        y, x = divmod(p, board.stride)
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if (dx or dy) and 1 <= x + dx <= board.width and 1 <= y + dy <= board.height:
                    out[p].append(p + dy * board.stride + dx)
    return out


def _worth(code: int, attack: bool) -> int:
    """What a shape code is worth to the player who makes it (attack) or blocks it."""
    five, overline, fours, threes = shape_counts(code)
    if attack:
        return 100_000 * five + 300 * min(fours, 2) + 40 * min(threes, 2) - 50 * overline
    return 20_000 * five + 1500 * min(fours, 2) + 600 * min(threes, 2)


#: Worth of every possible code (codes are 16-bit), for making it and for blocking it.
ATTACK = [_worth(c, True) for c in range(1 << 16)]
DEFENCE = [_worth(c, False) for c in range(1 << 16)]


def games(count: int, seed: int, max_moves: int = 68) -> Iterator[tuple[str | None, list[str]]]:
    """``count`` games as (declared result word or None, point names)."""
    rng = random.Random(seed)
    judge = Judge()
    board = Board(SIZE)
    near = _neighbours(board)
    shape, random_ = judge.shape, rng.random

    def value(p: int, stone: int) -> float:
        """How much ``stone`` wants ``p``: its own shapes plus the opponent's it blocks."""
        return (
            ATTACK[shape(board, p, stone)]
            + DEFENCE[shape(board, p, BLACK + WHITE - stone)]
            + random_() * 60
        )

    centre = board.index_of(SIZE // 2, SIZE // 2)
    for _ in range(count):
        for p in board.points():
            if board.cells[p] != EMPTY:
                board.remove(p)
        length = rng.randint(max_moves - 5, max_moves + 20)
        careless = rng.random() < 0.3  # this black sometimes ignores its forbidden points
        moves: list[int] = []
        result: str | None = None
        stone = BLACK
        first = centre + rng.choice((0, 0, 0, 1, -1, board.stride, -board.stride))
        while len(moves) < length:
            if not moves:
                p = first
            else:
                candidates = {q for m in moves[-6:] for q in near[m] if board.cells[q] == EMPTY}
                if not candidates:
                    candidates = {q for q in board.points() if board.cells[q] == EMPTY}
                    if not candidates:
                        result = "draw"
                        break
                ranked = sorted(candidates, key=lambda q: -value(q, stone))
                p = ranked[0]
                if stone == BLACK and judge.forbidden_kinds(board, p, BLACK):
                    if careless and rng.random() < 0.7:
                        moves.append(p)
                        result = "white"
                        # most records stop at the foul; some go on after it
                        board.place(p, stone)
                        if rng.random() < 0.2:
                            stone = WHITE
                            continue
                        break
                    legal = [q for q in ranked[1:6] if not judge.forbidden_kinds(board, q, BLACK)]
                    if legal:
                        p = legal[0]
                elif len(ranked) > 1 and rng.random() < 0.1:
                    p = ranked[1]  # a second-best move now and then, for variety
            moves.append(p)
            board.place(p, stone)
            if judge.five_at(board, p, stone) is not None:
                result = "black" if stone == BLACK else "white"
                break
            stone = BLACK + WHITE - stone
        if result is None and rng.random() < 0.5:
            result = rng.choice(("black", "white", "draw"))  # a resignation or an agreement
        if result is not None and rng.random() < 0.1:
            result = None  # not every record states its result
        yield result, [board.name(p) for p in moves]


def chunk_jobs(count: int, seed: int, max_moves: int, fmt: str) -> list[tuple[int, int, int, str]]:
    """The chunks of a run: (chunk seed, games, length, format); the seeds depend on ``seed``
    and the chunk's number only, so any way of running the chunks gives the same games."""
    return [
        (seed * 1_000_003 + i, min(CHUNK, count - start), max_moves, fmt)
        for i, start in enumerate(range(0, count, CHUNK))
    ]


def generated(count: int, seed: int, max_moves: int = 68) -> Iterator[tuple[str | None, list[str]]]:
    """The games that ``gen_games.py --games count --seed seed`` writes, in order."""
    for chunk, n, length, _ in chunk_jobs(count, seed, max_moves, "text"):
        yield from games(n, chunk, length)


def _lines(job: tuple[int, int, int, str]) -> str:
    """The output lines of one chunk of games (``job`` = chunk number, games, length, format)."""
    chunk, count, max_moves, fmt = job
    out = []
    for result, moves in games(count, chunk, max_moves):
        body = " ".join(moves)
        if fmt == "jsonl":
            obj: dict[str, str] = {"moves": body}
            if result is not None:
                obj["result"] = result
            out.append(json.dumps(obj) + "\n")
        else:
            out.append(f"{result} {body}\n" if result else body + "\n")
    return "".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the games; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument(
        "--moves", type=int, default=68, help="games not ended earlier stop after N-5 to N+20 moves"
    )
    ap.add_argument("--format", choices=("text", "jsonl"), default="text", help="output format")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    args = ap.parse_args(argv)
    jobs = chunk_jobs(args.games, args.seed, args.moves, args.format)
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")  # noqa: SIM115
    try:
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                for text in pool.imap(_lines, jobs):
                    out.write(text)
        else:
            for job in jobs:
                out.write(_lines(job))
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
