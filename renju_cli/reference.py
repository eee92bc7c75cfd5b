"""A slow, direct transcription of rules.md, used to check the fast judge.

It shares no code with ``renju_cli.judge``: points are ``(x, y)`` tuples in a dict, fours are
found from their *completion points* (not from windows), threes by trying every point that could
make a straight four, and nothing is cached.  Tests and ``bench/`` compare the two on many
positions; any difference is a bug in one of them.
"""

from __future__ import annotations

from collections.abc import Iterator

Grid = dict[tuple[int, int], str]  # (x, y) -> "B" or "W"
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Position:
    """A square board of ``size`` with black (``B``) and white (``W``) stones."""

    def __init__(
        self,
        size: int,
        stones: Grid | None = None,
        five_eye_counts: bool = False,
        depth_limit: int | None = None,
    ) -> None:
        self.size = size
        self.grid: Grid = dict(stones or {})
        self.five_eye_counts = five_eye_counts
        #: For experiments only: stop the real-three recursion after this many levels.
        self.depth_limit = depth_limit

    def on(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def empty(self, x: int, y: int) -> bool:
        return self.on(x, y) and (x, y) not in self.grid

    def run(self, x: int, y: int, dx: int, dy: int) -> list[tuple[int, int]]:
        """The unbroken row of black stones through (x, y) along (dx, dy), (x, y) included."""
        out = [(x, y)]
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while self.grid.get((cx, cy)) == "B":
                out.append((cx, cy))
                cx, cy = cx + sign * dx, cy + sign * dy
        return sorted(out)

    def line_points(
        self, x: int, y: int, dx: int, dy: int, reach: int
    ) -> Iterator[tuple[int, int]]:
        for i in range(-reach, reach + 1):
            if i:
                px, py = x + i * dx, y + i * dy
                if self.on(px, py):
                    yield px, py

    # The rules, one by one, for black playing the empty point (x, y). ---------------------
    def makes_five(self, x: int, y: int) -> bool:
        return any(len(self.run(x, y, dx, dy)) == 5 for dx, dy in DIRS)

    def makes_overline(self, x: int, y: int) -> bool:
        return any(len(self.run(x, y, dx, dy)) >= 6 for dx, dy in DIRS)

    def fours(self, x: int, y: int) -> set[frozenset[tuple[int, int]]]:
        """Four-stone sets containing (x, y): adding one stone makes exactly five."""
        found: set[frozenset[tuple[int, int]]] = set()
        self.grid[(x, y)] = "B"
        try:
            for dx, dy in DIRS:
                for e in self.line_points(x, y, dx, dy, 4):
                    if not self.empty(*e):
                        continue
                    self.grid[e] = "B"
                    row = self.run(e[0], e[1], dx, dy)
                    del self.grid[e]
                    if len(row) == 5 and (x, y) in row:
                        found.add(frozenset(p for p in row if p != e))
        finally:
            del self.grid[(x, y)]
        return found

    def is_straight_four(self, row: list[tuple[int, int]], dx: int, dy: int) -> bool:
        """An unbroken row of exactly four whose two ends are empty and each makes five."""
        if len(row) != 4:
            return False
        (ax, ay), (bx, by) = row[0], row[-1]
        ends = [(ax - dx, ay - dy), (bx + dx, by + dy)]
        for e in ends:
            if not self.empty(*e):
                return False
            self.grid[e] = "B"
            five = len(self.run(e[0], e[1], dx, dy)) == 5
            del self.grid[e]
            if not five:
                return False
        return True

    def real_threes(self, x: int, y: int, depth: int) -> set[frozenset[tuple[int, int]]]:
        """Three-stone sets containing (x, y) that can become a straight four at a legal point."""
        found: set[frozenset[tuple[int, int]]] = set()
        self.grid[(x, y)] = "B"
        try:
            for dx, dy in DIRS:
                for q in self.line_points(x, y, dx, dy, 4):
                    if not self.empty(*q):
                        continue
                    self.grid[q] = "B"
                    row = self.run(q[0], q[1], dx, dy)
                    straight = (x, y) in row and self.is_straight_four(row, dx, dy)
                    del self.grid[q]
                    if not straight:
                        continue
                    three = frozenset(p for p in row if p != q)
                    if three in found:
                        continue
                    if self.completion_ok(q, depth + 1):
                        found.add(three)
        finally:
            del self.grid[(x, y)]
        return found

    def completion_ok(self, q: tuple[int, int], depth: int) -> bool:
        """May black play the straight-four point q (the three's stone already placed)?"""
        if self.makes_five(*q):
            return self.five_eye_counts
        if self.depth_limit is not None and depth > self.depth_limit:
            return True
        return not self.forbidden(q[0], q[1], depth)

    def forbidden(self, x: int, y: int, depth: int = 0) -> list[str]:
        """Every forbidden kind black's move at (x, y) makes (empty when legal)."""
        if self.makes_five(x, y):
            return []
        kinds = []
        if self.makes_overline(x, y):
            kinds.append("overline")
        if len(self.fours(x, y)) >= 2:
            kinds.append("double-four")
        if len(self.real_threes(x, y, depth)) >= 2:
            kinds.append("double-three")
        return kinds
