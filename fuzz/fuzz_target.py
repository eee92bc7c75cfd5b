"""The fuzz target: one input through a reader and the referee, with the invariants checked.

``run_input`` is what every fuzzer here calls (the mutation harness, the atheris entry point and
the regression test): anything it raises is a bug.  Problems with the *content* must come back as
records with ``problems`` (``parse-error`` findings), never as exceptions.
"""

from __future__ import annotations

import functools
import io
import json
import zlib
from typing import Any

import yaml

from renju_cli.api import judge_record
from renju_cli.coords import MAX_SIZE, MIN_SIZE
from renju_cli.formats import FORMAT_MODULES, ReadOptions, read_stream
from renju_cli.output.json import dumps
from renju_cli.output.text import TextRenderer
from renju_cli.record import ParseProblem, Record
from renju_cli.referee import replay
from renju_cli.report import Summary
from renju_cli.ruleset import Ruleset, RulesetError, from_text, load, shipped_names

#: Every reader, in a fixed order (inputs are also read with each of them, not only detected).
FORMATS: tuple[str, ...] = tuple(FORMAT_MODULES)
OPTIONS = ReadOptions()
#: Records replayed per input: reading is checked for all, judging for the first few (speed).
REPLAY_LIMIT = 64


class InvariantBroken(AssertionError):
    """A record or report that breaks a guarantee (not a crash, but just as much a bug)."""


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise InvariantBroken(what)


def check_record(record: Any, path: str, options: ReadOptions = OPTIONS) -> None:
    """The guarantees every yielded record keeps, whatever the input."""
    _require(isinstance(record, Record), f"reader yielded {type(record).__name__}, not a Record")
    _require(record.source.path == path, f"source.path {record.source.path!r} != {path!r}")
    _require(record.source.index >= 0, "negative source.index")
    _require(len(record.moves) <= options.max_moves, f"{len(record.moves)} moves past the bound")
    for side in (record.width, record.height):
        _require(
            side is None or (type(side) is int and MIN_SIZE <= side <= MAX_SIZE),
            f"board side {side!r} outside {MIN_SIZE}..{MAX_SIZE}",
        )
    for problem in record.problems:
        _require(isinstance(problem, ParseProblem), "a problem is not a ParseProblem")
        _require(isinstance(problem.message, str) and bool(problem.message), "empty problem text")
    for key, value in record.metadata.items():
        _require(isinstance(key, str) and isinstance(value, str), "metadata not str -> str")
        _require(len(value) <= 4 * options.max_string, "metadata value past max_string")


#: Bounds as low as ``--limit`` makes them (each at 1 would leave little to read): inputs read
#: under them reach the code that cuts records, lines, trees and files short.
TIGHT = ReadOptions(max_moves=3, max_records=3, max_depth=3, max_string=8, max_file=64)


def run_input(
    data: bytes, fmt: str | None, path: str = "fuzz.input", options: ReadOptions = OPTIONS
) -> int:
    """Read ``data`` as ``fmt`` (detected when ``None``) under ``options``, judge and render;
    the record count.

    Raises on a crash (any exception) or a broken invariant.
    """
    stream = io.BufferedReader(io.BytesIO(data))
    count = 0
    turn = zlib.crc32(data)  # which protocol the first record is judged under
    last_index = -1
    text = TextRenderer(io.StringIO())
    summary = Summary()
    for record in read_stream(stream, path, fmt, options):
        check_record(record, path, options)
        _require(record.source.index >= last_index, "source.index went backwards")
        last_index = record.source.index
        if count < REPLAY_LIMIT:
            report = judge_record(record)
            # and under an opening protocol, one after the other: records seldom name one,
            # and some crashes only a protocol reaches (symmetric offers after a rejection)
            protocols = _protocol_rulesets()
            replay(record, protocols[(count + turn) % len(protocols)]).to_json()
            _require(report.unreadable == record.unreadable, "unreadable flag lost in the report")
            if record.problems:
                listed = sum(f.code == "parse-error" for f in report.findings)
                elided = sum((f.counts or {}).get("parse-error", 0) for f in report.findings)
                _require(listed + elided >= len(record.problems), "problem lost")
            # as renju check writes it: JSON that a UTF-8 stream takes (a lone surrogate in a
            # record's text must not fail the run)
            dumps(report.to_json()).encode("utf-8")
            text.record(report)
            summary.add(report)
        count += 1
    text.finish(summary)
    text.out.getvalue().encode("utf-8")  # type: ignore[attr-defined]
    _require(count <= options.max_records + 1, "more records than max_records")
    return count


#: A small record that every fuzzed ruleset is tried on.
_PROBE = b"h8 h9 i8 g8 j8 k8 i9 i10 j10 k11 pass pass h10 a1 z26"


def run_ruleset(data: bytes) -> bool:
    """Load ``data`` as a ruleset; when it loads, judge a probe record under it.

    Returns whether it loaded.  Only ``RulesetError`` may come out of the loader.
    """
    text = data.decode("utf-8", errors="replace")
    try:
        ruleset = from_text(text, "fuzz.yaml")
    except RulesetError as e:
        _require(bool(str(e)), "empty ruleset error")
        return False
    for record in read_stream(io.BufferedReader(io.BytesIO(_PROBE)), "probe", "notation"):
        json.dumps(replay(record, ruleset).to_json())
    return True


@functools.cache
def _protocol_rulesets() -> tuple[Ruleset, ...]:
    """The shipped rulesets with an opening protocol, in name order."""
    loaded = (load(name) for name in shipped_names())
    return tuple(r for r in loaded if r.opening)


def warm_up() -> None:
    """Import every reader and load the shipped rulesets once (so timings are per input)."""
    for name in FORMATS:
        run_input(b"h8 h9", name)
    load("renju")
    yaml.safe_load("a: 1")
