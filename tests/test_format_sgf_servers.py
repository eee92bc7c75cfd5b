"""SGF as servers and programs write it: empty offers, swap words, charsets (declared, wrong or
none), names with a ``]`` not escaped, and messages that quote the record's own text."""

from __future__ import annotations

import io
from typing import Any

import pytest

from renju_cli.formats import ReadOptions, sgf
from renju_cli.record import ParseProblem, Record


def read(data: bytes, **options: Any) -> list[Record]:
    return list(sgf.read(io.BytesIO(data), "server.sgf", ReadOptions(**options)))


def one(data: bytes, **options: Any) -> Record:
    (record,) = read(data, **options)
    return record


def said(record: Record) -> list[tuple[str, str]]:
    """The record's problems: (severity, message); "" is an error's."""
    return [(p.severity, p.message) for p in record.problems]


def warnings(record: Record) -> list[ParseProblem]:
    return [p for p in record.problems if p.severity == "warning"]


# --- 5A[] -------------------------------------------------------------------------------------


@pytest.mark.parametrize("offers", ["5A[]", "5A[ ]", "FA[]", "5A[][]"])
def test_empty_offers_mean_none_recorded(offers: str) -> None:
    # every tournament file of a Chinese server writes 5A[] when no offer was recorded: each got
    # a parse-error ("bad coordinate []"); now no offers, and nothing said
    rec = one(f"(;GM[4]SZ[15]RU[RIF]{offers};B[hh];W[hi];B[ii];W[jj];B[gg])".encode())
    assert rec.problems == [] and rec.opening_events == []
    assert len(rec.moves) == 5 and not rec.unreadable


def test_an_empty_offer_beside_real_ones_is_skipped() -> None:
    rec = one(b"(;GM[4]SZ[15]5A[][ii][gg];B[hh])")
    (event,) = rec.opening_events
    assert [p.name for p in event.points] == ["i7", "g9"] and rec.problems == []


def test_a_bad_offer_is_still_said() -> None:
    rec = one(b"(;GM[4]SZ[15]5A[x];B[hh])")
    assert said(rec) == [("", "bad coordinate [x] in offers 5A")]


# --- SW ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [("True", "swap"), ("TRUE", "swap"), ("true", "swap"), ("YES", "swap"), ("yes", "swap"),
     ("Y", "swap"), ("1", "swap"), ("False", "no-swap"), ("false", "no-swap"), ("NO", "no-swap"),
     ("no", "no-swap"), ("N", "no-swap"), ("0", "no-swap")],
)  # fmt: skip
def test_swap_words_as_servers_write_them(value: str, kind: str) -> None:
    # on the node of move 3: a swap (or not) after the three stones
    rec = one(f"(;GM[4]SZ[15];B[hh];W[hi];B[ii]SW[{value}];W[jj])".encode())
    assert [(e.kind, e.after) for e in rec.opening_events] == [(kind, 3)]
    assert rec.notes == [] and rec.problems == []


def test_a_swap_word_on_the_root_says_no_stone() -> None:
    rec = one(b"(;GM[4]SZ[15]SW[1];B[hh])")
    assert [(e.kind, e.after) for e in rec.opening_events] == [("swap", -1)]


def test_a_number_past_one_is_still_the_stone_the_swap_came_after() -> None:
    rec = one(b"(;GM[4]SZ[15]SW[3];B[hh];W[hi];B[ii])")
    assert [(e.kind, e.after) for e in rec.opening_events] == [("swap", 3)]


def test_a_swap_after_move_one_is_written_where_it_reads_back() -> None:
    from renju_cli.record import OpeningEvent

    rec = one(b"(;GM[4]SZ[15];B[hh];W[hi];B[ii])")
    rec.opening_events = [OpeningEvent("swap", 1)]
    back = one(sgf.to_sgf(rec).encode())
    assert [(e.kind, e.after) for e in back.opening_events] == [("swap", 1)]


# --- charsets ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ca", "codec", "name"),
    [("UTF-8", "utf-8", "选手 Zoë"), ("utf8", "utf-8", "选手"), ("GB2312", "gb2312", "选手"),
     ("GBK", "gbk", "選手 选手"), ("gb18030", "gb18030", "选手 €"), ("CP936", "gbk", "选手"),
     ("Big5", "big5", "許功蓋"), ("BIG-5", "big5", "許功蓋"), ("Shift_JIS", "shift_jis", "山田 表"),
     ("SJIS", "shift_jis", "山田"), ("x-sjis", "shift_jis", "ソ"), ("Windows-31J", "cp932", "①"),
     ("EUC-KR", "euc_kr", "김철수"), ("KS_C_5601-1987", "euc_kr", "김철수"),
     ("cp1251", "cp1251", "Пётр"), ("windows-1251", "cp1251", "Пётр"),
     ("WIN1251", "cp1251", "Пётр"), ("latin-1", "latin-1", "Jürgen"),
     ("ISO-8859-1", "latin-1", "Jürgen")],
)  # fmt: skip
def test_charsets_servers_declare(ca: str, codec: str, name: str) -> None:
    # (许, 表, ソ: characters whose second byte is "\\" or "]" in Big5 and Shift-JIS)
    data = f"(;GM[4]CA[{ca}]SZ[15]PB[{name}]C[{name}];B[hh]C[{name}])".encode(codec)
    rec = one(data)
    assert rec.metadata["black"] == name and rec.metadata["comment"] == name
    assert rec.moves[0].comment == name
    assert rec.problems == [] and rec.notes == []


def test_gbk_under_ca_utf8_is_read_with_a_warning_naming_gb18030() -> None:
    data = "(;GM[4]CA[UTF-8]SZ[15]PB[选手]PW[Ann]\n;B[hh]C[天元])".encode("gbk")
    rec = one(data)
    assert rec.metadata == {"black": "选手", "white": "Ann"}
    assert rec.moves[0].comment == "天元" and len(rec.moves) == 1
    (warning,) = warnings(rec)
    assert warning.message == "text at line 1 does not fit its charset CA[UTF-8]: read as GB18030"
    assert warning.line == 1 and not warning.fatal and not rec.unreadable


def test_latin1_under_ca_utf8_is_read_as_cp1252_with_a_warning() -> None:
    rec = one("(;GM[4]CA[UTF-8]PB[Jürgen “J”];B[hh])".encode("cp1252"))
    assert rec.metadata["black"] == "Jürgen “J”"
    assert [w.message for w in warnings(rec)] == [
        "text at line 1 does not fit its charset CA[UTF-8]: read as cp1252"
    ]


def test_without_a_charset_utf8_then_gb18030_with_a_warning() -> None:
    rec = one("(;GM[4]PB[王芳];B[hh])".encode("gbk"))
    assert rec.metadata["black"] == "王芳"
    assert [w.message for w in warnings(rec)] == [
        "text at line 1 is not UTF-8 and no charset is declared (CA): read as GB18030"
    ]
    assert one("(;GM[4]PB[王芳];B[hh])".encode()).problems == []


@pytest.mark.parametrize("name", ["Jürgen", "Señor Pérez", "Café", "Ørsted Æble"])
def test_without_a_charset_latin1_is_sgf_s_own_default_and_says_nothing(name: str) -> None:
    # (a letter past ASCII between ASCII letters is no GB18030 character of Chinese text)
    rec = one(f"(;GM[4]PB[{name}];B[hh])".encode("latin-1"))
    assert rec.metadata["black"] == name and rec.problems == []


def test_the_encoding_option_is_declared_too() -> None:
    rec = one("(;GM[4]PB[Пётр];B[hh])".encode("cp1251"), encoding="cp1251")
    assert rec.metadata["black"] == "Пётр" and rec.problems == []
    rec = one("(;GM[4]PB[Øre];B[hh])".encode(), encoding="cp1251")  # (0x98: no cp1251)
    assert rec.metadata["black"] == "Øre"
    assert [w.message for w in warnings(rec)] == [
        "text at line 1 does not fit its charset --encoding cp1251: read as UTF-8"
    ]


def test_one_warning_a_line_whatever_its_text() -> None:
    # a tree of GBK text under CA[UTF-8]: one warning in each line, at its first such text
    data = "(;GM[4]CA[UTF-8]PB[选手];B[hh](;W[ii]C[第一])\n(;W[jj]C[第二]C[第三]))".encode("gbk")
    first, second = read(data)
    assert [w.line for w in warnings(first)] == [1] and [w.line for w in warnings(second)] == [1]
    assert (first.moves[-1].comment, second.moves[-1].comment) == ("第一", "第三")
    clean = "(;GM[4]CA[UTF-8];B[hh](;W[ii])\n(;W[jj]C[第二]))".encode("gbk")
    first, second = read(clean)
    assert warnings(first) == []
    (warning,) = warnings(second)
    assert warning.line == 2


def test_bytes_no_charset_reads_are_never_a_lost_game() -> None:
    rec = one(b"(;GM[4]CA[UTF-8]PB[\x81\xff\x80];B[hh];W[ii])")
    assert len(rec.moves) == 2 and not rec.unreadable
    assert rec.metadata["black"] == "\x81ÿ\x80"  # (Latin-1: any byte)
    assert [w.message for w in warnings(rec)] == [
        "text at line 1 does not fit its charset CA[UTF-8]: read as Latin-1"
    ]


def test_a_game_of_text_only_with_a_warning_is_not_unreadable() -> None:
    rec = one("(;GM[4]CA[UTF-8]C[只有评论])".encode("gbk"))
    assert rec.metadata["comment"] == "只有评论" and not rec.unreadable


# --- a "]" not escaped ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [("Tom [3d]", "Tom [3d]"), ("[3d] Tom", "[3d] Tom"), ("Tom [3d] [KGS]", "Tom [3d] [KGS]")],
)
def test_a_name_with_a_bracket_not_escaped_is_read_whole_with_a_warning(
    value: str, text: str
) -> None:
    rec = one(f"(;GM[4]SZ[15]PB[{value}]PW[Ann]RE[B+R];B[hh];W[ii])".encode())
    assert rec.metadata["black"] == text and rec.metadata["white"] == "Ann"
    assert rec.declared_result is not None and rec.declared_result.winner == "black"
    assert len(rec.moves) == 2
    assert said(rec) == [("warning", "PB[...] holds a ']' not escaped: read as part of its text")]


def test_a_comment_with_a_bracket_not_escaped() -> None:
    rec = one(b"(;GM[4];B[hh]C[see [a] here];W[ii])")
    assert rec.moves[0].comment == "see [a] here" and len(rec.moves) == 2


def test_a_bracket_is_read_as_written_where_the_file_reads_so() -> None:
    # C[x] Y[z]: a comment and a property, as written; no warning
    rec = one(b"(;GM[4]C[x] PB[z];B[hh])")
    assert rec.metadata == {"black": "z", "comment": "x"} and rec.problems == []
    # what follows the "]" reads as SGF only up to a node: not taken into the text
    rec = one(b"(;GM[4]PB[Tom]]x;B[hh])")
    assert rec.metadata["black"] == "Tom"
    assert [m for _, m in said(rec)] == ["unexpected text ']' in a node", "property x has no value"]


def test_an_escaped_bracket_is_no_warning() -> None:
    rec = one(b"(;GM[4]PB[Tom \\[3d\\]];B[hh])")
    assert rec.metadata["black"] == "Tom [3d]" and rec.problems == []


# --- messages quote the record's own text -----------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("(;GM[4]CA[UTF-8];B[hh]选手;W[ii])".encode(), "unexpected text '选手' in a node"),
        ("(;GM[4];B[hh]选手;W[ii])".encode("gbk"), "unexpected text '选手' in a node"),
        ("(;GM[4]CA[cp1251];B[hh]Пётр;W[ii])".encode("cp1251"), "unexpected text 'Пётр' in a node"),
        ("(;GM[4]CA[UTF-8];B[hh];W[选])".encode(), "bad coordinate [选] in W[选]; the moves from "
                                                   "here on are not kept"),
        ("(;GM[4]CA[UTF-8];B[hh];W[é])".encode(), "bad coordinate [é] (letters a-z expected) in "
                                                  "W[é]; the moves from here on are not kept"),
    ],
)  # fmt: skip
def test_messages_quote_the_text_as_the_record_was_read(data: bytes, message: str) -> None:
    # a UTF-8 snippet was printed as Latin-1: 'é\x80\x89æ\x89\x8b' for 选手
    rec = read(data)[0]
    assert message in [p.message for p in rec.problems]


def test_a_long_snippet_is_cut_on_a_character() -> None:
    junk = "选手" * 30
    (rec,) = read(f"(;GM[4]CA[UTF-8];B[hh]{junk};W[ii])".encode())
    (problem,) = rec.problems
    assert problem.message == f"unexpected text {junk[:20]!r} in a node"
