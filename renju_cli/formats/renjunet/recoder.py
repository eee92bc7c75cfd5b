"""The bytes of a database as clean UTF-8 for expat, whatever the file's encoding."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import BinaryIO

from renju_cli.formats import lazy_compile, lookup_codec

#: Bytes read from the stream (and decoded and cleaned) at a time.
CHUNK_BYTES = 1 << 16

# Characters XML 1.0 forbids even as text (expat would stop the whole file at the first one), and
# lone surrogates, which cannot be encoded to UTF-8 for expat.
_XML_ILLEGAL = lazy_compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ENCODING_DECL = lazy_compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")

#: Byte order marks and the first bytes of ``<`` in UTF-16 and UTF-32 without one, and their
#: codecs (UTF-32 first: its little-endian BOM starts with UTF-16's).
_HEADS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"<\x00", "utf-16-le"),
    (b"\x00<", "utf-16-be"),
)


class Recoder:
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
        """The file as clean UTF-8, a chunk of the file at a time (a chunk may end inside a
        character: expat puts it back together)."""
        data = self.stream.read(CHUNK_BYTES)
        self.encoding = self._choose(data)
        decoder = codecs.getincrementaldecoder(self.encoding)(errors="replace")
        while data:
            yield self._clean(decoder.decode(data))
            data = self.stream.read(CHUNK_BYTES)
        yield self._clean(decoder.decode(b"", final=True))

    def _choose(self, head: bytes) -> str:
        for start, bom_codec in _HEADS:
            if head.startswith(start):
                return bom_codec
        m = _ENCODING_DECL.match(head)
        declared = m.group(1).decode("ascii") if m else None
        for name in (declared, self.fallback):
            if name:
                codec = self._usable(name, head)
                if codec is not None:
                    # files labelled ASCII usually hold UTF-8 names; UTF-8 reads ASCII unchanged
                    return "utf-8" if codec == "ascii" else codec
        return "utf-8"

    def _usable(self, name: str, head: bytes) -> str | None:
        """The codec of encoding ``name`` when it reads this file, else ``None`` and a note."""
        info = lookup_codec(name)
        if info is None:
            self.notes.append(f"unknown encoding {name!r}; decoded as UTF-8")
        elif not getattr(info, "_is_text_encoding", True):  # base64, zlib, rot13...
            self.notes.append(f"{name!r} is not a text encoding; decoded as UTF-8")
        elif info.name.startswith(("utf-16", "utf-32")):
            # the head is ASCII-compatible, so the label is wrong
            self.notes.append(f"encoding {name!r} declared but the file is not {name}")
        elif not _reads_markup(info.name, head):  # idna, punycode, EBCDIC on an ASCII file...
            self.notes.append(f"encoding {name!r} cannot read this file; decoded as UTF-8")
        else:
            return info.name
        return None

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
