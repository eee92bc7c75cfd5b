"""The text skipped after a syntax error, read up to the next ``<game`` start tag.

The text is read as text, tags, their attribute values (see ``_VALUE``) and sections (comments,
CDATA sections, processing instructions): a ``<game`` in a value or in a section is not one, nor
is what a value or a section holds a tag.  The tags read open and close the elements that will
enclose the game found, which a resumed parser is given first.
"""

from __future__ import annotations

from typing import NamedTuple

from renju_cli.formats import lazy_compile
from renju_cli.formats.renjunet.source import (
    NAME_BYTES,
    SECTIONS,
    Open,
    Pos,
    Source,
    advance,
    quote,
)

#: An unclosed tag longer than this at the end of a chunk skipped after an error is not followed.
_MAX_CARRY = 1 << 12

#: Where reading resumes after a syntax error: a ``<game`` start tag (bytes of the cleaned UTF-8).
_GAME_START = rb"<(?:[\w.-]+:)?game[\s/>]"
_GAME_START_AT = lazy_compile(_GAME_START)
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
_QNAME = lazy_compile(rb"(?:" + NAME_BYTES + rb":)?" + NAME_BYTES)
_XMLNS_ATTRIBUTE = lazy_compile(
    rb"""\sxmlns(?::(""" + NAME_BYTES + rb"""))?\s*=\s*(?:"([^"<&]*)"|'([^'<&]*)')"""
)

# What the text skipped is in, at a point.
_TEXT, _TAG, _VALUE_IN, _SECTION = range(4)
#: What a step of the scan gives (besides where the text read must be kept from, to read more):
#: go on, or the game start tag is found.
_GO_ON, _FOUND = -1, -2


class Skip(NamedTuple):
    """What ``skip_to_game`` found: where the next ``<game`` start tag is and the elements that
    enclose it (``pos`` ``None`` when there is none), and what a message says of the text
    skipped."""

    pos: Pos | None
    enclosing: list[Open]
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


def skip_to_game(
    source: Source, error: int | None, after: int, enclosing: list[Open], depth: int
) -> Skip:
    """Where the first ``<game`` start tag at or after byte ``after`` of the file is (from the
    start of what ``source`` keeps when ``after`` lies before it), and the elements that
    enclose it.

    Reading starts in the start tag the error (at byte ``error``) is in, or in the comment (see
    ``_resume_state``).  A section is skipped to its end; when nothing closes it, it is read as
    text from its start on (the section cannot hold the rest of the file), so what follows it is
    held up to ``max_hold`` bytes, until its end is found or the end of the file tells: past
    that, the section is skipped as one that is closed later, and nothing is found if it is not.
    Once the end of the file has been read, where the sections end is known (``ends``), and a
    section that nothing closes is text at once.

    ``enclosing`` (the elements open at the error) follows the tags of the text skipped: a
    start tag opens an element, an end tag closes the elements up to the one of its name (none
    when no open element has it); a damaged tag (a "<" in it, or a value left open on a line
    cut short) does not; ``depth`` elements at most are opened.  What ``source`` keeps is then
    the text from that ``<game``.
    """
    data, kept_pos = source.kept_text()
    base = kept_pos.byte
    offset = min(max(after - base, 0), len(data))
    resume = _Resume(offset, _TEXT)
    if error is not None and 0 <= error - base <= len(data):
        resume = _resume_state(data, error - base, offset)
    return _Scan(source, data, kept_pos, resume, enclosing, depth, after < base).run()


class _Scan:
    """The reading of ``skip_to_game``: a step at a time, by what the text is in (``state``);
    ``buf`` holds the text read from ``pos`` on, ``i`` is where reading is in it."""

    def __init__(
        self,
        source: Source,
        data: bytes,
        kept_pos: Pos,
        r: _Resume,
        enclosing: list[Open],
        depth: int,
        lost: bool,
    ) -> None:
        self.source = source
        self.depth = depth
        self.lost = lost
        self.state = r.state
        self.tag_at = r.tag_at
        self.quote, self.nl, self.lt = r.quote, r.nl, r.lt
        # the section: its end, where it starts (held from there: -1 when not), where it is
        # read as text from should nothing close it, what it is, its line (0: not known yet)
        self.end, self.sec_what, self.sec_line = b"", "", 0
        self.sec_at = self.sec_text = -1
        self.opened_at: Pos | None = None  # where the comment the error is in starts
        if r.state == _SECTION:  # a comment: read as text after its start should it not end
            self.end, self.sec_what = b"-->", "a comment"
            self.sec_at, self.sec_text = r.opened, r.opened + len(b"<!--")
            self.opened_at = advance(kept_pos, data[: r.opened])
            self.sec_line = self.opened_at.line
        first = min(k for k in (r.at, self.tag_at, self.sec_at) if k >= 0)
        self.pos = advance(kept_pos, data[:first])
        self.buf = bytearray(data[first:])  # (appended to and cut at its start in place)
        self.i = r.at
        self._drop(first)
        self.stack = list(enclosing)
        self.counts: dict[str, int] = {}
        for o in self.stack:
            self.counts[o.name] = self.counts.get(o.name, 0) + 1
        self.ends = source.ends
        self.unclosed: str | None = None
        self.too_long: str | None = None
        self.opened: tuple[int, int] | None = None
        opened_at, ends = self.opened_at, self.ends
        if opened_at is not None and ends is not None and ends[self.end] < self.pos.byte + self.i:
            self.unclosed = f"{self.sec_what} opened at line {self.sec_line} is never closed"
            self.opened = opened_at.line, opened_at.col
            self.state, self.sec_at, self.i = _TEXT, -1, self.sec_text

    def _drop(self, n: int) -> None:
        """The places in ``buf`` once its first ``n`` bytes are dropped."""
        self.i -= n
        if self.tag_at >= 0:
            self.tag_at -= n
        if self.sec_at >= 0:
            self.sec_at -= n
            self.sec_text -= n

    def run(self) -> Skip:
        steps = {_TEXT: self._text, _TAG: self._tag, _VALUE_IN: self._value}
        steps[_SECTION] = self._section
        while True:
            cut = steps[self.state]()
            if cut == _FOUND:
                return self._found()
            if cut >= 0:  # the end of what is read: keep what is needed, read more
                self._keep_from(cut)
                if not self._read_more() and not self._at_end():
                    return Skip(
                        None,
                        self.stack,
                        self.unclosed,
                        self.too_long,
                        self.lost,
                        self.opened,
                    )

    def _text(self) -> int:
        """Text and whole tags (followed at once), up to a ``<`` that starts something else."""
        buf, i = self.buf, self.i
        run = _TEXT_RUN.match(buf, i)
        e = run.end() if run is not None else i
        if e > i and b"<" in buf[i:e]:
            follow_tags(self.stack, self.counts, buf[i:e], self.depth)
        self.i = e
        if e == len(buf):
            return e
        m = _AT_LT.match(buf, e)
        if m is None:
            return self._lt_of_nothing(e)
        if m.group(1) is not None:
            return _FOUND
        elif m.group(2) is not None:
            self._section_start(e, m.group(2), m.end())
        else:
            self.state, self.tag_at, self.i = (
                _TAG,
                e,
                m.end(),
            )  # a tag cut by the end, or damaged
        return _GO_ON

    def _lt_of_nothing(self, e: int) -> int:
        """A "<" at ``e`` that starts nothing, unless it is cut by the end of the text read."""
        if self.source.more() and len(self.buf) - e <= _MAX_CARRY and _CUT.match(self.buf, e):
            return e  # what may be cut in two
        self.i = e + 1
        return _GO_ON

    def _section_start(self, at: int, start: bytes, after: int) -> None:
        """A section that starts at ``at`` (with ``start`` after its "<"), read to ``after``."""
        self.end, self.sec_what = SECTIONS[start]
        self.i = after
        if self.ends is None or self.ends[self.end] >= self.pos.byte + after:
            self.state, self.sec_at, self.sec_text, self.sec_line = (
                _SECTION,
                at,
                after,
                0,
            )
        elif self.unclosed is None:  # nothing closes it: its start is text
            line = advance(self.pos, self.buf[:at]).line
            self.unclosed = f"{self.sec_what} opened at line {line} is never closed"

    def _tag(self) -> int:
        """The rest of a tag: its end, a value, or a "<" that damages it."""
        buf = self.buf
        m = (_TAG_STOP if self.tag_at >= 0 else _DAMAGED_TAG_STOP).search(buf, self.i)
        if m is None:
            self.i = len(buf)
            return self.i
        c = buf[m.start()]
        if c == 0x3E:  # ">"
            if self.tag_at >= 0:
                whole = buf[self.tag_at : m.end()]
                follow_tags(self.stack, self.counts, whole, self.depth, whole=True)
            self.state, self.tag_at, self.i = _TEXT, -1, m.end()
        elif c == 0x3C:  # "<": a damaged tag
            return self._lt_in_tag(m.start())
        elif m.group(1) is None:
            self.i = m.start()  # (its quote may come next)
            return self.i
        else:
            self.state, self.quote, self.nl, self.lt, self.i = (
                _VALUE_IN, m.group(1), False, False, m.end()
            )  # fmt: skip
        return _GO_ON

    def _lt_in_tag(self, k: int) -> int:
        """A "<" at ``k`` in a tag: an intact game after it, or part of the damaged tag."""
        buf = self.buf
        if _GAME_START_AT.match(buf, k) is not None:
            self.state, self.tag_at, self.i = _TEXT, -1, k
        elif self.source.more() and len(buf) - k <= _MAX_CARRY and _CUT.match(buf, k):
            self.i = k  # (a "<game" cut in two)
            return k
        else:
            self.tag_at, self.i = -1, k + 1  # part of the tag, which is not followed
        return _GO_ON

    def _value(self) -> int:
        """The rest of an attribute value: to its quote, or text again where it was left open."""
        if not (self.nl or self.lt) and (m := _VALUE_REST[self.quote].match(self.buf, self.i)):
            self.i = m.end()
            c = self.buf[self.i - 1]
            if c == self.quote[0]:
                self.state = _TAG
            else:  # a value left open: text again after the line break, or at the "<"
                self.state, self.tag_at, self.i = _TEXT, -1, self.i - (c == 0x3C)
            return _GO_ON
        return self._value_stop()

    def _value_stop(self) -> int:
        """The value's next quote, line break or "<", when the text read does not hold its end
        (or a line break or a "<" came already)."""
        buf, quote_byte = self.buf, self.quote[0]
        m = _VALUE_STOP[self.quote].search(buf, self.i)
        if m is None:
            self.i = len(buf)
            return self.i
        c = buf[m.start()]
        if c == quote_byte:
            self.state, self.i = _TAG, m.end()
        elif c == 0x0A:  # a line break: a value left open when a "<" came before
            self.i = m.end()
            if self.lt:
                self.state = _TEXT
            else:
                self.nl = True
        elif self.nl:  # a "<" after a line break: text again
            self.state, self.i = _TEXT, m.start()
        else:
            self.lt, self.i = True, m.end()
        if self.state == _TEXT:
            self.tag_at = -1
        return _GO_ON

    def _section(self) -> int:
        """A section, to its end."""
        k = self.buf.find(self.end, self.i)
        if k >= 0:
            self.state, self.sec_at, self.i = _TEXT, -1, k + len(self.end)
            self.too_long, self.opened_at = None, None
            return _GO_ON
        self.i = max(self.i, len(self.buf) - len(self.end) + 1)  # (its end may be cut)
        return self.i

    def _keep_from(self, cut: int) -> None:
        """Drop the text read before ``cut`` but what is still needed: the tag to follow once it
        ends, what follows the section, held should nothing close it."""
        if self.tag_at >= 0:
            if cut - self.tag_at <= _MAX_CARRY:
                cut = self.tag_at
            else:
                self.tag_at = -1
        if self.sec_at >= 0:
            cut = min(cut, self.sec_at)
        if cut:
            self.pos = advance(self.pos, self.buf[:cut])
            del self.buf[:cut]
            self._drop(cut)

    def _read_more(self) -> bool:
        """Read the next piece of the file (``False`` at its end)."""
        chunk = self.source.pull()
        if chunk is None:
            return False
        self.buf += chunk
        if self.sec_at >= 0 and len(self.buf) - self.sec_at > self.source.max_hold:
            self.sec_line = self.sec_line or advance(self.pos, self.buf[: self.sec_at]).line
            self.too_long = (
                f"{self.sec_what} opened at line {self.sec_line} is never closed, and more "
                f"than {self.source.max_hold} bytes follow it, more than are held to read them "
                "as text (the whole-file limit)"
            )
            self.sec_at = -1  # skipped to its end as any section, should it have one
        return True

    def _at_end(self) -> bool:
        """The end of the file: whether reading goes on (a section that nothing closes is text
        from its start on)."""
        if self.ends is None:
            self.ends = self.source.know_ends(self.buf, self.pos.byte)
        if self.state != _SECTION or self.sec_at < 0:
            return False
        if self.unclosed is None:
            if self.opened_at is not None:  # (the comment the error is in)
                self.opened = self.opened_at.line, self.opened_at.col
            self.sec_line = self.sec_line or advance(self.pos, self.buf[: self.sec_at]).line
            self.unclosed = f"{self.sec_what} opened at line {self.sec_line} is never closed"
        self.state, self.sec_at, self.i = _TEXT, -1, self.sec_text
        return True

    def _found(self) -> Skip:
        """The game start tag at ``i``: the source goes on from it."""
        pos = advance(self.pos, self.buf[: self.i])
        stack = self.stack
        for n, o in enumerate(stack):  # games do not nest: the game found is outside any other
            if o.name == "game":
                del stack[n:]
                break
        self.source.restart_at(pos, bytes(self.buf[self.i :]))
        return Skip(pos, stack, self.unclosed, None, self.lost, self.opened)


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
    ``>`` (that tag, when it ends, is followed as any tag); in one of its attribute values (see
    ``_in_value``).
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
    return _in_value(data, lt + 1, start, tag_at)


def _in_value(data: bytes, i: int, start: int, tag_at: int) -> _Resume:
    """What ``start`` is in, in the tag whose values start at ``i``: one of its attribute values
    (a quote after an ``=``: a quote elsewhere is damage, no value) when, from there, a value is
    still open at ``start``: a ``<game`` there is text of the damaged tag, not a game, up to the
    quote that closes the value (see ``_VALUE``); after it, the rest of the tag is read as that
    of any tag, its values skipped.  A value open with a line break and a ``<`` in it is a line
    cut short (``note="abc`` and the next game on the next line): text."""
    while True:
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


def follow_tags(
    stack: list[Open],
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
    stack: list[Open],
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
        stack.append(Open(name, qname, _declarations(rest)))
        counts[name] = counts.get(name, 0) + 1


def _declarations(rest: bytes | bytearray) -> str:
    """The namespace declarations among the attributes ``rest`` of a start tag, as written."""
    return "".join(
        f" xmlns{':' if p else ''}{(p or b'').decode('utf-8', 'replace')}"
        f"={quote((v1 or v2 or b'').decode('utf-8', 'replace'))}"
        for p, v1, v2 in _XMLNS_ATTRIBUTE.findall(rest)
    )
