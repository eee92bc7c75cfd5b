"""The team's real records (../shared/corpus): every record read and accounted for.

The counts below were observed on the corpus as shipped (see its SOURCES.md); they pin that
every reader finds every record (one record per RenLib leaf, 266 PlayOK games, ...).
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from renju_cli.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the team's real records are not here ({CORPUS} is absent)"
)

EXPECTED = {
    ("playok_evacoregen6_2021.pgn", "playok"): 266,
    ("Allrenjuopenings.lib", "renlib"): 4223,
    ("D4.lib", "renlib"): 350,
    ("1x0-16_2.psq", "psq"): 1,
    ("piskvork_openings.txt", "gomocup-opening"): 41,
    ("gomocupjudge_openings_20.txt", "gomocup-opening"): 6,
    ("gomocuponline_openings.txt", "gomocup-opening"): 3,
    ("SOURCES.md", "unknown"): 1,  # prose, not a record: one unreadable record naming the file
}

#: Records by folder (relative to the corpus) and format, for the folders of many small files.
EXPECTED_BY_FOLDER = {
    # libraries saved by RenLib: every line, a last node without the leaf flag included
    ("renlib/emilgardis_board", "renlib"): 30,
    # Gomotur rec games, one a file; the tournaments' _result.txt are prose read as move lists
    ("psq/hwangyale_gomotur_rec/tour1", "rec"): 59,
    ("psq/hwangyale_gomotur_rec/tour4", "rec"): 71,
    ("psq/hwangyale_gomotur_rec/tour1", "notation"): 17,
    ("psq/hwangyale_gomotur_rec/tour4", "notation"): 17,
    ("psq/genopen_script_psq", "psq"): 2,  # psq written by a script
    ("playok/gomobook_2020", "playok"): 91,  # one PlayOK game a file
    ("movelist/gomobook_2020", "notation"): 91,  # the same games, a line each
}


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("corpus") / "report.json"
    try:
        main(["check", str(CORPUS), "--format", "json", "--output", str(out)])
    except SystemExit as e:
        assert e.code in (0, 1)
    report: dict[str, object] = json.loads(out.read_text())
    return report


def test_every_record_is_accounted_for(corpus_report: dict[str, object]) -> None:
    records = corpus_report["records"]
    summary = corpus_report["summary"]
    assert isinstance(records, list) and isinstance(summary, dict)
    counts = collections.Counter((Path(r["source"]["path"]).name, r["format"]) for r in records)
    for key, n in EXPECTED.items():
        assert counts[key] == n, key
    folders = collections.Counter(
        (str(Path(r["source"]["path"]).parent.relative_to(CORPUS)), r["format"]) for r in records
    )
    for key, n in EXPECTED_BY_FOLDER.items():
        assert folders[key] == n, key
    pos = sum(n for (name, fmt), n in counts.items() if fmt == "pos")
    assert pos == 24  # one record per .pos file
    total = sum(EXPECTED.values()) + sum(EXPECTED_BY_FOLDER.values()) + 24
    assert summary["records"] == len(records) == total == 5293
    assert summary["unreadable"] == 1
    assert summary["judged"] + summary["unreadable"] == summary["records"]
    keys = [
        (r["source"]["path"], r["source"]["index"], r["source"].get("variation")) for r in records
    ]
    assert len(set(keys)) == len(keys)  # nothing read twice


def test_playok_games_agree_with_the_board_under_swap2(corpus_report: dict[str, object]) -> None:
    records = corpus_report["records"]
    assert isinstance(records, list)
    playok = [r for r in records if r["source"]["path"].endswith("playok_evacoregen6_2021.pgn")]
    assert {r["ruleset"] for r in playok} == {"swap2"}  # the file's GameType names the rule
    assert not any(f["code"] == "result-mismatch" for r in playok for f in r["findings"])
    declared = collections.Counter((r["declared_result"] or {}).get("winner") for r in playok)
    # 130 "1-0" and 135 "0-1" by seat; one game ended after three stones (no colours yet)
    assert declared["draw"] == 1
    assert declared["black"] + declared["white"] == 264


def test_renlib_lines_are_named_openings(corpus_report: dict[str, object]) -> None:
    records = corpus_report["records"]
    assert isinstance(records, list)
    d4 = [r for r in records if r["source"]["path"].endswith("D4.lib")]
    assert {(r["opening"] or {}).get("id") for r in d4} == {"D4"}
