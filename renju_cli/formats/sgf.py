"""SGF (Smart Game Format, FF[4]) reader and writer for gomoku and renju records.

Why a tokenizer of our own and not ``sgfmill``
    sgfmill (1.1.1) reads ``GM[4]``/``GM[5]`` and sizes up to 26, but it rejects ``SZ[15:17]``,
    its grammar refuses property names with digits, so a single ``5A[..]`` (the usual fifth-move
    offers) makes the whole file unreadable, it stops at the first error of a collection instead
    of going on with the next game tree, and it keeps no line numbers.  The SGF grammar is small,
    so this module has a compact iterative tokenizer instead (no recursion: deep variation nesting
    cannot exhaust the Python stack).

What is read
    - A collection: every game tree ``( ... )`` is read in turn; ``source.index`` is the number of
      the tree (0-based).  Every root-to-leaf path of a tree is a record: the main line (first
      child at every node) first, with ``source.variation = "main"``, then the other paths in
      pre-order.  A path id lists, for every node with several children on the path, the 0-based
      index of the child taken, trailing zeros dropped: ``"1"`` takes the second child at the
      first branching and the first child afterwards, ``"0.2"`` the main line at the first
      branching and the third child at the second.
    - ``GM[4]``, ``GM[5]`` or no ``GM``; another ``GM`` is read all the same, with a note.
    - ``SZ[15]`` or ``SZ[15:20]`` (width:height, both 5..26; another size makes the record
      unreadable, since rows cannot be converted without the height).  No ``SZ``: the size of
      ``ReadOptions.board_size``, stated in ``Record.width``/``height`` since the rows were
      converted with it.
    - Moves ``B[xy]``/``W[xy]``: ``x`` the column from the left, ``y`` the row from the **top**,
      letters ``a``..``z``; converted to our bottom-origin points (on 15x15 ``hh`` = h8 =
      ``Point(7, 7)``, ``aa`` = a15).  ``Move.color`` comes from the property.  A pass is an empty
      value, or ``tt`` on boards up to 19x19.  A column beyond the board is kept as an off-board
      point for the referee to report; a row below the board or a malformed coordinate cannot be
      represented: a ``ParseProblem`` and the path's moves stop there.
    - Setup ``AB``/``AW`` (point lists, ``aa:cc`` rectangles too) before the first move go to
      ``Record.setup``; setup stones (or ``AE``) after a move cannot be represented: a
      ``ParseProblem``.  ``PL[B]``/``PL[W]`` in a node before the first move says who plays
      move 1 (``Record.to_move``: a problem's setup, black to play).
    - ``RE``: ``B+Resign``/``B+R`` (black, resign), ``W+Time``/``W+T`` (white, time), ``B+F``
      (forfeit), ``B+`` (black, no reason), ``B+<text>`` (the text in lower case, a Go score gives
      no reason), ``0``/``Draw`` (draw), ``?``/``Void``/empty/anything else (winner ``None``).
    - Rule: ``RU[...]`` (raw value in ``metadata["rule_name"]``) mapped to a shipped ruleset name
      (``Record.rule``; unknown names give ``None``); without ``RU``, a rule name found inside
      ``GN[...]``.  See ``ruleset_for``.
    - Fifth-move offers ``5A[..][..]`` or ``FA[..]`` (a value may also hold several points
      written together, ``FA[hhjj]``): ``OpeningEvent("offers", after=4)``.
    - ``SW`` (swap; no standard exists, this is our reading): each value is one event.  A number
      ``n >= 1``: colours were swapped after stone ``n``.  ``Y``/``yes``/``true``/``swap``/``+``/
      empty: a swap; ``N``/``no``/``false``/``0``/``-``: a declined swap; for those two ``after``
      is the number of stones played up to the node carrying ``SW``, or ``-1`` (not stated) on a
      node before any stone.  Anything else is kept as a note.
    - ``PB``/``PW``/``EV``/``DT``/``RO`` -> ``metadata`` ``black``/``white``/``event``/``date``/
      ``round`` (also ``PC`` place, ``GN`` game_name, ``ON`` opening, ...).  Game-info properties
      are taken from the first node of the path that has them.  ``ON[D4]`` also sets
      ``Record.opening_id``.
    - ``C[...]``: the comment of the node's move (``Move.comment``); on the root,
      ``metadata["comment"]``; on another node without a move, appended to the previous move's.
    - Text is decoded with the tree's ``CA`` charset, then ``ReadOptions.encoding``, UTF-8, and
      Latin-1 as the last resort (never failing).  A charset that does not write SGF's
      characters as ASCII (EBCDIC, UTF-16) cannot be the one of a file read as ASCII: it is
      ignored, with a note.  With a double-byte ``CA`` (GBK, Big5, Shift-JIS...) the tokenizer
      skips the trail byte of each character, which may be ``]`` or ``\\``.
    - ``Move.line`` is the 1-based line of the node's ``;``, ``source.line`` the line of the tree's
      ``(``.

Malformed input never raises: an unclosed tree, an unterminated value, a bad coordinate or stray
text gives a ``ParseProblem`` with its line, and reading goes on.  An unclosed tree ends where a
nested ``(;`` node carries ``GM`` or ``FF`` (a root-only property: that is the next game); after an
unterminated value (one that reaches the end of the file, or a point value running over a line
that starts with ``(;``) the reader resumes at the next line starting with ``(;``.  Bounds:
``max_depth`` (nesting of variations; deeper ones are skipped with a problem), ``max_moves``
(per path; and the opening events of a path, one per offered point or ``SW`` value, which also
count against the file's budget), ``max_string`` (decoded text values are cut, with a note),
``max_records``.

The writer produces one linear game tree per record (variations of one file come back as
separate trees), ``FF[4]GM[4]CA[UTF-8]``, so that reading it back gives the same moves, setup,
offers, swaps and result.  What the reader would not give back raises ``ValueError`` (the record
is refused, not written with a part missing): ``choose``/``declare``/``reject``/``relocate``
events have no SGF property, offers are always read back with ``after=4`` (offers after another
move cannot be written), RenjuNet's numbered swap flags and the boards of two-board stones have
no property either.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO, NamedTuple, TextIO

from renju_cli.coords import MAX_SIZE, MIN_SIZE, Point
from renju_cli.formats import (
    ReadOptions,
    budget_terms,
    clip,
    read_whole,
    shipped_by_lower_name,
    text_codec,
    text_cost,
    too_long,
)
from renju_cli.memo import remember
from renju_cli.record import (
    BLACK,
    MAIN_LINE,
    WHITE,
    Color,
    DeclaredResult,
    Move,
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
)

NAME = "sgf"
EXTENSIONS = (".sgf",)
FORMAT = "sgf"

_WS = re.compile(rb"[ \t\r\n\f\v]*")
_WS_BYTES = frozenset(b" \t\r\n\f\v")
_IDENT = re.compile(rb"[A-Za-z0-9]+")
_IDENT_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_JUNK = re.compile(rb"[^A-Za-z0-9;()\[ \t\r\n\f\v]+")
_STRUCT = re.compile(rb"[()\[]")
_VALUE_SPECIAL = re.compile(rb"[\\\]]")
_VALUE_SPECIAL_DBCS = re.compile(rb"[\\\]\x81-\xfe]")
_RESYNC = re.compile(rb"(?m)^[ \t]*\(\s*;")
#: Not a blank between or after trees (NUL padding and a DOS end-of-file mark count as blank).
_NOT_BLANK = re.compile(rb"[^ \t\r\n\f\v\x00\x1a]")
#: In a value of any property, a line that starts a new game (``(;`` and a root property): its
#: ``]`` is missing, and the value would swallow the next game (a comment cut short, a charset
#: that hides the ``]``).
_RESYNC_GAME = re.compile(rb"\n[ \t]*\([ \t]*;[ \t]*(?:GM|FF|SZ|CA)[ \t]*\[")
#: Bounds of the memos of one file (property names, move values): entries, and bytes of a key (a
#: hostile file may hold any number of distinct names and values, of any length)
_MEMO_ENTRIES = 4096
_MEMO_KEY_BYTES = 16
#: A property with plain values (no escapes), and one value: read in one go (a hostile node may
#: hold hundreds of thousands of ``AB[..]``, each many Python loop turns otherwise).  The
#: values' repeat is possessive: ``re`` keeps state for each turn of a group it may backtrack
#: into (half a million ``[]`` took 140 MB), and a value cannot end anywhere but at a "]".
_PLAIN_PROPERTY = re.compile(rb"([A-Za-z0-9]+)[ \t\r\n\f\v]*((?:\[[^\]\\]*+\][ \t\r\n\f\v]*+)++)")
_PLAIN_VALUE = re.compile(rb"\[([^\]\\]*)\]")
#: The usual node (``;B[hh]``, and every tree of a collection of tiny games): one property with
#: one value, then the next node or a variation.  A value of ASCII bytes without ``\\`` or ``(``
#: is read alike whatever the charset (no lead byte) and cannot be unterminated (no ``(;`` in
#: it), so ``_parse_node`` reads such a node in one match, not in two turns of its loop.
_ONE_PROPERTY_NODE = re.compile(rb"([A-Za-z0-9]+)\[([^\]\\(\x80-\xff]*)\](?=[ \t\r\n\f\v]*[;()])")
#: The same with a few such properties, one value each (``;W[aa]SW[1]``: a move and an opening
#: event), read in one match and split by ``_FEW_PROPERTY``.
_FEW_PROPERTY_NODE = re.compile(
    rb"(?:[A-Za-z0-9]+\[[^\]\\(\x80-\xff]*\]){2,8}(?=[ \t\r\n\f\v]*[;()])"
)
_FEW_PROPERTY = re.compile(rb"([A-Za-z0-9]+)\[([^\]]*)\]")
#: Longest text of such a node whose property list is shared (``_Parser.plain_props``).
_SHARED_PROPS_BYTES = 24
#: Properties whose values are short (points, numbers): one that spans a line starting with
#: ``(;`` is taken as unterminated.
_SHORT_PROPS = frozenset({"B", "W", "AB", "AW", "AE", "5A", "FA", "SZ", "GM", "FF", "SW", "CA"})
_CA_PRESCAN = re.compile(rb"(?<![A-Za-z])CA\s*\[\s*([A-Za-z0-9_.:\-]{1,40})\s*\]")
_SNIFF_SURE = re.compile(rb"\(\s*;\s*(?:[A-Za-z0-9]+\s*\[|[;()])")
_SNIFF_MAYBE = re.compile(rb"\(\s*;[^\[]{0,200}?(?:GM|FF|SZ)\s*\[")

#: Charsets whose trail bytes may be ``]`` or ``\\``: lead-byte ranges per family.
_DBCS = {
    "gb2312": "dbcs",
    "gbk": "dbcs",
    "gb18030": "dbcs",
    "big5": "dbcs",
    "big5hkscs": "dbcs",
    "cp950": "dbcs",
    "cp949": "dbcs",
    "johab": "dbcs",
    "shift_jis": "sjis",
    "cp932": "sjis",
    "shift_jis_2004": "sjis",
    "shift_jisx0213": "sjis",
}

#: Game-info properties (simple text) -> metadata keys.
_INFO_KEYS = {
    "PB": "black",
    "PW": "white",
    "EV": "event",
    "DT": "date",
    "RO": "round",
    "PC": "place",
    "GN": "game_name",
    "BR": "black_rank",
    "WR": "white_rank",
    "BT": "black_team",
    "WT": "white_team",
    "ON": "opening",
    "GC": "game_comment",
    "AN": "annotator",
    "SO": "source",
    "US": "user",
    "AP": "application",
    "TM": "time_limit",
    "OT": "overtime",
}
#: The place of each game-info property in ``_INFO_KEYS``.
_INFO_RANK = {ident: rank for rank, ident in enumerate(_INFO_KEYS)}
#: Game-info properties: taken from the first node of a line that has them.
_GAME_INFO = frozenset({*_INFO_KEYS, "RE", "RU", "GM"})
_TEXT_INFO = {"GC"}  # multi-line text: keep line breaks
_OPENING_ID = re.compile(r"[DIdi](1[0-3]|[1-9])")

_REASONS = {
    "r": "resign",
    "resign": "resign",
    "t": "time",
    "time": "time",
    "f": "forfeit",
    "forfeit": "forfeit",
}
_REASON_TEXT = {"resign": "Resign", "time": "Time", "forfeit": "Forfeit"}

# Rule names (normalised: lower case, accents removed, runs of other characters -> "-").
_RULE_NAMES: dict[str, str] = {
    "renju": "renju-rif",
    "rif": "renju-rif",
    "renju-rif": "renju-rif",
    "rif-renju": "renju-rif",
    "renju-rif-rules": "renju-rif",
    "yamaguchi": "yamaguchi",
    "renju-yamaguchi": "yamaguchi",
    "soosyrv-8": "soosyrv-8",
    "soosorv-8": "soosyrv-8",
    "soosyrv8": "soosyrv-8",
    "soosorv8": "soosyrv-8",
    "soosyrv": "soosyrv-8",
    "soosorv": "soosyrv-8",
    "taraguchi-10": "taraguchi-10",
    "taraguchi10": "taraguchi-10",
    "taraguchi": "taraguchi-10",
    "swap2": "swap2",
    "swap-2": "swap2",
    "gomoku-swap2": "swap2",
    "freestyle": "freestyle",
    "free-style": "freestyle",
    "freestyle-gomoku": "freestyle",
    "gomoku-freestyle": "freestyle",
    "gomoku": "freestyle",
    "free": "freestyle",
    "standard": "standard",
    "standard-gomoku": "standard",
    "gomoku-standard": "standard",
}
# Searched inside GN (and in that order: the more specific names first).  A family with a count
# other than the shipped one (Soosyrv-5) gives no rule at all.
_GN_FAMILIES = re.compile(r"(?<![a-z])(soos[oy]rv|taraguchi)(?:-?(\d{1,2}))?(?![a-z])")
_GN_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?<![a-z])yamaguchi(?![a-z])"), "yamaguchi"),
    (re.compile(r"(?<![a-z])swap-?2(?![a-z0-9])"), "swap2"),
    (re.compile(r"(?<![a-z])rif(?![a-z])"), "renju-rif"),
    (re.compile(r"(?<![a-z])standard(?![a-z])"), "standard"),
    (re.compile(r"(?<![a-z])free-?style(?![a-z])"), "freestyle"),
    (re.compile(r"(?<![a-z])renju(?![a-z])"), "renju-rif"),
    (re.compile(r"(?<![a-z])gomoku(?![a-z])"), "freestyle"),
]
_FAMILY_RULES = {
    "soosorv": ("soosyrv-8", "8"),
    "soosyrv": ("soosyrv-8", "8"),
    "taraguchi": ("taraguchi-10", "10"),
}

_SWAP_YES = {"", "y", "yes", "true", "swap", "swapped", "+"}
_SWAP_NO = {"0", "n", "no", "false", "-", "no-swap", "noswap"}


# --------------------------------------------------------------------------------------------
# Detection


def sniff(head: bytes) -> int:
    """2 when the file starts with an SGF game tree ``(;``, 1 when one appears later, else 0."""
    text = head.removeprefix(codecs.BOM_UTF8).lstrip()
    if _SNIFF_SURE.match(text):
        return 2
    if _SNIFF_MAYBE.search(head):
        return 1
    return 0


# --------------------------------------------------------------------------------------------
# Tokenizer and tree


class _SharedProps(list[tuple[str, list[bytes]]]):
    """The property list of every node of one short plain text (``_Parser.plain_props``):
    never changed once parsed."""

    __slots__ = ()


class _Node:
    """One SGF node: its properties in file order, with raw (unescaped) byte values.

    A file may hold a node every three bytes (``;AB``) and the whole tree is kept while its
    lines are walked, so a node holds no empty lists: ``props``, ``children`` and ``problems``
    are ``None`` until they get an entry.
    """

    __slots__ = ("children", "line", "problems", "props", "unterminated")

    def __init__(self, line: int) -> None:
        self.line = line
        self.props: list[tuple[str, list[bytes]]] | None = None
        self.children: list[_Node] | None = None
        self.problems: list[ParseProblem] | None = None
        #: (line, byte offset) of a ``[`` whose value never ends.
        self.unterminated: tuple[int, int] | None = None

    def prop(self, ident: str, values: list[bytes]) -> None:
        if self.props is None:
            self.props = [(ident, values)]
        else:
            self.props.append((ident, values))

    def problem(self, problem: ParseProblem) -> None:
        if self.problems is None:
            self.problems = [problem]
        else:
            self.problems.append(problem)

    def get(self, ident: str) -> list[bytes] | None:
        for name, values in self.props or ():
            if name == ident:
                return values
        return None

    def has(self, *idents: str) -> bool:
        for name, _ in self.props or ():  # noqa: SIM110 - a generator cost more, node after node
            if name in idents:
                return True
        return False


class _Tree:
    __slots__ = ("branched", "cut", "line", "problems", "root")

    def __init__(self, line: int) -> None:
        self.line = line
        self.root: _Node | None = None
        self.problems: list[ParseProblem] = []
        #: some node has several children (else the tree is one path, walked without marks)
        self.branched = False
        #: parsing stopped at a line past the records the file may still give: the rest of
        #: the file is not read (``parse_tree``'s ``max_lines``)
        self.cut = False


def _normalize_ident(raw: str) -> str:
    """``AddBlack`` (FF[3] long names) -> ``AB``; otherwise the name in upper case."""
    upper = raw.upper()
    if upper == raw or raw.lower() == raw:
        return upper
    return "".join(c for c in raw if c.isupper() or c.isdigit())


def _dbcs_kind(name: str | None) -> str | None:
    codec = text_codec(name)
    return None if codec is None else _DBCS.get(codec)


class _Parser:
    """An iterative SGF tokenizer/parser over the bytes of a whole file."""

    def __init__(self, data: bytes, options: ReadOptions) -> None:
        self.data = data
        self.pos = 0
        self.line = 1
        self.opts = options
        self.default_dbcs = _dbcs_kind(options.encoding)
        self.dbcs: str | None = self.default_dbcs
        #: a ``CA`` says how the text is written, unless the file was recoded to UTF-8
        self.ca_applies = not options.recoded
        #: (from, at): ``at`` is the first ``CA`` of the data at or after ``from`` (-1: none)
        self.next_ca = (len(data) + 1, -1)
        #: ``_normalize_ident`` of the short raw names met so far: a file repeats a few names
        #: (``B``, ``W``) in every node, and a look-up costs a fraction of decoding and normalising
        self.idents: dict[bytes, str] = {}
        #: the property list of a short node of plain properties (``;B[hh]``, ``;B[]``,
        #: ``;W[aa]SW[1]``) by its text, shared by every such node (never changed once parsed):
        #: a tree is kept whole while its lines are walked, and a chain of 200,000 pass nodes
        #: held a list, a tuple and a list of values each (92 MB); a node of a move and a swap
        #: in each of 40,960 lines was split anew in each
        self.plain_props: dict[bytes, _SharedProps] = {}
        #: problems of nodes by (message, line): a node per three bytes may each say the same
        #: thing on one line (``;AB;AB;AB``), and a record holds its path's problems
        self.problem_memo: dict[tuple[str, int], ParseProblem] = {}
        #: node problems still listed in the tree being parsed, and those counted past them
        self.room = MAX_NODE_PROBLEMS
        self.dropped = 0
        self.problem_words: dict[str, str] = {}
        #: the node ``_starts_new_game`` read ahead and found not to start a game, with where
        #: it starts and the state after it: the node the parse reads next, not read twice (a
        #: tree of many short variations would read each first node twice)
        self.ahead: tuple[int, _Node, int, int, str | None, int, int] | None = None
        #: (cut, dbcs) -> (from, to): a value read from ``from`` in that mode, cut short by
        #: ``cut``, found nothing closing it before ``to`` (a match of ``cut``; with no cut, the
        #: end of the data, which holds for any cut), so no value starting later up to ``to``
        #: does either (``_read_value``): a value's scan reaches any later start in the state a
        #: scan from there begins in (a start follows a ``[``, which is neither an escape nor a
        #: lead byte).  Lines ``(;C[x`` without a ``]``, or with a game far below
        #: (``(;GM[4]``), would each scan to the end or to that game; one entry per cut and
        #: mode, as lines of short values (``(;B[x``, the other cut) would take a single one over
        self.unclosed: dict[tuple[re.Pattern[bytes] | None, str | None], tuple[int, int]] = {}
        #: for each pattern that cuts a value short (``_RESYNC``, ``_RESYNC_GAME``): (from, at),
        #: ``at`` the newline of its first match whose newline is at or after ``from`` (the
        #: data's length: none); a later position up to ``at`` has the same (``_cut_at``)
        self.cuts: dict[re.Pattern[bytes], tuple[int, int]] = {}

    # -- low level

    def _ident(self, raw: bytes) -> str:
        """``_normalize_ident`` of a raw property name (``[A-Za-z0-9]+``, so ASCII)."""
        ident = self.idents.get(raw)
        if ident is None:
            ident = _normalize_ident(raw.decode("ascii"))
            if len(raw) <= _MEMO_KEY_BYTES and len(self.idents) < _MEMO_ENTRIES:
                self.idents[raw] = ident
        return ident

    def _room(self) -> bool:
        """Whether a node's problem is still listed in this tree (``MAX_NODE_PROBLEMS``); past
        that, problems are counted (``dropped``), not made: a megabyte of junk nodes, one on
        each line, made 349,000 of them, of which a report lists 100."""
        if self.room > 0:
            self.room -= 1
            return True
        self.dropped += 1
        return False

    def _problem(self, message: str, line: int) -> ParseProblem:
        """A node's problem: one object for the same words on the same line, one string for
        the same words (a hostile tree may say the same on each of 300,000 lines)."""
        problem = self.problem_memo.get((message, line))
        if problem is None:
            words = self.problem_words
            message = words.get(message, message)
            if len(words) < _MEMO_ENTRIES:
                words[message] = message
            problem = ParseProblem(message, line=line)
            if len(self.problem_memo) < _MEMO_ENTRIES:
                self.problem_memo[message, line] = problem
        return problem

    def _advance(self, newpos: int) -> None:
        if newpos >= self.pos:
            self.line += self.data.count(b"\n", self.pos, newpos)
        else:  # back to where a value found unterminated began to be read wrong
            self.line -= self.data.count(b"\n", newpos, self.pos)
        self.pos = newpos

    def _skip_ws(self) -> None:
        if self.pos < len(self.data) and self.data[self.pos] not in _WS_BYTES:
            return
        m = _WS.match(self.data, self.pos)
        if m is not None and m.end() > self.pos:
            self._advance(m.end())

    def _cut_at(self, cut: re.Pattern[bytes], i: int) -> int:
        """The newline of the first match of ``cut`` (``_RESYNC``: the newline before the
        line it matches; ``_RESYNC_GAME``: its own first byte) that lies at or after ``i``; the
        data's length when there is none.  Found once for the positions up to it."""
        known = self.cuts.get(cut)
        if known is not None and known[0] <= i <= known[1]:
            return known[1]
        n = len(self.data)
        if cut is _RESYNC:  # (``^``: a match at ``i + 1`` or later has its newline at ``i``...)
            m = cut.search(self.data, i + 1)
            at = m.start() - 1 if m is not None else n
        else:
            m = cut.search(self.data, i)
            at = m.start() if m is not None else n
        self.cuts[cut] = (i, at)
        return at

    def _read_value(self, cut: re.Pattern[bytes] | None = None) -> bytes | None:
        """Read ``[...]`` at ``pos``; escapes resolved, soft line breaks removed.

        Returns ``None`` (and leaves ``pos`` on the ``[``) when the value is not terminated:
        no ``]`` closes it, or (``cut``) it runs over a match of ``cut`` whose newline no
        escape took (the value read whole would hold that match: the caller takes it as not
        terminated then).  The scan stops there: a file of lines that each open a value
        closed only at the end of the file would scan to the end once per line.
        """
        data = self.data
        start = self.pos + 1
        dbcs = self.dbcs
        n = len(data)
        unclosed = self.unclosed
        if unclosed:
            for key in ((None, dbcs), (cut, dbcs)):  # (to the end, then to this cut)
                known = unclosed.get(key)
                if known is not None and known[0] <= start <= known[1]:
                    return None
        limit = self._cut_at(cut, start) if cut is not None else n
        if dbcs is None:
            end = data.find(b"]", start, limit)
            if end >= 0 and data.find(b"\\", start, end) < 0:
                self._advance(end + 1)
                return data[start:end]
        special = _VALUE_SPECIAL if dbcs is None else _VALUE_SPECIAL_DBCS
        out = bytearray()
        i = start
        while True:
            if cut is not None and i > limit:  # (an escape took the newline: the next match)
                limit = self._cut_at(cut, i)
            m = special.search(data, i, limit)
            if m is None:  # (nothing closes it, nor a value starting later up to the limit)
                unclosed[None if limit >= n else cut, dbcs] = (start, limit)
                return None
            j = m.start()
            out += data[i:j]
            b = data[j]
            if b == 0x5D:  # ]
                self._advance(j + 1)
                return bytes(out)
            if b == 0x5C:  # backslash
                if j + 1 >= n:
                    unclosed[None, dbcs] = (start, n)
                    return None
                nb = data[j + 1]
                i = j + 2
                if nb in (0x0A, 0x0D):  # soft line break: removed
                    if i < n and data[i] in (0x0A, 0x0D) and data[i] != nb:
                        i += 1
                else:
                    out.append(nb)
                continue
            # a high byte in a double-byte charset: a lead byte takes its trail byte along
            if dbcs is not None and j + 1 < n and _is_lead(b, dbcs):
                if j + 1 == limit:  # (the cut's newline as a trail byte: still in the value)
                    return None
                out += data[j : j + 2]
                i = j + 2
            else:
                out.append(b)
                i = j + 1

    # -- nodes and trees

    def _parse_node(self, line: int, is_root: bool = False) -> _Node:
        """Parse the properties of a node; ``pos`` is just after its ``;``."""
        node = _Node(line)
        data = self.data
        # the usual nodes in one match: one plain property, or a few (split by a second match)
        one = _ONE_PROPERTY_NODE.match(data, self.pos)
        fast = one if one is not None else _FEW_PROPERTY_NODE.match(data, self.pos)
        if fast is not None:
            text = fast[0]
            # (short, or one property of a short value whatever its name's length: FF[3]'s
            # long names, ``;AddBlack[aa]``)
            if not is_root and (
                len(text) <= _SHARED_PROPS_BYTES
                or (one is not None and len(one[2]) <= _MEMO_KEY_BYTES)
            ):
                shared = self.plain_props.get(text)
                if shared is None:
                    made = _SharedProps(
                        [(self._ident(one[1]), [one[2]])]
                        if one is not None
                        else [(self._ident(k), [v]) for k, v in _FEW_PROPERTY.findall(text)]
                    )
                    shared = remember(self.plain_props, text, made, _MEMO_ENTRIES)
                node.props = shared
            else:
                props: list[tuple[bytes, bytes]] = (
                    [(one[1], one[2])] if one is not None else _FEW_PROPERTY.findall(text)
                )
                for raw_name, raw_val in props:
                    ident = self._ident(raw_name)
                    if ident == "CA" and is_root:
                        self._root_charset(raw_val)
                    node.prop(ident, [raw_val])
            end = fast.end()
            self.line += data.count(b"\n", self.pos, end)  # (``_advance``, without a call)
            self.pos = end
            return node
        n = len(data)
        while True:
            if self.pos < n and data[self.pos] in _WS_BYTES:  # (``_skip_ws``, without a call)
                ws = _WS.match(data, self.pos)
                assert ws is not None  # (the pattern matches the empty string)
                self.line += data.count(b"\n", self.pos, ws.end())
                self.pos = ws.end()
            if self.pos >= n:
                return node
            c = data[self.pos]
            if c in b";()":
                return node
            if c == 0x5B:  # a value without a property name
                vline, vpos = self.line, self.pos
                if self._read_value() is None:
                    node.unterminated = (vline, vpos)
                    return node
                if self._room():
                    node.problem(self._problem("value without a property name", vline))
                continue
            if c not in _IDENT_BYTES:  # no property name starts here: junk up to the next one
                j = _JUNK.match(data, self.pos)
                end = j.end() if j is not None and j.end() > self.pos else self.pos + 1
                if self._room():
                    snippet = data[self.pos : min(end, self.pos + 20)].decode("latin-1")
                    message = f"unexpected text {snippet!r} in a node"
                    node.problem(self._problem(message, self.line))
                self.line += data.count(b"\n", self.pos, end)  # (``_advance``, without a call)
                self.pos = end
                continue
            if self.dbcs is None:
                # the common case in one match: a name and plain values (no escapes), none of
                # them running over a line that starts a node (which the loop below judges,
                # and a match could otherwise look to the end of the file for a "]")
                prop = _PLAIN_PROPERTY.match(data, self.pos, self._cut_at(_RESYNC, self.pos))
                # (a value that is not plain after the plain ones: read them all slowly below)
                if prop is not None and data[prop.end() : prop.end() + 1] != b"[":
                    ident = self._ident(prop.group(1))
                    raw_values = prop.group(2)
                    plain = _PLAIN_VALUE.findall(raw_values)
                    # (no "(" in the values: none can run over a line starting with "(;")
                    if b"(" not in raw_values or not any(
                        (ident in _SHORT_PROPS and _RESYNC.search(v)) or _RESYNC_GAME.search(v)
                        for v in plain
                    ):
                        self._advance(prop.end())
                        if ident == "CA" and is_root:
                            self._root_charset(plain[0])
                        node.prop(ident, plain)
                        continue
            m = _IDENT.match(data, self.pos)
            assert m is not None  # ``c`` is a name's first byte
            ident_line = self.line
            raw_ident = m.group().decode("ascii")
            self.pos = m.end()
            ident = _normalize_ident(raw_ident)
            values: list[bytes] = []
            while True:
                self._skip_ws()
                if self.pos >= n or data[self.pos] != 0x5B:
                    break
                vline, vpos = self.line, self.pos
                value = self._read_value(_RESYNC if ident in _SHORT_PROPS else _RESYNC_GAME)
                if (
                    value is None
                    or (ident in _SHORT_PROPS and _RESYNC.search(value))
                    or (b"\n" in value and _RESYNC_GAME.search(value))
                ):
                    # a short value running over a line that starts a node, or any value over
                    # a line that starts a game: its ']' is missing
                    node.unterminated = (vline, vpos)
                    if values:
                        node.prop(ident, values)
                    return node
                values.append(value)
            if not values:
                if self._room():
                    node.problem(
                        self._problem(f"property {clip(raw_ident)} has no value", ident_line)
                    )
                continue
            if ident == "CA" and is_root:
                self._root_charset(values[0])
            node.prop(ident, values)

    def _root_charset(self, value: bytes) -> None:
        """The root's ``CA[value]``: a double-byte charset's mode for the rest of the tree (the
        values after it), unless the file was recoded to UTF-8."""
        if self.ca_applies:
            kind = _dbcs_kind(value.decode("latin-1").strip())
            if kind is not None:
                self.dbcs = kind

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
            node = self._parse_node(self.line)
            if node.has("GM", "FF"):
                return True
            # (the parse takes it at ``start``, as it stands after it, problems counted then)
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
                if self._read_value() is None:
                    return False
                continue
            self.pos += 1
            depth += 1 if c == 0x28 else -1
            if depth == 0:
                return True

    def _prescan_charset(self) -> None:
        """Set the double-byte mode from a ``CA`` in the root node before tokenizing it."""
        self.dbcs = self.default_dbcs
        data = self.data
        first = self.pos + 1
        if first < len(data) and data[first] in _WS_BYTES:
            ws = _WS.match(data, first)
            first = ws.end() if ws is not None else first
        if first >= len(data) or data[first] != 0x3B:
            return  # no root node: nothing to scan (and no scan far past this tree)
        # the first "CA" at or after ``first``, kept from tree to tree: a collection of many
        # short games without a charset needs one search in all, not three per tree
        ca_from, ca_at = self.next_ca
        if ca_from > first or 0 <= ca_at < first:
            ca_at = data.find(b"CA", first)
            self.next_ca = (first, ca_at)
        if ca_at < 0 or ca_at + 2 > min(len(data), first + 65536):
            return  # no "CA" within the longest root node scanned below
        # scan the root node only (up to the next node or variation), so that the scans of a
        # file of many trees add up to one pass over it, not one window per tree
        limit = min(len(data), first + 65536)
        semicolon = data.find(b";", first + 1, limit)
        if semicolon >= 0:
            limit = semicolon
        paren = data.find(b"(", first, limit)
        if paren >= 0:
            limit = paren
        if not self.ca_applies or data.find(b"CA", first, limit) < 0:
            return  # the usual case: no charset, no regex search
        m = _CA_PRESCAN.search(data, first, limit)
        if m is not None:
            kind = _dbcs_kind(m.group(1).decode("ascii"))
            if kind is not None:
                self.dbcs = kind

    def parse_tree(self, max_lines: int | None = None) -> _Tree:
        """Parse the game tree whose ``(`` is at ``pos``; stop (``tree.cut``) when a line more
        than ``max_lines`` begins: the lines before it are whole, and what follows is not read
        (a megabyte of ``(;W[aa])`` siblings is 130,000 lines, past the file's bound on records
        after a tenth of it)."""
        data = self.data
        n = len(data)
        tree = _Tree(self.line)
        self.room, self.dropped = MAX_NODE_PROBLEMS, 0
        lines = 0  # leaves so far: the records the tree gives
        most = max_lines if max_lines is not None else n + 1
        self._prescan_charset()
        self.pos += 1
        depth = 1
        stack: list[_Node | None] = []
        current: _Node | None = None
        orphan = False  # a second root-level sequence, not readable
        too_deep_reported = False
        # the last thing read was a node (not a "(" or ")"): a node now follows it in sequence
        in_sequence = False
        while True:
            if self.pos < n and data[self.pos] in _WS_BYTES:  # (the call only when needed)
                self._skip_ws()
            if self.pos >= n:
                tree.problems.append(
                    ParseProblem(
                        f"game tree opened at line {tree.line} is not closed (missing ')')",
                        line=tree.line,
                    )
                )
                return tree
            c = data[self.pos]
            if c == 0x29:  # )
                self.pos += 1
                depth -= 1
                if depth == 0:
                    return tree
                current = stack.pop()
                in_sequence = False
            elif c == 0x28:  # (
                if self._starts_new_game():
                    tree.problems.append(
                        ParseProblem(
                            f"game tree opened at line {tree.line} is not closed before the next "
                            f"game tree at line {self.line}",
                            line=tree.line,
                        )
                    )
                    return tree
                if depth >= self.opts.max_depth:
                    if not too_deep_reported:
                        too_deep_reported = True
                        tree.problems.append(
                            ParseProblem(
                                f"variations nested deeper than {self.opts.max_depth} levels are "
                                "not read",
                                line=self.line,
                            )
                        )
                    vline = self.line
                    if not self._skip_subtree():
                        tree.problems.append(
                            ParseProblem(
                                f"variation opened at line {vline} is not closed (missing ')')",
                                line=vline,
                            )
                        )
                        return tree
                    continue
                stack.append(current)
                depth += 1
                self.pos += 1
                in_sequence = False
            elif c == 0x3B:  # ;
                line = self.line
                self.pos += 1
                is_root = tree.root is None and current is None
                ahead = self.ahead
                if ahead is not None and ahead[0] == self.pos and not is_root:
                    # read ahead as it is read here (a root's ``CA`` may change the decoding)
                    node = ahead[1]
                    self.pos, self.line, self.dbcs, self.room, self.dropped = ahead[2:]
                else:
                    node = self._parse_node(line, is_root=is_root)
                self.ahead = None
                if (
                    in_sequence
                    and not node.props
                    and not node.problems
                    and node.unterminated is None
                ):
                    # An empty node in the middle of a sequence adds nothing to any line: it is
                    # not kept (1 MB of ";" would otherwise be a million nodes, 300 MB).  One
                    # that opens a variation is kept: it makes a line of its own.
                    continue
                in_sequence = True
                if current is None:
                    if tree.root is None:
                        tree.root = node
                        lines = 1
                    elif not orphan:
                        orphan = True
                        tree.problems.append(
                            ParseProblem(
                                "a game tree has several root nodes; only the first is read",
                                line=line,
                            )
                        )
                elif current.children is None:
                    current.children = [node]
                else:
                    tree.branched = True
                    current.children.append(node)
                    lines += 1
                    if lines > most:
                        tree.cut = True
                        return tree
                current = node
                if node.unterminated is not None:
                    vline, vpos = node.unterminated
                    tree.problems.append(
                        ParseProblem(
                            f"property value opened at line {vline} is never closed (missing ']')",
                            line=vline,
                        )
                    )
                    m = _RESYNC.search(data, vpos + 1)
                    self._advance(m.start() if m is not None else n)
                    return tree
            else:
                if c == 0x5B:
                    vline = self.line
                    if self._read_value() is None:
                        tree.problems.append(
                            ParseProblem(
                                f"property value opened at line {vline} is never closed",
                                line=vline,
                            )
                        )
                        self._advance(n)
                        return tree
                    tree.problems.append(
                        ParseProblem("value outside a node (missing ';')", line=vline)
                    )
                    continue
                m2 = _IDENT.match(data, self.pos) or _JUNK.match(data, self.pos)
                end = m2.end() if m2 is not None and m2.end() > self.pos else self.pos + 1
                snippet = data[self.pos : min(end, self.pos + 20)].decode("latin-1")
                tree.problems.append(
                    ParseProblem(f"unexpected text {snippet!r} outside a node", line=self.line)
                )
                self._advance(end)

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
                text = _NOT_BLANK.search(data, start)
                if text is not None:
                    stray_line = self.line + data.count(b"\n", start, text.start())
                    stray = (
                        f"text after the last game tree (line {stray_line}) is not SGF; not read"
                    )
            self._advance(len(data))
            return None if stray is None else (stray, stray_line)
        if p > start:  # (between trees of a collection: nothing, or a line end)
            if stray is None and start > 0:  # anything else is said (a game that lost its "(")
                text = _NOT_BLANK.search(data, start, p)
                if text is not None:
                    stray_line = self.line + data.count(b"\n", start, text.start())
                    stray = f"text between game trees (line {stray_line}) is not SGF; not read"
            self._advance(p)
        return stray, stray_line


def _is_lead(b: int, kind: str) -> bool:
    if kind == "sjis":
        return 0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC
    return 0x81 <= b <= 0xFE


# --------------------------------------------------------------------------------------------
# Values


class _Memos:
    """What the trees of one file look up rather than work out again, shared by its contexts
    (``_Ctx``): a file whose games change size or charset in every game keeps one set of
    memos, however many contexts it makes.  Each memo holds ``_MEMO_ENTRIES`` at most; the
    memos of points are kept by board size, those of the first ``SIZES`` sizes with as many
    entries, those of the others (484 sizes in all) with ``OTHER_SIZES_ENTRIES``."""

    SIZES = 16
    OTHER_SIZES_ENTRIES = 64

    def __init__(self) -> None:
        self._sized: dict[tuple[int, int], tuple[_MoveMemo, _SetupMemo, int]] = {}
        #: ``RU`` value -> its ruleset: a collection names the same rule in every game, and
        #: normalising the name cost as much as the rest of a short game's root (names of
        #: rules are short: a longer value is not kept)
        self.rules: dict[str, str | None] = {}
        #: setup stones the memos of setups may still hold, all sizes together: a value of 5
        #: bytes is up to 676 stones, and one range spelled 4,096 ways in 16 bytes each (blanks
        #: around and inside) held 340 MB for one size, 2 GB for 16 (red team 7)
        self.setup_room = SETUP_MEMO_STONES
        #: ``RE`` value -> its declared result (shared: ``_PathWalk.record`` gives each record
        #: a copy): every line of a tree repeats its root's, and the pattern match cost as much
        #: as the rest of the line's game info
        self.results: dict[str, DeclaredResult] = {}

    def sized(self, width: int, height: int) -> tuple[_MoveMemo, _SetupMemo, int]:
        """The memos of points of a board size: (``B``/``W``, raw value) -> the move's token and
        ``_point`` (a collection of many games on one board repeats few move values), and
        (colour, raw value) -> its setup stones (a compressed point list, ``AB[aa:zz]``, is
        hundreds of points, and a collection may repeat it in every game); and the entries
        each may hold."""
        known = self._sized.get((width, height))
        if known is None:
            entries = _MEMO_ENTRIES if len(self._sized) < self.SIZES else self.OTHER_SIZES_ENTRIES
            known = self._sized[width, height] = ({}, {}, entries)
        return known


#: Setup stones the memos of one file's setups hold at most (``_Memos.setup_room``).
SETUP_MEMO_STONES = 1 << 16

_MoveMemo = dict[tuple[str, bytes], tuple[str, Point | str | None]]
_SetupMemo = dict[tuple[Color, bytes], tuple[tuple[Point, Color], ...]]


class _Ctx:
    """What a tree's nodes are read with: board size and text decoding."""

    def __init__(
        self,
        width: int,
        height: int,
        decode: Callable[[bytes], str],
        max_string: int,
        max_events: int,
        memos: _Memos,
    ) -> None:
        self.width = width
        self.height = height
        self.decode = decode
        self.max_string = max_string
        #: a line's opening events (``ReadOptions.max_moves``, as for its moves): a node reads
        #: one more than this of its offered points or ``SW`` values, for the walk to say so
        self.max_events = max_events
        # the memos of the file (``_Memos``): those of points, by the board's size
        self.memos = memos
        self.moves, self.setups, self.memo_entries = memos.sized(width, height)
        #: what a node of moves and swaps alone adds to a path (``_node_info``), by its shared
        #: property list (``_Parser.plain_props``), with the list and the node's line: the
        #: lines of a tree repeat a few such nodes (``;W[aa]SW[1]``) thousands of times
        self.infos: dict[int, tuple[_SharedProps, int, _NodeInfo]] = {}
        self.rules = memos.rules
        self.results = memos.results
        #: the last ``GN`` value a rule was looked for in, and what was found: each line of a
        #: tree whose leaves carry game info of their own makes its info again, and the search
        #: (NFKD and eight patterns) over a long name took 20 ms a line, 10 s a megabyte
        self.named_in: tuple[str, tuple[str | None, str | None]] | None = None

    def rule(self, name: str) -> str | None:
        """The shipped ruleset of an ``RU`` value (``ruleset_for``), or ``None``."""
        if name in self.rules:
            return self.rules[name]
        rule, _ = ruleset_for(name)
        if len(name) <= 4 * _MEMO_KEY_BYTES and len(self.rules) < _MEMO_ENTRIES:
            self.rules[name] = rule
        return rule

    def rule_named_in(self, name: str) -> tuple[str | None, str | None]:
        """The shipped ruleset a game name (``GN``) names, and the name matched
        (``ruleset_for`` with ``search``)."""
        known = self.named_in
        if known is not None and known[0] == name:
            return known[1]
        found = ruleset_for(name, search=True)
        self.named_in = (name, found)
        return found

    def result(self, text: str) -> DeclaredResult:
        """The declared result of an ``RE`` value (``parse_result``); shared, not to be changed."""
        known = self.results.get(text)
        if known is None:
            known = parse_result(text)
            if len(text) <= 4 * _MEMO_KEY_BYTES and len(self.results) < _MEMO_ENTRIES:
                self.results[text] = known
        return known

    def text(self, raw: bytes, notes: list[str], ident: str, line: int, simple: bool = True) -> str:
        text = self.decode(raw)
        if simple:
            text = " ".join(text.split())
        else:
            text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
        if len(text) > self.max_string:
            notes.append(f"{ident} value at line {line} cut to {self.max_string} characters")
            text = text[: self.max_string]
        return text


#: What a charset must write as ASCII to be the one of a file whose SGF was read as ASCII: the
#: structure, property names, points and numbers.  (Not ``formats.ascii_compatible``, which
#: also asks for ``+`` and ``~``: UTF-7 writes these SGF characters as ASCII.)
_SGF_ASCII = "();[]: \t\n\rabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _writes_sgf_as_ascii(codec: str) -> bool:
    """Whether ``codec`` writes ``_SGF_ASCII`` as ASCII (not EBCDIC, UTF-16 or UTF-32)."""
    try:
        return _SGF_ASCII.encode(codec) == _SGF_ASCII.encode("ascii")
    except (UnicodeError, LookupError, ValueError):
        return False


def _make_decoder(ca: str | None, fallback: str | None) -> Callable[[bytes], str]:
    """The decoder of a tree's text: its ``CA`` charset, the ``--encoding`` fallback, UTF-8,
    then Latin-1.  Made once per pair of names (a collection may change ``SZ`` in every game,
    and so its context, but seldom its charset)."""
    key = (ca, fallback)
    known = _DECODERS.get(key)
    if known is None:
        known = _new_decoder(ca, fallback)
        if ca is None or len(ca) <= 4 * _MEMO_KEY_BYTES:  # (names of charsets are short)
            remember(_DECODERS, key, known, _MEMO_ENTRIES)
    return known


_DECODERS: dict[tuple[str | None, str | None], Callable[[bytes], str]] = {}


def _new_decoder(ca: str | None, fallback: str | None) -> Callable[[bytes], str]:
    encodings: list[str] = []
    for name in (ca, fallback, "utf-8"):
        if not name:
            continue
        codec = text_codec(name.strip())
        if codec is None or codec.startswith(("utf-16", "utf-32")):
            continue  # bytes whose SGF syntax parses are no UTF-16/32 text
        if codec in ("gb2312", "gbk"):
            codec = "gb18030"  # a superset: files labelled GB2312 often hold GBK characters
        if codec not in encodings:
            encodings.append(codec)

    def decode(raw: bytes) -> str:
        for enc in encodings:
            try:
                return raw.decode(enc)
            except (UnicodeError, LookupError):  # idna & co raise UnicodeError
                continue
        return raw.decode("latin-1", errors="replace")

    return decode


def _parse_size(raw: bytes | None, default: int) -> tuple[int, int] | str:
    """``SZ`` -> (width, height), or an error message."""
    if raw is None:
        return default, default
    known = _SIZES.get(raw)
    if known is None:
        known = _size_of(raw)
        if len(raw) <= _MEMO_KEY_BYTES:  # (a few hundred values at most: sizes are short)
            remember(_SIZES, raw, known, _MEMO_ENTRIES)
    return known


#: ``_size_of`` by ``SZ`` value (a collection may change size in every game).
_SIZES: dict[bytes, tuple[int, int] | str] = {}


def _size_of(raw: bytes) -> tuple[int, int] | str:
    m = _SIZE.fullmatch(raw.strip())
    if m is None:
        # (as written, for the message: UTF-8 if it is, at most 40 characters)
        text = raw.decode("utf-8", "replace").strip()
        return f"bad board size SZ[{text if len(text) <= 40 else text[:40] + '...'}]"
    width = int(m.group(1))
    height = int(m.group(2)) if m.group(2) else width
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        text = raw.decode("ascii").strip()
        return f"unsupported board size SZ[{text}] (sizes {MIN_SIZE} to {MAX_SIZE} are read)"
    return width, height


#: An ``SZ`` value: ASCII digits only (``\d`` on text would take Arabic-Indic digits too).
_SIZE = re.compile(rb"(\d{1,3})\s*(?::\s*(\d{1,3}))?")


def _quoted(raw: bytes) -> str:
    """A value as a message quotes it: by its start when it is long (the lines of a tree
    repeat a node's problems: a value of half a megabyte made a report of gigabytes)."""
    return clip(raw[:41].decode("latin-1"))  # (Latin-1: a byte a character, 40 and one more)


def _move_token(ident: str, value: bytes) -> str:
    """A move as written, for messages."""
    return f"{ident}[{_quoted(value)}]"


def _point(raw: bytes, ctx: _Ctx, allow_pass: bool) -> Point | str | None:
    """A point value -> ``Point``, ``None`` (pass) or an error message."""
    s = raw.strip()
    if allow_pass and (not s or (s == b"tt" and ctx.width <= 19 and ctx.height <= 19)):
        return None
    if len(s) != 2:
        return f"bad coordinate [{_quoted(s)}]"
    x, row = s[0] - 0x61, s[1] - 0x61  # letters a..z
    if not (0 <= x < 26 and 0 <= row < 26):
        return f"bad coordinate [{s.decode('latin-1')}] (letters a-z expected)"
    if row >= ctx.height:
        return f"coordinate [{s.decode('latin-1')}] is below the {ctx.height}-row board"
    return Point(x, ctx.height - 1 - row)


def _setup_value(raw: bytes) -> bytes:
    """A point list value as ``_point_list`` reads it, blanks around its points dropped: the
    key of its memo (one range spelled 4,096 ways, `` aa : zz``, held a memo entry each)."""
    s = raw.strip()
    if b":" not in s:
        return s
    a, _, b = s.partition(b":")
    return a.strip() + b":" + b.strip()


def _corners(raw: bytes, ctx: _Ctx) -> tuple[Point, Point] | str:
    """A point list value's rectangle: its two corners (one point: twice), or why not."""
    s = raw.strip()
    a, colon, b = s.partition(b":")
    pa = _point(a, ctx, allow_pass=False)
    pb = _point(b, ctx, allow_pass=False) if colon else pa
    if isinstance(pa, str) or pa is None:
        return pa or "bad coordinate"
    if isinstance(pb, str) or pb is None:
        return pb or "bad coordinate"
    return pa, pb


def _point_list(raw: bytes, ctx: _Ctx) -> list[Point] | str:
    """A point list value: one point, or a compressed ``aa:cc`` rectangle."""
    corners = _corners(raw, ctx)
    if isinstance(corners, str):
        return corners
    pa, pb = corners
    return [
        Point(x, y)
        for y in range(max(pa.y, pb.y), min(pa.y, pb.y) - 1, -1)
        for x in range(min(pa.x, pb.x), max(pa.x, pb.x) + 1)
    ]


def parse_result(text: str) -> DeclaredResult:
    """An ``RE`` value as a declared result (see the module docstring)."""
    t = " ".join(text.split())
    u = t.upper()
    if u in ("0", "DRAW", "D", "JIGO", "1/2-1/2", "0.5-0.5"):
        return DeclaredResult("draw", text=t)
    if u == "1-0":
        return DeclaredResult("black", text=t)
    if u == "0-1":
        return DeclaredResult("white", text=t)
    m = re.fullmatch(r"([BW])\s*\+\s*(.*)", t, re.IGNORECASE)
    if m is None:
        return DeclaredResult(None, text=t)
    winner = "black" if m.group(1).upper() == "B" else "white"
    rest = m.group(2).strip()
    reason: str | None
    if not rest or re.fullmatch(r"[0-9.,]+", rest):
        reason = None
    else:
        reason = _REASONS.get(rest.lower(), rest.lower())
    return DeclaredResult(winner, reason, text=t)


def _normalize_rule(raw: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def ruleset_for(raw: str, search: bool = False) -> tuple[str | None, str | None]:
    """The shipped ruleset for a rule name: (ruleset or None, the name that matched or None).

    Without ``search`` the whole value must be a known name (``RU``); with it, a known name is
    looked for inside the text (``GN``), the more specific names first.
    """
    key = _normalize_rule(raw)
    if not search:
        for k in (key, key.replace("-", ""), re.sub(r"-rules?$", "", key)):
            if k in _RULE_NAMES:
                return _RULE_NAMES[k], raw.strip()
        # a shipped ruleset's own name (what ``to_sgf`` writes): caro, sakata, pro...; but not
        # "swap": files of renju programs mean the renju swap by it (as RenjuNet does), not
        # the gomoku rule of that name, and such a file stays read as before (no rule)
        shipped = shipped_by_lower_name().get(raw.strip().lower())
        if shipped is not None and shipped != "swap":
            return shipped, raw.strip()
        return None, None
    fam = _GN_FAMILIES.search(key)
    if fam is not None:
        rule, count = _FAMILY_RULES[fam.group(1)]
        if fam.group(2) is None or fam.group(2) == count:
            return rule, fam.group(0)
        return None, fam.group(0)
    for pattern, rule in _GN_WORDS:
        m = pattern.search(key)
        if m is not None:
            return rule, m.group(0)
    return None, None


def _swap_event(value: str, moves_so_far: int, line: int) -> OpeningEvent | None:
    s = value.strip().lower()
    after = moves_so_far if moves_so_far > 0 else -1
    if 0 < len(s) <= 4 and s.isdecimal() and int(s) >= 1:  # (what ``\d{1,4}`` matches)
        return OpeningEvent("swap", int(s), None, [], line)  # (positional: a line each)
    if s in _SWAP_YES:
        return OpeningEvent("swap", after, None, [], line)
    if s in _SWAP_NO:
        return OpeningEvent("no-swap", after, None, [], line)
    return None


# --------------------------------------------------------------------------------------------
# Nodes -> records


class _NodeInfo:
    __slots__ = (
        "bad",
        "comment",
        "erase",
        "info",
        "moves",
        "notes",
        "offers",
        "player",
        "problems",
        "setup",
        "swaps",
    )

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.setup: list[tuple[Point, Color]] = []
        self.erase = False
        self.offers: list[Point] | None = None
        self.swaps: list[str] = []
        self.comment: str | None = None
        self.info: list[tuple[str, str]] = []
        self.problems: list[ParseProblem] = []
        self.notes: list[str] = []
        self.bad = False  # a move could not be read: the path stops here
        self.player: str | None = None  # ``PL``: who plays next


def _node_info(node: _Node, ctx: _Ctx, no_room: bool = False) -> _NodeInfo:
    """What a node adds to the path walked through it.  Not kept: a walk steps each node once
    (the paths after the first walk only their new nodes), and a long tree must not hold an
    info per node besides the node.  ``no_room``: the path takes no more setup stones (as many
    as the board has points, or a move played): the node's are counted and checked, not made
    (``setup`` holds one for them all: a chain of 95,000 distinct ranges ``;AB[aa:zz]`` made
    60 million stones that the path dropped, 9 s)."""
    props, line = node.props, node.line
    shared = props if isinstance(props, _SharedProps) and node.problems is None else None
    if shared is not None:
        hit = ctx.infos.get(id(shared))
        if hit is not None and hit[0] is shared and hit[1] == line:
            return hit[2]  # (never changed by the walk; its moves shared, as a node's are)
    ni = _NodeInfo()
    if node.problems:
        ni.problems.extend(node.problems)
    too_many = False  # setup stones past the board's points (said once)
    counted = 0  # the node's setup stones (made, or counted only: ``no_room``)
    for ident, values in props or ():
        if ident in ("B", "W"):
            color = BLACK if ident == "B" else WHITE
            memo = ctx.moves
            for v in values:
                known = memo.get((ident, v))
                if known is None:
                    known = (_move_token(ident, v), _point(v, ctx, allow_pass=True))
                    if len(v) <= _MEMO_KEY_BYTES and len(memo) < ctx.memo_entries:
                        memo[ident, v] = known
                token, p = known
                if isinstance(p, str):
                    ni.problems.append(
                        ParseProblem(
                            f"{p} in {token}; the moves from here on are not kept", line=line
                        )
                    )
                    ni.bad = True
                    break
                # positional, in field order: point, color, line, offset, token
                ni.moves.append(Move(p, color, line, None, token))
        elif ident in _GAME_INFO:  # (before the rarer ones: every root has some)
            ni.info.append(
                (ident, ctx.text(values[0], ni.notes, ident, line, ident not in _TEXT_INFO))
            )
        elif ident in ("AB", "AW"):
            color = BLACK if ident == "AB" else WHITE
            for v in values:
                if counted >= ctx.width * ctx.height:  # a hostile node: 175,000 AB[aa]
                    if not too_many:
                        too_many = True
                        ni.problems.append(
                            ParseProblem(
                                "more setup stones (AB/AW) than the board has points; "
                                "the rest are ignored",
                                line=line,
                            )
                        )
                    break
                v = _setup_value(v)  # (one key for every spelling of a range)
                if no_room:  # counted and checked, not made: one stone stands for them all
                    corners = _corners(v, ctx)
                    if isinstance(corners, str):
                        ni.problems.append(ParseProblem(f"{corners} in setup {ident}", line=line))
                        continue
                    (ax, ay), (bx, by) = corners
                    if not ni.setup:
                        ni.setup.append((corners[0], color))
                    counted += (abs(ax - bx) + 1) * (abs(ay - by) + 1)
                    continue
                stones = ctx.setups.get((color, v))
                if stones is None:
                    pts = _point_list(v, ctx)
                    if isinstance(pts, str):
                        ni.problems.append(ParseProblem(f"{pts} in setup {ident}", line=line))
                        continue
                    stones = tuple((p, color) for p in pts)
                    memos = ctx.memos
                    if (
                        len(v) <= _MEMO_KEY_BYTES
                        and len(ctx.setups) < ctx.memo_entries
                        and memos.setup_room >= len(stones)
                    ):
                        memos.setup_room -= len(stones)
                        ctx.setups[color, v] = stones
                ni.setup.extend(stones)
                counted += len(stones)
        elif ident == "AE":
            ni.erase = True
        elif ident == "PL":
            # its word once, here: the walk hands it to every record of the line (a root
            # ``PL`` of half a megabyte was lower-cased for each of 24,000 leaves: 24 s)
            ni.player = _player_word(values[0].decode("latin-1")) if values else None
        elif ident in ("5A", "FA"):
            offers: list[Point] = ni.offers if ni.offers is not None else []
            for v in values:
                room = ctx.max_events + 1 - len(offers)  # past the line's bound: not read
                if room <= 0:
                    break
                s = v.strip()
                chunks = (
                    [s[i : i + 2] for i in range(0, min(len(s), 2 * room), 2)]
                    if len(s) > 2 and len(s) % 2 == 0 and s.isalpha()
                    else [s]
                )
                for chunk in chunks:
                    p = _point(chunk, ctx, allow_pass=False)
                    if isinstance(p, str) or p is None:
                        ni.problems.append(
                            ParseProblem(f"{p or 'bad point'} in offers {ident}", line=line)
                        )
                        continue
                    offers.append(p)
            ni.offers = offers
        elif ident == "SW":
            # (past the line's bound of events the rest is not read)
            ni.swaps.extend(v.decode("latin-1") for v in values[: ctx.max_events + 1])
        elif ident == "C":
            ni.comment = ctx.text(values[0], ni.notes, "C", line, simple=False)
    if (
        shared is not None
        and not (ni.problems or ni.notes or ni.info or ni.setup or ni.erase or ni.bad)
        and ni.offers is None
        and ni.comment is None
        and ni.player is None
    ):
        # (moves and swaps alone: nothing the walk changes, nor one of its lists it takes)
        remember(ctx.infos, id(shared), (shared, line, ni), _MEMO_ENTRIES)
    return ni


def _paths(root: _Node) -> Iterator[tuple[list[_Node], str, int]]:
    """Every root-to-leaf path, main line first (pre-order), with its path id and the index of
    its first node that is not on the previous path (0 for the first path).

    The path list is the same object every time, changed in place.  The id parts are kept as a
    stack too, so that a path costs its new nodes, not its depth (a comb of deep leaves).
    """
    path: list[_Node] = [root]
    choice: list[int] = [-1]
    # the id parts ("1", "0", ...) of the nodes of the path whose parent has several children
    ids: list[str] = []
    first_new = 0
    while True:
        children = path[-1].children
        if children:
            if len(children) > 1:
                ids.append("0")
            path.append(children[0])
            choice.append(0)
            continue
        # trailing zeros dropped: they all come after the node where this path left the
        # previous one (its part is not "0"), so this loop is paid by the new nodes
        end = len(ids)
        while end and ids[end - 1] == "0":
            end -= 1
        yield path, ".".join(ids[:end]) if end else MAIN_LINE, first_new
        while len(path) > 1:
            idx = choice.pop()
            path.pop()
            siblings = path[-1].children
            assert siblings is not None  # the parent of the node just left
            if len(siblings) > 1:
                ids.pop()
            if idx + 1 < len(siblings):
                first_new = len(path)
                ids.append(str(idx + 1))
                path.append(siblings[idx + 1])
                choice.append(idx + 1)
                break
        else:
            return


#: Problems of the nodes of one game tree made at most (junk, values without a name, names
#: without a value); the rest are counted in one problem of the tree.
MAX_NODE_PROBLEMS = 1000

#: What a setup stone costs against the file's budget, in moves.
SETUP_COST = 2


class _Budget:
    """The moves (nodes walked) left for the records of one file: ``ReadOptions.move_budget``."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.left = total
        self.spent = False


class _Contexts:
    """The ``_Ctx`` of the trees of a file by their root's ``CA`` and ``SZ`` values: in a
    collection of short games, building a decoder and a context for each tree cost more than
    its nodes, and a collection may change size in every game.  Bounded (``CONTEXTS`` values,
    short ones only); the memos the contexts fill are the file's, shared (``_Memos``)."""

    #: Contexts (and info games' roots) remembered at most: cleared when full.
    CONTEXTS = 1024
    #: Longest ``CA`` or ``SZ`` value (and info game's root) whose context is remembered.
    KEY_BYTES = 64
    ROOT_BYTES = 512

    def __init__(self, opts: ReadOptions) -> None:
        self.opts = opts
        self.key: tuple[bytes | None, bytes | None] | None = None
        self.ctx: _Ctx | str = ""
        self.notes: list[str] = []
        self.memos = _Memos()
        self.known: dict[tuple[bytes | None, bytes | None], tuple[_Ctx | str, list[str]]] = {}
        #: the roots of info games (``_info_root``) by their bytes: their context, and their
        #: walk, kept from the second game with that root on (a collection may start every
        #: game alike, ``(;GM[4]RU[renju-rif];...``, or cycle through a few roots)
        self.roots: dict[bytes, tuple[_Ctx, _PathWalk | None]] = {}

    def get(self, root: _Node) -> tuple[_Ctx | str, list[str]]:
        """The context of a tree (or the message of its unreadable size), and its notes (shared:
        not to be changed)."""
        ca_raw, sz_raw = root.get("CA"), root.get("SZ")
        key = (ca_raw[0] if ca_raw else None, sz_raw[0] if sz_raw else None)
        if key != self.key:
            known = self.known.get(key)
            if known is not None:
                self.key = key
                self.ctx, self.notes = known
                return known
            ca = key[0].decode("latin-1").strip() if key[0] is not None else None
            notes: list[str] = []
            if ca is not None and self.opts.recoded:
                ca = None  # the file was UTF-16 or UTF-32, recoded to UTF-8 as it was read
            elif ca is not None and text_codec(ca) is None:
                notes.append(f"unknown charset CA[{ca[:40]}]; text decoded as UTF-8 or Latin-1")
            elif ca is not None and not _writes_sgf_as_ascii(text_codec(ca) or ""):
                # (EBCDIC, UTF-16...: the file's SGF was read as ASCII, so its text is not
                # written in that charset; decoded with it, GM[4] read as GM[\x94])
                notes.append(
                    f"charset CA[{ca[:40]}] does not write SGF's characters as ASCII, as the "
                    "file does; ignored: text decoded as UTF-8 or Latin-1"
                )
                ca = None
            size = _parse_size(key[1], self.opts.board_size)
            if isinstance(size, str):
                self.ctx = size
            else:
                decode = _make_decoder(ca, self.opts.encoding)
                opts = self.opts
                self.ctx = _Ctx(
                    size[0], size[1], decode, opts.max_string, opts.max_moves, self.memos
                )
            self.key, self.notes = key, notes
            if all(v is None or len(v) <= self.KEY_BYTES for v in key):
                remember(self.known, key, (self.ctx, notes), self.CONTEXTS)
        return self.ctx, self.notes


def _tree_records(
    tree: _Tree,
    index: int,
    path_name: str,
    opts: ReadOptions,
    budget: _Budget,
    contexts: _Contexts,
) -> Iterable[Record]:
    """The records of a tree: its paths, or one unreadable record.

    A tree of one path (most games of a collection) gives a tuple, not a generator: a
    collection of tiny games would spend a good part of each game on making and running one.
    """
    root = tree.root
    if root is None:
        return (_unreadable(path_name, index, tree.line, "empty game tree", tree.problems),)
    ctx, tree_notes = contexts.get(root)
    if isinstance(ctx, str):  # the board size cannot be used
        return (_unreadable(path_name, index, tree.line, ctx, tree.problems, root.line),)
    if tree.branched:
        walk = _PathWalk(tree.problems, tree_notes, rewindable=True)
        return _branched_records(tree, root, walk, ctx, index, path_name, opts, budget)
    # one path, the main line: no path ids, nothing to rewind
    nodes = [root]
    children = root.children
    while children:
        nodes.append(children[0])
        children = children[0].children
    walk = _PathWalk(tree.problems, tree_notes, rewindable=False)
    return (_path_record(tree, nodes, MAIN_LINE, 0, walk, ctx, index, path_name, opts, budget),)


def _branched_records(
    tree: _Tree,
    root: _Node,
    walk: _PathWalk,
    ctx: _Ctx,
    index: int,
    path_name: str,
    opts: ReadOptions,
    budget: _Budget,
) -> Iterator[Record]:
    for nodes, variation, first_new in _paths(root):
        yield _path_record(
            tree, nodes, variation, first_new, walk, ctx, index, path_name, opts, budget
        )
        if budget.spent:
            return


def _path_record(
    tree: _Tree,
    nodes: list[_Node],
    variation: str,
    first_new: int,
    walk: _PathWalk,
    ctx: _Ctx,
    index: int,
    path_name: str,
    opts: ReadOptions,
    budget: _Budget,
) -> Record:
    """The record of one path of ``tree`` (the walk is at the previous path), or, past the
    file's budget, the unreadable record that ends the file (``budget.spent``)."""
    # a path costs its nodes and the problems, notes and text it repeats (a tree's problems
    # and root text are copied into every path): all of it counts against the file's budget
    if len(nodes) + len(tree.problems) > budget.left:
        return _refused(tree, index, path_name, opts, budget)
    # consecutive paths share the nodes before ``first_new``: take the walk back to there
    # and walk only the new nodes
    walk.rewind(first_new)
    for k in range(first_new, len(nodes)):
        # (a later path leaves this one only at a node whose parent has several children)
        walk.step(nodes[k], k, ctx, opts, k > 0 and len(nodes[k - 1].children or ()) > 1)
    # (path, index, line, offset, variation)
    record = walk.record(SourceLocation(path_name, index, tree.line, None, variation), ctx)
    cost = _line_cost(len(nodes), walk, record)
    if cost > budget.left:
        return _refused(tree, index, path_name, opts, budget)
    budget.left -= cost
    return record


def _line_cost(nodes: int, walk: _PathWalk, record: Record) -> int:
    """What the record of a line of ``nodes`` nodes, just made by ``walk``, costs against the
    file's budget: its nodes, opening events, setup stones, problems, notes and text."""
    # setup stones too: a compressed point list (``AB[aa:zz]``, 9 bytes) is 676 stones to
    # place, and 1 MB of such games took 36 s; two moves each: each game places them anew
    # (no resuming as a line's moves resume), 9,000 games of 235 took 2.7 s at one each
    return (
        nodes
        + walk.event_weight  # each line checks its opening events: the root's SW in every line
        + SETUP_COST * len(record.setup)
        + len(record.problems)
        + len(record.notes)
        + text_cost(record)
    )


def _refused(tree: _Tree, index: int, path_name: str, opts: ReadOptions, budget: _Budget) -> Record:
    """The unreadable record that ends a file past its budget (``budget.spent``)."""
    budget.spent = True
    return _unreadable(
        path_name,
        index,
        tree.line,
        f"the variations read so far hold more than {budget.total} moves, setup stones, "
        "problems and text "
        f"in all ({budget_terms(opts)}): a tree this repetitive is refused; the rest of the "
        "file is not read",
    )


def _after(event: OpeningEvent) -> int:
    return event.after


class _Mark(NamedTuple):
    """The state of a ``_PathWalk`` before one node: the lengths of what only grows, the move
    a later node may replace by a commented copy, and the rest."""

    moves: int
    last_move: Move | None
    setup: int
    events: int
    event_weight: int
    problems: int
    notes: int
    info: int
    root_pieces: int
    pieces: int
    move_from: int
    stopped: bool
    events_cut: bool
    setup_cut: bool
    player: str | None


class _PathWalk:
    """What the nodes of a path add up to, node by node, kept from one path to the next.

    Paths come in pre-order, so consecutive paths share a prefix (in a comb, all but one or two
    nodes): ``rewind`` takes the state back to where the new path leaves the previous one and
    ``step`` walks only the new nodes, so a record costs its new nodes plus list copies in C
    (not a Python loop over the whole path).  Moves are shared by every path through their node
    and never mutated (a comment is set on a copy), which the referee relies on to resume; the
    copies, events and problems made for the shared prefix are shared by those paths too.
    """

    __slots__ = (
        "event_weight",
        "events",
        "events_cut",
        "info",
        "info_made",
        "info_order",
        "joined",
        "mark_at",
        "marks",
        "move_from",
        "moves",
        "notes",
        "pieces",
        "player",
        "problems",
        "rewindable",
        "root_pieces",
        "setup",
        "setup_cut",
        "sorted_events",
        "stopped",
        "walked",
    )

    def __init__(
        self, tree_problems: list[ParseProblem], tree_notes: list[str], rewindable: bool
    ) -> None:
        self.moves: list[Move] = []
        self.setup: list[tuple[Point, Color]] = []
        #: the path's setup stones reached the board's points (said once; the rest ignored):
        #: a line of 100,000 nodes ``;AB[aa:zz]`` held 67 million stones, 580 MB for 1 MB
        self.setup_cut = False
        #: the last ``PL`` (who plays next) of the nodes before move 1: who plays it
        self.player: str | None = None
        self.events: list[OpeningEvent] = []  # in node order; sorted by ``after`` per record
        #: ``events`` sorted by ``after``, while they do not change: the lines of a tree share
        #: the events of its first nodes (a root of 4,000 ``SW`` values, sorted line after line,
        #: took seconds)
        self.sorted_events: list[OpeningEvent] | None = None
        #: what the events of the path weigh against ``max_moves`` and the file's budget: one
        #: per ``SW`` value, one per offered point; past ``max_moves`` (``events_cut``) the rest
        #: of the path's events are not read
        self.event_weight = 0
        self.events_cut = False
        self.problems: list[ParseProblem] = list(tree_problems)
        self.notes: list[str] = list(tree_notes)
        #: game-info values: the first of the path for each property, and the properties in
        #: the order they were added (to take them back)
        self.info: dict[str, str] = {}
        self.info_order: list[str] = []
        #: what ``info`` says (``_game_info``), until it changes: every line of a tree repeats
        #: its root's game info
        self.info_made: _GameInfo | None = None
        self.stopped = False  # a bad move or ``max_moves``: the path's moves end here
        #: the state before node ``mark_at[i]`` of the current path is ``marks[i]``: kept only
        #: before the nodes a later path may leave this one at (those whose parent has several
        #: children: a chain of 260,000 nodes before two variations kept 42 MB of marks), and
        #: not for a tree of one path, which is never rewound
        self.marks: list[_Mark] = []
        self.mark_at: list[int] = []
        self.walked = 0  # the nodes of the current path walked
        self.rewindable = rewindable
        #: the comments of comment-only nodes, joined once, not at every node (a chain of
        #: 200,000 comment nodes was quadratic: 6 s for 2 MB, and 24 GB in a variation tree,
        #: whose marks kept every longer text): ``root_pieces`` before any move (the record's
        #: ``metadata["comment"]``), ``pieces[move_from:]`` for the last move so far
        self.root_pieces: list[str] = []
        self.pieces: list[str] = []
        self.move_from = 0
        #: the last join (the move joined, the pieces' span, the result): the lines of a tree
        #: that leave its nodes after a long comment chain join the same pieces again
        self.joined: tuple[Move, int, int, Move] | None = None

    def rewind(self, depth: int) -> None:
        """Take back the nodes from index ``depth`` on (``step`` kept a mark before it)."""
        if depth >= self.walked:
            return
        marks, mark_at = self.marks, self.mark_at
        while mark_at and mark_at[-1] > depth:
            mark_at.pop()
            marks.pop()
        assert mark_at and mark_at[-1] == depth, "a path leaves the last at a node without a mark"
        mark_at.pop()
        mark = marks.pop()
        self.walked = depth
        del self.moves[mark.moves :]
        if mark.last_move is not None:
            self.moves[-1] = mark.last_move  # a comment of a later node may have replaced it
        del self.setup[mark.setup :]
        if mark.events < len(self.events):
            del self.events[mark.events :]
            self.sorted_events = None
        self.event_weight, self.events_cut = mark.event_weight, mark.events_cut
        del self.problems[mark.problems :]
        del self.notes[mark.notes :]
        if mark.info < len(self.info_order):
            for ident in self.info_order[mark.info :]:
                del self.info[ident]
            del self.info_order[mark.info :]
            self.info_made = None
        del self.root_pieces[mark.root_pieces :]
        if self.joined is not None and mark.pieces < self.joined[2]:
            self.joined = None  # its pieces are taken back: others may come at their places
        del self.pieces[mark.pieces :]
        self.move_from = mark.move_from
        self.stopped = mark.stopped
        self.setup_cut = mark.setup_cut
        self.player = mark.player

    def step(self, node: _Node, k: int, ctx: _Ctx, opts: ReadOptions, branch: bool = True) -> None:
        """Add node ``k`` of the path (the nodes before it are walked already); ``branch``: a
        later path may leave this one at it (a rewindable walk keeps its state before it)."""
        moves = self.moves
        self.walked = k + 1
        if self.rewindable and branch:
            self.mark_at.append(k)
            self.marks.append(
                tuple.__new__(  # (the named tuple's ``__new__`` is a Python call: once a line)
                    _Mark,
                    (
                        len(moves),
                        moves[-1] if moves else None,
                        len(self.setup),
                        len(self.events),
                        self.event_weight,
                        len(self.problems),
                        len(self.notes),
                        len(self.info_order),
                        len(self.root_pieces),
                        len(self.pieces),
                        self.move_from,
                        self.stopped,
                        self.events_cut,
                        self.setup_cut,
                        self.player,
                    ),
                )
            )
        ni = _node_info(node, ctx, bool(moves) or len(self.setup) >= ctx.width * ctx.height)
        for ident, text in ni.info:
            if ident not in self.info:
                self.info[ident] = text
                self.info_order.append(ident)
                self.info_made = None
        if ni.notes:
            self.notes.extend(ni.notes)
        if self.stopped:
            return
        if ni.problems:
            self.problems.extend(ni.problems)
        if ni.player is not None and not (moves or ni.moves):  # (said of move 1 only before it)
            self.player = ni.player
        if ni.setup or ni.erase:
            if moves:
                self.problems.append(
                    ParseProblem(
                        f"setup stones (AB/AW/AE) after move {len(moves)} cannot be replayed; "
                        "ignored",
                        line=node.line,
                    )
                )
            else:
                self._add_setup(ni.setup, ctx, node.line)
        if ni.moves and moves and len(self.pieces) > self.move_from:
            moves[-1] = self._with_pieces(moves[-1])
            self.move_from = len(self.pieces)
        for mv in ni.moves:
            if len(moves) >= opts.max_moves:
                self.problems.append(
                    ParseProblem(
                        f"more than {opts.max_moves} moves; the rest is not kept", line=node.line
                    )
                )
                self.stopped = True
                break
            # shared by every path through this node (never mutated: a comment is set on a
            # copy below), so that a path costs a list of references, not new moves
            moves.append(mv)
        if (ni.offers or ni.swaps) and not self.events_cut:
            self._opening_events(ni, len(moves), node.line, opts)
        if ni.comment:
            if ni.moves and moves and not self.stopped:
                moves[-1] = dataclasses.replace(moves[-1], comment=ni.comment)
            elif k == 0 or not moves:
                self.root_pieces.append(ni.comment)
            else:
                self.pieces.append(ni.comment)
        if ni.bad:
            self.stopped = True

    def _opening_events(self, ni: _NodeInfo, played: int, line: int, opts: ReadOptions) -> None:
        """Add the node's offers and ``SW`` values (``played``: the moves before them), as far
        as the path's bound of ``max_moves`` allows, and say so once past it."""
        room = opts.max_moves - self.event_weight
        cut = False
        offers = ni.offers
        if offers:
            if len(offers) > room:
                cut, offers = True, offers[:room]
            if offers:
                self.events.append(OpeningEvent("offers", after=4, points=offers, line=line))
                self.sorted_events = None
                room -= len(offers)
        for value in ni.swaps:
            if room <= 0:
                cut = True
                break
            room -= 1
            event = _swap_event(value, played, line)
            if event is None:
                self.notes.append(f"SW[{value}] at line {line} not understood")
            else:
                self.events.append(event)
                self.sorted_events = None
        self.event_weight = opts.max_moves - room
        if cut:
            self.events_cut = True
            self.problems.append(
                ParseProblem(
                    f"more than {opts.max_moves} opening events (offered points, SW values) "
                    "on this line; the rest are not read",
                    line=line,
                )
            )

    def line_record(self, moves: list[Move], source: SourceLocation, ctx: _Ctx) -> Record:
        """The record of the nodes walked, then nodes of one good move each (``moves``, as
        ``step`` adds them: the caller keeps the line within ``max_moves``); a walk that can be
        rewound is left at its nodes, for the next line to follow them with its own moves."""
        # (as ``step`` would: nothing stopped the line, no comment waits for a move)
        assert not self.stopped and len(self.pieces) == self.move_from
        walked = len(self.moves)
        self.moves.extend(moves)
        record = self.record(source, ctx)
        if self.rewindable:
            del self.moves[walked:]  # (the record has a copy)
        return record

    def _add_setup(self, stones: list[tuple[Point, Color]], ctx: _Ctx, line: int) -> None:
        """Add a node's setup stones to the path's, up to as many as the board has points."""
        room = ctx.width * ctx.height - len(self.setup)
        if len(stones) <= room:
            self.setup.extend(stones)
            return
        self.setup.extend(stones[: max(room, 0)])
        if not self.setup_cut:
            self.setup_cut = True
            self.problems.append(
                ParseProblem(
                    "the line's setup stones (AB/AW) before move 1 are more than the board has "
                    "points; the rest are ignored",
                    line=line,
                )
            )

    def _with_pieces(self, last: Move) -> Move:
        """``last`` with the pending comment pieces joined onto its comment."""
        start, end = self.move_from, len(self.pieces)
        joined = self.joined
        if joined is not None and joined[0] is last and joined[1:3] == (start, end):
            return joined[3]
        parts = self.pieces[start:end]
        if last.comment:
            parts.insert(0, last.comment)
        move = dataclasses.replace(last, comment="\n".join(parts))
        self.joined = (last, start, end, move)
        return move

    def record(self, source: SourceLocation, ctx: _Ctx) -> Record:
        """The record of the current path: copies of the walk's lists, which go on changing;
        the lists themselves when the walk cannot be rewound (its only path: nothing changes
        them after this, and a collection of tiny games saves four copies per game)."""
        info = self.info
        if self.rewindable:
            moves = list(self.moves)
            setup = list(self.setup)
            problems = list(self.problems)
            notes = list(self.notes)
        else:
            moves, setup, problems, notes = self.moves, self.setup, self.problems, self.notes
        if moves and len(self.pieces) > self.move_from:
            moves[-1] = self._with_pieces(moves[-1])  # (a copy of the walk's list if rewound)
            if not self.rewindable:
                self.move_from = len(self.pieces)
        meta: dict[str, str] = {}
        if self.root_pieces:
            meta["comment"] = "\n".join(self.root_pieces)
        declared: DeclaredResult | None = None
        rule: str | None = None
        opening_id = None
        if info:  # (bare games, the many trees of a big collection, have no game info)
            made = self.info_made
            if made is None or made.ctx is not ctx:
                made = self.info_made = _game_info(info, ctx)
            meta.update(made.metadata)
            if made.note:
                notes.append(made.note)
            if made.declared is not None:
                d = made.declared  # (a copy: a record's is its own)
                declared = DeclaredResult(d.winner, d.reason, d.text)
            rule, opening_id = made.rule, made.opening_id
        events: list[OpeningEvent] = []
        if self.events:
            if self.sorted_events is None:
                self.sorted_events = sorted(self.events, key=_after)
            events = list(self.sorted_events)
        if not moves and not setup and problems:
            first = problems[0]  # (built positionally: a third of what ``replace`` costs)
            problems = [ParseProblem(first.message, first.line, first.offset, True), *problems[1:]]
        # positional arguments, in field order: keywords cost a third more, and a collection of
        # tiny games makes hundreds of thousands of records
        return Record(
            moves,
            source,
            ctx.width,
            ctx.height,
            declared,  # declared_result
            rule,
            opening_id,
            meta,  # metadata
            setup,
            events,  # opening_events
            notes,
            problems,
            FORMAT,
            None,  # protocol_not_followed
            _player(self.player),  # to_move
        )


class _GameInfo(NamedTuple):
    """What a path's game info says of its record (``_game_info``), made under ``ctx``."""

    ctx: _Ctx
    metadata: dict[str, str]
    note: str
    declared: DeclaredResult | None
    rule: str | None
    opening_id: str | None


def _game_info(info: dict[str, str], ctx: _Ctx) -> _GameInfo:
    """The metadata, note, declared result, rule and opening id of a path's game info."""
    meta: dict[str, str] = {}
    # in the order of ``_INFO_KEYS`` (of metadata as written out), but a look-up per property
    # of the path, not per known property (a collection's game states one)
    said = [ident for ident in info if ident in _INFO_KEYS and info[ident]]
    if len(said) > 1:
        said.sort(key=_INFO_RANK.__getitem__)
    for ident in said:
        meta[_INFO_KEYS[ident]] = info[ident]
    note = ""
    gm = info.get("GM")
    if gm is not None and gm.strip() not in ("4", "5"):
        note = f"GM[{gm}] is not gomoku/renju (GM[4] or GM[5]); read as gomoku"
    declared = ctx.result(info["RE"]) if "RE" in info else None
    rule: str | None = None
    if "RU" in info:
        meta["rule_name"] = info["RU"]
        rule = ctx.rule(info["RU"])
        if rule is None and info["RU"].strip():
            # (judged under --rules or the default: the report's ruleset shows which, and
            # this says why, as JSON Lines and RenjuNet say it)
            unknown = (
                f"rule {clip(info['RU'].strip())!r} (RU) names no shipped ruleset ('renju rules "
                "list'): judged under --rules, or the default"
            )
            note = f"{note}; {unknown}" if note else unknown
    elif "GN" in info:
        rule, matched = ctx.rule_named_in(info["GN"])
        if matched is not None:
            meta["rule_name"] = matched
    opening_id = None
    if "ON" in info and _OPENING_ID.fullmatch(info["ON"].strip()):
        opening_id = info["ON"].strip().upper()
    return _GameInfo(ctx, meta, note, declared, rule, opening_id)


def _player_word(value: str) -> str:
    """A ``PL`` value as ``_player`` reads it: ``b``, ``w`` or ``""`` (no colour)."""
    return _PLAYER_WORDS.get(value.strip().lower(), "")


#: The words of ``PL`` values (``B``/``W``, as some programs write them ``black``/``1``...).
_PLAYER_WORDS = {"b": "b", "black": "b", "1": "b", "w": "w", "white": "w", "2": "w"}


def _player(word: str | None) -> Color | None:
    """The colour of a ``PL`` word (``_player_word``), if any."""
    if word == "b":
        return BLACK
    if word == "w":
        return WHITE
    return None


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield every root-to-leaf path of every game tree of an SGF file as a record."""
    whole = read_whole(stream, options)
    if whole is None:
        yield too_long(path, FORMAT, options)
        return
    data = whole.removeprefix(codecs.BOM_UTF8)
    if b"\n" not in data and b"\r" in data:
        data = data.replace(b"\r", b"\n")  # old Mac line ends: keep line numbers meaningful
    parser = _Parser(data, options)
    contexts = _Contexts(options)
    index = 0
    count = 0
    pending: list[ParseProblem] = []
    budget = _Budget(options.move_budget(len(data)))
    while True:
        found = parser.next_tree()
        if found is None:
            break
        stray, stray_line = found
        if stray is not None and index > 0:
            pending.append(ParseProblem(stray, line=stray_line))
        if parser.pos >= len(data):
            break
        if not pending and count < options.max_records:
            short = _short_game(parser, path, index, contexts, options, budget)
            if short is not None:
                parser.pos = short[1]
                count += 1
                index += 1
                yield short[0]
                continue
        # a tree is parsed only as far as the records the file may still give
        tree = parser.parse_tree(max_lines=options.max_records - count + 1)
        if parser.dropped:
            tree.problems.append(
                ParseProblem(
                    f"{parser.dropped} more problems in the nodes of this game tree are not "
                    f"listed (the first {MAX_NODE_PROBLEMS} are)",
                    line=tree.line,
                )
            )
        if pending:
            tree.problems[:0] = pending
            pending = []
        for record in _tree_records(tree, index, path, options, budget, contexts):
            if count >= options.max_records:
                yield _unreadable(
                    path,
                    index,
                    tree.line,
                    f"{options.too_many()}; the rest is not read",
                )
                return
            count += 1
            yield record
        if budget.spent:
            return
        if tree.cut:  # (its lines gave fewer records: one unreadable record for the tree)
            yield _unreadable(path, index, tree.line, f"{options.too_many()}; the rest is not read")
            return
        index += 1
    if pending or index == 0:
        message = "; ".join(p.message for p in pending) if pending else "no SGF game tree found"
        yield _unreadable(path, index, pending[0].line if pending else None, message)


#: A bare game: one line of nodes, each a single ``B``/``W`` move of two letters (or none),
#: on one line of the file (a collection of short games: ``(;B[hh];W[hi];B[ii])``).
_BARE_GAME = re.compile(rb"\([ \t]*((?:;[ \t]*[BW]\[(?:[a-z][a-z])?\][ \t]*){1,1024})\)")
_BARE_MOVE = re.compile(rb"([BW])\[([a-z]*)\]")
#: The root a bare game's context is made for: no ``CA``, no ``SZ``.
_BARE_ROOT = _Node(0)
#: An info game: a game of one line whose root holds properties with plain values (no escape,
#: no ``(``, no line break), setup stones among them, and whose other nodes are bare moves:
#: ``(;RU[renju-rif]PB[Ann]AB[aa:ao];B[hh];W[hi])``.  (Each part ends where the next cannot
#: start, so a failed match costs its bytes once, and it fails at the first move of a root, as
#: written in upper case.  A root of more than 64 properties or values, or
#: more than 1,024 moves, is no short game's: a hostile tree of 170,000 ``PB[aa]`` or ``;B[]``
#: is left to the parser at once, not matched whole first.  A run of games with one root of
#: setup stones walks it once: a megabyte of games of 60 setup stones and 10 moves was read in
#: 0.93 s by the parser, 0.42 s so.)
_INFO_GAME = re.compile(
    rb"\([ \t]*;[ \t]*((?:(?![BW][ \t]*\[)"  # (see ``_NOT_INFO``)
    rb"[A-Za-z0-9]+[ \t]*(?:\[[^\]\\(\n\r]*\][ \t]*){1,64}){1,64})"
    rb"((?:;[ \t]*[BW]\[(?:[a-z][a-z])?\][ \t]*){0,1024})\)"
)
#: A value of an info game's root, after its property name (none: one more value of the
#: property before it).
_INFO_VALUE = re.compile(rb"([A-Za-z0-9]*)[ \t]*\[([^\]]*)\]")
#: Root properties an info game leaves to the parser: moves.  (Erased points and opening
#: events are walked as the parser's walk does: a collection of short games that each say
#: ``SW[1]`` took twice as long through the parser, red team 6.)
_NOT_INFO = frozenset({"B", "W"})


def _short_game(
    parser: _Parser,
    path: str,
    index: int,
    contexts: _Contexts,
    opts: ReadOptions,
    budget: _Budget,
) -> tuple[Record, int] | None:
    """The record of the game tree at the parser's position when it is a bare game or an info
    game, and where the tree ends; ``None`` when it is anything more, or when the parser's
    reading says more than its moves (the parser then reads it).  The record is the one the
    parser and the walk make of it (``tests/test_format_sgf.py`` compares them on generated
    collections): a collection of 50,000 short games spent two thirds of its reading in the
    general machinery, built for trees of variations, setups and text.  An info game's root
    goes through the walk as the parser's does (game info, rule, result, charset, notes): only
    its tokenizing and its moves take the short way."""
    data = parser.data
    line = parser.line
    walk: _PathWalk | None = None  # a bare game has no root of its own to walk
    m = _BARE_GAME.match(data, parser.pos)
    if m is not None:
        found, notes = contexts.get(_BARE_ROOT)
        if isinstance(found, str) or notes:
            return None
        ctx = found
        nodes_span = m[1]
    else:
        m = _INFO_GAME.match(data, parser.pos)
        if m is None:
            return None
        root = _info_root(parser, m[1], contexts, opts)
        if root is None:
            return None
        ctx, walk = root
        nodes_span = m[2]
    nodes = _BARE_MOVE.findall(nodes_span)
    if len(nodes) > opts.max_moves:
        return None  # cut: as the walk says
    memo = ctx.moves
    moves = []
    for ident_raw, v in nodes:
        ident = "B" if ident_raw == b"B" else "W"
        known = memo.get((ident, v))
        if known is None:
            known = (_move_token(ident, v), _point(v, ctx, allow_pass=True))
            if len(memo) < ctx.memo_entries:
                memo[ident, v] = known
        token, p = known
        if isinstance(p, str):
            return None  # a bad move: the parser's problem
        # positional, in field order: point, color, line, offset, token
        moves.append(Move(p, BLACK if ident == "B" else WHITE, line, None, token))
    source = SourceLocation(path, index, line, None, MAIN_LINE)
    if walk is None:
        if len(nodes) > budget.left:
            return None  # past the file's budget: the parser's record says so
        budget.left -= len(nodes)
        record = Record(moves, source, ctx.width, ctx.height)
        record.format = FORMAT
        return record, m.end()
    record = walk.line_record(moves, source, ctx)
    events = record.opening_events
    if events and events[0].line != line:
        # a root walked for an earlier game, kept (``_info_root``): its events (the root's
        # only) are this game's, on this game's line
        record.opening_events = [
            OpeningEvent(e.kind, e.after, e.value, e.points, line) for e in events
        ]
    cost = _line_cost(1 + len(nodes), walk, record)
    if cost > budget.left:
        return None  # past the file's budget: the parser's record says so
    budget.left -= cost
    return record, m.end()


def _info_root(
    parser: _Parser, span: bytes, contexts: _Contexts, opts: ReadOptions
) -> tuple[_Ctx, _PathWalk] | None:
    """The context of an info game whose root properties are ``span``, and the walk of its root
    node, the node the parser makes of it; ``None`` when the parser would read it otherwise.
    From the second game with the same root on, the walk can be rewound and is kept
    (``_Contexts.roots``): the games after it take it as it is, with no node made or walked."""
    known = contexts.roots.get(span)
    if known is not None and known[1] is not None:
        return known[0], known[1]
    root = _Node(parser.line)
    values: list[bytes] = []
    for raw, value in _INFO_VALUE.findall(span):
        if raw:
            ident = parser._ident(raw)
            if ident in _NOT_INFO:
                return None
            values = [value]
            root.prop(ident, values)
        else:
            values.append(value)
    if not span.isascii():
        # the double-byte mode the parser would read the root in (the file's encoding, or a
        # charset the root names): with one, the tokenizer reads the root's text otherwise
        parser._prescan_charset()
        for ident, values in root.props or ():
            if ident == "CA":
                parser._root_charset(values[0])
        if parser.dbcs is not None:
            return None
    ctx, tree_notes = contexts.get(root)
    if isinstance(ctx, str):
        return None  # an unreadable size: the parser's record says so
    # the second game with this root: its walk is kept for the next ones, unless the root
    # said something of its own (with the root's line in it)
    again = known is not None
    walk = _PathWalk([], tree_notes, rewindable=again)
    walk.step(root, 0, ctx, opts)
    # (its opening events hold the root's line: ``_short_game`` gives them the game's)
    keep = again and not walk.problems and len(walk.notes) == len(tree_notes)
    if len(span) <= contexts.ROOT_BYTES:
        remember(contexts.roots, span, (ctx, walk if keep else None), contexts.CONTEXTS)
    return ctx, walk


def _unreadable(
    path: str,
    index: int,
    line: int | None,
    message: str,
    earlier: Sequence[ParseProblem] = (),
    at: int | None = None,
) -> Record:
    """A record that could not be read: the ``earlier`` problems of its tree, then ``message``
    (at line ``at``, by default the record's ``line``)."""
    fatal = ParseProblem(message, line=line if at is None else at, fatal=True)
    return Record(
        moves=[],
        source=SourceLocation(path, index, line),
        problems=[*earlier, fatal],
        format=FORMAT,
    )


# --------------------------------------------------------------------------------------------
# Writer


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _sgf_point(p: Point, width: int, height: int) -> str:
    row = height - 1 - p.y
    if not (0 <= p.x < 26 and 0 <= row < 26):
        raise ValueError(f"point {tuple(p)} cannot be written in SGF on a {width}x{height} board")
    return chr(0x61 + p.x) + chr(0x61 + row)


def result_text(result: DeclaredResult) -> str:
    """The ``RE`` value of a declared result."""
    if result.winner in ("black", "white"):
        prefix = "B+" if result.winner == "black" else "W+"
        reason = result.reason
        if reason is None:
            return prefix
        return prefix + _REASON_TEXT.get(reason, reason[:1].upper() + reason[1:])
    if result.winner == "draw":
        return "Draw"
    if result.text and parse_result(result.text).winner is None:
        return result.text
    return "?"


def board_size(record: Record) -> tuple[int, int]:
    """The record's board size; when it states none, 15x15 or larger to hold every point."""
    points = [m.point for m in record.moves if m.point is not None]
    points += [p for p, _ in record.setup]
    points += [p for e in record.opening_events for p in e.points]
    w = record.width
    if w is None:
        w = max([15, *(p.x + 1 for p in points)])
    h = record.height
    if h is None:
        h = max([15, *(p.y + 1 for p in points)])
    return w, h


def _event_nodes(record: Record, w: int, h: int) -> dict[int, list[str]]:
    """The ``5A`` and ``SW`` properties of the record's opening events by node (0 the root, n
    the node of move n), placed so that the reader gives back the same events in the same
    order: it reads one offer group per node, after move 4, and a node's offers before its
    swaps, then sorts the events by move; ``SW[n]`` is a swap after move n on any node,
    ``SW[N]`` a declined swap after the moves up to its node, ``SW[Y]``/``SW[N]`` on the root a
    flag not tied to a move.  Raises ``ValueError`` naming what SGF cannot hold: choices,
    declared counts, rejections, moved stones, offers of another move than 5, swaps before the
    first stone, RenjuNet's numbered swap flags."""
    offers: dict[int, str] = {}  # node -> its one offer group
    swaps: dict[int, list[tuple[str, int]]] = {}  # node -> (SW value, the move it is after)
    last = len(record.moves)
    lost: list[str] = []
    at = 0  # the node of the event before: the events keep their order
    for e in sorted(record.opening_events, key=lambda e: e.after):
        if e.kind == "offers":
            if e.after != 4:
                names = " ".join(p.name for p in e.points)
                lost.append(f"the offers {{{names}}} after move {e.after} (5A: after move 4)")
                continue
            if at in offers or any(after == 4 for _, after in swaps.get(at, ())):
                at += 1  # one group per node; a node's offers are read before its swaps
            if at > last:
                lost.append("more offer groups than the record has moves to carry them")
                continue
            offers[at] = "".join(f"[{_sgf_point(p, w, h)}]" for p in e.points)
        elif e.kind in ("swap", "no-swap") and e.after == -1 and not e.value and at == 0:
            swaps.setdefault(0, []).append(("Y" if e.kind == "swap" else "N", -1))
        elif e.kind == "swap" and e.after >= 1:
            swaps.setdefault(at, []).append((str(e.after), e.after))
        elif e.kind == "no-swap" and 1 <= e.after <= last and at <= e.after:
            at = e.after
            swaps.setdefault(at, []).append(("N", e.after))
        elif e.kind == "choose":
            lost.append(f"the choice of {e.value} after move {e.after}")
        elif e.kind == "declare":
            lost.append(f"the declared offer count N={e.value} after move {e.after}")
        elif e.kind in ("swap", "no-swap"):
            where = f"after move {e.after}" if e.after >= 0 else f"numbered {e.value}"
            lost.append(f"the {e.kind} {where} (SW cannot place it)")
        elif e.kind == "relocate":
            moved = "-".join(p.name for p in e.points)
            lost.append(f"the stone moved {moved} after move {e.after}")
        elif e.kind == "reject":
            lost.append(f"the rejection (reject) after move {e.after}")
        else:
            lost.append(f"the {e.kind} after move {e.after}")
    if lost:
        raise ValueError("SGF has no place for " + "; ".join(lost))
    out: dict[int, list[str]] = {}
    for node in sorted({*offers, *swaps}):
        props = [f"5A{offers[node]}"] if node in offers else []
        if node in swaps:
            props.append("SW" + "".join(f"[{v}]" for v, _ in swaps[node]))
        out[node] = props
    return out


def to_sgf(record: Record) -> str:
    """One record as an SGF game tree (with a final newline)."""
    w, h = board_size(record)
    root: list[str] = ["FF[4]", "GM[4]", "CA[UTF-8]", f"SZ[{w}]" if w == h else f"SZ[{w}:{h}]"]
    meta = record.metadata
    for ident, key in _INFO_KEYS.items():
        if meta.get(key):
            root.append(f"{ident}[{_escape(meta[key])}]")
    if record.opening_id and "opening" not in meta:
        root.append(f"ON[{_escape(record.opening_id)}]")
    if record.declared_result is not None:
        root.append(f"RE[{_escape(result_text(record.declared_result))}]")
    rule = record.rule
    raw_rule = meta.get("rule_name")
    if raw_rule and (rule is None or ruleset_for(raw_rule)[0] == rule):
        rule = raw_rule  # keep the file's own spelling when it means the same ruleset
    if rule:
        root.append(f"RU[{_escape(rule)}]")
    for color, ident in ((BLACK, "AB"), (WHITE, "AW")):
        pts = [p for p, c in record.setup if c is color]
        if pts:
            root.append(ident + "".join(f"[{_sgf_point(p, w, h)}]" for p in pts))
    if record.to_move is not None:
        root.append(f"PL[{'B' if record.to_move is BLACK else 'W'}]")
    if record.metadata.get("boards", "").strip("-"):
        raise ValueError("SGF cannot hold the boards (A:/B:) of two-board stones")
    events = _event_nodes(record, w, h)
    root.extend(events.get(0, ()))
    if meta.get("comment"):
        root.append(f"C[{_escape(meta['comment'])}]")
    parts = ["(;" + "".join(root) + "\n"]
    expected = record.to_move or BLACK
    line: list[str] = []
    for n, mv in enumerate(record.moves, start=1):
        color = mv.color or expected
        expected = color.other
        ident = "B" if color is BLACK else "W"
        value = "" if mv.point is None else _sgf_point(mv.point, w, h)
        node = f";{ident}[{value}]" + "".join(events.get(n, ()))
        if mv.comment:
            node += f"C[{_escape(mv.comment)}]"
        line.append(node)
        if len(line) >= 10 or mv.comment:
            parts.append("".join(line) + "\n")
            line = []
    if line:
        parts.append("".join(line) + "\n")
    parts.append(")\n")
    return "".join(parts)


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write records as an SGF collection, one game tree per record."""
    for record in records:
        out.write(to_sgf(record))
