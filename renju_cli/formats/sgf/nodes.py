"""What one SGF node means for the line walked through it: moves, setup, offers, swaps, comments
and game info (``node_info``), under the board size and charset of its tree (``Context``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat

from renju_cli.coords import Point
from renju_cli.formats.charset import Charset
from renju_cli.formats.sgf.info import GAME_INFO, GameInfo, game_info
from renju_cli.formats.sgf.tokenizer import Node, Values
from renju_cli.formats.sgf.values import corners, player_word, point, rectangle, ruleset_for
from renju_cli.memo import remember
from renju_cli.record import BLACK, WHITE, Color, Move, ParseProblem

_TEXT_INFO = {"GC"}  # multi-line text: keep line breaks

#: Entries of a memo of one file's reading at most, and the longest value it keeps an entry by
#: (a hostile file may hold any number of distinct values, of any length).
_MEMO_ENTRIES = 4096
_MEMO_KEY_BYTES = 16
_MEMO_INFO_CHARS = 256


#: Setup stones the values of one file keep at most (``Context.stones``).
SETUP_STONES = 1 << 16


@dataclass(slots=True)
class FileMemo:
    """What the contexts of one file's trees remember together."""

    #: setup stones by colour, value and board size (``Context.stones``), and the stones still
    #: kept
    stones: dict[tuple[Color, bytes, int, int], tuple[tuple[Point, Color], ...]] = field(
        default_factory=dict
    )
    room: int = SETUP_STONES


@dataclass(frozen=True, slots=True)
class Context:
    """What a tree's nodes are read with: board size and text decoding."""

    width: int
    height: int
    charset: Charset
    max_string: int
    #: a line's opening events (``ReadOptions.max_moves``, as for its moves): a node reads
    #: one more than this of its offered points or ``SW`` values, for the walk to say so
    max_events: int
    #: ``move``'s answers by (``B``/``W``, value): the games of a collection, and the lines
    #: of a tree, repeat the few hundred moves of a board (short values only, ``MEMO`` at most)
    known_moves: dict[tuple[str, bytes], tuple[str, Point | str | None]] = field(
        default_factory=dict, compare=False
    )

    #: ``game_info``'s answers by a line's game info (short ones only, ``MEMO`` at most): the
    #: lines of a tree, and the games of a collection, repeat their game info
    known_info: dict[tuple[tuple[str, str], ...], GameInfo] = field(
        default_factory=dict, compare=False
    )

    #: the last game name searched for a rule, and what was found: the lines of a tree whose
    #: leaves carry game info of their own each make their info again, and the search (NFKD
    #: and eight patterns) over a long name took 20 ms a line, 10 s a megabyte
    known_names: dict[str, tuple[str | None, str | None]] = field(
        default_factory=dict, compare=False
    )

    def game_info(self, info: dict[str, str]) -> GameInfo:
        """``game_info`` of a line's game info."""
        key = tuple(info.items())
        known = self.known_info.get(key)
        if known is None:
            known = game_info(info, self._named_in)
            if sum(len(v) for v in info.values()) <= _MEMO_INFO_CHARS:
                remember(self.known_info, key, known, _MEMO_ENTRIES)
        return known

    def _named_in(self, name: str) -> tuple[str | None, str | None]:
        known = self.known_names.get(name)
        if known is None:
            known = remember(self.known_names, name, ruleset_for(name, search=True), 1)
        return known

    #: what the contexts of the file's trees remember together (``stones``)
    file: FileMemo = field(default_factory=lambda: FileMemo(), compare=False)

    def stones(self, raw: bytes, color: Color) -> tuple[tuple[Point, Color], ...] | str:
        """The setup stones of a point list value (a point, or a rectangle ``aa:cc``), or why
        not: a collection repeats its setup in every game (a value of 5 bytes is up to 676
        stones), and a file's values hold ``SETUP_STONES`` at most (a range spelled 4,096 ways
        held 340 MB)."""
        memo = self.file
        key = (color, raw, self.width, self.height)
        known = memo.stones.get(key)
        if known is None:
            found = self.corners(raw)
            if isinstance(found, str):
                return found
            known = tuple(zip(rectangle(*found), repeat(color)))
            short = len(raw) <= _MEMO_KEY_BYTES and len(memo.stones) < _MEMO_ENTRIES
            if short and len(known) <= memo.room:
                memo.room -= len(known)
                memo.stones[key] = known
        return known

    def move(self, ident: str, raw: bytes) -> tuple[str, Point | str | None]:
        """A move's token and point (``values.point``, a pass allowed)."""
        known = self.known_moves.get((ident, raw))
        if known is None:
            token = f"{ident}[{self.charset.quote(raw)}]"  # (as written, for messages)
            known = (token, point(raw, self.width, self.height, True, self.charset.quote))
            if len(raw) <= _MEMO_KEY_BYTES:
                remember(self.known_moves, (ident, raw), known, _MEMO_ENTRIES)
        return known

    @property
    def points(self) -> int:
        """The points of the board."""
        return self.width * self.height

    def point(self, raw: bytes) -> Point | str | None:
        """A point value on this board (``values.point``; no pass)."""
        return point(raw, self.width, self.height, False, self.charset.quote)

    def corners(self, raw: bytes) -> tuple[Point, Point] | str:
        """A point list value's rectangle on this board (``values.corners``)."""
        return corners(raw, self.width, self.height, self.charset.quote)

    def text(self, raw: bytes, info: NodeInfo, ident: str, line: int, simple: bool = True) -> str:
        """A text value decoded (a charset it was read in past the declared one kept in
        ``info.read_as``); blanks made one (``simple``) or line ends kept; cut at
        ``max_string`` with a note."""
        text, read_as = self.charset.decode(raw)
        if read_as is not None:
            info.read_as.append((read_as, line))
        if simple:
            text = " ".join(text.split())
        else:
            text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
        if len(text) > self.max_string:
            info.notes.append(f"{ident} value at line {line} cut to {self.max_string} characters")
            text = text[: self.max_string]
        return text


class NodeInfo:
    """What a node adds to the line walked through it (``node_info`` reads it)."""

    __slots__ = (
        "_ctx",
        "_line",
        "_no_room",
        "_stones",
        "_too_many",
        "bad",
        "comment",
        "erase",
        "info",
        "moves",
        "notes",
        "offers",
        "player",
        "problems",
        "read_as",
        "setup",
        "swaps",
    )

    def __init__(self, ctx: Context, line: int, no_room: bool) -> None:
        self.moves: list[Move] = []
        self.setup: list[tuple[Point, Color]] = []
        #: ``AE``: the node erases points (not replayable)
        self.erase = False
        self.offers: list[Point] = []
        self.swaps: list[str] = []
        self.comment: str | None = None
        self.info: list[tuple[str, str]] = []
        self.problems: list[ParseProblem] = []
        self.notes: list[str] = []
        #: a move could not be read: the line's moves stop here
        self.bad = False
        #: ``PL``: who plays next (``values.player_word``)
        self.player: str | None = None
        #: the charsets text was read in past the declared one, with the lines of that text
        self.read_as: list[tuple[str, int]] = []
        self._ctx, self._line, self._no_room = ctx, line, no_room
        #: the node's setup stones (made, or counted only: ``no_room``), and whether they went
        #: past the board's points (said once)
        self._stones = 0
        self._too_many = False

    def _problem(self, message: str) -> None:
        self.problems.append(ParseProblem(message, line=self._line))

    def _moves(self, ident: str, values: Values) -> None:
        color = BLACK if ident == "B" else WHITE
        for v in values:
            token, p = self._ctx.move(ident, v)
            if isinstance(p, str):
                self._problem(f"{p} in {token}; the moves from here on are not kept")
                self.bad = True
                return
            self.moves.append(Move(p, color, self._line, token=token))

    def _game_info(self, ident: str, values: Values) -> None:
        text = self._ctx.text(values[0], self, ident, self._line, ident not in _TEXT_INFO)
        self.info.append((ident, text))

    def _setup(self, ident: str, values: Values) -> None:
        color = BLACK if ident == "AB" else WHITE
        for v in values:
            if self._stones >= self._ctx.points:  # a hostile node: 175,000 AB[aa]
                if not self._too_many:
                    self._too_many = True
                    self._problem(
                        "more setup stones (AB/AW) than the board has points; the rest are ignored"
                    )
                return
            if self._no_room:  # counted and checked, not made: one stone stands for them all
                self._count_stones(v, color, ident)
                continue
            stones = self._ctx.stones(v, color)
            if isinstance(stones, str):
                self._problem(f"{stones} in setup {ident}")
                continue
            self.setup.extend(stones)
            self._stones += len(stones)

    def _count_stones(self, raw: bytes, color: Color, ident: str) -> None:
        found = self._ctx.corners(raw)
        if isinstance(found, str):
            self._problem(f"{found} in setup {ident}")
            return
        a, b = found
        if not self.setup:
            self.setup.append((a, color))
        self._stones += (abs(a.x - b.x) + 1) * (abs(a.y - b.y) + 1)

    def _erase(self, ident: str, values: Values) -> None:
        self.erase = True

    def _player(self, ident: str, values: Values) -> None:
        self.player = player_word(values[0].decode("latin-1")) if values else None

    def _offers(self, ident: str, values: Values) -> None:
        for v in values:
            room = self._ctx.max_events + 1 - len(self.offers)  # past the line's bound: not read
            if room <= 0:
                return
            if not v.strip():
                continue  # (5A[]: no offers recorded)
            for chunk in _point_chunks(v.strip(), room):
                p = self._ctx.point(chunk)
                if isinstance(p, str) or p is None:
                    self._problem(f"{p or 'bad point'} in offers {ident}")
                    continue
                self.offers.append(p)

    def _swaps(self, ident: str, values: Values) -> None:
        # (past the line's bound of events the rest is not read)
        decode = self._ctx.charset.decode
        self.swaps.extend(decode(v)[0] for v in values[: self._ctx.max_events + 1])

    def _comment(self, ident: str, values: Values) -> None:
        self.comment = self._ctx.text(values[0], self, "C", self._line, simple=False)


def node_info(node: Node, ctx: Context, no_room: bool = False, text_only: bool = False) -> NodeInfo:
    """What ``node`` adds to the line walked through it.  ``no_room``: the line takes no more
    setup stones (as many as the board has points, or a move played): the node's are counted
    and checked, not made (one stands for them all: a chain of 95,000 distinct ranges
    ``;AB[aa:zz]`` made 60 million stones that the line dropped).  ``text_only``: the line's
    moves stopped before the node, which gives it only its game info and the notes of its text.
    """
    ni = NodeInfo(ctx, node.line, no_room)
    if node.problems and not text_only:
        ni.problems.extend(node.problems)
    handlers = _TEXT_HANDLERS if text_only else _HANDLERS
    for ident, values in node.props or ():
        handler = handlers.get(ident)
        if handler is not None:
            handler(ni, ident, values)
    return ni


def _point_chunks(s: bytes, room: int) -> list[bytes]:
    """An offers value: one point, or several written together (``FA[hhjj]``), at most
    ``room``."""
    if len(s) > 2 and len(s) % 2 == 0 and s.isalpha():
        return [s[i : i + 2] for i in range(0, min(len(s), 2 * room), 2)]
    return [s]


_HANDLERS: dict[str, Callable[[NodeInfo, str, Values], None]] = {
    "B": NodeInfo._moves,
    "W": NodeInfo._moves,
    "AB": NodeInfo._setup,
    "AW": NodeInfo._setup,
    "AE": NodeInfo._erase,
    "PL": NodeInfo._player,
    "5A": NodeInfo._offers,
    "FA": NodeInfo._offers,
    "SW": NodeInfo._swaps,
    "C": NodeInfo._comment,
}
_HANDLERS.update(dict.fromkeys(GAME_INFO, NodeInfo._game_info))
#: What a node adds to a line whose moves stopped before it: its game info and text.
_TEXT_HANDLERS = {ident: _HANDLERS[ident] for ident in (*GAME_INFO, "C")}
