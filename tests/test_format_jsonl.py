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


def test_a_moves_value_neither_a_string_nor_a_list_is_unreadable() -> None:
    # {"moves": null} was a judged game of 0 moves (with an error), while a line without the
    # key was unreadable: what the line holds cannot be told in either case
    lines = [
        '{"moves": null, "result": "black"}',
        '{"moves": 42}',
        '{"moves": {"b": "h8"}}',
        '{"moves": true}',
        '{"moves": 1.5e3}',
        '{"moves": ' + "9" * 5000 + "}",  # past what int() takes: kept as its digits
    ]
    records = read_jsonl("\n".join(lines) + "\n")
    assert [r.unreadable for r in records] == [True] * 6
    assert [r.moves for r in records] == [[]] * 6
    assert [p.line for r in records for p in r.problems] == [1, 2, 3, 4, 5, 6]
    said = "expected the key 'moves' to be a string in standard notation or a list of points"
    assert [p.message for r in records for p in r.problems] == [
        f"line 1: {said}, not null",
        f"line 2: {said}, not 42",
        f'line 3: {said}, not {{"b": "h8"}}',
        f"line 4: {said}, not true",
        f"line 5: {said}, not 1500.0",
        f"line 6: {said}, not a number of 5000 digits",
    ]
    # the empty string and the empty list stay a game of no moves, a list of other things a
    # judged record with its error (as before)
    empty, none, mixed = read_jsonl('{"moves": ""}\n{"moves": []}\n{"moves": ["h8", 1]}\n')
    assert not empty.unreadable and not none.unreadable and not (empty.problems + none.problems)
    assert not mixed.unreadable and "as a list must hold points" in mixed.problems[0].message
