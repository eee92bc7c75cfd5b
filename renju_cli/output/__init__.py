"""Output: reports and positions turned into what people and machines read.

``text`` (for people), ``json`` (JSON and JSON Lines), ``ci`` (GitHub annotations, JUnit XML)
and ``sarif`` (SARIF 2.1.0, for code-scanning dashboards) are the ``--format`` renderers of
``renju check``, listed in :data:`RENDERERS`; ``html`` writes the browsable report of
``--html``, ``picture`` draws a board as SVG or PNG, and ``ruledoc`` describes a ruleset in
words.  Renderers take reports and positions; they read no file.
"""

from __future__ import annotations

from renju_cli.output.base import Renderer, RenderError
from renju_cli.output.ci import GithubRenderer, JunitRenderer
from renju_cli.output.json import JsonLinesRenderer, JsonRenderer
from renju_cli.output.sarif import SarifRenderer
from renju_cli.output.text import TextRenderer

#: The renderers of ``renju check --format``, by name.
RENDERERS: dict[str, type[Renderer]] = {
    "text": TextRenderer,
    "json": JsonRenderer,
    "jsonl": JsonLinesRenderer,
    "github": GithubRenderer,
    "junit": JunitRenderer,
    "sarif": SarifRenderer,
}

__all__ = ["RENDERERS", "RenderError", "Renderer"]
