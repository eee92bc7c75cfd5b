"""The declared-result vocabulary (renju_cli.results): every class of words."""

from __future__ import annotations

import time

import pytest

from renju_cli.record import DeclaredResult
from renju_cli.results import (
    may_be_in_phrase,
    not_understood,
    read_black_score,
    read_result,
    understood,
)


def _read(text: str) -> tuple[str | None, str | None]:
    result = read_result(text)
    assert result is not None, text
    assert result.text == text  # the raw value, as written
    return result.winner, result.reason


@pytest.mark.parametrize(
    ("text", "winner", "reason"),
    [
        ("1-0", "black", None),
        ("0-1", "white", None),
        ("1/2-1/2", "draw", None),
        ("½-½", "draw", None),
        ("0.5-0.5", "draw", None),
        ("Draw", "draw", None),
        ("draw by agreement", "draw", "agreement"),
        ("0", "draw", None),
        ("D", "draw", None),
        ("Jigo", "draw", None),
        ("black", "black", None),
        ("White", "white", None),
        ("black wins", "black", None),
        ("Black won", "black", None),
        ("white wins on time", "white", "time"),
        ("black wins by resignation", "black", "resign"),
        ("white wins by foul", "white", "foul"),
        ("black wins by five", "black", "five"),
        ("black resigns", "white", "resign"),
        ("white lost", "black", None),
        ("black wins (time)", "black", "time"),
        ("1-0 (time)", "black", "time"),
    ],
)
def test_english_and_pgn(text: str, winner: str, reason: str | None) -> None:
    assert _read(text) == (winner, reason)


@pytest.mark.parametrize(
    ("text", "winner", "reason"),
    [
        ("B+R", "black", "resign"),
        ("B+Resign", "black", "resign"),
        ("W+T", "white", "time"),
        ("W+Time", "white", "time"),
        ("W+F", "white", "forfeit"),
        ("B+F", "black", "forfeit"),
        ("B+", "black", None),
        ("W+", "white", None),
        ("B+5", "black", None),
        ("W+0.5", "white", None),
        ("b + r", "black", "resign"),
        ("W+Foul", "white", "foul"),
        ("B+Five", "black", "five"),
        ("B+Score", "black", "score"),  # a word not known: kept as SGF writes it
        ("B+(time)", "black", "time"),
        ("B+Resign (time)", "black", "time"),
    ],
)
def test_go_style(text: str, winner: str, reason: str | None) -> None:
    assert _read(text) == (winner, reason)


def test_void_is_a_result_without_a_winner() -> None:
    result = read_result("Void")
    assert result == DeclaredResult(None, "void", "Void")
    assert understood(result)


@pytest.mark.parametrize(
    ("text", "winner", "reason"),
    [
        ("黑胜", "black", None),
        ("白胜", "white", None),
        ("黑勝", "black", None),
        ("黑方胜", "black", None),
        ("白方胜", "white", None),
        ("黑中盘胜", "black", "resign"),
        ("白中盘胜", "white", "resign"),
        ("白超时胜", "white", "time"),
        ("黑胜(禁手)", "black", "foul"),
        ("白胜（禁手）", "white", "foul"),  # full-width brackets
        ("白胜 (超时)", "white", "time"),
        ("黑负", "white", None),
        ("黑超时负", "white", "time"),
        ("白认输", "black", "resign"),
        ("和棋", "draw", None),
        ("和", "draw", None),
        ("和局", "draw", None),
        ("平局", "draw", None),
        ("协议和棋", "draw", "agreement"),
        (" 黑 胜 ", "black", None),
    ],
)
def test_chinese(text: str, winner: str, reason: str | None) -> None:
    assert _read(text) == (winner, reason)


@pytest.mark.parametrize(
    ("text", "winner", "reason"),
    [
        ("黒勝ち", "black", None),
        ("白勝ち", "white", None),
        ("先手勝ち", "black", None),
        ("後手勝ち", "white", None),
        ("黒の勝ち", "black", None),
        ("黒中押し勝ち", "black", "resign"),
        ("白時間切れ勝ち", "white", "time"),
        ("黒反則負け", "white", "foul"),
        ("引き分け", "draw", None),
    ],
)
def test_japanese(text: str, winner: str, reason: str | None) -> None:
    assert _read(text) == (winner, reason)


@pytest.mark.parametrize(
    ("text", "winner", "reason"),
    [
        ("흑승", "black", None),
        ("백승", "white", None),
        ("흑 승", "black", None),
        ("흑 불계승", "black", "resign"),
        ("백 시간승", "white", "time"),
        ("흑 반칙패", "white", "foul"),
        ("무승부", "draw", None),
    ],
)
def test_korean(text: str, winner: str, reason: str | None) -> None:
    assert _read(text) == (winner, reason)


@pytest.mark.parametrize(
    ("text", "winner", "reason"),
    [
        ("победа черных", "black", None),
        ("победа чёрных", "black", None),
        ("Победа белых", "white", None),
        ("победа белых по времени", "white", "time"),
        ("черные выиграли", "black", None),
        ("чёрные выиграли", "black", None),
        ("белые сдались", "black", "resign"),
        ("ничья", "draw", None),
        ("ничья по соглашению", "draw", "agreement"),
    ],
)
def test_russian(text: str, winner: str, reason: str | None) -> None:
    assert _read(text) == (winner, reason)


@pytest.mark.parametrize("text", ["", "  ", "unknown", "Unknown", "?", "*", "??"])
def test_no_declared_result(text: str) -> None:
    assert read_result(text) is None


@pytest.mark.parametrize(
    "text", ["xyz", "B", "黑", "black white", "победа", "1-1", "胜", "B+R h8 h9"]
)
def test_words_not_understood(text: str) -> None:
    result = read_result(text)
    assert result == DeclaredResult(None, None, text)
    assert not understood(result)
    assert repr(text) in not_understood(text)


def test_understood() -> None:
    assert understood(DeclaredResult("black"))
    assert understood(DeclaredResult(None, "void"))
    assert not understood(DeclaredResult(None, None, "xyz"))


@pytest.mark.parametrize(
    ("text", "winner"),
    [
        ("1", "black"),
        ("1.0", "black"),
        ("0", "white"),
        (" 0.0 ", "white"),
        ("0.5", "draw"),
        (".5", "draw"),
        ("1/2", "draw"),
        ("½", "draw"),
        ("2", None),
        ("black", None),
        ("", None),
    ],
)
def test_black_score(text: str, winner: str | None) -> None:
    assert read_black_score(text) == winner


def test_long_hostile_values_are_read_in_linear_time() -> None:
    start = time.perf_counter()
    for text in ("(" * 200_000, "a()" * 100_000 + ")", "黑" * 200_000 + "胜", "B+" + "(" * 200_000):
        read_result(text)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("word", ["1-0", "B+R", "black", "Wins", "unknown", "*", "黑胜", "победа"])
def test_words_that_may_be_in_a_phrase(word: str) -> None:
    assert may_be_in_phrase(word)


@pytest.mark.parametrize("word", ["h8", "b12", "N=2", "swap", "3.", "{j10", "j12\ufffd", "pass"])
def test_words_that_are_in_no_phrase(word: str) -> None:
    assert not may_be_in_phrase(word)
