"""Tests of the Gomotur ``.rec`` reader and writer (Piskvork's tournament records).

The real records are in ``shared/corpus/psq/hwangyale_gomotur_rec`` (see its SOURCES.md row);
coordinates are pinned in standard notation, worked out by hand from the files.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.coords import parse_point
from renju_cli.formats import ReadOptions, detect, gomocup_openings, psq, rec
from renju_cli.record import BLACK, WHITE, DeclaredResult, Move, Record, SourceLocation

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
GOMOTUR = CORPUS / "psq" / "hwangyale_gomotur_rec"

#: A tournament game as Piskvork writes it: two engines, stones counted from 0 with their
#: times (two opening stones with time 0), the code last.
GAME = "pbrain-a.exe\npbrain-b.exe\n7,7,0\n8,6,0\n6,8,812\n9,5,40\n5,9,33\n15\n"


def read_rec(data: str | bytes, **options: Any) -> Record:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    records = list(rec.read(io.BytesIO(raw), "mem.rec", ReadOptions(**options)))
    assert len(records) == 1
    return records[0]


def names(record: Record) -> list[str]:
    return ["pass" if m.point is None else m.point.name for m in record.moves]


def corpus(*parts: str) -> Path:
    path = GOMOTUR.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real records {path} are absent (shared/corpus is not beside the repository)")
    return path


# --- reading ----------------------------------------------------------------------------------


def test_a_tournament_game() -> None:
    game = read_rec(GAME)
    # counted from 0, y from the top: 7,7 is h8; 8,6 is i9 (row 15 - 6 = 9); 9,5 is j10
    assert names(game) == ["h8", "i9", "g7", "j10", "f6"]
    assert [m.token for m in game.moves[:3]] == ["7,7,0", "8,6,0", "6,8,812"]
    assert [m.line for m in game.moves] == [3, 4, 5, 6, 7]
    assert (game.width, game.height, game.format) == (15, 15, "rec")
    assert game.metadata == {
        "black": "pbrain-a.exe",
        "white": "pbrain-b.exe",
        "result_code": "15",
    }
    # code 15: the side to move (white, after five stones) ran out of time
    assert game.declared_result == DeclaredResult("black", "time", "15")
    assert game.problems == []
    assert game.notes == [
        "a rec file does not store the board's size: 15x15 assumed (the coordinates are 0 to 9)"
    ]


@pytest.mark.parametrize(
    ("code", "winner", "reason"),
    [("0", None, None), ("-1", None, None), ("-2", "black", "forfeit"), ("15", "black", "time")],
)
def test_codes(code: str, winner: str | None, reason: str | None) -> None:
    game = read_rec(GAME.replace("\n15\n", f"\n{code}\n"))
    declared = game.declared_result
    if winner is None:
        assert declared is None
    else:
        assert declared == DeclaredResult(winner, reason, code)


def test_a_coordinate_past_15_needs_gomocup_board() -> None:
    game = read_rec("a\nb\n10,10,0\n17,2,5\n0\n")
    assert (game.width, game.height) == (20, 20)
    assert names(game) == ["k10", "r18"]
    assert game.notes == [
        "a rec file does not store the board's size: 20x20 assumed (a coordinate of 17 needs "
        "more than 15x15)"
    ]
    assert read_rec("a\nb\n22,1,5\n0\n").width == 23  # past 20x20: the smallest that holds it
    assert read_rec("a\nb\n0,0,0\n", board_size=19).width == 19


def test_humans_are_no_names() -> None:
    game = read_rec("homo-2\nhomo-1\n7,7,0\n-1\n")
    assert "black" not in game.metadata and "white" not in game.metadata
    assert game.declared_result is None


def test_crlf_no_time_blanks_and_no_code() -> None:
    game = read_rec("a\r\nb\r\n7, 7\r\n\r\n8,8\r\n")
    assert names(game) == ["h8", "i7"]
    assert "result_code" not in game.metadata and game.declared_result is None


def test_bad_input() -> None:
    assert read_rec("a\nb\n").unreadable  # no stone: Piskvork's "unknown format"
    assert read_rec("").unreadable
    # no names: a problem, and the stones are read all the same
    game = read_rec("7,7,0\n8,8,0\n0\n")
    assert names(game) == ["h8", "i7"] and game.problems[0].line == 1
    # a stone left of the board cannot be represented; a stone after the code is not read
    game = read_rec("a\nb\n7,7,0\n-1,3,0\n0\n")
    assert names(game) == ["h8"] and "outside" in game.problems[0].message
    game = read_rec("a\nb\n7,7,0\n0\n8,8,0\n")
    assert names(game) == ["h8"] and "line 4: '0' is no move" in game.problems[0].message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_never_raises(data: bytes) -> None:
    read_rec(b"a\nb\n" + data)
    read_rec(data)


# --- detection --------------------------------------------------------------------------------


def test_sniff() -> None:
    raw = GAME.encode()
    assert rec.sniff(raw) == 2
    assert detect(raw, "game.rec") == "rec"
    assert detect(raw, "game.txt") == "rec"
    assert rec.sniff(raw.replace(b"15\n", b"")) == 1  # no code: maybe
    assert psq.sniff(raw) == gomocup_openings.sniff(raw) == 0
    for other in (
        b"Piskvorky 15x15, 1:1, 0\n8,8,0\n0\n",  # psq
        b"h8 h9\ni8 g8\nj8\n",  # move lists
        b"0,0, 1,0, 1,3\n0,0, 1,1\n0,0\n",  # Gomocup openings
        b'[Event "?"]\n[Site "PlayOK"]\n\n1. h8 h9 1-0\n',
        b"a\nb\nc\n0\n",  # no stone
        b"a\nb\n7,7,0\n0\n8,8,0\n",  # the code is not last
        b"1,2\n3,4\n7,7,0\n",  # numbers are no names
    ):
        assert rec.sniff(other) == 0, other
    # a head cut by the detection buffer: its last line is not judged
    big = b"a\nb\n" + b"7,7,123\n" * 600
    assert rec.sniff(big[:4096]) == 2


# --- the real records -------------------------------------------------------------------------


def test_every_gomotur_record_is_read_whole() -> None:
    paths = sorted(corpus().glob("*/*.rec"))
    assert len(paths) == 130
    codes: dict[str, int] = {}
    for path in paths:
        raw = path.read_bytes()
        assert detect(raw[:4096], path.name) == "rec", path
        game = read_rec(raw)
        assert game.problems == [] and (game.width, game.height) == (15, 15), path
        # the name says how many moves Piskvork saved: <id1>x<id2>-<moves>_<n>.rec
        assert len(game.moves) == int(path.stem.split("-")[1].split("_")[0]), path
        assert game.metadata["black"] == game.metadata["white"] == "pbrain-Yixin17_64.exe"
        code = game.metadata["result_code"]
        codes[code] = codes.get(code, 0) + 1
        if code == "15":
            assert game.declared_result is not None and game.declared_result.reason == "time"
        else:
            assert game.declared_result is None  # a normal end: the board tells
    assert codes == {"0": 111, "15": 19}


def test_a_real_record_pinned() -> None:
    # tour4/0x1-21_24.rec: 7 opening stones with time 0, then the game
    game = read_rec(corpus("tour4", "0x1-21_24.rec").read_bytes())
    assert names(game)[:3] == ["f9", "e6", "f7"]  # 5,6 4,9 5,8
    assert [m.token for m in game.moves[6:8]] == ["5,7,0", "5,9,382"]
    assert len(game.moves) == 21


# --- writing ----------------------------------------------------------------------------------


def test_write_roundtrip_and_to_psq_and_back() -> None:
    game = read_rec(GAME)
    text = rec.rec_text(game)
    assert text == GAME
    as_psq = read_psq_text(psq.psq_text(game))
    assert [m.point for m in as_psq.moves] == [m.point for m in game.moves]
    assert as_psq.declared_result == game.declared_result
    assert psq.psq_text(game).splitlines()[1:3] == ["8,8,0", "9,7,0"]  # counted from 1
    back = read_rec(rec.rec_text(as_psq))
    assert [m.point for m in back.moves] == [m.point for m in game.moves]
    assert [m.token for m in back.moves] == [m.token for m in game.moves]  # times kept
    assert back.metadata == game.metadata and back.declared_result == game.declared_result


def read_psq_text(text: str) -> Record:
    (record,) = psq.read(io.BytesIO(text.encode()), "x.psq", ReadOptions())
    return record


def test_write_a_built_record() -> None:
    built = Record(
        moves=[Move(parse_point(t)) for t in ["j8", "k9"]],
        source=SourceLocation("x"),
        setup=[(parse_point("h8"), BLACK), (parse_point("h9"), WHITE)],
        declared_result=DeclaredResult("white", "forfeit", "B+F"),
    )
    text = rec.rec_text(built)
    # no names: Piskvork's humans; setup stones first, time 0; black to move lost: -2
    assert text == "homo-1\nhomo-2\n7,7,0\n7,6,0\n9,7,0\n10,6,0\n-2\n"
    again = read_rec(text)
    assert names(again) == ["h8", "h9", "j8", "k9"]
    assert again.declared_result == DeclaredResult("white", "forfeit", "-2")
    # a record without a size is written on the board its coordinates prove
    big = Record(moves=[Move(parse_point("s19"))], source=SourceLocation("x"))
    assert rec.rec_text(big).splitlines()[2] == "18,1,0"  # on 20x20
    assert names(read_rec(rec.rec_text(big))) == ["s19"]


@pytest.mark.parametrize(
    "record",
    [
        Record(moves=[Move(None)], source=SourceLocation("x"), width=15, height=15),
        Record(moves=[], source=SourceLocation("x"), width=15, height=15),
        # 20x20 with every stone in the first 15 columns and rows: read back as 15x15
        Record(moves=[Move(parse_point("k10"))], source=SourceLocation("x"), width=20, height=20),
        Record(moves=[Move(parse_point("h8"))], source=SourceLocation("x"), width=15, height=10),
        Record(
            moves=[Move(parse_point("h8"))],
            source=SourceLocation("x"),
            metadata={"black": "a\nb"},
        ),
    ],
    ids=["pass", "empty", "size-not-told", "not-square", "name-of-two-lines"],
)
def test_write_refuses_what_rec_cannot_hold(record: Record) -> None:
    with pytest.raises(ValueError):
        rec.write_one(record, io.StringIO())


def test_write_exactly_one_record() -> None:
    game = read_rec(GAME)
    with pytest.raises(ValueError, match="one game"):
        rec.write([game, game], io.StringIO())
    out = io.StringIO()
    rec.write([game], out)
    assert out.getvalue() == GAME
