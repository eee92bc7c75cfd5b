"""The findings of an opening check as the report will list them: at most ``MAX_FINDINGS``."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable

from renju_cli.limits import MAX_FINDINGS
from renju_cli.record import CODES, ERROR, INFO, Finding


class CappedFindings:
    """At most ``MAX_FINDINGS`` findings, the first by move (those without one first), then as
    made; the others are only counted by code and severity.  A finding past the cap is never
    worded (a record may offer one point thousands of times), so most are added as ``make``,
    called only if the finding is kept."""

    __slots__ = ("dropped", "errors", "heap", "made", "unchecked")

    def __init__(self) -> None:
        #: ``(-move, -order, finding)``: the last kept in the report's order on top
        self.heap: list[tuple[int, int, Finding]] = []
        self.made = 0  # findings added so far: the order of the next one
        self.dropped: Counter[tuple[str, str]] | None = None
        #: every finding added, kept or not, as a walk's ``score`` counts them
        self.errors = 0
        self.unchecked = 0

    def copy(self) -> CappedFindings:
        """A copy to add to apart (a branch's option tried)."""
        other = object.__new__(CappedFindings)  # (every option tried forks: no __init__ to undo)
        other.heap = self.heap[:]
        other.made = self.made
        other.dropped = Counter(self.dropped) if self.dropped else None
        other.errors, other.unchecked = self.errors, self.unchecked
        return other

    def takes(self, move: int | None) -> bool:
        """Whether a finding of ``move`` added now would be kept (it may push out another)."""
        heap = self.heap
        if len(heap) < MAX_FINDINGS:
            return True
        key = -1 if move is None else move  # as the report sorts: one without a move first
        top_key, top_order = -heap[0][0], -heap[0][1]
        return key < top_key or (key == top_key and self.made < top_order)

    def add(
        self, code: str, move: int | None, make: Callable[[], Finding], severity: str = ""
    ) -> None:
        """Add the finding ``make()`` would make (``code``, ``move`` and ``severity`` as it
        will have them), making it only if it is kept."""
        severity = severity or CODES.get(code, ERROR)
        if severity == INFO:
            self.unchecked += 1
        else:
            self.errors += 1
        taken = self.takes(move)
        order = self.made
        self.made += 1
        if not taken:
            self._drop(code, severity, 1)
            return
        entry = (-(-1 if move is None else move), -order, make())
        if len(self.heap) < MAX_FINDINGS:
            heapq.heappush(self.heap, entry)
        else:
            out = heapq.heapreplace(self.heap, entry)[2]
            self._drop(out.code, out.severity, 1)

    def put(self, finding: Finding) -> None:
        """Add a finding made already."""
        self.add(finding.code, finding.move, lambda: finding, finding.severity)

    def skip(self, code: str, count: int, severity: str = "") -> None:
        """Count ``count`` findings of ``code`` that would not be kept (``takes`` said so for
        the first: the others come after it), without making them."""
        if count <= 0:
            return
        severity = severity or CODES.get(code, ERROR)
        if severity == INFO:
            self.unchecked += count
        else:
            self.errors += count
        self.made += count
        self._drop(code, severity, count)

    def _drop(self, code: str, severity: str, count: int) -> None:
        if self.dropped is None:
            self.dropped = Counter()
        self.dropped[code, severity] += count

    def listed(self) -> list[Finding]:
        """The findings kept, in the report's order."""
        return [f for _, _, f in sorted(self.heap, reverse=True)]
