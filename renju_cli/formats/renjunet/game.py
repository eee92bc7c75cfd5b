"""What is collected of one ``<game>`` element, and the records the reader gives up with."""

from __future__ import annotations

from renju_cli.formats import unreadable
from renju_cli.record import Move, ParseProblem, Record

NAME = "renjunet"


class Game:
    """What has been collected of the ``<game>`` being parsed."""

    def __init__(self, attrs: dict[str, str], line: int | None, depth: int) -> None:
        self.attrs = attrs
        self.line = line
        self.depth = depth  # nesting depth of the <game> element, to find its end tag
        self.moves: list[Move] = []
        self.problems: list[ParseProblem] = []
        self.notes: list[str] = []
        self.info: list[str] = []
        self.in_move = False
        self.in_info = False
        self.move_line: int | None = None
        self.stopped = False  # a bad token was met: later tokens are ignored
        self.partial: str | None = None  # a token cut by the end of a text chunk, on move_line
        self.info_len = 0
        self.info_truncated = False
        self.move_elements = 0  # games have one <move>: the moves of later ones are still read
        self.second_move: tuple[int | None, int] | None = None  # where the second <move> starts


def label(game: Game) -> str:
    """How messages name ``game``: ``game id=12``, or ``game`` without an id."""
    gid = game.attrs.get("id")
    return f"game id={gid}" if gid else "game"


def dropped(game: Game) -> str:
    """What a message says of ``game`` when reading stops inside it."""
    return f"the {label(game)} that starts at line {game.line} is incomplete and dropped"


def local(tag: str) -> str:
    """An element or attribute name without its namespace."""
    return tag.rsplit("}", 1)[-1]


def fatal(path: str, message: str, index: int, line: int | None) -> Record:
    """An unreadable record that still says which reader gave up."""
    record = unreadable(path, message, index=index, line=line)
    record.format = NAME
    return record
