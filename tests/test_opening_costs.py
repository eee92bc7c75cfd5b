"""What the opening walk costs on hostile records and rulesets, pinned without timing.

A record that names Super Sakata (``RU[super-sakata]``) with a swap recorded at no place could
make the walk follow the repeated branch (take white, take black, or add two stones and hand
the choice back) round after round, three options each, and a user's ruleset of many steps
after a branch could make it walk thousands of paths.  So the walk follows at most
``MAX_ROUNDS`` rounds and applies at most ``MAX_STEPS`` steps per record (then each branch
takes its first option), and the lines of a tree share the check of the line before when they
begin with the same stones as far as its check read them.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml

from renju_cli import opening
from renju_cli.formats import read_stream
from renju_cli.opening import check_opening, sharing
from renju_cli.opening import walk as opening_walk
from renju_cli.opening.check import check_record
from renju_cli.record import Record
from renju_cli.ruleset import load


def sgf_comb(lines: int, stones: int = 40) -> bytes:
    """A Super Sakata tree: ``stones`` moves on a 26x26 board, a swap at no place, then
    ``lines`` one-move variations."""

    def point(x: int, y: int) -> str:
        return chr(97 + x) + chr(97 + y)

    first = [(13, 13), (13, 12), (14, 11), (12, 15), (16, 16)]
    rest = [(x, y) for y in range(0, 26, 2) for x in range(0, 26, 2) if (x, y) not in first]
    trunk = "".join(f";{'BW'[i % 2]}[{point(*p)}]" for i, p in enumerate((first + rest)[:stones]))
    leaves = [(x, y) for y in range(1, 26, 2) for x in range(1, 26, 2)]
    tree = "(;GM[4]SZ[26]RU[super-sakata]" + trunk + "SW[Y]"
    tree += "".join(f"(;W[{point(*leaves[i])}])" for i in range(lines)) + ")"
    return tree.encode()


def checks_made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the checks made anew from now on (in the list returned), none remembered yet."""
    made = [0]
    real = check_record

    def counted(*args: Any) -> opening.OpeningCheck:
        made[0] += 1
        return real(*args)

    monkeypatch.setattr(sharing, "check_record", counted)
    return made


def read(data: bytes) -> list[Record]:
    return list(read_stream(io.BufferedReader(io.BytesIO(data)), "comb.sgf"))


def test_the_lines_of_a_tree_share_the_check_of_the_line_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records = read(sgf_comb(30, stones=100))
    assert len(records) == 30 and all(r.rule == "super-sakata" for r in records)
    ruleset = load("super-sakata")
    fresh = [check_record(r, ruleset) for r in records]
    made = checks_made(monkeypatch)
    checks = [check_opening(r, ruleset) for r in records]
    assert made == [1]  # the lines differ only past what the walk read
    for got, want in zip(checks, fresh, strict=True):
        assert [f.to_json() for f in got.findings] == [f.to_json() for f in want.findings]
        assert got.opening == want.opening and got.course == want.course


def test_a_line_that_differs_in_what_the_walk_read_is_checked_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a tree whose lines part at move 3: the walk reads stones 1-5 and more, so each line
    # is checked for itself
    tree = (
        b"(;GM[4]SZ[15]RU[super-sakata];B[hh];W[hi]"
        + b"".join(b"(;B[%s];W[jj];B[kk])" % p for p in (b"ii", b"gg", b"ig", b"gi"))
        + b")"
    )
    records = read(tree)
    ruleset = load("super-sakata")
    made = checks_made(monkeypatch)
    checks = [check_opening(r, ruleset) for r in records]
    assert made == [4]
    monkeypatch.undo()
    assert [c.opening for c in checks] == [check_record(r, ruleset).opening for r in records]


def test_a_repeated_branch_is_followed_a_bounded_number_of_rounds() -> None:
    # 200 stones after the first five and a swap at no place: every round could go on
    [record] = read(sgf_comb(0, stones=205))[:1]
    check = check_record(record, load("super-sakata"))
    assert check.opening is not None
    assert len(check.opening.get("branch", [])) <= opening.MAX_ROUNDS


def test_a_hostile_ruleset_applies_a_bounded_number_of_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # branches of two options nested five deep, each option a swap and the next branch,
    # then 160 swaps (252 steps written, under MAX_PROTOCOL_STEPS): 32 paths of 170 steps
    # each, 5,440 steps, past a MAX_STEPS of 1,000 (real records take 20)
    swap = {"swap": {"by": "P2"}}

    def options(depth: int) -> list[dict[str, Any]]:
        inner = [{"branch": {"by": "P1", "options": options(depth - 1)}}] if depth else []
        return [{"name": f"o{k}", "steps": [swap, *inner]} for k in range(2)]

    path = tmp_path / "evil.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "name": "evil",
                "extends": "renju",
                "opening": {
                    "steps": [{"branch": {"by": "P1", "options": options(4)}}] + [swap] * 160
                },
            }
        )
    )
    ruleset = load(str(path))
    applied = 0
    real = opening_walk._decision

    def decision(*args: Any) -> Any:
        nonlocal applied
        applied += 1
        return real(*args)

    monkeypatch.setitem(opening_walk.STEPS, "swap", decision)
    monkeypatch.setattr(opening_walk, "MAX_STEPS", 1000)
    record = read(b"h8 h9 i10\n")[0]
    check = check_opening(record, ruleset)
    # the budget, and the steps of the paths it lets finish
    assert opening_walk.MAX_STEPS < applied <= opening_walk.MAX_STEPS + 2 * 170
    # and the check says that its branches were not all tried
    (said,) = [f for f in check.findings if "branches were tried as far as" in f.message]
    assert said.code == "unchecked" and said.severity == "warning"


# -- threads, shorter lines, setups and empty steps -----------------------------------------------
def _line(stones: list[tuple[int, int]], variation: str) -> Record:
    from renju_cli.coords import Point
    from renju_cli.record import Move, SourceLocation

    record = Record(
        [Move(Point(*p)) for p in stones], SourceLocation("t.sgf", 0, 1, None, variation)
    )
    record.opening_id = "D4"  # (an id: the line's check is not the memo of first stones)
    return record


def test_threads_checking_lines_of_two_trees_get_their_own_checks() -> None:
    # the last line's check was kept field by field: a thread could get the check of the
    # other thread's stones (a bad opening reported clean, 914 in 60,000 checks)
    import sys
    from concurrent.futures import ThreadPoolExecutor

    rules = load("yamaguchi")
    one = [(7, 7), (7, 8), (8, 8), (9, 9), (10, 10)]
    other = [(7, 7), (2, 2), (12, 12), (9, 9), (10, 10)]
    want = {
        tuple(s): [f.code for f in check_record(_line(s, "1"), rules).findings]
        for s in (one, other)
    }
    assert want[tuple(one)] != want[tuple(other)]

    def work(stones: list[tuple[int, int]]) -> int:
        wrong = 0
        for i in range(3000):
            got = [f.code for f in check_opening(_line(stones, str(i)), rules).findings]
            wrong += got != want[tuple(stones)]
        return wrong

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(2) as pool:
            assert list(pool.map(work, [one, other])) == [0, 0]
    finally:
        sys.setswitchinterval(before)


def test_a_shorter_line_has_no_line_for_a_finding_past_its_end() -> None:
    # a swap recorded after move 10 at the root: the main line's finding of move 10 has its
    # line; a variation of 6 moves, which shares the check, has none (it had line 11)
    tree = (
        b"(;GM[4]SZ[15]SW[10]\n;B[hh]\n;W[hi]\n;B[ii]\n;W[gg]\n;B[jj](\n;W[kk]\n;B[ll]\n;W[mm]"
        b"\n;B[nn]\n;W[ee]\n;B[dd]\n;W[cc])(\n;W[aa]))"
    )
    rules = load("swap2")
    for record in read(tree):
        got = check_opening(record, rules)
        fresh = check_record(record, rules)
        assert [f.to_json() for f in got.findings] == [f.to_json() for f in fresh.findings]


def test_lines_of_a_tree_with_setup_stones_share_its_check_as_far_as_it_goes() -> None:
    # a root of setup stones (a problem collection): the protocol is not walked, so only the
    # setup and the events decide the check, which the lines share (kept on the tree); a line
    # with other setup stones, or with a swap recorded after move 2, is checked afresh
    tree = (
        b"(;GM[4]SZ[15]AB[hh][ii]AW[hi]\n;B[jj](\n;W[kk]\n;B[ll])(\n;W[aa])(\n;W[bb]))"
        b"(;GM[4]SZ[15]AB[hh]AW[hi]\n;B[jj](\n;W[kk])(\n;W[aa]))"
        b"(;GM[4]SZ[15]AB[hh]AW[hi]SW[2]\n;B[jj](\n;W[kk]\n;B[cc])(\n;W[aa]))"
    )
    rules = load("renju-rif")
    records = read(tree)
    assert len(records) >= 7
    for record in records:
        got = check_opening(record, rules)
        fresh = check_record(record, rules)
        assert (got.opening, got.course) == (fresh.opening, fresh.course)
        assert [f.to_json() for f in got.findings] == [f.to_json() for f in fresh.findings]
        assert f"starts from {len(record.setup)} setup stone(s)" in got.findings[0].message
    # the second line of the first tree took the first line's check as it is
    records = read(tree)
    first, second = check_opening(records[0], rules), check_opening(records[1], rules)
    assert second.findings[0] is first.findings[0]


def test_empty_steps_of_two_rulesets_are_not_mistaken_for_each_other(tmp_path: Path) -> None:
    # () is one object: a protocol of no steps and an empty option of a branch without a
    # chooser were found under the same key, an int taken for steps (TypeError, exit 3)
    empty = tmp_path / "empty.yaml"
    empty.write_text("name: empty\nextends: renju\nopening: {name: Empty, steps: []}\n")
    noby = tmp_path / "noby.yaml"
    noby.write_text(
        yaml.safe_dump(
            {
                "name": "noby",
                "extends": "renju",
                "opening": {
                    "name": "NoBy",
                    "steps": [
                        {"place": {"move": 1, "color": "black", "by": "P1"}},
                        {
                            "branch": {
                                "options": [
                                    {"name": "play", "steps": []},
                                    {"name": "swap", "steps": [{"swap": {"by": "P2"}}]},
                                ]
                            }
                        },
                        {"place": {"move": 2, "color": "white", "by": "white"}},
                    ],
                },
            }
        )
    )
    record = read(b"h8 h9 j10 k11\n")[0]
    for order in ([empty, noby], [noby, empty]):
        for path in order:
            ruleset = load(str(path))
            check = check_opening(record, ruleset)
            assert [f.to_json() for f in check.findings] == [
                f.to_json() for f in check_record(record, ruleset).findings
            ]


def test_records_of_the_same_events_on_other_lines_have_findings_on_their_own_lines() -> None:
    # games that each say SW[1] at their root, each on its line, and records that reject: a
    # finding of a move names the move's line, a rejection's finding the event's line
    games = b"".join(b"(;RU[renju-rif]SW[1];B[h%c];W[ii];B[jj])\n" % (97 + k) for k in range(6))
    records = read(games)
    rules = load("renju-rif")
    checks = [check_opening(r, rules) for r in records]
    assert [r.opening_events[0].line for r in records] == [1, 2, 3, 4, 5, 6]
    for r, c in zip(records, checks, strict=True):
        assert [f.line for f in c.findings if f.move is not None] == [
            r.source.line for f in c.findings if f.move is not None
        ]
    rejects = read(b"".join(b"h8 h9 i10 reject h%d h9 i10\n" % (k + 1) for k in range(4)))
    plain = load("renju")
    found = [check_opening(r, plain).findings for r in rejects]
    assert [[(f.code, f.line) for f in fs] for fs in found] == [
        [("reject-not-allowed", k)] for k in (1, 2, 3, 4)
    ]


def test_only_few_and_short_events_are_small() -> None:
    # the referee's memo of short records keys their events: never an offer of many points
    from renju_cli.coords import Point
    from renju_cli.record import OpeningEvent

    small = [OpeningEvent("offers", 4, None, [Point(1, 1), Point(2, 2)], 1)]
    big = [OpeningEvent("offers", 4, None, [Point(x, y) for x in range(15) for y in range(15)], 1)]
    long = [OpeningEvent("declare", 4, "9" * 100)]
    assert opening.small_events(small)
    assert not opening.small_events(big) and not opening.small_events(long)
    assert not opening.small_events(small * 9)
