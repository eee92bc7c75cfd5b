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
from renju_cli.formats.psq import is_opening_line, opening_text, read_openings_auto
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
    lines = head.removeprefix(b"\xef\xbb\xbf").splitlines()
    if len(head) >= 4096 and lines and not head.endswith((b"\n", b"\r")):
        lines = lines[:-1]
    lines = [line for line in lines if line.strip()]
    if not lines:
        return 0
    good = sum(1 for line in lines if is_opening_line(line))
    if good == len(lines) or (good >= 3 and len(lines) - good <= max(1, len(lines) // 10)):
        return 1
    return 0


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield one record per opening line."""
    yield from read_openings_auto(stream, path, options)


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write each record's stones (setup, then moves) as one opening line."""
    for record in records:
        out.write(opening_text(record) + "\n")
