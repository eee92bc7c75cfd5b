"""Tests of the PlayOK export reader: the real sample, then small synthetic games."""

from __future__ import annotations

import io
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, playok
from renju_cli.record import DeclaredResult, Move, Record

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "playok"
SAMPLE = CORPUS / "playok_evacoregen6_2021.pgn"


def read_text(text: str | bytes, **options: Any) -> list[Record]:
    """All records of an in-memory PlayOK export."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(playok.read(io.BytesIO(data), "mem.pgn", ReadOptions(**options)))


def game(movetext: str, result: str = "1-0", gametype: str = "61,15", **tags: str) -> str:
    """One synthetic game: a PlayOK tag block and its movetext."""
    head = {"Event": "?", "Site": "PlayOK", "Black": "ann", "White": "bob", "Result": result}
    head.update(tags)
    if gametype:
        head["GameType"] = gametype
    lines = [f'[{k} "{v}"]' for k, v in head.items()]
    return "\n".join(lines) + f"\n\n{movetext}\n\n"


def tokens(record: Record) -> list[str]:
    return [m.token or "" for m in record.moves]


def choices(record: Record) -> list[tuple[int, str | None]]:
    return [(e.after, e.value) for e in record.opening_events if e.kind == "choose"]


def exact_fives(moves: list[Move]) -> set[str]:
    """Colours having a row of exactly five on the final board (stones alternate from black).

    A tiny stand-in for the project's judge: exact five because PlayOK swap2 does not count
    overlines (two sample games go on after a six).
    """
    board = {
        m.point: ("black" if i % 2 == 0 else "white")
        for i, m in enumerate(moves)
        if m.point is not None  # the reader never yields passes; keep mypy happy
    }
    found: set[str] = set()
    for (x, y), colour in board.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if board.get(Point(x - dx, y - dy)) == colour:
                continue  # not the start of the run
            n = 0
            while board.get(Point(x + n * dx, y + n * dy)) == colour:
                n += 1
            if n == 5:
                found.add(colour)
    return found


# -- the real sample -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> list[Record]:
    if not SAMPLE.is_file():
        pytest.skip(f"PlayOK sample not found at {SAMPLE} (shared corpus absent)")
    with SAMPLE.open("rb") as f:
        return list(playok.read(f, str(SAMPLE), ReadOptions()))


def test_sample_count_results_and_rule(sample: list[Record]) -> None:
    assert len(sample) == 266
    texts = Counter(r.declared_result.text if r.declared_result else None for r in sample)
    assert texts == {"1-0": 130, "0-1": 135, "1/2-1/2": 1}
    assert {(r.rule, r.width, r.height, r.format) for r in sample} == {("swap2", 15, 15, "playok")}
    assert [r.source.index for r in sample] == list(range(266))
    assert not any(r.problems for r in sample)
    assert not any(m.is_pass for r in sample for m in r.moves)
    # the only records with notes: one undecided colour, three mid-game "--"
    assert [i for i, r in enumerate(sample) if r.notes] == [75, 85, 179, 217]


def test_sample_first_game_pinned(sample: list[Record]) -> None:
    # copied by eye from the file: "1. h13 i13 2. j13 white 3. -- h12 4. g10 i12" on line 14
    first = sample[0]
    assert first.source.line == 1
    assert tokens(first)[:6] == ["h13", "i13", "j13", "h12", "g10", "i12"]
    # standard notation counts rows from the bottom: h13 is column 7, row 12 (0-based)
    assert [m.point for m in first.moves[:3]] == [Point(7, 12), Point(8, 12), Point(9, 12)]
    assert all(m.line == 14 for m in first.moves[:6])
    assert first.metadata["black"] == "evacoregen6" and first.metadata["white"] == "tchupla"
    assert first.metadata["gametype"] == "61,15" and first.metadata["blackelo"] == "2451"
    assert choices(first) == [(3, "white")]
    assert first.opening_events[0].line == 14
    # P2 (tchupla) stayed white, so the [Black] seat is black, and 1-0 is black's win
    assert first.declared_result is not None
    assert first.declared_result.winner == "black"
    assert first.metadata["winner_player"] == "evacoregen6"
    # 39 tokens after the move numbers, less "white" and "--"
    assert len(first.moves) == 37 and tokens(first)[-1] == "c11"
    # 12 tags, a blank line, 3 lines of movetext, a blank line: the next [Event] is on line 18
    assert sample[1].source.line == 18


def test_sample_choice_tokens_pinned(sample: list[Record]) -> None:
    # game 1: "1. h8 i9 2. j8 black 3. i7 i8" -> swap2 (a), P2 takes black
    assert tokens(sample[1])[:5] == ["h8", "i9", "j8", "i7", "i8"]
    assert choices(sample[1]) == [(3, "black")]
    # game 75: "1. f3 i6 2. h4 1-0" -> ended before the choice
    assert tokens(sample[75]) == ["f3", "i6", "h4"] and choices(sample[75]) == []
    # game 85: "1. h8 g7 2. k10 g6 3. h6 -- 4. white -- 5. h7 i7" -> swap2 (c), P1 takes white
    assert tokens(sample[85])[:7] == ["h8", "g7", "k10", "g6", "h6", "h7", "i7"]
    assert choices(sample[85]) == [(5, "white")]
    # game 179: "1. a9 f15 2. a10 g1 3. d9 -- 4. black e8" -> swap2 (c), P1 takes black
    assert tokens(sample[179])[:6] == ["a9", "f15", "a10", "g1", "d9", "e8"]
    assert choices(sample[179]) == [(5, "black")]


def test_sample_branches(sample: list[Record]) -> None:
    shapes = Counter(tuple(choices(r)) for r in sample)
    assert shapes == {
        ((3, "black"),): 124,  # (a)
        ((3, "white"),): 107,  # (b)
        ((5, "white"),): 21,  # (c), P1 white
        ((5, "black"),): 13,  # (c), P1 black
        (): 1,
    }


def test_sample_board_agrees_with_declared_winner(sample: list[Record]) -> None:
    """Where the board shows a five, its colour is the colour of the declared winner."""
    agree = disagree = header_seat_agrees = 0
    for record in sample:
        fives = exact_fives(record.moves)
        if len(fives) != 1:
            continue
        colour = fives.pop()
        assert record.declared_result is not None
        if record.declared_result.winner == colour:
            agree += 1
        else:
            disagree += 1
        # the rejected reading: [Black]/[White] are the colours
        seat = {"1-0": "black", "0-1": "white"}.get(record.declared_result.text or "")
        header_seat_agrees += seat == colour
    assert (agree, disagree) == (245, 0)
    assert header_seat_agrees == 108


def test_sample_overlines_do_not_end_games(sample: list[Record]) -> None:
    # 2021.09.21 19:41:59: white's f2-f7 (six) at stone 30, the game went on to stone 39
    g134 = sample[134]
    assert g134.metadata["time"] == "19:41:59" and len(g134.moves) == 39
    points = [m.point for m in g134.moves]
    white_f = sorted(p.y for i, p in enumerate(points) if i % 2 and p is not None and p.x == 5)
    assert white_f == [1, 2, 3, 4, 5, 6]
    assert exact_fives(g134.moves) == set()
    assert g134.declared_result is not None and g134.declared_result.winner == "black"


def test_sample_midgame_empty_slots(sample: list[Record]) -> None:
    # "12. j6 g3 13. -- l6" (line 1402): skipping "--" leaves black's g8-g12 five as stone 33
    g85 = sample[85]
    assert len(g85.moves) == 33 and tokens(g85)[20:22] == ["g3", "l6"]
    assert exact_fives(g85.moves) == {"black"}
    assert g85.declared_result is not None and g85.declared_result.winner == "black"
    assert g85.notes == [
        "line 1402: empty slot '--' after 21 stones, outside the opening; "
        "read as nothing (not a pass: stone colours keep alternating)"
    ]
    assert "after 35 stones" in sample[179].notes[0]
    # the drawn game ends "46. -- 1/2-1/2"
    g217 = sample[217]
    assert len(g217.moves) == 88 and "after 88 stones" in g217.notes[0]
    assert g217.declared_result is not None and g217.declared_result.winner == "draw"


def test_sample_undetermined_colour(sample: list[Record]) -> None:
    g75 = sample[75]
    assert g75.declared_result is not None
    assert g75.declared_result.winner is None and g75.declared_result.text == "1-0"
    assert g75.metadata["winner_player"] == "evacoregen6"
    assert "before any colour choice" in g75.notes[0]


def test_sample_sniff() -> None:
    if not SAMPLE.is_file():
        pytest.skip(f"PlayOK sample not found at {SAMPLE}")
    assert playok.sniff(SAMPLE.read_bytes()[:4096]) == 2


# -- swap2 branches ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("movetext", "result", "events", "winner", "final_black"),
    [
        # (a) P2 (bob) takes black; P1 (ann) white plays stone 4
        ("1. h8 h9 2. i9 black 3. j10 g7 4. k11", "1-0", [(3, "black")], "white", "bob"),
        ("1. h8 h9 2. i9 black 3. j10 g7 4. k11", "0-1", [(3, "black")], "black", "bob"),
        # (b) P2 stays white and plays 4 at once: "--" is P1's empty slot
        ("1. h8 h9 2. i9 white 3. -- j10 4. g7", "1-0", [(3, "white")], "black", "ann"),
        ("1. h8 h9 2. i9 white 3. -- j10 4. g7", "0-1", [(3, "white")], "white", "ann"),
        # (c) P2 places 4 and 5, then P1 chooses
        ("1. h8 h9 2. i9 j10 3. g7 -- 4. white -- 5. k11", "1-0", [(5, "white")], "white", "bob"),
        ("1. h8 h9 2. i9 j10 3. g7 -- 4. white -- 5. k11", "0-1", [(5, "white")], "black", "bob"),
        ("1. h8 h9 2. i9 j10 3. g7 -- 4. black k11 5. f6", "1-0", [(5, "black")], "black", "ann"),
        ("1. h8 h9 2. i9 j10 3. g7 -- 4. black k11 5. f6", "0-1", [(5, "black")], "white", "ann"),
    ],
)
def test_swap2_branches(
    movetext: str, result: str, events: list[tuple[int, str]], winner: str, final_black: str
) -> None:
    (record,) = read_text(game(f"{movetext} {result}", result))
    assert choices(record) == events
    assert "--" not in tokens(record) and not any(m.is_pass for m in record.moves)
    assert record.notes == [] and record.problems == []
    assert record.declared_result is not None
    assert record.declared_result.winner == winner
    assert record.declared_result.text == result and record.declared_result.reason is None
    assert record.metadata["winner_player"] == ("ann" if result == "1-0" else "bob")
    assert record.metadata["final_black"] == final_black
    assert record.rule == "swap2"


def test_swap2_colours_undetermined() -> None:
    records = read_text(
        game("1. h8 h9 2. i9 0-1", "0-1")  # resigned before choosing
        + game("1. h8 h9 2. i9 j10 3. g7 -- 1-0")  # (c) chosen, P1 left before choosing
        + game("1. h8 h9 2. i9 black 3. j10 white 1-0")  # two choices
        + game("1. h8 h9 2. i9 j10 black 3. g7 1-0")  # a choice after 4 stones
    )
    assert [r.declared_result.winner if r.declared_result else "-" for r in records] == [None] * 4
    assert records[0].metadata["winner_player"] == "bob"
    assert "before any colour choice" in records[0].notes[0]
    assert "before any colour choice" in records[1].notes[0]
    assert "several colour choices" in records[2].notes[0]
    assert "fits no swap2 branch" in records[3].notes[0]
    assert not any(r.problems for r in records)


def test_final_p1_colour_directly() -> None:
    assert playok.final_p1_colour("freestyle", [], 9)[0] is not None
    assert playok.final_p1_colour(None, [], 9)[0] is None


# -- "--", results, game types ---------------------------------------------------------------


def test_empty_slots_are_never_moves() -> None:
    (record,) = read_text(game("1. h8 h9 2. i9 white 3. -- j10 4. g7 h7 5. -- i8 6. -- *", "*"))
    assert tokens(record) == ["h8", "h9", "i9", "j10", "g7", "h7", "i8"]
    # the opening "--" is expected; the two later ones are reported with their line
    assert len(record.notes) == 2
    assert record.notes[0].startswith("line 8: empty slot '--' after 6 stones")
    assert "after 7 stones" in record.notes[1]


def test_result_star_declares_no_result() -> None:
    (record,) = read_text(game("1. h8 h9 2. i9 white 3. -- j10 *", "*"))
    assert record.declared_result is None
    assert "winner_player" not in record.metadata
    assert record.notes == [] and record.problems == []
    (record,) = read_text(game("1. h8 h9 2. i9 white 3. -- j10 *", "?"))
    assert record.declared_result is None and record.problems == []


def test_result_words_of_the_vocabulary() -> None:
    # a win names the seat, whatever the words; the reason is kept
    (record,) = read_text(game("1. h8 h9 2. i9 i10 3. j10 *", "B+R", gametype="60,15"))
    assert record.declared_result == DeclaredResult("black", "resign", "B+R")
    (record,) = read_text(game("1. h8 h9 2. i9 white 3. -- j10 *", "和棋"))
    assert record.declared_result == DeclaredResult("draw", None, "和棋")


def test_result_words_not_understood_are_an_info_problem_quoting_them() -> None:
    (record,) = read_text(game("1. h8 h9 2. i9 white 3. -- j10 *", "Blue won"))
    assert record.declared_result == DeclaredResult(None, None, "Blue won")
    (problem,) = record.problems
    assert problem.severity == "info" and not problem.fatal
    assert "'Blue won'" in problem.message and problem.message.startswith("line 5: ")
    assert problem.line == 5


def test_draw() -> None:
    (record,) = read_text(game("1. h8 h9 2. i9 1/2-1/2", "1/2-1/2"))
    assert record.declared_result is not None and record.declared_result.winner == "draw"


def test_gomoku_60() -> None:
    records = read_text(
        game("1. h8 h9 2. i9 i10 3. j10 0-1", "0-1", gametype="60,15")
        + game("1. j10 j11 1-0", gametype="60,19")
    )
    assert [(r.rule, r.width, r.height) for r in records] == [
        ("freestyle", 15, 15),
        ("freestyle", 19, 19),
    ]
    # no swap: the header seats are the colours
    assert records[0].declared_result is not None and records[0].declared_result.winner == "white"
    assert records[1].declared_result is not None and records[1].declared_result.winner == "black"
    assert records[1].moves[0].point == parse_point("j10")
    assert records[0].notes == [] and records[1].notes == []


def test_choice_in_gomoku_60_is_undetermined() -> None:
    (record,) = read_text(game("1. h8 h9 2. i9 black 3. j10 1-0", gametype="60,15"))
    assert record.declared_result is not None and record.declared_result.winner is None
    assert "plain gomoku" in record.notes[0]


def test_unknown_and_missing_game_type() -> None:
    records = read_text(
        game("1. h8 h9 2. i9 1-0", gametype="99,15") + game("1. h8 h9 1-0", gametype="")
    )
    assert records[0].rule is None and records[0].metadata["gametype"] == "99,15"
    assert records[0].width == 15
    assert any("unknown PlayOK GameType '99,15'" in n for n in records[0].notes)
    assert records[0].declared_result is not None and records[0].declared_result.winner is None
    assert records[1].rule is None and "gametype" not in records[1].metadata
    assert records[1].width is None and records[1].height is None  # the ruleset decides
    # a long game type is quoted by its start (5,000 characters were quoted whole)
    (long,) = read_text(game("1. h8 h9 1-0", gametype="x" * 5000))
    assert f"unknown PlayOK GameType '{'x' * 40}...': no rule assumed" in long.notes
    assert any("no GameType tag" in n for n in records[1].notes)
    # no board is 99x99: an error of the record (as a JSON Lines "size": 99), not a note
    (odd,) = read_text(game("1. h8 1-0", gametype="61,99"))
    assert odd.rule == "swap2" and odd.width is None and not odd.unreadable
    (problem,) = odd.problems
    assert "board size 99 is not one of 5 to 26" in problem.message
    assert problem.line == 6  # the GameType tag's


def test_result_tag_and_token_disagree() -> None:
    (record,) = read_text(game("1. h8 h9 2. i9 black 3. j10 0-1", "1-0"))
    assert record.declared_result is not None and record.declared_result.text == "1-0"
    assert any("the tag is kept" in n for n in record.notes)


def test_tags_on_one_line_and_other_tags() -> None:
    text = (
        '[Event "?"] [Site "PlayOK"] [Date "2021.07.31"] [Black "k56"] [White "runglathap"]\n'
        '[Result "0-1"] [GameType "61,15"] [Note "say \\"hi\\" \\\\ bye"]\n'
        "1. g8 h8 2. j8 black 3. h9 h10 0-1\n"
    )
    (record,) = read_text(text)
    assert record.metadata["date"] == "2021.07.31"
    assert record.metadata["note"] == 'say "hi" \\ bye'
    assert tokens(record) == ["g8", "h8", "j8", "h9", "h10"]
    # P2 (runglathap) took black and won
    assert record.declared_result is not None and record.declared_result.winner == "black"
    assert record.metadata["final_black"] == "runglathap"


# -- malformed input ---------------------------------------------------------------------------


def test_bad_token_between_good_games() -> None:
    text = (
        game("1. h8 h9 2. i9 black 3. j10 1-0")
        + game("1. h8 h9 2. i9 x0 3. j10 1-0")
        + game("1. g7 g8 2. g9 white 3. -- f6 0-1", "0-1")
    )
    records = read_text(text)
    assert [r.source.index for r in records] == [0, 1, 2]
    assert [r.source.line for r in records] == [1, 10, 19]
    good1, bad, good2 = records
    assert not good1.problems and not good2.problems
    assert tokens(good2) == ["g7", "g8", "g9", "f6"]
    (problem,) = bad.problems
    assert problem.line == 17 and not problem.fatal
    assert "'x0'" in problem.message and "expected a stone" in problem.message
    # the stones before the bad token are kept, the rest of the movetext is not
    assert tokens(bad) == ["h8", "h9", "i9"]
    assert not bad.unreadable


def test_bad_first_token_is_fatal() -> None:
    (record,) = read_text(game("1. hh8 h9 1-0"))
    assert record.unreadable and record.moves == []
    assert "'hh8'" in record.problems[0].message


def test_unterminated_tag_and_tag_without_value() -> None:
    text = game("1. h8 1-0") + '[Event "?"]\n[Black "ann\n[White bob]\n\n1. h8 h9 1-0\n'
    records = read_text(text)
    assert len(records) == 2
    second = records[1]
    assert [p.line for p in second.problems] == [11, 12]
    assert "unterminated or malformed tag" in second.problems[0].message
    assert tokens(second) == ["h8", "h9"] and "black" not in second.metadata


def test_missing_result_token_and_headless_moves() -> None:
    records = read_text(game("1. h8 h9") + game("1. i9 1-0") + "1. h8 h9 *\n")
    assert len(records) == 3
    assert "without a result token" in records[0].problems[0].message
    assert records[0].declared_result is not None  # the [Result] tag still counts
    assert not records[1].problems
    assert "without a tag section" in records[2].problems[0].message
    assert tokens(records[2]) == ["h8", "h9"] and records[2].source.line == 19


def test_comments_are_kept_on_moves() -> None:
    (record,) = read_text(game("1. h8 {centre\nopening} h9 ; rest of line\n2. i9 1-0"))
    assert tokens(record) == ["h8", "h9", "i9"]
    assert record.moves[0].comment == "centre opening"


def test_unclosed_comment_stops_at_the_next_tag_section() -> None:
    records = read_text(game("1. h8 { never closed h9 1-0") + game("1. i9 0-1", "0-1"))
    assert [tokens(r) for r in records] == [["h8"], ["i9"]]
    assert "never closed" in records[0].problems[0].message
    assert records[0].problems[0].line == 8
    (tail,) = read_text(game("1. h8 {\nh9 1-0"))
    assert [p.message for p in tail.problems] == [
        "line 8: comment '{' never closed by '}'",
        "movetext ends without a result token (1-0, 0-1, 1/2-1/2 or *)",
    ]


def test_bounds() -> None:
    (record,) = read_text(game("1. h8 h9 2. i9 j10 3. g7 f6 1-0"), max_moves=4)
    assert len(record.moves) == 4 and "more than 4 stones" in record.problems[0].message
    records = read_text(game("1. h8 1-0") * 5, max_records=2)
    assert len(records) == 3 and records[2].unreadable  # the rest is refused, not dropped
    (long_tag,) = read_text(game("1. h8 1-0", Event="x" * 100), max_string=10)
    assert long_tag.metadata["event"] == "x" * 10


def test_overlong_line_is_skipped() -> None:
    text = game("1. h8 1-0") + "h8 " * 30_000 + "\n" + game("1. h9 1-0")
    records = read_text(text, max_string=100)  # lines are bounded by max(max_string, 64 KiB)
    assert [tokens(r) for r in records] == [["h8"], ["h9"]]
    assert any("longer than" in n for n in records[1].notes)


def test_encodings_crlf_and_bom() -> None:
    text = game("1. h8 h9 1-0", Black="J\u00f6rg").replace("\n", "\r\n")
    cp = b"\xef\xbb\xbf" + text.encode("cp1252")
    (record,) = read_text(cp, encoding="cp1252")
    assert record.metadata["black"] == "J\u00f6rg"
    assert not any("not valid" in n for n in record.notes)
    assert record.source.line == 1 and record.moves[0].line == 8
    # without the right encoding: UTF-8 fails, the byte is replaced and the line noted
    (fallback,) = read_text(cp)
    assert fallback.metadata["black"] == "J\ufffdrg"
    assert any(n.startswith("line 3: bytes not valid UTF-8") for n in fallback.notes)
    # an unknown encoding name falls back too
    (utf,) = read_text(text.encode("utf-8"), encoding="no-such-codec")
    assert utf.metadata["black"] == "J\u00f6rg"


def test_empty_input() -> None:
    assert read_text("") == []
    assert read_text("\n\n  \n") == []


def test_sniff() -> None:
    assert playok.sniff(b'[Event "?"]\n[Site "PlayOK"]\n') == 2
    assert playok.sniff(b'[Event "x"]\n[GameType "60,15"]\n') == 2
    assert playok.sniff(b'\xef\xbb\xbf[Event "Club"]\n[Round "1"]\n\n1. h8 h9 *') == 1
    assert playok.sniff(b"h8 h9 i9\n") == 0
    assert playok.sniff(b"(;GM[4]SZ[15];B[hh])") == 0
    assert playok.sniff(b"") == 0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_never_raises_on_bytes(data: bytes) -> None:
    for record in read_text(data):
        assert isinstance(record, Record)


_SOUP = st.lists(
    st.sampled_from(
        [
            '[Event "?"]',
            '[GameType "61,15"]',
            '[Result "1-0"]',
            "[Bad",
            "1.",
            "h8",
            "o15",
            "z26",
            "black",
            "WHITE",
            "--",
            "1-0",
            "*",
            "{",
            "}",
            ";",
            "\n",
            " ",
            "q0",
            "\u212a9",
        ]
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(_SOUP)
def test_never_raises_on_token_soup(parts: list[str]) -> None:
    for record in read_text(" ".join(parts)):
        assert all(m.point is not None for m in record.moves)


# -- plain movetext lines: split at whitespace, each distinct chunk tokenized once --------------

_CHUNK_PARTS = st.lists(
    st.sampled_from(
        [
            "1.",
            "12...",
            "h8",
            "H13",
            "z26",
            "q0",
            "black",
            "White",
            "blac\u212a",  # Kelvin sign: a choice token (case-insensitive) but never a stone
            "--",
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "}",
            "x",
            " ",
            " ",
            "\t",
            "\u00a0",  # Unicode whitespace: both the regex \s and str.split cut there
            "\x1c",
            "\n",
        ]
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(_CHUNK_PARTS)
def test_plain_lines_read_as_the_character_scanner_reads_them(parts: list[str]) -> None:
    # parts joined without spaces make chunks of several tokens ("1.h8", "h8h9", "1-0x"); a
    # trailing ";" comment sends every line through the character scanner instead (a blank
    # line goes to neither scanner, and after a result it ends the game: it stays blank)
    text = '[Site "PlayOK"]\n' + "".join(parts)
    scanned = "\n".join(line + " ;" if line.strip() else line for line in text.split("\n"))
    assert read_text(text) == read_text(scanned)
    assert read_text(text, max_moves=2, max_records=3) == read_text(
        scanned, max_moves=2, max_records=3
    )


def test_many_tiny_games_share_no_mutable_parts() -> None:
    # (each game starts with its move number 1: a stone right after a result goes on with the
    # game, see test_a_result_inside_the_movetext_is_a_problem_of_its_one_game)
    records = read_text('[Site "PlayOK"]\n' + "1. h8 1-0 " * 5 + "1. h8 0-1\n")
    assert len(records) == 6
    assert [r.source.index for r in records] == list(range(6))
    assert [r.source.line for r in records] == [1] + [2] * 5
    assert [r.problems[0].message for r in records[1:]] == [
        "line 2: movetext without a tag section"
    ] * 5
    assert [tokens(r) for r in records] == [["h8"]] * 6
    assert replace(records[1], source=records[2].source) == records[2]
    # every record its own lists, dicts and moves, though read from the same chunks
    for attr in ("moves", "metadata", "notes", "problems", "opening_events", "setup"):
        assert len({id(getattr(r, attr)) for r in records}) == 6, attr
    assert len({id(r.moves[0]) for r in records}) == 6
    assert records[0].moves[0].point == records[5].moves[0].point == parse_point("h8")


def test_max_records_below_one_still_reads_one() -> None:
    for bound in (0, -1):
        recs = read_text(game("1. h8 1-0") * 3, max_records=bound)
        assert len(recs) == 2 and not recs[0].unreadable and recs[1].unreadable  # and says so


@pytest.mark.parametrize("pad", ["", "x", "  ", "\u00a0h8"])
def test_long_lines_are_split_a_window_at_a_time(pad: str) -> None:
    # ~84 KB, past the window of 64 KB: a chunk straddles its end, at another place per pad
    line = pad + "1. h8 1-0 h9\t0-1 xyz " * 4_000
    assert list(playok._chunks(line)) == line.split()
    text = '[Site "PlayOK"]\n' + line + "\n"
    records = read_text(text)
    # the first game ("1. h8 1-0 h9 0-1": its 1-0 came early), then one per "xyz": no
    # movetext after a result, it starts a game (unreadable) that reads past the rest
    assert len(records) == 4_001
    assert records == read_text(text.replace("\n", " ;\n"))  # the character scanner agrees


def test_comments_of_a_move_are_joined_in_order_and_in_linear_time() -> None:
    # each comment used to be appended to the move's text so far: 100,000 comments on one
    # move copied gigabytes (2 s for 1 MB); they are now joined once
    (rec,) = read_text(game("1. h8 {a} {b} h9 {c}\n{d} 2. i9"))
    assert [m.comment for m in rec.moves] == ["a b", "c d", None]
    many = "1. h8 " + "{xy} " * 100_000
    (rec,) = read_text(game(many, result="*"))
    assert rec.moves[0].comment == " ".join(["xy"] * 100_000)


def test_an_endless_tag_section_is_bounded() -> None:
    # one game whose tag section never ends (a hostile or broken file): MAX_TAGS tags are read,
    # well-formed or not, the rest read past with one note
    lines = ['[Site "PlayOK"]', "[broken"] * playok.MAX_TAGS + ["", "1. h8 h9 1-0"]
    (rec,) = read_text("\n".join(lines) + "\n")
    assert [m.point.name if m.point else None for m in rec.moves] == ["h8", "h9"]
    assert len(rec.problems) + 1 <= playok.MAX_TAGS  # the tags kept and the broken ones
    (note,) = [n for n in rec.notes if "tags; the rest" in n]
    assert note.startswith(f"line {playok.MAX_TAGS + 1}: more than {playok.MAX_TAGS}")


def test_games_past_max_records_are_refused_with_a_record() -> None:
    text = '[Site "PlayOK"]\n\n1. h8 h9 1-0\n\n' * 4
    recs = list(playok.read(io.BytesIO(text.encode()), "p.pgn", ReadOptions(max_records=2)))
    assert len(recs) == 3 and recs[2].unreadable and "more than 2 records" in str(recs[2].problems)


def test_a_game_of_tags_alone_is_said_and_does_not_take_the_next_games_tags() -> None:
    # game A: tags, a blank line, then game B's tags and moves. A's tags were overwritten by
    # B's (notes only) and A vanished; a file cut inside its last tags gave a clean record
    a = '[Site "PlayOK"]\n[Black "ann"]\n[White "bob"]\n[Result "1-0"]\n\n'
    b = '[Site "PlayOK"]\n[Black "cy"]\n[White "di"]\n[Result "0-1"]\n\n1. h8 h9 2. i8 i9 0-1\n'
    first, second = read_text(a + b)
    assert first.metadata["black"] == "ann" and not first.moves
    assert [p.message for p in first.problems] == [
        "the tag section of line 1 is followed by no moves and no result token (the game's "
        "movetext is missing)"
    ]
    assert second.metadata["black"] == "cy" and len(second.moves) == 4 and not second.problems
    (cut,) = read_text(a.rstrip("\n"))
    assert cut.problems and "no moves and no result token" in cut.problems[0].message


def test_a_key_repeated_after_the_blank_line_is_told_exactly_as_it_is_written() -> None:
    # the keys are looked up in a set now: a key is repeated when it is the same string
    # ("site" is no "Site"), and keys first met after the blank line count too ("Event")
    text = (
        '[Site "PlayOK"]\n[Black "ann"]\n\n[site "x"]\n[Event "e"]\n[Event "f"]\n'
        '[Black "cy"]\n\n1. h8 h9 1-0\n'
    )
    first, second = read_text(text)
    assert (first.source.line, first.metadata["black"], first.metadata["event"]) == (1, "ann", "e")
    assert first.notes[0] == "line 4: tag site repeated; the last value is kept"
    assert "no moves and no result token" in first.problems[0].message
    assert (second.source.line, second.metadata["black"], second.metadata["event"]) == (
        6,
        "cy",
        "f",
    )
    assert len(second.moves) == 2 and not second.problems


def test_tags_after_the_blank_line_are_checked_in_linear_time() -> None:
    # each tag after the blank line that ends a tag section compared its key with every tag so
    # far: 500,000 comparisons (a Python generator step each) for a game of 1,000 tags, 8 s
    # for 1 MB of such games. Counted as Python calls, not timed: a few per tag now
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    keys = [alphabet[i // 36] + alphabet[i % 36] for i in range(1000)]
    text = f'[Site "PlayOK"]\n[{keys[0]} ""]\n\n' + "".join(f'[{k} ""]' for k in keys[1:])
    data = (text + "\n*\n\n").encode()
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    before = sys.getprofile()
    sys.setprofile(count)
    try:
        (rec,) = playok.read(io.BytesIO(data), "p.pgn", ReadOptions())
    finally:
        sys.setprofile(before)
    assert len(rec.metadata) == 1001 and not rec.moves and not rec.problems
    assert calls < 20 * len(keys)  # (500,000 before)


def test_a_tag_line_that_lost_its_bracket_is_a_damaged_tag_not_movetext() -> None:
    # 'Time "07:53:48"]' started the movetext (a bad token), and the tags after it a second
    # game: two records for one game, the second looking clean without its players
    text = (
        '[Site "PlayOK"]\n[Black "ann"]\n[White "bob"]\n[Result "1-0"]\nTime "07:53:48"]\n'
        '[GameType "60,15"]\n\n1. h8 h9 2. i8 i9 3. j8 j9 4. k8 k9 5. l8 1-0\n'
    )
    (rec,) = read_text(text)
    assert rec.metadata["black"] == "ann" and len(rec.moves) == 9
    assert [p.message for p in rec.problems] == [
        "line 5: tag 'Time \"07:53:48\"]' has lost its '['; expected [Key \"Value\"]"
    ]


@given(st.binary(max_size=24), st.sampled_from([None, "utf-8", "cp1251", "latin-1", "nope"]))
def test_a_line_is_decoded_as_strictly_as_it_can_be(raw: bytes, encoding: str | None) -> None:
    # the encoding given, else UTF-8; bytes replaced only when neither decodes, and then said
    from renju_cli.formats.playok import _decode

    text, note = _decode(raw, encoding)
    for enc in (encoding, "utf-8"):
        if enc is None:
            continue
        try:
            assert (text, note) == (raw.decode(enc), None)
            return
        except (UnicodeError, LookupError):
            continue
    assert text == raw.decode("utf-8", errors="replace") and note is not None


# -- a result token that does not end the movetext -----------------------------------------------


def test_a_result_inside_the_movetext_is_a_problem_of_its_one_game() -> None:
    # "2. h9 1-0 i10 ..." made two records: the game cut at the early result, and its last
    # moves as a second game without tags (one game invented, one cut short)
    (rec,) = read_text(game("1. h8 i9 2. h9 1-0 i10 3. h10 g7 1-0"))
    assert tokens(rec) == ["h8", "i9", "h9", "i10", "h10", "g7"]
    assert rec.metadata["black"] == "ann" and rec.source.line == 1
    assert [(p.line, p.message, p.fatal) for p in rec.problems] == [
        (8, "line 8: result 1-0 before the end of the movetext: 3 more stone(s) follow", False)
    ]
    assert rec.declared_result is not None and rec.declared_result.text == "1-0"
    # over two lines, and with other tokens after it (a move number, a choice, a slot)
    (rec,) = read_text(game("1. h8 i9 2. j8 0-1\n2... black 3. -- i7 4. i8 0-1", "0-1"))
    assert tokens(rec) == ["h8", "i9", "j8", "i7", "i8"]
    assert choices(rec) == [(3, "black")]
    assert [(p.line, p.message) for p in rec.problems] == [
        (8, "line 8: result 0-1 before the end of the movetext: 2 more stone(s) follow")
    ]


def test_the_last_result_token_is_the_games_and_both_are_said_when_they_differ() -> None:
    # no [Result] tag: the result is the token that ends the movetext
    text = '[Site "PlayOK"]\n[GameType "60,15"]\n\n1. h8 i9 2. h9 1-0 i10 3. h10 g7 0-1\n'
    (rec,) = read_text(text)
    assert rec.declared_result is not None and rec.declared_result.text == "0-1"
    assert [p.message for p in rec.problems] == [
        "line 4: result 1-0 before the end of the movetext: 3 more stone(s) follow, and it "
        "ends with 0-1"
    ]
    # two early results, the last one on another line; then none at the end
    text = '[Site "PlayOK"]\n\n1. h8 * h9\n1/2-1/2 i9 j9 k9\n'
    (rec,) = read_text(text)
    assert tokens(rec) == ["h8", "h9", "i9", "j9", "k9"]
    assert rec.declared_result is not None and rec.declared_result.text == "1/2-1/2"
    assert [(p.line, p.message) for p in rec.problems] == [
        (3, "line 3: result * before the end of the movetext: 4 more stone(s) follow"),
        (4, "line 4: result 1/2-1/2 before the end of the movetext: 3 more stone(s) follow"),
        (4, "movetext ends without a result token (1-0, 0-1, 1/2-1/2 or *)"),
    ]


def test_early_results_are_counted_past_a_bound() -> None:
    (rec,) = read_text(game("1. h8 " + "1-0 h9 " * 300 + "1-0"), max_moves=50)
    early = [p for p in rec.problems if "before the end of the movetext" in p.message]
    assert len(early) == playok.MAX_NOTES + 1
    assert early[0].message.endswith(": 300 more stone(s) follow")
    assert early[-1].message == (
        f"line 8: {300 - playok.MAX_NOTES} more result token(s) before the end of the "
        "movetext, not listed"
    )


def test_what_follows_a_result_and_starts_another_game() -> None:
    # a tag section, a move number 1 (the numbering starts again: a game without tags), a
    # blank line, another result, or something that is no movetext: the game ends at its result
    two = game("1. h8 h9 1-0") + game("1. i9 0-1", "0-1")
    assert [tokens(r) for r in read_text(two)] == [["h8", "h9"], ["i9"]]
    assert not any(r.problems for r in read_text(two))
    head = '[Site "PlayOK"]\n\n'
    for text, moves in [
        ("1. h8 h9 1-0 1. i9 j9 0-1", [["h8", "h9"], ["i9", "j9"]]),
        ("1. h8 h9 1-0\n1... i9 j9 0-1", [["h8", "h9"], ["i9", "j9"]]),
        ("1. h8 h9 1-0\n\nh10 j9 0-1", [["h8", "h9"], ["h10", "j9"]]),
        ("1. h8 h9 1-0\n \t\ni9 0-1", [["h8", "h9"], ["i9"]]),
        ("1. h8 h9 1-0 0-1", [["h8", "h9"], []]),
    ]:
        first, second = read_text(head + text + "\n")
        assert [tokens(first), tokens(second)] == moves, text
        assert not first.problems, text
        assert [p.message for p in second.problems][:1] == [
            f"line {second.source.line}: movetext without a tag section"
        ], text
    first, second = read_text(head + "1. h8 h9 1-0 x9x 2. i9\n")
    assert tokens(first) == ["h8", "h9"] and not first.problems
    assert second.unreadable and "'x9x'" in second.problems[1].message


def test_a_comment_after_the_result_is_no_comment_of_the_last_move() -> None:
    (rec,) = read_text(game("1. h8 h9 1-0 {after the game}"))
    assert [m.comment for m in rec.moves] == [None, None] and not rec.problems
    (rec,) = read_text(game("1. h8 h9 1-0 {after the result} i9 1-0"))
    assert [m.comment for m in rec.moves] == [None, None, None]
    assert tokens(rec) == ["h8", "h9", "i9"] and len(rec.problems) == 1


def test_an_early_result_followed_by_no_stone_is_said_too() -> None:
    (rec,) = read_text(game("1. h8 h9 2. i9 1-0 black"))
    assert tokens(rec) == ["h8", "h9", "i9"] and choices(rec) == [(3, "black")]
    assert [p.message for p in rec.problems] == [
        "line 8: result 1-0 before the end of the movetext: more movetext follows",
        "movetext ends without a result token (1-0, 0-1, 1/2-1/2 or *)",
    ]
    assert rec.declared_result is not None and rec.declared_result.text == "1-0"  # the tag


#: The damaged-tag pattern as it was, matched whole against the line as it stands: blanks at
#: both of its ends, around the optional brackets, made it cost the square of a line of blanks.
_OLD_BROKEN_TAG = r'\s*\[?\s*[A-Za-z][A-Za-z0-9_]*\s+"[^"]*"\s*\]?\s*'


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=' \t\u3000\x85[]"aZ_9x', max_size=24))
def test_the_damaged_tag_pattern_matches_stripped_lines_as_it_matched_whole_lines(
    line: str,
) -> None:
    import re

    old = re.fullmatch(_OLD_BROKEN_TAG, line) is not None
    assert (playok._BROKEN_TAG_RE.fullmatch(line.strip()) is not None) == old


@pytest.mark.parametrize(
    "line",
    [" " * 200_000 + "1", 'Event "x"' + " " * 200_000 + "y", '  Time "07:53:48"]' + " " * 200_000],
)
def test_a_long_line_of_blanks_in_a_tag_section_is_read_in_one_pass(line: str) -> None:
    # each took minutes at 1 MB (the pattern's blanks backtracked over each other); a line of
    # 200,000 blanks would take about a minute at the square of its length
    text = f'[Site "PlayOK"]\n[Black "ann"]\n{line}\n\n1. h8 h9 1-0\n'
    (rec,) = read_text(text)
    assert rec.metadata["black"] == "ann"
    damaged = [p.message for p in rec.problems if "lost its '['" in p.message]
    assert len(damaged) == (1 if "Time" in line else 0)
