"""The library API (``import renju_cli as rj``; ``docs/api.md``): read games, judge them.

``load_rules``, ``parse_game`` and ``read_games`` give rulesets and games; ``replay`` judges a
game into a typed ``Report`` (what ``renju check`` reports of it), ``position`` walks a game to
a move, ``forbidden_points`` tells black's forbidden points on a board.  Nothing here raises for
a bad record: what is wrong with it is in its report.

``analyze`` is the one-call form, a plain, picklable top-level function (record text or parsed
record + ruleset name → JSON-ready dict), so that users can run it on any distributed engine
(``multiprocessing``, ``concurrent.futures``, Dask, Ray, Spark...; see ``docs/scale-out.md``).
Batches with ordering, duplicates and a process pool are in ``renju_cli.batch``; finding and
reading inputs in ``renju_cli.inputs``.  The CLI is a thin layer over these.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import BinaryIO, TypeAlias

from renju_cli import formats
from renju_cli import report as report_model
from renju_cli.batch import Batch
from renju_cli.board import BLACK, WHITE, Board
from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, unreadable
from renju_cli.inputs import (
    InputError,
    expand_inputs,
    not_the_output,
    read_binary,
    read_bytes,
    read_path,
)
from renju_cli.judge import Judgements
from renju_cli.record import Color, Record, SourceLocation
from renju_cli.referee import position as referee_position
from renju_cli.referee import replay as referee_replay
from renju_cli.report import GameReport
from renju_cli.ruleset import Ruleset, RulesetError, load
from renju_cli.tasks import (
    DEFAULT_RULES,
    Settings,
    choose_ruleset,
    judge_one,
    read_file,
    walk_key,
)

#: A JSON value, as ``json.loads`` gives it.
Json: TypeAlias = bool | int | float | str | list["Json"] | dict[str, "Json"] | None

#: What names a ruleset: a shipped ruleset's name, a YAML file's path, or a loaded ``Ruleset``.
Rules: TypeAlias = str | os.PathLike[str] | Ruleset


__all__ = [
    "DEFAULT_RULES",
    "Board",
    "BoardPosition",
    "Color",
    "Declared",
    "Finding",
    "FirstFive",
    "ForbiddenMove",
    "Game",
    "InputError",
    "Json",
    "Point",
    "Position",
    "Report",
    "Result",
    "Rules",
    "Ruleset",
    "RulesetError",
    "Source",
    "analyze",
    "analyze_all",
    "check_paths",
    "choose_ruleset",
    "expand_inputs",
    "forbidden_points",
    "judge_record",
    "load_rules",
    "not_the_output",
    "parse_game",
    "position",
    "position_after",
    "read_bytes",
    "read_games",
    "read_path",
    "replay",
]


def analyze(
    record: Record | str | bytes | bytearray | memoryview,
    rules: str | Ruleset | None = None,
    *,
    path: str = "<string>",
    fmt: str | None = None,
) -> dict[str, Json]:
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
    path = os.fspath(path)  # (a Path in the report would be no JSON)
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
) -> list[dict[str, Json]]:
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
    with ``surrogateescape``, or cut from JSON) would raise ``UnicodeEncodeError``; its bytes
    are given back, or written as they stand, and the reader says they are not valid UTF-8."""
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


def _ruleset_or_none(rules: Rules | None) -> Ruleset | None:
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

    A bug in the referee propagates; ``replay`` (and ``renju_cli.tasks.judge_one``) turns it
    into a finding.
    """
    return referee_replay(record, choose_ruleset(record, rules))


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
        paths = [paths]  # (a str iterated gives its characters: "/" would walk the whole disk)
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


# -- the typed API ------------------------------------------------------------------------------
def load_rules(rules: str | os.PathLike[str]) -> Ruleset:
    """A shipped ruleset by name (``"renju"``, ``"renju-rif"``, ``"standard"``,
    ``"freestyle"``...) or a ruleset's YAML file by path.  Raises ``RulesetError`` saying
    what is wrong with it."""
    return load(os.fspath(rules))


@dataclass(frozen=True, repr=False)
class Game:
    """One game record as a reader read it: its moves, the result it declares, its metadata,
    and where it comes from.  ``record`` is the reader's full record (setup stones, opening
    events, problems...).  A record that could not be read is a game too: its report says
    why.  Games pickle."""

    record: Record
    #: the run the game was read in: its bounds, shared by the games of one read
    _run: Settings = field(default_factory=Settings, repr=False, compare=False)
    #: the report of a record whose reading failed (a bug in a reader), made as it was read
    _failed: GameReport | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        source = self.record.source
        return f"<Game {source.path}#{source.id}: {self.format}, {len(self.record.moves)} moves>"

    @property
    def moves(self) -> tuple[Point | None, ...]:
        """The points played, in order; ``None`` for a pass."""
        return tuple(move.point for move in self.record.moves)

    @property
    def source(self) -> Source:
        """Where the record comes from."""
        return Source.of(self.record.source)

    @property
    def format(self) -> str:
        """The format it was read from (``notation``, ``sgf``, ``renjunet``...)."""
        return self.record.format

    @property
    def rule(self) -> str | None:
        """The rule the record names itself, if any (a shipped one judges it by default)."""
        return self.record.rule

    @property
    def declared_result(self) -> Declared | None:
        """The result the record states, if it states one."""
        declared = self.record.declared_result
        if declared is None:
            return None
        return Declared(declared.winner, declared.reason, declared.text)

    @property
    def metadata(self) -> Mapping[str, str]:
        """Players, event, date... as the file gives them."""
        return self.record.metadata

    @property
    def unreadable(self) -> bool:
        """Whether the reader could not recover the record at all."""
        return self._failed is not None or self.record.unreadable


def parse_game(
    text: str | bytes | bytearray | memoryview,
    *,
    fmt: str | None = None,
    path: str | os.PathLike[str] = "<string>",
) -> Game:
    """The game that ``text`` records, in any format ``renju check`` reads (a move list, SGF,
    a board diagram, a JSON object...; ``fmt`` names the format, else it is told from the
    text and a text that no reader recognises is read as a move list).  A text of several
    records gives the first (``read_games`` gives them all).  ``path`` names it in reports.
    Never raises for a bad record: it is a game whose report says what is wrong."""
    name = os.fspath(path)
    run = Settings()
    walks = functools.partial(walk_key, run)
    for record in read_bytes(_data(text), name, fmt, walk_key=walks):
        return Game(record, run)
    return Game(unreadable(name, "no record found"), run)


def read_games(
    source: str | os.PathLike[str] | BinaryIO,
    rules: Rules | None = None,
    *,
    fmt: str | None = None,
) -> Iterator[Game]:
    """Every game of a file, lazily, in order: one per record as ``renju check`` counts
    them (each line of a variation tree is a game).  ``source`` is a path (``-``: standard
    input) or a binary file object, read from where it stands and not closed.  The file is
    read within the bounds ``renju check`` sets; ``rules``, when given, is the ruleset the
    games will be replayed by (its openings bound a file's distinct openings, as ``--rules``
    does), and ``replay`` takes it by default.  A file that cannot be read is one game whose
    report says why; ``fmt`` names the format, else it is told from the file."""
    run = Settings(_ruleset_or_none(rules))
    walks = functools.partial(walk_key, run)
    if isinstance(source, (str, os.PathLike)):
        for item in read_file(os.fspath(source), fmt, None, run):
            yield _game(item, run)
        return
    name = getattr(source, "name", None)
    for record in read_binary(
        source, name if isinstance(name, str) else "<stream>", fmt, None, walks
    ):
        yield Game(record, run)


def _game(item: Record | GameReport, run: Settings) -> Game:
    if isinstance(item, GameReport):  # a reader failed: its report says where and why
        lost = Record(moves=[], source=item.source, format=item.format)
        return Game(lost, run, item)
    return Game(item, run)


@dataclass(frozen=True)
class Source:
    """Where a record comes from: its file, its ``index`` in the file (from 0), the line it
    starts on (text formats) or its byte ``offset`` (binary ones), and for a line of a
    variation tree other than the main line, its ``variation``.  ``id`` is what ``renju
    show --record`` takes."""

    path: str
    index: int
    line: int | None = None
    offset: int | None = None
    variation: str | None = None
    id: str = ""

    @classmethod
    def of(cls, source: SourceLocation) -> Source:
        return cls(
            source.path, source.index, source.line, source.offset, source.variation, source.id
        )


@dataclass(frozen=True)
class Result:
    """How the game ended on the board: ``winner`` (``"black"``, ``"white"``, ``"draw"``, or
    ``None`` while undecided), ``reason`` (``"five"``, ``"overline"``, ``"forbidden"``,
    ``"passes"``, ``"board-full"``, ``"move-limit"``), and the move and point that ended it."""

    winner: str | None = None
    reason: str | None = None
    move: int | None = None
    point: Point | None = None

    @property
    def decided(self) -> bool:
        """Whether the game ended."""
        return self.winner is not None


@dataclass(frozen=True)
class FirstFive:
    """The first winning row on the board: the move that made it, its colour, its point and
    its stones in line order."""

    move: int
    color: str
    point: Point
    stones: tuple[Point, ...]


@dataclass(frozen=True)
class ForbiddenMove:
    """A move black played on a forbidden point, and why it is forbidden (``"double-three"``,
    ``"double-four"``, ``"overline"``)."""

    move: int
    point: Point
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Finding:
    """One problem or fact about a record (``code`` as in ``docs/`` and ``renju check``), with
    the move and point it is about when it is about one.  ``counts``: for
    ``too-many-findings``, the findings it stands for, by code."""

    code: str
    severity: str
    message: str
    move: int | None = None
    point: Point | None = None
    line: int | None = None
    offset: int | None = None
    counts: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Declared:
    """The result a record states (``winner`` ``"black"``, ``"white"``, ``"draw"`` or
    ``None``), how it says the game ended (``reason``) and its text as written."""

    winner: str | None
    reason: str | None = None
    text: str | None = None


@dataclass(frozen=True)
class Report:
    """What replaying one game found: how it ended (``result``), its first five, the
    forbidden moves black played, and every finding.  ``to_dict()`` is the record's object in
    the JSON of ``renju check``."""

    source: Source
    format: str
    ruleset: str
    moves: int
    result: Result
    first_five: FirstFive | None
    forbidden_moves: tuple[ForbiddenMove, ...]
    findings: tuple[Finding, ...]
    declared_result: Declared | None
    opening: Mapping[str, Json] | None
    metadata: Mapping[str, str]
    notes: tuple[str, ...]
    unreadable: bool
    _json: dict[str, Json] = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Json]:
        """The report as the JSON of ``renju check --format json`` has it (a new copy)."""
        copied: dict[str, Json] = copy.deepcopy(self._json)
        return copied

    @classmethod
    def of(cls, report: GameReport) -> Report:
        """The typed form of a referee's report."""
        declared = report.declared_result
        return cls(
            Source.of(report.source),
            report.format,
            report.ruleset,
            report.moves,
            _result(report.result),
            _first_five(report.first_five),
            tuple(
                ForbiddenMove(f.move, parse_point(f.point), tuple(f.kinds))
                for f in report.forbidden_moves
            ),
            tuple(_finding(f) for f in report.findings),
            None if declared is None else Declared(declared.winner, declared.reason, declared.text),
            copy.deepcopy(report.opening),
            dict(report.metadata),
            tuple(report.notes),
            report.unreadable,
            report.to_json(),
        )


def _point(name: str | None) -> Point | None:
    return None if name is None else parse_point(name)


def _result(result: report_model.Result) -> Result:
    return Result(result.winner, result.reason, result.move, _point(result.point))


def _first_five(five: report_model.FirstFive | None) -> FirstFive | None:
    if five is None:
        return None
    stones = tuple(parse_point(p) for p in five.stones)
    return FirstFive(five.move, five.color, parse_point(five.point), stones)


def _finding(f: report_model.Finding) -> Finding:
    counts = None if f.counts is None else dict(f.counts)
    return Finding(f.code, f.severity, f.message, f.move, _point(f.point), f.line, f.offset, counts)


def replay(game: Game | Record, rules: Rules | None = None) -> Report:
    """Replay a game under ``rules`` and report it, as ``renju check`` does.  ``rules``:
    ``None`` takes the rules the game was read for (``read_games``), else the record's own
    rule when it names a shipped ruleset, else ``renju``.  Never raises for a bad record:
    what is wrong is in the findings, and a bug met while judging it is an
    ``internal-error`` finding."""
    if isinstance(game, Record):
        game = Game(game)
    if game._failed is not None:
        return Report.of(game._failed)
    ruleset = _ruleset_or_none(rules)
    run = game._run if ruleset is None else dataclasses.replace(game._run, rules=ruleset)
    return Report.of(judge_one(game.record, run).report)


@dataclass(frozen=True)
class Position:
    """The board after the first ``played`` moves of a game, as the referee's walk left it:
    ``to_move`` is the colour to play next, ``numbers`` the move number of each stone a move
    placed (setup stones have none), ``result`` how the game ended if it ended by then, and
    ``first_five`` the first five if made by then.  ``second_board``: board b of the
    two-board variant (``board`` is board a)."""

    board: Board
    to_move: Color
    played: int
    numbers: Mapping[Point, int]
    result: Result
    first_five: FirstFive | None = None
    second_board: Board | None = None


def position(game: Game | Record, rules: Rules | None = None, at: int | None = None) -> Position:
    """The position after move ``at`` of a game (``None``: after its last move; ``0``: the
    setup stones), walked as ``replay`` walks it: the opening's course is followed (a
    rejected opening clears the board, a moved stone moves), and moves that cannot be placed
    (passes, moves off the board or on a taken point) are walked, not placed.  ``rules`` as
    for ``replay``.  Never raises for a bad record."""
    if isinstance(game, Record):
        game = Game(game)
    ruleset = choose_ruleset(game.record, _ruleset_or_none(rules) or game._run.rules)
    pos = referee_position(game.record, ruleset, at)
    five = pos.first_five
    return Position(
        pos.board,
        pos.to_move,
        pos.played,
        dict(pos.numbers),
        _result(pos.result),
        _first_five(five),
        pos.second_board,
    )


def forbidden_points(board: Board, rules: Rules | None = None) -> dict[Point, tuple[str, ...]]:
    """Every empty point black may not play on ``board`` under ``rules`` (``None``: renju),
    with its kinds (``"double-three"``, ``"double-four"``, ``"overline"``), in board order
    from ``a1``.  Empty under rules that forbid black nothing."""
    ruleset = _ruleset_or_none(rules) or load(DEFAULT_RULES)
    points = ruleset.judge().forbidden_points(board, BLACK)
    return {board.point(index): kinds for index, kinds in points}


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
    pos = referee_position(record, ruleset, at, within)
    board = pos.board
    to_move = BLACK if pos.to_move.value == "black" else WHITE
    numbers = {board.index(p): n for p, n in pos.numbers.items()}
    return BoardPosition(board, to_move, pos.played, numbers)
