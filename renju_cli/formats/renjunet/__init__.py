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

from renju_cli.formats.renjunet.attributes import (
    MAX_OFFERS,
    MAX_SWAP_FLAGS,
    ruleset_name,
)
from renju_cli.formats.renjunet.game import NAME
from renju_cli.formats.renjunet.parse import read

__all__ = [
    "EXTENSIONS",
    "MAX_OFFERS",
    "MAX_SWAP_FLAGS",
    "NAME",
    "read",
    "ruleset_name",
    "sniff",
]

EXTENSIONS = (".rif", ".xml")

_PROLOG = re.compile(
    r"\s*(?:<\?.*?\?>\s*|<!--.*?-->\s*|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>\s*)*", re.DOTALL
)
_DATABASE_ROOT = re.compile(r"<(?:[\w.-]+:)?database[\s/>]")


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
    """The head as text enough to see its markup (ASCII, or UTF-16 with or without a BOM)."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return head.decode("utf-16", errors="replace")
    if head.startswith(b"<\x00"):
        return head.decode("utf-16-le", errors="replace")
    if head.startswith(b"\x00<"):
        return head.decode("utf-16-be", errors="replace")
    return head.removeprefix(codecs.BOM_UTF8).decode("latin-1")
