"""What single SGF values mean: points, board sizes, results, swaps, players and rule names."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from renju_cli.coords import MAX_SIZE, MIN_SIZE, Point
from renju_cli.formats import shipped_by_lower_name
from renju_cli.record import BLACK, WHITE, Color, OpeningEvent

#: An ``SZ`` value: ASCII digits only (``\d`` on text would take Arabic-Indic digits too).
_SIZE = re.compile(rb"(\d{1,3})\s*(?::\s*(\d{1,3}))?")


def board_size_of(raw: bytes | None, default: int) -> tuple[int, int] | str:
    """``SZ`` -> (width, height), or an error message."""
    if raw is None:
        return default, default
    m = _SIZE.fullmatch(raw.strip())
    if m is None:
        # (as written, for the message: UTF-8 if it is, at most 40 characters)
        text = raw.decode("utf-8", "replace").strip()
        return f"bad board size SZ[{text if len(text) <= 40 else text[:40] + '...'}]"
    width = int(m.group(1))
    height = int(m.group(2)) if m.group(2) else width
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        text = raw.decode("ascii").strip()
        return f"unsupported board size SZ[{text}] (sizes {MIN_SIZE} to {MAX_SIZE} are read)"
    return width, height


#: Every point of the largest board, by column and row: shared by every move and stone read (a
#: point is immutable), so that a value read costs no new point.
_POINTS = [[Point(x, y) for y in range(MAX_SIZE)] for x in range(MAX_SIZE)]
_ROWS = [[_POINTS[x][y] for x in range(MAX_SIZE)] for y in range(MAX_SIZE)]


def point(
    raw: bytes, width: int, height: int, allow_pass: bool, quote: Callable[[bytes], str]
) -> Point | str | None:
    """A point value -> ``Point``, ``None`` (pass) or an error message (quoting the value as
    ``quote`` does)."""
    s = raw.strip()
    if allow_pass and _is_pass(s, width, height):
        return None
    if len(s) != 2:
        return f"bad coordinate [{quote(s)}]"
    x, row = s[0] - 0x61, s[1] - 0x61  # letters a..z
    if not (0 <= x < 26 and 0 <= row < 26):
        return f"bad coordinate [{quote(s)}] (letters a-z expected)"
    if row >= height:
        return f"coordinate [{s.decode('ascii')}] is below the {height}-row board"
    return _POINTS[x][height - 1 - row]


def _is_pass(s: bytes, width: int, height: int) -> bool:
    """Whether a move value is a pass: empty, or ``tt`` on boards up to 19x19."""
    return not s or (s == b"tt" and width <= 19 and height <= 19)


def corners(
    raw: bytes, width: int, height: int, quote: Callable[[bytes], str]
) -> tuple[Point, Point] | str:
    """A point list value's rectangle (``aa:cc``): its two corners (one point: twice), or why
    not."""
    a, colon, b = raw.strip().partition(b":")
    pa = point(a, width, height, False, quote)
    pb = point(b, width, height, False, quote) if colon else pa
    if isinstance(pa, str) or pa is None:
        return pa or "bad coordinate"
    if isinstance(pb, str) or pb is None:
        return pb or "bad coordinate"
    return pa, pb


def rectangle(a: Point, b: Point) -> list[Point]:
    """The points of the rectangle of corners ``a`` and ``b``, row by row from the top."""
    x0, x1 = sorted((a.x, b.x))
    y0, y1 = sorted((a.y, b.y))
    if x0 == x1:  # (a column: its points from the top, in one slice)
        return _POINTS[x0][y1 : y0 - 1 if y0 else None : -1]
    return [p for y in range(y1, y0 - 1, -1) for p in _ROWS[y][x0 : x1 + 1]]


_SWAP_YES = {"", "1", "y", "yes", "true", "swap", "swapped", "+"}
_SWAP_NO = {"0", "n", "no", "false", "-", "no-swap", "noswap"}


def swap_event(value: str, moves_so_far: int, line: int) -> OpeningEvent | None:
    """The event of an ``SW`` value on a node after ``moves_so_far`` moves, or ``None`` when
    the value is not understood.  A yes or no word (``1``/``0``, ``true``/``false``, ``yes``/
    ``no``, ``y``/``n``, any case, as servers write them): a swap or a declined one after the
    moves so far (``-1``: before any stone); a number ``n >= 2``: colours swapped after stone
    ``n``."""
    s = value.strip().lower()
    after = moves_so_far if moves_so_far > 0 else -1
    if s not in _SWAP_YES and 0 < len(s) <= 4 and s.isdecimal() and int(s) >= 2:
        return OpeningEvent("swap", int(s), line=line)
    if s in _SWAP_YES:
        return OpeningEvent("swap", after, line=line)
    if s in _SWAP_NO:
        return OpeningEvent("no-swap", after, line=line)
    return None


#: The words of ``PL`` values (``B``/``W``, as some programs write them ``black``/``1``...).
_PLAYER_WORDS = {"b": "b", "black": "b", "1": "b", "w": "w", "white": "w", "2": "w"}


def player_word(value: str) -> str:
    """A ``PL`` value as ``player`` reads it: ``b``, ``w`` or ``""`` (no colour)."""
    return _PLAYER_WORDS.get(value.strip().lower(), "")


def player(word: str | None) -> Color | None:
    """The colour of a ``PL`` word (``player_word``), if any."""
    if word == "b":
        return BLACK
    if word == "w":
        return WHITE
    return None


# Rule names (normalised: lower case, accents removed, runs of other characters -> "-").
_RULE_NAMES: dict[str, str] = {
    "renju": "renju-rif",
    "rif": "renju-rif",
    "renju-rif": "renju-rif",
    "rif-renju": "renju-rif",
    "renju-rif-rules": "renju-rif",
    "yamaguchi": "yamaguchi",
    "renju-yamaguchi": "yamaguchi",
    "soosyrv-8": "soosyrv-8",
    "soosorv-8": "soosyrv-8",
    "soosyrv8": "soosyrv-8",
    "soosorv8": "soosyrv-8",
    "soosyrv": "soosyrv-8",
    "soosorv": "soosyrv-8",
    "taraguchi-10": "taraguchi-10",
    "taraguchi10": "taraguchi-10",
    "taraguchi": "taraguchi-10",
    "swap2": "swap2",
    "swap-2": "swap2",
    "gomoku-swap2": "swap2",
    "freestyle": "freestyle",
    "free-style": "freestyle",
    "freestyle-gomoku": "freestyle",
    "gomoku-freestyle": "freestyle",
    "gomoku": "freestyle",
    "free": "freestyle",
    "standard": "standard",
    "standard-gomoku": "standard",
    "gomoku-standard": "standard",
}
# Searched inside GN (and in that order: the more specific names first).  A family with a count
# other than the shipped one (Soosyrv-5) gives no rule at all.
_GN_FAMILIES = re.compile(r"(?<![a-z])(soos[oy]rv|taraguchi)(?:-?(\d{1,2}))?(?![a-z])")
_GN_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?<![a-z])yamaguchi(?![a-z])"), "yamaguchi"),
    (re.compile(r"(?<![a-z])swap-?2(?![a-z0-9])"), "swap2"),
    (re.compile(r"(?<![a-z])rif(?![a-z])"), "renju-rif"),
    (re.compile(r"(?<![a-z])standard(?![a-z])"), "standard"),
    (re.compile(r"(?<![a-z])free-?style(?![a-z])"), "freestyle"),
    (re.compile(r"(?<![a-z])renju(?![a-z])"), "renju-rif"),
    (re.compile(r"(?<![a-z])gomoku(?![a-z])"), "freestyle"),
]
_FAMILY_RULES = {
    "soosorv": ("soosyrv-8", "8"),
    "soosyrv": ("soosyrv-8", "8"),
    "taraguchi": ("taraguchi-10", "10"),
}


def _normalize_rule(raw: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def ruleset_for(raw: str, search: bool = False) -> tuple[str | None, str | None]:
    """The shipped ruleset for a rule name: (ruleset or None, the name that matched or None).

    Without ``search`` the whole value must be a known name (``RU``); with it, a known name is
    looked for inside the text (``GN``), the more specific names first.
    """
    key = _normalize_rule(raw)
    if search:
        return _rule_named_in(key)
    for k in (key, key.replace("-", ""), re.sub(r"-rules?$", "", key)):
        if k in _RULE_NAMES:
            return _RULE_NAMES[k], raw.strip()
    # a shipped ruleset's own name (what ``to_sgf`` writes): caro, sakata, pro...; but not
    # "swap": files of renju programs mean the renju swap by it (as RenjuNet does), not the
    # gomoku rule of that name, and such a file stays read as before (no rule)
    shipped = shipped_by_lower_name().get(raw.strip().lower())
    if shipped is not None and shipped != "swap":
        return shipped, raw.strip()
    return None, None


def _rule_named_in(key: str) -> tuple[str | None, str | None]:
    """``ruleset_for`` with ``search``, on the normalised text ``key``."""
    fam = _GN_FAMILIES.search(key)
    if fam is not None:
        rule, count = _FAMILY_RULES[fam.group(1)]
        if fam.group(2) is None or fam.group(2) == count:
            return rule, fam.group(0)
        return None, fam.group(0)
    for pattern, rule in _GN_WORDS:
        m = pattern.search(key)
        if m is not None:
            return rule, m.group(0)
    return None, None
