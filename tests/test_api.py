"""The typed library API (``import renju_cli as rj``): what it reports is what ``renju check``
reports, record for record and byte for byte; its types are frozen and say what they hold."""

from __future__ import annotations

import dataclasses
import inspect
import io
import pickle
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import renju_cli as rj
from renju_cli import api, inputs
from renju_cli.output.json import dumps

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DATA = ROOT / "tests" / "data"
CORPUS = ROOT.parent / "shared" / "corpus"

#: Black's h8 makes the double-three f8-g8-h8 and h8-h9-h10 (``examples/``).
DOUBLE_THREE = "white f8 a1 g8 a3 h9 a5 h10 a7 h8"
#: Black's five h8-h12 at move 9.
FIVE = "h8 i9 h9 i10 h10 i11 h11 g8 h12"


def check_lines(path: Path | list[Path], *options: str) -> list[str]:
    """The record lines of ``renju check --format json PATH...``, each as it is printed."""
    paths = [str(p) for p in path] if isinstance(path, list) else [str(path)]
    run = subprocess.run(
        [sys.executable, "-m", "renju_cli", "check", "--format", "json", *options, *paths],
        capture_output=True,
        check=False,
        timeout=600,
        cwd=ROOT,
    )
    assert run.returncode in (0, 1), run.stderr
    lines = run.stdout.decode("utf-8", "surrogateescape").split("\n")
    assert lines[0] == '{"records":['
    end = lines.index("],")
    return [line.removesuffix(",") for line in lines[1:end]]


def api_lines(path: Path, rules: str | None = None) -> list[str]:
    """The same records through the API: every file ``check`` reads, every game of each."""
    out = []
    for item in inputs.expand_inputs([str(path)]):
        assert isinstance(item, str), item
        for game in rj.read_games(item, rules):
            out.append(dumps(rj.replay(game, rules).to_dict()))
    return out


@pytest.mark.parametrize(
    ("where", "rules"),
    [
        ("examples", None),
        ("examples", "renju-rif"),
        ("examples", "standard"),
        ("examples", "freestyle"),
        ("tests/data", None),
        ("tests/data", "renju-rif"),
    ],
)
def test_every_record_is_reported_as_check_reports_it(
    where: str, rules: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = check_lines(Path(where), *(("--rules", rules) if rules else ()))
    monkeypatch.chdir(ROOT)  # (paths in the reports as check names them)
    got = api_lines(Path(where), rules)
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected, strict=True):
        assert mine == theirs


def test_the_corpus_is_reported_as_check_reports_it() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not beside the project")
    sample = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix != ".md")[::9]
    got = [dumps(rj.replay(game).to_dict()) for path in sample for game in rj.read_games(path)]
    assert got == check_lines(sample)


def test_a_binary_file_is_read_as_standard_input_is() -> None:
    data = (EXAMPLES / "white-overline.txt").read_bytes()
    piped = subprocess.run(
        [sys.executable, "-m", "renju_cli", "check", "--format", "jsonl", "-"],
        input=data,
        capture_output=True,
        check=False,
        timeout=120,
    )
    [game] = rj.read_games(io.BytesIO(data))
    expected = piped.stdout.decode().replace('"<stdin>"', '"<stream>"')
    assert dumps(rj.replay(game).to_dict()) + "\n" == expected
    with (EXAMPLES / "white-overline.txt").open("rb") as f:
        [named] = rj.read_games(f)
    assert named.source.path == str(EXAMPLES / "white-overline.txt")


# -- the nouns and verbs ------------------------------------------------------------------------
def test_a_report_says_how_the_game_ended() -> None:
    report = rj.replay(rj.parse_game(DOUBLE_THREE), rj.load_rules("renju"))
    assert (report.result.winner, report.result.reason, report.result.move) == (
        "white",
        "forbidden",
        9,
    )
    assert str(report.result.point) == "h8"
    [foul] = report.forbidden_moves
    assert (foul.move, str(foul.point), foul.kinds) == (9, "h8", ("double-three",))
    assert [f.code for f in report.findings] == ["forbidden-move"]
    assert report.first_five is None
    five = rj.replay(rj.parse_game(FIVE)).first_five
    assert five is not None and five.color == "black" and five.move == 9
    assert [str(p) for p in five.stones] == ["h8", "h9", "h10", "h11", "h12"]


def test_replay_equals_analyze_and_takes_the_records_own_rule() -> None:
    text = '{"moves": "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8", "rule": "freestyle"}'
    report = rj.replay(rj.parse_game(text))
    assert report.ruleset == "freestyle" and report.result.winner == "black"
    assert report.to_dict() == rj.analyze(text)
    assert rj.replay(rj.parse_game(text), "renju").result.reason == "forbidden"
    # a rule the record names that is not shipped: renju
    assert rj.replay(rj.parse_game('{"moves": "h8", "rule": "caro-9"}')).ruleset == "renju"


def test_parse_game_reads_any_format_and_never_raises() -> None:
    sgf = rj.parse_game("(;GM[4]SZ[15];B[hh];W[hi];B[ih])")
    assert sgf.format == "sgf" and [str(p) for p in sgf.moves if p] == ["h8", "h7", "i8"]
    assert rj.parse_game("h8 h9", path="mine.txt").source.path == "mine.txt"
    for junk in ("", "this is not a record", b"\xff\xfe\x00"):
        game = rj.parse_game(junk)
        report = rj.replay(game)
        assert report.findings and report.findings[0].severity == "error"
    assert rj.parse_game("").unreadable


def test_read_games_is_lazy_and_gives_every_line_of_a_tree(tmp_path: Path) -> None:
    tree = tmp_path / "tree.sgf"
    tree.write_text("(;GM[4]SZ[15];B[hh](;W[hi];B[ih])(;W[ii]))")
    games = rj.read_games(tree)
    assert not isinstance(games, list)
    lines = list(games)
    assert len(lines) == 2
    assert [g.source.id for g in lines] == ["0", "0.1"]
    assert [len(g.moves) for g in lines] == [3, 2]
    missing = list(rj.read_games(tmp_path / "nothing.sgf"))
    assert len(missing) == 1 and missing[0].unreadable
    assert "cannot open" in rj.replay(missing[0]).findings[0].message


def test_replay_never_raises_a_bug_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object) -> typing.NoReturn:
        raise RuntimeError("a bug")

    monkeypatch.setattr("renju_cli.tasks.replay", boom)
    report = rj.replay(rj.parse_game(FIVE))
    assert [f.code for f in report.findings] == ["internal-error"]
    assert "RuntimeError: a bug" in report.findings[0].message


def test_a_reader_that_fails_gives_a_game_whose_report_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from renju_cli.formats import notation

    def broken(*args: object) -> typing.NoReturn:
        raise ValueError("reader bug")

    monkeypatch.setattr(notation, "read", broken)
    path = tmp_path / "games.txt"
    path.write_text(FIVE + "\n")
    [game] = rj.read_games(path)
    assert game.unreadable
    report = rj.replay(game)
    assert report.unreadable and report.findings[0].code == "internal-error"
    assert "ValueError: reader bug" in report.findings[0].message


def test_position_is_the_referees_walk() -> None:
    from renju_cli import referee

    game = rj.parse_game(FIVE)
    rules = rj.load_rules("renju")
    pos = rj.position(game, rules, at=3)
    assert pos.played == 3 and pos.to_move == rj.Color.WHITE
    assert {str(p): n for p, n in pos.numbers.items()} == {"h8": 1, "i9": 2, "h9": 3}
    assert not pos.result.decided
    theirs = referee.position(game.record, rules, 3)
    assert pos.board.to_diagram() == theirs.board.to_diagram()
    end = rj.position(game, rules)
    assert end.played == 9 and end.result.winner == "black" and end.first_five is not None
    assert rj.position(game, rules, at=0).board.stones == 0


def test_forbidden_points_are_blacks_with_their_kinds() -> None:
    board = rj.position(rj.parse_game(DOUBLE_THREE), "renju", at=8).board
    points = rj.forbidden_points(board, "renju")
    assert {str(p): kinds for p, kinds in points.items()} == {"h8": ("double-three",)}
    assert all(isinstance(p, rj.Point) for p in points)
    assert rj.forbidden_points(board, "freestyle") == {}
    assert rj.forbidden_points(board) == points  # renju by default


def test_a_board_reads_and_writes_diagrams() -> None:
    board = rj.position(rj.parse_game(FIVE), "renju", at=4).board
    text = board.to_diagram()
    again = rj.Board.from_diagram(text)
    assert again.to_diagram() == text
    assert again.stones == 4


# -- the types ----------------------------------------------------------------------------------
def test_the_types_are_frozen_and_pickle() -> None:
    game = rj.parse_game(DOUBLE_THREE)
    report = rj.replay(game)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.result.winner = "black"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.record = game.record  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(report)).to_dict() == report.to_dict()
    assert rj.replay(pickle.loads(pickle.dumps(game))).to_dict() == report.to_dict()
    copy = report.to_dict()
    copy["findings"] = []
    assert report.to_dict()["findings"]  # a copy: the report is not changed through it


#: What the public API is: ``renju_cli.__all__``.
PUBLIC = [name for name in rj.__all__ if not name.startswith("__")]


@pytest.mark.parametrize("name", PUBLIC)
def test_the_public_names_say_what_they_hold(name: str) -> None:
    value = getattr(rj, name)
    assert value is getattr(api, name)
    if getattr(value, "__module__", None) != api.__name__:
        return  # (a type of the layers below: Board, Point, Color, Ruleset)
    if inspect.isfunction(value):
        hints = typing.get_type_hints(value, vars(api))
    elif dataclasses.is_dataclass(value) and isinstance(value, type):
        hints = typing.get_type_hints(value, vars(api))
        hints = {k: v for k, v in hints.items() if not k.startswith("_")}
    else:
        return
    for key, hint in hints.items():
        assert typing.Any not in _parts(hint), f"{name}.{key}: {hint}"


def _parts(hint: object) -> list[object]:
    out = [hint]
    for arg in typing.get_args(hint):
        out.extend(_parts(arg))
    return out


def test_the_api_is_imported_only_when_used() -> None:
    code = "import sys, renju_cli; print('renju_cli.api' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
    with pytest.raises(AttributeError):
        rj.no_such_name  # noqa: B018
