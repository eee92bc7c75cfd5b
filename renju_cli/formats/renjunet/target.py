"""The parser's target: keeps the lookup tables and turns each ``<game>`` into a ``Record``."""

from __future__ import annotations

from typing import Any, NoReturn

from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, budget_terms, text_cost
from renju_cli.formats.renjunet.attributes import (
    MAX_TABLE_ENTRIES,
    TABLE_ELEMENTS,
    Tables,
    read_attributes,
)
from renju_cli.formats.renjunet.game import NAME, Game, fatal, label, local
from renju_cli.formats.renjunet.recoder import Recoder
from renju_cli.formats.renjunet.source import Open, Pos, quote
from renju_cli.record import Move, ParseProblem, Record, SourceLocation

#: A move token longer than this cannot be a point; it is kept only for the message.
MAX_TOKEN = 32
#: Elements enclosing games that a resumed parser is given (their start tags, without attributes),
#: and the namespace declarations and bytes of those start tags: a file past them is not resumed.
MAX_PREFIX_DEPTH = 64
MAX_PREFIX_BYTES = 1 << 14

_SEPARATORS = " \t\r\n,"
#: Points already parsed, by token: games repeat the same few hundred tokens.
_POINTS: dict[str, Point] = {}


class Stop(Exception):
    """Raised from inside the parser callbacks to end the parse with a message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TooDeep(Exception):
    """Raised from ``Target.start`` at a start tag nested deeper than ``max_depth``: expat
    holds every open element, so the parse cannot go on; reading resumes at the next ``<game``
    (at this start tag when it is a game's) with a fresh parser (see ``parse.resync``)."""

    def __init__(self, line: int | None, col: int, at: int, game: bool) -> None:
        super().__init__(f"elements nested too deep at line {line}")
        self.line = line
        self.col = col
        self.at = at  # the file's byte index of the start tag's "<"
        self.game = game  # the start tag is a <game>'s


def _cut_at_last_separator(text: str) -> tuple[str, str | None]:
    """``text`` up to its last separator, and the token after it (``MAX_TOKEN`` characters at
    most), which the end of a chunk of text may cut: it is kept for the next chunk."""
    if not text or text[-1] in _SEPARATORS:
        return text, None
    cut = max(text.rfind(c) for c in _SEPARATORS) + 1
    return text[:cut], text[cut : cut + MAX_TOKEN]


def _declarations_at(
    decls: list[tuple[int, str, str]], i: int, depth: int, prefix_of: dict[str, str]
) -> tuple[int, str]:
    """The namespace declarations of the start tag at ``depth``, from ``decls[i]`` on, as
    written, and the index after them; ``prefix_of`` learns their prefixes."""
    declared = ""
    while i < len(decls) and decls[i][0] == depth:
        _, prefix, uri = decls[i]
        prefix_of[uri] = prefix
        declared += f" xmlns{':' if prefix else ''}{prefix}={quote(uri)}"
        i += 1
    return i, declared


class Target:
    """Parser target: keeps the lookup tables and turns each ``<game>`` into a ``Record``."""

    def __init__(self, path: str, options: ReadOptions, recoder: Recoder) -> None:
        self.path = path
        self.options = options
        self.recoder = recoder
        self.expat: Any = None  # set once the parser exists, for line numbers
        self.tables = Tables(options.max_string)
        self.stack: list[str] = []
        self.root: str | None = None
        self.database: dict[str, str] = {}
        self.database_meta: dict[str, str] = {}  # what every record's metadata starts with
        self.game: Game | None = None
        # the depth of the outermost <game> element still open that was reported as not closed
        # (0: none): expat holds it open, so what follows is not outside games for ``outer``
        self.unclosed = 0
        self.ready: list[Record] = []
        self.index = 0  # source.index of the next record
        self.emitted = 0  # moves and text (``text_cost``) of the records so far: the budget
        # the tags ("uri}name") of the open elements outside any game, and the namespace
        # declarations in force (depth of the element declaring, prefix, uri): what a parser
        # resumed after a syntax error is given so that the file's closing tags still match
        self.outer: list[str] = []
        self.ns_decls: list[tuple[int, str, str]] = []
        # a parser resumed after a syntax error starts inside the file: what to add to its line
        # numbers (and to its columns on its first line) and byte indexes to get the file's
        self.resumed = False
        self.resumed_at = 0  # the file's byte index where this parser's file text starts
        self.line_offset = 0
        self.col_offset = 0
        self.byte_offset = 0
        # the CDATA section open (expat reads what it holds as text, to its end): the file's
        # byte index, line and column of its "<![CDATA["
        self.cdata_at: int | None = None
        self.cdata_line = 0
        self.cdata_col = 0

    # -- parser callbacks -------------------------------------------------------------------

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        """Start tag: open a game, a table entry or a child of the current game.

        Called by expat itself (see ``parse.make_parser``): a name in a namespace comes as
        ``uri}name``.
        """
        name = local(tag) if "}" in tag else tag
        stack = self.stack
        parent = stack[-1] if stack else None
        stack.append(name)
        if len(stack) > self.options.max_depth:
            self._too_deep(name)
        if parent is None:
            self._root(name, attrib)
            if name != "game":  # a document that is a single <game> is read too
                self.outer.append(tag)
                return
        game = self.game
        if game is not None and self._in_game(game, name):
            return
        if name == "game":
            self._start_game(attrib, len(stack))
        else:
            self._outside_games(tag, name, parent, attrib)

    def _outside_games(
        self, tag: str, name: str, parent: str | None, attrib: dict[str, str]
    ) -> None:
        """A start tag outside games: the tables and their entries."""
        if not self.unclosed:  # (expat holds a game not closed open: what follows is in it)
            self.outer.append(tag)
        table = TABLE_ELEMENTS.get(name)
        if table is not None and parent == table:
            self.tables.add_entry(table, attrib)
        elif name in self.tables.entries:
            self.tables.seen.add(name)  # an empty table is still a table

    def _root(self, name: str, attrib: dict[str, str]) -> None:
        """The root element; the attributes of a ``<database>`` (not those of the synthetic tag
        a resumed parser starts with) go into every record's metadata."""
        self.root = name
        if name == "database" and not self.resumed:
            self.database = {k: self._clip(v) for k, v in attrib.items()}
            for key in ("version", "date"):
                if self.database.get(key):
                    self.database_meta[f"database_{key}"] = self.database[key]

    def _in_game(self, game: Game, name: str) -> bool:
        """A start tag in ``game``; ``False`` when it is the next game's (games never nest, so
        ``game`` is not closed)."""
        if name == "move":
            self._move_element(game)
        elif name == "info":
            game.in_info = True
            if game.info:
                game.info.append("\n")  # several <info> children: one per line
        elif name == "game":
            self._not_closed(game)
            return False
        return True

    def _start_game(self, attrib: dict[str, str], depth: int) -> None:
        if self.index >= self.options.max_records:
            raise Stop(f"{self.options.too_many()}; the rest is not read")
        attrs = {local(k): self._clip(v) for k, v in attrib.items()}
        self.game = Game(attrs, self.line(), depth)
        if any(len(v) > self.options.max_string for v in attrib.values()):
            self.game.notes.append(self._truncated_note())

    def end(self, tag: str) -> None:
        """End tag: finish a game (its record becomes ready) or a game child."""
        if self.stack:
            self.stack.pop()
        game = self.game
        if game is None:
            self._end_outside_games()
            return
        name = local(tag) if "}" in tag else tag
        if name == "move":
            if game.in_move:
                self._flush_token(game)
                game.in_move = False
        elif name == "info":
            game.in_info = False
        elif name == "game" and len(self.stack) < game.depth:
            self._end_game(game)

    def _end_outside_games(self) -> None:
        if len(self.outer) > len(self.stack):
            self.outer.pop()
        if self.unclosed > len(self.stack):
            self.unclosed = 0  # the end tag of the game reported as not closed, at last

    def _end_game(self, game: Game) -> None:
        """The end of ``game``: its record is ready, within the file's budget."""
        self.game = None
        record = self._record(game)
        # the <database> attributes and the table entries a game names are copied into its
        # metadata: 900 KB of them before 14,000 <game/> made 12 GB of report.  They count
        # against the file's budget, as the text a variation tree repeats in its lines does
        self.emitted += len(record.moves) + text_cost(record)
        if self.emitted > self.options.move_budget(self.byte_offset + self.expat.CurrentByteIndex):
            raise Stop(
                f"the games read so far hold {self.emitted} moves and text in all, more "
                f"than the file's budget ({budget_terms(self.options)}): the text that "
                "every game repeats (the <database> attributes, the player and tournament "
                "entries it names) is too long; the rest is not read"
            )
        self.ready.append(record)
        self.index += 1

    def data(self, text: str) -> None:
        """Character data: only the text of ``<move>`` and ``<info>`` is kept."""
        game = self.game
        if game is None:
            return
        if game.in_move:
            self._move_text(game, text)
        elif game.in_info:
            room = self.options.max_string - game.info_len
            if len(text) > room:
                text = text[: max(room, 0)]
                game.info_truncated = True
            if text:
                game.info.append(text)
                game.info_len += len(text)

    def close(self) -> None:
        """End of document (nothing to build: records were handed out as they ended)."""
        return None

    def start_cdata(self) -> None:
        """The start of a CDATA section: where it is, should nothing close it."""
        self.cdata_at = self.byte_offset + self.expat.CurrentByteIndex
        self.cdata_line = self.line() or 0
        self.cdata_col = self._column()

    def end_cdata(self) -> None:
        self.cdata_at = None

    def start_ns(self, prefix: str | None, uri: str | None) -> None:
        """A namespace declaration (before the start tag that makes it)."""
        self.ns_decls.append((len(self.stack), prefix or "", uri or ""))

    def end_ns(self, prefix: str | None) -> None:
        """The end of a namespace declaration's scope (after its element's end tag)."""
        if self.ns_decls:
            self.ns_decls.pop()

    # -- helpers ----------------------------------------------------------------------------

    def take(self) -> list[Record]:
        """The records finished since the last call."""
        out, self.ready = self.ready, []
        return out

    def line(self) -> int | None:
        """The file's line of the parser's position."""
        line = getattr(self.expat, "CurrentLineNumber", None)
        return line + self.line_offset if isinstance(line, int) else None

    def _column(self) -> int:
        """The column of the parser's position, in the file's line (a resumed parser's first
        line starts with the synthetic start tags)."""
        expat = self.expat
        col: int = expat.CurrentColumnNumber
        return col + self.col_offset if expat.CurrentLineNumber == 1 else col

    def _move_element(self, game: Game) -> None:
        """A ``<move>`` start tag: its text is read as moves, after those of an earlier one
        (which a problem then says, at record time)."""
        game.move_elements += 1
        if game.move_elements == 2:
            game.second_move = (self.line(), self._column())
        if not game.stopped:
            game.in_move = True
            game.move_line = self.line()

    def _not_closed(self, game: Game) -> None:
        """A ``<game>`` start tag inside ``game``: games never nest, so ``game`` lacks its end
        tag.  It becomes an unreadable record (what it holds up to here may be the start of the
        next game as much as its own) and the new game is read as any other; expat still holds
        the element open, so ``unclosed`` marks it until its end tag, if any."""
        message = (
            f"{label(game)} opened at line {game.line} is not closed before the next <game> "
            f"at line {self.line()}, column {self._column()}"
        )
        self.ready.append(fatal(self.path, message, self.index, game.line))
        self.index += 1
        self.game = None
        if not self.unclosed:
            self.unclosed = game.depth

    def _too_deep(self, name: str) -> NoReturn:
        """A start tag past ``max_depth``: a game open is reported as not closed when this is
        the next game's start tag (games never nest), and the parse stops here (``TooDeep``)."""
        if name == "game" and self.game is not None:
            self._not_closed(self.game)
        expat = self.expat
        raise TooDeep(
            self.line(),
            self._column(),
            self.byte_offset + expat.CurrentByteIndex,
            name == "game",
        )

    def open_elements(self) -> list[Open] | None:
        """The elements open now, outermost first; those outside the game (if one is open) with
        the qualified name and the namespace declarations of their start tag.  ``None`` when
        there are more than ``MAX_PREFIX_DEPTH`` of those elements or declarations."""
        outer = self.outer
        decls = self.ns_decls  # (in document order: their depths never decrease)
        if len(outer) > MAX_PREFIX_DEPTH or (
            len(decls) > MAX_PREFIX_DEPTH and decls[MAX_PREFIX_DEPTH][0] < len(outer)
        ):
            return None
        prefix_of: dict[str, str] = {}  # uri -> the prefix declared last for it
        out: list[Open] = []
        i = 0
        for depth, tag in enumerate(outer):
            i, declared = _declarations_at(decls, i, depth, prefix_of)
            uri, _, name = tag.rpartition("}")
            prefix = prefix_of.get(uri, "") if uri else ""
            out.append(Open(name, f"{prefix}:{name}" if prefix else name, declared))
        out += [Open(name, name, "") for name in self.stack[len(outer) :]]
        return out

    def restart(self, parser: Any, pos: Pos, prefix: str) -> None:
        """Go on with a fresh parser that starts at ``pos`` of the file, after ``prefix``.

        The tables, the index, the budget and the database's attributes stay; the damaged game
        and the element stack go (the prefix opens the enclosing elements again).
        """
        self.expat = parser.parser
        self.game = None
        self.cdata_at = None
        self.unclosed = 0  # (the prefix holds no game)
        self.stack = []
        self.outer = []
        self.ns_decls = []
        self.resumed = True
        self.resumed_at = pos.byte
        self.line_offset = pos.line - 1  # the prefix holds no line break
        self.col_offset = pos.col - len(prefix)
        self.byte_offset = pos.byte - len(prefix.encode("utf-8"))

    def _truncated_note(self) -> str:
        return f"text longer than {self.options.max_string} characters was truncated"

    def _clip(self, value: str) -> str:
        limit = self.options.max_string
        return value if len(value) <= limit else value[:limit]

    def _move_text(self, game: Game, text: str) -> None:
        # Hot path (one call per <move> text chunk): split with str methods, not a regex per token.
        if game.stopped:
            return
        if game.partial is not None:
            text = game.partial + text
            game.partial = None
        text, tail = _cut_at_last_separator(text)
        line = game.move_line
        for i, segment in enumerate(text.split("\n")):
            if i and line is not None:
                line += 1
            if not self._move_tokens(game, segment, line):
                return
        game.move_line = line
        game.partial = tail

    def _move_tokens(self, game: Game, segment: str, line: int | None) -> bool:
        """The moves of one line of ``<move>`` text; ``False`` when a bad token stopped them."""
        moves, points, limit = game.moves, _POINTS, self.options.max_moves
        for token in segment.replace(",", " ").split():
            point = points.get(token)
            if point is not None and len(moves) < limit:
                moves.append(Move(point, None, line, None, token))  # the common case
                continue
            self._token(game, token[:MAX_TOKEN], line)
            if game.stopped:
                return False
        return True

    def _flush_token(self, game: Game) -> None:
        if game.partial is not None:
            token, game.partial = game.partial, None
            self._token(game, token, game.move_line)

    def _token(self, game: Game, token: str, line: int | None) -> None:
        n = len(game.moves) + 1  # every token so far is a move: a bad one stops the game
        if n > self.options.max_moves:
            game.problems.append(
                ParseProblem(
                    f"{label(game)}: more than {self.options.max_moves} moves; "
                    f"kept the first {self.options.max_moves}",
                    line=line,
                )
            )
            game.stopped = True  # nothing after the bound is kept
            return
        point = _POINTS.get(token)
        if point is None:
            if token.lower() == "pass":
                game.moves.append(Move(None, line=line, token=token))
                return
            try:
                point = parse_point(token)
            except ValueError:
                game.problems.append(
                    ParseProblem(
                        f"{label(game)}: move {n}: cannot read {token!r} as a point; "
                        f"kept the {n - 1} move{'' if n == 2 else 's'} before it",
                        line=line,
                    )
                )
                game.stopped = True
                return
            _POINTS[token] = point  # at most 52 letters x 99 rows: the cache stays small
        game.moves.append(Move(point, line=line, token=token))

    def _record(self, game: Game) -> Record:
        meta = dict(self.database_meta)
        notes = [*self.recoder.notes, *game.notes]
        rule, size, opening_id, events, result = read_attributes(self.tables, game, meta, notes)
        if game.info:
            meta["info"] = "".join(game.info).strip()
        if game.info_truncated:
            notes.append(self._truncated_note())
        if self.recoder.replaced and any("\ufffd" in v for v in meta.values()):
            notes.append("undecodable bytes were replaced with U+FFFD")
        for table in sorted(self.tables.overflow):
            notes.append(f"<{table}> has more than {MAX_TABLE_ENTRIES} entries; the rest ignored")
        if game.second_move is not None:
            game.problems.append(_more_move_elements(game, *game.second_move))
        source = SourceLocation(self.path, self.index, game.line)
        return Record(  # positional (see Record): a third faster than by keyword
            game.moves, source, size, size, result, rule, opening_id, meta, [], events,
            notes, game.problems, NAME,
        )  # fmt: skip


def _more_move_elements(game: Game, line: int | None, col: int) -> ParseProblem:
    """The problem of a game of more ``<move>`` elements than one (the second at ``line``,
    ``col``)."""
    return ParseProblem(
        f"{label(game)}: {game.move_elements} <move> elements (a game has one), the second at "
        f"line {line}, column {col}: their moves are read as one list, in order",
        line=line,
    )
