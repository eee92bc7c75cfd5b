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
