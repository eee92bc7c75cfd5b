"""The 30 RIF opening-rule proposals and the other rule systems of the sources, as shipped rulesets.

Records are in ``tests/data/proposals/NAME.txt`` (one per line; the findings expected from
``renju check --rules NAME --format json`` in the comment, as ``code@move``): the first is a
correct game, the others keep or break one step.  The vocabulary the proposals added (rejecting
an opening, moving a stone, several offer steps, seat-bound forbidden moves, two-stone turns, the
52 openings, stones that do not alternate, two boards) is also tested on its own here.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import helpers
import pytest
from click.testing import CliRunner
from helpers import check_json

from renju_cli import analyze
from renju_cli.cli import cli
from renju_cli.coords import Point, parse_point
from renju_cli.formats.notation import parse_record, write_record
from renju_cli.opening import compile_protocol, lint, protocol_of, restricted_seat, rules_for
from renju_cli.record import OpeningEvent
from renju_cli.ruleset import from_text, load, shipped_dir, shipped_names

DATA = Path(__file__).resolve().parent / "data" / "proposals"
#: Proposal number -> shipped ruleset names (shared/spec/proposals.md).
PROPOSALS: dict[int, list[str]] = {
    1: ["sakata-proposal"],
    2: ["yamaguchi-proposal"],
    3: ["tarannikov-proposal"],
    4: ["taraguchi-5"],
    5: ["jonsson"],
    6: ["taimla"],
    7: ["cctsai"],
    8: ["shanghai-a"],
    9: ["yamaguchi-52"],
    10: ["karepa"],
    11: ["nadezhdin"],
    12: ["nokhrin"],
    13: ["xiangdong-wang"],
    14: ["shanghai-b"],
    15: ["yunhe-xia"],
    16: ["lijing"],
    17: ["yamaguchi-variant"],
    18: ["miknl"],
    19: ["samsone"],
    20: ["yuelee00"],
    21: ["sosei"],
    22: ["xsir317"],
    23: ["cctsai-b"],
    24: ["fss"],
    25: ["five-swaps"],
    26: ["marcus-eriksson"],
    27: ["longzeng-1", "longzeng-2", "longzeng-3"],
    28: ["eriksson-variant"],
    29: ["soosyrv-4"],
    30: ["daiyue"],
}
PROPOSAL_NAMES = [n for names in PROPOSALS.values() for n in names]
OTHERS = [
    "lianhuan",
    "lianhuan-free",
    "traditional-19",
    "gomoku-swap-encyclopedia",
    "two-board-gomoku",
    "room-professional-reject",
]
ROOMS = [
    "room-ordinary",
    *(f"room-{kind}{policy}" for kind in ("national", "professional")
      for policy in ("", "-claim", "-reject")),
]  # fmt: skip


def expectations(name: str) -> list[tuple[int, str, list[str]]]:
    return helpers.expectations(DATA, name)


def codes(report: dict[str, Any]) -> list[str]:
    return sorted(f"{f['code']}@{f['move']}" for f in report["findings"])


# -- the shipped files ---------------------------------------------------------------------------
def test_ruleset_names_are_unique_across_subdirectories() -> None:
    stems = Counter(p.stem for p in shipped_dir().rglob("*.yaml"))
    assert [s for s, n in stems.items() if n > 1] == []
    assert len(shipped_names()) == sum(stems.values())


def test_every_proposal_is_a_shipped_ruleset_with_its_source_in_the_header() -> None:
    assert len(PROPOSALS) == 30
    assert set(PROPOSAL_NAMES) <= set(shipped_names())
    for number, names in PROPOSALS.items():
        for name in names:
            rules = load(name)
            assert rules.group == "proposals", name
            assert rules.title.startswith(f"Proposal {number}: "), name
            assert rules.opening is not None and protocol_of(rules) is not None, name
            header = Path(rules.source).read_text("utf-8").split("\nname:")[0]
            assert f"proposal {number}" in header and "Source:" in header, name
            assert "shared/spec/proposals.md" in header, name


def test_the_other_rule_systems_are_shipped() -> None:
    assert set(OTHERS + ROOMS) <= set(shipped_names())
    assert load("traditional-19").width == 19 and load("traditional-19").overline["black"] == "win"
    encyclopedia = load("gomoku-swap-encyclopedia")
    assert encyclopedia.overline == {"black": "no-win", "white": "no-win"}
    assert (encyclopedia.move_limit, encyclopedia.consecutive_passes_draw) == (225, 2)
    assert {load(f"room-national{p}").policy for p in ("", "-claim", "-reject")} == {
        "lose",
        "claim",
        "reject",
    }
    assert protocol_of(load("room-professional-claim")) == protocol_of(load("renju-rif"))
    assert load("room-ordinary").forbidden_kinds("black") == ()
    assert load("lianhuan").forbidden_kinds("black") and not load("lianhuan-free").forbidden_kinds(
        "black"
    )


def test_every_new_protocol_is_consistent() -> None:
    for name in PROPOSAL_NAMES + OTHERS + ROOMS:
        protocol = protocol_of(load(name))
        if protocol is not None:
            assert lint(protocol) == [], name


# -- records that keep and break each rule -------------------------------------------------------
@pytest.mark.parametrize("name", PROPOSAL_NAMES + OTHERS)
def test_records_that_keep_and_break_each_rule(name: str) -> None:
    cases = expectations(name)
    assert cases[0][2] == [], "the first record is a correct game"
    assert any(expected for _, _, expected in cases), "some record breaks a step"
    report = check_json(str(DATA / f"{name}.txt"), "--rules", name)
    records = report["records"]
    assert [r["source"]["line"] for r in records] == [n for n, _, _ in cases]
    for (n, text, expected), record in zip(cases, records, strict=True):
        got = sorted(f"{f['code']}@{f['move']}" for f in record["findings"])
        assert got == expected, f"{name}.txt line {n}: {text}"
        assert record["ruleset"] == name


@pytest.mark.parametrize("name", PROPOSAL_NAMES + OTHERS)
def test_the_correct_game_is_a_black_five(name: str) -> None:
    n, text, _ = expectations(name)[0]
    r = analyze(text, name)
    assert r["result"]["winner"] == "black" and r["result"]["reason"] == "five", f"line {n}"


def test_a_broken_step_fails_the_check_with_exit_1(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(expectations("nokhrin")[0][1] + "\n", "utf-8")
    bad.write_text("h8 h9 i10 g7 j10 h9-i8 k7\n", "utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["check", str(good), "--rules", "nokhrin"]).exit_code == 0
    assert runner.invoke(cli, ["check", str(bad), "--rules", "nokhrin"]).exit_code == 1


# -- rules list / rules show ---------------------------------------------------------------------
def test_rules_list_groups_the_rulesets() -> None:
    out = CliRunner().invoke(cli, ["rules", "list"]).output
    heads = [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")]
    assert heads == ["official", "gomoku", "engine", "proposals", "variants"]
    proposals = out.split("\nproposals:")[1].split("\nvariants:")[0]
    numbers = [int(n) for n in re.findall(r"Proposal (\d+):", proposals)]
    assert numbers == sorted(numbers) and set(numbers) == set(range(1, 31))
    listed = json.loads(
        CliRunner().invoke(cli, ["rules", "list", "-g", "variants", "-f", "json"]).output
    )
    assert {r["group"] for r in listed} == {"variants"}
    assert {"lianhuan", "two-board-gomoku"} <= {r["name"] for r in listed}


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("taimla", "6b.1. P2 rejects the opening: every stone is taken off and the opening starts"),
        ("taimla", "6b.2. black places black 1 at the centre"),
        ("nokhrin", "6b.1. P2 moves one of stones 3, 4 or 5 not moved before to an empty point in"),
        ("nokhrin", "6a play: P2 stays white and plays 6"),
        ("lijing", "5. white offers 2 points for move 4 in the central 9x9"),
        ("lijing", "7. white keeps one of the offers as move 4"),
        ("daiyue", "5. white offers 2 points for move 5 anywhere"),
        ("cctsai", "6. one of stones 1, 3 or 5 must be at the centre"),
        ("lianhuan", "two stones in a row (one black, one white); only after a two-stone turn"),
        ("yamaguchi-52", "stones 1-3 must be one of the 52 openings (stone 3 in the central 7x7)"),
        ("samsone", "the stones do not alternate in colour"),
        ("samsone", "2. P1 places black 2 in the central 5x5"),
        ("yunhe-xia", "seat P2: exactly five in a row wins; an overline is forbidden"),
        ("yunhe-xia", "forbidden moves bind a seat, not a colour"),
        ("two-board-gomoku", "a five on only one board in a turn loses"),
        ("xsir317", "5b two-fourths: white places two 4th stones"),
    ],
)
def test_rules_show_prints_the_steps_in_words(name: str, words: str) -> None:
    result = CliRunner().invoke(cli, ["rules", "show", name])
    assert result.exit_code == 0
    assert words in result.output, result.output


# -- the notation ----------------------------------------------------------------------------
def test_notation_tokens_for_the_new_vocabulary_round_trip() -> None:
    text = "black h8 h9 i10 N=2 swap i7 {j10 g10} j10 i10-i9 reject k7"
    record = parse_record(text)
    assert [m.point.name for m in record.moves if m.point] == ["h8", "h9", "i10", "i7", "j10", "k7"]
    events = [(e.kind, e.after, e.value, [p.name for p in e.points]) for e in record.opening_events]
    assert events == [
        ("declare", 3, "2", []),
        ("swap", 3, None, []),
        ("offers", 4, None, ["j10", "g10"]),
        ("relocate", 5, None, ["i10", "i9"]),
        ("reject", 5, None, []),
    ]
    assert write_record(record) == text
    assert parse_record("h8 n=12").opening_events[0].value == "12"


def test_notation_names_the_board_of_each_stone() -> None:
    record = parse_record("A:j10 b:j10 B:k10 pass a:k11")
    assert [m.point.name if m.point else None for m in record.moves] == [
        "j10",
        "j10",
        "k10",
        None,
        "k11",
    ]
    assert record.metadata["boards"] == "abb-a"
    assert record.opening_events == []
    assert write_record(record) == "A:j10 B:j10 B:k10 pass A:k11"
    assert "boards" not in parse_record("j10 k10").metadata


# -- the schema --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "path", "words"),
    [
        (
            "opening: {steps: [{relocate: {}}]}",
            "opening.steps[0].relocate",
            "stones",
        ),
        ("opening: {steps: [{turns: {pair_before: 5}}]}", "opening.steps[0].turns", "until"),
        ("opening: {steps: [{reject: {black: white}}]}", "opening.steps[0].reject.black", "white"),
        ("opening: {steps: [{require: {stones: [1]}}]}", "opening.steps[0].require", "region"),
        ("opening: {steps: [{place: {canonical: 27}}]}", "opening.steps[0].place.canonical", "27"),
        ("opening: {alternate: maybe, steps: []}", "opening.alternate", "maybe"),
        ("forbidden: {restricted_seat: P3}", "forbidden.restricted_seat", "P3"),
        ("variant: three-board", "variant", "three-board"),
    ],
)
def test_rules_check_names_the_bad_new_step(
    tmp_path: Path, body: str, path: str, words: str
) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text(f"name: mine\nextends: renju\n{body}\n", "utf-8")
    result = CliRunner().invoke(cli, ["rules", "check", str(f)])
    assert result.exit_code == 2
    assert f": {path}: " in result.output and words in result.output, result.output


def test_a_users_ruleset_may_use_every_new_step(tmp_path: Path) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text(
        "name: mine\nextends: renju\nforbidden: {restricted_seat: P1}\n"
        "opening:\n  steps:\n"
        "    - turns: {until: 3, pair_before: 3}\n"
        "    - place: {canonical: 52}\n"
        "    - require: {stones: [1, 3], region: {central: 1}}\n"
        "    - relocate: {by: P2, stones: [4], region: {central: 5}, again: true}\n"
        "    - branch: {options: [{name: a, steps: []}, {name: b, steps: [{reject: {by: P1}}]}]}\n",
        "utf-8",
    )
    result = CliRunner().invoke(cli, ["rules", "check", str(f)])
    assert result.exit_code == 0, result.output


# -- the vocabulary at work ----------------------------------------------------------------------
def test_a_rejected_opening_clears_the_board_and_restarts_the_colours() -> None:
    r = analyze("h8 h9 i10 a2 b2 reject h8 h9 i10 i7 N=2 {j10 g10} j10 k7 a2", "taimla")
    assert codes(r) == []  # h8, h9, i10 and a2 are free again
    assert r["opening"]["branch"] == ["reject"] and r["opening"]["rejected_after"] == 5
    assert (r["opening"]["id"], r["opening"]["declared"]) == ("D2", 2)
    # stone 6 (h8) is black again, so are moves 8, 10, 12 and 14: black's five in column h
    five = "h8 h9 i10 a2 b2 reject h8 g8 h9 g9 h10 g10 h11 g11 h12"
    r = analyze(five, "taimla")
    assert (r["result"]["winner"], r["result"]["move"]) == ("black", 14)
    assert r["first_five"]["stones"] == ["h8", "h9", "h10", "h11", "h12"]
    # under a ruleset without the step the rejection is a finding, but the board follows it
    r = analyze("h8 h9 i10 reject h8 a1", "renju")
    assert codes(r) == ["reject-not-allowed@3"]


def test_a_moved_stone_frees_its_point_and_takes_the_new_one() -> None:
    r = analyze("h8 h9 i10 g7 j10 i10-i9 white k7 i10", "nokhrin")
    assert codes(r) == []
    assert r["opening"]["relocated"] == [3]
    r = analyze("h8 h9 i10 g7 j10 i10-i9 white k7 i9", "nokhrin")
    assert codes(r) == ["occupied@7"]
    assert "moved there after move 5" in r["findings"][0]["message"]


def test_a_moved_stone_written_wrong_never_raises() -> None:
    record = parse_record("h8 h9 i10 g7 j10 k7")
    record.opening_events.append(OpeningEvent("relocate", 5, points=[parse_point("i10")]))
    assert codes(analyze(record, "nokhrin")) == ["relocation-invalid@5"]
    assert "does not name two points" in analyze(record, "nokhrin")["findings"][0]["message"]


def test_several_offer_steps_take_one_group_each() -> None:
    r = analyze("h8 h9 i10 {i7 g7} {j10 g10} g7 g10 k7", "lijing")
    assert codes(r) == []
    assert r["opening"]["offers_by_move"] == {"4": ["i7", "g7"], "5": ["j10", "g10"]}
    assert r["opening"]["kept_by_move"] == {"4": "g7", "5": "g10"}
    # the fifths are placed with both fourths on the board: one of them is no empty point
    assert codes(analyze("h8 h9 i10 {i7 g7} {j10 i7} i7 j10 k7", "lijing")) == ["offer-invalid@5"]


def test_xsir317_reads_one_or_two_fourths_from_the_record() -> None:
    one = analyze("h8 h9 i10 i7 N=2 {j10 g10} j10 k7", "xsir317")
    two = analyze("h8 h9 i10 {i7 g7} N=2 {j10 g10} i7 j10 k7", "xsir317")
    assert (one["opening"]["branch"], two["opening"]["branch"]) == (["one-fourth"], ["two-fourths"])
    assert codes(one) == codes(two) == []


def test_the_52_openings() -> None:
    for third in ("k11", "e5", "h11", "i10"):  # 7x7 (and 5x5) third stones
        assert codes(analyze(f"h8 h9 {third} N=2 i7 {{j10 g10}} j10 k7", "yamaguchi-52")) == []
    assert codes(analyze("h8 h9 l12 N=2 i7 {j10 g10} j10 k7", "yamaguchi-52")) == [
        "opening-not-canonical@3"
    ]
    assert codes(analyze("h8 h9 k11 N=2 i7 {j10 g10} j10 k7", "yamaguchi")) == [
        "opening-not-canonical@3"
    ]


def test_stones_that_do_not_alternate_get_the_protocols_colours() -> None:
    # Samsone: black h8 h10, white g9 i9 i5, black a15 o15, white a1; black from move 9 on
    game = "h8 h10 g9 i9 i5 a15 o15 a1 h9 b1 h11 c1 h12"
    r = analyze(game, "samsone")
    assert codes(r) == []
    assert (r["result"]["winner"], r["result"]["move"]) == ("black", 13)
    assert r["first_five"]["stones"] == ["h8", "h9", "h10", "h11", "h12"]
    # with alternation the same moves are another game: white would hold h10 and h11
    assert analyze(game, "renju")["result"]["winner"] is None


def test_lint_needs_colours_when_stones_do_not_alternate() -> None:
    protocol = compile_protocol({"alternate": False, "steps": [{"place": {"move": 1}}]})
    assert lint(protocol) == [
        "step 1: stones do not alternate in this opening (alternate: false), so the step must "
        "name the colour"
    ]
    stacked = compile_protocol(
        {
            "steps": [
                {"offer": {"move": 1, "count": 2}},
                {"offer": {"move": 2, "count": 2}},
                {"keep": {"move": 1}},
                {"keep": {"move": 2}},
            ]
        }
    )
    assert lint(stacked) == []
    assert [s.stacked for s in stacked.steps] == [True, True, False, False]


def test_forbidden_moves_bound_to_a_seat() -> None:
    rules = load("yunhe-xia")
    assert restricted_seat(rules) == "P2" and restricted_seat(load("renju")) is None
    assert rules_for(rules, ("P2", "P1")) is rules  # P2 black: as written
    swapped = rules_for(rules, ("P1", "P2"))  # P2 white: white is restricted
    assert swapped.forbidden_kinds("white") == ("overline", "double-four", "double-three")
    assert swapped.forbidden_kinds("black") == () and swapped.overline["black"] == "win"
    assert rules_for(rules, ("P1", "P2")) is swapped  # remembered
    opening = "i9 i10 j11 {} j8 N=2 noswap {{k11 h12}} k11 g8"
    double_three = "c3 a17 d3 a15 e5 a13 e6 a11 e3"  # black e3: c3-d3-e3 and e3-e5-e6
    kept = analyze(f"{opening.format('noswap')} {double_three}", rules)
    swap = analyze(f"{opening.format('swap')} {double_three}", rules)
    assert codes(kept) == []  # P1 holds black: no restriction
    assert codes(swap) == ["forbidden-move@15"]  # P2 holds black
    assert swap["result"] == {"winner": "white", "reason": "forbidden", "move": 15, "point": "e3"}
    unknown = analyze(f"{opening.format('')} {double_three}", rules)
    assert codes(unknown) == ["unchecked@None"]
    assert "as if P1 holds black and P2 white" in unknown["findings"][0]["message"]


def test_lianhuan_swaps_only_after_two_stone_turns() -> None:
    ok = analyze("h8 h9 swap i10 i7 swap j10 k7", "lianhuan")
    assert codes(ok) == [] and (ok["opening"]["black"], ok["opening"]["white"]) == ("P1", "P2")
    late = analyze("h8 h9 i10 i7 j10 swap k7", "lianhuan")
    assert codes(late) == [] and late["opening"]["black"] == "P2"  # stones 4-5 were one turn
    assert codes(analyze("h8 h9 swap i10 swap i7", "lianhuan")) == ["swap-not-allowed@3"]
    # freestyle after the opening: an overline wins
    six = "h8 h9 swap i10 a1 j10 a2 k10 a3 l10 a5 g10 a7 h10"
    assert codes(analyze(six, "lianhuan-free")) == []
    assert analyze(six, "lianhuan-free")["result"]["reason"] == "overline"


def test_the_encyclopedia_gomoku_is_drawn_at_move_225() -> None:
    # a five-free pattern (runs of two in every direction) with one pass per player
    cells: dict[str, list[str]] = {"B": [], "W": []}
    for y in range(15):
        for x in range(15):
            cells["B" if (x + 2 * y) % 4 < 2 else "W"].append(Point(x, y).name)
    moves = []
    for n in range(1, 226):
        if n in (100, 151):  # a black pass, then a white one: never two in a row
            moves.append("pass")
            continue
        moves.append(cells["B" if n % 2 else "W"].pop())
    r = analyze(" ".join(moves), "gomoku-swap-encyclopedia")
    assert r["result"] == {
        "winner": "draw",
        "reason": "move-limit",
        "move": 225,
        "point": moves[-1],
    }
    assert codes(r) == []
    passes = analyze("h8 h9 i10 i7 pass pass", "gomoku-swap-encyclopedia")["result"]
    assert (passes["winner"], passes["reason"]) == ("draw", "passes")


def test_two_board_gomoku() -> None:
    _, text, _ = expectations("two-board-gomoku")[0]
    r = analyze(text, "two-board-gomoku")
    assert r["result"]["reason"] == "five" and r["first_five"]["stones"][0] == "j10"
    assert r["notes"] == [
        "black completed fives on board a (move 20, n10) and board b (move 21, n10) in one turn"
    ]
    lost = analyze(text.replace("B:n10", "B:a15"), "two-board-gomoku")
    assert lost["result"]["winner"] == "white" and lost["result"]["reason"] == "one-board-five"


def test_a_step_that_needs_a_missing_event_says_so() -> None:
    rules = from_text(
        "name: must-move\nextends: renju\n"
        "opening: {steps: [{place: {}}, {place: {}}, {relocate: {stones: [1]}}, {place: {}}]}"
    )
    r = analyze("h8 h9 i10", rules)
    assert codes(r) == ["unchecked@2"]
    assert r["findings"][0]["severity"] == "warning"
    assert "shows no moved stone (from-to) after move 2" in r["findings"][0]["message"]
    assert codes(analyze("h8 h9 h8-a1 i10", rules)) == []
