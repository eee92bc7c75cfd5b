"""Gomotur ``.rec`` game records: what Piskvork's tournaments save beside (or instead of) psq.

A ``.rec`` file holds one game, as Piskvork's ``savePsq`` writes it in its format 2::

    pbrain-Yixin17_64.exe          the first-moving (black) player's engine
    pbrain-Yixin17_64.exe          the other (white) engine
    8,6,0                          x,y,time_ms per stone: counted from 0, x = column from the
    7,4,8572                       left, y = row from the TOP; black first, colours alternate
    ...
    15                             the code the game ended with

There is no header: the board's size is not stored, nor the rule (a tournament's, written in
its result file).  Piskvork's *Open* takes a file without the ``Piskvorky`` header for this
format.

Reading
    - The first two lines are the engines' names (``metadata["black"]``, ``["white"]``): Piskvork
      writes the first mover's first.  ``homo-1`` and ``homo-2`` are its words for a human
      player, not names: nothing is kept for them.
    - Stone lines as in psq (``x,y`` or ``x,y,t``, blanks allowed), counted from 0:
      ``Point(x, size - 1 - y)``.  A tournament's opening stones come first, written with time
      0; they are moves like the others.  The moves stop at the first line that is no stone.
    - **The board** is ``ReadOptions.board_size`` (15x15) unless a coordinate needs more: then
      20x20 (Gomocup's board), or the smallest square that holds it.  A note says which was
      assumed and why.
    - The last line is the code: ``metadata["result_code"]``, and the declared result as psq
      reads it (``psq.piskvork_result``): ``15`` a time-out and ``-2`` an engine's error lose for
      the side to move; ``0`` (a normal end: a five, or a draw on a full board) and ``-1``
      (saved by hand) declare nothing, the board tells.  Lines after it are as in psq's trailer.
    - A file of no stone is unreadable (Piskvork: "unknown format").

Writing (``write_one``, ``write``): the names (``homo-1``/``homo-2`` for a player without
one), the stones counted from 0 (setup stones alternating from black first, with time 0, as
psq writes them), the code (``psq.piskvork_code``; ``-1`` when the record has none).  Since
the size is not stored, a record is written only on a board its coordinates prove when read
back (15x15, or 20x20 and larger when a coordinate needs it); another is refused with
``ValueError``, as are passes, opening decisions and colours out of turn.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from itertools import takewhile
from typing import BinaryIO, TextIO

from renju_cli.coords import MAX_SIZE, Point
from renju_cli.formats import ReadOptions, lazy_compile, read_whole, too_long
from renju_cli.formats.psq import (
    CODE_UNAVAILABLE,
    STONE,
    Trailer,
    head_lines,
    lines_of,
    one_line_each,
    piskvork_code,
    piskvork_result,
    record_stones,
    single,
    stone_lines,
    stone_moves,
)
from renju_cli.record import ParseProblem, Record, SourceLocation

NAME = "rec"
EXTENSIONS = (".rec",)

#: The seats of the two names, in the file's order (the first mover's first).
SEATS = ("black", "white")
#: Piskvork's words for the engine of a human player (``wrNames``), in the same order.
HUMANS = ("homo-1", "homo-2")
#: Gomocup's board: the first size tried when a coordinate needs more than the default.
GOMOCUP_SIZE = 20
#: The board a reader assumes when nothing tells (``ReadOptions.board_size``).
DEFAULT_SIZE: int = ReadOptions().board_size
#: The boards a record without a size is written on, the first that its coordinates prove.
_SIZES: tuple[int, ...] = (DEFAULT_SIZE, *range(GOMOCUP_SIZE, MAX_SIZE + 1))
#: Bytes of a name line at most, for detection (a path to an engine).
_NAME_BYTES = 300

_STONE_BYTES = lazy_compile(rb"\s*-?\d{1,6}\s*,\s*-?\d{1,6}\s*(?:,\s*-?\d{1,12}\s*)?")
_CODE_BYTES = lazy_compile(rb"\s*-?\d{1,12}\s*")
#: A line of numbers, signs, commas and blanks only: no engine's name.
_NUMBERS = lazy_compile(rb"[\d\s,+-]*")


def _is_name(line: bytes) -> bool:
    """Whether a line can be an engine's name: not blank, not numbers, not too long."""
    text = line.strip()
    return 0 < len(text) <= _NAME_BYTES and _NUMBERS.fullmatch(text) is None


def sniff(head: bytes) -> int:
    """2 for two name lines, then stone lines, then a code last (or no end in ``head``); 1
    without the code; 0 otherwise (a ``Piskvorky`` header is psq)."""
    if re.match(rb"\s*Piskvorky", head.removeprefix(codecs.BOM_UTF8), re.I):
        return 0
    lines, cut = head_lines(head)
    if len(lines) < 3 or not all(map(_is_name, lines[:2])):
        return 0
    return _stones_then_code(lines[2:], cut)


def _stones_then_code(lines: list[bytes], cut: bool) -> int:
    """``sniff`` of the lines after the names: stone lines, then the code, the last line."""
    filled = list(filter(bytes.strip, lines))  # (blank lines are not judged)
    stones = len(list(takewhile(_STONE_BYTES.fullmatch, filled)))
    rest = filled[stones:]
    if not stones or len(rest) > 1:
        return 0
    if rest:
        return 2 if _CODE_BYTES.fullmatch(rest[0]) else 0
    return 2 if cut else 1


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield the one game of a ``.rec`` file."""
    data = read_whole(stream, options)
    if data is None:
        yield too_long(path, NAME, options)
        return
    yield parse_rec(lines_of(data, options.encoding), path, options)


def parse_rec(lines: list[str], path: str, options: ReadOptions | None = None) -> Record:
    """A Gomotur rec game from its text lines (line endings removed)."""
    opts = options or ReadOptions()
    meta: dict[str, str] = {}
    notes: list[str] = []
    problems: list[ParseProblem] = []
    start = _names(lines, meta, problems, opts)
    scan = stone_lines(lines, start, opts.max_moves)
    if scan.count == 0:
        message = "not a Gomotur rec record: no stone line after the two names"
        return Record(
            moves=[],
            source=SourceLocation(path, 0, 1),
            problems=[ParseProblem(message, line=start + 1, fatal=True)],
            format=NAME,
        )
    size, said = board_size(scan.top, opts.board_size)
    notes.append(said)
    moves = stone_moves(scan, 0, size, size, opts, problems)
    trailer = Trailer(lines, scan.end, opts, meta)
    trailer.read(names=False)
    return Record(
        moves=moves,
        source=SourceLocation(path, 0, 1),
        width=size,
        height=size,
        declared_result=piskvork_result(meta.get("result_code"), len(moves)),
        metadata=meta,
        notes=notes + trailer.notes,
        problems=problems + trailer.problems,
        format=NAME,
    )


def _names(
    lines: list[str], meta: dict[str, str], problems: list[ParseProblem], opts: ReadOptions
) -> int:
    """Read the two name lines into ``meta``; the index of the line the stones start at."""
    for i, key in enumerate(SEATS):
        if i >= len(lines) or STONE.fullmatch(lines[i]):
            problems.append(
                ParseProblem(
                    f"line {i + 1} is no engine's name (a rec file starts with two): the stones "
                    "are read from there",
                    line=i + 1,
                )
            )
            return i
        name = lines[i].strip()[: opts.max_string]
        if name and name.lower() not in HUMANS:
            meta[key] = name
    return 2


def board_size(top: int, default: int) -> tuple[int, str]:
    """The board of a rec file whose greatest coordinate is ``top`` (counted from 0), and the
    note that says what was assumed: ``default`` when it holds them, else Gomocup's 20x20, else
    the smallest square that holds them (at most 26x26)."""
    if top < default:
        return default, (
            f"a rec file does not store the board's size: {default}x{default} assumed (the "
            f"coordinates are 0 to {top})"
        )
    size = GOMOCUP_SIZE if top < GOMOCUP_SIZE else min(top + 1, MAX_SIZE)
    return size, (
        f"a rec file does not store the board's size: {size}x{size} assumed (a coordinate of "
        f"{top} needs more than {default}x{default})"
    )


# --------------------------------------------------------------------------------------------
# Writer


def _read_back_size(stones: list[tuple[Point, str]], size: int) -> int:
    """The board a rec file of ``stones`` written on ``size`` x ``size`` is read on."""
    top = max(max(p.x, size - 1 - p.y) for p, _ in stones)
    return board_size(top, DEFAULT_SIZE)[0]


def _size_of(record: Record, stones: list[tuple[Point, str]]) -> int:
    """The board to write ``record`` on: its own, which its coordinates must prove when read
    back, or the first of 15x15, 20x20, ... on which they do."""
    if record.width is None and record.height is None:
        return _proved_size(stones)
    if record.width != record.height:
        raise ValueError(
            f"a rec file does not store the board's size: a {record.width}x{record.height} "
            "board cannot be told from a square one"
        )
    size = record.width or DEFAULT_SIZE
    again = _read_back_size(stones, size)
    if again != size:
        raise ValueError(
            f"a rec file does not store the board's size: this {size}x{size} game would "
            f"read back as {again}x{again}"
        )
    return size


def _proved_size(stones: list[tuple[Point, str]]) -> int:
    """The first board of ``_SIZES`` that holds ``stones`` and that they prove when read back."""
    for side in _SIZES:
        if all(p.on_board(side) for p, _ in stones) and _read_back_size(stones, side) == side:
            return side
    raise ValueError("its stones fit on no board of 15x15 to 26x26 that a rec file tells")


def rec_text(record: Record) -> str:
    """The rec text of one record (``\\n`` line ends)."""
    stones = record_stones(record, NAME)
    if not stones:
        raise ValueError("a rec file holds at least one stone")
    size = _size_of(record, stones)
    names = [record.metadata.get(seat) or human for seat, human in zip(SEATS, HUMANS, strict=True)]
    code = piskvork_code(record, len(stones)) or CODE_UNAVAILABLE
    one_line_each([*names, code], NAME)
    out = list(names)
    for p, time in stones:
        if not p.on_board(size):
            raise ValueError(f"point {tuple(p)} has no rec coordinates on {size}x{size}")
        out.append(f"{p.x},{size - 1 - p.y},{time}")
    out.append(code)
    return "\n".join(out) + "\n"


def write_one(record: Record, out: TextIO) -> None:
    """Write one record as a rec file."""
    out.write(rec_text(record))


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write the single record of ``records`` (a rec file holds one game).

    Raises ``ValueError`` when there is no record or more than one, before writing anything.
    """
    write_one(single(records, NAME), out)
