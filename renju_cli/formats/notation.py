"""Standard-notation move lists: ``h8 h9 i10``, ``1. h8 2. h9``, ``H8,H9+I10``, ``h8h9i10``.

A file holds one record per line.  A line may start or end with a declared result in any words
of ``renju_cli.results`` (``black``, ``draw``, ``1-0``, ``B+R``, ``黑胜``, ``black wins``...; at
the end ``black`` and ``white`` are colour choices); ``unknown``, ``?`` and ``*`` declare none,
and the moves after them are read all the same.  ``#`` starts a comment; a line that
starts with a move number above 1 (``3. i8``) continues the record of the line before.  Points
are a column letter and a row number, greedily (``h8h9i10`` is ``h8 h9 i10``); ``pass`` (or
``--``) is a pass.

The opening extension (``docs/notation.md``): ``swap`` / ``noswap`` record that colours were
exchanged or a swap declined; ``{j10 k7}`` is a group of offers; ``black``/``white`` after the
first move is a colour choice; ``N=3`` a declared number of offers; ``reject`` a rejected opening
(every stone taken off); ``i10-j9`` a stone moved from i10 to j9.  ``A:h8`` / ``B:h8`` name the
board of a stone (two-board gomoku; kept in ``metadata["boards"]``, one letter per move).  The
opening tokens of a record are bounded as its moves are (``max_moves``; an offered point counts
as one): the rest of the record is not read, with a problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import islice
from typing import BinaryIO

from renju_cli.coords import Point
from renju_cli.formats import ReadOptions, text_codec, text_lines, too_many_records
from renju_cli.formats.charset import PLAIN, name_of
from renju_cli.record import (
    WARNING,
    Color,
    DeclaredResult,
    Move,
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
)
from renju_cli.results import may_be_in_phrase, read_result, understood

NAME = "notation"
EXTENSIONS = (".txt", ".moves", ".renju", ".gomoku", ".rnj")

# Letters are ASCII, and words match case-insensitively in ASCII only (``(?ai:``): with Unicode
# case folding ``[a-z]`` matched the dotted capital I, the dotless i and the long s (``İ8``,
# ``ı8``, ``ſ8``), whose column is no column (a crash, and the rest of the file lost).
_TOKEN = re.compile(
    r"""
    (?P<sep>[\s,;+]+)
  | (?P<result>1-0|0-1|1/2-1/2|\*)(?![\w.])
  | (?P<number>\d+\.+)
  | (?P<offers>\{[^}]*\})
  | (?P<word>(?ai:pass|swap|noswap|reject|black|white|draw)|--)(?![a-zA-Z0-9])
  | (?P<declare>[nN]=\d{1,3})(?![0-9])
  | (?P<relocate>[a-zA-Z][0-9]{1,2}-[a-zA-Z][0-9]{1,2})(?![0-9])
  | (?P<board>[abAB]:[a-zA-Z][0-9]{1,2})
  | (?P<point>[a-zA-Z][0-9]{1,2})
    """,
    re.VERBOSE,
)
#: Words of a result phrase at the start or end of a line (``победа черных по времени``) read
#: at most, and the characters of a line's end they are looked for in.
_PHRASE_WORDS = 4
_PHRASE_END_CHARS = 64
#: A word of a result phrase: what the separators around a leading result word leave.
_PHRASE_WORD = re.compile(r"[^\s:,;]+")
_SEPARATOR_CHARS = " \t\n\r\f\v:,;"
_FIRST_WORD = re.compile(r"\s*([^\s:,;]+)")
#: A point as the first or the last word of a line: no result phrase there (looked for among
#: the last characters of the line only).
_FIRST_POINT = re.compile(r"\s*[a-zA-Z][0-9]{1,2}(?![^\s:,;])")
_LAST_POINT = re.compile(r"(?<![^\s:,;])[a-zA-Z][0-9]{1,2}[\s:,;]*\Z")
_LAST_POINT_CHARS = 16
#: At the end of a line, ``black`` and ``white`` are colour choices, not results.
_COLOUR_CHOICES = frozenset(("black", "white"))
_CONTINUATION = re.compile(r"^\s*(\d+)\.")
_POINT = re.compile(r"[a-zA-Z][0-9]{1,2}")
#: Points written without blanks are read in one ``findall`` up to this many characters (a game
#: on the largest board is about 1,700); a longer token is read match by match, no further than
#: the limit of moves.
_JOINED_CHARS = 4096


#: Meaningful lines (not blank, not only a comment) ``sniff`` reads at most.
SNIFF_LINES = 10


def sniff(head: bytes) -> int:
    """1 when the first meaningful line of ``head`` reads as a move list (or begins with three
    moves); or, when it does not, when the next ones do, all but one (or one in ten) of the
    first ``SNIFF_LINES``, two at least: a damaged first line is its record's parse-error, not
    the whole file (piped in, or with no ``.txt`` to tell) one unreadable record.  When
    ``head`` may be cut (a full detection buffer), its last partial line is not judged."""
    # (decoded as the reader decodes a file of no declared charset: a move list in GBK is one
    # too; and a head cut in a character is still text)
    text = PLAIN.decode(head)[0]
    lines = text_lines(text)
    if len(head) >= 4096 and len(lines) > 1 and not text.endswith(("\n", "\r")):
        lines.pop()
    good = bad = 0
    for line in lines:
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        _, body = split_result(body)
        if not body:
            continue
        moves, _, problem = _parse_body(body, 1)
        if (moves and problem is None) or len(moves) >= 3:  # (three moves, then damage)
            if not bad:
                return 1  # the first meaningful line: a move list
            good += 1
        else:
            bad += 1
        if good + bad >= SNIFF_LINES:
            break
    return 1 if good >= 2 and bad <= max(1, (good + bad) // 10) else 0


def parse_moves(
    text: str, line: int | None = None, limit: int | None = None
) -> tuple[list[Move], list[OpeningEvent]]:
    """Parse one move list; raise ``ValueError`` naming the first thing that is not a move.
    ``limit``: of a list of points only, read at most one move more than that (which says
    that the list is longer; a list with opening events is read whole, its events unbounded
    here: the file's bound on events holds them)."""
    plain = _plain_moves(text, line or 1, limit)  # points only: no result word, no events
    if plain is not None:
        return plain, []
    _, body = split_result(text)
    # (the points-only reading failed already when no result phrase was taken off)
    moves, events, problem = _parse_body(body, line or 1, plain=body is not text)
    if problem is not None:
        raise ValueError(problem.message)
    return moves, [e for e in events if e.kind not in ("result", "boards")]


def split_result(text: str) -> tuple[DeclaredResult | None, str]:
    """A result phrase at the start of a move list, else at its end, split off:
    ``(DeclaredResult("black", ...), "h8 h9 ...")``; ``None`` for a phrase that declares no
    result (``unknown``) or none at all, and then ``text`` itself when nothing was split off."""
    declared, rest = _split_leading(text)
    declared_at_end, rest = _split_trailing(rest)
    return declared or declared_at_end, rest


def _split_leading(text: str) -> tuple[DeclaredResult | None, str]:
    if text.partition(" ")[0] in _POINT_OF or _FIRST_POINT.match(text):
        return None, text  # (most lines)
    first = _FIRST_WORD.match(text)
    if first is None or not may_be_in_phrase(first.group(1)):
        return None, text
    words = list(islice(_PHRASE_WORD.finditer(text), _PHRASE_WORDS))
    if not words or text[: words[0].start()].strip():
        return None, text
    k = 0  # the words that may start a result phrase
    while k < len(words) and may_be_in_phrase(words[k].group()):
        k += 1
    for n in range(k, 0, -1):
        declared = read_result(text[words[0].start() : words[n - 1].end()])
        if declared is None or understood(declared):
            rest = text[words[n - 1].end() :]
            return declared, rest.lstrip(_SEPARATOR_CHARS) if rest else rest
    return None, text


def _last_word(text: str) -> str:
    """The last word of ``text`` as ``_PHRASE_WORD`` cuts words (read from its end: a line may
    be long)."""
    words = text.rsplit(None, 1)
    if not words:
        return ""
    word = words[-1].rstrip(":,;")
    return word[max(word.rfind(":"), word.rfind(","), word.rfind(";")) + 1 :]


def _split_trailing(text: str) -> tuple[DeclaredResult | None, str]:
    if text.rpartition(" ")[2] in _POINT_OF or _LAST_POINT.search(
        text, max(len(text) - _LAST_POINT_CHARS, 0)
    ):
        return None, text  # (most lines)
    if not may_be_in_phrase(_last_word(text)):
        return None, text
    cut = max(len(text) - _PHRASE_END_CHARS, 0)
    words = list(_PHRASE_WORD.finditer(text, cut))
    if cut and words and words[0].start() == cut:
        del words[0]  # (it may be the end of a longer word)
    words = words[-_PHRASE_WORDS:]
    if not words or words[-1].group().lower() in _COLOUR_CHOICES:
        return None, text
    k = 0  # the words that may end a result phrase
    while k < len(words) and may_be_in_phrase(words[-1 - k].group()):
        k += 1
    for n in range(k, 0, -1):
        start = words[-n].start()
        declared = read_result(text[start : words[-1].end()])
        if declared is None or understood(declared):
            return declared, text[:start].rstrip()
    return None, text


#: Points by token as written (``h8``, ``H8``, ``h08``), filled as tokens are first seen.
_POINT_OF: dict[str, Point] = {}


def _learnt(token: str) -> Point | None:
    """The point of a token not seen before, learnt into ``_POINT_OF``; ``None`` when it is no
    point (the readers look in ``_POINT_OF`` first, inline: most tokens were seen)."""
    if _POINT.fullmatch(token) is None:
        return None
    point = _POINT_OF[token] = _point(token)
    return point


def _plain_moves(body: str, line: int, limit: int | None = None) -> list[Move] | None:
    """The moves of a body made only of points and spaces (nearly every line of a big move-list
    file), or ``None`` when it holds anything else; the tokenizer below then reads it.  At most
    ``limit + 1`` moves are read: one more than the limit tells that the record is too long."""
    point_of = _POINT_OF
    if limit is None:
        tokens = body.split()
    else:
        tokens = body.split(None, limit + 1)
        if len(tokens) > limit + 1:
            tokens.pop()  # the unsplit rest
    # one loop, no comprehension: most bodies are a few tokens, where setting up costs the most
    moves: list[Move] = []
    for token in tokens:
        point = point_of.get(token)
        if point is None:  # not seen before: learn it if it is a point
            point = _learnt(token)
            if point is None:
                went_on = _joined(token, moves, line, limit)
                if went_on is None:
                    return None
                if not went_on:
                    break  # (the tokenizer stops there too: the rest is not read)
                continue
        moves.append(Move(point, None, line, None, token))  # positional: see Record
    if limit is not None and len(moves) > limit + 1:
        del moves[limit + 1 :]  # one more than the limit tells that the record is too long
    return moves


def _joined(token: str, moves: list[Move], line: int, limit: int | None) -> bool | None:
    """Points written without blanks (h8i9j10, a web page's game) read into ``moves`` as the
    tokenizer reads them, point by point, without it (a 600-move game of them spent a seventh
    of its check in the tokenizer), and no further than it (one more than ``limit``): whether
    reading goes on after them (``False``: the limit stopped it), ``None`` when ``token`` is no
    such token (no point starts it, it has no digit, or something else lies between points)."""
    first = token[0]
    if not (first.isascii() and first.isalpha()) or token.isalpha():
        return None  # (a word, an offer)
    point_of = _POINT_OF
    parts = _POINT.findall(token) if len(token) <= _JOINED_CHARS else None
    if parts is not None and sum(map(len, parts)) == len(token):
        # nothing between the points (the matches cover the token): in one call
        take = parts if limit is None else parts[: max(limit + 1 - len(moves), 0)]
        for part in take:
            moves.append(Move(point_of.get(part) or _learnt(part), None, line, None, part))
        return len(take) == len(parts)
    # a long token, or one with something between its points: match by match, not by one
    # pattern of the whole token, whose backtracking stack took 80 MB for a line of 500,000,
    # and no further than the limit
    end = 0
    for m in _POINT.finditer(token):
        if m.start() != end:
            return None  # something else between two points
        if limit is not None and len(moves) > limit:
            return False
        end = m.end()
        part = m.group()
        moves.append(Move(point_of.get(part) or _learnt(part), None, line, None, part))
    return True if end == len(token) else None


def _parse_body(
    body: str, line: int, limit: int | None = None, plain: bool = True
) -> tuple[list[Move], list[OpeningEvent], ParseProblem | None]:
    """The moves, events and first problem of a body (``plain``: try it as points only first;
    ``parse_record`` did already when the body is its whole text)."""
    if plain:
        moves = _plain_moves(body, line, limit)
        if moves is not None:
            return moves, [], None
    simple = _simple_events(body, line, limit)
    if simple is not None:
        return simple[0], simple[1], None
    return _tokenize(body, line, limit)


def _tokenize(
    body: str, line: int, limit: int | None = None
) -> tuple[list[Move], list[OpeningEvent], ParseProblem | None]:
    """The moves, events and first problem of any body, token by token."""
    return _Tokenizer(line, limit).read(body)


class _Tokenizer:
    """``_tokenize``: what each token adds to the moves and events, a method per kind."""

    def __init__(self, line: int, limit: int | None) -> None:
        self.line = line
        self.limit = limit
        self.moves: list[Move] = []
        self.events: list[OpeningEvent] = []
        self.boards: list[str] = []  # the board of each move, when a stone names one
        # the opening tokens left to read, one per token and per offered point: bounded by
        # ``limit`` as the moves are (a line of 100,000 ``swap``, or one offer of 300,000 points)
        self.room = limit
        self.result_read = False

    def read(self, body: str) -> tuple[list[Move], list[OpeningEvent], ParseProblem | None]:
        moves, limit, line = self.moves, self.limit, self.line
        take = _TAKE
        pos = 0
        size = len(body)
        while pos < size:
            if body[pos] == "#" or (limit is not None and len(moves) > limit):
                break
            m = _TOKEN.match(body, pos)
            if m is None:
                return moves, self.events, _not_a_token(body, pos, self.line, len(moves))
            pos = m.end()
            while pos < size and body[pos] == " ":  # (one space between tokens: no match for it)
                pos += 1
            kind = m.lastgroup
            if kind == "point":
                # (as ``_plain_moves``: the points learnt by token, moves built positionally;
                # a line with opening events comes here, and a file may hold 25,000 of them)
                text = m.group(0)
                moves.append(Move(_POINT_OF.get(text) or _learnt(text), None, line, None, text))
                continue
            method = take.get(kind or "")
            if method is None:  # a separator or a move number
                continue
            text = m.group(0)
            problem = None
            if self.room is not None and kind in _EVENT_TOKENS:
                problem = self._count(kind, text, m.start())
            problem = problem or method(self, text, m.start())
            if problem is not None:
                return moves, self.events, problem
        if self.boards:
            self.boards.extend("-" * (len(moves) - len(self.boards)))
            boards = "".join(self.boards)
            self.events.append(OpeningEvent("boards", len(moves), boards, [], self.line))
        return moves, self.events, None

    def _count(self, kind: str, text: str, column: int) -> ParseProblem | None:
        """Count an opening token against ``room`` (not ``None``); its problem when there is
        none left."""
        assert self.room is not None
        if kind != "word" or _WORDS[text.lower()][2]:
            if self.room <= 0:
                return _too_many_events(self.line, column, self.limit)
            self.room -= 1
        return None

    def _board(self, text: str, column: int) -> None:
        boards, moves = self.boards, self.moves
        boards.extend("-" * (len(moves) - len(boards)))
        boards.append(text[0].lower())
        moves.append(Move(_point(text[2:]), line=self.line, token=text))

    def _declare(self, text: str, column: int) -> None:
        self.events.append(OpeningEvent("declare", len(self.moves), text[2:], [], self.line))

    def _relocate(self, text: str, column: int) -> None:
        source, target = text.split("-")
        points = [_point(source), _point(target)]
        self.events.append(OpeningEvent("relocate", len(self.moves), None, points, self.line))

    def _word(self, text: str, column: int) -> None:
        event, value, _ = _WORDS[text.lower()]
        if event is None:
            self.moves.append(Move(None, line=self.line, token=text))
        elif event:  # (a trailing "draw" is a result word, not a move: nothing)
            # positional, in field order: kind, after, value, points, line
            self.events.append(OpeningEvent(event, len(self.moves), value, [], self.line))

    def _result(self, text: str, column: int) -> None:
        # only the first result word counts (``parse_record``): a line of a megabyte of ``1-0``
        # is one event, not 260,000 (which were also taken out one by one: minutes)
        if text != "*" and not self.result_read:
            self.result_read = True
            self.events.append(OpeningEvent("result", len(self.moves), text, [], self.line))

    def _offers(self, text: str, column: int) -> ParseProblem | None:
        room = self.room
        points = []
        written = text[1:-1].replace(",", " ").split(None, -1 if room is None else room + 1)
        cut = room is not None and len(written) > room + 1  # (its first point is counted)
        for pt in written[: room + 1] if room is not None else written:
            if _POINT.fullmatch(pt) is None:  # a typo (j1O), a JSON line, a note...
                return ParseProblem(
                    f"line {self.line}, column {column + 1}: expected offered points such as "
                    f"{{j10 g10}}, found {pt!r} in {text[:40]!r} "
                    f"(after {len(self.moves)} move(s))",
                    line=self.line,
                )
            points.append(_point(pt))
        self.events.append(OpeningEvent("offers", len(self.moves), None, points, self.line))
        if room is not None:
            self.room = room - max(len(points) - 1, 0)
        if cut:  # the group holds more points than are read
            return _too_many_events(self.line, column, self.limit)
        return None


#: What ``_Tokenizer`` does with each kind of token but points, separators and move numbers.
_TAKE: dict[str, Callable[[_Tokenizer, str, int], ParseProblem | None]] = {
    "board": _Tokenizer._board,
    "declare": _Tokenizer._declare,
    "relocate": _Tokenizer._relocate,
    "word": _Tokenizer._word,
    "result": _Tokenizer._result,
    "offers": _Tokenizer._offers,
}


def _not_a_token(body: str, pos: int, line: int, moves: int) -> ParseProblem:
    """The problem of a body at ``pos`` where no token starts."""
    snippet = body[pos : pos + 12].split()[0] if body[pos:].split() else body[pos:]
    return ParseProblem(
        f"line {line}, column {pos + 1}: expected a point such as h8, 'pass' or a move "
        f"number, found {snippet!r} (after {moves} move(s))",
        line=line,
    )


#: The words of a body (both readers): the opening event each records (``None``: a pass;
#: ``""``: a trailing draw, no event), its value, and whether it counts against the bound on
#: opening events.
_WORDS: dict[str, tuple[str | None, str | None, bool]] = {
    "pass": (None, None, False),
    "--": (None, None, False),
    "swap": ("swap", None, True),
    "noswap": ("no-swap", None, True),
    "reject": ("reject", None, True),
    "black": ("choose", "black", True),
    "white": ("choose", "white", True),
    "draw": ("", None, False),
}


def _simple_events(
    body: str, line: int, limit: int | None
) -> tuple[list[Move], list[OpeningEvent]] | None:
    """``_parse_body``'s moves and events of a body whose every blank-separated token is a
    point, a word (pass, swap, noswap, reject, black, white, draw), a declared count (``N=2``)
    or part of a group of offers of plain points (``{j10 g10}``), read without the tokenizer;
    ``None`` for anything else
    (numbers, results, comments, joined tokens, a bound reached), which the tokenizer then
    reads to the same moves and events.  A file of 25,000 short lines with a swap and offers
    each spent a quarter of its check matching their tokens one by one."""
    if limit is None:
        tokens = body.split()
    else:
        # (moves, counted events and offered points are each bounded by ``limit``: a line of
        # more tokens than that is the tokenizer's, which stops at the bound)
        tokens = body.split(None, 3 * limit + 8)
        if len(tokens) > 3 * limit + 8:
            return None
    return _SimpleEvents(line, limit).read(tokens)


class _SimpleEvents:
    """``_simple_events``: a token at a time, outside a group of offers or inside one."""

    def __init__(self, line: int, limit: int | None) -> None:
        self.line = line
        self.limit = limit
        self.moves: list[Move] = []
        self.events: list[OpeningEvent] = []
        self.room = limit
        self.offered: list[Point] | None = None  # the points of a group of offers not closed yet

    def read(self, tokens: list[str]) -> tuple[list[Move], list[OpeningEvent]] | None:
        point_of, moves, line, limit = _POINT_OF, self.moves, self.line, self.limit
        for token in tokens:
            if self.offered is None:
                if limit is not None and len(moves) > limit:
                    return None
                point = point_of.get(token)
                if point is not None:  # (most tokens: no call)
                    moves.append(Move(point, None, line, None, token))  # positional: see Record
                    continue
                word = _WORDS.get(token.lower())
                ok = self._outside(token) if word is None else self._word(token, word)
            else:
                ok = self._inside(token)
            if not ok:
                return None
        if self.offered is not None:  # never closed: the tokenizer says where
            return None
        return moves, self.events

    def _take(self, need: int) -> bool:
        """Count ``need`` opening tokens against the room left; ``False`` past it."""
        if self.room is not None:
            if self.room < need:
                return False
            self.room -= need
        return True

    def _outside(self, token: str) -> bool:
        """A token outside a group of offers but a point seen before and a word; ``False`` for
        one this reader does not read."""
        moves = self.moves
        declared = _TOKEN.fullmatch(token) if token[0] in "nN" else None
        if declared is not None and declared.lastgroup == "declare":  # N=2, as the tokenizer
            if not self._take(1):
                return False
            self.events.append(OpeningEvent("declare", len(moves), token[2:], [], self.line))
            return True
        if token[0] == "{":
            self.offered = []
            return len(token) == 1 or self._inside(token[1:])
        point = _learnt(token)
        if point is None:
            return False
        moves.append(Move(point, None, self.line, None, token))
        return True

    def _word(self, token: str, word: tuple[str | None, str | None, bool]) -> bool:
        kind, value, counted = word
        if counted and self.room is not None:
            if self.room <= 0:
                return False
            self.room -= 1
        if kind is None:
            self.moves.append(Move(None, line=self.line, token=token))
        elif kind:
            self.events.append(OpeningEvent(kind, len(self.moves), value, [], self.line))
        return True

    def _inside(self, token: str) -> bool:
        """A token inside a group of offers: plain points, the last one closing it."""
        offered = self.offered
        assert offered is not None
        closing = token[-1] == "}"
        text = token[:-1] if closing else token
        if text:
            point = _POINT_OF.get(text) or _learnt(text)
            if point is None:
                return False
            offered.append(point)
        if closing:
            # (as the tokenizer counts: the group and its first point as one event)
            if not self._take(max(len(offered), 1)):
                return False
            self.events.append(OpeningEvent("offers", len(self.moves), None, offered, self.line))
            self.offered = None
        return True


#: Tokens that record an opening event (the ``word`` group: only the words ``_WORDS`` counts).
_EVENT_TOKENS = frozenset(("declare", "relocate", "word", "offers"))


def _too_many_events(line: int, column: int, limit: int | None) -> ParseProblem:
    return ParseProblem(
        f"line {line}, column {column + 1}: more than {limit} opening events (swaps, colour "
        "choices, declared counts, offered points, rejections, moved stones); the rest of the "
        "record is not read",
        line=line,
    )


def _point(text: str) -> Point:
    return Point(ord(text[0].lower()) - ord("a"), int(text[1:]) - 1)


def parse_record(
    text: str,
    path: str = "<string>",
    index: int = 0,
    line: int = 1,
    options: ReadOptions | None = None,
) -> Record:
    """One record from one move list (with an optional leading result word)."""
    opts = options or ReadOptions()
    # Nearly every line of a big file is points only: its first token is a point, so it has no
    # leading result word and no events.  Build that record without the general machinery.
    # (A hostile line of a megabyte is not split past the move limit.)
    moves = _plain_moves(text, line, opts.max_moves)
    if moves is not None:
        source = SourceLocation(path, index, line)
        record = Record(moves, source, None, None, None, None, None, {}, [], [], [], [], NAME)
        if len(moves) > opts.max_moves:
            _cut_at_limit(record, opts.max_moves, line)
        return record
    declared, body = _split_leading(text)
    declared_at_end, body = _split_trailing(body)
    moves, events, problem = _parse_body(body, line, opts.max_moves, body is not text)
    metadata: dict[str, str] = {}
    if events:  # the result and the boards of the stones are not opening events: one pass
        kept = []
        for e in events:
            if e.kind == "boards":
                metadata["boards"] = e.value or ""
            elif e.kind == "result":
                declared = declared or read_result(e.value or "")
            else:
                kept.append(e)
        events = kept
    declared = declared or declared_at_end
    record = Record(
        moves=moves,
        source=SourceLocation(path, index, line),
        format=NAME,
        opening_events=events,
        metadata=metadata,
    )
    record.declared_result = declared
    if problem is not None:
        record.problems.append(problem)
    if len(record.moves) > opts.max_moves:
        _cut_at_limit(record, opts.max_moves, line)
    return record


def _cut_at_limit(record: Record, max_moves: int, line: int) -> None:
    record.problems.append(
        ParseProblem(f"more than the limit of {max_moves} moves; the rest is ignored", line=line)
    )
    del record.moves[max_moves:]


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """One record per line; a line starting with a move number > 1 continues the record."""
    index = 0
    pending: _Pending | None = None  # the record being read
    for number, body, overlong, codec in _bodies(stream, options):
        if pending is not None and _continues(body):
            pending.add(number, body, overlong, codec, options.max_string)
            continue
        if pending is not None:
            yield pending.record(path, index, options)
            index += 1
            if index >= options.max_records:  # this line starts one record too many
                yield too_many_records(path, index, number, options)
                return
        pending = _Pending(number)
        pending.add(number, body, overlong, codec, options.max_string)
    if pending is not None:
        yield pending.record(path, index, options)


def _bodies(stream: BinaryIO, options: ReadOptions) -> Iterator[tuple[int, str, bool, str | None]]:
    """The meaningful lines of a file (their comments and trailing blanks taken off), each with
    its number, whether it was cut at ``max_string`` and the codec it was read with when it
    calls for a word (``None``: the file's)."""
    cut_lines: set[int] = set()  # lines longer than max_string, cut by _line_blocks
    read_as: dict[int, str] = {}  # lines of no declared charset read as GB18030, by number
    for first, lines in _line_blocks(stream, options, cut_lines, read_as):
        for number, text in enumerate(lines, first):
            body = text.split("#", 1)[0].rstrip()
            overlong = number in cut_lines
            cut_lines.discard(number)
            codec = read_as.pop(number, None)
            if body:
                yield number, body, overlong, codec


class _Pending:
    """The record being read: its lines (several when continued, joined by spaces when done),
    and the first line of each kind that its record remarks on."""

    __slots__ = ("first", "guessed", "lines", "size", "start")

    def __init__(self, start: int) -> None:
        self.start = start
        self.lines: list[str] = []  # (a list: joining once keeps long records linear)
        self.size = 0  # their characters: a record continued past max_string is cut
        # the first line not read of a record cut so ("cut"), the first that holds a carriage
        # return ("cr"), the first cut at max_string ("long")
        self.first: dict[str, int] = {}
        self.guessed: tuple[int, str] | None = None  # the first line read as GB18030

    def add(self, number: int, body: str, overlong: bool, codec: str | None, limit: int) -> None:
        """Add line ``number`` (its body), unless the record holds ``limit`` characters."""
        if self.size > limit:
            self.first.setdefault("cut", number)
            return
        self.lines.append(body)
        self.size += len(body)
        if "\r" in body:
            self.first.setdefault("cr", number)
        if overlong:
            self.first.setdefault("long", number)
        if codec is not None and self.guessed is None:
            self.guessed = (number, codec)

    def record(self, path: str, index: int, options: ReadOptions) -> Record:
        """The record of the lines read."""
        record = parse_record(" ".join(self.lines), path, index, self.start, options)
        record.problems.extend(self._remarks(options.max_string))
        return record

    def _remarks(self, max_string: int) -> Iterator[ParseProblem]:
        """What the record says of its lines, the first of each kind."""
        first = self.first
        if self.guessed is not None:
            yield _read_as(*self.guessed)
        if "long" in first:
            yield _line_cut(first["long"], max_string)
        if "cr" in first:
            yield _carriage_returns(first["cr"])
        if "cut" in first:
            yield _record_cut(first["cut"], max_string)


def _read_as(line: int, codec: str) -> ParseProblem:
    return ParseProblem(
        f"text at line {line} is not UTF-8: read as {name_of(codec)} (--encoding names the "
        "file's charset)",
        line=line,
        severity=WARNING,
    )


def _line_cut(line: int, max_string: int) -> ParseProblem:
    return ParseProblem(
        f"line {line} is longer than {max_string} bytes; the rest of it is not read", line=line
    )


def _carriage_returns(line: int) -> ParseProblem:
    # a file whose old Mac line ends (CR alone) begin past its first 4 KiB, which alone tell
    # how it is read: its lines run together here, and the record says so
    return ParseProblem(
        f"line {line} holds carriage returns (CR) that are not line ends here: a file with old "
        "Mac line ends is told by its first 4 KiB; the text around them is read as one line",
        line=line,
    )


def _record_cut(line: int, max_string: int) -> ParseProblem:
    return ParseProblem(
        f"line {line}: the record goes on past {max_string} characters; the rest of it is not read",
        line=line,
    )


def _continues(body: str) -> bool:
    """Whether a line (its non-blank body) continues the record of the line before: it starts
    with a move number above 1 (``3. i8``; a number of any length, in any script's digits)."""
    # (most lines start with a letter: no move number, no regex)
    m = None if body[0].isalpha() else _CONTINUATION.match(body)
    if m is None:
        return False
    # digit by digit: ``int`` refuses 4,300 digits and more (a hostile line must not stop the
    # file)
    digits = m.group(1)
    return any(int(d) for d in digits[:-1]) or int(digits[-1]) > 1


def starts_record(raw: bytes, options: ReadOptions, after_record: bool = True) -> bool:
    """Whether the line ``raw`` (bytes of the file, with its line end) starts a new record, as
    ``read`` reads it, when a record comes before it (else any line with a move list does): a
    big file is cut into slices for worker processes only there (``renju_cli.batch``), so
    that the slices read as the whole file."""
    text = _decode_line(raw, options.encoding, options)[0]
    body = text.split("#", 1)[0].rstrip()
    return bool(body) and not (after_record and _continues(body))


#: Bytes of lines decoded at a time: lines are decoded and split a block at a time.
_BLOCK_BYTES = 1 << 16


def _line_blocks(
    stream: BinaryIO, options: ReadOptions, cut_lines: set[int], read_as: dict[int, str]
) -> Iterator[tuple[int, list[str]]]:
    """The lines of the stream a block at a time: ``(number of the first line, lines)``.

    The stream is read ``_BLOCK_BYTES`` at a time and cut at its last line end; a line is cut
    to ``max_string`` bytes (the rest of it is read past, never held: a file without line ends,
    ``/dev/zero``, costs ``max_string`` bytes and a block), decoded with the encoding (or as
    UTF-8 with U+FFFD for bad bytes), without leading BOMs.  A UTF-8 block of short lines is
    decoded and split whole, which gives the same text much faster (a ``b"\\n"`` byte is never
    part of a UTF-8 character); a block that does not decode whole goes line by line, so that
    only the bad line gets U+FFFD, as always.  When reading fails (a disk error), the whole
    lines read before are handed out first, so that their records are kept.  The numbers of
    the lines cut are added to ``cut_lines``, those of lines of no declared charset read as
    GB18030 to ``read_as`` (with the codec), for the reader to say so.
    """
    return _LineBlocks(stream, options, cut_lines, read_as).blocks()


class _LineBlocks:
    """``_line_blocks``: where reading is (the number of the next line, the start of a line
    whose end is not read yet, whether the rest of an overlong line is being read past)."""

    def __init__(
        self,
        stream: BinaryIO,
        options: ReadOptions,
        cut_lines: set[int],
        read_as: dict[int, str],
    ) -> None:
        # one read of the file at a time: a buffered ``read(n)`` that fails part way loses what
        # it read before
        self.read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
        self.options = options
        self.encoding = options.encoding or "utf-8"
        self.utf8 = text_codec(self.encoding) == "utf-8"
        self.limit = options.max_string
        self.cut_lines = cut_lines
        self.read_as = read_as
        self.number = options.first_line
        self.rest = b""  # the start of a line whose end is not read yet
        self.skipping = False  # past the first ``limit`` bytes of an overlong line, to its end

    def blocks(self) -> Iterator[tuple[int, list[str]]]:
        while True:
            chunk, failure = self._chunk()
            eof = not chunk
            if self.skipping:
                chunk = self._past_overlong(chunk, eof)
            block, overlong = self._block(chunk, eof, failure is not None)
            lines = self._lines(block, overlong)
            if lines:
                yield self.number, lines
                self.number += len(lines) - overlong  # (the overlong line goes on)
            if failure is not None:
                raise failure
            if eof:
                return

    def _chunk(self) -> tuple[bytes, Exception | None]:
        """The next bytes of the file (none at its end), and the error that stopped reading
        (raised by ``blocks`` after the lines read before it)."""
        try:
            return self.read(_BLOCK_BYTES), None
        except Exception as e:
            return b"", e

    def _past_overlong(self, chunk: bytes, eof: bool) -> bytes:
        """What of ``chunk`` lies past the end of the overlong line being read past (nothing
        while that line goes on)."""
        end = chunk.find(b"\n")
        if end < 0 and not eof:
            return b""
        self.skipping = False
        self.number += 1  # the overlong line, handed out when it was cut
        return chunk[end + 1 :]

    def _block(self, chunk: bytes, eof: bool, failed: bool) -> tuple[bytes, bool]:
        """The whole lines read, and whether the last is an overlong line cut (its end is read
        past)."""
        data = self.rest + chunk if self.rest else chunk
        if not eof:
            cut = data.rfind(b"\n") + 1
            block, self.rest = data[:cut], data[cut:]
        else:  # the end: the last line has no line end (a failure drops its partial line)
            block, self.rest = (b"" if failed else data), b""
        overlong = len(self.rest) > self.limit
        if overlong:  # a line longer than any kept, whose end is not read yet: cut it
            block, self.rest, self.skipping = block + self.rest[: self.limit], b"", True
        return block, overlong

    def _lines(self, block: bytes, overlong: bool) -> list[str]:
        """The lines of ``block``, decoded; the number of an overlong one goes to
        ``cut_lines``."""
        lines = self._decoded_whole(block)
        if lines is None:
            lines = self._decoded_by_line(block)
        if overlong:
            self.cut_lines.add(self.number + len(lines) - 1)
        elif not block or block.endswith(b"\n"):
            lines.pop()  # after the line end of the last line: nothing (or no line at all)
        return lines

    def _decoded_whole(self, block: bytes) -> list[str] | None:
        """The lines of a UTF-8 block of short lines decoded and split whole, which gives the
        same text much faster (a ``b"\\n"`` byte is never part of a UTF-8 character); ``None``
        when it does not decode whole, or a line may need cutting."""
        if not self.utf8 or len(block) > self.limit:
            return None
        try:
            text = block.decode(self.encoding)
        except UnicodeError:
            return None
        lines = text.split("\n")
        if "\ufeff" in text:
            lines = [line.lstrip("\ufeff") for line in lines]
        return lines

    def _decoded_by_line(self, block: bytes) -> list[str]:
        """The lines of ``block`` decoded one by one, so that only a bad line gets U+FFFD; the
        numbers of those read as GB18030 go to ``read_as``, of those cut to ``cut_lines``."""
        lines = []
        for number, raw in enumerate(block.split(b"\n"), self.number):
            text, codec = _decode_line(raw, self.options.encoding, self.options)
            lines.append(text)
            if codec is not None:
                self.read_as[number] = codec
            if len(raw) > self.limit:
                self.cut_lines.add(number)
        return lines


def _decode_line(raw: bytes, encoding: str | None, options: ReadOptions) -> tuple[str, str | None]:
    """A line's text (its first ``max_string`` bytes), and the codec it was read with when it
    calls for a word.  With no ``encoding`` declared, text that is not UTF-8 is read as GB18030
    when it fits as the readers tell it (``charset.PLAIN``: Chinese move lists); other bytes
    that fit no charset read as U+FFFD, so that a message shows them as damage."""
    raw = raw[: options.max_string]
    try:
        text = raw.decode(encoding or "utf-8")
    except (UnicodeError, LookupError):  # idna and punycode raise plain UnicodeError
        guess, codec = PLAIN.decode(raw) if encoding is None else ("", None)
        if codec == "gb18030":
            return guess.lstrip("\ufeff"), codec
        text = raw.decode("utf-8", errors="replace")
    return text.lstrip("\ufeff"), None


def write_record(record: Record) -> str:
    """A record as one line of standard notation, result word first when declared."""
    moves = record.moves
    declared = record.declared_result
    words = [declared.winner if declared is not None else None]
    # each opening event before the move it came before: after the last move at the end, and
    # those not tied to a move first
    before: dict[int, list[str]] = {}
    for event in sorted(record.opening_events, key=lambda e: e.after):
        before.setdefault(min(max(event.after, 0), len(moves)), []).append(_event_text(event))
    boards = record.metadata.get("boards", "")
    for n, move in enumerate(moves):
        words += before.get(n, [])
        words.append(_move_text(move, boards[n : n + 1]))
    words += before.get(len(moves), [])
    return " ".join(word for word in words if word)


def _move_text(move: Move, board: str) -> str:
    """A move as a token: ``pass``, ``h8``, or ``A:h8`` on ``board`` a."""
    if move.point is None:
        return "pass"
    return (board.upper() + ":" if board in ("a", "b") else "") + move.point.name


def _event_text(event: OpeningEvent) -> str:
    """An opening event as a token ("" for one that has none)."""
    names = [point.name for point in event.points]
    tokens = {
        "swap": "swap",
        "no-swap": "noswap",
        "reject": "reject",
        "choose": event.value or "",
        "declare": f"N={event.value}" if event.value else "",
        "offers": "{" + " ".join(names) + "}",
        "relocate": "-".join(names) if len(names) == 2 else "",
    }
    return tokens.get(event.kind, "")


def unwritable(record: Record, *, board: bool = True) -> list[str]:
    """What of ``record`` a line of standard notation would lose (nothing: an empty list).

    A line holds stones, passes, the declared winner, the opening tokens between the stones and
    the boards of two-board stones.  It cannot hold setup stones, a board size (the ruleset's is
    used, so only a stated 15x15 is kept) or colours that do not alternate from black; an
    opening decision after the last stone, or one not tied to a move (RenjuNet's swap flags),
    would be read back at another place.  ``board=False`` leaves out the setup and the size (for
    a container that holds them itself)."""
    lost = _board_lost(record) if board else []
    lost += _colour_lost(record.moves)
    for event in record.opening_events:
        said = _event_lost(event, len(record.moves))
        if said is not None:
            lost.append(said)
    return lost


def _board_lost(record: Record) -> list[str]:
    """The setup stones and the board size (but 15x15) of ``record``, which a line cannot
    hold."""
    lost = []
    if record.setup:
        lost.append(f"{len(record.setup)} setup stone(s) before move 1")
    if (record.width, record.height) not in ((None, None), (15, 15)):
        width, height = record.width or record.height, record.height or record.width
        lost.append(f"the board size {width}x{height}")
    return lost


#: The colour of each move of a line by its number: black first, then in turn.
_TURN = (Color.WHITE, Color.BLACK)


def _colour_lost(moves: list[Move]) -> list[str]:
    """The first colour a move states that breaks the turns from black (a line states none)."""
    for n, move in enumerate(moves, start=1):
        if move.color not in (None, _TURN[n % 2]):
            return [f"the colour of move {n} ({move.color}: colours do not alternate)"]
    return []


def _event_lost(event: OpeningEvent, moves: int) -> str | None:
    """How a line of ``moves`` moves would lose an opening event (``None``: it would not)."""
    text = _event_text(event)
    if not text:
        return f"the {event.kind} after move {event.after} (no notation token)"
    if event.after < 0:
        return f"the {text} not tied to a move (value {event.value!r})"
    if event.after > moves:
        return f"the {text} after move {event.after} of a record of {moves}"
    return None
