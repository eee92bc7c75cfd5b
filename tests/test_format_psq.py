"""Tests of the Piskvork ``.psq`` reader/writer and of Gomocup opening files.

The real samples are in ``shared/corpus/psq`` (see ``shared/corpus/SOURCES.md``); coordinates are
pinned in standard notation, worked out by hand from the files.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, detect, gomocup_openings, psq
from renju_cli.record import BLACK, WHITE, DeclaredResult, Move, Record, SourceLocation

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "psq"
GAME = CORPUS / "1x0-16_2.psq"
PISKVORK_OPENINGS = CORPUS / "piskvork_openings.txt"
JUDGE_OPENINGS = CORPUS / "gomocupjudge_openings_20.txt"
ONLINE_OPENINGS = CORPUS / "gomocuponline_openings.txt"


def sample(path: Path) -> bytes:
    if not path.is_file():
        pytest.skip(f"real sample {path} is absent (shared/corpus is not beside the repository)")
    return path.read_bytes()


def read_psq(data: str | bytes, **options: Any) -> Record:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    records = list(psq.read(io.BytesIO(raw), "mem.psq", ReadOptions(**options)))
    assert len(records) == 1
    return records[0]


def names(record: Record) -> list[str]:
    return ["pass" if m.point is None else m.point.name for m in record.moves]


# --- the real game ----------------------------------------------------------------------------


def test_real_game() -> None:
    raw = sample(GAME)
    assert b"\r\n" in raw  # CRLF line ends, as Piskvork writes them
    rec = read_psq(raw)
    assert (rec.width, rec.height) == (20, 20)  # "Piskvorky 20x20, 7:7, 0"
    assert rec.metadata["psq_levels"] == "7:7"
    assert rec.metadata["psq_first"] == "0"
    assert len(rec.moves) == 16
    # First stone "10,10": column 10 from the left, row 10 from the top, 1-based.  Column 10 is
    # "j" (a b c d e f g h i j: our columns include "i"; the Go convention that skips "i" would
    # call it "k"), and row 10 from the top of 20 rows is row 20 - 10 + 1 = 11 from the bottom:
    # j11 = Point(9, 10).  "11,12" -> k, 20 - 12 + 1 = 9 -> k9; "10,13" -> j8; "11,13" -> k8.
    assert rec.moves[0].point == Point(9, 10)
    assert names(rec)[:4] == ["j11", "k9", "j8", "k8"]
    assert names(rec) == [
        "j11",
        "k9",
        "j8",
        "k8",
        "i10",
        "l9",
        "h9",
        "k12",
        "k10",
        "m10",
        "n11",
        "n9",
        "l11",
        "m9",
        "j9",
        "o9",
    ]
    # the game ends on white's five k9 l9 m9 n9 o9 (the last stone, "15,12", is o9)
    white = {m.point for m in rec.moves[1::2]}
    assert {parse_point(p) for p in ["k9", "l9", "m9", "n9", "o9"]} <= white
    assert [m.color for m in rec.moves] == [None] * 16  # psq does not state colours
    assert rec.moves[0].token == "10,10,456"
    assert [m.line for m in rec.moves] == list(range(2, 18))
    assert rec.metadata["black"] == "pisq7.exe"  # the first name is the first mover's
    assert rec.metadata["white"] == "renjusolver.ZIP"
    assert rec.metadata["result_code"] == "0"
    assert rec.declared_result is None  # code 0: a normal end, the board tells
    assert rec.problems == [] and rec.notes == []
    assert rec.format == "psq"
    assert psq.sniff(raw) == 2
    assert gomocup_openings.sniff(raw) == 0
    assert detect(raw[:4096], "game.psq") == "psq"


def test_real_game_roundtrip() -> None:
    rec = read_psq(sample(GAME))
    out = io.StringIO()
    psq.write([rec], out)
    text = out.getvalue()
    assert text.splitlines()[:3] == ["Piskvorky 20x20, 7:7, 0", "10,10,456", "11,12,4500"]
    assert text.splitlines()[-3:] == ["pisq7.exe", "renjusolver.ZIP", "0"]
    again = read_psq(text)
    assert [m.point for m in again.moves] == [m.point for m in rec.moves]
    assert again.metadata == rec.metadata
    assert (again.width, again.height) == (20, 20)


def test_names_are_in_player_order_and_the_header_says_who_moved_first() -> None:
    # Piskvork writes the engines' names in player order, and the header's last number is the
    # player (0 or 1) who moved first: with 1, the second name is black's
    game = "10,10,456\n11,12,4500\n11,11,300\n"
    first = read_psq(f"Piskvorky 20x20, 7:7, 0\n{game}alpha.exe\nbeta.exe\n-1\n")
    second = read_psq(f"Piskvorky 20x20, 7:7, 1\n{game}alpha.exe\nbeta.exe\n-1\n")
    assert (first.metadata["black"], first.metadata["white"]) == ("alpha.exe", "beta.exe")
    assert (second.metadata["black"], second.metadata["white"]) == ("beta.exe", "alpha.exe")
    assert second.metadata["psq_first"] == "1"
    # written back in player order, and read back the same
    out = io.StringIO()
    psq.write([second], out)
    assert out.getvalue().splitlines()[-3:] == ["alpha.exe", "beta.exe", "-1"]
    assert read_psq(out.getvalue()).metadata == second.metadata
    # a name alone is player 1's: white's when player 2 moved first, and written back so;
    # player 2's name alone cannot be written (it would be read back as player 1's)
    alone = read_psq(f"Piskvorky 20x20, 7:7, 1\n{game}alpha.exe\n-1\n")
    assert alone.metadata["white"] == "alpha.exe" and "black" not in alone.metadata
    out = io.StringIO()
    psq.write([alone], out)
    assert read_psq(out.getvalue()).metadata == alone.metadata
    for header, seat in (("1", "black"), ("0", "white")):
        record = read_psq(f"Piskvorky 20x20, 7:7, {header}\n{game}-1\n")
        record.metadata[seat] = "alpha.exe"
        out = io.StringIO()
        psq.write([record], out)
        assert "alpha.exe" not in out.getvalue()


# --- hand-written psq -------------------------------------------------------------------------


def test_lf_no_time_and_non_square() -> None:
    rec = read_psq("Piskvorky 15x10, 1:1, 0\n8,5\n1,1,0\n15,10\n")
    assert (rec.width, rec.height) == (15, 10)
    assert names(rec) == ["h6", "a10", "o1"]


def test_moves_stop_at_the_first_other_line() -> None:
    rec = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\nbrain-a\n3,3,0\nbrain-b\n-1\n")
    assert names(rec) == ["h8", "i7"]
    assert rec.metadata["black"] == "brain-a"
    assert rec.metadata["white"] == "brain-b"
    assert rec.metadata["result_code"] == "-1"
    # a stone after the moves stopped: what stopped them was damage, and the stones after it
    # are lost: a finding (it was a note, and the record passed as clean)
    assert [p.message for p in rec.problems] == [
        "line 4: 'brain-a' is no move, and the moves stop there: the stone at line 5 ('3,3,0') "
        "and any after it are not read"
    ]


@pytest.mark.parametrize(
    "data",
    [
        "Piskvorky 15x15, 11:11, 0\r\r\n8,8,0\r\r\n9,9,0\r\r\n9,8,0\r\r\n",  # CR CR LF
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n\n9,9,0\n\n9,8,0\n",  # blank lines
    ],
)
def test_blank_lines_do_not_end_the_moves(data: str) -> None:
    # the moves stopped at the first blank line: 0 or 1 of 3 moves, no finding
    rec = read_psq(data)
    assert names(rec) == ["h8", "i7", "i8"] and not rec.problems


@pytest.mark.parametrize(
    ("last", "line"),
    [
        ("11,", "11,"),  # "11,12" cut after its comma: it was taken for an engine's name
        ("11,12,", "11,12,"),  # cut after the second comma
        ("11,12,4500,7", "11,12,4500,7"),  # a stone line with one number too many
    ],
)
def test_a_stone_line_cut_short_is_a_finding(last: str, line: str) -> None:
    rec = read_psq(f"Piskvorky 20x20, 7:7, 0\r\n10,10,456\r\n11,12,4500\r\n{last}")
    assert names(rec) == ["j11", "k9"] and "black" not in rec.metadata
    assert [(p.message, p.line, p.fatal) for p in rec.problems] == [
        (
            f"line 4: {line!r} is no stone line (x,y or x,y,time): cut short or damaged, "
            "it is not read",
            4,
            False,
        )
    ]


def test_a_cut_stone_line_among_the_trailer_and_before_late_stones() -> None:
    rec = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,\n9,9,0\nbrain-a\n-1\n")
    assert names(rec) == ["h8"] and rec.metadata["black"] == "brain-a"
    assert [p.line for p in rec.problems] == [3, 3]
    assert "'9,' is no stone line" in rec.problems[0].message
    assert "the stone at line 4 ('9,9,0')" in rec.problems[1].message


def test_lines_end_at_lf_and_cr_only_not_at_a_latin_1_nel_in_a_name() -> None:
    # a brain's name in Latin-1 with a byte 0x85 (NEL) and a form feed: ``splitlines`` ended
    # lines at both, and the stone line after the names was told at line 7, not line 5
    #   1 Piskvorky 15x15, 11:11, 0
    #   2 8,8,0
    #   3 brain\x85a      <- one line, as an editor shows it
    #   4 brain\x0cb
    #   5 9,
    raw = b"Piskvorky 15x15, 11:11, 0\n8,8,0\nbrain\x85a\nbrain\x0cb\n9,\n"
    rec = read_psq(raw)
    assert names(rec) == ["h8"]
    assert [p.line for p in rec.problems] == [5]


def test_judge_line() -> None:
    rec = read_psq(
        "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\na.zip\r\nb.zip\r\n-1\r\n1,freestyle\r\n"
    )
    assert rec.metadata["judge_result"] == "1"
    assert rec.metadata["tournament"] == "freestyle"
    assert rec.metadata["result_code"] == "-1"


def test_off_board_points() -> None:
    # right of the board and above it are still points of our frame: kept for the referee
    rec = read_psq("Piskvorky 15x15, 1:1, 0\n16,8,0\n8,-1,0\n")
    assert rec.moves[0].point == Point(15, 7)
    assert rec.moves[1].point == Point(7, 16)
    assert not any(m.point.on_board(15, 15) for m in rec.moves if m.point is not None)
    assert rec.problems == []
    # left of the board or below it cannot be represented: a problem, and the moves stop
    rec = read_psq("Piskvorky 15x15, 1:1, 0\n8,8,0\n8,16,0\n9,9,0\n")
    assert names(rec) == ["h8"]
    assert rec.problems[0].line == 3
    rec = read_psq("Piskvorky 15x15, 1:1, 0\n-1,8,0\n")
    assert rec.moves == [] and rec.problems[0].line == 2


# --- psq written by scripts -------------------------------------------------------------------


def test_a_zero_proves_coordinates_counted_from_0() -> None:
    # no time field, "-1" last, no names, no final newline; "0,14" was outside the board
    rec = read_psq("Piskvorky 15x15, 0:0, 0\n7,7\n0,14\n14,0\n-1")
    assert names(rec) == ["h8", "a1", "o15"]
    (found,) = rec.problems
    assert found.severity == "info" and found.line == 3
    assert "counted from 0" in found.message and "'0,14'" in found.message
    assert rec.metadata["result_code"] == "-1" and rec.declared_result is None
    assert "black" not in rec.metadata and rec.notes == []


def test_the_board_size_proves_coordinates_counted_from_1() -> None:
    rec = read_psq("Piskvorky 15x15, 0:0, 0\n9, 9\n10, 9\n8, 15\n-1")  # "x, y" with a blank
    assert names(rec) == ["i7", "j7", "h1"]
    (found,) = rec.problems
    assert found.severity == "info" and found.line == 4
    assert "counted from 1" in found.message and "board's size" in found.message


def test_nothing_tells_so_piskvork_counts_from_1() -> None:
    # without time fields the file is no Piskvork file: the finding says what was assumed
    rec = read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n9,9\n")
    assert names(rec) == ["h8", "i7"]
    (found,) = rec.problems
    assert found.severity == "info"
    assert "no 0 and no coordinate of the board's size tell" in found.message
    # as Piskvork writes it (time fields): nothing to say
    assert not read_psq("Piskvorky 15x15, 1:1, 0\n8,8,0\n9,9,0\n").problems


def test_a_zero_and_the_board_size_together_count_from_1() -> None:
    # neither origin fits: Piskvork's is kept, and the stone that fits no board is a problem
    rec = read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n0,15\n")
    assert names(rec) == ["h8"]
    assert [p.severity for p in rec.problems] == ["info", ""]
    assert "outside the 15x15 board" in rec.problems[1].message


GENOPEN = CORPUS / "genopen_script_psq"


@pytest.mark.parametrize(
    ("name", "moves", "origin"),
    [("22.psq", 83, "counted from 0"), ("23.psq", 72, "counted from 1")],
)
def test_psq_written_by_a_script_is_read_whole(name: str, moves: int, origin: str) -> None:
    rec = read_psq(sample(GENOPEN / name))
    assert len(rec.moves) == moves
    (found,) = rec.problems
    assert found.severity == "info" and origin in found.message
    assert rec.metadata["result_code"] == "-1" and rec.declared_result is None


# --- result codes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stones", "code", "winner", "reason"),
    [
        (3, "15", "black", "time"),  # white was to move and ran out of time
        (4, "15", "white", "time"),
        (5, "-2", "black", "forfeit"),  # the engine to move failed
        (5, "0", None, None),  # a normal end: the board tells
        (5, "-1", None, None),  # saved by hand
    ],
)
def test_piskvork_codes_declare_what_they_say(
    stones: int, code: str, winner: str | None, reason: str | None
) -> None:
    lines = "".join(f"{i + 1},1,0\n" for i in range(stones))
    rec = read_psq(f"Piskvorky 15x15, 1:1, 0\n{lines}a.exe\nb.exe\n{code}\n")
    declared = rec.declared_result
    if winner is None:
        assert declared is None
    else:
        assert declared is not None
        assert (declared.winner, declared.reason, declared.text) == (winner, reason, code)
    assert rec.notes == []


def test_an_unknown_code_is_kept_with_a_note() -> None:
    rec = read_psq("Piskvorky 15x15, 1:1, 0\n8,8,0\n7\n")
    assert rec.metadata["result_code"] == "7" and rec.declared_result is None
    assert rec.notes and "result code 7" in rec.notes[0]


def test_a_declared_time_out_is_written_as_its_code() -> None:
    rec = Record(
        moves=[Move(parse_point(t)) for t in ["h8", "i9", "j10"]],
        source=SourceLocation("x"),
        width=15,
        height=15,
        declared_result=DeclaredResult("black", "time", "B+T"),
    )
    text = psq.psq_text(rec)
    assert text.splitlines()[-1] == "15"
    again = read_psq(text)
    assert again.declared_result is not None
    assert (again.declared_result.winner, again.declared_result.reason) == ("black", "time")


def test_no_header_and_bad_header() -> None:
    rec = read_psq("8,8,0\n9,9,0\n", board_size=15)
    assert names(rec) == ["h8", "i7"]
    assert "header" in rec.problems[0].message and not rec.unreadable
    assert read_psq("hello\n").unreadable
    assert read_psq("").unreadable
    assert read_psq("Piskvorky 99x99, 1:1, 0\n1,1,0\n").unreadable


def test_max_moves() -> None:
    rec = read_psq("Piskvorky 15x15, 1:1, 0\n" + "8,8,0\n" * 10, max_moves=4)
    assert len(rec.moves) == 4
    assert "more than 4" in rec.problems[0].message


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_never_raises(data: bytes) -> None:
    read_psq(b"Piskvorky 20x20, 7:7, 0\r\n" + data)
    read_psq(data)


# --- writer -----------------------------------------------------------------------------------


def test_write_built_record() -> None:
    rec = Record(
        moves=[Move(parse_point(t)) for t in ["h8", "i9", "a1", "o15"]],
        source=SourceLocation("x"),
        width=15,
        height=15,
        metadata={"black": "me", "white": "you"},
    )
    out = io.StringIO()
    psq.write_one(rec, out)
    assert out.getvalue() == ("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n1,15,0\n15,1,0\nme\nyou\n")
    again = read_psq(out.getvalue())
    assert [m.point for m in again.moves] == [m.point for m in rec.moves]
    assert (again.metadata["black"], again.metadata["white"]) == ("me", "you")


def test_write_setup_as_leading_stones() -> None:
    rec = Record(
        moves=[Move(parse_point("j8"))],
        source=SourceLocation("x"),
        width=15,
        height=15,
        setup=[(parse_point("h8"), BLACK), (parse_point("h9"), WHITE)],
    )
    again = read_psq(psq.psq_text(rec))
    assert names(again) == ["h8", "h9", "j8"]


def test_write_without_a_size_picks_a_gomocup_board() -> None:
    small = Record(moves=[Move(parse_point("h8"))], source=SourceLocation("x"))
    assert psq.psq_text(small).startswith("Piskvorky 15x15,")
    big = Record(moves=[Move(parse_point("s19"))], source=SourceLocation("x"))
    assert psq.psq_text(big).startswith("Piskvorky 20x20,")
    assert names(read_psq(psq.psq_text(big))) == ["s19"]


@pytest.mark.parametrize(
    "record",
    [
        Record(moves=[Move(None)], source=SourceLocation("x"), width=15, height=15),
        Record(
            moves=[Move(parse_point("h8"), WHITE)], source=SourceLocation("x"), width=15, height=15
        ),
        Record(
            moves=[Move(parse_point("h8"))],
            source=SourceLocation("x"),
            width=15,
            height=15,
            setup=[(parse_point("a1"), WHITE)],
        ),
        Record(moves=[Move(Point(3, 20))], source=SourceLocation("x"), width=15, height=15),
        # a name of two lines would be written as two names: "a", then "b" as white's, and
        # white's own lost
        Record(
            moves=[Move(parse_point("h8"))],
            source=SourceLocation("x"),
            width=15,
            height=15,
            metadata={"black": "a\nb", "white": "w"},
        ),
    ],
    ids=["pass", "colour", "setup", "below-board", "name-of-two-lines"],
)
def test_write_rejects_what_psq_cannot_hold(record: Record) -> None:
    with pytest.raises(ValueError):
        psq.write_one(record, io.StringIO())


def test_write_exactly_one_record() -> None:
    rec = Record(moves=[Move(parse_point("h8"))], source=SourceLocation("x"), width=15, height=15)
    out = io.StringIO()
    with pytest.raises(ValueError, match="one game"):
        psq.write([rec, rec], out)
    assert out.getvalue() == ""
    with pytest.raises(ValueError):
        psq.write([], out)


# --- Gomocup opening files --------------------------------------------------------------------


def read_openings(path: Path, size: int | None = None) -> list[Record]:
    raw = sample(path)
    if size is None:
        return list(gomocup_openings.read(io.BytesIO(raw), str(path), ReadOptions()))
    return list(psq.read_openings(io.BytesIO(raw), str(path), size, size))


def test_piskvork_openings() -> None:
    raw = sample(PISKVORK_OPENINGS)
    assert gomocup_openings.sniff(raw) == 1
    assert psq.sniff(raw) == 0
    records = read_openings(PISKVORK_OPENINGS, 15)
    assert len(records) == 41
    assert [len(r.moves) for r in records] == [3] * 22 + [5] * 18 + [0]
    # "0,0, 1,0, 1,3": the centre h8, one column right (i8), three rows DOWN from i8 (i5)
    assert names(records[0]) == ["h8", "i8", "i5"]
    assert records[0].format == "gomocup-opening"
    assert (records[0].source.index, records[0].source.line) == (0, 1)
    assert records[40].source.line == 41
    # the last opening "-8,-6, ..." needs 17 columns: on 15x15 it cannot be placed
    assert records[40].problems and records[40].problems[0].fatal
    assert all(not r.problems for r in records[:40])
    # read through the format module: the file does not fit on 15x15, so it is read on 20x20
    auto = read_openings(PISKVORK_OPENINGS)
    assert len(auto) == 41 and all(not r.problems for r in auto)
    assert (auto[0].width, auto[0].height) == (20, 20)
    assert names(auto[0]) == ["k10", "l10", "l7"]  # centre of 20x20: column 11 (k), row 10
    assert names(auto[40])[:2] == ["c16", "d16"]  # -8,-6 -> column 2 (c), top row 4 -> row 16


def test_gomocupjudge_openings_20() -> None:
    records = read_openings(JUDGE_OPENINGS, 20)
    assert len(records) == 6
    # SOURCES.md says one opening "has 70 stones"; its line holds 82 numbers, i.e. 41 stones
    assert [len(r.moves) for r in records] == [3, 7, 3, 3, 3, 41]
    # "-7,-8, -6,-9, -3,-9": centre (10,10) from the top-left; (3, 2) -> d, row 20-2 = 18
    assert names(records[0]) == ["d18", "e19", "h19"]
    # "-4,-10": the top row; only the centre 20 // 2 = 10 puts it on the board
    assert records[4].moves[0].point == parse_point("g20")
    assert names(records[5])[:3] == ["e9", "e10", "b9"]  # "-6,1, -6,0, -9,1"
    assert all(not r.problems for r in records)
    assert all(r.moves[-1].point is not None and r.moves[-1].point.on_board(20) for r in records)


def test_gomocuponline_openings_no_final_newline() -> None:
    raw = sample(ONLINE_OPENINGS)
    assert not raw.endswith(b"\n")
    records = read_openings(ONLINE_OPENINGS, 20)
    assert len(records) == 3
    assert [len(r.moves) for r in records] == [5, 4, 5]
    assert names(records[0]) == ["i19", "j19", "l19", "k17", "k16"]
    assert names(records[2]) == ["b19", "b18", "e18", "e16", "e15"]
    assert all(not r.problems for r in records)


def test_openings_sniff_and_errors() -> None:
    assert gomocup_openings.sniff(b"0,0, 1,0, 1,3\r\n0,0,1,1\n") == 1
    assert gomocup_openings.sniff(b"0,0, 1,0, 1\n") == 0  # odd count
    assert gomocup_openings.sniff(b"h8 h9\n") == 0
    assert gomocup_openings.sniff(b"") == 0
    records = list(psq.read_openings(io.BytesIO(b"0,0, 1,1\n\nnot an opening\n"), "o.txt"))
    assert len(records) == 2
    assert names(records[0]) == ["h8", "i7"]
    assert records[1].unreadable and records[1].source.line == 3


def test_head_lines_leave_out_the_line_a_full_head_cuts() -> None:
    # CR, LF and CR LF end lines; the BOM is no part of the first
    assert psq.head_lines(b"\xef\xbb\xbfa\rb\r\nc\n") == ([b"a", b"b", b"c"], False)
    assert psq.head_lines(b"a\nb") == ([b"a", b"b"], False)  # a short head is all there is
    full = b"0,0\n" * 1023 + b"0,0x"  # a detection head of 4,096 bytes, cut in a line
    assert psq.head_lines(full) == ([b"0,0"] * 1023, True)
    lines, cut = psq.head_lines(b"0,0\n" * 1024)  # full, but it ends at a line end
    assert not cut and len(lines) == 1024


def test_openings_writer_roundtrip() -> None:
    text = "0,0, 1,0, 1,3\n-2,-1, 4,4\n"
    records = list(psq.read_openings(io.BytesIO(text.encode()), "o.txt"))
    out = io.StringIO()
    gomocup_openings.write(records, out)
    assert out.getvalue() == text


def test_repeated_opening_lines_are_records_of_their_own() -> None:
    raw = b"0,0, 1,1\n0,0, 1,1\n \t\xe3\x80\x80\n9,9\n9,9\n0,0, 1,1\n"  # U+3000: a blank line
    records = list(psq.read_openings(io.BytesIO(raw), "o.txt"))
    assert [(r.source.index, r.source.line) for r in records] == [
        (0, 1),
        (1, 2),
        (2, 4),
        (3, 5),
        (4, 6),
    ]
    assert [names(r) for r in records] == [["h8", "i7"]] * 2 + [[], []] + [["h8", "i7"]]
    assert records[0].moves[1] == Move(parse_point("i7"), line=1, token="1,1")
    # 9,9 is off 15x15: the same problem, on each record's own line
    assert [(p.line, p.fatal) for r in records[2:4] for p in r.problems] == [(4, True), (5, True)]
    assert records[2].problems[0].message.startswith("stone 1 (9,9) lies beyond")
    # nothing mutable is shared between the records of one line
    for attr in ("moves", "metadata", "notes", "problems"):
        assert len({id(getattr(r, attr)) for r in records}) == 5, attr
    assert records[0].moves[0] is not records[1].moves[0]
    assert records[2].problems[0] is not records[3].problems[0]


def test_repeated_lines_and_the_20x20_fallback() -> None:
    raw = b"0,0\n" * 3 + b"-10,-10\n" + b"0,0\n"
    options = ReadOptions(max_moves=1)
    records = list(gomocup_openings.read(io.BytesIO(raw), "o.txt", options))
    assert len(records) == 5
    assert all((r.width, r.height) == (20, 20) for r in records)
    assert all(r.notes == [records[0].notes[0]] and "20x20" in r.notes[0] for r in records)
    assert records[0].notes is not records[1].notes
    assert [names(r) for r in records] == [["k10"]] * 3 + [["a20"]] + [["k10"]]
    (two,) = gomocup_openings.read(io.BytesIO(b"0,0, 1,1\n"), "o.txt", options)
    assert names(two) == ["h8"] and two.problems[0].message == "more than 1 stones"


@pytest.mark.parametrize(
    ("size", "said"),
    [
        ("30x30", "30x30"),
        ("99999999x2", "99999999x2"),  # once: "not a psq record: no header and no moves"
        ("9" * 5000 + "x15", "999999999999... (5000 digits)x15"),
    ],
)
def test_a_header_with_a_board_size_out_of_range_says_so(size: str, said: str) -> None:
    data = f"Piskvorky {size}, 11:11, 0\n1,1,0\n2,2,0\n".encode()
    assert detect(data[:4096], "game.psq") == "psq"
    [record] = psq.read(io.BytesIO(data), "game.psq", ReadOptions())
    assert record.unreadable
    assert record.problems[0].message == f"unsupported board size {said} (sizes 5 to 26 are read)"


def test_a_trailer_line_past_max_string_is_cut_with_a_note() -> None:
    # an engine name of any length was cut to max_string without a word
    rec = read_psq("Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,0\n" + "x" * 300 + "\n-1\n",
                   max_string=100)  # fmt: skip
    assert len(rec.moves) == 2
    assert "line 4: longer than 100 characters, cut" in rec.notes


def test_one_damaged_opening_line_does_not_lose_the_file() -> None:
    # "0,0, 1,x, 0,3" made detection fail: the file was read as a move list, every opening lost
    raw = b"0,0, 1,0, 1,3\n0,0, 1,1, 2,2\n0,0, 1,x, 0,3\n0,0, -1,0, 0,2\n"
    assert gomocup_openings.sniff(raw) == 1
    recs = list(gomocup_openings.read(io.BytesIO(raw), "o.txt", ReadOptions()))
    assert [len(r.moves) for r in recs] == [3, 3, 0, 3] and recs[2].unreadable
    # two bad lines of four is no opening file
    assert gomocup_openings.sniff(b"0,0, 1,0\nh8 h9\n0,0, 1,1\nh8\n") == 0


#: The header and opening-line patterns as they were, matched whole against the line as it
#: stands: blanks at their ends, around an optional part, made them cost the square of a line
#: of blanks (a header and 1 MB of spaces ran for minutes).
_OLD_HEADER = r"\s*Piskvorky\s+(\d+)\s*[xX]\s*(\d+)\s*(?:,\s*(.*?))?\s*"
_OLD_OPENING_LINE = (
    rb"[ \t]*-?\d{1,2}[ \t]*,[ \t]*-?\d{1,2}(?:[ \t]*,[ \t]*-?\d{1,2}[ \t]*,[ \t]*-?\d{1,2})*"
    rb"[ \t]*,?[ \t]*"
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["Piskvorky 20x20", " piskvorky 7 X 9", "Piskvorky 20x20, 0", "Piskvorky"]),
    st.text(alphabet=" \t\u3000\x1c,0:x", max_size=12),
)
def test_the_header_pattern_reads_stripped_lines_as_it_read_whole_lines(
    head: str, tail: str
) -> None:
    import re

    line = head + tail
    old = re.fullmatch(_OLD_HEADER, line, re.I)
    new = psq._HEADER.fullmatch(line.strip())
    assert (old is None) == (new is None)
    if old is not None and new is not None:
        assert old.group(1, 2) == new.group(1, 2)
        assert (old.group(3) or "").strip() == (new.group(3) or "").strip()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=" \t,-0123x", max_size=20))
def test_the_opening_line_pattern_reads_stripped_lines_as_it_read_whole_lines(line: str) -> None:
    import re

    raw = line.encode("ascii")
    old = re.fullmatch(_OLD_OPENING_LINE, raw) is not None
    assert psq.is_opening_line(raw + b"\r\n") == old
    assert (psq.opening_offsets(line) is not None) == old


def test_a_header_or_an_opening_line_padded_with_blanks_is_read_in_one_pass() -> None:
    # minutes each at 1 MB before; 200,000 blanks would take about a minute at their square
    blanks = " " * 200_000
    record = psq.parse_psq(["Piskvorky 20x20, 0" + blanks + "0", "1,1,0", "2,2,0"], "x.psq")
    assert (record.width, record.height, len(record.moves)) == (20, 20, 2)
    assert record.metadata["psq_levels"] == "0" + blanks + "0"
    refused = psq.parse_psq(["Piskvorky 20x20" + blanks + "y", "1,1,0"], "x.psq")
    assert [p.message for p in refused.problems] == ["not a psq record: no header and no moves"]
    assert psq.opening_offsets("0,0" + blanks + "x") is None
    assert psq.opening_offsets("0,0" + blanks) == [(0, 0)]
    assert not psq.is_opening_line(b"1,1" + blanks.encode() + b"x\n")
