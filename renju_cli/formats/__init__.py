"""Record formats: one module per format, and detection.

Every format module defines:

- ``NAME``: the format's name (``--input-format`` value);
- ``EXTENSIONS``: file extensions that suggest it (used only when content is not decisive);
- ``sniff(head: bytes) -> int``: how sure it is that a file starting with ``head`` is of this
  format: 0 (no), 1 (possible), 2 (sure);
- ``read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]``: yield every
  record of the file, never raising on bad content (problems go into ``Record.problems``); records
  are numbered from 0 in ``source.index``.

Writers (for ``renju convert``) define ``write(records: Iterable[Record], out: TextIO) -> None``.
"""

from __future__ import annotations

import codecs
import dataclasses
import encodings
import functools
import importlib
import io
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from encodings.aliases import aliases as _ALIASES
from types import ModuleType
from typing import Any, BinaryIO, cast, overload

import renju_cli.limits as limits
from renju_cli.memo import remember
from renju_cli.record import (
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
    same_events,
    shipped_rule_names,
)
from renju_cli.record import special_kind as special_kind

#: Format name -> module, in the order detection tries them.
FORMAT_MODULES: dict[str, str] = {
    "renjunet": "renju_cli.formats.renjunet",
    "renlib": "renju_cli.formats.renlib",
    "sgf": "renju_cli.formats.sgf",
    "psq": "renju_cli.formats.psq",
    "rec": "renju_cli.formats.rec",
    "gomocup-openings": "renju_cli.formats.gomocup_openings",
    "playok": "renju_cli.formats.playok",
    "pos": "renju_cli.formats.pos",
    "jsonl": "renju_cli.formats.jsonl",
    "diagram": "renju_cli.formats.diagram",
    "notation": "renju_cli.formats.notation",
}

#: The format of a file whose content no reader recognizes and whose extension several claim.
PLAIN_FORMAT = "notation"

#: How many bytes detection looks at.
HEAD_BYTES = 4096


@dataclass(frozen=True)
class ReadOptions:
    """Options every reader accepts.  The bounds' defaults, and why each is there, are in
    ``renju_cli.limits``; ``--limit NAME=N`` lowers them (``limits.OPTIONS``)."""

    #: Text encoding to try first for text in the file (comments, names); readers fall back to
    #: a tolerant decoding, they never fail on undecodable bytes.
    encoding: str | None = None
    #: Board size to assume when the format does not say (move lists).
    board_size: int = 15
    #: Bounds on one record, and on what a file is read whole for.
    max_moves: int = limits.MOVES
    max_records: int = limits.HUGE
    max_depth: int = limits.DEPTH
    max_string: int = limits.STRING
    max_file: int = limits.WHOLE_FILE
    #: The moves all records of one file hold together (variation trees repeat them).
    moves_per_byte: int = limits.MOVES_PER_BYTE
    moves_allowance: int = limits.MOVES_ALLOWANCE
    #: Records of one file by its size (``for_file``): the allowance plus one per
    #: ``bytes_per_record`` bytes (0: no bound by size, ``max_records`` alone).
    records_allowance: int = limits.RECORDS_ALLOWANCE
    bytes_per_record: int = limits.BYTES_PER_RECORD
    #: The size of the file ``max_records`` was set for by ``for_file`` (for its message).
    sized_for: int | None = None
    #: Opening events of one file's records (``bound_events``), by its size as records are.
    max_events: int = limits.HUGE
    events_allowance: int = limits.EVENTS_ALLOWANCE
    bytes_per_event: int = limits.BYTES_PER_EVENT
    #: Distinct openings of one file whose protocol is followed (``limits.bound_walks``).
    max_walks: int = limits.HUGE
    walks_allowance: int = limits.WALKS_ALLOWANCE
    bytes_per_walk: int = limits.BYTES_PER_WALK
    #: XML syntax errors of one RenjuNet database after which reading resumes.
    max_resyncs: int = limits.HUGE
    resyncs_allowance: int = limits.RESYNCS_ALLOWANCE
    bytes_per_resync: int = limits.BYTES_PER_RESYNC
    #: The run's bounds, carried to whoever makes the run's ``limits.Judgements``: double-three
    #: judgements, opening-walk steps and findings listed, each an allowance plus so many per
    #: record (``--limit judgements=N`` and the like set it to N, no more by records).
    max_judgements: int = limits.HUGE
    judgements_allowance: int = limits.JUDGEMENTS_ALLOWANCE
    records_per_judgement: int = limits.RECORDS_PER_JUDGEMENT
    max_walk_steps: int = limits.HUGE
    walk_steps_allowance: int = limits.WALK_STEPS_ALLOWANCE
    walk_steps_per_record: int = limits.WALK_STEPS_PER_RECORD
    max_listed: int = limits.HUGE
    listed_allowance: int = limits.LISTED_ALLOWANCE
    listed_per_record: int = limits.LISTED_PER_RECORD
    #: The line number of the stream's first line: line-based readers (move lists, JSON Lines)
    #: read a slice of a big file in a worker process and still number lines as in the file.
    first_line: int = 1
    #: The stream is the file recoded to UTF-8 (``Recoded``: it was UTF-16 or UTF-32), so a
    #: charset named inside it (SGF ``CA``) no longer says how its text is written.
    recoded: bool = False

    def move_budget(self, nbytes: int) -> int:
        """The moves the records of a file of ``nbytes`` bytes may hold together."""
        return self.moves_allowance + self.moves_per_byte * max(nbytes, 0)

    def for_file(self, nbytes: int) -> ReadOptions:
        """These options for a file of ``nbytes`` bytes: ``max_records`` lowered to what its
        size allows (``records_allowance`` + one per ``bytes_per_record`` bytes)."""
        if self.sized_for is not None:
            return self
        changes: dict[str, Any] = {}
        events = _by_size(self.events_allowance, self.bytes_per_event, nbytes, self.max_events)
        if events is not None:
            changes["max_events"] = events
        walks = _by_size(self.walks_allowance, self.bytes_per_walk, nbytes, self.max_walks)
        if walks is not None:
            changes["max_walks"] = walks
        resyncs = _by_size(self.resyncs_allowance, self.bytes_per_resync, nbytes, self.max_resyncs)
        if resyncs is not None:
            changes["max_resyncs"] = resyncs
        records = _by_size(self.records_allowance, self.bytes_per_record, nbytes, self.max_records)
        if records is not None:
            changes.update(max_records=records, sized_for=nbytes)
        return dataclasses.replace(self, **changes) if changes else self

    def for_format(self, fmt: str) -> ReadOptions:
        """These options for a file of format ``fmt``, once sized by ``for_file``: the bound on
        records of a format whose real files pack records tighter (``DENSE_RECORDS``) is
        counted with its density (a bound given, or a density of the caller's, stays)."""
        dense = DENSE_RECORDS.get(fmt)
        if (
            dense is None
            or self.sized_for is None
            or self.bytes_per_record != ReadOptions.bytes_per_record
        ):
            return self
        bound = min(self.records_allowance + self.sized_for // dense, ReadOptions.max_records)
        return dataclasses.replace(self, max_records=bound, bytes_per_record=dense)

    def too_many_events(self) -> str:
        """Why a record's opening events were not read (``bound_events``)."""
        said = f"the file's records hold more than {self.max_events} opening events in all"
        if self.bytes_per_event > 0 and self.max_events < ReadOptions.max_events:
            said += _size_terms(
                self.events_allowance,
                self.bytes_per_event,
                "events",
                ", an offered point counting as one",
            )
        return said

    def too_many_walks(self) -> str:
        """Why a record's opening protocol was not followed (``limits.bound_walks``)."""
        said = f"the file holds more than {self.max_walks} distinct openings to follow"
        if self.bytes_per_walk > 0 and self.max_walks < ReadOptions.max_walks:
            said += _size_terms(self.walks_allowance, self.bytes_per_walk, "walks")
        return said

    def too_many_resyncs(self, what: str) -> str:
        """Why the rest of a RenjuNet database is not read (``what``: the errors counted)."""
        said = f"more than {self.max_resyncs} {what}"
        if self.bytes_per_resync > 0 and self.max_resyncs < ReadOptions.max_resyncs:
            said += _size_terms(self.resyncs_allowance, self.bytes_per_resync, "resyncs")
        return said

    def too_many(self, what: str = "records") -> str:
        """The problem of a file with more than ``max_records`` records (``what``: how its
        format calls them), saying why when the bound comes from the file's size."""
        said = f"more than {self.max_records} {what}"
        if self.sized_for is not None:
            said += (
                f" in a file of {self.sized_for} bytes (at most {self.records_allowance} + one "
                f"per {self.bytes_per_record} bytes; --limit records=N sets the bound)"
            )
        return said


def _by_size(allowance: int, per: int, nbytes: int, bound: int) -> int | None:
    """``allowance`` + one per ``per`` bytes of a file of ``nbytes`` bytes, when that is below
    ``bound`` (``None`` otherwise, and when ``per`` is 0: no bound by size)."""
    if per <= 0:
        return None
    sized = allowance + max(nbytes, 0) // per
    return sized if sized < bound else None


def _size_terms(allowance: int, per: int, limit: str, counting: str = "") -> str:
    """How a bound by a file's size is counted, for the finding of what is past it."""
    return (
        f" (at most {allowance} + one per {per} bytes of the file{counting}; --limit {limit}=N "
        "sets the bound)"
    )


#: Formats whose real files pack records tighter (``limits.DENSE_RECORDS``).
DENSE_RECORDS = limits.DENSE_RECORDS


def event_weight(events: Sequence[OpeningEvent]) -> int:
    """What ``events`` weigh against a file's bound on opening events: one each, and one per
    point they offer."""
    return len(events) + sum(len(e.points) for e in events)


def bound_events(records: Iterator[Record], options: ReadOptions) -> Iterator[Record]:
    """``records`` with their opening events counted against ``options.max_events``: past it,
    a record's events are not read (its problem says so) and its opening is checked without
    them.  A record whose events are the very objects of the record before (the lines of a
    variation tree, games of the same swap flags) costs nothing more: the opening check's
    index of them is made once."""
    left = options.max_events
    last: list[OpeningEvent] = []
    for record in records:
        events = record.opening_events
        if events and not same_events(events, last):
            weight = event_weight(events)
            if weight > left:
                record.problems.append(
                    ParseProblem(
                        f"{len(events)} opening events (swaps, choices, offers) not read: "
                        f"{options.too_many_events()}; the opening is checked without them",
                        line=record.source.line,
                    )
                )
                record.opening_events = []
                events = []
            else:
                left -= weight
        last = events
        yield record


#: Characters of a tree line's text that count as one move (``limits.TEXT_PER_MOVE``).
TEXT_PER_MOVE = limits.TEXT_PER_MOVE


def text_cost(record: Record) -> int:
    """What the text of a line of a variation tree costs against the file's move budget: its
    metadata, notes, declared result and the words of its problems, which every line of the
    tree repeats (a long ``RE`` over thousands of leaves would make a report of gigabytes)."""
    # (``map``: no generator frame, for each line of a tree)
    chars = sum(map(len, record.metadata.values())) + sum(map(len, record.notes))
    declared = record.declared_result
    if declared is not None:
        chars += len(declared.text or "") + len(declared.reason or "")
    if record.problems:
        chars += sum(len(p.message) for p in record.problems)
    return chars // TEXT_PER_MOVE


def budget_terms(options: ReadOptions) -> str:
    """How the move budget of a file is counted, for the finding that refuses a tree past it."""
    return (
        f"{options.moves_per_byte} per byte of the file + {options.moves_allowance}; "
        f"{TEXT_PER_MOVE} characters of text count as a move"
    )


class _LazyPattern:
    """``re.compile(pattern, flags)``, compiled at its first use (``lazy_compile``)."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # (called for what this object does not hold yet: the compiled pattern's method is
        # kept as its own, and later calls cost what they cost on the pattern itself)
        value = getattr(re.compile(self.pattern, self._flags), name)
        setattr(self, name, value)
        return value


@overload
def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]: ...
@overload
def lazy_compile(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]: ...
def lazy_compile(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """``re.compile(pattern, flags)`` done at the pattern's first use, for the expressions a
    reader alone uses: detection imports every reader (for its ``sniff``), and a run on another
    format need not compile them at start-up.  What it gives is no
    ``re.Pattern`` (``isinstance`` says so, ``re.sub`` does not take it): only its methods and
    ``pattern`` are for use."""
    return cast("re.Pattern[Any]", _LazyPattern(pattern, flags))


def one_line(json_text: str) -> str:
    """``json_text`` (a JSON value, non-ASCII as is) with NEL, LINE SEPARATOR and PARAGRAPH
    SEPARATOR escaped, as the same JSON: a JSON Lines record must read as one line to a
    consumer that splits text at every line break (``str.splitlines``: a record quoting a
    Latin-1 byte 0x85 would be two lines to it)."""
    # (searches in C: ``translate`` would map every character of every record)
    if json_text.isascii() or not (
        "\x85" in json_text or "\u2028" in json_text or "\u2029" in json_text
    ):
        return json_text
    return (
        json_text.replace("\x85", "\\u0085")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def lf_line_ends(text: str) -> str:
    """``text`` with its CR LF and CR line ends made LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def text_lines(text: str) -> list[str]:
    """The lines of ``text`` as a file numbers them: ended at LF, CR LF or CR only
    (``str.splitlines`` also ends them at form feeds, NEL, U+2028 and the like, which a
    comment or a name decoded as Latin-1 may hold, and line numbers drifted)."""
    lines = lf_line_ends(text).split("\n")
    if lines[-1] == "":
        lines.pop()  # (the end of the last line, as ``splitlines`` takes it)
    return lines


def clip(text: str, limit: int = 40) -> str:
    """A piece of a file as a message quotes it: its start when it is long."""
    return text if len(text) <= limit else text[:limit] + "..."


def text_codec(name: str | None) -> str | None:
    """The codec name of ``name`` when it is a text encoding, else ``None``; never raises.

    Encoding names come from files (SGF ``CA``, an XML declaration) and from users, so they may be
    unknown, hold a NUL (``ValueError`` from ``codecs.lookup``) or name a bytes-to-bytes codec
    (``zlib``, ``base64``), whose ``bytes.decode`` raises ``LookupError``.
    """
    info = lookup_codec(name)
    if info is None or not getattr(info, "_is_text_encoding", True):
        return None
    return info.name


def lookup_codec(name: str | None) -> codecs.CodecInfo | None:
    """``codecs.lookup(name)``, or ``None`` for a name Python knows no codec by; never raises.

    Remembered (a file names its charset in every game), and asked of Python only under a
    name that the standard library's codecs answer to: ``codecs.lookup`` tries to import a
    module for every new name and remembers the name for the life of the process, known or
    not (``encodings._cache``), so a file naming a new charset in every game would grow the
    process for good.  Asked under its normal spelling (as
    ``codecs.lookup`` spells it), so that the spellings of one name are one.  So a codec that a
    program registers (``codecs.register``) is not known by name here, nor by the readers.
    """
    if not name:
        return None
    if len(name) > _CODEC_NAME_KEPT:
        return _lookup_known(name)  # (not kept: long keys would make the memo big)
    hit = _CODECS.get(name)
    if hit is None:
        hit = remember(_CODECS, name, (_lookup_known(name),), _CODECS_KEPT)
    return hit[0]


def _lookup_known(name: str) -> codecs.CodecInfo | None:
    if "\x00" in name or (not name.isascii() and _has_surrogates(name)):
        return None  # (refused by ``codecs.lookup`` as it is, before any spelling)
    # (as ``codecs.lookup`` spells it for the search functions: lower case, and each run of
    # anything but ASCII letters, digits and "." one "_", none first or last; then aliases)
    if not name.isascii():
        name = "".join(c if c.isascii() else " " for c in name)
    norm = encodings.normalize_encoding(name).lower()
    if not norm or (
        norm not in _ALIASES
        and norm.replace(".", "_") not in _ALIASES
        and norm not in _encoding_modules()
    ):
        return None
    try:
        return codecs.lookup(norm)
    except (LookupError, ValueError, TypeError):
        return None


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


@functools.cache
def _encoding_modules() -> frozenset[str]:
    """The modules of the ``encodings`` package: the codecs named by no alias."""
    import pkgutil

    return frozenset(m.name for m in pkgutil.iter_modules(encodings.__path__))


#: ``lookup_codec``'s answers by the name asked (in a tuple: ``None`` is an answer)
_CODECS: dict[str, tuple[codecs.CodecInfo | None]] = {}
_CODECS_KEPT = 1024
_CODEC_NAME_KEPT = 64


def numbered_swaps(flags: str) -> list[OpeningEvent]:
    """RenjuNet's swap flags (its ``swap`` attribute; JSON Lines ``swaps``): one decision per
    character, ``-`` declined, anything else a swap.  How many stones stood at each opportunity
    depends on the protocol, which readers do not apply, so ``after`` is -1 and ``value`` is the
    opportunity's 1-based number (``opening`` maps them)."""
    global _LAST_SWAPS
    flags = "".join(flags.split())
    last = _LAST_SWAPS
    if last is None or last[0] != flags:
        # (the games of a database often hold the same flags: the events are made once and
        # shared, so that the opening check finds its index of them made already)
        made = tuple(
            OpeningEvent("no-swap" if ch == "-" else "swap", -1, str(i))
            for i, ch in enumerate(flags, start=1)
        )
        last = _LAST_SWAPS = (flags, made)
    return list(last[1])


#: The flags ``numbered_swaps`` read last and their events (never changed once made).
_LAST_SWAPS: tuple[str, tuple[OpeningEvent, ...]] | None = None


def swap_flags(events: list[OpeningEvent]) -> str | None:
    """The flags ``numbered_swaps`` reads back as ``events`` (numbered decisions only, 1 to n
    in order), else ``None``."""
    if not events:
        return None
    flags = []
    for i, e in enumerate(events, start=1):
        if e.after != -1 or e.kind not in ("swap", "no-swap") or e.value != str(i) or e.points:
            return None
        flags.append("-" if e.kind == "no-swap" else "s")
    return "".join(flags)


@functools.cache
def shipped_by_lower_name() -> dict[str, str]:
    """The shipped rulesets' names by their lower-case form (a record's ``Freestyle``)."""
    return {n.lower(): n for n in shipped_rule_names()}


@functools.lru_cache(maxsize=64)
def ascii_compatible(codec: str) -> bool:
    """Whether ``codec`` writes the ASCII characters of records as ASCII bytes (not UTF-16,
    UTF-32 or EBCDIC), and never reads the markup characters ``<>&"'=`` as the second byte of
    a character: text files are cut into lines and records as bytes, then decoded, and XML is
    parsed as decoded."""
    # (with "+" and "~": UTF-7 and HZ write the rest of ASCII as it is, but not these)
    sample = (
        '\n\r\t h8 {[<>]}"=,.;:-+~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
    )
    try:
        if sample.encode(codec) != sample.encode("ascii"):
            return False
    except (UnicodeError, LookupError, ValueError):
        return False
    # Johab's second bytes may be "<", "=" or ">": a byte of a name in another charset would
    # take the "<" of the tag after it, a false syntax error; shift_jis, big5, gbk... take none
    # of these (their "]" and "\\" the SGF reader knows)
    return not any(
        _second_byte(bytes((lead, ch)), codec) for lead in range(0x80, 0x100) for ch in b"<>&\"'="
    )


def _second_byte(pair: bytes, codec: str) -> bool:
    """Whether ``codec`` reads the two bytes ``pair`` as one character."""
    try:
        return len(pair.decode(codec)) == 1
    except (UnicodeError, LookupError, ValueError):
        return False


def text_options(options: ReadOptions) -> ReadOptions:
    """``options`` for a text format's reader: an encoding that is not ASCII-compatible
    (``renju check`` refuses it; the library may be given one) is not used to decode lines."""
    codec = text_codec(options.encoding)
    if options.encoding and (codec is None or not ascii_compatible(codec)):
        return dataclasses.replace(options, encoding=None)
    return options


def decode_text(raw: bytes, *encodings: str | None, last_resort: str = "utf-8") -> str:
    """``raw`` decoded with the first of ``encodings`` that decodes it strictly, else with
    ``last_resort`` and U+FFFD for bad bytes.  Never raises (``idna`` and friends raise
    ``UnicodeError``, which is not a ``UnicodeDecodeError``).
    """
    for name in encodings:
        codec = text_codec(name)
        if codec is None:
            continue
        try:
            return raw.decode(codec)
        except (UnicodeError, LookupError, ValueError):
            continue
    return raw.decode(last_resort, errors="replace")


def load(name: str) -> ModuleType:
    """The module of format ``name`` (imported on first use, to keep start-up fast)."""
    try:
        return importlib.import_module(FORMAT_MODULES[name])
    except KeyError:
        raise ValueError(f"unknown format {name!r}; known: {', '.join(FORMAT_MODULES)}") from None


def available() -> list[str]:
    """Names of the formats whose reader is present."""
    out = []
    for name, mod in FORMAT_MODULES.items():
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError:
            continue
        out.append(name)
    return out


def detect(head: bytes, path: str) -> str | None:
    """Guess the format of a file from its first bytes, then its extension."""
    ext = os.path.splitext(path)[1].lower()
    # a UTF-8 byte order mark (Notepad's "UTF-8 with BOM") says nothing of the format: the
    # sniffers look past it, and the text readers skip it (no binary format begins with it)
    head = head.removeprefix(codecs.BOM_UTF8)
    best: tuple[int, int, int] | None = None
    best_name: str | None = None
    for order, name in enumerate(available()):
        mod = load(name)
        score = int(mod.sniff(head))
        if score <= 0:
            continue
        # content first, extension second, then the fixed order of FORMAT_MODULES
        key = (score, 1 if ext in mod.EXTENSIONS else 0, -order)
        if best is None or key > best:
            best, best_name = key, name
    if best_name is not None:
        return best_name
    claimed = [name for name in available() if ext in load(name).EXTENSIONS]
    if len(claimed) > 1 and PLAIN_FORMAT in claimed:
        # several text formats use ``.txt``: what none of them recognizes is read as a move
        # list, whose reader says line by line what is not a move (and skips ``#`` comments)
        return PLAIN_FORMAT
    return claimed[0] if claimed else None


def detect_file(head: bytes, path: str) -> str | None:
    """The format of a file that starts with ``head`` (``detect``), recoded first when it is
    UTF-16 or UTF-32 text, or has classic Mac line ends (``recoding``): what ``read_stream``
    reads it as."""
    fmt = detect(head, path)
    how = recoding(head)
    if how is not None and (
        fmt not in RAW_FORMATS or load(fmt).sniff(head) < (2 if how in GUESSED else 1)
    ):
        # a text file: its recoded text tells (a UTF-16 head without byte order mark looked
        # like a .pos position, its count and pairs of small numbers); a binary format sure of
        # its head stays (a RenLib library of long lines has a zero byte in every other place,
        # and named .txt it would be taken for UTF-16), and one that its head shows at all
        # stays under a byte order mark (not one named by the extension alone: an SGF game
        # saved as UTF-16 and named .pos is SGF)
        recoded = detect(_recoded_head(head, how), path)
        if fmt not in RAW_FORMATS or recoded not in RAW_FORMATS | {None}:
            fmt = recoded
    return fmt


def read_stream(
    stream: BinaryIO,
    path: str,
    fmt: str | None = None,
    options: ReadOptions | None = None,
) -> Iterator[Record]:
    """Yield the records of one file, detecting its format unless ``fmt`` is given.

    A file that matches no format, or in which the reader finds no record (blank lines, an
    empty ``<games>``, comments only), yields one unreadable record with a ``parse-error``
    problem: a file that held nothing to check must not pass a batch as clean.
    """
    opts = options or ReadOptions()
    head = _peek(stream) if fmt not in RAW_FORMATS else b""
    how = recoding(head)
    if fmt is None:
        fmt = detect_file(head, path)
        if fmt is None:
            yield unreadable(path, "matches no known record format", offset=0)
            return
    if how is not None and fmt not in RAW_FORMATS:
        stream = io.BufferedReader(Recoded(stream, how))
        if how != "mac":  # its text is UTF-8 now, whatever --encoding or the file says
            opts = dataclasses.replace(opts, encoding="utf-8", recoded=True)
    if fmt not in RAW_FORMATS:
        opts = text_options(opts)
    opts = opts.for_format(fmt)
    records = bound_events(load(fmt).read(stream, path, opts), opts)
    first = next(records, None)
    if first is None:
        yield unreadable(path, no_record_message(fmt))
        return
    yield first
    yield from records


#: Formats whose readers take the file's own bytes: binary layouts, and XML, whose parser reads
#: a byte order mark and an encoding declaration itself.
RAW_FORMATS = frozenset({"renlib", "pos", "renjunet"})


def recoding(head: bytes) -> str | None:
    """How a text file that starts with ``head`` must be recoded for the text readers, which
    read UTF-8 (or ``--encoding``) lines: the codec of a UTF-16 or UTF-32 byte order mark (a
    file saved as "Unicode" by Windows Notepad), ``"mac"`` for classic Mac OS line ends (CR
    alone), else ``None``."""
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    without_bom = _utf16_without_bom(head)
    if without_bom is not None:
        return without_bom
    # a CR followed by something else than LF (a CR that ends the head may be half of a CR LF)
    if b"\n" not in head and _MAC_LINE_END.search(head):
        return "mac"
    return None


def _utf16_without_bom(head: bytes) -> str | None:
    """``"utf-16-le"`` or ``"utf-16-be"`` when ``head`` is text of that encoding written
    without a byte order mark (a NUL beside nearly every character: records are ASCII), else
    ``None``.  Read as UTF-8, such a file gave a record per line, or a NUL record more."""
    pairs = len(head) // 2
    if pairs < 4:
        return None
    odd, even = head[1 : 2 * pairs : 2].count(0), head[0 : 2 * pairs : 2].count(0)
    if odd * 10 >= pairs * 9 and even * 10 <= pairs:
        return "utf-16-le"
    if even * 10 >= pairs * 9 and odd * 10 <= pairs:
        return "utf-16-be"
    return None


#: The recodings ``recoding`` guesses (no byte order mark says them): a binary format that
#: sniffs such a head yields to the text format the recoded head shows.
GUESSED = frozenset({"utf-16-le", "utf-16-be"})

_MAC_LINE_END = re.compile(rb"\r[^\n]")
#: A CR that no LF follows: a line end of its own (Mac OS before X; mixed into CR LF files).
_LONE_CR = re.compile(rb"\r(?!\n)")


def _recoded_head(head: bytes, how: str) -> bytes:
    """``head`` as ``Recoded`` gives it, for detection."""
    if how != "mac":
        head = codecs.getincrementaldecoder(how)("replace").decode(head).encode("utf-8", "replace")
    return _LONE_CR.sub(b"\n", head)


class Recoded(io.RawIOBase):
    """A text file read as UTF-8 with LF or CR LF line ends (see ``recoding``): decoded chunk
    by chunk as it is read (one read of the file at a time: a pipe's records come out as they
    arrive), so memory stays bounded; a CR alone becomes an LF.  Line numbers are the file's;
    byte offsets in findings count the recoded bytes (a UTF-16 file has no UTF-8 offsets of its
    own)."""

    def __init__(self, stream: BinaryIO, how: str) -> None:
        super().__init__()
        self._read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
        self._decoder = None if how == "mac" else codecs.getincrementaldecoder(how)("replace")
        self._pending = b""
        self._at = 0
        self._eof = False
        self._cr = b""  # a CR that ended the last chunk: an LF may follow in the next

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while self._at >= len(self._pending) and not self._eof:
            chunk = self._read(RECODE_CHUNK)
            self._eof = not chunk
            if self._decoder is not None:
                chunk = self._decoder.decode(chunk, final=self._eof).encode("utf-8", "replace")
            if self._cr:
                chunk, self._cr = self._cr + chunk, b""
            if not self._eof and chunk.endswith(b"\r"):
                chunk, self._cr = chunk[:-1], b"\r"
            self._pending = _LONE_CR.sub(b"\n", chunk) if b"\r" in chunk else chunk
            self._at = 0
        n = min(len(buffer), len(self._pending) - self._at)
        buffer[:n] = self._pending[self._at : self._at + n]
        self._at += n
        return n


#: Bytes of the file ``Recoded`` decodes at a time.
RECODE_CHUNK = 1 << 16


def read_whole(stream: BinaryIO, options: ReadOptions) -> bytes | None:
    """The whole file for a reader that parses it at once, or ``None`` when it holds more than
    ``options.max_file`` bytes (``too_long`` is its record); never more is read."""
    # a chunk at a time: ``read(n)`` sets n bytes aside before it reads any
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(min(READ_CHUNK, options.max_file + 1 - size)):
        size += len(chunk)
        if size > options.max_file:
            return None
        chunks.append(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


#: Bytes ``read_whole`` reads at a time.
READ_CHUNK = 1 << 20


def too_long(path: str, fmt: str, options: ReadOptions) -> Record:
    """The unreadable record of a file longer than ``options.max_file`` (see ``read_whole``)."""
    return unreadable(
        path,
        f"the file is longer than {options.max_file} bytes, the limit for a format read whole "
        f"({fmt}): not read",
        offset=options.max_file,
    )


def too_many_records(path: str, index: int, line: int | None, options: ReadOptions) -> Record:
    """The unreadable record that stands for the rest of a file past ``max_records`` (``index``
    and ``line``: where the record one too many starts)."""
    where = f"line {line}: " if line is not None else ""
    return unreadable(
        path,
        f"{where}{options.too_many()}; the rest is not read",
        index=index,
        line=line,
    )


def no_record_message(fmt: str) -> str:
    """The problem of a file in which the ``fmt`` reader found no record."""
    return f"{NO_RECORD} (read as {fmt}): nothing to check"


#: How ``no_record_message`` starts.
NO_RECORD = "no record found"


def found_nothing(record: Record) -> bool:
    """Whether ``record`` is the one ``read_stream`` gives for a file in which its reader
    found no record (it is then the file's only record)."""
    problems = record.problems
    return (
        record.unreadable
        and len(problems) == 1
        and problems[0].message.startswith(f"{NO_RECORD} (read as ")
        and record.source.index == 0
    )


def _peek(stream: BinaryIO) -> bytes:
    peek = getattr(stream, "peek", None)
    if peek is not None:
        head: bytes = peek(HEAD_BYTES)[:HEAD_BYTES]
        return head
    try:
        pos = stream.tell()
        head = stream.read(HEAD_BYTES)
        stream.seek(pos)
    except (OSError, ValueError):  # io.UnsupportedOperation: a pipe given as it is
        return b""
    return head


def unreadable(
    path: str, message: str, index: int = 0, line: int | None = None, offset: int | None = None
) -> Record:
    """A record that stands for something that could not be read at all."""
    return Record(
        moves=[],
        source=SourceLocation(path, index, line, offset),
        problems=[ParseProblem(message, line=line, offset=offset, fatal=True)],
        format="unknown",
    )
