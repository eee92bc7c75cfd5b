"""Rulesets as data: the schema, ``extends:``, errors with key paths and lines."""

from __future__ import annotations

import io
import os
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from renju_cli import judge
from renju_cli.board import BLACK, WHITE, Board
from renju_cli.cli import cli
from renju_cli.formats import read_stream
from renju_cli.referee import replay
from renju_cli.ruleset import (
    MAX_RULESET_BYTES,
    RulesetError,
    check_consistency,
    format_error,
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
    assert ("", 7) in found  # the unknown key "colour", at its own line
    assert "bad.yaml:3: board.size:" in str(e.value)


def test_yaml_language_tags_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "evil.yaml"
    f.write_text("name: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(RulesetError, match="not valid YAML"):
        load(str(f))


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_ruleset_in_utf16_or_utf32_with_its_byte_order_mark_loads(
    tmp_path: Path, codec: str
) -> None:
    # as YAML allows (not "unacceptable character #x0000")
    import codecs

    text = "name: mine\nextends: renju\ndescription: Tōkyō\n"
    data = text.encode(codec)
    if codec == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    f = tmp_path / "mine.yaml"
    f.write_bytes(data)
    assert load(str(f)).data["description"] == "Tōkyō"


@pytest.mark.parametrize(
    ("data", "said"),
    [
        # bytes that are no UTF-8 are said at their place, not read as U+FFFD
        (b"name: x\ndescription: 'caf\xe9'\n", "bad.yaml:2: (top level): not UTF-8: byte 0xe9 at "
         "column 18 (invalid continuation byte); a ruleset is UTF-8, or UTF-16/32 with a byte "
         "order mark"),
        ("name: x\n".encode("utf-16-le"), "bad.yaml:1: (top level): not UTF-8: byte 0x00 at "
         "column 2 (a NUL: UTF-16 or UTF-32 without a byte order mark?)"),
        (b"name: x\n# \xc3\xa9\xff\n", "bad.yaml:2: (top level): not UTF-8: byte 0xff at column 4 "
         "(invalid start byte)"),  # (columns in characters: é is one)
        # a control character: its line, not '\\n  in "<unicode string>", position 21'
        (b"name: x\ndescription: a\x07b\n", "bad.yaml:2: (top level): not valid YAML: "
         "unacceptable character #x0007: control characters are not allowed"),
    ],
)  # fmt: skip
def test_a_ruleset_of_bad_bytes_is_refused_with_their_place(
    tmp_path: Path, data: bytes, said: str
) -> None:
    f = tmp_path / "bad.yaml"
    f.write_bytes(data)
    with pytest.raises(RulesetError) as e:
        load(str(f))
    assert str(e.value).startswith(str(tmp_path / said))


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


# -- hostile rulesets: each test states its ruleset YAML -----------------------------------------
def rules_check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["rules", "check", *args])
    return result.exit_code, result.output


def test_shipped_rulesets_have_no_contradictions() -> None:
    for name in shipped_names():
        r = load(name)
        assert check_consistency(r.data, {}, r.source) == [], name


def test_an_inherited_schema_error_names_the_parent_file_and_line(tmp_path: Path) -> None:
    # parent.yaml: name: parent / three comments / board: / size: 99
    (tmp_path / "parent.yaml").write_text("name: parent\n# 1\n# 2\n# 3\nboard:\n  size: 99\n")
    # child.yaml: extends: parent.yaml / name: child
    (tmp_path / "child.yaml").write_text("extends: parent.yaml\nname: child\n")
    code, out = rules_check(str(tmp_path / "child.yaml"))
    assert code == 2
    assert f"{tmp_path / 'parent.yaml'}:6: board.size: 99 is greater than the maximum" in out
    assert "child.yaml:" not in out
    # the same ruleset as text (from_text) names the parent too
    with pytest.raises(RulesetError) as e:
        from_text(f"extends: {tmp_path / 'parent.yaml'}\nname: child\n", "child.yaml")
    assert e.value.errors[0][:3] == (str(tmp_path / "parent.yaml"), "board.size", 6)


def test_an_inherited_opening_error_names_the_parent_step(tmp_path: Path) -> None:
    # lp.yaml: name: lp / opening: / steps: / - place: {} / - place: {move: 3}
    (tmp_path / "lp.yaml").write_text(
        "name: lp\nopening:\n  steps:\n    - place: {}\n    - place: {move: 3}\n"
    )
    # lc.yaml: extends: lp.yaml / name: lc / board: {size: 19}
    (tmp_path / "lc.yaml").write_text("extends: lp.yaml\nname: lc\nboard: {size: 19}\n")
    code, out = rules_check(str(tmp_path / "lc.yaml"))
    assert code == 2
    assert f"{tmp_path / 'lp.yaml'}:5: opening.steps[1]: step 2: move 3, but it is move 2" in out
    # a key the child overrides names the child: lc2.yaml sets opening.params.offers: 300 over
    # taraguchi-n, whose steps offer $offers points
    (tmp_path / "lc2.yaml").write_text(
        "extends: taraguchi-n\nname: lc2\nopening:\n  params:\n    offers: 300\n"
    )
    code, out = rules_check(str(tmp_path / "lc2.yaml"))
    assert code == 2 and f"{tmp_path / 'lc2.yaml'}:5: opening.params.offers: " in out, out
    # a declared count whose max is the child's parameter (soosyrv-n declares min: 1,
    # max: $offers): the child's parameter, not the parent's min, is to blame
    (tmp_path / "lc3.yaml").write_text(
        "extends: soosyrv-n\nname: lc3\nopening:\n  params:\n    offers: 0\n"
    )
    code, out = rules_check(str(tmp_path / "lc3.yaml"))
    assert code == 2 and f"{tmp_path / 'lc3.yaml'}:5: opening.params.offers: " in out, out
    # both bounds parameters (min: $lo, max: $hi), the child setting hi: the child's hi
    (tmp_path / "lp4.yaml").write_text(
        "name: lp4\nopening:\n  params: {lo: 1, hi: 8}\n  steps:\n"
        "    - declare: {by: white, min: $lo, max: $hi}\n"
    )
    (tmp_path / "lc4.yaml").write_text(
        "extends: lp4.yaml\nname: lc4\nopening:\n  params:\n    hi: 0\n"
    )
    code, out = rules_check(str(tmp_path / "lc4.yaml"))
    assert code == 2 and f"{tmp_path / 'lc4.yaml'}:5: opening.params.hi: " in out, out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # name: a / title: b / two blank lines / foo: 1
        ("name: a\ntitle: b\n\n\nfoo: 1\n", ":5: (top level): "),
        # name: a / board: / size: 15 / blank / bar: 1
        ("name: a\nboard:\n  size: 15\n\n  bar: 1\n", ":5: board: "),
        # a step of an unknown kind, on the line of its key
        ("name: a\nopening:\n  steps:\n    - place: {}\n    -\n      jump: {}\n", ":6: "),
    ],
)
def test_an_unknown_key_is_reported_at_its_own_line(
    tmp_path: Path, text: str, expected: str
) -> None:
    f = tmp_path / "unknown.yaml"
    f.write_text(text)
    code, out = rules_check(str(f))
    assert code == 2
    assert f"{f}{expected}" in out and "was unexpected" in out, out


def test_two_unknown_keys_are_two_errors(tmp_path: Path) -> None:
    # name: a / colour: blue / size: 9
    with pytest.raises(RulesetError) as e:
        from_text("name: a\ncolour: blue\nsize: 9\n")
    assert sorted((line, msg) for _, _, line, msg in e.value.errors) == [
        (2, "Additional properties are not allowed ('colour' was unexpected)"),
        (3, "Additional properties are not allowed ('size' was unexpected)"),
    ]


def test_a_value_of_the_wrong_type_is_said_by_its_type() -> None:
    # a list where a mapping or a text is expected: its type is the error, not its keys or
    # its length (the keywords of mappings, lists and texts apply to their own type only)
    with pytest.raises(RulesetError) as e:
        from_text("name: a\nboard: [1, 2]\n")
    assert [(k, line, msg) for _, k, line, msg in e.value.errors] == [
        ("board", 2, "[1, 2] is not of type 'object'")
    ]
    with pytest.raises(RulesetError) as e:
        from_text("name: a\ntitle: [" + "1, " * 300 + "1]\n")
    [(_, keypath, line, message)] = e.value.errors
    assert (keypath, line) == ("title", 2)
    assert message.startswith("[1, 1, 1") and message.endswith("... (927 characters)")


def test_unknown_keys_of_nested_mappings_are_said_in_their_mapping() -> None:
    with pytest.raises(RulesetError) as e:
        from_text("name: a\nboard: {size: 9, bogus: 1}\nfive: {length: 5, bad: 2, worse: 3}\n")
    assert [(k, line, msg) for _, k, line, msg in e.value.errors] == [
        ("board", 2, "Additional properties are not allowed ('bogus' was unexpected)"),
        ("five", 3, "Additional properties are not allowed ('bad' was unexpected)"),
        ("five", 3, "Additional properties are not allowed ('worse' was unexpected)"),
    ]


def test_control_characters_from_a_ruleset_never_reach_the_terminal(tmp_path: Path) -> None:
    # name: evil / title: "\e]0;pwned\a\e[31mRED"
    f = tmp_path / "evil.yaml"
    f.write_text('name: evil\ntitle: "\\e]0;pwned\\a\\e[31mRED"\ndescription: "a\\rb\\nc"\n')
    result = CliRunner().invoke(cli, ["rules", "show", str(f)])
    assert result.exit_code == 0
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\r" not in result.output
    assert "evil: \\x1b]0;pwned\\x07\\x1b[31mRED" in result.output
    # a file name with an escape sequence, in an error line: name: a / foo: 1
    bad = tmp_path / "a\x1b[31mb\n::error::x.yaml"
    bad.write_text("name: a\nfoo: 1\n")
    code, out = rules_check(str(bad))
    assert code == 2 and "\x1b" not in out and "::error::" in out
    assert "a\\x1b[31mb\\n::error::x.yaml:2: " in out
    code, out = rules_check(str(tmp_path / "evil.yaml"))
    assert code == 0
    assert format_error("x\x1by", "k", 1, "m\x07") == "x\\x1by:1: k: m\\x07"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # extends: renju-rif / opening: {center: p16}
        (
            "extends: renju-rif\nname: c\nopening: {center: p16}\n",
            ":3: opening.center: p16 is off the 15x15 board",
        ),
        # board: {size: 7} / a step placing outside the central 9x9
        (
            "name: c\nboard: {size: 7}\nopening:\n  steps:\n    - place: {region: {outside: 9}}\n",
            ":5: opening.steps[0].place.region.outside: step 1: no point of the 7x7 board is "
            "outside the central 9x9",
        ),
        # board: {size: 5} / five: {length: 10}
        (
            "name: c\nboard: {size: 5}\nfive: {length: 10}\n",
            ":3: five.length: no five is possible: a five of 10 does not fit the 5x5 board",
        ),
        # board: {size: 5} / 26 place steps
        (
            "name: c\nboard: {size: 5}\nopening:\n  steps:\n" + "    - place: {}\n" * 26,
            ":30: opening.steps[25]: step 26: the opening places stone 26, but the 5x5 board "
            "has 25 points",
        ),
        # extends: taraguchi-n / opening: {params: {offers: 300}}
        (
            "extends: taraguchi-n\nname: c\nopening: {params: {offers: 300}}\n",
            ":3: opening.params.offers: step 9b.1: 300 offers, but only 221 points are free",
        ),
        # a declared count whose minimum exceeds its maximum
        (
            "name: c\nopening:\n  steps:\n    - declare: {min: 5, max: 3}\n"
            "    - offer: {count: declared}\n",
            ":4: opening.steps[0].declare.min: step 1: at least 5 offers but at most 3",
        ),
    ],
)
def test_contradictions_are_ruleset_errors(tmp_path: Path, text: str, expected: str) -> None:
    f = tmp_path / "contradiction.yaml"
    f.write_text(text)
    code, out = rules_check(str(f))
    assert code == 2
    assert f"{f}{expected}" in out, out


def test_what_only_looks_like_a_contradiction_is_accepted() -> None:
    # board: {size: 7} / central 9x9 (the whole board) / five of 7 on a 7x19 board
    from_text("name: c\nboard: {size: 7}\nopening: {steps: [{place: {region: {central: 9}}}]}\n")
    from_text("name: c\nboard: {width: 7, height: 19}\nfive: {length: 10}\n")
    # 25 stones on 5x5 fill it exactly; a rejected opening starts again from stone 1
    from_text("name: c\nboard: {size: 5}\nopening:\n  steps:\n" + "    - place: {}\n" * 25)
    from_text(
        "name: c\nboard: {size: 5}\nopening:\n  steps:\n"
        + "    - place: {}\n" * 20
        + "    - reject: {}\n"
        + "    - place: {}\n" * 20
    )


@pytest.mark.parametrize("length", [3, 4])
@pytest.mark.parametrize("kinds", ["[double-three]", "[double-four]", "[overline, double-three]"])
@pytest.mark.parametrize("color", ["black", "white"])
def test_forbidden_moves_need_a_five_of_five_or_more(length: int, kinds: str, color: str) -> None:
    # five: {length: 3} / forbidden: {black: [double-three]} once ran for more than 15 minutes
    text = f"name: f\nfive: {{length: {length}}}\nforbidden: {{{color}: {kinds}}}\n"
    with pytest.raises(RulesetError) as e:
        from_text(text)
    (_, keypath, line, message), *_ = e.value.errors
    assert (keypath, line) == ("five.length", 2)
    assert message.startswith("forbidden moves (double-")
    assert f"judged for fives of 5 stones or more; this ruleset's five is {length}" in message


def test_an_inherited_forbidden_set_needs_a_five_of_five_too(tmp_path: Path) -> None:
    # extends: omok (black: double-three) / five: {length: 4}
    f = tmp_path / "omok4.yaml"
    f.write_text("extends: omok\nname: omok4\nfive: {length: 4}\n")
    code, out = rules_check(str(f))
    assert code == 2 and f"{f}:3: five.length: forbidden moves (double-three)" in out, out


@pytest.mark.parametrize("length", range(3, 11))
def test_every_accepted_five_length_judges_quickly(
    length: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the loader accepts is judged with bounded work: a one-move record, and the
    forbidden points of an empty and of an almost empty board.  The work is counted, not timed
    (speed is the benchmarks' business): the line windows analysed, from fresh tables, stay in
    the hundreds (measured: 34-200), where a table built whole for a five of 10 would be
    3^21 windows."""
    monkeypatch.setattr(judge, "_TABLES", {})
    monkeypatch.setattr(judge, "_WINDOW_TABLES", {})
    analysed = [0]
    analyze = judge.analyze_window

    def counted(own: int, blocked: int, r: int, k: int, exact: bool) -> judge.LineFacts:
        analysed[0] += 1
        return analyze(own, blocked, r, k, exact)

    monkeypatch.setattr(judge, "analyze_window", counted)
    kinds = "[overline]" if length < 5 else "[overline, double-four, double-three]"
    # five: {length: N, overline: {black: forbidden}} / forbidden: {black: KINDS}
    r = from_text(
        f"name: q\nfive: {{length: {length}}}\nforbidden: {{black: {kinds}, "
        "three_completion_makes_five: counts}\n"
    )
    rec = next(iter(read_stream(io.BufferedReader(io.BytesIO(b"h8")), "probe", "notation")))
    assert replay(rec, r).result is not None
    board = Board(15, 15)
    r.judge().forbidden_points(board, BLACK)
    for x, y, stone in ((7, 7, BLACK), (8, 7, WHITE), (8, 8, BLACK), (6, 8, BLACK), (7, 9, BLACK)):
        board.place(board.index_of(x, y), stone)
        r.judge().forbidden_points(board, BLACK)
    assert 0 < analysed[0] < 2000


def test_rules_check_says_what_a_non_file_is(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)  # never opened: that would block
    code, out = rules_check(str(tmp_path), str(fifo), "-", os.devnull, str(tmp_path / "no.yaml"))
    assert code == 2
    assert f"{tmp_path}: is a directory" in out
    assert f"{fifo}: not a regular file (a named pipe)" in out
    assert "-: not a regular file (standard input is not read" in out
    assert f"{os.devnull}: not a regular file (a character device)" in out
    assert f"{tmp_path / 'no.yaml'}: no such file" in out
    with pytest.raises(RulesetError, match="is a directory"):
        load(str(tmp_path))


@pytest.mark.parametrize(
    ("text", "line", "keypath", "words"),
    [
        # name: a / board: {size: 15} / name: b
        ("name: a\nboard: {size: 15}\nname: b\n", 3, "name", "'name' (lines 1 and 3)"),
        # board: / size: 15 / size: 19
        ("name: a\nboard:\n  size: 15\n  size: 19\n", 4, "board.size", "(lines 3 and 4)"),
        # a flow mapping with the key twice on one line
        ("name: a\nboard: {size: 15, size: 19}\n", 2, "board.size", "twice on line 2"),
        # "name" quoted and plain are the same key
        ('name: a\n"name": b\n', 2, "name", "(lines 1 and 2)"),
    ],
)
def test_duplicate_keys_are_errors(text: str, line: int, keypath: str, words: str) -> None:
    with pytest.raises(RulesetError) as e:
        from_text(text, "dup.yaml")
    assert e.value.errors[0][1:3] == (keypath, line)
    assert "duplicate key" in e.value.errors[0][3] and words in e.value.errors[0][3]


def test_a_yaml_merge_key_is_not_a_duplicate() -> None:
    # base: &b {size: 15} / board: {<<: *b, size: 19}  (a merged key is overridden, not repeated)
    with pytest.raises(RulesetError, match="'base' was unexpected"):  # base is no ruleset key
        from_text("base: &b {size: 15}\nboard: {<<: *b, size: 19}\n")
    r = from_text("name: a\nboard: &b {size: 15}\n")
    assert r.width == 15


@pytest.mark.parametrize(
    ("text", "keypath", "value"),
    [
        ("name: a\npasses: {not_before: 1.0}\n", "passes.not_before", "1.0"),
        ("name: a\nboard: {size: 15.0}\n", "board.size", "15.0"),
        ("name: a\nend: {move_limit: 200.0}\n", "end.move_limit", "200.0"),
        (
            "name: a\nopening: {params: {offers: 10.0}, steps: []}\n",
            "opening.params.offers",
            "10.0",
        ),
    ],
)
def test_integers_must_be_integers(text: str, keypath: str, value: str) -> None:
    with pytest.raises(RulesetError) as e:
        from_text(text)
    [(_, k, _, message)] = e.value.errors
    assert k == keypath and message.startswith(f"{value} is not of type 'integer'")
    assert from_text(text.replace(".0", "")).name == "a"


def test_the_readme_states_the_size_limit_the_code_applies() -> None:
    readme = (Path(__file__).resolve().parent.parent / "rulesets" / "README.md").read_text()
    assert MAX_RULESET_BYTES == 256 * 1024
    assert "256 KiB" in readme and "1 MB" not in readme


def test_a_shipped_name_is_the_shipped_ruleset_whatever_lies_in_the_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file named ``renju`` (or ``freestyle.yaml`` beside a ruleset that extends
    ``freestyle``) in the working directory took the place of the shipped ruleset: ``renju
    rules list`` failed, and a record's own rule (``RU[renju]``) loaded a local file."""
    from renju_cli.ruleset import _resolve, shipped_dir

    (tmp_path / "renju").write_text("not: [a ruleset\n")
    (tmp_path / "freestyle.yaml").write_text("not: [a ruleset\n")
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: freestyle\nname: mine\n")
    monkeypatch.chdir(tmp_path)
    assert _resolve("renju", None) == shipped_dir() / "renju.yaml"
    assert _resolve("freestyle", mine) == shipped_dir() / "freestyle.yaml"
    assert _resolve("./renju", None) == Path("renju")  # a path is a path
    assert _resolve("mine.yaml", None) == Path("mine.yaml")
    result = CliRunner().invoke(cli, ["rules", "check", str(mine)])
    assert result.exit_code == 0, result.output


def test_aliases_repeating_a_long_text_are_refused(tmp_path: Path) -> None:
    """``description: &s <200 kB>`` then ``title: [*s, *s, ...]``: 215 kB of YAML within every
    bound on size and items, which the schema's error message would expand to a gigabyte.  The
    text is counted as aliases repeat it."""
    from renju_cli.ruleset import MAX_YAML_CHARS, RulesetError, load

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(
        "extends: renju\ndescription: &s " + "x" * 200_000 + "\ntitle: [" + ", ".join(["*s"] * 50)
        + "]\n"
    )  # fmt: skip
    with pytest.raises(RulesetError) as e:
        load(str(bomb))
    assert f"more than {MAX_YAML_CHARS} characters of text" in str(e.value)
    assert len(str(e.value)) < 1000
    # a long value of the wrong type: the message quotes it, cut
    long = tmp_path / "long.yaml"
    long.write_text("extends: renju\nboard: " + "x" * 100_000 + "\n")
    with pytest.raises(RulesetError) as e:
        load(str(long))
    assert "characters)" in str(e.value) and len(str(e.value)) < 1000


def test_a_protocol_of_more_steps_than_the_bound_is_refused(tmp_path: Path) -> None:
    # three options of 100 ``require`` steps each: 302 steps counted in every option (YAML
    # aliases make many steps of a small file, and every record walks them)
    from renju_cli.opening import MAX_PROTOCOL_STEPS

    require = {"require": {"stones": [1], "region": "anywhere"}}
    options = [{"name": f"o{k}", "steps": [require] * 100} for k in range(3)]
    opening = {
        "name": "Many",
        "center": "h8",
        "steps": [{"place": {"move": 1}}, {"branch": {"by": "P1", "options": options}}],
    }
    path = tmp_path / "many.yaml"
    path.write_text(yaml.safe_dump({"name": "many", "extends": "renju", "opening": opening}))
    with pytest.raises(RulesetError) as e:
        load(str(path))
    assert (
        f"the protocol has 302 steps, counted in every option of its branches (with YAML "
        f"aliases followed); at most {MAX_PROTOCOL_STEPS}"
    ) in str(e.value)


def test_a_list_too_long_is_said_in_its_length_not_quoted(tmp_path: Path) -> None:
    # the schema's message quotes the list first: cut at 300 characters, the reason was lost
    steps = [{"place": {"move": 1}}] + [{"require": {"stones": [1], "region": "anywhere"}}] * 300
    path = tmp_path / "long.yaml"
    path.write_text(
        yaml.safe_dump({"name": "long", "extends": "renju", "opening": {"steps": steps}})
    )
    with pytest.raises(RulesetError) as e:
        load(str(path))
    assert "opening.steps: 301 items; at most 200" in str(e.value)


def test_extends_of_a_directory_or_a_device_says_what_it_is(tmp_path: Path) -> None:
    # not "cannot find ruleset '/dev/zero'": said as -r /dev/zero says what it is
    f = tmp_path / "mine.yaml"
    f.write_text(f"name: mine\nextends: {tmp_path}\n")
    with pytest.raises(RulesetError, match=f"mine.yaml:2: extends: '{tmp_path}' is a directory"):
        load(str(f))
    if os.path.exists("/dev/zero"):
        f.write_text("name: mine\nextends: /dev/zero\n")
        with pytest.raises(RulesetError, match="'/dev/zero' not a regular file"):
            load(str(f))
    f.write_text("name: mine\nextends: nothere\n")
    with pytest.raises(RulesetError, match="extends: cannot find ruleset 'nothere'"):
        load(str(f))


def test_a_ruleset_error_lists_its_first_problems(tmp_path: Path) -> None:
    # a file of 200 unknown keys: its error says 50 and counts the rest ('rules check', whose
    # job is to list them, still prints every one of them from ``errors``)
    from renju_cli.ruleset import MAX_ERRORS_SHOWN

    f = tmp_path / "many.yaml"
    f.write_text("name: x\nextends: renju\n" + "".join(f"k{i}: 1\n" for i in range(200)))
    with pytest.raises(RulesetError) as e:
        load(str(f))
    assert len(e.value.errors) == 200
    lines = str(e.value).splitlines()
    assert len(lines) == MAX_ERRORS_SHOWN + 1 and lines[-1] == "... and 150 more problem(s)"
    result = CliRunner().invoke(cli, ["rules", "check", str(f)])
    assert result.exit_code == 2 and result.output.count("was unexpected") == 200


def test_a_scalar_yaml_cannot_build_is_refused_at_its_line(tmp_path: Path) -> None:
    # the constructor's error names no place: the loader finds the scalar's line
    f = tmp_path / "date.yaml"
    f.write_text("name: x\nextends: renju\nboard:\n  size: 2001-02-30\n")
    with pytest.raises(RulesetError) as e:
        load(str(f))
    assert str(e.value) == f"{f}:4: (top level): not valid YAML: day is out of range for month"


def test_a_file_that_extends_a_ruleset_is_not_of_its_group(tmp_path: Path) -> None:
    # a user's file extending renju is not "group: official", as its name and title are not
    # inherited either; one that says its group keeps it
    f = tmp_path / "mine.yaml"
    f.write_text("name: mine\nextends: renju\n")
    assert load("renju").group == "official" and load(str(f)).group == "variants"
    assert from_text("name: mine\nextends: renju\n").group == "variants"
    g = tmp_path / "theirs.yaml"  # (another path: loads are remembered by it)
    g.write_text("name: theirs\nextends: renju\ngroup: proposals\n")
    assert load(str(g)).group == "proposals"
    # the shipped files that extend another say their own group
    for path in shipped_dir().rglob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        if "extends" in data:
            assert "group" in data, path
