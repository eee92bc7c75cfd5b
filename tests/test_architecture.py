"""The house as ../shared/design/layers.md draws it: layers, no import cycles, small modules.

Every import counts, also one inside a function or under ``TYPE_CHECKING``: an import hidden in
a function hides a cycle, it does not remove it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "renju_cli"

#: Layers from the bottom up; a module may import its own layer and the layers below it.
LAYERS = ("core", "readers", "rules", "referee", "output", "library", "cli")

#: Imports that layers.md forbids although the target is below.
NEVER = {("rules", "readers")}

CORE = {"coords", "board", "judge", "record", "limits", "results", "memo", "reference", "signals"}
REFEREE = {"referee", "twoboard", "report", "duplicates"}
OUTPUT = {"render", "render_ci", "html_report", "picture", "ruledoc"}
LIBRARY = {"api", "inputs", "tasks", "batch", "cluster", "units", "diff", ""}

MAX_LINES = 1000


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    """The layer of a module of the package (its dotted name without ``renju_cli.``)."""
    top = module.split(".")[0]
    if top in CORE:
        return "core"
    if top == "formats":
        return "readers"
    if top in {"ruleset", "opening"}:
        return "rules"
    if top in REFEREE:
        return "referee"
    if top == "output" or top in OUTPUT:
        return "output"
    if top in LIBRARY:
        return "library"
    if top in {"cli", "__main__"}:
        return "cli"
    raise AssertionError(f"renju_cli.{module} belongs to no layer: add it to {__file__}")


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(module: str, path: Path, known: set[str]) -> Iterator[tuple[str, list[str]]]:
    """``(target module, names imported from it)`` for every import of the package's modules."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("renju_cli."):
                    yield alias.name.removeprefix("renju_cli."), []
        elif isinstance(node, ast.ImportFrom):
            yield from _from_import(node, package, known)


def _from_import(
    node: ast.ImportFrom, package: str, known: set[str]
) -> Iterator[tuple[str, list[str]]]:
    if node.level:
        base = package.split(".") if package else []
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, *(node.module.split(".") if node.module else [])])
    elif node.module == "renju_cli":
        target = ""
    elif node.module and node.module.startswith("renju_cli."):
        target = node.module.removeprefix("renju_cli.")
    else:
        return
    names = [alias.name for alias in node.names]
    submodules = [n for n in names if f"{target}.{n}".lstrip(".") in known]
    for name in submodules:
        yield f"{target}.{name}".lstrip("."), []
    rest = [n for n in names if n not in submodules]
    if rest or not submodules:  # (``from renju_cli import limits`` imports limits alone)
        yield target, rest


@functools.cache  # (three tests read it: the package is parsed once)
def graph() -> dict[str, dict[str, list[str]]]:
    found = modules()
    known = set(found)
    out: dict[str, dict[str, list[str]]] = {}
    for module, path in found.items():
        edges: dict[str, list[str]] = {}
        for target, names in imported(module, path, known):
            if target != module:
                edges.setdefault(target, []).extend(names)
        out[module] = edges
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_there_are_no_import_cycles() -> None:
    edges: dict[str, set[str]] = {}
    for module, targets in graph().items():
        # a package importing its own submodules to re-export them is its public face
        edges[module] = {t for t in targets if not t.startswith(f"{module}.") or module == ""}
    edges[""] = set()  # renju_cli/__init__ re-exports the API: the top of the house
    assert cycles(edges) == []


def test_no_layer_imports_a_layer_above_it_or_one_layers_md_forbids() -> None:
    wrong = []
    for module, targets in graph().items():
        if module == "":
            continue
        for target in targets:
            a, b = layer(module), layer(target)
            if LAYERS.index(b) > LAYERS.index(a) or (a, b) in NEVER:
                wrong.append(f"{module} ({a}) imports {target or 'renju_cli'} ({b})")
    assert wrong == []


def test_nothing_is_imported_from_another_modules_private_names() -> None:
    wrong = [
        f"{module} imports {target}.{name}"
        for module, targets in graph().items()
        for target, names in targets.items()
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert wrong == []


@pytest.mark.parametrize("module", sorted(modules()))
def test_every_module_can_be_read_in_one_sitting(module: str) -> None:
    lines = modules()[module].read_text("utf-8").count("\n")
    assert lines < MAX_LINES, f"renju_cli.{module} has {lines} lines"


def test_no_function_is_too_complex_to_follow() -> None:
    radon = pytest.importorskip("radon.complexity", reason="radon is a dev dependency")
    too_complex = []
    complexities = []
    for module, path in modules().items():
        for block in radon.cc_visit(path.read_text("utf-8")):
            complexities.append(block.complexity)
            if block.complexity > 25:
                too_complex.append(f"{module}.{block.fullname}: {block.complexity}")
    assert too_complex == []
    # (the figure of ``radon cc -a renju_cli``: classes, functions and methods)
    assert sum(complexities) / len(complexities) <= 4
