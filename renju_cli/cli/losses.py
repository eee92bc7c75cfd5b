"""What a conversion would change in what a record means, found by reading the copy back.

``renju convert`` writes a record, reads what it wrote with the target's own reader, and
compares: the copy must be the record the check sees, or the conversion says what it would lose
(and writes it only with ``--lossy``).  Nothing here knows what a format can hold: a writer that
drops a field, or a reader that reads it otherwise, shows up in the comparison.  Compared: being
one record read without problems, the stones and their colours, setup stones, the board size,
the opening decisions (swaps, offers...) and the boards of two-board stones, the declared result
(winner and reason), the rule, the declared opening id, and comments (of moves and of the
record).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from renju_cli.record import BLACK, WHITE


def losses(before: Any, again: list[Any], to: str) -> list[str]:
    """What of ``before`` (a record) the records ``again``, read back from its conversion to
    ``to``, do not hold, in words; none when they hold what the check of it uses."""
    if len(again) != 1:
        return [f"its being one record (it reads back as {len(again)})"]
    after = again[0]
    return [said for lost in _LOSSES if (said := lost(before, after, to)) is not None]


def named(rec: Any) -> str:
    """``FILE [ID]`` of a record, its id as ``check`` prints it."""
    return f"{rec.source.path} [{rec.source.id}]"


def _reading(before: Any, after: Any, to: str) -> str | None:
    if after.problems:
        return f"its reading (it reads back with: {after.problems[0].message})"
    return None


def _stones_and_setup(before: Any, after: Any, to: str) -> str | None:
    if to in ("psq", "rec"):  # setup stones are written as the first moves (preset openings)
        was = [(p, c) for p, c in before.setup] + _stones(before.moves, len(before.setup))
        now = [(p, c) for p, c in after.setup] + _stones(after.moves, len(after.setup))
    else:
        was, now = _stones(before.moves), _stones(after.moves)
        if _setup(before) != _setup(after):
            return f"the setup stones ({len(before.setup)} read back as {len(after.setup)})"
    if was != now:
        n = next((i for i, (a, b) in enumerate(zip(was, now, strict=False)) if a != b), None)
        n = min(len(was), len(now)) if n is None else n
        return f"the stones from stone {n + 1} on ({len(was)} moves, read back as {len(now)})"
    return None


def _size(before: Any, after: Any, to: str) -> str | None:
    size, size_again = (before.width, before.height), (after.width, after.height)
    if (
        size != size_again
        and size != (None, None)
        and not (size == (15, 15) and size_again == (None, None))
    ):
        return f"the board size {before.width}x{before.height}"
    return None


def _events(before: Any, after: Any, to: str) -> str | None:
    events, events_again = _event_words(before), _event_words(after)
    if events != events_again:
        return "the opening decisions ({}; read back as {})".format(
            ", ".join(events) or "none", ", ".join(events_again) or "none"
        )
    return None


def _boards(before: Any, after: Any, to: str) -> str | None:
    if before.metadata.get("boards", "") != after.metadata.get("boards", ""):
        return "the boards (A:/B:) of two-board stones"
    return None


def _result(before: Any, after: Any, to: str) -> str | None:
    was, now = _declared(before), _declared(after)
    if was == now or (to in ("psq", "rec") and now == (None, None) and _board_tells(before, was)):
        return None
    return f"the declared result ({_result_words(was)}; read back as {_result_words(now)})"


def _board_tells(record: Any, declared: tuple[str | None, str | None]) -> bool:
    """Whether the board gives ``record`` the ``declared`` result: psq's result code 0, "a
    normal end", says no more (a five, a foul, a draw on a full board: the board tells)."""
    from renju_cli import api

    winner, reason = declared
    if reason not in (None, "five") or winner is None:
        return False
    result = api.judge_record(record).result
    return result.decided and result.winner == winner


def _rule(before: Any, after: Any, to: str) -> str | None:
    if before.rule != after.rule:
        return f"the rule {before.rule!r} (read back as {after.rule!r})"
    return None


def _opening_id(before: Any, after: Any, to: str) -> str | None:
    if before.opening_id != after.opening_id:
        return f"the opening id {before.opening_id!r} (read back as {after.opening_id!r})"
    return None


def _comments(before: Any, after: Any, to: str) -> str | None:
    kept = " ".join(" ".join(text.split()) for text in _comment_texts(after))
    lost = [text for text in _comment_texts(before) if " ".join(text.split()) not in kept]
    if lost:
        return f"{len(lost)} comment(s) (the first: {_clip(lost[0])!r})"
    return None


#: What a conversion may lose, in the order it is said.
_LOSSES: tuple[Callable[[Any, Any, str], str | None], ...] = (
    _reading,
    _stones_and_setup,
    _size,
    _events,
    _boards,
    _result,
    _rule,
    _opening_id,
    _comments,
)


def _stones(moves: list[Any], after: int = 0) -> list[tuple[Any, Any]]:
    """Points and colours of moves, colours alternating from black where none is stated (from
    white after an odd number ``after`` of stones)."""
    out: list[tuple[Any, Any]] = []
    expected = WHITE if after % 2 else BLACK
    for m in moves:
        color = m.color or expected
        out.append((m.point, color))
        expected = color.other
    return out


def _setup(record: Any) -> list[tuple[int, int, str]]:
    return sorted((p.x, p.y, c.value) for p, c in record.setup)


def _event_words(record: Any) -> list[str]:
    """The opening events, in the order the check walks them, as text for a message."""
    out = []
    for e in sorted(record.opening_events, key=lambda e: e.after):
        what = e.kind + (f" {e.value}" if e.value else "")
        if e.points:
            what += " {" + " ".join(p.name for p in e.points) + "}"
        out.append(f"{what} after move {e.after}")
    return out


def _declared(record: Any) -> tuple[str | None, str | None]:
    """The declared winner and reason (``None, None``: nothing declared)."""
    d = record.declared_result
    return (None, None) if d is None else (d.winner, d.reason)


def _result_words(declared: tuple[str | None, str | None]) -> str:
    winner, reason = declared
    return (winner or "none") + (f", {reason}" if reason else "")


#: Metadata that holds a comment: the record's (``comment``) and RenLib's by move number.
_COMMENT_KEYS = ("comment", "renlib.comment.", "renlib.board_text.")


def _comment_texts(record: Any) -> list[str]:
    """The comments of a record: of its moves, then of the record (its metadata)."""
    texts = [m.comment for m in record.moves if m.comment]
    texts += [
        text
        for key, text in record.metadata.items()
        if text and (key == "comment" or key.startswith(_COMMENT_KEYS[1:]))
    ]
    return texts


def _clip(text: str, length: int = 40) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"
