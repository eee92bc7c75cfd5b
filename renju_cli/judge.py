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
limit.  Two things keep that cheap in dense positions (rows of black stones, where every
completion point makes threes again and the chains run to the edge of the board): a point stops
being judged as soon as its count of real threes is known, the threes settled without recursion
coming first (``Judge._two_real_threes``); and answers are memoized together with the points they
depended on (``Reach``), so that they are given again wherever those points hold the same stones,
whatever lies elsewhere: in the next game of a batch, or higher up the same recursion.

Speed (``bench/bench_judge.py``): the board keeps its lines as bit strings, so a window is one
shift and one mask of ``Board.lines``; a table maps each such raw window to a small *code* whose
4-bit fields (fives, overlines, fours, threes) add up over the four lines without carrying.  One
sum of four lookups settles nearly every move: legal when it shows a five or none of the
colour's ``hot`` fields (two threes, two fours, an overline); only the rest are looked at closely.
``reference.py`` and ``bench/equivalence.py`` check that this gives the rules' answers.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple

from renju_cli.board import BLACK, EMPTY, LINE_PAD, WALL, WHITE, Board, Geometry
from renju_cli.limits import CODE_LIMIT, MEMO_CONTEXTS, MEMO_LIMIT, WINDOW_LIMIT
from renju_cli.limits import Judgements as Judgements
from renju_cli.limits import Listings as Listings
from renju_cli.limits import WalkSteps as WalkSteps
from renju_cli.memo import remember

OVERLINE = "overline"
DOUBLE_FOUR = "double-four"
DOUBLE_THREE = "double-three"
#: Every forbidden kind, in the order reports list them.
KINDS = (OVERLINE, DOUBLE_FOUR, DOUBLE_THREE)

# Outcome of judging a point inside the recursion.
_LEGAL = 0
_FIVE = 1
_FORBIDDEN = 2
_OPEN = 3  # not known without looking at the threes in depth (``Judge._settled_status``)


class LineFacts(NamedTuple):
    """What one line window says about its centre point ``p`` (assumed to hold an own stone).

    Masks are bit sets over the window, bit ``r`` being ``p``.
    """

    run: int  #: length of the unbroken row of own stones through p
    five: bool  #: p completes a five that wins for this colour (exactly five if overlines don't)
    overline: bool  #: the row through p is longer than a five
    fours: tuple[int, ...]  #: stone sets of the distinct fours containing p
    threes: tuple[tuple[int, int], ...]  #: (straight-four point offset, stone set of the three)
    #: the straight-four point offsets of each distinct three, in ``threes`` order (a three is
    #: real when any one of its points is a legal move, so the recursion walks them by three)
    three_points: tuple[tuple[int, ...], ...] = ()


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
    by_stones: dict[int, list[int]] = {}
    for offset, mask in threes:
        by_stones.setdefault(mask, []).append(offset)
    three_points = tuple(tuple(offsets) for offsets in by_stones.values())
    return LineFacts(run, five, overline, tuple(fours), tuple(threes), three_points)


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
            # (a long five's windows are many: a five of 10 on 26x26 met millions; the memory
            # stays bounded, as for the raw windows below)
            remember(self.table, key, f, WINDOW_LIMIT)
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
    raw = 0
    for sign in (1, -1):
        q = p
        for i in range(1, r + 1):
            q += sign * d
            v = cells[q]
            raw |= v << (2 * (r + sign * i))
            if v == WALL:  # the array has one ring of wall: stop before stepping out of it
                break
    return canonical_key(raw, stone, r)


def canonical_key(raw: int, stone: int, r: int) -> int:
    """The ``line_key`` of a window given as two bits per point (a ``Board.lines`` slice)."""
    width = 2 * r + 1
    own = 0
    blocked = 0
    for i in range(r + 1, width):
        v = raw >> (2 * i) & 3
        if v == stone:
            own |= 1 << i
        elif v != EMPTY:
            blocked = ((1 << width) - 1) ^ ((1 << i) - 1)
            break
    for i in range(r - 1, -1, -1):
        v = raw >> (2 * i) & 3
        if v == stone:
            own |= 1 << i
        elif v != EMPTY:
            blocked |= (1 << (i + 1)) - 1
            break
    return own | (blocked << width)


# -- window codes: the fast path -------------------------------------------------------------------
# A line window read from ``Board.lines`` is a *raw key*: two bits per point (EMPTY, BLACK, WHITE,
# WALL), point ``p`` masked out.  Its *code* packs what the window holds for ``p`` into 4-bit
# fields, so that the codes of the four lines add up without carrying into each other.
THREE_UNIT = 1 << 0  #: distinct three stone sets (up to 3 per line)
FOUR_UNIT = 1 << 4  #: distinct fours (up to 3 per line)
OVERLINE_UNIT = 1 << 8  #: the line makes an overline
FIVE_UNIT = 1 << 12  #: the line makes a winning five
#: Field masks of a code: the sum of four codes has two threes when ``code & THREES >= 2``, etc.
THREES, FOURS, OVERLINES, FIVES = (
    0xF * u for u in (THREE_UNIT, FOUR_UNIT, OVERLINE_UNIT, FIVE_UNIT)
)


def shape_counts(code: int) -> tuple[int, int, int, int]:
    """``(fives, overlines, fours, threes)`` of a ``Judge.shape`` code, counted over the lines.

    Threes are the unverified ones of the window (whether they are real needs the recursion);
    fours and threes count at most 3 per line.
    """
    return code >> 12 & 0xF, code >> 8 & 0xF, code >> 4 & 0xF, code & 0xF


def _hot_mask(forbidden: frozenset[str]) -> int:
    """Code bits which, when set in a move's summed code, make the move worth a full look."""
    hot = 0
    if OVERLINE in forbidden:
        hot |= OVERLINES
    if DOUBLE_FOUR in forbidden:
        hot |= FOURS & ~FOUR_UNIT  # two or more fours
    if DOUBLE_THREE in forbidden:
        hot |= THREES & ~THREE_UNIT  # two or more threes
    return hot


def _quiet(k: int, rules: ColorRules) -> int:
    """The fewest stones of a colour that one of its moves needs beside it on the board to make
    a five (``k`` in a row) or a shape its rules forbid: a colour with fewer plays its first
    moves without a look at their lines (a batch of short games: most of their moves).

    In one line, beside the move: a five needs ``k - 1`` stones, an overline ``k``, two fours
    ``k - 1``, two threes ``k - 2`` where an overline wins (``X.X*.X``; never where a five is
    exactly five); a four needs ``k - 2`` and a three ``k - 3``, so two of them in two lines
    need twice that.  ``tests/test_judge.py`` finds these least numbers line by line."""
    need = k - 1
    if OVERLINE in rules.forbidden:
        need = min(need, k)
    if DOUBLE_FOUR in rules.forbidden:
        need = min(need, k - 1, 2 * (k - 2))
    if DOUBLE_THREE in rules.forbidden:
        need = min(need, 2 * (k - 3))
        if rules.overline_wins:
            need = min(need, k - 2)
    return max(need, 0)


class WindowTable:
    """Codes and facts of raw line windows, for one colour, five length and exactness.

    Filled on first sight of a window and shared by every judge (``window_table``).  Many raw
    windows (whatever lies beyond a blocked point) share one ``line_key``, whose facts and code
    are kept apart: a new raw window costs a conversion, rarely an analysis.
    """

    __slots__ = ("_by_key", "_halves", "codes", "exact", "facts", "k", "lines", "stone")

    def __init__(self, k: int, exact: bool, stone: int) -> None:
        self.k = k
        self.exact = exact
        self.stone = stone
        self.lines = line_table(k, exact)
        self.codes: dict[int, int] = {}
        self.facts: dict[int, LineFacts] = {}
        self._by_key: dict[int, tuple[LineFacts, int]] = {}
        self._halves: tuple[list[int], list[int]] | tuple[()] = ()

    def _key(self, raw: int) -> int:
        """``canonical_key`` of a raw window, by halves: each side of ``p`` is canonical on its
        own, and for small windows both halves' keys fit in two short lists, filled as halves
        are met (-1: not yet; all of them at once cost a one-record run 4,096 keys)."""
        k = self.k
        if k > 6:
            return canonical_key(raw, self.stone, k)
        if not self._halves:
            side = 1 << (2 * k)
            self._halves = ([-1] * side, [-1] * side)
        left, right = self._halves
        x, y = raw & ((1 << (2 * k)) - 1), raw >> (2 * k + 2)
        key_x, key_y = left[x], right[y]
        if key_x < 0:
            key_x = left[x] = canonical_key(x, self.stone, k)
        if key_y < 0:
            key_y = right[y] = canonical_key(y << (2 * k + 2), self.stone, k)
        return key_x | key_y

    def _known(self, raw: int) -> tuple[LineFacts, int]:
        key = self._key(raw)
        known = self._by_key.get(key)
        if known is None:
            f = self.lines.facts(key)
            code = (
                FIVE_UNIT * f.five
                + OVERLINE_UNIT * f.overline
                + FOUR_UNIT * min(len(f.fours), 3)
                + THREE_UNIT * min(len({mask for _, mask in f.threes}), 3)
            )
            known = remember(self._by_key, key, (f, code), WINDOW_LIMIT)
        return known

    def code(self, raw: int) -> int:
        """The code of a raw window (remembered for the hot paths' direct lookups)."""
        code = self.codes.get(raw)
        return self.new_code(raw) if code is None else code

    def new_code(self, raw: int) -> int:
        """``code`` of a raw window not in ``codes`` yet (the hot path looked it up already)."""
        return remember(self.codes, raw, self._known(raw)[1], CODE_LIMIT)

    def facts_of(self, raw: int) -> LineFacts:
        """The facts of a raw window (remembered too: the double-three recursion reads the
        facts of every point it judges)."""
        facts = self.facts.get(raw)
        if facts is None:
            facts = remember(self.facts, raw, self._known(raw)[0], WINDOW_LIMIT)
        return facts


_WINDOW_TABLES: dict[tuple[int, bool, int], WindowTable] = {}


def window_table(k: int, exact: bool, stone: int) -> WindowTable:
    """The shared raw-window table of one colour for five length ``k``."""
    t = _WINDOW_TABLES.get((k, exact, stone))
    if t is None:
        t = _WINDOW_TABLES[(k, exact, stone)] = WindowTable(k, exact, stone)
    return t


class Reach:
    """The points of one board geometry as bits of one int, for the recursion's memo.

    ``whole(lines)`` packs the board's rows (2 bits per point, as in ``Board.lines``) into one
    int; ``shift[p]`` is the position of point ``p`` in it, and ``window(p)`` the mask of the
    points that the four line windows of ``p`` read (``p`` included): what ``shape`` and
    ``line_facts`` of ``p`` depend on.  A judgement that read the windows of some points depends
    on the board only through the union of their masks.
    """

    __slots__ = ("geometry", "k", "row_bits", "row_lines", "row_mask", "shift", "windows")

    def __init__(self, geometry: Geometry, k: int) -> None:
        self.geometry = geometry
        w = geometry.width
        self.row_bits = 2 * w
        self.row_mask = (1 << (2 * w)) - 1
        slots = geometry.slots
        stride = geometry.stride
        # the horizontal line of each row, bottom row first (``Board.index_of`` layout)
        self.row_lines: list[int] = []
        for y in range(geometry.height):
            slot = slots[(y + 1) * stride + 1]
            assert slot is not None  # the first point of a row is on the board
            self.row_lines.append(slot[0])
        self.shift = [-1] * len(geometry.cells)
        for y in range(geometry.height):
            for x in range(w):
                self.shift[(y + 1) * stride + x + 1] = 2 * (y * w + x)
        self.windows = [0] * len(geometry.cells)
        self.k = k

    def window(self, p: int) -> int:
        """The mask of the points read by the four line windows of ``p`` (``p`` included)."""
        mask = self.windows[p]
        if not mask:  # worked out on first use: most points of a big board never need it
            g = self.geometry
            cells, shift = g.cells, self.shift
            mask = 3 << shift[p]
            for d in g.directions:
                for step in (d, -d):
                    q = p
                    for _ in range(self.k):
                        q += step
                        if cells[q] == WALL:
                            break  # the rest of the window is the line's wall padding
                        mask |= 3 << shift[q]
            self.windows[p] = mask
        return mask

    def whole(self, lines: list[int]) -> int:
        """The board's points as one int (from ``Board.lines``)."""
        pad, mask, bits = 2 * LINE_PAD, self.row_mask, self.row_bits
        out = 0
        for y, line in enumerate(self.row_lines):
            out |= (lines[line] >> pad & mask) << (y * bits)
        return out


@functools.cache
def reach_of(geometry: Geometry, k: int) -> Reach:
    """The shared ``Reach`` of a board geometry and five length."""
    return Reach(geometry, k)


class JudgementBound(Exception):
    """A judgement needed more double-three judgements than its ``Judgements`` allowed;
    ``kinds``: the forbidden kinds found without them (an overline, a double-four)."""

    def __init__(self, kinds: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.kinds = kinds


class Judge:
    """Decides fives, fours, threes and forbidden moves under one set of line rules.

    ``five_length`` is the length of a five (5 for every shipped ruleset, at most
    ``board.LINE_PAD``); ``five_eye_counts`` is the ruleset option of rules.md §2 (default
    ``False``: a straight-four point that also completes a five elsewhere does not make a three).

    The hot paths (``forbidden_kinds``, ``five_at``, ``shape``) read the four line windows of a
    point from ``Board.lines`` and add up their codes (``WindowTable``); only a move whose codes
    show two threes, two fours or an overline is looked at closely (``LineFacts``, recursion).
    ``hot[stone]`` holds those code bits for each colour (0 when it has no forbidden moves):
    a move whose ``shape`` code has none of them, or has ``FIVES``, is legal.
    """

    def __init__(
        self,
        black: ColorRules = RENJU_BLACK,
        white: ColorRules = RENJU_WHITE,
        five_length: int = 5,
        five_eye_counts: bool = False,
    ) -> None:
        if not 1 <= five_length <= LINE_PAD:
            raise ValueError(f"a five must be 1 to {LINE_PAD} stones long, not {five_length}")
        self.rules = {BLACK: black, WHITE: white}
        self.k = five_length
        self.five_eye_counts = five_eye_counts
        self.tables = {
            BLACK: line_table(five_length, not black.overline_wins),
            WHITE: line_table(five_length, not white.overline_wins),
        }
        windows = (
            window_table(five_length, not black.overline_wins, BLACK),
            window_table(five_length, not white.overline_wins, WHITE),
        )
        # indexed by stone (BLACK = 1, WHITE = 2), so that the hot paths need no dict
        self._windows = (windows[0], *windows)
        self._codes = (windows[0].codes, windows[0].codes, windows[1].codes)
        self.hot: tuple[int, int, int] = (
            0,
            _hot_mask(black.forbidden),
            _hot_mask(white.forbidden),
        )
        #: the stones of its colour on the board below which no move of that colour can make
        #: a five or show the shapes of ``hot``: its ``shape`` is not looked at (``_quiet``)
        self.quiet: tuple[int, int, int] = (
            0,
            _quiet(five_length, black),
            _quiet(five_length, white),
        )
        self._shift = 2 * five_length  # from a point's bits to the low end of its window
        self._mask = ((1 << (4 * five_length + 2)) - 1) ^ (3 << (2 * five_length))
        # the code bits that forbid a move without any recursion: an overline, two fours
        self._fouls = tuple(h & ~THREES for h in self.hot)
        # (point, stone, code, reach) -> [(read, its stones, status)]: see ``_deep_status``
        self._memo: dict[tuple[int, int, int, Reach], list[tuple[int, int, int]]] = {}
        self._memo_size = 0
        self._reach: Reach | None = None
        self._whole = 0
        self._whole_hash = -1
        self._whole_reach: Reach | None = None
        #: Points judged in depth by the double-three recursion (a memo miss each): the cost
        #: measure that tests pin, independent of the machine's speed.
        self.deep_judgements = 0
        #: Points whose threes were judged (``_two_real_threes``, at the top of the recursion
        #: or in it): what a ``Judgements`` bound counts.
        self.judgements = 0
        #: what ``bounded_kinds`` may still spend (``None``: no bound)
        self._bound: Judgements | None = None

    # -- single lines -----------------------------------------------------------------------
    def _raw_keys(self, board: Board, p: int) -> tuple[int, int, int, int]:
        lines, w, m = board.lines, self._shift, self._mask
        l0, s0, l1, s1, l2, s2, l3, s3 = board.slots[p]  # type: ignore[misc]
        return (
            (lines[l0] >> (s0 - w)) & m,
            (lines[l1] >> (s1 - w)) & m,
            (lines[l2] >> (s2 - w)) & m,
            (lines[l3] >> (s3 - w)) & m,
        )

    def line_facts(self, board: Board, p: int, stone: int) -> list[LineFacts]:
        """The facts of the four lines through ``p`` if ``stone`` were played there."""
        facts_of = self._windows[stone].facts_of
        return [facts_of(raw) for raw in self._raw_keys(board, p)]

    def shape(self, board: Board, p: int, stone: int) -> int:
        """The summed window code of ``stone`` playing ``p`` (read it with ``shape_counts``)."""
        codes = self._codes[stone]
        lines, w, m = board.lines, self._shift, self._mask
        l0, s0, l1, s1, l2, s2, l3, s3 = board.slots[p]  # type: ignore[misc]
        try:
            return (
                codes[(lines[l0] >> (s0 - w)) & m]
                + codes[(lines[l1] >> (s1 - w)) & m]
                + codes[(lines[l2] >> (s2 - w)) & m]
                + codes[(lines[l3] >> (s3 - w)) & m]
            )
        except KeyError:  # a window not seen before: analyze it, then add up again
            return self._shape_slow(board, p, stone)

    def _shape_slow(self, board: Board, p: int, stone: int) -> int:
        table = self._windows[stone]
        known, new_code = table.codes.get, table.new_code
        total = 0
        for raw in self._raw_keys(board, p):  # (most of the four are known: looked up inline)
            c = known(raw)
            total += new_code(raw) if c is None else c
        return total

    def five_at(self, board: Board, p: int, stone: int) -> tuple[int, ...] | None:
        """The winning row ``stone`` makes by playing (or having played) ``p``, if any: an
        exact five before an overline, whatever the order of the lines (a move may make both
        in two lines, and it wins by the five)."""
        if not self.shape(board, p, stone) & FIVES:
            return None
        return self._winning_row(board, p, stone, self.line_facts(board, p, stone))

    def _winning_row(
        self, board: Board, p: int, stone: int, facts: list[LineFacts]
    ) -> tuple[int, ...] | None:
        """The row of the first exact five among the lines ``facts`` of ``p``, else of the
        first winning overline, else ``None``."""
        winning = [
            (f.run != self.k, d) for d, f in zip(board.directions, facts, strict=True) if f.five
        ]
        if not winning:
            return None
        return row_through(board, p, min(winning, key=lambda w: w[0])[1], stone)

    # -- judgement --------------------------------------------------------------------------
    def forbidden_kinds(self, board: Board, p: int, stone: int) -> tuple[str, ...]:
        """Every forbidden kind that applies to ``stone`` playing the empty point ``p``.

        Empty when the move is legal — in particular when it makes a five (five wins first).
        """
        return self.bounded_kinds(board, p, stone, None)[0]

    def bounded_kinds(
        self, board: Board, p: int, stone: int, bound: Judgements | None
    ) -> tuple[tuple[str, ...], bool]:
        """``forbidden_kinds``, spending at most ``bound.left`` double-three judgements (taken
        off it; ``None``: no bound), and whether a double-three was left undecided for want of
        them (the kinds are then those found without: an overline, a double-four)."""
        hot = self.hot[stone]
        if not hot:
            return (), False
        code = self.shape(board, p, stone)
        if not code & hot or code & FIVES:
            return (), False
        return self._kinds_within(board, p, stone, code, bound)

    def forget(self) -> None:
        """Start the memo of deep judgements afresh: a record judged after ``forget`` makes the
        same double-three judgements whatever was judged before it (``bounded_kinds`` counts
        them)."""
        if self._memo_size:
            self._memo.clear()
            self._memo_size = 0

    def verdict(
        self,
        board: Board,
        p: int,
        stone: int,
        kinds: tuple[str, ...] | None = None,
        bound: Judgements | None = None,
    ) -> Verdict:
        """The full verdict for ``stone`` playing the empty point ``p``, with its stones.

        ``kinds``: the forbidden kinds, when known (the real threes are then looked for only
        if they hold a double-three); ``bound``: the double-three judgements that may be made
        (``JudgementBound`` past them)."""
        facts = self.line_facts(board, p, stone)
        v = Verdict()
        r = self.k
        dirs = board.directions
        v.five = self._winning_row(board, p, stone, facts)
        for d, f in zip(dirs, facts, strict=True):
            if f.overline and v.overline is None:
                v.overline = row_through(board, p, d, stone)
            for mask in f.fours:
                v.fours.append(_stones(p, d, r, mask))
        if v.five is None:
            if kinds is None or DOUBLE_THREE in kinds:
                board.place(p, stone)
                self._bound = bound
                try:
                    for d, f in zip(dirs, facts, strict=True):
                        for mask in self._real_three_sets(board, p, d, f, stone):
                            v.threes.append(_stones(p, d, r, mask))
                finally:
                    self._bound = None
                    board.remove(p)
            v.kinds = self.forbidden_kinds(board, p, stone) if kinds is None else kinds
        return v

    def forbidden_points(
        self, board: Board, stone: int = BLACK, bound: Judgements | None = None
    ) -> list[tuple[int, tuple[str, ...]]]:
        """Every empty point that ``stone`` may not play, with its kinds, in board order;
        within ``bound``'s double-three judgements if given (past them, a point is listed
        with the kinds found without them: an overline, a double-four)."""
        hot = self.hot[stone]
        if not hot:
            return []
        cells, shape = board.cells, self.shape
        out = []
        for p in board.points():
            if cells[p] != EMPTY:
                continue
            code = shape(board, p, stone)
            if code & hot and not code & FIVES:
                kinds = self._kinds_within(board, p, stone, code, bound)[0]
                if kinds:
                    out.append((p, kinds))
        return out

    # -- internals --------------------------------------------------------------------------
    def _kinds_within(
        self, board: Board, p: int, stone: int, code: int, bound: Judgements | None
    ) -> tuple[tuple[str, ...], bool]:
        """``_kinds`` of every kind within ``bound``, and whether it left a double-three
        undecided (the kinds are then those found without it)."""
        try:
            return self._kinds(board, p, stone, code, first_only=False, bound=bound), False
        except JudgementBound as e:
            return e.kinds, True

    def _kinds(
        self,
        board: Board,
        p: int,
        stone: int,
        code: int,
        first_only: bool,
        bound: Judgements | None = None,
    ) -> tuple[str, ...]:
        """The forbidden kinds of a move whose summed code (no five) is ``code``; within
        ``bound``'s double-three judgements if given (``JudgementBound`` past them)."""
        forbidden = self.rules[stone].forbidden
        kinds: list[str] = []
        if OVERLINE in forbidden and code & OVERLINES:
            kinds.append(OVERLINE)
            if first_only:
                return (OVERLINE,)
        if DOUBLE_FOUR in forbidden and code & FOURS >= 2 * FOUR_UNIT:
            kinds.append(DOUBLE_FOUR)
            if first_only:
                return (DOUBLE_FOUR,)
        if DOUBLE_THREE in forbidden and code & THREES >= 2 * THREE_UNIT:
            self._bound = bound
            try:
                if self._two_real_threes(board, p, stone)[0]:
                    kinds.append(DOUBLE_THREE)
            except JudgementBound:
                raise JudgementBound(tuple(kinds)) from None
            finally:
                self._bound = None
        return tuple(kinds)

    def _two_real_threes(self, board: Board, p: int, stone: int) -> tuple[bool, int]:
        """Whether two or more real threes contain ``p`` if ``stone`` is played there, and the
        ``Reach`` mask of the points that answer depended on.

        Only the count matters, so the threes are settled cheapest first and the search stops
        as soon as the count is known: first every straight-four point is looked at without
        recursion (``_settled_status``), and only if that leaves the answer open are the
        undecided threes judged in depth, one by one, until two are real or too few remain.
        In dense positions most threes are settled cheaply or not needed at all; judging all
        of them in depth made the recursion exponential (rows of black stones on 26x26).
        """
        bound = self._bound
        if bound is not None:  # (``bounded_kinds``): each point judged so counts
            if bound.left <= 0:
                raise JudgementBound  # (the stones placed above are taken off by ``finally``)
            bound.left -= 1
        self.judgements += 1
        facts = self.line_facts(board, p, stone)
        reach = self._reach_of(board)
        windows, window = reach.windows, reach.window
        seen = windows[p] or window(p)
        shape, hot, fouls = self.shape, self.hot[stone], self._fouls[stone]
        five_counts = self.five_eye_counts
        real = 0
        undecided: list[list[tuple[int, int]]] = []  # (point, code) of each open three's points
        self._place(board, reach, p, stone)
        try:
            for d, f in zip(board.directions, facts, strict=True):
                for offsets in f.three_points:
                    open_points: list[tuple[int, int]] = []
                    for offset in offsets:
                        # ``_settled_status`` written out: this loop is on the hot path
                        q = p + offset * d
                        code = shape(board, q, stone)
                        seen |= windows[q] or window(q)
                        if code & FIVES:
                            if five_counts:
                                break  # a real three
                            continue  # this point makes a five, not a straight four
                        if not code & hot:
                            break  # a legal point: a real three
                        if code & fouls:
                            continue  # an overline or a double-four point
                        known = self._remembered(board, reach, q, stone, code)
                        if known is None:
                            open_points.append((q, code))
                            continue
                        seen |= known[1]
                        if known[0] == _LEGAL:
                            break
                    else:
                        if open_points:
                            undecided.append(open_points)
                        continue
                    real += 1
                    if real >= 2:
                        return True, seen
            if real + len(undecided) < 2:
                return False, seen
            left = len(undecided)
            for open_points in undecided:
                left -= 1
                for q, code in open_points:
                    status, read = self._deep_status(board, reach, q, stone, code)
                    seen |= read
                    if status == _LEGAL:
                        real += 1
                        if real >= 2:
                            return True, seen
                        break
                else:
                    if real + left < 2:
                        return False, seen
            return False, seen  # pragma: no cover - the loop always decides
        finally:
            self._remove(board, reach, p)

    def _real_three_sets(self, board: Board, p: int, d: int, f: LineFacts, stone: int) -> list[int]:
        """Stone sets of the real threes of one line through ``p`` (``p`` already placed)."""
        real: list[int] = []
        reach = self._reach_of(board)
        for offset, mask in f.threes:
            if mask in real:
                continue
            q = p + offset * d
            status, code, _ = self._settled_status(board, reach, q, stone)
            if status == _OPEN:
                status = self._deep_status(board, reach, q, stone, code)[0]
            if status == _LEGAL or (status == _FIVE and self.five_eye_counts):
                real.append(mask)
        return real

    def _settled_status(
        self, board: Board, reach: Reach, q: int, stone: int
    ) -> tuple[int, int, int]:
        """``(status, code, read)`` of the empty point ``q`` as far as it is known without
        recursion, ``read`` being the ``Reach`` mask of the points the status depends on.

        The status is ``_OPEN`` when only its threes could forbid ``q`` and the memo does not
        know the answer yet.
        """
        code = self.shape(board, q, stone)
        if code & FIVES:
            return _FIVE, code, reach.window(q)
        if not code & self.hot[stone]:
            return _LEGAL, code, reach.window(q)
        if code & self._fouls[stone]:
            # an overline or a double-four: no recursion needed
            return _FORBIDDEN, code, reach.window(q)
        known = self._remembered(board, reach, q, stone, code)
        if known is None:
            return _OPEN, code, reach.window(q)
        return known[0], code, known[1]

    def _remembered(
        self, board: Board, reach: Reach, q: int, stone: int, code: int
    ) -> tuple[int, int] | None:
        """``(status, read)`` of ``q`` from the memo if it holds an answer that applies here."""
        entries = self._memo.get((q, stone, code, reach))
        if entries:
            whole = self._whole_of(board, reach)
            for read, stones, status in entries:
                if whole & read == stones:
                    return status, read
        return None

    def _deep_status(
        self, board: Board, reach: Reach, q: int, stone: int, code: int
    ) -> tuple[int, int]:
        """``(status, read)`` of an ``_OPEN`` point: whether its threes make a double-three.

        The memo remembers the answer with the points it depended on (``read``) and their
        stones, and gives it again wherever those points hold the same stones, whatever the
        rest of the board holds: the same subproblem recurs with different stones far away
        (in other games, or placed higher up the recursion).
        """
        known = self._remembered(board, reach, q, stone, code)
        if known is not None:
            return known
        self.deep_judgements += 1
        forbidden, read = self._two_real_threes(board, q, stone)
        status = _FORBIDDEN if forbidden else _LEGAL
        # (looked up again: the recursion may have started the memo afresh)
        key = (q, stone, code, reach)
        memo = self._memo
        entries = memo.get(key)
        if entries is None:
            if self._memo_size >= MEMO_LIMIT:
                memo.clear()
                self._memo_size = 0
            entries = memo[key] = []
        elif len(entries) >= MEMO_CONTEXTS:
            del entries[0]
            self._memo_size -= 1
        # (the board is as it was before the recursion: its whole int is the one it had)
        entries.append((read, self._whole_of(board, reach) & read, status))
        self._memo_size += 1
        return status, read

    # -- the whole board as one int, for the memo -------------------------------------------------
    def _reach_of(self, board: Board) -> Reach:
        geometry = board.geometry
        reach = self._reach
        if reach is None or reach.geometry is not geometry:
            reach = self._reach = reach_of(geometry, self.k)
        return reach

    def _whole_of(self, board: Board, reach: Reach) -> int:
        """``Reach.whole`` of the board, kept while the recursion places and removes stones."""
        if self._whole_hash != board.hash or self._whole_reach is not reach:
            self._whole = reach.whole(board.lines)
            self._whole_hash = board.hash
            self._whole_reach = reach
        return self._whole

    def _place(self, board: Board, reach: Reach, p: int, stone: int) -> None:
        """Place a stone for the recursion, updating the kept whole-board int if it is current."""
        current = self._whole_hash == board.hash and self._whole_reach is reach
        board.place(p, stone)
        if current:
            self._whole |= stone << reach.shift[p]
            self._whole_hash = board.hash

    def _remove(self, board: Board, reach: Reach, p: int) -> None:
        """Take a stone of the recursion off again (the kept whole-board int follows)."""
        current = self._whole_hash == board.hash and self._whole_reach is reach
        stone = board.cells[p]
        board.remove(p)
        if current:
            self._whole ^= stone << reach.shift[p]
            self._whole_hash = board.hash


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
