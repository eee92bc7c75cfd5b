"""What opening events cost: bounded per record, charged to a tree's budget, never redone line
after line of a variation tree, and linear in their number.

Costs are pinned without timing: by counting the Python lines run (``python_steps``: a
quadratic loop runs four times the lines when its input doubles, a linear one twice), by
counting how often a piece of work is done, or by the size of what a record holds.
"""

from __future__ import annotations

import dataclasses
import io
import sys
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from renju_cli import opening
from renju_cli.api import position_after
from renju_cli.board import BLACK, WHITE
from renju_cli.coords import Point, parse_point
from renju_cli.formats import ReadOptions, read_stream
from renju_cli.formats import playok as playok_format
from renju_cli.formats.notation import parse_record
from renju_cli.opening import check_opening
from renju_cli.opening import findings as opening_findings
from renju_cli.opening import leftovers as opening_leftovers
from renju_cli.opening import offers as opening_offers
from renju_cli.opening import state as opening_state
from renju_cli.opening import walk as opening_walk
from renju_cli.opening.symmetry import symmetric_pairs
from renju_cli.record import Move, OpeningEvent, Record, SourceLocation
from renju_cli.referee import Replay, new_report, replay, replay_uncached
from renju_cli.report import MAX_FINDINGS, Finding
from renju_cli.ruleset import load

RIF = load("renju-rif")


def read(data: bytes, fmt: str, options: ReadOptions | None = None) -> list[Record]:
    stream = io.BufferedReader(io.BytesIO(data))
    return list(read_stream(stream, "events", fmt, options))


def python_steps(work: Callable[[], Any]) -> int:
    """How many Python lines, calls and returns ``work`` runs (work done in C is not seen)."""
    steps = 0

    def count(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        steps += 1
        return count

    sys.settrace(count)
    try:
        work()
    finally:
        sys.settrace(None)
    return steps


def linear(make: Callable[[int], Callable[[], Any]], n: int) -> tuple[int, int]:
    """The steps of the work made for ``n`` and for ``2n``: about twice as many when the work
    is linear, four times when it is quadratic."""
    return python_steps(make(n)), python_steps(make(2 * n))


def reports_of(records: list[Record], rules: Any = RIF) -> list[Any]:
    return [replay(r, rules) for r in records]


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> Counter[str]:
    """Count the calls of ``owner.name`` (a function of a module or a class)."""
    seen: Counter[str] = Counter()
    original = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        seen[name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return seen


def listed_and_counted(findings: list[Finding], code: str) -> int:
    """Findings of ``code`` in a report: listed, and counted by ``too-many-findings``."""
    listed = sum(1 for f in findings if f.code == code)
    more = sum((f.counts or {}).get(code, 0) for f in findings if f.code == "too-many-findings")
    return listed + more


# -- SGF: a root's events are read once per tree and charged to the file's budget ---------------
def sw_siblings(values: int, leaves: int, rule: str = "RIF") -> bytes:
    """A root with many ``SW`` values (one swap event each), then many one-move lines."""
    head = b"(;GM[4]SZ[15]RU[" + rule.encode() + b"]SW" + b"[]" * values + b";B[hh]"
    return (
        head
        + b"".join(b"(;W[%s])\n" % bytes([97 + i % 15, 97 + i // 15 % 15]) for i in range(leaves))
        + b")"
    )


def test_root_events_are_charged_to_the_budget_of_a_tree() -> None:
    # 2,000 swaps at the root, in each of 400 lines: 800,000 events to check, when the file's
    # budget (65,536 + 2 per byte) holds about 80,000 moves
    data = sw_siblings(2000, 400)
    options = ReadOptions()
    budget = options.move_budget(len(data))
    records = read(data, "sgf", options)
    *lines, refused = records
    assert (
        refused.unreadable and "a tree this repetitive is refused" in refused.problems[-1].message
    )
    assert len(lines) < 45
    assert sum(len(r.opening_events) + len(r.moves) for r in lines) <= budget


def test_the_events_of_a_line_are_bounded_like_its_moves() -> None:
    options = ReadOptions(max_moves=50)
    (record,) = read(sw_siblings(80, 1), "sgf", options)
    assert len(record.opening_events) == 50
    assert any("more than 50 opening events" in p.message for p in record.problems)
    # an offer of many points weighs its points
    (offers,) = read(b"(;GM[4]SZ[15]FA[" + b"ab" * 300 + b"];B[hh])", "sgf", options)
    assert sum(len(e.points) for e in offers.opening_events) == 50
    assert any("more than 50 opening events" in p.message for p in offers.problems)


def test_the_lines_of_a_tree_word_only_the_findings_they_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records = read(sw_siblings(300, 40), "sgf")
    assert len(records) == 40
    worded = counted(monkeypatch, opening_leftovers, "_leftover_finding")
    reports = reports_of(records)
    # each line (two moves: RIF's swap after move 3 is not reached) lists at most
    # MAX_FINDINGS of its 300 unexplained swaps, and counts the rest
    assert worded["_leftover_finding"] <= 40 * MAX_FINDINGS
    for report in reports:
        assert listed_and_counted(report.findings, "swap-not-allowed") == 300


def test_the_offers_of_a_tree_are_worded_as_far_as_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # RIF: four moves, an FA of 1,000 points (one offered 1,000 times), then 40 fifth moves
    head = b"(;GM[4]SZ[15]RU[RIF];B[hh];W[hi];B[ij];W[jj]FA[" + b"gj" * 1000 + b"]"
    leaves = b"".join(b"(;B[%s])\n" % bytes([97 + i % 15, 97]) for i in range(40))
    records = read(head + leaves + b")", "sgf")
    assert len(records) == 40
    worded = counted(monkeypatch, opening_offers, "_offer_problem")
    reports = reports_of(records)
    assert worded["_offer_problem"] <= 40 * MAX_FINDINGS
    for report in reports:  # g6 once, and offered twice 999 times
        assert listed_and_counted(report.findings, "offer-invalid") == 999


# -- findings past the report's cap ---------------------------------------------------------------
def test_findings_past_the_cap_are_counted_never_worded(monkeypatch: pytest.MonkeyPatch) -> None:
    record = parse_record("h8 h9 i10 i7 {" + "a1 " * 3000 + "}")
    modules = (opening_state, opening_offers, opening_walk, opening_leftovers)
    worded = [counted(monkeypatch, m, "make_finding") for m in modules]  # (each module's name)
    report = replay_uncached(record, RIF)
    assert sum(w["make_finding"] for w in worded) <= MAX_FINDINGS + 5
    assert listed_and_counted(report.findings, "offer-invalid") == 2999
    assert len(report.findings) == MAX_FINDINGS + 1


def test_the_findings_kept_are_the_first_the_report_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    # offers offered twice (move 5) before swaps the protocol does not allow (no move: they
    # sort first): the findings kept are those an unbounded check would list first
    text = "h8 h9 i10 i7 {" + "j10 " * 150 + "} j10 k7 " + "swap " * 30 + "black " * 40
    record = parse_record(text)
    bounded = check_opening(record, RIF)
    monkeypatch.setattr(opening_findings, "MAX_FINDINGS", 10**6)
    whole = check_opening(record, RIF)
    assert len(whole.findings) > MAX_FINDINGS and whole.dropped is None

    def by_move(findings: list[Finding]) -> list[Finding]:
        return sorted(findings, key=lambda f: -1 if f.move is None else f.move)

    first = by_move(whole.findings)[:MAX_FINDINGS]
    assert by_move(bounded.findings) == first
    rest = Counter((f.code, f.severity) for f in by_move(whole.findings)[MAX_FINDINGS:])
    assert bounded.dropped == rest


# -- offers: symmetry ----------------------------------------------------------------------------
def offers_record(count: int) -> Record:
    """Two stones on 26x26, symmetric in column m only, and ``count`` offers for move 3 left
    of that column: no offer has a symmetric twin, so a check that pairs the offers pairs
    each with every earlier one."""
    names = [f"{c}{r}" for c in "abcdefghijkl" for r in range(1, 27)]
    points = [parse_point(p) for p in names][:count]
    moves = [Move(parse_point("m13")), Move(parse_point("m12"))]
    event = OpeningEvent("offers", 2, points=points)
    return Record(moves, SourceLocation("offers"), 26, 26, opening_events=[event])


def test_symmetric_offers_cost_a_look_up_per_symmetry() -> None:
    offer_at_3 = dataclasses.replace(
        RIF,
        opening={
            "name": "offers",
            "steps": [{"place": {}}, {"place": {}}, {"offer": {"count": 2}}],
        },
    )
    assert opening.stone_symmetries(
        {parse_point("m13"): BLACK, parse_point("m12"): WHITE}, 26, 26, "pattern"
    )
    steps = linear(lambda n: lambda: check_opening(offers_record(n), offer_at_3), 150)
    assert steps[1] < 2.5 * steps[0], steps


def brute_symmetric_pairs(stones: dict[Point, int], offers: list[Point]) -> list[Any]:
    """The definition: for each offer, the first earlier offer a symmetry maps onto it."""
    symmetries = opening.stone_symmetries(stones, 15, 15, "pattern")
    out = []
    for k, q in enumerate(offers):
        for p in offers[:k]:
            g = next((g for g in symmetries if g(p) == q), None)
            if g is not None:
                out.append(((p, q), g))
                break
    return out


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_offers_are_found_as_defined(seed: int) -> None:
    import random

    rnd = random.Random(seed)
    pick = [Point(x, y) for x in range(4, 11) for y in range(4, 11)]
    stones = {Point(7, 7): BLACK, Point(7, 8): WHITE, Point(8, 8): BLACK, Point(6, 8): WHITE}
    if seed % 2:
        stones = {Point(7, 7): BLACK, Point(8, 8): WHITE}
    offers = list(dict.fromkeys(rnd.choice(pick) for _ in range(30)))
    assert list(symmetric_pairs(stones, 15, 15, "pattern", offers)) == brute_symmetric_pairs(
        stones, offers
    )


# -- notation: rejections and moved stones ------------------------------------------------------
BIG = ReadOptions(max_moves=1 << 20)  # (the library may raise the bound the CLI only lowers)


def notation(text: str) -> Callable[[], Any]:
    return lambda: replay_uncached(parse_record(text, options=BIG), RIF)


def test_moved_stones_after_one_move_are_linear() -> None:
    steps = linear(lambda n: notation("h8 " + "a1-b2 " * n), 1000)
    assert steps[1] < 2.5 * steps[0], steps
    # the course holds them once, in record order (a tuple grown by one per event would be
    # quadratic in C, which no step count sees)
    record = parse_record("h8 " + "a1-b2 " * 50)
    course = check_opening(record, RIF).course
    assert course is not None and list(course.board_events[1]) == record.opening_events


def test_moved_stones_after_every_move_are_linear() -> None:
    names = [f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)]

    def text(n: int) -> str:
        return " ".join(
            f"{names[i % 225]} {names[i % 225]}-{names[(i + 7) % 225]}" for i in range(n)
        )

    steps = linear(lambda n: notation(text(n)), 600)
    assert steps[1] < 2.5 * steps[0], steps


def test_rejections_after_every_move_are_linear() -> None:
    steps = linear(lambda n: notation("h8 reject " * n), 600)
    assert steps[1] < 2.5 * steps[0], steps


@pytest.mark.parametrize(
    "text",
    [
        "h8 h9 i10 g7 j10 i10-i9 g7-g6 k7 a1",
        "h8 h9 i10 reject h8 h9 i10 i7 reject j10 k7",
        "h8 h9 h8-a1 a1-a2 i10 h9-i10 z9-a1 h8-i11 i11-o15 j10 reject k7 k7-k8 k8-k7",
        "h8 reject reject h8 h9-h10 h9 h9-h8",
    ],
)
def test_the_referee_moves_stones_as_the_opening_check_does(text: str) -> None:
    record = parse_record(text)
    check = check_opening(record, RIF)
    walk = Replay(record, RIF, new_report(record, RIF), check.course)
    walk.run()
    expected = position_after(record, RIF).board
    assert walk.board.cells == expected.cells


def test_the_events_of_a_move_list_are_bounded_like_its_moves() -> None:
    options = ReadOptions(max_moves=40)
    record = parse_record("h8 h9 " + "swap " * 100 + "i10", options=options)
    assert len(record.opening_events) == 40 and len(record.moves) == 2  # i10 is not read
    assert "more than 40 opening events" in record.problems[-1].message
    offers = parse_record("h8 h9 i10 i7 {" + "a1 " * 100 + "} j10", options=options)
    assert [len(e.points) for e in offers.opening_events] == [40]
    assert "more than 40 opening events" in offers.problems[-1].message
    exact = parse_record("h8 h9 i10 i7 {" + "a1 " * 39 + "} swap j10", options=options)
    assert not exact.problems and len(exact.moves) == 5


# -- PlayOK ----------------------------------------------------------------------------------------
def playok(movetext: bytes) -> bytes:
    return b'[Site "PlayOK"]\n[GameType "61,15"]\n\n' + movetext + b"\n"


def test_empty_slots_after_colour_choices_are_linear() -> None:
    def make(n: int) -> Callable[[], Any]:
        return lambda: read(playok(b"1. h8 " + b"black -- " * n + b"1-0"), "playok")

    steps = linear(make, 1000)
    assert steps[1] < 2.5 * steps[0], steps


def test_the_notes_of_a_game_are_bounded() -> None:
    (slots,) = read(playok(b"1. h8 h9 i10 i11 j12 k13 " + b"-- " * 1000 + b"1-0"), "playok")
    assert len(slots.notes) <= playok_format.MAX_NOTES + 3
    assert any(n.startswith(f"{1000 - playok_format.MAX_NOTES} more note(s)") for n in slots.notes)
    (bad,) = read(playok(b"1. h8 h9\n" + b"\xff\n" * 1000 + b"1-0"), "playok")
    assert len(bad.notes) <= playok_format.MAX_NOTES + 3
    assert any("more note(s) like these are not kept" in n for n in bad.notes)


def test_the_colour_choices_of_a_game_are_bounded() -> None:
    options = ReadOptions(max_moves=30)
    (game,) = read(playok(b"1. h8 " + b"black " * 100 + b"h9 1-0"), "playok", options)
    assert len(game.opening_events) == 30 and len(game.moves) == 1
    assert any("more than 30 colour choices" in p.message for p in game.problems)
