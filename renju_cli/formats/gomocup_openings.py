"""Gomocup / Piskvork opening files (``openings.txt``): one opening per line.

Each line is a comma-separated list of ``dx,dy`` offsets from the centre of the board, stones
alternating black and white (see ``renju_cli.formats.psq`` for the frame: ``dy`` counts down, the
centre is ``(width // 2, height // 2)`` from the top-left).  Every opening becomes a record whose
stones are its moves (format ``gomocup-opening``).

The board is ``ReadOptions.board_size``; when the offsets do not fit on it but fit on 20x20 (the
Gomocup board: the corpus files reach offsets of -9 and -10), the file is read on 20x20 with a
note.  Use ``psq.read_openings`` to choose the size explicitly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO, TextIO

from renju_cli.formats import ReadOptions
from renju_cli.formats.psq import head_lines, is_opening_line, opening_text, read_openings_auto
from renju_cli.record import Record

NAME = "gomocup-openings"
EXTENSIONS = (".txt",)


def sniff(head: bytes) -> int:
    """1 when the lines of ``head`` are opening lines (an even number of small signed ints):
    all of them, or, with three or more, all but one (or one in ten): a damaged line is that
    opening's parse-error, not every opening of the file read as a move list and lost.

    Never 2: such a file is plain numbers, so the extension and the other formats decide.  When
    ``head`` may be cut (a full detection buffer), its last partial line is not judged.
    """
    lines = list(filter(bytes.strip, head_lines(head)[0]))  # (blank lines are not judged)
    bad = len(lines) - sum(map(is_opening_line, lines))
    if not lines or bad > max(1, len(lines) // 10):
        return 0
    return 1 if bad == 0 or len(lines) - bad >= 3 else 0


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield one record per opening line."""
    yield from read_openings_auto(stream, path, options)


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write each record's stones (setup, then moves) as one opening line."""
    for record in records:
        out.write(opening_text(record) + "\n")
