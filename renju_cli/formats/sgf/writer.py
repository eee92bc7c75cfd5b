"""Records -> SGF: one linear game tree per record.

The writer produces ``FF[4]GM[4]CA[UTF-8]`` trees (variations of one file come back as separate
trees), so that reading one back gives the same moves, setup, offers, swaps and result.  What the
reader would not give back raises ``ValueError`` (the record is refused, not written with a part
missing): ``choose``/``declare``/``reject``/``relocate`` events have no SGF property, offers are
always read back with ``after=4`` (offers after another move cannot be written), RenjuNet's
numbered swap flags and the boards of two-board stones have no property either.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from renju_cli.coords import Point
from renju_cli.formats.sgf.info import INFO_KEYS
from renju_cli.formats.sgf.values import ruleset_for
from renju_cli.record import BLACK, WHITE, Color, DeclaredResult, Move, OpeningEvent, Record
from renju_cli.results import read_result

_REASON_TEXT = {"resign": "Resign", "time": "Time", "forfeit": "Forfeit"}


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _sgf_point(p: Point, width: int, height: int) -> str:
    row = height - 1 - p.y
    if not (0 <= p.x < 26 and 0 <= row < 26):
        raise ValueError(f"point {tuple(p)} cannot be written in SGF on a {width}x{height} board")
    return chr(0x61 + p.x) + chr(0x61 + row)


def result_text(result: DeclaredResult) -> str:
    """The ``RE`` value of a declared result."""
    if result.winner in ("black", "white"):
        prefix = "B+" if result.winner == "black" else "W+"
        return prefix + _reason_text(result.reason)
    if result.winner == "draw":
        return "Draw"
    back = read_result(result.text) if result.text else None
    if back is not None and back.winner is None and back.reason == result.reason:
        return result.text or "?"  # (words read back as they are: "Void", words not known)
    return "?"


def _reason_text(reason: str | None) -> str:
    """A win's reason as ``RE`` writes it after ``B+``/``W+`` (none: nothing)."""
    if reason is None:
        return ""
    return _REASON_TEXT.get(reason, reason[:1].upper() + reason[1:])


def board_size(record: Record) -> tuple[int, int]:
    """The record's board size; when it states none, 15x15 or larger to hold every point."""
    points = [m.point for m in record.moves if m.point is not None]
    points += [p for p, _ in record.setup]
    points += [p for e in record.opening_events for p in e.points]
    w = max([15, *(p.x + 1 for p in points)]) if record.width is None else record.width
    h = max([15, *(p.y + 1 for p in points)]) if record.height is None else record.height
    return w, h


class _EventNodes:
    """Where the ``5A`` and ``SW`` properties of a record's opening events go (``event_nodes``)."""

    def __init__(self, last: int, width: int, height: int) -> None:
        self.last = last  # the record's moves: node n is the node of move n, 0 the root
        self.width, self.height = width, height
        self.offers: dict[int, str] = {}  # node -> its one offer group
        self.swaps: dict[int, list[tuple[str, int]]] = {}  # node -> (SW value, move it is after)
        self.at = 0  # the node of the event before: the events keep their order

    def place(self, e: OpeningEvent) -> str | None:
        """Place event ``e``; what SGF cannot hold of it (``None``: placed)."""
        if e.kind == "offers":
            return self._offers(e)
        if e.kind in ("swap", "no-swap") and self._swap(e):
            return None
        return _unplaceable(e)

    def _swap(self, e: OpeningEvent) -> bool:
        """Place a swap or a declined one; False when ``SW`` cannot say it."""
        if e.after == -1 and not e.value and self.at == 0:  # (a flag not tied to a move)
            return self._place(0, "Y" if e.kind == "swap" else "N", -1)
        if e.kind == "swap":
            return self._swap_after(e.after)
        return self._no_swap_after(e.after)

    def _swap_after(self, after: int) -> bool:
        if after == 1 and self.at <= 1 <= self.last:
            self.at = 1  # (SW[1] is a yes: a swap after the stones up to its node)
            return self._place(1, "Y", 1)
        return after >= 2 and self._place(self.at, str(after), after)

    def _no_swap_after(self, after: int) -> bool:
        if not (1 <= after <= self.last and self.at <= after):
            return False
        self.at = after
        return self._place(after, "N", after)

    def _place(self, node: int, value: str, after: int) -> bool:
        self.swaps.setdefault(node, []).append((value, after))
        return True

    def _offers(self, e: OpeningEvent) -> str | None:
        if e.after != 4:
            names = " ".join(p.name for p in e.points)
            return f"the offers {{{names}}} after move {e.after} (5A: after move 4)"
        if self.at in self.offers or any(after == 4 for _, after in self.swaps.get(self.at, ())):
            self.at += 1  # one group per node; a node's offers are read before its swaps
        if self.at > self.last:
            return "more offer groups than the record has moves to carry them"
        self.offers[self.at] = "".join(
            f"[{_sgf_point(p, self.width, self.height)}]" for p in e.points
        )
        return None

    def properties(self) -> dict[int, list[str]]:
        """The properties of each node that carries events."""
        out: dict[int, list[str]] = {}
        for node in sorted({*self.offers, *self.swaps}):
            props = [f"5A{self.offers[node]}"] if node in self.offers else []
            if node in self.swaps:
                props.append("SW" + "".join(f"[{v}]" for v, _ in self.swaps[node]))
            out[node] = props
        return out


#: What SGF cannot hold of an event of no SGF property, by kind.
_UNPLACEABLE = {
    "choose": "the choice of {e.value} after move {e.after}",
    "declare": "the declared offer count N={e.value} after move {e.after}",
    "reject": "the rejection (reject) after move {e.after}",
}


def _unplaceable(e: OpeningEvent) -> str:
    """What SGF cannot hold of an event of no SGF property."""
    if e.kind in ("swap", "no-swap"):
        where = f"after move {e.after}" if e.after >= 0 else f"numbered {e.value}"
        return f"the {e.kind} {where} (SW cannot place it)"
    if e.kind == "relocate":
        return f"the stone moved {'-'.join(p.name for p in e.points)} after move {e.after}"
    return _UNPLACEABLE.get(e.kind, "the {e.kind} after move {e.after}").format(e=e)


def event_nodes(record: Record, w: int, h: int) -> dict[int, list[str]]:
    """The ``5A`` and ``SW`` properties of the record's opening events by node (0 the root, n
    the node of move n), placed so that the reader gives back the same events in the same
    order: it reads one offer group per node, after move 4, and a node's offers before its
    swaps, then sorts the events by move; ``SW[n]`` is a swap after move n >= 2 on any node,
    ``SW[Y]`` on the node of move 1 one after it,
    ``SW[N]`` a declined swap after the moves up to its node, ``SW[Y]``/``SW[N]`` on the root a
    flag not tied to a move.  Raises ``ValueError`` naming what SGF cannot hold: choices,
    declared counts, rejections, moved stones, offers of another move than 5, swaps before the
    first stone, RenjuNet's numbered swap flags."""
    placed = _EventNodes(len(record.moves), w, h)
    lost = [
        m for e in sorted(record.opening_events, key=lambda e: e.after) if (m := placed.place(e))
    ]
    if lost:
        raise ValueError("SGF has no place for " + "; ".join(lost))
    return placed.properties()


def _root(record: Record, w: int, h: int) -> list[str]:
    """The properties of the root node but its events and comment."""
    root = ["FF[4]", "GM[4]", "CA[UTF-8]", f"SZ[{w}]" if w == h else f"SZ[{w}:{h}]"]
    meta = record.metadata
    root += [f"{ident}[{_escape(meta[key])}]" for ident, key in INFO_KEYS.items() if meta.get(key)]
    if record.opening_id and "opening" not in meta:
        root.append(f"ON[{_escape(record.opening_id)}]")
    if record.declared_result is not None:
        root.append(f"RE[{_escape(result_text(record.declared_result))}]")
    rule = _rule(record)
    if rule:
        root.append(f"RU[{_escape(rule)}]")
    root += _setup(record, w, h)
    if record.to_move is not None:
        root.append(f"PL[{'B' if record.to_move is BLACK else 'W'}]")
    return root


def _rule(record: Record) -> str | None:
    """The ``RU`` value: the file's own spelling when it means the record's ruleset."""
    raw_rule = record.metadata.get("rule_name")
    if raw_rule and (record.rule is None or ruleset_for(raw_rule)[0] == record.rule):
        return raw_rule
    return record.rule


def _setup(record: Record, w: int, h: int) -> list[str]:
    """The ``AB`` and ``AW`` properties of the record's setup stones."""
    out = []
    for color, ident in ((BLACK, "AB"), (WHITE, "AW")):
        pts = [p for p, c in record.setup if c is color]
        if pts:
            out.append(ident + "".join(f"[{_sgf_point(p, w, h)}]" for p in pts))
    return out


def to_sgf(record: Record) -> str:
    """One record as an SGF game tree (with a final newline)."""
    w, h = board_size(record)
    root = _root(record, w, h)
    if record.metadata.get("boards", "").strip("-"):
        raise ValueError("SGF cannot hold the boards (A:/B:) of two-board stones")
    events = event_nodes(record, w, h)
    root.extend(events.get(0, ()))
    if record.metadata.get("comment"):
        root.append(f"C[{_escape(record.metadata['comment'])}]")
    return "".join(["(;" + "".join(root) + "\n", *_move_lines(record, events, w, h), ")\n"])


def _move_lines(record: Record, events: dict[int, list[str]], w: int, h: int) -> list[str]:
    """The nodes of the record's moves, ten a line (a commented one ends its line)."""
    parts: list[str] = []
    expected = record.to_move or BLACK
    line: list[str] = []
    for n, mv in enumerate(record.moves, start=1):
        color = mv.color or expected
        expected = color.other
        line.append(_move_node(mv, color, events.get(n, ()), w, h))
        if len(line) >= 10 or mv.comment:
            parts.append("".join(line) + "\n")
            line = []
    if line:
        parts.append("".join(line) + "\n")
    return parts


def _move_node(mv: Move, color: Color, events: Iterable[str], w: int, h: int) -> str:
    """The node of a move: the move, its opening events, its comment."""
    value = "" if mv.point is None else _sgf_point(mv.point, w, h)
    comment = f"C[{_escape(mv.comment)}]" if mv.comment else ""
    return f";{'B' if color is BLACK else 'W'}[{value}]" + "".join(events) + comment


def write(records: Iterable[Record], out: TextIO) -> None:
    """Write records as an SGF collection, one game tree per record."""
    for record in records:
        out.write(to_sgf(record))
