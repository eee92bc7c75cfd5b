"""RenLib library reader (``.lib``): a binary tree of variations.

Layout (see ``spec/formats.md``): an optional 20-byte header ``FF 'RenLib' FF major minor`` plus ten
``FF`` bytes (a file that starts with ``0x78``, the move h8, is the old headerless format), then the
nodes in pre-order.  Each node is ``[pos][flags]``, two extension bytes when flag ``0x01`` is set,
then its strings.  The tree is rebuilt with a stack: a node flagged ``0x80`` (has a next sibling) is
pushed; after a node flagged ``0x40`` (leaf) the stack is popped and the next node is a sibling of
the popped one; otherwise the next node is a child of the current one.

One :class:`~renju_cli.record.Record` is yielded per root-to-leaf path, in pre-order of the leaves,
as soon as the leaf is read (a library can hold many thousands of lines; they are never all built
at once).

Readings this module chose where the spec leaves room (all pinned by tests):

- **Coordinates.**  ``pos - 1 = 16 * row_from_top + column``, both 0-based: the high nibble is the
  row from the top (0-based), the low nibble the column (1-based).  ``0x78`` is h8; D4.lib starts
  ``0x78 0x68 0x69`` = h8 h9 i9.  A nibble outside the 15x15 board (low nibble 0, high nibble 15)
  gives an off-board point, which the referee reports with its move number.
- **No-move nodes and passes.**  The first node of the file with ``pos`` 0 is the *null root* that
  RenLib 3.4 writes; it carries no move.  Any node flagged ``0x02`` carries no move whatever its
  ``pos`` (the flag is explicit, the byte may be stale).  Any other node with ``pos`` 0 is a
  **pass** (``Move(None)``): the spec says "``pos`` 0 = no stone / pass", and dropping it would
  silently shift the colours of every later stone.  Neither real sample has such nodes.
- **Strings** are read two bytes at a time (the file stays 2-byte aligned) until a pair holds the
  0 terminator.  A comment is a one-line part, optionally ``0x08`` and a multi-line part; the
  comment text kept is ``one-line + "\\n" + multi-line`` (CR LF turned into ``\\n``).  An old-style
  comment (flag ``0x20``) is 7-bit text ended by the byte whose high bit is set (that byte is the
  last character); we assume it is padded to even length like the other strings (no sample has
  one).  Strings of one node are read in the order old comment, comment, board text.
- **Where text goes.**  A move's comment is ``Move.comment``.  The comment of a node that carries no
  move, and every board text, go into ``Record.metadata`` keyed by the number of moves played at
  that node (``renlib.comment.N``, ``renlib.board_text.N``; N = 0 before the first move).
- **Bad input** never raises: the records completed so far are yielded, then one unreadable record
  whose fatal problem gives the byte offset (truncation, data after the end of the tree, a tree
  deeper than ``max_depth``, an over-long string, a missing header).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from renju_cli.coords import Point, point_name
from renju_cli.formats import ReadOptions, budget_terms, lookup_codec, text_cost
from renju_cli.record import Move, ParseProblem, Record, SourceLocation

NAME = "renlib"
EXTENSIONS = (".lib",)

MAGIC = b"\xffRenLib\xff"
HEADER_SIZE = 20
#: The first byte of an old headerless library: its first node is h8.
OLD_FORMAT_FIRST = 0x78
BOARD_SIZE = 15

# Node flags (second byte of a node).
HAS_SIBLING = 0x80
IS_LEAF = 0x40
OLD_COMMENT = 0x20
MARK = 0x10
COMMENT = 0x08
START = 0x04
NO_MOVE = 0x02
EXTENSION = 0x01
# Flags of the first extension byte.
EXT_BOARD_TEXT = 0x01

#: Separator between the one-line and the multi-line part of a comment.
_MULTILINE_SEP = b"\x08"
_CHUNK = 1 << 16


class RenlibError(Exception):
    """Malformed library content, with the byte offset where reading had to stop."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} (byte offset {offset})")
        self.message = message
        self.offset = offset


@dataclass(frozen=True)
class Node:
    """One node of a RenLib tree, as read from the file.

    ``kind`` is ``"move"`` (a stone at :attr:`point`), ``"pass"`` (``pos`` 0), ``"root"`` (the null
    root node of RenLib 3.4) or ``"none"`` (flag ``0x02``: the node carries no move).  ``depth`` is
    0 for a root; the path to a node is the last node seen at each smaller depth.
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


class TreeReader:
    """Walks a RenLib library node by node, in file (pre-)order.

    Iterate :meth:`nodes`; it raises :class:`RenlibError` on malformed content after yielding
    every node read before the error.  :attr:`version` is ``"3.0"`` etc. once the header has
    been read (``None`` for the old headerless format).
    """

    def __init__(self, stream: BinaryIO, options: ReadOptions | None = None) -> None:
        self.options = options or ReadOptions()
        self.version: str | None = None
        #: Things worth telling the user that are not errors (e.g. an unknown encoding).
        self.notes: list[str] = []
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

    def _read_string(self, what: str, node_offset: int) -> bytes:
        """A 0-terminated string padded to even length, read by pairs."""
        limit = self.options.max_string
        out = bytearray()
        while True:
            pair = self._src.take(2)
            if len(pair) < 2:
                raise RenlibError(
                    f"file ends inside the {what} of the node at offset {node_offset}",
                    self._src.offset,
                )
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
        """7-bit text whose last character has the high bit set, padded to even length."""
        limit = self.options.max_string
        out = bytearray()
        while True:
            pair = self._src.take(2)
            if len(pair) < 2:
                raise RenlibError(
                    f"file ends inside the old-style comment of the node at offset {node_offset}",
                    self._src.offset,
                )
            for byte in pair:
                out.append(byte & 0x7F)
                if byte & 0x80:
                    return out.decode("ascii")
            if len(out) > limit:
                raise RenlibError(
                    f"old-style comment of the node at offset {node_offset} is longer than "
                    f"{limit} bytes",
                    self._src.offset,
                )

    def _read_comment(self, node_offset: int) -> str:
        raw = self._read_string("comment", node_offset)
        one_line, sep, multi = raw.partition(_MULTILINE_SEP)
        parts = [decode_text(one_line, self._encoding)]
        if sep:
            parts.append(decode_text(multi, self._encoding).replace("\r\n", "\n"))
        return "\n".join(p for p in parts if p)

    def nodes(self) -> Iterator[Node]:
        """Yield every node with its depth; raise :class:`RenlibError` on bad content."""
        self._read_header()
        src = self._src
        max_depth = self.options.max_depth
        # Depths of the nodes that announced a next sibling and are still waiting for it.
        stack: list[int] = []
        depth = 0
        index = 0
        # What the next node must be, for the message when the file ends too early.
        expecting = ""
        # Offsets of the nodes pushed on the stack, for messages.
        pushed: list[int] = []
        while True:
            offset = src.offset
            pair = src.take(2)
            if len(pair) < 2:
                if index == 0 and not pair:
                    raise RenlibError("the library has no nodes", offset)
                if not pair:
                    raise RenlibError(f"file ends inside the tree: {expecting}", offset)
                raise RenlibError("file ends in the middle of a node", offset)
            pos, flags = pair
            if depth >= max_depth:
                raise RenlibError(f"the tree is deeper than {max_depth} nodes", offset)
            extension = b""
            if flags & EXTENSION:
                extension = src.take(2)
                if len(extension) < 2:
                    raise RenlibError(
                        f"file ends inside the extension bytes of the node at offset {offset}",
                        src.offset,
                    )
            comment: str | None = None
            if flags & OLD_COMMENT:
                comment = self._read_old_comment(offset)
            if flags & COMMENT:
                text = self._read_comment(offset)
                comment = text if comment is None else "\n".join(p for p in (comment, text) if p)
            board_text: str | None = None
            if extension and extension[0] & EXT_BOARD_TEXT:
                board_text = decode_text(
                    self._read_string("board text", offset), self._encoding
                ).replace("\r\n", "\n")
            if index == 0 and pos == 0:
                kind = "root"
            elif flags & NO_MOVE:
                kind = "none"
            elif pos == 0:
                kind = "pass"
            else:
                kind = "move"
            yield Node(index, offset, depth, pos, flags, kind, extension, comment, board_text)
            index += 1
            if flags & HAS_SIBLING:
                stack.append(depth)
                pushed.append(offset)
            if flags & IS_LEAF:
                if not stack:
                    # The last line is closed: the tree is complete.
                    if src.peek(1):
                        raise RenlibError(
                            "data after the end of the tree (no open line left to continue)",
                            src.offset,
                        )
                    return
                depth = stack.pop()
                expecting = f"the next sibling of the node at offset {pushed.pop()} is missing"
            else:
                depth += 1
                expecting = f"the node at offset {offset} is not a leaf but no child follows"


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

    On malformed content the lines completed so far are yielded, then one unreadable record whose
    fatal problem gives the byte offset.
    """
    reader = TreeReader(stream, options)
    line: list[Node] = []  # the path from the root to the current node
    # the move of each node of ``line`` (None for a node without one), made once per node: the
    # records of a library share their prefixes, so a leaf costs a list copy, not new moves
    line_moves: list[Move | None] = []
    leaves = 0
    emitted = 0  # moves (nodes walked) in the records so far, against the file's budget
    try:
        for node in reader.nodes():
            del line[node.depth :]
            del line_moves[node.depth :]
            line.append(node)
            line_moves.append(_move(node))
            if not node.is_leaf:
                continue
            emitted += len(line)
            if leaves >= options.max_records:
                message = f"{options.too_many('lines')}; the rest of the library is skipped"
            else:
                budget = options.move_budget(reader.offset)
                if emitted <= budget:
                    record = _record(path, leaves, line, line_moves, reader, options)
                    # its text (the comments of the nodes before it) costs too: it is repeated
                    # in every line below them
                    emitted += text_cost(record)
                    if emitted <= budget:
                        yield record
                        leaves += 1
                        continue
                message = (
                    f"the lines read so far hold {emitted} moves and text in all, more than "
                    f"the file's budget ({budget_terms(options)}): a tree this repetitive is "
                    "refused; the rest of the library is skipped"
                )
            yield _failed(path, leaves, message, node.offset, reader, line)
            return
    except RenlibError as exc:
        yield _failed(path, leaves, exc.message, exc.offset, reader, line)


def _move(node: Node) -> Move | None:
    """The move of a node, or ``None`` when it carries none."""
    if not node.carries_move:
        return None
    return Move(node.point, offset=node.offset, token=f"0x{node.pos:02x}", comment=node.comment)


def _record(
    path: str,
    index: int,
    line: list[Node],
    line_moves: list[Move | None],
    reader: TreeReader,
    options: ReadOptions,
) -> Record:
    moves = [m for m in line_moves if m is not None]
    # the texts of the line by key; several no-move nodes can sit at the same move number,
    # their texts joined once (joining as they come would copy the text so far each time)
    texts: dict[str, list[str]] = {}
    played = 0
    for node in line:
        if node.carries_move:
            played += 1
        elif node.comment is not None:
            texts.setdefault(f"renlib.comment.{played}", []).append(node.comment)
        if node.board_text is not None:
            texts.setdefault(f"renlib.board_text.{played}", []).append(node.board_text)
    metadata: dict[str, str] = {}
    if reader.version is not None:
        metadata["renlib.version"] = reader.version
    for key, parts in texts.items():
        metadata[key] = "\n".join(parts)
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
