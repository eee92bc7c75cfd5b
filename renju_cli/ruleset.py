"""Rulesets: declarative YAML files, their JSON Schema, ``extends:`` and the loader.

A ruleset is data (see ``rulesets/README.md`` for the format and ``rulesets/ruleset.schema.json``
for the schema).  Loading one resolves ``extends:`` (a shipped name or a path relative to the file),
merges mappings key by key (lists and scalars are replaced), validates the result against the
schema, and builds a ``Ruleset``.  Every error names the file, the key path and the line.
YAML is loaded with the safe loader: language-specific tags are refused.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from renju_cli.judge import DOUBLE_FOUR, DOUBLE_THREE, KINDS, OVERLINE, ColorRules, Judge

SCHEMA_FILE = "ruleset.schema.json"
#: Bound on a ruleset file's size and on the ``extends:`` chain, against hostile input.
MAX_RULESET_BYTES = 1 << 18  # real rulesets are a few kB
MAX_EXTENDS_DEPTH = 16
#: Bounds on the YAML itself: nesting (the composer and the schema validator recurse) and the
#: keys and items after aliases are followed (``&a [*b, *b]`` doubles at each level).
MAX_YAML_DEPTH = 64
MAX_YAML_NODES = 100_000


class RulesetError(Exception):
    """A ruleset that cannot be used.  ``errors`` are ``(file, key path, line, message)``."""

    def __init__(self, errors: list[tuple[str, str, int | None, str]]) -> None:
        self.errors = errors
        super().__init__("\n".join(format_error(*e) for e in errors))


def format_error(file: str, keypath: str, line: int | None, message: str) -> str:
    where = f"{file}:{line}" if line is not None else file
    return f"{where}: {keypath or '(top level)'}: {message}"


@dataclass(frozen=True)
class Ruleset:
    """A complete set of rules, as the referee applies them."""

    name: str
    title: str = ""
    group: str = "variants"
    description: str = ""
    width: int = 15
    height: int = 15
    five_length: int = 5
    #: per colour: ``win``, ``no-win`` or ``forbidden``
    overline: dict[str, str] = field(default_factory=lambda: {"black": "win", "white": "win"})
    #: per colour: forbidden kinds besides overline (``double-four``, ``double-three``)
    forbidden: dict[str, frozenset[str]] = field(
        default_factory=lambda: {"black": frozenset(), "white": frozenset()}
    )
    policy: str = "lose"
    five_eye_counts: bool = False
    blocked_five: bool = False
    edge_blocks: bool = False
    passes_allowed: bool = True
    pass_not_before: int = 1
    consecutive_passes_draw: int | None = 2
    board_full_draw: bool = True
    move_limit: int | None = None
    opening: dict[str, Any] | None = None
    source: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def color_rules(self, color: str) -> ColorRules:
        kinds = set(self.forbidden.get(color, frozenset()))
        if self.overline.get(color) == "forbidden":
            kinds.add(OVERLINE)
        return ColorRules(
            overline_wins=self.overline.get(color) == "win",
            forbidden=frozenset(k for k in KINDS if k in kinds),
        )

    def forbidden_kinds(self, color: str) -> tuple[str, ...]:
        """The forbidden kinds of one colour, in report order."""
        return tuple(sorted(self.color_rules(color).forbidden, key=KINDS.index))

    def judge(self) -> Judge:
        """The judge for these line rules (shared by rulesets with the same line rules)."""
        return _judge(
            self.color_rules("black"),
            self.color_rules("white"),
            self.five_length,
            self.five_eye_counts,
        )


@cache
def _judge(black: ColorRules, white: ColorRules, k: int, five_eye: bool) -> Judge:
    return Judge(black, white, k, five_eye)


# -- where shipped rulesets live ---------------------------------------------------------------
def shipped_dir() -> Path:
    """The directory of shipped rulesets: inside the installed package, or the source checkout."""
    packaged = Path(str(resources.files("renju_cli"))) / "rulesets"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / "rulesets"
    return checkout


def shipped_names() -> list[str]:
    """Names of every shipped ruleset (files under ``rulesets/``, subdirectories included)."""
    return list(_shipped_names())


@cache
def _shipped_names() -> tuple[str, ...]:
    # Listed once per process: choosing a record's ruleset asks for every record.
    return tuple(sorted({path.stem for path in shipped_dir().rglob("*.yaml")}))


def _shipped_path(name: str) -> Path | None:
    # compare stems, never glob with the name: it comes from a file and may hold * or [
    root = shipped_dir()
    for path in sorted(root.rglob("*.yaml")):
        if path.stem == name:
            return path
    return None


@cache
def schema() -> dict[str, Any]:
    """The published JSON Schema of ruleset files."""
    data: dict[str, Any] = json.loads((shipped_dir() / SCHEMA_FILE).read_text("utf-8"))
    return data


# -- loading -------------------------------------------------------------------------------------
def load(name_or_path: str) -> Ruleset:
    """Load a shipped ruleset by name, or a ruleset file by path.

    Raises ``RulesetError`` naming file, key path and line of every problem.
    """
    return _load_cached(name_or_path)


@cache
def _load_cached(name_or_path: str) -> Ruleset:
    path = _resolve(name_or_path, None)
    if path is None:
        raise RulesetError(
            [
                (
                    name_or_path,
                    "",
                    None,
                    f"no shipped ruleset of that name and no such file "
                    f"(shipped: {', '.join(shipped_names())})",
                )
            ]
        )
    data, lines = _load_with_extends(path, 0, ())
    # Shipped files are validated by the test suite; skipping it keeps start-up fast.
    trusted = path.resolve().is_relative_to(shipped_dir().resolve())
    return build(data, lines, str(path), default_name=path.stem, validated=trusted)


def _resolve(ref: str, base: Path | None) -> Path | None:
    candidates = []
    if base is not None:
        candidates.append(base.parent / ref)
        candidates.append(base.parent / f"{ref}.yaml")
    candidates.append(Path(ref))
    for c in candidates:
        try:
            if c.is_file():
                return c
        except (OSError, ValueError):  # a name too long for the file system, a NUL
            continue
    if os.sep not in ref and "/" not in ref and not ref.endswith((".yaml", ".yml")):
        return _shipped_path(ref)
    return None


def _load_with_extends(
    path: Path, depth: int, chain: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, int]]:
    data, lines = read_yaml(path)
    parent_ref = data.get("extends")
    if parent_ref is None:
        return data, lines
    where = str(path)
    if not isinstance(parent_ref, str):
        raise RulesetError(
            [(where, "extends", lines.get("extends"), "must be a ruleset name or path")]
        )
    if depth >= MAX_EXTENDS_DEPTH:
        raise RulesetError([(where, "extends", lines.get("extends"), "extends chain is too long")])
    parent_path = _resolve(parent_ref, path)
    if parent_path is None:
        raise RulesetError(
            [(where, "extends", lines.get("extends"), f"cannot find ruleset {parent_ref!r}")]
        )
    key = str(parent_path.resolve())
    if key in chain:
        raise RulesetError([(where, "extends", lines.get("extends"), "extends makes a cycle")])
    parent, parent_lines = _load_with_extends(parent_path, depth + 1, (*chain, key))
    parent.pop("name", None)
    parent.pop("title", None)
    parent.pop("description", None)
    merged = merge(parent, data)
    merged.pop("extends", None)
    return merged, {**parent_lines, **lines}


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge mappings: keys of ``override`` win; nested mappings merge; lists replace."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def read_yaml(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """Read one YAML file safely; return the data and the line of every key path."""
    where = str(path)
    try:
        with path.open("rb") as f:  # read no more than the bound (a huge file, /dev/zero)
            raw = f.read(MAX_RULESET_BYTES + 1)
    except OSError as e:
        raise RulesetError([(where, "", None, f"cannot read: {e.strerror or e}")]) from None
    if len(raw) > MAX_RULESET_BYTES:
        raise RulesetError([(where, "", None, f"larger than {MAX_RULESET_BYTES} bytes")])
    text = raw.decode("utf-8", errors="replace")
    return parse_yaml(text, where)


def parse_yaml(text: str, where: str) -> tuple[dict[str, Any], dict[str, int]]:
    """Parse YAML text with the safe loader, keeping the line of every key path."""
    depth = _flow_depth(text)
    if depth > MAX_YAML_DEPTH:
        raise RulesetError(
            [(where, "", None, f"not valid YAML: brackets nested deeper than {MAX_YAML_DEPTH}")]
        )
    try:
        # Parsed once, with libyaml when PyYAML has it (many times faster on a large file),
        # and built by the safe constructor: python/* and other language tags are refused.
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        lines: dict[str, int] = {}
        data: Any = None
        if node is not None:
            _collect_lines(node, lines, where)  # bounds checked before anything is built
            data = yaml.constructor.SafeConstructor().construct_document(node)
    except yaml.MarkedYAMLError as e:
        line = e.problem_mark.line + 1 if e.problem_mark is not None else None
        raise RulesetError([(where, "", line, f"not valid YAML: {e.problem}")]) from None
    except yaml.YAMLError as e:
        raise RulesetError([(where, "", None, f"not valid YAML: {e}")]) from None
    except RecursionError:
        raise RulesetError(
            [(where, "", None, f"not valid YAML: nested deeper than {MAX_YAML_DEPTH} levels")]
        ) from None
    except (ValueError, OverflowError) as e:
        # a scalar its constructor refuses: a 5,000-digit int, a 30 February timestamp
        raise RulesetError([(where, "", None, f"not valid YAML: {str(e)[:200]}")]) from None
    if not isinstance(data, dict):
        raise RulesetError([(where, "", 1, "a ruleset must be a mapping of keys")])
    return data, lines


def _flow_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` (quotes ignored: this only has to be an upper bound).

    PyYAML's scanner takes time quadratic in the nesting of flow collections, so a file of
    brackets must be refused before it reaches the scanner.
    """
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}" and depth:
            depth -= 1
    return deepest


def _collect_lines(root: yaml.Node, lines: dict[str, int], where: str) -> None:
    """Record the line of every key path, refusing YAML nested or expanded past the bounds."""
    # iterative, and counting nodes as aliases expand them: a hostile file cannot recurse deep
    # or make the validator walk billions of shared nodes
    stack: list[tuple[yaml.Node, str, int]] = [(root, "", 0)]
    seen = 0
    while stack:
        node, prefix, depth = stack.pop()
        seen += 1
        if seen > MAX_YAML_NODES:
            raise RulesetError(
                [
                    (
                        where,
                        prefix,
                        None,
                        f"more than {MAX_YAML_NODES} keys and items (with aliases expanded)",
                    )
                ]
            )
        if depth > MAX_YAML_DEPTH:
            line = node.start_mark.line + 1
            raise RulesetError([(where, prefix, line, f"nested deeper than {MAX_YAML_DEPTH}")])
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                name = key_node.value if isinstance(key_node.value, str) else "?"
                key = f"{prefix}.{name}" if prefix else name
                lines.setdefault(key, key_node.start_mark.line + 1)
                stack.append((value_node, key, depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                key = f"{prefix}[{i}]"
                lines.setdefault(key, item.start_mark.line + 1)
                stack.append((item, key, depth + 1))


@cache
def _validator() -> Any:
    import jsonschema  # imported here: only ruleset loading needs it

    return jsonschema.Draft202012Validator(schema())


def validate(data: dict[str, Any], lines: dict[str, int], where: str) -> None:
    """Check ``data`` against the ruleset schema; raise ``RulesetError`` listing every error."""
    validator = _validator()
    errors = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        keypath = ""
        for part in err.absolute_path:
            keypath = (
                f"{keypath}[{part}]"
                if isinstance(part, int)
                else (f"{keypath}.{part}" if keypath else str(part))
            )
        line = lines.get(keypath)
        probe = keypath
        while line is None and probe:
            probe = probe.rpartition(".")[0] if "." in probe else ""
            line = lines.get(probe)
        errors.append((where, keypath, line, err.message))
    if errors:
        raise RulesetError(errors)


def build(
    data: dict[str, Any],
    lines: dict[str, int],
    where: str,
    default_name: str = "custom",
    validated: bool = False,
) -> Ruleset:
    """Validate merged ruleset data (unless already ``validated``) and make a ``Ruleset``."""
    if not validated:
        validate(data, lines, where)
        _check_opening(data, lines, where)
    board = data.get("board", {})
    size = board.get("size", 15)
    width = board.get("width", size)
    height = board.get("height", size)
    five = data.get("five", {})
    overline = {"black": "win", "white": "win", **five.get("overline", {})}
    blocked = five.get("blocked", {})
    forb = data.get("forbidden", {})
    kinds: dict[str, frozenset[str]] = {}
    for color in ("black", "white"):
        listed = set(forb.get(color, []))
        if OVERLINE in listed:
            overline[color] = "forbidden"
            listed.discard(OVERLINE)
        kinds[color] = frozenset(listed & {DOUBLE_FOUR, DOUBLE_THREE})
    passes = data.get("passes", {})
    end = data.get("end", {})
    return Ruleset(
        name=str(data.get("name", default_name)),
        title=str(data.get("title", "")),
        group=str(data.get("group", "variants")),
        description=str(data.get("description", "")).strip(),
        width=int(width),
        height=int(height),
        five_length=int(five.get("length", 5)),
        overline=overline,
        forbidden=kinds,
        policy=str(forb.get("policy", "lose")),
        five_eye_counts=forb.get("three_completion_makes_five", "not_a_three") == "counts",
        blocked_five=bool(blocked.get("enabled", False)),
        edge_blocks=bool(blocked.get("edge_blocks", False)),
        passes_allowed=bool(passes.get("allowed", True)),
        pass_not_before=int(passes.get("not_before", 1)),
        consecutive_passes_draw=passes.get("consecutive_draw", 2),
        board_full_draw=bool(end.get("board_full", "draw") == "draw"),
        move_limit=end.get("move_limit"),
        opening=data.get("opening"),
        source=where,
        data=data,
    )


def _check_opening(data: dict[str, Any], lines: dict[str, int], where: str) -> None:
    """What the schema cannot see in an opening protocol (unknown ``$param``, steps out of
    step with the move numbers) is a ruleset error too, not a surprise at check time."""
    opening = data.get("opening")
    if not opening:
        return
    from renju_cli.opening import ProtocolError, compile_protocol, lint

    try:
        problems = lint(compile_protocol(opening))
    except ProtocolError as e:
        problems = [str(e)]
    if problems:
        raise RulesetError([(where, "opening", lines.get("opening"), p) for p in problems])


def from_text(text: str, where: str = "<string>") -> Ruleset:
    """Build a ruleset from YAML text (``extends:`` resolved against shipped names only)."""
    data, lines = parse_yaml(text, where)
    parent_ref = data.get("extends")
    if isinstance(parent_ref, str):
        parent_path = _resolve(parent_ref, None)
        if parent_path is None:
            raise RulesetError([(where, "extends", lines.get("extends"), "cannot find ruleset")])
        parent, _ = _load_with_extends(parent_path, 1, ())
        for k in ("name", "title", "description"):
            parent.pop(k, None)
        data = merge(parent, data)
        data.pop("extends", None)
    return build(data, lines, where)
