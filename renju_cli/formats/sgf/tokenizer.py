"""SGF bytes -> game trees of nodes with raw property values.

Why a tokenizer of our own and not ``sgfmill``: sgfmill (1.1.1) rejects ``SZ[15:17]``, its grammar
refuses property names with digits (a single ``5A[..]``, the usual fifth-move offers, makes the
whole file unreadable), it stops at the first error of a collection instead of going on with the
next game tree, and it keeps no line numbers.  The grammar is small; this one is iterative (no
recursion: deep variation nesting cannot exhaust the Python stack).

Malformed input never raises: an unclosed tree, an unterminated value or stray text is a
``ParseProblem`` with its line, and reading goes on.  An unclosed tree ends where a nested ``(;``
node carries ``GM`` or ``FF`` (a root-only property: that is the next game); after an
unterminated value (one that reaches the end of the file, or a point value running over a line
that starts with ``(;``) the reader resumes at the next line starting with ``(;``.

Time stays linear in the file: a value's search for its ``]`` stops at the next line that starts
a node (point values) or a game (text), and a search that found nothing closing a value up to
such a line is not made again for a later value before it (``Parser.unclosed``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from renju_cli import limits
from renju_cli.formats import ReadOptions, clip
from renju_cli.formats.charset import charset, dbcs_kind, is_lead
from renju_cli.memo import remember
from renju_cli.record import ParseProblem

_WS = re.compile(rb"[ \t\r\n\f\v]*")
_WS_BYTES = frozenset(b" \t\r\n\f\v")
_IDENT = re.compile(rb"[A-Za-z0-9]+")
_IDENT_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_JUNK = re.compile(rb"[^A-Za-z0-9;()\[ \t\r\n\f\v]+")
_STRUCT = re.compile(rb"[()\[]")
_VALUE_SPECIAL = re.compile(rb"[\\\]]")
_VALUE_SPECIAL_DBCS = re.compile(rb"[\\\]\x81-\xfe]")
#: A node of plain properties (names, and values of no escape, ``(`` or byte past ASCII, so
#: alike in every charset and never left open) up to the next node or variation: read in one
#: match (``Parser.parse_node``), not byte by byte.  (Possessive: a value cannot end anywhere
#: but at a "]", and ``re`` keeps state for each turn of a group it may backtrack into.)
_PLAIN_NODE = re.compile(
    rb"(?:[ \t\r\n\f\v]*+[A-Za-z0-9]++(?:[ \t\r\n\f\v]*+\[[^\]\\(\x80-\xff]*+\])++)++"
    rb"[ \t\r\n\f\v]*+(?=[;()]|\Z)"
)
#: The same of the usual node, one property of one value (``;B[hh]``): no second match.
_ONE_PROPERTY_NODE = re.compile(
    rb"([A-Za-z0-9]++)\[([^\]\\(\x80-\xff]*+)\][ \t\r\n\f\v]*+(?=[;()]|\Z)"
)
_PLAIN_PROPERTY = re.compile(rb"([A-Za-z0-9]++)((?:[ \t\r\n\f\v]*+\[[^\]]*+\])++)")
_PLAIN_VALUE = re.compile(rb"\[([^\]]*)\]")
#: A game of one line (a collection of short games), read in one match by
#: ``Parser.line_game``: nodes of one move each (a "bare" game, ``(;B[hh];W[hi])``), or a root
#: of plain properties and no move, then such nodes (``(;RU[rif]PB[Ann];B[hh];W[hi])``).  At
#: most 64 properties or values and 1,024 moves: a hostile root of 170,000 ``PB[aa]`` or
#: chain of ``;B[]`` is left to the parser at once, not matched whole first.  (Each part ends
#: where the next cannot start, so a failed match costs its bytes once.)
_BARE_GAME = re.compile(rb"\([ \t]*((?:;[ \t]*[BW]\[(?:[a-z][a-z])?\][ \t]*){1,1024})\)")
_INFO_GAME = re.compile(
    rb"\([ \t]*;[ \t]*((?:(?![BW][ \t]*\[)"
    rb"[A-Za-z0-9]+[ \t]*(?:\[[^\]\\(\n\r]*\][ \t]*){1,64}){1,64})"
    rb"((?:;[ \t]*[BW]\[(?:[a-z][a-z])?\][ \t]*){0,1024})\)"
)
_BARE_MOVE = re.compile(rb"([BW])\[([a-z]*)\]")
#: Roots of such games remembered at most, and the longest one remembered.
_ROOTS = 1024
_ROOT_BYTES = 512
#: What may follow a value: another value, the next node or variation, the end of the tree or
#: of the file, or a property (a ``]`` followed by anything else was no value's end).
_CONTINUES = re.compile(rb"[ \t\r\n\f\v]*+(?:[\[;()]|\Z|[A-Za-z0-9]++[ \t\r\n\f\v]*+\[)")
#: Text read on past a ``]`` not escaped (``Parser._with_brackets``): no escape, node or
#: variation in it, and at most this many ``]`` more.
_PLAIN_TEXT = re.compile(rb"[^\\;()]*+")
_BRACKETS = 3
#: A line that starts a node: a point value running over it has lost its ``]``.
RESYNC = re.compile(rb"(?m)^[ \t]*\(\s*;")
#: Not a blank between or after trees (NUL padding and a DOS end-of-file mark count as blank).
_NOT_BLANK = re.compile(rb"[^ \t\r\n\f\v\x00\x1a]")
#: In a value of any property, a line that starts a new game (``(;`` and a root property): its
#: ``]`` is missing, and the value would swallow the next game (a comment cut short, a charset
#: that hides the ``]``).
RESYNC_GAME = re.compile(rb"\n[ \t]*\([ \t]*;[ \t]*(?:GM|FF|SZ|CA)[ \t]*\[")
#: Properties whose values are short (points, numbers): one that spans a line starting with
#: ``(;`` is taken as unterminated.
SHORT_PROPS = frozenset({"B", "W", "AB", "AW", "AE", "5A", "FA", "SZ", "GM", "FF", "SW", "CA"})
_CA_PRESCAN = re.compile(rb"(?<![A-Za-z])CA\s*\[\s*([A-Za-z0-9_.:\-]{1,40})\s*\]")
#: Bytes of a root node scanned for its ``CA`` before it is tokenized.
_PRESCAN_BYTES = 65536

#: ``Parser._special``: the value ends here, or never.
_CLOSED = -1
_OPEN = -2

#: Problems of the nodes of one game tree made at most (``limits``).
MAX_NODE_PROBLEMS = limits.SGF_NODE_PROBLEMS


#: The raw (unescaped) values of a property, and a property with its name.
Values = tuple[bytes, ...]
Property = tuple[str, Values]


class Node:
    """One SGF node: its properties in file order, with raw (unescaped) byte values.

    The whole tree is kept while its lines are walked, so a node holds no empty lists:
    ``props``, ``children`` and ``problems`` are ``None`` until they get an entry.  Properties
    are tuples of bytes and strings, which the garbage collector does not track: a tree of
    200,000 nodes walked by the collector again and again took 40 % of its parsing.
    """

    __slots__ = ("children", "line", "problems", "props", "unterminated")

    def __init__(self, line: int) -> None:
        self.line = line
        self.props: tuple[Property, ...] | None = None
        self.children: list[Node] | None = None
        self.problems: list[ParseProblem] | None = None
        #: (line, byte offset) of a ``[`` whose value never ends.
        self.unterminated: tuple[int, int] | None = None

    def problem(self, problem: ParseProblem) -> None:
        """Add a problem of this node."""
        if self.problems is None:
            self.problems = []
        self.problems.append(problem)

    def get(self, ident: str) -> Values | None:
        """The values of property ``ident``, or ``None``."""
        for name, values in self.props or ():
            if name == ident:
                return values
        return None

    def has(self, *idents: str) -> bool:
        """Whether the node holds one of the properties ``idents``."""
        return any(name in idents for name, _ in self.props or ())

    @property
    def empty(self) -> bool:
        """Nothing read in this node: no property, no problem, no value left open."""
        return not self.props and not self.problems and self.unterminated is None


@dataclass(slots=True)
class Tree:
    """A game tree as parsed: its root (``None``: no node) and the problems of its structure."""

    line: int
    root: Node | None = None
    problems: list[ParseProblem] = field(default_factory=list)
    #: some node has several children (else the tree is one path, walked without marks)
    branched: bool = False
    #: parsing stopped at a line past the records the file may still give: the rest of the
    #: file is not read (``Parser.parse_tree``'s ``max_lines``)
    cut: bool = False


def normalize_ident(raw: str) -> str:
    """``AddBlack`` (FF[3] long names) -> ``AB``; otherwise the name in upper case."""
    upper = raw.upper()
    if upper == raw or raw.lower() == raw:
        return upper
    return "".join(c for c in raw if c.isupper() or c.isdigit())


class LineGame(NamedTuple):
    """A game of one line (``Parser.line_game``): its line, its root of properties (``None``:
    the root is its first move) and its moves (``B``/``W``, value)."""

    line: int
    root: Node | None
    moves: list[tuple[bytes, bytes]]


@dataclass(slots=True)
class _Build:
    """The state of a tree being parsed (``Parser.parse_tree``)."""

    tree: Tree
    #: lines (leaves) the tree may give before parsing stops
    most: int
    depth: int = 1
    stack: list[Node | None] = field(default_factory=list)
    current: Node | None = None
    #: a second root-level sequence was met (not readable)
    orphan: bool = False
    too_deep_said: bool = False
    #: the last thing read was a node (not a "(" or ")"): a node now follows it in sequence
    in_sequence: bool = False
    #: leaves so far: the records the tree gives
    lines: int = 0


class Parser:
    """An iterative SGF tokenizer and tree builder over the bytes of a whole file."""

    def __init__(self, data: bytes, options: ReadOptions) -> None:
        self.data = data
        self.pos = 0
        self.line = 1
        self.opts = options
        self.default_dbcs = dbcs_kind(options.encoding)
        self.dbcs: str | None = self.default_dbcs
        #: a ``CA`` says how the text is written, unless the file was recoded to UTF-8
        self.ca_applies = not options.recoded
        #: the properties of the roots of games of one line by their text (``line_game``): a
        #: collection repeats a few roots in every game
        self.roots: dict[bytes, list[Property]] = {}
        #: the charset the tree's root names (``CA``), for the text that problems quote
        self.ca: str | None = None
        #: the node ``_starts_new_game`` read ahead and found not to start a game, with where it
        #: starts and the state after it: the node the parse reads next (a tree of 40,000 short
        #: variations read each first node twice)
        self.ahead: tuple[int, Node, int, int, str | None, int, int] | None = None
        #: node problems still listed in the tree being parsed, and those counted past them
        self.room = MAX_NODE_PROBLEMS
        self.dropped = 0
        #: (cut, dbcs) -> (from, to): a value read from ``from`` in that mode, cut short by
        #: ``cut``, found nothing closing it before ``to`` (a match of ``cut``; with no cut, the
        #: end of the data, which holds for any cut), so no value starting later up to ``to``
        #: does either: a value's scan reaches any later start in the state a scan from there
        #: begins in (a start follows a ``[``, which is neither an escape nor a lead byte).
        #: Lines ``(;C[x`` without a ``]`` would otherwise each scan to the end of the file.
        self.unclosed: dict[tuple[re.Pattern[bytes] | None, str | None], tuple[int, int]] = {}
        #: for each pattern that cuts a value short (``RESYNC``, ``RESYNC_GAME``): (from, at),
        #: ``at`` the newline of its first match whose newline is at or after ``from`` (the
        #: data's length: none); a later position up to ``at`` has the same (``_cut_at``)
        self.cuts: dict[re.Pattern[bytes], tuple[int, int]] = {}

    # -- low level

    def _room(self) -> bool:
        """Whether a node's problem is still listed in this tree (``MAX_NODE_PROBLEMS``); past
        that, problems are counted (``dropped``), not made."""
        if self.room > 0:
            self.room -= 1
            return True
        self.dropped += 1
        return False

    def _node_problem(self, node: Node, message: str, line: int) -> None:
        if self._room():
            node.problem(ParseProblem(message, line=line))

    def _advance(self, newpos: int) -> None:
        if newpos >= self.pos:
            self.line += self.data.count(b"\n", self.pos, newpos)
        else:  # back to where a value found unterminated began to be read wrong
            self.line -= self.data.count(b"\n", newpos, self.pos)
        self.pos = newpos

    def _skip_ws(self) -> None:
        if self.pos < len(self.data) and self.data[self.pos] in _WS_BYTES:
            m = _WS.match(self.data, self.pos)
            assert m is not None  # (it matches the empty string)
            self._advance(m.end())

    def _cut_at(self, cut: re.Pattern[bytes], i: int) -> int:
        """The newline of the first match of ``cut`` (``RESYNC``: the newline before the line
        it matches; ``RESYNC_GAME``: its own first byte) that lies at or after ``i``; the
        data's length when there is none.  Found once for the positions up to it."""
        known = self.cuts.get(cut)
        if known is not None and known[0] <= i <= known[1]:
            return known[1]
        n = len(self.data)
        if cut is RESYNC:  # (``^``: a match at ``i + 1`` or later has its newline at ``i``...)
            m = cut.search(self.data, i + 1)
            at = m.start() - 1 if m is not None else n
        else:
            m = cut.search(self.data, i)
            at = m.start() if m is not None else n
        self.cuts[cut] = (i, at)
        return at

    def _known_unclosed(self, start: int, cut: re.Pattern[bytes] | None) -> bool:
        for key in ((None, self.dbcs), (cut, self.dbcs)):  # (to the end, then to this cut)
            known = self.unclosed.get(key)
            if known is not None and known[0] <= start <= known[1]:
                return True
        return False

    def read_value(self, cut: re.Pattern[bytes] | None = None) -> bytes | None:
        """Read ``[...]`` at ``pos``; escapes resolved, soft line breaks removed.

        Returns ``None`` (and leaves ``pos`` on the ``[``) when the value is not terminated:
        no ``]`` closes it, or (``cut``) it runs over a match of ``cut`` whose newline no
        escape took (the value read whole would hold that match: the caller takes it as not
        terminated then).  The scan stops there.
        """
        start = self.pos + 1
        if self.unclosed and self._known_unclosed(start, cut):
            return None
        limit = self._cut_at(cut, start) if cut is not None else len(self.data)
        if self.dbcs is None:
            end = self.data.find(b"]", start, limit)
            if end >= 0 and self.data.find(b"\\", start, end) < 0:
                self._advance(end + 1)
                return self.data[start:end]
        return self._scan_value(start, limit, cut)

    def _scan_value(self, start: int, limit: int, cut: re.Pattern[bytes] | None) -> bytes | None:
        """``read_value`` of a value with escapes or lead bytes: byte by special byte."""
        special = _VALUE_SPECIAL if self.dbcs is None else _VALUE_SPECIAL_DBCS
        out = bytearray()
        i = start
        while True:
            if cut is not None and i > limit:  # (an escape took the newline: the next match)
                limit = self._cut_at(cut, i)
            m = special.search(self.data, i, limit)
            if m is None:  # (nothing closes it, nor a value starting later up to the limit)
                self.unclosed[None if limit >= len(self.data) else cut, self.dbcs] = (start, limit)
                return None
            out += self.data[i : m.start()]
            i = self._special(m.start(), limit, out)
            if i == _CLOSED:
                return bytes(out)
            if i == _OPEN:
                if limit == len(self.data):
                    self.unclosed[None, self.dbcs] = (start, limit)
                return None

    def _special(self, j: int, limit: int, out: bytearray) -> int:
        """The special byte at ``j`` of a value (``]``, an escape, a lead byte) into ``out``:
        where the value goes on, or ``_CLOSED`` (``pos`` after it) or ``_OPEN`` (it never
        ends)."""
        data = self.data
        b = data[j]
        if b == 0x5D:  # ]
            self._advance(j + 1)
            return _CLOSED
        if b == 0x5C:  # backslash
            return _OPEN if j + 1 >= len(data) else self._escape(j, out)
        # a high byte in a double-byte charset: a lead byte takes its trail byte along
        if self.dbcs is not None and j + 1 < len(data) and is_lead(b, self.dbcs):
            if j + 1 == limit:  # (the cut's newline as a trail byte: still in the value)
                return _OPEN
            out += data[j : j + 2]
            return j + 2
        out.append(b)
        return j + 1

    def _escape(self, j: int, out: bytearray) -> int:
        """The escape at ``j`` (a backslash, not the last byte) into ``out``; where after it."""
        data = self.data
        nb = data[j + 1]
        i = j + 2
        if nb not in (0x0A, 0x0D):
            out.append(nb)
        elif i < len(data) and data[i] in (0x0A, 0x0D) and data[i] != nb:
            i += 1  # a soft line break of CR LF or LF CR: removed whole
        return i

    # -- nodes

    def parse_node(self, line: int, is_root: bool = False) -> Node:
        """Parse the properties of a node; ``pos`` is just after its ``;``."""
        node = Node(line)
        if self._plain_node(node, is_root):
            return node
        props: list[Property] = []
        while self._next_in_node(node, props, is_root):
            pass
        if props:
            node.props = tuple(props)
        return node

    def _plain_node(self, node: Node, is_root: bool) -> bool:
        """Read a node of plain properties in one match (the usual node: its properties, then
        the next node or variation); False when it is not one (read byte by byte then)."""
        m = _ONE_PROPERTY_NODE.match(self.data, self.pos)
        if m is not None:
            props = [(normalize_ident(m[1].decode("ascii")), (m[2],))]
        else:
            m = _PLAIN_NODE.match(self.data, self.pos)
            if m is None or m.end() == self.pos:
                return False
            props = [
                (normalize_ident(name.decode("ascii")), tuple(_PLAIN_VALUE.findall(values)))
                for name, values in _PLAIN_PROPERTY.findall(m[0])
            ]
        for ident, values in props:
            if ident == "CA" and is_root:
                self._root_charset(values[0])
        node.props = tuple(props)
        self._advance(m.end())
        return True

    def _next_in_node(self, node: Node, props: list[Property], is_root: bool) -> bool:
        """Read the next property (or junk) of ``node`` into ``props``; False at the node's
        end."""
        self._skip_ws()
        if self.pos >= len(self.data):
            return False
        c = self.data[self.pos]
        if c in b";()":
            return False
        if c == 0x5B:  # a value without a property name
            vline, vpos = self.line, self.pos
            if self.read_value() is None:
                node.unterminated = (vline, vpos)
                return False
            self._node_problem(node, "value without a property name", vline)
            return True
        if c not in _IDENT_BYTES:
            self._junk(node)
            return True
        return self._property(node, props, is_root)

    def _junk(self, node: Node) -> None:
        """No property name starts at ``pos``: junk up to the next one."""
        j = _JUNK.match(self.data, self.pos)
        end = j.end() if j is not None and j.end() > self.pos else self.pos + 1
        if self._room():  # (past the tree's bound the problem is counted, not made)
            snippet = self._head(self.data[self.pos : end])
            node.problem(ParseProblem(f"unexpected text {snippet!r} in a node", line=self.line))
        self._advance(end)

    def _property(self, node: Node, props: list[Property], is_root: bool) -> bool:
        """Read a property name and its values into ``props``; False when a value is left
        open (the node ends there)."""
        m = _IDENT.match(self.data, self.pos)
        assert m is not None  # the caller saw a name's first byte
        ident_line = self.line
        raw_ident = m.group().decode("ascii")
        self.pos = m.end()
        ident = normalize_ident(raw_ident)
        values, left_open, brackets = self._values(ident)
        if brackets:
            said = f"{clip(raw_ident)}[...] holds a ']' not escaped: read as part of its text"
            if self._room():
                node.problem(ParseProblem(said, line=ident_line, severity="warning"))
        if left_open is not None:
            node.unterminated = left_open
            if values:
                props.append((ident, values))
            return False
        if not values:
            self._node_problem(node, f"property {clip(raw_ident)} has no value", ident_line)
            return True
        if ident == "CA" and is_root:
            self._root_charset(values[0])
        props.append((ident, values))
        return True

    def _values(self, ident: str) -> tuple[Values, tuple[int, int] | None, bool]:
        """The values of property ``ident``, where the one left open starts (line, byte
        offset), if one is, and whether a text value held a ``]`` not escaped."""
        short = ident in SHORT_PROPS
        values: list[bytes] = []
        starts: list[int] = []  # (where each value's "[" is)
        brackets = False
        while True:
            self._skip_ws()
            if self.pos >= len(self.data) or self.data[self.pos] != 0x5B:
                return tuple(values), None, brackets
            where = (self.line, self.pos)
            value = self.read_value(RESYNC if short else RESYNC_GAME)
            if value is None or _runs_over_a_new_node(value, short):
                return tuple(values), where, brackets
            values.append(value)
            starts.append(where[1])
            if not short and self._with_brackets(values, starts):
                brackets = True

    def _with_brackets(self, values: list[bytes], starts: list[int]) -> bool:
        """Read the last of a property's text ``values`` on past a ``]`` that the file did
        not escape (``PB[Tom [3d]]``), where the file reads only so: what follows the ``]`` is
        no SGF, and what follows a later ``]`` on the same line is (at most ``_BRACKETS`` later
        ones, of plain text in between).  The values of the property before it on the same line
        are taken into it (``PB[Tom [3d] [KGS]]`` read ``[KGS`` as a second value).  False
        (nothing changed) when the value reads as it is, or not so."""
        data = self.data
        if _CONTINUES.match(data, self.pos):
            return False
        close = self._close_on_line()
        if close < 0:
            return False
        first = len(starts) - 1  # (the first value of the property on this line)
        while first > 0 and data.find(b"\n", starts[first - 1], self.pos) < 0:
            first -= 1
        whole = data[starts[first] + 1 : close]
        if not _PLAIN_TEXT.fullmatch(whole) or (self.dbcs and not whole.isascii()):
            return False  # (escapes, nodes, lead bytes that may have taken a "]")
        values[first:] = [whole]
        del starts[first + 1 :]
        self.pos = close + 1  # (on the same line)
        return True

    def _close_on_line(self) -> int:
        """The first of the next ``_BRACKETS`` ``]`` on the line after ``pos`` that SGF may
        follow, or -1."""
        data = self.data
        eol = data.find(b"\n", self.pos)
        end = self.pos
        for _ in range(_BRACKETS):
            close = data.find(b"]", end, len(data) if eol < 0 else eol)
            if close < 0:
                return -1
            end = close + 1
            if _CONTINUES.match(data, end):
                return close
        return -1

    def _root_charset(self, value: bytes) -> None:
        """The root's ``CA[value]``: a double-byte charset's mode for the rest of the tree (the
        values after it), unless the file was recoded to UTF-8."""
        if self.ca_applies:
            self.ca = value.decode("latin-1").strip()
            kind = dbcs_kind(self.ca)
            if kind is not None:
                self.dbcs = kind

    def _prescan_charset(self) -> None:
        """Set the double-byte mode from a ``CA`` in the root node before tokenizing it."""
        self.dbcs, self.ca = self.default_dbcs, None
        if not self.ca_applies:
            return
        span = self._root_span()
        if span is None or self.data.find(b"CA", *span) < 0:
            return  # (the usual case: no charset, no regular expression)
        m = _CA_PRESCAN.search(self.data, *span)
        self.ca = m.group(1).decode("ascii") if m is not None else None
        kind = dbcs_kind(self.ca)
        if kind is not None:
            self.dbcs = kind

    def _head(self, raw: bytes) -> str:
        """The start of ``raw`` (20 characters) as a problem quotes it: decoded as the tree's
        text is (its ``CA``, ``--encoding``, then as ``charset`` says)."""
        if raw.isascii():
            return raw[:20].decode("ascii")
        return charset(self.ca, self.opts.encoding).head(raw[:84], 20)

    def _root_span(self) -> tuple[int, int] | None:
        """Where the root node of the tree whose ``(`` is at ``pos`` starts and, as far as a
        scan for its charset goes, ends: at the next node or variation (so that the scans of a
        file of many trees add up to one pass over it); ``None`` when there is no root node."""
        data = self.data
        ws = _WS.match(data, self.pos + 1)
        first = ws.end() if ws is not None else self.pos + 1
        if first >= len(data) or data[first] != 0x3B:
            return None
        limit = min(len(data), first + _PRESCAN_BYTES)
        semicolon = data.find(b";", first + 1, limit)
        if semicolon >= 0:
            limit = semicolon
        paren = data.find(b"(", first, limit)
        return first, paren if paren >= 0 else limit

    # -- trees

    def _starts_new_game(self) -> bool:
        """Whether the ``(`` at ``pos`` opens a node with a root-only property (a new game)."""
        pos, line, dbcs, room, dropped = self.pos, self.line, self.dbcs, self.room, self.dropped
        try:
            self.pos += 1
            self._skip_ws()
            if self.pos >= len(self.data) or self.data[self.pos] != 0x3B:
                return False
            self.pos += 1
            start = self.pos
            node = self.parse_node(self.line)
            if node.has("GM", "FF"):
                return True
            # (the parse takes it at ``start``, as it stands after it: not read twice)
            self.ahead = (start, node, self.pos, self.line, self.dbcs, self.room, self.dropped)
            return False
        finally:  # (a look ahead: taken back)
            self.pos, self.line, self.dbcs, self.room, self.dropped = pos, line, dbcs, room, dropped

    def _skip_subtree(self) -> bool:
        """Skip the balanced ``( ... )`` at ``pos``; False if the file ends first."""
        depth = 0
        data = self.data
        while True:
            m = _STRUCT.search(data, self.pos)
            if m is None:
                self._advance(len(data))
                return False
            self._advance(m.start())
            c = data[self.pos]
            if c == 0x5B:
                if self.read_value() is None:
                    return False
                continue
            self.pos += 1
            depth += 1 if c == 0x28 else -1
            if depth == 0:
                return True

    def parse_tree(self, max_lines: int | None = None) -> Tree:
        """Parse the game tree whose ``(`` is at ``pos``; stop (``tree.cut``) when a line more
        than ``max_lines`` begins: the lines before it are whole, and what follows is not read
        (a megabyte of ``(;W[aa])`` siblings is 130,000 lines, past the file's bound on records
        after a tenth of it)."""
        n = len(self.data)
        build = _Build(Tree(self.line), max_lines if max_lines is not None else n + 1)
        self.room, self.dropped = MAX_NODE_PROBLEMS, 0
        self._prescan_charset()
        self.pos += 1
        tree = build.tree
        while True:
            self._skip_ws()
            if self.pos >= n:
                _said(tree, f"game tree opened at line {tree.line} is not closed (missing ')')")
                return tree
            c = self.data[self.pos]
            if c == 0x29:  # )
                done = self._close(build)
            elif c == 0x28:  # (
                done = self._open(build)
            elif c == 0x3B:  # ;
                done = self._node(build)
            else:
                done = self._outside_a_node(tree)
            if done:
                return tree

    def _close(self, build: _Build) -> bool:
        self.pos += 1
        build.depth -= 1
        if build.depth == 0:
            return True
        build.current = build.stack.pop()
        build.in_sequence = False
        return False

    def _open(self, build: _Build) -> bool:
        tree = build.tree
        if self._starts_new_game():
            _said(
                tree,
                f"game tree opened at line {tree.line} is not closed before the next "
                f"game tree at line {self.line}",
            )
            return True
        if build.depth >= self.opts.max_depth:
            return self._too_deep(build)
        build.stack.append(build.current)
        build.depth += 1
        self.pos += 1
        build.in_sequence = False
        return False

    def _too_deep(self, build: _Build) -> bool:
        """Skip a variation nested past ``max_depth`` (said once); True when it never ends."""
        tree = build.tree
        if not build.too_deep_said:
            build.too_deep_said = True
            tree.problems.append(
                ParseProblem(
                    f"variations nested deeper than {self.opts.max_depth} levels are not read",
                    line=self.line,
                )
            )
        vline = self.line
        if self._skip_subtree():
            return False
        tree.problems.append(
            ParseProblem(f"variation opened at line {vline} is not closed (missing ')')", vline)
        )
        return True

    def _read_node(self, line: int, is_root: bool) -> Node:
        """The node after the ``;`` at ``pos``: the one read ahead, if it was (as it is read
        here: a root's ``CA`` may change the mode, so not a root)."""
        ahead, self.ahead = self.ahead, None
        if ahead is None or ahead[0] != self.pos or is_root:
            return self.parse_node(line, is_root=is_root)
        self.pos, self.line, self.dbcs, self.room, self.dropped = ahead[2:]
        return ahead[1]

    def _node(self, build: _Build) -> bool:
        line = self.line
        self.pos += 1
        node = self._read_node(line, build.tree.root is None and build.current is None)
        if build.in_sequence and node.empty:
            # An empty node in the middle of a sequence adds nothing to any line: it is not
            # kept (1 MB of ";" would otherwise be a million nodes).  One that opens a
            # variation is kept: it makes a line of its own.
            return False
        build.in_sequence = True
        if self._attach(build, node, line):
            return True
        build.current = node
        if node.unterminated is None:
            return False
        vline, vpos = node.unterminated
        build.tree.problems.append(
            ParseProblem(
                f"property value opened at line {vline} is never closed (missing ']')", vline
            )
        )
        m = RESYNC.search(self.data, vpos + 1)
        self._advance(m.start() if m is not None else len(self.data))
        return True

    def _attach(self, build: _Build, node: Node, line: int) -> bool:
        """Put ``node`` in the tree; True when it begins a line past ``build.most``."""
        tree, current = build.tree, build.current
        if current is None:
            if tree.root is None:
                tree.root = node
                build.lines = 1
            elif not build.orphan:
                build.orphan = True
                tree.problems.append(
                    ParseProblem("a game tree has several root nodes; only the first is read", line)
                )
        elif current.children is None:
            current.children = [node]
        else:
            tree.branched = True
            current.children.append(node)
            build.lines += 1
            if build.lines > build.most:
                tree.cut = True
                return True
        return False

    def _outside_a_node(self, tree: Tree) -> bool:
        """A value or text where a node, ``(`` or ``)`` should be; True when a value never
        ends."""
        data = self.data
        if data[self.pos] == 0x5B:
            vline = self.line
            if self.read_value() is None:
                _said(tree, f"property value opened at line {vline} is never closed", vline)
                self._advance(len(data))
                return True
            _said(tree, "value outside a node (missing ';')", vline)
            return False
        m = _IDENT.match(data, self.pos) or _JUNK.match(data, self.pos)
        end = m.end() if m is not None and m.end() > self.pos else self.pos + 1
        snippet = self._head(data[self.pos : end])
        _said(tree, f"unexpected text {snippet!r} outside a node", self.line)
        self._advance(end)
        return False

    def line_game(self) -> LineGame | None:
        """The game of one line at ``pos`` (``_BARE_GAME``, ``_INFO_GAME``), ``pos`` after it;
        ``None`` (``pos`` unchanged) when the tree is anything more: ``parse_tree`` reads it.
        Its nodes are the ones ``parse_tree`` would make of them."""
        m = _BARE_GAME.match(self.data, self.pos)
        root = None
        if m is None:
            m = _INFO_GAME.match(self.data, self.pos)
            if m is None:
                return None
            root = self._line_root(m[1])
            if root is None:
                return None
        game = LineGame(self.line, root, _BARE_MOVE.findall(m[1] if root is None else m[2]))
        self.pos = m.end()
        return game

    def _double_byte(self, props: list[Property]) -> bool:
        """Whether the root of the tree at ``pos``, of properties ``props``, is read in a
        double-byte mode (the file's, or one its charset names)."""
        self._prescan_charset()
        for ident, values in props:
            if ident == "CA":
                self._root_charset(values[0])
        return self.dbcs is not None

    def _line_root(self, span: bytes) -> Node | None:
        """The root node of properties ``span`` (of a game of one line), or ``None`` when the
        parser would read it otherwise: a move in it, or text in a double-byte charset."""
        props = self.roots.get(span)
        if props is None:
            props = [
                (normalize_ident(name.decode("ascii")), tuple(_PLAIN_VALUE.findall(values)))
                for name, values in _PLAIN_PROPERTY.findall(span)
            ]
            if len(span) <= _ROOT_BYTES:
                remember(self.roots, span, props, _ROOTS)
        if any(ident in ("B", "W") for ident, _ in props):
            return None
        if not span.isascii() and self._double_byte(props):
            return None  # (its text is read in the double-byte mode of the file or its CA)
        root = Node(self.line)
        root.props = tuple(props)
        return root

    def next_tree(self) -> tuple[str | None, int] | None:
        """Move to the next ``(``; return stray-text info (a message or None, its line).

        Returns ``None`` at the end of the file.
        """
        data = self.data
        start = self.pos
        p = data.find(b"(", start)
        stray: str | None = None
        stray_line = self.line
        close = data.find(b")", start, p if p >= 0 else len(data))
        if close >= 0:
            stray_line = self.line + data.count(b"\n", start, close)
            stray = f"unbalanced ')' at line {stray_line}"
        if p < 0:
            if stray is None:  # after the last tree: anything but blanks is said (move lists...)
                stray, stray_line = self._not_blank(start, len(data), _AFTER_THE_LAST)
            self._advance(len(data))
            return None if stray is None else (stray, stray_line)
        if p > start:  # (between trees of a collection: nothing, or a line end)
            if stray is None and start > 0:  # anything else is said (a game that lost its "(")
                stray, stray_line = self._not_blank(start, p, _BETWEEN)
            self._advance(p)
        return stray, stray_line

    def _not_blank(self, start: int, end: int, message: str) -> tuple[str | None, int]:
        """``message`` (with its line) when text from ``start`` to ``end`` is not blank."""
        text = _NOT_BLANK.search(self.data, start, end)
        if text is None:
            return None, self.line
        line = self.line + self.data.count(b"\n", start, text.start())
        return message.format(line=line), line


_AFTER_THE_LAST = "text after the last game tree (line {line}) is not SGF; not read"
_BETWEEN = "text between game trees (line {line}) is not SGF; not read"


def _runs_over_a_new_node(value: bytes, short: bool) -> bool:
    """Whether a value read whole holds a line that starts a node (a point value) or a game
    (any value): its ``]`` is missing."""
    if short and RESYNC.search(value):
        return True
    return b"\n" in value and RESYNC_GAME.search(value) is not None


def _said(tree: Tree, message: str, line: int | None = None) -> None:
    tree.problems.append(ParseProblem(message, line=tree.line if line is None else line))
