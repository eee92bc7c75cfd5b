"""Tests of the RenjuNet / RIF XML database reader and of its benchmark generator."""

from __future__ import annotations

import gc
import io
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import RENJUNET_GENERATOR, renjunet_generator

from renju_cli import api
from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, detect, read_stream, renjunet
from renju_cli.formats.renjunet import parse, recoder, source, target
from renju_cli.record import DeclaredResult, Record, SourceLocation
from renju_cli.report import GameReport

gen = renjunet_generator()

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


def test_a_bresult_in_words_and_one_not_understood() -> None:
    games = "".join(
        f'<game id="{n}" bresult="{text}"><move>h8 h9</move></game>\n'
        for n, text in enumerate(("黑胜", "B+T", "?", "Blue won"), start=1)
    )
    records = read_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<database><games>\n{games}'
                        "</games></database>\n")  # fmt: skip
    assert [r.declared_result for r in records] == [
        DeclaredResult("black", None, "黑胜"),
        DeclaredResult("black", "time", "B+T"),
        None,
        DeclaredResult(None, None, "Blue won"),
    ]
    assert [r.problems for r in records[:3]] == [[], [], []]
    (problem,) = records[3].problems
    assert problem.severity == "info" and problem.line == 6 and "'Blue won'" in problem.message
    assert problem.message.startswith("game id=4: bresult is no score")


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
    tracemalloc.start()
    try:
        recs = read_bytes(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20  # nothing was expanded (a billion laughs is 3 GB of text)
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


def test_syntax_error_in_a_start_tag_resumes_at_the_next_game() -> None:
    text = DATABASE.replace('<game id="503"', '<game id="503" <oops', 1)
    recs = read_text(text)
    assert [r.metadata.get("game_id") for r in recs] == ["500", "501", "502", None, "504", "505"]
    assert recs[3].unreadable and recs[3].source.index == 3
    assert recs[3].source.line == line_of(text, "<oops")
    message = recs[3].problems[0].message
    assert "not well-formed" in message
    assert f"reading resumed at line {game_line(text, '504')}" in message
    clean = read_text(DATABASE)
    assert recs[4:] == clean[4:]  # the same records, index and lines included


# -- XML syntax errors: the damaged game is one record, reading resumes at the next game -------

FIVE_GAMES = """<games>
<game id="1" rule="101" black="1" white="2" bresult="1"><move>h8 h9 i9</move><info>one</info></game>
<game id="2" rule="102" black="2" white="3" bresult="0"><move>h8 i9</move><info>INFO</info></game>
<game id="3" rule="103" black="3" white="1"><move>h8 h9
i10 zz9</move></game>
<game id="4" tournament="9" black="1" white="3" bresult="0.5">
<move>h8 g7</move><info>INFO</info></game>
<game id="5" rule="101" black="2" white="1"><move>h8 h7 i8 g6</move><info>INFO</info></game>
</games>
</database>
"""
FIVE = HEADER + FIVE_GAMES


def damage(text: str, game: str, info: str = "Smith & Jones") -> str:
    """``text`` with the ``<info>`` of game ``game`` (``INFO``) made ``info``."""
    start = text.index(f'<game id="{game}"')
    at = text.index("INFO", start)
    return text[:at] + info + text[at + 4 :]


def game_line(text: str, game: str) -> int:
    return line_of(text, f'<game id="{game}"')


def resumed_at(text: str, game: str) -> str:
    return f"reading resumed at line {game_line(text, game)}"


def judged(rec: Record) -> GameReport:
    report = api.judge_record(rec)
    assert not report.unreadable and report.source == rec.source
    return report


@pytest.fixture(scope="module")
def five() -> list[Record]:
    recs = read_text(FIVE.replace("INFO", "fine"))
    assert len(recs) == 5 and not any(r.unreadable for r in recs)
    return recs


@pytest.mark.parametrize(
    ("info", "after"), [("Smith & Jones", 7), ("a < b", 3)], ids=["ampersand", "less-than"]
)
def test_damaged_game_is_one_record_and_the_later_games_are_read(
    five: list[Record], info: str, after: int
) -> None:
    """A hostile database: a bare ``&`` in game 10 of 40,000 gave 11 records; the games
    after a damaged one are read, with the file's lines, as if it were not there."""
    text = damage(FIVE, "2", info).replace("INFO", "fine")
    recs = read_text(text)
    assert len(recs) == 5
    assert [r.source.index for r in recs] == [0, 1, 2, 3, 4]
    assert [r.metadata.get("game_id") for r in recs] == ["1", None, "3", "4", "5"]
    for rec, clean in zip(recs, five, strict=True):
        if rec.metadata.get("game_id"):
            assert rec == clean  # names resolved, moves and their lines, problems: all the same
            assert rec.source.line == game_line(text, rec.metadata["game_id"])
            judged(rec)
    # the later records' lines are the file's: moves, a bad token, a game on two lines
    assert [(m.token, m.line) for m in recs[2].moves] == [
        ("h8", game_line(text, "3")),
        ("h9", game_line(text, "3")),
        ("i10", game_line(text, "3") + 1),
    ]
    assert recs[2].problems[0].line == game_line(text, "3") + 1
    assert recs[3].source.line == game_line(text, "4")
    assert recs[3].moves[0].line == game_line(text, "4") + 1
    assert judged(recs[4]).moves == 4
    bad = recs[1]
    assert bad.unreadable and bad.format == "renjunet" and bad.moves == []
    assert bad.source.line == game_line(text, "2") and bad.problems[0].line == bad.source.line
    message = bad.problems[0].message
    assert message.startswith("XML syntax error: not well-formed (invalid token): line ")
    line = text.splitlines()[bad.source.line - 1]
    column = line.index(info) + after  # expat points after the "&" or "<"
    assert f"line {bad.source.line}, column {column}" in message
    assert f"game id=2 that starts at line {game_line(text, '2')} is incomplete" in message
    assert resumed_at(text, "3") in message
    assert api.judge_record(bad).unreadable


def test_two_damaged_games(five: list[Record]) -> None:
    text = damage(damage(FIVE, "2"), "4", "x</info>").replace("INFO", "fine")
    recs = read_text(text)
    assert [r.metadata.get("game_id") for r in recs] == ["1", None, "3", None, "5"]
    assert [recs[i] for i in (0, 2, 4)] == [five[i] for i in (0, 2, 4)]
    first, second = recs[1].problems[0].message, recs[3].problems[0].message
    assert recs[1].source.line == game_line(text, "2") and resumed_at(text, "3") in first
    # game 4's error is on its second line: the line of the error, the game's own in the message
    assert recs[3].source.line == game_line(text, "4") + 1
    assert "mismatched tag" in second and resumed_at(text, "5") in second
    assert f"starts at line {game_line(text, '4')}" in second


def test_damaged_lookup_table_before_the_games() -> None:
    """Reading resumes at the first game: the tables read before the error are used, those
    skipped are not (their ids are left unresolved, with a note), and the file's closing tags
    after the games still match (no spurious error at the end)."""
    text = FIVE.replace('name="Yusui"', 'name="Yu<sui"').replace("INFO", "fine")
    recs = read_text(text)
    assert len(recs) == 6
    bad, *games = recs
    assert bad.unreadable and bad.source.index == 0
    assert bad.source.line == line_of(text, "Yu<sui")
    assert "game" not in bad.problems[0].message.split(";")[0]  # no game was being read
    assert resumed_at(text, "1") in bad.problems[0].message
    assert [r.metadata["game_id"] for r in games] == ["1", "2", "3", "4", "5"]
    assert [r.source.index for r in games] == [1, 2, 3, 4, 5]
    assert [r.source.line for r in games] == [game_line(text, g) for g in "12345"]
    assert not any(r.unreadable for r in games)
    first = games[0]
    assert first.metadata["black"] == "Ants Tamm"  # player 1 was read before the damage
    assert "white" not in first.metadata  # player 2 is where the damage is
    assert any("'2' is not in the file's <players> table" in n for n in first.notes)
    assert first.rule == "yamaguchi"  # the rules come before the players
    assert first.metadata["database_version"] == "3"  # the database's attributes are kept
    assert any("no <tournaments> table before this game" in n for n in games[3].notes)
    assert [m.point for m in games[0].moves] == pts("h8", "h9", "i9")


def test_damaged_last_game() -> None:
    text = damage(FIVE, "5").replace("INFO", "fine")
    recs = read_text(text)
    assert [r.metadata.get("game_id") for r in recs] == ["1", "2", "3", "4", None]
    last = recs[4]
    assert last.unreadable and last.source.index == 4
    assert last.source.line == game_line(text, "5")
    message = last.problems[0].message
    assert "game id=5" in message and "no later <game> was found" in message


@pytest.mark.parametrize("damaged", [False, True], ids=["clean", "game-2-damaged"])
def test_truncated_after_the_last_game(damaged: bool) -> None:
    """A file cut after its last ``</game>`` keeps its one unreadable record at the end, after a
    resync too (the synthetic start tags add no error of their own)."""
    text = FIVE.replace("INFO", "fine")
    if damaged:
        text = damage(FIVE, "2").replace("INFO", "fine")
    cut = text[: text.rindex("</game>") + len("</game>\n")]
    recs = read_text(cut)
    assert len(recs) == 6
    assert [r.unreadable for r in recs] == [False, damaged, False, False, False, True]
    end = recs[5]
    assert end.source.index == 5 and end.source.line == cut.count("\n") + 1
    message = end.problems[0].message
    assert message.startswith("XML syntax error: no element found")
    assert "no later <game> was found" in message
    # whole, the same file has no error at its end
    whole = read_text(text)
    assert len(whole) == 5 and whole[-1].metadata["game_id"] == "5"


def test_an_unclosed_end_tag_loses_only_its_game() -> None:
    """The error of ``</game`` left open is at the next ``<game``: that game is read."""
    text = FIVE.replace("INFO", "fine").replace("<info>one</info></game>", "</game", 1)
    recs = read_text(text)
    assert [r.metadata.get("game_id") for r in recs] == [None, "2", "3", "4", "5"]
    assert "game id=1" in recs[0].problems[0].message
    assert recs[1].source.line == game_line(text, "2")


def small(*parts: str) -> str:
    """A database of ``parts`` (games and whatever lies between them), one per line."""
    return "<database><games>\n" + "".join(parts) + "</games></database>\n"


def game(gid: str, moves: str = "h8 h9") -> str:
    return f'<game id="{gid}"><move>{moves}</move></game>\n'


def game_ids(recs: list[Record]) -> list[str | None]:
    return [r.metadata.get("game_id") for r in recs]


@pytest.mark.parametrize(
    "damaged",
    [
        # the "--" is the error, inside a comment that holds a game: there is no game 9
        "<!-- removed -- was wrong:\n" + game("9", "a1 a2") + "-->\n",
        '<!-- removed -- <game id="9"> ---->\n',
        # a commented start tag after the error is not where reading resumes
        '<game id="2"><info>&</info></game>\n<!-- <game id="old"> -->\n',
        '<game id="2"><info>&</info></game>\n<![CDATA[ <game id="old"> ]]>\n',
        '<game id="2"><info>&</info></game>\n<?note <game id="old"> ?>\n',
        # nor does a commented tag open an element around the next game
        '<game id="2"><info>&</info></game>\n<!-- <old> --><!-- </games> -->\n',
    ],
    ids=["error-in-comment", "error-in-comment-dashes", "comment", "cdata", "pi", "tags"],
)
def test_a_game_in_a_comment_is_not_where_reading_resumes(damaged: str) -> None:
    """A ``<game`` in a comment, a CDATA section or a processing instruction is text: resumed
    there, a game that is not in the file came out, or the intact games after it were lost in
    it (and the message named a game that does not exist)."""
    text = small(game("1"), damaged, game("3"), game("4"), game("5"))
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, "3", "4", "5"]
    assert [r.source.index for r in recs] == [0, 1, 2, 3, 4]
    assert [r.unreadable for r in recs] == [False, True, False, False, False]
    bad = recs[1]
    assert bad.source.line == 3
    message = bad.problems[0].message
    assert resumed_at(text, "3") in message
    assert "id=9" not in message and "id=old" not in message
    assert recs[2].source.line == game_line(text, "3")
    line = game_line(text, "3")
    assert [(m.token, m.line) for m in recs[2].moves] == [("h8", line), ("h9", line)]


def test_an_error_inside_a_comment_resumes_after_its_end() -> None:
    """A comment ended by ``--->`` (an error) ends there: the game after it is in the file."""
    text = small(game("1"), "<!-- old --->", game("2"), game("3"))
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, "2", "3"]
    assert "reading resumed at line 3" in recs[1].problems[0].message
    assert recs[2].source == SourceLocation("db.rif", 2, 3)


@pytest.mark.parametrize(
    "tag",
    [
        """<game id="2" a="<game id='x'>">""",
        """<game id="2" a='it"s <game id="x">'>""",
        """<game id="2" a="it's" b="<game id='x'>">""",
        """<game id="2" a="b" c='<game id="x"/>' d="e">""",
    ],
)
def test_a_game_in_an_attribute_value_is_not_where_reading_resumes(tag: str) -> None:
    """The error is at a ``<`` in a quoted attribute value: resumed there, the damaged game was
    both an unreadable record and a readable one (id x), four records for three games."""
    text = small(game("1"), tag + "<move>h8</move></game>\n", game("3"))
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, "3"]
    assert recs[1].unreadable and recs[1].source.line == 3
    assert resumed_at(text, "3") in recs[1].problems[0].message
    # an unfinished start tag followed by an intact game still resumes at that game
    text = small(game("1"), '<game id="2" a="x\'y"' + game("3"), game("4"))
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, "3", "4"]
    assert "reading resumed at line 3" in recs[1].problems[0].message


# -- sections never closed and quoted values in the text skipped after a syntax error ---------

#: Section openers and what a message calls them.
OPENERS = {"cdata": ("<![CDATA[", "a CDATA section"), "comment": ("<!--", "a comment"),
           "pi": ("<?note", "a processing instruction")}  # fmt: skip


def games_after(damaged: str, n: int = 600) -> tuple[str, list[Record]]:
    """A database of game 1, ``damaged`` and games 3 to ``n``, and the records of the same
    database with an intact game 2 instead of ``damaged`` (on as many lines)."""
    later = [game(str(k)) for k in range(3, n + 1)]
    clean = read_text(small(game("1"), game("2") + "\n" * damaged.count("\n"), *later))
    return small(game("1"), damaged + "\n", *later), clean


def as_read(recs: list[Record]) -> list[tuple[object, ...]]:
    """What records hold but their index."""
    return [(r.metadata, r.moves, r.problems, r.source.line) for r in recs]


@pytest.mark.parametrize("kind", OPENERS)
@pytest.mark.parametrize(
    "damaged",
    [
        '<game id="2"><info>a & b {opener} c</info></game>',
        '<game id="2" note="a & b"><info>{opener} c</info></game>',
        '<game id="2"><info>a & b {opener} c</info></game><game id="x"/>',  # (x is a game)
    ],
    ids=["after-the-error", "after-a-bad-tag", "a-game-on-its-line"],
)
def test_a_section_never_closed_in_a_damaged_game_does_not_swallow_the_later_games(
    kind: str, damaged: str
) -> None:
    """The skip took what follows an opener in the damaged game for the section, up to the end
    of the file: 598 games lost, and the message said that no later <game> was found.  Nothing
    closes it, so it is text: reading resumes at the next game, and every game is one record."""
    opener, what = OPENERS[kind]
    line = damaged.format(opener=opener)
    text, clean = games_after(line)
    recs = read_text(text)
    same_line = 'id="x"' in line
    ids = ["1", None, *(["x"] if same_line else []), *map(str, range(3, 601))]
    assert game_ids(recs) == ids
    assert [r.source.index for r in recs] == list(range(len(ids)))
    assert [r.unreadable for r in recs].count(True) == 1
    # the other games as if game 2 were intact: lines, moves, problems
    assert as_read(recs[:1] + recs[2 + same_line :]) == as_read(clean[:1] + clean[2:])
    message = recs[1].problems[0].message
    assert "no later <game>" not in message
    resumed = 3 if same_line else 4
    assert message.endswith(
        f"; {what} opened at line 3 is never closed, so it was read as text; "
        f"reading resumed at line {resumed}"
    )


@pytest.mark.parametrize("kind", OPENERS)
def test_a_section_closed_later_is_skipped_whole_however_far(kind: str) -> None:
    """Never resume inside a section that is closed later: what it holds is text, however many
    feeds and kept chunks away its end is."""
    opener, _ = OPENERS[kind]
    closer = {"cdata": "]]>", "comment": "-->", "pi": "?>"}[kind]
    inside = "".join(game(f"in{k}") for k in range(1000))  # 30 kB, more than is kept
    text = small(
        game("1"), f'<game id="2"><info>& {opener}</info></game>\n', inside, f"{closer}\n",
        game("3"), game("4"),
    )  # fmt: skip
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, "3", "4"]
    message = recs[1].problems[0].message
    assert "never closed" not in message and resumed_at(text, "3") in message


@pytest.mark.parametrize(
    ("damaged", "what"),
    [
        # the comment opened in the CDATA section is closed on the next line: skipped whole
        ('<game id="2"><info>& <![CDATA[ <!-- </info></game>\n<!-- <game id="c"> -->',
         "a CDATA section"),
        # two sections never closed: the first is named
        ('<game id="2"><info>& <![CDATA[ a <!-- b <?c </info></game>', "a CDATA section"),
        # the comment is never closed; the CDATA section after it is, with a game in it
        ('<game id="2"><info>& <!-- x</info></game>\n<![CDATA[<game id="c">]]>', "a comment"),
        # an error inside a comment that is never closed: text after its start
        ('<game id="2"><info><!-- a -- b </info></game>', "a comment"),
    ],
    ids=["closed-inside", "two-unclosed", "closed-after", "error-in-the-comment"],
)  # fmt: skip
def test_sections_in_a_section_never_closed(damaged: str, what: str) -> None:
    text, clean = games_after(damaged, n=300)
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, *map(str, range(3, 301))]
    assert recs[:1] + recs[2:] == clean[:1] + clean[2:]
    message = recs[1].problems[0].message
    assert f"; {what} opened at line 3 is never closed, so it was read as text; " in message
    assert message.endswith(resumed_at(text, "3"))


@pytest.mark.parametrize("kind", OPENERS)
@pytest.mark.parametrize("where", ["between-games", "in-a-game"])
def test_a_section_never_closed_in_an_intact_file_does_not_swallow_the_later_games(
    kind: str, where: str
) -> None:
    """Without any error before it, expat reads the section to the end of the file: a comment or
    an instruction cost the games of all but the last 16 kB after it (read from what was kept);
    a CDATA section all of them ("no later <game> was found")."""
    opener, what = OPENERS[kind]
    damaged = f"{opener} x" if where == "between-games" else f'<game id="2"><info>{opener} x'
    text, clean = games_after(damaged, n=1000)
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, *map(str, range(3, 1001))]
    assert recs[:1] + recs[2:] == clean[:1] + clean[2:]
    bad = recs[1]
    assert bad.unreadable and bad.source.line == 3
    message = bad.problems[0].message
    assert message.startswith("XML syntax error: unclosed ")
    assert ": line 3, column " in message  # where the section opens, not the end of the file
    assert ("game id=2" in message) == (where == "in-a-game")
    assert message.endswith(
        f"; {what} opened at line 3 is never closed, so it was read as text; "
        f"reading resumed at line 4"
    )


@pytest.mark.parametrize(
    "one",
    [
        "<game><info>& <![CDATA[</info></game>\n",  # damaged, then never closed
        "<game><info>& <!--</info></game>\n",
        "<game><info><![CDATA[</info></game>\n",  # intact but never closed: expat reads on
        "<game><info><!--</info></game>\n",
        "<game><info><?x y</info></game>\n",
    ],
)
def test_sections_never_closed_are_looked_past_once_whatever_their_number(
    one: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is looked at to its end once, for where the sections end: then every later
    section never closed is text at once, where expat would read each to the end of the file
    (quadratic).  Counted, not timed: the time of a megabyte is measured by
    ``fuzz/hostile.py``'s ``renjunet-never-closed-*`` files."""
    data = ("<database><games>\n" + one * (100_000 // len(one))).encode()
    options = ReadOptions(max_resyncs=2_000)  # (--limit resyncs=2000; ~2,700 such games)
    looked = [0]
    know_ends = source.Source.know_ends

    def counted(self: source.Source, rest: bytes | bytearray, base: int) -> dict[bytes, int]:
        looked[0] += 1
        return know_ends(self, rest, base)

    monkeypatch.setattr(source.Source, "know_ends", counted)
    recs = read_bytes(data, options)
    assert looked[0] == 1
    assert len(recs) == options.max_resyncs + 1 and all(r.unreadable for r in recs)
    # one record per game, at its line (but the last: its error's)
    starts = [int(r.problems[0].message.split("starts at line ")[1].split()[0]) for r in recs]
    assert starts == list(range(2, len(recs) + 2))
    assert [r.source.line for r in recs[:-1]] == starts[:-1]
    said = "is never closed, so it was read as text"
    assert all(said in r.problems[0].message for r in recs[:-1])


def test_a_section_never_closed_is_held_up_to_the_whole_file_limit() -> None:
    """What follows a section that may not be closed is held to read it as text when nothing
    closes it: at most ``max_file`` bytes; past them the rest is not read, and the message says
    why.  A section closed past the bound is still skipped whole."""
    options = ReadOptions(max_file=8192)
    text, _ = games_after('<game id="2"><info>& <![CDATA[ x</info></game>', n=1000)
    recs = read_text(text, options)
    assert game_ids(recs) == ["1", None]
    message = recs[1].problems[0].message
    assert message.endswith(
        "; a CDATA section opened at line 3 is never closed, and more than 8192 bytes follow it, "
        "more than are held to read them as text (the whole-file limit): the rest of the file "
        "is not read"
    )
    closed = text.replace("</games>", "]]>\n" + game("end") + "</games>")
    assert game_ids(read_text(closed, options)) == ["1", None, "end"]
    # small enough, it is read as text
    assert len(read_text(text, ReadOptions(max_file=1 << 20))) == 1000
    # expat holds what follows the start of a section until its end: what is kept past the
    # bound is the last 16 kB, where reading resumes, and the message says what is lost
    text, _ = games_after("<!-- x", n=1000)
    recs = read_text(text, options)
    assert game_ids(recs)[:2] == ["1", None] and len(recs) < 1000
    assert recs[1].problems[0].message == (
        "XML syntax error: unclosed token: line 3, column 0; the text after it was longer than "
        "8192 bytes, more than is held (the whole-file limit), and the games in it are lost; "
        f"reading resumed at line {recs[2].source.line}"
    )


def test_the_games_between_a_comment_never_closed_and_the_error_in_it_are_read() -> None:
    """A comment opened in game 2 and never closed: expat reads it as a comment up to the "--"
    in game 3's text, its error.  Read as text from its start on, game 3 is a game."""
    text = small(
        game("1"), '<game id="2"><info><!-- x</info></game>\n',
        '<game id="3"><move>h8</move><info>a -- b</info></game>\n', game("4"),
    )  # fmt: skip
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, "3", "4"]
    assert [m.token for m in recs[2].moves] == ["h8"] and recs[2].metadata["info"] == "a -- b"
    assert (
        recs[1]
        .problems[0]
        .message.endswith(
            "; a comment opened at line 3 is never closed, so it was read as text; "
            "reading resumed at line 4"
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        # in the rest of the damaged start tag, after the value the error is in
        small(game("1"), """<game id="2" a='&' note='x <game id="9"> y'><move>h8</move></game>\n""",
              game("3")),
        small(game("1"), """<game id="2" a="&" note="x <game id='9'> y"><move>h8</move></game>\n""",
              game("3")),
        small(game("1"), """<game id="2" a="&" b='<' note='<game id="9">'/>\n""", game("3")),
        # in a tag of the text skipped
        small(game("1"), """<game id="2"><info>&</info><x note='<game id="9">'/></game>\n""",
              game("3")),
        small(game("1"), """<game id="2"><info>&</info></game><x a="1" b='<game id="9">'/>\n""",
              game("3")),
        # a quote not after "=" opens no value: the game after it on its line is read
        small(game("1"), """<game id="2" a="&" it's <game id="3"><move>h8 h9</move></game>\n"""),
    ],
    ids=["damaged-tag", "damaged-tag-double", "damaged-tag-lt", "skipped-tag", "skipped-tag-2",
         "stray-quote"],
)  # fmt: skip
def test_a_game_in_a_quoted_value_after_an_error_is_no_game(text: str) -> None:
    """A ``<game`` in a value of a tag after the error (single- or double-quoted) was taken as the
    next game: a record for a game that is not in the file."""
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, "3"]
    assert [r.unreadable for r in recs] == [False, True, False]
    assert recs[2].source == SourceLocation("db.rif", 2, game_line(text, "3"))


@pytest.mark.parametrize("damage", ["table", "tag"])
def test_a_game_in_a_quoted_value_of_an_enclosing_element_is_no_game(damage: str) -> None:
    """``<games note='<game id="9">'>`` after damage in a table (or damaged itself): the ``<game``
    in the value was read as a game not closed, the real games as games in it, and the
    ``</games>`` that closed it as one more error.  The element is followed, its value skipped."""
    player = 'name="A&B"' if damage == "table" else 'name="AB"'
    text = (
        f'<database><players><player id="1" {player}/></players>\n'
        """<games note='a <game id="9"> b'>\n""" + game("1") + game("3") + "</games></database>\n"
    )
    recs = read_text(text)
    assert game_ids(recs) == [None, "1", "3"]
    assert recs[0].unreadable and recs[0].source.line == (1 if damage == "table" else 2)
    assert resumed_at(text, "1") in recs[0].problems[0].message
    assert [r.source.line for r in recs[1:]] == [3, 4]


@pytest.mark.parametrize(
    "tag", ['<games x:y="1">', '<games a="&">', '<games a="&" b=\'<game id="9">\'>', "<games a=b>"]
)
def test_a_damaged_start_tag_of_an_enclosing_element_is_followed(tag: str) -> None:
    """The damage costs one record: the element is open around the games after it, so the
    ``</games>`` that closes it is no second error (an unbound prefix, which expat reports at
    the tag's "<", gave one)."""
    text = "<database>\n" + tag + "\n" + game("1") + game("2") + "</games></database>\n"
    recs = read_text(text)
    assert game_ids(recs) == [None, "1", "2"]
    assert recs[0].source.line == 2 and resumed_at(text, "1") in recs[0].problems[0].message


@pytest.mark.parametrize("feed", [1, 7, 64])
def test_unclosed_sections_and_quoted_values_do_not_depend_on_the_feed_size(
    monkeypatch: pytest.MonkeyPatch, feed: int
) -> None:
    texts = [
        games_after('<game id="2"><info>& <![CDATA[ <!-- </info></game>\n<!-- <x> -->', 40)[0],
        games_after('<game id="2"><info>& <!-- x</info></game>\n<![CDATA[<game>]]>', 40)[0],
        games_after('<game id="2"><info><?x y</info></game>', 40)[0],
        games_after("<![CDATA[ x", 40)[0],
        small(game("1"), """<game id="2" a='&' note='x <game id="9"> y'>\n""", game("3")),
        small(game("1"), """<game id="2"><info>&</info></game><x b='<game id="9">'/>\n""",
              game("3")),
        small(game("1"), '<game id="2" a="&" note="x\ny">\n', game("3")),  # a value on two lines
        small(game("1"), '<game id="2" a="&" note="x\n<y">\n', game("3")),  # a value left open
        # sections never closed once the end of the file is known: expat meets the "--" in the
        # comment, or an instruction's bad target, only if it reads that far
        small(*["<game><info><!--</info></game>\n"] * 30),
        small(*["<game><info><?xy</info></game>\n"] * 30),
        small(*["<game><info><?x y</info></game>\n"] * 30),
    ]  # fmt: skip
    wholes = [read_text(text) for text in texts]
    monkeypatch.setattr(source, "FEED_BYTES", feed)
    assert [read_text(text) for text in texts] == wholes


@pytest.mark.parametrize("damaged", [2, 3])
def test_a_damaged_game_counts_against_max_records(damaged: int) -> None:
    """Under ``max_records=3``, a damaged 4th game gave 5 records (3 games, the damaged one and
    then the bound): the damaged game is one record too many, the bound's record stands for it."""
    text = small(*(game(str(n)) for n in range(1, 7)))
    # (in the start tag: a game whose start tag is read meets the bound there, before its damage)
    text = text.replace(f'<game id="{damaged + 1}">', f'<game id="{damaged + 1}" a="&">')
    recs = read_text(text, ReadOptions(max_records=3))
    assert len(recs) == 4 and [r.source.index for r in recs] == [0, 1, 2, 3]
    assert [r.unreadable for r in recs] == [damaged == n for n in range(3)] + [True]
    assert recs[3].problems[0].message == "more than 3 records; the rest is not read"
    assert recs[3].source.line == 5  # where the 4th record (game 4, damaged or not) starts


def test_resync_keeps_namespaces_and_database_attributes() -> None:
    text = (
        '<?xml version="1.0"?>\n<r:database xmlns:r="urn:renju" version="7">\n'
        '<r:players><r:player id="1" name="A&nts"/></r:players>\n'
        '<r:games xmlns:x="urn:x">\n'
        '<r:game r:id="9" black="1"><r:move>h8 h9</r:move><x:info>h & i</x:info></r:game>\n'
        '<r:game r:id="10" x:foo="bar"><r:move>h8</r:move><x:info>ok</x:info></r:game>\n'
        "</r:games></r:database>\n"
    )
    recs = read_text(text)
    assert [r.unreadable for r in recs] == [True, True, False]
    assert "reading resumed at line 5" in recs[0].problems[0].message
    rec = recs[2]
    assert rec.source == SourceLocation("db.rif", 2, 6)
    assert rec.metadata == {
        "database_version": "7",
        "foo": "bar",
        "game_id": "10",
        "info": "ok",
    }
    assert [(m.token, m.line) for m in rec.moves] == [("h8", 6)]


def test_resync_with_crlf_and_a_game_on_the_line_of_the_error() -> None:
    text = (
        '<database version="1">\r\n<games>\r\n'
        '<game id="1"><info>é&</info></game><game id="2"><info>éé&</info></game>'
        '<game id="3"><move>h8\r\nh9</move></game>\r\n</games></database>\r\n'
    )
    recs = read_text(text)
    assert [r.metadata.get("game_id") for r in recs] == [None, None, "3"]
    line = text.splitlines()[2]
    for rec, needle in zip(recs[:2], ["é&", "éé&"], strict=False):
        column = line.index(needle) + len(needle)  # expat counts characters, not bytes
        assert f"line 3, column {column}" in rec.problems[0].message
        assert "reading resumed at line 3" in rec.problems[0].message
    assert [(m.token, m.line) for m in recs[2].moves] == [("h8", 3), ("h9", 4)]
    assert recs[2].metadata["database_version"] == "1"


@pytest.mark.parametrize("feed", [1, 5, 64])
def test_resync_does_not_depend_on_the_feed_size(
    monkeypatch: pytest.MonkeyPatch, feed: int
) -> None:
    texts = [
        damage(damage(FIVE, "2"), "4", "x</info>").replace("INFO", "fine"),
        # comments, sections and quoted values skipped (their starts and ends cut in two)
        small(game("1"), "<!-- a -- <game>\n-->", game("3"), '<game id="4"><info>&</info>'),
        small("<![CDATA[<game>]]><?x <game> ?><!-- <game> -->", game("5"), "<!-- x --->"),
        small(game("1"), """<game id="2" a="<game id='x'>"><move>h8</move></game>""", game("3")),
        small(game("1"), '<game id="2" a="x\'y"' + game("3"), game("4")),
        # a game not closed: the </games> it leaves unmatched, cut in two, resumed at
        small(game("1"), '<game id="2"><move>h8</move>\n', game("3")),
        small(game("1"), '<game id="2"><game id="3"></game></game>\n', game("4")),
    ]
    wholes = [read_text(text) for text in texts]
    monkeypatch.setattr(source, "FEED_BYTES", feed)
    assert [read_text(text) for text in texts] == wholes


def test_resync_keeps_the_move_budget_counted_at_the_files_byte() -> None:
    """The budget is checked at each game's end with the byte index in the file (a resumed
    parser's own index starts at its synthetic start tags)."""
    seen: list[int] = []

    class Spy(ReadOptions):
        def move_budget(self, nbytes: int) -> int:
            seen.append(nbytes)
            return super().move_budget(nbytes)

    text = damage(damage(FIVE, "2"), "4").replace("INFO", "fine")
    recs = read_bytes(text.encode("utf-8"), Spy())
    assert len(recs) == 5
    data = text.encode("utf-8")
    ends = [data.index(b"</game>", data.index(f'<game id="{g}"'.encode())) for g in "135"]
    assert seen == ends


def test_resyncs_are_bounded() -> None:
    text = "<database><games>\n" + "<game><info>&</info></game>\n" * 10 + "</games></database>"
    recs = read_text(text, ReadOptions(max_resyncs=3, bytes_per_resync=0))  # (--limit resyncs=3)
    assert len(recs) == 4 and all(r.unreadable for r in recs)
    assert [r.source.line for r in recs] == [2, 3, 4, 5]
    assert all("reading resumed at line" in r.problems[0].message for r in recs[:3])
    last = recs[3].problems[0].message
    assert "more than 3 XML syntax errors: the rest of the file is not read" in last


def test_resyncs_are_bounded_by_the_files_size() -> None:
    # a database of good games, every other one damaged (past a fixed 1,000 errors the rest
    # of the file was not read, a third of a megabyte's good games lost):
    # 4096 + one per 256 bytes; a database whose games all take 256 bytes or more is read
    # whole however damaged
    good = "<game><move>h8 h9 i10</move></game>\n"
    bad = "<game><info>Smith & Jones</info><move>h8 h9</move></game>\n"
    data = ("<database><games>\n" + (good + bad) * 3000 + "</games></database>").encode()
    options = ReadOptions().for_file(len(data))
    assert options.max_resyncs == 4096 + len(data) // 256
    recs = read_bytes(data, options)
    assert len(recs) == 6000 and [r.unreadable for r in recs] == [False, True] * 3000
    # past the bound by size, the record that ends the file says how the bound is counted
    text = "<database><games>\n" + "<game>&</game>\n" * 5000 + "</games></database>"
    tiny = ReadOptions().for_file(1000)
    recs = read_text(text, tiny)
    assert len(recs) == tiny.max_resyncs + 1 == 4100
    assert (
        recs[-1]
        .problems[0]
        .message.endswith(
            "more than 4099 XML syntax errors (at most 4096 + one per 256 bytes of the file; "
            "--limit resyncs=N sets the bound): the rest of the file is not read"
        )
    )


def test_resync_needs_a_short_enclosing_prefix() -> None:
    """The start tags a resumed parser is given are bounded: each resync parses them again."""
    game = "<game><info>&</info></game><game/>"
    deep = "<database>" + "<a>" * target.MAX_PREFIX_DEPTH + game
    (rec,) = read_text(deep)
    assert rec.unreadable and "more than 64 elements" in rec.problems[0].message
    long = f"<database><{'a' * target.MAX_PREFIX_BYTES}>{game}"
    (rec,) = read_text(long)
    assert rec.unreadable and "longer than 16384 characters" in rec.problems[0].message
    depth = target.MAX_PREFIX_DEPTH - 1
    fine = "<database>" + "<a>" * depth + game + "</a>" * depth + "</database>"
    assert [r.unreadable for r in read_text(fine)] == [True, False]


def test_a_megabyte_of_damaged_games_is_bounded_by_its_resyncs() -> None:
    data = b"<game><info>&</info></game>" * (1_000_000 // 27)
    options = ReadOptions().for_file(len(data))
    recs = read_bytes(data, options)  # (timed by fuzz/hostile.py: renjunet-damaged-every-game)
    assert len(recs) == options.max_resyncs + 1 and all(r.unreadable for r in recs)
    assert "the rest of the file is not read" in recs[-1].problems[0].message


def test_failed_parsers_are_freed_without_the_cycle_collector() -> None:
    """Each resync leaves a parser whose buffers hold the enclosing start tags; the CLI collects
    cycles rarely (``gc.set_threshold(50_000, ...)``): a thousand of them made 100 MB."""
    name = b"a" * 16_000
    data = (
        b"<database><" + name + b">" + b"<game><info>&</info></game>" * 1_200
        + b"</" + name + b"></database>"
    )  # fmt: skip
    gc.disable()
    tracemalloc.start()
    try:
        recs = read_bytes(data, ReadOptions(max_resyncs=1000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        gc.enable()
    assert len(recs) == 1000 + 1
    assert peak < 10_000_000


def damage_games(
    lines: list[str], game_lines: list[int], damages: list[tuple[str, str]]
) -> tuple[str, set[int]]:
    """Every seventh game from the fourth damaged in turn by ``damages`` (the first ``old`` of
    its line made ``new``): the text, and the (1-based) lines of the games damaged."""
    damaged = set()
    for n, i in enumerate(game_lines[3::7]):
        old, new = damages[n % len(damages)]
        assert old in lines[i]
        lines[i] = lines[i].replace(old, new, 1)
        damaged.add(i + 1)
    return "\n".join(lines), damaged


def test_one_record_per_game_whatever_the_damage() -> None:
    """The accounting: every game of a generated database is one record, in order, at its line,
    whatever its damage (and each unreadable one says where reading resumed)."""
    text = generate_bytes(games=300, seed=5).decode("utf-8")
    lines = text.split("\n")
    game_lines = [i for i, ln in enumerate(lines) if ln.startswith("<game ")]
    assert len(game_lines) == 300
    damages = [
        ("<move>", "<move>&"),
        (' round="', ' round="<'),
        ("</move>", "</mov>"),
        ('<game id="', '<game x:y="1" id="'),
        ("</game>", "</game"),
        (">", ">&#xFFFE;"),
        # a <game in a quoted value, a comment, a CDATA section, an instruction is not a game
        (' round="', ' note="<game id=\'x\'>" round="'),
        ("<move>", "<move><!-- -- <game id='x'> -->"),
        ("</game>", "&</game><!-- <game id='x'> -->"),
        ("</game>", "&</game><![CDATA[<game id='x'>]]>"),
        ("</game>", "&</game><?pi <game id='x'>?>"),
    ]
    text, damaged = damage_games(lines, game_lines, damages)
    clean = read_text(generate_bytes(games=300, seed=5).decode("utf-8"))
    recs = read_text(text)
    assert len(recs) == 300 and [r.source.index for r in recs] == list(range(300))
    for rec, clean_rec, i in zip(recs, clean, game_lines, strict=True):
        line = i + 1
        if line in damaged and rec.unreadable:
            assert rec.source.line in (line, line + 1)  # "</game" errs at the next game
            assert "XML syntax error" in rec.problems[0].message
            assert "reading resumed at line" in rec.problems[0].message
        else:
            assert rec == clean_rec and rec.source.line == line
    # "</game" followed by "<game" damages the game itself, and the next one is read
    assert sum(r.unreadable for r in recs) == len(damaged)
    # under max_records, the damaged games count: at most one record more, the bound's
    for bound in (3, 4, 10):  # games 3 and 10 (from 0) are damaged, game 4 is not
        cut = read_text(text, ReadOptions(max_records=bound))
        assert cut[:bound] == recs[:bound] and len(cut) == bound + 1
        assert cut[bound].problems[0].message == f"more than {bound} records; the rest is not read"


def test_one_record_per_game_whatever_section_never_closed_or_value() -> None:
    """The accounting with sections that nothing closes (none is, anywhere in the file: a later
    end closes them, as it should) and ``<game`` in quoted values, after damage or not."""
    text = generate_bytes(games=300, seed=7).decode("utf-8")
    lines = text.split("\n")
    game_lines = [i for i, ln in enumerate(lines) if ln.startswith("<game ")]
    damages = [
        ("<move>", "<move>& <![CDATA["),
        ("<move>", "<move>& <!-- x"),
        ("<move>", "<move>& <?x y"),
        ("<move>", "<move><![CDATA[ x"),  # intact: expat reads the section to the end
        ("<move>", "<move><!-- x"),
        ("<move>", "<move><?x y"),
        (' round="', """ a="&" note='<game id="x">' round=\""""),
        (' round="', """ a='&' note="<game id='x'>" round=\""""),
        ("</game>", """&</game><x note='<game id="x">'/>"""),
        ("<move>", "<move><!-- a -- b "),  # an error in a comment never closed
    ]
    text, damaged = damage_games(lines, game_lines, damages)
    clean = read_text(generate_bytes(games=300, seed=7).decode("utf-8"))
    recs = read_text(text)
    assert len(recs) == 300 and [r.source.index for r in recs] == list(range(300))
    for rec, clean_rec, i in zip(recs, clean, game_lines, strict=True):
        line = i + 1
        if line in damaged:
            assert rec.unreadable and rec.source.line in (line, line + 1)
            message = rec.problems[0].message
            assert f"line {line}" in message and "reading resumed at line" in message
            assert "id=x" not in message
        else:
            assert rec == clean_rec and rec.source.line == line


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
    monkeypatch.setattr(recoder, "CHUNK_BYTES", 3)
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
    monkeypatch.setattr(source, "FEED_BYTES", feed)
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
        [sys.executable, str(RENJUNET_GENERATOR), "--games", "400", "--seed", "3", "-o", str(out)],
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
        games = gen.generate(f, games=None, seed=11, size_bytes=750_000)
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
    assert count == games > 2000
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
def test_streaming_memory_of_a_big_database(tmp_path: Path) -> None:
    """A 3 MB database is read in about the memory of a tiny one (peak RSS, no tracing):
    its records held would take four times the 20 MiB allowed (80 MiB more)."""
    small, big = tmp_path / "small.rif", tmp_path / "big.rif"
    with small.open("wb") as f:
        gen.generate(f, games=50, seed=5)
    with big.open("wb") as f:
        games = gen.generate(f, games=None, seed=5, size_bytes=3_000_000)
    assert big.stat().st_size > 2_900_000
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


@pytest.mark.parametrize(
    "damaged",
    [
        '<game id="2" black="1" note="abc',  # a line cut inside a quoted value
        '<game id="2" note="see <i>x</i><move>h8 h9</move></game>',  # a "<" in an open value
    ],
)
def test_a_value_left_open_by_a_damaged_line_does_not_swallow_the_next_game(damaged: str) -> None:
    # the resync took the open quote for a value running on to the next quote: the one of
    # id="3" on the next line, so game 3 was lost without a record of its own
    text = (
        '<?xml version="1.0"?>\n<database><games>\n'
        '<game id="1"><move>h8 h9 i8</move></game>\n'
        f"{damaged}\n"
        '<game id="3"><move>h8 h9 i8</move></game>\n'
        '<game id="4"><move>h8 h9 i8</move></game>\n'
        "</games></database>\n"
    )
    recs = read_bytes(text.encode())
    assert [(r.metadata.get("game_id"), r.unreadable, r.source.line) for r in recs] == [
        ("1", False, 3), (None, True, 4 if "<i>" in damaged else 5), ("3", False, 5),
        ("4", False, 6),
    ]  # fmt: skip


@pytest.mark.parametrize("tail", ["", "<junk/>"])
def test_damage_after_the_last_game_at_the_record_bound_is_said_as_it_is(tail: str) -> None:
    # two games, then the file is cut (or junk follows): under max_records=2 the damage was
    # reported as "more than 2 records", though no third game exists
    text = (
        "<database><games>\n<game id='1'><move>h8</move></game>\n"
        "<game id='2'><move>h8</move></game>\n" + tail
    )
    recs = read_bytes(text.encode(), ReadOptions(max_records=2))
    assert len(recs) == 3 and recs[-1].unreadable
    message = recs[-1].problems[0].message
    assert message.startswith("XML syntax error") and "more than 2 records" not in message
    assert "2 records were read, the limit: the rest is not read" in message


# -- games not closed, nested, too deep; repeated <move>; long swap and alt ------------------


def test_a_game_not_closed_is_one_record_and_the_later_games_are_read() -> None:
    """Game 2 of 10 without its ``</game>`` gave 2 records: the later games, inside it for expat,
    were ignored, and the ``</games>`` it left unmatched said that no later game was found."""
    games = [game(str(n)) for n in range(1, 11)]
    clean = read_text(small(*games))
    games[1] = games[1].replace("</game>", "")
    text = small(*games)
    recs = read_text(text)
    assert game_ids(recs) == ["1", None, *map(str, range(3, 11))]
    assert [r.source.index for r in recs] == list(range(10))
    bad = recs[1]
    assert bad.unreadable and bad.source.line == 3
    assert bad.problems[0].message == (
        "game id=2 opened at line 3 is not closed before the next <game> at line 4, column 0"
    )
    assert recs[:1] + recs[2:] == clean[:1] + clean[2:]  # lines and moves as if it were closed
    # a thousand later games, and a namespaced database: every one read, nothing at the end
    many = small(game("1"), '<game id="2"><move>h8</move>\n', *(game(str(n)) for n in range(1000)))
    assert [r.unreadable for r in read_text(many)] == [False, True] + [False] * 1000
    ns = (
        '<r:database xmlns:r="urn:r"><r:games>\n<r:game id="1"><r:move>h8</r:move>\n'
        '<r:game id="2"><r:move>h9</r:move></r:game>\n</r:games></r:database>\n'
    )
    assert [(r.unreadable, r.source.line) for r in read_text(ns)] == [(True, 2), (False, 3)]


@pytest.mark.parametrize(
    "nested",
    [
        '<game id="2"><move>h8 h9</move><game id="99"><move>a1 a2</move></game></game>\n',
        '<game id="2"><move>h8 <game id="99"><move>a1 a2</move></game> h9</move></game>\n',
    ],
    ids=["after-move", "in-move"],
)
def test_a_game_in_a_game_is_a_game_of_its_own(nested: str) -> None:
    """The moves of a game inside game 2 were added to game 2's, silently."""
    recs = read_text(small(game("1"), nested, game("3")))
    assert game_ids(recs) == ["1", None, "99", "3"]
    assert [r.unreadable for r in recs] == [False, True, False, False]
    assert "game id=2 opened at line 3 is not closed before the next <game> at line 3" in (
        recs[1].problems[0].message
    )
    assert [m.token for m in recs[2].moves] == ["a1", "a2"] and not recs[2].problems
    assert recs[3].source == SourceLocation("db.rif", 3, 4)


def test_a_second_move_element_is_a_problem() -> None:
    recs = read_text(small(game("1"), '<game id="2"><move>h8 h9</move><move>a1</move></game>\n'))
    assert [m.token for m in recs[1].moves] == ["h8", "h9", "a1"]
    (problem,) = recs[1].problems
    assert not problem.fatal and problem.line == 3
    assert problem.message == (
        "game id=2: 2 <move> elements (a game has one), the second at line 3, column 31: "
        "their moves are read as one list, in order"
    )
    assert not recs[0].problems


@pytest.mark.parametrize("closed", [True, False])
def test_a_game_nested_too_deep_is_one_record_and_the_later_games_are_read(closed: bool) -> None:
    """3 games, one with elements nested past max_depth in its <info>, 3 games: there were 4
    records, the last saying only that the deep game was dropped."""
    deep = "<b>" * 30 + ("</b>" * 30 if closed else "")
    text = small(
        game("1"), game("2"), game("3"), f'<game id="d"><info>{deep}</info></game>\n',
        game("4"), game("5"), game("6"),
    )  # fmt: skip
    recs = read_text(text, ReadOptions(max_depth=16))
    assert game_ids(recs) == ["1", "2", "3", None, "4", "5", "6"]
    assert recs[4].source == SourceLocation("db.rif", 4, 6)
    column = len('<game id="d"><info>') + 3 * 12  # the 13th <b> is the 17th element
    assert recs[3].problems[0].message == (
        f"elements nested deeper than 16: line 5, column {column} (the game id=d that starts at "
        "line 5 is incomplete and dropped); reading resumed at line 6"
    )


def test_games_not_closed_past_max_depth() -> None:
    """Each game not closed holds the next for expat: past max_depth, the next game is read by a
    fresh parser, and every game is a record (the last one's record is the file's end)."""
    text = small(*(f'<game id="{n}">\n' for n in range(40)))
    recs = read_text(text, ReadOptions(max_depth=16))
    assert [r.source.index for r in recs] == list(range(40)) and all(r.unreadable for r in recs)
    assert [r.source.line for r in recs[:39]] == list(range(2, 41))
    assert all("is not closed before the next <game>" in r.problems[0].message for r in recs[:39])
    assert "game id=39 that starts at line 41" in recs[39].problems[0].message


def test_swap_flags_and_alt_offers_are_bounded() -> None:
    """A 1 MB swap attribute made a million opening events (1.5-5 s, 230-460 MB)."""
    flags = "s-" * 2100
    offers = " ".join(["h8"] * 700)
    text = small(f'<game id="1" swap="{flags}" alt="{offers}"><move>h8</move></game>\n')
    (rec,) = read_text(text)
    swaps = [e for e in rec.opening_events if e.kind in ("swap", "no-swap")]
    assert len(swaps) == renjunet.MAX_SWAP_FLAGS == 4096
    assert swaps[-1].value == "4096" and rec.metadata["swap"] == flags
    (offered,) = [e for e in rec.opening_events if e.kind == "offers"]
    assert len(offered.points) == renjunet.MAX_OFFERS == 676
    assert [(p.message, p.line) for p in rec.problems] == [
        ("game id=1: swap holds 4200 flags, more than 4096; read the first 4096", 2),
        (
            "game id=1: alt holds more than 676 fifth-move offers, more than a board has "
            "points; read the first 676",
            2,
        ),
    ]


def test_a_gt_in_a_value_of_the_damaged_start_tag_ends_nothing() -> None:
    # the game resumed at has a "<" in a value (damage) after a ">" in it: the ">" was taken
    # for the end of the tag, and the "<game" later in the value for a game (game 7, with game
    # 2's moves: a record invented).
    head = '<?xml version="1.0"?>\n<database><games>\n'
    text = (
        head
        + '<game id="1"><move>h8 & </move></game>\n'
        + '<game id="2" note="x>y <game id=\'7\'>" bresult="1"><move>h8 h9</move></game>\n'
        + '<game id="3"><move>h8 h9 i9</move></game>\n</games></database>\n'
    )
    recs = read_text(text)
    assert [r.source.line for r in recs] == [3, 4, 5]
    assert [r.unreadable for r in recs] == [True, True, False]
    assert [m.point for m in recs[2].moves] == pts("h8", "h9", "i9")


def test_a_long_token_is_fed_in_growing_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    # expat scans an unfinished token anew on every feed: a 4 MB attribute value fed 8 KiB at
    # a time took 1.6 s (16 MB, half a minute).  While the parser stays in one token, each feed
    # is twice the last (up to MAX_FEED_BYTES): a few dozen feeds, not 256, for 2 MiB.
    value = "x" * (2 << 20)
    text = (
        f"<database><games><game id='1' note='{value}'><move>h8 h9</move></game></games></database>"
    )
    feeds = 0
    real = source.Source.next

    def counted(self: source.Source) -> bytes | None:
        nonlocal feeds
        piece = real(self)
        feeds += piece is not None
        return piece

    monkeypatch.setattr(source.Source, "next", counted)
    [rec] = read_text(text)
    assert [m.point for m in rec.moves] == pts("h8", "h9")  # (the note is cut at max_string)
    assert feeds < 2 * (len(text) // source.MAX_FEED_BYTES) + 20


@pytest.mark.parametrize("size", ["27", "0", "4", "abc", "1" * 23])
def test_a_rule_size_no_board_has_is_a_problem(size: str) -> None:
    # the size was passed over without a word and the game judged on 15x15, where its moves
    # came out as off-board; JSON Lines and PlayOK said it, as docs/security.md
    # says all three do
    (rec,) = read_text(
        "<database><rules><rule id='1' name='freestyle' size='" + size + "'/></rules>"
        "<games><game id='7' rule='1'><move>h8 h9 i10</move></game></games></database>"
    )
    assert rec.width == rec.height == 15 and rec.rule == "freestyle" and len(rec.moves) == 3
    (problem,) = rec.problems
    assert problem.message.startswith(f"game id=7: rule id '1' states size '{size[:12]}")
    assert problem.message.endswith("not a whole number from 5 to 26; the ruleset's size is used")
    # a size stated under another key still counts: the first that a board has
    (ok,) = read_text(
        "<database><rules><rule id='1' name='freestyle' size='" + size + "' board='19'/>"
        "</rules><games><game rule='1'><move>h8</move></game></games></database>"
    )
    assert ok.width == 19 and not ok.problems


@pytest.mark.parametrize("name", ["Taraguchi 0", "Soosorv 99", "Taraguchi-77"])
def test_a_rule_with_a_count_no_shipped_ruleset_has_is_said(name: str) -> None:
    # ruleset_name gives taraguchi-0, soosyrv-99...: no shipped ruleset, so the game was
    # judged under renju without a word
    (rec,) = read_text(
        f"<database><rules><rule id='1' name='{name}'/></rules>"
        "<games><game rule='1'><move>h8 h9 i10</move></game></games></database>"
    )
    assert rec.rule is None
    assert rec.notes == [f"rule {name!r} (id 1) matches no shipped ruleset; rule left unset"]


@pytest.mark.parametrize(
    "markup",
    ['<game id="' + "x" * 300_000, "<!--" + "x" * 300_000, "<?pi " + "x" * 300_000],
    ids=["attribute", "comment", "instruction"],
)
def test_a_tag_or_comment_past_the_markup_bound_ends_the_file(
    monkeypatch: pytest.MonkeyPatch, markup: str
) -> None:
    # expat holds an unfinished tag whole: an attribute value that never ended, piped in, grew
    # to 214 MB in 5 s (fuzz/endless.py renjunet-attribute); text is read as it comes
    monkeypatch.setattr(parse, "MAX_MARKUP_BYTES", 100_000)
    head = "<database><games><game><move>h8 h9</move></game>\n"
    recs = read_text(head + markup)
    assert [len(r.moves) for r in recs] == [2, 0]
    assert recs[1].unreadable
    assert "longer than 100000 bytes, from line 2, column 0" in recs[1].problems[0].message
    info = "<game><info>" + "x" * 300_000 + "</info><move>h8</move></game>"
    text = head + info + "</games></database>"
    assert [len(r.moves) for r in read_text(text)] == [2, 1]  # (text is no markup)
    cdata = head.replace("<game>", "<game><info><![CDATA[" + "x" * 300_000 + "]]></info>")
    assert [len(r.moves) for r in read_text(cdata + "</games></database>")] == [2]
