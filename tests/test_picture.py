"""Board pictures: the SVG drawing, its marks and escaping, PNG, and ``renju show --svg/--png``."""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from renju_cli import api
from renju_cli.board import BLACK, WHITE, Board
from renju_cli.cli import main
from renju_cli.coords import Point, parse_point
from renju_cli.formats.notation import parse_record
from renju_cli.output.picture import (
    BOARD_COLOR,
    Geometry,
    Marks,
    PictureError,
    board_svg,
    legend,
    position_marks,
    row_word,
    star_points,
    svg_to_png,
)
from renju_cli.ruleset import load

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SVG = "{http://www.w3.org/2000/svg}"
FIVE = "black h8 i9 h9 i10 h10 i11 h11 g8 h12"
DOUBLE_THREE = "white f8 a1 g8 a3 h9 a5 h10 a7 h8"


def parse(svg: str) -> ET.Element:
    """Our own SVG, parsed as XML: it must be well-formed."""
    return ET.fromstring(svg)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def picture(moves: str, at: int | None = None, rules: str = "renju") -> tuple[str, Marks, Board]:
    ruleset = load(rules)
    pos = api.position_after(parse_record(moves), ruleset, at)
    marks = position_marks(pos, ruleset)
    return board_svg(pos.board, marks, title="t"), marks, pos.board


def rgb(hex_color: str) -> tuple[int, int, int]:
    return (int(hex_color[1:3], 16), int(hex_color[3:5], 16), int(hex_color[5:7], 16))


def test_stones_carry_their_point_colour_and_move_number() -> None:
    svg, _, _ = picture(FIVE)
    root = parse(svg)
    stones = {
        g.get("data-point"): (g.get("class"), g.get("data-move")) for g in groups(root, "stone")
    }
    assert stones == {
        "h8": ("stone black", "1"),
        "i9": ("stone white", "2"),
        "h9": ("stone black", "3"),
        "i10": ("stone white", "4"),
        "h10": ("stone black", "5"),
        "i11": ("stone white", "6"),
        "h11": ("stone black", "7"),
        "g8": ("stone white", "8"),
        "h12": ("stone black", "9"),
    }
    # the number is written on the stone
    h12 = next(g for g in groups(root, "stone") if g.get("data-point") == "h12")
    assert [t.text for t in h12.iter(f"{SVG}text")] == ["9"]


def test_the_five_is_ringed() -> None:
    svg, marks, board = picture(FIVE)
    (five,) = groups(parse(svg), "five")
    assert five.get("data-points") == "h8 h9 h10 h11 h12"
    assert [c.get("data-point") for c in five.iter(f"{SVG}circle")] == [
        "h8",
        "h9",
        "h10",
        "h11",
        "h12",
    ]
    assert [board.name(i) for i in marks.five] == ["h8", "h9", "h10", "h11", "h12"]


def test_forbidden_points_are_marked_with_their_kind_when_black_is_to_move() -> None:
    svg, marks, _ = picture(DOUBLE_THREE, at=8)
    (mark,) = groups(parse(svg), "forbidden")
    assert (mark.get("data-point"), mark.get("data-kinds")) == ("h8", "double-three")
    assert [t.text for t in mark.iter(f"{SVG}text")] == ["3×3"]
    assert "3×3 double-three" in svg  # the key under the board
    # white to move: black's forbidden points are not drawn
    _, marks, _ = picture(DOUBLE_THREE, at=7)
    assert marks.forbidden == {}


def test_fouls_are_ringed_with_their_kind() -> None:
    ruleset = load("renju")
    pos = api.position_after(parse_record(DOUBLE_THREE), ruleset)
    h8 = pos.board.index(parse_point("h8"))
    root = parse(board_svg(pos.board, Marks(numbers=pos.numbers, fouls={h8: ("double-three",)})))
    (foul,) = groups(root, "foul")
    assert (foul.get("data-point"), foul.get("data-kinds")) == ("h8", "double-three")
    assert [t.text for t in foul.iter(f"{SVG}text")] == ["3×3"]


AFTER_THE_END = "black h8 i9 h9 i10 h10 i11 h11 g8 h12 j12 k13 h9"  # 10-12 after the five
WHITE_OVERLINE = "white h8 c7 a15 d7 o15 e7 a1 g7 o1 h7 h15 f7"  # f7 makes six for white


def test_after_the_end_nothing_is_forbidden_and_later_moves_are_marked() -> None:
    ruleset = load("renju")
    record = parse_record(AFTER_THE_END)
    pos = api.position_after(record, ruleset)  # all 12 moves; black to move
    free = position_marks(pos, ruleset)  # the end unknown: as a position, black is to move
    assert free.forbidden and free.after == frozenset()
    marks = position_marks(pos, ruleset, end=9)
    assert marks.forbidden == {}  # no point is forbidden for a move that will not come
    board = pos.board
    assert sorted(board.name(i) for i in marks.after) == ["j12", "k13"]
    assert [board.name(i) for i in marks.five] == ["h8", "h9", "h10", "h11", "h12"]
    root = parse(board_svg(board, marks))
    faded = groups(root, "after")
    assert sorted(g.get("data-point") or "" for g in faded) == ["j12", "k13"]
    assert all(g.get("opacity") == "0.45" for g in faded)
    assert "played after the end of the game" in board_svg(board, marks, caption=["x"])
    assert legend(pos, marks) == [
        "12 move(s), black to move",
        "five: h8-h9-h10-h11-h12",
        "after the end: 10 j12, 11 k13",
    ]
    # before the end, the end changes nothing
    early = api.position_after(record, ruleset, 8)
    assert position_marks(early, ruleset, end=9) == position_marks(early, ruleset)


def test_an_overline_win_is_marked_and_called_an_overline() -> None:
    ruleset = load("renju")
    pos = api.position_after(parse_record(WHITE_OVERLINE), ruleset)
    marks = position_marks(pos, ruleset, end=12)
    assert marks.row == "overline"
    assert [pos.board.name(i) for i in marks.five] == ["c7", "d7", "e7", "f7", "g7", "h7"]
    (ring,) = groups(parse(board_svg(pos.board, marks)), "five")
    assert ring.get("class") == "five overline"
    assert legend(pos, marks)[1] == "overline: c7-d7-e7-f7-g7-h7"
    assert row_word(5, 5) == "five" and row_word(6, 5) == "overline"


def test_coordinates_run_a_to_o_and_1_to_15_bottom_up() -> None:
    root = parse(board_svg(Board(15)))
    (coords,) = groups(root, "coordinates")
    texts = [t.text for t in coords.iter(f"{SVG}text")]
    assert texts[:30:2] == list("abcdefghijklmno")
    assert texts[30::2] == [str(n) for n in range(1, 16)]
    geo = Geometry(15, 15)
    # a1 is the bottom-left point, o15 the top-right, h8 the centre
    a1, o15, h8 = (geo.center(parse_point(p)) for p in ("a1", "o15", "h8"))
    assert a1[0] < h8[0] < o15[0] and a1[1] > h8[1] > o15[1]
    w, h = geo.board_px
    assert h8 == (w / 2, h / 2)


def test_star_points_and_other_board_sizes() -> None:
    assert sorted(p.name for p in star_points(15, 15)) == ["d12", "d4", "h8", "l12", "l4"]
    assert [p.name for p in star_points(7, 7)] == ["d4"]
    assert star_points(8, 8) == []
    root = parse(board_svg(Board(19, 13)))
    assert root.get("width") == str(Geometry(19, 13).board_px[0])
    (coords,) = groups(root, "coordinates")
    assert len(list(coords.iter(f"{SVG}text"))) == 2 * (19 + 13)


def test_every_text_is_escaped() -> None:
    hostile = 'x</title><script>alert("1")</script>&amp;'
    svg = board_svg(Board(9), title=hostile, caption=[hostile])
    root = parse(svg)
    assert "<script>" not in svg
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}title").text == hostile  # type: ignore[union-attr]
    assert root.get("aria-label") == hostile
    assert not list(root.iter(f"{SVG}script"))


def test_long_captions_are_wrapped_to_the_board() -> None:
    words = ", ".join(f"{p} double-three" for p in ("a1", "b2", "c3", "d4", "e5", "f6", "g7"))
    root = parse(board_svg(Board(9), caption=[words]))
    (caption,) = groups(root, "caption")
    lines = [t.text or "" for t in caption.iter(f"{SVG}text")]
    assert len(lines) > 1 and " ".join(lines) == words


def test_png_shows_the_stones_where_they_are() -> None:
    pytest.importorskip("resvg_py", reason="PNG needs the optional resvg-py package")
    image_mod = pytest.importorskip("PIL.Image", reason="reading the PNG needs Pillow")
    ruleset = load("renju")
    pos = api.position_after(parse_record(FIVE), ruleset)
    png = svg_to_png(board_svg(pos.board, Marks()))  # no numbers: plain stones
    image = image_mod.open(io.BytesIO(png)).convert("RGB")
    geo = Geometry(15, 15)
    assert image.size == geo.board_px

    def at(point: str) -> tuple[int, int, int]:
        x, y = geo.center(parse_point(point))
        return image.getpixel((round(x) + 5, round(y) + 5))  # type: ignore[no-any-return]

    for name in ("h8", "h9", "h12"):
        assert max(at(name)) < 60, name  # black
    for name in ("i9", "g8"):
        assert min(at(name)) > 200, name  # white
    assert at("a15") == rgb(BOARD_COLOR)  # empty


def test_png_without_its_renderer_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    with pytest.raises(PictureError, match=r"pip install 'renju-cli\[png\]'"):
        svg_to_png(board_svg(Board(9)))


# -- renju show --svg / --png ---------------------------------------------------------------------
def show(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(["show", *args])
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_show_svg_to_a_file_and_to_standard_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "board.svg"
    path = str(EXAMPLES / "black-double-three.txt")
    code, out, _ = show(capsys, path, "--at", "8", "--svg", str(target))
    assert code == 0 and out == ""
    root = parse(target.read_text("utf-8"))
    assert [g.get("data-point") for g in groups(root, "forbidden")] == ["h8"]
    assert "8 move(s), black to move" in (root.find(f"{SVG}title").text or "")  # type: ignore[union-attr]
    code, out, _ = show(capsys, path, "--svg", "-", "--stones")
    assert code == 0
    root = parse(out)
    assert len(groups(root, "stone")) == 9
    assert all(g.get("data-move") is None for g in groups(root, "stone"))


def test_show_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("resvg_py", reason="PNG needs the optional resvg-py package")
    target = tmp_path / "board.png"
    code, _, _ = show(capsys, str(EXAMPLES / "black-five.txt"), "--png", str(target))
    assert code == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_png_without_renderer_and_two_pictures_on_stdout_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = str(EXAMPLES / "black-five.txt")
    code, _, err = show(capsys, path, "--svg", "-", "--png", "-")
    assert code == 2 and "standard output" in err
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    code, _, err = show(capsys, path, "--png", str(tmp_path / "b.png"))
    assert code == 2 and "resvg-py" in err
    assert not (tmp_path / "b.png").exists()


def test_show_text_board_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = show(capsys, str(EXAMPLES / "black-five.txt"))
    assert code == 0
    assert out.splitlines()[-1] == "9 move(s), white to move; five: h8-h9-h10-h11-h12"


def test_geometry_matches_the_board_frame() -> None:
    geo = Geometry(15, 15, cell=10)
    assert geo.center(Point(0, 0)) == (geo.margin, geo.margin + 14 * 10)
    board = Board(15)
    board.place(board.index(Point(0, 0)), BLACK)
    board.place(board.index(Point(14, 14)), WHITE)
    root = parse(board_svg(board, cell=10))
    circles = {
        g.get("data-point"): next(g.iter(f"{SVG}circle")).get("cx") for g in groups(root, "stone")
    }
    assert circles == {"a1": f"{geo.margin:g}", "o15": f"{geo.margin + 140:g}"}
