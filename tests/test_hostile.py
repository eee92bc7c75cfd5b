"""Hostile and broken input: refused or bounded, always a finding, never a crash or a leak.

XML entities and external references, YAML tags, board sizes past 26, bounds on moves, nesting
and strings, undecodable bytes, truncated binaries, empty files, and every hostile file of
``fuzz/hostile.py`` at a small size (the 1 MB timings are measured by that script, not here).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import json
import socket
import subprocess
import sys
import threading
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from renju_cli import api
from renju_cli.formats import FORMAT_MODULES, ReadOptions, read_stream
from renju_cli.record import Record
from renju_cli.ruleset import RulesetError, load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import fuzz_seeds
import fuzz_target
import hostile

FORMATS = list(FORMAT_MODULES)


def read(data: bytes, fmt: str | None = None, options: ReadOptions | None = None) -> list[Record]:
    stream = io.BufferedReader(io.BytesIO(data))
    return list(read_stream(stream, "hostile", fmt, options))


def read_traced(
    data: bytes, fmt: str | None = None, options: ReadOptions | None = None
) -> tuple[list[Record], int]:
    """``read``, and the peak of the memory traced while reading (the data itself, outside
    in a BytesIO copy, is not traced)."""
    tracemalloc.start()
    try:
        return read(data, fmt, options), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def messages(recs: list[Record]) -> str:
    return "\n".join(p.message for r in recs for p in r.problems)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a reader tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


# -- XML ----------------------------------------------------------------------------------------
def test_entity_expansion_is_refused_without_expanding(no_network: None) -> None:
    data = hostile.HOSTILE["renjunet-billion-laughs"](0)
    recs, peak = read_traced(data)
    (rec,) = recs
    assert rec.unreadable and rec.format == "renjunet"
    assert "entity declaration" in messages(recs) and "refused" in messages(recs)
    assert peak < 16 << 20  # 10^9 'a's were never built


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE database [<!ENTITY x SYSTEM "file://{secret}">]>',
        '<!DOCTYPE database SYSTEM "file://{secret}">',
        '<!DOCTYPE database [<!ENTITY % p SYSTEM "file://{secret}"> %p;]>',
        '<!DOCTYPE database [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]>',
        '<!DOCTYPE database SYSTEM "http://127.0.0.1:9/x.dtd">',
    ],
)
def test_external_references_are_never_read_or_fetched(
    doctype: str, tmp_path: Path, no_network: None
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET h8 h9 i10")
    xml = (
        '<?xml version="1.0"?>' + doctype.format(secret=secret) + "<database><games>"
        '<game id="1"><move>h8</move><info>&x;</info></game></games></database>'
    ).encode()
    recs = read(xml)
    assert recs and recs[-1].unreadable
    assert "refused" in messages(recs) or "syntax error" in messages(recs)
    assert "TOP-SECRET" not in repr(recs)


# -- YAML ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "name: !!python/object/apply:os.system ['touch {marker}']\n",
        "name: !!python/object/new:os.system ['touch {marker}']\n",
        "name: !!python/name:os.system\n",
        "name: !ruby/object:Gem::Installer x\n",
        "name: !custom x\n",
    ],
)
def test_language_specific_yaml_tags_are_refused(text: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "evil.yaml"
    path.write_text(text.format(marker=marker))
    with pytest.raises(RulesetError, match="could not determine a constructor"):
        load(str(path))
    assert not marker.exists()


# -- sizes and bounds ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fmt", "data"),
    [
        ("sgf", b"(;SZ[27];B[aa])"),
        ("sgf", b"(;SZ[5:99];B[aa])"),
        ("psq", b"Piskvorky 27x27, 11:11, 0\n1,1,0\n"),
        ("diagram", b"X" * 27 + b"\n" + (b"." * 27 + b"\n") * 26),
    ],
)
def test_boards_past_26_are_unreadable(fmt: str, data: bytes) -> None:
    (rec,) = read(data, fmt)
    assert rec.unreadable and rec.width is None


@pytest.mark.parametrize(
    ("fmt", "data"),
    [
        ("jsonl", b'{"moves": "a1", "size": 27}\n'),
        ("playok", b'[Site "PlayOK"]\n[GameType "61,27"]\n\n1. a1 1-0\n'),
        ("renjunet", b'<database><rules><rule id="1" name="RIF" size="27"/></rules>'
         b'<games><game rule="1"><move>a1</move></game></games></database>'),
    ],
)  # fmt: skip
def test_stated_sizes_past_26_fall_back_to_the_ruleset(fmt: str, data: bytes) -> None:
    (rec,) = read(data, fmt)
    assert rec.width in (None, 15) and len(rec.moves) == 1


def test_26x26_is_the_largest_board_and_is_judged() -> None:
    (rec,) = read(b"(;SZ[26];B[zz];W[aa];B[mm])", "sgf")
    report = api.judge_record(rec)
    assert rec.width == 26 and report.moves == 3 and not report.unreadable


MANY_MOVES = {
    "notation": b"h8 " * 50,
    "jsonl": b'{"moves": "' + b"h8 " * 50 + b'"}\n',
    "sgf": b"(;" + b";B[hh]" * 50 + b")",
    "psq": b"Piskvorky 15x15, 11:11, 0\n" + b"8,8,0\n" * 50,
    "gomocup-openings": b"0,0, " * 49 + b"0,0\n",
    "playok": b'[Site "PlayOK"]\n\n' + b"h8 " * 50 + b"1-0\n",
    "renjunet": b"<database><games><game><move>"
    + b"h8 " * 50
    + b"</move></game></games></database>",
    "renlib": b"\xffRenLib\xff\x03\x00" + b"\xff" * 10 + b"\x78\x00" * 49 + b"\x78\x40",
    "pos": bytes([50]) + bytes([112]) * 50,
}


@pytest.mark.parametrize("fmt", sorted(MANY_MOVES))
def test_moves_are_bounded(fmt: str) -> None:
    recs = read(MANY_MOVES[fmt], fmt, ReadOptions(max_moves=10))
    assert recs and all(len(r.moves) <= 10 for r in recs)
    assert any(r.problems for r in recs)


@pytest.mark.parametrize(
    ("fmt", "data"),
    [
        ("sgf", b"(;B[hh]" * 40 + b")" * 40),
        ("renjunet", b"<database><games><game>" + b"<a>" * 40 + b"</a>" * 40
         + b"</game></games></database>"),
        ("renlib", b"\xffRenLib\xff\x03\x00" + b"\xff" * 10 + b"\x78\x00" * 40 + b"\x78\x40"),
    ],
)  # fmt: skip
def test_nesting_is_bounded(fmt: str, data: bytes) -> None:
    recs = read(data, fmt, ReadOptions(max_depth=16))
    assert recs and any(("deeper than 16" in messages([r])) for r in recs)
    assert all(len(r.moves) <= 16 for r in recs)


@pytest.mark.parametrize(
    ("fmt", "data", "key"),
    [
        ("sgf", b"(;PB[" + b"x" * 500 + b"];B[hh])", "black"),
        ("playok", b'[Site "PlayOK"]\n[Black "' + b"x" * 500 + b'"]\n\n1. h8 1-0\n', "black"),
        ("renjunet", b"<database><games><game><move>h8</move><info>" + b"x" * 500
         + b"</info></game></games></database>", "info"),
    ],
)  # fmt: skip
def test_strings_are_cut_to_max_string(fmt: str, data: bytes, key: str) -> None:
    (rec,) = read(data, fmt, ReadOptions(max_string=100))
    assert 0 < len(rec.metadata[key]) <= 100


def test_a_renlib_comment_past_max_string_stops_the_library() -> None:
    lib = b"\xffRenLib\xff\x03\x00" + b"\xff" * 10 + b"\x78\x48" + b"x" * 400 + b"\x00\x00"
    (rec,) = read(lib, "renlib", ReadOptions(max_string=100))
    assert rec.unreadable and "longer than 100 bytes" in messages([rec])


# -- broken bytes -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(fuzz_seeds.own_seeds()))
def test_undecodable_bytes_never_stop_a_reader(name: str) -> None:
    seed = fuzz_seeds.own_seeds()[name]
    # invalid UTF-8 (a lone continuation byte, an overlong form, a surrogate) in the middle
    middle = len(seed) // 2
    data = seed[:middle] + b"\x80\xc0\xaf\xed\xa0\x80\xff" + seed[middle:]
    for fmt in (None, *FORMATS):
        fuzz_target.run_input(data, fmt)


@pytest.mark.parametrize("name", ["lib.lib", "old.lib", "game.pos"])
def test_truncated_binaries_keep_what_was_read_and_say_where(name: str) -> None:
    data = fuzz_seeds.own_seeds()[name]
    for cut in range(len(data)):
        recs = read(data[:cut], "renlib" if name.endswith(".lib") else "pos")
        assert recs, f"nothing for the file cut at {cut}"
        if cut < len(data):
            assert recs[-1].problems, f"the cut at {cut} went unnoticed"
            assert recs[-1].problems[-1].offset is not None


@pytest.mark.parametrize("fmt", [None, *FORMATS])
def test_empty_input_never_raises(fmt: str | None) -> None:
    fuzz_target.run_input(b"", fmt)
    fuzz_target.run_input(b"\n \r\n\t", fmt)


def test_an_empty_file_is_one_unreadable_record(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sgf"
    empty.write_bytes(b"")
    (rec,) = api.read_path(str(empty))
    assert rec.unreadable and "empty" in messages([rec])


NOTHING_TO_CHECK = {
    "blank.txt": b"\n  \n\t\r\n",
    "comments.txt": b"# a title\n# nothing else\n",
    "blank.jsonl": b"\n\n",
    "no-games.xml": b'<?xml version="1.0"?>\n<database><games></games></database>\n',
    "no-database.xml": b'<?xml version="1.0"?>\n<database/>\n',
}


@pytest.mark.parametrize("name", sorted(NOTHING_TO_CHECK))
def test_a_file_without_a_record_is_one_unreadable_record(tmp_path: Path, name: str) -> None:
    # like an empty file: a batch must not pass a file that held nothing to check as clean
    path = tmp_path / name
    path.write_bytes(NOTHING_TO_CHECK[name])
    (rec,) = api.read_path(str(path))
    assert rec.unreadable and "no record found" in messages([rec])


def test_a_txt_file_no_reader_recognizes_is_read_as_a_move_list(tmp_path: Path) -> None:
    # .txt is claimed by move lists, PlayOK and Gomocup openings: a line that is none of them
    # is reported as a move list would be, not as a bad opening line
    path = tmp_path / "odd.txt"
    path.write_bytes(b"# my notes\nzz top\n")
    (rec,) = api.read_path(str(path))
    assert rec.format == "notation" and rec.problems and "opening" not in messages([rec])


def test_an_endless_line_is_never_held_whole() -> None:
    # a move list with an 8 MB line (or /dev/zero): read max_string bytes of it, skip the rest
    options = ReadOptions(max_string=1 << 16)
    data = b"h8 " + b"x" * (8 << 20) + b"\nh8 h9\n"
    recs, peak = read_traced(data, "notation", options)
    assert peak < 2 << 20  # the data itself is not traced: it lives outside (a BytesIO copy)
    assert [len(r.moves) for r in recs] == [1, 2] and recs[0].problems
    assert [r.source.line for r in recs] == [1, 2]


@pytest.mark.parametrize(
    ("fmt", "data"),
    [
        ("sgf", b"(;B[hh];W[hi])"),
        ("psq", b"Piskvorky 15x15, 11:11, 0\n8,8,0\n"),
        ("gomocup-openings", b"0,0, 1,1\n"),
    ],
)
def test_a_file_read_whole_is_read_up_to_max_file(fmt: str, data: bytes) -> None:
    exact = ReadOptions(max_file=len(data))
    assert not messages(read(data, fmt, exact))
    (rec,) = read(data + b" ", fmt, exact)  # a byte more: refused, never read further
    assert rec.unreadable and f"longer than {len(data)} bytes" in messages([rec])


# -- text in another encoding or with other line ends ------------------------------------------
UNICODE_FILES = {
    # (a file saved as "Unicode" by Windows Notepad; its lines end with CR LF)
    "game.txt": ("utf-16", "h8 h9 i10\r\nh8 i9 # comment ♔\r\n"),
    "game.psq": ("utf-16", "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,0\r\n"),
    "game.sgf": ("utf-16", "(;GM[4]SZ[15]C[𝄞 a clef];B[hh];W[hi])"),
    "game.jsonl": ("utf-32", '{"moves": "h8 h9"}\n'),
    "game.pgn": ("utf-16", '[Site "PlayOK"]\n[GameType "renju"]\n\n1. h8 h9 2. i10 1-0\n'),
}


@pytest.mark.parametrize("name", sorted(UNICODE_FILES))
def test_utf16_and_utf32_text_files_read_as_their_utf8_twins(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from renju_cli import formats

    codec, text = UNICODE_FILES[name]
    twin = tmp_path / ("utf8-" + name)
    twin.write_bytes(text.encode("utf-8"))
    path = tmp_path / name
    path.write_bytes(text.encode(codec))  # with its byte order mark
    # tiny chunks: code units and surrogate pairs are cut between two reads
    monkeypatch.setattr(formats, "RECODE_CHUNK", 3)
    got, want = list(api.read_path(str(path))), list(api.read_path(str(twin)))
    assert [r.format for r in got] == [r.format for r in want] and not messages(got)
    assert [[m.point for m in r.moves] for r in got] == [[m.point for m in r.moves] for r in want]
    assert [r.metadata for r in got] == [r.metadata for r in want]
    assert [r.source.line for r in got] == [r.source.line for r in want]


@pytest.mark.parametrize("name", sorted(UNICODE_FILES))
@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_reads_as_its_utf8_twin(
    tmp_path: Path, name: str, codec: str
) -> None:
    # without its byte order mark: 266 PlayOK games became 3,192 unreadable records (one a
    # line), a move list one record more (the last NUL), a short one a .pos position
    text = UNICODE_FILES[name][1]
    twin = tmp_path / ("utf8-" + name)
    twin.write_bytes(text.encode("utf-8"))
    path = tmp_path / name
    path.write_bytes(text.encode(codec))
    got, want = list(api.read_path(str(path))), list(api.read_path(str(twin)))
    assert [r.format for r in got] == [r.format for r in want] and not messages(got)
    assert [[m.point for m in r.moves] for r in got] == [[m.point for m in r.moves] for r in want]
    assert [r.source.line for r in got] == [r.source.line for r in want]


#: Text files as Notepad's "UTF-8 with BOM" writes them, under names that leave their format to
#: their content (each must be read whole: its first record too, under any name, piped in or
#: not)
BOM_FILES = {
    "game.jsonl": '{"moves": "h8 h9 i10"}\n{"moves": "h8 h9"}\n',
    "jsonl.txt": '{"moves": "h8 h9 i10"}\n{"moves": "h8 h9"}\n',
    "moves.dat": "h8 h9 i10\nh8 h9 i8\n",
    "game.psq": "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n",
    "game.sgf": "(;GM[4]SZ[15];B[hh];W[hi])",
    "diagram.txt": ". . . . .\n. . X . .\n. . O . .\n. . . . .\n. . . . .\n",
}


def test_a_line_of_points_without_blanks_is_read_no_further_than_the_move_limit() -> None:
    # h8h8h8... for a megabyte: read point by point up to one move past the limit (one
    # pattern over the whole line once kept a backtracking stack of 80 MB)
    data = b"h8" * (1 << 19) + b"\n"
    recs, peak = read_traced(data, "notation")
    assert peak < 8 << 20
    (rec,) = recs
    assert len(rec.moves) == ReadOptions().max_moves and rec.problems


@pytest.mark.parametrize("moves", [b"h8" * 500_000, b"h8 " * 330_000])
def test_a_json_lines_moves_string_is_read_no_further_than_the_move_limit(moves: bytes) -> None:
    # a megabyte of points in one "moves" string was made into 500,000 moves before the
    # limit cut them: 75 MB at once; a string with opening events is read whole as before
    data = b'{"moves":"' + moves + b'"}\n'
    recs, peak = read_traced(data, "jsonl")
    assert peak < 8 << 20
    (rec,) = recs
    assert len(rec.moves) == ReadOptions().max_moves
    assert [p.message for p in rec.problems] == [
        "line 1: more than the limit of 4096 moves; the rest is ignored"
    ]
    (swaps,) = read(b'{"moves":"h8 h9 ' + b"swap " * 5000 + b'i10"}\n', "jsonl")
    assert len(swaps.moves) == 3 and len(swaps.opening_events) == 5000 and not swaps.problems


@pytest.mark.parametrize("name", sorted(BOM_FILES))
@pytest.mark.parametrize("stdin", [False, True])
def test_a_utf8_byte_order_mark_reads_as_the_file_without_it(
    tmp_path: Path, name: str, stdin: bool
) -> None:
    text = BOM_FILES[name].encode()
    twin = tmp_path / ("plain-" + name)
    twin.write_bytes(text)
    path = tmp_path / name
    path.write_bytes(codecs.BOM_UTF8 + text)
    if stdin:  # no name to go by: the content alone tells
        got = list(read_stream(io.BytesIO(codecs.BOM_UTF8 + text), "-"))
    else:
        got = list(api.read_path(str(path)))
    want = list(api.read_path(str(twin)))
    assert [r.format for r in got] == [r.format for r in want] and not messages(got)
    assert [[m.point for m in r.moves] for r in got] == [[m.point for m in r.moves] for r in want]
    assert [r.setup for r in got] == [r.setup for r in want]
    assert [r.source.line for r in got] == [r.source.line for r in want]


@pytest.mark.parametrize("name", ["game.lib", "game.txt", "game.sgf"])
def test_a_renlib_line_of_many_moves_is_no_utf16_text(tmp_path: Path, name: str) -> None:
    # a library of one long line: a zero flag byte after every move, as UTF-16 text has a zero
    # byte after every ASCII character; named .txt, it was read as UTF-16 (one unreadable
    # record) though its header is RenLib's own
    header = b"\xffRenLib\xff\x03\x00" + b"\xff" * 10
    points = [0x78] + [
        r * 16 + c + 1 for r in range(15) for c in range(15) if r * 16 + c + 1 != 0x78
    ]
    line = b"".join(bytes([p, 0]) for p in points[:99]) + bytes([points[99], 0x40])
    path = tmp_path / name
    path.write_bytes(header + line)
    [record] = list(api.read_path(str(path)))
    assert record.format == "renlib" and len(record.moves) == 100 and not record.problems


@pytest.mark.parametrize("encoding", ["utf-16", "cp1251", "latin-1"])
def test_a_utf16_file_is_utf8_once_recoded_whatever_encoding_is_given(encoding: str) -> None:
    text = '[Event "Турнир"]\r\n[GameType "renju"]\r\n\r\n1. h8 h9 2. i8 1-0\r\n'
    (rec,) = read(text.encode("utf-16"), None, ReadOptions(encoding=encoding))
    assert rec.metadata["event"] == "Турнир" and len(rec.moves) == 3


@pytest.mark.parametrize("charset", ["UTF-16", "ISO-8859-1", "GBK"])
def test_an_sgf_charset_names_no_text_once_recoded(charset: str) -> None:
    # saved as UTF-16 with any CA: recoded to UTF-8 before it is parsed, so CA no longer applies
    sgf = f"(;GM[4]SZ[15]CA[{charset}]C[Турнир]PB[Zoë Müller];B[hh])"
    (rec,) = read(sgf.encode("utf-16"))
    assert rec.metadata["comment"] == "Турнир" and rec.metadata["black"] == "Zoë Müller"


@pytest.mark.parametrize(
    ("name", "data", "lines"),
    [
        ("utf-16, CR alone", "h8 h9 i8\rh8 h9\rh8\r".encode("utf-16"), [1, 2, 3]),
        # CR alone all through the 4 KiB head, CR LF after it
        ("CR alone, then CR LF", b"h8 h9\r" * 700 + b"h8 i9\r\nh8\r\n", list(range(1, 703))),
        # the 4 KiB head ends between the CR and the LF of its first line: no Mac file
        ("CR LF cut by the head", b"#" + b"-" * 4094 + b"\r\nh8 h9\r\nh8\r\n", [2, 3]),
    ],
)
def test_line_ends_are_counted_once(name: str, data: bytes, lines: list[int]) -> None:
    assert [r.source.line for r in read(data, "notation")] == lines, name


def test_classic_mac_line_ends_separate_records(tmp_path: Path) -> None:
    # CR alone ends a line (Mac OS before X): two records, not one of five moves
    path = tmp_path / "mac.txt"
    path.write_bytes(b"h8 h9 i10\rh8 i9\r")
    recs = list(api.read_path(str(path)))
    assert [len(r.moves) for r in recs] == [3, 2] and [r.source.line for r in recs] == [1, 2]


def test_bad_utf16_is_replaced_not_fatal() -> None:
    recs = read(b"\xff\xfe" + "h8 h9\n".encode("utf-16-le") + b"\x00\xd8\x41")  # lone surrogate
    assert [len(r.moves) for r in recs][:1] == [2] and "\ufffd" in messages(recs)


def test_a_binary_library_is_never_recoded() -> None:
    # a RenLib file is read as its own bytes, even when they look like CR-ended text
    from renju_cli.formats import recoding, renlib

    data = fuzz_seeds.own_seeds()["lib.lib"].replace(b"\n", b"\r")
    assert recoding(data[:4096]) == "mac"
    direct = list(renlib.read(io.BufferedReader(io.BytesIO(data)), "hostile", ReadOptions()))
    assert [r.moves for r in read(data)] == [r.moves for r in direct]
    assert [r.moves for r in read(data, "renlib")] == [r.moves for r in direct]


def test_a_big_file_of_blank_lines_cut_for_workers_is_one_unreadable_record(
    tmp_path: Path,
) -> None:
    from renju_cli import batch

    path = tmp_path / "blank.txt"
    path.write_bytes(b"# nothing\n\n" * 20_000)  # past SMALL_FILE_BYTES: cut into slices
    assert path.stat().st_size > batch.SMALL_FILE_BYTES
    reports = [r for _, r in batch.Batch([str(path)], jobs=2)]
    assert len(reports) == 1 and reports[0].unreadable
    assert "no record found" in reports[0].findings[0].message


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("playok-huge-tag-value", "playok"),
        ("playok-huge-escaped-tag-value", "playok"),
        ("sgf-empty-values", "sgf"),
        ("sgf-empty-move-values", "sgf"),
    ],
)
def test_long_repeats_in_one_value_or_property_take_no_memory_per_repeat(
    name: str, fmt: str
) -> None:
    # a PlayOK tag value of 256 kB, an SGF property of 87,000-131,000 values: the patterns'
    # repeats are possessive; a repeat that may backtrack keeps ~180 bytes a turn (46 MB
    # here)
    data = hostile.HOSTILE[name](256 << 10)
    recs, peak = read_traced(data, fmt)
    assert recs and all(r.format == fmt for r in recs)
    assert peak < 24 << 20
    if fmt == "playok":
        (rec,) = recs
        assert len(rec.metadata["black"]) > 100_000 and [m.token for m in rec.moves] == ["h8", "h9"]


def _codecs_lookup(name: str) -> codecs.CodecInfo | None:
    """What ``formats.lookup_codec`` answered before it was remembered and filtered."""
    try:
        return codecs.lookup(name)
    except (LookupError, ValueError, TypeError):
        return None


def test_charset_names_are_looked_up_as_python_would_and_cost_no_memory_for_life() -> None:
    # every name the standard codecs answer to, in other spellings too, answers as
    # codecs.lookup does; names it does not know are not asked of it (it tried to import a
    # module for each, and kept each for the life of the process: a megabyte of SGF games of
    # distinct charsets took 2 s, and a batch of such files 3.7 MB more a file)
    import encodings
    import pkgutil
    from encodings.aliases import aliases

    from renju_cli.formats import lookup_codec, text_codec

    known = set(aliases) | set(aliases.values())
    known |= {m.name for m in pkgutil.iter_modules(encodings.__path__)}
    odd = ["UTF-8", "Utf 8", "utf--8", " utf-8 ", "utf.8", "latin.1", "Windows 1251", "SJIS",
           "zlib", "base64", "rot13", "mbcs", "aliases", "utf-8\x00", "utf-8\ud800",
           "\u212aOI8-R", "x-cp1251", "utf-8" + "-" * 100]  # fmt: skip
    # (non-ASCII characters are runs of punctuation to codecs.lookup: "uİtf8" is no UTF-8, and
    # "cp1252+٣" is cp1252; dropped, the first was taken for UTF-8 and crashed a reader)
    odd += [f"{n[:2]}İ{n[2:]}" for n in sorted(known)] + [f"{n}+٣" for n in sorted(known)]
    for name in sorted(known) + [n.upper().replace("_", "-") for n in sorted(known)] + odd:
        info, was = lookup_codec(name), _codecs_lookup(name)
        assert (info and info.name) == (was and was.name), name
        text = was is not None and getattr(was, "_is_text_encoding", True)
        assert text_codec(name) == (was.name if text and was else None), name
    cache = encodings._cache
    before = len(cache)
    for i in range(3000):
        assert text_codec(f"cp{100_000 + i}") is None
        assert text_codec("utf" + "-" * (i % 40 + 1) + "8") == "utf-8"
    assert len(cache) == before
    recs = read(hostile.HOSTILE["sgf-distinct-charsets"](64 << 10), "sgf")
    assert len(cache) == before and len(recs) > 2000
    assert recs[7].notes == ["unknown charset CA[cp7]; text decoded as UTF-8 (or GB18030, cp1252)"]


# -- every hostile file, small ------------------------------------------------------------------
#: The hostile files built against memory: an expansion, deep nesting, text or events repeated
#: in every line of a tree or every report, one huge value or record, a pattern whose repeats
#: could keep state, setup stones many per byte, nodes kept whole.  Their reads are traced (the
#: others attack time or counts: their records and moves are bounded alike, untraced).
MEMORY_ATTACKS = frozenset({
    "renjunet-billion-laughs", "renjunet-huge-attribute", "renjunet-repeated-metadata",
    "renjunet-deep-nesting", "sgf-deep-nesting", "jsonl-deep-nesting", "jsonl-deep-window",
    "renlib-deep-line", "renlib-comb", "sgf-comb", "sgf-comb-bad-leaves", "sgf-long-comb",
    "sgf-problems-in-every-line", "sgf-comment-in-every-line", "renlib-comments-in-every-line",
    "sgf-damaged-root-siblings", "sgf-empty-nodes", "sgf-empty-variations",
    "sgf-valueless-properties", "sgf-pass-nodes", "sgf-junk-nodes", "sgf-setup-ranges",
    "sgf-setup-chain", "sgf-setup-chain-black-white", "sgf-setup-memo-chain",
    "sgf-setup-distinct-ranges", "sgf-distinct-charsets", "sgf-empty-values",
    "sgf-empty-move-values", "playok-huge-tag-value", "playok-huge-escaped-tag-value",
    "sgf-marked-pass-chain", "sgf-pass-chain-then-variations", "sgf-many-siblings",
    "sgf-commented-siblings", "renlib-wide", "sgf-siblings-with-swaps-cctsai",
    "sgf-siblings-with-offers-cctsai", "sgf-offers-before-siblings", "sgf-swaps-before-siblings",
    "sgf-nested-variations-wide", "jsonl-big-metadata", "sgf-comment-chain",
    "sgf-comment-chain-variations", "sgf-long-pl-comb", "sgf-long-re-comb",
    "sgf-long-bad-move-comb", "sgf-long-gn-info-leaves", "renjunet-swap-attribute",
    "renjunet-alt-attribute", "notation-relocations", "notation-rejections",
    "notation-one-big-offer", "renjunet-swaps-every-game", "renjunet-alts-every-game",
    "jsonl-offers-every-game", "jsonl-swaps-every-game", "jsonl-distinct-swaps",
    "renjunet-distinct-swaps", "notation-one-line", "jsonl-no-newline",
    "notation-continued-record", "sgf-unterminated-value", "renlib-endless-comment",
    "playok-open-comment", "playok-comments", "diagram-huge-board", "diagram-one-row",
    "diagram-bad-bytes-between-rows", "sgf-repeated-branch-comb", "notation-swaps-every-game",
    "notation-declares-then-results", "jsonl-repeated-branch-games",
})  # fmt: skip


def test_the_memory_attacks_are_hostile_files() -> None:
    assert sorted(MEMORY_ATTACKS - set(hostile.HOSTILE)) == []  # (a name gone or misspelt)


@pytest.mark.parametrize("name", sorted(hostile.HOSTILE))
def test_hostile_files_are_read_within_loose_bounds(name: str) -> None:
    data = hostile.HOSTILE[name](8 * 1024)
    options = ReadOptions(moves_allowance=4096)  # the allowance would hide the per-byte bound
    if name in MEMORY_ATTACKS:
        recs, peak = read_traced(data, None, options)
        assert peak < 64 << 20
    else:
        recs = read(data, None, options)
    assert 1 <= len(recs) <= len(data)  # never more records than bytes, and never none
    assert sum(len(r.moves) for r in recs) <= options.move_budget(len(data))


@pytest.mark.parametrize("name", sorted(hostile.HOSTILE))
def test_hostile_files_are_judged_and_rendered(name: str) -> None:
    fuzz_target.run_input(hostile.HOSTILE[name](2048), None)


def test_empty_nodes_of_a_sequence_are_not_kept() -> None:
    # (;SZ[15];;;;...;B[hh]): an empty node adds nothing to a line; 1 MB of ";" was a million
    # nodes (344 MB).  One that opens a variation is kept: it makes a line of its own.
    # (64 kB of them kept would take 22 MB: the peak stays near a megabyte.)
    data = b"(;SZ[15]" + b";" * (64 << 10) + b";B[hh])"
    recs, peak = read_traced(data, "sgf")
    assert [[m.token for m in r.moves] for r in recs] == [["B[hh]"]]
    assert peak < 4 << 20
    lines = read(b"(;B[hh](;)(;;W[ii]))", "sgf")
    assert [(r.source.variation, [m.token for m in r.moves]) for r in lines] == [
        ("main", ["B[hh]"]),
        ("1", ["B[hh]", "W[ii]"]),
    ]


@pytest.mark.parametrize("name", ["sgf-comment-in-every-line", "renlib-comments-in-every-line"])
def test_text_repeated_in_every_line_of_a_tree_counts_against_the_budget(name: str) -> None:
    # a tree repeats its root's text (an SGF root comment, RenLib comments before the leaves)
    # in the metadata of every line: 360 KB of SGF made 4 GB of report.  The text costs one
    # move per TEXT_PER_MOVE characters, so the lines stop at the file's move budget.
    from renju_cli.formats import TEXT_PER_MOVE, text_cost

    data = hostile.HOSTILE[name](256 << 10)
    recs = read(data)
    assert recs[-1].unreadable and "a tree this repetitive is refused" in messages(recs[-1:])
    held = sum(len(r.moves) + text_cost(r) for r in recs[:-1])
    assert held <= ReadOptions().move_budget(len(data))
    text = sum(len(v) for r in recs for v in r.metadata.values())
    assert text <= TEXT_PER_MOVE * ReadOptions().move_budget(len(data)) + len(data)


# -- endless input (fuzz/endless.py measures every probe for longer) ---------------------------
def test_an_endless_stream_is_read_in_bounded_memory() -> None:
    # in a small process of its own: Linux counts the peak memory of the process that started
    # ``renju check`` (here pytest, some hundreds of MB) in the peak of its child; the peaks
    # level off within half a second (25, 39 and 88 MB at 0.5 s as at 1.5 s)
    names = ["notation-no-line-end", "notation-continued", "sgf-one-tree"]
    script = Path(__file__).resolve().parents[1] / "fuzz" / "endless.py"
    done = subprocess.run(
        [sys.executable, str(script), "--seconds", "0.8", "--mb", "200", *names],
        capture_output=True,
        text=True,
        check=False,
    )
    rows = [json.loads(line.split("  <--")[0]) for line in done.stdout.splitlines()]
    assert [r["name"] for r in rows] == names and done.returncode == 0, done.stdout
    assert all(not r["traceback"] and r["exit"] in (1, 130) for r in rows)


def test_a_diagram_file_past_the_string_bound_is_unreadable_not_cut() -> None:
    """A diagram was read up to ``max_string`` bytes and the rest dropped without a word: 2 MB
    of blank lines then three rows read as a clean empty board."""
    from renju_cli.formats import ReadOptions, diagram

    rows = ". . . . .\n. . X . .\n. . . . .\n. . O . .\n. . . . .\n"
    [small] = diagram.read(io.BytesIO(rows.encode()), "d.txt", ReadOptions())
    assert not small.unreadable and len(small.setup) == 2
    for data, options in (
        (b"\n" * (2 << 20) + rows.encode(), ReadOptions()),
        (rows.encode(), ReadOptions(max_string=20)),  # --limit string=20
    ):
        [record] = diagram.read(io.BytesIO(data), "d.txt", options)
        assert record.unreadable and record.format == "diagram"
        assert "longer than" in record.problems[0].message


# -- pipes ----------------------------------------------------------------------------------------
class _Pipe(io.RawIOBase):
    """Standard input as a pipe delivers it: a few bytes a read, no size to ask; it fails
    (EIO) after ``good`` bytes when ``good`` is given."""

    def __init__(self, data: bytes, good: int | None = None, piece: int = 1000) -> None:
        super().__init__()
        self.data, self.at, self.good, self.piece = data, 0, good, piece

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.good is not None and self.at >= self.good:
            raise OSError(errno.EIO, "Input/output error")
        n = min(len(buffer), self.piece, len(self.data) - self.at)
        buffer[:n] = self.data[self.at : self.at + n]
        self.at += n
        return n


def _piped(
    monkeypatch: pytest.MonkeyPatch, data: bytes, good: int | None = None, piece: int = 1000
) -> None:
    stdin = io.TextIOWrapper(io.BufferedReader(_Pipe(data, good, piece), buffer_size=piece))
    monkeypatch.setattr(sys, "stdin", stdin)


def _as_read(recs: list[Record]) -> list[object]:
    return [
        (r.source.index, r.source.variation, r.format, len(r.moves), messages([r])) for r in recs
    ]


@pytest.mark.parametrize(
    ("name", "suffix"),
    [("renlib-wide", ".lib"), ("sgf-tiny-games", ".sgf"), ("renjunet-damaged-every-game", ".xml")],
)  # fmt: skip
def test_a_pipe_of_a_format_read_whole_is_bounded_by_its_size_as_a_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, suffix: str
) -> None:
    # a pipe's size is not known: it is read to its end first (in memory, or in a temporary
    # file past ``MEMORY`` bytes), and bounded as the file is (a small allowance puts a small
    # file past its bound as a megabyte is past the default one)
    data = hostile.HOSTILE[name](24 << 10)
    small = ReadOptions(records_allowance=256, resyncs_allowance=64)
    path = tmp_path / f"hostile{suffix}"
    path.write_bytes(data)
    named = list(api.read_path(str(path), options=small))
    assert "the rest" in messages(named[-1:])  # (past a bound of the file's size)
    assert len(read(data)) > len(named)  # (unsized: what the pipe gave before)
    for memory in (None, 5000):
        if memory is not None:
            monkeypatch.setattr("renju_cli.inputs._Spool.MEMORY", memory)
        _piped(monkeypatch, data)
        piped = list(api.read_path("-", options=small))
        assert _as_read(piped) == _as_read(named), memory


def test_a_pipe_longer_than_a_whole_file_may_be_is_read_on_as_a_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    games = b"(;GM[4]SZ[15];B[hh];W[hi])\n" * 1000  # 27 kB of SGF
    _piped(monkeypatch, games)
    (rec,) = api.read_path("-", options=ReadOptions(max_file=20000))
    assert rec.unreadable and "longer than 20000 bytes" in messages([rec])
    _piped(monkeypatch, b"h8 h9\n" * 5000)  # (a move list is never spooled: a live feed)
    assert len(list(api.read_path("-", options=ReadOptions(max_file=20000)))) == 5000


def test_a_read_error_while_a_pipe_is_read_ahead_keeps_what_came(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = b"(;GM[4]SZ[15];B[hh];W[hi])\n"
    _piped(monkeypatch, game * 1000, good=6000)
    recs = list(api.read_path("-"))
    assert all(r.format == "sgf" for r in recs[:-1]) and len(recs) > 200
    assert recs[-1].unreadable and "read error: Input/output error" in messages(recs[-1:])


#: A RenLib library past its bound by its size under a small allowance.
_WIDE = hostile.HOSTILE["renlib-wide"](32 << 10)
_SMALL = ReadOptions(records_allowance=256)


def test_a_pipe_read_ahead_with_no_room_left_on_disk_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # the temporary file past MEMORY fills the disk (after ``room`` bytes: at its first write,
    # in its middle, or never): what came is read as it stands, then the pipe as a stream
    # (all its records), or, with room enough, as a file of its size (cut at the bound)
    import tempfile

    unsized = _as_read(read(_WIDE, None, _SMALL))
    sized = _as_read(list(api.read_bytes(_WIDE, "<stdin>", options=_SMALL)))
    assert len(unsized) > len(sized)
    monkeypatch.setattr("renju_cli.inputs._Spool.MEMORY", 5000)
    for room in (0, 3000, 10000, 1 << 20):

        class Full(io.FileIO):
            def write(self, data: Any, room: int = room) -> int:
                left = room - self.tell()
                if left <= 0:
                    raise OSError(errno.ENOSPC, "No space left on device")
                return super().write(bytes(data)[:left])

        def temporary(*args: Any, _full: type[Full] = Full, **kwargs: Any) -> io.FileIO:
            return _full(str(tmp_path / "spool"), "w+b")

        monkeypatch.setattr(tempfile, "TemporaryFile", temporary)
        _piped(monkeypatch, _WIDE)
        piped = list(api.read_path("-", options=_SMALL))
        assert _as_read(piped) == (sized if room >= len(_WIDE) else unsized), room


def test_a_pipe_read_ahead_is_read_as_the_file_named_whatever_its_pieces_and_encoding(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a pipe written a byte at a time is read back in pieces of its size, not a byte a
    # piece; UTF-16 text is detected before it is recoded, so read ahead too; --limit
    # whole-file bounds how far RenjuNet and RenLib pipes are read ahead
    data = hostile.HOSTILE["renjunet-damaged-every-game"](12 << 10)
    path = tmp_path / "games.xml"
    path.write_bytes(data)
    named = list(api.read_path(str(path)))
    _piped(monkeypatch, data, piece=1)
    assert _as_read(list(api.read_path("-"))) == _as_read(named)
    small = ReadOptions(max_file=10_000)  # (--limit whole-file=10000)
    _piped(monkeypatch, data)
    assert _as_read(list(api.read_path("-", options=small))) == _as_read(
        list(api.read_path(str(path), options=small))
    )
    utf16 = codecs.BOM_UTF16_LE + ("(;B[hh])" * 4_000).encode("utf-16-le")
    few = ReadOptions(records_allowance=256)
    path = tmp_path / "tiny.sgf"
    path.write_bytes(utf16)
    named = list(api.read_path(str(path), options=few))
    _piped(monkeypatch, utf16)
    piped = list(api.read_path("-", options=few))
    assert len(named) < 4_000 and _as_read(piped) == _as_read(named)


@pytest.mark.parametrize(
    ("bom", "codec", "suffix"),
    [(codecs.BOM_UTF16_LE, "utf-16-le", ".pos"), (codecs.BOM_UTF32_LE, "utf-32-le", ".lib"),
     (codecs.BOM_UTF16_BE, "utf-16-be", ".xml"), (codecs.BOM_UTF16_LE, "utf-16-le", ".rif")],
)  # fmt: skip
def test_text_with_a_byte_order_mark_is_recoded_whatever_binary_extension_it_has(
    tmp_path: Path, bom: bytes, codec: str, suffix: str
) -> None:
    # an SGF game saved as UTF-16 with its mark and named .pos is no binary position: it is
    # recoded first, as the same text without a mark or piped in is, and then detected
    game = "(;GM[4]FF[4]SZ[15];B[hh];W[hi];B[ih];W[gh];B[jh])"
    path = tmp_path / f"game{suffix}"
    path.write_bytes(bom + game.encode(codec))
    (rec,) = api.read_path(str(path))
    assert (rec.format, len(rec.moves), rec.unreadable) == ("sgf", 5, False)
    database = '<?xml version="1.0"?><database><games><game><move>h8 h9</move></game></games>'
    path.write_bytes(bom + (database + "</database>").encode(codec))
    if suffix in (".xml", ".rif"):  # (a database so saved stays a database)
        (rec,) = api.read_path(str(path))
        assert (rec.format, len(rec.moves)) == ("renjunet", 2)


def test_threads_are_charged_their_own_walk_steps() -> None:
    # a thread checking a record is charged only the walk steps of its own checks, never the
    # steps other threads take meanwhile: a check in a thread is cut by the run's bound on
    # steps exactly where it is cut alone
    data = hostile.HOSTILE["sgf-siblings-with-swaps-cctsai"](8 << 10)  # 300 lines
    jobs = ["cctsai", "swap2", "renju-rif", "taraguchi-10"] * 2
    alone = {r: api.analyze_all(data, r, fmt="sgf") for r in set(jobs)}
    start = threading.Barrier(8)

    def check(rules: str) -> bool:
        with contextlib.suppress(threading.BrokenBarrierError):
            start.wait(timeout=5)
        return api.analyze_all(data, rules, fmt="sgf") == alone[rules]

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(check, jobs))
