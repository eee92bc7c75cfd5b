"""Shared test helpers: board diagrams with a marked point, and judging it two ways."""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

from renju_cli.board import BLACK, WHITE, Board, parse_diagram
from renju_cli.judge import Judge
from renju_cli.reference import Position

MARK = "*"


def field_names(cls: type) -> list[str]:
    """The fields of a dataclass in order: the order that positional constructor calls in hot
    paths rely on (tests pin it)."""
    return [f.name for f in dataclasses.fields(cls)]


def position(diagram: str) -> tuple[Board, int]:
    """A board from a diagram in which ``*`` marks the (empty) point to judge."""
    rows = [
        line
        for line in diagram.splitlines()
        if MARK in line or "X" in line or "O" in line or "." in line
    ]
    mark = None
    for r, line in enumerate(rows):
        cells = [ch for ch in line if ch in "XO.*"]
        if MARK in cells:
            mark = (cells.index(MARK), len(rows) - 1 - r)
    assert mark is not None, "the diagram marks no point with *"
    board = parse_diagram(diagram.replace(MARK, "."))
    return board, board.index_of(*mark)


def black_kinds(diagram: str, five_eye_counts: bool = False) -> list[str]:
    """The forbidden kinds of black at ``*``, checked against the reference judge."""
    board, p = position(diagram)
    judge = Judge(five_eye_counts=five_eye_counts)
    fast = list(judge.forbidden_kinds(board, p, BLACK))
    ref = reference_position(board, five_eye_counts)
    pt = board.point(p)
    assert ref.forbidden(pt.x, pt.y) == fast, "the judge and the reference judge disagree"
    return fast


def reference_position(board: Board, five_eye_counts: bool = False) -> Position:
    stones = {}
    for i in board.points():
        if board.cells[i] in (BLACK, WHITE):
            pt = board.point(i)
            stones[(pt.x, pt.y)] = "B" if board.cells[i] == BLACK else "W"
    return Position(board.width, stones, five_eye_counts=five_eye_counts)


def expectations(data: Path, name: str) -> list[tuple[int, str, list[str]]]:
    """(line, record text, sorted ``code@move``) for every record of ``data/NAME.txt``: each
    line is a move list followed by ``# expect: code@move, ...`` (``-`` for none)."""
    out = []
    for n, line in enumerate((data / f"{name}.txt").read_text("utf-8").splitlines(), 1):
        if "# expect:" not in line:
            continue
        body, _, expected = line.partition("# expect:")
        codes = [e.strip() for e in expected.split(",") if e.strip() not in ("", "-")]
        out.append((n, body.strip(), sorted(codes)))
    return out


def check_json(*args: str) -> dict[str, Any]:
    """``renju check ARGS --format json``, parsed (exit code 0 or 1)."""
    from click.testing import CliRunner

    from renju_cli.cli import cli

    result = CliRunner().invoke(cli, ["check", *args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def random_board(rng: random.Random, size: int, stones: int, black_share: float) -> Board:
    """Stones clustered around the centre, as in games, with more black than usual."""
    board = Board(size)
    c = size // 2
    placed = 0
    while placed < min(stones, size * size - 1):
        x = min(size - 1, max(0, int(rng.gauss(c, size / 5))))
        y = min(size - 1, max(0, int(rng.gauss(c, size / 5))))
        i = board.index_of(x, y)
        if board.cells[i]:
            continue
        board.place(i, BLACK if rng.random() < black_share else WHITE)
        placed += 1
    return board


def run_cli(capsys: Any, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run ``renju ARGS`` in this process: (exit code, stdout, stderr); ``stdin`` is fed to
    standard input when given."""
    import io
    import sys

    from renju_cli.cli import main

    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        main(list(args))
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    finally:
        sys.stdin = saved
    out, err = capsys.readouterr()
    return code, out, err


#: The bench's generator of RenjuNet databases (deterministic for a seed).
RENJUNET_GENERATOR = Path(__file__).resolve().parent.parent / "bench" / "gen_renjunet.py"


@functools.cache
def renjunet_generator() -> ModuleType:
    """``bench/gen_renjunet.py`` as a module, loaded once."""
    spec = importlib.util.spec_from_file_location("gen_renjunet", RENJUNET_GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def generated_database(path: Path, games: int, seed: int) -> Path:
    """A RenjuNet database of ``games`` games written to ``path`` by the bench's generator,
    in this process."""
    with path.open("wb") as out:
        renjunet_generator().generate(out, games=games, seed=seed)
    return path
