"""A file's opening events are bounded by its size, as its records are; records that begin with
the same stones share one opening check.

A hostile file packs an opening event in a byte (RenjuNet's ``swap='s-s-s-...'``, JSON Lines'
``"swaps"``), and each is indexed and may be walked.
Past ``ReadOptions.max_events`` (16,384 + one per 8 bytes of the file) a record's events are not
read, with a problem that says so; the record itself is judged, never lost.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from helpers import run_cli as renju

from renju_cli.coords import Point
from renju_cli.formats import (
    ReadOptions,
    bound_events,
    event_weight,
    numbered_swaps,
    read_stream,
)
from renju_cli.formats.notation import parse_record
from renju_cli.opening import OpeningCheck, check_opening, sharing
from renju_cli.opening.check import check_record
from renju_cli.record import Color, OpeningEvent, Record
from renju_cli.ruleset import Ruleset, load

SWAPS = "s-" * 2040  # 4,080 flags: under the per-game cap of 4,096


def read(data: bytes, fmt: str, options: ReadOptions | None = None) -> list[Record]:
    return list(read_stream(io.BufferedReader(io.BytesIO(data)), "events", fmt, options))


def flags(k: int) -> str:
    """The swap flags of game ``k``: ``SWAPS`` with the ``k``-th flag the other way."""
    chars = list(SWAPS)
    chars[k % len(chars)] = "s" if chars[k % len(chars)] == "-" else "-"
    return "".join(chars)


def test_the_bound_grows_with_the_size_of_the_file() -> None:
    options = ReadOptions()
    assert options.for_file(0).max_events == 16384
    assert options.for_file(1 << 20).max_events == 16384 + (1 << 20) // 8
    # a records limit given on the command line leaves the bound on events by size alone
    unbounded_records = ReadOptions(bytes_per_record=0, max_records=100).for_file(1 << 20)
    assert unbounded_records.max_records == 100
    assert unbounded_records.max_events == 16384 + (1 << 20) // 8


def test_an_event_weighs_one_and_each_offered_point_one_more() -> None:
    record = parse_record("h8 h9 i10 i11 {j12 k7 g6} swap noswap")
    # the offers (3 points) and the two decisions
    assert event_weight(record.opening_events) == 1 + 3 + 2


def test_records_past_the_bound_are_judged_without_their_events() -> None:
    lines = b"".join(
        json.dumps({"moves": "h8 h9 i10 i11 j12", "swaps": flags(k)}).encode() + b"\n"
        for k in range(6)
    )
    # room for two games' flags, not three
    options = ReadOptions(max_events=2 * 4080 + 100)
    records = read(lines, "jsonl", options)
    assert len(records) == 6  # every game is a record
    assert [len(r.opening_events) for r in records] == [4080, 4080, 0, 0, 0, 0]
    for r in records[:2]:
        assert not r.problems
    for r in records[2:]:
        (problem,) = r.problems
        assert problem.message.startswith("4080 opening events (swaps, choices, offers) not read")
        assert "more than 8260 opening events" in problem.message
        assert problem.line == r.source.line
        assert r.moves  # the game itself is read


def test_the_message_says_why_and_how_to_lift_it() -> None:
    sized = ReadOptions().for_file(1000)
    assert sized.too_many_events() == (
        "the file's records hold more than 16509 opening events in all (at most 16384 + one "
        "per 8 bytes of the file, an offered point counting as one; --limit events=N sets "
        "the bound)"
    )
    given = ReadOptions(max_events=50, bytes_per_event=0)
    assert given.too_many_events() == ("the file's records hold more than 50 opening events in all")


def test_the_same_events_in_record_after_record_are_charged_once() -> None:
    # the games of a database with the same flags share their events (``numbered_swaps``
    # makes them once), and the opening check indexes them once: they cost nothing more
    first, second = numbered_swaps("s-s"), numbered_swaps("s-s")
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert numbered_swaps("s--")[2] is not first[2]
    lines = b"".join(
        json.dumps({"moves": "h8 h9 i10", "swaps": SWAPS}).encode() + b"\n" for _ in range(50)
    )
    records = read(lines, "jsonl", ReadOptions(max_events=4080))
    assert all(len(r.opening_events) == 4080 and not r.problems for r in records)
    # each record still has a list of its own
    assert records[0].opening_events is not records[1].opening_events


def test_the_lines_of_a_variation_tree_are_charged_once() -> None:
    # a root swap decision shared by every line of the tree
    tree = (
        b"(;GM[4]SZ[15]PL[B];B[hh];W[hi];B[ii]SW[]"
        + b"".join(b"(;W[%s])" % bytes([97 + k, 97]) for k in range(12))
        + b")"
    )
    records = read(tree, "sgf", ReadOptions(max_events=1))
    assert len(records) == 12
    assert all(len(r.opening_events) == 1 and not r.problems for r in records)


def test_bound_events_passes_records_without_events_through() -> None:
    records = [parse_record("h8 h9"), parse_record("h8 h9 swap")]
    out = list(bound_events(iter(records), ReadOptions(max_events=0)))
    assert out[0].problems == []
    assert out[1].opening_events == [] and len(out[1].problems) == 1


def test_a_flood_of_swap_flags_is_bounded_and_every_game_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 60 RenjuNet games of 4,080 swap flags each, every game's flags its own (11 read whole)
    head = "<?xml version='1.0'?><database><rules><rule id='1' name='RIF'/></rules><games>"
    games = "".join(
        f"<game rule='1' swap='{flags(k)}'><move>h8 h9 i10 i11 j12</move></game>\n"
        for k in range(60)
    )
    path = tmp_path / "swaps.xml"
    path.write_text(head + games + "</games></database>")
    size = path.stat().st_size
    code, out, _ = renju(capsys, "check", str(path), "--format", "jsonl")
    assert code == 1
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) == 60
    bound = 16384 + size // 8
    read_whole = bound // 4080
    not_read = [
        r
        for r in reports
        if any(
            "opening events (swaps, choices, offers) not read" in f["message"]
            for f in r["findings"]
        )
    ]
    assert len(not_read) == 60 - read_whole > 0
    # the others are judged with their flags: their leftover flags are findings
    assert all(r["moves"] == 5 for r in reports)


def test_a_limit_on_events_replaces_the_bound(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.txt"
    path.write_text("h8 h9 i10 swap\nh8 h9 i10 noswap\n")
    _, out, _ = renju(capsys, "check", str(path), "--format", "jsonl", "--limit", "events=1")
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) == 2
    messages = [f["message"] for f in reports[1]["findings"] if f["code"] == "parse-error"]
    assert messages == [
        "1 opening events (swaps, choices, offers) not read: the file's records hold more "
        "than 1 opening events in all; the opening is checked without them"
    ]
    code, _, _ = renju(capsys, "check", str(path), "--limit", "events=0")
    assert code == 2


# -- one opening check for records that begin alike ----------------------------------------------
OPENINGS = [
    # stones, with passes and short records among them
    "h8 h9 i10 j11 k12 l13",
    "h8 h9 i10 j11 k12",
    "h8 h9 i10",
    "h8 h9",
    "a1 b2 c3 d4 e5 f6",
    "h8 pass i10 j11",
    "h8 h9 i9 g7 g8 f9 e10",
    "h8 i9 j10 k11 h10 h11",
]


@pytest.mark.parametrize("rules", ["renju-rif", "swap2", "yamaguchi", "taraguchi-10", "soosyrv-8"])
def test_a_remembered_check_is_the_check_made_anew(rules: str) -> None:
    ruleset = load(rules)
    sharing._CHECKED.clear()
    for text in OPENINGS:
        # the same stones on other lines of a file: the second check is the remembered one,
        # with findings on the lines of its own moves
        first = parse_record(text, line=3)
        again = parse_record(text, line=70)
        fresh = check_record(again, ruleset)
        for _ in range(3):
            check_opening(first, ruleset)
        remembered = check_opening(again, ruleset)
        assert [f.to_json() for f in remembered.findings] == [f.to_json() for f in fresh.findings]
        assert remembered.opening == fresh.opening
        assert remembered.course == fresh.course
        assert remembered.dropped == fresh.dropped
        assert all(f.line in (None, 70) for f in remembered.findings)


# stones and opening events: swaps, offers, declared counts, colour choices, rejections and
# moved stones, before, inside and past the protocol's reach
WITH_EVENTS = [
    "h8 h9 i10 swap i11",
    "h8 h9 i10 swap i11 {j10 g10} j10 k7",
    "h8 h9 i10 swap i11 {j10 g12} j10 k7",
    "h8 h9 i10 noswap i11 N=2 {j10 g10} g10",
    "h8 h9 i10 noswap i11 N=3 {j10 g10} g10",
    "h8 i8 j9 swap g8 {j7 j10} j7 k5 a15",
    "h8 h9 i10 swap i11 {j10 g10} k7 a1",
    "h8 h9 white i10 j10 black {a1 a2 a3} a1",
    "h8 h9 i10 reject h8 i9 j10 swap k11",
    "h8 h9 i10 h9-g7 i11 j12",
    "h8 h9 i10 i11 {} swap",
    "h8 h9 i10 swap swap swap i11 noswap",
    # events past the protocol's reach, told as not explained: other moves around them
    "h8 h9 i10 swap i11 {j10 g10} j10 k7 a1 swap a2",
    "h8 h9 i10 swap i11 {j10 g10} j10 k7 a1 a3 swap a2",
    "h8 h9 i10 swap i11 {j10 g10} j10 k7 a1 b1 c1 d1 {e1 f1} e1 N=3 white",
    "h8 h9 i10 swap i11 {j10 g10} j10 k7 a2 b1 c1 d1 {e1 f1} e1 N=3 white",
]


@pytest.mark.parametrize(
    "rules", ["renju-rif", "swap2", "yamaguchi", "taraguchi-10", "soosyrv-8", "tarannikov"]
)
def test_a_record_with_events_is_checked_anew(rules: str) -> None:
    # a record with opening events is never served a remembered check: after records of the
    # same stones and events on other lines, its check is the one made anew
    ruleset = load(rules)
    sharing._CHECKED.clear()
    for text in WITH_EVENTS:
        for tail in ("", " a14 b14 c14 d14 e14 f14 g14 h14 i14 j14 k14 l14 m14"):
            first = parse_record(text, line=3)
            again = parse_record(text + tail, line=70)
            assert first.opening_events
            fresh = check_record(again, ruleset)
            for _ in range(2):
                check_opening(first, ruleset)
            remembered = check_opening(again, ruleset)
            assert [f.to_json() for f in remembered.findings] == [
                f.to_json() for f in fresh.findings
            ], (text, tail)
            assert remembered.opening == fresh.opening
            assert remembered.course == fresh.course
            assert remembered.dropped == fresh.dropped
    assert all(sharing.memo_key(parse_record(t), ruleset) is None for t in WITH_EVENTS)


def test_records_with_many_events_or_setup_are_not_remembered() -> None:
    rif = load("renju-rif")
    with_events = parse_record("h8 h9 i10 " + "swap " * 9 + "i11")
    assert len(with_events.opening_events) == 9
    assert sharing.memo_key(with_events, rif) is None
    big_offer = parse_record("h8 h9 i10 i11 {a1 a2 a3 a4 a5 a6 a7 a8 a9}")
    assert sharing.memo_key(big_offer, rif) is None
    assert sharing.memo_key(parse_record("h8 h9 i10"), load("renju")) is None  # no protocol
    with_setup = parse_record("h8 h9 i10")
    with_setup.setup = [(Point(0, 0), Color.BLACK)]
    assert sharing.memo_key(with_setup, rif) is None


def test_a_declared_opening_id_is_part_of_the_key() -> None:
    # RenjuNet declares the opening of every game: records of the same stones and the same
    # declared id share one check; another id (or none) is another check.
    #    . . . . .      stones 1-3 (h8 i9 j10) are I1 (Chosei): declaring I1 is clean,
    #    . . . 4 .      declaring D4 or I4 is a mismatch, Z9 is not an id at all; each
    #    . . 3 . .      remembered check is the one of its own id
    #    . 2 . . .
    #    1 . . . .
    rif = load("renju-rif")
    keys = {}
    for declared in (None, "D4", "I4", "I1"):
        record = parse_record("h8 i9 j10 k11")
        record.opening_id = declared
        keys[declared] = sharing.memo_key(record, rif)
    assert None not in keys.values()
    assert len(set(keys.values())) == 4
    for same in ("", "  ", " D4 "):  # (an id is read stripped, and a blank id is none)
        record = parse_record("h8 i9 j10 k11")
        record.opening_id = same
        assert sharing.memo_key(record, rif) == keys[same.strip() or None]
    sharing._CHECKED.clear()
    codes = {}
    for declared in ("D4", "I1", "Z9", "D4", "I1"):
        first = parse_record("h8 i9 j10 k11", line=2)
        first.opening_id = declared
        again = parse_record("h8 i9 j10 k11", line=9)
        again.opening_id = declared
        fresh = check_record(again, rif)
        check_opening(first, rif)
        remembered = check_opening(again, rif)
        assert [f.to_json() for f in remembered.findings] == [f.to_json() for f in fresh.findings]
        assert remembered.opening == fresh.opening
        codes[declared] = sorted({f.code for f in remembered.findings})
    assert codes["D4"] == ["opening-id-mismatch", "unchecked"]
    assert codes["I1"] == ["unchecked"]  # (the offers for move 5 are not recorded)
    assert codes["Z9"] == ["unchecked"]


def test_the_check_of_stones_seen_once_is_kept_apart_from_the_one_handed_out() -> None:
    # stones seen once are kept with their check (the second record of them must not walk
    # again), in containers of their own: what a caller does with the check it was given
    # does not reach the kept one, nor the next record's
    rif = load("renju-rif")
    sharing._CHECKED.clear()
    record = parse_record("h8 h9 i10 j11")
    key = sharing.memo_key(record, rif)
    assert key is not None
    first = check_opening(record, rif)
    assert first.findings and first.opening is not None
    kept = sharing._CHECKED[key][1]
    assert kept.findings == first.findings and kept.findings is not first.findings
    assert kept.opening == first.opening and kept.opening is not first.opening
    first.findings.clear()
    first.opening.clear()
    second = check_opening(record, rif)
    assert second.findings == kept.findings and second.findings
    assert second.opening == kept.opening and second.opening
    second.findings.clear()
    assert check_opening(record, rif).findings == kept.findings


def test_stones_seen_twice_are_walked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    rif = load("renju-rif")
    sharing._CHECKED.clear()
    walked: list[int] = []
    walk = check_record

    def counted(record: Record, ruleset: Ruleset, read: list[int] | None = None) -> OpeningCheck:
        walked.append(len(record.moves))
        return walk(record, ruleset, read)

    monkeypatch.setattr(sharing, "check_record", counted)
    for line in (1, 2, 3):
        check_opening(parse_record("h8 h9 i10 j11", line=line), rif)
    assert walked == [4]


def test_opening_event_fields_are_positional_as_the_readers_build_them() -> None:
    # ``numbered_swaps`` builds events positionally (kind, after, value)
    event = OpeningEvent("swap", -1, "3")
    assert (event.kind, event.after, event.value, event.points) == ("swap", -1, "3", [])
