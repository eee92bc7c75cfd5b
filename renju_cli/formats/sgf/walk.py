"""The lines of a game tree, walked node by node into records.

Every root-to-leaf path of a tree is a record: the main line (first child at every node) first,
then the other paths in pre-order (``paths``).  Consecutive paths share a prefix, so the walk
(``PathWalk``) keeps its state from one path to the next: ``rewind`` takes it back to where the
new path leaves the previous one and ``step`` walks only the new nodes.  A record costs its new
nodes plus list copies, not a loop over the whole path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from renju_cli.coords import Point
from renju_cli.formats import ReadOptions
from renju_cli.formats.charset import fallback_warning
from renju_cli.formats.sgf.info import GameInfo
from renju_cli.formats.sgf.nodes import Context, NodeInfo, node_info
from renju_cli.formats.sgf.tokenizer import Node
from renju_cli.formats.sgf.values import player, swap_event
from renju_cli.record import (
    BLACK,
    MAIN_LINE,
    WHITE,
    Color,
    DeclaredResult,
    Move,
    OpeningEvent,
    ParseProblem,
    Record,
    SourceLocation,
)

FORMAT = "sgf"


def paths(root: Node) -> Iterator[tuple[list[Node], str, int]]:
    """Every root-to-leaf path, main line first (pre-order), with its path id and the index of
    its first node that is not on the previous path (0 for the first path).

    A path id lists, for every node with several children on the path, the 0-based index of
    the child taken, trailing zeros dropped: ``"1"`` takes the second child at the first
    branching and the first child afterwards, ``"0.2"`` the main line at the first branching
    and the third child at the second.  The path list is the same object every time, changed
    in place, and so are the id parts: a path costs its new nodes, not its depth.
    """
    path: list[Node] = [root]
    choice: list[int] = [-1]
    # the id parts ("1", "0", ...) of the nodes of the path whose parent has several children
    ids: list[str] = []
    first_new = 0
    while True:
        _descend(path, choice, ids)
        yield path, _path_id(ids), first_new
        first_new = _next_sibling(path, choice, ids)
        if first_new < 0:
            return


def _descend(path: list[Node], choice: list[int], ids: list[str]) -> None:
    """Extend ``path`` by first children down to a leaf."""
    children = path[-1].children
    while children:
        if len(children) > 1:
            ids.append("0")
        path.append(children[0])
        choice.append(0)
        children = children[0].children


def _path_id(ids: list[str]) -> str:
    # trailing zeros dropped: they all come after the node where this path left the previous
    # one (its part is not "0"), so this loop is paid by the new nodes
    end = len(ids)
    while end and ids[end - 1] == "0":
        end -= 1
    return ".".join(ids[:end]) if end else MAIN_LINE


def _next_sibling(path: list[Node], choice: list[int], ids: list[str]) -> int:
    """Take ``path`` back to the deepest node with a next sibling and go to it; its index in
    the path, or -1 when every path was taken."""
    while len(path) > 1:
        idx = choice.pop()
        path.pop()
        siblings = path[-1].children
        assert siblings is not None  # the parent of the node just left
        if len(siblings) > 1:
            ids.pop()
        if idx + 1 < len(siblings):
            ids.append(str(idx + 1))
            path.append(siblings[idx + 1])
            choice.append(idx + 1)
            return len(path) - 1
    return -1


class _Mark(NamedTuple):
    """The state of a ``PathWalk`` before one node: the lengths of what only grows, the move
    a later node may replace by a commented copy, and the rest."""

    moves: int
    last_move: Move | None
    read_as: int
    setup: int
    events: int
    event_weight: int
    problems: int
    notes: int
    info: int
    root_pieces: int
    pieces: int
    move_from: int
    stopped: bool
    events_cut: bool
    setup_cut: bool
    player: str | None


class PathWalk:
    """What the nodes of a path add up to, node by node, kept from one path to the next.

    Moves are shared by every path through their node and never mutated (a comment is set on a
    copy), which the referee relies on to resume; the copies, events and problems made for the
    shared prefix are shared by those paths too.
    """

    __slots__ = (
        "event_weight",
        "events",
        "events_cut",
        "info",
        "info_order",
        "joined",
        "mark_at",
        "marks",
        "move_from",
        "moves",
        "notes",
        "pieces",
        "player",
        "problems",
        "read_as",
        "rewindable",
        "root_pieces",
        "setup",
        "setup_cut",
        "stopped",
        "walked",
    )

    def __init__(
        self, tree_problems: list[ParseProblem], tree_notes: list[str], rewindable: bool
    ) -> None:
        self.moves: list[Move] = []
        self.setup: list[tuple[Point, Color]] = []
        #: the path's setup stones reached the board's points (said once; the rest ignored)
        self.setup_cut = False
        #: the last ``PL`` (who plays next) of the nodes before move 1: who plays it
        self.player: str | None = None
        self.events: list[OpeningEvent] = []  # in node order; sorted by ``after`` per record
        #: what the events of the path weigh against ``max_moves`` and the file's budget: one
        #: per ``SW`` value, one per offered point; past ``max_moves`` (``events_cut``) the rest
        #: of the path's events are not read
        self.event_weight = 0
        self.events_cut = False
        self.problems: list[ParseProblem] = list(tree_problems)
        self.notes: list[str] = list(tree_notes)
        #: the charsets the path's text was read in past its declared one, and where
        self.read_as: list[tuple[str, int]] = []
        #: game-info values: the first of the path for each property, and the properties in
        #: the order they were added (to take them back)
        self.info: dict[str, str] = {}
        self.info_order: list[str] = []
        self.stopped = False  # a bad move or ``max_moves``: the path's moves end here
        #: the state before node ``mark_at[i]`` of the current path is ``marks[i]``: kept only
        #: before the nodes a later path may leave this one at (those whose parent has several
        #: children: a chain of 260,000 nodes before two variations kept 42 MB of marks), and
        #: not for a tree of one path, which is never rewound
        self.marks: list[_Mark] = []
        self.mark_at: list[int] = []
        self.walked = 0  # the nodes of the current path walked
        self.rewindable = rewindable
        #: the comments of comment-only nodes, joined once, not at every node (a chain of
        #: 200,000 comment nodes was quadratic): ``root_pieces`` before any move (the record's
        #: ``metadata["comment"]``), ``pieces[move_from:]`` for the last move so far
        self.root_pieces: list[str] = []
        self.pieces: list[str] = []
        self.move_from = 0
        #: the last join (the move joined, the pieces' span, the result): the lines of a tree
        #: that leave its nodes after a long comment chain join the same pieces again
        self.joined: tuple[Move, int, int, Move] | None = None

    def _mark(self) -> _Mark:
        moves = self.moves
        return _Mark(
            len(moves),
            moves[-1] if moves else None,
            len(self.read_as),
            len(self.setup),
            len(self.events),
            self.event_weight,
            len(self.problems),
            len(self.notes),
            len(self.info_order),
            len(self.root_pieces),
            len(self.pieces),
            self.move_from,
            self.stopped,
            self.events_cut,
            self.setup_cut,
            self.player,
        )

    def rewind(self, depth: int) -> None:
        """Take back the nodes from index ``depth`` on (``step`` kept a mark before it)."""
        if depth >= self.walked:
            return
        while self.mark_at.pop() != depth:  # (a mark before each node a path may leave at)
            self.marks.pop()
        mark = self.marks.pop()
        self.walked = depth
        del self.moves[mark.moves :]
        if mark.last_move is not None:
            self.moves[-1] = mark.last_move  # a comment of a later node may have replaced it
        del self.read_as[mark.read_as :]
        del self.setup[mark.setup :]
        del self.events[mark.events :]
        del self.problems[mark.problems :]
        del self.notes[mark.notes :]
        for ident in self.info_order[mark.info :]:
            del self.info[ident]
        del self.info_order[mark.info :]
        del self.root_pieces[mark.root_pieces :]
        if self.joined is not None and mark.pieces < self.joined[2]:
            self.joined = None  # its pieces are taken back: others may come at their places
        del self.pieces[mark.pieces :]
        self.event_weight, self.events_cut = mark.event_weight, mark.events_cut
        self.move_from, self.stopped, self.setup_cut = mark.move_from, mark.stopped, mark.setup_cut
        self.player = mark.player

    def step(
        self, node: Node, k: int, ctx: Context, opts: ReadOptions, branch: bool = True
    ) -> None:
        """Add node ``k`` of the path (the nodes before it are walked already); ``branch``: a
        later path may leave this one at it (a rewindable walk keeps its state before it)."""
        self.walked = k + 1
        if self.rewindable and branch:
            self.mark_at.append(k)
            self.marks.append(self._mark())
        if not self.stopped and self._one_move(node, ctx, opts):
            return
        no_room = bool(self.moves) or len(self.setup) >= ctx.points
        ni = node_info(node, ctx, no_room, text_only=self.stopped)
        self._add_info(ni)
        if self.stopped:
            return
        self.problems.extend(ni.problems)
        self._before_moves(ni, ctx, node.line)
        self._add_moves(ni.moves, node.line, opts)
        self._opening_events(ni, len(self.moves), node.line, opts)
        if ni.comment:
            self._add_comment(ni.comment, bool(ni.moves), k)
        self.stopped = self.stopped or ni.bad

    def _one_move(self, node: Node, ctx: Context, opts: ReadOptions) -> bool:
        """Add a node of one good move and nothing else (the node of every record) as ``step``
        does, without reading it into a ``NodeInfo``; False (nothing done) for any other."""
        props = node.props
        if props is None or len(props) != 1 or node.problems is not None:
            return False
        ((ident, values),) = props
        if ident not in ("B", "W") or len(values) != 1:
            return False
        token, p = ctx.move(ident, values[0])
        if isinstance(p, str):
            return False
        move = Move(p, BLACK if ident == "B" else WHITE, node.line, None, token)
        self._add_moves((move,), node.line, opts)
        return True

    def _add_info(self, ni: NodeInfo) -> None:
        for ident, text in ni.info:
            if ident not in self.info:
                self.info[ident] = text
                self.info_order.append(ident)
        self.notes.extend(ni.notes)
        self.read_as.extend(ni.read_as)

    def _before_moves(self, ni: NodeInfo, ctx: Context, line: int) -> None:
        """The node's ``PL`` (said of move 1 only before it) and setup stones."""
        if ni.player is not None and not (self.moves or ni.moves):
            self.player = ni.player
        if not (ni.setup or ni.erase):
            return
        if self.moves:
            self.problems.append(
                ParseProblem(
                    f"setup stones (AB/AW/AE) after move {len(self.moves)} cannot be replayed; "
                    "ignored",
                    line=line,
                )
            )
        else:
            self._add_setup(ni.setup, ctx, line)

    def _add_moves(self, new: Sequence[Move], line: int, opts: ReadOptions) -> None:
        moves = self.moves
        if new and moves and len(self.pieces) > self.move_from:
            moves[-1] = self._with_pieces(moves[-1])
            self.move_from = len(self.pieces)
        for mv in new:
            if len(moves) >= opts.max_moves:
                self.problems.append(
                    ParseProblem(f"more than {opts.max_moves} moves; the rest is not kept", line)
                )
                self.stopped = True
                return
            # shared by every path through this node (never mutated: a comment is set on a
            # copy), so that a path costs a list of references, not new moves
            moves.append(mv)

    def _add_comment(self, comment: str, with_move: bool, k: int) -> None:
        if with_move and self.moves and not self.stopped:
            self.moves[-1] = dataclasses.replace(self.moves[-1], comment=comment)
        elif k == 0 or not self.moves:
            self.root_pieces.append(comment)
        else:
            self.pieces.append(comment)

    def _opening_events(self, ni: NodeInfo, played: int, line: int, opts: ReadOptions) -> None:
        """Add the node's offers and ``SW`` values (``played``: the moves before them), as far
        as the path's bound of ``max_moves`` allows, and say so once past it."""
        if not (ni.offers or ni.swaps) or self.events_cut:
            return
        room = opts.max_moves - self.event_weight
        offers = ni.offers[:room]
        if offers:
            self.events.append(OpeningEvent("offers", after=4, points=offers, line=line))
        room -= len(offers)
        swaps = ni.swaps[: max(room, 0)]
        for value in swaps:
            event = swap_event(value, played, line)
            if event is None:
                self.notes.append(f"SW[{value}] at line {line} not understood")
            else:
                self.events.append(event)
        room -= len(swaps)
        self.event_weight = opts.max_moves - room
        if len(offers) < len(ni.offers) or len(swaps) < len(ni.swaps):
            self.events_cut = True
            self.problems.append(
                ParseProblem(
                    f"more than {opts.max_moves} opening events (offered points, SW values) "
                    "on this line; the rest are not read",
                    line=line,
                )
            )

    def _add_setup(self, stones: list[tuple[Point, Color]], ctx: Context, line: int) -> None:
        """Add a node's setup stones to the path's, up to as many as the board has points."""
        room = ctx.points - len(self.setup)
        if len(stones) <= room:
            self.setup.extend(stones)
            return
        self.setup.extend(stones[: max(room, 0)])
        if not self.setup_cut:
            self.setup_cut = True
            self.problems.append(
                ParseProblem(
                    "the line's setup stones (AB/AW) before move 1 are more than the board has "
                    "points; the rest are ignored",
                    line=line,
                )
            )

    def _with_pieces(self, last: Move) -> Move:
        """``last`` with the pending comment pieces joined onto its comment."""
        start, end = self.move_from, len(self.pieces)
        joined = self.joined
        if joined is not None and joined[0] is last and joined[1:3] == (start, end):
            return joined[3]
        parts = self.pieces[start:end]
        if last.comment:
            parts.insert(0, last.comment)
        move = dataclasses.replace(last, comment="\n".join(parts))
        self.joined = (last, start, end, move)
        return move

    def _lists(self) -> tuple[list[Move], list[tuple[Point, Color]], list[ParseProblem], list[str]]:
        """The moves, setup, problems and notes of a record of the current path: copies of the
        walk's lists, which go on changing (the lists themselves when the walk cannot be
        rewound: nothing changes them after), comments that wait for a move joined to the last."""
        moves, setup, problems, notes = self.moves, self.setup, self.problems, self.notes
        if self.rewindable:
            moves, setup, problems, notes = list(moves), list(setup), list(problems), list(notes)
        if moves and len(self.pieces) > self.move_from:
            moves[-1] = self._with_pieces(moves[-1])  # (a copy of the walk's list if rewound)
            if not self.rewindable:
                self.move_from = len(self.pieces)
        return moves, setup, problems, notes

    def _problems(
        self,
        problems: list[ParseProblem],
        info: GameInfo,
        source: SourceLocation,
        ctx: Context,
        empty: bool,
    ) -> list[ParseProblem]:
        """The problems of a record of the current path: the walk's, its result words not
        known (an info: the record is judged all the same), its text read in other charsets
        (a warning); ``empty``: no move or stone, its first error makes it unreadable."""
        if info.unknown_result:
            problems.append(ParseProblem(info.unknown_result, source.line, severity="info"))
        if self.read_as:
            problems.append(_read_as_warning(self.read_as, ctx))
        return _fatal(problems) if empty else problems

    def record(self, source: SourceLocation, ctx: Context) -> Record:
        """The record of the current path."""
        moves, setup, problems, notes = self._lists()
        meta = {"comment": "\n".join(self.root_pieces)} if self.root_pieces else {}
        info = ctx.game_info(self.info)
        meta.update(info.metadata)
        if info.note:
            notes.append(info.note)
        problems = self._problems(problems, info, source, ctx, empty=not (moves or setup))
        # (positional, in field order: a collection of tiny games makes a record each)
        return Record(
            moves,
            source,
            ctx.width,
            ctx.height,
            _copy(info.declared),
            info.rule,
            info.opening_id,
            meta,
            setup,
            sorted(self.events, key=_after),
            notes,
            problems,
            FORMAT,
            None,  # protocol_not_followed
            player(self.player),  # to_move
        )


def _read_as_warning(read_as: list[tuple[str, int]], ctx: Context) -> ParseProblem:
    """The warning of a line's text read in other charsets than the declared one."""
    message = fallback_warning(read_as, ctx.charset.label)
    return ParseProblem(message, line=read_as[0][1], severity="warning")


def _fatal(problems: list[ParseProblem]) -> list[ParseProblem]:
    """The problems of a line of no move or stone: its first error makes it unreadable."""
    for k, problem in enumerate(problems):
        if not problem.severity:
            return [*problems[:k], dataclasses.replace(problem, fatal=True), *problems[k + 1 :]]
    return problems


def _after(event: OpeningEvent) -> int:
    return event.after


def _copy(declared: DeclaredResult | None) -> DeclaredResult | None:
    """A record's own declared result (game info is shared by the lines of a tree)."""
    return None if declared is None else dataclasses.replace(declared)
