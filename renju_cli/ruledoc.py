"""A ruleset in words, so that a referee can read it without YAML (``renju rules show``)."""

from __future__ import annotations

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
    """Several lines of plain words describing ``r``."""
    lines = [f"{r.name}: {r.title}" if r.title else r.name]
    if r.description:
        lines.append(r.description)
    lines.append(f"board: {r.width}x{r.height}")
    for color in ("black", "white"):
        n = _NUMBER.get(r.five_length, str(r.five_length))
        five = f"exactly {n}" if r.overline[color] != "win" else f"{n} or more"
        parts = [f"{five} in a row wins", _OVERLINE_WORDS[r.overline[color]]]
        kinds = [k for k in r.forbidden_kinds(color) if k != "overline"]
        if kinds:
            parts.append("forbidden: " + ", ".join(kinds))
        lines.append(f"{color}: " + "; ".join(parts))
    if r.blocked_five:
        edge = "the board edge counts as a block" if r.edge_blocks else "the edge does not block"
        lines.append(f"a row blocked at both ends by opponent stones does not win ({edge})")
    if any(r.forbidden_kinds(c) for c in ("black", "white")):
        lines.append(f"forbidden moves: {_POLICY_WORDS[r.policy]}")
        if "double-three" in r.forbidden_kinds("black"):
            lines.append(
                "a three counts only if one of its straight-four points is itself a legal move "
                "(judged recursively)"
                + (
                    "; a straight-four point that also makes a five counts"
                    if r.five_eye_counts
                    else "; a straight-four point that also makes a five does not count"
                )
            )
    if not r.passes_allowed:
        lines.append("passes: not allowed")
    else:
        p = "passes: allowed" + (f" from move {r.pass_not_before}" if r.pass_not_before > 1 else "")
        if r.consecutive_passes_draw:
            p += f"; {r.consecutive_passes_draw} passes in a row end the game in a draw"
        lines.append(p)
    end = []
    if r.board_full_draw:
        end.append("a full board is a draw")
    if r.move_limit:
        end.append(f"the game is drawn at move {r.move_limit}")
    if end:
        lines.append("end: " + "; ".join(end))
    if r.opening:
        steps = r.opening.get("steps", [])
        lines.append(f"opening: {r.opening.get('name', 'protocol')} ({len(steps)} steps)")
    else:
        lines.append("opening: none (free play from the first move)")
    lines.append(f"file: {r.source}")
    return "\n".join(lines)
