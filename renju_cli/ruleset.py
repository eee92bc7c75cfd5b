"""Rulesets: declarative YAML files, their JSON Schema, ``extends:`` and the loader.

A ruleset is data (see ``rulesets/README.md`` for the format and ``rulesets/ruleset.schema.json``
for the schema).  Loading one resolves ``extends:`` (a shipped name or a path relative to the file),
merges mappings key by key (lists and scalars are replaced), validates the result against the
schema, checks what the schema cannot see (keys that contradict one another), and builds a
``Ruleset``.  Every error names the file, the key path and the line where the key was written (a
parent's file for an inherited key); duplicate keys and non-integral "integers" are errors.
YAML is loaded with the safe loader: language-specific tags are refused.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeAlias

import yaml

import renju_cli.limits as limits
from renju_cli.coords import Point, center
from renju_cli.judge import DOUBLE_FOUR, DOUBLE_THREE, KINDS, OVERLINE, ColorRules, Judge
from renju_cli.opening.compiler import compile_protocol, lint
from renju_cli.opening.steps import Protocol, ProtocolError, Region, Step
from renju_cli.record import printable, shipped_rule_names, special_kind
from renju_cli.record import shipped_dir as shipped_dir

SCHEMA_FILE = "ruleset.schema.json"
#: Bounds on a ruleset file against hostile input: its size, its ``extends:`` chain, the
#: nesting, keys and characters of its YAML (``renju_cli.limits``).
MAX_RULESET_BYTES = limits.RULESET_BYTES
MAX_EXTENDS_DEPTH = limits.EXTENDS_DEPTH
MAX_YAML_DEPTH = limits.YAML_DEPTH
MAX_YAML_NODES = limits.YAML_NODES
MAX_YAML_CHARS = limits.YAML_CHARS
#: Characters of a schema error's message kept (the validator quotes the wrong value whole).
MAX_MESSAGE = 300
MAX_ERRORS_SHOWN = 50  # problems a ruleset error lists (``RulesetError.errors`` holds all)
#: The shortest five for which double-fours and double-threes are judged.  rules.md defines
#: them (and the judge implements them) for a five of 5 stones; longer fives generalise the same
#: shapes.  Shorter ones do not: with a five of 3 every lone stone is a "three" and the
#: double-three recursion fills the board, and a one-move record would take minutes.
MIN_FORBIDDEN_FIVE = 5

#: Where each key path of a ruleset was written: ``(file, line)``.  The loader keeps one for
#: the merged data, so that an error in an inherited key names the parent file.  A plain line
#: number stands for the file being loaded.
Origins: TypeAlias = Mapping[str, int | tuple[str, int]]
#: A ruleset error: ``(file, key path, line, message)``.
Problem: TypeAlias = tuple[str, str, int | None, str]


class RulesetError(Exception):
    """A ruleset that cannot be used.  ``errors`` are ``(file, key path, line, message)``."""

    def __init__(self, errors: list[Problem]) -> None:
        self.errors = errors
        # (a file of 10,000 unknown keys, or one that ``extends:`` a file that is no ruleset,
        # is said by its first errors, not line after line for each)
        shown = [format_error(*e) for e in errors[:MAX_ERRORS_SHOWN]]
        if len(errors) > MAX_ERRORS_SHOWN:
            shown.append(f"... and {len(errors) - MAX_ERRORS_SHOWN} more problem(s)")
        super().__init__("\n".join(shown))


def format_error(file: str, keypath: str, line: int | None, message: str) -> str:
    """``file:line: key.path: message``, control characters escaped (``printable``): a file
    name or a key from a ruleset file must not drive the terminal."""
    where = f"{file}:{line}" if line is not None else file
    return printable(f"{where}: {keypath or '(top level)'}: {message}")


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
def shipped_names() -> list[str]:
    """Names of every shipped ruleset (files under ``rulesets/``, subdirectories included)."""
    return list(shipped_rule_names())


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
        what = not_a_file(name_or_path)
        raise RulesetError(
            [
                (
                    name_or_path,
                    "",
                    None,
                    f"{what}, and no shipped ruleset has that name"
                    if what
                    else f"no shipped ruleset of that name and no such file "
                    f"(shipped: {', '.join(shipped_names())})",
                )
            ]
        )
    data, origins = _load_with_extends(path, 0, ())
    # Shipped files are validated by the test suite; skipping it keeps start-up fast.
    trusted = path.resolve().is_relative_to(shipped_dir().resolve())
    return build(data, origins, str(path), default_name=path.stem, validated=trusted)


def not_a_file(path: str) -> str | None:
    """What ``path`` is when it exists but is no regular file (``is a directory``, ``not a
    regular file (a named pipe)``), else ``None``.  Never opens it: a FIFO would block."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    kind = special_kind(mode)
    return None if kind is None else f"not a regular file ({kind})"


def _resolve(ref: str, base: Path | None) -> Path | None:
    """The file of ruleset ``ref`` (``extends:`` in ``base``): a shipped name is the shipped
    ruleset, whatever lies in the working directory or beside ``base`` (a file named
    ``renju`` there must not change what ``-r renju``, or a record's ``RU[renju]``, means);
    anything else is a path, tried beside ``base`` first (with or without ``.yaml``)."""
    shipped = _shipped_path(ref) if _is_name(ref) else None
    if shipped is not None:
        return shipped
    beside = [] if base is None else [base.parent / ref, base.parent / f"{ref}.yaml"]
    return next((c for c in [*beside, Path(ref)] if _is_file(c)), None)


def _is_name(ref: str) -> bool:
    """Whether ``ref`` is written as a ruleset's name rather than a path."""
    return os.sep not in ref and "/" not in ref and not ref.endswith((".yaml", ".yml"))


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL
        return False


#: What names a ruleset, which a file that extends it does not inherit: a user's file that
#: extends renju is no "official" ruleset of renju's title.
_IDENTITY = ("name", "title", "description", "group")


def _load_with_extends(
    path: Path, depth: int, chain: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, tuple[str, int]]]:
    """The data of ``path`` merged over its ``extends:`` chain, and where each key was written."""
    data, lines = read_yaml(path)
    where = str(path)
    origins = {key: (where, line) for key, line in lines.items()}
    parent_ref = data.get("extends")
    if parent_ref is None:
        return data, origins
    if not isinstance(parent_ref, str):
        raise _extends_error(where, lines, "must be a ruleset name or path")
    if depth >= MAX_EXTENDS_DEPTH:
        raise _extends_error(where, lines, "extends chain is too long")
    parent_path = _resolve(parent_ref, path)
    if parent_path is None:
        raise _extends_error(where, lines, _not_found(parent_ref, path))
    key = str(parent_path.resolve())
    if key in chain:
        raise _extends_error(where, lines, "extends makes a cycle")
    parent, parent_origins = _load_with_extends(parent_path, depth + 1, (*chain, key))
    # a key of the child names the child; one it inherits still names the file that wrote it
    return _inherit(parent, data), {**parent_origins, **origins}


def _extends_error(where: str, lines: dict[str, int], message: str) -> RulesetError:
    return RulesetError([(where, "extends", lines.get("extends"), message)])


def _not_found(parent_ref: str, path: Path) -> str:
    """Why ``extends: parent_ref`` in ``path`` names no ruleset file (as ``load`` words it: a
    directory or a device named is said to be one)."""
    what = not_a_file(str(path.parent / parent_ref))
    return f"{parent_ref!r} {what}" if what else f"cannot find ruleset {parent_ref!r}"


def _inherit(parent: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """``data`` merged over the ``parent`` it extends, less what names the parent."""
    for identity in _IDENTITY:
        parent.pop(identity, None)
    merged = merge(parent, data)
    merged.pop("extends", None)
    return merged


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
    return parse_yaml(_yaml_text(raw, where), where)


def _yaml_text(raw: bytes, where: str) -> str:
    """The text of a YAML file: UTF-8, or UTF-16/32 with a byte order mark, as YAML allows;
    other bytes are refused with their place (not read as U+FFFD without a word, nor a UTF-16
    file without its mark as "unacceptable character #x0000")."""
    for bom, codec in (
        (codecs.BOM_UTF32_LE, "utf-32"),  # (before UTF-16's: it starts with the same bytes)
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                return raw.decode(codec)
            except UnicodeDecodeError as e:
                raise RulesetError(
                    [(where, "", None, f"not valid {codec.upper()}: byte {e.start} ({e.reason})")]
                ) from None
    nul = raw.find(b"\0")
    if 0 <= nul < 64:  # (NUL is UTF-8, and YAML's reader would say "unacceptable character")
        start, reason = nul, "a NUL: UTF-16 or UTF-32 without a byte order mark?"
    else:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            start, reason = e.start, e.reason
    line = raw.count(b"\n", 0, start) + 1
    # (in characters, as an editor shows it: the line's text before the byte)
    column = len(raw[raw.rfind(b"\n", 0, start) + 1 : start].decode("utf-8", "replace")) + 1
    said = (
        f"not UTF-8: byte 0x{raw[start]:02x} at column {column} ({reason}); a ruleset is UTF-8, "
        "or UTF-16/32 with a byte order mark"
    )
    raise RulesetError([(where, "", line, said)])


def parse_yaml(text: str, where: str) -> tuple[dict[str, Any], dict[str, int]]:
    """Parse YAML text with the safe loader, keeping the line of every key path."""
    if _flow_depth(text) > MAX_YAML_DEPTH:
        raise RulesetError(
            [(where, "", None, f"not valid YAML: brackets nested deeper than {MAX_YAML_DEPTH}")]
        )
    node: yaml.Node | None = None
    lines: dict[str, int] = {}
    try:
        # Parsed once, with libyaml when PyYAML has it (many times faster on a large file),
        # and built by the safe constructor: python/* and other language tags are refused.
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        data = _construct(node, lines, where)
    except yaml.MarkedYAMLError as e:
        line = _mark_line(e.problem_mark)
        raise RulesetError([(where, "", line, f"not valid YAML: {e.problem}")]) from None
    except yaml.reader.ReaderError as e:
        raise RulesetError([(where, *_unacceptable(e, text))]) from None
    except yaml.YAMLError as e:
        raise RulesetError([(where, "", None, f"not valid YAML: {e}")]) from None
    except RecursionError:
        raise RulesetError(
            [(where, "", None, f"not valid YAML: nested deeper than {MAX_YAML_DEPTH} levels")]
        ) from None
    except (ValueError, OverflowError) as e:
        # a scalar its constructor refuses: a 5,000-digit int, a 30 February timestamp
        line = _refused_scalar_line(node)
        raise RulesetError([(where, "", line, f"not valid YAML: {str(e)[:200]}")]) from None
    if not isinstance(data, dict):
        raise RulesetError([(where, "", 1, "a ruleset must be a mapping of keys")])
    return data, lines


def _construct(node: yaml.Node | None, lines: dict[str, int], where: str) -> Any:
    """The data of a composed YAML document (``None``: an empty one), its key paths' lines put
    in ``lines``: the bounds are checked before anything is built."""
    if node is None:
        return None
    _collect_lines(node, lines, where)
    return yaml.constructor.SafeConstructor().construct_document(node)


def _mark_line(mark: yaml.Mark | None) -> int | None:
    return None if mark is None else int(mark.line) + 1


def _unacceptable(e: yaml.reader.ReaderError, text: str) -> tuple[str, int, str]:
    """The key path, line and message of a character YAML does not accept (a control
    character: its line, not '\\n  in "<unicode string>", position 4')."""
    line = text.count("\n", 0, e.position) + 1
    what = f"character #x{e.character:04x}" if isinstance(e.character, int) else "byte"
    return "", line, f"not valid YAML: unacceptable {what}: {e.reason}"


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


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _refused_scalar_line(root: yaml.Node | None) -> int | None:
    """The line of the first scalar under ``root`` that the safe constructor refuses (its
    error names no place), if one does alone.  Only called on that error: the nodes are
    bounded by then (``_collect_lines``)."""
    constructor = yaml.constructor.SafeConstructor()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            try:
                constructor.construct_object(node)
            except (ValueError, OverflowError, yaml.YAMLError):
                return int(node.start_mark.line) + 1
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
    return None


def _collect_lines(root: yaml.Node, lines: dict[str, int], where: str) -> None:
    """Record the line of every key path, refusing YAML nested or expanded past the bounds, and
    keys written twice in one mapping (YAML would keep the last one silently)."""
    # iterative, and counting nodes as aliases expand them: a hostile file cannot recurse deep
    # or make the validator walk billions of shared nodes
    stack: list[tuple[yaml.Node, str, int]] = [(root, "", 0)]
    size = _Size(where)
    keys = yaml.constructor.SafeConstructor()  # builds scalar keys only, to compare them
    duplicates: list[Problem] = []
    while stack:
        node, prefix, depth = stack.pop()
        size.count(node, prefix, depth)
        if isinstance(node, yaml.MappingNode):
            duplicates += _duplicate_keys(node, prefix, keys, where)
        for key, line, child in _children(node, prefix):
            lines.setdefault(key, line)
            stack.append((child, key, depth + 1))
    if duplicates:
        raise RulesetError(sorted(set(duplicates), key=lambda e: (e[2] or 0, e[1])))


class _Size:
    """Counts the nodes and the characters of a YAML document as its aliases expand them, and
    refuses it past their bounds or nested too deep."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.nodes = 0
        self.chars = 0

    def count(self, node: yaml.Node, prefix: str, depth: int) -> None:
        self.nodes += 1
        if isinstance(node, yaml.ScalarNode):
            self.chars += len(node.value)
            if self.chars > MAX_YAML_CHARS:
                said = f"more than {MAX_YAML_CHARS} characters of text (with aliases expanded)"
                raise RulesetError([(self.where, prefix, node.start_mark.line + 1, said)])
        if self.nodes > MAX_YAML_NODES:
            said = f"more than {MAX_YAML_NODES} keys and items (with aliases expanded)"
            raise RulesetError([(self.where, prefix, None, said)])
        if depth > MAX_YAML_DEPTH:
            said = f"nested deeper than {MAX_YAML_DEPTH}"
            raise RulesetError([(self.where, prefix, node.start_mark.line + 1, said)])


def _children(node: yaml.Node, prefix: str) -> list[tuple[str, int, yaml.Node]]:
    """The key path, line and node of each value of a mapping or item of a sequence."""
    if isinstance(node, yaml.MappingNode):
        return [(_child(prefix, _key_name(k)), k.start_mark.line + 1, v) for k, v in node.value]
    if isinstance(node, yaml.SequenceNode):
        return [(f"{prefix}[{i}]", n.start_mark.line + 1, n) for i, n in enumerate(node.value)]
    return []


def _key_name(node: yaml.Node) -> str:
    """A key as written; ``?`` for a key that is a list or a mapping."""
    return node.value if isinstance(node.value, str) else "?"


def _duplicate_keys(
    node: yaml.MappingNode, prefix: str, keys: yaml.constructor.SafeConstructor, where: str
) -> list[Problem]:
    """The keys written twice in a mapping (a merge key ``<<`` may be)."""
    first: dict[Any, int] = {}
    found = []
    for key_node, _ in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.tag != _MERGE_TAG:
            line = key_node.start_mark.line + 1
            ident = keys.construct_object(key_node)
            if ident in first:
                name = key_node.value
                both = (
                    f"lines {first[ident]} and {line}"
                    if first[ident] != line
                    else f"twice on line {line}"
                )
                said = f"duplicate key {name!r} ({both}): write it once"
                found.append((where, _child(prefix, name), line, said))
            first.setdefault(ident, line)
    return found


@cache
def _validator() -> Any:
    import jsonschema  # imported here: only ruleset loading needs it

    # JSON Schema's "integer" is any number with a zero fraction, so 1.0 would pass and be
    # shown as "1.0 passes": here an integer must be written as one.
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    extend: Any = jsonschema.validators.extend  # untyped in jsonschema
    strict = extend(base, type_checker=checker)
    return strict(schema())


def _parent_path(keypath: str) -> str:
    """``a.b[2]`` -> ``a.b`` -> ``a`` -> ``""``."""
    if keypath.endswith("]") and "[" in keypath:
        return keypath[: keypath.rindex("[")]
    return keypath.rpartition(".")[0]


def _locate(origins: Origins, keypath: str, where: str) -> tuple[str, int | None]:
    """File and line of ``keypath`` (or of the nearest key above it that has one)."""
    probe = keypath
    while True:
        hit = origins.get(probe)
        if hit is not None:
            return (where, hit) if isinstance(hit, int) else hit
        if not probe:
            return where, None
        probe = _parent_path(probe)


def _keypath(parts: Any) -> str:
    keypath = ""
    for part in parts:
        keypath = f"{keypath}[{part}]" if isinstance(part, int) else _child(keypath, part)
    return keypath


def _child(keypath: str, key: Any) -> str:
    return f"{keypath}.{key}" if keypath else str(key)


def validate(data: dict[str, Any], lines: Origins, where: str) -> None:
    """Check ``data`` against the ruleset schema; raise ``RulesetError`` listing every error.

    ``lines``: the line of each key path in ``where``, or ``(file, line)`` for merged data.
    """
    validator = _validator()
    errors = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        keypath = _keypath(err.absolute_path)
        # one error per unknown key, at the key's own line (jsonschema names the mapping)
        unknown = _unknown_keys(err)
        for key in unknown:
            file, line = _locate(lines, _child(keypath, key), where)
            message = f"Additional properties are not allowed ({key!r} was unexpected)"
            errors.append((file, keypath, line, message))
        if not unknown:
            file, line = _locate(lines, keypath, where)
            errors.append((file, keypath, line, _message(err)))
    if errors:
        raise RulesetError(errors)


def _unknown_keys(err: Any) -> list[Any]:
    """The keys of a mapping that an ``additionalProperties: false`` error is about (the
    keyword applies to mappings only)."""
    if err.validator != "additionalProperties" or err.validator_value is not False:
        return []
    return [key for key in err.instance if _unknown(key, err.schema)]


def _unknown(key: Any, schema: dict[str, Any]) -> bool:
    """Whether ``key`` is neither one of the ``properties`` of ``schema`` nor matched by its
    ``patternProperties``."""
    patterns = schema.get("patternProperties", {})
    return key not in schema.get("properties", {}) and not any(
        re.search(p, str(key)) for p in patterns
    )


#: What a schema error about a size counts (of a list, of a string: the only values these
#: keywords apply to): it says the size rather than quote the value, a long one would hide the
#: reason past the cut.
_COUNTED = {"maxItems": "items", "maxLength": "characters"}


def _message(err: Any) -> str:
    """The words of a schema error, cut when long (the validator quotes the value whole)."""
    counted = _COUNTED.get(err.validator)
    message: str = (
        err.message
        if counted is None
        else f"{len(err.instance)} {counted}; at most {err.validator_value}"
    )
    if len(message) > MAX_MESSAGE:
        message = f"{message[:MAX_MESSAGE]}... ({len(message)} characters)"
    return message


def build(
    data: dict[str, Any],
    lines: Origins,
    where: str,
    default_name: str = "custom",
    validated: bool = False,
) -> Ruleset:
    """Validate merged ruleset data (unless already ``validated``) and make a ``Ruleset``.

    ``lines``: where each key path was written (see ``Origins``), for the errors.
    """
    if not validated:
        validate(data, lines, where)
        problems = check_consistency(data, lines, where)
        if problems:
            raise RulesetError(problems)
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


#: ``problem(key path, message)``: record an error at the file and line of the key path
Report: TypeAlias = Callable[[str, str], None]


def check_consistency(data: dict[str, Any], lines: Origins, where: str) -> list[Problem]:
    """What the schema cannot see: contradictions between keys that would otherwise surface
    only at check time, or never (a five longer than the board), or hang the judge.

    ``data`` must be schema-valid.  Returns ``(file, key path, line, message)`` errors.
    """
    problems: list[Problem] = []

    def problem(keypath: str, message: str) -> None:
        file, line = _locate(lines, keypath, where)
        problems.append((file, keypath, line, message))

    board = data.get("board") or {}
    width = int(board.get("width", board.get("size", 15)))
    height = int(board.get("height", board.get("size", 15)))
    _check_five(data, width, height, problem)

    def own(keypath: str) -> bool:  # written in the file checked, not one it extends
        hit = lines.get(keypath)
        return isinstance(hit, int) or (isinstance(hit, tuple) and hit[0] == where)

    _check_opening(data, width, height, problem, own)
    return problems


def _check_five(data: dict[str, Any], width: int, height: int, problem: Report) -> None:
    """The five against the board (it must fit on it), and against the forbidden kinds besides
    the overline (judged for fives of ``MIN_FORBIDDEN_FIVE`` stones or more)."""
    k = int((data.get("five") or {}).get("length", 5))
    if k > max(width, height):
        problem(
            "five.length",
            f"no five is possible: a five of {k} does not fit the {width}x{height} board",
        )
    if k >= MIN_FORBIDDEN_FIVE:
        return
    forb = data.get("forbidden") or {}
    for color in ("black", "white"):
        kinds = [x for x in (DOUBLE_FOUR, DOUBLE_THREE) if x in forb.get(color, [])]
        if kinds:
            problem(
                "five.length",
                f"forbidden moves ({', '.join(kinds)}) are judged for fives of "
                f"{MIN_FORBIDDEN_FIVE} stones or more; this ruleset's five is {k} "
                f"(forbidden.{color})",
            )


def _check_opening(
    data: dict[str, Any],
    width: int,
    height: int,
    problem: Report,
    own: Callable[[str], bool] | None = None,
) -> None:
    """What the schema cannot see in an opening protocol (unknown ``$param``, steps out of
    step with the move numbers, a centre off the board, more stones or offers than points)
    is a ruleset error too, not a surprise at check time."""
    opening = data.get("opening")
    if not opening:
        return
    try:
        protocol = compile_protocol(opening, str(data.get("name") or "unnamed"))
    except ProtocolError as e:
        problem(_step_path(str(e)), str(e))
        return
    for p in lint(protocol):
        problem(_step_path(p), p)
    _check_room(protocol, opening, width, height, problem, own)


_LABEL = re.compile(r"step ([0-9][0-9a-z.]*?)(?::| \()")


def _step_path(message: str) -> str:
    """The key path of the step a protocol message names (``step 9b.1: ...`` ->
    ``opening.steps[8].branch.options[1].steps[0]``), ``opening`` when it names none."""
    m = _LABEL.match(message)
    if m is None:
        return "opening"
    parts = m.group(1).split(".")
    path = "opening"
    for part in parts[:-1]:
        branch = re.fullmatch(r"([0-9]+)([a-z])", part)
        if branch is None:
            return "opening"
        path += f".steps[{int(branch[1]) - 1}].branch.options[{ord(branch[2]) - ord('a')}]"
    if not parts[-1].isdigit():
        return "opening"
    return path + f".steps[{int(parts[-1]) - 1}]"


def _raw_at(data: Any, keypath: str) -> Any:
    """The value at a key path of ``_step_path``'s form, ``None`` if there is none."""
    for name, index in re.findall(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]", keypath):
        if name:
            data = data.get(name) if isinstance(data, dict) else None
        else:
            i = int(index)
            data = data[i] if isinstance(data, list) and i < len(data) else None
    return data


def _check_room(
    protocol: Protocol,
    opening: dict[str, Any],
    width: int,
    height: int,
    problem: Report,
    own: Callable[[str], bool] | None = None,
) -> None:
    """The opening against the board: its centre on it, every region with a point, no more
    stones than points, no more offers than free points."""
    points = width * height
    c: Point | None = protocol.center
    if c is not None and not (c.x < width and c.y < height):
        problem("opening.center", f"{c.name} is off the {width}x{height} board")
        c = None
    elif c is None and width % 2 == 1 and height % 2 == 1:
        c = center(width, height)
    params = opening.get("params") or {}

    def blame(path: str, *keys: str) -> str:
        """The ``$param`` one of a step's ``keys`` names (a parameter is what a ruleset that
        extends another changes): the one set in the file checked, else the first; with no
        parameter, the first key itself."""
        named = []
        for key in keys:
            raw = _raw_at({"opening": opening}, f"{path}.{key}")
            if isinstance(raw, str) and raw.startswith("$") and raw[1:] in params:
                named.append(f"opening.params.{raw[1:]}")
        mine = [n for n in named if own is not None and own(n)]
        return (mine or named or [f"{path}.{keys[0]}"])[0]

    def room(region: Region) -> int:
        if region.kind == "anywhere" or c is None:
            return points
        return sum(region.contains(Point(x, y), c) for x in range(width) for y in range(height))

    reported: set[str] = set()

    def once(path: str, message: str) -> None:
        if path not in reported:
            reported.add(path)
            problem(path, message)

    def walk(steps: tuple[Step, ...], stones: int) -> int:
        for s in steps:
            path = _step_path(f"step {s.label}:")
            body = f"{path}.{s.kind}"
            if s.region.kind != "anywhere" and room(s.region) == 0:
                once(
                    blame(f"{body}.region", s.region.kind),
                    f"step {s.label}: no point of the {width}x{height} board is {s.region.words()}",
                )
            if s.kind in ("place", "keep"):
                stones += 1
                if stones > points and "stones" not in reported:
                    reported.add("stones")
                    problem(
                        path,
                        f"step {s.label}: the opening places stone {stones}, but the "
                        f"{width}x{height} board has {points} points",
                    )
            elif s.kind == "turns":
                stones = max(stones, s.until)
                if stones > points:
                    once(
                        blame(body, "until"),
                        f"step {s.label}: turns until stone {s.until}, but the "
                        f"{width}x{height} board has {points} points",
                    )
            elif s.kind == "reject":
                stones = 0
            elif s.kind == "offer" and s.count is not None:
                free = room(s.region) - (stones if s.region.kind == "anywhere" else 0)
                if s.count > free:
                    once(
                        blame(body, "count"),
                        f"step {s.label}: {s.count} offers, but only {max(free, 0)} points "
                        f"are free {s.region.words()} on the {width}x{height} board",
                    )
            elif s.kind == "declare":
                if s.high is not None and s.low > s.high:
                    once(
                        blame(body, "min", "max"),
                        f"step {s.label}: at least {s.low} offers but at most {s.high}",
                    )
                if s.low > points - stones:
                    once(
                        blame(body, "min"),
                        f"step {s.label}: at least {s.low} offers, but only "
                        f"{max(points - stones, 0)} points are free on the {width}x{height} board",
                    )
            elif s.kind == "branch":
                stones = max((walk(o.steps, stones) for o in s.options), default=stones)
        return stones

    walk(protocol.steps, 0)


def from_text(text: str, where: str = "<string>") -> Ruleset:
    """Build a ruleset from YAML text (``extends:`` resolved against shipped names only)."""
    data, lines = parse_yaml(text, where)
    origins: dict[str, int | tuple[str, int]] = dict(lines)
    parent_ref = data.get("extends")
    if isinstance(parent_ref, str):
        parent_path = _resolve(parent_ref, None)
        if parent_path is None:
            raise _extends_error(where, lines, "cannot find ruleset")
        parent, parent_origins = _load_with_extends(parent_path, 1, ())
        data = _inherit(parent, data)
        origins = {**parent_origins, **lines}
    return build(data, origins, where)
