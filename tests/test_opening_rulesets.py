"""Each shipped opening ruleset against records that keep and break its steps, through the CLI.

The records are in ``tests/data/openings/NAME.txt``: one record per line, the findings expected
from ``renju check --rules NAME --format json`` in the comment (``code@move``).
"""

from __future__ import annotations

import io
from pathlib import Path

import helpers
import pytest
from click.testing import CliRunner
from helpers import check_json

from renju_cli import analyze
from renju_cli.cli import cli
from renju_cli.formats import ReadOptions, read_stream
from renju_cli.record import Record
from renju_cli.ruleset import load, shipped_names

DATA = Path(__file__).resolve().parent / "data" / "openings"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PROTOCOLS = [
    "renju-rif",
    "renju-swap",
    "yamaguchi",
    "soosyrv-8",
    "taraguchi-10",
    "tarannikov",
    "sakata",
    "super-sakata",
    "swap",
    "swap2",
    "pro",
    "long-pro",
]
ENGINE = ["gomocup-freestyle", "gomocup-standard", "gomocup-renju"]


def expectations(name: str) -> list[tuple[int, str, list[str]]]:
    return helpers.expectations(DATA, name)


def test_every_protocol_named_by_the_contract_is_shipped() -> None:
    assert set(PROTOCOLS + ENGINE) <= set(shipped_names())
    for name in PROTOCOLS:
        assert load(name).opening is not None, name
    assert {"soosyrv-n", "taraguchi-n"} <= set(shipped_names())


@pytest.mark.parametrize("name", PROTOCOLS + ENGINE)
def test_records_that_keep_and_break_each_step(name: str) -> None:
    cases = expectations(name)
    assert cases[0][2] in ([], ["unchecked@5"]), "the first record is a correct game"
    report = check_json(str(DATA / f"{name}.txt"), "--rules", name)
    records = report["records"]
    assert [r["source"]["line"] for r in records] == [n for n, _, _ in cases]
    for (n, text, expected), record in zip(cases, records, strict=True):
        got = sorted(f"{f['code']}@{f['move']}" for f in record["findings"])
        assert got == expected, f"{name}.txt line {n}: {text}"
        assert record["ruleset"] == name


@pytest.mark.parametrize("name", PROTOCOLS)
def test_the_correct_game_is_a_black_five(name: str) -> None:
    n, text, _ = expectations(name)[0]
    r = analyze(text, name)
    assert r["result"]["winner"] == "black" and r["result"]["reason"] == "five", f"line {n}"
    assert r["declared_result"] == {"winner": "black", "text": "black"}


def test_engine_rulesets() -> None:
    assert (load("gomocup-freestyle").width, load("gomocup-standard").width) == (20, 15)
    assert not any(load(n).passes_allowed for n in ENGINE)
    six = "j10 k11 t20 a1 s20 a3 r20 a5 q20 a7 o20 a9 p20"
    assert analyze(six, "gomocup-freestyle")["result"]["reason"] == "overline"
    draw = expectations("gomocup-renju")[-2][1]
    result = analyze(draw, "gomocup-renju")["result"]
    assert (result["winner"], result["reason"], result["move"]) == ("draw", "move-limit", 200)
    assert analyze(draw, "renju")["result"]["winner"] is None


def test_rules_show_prints_the_steps_in_words() -> None:
    out = CliRunner().invoke(cli, ["rules", "show", "taraguchi-10"]).output
    assert "opening: Taraguchi-10" in out
    assert "  7. white places white 4 in the central 7x7" in out
    assert "9a.1. black places black 5 in the central 9x9" in out
    assert "9b.1. black offers 10 points for move 5 anywhere" in out
    assert "no pass before move 4" in out
    out = CliRunner().invoke(cli, ["rules", "show", "super-sakata"]).output
    assert "6c add-two: add one white and one black stone anywhere (then the same choice" in out
    out = CliRunner().invoke(cli, ["rules", "show", "soosyrv-8"]).output
    assert "white declares the number of offers, 1 to 8" in out


@pytest.mark.parametrize(
    ("opening", "path", "words"),
    [
        ("{steps: [{jump: {}}]}", "opening.steps[0]", "'jump' was unexpected"),
        ("{steps: [{place: {}, swap: {}}]}", "opening.steps[0]", "too many properties"),
        ("{steps: [{place: {region: {central: 4}}}]}", "opening.steps[0].place.region", "4"),
        ("{steps: [{offer: {count: lots}}]}", "opening.steps[0].offer.count", "lots"),
        ("{steps: [{swap: {by: P3}}]}", "opening.steps[0].swap.by", "P3"),
        ("{name: x}", "opening", "'steps' is a required property"),
    ],
)
def test_rules_check_names_the_bad_step(
    tmp_path: Path, opening: str, path: str, words: str
) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text(f"name: mine\nextends: renju\nopening: {opening}\n", "utf-8")
    result = CliRunner().invoke(cli, ["rules", "check", str(f)])
    assert result.exit_code == 2
    assert f": {path}: " in result.output and words in result.output, result.output


# -- the opening as the formats carry it -------------------------------------------------------
def read(text: str, path: str) -> list[Record]:
    stream = io.BufferedReader(io.BytesIO(text.encode("utf-8")))
    return list(read_stream(stream, path, options=ReadOptions()))


RENJUNET = """<?xml version="1.0" encoding="UTF-8"?>
<database version="3" date="2024-01-01">
<rules><rule id="7" name="Taraguchi-10"/><rule id="8" name="RIF"/><rule id="9" name="Sakata"/>
</rules>
<openings><opening id="50" abbr="D2" name="Keigetsu"/><opening id="51" abbr="D4" name="Kagetsu"/>
</openings>
<games>
<game id="1" rule="7" bresult="1" opening="50" swap="-+--"><move>h8 h9 i10 i7 j10 k7</move></game>
<game id="2" rule="8" bresult="1" opening="51" swap="-+"><move>h8 h9 i10 i7 j10 k7</move></game>
<game id="3" rule="9" bresult="0" opening="50" swap="+"><move>h8 h9 i10 i7 j10 k7</move></game>
<game id="4" rule="8" bresult="0" opening="50" swap="-" alt="j10 g10">
<move>h8 h9 i10 i7 j10 k7</move></game>
<game id="5" rule="8" bresult="0" opening="50" swap="-" alt="51"><move>h8 h9 i10 i7 j10 k7</move>
</game>
</games>
</database>
"""


def test_renjunet_rules_swaps_offers_and_opening_ids() -> None:
    reports = [analyze(r) for r in read(RENJUNET, "db.rif")]
    assert [r["ruleset"] for r in reports] == [
        "taraguchi-10",
        "renju-rif",
        "sakata",
        "renju-rif",
        "renju-rif",
    ]
    taraguchi, rif_two_flags, sakata, rif_alt, rif_opaque = reports
    assert taraguchi["findings"] == []
    assert taraguchi["opening"]["id"] == "D2"
    # RIF has one swap opportunity; the second flag has none, and the declared id is wrong
    assert sorted((f["code"], f["move"]) for f in rif_two_flags["findings"]) == [
        ("opening-id-mismatch", 3),
        ("swap-not-allowed", None),
        ("unchecked", 5),
    ]
    assert (sakata["opening"]["black"], sakata["opening"]["white"]) == ("P2", "P1")
    assert sakata["findings"] == []
    assert rif_alt["findings"] == [] and rif_alt["opening"]["offers"] == ["j10", "g10"]
    assert [(f["code"], f["move"]) for f in rif_opaque["findings"]] == [("unchecked", 5)]


def sgf(moves: str) -> str:
    """SGF coordinates (column letter, row letter counted from the top) of 15x15 points."""
    out = []
    for token in moves.split():
        col, row = token[0], int(token[1:])
        out.append(col + "abcdefghijklmno"[15 - row])
    return "".join(f"[{p}]" for p in out)


def test_sgf_offers_and_swap_flags() -> None:
    h8, h9, i10, i7, j10, k7 = (sgf(p) for p in ["h8", "h9", "i10", "i7", "j10", "k7"])
    game = f";B{h8};W{h9};B{i10}SW[Y];W{i7};B{j10};W{k7}"
    good = read(f"(;GM[4]SZ[15]RU[RIF]5A{sgf('j10 g10')}{game})", "g.sgf")[0]
    r = analyze(good)
    assert r["ruleset"] == "renju-rif" and r["findings"] == []
    assert (r["opening"]["offers"], r["opening"]["black"]) == (["j10", "g10"], "P2")
    late = f";B{h8};W{h9};B{i10};W{i7}SW[Y];B{j10};W{k7}"
    bad = read(f"(;GM[4]SZ[15]RU[RIF]FA{sgf('j10 g10 k11')}{late})", "g.sgf")[0]
    assert sorted((f["code"], f["move"]) for f in analyze(bad)["findings"]) == [
        ("offer-count", 5),
        ("swap-not-allowed", 4),
    ]


PLAYOK = """[Site "PlayOK"]
[Black "a"]
[White "b"]
[Result "1-0"]
[GameType "61,15"]

1. h8 h9 2. i10 i7 3. black j10 4. k7 1-0
"""


def test_playok_choice_tokens() -> None:
    (record,) = read(PLAYOK, "p.pgn")
    r = analyze(record)
    assert r["ruleset"] == "swap2"
    assert [(f["code"], f["move"]) for f in r["findings"]] == [("swap-not-allowed", 4)]


def test_playok_sample_swap2_games_are_clean() -> None:
    path = CORPUS / "playok" / "playok_evacoregen6_2021.pgn"
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared corpus is not laid beside the repo)")
    with path.open("rb") as f:
        reports = [analyze(r) for r in read_stream(f, str(path))]
    assert len(reports) == 266
    assert [f for r in reports for f in r["findings"]] == []
    branches = [tuple(r["opening"]["branch"]) for r in reports]
    assert branches.count(("take-black",)) == 125  # 124 + the game that ended after 3 stones
    assert branches.count(("stay-white",)) == 107
    assert branches.count(("two-more",)) == 34
