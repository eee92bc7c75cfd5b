"""The command line: every command, output formats, stdin and every exit code."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli as renju

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

DOUBLE_THREE_POSITION = """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . . . . X X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_exit_0_on_a_clean_record(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = renju(capsys, "check", str(EXAMPLES / "black-five.txt"))
    assert code == 0
    assert "black wins by five at move 9 (h12)" in out


def test_exit_1_on_findings_and_fail_on(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "black-double-three.txt")
    assert renju(capsys, "check", path)[0] == 1
    assert renju(capsys, "check", path, "--fail-on", "never")[0] == 0
    assert renju(capsys, "check", path, "--ignore", "forbidden-move")[0] == 0


def test_exit_2_on_usage_and_configuration_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert renju(capsys, "check", "--format", "xml", str(EXAMPLES))[0] == 2
    code, _, err = renju(capsys, "check", str(tmp_path / "missing.txt"))
    assert code == 2 and "no input found" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("board: {size: 99}\n")
    code, _, err = renju(capsys, "check", str(EXAMPLES), "--rules", str(bad))
    assert code == 2 and "board.size" in err
    assert renju(capsys, "check", str(EXAMPLES), "--rules", "nope")[0] == 2
    assert renju(capsys, "check", str(EXAMPLES), "--select", "no-such-code")[0] == 2


def test_exit_3_on_an_internal_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug while judging one record: that record gets an internal-error finding, the batch
    goes on, and the exit code is 3 with one line on stderr (no traceback)."""
    from renju_cli.referee import replay as real

    def boom(record: Any, rules: Any, within: Any = None) -> Any:
        if record.source.path.endswith("black-five.txt"):
            raise RuntimeError("injected")
        return real(record, rules, within)

    monkeypatch.setattr("renju_cli.tasks.replay", boom)  # what judges each record of a batch
    code, out, err = renju(capsys, "check", str(EXAMPLES), "-f", "jsonl")
    assert code == 3
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) == 5  # nothing lost
    broken = [r for r in reports if any(f["code"] == "internal-error" for f in r["findings"])]
    assert [r["source"]["path"].rsplit("/", 1)[1] for r in broken] == ["black-five.txt"]
    assert err.strip().count("\n") == 0  # one line, no traceback
    assert "internal error" in err and "Traceback" not in err


def test_json_and_jsonl_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = renju(capsys, "check", str(EXAMPLES), "--format", "json")
    doc = json.loads(out)
    assert code == 1
    assert doc["summary"]["records"] == len(doc["records"]) == 5
    assert doc["summary"]["findings"]["forbidden-move"] == 1
    code, out, _ = renju(capsys, "check", str(EXAMPLES), "--format", "jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [r["source"]["path"].rsplit("/", 1)[1] for r in lines] == sorted(
        r["source"]["path"].rsplit("/", 1)[1] for r in lines
    )
    foul = next(r for r in lines if r["forbidden_moves"])
    assert foul["result"] == {"winner": "white", "reason": "forbidden", "move": 9, "point": "h8"}
    assert foul["forbidden_moves"] == [{"move": 9, "point": "h8", "kinds": ["double-three"]}]


def test_a_jsonl_record_is_one_line_to_any_line_splitter(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # cli_sample seed 29: a record quoting a Latin-1 byte 0x85 (NEL) was two lines to
    # ``str.splitlines``, which ends lines at NEL, U+2028 and U+2029 too, and a batch of 1,392
    # records counted 1,394; check, diff and convert now write them escaped, the same JSON
    # (a file name may hold them too)
    said = "a\x85b\u2028c\u2029d"
    games = tmp_path / f"games{said}.jsonl"  # (diff's records quote only their path)
    games.write_text(
        # (black's h8 is a double-three: renju and freestyle part there, and diff lists it)
        "\n".join(
            json.dumps({"moves": "f8 a1 g8 a3 h9 a5 h10 a7 h8", "metadata": {"event": said}})
            for _ in range(3)
        ),
        encoding="utf-8",
    )
    for args in (
        ("check", str(games), "--format", "jsonl"),
        ("diff", str(games), "-r", "renju", "-r", "freestyle", "--format", "jsonl"),
        ("convert", str(games), "--to", "jsonl"),
    ):
        _code, out, _ = renju(capsys, *args)
        lines = out.splitlines()
        assert len(lines) == 3 == out.count("\n"), args
        assert "\\u0085" in lines[0] and "\\u2028" in lines[0] and "\\u2029" in lines[0]
    assert json.loads(lines[0])["metadata"]["event"] == said  # (convert's, as read)
    _code, out, _ = renju(capsys, "check", str(games), "--format", "json")
    assert json.loads(out)["records"][0]["metadata"]["event"] == said


def test_stdin_and_compact_notation(capsys: pytest.CaptureFixture[str]) -> None:
    _code, out, _ = renju(
        capsys,
        "check",
        "-",
        "--format",
        "jsonl",
        stdin="1. h8 2. i9 3. h9 4. i10 5. h10 6. i11 7. h11 8. g8 9. h12\nH8,I9+h9i10\n",
    )
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["result"]["winner"] == "black"
    assert second["moves"] == 4
    assert first["source"]["path"] == "<stdin>"


def test_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    _code, out, _ = renju(capsys, "check", str(EXAMPLES), "-f", "jsonl", "-o", str(target))
    assert out == ""
    assert len(target.read_text().splitlines()) == 5


def test_forbidden_on_a_diagram(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "pos.txt"
    f.write_text(DOUBLE_THREE_POSITION)
    code, out, _ = renju(capsys, "forbidden", str(f), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["forbidden"] == [{"point": "e5", "kinds": ["double-three"]}]
    code, out, _ = renju(capsys, "forbidden", str(f))
    assert out.strip() == "e5 double-three"


def test_forbidden_on_a_record_at_a_move(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "black-double-three.txt")
    doc = json.loads(renju(capsys, "forbidden", path, "--at", "8", "-f", "json")[1])
    assert {"point": "h8", "kinds": ["double-three"]} in doc["forbidden"]
    assert doc["moves"] == 8 and doc["to_move"] == "black"


def test_show_marks_numbers_five_and_forbidden_points(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = renju(capsys, "show", str(EXAMPLES / "black-five.txt"))
    assert code == 0
    assert "9*" in out and "five: h8-h9-h10-h11-h12" in out
    code, out, _ = renju(
        capsys, "show", str(EXAMPLES / "black-double-three.txt"), "--at", "8", "--stones"
    )
    row8 = next(line for line in out.splitlines() if line.startswith(" 8"))
    assert row8.split()[1:] == [
        ".",
        ".",
        ".",
        ".",
        ".",
        "X",
        "X",
        "3",
        ".",
        ".",
        ".",
        ".",
        ".",
        ".",
        ".",
    ]
    doc = json.loads(renju(capsys, "show", str(EXAMPLES / "black-five.txt"), "-f", "json")[1])
    assert doc["five"] == ["h8", "h9", "h10", "h11", "h12"]


def test_rules_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = renju(capsys, "rules", "list")
    assert code == 0 and "renju" in out and "official:" in out
    code, out, _ = renju(capsys, "rules", "show", "renju")
    assert "double-three" in out and "recursively" in out
    good = tmp_path / "good.yaml"
    good.write_text("extends: renju\nname: good\n")
    assert renju(capsys, "rules", "check", str(good))[0] == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\npasses:\n  not_before: 0\n")
    code, _, err = renju(capsys, "rules", "check", str(bad))
    assert code == 2
    assert f"{bad}:3: passes.not_before:" in err


def test_convert_to_notation_and_jsonl(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = renju(capsys, "convert", str(EXAMPLES / "black-five.txt"), "--to", "notation")
    assert out.strip() == "black h8 i9 h9 i10 h10 i11 h11 g8 h12"
    _code, out, _ = renju(capsys, "convert", str(EXAMPLES / "gomoku-overline.jsonl"))
    doc = json.loads(out)
    assert doc["rule"] == "standard" and doc["moves"].startswith("c8 a1")


def test_help_on_every_command_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["--help"],
        ["check", "--help"],
        ["forbidden", "--help"],
        ["show", "--help"],
        ["rules", "--help"],
        ["rules", "list", "--help"],
        ["rules", "show", "--help"],
        ["rules", "check", "--help"],
        ["convert", "--help"],
    ):
        code, out, _ = renju(capsys, *args)
        assert code == 0
        assert "Example" in out, args


def test_python_dash_m_and_version() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "renju_cli",
            "check",
            str(EXAMPLES / "black-five.txt"),
            "-f",
            "jsonl",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["winner"] == "black"
    done = subprocess.run(
        [sys.executable, "-m", "renju_cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "renju" in done.stdout


def test_positions_follow_the_opening_course(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """show/forbidden see the board the referee sees: moved stones move (Nokhrin) and a
    rejected opening is cleared (Taimla)."""
    moved = tmp_path / "nokhrin.txt"
    moved.write_text("h8 h9 i10 g7 j10 i10-i9 g7-g6 black k7\n")
    doc = json.loads(renju(capsys, "show", str(moved), "--rules", "nokhrin", "-f", "json")[1])
    stones = sorted((s["point"], s["color"], s["move"]) for s in doc["stones"])
    assert stones == [
        ("g6", "white", 4),
        ("h8", "black", 1),
        ("h9", "white", 2),
        ("i9", "black", 3),
        ("j10", "black", 5),
        ("k7", "white", 6),
    ]
    rejected = tmp_path / "taimla.txt"
    rejected.write_text("h8 h9 i10 a2 b2 reject h8 noswap h9 noswap i10\n")
    doc = json.loads(renju(capsys, "show", str(rejected), "--rules", "taimla", "-f", "json")[1])
    assert sorted((s["point"], s["move"]) for s in doc["stones"]) == [
        ("h8", 6),
        ("h9", 7),
        ("i10", 8),
    ]


def test_the_command_line_collects_cycles_less_often_but_tests_keep_their_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    from renju_cli.cli import main

    before = gc.get_threshold()
    try:
        monkeypatch.setattr(sys, "argv", ["renju", "rules", "list"])
        with contextlib.suppress(SystemExit):
            main()  # as the console script runs it
        assert gc.get_threshold() == (50_000, 20, 100)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    with contextlib.suppress(SystemExit):
        main(["rules", "list"])  # given its arguments: the caller's process is left alone
    assert gc.get_threshold() == before


@pytest.mark.parametrize(
    "command",
    [["check"], ["diff", "-r", "renju", "-r", "freestyle"], ["show"], ["forbidden"], ["convert"]],
)
def test_an_unknown_input_format_is_a_usage_error_everywhere(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # show, forbidden and convert ended in an internal error (ValueError: unknown format)
    code, _, err = renju(capsys, command[0], "-", *command[1:], "--input-format", "nope",
                         stdin="h8\n")  # fmt: skip
    assert code == 2 and "unknown input format 'nope'" in err


@pytest.mark.parametrize("option", ["--at", "--record"])
@pytest.mark.parametrize("command", ["show", "forbidden"])
def test_a_negative_move_or_record_number_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], command: str, option: str
) -> None:
    # --at -1 drew an empty board with exit code 0
    code, _, err = renju(capsys, command, "-", option, "-1", stdin="h8 h9\n")
    expected = "-1 is not in the range" if option == "--at" else "'-1' is not a record id"
    assert code == 2 and expected in err


@pytest.mark.parametrize("command", ["show", "forbidden"])
def test_a_position_read_only_in_part_is_said_and_exits_1(
    capsys: pytest.CaptureFixture[str], command: str, tmp_path: Path
) -> None:
    # "h1O" (a typo): the reader keeps the 6 moves before it; show and forbidden used them
    # without a word, with exit code 0, where check gives a parse-error
    typo = tmp_path / "typo.txt"
    typo.write_text("h8 a1 g8 a2 h9 a3 h1O a4 h10\n")
    code, out, err = renju(capsys, command, str(typo))
    assert code == 1 and out
    assert "column 21" in err and "found 'O'" in err


def test_diff_exits_1_when_a_record_cannot_be_read(capsys: pytest.CaptureFixture[str]) -> None:
    # empty standard input: one unreadable record, which diff counted but exited 0 on
    code, out, _ = renju(capsys, "diff", "-", "-r", "renju", "-r", "freestyle", stdin="")
    assert code == 1 and "1 unreadable" in out


@pytest.mark.parametrize(
    "encoding", ["utf-16", "utf-16-le", "utf-32", "cp037", "utf-7", "hz", "johab", "ms1361"]
)
def test_an_encoding_that_is_not_ascii_compatible_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], encoding: str
) -> None:
    # text files are cut into lines and records as ASCII bytes: --encoding utf-16 decoded
    # lines of even length as UTF-16 (garbage) and odd ones as UTF-8, and the --jobs 2 slicer
    # cut a continued record in two where the reader did not
    # (Johab reads "<", "=" and ">" as second bytes: a byte of a cp1251 name took the "<" of
    # the tag after it, and a RenjuNet game was lost to a false syntax error)
    code, _, err = renju(capsys, "check", "-", "--encoding", encoding, stdin="h8\n")
    assert code == 2 and "byte order mark" in err
    for fine in ("cp1251", "gbk", "big5", "shift_jis", "cp949", "euc-kr", "latin-1", "utf-8"):
        code, _, _ = renju(capsys, "check", "-", "--encoding", fine, stdin="h8\n")
        assert code == 0, fine


def test_show_lists_a_bounded_number_of_problems(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # an SGF game of 5,000 junk nodes, one problem each: show printed one 10 MB line
    junk = tmp_path / "junk.sgf"
    junk.write_text("(;SZ[15];B[hh]" + ";!\n" * 5000 + ")")
    code, _, err = renju(capsys, "show", str(junk))
    assert code in (1, 2)
    assert len(err) < 5000 and "and 981 more problem(s)" in err  # 1,000 made, one counts the rest
    # unreadable: the one usage line is bounded too
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[99]" + ";!\n" * 5000 + ")")
    code, _, err = renju(capsys, "show", str(bad))
    assert code == 2 and len(err) < 5000


@pytest.mark.parametrize("command", ["show", "forbidden"])
def test_at_past_the_last_move_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # --at 100 of a 3-move game showed move 3 without a word; the position after
    # the last move is still what is shown, exit code 0
    from helpers import run_cli

    game = tmp_path / "three.txt"
    game.write_text("h8 h9 i10\n")
    code, out, err = run_cli(capsys, command, str(game), "--at", "100", "--format", "json")
    assert code == 0 and json.loads(out)["moves"] == 3
    assert err == (
        "renju: the record has 3 move(s); --at 100 is past its end: the position after its "
        "last move is used\n"
    )
    code, _, err = run_cli(capsys, command, str(game), "--at", "3")
    assert code == 0 and err == ""


def test_option_values_that_cannot_do_what_they_say_are_usage_errors_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # "check - -" read standard input once and called the second one empty; a
    # --select of duplicates without --duplicates found none and exited 0; --html naming a
    # file failed after the whole report was written, saying "File exists"
    code, out, err = renju(capsys, "check", "-", "-", stdin="h8 h9\n")
    assert (code, out) == (2, "") and "given more than once" in err
    code, out, err = renju(capsys, "check", "-", "--select", "duplicate", stdin="h8 h9\n")
    assert (code, out) == (2, "") and "only --duplicates report" in err
    code, _, _ = renju(
        capsys, "check", "-", "--select", "duplicate", "--duplicates", "report", stdin="h8 h9\n"
    )
    assert code == 0
    a_file = tmp_path / "report"
    a_file.write_text("x")
    code, out, err = renju(capsys, "check", "-", "--html", str(a_file), stdin="h8 h9\n")
    assert (code, out) == (2, "") and "not a directory" in err


def test_html_dash_is_a_usage_error_not_a_directory_named_dash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # '-' means standard output for -o; --html - made a directory called '-'
    monkeypatch.chdir(tmp_path)
    code, out, err = renju(capsys, "check", "-", "--html", "-", stdin="h8 h9\n")
    assert (code, out) == (2, "") and "not one stream" in err
    assert not (tmp_path / "-").exists()
    code, _, _ = renju(capsys, "check", "-", "--html", "./-", stdin="h8 h9\n")
    assert code == 0 and (tmp_path / "-" / "index.html").is_file()
