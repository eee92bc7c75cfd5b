"""Tests of the JSON Lines reader: what a line must hold to be a record."""

from __future__ import annotations

import io

from renju_cli.formats import ReadOptions, jsonl
from renju_cli.record import Record


def read_jsonl(text: str) -> list[Record]:
    return list(jsonl.read(io.BytesIO(text.encode()), "games.jsonl", ReadOptions()))


def test_a_line_without_the_moves_key_is_unreadable_not_a_game_of_no_moves() -> None:
    # each passed as a clean record of 0 moves, and the batch exited 0
    records = read_jsonl('{"Moves":"h8 h9 i9 j10"}\n{}\n{"move":"h8 h9"}\n')
    assert [r.unreadable for r in records] == [True, True, True]
    assert [r.source.line for r in records] == [1, 2, 3]
    assert [p.message for r in records for p in r.problems] == [
        "line 1: expected the key 'moves' (a string in standard notation or a list of points); "
        "its keys are 'Moves'",
        "line 2: expected the key 'moves' (a string in standard notation or a list of points); "
        "the object is empty",
        "line 3: expected the key 'moves' (a string in standard notation or a list of points); "
        "its keys are 'move'",
    ]
    assert [p.line for r in records for p in r.problems] == [1, 2, 3]


def test_the_keys_named_for_a_line_without_moves_are_bounded() -> None:
    keys = ", ".join(f'"{"k" * 30}{n}": 1' for n in range(1000))
    [record] = read_jsonl("{" + keys + "}\n")
    [problem] = record.problems
    assert problem.fatal and len(problem.message) < 300
    assert problem.message.endswith(f"'{'k' * 20}...' and 995 more")


def test_moves_as_a_string_or_a_list_even_empty_are_read() -> None:
    records = read_jsonl(
        '{"moves": "h8 h9"}\n{"moves": ["h8", "h9", "i9"]}\n{"moves": ""}\n{"moves": []}\n'
    )
    assert [len(r.moves) for r in records] == [2, 3, 0, 0]
    assert not any(r.problems for r in records)
