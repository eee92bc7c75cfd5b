"""Tests of the SGF reader and writer, on small hand-written records.

No real SGF file is in the shared corpus, so every sample here is written by hand; coordinates are
pinned in standard notation (SGF rows count from the top: on 15x15 ``hh`` is h8, ``aa`` is a15).
"""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, detect, sgf
from renju_cli.formats.sgf import nodes, reader, tokenizer, walk
from renju_cli.record import (
    BLACK,
    WHITE,
    DeclaredResult,
    Move,
    OpeningEvent,
    Record,
    SourceLocation,
)


def read(data: str | bytes, **options: Any) -> list[Record]:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return list(sgf.read(io.BytesIO(raw), "mem.sgf", ReadOptions(**options)))


def names(record: Record) -> list[str]:
    return ["pass" if m.point is None else m.point.name for m in record.moves]


def colors(record: Record) -> list[str]:
    return [str(m.color) for m in record.moves]


def one(data: str | bytes, **options: Any) -> Record:
    records = read(data, **options)
    assert len(records) == 1, records
    return records[0]


# --- coordinates and the basic structure ------------------------------------------------------


def test_coordinates_are_top_origin() -> None:
    # hh = column h, 8th row from the top = h8 on 15x15 (the centre); hg is one row higher = h9;
    # ii = i7; aa = top-left = a15; oo = bottom-right = o1.
    rec = one("(;GM[4]FF[4]SZ[15];B[hh];W[hg];B[ii];W[aa];B[oo])")
    assert rec.moves[0].point == Point(7, 7)
    assert names(rec) == ["h8", "h9", "i7", "a15", "o1"]
    assert colors(rec) == ["black", "white", "black", "white", "black"]
    assert (rec.width, rec.height) == (15, 15)
    assert rec.format == "sgf"
    assert rec.source.variation == "main"
    assert rec.problems == []


def test_collection_of_two_trees_gm4_gm5_and_no_gm() -> None:
    data = (
        "(;GM[4]SZ[15]PB[Ann];B[hh];W[hi])\n"
        "(;GM[5]SZ[15]PB[Bob]\n;B[hh]\n;W[ig])\n"
        "(;SZ[15];B[aa])\n"
    )
    records = read(data)
    assert [r.source.index for r in records] == [0, 1, 2]
    assert [r.source.line for r in records] == [1, 2, 5]
    assert [r.metadata.get("black") for r in records] == ["Ann", "Bob", None]
    assert names(records[0]) == ["h8", "h7"]
    assert names(records[1]) == ["h8", "i9"]
    assert [m.line for m in records[1].moves] == [3, 4]
    assert names(records[2]) == ["a15"]
    assert all(r.notes == [] and r.problems == [] for r in records)


def test_other_game_type_is_read_with_a_note() -> None:
    rec = one("(;GM[1]SZ[15];B[hh])")
    assert names(rec) == ["h8"]
    assert any("GM[1]" in n for n in rec.notes)


@pytest.mark.parametrize(
    ("size", "width", "height", "expected"),
    [
        ("15", 15, 15, ["h8", "a15"]),
        ("20", 20, 20, ["h13", "a20"]),  # row 8 from the top of 20 rows = row 13
        ("15:20", 15, 20, ["h13", "a20"]),
        ("19:15", 19, 15, ["h8", "a15"]),
    ],
)
def test_sizes(size: str, width: int, height: int, expected: list[str]) -> None:
    rec = one(f"(;GM[4]SZ[{size}];B[hh];W[aa])")
    assert (rec.width, rec.height) == (width, height)
    assert names(rec) == expected


def test_no_size_uses_the_option_and_states_it() -> None:
    rec = one("(;GM[4];B[hh])", board_size=19)
    assert (rec.width, rec.height) == (19, 19)
    assert names(rec) == ["h12"]


@pytest.mark.parametrize("size", ["4", "27", "x", "15:"])
def test_bad_size_is_an_unreadable_record(size: str) -> None:
    rec = one(f"(;GM[4]SZ[{size}];B[hh])")
    assert rec.unreadable
    assert rec.moves == []
    assert "SZ" in rec.problems[-1].message


def test_passes_tt_and_empty() -> None:
    rec = one("(;GM[4]SZ[15];B[hh];W[tt];B[];W[ hh ])")
    assert names(rec) == ["h8", "pass", "pass", "h8"]
    assert [m.is_pass for m in rec.moves] == [False, True, True, False]
    assert rec.moves[1].token == "W[tt]"


def test_tt_is_a_point_on_boards_over_19() -> None:
    rec = one("(;GM[4]SZ[21];B[tt];W[])")
    assert names(rec) == ["t2", "pass"]  # column t, row 20 from the top of 21 = row 2


def test_off_board_column_is_kept_for_the_referee() -> None:
    rec = one("(;GM[4]SZ[15];B[hh];W[ph])")
    assert rec.moves[1].point == Point(15, 7)
    assert not rec.moves[1].point.on_board(15, 15)
    assert rec.problems == []


@pytest.mark.parametrize("bad", ["zz", "h", "hhh", "H8", "1a"])
def test_bad_coordinates_stop_the_line(bad: str) -> None:
    rec = one(f"(;GM[4]SZ[15]\n;B[hh]\n;W[{bad}]\n;B[ii])")
    assert names(rec) == ["h8"]
    assert len(rec.problems) == 1
    assert rec.problems[0].line == 3
    assert not rec.unreadable


def test_colors_come_from_the_properties() -> None:
    rec = one("(;GM[4]SZ[15];B[hh];B[ii];W[jj])")
    assert colors(rec) == ["black", "black", "white"]


def test_long_property_names_of_ff3() -> None:
    rec = one("(;GaMe[4]SiZe[15]PlayerBlack[Ann]AddBlack[aa];Black[hh];White[hi])")
    assert names(rec) == ["h8", "h7"]
    assert rec.metadata["black"] == "Ann"
    assert rec.setup == [(parse_point("a15"), BLACK)]


# --- variations -------------------------------------------------------------------------------


VARIATIONS = """(;GM[4]SZ[15]RE[B+]
;B[hh]
;W[hi]
(;B[ii]
;W[jj]
(;B[gg])
(;B[kk]))
(;B[gi]C[second]
;W[ig])
(;B[ji]))
"""


def test_variations_main_line_first_then_every_path() -> None:
    records = read(VARIATIONS)
    assert [r.source.variation for r in records] == ["main", "0.1", "1", "2"]
    assert [names(r) for r in records] == [
        ["h8", "h7", "i7", "j6", "g9"],
        ["h8", "h7", "i7", "j6", "k5"],
        ["h8", "h7", "g7", "i9"],
        ["h8", "h7", "j7"],
    ]
    assert {r.source.index for r in records} == {0}
    assert {r.source.line for r in records} == {1}
    assert [m.line for m in records[2].moves] == [2, 3, 8, 9]
    assert records[2].moves[2].comment == "second"
    assert all(r.declared_result == DeclaredResult("black", None, "B+") for r in records)


def test_deep_nesting_does_not_blow_the_stack() -> None:
    depth = 20_000
    data = "(;GM[4]SZ[15]" + "(;B[hh]" * depth + ")" * (depth + 1)
    records = read(data, max_depth=100)
    assert len(records) == 1
    assert len(records[0].moves) == 99
    assert any("nested deeper" in p.message for p in records[0].problems)
    # default bound (4096): still no recursion error
    records = read(data)
    assert len(records[0].moves) == 4095


# A variation tree for the tests below: (properties of a node, its children).
Tree = tuple[str, list["Tree"]]


def tree_sgf(root: Tree) -> tuple[str, list[tuple[str, list[tuple[int, str]]]]]:
    """The tree in SGF, one node a line, and its root-to-leaf paths in pre-order: the path id
    and the (line, properties) of every node of the path."""
    lines: list[str] = []
    paths: list[tuple[str, list[tuple[int, str]]]] = []

    def emit(node: Tree, opener: str, path: list[tuple[int, str]], ids: list[int]) -> None:
        props, children = node
        lines.append(f"{opener};{props}")
        path = [*path, (len(lines), props)]
        if not children:
            while ids and ids[-1] == 0:
                ids = ids[:-1]
            paths.append((".".join(map(str, ids)) or "main", path))
        elif len(children) == 1:
            emit(children[0], "", path, ids)
        else:
            for i, child in enumerate(children):
                emit(child, "(", path, [*ids, i])
                lines[-1] += ")"

    emit(root, "(", [], [])
    lines[-1] += ")"
    return "\n".join(lines) + "\n", paths


def linear_sgf(path: list[tuple[int, str]]) -> str:
    """One path as a game tree without variations, each node on its line in the tree."""
    lines = [""] * path[-1][0]
    for line, props in path:
        lines[line - 1] = f";{props}"
    lines[0] = "(" + lines[0]
    lines[-1] += ")"
    return "\n".join(lines) + "\n"


def assert_paths_read_alone_alike(root: Tree, **options: Any) -> list[Record]:
    """The records of a tree are those of its paths read one by one as separate games."""
    data, paths = tree_sgf(root)
    records = read(data, **options)
    assert [r.source.variation for r in records] == [variation for variation, _ in paths]
    for record, (variation, path) in zip(records, paths, strict=True):
        alone = one(linear_sgf(path), **options)
        assert alone.source.variation == "main"
        # (a line of the tree also names where it leaves the line before: ``record.Branch``)
        assert record == dataclasses.replace(
            alone,
            source=dataclasses.replace(alone.source, variation=variation),
            branch=record.branch,
        )
    return records


BRANCHES: Tree = (
    "GM[4]SZ[15]PB[Ann]C[root]",
    [
        ("B[hh]C[centre]", []),
        (
            "B[hh]",
            [
                (
                    "W[hi]",
                    [
                        ("B[ii]", [("W[gg]C[main]", [("B[jj]RE[B+R]", [])])]),
                        ("B[j]C[bad]", [("W[kk]PW[Bob]SW[what]", [("B[ll]C[late]", [])])]),
                        (
                            "AB[aa]AW[bb]C[setup]",
                            [
                                ("B[kk]SW[N]", [("C[a note]", []), ("W[ll]5A[aa][bb]", [])]),
                                ("W[mm]C[one]", [("C[two]RU[swap2]", [])]),
                            ],
                        ),
                    ],
                ),
                ("W[ig]AE[hh]", []),
            ],
        ),
        ("AB[hh]C[more]", [("W[ii]", [("PW[Cy]GN[yamaguchi]", [])])]),
    ],
)


def test_variation_records_are_their_paths_read_alone() -> None:
    # the records of a tree are built resuming from the previous path (comments copied onto
    # moves, setup, a bad move, events, game info in a variation): each must be the record of
    # its path walked from the root
    records = assert_paths_read_alone_alike(BRANCHES)
    assert [(r.source.variation, names(r)) for r in records] == [
        ("main", ["h8"]),
        ("1", ["h8", "h7", "i7", "g9", "j6"]),
        ("1.0.1", ["h8", "h7"]),
        ("1.0.2", ["h8", "h7", "k5"]),
        ("1.0.2.0.1", ["h8", "h7", "k5", "l4"]),
        ("1.0.2.1", ["h8", "h7", "m3"]),
        ("1.1", ["h8", "i9"]),
        ("2", ["i7"]),
    ]
    main, line, bad, note, offers, two, erase, setup = records
    assert main.metadata == {"comment": "root", "black": "Ann"}
    assert main.moves[0].comment == "centre"
    assert [m.comment for m in line.moves] == [None, None, None, "main", None]
    assert line.declared_result == DeclaredResult("black", "resign", "B+R")
    assert bad.metadata == {"comment": "root", "black": "Ann", "white": "Bob"}
    assert [p.message for p in bad.problems] == [
        "bad coordinate [j] in B[j]; the moves from here on are not kept"
    ]
    assert bad.notes == [] and bad.opening_events == []  # after the bad move: not read
    assert [p.message for p in note.problems] == [
        "setup stones (AB/AW/AE) after move 2 cannot be replayed; ignored"
    ]
    assert note.moves[2].comment == "a note"
    assert note.opening_events == [OpeningEvent("no-swap", after=3, line=12)]
    assert [e.kind for e in offers.opening_events] == ["no-swap", "offers"]
    assert offers.moves[2].comment is None
    assert two.moves[2].comment == "one\ntwo"
    assert (two.rule, two.metadata["rule_name"]) == ("swap2", "swap2")
    assert len(erase.problems) == 1 and erase.moves[1].comment is None
    assert setup.setup == [(Point(7, 7), BLACK)]
    assert list(setup.metadata.items()) == [
        ("comment", "root\nmore"),
        ("black", "Ann"),
        ("white", "Cy"),
        ("game_name", "yamaguchi"),
        ("rule_name", "yamaguchi"),
    ]
    assert setup.rule == "yamaguchi"
    # the moves of a shared prefix are the same objects, a commented copy included
    assert all(a is b for a, b in zip(note.moves[:2], offers.moves[:2], strict=True))
    assert note.moves[2] is not offers.moves[2]  # C[a note] is set on a copy


def test_lines_of_a_tree_have_a_declared_result_of_their_own() -> None:
    # (the root's game info is read once for the lines of its tree: each gets a copy)
    a, b = read("(;GM[4]RE[B+R];B[hh](;W[ii])(;W[jj]))")
    assert a.declared_result == b.declared_result == DeclaredResult("black", "resign", "B+R")
    assert a.declared_result is not b.declared_result


def test_a_node_read_ahead_at_a_parenthesis_is_not_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # at each "(" the parser reads the next node to see whether it starts a new game (GM, FF);
    # a node that does not is taken as read: four nodes, four reads (six otherwise)
    parsed: list[int] = []
    parse_node = tokenizer.Parser.parse_node

    def counted(self: Any, line: int, is_root: bool = False) -> Any:
        parsed.append(line)
        return parse_node(self, line, is_root)

    monkeypatch.setattr(tokenizer.Parser, "parse_node", counted)
    records = read("(;GM[4]\n;B[hh]\n(;W[ii]!)\n(;W[jj]))")
    assert parsed == [1, 2, 3, 4]
    assert [names(r) for r in records] == [["h8", "i7"], ["h8", "j6"]]
    assert [[p.line for p in r.problems] for r in records] == [[3], []]


NODES = st.sampled_from(
    [
        "B[hh]",
        "W[ii]",
        "B[jj]C[c]",
        "W[]",
        "B[a]",
        "W[zz]",
        "AB[aa]",
        "AW[bb]C[s]",
        "AE[aa]",
        "C[c]",
        "SW[N]",
        "SW[x]",
        "SW[3]",
        "5A[hh][ii]",
        "RE[W+T]",
        "RE[B+R]",
        "PB[P]",
        "GN[renju]",
        "RU[bad]",
        "ON[D4]",
        "W[gg]!",  # (junk: a problem of the node, read ahead at a "(" and then taken as read)
        "",
    ]
)
TREES: st.SearchStrategy[Tree] = st.recursive(
    st.tuples(NODES, st.just([])),
    lambda kids: st.tuples(NODES, st.lists(kids, min_size=1, max_size=3)),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(TREES, st.sampled_from([4096, 2]), st.sampled_from(["", "GM[3]"]))
def test_random_trees_paths_are_read_alone_alike(root: Tree, max_moves: int, game: str) -> None:
    # (``GM`` on the root only: on a variation's first node it starts a new game)
    assert_paths_read_alone_alike((game + root[0], root[1]), max_moves=max_moves)


def test_deep_comb_shares_moves_and_walks_each_node_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # every node of a deep line has a one-node side variation: n paths of up to n + 1 moves
    n = 300
    data = "(;SZ[15]" + ";B[hh](;W[ii]C[side])(" * n + ")" * (n + 1)
    calls = 0
    node_info = walk.node_info

    def counting(node: Any, ctx: Any, no_room: bool = False, text_only: bool = False) -> Any:
        nonlocal calls
        calls += 1
        return node_info(node, ctx, no_room, text_only)

    monkeypatch.setattr(walk, "node_info", counting)
    records = read(data)
    assert len(records) == n
    assert [r.source.variation for r in records[:3]] == ["main", "1", "1.1"]
    assert records[-1].source.variation == ".".join(["1"] * (n - 1))
    for i, record in enumerate(records):
        assert names(record) == ["h8"] * (i + 1) + ["i7"]
        assert record.moves[-1].comment == "side"
        # the line's moves are the same objects in every record, not copies
        assert all(
            a is b for a, b in zip(record.moves[:-1], records[-1].moves[: i + 1], strict=True)
        )
    assert records[0].moves[-1] is not records[1].moves[-1]
    # each node is walked about once (2n + 1 nodes), not once per path through it (n * n / 2)
    assert calls <= 2 * (2 * n + 1)


def test_max_moves_and_max_string() -> None:
    data = "(;GM[4]SZ[15]C[" + "x" * 100 + "]" + ";B[hh];W[ii]" * 10 + ")"
    rec = one(data, max_moves=5, max_string=10)
    assert len(rec.moves) == 5
    assert any("more than 5 moves" in p.message for p in rec.problems)
    assert rec.metadata["comment"] == "x" * 10
    assert any("cut to 10" in n for n in rec.notes)


def test_max_records() -> None:
    records = read("(;B[hh])" * 5, max_records=3)
    assert len(records) == 4
    assert records[-1].unreadable


# --- setup, results, rules, opening events ----------------------------------------------------


def test_setup_stones_are_not_moves() -> None:
    rec = one("(;GM[4]SZ[15]AB[hh][ii]AW[hi]AB[aa:bb];W[jj];B[kk])")
    assert names(rec) == ["j6", "k5"]
    assert [(p.name, c) for p, c in rec.setup] == [
        ("h8", BLACK),
        ("i7", BLACK),
        ("h7", WHITE),
        ("a15", BLACK),
        ("b15", BLACK),
        ("a14", BLACK),
        ("b14", BLACK),  # the aa:bb rectangle
    ]


def test_setup_after_a_move_is_a_problem() -> None:
    rec = one("(;GM[4]SZ[15];B[hh]\n;AB[aa];W[ii])")
    assert rec.setup == []
    assert names(rec) == ["h8", "i7"]
    assert rec.problems[0].line == 2


@pytest.mark.parametrize(
    ("value", "winner", "reason"),
    [
        ("B+Resign", "black", "resign"),
        ("B+R", "black", "resign"),
        ("W+Time", "white", "time"),
        ("W+T", "white", "time"),
        ("B+", "black", None),
        ("W+", "white", None),
        ("W+F", "white", "forfeit"),
        ("B+Five", "black", "five"),
        ("B+3.5", "black", None),
        ("0", "draw", None),
        ("Draw", "draw", None),
        ("Void", None, "void"),
    ],
)
def test_results(value: str, winner: str | None, reason: str | None) -> None:
    rec = one(f"(;GM[4]SZ[15]RE[{value}];B[hh])")
    assert rec.declared_result is not None
    assert rec.declared_result.winner == winner
    assert rec.declared_result.reason == reason
    assert rec.declared_result.text == value


@pytest.mark.parametrize("value", ["", "?", "unknown", "*"])
def test_no_result(value: str) -> None:
    assert one("(;GM[4]SZ[15];B[hh])").declared_result is None
    rec = one(f"(;GM[4]SZ[15]RE[{value}];B[hh])")
    assert rec.declared_result is None and rec.problems == []


@pytest.mark.parametrize(
    ("prop", "rule", "rule_name"),
    [
        ("RU[renju]", "renju-rif", "renju"),
        ("RU[RIF]", "renju-rif", "RIF"),
        ("RU[Yamaguchi]", "yamaguchi", "Yamaguchi"),
        ("RU[Soosyrv-8]", "soosyrv-8", "Soosyrv-8"),
        ("RU[Soosõrv-8]", "soosyrv-8", "Soosõrv-8"),
        ("RU[Taraguchi-10]", "taraguchi-10", "Taraguchi-10"),
        ("RU[swap2]", "swap2", "swap2"),
        ("RU[freestyle]", "freestyle", "freestyle"),
        ("RU[standard]", "standard", "standard"),
        ("RU[gomoku]", "freestyle", "gomoku"),
        ("RU[Japanese]", None, "Japanese"),
        ("RU[Soosyrv-5]", None, "Soosyrv-5"),
        ("GN[Renju RIF 2005]", "renju-rif", "rif"),
        ("GN[World Championship, Yamaguchi rule]", "yamaguchi", "yamaguchi"),
        ("GN[Gomoku swap2 final]", "swap2", "swap2"),
        ("GN[Taraguchi-10 tournament renju]", "taraguchi-10", "taraguchi-10"),
        ("GN[Gomoku]", "freestyle", "gomoku"),
        ("GN[Friendly game]", None, None),
    ],
)
def test_rule_names(prop: str, rule: str | None, rule_name: str | None) -> None:
    rec = one(f"(;GM[4]SZ[15]{prop};B[hh])")
    assert rec.rule == rule
    assert rec.metadata.get("rule_name") == rule_name


def test_ru_wins_over_gn() -> None:
    rec = one("(;GM[4]SZ[15]GN[Yamaguchi cup]RU[swap2];B[hh])")
    assert rec.rule == "swap2"
    assert rec.metadata["game_name"] == "Yamaguchi cup"


def test_fifth_move_offers_5a_and_fa() -> None:
    rec = one("(;GM[4]SZ[15]5A[ii][gg];B[hh];W[hi];B[ii];W[jj];B[gg])")
    assert rec.opening_events == [
        OpeningEvent("offers", after=4, points=[parse_point("i7"), parse_point("g9")], line=1)
    ]
    rec = one("(;GM[4]SZ[15];B[hh];W[hi];B[ii];W[jj]\n;B[gg]FA[gg][kk])")
    event = rec.opening_events[0]
    assert (event.kind, event.after, event.line) == ("offers", 4, 2)
    assert [p.name for p in event.points] == ["g9", "k5"]
    rec = one("(;GM[4]SZ[15]FA[ggkk];B[hh])")  # several points in one value
    assert [p.name for p in rec.opening_events[0].points] == ["g9", "k5"]


def test_swap_values() -> None:
    rec = one("(;GM[4]SZ[15]SW[3];B[hh];W[hi];B[ii])")
    assert [(e.kind, e.after) for e in rec.opening_events] == [("swap", 3)]
    rec = one("(;GM[4]SZ[15]SW[Y];B[hh])")  # a flag before any stone: point not stated
    assert [(e.kind, e.after) for e in rec.opening_events] == [("swap", -1)]
    rec = one("(;GM[4]SZ[15];B[hh];W[hi];B[ii]SW[yes];W[jj]SW[N])")
    assert [(e.kind, e.after) for e in rec.opening_events] == [("swap", 3), ("no-swap", 4)]
    rec = one("(;GM[4]SZ[15]SW[maybe];B[hh])")
    assert rec.opening_events == []
    assert any("SW[maybe]" in n for n in rec.notes)


def test_metadata_and_comments() -> None:
    data = (
        "(;GM[4]SZ[15]PB[Ann \\] Smith]PW[Bob]EV[Cup]DT[2024-05-01]RO[3]PC[Tallinn]ON[d4]"
        "C[root comment]\n;B[hh]C[centre\\\nstill the same line]\n;W[hi]\n;C[no move here])"
    )
    rec = one(data)
    assert rec.metadata == {
        "black": "Ann ] Smith",
        "white": "Bob",
        "event": "Cup",
        "date": "2024-05-01",
        "round": "3",
        "place": "Tallinn",
        "opening": "d4",
        "comment": "root comment",
    }
    assert rec.opening_id == "D4"
    assert rec.moves[0].comment == "centrestill the same line"  # soft line break removed
    assert rec.moves[1].comment == "no move here"  # a moveless node's comment joins the move


# --- charsets ---------------------------------------------------------------------------------


def test_ca_gb2312() -> None:
    data = "(;GM[4]CA[GB2312]SZ[15]PB[李明]PW[王芳]C[黑先];B[hh]C[天元])".encode("gb2312")
    rec = one(data)
    assert (rec.metadata["black"], rec.metadata["white"]) == ("李明", "王芳")
    assert rec.metadata["comment"] == "黑先"
    assert rec.moves[0].comment == "天元"


def test_ca_gbk_trail_bytes_that_look_like_brackets() -> None:
    # 0x81 0x5C and 0x81 0x5D are GBK characters whose second byte is '\' or ']'
    tricky = bytes([0x81, 0x5C]).decode("gbk") + bytes([0x81, 0x5D]).decode("gbk")
    data = f"(;GM[4]PB[{tricky}]CA[GBK]SZ[15]PW[x];B[hh])".encode("gbk")
    rec = one(data)
    assert rec.metadata["black"] == tricky
    assert rec.metadata["white"] == "x"
    assert names(rec) == ["h8"]


def test_ca_utf8_and_fallbacks() -> None:
    rec = one("(;GM[4]CA[UTF-8]SZ[15]PB[Tõnu Õun];B[hh])".encode())
    assert rec.metadata["black"] == "Tõnu Õun"
    # no CA: UTF-8 when it decodes, else Latin-1
    rec = one("(;GM[4]SZ[15]PB[Jürgen];B[hh])".encode("latin-1"))
    assert rec.metadata["black"] == "Jürgen"
    # the option comes before UTF-8
    rec = one("(;GM[4]SZ[15]PB[Пётр];B[hh])".encode("cp1251"), encoding="cp1251")
    assert rec.metadata["black"] == "Пётр"
    # a wrong or unknown CA never fails
    rec = one("(;GM[4]CA[no-such-charset]SZ[15]PB[日本];B[hh])".encode())
    assert rec.metadata["black"] == "日本"
    assert any("CA[no-such-charset]" in n for n in rec.notes)
    rec = one(b"(;GM[4]CA[UTF-8]SZ[15]PB[\xff\xfe];B[hh])")
    assert rec.metadata["black"] == "\xff\xfe"


@pytest.mark.parametrize("charset", ["cp037", "cp500", "UTF-16", "UTF-32-LE"])
def test_a_charset_that_does_not_write_sgf_as_ascii_is_ignored(charset: str) -> None:
    # the file's SGF was read as ASCII, so its text is not in EBCDIC or UTF-16: decoded so,
    # GM[4] was read as GM[\x94] (a note "not gomoku") and names were garbled
    rec = one(f"(;GM[4]CA[{charset}]SZ[15]PB[Jürgen];B[hh])".encode())
    assert rec.metadata["black"] == "Jürgen"
    assert rec.notes == [
        f"charset CA[{charset}] does not write SGF's characters as ASCII, as the file does; "
        "ignored: text decoded as UTF-8 (or GB18030, cp1252)"
    ]


def test_a_charset_that_writes_sgf_as_ascii_is_used() -> None:
    # UTF-7 writes the structure, names and points as ASCII ("+" starts its escapes)
    rec = one(b"(;GM[4]CA[UTF-7]SZ[15]PB[+AOk-];B[hh])")
    assert rec.metadata["black"] == "\xe9" and rec.notes == []


# --- malformed input --------------------------------------------------------------------------


@pytest.mark.parametrize("tail", ["h8 h9 i10\n", "\n\n  junk", ";B[hh]", "x\x00"])
def test_text_after_the_last_tree_is_said(tail: str) -> None:
    # move-list lines pasted after an SGF game were read past without a word
    game, rest = read("(;GM[4]SZ[15];B[hh];W[hi])\n\n" + tail)
    assert names(game) == ["h8", "h7"] and not game.problems
    assert rest.unreadable and rest.source.index == 1
    (problem,) = rest.problems
    line = 3 if tail.strip()[0] != "j" else 5
    assert problem.line == line
    assert problem.message == f"text after the last game tree (line {line}) is not SGF; not read"


@pytest.mark.parametrize("tail", ["", "\n \t\r\n", "\x00\x00", "\x1a"])
def test_blanks_after_the_last_tree_are_nothing(tail: str) -> None:
    # (padding and a DOS end-of-file mark too)
    assert names(one("(;GM[4]SZ[15];B[hh])" + tail)) == ["h8"]


def test_unclosed_tree_followed_by_a_good_one() -> None:
    data = "(;GM[4]SZ[15]\n;B[hh]\n;W[hi]\n\n(;GM[4]SZ[15]PB[Good]\n;B[aa]\n;W[ab])\n"
    first, second = read(data)
    assert names(first) == ["h8", "h7"]
    assert first.problems[0].line == 1
    assert "not closed" in first.problems[0].message
    assert not first.unreadable
    assert (second.source.index, second.source.line) == (1, 5)
    assert names(second) == ["a15", "a14"]
    assert second.metadata["black"] == "Good"
    assert second.problems == []


def test_unterminated_value_resyncs_at_the_next_tree() -> None:
    data = "(;GM[4]SZ[15]\n;B[hh]\n;W[hi\n(;GM[4]SZ[15]\n;B[ii])\n"
    first, second = read(data)
    assert names(first) == ["h8"]
    assert first.problems[0].line == 3
    assert "never closed" in first.problems[0].message
    assert names(second) == ["i7"]
    assert second.source.line == 4
    assert [m.line for m in second.moves] == [5]


def test_unterminated_value_at_the_end() -> None:
    rec = one("(;GM[4]SZ[15];B[hh]C[runs off the end")
    assert names(rec) == ["h8"]
    assert any("never closed" in p.message for p in rec.problems)


def test_unbalanced_close_and_stray_text() -> None:
    records = read("(;GM[4]SZ[15];B[hh]))\n(;GM[4]SZ[15];B[ii])")
    assert [names(r) for r in records] == [["h8"], ["i7"]]
    assert any("unbalanced ')'" in p.message for p in records[1].problems)
    records = read("(;GM[4]SZ[15];B[hh]))")
    assert len(records) == 2
    assert records[1].unreadable


def test_empty_and_not_sgf() -> None:
    assert read("")[0].unreadable
    assert read("just text")[0].unreadable
    assert read("()")[0].unreadable


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_never_raises_on_random_bytes(data: bytes) -> None:
    read(b"(;GM[4]SZ[15]" + data)
    read(data)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="()[];\\BWABC5FSZ: hijt\n", max_size=120))
def test_never_raises_on_sgf_like_text(text: str) -> None:
    for rec in read(text, max_depth=8):
        assert all(m.point is None or m.point.x < 26 for m in rec.moves)


# --- detection --------------------------------------------------------------------------------


def test_sniff() -> None:
    assert sgf.sniff(b"(;GM[4]SZ[15];B[hh])") == 2
    assert sgf.sniff(b"\xef\xbb\xbf  \n(;FF[4]") == 2
    assert sgf.sniff(b"Saved by X\n(;GM[4]SZ[15])") == 1
    assert sgf.sniff(b"h8 h9 i8") == 0
    assert sgf.sniff(b"Piskvorky 20x20, 7:7, 0") == 0
    assert detect(b"(;GM[4]SZ[15];B[hh])", "game.sgf") == "sgf"


# --- writer -----------------------------------------------------------------------------------


def roundtrip(records: list[Record]) -> list[Record]:
    out = io.StringIO()
    sgf.write(records, out)
    return read(out.getvalue())


def key(record: Record) -> tuple[Any, ...]:
    return (
        [(m.point, m.color) for m in record.moves],
        [(e.kind, e.after, e.points) for e in record.opening_events],
        record.setup,
        record.declared_result.winner if record.declared_result else None,
        record.declared_result.reason if record.declared_result else None,
        (record.width, record.height),
        record.rule,
    )


def test_roundtrip_of_a_read_record() -> None:
    data = (
        "(;GM[4]SZ[15]RU[Yamaguchi]RE[W+Time]PB[A]PW[B]EV[E]DT[2020]RO[1]SW[3]5A[ii][gg]"
        "AB[aa]AW[ob];B[hh];W[hi];B[ij]SW[Y];W[jj];B[gg]C[kept];W[];B[kk])"
    )
    original = one(data)
    again = roundtrip([original])
    assert len(again) == 1
    assert key(again[0]) == key(original)
    assert again[0].metadata == original.metadata
    assert again[0].moves[4].comment == "kept"


def test_roundtrip_of_built_records() -> None:
    moves = [Move(parse_point(t)) for t in ["h8", "h9", "i8", "g8", "j8"]]
    records = [
        Record(
            moves=moves,
            source=SourceLocation("x"),
            width=15,
            height=15,
            declared_result=DeclaredResult("draw"),
            rule="renju-rif",
            opening_events=[
                OpeningEvent("swap", after=3),
                OpeningEvent("offers", after=4, points=[parse_point("j8"), parse_point("f8")]),
            ],
        ),
        Record(
            moves=[Move(parse_point("a1"), WHITE), Move(None, BLACK)],
            source=SourceLocation("x"),
            width=15,
            height=20,
            declared_result=DeclaredResult("white", "resign"),
            setup=[(parse_point("o20"), BLACK)],
        ),
        Record(moves=moves, source=SourceLocation("x")),  # no size: written as 15x15
    ]
    again = roundtrip(records)
    assert len(again) == 3
    # colours not stated in the record are written alternating from black, and read back
    assert [(m.point, m.color) for m in again[0].moves] == [
        (m.point, c) for m, c in zip(moves, [BLACK, WHITE, BLACK, WHITE, BLACK], strict=True)
    ]
    assert key(again[0])[1:] == key(records[0])[1:]
    assert key(again[1]) == key(records[1])
    assert (again[2].width, again[2].height) == (15, 15)
    assert [m.point for m in again[2].moves] == [m.point for m in moves]
    assert again[2].declared_result is None


def test_writer_text() -> None:
    rec = Record(
        moves=[Move(parse_point("h8")), Move(parse_point("h9"))],
        source=SourceLocation("x"),
        width=15,
        height=15,
        metadata={"black": "A]\\B"},
        declared_result=DeclaredResult("black", "five"),
    )
    out = io.StringIO()
    sgf.write([rec], out)
    text = out.getvalue()
    assert text.startswith("(;FF[4]GM[4]CA[UTF-8]SZ[15]PB[A\\]\\\\B]RE[B+Five]")
    assert ";B[hh];W[hg]" in text
    assert one(text).metadata["black"] == "A]\\B"


def test_writer_rejects_unwritable_points() -> None:
    rec = Record(moves=[Move(Point(3, 20))], source=SourceLocation("x"), width=15, height=15)
    with pytest.raises(ValueError, match="cannot be written"):
        sgf.write([rec], io.StringIO())


def test_setup_stones_past_the_board_points_are_cut_once() -> None:
    # 1,000 AB properties on a 5x5 board (25 points): one problem, 25 stones kept
    records = read("(;SZ[5]" + "AB[aa]" * 1000 + "AW[bb][cc];B[dd])")
    (record,) = records
    assert len(record.setup) == 25
    assert [p.message for p in record.problems] == [
        "more setup stones (AB/AW) than the board has points; the rest are ignored"
    ]
    assert [m.point for m in record.moves] == [parse_point("d2")]  # SGF rows from the top


def test_setup_stones_of_a_line_past_the_board_points_are_cut_once() -> None:
    # the same cut for a line of setup nodes (100,000 nodes ``;AB[aa:zz]`` held 67 million
    # stones: 580 MB for a 1 MB file): a 5x5 board, 40 nodes of 5 stones each
    #
    #   5 X X X X X     every node the same row of five (AB[aa:ea]): 200 stones
    #   4 . . . . .     written, at most 25 kept; a second line, after the cut is taken
    #   ...             back, cuts and says so again
    chain = "".join(";AB[aa:ea]" for _ in range(40))
    records = read("(;SZ[5]" + chain + "(;B[cc])(;W[dd]))")
    assert len(records) == 2
    for record in records:
        assert len(record.setup) == 25
        assert [p.message for p in record.problems] == [
            "the line's setup stones (AB/AW) before move 1 are more than the board has points; "
            "the rest are ignored"
        ]
    # one node filling the board exactly is no cut
    (whole,) = read("(;SZ[5];AB[aa:ee];B[cc])")
    assert len(whole.setup) == 25 and not whole.problems


def test_plain_and_escaped_values_read_alike() -> None:
    # the one-match reading of plain values must leave every other case to the full reader
    plain = read("(;GM[4]SZ[15]PB[A]C[x]AB[aa] [bb]\n;B[hh])")[0]
    escaped = read("(;GM[4]SZ[15]PB[A]C[x]AB[aa] [bb]\n;B[hh]C[a\\]b])")[0]
    assert plain.setup == escaped.setup and plain.moves[0].point == escaped.moves[0].point
    assert escaped.moves[0].comment == "a]b"
    cut = read("(;SZ[15]AB[aa][bb;B[hh])")[0]  # an unterminated value after a plain one
    assert cut.problems and "value without a property name" not in cut.problems[0].message


def test_trees_of_a_collection_keep_their_own_size_and_charset() -> None:
    # the reader reuses the previous tree's context (decoder, size) only while CA and SZ stay
    # the same: every tree is read as if alone
    trees = [
        b"(;SZ[15];B[aa])",
        b"(;SZ[15];B[aa])",
        b"(;SZ[19];B[aa])",
        b"(;SZ[99];B[aa])",
        b"(;B[aa])",
        b"(;CA[latin-1]C[caf\xe9])",
        b"(;CA[bogus]C[x])",
        b"(;CA[bogus]C[x])",
        b"(;C[caf\xc3\xa9])",
        b"(;SZ[15](;B[aa])(;B[bb]))",
    ]
    alone = [one(t) for t in trees[:-1]] + read(trees[-1])
    together = read(b"".join(trees))  # one line: the same line numbers as alone
    assert len(together) == len(alone)
    for a, b in zip(alone, together, strict=True):
        assert dataclasses.replace(a, source=b.source) == b
    assert [r.height for r in together[:3]] == [15, 15, 19]
    assert together[3].unreadable
    assert together[5].metadata["comment"] == together[8].metadata["comment"] == "café"
    assert any("unknown charset" in n for n in together[7].notes)
    assert [r.source.variation for r in together[-2:]] == ["main", "1"]


def test_sizes_and_charsets_that_come_back_are_read_as_the_first_time() -> None:
    # a collection may change SZ or CA in every game (484 rectangles): sizes and decoders are
    # remembered by value across trees, and a size or charset seen before reads as it did
    trees = [
        b"(;SZ[9];B[aa];W[ii])",
        b"(;SZ[11:13];B[aa];W[km])",
        b"(;CA[latin-1]SZ[9]C[caf\xe9];B[ab])",
        b"(;SZ[ 9 ];B[aa])",
        b"(;SZ[9:27];B[aa])",
        b"(;CA[bogus]SZ[9];B[cc])",  # (a root with a note of its own: walked each time)
        b"(;SZ[9];RE[B+R]PB[x];B[aa];W[ii];B[ab])",
    ]
    first = read(b"".join(trees))
    again = read(b"".join(trees * 3))
    assert len(again) == 3 * len(first)
    for k, record in enumerate(again):
        alone = first[k % len(trees)]
        assert dataclasses.replace(record, source=alone.source) == alone
    assert [(r.width, r.height) for r in first[:4]] == [(9, 9), (11, 13), (9, 9), (9, 9)]
    assert first[1].moves[1].point == Point(10, 0)  # km: column k, the 13th row from the top
    assert first[2].metadata["comment"] == "café"
    assert first[4].unreadable
    assert "unsupported board size SZ[9:27]" in first[4].problems[-1].message
    assert any("unknown charset" in n for n in again[-2].notes)
    assert again[-1].metadata["black"] == "x" and again[-1].declared_result is not None


def test_setup_stones_count_against_the_file_budget() -> None:
    """A compressed point list is a rectangle of stones: ``AB[aa:zz]`` (9 bytes) is 676 stones
    to place, and 1 MB of such games took 36 s.  Setup stones count against the file's budget
    (2 a byte + 65,536), two moves each (each game places them anew, where a line's moves
    are resumed): past it, one unreadable record ends the file."""
    data = b"(;SZ[26]AB[aa:zz])" * 2_000
    records = list(sgf.read(io.BytesIO(data), "setup.sgf", ReadOptions()))
    *kept, refused = records
    assert all(len(r.setup) == 676 for r in kept)
    budget = ReadOptions().move_budget(len(data))
    assert len(kept) == budget // (sgf.SETUP_COST * 676 + 1)  # each game: its node, its stones
    assert refused.unreadable and "setup stones" in refused.problems[0].message
    # the same stones written one by one are as many bytes as stones: all read
    written = (
        b"(;SZ[26]AB"
        + b"".join(b"[%c%c]" % (97 + x, 97 + y) for x in range(26) for y in range(26))
        + b")"
    )
    assert len(list(sgf.read(io.BytesIO(written * 20), "setup.sgf", ReadOptions()))) == 20


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ("\u0661\u0665", "bad board size SZ[\u0661\u0665]"),  # Arabic-Indic 15: not SGF digits
        ("x" * 100, "bad board size SZ[" + "x" * 40 + "...]"),
        ("30", "unsupported board size SZ[30] (sizes 5 to 26 are read)"),
    ],
)
def test_a_bad_board_size_is_quoted_as_written(size: str, message: str) -> None:
    # the value was shown decoded as Latin-1 ("SZ[Ù¡Ù¥]") and whole, however long
    data = f"(;SZ[{size}];B[hh])".encode()
    [record] = sgf.read(io.BytesIO(data), "size.sgf", ReadOptions())
    assert record.unreadable and record.problems[0].message == message


@pytest.mark.parametrize(
    "first",
    [
        "(;FF[4]GM[4]SZ[15];B[hh];W[hi]C[oops\n",  # a comment whose "]" is missing
        "  (;FF[4]GM[4]SZ[15];B[hh];W[hi]C[oops\n",
        # CA[GBK] on UTF-8 text: the double-byte reading of 中 (E4 B8 AD) took the "]" along
        "(;FF[4]GM[4]CA[GBK]SZ[15];B[hh];W[hi]C[\u4e2d])\n",
    ],
)
def test_a_text_value_left_open_does_not_swallow_the_next_game(first: str) -> None:
    # the value ran on to the next "]", in the next game: one record of 4 moves, with the
    # second game's players and result, and no finding
    second = "(;FF[4]GM[4]SZ[15]PB[Carol]RE[W+R];B[aa];W[ab])\n"
    recs = read((first + second).encode("utf-8"))
    assert len(recs) == 2
    assert len(recs[0].moves) == 2 and "black" not in recs[0].metadata
    assert [p.message for p in recs[0].problems] == [
        "property value opened at line 1 is never closed (missing ']')"
    ]
    assert recs[1].metadata["black"] == "Carol" and len(recs[1].moves) == 2
    assert recs[1].source.line == 2


def test_a_long_chain_of_comment_nodes_is_read_in_linear_time() -> None:
    # (;GM[4];B[hh];C[x];C[x]...): each comment node was joined onto the move's comment at
    # once, copying it whole every time (1 MB: 1.9 s, 2 MB: 6 s); the comments are the same
    n = 20_000
    (rec,) = read("(;GM[4]C[r1];C[r2];B[hh]" + ";C[x]" * n + ";W[ii])")
    assert rec.metadata["comment"] == "r1\nr2"
    assert rec.moves[0].comment == "\n".join(["x"] * n) and rec.moves[1].comment is None
    # (time is measured in bench/, not here: fuzz/hostile.py sgf-comment-chain)


def test_a_comment_chain_before_variations_is_kept_whole_in_each_line() -> None:
    # the same chain before two variations: every node's mark kept the move with its longer
    # comment (1 MB: 24 GB, killed); the lines of the tree carry the same comments as before
    n = 5_000
    first, second = read("(;GM[4];B[hh]" + ";C[x]" * n + "(;W[aa];C[y])(;W[bb]))")
    chain = "\n".join(["x"] * n)
    assert [m.comment for m in first.moves] == [chain, "y"]
    assert [m.comment for m in second.moves] == [chain, None]
    assert first.moves[0] == second.moves[0]


def test_a_walk_keeps_its_state_only_where_a_later_line_leaves_the_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a chain of passes before two variations, and a branch half way: the walk kept a mark of
    # its state before every node of the chain (260,000 nodes: 42 MB of marks, 226 MB in
    # all); it keeps one before each node whose parent has several children
    n = 2_000
    kept: list[int] = []
    rewind = walk.PathWalk.rewind

    def counted(line_walk: Any, depth: int) -> None:
        kept.append(len(line_walk.marks))
        rewind(line_walk, depth)

    monkeypatch.setattr(walk.PathWalk, "rewind", counted)
    half = ";B[]" * (n // 2)
    lines = read(f"(;SZ[15]{half}(;W[aa]{half}(;B[bb])(;B[cc]))(;W[dd]))")
    assert [len(r.moves) for r in lines] == [n + 2, n + 2, n // 2 + 1]
    assert [r.moves[-1].point for r in lines] == [parse_point(p) for p in ("b14", "c13", "d12")]
    assert max(kept) <= 4


def test_the_problems_of_a_tree_s_nodes_are_made_a_thousand_at_most() -> None:
    """A node of junk on every line (``;!``): a megabyte made 349,000 problems (2.7 s, 157 MB)
    of which a report lists 100.  The first ``MAX_NODE_PROBLEMS`` are made, the rest counted in
    one problem of the tree; a look ahead at a ``(`` does not count twice."""
    junk = b"(;GM[4];B[hh]" + b";!\n" * 3000 + b"(;W[ii];!)(;W[jj]))"
    [first, second] = list(sgf.read(io.BytesIO(junk), "junk.sgf", ReadOptions()))
    for record in (first, second):
        said = [p.message for p in record.problems]
        assert said.count("unexpected text '!' in a node") == sgf.MAX_NODE_PROBLEMS
        assert (
            f"2001 more problems in the nodes of this game tree are not listed (the first "
            f"{sgf.MAX_NODE_PROBLEMS} are)" in said
        )
    # the next tree starts with room for its own
    two = junk + b"\n(;GM[4];B[hh];!)"
    *_, third = list(sgf.read(io.BytesIO(two), "junk.sgf", ReadOptions()))
    assert [p.message for p in third.problems] == ["unexpected text '!' in a node"]


def test_a_game_that_lost_its_parenthesis_between_two_trees_is_said() -> None:
    # (;GM[4];B[hh])  ;GM[4]PB[Lost];B[hh];W[ii]  (;GM[4];B[ii]): the middle game was
    # dropped without a word (2 clean records); its text is now a problem of the next tree
    data = b"(;GM[4]SZ[15];B[hh])\n;GM[4]SZ[15]PB[Lost];B[hh];W[ii]\n(;GM[4]SZ[15];B[ii])\n"
    first, second = list(sgf.read(io.BytesIO(data), "mid.sgf", ReadOptions()))
    assert not first.problems
    assert [p.message for p in second.problems] == [
        "text between game trees (line 2) is not SGF; not read"
    ]
    # blank lines between trees are nothing to say
    blank = b"(;GM[4];B[hh])\n\n \n(;GM[4];B[ii])\n"
    assert not any(r.problems for r in sgf.read(io.BytesIO(blank), "b.sgf", ReadOptions()))


# -- short games: a path of their own, the records of the general one --------------------------
_PIECES = [
    b"(;B[hh];W[hi];B[ii])",
    b"(;B[aa])",
    b"( ;B[hh] ; W[tt] ;B[])",  # spaces, a pass both ways
    b"(;B[hh];W[zz])",  # below the board: the parser's problem
    b"(;B[hh];W[h])",  # a bad coordinate
    b"(;SZ[19];B[ss];W[tt])",  # a size: an info game
    b"(;B[hh]\n;W[hi])",  # not short: on two lines
    b"(;B[hh](;W[hi])(;W[ih]))",  # variations
    b"(;b[hh];W[hi])",  # a lower-case name
    b"(;B[hh];W[hi]C[x])",  # text
    b"junk ",  # stray text between trees
    b"\n",
    b"(;B[oo];W[po];B[pp])",  # off the 15x15 board to the right: the referee's finding
    # info games: game info on the root, bare moves after it
    b"(;RU[renju-rif];B[ch];W[ea];B[hi])",
    b"(;GM[4]FF[4]SZ[15]RU[renju]PB[Ann Lee]PW[Bob]RE[B+R]DT[2020-01-01]EV[Cup];B[hh];W[hi])",
    b"(; FF[4] PB [x] ;B[hh] ; W[ii] )",  # blanks everywhere
    b"(;PB[x])",  # no move
    b"(;PB[x];B[];W[tt];B[pp])",  # passes, a point off the board
    b"(;PB[x];B[hh];W[zz])",  # a move below the board
    b"(;SZ[bad];B[hh])",  # an unreadable size
    b"(;SZ[30];B[hh])",
    b"(;SZ[15:17];B[hh];W[aq])",
    b"(;SZ[20];B[tt])",  # no pass on a board past 19
    b"(;RU[nonsense];B[hh])",  # an unknown rule
    b"(;GN[swap2 game]ON[d4];B[hh])",  # a rule in the game name, an opening
    b"(;GM[1];B[hh])",  # not gomoku: a note
    b"(;pb[lower]gm[4]Pb[mixed];B[hh])",  # names in lower and mixed case
    b"(;PB[a]PB[b]PW[c][d]RE[];B[hh])",  # repeated names and values, an empty one
    b"(;PB[a\\]b];B[hh])",  # an escape: the parser's
    b"(;PB[(x)];B[hh])",  # a parenthesis: the parser's
    b"(;SZ[(;15];B[hh])",  # a short value with a node in it: taken as unterminated
    b"(;PB[two\nlines];B[hh])",
    b"(;C[on the root]GC[game comment]RE[W+Time];B[hh])",
    b"(;CA[UTF-8]PB[Zo\xc3\xab];B[hh])",
    b"(;PB[\xe9t\xe9];B[hh])",  # not UTF-8: read as Latin-1
    b"(;CA[latin-1]PB[\xe9];B[hh])",
    b"(;CA[GBK]PB[\x81]];B[hh])",  # a double-byte charset: its trail byte may be "]"
    b"(;PB[\x81]CA[GBK];B[hh])",
    b"(;ca[GBK]PB[\x81]C[x];B[hh])",  # (a lower-case name: set while the root is read)
    b"(;PB[ CA[GBK]PW[\x81]C[x];B[hh])",  # (the root is scanned for a charset before it is read)
    b"(;PB[\xe9]C[x])CA[GBK] ",  # (a root without a move is scanned up to the next tree)
    b"(;CA[bogus];B[hh])",  # an unknown charset: a note
    b"(;CA[cp037];B[hh])",  # EBCDIC: a note
    b"(;AB[hh]PB[x];W[ii])",  # setup stones on an info root
    b"(;SZ[15]AB[aa:ao][ba:bo]AW[hh];B[ki];B[lc])",  # compressed lists; black twice
    b"(;AB[hh]PL[W];W[ii];B[jj])",  # who plays first
    b"(;AB[hh][hh]AW[hh];B[hh])",  # a point set twice, then played on
    b"(;AB[aa:zz];B[hh])",  # more stones than the board has points: the line's problem
    b"(;AB[aa:oo]AW[aa];B[hh])",  # every point, and one of them again
    b"(;AW[zz]AB[h];B[hh])",  # below the board, a bad point
    b"(;AddBlack[hh];W[ii])",
    b"(;SW[Y];B[hh])",
    b"(;B[hh]PB[x];W[ii])",  # a move on the root
    b"(;PB[x];B[hh](;W[hi])(;W[ih]))",
    b"(;;B[hh])",  # an empty root
]
_SHORT_OPTIONS = [
    ReadOptions(),
    ReadOptions(max_moves=2),
    ReadOptions(max_records=3),
    ReadOptions(board_size=19),
    ReadOptions(moves_allowance=4, moves_per_byte=0),  # the file's budget runs out
    ReadOptions(moves_allowance=40, moves_per_byte=0),
    ReadOptions(max_string=3),  # text cut, with a note
    ReadOptions(encoding="gbk"),  # a double-byte charset for every tree
    ReadOptions(encoding="utf-8", recoded=True),  # a UTF-16 file: its CA does not apply
]


def _read_both_ways(data: bytes, options: ReadOptions) -> None:
    """Reading ``data`` with the short paths gives the records the parser gives, field for
    field, metadata in the same order (it is written out in that order)."""

    def records() -> list[Record]:
        return list(sgf.read(io.BytesIO(data), "c.sgf", options))

    fast = records()
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(reader._Collection, "_line_game", lambda self: None)
        slow = records()
    assert fast == slow
    assert [list(r.metadata.items()) for r in fast] == [list(r.metadata.items()) for r in slow]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_PIECES), st.integers(1, 3)), min_size=1, max_size=10),
    st.sampled_from(_SHORT_OPTIONS),
)
def test_short_games_read_as_the_parser_reads_them(
    pieces: list[tuple[bytes, int]], options: ReadOptions
) -> None:
    # (pieces repeated: from the third game in a row with one root on, its walk is kept)
    _read_both_ways(b"".join(piece * times for piece, times in pieces), options)


#: Root property names and values: ordinary ones, and odd ones, drawn less often (most make the
#: game one for the parser, or say something of their own)
_NAMES = [b"GM", b"FF", b"RU", b"PB", b"PW", b"RE", b"DT", b"EV", b"ON", b"GN", b"GC", b"C"]
_ODD_NAMES = [b"SZ", b"CA", b"ca", b"KM", b"XX", b"pb", b"Pb", b"AB", b"AE", b"SW", b"5A", b"B"]
_ODD_NAMES += [b"AW", b"PL", b"AddWhite"]
_VALUES = [b"", b"4", b"15", b"19", b"15:17", b"x", b"renju", b"RIF", b"renju-rif", b"Soosyrv-8"]
_VALUES += [b"swap2 game", b"B+R", b"W+Time", b"0", b"?", b"d4", b"I13", b"Ann  Lee", b"2024-05-01"]
_ODD_VALUES = [b" ", b"30", b"nonsense", b"Zo\xc3\xab", b"\xe9", b"\x81", b"\x81]", b"a\\]b"]
_ODD_VALUES += [b"(x)", b"(;x", b"two\nlines", b" CA[GBK", b"UTF-8", b"latin-1", b"GBK", b"cp037"]
_ODD_VALUES += [b"hh", b"aa:bb", b"x" * 40, b"B", b"W", b"aa:oo", b"ba:bo", b"zz"]
_MOVES = [b"hh", b"ii", b"hi", b"oa", b"aa"]
_ODD_MOVES = [b"", b"tt", b"pp", b"zz", b"a"]  # passes, off the board, below it, malformed


def _mostly(ordinary: list[bytes], odd: list[bytes]) -> st.SearchStrategy[bytes]:
    """One of ``ordinary`` three times in four, else one of ``odd``."""
    common = st.sampled_from(ordinary)
    return st.one_of(common, common, common, st.sampled_from(odd))


_SOME_NAMES = _mostly(_NAMES, _ODD_NAMES)
_SOME_VALUES = _mostly(_VALUES, _ODD_VALUES)


@st.composite
def _info_games(
    draw: st.DrawFn,
    names: st.SearchStrategy[bytes] = _SOME_NAMES,
    values: st.SearchStrategy[bytes] = _SOME_VALUES,
    roots: tuple[bytes, ...] = (b"", b"SZ[15]", b"SZ[19]", b"SZ[17:15]"),
    ends: tuple[bytes, ...] = (b"", b"\n", b" "),
    most: int = 2,
) -> bytes:
    """A game of a root of properties (odd ones too) and moves, followed by a line end or not,
    repeated or not; ``most`` values a property, moves and repeats growing with it."""
    props = draw(
        st.lists(
            st.tuples(names, st.lists(values, min_size=1, max_size=most)), min_size=1, max_size=5
        )
    )
    root = draw(st.sampled_from(roots))
    root += b"".join(name + b"".join(b"[" + v + b"]" for v in values) for name, values in props)
    moves = draw(st.lists(_mostly(_MOVES, _ODD_MOVES), max_size=3 + most))
    nodes = b"".join(b";%s[%s]" % (b"BW"[i % 2 : i % 2 + 1], v) for i, v in enumerate(moves))
    game = b"(;" + root + nodes + b")" + draw(st.sampled_from(ends))
    return game * draw(st.integers(1, 1 + most))


_EVENT_NAMES = [b"SW", b"5A", b"FA", b"AE", b"RU", b"PB", b"SZ", b"AB"]
_EVENT_VALUES = [b"1", b"2", b"x", b"hh", b"hhii", b"aa:bb", b"renju-rif", b"swap2", b"15", b""]


def _event_games() -> st.SearchStrategy[bytes]:
    """A game whose root holds opening events (swaps, offers, declared counts), erased points
    and setup stones among game info, repeated on one line or on several."""
    return _info_games(
        st.sampled_from(_EVENT_NAMES),
        st.sampled_from(_EVENT_VALUES),
        roots=(b"",),
        ends=(b"", b"\n", b"\n\n"),
        most=3,
    )


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.one_of(_info_games(), _event_games()), min_size=1, max_size=6),
    st.sampled_from(_SHORT_OPTIONS),
)
def test_generated_info_games_read_as_the_parser_reads_them(
    games: list[bytes], options: ReadOptions
) -> None:
    # info games, and games whose root holds opening events (SW, FA, 5A, AE), in one file
    _read_both_ways(b"".join(games), options)


@pytest.mark.parametrize(
    ("data", "options"),
    [
        # a root whose value is cut says so with its line: its walk is not kept
        (b"(;PB[Ann Lee];B[hh])\n" * 3, ReadOptions(max_string=3)),
        # a root's walk is kept with its context: a tree of another size in between (read by
        # the parser) leaves the file's last context at another size
        (
            b"(;SZ[17]PB[x];B[aa];W[qq])" * 3
            + b"(;SZ[19]PB[x];B[aa](;W[ss])(;W[rr]))"
            + b"(;SZ[17]PB[x];B[aa];W[qq])\n" * 2,
            ReadOptions(),
        ),
        (b"(;GM[(;4]PB[x];B[hh])" * 2, ReadOptions()),  # a node in a short value: unterminated
        # the file's budget runs out exactly
        (b"(;B[hh];W[ii])" * 3, ReadOptions(moves_allowance=5, moves_per_byte=0)),
        (b"(;PB[x];B[hh])" * 3, ReadOptions(moves_allowance=5, moves_per_byte=0)),
    ],
)
def test_collections_of_short_games_read_as_the_parser_reads_them(
    data: bytes, options: ReadOptions
) -> None:
    _read_both_ways(data, options)


def test_a_root_walked_once_is_read_again_with_its_own_size() -> None:
    game = b"(;SZ[17]PB[x];B[aa];W[qq])"
    last = read(game * 3 + b"(;SZ[19]PB[x];B[aa](;W[ss])(;W[rr]))" + game)[-1]
    assert (last.width, names(last)) == (17, ["a17", "q1"])


def test_game_info_is_in_the_order_of_the_metadata_keys() -> None:
    # (the order the JSON reports write it in), whatever the order of the file
    rec = one("(;EV[e]PW[w]GM[4]PB[b]RU[renju]C[c];B[hh])")
    assert list(rec.metadata) == ["comment", "black", "white", "event", "rule_name"]
    rec = one("(;EV[e]PW[w]PB[b]\n;B[hh])")  # (read by the parser)
    assert list(rec.metadata) == ["black", "white", "event"]


@pytest.mark.parametrize("props", [1, 64, 65])
@pytest.mark.parametrize("moves", [0, 1024, 1025])
def test_long_short_games_read_as_the_parser_reads_them(props: int, moves: int) -> None:
    # past 64 root properties or 1,024 moves a game is the parser's
    game = b"(;" + b"PB[x]" * props + b";B[]" * moves + b")"
    _read_both_ways(game * 2, ReadOptions())
    _read_both_ways(game * 2, ReadOptions(max_moves=1024))


def test_games_of_one_root_share_no_list() -> None:
    # the records of games of one line share no list with each other
    data = b"(;GM[7]RU[renju]PB[Ann];B[hh];W[%c%c])" * 3 % (97, 97, 98, 98, 99, 99)
    recs = read(data)
    assert [names(r) for r in recs] == [["h8", "a15"], ["h8", "b14"], ["h8", "c13"]]
    assert all(
        r.notes == ["GM[7] is not gomoku/renju (GM[4] or GM[5]); read as gomoku"] for r in recs
    )
    recs[1].notes.append("x")
    recs[1].metadata["black"] = "Bob"
    recs[1].moves.clear()
    assert recs[2].notes == recs[0].notes and len(recs[2].notes) == 1
    assert recs[2].metadata["black"] == "Ann" and names(recs[2]) == ["h8", "c13"]
    for a, b in [(recs[0], recs[1]), (recs[1], recs[2])]:
        for name in ("moves", "metadata", "setup", "opening_events", "notes", "problems"):
            assert getattr(a, name) is not getattr(b, name)


@pytest.mark.parametrize(
    "game",
    [
        b"(;B[hh];W[%c%c];B[ii])\n",
        b"(;RU[renju-rif];B[hh];W[%c%c];B[ii])",  # fuzz/hostile.py sgf-distinct-games-rif
        b"(;GM[4]FF[4]SZ[15]RU[RIF]PB[Ann %c%c]PW[Bob]RE[B+R]DT[2024-05-01]EV[Cup];B[hh])\n",
        b"(;GM[4]CA[UTF-8]PB[Zo\xc3\xab %c%c]PW[\xe5\xbc\xa0];B[hh])\n",  # text not ASCII
    ],
)
def test_a_collection_of_short_games_takes_the_short_path(
    monkeypatch: pytest.MonkeyPatch, game: bytes
) -> None:
    data = b"".join(game % (97 + k % 15, 97 + k // 15) for k in range(200))
    parsed = 0
    real = tokenizer.Parser.parse_tree

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal parsed
        parsed += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(tokenizer.Parser, "parse_tree", counted)
    recs = list(sgf.read(io.BytesIO(data), "c.sgf", ReadOptions()))
    assert len(recs) == 200 and parsed == 0
    lines = list(range(1, 201)) if game.endswith(b"\n") else [1] * 200
    assert [r.source.line for r in recs] == lines
    assert all(r.notes == [] and r.problems == [] for r in recs)


def test_pl_says_who_plays_move_1() -> None:
    # a problem's setup: three black stones and two white ones, black to play (PL[B]); without
    # PL the side with fewer stones (white) plays first, and black's move is the wrong colour
    #
    #   9 . O O . .
    #   8 . X X X *      * k8: black's move
    #     g h i j k
    from renju_cli.api import judge_record, position_after
    from renju_cli.ruleset import load

    setup = "AB[hh][ih][jh]AW[hg][ig]"
    with_pl, without = read(f"(;GM[4]SZ[15]{setup}PL[B];B[kh])(;GM[4]SZ[15]{setup};B[kh])")
    assert with_pl.to_move is BLACK and without.to_move is None
    assert [f.code for f in judge_record(with_pl, "renju").findings] == []
    assert [f.code for f in judge_record(without, "renju").findings] == ["wrong-color"]
    assert position_after(with_pl, load("renju"), 0).to_move == 1  # (BLACK)
    # only before move 1: a PL after it, or in the node of move 1, says nothing of move 1;
    # the last one before it counts (a root's PL[B], a setup node's PL[W])
    (late,) = read("(;SZ[15];B[hh]PL[B];W[ii])")
    assert late.to_move is None
    (last,) = read("(;SZ[15]PL[B];AB[aa]PL[W];W[ii])")
    assert last.to_move is WHITE
    # in a tree, each line its own: the lines after a line with PL resume its replay only
    # when they say the same (a line of PL[W] after one of PL[B] was told black moves first)
    tree = read(f"(;GM[4]SZ[15]{setup}(;PL[B];B[kh])(;PL[W];W[kh])(;B[kh]))")
    assert [r.to_move for r in tree] == [BLACK, WHITE, None]
    codes = [[f.code for f in judge_record(r, "renju").findings] for r in tree]
    assert codes == [[], [], ["wrong-color"]]
    assert codes == [
        [f.code for f in judge_record(one_line, "renju").findings]
        for one_line in [
            read(f"(;GM[4]SZ[15]{setup}PL[B];B[kh])")[0],
            read(f"(;GM[4]SZ[15]{setup}PL[W];W[kh])")[0],
            read(f"(;GM[4]SZ[15]{setup};B[kh])")[0],
        ]
    ]
    # written back
    out = io.StringIO()
    sgf.write([with_pl], out)
    assert "PL[B]" in out.getvalue() and one(out.getvalue()).to_move is BLACK


#: Pieces of a value's bytes: escapes, closing brackets, line breaks, the starts of lines that
#: start a node or a game, lead bytes of a double-byte charset.
_VALUE_PIECES = [
    b"a",
    b"\\",
    b"]",
    b"\n",
    b"\r\n",
    b"(",
    b";",
    b" ",
    b"GM[",
    b"\n(;",
    b"\n (;GM[",
    b"\\\n",
    b" (;GM[",
    b"(;",
    b"\x81",
    b"\xe0",
]


@settings(max_examples=200, deadline=None)
@example([b"a", b"\\\n", b"(", b";", b"]"], None, True)  # an escape takes the newline
@example([b"a", b"\\\n", b" (;GM[", b"]"], None, False)
@example([b"a", b"\\", b"\n(;", b"]"], None, True)
@example([b"\x81", b"\n(;", b"]"], "dbcs", True)  # a lead byte takes it, and keeps it
@example([b"a", b"\n(;", b"]"], None, True)
@given(
    st.lists(st.sampled_from(_VALUE_PIECES), max_size=24),
    st.sampled_from([None, "dbcs", "sjis"]),
    st.booleans(),
)
def test_a_value_is_cut_where_it_would_run_over_a_new_node_as_if_read_whole(
    pieces: list[bytes], dbcs: str | None, short: bool
) -> None:
    # a value stops being read at a line that starts a node (a point, a number: ``_RESYNC``) or
    # a game (any value: ``_RESYNC_GAME``): the value read whole would hold it, and the parser
    # takes it as not terminated then.  (Read whole, a file of such lines closed only at its end
    # was read to its end once per line.)  The cut must judge as the value read whole did.
    data = b"B[" + b"".join(pieces)
    cut = tokenizer.RESYNC if short else tokenizer.RESYNC_GAME

    def left_open(value: bytes | None) -> bool:
        if value is None:
            return True
        if short:
            return tokenizer.RESYNC.search(value) is not None
        return b"\n" in value and tokenizer.RESYNC_GAME.search(value) is not None

    whole = tokenizer.Parser(data, ReadOptions())
    bounded = tokenizer.Parser(data, ReadOptions())
    for parser in (whole, bounded):
        parser.pos, parser.dbcs = 1, dbcs
    read_whole = whole.read_value()
    read_cut = bounded.read_value(cut)
    assert left_open(read_cut) == left_open(read_whole)
    if not left_open(read_whole):
        assert read_cut == read_whole
        assert (bounded.pos, bounded.line) == (whole.pos, whole.line)


@settings(max_examples=200, deadline=None)
@example([[b"a", b"\\", b"]"], [b"a", b"\n"]], None, [False], True)
@example([[b"\x81"], [b"]", b"\n"]], "dbcs", [True], False)
@example([[b"a"], [b"\n(;"], [b"]"]], None, [False, True], False)  # another cut: another memo
@given(
    st.lists(st.lists(st.sampled_from(_VALUE_PIECES), max_size=8), min_size=1, max_size=6),
    st.sampled_from([None, "dbcs", "sjis"]),
    st.lists(st.booleans(), min_size=1, max_size=3),
    st.booleans(),
)
def test_values_read_one_after_another_judge_as_each_read_alone(
    chunks: list[list[bytes]], dbcs: str | None, shorts: list[bool], game_below: bool
) -> None:
    # a parser remembers that a value found nothing closing it up to the cut (``unclosed``:
    # lines ``(;C[x`` above one far game were each read down to it, minutes a megabyte); every
    # later value starting before that cut is left open without a scan.  Values read at
    # increasing starts by one parser must judge as each read by a parser of its own.
    data = b"".join(b"[" + b"".join(chunk) for chunk in chunks)
    if game_below:
        data += b"\n(;GM[4]]"
    starts = [i for i, b in enumerate(data) if b == 0x5B]
    shared = tokenizer.Parser(data, ReadOptions())
    shared.dbcs = dbcs
    for k, start in enumerate(starts):  # (each with the cut of a point or of any value)
        cut = tokenizer.RESYNC if shorts[k % len(shorts)] else tokenizer.RESYNC_GAME
        alone = tokenizer.Parser(data, ReadOptions())
        alone.pos, alone.dbcs = start, dbcs
        shared.pos, shared.line = start, alone.line
        assert shared.read_value(cut) == alone.read_value(cut), start
        assert shared.pos == alone.pos


@pytest.mark.parametrize(
    "line",
    [b"(;B[hh\n", b"(;W[ii\r\n", b"(;C[x\n", b"(;C[\\x\n", b"(;B[\\]\n", b"(;GM[4]C[x\n"],
)
@pytest.mark.parametrize("end", [b"", b"]\n"])
def test_a_value_left_open_on_every_line_is_a_problem_of_each_game(line: bytes, end: bytes) -> None:
    # each line a game whose value is never closed (or closed only at the end of the file): a
    # record each, its problem said, none swallowing the games after it; read in one pass
    # (each line once: the search for the "]" stops at the next line that starts a game)
    data = line * 1000 + end
    records = list(sgf.read(io.BytesIO(data), "open.sgf", ReadOptions()))
    swallowed = line.startswith(b"(;C[") and end  # (a comment may hold "(;": read whole)
    if not swallowed:
        assert len(records) == 1000
        # (the last one's value is closed by the "]" at the end, when there is one)
        for k, record in enumerate(records[:-1] if end else records):
            said = [p.message for p in record.problems]
            assert f"property value opened at line {k + 1} is never closed (missing ']')" in said


def test_lines_are_counted_back_when_a_value_read_past_a_new_game_is_taken_back() -> None:
    # B's value is "(;x\n\n" once its soft line break is taken out: it starts a node, so it was
    # never closed, and reading goes on at line 2 (the "(;" after the break); the lines read
    # up to its "]" at line 4 were counted on from there (the next tree said line 4, not 2)
    data = b"(;B[\\\n(;x\n\n]\n(;W[ii])\n"
    first, second = sgf.read(io.BytesIO(data), "x.sgf", ReadOptions())
    assert [p.line for p in first.problems] == [1]
    assert second.source.line == 2
    assert [(p.message, p.line) for p in second.problems] == [
        ("game tree opened at line 2 is not closed (missing ')')", 2),
        ("property x has no value", 2),
        ("unexpected text ']' in a node", 4),
    ]


def test_a_player_value_is_read_once_at_its_node_whatever_the_lines_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # PL's word is found at its node, not for each record of the line: a root PL of half a
    # megabyte was lower-cased for each of 24,000 leaves (24 s)
    calls: list[str] = []
    real = nodes.player_word

    def counted(value: str) -> str:
        calls.append(value)
        return real(value)

    monkeypatch.setattr(nodes, "player_word", counted)
    leaves = "".join(f"(;W[{chr(97 + k % 15)}{chr(97 + k // 15)}])" for k in range(200))
    records = read(f"(;SZ[15]PL[ {'b' * 100_000} ];B[hh]{leaves})")
    assert len(records) == 200 and len(calls) == 1
    assert all(r.to_move is None for r in records)  # (no colour: alternation)
    # the words, as some programs write them, blanks and case aside
    for value, to_move in ((" Black ", BLACK), ("1", BLACK), ("WHITE", WHITE), ("2", WHITE)):
        assert one(f"(;PL[{value}];B[hh])").to_move is to_move, value
    for value in ("", "x", "bw"):
        assert one(f"(;PL[{value}];B[hh])").to_move is None, value


def test_a_long_value_is_quoted_by_its_start_in_every_problem() -> None:
    # a bad move, a setup value or a property name of half a megabyte, quoted whole in the
    # problem of every line of a tree, made reports of gigabytes
    value = "x" * 100_000
    for data in (
        f"(;SZ[15];B[hh];W[{value}])",
        f"(;SZ[15]AB[{value}];B[hh])",
        f"(;SZ[15];B[hh]{value.upper()};W[ii])",
    ):
        (record,) = read(data)
        assert record.problems
        for p in record.problems:
            assert len(p.message) < 200 and "x" * 40 + "..." in p.message.lower(), p.message


def test_a_declared_result_repeated_in_every_line_counts_against_the_budget() -> None:
    # RE is given to each line of its tree: 40,000 leaves under an RE of half a megabyte wrote
    # gigabytes.  Its text counts as metadata does (16 characters a move).
    leaves = "".join(f"(;W[{chr(97 + k % 15)}{chr(97 + k // 15 % 15)}])" for k in range(3000))
    data = f"(;SZ[15]RE[B+{'x' * 50_000}];B[hh]{leaves})"
    records = read(data)
    budget = ReadOptions().move_budget(len(data))
    said = sum(len(r.declared_result.text or "") for r in records if r.declared_result)
    assert said <= 16 * budget
    assert len(records) < 3000 and "a tree this repetitive is refused" in str(
        records[-1].problems[0].message
    )


def test_a_game_name_is_searched_for_a_rule_once_while_the_lines_repeat_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # leaves with game info of their own make their line's info again; the search for a rule
    # in a long GN (NFKD and eight patterns) is not made again for the same name (10 s a MB)
    searched: list[str] = []
    real = nodes.ruleset_for

    def counted(raw: str, search: bool = False) -> tuple[str | None, str | None]:
        searched.append(raw)
        return real(raw, search)

    monkeypatch.setattr(nodes, "ruleset_for", counted)
    leaves = "".join(f"(;W[{chr(97 + k % 15)}{chr(97 + k // 15)}]PB[p{k}])" for k in range(50))
    records = read(f"(;SZ[15]GN[{'a game ' * 1000}under RIF rules];B[hh]{leaves})")
    assert len(records) == 50 and len(searched) == 1
    assert {r.rule for r in records} == {"renju-rif"}
    # another name is searched anew
    other = read("(;GN[a yamaguchi game];B[hh](;W[ii]PB[a])(;W[jj]PB[b]))(;GN[gomoku];B[hh])")
    assert [r.rule for r in other] == ["yamaguchi", "yamaguchi", "freestyle"]
    assert searched[1:] == ["a yamaguchi game", "gomoku"]


@pytest.mark.parametrize("ru", ["nonexistent", "../../x", "x" * 100])
def test_an_ru_that_names_no_shipped_ruleset_is_said(ru: str) -> None:
    # judged under the default, and said, as JSON Lines and RenjuNet say it; the value is
    # never taken for a path
    (rec,) = read(f"(;GM[4]RU[{ru}];B[hh];W[hi])")
    assert rec.rule is None and rec.metadata["rule_name"] == ru
    (note,) = rec.notes
    assert note.startswith(f"rule '{ru[:30]}")
    assert note.endswith("(RU) names no shipped ruleset ('renju rules list'): judged under "
                         "--rules, or the default")  # fmt: skip
    (gm,) = read(f"(;GM[1]RU[{ru}];B[hh])")  # with another note: both said
    assert gm.notes[0].startswith("GM[1] is not gomoku/renju") and "(RU) names no" in gm.notes[0]
    (known,) = read("(;GM[4]RU[RIF];B[hh])")
    assert known.rule == "renju-rif" and not known.notes


_NODE_NAMES = [b"B", b"W", b"SW", b"FA", b"5A", b"C", b"CA", b"AB", b"PL", b"XX", b"b", b"SZ"]
_NODE_VALUES = [b"aa", b"hh", b"", b"1", b"x y", b"a\nb", b"GBK", b"15", b"zz", b"\xe9", b"("]
_NODE_VALUES += [b"a\\]b", b"\n(;GM[4]"]


@st.composite
def _few_property_trees(draw: st.DrawFn) -> bytes:
    """A tree of nodes of one to five properties of one value each, some odd."""
    prop = st.tuples(st.sampled_from(_NODE_NAMES), st.sampled_from(_NODE_VALUES))
    node = st.lists(prop, min_size=1, max_size=5).map(
        lambda ps: b";" + b"".join(n + b"[" + v + b"]" for n, v in ps)
    )
    body = draw(st.sampled_from([b"", b"\n", b" "])).join(draw(st.lists(node, max_size=6)))
    if draw(st.booleans()):
        body += b"(" + draw(node) + b")(" + draw(node) + b")"
    return b"(" + body + b")" + draw(st.sampled_from([b"", b"\n"]))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_few_property_trees(), min_size=1, max_size=4),
    st.sampled_from([ReadOptions(), ReadOptions(encoding="gbk")]),
)
def test_nodes_of_a_few_plain_properties_read_as_the_slow_way_reads_them(
    trees: list[bytes], options: ReadOptions
) -> None:
    # (a node of plain properties is read in one match, not byte by byte)
    import re

    data = b"".join(trees)
    fast = list(sgf.read(io.BytesIO(data), "c.sgf", options))
    with pytest.MonkeyPatch.context() as monkeypatch:
        never = re.compile(rb"(?!x)x")
        monkeypatch.setattr(tokenizer, "_ONE_PROPERTY_NODE", never)
        monkeypatch.setattr(tokenizer, "_PLAIN_NODE", never)
        slow = list(sgf.read(io.BytesIO(data), "c.sgf", options))
    assert fast == slow


_SETUP_VALUES = [b"aa", b"aa:zz", b" aa : cc ", b"ab:ba", b"zz", b"", b"a", b"tt", b"aa:", b":bb"]
_SETUP_VALUES += [b"bb:aa", b"ss:ss", b"qq"]


@st.composite
def _setup_trees(draw: st.DrawFn) -> bytes:
    """Trees of setup nodes (``AB``/``AW``, several values, ranges, bad values) before and after
    moves, on boards of 5x5 to 19x19: paths that fill the board and go on."""
    size = draw(st.sampled_from([b"5", b"9", b"19", b"7:5"]))

    def node() -> bytes:
        if draw(st.integers(0, 3)) == 0:
            return (
                b";"
                + draw(st.sampled_from([b"B", b"W"]))
                + b"["
                + draw(st.sampled_from([b"aa", b"bb", b"cc", b""]))
                + b"]"
            )
        props = draw(st.lists(st.sampled_from([b"AB", b"AW", b"AE"]), min_size=1, max_size=2))
        return b";" + b"".join(
            p
            + b"".join(
                b"[" + v + b"]"
                for v in draw(st.lists(st.sampled_from(_SETUP_VALUES), min_size=1, max_size=4))
            )
            for p in props
        )

    trunk = b"".join(node() for _ in range(draw(st.integers(0, 6))))
    leaves = b"".join(b"(" + node() + node() + b")" for _ in range(draw(st.integers(0, 3))))
    return b"(;SZ[" + size + b"]" + trunk + leaves + b")"


@settings(max_examples=100, deadline=None)
@given(st.lists(_setup_trees(), min_size=1, max_size=3))
def test_setup_stones_a_full_path_cannot_take_are_counted_as_they_were_read(
    trees: list[bytes],
) -> None:
    # past the board's points (or after a move) a path takes no more setup stones: a node's are
    # counted and checked, not made (95,000 distinct ranges made 60 million stones); the
    # records are those of reading them all
    data = b"".join(trees)
    fast = list(sgf.read(io.BytesIO(data), "s.sgf", ReadOptions()))
    real = walk.node_info
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(
            walk, "node_info", lambda node, ctx, no_room, text_only: real(node, ctx)
        )
        slow = list(sgf.read(io.BytesIO(data), "s.sgf", ReadOptions()))
    assert fast == slow
