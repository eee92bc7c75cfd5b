"""The index of the HTML report: counts, and a filter over every record of the run.

``index.html`` holds the counts of the run (by finding code, result and opening, each a link
that filters the list) and a form; the records are a JSON array in ``index.js``, loaded by a
plain ``<script src>`` (a browser reads it from a local directory, where it refuses to fetch a
``.json`` file), and the page's own script shows the records that match the filter, a page of
:data:`ROWS` at a time.  The filter lives in the address (``index.html#code=forbidden-move``),
so that a filtered list can be bookmarked or linked.  Every text from a record is set as text
(``textContent``), never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from renju_cli.output.json import dumps
from renju_cli.output.text import result_words, where
from renju_cli.report import GameReport

INDEX = "index.html"
DATA = "index.js"
#: Records shown at a time.
ROWS = 100

#: The fields of a record in ``index.js``, in order.
FIELDS = (
    "number",
    "where",
    "format",
    "ruleset",
    "moves",
    "result",
    "outcome",
    "opening",
    "worst",
    "page",
    "findings",
)


def row(number: int, report: GameReport, page: str | None) -> list[Any]:
    """A record of the index: its fields in the order of :data:`FIELDS`; each finding is
    ``[severity, code, move, message]``."""
    r = report.result
    opening = report.opening.get("id") if report.opening else None
    return [
        number,
        where(report),
        report.format,
        report.ruleset,
        report.moves,
        result_words(report),
        f"{r.winner}/{r.reason}" if r.winner else "undecided",
        str(opening) if opening else "",
        report.worst() or "clean",
        page or "",
        [[f.severity, f.code, f.move, f.message] for f in report.findings],
    ]


def data_chunks(rows: list[list[Any]]) -> Iterator[str]:
    """``index.js``: the records, one a line."""
    yield "window.RENJU_RECORDS = [\n"
    for n, r in enumerate(rows):
        yield ("," if n else "") + dumps(r) + "\n"
    yield "];\n"


INDEX_TEMPLATE = """{% extends "base" %}
{% block body %}
<h1>renju check report</h1>
<p id="summary">{{ summary.records }} record(s): {{ summary.judged }} judged,
{{ summary.unreadable }} unreadable, {{ summary.with_findings }} with findings.
{% if summary.findings %}Findings: {% for code, n in summary.findings.items() -%}
<code>{{ code }}</code> {{ n }}{{ ", " if not loop.last }}{% endfor %}.{% endif %}</p>
<p id="pages">{{ pages }} record page(s) with the board:
{{ "every record" if boards == "all" else "records with findings" }}
{%- if unpaged %}; {{ unpaged }} more would have one, past the {{ max_pages }} pages a report
writes (the text and JSON reports list every record){% endif %}.</p>
<section id="counts">
{% for title, key, field in tables %}{% if summary[key] %}
<table class="counts" id="counts-{{ key }}">
<thead><tr><th>{{ title }}</th><th>records</th></tr></thead>
<tbody>
{% for value, n in summary[key].items() %}<tr><td><a href="#{{ {field: value} | urlencode }}">
{{- value }}</a></td><td>{{ n }}</td></tr>
{% endfor %}</tbody>
</table>
{% endif %}{% endfor %}
</section>
<form id="filter">
{% for label, field, values in selects %}<label>{{ label }}
<select name="{{ field }}"><option value="">any</option>
{% for value in values %}<option value="{{ value }}">{{ value }}</option>
{% endfor %}</select></label>
{% endfor %}<label>record <input name="q" type="search" placeholder="part of the path"></label>
<button type="button" id="clear">clear</button>
</form>
<p id="matching">{{ summary.records }} record(s).</p>
<nav id="pager"><button type="button" id="prev">previous</button>
<span id="page-of"></span> <button type="button" id="next">next</button></nav>
<table id="records">
<thead><tr><th>#</th><th>record</th><th>format</th><th>ruleset</th><th>moves</th>
<th>result</th><th>findings</th></tr></thead>
<tbody></tbody>
</table>
<noscript><p>The list of records needs JavaScript; the counts above are complete, and the
text and JSON reports list every record.</p></noscript>
<script src="{{ data }}"></script>
<script>{{ script }}</script>
{% endblock %}
"""

#: The index's own script: no text from a record is ever parsed as markup.
SCRIPT = """
(function () {
  "use strict";
  var ROWS = %(rows)d;
  var F = %(fields)s;
  var records = window.RENJU_RECORDS || [];
  var form = document.getElementById("filter");
  var body = document.querySelector("#records tbody");
  var names = ["code", "opening", "outcome", "worst", "q"];

  function wanted() {
    var p = new URLSearchParams(location.hash.slice(1));
    var s = {page: Math.max(1, parseInt(p.get("page") || "1", 10) || 1)};
    names.forEach(function (n) { s[n] = p.get(n) || ""; });
    return s;
  }

  function matches(r, s) {
    if (s.code && !r[F.findings].some(function (f) { return f[1] === s.code; })) return false;
    if (s.opening && r[F.opening] !== s.opening) return false;
    if (s.outcome && r[F.outcome] !== s.outcome) return false;
    if (s.worst && r[F.worst] !== s.worst) return false;
    if (s.q && r[F.where].toLowerCase().indexOf(s.q.toLowerCase()) < 0) return false;
    return true;
  }

  function cell(tr, text) {
    var td = document.createElement("td");
    if (text !== null) td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function findings(list) {
    if (!list.length) {
      var none = document.createElement("span");
      none.className = "muted";
      none.textContent = "none";
      return none;
    }
    var ul = document.createElement("ul");
    ul.className = "findings";
    list.forEach(function (f) {
      var li = document.createElement("li");
      li.className = "finding";
      li.dataset.code = f[1];
      var sev = document.createElement("span");
      sev.className = "sev " + f[0];
      sev.textContent = f[0];
      var code = document.createElement("code");
      code.textContent = f[1];
      li.appendChild(sev);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(code);
      var at = f[2] === null ? "" : " move " + f[2];
      li.appendChild(document.createTextNode(at + ": " + f[3]));
      ul.appendChild(li);
    });
    return ul;
  }

  function line(r) {
    var tr = document.createElement("tr");
    tr.className = r[F.worst];
    tr.dataset.record = r[F.number];
    tr.dataset.findings = r[F.findings].length;
    cell(tr, String(r[F.number]));
    var where = cell(tr, null);
    if (r[F.page]) {
      var a = document.createElement("a");
      a.href = r[F.page];
      a.textContent = r[F.where];
      where.appendChild(a);
    } else {
      where.textContent = r[F.where];
    }
    cell(tr, r[F.format]);
    cell(tr, r[F.ruleset]);
    cell(tr, String(r[F.moves]));
    cell(tr, r[F.result]);
    cell(tr, null).appendChild(findings(r[F.findings]));
    return tr;
  }

  function show() {
    var s = wanted();
    names.forEach(function (n) { form.elements[n].value = s[n]; });
    var found = records.filter(function (r) { return matches(r, s); });
    var pages = Math.max(1, Math.ceil(found.length / ROWS));
    var page = Math.min(s.page, pages);
    var first = (page - 1) * ROWS;
    var part = document.createDocumentFragment();
    found.slice(first, first + ROWS).forEach(function (r) { part.appendChild(line(r)); });
    body.replaceChildren(part);
    document.getElementById("matching").textContent = found.length + " of " +
      records.length + " record(s) match" + (found.length ? "; showing " + (first + 1) +
      "-" + Math.min(first + ROWS, found.length) + "." : ".");
    document.getElementById("page-of").textContent = "page " + page + " of " + pages;
    document.getElementById("prev").disabled = page <= 1;
    document.getElementById("next").disabled = page >= pages;
    document.body.dataset.page = page;
  }

  function go(changes) {
    var s = wanted();
    Object.keys(changes).forEach(function (k) { s[k] = changes[k]; });
    var p = new URLSearchParams();
    names.concat(["page"]).forEach(function (n) { if (s[n] && s[n] !== 1) p.set(n, s[n]); });
    location.hash = p.toString();
  }

  form.addEventListener("change", function () {
    var changes = {page: 1};
    names.forEach(function (n) { changes[n] = form.elements[n].value; });
    go(changes);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  document.getElementById("clear").addEventListener("click", function () {
    location.hash = "";
  });
  document.getElementById("prev").addEventListener("click", function () {
    go({page: wanted().page - 1});
  });
  document.getElementById("next").addEventListener("click", function () {
    go({page: wanted().page + 1});
  });
  window.addEventListener("hashchange", show);
  show();
})();
"""


def script() -> str:
    """The index's script, with the page size and the field numbers of the records."""
    fields = dumps({name: n for n, name in enumerate(FIELDS)})
    return SCRIPT % {"rows": ROWS, "fields": fields}


#: The count tables of the index: title, summary key, the filter field a value sets.
TABLES = (
    ("finding", "findings", "code"),
    ("result", "results", "outcome"),
    ("opening", "openings", "opening"),
)


def context(summary: dict[str, Any]) -> dict[str, Any]:
    """What the index template needs besides the summary and the page counts."""
    return {
        "tables": TABLES,
        "selects": (
            ("finding", "code", list(summary["findings"])),
            ("result", "outcome", list(summary["results"])),
            ("opening", "opening", list(summary["openings"])),
            ("worst", "worst", ["error", "warning", "info", "clean"]),
        ),
        "data": DATA,
    }
