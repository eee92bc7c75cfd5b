"""Piskvork / Gomocup ``.psq`` game records, and Gomocup opening files.

A ``.psq`` file holds one game::

    Piskvorky 20x20, 7:7, 0        header: width x height, two numbers a:b, an index
    10,10,456                      x,y[,time_ms] per stone: 1-based, x = column from the left,
    11,12,4500                     y = row from the TOP; black first, colours alternate
    ...
    pisq7.exe                      trailer: engine names (the first-moving player's first),
    renjusolver.ZIP                a result/error code, and Gomocup judge "result,tournament"
    0                              lines

Reading
    - The header gives the board (any width x height from 5 to 26; ``Record.width``/``height``).
      Its other fields are kept raw: ``metadata["psq_levels"]`` (``"7:7"``) and
      ``metadata["psq_first"]`` (the last number); neither is interpreted.
    - Moves stop at the first line that is not ``x,y`` or ``x,y,t``.  ``(x, y)`` becomes
      ``Point(x - 1, height - y)``: on 20x20 ``10,10`` is ``j11`` (column 10 = ``j``, counting
      ``i``; row 20 - 10 + 1 = 11 from the bottom).  A stone right of the board (``x > width``)
      or above it (``y < 1``) is still a point of our frame and is kept, for the referee to report
      as off-board; ``x < 1``, ``x > 26`` (no column letter) or ``y > height`` (below row 1)
      cannot be represented: a ``ParseProblem`` and the moves stop there.  The time field is kept
      only in ``Move.token``.
    - Trailer (non-empty lines after the moves): a line that is an integer is the result/error
      code (``metadata["result_code"]``; a later one goes to ``notes``); ``<int>,<text>`` is a
      Gomocup judge line (``metadata["judge_result"]``, ``metadata["tournament"]``); a stone line
      after the trailer began is not read, and a ``ParseProblem`` names the line that stopped the
      moves; a line of numbers and commas that is none of these (``11,``: the last stone line of
      a file cut short) is a ``ParseProblem``; any other line is an engine name: the first one
      is the first-moving (black) player's (``metadata["black"]``), the second white's
      (``metadata["white"]``), more go to ``notes``.
    - ``declared_result`` is never set: the meaning of the codes is not documented (the real
      sample ends with code ``0`` after white's five k9-o9, the spec example with ``-1``), and a
      psq game ends on the board (a five, or a forbidden stone in renju), which the referee sees
      for itself.  The raw codes stay in ``metadata``.
    - No header: the moves are read on ``ReadOptions.board_size`` with a ``ParseProblem``.

Writing (``write_one``): the header (``psq_levels``/``psq_first`` from the metadata, else
``11:11, 0``), one ``x,y,t`` line per move (the time from the token when it was read from a psq
line, else 0), then the engine names and the codes from the metadata.  Setup stones that alternate
from black are written as the first moves (that is how Gomocup stores its preset openings);
passes, non-alternating colours, other setup or opening decisions (swaps, offers...) cannot be
written and raise ``ValueError``, and so does a point that has no psq coordinates.  ``write``
accepts exactly one record (a psq file holds one game).

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
from typing import BinaryIO, TextIO

from renju_cli.coords import MAX_SIZE, MIN_SIZE, Point
from renju_cli.formats import (
    ReadOptions,
    clip,
    lazy_compile,
    read_whole,
    text_lines,
    too_long,
)
from renju_cli.record import (
    BLACK,
    Color,
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
_MOVE = lazy_compile(r"\s*(-?\d{1,6})\s*,\s*(-?\d{1,6})\s*(?:,\s*(-?\d{1,12})\s*)?")
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


def sniff(head: bytes) -> int:
    """2 when the file starts with the ``Piskvorky WxH`` header, else 0."""
    text = head.removeprefix(codecs.BOM_UTF8).lstrip()
    return 2 if re.match(rb"Piskvorky\s+\d+\s*[xX]\s*\d+", text) else 0


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


def _lines(raw: bytes, encoding: str | None) -> list[str]:
    return text_lines(_decode(raw.removeprefix(codecs.BOM_UTF8), encoding))


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield the one game of a ``.psq`` file."""
    data = read_whole(stream, options)
    if data is None:
        yield too_long(path, FORMAT, options)
        return
    yield parse_psq(_lines(data, options.encoding), path, options)


def parse_psq(lines: list[str], path: str, options: ReadOptions | None = None) -> Record:
    """A psq game from its text lines (line endings removed)."""
    opts = options or ReadOptions()
    problems: list[ParseProblem] = []
    notes: list[str] = []
    meta: dict[str, str] = {}
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    width = height = opts.board_size
    header = _HEADER.fullmatch(lines[i].strip()) if i < len(lines) else None
    if header is not None:
        # (a size of thousands of digits is just unsupported: never given to int whole)
        w_text, h_text = header.group(1), header.group(2)
        w = int(w_text) if len(w_text) <= 4 else MAX_SIZE + 1
        h = int(h_text) if len(h_text) <= 4 else MAX_SIZE + 1
        if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE):
            size = f"{_digits(w_text)}x{_digits(h_text)}"
            return Record(
                moves=[],
                source=SourceLocation(path, 0, i + 1),
                problems=[
                    ParseProblem(
                        f"unsupported board size {size} (sizes {MIN_SIZE} to {MAX_SIZE} are read)",
                        line=i + 1,
                        fatal=True,
                    )
                ],
                format=FORMAT,
            )
        width, height = w, h
        rest = (header.group(3) or "").strip()
        if rest:
            fields = [f.strip() for f in rest.split(",")]
            meta["psq_levels"] = fields[0][: opts.max_string]
            if len(fields) > 1:
                meta["psq_first"] = ",".join(fields[1:])[: opts.max_string]
        i += 1
    else:
        problems.append(
            ParseProblem(
                f"no 'Piskvorky WxH' header; moves read on {width}x{height}",
                line=i + 1 if i < len(lines) else None,
            )
        )
    moves: list[Move] = []
    stopped = False
    while i < len(lines):
        text = lines[i]
        if not text.strip():  # a blank line (CR CR LF ends, an editor's) is no end of the moves
            i += 1
            continue
        m = _MOVE.fullmatch(text)
        if m is None:
            break
        i += 1
        if stopped:
            continue
        x, y = int(m.group(1)), int(m.group(2))
        if x < 1 or x > MAX_SIZE or y > height:
            problems.append(
                ParseProblem(
                    f"stone {text.strip()!r} is outside the {width}x{height} board and cannot be "
                    "represented; the moves from here on are not kept",
                    line=i,
                )
            )
            stopped = True
            continue
        if len(moves) >= opts.max_moves:
            problems.append(
                ParseProblem(f"more than {opts.max_moves} moves; the rest is not kept", line=i)
            )
            stopped = True
            continue
        moves.append(Move(Point(x - 1, height - y), line=i, token=text.strip()))
    names: list[str] = []
    seen = 0
    late = 0  # stone lines after the moves stopped
    for j in range(i, len(lines)):
        text = lines[j].strip()
        if not text:
            continue
        seen += 1
        if seen > _MAX_TRAILER:
            notes.append(f"trailer longer than {_MAX_TRAILER} lines; the rest is ignored")
            break
        if len(text) > opts.max_string:
            notes.append(f"line {j + 1}: longer than {opts.max_string} characters, cut")
            text = text[: opts.max_string]
        if _CODE.fullmatch(text):
            if "result_code" not in meta:
                meta["result_code"] = text
            else:
                notes.append(f"another result code {text} at line {j + 1}")
            continue
        if _MOVE.fullmatch(text):
            # the moves stopped at a line that is none (a typo, a stray word): what follows
            # is not read, and that is a finding, not a note
            late += 1
            if late == 1:
                problems.append(
                    ParseProblem(
                        f"line {i + 1}: {lines[i].strip()[:40]!r} is no move, and the moves "
                        f"stop there: the stone at line {j + 1} ({text!r}) and any after it "
                        "are not read",
                        line=i + 1,
                    )
                )
            continue
        if _BROKEN_STONE.fullmatch(text) and any(c.isdigit() for c in text):
            # no engine writes a name of digits and commas: taken for one, the cut stone would
            # vanish and the record pass as clean
            problems.append(
                ParseProblem(
                    f"line {j + 1}: {clip(text)!r} is no stone line (x,y or x,y,time): cut "
                    "short or damaged, it is not read",
                    line=j + 1,
                )
            )
            continue
        judge = _JUDGE.fullmatch(text)
        if judge is not None:
            meta["judge_result"] = judge.group(1)
            meta["tournament"] = judge.group(2).strip()
            continue
        names.append(text)
        if len(names) > 2:
            notes.append(f"unrecognised trailer line {j + 1}: {text!r}")
    if names:
        meta["black"] = names[0]
    if len(names) > 1:
        meta["white"] = names[1]
    if not moves and header is None:
        problems = [ParseProblem("not a psq record: no header and no moves", line=1, fatal=True)]
    return Record(
        moves=moves,
        source=SourceLocation(path, 0, 1),
        width=width,
        height=height,
        metadata=meta,
        notes=notes,
        problems=problems,
        format=FORMAT,
    )


# --------------------------------------------------------------------------------------------
# Writer


def _psq_time(token: str | None) -> str:
    if token is not None:
        m = _MOVE.fullmatch(token)
        if m is not None and m.group(3) is not None:
            return m.group(3)
    return "0"


def psq_text(record: Record) -> str:
    """The psq text of one record (``\\n`` line ends)."""
    width = record.width if record.width is not None else 15
    height = record.height if record.height is not None else 15
    if record.width is None or record.height is None:
        # no stated size: the smallest of 15x15 and 20x20 (Gomocup boards) that holds the stones
        pts = [m.point for m in record.moves if m.point is not None] + [p for p, _ in record.setup]
        if any(p.x >= 15 or p.y >= 15 for p in pts):
            width = width if record.width is not None else 20
            height = height if record.height is not None else 20
    meta = record.metadata
    levels = meta.get("psq_levels", "11:11")
    first = meta.get("psq_first", "0")
    out = [f"Piskvorky {width}x{height}, {levels}, {first}"]
    if record.opening_events:
        decisions = ", ".join(f"{e.kind} after move {e.after}" for e in record.opening_events)
        raise ValueError(f"psq cannot store opening decisions ({decisions})")
    stones: list[tuple[Point, str]] = []
    expected: Color = BLACK
    for p, color in record.setup:
        if color is not expected:
            raise ValueError("psq cannot store setup stones that do not alternate from black")
        stones.append((p, "0"))
        expected = color.other
    if record.setup and record.moves and record.moves[0].color not in (None, expected):
        raise ValueError("psq cannot store setup stones followed by a move of the same colour")
    for n, mv in enumerate(record.moves, start=1):
        if mv.point is None:
            raise ValueError(f"psq cannot store a pass (move {n})")
        if mv.color is not None and mv.color is not expected:
            raise ValueError(f"psq cannot store move {n}: colours must alternate from black")
        stones.append((mv.point, _psq_time(mv.token)))
        expected = expected.other
    for p, time in stones:
        y = height - p.y
        if p.x < 0 or p.y < 0 or y < 1:
            raise ValueError(f"point {tuple(p)} has no psq coordinates on {width}x{height}")
        out.append(f"{p.x + 1},{y},{time}")
    trailer = [meta[key] for key in ("black", "white", "result_code") if key in meta]
    if "judge_result" in meta:
        trailer.append(f"{meta['judge_result']},{meta.get('tournament', '')}")
    for line in trailer:
        if "\n" in line or "\r" in line:
            # (each is one line: a name of two was read back as two names, the next lost)
            raise ValueError(f"psq cannot store metadata of several lines ({clip(line)!r})")
    return "\n".join(out + trailer) + "\n"


def write_one(record: Record, out: TextIO) -> None:
    """Write one record as a psq file."""
    out.write(psq_text(record))


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write the single record of ``records`` (a psq file holds one game).

    Raises ``ValueError`` when there is no record or more than one, before writing anything.
    """
    it = iter(records)
    first = next(it, None)
    if first is None:
        raise ValueError("no record to write: a psq file holds exactly one game")
    if next(it, None) is not None:
        raise ValueError("a psq file holds one game: write one file per record")
    write_one(first, out)


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
    yield from _opening_records(_lines(data, opts.encoding), path, width, height, opts, [])


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
            yield Record(
                moves=[],
                source=SourceLocation(path, index, lineno),
                problems=[
                    ParseProblem(
                        f"{opts.too_many('openings')}; the rest is not read",
                        line=lineno,
                        fatal=True,
                    )
                ],
                format=OPENING_FORMAT,
            )
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


def read_openings_auto(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Read an opening file on ``options.board_size``, or on 20x20 when the offsets need it."""
    data = read_whole(stream, options)
    if data is None:
        yield too_long(path, OPENING_FORMAT, options)
        return
    lines = _lines(data, options.encoding)
    size = options.board_size
    notes: list[str] = []
    parsed = _parse_lines(lines)  # once: also used for the records
    # each distinct offset once: whether all fit does not depend on order or repetition
    distinct = {o for offsets in parsed.values() if offsets for o in offsets}
    if not fits(distinct, size, size) and size < 20 and fits(distinct, 20, 20):
        notes.append(f"the offsets do not fit on {size}x{size}; read on 20x20 (Gomocup's board)")
        size = 20
    yield from _opening_records(lines, path, size, size, options, notes, parsed)


def opening_text(record: Record) -> str:
    """One record's stones (setup then moves) as an opening line of centre offsets."""
    width = record.width if record.width is not None else 15
    height = record.height if record.height is not None else 15
    points = [p for p, _ in record.setup]
    for n, mv in enumerate(record.moves, start=1):
        if mv.point is None:
            raise ValueError(f"an opening line cannot hold a pass (move {n})")
        points.append(mv.point)
    parts = []
    for p in points:
        dx = p.x - width // 2
        dy = (height - 1 - p.y) - height // 2
        parts.append(f"{dx},{dy}")
    return ", ".join(parts)
