"""The XML parse of a database: fed chunk by chunk, refusing what a database may not hold, and
resumed at the next ``<game`` after an XML syntax error, elements nested too deep or a section
that nothing closes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

import renju_cli.limits as limits
from renju_cli.formats import ReadOptions
from renju_cli.formats.renjunet.game import dropped, fatal, local
from renju_cli.formats.renjunet.recoder import Recoder
from renju_cli.formats.renjunet.skip import Skip, skip_to_game
from renju_cli.formats.renjunet.source import Source
from renju_cli.formats.renjunet.target import (
    MAX_PREFIX_BYTES,
    MAX_PREFIX_DEPTH,
    Stop,
    Target,
    TooDeep,
)
from renju_cli.record import Record

if TYPE_CHECKING:  # imported by ``load_xml``, when the first database is read
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

#: Longest tag, comment or processing instruction read, from its "<" to where it ends
#: (``limits.MARKUP_BYTES``): the text between tags and CDATA sections are read as they come,
#: whatever their length.
MAX_MARKUP_BYTES = limits.MARKUP_BYTES

#: expat's error codes (set by ``load_xml``): the errors found at the next tag; a mismatched tag
_ERROR_AT_NEXT_TAG: frozenset[int]
_TAG_MISMATCH: int
#: the errors of a section that is not closed at the end of the file: a comment or a processing
#: instruction is a token (the error is at its start), a CDATA section is not (at the end)
_UNCLOSED_TOKEN: int
_UNCLOSED_CDATA: int
_XML_LOADED = False


class Unclosed(Exception):
    """What ``feed_next`` gives when the parser is inside a section that nothing closes (the
    end of the file has been read: ``Source.ends``): expat would read it to the end of the file
    (each time, quadratic in all), so it ends there with the error it would give at the end,
    and reading resumes after the section's start, as after that error (see ``resync``)."""

    def __init__(self, at: int, cdata: bool) -> None:
        super().__init__(f"unclosed section at byte {at}")
        self.at = at  # the file's byte index of the section's "<"
        self.code = _UNCLOSED_CDATA if cdata else _UNCLOSED_TOKEN


def load_xml() -> None:
    """Import the XML parser and the names of its errors, once, when the first database is
    read: ``xml.etree``, ``pyexpat`` and ``defusedxml`` take milliseconds that detection, which
    imports every reader (``sniff`` needs none of them), made every other format pay at start-up.

    Ctrl-C, SIGTERM and SIGHUP are held back meanwhile (``signals.signals_held``): one that lands
    in the import of a C extension may come out as an ImportError, which ElementTree's fallback
    to pure Python swallows, and the run would go on (see ``cli.check``)."""
    global ParseError, ErrorString, DefusedXmlException, EntitiesForbidden
    global ExternalReferenceForbidden, DefusedXMLParser, _XML_LOADED
    global _ERROR_AT_NEXT_TAG, _TAG_MISMATCH, _UNCLOSED_TOKEN, _UNCLOSED_CDATA
    if _XML_LOADED:
        return
    from renju_cli.signals import signals_held

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
    next ``<game`` (see ``resync``).
    """
    load_xml()
    recoder = Recoder(stream, options.encoding)
    target = Target(path, options, recoder)
    source = Source(recoder.chunks(), options.max_file)
    parser = make_parser(target)
    resyncs = 0
    while True:
        end = feed_next(parser, source, target)
        yield from target.take()
        if isinstance(end, (ParseError, TooDeep, Unclosed)):
            allowed = resyncs < options.max_resyncs
            record, parser = resync(end, parser, source, target, allowed)
            if record is not None:
                resyncs += 1
                yield record
            if parser is None:
                return
        elif end is not None:
            yield from end
            return


def make_parser(target: Target) -> Any:
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
        raise Stop(
            f"external DTD {sysid or pubid!r} refused (never fetched; a document type "
            "declaration may only be a name and its own declarations)"
        )


def _refuse_attribute_defaults(
    element: str, attribute: str, kind: str, default: str | None, required: bool
) -> None:
    if default is None:  # #IMPLIED or #REQUIRED: nothing is added to the document
        return
    raise Stop(
        f"attribute default <!ATTLIST {element} {attribute} ... {default!r}> refused (a DTD "
        "that gives attributes default values would change the games)"
    )


def feed_next(
    parser: Any, source: Source, target: Target
) -> list[Record] | ParseError | TooDeep | Unclosed | None:
    """Feed the next chunk, or close at the end.

    ``None`` while the parse goes on; the ``ParseError`` of an XML syntax error, the
    ``TooDeep`` of elements nested too deep or the ``Unclosed`` of a section that nothing
    closes (the caller resumes after it); at the end of the parse, the records that close it
    (none for a clean database, one unreadable record for a refused one or when a bound is
    reached).
    """
    try:
        chunk = source.next()
        if chunk is not None:
            return _feed(parser, chunk, source, target)
        parser.close()
        if target.index == 0 and target.root not in (None, "database"):
            message = f"XML root element is <{target.root}>, not <database>, and has no <game>"
            return [fatal(target.path, message, 0, 1)]
        return []
    except (ParseError, TooDeep) as exc:
        return exc
    except Exception as exc:  # a reader must not raise on content: report whatever went wrong
        message = _refusal(exc)
    line = target.line()
    if target.game is not None:
        message += f" ({dropped(target.game)})"
    return [fatal(target.path, message, target.index, line)]


def _feed(parser: Any, chunk: bytes, source: Source, target: Target) -> Unclosed | None:
    """Feed ``chunk``; the ``Unclosed`` of a section that nothing closes, if the parser is in
    one (``Stop`` for a token too long)."""
    parser.feed(chunk)
    at = source.hold = _held_from(target)
    if at is not None and target.cdata_at is None and source.end() - at > MAX_MARKUP_BYTES:
        from_line, from_col = source.position(at)
        raise Stop(
            f"a tag, comment or processing instruction longer than {MAX_MARKUP_BYTES} "
            f"bytes, from line {from_line}, column {from_col}: the rest of the file is "
            "not read"
        )
    if at is not None and source.ends is not None and source.never_closed(at):
        return Unclosed(at, target.cdata_at is not None)
    return None


def _held_from(target: Target) -> int | None:
    """The file's byte index from which the source keeps what it is fed: the token the parser
    is in (a comment, an instruction, a tag: all of it is read before anything is reported) or
    the CDATA section open, to resume after its start should nothing close it."""
    if target.cdata_at is not None:
        return target.cdata_at
    index = target.expat.CurrentByteIndex
    return target.byte_offset + index if index >= 0 else None


def _refusal(exc: Exception) -> str:
    """What the unreadable record that ends the file says of ``exc``."""
    if isinstance(exc, EntitiesForbidden):
        return f"XML entity declaration {exc.name!r} refused (entities are never expanded)"
    if isinstance(exc, ExternalReferenceForbidden):
        return f"external XML reference {exc.sysid!r} refused (never fetched)"
    if isinstance(exc, DefusedXmlException):
        return f"unsafe XML refused: {exc}"
    if isinstance(exc, Stop):
        return exc.message
    if isinstance(exc, OSError):
        return f"cannot read the file: {exc}"
    return f"cannot read the database: {type(exc).__name__}: {exc}"


class _Damage:
    """What the unreadable record of an error that reading resumes after says, as it is worked
    out: its message (``head``: what it says of the error itself), its line, the file's byte
    index of the error, expat's error code and the section never closed it lies in."""

    def __init__(
        self,
        head: str,
        line: int | None,
        at: int | None,
        code: int | None,
        unclosed: str | None,
    ) -> None:
        self.head = self.message = head
        self.line = line
        self.at = at
        self.code = code
        self.unclosed = unclosed

    def record(self, target: Target, index: int) -> Record:
        return fatal(target.path, self.message, index, self.line)


def resync(
    error: ParseError | TooDeep | Unclosed,
    parser: Any,
    source: Source,
    target: Target,
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
    damage = _damage(error, source, target)
    _discard(parser, error)
    resumed = _resume_outside_games(error, damage.code, damage.at, source, target)
    if resumed is not None:
        return None, resumed
    if target.game is not None:
        damage.message += f" ({dropped(target.game)})"
    index = target.index
    if index >= target.options.max_records:
        return _past_max_records(damage, source, target), None
    target.index += 1  # the damaged game is a record: later games keep their numbers
    if not allowed:
        what = "XML syntax errors"
        if isinstance(error, TooDeep):
            what += " or elements nested too deep"
        damage.message += (
            f"; {target.options.too_many_resyncs(what)}: the rest of the file is not read"
        )
        return damage.record(target, index), None
    after = _resume_after(error, damage, target, source)
    return _resume_at_next_game(damage, after, source, target, index)


def _damage(error: ParseError | TooDeep | Unclosed, source: Source, target: Target) -> _Damage:
    """What the record of ``error`` says of it, where it is and what it lies in."""
    if isinstance(error, TooDeep):
        line, col = error.line, error.col
        message = (
            f"elements nested deeper than {target.options.max_depth}: line {line}, column {col}"
        )
        return _Damage(message, line, error.at, None, None)
    if isinstance(error, Unclosed):
        return _unclosed(error.code, error.at, source, target)
    code = getattr(error, "code", None)
    if code == _UNCLOSED_CDATA and target.cdata_at is not None:
        return _unclosed(_UNCLOSED_CDATA, target.cdata_at or 0, source, target)
    return _syntax_error(error, code, source, target)


def _syntax_error(error: ParseError, code: int | None, source: Source, target: Target) -> _Damage:
    """An XML syntax error as expat gives it, at the file's line, column and byte."""
    line, col = error.position
    what = ErrorString(code) if isinstance(code, int) else str(error).rsplit(": line", 1)[0]
    where = target.expat.ErrorByteIndex
    if line == 1:
        col += target.col_offset
    line += target.line_offset
    message = f"XML syntax error: {what}: line {line}, column {col}"
    at = where + target.byte_offset if where >= 0 else None
    unclosed = None
    if code == _UNCLOSED_TOKEN and at is not None:
        section = source.section_at(at)  # (else a tag cut by the end of the file)
        if section is not None:
            unclosed = f"{section} opened at line {line} is never closed"
    return _Damage(message, line, at, code, unclosed)


def _unclosed(code: int, at: int, source: Source, target: Target) -> _Damage:
    """The error expat gives (or would give) at the end of the file for a section that nothing
    closes, where the section starts."""
    if code == _UNCLOSED_CDATA:
        line, col = target.cdata_line, target.cdata_col
        section: str | None = "a CDATA section"
    else:
        line, col = source.position(at)
        section = source.section_at(at)
    message = f"XML syntax error: {ErrorString(code)}: line {line}, column {col}"
    unclosed = None if section is None else f"{section} opened at line {line} is never closed"
    return _Damage(message, line, at, code, unclosed)


def _past_max_records(damage: _Damage, source: Source, target: Target) -> Record:
    """The record that ends the file at an error past ``max_records``: a damaged game is one
    game too many, and the bound ends the file with the record a game's start tag gives
    (``Target.start``); damage outside a game is said, and the file ends there too (what follows
    is not looked at: it may hold no game at all)."""
    options, index = target.options, target.index
    at = damage.at
    if target.game is not None or (at is not None and source.in_game_tag(at)):
        message = f"{options.too_many()}; the rest is not read"
        start = target.game.line if target.game is not None else damage.line
        return fatal(target.path, message, index, start)
    damage.message += f"; {options.max_records} records were read, the limit: the rest is not read"
    return damage.record(target, index)


def _resume_after(
    error: ParseError | TooDeep | Unclosed,
    damage: _Damage,
    target: Target,
    source: Source,
) -> int:
    """The file's byte index from which the next ``<game`` is looked for."""
    if isinstance(error, TooDeep):
        # after the start tag (a game's too: a game nested that deep is not read), as text
        after, damage.at = (damage.at or 0) + 1, None
    elif damage.at is None:
        after = source.end()
    else:
        # an invalid token or junk after the root may be the "<" of an intact <game> (after an
        # unfinished tag, or a second root): resume there; any other error may lie in the
        # start tag of the game it points at (an unbound prefix points at its "<"); a section
        # never closed is text after its "<"
        after = damage.at + (0 if damage.code in _ERROR_AT_NEXT_TAG else 1)
    return max(after, target.resumed_at + 1)  # never the game this parser started at


def _resume_at_next_game(
    damage: _Damage, after: int, source: Source, target: Target, index: int
) -> tuple[Record, Any]:
    """The record of the damage, and a parser that goes on at the next ``<game`` from byte
    ``after`` on (``None`` when there is none, or it cannot be resumed)."""
    open_elements = target.open_elements()
    if open_elements is None:
        damage.message += (
            f"; more than {MAX_PREFIX_DEPTH} elements or namespace declarations enclose it: "
            "the rest of the file is not read"
        )
        return damage.record(target, index), None
    depth = min(MAX_PREFIX_DEPTH, target.options.max_depth)
    found = skip_to_game(source, damage.at, after, open_elements, depth)
    _said_of_the_text_skipped(damage, found, damage.unclosed or found.unclosed, source)
    if found.too_long is not None:
        damage.message += f"; {found.too_long}: the rest of the file is not read"
        return damage.record(target, index), None
    if found.pos is None:
        damage.message += "; no later <game> was found, so reading stops there"
        return damage.record(target, index), None
    prefix = "".join(f"<{e.qname}{e.declared}>" for e in found.enclosing)
    if len(prefix) > MAX_PREFIX_BYTES:
        damage.message += (
            f"; the start tags of the elements that enclose the next game are longer than "
            f"{MAX_PREFIX_BYTES} characters: the rest of the file is not read"
        )
        return damage.record(target, index), None
    damage.message += f"; reading resumed at line {found.pos.line}"
    parser = make_parser(target)
    target.restart(parser, found.pos, prefix)
    source.prefix = prefix.encode("utf-8")
    return damage.record(target, index), parser


def _said_of_the_text_skipped(
    damage: _Damage, found: Skip, unclosed: str | None, source: Source
) -> None:
    """What the record says of the text skipped: the comment the error lies in; unless the text
    after a section was too long to hold, the section never closed (``unclosed``) and the text
    lost."""
    if found.opened is not None:
        # an error in a comment that nothing closes: expat's is at the first "--" in it if it
        # read that far, else at its start at the end of the file; said as the latter
        damage.line, col = found.opened
        what = ErrorString(_UNCLOSED_TOKEN)
        damage.message = (
            f"XML syntax error: {what}: line {damage.line}, column {col}"
            + damage.message[len(damage.head) :]
        )
    if found.too_long is not None:
        return
    if found.lost:  # (the parser held a token longer than the source keeps)
        if unclosed is not None:
            damage.message += f"; {unclosed}"
        damage.message += (
            f"; the text after it was longer than {source.max_hold} bytes, more than is held "
            "(the whole-file limit), and the games in it are lost"
        )
    elif unclosed is not None:
        damage.message += f"; {unclosed}, so it was read as text"


def _resume_outside_games(
    error: ParseError | TooDeep | Unclosed,
    code: int | None,
    error_at: int | None,
    source: Source,
    target: Target,
) -> Any:
    """A parser that goes on where the parse stopped, outside any game, when that loses
    nothing (else ``None``): a game's start tag nested too deep (games never nest, so what
    encloses it is elements of games reported already, or damage outside any game) is read
    there; an end tag that a game reported as not closed leaves unmatched (``</games>``) is read
    there, the game's element closed.  The fresh parser is given the elements outside games."""
    if target.game is not None or error_at is None:
        return None
    at = _outside_games_at(error, code, error_at, source, target)
    if at is None:
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
    parser = make_parser(target)
    target.restart(parser, pos, prefix)
    source.prefix = prefix.encode("utf-8")
    return parser


def _outside_games_at(
    error: ParseError | TooDeep | Unclosed,
    code: int | None,
    error_at: int,
    source: Source,
    target: Target,
) -> int | None:
    """Where ``_resume_outside_games`` goes on, if it does: a game's start tag nested too deep,
    or the end tag that a game not closed leaves unmatched."""
    if isinstance(error, TooDeep):
        if not error.game or error_at <= target.resumed_at:  # (never where this parser began)
            return None
        return error_at
    if code != _TAG_MISMATCH or not target.unclosed:
        return None
    end_tag = source.end_tag_at(error_at)
    if end_tag is None:
        return None
    at, qname = end_tag
    if qname.rsplit(b":", 1)[-1].decode("utf-8", "replace") not in map(local, target.outer):
        return None  # not an end tag of the elements around the game: more damage
    return at


def _discard(parser: Any, error: BaseException) -> None:
    """Break the reference cycles of a parser that failed, as ``XMLParser.close`` does for one
    that ends: with the GC thresholds of the CLI, a thousand dead parsers (and their buffers)
    would otherwise wait for a collection (100 MB for a file of long enclosing tags)."""
    for name in ("parser", "_parser", "target", "_target"):
        if hasattr(parser, name):
            delattr(parser, name)
    error.__traceback__ = None  # (its frames hold the parser, in a cycle of their own)
    error.__context__ = None
