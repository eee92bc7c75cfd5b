"""PlayOK (kurnik) game export reader (``.pgn``/``.txt``, PGN-like text).

A PlayOK export is a series of games, each a block of PGN tags followed by movetext::

    [Event "?"]
    [Site "PlayOK"]
    [Black "evacoregen6"]
    [White "tchupla"]
    [Result "1-0"]
    [GameType "61,15"]

    1. h13 i13 2. j13 white 3. -- h12 4. g10 i12 ... 20. c11 1-0

Tags
    Every tag goes to ``Record.metadata`` under its lower-cased key.  ``[Black]`` and ``[White]``
    name the two *seats* (``metadata["black"]``/``["white"]``), not the colours: after a colour
    choice the ``[Black]`` player may hold white.  ``[GameType "T,N"]``: ``T`` the game type
    (``60`` plain gomoku, read as the ``freestyle`` ruleset; ``61`` swap2), ``N`` the board size.

Movetext
    Move numbers (``1.``) count pairs of tokens and mean nothing.  The other tokens, in order:
    stones in standard notation (rows from the bottom, ``h8`` the centre), choice tokens
    ``black``/``white`` (an :class:`OpeningEvent` ``choose``), ``--`` (an empty slot, below) and
    the result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``).  Stone colours alternate from black
    whatever the choices (a choice moves a *player* to a colour, never changes a stone's colour).

Where a game ends
    At its result token, when what follows is a tag (the next game), a blank line, another
    result, the move number ``1.`` (a game without tags: each is a record of its own, with a
    problem), anything that is no movetext token, or the end of the file.  Stones (or choices,
    ``--``) after it, move numbers between or not, go on with the *same* game: its result came
    early, a problem of the game naming the token's line and the stones after it.  The declared
    result is the last result token (after the ``[Result]`` tag, as always).  Cut there, the
    game lost its last moves to a record of its own, without tags.

What ``--`` means (from the 266 games of the real sample)
    ``--`` is an empty slot of the writer's two-column layout, never a stone and never a pass.
    The sample has four opening shapes (``S`` a stone)::

        S S S black S ...            swap2 (a): P2 takes black, P1 (white) plays stone 4  (124)
        S S S white -- S ...         swap2 (b): P2 stays white; ``--`` = P1 has nothing to do,
                                     P2 plays stone 4 right after choosing              (107)
        S S S S S -- white -- S ...  swap2 (c): P2 placed stones 4 and 5; the first ``--`` =
        S S S S S -- black S ...     P2's empty slot before P1 chooses; after ``white`` the
                                     second ``--`` = P2's slot while P1 (now white) plays 6 (21+13)

    and one game that ended after three stones.  Three ``--`` appear outside the opening (after
    stones 21, 35 and 88; games 85, 179 and 217 counting from 0).  Reading them as passes would
    flip the colour of every later stone, and the boards say otherwise: with ``--`` skipped,
    game 85 ends with the declared winner's five and
    game 179 with an open four of the declared winner after the loser blocked a four, while as a
    pass game 85 would end without a five and in game 179 white would "pass" facing a four and a
    stone would follow black's five.  So ``--`` never becomes a :class:`Move`; one outside the
    opening is reported in ``Record.notes``.

Seats, colours and the declared result
    The result belongs to the header seat: ``1-0`` means the ``[Black]`` player won.  The
    ``[Black]`` player is the opener P1, who placed stones 1-3.  The final colours follow from the
    one choice token:

    - after 3 stones the choice is P2's (``[White]``): P2 holds the chosen colour, P1 the other;
    - after 5 stones (swap2 (c)) the choice is P1's: P1 holds the chosen colour;
    - no choice in a swap2 game (it ended during the opening), several choices, a choice elsewhere,
      a choice in a ``60`` game, or an unknown game type: the colours are not determined, so the
      declared winner is ``None`` and a note says why (``metadata["winner_player"]`` still names
      the winning player).

    Check on the sample: of the 245 games whose board shows an exactly-five row of one colour,
    all 245 name as winner the player who holds that colour under this reading (reading the
    header seats as colours instead agrees in only 108).  Overlines do not win there: in two games
    a six did not end the game (2021.09.21 19:41:59, white f2-f7 at stone 30, black won later;
    2021.08.10 18:49:03, black g6-g11 at stone 47, white's five at stone 48 won).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import BinaryIO

import renju_cli.limits as limits
from renju_cli.coords import MAX_SIZE, MIN_SIZE, Point, parse_point
from renju_cli.formats import ReadOptions, clip, lazy_compile, too_many_records, unreadable
from renju_cli.record import (
    BLACK,
    Color,
    DeclaredResult,
    Move,
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
)
from renju_cli.results import not_understood, read_result, understood

NAME = "playok"
EXTENSIONS = (".pgn", ".txt")

#: PlayOK game type number -> ruleset name.
GAME_TYPES: dict[str, str] = {"60": "freestyle", "61": "swap2"}

#: A line longer than this (bytes) is skipped whole; PlayOK wraps its movetext at 80 columns.
MIN_LINE_BYTES = 1 << 16
#: Tokens quoted in messages are cut to this length.
MAX_QUOTE = 40

# After a token: whitespace, the start of a tag or comment, or the end of the line.
_END = r"(?=[\s\[{;]|$)"
_TOKEN_RE = lazy_compile(
    rf"""
    (?P<num>[0-9]+\.(?:\.\.)?)
    | (?P<result>1-0|0-1|1/2-1/2|\*){_END}
    | (?P<empty>--){_END}
    | (?P<choice>(?ai:black|white)){_END}
    | (?P<stone>[a-zA-Z][1-9][0-9]?){_END}
    | (?P<bad>[^\s\[{{;]+)
    """,
    # no global IGNORECASE: with it [a-z] would match the Kelvin sign, which parse_point refuses;
    # the colour words are case-insensitive in ASCII only (under Unicode folding "whİte" matched,
    # and "whi̇te" is no colour)
    re.VERBOSE,
)
#: (the value's repeat possessive: a repeated group backtracks, and ``re`` kept about 180 bytes
#: a character to be able to: a 1 MB value took 200 MB; a value cannot end at another quote)
_TAG_RE = lazy_compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*+)"\s*\]')
#: A tag line that lost a bracket (``Time "07:53:48"]``, ``[Time "07:53:48"``): in a tag
#: section it is a damaged tag, not the start of the movetext
#: (matched whole against the stripped line: blanks at both ends of the pattern, around the
#: optional brackets, backtracked over each other, and a line of 1 MB of spaces in a tag
#: section ran for minutes)
_BROKEN_TAG_RE = lazy_compile(r'\[?\s*[A-Za-z][A-Za-z0-9_]*\s+"[^"]*"\s*\]?')
_UNESCAPE_RE = lazy_compile(r"\\(.)")
# bounded digit runs: int() of a 5000-digit string raises (and costs quadratic time)
_GAMETYPE_RE = lazy_compile(r"\s*([0-9]{1,9})\s*(?:,\s*([0-9]{1,9})\s*)?")
_WS_RE = lazy_compile(r"\s+")

_SNIFF_SURE = re.compile(rb'\[\s*(?:Site\s*"PlayOK"|GameType\s*")', re.IGNORECASE)
_SNIFF_TAG = re.compile(rb'^\s*\[[A-Za-z0-9_]+\s*"[^"\r\n]*"\s*\]', re.MULTILINE)

_EXPECTED = (
    "expected a stone in standard notation (e.g. h8), 'black', 'white', '--', "
    "a move number or a result (1-0, 0-1, 1/2-1/2, *)"
)


def sniff(head: bytes) -> int:
    """How sure ``head`` is a PlayOK export.

    2 with a PlayOK tag (``[Site "PlayOK"]``, ``[GameType ...]``), 1 with PGN-style tags, else 0.
    """
    if _SNIFF_SURE.search(head):
        return 2
    if _SNIFF_TAG.search(head.lstrip(b"\xef\xbb\xbf")):
        return 1
    return 0


class _Game:
    """One game while it is being read.

    A slotted class, not a dataclass with default factories: one is made per game, and a hostile
    file holds hundreds of thousands of games.
    """

    __slots__ = (
        "comments",
        "early",
        "early_dropped",
        "early_rest",
        "ended",
        "events",
        "in_movetext",
        "index",
        "keys",
        "last_line",
        "line",
        "moves",
        "notes",
        "notes_dropped",
        "problems",
        "result",
        "stones_seen",
        "stopped",
        "tags",
        "tags_cut",
        "tags_ended",
    )

    def __init__(self, index: int, line: int, notes: list[str], notes_dropped: int = 0) -> None:
        self.index = index
        self.line = line  # line of the first tag (or of the first token without tags)
        self.tags: list[tuple[str, str, int]] = []
        self.tags_cut = False  # past MAX_TAGS tag lines: the rest are read past
        self.tags_ended = False  # a blank line came after the tags (the movetext is next)
        #: the keys of ``tags``: a tag after ``tags_ended`` asks whether its key is there (a
        #: scan of the list was quadratic)
        self.keys: set[str] = set()
        self.moves: list[Move] = []
        self.events: list[OpeningEvent] = []
        self.notes = notes
        self.notes_dropped = notes_dropped  # past ``MAX_NOTES``: counted, not kept
        self.problems: list[ParseProblem] = []
        self.result: tuple[str, int] | None = None  # the last result token read, its line
        #: the last movetext token was the result: the game ends there unless stones follow
        self.ended = False
        #: result tokens that stones followed: each one's problem (its message is written when
        #: the game ends, with the stones after it) and the stones read before it
        self.early: list[tuple[ParseProblem, str, int]] = []
        self.early_dropped = 0  # past ``MAX_NOTES``: counted, in one more problem
        self.early_rest: ParseProblem | None = None
        self.stones_seen = 0  # stone tokens read, kept or not (past a bound, after a bad token)
        self.in_movetext = False
        self.stopped = False  # a bad token or a bound: the rest of the movetext is skipped
        self.last_line: int | None = None
        #: the comments of the last move so far, joined when the next move comes or the game
        #: ends (joining each time would copy the text so far: quadratic for 100,000 comments)
        self.comments: list[str] | None = None

    def note(self, text: str) -> None:
        """Keep a note, or count it past ``MAX_NOTES``."""
        if len(self.notes) < MAX_NOTES:
            self.notes.append(text)
        else:
            self.notes_dropped += 1

    def add_tag(self, key: str, value: str, n: int, max_string: int) -> None:
        """Keep the tag of line ``n``: its value's escapes undone, cut to ``max_string`` (a
        note says so)."""
        if "\\" in value:  # the regex only for escapes, which real tags never hold
            value = _UNESCAPE_RE.sub(r"\1", value)
        if len(value) > max_string:
            self.note(f"line {n}: tag {key} cut to {max_string} chars")
            value = value[:max_string]
        self.tags.append((key, value, n))
        self.keys.add(key)

    def add_comment(self, text: str) -> None:
        """Give the last move one more comment (none before the first move or after the
        result, none of no text)."""
        if not text or not self.moves or self.ended:
            return
        if self.comments is None:
            last = self.moves[-1].comment
            self.comments = [] if last is None else [last]
        self.comments.append(text)

    def end_comments(self) -> None:
        """Give the last move the comments it got so far."""
        if self.comments is not None:
            self.moves[-1].comment = " ".join(self.comments)
            self.comments = None


#: Notes kept per game (past them, one more note says how many were not kept) and tags of one
#: game that are read, well-formed or not: ``limits.PLAYOK_NOTES`` and ``PLAYOK_TAGS``.
MAX_NOTES = limits.PLAYOK_NOTES
MAX_TAGS = limits.PLAYOK_TAGS

#: One movetext token: its kind (a group name of ``_TOKEN_RE``), its text, its point if a stone.
_Token = tuple[str, str, Point | None]
#: Distinct chunks whose tokens one reader remembers (memory stays bounded on hostile files).
_MAX_CHUNKS = 4096
#: Longer lines are split at whitespace this many characters at a time.
_SPLIT_WINDOW = 1 << 16


def _chunks(line: str) -> Iterable[str]:
    """The whitespace-separated chunks of ``line`` (``str.split`` and the regex ``\\s`` agree).

    A long line is split a window at a time, each window ending at whitespace: a whole 1 MB line
    of tiny chunks would make a list of some 16 MB.
    """
    if len(line) <= _SPLIT_WINDOW:
        return line.split()
    return _windowed_chunks(line)


def _windowed_chunks(line: str) -> Iterator[str]:
    start, end = 0, len(line)
    while start < end:
        ws = _WS_RE.search(line, start + _SPLIT_WINDOW)
        cut = end if ws is None else ws.start()
        yield from line[start:cut].split()
        start = cut


def _token_of(m: re.Match[str]) -> _Token:
    kind, tok = m.lastgroup, m.group()
    assert kind is not None  # every branch of _TOKEN_RE is a named group
    return kind, tok, parse_point(tok) if kind == "stone" else None


def _chunk_tokens(chunk: str) -> tuple[_Token, ...]:
    """The tokens of ``chunk``: movetext without whitespace, ``[``, ``{`` or ``;``.

    A token ends with the chunk except a move number (``1.h8`` is two tokens), so this is what
    ``_TOKEN_RE`` finds at the same place in the whole line.
    """
    out: list[_Token] = []
    pos, end = 0, len(chunk)
    while pos < end:
        m = _TOKEN_RE.match(chunk, pos)
        assert m is not None  # the "bad" branch matches any other character
        out.append(_token_of(m))
        pos = m.end()
    return tuple(out)


def _quote(token: str) -> str:
    return repr(token if len(token) <= MAX_QUOTE else token[:MAX_QUOTE] + "...")


def _decode(raw: bytes, encoding: str | None) -> tuple[str, str | None]:
    """Decode one line: ``encoding`` first, then UTF-8, then UTF-8 with replacement characters.

    Returns the text and, when bytes had to be replaced, a note.
    """
    if encoding is not None:
        try:
            return raw.decode(encoding), None
        except (UnicodeError, LookupError):  # idna & co raise UnicodeError
            pass
    # UTF-8 with replacement at once, no exception raised and caught per line (half a million
    # lines of a bad byte each took 2 s): it was valid when it replaced nothing, i.e. when every
    # U+FFFD in the text was one written in the file
    text = raw.decode("utf-8", errors="replace")
    if "\ufffd" not in text or text.count("\ufffd") == raw.count(b"\xef\xbf\xbd"):
        return text, None
    tried = f"{encoding} or UTF-8" if encoding else "UTF-8"
    return text, f"bytes not valid {tried} replaced by U+FFFD"


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield one record per game of a PlayOK export, in file order, never raising on content."""
    reader = _Reader(path, options)
    try:
        records = reader.records(stream)
        # at most max_records records (at least one); reading stops after them, and says so
        yield from islice(records, max(options.max_records, 1))
        extra = next(records, None)
        if extra is not None:
            yield too_many_records(path, extra.source.index, extra.source.line, options)
    except OSError as exc:
        # the stream itself failed (not the content): report it as one more record
        yield unreadable(path, f"read error: {exc}", index=reader.count, line=reader.lineno or None)


class _Reader:
    """The line scanner: tags and tokens in, finished records out.

    A game read up to its result token stays ``game`` (``ended``) until the next token tells:
    stones go on with it (the result came early), anything else finishes it (``_token``).
    """

    def __init__(self, path: str, options: ReadOptions) -> None:
        self.path = path
        self.options = options
        self.game: _Game | None = None
        self.count = 0  # records yielded (or started) so far
        self.lineno = 0
        self.pending_notes: list[str] = []  # found before the first game of the file started
        self.pending_dropped = 0  # (past ``MAX_NOTES``, counted)
        self.in_comment: list[str] | None = None  # text of an open { comment } spanning lines
        self.comment_size = 0
        self.comment_line = 0
        # chunk -> its tokens: a file repeats few distinct chunks (move numbers, stones, results)
        self.chunks: dict[str, tuple[_Token, ...]] = {}

    # -- driving -----------------------------------------------------------------------------

    def records(self, stream: BinaryIO) -> Iterator[Record]:
        """Scan the stream line by line; memory is bounded by one game and one line."""
        limit = max(self.options.max_string, MIN_LINE_BYTES)
        encoding = self.options.encoding
        first = True
        while raw := stream.readline(limit + 1):
            if len(raw) > limit and not raw.endswith(b"\n"):
                self._skip_long_line(stream, raw, limit)
                continue
            if first:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
                first = False
            text, note = _decode(raw.rstrip(b"\n"), encoding)
            # a lone CR also ends a line (old Mac files); CR LF is one line end
            for line in text.rstrip("\r").split("\r") if "\r" in text else (text,):
                self.lineno += 1
                yield from self._scan_line(line)
                if note is not None:
                    # after the scan: a tag line that opens a game gets the note of its own bytes
                    game = self.game
                    if game is not None and len(game.notes) >= MAX_NOTES:
                        game.notes_dropped += 1  # (only counted: not worded for nothing)
                    else:
                        self._note(f"line {self.lineno}: {note}")
        yield from self._end_of_file()

    def _end_of_file(self) -> Iterator[Record]:
        """The problem of a comment never closed, and the file's last game."""
        if self.in_comment is not None:
            self._comment_problem()
        if self.game is not None:
            yield self._finish()

    def _skip_long_line(self, stream: BinaryIO, raw: bytes, limit: int) -> None:
        """Skip the whole line ``raw`` began, with a note: a hostile or broken file (cutting
        the line would cut a token in two)."""
        while raw and not raw.endswith(b"\n"):
            raw = stream.readline(limit + 1)
        self.lineno += 1
        self._note(f"line {self.lineno}: longer than {limit} bytes, skipped")

    def _note(self, note: str) -> None:
        if self.game is not None:
            self.game.note(note)
        elif len(self.pending_notes) < MAX_NOTES:
            self.pending_notes.append(note)
        else:
            self.pending_dropped += 1

    def _open(self, line: int) -> _Game:
        """Open the next game; the current one, if any, must be finished first."""
        game = self.game = _Game(self.count, line, self.pending_notes, self.pending_dropped)
        self.pending_notes, self.pending_dropped = [], 0
        self.count += 1
        return game

    def _finish(self) -> Record:
        game = self.game
        assert game is not None
        self.game = None
        if game.early:
            _say_early(game)
        if not game.ended and (game.in_movetext or game.moves):
            game.problems.append(
                ParseProblem(
                    "movetext ends without a result token (1-0, 0-1, 1/2-1/2 or *)",
                    line=game.last_line,
                )
            )
        elif game.result is None and game.tags:
            game.problems.append(
                ParseProblem(
                    f"the tag section of line {game.line} is followed by no moves and no result "
                    "token (the game's movetext is missing)",
                    line=game.line,
                )
            )
        game.end_comments()
        return _build(game, self.path)

    # -- scanning ----------------------------------------------------------------------------

    def _scan_line(self, line: str) -> Iterator[Record]:
        n = self.lineno
        if not line.strip():
            record = self._blank_line()
            if record is not None:
                yield record
        elif self._tag_without_bracket(line, n):
            return
        elif self.in_comment is None and "[" not in line and "{" not in line and ";" not in line:
            yield from self._movetext(line, n)
        else:
            yield from self._marked_up(line, n)

    def _blank_line(self) -> Record | None:
        """A blank line: it ends a game read to its result, and the tag section of one."""
        game = self.game
        if game is not None and self.in_comment is None:
            if game.ended:
                # the blank line after a game: what follows is another one, even without
                # tags (a PlayOK movetext holds no blank line)
                return self._finish()
            if game.tags and not game.in_movetext:
                game.tags_ended = True
        return None

    def _tag_without_bracket(self, line: str, n: int) -> bool:
        """Whether ``line`` is a tag of the tag section that lost its "[" (a problem says so)."""
        game = self.game
        if (
            game is None
            or not game.tags
            or game.tags_ended
            or game.in_movetext
            or self.in_comment is not None
            or line.lstrip().startswith("[")
            or not _BROKEN_TAG_RE.fullmatch(line.strip())
        ):
            # (a "[Key" line without its "]" is reported by the tag scanner itself)
            return False
        game.problems.append(
            ParseProblem(
                f"line {n}: tag {_quote(line.strip())} has lost its '['; expected [Key \"Value\"]",
                line=n,
            )
        )
        return True

    def _movetext(self, line: str, n: int) -> Iterator[Record]:
        """Plain movetext, the bulk of a file: split at whitespace, each chunk tokenized once."""
        chunks = self.chunks
        for chunk in _chunks(line):
            tokens = chunks.get(chunk)
            if tokens is None:
                tokens = _chunk_tokens(chunk)
                if len(chunks) < _MAX_CHUNKS:
                    chunks[chunk] = tokens
            for kind, tok, point in tokens:
                record = self._token(kind, tok, point, n)
                if record is not None:
                    yield record

    def _marked_up(self, line: str, n: int) -> Iterator[Record]:
        """A line with tags, comments or a comment open: piece by piece."""
        pos, end = 0, len(line)
        while pos < end:
            if self.in_comment is not None:
                pos = self._comment_part(line, pos)
            else:
                record, pos = self._piece(line, pos, n)
                if record is not None:
                    yield record
            if pos < 0:
                return

    def _comment_part(self, line: str, pos: int) -> int:
        """The text of the open comment from ``pos`` on: where reading goes on, -1 when the
        comment goes on past the line."""
        comment = self.in_comment
        assert comment is not None
        if pos == 0 and _TAG_RE.match(line.lstrip()):
            # a tag line: the comment was never closed; do not let it eat the next game
            self._comment_problem()
            return pos
        close = line.find("}", pos)
        self._comment_text(line[pos : len(line) if close < 0 else close])
        if close < 0:
            return -1
        if self.game is not None:
            self.game.add_comment(" ".join(comment).strip()[: self.options.max_string])
        self.in_comment = None
        return close + 1

    def _piece(self, line: str, pos: int, n: int) -> tuple[Record | None, int]:
        """What starts at ``pos``, out of comments: the record of the game it finished, if any,
        and where reading goes on (-1: nowhere on this line)."""
        ch = line[pos]
        if ch.isspace():
            ws = _WS_RE.match(line, pos)
            assert ws is not None
            return None, ws.end()
        if ch == "[":
            return self._scan_tag(line, pos, n)
        if ch == "{":
            self.in_comment, self.comment_size, self.comment_line = [], 0, n
            return None, pos + 1
        if ch == ";":
            return None, -1  # PGN rest-of-line comment
        tm = _TOKEN_RE.match(line, pos)
        assert tm is not None  # the "bad" branch matches any other character
        return self._token(*_token_of(tm), n), tm.end()

    def _scan_tag(self, line: str, pos: int, n: int) -> tuple[Record | None, int]:
        """Read the tag at ``pos``: the record of the game it closed, if any, and where it ends."""
        game = self.game
        done: Record | None = None
        if game is None or game.in_movetext:
            # a tag after movetext (or as the first thing) starts a game
            if game is not None:
                done = self._finish()
            game = self._open(n)
        game.last_line = n
        if len(game.tags) + len(game.problems) >= MAX_TAGS:  # a tag section without end
            if not game.tags_cut:
                game.tags_cut = True
                game.note(f"line {n}: more than {MAX_TAGS} tags; the rest not read")
            return done, len(line)
        m = _TAG_RE.match(line, pos)
        if m is None:
            game.problems.append(
                ParseProblem(
                    f"line {n}: unterminated or malformed tag {_quote(line[pos:].rstrip())}; "
                    'expected [Key "Value"] on one line',
                    line=n,
                )
            )
            return done, len(line)
        key, value = m.group(1, 2)
        if game.tags_ended and key in game.keys:
            # after the blank line that ends a tag section, a key it holds already: the next
            # game's tags, after a game of tags alone (its moves missing), which would
            # otherwise take them over
            done = self._finish()
            game = self._open(n)
            game.last_line = n
        game.add_tag(key, value, n, self.options.max_string)
        return done, m.end()

    def _token(self, kind: str, tok: str, point: Point | None, n: int) -> Record | None:
        """Take one movetext token; returns the record of the game it finished, if any."""
        done: Record | None = None
        game = self.game
        if game is not None and game.ended:
            if kind == "num" and not _is_move_one(tok):
                return None  # a move number, as in "2. h9 1-0 3. h10": it may go on yet
            if kind in _PLAY:
                # the movetext goes on after its result: one game whose result came early (cut
                # there, its last moves became a game of their own, without tags)
                game.ended = False
                _early(game)
            else:
                # another result, the move number 1 (a game without tags) or no movetext at
                # all: the game ended at its result, the token belongs to what follows
                done = self._finish()
        game = self.game
        if game is None:
            # moves with no tag block before them: still a game, but not a well-formed one
            game = self._open(n)
            game.problems.append(ParseProblem(f"line {n}: movetext without a tag section", n))
        game.in_movetext = True
        game.last_line = n
        take = (_TAKE_STOPPED if game.stopped else _TAKE).get(kind)
        if take is not None:
            take(self, game, tok, point, n)
        return done

    # -- what each kind of token does (``_TAKE``)

    def _result(self, game: _Game, tok: str, point: Point | None, n: int) -> None:
        game.result = (tok, n)
        game.ended = True

    def _stone(self, game: _Game, tok: str, point: Point | None, n: int) -> None:
        game.stones_seen += 1
        if len(game.moves) >= self.options.max_moves:
            self._too_many(game, "stones", n)
            return
        if game.comments is not None:  # (most moves have none: no call for them)
            game.end_comments()
        game.moves.append(Move(point, None, n, None, tok))  # point, color, line, offset, token

    def _choice(self, game: _Game, tok: str, point: Point | None, n: int) -> None:
        if len(game.events) >= self.options.max_moves:  # (bounded as the stones are)
            self._too_many(game, "colour choices", n)
            return
        game.events.append(
            OpeningEvent(kind="choose", after=len(game.moves), value=tok.lower(), line=n)
        )

    def _empty_slot(self, game: _Game, tok: str, point: Point | None, n: int) -> None:
        if not _opening_slot(game):
            game.note(
                f"line {n}: empty slot '--' after {len(game.moves)} stones, outside the "
                "opening; read as nothing (not a pass: stone colours keep alternating)"
            )

    def _bad_token(self, game: _Game, tok: str, point: Point | None, n: int) -> None:
        # keep the stones read so far; without any the record cannot be read at all
        game.problems.append(
            ParseProblem(
                f"line {n}: unexpected token {_quote(tok)}; {_EXPECTED}",
                line=n,
                fatal=not game.moves,
            )
        )
        game.stopped = True

    def _stone_past(self, game: _Game, tok: str, point: Point | None, n: int) -> None:
        game.stones_seen += 1  # (for the messages of early results)

    def _too_many(self, game: _Game, what: str, n: int) -> None:
        """Stop reading ``game``'s movetext: more ``what`` than a game may have."""
        limit = self.options.max_moves
        game.problems.append(
            ParseProblem(f"line {n}: more than {limit} {what}; the rest is ignored", line=n)
        )
        game.stopped = True

    def _comment_text(self, text: str) -> None:
        # bounded: a "{" that is never closed must not hold the rest of the file in memory
        assert self.in_comment is not None
        room = self.options.max_string - self.comment_size
        if room > 0:
            self.in_comment.append(text[:room])
            self.comment_size += min(len(text), room) + 1

    def _comment_problem(self) -> None:
        self.in_comment = None
        message = f"line {self.comment_line}: comment '{{' never closed by '}}'"
        if self.game is not None:
            self.game.problems.append(ParseProblem(message, line=self.comment_line))
        else:
            self._note(message)


_Take = Callable[[_Reader, _Game, str, Point | None, int], None]
#: What each kind of movetext token (a group name of ``_TOKEN_RE``) does to the game; move
#: numbers count pairs of tokens and mean nothing.
_TAKE: dict[str, _Take] = {
    "result": _Reader._result,
    "empty": _Reader._empty_slot,
    "choice": _Reader._choice,
    "stone": _Reader._stone,
    "bad": _Reader._bad_token,
}
#: What each does once a bad token or a bound stopped the game: the rest of its movetext is
#: read past, but for its result (and its stones are counted).
_TAKE_STOPPED: dict[str, _Take] = {"result": _Reader._result, "stone": _Reader._stone_past}
#: The tokens that go on with a game after its result token (the result came early).
_PLAY = frozenset(("stone", "choice", "empty"))


def _is_move_one(tok: str) -> bool:
    """Whether the move number ``tok`` is 1 (``1.``, ``01.``, ``1...``): a new game's."""
    return tok.rstrip(".").lstrip("0") == "1"


def _opening_slot(game: _Game) -> bool:
    """Whether a ``--`` now is one of the swap2 opening's expected empty slots.

    That is: at most 5 stones and no stone placed yet after a colour choice.  The choices are
    in the order read, so the first is the earliest (a look at each of them, for every ``--``
    of ``black -- black -- ...``, was quadratic).
    """
    stones = len(game.moves)
    return stones <= 5 and not (game.events and game.events[0].after < stones)


def _early(game: _Game) -> None:
    """Keep the problem of ``game``'s last result token, which more movetext follows.

    Bounded as notes are: past ``MAX_NOTES`` one more problem counts the rest (a hostile
    movetext alternates a stone and a result without end).
    """
    assert game.result is not None
    tok, line = game.result
    if len(game.early) < MAX_NOTES:
        problem = ParseProblem("", line=line)  # its message when the game ends (``_say_early``)
        game.problems.append(problem)
        game.early.append((problem, tok, game.stones_seen))
        return
    if game.early_rest is None:
        game.early_rest = ParseProblem("", line=line)
        game.problems.append(game.early_rest)
    game.early_dropped += 1


def _say_early(game: _Game) -> None:
    """Write the messages of ``game``'s early result tokens, now that it has ended."""
    last = game.result[0] if game.ended and game.result is not None else None
    for problem, tok, before in game.early:
        problem.message = _early_message(problem.line, tok, game.stones_seen - before, last)
    rest = game.early_rest
    if rest is not None:
        rest.message = (
            f"line {rest.line}: {game.early_dropped} more result token(s) before the end of the "
            "movetext, not listed"
        )


def _early_message(line: int | None, tok: str, stones: int, last: str | None) -> str:
    """The problem of a result token ``tok`` that ``stones`` stones followed; ``last`` is the
    game's last result token, if it ended with one."""
    follow = f"{stones} more stone(s) follow" if stones else "more movetext follows"
    message = f"line {line}: result {tok} before the end of the movetext: {follow}"
    return message if last in (None, tok) else f"{message}, and it ends with {last}"


def _build(game: _Game, path: str) -> Record:
    """Turn a finished game into a record: metadata, rule, size, colours, result."""
    metadata = _metadata(game)
    notes = game.notes  # the game's own list (a new one per game), so no copy
    if game.notes_dropped:
        notes.append(
            f"{game.notes_dropped} more note(s) like these are not kept (at most {MAX_NOTES} "
            "a game)"
        )
    rule, size = _game_type(game, metadata.get("gametype"))
    said = _result_text(game, metadata, notes)
    declared_result = None if said is None else _declared(said[0], said[1], rule, game, metadata)
    # positional arguments, in field order: keywords would cost more than the rest of reading a
    # tiny game does (hostile files hold hundreds of thousands)
    return Record(
        game.moves,
        SourceLocation(path, game.index, game.line),
        size,  # width
        size,  # height
        declared_result,
        rule,
        None,  # opening_id
        metadata,
        [],  # setup
        game.events,  # opening_events
        notes,
        game.problems,
        NAME,  # format
    )


def _metadata(game: _Game) -> dict[str, str]:
    """Every tag under its lower-cased key; of a repeated key the last value (a note says so)."""
    metadata: dict[str, str] = {}
    for key, value, n in game.tags:
        low = key.lower()
        if metadata.get(low, value) != value:
            game.note(f"line {n}: tag {key} repeated; the last value is kept")
        metadata[low] = value
    return metadata


def _last_tag_line(game: _Game, low: str) -> int:
    """The line of the last tag of ``low`` (the value kept) of ``game``."""
    return next(n for key, _, n in reversed(game.tags) if key.lower() == low)


def _game_type(game: _Game, gametype: str | None) -> tuple[str | None, int | None]:
    """The rule and the board size of ``[GameType "T,N"]``, each ``None`` when not known (a
    note says why; a size no board can have is an error, as in the other formats)."""
    if gametype is None:
        game.notes.append("no GameType tag: rule and board size unknown")
        return None, None
    gm = _GAMETYPE_RE.fullmatch(gametype)
    number, size = gm.groups() if gm else ("", None)
    rule = GAME_TYPES.get(number)
    if rule is None:
        game.notes.append(f"unknown PlayOK GameType {clip(gametype)!r}: no rule assumed")
    return rule, None if size is None else _board_size(game, int(size))


def _board_size(game: _Game, size: int) -> int | None:
    """The GameType's board size, or ``None`` when no board can be that size: an error, as in
    the other formats, and the ruleset's size is used."""
    if MIN_SIZE <= size <= MAX_SIZE:
        return size
    line = _last_tag_line(game, "gametype")
    game.problems.append(
        ParseProblem(
            f"line {line}: GameType board size {size} is not one of {MIN_SIZE} to {MAX_SIZE}; "
            "the ruleset's size is used",
            line=line,
        )
    )
    return None


def _result_text(game: _Game, metadata: dict[str, str], notes: list[str]) -> tuple[str, int] | None:
    """The declared result and its line: the ``[Result]`` tag, else the movetext's result."""
    tag = metadata.get("result")
    if tag is None:
        return game.result
    if game.result is not None and game.result[0] != tag:
        notes.append(
            f"[Result {tag!r}] but the movetext ends with {game.result[0]!r}; the tag is kept"
        )
    return tag, _last_tag_line(game, "result")


def _declared(
    text: str, line: int, rule: str | None, game: _Game, metadata: dict[str, str]
) -> DeclaredResult | None:
    """The declared result of ``text`` (``renju_cli.results``), its winner a colour: a win
    names the winning seat (``1-0``: the ``[Black]`` player), whose colour ``final_p1_colour``
    tells; when it cannot, the winner is ``None`` and a note says why.  Words not understood
    are an info problem quoting them.

    Also sets ``metadata["winner_player"]`` and, when known, ``final_black``/``final_white``.
    """
    read = read_result(text)
    if read is not None and not understood(read):
        game.problems.append(
            ParseProblem(f"line {line}: {not_understood(text)}", line, None, False, "info")
        )
    if read is None or read.winner not in _SEATS:
        return read
    seat, header = read.winner, _SEATS[read.winner]
    metadata["winner_player"] = metadata.get(seat, header)
    p1_colour, why = final_p1_colour(rule, game.events, len(game.moves))
    if p1_colour is None:
        game.notes.append(
            f"result {text} is a win of the {header} player "
            f"({metadata['winner_player']}), whose colour is unknown: {why}"
        )
        return DeclaredResult(None, read.reason, text)
    _final_colours(metadata, p1_colour)
    winner = p1_colour if seat == "black" else p1_colour.other
    return DeclaredResult(winner.value, read.reason, text)


#: The header seats a result names (``1-0``: the ``[Black]`` player, P1, won).
_SEATS = {"black": "[Black]", "white": "[White]"}


def _final_colours(metadata: dict[str, str], p1_colour: Color) -> None:
    """Name the players of the final colours, when the header names both seats."""
    if "black" in metadata and "white" in metadata:
        p1, p2 = metadata["black"], metadata["white"]
        black, white = (p1, p2) if p1_colour is BLACK else (p2, p1)
        metadata["final_black"], metadata["final_white"] = black, white


#: Who chooses the colour in swap2, by the stones placed before the choice: after 3, P2 (swap2
#: (a)/(b): P2 decides after the opener's three stones); after 5, P1 (swap2 (c): P2 placed
#: stones 4 and 5, and P1 chooses).
_P1_CHOOSES = {3: False, 5: True}


def final_p1_colour(
    rule: str | None, events: list[OpeningEvent], stones: int
) -> tuple[Color | None, str]:
    """The colour finally held by P1 (the ``[Black]`` seat, the opener), or ``None`` and why.

    ``events`` are the game's ``choose`` events, ``stones`` the number of stones placed.
    """
    if rule is None:
        return None, "unknown game type, so whether a swap protocol applied is unknown"
    choices = [e for e in events if e.kind == "choose"]
    if rule == "freestyle":
        if choices:
            return None, "colour choice tokens in a plain gomoku (GameType 60) game"
        return BLACK, ""
    return _swap2_p1_colour(choices, stones)


def _swap2_p1_colour(choices: list[OpeningEvent], stones: int) -> tuple[Color | None, str]:
    """P1's colour after swap2's one colour choice (``final_p1_colour``)."""
    if not choices:
        return None, f"the swap2 opening ended after {stones} stones, before any colour choice"
    if len(choices) > 1:
        where = ", ".join(f"after {e.after}" for e in choices)
        return None, f"several colour choices ({where}); swap2 has one"
    choice = choices[0]
    chosen = Color(choice.value)
    p1_chooses = _P1_CHOOSES.get(choice.after)
    if p1_chooses is None:
        return None, f"a colour choice after {choice.after} stones fits no swap2 branch"
    return chosen if p1_chooses else chosen.other, ""
