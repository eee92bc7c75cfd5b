"""The fast paths agree with the straightforward ones (small scale; bench/equivalence.py runs 10^6).

- ``Board.lines``, kept up to date by ``place``/``remove``, always equals the lines rebuilt from
  the cells;
- the window codes and facts read from ``Board.lines`` equal ``analyze_window`` of the window read
  by walking the array (``line_key``), for every five length and colour;
- ``forbidden_kinds``, ``forbidden_points`` and ``five_at`` equal the reference judge
  (``renju_cli.reference``) on random positions;
- the referee's forbidden moves and first five equal the reference's, move by move;
- boards of two sizes do not share a hash (the judge's memo is keyed by it);
- the notation reader's fast path for plain move lists reads what its tokenizer reads.
"""

from __future__ import annotations

import dataclasses
import random

from helpers import random_board, reference_position
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.board import BLACK, EMPTY, LINE_PAD, WALL, WHITE, Board
from renju_cli.coords import Point
from renju_cli.judge import (
    RENJU_BLACK,
    ColorRules,
    Judge,
    line_key,
    line_table,
    shape_counts,
)
from renju_cli.record import Move, Record, SourceLocation
from renju_cli.referee import replay
from renju_cli.ruleset import load


def _lines_from_cells(board: Board) -> list[int]:
    """The lines as the module docstring of ``board`` defines them, built from scratch."""
    lines = []
    cells = board.cells
    for d in board.directions:
        for p in range(len(cells)):
            if cells[p] == WALL or cells[p - d] != WALL:
                continue
            points = []
            q = p
            while cells[q] != WALL:
                points.append(cells[q])
                q += d
            value = 0
            for i, cell in enumerate([WALL] * LINE_PAD + points + [WALL] * LINE_PAD):
                value |= cell << (2 * i)
            lines.append(value)
    return lines


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(5, 26),
    height=st.integers(5, 26),
    steps=st.integers(1, 200),
)
def test_board_lines_follow_place_and_remove(
    seed: int, width: int, height: int, steps: int
) -> None:
    rng = random.Random(seed)
    board = Board(width, height)
    empty_hash = board.hash
    points = list(board.points())
    for _ in range(steps):
        p = rng.choice(points)
        if board.cells[p] == EMPTY:
            board.place(p, rng.choice((BLACK, WHITE)))
        else:
            board.remove(p)
    assert board.lines == _lines_from_cells(board)
    copy = board.copy()
    for p in points:
        if board.cells[p] != EMPTY:
            board.remove(p)
    assert board.lines == board.geometry.lines
    assert board.hash == empty_hash and board.stones == 0
    assert copy.lines == _lines_from_cells(copy)  # the copy kept its own lines


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([5, 8, 15, 26]),
    k=st.integers(3, 10),
    exact=st.booleans(),
)
def test_windows_from_lines_match_windows_from_cells(
    seed: int, size: int, k: int, exact: bool
) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size, rng.randint(0, size * size // 2), 0.6)
    rules = ColorRules(overline_wins=not exact, forbidden=RENJU_BLACK.forbidden)
    judge = Judge(rules, rules, five_length=k)
    table = line_table(k, exact)
    for p in rng.sample(list(board.points()), min(30, size * size)):
        for stone in (BLACK, WHITE):
            walked = [table.facts(line_key(board.cells, p, d, stone, k)) for d in board.directions]
            assert judge.line_facts(board, p, stone) == walked
            fives, overlines, fours, threes = shape_counts(judge.shape(board, p, stone))
            assert fives == sum(f.five for f in walked)
            assert overlines == sum(f.overline for f in walked)
            assert fours == sum(min(len(f.fours), 3) for f in walked)
            assert threes == sum(min(len({m for _, m in f.threes}), 3) for f in walked)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([6, 7, 9, 11]),
    density=st.floats(0.15, 0.5),
    black_share=st.floats(0.5, 0.8),
    five_eye=st.booleans(),
)
def test_forbidden_points_and_fives_match_reference(
    seed: int, size: int, density: float, black_share: float, five_eye: bool
) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size, int(size * size * density), black_share)
    ref = reference_position(board, five_eye)
    judge = Judge(RENJU_BLACK, five_eye_counts=five_eye)
    expected = {}
    for p in board.points():
        if board.cells[p] != EMPTY:
            continue
        pt = board.point(p)
        kinds = ref.forbidden(pt.x, pt.y)
        if kinds:
            expected[p] = tuple(kinds)
        assert (judge.five_at(board, p, BLACK) is not None) == ref.makes_five(pt.x, pt.y)
    assert dict(judge.forbidden_points(board)) == expected


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(10, 70))
def test_referee_reports_what_the_reference_finds(seed: int, length: int) -> None:
    """Random games near the centre of a 9x9 board: every forbidden move black plays is listed
    with the reference's kinds, and the first five is the reference's first five."""
    rng = random.Random(seed)
    size = 9
    board = Board(size)
    moves: list[Move] = []
    expected_fouls = []
    first_five = None
    stone = BLACK
    for number in range(1, length + 1):
        empty = [p for p in board.points() if board.cells[p] == EMPTY]
        if not empty:
            break
        p = rng.choice(empty)
        pt = board.point(p)
        if stone == BLACK:
            kinds = reference_position(board).forbidden(pt.x, pt.y)
            if kinds:
                expected_fouls.append((number, pt.name, kinds))
        board.place(p, stone)
        if first_five is None:
            ref = reference_position(board)
            del ref.grid[(pt.x, pt.y)]
            if stone == BLACK:
                five = ref.makes_five(pt.x, pt.y)
            else:  # white wins with five or more
                ref.grid = {q: "B" if c == "W" else "W" for q, c in ref.grid.items()}
                five = ref.makes_five(pt.x, pt.y) or ref.makes_overline(pt.x, pt.y)
            if five:
                first_five = (number, pt.name)
        moves.append(Move(Point(pt.x, pt.y)))
        stone = BLACK + WHITE - stone
    record = Record(moves=moves, source=SourceLocation("<random>"), width=size, height=size)
    report = replay(record, load("renju"))
    fouls = [(f.move, f.point, f.kinds) for f in report.forbidden_moves]
    assert fouls == expected_fouls
    got_five = (report.first_five.move, report.first_five.point) if report.first_five else None
    assert got_five == first_five


def test_boards_of_two_sizes_do_not_share_a_hash() -> None:
    """The judge's memo is keyed by the hash: stones at the same array indices on boards of two
    sizes are different positions, so their hashes must differ."""
    small, large = Board(9), Board(11)
    indices = [small.index_of(x, y) for x, y in ((2, 1), (3, 2), (4, 3))]
    for board in (small, large):
        for i in indices:
            assert board.slots[i] is not None  # a point on both boards
            board.place(i, BLACK)
    assert small.point(indices[2]) != large.point(indices[2])  # the same index, another point
    assert small.hash != large.hash


@settings(max_examples=200, deadline=None)
@given(
    tokens=st.lists(
        st.tuples(
            st.sampled_from("abchijoxyzABHIOZ"),
            st.sampled_from(["1", "8", "9", "10", "15", "19", "26", "0", "08", "99"]),
            st.sampled_from([" ", "  ", "\t", " \u00a0"]),
        ),
        max_size=40,
    )
)
def test_plain_move_lists_read_as_the_tokenizer_reads_them(
    tokens: list[tuple[str, str, str]],
) -> None:
    """The notation reader's fast path (a line of points and spaces) gives the moves that the
    general tokenizer gives; a trailing ``pass`` sends the same line through the tokenizer."""
    from renju_cli.formats.notation import _parse_body

    body = "".join(col + row + space for col, row, space in tokens)
    fast, fast_events, fast_problem = _parse_body(body, 7)
    slow, _, slow_problem = _parse_body(body + " pass", 7)
    assert fast_problem is None and slow_problem is None and fast_events == []
    assert slow[-1].point is None
    assert [dataclasses.astuple(m) for m in fast] == [dataclasses.astuple(m) for m in slow[:-1]]


def test_one_table_of_stone_keys_serves_every_size_and_holds_no_key_twice() -> None:
    # made at import, never grown: boards built by threads at once would interleave their
    # appends to a table grown on demand, and two black stones could hash as the empty board
    from renju_cli import board as board_module

    keys = board_module._ZOBRIST
    assert all(Board(w, h).zobrist is keys for w, h in ((5, 5), (26, 26), (9, 23)))
    assert len(keys) >= len(Board(26, 26).cells)
    stones = [k for entry in keys for k in entry[1:]]
    assert len(set(stones)) == len(stones) and 0 not in stones
    assert len({Board(w, h).hash for w in range(5, 27) for h in range(5, 27)}) == 22 * 22
