"""Charsets of SGF text: which ones hide a ``]`` or ``\\`` in a trail byte, and how text is decoded.

The tokenizer reads SGF as ASCII; a double-byte charset (GBK, Big5, Shift-JIS...) may write a
character whose trail byte is ``]`` or ``\\``, so with such a ``CA`` it skips the trail byte of
each character.  Text values are decoded with the tree's ``CA`` charset, then
``ReadOptions.encoding``, UTF-8, and Latin-1 as the last resort (never failing).
"""

from __future__ import annotations

from collections.abc import Callable

from renju_cli.formats import text_codec

#: The double-byte charsets, by codec name: ``dbcs`` (lead bytes 0x81-0xFE) or ``sjis``.
DBCS = {
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

#: What a charset must write as ASCII to be the one of a file whose SGF was read as ASCII: the
#: structure, property names, points and numbers.  (Not ``formats.ascii_compatible``, which
#: also asks for ``+`` and ``~``: UTF-7 writes these SGF characters as ASCII.)
SGF_ASCII = "();[]: \t\n\rabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

Decoder = Callable[[bytes], str]


def dbcs_kind(name: str | None) -> str | None:
    """The double-byte family of charset ``name`` (``dbcs``, ``sjis``), or ``None``."""
    codec = text_codec(name)
    return None if codec is None else DBCS.get(codec)


def is_lead(b: int, kind: str) -> bool:
    """Whether byte ``b`` starts a character of two bytes in the family ``kind``."""
    if kind == "sjis":
        return 0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC
    return 0x81 <= b <= 0xFE


def writes_sgf_as_ascii(codec: str) -> bool:
    """Whether ``codec`` writes ``SGF_ASCII`` as ASCII (not EBCDIC, UTF-16 or UTF-32)."""
    try:
        return SGF_ASCII.encode(codec) == SGF_ASCII.encode("ascii")
    except (UnicodeError, LookupError, ValueError):
        return False


def decoder(ca: str | None, fallback: str | None) -> Decoder:
    """The decoder of a tree's text: its ``CA`` charset, the ``--encoding`` fallback, UTF-8,
    then Latin-1."""
    encodings: list[str] = []
    for name in (ca, fallback, "utf-8"):
        codec = text_codec(name.strip()) if name else None
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
