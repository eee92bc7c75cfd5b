"""JSON Lines records: one JSON object per line, standard notation inside.

This is what ``renju convert --to jsonl`` writes and what scripts can produce easily::

    {"moves": "h8 h9 i8", "result": "black", "rule": "renju", "size": 15,
     "metadata": {"black": "A", "white": "B"}, "offers": ["j10", "k7"], "source": {...}}

``moves``, which every line must have (a line without it, or with ``null``, a number, an object
or a boolean in it, is unreadable: ``{"Moves": ...}`` is no game of no moves), is a string in
standard notation (with the opening extension of the notation format) or a list of points;
``result`` a winner word or ``{"winner": ..., "reason": ...}``; ``swaps`` RenjuNet's swap flags
(``"s-s"``: swapped, declined, swapped at the protocol's 1st, 2nd and 3rd opportunities),
decisions a database records without the move they came after.  A line whose arrays and objects
nest deeper than ``MAX_JSON_DEPTH`` is unreadable, whatever the caller's stack (``--limit depth``
bounds other formats: real records nest two or three deep, and a lower bound for XML or SGF
must not turn them away).
"""

from __future__ import annotations

import codecs
import json
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, islice
from typing import Any, BinaryIO, TextIO, TypeVar

import renju_cli.limits as limits
from renju_cli.coords import MAX_SIZE, MIN_SIZE, parse_point
from renju_cli.formats import (
    ReadOptions,
    clip,
    numbered_swaps,
    one_line,
    shipped_by_lower_name,
    swap_flags,
    too_many_records,
)
from renju_cli.formats.notation import parse_moves, unwritable, write_record
from renju_cli.record import (
    DeclaredResult,
    Move,
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
)
from renju_cli.results import not_understood, read_result, understood

NAME = "jsonl"
#: Swap flags read from ``swaps`` at most (a protocol has a handful of opportunities).
_MAX_SWAP_FLAGS = 4096
EXTENSIONS = (".jsonl", ".ndjson")
#: Arrays and objects inside one another that a line may hold at most (``limits.JSON_DEPTH``):
#: a deeper line is refused (``_decode``) and nothing deeper ever reaches the encoder, whatever
#: room the caller's stack leaves (see ``_roomy``).
MAX_JSON_DEPTH = limits.JSON_DEPTH


def sniff(head: bytes) -> int:
    """2 when the first line is a JSON object with a ``moves`` key."""
    first = head.lstrip().split(b"\n", 1)[0]
    if not first.startswith(b"{"):
        return 0
    maybe = 1 if b'"moves"' in first else 0
    try:
        # decoded as json.loads decodes bytes: the head of a UTF-16 file is scanned as its text
        text = first.decode(json.detect_encoding(first), "surrogatepass")
        if _nests_deeper(text.encode("utf-8", "surrogatepass"), MAX_JSON_DEPTH):
            return maybe
        obj = _roomy(json.loads, text)
    except (ValueError, RecursionError):  # cut by the head
        return maybe
    return 2 if isinstance(obj, dict) and "moves" in obj else 0


def record_from_json(
    obj: Any, path: str, index: int, line: int, options: ReadOptions | None = None
) -> Record:
    """Build a record from one decoded JSON object (problems go into the record); an object
    nested deeper than a line may be is refused as ``read`` refuses the line."""
    options = options or ReadOptions()
    if _value_nests_deeper(obj, MAX_JSON_DEPTH):
        return _bad_line(path, index, line, f"not valid JSON: {_too_deep(MAX_JSON_DEPTH)}")
    return _record(obj, path, index, line, options)


def _record(obj: Any, path: str, index: int, line: int, options: ReadOptions) -> Record:
    """``record_from_json`` of an object nested no deeper than ``MAX_JSON_DEPTH`` (``read``
    checked its line), which the encoder can write back for a message or a metadata field."""
    unreadable = _unreadable(obj)
    if unreadable is not None:
        return _bad_line(path, index, line, unreadable)
    # the fields are gathered first and the record built once, positionally (see Record)
    problems: list[ParseProblem] = []
    notes: list[str] = []
    moves, events = _moves(obj["moves"], line, options.max_moves, problems)
    width = _size(obj.get("size"), line, problems)
    declared = _declared(obj.get("result"), line, problems)
    rule = _rule(obj.get("rule") or obj.get("rules") or obj.get("ruleset"), line, notes)
    opening = _string(obj.get("opening"))
    metadata = _metadata(obj.get("metadata"))
    events.extend(_swaps(obj.get("swaps"), line, notes, problems))
    events.extend(_offers(obj.get("offers"), line, problems))
    return Record(  # positional (see Record): files of tiny records build hundreds of thousands
        moves, SourceLocation(path, index, line), width, width, declared, rule, opening,
        metadata, [], events, notes, problems, NAME,
    )  # fmt: skip


def _string(value: Any) -> str | None:
    """``value`` when it is a string (a field that must be one), else ``None``."""
    return value if isinstance(value, str) else None


def _metadata(meta: Any) -> dict[str, str]:
    """The fields of the ``metadata`` object as strings: one that is none becomes its JSON text."""
    if not isinstance(meta, dict):
        return {}
    return {k: v if isinstance(v, str) else _json_text(v) for k, v in meta.items()}


def _unreadable(obj: Any) -> str | None:
    """Why ``obj`` is no record at all (``None``: it is one)."""
    if not isinstance(obj, dict):
        return "expected a JSON object"
    if "moves" not in obj:
        # ``{"Moves": ...}``, ``{"move": ...}`` or ``{}`` read as a game of no moves would pass
        # as a clean record: what the line holds cannot be told, so it is unreadable
        return (
            "expected the key 'moves' (a string in standard notation or a list of points); "
            + _keys_of(obj)
        )
    text = obj["moves"]
    if isinstance(text, _LongNumber) or not isinstance(text, (str, list)):
        # null, a number, an object, a boolean: as unreadable as a line without the key (a
        # game of 0 moves with an error was judged, and its other fields with it)
        return (
            "expected the key 'moves' to be a string in standard notation or a list of points, "
            f"not {_number_or_json(text)}"
        )
    return None


def _moves(
    value: str | list[Any], line: int, limit: int, problems: list[ParseProblem]
) -> tuple[list[Move], list[OpeningEvent]]:
    """The moves and opening events of ``moves`` (a move list, or a list of points), at most
    ``limit`` moves."""
    try:
        # (no further than one move past the limit: a megabyte of moves held 75 MB at once)
        moves, events = parse_moves(_move_list(value), line, limit)
    except ValueError as e:
        problems.append(_moves_problem(str(e), line))
        return [], []
    if not line:  # parse_moves numbers moves from line 1 at least
        for m in moves:
            m.line = line
    if len(moves) > limit:
        problems.append(
            ParseProblem(
                f"line {line}: more than the limit of {limit} moves; the rest is ignored",
                line=line,
            )
        )
        del moves[limit:]
    return moves, events


def _move_list(value: str | list[Any]) -> str:
    """The move list of ``moves``: the string, or the points of the list (``ValueError`` when
    one is no string)."""
    if isinstance(value, str):
        return value
    if not all(isinstance(m, str) for m in value):
        raise ValueError("'moves' as a list must hold points as strings")
    return " ".join(value)


def _moves_problem(said: str, line: int) -> ParseProblem:
    """The problem of a move list the reader refused: it says "line N, column C", where C
    counts in the 'moves' string."""
    message = said.removeprefix(f"line {line}, ")
    at = "in 'moves', " if message != said else ""
    return ParseProblem(f"line {line}: {at}{message}", line=line)


def _size(size: Any, line: int, problems: list[ParseProblem]) -> int | None:
    """The board size ``size`` states, if it is one a board may have."""
    if size is None:
        return None
    # bool is an int in Python, and a board outside 5..26 cannot be replayed
    if type(size) is int and MIN_SIZE <= size <= MAX_SIZE:
        return size
    problems.append(
        ParseProblem(
            f"line {line}: 'size' must be a whole number from {MIN_SIZE} to {MAX_SIZE}, "
            f"not {_number_or_json(size)}; the ruleset's size is used",
            line=line,
        )
    )
    return None


def _rule(rule: Any, line: int, notes: list[str]) -> str | None:
    """The record's rule, a shipped ruleset's name when it names one (else a note)."""
    if not isinstance(rule, str):
        return None
    name, note = _shipped_rule(rule)
    if note:
        notes.append(f"line {line}: {note}")
    return name


def _swaps(
    swaps: Any, line: int, notes: list[str], problems: list[ParseProblem]
) -> list[OpeningEvent]:
    """The events of RenjuNet's swap flags (``"s-s"``), ``_MAX_SWAP_FLAGS`` at most."""
    if isinstance(swaps, str):
        if len(swaps) > _MAX_SWAP_FLAGS:
            notes.append(f"line {line}: swaps: more than {_MAX_SWAP_FLAGS} flags, the rest ignored")
        return numbered_swaps(swaps[:_MAX_SWAP_FLAGS])
    if swaps is not None:
        problems.append(
            ParseProblem(f"line {line}: swaps: expected a string of flags such as '-s'", line=line)
        )
    return []


def _offers(offers: Any, line: int, problems: list[ParseProblem]) -> list[OpeningEvent]:
    """The fifth-move offers of ``offers`` (a list of points)."""
    if not isinstance(offers, list):
        return []
    try:
        if not all(isinstance(p, str) for p in offers):
            raise ValueError("offers must be points as strings")
        pts = [parse_point(p) for p in offers]
    except ValueError as e:
        problems.append(ParseProblem(f"line {line}: offers: {e}", line=line))
        return []
    return [OpeningEvent("offers", 4, points=pts, line=line)]


def _shipped_rule(name: str) -> tuple[str, str | None]:
    """A record's rule as a shipped ruleset's name (``Freestyle`` is ``freestyle``), and a note
    when it names none (kept as written): the record is then judged under ``--rules`` or the
    default, which the report's ``ruleset`` shows, and the note says why."""
    known = shipped_by_lower_name().get(name.strip().lower())
    if known is not None:
        return known, None
    return name, (
        f"rule {clip(name)!r} names no shipped ruleset ('renju rules list'): judged under "
        "--rules, or the default"
    )


#: Keys named at most when a line has no ``moves`` (an object may have thousands).
_MAX_KEYS_SHOWN = 5


def _keys_of(obj: dict[str, Any]) -> str:
    """What keys an object has, for the message of a line without ``moves``: the first few,
    each clipped (keys are the file's text, of any length)."""
    if not obj:
        return "the object is empty"
    shown = ", ".join(repr(clip(key, 20)) for key in islice(obj, _MAX_KEYS_SHOWN))
    more = len(obj) - _MAX_KEYS_SHOWN
    return f"its keys are {shown}" + (f" and {more} more" if more > 0 else "")


def _declared(result: Any, line: int, problems: list[ParseProblem]) -> DeclaredResult | None:
    """The declared result of ``result``: words (``renju_cli.results``) or an object of a
    ``winner`` in words, a ``reason`` and the ``text`` as written (what ``write`` writes).
    Words not understood are an info problem quoting them."""
    if isinstance(result, str):
        return _result_words(result, line, problems)
    if not isinstance(result, dict):
        return None
    winner = result.get("winner")
    read = _result_words(winner, line, problems) if isinstance(winner, str) else None
    return DeclaredResult(
        None if read is None else read.winner,
        _string(result.get("reason")),
        _string(result.get("text")),
    )


def _result_words(words: str, line: int, problems: list[ParseProblem]) -> DeclaredResult | None:
    """The result ``words`` declare; words not understood are an info problem quoting them."""
    read = read_result(words)
    if read is not None and not understood(read):
        problems.append(_not_understood(words, line))
    return read


def _not_understood(words: str, line: int) -> ParseProblem:
    return ParseProblem(f"line {line}: {not_understood(words)}", line, None, False, "info")


def starts_record(raw: bytes, options: ReadOptions, after_record: bool = True) -> bool:
    """Whether the line ``raw`` (with its line end) is a record, as ``read`` reads it (see
    ``notation.starts_record``)."""
    return not raw.isspace() and bool(raw)


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """One record per non-empty line."""
    index = 0
    number = options.first_line - 1
    # readline with a bound: a file without line ends is never read into memory whole
    while raw := stream.readline(options.max_string + 1):
        number += 1
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)  # Notepad's "UTF-8 with BOM"
        if raw.isspace():
            continue
        if index >= options.max_records:
            yield too_many_records(path, index, number, options)
            return
        if len(raw) > options.max_string:
            _skip_rest_of_line(stream, raw, options.max_string)
            yield _bad_line(path, index, number, f"longer than {options.max_string} bytes")
        else:
            yield _line_record(raw, path, index, number, options)
        index += 1


def _skip_rest_of_line(stream: BinaryIO, raw: bytes, limit: int) -> None:
    """Read past the line ``raw`` began, ``limit`` bytes at a time."""
    while raw and not raw.endswith(b"\n"):
        raw = stream.readline(limit + 1)


def _line_record(raw: bytes, path: str, index: int, number: int, options: ReadOptions) -> Record:
    """The record of the line ``raw``, or its unreadable record when it is no JSON."""
    try:
        obj = _decode(raw)
    except ValueError as e:
        return _bad_line(path, index, number, f"not valid JSON: {e}")
    return _record(obj, path, index, number, options)


#: ``json.loads`` uses this decoder too when given no options.
class _LongNumber(str):
    """The digits of a JSON integer too long for ``int`` (Python refuses to convert more than
    4,300 digits): a number no field takes, kept as its text so that the record is still
    read and the field's own message says what is wrong."""


def _integer(digits: str) -> int | str:
    return int(digits) if len(digits) <= 4000 else _LongNumber(digits)


_DECODER = json.JSONDecoder(parse_int=_integer)


def _decode(raw: bytes) -> Any:
    """The value of one line, or ``ValueError`` saying why there is none: a line nested deeper
    than ``MAX_JSON_DEPTH`` is refused, whatever room the decoder found for it."""
    try:
        obj = _roomy(_loads, raw.decode("utf-8", errors="replace"))
    except RecursionError:  # not even with the room the bound needs: no crash, a refusal
        raise ValueError(_too_deep(MAX_JSON_DEPTH)) from None
    # Decoded, the line is JSON: its brackets outside strings tell its depth exactly.  (Told
    # after the decoder, so that a broken line says what the decoder says of it, as before the
    # bound: brackets past where it stops would have said "nested too deeply".  A line of no
    # more bytes than the bound cannot open more arrays and objects.)
    if len(raw) > MAX_JSON_DEPTH and _nests_deeper(raw, MAX_JSON_DEPTH):
        raise ValueError(_too_deep(MAX_JSON_DEPTH))
    return obj


def _too_deep(depth: int) -> str:
    return f"nested too deeply (arrays and objects deeper than {depth} levels)"


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _nests_deeper(raw: bytes, depth: int) -> bool:
    """Whether the arrays and objects of a JSON text nest deeper than ``depth`` (the deepest
    the decoder would go), told without recursion: brackets outside strings opened and not yet
    closed.  Where the text stops being JSON the decoder stops, so what follows can only make
    this answer yes more often, never no where the decoder would go deeper.  ``raw`` is UTF-8,
    where a bracket, quote or backslash is never part of another character (nor of the bad
    bytes the line's decoding replaces)."""
    if raw.count(b"[") + raw.count(b"{") <= depth:  # the usual line: two scans in C
        return False
    # escapes first (left to right, as the decoder pairs them; outside a string a backslash
    # stops the decoder), so that every quote left opens or closes a string: between them,
    # the odd pieces; one left open runs to the end.  In C throughout: a regex over the
    # strings took twice the decoder's time on a line of many.
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside = b"".join(unescaped.split(b'"')[::2])
    brackets = outside.translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > depth


_CONTAINERS = (dict, list, tuple)


def _value_nests_deeper(value: Any, depth: int) -> bool:
    """Whether a value's dicts and lists nest deeper than ``depth``, told without recursion
    (one that contains itself is found deeper than any bound)."""
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, _CONTAINERS) else []
    while stack:
        item, level = stack.pop()
        if level > depth:
            return True
        inside = item.values() if isinstance(item, dict) else item
        stack.extend((v, level + 1) for v in inside if isinstance(v, _CONTAINERS))
    return False


_A = TypeVar("_A")
_R = TypeVar("_R")

#: Recursion the decoder and encoder are given above the caller's stack when it left them too
#: little (``_roomy``): the deepest value a line may hold, and the json module's own frames.
_ROOM = MAX_JSON_DEPTH + 64
_ROOM_LOCK = threading.Lock()


def _roomy(call: Callable[[_A], _R], arg: _A) -> _R:
    """``call(arg)`` for the JSON decoder or encoder on something nested no deeper than
    ``MAX_JSON_DEPTH``: they recurse once a level, so a caller deep in its own stack, or under a
    lowered recursion limit, could leave them too little and a line's reading would depend on
    who reads it; then it runs again with ``_ROOM`` more than the limit, wherever the stack is."""
    try:
        return call(arg)
    except RecursionError:
        pass
    with _ROOM_LOCK:  # the limit is the interpreter's: one raises it and restores it at a time
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit + _ROOM)
        try:
            return call(arg)
        finally:
            sys.setrecursionlimit(limit)


def _loads(text: str) -> Any:
    """``json.loads(text)``, faster for the usual line: one object then the line end.

    On a tiny object ``json.loads`` spends twice as long around its C scanner (argument checks,
    two whitespace regexes) as in it.  A line that starts with ``{`` needs none of that when
    only a line end follows the object; anything else, errors included, goes to ``json.loads``,
    which gives the same value or raises with its own message.
    """
    if text.startswith("{"):
        try:
            obj, end = _DECODER.raw_decode(text)
        except ValueError:
            pass
        else:
            if end == len(text) or text[end:] in ("\n", "\r\n"):
                return obj
    return json.loads(text, parse_int=_integer)


def _number_or_json(value: Any) -> str:
    if isinstance(value, _LongNumber):
        return f"a number of {len(value.lstrip('-'))} digits"
    return clip(_json_text(value))


def _json_text(value: Any) -> str:
    """``json.dumps(value)`` for a message or a metadata field, never raising.  The value is
    one ``_record`` was given, nested no deeper than ``MAX_JSON_DEPTH``: ``_roomy`` gives the
    encoder the room that takes; what it still refuses is named by its kind."""
    try:
        return _roomy(json.dumps, value)
    except (RecursionError, ValueError, TypeError):  # none from a line: a set, a huge int
        return f"{_kind(value)} that JSON cannot write"


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return f"a value of type {type(value).__name__}"


def _bad_line(path: str, index: int, number: int, message: str) -> Record:
    """The unreadable record of one line."""
    return Record(
        moves=[],
        source=SourceLocation(path, index, number),
        format=NAME,
        problems=[ParseProblem(f"line {number}: {message}", line=number, fatal=True)],
    )


def to_json(record: Record) -> dict[str, Any]:
    """The JSON object of one record (inverse of ``record_from_json``).

    Every opening event is written in ``moves``, where it was taken (offer groups apart and in
    place, rejections, moved stones, choices, declared counts); one offer group after move 4 of
    a record of fewer moves goes to ``offers``, which the reader gives that place.  Raises
    ``ValueError`` naming what the reader would not read back: setup stones (no field holds
    them), a board that is not square (``size`` is one number), colours that do not alternate,
    events not tied to a move."""
    apart = _offers_apart(record)
    # RenjuNet's swap flags: ``swaps``
    swaps = swap_flags([e for e in record.opening_events if e.after == -1])
    inline = _in_moves(record.opening_events, apart, swaps)
    shown = Record(moves=record.moves, source=record.source, opening_events=inline)
    lost = _lost(record, shown)
    if lost:
        raise ValueError("JSON Lines cannot hold " + "; ".join(lost))
    out: dict[str, Any] = {"moves": write_record(shown)}
    if record.width:
        out["size"] = record.width
    if record.declared_result is not None:
        out["result"] = record.declared_result.to_json()
    out.update(_optional_fields(record, apart, swaps))
    out["source"] = record.source.to_json()
    return out


def _offers_apart(record: Record) -> OpeningEvent | None:
    """The one offer group after move 4 of a record of fewer moves, if any: ``offers``."""
    late = [e for e in record.opening_events if e.kind == "offers" and e.after > len(record.moves)]
    return late[0] if len(late) == 1 and late[0].after == 4 else None


def _in_moves(
    events: list[OpeningEvent], apart: OpeningEvent | None, swaps: str | None
) -> list[OpeningEvent]:
    """The events written in ``moves``: all but the offer group ``apart`` and the swap flags
    written in ``swaps``."""
    return [e for e in events if e is not apart and (swaps is None or e.after != -1)]


def _lost(record: Record, shown: Record) -> list[str]:
    """What a line would lose of ``record``, written as ``shown``."""
    lost = unwritable(shown, board=False)
    if record.setup:
        lost.insert(0, f"{len(record.setup)} setup stone(s) before move 1 (no field holds them)")
    if record.width != record.height:
        lost.insert(0, f"the board size {record.width}x{record.height} ('size' is square)")
    return lost


def _optional_fields(
    record: Record, apart: OpeningEvent | None, swaps: str | None
) -> Iterator[tuple[str, Any]]:
    """The fields of ``to_json`` that a record may not have, in their order."""
    if record.rule:
        yield "rule", record.rule
    if record.opening_id:
        yield "opening", record.opening_id
    if apart is not None:
        yield "offers", [p.name for p in apart.points]
    if swaps is not None:
        yield "swaps", swaps
    if record.metadata:
        yield "metadata", record.metadata


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write records as JSON Lines."""
    for record in records:
        out.write(one_line(json.dumps(to_json(record), ensure_ascii=False)) + "\n")
