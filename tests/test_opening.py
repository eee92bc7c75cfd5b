"""Opening identification, offer symmetry and the protocol engine (renju_cli.opening)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from renju_cli import analyze
from renju_cli.board import BLACK, WHITE
from renju_cli.coords import Point, parse_point
from renju_cli.formats.notation import parse_record
from renju_cli.opening import (
    SYMMETRIES,
    ProtocolError,
    canonical_openings,
    compile_protocol,
    identify,
    lint,
    lookup_opening,
    protocol_of,
    stone_symmetries,
)
from renju_cli.record import Color, OpeningEvent, Record
from renju_cli.ruleset import Ruleset, RulesetError, from_text, load, shipped_names

SHARED = Path(__file__).resolve().parents[2] / "shared"
H8 = Point(7, 7)


def pts(text: str) -> list[Point]:
    return [parse_point(t) for t in text.split()]


def run(moves: str, rules: str | Ruleset = "renju", **fields: Any) -> dict[str, Any]:
    record = parse_record(moves)
    for key, value in fields.items():
        setattr(record, key, value)
    return analyze(record, rules)


def codes(report: dict[str, Any]) -> list[tuple[str, int | None]]:
    return sorted((f["code"], f["move"]) for f in report["findings"])


# -- the 26 canonical openings ---------------------------------------------------------------
def raw_openings() -> list[tuple[Point, Point]]:
    """Every (stone 2, stone 3) of a canonical opening: 8 x 23 = 184."""
    out = []
    for dx2 in (-1, 0, 1):
        for dy2 in (-1, 0, 1):
            if (dx2, dy2) == (0, 0):
                continue
            second = Point(7 + dx2, 7 + dy2)
            for dx3 in range(-2, 3):
                for dy3 in range(-2, 3):
                    third = Point(7 + dx3, 7 + dy3)
                    if third not in (H8, second):
                        out.append((second, third))
    return out


def test_the_26_classes_partition_all_184_raw_openings() -> None:
    raw = raw_openings()
    assert len(raw) == 184
    classes: Counter[str] = Counter()
    for second, third in raw:
        found = identify([H8, second, third], H8)
        assert found is not None, f"h8 {second} {third} is not named"
        o = found.opening
        classes[o.id] += 1
        assert o.type == ("direct" if second.x == 7 or second.y == 7 else "indirect")
    assert len(classes) == 26
    assert sum(classes.values()) == 184
    # an opening symmetric in the line through its first two stones has 4 images, others 8
    assert sorted(Counter(classes.values()).items()) == [(4, 6), (8, 20)]


def test_every_table_entry_is_its_own_name_in_standard_orientation() -> None:
    assert len(canonical_openings()) == 26
    for o in canonical_openings():
        second = Point(7 + o.second[0], 7 + o.second[1])
        third = Point(7 + o.third[0], 7 + o.third[1])
        assert second.name == ("h9" if o.type == "direct" else "i9")
        found = identify([H8, second, third], H8)
        assert found is not None
        assert (found.opening.id, found.symmetry) == (o.id, "identity")


def test_shipped_table_is_the_shared_one() -> None:
    shared = SHARED / "data" / "openings26.json"
    if not shared.is_file():
        pytest.skip(f"{shared} is absent (the shared data folder is not laid beside the repo)")
    table = json.loads(shared.read_text("utf-8"))["openings"]
    ours = {o.id: o for o in canonical_openings()}
    for entry in table:
        o = ours[entry["id"]]
        assert o.name == entry["romaji"]
        assert o.renjunet_id == entry["renjunet_opening_id"]
        third = Point(7 + o.third[0], 7 + o.third[1])
        assert third.name == entry["stones"][2]["point"]


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ("h8 h9 i9", ("D4", "Kagetsu", "identity")),
        ("h8 i9 i7", ("I7", "Hogetsu", "identity")),
        ("h8 g8 g7", ("D4", "Kagetsu", "mirror-antidiagonal")),
        ("h8 h7 i7", ("D4", "Kagetsu", "mirror-row")),
        ("h8 i8 i9", ("D4", "Kagetsu", "mirror-diagonal")),
        ("h8 g7 g9", ("I7", "Hogetsu", "rotate-180")),
        ("h8 g9 g7", ("I7", "Hogetsu", "mirror-column")),
        ("h8 h9 h10", ("D1", "Kansei", "identity")),
        ("h8 h7 h6", ("D1", "Kansei", "rotate-180")),
    ],
)
def test_named_with_the_symmetry_used(moves: str, expected: tuple[str, str, str]) -> None:
    found = identify(pts(moves), H8)
    assert found is not None
    assert (found.opening.id, found.opening.name, found.symmetry) == expected


def test_the_symmetry_maps_the_record_onto_the_table() -> None:
    d4 = [(0, 0), (0, 1), (1, 1)]
    for name, m in SYMMETRIES.items():
        image = [Point(7 + x, 7 + y) for x, y in (_lin(m, x, y) for x, y in d4)]
        found = identify(image, H8)
        assert found is not None and found.opening.id == "D4", name
        back = [_lin(SYMMETRIES[found.symmetry], p.x - 7, p.y - 7) for p in image]
        assert back == d4, name


def _lin(m: tuple[int, int, int, int], x: int, y: int) -> tuple[int, int]:
    a, b, c, d = m
    return (a * x + b * y, c * x + d * y)


def test_not_canonical_is_not_named() -> None:
    assert identify(pts("h8 h10 i9"), H8) is None  # stone 2 two points away
    assert identify(pts("g8 h9 i9"), H8) is None  # not starting at the centre
    assert identify(pts("h8 h9 h11"), H8) is None  # stone 3 outside 5x5
    assert run("h8 h10 i9")["opening"] is None


def test_report_names_the_opening() -> None:
    r = run("h8 g8 g7 i9")
    assert r["opening"] == {"id": "D4", "name": "Kagetsu", "symmetry": "mirror-antidiagonal",
                            "type": "direct"}  # fmt: skip
    assert r["findings"] == []


@pytest.mark.parametrize("declared", ["D4", "d4", "Kagetsu", "D4 Kagetsu", "花月", "かげつ"])
def test_declared_opening_ids_are_understood(declared: str) -> None:
    entry = lookup_opening(declared)
    assert entry is not None and entry.id == "D4"
    assert run("h8 g8 g7", opening_id=declared)["findings"] == []


def test_declared_opening_that_disagrees_with_the_moves() -> None:
    r = run("h8 h9 i10 i7", opening_id="D4")
    assert codes(r) == [("opening-id-mismatch", 3)]
    assert "D4 (Kagetsu)" in r["findings"][0]["message"]
    assert "D2 (Keigetsu" in r["findings"][0]["message"]
    assert codes(run("h8 h9 h11", opening_id="I7")) == [("opening-id-mismatch", 3)]


def test_declared_opening_that_cannot_be_checked() -> None:
    short = run("h8 h9", opening_id="D4")
    assert codes(short) == [("unchecked", None)]
    assert short["findings"][0]["severity"] == "info"
    assert codes(run("h8 h9 i9", opening_id="Q99")) == [("unchecked", None)]


def test_decisions_recorded_under_a_ruleset_without_a_protocol_change_nothing() -> None:
    # swaps, colour choices and offers are a protocol's to judge: under plain renju (no
    # opening protocol) the record is the record of its stones, its opening named; a
    # rejection or a moved stone still changes the board and is reported
    plain = run("h8 h9 i10 i7 j10 k7")
    assert plain["opening"]["id"] == "D2" and plain["findings"] == []
    for text in (
        "h8 h9 i10 swap i7 {j10 g10} j10 k7",
        "h8 h9 black i10 noswap i7 {j10} j10 k7",
        "h8 h9 i10 i7 j10 k7 white",
    ):
        decided = run(text)
        assert decided["opening"] == plain["opening"]
        assert decided["findings"] == plain["findings"]
        assert decided["result"] == plain["result"]
    rejected = run("h8 h9 i10 reject h8 h9 i10")
    assert codes(rejected) == [("reject-not-allowed", 3)]


# -- symmetry of offers ------------------------------------------------------------------------
def stones(black: str, white: str) -> dict[Point, int]:
    out = {p: BLACK for p in pts(black)}
    out.update({p: WHITE for p in pts(white)})
    return out


def test_symmetry_centred_on_h8_is_found_in_both_frames() -> None:
    position = stones("h8 h10", "h9 h7")  # D1 Kansei with white 4 on h7
    for frame in ("pattern", "board"):
        found = stone_symmetries(position, 15, 15, frame)
        assert [(g.kind, g(parse_point("g10")).name) for g in found] == [("mirror-column", "i10")]
        assert found[0].words(H8) == "a mirror in column h"


def test_symmetry_off_centre_is_found_only_in_the_pattern_frame() -> None:
    position = stones("h8 i8", "h9 i9")  # D6 Ugetsu with white 4 on i9
    found = stone_symmetries(position, 15, 15, "pattern")
    assert [g.kind for g in found] == ["mirror-column"]
    assert found[0](parse_point("g10")).name == "j10"
    assert found[0].words(H8) == "a mirror in the line between columns h and i"
    assert stone_symmetries(position, 15, 15, "board") == []
    assert stone_symmetries(position, 15, 15, "none") == []


def test_half_turn_and_diagonal_symmetries_are_named() -> None:
    half = stone_symmetries(stones("h8 i10", "h9 i9"), 15, 15, "pattern")
    assert [g.kind for g in half] == ["rotate-180"]
    assert half[0](parse_point("g7")).name == "j11"
    assert half[0].words(H8) == "a half turn about the midpoint of h9 and i9"
    diag = stone_symmetries(stones("h8 j10", "i9"), 15, 15, "pattern")
    kinds = sorted(g.kind for g in diag)
    assert kinds == ["mirror-antidiagonal", "mirror-diagonal", "rotate-180"]
    anti = next(g for g in diag if g.kind == "mirror-antidiagonal")
    assert anti.words(H8) == "a mirror in the anti-diagonal through i9"


BOARD_FRAME = """
name: rif-board-frame
extends: renju-rif
opening: {symmetry: board}
"""


def test_offers_mirrored_through_h8_are_rejected_under_both_frames() -> None:
    record = "h8 h9 h10 h7 {g10 i10} i10 k7"
    for rules in ("renju-rif", from_text(BOARD_FRAME)):
        r = run(record, rules)
        assert codes(r) == [("offer-symmetric", 5)]
        assert r["findings"][0]["point"] == "i10"
        assert "mirror in column h" in r["findings"][0]["message"]


def test_offers_mirrored_off_centre_are_rejected_only_under_the_pattern_frame() -> None:
    record = "h8 h9 i8 i9 {g10 j10} j10 k7"
    assert codes(run(record, "renju-rif")) == [("offer-symmetric", 5)]
    assert codes(run(record, from_text(BOARD_FRAME))) == []


def test_offers_symmetric_by_a_half_turn() -> None:
    r = run("h8 h9 i10 i9 {g7 j11} g7 k7", "renju-rif")
    assert codes(r) == [("offer-symmetric", 5)]
    assert "half turn" in r["findings"][0]["message"]


LATE_OFFERS = """
name: late-offers
extends: renju
opening:
  name: Late offers
  steps:
    - place: {move: 1}
    - place: {move: 2}
    - place: {move: 3}
    - place: {move: 4}
    - place: {move: 5}
    - place: {move: 6}
    - place: {move: 7}
    - place: {move: 8}
    - offer: {move: 9, by: black, count: 2}
    - keep: {move: 9, by: white}
"""


def test_an_offer_on_a_forbidden_point_is_invalid() -> None:
    # black f8 g8 (a row) and h6 h7 (a column): h8 would be a double-three
    r = run("f8 a1 g8 c1 h6 e1 h7 g1 {h8 k12} k12", from_text(LATE_OFFERS))
    assert codes(r) == [("offer-invalid", 9)]
    assert "forbidden point (double-three)" in r["findings"][0]["message"]
    assert r["findings"][0]["point"] == "h8"


# -- declared counts, parameters, user protocols -----------------------------------------------
def with_events(moves: str, *events: OpeningEvent) -> Record:
    record = parse_record(moves)
    record.opening_events.extend(events)
    return record


def test_yamaguchi_declared_count_is_checked_when_recorded() -> None:
    declared3 = with_events("h8 h9 i10 i7 {j10 g10} j10 k7", OpeningEvent("declare", 3, "3"))
    assert codes(analyze(declared3, "yamaguchi")) == [("offer-count", 5)]
    declared2 = with_events("h8 h9 i10 i7 {j10 g10} j10 k7", OpeningEvent("declare", 3, "2"))
    r = analyze(declared2, "yamaguchi")
    assert r["findings"] == []
    assert r["opening"]["declared"] == 2
    assert r["opening"]["offers"] == ["j10", "g10"]
    assert r["opening"]["kept"] == "j10"


def test_soosyrv_declared_count_has_bounds() -> None:
    nine = with_events("h8 h9 i10 i7 {j10 g10} j10 k7", OpeningEvent("declare", 4, "9"))
    assert codes(analyze(nine, "soosyrv-8")) == [("offer-count", 4), ("offer-count", 5)]
    junk = with_events("h8 h9 i10 i7 {j10 g10} j10 k7", OpeningEvent("declare", 4, "many"))
    assert ("offer-count", 4) in codes(analyze(junk, "soosyrv-8"))


TARAGUCHI_5 = """
name: taraguchi-5
extends: taraguchi-n
opening: {name: Taraguchi-5, params: {offers: 5}}
"""
SOOSYRV_3 = """
name: soosyrv-3
extends: soosyrv-n
opening: {name: Soosõrv-3, params: {offers: 3}}
"""


def test_taraguchi_n_and_soosyrv_n_are_instantiated_by_a_parameter() -> None:
    five, ten = "{j10 g10 k11 f6 l4}", "{j10 g10 k11 f6 l4 d12 m12 b3 n9 e5}"
    rules = from_text(TARAGUCHI_5)
    assert codes(run(f"h8 h9 i10 i7 {five} j10 k7", rules)) == []
    assert codes(run(f"h8 h9 i10 i7 {ten} j10 k7", rules)) == [("offer-count", 5)]
    assert codes(run(f"h8 h9 i10 i7 {ten} j10 k7", "taraguchi-10")) == []
    three = from_text(SOOSYRV_3)
    four_offers = "h8 h9 i10 i7 {j10 g10 k11 f6} j10 k7"
    assert codes(run(four_offers, three)) == [("offer-count", 5)]
    assert codes(run(four_offers, "soosyrv-8")) == [("unchecked", 5)]


DAIYUE = """
name: daiyue
extends: renju
description: RIF proposal 30 - white places the two fifth-move offers.
opening:
  name: Daiyue
  steps:
    - place: {move: 1, by: P1, region: {central: 1}}
    - place: {move: 2, by: P1, region: {central: 3}}
    - place: {move: 3, by: P1, region: {central: 5}, canonical: true}
    - place: {move: 4, color: white, by: white}
    - offer: {move: 5, by: white, count: 2}
    - swap: {by: P2}
    - keep: {move: 5, by: white}
"""


def test_a_new_protocol_is_a_yaml_file() -> None:
    rules = from_text(DAIYUE)
    assert codes(run("h8 h9 i10 i7 {j10 g10} swap j10 k7", rules)) == []
    assert codes(run("h8 h9 i10 i7 {j10 g10} j10 swap k7", rules)) == [("swap-not-allowed", 5)]


def test_every_shipped_protocol_is_consistent() -> None:
    with_protocol = 0
    for name in shipped_names():
        protocol = protocol_of(load(name))
        if protocol is None:
            continue
        with_protocol += 1
        assert lint(protocol) == [], name
    assert with_protocol >= 14


def test_lint_sees_move_numbers_and_colours_out_of_step() -> None:
    bad = compile_protocol({"steps": [{"place": {"move": 2}}, {"place": {"color": "black"}}]})
    assert lint(bad) == [
        "step 1: move 2, but it is move 1",
        "step 2: stone 2 is white, not black",
    ]
    one = {"name": "one", "steps": [{"place": {}}]}
    two = {"name": "two", "steps": [{"place": {}}, {"place": {}}]}
    uneven = {"branch": {"options": [one, two]}}
    assert lint(compile_protocol({"steps": [uneven]})) == []  # free play follows: fine
    followed = compile_protocol({"steps": [uneven, {"place": {"move": 3}}]})
    assert lint(followed) == ["step 1: options end at different moves (1 and 2) and steps follow"]


def test_an_unusable_protocol_is_reported_not_raised() -> None:
    with pytest.raises(ProtocolError, match=r"\$nope"):
        compile_protocol({"steps": [{"offer": {"count": "$nope"}}]})
    # A user's file is refused when it is loaded, naming the key ...
    with pytest.raises(RulesetError, match=r"opening.*\$nope"):
        from_text("name: broken\nextends: renju\nopening: {steps: [{offer: {count: $nope}}]}")
    # ... and the engine itself still never raises (shipped files skip that check).
    broken = {"steps": [{"offer": {"count": "$nope"}}]}
    rules = dataclasses.replace(load("renju"), name="broken", opening=broken)
    r = run("h8 h9 i9", rules)
    assert codes(r) == [("unchecked", None)]
    assert r["findings"][0]["severity"] == "warning"


# -- how records carry the opening -------------------------------------------------------------
def test_a_preset_position_is_not_checked_against_the_protocol() -> None:
    record = parse_record("i9 i7")
    record.setup = [(parse_point("h8"), Color.BLACK), (parse_point("h9"), Color.WHITE)]
    r = analyze(record, "renju-rif")
    assert codes(r) == [("unchecked", None)]
    assert "setup stone" in r["findings"][0]["message"]


def test_an_even_board_needs_a_named_centre() -> None:
    text = "name: even\nextends: pro\nboard: {size: 16}\n"
    r = run("h8 a1 l12", from_text(text))
    assert codes(r) == [("unchecked", 1), ("unchecked", 3)]
    named = from_text(text + "opening: {center: h8}\n")
    assert codes(run("h8 a1 l12", named)) == []
    assert codes(run("h9 a1 l12", named)) == [("opening-region", 1)]


def test_findings_are_sorted_by_move_with_moveless_first() -> None:
    r = run("h8 h9 i10 i7 swap {j10} j10 k7 swap", "renju-swap", opening_id="X1")
    assert [(f["code"], f["move"]) for f in r["findings"]] == [
        ("unchecked", None),
        ("swap-not-allowed", 4),
        ("offer-count", 5),
        ("swap-not-allowed", 6),
    ]


def test_renjunet_swap_flags_are_opportunities_of_the_protocol() -> None:
    flags = [OpeningEvent("no-swap", -1, "1"), OpeningEvent("swap", -1, "2")]
    # Taraguchi: the second opportunity is after stone 2
    tara = with_events("h8 h9 i10 i7 j10 k7", *flags)
    r = analyze(tara, "taraguchi-10")
    assert r["findings"] == []
    assert (r["opening"]["black"], r["opening"]["white"]) == (None, None)  # flags 3-5 missing
    # RIF has one opportunity: a swap flagged second has nowhere to go
    rif = with_events("h8 h9 i10 i7 {j10 g10} j10 k7", *flags)
    assert codes(analyze(rif, "renju-rif")) == [("swap-not-allowed", None)]
    # Sakata: the one flag is the colour choice after stone 5
    saka = with_events("h8 h9 i10 i7 j10 k7", OpeningEvent("swap", -1, "1"))
    r = analyze(saka, "sakata")
    assert r["findings"] == []
    assert (r["opening"]["black"], r["opening"]["white"]) == ("P2", "P1")


def test_seats_follow_swaps_and_choices() -> None:
    r = run("h8 h9 i10 swap i7 {j10 g10} j10 k7", "renju-rif")
    assert (r["opening"]["black"], r["opening"]["white"]) == ("P2", "P1")
    r = run("h8 h9 i10 noswap i7 {j10 g10} j10 k7", "renju-rif")
    assert (r["opening"]["black"], r["opening"]["white"]) == ("P1", "P2")
    r = run("h8 h9 i10 i7 j10 black k7", "swap2")
    assert r["opening"]["branch"] == ["two-more"]
    assert (r["opening"]["black"], r["opening"]["white"]) == ("P1", "P2")
    r = run("h8 h9 i10 black i7", "swap2")
    assert r["opening"]["branch"] == ["take-black"]
    assert (r["opening"]["black"], r["opening"]["white"]) == ("P2", "P1")


def test_taraguchi_branch_is_read_from_the_record() -> None:
    fifth = run("h8 h9 i10 i7 j10 k7", "taraguchi-10")
    assert fifth["opening"]["branch"] == ["fifth"] and fifth["findings"] == []
    offers = run("h8 h9 i10 i7 {j10 g10 k11 f6 l4 d12 m12 b3 n9 e5} m10 k7", "taraguchi-10")
    assert codes(offers) == [("kept-not-offered", 5)]
    assert offers["opening"]["branch"] == ["offers"]
    # a fifth outside 9x9 without recorded offers can only be a kept offer: not guessed
    far = run("h8 h9 i10 i7 m10 k7", "taraguchi-10")
    assert codes(far) == [("unchecked", 5)]
    assert far["opening"]["branch"] == ["offers"]
    # ... unless a swap after stone 5 says it was the single fifth
    assert codes(run("h8 h9 i10 i7 m10 swap k7", "taraguchi-10")) == [("opening-region", 5)]


def test_messages_name_the_move_and_the_step() -> None:
    r = run("h8 h9 i10 i4 j10 k7", "taraguchi-10")
    message = r["findings"][0]["message"]
    assert message.startswith("move 4 (i4) is not in the central 7x7")
    assert "step 7 of taraguchi-10: white places white 4 in the central 7x7" in message
    r = run("h8 h9 i10 i7 {j10 g10} k11 k7", "renju-rif")
    assert r["findings"][0]["message"].startswith("move 5 (k11) is not one of the offers")
    assert "step 7 of renju-rif" in r["findings"][0]["message"]


def test_an_unnamed_protocol_is_named_after_its_ruleset() -> None:
    # not the default "opening protocol", which would read "the opening protocol opening
    # protocol is not followed"
    from renju_cli.opening import protocol_of
    from renju_cli.referee import replay

    text = "name: {}\nextends: renju\nopening:\n  steps:\n    - place: {{move: 1, color: black}}\n"
    mine, theirs = from_text(text.format("mine")), from_text(text.format("theirs"))
    assert protocol_of(mine).name == "mine" and protocol_of(theirs).name == "theirs"  # type: ignore[union-attr]
    report = replay(parse_record("h8 reject h9"), mine)
    words = " ".join(f.message for f in report.findings)
    assert "mine allows no rejection" in words and "opening protocol opening" not in words
    assert report.opening is not None and report.opening["protocol"] == "mine"
    named = from_text(text.format("n").replace("opening:\n", "opening:\n  name: Pro\n"))
    assert protocol_of(named).name == "Pro"  # type: ignore[union-attr]
