"""Piskvork / Gomocup ``.psq`` game records, and Gomocup opening files.

A ``.psq`` file holds one game::

    Piskvorky 20x20, 7:7, 0        header: width x height, two numbers a:b, an index
    10,10,456                      x,y[,time_ms] per stone: 1-based, x = column from the left,
    11,12,4500                     y = row from the TOP; black first, colours alternate
    ...
    pisq7.exe                      trailer: engine names (in player order: see the last header
    renjusolver.ZIP                number), a result/error code, and Gomocup judge
    0                              "result,tournament" lines

Reading
    - The header gives the board (any width x height from 5 to 26; ``Record.width``/``height``).
      Its other fields are kept raw: ``metadata["psq_levels"]`` (``"7:7"``, the two players'
      levels) and ``metadata["psq_first"]`` (the last number: which player, 0 or 1, moved
      first; Piskvork writes the names in player order).
    - Moves stop at the first line that is not ``x,y`` or ``x,y,t`` (blanks around the numbers
      and blank lines are allowed).  ``(x, y)`` becomes ``Point(x - 1, height - y)``: on 20x20
      ``10,10`` is ``j11`` (column 10 = ``j``, counting ``i``; row 20 - 10 + 1 = 11 from the
      bottom).  A stone right of the board (``x > width``) or above it (``y < 1``) is still a
      point of our frame and is kept, for the referee to report as off-board; ``x < 1``,
      ``x > 26`` (no column letter) or ``y > height`` (below row 1) cannot be represented: a
      ``ParseProblem`` and the moves stop there.  The time field is kept only in
      ``Move.token``.
    - **Coordinates counted from 0.**  Piskvork counts from 1; scripts that write psq files
      may count from 0 (and leave out the time field, the names, the code and the final
      newline).  What the file holds tells them apart: a coordinate 0 proves counting from 0,
      a coordinate equal to the board's size proves counting from 1.  A file with a 0 and no
      coordinate of the board's size is read counted from 0, and an ``info`` finding says so;
      a file whose stones have no time field (not Piskvork's) gets an ``info`` finding saying
      that it was read counted from 1, and why.  Otherwise nothing changes.
    - Trailer (non-empty lines after the moves): a line that is an integer is the result/error
      code (``metadata["result_code"]``; a later one goes to ``notes``); ``<int>,<text>`` is a
      Gomocup judge line (``metadata["judge_result"]``, ``metadata["tournament"]``); a stone line
      after the trailer began is not read, and a ``ParseProblem`` names the line that stopped the
      moves; a line of numbers and commas that is none of these (``11,``: the last stone line of
      a file cut short) is a ``ParseProblem``; any other line is an engine name: the first one
      is player 1's, the second player 2's, more go to ``notes``.  Player 1 moved first (black,
      ``metadata["black"]``) unless the header's last number is ``1``: then player 2 did, and
      the first name is white's (``metadata["white"]``).
    - ``declared_result`` comes from the code as Piskvork writes it (``piskvork_result``):
      ``0`` is a normal end (a five, or a draw on a full board: the board tells, nothing is
      declared), ``15`` a time-out of the side to move, which loses (reason ``time``), ``-2`` an
      error of the engine to move, which loses (reason ``forfeit``), ``-1`` a game saved by
      hand (no result).  Another code is kept in ``metadata`` with a note.
    - No header: the moves are read on ``ReadOptions.board_size`` with a ``ParseProblem``.

Writing (``write_one``): the header (``psq_levels``/``psq_first`` from the metadata, else
``11:11, 0``), one ``x,y,t`` line per move (the time from the token when it was read from a psq
or rec line, else 0), then the engine names in player order (white's first when ``psq_first``
is ``1``; player 2's name without player 1's is not written) and the
code: ``metadata["result_code"]``, else the code of a declared time-out or forfeit
(``piskvork_code``).  Setup stones that alternate from black are written as the first moves
(that is how Gomocup stores its preset openings); passes, non-alternating colours, other setup
or opening decisions (swaps, offers...) cannot be written and raise ``ValueError``, and so
does a point that has no psq coordinates.  ``write`` accepts exactly one record (a psq file
holds one game).

Gomocup opening files (``read_openings``, and the ``gomocup-openings`` format module): one opening
per line, comma-separated ``dx,dy`` pairs, offsets from the centre in Piskvork's frame (``dy``
counts **down**), stones alternating black/white; the final newline may be missing.  The centre is
``(width // 2, height // 2)`` counted from the top-left, i.e. ``Point(width // 2,
height - 1 - height // 2)``: h8 on 15x15, k10 on 20x20 (the 20x20 files of the corpus reach
``dy = -10``, the top row, only with that centre).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import BinaryIO, TextIO

from renju_cli.coords import MAX_SIZE, MIN_SIZE, Point
from renju_cli.formats import (
    HEAD_BYTES,
    ReadOptions,
    clip,
    lazy_compile,
    read_whole,
    text_lines,
    too_long,
)
from renju_cli.record import (
    BLACK,
    WHITE,
    Color,
    DeclaredResult,
    Move,
    ParseProblem,
    Record,
    SourceLocation,
)

NAME = "psq"
EXTENSIONS = (".psq",)
FORMAT = "psq"
OPENING_FORMAT = "gomocup-opening"

#: The header line, matched whole once stripped: blanks at either end of a pattern matched whole,
#: around an optional part, backtrack over each other (a header and 1 MB of spaces ran for
#: minutes); a stripped line leaves one way to match.
_HEADER = lazy_compile(r"Piskvorky\s+(\d+)\s*[xX]\s*(\d+)(?:\s*,\s*(.*))?", re.I)
#: A stone line: ``x,y`` or ``x,y,time`` (blanks allowed around the numbers: ``9, 14``).
STONE = lazy_compile(r"\s*(-?\d{1,6})\s*,\s*(-?\d{1,6})\s*(?:,\s*(-?\d{1,12})\s*)?")
_CODE = lazy_compile(r"-?\d{1,12}")
_JUDGE = lazy_compile(r"(-?\d{1,12})\s*,\s*([^\d\s,+-].*)")
#: A line of numbers and commas that is neither a stone nor a code: a stone line cut short
#: (``11,`` from ``11,12`` at the end of a file cut in the middle of its last line) or damaged.
#: (one pass, no backtracking: ``[\d,]*\d[\d,]*`` is quadratic on a long line of digits)
_BROKEN_STONE = lazy_compile(r"[\d\s,+-]+")
#: A Gomocup opening line, matched whole once its blanks are stripped at both ends, as the header:
#: ``[ \t]*,?[ \t]*`` at its end took 100 s for a file of lines ``0,0`` and 16,000 spaces.
_OPENING_LINE = re.compile(
    rb"-?\d{1,2}[ \t]*,[ \t]*-?\d{1,2}(?:[ \t]*,[ \t]*-?\d{1,2}[ \t]*,[ \t]*-?\d{1,2})*"
    rb"(?:[ \t]*,)?"
)
_OPENING_INT = lazy_compile(r"-?\d+")
#: Trailer lines read at most (names, codes, judge lines); the rest is ignored with a note.
_MAX_TRAILER = 64

#: Piskvork's codes at the end of a game (``savePsq``'s ``errCode``): what each says of the
#: result, as (the side that loses: ``"to move"`` or ``None``, reason).
CODE_NORMAL_END = "0"
CODE_TIMEOUT = "15"
CODE_ERROR = "-2"
CODE_UNAVAILABLE = "-1"
_CODES: dict[str, str | None] = {
    CODE_NORMAL_END: None,  # a five, or a draw on a (nearly) full board: the board tells
    CODE_TIMEOUT: "time",  # the side to move ran out of time and loses
    CODE_ERROR: "forfeit",  # the engine to move failed (crashed, an illegal move) and loses
    CODE_UNAVAILABLE: None,  # saved by hand: no result
}


def sniff(head: bytes) -> int:
    """2 when the file starts with the ``Piskvorky WxH`` header, else 0."""
    text = head.removeprefix(codecs.BOM_UTF8).lstrip()
    return 2 if re.match(rb"Piskvorky\s+\d+\s*[xX]\s*\d+", text) else 0


def head_lines(head: bytes) -> tuple[list[bytes], bool]:
    """The lines of a detection ``head`` (its BOM removed) but for a last line the head may
    cut, which is not judged; and whether it may have cut one (a full head that does not end
    at a line end)."""
    lines = head.removeprefix(codecs.BOM_UTF8).splitlines()
    cut = len(head) >= HEAD_BYTES and not head.endswith((b"\n", b"\r"))
    if cut:
        lines.pop()
    return lines, cut


def _digits(text: str) -> str:
    """A number as written, cut short when it is long (for messages)."""
    return text if len(text) <= 12 else f"{text[:12]}... ({len(text)} digits)"


def _decode(raw: bytes, encoding: str | None) -> str:
    for enc in (encoding, "utf-8"):
        if not enc:
            continue
        try:
            return raw.decode(enc)
        except (UnicodeError, LookupError):  # idna & co raise UnicodeError
            continue
    return raw.decode("latin-1", errors="replace")


def lines_of(raw: bytes, encoding: str | None) -> list[str]:
    """The text lines of a file of psq or its kin (UTF-8 or ``encoding``, else Latin-1)."""
    return text_lines(_decode(raw.removeprefix(codecs.BOM_UTF8), encoding))


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield the one game of a ``.psq`` file."""
    data = read_whole(stream, options)
    if data is None:
        yield too_long(path, FORMAT, options)
        return
    yield parse_psq(lines_of(data, options.encoding), path, options)


def piskvork_result(code: str | None, stones: int) -> DeclaredResult | None:
    """The result Piskvork's ``code`` declares for a game of ``stones`` stones (black first):
    a time-out (``15``) or an engine's error (``-2``) loses for the side to move; a normal end
    (``0``), a game saved by hand (``-1``) or another code declare nothing."""
    reason = _CODES.get(code or "")
    if reason is None or code is None:
        return None
    winner = WHITE if stones % 2 == 0 else BLACK  # (black is to move after an even number)
    return DeclaredResult(winner.value, reason, code)


def piskvork_code(record: Record, stones: int) -> str | None:
    """The code of ``record`` as Piskvork writes it after ``stones`` stones: its own
    (``metadata["result_code"]``), else that of a declared time-out or forfeit of the side to
    move, else ``None``."""
    code = record.metadata.get("result_code")
    if code is not None:
        return code
    declared = record.declared_result
    if declared is None:
        return None
    for candidate in (CODE_TIMEOUT, CODE_ERROR):
        said = piskvork_result(candidate, stones)
        if said is not None and (said.winner, said.reason) == (declared.winner, declared.reason):
            return candidate
    return None


@dataclass
class StoneLines:
    """The stone lines of a file from one line on, as written: the first ``keep`` of them
    (``x, y, line number, text``) and what all of them hold (for the coordinates' origin and
    the board's size)."""

    stones: list[tuple[int, int, int, str]] = field(default_factory=list)
    #: the index of the first line after them that is no stone line (or the number of lines)
    end: int = 0
    count: int = 0
    #: the first stone line holding a 0, and one holding ``size`` (as line number, text)
    zero: tuple[int, str] | None = None
    full: tuple[int, str] | None = None
    #: a stone line without its time field
    timeless: bool = False
    #: the greatest coordinate written
    top: int = -1


def stone_lines(
    lines: list[str], start: int, keep: int, size: tuple[int, int] | None = None
) -> StoneLines:
    """The stone lines from ``lines[start]`` to the first line that is none (blank lines are
    skipped); ``size`` (width, height) is the board a coordinate equal to proves counting from
    1."""
    out = StoneLines(end=len(lines))
    for i in range(start, len(lines)):
        text = lines[i]
        if not text or text.isspace():  # (CR CR LF line ends, an editor's blank lines)
            continue
        m = STONE.fullmatch(text)
        if m is None:
            out.end = i
            break
        x, y = int(m.group(1)), int(m.group(2))
        out.count += 1
        out.top = max(out.top, x, y)
        out.timeless |= m.group(3) is None
        if out.zero is None and (x == 0 or y == 0):
            out.zero = (i + 1, text.strip())
        if out.full is None and size is not None and (x == size[0] or y == size[1]):
            out.full = (i + 1, text.strip())
        if len(out.stones) <= keep:
            out.stones.append((x, y, i + 1, text.strip()))
    return out


def stone_moves(
    scan: StoneLines,
    base: int,
    width: int,
    height: int,
    options: ReadOptions,
    problems: list[ParseProblem],
) -> list[Move]:
    """The moves of ``scan`` with coordinates counted from ``base`` (0 or 1), ``y`` from the
    top; the first stone that has no point of our frame stops them, with a problem."""
    moves: list[Move] = []
    for x, y, lineno, text in scan.stones:
        column, row = x - base, y - base
        if column < 0 or column >= MAX_SIZE or row >= height:
            problems.append(
                ParseProblem(
                    f"stone {text!r} is outside the {width}x{height} board and cannot be "
                    "represented; the moves from here on are not kept",
                    line=lineno,
                )
            )
            break
        if len(moves) >= options.max_moves:
            problems.append(
                ParseProblem(f"more than {options.max_moves} moves; the rest is not kept", lineno)
            )
            break
        moves.append(Move(Point(column, height - 1 - row), line=lineno, token=text))
    return moves


def _origin(scan: StoneLines, width: int, height: int) -> tuple[int, ParseProblem | None]:
    """Whether the coordinates of a psq file count from 0 or 1 (Piskvork's), and the finding
    that says so where the file is not as Piskvork writes it."""
    if scan.zero is not None and scan.full is None:
        lineno, text = scan.zero
        return 0, ParseProblem(
            f"coordinates read as counted from 0, not from 1 as Piskvork counts: line {lineno} "
            f"({text!r}) holds a 0, and no coordinate is the board's size ({width}x{height})",
            lineno,
            severity="info",
        )
    if not scan.timeless or scan.count == 0:
        return 1, None
    if scan.full is not None:
        lineno, text = scan.full
        why = f"line {lineno} ({text!r}) holds the board's size ({width}x{height})"
    else:
        lineno, why = scan.stones[0][2], "no 0 and no coordinate of the board's size tell"
    return 1, ParseProblem(
        f"coordinates read as counted from 1, as Piskvork counts, in a file whose stones have "
        f"no time field: {why}",
        lineno,
        severity="info",
    )


def _header(
    lines: list[str], path: str, opts: ReadOptions
) -> tuple[int, int, int, dict[str, str], Record | ParseProblem | None]:
    """Where the stones start, the board and the header's fields; the unreadable record of an
    unsupported size, or the problem of a missing header."""
    i = next((k for k, line in enumerate(lines) if line.strip()), len(lines))
    header = _HEADER.fullmatch(lines[i].strip()) if i < len(lines) else None
    if header is None:
        size = opts.board_size
        problem = ParseProblem(
            f"no 'Piskvorky WxH' header; moves read on {size}x{size}",
            line=i + 1 if i < len(lines) else None,
        )
        return i, size, size, {}, problem
    w_text, h_text, rest = header.groups()
    w, h = _side(w_text), _side(h_text)
    if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE):
        return i, w, h, {}, _unsupported(f"{_digits(w_text)}x{_digits(h_text)}", path, i + 1)
    return i + 1, w, h, _header_fields(rest or "", opts.max_string), None


def _side(digits: str) -> int:
    """A side of the header's board (one of thousands of digits is just unsupported: never
    given to ``int`` whole)."""
    return int(digits) if len(digits) <= 4 else MAX_SIZE + 1


def _unsupported(size: str, path: str, line: int) -> Record:
    """The unreadable record of a file whose header's board, ``size``, is not read."""
    message = f"unsupported board size {size} (sizes {MIN_SIZE} to {MAX_SIZE} are read)"
    return Record(
        moves=[],
        source=SourceLocation(path, 0, line),
        problems=[ParseProblem(message, line=line, fatal=True)],
        format=FORMAT,
    )


def _header_fields(rest: str, max_string: int) -> dict[str, str]:
    """The header's fields after the board, kept raw: the levels and the first player."""
    rest = rest.strip()
    if not rest:
        return {}
    levels, *first = [f.strip() for f in rest.split(",")]
    meta = {"psq_levels": levels[:max_string]}
    if first:
        meta["psq_first"] = ",".join(first)[:max_string]
    return meta


def parse_psq(lines: list[str], path: str, options: ReadOptions | None = None) -> Record:
    """A psq game from its text lines (line endings removed)."""
    opts = options or ReadOptions()
    start, width, height, meta, missing = _header(lines, path, opts)
    if isinstance(missing, Record):
        return missing
    problems: list[ParseProblem] = [] if missing is None else [missing]
    scan = stone_lines(lines, start, opts.max_moves, (width, height))
    base, origin = _origin(scan, width, height)
    if origin is not None:
        problems.append(origin)
    moves = stone_moves(scan, base, width, height, opts, problems)
    trailer = Trailer(lines, scan.end, opts, meta)
    trailer.read(names=True, second_first=meta.get("psq_first") == "1")
    problems += trailer.problems
    if not moves and missing is not None:
        problems = [ParseProblem("not a psq record: no header and no moves", line=1, fatal=True)]
    return Record(
        moves=moves,
        source=SourceLocation(path, 0, 1),
        width=width,
        height=height,
        declared_result=piskvork_result(meta.get("result_code"), len(moves)),
        metadata=meta,
        notes=trailer.notes,
        problems=problems,
        format=FORMAT,
    )


class Trailer:
    """The lines after the stones of a psq (or rec) file: the result code, engine names,
    Gomocup judge lines; stone lines after them, or damaged ones, are problems."""

    def __init__(
        self, lines: list[str], start: int, options: ReadOptions, meta: dict[str, str]
    ) -> None:
        self.lines = lines
        self.start = start  # the line that stopped the stones
        self.options = options
        self.meta = meta
        self.names: list[str] = []
        self.notes: list[str] = []
        self.problems: list[ParseProblem] = []
        self._late = 0  # stone lines after the stones stopped

    def read(self, names: bool, second_first: bool = False) -> None:
        """Read the trailer into ``meta``; other lines are engine names when ``names`` (in
        player order: the first black's, the second white's, unless ``second_first``: player
        2 moved first), else notes."""
        filled = self._filled_lines()
        for j, text in islice(filled, _MAX_TRAILER):
            self._line(j, self._cut(j, text), names)
        if next(filled, None) is not None:
            self.notes.append(f"trailer longer than {_MAX_TRAILER} lines; the rest is ignored")
        for seat, name in zip(seats(second_first), self.names, strict=False):
            self.meta[seat] = name
        code = self.meta.get("result_code")
        if code is not None and code not in _CODES:
            self.notes.append(
                f"result code {code}: not one Piskvork ends a game with (0 a normal end, 15 a "
                "time-out, -2 an engine's error, -1 saved by hand); no result is declared"
            )

    def _filled_lines(self) -> Iterator[tuple[int, str]]:
        """The index and the stripped text of each line from ``start`` on that is not blank."""
        for j in range(self.start, len(self.lines)):
            text = self.lines[j].strip()
            if text:
                yield j, text

    def _cut(self, j: int, text: str) -> str:
        """``text`` cut to ``max_string``, with a note when it was longer."""
        limit = self.options.max_string
        if len(text) <= limit:
            return text
        self.notes.append(f"line {j + 1}: longer than {limit} characters, cut")
        return text[:limit]

    def _line(self, j: int, text: str, names: bool) -> None:
        if _CODE.fullmatch(text):
            self._code(j, text)
        elif STONE.fullmatch(text):
            self._late_stone(j, text)
        elif _BROKEN_STONE.fullmatch(text) and any(c.isdigit() for c in text):
            # no engine writes a name of digits and commas: taken for one, the cut stone would
            # vanish and the record pass as clean
            self.problems.append(
                ParseProblem(
                    f"line {j + 1}: {clip(text)!r} is no stone line (x,y or x,y,time): cut "
                    "short or damaged, it is not read",
                    line=j + 1,
                )
            )
        elif (judge := _JUDGE.fullmatch(text)) is not None:
            self.meta["judge_result"] = judge.group(1)
            self.meta["tournament"] = judge.group(2).strip()
        else:
            self._name(j, text, names)

    def _code(self, j: int, text: str) -> None:
        """The result code: the first one read; a later one goes to the notes."""
        if "result_code" not in self.meta:
            self.meta["result_code"] = text
        else:
            self.notes.append(f"another result code {text} at line {j + 1}")

    def _late_stone(self, j: int, text: str) -> None:
        """A stone line after the moves stopped at a line that is none (a typo, a stray word):
        what follows is not read, and that is a finding, not a note (said once)."""
        self._late += 1
        if self._late == 1:
            stop = self.lines[self.start].strip()[:40]
            self.problems.append(
                ParseProblem(
                    f"line {self.start + 1}: {stop!r} is no move, and the moves stop there: "
                    f"the stone at line {j + 1} ({text!r}) and any after it are not read",
                    line=self.start + 1,
                )
            )

    def _name(self, j: int, text: str, names: bool) -> None:
        """An engine's name, when ``names`` and one of the first two; else a note."""
        if names:
            self.names.append(text)
        if not names or len(self.names) > 2:
            self.notes.append(f"unrecognised trailer line {j + 1}: {text!r}")


# --------------------------------------------------------------------------------------------
# Writer


def move_time(token: str | None) -> str:
    """The time of a stone read from a psq or rec line (its token), else ``"0"``."""
    if token is not None:
        m = STONE.fullmatch(token)
        if m is not None and m.group(3) is not None:
            return m.group(3)
    return "0"


def record_stones(record: Record, fmt: str = FORMAT) -> list[tuple[Point, str]]:
    """The stones of ``record`` in the order psq and rec write them, with their times: setup
    stones alternating from black first (time 0), then the moves.  ``ValueError`` for what
    such a file cannot hold (opening decisions, passes, colours out of turn)."""
    if record.opening_events:
        decisions = ", ".join(f"{e.kind} after move {e.after}" for e in record.opening_events)
        raise ValueError(f"{fmt} cannot store opening decisions ({decisions})")
    stones = _setup_stones(record, fmt)
    to_move = BLACK if len(stones) % 2 == 0 else WHITE
    if stones and record.moves and record.moves[0].color not in (None, to_move):
        raise ValueError(f"{fmt} cannot store setup stones followed by a move of the same colour")
    return stones + _move_stones(record, to_move, fmt)


def _setup_stones(record: Record, fmt: str) -> list[tuple[Point, str]]:
    """The setup stones, time 0 each; ``ValueError`` unless they alternate from black."""
    for k, (_, color) in enumerate(record.setup):
        if color is not (BLACK if k % 2 == 0 else WHITE):
            raise ValueError(f"{fmt} cannot store setup stones that do not alternate from black")
    return [(p, "0") for p, _ in record.setup]


def _move_stones(record: Record, first: Color, fmt: str) -> list[tuple[Point, str]]:
    """The moves' stones, ``first`` the colour of the first; ``ValueError`` for a pass or a
    move out of turn."""
    stones: list[tuple[Point, str]] = []
    expected = first
    for n, mv in enumerate(record.moves, start=1):
        if mv.point is None:
            raise ValueError(f"{fmt} cannot store a pass (move {n})")
        if mv.color not in (None, expected):
            raise ValueError(f"{fmt} cannot store move {n}: colours must alternate from black")
        stones.append((mv.point, move_time(mv.token)))
        expected = expected.other
    return stones


def one_line_each(lines: list[str], fmt: str = FORMAT) -> None:
    """``ValueError`` when a trailer value holds a line break: each is one line (a name of two
    was read back as two names, and the next one lost)."""
    for line in lines:
        if "\n" in line or "\r" in line:
            raise ValueError(f"{fmt} cannot store metadata of several lines ({clip(line)!r})")


def _board(record: Record, stones: list[tuple[Point, str]]) -> tuple[int, int]:
    """The record's board, or the smallest of 15x15 and 20x20 (Gomocup's) that holds its
    ``stones`` when it states none."""
    side = 20 if any(max(p) >= 15 for p, _ in stones) else 15
    width = record.width if record.width is not None else side
    height = record.height if record.height is not None else side
    return width, height


def psq_text(record: Record) -> str:
    """The psq text of one record (``\\n`` line ends)."""
    stones = record_stones(record)
    width, height = _board(record, stones)
    meta = record.metadata
    first = meta.get("psq_first", "0")
    out = [f"Piskvorky {width}x{height}, {meta.get('psq_levels', '11:11')}, {first}"]
    for p, time in stones:
        y = height - p.y
        if p.x < 0 or p.y < 0 or y < 1:
            raise ValueError(f"point {tuple(p)} has no psq coordinates on {width}x{height}")
        out.append(f"{p.x + 1},{y},{time}")
    trailer = _trailer(record, first, len(stones))
    one_line_each(trailer)
    return "\n".join(out + trailer) + "\n"


def _trailer(record: Record, first: str, stones: int) -> list[str]:
    """The lines after the stones: the engine names, the code, the Gomocup judge line."""
    meta = record.metadata
    trailer = _names(meta, first)
    code = piskvork_code(record, stones)
    if code is not None:
        trailer.append(code)
    if "judge_result" in meta:
        trailer.append(f"{meta['judge_result']},{meta.get('tournament', '')}")
    return trailer


def seats(second_first: bool) -> tuple[str, str]:
    """The colours of players 1 and 2: black and white, unless player 2 moved first."""
    return ("white", "black") if second_first else ("black", "white")


def _names(meta: dict[str, str], first: str) -> list[str]:
    """The engine names of a psq trailer, in player order: white's first when player 2 moved
    first (``first`` is ``1``).  A name alone is read as player 1's, so player 2's alone is
    not written (as a move list drops every name: names are no part of what is judged)."""
    order = seats(first == "1")
    if order[0] not in meta:
        return []
    return [meta[seat] for seat in order if seat in meta]


def write_one(record: Record, out: TextIO) -> None:
    """Write one record as a psq file."""
    out.write(psq_text(record))


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write the single record of ``records`` (a psq file holds one game).

    Raises ``ValueError`` when there is no record or more than one, before writing anything.
    """
    write_one(single(records, FORMAT), out)


def single(records: Iterable[Record], fmt: str) -> Record:
    """The one record of ``records``; ``ValueError`` when there is none or more than one (a
    file of ``fmt`` holds one game)."""
    it = iter(records)
    first = next(it, None)
    if first is None:
        raise ValueError(f"no record to write: a {fmt} file holds exactly one game")
    if next(it, None) is not None:
        raise ValueError(f"a {fmt} file holds one game: write one file per record")
    return first


# --------------------------------------------------------------------------------------------
# Gomocup opening files


def is_opening_line(line: bytes) -> bool:
    """Whether a line is an even number (2 or more) of comma-separated small signed integers."""
    return _OPENING_LINE.fullmatch(line.rstrip(b"\r\n").strip(b" \t")) is not None


def opening_offsets(text: str) -> list[tuple[int, int]] | None:
    """The ``(dx, dy)`` pairs of one opening line, or ``None`` when it is not one."""
    if _OPENING_LINE.fullmatch(text.encode("ascii", "replace").strip(b" \t")) is None:
        return None
    values = [int(v) for v in _OPENING_INT.findall(text)]
    return list(zip(values[0::2], values[1::2], strict=True))


def opening_point(dx: int, dy: int, width: int, height: int) -> Point | None:
    """The point of an opening offset (``dy`` counts down), or None when it has no frame point."""
    x = width // 2 + dx
    y = height - 1 - (height // 2 + dy)
    if x < 0 or x >= MAX_SIZE or y < 0:
        return None
    return Point(x, y)


def fits(offsets: Iterable[tuple[int, int]], width: int, height: int) -> bool:
    """Whether every offset lands on a ``width`` x ``height`` board."""
    for dx, dy in offsets:
        p = opening_point(dx, dy, width, height)
        if p is None or not p.on_board(width, height):
            return False
    return True


def read_openings(
    stream: BinaryIO,
    path: str,
    width: int = 15,
    height: int = 15,
    options: ReadOptions | None = None,
) -> Iterator[Record]:
    """Yield one record per opening line of a Gomocup opening file, its stones as moves.

    Blank lines are skipped; ``source.index`` counts openings, ``source.line`` is the file line.
    """
    opts = options or ReadOptions()
    data = read_whole(stream, opts)
    if data is None:
        yield too_long(path, OPENING_FORMAT, opts)
        return
    yield from _opening_records(lines_of(data, opts.encoding), path, width, height, opts, [])


#: The offsets of each distinct line of a file (``None``: not an opening line).
_Parsed = dict[str, list[tuple[int, int]] | None]
#: What a line's offsets become on one board: the stones (point, token) and the problem that
#: stopped them, if any (message, fatal).
_Plan = tuple[list[tuple[Point, str]], tuple[str, bool] | None]


def _parse_lines(lines: list[str]) -> _Parsed:
    """``opening_offsets`` of every distinct line: a file may repeat one line many times."""
    parsed: _Parsed = {}
    for text in lines:
        if text not in parsed:
            parsed[text] = opening_offsets(text)
    return parsed


def _opening_plan(
    offsets: list[tuple[int, int]] | None,
    width: int,
    height: int,
    max_moves: int,
    stones_of: dict[tuple[int, int], tuple[Point, str] | None],
) -> _Plan:
    """The stones of one line's offsets; ``stones_of`` caches each offset's point and token."""
    if offsets is None:
        return [], (
            "not an opening line (an even number of comma-separated offsets expected)",
            True,
        )
    stones: list[tuple[Point, str]] = []
    for n, (dx, dy) in enumerate(offsets, start=1):
        if len(stones) >= max_moves:
            return stones, (f"more than {max_moves} stones", False)
        if (dx, dy) in stones_of:
            stone = stones_of[dx, dy]
        else:
            p = opening_point(dx, dy, width, height)
            stone = stones_of[dx, dy] = None if p is None else (p, f"{dx},{dy}")
        if stone is None:
            message = (
                f"stone {n} ({dx},{dy}) lies beyond the left or bottom edge of "
                f"{width}x{height}; the stones from here on are not kept"
            )
            return stones, (message, not stones)
        stones.append(stone)
    return stones, None


def _opening_records(
    lines: list[str],
    path: str,
    width: int,
    height: int,
    opts: ReadOptions,
    notes: list[str],
    parsed: _Parsed | None = None,
) -> Iterator[Record]:
    """One record per non-blank line; ``parsed`` are the lines' offsets when already known.

    Each distinct line is turned into stones once (``plans``); a record gets new ``Move`` and
    ``ParseProblem`` objects (they are mutable) but shares the immutable points and strings.
    """
    index = 0
    plans: dict[str, _Plan] = {}
    stones_of: dict[tuple[int, int], tuple[Point, str] | None] = {}
    for lineno, text in enumerate(lines, start=1):
        if not text or text.isspace():  # blank (what ``not text.strip()`` tests, without a copy)
            continue
        if index >= opts.max_records:
            yield _too_many_openings(path, index, lineno, opts)
            return
        plan = plans.get(text)
        if plan is None:
            offsets = opening_offsets(text) if parsed is None else parsed[text]
            plan = plans[text] = _opening_plan(offsets, width, height, opts.max_moves, stones_of)
        stones, problem = plan
        # positional arguments, in field order: keywords cost more than the rest of a tiny
        # record's reading (a hostile file holds hundreds of thousands); Move(point, color,
        # line, offset, token)
        yield Record(
            [Move(p, None, lineno, None, token) for p, token in stones],
            SourceLocation(path, index, lineno),
            width,
            height,
            None,  # declared_result
            None,  # rule
            None,  # opening_id
            {},  # metadata
            [],  # setup
            [],  # opening_events
            list(notes),
            [] if problem is None else [ParseProblem(problem[0], lineno, None, problem[1])],
            OPENING_FORMAT,
        )
        index += 1


def _too_many_openings(path: str, index: int, lineno: int, opts: ReadOptions) -> Record:
    """The unreadable record that says the rest of an opening file is not read."""
    message = f"{opts.too_many('openings')}; the rest is not read"
    return Record(
        moves=[],
        source=SourceLocation(path, index, lineno),
        problems=[ParseProblem(message, line=lineno, fatal=True)],
        format=OPENING_FORMAT,
    )


def read_openings_auto(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Read an opening file on ``options.board_size``, or on 20x20 when the offsets need it."""
    data = read_whole(stream, options)
    if data is None:
        yield too_long(path, OPENING_FORMAT, options)
        return
    lines = lines_of(data, options.encoding)
    parsed = _parse_lines(lines)  # once: also used for the records
    size = options.board_size
    notes: list[str] = []
    if _needs_20x20(parsed, size):
        notes.append(f"the offsets do not fit on {size}x{size}; read on 20x20 (Gomocup's board)")
        size = 20
    yield from _opening_records(lines, path, size, size, options, notes, parsed)


def _needs_20x20(parsed: _Parsed, size: int) -> bool:
    """Whether the openings do not fit on ``size`` x ``size`` but do on 20x20 (Gomocup's)."""
    # each distinct offset once: whether all fit does not depend on order or repetition
    distinct = {o for offsets in parsed.values() if offsets for o in offsets}
    return not fits(distinct, size, size) and size < 20 and fits(distinct, 20, 20)


def opening_text(record: Record) -> str:
    """One record's stones (setup then moves) as an opening line of centre offsets."""
    width = record.width if record.width is not None else 15
    height = record.height if record.height is not None else 15
    return ", ".join(
        f"{p.x - width // 2},{height - 1 - p.y - height // 2}" for p in _opening_stones(record)
    )


def _opening_stones(record: Record) -> list[Point]:
    """The points of the setup stones, then of the moves; ``ValueError`` for a pass."""
    points = [p for p, _ in record.setup]
    for n, mv in enumerate(record.moves, start=1):
        if mv.point is None:
            raise ValueError(f"an opening line cannot hold a pass (move {n})")
        points.append(mv.point)
    return points
