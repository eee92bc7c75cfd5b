"""``renju forbidden`` and ``renju show``: one position."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import click

from renju_cli.board import BLACK, WHITE
from renju_cli.cli.app import (
    CONTEXT,
    EXIT_FINDINGS,
    RULES_HELP,
    UsageProblem,
    cli,
    input_format_option,
    load_rules,
    read_options,
    shown,
)
from renju_cli.cli.output import echo, write_bytes, written
from renju_cli.cli.records import ID_HELP, Selection, record_option
from renju_cli.report import MAX_FINDINGS

# -- positions: forbidden, show --------
#: what the reader could not make sense of in the record drawn or judged (its moves up to there
#: are used): said on standard error, and the exit code is 1, as ``check`` would give
_READ_PROBLEMS: list[str] = []


def _exits_1_when_partly_read(command: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        _READ_PROBLEMS.clear()
        command(*args, **kwargs)
        if _READ_PROBLEMS:
            sys.exit(EXIT_FINDINGS)

    return run


def _position_record(
    path: str, input_format: str | None, wanted: str | None, encoding: str | None
) -> Any:
    """The record of ``path`` that ``--record`` names (the first without it); what its reader
    could not read is said on standard error (and the exit code is 1); one it could not read
    at all ends the run."""
    from renju_cli import api

    options = read_options(encoding)
    if path != "-" and not os.path.exists(path):
        raise UsageProblem(f"{shown(path)}: no such file")
    selected = Selection(wanted)
    for record in api.read_path(path, input_format, options):
        if selected(record.source):
            _say_problems(path, record)
            return record
    raise _no_such_record(path, wanted or "0")


def _no_such_record(path: str, wanted: str) -> UsageProblem:
    if wanted.isdigit():
        return UsageProblem(f"{shown(path)}: has no record number {wanted}")
    return UsageProblem(
        f"{shown(path)}: has no record {wanted} (check prints the ids of its records)"
    )


def _say_problems(path: str, record: Any) -> None:
    """The problems of the record drawn or judged, on standard error (as many as ``check``
    lists: a hostile record has a problem per node, and 100,000 of them made a 10 MB line)."""
    listed, more = record.problems[:SHOWN_PROBLEMS], len(record.problems) - SHOWN_PROBLEMS
    if record.unreadable:
        msg = "; ".join(p.message for p in listed)
        if more > 0:
            msg += f"; and {more} more problem(s)"
        raise UsageProblem(shown(f"{path}: cannot read the position: {msg}"))
    for p in listed:
        _READ_PROBLEMS.append(p.message)
        click.echo(shown(f"renju: {path}: {p.message}"), err=True)
    if more > 0:
        _READ_PROBLEMS.append(f"{more} more")
        click.echo(shown(f"renju: {path}: and {more} more problem(s)"), err=True)


def _past_the_end(record: Any, at: int | None) -> None:
    """Say on standard error that ``--at`` is past the record's last move (the position
    after its last move is used: ``--at 100`` of a 9-move game showed move 9 without a word)."""
    if at is not None and at > len(record.moves):
        click.echo(
            f"renju: the record has {len(record.moves)} move(s); --at {at} is past its end: "
            "the position after its last move is used",
            err=True,
        )


#: Problems of a record that ``show``/``forbidden`` list (as many as ``check`` lists findings).
SHOWN_PROBLEMS = MAX_FINDINGS

_RECORD_HELP = "Which record of the file (default: the first). " + ID_HELP
#: What follows the number of a stone played after the end of the game.
_AFTER = "'"
_KIND_MARK = {"double-three": "3", "double-four": "4", "overline": "6"}
#: Without move numbers: a stone of the five, a stone played after the end of the game.
_FIVE_MARK = {BLACK: "#", WHITE: "@"}
_AFTER_MARK = {BLACK: "x", WHITE: "o"}
#: The colours of ``board`` stones in words, and back.
_COLOR = {BLACK: "black", WHITE: "white"}
_STONE = {"black": BLACK, "white": WHITE}


@cli.command(context_settings=CONTEXT)
@click.argument("path", default="-")
@click.option("--rules", "-r", default=None, help=RULES_HELP + " Default: renju.")
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    default=None,
    help="The position after move N (default: after the last move).",
)
@record_option(_RECORD_HELP)
@click.option(
    "--color",
    type=click.Choice(["black", "white"]),
    default="black",
    show_default=True,
    help="Whose forbidden points to list.",
)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@input_format_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
@_exits_1_when_partly_read
def forbidden(
    path: str,
    rules: str | None,
    at: int | None,
    wanted: str | None,
    color: str,
    fmt: str,
    input_format: str | None,
    encoding: str | None,
) -> None:
    """List black's forbidden points in a position, with their kinds.

    PATH (or - for standard input) is a board diagram (N rows of X, O and . cells, top row
    first; labels ignored) or a game record, whose position after --at N moves is used.
    A diagram asks "where may black not play", whoever is to move. Once the game is over (as
    check replays it), no point is forbidden: no move will come.

    \b
    Examples:
      renju forbidden position.txt
      renju forbidden game.txt --at 22 --format json
      printf '...\\n' | renju forbidden - --rules renju
    """
    from renju_cli import api
    from renju_cli.ruleset import load

    record = _position_record(path, input_format, wanted, encoding)
    ruleset = load_rules(rules) or load(api.choose_ruleset(record, None).name)
    pos, end = _position(record, ruleset, at)
    ended = end if _over(pos, end) else None  # no move will come: nothing is forbidden
    items = [] if ended is not None else _forbidden_points(ruleset, pos.board, _STONE[color])
    if fmt == "json":
        echo(json.dumps(_forbidden_json(items, color, ruleset, pos, ended), ensure_ascii=False))
    else:
        echo(_forbidden_text(items, color, ruleset.name, ended))


def _over(pos: Any, end: int | None) -> bool:
    """Whether the game ended by the position (``end``: the move that ended it, if it did)."""
    return end is not None and pos.played >= end


def _forbidden_points(ruleset: Any, board: Any, stone: int) -> list[tuple[Any, tuple[str, ...]]]:
    """The points forbidden to ``stone`` with their kinds, by column and row."""
    found = ruleset.judge().forbidden_points(board, stone)
    return sorted((board.point(i), kinds) for i, kinds in found)


def _forbidden_text(items: list[Any], color: str, rules_name: str, ended: int | None) -> str:
    if items:
        return "\n".join(f"{p.name} {', '.join(kinds)}" for p, kinds in items)
    why = f": the game ended at move {ended}" if ended is not None else ""
    return f"no forbidden points for {color} under {rules_name}{why}"


def _forbidden_json(
    items: list[Any], color: str, ruleset: Any, pos: Any, ended: int | None
) -> dict[str, Any]:
    """``forbidden --format json``: the points, and the position they are of (``ended_at``:
    the move that ended the game, when it ended by then)."""
    board = pos.board
    out = {
        "forbidden": [{"point": p.name, "kinds": list(k)} for p, k in items],
        "color": color,
        "ruleset": ruleset.name,
        "stones": board.stones,
        "moves": pos.played,
        "to_move": _COLOR[pos.to_move],
        "size": [board.width, board.height],
    }
    if ended is not None:
        out["ended_at"] = ended
    return out


@cli.command(context_settings=CONTEXT)
@click.argument("path", default="-")
@click.option("--rules", "-r", default=None, help=RULES_HELP + " Default: the record's rule.")
@click.option(
    "--at", "at", type=click.IntRange(min=0), default=None, help="The position after move N."
)
@record_option(_RECORD_HELP)
@click.option(
    "--numbers/--stones",
    default=True,
    show_default=True,
    help="Draw move numbers, or stones as X and O.",
)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--svg",
    "svg_path",
    default=None,
    metavar="FILE",
    help="Draw the position as an SVG picture into FILE (- for standard output) instead of "
    "the text board.",
)
@click.option(
    "--png",
    "png_path",
    default=None,
    metavar="FILE",
    help="Draw the position as a PNG picture into FILE (- for standard output); needs the "
    "optional resvg-py package: pip install 'renju-cli[png]'.",
)
@input_format_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
@_exits_1_when_partly_read
def show(
    path: str,
    rules: str | None,
    at: int | None,
    wanted: str | None,
    numbers: bool,
    fmt: str,
    svg_path: str | None,
    png_path: str | None,
    input_format: str | None,
    encoding: str | None,
) -> None:
    """Draw a position as a text board: moves numbered, the five and forbidden points marked.

    Marks: 3 double-three, 4 double-four, 6 overline (black's forbidden points, when black is
    to move and, on a diagram, whoever is to move; none once the game is over); stones of the
    first five are drawn with a * (numbers) or as # and @ (stones), moves played after the end
    of the game with a ' (numbers) or as x and o (stones), and listed under the board. The side
    to move is the one check replays: on a diagram, black when the colours have as many
    stones, else the side with fewer. With --svg or --png the position is drawn as a picture
    instead: coordinates, stones with their move numbers, the five ringed, forbidden points
    marked 3×3, 4×4 or 6+.

    \b
    Examples:
      renju show game.txt
      renju show game.txt --at 23 --stones
      renju show db.rif --record 12 --format json
      renju show game.txt --at 23 --svg board.svg
      renju show game.txt --png board.png
    """
    from renju_cli import api
    from renju_cli.output.picture import legend as legend_of
    from renju_cli.output.picture import position_marks

    if svg_path == "-" and png_path == "-":
        raise UsageProblem("only one of --svg and --png can write to standard output")
    record = _position_record(path, input_format, wanted, encoding)
    ruleset = load_rules(rules) or api.choose_ruleset(record, None)
    pos, end = _position(record, ruleset, at)
    found = position_marks(pos, ruleset, end=end)
    legend = legend_of(pos, found)
    if svg_path is not None or png_path is not None:
        if not numbers:
            found.numbers = {}
        _write_pictures(pos.board, found, legend, ruleset.name, svg_path, png_path)
    elif fmt == "json":
        echo(json.dumps(_show_json(pos, found), ensure_ascii=False))
    else:
        echo(pos.board.diagram(_text_marks(pos, found, numbers)))
        echo("; ".join(legend))


def _position(record: Any, ruleset: Any, at: int | None) -> tuple[Any, int | None]:
    """The position after move ``at`` as the referee walks the record, and the move that
    ended the game (``None``: it goes on), as ``check`` judges it."""
    from renju_cli import api

    pos = api.position_after(record, ruleset, at)
    _past_the_end(record, at)
    result = api.judge_record(record, ruleset).result
    return pos, result.move if result.decided else None


def _after_the_end(pos: Any, found: Any) -> dict[str, Any]:
    """``show --format json``'s moves played after the end of the game (none: no key)."""
    if not found.after:
        return {}
    board = pos.board
    after = sorted(found.after, key=pos.numbers.__getitem__)
    return {"after_end": [{"move": pos.numbers[i], "point": board.name(i)} for i in after]}


def _text_marks(pos: Any, found: Any, numbers: bool) -> dict[int, str]:
    """What the text board shows on each point: a stone's mark (``_stone_mark``), a forbidden
    point's kind (``!`` for several)."""
    board, forbidden = pos.board, found.forbidden
    marks: dict[int, str] = {}
    for i in board.points():
        if board.cells[i] in _COLOR:
            mark = _stone_mark(i, board.cells[i], pos, found, numbers)
            if mark is not None:
                marks[i] = mark
        elif i in forbidden:
            kinds = forbidden[i]
            marks[i] = _KIND_MARK[kinds[0]] if len(kinds) == 1 else "!"
    return marks


def _stone_mark(i: int, stone: int, pos: Any, found: Any, numbers: bool) -> str | None:
    """A stone's move number (``*`` on the five, ``'`` after the end of the game), or without
    numbers ``#``/``@`` on the five and ``x``/``o`` after the end (``None``: ``X``/``O``)."""
    if numbers and i in pos.numbers:
        five = "*" if i in found.five else ""
        return f"{pos.numbers[i]}{five}{_AFTER if i in found.after else ''}"
    if i in found.five:
        return _FIVE_MARK[stone]
    if i in found.after:
        return _AFTER_MARK[stone]
    return None


def _show_json(pos: Any, found: Any) -> dict[str, Any]:
    """``show --format json``: the board, its stones, the five and the forbidden points."""
    board = pos.board
    return {
        "size": [board.width, board.height],
        "moves": pos.played,
        "to_move": _COLOR[pos.to_move],
        "diagram": board.diagram(labels=False).splitlines(),
        "stones": [
            {
                "point": board.name(i),
                "color": _COLOR[board.cells[i]],
                "move": pos.numbers.get(i),
            }
            for i in board.points()
            if board.cells[i] in _COLOR
        ],
        "five": [board.name(i) for i in found.five] or None,
        **_after_the_end(pos, found),
        "forbidden": [
            {"point": board.name(i), "kinds": list(k)} for i, k in sorted(found.forbidden.items())
        ],
    }


def _write_pictures(
    board: Any,
    marks: Any,
    legend: list[str],
    rules_name: str,
    svg_path: str | None,
    png_path: str | None,
) -> None:
    """Write the SVG and/or PNG picture of a position (``-``: standard output)."""
    from renju_cli.output.picture import board_svg

    svg = board_svg(board, marks, title=f"{'; '.join(legend)} ({rules_name})", caption=legend)
    # (the PNG is made first: when it cannot be, nothing is written)
    png = None if png_path is None else (png_path, _png(svg))
    if svg_path is not None:
        with written(svg_path) as f:  # (``-``: standard output)
            f.write(svg)
    if png is not None:
        write_bytes(*png)


def _png(svg: str) -> bytes:
    from renju_cli.output.picture import PictureError, svg_to_png

    try:
        return svg_to_png(svg)
    except PictureError as e:
        raise UsageProblem(str(e)) from None
