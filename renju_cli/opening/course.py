"""What the opening tells the replay beyond "stones alternate from black on one board": the
colours of its stones, the rejections and moved stones, and the rules each seat is judged by."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from renju_cli.board import BLACK, WHITE
from renju_cli.opening.events import BoardEvents
from renju_cli.opening.rules import restricted_seat, rules_for
from renju_cli.opening.state import Holders, WalkState
from renju_cli.record import Finding, OpeningEvent, Record

if TYPE_CHECKING:
    from renju_cli.ruleset import Ruleset

SeatRules = tuple[tuple[int, "Ruleset"], ...]


@dataclass(frozen=True)
class Course:
    """What the opening tells the replay beyond "stones alternate from black on one board".

    ``colors``: move number -> ``BLACK``/``WHITE`` for every move of the opening when some
    stone's colour is not the one alternation from black gives (``alternate: false``, a
    rejected opening); empty otherwise.  ``board_events``: the record's ``reject`` and
    ``relocate`` events by the number of moves played before them, in record order.
    ``rules``: ``(move, ruleset)`` pairs - from that move on, judge with that ruleset
    (seat-bound forbidden moves: the rules written for black follow the restricted seat).
    ``until``: no move after it needs any of this.
    """

    colors: dict[int, int]
    board_events: dict[int, tuple[OpeningEvent, ...]]
    rules: SeatRules
    until: int


def course_of(
    record: Record, ruleset: Ruleset, state: WalkState | None, board: BoardEvents
) -> tuple[Course | None, list[Finding]]:
    """What the replay must follow besides alternation (``None``: nothing), and the finding of
    seats whose colours the record does not show."""
    walked = state.colors if state is not None else ()
    if _plain(walked, board, ruleset):
        return None, []  # (most records: what the loops below would find)
    events = {n: tuple(e for _, e in pairs) for n, pairs in board.items()}
    colors = _colors(record, walked, events)
    rules, findings = _seat_rules(ruleset, state)
    if not colors and not events and _one_rule(rules, ruleset):
        return None, findings
    until = max([*colors, *(n + 1 for n in events), *(m for m, _ in rules), 1])
    return Course(colors, events, rules, until), findings


def _plain(walked: tuple[int, ...], board: BoardEvents, ruleset: Ruleset) -> bool:
    """Whether the opening is plain alternation from black on one board, under one ruleset."""
    return not board and walked == _ALTERNATION[: len(walked)] and not restricted_seat(ruleset)


def _one_rule(rules: SeatRules, ruleset: Ruleset) -> bool:
    """Whether the seat rules are the ruleset's own throughout."""
    return len(rules) <= 1 and (not rules or rules[0][1] is ruleset)


def _colors(
    record: Record, walked: tuple[int, ...], events: dict[int, tuple[OpeningEvent, ...]]
) -> dict[int, int]:
    """The colour of each move of the opening, when some is not the one alternation from
    black gives (empty otherwise)."""
    colors: dict[int, int] = {}
    last = max([len(walked), *(n + 1 for n in events)])
    color = WHITE  # the colour of the stone before move 1
    for n in range(1, min(last, len(record.moves)) + 1):
        if n > len(walked) and _rejected(events.get(n - 1, ())):
            color = WHITE  # an opening rejected beyond the protocol's steps starts with black
        color = walked[n - 1] if n <= len(walked) else BLACK + WHITE - color
        colors[n] = color
    if all(c == (BLACK if n % 2 else WHITE) for n, c in colors.items()):
        return {}  # plain alternation: the replay needs no help
    return colors


def _rejected(events: tuple[OpeningEvent, ...]) -> bool:
    return any(e.kind == "reject" for e in events)


#: Colours in plain alternation from black, as far as a walk may place stones.
_ALTERNATION = tuple(BLACK if n % 2 == 0 else WHITE for n in range(4096 + 1))


def _seat_rules(ruleset: Ruleset, state: WalkState | None) -> tuple[SeatRules, list[Finding]]:
    """From which move which rules apply, as the seats hold the colours (seat-bound rules)."""
    seat = restricted_seat(ruleset)
    if seat is None:
        return (), []
    known: Holders = ("P1", "P2")
    out: list[tuple[int, Ruleset]] = [(1, rules_for(ruleset, known))]
    for n, holders in state.holder_log if state is not None else ():
        if None in holders:
            continue  # not recorded: the last known holders stay
        known = holders
        rules = rules_for(ruleset, holders)
        if rules is not out[-1][1]:
            out.append((n + 1, rules))
    if state is not None and None not in state.holders:
        return tuple(out), []
    black, white = known
    said = Finding(
        "unchecked",
        f"the record does not show who holds which colour after the opening; forbidden "
        f"moves bind seat {seat} and are judged as if {black} holds black and {white} "
        "white",
    )
    return tuple(out), [said]
