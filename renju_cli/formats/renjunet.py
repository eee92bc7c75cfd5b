"""RenjuNet / RIF database reader (``.rif``, XML).

The RIF game database is one XML document: lookup tables (countries, cities, rules, openings,
players, tournaments) followed by ``<games>``.  It has no published schema, real copies are tens of
megabytes and not always clean, so this reader

- streams: the document is fed in chunks to defusedxml's ``DefusedXMLParser`` (the parser behind
  ``defusedxml.ElementTree.iterparse``) with a target that builds no element tree at all, so memory
  depends on the lookup tables and one game, never on the number of games; the target also sees
  the parser's line number at each start tag, which ``iterparse`` cannot give;
- refuses entity declarations and external references (billion laughs, XXE): the file becomes one
  fatal problem record, nothing is expanded or fetched;
- decodes tolerantly: bytes are decoded in Python with ``errors="replace"`` and handed to expat as
  UTF-8, so a bad byte costs one U+FFFD, not the rest of the file;
- resumes after an XML syntax error: the damaged game (or whatever held the error) becomes one
  unreadable record that gives the line, the message and the line where reading resumed; a fresh
  parser then starts at the next ``<game`` start tag (not one in a comment, a CDATA section, a
  processing instruction or an attribute value, single- or double-quoted, of any tag after the
  error; an error inside a comment resumes after its end), fed first the start tags of the
  elements that enclose games
  (``<database><games>``, with no newline, so later line numbers stay the file's) so that the
  file's own closing tags still match.  The lookup tables read so far are kept; a table skipped
  by the resync is lost, so later games may name ids left unresolved.  At most
  ``ReadOptions.max_resyncs`` resyncs per file (by its size); refusals (entities, external
  references, DTDs that point outside or give attribute defaults, the bounds but depth) still
  end the file; a damaged game past ``max_records`` ends it too, with the bound's record;
- reads a comment, CDATA section or processing instruction that nothing closes (in a damaged
  game or not: expat would read it to the end of the file) as text from its start on: reading
  resumes at the first ``<game`` after its start, and the message says so.  Knowing that nothing
  closes it takes the rest of the file: what follows its start is held, ``max_file`` bytes at
  most (past them the games after it are lost, and the message says so); a section closed later,
  however far, is skipped whole.  Once the end of the file has been read, where the sections end
  is known, and each later section that nothing closes costs no more than the text around it;
- reads a ``<game>`` start tag inside a game as the next game: games never nest, so the open one
  lacks its ``</game>`` and is one unreadable record that says so; the end tag that the missing
  one leaves unmatched (``</games>``) costs nothing more;
- resumes the same way after elements nested deeper than ``max_depth`` (expat keeps every open
  element): the game they are in is one unreadable record.

Ids (rules, openings, players...) are always resolved through the file's own tables, never
hard-coded.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple, NoReturn

from renju_cli.coords import MAX_SIZE, MIN_SIZE, Point, parse_point
from renju_cli.formats import (
    ReadOptions,
    budget_terms,
    clip,
    lazy_compile,
    lookup_codec,
    numbered_swaps,
    shipped_by_lower_name,
    text_cost,
    unreadable,
)
from renju_cli.memo import remember
from renju_cli.record import (
    DeclaredResult,
    Move,
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
)
from renju_cli.results import not_understood, read_black_score, read_result, understood

if TYPE_CHECKING:  # imported by ``_load_xml``, when the first database is read
    from xml.etree.ElementTree import ParseError
    from xml.parsers.expat import ErrorString

    from defusedxml import (  # type: ignore[import-untyped, unused-ignore]
        DefusedXmlException,
        EntitiesForbidden,
        ExternalReferenceForbidden,
    )
    from defusedxml.ElementTree import (  # type: ignore[import-untyped, unused-ignore]
        DefusedXMLParser,
    )

NAME = "renjunet"
EXTENSIONS = (".rif", ".xml")

#: Bytes read from the stream (and decoded and cleaned) at a time.
CHUNK_BYTES = 1 << 16
#: Bytes handed to the parser at a time: the records of the games that end in a feed wait in
#: memory until it returns, and a 64 KiB chunk can hold ten thousand tiny games.
FEED_BYTES = 1 << 13
#: While the parser stays in one token (a value, a comment of megabytes), each feed is twice
#: the last, up to this: expat scans an unfinished token anew on every feed (a 4 MB attribute
#: value took 1.6 s, 16 MB half a minute); past the token, the games of one feed wait in memory.
MAX_FEED_BYTES = 1 << 19
#: Longest tag, comment or processing instruction read (from its "<" to where it ends): expat
#: holds an unfinished one whole, and scans it anew on every feed, so a start tag whose
#: attribute value never ends grew its buffer without bound (an endless one piped in: 214 MB
#: in 5 s; a named file of a gigabyte, gigabytes).  Real ones are a few hundred bytes; the
#: text between tags and CDATA sections are read as they come, whatever their length.
MAX_MARKUP_BYTES = 1 << 23
#: Entries kept per lookup table; the real database has about 10^4 players.
MAX_TABLE_ENTRIES = 1 << 20
#: A move token longer than this cannot be a point; it is kept only for the message.
MAX_TOKEN = 32
#: Board size of RenjuNet games when the rule table does not give one (renju is 15x15).
DEFAULT_SIZE = 15
#: Bytes of the latest chunks kept to find where reading resumes after a syntax error.
KEEP_BYTES = 1 << 14
#: Elements enclosing games that a resumed parser is given (their start tags, without attributes),
#: and the namespace declarations and bytes of those start tags: a file past them is not resumed.
MAX_PREFIX_DEPTH = 64
MAX_PREFIX_BYTES = 1 << 14
#: An unclosed tag longer than this at the end of a chunk skipped after an error is not followed.
_MAX_CARRY = 1 << 12
#: Swap flags read from a game's ``swap`` at most (as JSON Lines reads from ``swaps``): a
#: protocol has a handful of swap opportunities, and every flag becomes an opening event.
MAX_SWAP_FLAGS = 4096
#: Fifth-move offers read from a game's ``alt`` at most: no board has more points.
MAX_OFFERS = MAX_SIZE * MAX_SIZE

#: Lookup-table entries: element name -> the container it sits in (also its key in ``tables``).
_TABLE_ELEMENTS: dict[str, str] = {
    "country": "countries",
    "city": "cities",
    "rule": "rules",
    "opening": "openings",
    "player": "players",
    "tournament": "tournaments",
}

# Characters XML 1.0 forbids even as text (expat would stop the whole file at the first one), and
# lone surrogates, which cannot be encoded to UTF-8 for expat.
_XML_ILLEGAL = lazy_compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ENCODING_DECL = lazy_compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")
_PROLOG = re.compile(
    r"\s*(?:<\?.*?\?>\s*|<!--.*?-->\s*|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>\s*)*", re.DOTALL
)
_DATABASE_ROOT = re.compile(r"<(?:[\w.-]+:)?database[\s/>]")
_SEPARATORS = " \t\r\n,"
#: Points already parsed, by token: games repeat the same few hundred tokens.
_POINTS: dict[str, Point] = {}
_ALT_TOKEN = lazy_compile(r"[^\s,;]+")
_DATE = lazy_compile(r"\d{4}-\d{2}(?:-\d{2})?$")
# ASCII digits only, and few: str.isdigit() accepts "²" (which int() refuses) and any length
_SMALL_NUMBER = lazy_compile(r"[0-9]{1,6}")
#: Where reading resumes after a syntax error: a ``<game`` start tag (bytes of the cleaned UTF-8).
_GAME_START = rb"<(?:[\w.-]+:)?game[\s/>]"
_GAME_START_AT = lazy_compile(_GAME_START)
#: a game start tag where it begins (``_Source.in_game_tag``)
_GAME_TAG_AT = lazy_compile(rb"<(?:[\w.-]+:)?game(?:[\s/>]|$)")
_NAME_BYTES = rb"[A-Za-z_\x80-\xff][\w.\-\x80-\xff]*"
# The text skipped after a syntax error (``_Source.skip_to_game``) is read as text, tags,
# attribute values in tags, and comments, CDATA sections and processing instructions ("sections"):
#: a section's start (group 1: what follows the "<"), where it begins
_SECTION_START = lazy_compile(rb"<(!--|!\[CDATA\[|\?)")
#: a section's start -> its end, what a message calls it
_SECTIONS = {
    b"!--": (b"-->", "a comment"),
    b"![CDATA[": (b"]]>", "a CDATA section"),
    b"?": (b"?>", "a processing instruction"),
}
#: a start or end tag where it begins, up to its name (group 1: "/" for an end tag; group 2: the
#: qualified name, one character class and a lookahead: no backtracking into the name)
_TAG_NAME = rb"<(/?)([A-Za-z_\x80-\xff][\w.:\-\x80-\xff]*)(?=[\s/>])"
_TAG_START = lazy_compile(_TAG_NAME)
#: An attribute value: it ends at its quote unless a line break and a "<" both come before it
#: (a "<" in a value on one line is damage, still in the value; a value on several lines
#: without a "<" is XML; a value with both is one left open by a line cut short, and what
#: follows the line break is text).  Each part starts with a character the others cannot: a
#: tag that does not end backtracks in linear time.
_VALUE = rb"""=\s*(?:"[^"<\n]*(?:\n[^"<]*|<[^"\n]*)?"|'[^'<\n]*(?:\n[^'<]*|<[^'\n]*)?')"""
#: a whole tag, its values skipped as above (group 3: what follows the name, up to the ">")
_WHOLE_TAG = lazy_compile(_TAG_NAME + rb"""((?:[^<>"'=]|=(?!\s*["'])|""" + _VALUE + rb")*)>")
#: text (with the "<" that start nothing) and whole tags, up to a game start tag, a section, or a
#: "<" that starts a tag not whole (cut by the end of what is read, or damaged)
_TEXT_RUN = lazy_compile(
    rb"(?:[^<]+|<(?=[^A-Za-z_\x80-\xff/!?])|(?!<(?:[\w.-]+:)?game[\s/>])"
    + _WHOLE_TAG.pattern
    + rb")*"
)
#: What a "<" where a text run stops starts: a game start tag (group 1), a section (group 2: what
#: follows the "<") or a tag (groups 3 and 4, as in ``_TAG_NAME``)
_AT_LT = lazy_compile(rb"(" + _GAME_START + rb")|<(!--|!\[CDATA\[|\?)|" + _TAG_NAME)
#: In the rest of a tag: its end, a "<" (the tag is damaged), or the start of a value (group 1:
#: its quote; none when the text read ends before it); in the rest of a damaged tag, a "<" only
#: where a game starts or the text read ends
_TAG_STOP = lazy_compile(rb"""[<>]|=\s*(?:(["'])|\Z)""")
_DAMAGED_TAG_STOP = lazy_compile(
    rb">|<(?:(?:[\w.-]+:)?game[\s/>]|[^\s<>]*\Z)|" + rb"""=\s*(?:(["'])|\Z)"""
)
_VALUE_STOP = {b'"': lazy_compile(rb'["\n<]'), b"'": lazy_compile(rb"['\n<]")}
#: the rest of a value from its quote, to where it ends (its quote) or turns out left open (the
#: "<" after a line break, the line break after a "<"), in one call when the text read holds it
_VALUE_REST = {
    q: lazy_compile(b"[^%c<\n]*(?:%c|\n[^%c<]*[%c<]|<[^%c\n]*[%c\n])" % ((q[0],) * 6))
    for q in (b'"', b"'")
}
_VALUE_START = lazy_compile(rb"""=\s*(["'])""")
#: what may be a tag, a section or a game start tag cut by the end of the text read
_CUT = lazy_compile(rb"<[^\s<>]*\Z")
#: a processing instruction's start with its whole target
_PI_TARGET = lazy_compile(rb"<\?[A-Za-z_:\x80-\xff][\w.:\-\x80-\xff]*\s")
_QNAME = lazy_compile(rb"(?:" + _NAME_BYTES + rb":)?" + _NAME_BYTES)
_XMLNS_ATTRIBUTE = lazy_compile(
    rb"""\sxmlns(?::(""" + _NAME_BYTES + rb"""))?\s*=\s*(?:"([^"<&]*)"|'([^'<&]*)')"""
)
_CONTINUATION_BYTES = bytes(range(0x80, 0xC0))
#: expat's error codes (set by ``_load_xml``): the errors found at the next tag; a mismatched tag
_ERROR_AT_NEXT_TAG: frozenset[int]
_TAG_MISMATCH: int
#: the errors of a section that is not closed at the end of the file: a comment or a processing
#: instruction is a token (the error is at its start), a CDATA section is not (at the end)
_UNCLOSED_TOKEN: int
_UNCLOSED_CDATA: int
_XML_LOADED = False
#: An end tag where it begins: its qualified name (group 1).
_END_TAG_AT = lazy_compile(rb"</(" + _NAME_BYTES + rb"(?::" + _NAME_BYTES + rb")?)")

# Normalised rule names (see ``ruleset_name``) -> shipped ruleset names.
_RULESETS: dict[str, str] = {
    "rif": "renju-rif",
    "renju": "renju-rif",
    "renju rif": "renju-rif",
    "rif renju": "renju-rif",
    "yamaguchi": "yamaguchi",
    "tarannikov": "tarannikov",
    "sakata": "sakata",
    "super sakata": "super-sakata",
    "supersakata": "super-sakata",
    "swap": "renju-swap",
    "renju swap": "renju-swap",
    "swap2": "swap2",
    "swap 2": "swap2",
    "freestyle": "freestyle",
    "pro": "pro",
    "long pro": "long-pro",
    "caro": "caro",
    "omok": "omok",
}
_RULE_WITH_COUNT = lazy_compile(r"(soosorv|soosyrv|taraguchi) ?(\d{1,2})")
#: Game attributes read into fields of their own; the others are kept in the metadata as they are.
_KNOWN_ATTRIBUTES = frozenset(
    ("id", "tournament", "round", "rule", "black", "white", "bresult", "btime", "wtime",
     "opening", "alt", "swap")
)  # fmt: skip


class _Stop(Exception):
    """Raised from inside the parser callbacks to end the parse with a message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _TooDeep(Exception):
    """Raised from ``_Target.start`` at a start tag nested deeper than ``max_depth``: expat
    holds every open element, so the parse cannot go on; reading resumes at the next ``<game``
    (at this start tag when it is a game's) with a fresh parser (see ``_resync``)."""

    def __init__(self, line: int | None, col: int, at: int, game: bool) -> None:
        super().__init__(f"elements nested too deep at line {line}")
        self.line = line
        self.col = col
        self.at = at  # the file's byte index of the start tag's "<"
        self.game = game  # the start tag is a <game>'s


class _Unclosed(Exception):
    """What ``_feed_next`` gives when the parser is inside a section that nothing closes (the
    end of the file has been read: ``_Source.ends``): expat would read it to the end of the file
    (each time, quadratic in all), so it ends there with the error it would give at the end,
    and reading resumes after the section's start, as after that error (see ``_resync``)."""

    def __init__(self, at: int, cdata: bool) -> None:
        super().__init__(f"unclosed section at byte {at}")
        self.at = at  # the file's byte index of the section's "<"
        self.code = _UNCLOSED_CDATA if cdata else _UNCLOSED_TOKEN


def sniff(head: bytes) -> int:
    """How sure we are that a file starting with ``head`` is a RenjuNet database (0, 1 or 2).

    2 when the first element is ``<database>`` (after an optional BOM, XML declaration, comments
    or DOCTYPE); 1 for other XML that mentions ``<game`` or ``<database``; 0 otherwise.
    """
    text = _head_text(head)
    prolog = _PROLOG.match(text)
    rest = text[prolog.end() :] if prolog else text
    if _DATABASE_ROOT.match(rest):
        return 2
    stripped = text.lstrip()
    if stripped.startswith("<?xml") and "<game" in text:
        return 1
    if stripped.startswith("<") and "<database" in text:
        return 1  # the prolog may be longer than the head
    return 0


def _head_text(head: bytes) -> str:
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return head.decode("utf-16", errors="replace")
    if head.startswith(b"<\x00"):
        return head.decode("utf-16-le", errors="replace")
    if head.startswith(b"\x00<"):
        return head.decode("utf-16-be", errors="replace")
    return head.removeprefix(codecs.BOM_UTF8).decode("latin-1")


def ruleset_name(raw: str) -> str | None:
    """The shipped ruleset name for a RenjuNet rule name, or ``None`` when there is none.

    Case, accents, punctuation and spacing are ignored (``Soosõrv-8``, ``Soosorv 8`` and
    ``SOOSYRV-8`` all give ``soosyrv-8``); ``Taraguchi-N`` and ``Soosõrv-N`` keep their count.
    ``Renju`` and ``RIF`` mean the RIF opening rule (``renju-rif``), ``Swap`` the renju swap rule.
    """
    # (every game names its rule: a database of 40,000 games asks for one name 40,000 times)
    known = _NAMES.get(raw, _UNKNOWN)
    if known is not _UNKNOWN:
        return known  # type: ignore[return-value]
    name = _ruleset_name(raw)
    if len(raw) <= _NAME_CHARS:
        remember(_NAMES, raw, name, _NAMES_KEPT)
    return name


#: ``ruleset_name`` of the names met (of at most ``_NAME_CHARS`` characters; at most
#: ``_NAMES_KEPT`` of them, then started afresh).
_NAMES: dict[str, str | None] = {}
_NAME_CHARS = 256
_NAMES_KEPT = 1024
_UNKNOWN = object()


def _ruleset_name(raw: str) -> str | None:
    """``ruleset_name`` worked out."""
    ascii_name = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    key = re.sub(r"[^a-z0-9]+", " ", ascii_name.lower()).strip()
    key = re.sub(r" rules?$", "", key)
    if key in _RULESETS:
        return _RULESETS[key]
    m = _RULE_WITH_COUNT.fullmatch(key)
    if m is not None:
        family = "soosyrv" if m.group(1) != "taraguchi" else "taraguchi"
        return f"{family}-{int(m.group(2))}"
    return None


class _Recoder:
    """Turns the byte stream into clean UTF-8 chunks for expat, whatever the file's encoding.

    The encoding is chosen from a BOM, else the XML declaration, else ``ReadOptions.encoding``,
    else UTF-8.  Undecodable bytes become U+FFFD and characters XML forbids become U+FFFD too, so
    that a bad byte in a player's name does not end the parse.  Line breaks are kept, so the
    parser's line numbers are the file's.
    """

    def __init__(self, stream: BinaryIO, fallback: str | None) -> None:
        self.stream = stream
        self.fallback = fallback
        self.encoding = "utf-8"
        self.notes: list[str] = []
        self.replaced = 0

    def chunks(self) -> Iterator[bytes]:
        """The file as clean UTF-8, in pieces of at most ``FEED_BYTES`` (a piece may end inside
        a character: expat puts it back together)."""
        data = self.stream.read(CHUNK_BYTES)
        self.encoding = self._choose(data)
        decoder = codecs.getincrementaldecoder(self.encoding)(errors="replace")
        while data:
            clean = self._clean(decoder.decode(data))
            for start in range(0, max(len(clean), 1), FEED_BYTES):
                yield clean[start : start + FEED_BYTES]
            data = self.stream.read(CHUNK_BYTES)
        yield self._clean(decoder.decode(b"", final=True))

    def _choose(self, head: bytes) -> str:
        if head.startswith(codecs.BOM_UTF8):
            return "utf-8-sig"
        # UTF-32 first: its little-endian BOM starts with UTF-16's
        if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
            return "utf-32"
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return "utf-16"
        if head.startswith(b"<\x00\x00\x00"):
            return "utf-32-le"
        if head.startswith(b"\x00\x00\x00<"):
            return "utf-32-be"
        if head.startswith(b"<\x00"):
            return "utf-16-le"
        if head.startswith(b"\x00<"):
            return "utf-16-be"
        m = _ENCODING_DECL.match(head)
        declared = m.group(1).decode("ascii") if m else None
        for name in (declared, self.fallback):
            if not name:
                continue
            info = lookup_codec(name)
            if info is None:
                self.notes.append(f"unknown encoding {name!r}; decoded as UTF-8")
                continue
            if not getattr(info, "_is_text_encoding", True):  # base64, zlib, rot13...
                self.notes.append(f"{name!r} is not a text encoding; decoded as UTF-8")
                continue
            if info.name.startswith(("utf-16", "utf-32")):
                # the head is ASCII-compatible, so the label is wrong
                self.notes.append(f"encoding {name!r} declared but the file is not {name}")
                continue
            if not _reads_markup(info.name, head):  # idna, punycode, EBCDIC on an ASCII file...
                self.notes.append(f"encoding {name!r} cannot read this file; decoded as UTF-8")
                continue
            # files labelled ASCII usually hold UTF-8 names; UTF-8 reads ASCII unchanged
            return "utf-8" if info.name == "ascii" else info.name
        return "utf-8"

    def _clean(self, text: str) -> bytes:
        if "\ufffd" in text:
            self.replaced += text.count("\ufffd")
        text, n = _XML_ILLEGAL.subn("\ufffd", text)
        self.replaced += n
        return text.encode("utf-8")


def _reads_markup(codec: str, head: bytes) -> bool:
    """Whether ``codec`` decodes the head of the file (read as ASCII-compatible bytes so far) to
    text that starts with markup, as every XML document does: a codec that raises even with
    ``errors="replace"`` (``idna``, ``undefined``) or turns ``<`` into another character
    (``cp037``, ``punycode``) would lose the whole database."""
    try:
        text = codecs.getincrementaldecoder(codec)(errors="replace").decode(head[:256])
    except Exception:  # a codec may raise anything on bytes it was not made for
        return False
    return text.lstrip().startswith("<")


class _Game:
    """What has been collected of the ``<game>`` being parsed.

    The state that most games never change stays on the class until a game sets it: a file of
    tiny games starts one per few bytes, and setting fewer attributes makes that cheaper.
    """

    in_move: bool = False
    in_info: bool = False
    move_line: int | None = None
    stopped: bool = False  # a bad token was met: later tokens are ignored
    partial: str | None = None  # a token cut by the end of a text chunk, on line move_line
    info_len: int = 0
    info_truncated: bool = False
    move_elements: int = 0  # games have one <move>: the moves of later ones are still read
    second_move: tuple[int | None, int] | None = None  # where the second <move> starts

    def __init__(self, attrs: dict[str, str], line: int | None, depth: int) -> None:
        self.attrs = attrs
        self.line = line
        self.depth = depth  # nesting depth of the <game> element, to find its end tag
        self.moves: list[Move] = []
        self.problems: list[ParseProblem] = []
        self.notes: list[str] = []
        self.info: list[str] = []


class _Target:
    """Parser target: keeps the lookup tables and turns each ``<game>`` into a ``Record``."""

    def __init__(self, path: str, options: ReadOptions, recoder: _Recoder) -> None:
        self.path = path
        self.options = options
        self.recoder = recoder
        self.expat: Any = None  # set once the parser exists, for line numbers
        self.tables: dict[str, dict[str, dict[str, str]]] = {
            name: {} for name in _TABLE_ELEMENTS.values()
        }
        self.table_overflow: set[str] = set()
        self.tables_seen: set[str] = set()
        self.stack: list[str] = []
        self.root: str | None = None
        self.database: dict[str, str] = {}
        self.database_meta: dict[str, str] = {}  # what every record's metadata starts with
        self.game: _Game | None = None
        # the depth of the outermost <game> element still open that was reported as not closed
        # (0: none): expat holds it open, so what follows is not outside games for ``outer``
        self.unclosed = 0
        self.ready: list[Record] = []
        self.index = 0  # source.index of the next record
        self.emitted = 0  # moves and text (``text_cost``) of the records so far: the budget
        # the tags ("uri}name") of the open elements outside any game, and the namespace
        # declarations in force (depth of the element declaring, prefix, uri): what a parser
        # resumed after a syntax error is given so that the file's closing tags still match
        self.outer: list[str] = []
        self.ns_decls: list[tuple[int, str, str]] = []
        # a parser resumed after a syntax error starts inside the file: what to add to its line
        # numbers (and to its columns on its first line) and byte indexes to get the file's
        self.resumed = False
        self.resumed_at = 0  # the file's byte index where this parser's file text starts
        self.line_offset = 0
        self.col_offset = 0
        self.byte_offset = 0
        # the CDATA section open (expat reads what it holds as text, to its end): the file's
        # byte index, line and column of its "<![CDATA["
        self.cdata_at: int | None = None
        self.cdata_line = 0
        self.cdata_col = 0

    # -- parser callbacks -------------------------------------------------------------------

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        """Start tag: open a game, a table entry or a child of the current game.

        Called by expat itself (see ``read``): a name in a namespace comes as ``uri}name``.
        """
        name = _local(tag) if "}" in tag else tag
        stack = self.stack
        parent = stack[-1] if stack else None
        stack.append(name)
        if len(stack) > self.options.max_depth:
            self._too_deep(name)
        if parent is None:
            self.root = name
            # (a resumed parser's root is a synthetic tag without attributes: keep the file's)
            if name == "database" and not self.resumed:
                self.database = {k: self._clip(v) for k, v in attrib.items()}
                for key in ("version", "date"):
                    if self.database.get(key):
                        self.database_meta[f"database_{key}"] = self.database[key]
            if name != "game":  # a document that is a single <game> is read too
                self.outer.append(tag)
                return
        game = self.game
        if game is not None:
            if name == "move":
                self._move_element(game)
            elif name == "info":
                game.in_info = True
                if game.info:
                    game.info.append("\n")  # several <info> children: one per line
            elif name == "game":  # games never nest: this one's </game> is missing
                self._not_closed(game)
                game = None
            if game is not None:
                return
        if name == "game":
            if self.index >= self.options.max_records:
                raise _Stop(f"{self.options.too_many()}; the rest is not read")
            # (no comprehension for a game without attributes: hostile files hold thousands)
            attrs = {_local(k): self._clip(v) for k, v in attrib.items()} if attrib else {}
            line = self.expat.CurrentLineNumber + self.line_offset  # (_line(), inlined)
            self.game = _Game(attrs, line, len(stack))
            if attrib and any(len(v) > self.options.max_string for v in attrib.values()):
                self.game.notes.append(self._truncated_note())
            return
        if not self.unclosed:  # (expat holds a game not closed open: what follows is in it)
            self.outer.append(tag)
        table = _TABLE_ELEMENTS.get(name)
        if table is not None and parent == table:
            self._add_entry(table, attrib)
        elif name in self.tables:
            self.tables_seen.add(name)  # an empty table is still a table

    def end(self, tag: str) -> None:
        """End tag: finish a game (its record becomes ready) or a game child."""
        if self.stack:
            self.stack.pop()
        game = self.game
        if game is None:
            if len(self.outer) > len(self.stack):
                self.outer.pop()
            if self.unclosed > len(self.stack):
                self.unclosed = 0  # the end tag of the game reported as not closed, at last
            return
        name = _local(tag) if "}" in tag else tag
        if name == "move" and game.in_move:
            self._flush_token(game)
            game.in_move = False
        elif name == "info" and game.in_info:
            game.in_info = False
        elif name == "game" and len(self.stack) < game.depth:
            self.game = None
            record = self._record(game)
            # the <database> attributes and the table entries a game names are copied into its
            # metadata: 900 KB of them before 14,000 <game/> made 12 GB of report.  They count
            # against the file's budget, as the text a variation tree repeats in its lines does
            self.emitted += len(record.moves) + text_cost(record)
            if self.emitted > self.options.move_budget(
                self.byte_offset + self.expat.CurrentByteIndex
            ):
                raise _Stop(
                    f"the games read so far hold {self.emitted} moves and text in all, more "
                    f"than the file's budget ({budget_terms(self.options)}): the text that "
                    "every game repeats (the <database> attributes, the player and tournament "
                    "entries it names) is too long; the rest is not read"
                )
            self.ready.append(record)
            self.index += 1

    def data(self, text: str) -> None:
        """Character data: only the text of ``<move>`` and ``<info>`` is kept."""
        game = self.game
        if game is None:
            return
        if game.in_move:
            self._move_text(game, text)
        elif game.in_info:
            room = self.options.max_string - game.info_len
            if len(text) > room:
                text = text[: max(room, 0)]
                game.info_truncated = True
            if text:
                game.info.append(text)
                game.info_len += len(text)

    def close(self) -> None:
        """End of document (nothing to build: records were handed out as they ended)."""
        return None

    def start_cdata(self) -> None:
        """The start of a CDATA section: where it is, should nothing close it."""
        self.cdata_at = self.byte_offset + self.expat.CurrentByteIndex
        self.cdata_line = self._line() or 0
        self.cdata_col = self._column()

    def end_cdata(self) -> None:
        self.cdata_at = None

    def start_ns(self, prefix: str | None, uri: str | None) -> None:
        """A namespace declaration (before the start tag that makes it)."""
        self.ns_decls.append((len(self.stack), prefix or "", uri or ""))

    def end_ns(self, prefix: str | None) -> None:
        """The end of a namespace declaration's scope (after its element's end tag)."""
        if self.ns_decls:
            self.ns_decls.pop()

    # -- helpers ----------------------------------------------------------------------------

    def take(self) -> list[Record]:
        """The records finished since the last call."""
        out, self.ready = self.ready, []
        return out

    def _line(self) -> int | None:
        line = getattr(self.expat, "CurrentLineNumber", None)
        return line + self.line_offset if isinstance(line, int) else None

    def _column(self) -> int:
        """The column of the parser's position, in the file's line (a resumed parser's first
        line starts with the synthetic start tags)."""
        expat = self.expat
        col: int = expat.CurrentColumnNumber
        return col + self.col_offset if expat.CurrentLineNumber == 1 else col

    def _move_element(self, game: _Game) -> None:
        """A ``<move>`` start tag: its text is read as moves, after those of an earlier one
        (which a problem then says, at record time)."""
        game.move_elements += 1
        if game.move_elements == 2:
            game.second_move = (self._line(), self._column())
        if not game.stopped:
            game.in_move = True
            game.move_line = self._line()

    def _not_closed(self, game: _Game) -> None:
        """A ``<game>`` start tag inside ``game``: games never nest, so ``game`` lacks its end
        tag.  It becomes an unreadable record (what it holds up to here may be the start of the
        next game as much as its own) and the new game is read as any other; expat still holds
        the element open, so ``unclosed`` marks it until its end tag, if any."""
        message = (
            f"{_label(game)} opened at line {game.line} is not closed before the next <game> "
            f"at line {self._line()}, column {self._column()}"
        )
        self.ready.append(_fatal(self.path, message, self.index, game.line))
        self.index += 1
        self.game = None
        if not self.unclosed:
            self.unclosed = game.depth

    def _too_deep(self, name: str) -> NoReturn:
        """A start tag past ``max_depth``: a game open is reported as not closed when this is
        the next game's start tag (games never nest), and the parse stops here (``_TooDeep``)."""
        if name == "game" and self.game is not None:
            self._not_closed(self.game)
        expat = self.expat
        raise _TooDeep(
            self._line(), self._column(), self.byte_offset + expat.CurrentByteIndex, name == "game"
        )

    def open_elements(self) -> list[_Open] | None:
        """The elements open now, outermost first; those outside the game (if one is open) with
        the qualified name and the namespace declarations of their start tag.  ``None`` when
        there are more than ``MAX_PREFIX_DEPTH`` of those elements or declarations."""
        outer = self.outer
        decls = self.ns_decls  # (in document order: their depths never decrease)
        if len(outer) > MAX_PREFIX_DEPTH or (
            len(decls) > MAX_PREFIX_DEPTH and decls[MAX_PREFIX_DEPTH][0] < len(outer)
        ):
            return None
        prefix_of: dict[str, str] = {}  # uri -> the prefix declared last for it
        out: list[_Open] = []
        i = 0
        for depth, tag in enumerate(outer):
            declared = ""
            while i < len(decls) and decls[i][0] == depth:
                _, prefix, uri = decls[i]
                prefix_of[uri] = prefix
                declared += f" xmlns{':' if prefix else ''}{prefix}={_quote(uri)}"
                i += 1
            uri, _, name = tag.rpartition("}")
            prefix = prefix_of.get(uri, "") if uri else ""
            out.append(_Open(name, f"{prefix}:{name}" if prefix else name, declared))
        out += [_Open(name, name, "") for name in self.stack[len(outer) :]]
        return out

    def restart(self, parser: Any, pos: _Pos, prefix: str) -> None:
        """Go on with a fresh parser that starts at ``pos`` of the file, after ``prefix``.

        The tables, the index, the budget and the database's attributes stay; the damaged game
        and the element stack go (the prefix opens the enclosing elements again).
        """
        self.expat = parser.parser
        self.game = None
        self.cdata_at = None
        self.unclosed = 0  # (the prefix holds no game)
        self.stack = []
        self.outer = []
        self.ns_decls = []
        self.resumed = True
        self.resumed_at = pos.byte
        self.line_offset = pos.line - 1  # the prefix holds no line break
        self.col_offset = pos.col - len(prefix)
        self.byte_offset = pos.byte - len(prefix.encode("utf-8"))

    def _truncated_note(self) -> str:
        return f"text longer than {self.options.max_string} characters was truncated"

    def _clip(self, value: str) -> str:
        limit = self.options.max_string
        return value if len(value) <= limit else value[:limit]

    def _add_entry(self, table: str, attrib: dict[str, str]) -> None:
        self.tables_seen.add(table)
        entries = self.tables[table]
        key = attrib.get("id", "").strip()
        if not key:
            return
        if len(entries) >= MAX_TABLE_ENTRIES and key not in entries:
            self.table_overflow.add(table)
            return
        entries[key] = {_local(k): self._clip(v) for k, v in attrib.items()}

    def _move_text(self, game: _Game, text: str) -> None:
        # Hot path (one call per <move> text chunk): split with str methods, not a regex per token.
        if game.stopped:
            return
        if game.partial is not None:
            text = game.partial + text
            game.partial = None
        # A token may be cut by the end of the chunk: keep the tail for the next chunk.
        tail = None
        if text and text[-1] not in _SEPARATORS:
            cut = max(text.rfind(c) for c in _SEPARATORS) + 1
            tail, text = text[cut : cut + MAX_TOKEN], text[:cut]
        line = game.move_line
        moves, points, limit = game.moves, _POINTS, self.options.max_moves
        for i, segment in enumerate(text.split("\n")):
            if i and line is not None:
                line += 1
            for token in segment.replace(",", " ").split():
                point = points.get(token)
                if point is not None and len(moves) < limit:
                    moves.append(Move(point, None, line, None, token))  # the common case
                    continue
                self._token(game, token[:MAX_TOKEN], line)
                if game.stopped:
                    return
        game.move_line = line
        game.partial = tail

    def _flush_token(self, game: _Game) -> None:
        if game.partial is not None:
            token, game.partial = game.partial, None
            self._token(game, token, game.move_line)

    def _token(self, game: _Game, token: str, line: int | None) -> None:
        n = len(game.moves) + 1  # every token so far is a move: a bad one stops the game
        if n > self.options.max_moves:
            game.problems.append(
                ParseProblem(
                    f"{_label(game)}: more than {self.options.max_moves} moves; "
                    f"kept the first {self.options.max_moves}",
                    line=line,
                )
            )
            game.stopped = True  # nothing after the bound is kept
            return
        point = _POINTS.get(token)
        if point is None:
            if token.lower() == "pass":
                game.moves.append(Move(None, line=line, token=token))
                return
            try:
                point = parse_point(token)
            except ValueError:
                game.problems.append(
                    ParseProblem(
                        f"{_label(game)}: move {n}: cannot read {token!r} as a point; "
                        f"kept the {n - 1} move{'' if n == 2 else 's'} before it",
                        line=line,
                    )
                )
                game.stopped = True
                return
            _POINTS[token] = point  # at most 52 letters x 99 rows: the cache stays small
        game.moves.append(Move(point, line=line, token=token))

    def _lookup(self, table: str, key: str, what: str, notes: list[str]) -> dict[str, str] | None:
        """An entry of a lookup table, or ``None`` with a note saying why."""
        entry = self.tables[table].get(key)
        if entry is None:
            if table in self.tables_seen:
                notes.append(f"{what} id {key!r} is not in the file's <{table}> table")
            else:
                notes.append(
                    f"{what} id {key!r} unresolved: no <{table}> table before this game "
                    "(a table after <games> cannot be used while streaming)"
                )
        return entry

    def _place(self, entry: dict[str, str], prefix: str, meta: dict[str, str]) -> None:
        """Country and city names of a player or tournament entry."""
        country = self.tables["countries"].get(entry.get("country", ""))
        if country is not None and country.get("name"):
            meta[f"{prefix}country"] = country["name"]
        city = self.tables["cities"].get(entry.get("city", ""))
        if city is not None and city.get("name"):
            meta[f"{prefix}city"] = city["name"]

    def _record(self, game: _Game) -> Record:
        meta = dict(self.database_meta)
        notes = [*self.recoder.notes, *game.notes]
        if game.attrs:  # (a game without attributes names nothing to look up)
            rule, size, opening_id, events, result = self._attributes(game, meta, notes)
        else:
            rule, size, opening_id, events, result = None, DEFAULT_SIZE, None, [], None
        if game.info:
            meta["info"] = "".join(game.info).strip()
        if game.info_truncated:
            notes.append(self._truncated_note())
        if self.recoder.replaced and any("\ufffd" in v for v in meta.values()):
            notes.append("undecodable bytes were replaced with U+FFFD")
        for table in sorted(self.table_overflow):
            notes.append(f"<{table}> has more than {MAX_TABLE_ENTRIES} entries; the rest ignored")
        if game.second_move is not None:
            line, col = game.second_move
            game.problems.append(
                ParseProblem(
                    f"{_label(game)}: {game.move_elements} <move> elements (a game has one), "
                    f"the second at line {line}, column {col}: their moves are read as one "
                    "list, in order",
                    line=line,
                )
            )
        source = SourceLocation(self.path, self.index, game.line)
        return Record(  # positional (see Record): a third faster than by keyword
            game.moves, source, size, size, result, rule, opening_id, meta, [], events,
            notes, game.problems, NAME,
        )  # fmt: skip

    def _attributes(
        self, game: _Game, meta: dict[str, str], notes: list[str]
    ) -> tuple[str | None, int, str | None, list[OpeningEvent], DeclaredResult | None]:
        """Metadata and notes from a game's attributes (ids resolved through the tables), and
        its rule, board size, opening id, opening events and declared result."""
        attrs = game.attrs
        for key, value in attrs.items():
            if key not in _KNOWN_ATTRIBUTES and value:
                meta.setdefault(key, value)  # unrated, publisher, and whatever else is there
        gid = attrs.get("id", "")
        if gid:
            meta["game_id"] = gid
        for key in ("round", "btime", "wtime"):
            if attrs.get(key):
                meta[key] = attrs[key]

        tournament: dict[str, str] | None = None
        tid = attrs.get("tournament", "").strip()
        if tid:
            meta["tournament_id"] = tid
            tournament = self._lookup("tournaments", tid, "tournament", notes)
        if tournament is not None:
            self._tournament_meta(tournament, meta)

        for color in ("black", "white"):
            pid = attrs.get(color, "").strip()
            if not pid:
                continue
            meta[f"{color}_id"] = pid
            player = self._lookup("players", pid, f"{color} player", notes)
            if player is not None:
                full = " ".join(p for p in (player.get("name"), player.get("surname")) if p)
                if full:
                    meta[color] = full
                native = player.get("native_name") or player.get("nativename")
                if native:
                    meta[f"{color}_native"] = native
                self._place(player, f"{color}_", meta)

        rule, size = self._rule(attrs, tournament, meta, notes, game)
        opening_id = self._opening(attrs.get("opening", "").strip(), meta, notes)
        events = _swap_events(game, attrs.get("swap", ""), meta)
        events += _alt_events(game, attrs.get("alt", ""), meta, notes)
        result = _declared_result(game, attrs.get("bresult"), meta)
        return rule, size, opening_id, events, result

    def _tournament_meta(self, tournament: dict[str, str], meta: dict[str, str]) -> None:
        if tournament.get("name"):
            meta["tournament"] = tournament["name"]
        for key in ("year", "month", "start", "end", "rated", "type"):
            if tournament.get(key):
                meta[key] = tournament[key]
        start, year, month = tournament.get("start", ""), tournament.get("year", ""), ""
        if _SMALL_NUMBER.fullmatch(tournament.get("month", "")):
            month = f"{int(tournament['month']):02d}"
        if _DATE.match(start):
            meta["date"] = start
        elif year.isdigit():
            meta["date"] = f"{year}-{month}" if month else year
        self._place(tournament, "tournament_", meta)

    def _rule(
        self,
        attrs: dict[str, str],
        tournament: dict[str, str] | None,
        meta: dict[str, str],
        notes: list[str],
        game: _Game,
    ) -> tuple[str | None, int]:
        """The ruleset name and board size, from the game's rule or else its tournament's; a
        stated size that no board has is a problem of the game's (the ruleset's size is used)."""
        rid = attrs.get("rule", "").strip()
        if not rid and tournament is not None:
            rid = tournament.get("rule", "").strip()
            if rid:
                meta["rule_from"] = "tournament"
        if not rid:
            return None, DEFAULT_SIZE
        meta["rule_id"] = rid
        entry = self._lookup("rules", rid, "rule", notes)
        if entry is None:
            return None, DEFAULT_SIZE
        size = DEFAULT_SIZE
        stated = None  # the first size stated, when no key states one a board has
        for key in ("size", "board_size", "boardsize", "board"):
            value = entry.get(key, "").strip()
            if _SMALL_NUMBER.fullmatch(value) and MIN_SIZE <= int(value) <= MAX_SIZE:
                size, stated = int(value), None
                break
            if value and stated is None:
                stated = (key, value)
        if stated is not None:
            key, value = stated
            game.problems.append(
                ParseProblem(
                    f"{_label(game)}: rule id {rid!r} states {key} {clip(value)!r}, not a whole "
                    f"number from {MIN_SIZE} to {MAX_SIZE}; the ruleset's size is used",
                    line=game.line,
                )
            )
        raw = entry.get("name", "")
        meta["rule_name"] = raw
        rule = ruleset_name(raw)
        if rule is not None and rule not in shipped_by_lower_name():
            rule = None  # a count no shipped ruleset has (Taraguchi-0, Soosorv 99)
        if rule is None:
            notes.append(f"rule {raw!r} (id {rid}) matches no shipped ruleset; rule left unset")
        return rule, size

    def _opening(self, ref: str, meta: dict[str, str], notes: list[str]) -> str | None:
        if not ref or ref == "0":
            return None
        meta["opening_ref"] = ref
        entry = self.tables["openings"].get(ref)
        if entry is None:
            if re.fullmatch(r"[DdIi]\d{1,2}", ref):
                return ref.upper()  # some exports write the abbreviation itself
            self._lookup("openings", ref, "opening", notes)
            return None
        if entry.get("name"):
            meta["opening_name"] = entry["name"]
        abbr = entry.get("abbr", "").strip()
        return abbr or entry.get("name") or None


def _local(tag: str) -> str:
    """An element or attribute name without its namespace."""
    return tag.rsplit("}", 1)[-1]


def _label(game: _Game) -> str:
    gid = game.attrs.get("id")
    return f"game id={gid}" if gid else "game"


def _declared_result(game: _Game, raw: str | None, meta: dict[str, str]) -> DeclaredResult | None:
    """``bresult`` is black's score: 1 black won, 0 white won, 0.5 a draw; other words are
    read as results (``renju_cli.results``), and words not understood are an info problem."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    meta["bresult"] = text
    winner = read_black_score(text)
    if winner is not None:
        return DeclaredResult(winner, text=text)
    declared = read_result(text)
    if declared is not None and not understood(declared):
        game.problems.append(
            ParseProblem(
                f"{_label(game)}: bresult is no score (1, 0 or 0.5): {not_understood(text)}",
                game.line,
                None,
                False,
                "info",
            )
        )
    return declared


def _swap_events(game: _Game, raw: str, meta: dict[str, str]) -> list[OpeningEvent]:
    """One event per character of ``swap`` (``formats.numbered_swaps``), ``MAX_SWAP_FLAGS`` at
    most (a problem says the cut); the raw text is kept in the metadata."""
    flags = "".join(raw.split())
    if not flags:
        return []
    meta["swap"] = raw
    if len(flags) > MAX_SWAP_FLAGS:
        game.problems.append(
            ParseProblem(
                f"{_label(game)}: swap holds {len(flags)} flags, more than {MAX_SWAP_FLAGS}; "
                f"read the first {MAX_SWAP_FLAGS}",
                line=game.line,
            )
        )
        flags = flags[:MAX_SWAP_FLAGS]
    return numbered_swaps(flags)


def _alt_events(
    game: _Game, raw: str, meta: dict[str, str], notes: list[str]
) -> list[OpeningEvent]:
    """Fifth-move offers from ``alt`` when they are written as points, ``MAX_OFFERS`` at most
    (a problem says the cut); otherwise a note."""
    text = raw.strip()
    if not text:
        return []
    meta["alt"] = raw
    points: list[Point] = []
    for m in _ALT_TOKEN.finditer(text):  # (not split: a megabyte of tokens past the bound)
        if len(points) == MAX_OFFERS:
            game.problems.append(
                ParseProblem(
                    f"{_label(game)}: alt holds more than {MAX_OFFERS} fifth-move offers, "
                    f"more than a board has points; read the first {MAX_OFFERS}",
                    line=game.line,
                )
            )
            break
        token = m.group()
        try:
            points.append(parse_point(token))
        except ValueError:
            notes.append(
                f"alt {text!r} is opaque (the fifth-move offers are not written as points); "
                "kept in metadata['alt']"
            )
            return []
    return [OpeningEvent(kind="offers", after=4, points=points)]


def _load_xml() -> None:
    """Import the XML parser and the names of its errors, once, when the first database is
    read: ``xml.etree``, ``pyexpat`` and ``defusedxml`` take milliseconds that detection, which
    imports every reader (``sniff`` needs none of them), made every other format pay at start-up.

    Ctrl-C, SIGTERM and SIGHUP are held back meanwhile (``batch.signals_held``): one that lands
    in the import of a C extension may come out as an ImportError, which ElementTree's fallback
    to pure Python swallows, and the run would go on (see ``cli.check``)."""
    global ParseError, ErrorString, DefusedXmlException, EntitiesForbidden
    global ExternalReferenceForbidden, DefusedXMLParser, _XML_LOADED
    global _ERROR_AT_NEXT_TAG, _TAG_MISMATCH, _UNCLOSED_TOKEN, _UNCLOSED_CDATA
    if _XML_LOADED:
        return
    from renju_cli.batch import signals_held

    with signals_held():
        from xml.etree.ElementTree import ParseError
        from xml.parsers.expat import ErrorString
        from xml.parsers.expat import errors as expat_errors

        from defusedxml import (  # type: ignore[import-untyped, unused-ignore]
            DefusedXmlException,
            EntitiesForbidden,
            ExternalReferenceForbidden,
        )
        from defusedxml.ElementTree import (  # type: ignore[import-untyped, unused-ignore]
            DefusedXMLParser,
        )
    codes = expat_errors.codes
    _ERROR_AT_NEXT_TAG = frozenset(
        codes[message]
        for message in (
            expat_errors.XML_ERROR_INVALID_TOKEN,
            expat_errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT,
        )
    )
    _TAG_MISMATCH = codes[expat_errors.XML_ERROR_TAG_MISMATCH]
    _UNCLOSED_TOKEN = codes[expat_errors.XML_ERROR_UNCLOSED_TOKEN]
    _UNCLOSED_CDATA = codes[expat_errors.XML_ERROR_UNCLOSED_CDATA_SECTION]
    _XML_LOADED = True


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield one record per ``<game>`` of a RenjuNet database, streaming.

    Never raises on bad content: a refused (entity-declaring) file, a bound reached or the end of
    a broken file gives one unreadable record with the line and the reason, after the games read
    before it; an XML syntax error gives one for the damaged game, and reading resumes at the
    next ``<game`` (see ``_resync``).
    """
    _load_xml()
    recoder = _Recoder(stream, options.encoding)
    target = _Target(path, options, recoder)
    source = _Source(recoder.chunks(), options.max_file)
    parser = _make_parser(target)
    resyncs = 0
    while True:
        end = _feed_next(parser, source, target)
        yield from target.take()
        if isinstance(end, (ParseError, _TooDeep, _Unclosed)):
            allowed = resyncs < options.max_resyncs
            record, parser = _resync(end, parser, source, target, allowed)
            if record is not None:
                resyncs += 1
                yield record
            if parser is None:
                return
        elif end is not None:
            yield from end
            return


def _make_parser(target: _Target) -> Any:
    """A parser that calls ``target`` and refuses what a database may not hold."""
    parser: Any = DefusedXMLParser(target=target, encoding="utf-8")  # bytes come as UTF-8
    expat = target.expat = parser.parser
    # ElementTree's element handlers only turn "uri}name" into "{uri}name" and copy the
    # attribute list into a dict before calling the target: expat calls the target itself, with
    # a dict of attributes, which halves the cost of a small element.  The guards that
    # DefusedXMLParser installed (entities, external references) are other handlers, untouched.
    expat.ordered_attributes = False
    expat.StartElementHandler = target.start
    expat.EndElementHandler = target.end
    # the namespace declarations in force, for the start tags a resumed parser is given
    expat.StartNamespaceDeclHandler = target.start_ns
    expat.EndNamespaceDeclHandler = target.end_ns
    # where a CDATA section starts, to resume after it should nothing close it
    expat.StartCdataSectionHandler = target.start_cdata
    expat.EndCdataSectionHandler = target.end_cdata
    # a DTD may point outside the file (never read: expat does not fetch it, but a file that
    # asks is refused, as one that declares entities is) or give attributes default values,
    # which would change the games without a word
    expat.StartDoctypeDeclHandler = _refuse_external_dtd
    expat.AttlistDeclHandler = _refuse_attribute_defaults
    return parser


def _refuse_external_dtd(
    name: str, sysid: str | None, pubid: str | None, has_internal_subset: bool
) -> None:
    if sysid or pubid:
        raise _Stop(
            f"external DTD {sysid or pubid!r} refused (never fetched; a document type "
            "declaration may only be a name and its own declarations)"
        )


def _refuse_attribute_defaults(
    element: str, attribute: str, kind: str, default: str | None, required: bool
) -> None:
    if default is None:  # #IMPLIED or #REQUIRED: nothing is added to the document
        return
    raise _Stop(
        f"attribute default <!ATTLIST {element} {attribute} ... {default!r}> refused (a DTD "
        "that gives attributes default values would change the games)"
    )


def _feed_next(
    parser: Any, source: _Source, target: _Target
) -> list[Record] | ParseError | _TooDeep | _Unclosed | None:
    """Feed the next chunk, or close at the end.

    ``None`` while the parse goes on; the ``ParseError`` of an XML syntax error, the
    ``_TooDeep`` of elements nested too deep or the ``_Unclosed`` of a section that nothing
    closes (the caller resumes after it); at the end of the parse, the records that close it
    (none for a clean database, one unreadable record for a refused one or when a bound is
    reached).
    """
    try:
        chunk = source.next()
        if chunk is not None:
            parser.feed(chunk)
            # what the source keeps: from the token the parser is in (a comment, an instruction,
            # a tag: all of it is read before anything is reported) or the CDATA section open,
            # to resume after its start should nothing close it
            at = target.cdata_at
            if at is None:
                index = target.expat.CurrentByteIndex
                at = target.byte_offset + index if index >= 0 else None
            source.hold = at
            if at is not None and target.cdata_at is None and source.end() - at > MAX_MARKUP_BYTES:
                from_line, from_col = source.position(at)
                raise _Stop(
                    f"a tag, comment or processing instruction longer than {MAX_MARKUP_BYTES} "
                    f"bytes, from line {from_line}, column {from_col}: the rest of the file is "
                    "not read"
                )
            if at is not None and source.ends is not None and source.never_closed(at):
                return _Unclosed(at, target.cdata_at is not None)
            return None
        parser.close()
        if target.index == 0 and target.root not in (None, "database"):
            message = f"XML root element is <{target.root}>, not <database>, and has no <game>"
            return [_fatal(target.path, message, 0, 1)]
        return []
    except (ParseError, _TooDeep) as exc:
        return exc
    except EntitiesForbidden as exc:
        message = f"XML entity declaration {exc.name!r} refused (entities are never expanded)"
    except ExternalReferenceForbidden as exc:
        message = f"external XML reference {exc.sysid!r} refused (never fetched)"
    except DefusedXmlException as exc:
        message = f"unsafe XML refused: {exc}"
    except _Stop as exc:
        message = exc.message
    except OSError as exc:
        message = f"cannot read the file: {exc}"
    except Exception as exc:  # a reader must not raise on content: report whatever went wrong
        message = f"cannot read the database: {type(exc).__name__}: {exc}"
    line = target._line()
    if target.game is not None:
        message += f" ({_dropped(target.game)})"
    return [_fatal(target.path, message, target.index, line)]


def _dropped(game: _Game) -> str:
    return f"the {_label(game)} that starts at line {game.line} is incomplete and dropped"


def _resync(
    error: ParseError | _TooDeep | _Unclosed,
    parser: Any,
    source: _Source,
    target: _Target,
    allowed: bool,
) -> tuple[Record | None, Any]:
    """The unreadable record for an XML syntax error, elements nested too deep or a section
    that nothing closes, and the parser that goes on after it (``None`` when reading stops
    there).

    Reading resumes at the first ``<game`` start tag after the error, with a fresh parser fed
    first the start tags of the elements that enclose that game: those open outside the damaged
    game (or, before any game, those open at the error), followed through the tags of the text
    skipped.  Its line numbers and byte indexes are shifted to be the file's.  No record when
    nothing is lost (``_resume_outside_games``).  A comment, CDATA section or processing
    instruction that nothing closes is read as text from its start on (the first game after its
    start is what a reader of such a file wants), and the message says so.
    """
    code: int | None = None
    error_at: int | None
    unclosed: str | None = None  # "a comment opened at line 5 is never closed"
    if isinstance(error, _TooDeep):
        line, col, error_at = error.line, error.col, error.at
        message = (
            f"elements nested deeper than {target.options.max_depth}: line {line}, column {col}"
        )
    elif isinstance(error, _Unclosed) or (
        getattr(error, "code", None) == _UNCLOSED_CDATA and target.cdata_at is not None
    ):
        # the error expat gives (or would give) at the end of the file, where the section starts
        if isinstance(error, _Unclosed):
            code, at = error.code, error.at
        else:
            code, at = _UNCLOSED_CDATA, target.cdata_at or 0
        error_at = at
        if code == _UNCLOSED_CDATA:
            line, col = target.cdata_line, target.cdata_col
            section: str | None = "a CDATA section"
        else:
            line, col = source.position(at)
            section = source.section_at(at)
        message = f"XML syntax error: {ErrorString(code)}: line {line}, column {col}"
        if section is not None:
            unclosed = f"{section} opened at line {line} is never closed"
    else:
        code = getattr(error, "code", None)
        line, col = error.position
        what = ErrorString(code) if isinstance(code, int) else str(error).rsplit(": line", 1)[0]
        where = target.expat.ErrorByteIndex
        if line == 1:
            col += target.col_offset
        line += target.line_offset
        message = f"XML syntax error: {what}: line {line}, column {col}"
        error_at = where + target.byte_offset if where >= 0 else None
        if code == _UNCLOSED_TOKEN and error_at is not None:
            section = source.section_at(error_at)  # (else a tag cut by the end of the file)
            if section is not None:
                unclosed = f"{section} opened at line {line} is never closed"
    head = message
    _discard(parser, error)
    resumed = _resume_outside_games(error, code, error_at, source, target)
    if resumed is not None:
        return None, resumed
    if target.game is not None:
        message += f" ({_dropped(target.game)})"
    index = target.index
    if index >= target.options.max_records:
        # a record more would pass the bound: a damaged game is one game too many, and the
        # bound ends the file with the record a game's start tag gives (``_Target.start``);
        # damage outside a game is said, and the file ends there too (what follows is not
        # looked at: it may hold no game at all)
        limit = target.options.max_records
        if target.game is not None or (error_at is not None and source.in_game_tag(error_at)):
            message = f"{target.options.too_many()}; the rest is not read"
            start = target.game.line if target.game is not None else line
            return _fatal(target.path, message, index, start), None
        message += f"; {limit} records were read, the limit: the rest is not read"
        return _fatal(target.path, message, index, line), None
    target.index += 1  # the damaged game is a record: later games keep their numbers
    if not allowed:
        what = "XML syntax errors"
        if isinstance(error, _TooDeep):
            what += " or elements nested too deep"
        message += f"; {target.options.too_many_resyncs(what)}: the rest of the file is not read"
        return _fatal(target.path, message, index, line), None
    if isinstance(error, _TooDeep):
        # after the start tag (a game's too: a game nested that deep is not read), as text
        after, error_at = (error_at or 0) + 1, None
    elif error_at is None:
        after = source.end()
    else:
        # an invalid token or junk after the root may be the "<" of an intact <game> (after an
        # unfinished tag, or a second root): resume there; any other error may lie in the
        # start tag of the game it points at (an unbound prefix points at its "<"); a section
        # never closed is text after its "<"
        after = error_at + (0 if code in _ERROR_AT_NEXT_TAG else 1)
    after = max(after, target.resumed_at + 1)  # never the game this parser started at
    open_elements = target.open_elements()
    if open_elements is None:
        message += (
            f"; more than {MAX_PREFIX_DEPTH} elements or namespace declarations enclose it: "
            "the rest of the file is not read"
        )
        return _fatal(target.path, message, index, line), None
    found = source.skip_to_game(
        error_at, after, open_elements, min(MAX_PREFIX_DEPTH, target.options.max_depth)
    )
    unclosed = unclosed or found.unclosed
    if found.opened is not None:
        # an error in a comment that nothing closes: expat's is at the first "--" in it if it
        # read that far, else at its start at the end of the file; said as the latter
        line, col = found.opened
        what = ErrorString(_UNCLOSED_TOKEN)
        message = f"XML syntax error: {what}: line {line}, column {col}{message[len(head) :]}"
    if found.too_long is not None:
        message += f"; {found.too_long}: the rest of the file is not read"
        return _fatal(target.path, message, index, line), None
    if found.lost:  # (the parser held a token longer than the source keeps)
        if unclosed is not None:
            message += f"; {unclosed}"
        message += (
            f"; the text after it was longer than {source.max_hold} bytes, more than is held "
            "(the whole-file limit), and the games in it are lost"
        )
    elif unclosed is not None:
        message += f"; {unclosed}, so it was read as text"
    if found.pos is None:
        message += "; no later <game> was found, so reading stops there"
        return _fatal(target.path, message, index, line), None
    pos, enclosing = found.pos, found.enclosing
    prefix = "".join(f"<{e.qname}{e.declared}>" for e in enclosing)
    if len(prefix) > MAX_PREFIX_BYTES:
        message += (
            f"; the start tags of the elements that enclose the next game are longer than "
            f"{MAX_PREFIX_BYTES} characters: the rest of the file is not read"
        )
        return _fatal(target.path, message, index, line), None
    message += f"; reading resumed at line {pos.line}"
    parser = _make_parser(target)
    target.restart(parser, pos, prefix)
    source.prefix = prefix.encode("utf-8")
    return _fatal(target.path, message, index, line), parser


def _resume_outside_games(
    error: ParseError | _TooDeep | _Unclosed,
    code: int | None,
    error_at: int | None,
    source: _Source,
    target: _Target,
) -> Any:
    """A parser that goes on where the parse stopped, outside any game, when that loses
    nothing (else ``None``): a game's start tag nested too deep (games never nest, so what
    encloses it is elements of games reported already, or damage outside any game) is read
    there; an end tag that a game reported as not closed leaves unmatched (``</games>``) is read
    there, the game's element closed.  The fresh parser is given the elements outside games."""
    if target.game is not None or error_at is None:
        return None
    if isinstance(error, _TooDeep):
        if not error.game or error_at <= target.resumed_at:  # (never where this parser began)
            return None
        at = error_at
    elif code == _TAG_MISMATCH and target.unclosed:
        end_tag = source.end_tag_at(error_at)
        if end_tag is None:
            return None
        at, qname = end_tag
        if qname.rsplit(b":", 1)[-1].decode("utf-8", "replace") not in map(_local, target.outer):
            return None  # not an end tag of the elements around the game: more damage
    else:
        return None
    enclosing = target.open_elements()
    if enclosing is None:
        return None
    names = [e.name for e in enclosing]
    if "game" in names:
        del enclosing[names.index("game") :]
    prefix = "".join(f"<{e.qname}{e.declared}>" for e in enclosing)
    if len(prefix) > MAX_PREFIX_BYTES:
        return None
    pos = source.resume_at(at)
    parser = _make_parser(target)
    target.restart(parser, pos, prefix)
    source.prefix = prefix.encode("utf-8")
    return parser


def _discard(parser: Any, error: BaseException) -> None:
    """Break the reference cycles of a parser that failed, as ``XMLParser.close`` does for one
    that ends: with the GC thresholds of the CLI, a thousand dead parsers (and their buffers)
    would otherwise wait for a collection (100 MB for a file of long enclosing tags)."""
    for name in ("parser", "_parser", "target", "_target"):
        if hasattr(parser, name):
            delattr(parser, name)
    error.__traceback__ = None  # (its frames hold the parser, in a cycle of their own)
    error.__context__ = None


class _Pos(NamedTuple):
    """A position in the cleaned text: byte index, line (from 1) and column (in characters, from
    0), as expat counts them, and whether the byte before is a CR (a CR LF cut in two is one
    line break)."""

    byte: int
    line: int
    col: int
    cr: bool


_START = _Pos(0, 1, 0, False)


def _advance(pos: _Pos, data: bytes | bytearray) -> _Pos:
    """The position after ``data``, which starts at ``pos``."""
    if not data:
        return pos
    breaks = data.count(b"\n")
    if b"\r" in data:  # expat counts CR LF, CR and LF alike
        breaks += data.count(b"\r") - data.count(b"\r\n")
    if pos.cr and data[0] == 0x0A:
        breaks -= 1
    last = max(data.rfind(b"\n"), data.rfind(b"\r"))
    col = pos.col + _chars(data) if last < 0 else _chars(data[last + 1 :])
    return _Pos(pos.byte + len(data), pos.line + breaks, col, data[-1] == 0x0D)


def _chars(data: bytes | bytearray) -> int:
    """Characters in UTF-8 ``data`` (a character cut at either end counts where it starts)."""
    return len(data.translate(None, _CONTINUATION_BYTES))


class _Open(NamedTuple):
    """An open element: its local name, its name as written and the namespace declarations of
    its start tag (text ready to put in a start tag: no line break)."""

    name: str
    qname: str
    declared: str


class _Skip(NamedTuple):
    """What ``_Source.skip_to_game`` found: where the next ``<game`` start tag is and the
    elements that enclose it (``pos`` ``None`` when there is none), and what a message says of
    the text skipped."""

    pos: _Pos | None
    enclosing: list[_Open]
    #: the first section never closed that was read as text ("a comment opened at line 5 is
    #: never closed")
    unclosed: str | None = None
    #: why the text after a section that may not be closed could not be read as text: then
    #: nothing is found
    too_long: str | None = None
    #: the text from where the skip was to start was not kept: what it held is lost
    lost: bool = False
    #: the line and column of the start of the comment the error is in when nothing closes it:
    #: the error said is that (expat's, at the first "--" in it, depends on how far it was read)
    opened: tuple[int, int] | None = None


# What the text skipped after a syntax error is in, at a point (``_Source.skip_to_game``).
_TEXT, _TAG, _VALUE_IN, _SECTION = range(4)


class _Source:
    """The cleaned chunks of the file, for the parser; keeps the latest ones (at least
    ``KEEP_BYTES``, and all from the start of the token the parser is in, ``max_hold`` bytes at
    most) and where they start, to find where to resume after a syntax error."""

    def __init__(self, chunks: Iterator[bytes], max_hold: int) -> None:
        self.chunks = chunks
        self.max_hold = max_hold
        self.kept: deque[bytes] = deque()
        self.kept_bytes = 0
        self.kept_pos = _START  # where kept[0] starts in the file
        self.prefix: bytes | None = None  # start tags for a resumed parser, fed first
        self.queue: deque[bytes] = deque()  # the file from where reading resumes, to feed
        self.eof = False  # the last chunk has been read
        # once the end of the file is read: the file byte index where each section end
        # (-->, ]]>, ?>) last starts (-1: none), for the text from where it was held on
        self.ends: dict[bytes, int] | None = None
        # the file byte index from which what is kept is kept (the start of the token the
        # parser is in), or None
        self.hold: int | None = None
        # the hold when the last piece was given, and how many pieces the next one joins
        self.held_at: int | None = None
        self.pieces = 1

    def _pull(self) -> bytes | None:
        """The next piece of the file, ``None`` at its end."""
        if self.queue:
            return self.queue.popleft()
        if self.eof:
            return None
        chunk = next(self.chunks, None)
        if chunk is None:
            self.eof = True
        return chunk

    def _more(self) -> bool:
        """Whether more of the file may come."""
        return bool(self.queue) or not self.eof

    def _push_front(self, data: bytes) -> None:
        """Give ``data`` back, to be read again first (in pieces fed one at a time)."""
        step = FEED_BYTES
        self.queue.extendleft(reversed([data[k : k + step] for k in range(0, len(data), step)]))

    def _know_ends(self, data: bytes | bytearray, base: int) -> dict[bytes, int]:
        """``ends``, from the rest of the file (``data``, from file byte ``base``)."""
        ends = {}
        for end, _ in _SECTIONS.values():
            k = data.rfind(end)
            ends[end] = base + k if k >= 0 else -1
        self.ends = ends
        return ends

    def next(self) -> bytes | None:
        """The next piece to feed, ``None`` at the end of the file."""
        if self.prefix is not None:
            prefix, self.prefix = self.prefix, None
            return prefix
        chunk = self._pull()
        if chunk is None:
            if self.ends is None:
                self._know_ends(b"".join(self.kept), self.kept_pos.byte)
            return None
        if self.hold is not None and self.hold == self.held_at:
            # still in the token of the last feed: give the parser twice as much at once
            self.pieces = min(self.pieces * 2, MAX_FEED_BYTES // FEED_BYTES)
            parts = [chunk]
            while len(parts) < self.pieces and (more := self._pull()) is not None:
                parts.append(more)
            chunk = b"".join(parts)
        else:
            self.pieces = 1
        self.held_at = self.hold
        kept = self.kept
        kept.append(chunk)
        self.kept_bytes += len(chunk)
        hold = self.hold
        if hold is not None and self.end() - hold > self.max_hold:
            self.hold = hold = None  # (a token that long is the parser's to hold)
        while self.kept_bytes - len(kept[0]) >= KEEP_BYTES and (
            hold is None or self.kept_pos.byte + len(kept[0]) <= hold
        ):
            old = kept.popleft()
            self.kept_bytes -= len(old)
            self.kept_pos = _advance(self.kept_pos, old)
        return chunk

    def end(self) -> int:
        """The file byte index after the last byte fed."""
        return self.kept_pos.byte + self.kept_bytes

    def _peek(self, at: int, n: int) -> bytes:
        """The ``n`` bytes kept from file byte ``at`` on (fewer at the end of what is kept)."""
        i = at - self.kept_pos.byte
        if i < 0:
            return b""
        out = b""
        for chunk in self.kept:
            if i < len(chunk):
                out += chunk[i : i + n - len(out)]
                if len(out) == n:
                    break
                i = 0
            else:
                i -= len(chunk)
        return out

    def section_at(self, at: int) -> str | None:
        """What a message calls the section that starts at file byte ``at``, if one does."""
        m = _SECTION_START.match(self._peek(at, 9))
        return _SECTIONS[m.group(1)][1] if m is not None else None

    def never_closed(self, at: int) -> bool:
        """Whether a section starts at file byte ``at``, nothing closes it (``ends`` known), and
        the parser has been given enough of it to find no error in it but its end (an
        instruction's target is whole: what follows is text; a comment's "--" is said as its
        end, see ``_Skip.opened``)."""
        head = self._peek(at, 256)
        m = _SECTION_START.match(head)
        if m is None or self.ends is None:
            return False
        if m.group(1) == b"?" and _PI_TARGET.match(head) is None:
            return False
        return self.ends[_SECTIONS[m.group(1)][0]] < at + m.end()

    def position(self, at: int) -> tuple[int, int]:
        """The line and column of file byte ``at``, in the text kept."""
        data = b"".join(self.kept)
        pos = _advance(self.kept_pos, data[: max(at - self.kept_pos.byte, 0)])
        return pos.line, pos.col

    def in_game_tag(self, at: int) -> bool:
        """Whether byte ``at`` of the file (an error's) lies in a ``<game`` start tag, as far as
        the text kept tells."""
        data = b"".join(self.kept)
        i = at - self.kept_pos.byte
        if not 0 <= i <= len(data):
            return False
        gt = data.rfind(b">", 0, i)
        # the tag the error is in starts at the last "<" (or the one before, when the error
        # is a "<" inside the tag's own values)
        return any(
            lt > gt and _GAME_TAG_AT.match(data, lt) is not None
            for lt in (data.rfind(b"<", 0, i + 1), data.rfind(b"<", 0, i))
        )

    def end_tag_at(self, at: int) -> tuple[int, bytes] | None:
        """The end tag that byte ``at`` of the file (a mismatched tag error's, at its name) is
        in: the file byte index of its ``<`` and its qualified name, as far as the text kept
        tells."""
        data = b"".join(self.kept)
        i = at - self.kept_pos.byte
        if not 0 <= i <= len(data):
            return None
        lt = data.rfind(b"<", 0, i)
        m = _END_TAG_AT.match(data, lt) if lt >= 0 else None
        return (self.kept_pos.byte + lt, m.group(1)) if m is not None else None

    def resume_at(self, at: int) -> _Pos:
        """Go on from byte ``at`` of the file (in the text kept): where it is."""
        data = b"".join(self.kept)
        i = at - self.kept_pos.byte
        pos = _advance(self.kept_pos, data[:i])
        self.kept.clear()
        self.kept_bytes = 0
        self.kept_pos = pos
        self.hold = None
        self._push_front(data[i:])
        return pos

    def skip_to_game(
        self, error: int | None, after: int, enclosing: list[_Open], depth: int
    ) -> _Skip:
        """Where the first ``<game`` start tag at or after byte ``after`` of the file is (from the
        start of what is kept when ``after`` lies before it), and the elements that enclose it.

        The text skipped is read as text, tags, their attribute values (see ``_VALUE``) and
        sections (comments, CDATA sections, processing instructions): a ``<game`` in a value or
        in a section is not one, nor is what a value or a section holds a tag.  Reading starts
        in the start tag the error is in, or in the comment (see ``_resume_state``).  A section
        is skipped to its end; when nothing closes it, it is read as text from its start on (the
        section cannot hold the rest of the file), so what follows it is held up to
        ``max_hold`` bytes, until its end is found or the end of the file tells: past that, the
        section is skipped as one that is closed later, and nothing is found if it is not.
        Once the end of the file has been read, where the sections end is known (``ends``),
        and a section that nothing closes is text at once.

        ``enclosing`` (the elements open at the error, at byte ``error``) follows the tags of
        the text skipped: a start tag opens an element, an end tag closes the elements up to
        the one of its name (none when no open element has it); a damaged tag (a "<" in it, or
        a value left open on a line cut short) does not.  What is kept is then the text from
        that ``<game``.
        """
        data = b"".join(self.kept)
        base = self.kept_pos.byte
        offset = min(max(after - base, 0), len(data))
        lost = after < base
        state, tag_at, quote, nl, lt = _TEXT, -1, b"", False, False
        # the section: its end, where it starts (held from there: -1 when not), where it is
        # read as text from should nothing close it, what it is, its line (0: not known yet)
        end, sec_at, sec_text, sec_what, sec_line = b"", -1, -1, "", 0
        opened_at: _Pos | None = None  # where the comment the error is in starts
        start = offset
        if error is not None and 0 <= error - base <= len(data):
            r = _resume_state(data, error - base, offset)
            state, start, tag_at, quote, nl, lt = r.state, r.at, r.tag_at, r.quote, r.nl, r.lt
            if state == _SECTION:  # a comment: read as text after its start should it not end
                end, sec_what = b"-->", "a comment"
                sec_at, sec_text = r.opened, r.opened + len(b"<!--")
                opened_at = _advance(self.kept_pos, data[: r.opened])
                sec_line = opened_at.line
        first = min(k for k in (start, tag_at, sec_at) if k >= 0)
        pos = _advance(self.kept_pos, data[:first])
        buf = bytearray(data[first:])  # (bytearray: appended to and cut at its start in place)
        del data
        i = start - first
        if tag_at >= 0:
            tag_at -= first
        if sec_at >= 0:
            sec_at -= first
            sec_text -= first
        stack = list(enclosing)
        counts: dict[str, int] = {}
        for o in stack:
            counts[o.name] = counts.get(o.name, 0) + 1
        ends = self.ends
        unclosed: str | None = None
        too_long: str | None = None
        opened: tuple[int, int] | None = None
        if opened_at is not None and ends is not None and ends[end] < pos.byte + i:
            unclosed = f"{sec_what} opened at line {sec_line} is never closed"
            opened = opened_at.line, opened_at.col
            state, sec_at, i = _TEXT, -1, sec_text
        while True:
            cut = -1  # where the text to keep for the next chunk starts: -1 while going on
            if state == _TEXT:
                run = _TEXT_RUN.match(buf, i)  # (text and whole tags: followed at once)
                e = run.end() if run is not None else i
                if e > i:
                    if b"<" in buf[i:e]:
                        _follow_tags(stack, counts, buf[i:e], depth)
                    i = e
                if e == len(buf):
                    cut = e
                elif (m := _AT_LT.match(buf, e)) is None:
                    if self._more() and len(buf) - e <= _MAX_CARRY and _CUT.match(buf, e):
                        cut = e  # what may be cut in two (i is e)
                    else:
                        i = e + 1  # a "<" that starts nothing
                elif m.group(1) is not None:
                    break
                elif m.group(2) is not None:
                    end, sec_what = _SECTIONS[m.group(2)]
                    i = m.end()
                    if ends is None or ends[end] >= pos.byte + i:
                        state, sec_at, sec_text, sec_line = _SECTION, e, i, 0
                    elif unclosed is None:  # nothing closes it: its start is text
                        line = _advance(pos, buf[:e]).line
                        unclosed = f"{sec_what} opened at line {line} is never closed"
                else:
                    state, tag_at, i = _TAG, e, m.end()  # a tag cut by the end, or damaged
            elif state == _TAG:
                m = (_TAG_STOP if tag_at >= 0 else _DAMAGED_TAG_STOP).search(buf, i)
                if m is None:
                    i = cut = len(buf)
                elif buf[m.start()] == 0x3E:  # ">"
                    if tag_at >= 0:
                        _follow_tags(stack, counts, buf[tag_at : m.end()], depth, whole=True)
                    state, tag_at, i = _TEXT, -1, m.end()
                elif buf[m.start()] == 0x3C:  # "<": a damaged tag
                    k = m.start()
                    if _GAME_START_AT.match(buf, k) is not None:
                        state, tag_at, i = _TEXT, -1, k  # an intact game after it
                    elif self._more() and len(buf) - k <= _MAX_CARRY and _CUT.match(buf, k):
                        i = cut = k  # (a "<game" cut in two)
                    else:
                        tag_at, i = -1, k + 1  # part of the tag, which is not followed
                elif m.group(1) is None:
                    i = cut = m.start()  # (its quote may come next)
                else:
                    state, quote, nl, lt, i = _VALUE_IN, m.group(1), False, False, m.end()
            elif state == _VALUE_IN:
                if not (nl or lt) and (m := _VALUE_REST[quote].match(buf, i)) is not None:
                    i = m.end()
                    c = buf[i - 1]
                    if c == quote[0]:
                        state = _TAG
                    else:  # a value left open: text again after the line break, or at the "<"
                        state, tag_at, i = _TEXT, -1, i - (c == 0x3C)
                    continue
                m = _VALUE_STOP[quote].search(buf, i)
                if m is None:
                    i = cut = len(buf)
                else:
                    c = buf[m.start()]
                    if c == quote[0]:
                        state, i = _TAG, m.end()
                    elif c == 0x0A:  # a line break: a value left open when a "<" came before
                        state, i, nl = (_TEXT, m.end(), nl) if lt else (state, m.end(), True)
                    elif nl:  # a "<" after a line break: text again
                        state, i = _TEXT, m.start()
                    else:
                        lt, i = True, m.end()
                    if state == _TEXT:
                        tag_at = -1
            else:  # _SECTION
                k = buf.find(end, i)
                if k >= 0:
                    state, sec_at, i, too_long, opened_at = _TEXT, -1, k + len(end), None, None
                else:
                    i = max(i, len(buf) - len(end) + 1)  # (its end may be cut)
                    cut = i
            if cut < 0:
                continue
            # the end of what is read: keep what is needed, read more
            if tag_at >= 0:
                if cut - tag_at <= _MAX_CARRY:
                    cut = tag_at  # the tag, to follow it once it ends
                else:
                    tag_at = -1
            if sec_at >= 0:
                cut = min(cut, sec_at)  # what follows the section, held should nothing close it
            if cut:
                pos = _advance(pos, buf[:cut])
                del buf[:cut]
                i -= cut
                if tag_at >= 0:
                    tag_at -= cut
                if sec_at >= 0:
                    sec_at -= cut
                    sec_text -= cut
            chunk = self._pull()
            if chunk is not None:
                buf += chunk
                if sec_at >= 0 and len(buf) - sec_at > self.max_hold:
                    sec_line = sec_line or _advance(pos, buf[:sec_at]).line
                    too_long = (
                        f"{sec_what} opened at line {sec_line} is never closed, and more than "
                        f"{self.max_hold} bytes follow it, more than are held to read them as "
                        "text (the whole-file limit)"
                    )
                    sec_at = -1  # skipped to its end as any section, should it have one
                continue
            if ends is None:
                ends = self._know_ends(buf, pos.byte)
            if state == _SECTION and sec_at >= 0:  # nothing closes it: text from its start on
                if unclosed is None:
                    if opened_at is not None:  # (the comment the error is in)
                        opened = opened_at.line, opened_at.col
                    sec_line = sec_line or _advance(pos, buf[:sec_at]).line
                    unclosed = f"{sec_what} opened at line {sec_line} is never closed"
                state, sec_at, i = _TEXT, -1, sec_text
                continue
            return _Skip(None, stack, unclosed, too_long, lost, opened)
        pos = _advance(pos, buf[:i])
        for n, o in enumerate(stack):  # games do not nest: the game found is outside any other
            if o.name == "game":
                del stack[n:]
                break
        self.kept.clear()
        self.kept_bytes = 0
        self.kept_pos = pos
        self.hold = None
        self._push_front(bytes(buf[i:]))
        return _Skip(pos, stack, unclosed, None, lost, opened)


class _Resume(NamedTuple):
    """Where the text skipped after an error is read from, and what it is in there (see
    ``skip_to_game``)."""

    at: int
    state: int
    tag_at: int = -1  # the "<" of the start tag the error is in, to follow it if it ends
    quote: bytes = b""  # the quote of the value the error is in
    nl: bool = False  # a line break, a "<" in that value so far
    lt: bool = False
    opened: int = -1  # the "<!--" of the comment the error is in


def _resume_state(data: bytes, at: int, start: int) -> _Resume:
    """Where in ``data`` to read the text skipped after the error at byte ``at`` (``start``
    unless the error lies inside a comment), and what that place is in.

    The error lies inside a comment when it comes right after a ``--`` (the only error a comment
    can hold) and a ``<!--`` before it is not closed before it: the scan starts at that ``--``,
    so it resumes after the comment's end (``--->`` included).  It lies in a start tag when it
    is at its ``<`` (the scan starts after it) or the last ``<`` before it comes after the last
    ``>`` (that tag, when it ends, is followed as any tag); in one of its attribute values (a quote
    after an ``=``: a quote elsewhere is damage, no value) when, from that ``<``, a value is
    still open where the scan starts: a ``<game`` there is text of the damaged tag, not a game,
    up to the quote that closes the value (see ``_VALUE``); after it, the rest of the tag is read
    as that of any tag, its values skipped.  A value open with a line break and a ``<`` in it is
    a line cut short (``note="abc`` and the next game on the next line): text.
    """
    opened = data.rfind(b"<!--", 0, at - 2)  # (not the one whose "--" is the error)
    if opened >= 0 and data[at - 2 : at] == b"--" and data.find(b"-->", opened + 4, at) < 0:
        return _Resume(at - 2, _SECTION, opened=opened)
    if start == at + 1 and (m := _TAG_START.match(data, at)) is not None and b":" not in m[2]:
        # at the "<" of a start tag (an unbound prefix in its attributes): followed once it ends
        # (not one whose own prefix may be unbound: the start tags a resumed parser is given
        # would hold it)
        return _Resume(start, _TAG, at)
    lt = data.rfind(b"<", 0, at)
    if lt < 0 or not _tag_open_at(data, lt, at):
        return _Resume(start, _TEXT)
    tag_at = lt if _TAG_START.match(data, lt) is not None else -1
    i = lt + 1
    while True:  # the values of the tag, up to the start of the scan
        m = _VALUE_START.search(data, i, start)
        if m is None:
            return _Resume(start, _TAG, tag_at)
        close = data.find(m.group(1), m.end(), start)
        if close < 0:
            value = data[m.end() : start]
            nl, lt_in = b"\n" in value, b"<" in value
            if nl and lt_in:
                # a value still open on a later line: the line was cut (a truncated or
                # hand-edited file), and the "<" the error is at starts what follows
                return _Resume(start, _TEXT)
            return _Resume(start, _VALUE_IN, tag_at, m.group(1), nl, lt_in)
        i = close + 1


def _tag_open_at(data: bytes, lt: int, at: int) -> bool:
    """Whether the tag whose ``<`` is at ``lt`` is still open at byte ``at``: no ``>`` outside
    its quoted values between them (a ``>`` in a value ends nothing: ``note="x>y <game ...>"``
    took the ``<game`` in the value for a game, a record invented)."""
    i = lt + 1
    while True:
        gt = data.find(b">", i, at)
        m = _VALUE_START.search(data, i, at)
        if m is None or 0 <= gt < m.start():
            return gt < 0
        close = data.find(m.group(1), m.end(), at)
        if close < 0:
            return True  # in a value still open at the error
        i = close + 1


def _follow_tags(
    stack: list[_Open],
    counts: dict[str, int],
    text: bytes | bytearray,
    depth: int,
    whole: bool = False,
) -> None:
    """Open and close the elements of ``stack`` as the whole tags in ``text`` say (``whole``:
    ``text`` is one tag, whose values may hold what ``_VALUE`` does not take)."""
    if whole:
        m = _TAG_START.match(text)
        if m is not None:
            _follow_tag(stack, counts, m.group(1), m.group(2), text[m.end() : -1], depth)
        return
    for m in _WHOLE_TAG.finditer(text):
        _follow_tag(stack, counts, m.group(1), m.group(2), m.group(3), depth)


def _follow_tag(
    stack: list[_Open],
    counts: dict[str, int],
    slash: bytes | bytearray,
    raw: bytes | bytearray,
    rest: bytes | bytearray,
    depth: int,
) -> None:
    """Open or close the elements of ``stack`` as a tag says: ``slash`` for an end tag, its name
    ``raw`` and what follows the name ``rest``."""
    if not _QNAME.fullmatch(raw):
        return
    qname = raw.decode("utf-8", "replace")
    name = qname.rsplit(":", 1)[-1]
    if slash:  # an end tag
        if counts.get(name):
            while stack:
                e = stack.pop()
                counts[e.name] -= 1
                if e.name == name:
                    break
    elif not rest.endswith(b"/") and len(stack) < depth:
        declared = "".join(
            f" xmlns{':' if p else ''}{(p or b'').decode('utf-8', 'replace')}"
            f"={_quote((v1 or v2 or b'').decode('utf-8', 'replace'))}"
            for p, v1, v2 in _XMLNS_ATTRIBUTE.findall(rest)
        )
        stack.append(_Open(name, qname, declared))
        counts[name] = counts.get(name, 0) + 1


def _quote(value: str) -> str:
    """An attribute value, quoted, on one line."""
    for raw, ref in (("&", "&amp;"), ("<", "&lt;"), ('"', "&quot;"), ("\n", "&#10;"),
                     ("\r", "&#13;"), ("\t", "&#9;")):  # fmt: skip
        value = value.replace(raw, ref)
    return f'"{value}"'


def _fatal(path: str, message: str, index: int, line: int | None) -> Record:
    """An unreadable record that still says which reader gave up."""
    record = unreadable(path, message, index=index, line=line)
    record.format = NAME
    return record
