"""SGF ``RE`` in the words archives use, read by the shared vocabulary of ``renju_cli.results``."""

from __future__ import annotations

import io

import pytest

from renju_cli.formats import ReadOptions, sgf
from renju_cli.record import DeclaredResult, Record


def one(data: str) -> Record:
    (record,) = sgf.read(io.BytesIO(data.encode()), "re.sgf", ReadOptions())
    return record


@pytest.mark.parametrize(
    ("value", "winner", "reason"),
    [
        ("1-0", "black", None),
        ("0-1", "white", None),
        ("B+R", "black", "resign"),
        ("W+T", "white", "time"),
        ("W+F", "white", "forfeit"),
        ("B+", "black", None),
        ("Draw", "draw", None),
        ("0", "draw", None),
        ("Void", None, "void"),
        ("黑胜", "black", None),
        ("白胜", "white", None),
        ("和棋", "draw", None),
        ("黑中盘胜", "black", "resign"),
        ("白超时胜", "white", "time"),
        ("黒勝ち", "black", None),
        ("後手勝ち", "white", None),
        ("흑승", "black", None),
        ("무승부", "draw", None),
        ("победа черных", "black", None),
        ("ничья", "draw", None),
    ],
)
def test_result_words_archives_use(value: str, winner: str | None, reason: str | None) -> None:
    rec = one(f"(;GM[4]SZ[15]RE[{value}];B[hh];W[hi])")
    assert rec.declared_result == DeclaredResult(winner, reason, value)
    assert rec.problems == [] and len(rec.moves) == 2


@pytest.mark.parametrize("value", ["unknown", "?", "*", "", "  "])
def test_words_that_declare_no_result(value: str) -> None:
    rec = one(f"(;GM[4]SZ[15]RE[{value}];B[hh];W[hi])")
    assert rec.declared_result is None and rec.problems == [] and len(rec.moves) == 2


def test_words_not_known_are_an_info_that_quotes_them() -> None:
    rec = one("(;GM[4]SZ[15]RE[Schwarz gewinnt];B[hh];W[hi])")
    assert rec.declared_result == DeclaredResult(None, None, "Schwarz gewinnt")
    (problem,) = rec.problems
    assert problem.severity == "info" and "'Schwarz gewinnt'" in problem.message
    assert problem.line == 1 and not rec.unreadable and len(rec.moves) == 2


def test_each_line_of_a_tree_has_its_own_declared_result() -> None:
    a, b = sgf.read(
        io.BytesIO("(;GM[4]RE[黑胜];B[hh](;W[ii])(;W[jj]))".encode()), "t", ReadOptions()
    )
    assert a.declared_result == b.declared_result == DeclaredResult("black", None, "黑胜")
    assert a.declared_result is not b.declared_result


@pytest.mark.parametrize(
    "result",
    [DeclaredResult("black", "resign"), DeclaredResult("white", "time"),
     DeclaredResult("black", "foul"), DeclaredResult("white", None), DeclaredResult("draw"),
     DeclaredResult(None, "void", "Void"), DeclaredResult(None, None, "Schwarz gewinnt")],
)  # fmt: skip
def test_the_writer_s_re_reads_back(result: DeclaredResult) -> None:
    rec = one("(;GM[4]SZ[15];B[hh])")
    rec.declared_result = result
    back = one(sgf.to_sgf(rec)).declared_result
    assert back is not None and (back.winner, back.reason) == (result.winner, result.reason)
