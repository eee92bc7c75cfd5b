"""One position, one answer: ``show`` (text, JSON, pictures), ``forbidden`` and the HTML report
decide the side to move the same way and mark the same forbidden points; after the end of a
game nothing is forbidden, and the moves after the end are drawn apart and listed."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import run_cli as renju

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def diagram(black: Sequence[str], white: Sequence[str] = ()) -> str:
    """A 15x15 diagram, top row first, of the stones named."""
    cols = "abcdefghijklmno"
    rows = []
    for row in range(15, 0, -1):
        cells = ["."] * 15
        for stones, mark in ((black, "X"), (white, "O")):
            for p in stones:
                if int(p[1:]) == row:
                    cells[cols.index(p[0])] = mark
        rows.append(" ".join(cells))
    return "\n".join(rows) + "\n"


#: g7 makes two open threes (f7-g7-h7 and g6-g7-g8): a double-three.
DOUBLE_THREE = ["g8", "f7", "h7", "g6"]


def _answers(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, object]:
    """The side to move and the forbidden points each command gives for ``path``."""
    show = json.loads(renju(capsys, "show", str(path), "-f", "json")[1])
    forbidden = json.loads(renju(capsys, "forbidden", str(path), "-f", "json")[1])
    legend = renju(capsys, "show", str(path))[1].splitlines()[-1]
    svg = renju(capsys, "show", str(path), "--svg", "-")[1]
    marked = re.findall(r'class="forbidden"[^>]*data-point="([a-o][0-9]+)"', svg) or re.findall(
        r'data-point="([a-o][0-9]+)"[^>]*data-kinds="double-three"', svg
    )
    return {
        "show": (show["to_move"], [f["point"] for f in show["forbidden"]]),
        "forbidden": (forbidden["to_move"], [f["point"] for f in forbidden["forbidden"]]),
        "legend": (
            legend.split(", ")[1].split(" to move")[0],
            re.findall(r"([a-o][0-9]+) double", legend),
        ),
        "picture": sorted(set(marked)),
    }


@pytest.mark.parametrize(
    ("white", "to_move"),
    [
        # more black stones than white: the side with fewer stones, white, is to move; a
        # diagram still asks where black may not play, whoever is to move
        ([], "white"),
        # as many of each: black is to move
        (["a1", "o1", "a15", "o15"], "black"),
    ],
)
def test_a_diagram_gets_one_side_to_move_and_one_set_of_forbidden_points(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, white: list[str], to_move: str
) -> None:
    path = tmp_path / "position.txt"
    path.write_text(diagram(DOUBLE_THREE, white))
    answers = _answers(capsys, path)
    assert answers == {
        "show": (to_move, ["g7"]),
        "forbidden": (to_move, ["g7"]),
        "legend": (to_move, ["g7"]),
        "picture": ["g7"],
    }


def test_the_html_report_marks_the_diagrams_forbidden_points(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "position.txt"
    path.write_text(diagram(DOUBLE_THREE))
    report = tmp_path / "report"
    renju(capsys, "check", str(path), "--html", str(report), "--html-boards", "all")
    pages = [p.read_text() for p in report.glob("record-*.html")]
    assert len(pages) == 1
    assert set(re.findall(r'data-point="([a-o][0-9]+)" data-kinds="double-three"', pages[0])) == {
        "g7"
    }


#: Black's five at move 9 (h8-l8), then three more moves; g8 and m8 would make overlines.
AFTER_A_FIVE = "h8 a1 i8 a2 j8 a3 k8 a4 l8 a5 h10 a7\n"


def test_after_the_end_nothing_is_forbidden_and_later_moves_are_listed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.txt"
    path.write_text(AFTER_A_FIVE)
    code, out, _ = renju(capsys, "show", str(path))
    board, legend = out.splitlines()[:-1], out.splitlines()[-1]
    assert code == 0
    assert "forbidden" not in legend
    assert legend.endswith("five: h8-i8-j8-k8-l8; after the end: 10 a5, 11 h10, 12 a7")
    # the moves after the end are drawn apart: 10' ... ; the five's with a *
    assert "10'" in out and "11'" in out and "12'" in out and "9*" in out and "9'" not in out
    assert all(" 6 " not in row for row in board if row.startswith(" 8"))  # no overline mark
    stones = renju(capsys, "show", str(path), "--stones")[1]
    assert " x " in stones and " o " in stones  # (h10; a5 and a7 at the edge)
    doc = json.loads(renju(capsys, "show", str(path), "-f", "json")[1])
    assert doc["forbidden"] == []
    assert doc["after_end"] == [
        {"move": 10, "point": "a5"},
        {"move": 11, "point": "h10"},
        {"move": 12, "point": "a7"},
    ]
    code, out, _ = renju(capsys, "forbidden", str(path))
    assert (code, out) == (
        0,
        "no forbidden points for black under renju: the game ended at move 9\n",
    )
    doc = json.loads(renju(capsys, "forbidden", str(path), "-f", "json")[1])
    assert doc["forbidden"] == [] and doc["ended_at"] == 9


def test_before_the_end_the_forbidden_points_are_marked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.txt"
    path.write_text(AFTER_A_FIVE)
    # after move 8 black is to move and has not made the five yet: nothing is over
    doc = json.loads(renju(capsys, "show", str(path), "--at", "8", "-f", "json")[1])
    assert "after_end" not in doc and doc["to_move"] == "black"
    forbidden = json.loads(renju(capsys, "forbidden", str(path), "--at", "8", "-f", "json")[1])
    assert "ended_at" not in forbidden
    assert doc["forbidden"] == forbidden["forbidden"]


def test_an_overline_win_is_captioned_as_an_overline(capsys: pytest.CaptureFixture[str]) -> None:
    legend = renju(capsys, "show", str(EXAMPLES / "white-overline.txt"))[1].splitlines()[-1]
    assert "overline: c7-d7-e7-f7-g7-h7" in legend and "five:" not in legend
