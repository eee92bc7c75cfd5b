"""Standard notation: points, move lists in every separator style, diagrams."""

from __future__ import annotations

import errno
import io
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.board import BLACK, WHITE, Board, parse_diagram
from renju_cli.coords import Point, center, parse_point, point_name
from renju_cli.formats import ReadOptions, detect, notation
from renju_cli.formats.notation import parse_moves, parse_record, read, write_record
from renju_cli.record import DeclaredResult, Move, Record, SourceLocation


def names(text: str) -> list[str]:
    return [point_name(m.point) for m in parse_moves(text)[0]]


def test_points_upper_and_lower_case_and_the_i_column() -> None:
    assert parse_point("h8") == Point(7, 7) == center(15)
    assert parse_point("H8") == Point(7, 7)
    assert parse_point("i10") == Point(8, 9)  # i is a column, unlike in Go
    assert parse_point("a1") == Point(0, 0)
    assert parse_point("z26").name == "z26"
    with pytest.raises(ValueError):
        parse_point("h0")


def test_point_names_looked_up_are_the_names_worked_out() -> None:
    # names of the 26x26 points come from a table; every other point is worked out as before
    columns = "abcdefghijklmnopqrstuvwxyz"
    for x in range(26):
        for y in range(26):
            assert Point(x, y).name == f"{columns[x]}{y + 1}" == parse_point(Point(x, y).name).name
    assert Point(0, 26).name == "a27" and Point(-1, -1).name == "z0"


@pytest.mark.parametrize(
    "text",
    [
        "h8 h9 i10",
        "H8 H9 I10",
        "h8,h9,i10",
        "h8+h9+i10",
        "h8\th9\ni10",
        "h8h9i10",
        "1. h8 2. h9 3. i10",
        "1.h8 2.h9 3.i10",
    ],
)
def test_move_list_separators(text: str) -> None:
    assert names(text) == ["h8", "h9", "i10"]


def test_greedy_two_digit_rows_and_passes() -> None:
    assert names("a15a1b12") == ["a15", "a1", "b12"]
    assert names("h8 pass i9 --") == ["h8", "pass", "i9", "pass"]


def test_leading_and_trailing_result_words() -> None:
    for text, winner in (
        ("black h8", "black"),
        ("White: h8", "white"),
        ("draw h8", "draw"),
        ("1-0 h8", "black"),
        ("0-1 h8", "white"),
        ("1/2-1/2 h8", "draw"),
        ("h8 h9 1-0", "black"),
    ):
        rec = parse_record(text)
        assert rec.declared_result is not None and rec.declared_result.winner == winner, text
        assert next(m.point for m in rec.moves) == Point(7, 7)


def test_the_first_of_many_result_words_is_the_declared_result() -> None:
    # a leading word wins, then the first one among the moves; the others add nothing
    for text, winner in (
        ("h8 0-1 1-0 1/2-1/2", "white"),
        ("1-0 h8 0-1", "black"),
        ("h8 swap 1/2-1/2 h9 0-1", "draw"),
        ("h8 * 0-1 1-0", "white"),
    ):
        rec = parse_record(text)
        assert rec.declared_result is not None and rec.declared_result.winner == winner, text
        assert all(e.kind != "result" for e in rec.opening_events), text
    assert [e.kind for e in parse_record("h8 swap 1-0 h9 0-1").opening_events] == ["swap"]


def test_a_line_of_many_result_words_is_read_in_linear_time() -> None:
    # each result word was an event, taken out of the list one by one: a megabyte of "1-0"
    # after 4,096 declared counts took minutes; 200,000 of them would take about one at the
    # square of their number
    rec = parse_record("h8 " + "N=2 " * 4096 + "1-0 " * 200_000)
    assert rec.declared_result is not None and rec.declared_result.winner == "black"
    assert len(rec.moves) == 1 and len(rec.opening_events) == 4096


@pytest.mark.parametrize(
    ("text", "declared"),
    [
        ("1-0 h8 h9", DeclaredResult("black", None, "1-0")),
        ("B+R h8 h9", DeclaredResult("black", "resign", "B+R")),
        ("black wins: h8 h9", DeclaredResult("black", None, "black wins")),
        ("победа белых по времени h8 h9", DeclaredResult("white", "time", "победа белых по времени")),  # noqa: E501
        ("黑胜 h8 h9", DeclaredResult("black", None, "黑胜")),
        ("흑 불계승 h8 h9", DeclaredResult("black", "resign", "흑 불계승")),
        ("h8 h9 白超时胜", DeclaredResult("white", "time", "白超时胜")),
        ("h8 h9 black wins", DeclaredResult("black", None, "black wins")),
        ("h8 h9 draw", DeclaredResult("draw", None, "draw")),
        ("h8 h9 W+T", DeclaredResult("white", "time", "W+T")),
        ("h8 h9 引き分け", DeclaredResult("draw", None, "引き分け")),
    ],
)  # fmt: skip
def test_result_phrases_at_the_start_or_end_of_a_line(text: str, declared: DeclaredResult) -> None:
    rec = parse_record(text)
    assert rec.declared_result == declared
    assert [m.token for m in rec.moves] == ["h8", "h9"]
    assert rec.problems == [] and rec.opening_events == []


@pytest.mark.parametrize(
    "text", ["unknown h8 h9 i8", "Unknown: h8 h9 i8", "? h8 h9 i8", "* h8 h9 i8"]
)
def test_a_line_that_declares_no_result_is_judged(text: str) -> None:
    # a scraped archive starts its lines with "unknown": each was a parse-error, no move judged
    rec = parse_record(text)
    assert rec.declared_result is None and rec.problems == []
    assert [m.token for m in rec.moves] == ["h8", "h9", "i8"]


def test_a_trailing_colour_is_a_choice_not_a_result() -> None:
    rec = parse_record("h8 h9 i9 white")
    assert rec.declared_result is None
    assert [(e.kind, e.value) for e in rec.opening_events] == [("choose", "white")]


def test_a_word_that_is_no_result_is_still_a_parse_error() -> None:
    for text in ("blue h8 h9", "h8 h9 blue"):
        rec = parse_record(text)
        assert rec.declared_result is None
        (problem,) = rec.problems
        assert "'blue'" in problem.message and problem.severity == ""


def test_a_file_of_lines_that_begin_with_unknown() -> None:
    data = b"unknown h8 h9 i8\nunknown h8 i9\n1-0 h8 h9 i8 j8 g8 k8 f8\n"
    assert notation.sniff(data) == 1
    recs = list(read(io.BytesIO(data), "f.txt", ReadOptions()))
    assert [len(r.moves) for r in recs] == [3, 2, 7]
    assert [r.problems for r in recs] == [[], [], []]
    assert [r.declared_result for r in recs] == [None, None, DeclaredResult("black", None, "1-0")]


def test_opening_extension_tokens() -> None:
    rec = parse_record("h8 h9 i9 swap i10 {j10 k7} j10 white g8")
    kinds = [(e.kind, e.after) for e in rec.opening_events]
    assert kinds == [("swap", 3), ("offers", 4), ("choose", 5)]
    assert [p.name for p in rec.opening_events[1].points] == ["j10", "k7"]
    assert write_record(rec) == "h8 h9 i9 swap i10 {j10 k7} j10 white g8"


def test_bad_token_is_a_problem_with_line_and_column() -> None:
    rec = parse_record("h8 h9 ?? i10", line=7)
    assert [m.point for m in rec.moves] == [Point(7, 7), Point(7, 8)]
    assert rec.problems[0].line == 7
    assert "column 7" in rec.problems[0].message and "'??'" in rec.problems[0].message


def test_file_one_record_per_line_with_continuations_and_comments() -> None:
    data = b"# a comment\nblack h8 h9\n\n1. h8 2. i9\n3. j10 4. k11\nh8 # trailing comment\n"
    recs = list(read(io.BytesIO(data), "f.txt", ReadOptions()))
    assert [len(r.moves) for r in recs] == [2, 4, 1]
    assert [r.source.line for r in recs] == [2, 4, 6]
    assert [r.source.index for r in recs] == [0, 1, 2]


def test_points_only_line_gives_the_record_the_tokenizer_gives() -> None:
    fast = parse_record("h8 H9 i10", "f.txt", 4, 9)
    assert fast == Record(
        moves=[
            Move(Point(7, 7), line=9, token="h8"),
            Move(Point(7, 8), line=9, token="H9"),
            Move(Point(8, 9), line=9, token="i10"),
        ],
        source=SourceLocation("f.txt", 4, 9),
        format="notation",
    )
    # a trailing "*" (no result) sends the same line through the tokenizer
    assert parse_record("h8 H9 i10 *", "f.txt", 4, 9) == fast
    # a plain, hashable SourceLocation that survives pickling (records go to worker processes)
    source = fast.source
    assert type(source) is SourceLocation and hash(source) == hash(SourceLocation("f.txt", 4, 9))
    assert pickle.loads(pickle.dumps(fast)) == fast


#: Tokens of move-list bodies: those the blank-separated reader of lines with opening events
#: takes (points, words, groups of offers split at blanks), drawn six times as often as those
#: it leaves to the tokenizer (numbers, results, joined tokens, comments, commas).
_SIMPLE_TOKENS = [
    *("h8", "H8", "j10", "a1", "o15", "k7", "z9"),
    *("pass", "--", "swap", "SWAP", "noswap", "reject", "black", "White", "draw"),
    *("{", "}", "{j10", "g10}", "{j10}", "{}"),
    *("N=2", "n=10", "N=999"),
]
_OTHER_TOKENS = [
    *("h100", "{{j10}", "j10}}", "{k7,", "j10,g10", "#x", "1.", "1-0", "*", "n=3"),
    *("i10-j9", "A:h8", "h8h9", ",", ";", "+", "x", "---"),
    *("N=1000", "N=", "N=x", "N=2h8", "M=2"),
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_SIMPLE_TOKENS * 6 + _OTHER_TOKENS), max_size=14),
    st.sampled_from([" ", "  ", "\t", " , ", "\u3000", ""]),
    st.sampled_from([None, 0, 1, 2, 3, 5, 100]),
)
def test_lines_with_events_read_blank_by_blank_as_by_the_tokenizer(
    tokens: list[str], blank: str, limit: int | None
) -> None:
    # ``_simple_events`` reads a body whose tokens are points, words and offers without the
    # tokenizer; it gives the tokenizer's moves and events, or leaves the body to it (with its
    # problem), the bounds on moves and events included
    body = blank.join(tokens)
    bound = notation._NO_LIMIT if limit is None else limit
    assert notation._parse_body(body, 7, bound) == notation._tokenize(body, 7, bound)


def test_points_written_without_blanks_read_as_the_tokenizer_reads_them() -> None:
    # h8i9j10 (a web page's game): read point by point without the tokenizer, with its
    # bound on moves (one more than the limit tells that the record is too long)
    moves = notation._plain_moves("h8i9j10 k11l12", 1)
    assert moves is not None
    assert [m.token for m in moves] == ["h8", "i9", "j10", "k11", "l12"]
    assert moves == notation._tokenize("h8i9j10 k11l12", 1)[0]
    cut = notation._plain_moves("h8i9j10 k11l12", 1, 2)
    assert cut is not None and [m.token for m in cut] == ["h8", "i9", "j10"]
    assert notation._plain_moves("h8i9j100", 1) is None  # (the tokenizer says what is wrong)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(["h8", "H8", "j10", "a1", "z26", "k07", "h100", "x", "1"]), max_size=8
        ),
        max_size=4,
    ),
    st.sampled_from([None, 0, 1, 2, 3, 5, 100]),
)
def test_points_without_blanks_read_in_one_call_as_match_by_match(
    groups: list[list[str]], limit: int | None
) -> None:
    # a token of points written without blanks is read in one ``findall`` when nothing lies
    # between its points, else match by match: both give the tokenizer's moves, with its bound
    body = " ".join("".join(group) for group in groups)
    bound = notation._NO_LIMIT if limit is None else limit
    at_once = notation._plain_moves(body, 3, bound)
    saved = notation._JOINED_CHARS
    try:
        notation._JOINED_CHARS = 0  # (every token match by match)
        one_by_one = notation._plain_moves(body, 3, bound)
    finally:
        notation._JOINED_CHARS = saved
    assert at_once == one_by_one
    if at_once is not None:
        assert at_once == notation._tokenize(body, 3, bound)[0]


def test_lines_with_events_read_blank_by_blank() -> None:
    # the shape of a swap line (25,000 of them made a hostile file): read without the tokenizer
    simple = notation._simple_events("h8 h9 i10 swap i7 {j10 g10} j10 k7", 1, 100)
    assert simple is not None
    moves, events, problem = simple
    assert problem is None
    assert [m.token for m in moves] == ["h8", "h9", "i10", "i7", "j10", "k7"]
    assert [(e.kind, e.after, e.points) for e in events] == [
        ("swap", 3, []),
        ("offers", 4, [Point(9, 9), Point(6, 9)]),
    ]
    # a bound reached, a number, a group never closed: the tokenizer's
    assert notation._simple_events("h8 h9 swap swap", 1, 1) is None
    assert notation._simple_events("1. h8 h9 swap", 1, 100) is None
    assert notation._simple_events("h8 {j10 g10", 1, 100) is None


@pytest.mark.parametrize("block", [1, 2, 7, 1 << 16])
def test_lines_are_the_same_whatever_the_block_size(
    monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    # a BOM on any line, CRLF, a bad byte (U+FFFD on its own line only), a continuation and a
    # comment, no line end at the end; lines numbered from first_line
    data = (
        b"\xef\xbb\xbfh8 h9\r\nblack i10 \xff j11\n\n1. h8 2. h9\n3. i10 # c\n"
        b"a1\n\xef\xbb\xbfb2\nc3"
    )
    monkeypatch.setattr(notation, "_BLOCK_BYTES", block)
    recs = list(read(io.BytesIO(data), "f.txt", ReadOptions(first_line=10)))
    assert [r.source.line for r in recs] == [10, 11, 13, 15, 16, 17]
    assert [[m.token for m in r.moves] for r in recs] == [
        ["h8", "h9"],
        ["i10"],
        ["h8", "h9", "i10"],
        ["a1"],
        ["b2"],
        ["c3"],
    ]
    assert [len(r.problems) for r in recs] == [0, 1, 0, 0, 0, 0]
    assert "'\ufffd'" in recs[1].problems[0].message and "line 11" in recs[1].problems[0].message


def test_lines_are_cut_to_max_string_bytes_before_decoding() -> None:
    data = "h8 h9 i10\nh8 é\n".encode()
    recs = list(read(io.BytesIO(data), "f.txt", ReadOptions(max_string=4)))
    assert [[m.token for m in r.moves] for r in recs] == [["h8"], ["h8"]]
    assert "'\ufffd'" in recs[1].problems[0].message  # half of "é" is a bad byte


class _FailingRaw(io.RawIOBase):
    """A stream that fails (EIO) after ``good`` bytes, handed out five at a time."""

    def __init__(self, data: bytes, good: int) -> None:
        self.data, self.pos, self.good = data, 0, good

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.pos >= self.good:
            raise OSError(errno.EIO, "Input/output error")
        n = min(len(buffer), 5, self.good - self.pos)
        buffer[:n] = self.data[self.pos : self.pos + n]
        self.pos += n
        return n


def test_records_read_before_a_disk_error_are_kept() -> None:
    # three whole lines come before the failure: the records of the first two are complete (the
    # third might go on on the next line), then the error reaches the caller
    stream = io.BufferedReader(_FailingRaw(b"h8\n" * 10, good=10))
    recs = []
    with pytest.raises(OSError, match="Input/output error"):
        for rec in read(stream, "f.txt", ReadOptions()):
            recs.append(rec)
    assert [r.source.line for r in recs] == [1, 2]


def _reference_lines(data: bytes, options: ReadOptions) -> list[tuple[int, str]]:
    """What ``_line_blocks`` must give: every line of ``data``, cut to ``max_string`` bytes."""
    raws = data.split(b"\n")
    if raws[-1] == b"":
        raws.pop()  # after the last line end
    decode = notation._decode_line
    return [
        (n, decode(raw, options.encoding, options)[0])
        for n, raw in enumerate(raws, options.first_line)
    ]


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=12),
            st.sampled_from([b"h8 h9", b"\xef\xbb\xbfh8", b"\xff\xfe", b"a\rb", b"x" * 40]),
        ),
        max_size=30,
    ),
    end=st.booleans(),
    max_string=st.integers(1, 20),
    block=st.integers(1, 24),
    first_line=st.integers(1, 5),
)
def test_line_blocks_are_the_lines_cut_to_max_string(
    lines: list[bytes], end: bool, max_string: int, block: int, first_line: int
) -> None:
    # blocks of a few bytes: lines, line ends, UTF-8 characters and overlong lines are cut
    # anywhere between two reads
    data = b"\n".join(line.replace(b"\n", b"") for line in lines) + (b"\n" if end else b"")
    options = ReadOptions(max_string=max_string, first_line=first_line)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(notation, "_BLOCK_BYTES", block)
        got = [
            (n, line)
            for first, got_lines in notation._line_blocks(io.BytesIO(data), options, set(), {})
            for n, line in enumerate(got_lines, first)
        ]
    assert got == _reference_lines(data, options)


def test_a_record_continued_on_many_lines_is_read_in_linear_time() -> None:
    # the lines are joined once (adding each to a growing string took minutes at a megabyte)
    data = b"1. h8\n" + b"2. a1\n" * 100_000
    (rec,) = read(io.BytesIO(data), "f.txt", ReadOptions())
    assert rec.source.line == 1 and len(rec.moves) == 4096
    assert "limit" in rec.problems[0].message


def test_move_bound() -> None:
    rec = parse_record(" ".join(["h8"] * 50), options=ReadOptions(max_moves=10))
    assert len(rec.moves) == 10
    assert "limit" in rec.problems[0].message


def test_detection_of_move_lists_and_diagrams() -> None:
    assert detect(b"h8 h9 i10\n", "x.txt") == "notation"
    assert detect(b". . . . .\n. . X . .\n. . O . .\n. . . . .\n. . . . .\n", "p") == "diagram"


def test_diagram_round_trip_with_labels() -> None:
    board = Board(15)
    board.place(board.index_of(7, 7), BLACK)
    board.place(board.index_of(0, 0), WHITE)
    text = board.diagram()
    assert text.splitlines()[-1].split() == list("abcdefghijklmno")
    again = parse_diagram(text)
    assert again.cells == board.cells
    assert parse_diagram("●○.\n...\n...".replace("\n", "..\n") + "..\n.....\n.....").stones == 2
    with pytest.raises(ValueError, match="row 2"):
        parse_diagram(".....\n....\n.....\n.....\n.....")


def test_the_field_order_the_readers_build_positionally() -> None:
    # readers of big files call these constructors positionally (a third faster than with
    # keywords): reordering a field would silently shift values, so the order is pinned here
    from helpers import field_names as names

    from renju_cli.record import DeclaredResult, ParseProblem

    assert names(Record) == [
        "moves", "source", "width", "height", "declared_result", "rule", "opening_id",
        "metadata", "setup", "opening_events", "notes", "problems", "format",
        "protocol_not_followed", "to_move", "branch",
    ]  # fmt: skip
    assert names(Move) == ["point", "color", "line", "offset", "token", "comment"]
    assert names(SourceLocation) == ["path", "index", "line", "offset", "variation"]
    assert names(ParseProblem) == ["message", "line", "offset", "fatal", "severity"]
    assert names(DeclaredResult) == ["winner", "reason", "text"]


def test_an_endless_record_is_cut_at_max_string() -> None:
    # "1. h8" continued by "2. h9" lines without end: read up to max_string characters
    data = b"1. h8\n" + b"2. a1\n" * 2000 + b"h8 h9\n"
    recs = list(read(io.BytesIO(data), "f.txt", ReadOptions(max_string=100)))
    assert [r.source.line for r in recs] == [1, 2002]
    cut = recs[0].problems[-1]
    assert "past 100 characters" in cut.message and cut.line is not None and 20 < cut.line < 40
    assert not recs[1].problems


def test_carriage_returns_inside_a_line_are_a_finding() -> None:
    """A file whose old Mac line ends (CR alone) begin past its first 4 KiB is read with LF
    line ends (the head decides): its CR lines ran together into one record without a word."""
    from renju_cli.formats import notation

    data = b"h8 h9\n" * 800 + b"i8 i9\rj8 j9\rk8 k9\r"
    records = list(notation.read(io.BytesIO(data), "mixed.txt", ReadOptions()))
    assert len(records) == 801
    assert all(not r.problems for r in records[:800])
    [problem] = records[800].problems
    assert problem.line == 801 and "carriage returns (CR)" in problem.message


@pytest.mark.parametrize("limit", [1 << 20, 100])
def test_a_line_longer_than_max_string_is_cut_with_a_finding(limit: int) -> None:
    # "h8 h9", spaces past the bound, then "i10 j11": the two last moves were dropped without a
    # word (the cut is where the bound falls: here inside the spaces)
    data = b"h8 h9" + b" " * (limit + 10) + b"i10 j11\nh8 h9\n"
    opts = ReadOptions(max_string=limit)
    first, second = read(io.BufferedReader(io.BytesIO(data)), "long.txt", opts)
    assert [m.point for m in first.moves] == [parse_point("h8"), parse_point("h9")]
    assert [p.message for p in first.problems] == [
        f"line 1 is longer than {limit} bytes; the rest of it is not read"
    ]
    assert second.source.line == 2 and not second.problems


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ('{"moves": "h8 h9"}', "'\"moves\":'"),  # a JSON Lines record in a move list
        ("{garbage here}", "'garbage'"),
        ("h8 h9 i10 i7 {j1O g1O} j10 k7", "'j1O'"),  # O for 0: read as j1 and g1 before
    ],
)
def test_what_is_no_point_in_an_offers_group_is_a_parse_error(line: str, found: str) -> None:
    record = parse_record(line)
    assert len(record.problems) == 1 and f"found {found}" in record.problems[0].message
    assert not [e for e in record.opening_events if e.kind == "offers"]


def test_an_offers_group_may_separate_its_points_with_commas() -> None:
    record = parse_record("h8 h9 i10 i7 {j10, g10} j10")
    assert not record.problems
    (offers,) = [e for e in record.opening_events if e.kind == "offers"]
    assert offers.points == [parse_point("j10"), parse_point("g10")]


def test_parsed_points_are_remembered_by_their_exact_names_only() -> None:
    from renju_cli import coords

    assert coords.parse_point("H8") == coords.parse_point("h8") == Point(7, 7)
    assert coords.parse_point("h8") is coords.parse_point("h8")  # made once
    assert coords.parse_point(" o15\n") == Point(14, 14)
    # names with spaces around are not kept: the table holds at most 52 x 99 names
    assert " o15\n" not in coords._PARSED
    with pytest.raises(ValueError, match="not a point"):
        coords.parse_point("h0")
    with pytest.raises(ValueError, match="not a point"):
        coords.parse_point("h8h")


@pytest.mark.parametrize("token", ["İ8", "ı8", "ſ8", "\u212a8", "h8ı", "ſwap", "whİte"])
def test_letters_that_fold_to_ascii_are_no_points(token: str) -> None:
    # with Unicode case folding [a-z] matched the dotted capital I, the dotless i, the long s
    # and the Kelvin sign: their "column" was no column (a crash, the rest of the file lost)
    record = parse_record(f"h8 {token} h9", "u.txt")
    assert [m.token for m in record.moves][:1] == ["h8"]
    assert all(m.point is None or m.point.x < 26 for m in record.moves)
    assert record.problems and "expected a point" in record.problems[0].message
    offered = parse_record(f"h8 h9 i10 {{{token} j10}} j10", "u.txt")
    assert offered.problems and token in offered.problems[0].message
    # ASCII case still reads as it did
    assert parse_record("H8 SWAP h9 Black i10").opening_events[0].kind == "swap"


@pytest.mark.parametrize(
    ("data", "fmt"),
    [
        # a first line with a word that is no move, then good lines: three records, one
        # parse-error at line 1 (it was one unreadable record "matches no known record
        # format" when piped in, three records when named .txt)
        (b"h8 h9 foo i10\nh8 h9 i8 g8 j8 k8 i9 i10 j10 k11\nh8 h9 i8\n", "notation"),
        (b"# games\nh8 h9 i8 zz\n\nh8 h9\n", "notation"),  # three moves, then damage
        (b"h8 h9 foo\n", None),  # one line, two moves: nothing tells
        (b"hello world\nh8 h9\n", None),  # one line of two that reads: not enough
        (b"x\ny\nz\n" + b"h8 h9\n" * 6, None),  # three bad lines in nine
        (b"h8 h9\n" * 19 + b"bad\n", "notation"),  # (only the first ten are read)
        # (the first line decides; a small input's last line is whole)
        (b"h8 h9 i10\nh8 h9 zz\n", "notation"),
        (b"# game 1\nh8 h9 i10 i7", "notation"),
        (b"\nh8 h9 i10 i7", "notation"),
    ],
)
def test_a_damaged_line_among_move_lists_is_its_record_s_problem(
    data: bytes, fmt: str | None
) -> None:
    assert detect(data, "-") == fmt
    if fmt is not None:
        read = list(notation.read(io.BytesIO(data), "-", ReadOptions()))
        assert all(r.format == "notation" for r in read)
        assert len(read) == sum(1 for line in data.splitlines() if line.split(b"#")[0].strip())


def test_the_sniffer_ends_lines_at_lf_and_cr_not_at_a_form_feed_or_nel() -> None:
    # ``str.splitlines`` also ended lines at a form feed or NEL: a damaged line with one in it
    # was a good line and a damaged one to the sniffer, which took the head for a move list;
    # the reader sees one damaged line
    assert notation.sniff(b"h8 i9\nh8 i9\n") == 1
    assert notation.sniff(b"garbage\x0ch8 i9\nh8 i9\n") == 0
    assert notation.sniff("h8 i9\x85garbage\nzz\nh8 i9\n".encode()) == 0


@pytest.mark.parametrize("name", ["games.txt", "-", "games"])
def test_a_move_list_in_gbk_is_a_move_list_and_its_words_are_read(name: str) -> None:
    # Chinese move lists are often GBK: short ones were taken for .pos positions (their bytes
    # are small numbers), and without --encoding their result words were parse errors
    for text in ("h8 h9 i10 白胜", "1. h8 h9 2. i10 白胜", "h8 h9 i10 # 黑棋开局"):
        data = (text + "\n").encode("gbk")
        assert detect(data, name) == "notation", (text, name)
        [record] = read(io.BytesIO(data), name, ReadOptions())
        assert [m.token for m in record.moves] == ["h8", "h9", "i10"]
        if "白胜" in text:
            assert record.declared_result == DeclaredResult("white", None, "白胜")
        [said] = record.problems
        assert said.severity == "warning" and said.line == 1
        assert said.message.startswith("text at line 1 is not UTF-8: read as GB18030")
        # declared, it is read without a word
        [declared] = read(io.BytesIO(data), name, ReadOptions(encoding="gbk"))
        assert declared.problems == [] and declared.moves == record.moves
    # a position stays a position, and Latin-1 text is no GB18030 (nor a word)
    assert detect(bytes([3, 112, 113, 97]), "p.pos") == "pos"
    [latin] = read(io.BytesIO("h8 h9 # café\n".encode("latin-1")), name, ReadOptions())
    assert latin.problems == [] and len(latin.moves) == 2
