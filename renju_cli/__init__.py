"""renju-cli: replay renju and gomoku game records under declarative rulesets.

The library API (``docs/api.md``)::

    import renju_cli as rj

    rules = rj.load_rules("renju")
    for game in rj.read_games("archive.sgf"):
        report = rj.replay(game, rules)
        print(report.result.winner, report.result.reason, report.result.move)
    pos = rj.position(rj.parse_game("h8 h9 i8 g8 j8"), rules, at=3)
    rj.forbidden_points(pos.board, rules)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from renju_cli.api import Board as Board
    from renju_cli.api import Color as Color
    from renju_cli.api import Declared as Declared
    from renju_cli.api import Finding as Finding
    from renju_cli.api import FirstFive as FirstFive
    from renju_cli.api import ForbiddenMove as ForbiddenMove
    from renju_cli.api import Game as Game
    from renju_cli.api import Json as Json
    from renju_cli.api import Point as Point
    from renju_cli.api import Position as Position
    from renju_cli.api import Report as Report
    from renju_cli.api import Result as Result
    from renju_cli.api import Rules as Rules
    from renju_cli.api import Ruleset as Ruleset
    from renju_cli.api import RulesetError as RulesetError
    from renju_cli.api import Source as Source
    from renju_cli.api import analyze as analyze
    from renju_cli.api import analyze_all as analyze_all
    from renju_cli.api import forbidden_points as forbidden_points
    from renju_cli.api import load_rules as load_rules
    from renju_cli.api import parse_game as parse_game
    from renju_cli.api import position as position
    from renju_cli.api import read_games as read_games
    from renju_cli.api import replay as replay

__all__ = [
    "Board",
    "Color",
    "Declared",
    "Finding",
    "FirstFive",
    "ForbiddenMove",
    "Game",
    "Json",
    "Point",
    "Position",
    "Report",
    "Result",
    "Rules",
    "Ruleset",
    "RulesetError",
    "Source",
    "__version__",
    "analyze",
    "analyze_all",
    "forbidden_points",
    "load_rules",
    "parse_game",
    "position",
    "read_games",
    "replay",
]


def __getattr__(name: str) -> object:
    # The API is imported when first used, so that ``renju --help`` starts fast.
    if name in __all__:
        return getattr(importlib.import_module("renju_cli.api"), name)
    raise AttributeError(f"module 'renju_cli' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
