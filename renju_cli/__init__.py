"""renju-cli: replay renju and gomoku game records under declarative rulesets.

The library API::

    import renju_cli
    report = renju_cli.analyze("h8 h9 i8 g8 j8 k8 i9 ...", rules="renju")
    report["result"]   # {"winner": ..., "reason": ..., "move": ..., "point": ...}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from renju_cli.api import analyze as analyze

__all__ = ["__version__", "analyze"]


def __getattr__(name: str) -> Any:
    # Imported lazily so that `renju --help` and start-up stay fast.
    if name == "analyze":
        from renju_cli.api import analyze

        return analyze
    raise AttributeError(name)
