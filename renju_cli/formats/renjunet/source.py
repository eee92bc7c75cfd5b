"""The cleaned text of a database as the parser is fed it, and what is kept of it to resume
after a syntax error: positions (byte, line, column) and the sections (comments, CDATA sections,
processing instructions) in it."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import NamedTuple

from renju_cli.formats import lazy_compile

#: Bytes handed to the parser at a time: the records of the games that end in a feed wait in
#: memory until it returns, and a 64 KiB chunk can hold ten thousand tiny games.
FEED_BYTES = 1 << 13
#: While the parser stays in one token (a value, a comment of megabytes), each feed is twice
#: the last, up to this: expat scans an unfinished token anew on every feed (a 4 MB attribute
#: value took 1.6 s, 16 MB half a minute); past the token, the games of one feed wait in memory.
MAX_FEED_BYTES = 1 << 19
#: Bytes of the latest chunks kept to find where reading resumes after a syntax error.
KEEP_BYTES = 1 << 14

NAME_BYTES = rb"[A-Za-z_\x80-\xff][\w.\-\x80-\xff]*"
#: a section's start (group 1: what follows the "<"), where it begins
SECTION_START = lazy_compile(rb"<(!--|!\[CDATA\[|\?)")
#: a section's start -> its end, what a message calls it
SECTIONS = {
    b"!--": (b"-->", "a comment"),
    b"![CDATA[": (b"]]>", "a CDATA section"),
    b"?": (b"?>", "a processing instruction"),
}
#: a processing instruction's start with its whole target
_PI_TARGET = lazy_compile(rb"<\?[A-Za-z_:\x80-\xff][\w.:\-\x80-\xff]*\s")
#: a game start tag where it begins (``Source.in_game_tag``)
_GAME_TAG_AT = lazy_compile(rb"<(?:[\w.-]+:)?game(?:[\s/>]|$)")
#: An end tag where it begins: its qualified name (group 1).
_END_TAG_AT = lazy_compile(rb"</(" + NAME_BYTES + rb"(?::" + NAME_BYTES + rb")?)")
_CONTINUATION_BYTES = bytes(range(0x80, 0xC0))


class Pos(NamedTuple):
    """A position in the cleaned text: byte index, line (from 1) and column (in characters, from
    0), as expat counts them, and whether the byte before is a CR (a CR LF cut in two is one
    line break)."""

    byte: int
    line: int
    col: int
    cr: bool


START = Pos(0, 1, 0, False)


def advance(pos: Pos, data: bytes | bytearray) -> Pos:
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
    return Pos(pos.byte + len(data), pos.line + breaks, col, data[-1] == 0x0D)


def _chars(data: bytes | bytearray) -> int:
    """Characters in UTF-8 ``data`` (a character cut at either end counts where it starts)."""
    return len(data.translate(None, _CONTINUATION_BYTES))


class Open(NamedTuple):
    """An open element: its local name, its name as written and the namespace declarations of
    its start tag (text ready to put in a start tag: no line break)."""

    name: str
    qname: str
    declared: str


def quote(value: str) -> str:
    """An attribute value, quoted, on one line."""
    for raw, ref in (("&", "&amp;"), ("<", "&lt;"), ('"', "&quot;"), ("\n", "&#10;"),
                     ("\r", "&#13;"), ("\t", "&#9;")):  # fmt: skip
        value = value.replace(raw, ref)
    return f'"{value}"'


def _pieces(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """``chunks`` in pieces of at most ``FEED_BYTES`` (an empty chunk is one empty piece)."""
    for chunk in chunks:
        for start in range(0, max(len(chunk), 1), FEED_BYTES):
            yield chunk[start : start + FEED_BYTES]


class Source:
    """The cleaned chunks of the file, for the parser; keeps the latest ones (at least
    ``KEEP_BYTES``, and all from the start of the token the parser is in, ``max_hold`` bytes at
    most) and where they start, to find where to resume after a syntax error."""

    def __init__(self, chunks: Iterator[bytes], max_hold: int) -> None:
        self.chunks = _pieces(chunks)
        self.max_hold = max_hold
        self.kept: deque[bytes] = deque()
        self.kept_bytes = 0
        self.kept_pos = START  # where kept[0] starts in the file
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

    def pull(self) -> bytes | None:
        """The next piece of the file, ``None`` at its end."""
        if self.queue:
            return self.queue.popleft()
        if self.eof:
            return None
        chunk = next(self.chunks, None)
        if chunk is None:
            self.eof = True
        return chunk

    def more(self) -> bool:
        """Whether more of the file may come."""
        return bool(self.queue) or not self.eof

    def _push_front(self, data: bytes) -> None:
        """Give ``data`` back, to be read again first (in pieces fed one at a time)."""
        step = FEED_BYTES
        self.queue.extendleft(reversed([data[k : k + step] for k in range(0, len(data), step)]))

    def know_ends(self, data: bytes | bytearray, base: int) -> dict[bytes, int]:
        """``ends``, from the rest of the file (``data``, from file byte ``base``)."""
        ends = {}
        for end, _ in SECTIONS.values():
            k = data.rfind(end)
            ends[end] = base + k if k >= 0 else -1
        self.ends = ends
        return ends

    def next(self) -> bytes | None:
        """The next piece to feed, ``None`` at the end of the file."""
        if self.prefix is not None:
            prefix, self.prefix = self.prefix, None
            return prefix
        chunk = self.pull()
        if chunk is None:
            if self.ends is None:
                self.know_ends(b"".join(self.kept), self.kept_pos.byte)
            return None
        if self.hold is not None and self.hold == self.held_at:
            chunk = self._more_of_the_token(chunk)
        else:
            self.pieces = 1
        self.held_at = self.hold
        self._keep(chunk)
        return chunk

    def _more_of_the_token(self, chunk: bytes) -> bytes:
        """``chunk`` and the pieces after it: the parser is still in the token of the last feed,
        and is given twice as much at once."""
        self.pieces = min(self.pieces * 2, MAX_FEED_BYTES // FEED_BYTES)
        parts = [chunk]
        while len(parts) < self.pieces and (more := self.pull()) is not None:
            parts.append(more)
        return b"".join(parts)

    def _keep(self, chunk: bytes) -> None:
        """Keep ``chunk``, and what is kept before it from the hold on, ``KEEP_BYTES`` at least."""
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
            self.kept_pos = advance(self.kept_pos, old)

    def end(self) -> int:
        """The file byte index after the last byte fed."""
        return self.kept_pos.byte + self.kept_bytes

    def kept_text(self) -> tuple[bytes, Pos]:
        """The text kept and where it starts."""
        return b"".join(self.kept), self.kept_pos

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
        m = SECTION_START.match(self._peek(at, 9))
        return SECTIONS[m.group(1)][1] if m is not None else None

    def never_closed(self, at: int) -> bool:
        """Whether a section starts at file byte ``at``, nothing closes it (``ends`` known), and
        the parser has been given enough of it to find no error in it but its end (an
        instruction's target is whole: what follows is text; a comment's "--" is said as its
        end, see ``Skip.opened``)."""
        head = self._peek(at, 256)
        m = SECTION_START.match(head)
        if m is None or self.ends is None:
            return False
        if m.group(1) == b"?" and _PI_TARGET.match(head) is None:
            return False
        return self.ends[SECTIONS[m.group(1)][0]] < at + m.end()

    def position(self, at: int) -> tuple[int, int]:
        """The line and column of file byte ``at``, in the text kept."""
        data = b"".join(self.kept)
        pos = advance(self.kept_pos, data[: max(at - self.kept_pos.byte, 0)])
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

    def resume_at(self, at: int) -> Pos:
        """Go on from byte ``at`` of the file (in the text kept): where it is."""
        data = b"".join(self.kept)
        i = at - self.kept_pos.byte
        pos = advance(self.kept_pos, data[:i])
        self.restart_at(pos, data[i:])
        return pos

    def restart_at(self, pos: Pos, rest: bytes) -> None:
        """Go on from ``pos``, where ``rest`` starts: nothing before it is kept."""
        self.kept.clear()
        self.kept_bytes = 0
        self.kept_pos = pos
        self.hold = None
        self._push_front(rest)
