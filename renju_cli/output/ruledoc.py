"""A ruleset in words, so that a referee can read it without YAML (``renju rules show``)."""

from __future__ import annotations

from renju_cli.opening import (
    Protocol,
    ProtocolError,
    Step,
    inherit,
    protocol_of,
    restricted_seat,
)
from renju_cli.record import printable
from renju_cli.ruleset import Ruleset

_OVERLINE_WORDS = {
    "win": "an overline (six or more) wins",
    "no-win": "an overline does not win; play goes on",
    "forbidden": "an overline is forbidden",
}
_NUMBER = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
_POLICY_WORDS = {
    "lose": "a forbidden move loses at once (white wins)",
    "reject": "a forbidden move may not be played (a record containing one is illegal)",
    "claim": "a forbidden move loses only if the opponent claims it at once; a double-three "
    "or double-four can no longer be claimed once play goes on, an overline can",
}


def describe(r: Ruleset) -> str:
    """Several lines of plain words describing ``r`` (control characters escaped)."""
    two = _two_board(r)
    lines = [f"{r.name}: {r.title}" if r.title else r.name]
    if r.description:
        lines.append(r.description)
    if two:
        lines.extend(_TWO_BOARD)
    lines.append(f"board: {r.width}x{r.height}" + (" (two of them)" if two else ""))
    lines += [*_players(r), *_blocked_fives(r), *_forbidden_moves(r), _passes(r), *_end(r)]
    lines += [*_opening(r), f"file: {r.source}"]
    # titles, descriptions, option names and the file name come from a file that may hold
    # control characters: escaped line by line, so that a ruleset cannot drive the terminal
    return "\n".join(printable(part) for line in lines for part in line.split("\n"))


def _players(r: Ruleset) -> list[str]:
    """What wins and what is forbidden, for each colour (or seat, when the rules bind one)."""
    seat = restricted_seat(r)
    sides = zip(("black", "white"), _sides(seat), strict=True)
    lines = [f"{who}: {_wins_and_fouls(r, color)}" for color, who in sides]
    if seat is not None:
        lines.append(
            f"forbidden moves bind a seat, not a colour: the rules above bind seat {seat} "
            f"({'the tentative white' if seat == 'P2' else 'the opener'}) whichever colour it "
            "holds after the opening's swaps, and the other seat whichever colour it holds"
        )
    return lines


def _sides(seat: str | None) -> tuple[str, str]:
    """Who black's and white's rules bind: the colours, or the seat ``seat`` and the other."""
    if seat is None:
        return "black", "white"
    return f"seat {seat}", f"seat {'P1' if seat == 'P2' else 'P2'}"


def _wins_and_fouls(r: Ruleset, color: str) -> str:
    n = _NUMBER.get(r.five_length, str(r.five_length))
    five = f"exactly {n}" if r.overline[color] != "win" else f"{n} or more"
    parts = [f"{five} in a row wins", _OVERLINE_WORDS[r.overline[color]]]
    kinds = [k for k in r.forbidden_kinds(color) if k != "overline"]
    if kinds:
        parts.append("forbidden: " + ", ".join(kinds))
    return "; ".join(parts)


def _blocked_fives(r: Ruleset) -> list[str]:
    if not r.blocked_five:
        return []
    edge = "the board edge counts as a block" if r.edge_blocks else "the edge does not block"
    return [f"a row blocked at both ends by opponent stones does not win ({edge})"]


def _forbidden_moves(r: Ruleset) -> list[str]:
    """What a forbidden move costs, and when a three counts."""
    if not any(r.forbidden_kinds(c) for c in ("black", "white")):
        return []
    lines = [f"forbidden moves: {_POLICY_WORDS[r.policy]}"]
    if "double-three" in r.forbidden_kinds("black"):
        eye = "counts" if r.five_eye_counts else "does not count"
        lines.append(
            "a three counts only if one of its straight-four points is itself a legal move "
            f"(judged recursively); a straight-four point that also makes a five {eye}"
        )
    return lines


def _passes(r: Ruleset) -> str:
    if not r.passes_allowed:
        return "passes: not allowed"
    p = "passes: allowed" + (f" from move {r.pass_not_before}" if r.pass_not_before > 1 else "")
    if r.consecutive_passes_draw:
        p += f"; {r.consecutive_passes_draw} passes in a row end the game in a draw"
    return p


def _end(r: Ruleset) -> list[str]:
    end = []
    if r.board_full_draw:
        end.append("a full board is a draw")
    if r.move_limit:
        end.append(f"the game is drawn at move {r.move_limit}")
    return ["end: " + "; ".join(end)] if end else []


def _opening(r: Ruleset) -> list[str]:
    if r.opening:
        return describe_opening(r)
    if _two_board(r):  # (its turns are said above)
        return []
    return ["opening: none (free play from the first move)"]


def describe_opening(r: Ruleset) -> list[str]:
    """The opening protocol of ``r`` as numbered steps in words (the labels findings cite)."""
    try:
        protocol = protocol_of(r)
    except ProtocolError as e:
        return [f"opening: cannot be used ({e})"]
    if protocol is None:
        return ["opening: none (free play from the first move)"]
    lines = [f"opening: {protocol.name}", *_settings(protocol)]
    _steps(protocol.steps, "  ", lines)
    tail = "  then free play"
    if protocol.no_pass_before > 1:
        tail += f"; no pass before move {protocol.no_pass_before}"
    lines.append(tail)
    return lines


def _settings(protocol: Protocol) -> list[str]:
    """The parameters of a protocol, its centre, and how its stones take their colours."""
    lines = []
    if protocol.params:
        lines.append(
            "  parameters: " + ", ".join(f"{k} = {v}" for k, v in sorted(protocol.params.items()))
        )
    if protocol.center is not None:
        lines.append(f"  centre: {protocol.center.name}")
    if not protocol.alternate:
        lines.append(
            "  the stones do not alternate in colour: each step names its stone's colour; "
            "after the opening the colours alternate from the last stone"
        )
    return lines


def _steps(steps: tuple[Step, ...], indent: str, lines: list[str]) -> None:
    for step in steps:
        lines.append(f"{indent}{step.label}. {step.words()}")
        for j, option in enumerate(step.options):
            letter = f"{step.label}{chr(ord('a') + j)}"  # as compile_protocol labels its steps
            title = f": {option.title}" if option.title else ""
            again = " (then the same choice passes to the other seat)" if option.repeat else ""
            lines.append(f"{indent}   {letter} {option.name}{title}{again}")
            _steps(inherit(option.steps, step.by), indent + "      ", lines)


_TWO_BOARD = [
    "variant: two-board professional gomoku - two boards, a and b; the record names the board "
    "of every stone (A:h8, B:h8)",
    "turns: black's first turn is one stone; every later turn of either player is two stones, "
    "each on either board (black 1, white 2-3, black 4-5, ...)",
    "win: completing fives on both boards in the same turn; a five on only one board in a turn "
    "loses (result reason one-board-five)",
]


def _two_board(r: Ruleset) -> bool:
    return r.data.get("variant") == "two-board"
