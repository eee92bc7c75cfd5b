"""The regression corpus: inputs that once crashed or misled a reader or the ruleset loader.

Every file of ``tests/data/regressions`` goes through format detection, every reader and the
ruleset loader (``fuzz_target`` checks the invariants); some files also pin what the fix does.
``*-fuzzed.bin`` files are the raw inputs ``fuzz/mutate.py`` found, the others minimal versions.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from renju_cli.formats import ReadOptions, read_stream
from renju_cli.record import Record
from renju_cli.ruleset import RulesetError, load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import fuzz_target

REGRESSIONS = Path(__file__).resolve().parent / "data" / "regressions"
FILES = sorted(p for p in REGRESSIONS.iterdir() if p.is_file() and p.suffix != ".md")


def records(name: str, fmt: str | None = None, options: ReadOptions | None = None) -> list[Record]:
    data = (REGRESSIONS / name).read_bytes()
    return list(read_stream(io.BufferedReader(io.BytesIO(data)), name, fmt, options))


def problems(recs: list[Record]) -> str:
    return "\n".join(p.message for r in recs for p in r.problems)


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_reader_and_no_loader_fails(path: Path) -> None:
    data = path.read_bytes()
    for fmt in (None, *fuzz_target.FORMATS):
        fuzz_target.run_input(data, fmt, str(path))
        # and under the tightest bounds, as the fuzzer reads one input in ten
        fuzz_target.run_input(data, fmt, str(path), options=fuzz_target.TIGHT)
    fuzz_target.run_ruleset(data)


def test_sgf_charset_names_that_are_no_text_encoding() -> None:
    # CA[ut\0f-8] made codecs.lookup raise ValueError; CA[zlib] made bytes.decode raise
    for name in ("sgf-ca-nul.sgf", "sgf-ca-not-text-codec.sgf"):
        recs = records(name)
        assert [r.format for r in recs] == ["sgf"] * len(recs)
        assert all(r.moves for r in recs)
        assert any("unknown charset" in n for r in recs for n in r.notes)
    assert records("sgf-ca-not-text-codec.sgf")[0].metadata["black"] == "café"


def test_jsonl_sizes_and_values_of_the_wrong_kind_are_parse_errors() -> None:
    recs = records("jsonl-bad-sizes.jsonl")
    assert len(recs) == 7
    for rec in recs[:5]:  # 10^20, true, -1, 27, 4: none is a 5..26 board
        assert rec.width is None and rec.moves
        assert "'size' must be a whole number from 5 to 26" in problems([rec])
    assert "'moves' as a list must hold points as strings" in problems([recs[5]])
    assert recs[5].declared_result is not None and recs[5].declared_result.reason is None
    assert recs[6].metadata == {"a": '[1, {"b": null}]'}


def test_jsonl_integers_longer_than_int_takes_are_read_as_their_digits() -> None:
    # Python refuses to convert more than 4,300 digits: the whole line was "not valid JSON",
    # with advice to call sys.set_int_max_str_digits()
    recs = records("jsonl-integers-of-5000-digits.jsonl")
    assert [len(r.moves) for r in recs] == [1, 1, 1]
    assert "'size' must be a whole number from 5 to 26, not a number of 5000 digits" in (
        problems(recs[:1])
    )
    assert recs[1].metadata["k"] == "-" + "9" * 5000 and not recs[1].problems
    assert recs[2].width == 15 and not recs[2].problems
    assert "set_int_max_str_digits" not in problems(recs)


def test_jsonl_a_bad_move_is_placed_once_in_its_moves() -> None:
    # "line 1: line 1, column 4: ..." said the line twice, the column as if in the line
    data = b'{"moves":"h8 zz9"}\n'
    [record] = read_stream(io.BufferedReader(io.BytesIO(data)), "m.jsonl")
    assert record.problems[0].message.startswith("line 1: in 'moves', column 4: expected a point")


def test_jsonl_a_rule_is_a_shipped_ruleset_in_any_case_or_a_note() -> None:
    # "Freestyle" or "foobar" were judged under renju without a word
    from renju_cli.api import judge_record

    data = b'{"moves":"h8","rule":"Freestyle"}\n{"moves":"h8","rule":"foobar"}\n'
    free, unknown = read_stream(io.BufferedReader(io.BytesIO(data)), "r.jsonl")
    assert free.rule == "freestyle" and not free.notes
    assert judge_record(free).ruleset == "freestyle"
    assert unknown.rule == "foobar" and judge_record(unknown).ruleset == "renju"
    assert unknown.notes == [
        "line 2: rule 'foobar' names no shipped ruleset ('renju rules list'): judged under "
        "--rules, or the default"
    ]


def test_jsonl_moves_are_bounded() -> None:
    (rec,) = records("jsonl-too-many-moves.jsonl")
    assert len(rec.moves) == ReadOptions().max_moves
    assert "more than the limit" in problems([rec])


def test_jsonl_nesting_is_a_parse_error_and_the_next_line_is_read() -> None:
    first, second = records("jsonl-deep-nesting.jsonl")
    assert first.unreadable and "nested too deeply" in problems([first])
    assert [m.point.name for m in second.moves if m.point] == ["h9"]


def test_playok_game_type_with_thousands_of_digits() -> None:
    (rec,) = records("playok-huge-gametype.pgn")
    assert rec.width is None and len(rec.moves) == 3
    assert any("GameType" in n for n in rec.notes)


def test_renjunet_digits_that_int_refuses() -> None:
    recs = records("renjunet-odd-digits.rif")
    assert [len(r.moves) for r in recs] == [2, 1]
    assert recs[0].width == 15 and "date" not in recs[1].metadata


def test_renlib_comb_is_refused_past_the_move_budget() -> None:
    recs = records("renlib-quadratic-comb.lib")
    assert recs[-1].unreadable and "a tree this repetitive is refused" in problems(recs[-1:])
    assert sum(len(r.moves) for r in recs) <= ReadOptions().move_budget(1620)
    # the same tree is read whole when the budget allows it
    everything = records("renlib-quadratic-comb.lib", None, ReadOptions(moves_allowance=10**6))
    assert len(everything) == 401 and not any(r.unreadable for r in everything)


def test_sgf_tree_expansion_is_bounded_too() -> None:
    # a 300-node main line whose every node has a one-node variation: ~45k moves in 2.4 kB
    sgf = b"(;SZ[15]" + b"".join(b";B[hh](;W[ii])(" for _ in range(300)) + b")" * 301
    recs = list(
        read_stream(
            io.BufferedReader(io.BytesIO(sgf)), "x.sgf", "sgf", ReadOptions(moves_allowance=0)
        )
    )
    assert recs[-1].unreadable and "a tree this repetitive is refused" in problems(recs[-1:])
    assert sum(len(r.moves) for r in recs) <= ReadOptions().moves_per_byte * len(sgf)


def test_sgf_problems_repeated_in_every_path_count_against_the_budget() -> None:
    # a root with 100 problems and 100 variations: every path repeats the root's problems
    # (the fuzzed original: 20 kB, 5,000 x 5,000, 25 million findings)
    name = "sgf-problems-in-every-path.sgf"
    whole = records(name)
    assert len(whole) == 100 and all(len(r.problems) >= 100 for r in whole)
    options = ReadOptions(moves_allowance=0)
    cut = records(name, None, options)
    size = (REGRESSIONS / name).stat().st_size
    held = sum(len(r.moves) + len(r.problems) + len(r.notes) for r in cut)
    assert held <= options.move_budget(size) + 200  # + the refusing record's own
    assert "a tree this repetitive is refused" in problems(cut[-1:])


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ruleset-deep-nesting.yaml", "nested deeper than"),
        ("ruleset-alias-bomb.yaml", "keys and items (with aliases expanded)"),
        ("ruleset-long-extends.yaml", "cannot find ruleset"),
        ("ruleset-glob-extends.yaml", "cannot find ruleset"),
        ("ruleset-nul-extends.yaml", "cannot find ruleset"),
        ("ruleset-python-tag.yaml", "could not determine a constructor"),
        ("ruleset-huge-int.yaml", "not valid YAML: Exceeds the limit"),
        ("ruleset-bad-timestamp.yaml", "not valid YAML: day is out of range"),
    ],
)
def test_hostile_rulesets_are_refused_with_a_message(name: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        load(str(REGRESSIONS / name))
    assert message in str(err.value)
    assert str(REGRESSIONS / name) in str(err.value)


def test_symmetric_offers_on_the_board_a_rejection_emptied() -> None:
    # the message names a stone of the board: after "reject" there is none, and the record
    # must not become an internal error (exit 3) under any opening ruleset
    from renju_cli.referee import replay_uncached

    for record in records("opening-symmetric-offers-after-a-rejection.jsonl"):
        assert record.rule is not None
        report = replay_uncached(record, load(record.rule))
        codes = [f.code for f in report.findings]
        assert "internal-error" not in codes and "reject-not-allowed" in codes
        [symmetric] = [f for f in report.findings if f.code == "offer-symmetric"]
        assert symmetric.message.startswith(
            "offers a1 and o15 for move 5 are symmetric: a half turn about h8 maps the empty "
            "board onto itself and a1 onto o15"
        )
