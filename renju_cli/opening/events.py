"""A record's opening events (swaps, choices, offers, declared counts, rejections, moved
stones), indexed so that a step finds its event without a pass over all of them."""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import chain
from typing import Any

from renju_cli.coords import Point
from renju_cli.limits import DECLARED_KEPT as DECLARED_KEPT
from renju_cli.record import OpeningEvent

#: Record events that change the stones on the board (the referee applies them too).
BOARD_EVENTS = ("reject", "relocate")
#: Record events that a ``swap`` or ``choose`` step explains.
DECISIONS = ("swap", "no-swap", "choose")
#: Events of a record (and points of an event) that a memo keys at most (``small_events``).
SMALL_EVENTS = 8

#: The finding of a recorded event that no step explains, by the event's kind.
LEFTOVER_CODES = {
    "swap": "swap-not-allowed",
    "choose": "swap-not-allowed",
    "offers": "offer-invalid",
    "declare": "offer-count",
    "reject": "reject-not-allowed",
    "relocate": "relocation-invalid",
}

#: Events by the moves played before them (``after`` below 0 as 0), with their indices.
BoardEvents = dict[int, list[tuple[int, OpeningEvent]]]


def has_board_events(events: list[OpeningEvent]) -> bool:
    """Whether ``events`` hold a rejection or a moved stone: the events that change the board
    (the referee applies them; their findings name the event's line)."""
    for e in events:  # noqa: SIM110 (no generator: asked once per record)
        if e.kind in BOARD_EVENTS:
            return True
    return False


def small_events(events: list[OpeningEvent]) -> bool:
    """Whether ``events`` are few and small enough to be part of a memo's key (the referee's
    memo of short records): ``SMALL_EVENTS`` at most, of as many points at most (an offer may
    name thousands), values of ``DECLARED_KEPT`` characters at most (a memo of a run would keep
    a long one thousands of times)."""
    if len(events) > SMALL_EVENTS:
        return False
    for e in events:
        if len(e.points) > SMALL_EVENTS or len(e.value or "") > DECLARED_KEPT:
            return False
    return True


def leftover_move(e: OpeningEvent) -> int | None:
    """The move of the finding of an event that no step explains (``None``: none)."""
    if e.kind == "offers":
        return e.after + 1 if e.after >= 0 else None
    if e.kind == "swap" and e.after == -1 and e.value:
        return None
    return e.after if e.after > 0 else None


def move_stones(stones: dict[Point, Any], event: OpeningEvent, width: int, height: int) -> bool:
    """Apply a rejection (every stone off) or a moved stone (``relocate``: ``points`` are from
    and to) to ``stones`` (point -> anything), for the opening check.  The referee applies the
    same conditions to its board's cells directly, and must stay in step with this: both must
    see the same board.  False when a stone cannot move: nothing on the first point, or the
    second taken or off the board."""
    if event.kind == "reject":
        stones.clear()
        return True
    if event.kind != "relocate" or len(event.points) != 2:
        return False
    source, target = event.points
    if source not in stones or target in stones or not target.on_board(width, height):
        return False
    stones[target] = stones.pop(source)
    return True


class EventIndex:
    """A record's opening events, looked up by kind and by the moves played before them (a
    record may hold thousands).

    """

    def __init__(self, events: list[OpeningEvent]) -> None:
        self.events = list(events)  # (a copy: the record's list is its reader's)
        #: rejections and moved stones by the moves played before them, in record order
        self.board: BoardEvents = {}
        #: (kind, after) -> indices, in record order
        self.at: dict[tuple[str, int], list[int]] = {}
        #: decisions (swap, no-swap, choose) by ``after``; and of those with ``after`` -1 (no
        #: place recorded), by value ("" for none): RenjuNet's swap flags number opportunities
        self.decisions: dict[int, list[int]] = {}
        self.flags: dict[str, list[int]] = {}
        #: the events whose finding says no step explains them, in the report's order: (the
        #: finding's move or -1, index, code); and their codes counted
        self.leftover: list[tuple[int, int, str]] = []
        self.codes: Counter[str] = Counter()
        self._index()
        # the decisions by ``after``, then index, and their ``after`` values (to find those
        # still ahead of a walk; each list of ``decisions`` is in index order)
        places = sorted(self.decisions)
        self.ahead = [i for after in places for i in self.decisions[after]]
        self.ahead_after = [after for after in places for _ in self.decisions[after]]

    def _index(self) -> None:
        # one pass: a record may hold thousands of swap flags
        at: defaultdict[tuple[str, int], list[int]] = defaultdict(list)
        board: defaultdict[int, list[tuple[int, OpeningEvent]]] = defaultdict(list)
        decisions: defaultdict[int, list[int]] = defaultdict(list)
        flags: defaultdict[str, list[int]] = defaultdict(list)
        leftover = self.leftover
        leftover_code = LEFTOVER_CODES.get
        for i, e in enumerate(self.events):
            kind, after = e.kind, e.after
            at[kind, after].append(i)
            if kind in DECISIONS:
                decisions[after].append(i)
                if after == -1:
                    flags[e.value or ""].append(i)
            elif kind in BOARD_EVENTS:
                board[max(after, 0)].append((i, e))
            code = leftover_code(kind)
            if code is not None:
                leftover.append((leftover_move(e) or -1, i, code))
        # (plain dicts: a lookup of a missing key must not add it)
        self.at, self.board, self.decisions = dict(at), dict(board), dict(decisions)
        self.flags = dict(flags)
        self.codes.update(code for _, _, code in leftover)
        leftover.sort()

    def first(self, indices: Sequence[int], consumed: set[int]) -> int | None:
        """The first of ``indices`` that no step has explained yet."""
        for i in indices:
            if i not in consumed:
                return i
        return None

    def earliest(self, lists: Sequence[Sequence[int]], consumed: set[int]) -> int | None:
        """The first event in record order, of any of ``lists``, not explained yet."""
        # (a loop, not generators: every decision step of every option tried asks, and the
        # lists are mostly empty)
        best: int | None = None
        for indices in lists:
            for i in indices:
                if i not in consumed:
                    if best is None or i < best:
                        best = i
                    break
        return best

    def decisions_ahead(self, n: int, consumed: set[int]) -> bool:
        """Whether a decision recorded after move ``n`` or later, or at no place, is not
        explained yet."""
        start = bisect.bisect_left(self.ahead_after, n)
        unplaced = bisect.bisect_left(self.ahead_after, 0)
        ahead = chain(self.ahead[start:], self.ahead[:unplaced])
        return any(i not in consumed for i in ahead)


def board_events(events: list[OpeningEvent]) -> BoardEvents:
    """``EventIndex.board`` of ``events``."""
    return EventIndex(events).board if has_board_events(events) else {}
