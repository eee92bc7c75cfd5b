"""Duplicate games: the key is the same for a game under the board's symmetries and for a
different order of the opening stones, and differs otherwise; ``--duplicates report|skip``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.api import read_bytes
from renju_cli.coords import Point, parse_point
from renju_cli.duplicates import DuplicateIndex, game_key, symmetries
from renju_cli.formats import unreadable
from renju_cli.record import BLACK, WHITE, Move, Record, SourceLocation
from renju_cli.ruleset import load

RENJU = load("renju")
GAME = "h8 i9 h9 i10 h10 i11 g8 j12 f7 k13"


def record(moves: str | list[Point], size: int | None = None) -> Record:
    if isinstance(moves, str):
        moves = [parse_point(m) for m in moves.split()]
    return Record(
        moves=[Move(p) for p in moves], source=SourceLocation("x"), width=size, height=size
    )


def key(moves: str | list[Point], size: int | None = None) -> bytes | None:
    return game_key(record(moves, size), RENJU)


def transformed(moves: str, n: int, size: int = 15) -> list[Point]:
    t = symmetries(size, size)[n]
    return [Point(*t(m.point.x, m.point.y)) for m in record(moves).moves if m.point is not None]


def test_a_square_board_has_8_symmetries_and_a_rectangle_4() -> None:
    assert len(symmetries(15, 15)) == 8
    assert len(symmetries(15, 13)) == 4
    assert len({t(0, 1) for t in symmetries(15, 15)}) == 8  # all different


@pytest.mark.parametrize("n", range(8))
def test_the_key_is_the_same_under_every_symmetry(n: int) -> None:
    assert key(transformed(GAME, n)) == key(GAME)


games = st.lists(
    st.tuples(st.integers(0, 14), st.integers(0, 14)), min_size=1, max_size=40, unique=True
)


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 7))
def test_any_game_keeps_its_key_under_any_symmetry(points: list[tuple[int, int]], n: int) -> None:
    t = symmetries(15, 15)[n]
    original = [Point(x, y) for x, y in points]
    assert key([Point(*t(p.x, p.y)) for p in original]) == key(original)


@settings(max_examples=60, deadline=None)
@given(games.filter(lambda g: len(g) >= 6))
def test_swapping_two_moves_after_the_opening_makes_another_game(
    points: list[tuple[int, int]],
) -> None:
    moves = [Point(x, y) for x, y in points]
    swapped = list(moves)
    swapped[3], swapped[5] = swapped[5], swapped[3]  # two white stones, moves 4 and 6
    # another game unless a symmetry happens to map one onto the other
    same = any([Point(*t(p.x, p.y)) for p in swapped] == moves for t in symmetries(15, 15))
    assert (key(swapped) == key(moves)) is same


def test_the_opening_stones_count_as_a_set() -> None:
    # black's stones 1 and 3 written the other way round: the same opening, the same game
    assert key("h9 i9 h8 " + " ".join(GAME.split()[3:])) == key(GAME)
    # but black and white stones do not trade places
    assert key("i9 h8 h9 " + " ".join(GAME.split()[3:])) != key(GAME)
    # and past the opening, order is play
    moves = GAME.split()
    moves[3], moves[5] = moves[5], moves[3]
    assert key(" ".join(moves)) != key(GAME)


def test_explicit_colours_mean_the_same_as_alternation() -> None:
    plain = record(GAME)
    coloured = record(GAME)
    for n, m in enumerate(coloured.moves):
        m.color = BLACK if n % 2 == 0 else WHITE
    assert game_key(coloured, RENJU) == game_key(plain, RENJU)
    wrong = record(GAME)
    wrong.moves[4].color = WHITE  # a white stone where black was
    assert game_key(wrong, RENJU) != game_key(plain, RENJU)


def test_board_size_and_passes_are_part_of_the_game() -> None:
    assert key(GAME, size=19) != key(GAME)
    assert key(GAME, size=15) == key(GAME)  # the ruleset's size when the record states none
    with_pass = record(GAME)
    with_pass.moves.insert(5, Move(None))
    assert game_key(with_pass, RENJU) != key(GAME)


def test_the_result_and_side_information_are_not() -> None:
    a = next(read_bytes(b"black " + GAME.encode()))
    b = next(read_bytes(b"white " + GAME.encode()))
    b.metadata["black"] = "someone"
    assert game_key(a, RENJU) == game_key(b, RENJU)


def test_records_without_stones_have_no_key() -> None:
    assert game_key(unreadable("x", "broken"), RENJU) is None
    assert key([]) is None
    index = DuplicateIndex()
    assert index.seen(None, SourceLocation("a")) is None
    assert index.seen(None, SourceLocation("b")) is None


def test_the_index_remembers_the_first_occurrence() -> None:
    index = DuplicateIndex()
    first, second, third = (SourceLocation("a", n) for n in range(3))
    assert index.seen(b"k", first) is None
    assert index.seen(b"k", second) is first
    assert index.seen(b"k", third) is first


# -- renju check --duplicates ---------------------------------------------------------------------
def renju(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code, out, _ = run_cli(capsys, *args)
    return code, out


@pytest.fixture
def db(tmp_path: Path) -> Path:
    mirrored = " ".join(p.name for p in transformed(GAME, 5))
    (tmp_path / "a.moves").write_text(f"{GAME}\nh8 h9 i8\n")
    (tmp_path / "b.moves").write_text(f"h8 h9 i8\n{mirrored}\nblack {GAME}\n")
    return tmp_path


def test_duplicates_are_reported_naming_the_first_occurrence(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, out = renju(capsys, "check", str(db), "-f", "jsonl", "--duplicates", "report")
    records = [json.loads(line) for line in out.splitlines()]
    found = [
        (os.path.basename(r["source"]["path"]), r["source"]["index"], f["message"])
        for r in records
        for f in r["findings"]
        if f["code"] == "duplicate"
    ]
    a0 = f"{db / 'a.moves'}:1 [0]"
    a1 = f"{db / 'a.moves'}:2 [1]"
    suffix = " (up to a board symmetry and the order of the opening stones)"
    assert found == [
        ("b.moves", 0, f"the same game as {a1}{suffix}"),
        ("b.moves", 1, f"the same game as {a0}{suffix}"),
        ("b.moves", 2, f"the same game as {a0}{suffix}"),
    ]
    assert all(
        f["severity"] == "warning"
        for r in records
        for f in r["findings"]
        if f["code"] == "duplicate"
    )
    assert code == 0  # warnings only: below the default --fail-on error
    _, plain = renju(capsys, "check", str(db), "-f", "jsonl")
    assert '"code":"duplicate"' not in plain  # off by default


def test_duplicates_can_be_skipped(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    _, out = renju(capsys, "check", str(db), "-f", "json", "--duplicates", "skip")
    doc = json.loads(out)
    kept = [(os.path.basename(r["source"]["path"]), r["source"]["index"]) for r in doc["records"]]
    assert kept == [("a.moves", 0), ("a.moves", 1)]
    assert doc["summary"]["records"] == 2
    assert (doc["summary"]["duplicates"], doc["summary"]["skipped"]) == (3, 3)


def test_duplicates_are_the_same_with_jobs(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    args = ("check", str(db), "-f", "jsonl", "--duplicates", "report")
    assert renju(capsys, *args, "-j", "2") == renju(capsys, *args)


def test_a_damaged_copy_is_not_skipped(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the second line is the first game and a word that is no move: skipped as a copy, its
    # parse error went with it (exit 0)
    games = tmp_path / "games.txt"
    games.write_text("h8 h9 i9\nh8 h9 i9 zz\n")
    code, out, _ = run_cli(capsys, "check", str(games), "-f", "json", "--duplicates", "skip")
    doc = json.loads(out)
    assert [r["source"]["index"] for r in doc["records"]] == [0, 1] and code == 1
    codes = [f["code"] for f in doc["records"][1]["findings"]]
    assert "parse-error" in codes and "duplicate" in codes
    assert (doc["summary"]["duplicates"], doc["summary"]["skipped"]) == (1, 0)


def test_a_damaged_copy_past_the_bound_on_findings_is_not_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # past the run's bound on findings listed, the copy's parse error is counted by its
    # too-many-findings finding, not listed: the copy is not skipped as a clean one, and its
    # parse error stays in the summary and the exit code
    games = tmp_path / "games.jsonl"
    games.write_text(
        '{"moves":"h8 h9 i9 j10 a1","rule":"renju-rif"}\n'
        '{"moves":"h8 h9 i10"}\n'
        '{"moves":"h8 h9 i10","size":99}\n'
    )
    args = ("check", str(games), "-f", "json", "--duplicates", "skip")
    for limit in ("findings=1", "findings=1000"):
        code, out, _ = run_cli(capsys, *args, "--limit", limit)
        doc = json.loads(out)
        assert [r["source"]["index"] for r in doc["records"]] == [0, 1, 2] and code == 1
        assert doc["summary"]["findings"]["parse-error"] == 1
        assert (doc["summary"]["duplicates"], doc["summary"]["skipped"]) == (1, 0)


@settings(max_examples=60, deadline=None)
@given(games, games, st.integers(0, 7))
def test_keys_by_table_tell_games_apart_as_the_stone_by_stone_keys_do(
    one: list[tuple[int, int]], other: list[tuple[int, int]], n: int
) -> None:
    # the keys of stones on the board come from tables of each symmetry's images (a tree's
    # lines are keyed whole, each: a megabyte comb took 20 s stone by stone); a stone off the
    # board keeps the stone-by-stone key.  Both must say "the same game" of the same pairs.
    from renju_cli import duplicates

    first = " ".join(Point(*p).name for p in one)
    second = " ".join(Point(*p).name for p in other)
    image = transformed(first, n)
    by_table = (key(first), key(image), key(second))
    slow = duplicates._record_codes
    try:
        duplicates._record_codes = lambda *args: None
        by_stone = (key(first), key(image), key(second))
    finally:
        duplicates._record_codes = slow
    assert by_table[0] == by_table[1] and by_stone[0] == by_stone[1]
    assert (by_table[0] == by_table[2]) == (by_stone[0] == by_stone[2])


def test_a_stone_off_the_board_has_a_key_of_its_own() -> None:
    assert key("h8 h9 p16") is not None
    assert key("h8 h9 p16") == key("h8 h9 p16") != key("h8 h9 o15")


def test_a_stone_off_the_board_below_is_no_stone_on_the_board() -> None:
    # RenLib writes a row -1 (a node byte with high nibble 15): its cell by the tables was
    # another point's (b0 read as a15), and the two lines were called the same game
    below = record([parse_point("h8"), parse_point("i9"), Point(1, -1)])
    corner = record([parse_point("h8"), parse_point("i9"), Point(0, 14)])
    assert game_key(below, RENJU) != game_key(corner, RENJU)


# moves on a 5x5 board (its centre c3 and its diagonals are fixed by some symmetries, and a
# pass by all: images of such lines stay alike for long) with a colour stated or not
small_moves = st.lists(
    st.tuples(
        st.one_of(st.none(), st.tuples(st.integers(-1, 5), st.integers(-1, 5))),
        st.sampled_from([None, BLACK, WHITE]),
    ),
    max_size=120,
)


def _record_of(moves: list[tuple[tuple[int, int] | None, object]], setup: list[Point]) -> Record:
    return Record(
        moves=[
            Move(Point(*p) if p is not None else None, color=c)  # type: ignore[arg-type]
            for p, c in moves
        ],
        setup=[(p, BLACK if i % 3 else WHITE) for i, p in enumerate(setup)],
        source=SourceLocation("x"),
        width=5,
        height=5,
    )


@settings(max_examples=400, deadline=None)
@given(
    small_moves,
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=6, unique=True),
    st.sampled_from([1, 2, 4, 16]),
)
def test_the_least_image_is_the_least_of_all_images_mapped_whole(
    moves: list[tuple[tuple[int, int] | None, object]],
    setup: list[tuple[int, int]],
    first_tail: int,
) -> None:
    # The key of a tree line maps the moves by one symmetry only, chosen on the first moves
    # (narrowed on longer prefixes while several are alike).  It must be the least image of
    # all: each symmetry's image of the whole game, compared whole, as defined.  Also: the
    # codes of moves that all state their colour (worked out by loops in C) are those of the
    # same moves worked out one by one.
    from renju_cli import duplicates

    record = _record_of(moves, [Point(*p) for p in setup])
    codes = duplicates._record_codes(record, 5, 5)
    on_board = all(p is None or (0 <= p[0] < 5 and 0 <= p[1] < 5) for p, _ in moves)
    assert (codes is not None) == on_board
    if codes is None:
        return
    stones, played = codes
    # the same moves with every colour stated as the alternation gives it
    stated_record = _record_of(
        [(p, BLACK if code < 26 else WHITE) for (p, _), code in zip(moves, played, strict=True)],
        [Point(*p) for p in setup],
    )
    assert duplicates._record_codes(stated_record, 5, 5) == codes
    tables = duplicates._images(5, 5)
    head, tail = played[:3], played[3:]
    every = [
        (
            tuple(sorted(t[c] for c in stones)),
            tuple(sorted(t[c] for c in head)),
            tuple(t[c] for c in tail),
        )
        for t in tables
    ]
    kept = duplicates.FIRST_TAIL
    try:
        duplicates.FIRST_TAIL = first_tail  # (short prefixes: narrowed, then compared whole)
        assert duplicates._least_image(stones, head, tail, tables) == min(every)
    finally:
        duplicates.FIRST_TAIL = kept


def test_a_line_alike_under_symmetries_for_long_is_keyed_by_the_least_image() -> None:
    # Diagram (5x5): the stones of moves 1-40 lie on the centre c3 or are passes, which every
    # symmetry leaves where they are; only move 41 tells the eight images apart.
    #
    #   5 . . . . .
    #   4 . . . . .
    #   3 . . X . .      X: c3, then passes
    #   2 . . . . .
    #   1 . . . . O      O: move 41, e1 (the corner each symmetry moves elsewhere)
    #     a b c d e
    moves = [parse_point("c3")] + [None] * 39
    corner = [*moves, parse_point("e1")]
    keys = {
        game_key(
            Record(
                moves=[Move(Point(*t(p.x, p.y)) if p is not None else None) for p in corner],
                source=SourceLocation("x"),
                width=5,
                height=5,
            ),
            RENJU,
        )
        for t in symmetries(5, 5)
    }
    assert len(keys) == 1


@pytest.mark.parametrize(
    ("width", "height"), [(15, 15), (26, 26), (1, 1), (5, 26), (26, 5), (7, 9)]
)
def test_the_image_tables_map_each_cell_as_its_symmetry_does(width: int, height: int) -> None:
    # the tables are written out cell by cell (a call a cell was most of their cost); the
    # transforms of ``symmetries`` are the ground truth: a white stone's code is a black
    # one's plus cells + 1, the pass is a cell of its own in every frame
    from renju_cli.duplicates import _cells, _images

    cells = width * height
    cell = _cells(width, height)
    for table, t in zip(_images(width, height), symmetries(width, height), strict=True):
        for x in range(width):
            for y in range(height):
                image = cell[Point(*t(x, y))]
                assert table[cell[Point(x, y)]] == image
                assert table[cells + 1 + cell[Point(x, y)]] == cells + 1 + image
        assert table[cells] == cells and table[2 * cells + 1] == 2 * cells + 1


def test_the_tables_of_a_size_are_made_once_however_many_sizes_a_file_cycles_through() -> None:
    # 17 sizes in turn would miss a cache of 16 at every record: the tables of every size met
    # are kept (26 x 26 sizes at most)
    from renju_cli.duplicates import _images

    _images.cache_clear()
    for n in range(5 * 20):
        game = record([Point(3, 3), Point(n % 5, 4), Point(2, n % 6)], 7 + n % 20)
        assert game_key(game, RENJU) is not None
    assert _images.cache_info().misses == 20
