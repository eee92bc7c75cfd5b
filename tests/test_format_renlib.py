"""RenLib ``.lib`` reader: real libraries from ../shared/corpus and hand-built bytes."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, detect, renlib
from renju_cli.record import Record

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus" / "renlib"
D4 = CORPUS / "D4.lib"
ALL = CORPUS / "Allrenjuopenings.lib"
OPENINGS = SHARED / "data" / "openings26.json"

HEADER = renlib.MAGIC + bytes([3, 0]) + b"\xff" * 10


def need(path: Path) -> Path:
    if not path.is_file():
        pytest.skip(f"shared sample {path} is absent (checkout without ../shared)")
    return path


def s(text: bytes) -> bytes:
    """A RenLib string: 0-terminated, padded to even length."""
    raw = text + b"\0"
    return raw + b"\0" * (len(raw) % 2)


def lib(*nodes: bytes, header: bytes = HEADER) -> bytes:
    return header + b"".join(nodes)


def records(data: bytes, **opts: Any) -> list[Record]:
    return list(renlib.read(io.BytesIO(data), "t.lib", ReadOptions(**opts)))


def names(record: Record) -> list[str]:
    return ["pass" if m.point is None else m.point.name for m in record.moves]


def pt(name: str) -> Point:
    return parse_point(name)


# --- real samples ----------------------------------------------------------------------------


def read_file(path: Path, **opts: Any) -> list[Record]:
    with need(path).open("rb") as f:
        return list(renlib.read(f, str(path), ReadOptions(**opts)))


def nodes_of(path: Path) -> list[renlib.Node]:
    with need(path).open("rb") as f:
        return list(renlib.iter_nodes(f))


@pytest.fixture(scope="module")
def all_records() -> list[Record]:
    return read_file(ALL, encoding="gbk")


@pytest.mark.parametrize(
    ("path", "n_nodes", "n_leaves", "n_comments"),
    [(D4, 3058, 350, 145), (ALL, 39_884, 4_223, 953)],
)
def test_counts_match_sources_md(path: Path, n_nodes: int, n_leaves: int, n_comments: int) -> None:
    # The counts stated in corpus/SOURCES.md: a wrong stack rule or string length would desync
    # the node stream long before the end of the file.
    nodes = nodes_of(path)
    assert len(nodes) == n_nodes
    assert sum(n.is_leaf for n in nodes) == n_leaves
    assert sum(n.has_comment for n in nodes) == n_comments
    recs = read_file(path)
    assert len(recs) == n_leaves  # one record per root-to-leaf line
    assert not any(r.problems for r in recs)


def test_d4_first_moves() -> None:
    # SOURCES.md: D4 (Kagetsu) theory, first moves h8 h9 i9; bytes 0x78 0x68 0x69 after the header.
    recs = read_file(D4)
    first = recs[0]
    assert [m.point for m in first.moves[:3]] == [Point(7, 7), Point(7, 8), Point(8, 8)]
    assert names(first)[:3] == ["h8", "h9", "i9"]
    assert all(names(r)[:3] == ["h8", "h9", "i9"] for r in recs)
    assert first.moves[0].offset == 20  # right after the 20-byte header
    assert first.metadata["renlib.version"] == "3.0"
    assert (first.width, first.height, first.format) == (15, 15, "renlib")


def test_d4_comment_stays_on_its_node() -> None:
    # At offset 0x56 the bytes are 7a c8 "Transition to opening D7": j8, sibling + leaf + comment.
    recs = read_file(D4)
    hits = [(r, i) for r in recs for i, m in enumerate(r.moves) if m.offset == 0x56]
    assert len(hits) == 1  # a leaf: exactly one line goes through it
    record, i = hits[0]
    assert record.moves[i].point == pt("j8")
    assert record.moves[i].comment == "Transition to opening D7"
    assert record.source.offset == 0x56  # the leaf's own offset


def test_records_in_preorder_of_leaves() -> None:
    recs = read_file(D4)
    assert [r.source.index for r in recs] == list(range(len(recs)))
    assert [r.source.variation for r in recs] == [str(i + 1) for i in range(len(recs))]
    offsets = [r.source.offset for r in recs]
    leaves = [n.offset for n in nodes_of(D4) if n.is_leaf]
    assert offsets == leaves
    assert leaves == sorted(leaves)  # file order is pre-order


def test_all_openings_match_canonical_table(all_records: list[Record]) -> None:
    # Orientation check independent of the spec's nibble table: the library spells out the 26
    # openings under h8; the third-level nodes must be exactly the 26 entries of
    # data/openings26.json (standard orientation, rows from the bottom), and each node's comment
    # ("Opening Direct 4, D4 ...") names the same id.  A row-mirrored reading would put stone 2 on
    # h7/i7 and match none.
    table = json.loads(need(OPENINGS).read_text(encoding="utf-8"))["openings"]
    by_stones = {(o["stones"][1]["point"], o["stones"][2]["point"]): o["id"] for o in table}
    line: list[renlib.Node] = []
    seen: dict[tuple[str, str], str] = {}
    with ALL.open("rb") as f:
        for node in renlib.iter_nodes(f):
            del line[node.depth :]
            line.append(node)
            if node.depth == 2:
                p2, p3 = line[1].point, node.point
                assert p2 is not None and p3 is not None
                seen[(p2.name, p3.name)] = node.comment or ""
    assert set(seen) == set(by_stones)
    for stones, comment in seen.items():
        assert f", {by_stones[stones]}" in comment, (stones, comment)
    assert len(all_records) == 4_223


def test_gbk_comment_with_encoding_option(all_records: list[Record]) -> None:
    # The root comment is "Welcome to RenLib" + 0x08 + a GBK multi-line part.
    root = all_records[0].moves[0]
    assert root.point == pt("h8")
    assert root.comment is not None
    assert root.comment.startswith("Welcome to RenLib\n★欢迎使用Renlib棋谱库软件！\n")
    assert "\r" not in root.comment


def test_gbk_comment_without_encoding_does_not_crash() -> None:
    with need(ALL).open("rb") as f:
        first = next(renlib.read(f, str(ALL), ReadOptions()))
    comment = first.moves[0].comment
    assert comment is not None and comment.startswith("Welcome to RenLib\n")  # cp1252 mojibake


def test_detection_of_samples() -> None:
    head = need(D4).read_bytes()[:4096]
    assert renlib.sniff(head) == 2
    assert detect(head, "whatever.bin") == "renlib"


BOARD = CORPUS / "emilgardis_board"

#: Libraries saved by RenLib itself (SOURCES.md): each file's lines (moves per line) and the
#: severities of what its end says.  Four of them were unreadable: a last node without the
#: leaf flag, or a stray byte after the tree, is how RenLib writes and reads them.
SAVED_BY_RENLIB = {
    "example_for_science_with_variant_maybe.lib": ([5, 4, 6], []),
    "lib_3_is_pass.lib": ([4], []),
    "lib_4_in_corner.lib": ([16, 1], []),
    "lib_comment.lib": ([2], ["warning"]),
    "lib_two_top_rows.lib": ([30, 1], []),
    "merges_all.lib": ([8, 8, 10, 8], []),
    "null_move.lib": ([10, 5, 4], []),
    "null_move2.lib": ([10, 5, 4, 3], []),
    "one_move.lib": ([1], ["info"]),
    "pos_4th_is_a_pass.lib": ([5], ["info"]),
    "rps-fail.lib": ([20, 50, 29, 6, 12, 46, 38, 12], ["info"]),
}


@pytest.mark.parametrize("name", sorted(SAVED_BY_RENLIB))
def test_libraries_saved_by_renlib_are_read_whole(name: str) -> None:
    lengths, severities = SAVED_BY_RENLIB[name]
    recs = read_file(BOARD / name)
    assert [len(r.moves) for r in recs] == lengths
    assert [p.severity for r in recs for p in r.problems] == severities
    assert not any(r.unreadable for r in recs)


def test_libraries_saved_by_renlib_in_detail() -> None:
    # a 3.4 header and its no-move root; a pass with RenLib's comment; the first rows
    (rec,) = read_file(BOARD / "lib_3_is_pass.lib")
    assert rec.metadata["renlib.version"] == "3.4"
    assert names(rec) == ["h8", "i9", "pass", "k8"] and rec.moves[2].comment == "Pass"
    first, _ = read_file(BOARD / "lib_4_in_corner.lib")
    assert names(first)[:4] == ["a15", "b15", "c15", "d15"] and names(first)[-1] == "o1"
    # a comment of CR LF lines (only a multi-line part)
    merged = read_file(BOARD / "merges_all.lib")
    assert merged[0].moves[0].comment == "all\nup\nright\nleft"
    # 176 nodes, the first flagged as the start position, 9 comments naming online games
    nodes = nodes_of(BOARD / "rps-fail.lib")
    assert len(nodes) == 176 and nodes[0].is_start
    assert sum(n.has_comment for n in nodes) == 9
    last = read_file(BOARD / "rps-fail.lib")[-1]
    assert last.metadata["renlib.start"] == "1"
    assert "which has no leaf flag" in last.problems[0].message


# --- hand-built libraries --------------------------------------------------------------------

#  h8 ─┬─ h9 "main" ── i9
#      └─ i9 ── pass ── j10
TREE = lib(
    b"\x78\x00",
    b"\x68\x88" + s(b"main"),
    b"\x69\x40",
    b"\x69\x00",
    b"\x00\x00",
    b"\x5a\x40",
)


def test_siblings_comment_and_pass() -> None:
    recs = records(TREE)
    assert [names(r) for r in recs] == [["h8", "h9", "i9"], ["h8", "i9", "pass", "j10"]]
    assert recs[0].moves[1].comment == "main"
    assert recs[1].moves[2].is_pass
    assert [m.offset for m in recs[1].moves] == [20, 32, 34, 36]
    assert [r.source.offset for r in recs] == [30, 36]
    assert not any(r.problems for r in recs)


def test_node_walk() -> None:
    nodes = list(renlib.iter_nodes(io.BytesIO(TREE)))
    assert [(n.depth, n.kind) for n in nodes] == [
        (0, "move"),
        (1, "move"),
        (2, "move"),
        (1, "move"),
        (2, "pass"),
        (3, "move"),
    ]
    assert nodes[1].has_sibling and nodes[1].has_comment and not nodes[1].is_leaf


def test_point_bytes() -> None:
    # high nibble = row from the top (0-based), low nibble = column (1-based)
    assert renlib.point_from_byte(0x78) == pt("h8")
    assert renlib.point_from_byte(0x01) == pt("a15")  # top-left
    assert renlib.point_from_byte(0x0F) == pt("o15")
    assert renlib.point_from_byte(0xE1) == pt("a1")  # bottom-left
    assert renlib.point_from_byte(0xEF) == pt("o1")
    assert not renlib.point_from_byte(0x10).on_board(15)  # low nibble 0
    assert not renlib.point_from_byte(0xF1).on_board(15)  # row 15 from the top


def test_null_root_of_renlib_34() -> None:
    header = renlib.MAGIC + bytes([3, 4]) + b"\xff" * 10
    data = lib(b"\x00\x08" + s(b"root"), b"\x78\x80", b"\x68\x40", b"\x69\x40", header=header)
    recs = records(data)
    # The null root is no move (not a pass); h8 and i9 are siblings under it.
    assert [names(r) for r in recs] == [["h8", "h9"], ["i9"]]
    assert recs[0].metadata["renlib.comment.0"] == "root"
    assert recs[0].metadata["renlib.version"] == "3.4"


def ext(first: int, second: int) -> bytes:
    """The two extension bytes of a node flagged 0x01, in file order."""
    return bytes([first, second])


def test_board_text_is_a_flag_of_the_second_extension_byte() -> None:
    # RenLib keeps a node's flags as one 24-bit value: the flag byte, then the SECOND extension
    # byte (bits 8-15: board text is 0x100), then the first (bits 16-23).  Read from the first
    # byte, the text was taken for the next node and the tree fell apart after line 1.
    data = lib(
        b"\x78\x00",  # h8
        b"\x68\xc3" + ext(0, 1) + s(b"D"),  # h9: sibling, leaf, no move, extension: label D
        b"\x77\xc3" + ext(0, 1) + s(b"BC"),  # g8: label BC (odd length + 0: no padding)
        b"\x79\x80",  # i8, a move with a sibling
        b"\x69\x40",  # i9
        b"\x88\x43" + ext(0, 1) + s(b"C"),  # h7: leaf, no move, label C
    )
    recs = records(data)
    assert [names(r) for r in recs] == [["h8"], ["h8"], ["h8", "i8", "i9"], ["h8"]]
    # a label belongs to the position before its node, at the node's point
    assert [r.metadata.get("renlib.board_text.1") for r in recs] == ["h9 D", "g8 BC", None, "h7 C"]
    assert not any(r.problems for r in recs)
    nodes = list(renlib.iter_nodes(io.BytesIO(data)))
    assert [n.has_board_text for n in nodes] == [False, True, True, False, False, True]
    assert nodes[1].flags == 0x1C3 and nodes[1].kind == "none"


def test_unknown_extension_bits_carry_no_data() -> None:
    # a first extension byte of 0x01 is bit 16, no board text: nothing follows the node
    data = lib(b"\x78\x01" + ext(1, 0), b"\x68\x40")
    (rec,) = records(data)
    assert names(rec) == ["h8", "h9"] and not rec.problems
    assert "renlib.board_text.0" not in rec.metadata


def test_a_move_with_a_comment_and_a_board_text() -> None:
    # the comment comes first, then the board text; both stay with their node
    data = lib(b"\x78\x09" + ext(0, 1) + s(b"centre") + s(b"1"), b"\x68\x40")
    (rec,) = records(data)
    assert rec.moves[0].comment == "centre"
    assert rec.metadata["renlib.board_text.0"] == "h8 1"


def test_no_move_node_with_a_comment() -> None:
    data = lib(b"\x78\x00", b"\x00\x0a" + s(b"note"), b"\x68\x40")
    (rec,) = records(data)
    assert names(rec) == ["h8", "h9"]
    assert rec.metadata["renlib.comment.1"] == "note"


def test_marks_and_the_start_position() -> None:
    #  h8 (start) -- h9 (marked) -- i9 (marked)
    data = lib(b"\x78\x04", b"\x68\x10", b"\x69\x50")
    (rec,) = records(data)
    assert names(rec) == ["h8", "h9", "i9"]
    assert rec.metadata["renlib.marks"] == "2 3"
    assert rec.metadata["renlib.start"] == "1"
    nodes = list(renlib.iter_nodes(io.BytesIO(data)))
    assert [n.is_start for n in nodes] == [True, False, False]
    assert [n.is_marked for n in nodes] == [False, True, True]


def test_stones_on_the_first_rows_and_in_the_corners() -> None:
    header = renlib.MAGIC + bytes([3, 4]) + b"\xff" * 10
    data = lib(b"\x00\x00", b"\x01\x00", b"\x0f\x00", b"\x1f\x00", b"\xe1\x00", b"\xef\x40",
               header=header)  # fmt: skip
    (rec,) = records(data)
    assert names(rec) == ["a15", "o15", "o14", "a1", "o1"]


def test_both_comment_flags_read_the_old_comment_only() -> None:
    # RenLib reads an old-style comment or a new one, never both
    data = lib(b"\x78\x28" + bytes([ord("o") | 0x80, 0]), b"\x68\x40")
    (rec,) = records(data)
    assert names(rec) == ["h8", "h9"] and rec.moves[0].comment == "o"


def test_multiline_and_old_comments() -> None:
    data = lib(
        b"\x78\x08" + s(b"title\x08line 1\r\nline 2"),
        b"\x68\x20" + bytes([ord("h"), ord("i") | 0x80]),  # old style, even length
        b"\x69\x60" + bytes([ord("a") | 0x80, 0]),  # old style, padded
    )
    (rec,) = records(data)
    assert [m.comment for m in rec.moves] == ["title\nline 1\nline 2", "hi", "a"]


def test_old_comment_letters_and_lines_as_renlib_reads_them() -> None:
    # 7-bit text: "{" "|" "}" stand for a-umlaut, o-umlaut, a-ring; 0x08 starts the multi-line part
    text = b"G{rd\x08r|d}"
    data = lib(b"\x78\x60" + text[:-1] + bytes([text[-1] | 0x80, 0]))  # padded to even
    (rec,) = records(data)
    assert rec.moves[0].comment == "Gärd\nrödå"


def test_old_headerless_format() -> None:
    (rec,) = records(b"\x78\x00\x68\x40")
    assert names(rec) == ["h8", "h9"]
    assert "renlib.version" not in rec.metadata
    assert renlib.sniff(b"\x78\x00\x68\x40") == 1


def test_sniff_text_starting_with_x() -> None:
    assert renlib.sniff(b"x . . o\n. x . .\n") == 0
    assert renlib.sniff(b"") == 0
    assert renlib.sniff(b"\x0ap\x61") == 0


def test_cp1251_comment_with_encoding() -> None:
    text = "Привет, мир"
    data = lib(b"\x78\x48" + s(text.encode("cp1251")))
    (rec,) = records(data, encoding="cp1251")
    assert rec.moves[0].comment == text
    (fallback,) = records(data)  # not UTF-8: cp1252 mojibake, never an error
    assert fallback.moves[0].comment == text.encode("cp1251").decode("cp1252")
    (unknown,) = records(data, encoding="no-such-codec")
    assert unknown.moves[0].comment == fallback.moves[0].comment
    assert any("no-such-codec" in n for n in unknown.notes)


def test_utf8_comment_by_default() -> None:
    (rec,) = records(lib(b"\x78\x48" + s("ü".encode())))
    assert rec.moves[0].comment == "ü"


# --- bad input -------------------------------------------------------------------------------


def fatal(record: Record) -> tuple[str, int | None]:
    assert record.unreadable and not record.moves
    (problem,) = record.problems
    return problem.message, problem.offset


def problem(record: Record) -> tuple[str, int | None, str]:
    """The one problem of a record that was read: message, offset, severity."""
    assert not record.unreadable
    (found,) = record.problems
    return found.message, found.offset, found.severity


def test_a_last_node_without_the_leaf_flag_ends_its_line() -> None:
    # RenLib saves a single line or a branch so: the line ends at the end of the file (it was
    # one unreadable record, and the line was lost)
    data = TREE[:36]  # the pass at offset 34 has no leaf flag and nothing follows
    recs = records(data)
    assert [names(r) for r in recs] == [["h8", "h9", "i9"], ["h8", "i9", "pass"]]
    assert not recs[0].problems
    message, offset, severity = problem(recs[1])
    assert severity == "info" and offset == 36
    assert "the node at offset 34, which has no leaf flag" in message
    assert recs[1].source.offset == 34 and recs[1].source.index == 1


def test_siblings_announced_but_not_written() -> None:
    data = TREE[:32]  # after h9's line: its sibling i9 (announced at offset 22) is not there
    recs = records(data)
    assert [names(r) for r in recs] == [["h8", "h9", "i9"]]
    message, offset, severity = problem(recs[0])
    assert severity == "info" and offset == 32
    assert "siblings announced (flag 0x80) by the nodes at offsets 22" in message


def test_a_single_move_saved_by_renlib() -> None:
    # one_move.lib as RenLib 3.0 writes it: h8 and nothing else, no leaf flag
    (rec,) = records(lib(b"\x78\x00"))
    assert names(rec) == ["h8"] and problem(rec)[2] == "info"


def test_the_end_of_the_file_inside_a_string_or_a_node() -> None:
    # inside h9's comment: the text read by whole pairs is kept, and the line ends at h9
    recs = records(TREE[:27])
    assert [names(r) for r in recs] == [["h8", "h9"]]
    assert recs[0].moves[1].comment == "ma"
    message, offset, severity = problem(recs[0])
    assert severity == "warning" and offset == 27  # where the data ends
    assert "inside the comment of the node at offset 22" in message
    # one byte of a node: not read
    recs = records(TREE[:31])  # i9's first byte
    assert [names(r) for r in recs] == [["h8", "h9"]]
    message, offset, severity = problem(recs[0])
    assert severity == "warning" and "middle of a node at offset 30" in message
    # inside a node's extension bytes: that node is not read (RenLib drops it too)
    recs = records(lib(b"\x78\x00", b"\x68\x01\x00"))
    assert [names(r) for r in recs] == [["h8"]]
    message, _, severity = problem(recs[0])
    assert severity == "warning" and "extension bytes of the node at offset 22" in message
    # a file of less than one node is no library
    message, offset = fatal(records(TREE[:21])[-1])
    assert "middle of a node" in message and offset == 20


def test_truncated_real_file_keeps_every_line() -> None:
    data = need(D4).read_bytes()
    full = records(data)
    cut = records(data[:4000])
    assert not any(r.unreadable for r in cut)
    done = cut[:-1]
    assert len(done) > 10
    assert [names(r) for r in done] == [names(r) for r in full[: len(done)]]
    assert not any(r.problems for r in done)
    last = cut[-1]
    assert names(last) == names(full[len(done)])[: len(last.moves)]  # the line being read
    assert last.problems[0].offset is not None and last.problems[0].offset <= 4000
    assert last.problems[0].severity in ("info", "warning")


def test_not_a_library() -> None:
    for data in (b"", b"\x01\x02\x03", b"\xffNotLib\xff" + b"\xff" * 12, HEADER[:12]):
        (rec,) = records(data)
        _, offset = fatal(rec)
        assert offset is not None
    (rec,) = records(HEADER)
    assert "no nodes" in fatal(rec)[0]
    (rec,) = records(HEADER[:5])
    assert fatal(rec) == ("file ends inside the 20-byte header", 5)
    (rec,) = records(b"\xffNotLib")
    assert fatal(rec) == ("not a RenLib library: bad header signature", 0)


def test_bytes_after_the_tree_are_not_read() -> None:
    # the last line is closed (a leaf, no sibling announced): what follows is no node of it
    recs = records(lib(b"\x78\x40", b"\x68\x00"))
    assert [names(r) for r in recs] == [["h8"]]
    message, offset, severity = problem(recs[0])
    assert severity == "warning" and offset == 22
    assert message.startswith("2 bytes after the end of the tree are not read")
    # one stray byte (lib_comment.lib ends so): RenLib reads pairs and ignores it
    recs = records(lib(b"\x78\x40", b"\x0a"))
    message, offset, severity = problem(recs[0])
    assert (severity, offset) == ("warning", 22)
    assert "one byte after the end of the tree (0x0a) is no node" in message


def test_deeper_than_max_depth() -> None:
    data = lib(b"\x78\x00" * 5000, b"\x68\x40")
    message, offset = fatal(records(data, max_depth=100)[-1])
    assert "deeper than 100" in message and offset == 20 + 2 * 100
    # the default bound (4096) also holds, without recursion or an exception
    message, offset = fatal(records(data)[-1])
    assert offset == 20 + 2 * 4096


def test_deep_sibling_stack_is_bounded() -> None:
    # every node announces a sibling and has a child: the stack grows with the depth
    data = lib(b"\x78\x80" * 300)
    _, offset = fatal(records(data, max_depth=50)[-1])
    assert offset == 20 + 2 * 50


def test_string_longer_than_max_string() -> None:
    data = lib(b"\x78\x48" + s(b"x" * 100))
    message, _ = fatal(records(data, max_string=10)[-1])
    assert "longer than 10" in message


def test_max_records() -> None:
    recs = records(TREE, max_records=1)
    assert names(recs[0]) == ["h8", "h9", "i9"]
    assert "more than 1 lines" in fatal(recs[1])[0]


def test_is_a_generator() -> None:
    # Records come out as leaves are reached: the first one is available before the bad tail.
    gen: Iterator[Record] = renlib.read(io.BytesIO(TREE + b"junk"), "t.lib", ReadOptions())
    assert names(next(gen)) == ["h8", "h9", "i9"]


def test_random_garbage_never_raises() -> None:
    rng = random.Random(1234)
    for _ in range(300):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200)))
        for data in (HEADER + body, b"\x78" + body):
            recs = records(data)
            assert recs  # at least the fatal record
            assert all(r.format == "renlib" for r in recs)
            assert all(not r.unreadable for r in recs[:-1])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_never_raises(body: bytes) -> None:
    recs = records(HEADER + body)
    assert recs
    for rec in recs:
        for problem in rec.problems:
            assert problem.offset is not None and 0 <= problem.offset <= len(HEADER) + len(body)
