"""Rulesets as data: the schema, ``extends:``, errors with key paths and lines."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from renju_cli.ruleset import (
    RulesetError,
    from_text,
    load,
    read_yaml,
    schema,
    shipped_dir,
    shipped_names,
    validate,
)


def test_schema_is_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_ruleset_is_valid_against_the_schema(name: str) -> None:
    """Shipped rulesets skip validation at run time (start-up speed), so it happens here."""
    ruleset = load(name)
    validate(ruleset.data, {}, ruleset.source)
    assert ruleset.name == name
    assert ruleset.title


def test_core_rulesets_are_shipped() -> None:
    assert {"freestyle", "standard", "renju", "caro", "omok"} <= set(shipped_names())
    assert (shipped_dir() / "ruleset.schema.json").is_file()


def test_renju_reads_as_rif() -> None:
    r = load("renju")
    assert r.overline == {"black": "forbidden", "white": "win"}
    assert r.forbidden_kinds("black") == ("overline", "double-four", "double-three")
    assert r.forbidden_kinds("white") == ()
    assert r.policy == "lose"
    assert r.pass_not_before == 4
    assert not r.five_eye_counts


def test_extends_overrides_key_by_key(tmp_path: Path) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text(
        "extends: renju\nname: mine\ntitle: Mine\n"
        "forbidden: {three_completion_makes_five: counts}\nend: {move_limit: 200}\n"
    )
    r = load(str(f))
    assert r.name == "mine"
    assert r.five_eye_counts
    assert r.move_limit == 200
    assert r.forbidden_kinds("black") == ("overline", "double-four", "double-three")  # inherited


def test_extends_a_relative_file_and_cycles(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("extends: freestyle\nboard: {size: 19}\n")
    (tmp_path / "child.yaml").write_text("extends: base\nname: child\n")
    assert load(str(tmp_path / "child.yaml")).width == 19
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\n")
    with pytest.raises(RulesetError, match="cycle"):
        load(str(tmp_path / "a.yaml"))


def test_errors_name_the_key_path_and_the_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(
        "name: bad\n"
        "board:\n"
        "  size: 40\n"
        "forbidden:\n"
        "  black: [double-three, triple-four]\n"
        "  policy: forfeit\n"
        "colour: blue\n"
    )
    with pytest.raises(RulesetError) as e:
        load(str(f))
    found = {(path, line) for _, path, line, _ in e.value.errors}
    assert ("board.size", 3) in found
    assert ("forbidden.black[1]", 5) in found
    assert ("forbidden.policy", 6) in found
    assert ("", 1) in found or any(p == "" for p, _ in found)  # the unknown key "colour"
    assert "bad.yaml:3: board.size:" in str(e.value)


def test_yaml_language_tags_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "evil.yaml"
    f.write_text("name: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(RulesetError, match="not valid YAML"):
        load(str(f))


def test_not_a_mapping_and_syntax_errors(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="mapping"):
        from_text("- a\n- b\n")
    with pytest.raises(RulesetError) as e:
        from_text("name: x\nboard: {size: 15\n")
    assert e.value.errors[0][2] is not None


def test_unknown_ruleset_name() -> None:
    with pytest.raises(RulesetError, match="no shipped ruleset"):
        load("no-such-rules")


def test_read_yaml_keeps_lines(tmp_path: Path) -> None:
    f = tmp_path / "r.yaml"
    f.write_text("name: x\nfive:\n  overline:\n    black: forbidden\n")
    _, lines = read_yaml(f)
    assert lines["five.overline.black"] == 4
