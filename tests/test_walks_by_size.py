"""A file's distinct openings bounded by its size (a 1 MB hostile file within 2 s).

Following an opening protocol step by step (the walk of ``opening.check_opening``) costs more
than the rest of a short record; records that begin with the same stones share one walk.  A
hostile file of distinct three-move games, each naming a protocol (``RU[renju-rif]``), packs
tens of thousands of walks in a megabyte.  Past ``ReadOptions.max_walks``
(4,096 + one per 256 bytes of the file; ``--limit walks=N``) a record that needs a walk of its
own is still judged and its opening named, with an ``unchecked`` finding saying that the
protocol was not followed, why, and how to lift the bound.  Decided as the file is read, so
the output does not depend on ``--jobs`` or on what was judged before.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from helpers import run_cli

from renju_cli import opening
from renju_cli.formats import ReadOptions
from renju_cli.formats.notation import parse_record
from renju_cli.limits import bound_walks
from renju_cli.opening import check_opening, sharing, walk_key
from renju_cli.opening.check import check_record
from renju_cli.opening.walk import Budget
from renju_cli.record import Record
from renju_cli.ruleset import load

NOT_FOLLOWED = "opening protocol is not followed"


def _reports(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def _check(capsys: Any, *args: str) -> str:
    code, out, err = run_cli(capsys, "check", "--format", "jsonl", *args)
    assert code in (0, 1) and "Traceback" not in err
    return out


def _not_followed(report: dict[str, Any]) -> bool:
    return any(NOT_FOLLOWED in f["message"] for f in report["findings"])


def test_the_bound_grows_with_the_file() -> None:
    options = ReadOptions()
    assert options.for_file(0).max_walks == 4096
    assert options.for_file(1 << 20).max_walks == 4096 + (1 << 20) // 256
    sized = options.for_file(1 << 20)
    assert sized.too_many_walks() == (
        "the file holds more than 8192 distinct openings to follow (at most 4096 + one per "
        "256 bytes of the file; --limit walks=N sets the bound)"
    )
    given = ReadOptions(max_walks=7, bytes_per_walk=0)
    assert given.for_file(1 << 20).max_walks == 7
    assert given.too_many_walks() == "the file holds more than 7 distinct openings to follow"


def test_only_new_openings_past_the_bound_are_marked() -> None:
    def key(record: Record) -> Hashable | None:
        return None if record.moves[0].token == "pass" else tuple(m.point for m in record.moves)

    texts = ["h8 h9", "h8 i9", "h8 h9", "h8 j9", "pass h8", "h8 i9", "h8 k9"]
    records = [parse_record(t, line=n) for n, t in enumerate(texts, 1)]
    marked = [
        r.protocol_not_followed is not None
        for r in bound_walks(iter(records), ReadOptions(max_walks=2), key)
    ]
    # two openings walked (h8 h9, h8 i9); their repeats never marked; a record that needs no
    # walk (key None) never marked; the third and fourth new ones are
    assert marked == [False, False, False, True, False, False, True]


def test_walk_keys_follow_what_the_walk_reads() -> None:
    rif, renju_rules = load("renju-rif"), load("renju")
    # stones past the protocol's reach (6 moves under RIF) do not make another walk
    a = parse_record("h8 h9 i10 j11 g7 i8 a1")
    b = parse_record("h8 h9 i10 j11 g7 i8 o15")
    assert walk_key(a, rif) == walk_key(b, rif) is not None
    assert walk_key(parse_record("h8 h9 j10"), rif) != walk_key(a, rif)
    # no protocol, or a setup: nothing is walked
    assert walk_key(a, renju_rules) is None
    # a record with events is walked on its own, however like another it is: no memo serves
    # it, so each is counted
    swapped = parse_record("h8 h9 i10 swap j11")
    assert swapped.opening_events
    assert walk_key(swapped, rif) != walk_key(parse_record("h8 h9 i10 swap j11"), rif)


def test_every_walk_of_records_no_memo_serves_is_counted(tmp_path: Path, capsys: Any) -> None:
    heads = ["h8 h9 i10 swap i7 {j10 g10} j10 k7", "h8 i8 j9 swap g8 {j7 j10} j7 k5"]
    path = tmp_path / "events.txt"
    path.write_text("".join(f"{heads[n % 2]} {c}1 {c}2\n" for n, c in enumerate("abcdef")))
    out = _reports(_check(capsys, "-r", "renju-rif", "--limit", "walks=2", str(path)))
    assert [_not_followed(r) for r in out] == [False, False, True, True, True, True]


def test_tree_lines_share_the_walk_of_the_line_before_only(tmp_path: Path, capsys: Any) -> None:
    # a declared id makes the lines of a tree unmemoizable; lines that begin alike one after
    # the other share the walk before (the check of the line before), lines that alternate
    # between two beginnings need a walk each, and each is counted
    a, b = ";B[hh];W[hi];B[ij];W[jj];B[ff]", ";B[hh];W[ii];B[jh];W[gg];B[ee]"
    tree = (
        "(;RU[renju-rif]ON[D3]"
        + "".join(f"({head};W[{c}a];B[{c}b])" for c in "abc" for head in (a, a, b))
        + ")"
    )
    path = tmp_path / "tree.sgf"
    path.write_text(tree)
    out = _reports(_check(capsys, "--limit", "walks=3", str(path)))
    # (the walk reads six stones: the 6th, W[ca], W[cb]..., tells the three groups apart)
    # walks: a.a (1), a.a again (shared), b.a (2), a.b (3), a.b (shared), then past the
    # bound: b.b, a.c, a.c again (the line walked last is a.b), b.c
    assert [_not_followed(r) for r in out] == [
        False, False, False, False, False, True, True, True, True,
    ]  # fmt: skip


def _distinct_openings(n: int) -> str:
    # n distinct three-move openings around the centre (none repeats): 15x15 points
    names = [f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)]
    return "".join(f"{names[i % 225]} {names[(i * 7 + 3) % 225]} h8\n" for i in range(n))


def test_a_record_past_the_bound_is_judged_and_says_why(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "openings.txt"
    path.write_text(_distinct_openings(6) + "h8 h9 j10\n" + _distinct_openings(2))
    full = _reports(_check(capsys, "-r", "renju-rif", str(path)))
    out = _reports(_check(capsys, "-r", "renju-rif", "--limit", "walks=3", str(path)))
    assert len(out) == len(full) == 9
    assert [_not_followed(r) for r in out] == [False] * 3 + [True] * 4 + [False] * 2
    # the last two repeat the first two openings: checked in full, as without the bound
    assert out[7:] == full[7:] and out[:3] == full[:3]
    # past the bound: the opening still named, the protocol's name, the same result
    d = out[6]
    named = {k: full[6]["opening"][k] for k in ("id", "name", "symmetry", "type")}
    assert named["id"] == "D3"
    assert d["opening"] == {**named, "protocol": "RIF", "black": None, "white": None}
    assert d["result"] == full[6]["result"] and d["first_five"] == full[6]["first_five"]
    (said,) = [f for f in d["findings"] if NOT_FOLLOWED in f["message"]]
    assert said["code"] == "unchecked" and said["severity"] == "warning"
    assert said["message"] == (
        "the RIF opening protocol is not followed for this record: the file holds more than 3 "
        "distinct openings to follow"
    )


def test_without_a_protocol_nothing_is_counted(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "openings.txt"
    path.write_text(_distinct_openings(20))
    out = _reports(_check(capsys, "--limit", "walks=1", str(path)))
    assert len(out) == 20 and not any(_not_followed(r) for r in out)


def test_the_same_with_any_number_of_jobs_and_whatever_was_judged_before(
    tmp_path: Path, capsys: Any
) -> None:
    # an SGF collection naming the protocol in each game (read whole: no slices), after a
    # file that checks the same stones in full: a record past the bound is never served the
    # check remembered from the earlier file, whichever process judged that one
    games = "".join(
        f"(;RU[renju-rif];B[{a}{b}];W[{b}{a}];B[hh])"
        for a, b in zip("abcdefghijklm", "nmlkjihgfedcb", strict=True)
    )
    (tmp_path / "a.sgf").write_text("(;RU[renju-rif];B[mb];W[bm];B[hh])")
    (tmp_path / "b.sgf").write_text(games)
    paths = [str(tmp_path / "a.sgf"), str(tmp_path / "b.sgf")]
    one = _check(capsys, "--limit", "walks=4", "--jobs", "1", *paths)
    two = _check(capsys, "--limit", "walks=4", "--jobs", "2", *paths)
    assert one == two
    out = _reports(one)
    assert len(out) == 14
    assert [_not_followed(r) for r in out] == [False] * 5 + [True] * 9
    # b.sgf's last game is a.sgf's: past the bound in b.sgf all the same
    assert out[-1]["findings"] != out[0]["findings"]


def test_a_check_past_the_bound_is_never_remembered() -> None:
    rif = load("renju-rif")
    sharing._CHECKED.clear()
    record = parse_record("h8 h9 i10 j11")
    record.protocol_not_followed = "past the bound"
    first = check_opening(record, rif)
    assert [f.code for f in first.findings] == ["unchecked"]
    assert not sharing._CHECKED
    record.protocol_not_followed = None
    assert not any(NOT_FOLLOWED in f.message for f in check_opening(record, rif).findings)
    assert sharing._CHECKED


def test_records_past_the_bound_that_begin_alike_are_checked_alike() -> None:
    # the check of a record past the bound depends on its first three stones, its declared
    # id, the reason and the board only, and is remembered by them; each record gets its own
    # copy: a declared id that the stones contradict, a record with another id, other stones
    rif = load("renju-rif")
    sharing._NOT_FOLLOWED.clear()

    def past(text: str, opening_id: str | None = None) -> opening.OpeningCheck:
        record = parse_record(text)
        record.opening_id = opening_id
        record.protocol_not_followed = "past the bound"
        return check_opening(record, rif)

    first = past("h8 h9 j10 a1", "D4")
    again = past("h8 h9 j10 b2 c3", "D4")
    assert len(sharing._NOT_FOLLOWED) == 1
    assert again.findings == first.findings and again.opening == first.opening
    assert again.opening is not first.opening  # (its own, to change)
    assert [f.code for f in first.findings] == ["unchecked", "opening-id-mismatch"]
    assert [f.code for f in past("h8 h9 j10 a1", "D3").findings] == ["unchecked"]
    other = past("h8 i9 j10")
    assert other.opening is not None and first.opening is not None
    assert other.opening["id"] != first.opening["id"]
    assert len(sharing._NOT_FOLLOWED) == 3


# -- the run's bound on walk steps (``ReadOptions.walk_steps_allowance``) -------------------------
#: Steps of opening-protocol walks (each step applied in each option tried, and each option
#: tried) a run may take: 16,384 + 33 per record.  Real records take 9 (RIF) to 33 (Super
#: Sakata); a user's protocol may have thousands.  Past the bound, a record's opening is named
#: and its protocol not followed, with a finding.
STEPS_SAID = "steps of opening-protocol walks"


def test_records_past_the_run_s_walk_steps_are_named_not_walked(
    tmp_path: Path, capsys: Any
) -> None:
    # 40 distinct RIF games (a walk each); the run may take 100 steps: the first records
    # are walked, the rest named only, each saying why, in the second file too (the bound is
    # the run's, not a file's)
    games = [f"h8 h9 {c}10 {c}{r}\n" for r in (11, 12) for c in "abcdefghijklmnopqrst"]
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("".join(games[:20]))
    second.write_text("".join(games[20:]))
    out = _check(capsys, str(first), str(second), "-r", "renju-rif", "--limit", "walk-steps=100")
    reports = _reports(out)
    assert len(reports) == 40
    said = [any(STEPS_SAID in f["message"] for f in r["findings"]) for r in reports]
    walked = said.index(True)
    assert 1 <= walked < 20 and all(said[walked:])  # (in run order: walked, then past)
    for r in reports[walked:]:
        (f,) = [f for f in r["findings"] if STEPS_SAID in f["message"]]
        assert f["code"] == "unchecked" and f["severity"] == "warning"
        assert "--limit walk-steps" in f["message"]
        assert r["opening"]["protocol"] == "RIF"
    # the default bound walks them all
    assert not any(
        _not_followed(r) for r in _reports(_check(capsys, str(first), "-r", "renju-rif"))
    )


def test_a_check_past_the_walk_steps_is_never_remembered() -> None:
    # a check made without a walk (past the run's steps) depends on the run: a later run
    # (or another record of the same stones in this one, once steps are back) walks it
    from renju_cli.judge import Judgements, WalkSteps

    ruleset = load("renju-rif")
    record = parse_record("h8 h9 j10 j11")
    sharing._CHECKED.clear()
    spent = Judgements(100)
    spent.walk_steps = WalkSteps(0)
    assert _not_followed_check(check_opening(record, ruleset, spent))
    assert not sharing._CHECKED
    fresh = Judgements(100)
    fresh.walk_steps = WalkSteps(1000)
    assert not _not_followed_check(check_opening(record, ruleset, fresh))
    assert 0 < 1000 - fresh.walk_steps.left < 33  # (what a real record takes)


def _not_followed_check(check: opening.OpeningCheck) -> bool:
    return any(NOT_FOLLOWED in f.message for f in check.findings)


def test_real_records_take_few_walk_steps() -> None:
    # every shipped protocol on the examples: at most 33 steps (paths tried included) a
    # record, within the 33 each record adds to the bound
    from renju_cli import api

    examples = Path(__file__).resolve().parents[1] / "examples"
    records = [r for p in sorted(examples.iterdir()) for r in api.read_path(str(p))]
    assert len(records) >= 3
    for name in ("renju-rif", "swap2", "taraguchi-n", "super-sakata", "yamaguchi", "soosyrv-n"):
        ruleset = load(name)
        for record in records:
            spent = Budget()
            check_record(record, ruleset, None, spent)
            assert spent.paths + spent.steps <= 33, (name, record.source)


def test_limit_walk_steps_parses() -> None:
    from renju_cli.cli.app import parse_limits

    assert parse_limits(("walk-steps=5000",)) == {
        "max_walk_steps": 5000,
        "walk_steps_allowance": 5000,
        "walk_steps_per_record": 0,
    }


def test_a_report_past_the_walk_steps_is_never_remembered() -> None:
    # the referee's memo of short records keeps a report from the second time its record is
    # seen: a record turned away past the run's walk steps must not be served so to a later
    # copy that the bound lets walk
    from renju_cli import referee
    from renju_cli.judge import Judgements, WalkSteps

    ruleset = load("renju-rif")
    sharing._CHECKED.clear()
    bound = Judgements(100)
    bound.walk_steps = WalkSteps(0, per=100)
    copies = [parse_record("h8 h9 j10 j11") for _ in range(3)]
    said = [_not_followed(referee.replay(copies[0], ruleset, bound).to_json())]
    said.append(_not_followed(referee.replay(copies[1], ruleset, bound).to_json()))
    bound.next_record()  # (steps for one record more)
    said.append(_not_followed(referee.replay(copies[2], ruleset, bound).to_json()))
    assert said == [True, True, False]


def test_a_long_declared_id_is_quoted_by_its_start_and_not_kept_in_keys() -> None:
    # a JSON Lines "opening" of 64 kB in every record of a run's files: quoted whole, and kept
    # in the keys of remembered checks, it would hold hundreds of megabytes
    rif = load("renju-rif")
    protocol = opening.protocol_of(rif)
    assert protocol is not None
    record = parse_record("h8 h9 j10")
    record.opening_id = "X" * 5000
    assert sharing.stones_key(record, rif, protocol) is None
    (said,) = [f for f in check_opening(record, rif).findings if "declares" in f.message]
    assert said.message.startswith("the record declares opening '" + "X" * 40 + "'...,")
    record.opening_id = "D3"
    assert sharing.stones_key(record, rif, protocol) is not None
