"""``renju convert``: real samples to SGF / psq / JSON Lines and back give the same games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from renju_cli.api import read_path
from renju_cli.cli import main
from renju_cli.formats import ReadOptions, read_stream
from renju_cli.record import Record

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def corpus(rel: str) -> Path:
    path = CORPUS / rel
    if not path.exists():
        pytest.skip(f"the team's sample {path} is not here (../shared/corpus absent)")
    return path


def convert(*args: str) -> int:
    try:
        main(["convert", *args])
    except SystemExit as e:
        return int(e.code or 0)
    return 0


def summary(records: list[Record]) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for r in records:
        offers = [p.name for e in r.opening_events if e.kind == "offers" for p in e.points]
        winner = r.declared_result.winner if r.declared_result else None
        out.append((tuple(m.point for m in r.moves), tuple(offers), winner))
    return out


@pytest.mark.parametrize(
    "rel", ["renlib/D4.lib", "psq/1x0-16_2.psq", "playok/playok_evacoregen6_2021.pgn"]
)
@pytest.mark.parametrize("fmt", ["sgf", "jsonl"])
def test_real_samples_round_trip(
    rel: str, fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = corpus(rel)
    out = tmp_path / f"out.{fmt}"
    records = [r for r in read_path(str(src)) if not r.unreadable]
    # SGF has no property for a colour choice (PlayOK's swap2 games), JSON Lines none for the
    # comment of a move (RenLib's): those records are refused
    refused = [
        r
        for r in records
        if (fmt == "sgf" and any(e.kind == "choose" for e in r.opening_events))
        or (fmt == "jsonl" and any(m.comment for m in r.moves))
    ]
    assert convert(str(src), "--to", fmt, "-o", str(out)) == (1 if refused else 0)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(refused)
    why = "SGF has no place for the choice of" if fmt == "sgf" else " comment(s) (the first: "
    assert all(f"cannot be written as {fmt}: " in e and why in e for e in err)
    before = summary([r for r in records if r not in refused])
    after = summary(list(read_path(str(out))))
    assert len(after) == len(before) > 0
    assert after == before


def test_psq_sample_to_psq_files(tmp_path: Path) -> None:
    src = corpus("psq/1x0-16_2.psq")
    assert convert(str(src), "--to", "psq", "-o", str(tmp_path)) == 0
    files = sorted(tmp_path.glob("*.psq"))
    assert len(files) == 1
    with open(files[0], "rb") as f:
        again = list(read_stream(f, str(files[0]), "psq", ReadOptions()))
    original = list(read_path(str(src)))
    assert [m.point for m in again[0].moves] == [m.point for m in original[0].moves]
    assert (again[0].width, again[0].height) == (20, 20)


def test_offers_and_swaps_survive_sgf(tmp_path: Path) -> None:
    src = tmp_path / "game.txt"
    src.write_text("black h8 h9 i9 swap i10 {j10 k7} j10 g8\n")
    out = tmp_path / "game.sgf"
    assert convert(str(src), "--to", "sgf", "-o", str(out)) == 0
    back = next(read_path(str(out)))
    assert [e.kind for e in back.opening_events] == ["swap", "offers"]
    assert [p.name for p in back.opening_events[1].points] == ["j10", "k7"]
    assert back.declared_result is not None and back.declared_result.winner == "black"


def test_unreadable_input_is_reported_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.psq"
    bad.write_bytes(b"\x00\x01garbage")
    assert convert(str(bad), "--to", "jsonl", "-o", str(tmp_path / "o.jsonl")) == 1


# -- what cannot be written is refused, never dropped ------------------------------------------

DIAGRAM_26 = "\n".join(
    ["X" + "." * 24 + "O"] + ["." * 26] * 12 + ["." * 7 + "X" + "." * 18] + ["." * 26] * 12
)

#: name -> (file name, content, ruleset, the target formats that hold it whole)
EXAMPLES = {
    "taimla": (
        "taimla.txt",
        "h8 h9 i10 a2 b2 reject h8 h9 i10 i7 N=2 {j10 g10} j10 k7\n",
        "taimla",
        {"jsonl", "notation"},
    ),
    "lijing": (
        "lijing.txt",
        "h8 h9 i10 {i7 g7} {j10 g10} i7 j10 k7\n",
        "lijing",
        {"jsonl", "notation"},
    ),
    "nokhrin": (
        "nokhrin.txt",
        "h8 h9 i10 g7 j10 i10-i9 white k7\n",
        "nokhrin",
        {"jsonl", "notation"},
    ),
    "diagram": ("big.board", DIAGRAM_26 + "\n", "renju", {"sgf"}),
    "taraguchi": (
        "taraguchi.txt",
        "h8 swap h9 noswap i10 noswap i7 noswap {j10 g10 k11 f6 l4 d12 m12 b3 n9 e5} f6 k7\n",
        "taraguchi-10",
        {"jsonl", "notation", "sgf"},
    ),
    "rif": (
        "rif.txt",
        "black h8 h9 i10 swap i7 {j10 g10} j10 k7 c12 a1 d12 c1 e12 e1 f12 g1 g12\n",
        "renju-rif",
        {"jsonl", "notation", "sgf"},
    ),
}

SUFFIX = {"jsonl": ".jsonl", "notation": ".txt", "sgf": ".sgf", "psq": ""}


def checked(path: Path, rules: str, capsys: pytest.CaptureFixture[str]) -> list[object]:
    """What ``renju check`` says of each record of ``path``: result, opening, findings."""
    capsys.readouterr()
    try:
        main(["check", str(path), "--rules", rules, "--format", "jsonl", "--fail-on", "never"])
    except SystemExit as e:
        assert e.code in (0, None)
    out: list[object] = []
    for line in capsys.readouterr().out.splitlines():
        obj = json.loads(line)
        findings = [
            (f["code"], f["severity"], f.get("move"), f.get("point")) for f in obj["findings"]
        ]
        out.append((obj["moves"], obj["result"], obj["opening"], findings))
    return out


@pytest.mark.parametrize("example", sorted(EXAMPLES))
@pytest.mark.parametrize("to", ["jsonl", "notation", "sgf", "psq"])
def test_examples_round_trip_or_are_refused(
    example: str, to: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, text, rules, holds = EXAMPLES[example]
    src = tmp_path / name
    src.write_text(text)
    out = tmp_path / f"out{SUFFIX[to]}"
    before = checked(src, rules, capsys)
    code = convert(str(src), "--to", to, "-o", str(out))
    err = capsys.readouterr().err
    if to in holds:
        assert (code, err) == (0, "")
        if to == "psq":
            (out,) = out.glob("*.psq")
        assert checked(out, rules, capsys) == before
    else:
        assert code == 1
        assert f"{src} [0]: cannot be written as {to}: " in err
        assert len(err.splitlines()) == 1
        written = list(out.glob("*")) if out.is_dir() else [out] if out.exists() else []
        assert all(p.stat().st_size == 0 for p in written)


def test_refusals_name_what_would_be_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for key, target, words in [
        ("taimla", "sgf", ["reject", "N=2"]),
        ("nokhrin", "sgf", ["i10-i9", "choice of white"]),
        ("lijing", "sgf", ["{i7 g7}", "{j10 g10}"]),
        ("diagram", "notation", ["3 setup stone(s)", "board size 26x26"]),
        ("diagram", "jsonl", ["setup stone"]),
        ("lijing", "psq", ["opening decisions"]),
    ]:
        name, text, _, _ = EXAMPLES[key]
        src = tmp_path / name
        src.write_text(text)
        assert convert(str(src), "--to", target, "-o", str(tmp_path / f"{key}.{target}")) == 1
        err = capsys.readouterr().err
        for word in words:
            assert word in err, (key, target, err)


def test_jsonl_keeps_offer_groups_apart_and_in_place(tmp_path: Path) -> None:
    src = tmp_path / "lijing.txt"
    src.write_text(EXAMPLES["lijing"][1])
    out = tmp_path / "o.jsonl"
    assert convert(str(src), "--to", "jsonl", "-o", str(out)) == 0
    obj = json.loads(out.read_text())
    assert obj["moves"] == "h8 h9 i10 {i7 g7} {j10 g10} i7 j10 k7"
    assert "offers" not in obj
    events = [
        (e.kind, e.after, [p.name for p in e.points])
        for e in next(read_path(str(out))).opening_events
    ]
    assert events == [("offers", 3, ["i7", "g7"]), ("offers", 3, ["j10", "g10"])]


def test_jsonl_offers_of_a_short_record_stay_where_they_were(tmp_path: Path) -> None:
    src = tmp_path / "short.jsonl"
    src.write_text('{"moves": "h8 h9", "offers": ["j10", "k7"]}\n')
    out = tmp_path / "o.jsonl"
    assert convert(str(src), "--to", "jsonl", "-o", str(out)) == 0
    (again,) = read_path(str(out))
    assert [(e.kind, e.after) for e in again.opening_events] == [("offers", 4)]


def test_sgf_keeps_a_declined_swap_before_offers_in_order(tmp_path: Path) -> None:
    src = tmp_path / "t.txt"
    src.write_text("h8 h9 i10 i7 noswap {j10 g10} j10 k7\n")
    out = tmp_path / "o.sgf"
    assert convert(str(src), "--to", "sgf", "-o", str(out)) == 0
    (again,) = read_path(str(out))
    assert [(e.kind, e.after) for e in again.opening_events] == [("no-swap", 4), ("offers", 4)]


@pytest.mark.parametrize("target", ["afile", "/dev/null", "/proc/nope/dir"])
def test_psq_output_that_is_no_directory_is_a_usage_error(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "g.txt"
    src.write_text("h8 h9 i8 g8 j8 k8 i9 i10 j10 k11\n")
    if target == "afile":
        (tmp_path / "afile").write_text("")
        target = str(tmp_path / "afile")
    elif not Path(target).parent.parent.exists():
        pytest.skip(f"{target}: no such system directory here")
    assert convert(str(src), "--to", "psq", "-o", target) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"renju: cannot write {target}: ")
    assert len(err.splitlines()) == 1
    if target.endswith("afile"):
        assert "not a directory" in err
        assert (tmp_path / "afile").read_text() == ""


def test_psq_output_directory_is_made(tmp_path: Path) -> None:
    src = tmp_path / "g.txt"
    src.write_text("h8 h9 i8 g8 j8 k8 i9 i10 j10 k11\n")
    target = tmp_path / "new" / "dir"
    assert convert(str(src), "--to", "psq", "-o", str(target)) == 0
    assert [p.name for p in target.iterdir()] == ["g-00000.psq"]


@pytest.mark.parametrize("fmt", ["nope", ""])
def test_unknown_input_format_is_a_usage_error(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "g.txt"
    src.write_text("h8 h9 i8 g8 j8 k8 i9 i10 j10 k11\n")
    assert convert(str(src), "--input-format", fmt) == 2
    assert f"unknown input format {fmt!r}" in capsys.readouterr().err


def test_a_shipped_rule_name_survives_sgf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RU[caro] read back as no rule at all: every record naming caro, sakata, pro... was
    # refused ("it would lose the rule"); RU[renju] reads as the RIF rules, as SGF files of
    # other programs mean it, so a record of the shipped "renju" is still refused
    src = tmp_path / "rules.jsonl"
    src.write_text(
        "".join(f'{{"moves":"h8 h9","rule":"{r}"}}\n' for r in ("caro", "sakata", "pro", "renju"))
    )
    out = tmp_path / "out.sgf"
    assert convert(str(src), "--to", "sgf", "-o", str(out)) == 1
    err = capsys.readouterr().err
    assert err.count("cannot be written as sgf") == 1 and "'renju'" in err
    assert [r.rule for r in read_path(str(out))] == ["caro", "sakata", "pro"]


def test_the_read_back_is_not_bound_by_the_inputs_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --limit string=100 cut the comment of the input; the read-back of the output applied the
    # same bound to its own (cut) text and refused the record
    src = tmp_path / "long.sgf"
    src.write_text("(;GM[4]SZ[15]C[" + "x" * 200 + "];B[hh];W[ii])\n")
    assert convert(str(src), "--to", "jsonl", "--limit", "string=100") == 0


def test_renjunet_swap_flags_survive_json_lines(tmp_path: Path) -> None:
    # RenjuNet records its swaps as flags without the move they came after ("-s": declined at
    # the first opportunity, swapped at the second); JSON Lines had no place for them and
    # refused most RenjuNet games.  "swaps" holds them now
    from renju_cli.formats import jsonl

    db = tmp_path / "db.rif"
    db.write_text(
        "<?xml version='1.0'?><database><games>"
        '<game id="1" swap="-1"><move>h8 h9 i10 i7 j10</move></game>'
        "</games></database>"
    )
    out = tmp_path / "db.jsonl"
    assert convert(str(db), "--to", "jsonl", "-o", str(out)) == 0
    assert json.loads(out.read_text())["swaps"] == "-s"
    (before,), (after,) = read_path(str(db)), read_path(str(out))
    assert after.opening_events == before.opening_events
    # what swap_flags cannot write as flags (a swap tied to a move) stays in the moves
    rec = jsonl.record_from_json({"moves": "h8 h9 i10 swap i7"}, "m.jsonl", 0, 1)
    assert "swaps" not in jsonl.to_json(rec)


def test_json_lines_swaps_of_another_kind_are_a_parse_error() -> None:
    from renju_cli.formats import jsonl

    rec = jsonl.record_from_json({"moves": "h8 h9", "swaps": [1]}, "m.jsonl", 0, 1)
    assert [p.message for p in rec.problems] == [
        "line 1: swaps: expected a string of flags such as '-s'"
    ]
    rec = jsonl.record_from_json({"moves": "h8", "swaps": "s" * 5000}, "m.jsonl", 0, 1)
    assert len(rec.opening_events) == 4096 and rec.notes


def test_psq_needs_the_directory_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a file per record: without -o, a megabyte of short records made 50,000 files in the
    # working directory, unasked
    src = tmp_path / "games.txt"
    src.write_text("h8 h9 i10\nh8 h9 i8\n")
    monkeypatch.chdir(tmp_path)
    assert convert(str(src), "--to", "psq") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.txt"]


def test_a_line_of_a_tree_is_named_by_its_id() -> None:
    # the lines of an SGF tree share their index: the id tells which line a message is about
    # (messages named "sgf-comb.bin [0]" alike), as check prints it
    from renju_cli.cli.losses import named
    from renju_cli.record import SourceLocation

    def name(variation: str | None) -> str:
        return named(Record([], SourceLocation("tree.sgf", 0, 1, None, variation)))

    assert name("1.2") == "tree.sgf [0.1.2]"
    assert name("main") == name(None) == "tree.sgf [0]"


@pytest.mark.parametrize("to", ["jsonl", "notation", "sgf"])
def test_a_record_read_in_part_is_not_converted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str
) -> None:
    # "foo" is no move: the reader stops the line there, and i10 j11 were dropped without a
    # word, the rest written as a clean record, exit 0; "hello world" became an
    # empty record
    from helpers import run_cli

    games = tmp_path / "partial.txt"
    games.write_text("h8 h9 foo i10 j11\nhello world\nh8 h9 i10\n")
    code, out, err = run_cli(capsys, "convert", str(games), "--to", to)
    assert code == 1
    said = "not converted: it was read with problems, which the copy would lose (--keep-damaged"
    assert f"{games} [0]: {said} writes it): line 1, column 7:" in err
    assert f"{games} [1]: {said}" in err
    import io

    (written,) = read_stream(io.BytesIO(out.encode()), "out", to)  # the whole record only
    assert [m.point.name for m in written.moves if m.point] == ["h8", "h9", "i10"]


def test_keep_damaged_writes_records_read_with_problems_as_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a psq file without its header: every move read, the size assumed: refused by default,
    # as any record read with problems; written when asked
    from helpers import run_cli

    psq = tmp_path / "nohdr.psq"
    psq.write_text("8,8,0\n9,9,0\n")
    code, out, err = run_cli(capsys, "convert", str(psq))
    assert code == 1 and out == "" and "not converted: it was read with problems" in err
    code, out, err = run_cli(capsys, "convert", str(psq), "--keep-damaged")
    assert code == 1 and f"{psq} [0]: written as read, with problems:" in err
    assert json.loads(out)["moves"] == "h8 i7"  # (psq rows count from the top)
    # one the target cannot hold is not said to be written (both were said)
    damaged = tmp_path / "choice.txt"
    damaged.write_text("h8 h9 i10 white i9 foo\n")
    code, out, err = run_cli(capsys, "convert", str(damaged), "--to", "sgf", "--keep-damaged")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"{damaged} [0]: cannot be written as sgf: SGF has no place for the choice of white "
        "after move 3"
    ]


#: A black win by five under freestyle and under standard gomoku; under renju (the default of a
#: record that names no rule) the first is a win by five too, the second black's overline.
GOMOKU = (
    '{"moves": "h8 a1 i8 a2 j8 a3 k8 a4 g8", "rule": "freestyle", "result": "black"}\n'
    '{"moves": "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8 a11 j12 a13 k12 n1 l12 n3 m12 n5 n12", '
    '"rule": "standard", "result": "black"}\n'
)


def _results(capsys: pytest.CaptureFixture[str], *args: str) -> list[tuple[object, ...]]:
    """(ruleset, result, declared winner) of each record ``renju check ARGS`` reports."""
    from helpers import run_cli

    _, out, _ = run_cli(capsys, "check", *args, "-f", "jsonl")
    reports = [json.loads(line) for line in out.splitlines()]
    return [
        (r["ruleset"], r["result"], (r["declared_result"] or {}).get("winner")) for r in reports
    ]


@pytest.mark.parametrize("to", ["notation", "psq"])
def test_a_gomoku_record_is_not_written_without_its_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str
) -> None:
    # standard notation and psq hold no rule: a black win by five under standard gomoku became
    # a white win by black's overline under renju when checked again
    from helpers import run_cli

    src = tmp_path / "gomoku.jsonl"
    src.write_text(GOMOKU)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "convert", str(src), "--to", to, "-o", str(out))
    assert code == 1
    assert "[0]: cannot be written as " + to + ": it would lose " in err
    assert "the rule 'freestyle'" in err and "the rule 'standard'" in err
    assert "--lossy writes it" in err
    assert not out.exists() or (out.is_dir() and not any(out.iterdir())) or not out.read_text()


@pytest.mark.parametrize("to", ["notation", "psq"])
def test_lossy_writes_a_gomoku_record_and_says_what_it_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str
) -> None:
    from helpers import run_cli

    src = tmp_path / "gomoku.jsonl"
    src.write_text(GOMOKU)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "convert", str(src), "--to", to, "-o", str(out), "--lossy")
    assert code == 0
    assert f"[1]: written as {to} without " in err and "the rule 'standard'" in err
    # (psq: a file per record; notation: a line per record)
    copies = [(p, "0") for p in sorted(out.glob("*.psq"))] or [(out, "0"), (out, "1")]
    # the copy checked under the rule it lost: the same results as the record
    for rule, (copy, wanted), n in zip(("freestyle", "standard"), copies, "01", strict=True):
        again = _results(capsys, str(copy), "--rules", rule, "--record", wanted)
        original = _results(capsys, str(src), "--record", n)
        assert [r[:2] for r in again] == [r[:2] for r in original]
        assert original[0][1]["winner"] == "black" and original[0][1]["reason"] == "five"


@pytest.mark.parametrize("to", ["sgf", "jsonl"])
def test_a_gomoku_record_keeps_its_rule_where_the_format_holds_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str
) -> None:
    from helpers import run_cli

    src = tmp_path / "gomoku.jsonl"
    src.write_text(GOMOKU)
    out = tmp_path / f"out.{to}"
    assert run_cli(capsys, "convert", str(src), "--to", to, "-o", str(out))[0] == 0
    assert _results(capsys, str(out)) == _results(capsys, str(src))
    assert [r[0] for r in _results(capsys, str(out))] == ["freestyle", "standard"]


@pytest.mark.parametrize(
    ("record", "to", "lost"),
    [
        # the reason of a declared result: standard notation writes the winner alone
        ("(;GM[4]SZ[15]RE[B+R];B[hh];W[hi])", "notation", "the declared result (black, resign"),
        # psq holds no declared winner of a game that ended on the board
        ('{"moves": "h8 h9", "result": "white"}', "psq", "the declared result (white; read back"),
        # comments: of a move, of the record
        ("(;GM[4]SZ[15];B[hh]C[a good move];W[hi])", "notation", "1 comment(s)"),
        ("(;GM[4]SZ[15]C[a famous game];B[hh];W[hi])", "psq", "1 comment(s)"),
        # the opening id a record declares
        ('{"moves": "h8 h9 i9", "opening": "D4"}', "notation", "the opening id 'D4'"),
    ],
)
def test_what_a_target_cannot_hold_is_said_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: str, to: str, lost: str
) -> None:
    from helpers import run_cli

    src = tmp_path / ("game.sgf" if record.startswith("(") else "game.jsonl")
    src.write_text(record + "\n")
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "convert", str(src), "--to", to, "-o", str(out))
    assert code == 1 and "it would lose " in err and lost in err
    code, _, err = run_cli(capsys, "convert", str(src), "--to", to, "-o", str(out), "--lossy")
    assert code == 0 and f"written as {to} without " in err and lost in err


EXAMPLE_FILES = Path(__file__).resolve().parents[1] / "examples"


def test_psq_keeps_a_declared_result_the_board_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # psq's result code 0, a normal end, says what the board says: a declared black win by a
    # five on the board is no loss, nor white's win by black's forbidden move
    from helpers import run_cli

    for example in ("black-five.txt", "black-double-three.txt"):
        out = tmp_path / example
        code, _, err = run_cli(
            capsys, "convert", str(EXAMPLE_FILES / example), "--to", "psq", "-o", str(out)
        )
        assert (code, err) == (0, "")
        assert [r[1] for r in _results(capsys, str(out))] == [
            r[1] for r in _results(capsys, str(EXAMPLE_FILES / example))
        ]


# -- Gomotur rec, one game per file --------------------------------------------------------------

#: A rec file as Piskvork's tournament manager writes it: two engine names, then ``x,y,ms``
#: counted from 0 (the first stone is h8 of a 15x15 board), then the result code (0: a normal
#: end). Black wins by five on the row g8-k8.
REC_GAME = (
    "pbrain-a\npbrain-b\n7,7,10\n7,6,12\n8,7,9\n8,6,11\n6,7,8\n6,6,7\n9,7,5\n5,6,9\n10,7,4\n0\n"
)


def test_rec_converts_to_psq_and_back_without_a_change(tmp_path: Path) -> None:
    src = tmp_path / "match.rec"
    src.write_text(REC_GAME)
    psq_dir, rec_dir = tmp_path / "psq", tmp_path / "rec"
    assert convert(str(src), "--to", "psq", "-o", str(psq_dir)) == 0
    (psq,) = psq_dir.glob("*.psq")
    assert convert(str(psq), "--to", "rec", "-o", str(rec_dir)) == 0
    (again,) = rec_dir.glob("*.rec")
    original, back = next(read_path(str(src))), next(read_path(str(again)))
    assert [m.point for m in back.moves] == [m.point for m in original.moves]
    assert [m.point.name for m in back.moves if m.point][:3] == ["h8", "h9", "i8"]
    assert back.metadata["black"] == "pbrain-a" and back.metadata["white"] == "pbrain-b"


def test_rec_needs_the_directory_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "match.rec"
    src.write_text(REC_GAME)
    assert convert(str(src), "--to", "rec") == 2
    assert "--to rec writes one file per record" in capsys.readouterr().err


def test_a_record_read_with_an_info_problem_is_converted(tmp_path: Path) -> None:
    # a psq of a script: no time field and a 0 coordinate, so counted from 0 (an info finding
    # says so); the record is whole, and its copy holds the same stones
    src = tmp_path / "script.psq"
    src.write_text("Piskvorky 15x15, 0:0, 0\n7,7\n0,14\n8,8\n-1")
    (original,) = read_path(str(src))
    assert original.problems and all(p.severity == "info" for p in original.problems)
    out = tmp_path / "out.jsonl"
    assert convert(str(src), "--to", "jsonl", "-o", str(out)) == 0
    (back,) = read_path(str(out))
    assert [m.point for m in back.moves] == [m.point for m in original.moves]
