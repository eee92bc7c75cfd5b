"""The browsable HTML report of ``renju check --html DIR``.

``index.html`` is a table of every record with its result and findings; ``record-NNNNN.html`` is
one page per record: what the referee found, the moves, and the board at the decisive move (the
move that ended the game, else the last one) with the five ringed, fouls (stones played on a
forbidden point) ringed in red with their kind and, when the game is still open, black's
forbidden points.  Pages are self-contained (inline CSS and SVG, no script, no external asset),
and every text that comes from a record is escaped by the template engine (Jinja2, autoescape).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from renju_cli.board import BLACK, Board
from renju_cli.coords import parse_point, point_name
from renju_cli.formats import ReadOptions
from renju_cli.judge import Judgements, WalkSteps
from renju_cli.output.picture import Marks, Position, board_svg
from renju_cli.output.text import result_words, where
from renju_cli.record import Record
from renju_cli.report import GameReport, Summary
from renju_cli.ruleset import Ruleset, RulesetError, load

INDEX = "index.html"
#: How the caller walks a record to a position: ``(record, ruleset, after this many moves,
#: a bound on the walk's judgements and opening-walk steps)``.
PositionOf = Callable[[Record, Ruleset, int | None, Judgements | None], Position]
#: Records shown (a row of the index and a page each): the first this many of a run.  A
#: megabyte of short records made 51,884 pages (422 MB, 136 s, 215 MB of memory); the text
#: and JSON reports list every record.
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

_INDEX = """{% extends "base" %}
{% block body %}
<h1>renju check report</h1>
<p id="summary">{{ summary.records }} record(s): {{ summary.judged }} judged,
{{ summary.unreadable }} unreadable, {{ summary.with_findings }} with findings.
{% if summary.findings %}Findings: {% for code, n in summary.findings.items() -%}
<code>{{ code }}</code> {{ n }}{{ ", " if not loop.last }}{% endfor %}.{% endif %}</p>
{% if not_shown %}<p id="not-shown">The first {{ rows | length }} records are shown here;
{{ not_shown }} more are counted above but not shown (an HTML report shows at most
{{ max_pages }}: the text and JSON reports list every record).</p>{% endif %}
<table id="records">
<thead><tr><th>#</th><th>record</th><th>format</th><th>ruleset</th><th>moves</th>
<th>result</th><th>findings</th></tr></thead>
<tbody>
{% for row in rows %}
<tr class="{{ row.worst or 'clean' }}" data-record="{{ row.number }}"
    data-findings="{{ row.report.findings | length }}">
<td>{{ row.number }}</td>
<td><a href="{{ row.page }}">{{ row.where }}</a></td>
<td>{{ row.report.format }}</td>
<td>{{ row.report.ruleset }}</td>
<td>{{ row.report.moves }}</td>
<td>{{ row.result }}</td>
<td>{% if row.report.findings %}<ul class="findings">
{% for f in row.report.findings %}<li class="finding" data-code="{{ f.code }}">
<span class="sev {{ f.severity }}">{{ f.severity }}</span> <code>{{ f.code }}</code>
{%- if f.move is not none %} move {{ f.move }}{% endif %}: {{ f.message }}</li>
{% endfor %}</ul>{% else %}<span class="muted">none</span>{% endif %}</td>
</tr>
{% endfor %}
</tbody>
</table>
{% endblock %}
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
{% if report.first_five %}<dt>first five</dt><dd>move {{ report.first_five.move }},
{{ report.first_five.color }}: {{ report.first_five.stones | join("-") }}</dd>{% endif %}
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


def write_report(
    reports: list[GameReport],
    records: Sequence[Record | None],
    directory: str,
    *,
    position: PositionOf,
    rules: Ruleset | None = None,
    summary: Summary | None = None,
    not_shown: int = 0,
) -> None:
    """Write ``index.html`` and one page per record into ``directory`` (created if missing).

    ``records`` are the records the reports were made from, in the same order (``None``: not
    at hand, a page without a board); ``position`` walks a record to the position a board
    shows.  ``rules`` is the ruleset the reports were judged under, when it is not a shipped
    one (a YAML file): the pictures need its board size and its judge.  ``summary`` counts
    every record of the run when ``not_shown`` more records than ``reports`` were judged (at
    most ``MAX_PAGES`` are shown); by default, the reports'.
    """
    if len(records) != len(reports):
        raise ValueError(f"{len(reports)} reports but {len(records)} records")
    _PICTURES.bound = _picture_bound()
    from markupsafe import Markup  # Jinja2's own: marks the SVG, escaped by board_svg, as safe

    env = _environment()
    os.makedirs(directory, exist_ok=True)
    width = max(5, len(str(len(reports))))
    pages = [f"record-{n:0{width}d}.html" for n in range(1, len(reports) + 1)]
    counted = summary
    summary = Summary()
    rows = []
    rulesets: dict[str, Ruleset | None] = {}
    page = env.get_template("record")
    for n, (report, record) in enumerate(zip(reports, records, strict=True)):
        summary.add(report)
        rows.append(
            {
                "number": n + 1,
                "page": pages[n],
                "where": where(report),
                "result": result_words(report),
                "worst": report.worst(),
                "report": report,
            }
        )
        ruleset = _ruleset(report, rules, rulesets)
        svg, caption, moves = _board(report, record, ruleset, position)
        _write(
            os.path.join(directory, pages[n]),
            page.render(
                title=f"{where(report)} - renju check",
                style=_STYLE,
                where=where(report),
                report=report,
                result=result_words(report),
                svg=Markup(svg) if svg else None,
                caption=caption,
                moves=moves,
                prev=pages[n - 1] if n > 0 else None,
                next=pages[n + 1] if n + 1 < len(pages) else None,
            ),
        )
    _write(
        os.path.join(directory, INDEX),
        env.get_template("index").render(
            title="renju check report",
            style=_STYLE,
            rows=rows,
            summary=(counted or summary).to_json(),
            not_shown=not_shown,
            max_pages=MAX_PAGES,
        ),
    )


def _environment() -> Any:
    import jinja2  # imported here: only the HTML report needs it

    return jinja2.Environment(
        loader=jinja2.DictLoader({"base": _BASE, "index": _INDEX, "record": _RECORD}),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _write(path: str, text: str) -> None:
    """Write a page atomically: a reader never sees half a page, and a failure (a full disk,
    Ctrl-C) leaves no half-written temporary file beside the pages."""
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8", errors="replace") as f:
            f.write(text)
        os.replace(tmp, path)
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


def decisive_move(report: GameReport) -> int:
    """The move that ended the game, else the last move of the record."""
    r = report.result
    if r.decided and r.move is not None:
        return r.move
    return report.moves


def _board(
    report: GameReport, record: Record | None, ruleset: Ruleset | None, position: PositionOf
) -> tuple[str | None, str, list[_Move]]:
    """The picture at the decisive move, its caption, and the moves for the move list."""
    if record is None or record.unreadable:
        why = "the record could not be read" if report.unreadable else "the record is not at hand"
        return None, f"No board: {why}.", []
    n = decisive_move(report)
    # the move that ended the game in red; an open game's last move only in bold
    last = "decisive" if report.result.decided else "last"
    moves = [
        _Move(i, point_name(m.point), last if i == n else ("after" if i > n else ""))
        for i, m in enumerate(record.moves, 1)
    ]
    if ruleset is None:
        return None, f"No board: the ruleset {report.ruleset} is not at hand.", moves
    walks = _PICTURES.bound.walk_steps
    cuts = walks.cuts if walks is not None else 0
    try:
        _PICTURES.bound.next_record()  # (one more allowance of walk steps a page)
        svg = _picture(report, position(record, ruleset, n, _PICTURES.bound), ruleset, n)
    except ValueError as e:  # a board size no board can have
        return None, f"No board: {e}.", moves
    except Exception as e:  # a bug drawing one record must not lose the whole report
        return None, f"No board: drawing it failed ({type(e).__name__}: {e}).", moves
    if report.result.decided:
        caption = f"The board at move {n}, the decisive move: {result_words(report)}."
    else:
        caption = f"The board after the last move ({n}): {result_words(report)}."
    if walks is not None and walks.cuts > cuts:
        caption += (
            f" The opening protocol is not followed in this picture (the pictures of this report"
            f" took the {walks.limit} steps of opening walks they may take): only the recorded"
            " opening events are applied."
        )
    return svg, caption, moves


class _Pictures:
    """The double-three judgements the pictures of one report may still make to mark black's
    forbidden points: columns of black stones make every point a recursion down the columns
    (1,000 such records took 90 s); past it, points whose threes need judging are not marked
    (an overline or a double-four still is).  And the steps of opening-protocol walks their
    positions may still take (``walk_steps``): a page walks its record's protocol again, up to
    20,000 steps for a hostile one (5,000 pages of Super Sakata decisions spent 9 s on it);
    past it, a picture applies only the recorded events and seat rules, and its caption says
    so."""

    bound = Judgements(0)


_PICTURES = _Pictures()
#: Double-three judgements the pictures of one report may make together.
PICTURE_JUDGEMENTS = 16384
#: Steps of opening walks the pictures of one report may take: as many as a run of ``check``
#: may take for as many records (``ReadOptions.walk_steps_allowance`` and one
#: ``walk_steps_per_record`` more a page), so the pages never walk more than the run did.
PICTURE_WALK_STEPS = (ReadOptions.walk_steps_allowance, ReadOptions.walk_steps_per_record)


def _picture_bound() -> Judgements:
    steps, per_page = PICTURE_WALK_STEPS
    return Judgements(PICTURE_JUDGEMENTS, walk_steps=WalkSteps(steps, per=per_page))


def _picture(report: GameReport, pos: Position, ruleset: Ruleset, n: int) -> str:
    """The SVG of the board after move ``n``, marked with what the report found."""
    board = pos.board
    marks = Marks(numbers=dict(pos.numbers))
    if report.first_five is not None and report.first_five.move <= n:
        marks.five = tuple(_indices(board, report.first_five.stones))
    for foul in report.forbidden_moves:
        if foul.move <= n:
            for i in _indices(board, [foul.point]):
                marks.fouls[i] = tuple(foul.kinds)
    if not report.result.decided and pos.to_move == BLACK:
        judge = ruleset.judge()
        judge.forget()  # (what a picture spends depends on it alone)
        marks.forbidden = dict(judge.forbidden_points(board, BLACK, _PICTURES.bound))
    return board_svg(board, marks, title=f"{where(report)}: board at move {n}")


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
