"""``docs/security.md`` states the bounds the code applies.

The page names each bound's constant beside its value (``MOVES``,
``formats.sgf.MAX_NODE_PROBLEMS``, in backticks): every constant it names must exist and have
the value written in the same table row or paragraph, every ``--limit`` name must have its row,
and every bound of ``renju_cli.limits`` must be on the page.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

from renju_cli import limits

PAGE = Path(__file__).resolve().parents[1] / "docs" / "security.md"

#: Words in backticks that look like constants but are placeholders of a command line.
PLACEHOLDERS = {"FILE", "DIR", "NAME", "N"}

_NAME = re.compile(r"`((?:[a-z_]+\.)*)([A-Z][A-Z0-9_]*)`")


def _blocks() -> list[str]:
    """The page's table rows, list items and paragraphs, each a string."""
    blocks: list[str] = []
    for part in re.split(r"\n\s*\n", PAGE.read_text(encoding="utf-8")):
        lines = part.splitlines()
        if any(line.startswith("|") for line in lines):
            blocks += [line for line in lines if line.startswith("|")]
        elif any(line.startswith("- ") for line in lines):
            blocks += re.split(r"\n(?=- )", part)
        else:
            blocks.append(part)
    return [" ".join(block.split()) for block in blocks]


def _spellings(value: int) -> set[str]:
    """How the page may write ``value``: 16384 as 16,384; 1 << 20 as 1 MiB or 1M."""
    said = {f"{value:,}", str(value)}
    for unit, short, long in ((1 << 20, "M", "MiB"), (1 << 10, "K", "KiB")):
        if value >= unit and value % unit == 0:
            said |= {f"{value // unit}{short}", f"{value // unit} {long}"}
    return said


def _values(value: object) -> list[int]:
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, int)]
    assert isinstance(value, int), value
    return [value]


def _named() -> list[tuple[str, str, object]]:
    """(block, name, value) of every constant the page names; a name without a module is
    looked up in ``limits``, then in the module named last in its block."""
    found: list[tuple[str, str, object]] = []
    for block in _blocks():
        module: ModuleType | None = None
        for prefix, name in _NAME.findall(block):
            if prefix:
                module = importlib.import_module("renju_cli." + prefix.rstrip("."))
            if name in PLACEHOLDERS and not prefix:
                continue
            if not prefix and hasattr(limits, name):
                found.append((block, name, getattr(limits, name)))
                continue
            assert module is not None and hasattr(module, name), f"{prefix}{name}: no such bound"
            found.append((block, prefix + name, getattr(module, name)))
    return found


def test_every_bound_named_has_the_value_written_beside_it() -> None:
    named = _named()
    assert len(named) > 40
    for block, name, value in named:
        for v in _values(value):
            assert any(said in block for said in _spellings(v)), f"{name} = {v}: {block[:120]}"


def test_every_limit_option_has_its_row() -> None:
    rows = [block for block in _blocks() if block.startswith("| `")]
    for name in limits.OPTIONS:
        assert any(row.startswith(f"| `{name}` |") for row in rows), name


def test_every_bound_of_limits_is_on_the_page() -> None:
    named = {name for _, name, _ in _named()}
    bounds = {
        name
        for name, value in vars(limits).items()
        if name.isupper() and not name.startswith("_") and isinstance(value, int | dict)
    }
    assert bounds - {"OPTIONS", "GIVEN"} <= named, sorted(bounds - {"OPTIONS", "GIVEN"} - named)
