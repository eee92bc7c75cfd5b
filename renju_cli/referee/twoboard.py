"""Two-board professional traditional gomoku (职业制传统五子棋), a variant of its own.

Two boards (a and b) of the ruleset's size; the first player (black) places one stone, then
every turn of either player is two stones in a row, each on either board.  A player wins by
completing fives on **both** boards in the same turn; completing a five on only one board in a
turn loses (so do fives on the two boards in different turns: the first of them already lost).
What a five is (five or more, or exactly five) is the ruleset's ``five`` section.

Why not the opening vocabulary: every step of ``renju_cli.opening`` and the whole referee work on
one board where stones alternate and the first five ends the game.  Here stones go in pairs for
the whole game, the board of each stone is part of the move, and a five decides nothing until the
turn is over.  So a ruleset selects this replay with ``variant: two-board`` (see
``rulesets/two-board-gomoku.yaml``); it reuses the referee's findings, results and declared-result
check, and the judge's fives.

A record names the board of each stone in standard notation as ``A:h8`` / ``B:h8``
(``docs/notation.md``); the reader keeps the boards, one letter per move (``a``, ``b``, ``-``
for a pass or a stone without a board), in ``Record.metadata["boards"]``.  A turn is judged
when its two stones are played, or when the record ends.
"""

from __future__ import annotations

from renju_cli.board import BLACK, EMPTY, WHITE, Board
from renju_cli.coords import Point
from renju_cli.record import Move
from renju_cli.referee.walk import COLOR_NAME, Checkpoint, Replay
from renju_cli.report import FirstFive

BOARDS = "ab"
#: ``Record.metadata`` key of the boards of the moves (one letter per move).
METADATA_KEY = "boards"


def turn_color(number: int) -> int:
    """The colour of move ``number``: black 1, white 2-3, black 4-5, white 6-7..."""
    return BLACK if number == 1 or (number // 2) % 2 == 0 else WHITE


def turn_ends(number: int) -> bool:
    """Whether move ``number`` is the last stone of its turn (1, 3, 5, ...)."""
    return number % 2 == 1


class TwoBoardReplay(Replay):
    """The referee's replay on two boards, with turns of two stones and the both-boards win."""

    def run(self, resume: Checkpoint | None = None, stop: int | None = None) -> None:
        """Walk the moves turn by turn (the first ``stop`` only, when given), then close."""
        assert resume is None  # two-board records are never resumed (``referee.replay``)
        self.second_board = Board(self.board.width, self.board.height)
        boards = {"a": self.board, "b": self.second_board}
        named = self.record.metadata.get(METADATA_KEY, "")
        fives: dict[str, tuple[int, Point, tuple[int, ...]]] = {}  # this turn's, by board
        passes = 0
        unnamed: list[int] = []
        moves = self.record.moves
        last = len(moves) if stop is None else max(0, min(stop, len(moves)))
        for number, move in enumerate(moves[:last], 1):
            stone = turn_color(number)
            if self.result.winner is not None and not self.after_end_reported:
                self.note_after_end(number, move)
            letter = named[number - 1] if number <= len(named) else "-"
            if move.point is None:
                passes = self._pass_turn(number, move, passes)
            else:
                passes = 0
                if letter not in BOARDS:
                    unnamed.append(number)
                    letter = "a"
                self._stone(number, move, boards[letter], letter, stone, fives)
            if turn_ends(number) or number == len(moves):
                self._judge_turn(number, stone, fives)
                fives = {}
            self._draws(number, move.point, boards)
        self.played, self.to_move = last, turn_color(last + 1)
        if last == len(moves):  # (stopped before the end: what the end decides is open)
            self._unnamed(unnamed)
            self.word_after_end()
            self.check_declared()

    def _pass_turn(self, number: int, move: Move, passes: int) -> int:
        """A pass: the passes in a row after it."""
        rules = self.rules
        if not rules.passes_allowed:
            self.add("illegal-pass", f"move {number}: {rules.name} allows no passes", move, number)
        passes += 1
        limit = rules.consecutive_passes_draw
        if limit is not None and passes >= limit:
            self.end("draw", "passes", number, None)
        return passes

    def _draws(self, number: int, point: Point | None, boards: dict[str, Board]) -> None:
        """Both boards full, or the move limit reached: a draw."""
        rules = self.rules
        if rules.board_full_draw and all(b.full for b in boards.values()):
            self.end("draw", "board-full", number, point)
        if rules.move_limit is not None and number >= rules.move_limit:
            self.end("draw", "move-limit", number, point)

    def _unnamed(self, unnamed: list[int]) -> None:
        """One finding for the stones that name no board (put on board a)."""
        if not unnamed:
            return
        shown = ", ".join(str(n) for n in unnamed[:10]) + (" ..." if len(unnamed) > 10 else "")
        self.add(
            "board-not-named",
            f"{len(unnamed)} stone(s) name no board (write A:h8 or B:h8); they were put on "
            f"board a: move(s) {shown}",
            self.record.moves[unnamed[0] - 1],
            unnamed[0],
        )

    def _stone(
        self,
        number: int,
        move: Move,
        board: Board,
        letter: str,
        stone: int,
        fives: dict[str, tuple[int, Point, tuple[int, ...]]],
    ) -> None:
        point = move.point
        assert point is not None
        if move.color is not None and COLOR_NAME[stone] != move.color.value:
            self.add(
                "wrong-color",
                f"move {number} is {move.color.value} but it is {COLOR_NAME[stone]}'s turn",
                move,
                number,
                point,
            )
        if not board.on_board(point):
            self.add(
                "off-board",
                f"move {number} ({point.name}) is off the {board.width}x{board.height} board "
                f"{letter}",
                move,
                number,
                point,
            )
            return
        index = board.index(point)
        if board.cells[index] != EMPTY:
            self.add(
                "occupied",
                f"move {number} ({letter}:{point.name}) is on a point of board {letter} "
                "already taken",
                move,
                number,
                point,
            )
            return
        board.place(index, stone)
        if self.numbers is not None and board is self.board:
            self.numbers[index] = number
        row = self.judge.five_at(board, index, stone)
        if row is not None and letter not in fives:
            fives[letter] = (number, point, row)

    def _judge_turn(
        self, number: int, stone: int, fives: dict[str, tuple[int, Point, tuple[int, ...]]]
    ) -> None:
        if not fives or self.result.decided:
            return
        color = COLOR_NAME[stone]
        first = min(fives.values())
        if self.report.first_five is None:
            n, p, row = first
            # both boards share one geometry, so either names the indices
            stones = [self.board.name(i) for i in row]
            self.report.first_five = FirstFive(n, color, p.name, stones)
        made = " and ".join(
            f"board {b} (move {v[0]}, {v[1].name})" for b, v in sorted(fives.items())
        )
        if len(fives) == len(BOARDS):
            self.report.notes.append(f"{color} completed fives on {made} in one turn")
            last = max(fives.values())
            self.end(color, "five", last[0], last[1])
        else:
            other = COLOR_NAME[BLACK + WHITE - stone]
            self.report.notes.append(
                f"{color} completed a five on {made} only, in the turn ending at move {number}: "
                f"a loss"
            )
            self.end(other, "one-board-five", first[0], first[1])
