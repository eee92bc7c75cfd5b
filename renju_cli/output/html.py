"""The browsable HTML report of ``renju check --html DIR``, at any size of archive.

``index.html`` counts the run's records (by finding code, result and opening) and lists every
record through a filter (``html_index``).  ``record-NNNNN.html`` is a page for a record with
findings (with ``boards="all"``, for every record; at most :data:`MAX_PAGES`): what the referee
found, the moves, and the board at the decisive move (the move that ended the game, else the
last one) with the winning row ringed, fouls (stones played on a forbidden point) ringed in red
with their kind, the moves after the end faded and listed, and, when the game is still open,
black's forbidden points.  Pages are written as records come (a report of 100,000 records
keeps their index rows, not their records), self-contained (inline CSS and SVG, no script, no
external asset), and every text that comes from a record is escaped by the template engine
(Jinja2, autoescape).  The positions come from the referee's walk (``referee.position``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import renju_cli.limits as limits
from renju_cli.board import BLACK, Board
from renju_cli.coords import parse_point, point_name
from renju_cli.limits import Judgements, WalkSteps
from renju_cli.output import html_index
from renju_cli.output.html_index import DATA, INDEX
from renju_cli.output.picture import Marks, board_svg, row_word
from renju_cli.output.text import result_words, where
from renju_cli.record import Color, Record
from renju_cli.referee import Position, position
from renju_cli.report import GameReport, Summary
from renju_cli.ruleset import Ruleset, RulesetError, load

__all__ = ["DATA", "INDEX", "HtmlReport", "Written", "decisive_move", "write_report"]

#: Which records get a page with their board: those with findings, or all.
BOARDS = ("findings", "all")
#: Record pages a report writes at most; the index lists every record all the same.  A page
#: is some 20 kB (its board drawn in SVG): 5,000 pages are some 100 MB.
MAX_PAGES = 5000

_STYLE = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 1.5em; color: #222;
       background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 .4em; } h2 { font-size: 1.1em; margin: 1.2em 0 .4em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: #f0ece0; }
tr.error td:first-child { border-left: 4px solid #d0021b; }
tr.warning td:first-child { border-left: 4px solid #e69500; }
ul.findings { margin: 0; padding-left: 1.1em; }
.sev { font-weight: bold; } .sev.error { color: #d0021b; } .sev.warning { color: #b36b00; }
.sev.info { color: #0b6e99; }
code { background: #f4f4f4; padding: 0 .2em; }
nav a { margin-right: 1em; }
figure { margin: 1em 0; } figcaption { margin-top: .3em; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dl.facts dt { font-weight: bold; } dl.facts dd { margin: 0; }
ol.moves { columns: 12em; padding-left: 2.5em; }
ol.moves li.decisive { font-weight: bold; color: #d0021b; }
ol.moves li.last { font-weight: bold; }
ol.moves li.after { color: #999; }
.muted { color: #777; }
form#filter { margin: .8em 0; } form#filter label { margin-right: 1em; }
nav#pager { margin: .4em 0; }
table.counts { display: inline-table; margin: 0 1.5em .8em 0; }
"""

_BASE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>{{ style }}</style>
</head>
<body>
{% block body %}{% endblock %}
</body>
</html>
"""

_RECORD = """{% extends "base" %}
{% block body %}
<nav><a href="index.html" rel="index">index</a>
{%- if prev %}<a href="{{ prev }}" rel="prev">previous</a>{% endif %}
{%- if next %}<a href="{{ next }}" rel="next">next</a>{% endif %}</nav>
<h1>{{ where }}</h1>
<dl class="facts">
<dt>format</dt><dd>{{ report.format }}</dd>
<dt>ruleset</dt><dd>{{ report.ruleset }}</dd>
<dt>moves</dt><dd>{{ report.moves }}</dd>
<dt>result</dt><dd id="result">{{ result }}</dd>
{% if report.opening and report.opening.get("id") %}<dt>opening</dt>
<dd>{{ report.opening.get("id") }} {{ report.opening.get("name", "") }}</dd>{% endif %}
{% if report.first_five %}<dt>{{ "first five" if row == "five" else row }}</dt>
<dd id="row">move {{ report.first_five.move }}, {{ report.first_five.color }}:
{{ report.first_five.stones | join("-") }}</dd>{% endif %}
{% if report.forbidden_moves %}<dt>forbidden moves</dt><dd>
{% for f in report.forbidden_moves %}move {{ f.move }} {{ f.point }} ({{ f.kinds | join(", ") }})
{{- "; " if not loop.last }}{% endfor %}</dd>{% endif %}
</dl>
{% if svg %}
<figure id="board">
{{ svg }}
<figcaption>{{ caption }}</figcaption>
</figure>
{% else %}
<p class="muted" id="no-board">{{ caption }}</p>
{% endif %}
<h2>Findings</h2>
{% if report.findings %}
<table id="findings">
<thead><tr><th>severity</th><th>code</th><th>move</th><th>point</th><th>message</th></tr></thead>
<tbody>
{% for f in report.findings %}<tr class="{{ f.severity }}" data-code="{{ f.code }}">
<td><span class="sev {{ f.severity }}">{{ f.severity }}</span></td>
<td><code>{{ f.code }}</code></td>
<td>{{ f.move if f.move is not none else "" }}</td><td>{{ f.point or "" }}</td>
<td>{{ f.message }}</td></tr>
{% endfor %}</tbody>
</table>
{% else %}<p class="muted">none</p>{% endif %}
{% if moves %}
<h2>Moves</h2>
<ol class="moves">
{% for m in moves %}<li class="{{ m.css }}" value="{{ m.number }}">{{ m.point }}</li>
{% endfor %}</ol>
{% endif %}
{% if report.metadata %}
<h2>Metadata</h2>
<table id="metadata">
{% for key, value in report.metadata.items() %}<tr><th>{{ key }}</th><td>{{ value }}</td></tr>
{% endfor %}</table>
{% endif %}
{% if report.notes %}
<h2>Notes</h2>
<ul>{% for note in report.notes %}<li>{{ note }}</li>{% endfor %}</ul>
{% endif %}
{% endblock %}
"""


@dataclass
class _Move:
    number: int
    point: str
    css: str


@dataclass(frozen=True)
class Written:
    """What a report wrote: where, how many record pages, and the bytes of every file."""

    directory: str
    pages: int
    size: int

    def __str__(self) -> str:
        size = f"{self.size / 1e6:.1f} MB" if self.size >= 1e6 else f"{self.size / 1e3:.1f} kB"
        return f"{self.directory}: an index and {self.pages} record page(s), {size}"


class HtmlReport:
    """The HTML report of a run, written into ``directory`` (created if missing) as records
    come: ``add`` each record's report (and the record, ``None`` when not at hand: a page
    without a board), then ``finish``.

    ``rules`` is the ruleset the reports were judged under, when it is not a shipped one (a
    YAML file): the pictures need its board size and its judge.  ``boards``: ``findings`` (a
    page for each record with findings) or ``all``.  A page that cannot be written (a full
    disk) stops the pages; ``finish`` raises the ``OSError``.  ``max_pages``: by default
    :data:`MAX_PAGES`.
    """

    def __init__(
        self,
        directory: str,
        *,
        rules: Ruleset | None = None,
        boards: str = "findings",
        max_pages: int | None = None,
    ) -> None:
        if boards not in BOARDS:
            raise ValueError(f"boards must be one of {', '.join(BOARDS)}")
        self.directory = directory
        self.rules = rules
        self.boards = boards
        self.max_pages = MAX_PAGES if max_pages is None else max_pages
        self.bound = _picture_bound()
        self.rows: list[list[Any]] = []
        self.summary = Summary()
        self.pages = self.unpaged = self.size = 0
        self.error: OSError | None = None
        self._rulesets: dict[str, Ruleset | None] = {}
        self._previous: str | None = None
        self._pending: tuple[str, GameReport, Record | None] | None = None
        self._env = _environment()
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as e:
            self.error = e

    def add(self, report: GameReport, record: Record | None) -> None:
        """One more record of the run, in input order."""
        number = len(self.rows) + 1
        self.summary.add(report)
        page = None
        if self.boards == "all" or report.findings:
            if self.pages < self.max_pages:
                page = f"record-{number:05d}.html"
                self.pages += 1
            else:
                self.unpaged += 1
        self.rows.append(html_index.row(number, report, page))
        if page is not None:
            self._flush(next_page=page)
            self._pending = (page, report, record)

    def finish(self, summary: Summary | None = None) -> Written:
        """Write the last page and the index; ``summary`` counts the run (by default, the
        records added)."""
        self._flush(next_page=None)
        counted = (summary or self.summary).to_json()
        index = self._env.get_template("index").render(
            title="renju check report",
            style=_STYLE,
            summary=counted,
            pages=self.pages,
            unpaged=self.unpaged,
            boards=self.boards,
            max_pages=self.max_pages,
            script=_markup(html_index.script()),
            **html_index.context(counted),
        )
        self._write(DATA, html_index.data_chunks(self.rows))
        self._write(INDEX, [index])
        if self.error is not None:
            raise self.error
        return Written(self.directory, self.pages, self.size)

    def _flush(self, next_page: str | None) -> None:
        """Write the page waiting for the name of the next one."""
        if self._pending is None:
            return
        page, report, record = self._pending
        self._pending = None
        ruleset = _ruleset(report, self.rules, self._rulesets)
        svg, caption, moves = _board(report, record, ruleset, self.bound)
        text = self._env.get_template("record").render(
            title=f"{where(report)} - renju check",
            style=_STYLE,
            where=where(report),
            report=report,
            result=result_words(report),
            row=_row(report, ruleset),
            svg=_markup(svg) if svg else None,
            caption=caption,
            moves=moves,
            prev=self._previous,
            next=next_page,
        )
        self._previous = page
        self._write(page, [text])

    def _write(self, name: str, chunks: Iterable[str]) -> None:
        if self.error is None:
            try:
                self.size += _write(os.path.join(self.directory, name), chunks)
            except OSError as e:
                self.error = e


def write_report(
    reports: Sequence[GameReport],
    records: Sequence[Record | None],
    directory: str,
    *,
    rules: Ruleset | None = None,
    summary: Summary | None = None,
    boards: str = "findings",
    max_pages: int | None = None,
) -> Written:
    """The HTML report of ``reports`` (made from ``records``, in the same order) in
    ``directory``: ``HtmlReport`` fed them all."""
    if len(records) != len(reports):
        raise ValueError(f"{len(reports)} reports but {len(records)} records")
    html = HtmlReport(directory, rules=rules, boards=boards, max_pages=max_pages)
    for report, record in zip(reports, records, strict=True):
        html.add(report, record)
    return html.finish(summary)


def _markup(text: str) -> Any:
    from markupsafe import Markup  # Jinja2's own: our SVG and script, escaped as they are made

    return Markup(text)


def _environment() -> Any:
    import jinja2  # imported here: only the HTML report needs it

    templates = {"base": _BASE, "index": html_index.INDEX_TEMPLATE, "record": _RECORD}
    return jinja2.Environment(
        loader=jinja2.DictLoader(templates),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _write(path: str, chunks: Iterable[str]) -> int:
    """Write a file atomically (a reader never sees half a page, and a failure, a full disk or
    Ctrl-C, leaves no half-written temporary file beside the pages); its size in bytes."""
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8", errors="replace") as f:
            for chunk in chunks:
                f.write(chunk)
        os.replace(tmp, path)
        return os.path.getsize(path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


def _ruleset(
    report: GameReport, given: Ruleset | None, cache: dict[str, Ruleset | None]
) -> Ruleset | None:
    """The ruleset a report was judged under: ``given`` when the names match, else the
    shipped one of that name (``None``: neither)."""
    if given is not None and given.name == report.ruleset:
        return given
    if report.ruleset not in cache:
        try:
            cache[report.ruleset] = load(report.ruleset)
        except RulesetError:
            cache[report.ruleset] = None
    return cache[report.ruleset]


def _row(report: GameReport, ruleset: Ruleset | None) -> str:
    """``five``, or ``overline`` when the winning row is longer than a five."""
    ff = report.first_five
    length = ruleset.five_length if ruleset is not None else 5
    return row_word(len(ff.stones), length) if ff is not None else "five"


def decisive_move(report: GameReport) -> int:
    """The move that ended the game, else the last move of the record."""
    r = report.result
    if r.decided and r.move is not None:
        return r.move
    return report.moves


def _board(
    report: GameReport, record: Record | None, ruleset: Ruleset | None, bound: Judgements
) -> tuple[str | None, str, list[_Move]]:
    """The picture at the decisive move, its caption, and the moves for the move list."""
    if record is None or record.unreadable:
        why = "the record could not be read" if report.unreadable else "the record is not at hand"
        return None, f"No board: {why}.", []
    n = decisive_move(report)
    moves = _move_list(record, n, report.result.decided)
    if ruleset is None:
        return None, f"No board: the ruleset {report.ruleset} is not at hand.", moves
    walks = bound.walk_steps
    cuts = walks.cuts if walks is not None else 0
    try:
        svg, late = _draw(report, record, ruleset, n, bound)
    except ValueError as e:  # a board size no board can have
        return None, f"No board: {e}.", moves
    except Exception as e:  # a bug drawing one record must not lose the whole report
        return None, f"No board: drawing it failed ({type(e).__name__}: {e}).", moves
    return svg, _caption(report, n, moves, late, walks, cuts), moves


def _move_list(record: Record, n: int, decided: bool) -> list[_Move]:
    """The moves of the record, move ``n`` marked: in red when it ended the game, an open
    game's last move only in bold; the moves after it faded."""
    last = "decisive" if decided else "last"
    return [
        _Move(i, point_name(m.point), last if i == n else ("after" if i > n else ""))
        for i, m in enumerate(record.moves, 1)
    ]


def _draw(
    report: GameReport, record: Record, ruleset: Ruleset, n: int, bound: Judgements
) -> tuple[str, set[int]]:
    """``_picture`` of the board at move ``n``; past the end, of the whole record: the moves
    after the end are drawn, faded."""
    bound.next_record()  # (one more allowance of walk steps a page)
    after = len(record.moves) > n and report.result.decided
    pos = position(record, ruleset, None if after else n, bound)
    return _picture(report, pos, ruleset, n, bound)


def _caption(
    report: GameReport,
    n: int,
    moves: list[_Move],
    late: set[int],
    walks: WalkSteps | None,
    cuts: int,
) -> str:
    """The words under a board: which move it shows, the moves after the end, the cut walk."""
    if report.result.decided:
        caption = f"The board at move {n}, the decisive move: {result_words(report)}."
        caption += _played_after(moves, n, late)
    else:
        caption = f"The board after the last move ({n}): {result_words(report)}."
    if walks is not None and walks.cuts > cuts:
        caption += (
            f" The opening protocol is not followed in this picture (the pictures of this report"
            f" took the {walks.limit} steps of opening walks they may take): only the recorded"
            " opening events are applied."
        )
    return caption


def _played_after(moves: list[_Move], n: int, late: set[int]) -> str:
    """The moves played after the end of the game at move ``n`` (``late``: those on the
    board)."""
    after = [m for m in moves if m.number > n]
    if not after:
        return ""
    listed = ", ".join(
        f"{m.number} {m.point}" + ("" if m.number in late else " (not on the board)") for m in after
    )
    return f" Played after the end (faded): {listed}."


def _picture_bound() -> Judgements:
    """The bound of one report's pictures: ``limits.PICTURE_JUDGEMENTS`` double-three
    judgements to mark black's forbidden points (past it, points whose threes need judging are
    not marked; an overline or a double-four still is), and as many steps of opening walks as a
    run may take for as many records (``limits.WALK_STEPS_ALLOWANCE`` and one
    ``WALK_STEPS_PER_RECORD`` more a page), so that the pages never walk more than the run did
    (past it, a picture applies only the recorded events and seat rules, and its caption says
    so)."""
    steps = WalkSteps(limits.WALK_STEPS_ALLOWANCE, per=limits.WALK_STEPS_PER_RECORD)
    return Judgements(limits.PICTURE_JUDGEMENTS, walk_steps=steps)


def _picture(
    report: GameReport, pos: Position, ruleset: Ruleset, n: int, bound: Judgements
) -> tuple[str, set[int]]:
    """The SVG of the board at move ``n`` (and the stones played after it, faded), marked with
    what the report found; and the numbers of the moves after ``n`` on the board."""
    board = pos.board
    numbers = {board.index(p): m for p, m in pos.numbers.items()}
    marks = Marks(
        numbers=numbers,
        five=_five(board, report, n),
        fouls=_fouls(board, report, n),
        after=frozenset(i for i, m in numbers.items() if m > n),
        row=_row(report, ruleset),
    )
    if _black_to_move(report, pos):
        judge = ruleset.judge()
        judge.forget()  # (what a picture spends depends on it alone)
        marks.forbidden = dict(judge.forbidden_points(board, BLACK, bound))
    late = {numbers[i] for i in marks.after}
    return board_svg(board, marks, title=f"{where(report)}: board at move {n}"), late


def _five(board: Board, report: GameReport, n: int) -> tuple[int, ...]:
    """The stones of the first five, when it was made by move ``n``."""
    ff = report.first_five
    return tuple(_indices(board, ff.stones)) if ff is not None and ff.move <= n else ()


def _fouls(board: Board, report: GameReport, n: int) -> dict[int, tuple[str, ...]]:
    """The forbidden moves played by move ``n``, with their kinds."""
    return {
        i: tuple(foul.kinds)
        for foul in report.forbidden_moves
        if foul.move <= n
        for i in _indices(board, [foul.point])
    }


def _black_to_move(report: GameReport, pos: Position) -> bool:
    """Whether black's forbidden points are marked: in a game that goes on, when black is to
    move (or no move was played)."""
    return not report.result.decided and (pos.to_move == Color.BLACK or pos.played == 0)


def _indices(board: Board, names: Sequence[str]) -> list[int]:
    out = []
    for name in names:
        try:
            point = parse_point(name)
        except ValueError:
            continue
        if board.on_board(point):
            out.append(board.index(point))
    return out
