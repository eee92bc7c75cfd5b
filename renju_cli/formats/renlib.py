"""RenLib library reader (``.lib``): a binary tree of variations, read as RenLib reads it.

Layout (see ``spec/formats.md`` and ``docs/formats.md``): an optional 20-byte header
``FF 'RenLib' FF major minor`` plus ten ``FF`` bytes (a file that starts with ``0x78``, the move
h8, is the old headerless format), then the nodes in pre-order.  Each node is ``[pos][flags]``,
two extension bytes when flag ``0x01`` is set, then its strings.  RenLib keeps a node's flags as
one 24-bit value: the node's own flag byte is bits 0-7, the **second** extension byte bits 8-15
and the first extension byte bits 16-23; board text is bit 8 (``0x01`` of the second extension
byte).  The tree is rebuilt with a stack: a node flagged ``0x80`` (has a next sibling) is pushed;
after a node flagged ``0x40`` (leaf) the stack is popped and the next node is a sibling of the
popped one; otherwise the next node is a child of the current one.

One :class:`~renju_cli.record.Record` is yielded per root-to-leaf path, in pre-order of the leaves
(a library can hold many thousands of lines; they are never all built at once).  A line is
yielded when the next one is made, or when the file ends: what the end of the file says goes
with the last line.

Readings this module chose where the spec leaves room (all pinned by tests):

- **Coordinates.**  ``pos - 1 = 16 * row_from_top + column``, both 0-based: the high nibble is the
  row from the top (0-based), the low nibble the column (1-based).  ``0x78`` is h8; D4.lib starts
  ``0x78 0x68 0x69`` = h8 h9 i9.  A nibble outside the 15x15 board (low nibble 0, high nibble 15)
  gives an off-board point, which the referee reports with its move number.
- **No-move nodes and passes.**  The first node of the file with ``pos`` 0 is the *null root*
  that RenLib 3.4 writes; it carries no move.  Any node flagged ``0x02`` carries no move whatever
  its ``pos`` (RenLib keeps board texts on such nodes).  Any other node with ``pos`` 0 is a
  **pass** (``Move(None)``), as RenLib reads it.
- **Strings** are read two bytes at a time (the file stays 2-byte aligned) until a pair holds the
  0 terminator.  A comment is a one-line part, optionally ``0x08`` and a multi-line part; the
  comment text kept is ``one-line + "\\n" + multi-line`` (CR LF turned into ``\\n``).  As RenLib
  reads them, a node flagged for both kinds of comment has only its old-style comment (flag
  ``0x20``): 7-bit text ended by the byte whose high bit is set (that byte is the last
  character), with ``{ | } [ \\ ]`` standing for ``ä ö å Ä Ö Å``.  A board text (bit 8) follows
  the comment.
- **Where text goes.**  A move's comment is ``Move.comment``.  The comment of a node that carries
  no move goes into ``Record.metadata`` keyed by the number of moves played at that node
  (``renlib.comment.N``; N = 0 before the first move).  A board text is a label RenLib shows on
  the node's point in the position before it: ``renlib.board_text.N`` holds ``"<point> <text>"``
  for each labelled node on the line, N the moves played before it.  Marked nodes (flag ``0x10``)
  are listed by move number in ``renlib.marks`` (``"0 3"``), the start position (``0x04``) in
  ``renlib.start``.
- **The end of the file** ends the tree, as RenLib reads a library (pairs of bytes until there
  are none): a last node without the leaf flag ends its line there, and siblings announced but
  never written are not in the file (RenLib saves a single line or a branch so: an ``info``
  finding says it); a string, a node or its extension bytes cut by the end of the file, and
  bytes after the last line was closed, are a ``warning`` (what was read whole is kept, the bytes
  after the tree are not read).  No line read is lost.
- **Bad input** never raises: the records completed so far are yielded, then one unreadable record
  whose fatal problem gives the byte offset (a tree deeper than ``max_depth``, an over-long
  string, a missing header, a file of no node).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from renju_cli.coords import Point, point_name
from renju_cli.formats import ReadOptions, budget_terms, lookup_codec, text_cost
from renju_cli.record import Branch, GameTree, Move, ParseProblem, Record, SourceLocation

NAME = "renlib"
EXTENSIONS = (".lib",)

MAGIC = b"\xffRenLib\xff"
HEADER_SIZE = 20
#: The first byte of an old headerless library: its first node is h8.
OLD_FORMAT_FIRST = 0x78
BOARD_SIZE = 15

# Node flags: the node's flag byte (bits 0-7).
HAS_SIBLING = 0x80
IS_LEAF = 0x40
OLD_COMMENT = 0x20
MARK = 0x10
COMMENT = 0x08
START = 0x04
NO_MOVE = 0x02
EXTENSION = 0x01
# Flags of the extension bytes: the second byte is bits 8-15, the first bits 16-23.
BOARD_TEXT = 0x100

#: Separator between the one-line and the multi-line part of a comment.
_MULTILINE_SEP = b"\x08"
#: What the 7-bit characters of an old-style comment stand for (RenLib's Swedish letters).
_OLD_LETTERS = str.maketrans("}{|][\\", "åäöÅÄÖ")
_CHUNK = 1 << 16

#: Severities of what the end of the file says (``ParseProblem.severity``).
INFO = "info"
WARNING = "warning"


class RenlibError(Exception):
    """Malformed library content, with the byte offset where reading had to stop."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} (byte offset {offset})")
        self.message = message
        self.offset = offset


@dataclass(frozen=True)
class TreeEnd:
    """How a library ended when it did not end with its last line closed: what to tell the user
    (``severity`` ``info`` for what RenLib writes, ``warning`` for a file cut or followed by
    bytes), and where."""

    message: str
    offset: int
    severity: str


@dataclass(frozen=True)
class Node:
    """One node of a RenLib tree, as read from the file.

    ``kind`` is ``"move"`` (a stone at :attr:`point`), ``"pass"`` (``pos`` 0), ``"root"`` (the null
    root node of RenLib 3.4) or ``"none"`` (flag ``0x02``: the node carries no move).  ``depth`` is
    0 for a root; the path to a node is the last node seen at each smaller depth.  ``flags`` holds
    all 24 bits (the flag byte, then the second and the first extension byte).
    """

    index: int
    offset: int
    depth: int
    pos: int
    flags: int
    kind: str
    extension: bytes = b""
    comment: str | None = None
    board_text: str | None = None

    @property
    def has_sibling(self) -> bool:
        """Another node follows this one at the same depth (flag ``0x80``)."""
        return bool(self.flags & HAS_SIBLING)

    @property
    def is_leaf(self) -> bool:
        """The node has no child (flag ``0x40``): it ends a line."""
        return bool(self.flags & IS_LEAF)

    @property
    def has_comment(self) -> bool:
        """The node carries a comment (new-style ``0x08`` or old-style ``0x20``)."""
        return bool(self.flags & (COMMENT | OLD_COMMENT))

    @property
    def has_board_text(self) -> bool:
        """The node carries a board text (bit 8: ``0x01`` of the second extension byte)."""
        return bool(self.flags & BOARD_TEXT)

    @property
    def is_marked(self) -> bool:
        """The node is marked in RenLib (flag ``0x10``)."""
        return bool(self.flags & MARK)

    @property
    def is_start(self) -> bool:
        """The node is RenLib's start position (flag ``0x04``)."""
        return bool(self.flags & START)

    @property
    def carries_move(self) -> bool:
        """The node is a move of its line: a stone or a pass."""
        return self.kind in ("move", "pass")

    @property
    def point(self) -> Point | None:
        """The stone's point, ``None`` for a pass or a node without a move."""
        return point_from_byte(self.pos) if self.kind == "move" else None


def point_from_byte(pos: int) -> Point:
    """The point of a non-zero node byte: ``pos - 1 = 16 * row_from_top + column`` (0-based).

    ``0x78`` is h8 (``Point(7, 7)``).  Bytes whose low nibble is 0 or high nibble is 15 decode to
    points off the 15x15 board, left for the referee to report.
    """
    row_from_top, column = divmod(pos - 1, 16)
    return Point(column, BOARD_SIZE - 1 - row_from_top)


def decode_text(raw: bytes, encoding: str | None = None) -> str:
    """Decode library text: ``encoding`` if given, else UTF-8, else CP1252; never fails.

    RenLib stores text in the author's Windows code page without saying which, so a wrong guess
    gives mojibake rather than an error; ``--encoding`` fixes it.  An unknown encoding name is
    ignored (the default chain is used).
    """
    if encoding is not None:
        try:
            return raw.decode(encoding)
        except (UnicodeError, LookupError):  # idna & co raise UnicodeError
            try:
                return raw.decode(encoding, errors="replace")
            except (UnicodeError, LookupError):
                pass
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _join_comment(one_line: str, multi_line: str | None) -> str:
    """The text kept of a comment: its one-line part, then its multi-line part (LF ends)."""
    parts = [one_line]
    if multi_line is not None:
        parts.append(multi_line.replace("\r\n", "\n"))
    return "\n".join(p for p in parts if p)


class _Source:
    """Buffered byte reader over a stream that knows its absolute offset."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._buf = b""
        self._pos = 0
        self.offset = 0

    def _fill(self, n: int) -> None:
        # Keep at least n bytes available (fewer only at end of file).
        while len(self._buf) - self._pos < n:
            more = self._stream.read(max(_CHUNK, n))
            if not more:
                return
            self._buf = self._buf[self._pos :] + more
            self._pos = 0

    def peek(self, n: int) -> bytes:
        self._fill(n)
        return self._buf[self._pos : self._pos + n]

    def take(self, n: int) -> bytes:
        self._fill(n)
        out = self._buf[self._pos : self._pos + n]
        self._pos += len(out)
        self.offset += len(out)
        return out

    def rest(self) -> int:
        """Read the stream to its end; the number of bytes that were left."""
        n = 0
        while chunk := self.take(_CHUNK):
            n += len(chunk)
        return n


def _offsets(stack: list[tuple[int, int]]) -> str:
    """The offsets of the nodes on ``stack``, as a message lists them (the first few)."""
    shown = [str(offset) for _, offset in stack[:3]]
    more = f" and {len(stack) - 3} more" if len(stack) > 3 else ""
    return ", ".join(shown) + more


class TreeReader:
    """Walks a RenLib library node by node, in file (pre-)order.

    Iterate :meth:`nodes`; it raises :class:`RenlibError` on malformed content after yielding
    every node read before the error.  :attr:`version` is ``"3.0"`` etc. once the header has
    been read (``None`` for the old headerless format).  When the nodes end without the last
    line closed (the end of the file inside the tree or a string, bytes after the tree),
    :attr:`end` says how.
    """

    def __init__(self, stream: BinaryIO, options: ReadOptions | None = None) -> None:
        self.options = options or ReadOptions()
        self.version: str | None = None
        #: Things worth telling the user that are not errors (e.g. an unknown encoding).
        self.notes: list[str] = []
        #: How the tree ended, when it did not end with its last line closed.
        self.end: TreeEnd | None = None
        self._src = _Source(stream)
        self._encoding = self.options.encoding
        if self._encoding is not None and lookup_codec(self._encoding) is None:
            self.notes.append(f"unknown encoding {self._encoding!r}; used UTF-8/CP1252")
            self._encoding = None

    @property
    def offset(self) -> int:
        """Bytes read so far."""
        return self._src.offset

    def _read_header(self) -> None:
        head = self._src.peek(HEADER_SIZE)
        if not head:
            raise RenlibError("empty file", 0)
        if head[0] == 0xFF:
            if head[: len(MAGIC)] != MAGIC and not MAGIC.startswith(head):
                raise RenlibError("not a RenLib library: bad header signature", 0)
            if len(head) < HEADER_SIZE:
                raise RenlibError("file ends inside the 20-byte header", len(head))
            # The ten trailing FF bytes have no known meaning; other values are tolerated.
            self.version = f"{head[8]}.{head[9]}"
            self._src.take(HEADER_SIZE)
        elif head[0] != OLD_FORMAT_FIRST:
            raise RenlibError(
                f"not a RenLib library: starts with byte 0x{head[0]:02x}, "
                "neither the RenLib header nor 0x78 (old format)",
                0,
            )

    def _cut(self, what: str, node_offset: int) -> None:
        """The file ended inside ``what`` of the node at ``node_offset``: a warning."""
        self.end = TreeEnd(
            f"the file ends inside the {what} of the node at offset {node_offset}: the text "
            "read before it is kept and the library ends there, as RenLib reads it",
            self._src.offset,
            WARNING,
        )

    def _read_string(self, what: str, node_offset: int) -> bytes:
        """A 0-terminated string padded to even length, read by pairs (to the end of the file
        when it is cut, as RenLib reads it: ``end`` says so)."""
        limit = self.options.max_string
        out = bytearray()
        while True:
            pair = self._src.take(2)
            if len(pair) < 2:
                self._cut(what, node_offset)
                return bytes(out)
            if pair[0] == 0:
                return bytes(out)
            out.append(pair[0])
            if pair[1] == 0:
                return bytes(out)
            out.append(pair[1])
            if len(out) > limit:
                raise RenlibError(
                    f"{what} of the node at offset {node_offset} is longer than {limit} bytes",
                    self._src.offset,
                )

    def _read_old_comment(self, node_offset: int) -> str:
        """7-bit text whose last character has the high bit set, padded to even length; its
        letters as RenLib reads them, split like a comment at ``0x08``."""
        limit = self.options.max_string
        out = bytearray()
        while True:
            pair = self._src.take(2)
            if len(pair) < 2:
                self._cut("old-style comment", node_offset)
                break
            ended = False
            for byte in pair:
                out.append(byte & 0x7F)
                if byte & 0x80:
                    ended = True
                    break
            if ended:
                break
            if len(out) > limit:
                raise RenlibError(
                    f"old-style comment of the node at offset {node_offset} is longer than "
                    f"{limit} bytes",
                    self._src.offset,
                )
        text = out.decode("ascii").translate(_OLD_LETTERS)
        one_line, sep, multi = text.partition("\x08")
        return _join_comment(one_line, multi if sep else None)

    def _read_comment(self, node_offset: int) -> str:
        raw = self._read_string("comment", node_offset)
        one_line, sep, multi = raw.partition(_MULTILINE_SEP)
        return _join_comment(
            decode_text(one_line, self._encoding),
            decode_text(multi, self._encoding) if sep else None,
        )

    def _node(self, index: int, offset: int, depth: int, pos: int, flags: int) -> Node | None:
        """The node whose two bytes were read at ``offset``, with its extension and strings;
        ``None`` when the file ends inside its extension bytes (RenLib drops such a node)."""
        extension = b""
        if flags & EXTENSION:
            extension = self._src.take(2)
            if len(extension) < 2:
                message = f"file ends inside the extension bytes of the node at offset {offset}"
                if index == 0:
                    raise RenlibError(message, self._src.offset)
                self.end = TreeEnd(
                    f"the {message}: that node is not read and the library ends at the node "
                    "before it, as RenLib reads it",
                    self._src.offset,
                    WARNING,
                )
                return None
            flags |= extension[1] << 8 | extension[0] << 16
        comment: str | None = None
        if flags & OLD_COMMENT:  # (RenLib reads no other comment after an old-style one)
            comment = self._read_old_comment(offset)
        elif flags & COMMENT:
            comment = self._read_comment(offset)
        board_text: str | None = None
        if flags & BOARD_TEXT and self.end is None:
            raw = self._read_string("board text", offset)
            board_text = decode_text(raw, self._encoding).replace("\r\n", "\n")
        if index == 0 and pos == 0:
            kind = "root"
        elif flags & NO_MOVE:
            kind = "none"
        elif pos == 0:
            kind = "pass"
        else:
            kind = "move"
        return Node(index, offset, depth, pos, flags, kind, extension, comment, board_text)

    def nodes(self) -> Iterator[Node]:
        """Yield every node with its depth; raise :class:`RenlibError` on bad content."""
        self._read_header()
        src = self._src
        max_depth = self.options.max_depth
        # (depth, offset) of the nodes that announced a next sibling still to come
        stack: list[tuple[int, int]] = []
        depth = 0
        waiting = False  # the next node is the sibling of the node on top of the stack
        last: Node | None = None
        while True:
            offset = src.offset
            pair = src.take(2)
            if len(pair) < 2:
                self._end_of_file(pair, offset, last, stack)
                return
            if depth >= max_depth:
                raise RenlibError(f"the tree is deeper than {max_depth} nodes", offset)
            index = 0 if last is None else last.index + 1
            node = self._node(index, offset, depth, pair[0], pair[1])
            if node is None:
                return
            yield node
            last = node
            if waiting:  # the sibling that the node on top of the stack announced
                stack.pop()
                waiting = False
            if self.end is not None:  # a string cut by the end of the file
                return
            if node.has_sibling:
                stack.append((depth, offset))
            if not node.is_leaf:
                depth += 1
            elif stack:
                # (kept on the stack until the sibling comes: what the end of the file misses)
                depth = stack[-1][0]
                waiting = True
            else:
                self._after_tree()
                return

    def _end_of_file(
        self, pair: bytes, offset: int, last: Node | None, stack: list[tuple[int, int]]
    ) -> None:
        """The file ended where a node would start (``pair``: the one byte left, if any)."""
        if last is None:
            raise RenlibError(
                "the library has no nodes" if not pair else "file ends in the middle of a node",
                offset,
            )
        where = []
        if not last.is_leaf:
            where.append(f"at the node at offset {last.offset}, which has no leaf flag")
        if stack:
            where.append(
                f"before the siblings announced (flag 0x80) by the nodes at offsets "
                f"{_offsets(stack)}"
            )
        message = (
            f"the library ends {', and '.join(where)}: as RenLib reads a library to the end of "
            "its file, the tree ends there (RenLib saves a single line or a branch so)"
        )
        severity = INFO
        if pair:
            message = (
                f"the file ends in the middle of a node at offset {offset} (one byte, not read); "
                + message
            )
            severity = WARNING
        self.end = TreeEnd(message, offset, severity)

    def _after_tree(self) -> None:
        """The last line is closed: bytes after it are not read (a warning says so)."""
        at = self._src.offset
        first = self._src.peek(1)
        if not first:
            return
        left = self._src.rest()
        if left == 1:
            message = (
                f"one byte after the end of the tree (0x{first[0]:02x}) is no node: it is not "
                "read (RenLib reads a library by pairs of bytes)"
            )
        else:
            message = (
                f"{left} bytes after the end of the tree are not read: its last line is closed "
                "(a leaf, and no sibling announced)"
            )
        self.end = TreeEnd(message, at, WARNING)


def iter_nodes(stream: BinaryIO, options: ReadOptions | None = None) -> Iterator[Node]:
    """Yield the nodes of a library in file order (see :class:`TreeReader`).

    Raises :class:`RenlibError` on malformed content, after the nodes read before it.
    """
    return TreeReader(stream, options).nodes()


def sniff(head: bytes) -> int:
    """2 for the RenLib header; 1 for a binary-looking file starting with ``0x78`` (old format)."""
    if head.startswith(MAGIC):
        return 2
    if head[:1] == bytes([OLD_FORMAT_FIRST]) and len(head) >= 2:
        # 0x78 is also "x", which starts text diagrams: require binary content (a NUL, which
        # every flag-less node or string padding has, or bytes that are not UTF-8).
        if 0 in head:
            return 1
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            # A multi-byte character cut at the end of the head is still text.
            return 1 if exc.start < len(head) - 3 else 0
    return 0


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield one record per root-to-leaf line of the library, in pre-order of the leaves.

    What the end of the file says (a line without a leaf, a string cut short, bytes after the
    tree) is a finding of the last line.  On malformed content the lines completed so far are
    yielded, then one unreadable record whose fatal problem gives the byte offset.
    """
    reader = TreeReader(stream, options)
    lines = _Lines(path, reader, options)
    try:
        for node in reader.nodes():
            yield from lines.add(node)
            if lines.stopped:
                return
        yield from lines.finish(reader.end)
    except RenlibError as exc:
        yield from lines.fail(exc.message, exc.offset)


class _Lines:
    """The lines of a library as its nodes come: a leaf closes one, whose record is yielded
    when the next line's is made or the file ends (what the end says is the last line's)."""

    def __init__(self, path: str, reader: TreeReader, options: ReadOptions) -> None:
        self.path = path
        self.reader = reader
        self.options = options
        self.line: list[Node] = []  # the path from the root to the current node
        # the move of each node of ``line`` (None for a node without one), made once per node:
        # the records of a library share their prefixes, so a leaf costs a list copy, not moves
        self.moves: list[Move | None] = []
        self.made = 0  # records made
        self.emitted = 0  # moves (nodes walked) in the records so far, against the budget
        self.pending: Record | None = None
        self.stopped = False
        self.tree = GameTree()
        # the least depth the walk came back up to since the last leaf: where the next line
        # leaves the last one
        self.low = 0

    def add(self, node: Node) -> Iterator[Record]:
        """Walk to ``node``; a leaf closes its line."""
        del self.line[node.depth :]
        del self.moves[node.depth :]
        self.low = min(self.low, node.depth)
        self.line.append(node)
        self.moves.append(_move(node))
        if node.is_leaf:
            yield from self._close()

    def _close(self) -> Iterator[Record]:
        """Make the record of the line that ends at the current node; yield the one before."""
        options = self.options
        leaf = self.line[-1]
        self.emitted += len(self.line)
        if self.made >= options.max_records:
            message = f"{options.too_many('lines')}; the rest of the library is skipped"
        else:
            budget = options.move_budget(self.reader.offset)
            if self.emitted <= budget:
                record = _record(self.path, self.made, self.line, self.moves, self.reader, options)
                prefix = self.moves[: self.low]  # (moves of the nodes the lines share)
                shared = len(prefix) - prefix.count(None)
                record.branch = Branch(self.tree, self.made, shared)
                self.low = len(self.line)
                # its text (the comments of the nodes before it) costs too: it is repeated in
                # every line below them
                self.emitted += text_cost(record)
                if self.emitted <= budget:
                    if self.pending is not None:
                        yield self.pending
                    self.pending = record
                    self.made += 1
                    return
            message = (
                f"the lines read so far hold {self.emitted} moves and text in all, more than "
                f"the file's budget ({budget_terms(options)}): a tree this repetitive is "
                "refused; the rest of the library is skipped"
            )
        yield from self.fail(message, leaf.offset)

    def finish(self, end: TreeEnd | None) -> Iterator[Record]:
        """The nodes are all read: the open line (if any) ends, and ``end`` goes with it."""
        if end is not None and self.line and not self.line[-1].is_leaf:
            yield from self._close()
            if self.stopped:
                return
        if end is not None and self.pending is not None:
            self.pending.problems.append(
                ParseProblem(end.message, None, end.offset, False, end.severity)
            )
        if self.pending is not None:
            yield self.pending
            self.pending = None

    def fail(self, message: str, offset: int) -> Iterator[Record]:
        """The rest of the library is not read: the last line, then the unreadable record."""
        if self.pending is not None:
            yield self.pending
            self.pending = None
        yield _failed(self.path, self.made, message, offset, self.reader, self.line)
        self.stopped = True


def _move(node: Node) -> Move | None:
    """The move of a node, or ``None`` when it carries none."""
    if not node.carries_move:
        return None
    return Move(node.point, offset=node.offset, token=f"0x{node.pos:02x}", comment=node.comment)


def _label(node: Node, text: str) -> str:
    """A board text as kept: the point it labels, a blank, the text."""
    where = point_name(point_from_byte(node.pos)) if node.pos else "-"
    return f"{where} {text}"


def _texts(line: list[Node]) -> dict[str, str]:
    """What the nodes of a line say beside their moves: comments of no-move nodes and board
    texts by move number, the marked nodes and the start position."""
    # several no-move nodes can sit at the same move number: their texts are joined once
    # (joining as they come would copy the text so far each time)
    texts: dict[str, list[str]] = {}
    marks: list[str] = []
    start = None
    played = 0
    for node in line:
        before = played
        if node.carries_move:
            played += 1
        elif node.comment is not None:
            texts.setdefault(f"renlib.comment.{played}", []).append(node.comment)
        if node.flags & (BOARD_TEXT | MARK | START):
            if node.board_text is not None:
                key = f"renlib.board_text.{before}"
                texts.setdefault(key, []).append(_label(node, node.board_text))
            if node.flags & MARK:
                marks.append(str(played))
            if node.flags & START:
                start = str(played)
    out = {key: "\n".join(parts) for key, parts in texts.items()}
    if marks:
        out["renlib.marks"] = " ".join(marks)
    if start is not None:
        out["renlib.start"] = start
    return out


def _record(
    path: str,
    index: int,
    line: list[Node],
    line_moves: list[Move | None],
    reader: TreeReader,
    options: ReadOptions,
) -> Record:
    moves = [m for m in line_moves if m is not None]
    metadata: dict[str, str] = {}
    if reader.version is not None:
        metadata["renlib.version"] = reader.version
    metadata.update(_texts(line))
    leaf = line[-1]
    # positional arguments, in field order (path, index, line, offset, variation; then moves,
    # source, width, height, declared result, rule, opening id, metadata, setup, events,
    # notes, problems, format): keywords cost a third more, and a library is thousands of lines
    record = Record(
        moves,
        SourceLocation(path, index, None, leaf.offset, str(index + 1)),
        BOARD_SIZE,
        BOARD_SIZE,
        None,
        None,
        None,
        metadata,
        [],
        [],
        [],
        [],
        NAME,
    )
    if len(moves) > options.max_moves:
        del moves[options.max_moves :]
        record.problems.append(
            ParseProblem(
                f"line longer than {options.max_moves} moves; the rest is ignored",
                offset=leaf.offset,
            )
        )
    if index == 0:
        record.notes.extend(reader.notes)
    return record


def _failed(
    path: str, index: int, message: str, offset: int, reader: TreeReader, line: list[Node]
) -> Record:
    notes = list(reader.notes) if index == 0 else []
    played = [point_name(n.point) for n in line if n.carries_move]
    if played:
        notes.append(f"line being read when reading stopped: {' '.join(played)}")
    return Record(
        moves=[],
        source=SourceLocation(path, index, offset=offset),
        width=BOARD_SIZE,
        height=BOARD_SIZE,
        metadata={"renlib.version": reader.version} if reader.version is not None else {},
        notes=notes,
        problems=[ParseProblem(message, offset=offset, fatal=True)],
        format=NAME,
    )
