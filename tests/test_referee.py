"""Replaying records: results, first fives, findings and each shipped core ruleset."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli import analyze
from renju_cli.api import judge_record
from renju_cli.coords import Point, parse_point
from renju_cli.formats.notation import parse_record
from renju_cli.record import (
    Color,
    DeclaredResult,
    Move,
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
)
from renju_cli.referee import replay, replay_uncached
from renju_cli.report import (
    MAX_FINDINGS,
    Finding,
    GameReport,
    Summary,
    elide_findings,
    filter_findings,
)
from renju_cli.ruleset import from_text, load


def run(moves: str, rules: str = "renju", **record: Any) -> dict[str, Any]:
    rec = parse_record(moves)
    for key, value in record.items():
        setattr(rec, key, value)
    return analyze(rec, rules)


def codes(report: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(f["code"], f["move"]) for f in report["findings"]]


# -- results ---------------------------------------------------------------------------------------
def test_black_five_wins_and_is_the_first_five() -> None:
    r = run("black h8 i9 h9 i10 h10 i11 h11 g8 h12")
    assert r["result"] == {"winner": "black", "reason": "five", "move": 9, "point": "h12"}
    assert r["first_five"] == {
        "move": 9,
        "color": "black",
        "point": "h12",
        "stones": ["h8", "h9", "h10", "h11", "h12"],
    }
    assert r["findings"] == []
    assert r["declared_result"] == {"winner": "black", "text": "black"}


def test_white_overline_wins_in_renju_but_black_overline_is_forbidden() -> None:
    white = run("h8 c7 a15 d7 o15 e7 a1 g7 o1 h7 h15 f7")
    assert white["result"]["winner"] == "white"
    assert white["result"]["reason"] == "overline"
    assert white["first_five"]["stones"] == ["c7", "d7", "e7", "f7", "g7", "h7"]
    black = run("c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8")
    assert black["result"] == {"winner": "white", "reason": "forbidden", "move": 11, "point": "f8"}
    assert black["forbidden_moves"] == [{"move": 11, "point": "f8", "kinds": ["overline"]}]


def test_overline_under_freestyle_standard_and_caro() -> None:
    moves = "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8"
    assert run(moves, "freestyle")["result"]["reason"] == "overline"
    assert run(moves, "standard")["result"]["winner"] is None  # six does not win; play goes on
    assert run(moves, "caro")["result"]["winner"] == "black"  # open at both ends


def test_caro_five_blocked_at_both_ends_does_not_win() -> None:
    # White b8 and h8 close both ends of black's c8-g8.
    moves = "c8 b8 d8 h8 e8 a1 f8 a3 g8"
    assert run(moves, "freestyle")["result"]["winner"] == "black"
    assert run(moves, "caro")["result"]["winner"] is None
    # The edge does not block in caro: a five against the edge wins.
    edge = "a8 b9 b8 c9 c8 d9 d8 f9 e8"
    assert run(edge, "caro")["result"]["winner"] == "black"


def test_caro_edge_option() -> None:
    edge_blocks = from_text("extends: caro\nfive: {blocked: {enabled: true, edge_blocks: true}}")
    # a8-e8 against the left edge with white f8: blocked at both ends when the edge blocks.
    moves = "a8 f8 b8 a1 c8 a3 d8 a5 e8"
    assert run(moves, "caro")["result"]["winner"] == "black"
    assert analyze(parse_record(moves), edge_blocks)["result"]["winner"] is None


def test_omok_rejects_black_double_three_but_not_double_four() -> None:
    three = "f8 a1 g8 a3 h9 a5 h10 a7 h8"
    r = run(three, "omok")
    assert r["forbidden_moves"] == [{"move": 9, "point": "h8", "kinds": ["double-three"]}]
    assert r["result"]["winner"] is None  # policy reject: the move is illegal, not a loss
    assert codes(r) == [("forbidden-move", 9)]
    four = "e8 a1 g8 a3 i8 a5 k8 a7 h8"  # X.X*X.X: a double-four, allowed in omok
    assert run(four, "omok")["forbidden_moves"] == []
    assert run(four, "renju")["forbidden_moves"][0]["kinds"] == ["double-four"]


def test_claim_policy_reports_the_unclaimed_foul() -> None:
    claim = from_text("extends: renju\nname: renju-claim\nforbidden: {policy: claim}")
    moves = "f8 a1 g8 a3 h9 a5 h10 a7 h8 a9 b2"
    r = analyze(parse_record(moves), claim)
    assert r["result"]["winner"] is None
    assert [(f["code"], f["severity"], f["move"]) for f in r["findings"]] == [
        ("forbidden-move", "warning", 9),
        ("unclaimed-foul", "warning", 9),
    ]
    assert "can no longer be claimed" in r["findings"][1]["message"]
    # A record that ends on the foul: white's claim is the natural reading.
    ends = analyze(parse_record("f8 a1 g8 a3 h9 a5 h10 a7 h8"), claim)
    assert ends["result"] == {"winner": "white", "reason": "forbidden", "move": 9, "point": "h8"}


def test_claim_policy_overline_may_still_be_claimed() -> None:
    claim = from_text("extends: renju\nforbidden: {policy: claim}")
    r = analyze(parse_record("c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8 a11"), claim)
    assert "may still be claimed" in r["findings"][-1]["message"]


def test_passes_two_in_a_row_draw_and_early_pass_is_illegal() -> None:
    r = run("h8 i9 j10 pass pass")
    assert r["result"] == {"winner": "draw", "reason": "passes", "move": 5, "point": None}
    early = run("h8 pass i9")
    assert codes(early) == [("illegal-pass", 2)]
    none = from_text("extends: renju\npasses: {allowed: false}")
    assert codes(analyze(parse_record("h8 i9 i8 pass"), none)) == [("illegal-pass", 4)]


def test_board_full_is_a_draw() -> None:
    small = from_text("extends: freestyle\nboard: {size: 5}")
    # 25 moves on a 5x5 board, no five for either colour on any line.
    moves = "b2 b4 d2 e2 e3 e4 c5 a1 a2 a3 b1 d1 e1 d5 c1 c2 b5 a5 c4 d3 e5 d4 c3 b3 a4"
    r = analyze(parse_record(moves), small)
    assert r["result"] == {"winner": "draw", "reason": "board-full", "move": 25, "point": "a4"}
    # the same board with its first 20 stones set up: full at move 5, a pass in between
    record = parse_record(" ".join(moves.split()[20:22]) + " pass " + " ".join(moves.split()[22:]))
    record.setup = [
        (parse_point(p), Color.BLACK if k % 2 == 0 else Color.WHITE)
        for k, p in enumerate(moves.split()[:20])
    ]
    r = analyze(record, small)
    assert r["result"] == {"winner": "draw", "reason": "board-full", "move": 6, "point": "a4"}


def test_move_limit_is_a_draw() -> None:
    limited = from_text("extends: renju\nend: {move_limit: 4}")
    r = analyze(parse_record("h8 i9 j10 a1 b2"), limited)
    assert r["result"]["reason"] == "move-limit"
    assert r["result"]["move"] == 4
    assert codes(r) == [("move-after-end", 5)]


# -- findings --------------------------------------------------------------------------------------
def test_off_board_occupied_and_moves_after_the_end() -> None:
    r = run("h8 p9 h9 h8 h10 i10 h11 i11 h12 a1 a1")
    assert codes(r) == [("off-board", 2), ("occupied", 4), ("move-after-end", 10), ("occupied", 11)]
    assert r["result"]["move"] == 9
    assert "taken by move 1" in r["findings"][1]["message"]


def test_a_record_lists_at_most_max_findings_and_counts_the_rest() -> None:
    # 150 moves on h8: 149 occupied findings, of which the first MAX_FINDINGS are listed
    r = run("h8 " * 150)
    listed = r["findings"]
    assert len(listed) == MAX_FINDINGS + 1
    assert codes(r)[:2] == [("occupied", 2), ("occupied", 3)]
    assert codes(r)[MAX_FINDINGS - 1] == ("occupied", MAX_FINDINGS + 1)
    assert listed[-1]["code"] == "too-many-findings"
    assert listed[-1]["severity"] == "error"  # the worst of those not listed
    assert listed[-1]["counts"] == {"occupied": 149 - MAX_FINDINGS}
    rest = 149 - MAX_FINDINGS
    assert f"{rest} more finding(s) are not listed (occupied {rest})" in listed[-1]["message"]
    # the messages that are listed still name the first stone, made lazily
    assert listed[MAX_FINDINGS - 1]["message"].endswith("already taken by move 1")
    # the summary counts every finding, listed or not
    summary = Summary()
    summary.add(judge_record(parse_record("h8 " * 150)))
    assert summary.findings["occupied"] == 149
    assert summary.findings["too-many-findings"] == 1
    # and by severity the same findings: both add up to one total
    assert summary.severities == {"error": 149 + 1}  # (too-many-findings: an error, as they are)
    assert sum(summary.severities.values()) == sum(summary.findings.values())


def test_elided_findings_keep_their_worst_severity() -> None:
    kept = [Finding("unclaimed-foul", "x", move=n) for n in range(MAX_FINDINGS)]
    out = elide_findings([*kept, Finding("unchecked", "y")], Counter({("occupied", "error"): 2}))
    assert len(out) == MAX_FINDINGS + 1
    assert out[-1].severity == "error"
    assert out[-1].counts == {"occupied": 2, "unchecked": 1}
    assert elide_findings(kept) is kept  # at the bound nothing changes


def test_unlisted_findings_keep_each_severity_through_filters_and_the_summary() -> None:
    # one code of two severities past the cap (an "unchecked" info and an "unchecked" warning),
    # and an error of another code: the summary counts each by its own severity, and a filter
    # that leaves only "unchecked" gives the finding the worst of what it still counts
    kept = [Finding("unclaimed-foul", "x", move=n) for n in range(MAX_FINDINGS)]
    more = [Finding("unchecked", "i"), Finding("unchecked", "w", severity="warning")]
    out = elide_findings([*kept, *more], Counter({("occupied", "error"): 2}))
    assert out[-1].counts == {"occupied": 2, "unchecked": 2}
    assert out[-1].unlisted == {("occupied", "error"): 2, ("unchecked", "info"): 1,
                                ("unchecked", "warning"): 1}  # fmt: skip
    report = judge_record(parse_record("h8"))
    report.findings = out
    summary = Summary()
    summary.add(report)
    # 20 listed warnings, the too-many-findings error, and the 4 it stands for
    assert summary.severities == {"warning": MAX_FINDINGS + 1, "error": 1 + 2, "info": 1}
    assert sum(summary.severities.values()) == sum(summary.findings.values())
    left = filter_findings(out, False, ignore=frozenset({"occupied"}))
    assert left[-1].counts == {"unchecked": 2}
    assert left[-1].severity == "warning"  # the worst "unchecked" left, not the occupied error
    merged = elide_findings(left, Counter({("unchecked", "info"): 3}))
    assert merged[-1].unlisted == {("unchecked", "info"): 4, ("unchecked", "warning"): 1}


def test_the_first_stones_that_can_make_a_shape_are_looked_at() -> None:
    # ``Judge.quiet`` is 4 for both colours under renju: black's fifth stone may already be a
    # double-three (i8 with g8 h8 and i9 i10), and white's fifth a five (a1-a5):
    #
    #   10 . . . . . . . . X          rows 1-10, columns a-i (X black, O white)
    #    9 . . . . . . . . X
    #    8 . . . . . . X X *          * : move 9, i8, two threes: g8-i8 and i8-i10
    #    4 O . . . . . . . .
    #    1 O . . . . . . . .          white a1-a5: a five at move 10
    r = run("g8 a1 h8 a2 i9 a3 i10 a4 i8 a5")
    assert r["forbidden_moves"] == [{"move": 9, "point": "i8", "kinds": ["double-three"]}]
    assert r["first_five"]["move"] == 10 and r["first_five"]["color"] == "white"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=40),
    st.sampled_from(["renju", "freestyle", "omok", "caro"]),
    st.booleans(),
)
def test_a_quiet_colour_s_moves_are_judged_as_if_looked_at(
    points: list[tuple[int, int]], name: str, setup: bool
) -> None:
    # ``Judge.quiet``: the replay does not look at the lines of a colour with too few stones
    # for a five or a forbidden shape; with the shortcut off (quiet 0) the reports are the same
    # (moves crowded on the central 6x6: fives, fouls, occupied points and setups alike)
    from renju_cli.referee.walk import judge_of

    ruleset = load(name)
    stones = [Point(x + 4, y + 4) for x, y in points]
    moves = stones[3:] if setup else stones
    record = Record([Move(p) for p in moves], SourceLocation("<test>", 0))
    record.setup = [(p, Color.WHITE) for p in stones[:3]] if setup else []
    judge = judge_of(ruleset)
    quiet = judge.quiet
    shortcut = replay_uncached(record, ruleset).to_json()
    try:
        judge.quiet = (0, 0, 0)
        looked = replay_uncached(record, ruleset).to_json()
    finally:
        judge.quiet = quiet
    assert shortcut == looked


def test_first_five_after_the_end_is_still_reported() -> None:
    # The double-three at move 9 ends the game; black's later five is still the first five.
    moves = "f8 a1 g8 a3 h9 a5 h10 a7 h8 a9 h11 a11 h12"
    r = run(moves)
    assert r["result"]["reason"] == "forbidden"
    assert r["first_five"]["move"] == 13
    assert r["first_five"]["stones"] == ["h8", "h9", "h10", "h11", "h12"]


def test_after_the_first_five_and_the_end_only_black_s_fouls_count() -> None:
    # Black's five at move 9 ends the game and is the first five; white's five at move 18
    # changes nothing (the replay no longer looks at white's lines), and black's double-three
    # at move 21 is still reported, after the end:
    #
    #   12 . . . . . . . . . . .          rows 8-12, columns a-k after move 21
    #   11 . . . . . . . . . . .          X: black, O: white
    #   10 O O O O O . . X . . .          white a10-e10: a five at move 18
    #    9 . . . . . . . X . . .          black h8-h12: the five at move 9
    #    8 . . . . . . . X . . .          black d5 (move 21) with c5 e5 and d4 d6:
    #       a b c d e f g h i j k           a double-three (rows 4-6 not drawn)
    moves = "h8 a10 h9 b10 h10 c10 h11 d10 h12 a1 c5 a2 e5 a3 d4 a4 d6 e10 k1 k2 d5"
    r = run(moves)
    assert r["result"] == {"winner": "black", "reason": "five", "move": 9, "point": "h12"}
    assert r["first_five"]["move"] == 9
    assert [c for c in codes(r) if c[0] != "move-after-end"] == [("forbidden-move", 21)]
    assert "d5 makes a double-three" in r["findings"][-1]["message"]
    # the same without the five of black: white's five at move 18 wins and is the first
    r = run(moves.replace("h12", "h13"))
    assert r["first_five"]["move"] == 18 and r["result"]["winner"] == "white"


def test_result_mismatch_and_resignations() -> None:
    r = run("white h8 i9 h9 i10 h10 i11 h11 g8 h12")
    assert codes(r) == [("result-mismatch", 9)]
    assert "declares a white win" in r["findings"][0]["message"]
    # Undecided on the board: a declared result is a resignation or time loss, not a mismatch.
    assert run("white h8 i9 h9")["findings"] == []
    assert run("1-0 h8 i9 h9 i10 h10 i11 h11 g8 h12")["findings"] == []
    assert run("h8 i9 h9 i10 h10 i11 h11 g8 h12 0-1")["findings"][0]["code"] == "result-mismatch"


def test_explicit_wrong_colour() -> None:
    rec = Record(
        moves=[Move(Point(7, 7), Color.BLACK), Move(Point(8, 8), Color.BLACK)],
        source=SourceLocation("t.sgf"),
    )
    r = analyze(rec, "renju")
    assert codes(r) == [("wrong-color", 2)]


def test_parse_problem_is_a_finding_and_moves_before_it_are_judged() -> None:
    r = analyze("h8 i9 zz h9")
    assert r["findings"][0]["code"] == "parse-error"
    assert r["moves"] == 2
    assert "expected a point" in r["findings"][0]["message"]


def test_record_board_size_wins_over_the_ruleset() -> None:
    r = run("h8 i9 s19", "renju", width=19, height=19)
    assert codes(r) == [("board-size", None)]
    assert r["findings"][0]["severity"] == "warning"


def test_setup_stones_are_on_the_board_before_move_one() -> None:
    rec = parse_record("h12")
    rec.setup = [(Point(7, y), Color.BLACK) for y in (7, 8, 9, 10)] + [
        (Point(0, y), Color.WHITE) for y in (0, 2, 4, 6)
    ]
    r = analyze(rec, "renju")
    assert r["result"]["winner"] == "black"
    assert r["result"]["move"] == 1


def test_setup_stones_off_the_board_or_placed_twice_and_who_moves_first() -> None:
    """Setup (SGF AB/AW): a stone off the board or on a point already set is a finding and not
    placed; the side with fewer setup stones (black on a tie) moves first, every written stone
    counted.  Here black h8 is set twice and z26 is off the 15x15 board: 3 black, 2 white as
    written, so white moves first, and its i9 ... i12 with the setup i8 make five.

        12 . . .        (after the moves)
        11 . O .
        10 . O .
         9 . O .
         8 X O .        X: black setup h8, O: white setup i8, then white i9 i10 i11 i12
           h i j
    """
    rec = parse_record("i9 a1 i10 a2 i11 a3 i12")
    rec.setup = [
        (Point(7, 7), Color.BLACK),
        (Point(7, 7), Color.BLACK),  # placed twice
        (Point(25, 25), Color.BLACK),  # off the board
        (Point(8, 7), Color.WHITE),
        (Point(14, 14), Color.WHITE),
    ]
    r = analyze(rec, "renju")
    assert [(f["code"], f["point"]) for f in r["findings"]] == [
        ("occupied", "h8"),
        ("off-board", "z26"),
    ]
    assert r["result"]["winner"] == "white" and r["result"]["move"] == 7
    assert r["first_five"]["stones"] == ["i8", "i9", "i10", "i11", "i12"]


def test_json_shape_follows_the_cli_contract() -> None:
    r = run("black h8 i9 h9 i10 h10 i11 h11 g8 h12")
    for key in (
        "source",
        "ruleset",
        "moves",
        "opening",
        "result",
        "declared_result",
        "first_five",
        "forbidden_moves",
        "findings",
    ):
        assert key in r
    assert r["source"] == {"path": "<string>", "id": "0", "index": 0, "line": 1}
    assert r["ruleset"] == "renju"


@pytest.mark.parametrize("name", ["freestyle", "standard", "renju", "caro", "omok"])
def test_every_core_ruleset_replays_a_plain_game(name: str) -> None:
    r = run("black h8 i9 h9 i10 h10 i11 h11 g8 h12", name)
    assert r["ruleset"] == name
    assert r["result"]["winner"] == "black"
    assert load(name).name == name


# -- the memo of short records ---------------------------------------------------------------------
_POINTS = [Point(7, 7), Point(7, 8), Point(8, 8), Point(0, 0), Point(20, 20), None]
_STONES = [p for p in _POINTS if p is not None]
#: Opening events (kind, value) of short records: the memo keys them too.
_EVENTS = [
    ("swap", None),
    ("no-swap", None),
    ("choose", "black"),
    ("choose", "white"),
    ("declare", "2"),
    ("declare", "x"),
    ("offers", None),
    ("reject", None),
    ("relocate", None),
]


@settings(max_examples=100, deadline=None)
@given(
    picks=st.lists(
        st.tuples(st.integers(0, 5), st.sampled_from([None, Color.BLACK, Color.WHITE])),
        max_size=9,
    ),
    rules=st.sampled_from(
        ["renju", "freestyle", "swap2", "renju-rif", "lianhuan", "two-board-gomoku"]
    ),
    declared=st.sampled_from([None, "black", "white", "draw"]),
    size=st.sampled_from([None, 15, 19]),
    starts=st.lists(st.integers(1, 1000), min_size=2, max_size=2),
    spread=st.lists(st.integers(0, 3), min_size=9, max_size=9),
    setup=st.lists(
        st.tuples(st.integers(0, 4), st.sampled_from([Color.BLACK, Color.WHITE])), max_size=3
    ),
    problems=st.lists(
        # (messages that name their own line first, as the line readers' do, or another:
        # line 0, which no problem's own line can be, lines counting from 1)
        st.tuples(
            st.sampled_from(
                ["bad token", "cut", "line {}, column 3: bad", "line {}0: x", "line 0"]
            ),
            st.integers(0, 4),
            st.booleans(),
        ),
        max_size=2,
    ),
    events=st.lists(
        st.tuples(
            st.sampled_from(_EVENTS),
            st.integers(0, 5),  # after
            st.lists(st.integers(0, 4), max_size=3),  # points
            st.integers(0, 4),  # line step
        ),
        max_size=3,
    ),
)
def test_short_records_of_every_kind_are_replayed_alike_wherever_they_stand(
    picks: list[tuple[int, Color | None]],
    rules: str,
    declared: str | None,
    size: int | None,
    starts: list[int],
    spread: list[int],
    setup: list[tuple[int, Color]],
    problems: list[tuple[str, int, bool]],
    events: list[tuple[tuple[str, str | None], int, list[int], int]],
) -> None:
    # the same record at two places of a file (other lines, offsets): the same report but for
    # the lines and offsets, each its own; a report handed out is the caller's to change
    ruleset = load(rules)
    reports = []
    for start in starts:
        line = start
        moves = []
        for (i, color), step in zip(picks, spread, strict=False):
            line += step
            moves.append(Move(_POINTS[i], color, line, start * 7 + step, "t"))
        record = Record(
            moves=moves,
            source=SourceLocation("memo.txt", start, start, start * 7),
            width=size,
            height=size,
            declared_result=DeclaredResult(declared) if declared else None,
            setup=[(_STONES[i], color) for i, color in setup],
            problems=[
                ParseProblem(text.format(start + step), start + step, start * 7 + step, fatal)
                for text, step, fatal in problems
            ],
            opening_events=[
                OpeningEvent(kind, after, value, [_STONES[i] for i in points], start + step)
                for (kind, value), after, points, step in events
            ],
        )
        got = replay(record, ruleset)
        expected = got.to_json()
        reports.append(_unplaced(expected, start))
        got.findings.append(Finding("duplicate", "x"))
        got.result.winner = "nobody"
        assert replay(record, ruleset).to_json() == expected
    assert all(r == reports[0] for r in reports)


def _unplaced(report: dict[str, Any], start: int) -> dict[str, Any]:
    """``report`` without its source, and its findings' lines and offsets made relative to
    the record's start (``start`` and ``start * 7``)."""
    out = dict(report, source=None)
    out["findings"] = [
        dict(
            f,
            line=f.get("line", start) - start,
            offset=f.get("offset", start * 7) - start * 7,
            message=f["message"].replace(f"line {f.get('line')}", "line N"),
        )
        for f in report["findings"]
    ]
    return out


def test_a_record_with_more_problems_than_are_listed() -> None:
    # a tree's problems repeat in every line: only MAX_FINDINGS findings are made, the rest
    # counted, readable or not, resumed (a line of a tree) or not
    problems = [ParseProblem(f"bad {n}", line=n) for n in range(MAX_FINDINGS + 30)]
    for variation in (None, "1"):
        for fatal in (False, True):
            record = Record(
                moves=[Move(Point(7, 7), line=1), Move(Point(7, 7), line=1)],
                source=SourceLocation("p.sgf", 0, 1, variation=variation),
                problems=[*problems[:-1], ParseProblem("last", line=999, fatal=fatal)],
            )
            ruleset = load("renju")
            got = replay(record, ruleset).to_json()
            assert got == replay_uncached(record, ruleset).to_json()
            listed = got["findings"]
            assert [f["code"] for f in listed[:MAX_FINDINGS]] == ["parse-error"] * MAX_FINDINGS
            assert listed[-1]["code"] == "too-many-findings"
            counts = listed[-1]["counts"]
            assert counts["parse-error"] == 30
            if not fatal:  # the replay went on: its occupied finding is counted, not listed
                assert counts["occupied"] == 1


def test_the_field_order_the_referee_builds_positionally() -> None:
    # the referee builds reports positionally (one per record of a batch): reordering a field
    # would silently shift values, so the order is pinned here
    from helpers import field_names as names

    from renju_cli.report import FirstFive, ForbiddenMove, Result

    assert names(GameReport) == [
        "source", "ruleset", "moves", "format", "opening", "result", "declared_result",
        "first_five", "forbidden_moves", "findings", "metadata", "notes", "unreadable",
    ]  # fmt: skip
    assert names(Result) == ["winner", "reason", "move", "point"]
    assert names(FirstFive) == ["move", "color", "point", "stones"]
    assert names(ForbiddenMove) == ["move", "point", "kinds"]
    assert names(Finding) == [
        "code", "message", "severity", "move", "point", "line", "offset", "counts", "unlisted",
        "why",
    ]  # fmt: skip
