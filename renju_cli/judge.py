"""Line patterns and forbidden-move judgement: fives, fours, threes (``shared/spec/rules.md``).

One pattern engine serves every ruleset.  Around a point ``p`` and along one direction, the judge
reads a *line window*: ``r = five_length`` points on each side of ``p``, each one of *own* (the
colour to judge), *empty* or *blocked* (an opponent stone or the board edge; a line stops at
either).  A window is two small bit masks, and what it holds for ``p`` — five, overline, the fours
that contain ``p`` (each identified by its set of stones), the threes that contain ``p`` with the
points that would make them straight fours — depends on nothing else, so it is computed once per
distinct window and looked up afterwards (``LineFacts``).

Only one question needs more than a window: whether a three is *real*, i.e. whether one of its
straight-four points is a legal move for black once ``p`` is on the board.  That is asked by
placing ``p`` and judging the completion point with the same rules, recursively, without a depth
limit; answers are memoized by (Zobrist hash of the board, point).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from renju_cli.board import BLACK, EMPTY, WHITE, Board

OVERLINE = "overline"
DOUBLE_FOUR = "double-four"
DOUBLE_THREE = "double-three"
#: Every forbidden kind, in the order reports list them.
KINDS = (OVERLINE, DOUBLE_FOUR, DOUBLE_THREE)

# Outcome of judging a point inside the recursion.
_LEGAL = 0
_FIVE = 1
_FORBIDDEN = 2


class LineFacts(NamedTuple):
    """What one line window says about its centre point ``p`` (assumed to hold an own stone).

    Masks are bit sets over the window, bit ``r`` being ``p``.
    """

    run: int  #: length of the unbroken row of own stones through p
    five: bool  #: p completes a five that wins for this colour (exactly five if overlines don't)
    overline: bool  #: the row through p is longer than a five
    fours: tuple[int, ...]  #: stone sets of the distinct fours containing p
    threes: tuple[tuple[int, int], ...]  #: (straight-four point offset, stone set of the three)


@dataclass(frozen=True)
class ColorRules:
    """How the line rules apply to one colour.

    ``overline_wins``: an unbroken row longer than five wins (freestyle, renju white).  When it
    does not, a five is *exactly* five stones, and a four or straight four must complete to
    exactly five.  ``forbidden``: the kinds this colour may not play (``KINDS``).
    """

    overline_wins: bool = True
    forbidden: frozenset[str] = frozenset()


RENJU_BLACK = ColorRules(overline_wins=False, forbidden=frozenset(KINDS))
RENJU_WHITE = ColorRules(overline_wins=True)


@dataclass
class Verdict:
    """Everything the judge says about one colour playing one empty point.

    Stone groups are tuples of board indices in line order.
    """

    five: tuple[int, ...] | None = None
    overline: tuple[int, ...] | None = None
    fours: list[tuple[int, ...]] = field(default_factory=list)
    threes: list[tuple[int, ...]] = field(default_factory=list)  #: real threes only
    kinds: tuple[str, ...] = ()  #: forbidden kinds that apply (empty when the move is legal)

    @property
    def forbidden(self) -> bool:
        return bool(self.kinds)


def _popcount(x: int) -> int:
    return bin(x).count("1")


def analyze_window(own: int, blocked: int, r: int, k: int, exact: bool) -> LineFacts:
    """The facts of one line window (see the module docstring); ``p`` is bit ``r``.

    This is the rules text turned into bit arithmetic; results are cached by ``LineTable``.
    """
    n = 2 * r + 1
    own |= 1 << r

    def is_own(i: int, stones: int = own) -> bool:
        return 0 <= i < n and bool(stones >> i & 1)

    def is_empty(i: int) -> bool:
        return 0 <= i < n and not ((own | blocked) >> i & 1)

    def run_bounds(stones: int) -> tuple[int, int]:
        a = b = r
        while is_own(a - 1, stones):
            a -= 1
        while is_own(b + 1, stones):
            b += 1
        return a, b

    a, b = run_bounds(own)
    run = b - a + 1
    five = run == k if exact else run >= k
    overline = run > k

    # Fours: windows of k points containing p with k-1 own stones and one empty point whose
    # filling makes a five (exactly k when overlines do not count).
    fours: list[int] = []
    for s in range(r - k + 1, r + 1):
        if s < 0 or s + k > n:
            continue
        window = ((1 << k) - 1) << s
        if blocked & window:
            continue
        stones = own & window
        if _popcount(stones) != k - 1:
            continue
        if exact and (is_own(s - 1) or is_own(s + k)):
            continue
        if stones not in fours:
            fours.append(stones)

    # Threes: an empty point q that turns the stones through p into a straight four — an
    # unbroken row of exactly k-1 whose two ends are empty and each makes a five.
    threes: list[tuple[int, int]] = []
    if not five:
        for q in range(n):
            if q == r or not is_empty(q):
                continue
            with_q = own | 1 << q
            a2, b2 = run_bounds(with_q)
            if b2 - a2 + 1 != k - 1 or not a2 <= q <= b2:
                continue
            if not (is_empty(a2 - 1) and is_empty(b2 + 1)):
                continue
            if exact and (is_own(a2 - 2) or is_own(b2 + 2)):
                continue
            run_mask = ((1 << (k - 1)) - 1) << a2
            threes.append((q - r, own & run_mask))
    return LineFacts(run, five, overline, tuple(fours), tuple(threes))


class LineTable:
    """Memoized ``analyze_window`` for one five length and one exactness."""

    __slots__ = ("exact", "k", "r", "table", "width")

    def __init__(self, k: int, exact: bool) -> None:
        self.k = k
        self.r = k
        self.exact = exact
        self.width = 2 * k + 1
        self.table: dict[int, LineFacts] = {}

    def facts(self, key: int) -> LineFacts:
        f = self.table.get(key)
        if f is None:
            mask = (1 << self.width) - 1
            f = analyze_window(key & mask, key >> self.width, self.r, self.k, self.exact)
            self.table[key] = f
        return f


_TABLES: dict[tuple[int, bool], LineTable] = {}


def line_table(k: int, exact: bool) -> LineTable:
    """The shared table for five length ``k`` (tables only grow with windows seen)."""
    t = _TABLES.get((k, exact))
    if t is None:
        t = _TABLES[(k, exact)] = LineTable(k, exact)
    return t


def line_key(cells: list[int], p: int, d: int, stone: int, r: int) -> int:
    """Encode the window of radius ``r`` around ``p`` along step ``d`` as one int.

    Bits ``0..2r`` are own stones, bits ``2r+1..`` blocked points (opponent or edge); past the
    first blocked point everything counts as blocked, which is what a line means.
    """
    width = 2 * r + 1
    own = 0
    blocked = 0
    q = p
    for i in range(r + 1, width):
        q += d
        v = cells[q]
        if v == stone:
            own |= 1 << i
        elif v != EMPTY:
            blocked = ((1 << width) - 1) ^ ((1 << i) - 1)
            break
    q = p
    for i in range(r - 1, -1, -1):
        q -= d
        v = cells[q]
        if v == stone:
            own |= 1 << i
        elif v != EMPTY:
            blocked |= (1 << (i + 1)) - 1
            break
    return own | (blocked << width)


class Judge:
    """Decides fives, fours, threes and forbidden moves under one set of line rules.

    ``five_length`` is the length of a five (5 for every shipped ruleset);
    ``five_eye_counts`` is the ruleset option of rules.md §2 (default ``False``: a straight-four
    point that also completes a five elsewhere does not make a three).
    """

    def __init__(
        self,
        black: ColorRules = RENJU_BLACK,
        white: ColorRules = RENJU_WHITE,
        five_length: int = 5,
        five_eye_counts: bool = False,
    ) -> None:
        self.rules = {BLACK: black, WHITE: white}
        self.k = five_length
        self.five_eye_counts = five_eye_counts
        self.tables = {
            BLACK: line_table(five_length, not black.overline_wins),
            WHITE: line_table(five_length, not white.overline_wins),
        }
        self._memo: dict[tuple[int, int, int], int] = {}

    # -- single lines -----------------------------------------------------------------------
    def line_facts(self, board: Board, p: int, stone: int) -> list[LineFacts]:
        """The facts of the four lines through ``p`` if ``stone`` were played there."""
        cells, r, table = board.cells, self.k, self.tables[stone]
        return [table.facts(line_key(cells, p, d, stone, r)) for d in board.directions]

    def five_at(self, board: Board, p: int, stone: int) -> tuple[int, ...] | None:
        """The winning row ``stone`` makes by playing (or having played) ``p``, if any."""
        cells, r, table = board.cells, self.k, self.tables[stone]
        for d in board.directions:
            f = table.facts(line_key(cells, p, d, stone, r))
            if f.five:
                return row_through(board, p, d, stone)
        return None

    # -- judgement --------------------------------------------------------------------------
    def forbidden_kinds(self, board: Board, p: int, stone: int) -> tuple[str, ...]:
        """Every forbidden kind that applies to ``stone`` playing the empty point ``p``.

        Empty when the move is legal — in particular when it makes a five (five wins first).
        """
        rules = self.rules[stone]
        if not rules.forbidden:
            return ()
        facts = self.line_facts(board, p, stone)
        return self._kinds(board, p, stone, rules, facts, first_only=False)

    def verdict(self, board: Board, p: int, stone: int) -> Verdict:
        """The full verdict for ``stone`` playing the empty point ``p``, with its stones."""
        rules = self.rules[stone]
        facts = self.line_facts(board, p, stone)
        v = Verdict()
        r = self.k
        dirs = board.directions
        for d, f in zip(dirs, facts, strict=True):
            if f.five and v.five is None:
                v.five = row_through(board, p, d, stone)
            if f.overline and v.overline is None:
                v.overline = row_through(board, p, d, stone)
            for mask in f.fours:
                v.fours.append(_stones(p, d, r, mask))
        if v.five is None:
            board.place(p, stone)
            try:
                for d, f in zip(dirs, facts, strict=True):
                    for mask in self._real_three_sets(board, p, d, f, stone):
                        v.threes.append(_stones(p, d, r, mask))
            finally:
                board.remove(p)
            if rules.forbidden:
                v.kinds = self._kinds(board, p, stone, rules, facts, first_only=False)
        return v

    def forbidden_points(
        self, board: Board, stone: int = BLACK
    ) -> list[tuple[int, tuple[str, ...]]]:
        """Every empty point that ``stone`` may not play, with its kinds, in board order."""
        rules = self.rules[stone]
        if not rules.forbidden:
            return []
        cells = board.cells
        out = []
        for p in board.points():
            if cells[p] == EMPTY:
                kinds = self.forbidden_kinds(board, p, stone)
                if kinds:
                    out.append((p, kinds))
        return out

    # -- internals --------------------------------------------------------------------------
    def _kinds(
        self,
        board: Board,
        p: int,
        stone: int,
        rules: ColorRules,
        facts: Iterable[LineFacts],
        first_only: bool,
    ) -> tuple[str, ...]:
        facts = tuple(facts)
        for f in facts:
            if f.five:
                return ()  # five wins first, whatever else the move makes
        kinds: list[str] = []
        forbidden = rules.forbidden
        if OVERLINE in forbidden and any(f.overline for f in facts):
            kinds.append(OVERLINE)
            if first_only:
                return tuple(kinds)
        if DOUBLE_FOUR in forbidden and sum(len(f.fours) for f in facts) >= 2:
            kinds.append(DOUBLE_FOUR)
            if first_only:
                return tuple(kinds)
        if DOUBLE_THREE in forbidden:
            candidates = [(d, f) for d, f in zip(board.directions, facts, strict=True) if f.threes]
            if len(candidates) >= 2 or (candidates and len(candidates[0][1].threes) >= 2):
                board.place(p, stone)
                try:
                    real = 0
                    for d, f in candidates:
                        real += len(self._real_three_sets(board, p, d, f, stone))
                        if real >= 2:
                            kinds.append(DOUBLE_THREE)
                            break
                finally:
                    board.remove(p)
        return tuple(kinds)

    def _real_three_sets(self, board: Board, p: int, d: int, f: LineFacts, stone: int) -> list[int]:
        """Stone sets of the real threes of one line through ``p`` (``p`` already placed)."""
        real: list[int] = []
        for offset, mask in f.threes:
            if mask in real:
                continue
            status = self._status(board, p + offset * d, stone)
            if status == _LEGAL or (status == _FIVE and self.five_eye_counts):
                real.append(mask)
        return real

    def _status(self, board: Board, q: int, stone: int) -> int:
        """Whether playing the empty point ``q`` makes a five, is legal, or is forbidden."""
        key = (board.hash, q, stone)
        memo = self._memo
        status = memo.get(key)
        if status is not None:
            return status
        facts = self.line_facts(board, q, stone)
        if any(f.five for f in facts):
            status = _FIVE
        elif self._kinds(board, q, stone, self.rules[stone], facts, first_only=True):
            status = _FORBIDDEN
        else:
            status = _LEGAL
        if len(memo) > 1_000_000:
            memo.clear()
        memo[key] = status
        return status


def row_through(board: Board, p: int, d: int, stone: int) -> tuple[int, ...]:
    """The unbroken row of ``stone`` through ``p`` along ``d`` (``p`` counted as ``stone``)."""
    cells = board.cells
    a = p
    while cells[a - d] == stone:
        a -= d
    b = p
    while cells[b + d] == stone:
        b += d
    return tuple(range(a, b + d, d))


def _stones(p: int, d: int, r: int, mask: int) -> tuple[int, ...]:
    return tuple(p + (i - r) * d for i in range(2 * r + 1) if mask >> i & 1)
