"""``renju convert``: real samples to SGF / psq / JSON Lines and back give the same games."""

from __future__ import annotations

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
def test_real_samples_round_trip(rel: str, fmt: str, tmp_path: Path) -> None:
    src = corpus(rel)
    out = tmp_path / f"out.{fmt}"
    assert convert(str(src), "--to", fmt, "-o", str(out)) == 0
    before = summary([r for r in read_path(str(src)) if not r.unreadable])
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
