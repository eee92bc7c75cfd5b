"""Lines of a variation tree are walked as a tree, each from where it leaves the line before
(``referee.tree``).

Every line must get exactly the report a replay from scratch gives: on the real libraries of
``../shared/corpus`` (when present), on our own tree seeds and regressions, and on hostile combs,
under rulesets with and without opening protocols, forbidden moves and caro's blocked fives.
"""

from __future__ import annotations

import functools
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from renju_cli import api
from renju_cli.formats import read_stream
from renju_cli.record import GameTree, Record
from renju_cli.referee import replay, replay_uncached
from renju_cli.referee.tree import TreeWalk

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import fuzz_seeds
import hostile

# the record's own rule (renju's forbidden moves), a protocol with offers and swaps, swap2's
# choices, and caro's blocked fives
RULES = [None, "renju-rif", "swap2", "caro"]


def _tree_inputs() -> dict[str, bytes]:
    out = {
        name: data
        for name, data in {**fuzz_seeds.own_seeds(), **fuzz_seeds.regression_seeds()}.items()
        if name.endswith((".sgf", ".lib")) or "sgf" in name or "renlib" in name
    }
    # (combs of some hundred lines: each line leaves the one before at another depth)
    out["sgf-comb"] = hostile.HOSTILE["sgf-comb"](3_000)
    out["renlib-comb"] = hostile.HOSTILE["renlib-comb"](6_000)
    out["sgf-comb-bad-leaves"] = hostile.HOSTILE["sgf-comb-bad-leaves"](3_000)
    # lines whose leaves say their own swaps and offers: resumed from the line before when
    # neither has a rejection or a moved stone and their courses agree
    out["sgf-siblings-with-swaps"] = hostile.HOSTILE["sgf-siblings-with-swaps-cctsai"](3_000)
    out["sgf-siblings-with-offers"] = hostile.HOSTILE["sgf-siblings-with-offers-cctsai"](3_000)
    out["sgf-swaps-at-every-depth"] = (
        b"(;RU[swap2];B[hh];W[hi](;B[ij]SW[3](;W[jj];B[kk])(;W[jk]SW[4];B[kl]))"
        b"(;B[ik](;W[ii]SW[2];B[gg])(;W[gi];B[gh]SW[5])(;W[gj]5A[2]FA[aa][bb];B[aa])))"
    )
    return out


def _compare(name: str, data: bytes, rules: str | None) -> int:
    count = 0
    for record in read_stream(io.BufferedReader(io.BytesIO(data)), name):
        ruleset = api.choose_ruleset(record, rules)
        got = replay(record, ruleset).to_json()
        assert got == replay_uncached(record, ruleset).to_json(), (name, record.source)
        count += 1
    return count


def _walk_of(record: Record, ruleset: object) -> TreeWalk:
    """The walk the referee keeps on ``record``'s tree under ``ruleset``."""
    assert record.branch is not None
    kept = record.branch.tree.kept["referee", id(ruleset)]
    assert isinstance(kept, TreeWalk) and kept.walk.checkpoints is not None
    return kept


@pytest.mark.parametrize("rules", RULES)
def test_resumed_lines_report_what_a_fresh_replay_reports(rules: str | None) -> None:
    inputs = _tree_inputs()
    assert len(inputs) >= 4
    lines = sum(_compare(name, data, rules) for name, data in sorted(inputs.items()))
    assert lines > 100


@pytest.mark.parametrize("rules", ["renju-rif", "caro"])
def test_resumed_lines_of_the_real_libraries(rules: str | None) -> None:
    libs = sorted((fuzz_seeds.CORPUS / "renlib").glob("*.lib"))
    if not libs:
        pytest.skip(f"no RenLib libraries in {fuzz_seeds.CORPUS} (shared corpus absent)")
    total = sum(_compare(p.name, p.read_bytes(), rules) for p in libs)
    assert total == 4223 + 350  # every leaf of Allrenjuopenings.lib and D4.lib


def test_a_comb_resumes_instead_of_replaying_every_line_whole() -> None:
    # a line of 300 moves with a side leaf at every node: 300 lines; resumed, each line costs
    # its new moves, so the checkpoints (one per move walked) stay at the depth of the tree
    data = hostile.HOSTILE["sgf-comb"](300 * 16)
    ruleset = api.choose_ruleset(next(iter(read_stream(io.BytesIO(data), "c.sgf"))), None)
    records = list(read_stream(io.BytesIO(data), "c.sgf"))
    reports = [replay(r, ruleset) for r in records]
    assert len(reports) > 250
    # every line names where the reader's walk left the line before: one move less each time
    assert [r.branch.line for r in records if r.branch] == list(range(len(records)))
    assert len(_walk_of(records[-1], ruleset).walk.checkpoints or ()) <= 302


def test_threads_replaying_trees_at_once_do_not_share_a_resumed_replay() -> None:
    # a threaded scheduler judges two chunks of lines under one ruleset at the same time
    from concurrent.futures import ThreadPoolExecutor

    data = hostile.HOSTILE["sgf-comb"](6_000)
    records = list(read_stream(io.BytesIO(data), "c.sgf"))
    ruleset = api.choose_ruleset(records[0], "freestyle")
    expected = [replay_uncached(r, ruleset).to_json() for r in records]

    def judge_all(_: int) -> list[object]:
        return [replay(r, ruleset).to_json() for r in records]

    with ThreadPoolExecutor(4) as pool:
        for got in pool.map(judge_all, range(8)):
            assert got == expected


def test_the_first_line_of_a_tree_is_replayed_as_any_record() -> None:
    # most trees are one line (the games of a collection): their replay keeps no checkpoint;
    # a tree's second line starts the resumable replay, and the lines after it resume it
    games = b"".join(
        b"(;B[hh];W[hi];B[ij];W[gj];B[ik];W[jk];B[gg];W[ff];B[%s];W[ab])" % p
        for p in (b"aa", b"ca", b"ea")
    )
    ruleset = api.choose_ruleset(next(iter(read_stream(io.BytesIO(games), "g.sgf"))), None)
    for record in read_stream(io.BytesIO(games), "g.sgf"):
        assert record.branch is None
        assert replay(record, ruleset).to_json() == replay_uncached(record, ruleset).to_json()
    tree = b"(;B[hh];W[hi];B[ij];W[gj];B[ik];W[jk];B[gg];W[ff];B[aa](;W[ab])(;W[ac])(;W[ad]))"
    records = list(read_stream(io.BytesIO(tree), "t.sgf"))
    assert [r.source.variation for r in records] == ["main", "1", "2"]
    assert [(b.line, b.shared) for r in records if (b := r.branch)] == [(0, 0), (1, 9), (2, 9)]
    assert len({id(r.branch.tree) for r in records if r.branch}) == 1
    for record in records:
        assert replay(record, ruleset).to_json() == replay_uncached(record, ruleset).to_json()
    kept = _walk_of(records[-1], ruleset)
    assert kept.line == 2 and kept.walk.record is records[-1]


def test_lines_of_as_many_problems_resume_with_their_own() -> None:
    # a comb of bad leaves: each line says one problem of its own (its line); the lines resume
    # the line before, with their own problem where its was (it was replayed whole: 16 s a MB)
    data = hostile.HOSTILE["sgf-comb-bad-leaves"](8_000)
    records = list(read_stream(io.BytesIO(data), "c.sgf"))
    assert records[-1].unreadable  # (past the file's budget of moves: the rest refused)
    records = records[:-1]
    ruleset = api.choose_ruleset(records[0], None)
    reports = [replay(r, ruleset).to_json() for r in records]
    assert len(reports) > 100
    said = [[f["line"] for f in r["findings"] if f["code"] == "parse-error"] for r in reports]
    assert [len(s) for s in said[1:]] == [1] * (len(said) - 1)  # (the first: the trunk alone)
    assert [s[0] for s in said[1:]] == list(range(2, len(said) + 1))  # (each its own line)
    # (resumed: never more than the trunk walked)
    assert len(_walk_of(records[-1], ruleset).walk.checkpoints or ()) <= 207
    for record, got in zip(records, reports, strict=True):
        assert got == replay_uncached(record, ruleset).to_json()


def test_renlib_lines_say_where_they_leave_the_line_before() -> None:
    # h8 -> (i9 -> j10 | i8) ; a second root child g7: three lines, the second leaves the first
    # after one move, the third leaves at the root
    head = b"\xffRenLib\xff\x03\x00" + b"\xff" * 10
    # (bytes per node: position, flags; 0x80: a sibling follows its subtree, 0x40: a leaf)
    data = head + bytes([0x78, 0x80, 0x69, 0x80, 0x5A, 0x40, 0x79, 0x40, 0x87, 0x40])
    records = list(read_stream(io.BufferedReader(io.BytesIO(data)), "t.lib"))
    assert [" ".join(m.point.name for m in r.moves if m.point) for r in records] == [
        "h8 i9 j10",
        "h8 i8",
        "g7",
    ]
    assert [(b.line, b.shared) for r in records if (b := r.branch)] == [(0, 0), (1, 1), (2, 0)]


def test_a_tree_sent_to_another_process_keeps_its_lines_together_but_not_its_walk() -> None:
    import pickle

    tree = b"(;B[hh];W[hi];B[ij](;W[ab])(;W[ac])(;W[ad]))"
    records = list(read_stream(io.BytesIO(tree), "t.sgf"))
    ruleset = api.choose_ruleset(records[0], None)
    replay(records[0], ruleset)
    assert records[0].branch and records[0].branch.tree.kept
    sent = pickle.loads(pickle.dumps(records))
    trees = {id(r.branch.tree) for r in sent if r.branch}
    assert len(trees) == 1 and sent[0].branch and isinstance(sent[0].branch.tree, GameTree)
    assert not sent[0].branch.tree.kept
    assert sent == records
    for record in sent:
        assert replay(record, ruleset).to_json() == replay_uncached(record, ruleset).to_json()


def test_the_bound_on_walks_counts_a_tree_line_as_its_check_shares_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a swap at the root (an event: no memo by first stones), six lines that leave each other
    # past what the RIF walk reads (after move 12), then five that leave at move 2: the first
    # six share one walk, the others walk each their own.  The file's bound on walks counts
    # them so: past it, exactly the line that would walk anew is marked.
    from renju_cli import limits, opening
    from renju_cli.opening import check_opening, sharing

    trunk = ";B[ij];W[gj];B[ik];W[jk];B[gg];W[ff];B[ee];W[dd];B[cc];W[bb]"
    late = "".join(f"(;B[{c}a])" for c in "abcdef")
    early = "".join(f"(;B[{c}n];W[an])" for c in "ghijk")
    data = f"(;GM[4]SZ[15]SW[3];B[hh];W[hi](;{trunk[1:]}{late}){early})".encode()
    records = list(read_stream(io.BytesIO(data), "t.sgf"))
    rif = api.choose_ruleset(records[0], "renju-rif")
    assert len(records) == 11 and all(r.opening_events for r in records)
    made = [0]
    real = sharing.check_record

    def counted(*args: Any) -> opening.OpeningCheck:
        made[0] += 1
        return real(*args)

    monkeypatch.setattr(sharing, "check_record", counted)
    for record in records:
        check_opening(record, rif)
    assert made == [6]  # the first line's, then one for each line that leaves at move 2

    class Bound:
        max_walks = 5

        def too_many_walks(self) -> str:
            return "past the file's bound on walks"

    key = functools.partial(opening.walk_key, ruleset=rif)
    fresh = read_stream(io.BytesIO(data), "t.sgf")
    marked = [r.protocol_not_followed is not None for r in limits.bound_walks(fresh, Bound(), key)]
    assert marked == [False] * 10 + [True]
