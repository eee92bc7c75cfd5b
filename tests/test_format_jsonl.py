"""Tests of the JSON Lines reader: what a line must hold to be a record."""

from __future__ import annotations

import inspect
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.cli import cli
from renju_cli.formats import ReadOptions, jsonl
from renju_cli.record import DeclaredResult, Record


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


# --- nesting: bounded by the reader, whatever the caller's stack -------------------------------

DEPTH = jsonl.MAX_JSON_DEPTH
FIELDS = ("size", "moves", "metadata")


def nested_line(field: str, d: int) -> bytes:
    """A line whose ``field`` holds arrays ``d`` deep."""
    inner = b"[" * d + b"]" * d
    if field == "moves":
        return b'{"moves":{"a":' + inner + b"}}\n"
    if field == "metadata":
        return b'{"moves":"h8","metadata":{"a":' + inner + b"}}\n"
    return b'{"moves":"h8","' + field.encode() + b'":' + inner + b"}\n"


def line_depth(field: str, d: int) -> int:
    """How deep ``nested_line(field, d)`` nests, its own object counted."""
    return d + (1 if field == "size" else 2)


def deep_file(field: str, depths: range) -> bytes:
    """Deep lines between good ones, a hostile file at a small size."""
    good = b'{"moves":"h8 h9 i10"}\n'
    return good + b"".join(nested_line(field, d) + good for d in depths)


def read_bytes(data: bytes, options: ReadOptions | None = None) -> list[Record]:
    return list(jsonl.read(io.BytesIO(data), "deep.jsonl", options or ReadOptions()))


def outcome(records: list[Record]) -> list[tuple[int | None, bool, list[str], dict[str, str]]]:
    return [
        (r.source.line, r.unreadable, [p.message for p in r.problems], r.metadata) for r in records
    ]


@pytest.mark.parametrize("field", FIELDS)
def test_lines_nested_900_to_1000_deep_are_findings_and_every_line_is_checked(
    field: str, tmp_path: Path
) -> None:
    # these made ``renju check`` exit 3 (internal error) and drop the rest of the file: the
    # decoder took them, then the encoder overflowed the stack on the value for the message
    path = tmp_path / f"deep-{field}.jsonl"
    path.write_bytes(deep_file(field, range(900, 1000)))
    run = CliRunner().invoke(cli, ["check", str(path), "--format", "json"])
    assert run.exit_code == 1, run.output
    records = json.loads(run.output)["records"]
    assert [r["source"]["line"] for r in records] == list(range(1, 202))
    for r in records:
        line = r["source"]["line"]
        if line % 2:
            assert r["findings"] == [] and not r["unreadable"], r
        else:
            [finding] = r["findings"]
            assert finding["code"] == "parse-error" and finding["line"] == line
            assert finding["message"] == (
                f"line {line}: not valid JSON: nested too deeply (arrays and objects deeper "
                f"than {DEPTH} levels)"
            )


def test_the_bound_is_the_depth_of_the_line_itself() -> None:
    for field in FIELDS:
        at = DEPTH - line_depth(field, 0)
        inside, past = read_bytes(nested_line(field, at) + nested_line(field, at + 1))
        assert not any("nested too deeply" in p.message for p in inside.problems)
        assert past.unreadable and "nested too deeply" in past.problems[0].message
    size, moves, meta = read_bytes(
        b"".join(nested_line(f, DEPTH - line_depth(f, 0)) for f in FIELDS)
    )
    assert size.problems[0].message.startswith("line 1: 'size' must be a whole number")
    assert size.problems[0].message.endswith("...; the ruleset's size is used")
    assert moves.unreadable and "to be a string in standard notation" in moves.problems[0].message
    assert meta.metadata == {"a": "[" * (DEPTH - 2) + "]" * (DEPTH - 2)}
    assert not meta.problems


def test_a_lower_depth_limit_leaves_json_lines_alone() -> None:
    # --limit depth bounds XML, SGF and RenLib; a record nests two or three deep, and a bound
    # lowered for those must not turn it away (the JSON bound is MAX_JSON_DEPTH, fixed)
    ok, also = read_bytes(
        b'{"moves":"h8","metadata":{"a":[[]]}}\n{"moves":"h8","metadata":{"a":[[[]]]}}\n',
        ReadOptions(max_depth=2),
    )
    assert ok.metadata == {"a": "[[]]"} and not ok.problems
    assert also.metadata == {"a": "[[[]]]"} and not also.problems


@pytest.mark.parametrize("tail", [b" " + b"[" * 600, b", " + b"[" * 600])
def test_a_broken_line_says_what_the_decoder_says_whatever_brackets_follow(tail: bytes) -> None:
    # the depth is told once the line decodes: brackets past where a broken line stops being
    # JSON said "nested too deeply" instead of what is wrong with it
    [record] = read_bytes(b'{"moves":"h8"}' + tail + b"\n", ReadOptions())
    said = record.problems[0].message
    assert said.startswith("line 1: not valid JSON: ") and "nested too deeply" not in said


def test_brackets_in_strings_and_escapes_do_not_count() -> None:
    many = "[" * 2000 + "]" * 3000 + '\\"[{' * 1000
    [record] = read_jsonl(json.dumps({"moves": "h8", "metadata": {"note": many}}) + "\n")
    assert record.metadata == {"note": many} and not record.problems
    # a string left open runs to the end of the line: the decoder says so, not the bound
    [record] = read_jsonl('{"moves":"h8","a":"' + "[" * 2000)
    assert "Unterminated string" in record.problems[0].message


def test_a_line_is_read_alike_whatever_the_callers_stack() -> None:
    # the bound is counted in the line, not found by the stack overflowing, and the decoder
    # and encoder are given the room a line within it needs: a reader called deep in a stack,
    # or under a low recursion limit, reads every line as one called at the top
    data = b"".join(
        deep_file(field, range(DEPTH - line_depth(field, 0) - 3, DEPTH - line_depth(field, 0) + 4))
        for field in FIELDS
    )  # lines from 3 levels within the bound to 3 past it
    expected = outcome(read_bytes(data))
    assert sum("nested too deeply" in str(o) for o in expected) == 3 * 3

    options = ReadOptions()  # (made here: the caller's own calls need room too)

    def at_depth(n: int, stream: io.BytesIO) -> list[Record]:
        if n > 0:
            return at_depth(n - 1, stream)
        return list(jsonl.read(stream, "deep.jsonl", options))

    limit = sys.getrecursionlimit()
    for room in (20, 60, 200):  # (the reader needs some 11 frames of its own)
        frames = limit - room - len(inspect.stack(0))
        assert outcome(at_depth(frames, io.BytesIO(data))) == expected
        assert sys.getrecursionlimit() == limit
    lowered = len(inspect.stack(0)) + 20
    try:
        sys.setrecursionlimit(lowered)
        records = at_depth(0, io.BytesIO(data))
        assert sys.getrecursionlimit() == lowered
    finally:
        sys.setrecursionlimit(limit)
    assert outcome(records) == expected


def test_an_object_nested_too_deeply_is_refused_by_record_from_json() -> None:
    value: list[Any] = []
    for _ in range(5000):
        value = [value]
    cyclic: dict[str, Any] = {"moves": "h8"}
    cyclic["size"] = cyclic
    for obj in ({"moves": "h8", "size": value}, {"moves": "h8", "metadata": {"a": value}}, cyclic):
        record = jsonl.record_from_json(obj, "m.jsonl", 0, 7)
        assert record.unreadable
        assert record.problems[0].message == (
            f"line 7: not valid JSON: nested too deeply (arrays and objects deeper than {DEPTH} "
            "levels)"
        )
    odd = jsonl.record_from_json({"moves": "h8", "size": {1, 2}, "metadata": {"n": 10**5000}},
                                 "m.jsonl", 0, 1)  # fmt: skip
    assert odd.metadata == {"n": "a value of type int that JSON cannot write"}
    assert "not a value of type set that JSON cannot" in odd.problems[0].message


def test_sniff_bounds_nesting_too() -> None:
    deep = '{"moves":"h8","x":' + "[" * 1000 + "]" * 1000 + "}\n"
    shallow = '{"moves":"h8","x":' + "[" * 100 + "]" * 100 + "}\n"
    assert [jsonl.sniff(deep.encode()), jsonl.sniff(shallow.encode())] == [1, 2]
    # a UTF-16 head is scanned as its text, not its bytes: U+2200 is a NUL and a quote
    tricky = '{"moves":"h8","x":"\u2200","y":' + "[" * 600 + "]" * 600 + "}\n"
    assert jsonl.sniff(tricky.encode()) == 1
    assert jsonl.sniff(tricky.encode("utf-16-le")) == 0  # (no b'"moves"' in its bytes)
    assert jsonl.sniff(shallow.encode("utf-16-le")) == 2


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:\n\u00e9'),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=3), inner, max_size=3)
    ),
    max_leaves=30,
)


def value_depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(value_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(value_depth, value), default=0)
    return 0


@given(json_values, st.booleans())
@settings(max_examples=300, deadline=None)
def test_the_scan_of_a_line_finds_the_depth_of_its_value(value: Any, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only).encode()
    depth = value_depth(value)
    for bound in range(max(depth - 2, 0), depth + 2):
        assert jsonl._nests_deeper(text, bound) == (depth > bound)
    assert not jsonl._value_nests_deeper(value, depth)
    assert jsonl._value_nests_deeper(value, depth - 1) == (depth > 0)


@given(
    st.lists(st.tuples(st.sampled_from(FIELDS), st.integers(1, 2 * DEPTH)), max_size=6),
    st.integers(0, 300),
)
@settings(max_examples=40, deadline=None)
def test_every_line_is_a_record_at_any_depth_and_stack(
    lines: list[tuple[str, int]], room: int
) -> None:
    data = b"".join(nested_line(field, d) for field, d in lines)

    options = ReadOptions()

    def at_depth(n: int, stream: io.BytesIO) -> list[Record]:
        if n > 0:
            return at_depth(n - 1, stream)
        return list(jsonl.read(stream, "deep.jsonl", options))

    records = at_depth(
        sys.getrecursionlimit() - 20 - room - len(inspect.stack(0)), io.BytesIO(data)
    )
    assert [r.source.line for r in records] == list(range(1, len(lines) + 1))
    for record, (field, d) in zip(records, lines, strict=True):
        too_deep = line_depth(field, d) > DEPTH
        assert too_deep == any("nested too deeply" in p.message for p in record.problems)
        assert record.unreadable == (too_deep or field == "moves")


def test_results_in_the_words_archives_use() -> None:
    records = read_jsonl(
        '{"moves": "h8", "result": "黑中盘胜"}\n'
        '{"moves": "h8", "result": "B+T"}\n'
        '{"moves": "h8", "result": "unknown"}\n'
        '{"moves": "h8", "result": "*"}\n'
    )
    assert [r.declared_result for r in records] == [
        DeclaredResult("black", "resign", "黑中盘胜"),
        DeclaredResult("black", "time", "B+T"),
        None,
        None,
    ]
    assert all(r.problems == [] for r in records)


def test_a_result_object_keeps_its_reason_and_text() -> None:
    # what ``write`` writes reads back the same
    text = '{"moves": "h8", "result": {"winner": "white", "reason": "time", "text": "W+T"}}\n'
    (record,) = read_jsonl(text)
    assert record.declared_result == DeclaredResult("white", "time", "W+T")
    out = io.StringIO()
    jsonl.write([record], out)
    (again,) = read_jsonl(out.getvalue())
    assert again.declared_result == record.declared_result


@pytest.mark.parametrize(
    "line",
    ['{"moves": "h8", "result": "Blue won"}', '{"moves": "h8", "result": {"winner": "Blue won"}}'],
)
def test_result_words_not_understood_are_an_info_problem_quoting_them(line: str) -> None:
    (record,) = read_jsonl(line + "\n")
    assert record.declared_result is not None and record.declared_result.winner is None
    (problem,) = record.problems
    assert problem.severity == "info" and problem.line == 1
    assert (
        problem.message
        == "line 1: declared result 'Blue won' not understood: no declared winner to compare"
    )
