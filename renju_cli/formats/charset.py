"""Charsets of text that does not say its own: how the readers decode it (SGF, move lists), and
which charsets hide a ``]`` or ``\\`` in a trail byte.

The SGF tokenizer reads SGF as ASCII; a double-byte charset (GBK, Big5, Shift-JIS...) may write a
character whose trail byte is ``]`` or ``\\``, so with such a ``CA`` it skips the trail byte of
each character.

A text value is decoded (``Charset.decode``) with the first of these that fits its bytes:

1. the charset the file declares: an SGF tree's ``CA``, then ``ReadOptions.encoding``
   (``--encoding``);
   a declared GB2312 or GBK is read as GB18030, EUC-KR as cp949, Shift-JIS as cp932 and Big5
   as Big5-HKSCS: the supersets that the programs writing them use;
2. UTF-8;
3. GB18030, when each of its characters of two bytes has a second byte past ASCII, as the
   GB2312 characters of Chinese names and comments have (Chinese servers label GBK files
   ``CA[UTF-8]``; Latin-1 text, a letter past ASCII between ASCII letters, is no GB18030);
4. cp1252, then Latin-1, which decodes any byte.

Text that does not fit the declared charset is a warning naming the charset it was read with;
with no charset declared, UTF-8 is expected and cp1252 (SGF's own default, Latin-1, and the
Windows text of Western move lists) needs no word: GB18030 does.  ``PLAIN`` is the charset of
text that declares none.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from renju_cli.formats import clip, text_codec
from renju_cli.memo import remember

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

#: Spellings of charsets that programs write and Python does not know (letters and digits
#: only, lower case).
_SPELLINGS = {
    "gb231280": "gb2312",
    "xgbk": "gbk",
    "xgb18030": "gb18030",
    "big5": "big5",
    "xsjis": "shift_jis",
    "sjisopen": "cp932",
    "windows31j": "cp932",
    "xwindows949": "cp949",
    "kscs5601": "euc_kr",
    "win1251": "cp1251",
    "xcp1251": "cp1251",
    "win1252": "cp1252",
    "xcp1252": "cp1252",
}

#: The supersets a declared charset is read with (``Charset``).
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "euc_kr": "cp949",
    "shift_jis": "cp932",
    "big5": "big5hkscs",
}

#: The charsets tried after the declared ones, in order (Latin-1 last of all).
FALLBACKS = ("utf-8", "gb18030", "cp1252")

#: Names of charsets as messages give them.
_NAMES = {"utf-8": "UTF-8", "gb18030": "GB18030", "cp1252": "cp1252", "latin-1": "Latin-1"}

#: Bytes of GB18030 text whose characters of two bytes all have a second byte past ASCII.
_GB_TEXT = re.compile(
    rb"(?:[\x00-\x7f]|[\x81-\xfe][\x80-\xfe]|[\x81-\xfe][\x30-\x39][\x81-\xfe][\x30-\x39])*+"
)

#: What a charset must write as ASCII to be the one of a file whose SGF was read as ASCII: the
#: structure, property names, points and numbers.  (Not ``formats.ascii_compatible``, which
#: also asks for ``+`` and ``~``: UTF-7 writes these SGF characters as ASCII.)
SGF_ASCII = "();[]: \t\n\rabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def codec_of(name: str | None) -> str | None:
    """The codec of a charset name as files write it (``CA``), or ``None``."""
    if not name:
        return None
    known = _CODECS.get(name)
    if known is None:
        codec = text_codec(name) or _SPELLINGS.get(_NOT_ALNUM.sub("", name.lower()))
        known = (codec,)
        if len(name) <= _NAME_KEPT:  # (a collection may name a charset in every game)
            remember(_CODECS, name, known, _NAMES_KEPT)
    return known[0]


#: ``codec_of``'s answers by name (in a tuple: ``None`` is an answer), names of at most
#: ``_NAME_KEPT`` characters, ``_NAMES_KEPT`` at most.
_CODECS: dict[str, tuple[str | None]] = {}
_NAME_KEPT = 64
_NAMES_KEPT = 1024
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


def dbcs_kind(name: str | None) -> str | None:
    """The double-byte family of charset ``name`` (``dbcs``, ``sjis``), or ``None``."""
    codec = codec_of(name)
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


def name_of(codec: str) -> str:
    """A codec's name as messages give it."""
    return _NAMES.get(codec, codec)


@dataclass(frozen=True, slots=True)
class Charset:
    """How the text of a tree is decoded (see the module docstring)."""

    #: the codecs tried in order, the declared ones first
    codecs: tuple[str, ...]
    #: how many of them are declared (``CA``, ``--encoding``)
    declared: int
    #: the declaration, as messages say it (``CA[UTF-8]``, ``--encoding cp1251``)
    label: str = ""

    def decode(self, raw: bytes) -> tuple[str, str | None]:
        """The text of ``raw``, and the codec it was read with when that calls for a warning
        (``None``: it fits)."""
        try:  # (the usual case: the first fits)
            return raw.decode(self.codecs[0]), None
        except (UnicodeError, LookupError):
            pass
        for k, codec in enumerate(self.codecs):
            if self._may_be(k, codec, raw, True):
                try:
                    return raw.decode(codec), self._said(k, codec)
                except (UnicodeError, LookupError):  # idna & co raise UnicodeError
                    continue
        return raw.decode("latin-1"), self._said(len(self.codecs), "latin-1")

    def head(self, raw: bytes, chars: int) -> str:
        """The start of ``raw`` as a message quotes it, decoded as the record is: at most
        ``chars`` characters (a character cut at the end of the bytes taken is left out)."""
        if raw.isascii():
            return raw[:chars].decode("ascii")
        head = raw[: 4 * chars + 4]
        final = len(head) == len(raw)
        for k, codec in enumerate((*self.codecs, "latin-1")):
            if self._may_be(k, codec, head, final):
                try:
                    return codecs.getincrementaldecoder(codec)().decode(head, final)[:chars]
                except (UnicodeError, LookupError):
                    continue
        return ""  # (Latin-1 decodes anything)

    def quote(self, raw: bytes, chars: int = 40) -> str:
        """``raw`` as a message quotes it: its first ``chars`` characters and "..." when it is
        longer (the lines of a tree repeat a node's problems: a value of half a megabyte made a
        report of gigabytes)."""
        return clip(self.head(raw, chars + 1), chars)

    def _may_be(self, k: int, codec: str, raw: bytes, final: bool) -> bool:
        """Whether ``raw`` may be text of ``codec``, the ``k``-th tried: GB18030 not declared
        must have its second bytes past ASCII (up to a character cut at the end)."""
        if codec != "gb18030" or k < self.declared:
            return True
        m = _GB_TEXT.match(raw)
        end = m.end() if m is not None else 0
        return end == len(raw) or (not final and end >= len(raw) - 3)

    def _said(self, k: int, codec: str) -> str | None:
        if k == 0 or (not self.declared and codec in ("cp1252", "latin-1")):
            return None
        return codec


def charset(ca: str | None, fallback: str | None) -> Charset:
    """The charset of a tree's text: its ``CA`` (if usable), the ``--encoding`` fallback, then
    ``FALLBACKS``."""
    declared: list[str] = []
    labels: list[str] = []
    for name, label in ((ca, "CA[{}]"), (fallback, "--encoding {}")):
        codec = codec_of(name.strip()) if name else None
        if name is None or codec is None or codec.startswith(("utf-16", "utf-32")):
            continue  # bytes whose SGF syntax parses are no UTF-16/32 text
        codec = _SUPERSETS.get(codec, codec)
        if codec not in declared:
            declared.append(codec)
            labels.append(label.format(clip(name.strip())))
    tried = [*declared, *(c for c in FALLBACKS if c not in declared)]
    return Charset(tuple(tried), len(declared), " then ".join(labels))


#: The charset of text when no tree says one: ``charset(None, None)``.
PLAIN = charset(None, None)


def fallback_warning(read_as: list[tuple[str, int]], label: str) -> str:
    """The warning of a line's text read in other charsets than its declared one (``label``;
    none: UTF-8 expected): the charsets, in the order met, and the first line."""
    names = ", ".join(dict.fromkeys(name_of(codec) for codec, _ in read_as))
    line = read_as[0][1]
    if label:
        return f"text at line {line} does not fit its charset {label}: read as {names}"
    return f"text at line {line} is not UTF-8 and no charset is declared (CA): read as {names}"
