"""The bound on double-three judgements of a run (``ReadOptions.judgements_allowance``).

The double-three recursion is exact and has no depth limit (rules.md: a three is real only if
a point that makes it a straight four is itself legal, and so on).  On columns of black stones
every completion point is a double-three again, down the column, and a file of thousands of
such records would take minutes.  A run's records may make ``judgements_allowance`` (8,192) + one
per four records double-three judgements (points whose threes are judged, at the top of the
recursion or in it); past that, a move whose threes would need judging is taken as not a
double-three, with an ``unchecked`` warning.  Real games need next to none.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli as renju

from renju_cli import api, referee
from renju_cli.board import BLACK, Board
from renju_cli.formats import read_stream
from renju_cli.judge import Judgements
from renju_cli.limits import UNDECIDED_NAMED
from renju_cli.ruleset import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import fuzz_seeds

#: Columns a, b, i and j full of black stones (15x15), as SGF setup; black then plays h10:
#:
#:  15 X X . . . . . . X X . . . . .
#:  14 X X . . . . . . X X . . . . .
#:      ... (every row alike) ...
#:  10 X X . . . . . * X X . . . . .     * h10: h10-i10-j10... no: i10, j10 are black, so
#:   9 X X . . . . . . X X . . . . .       h10 makes threes along the diagonals through the
#:      ...                                columns, whose straight-four points are again
#:   1 X X . . . . . . X X . . . . .       double-threes down the columns
#:     a b c d e f g h i j k l m n o
#:
#: Judged from an empty memo, h10 is a double-three after 70 double-three judgements.
STRIPES = b"(;SZ[15]AB[aa:ao][ba:bo][ia:io][ja:jo]"
H10 = b";B[hf])"  # SGF rows count from the top: f is row 10
H10_COST = 70


def _stripes_board() -> Board:
    board = Board(15, 15)
    for x in (0, 1, 8, 9):
        for y in range(15):
            board.place(board.index_of(x, y), BLACK)
    return board


def test_the_bound_counts_every_point_whose_threes_are_judged() -> None:
    judge = load("renju").judge()
    board = _stripes_board()
    h10 = board.index_of(7, 9)
    assert judge.forbidden_kinds(board, h10, BLACK) == ("double-three",)
    for left, expected in ((H10_COST, (("double-three",), False)), (H10_COST - 1, ((), True))):
        judge.forget()  # (from an empty memo, the count depends on the position alone)
        bound = Judgements(left)
        assert judge.bounded_kinds(board, h10, BLACK, bound) == expected
        assert bound.left == 0
    # the recursion placed and took off its stones: the board is as it was
    assert board.stones == 60 and board.cells[h10] == 0
    # a move without two threes costs nothing
    judge.forget()
    bound = Judgements(0)
    assert judge.bounded_kinds(board, board.index_of(13, 0), BLACK, bound) == ((), False)


def test_records_past_the_bound_take_the_move_as_not_a_double_three(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # three records playing h10 on the stripes; the run may make 100 judgements: the first
    # record spends 70, the second and third are left undecided, with a warning each (and a
    # second file of them after it: the bound is the run's)
    path = tmp_path / "stripes.sgf"
    path.write_bytes((STRIPES + H10 + b"\n") * 3)
    code, out, _ = renju(
        capsys, "check", str(path), "--format", "jsonl", "--limit", "judgements=100"
    )
    assert code == 1
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) == 3
    assert reports[0]["forbidden_moves"] == [{"move": 1, "point": "h10", "kinds": ["double-three"]}]
    assert reports[0]["result"]["reason"] == "forbidden"
    for report in reports[1:]:
        assert report["forbidden_moves"] == [] and report["result"]["winner"] is None
        (warning,) = [f for f in report["findings"] if f["code"] == "unchecked"]
        assert warning["severity"] == "warning" and warning["move"] == 1
        assert warning["point"] == "h10"
        assert "double-three is not judged" in warning["message"]
        assert "--limit judgements" in warning["message"]
    # the default bound (8192 + one per 4 records) judges them all
    _, full, _ = renju(capsys, "check", str(path), "--format", "jsonl")
    assert all(json.loads(line)["forbidden_moves"] for line in full.splitlines())


def _one_judgement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], moves: bytes
) -> list[dict[str, Any]]:
    """The JSON reports of the stripes then ``moves``, checked with one judgement in all."""
    path = tmp_path / "stripes.sgf"
    path.write_bytes(STRIPES + moves + b"\n")
    code, out, _ = renju(capsys, "check", str(path), "--format", "jsonl", "--limit", "judgements=1")
    assert code == 1
    return [json.loads(line) for line in out.splitlines()]


def test_one_warning_per_record_names_every_move_left_undecided(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one judgement in all: black plays h10 (two threes on the stripes' diagonals), then h6
    # and h4, each with two threes there too; the record gets one ``unchecked`` warning, at
    # its first undecided move, which names the two others
    (report,) = _one_judgement(tmp_path, capsys, b";B[hf];W[oo];B[hj];W[on];B[hl])")
    (warning,) = [f for f in report["findings"] if f["code"] == "unchecked"]
    assert (warning["move"], warning["point"]) == (1, "h10")
    assert warning["message"].endswith(
        "the move is taken as not a double-three; so are the 2 later move(s) of the record "
        "the bound leaves undecided: 3 (h6), 5 (h4)"
    )
    assert report["forbidden_moves"] == []
    # past ``UNDECIDED_NAMED`` later moves, the rest are counted
    record = next(iter(read_stream(io.BytesIO(STRIPES + b";B[hf])"), "s.sgf")))
    rules = load("renju")
    replay = referee.Replay(record, rules, referee.new_report(record, rules))
    bound, move = Judgements(0), record.moves[0]
    assert move.point is not None
    for n in range(1, UNDECIDED_NAMED + 5):
        replay._undecided(n, move, move.point, BLACK, bound)
    replay._list_undecided()
    (only,) = replay.report.findings
    assert only.message.endswith(f"{UNDECIDED_NAMED + 1} (h10) and 3 more")


def test_the_lines_of_a_tree_name_their_own_undecided_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # two lines past the bound sharing their first undecided move (h10): each line's warning
    # names its own later moves (the second line resumes the first's replay, and its warning
    # once named the first line's moves too, then its own)
    reports = _one_judgement(tmp_path, capsys, b";B[hf];W[oo](;B[hj];W[on];B[hl])(;B[hl]))")
    said = [[f["message"] for f in r["findings"] if f["code"] == "unchecked"] for r in reports]
    assert [len(s) for s in said] == [1, 1]
    assert said[0][0].endswith("leaves undecided: 3 (h6), 5 (h4)")
    assert said[1][0].endswith("leaves undecided: 3 (h4)")
    assert said[1][0].count("so are the") == 1


def test_what_a_record_spends_does_not_depend_on_what_was_judged_before() -> None:
    # each record starts the judge's memo afresh under a bound: its reports and what it
    # spends are the same after any other record (a file judged after another, or by another
    # worker), and the same as alone
    records = list(read_stream(io.BytesIO(STRIPES + H10 + b"\n"), "s.sgf"))
    other = list(read_stream(io.BytesIO(STRIPES + b";B[hd];B[kf])\n"), "o.sgf"))
    ruleset = api.choose_ruleset(records[0], None)
    spent = []
    for before in ([], other):
        bound = Judgements(10_000)
        for record in before:
            referee.replay(record, ruleset, bound)
        left = bound.left
        report = referee.replay(records[0], ruleset, bound)
        spent.append((left - bound.left, report.to_json()))
    assert spent[0] == spent[1]
    assert H10_COST <= spent[0][0] < 2 * H10_COST  # (its judgement, then naming the threes)


def test_a_remembered_report_is_charged_what_its_replay_spent() -> None:
    # short records the memo keeps are charged the judgements their replay made each time a
    # copy is served; when the bound cannot pay, the copy is replayed and left undecided
    #
    #   10 . X . .      black h9, h10 and i8, j8 as setup; black plays h8: h8-h9-h10 and
    #    9 . X . .      h8-i8-j8 are two open threes, a double-three (one judgement)
    #    8 . * X X
    #      g h i j
    text = b"(;AB[hg][hf][ih][jh];B[hh])\n"
    record = next(iter(read_stream(io.BytesIO(text), "d.sgf")))
    ruleset = api.choose_ruleset(record, "renju")
    bound = Judgements(3)
    reports = [referee.replay(record, ruleset, bound).to_json() for _ in range(5)]
    kinds = [[f["kinds"] for f in r["forbidden_moves"]] for r in reports]
    assert kinds == [[["double-three"]]] * 3 + [[]] * 2
    assert bound.left == 0
    assert ["unchecked" in {f["code"] for f in r["findings"]} for r in reports] == [
        False,
        False,
        False,
        True,
        True,
    ]
    # a report left undecided is never remembered: without a bound, the record is judged
    assert referee.replay(record, ruleset).to_json() == reports[0]


def test_limit_judgements_sets_the_bound_without_more_by_records() -> None:
    from renju_cli.cli.app import parse_limits

    assert parse_limits(("judgements=500",)) == {
        "max_judgements": 500,
        "judgements_allowance": 500,
        "records_per_judgement": 0,
    }


def test_real_records_never_reach_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    # the corpus, the examples and the test data make 19 double-three judgements in 8,599
    # records; the corpus and the examples (4,900 records), with a bound of 64 per file:
    # none of their moves is left undecided
    roots = [Path(__file__).resolve().parents[1] / "examples"]
    if fuzz_seeds.CORPUS.is_dir():
        roots.append(fuzz_seeds.CORPUS)
    paths = sorted(str(p) for root in roots for p in root.rglob("*") if p.is_file())
    _, out, _ = renju(capsys, "check", *paths, "--format", "jsonl", "--limit", "judgements=64")
    # (without ../shared/corpus beside the project: the five examples alone)
    assert out.count('"source"') >= (4000 if fuzz_seeds.CORPUS.is_dir() else 5)
    assert "double-three is not judged" not in out


def test_renju_diff_has_the_bound_of_renju_check() -> None:
    from renju_cli.diff import diff_record
    from renju_cli.formats import ReadOptions

    record = next(iter(read_stream(io.BytesIO(STRIPES + H10 + b"\n"), "diff.sgf")))
    rulesets = [load("renju"), load("freestyle")]
    judged = diff_record(record, rulesets)
    assert judged.differs  # h10 is a double-three under renju, nothing under freestyle
    tight = ReadOptions(judgements_allowance=10, records_per_judgement=0)
    bounded = diff_record(record, rulesets, tight)
    assert not bounded.differs
    assert "unchecked" in {f.code for f in bounded.reports[0].findings}


#: A user's ruleset of two black offer steps (``renju rules check`` finds nothing wrong): the
#: first offers stand on the board while the second are judged.
TWO_OFFERS = """\
name: two-offers
extends: renju
board: {{size: 26}}
forbidden: {{policy: claim}}
opening:
  name: Two offers
  alternate: false
  center: m13
  symmetry: none
  steps:
    - place: {{move: 1, color: black, by: P1}}
    - place: {{move: 2, color: white, by: P1}}
    - place: {{move: 3, color: black, by: P1}}
    - place: {{move: 4, color: white, by: P2}}
    - offer: {{move: 5, by: black, color: black, count: {first}}}
    - offer: {{move: 6, by: black, color: black, count: {second}}}
    - keep: {{move: 5, by: white}}
    - keep: {{move: 6, by: white}}
"""


def test_offers_are_judged_within_a_bound_of_their_own() -> None:
    # 26x26: pairs of columns five apart (a b . . . . . h i . . . ...) offered first, then the
    # points that make two threes beside them, each a double-three whose completion points
    # are double-threes again down the columns: each offer step judges at most
    # OFFER_JUDGEMENTS points, from a fresh memo (unbounded, a record cost 0.2 s)
    from renju_cli import opening
    from renju_cli.formats.notation import parse_record
    from renju_cli.judge import THREE_UNIT, THREES
    from renju_cli.opening.check import check_record
    from renju_cli.ruleset import from_text

    columns = [(x, y) for x in range(26) if x % 7 in (0, 1) for y in range(26)]
    board = Board(26, 26)
    for x, y in columns:
        board.place(board.index_of(x, y), BLACK)
    judge = load("renju").judge()
    doubled = [
        (x, y)
        for y in range(26)
        for x in range(26)
        if (x, y) not in set(columns)
        and judge.shape(board, board.index_of(x, y), BLACK) & THREES >= 2 * THREE_UNIT
    ]
    assert len(doubled) > 100

    def names(points: list[tuple[int, int]]) -> str:
        return " ".join(board.name(board.index_of(x, y)) for x, y in points)

    ruleset = from_text(TWO_OFFERS.format(first=len(columns), second=len(doubled)))
    record = parse_record(f"l3 l4 s3 s4 {{{names(columns)}}} {{{names(doubled)}}}")
    judge = ruleset.judge()
    before = judge.judgements
    check = check_record(record, ruleset)
    assert check.opening is not None
    spent = judge.judgements - before
    assert 0 < spent <= 2 * opening.OFFER_JUDGEMENTS
