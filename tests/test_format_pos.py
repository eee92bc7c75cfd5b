""".pos reader: the engine test positions in ../shared/corpus/pos and hand-built bytes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from renju_cli.coords import parse_point
from renju_cli.formats import ReadOptions, detect, pos
from renju_cli.record import Record

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus" / "pos"
OPENINGS = SHARED / "data" / "openings26.json"


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared sample {path} is absent (checkout without ../shared)")
    return path


def read_bytes(data: bytes) -> Record:
    (rec,) = pos.read(io.BytesIO(data), "t.pos", ReadOptions())
    return rec


def read_file(path: Path) -> Record:
    with need(path).open("rb") as f:
        (rec,) = pos.read(f, str(path), ReadOptions())
    return rec


def names(rec: Record) -> list[str]:
    return [m.point.name for m in rec.moves if m.point is not None]


def test_full_board() -> None:
    # SOURCES.md: a full 225-stone board.
    rec = read_file(CORPUS / "1" / "full.pos")
    assert not rec.problems
    assert len(rec.moves) == 225
    points = {m.point for m in rec.moves}
    assert len(points) == 225
    assert all(p is not None and p.on_board(15) for p in points)
    assert names(rec)[0] == "h8"  # byte 112 = 7*15+7, the centre
    assert (rec.width, rec.height, rec.format) == (15, 15, "pos")


@pytest.mark.parametrize(
    ("name", "first"),
    [
        # Game-like positions open with the canonical opening in the standard orientation
        # (stone 2 at h9 for direct openings, i9 for indirect): test1 = D4 (bytes 112 97 98),
        # hard = I10 (112 98 142), black_to_move/6 = I12 (112 98 141).  Rows counted from the
        # bottom would turn h9/i9 into h7/i7.
        ("1/test1.pos", ["h8", "h9", "i9"]),
        ("1/hard.pos", ["h8", "i9", "h6"]),
        ("black_to_move/6.pos", ["h8", "i9", "g6"]),
        # Engine test positions need not start at h8: 120 = row 8 from the top, column 0 = a7.
        ("1/defend_43_by_44_in_a_line.pos", ["a7", "a8", "c7"]),
        # 15 = row 1 from the top, column 0 = a14; then 0 = a15 (top-left corner).
        ("analysis_report/ana3.pos", ["a14", "a15", "c15"]),
    ],
)
def test_first_stones(name: str, first: list[str]) -> None:
    rec = read_file(CORPUS / name)
    assert not rec.problems
    assert names(rec)[:3] == first


def test_openings_in_standard_orientation() -> None:
    # Orientation check independent of the spec's formula: of the game-like positions, far more
    # open with one of the 26 canonical openings as tabulated (standard orientation) under this
    # reading than under a row-mirrored one.
    table = json.loads(need(OPENINGS).read_text(encoding="utf-8"))["openings"]
    canon = {tuple(s["point"] for s in o["stones"]) for o in table}
    ours = mirrored = 0
    for path in sorted(need(CORPUS).glob("*/*.pos")):
        first = read_file(path).moves[:3]
        pts = [m.point for m in first if m.point is not None]
        ours += tuple(p.name for p in pts) in canon
        mirrored += tuple(p._replace(y=14 - p.y).name for p in pts) in canon
    assert ours >= 12
    assert mirrored <= 2


def test_every_sample_reads_cleanly_and_is_detected() -> None:
    files = sorted(need(CORPUS).glob("*/*.pos"))
    assert len(files) == 24  # SOURCES.md
    for path in files:
        data = path.read_bytes()
        rec = read_file(path)
        assert not rec.problems, path
        assert len(rec.moves) == data[0]
        assert pos.sniff(data) == 1
        assert detect(data, str(path)) == "pos"


def test_byte_mapping() -> None:
    # byte = row_from_top * 15 + column
    assert pos.point_from_byte(0) == parse_point("a15")
    assert pos.point_from_byte(14) == parse_point("o15")
    assert pos.point_from_byte(112) == parse_point("h8")
    assert pos.point_from_byte(210) == parse_point("a1")
    assert pos.point_from_byte(224) == parse_point("o1")


def test_moves_carry_offsets_and_no_colour() -> None:
    rec = read_bytes(bytes([3, 112, 97, 98]))
    assert [m.offset for m in rec.moves] == [1, 2, 3]
    assert all(m.color is None for m in rec.moves)  # alternation, black first
    assert [m.token for m in rec.moves] == ["112", "97", "98"]


def test_bad_point_byte() -> None:
    rec = read_bytes(bytes([4, 112, 97, 230, 98]))
    assert names(rec) == ["h8", "h9"]  # the stones before the bad byte
    offsets = [p.offset for p in rec.problems]
    assert 3 in offsets
    assert any("byte 230 at offset 3" in p.message for p in rec.problems)
    assert not rec.unreadable


def test_count_longer_than_file() -> None:
    rec = read_bytes(bytes([5, 112, 97]))
    assert names(rec) == ["h8", "h9"]
    (problem,) = rec.problems
    assert problem.offset == 3 and "declares 5 stones but ends after 2" in problem.message


def test_count_shorter_than_file() -> None:
    rec = read_bytes(bytes([2, 112, 97, 98, 99]))
    assert names(rec) == ["h8", "h9"]
    (problem,) = rec.problems
    assert problem.offset == 3 and "2 extra bytes" in problem.message


def test_unreadable() -> None:
    for data in (b"", bytes([0]), bytes([3, 250, 1, 2])):
        rec = read_bytes(data)
        assert rec.unreadable and not rec.moves
        assert all(p.offset is not None for p in rec.problems)


def test_count_over_225() -> None:
    rec = read_bytes(bytes([230]) + bytes(range(230)))
    assert any(p.offset == 0 and "230" in p.message for p in rec.problems)
    assert len(rec.moves) == 225  # bytes 0..224 are points; 225 is the first bad one


def test_huge_file_is_bounded() -> None:
    rec = read_bytes(bytes([2, 112, 97]) + b"\x00" * 100_000)
    assert names(rec) == ["h8", "h9"]
    assert "more than 255 extra bytes" in rec.problems[0].message


def test_sniff() -> None:
    assert pos.sniff(bytes([2, 112, 97])) == 1
    # a count that disagrees with the length: a damaged position still (the reader says how),
    # so that a .pos file is not read as a headerless RenLib library; text is not one
    assert pos.sniff(bytes([2, 112])) == 1
    assert pos.sniff(b"\n\n\n") == 0
    assert pos.sniff(bytes([2, 112, 225])) == 0  # not a point
    assert pos.sniff(b"") == 0
    assert pos.sniff(bytes([0])) == 0
    assert pos.sniff(b"h8 h9 i9\n") == 0


def test_a_move_list_whose_first_byte_matches_its_length_is_not_a_pos_file() -> None:
    from renju_cli.formats import detect

    text = b"h8 h9 i9 j10 k11"
    text = text + b" " * (text[0] + 1 - len(text))  # 'h' = 104: pad to 105 bytes
    assert len(text) == text[0] + 1
    assert pos.sniff(text) == 0
    assert detect(text, "<string>") == "notation"


@pytest.mark.parametrize(
    ("text", "path", "fmt"),
    [
        # UTF-8 text is text: a move list piped in with an accented comment (no extension to
        # tell), and a Gomocup header naming its board in Arabic-Indic digits; bytes 0xC3 0xA9
        # and 0xD9 0xA2 are below 225, as points of a position are, and were read as one
        ("h8 h9 i10 j11 # café\n", "-", "notation"),
        ("h8 h9 i10 j11 # café\n", "game.dat", "notation"),
        # (no psq header either: ASCII digits are; with its extension the psq reader reads it)
        ("Piskvorky ٢٠x٢٠\n10,10,0\n11,11,0\n", "-", None),
        ("Piskvorky ٢٠x٢٠\n10,10,0\n11,11,0\n", "g.psq", "psq"),
    ],
)
def test_utf8_text_is_no_pos_file(text: str, path: str, fmt: str | None) -> None:
    data = text.encode()
    assert any(b >= 0x80 for b in data) and 1 <= data[0] <= 225 and len(data) <= 226
    assert pos.sniff(data) == 0
    assert detect(data, path) == fmt


def test_a_position_that_is_no_utf8_text_is_still_one() -> None:
    # 3 stones: h8 (byte 112, 'p'), then 0xC3 (195) and 0x28 (40): 0xC3 0x28 is no UTF-8
    data = bytes([3, 112, 0xC3, 0x28])
    assert pos.sniff(data) == 1 and detect(data, "-") == "pos"


def test_a_damaged_position_file_is_still_read_as_one() -> None:
    # count byte 0x78 (120) with 3 stones: detected as a headerless RenLib library, unreadable;
    # with .pos it is read as the position it is, the missing stones said
    from renju_cli.formats import detect, read_stream

    data = bytes([0x78, 0x70, 0x00, 0x71])
    assert detect(data, "p.pos") == "pos"
    (rec,) = read_stream(io.BytesIO(data), "p.pos")
    assert len(rec.moves) == 3 and "declares 120 stones but ends after 3" in rec.problems[0].message


@pytest.mark.parametrize(
    ("data", "records"),
    [
        (b"h8 h9 i8\x00\n", 1),  # 'h' (104) as a count: a position of 9 stones and 95 missing
        (b"h8 h9\x00\nh8 h9 i10\nh8 h9 i8 g8\n", 3),
        (b"h8 h9 i8\x1a", 1),  # a DOS end-of-file mark
    ],
)
def test_a_move_list_with_a_stray_control_byte_is_no_damaged_position(
    data: bytes, records: int
) -> None:
    # (it was read as a .pos position of made-up stones, with false occupied findings;
    # with .txt, from standard input, or with another extension alike)
    from renju_cli.formats import read_stream

    assert pos.sniff(data) == 0
    for path in ("a.txt", "-", "a.dat"):
        read = list(read_stream(io.BufferedReader(io.BytesIO(data)), path))
        assert [r.format for r in read] == ["notation"] * records, path
        assert any("column" in p.message for r in read for p in r.problems)
    # a damaged position whose bytes are no move list is still one, even when they read as one
    # point ("p1 ": three stones of four)
    assert pos.sniff(bytes([2, 112])) == 1 and pos.sniff(bytes([9, 0x70, 0x71, 0x00])) == 1
    assert pos.sniff(b"\x04p1 ") == 1
