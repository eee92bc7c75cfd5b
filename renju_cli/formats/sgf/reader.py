"""SGF files -> records: every line of every game tree of a collection.

Bounds: ``max_depth`` (nesting of variations; deeper ones are skipped with a problem),
``max_moves`` (per line; and the opening events of a line, one per offered point or ``SW``
value), ``max_string`` (decoded text values are cut, with a note), ``max_records``, and the
file's budget of moves (``ReadOptions.move_budget``): a tree's lines repeat its shared nodes,
setup stones, problems and text, and all of it counts against the budget, so that a small
hostile tree cannot expand quadratically.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import BinaryIO

from renju_cli.formats import (
    ReadOptions,
    budget_terms,
    read_whole,
    text_cost,
    too_long,
)
from renju_cli.formats.charset import charset, codec_of, writes_sgf_as_ascii
from renju_cli.formats.sgf.nodes import Context, FileMemo
from renju_cli.formats.sgf.tokenizer import MAX_NODE_PROBLEMS, LineGame, Node, Parser, Tree
from renju_cli.formats.sgf.values import board_size_of
from renju_cli.formats.sgf.walk import FORMAT, PathWalk, paths
from renju_cli.memo import remember
from renju_cli.record import (
    BLACK,
    MAIN_LINE,
    WHITE,
    Branch,
    GameTree,
    Move,
    ParseProblem,
    Record,
    SourceLocation,
)

NAME = "sgf"
EXTENSIONS = (".sgf",)

#: What a setup stone costs against the file's budget, in moves.
SETUP_COST = 2

_SNIFF_SURE = re.compile(rb"\(\s*;\s*(?:[A-Za-z0-9]+\s*\[|[;()])")
_SNIFF_MAYBE = re.compile(rb"\(\s*;[^\[]{0,200}?(?:GM|FF|SZ)\s*\[")


def sniff(head: bytes) -> int:
    """2 when the file starts with an SGF game tree ``(;``, 1 when one appears later, else 0."""
    text = head.removeprefix(codecs.BOM_UTF8).lstrip()
    if _SNIFF_SURE.match(text):
        return 2
    if _SNIFF_MAYBE.search(head):
        return 1
    return 0


@dataclass(slots=True)
class _Budget:
    """The moves (nodes walked) left for the records of one file: ``ReadOptions.move_budget``."""

    total: int
    left: int
    spent: bool = False


@dataclass(slots=True)
class _File:
    """What the records of one file are read with."""

    path: str
    opts: ReadOptions
    budget: _Budget


def read(stream: BinaryIO, path: str, options: ReadOptions) -> Iterator[Record]:
    """Yield every root-to-leaf path of every game tree of an SGF file as a record."""
    whole = read_whole(stream, options)
    if whole is None:
        yield too_long(path, FORMAT, options)
        return
    data = whole.removeprefix(codecs.BOM_UTF8)
    if b"\n" not in data and b"\r" in data:
        data = data.replace(b"\r", b"\n")  # old Mac line ends: keep line numbers meaningful
    total = options.move_budget(len(data))
    file = _File(path, options, _Budget(total, total))
    yield from _Collection(Parser(data, options), file).records()


class _Collection:
    """The trees of one file, read in turn into records."""

    def __init__(self, parser: Parser, file: _File) -> None:
        self.parser = parser
        self.file = file
        self.index = 0  # the tree being read
        self.count = 0  # the records given so far
        #: ``context`` by the root's ``CA`` and ``SZ`` values: the games of a collection share
        #: them (short values only, ``CONTEXTS`` at most)
        self.contexts: dict[tuple[bytes | None, bytes | None], tuple[Context | str, list[str]]]
        self.contexts = {}
        #: what the contexts remember together (setup stones)
        self.memo = FileMemo()

    def records(self) -> Iterator[Record]:
        """The records of every tree of the file, and of stray text after them."""
        parser = self.parser
        pending: list[ParseProblem] = []  # stray text before a tree: said in its first record
        while (found := parser.next_tree()) is not None:
            stray, stray_line = found
            if stray is not None and self.index > 0:
                pending.append(ParseProblem(stray, line=stray_line))
            if parser.pos >= len(parser.data):
                break
            if (yield from self._next(pending)):
                return
            self.index += 1
        if pending or self.index == 0:
            yield self._leftover(pending)

    def _next(self, pending: list[ParseProblem]) -> Generator[Record, None, bool]:
        """The records of the tree at the parser's position (``pending``: the problems of
        stray text before it, taken); True when the file ends with them."""
        short = None if pending else self._line_game()
        if short is not None:
            yield short
            return False
        tree = _parse_tree(self.parser, self.file.opts.max_records - self.count, pending)
        pending.clear()
        return (yield from self._tree(tree))

    def _leftover(self, pending: list[ParseProblem]) -> Record:
        """The unreadable record of stray text after the last tree, or of a file of none."""
        said = "; ".join(p.message for p in pending) if pending else "no SGF game tree found"
        line = pending[0].line if pending else None
        return unreadable(self.file.path, self.index, line, said)

    def _tree(self, tree: Tree) -> Generator[Record, None, bool]:
        """The records of a tree, up to the file's ``max_records``; True when the file ends
        with them (past one of its bounds)."""
        file = self.file
        for record in self._tree_records(tree):
            if self.count >= file.opts.max_records:
                yield _too_many(file, self.index, tree)
                return True
            self.count += 1
            yield record
        if file.budget.spent:
            return True
        if tree.cut:  # (its lines gave fewer records: one unreadable record for the tree)
            yield _too_many(file, self.index, tree)
            return True
        return False

    def _tree_records(self, tree: Tree) -> Iterable[Record]:
        """The records of a tree: its lines, or one unreadable record."""
        root, path = tree.root, self.file.path
        if root is None:
            return (unreadable(path, self.index, tree.line, "empty game tree", tree.problems),)
        ctx, tree_notes = self.context(root)
        if isinstance(ctx, str):  # the board size cannot be used
            return (unreadable(path, self.index, tree.line, ctx, tree.problems, root.line),)
        walk = PathWalk(tree.problems, tree_notes, rewindable=tree.branched)
        return _line_records(tree, root, walk, ctx, self.index, self.file)

    def _line_game(self) -> Record | None:
        """The record of the game of one line at the parser's position, read the short way
        (``Parser.line_game``; a collection of 50,000 tiny games spent two thirds of its
        reading in the machinery of trees, and went past the time a hostile file may take),
        or ``None`` (the parser's position unchanged): the tree is read as any other."""
        if self.count >= self.file.opts.max_records:
            return None
        start = self.parser.pos
        game = self.parser.line_game()
        record = None if game is None else self._line_game_record(game)
        if record is None:
            self.parser.pos = start
            return None
        self.count += 1
        return record

    def _line_game_record(self, game: LineGame) -> Record | None:
        """The record ``_tree_records`` makes of a game of one line, or ``None`` when it would
        say more than its moves (a bad move, past a bound): the parser's reading says it."""
        ctx, notes = self.context(game.root or _NO_ROOT)
        if isinstance(ctx, str) or len(game.moves) > self.file.opts.max_moves:
            return None
        moves = _line_moves(game, ctx)
        if moves is None:
            return None
        source = SourceLocation(self.file.path, self.index, game.line, None, MAIN_LINE)
        if game.root is None:  # (moves alone: the record of a walk that holds nothing else)
            record = Record(moves, source, ctx.width, ctx.height, format=FORMAT)
            cost = len(moves)
        else:
            walk = PathWalk([], notes, rewindable=False)
            walk.step(game.root, 0, ctx, self.file.opts, branch=False)
            walk.moves.extend(moves)  # (as the steps of their nodes add them)
            record = walk.record(source, ctx)
            cost = _line_cost(len(moves) + 1, walk, record)
        if cost > self.file.budget.left:
            return None
        self.file.budget.left -= cost
        return record

    def context(self, root: Node) -> tuple[Context | str, list[str]]:
        """``context`` of a root, by its ``CA`` and ``SZ`` values."""
        ca, sz = root.get("CA"), root.get("SZ")
        key = (ca[0] if ca else None, sz[0] if sz else None)
        known = self.contexts.get(key)
        if known is None:
            known = context(root, self.file.opts, self.memo)
            if all(v is None or len(v) <= _CONTEXT_KEY_BYTES for v in key):
                remember(self.contexts, key, known, _CONTEXTS)
        return known


def _line_moves(game: LineGame, ctx: Context) -> list[Move] | None:
    """The moves of a game of one line, or ``None`` when one is bad (the parser says so)."""
    moves = []
    for ident, value in game.moves:
        token, p = ctx.move("B" if ident == b"B" else "W", value)
        if isinstance(p, str):
            return None
        moves.append(Move(p, BLACK if ident == b"B" else WHITE, game.line, None, token))
    return moves


#: The root of a game whose root is a move: no ``CA``, no ``SZ``.
_NO_ROOT = Node(0)
#: Contexts a file's reading keeps at most, and the longest ``CA`` or ``SZ`` value they are kept
#: by (a collection may change size or charset in every game).
_CONTEXTS = 1024
_CONTEXT_KEY_BYTES = 64


def _parse_tree(parser: Parser, records_left: int, pending: list[ParseProblem]) -> Tree:
    """The tree at the parser's position, parsed only as far as the records the file may still
    give, with the ``pending`` problems of stray text before it first."""
    tree = parser.parse_tree(max_lines=records_left + 1)
    tree.problems[:0] = pending
    if parser.dropped:
        tree.problems.append(
            ParseProblem(
                f"{parser.dropped} more problems in the nodes of this game tree are not listed "
                f"(the first {MAX_NODE_PROBLEMS} are)",
                line=tree.line,
            )
        )
    return tree


def _too_many(file: _File, index: int, tree: Tree) -> Record:
    return unreadable(file.path, index, tree.line, f"{file.opts.too_many()}; the rest is not read")


def context(
    root: Node, opts: ReadOptions, memo: FileMemo | None = None
) -> tuple[Context | str, list[str]]:
    """The context of a tree by its root's ``CA`` and ``SZ`` (or the message of its unreadable
    size), and the notes of its charset."""
    ca_raw, sz_raw = root.get("CA"), root.get("SZ")
    notes: list[str] = []
    ca = _charset(ca_raw[0].decode("latin-1").strip(), opts, notes) if ca_raw else None
    size = board_size_of(sz_raw[0] if sz_raw else None, opts.board_size)
    if isinstance(size, str):
        return size, notes
    width, height = size
    text = charset(ca, opts.encoding)
    memo = memo or FileMemo()
    return Context(width, height, text, opts.max_string, opts.max_moves, file=memo), notes


def _charset(ca: str, opts: ReadOptions, notes: list[str]) -> str | None:
    """The charset a root's ``CA[ca]`` names for its text, if it may be used; ``notes`` say why
    not."""
    if opts.recoded:
        return None  # the file was UTF-16 or UTF-32, recoded to UTF-8 as it was read
    codec = codec_of(ca)
    if codec is None:
        notes.append(f"unknown charset CA[{ca[:40]}]; text decoded as {_UNDECLARED}")
    elif not writes_sgf_as_ascii(codec):
        # (EBCDIC, UTF-16...: the file's SGF was read as ASCII, so its text is not written in
        # that charset; decoded with it, GM[4] read as GM[\x94])
        notes.append(
            f"charset CA[{ca[:40]}] does not write SGF's characters as ASCII, as the file does; "
            f"ignored: text decoded as {_UNDECLARED}"
        )
        return None
    return ca


#: How text of no usable charset is decoded (``charset.PLAIN``).
_UNDECLARED = "UTF-8 (or GB18030, cp1252)"


def _line_records(
    tree: Tree, root: Node, walk: PathWalk, ctx: Context, index: int, file: _File
) -> Iterator[Record]:
    game_tree = GameTree() if tree.branched else None
    for line, (nodes, variation, first_new) in enumerate(paths(root)):
        yield _line_record(
            tree, nodes, variation, first_new, walk, ctx, index, file, game_tree, line
        )
        if file.budget.spent:
            return


def _line_record(
    tree: Tree,
    nodes: list[Node],
    variation: str,
    first_new: int,
    walk: PathWalk,
    ctx: Context,
    index: int,
    file: _File,
    game_tree: GameTree | None,
    line: int,
) -> Record:
    """The record of path ``line`` of ``tree`` (the walk is at the previous path), or, past the
    file's budget, the unreadable record that ends the file (``budget.spent``).  A tree of
    several paths is ``game_tree``, which each of its records names (``Branch``)."""
    budget = file.budget
    # a path costs its nodes and the problems, notes and text it repeats (a tree's problems
    # and root text are copied into every path): all of it counts against the file's budget
    if len(nodes) + len(tree.problems) > budget.left:
        return _refused(tree, index, file)
    # consecutive paths share the nodes before ``first_new``: take the walk back to there
    # and walk only the new nodes
    walk.rewind(first_new)
    branch = None if game_tree is None else Branch(game_tree, line, len(walk.moves))
    for k in range(first_new, len(nodes)):
        # (a later path leaves this one only at a node whose parent has several children)
        walk.step(nodes[k], k, ctx, file.opts, k > 0 and len(nodes[k - 1].children or ()) > 1)
    record = walk.record(SourceLocation(file.path, index, tree.line, None, variation), ctx)
    record.branch = branch
    cost = _line_cost(len(nodes), walk, record)
    if cost > budget.left:
        return _refused(tree, index, file)
    budget.left -= cost
    return record


def _line_cost(nodes: int, walk: PathWalk, record: Record) -> int:
    """What the record of a line of ``nodes`` nodes, just made by ``walk``, costs against the
    file's budget: its nodes, opening events, setup stones, problems, notes and text."""
    # setup stones too: a compressed point list (``AB[aa:zz]``, 9 bytes) is 676 stones to
    # place; two moves each: each game places them anew (no resuming as a line's moves resume)
    return (
        nodes
        + walk.event_weight  # each line checks its opening events: the root's SW in every line
        + SETUP_COST * len(record.setup)
        + len(record.problems)
        + len(record.notes)
        + text_cost(record)
    )


def _refused(tree: Tree, index: int, file: _File) -> Record:
    """The unreadable record that ends a file past its budget (``budget.spent``)."""
    file.budget.spent = True
    return unreadable(
        file.path,
        index,
        tree.line,
        f"the variations read so far hold more than {file.budget.total} moves, setup stones, "
        "problems and text "
        f"in all ({budget_terms(file.opts)}): a tree this repetitive is refused; the rest of the "
        "file is not read",
    )


def unreadable(
    path: str,
    index: int,
    line: int | None,
    message: str,
    earlier: Sequence[ParseProblem] = (),
    at: int | None = None,
) -> Record:
    """A record that could not be read: the ``earlier`` problems of its tree, then ``message``
    (at line ``at``, by default the record's ``line``)."""
    fatal = ParseProblem(message, line=line if at is None else at, fatal=True)
    return Record(
        moves=[],
        source=SourceLocation(path, index, line),
        problems=[*earlier, fatal],
        format=FORMAT,
    )
