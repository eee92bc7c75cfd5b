"""The library API: read records, judge them.  The CLI is a thin layer over this.

``analyze`` is a plain, picklable top-level function (record text or parsed record + ruleset name
→ JSON-ready dict), so that users can run it on any distributed engine (``multiprocessing``,
``concurrent.futures``, Dask, Ray, Spark...): records, rulesets and reports pickle, and a bad
record never raises (see ``docs/scale-out.md``).  Batches with ordering, duplicates and a process
pool are in ``renju_cli.batch``; finding and reading inputs in ``renju_cli.inputs``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from renju_cli import formats
from renju_cli.batch import Batch
from renju_cli.board import BLACK, WHITE, Board
from renju_cli.formats import ReadOptions, unreadable
from renju_cli.inputs import (
    InputError,
    expand_inputs,
    not_the_output,
    read_bytes,
    read_path,
)
from renju_cli.judge import Judgements
from renju_cli.record import Record
from renju_cli.referee import position, replay
from renju_cli.report import GameReport
from renju_cli.ruleset import Ruleset, load
from renju_cli.tasks import DEFAULT_RULES, Settings, choose_ruleset, judge_one, walk_key

__all__ = [
    "DEFAULT_RULES",
    "BoardPosition",
    "InputError",
    "analyze",
    "analyze_all",
    "check_paths",
    "choose_ruleset",
    "expand_inputs",
    "judge_record",
    "not_the_output",
    "position_after",
    "read_bytes",
    "read_path",
]


def analyze(
    record: Record | str | bytes | bytearray | memoryview,
    rules: str | Ruleset | None = None,
    *,
    path: str = "<string>",
    fmt: str | None = None,
) -> dict[str, Any]:
    """Judge one record and return its report as a JSON-ready dict (the ``check`` record object).

    ``record`` is a parsed ``Record`` or the text of one record in any format ``renju check``
    reads (``"black h8 h9 i8 ..."``, SGF, a board diagram...; ``fmt`` forces the format, and a
    text with several records gives the first: see ``analyze_all``).  ``rules`` is a shipped
    ruleset name, a YAML path or a ``Ruleset``; when ``None`` the record's own rule is used if it
    names a shipped ruleset, else ``renju``.  ``path`` names the record in the report.

    A bad record never raises: what is wrong becomes findings, and a bug met while judging it an
    ``internal-error`` finding.  An unknown ruleset raises ``RulesetError`` (a configuration
    error, not a record's).  The function is picklable and keeps no state between calls.
    """
    path = os.fspath(path)  # (a Path in the report made it no JSON)
    if isinstance(record, (str, bytes, bytearray, memoryview)):
        records = analyze_all(record, rules, path=path, fmt=fmt)
        return records[0]
    if not isinstance(record, Record):
        raise TypeError(_not_a_record(record))
    return judge_one(record, Settings(_ruleset_or_none(rules))).report.to_json()


def analyze_all(
    text: str | bytes | bytearray | memoryview,
    rules: str | Ruleset | None = None,
    *,
    path: str = "<string>",
    fmt: str | None = None,
) -> list[dict[str, Any]]:
    """Judge every record of a text (a whole file's content) and return their reports, in
    order; as ``analyze`` otherwise.  An empty text gives one unreadable record; a text that
    no reader recognises is read as a move list (``read_bytes``), where ``renju check`` says
    of a file that it matches no known record format.
    """
    path = os.fspath(path)
    settings = Settings(_ruleset_or_none(rules))
    out = []
    # (the bounds of ``renju check`` on the file: the same reports)
    for record in read_bytes(
        _data(text), path, fmt, walk_key=functools.partial(walk_key, settings)
    ):
        out.append(judge_one(record, settings).report.to_json())
    return out or [judge_one(unreadable(path, "no record found"), settings).report.to_json()]


def _data(text: str | bytes | bytearray | memoryview) -> bytes:
    """The bytes of a record's text, for the readers."""
    if isinstance(text, str):
        return _utf8(text)
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    raise TypeError(_not_a_record(text))


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8 for the readers, whatever it holds: a lone surrogate (a name decoded
    with ``surrogateescape``, or cut from JSON) raised ``UnicodeEncodeError``; its bytes are
    given back, or written as they stand, and the reader says they are not valid UTF-8."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _not_a_record(value: object) -> str:
    if isinstance(value, os.PathLike):
        return (
            f"a path ({os.fspath(value)!r}) is not a record: pass its content "
            "(Path.read_bytes()), or check it with check_paths"
        )
    return f"a record is a Record, or the text of one as str or bytes, not {type(value).__name__}"


def _ruleset_or_none(rules: str | os.PathLike[str] | Ruleset | None) -> Ruleset | None:
    if rules is None or isinstance(rules, Ruleset):
        return rules
    if isinstance(rules, (str, os.PathLike)):
        return load(os.fspath(rules))
    raise TypeError(
        "rules is a shipped ruleset's name, a YAML file's path or a Ruleset, not "
        f"{type(rules).__name__}"
    )


def judge_record(record: Record, rules: str | Ruleset | None = None) -> GameReport:
    """Replay one record under the chosen ruleset (see ``analyze``) and return its report.

    A bug in the referee propagates; ``renju_cli.batch.judge_one`` turns it into a finding.
    """
    return replay(record, choose_ruleset(record, rules))


def check_paths(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    rules: str | Ruleset | None = None,
    fmt: str | None = None,
    options: ReadOptions | None = None,
    *,
    jobs: int = 1,
) -> Iterator[GameReport]:
    """Judge every record of every input, in input order (``jobs`` > 1: on a process pool,
    with the same result).  ``paths``: paths, directories, patterns, ``-`` (one given alone,
    as a ``str`` or a path, is one input).  An input that cannot be found is an unreadable
    record.  An unknown ``fmt`` raises ``ValueError``."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]  # (a str iterated gave its characters: "/" walked the whole disk)
    paths = list(paths)
    if not all(isinstance(p, (str, os.PathLike)) for p in paths):
        raise TypeError("paths are str or os.PathLike (a list of them, or one)")
    if fmt is not None:
        formats.load(fmt)  # (an unknown one raises ValueError, as for analyze)
    batch = Batch(
        list(expand_inputs(os.fspath(p) for p in paths)),
        rules=_ruleset_or_none(rules),
        fmt=fmt,
        options=options,
        jobs=jobs,
    )
    return (report for _, report in batch)  # (not a generator function: it raises at the call)


# -- positions ----------------------------------------------------------------------------------
@dataclass
class BoardPosition:
    """A board after some moves of a record, with its points as board indices (for
    renderers, which draw by index)."""

    board: Board
    to_move: int  # board.BLACK or board.WHITE
    played: int  # moves applied
    numbers: dict[int, int]  # board index -> move number


def position_after(
    record: Record, ruleset: Ruleset, at: int | None = None, within: Judgements | None = None
) -> BoardPosition:
    """Place the setup stones and the first ``at`` moves (all when ``None``), as the referee
    walks them (``referee.position``, which this gives with board indices)."""
    pos = position(record, ruleset, at, within)
    board = pos.board
    to_move = BLACK if pos.to_move.value == "black" else WHITE
    numbers = {board.index(p): n for p, n in pos.numbers.items()}
    return BoardPosition(board, to_move, pos.played, numbers)
