"""``renju diff``: outcomes under several rulesets, and the first move where the rulings part."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from helpers import run_cli as renju_cli

from renju_cli.board import BLACK, EMPTY, WHITE, Board
from renju_cli.diff import diff_paths, diff_record, rulings
from renju_cli.formats import unreadable
from renju_cli.formats.notation import parse_record
from renju_cli.referee import replay
from renju_cli.ruleset import Ruleset, from_text, load

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CLAIM = "extends: renju\nname: renju-claim\nforbidden: {policy: claim}\n"


def rules(*names: str) -> list[Ruleset]:
    return [load(n) for n in names]


# -- the library -----------------------------------------------------------------------------------
def test_double_three_parts_renju_from_freestyle_at_the_foul() -> None:
    record = parse_record("white f8 a1 g8 a3 h9 a5 h10 a7 h8")
    d = diff_record(record, rules("renju", "freestyle"))
    assert d.differs
    assert [r.result.to_json() for r in d.reports] == [
        {"winner": "white", "reason": "forbidden", "move": 9, "point": "h8"},
        {"winner": None, "reason": None, "move": None, "point": None},
    ]
    assert d.parting is not None
    assert d.parting.message() == (
        "move 9 h8: forbidden double-three, white wins under renju; legal under freestyle"
    )
    renju, free = (r for _, r in d.parting.rulings)
    assert (renju.verdict, renju.kinds, renju.end) == (
        "forbidden",
        ("double-three",),
        ("white", "forbidden"),
    )
    assert (free.verdict, free.kinds, free.end) == ("legal", (), None)


def test_same_outcome_is_no_diff() -> None:
    record = parse_record("black h8 i9 h9 i10 h10 i11 h11 g8 h12")
    d = diff_record(record, rules("renju", "freestyle", "standard", "caro"))
    assert not d.differs
    assert d.parting is None


def test_three_rulesets_name_alike_rulings_together() -> None:
    # f8 makes six in a row for black: forbidden in renju, a win in freestyle, nothing in
    # standard gomoku, where black's exact five at move 21 wins instead.
    moves = "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8 a11 j12 a13 k12 n1 l12 n3 m12 n5 n12"
    d = diff_record(parse_record(moves), rules("renju", "freestyle", "standard", "omok"))
    assert [r.result.move for r in d.reports] == [11, 11, 21, 21]
    assert d.parting is not None
    assert d.parting.message() == (
        "move 11 f8: forbidden overline, white wins under renju; overline, black wins under "
        "freestyle; legal under standard, omok"
    )


def test_caro_blocked_five_is_read_from_the_referee() -> None:
    # White b8 and h8 close both ends of black's c8-g8: no win in caro.
    d = diff_record(parse_record("c8 b8 d8 h8 e8 a1 f8 a3 g8"), rules("caro", "freestyle"))
    assert d.parting is not None
    assert d.parting.message() == "move 9 g8: legal under caro; five, black wins under freestyle"


def test_the_first_parting_may_come_before_the_decisive_move() -> None:
    # A pass at move 2 is illegal in renju (no pass before move 4), legal in freestyle; the
    # outcomes differ later, at the double-three.
    record = parse_record("f8 pass g8 a1 h9 a3 h10 a5 h8")
    d = diff_record(record, rules("renju", "freestyle"))
    assert d.differs
    assert d.parting is not None
    assert d.parting.message() == "move 2 pass: an illegal pass under renju; legal under freestyle"
    assert d.parting.to_json()["rulings"][0]["findings"] == ["illegal-pass"]


def test_claim_policy_differs_by_the_end_of_the_game_not_by_the_kinds() -> None:
    # Black's double-three at move 9 is not claimed; white then makes a five.
    record = parse_record("f8 a1 g8 a2 h9 a3 h10 a4 h8 a5")
    d = diff_record(record, [load("renju"), from_text(CLAIM)])
    assert [r.result.winner for r in d.reports] == ["white", "white"]
    assert [r.result.reason for r in d.reports] == ["forbidden", "five"]
    assert d.parting is not None
    assert d.parting.move == 9
    assert d.parting.message() == (
        "move 9 h8: forbidden double-three, white wins under renju; forbidden double-three, "
        "a foul left unclaimed, play goes on under renju-claim"
    )


def test_rulings_stop_at_the_end_of_the_game_by_default() -> None:
    record = parse_record("black h8 i9 h9 i10 h10 i11 h11 g8 h12 j12 k13 h9")
    report = replay(record, load("renju"))
    trace = rulings(record, report)
    assert [r.move for r in trace] == list(range(1, 10))
    assert trace[-1].five and trace[-1].end == ("black", "five")
    assert [r.words() for r in trace[:-1]] == ["legal"] * 8
    # asked past the end, the occupied point of move 12 is there too
    late = rulings(record, report, upto=20)
    assert len(late) == 12 and late[-1].findings == ("occupied",)


def test_unreadable_records_are_not_diffs() -> None:
    record = unreadable("nowhere.txt", "no such file or directory")
    d = diff_record(record, rules("renju", "freestyle"))
    assert d.unreadable and not d.differs and d.parting is None
    assert d.to_json()["outcomes"][0]["result"]["winner"] is None


def test_diff_paths_reads_every_example_in_order() -> None:
    diffs = list(diff_paths([str(EXAMPLES)], rules("renju", "freestyle")))
    assert len(diffs) == 5
    differing = [Path(d.source.path).name for d in diffs if d.differs]
    assert differing == ["black-double-three.txt", "gomoku-overline.jsonl"]


def _random_record(rng: random.Random) -> str:
    """A random game in the centre of the board, dense enough to make fours and threes."""
    points = [f"{c}{r}" for c in "efghijk" for r in range(5, 12)]
    rng.shuffle(points)
    return " ".join(points[: rng.randint(25, 45)])


def test_rulings_agree_with_a_replay_on_the_judge() -> None:
    """The rulings read off the report equal the judge's own verdicts, move by move."""
    rng = random.Random(20240605)
    ruleset = load("renju")
    judge = ruleset.judge()
    seen_forbidden = seen_five = 0
    for _ in range(100):
        record = parse_record(_random_record(rng))
        report = replay(record, ruleset)
        trace = rulings(record, report)
        board = Board(15)
        stone = BLACK
        for ruling, move in zip(trace, record.moves, strict=False):
            assert move.point is not None
            index = board.index(move.point)
            assert board.cells[index] == EMPTY
            kinds = judge.forbidden_kinds(board, index, stone)
            assert ruling.kinds == kinds
            board.place(index, stone)
            five = judge.five_at(board, index, stone) is not None
            assert ruling.five == five
            seen_forbidden += bool(kinds)
            seen_five += five
            stone = BLACK + WHITE - stone
    # the sample exercises both kinds of ending
    assert seen_forbidden > 10 and seen_five > 10


def test_first_parting_agrees_with_the_outcomes_on_random_games() -> None:
    """Whenever outcomes differ, a parting exists, at or before the earliest end."""
    rng = random.Random(7)
    sets = rules("renju", "freestyle", "standard")
    differing = 0
    for _ in range(100):
        record = parse_record(_random_record(rng))
        d = diff_record(record, sets)
        if not d.differs:
            assert d.parting is None
            continue
        differing += 1
        assert d.parting is not None
        ends = [r.result.move for r in d.reports if r.result.move is not None]
        assert d.parting.move <= min(ends)
    assert differing > 10


# -- the command -----------------------------------------------------------------------------------
def test_cli_text_and_exit_1_when_outcomes_differ(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = renju_cli(capsys, "diff", str(EXAMPLES), "--rules", "renju", "-r", "freestyle")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("black-double-three.txt:3 [0]: outcomes differ")
    assert lines[1] == "  renju      white wins by forbidden at move 9 (h8); declared: white"
    assert lines[2] == "  freestyle  undecided on the board; declared: white"
    assert lines[3] == (
        "  rulings part at move 9 h8: forbidden double-three, white wins under renju; "
        "legal under freestyle"
    )
    assert "5 record(s) under renju, freestyle: 2 with differing outcomes, 0 unreadable" in out


def test_cli_exit_0_when_no_outcome_differs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = renju_cli(
        capsys, "diff", str(EXAMPLES / "black-five.txt"), "-r", "renju", "-r", "caro"
    )
    assert code == 0
    assert out == "1 record(s) under renju, caro: 0 with differing outcomes, 0 unreadable\n"


def test_cli_json_and_jsonl(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    claim = tmp_path / "renju-claim.yaml"
    claim.write_text(CLAIM)
    code, out, _ = renju_cli(
        capsys,
        "diff",
        str(EXAMPLES),
        "-r",
        "renju",
        "-r",
        str(claim),
        "-r",
        "freestyle",
        "-f",
        "json",
    )
    assert code == 1
    doc = json.loads(out)
    assert doc["rulesets"] == ["renju", "renju-claim", "freestyle"]
    assert doc["summary"]["records"] == 5 and doc["summary"]["differing"] == 2
    first = doc["records"][0]
    assert first["source"]["path"].endswith("black-double-three.txt")
    assert [o["ruleset"] for o in first["outcomes"]] == ["renju", "renju-claim", "freestyle"]
    assert first["parting"]["move"] == 9 and first["parting"]["point"] == "h8"
    verdicts = [(r["ruleset"], r["verdict"], r["kinds"]) for r in first["parting"]["rulings"]]
    assert verdicts == [
        ("renju", "forbidden", ["double-three"]),
        ("renju-claim", "forbidden", ["double-three"]),
        ("freestyle", "legal", []),
    ]
    out_file = tmp_path / "diff.jsonl"
    code, out, _ = renju_cli(
        capsys,
        "diff",
        str(EXAMPLES),
        "-r",
        "renju",
        "-r",
        "standard",
        "-f",
        "jsonl",
        "-o",
        str(out_file),
    )
    assert code == 1 and out == ""
    lines = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [Path(d["source"]["path"]).name for d in lines] == [
        "black-double-three.txt",
        "gomoku-overline.jsonl",
        "white-overline.txt",
    ]
    assert all(d["differs"] for d in lines)


def test_cli_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    data = b"white f8 a1 g8 a3 h9 a5 h10 a7 h8\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = renju_cli(capsys, "diff", "-", "-r", "renju", "-r", "omok", "-f", "jsonl")
    assert code == 1
    (doc,) = [json.loads(line) for line in out.splitlines()]
    assert doc["source"]["path"] == "<stdin>"
    assert doc["parting"]["message"] == (
        "move 9 h8: forbidden double-three, white wins under renju; forbidden double-three, "
        "play goes on under omok"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-r", "renju"], "two or more times"),
        (["-r", "renju", "-r", "renju"], "different names"),
        (["-r", "renju", "-r", "no-such-rules"], "invalid ruleset"),
    ],
)
def test_cli_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = renju_cli(capsys, "diff", str(EXAMPLES), *args)
    assert code == 2
    assert message in err


def test_cli_missing_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = renju_cli(capsys, "diff", str(tmp_path / "none"), "-r", "renju", "-r", "caro")
    assert code == 2 and "no input found" in err
    # one missing path among good ones is an unreadable record, listed and counted
    code, out, _ = renju_cli(
        capsys,
        "diff",
        str(EXAMPLES / "black-five.txt"),
        str(tmp_path / "none"),
        "-r",
        "renju",
        "-r",
        "caro",
    )
    assert code == 1  # an unreadable record is a finding (spec/cli.md), as for check
    assert "none [0]: unreadable: no such file or directory" in out
    assert "2 record(s) under renju, caro: 0 with differing outcomes, 1 unreadable" in out


def test_a_referee_failure_is_reported_not_raised(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from renju_cli.tasks import FAULT_ENV

    monkeypatch.setenv(FAULT_ENV, "raise:black-five.txt#0")
    code, out, _ = renju_cli(capsys, "diff", str(EXAMPLES), "-r", "renju", "-r", "freestyle")
    assert code == 1
    assert "black-five.txt:2 [0]: could not be judged: renju: judging this record failed" in out
    assert "5 record(s) under renju, freestyle: 2 with differing outcomes, 0 unreadable, " in out
    assert "1 not judged (internal error)" in out


def test_cli_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = renju_cli(capsys, "diff", "--help")
    assert code == 0
    assert "Examples:" in out and "renju diff games/ --rules renju --rules freestyle" in out
