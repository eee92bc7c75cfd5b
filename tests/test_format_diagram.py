"""Tests of the board diagram reader: what lines it passes over, and that damage is never
dropped without a word."""

from __future__ import annotations

import io
import tracemalloc

import pytest

from renju_cli import formats
from renju_cli.coords import parse_point
from renju_cli.formats import ReadOptions, diagram, read_stream
from renju_cli.record import Color, Record

EMPTY_ROW = " ".join("." * 15)


def read_diagram(text: str, options: ReadOptions | None = None) -> list[Record]:
    stream = io.BufferedReader(io.BytesIO(text.encode()))
    return list(read_stream(stream, "pos.txt", "diagram", options))


def board(*marked: tuple[int, str]) -> list[str]:
    """The 15 rows of an empty 15x15 diagram, top row first, some replaced (row, text)."""
    rows = [EMPTY_ROW] * 15
    for row, text in marked:
        rows[row] = text
    return rows


def problems(records: list[Record]) -> list[tuple[int | None, str]]:
    return [(p.line, p.message) for r in records for p in r.problems]


def test_a_damaged_row_is_named_by_its_line() -> None:
    # the damaged row was dropped, and the message blamed row 1: "diagram row 1 from the top
    # has 15 cells; a 14-row board needs 14"
    text = "\n".join(board((7, ". . . . . . . X . . . . . . . zz"))) + "\n"
    [record] = read_diagram(text)
    assert record.unreadable and record.format == "diagram"
    assert problems([record]) == [
        (
            8,
            "line 8: '. . . . . . . X . . . . . . . zz' among the diagram's rows is no row "
            "('z' is none of the cells X, O, .): the diagram cannot be read",
        )
    ]


def test_a_row_of_another_width_is_named_by_its_line() -> None:
    text = "\n".join(["# a title", "", *board((2, " ".join("." * 16)))]) + "\n"
    [record] = read_diagram(text)
    assert record.unreadable
    assert problems([record]) == [
        (5, "line 5: diagram row 3 from the top has 16 cells where most rows have 15")
    ]
    [record] = read_diagram("\n".join(board()[1:]) + "\n")  # a row missing
    assert problems([record]) == [
        (1, "lines 1-14: the diagram has 14 row(s) of 15 cells; it must be square (N rows of N)")
    ]


def test_lines_around_the_diagram_are_records_of_their_own() -> None:
    # a move list before a diagram and two after it: 1 clean record, the 3 move lists gone
    rows = board((6, ". . . . . . . O X . . . . . ."), (7, ". . . . . . . X . . . . . . ."))
    text = "\n".join(["h8 h9 i9 j10", *rows, "h8 h9 i9 j10 k11", "h8 h8"]) + "\n"
    records = read_diagram(text)
    assert [(r.source.index, r.source.line, r.unreadable) for r in records] == [
        (0, 1, True),
        (1, 2, False),
        (2, 17, True),
        (3, 18, True),
    ]
    assert records[1].setup == [
        (parse_point("h8"), Color.BLACK),
        (parse_point("h9"), Color.WHITE),
        (parse_point("i9"), Color.BLACK),
    ]
    assert problems(records)[0] == (
        1,
        "line 1: 'h8 h9 i9 j10' is neither a diagram row ('h' is none of the cells X, O, .), "
        "a column label nor a # comment: not read",
    )
    assert [line for line, _ in problems(records)] == [1, 17, 18]


def test_labels_comments_and_the_show_legend_are_passed_over() -> None:
    text = (
        "# black to play\n"
        "   a b c d e f g\n"
        " 7 . . X . . . . 7\n"
        " 6 . O X . . . . 6\n"
        " 5 . . X O . . . 5\n"
        " 4 . . X . O . . 4\n"
        " 3 . . . . . . . 3\n"
        " 2 . . . . . . . 2\n"
        " 1 O . . . . . . 1\n"
        "   A B C D E F G\n"
        "   1 2 3 4 5 6 7\n"
        "\n"
        "8 move(s), black to move\n"
    )
    [record] = read_diagram(text)
    assert not record.problems and record.width == 7 and len(record.setup) == 8
    assert record.source.line == 3  # the top row
    # the Go habit of skipping i in column labels
    [record] = read_diagram("\n".join(board()) + "\n" + " ".join("abcdefghjklmnop") + "\n")
    assert not record.problems


def test_a_mark_inside_a_row_is_damage() -> None:
    # a forbidden-point mark of ``renju show`` counted as a row number: a row one cell short
    rows = board((9, "6 . . . . . . . 3 . . . . . . . 6"))
    records = read_diagram("\n".join(rows) + "\n")
    assert problems(records) == [
        (
            10,
            "line 10: '6 . . . . . . . 3 . . . . . . . 6' among the diagram's rows is no row "
            "('3' is none of the cells X, O, .): the diagram cannot be read",
        )
    ]


def test_damaged_lines_are_bounded_per_record_and_records_per_file() -> None:
    rows = [EMPTY_ROW if n % 2 else "?" for n in range(1, 60)]  # 29 damaged lines among rows
    [record] = read_diagram("\n".join(rows) + "\n")
    assert len(record.problems) == 21 and record.unreadable
    assert record.problems[-1].message == "and 9 more such lines, not listed"
    records = read_diagram("\n".join(board()) + "\n" + "zz\n" * 10, ReadOptions(max_records=4))
    assert [r.source.line for r in records] == [1, 16, 17, 18, 19]
    assert "more than 4 records" in records[-1].problems[0].message


def test_damaged_lines_past_those_listed_are_counted_wherever_they_lie() -> None:
    # the lines past the 20 listed are only counted now (each was held and worded): the first
    # ones are still listed with their lines, the count and the line of the first left out
    # still add up, and damage after the last row is still a record of its own per line
    text = "X . X . X\n" * 5 + "z\n" * 30 + "# c\n" + "\ufffd\n" * 10 + "X . X . X\nq\nq\n"
    diagram_record, *after = read_diagram(text)
    said = problems([diagram_record])
    assert len(said) == 21 and diagram_record.unreadable and diagram_record.source.line == 1
    assert said[0] == (
        6,
        "line 6: 'z' among the diagram's rows is no row ('z' is none of the cells X, O, .): "
        "the diagram cannot be read",
    )
    assert [line for line, _ in said[:20]] == list(range(6, 26))
    assert said[20] == (26, "and 20 more such lines, not listed")  # 10 'z', 10 U+FFFD
    assert [(r.source.index, r.source.line) for r in after] == [(1, 48), (2, 49)]
    assert problems(after)[0] == (
        48,
        "line 48: 'q' is neither a diagram row ('q' is none of the cells X, O, .), a column "
        "label nor a # comment: not read",
    )
    # rows of another width: listed and counted the same way
    rows = [EMPTY_ROW] * 10 + [" ".join("." * 14)] * 25 + [EMPTY_ROW] * 20
    [record] = read_diagram("\n".join(rows) + "\n")
    said = problems([record])
    assert said[0] == (
        11,
        "line 11: diagram row 11 from the top has 14 cells where most rows have 15",
    )
    assert [line for line, _ in said[:20]] == list(range(11, 31))
    assert said[20:] == [
        (31, "and 5 more rows of another width, not listed"),
        (1, "lines 1-55: the diagram has 55 row(s) of 15 cells; it must be square (N rows of N)"),
    ]


@pytest.mark.parametrize(
    "data",
    [
        b"X . X . X\n" * 5 + b"\xff\n" * 65_500 + b"X . X . X\n",  # bad bytes between rows
        b"X\n" + b"z\n" * 65_500 + b"X\n",  # damage between two rows
        b"X\nz\n" * 32_768,  # damage inside short rows, and one line after them
    ],
    ids=["bad-bytes", "between-two-rows", "inside-short-rows"],
)
def test_a_file_of_damaged_lines_is_read_in_memory_of_its_size(data: bytes) -> None:
    # every damaged line was held and worded before 20 were kept: 40 to 90 MB at 256 KB
    # (400 MB at 1 MB, 20 to 45 MB at the 128 KB here); now a few copies of the text
    tracemalloc.start()
    try:
        records = list(diagram.read(io.BytesIO(data), "d.board", ReadOptions()))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(records[0].problems) == 21 and records[0].problems[-1].message.startswith("and ")
    assert peak < 6_000_000


def test_a_file_of_labels_and_comments_has_nothing_to_check() -> None:
    [record] = read_diagram("# nothing yet\n   a b c d e\n")
    assert record.unreadable and "no record found (read as diagram)" in record.problems[0].message
    assert list(diagram.records_from_text("# nothing yet\n")) == []


def test_a_byte_order_mark_and_odd_line_breaks_in_comments() -> None:
    # Notepad's UTF-8 byte order mark before the labels made an unreadable record of them; a
    # comment holding U+2028 or a form feed split into lines (``splitlines``), so the line
    # numbers of later damage drifted
    rows = board((7, "X" + " ." * 14))
    text = "\ufeff   a b c d e f g h i j k l m n o\n" + "\n".join(rows) + "\n"
    data = text.encode("utf-8")
    [record] = list(read_stream(io.BufferedReader(io.BytesIO(data)), "d.txt", "diagram"))
    assert not record.problems and len(record.setup) == 1
    damaged = rows[:]
    damaged[5] = damaged[5].replace(".", "Q", 1)
    text = "# caf\u00e9\u2028more\x0c\n" + "\n".join(damaged) + "\n"
    [record] = read_diagram(text)
    assert problems([record])[0][0] == 7  # the comment is line 1, the damaged row line 7


def test_rows_numbered_from_1_at_the_top_are_placed_by_their_numbers() -> None:
    # a board written with row 1 at the top (the numbers say so) was read top row first: the
    # stone on the row labelled 1 went to a15, without a word.  Numbered 15 at the top (as
    # ``renju show`` writes) or not numbered, the top row is row 15.
    rows = board((0, "X" + " ." * 14))
    upside = "\n".join(f"{k:2d} {row} {k}" for k, row in enumerate(rows, start=1)) + "\n"
    [record] = read_diagram(upside)
    assert record.setup == [(parse_point("a1"), Color.BLACK)]
    usual = "\n".join(f"{16 - k:2d} {row}" for k, row in enumerate(rows, start=1)) + "\n"
    [record] = read_diagram(usual)
    assert record.setup == [(parse_point("a15"), Color.BLACK)]
    [record] = read_diagram("\n".join(rows) + "\n")
    assert record.setup == [(parse_point("a15"), Color.BLACK)]


def detected(data: bytes, path: str = "pos.txt") -> list[Record]:
    """The records of ``data`` read as a file named ``path``, its format detected."""
    return list(read_stream(io.BufferedReader(io.BytesIO(data)), path))


def test_a_diagram_whose_head_is_not_valid_utf8_is_still_a_diagram() -> None:
    # a head that did not decode as UTF-8 was no diagram to the sniffer: the .txt file went to
    # the move list reader, one bogus record per row
    rows = board((7, "X" + " ." * 14), (8, ". O" + " ." * 13))
    # cp1252: a copyright sign and an accent in the comments above the board
    cp1252 = ("# \u00a9 2024 partie comment\u00e9e\n" + "\n".join(rows) + "\n").encode("cp1252")
    [record] = detected(cp1252)
    assert record.format == "diagram" and not record.problems
    assert sorted(record.setup) == [
        (parse_point("a8"), Color.BLACK),
        (parse_point("b7"), Color.WHITE),
    ]
    # UTF-8 cut by the 4 KiB head inside a character: cells of three bytes each ("\u00b7" two)
    wide = ["\u25cf" + " \u00b7" * 14] + ["\u00b7" + " \u00b7" * 14] * 14
    text = "\n".join(wide) + "\n" + "# " + "\u2014" * 2000 + "\n"
    data = text.encode("utf-8")
    cut = formats.HEAD_BYTES
    assert len(data) > cut
    with pytest.raises(UnicodeDecodeError):
        data[:cut].decode("utf-8")
    [record] = detected(data)
    assert record.format == "diagram" and not record.problems
    assert record.setup == [(parse_point("a15"), Color.BLACK)]
    assert diagram.sniff(data[:cut]) == 2
    # bytes that decode to nothing like a row stay no diagram
    assert diagram.sniff(b"\xff\xfe\xfd\n" * 10) == 0
    assert diagram.sniff("h8 h9 i8 \u00e9\n".encode("cp1252") * 10) == 0


def test_the_sniffer_ends_lines_where_the_reader_does() -> None:
    # ``str.splitlines`` also ends lines at a form feed, NEL or U+2028, the reader at LF, CR LF
    # and CR only: rows 3 and 4 joined by a form feed were two rows to the sniffer (a diagram)
    # and one damaged line to the reader
    #   . . . . .        row 1
    #   . . . . .        row 2
    #   . . . . .\f. . . . .   <- one line
    #   . . . . .        row 5
    rows = [EMPTY_ROW] * 5
    assert diagram.sniff(("\n".join(rows) + "\n").encode()) == 2
    joined = "\n".join([rows[0], rows[1], rows[2] + "\f" + rows[3], rows[4]]) + "\n"
    assert diagram.sniff(joined.encode()) == 0


def test_parse_board_places_the_stones_of_one_diagram() -> None:
    rows = board((0, "X . . . . . . . . . . . . . O"), (7, ". . . . . . . X . . . . . . ."))
    text = "# a comment\n   a b c d e f g h i j k l m n o\n" + "\n".join(rows) + "\n"
    placed = diagram.parse_board(text)
    assert placed.width == placed.height == 15 and placed.stones == 3
    assert placed.to_diagram() == diagram.parse_board(placed.to_diagram()).to_diagram()
    for bad, said in (("", "no board rows"), ("\n".join(board((3, "X X"))), "line 4")):
        with pytest.raises(ValueError, match=said):
            diagram.parse_board(bad)
