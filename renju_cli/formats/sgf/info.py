"""What the game-info properties of a line say of its record: metadata, declared result, rule,
opening id (``game_info``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from renju_cli.formats import clip
from renju_cli.formats.sgf.values import ruleset_for
from renju_cli.record import DeclaredResult
from renju_cli.results import not_understood, read_result, understood

#: Game-info properties (simple text) -> metadata keys, in the order metadata is written.
INFO_KEYS = {
    "PB": "black",
    "PW": "white",
    "EV": "event",
    "DT": "date",
    "RO": "round",
    "PC": "place",
    "GN": "game_name",
    "BR": "black_rank",
    "WR": "white_rank",
    "BT": "black_team",
    "WT": "white_team",
    "ON": "opening",
    "GC": "game_comment",
    "AN": "annotator",
    "SO": "source",
    "US": "user",
    "AP": "application",
    "TM": "time_limit",
    "OT": "overtime",
}
#: Game-info properties: taken from the first node of a line that has them.
GAME_INFO = frozenset({*INFO_KEYS, "RE", "RU", "GM"})
#: The place of each game-info property in ``INFO_KEYS`` (the order of metadata).
_INFO_RANK = {ident: rank for rank, ident in enumerate(INFO_KEYS)}


class GameInfo(NamedTuple):
    """What a line's game info says of its record (``game_info``): shared by the records
    of the lines that have the same (their declared result is a copy each)."""

    metadata: dict[str, str]
    note: str
    declared: DeclaredResult | None
    rule: str | None
    opening_id: str | None
    #: the problem of an ``RE`` of words not known (``results.not_understood``), or ""
    unknown_result: str


def game_info(info: dict[str, str], named_in: RuleSearch | None = None) -> GameInfo:
    """The metadata, note, declared result, rule and opening id of a line's game info;
    ``named_in`` searches a game name for a rule (``ruleset_for`` by default)."""
    meta = _metadata(info)
    notes = _game(info.get("GM"))
    rule, rule_name = _rule(info, notes, named_in or _search)
    if rule_name is not None:
        meta["rule_name"] = rule_name
    declared, unknown = _result(info.get("RE"))
    return GameInfo(meta, "; ".join(notes), declared, rule, _opening_id(info.get("ON")), unknown)


def _metadata(info: dict[str, str]) -> dict[str, str]:
    """The metadata of game info, in the order of ``INFO_KEYS`` (of metadata as written out)."""
    said = sorted((i for i in info if i in INFO_KEYS and info[i]), key=_INFO_RANK.__getitem__)
    return {INFO_KEYS[ident]: info[ident] for ident in said}


def _game(gm: str | None) -> list[str]:
    """The note of a ``GM`` that is not gomoku or renju."""
    if gm is None or gm.strip() in ("4", "5"):
        return []
    return [f"GM[{gm}] is not gomoku/renju (GM[4] or GM[5]); read as gomoku"]


def _result(text: str | None) -> tuple[DeclaredResult | None, str]:
    """The declared result of an ``RE`` value, and the problem of words not known ("")."""
    declared = None if text is None else read_result(text)
    if declared is None or understood(declared):
        return declared, ""
    return declared, not_understood(declared.text or "")


def _rule(
    info: dict[str, str], notes: list[str], named_in: RuleSearch
) -> tuple[str | None, str | None]:
    """The ruleset ``RU`` names (its name said in ``notes`` when it is not shipped), else one
    named in ``GN``; and the name to keep as ``rule_name``."""
    if "RU" in info:
        name = info["RU"]
        rule = ruleset_for(name)[0]
        if rule is None and name.strip():
            # (judged under --rules or the default: the report's ruleset shows which, and
            # this says why, as JSON Lines and RenjuNet say it)
            notes.append(
                f"rule {clip(name.strip())!r} (RU) names no shipped ruleset ('renju rules "
                "list'): judged under --rules, or the default"
            )
        return rule, name
    if "GN" in info:
        return named_in(info["GN"])
    return None, None


#: A search of a game name for a rule: (the ruleset, the name matched), ``ruleset_for``'s.
RuleSearch = Callable[[str], tuple[str | None, str | None]]


def _search(name: str) -> tuple[str | None, str | None]:
    return ruleset_for(name, search=True)


_OPENING_ID = re.compile(r"[DIdi](1[0-3]|[1-9])")


def _opening_id(value: str | None) -> str | None:
    """``ON[D4]``: the declared opening id (``D1``-``D13``, ``I1``-``I13``), else ``None``."""
    if value is None or not _OPENING_ID.fullmatch(value.strip()):
        return None
    return value.strip().upper()
