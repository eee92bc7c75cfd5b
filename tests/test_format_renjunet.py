"""Tests of the RenjuNet / RIF XML database reader and of its benchmark generator."""

from __future__ import annotations

import importlib.util
import io
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, detect, read_stream, renjunet
from renju_cli.record import Record, SourceLocation

ROOT = Path(__file__).resolve().parent.parent
GEN_PATH = ROOT / "bench" / "gen_renjunet.py"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_renjunet", GEN_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()

# Rule, opening and player ids deliberately differ from the real file's (1 RIF, 5 Yamaguchi,
# 17 Super Sakata, 24 Soosõrv-8, 25 Taraguchi-10; openings 1-26): nothing may be hard-coded.
HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<database version="3" date="2020-01-01">
<countries><country id="31" name="Estonia" abbr="EST"/><country id="32" name="Japan" abbr="JPN"/>
</countries>
<cities><city id="7" country="31" name="Tallinn"/></cities>
<rules>
<rule id="101" name="Yamaguchi"/>
<rule id="102" name="RIF"/>
<rule id="103" name="Soosõrv-8"/>
<rule id="104" name="Taraguchi-10"/>
<rule id="105" name="Super Sakata"/>
<rule id="106" name="Mystery Rule"/>
</rules>
<openings><opening id="40" abbr="D4" name="Kagetsu"/><opening id="41" abbr="I1" name="Chosei"/>
</openings>
<players>
<player id="1" name="Ants" surname="Tamm" country="31" city="7"/>
<player id="2" name="Yusui" surname="Nakamura" country="32" native_name="中村悠水"/>
<player id="3" name="Tonu" surname="Koiv" country="31" native_name="Tõnu Kõiv"/>
</players>
<tournaments>
<tournament id="9" name="Test Open" country="31" city="7" year="2019" month="7"
 start="2019-07-01" end="2019-07-07" rule="102" rated="1"/>
<tournament id="10" name="Cup" country="32" year="2021" month="3" rule="103"/>
</tournaments>
"""

GAMES = """<games>
<game id="500" tournament="9" round="1" rule="101" black="1" white="2" bresult="1" btime="5" \
wtime="0" opening="40" alt="" swap="-" publisher="RIF"><move>h8 h9 i9 j10 g7</move>\
<info>Black won on time &amp; more</info></game>
<game id="501" tournament="9" round="2" rule="" black="2" white="3" bresult="0" opening="41" \
alt="51" swap="R"><move>h8 h9 i8</move></game>
<game id="502" tournament="10" round="3" black="3" white="1" bresult="0.5" alt="j10, g6" \
swap="-R+-"><move></move></game>
<game id="503" tournament="10" rule="104" black="1" white="2" bresult=""></game>
<game id="504" tournament="9" rule="106" black="1" white="2" bresult="1">\
<move>h8 h9 zz9 i8</move></game>
<game id="505" tournament="9" rule="105" black="2" white="1" bresult="0">
<move>
h8 h9
i10
</move>
</game>
</games>
</database>
"""

DATABASE = HEADER + GAMES


def read_bytes(data: bytes, options: ReadOptions | None = None) -> list[Record]:
    return list(renjunet.read(io.BytesIO(data), "db.rif", options or ReadOptions()))


def read_text(text: str, options: ReadOptions | None = None) -> list[Record]:
    return read_bytes(text.encode("utf-8"), options)


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def pts(*names: str) -> list[Point]:
    return [parse_point(n) for n in names]


@pytest.fixture(scope="module")
def records() -> list[Record]:
    return read_text(DATABASE)


# -- the ordinary database -------------------------------------------------------------------


def test_one_record_per_game_in_order(records: list[Record]) -> None:
    assert [r.metadata["game_id"] for r in records] == ["500", "501", "502", "503", "504", "505"]
    assert [r.source.index for r in records] == list(range(6))
    assert all(r.source.path == "db.rif" for r in records)
    assert all(r.format == "renjunet" for r in records)
    assert all((r.width, r.height) == (15, 15) for r in records)
    assert not any(r.unreadable for r in records)


def test_coordinates_bottom_left_origin(records: list[Record]) -> None:
    assert [m.point for m in records[1].moves] == [Point(7, 7), Point(7, 8), Point(8, 7)]
    assert [m.point for m in records[0].moves] == pts("h8", "h9", "i9", "j10", "g7")
    assert records[0].moves[3].token == "j10"
    assert all(m.color is None for m in records[0].moves)  # colours alternate, not stated


def test_source_and_move_lines(records: list[Record]) -> None:
    for rec in records:
        assert rec.source.line == line_of(DATABASE, f'<game id="{rec.metadata["game_id"]}"')
    last = records[5]
    first_move_line = line_of(DATABASE, "h8 h9\ni10")
    assert [m.line for m in last.moves] == [first_move_line, first_move_line, first_move_line + 1]


def test_declared_results(records: list[Record]) -> None:
    winners = [r.declared_result.winner if r.declared_result else None for r in records]
    assert winners == ["black", "white", "draw", None, "black", "white"]
    assert records[2].declared_result is not None
    assert records[2].declared_result.text == "0.5"
    assert records[3].declared_result is None  # bresult="" means unknown, not a draw


def test_rules_resolved_through_the_files_table(records: list[Record]) -> None:
    rules = [r.rule for r in records]
    assert rules == ["yamaguchi", "renju-rif", "soosyrv-8", "taraguchi-10", None, "super-sakata"]
    names = [r.metadata.get("rule_name") for r in records]
    assert names == [
        "Yamaguchi",
        "RIF",
        "Soosõrv-8",
        "Taraguchi-10",
        "Mystery Rule",
        "Super Sakata",
    ]
    assert records[1].metadata["rule_from"] == "tournament"  # rule="" falls back
    assert records[2].metadata["rule_id"] == "103"
    assert any("Mystery Rule" in n for n in records[4].notes)


def test_names_tournament_and_metadata(records: list[Record]) -> None:
    meta = records[0].metadata
    assert meta["black"] == "Ants Tamm"
    assert meta["white"] == "Yusui Nakamura"
    assert meta["white_native"] == "中村悠水"
    assert "black_native" not in meta
    assert meta["black_country"] == "Estonia" and meta["black_city"] == "Tallinn"
    assert meta["tournament"] == "Test Open"
    assert meta["tournament_country"] == "Estonia"
    assert meta["date"] == "2019-07-01" and meta["year"] == "2019"
    assert meta["round"] == "1" and meta["btime"] == "5" and meta["wtime"] == "0"
    assert meta["publisher"] == "RIF"
    assert meta["info"] == "Black won on time & more"
    assert records[1].metadata["white_native"] == "Tõnu Kõiv"
    assert records[2].metadata["date"] == "2021-03"  # no start date: year and month


def test_opening_ids(records: list[Record]) -> None:
    assert [r.opening_id for r in records[:3]] == ["D4", "I1", None]
    assert records[0].metadata["opening_name"] == "Kagetsu"


def test_swap_events(records: list[Record]) -> None:
    ev = records[0].opening_events
    assert [(e.kind, e.after, e.value) for e in ev] == [("no-swap", -1, "1")]
    assert [e.kind for e in records[1].opening_events] == ["swap"]
    kinds = [(e.kind, e.value) for e in records[2].opening_events if e.kind != "offers"]
    assert kinds == [("no-swap", "1"), ("swap", "2"), ("swap", "3"), ("no-swap", "4")]
    assert records[2].metadata["swap"] == "-R+-"


def test_alt_points_become_offers_and_opaque_alt_is_noted(records: list[Record]) -> None:
    offers = [e for e in records[2].opening_events if e.kind == "offers"]
    assert len(offers) == 1
    assert offers[0].after == 4 and offers[0].points == [Point(9, 9), Point(6, 5)]
    opaque = records[1]
    assert opaque.metadata["alt"] == "51"
    assert not [e for e in opaque.opening_events if e.kind == "offers"]
    assert any("'51'" in n and "opaque" in n for n in opaque.notes)


def test_result_only_games_have_no_moves_and_no_problem(records: list[Record]) -> None:
    for rec in (records[2], records[3]):  # empty <move>, and no <move> at all
        assert rec.moves == [] and rec.problems == []
    assert records[2].declared_result is not None


def test_unparseable_token_keeps_the_moves_before_it(records: list[Record]) -> None:
    rec = records[4]
    assert [m.point for m in rec.moves] == pts("h8", "h9")
    assert len(rec.problems) == 1
    problem = rec.problems[0]
    assert not problem.fatal
    assert "zz9" in problem.message and "504" in problem.message and "move 3" in problem.message
    assert problem.line == line_of(DATABASE, "h8 h9 zz9")


def test_tables_after_games_leave_names_unresolved_with_a_note() -> None:
    games = GAMES.replace("</games>\n</database>\n", "</games>\n")
    text = (
        '<?xml version="1.0"?>\n<database>\n'
        + games
        + '<rules><rule id="101" name="Yamaguchi"/></rules>\n</database>\n'
    )
    recs = read_text(text)
    assert len(recs) == 6
    rec = recs[0]
    assert rec.rule is None and rec.metadata["rule_id"] == "101"
    assert "black" not in rec.metadata and rec.metadata["black_id"] == "1"
    assert any("no <rules> table before this game" in n for n in rec.notes)
    assert any("no <players> table before this game" in n for n in rec.notes)
    assert [m.point for m in rec.moves] == pts("h8", "h9", "i9", "j10", "g7")


def test_unknown_id_in_a_present_table_is_noted() -> None:
    text = DATABASE.replace(
        'black="1" white="2" bresult="1" btime', 'black="77" white="2" bresult="1" btime'
    )
    rec = read_text(text)[0]
    assert "black" not in rec.metadata
    assert any("'77'" in n and "<players>" in n for n in rec.notes)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("RIF", "renju-rif"),
        ("Renju", "renju-rif"),
        ("Yamaguchi", "yamaguchi"),
        ("Soosõrv-8", "soosyrv-8"),
        ("Soosorv-8", "soosyrv-8"),
        ("Soosyrv-8", "soosyrv-8"),
        ("SOOSÕRV 5", "soosyrv-5"),
        ("Taraguchi-10", "taraguchi-10"),
        ("Taraguchi-5", "taraguchi-5"),
        ("Tarannikov", "tarannikov"),
        ("Sakata", "sakata"),
        ("Super Sakata", "super-sakata"),
        ("Swap2", "swap2"),
        ("Swap", "renju-swap"),
        ("Mystery", None),
        ("", None),
    ],
)
def test_ruleset_name(raw: str, expected: str | None) -> None:
    assert renjunet.ruleset_name(raw) == expected


# -- hostile and broken files ----------------------------------------------------------------

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<database><games><game id="1" black="1" white="2"><info>&lol9;</info></game></games></database>
"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE database [
 <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<database><games><game id="1"><info>&xxe;</info><move>h8</move></game></games></database>
"""


@pytest.mark.parametrize(
    ("data", "word", "line"),
    [(BILLION_LAUGHS, "'lol'", 3), (EXTERNAL_ENTITY, "'xxe'", 3)],
    ids=["billion-laughs", "external-entity"],
)
def test_entity_declarations_are_refused(data: bytes, word: str, line: int) -> None:
    start = time.perf_counter()
    recs = read_bytes(data)
    assert time.perf_counter() - start < 1.0  # nothing was expanded
    assert len(recs) == 1
    rec = recs[0]
    assert rec.unreadable and rec.moves == []
    assert len(rec.problems) == 1
    assert word in rec.problems[0].message and "refused" in rec.problems[0].message
    assert rec.source.line == line
    assert "root:" not in repr(rec)  # /etc/passwd was not read


def test_truncated_file_keeps_earlier_games_then_one_unreadable_record() -> None:
    data = DATABASE.encode("utf-8")
    cut = data.index(b'<game id="502"') + 30
    recs = read_bytes(data[:cut])
    assert [r.metadata.get("game_id") for r in recs[:2]] == ["500", "501"]
    assert not recs[0].unreadable and not recs[1].unreadable
    assert len(recs) == 3
    last = recs[2]
    assert last.unreadable and last.source.index == 2
    assert last.problems[0].line == line_of(DATABASE, '<game id="502"')
    assert "XML syntax error" in last.problems[0].message


def test_syntax_error_mid_file_stops_there() -> None:
    text = DATABASE.replace('<game id="503"', '<game id="503" <oops', 1)
    recs = read_text(text)
    assert [r.metadata.get("game_id") for r in recs[:3]] == ["500", "501", "502"]
    assert len(recs) == 4 and recs[3].unreadable
    assert recs[3].source.line == line_of(text, "<oops")
    assert "not well-formed" in recs[3].problems[0].message


def test_not_a_database_at_all() -> None:
    recs = read_bytes(b"\x00\x01garbage, not XML")
    assert len(recs) == 1 and recs[0].unreadable
    other = read_text('<?xml version="1.0"?>\n<html><body>hi</body></html>\n')
    assert len(other) == 1 and other[0].unreadable and "<html>" in other[0].problems[0].message
    assert read_text('<?xml version="1.0"?><database><games/></database>') == []


def test_a_document_that_is_one_game() -> None:
    recs = read_text('<game id="1" bresult="1"><move>h8 i9</move></game>')
    assert len(recs) == 1 and [m.point for m in recs[0].moves] == pts("h8", "i9")
    assert recs[0].rule is None and recs[0].declared_result is not None


def test_too_deep_nesting_is_refused() -> None:
    deep = "<database>" + "<x>" * 200 + "</x>" * 200 + "</database>"
    recs = read_text(deep, ReadOptions(max_depth=50))
    assert len(recs) == 1 and recs[0].unreadable and "deeper" in recs[0].problems[0].message


# -- decoding --------------------------------------------------------------------------------


def test_invalid_utf8_in_a_player_name_is_replaced_not_fatal() -> None:
    data = DATABASE.encode("utf-8").replace(b'surname="Tamm"', b'surname="Ta\xff\xfemm"')
    recs = read_bytes(data)
    assert len(recs) == 6 and not any(r.unreadable for r in recs)
    assert recs[0].metadata["black"] == "Ants Ta\ufffd\ufffdmm"
    assert any("U+FFFD" in n for n in recs[0].notes)
    assert not any("U+FFFD" in n for n in recs[1].notes)  # player 1 is not in game 501
    assert [m.point for m in recs[0].moves] == pts("h8", "h9", "i9", "j10", "g7")


def test_control_characters_do_not_stop_the_parse() -> None:
    text = DATABASE.replace("Black won on time", "Black won\x01 on time")
    recs = read_text(text)
    assert len(recs) == 6 and recs[0].metadata["info"] == "Black won\ufffd on time & more"


def test_declared_single_byte_encoding() -> None:
    text = (
        HEADER.replace('encoding="UTF-8"', 'encoding="windows-1251"')
        .replace('native_name="Tõnu Kõiv"', 'native_name="Тыну Кыйв"')
        .replace('native_name="中村悠水"', "")
        .replace("Soosõrv", "Soosorv")  # not in CP1251
        + GAMES
    )
    recs = read_bytes(text.encode("cp1251"))
    assert len(recs) == 6
    assert recs[1].metadata["white_native"] == "Тыну Кыйв"
    assert recs[2].rule == "soosyrv-8"


def test_utf16_with_bom() -> None:
    recs = read_bytes(DATABASE.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"))
    assert len(recs) == 6 and recs[0].metadata["white_native"] == "中村悠水"
    assert recs[0].source.line == line_of(DATABASE, '<game id="500"')


def test_tiny_chunks_give_the_same_records(monkeypatch: pytest.MonkeyPatch) -> None:
    # tokens and multi-byte characters cut between chunks must be put back together
    whole = read_text(DATABASE)
    monkeypatch.setattr(renjunet, "CHUNK_BYTES", 3)
    pieces = read_text(DATABASE)
    assert [[(m.point, m.line) for m in r.moves] for r in pieces] == [
        [(m.point, m.line) for m in r.moves] for r in whole
    ]
    assert [r.metadata for r in pieces] == [r.metadata for r in whole]
    assert [len(r.problems) for r in pieces] == [len(r.problems) for r in whole]


@pytest.mark.parametrize("feed", [1, 5, 64])
def test_small_feeds_give_the_same_records(monkeypatch: pytest.MonkeyPatch, feed: int) -> None:
    # the parser gets a chunk a slice at a time: records must not depend on where it is cut
    whole = read_text(DATABASE)
    monkeypatch.setattr(renjunet, "FEED_BYTES", feed)
    assert read_text(DATABASE) == whole


def test_namespaced_names_are_read_by_their_local_part() -> None:
    (rec,) = read_text(
        '<?xml version="1.0"?>\n<r:database xmlns:r="urn:renju" version="7" r:date="x">\n'
        '<r:players><r:player id="1" name="Ants" r:surname="Tamm"/></r:players>\n'
        '<r:games xmlns:x="urn:x">\n<r:game r:id="9" black="1" x:foo="bar" round="2">'
        "<r:move>h8 h9</r:move><x:info>hi</x:info></r:game>\n</r:games></r:database>\n"
    )
    assert [(m.token, m.line) for m in rec.moves] == [("h8", 5), ("h9", 5)]
    assert rec.source.line == 5
    assert rec.metadata == {
        "database_version": "7",  # an attribute of the database in a namespace is not read
        "foo": "bar",
        "game_id": "9",
        "round": "2",
        "black_id": "1",
        "black": "Ants Tamm",
        "info": "hi",
    }


def test_tiny_games_are_records_of_their_own() -> None:
    recs = read_bytes(b'<database version="2"><games>\n<game/><game/>\n<game/></games></database>')
    assert recs == [
        Record(
            moves=[],
            source=SourceLocation("db.rif", index, line),
            width=15,
            height=15,
            metadata={"database_version": "2"},
            format="renjunet",
        )
        for index, line in enumerate([2, 2, 3])
    ]


# -- bounds ----------------------------------------------------------------------------------


def test_max_moves_truncates_with_a_problem() -> None:
    rec = read_text(DATABASE, ReadOptions(max_moves=3))[0]
    assert [m.point for m in rec.moves] == pts("h8", "h9", "i9")
    assert len(rec.problems) == 1 and not rec.problems[0].fatal
    assert "more than 3 moves" in rec.problems[0].message


def test_max_string_truncates_text() -> None:
    rec = read_text(DATABASE, ReadOptions(max_string=9))[0]
    assert rec.metadata["info"] == "Black won"
    assert any("truncated" in n for n in rec.notes)


def test_max_records_stops_with_a_fatal_record() -> None:
    recs = read_text(DATABASE, ReadOptions(max_records=2))
    assert len(recs) == 3
    assert not recs[1].unreadable and recs[2].unreadable
    assert "more than 2 records" in recs[2].problems[0].message


def test_huge_token_does_not_grow_memory() -> None:
    text = DATABASE.replace("h8 h9 zz9 i8", "h8 h9 " + "x" * 300_000 + " i8")
    rec = read_text(text)[4]
    assert [m.point for m in rec.moves] == pts("h8", "h9")
    assert len(rec.problems[0].message) < 300


# -- detection -------------------------------------------------------------------------------


def test_sniff() -> None:
    assert renjunet.sniff(DATABASE.encode("utf-8")[:4096]) == 2
    assert renjunet.sniff(b"\xef\xbb\xbf<database version='1'>") == 2
    assert renjunet.sniff(b"<?xml version='1.0'?>\n<!-- RenjuNet -->\n<database>") == 2
    assert renjunet.sniff("<database>".encode("utf-16")) == 2
    assert renjunet.sniff(b"<?xml version='1.0'?><games><game id='1'/></games>") == 1
    assert renjunet.sniff(b"<?xml version='1.0'?><html/>") == 0
    assert renjunet.sniff(b"(;GM[4]SZ[15];B[hh])") == 0
    assert renjunet.sniff(b"h8 h9 i10") == 0
    assert renjunet.sniff(b"") == 0
    assert ".rif" in renjunet.EXTENSIONS and ".xml" in renjunet.EXTENSIONS


def test_detect_and_read_stream() -> None:
    data = DATABASE.encode("utf-8")
    assert detect(data[:4096], "games.rif") == "renjunet"
    recs = list(read_stream(io.BufferedReader(io.BytesIO(data)), "games.rif"))
    assert len(recs) == 6 and recs[0].rule == "yamaguchi"


# -- the generator and streaming -------------------------------------------------------------


def generate_bytes(**kwargs: object) -> bytes:
    out = io.BytesIO()
    gen.generate(out, **kwargs)
    return out.getvalue()


def test_generator_is_deterministic() -> None:
    a = generate_bytes(games=300, seed=7)
    assert a == generate_bytes(games=300, seed=7)
    assert a != generate_bytes(games=300, seed=8)


def test_generator_cli_writes_a_readable_database(tmp_path: Path) -> None:
    out = tmp_path / "gen.rif"
    proc = subprocess.run(
        [sys.executable, str(GEN_PATH), "--games", "400", "--seed", "3", "-o", str(out)],
        capture_output=True,
        check=True,
    )
    assert b"400 games" in proc.stderr
    data = out.read_bytes()
    assert data == generate_bytes(games=400, seed=3)
    recs = read_bytes(data)
    assert len(recs) == 400
    assert not any(r.problems for r in recs)
    assert {r.rule for r in recs} == {
        "renju-rif", "renju-swap", "yamaguchi", "super-sakata", "soosyrv-8", "taraguchi-10",
    }  # fmt: skip
    with_moves = [r for r in recs if r.moves]
    assert all(r.moves[0].point == Point(7, 7) for r in with_moves)
    assert all(r.opening_id for r in with_moves)
    assert all(9 <= len(r.moves) <= 80 for r in with_moves)
    assert all(len({m.point for m in r.moves}) == len(r.moves) for r in recs)
    assert any(not r.moves for r in recs)
    assert any("info" in r.metadata for r in recs)
    assert any(e.kind == "offers" for r in recs for e in r.opening_events)
    assert any("opaque" in n for r in recs for n in r.notes)
    assert any(any(ord(c) > 127 for c in r.metadata.get("black_native", "")) for r in recs)


def test_generator_size_target(tmp_path: Path) -> None:
    out = tmp_path / "sized.rif"
    gen.main(["--size-mb", "0.5", "--seed", "1", "-o", str(out)])
    size = out.stat().st_size
    assert 500_000 <= size < 502_000  # stops at the first game that reaches the target


def _records_of(path: Path) -> Iterator[Record]:
    with path.open("rb") as f:
        yield from renjunet.read(f, str(path), ReadOptions())


def test_streaming_memory_tracemalloc(tmp_path: Path) -> None:
    """Memory does not grow with the number of games (traced allocations)."""
    path = tmp_path / "stream.rif"
    with path.open("wb") as f:
        games = gen.generate(f, games=None, seed=11, size_bytes=3_000_000)
    tracemalloc.start()
    try:
        count = 0
        early = 0
        for _rec in _records_of(path):
            count += 1
            if count == 1000:
                early = tracemalloc.get_traced_memory()[0]
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == games > 5000
    assert peak < 8_000_000
    assert current - early < 200_000  # nothing is kept per game


_RSS_SCRIPT = """
import resource, sys
from renju_cli.formats import ReadOptions, renjunet
n = 0
with open(sys.argv[1], "rb") as f:
    for rec in renjunet.read(f, sys.argv[1], ReadOptions()):
        n += 1
print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak_rss_kb(path: Path) -> tuple[int, int]:
    proc = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, str(path)], capture_output=True, check=True, text=True
    )
    count, rss = proc.stdout.split()
    return int(count), int(rss)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux only")
def test_streaming_memory_20mb(tmp_path: Path) -> None:
    """A 20 MB database is read in about the memory of a tiny one (peak RSS, no tracing)."""
    small, big = tmp_path / "small.rif", tmp_path / "big.rif"
    with small.open("wb") as f:
        gen.generate(f, games=50, seed=5)
    with big.open("wb") as f:
        games = gen.generate(f, games=None, seed=5, size_bytes=20_000_000)
    assert big.stat().st_size > 19_000_000
    n_small, rss_small = _peak_rss_kb(small)
    n_big, rss_big = _peak_rss_kb(big)
    assert (n_small, n_big) == (50, games)
    assert rss_big - rss_small < 20 * 1024  # KiB


def test_text_every_game_repeats_counts_against_the_file_budget() -> None:
    """The <database> attributes and the table entries a game names are copied into every
    game's metadata: 900 KB of them before 14,000 ``<game/>`` made 12 GB of report.  Past the
    file's budget (2 moves a byte + 65,536; 16 characters of text are a move) the rest is one
    unreadable record that says why."""
    long = "v" * 20_000
    data = (
        f'<database version="{long}"><players><player id="1" name="{long}"/></players><games>'
        + '<game black="1"><move>h8</move></game>' * 2_000
        + "</games></database>"
    ).encode()
    records = list(read_stream(io.BufferedReader(io.BytesIO(data)), "db.rif"))
    *kept, refused = records
    # each game repeats 40,000 characters (2,500 "moves"); the budget is ~2 x 70 KB + 65,536
    assert 50 < len(kept) < 100
    assert all(r.metadata["black"] == long for r in kept)
    assert refused.unreadable and refused.source.index == len(kept)
    assert "more than the file's budget" in refused.problems[0].message
    # the same games with short names are all read
    short = data.replace(long.encode(), b"v")
    assert len(list(read_stream(io.BufferedReader(io.BytesIO(short)), "db.rif"))) == 2_000


GAME = b"<database><games><game id='1'><move>h8 h9</move></game></games></database>"


@pytest.mark.parametrize(
    ("doctype", "refused"),
    [
        (b"<!DOCTYPE database SYSTEM 'http://127.0.0.1:9/x.dtd'>", "external DTD"),
        (b"<!DOCTYPE database PUBLIC '-//x//y' 'file:///etc/passwd'>", "external DTD"),
        (b"<!DOCTYPE database [<!ATTLIST game rule CDATA 'freestyle'>]>", "attribute default"),
        (b"<!DOCTYPE database [<!ATTLIST game id CDATA #FIXED '9'>]>", "attribute default"),
        (b"<!DOCTYPE database>", None),
        (b"<!DOCTYPE database [<!ELEMENT database ANY><!ATTLIST game id CDATA #IMPLIED>]>", None),
    ],
    ids=["system", "public", "attribute-default", "fixed", "name-only", "declarations-only"],
)
def test_a_dtd_that_points_outside_or_changes_attributes_is_refused(
    doctype: bytes, refused: str | None
) -> None:
    """A DTD is never fetched (expat does not), but a file that refers to one is refused, as is
    one whose DTD gives attributes default values (they would change the games: an ATTLIST
    default ``rule`` would judge every game under another rule, without a word)."""
    recs = read_bytes(b"<?xml version='1.0'?>" + doctype + GAME)
    assert len(recs) == 1
    if refused is None:
        assert not recs[0].unreadable and len(recs[0].moves) == 2
    else:
        assert recs[0].unreadable and refused in recs[0].problems[0].message
        assert "refused" in recs[0].problems[0].message


@pytest.mark.parametrize("codec", ["idna", "undefined", "punycode", "cp037"])
@pytest.mark.parametrize("how", ["declared", "--encoding"])
def test_an_encoding_that_cannot_read_the_file_is_noted_and_utf8_used(codec: str, how: str) -> None:
    """Python codecs that are text encodings in name but cannot read an XML file: ``idna`` and
    ``undefined`` raise even with ``errors="replace"``, ``punycode`` and EBCDIC ``cp037`` turn
    the markup into other characters.  Each lost the whole database; now a note says so."""
    if how == "declared":
        recs = read_bytes(b"<?xml version='1.0' encoding='%s'?>" % codec.encode() + GAME)
    else:
        recs = read_bytes(GAME, ReadOptions(encoding=codec))
    assert len(recs) == 1 and len(recs[0].moves) == 2
    assert recs[0].notes == [f"encoding {codec!r} cannot read this file; decoded as UTF-8"]


@pytest.mark.parametrize("codec", ["utf-32", "utf-32-le", "utf-32-be", "utf-16", "utf-16-le"])
def test_utf32_and_utf16_databases(codec: str) -> None:
    # "utf-32" writes a BOM whose little-endian form starts with UTF-16's: it was read as
    # UTF-16 and failed at column 0
    text = "<?xml version='1.0'?>" + GAME.decode()
    recs = read_bytes(text.encode(codec))
    assert len(recs) == 1 and len(recs[0].moves) == 2 and not recs[0].notes
