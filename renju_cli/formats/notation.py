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

# One token, and the spaces after it (one space between tokens is no token of its own); every
# character starts one (``stray``: none of the others), and a comment runs to the end.
# Letters are ASCII, and words match case-insensitively in ASCII only (``(?ai:``): with Unicode
# case folding ``[a-z]`` matched the dotted capital I, the dotless i and the long s (``İ8``,
# ``ı8``, ``ſ8``), whose column is no column (a crash, and the rest of the file lost).
_TOKEN = re.compile(
    r"""
    (?:
      (?P<sep>[\s,;+]+)
    | (?P<result>1-0|0-1|1/2-1/2|\*)(?![\w.])
    | (?P<number>\d+\.+)
    | (?P<offers>\{[^}]*\})
    | (?P<word>(?ai:pass|swap|noswap|reject|black|white|draw)|--)(?![a-zA-Z0-9])
    | (?P<declare>[nN]=\d{1,3})(?![0-9])
    | (?P<relocate>[a-zA-Z][0-9]{1,2}-[a-zA-Z][0-9]{1,2})(?![0-9])
    | (?P<board>[abAB]:[a-zA-Z][0-9]{1,2})
    | (?P<point>[a-zA-Z][0-9]{1,2})
    | (?P<comment>\#[\s\S]*)
    | (?P<stray>[\s\S])
    )
    [ ]*
    """,
    re.VERBOSE,
)
#: A declared number of offers standing alone (the ``declare`` token).
_DECLARE = re.compile(r"[nN]=\d{1,3}")
#: Words of a result phrase at the start or end of a line (``победа черных по времени``) read
#: at most, and the characters of a line's end they are looked for in.
_PHRASE_WORDS = 4
_PHRASE_END_CHARS = 64
#: A word of a result phrase: what the separators around a leading result word leave.
_PHRASE_WORD = re.compile(r"[^\s:,;]+")
_SEPARATOR_CHARS = " \t\n\r\f\v:,;"
_FIRST_WORD = re.compile(r"\s*([^\s:,;]+)")
#: At the end of a line, ``black`` and ``white`` are colour choices, not results.
_COLOUR_CHOICES = frozenset(("black", "white"))
_CONTINUATION = re.compile(r"^\s*(\d+)\.")
_POINT = re.compile(r"[a-zA-Z][0-9]{1,2}")
#: Points written without blanks are read in one ``findall`` up to this many characters (a game
#: on the largest board is about 1,700); a longer token is read match by match, no further than
#: the limit of moves.
_JOINED_CHARS = 4096
#: The bound of a reading that has none: more moves and opening tokens than a line holds.
_NO_LIMIT = 1 << 40


#: Meaningful lines (not blank, not only a comment) ``sniff`` reads at most.
SNIFF_LINES = 10


def sniff(head: bytes) -> int:
    """1 when the first meaningful line of ``head`` reads as a move list (or begins with three
    moves); or, when it does not, when the next ones do, all but one (or one in ten) of the
    first ``SNIFF_LINES``, two at least: a damaged first line is its record's parse-error, not
    the whole file (piped in, or with no ``.txt`` to tell) one unreadable record.  When
    ``head`` may be cut (a full detection buffer), its last partial line is not judged."""
    verdicts = map(_reads_as_moves, _sniffed_bodies(head))
    if next(verdicts, False):
        return 1  # the first meaningful line: a move list
    rest = list(islice(verdicts, SNIFF_LINES - 1))  # (after a first line that is none)
    good = sum(rest)
    bad = 1 + len(rest) - good
    return 1 if good >= 2 and bad <= max(1, (good + bad) // 10) else 0


def _sniffed_bodies(head: bytes) -> Iterator[str]:
    """The move lists of the meaningful lines of ``head`` (no comment, blanks or result)."""
    for line in _whole_lines(head):
        _, body = split_result(line.split("#", 1)[0].strip())
        if body:
            yield body


def _whole_lines(head: bytes) -> list[str]:
    """The lines of ``head``, decoded as the reader decodes a file of no declared charset (a
    move list in GBK is one too; a head cut in a character is still text); its last line left
    out when the head may be cut there."""
    text = PLAIN.decode(head)[0]
    lines = text_lines(text)
    if len(head) >= 4096 and len(lines) > 1 and not text.endswith(("\n", "\r")):
        lines.pop()
    return lines


def _reads_as_moves(body: str) -> bool:
    """Whether ``body`` reads as a move list, or begins with three moves (then damage)."""
    moves, _, problem = _parse_body(body, 1)
    return (bool(moves) and problem is None) or len(moves) >= 3


def parse_moves(
    text: str, line: int | None = None, limit: int | None = None
) -> tuple[list[Move], list[OpeningEvent]]:
    """Parse one move list; raise ``ValueError`` naming the first thing that is not a move.
    ``limit``: of a list of points only, read at most one move more than that (which says
    that the list is longer; a list with opening events is read whole, its events unbounded
    here: the file's bound on events holds them)."""
    line = line or 1
    plain = _plain_moves(text, line, _NO_LIMIT if limit is None else limit)
    if plain is not None:  # points only: no result word, no events
        return plain, []
    _, body = split_result(text)
    # (the points-only reading failed already when no result phrase was taken off)
    moves, events, problem = _parse_body(body, line, plain=body is not text)
    if problem is not None:
        raise ValueError(problem.message)
    return moves, _set_apart(events)[0]


def split_result(text: str) -> tuple[DeclaredResult | None, str]:
    """A result phrase at the start of a move list, else at its end, split off:
    ``(DeclaredResult("black", ...), "h8 h9 ...")``; ``None`` for a phrase that declares no
    result (``unknown``) or none at all, and then ``text`` itself when nothing was split off."""
    declared, rest = _split_leading(text)
    declared_at_end, rest = _split_trailing(rest)
    return declared or declared_at_end, rest


def _split_leading(text: str) -> tuple[DeclaredResult | None, str]:
    first = _FIRST_WORD.match(text)  # (after blanks only)
    if first is None or not may_be_in_phrase(first.group(1)):
        return None, text  # (most lines: a point first)
    found = _result_phrase(text, list(islice(_PHRASE_WORD.finditer(text), _PHRASE_WORDS)))
    if found is None:
        return None, text
    declared, _, end = found
    return declared, text[end:].lstrip(_SEPARATOR_CHARS)


def _split_trailing(text: str) -> tuple[DeclaredResult | None, str]:
    if text.rpartition(" ")[2] in _POINT_OF:
        return None, text  # (most lines: a point last)
    last = _last_word(text)
    if last.lower() in _COLOUR_CHOICES or not may_be_in_phrase(last):
        return None, text
    found = _result_phrase(text, _last_words(text)[::-1])
    if found is None:
        return None, text
    declared, start, _ = found
    return declared, text[:start].rstrip()


def _result_phrase(
    text: str, words: list[re.Match[str]]
) -> tuple[DeclaredResult | None, int, int] | None:
    """The longest phrase of ``words`` from the first on (the words of a line's start, or of
    its end from the last back) that declares a result in known words or declares none
    (``unknown``): what it declares, where it starts and where it ends; ``None`` when no
    phrase does."""
    k = 0  # the words that may be in a phrase
    while k < len(words) and may_be_in_phrase(words[k].group()):
        k += 1
    for n in range(k, 0, -1):
        start = min(words[0].start(), words[n - 1].start())
        end = max(words[0].end(), words[n - 1].end())
        declared = read_result(text[start:end])
        if declared is None or understood(declared):
            return declared, start, end
    return None


def _last_word(text: str) -> str:
    """The last word of ``text`` as ``_PHRASE_WORD`` cuts words (read from its end: a line may
    be long)."""
    words = text.rsplit(None, 1)
    if not words:
        return ""
    word = words[-1].rstrip(":,;")
    return word[max(word.rfind(":"), word.rfind(","), word.rfind(";")) + 1 :]


def _last_words(text: str) -> list[re.Match[str]]:
    """The last ``_PHRASE_WORDS`` words of ``text`` among its last ``_PHRASE_END_CHARS``
    characters (a word cut there is left out: it may be the end of a longer word)."""
    cut = max(len(text) - _PHRASE_END_CHARS, 0)
    words = list(_PHRASE_WORD.finditer(text, cut))
    if cut and words and words[0].start() == cut:
        del words[0]
    return words[-_PHRASE_WORDS:]


#: Points by token as written (``h8``, ``H8``, ``h08``), filled as tokens are first seen.
_POINT_OF: dict[str, Point] = {}


def _point_token(token: str) -> Point | None:
    """The point ``token`` names, ``None`` when it is no point; learnt into ``_POINT_OF`` when
    first seen (the readers of long lines look there first, inline: most tokens were seen)."""
    point = _POINT_OF.get(token)
    if point is None and _POINT.fullmatch(token):
        point = _POINT_OF[token] = _point(token)
    return point


def _points(names: list[str]) -> list[Point] | None:
    """The points ``names`` name, ``None`` when one of them is no point."""
    points = []
    for name in names:
        point = _point_token(name)
        if point is None:
            return None
        points.append(point)
    return points


def _point(text: str) -> Point:
    return Point(ord(text[0].lower()) - ord("a"), int(text[1:]) - 1)


def _plain_moves(body: str, line: int, limit: int = _NO_LIMIT) -> list[Move] | None:
    """The moves of a body made only of points and spaces (nearly every line of a big move-list
    file), or ``None`` when it holds anything else; the tokenizer below then reads it.  At most
    ``limit + 1`` moves are read: one more than the limit tells that the record is too long."""
    point_of = _POINT_OF
    moves: list[Move] = []
    # one loop, no comprehension: most bodies are a few tokens, where setting up costs the most
    # (and no token past the limit: the unsplit rest of a long line)
    for token in body.split(None, limit + 1)[: limit + 1]:
        point = point_of.get(token)
        if point is not None:
            moves.append(Move(point, None, line, None, token))  # positional: see Record
            continue
        went_on = _joined(token, moves, line, limit)  # (or a point not seen before)
        if went_on is None:
            return None
        if not went_on:
            break  # (the tokenizer stops there too: the rest is not read)
    del moves[limit + 1 :]  # one more than the limit tells that the record is too long
    return moves


def _joined(token: str, moves: list[Move], line: int, limit: int) -> bool | None:
    """Points written without blanks (h8i9j10, a web page's game) read into ``moves`` as the
    tokenizer reads them, point by point, without it (a 600-move game of them spent a seventh
    of its check in the tokenizer), and no further than it (one more than ``limit``): whether
    reading goes on after them (``False``: the limit stopped it), ``None`` when ``token`` is no
    such token (something else lies before, between or after its points)."""
    if token.isalpha():
        return None  # (a word)
    # in one call when nothing lies between the points (their matches cover the token)
    parts = _POINT.findall(token) if len(token) <= _JOINED_CHARS else []
    if sum(map(len, parts)) != len(token):
        return _joined_by_match(token, moves, line, limit)
    take = parts[: max(limit + 1 - len(moves), 0)]
    for part in take:
        moves.append(Move(_POINT_OF.get(part) or _point_token(part), None, line, None, part))
    return len(take) == len(parts)


def _joined_by_match(token: str, moves: list[Move], line: int, limit: int) -> bool | None:
    """``_joined`` of a long token, or of one with something else among its points: match by
    match, not by one pattern of the whole token (whose backtracking stack took 80 MB for a
    line of 500,000), and no further than the limit."""
    end = 0
    for m in _POINT.finditer(token):
        if m.start() != end:
            return None  # something else before or between two points
        if len(moves) > limit:
            return False
        end = m.end()
        moves.append(Move(_point_token(m.group()), None, line, None, m.group()))
    return True if end == len(token) else None


def _parse_body(
    body: str, line: int, limit: int = _NO_LIMIT, plain: bool = True
) -> tuple[list[Move], list[OpeningEvent], ParseProblem | None]:
    """The moves, events and first problem of a body (``plain``: try it as points only first;
    ``parse_record`` did already when the body is its whole text)."""
    moves = _plain_moves(body, line, limit) if plain else None
    if moves is not None:
        return moves, [], None
    return _simple_events(body, line, limit) or _tokenize(body, line, limit)


#: The words of a body (both readers): the opening event each records (``None``: a pass;
#: ``""``: a trailing draw, no event) and its value.
_WORDS: dict[str, tuple[str | None, str | None]] = {
    "pass": (None, None),
    "--": (None, None),
    "swap": ("swap", None),
    "noswap": ("no-swap", None),
    "reject": ("reject", None),
    "black": ("choose", "black"),
    "white": ("choose", "white"),
    "draw": ("", None),
}


class _Body:
    """What the tokens of a body add up to: its moves and events, and the room left for its
    opening tokens, bounded by ``limit`` as the moves are (a line of 100,000 ``swap``, or one
    offer of 300,000 points; an offered point counts as one)."""

    def __init__(self, line: int, limit: int) -> None:
        self.line = line
        self.limit = limit
        self.moves: list[Move] = []
        self.events: list[OpeningEvent] = []
        self.room = limit

    def opening(self, kind: str, value: str | None, points: list[Point], need: int = 1) -> bool:
        """Record an opening event that counts as ``need`` opening tokens; ``False`` (and
        nothing recorded) when the room left is too little."""
        if self.room < need:
            return False
        self.room -= need
        # positional, in field order: kind, after, value, points, line
        self.events.append(OpeningEvent(kind, len(self.moves), value, points, self.line))
        return True

    def word(self, text: str) -> bool:
        """A word: a pass, an opening event, or nothing (a trailing ``draw`` is a result word,
        not a move); ``False`` when an opening word finds no room left."""
        kind, value = _WORDS[text.lower()]
        if kind is None:
            self.moves.append(Move(None, line=self.line, token=text))
            return True
        return not kind or self.opening(kind, value, [])


def _simple_events(
    body: str, line: int, limit: int
) -> tuple[list[Move], list[OpeningEvent], None] | None:
    """``_parse_body``'s moves and events of a body whose every blank-separated token is a
    point, a word (pass, swap, noswap, reject, black, white, draw), a declared count (``N=2``)
    or part of a group of offers of plain points (``{j10 g10}``), read without the tokenizer;
    ``None`` for anything else (numbers, results, comments, joined tokens, a bound reached),
    which the tokenizer then reads to the same moves and events.  A file of 25,000 short lines
    with a swap and offers each spent a quarter of its check matching their tokens one by one."""
    # (moves, counted events and offered points are each bounded by ``limit``: a line of more
    # tokens than that is the tokenizer's, which stops at the bound)
    tokens = body.split(None, 3 * limit + 8)
    if len(tokens) > 3 * limit + 8:
        return None
    return _BlankTokens(line, limit).read(tokens)


class _BlankTokens(_Body):
    """``_simple_events``: a blank-separated token at a time."""

    def read(self, tokens: list[str]) -> tuple[list[Move], list[OpeningEvent], None] | None:
        point_of, moves, line, limit = _POINT_OF, self.moves, self.line, self.limit
        rest = iter(tokens)
        for token in rest:
            if len(moves) > limit:
                return None
            point = point_of.get(token)
            if point is not None:  # (most tokens: no call)
                moves.append(Move(point, None, line, None, token))  # positional: see Record
            elif not self._take(token, rest):
                return None
        return moves, self.events, None

    def _take(self, token: str, rest: Iterator[str]) -> bool:
        """A token but a point seen before: ``False`` for one this reader leaves to the
        tokenizer."""
        if token.lower() in _WORDS:
            return self.word(token)
        if token[0] == "{":
            return self._offers(token, rest)
        if _DECLARE.fullmatch(token):
            return self.opening("declare", token[2:], [])
        point = _point_token(token)  # (not seen before)
        if point is not None:
            self.moves.append(Move(point, None, self.line, None, token))
        return point is not None

    def _offers(self, first: str, rest: Iterator[str]) -> bool:
        """A group of offers of plain points from the token ``first`` (``{j10``) to the one that
        closes it, read on from ``rest``; as the tokenizer counts it, the group and its first
        point as one opening token."""
        group = [first]
        while not group[-1].endswith("}"):
            token = next(rest, None)
            if token is None:
                return False  # never closed: the tokenizer says where
            group.append(token)
        points = _points(" ".join(group)[1:-1].split())
        return points is not None and self.opening("offers", None, points, max(len(points), 1))


def _tokenize(
    body: str, line: int, limit: int = _NO_LIMIT
) -> tuple[list[Move], list[OpeningEvent], ParseProblem | None]:
    """The moves, events and first problem of any body, token by token."""
    return _Tokenizer(line, limit).read(body)


class _Tokenizer(_Body):
    """``_tokenize``: what each token adds to the moves and events, a method per kind."""

    def __init__(self, line: int, limit: int) -> None:
        super().__init__(line, limit)
        self.boards: list[str] = []  # the board of each move, when a stone names one
        self.result_read = False

    def read(self, body: str) -> tuple[list[Move], list[OpeningEvent], ParseProblem | None]:
        moves, line = self.moves, self.line
        for m in _TOKEN.finditer(body):
            if len(moves) > self.limit:
                break
            kind = m.lastgroup
            if kind == "point":
                # (as ``_plain_moves``: the points learnt by token, moves built positionally;
                # a line with opening events comes here, and a file may hold 25,000 of them)
                text = m.group(kind)
                point = _POINT_OF.get(text) or _point_token(text)
                moves.append(Move(point, None, line, None, text))
            elif kind in _TAKE:  # (not a separator, a move number or a comment)
                problem = _TAKE[kind](self, m)
                if problem is not None:
                    return moves, self.events, problem
        if self.boards:
            boards = "".join(self._boards_of(len(moves)))
            self.events.append(OpeningEvent("boards", len(moves), boards, [], line))
        return moves, self.events, None

    def _boards_of(self, count: int) -> list[str]:
        """The boards of the first ``count`` moves: ``-`` for a stone that names none."""
        self.boards.extend("-" * (count - len(self.boards)))
        return self.boards

    def _stone(self, m: re.Match[str]) -> None:
        """A stone that names its board (``A:h8``)."""
        text = m.group("board")
        self._boards_of(len(self.moves)).append(text[0].lower())
        self.moves.append(Move(_point(text[2:]), line=self.line, token=text))

    def _declare(self, m: re.Match[str]) -> ParseProblem | None:
        return self._room_problem(m, self.opening("declare", m.group("declare")[2:], []))

    def _relocate(self, m: re.Match[str]) -> ParseProblem | None:
        source, target = m.group("relocate").split("-")
        return self._room_problem(
            m, self.opening("relocate", None, [_point(source), _point(target)])
        )

    def _word(self, m: re.Match[str]) -> ParseProblem | None:
        return self._room_problem(m, self.word(m.group("word")))

    def _result(self, m: re.Match[str]) -> None:
        # only the first result word counts (``parse_record``): a line of a megabyte of ``1-0``
        # is one event, not 260,000 (which were also taken out one by one: minutes)
        text = m.group("result")
        if text != "*" and not self.result_read:
            self.result_read = True
            self.events.append(OpeningEvent("result", len(self.moves), text, [], self.line))

    def _offers(self, m: re.Match[str]) -> ParseProblem | None:
        """A group of offers: as many of its points as the room left holds (the group and its
        first point count as one opening token)."""
        room = self.room
        if room < 1:
            return self._room_problem(m, False)
        names = m.group("offers")[1:-1].replace(",", " ").split(None, room)
        points = _points(names[:room])
        if points is None:  # a typo (j1O), a JSON line, a note...
            return self._not_offered(m, names)
        self.opening("offers", None, points, max(len(points), 1))
        return self._room_problem(m, len(names) <= room)  # (the rest of the group is not read)

    def _not_offered(self, m: re.Match[str], names: list[str]) -> ParseProblem:
        """The problem of a group of offers with something else than a point among ``names``."""
        found = next(name for name in names if _point_token(name) is None)
        return ParseProblem(
            f"line {self.line}, column {m.start() + 1}: expected offered points such as "
            f"{{j10 g10}}, found {found!r} in {m.group('offers')[:40]!r} "
            f"(after {len(self.moves)} move(s))",
            line=self.line,
        )

    def _room_problem(self, m: re.Match[str], taken: bool) -> ParseProblem | None:
        """The problem of an opening token not ``taken`` for want of room (else none)."""
        if taken:
            return None
        return ParseProblem(
            f"line {self.line}, column {m.start() + 1}: more than {self.limit} opening events "
            "(swaps, colour choices, declared counts, offered points, rejections, moved "
            "stones); the rest of the record is not read",
            line=self.line,
        )

    def _stray(self, m: re.Match[str]) -> ParseProblem:
        """The problem of a body where no token starts."""
        found = m.string[m.start() : m.start() + 12].split()[0]
        return ParseProblem(
            f"line {self.line}, column {m.start() + 1}: expected a point such as h8, 'pass' or a "
            f"move number, found {found!r} (after {len(self.moves)} move(s))",
            line=self.line,
        )


#: What ``_Tokenizer`` does with each kind of token but points, separators, move numbers and
#: comments.
_TAKE: dict[str, Callable[[_Tokenizer, re.Match[str]], ParseProblem | None]] = {
    "board": _Tokenizer._stone,
    "declare": _Tokenizer._declare,
    "relocate": _Tokenizer._relocate,
    "word": _Tokenizer._word,
    "result": _Tokenizer._result,
    "offers": _Tokenizer._offers,
    "stray": _Tokenizer._stray,
}


def parse_record(
    text: str,
    path: str = "<string>",
    index: int = 0,
    line: int = 1,
    options: ReadOptions | None = None,
) -> Record:
    """One record from one move list (with an optional leading result word)."""
    opts = options or ReadOptions()
    source = SourceLocation(path, index, line)
    # Nearly every line of a big file is points only: no result word and no events.  Build
    # that record without the general machinery, positionally (see Record).  (A hostile line
    # of a megabyte is not split past the move limit.)
    moves = _plain_moves(text, line, opts.max_moves)
    if moves is not None:
        record = Record(moves, source, None, None, None, None, None, {}, [], [], [], [], NAME)
    else:
        record = _record_of_tokens(text, source, line, opts.max_moves)
    if len(record.moves) > opts.max_moves:
        _cut_at_limit(record, opts.max_moves, line)
    return record


def _record_of_tokens(text: str, source: SourceLocation, line: int, limit: int) -> Record:
    """The record of a line that is not points only: a result phrase at either end, opening
    tokens, move numbers, or damage (its problem)."""
    declared, body = _split_leading(text)
    declared_at_end, body = _split_trailing(body)
    moves, events, problem = _parse_body(body, line, limit, body is not text)
    events, metadata, result = _set_apart(events)
    record = Record(
        moves=moves, source=source, format=NAME, opening_events=events, metadata=metadata
    )
    record.declared_result = declared or result or declared_at_end
    if problem is not None:
        record.problems.append(problem)
    return record


def _set_apart(
    events: list[OpeningEvent],
) -> tuple[list[OpeningEvent], dict[str, str], DeclaredResult | None]:
    """The opening events among a body's events, and what the others say: the boards of its
    stones (as metadata) and the result its first result token declares."""
    kept = []
    metadata: dict[str, str] = {}
    result = None
    for e in events:
        if e.kind == "boards":
            metadata["boards"] = e.value or ""
        elif e.kind == "result":
            result = read_result(e.value or "")  # (the tokenizer keeps the first one only)
        else:
            kept.append(e)
    return kept, metadata, result


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
    # digit by digit: ``int`` refuses 4,300 digits and more (a hostile line must not stop reading)
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
        """The lines of ``block``, decoded (the number of an overlong one to ``cut_lines``)."""
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
    """The setup stones and the board size (but 15x15) of ``record``: a line holds neither."""
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
