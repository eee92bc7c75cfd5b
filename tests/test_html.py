"""The HTML report: pages, links, escaping, pictures; then the same pages in headless Chromium,
and an index of 100,000 records filtered there.

The browser tests load the written files in Debian's Chromium (``apt-get install -y chromium``)
and assert on what the browser made of them: the DOM it parsed and the pixels it drew, asked
over its DevTools pipe (one browser for the module, a tab a page).  They skip, saying why, when
Chromium (or Pillow, for the pixels) is not installed.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from renju_cli import api, limits
from renju_cli.coords import parse_point
from renju_cli.formats import unreadable
from renju_cli.formats.notation import parse_record
from renju_cli.output import html as html_report
from renju_cli.output.html import DATA, INDEX, HtmlReport, decisive_move
from renju_cli.output.picture import BOARD_COLOR, FORBIDDEN_COLOR, Geometry
from renju_cli.record import Record, SourceLocation
from renju_cli.referee import replay
from renju_cli.report import Finding, GameReport, Result
from renju_cli.ruleset import from_text, load

HOSTILE = '<script>alert("x")</script> & <b>bold</b>'

# (under pytest-xdist the tests run in one worker: the archive of 100,000 records is made once)
FIVE = "black h8 i9 h9 i10 h10 i11 h11 g8 h12"
DOUBLE_THREE = "white f8 a1 g8 a3 h9 a5 h10 a7 h8"
OPEN_GAME = "f8 a1 g8 a3 h9 a5 h10 a7"  # black to move; h8 would be a double-three


# -- a small DOM, from the standard library's HTML parser -----------------------------------------
VOID = {"meta", "link", "br", "img", "input", "hr", "col", "area", "base", "wbr", "source"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    text: str = ""

    def iter(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        out = []
        for child in self.children:
            if (tag is None or child.tag == tag) and (
                cls is None or cls in child.attrs.get("class", "").split()
            ):
                out.append(child)
            out.extend(child.iter(tag, cls))
        return out

    def all_text(self) -> str:
        return self.text + "".join(c.all_text() for c in self.children)

    def by_id(self, ident: str) -> Node:
        (node,) = [n for n in self.iter() if n.attrs.get("id") == ident]
        return node


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(Node("#text", {}, text=data))


def dom(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def write_report(reports: list[GameReport], records: Any, directory: str, **kw: Any) -> None:
    """The report, a page for every record unless told otherwise."""
    html_report.write_report(reports, records, directory, **{"boards": "all", **kw})


def index_records(directory: Path) -> list[list[Any]]:
    """The records of the index, as its script reads them."""
    text = (directory / DATA).read_text("utf-8")
    head = "window.RENJU_RECORDS = "
    assert text.startswith(head) and text.endswith(";\n")
    records: list[list[Any]] = json.loads(text[len(head) : -2])
    return records


# -- records to report on -------------------------------------------------------------------------
def batch() -> tuple[list[GameReport], list[Record]]:
    """A black five, a forbidden double-three, an open game, a hostile one and an unreadable."""
    records = [
        parse_record(FIVE, "games/five.txt"),
        parse_record(DOUBLE_THREE, "games/double-three.txt"),
        parse_record(OPEN_GAME, "games/open.txt"),
    ]
    hostile = parse_record("h8 h9 h10", f"games/{HOSTILE}.txt")
    hostile.metadata = {"event": HOSTILE, HOSTILE: "key"}
    hostile.notes = [HOSTILE]
    records.append(hostile)
    records.append(unreadable("games/missing.txt", f"cannot open: {HOSTILE}"))
    ruleset = load("renju")
    return [replay(r, ruleset) for r in records], records


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("html") / "report"
    reports, records = batch()
    write_report(reports, records, str(directory))
    return directory


def test_an_index_and_a_page_per_record(report_dir: Path) -> None:
    assert sorted(p.name for p in report_dir.iterdir()) == [
        "index.html",
        "index.js",
        "record-00001.html",
        "record-00002.html",
        "record-00003.html",
        "record-00004.html",
        "record-00005.html",
    ]
    records = index_records(report_dir)
    assert [r[0] for r in records] == [1, 2, 3, 4, 5]
    assert [r[8] for r in records] == ["clean", "error", "clean", "clean", "error"]
    assert [r[9] for r in records] == [f"record-0000{n}.html" for n in range(1, 6)]
    second = records[1]
    assert second[5].startswith("white wins by forbidden at move 9 (h8)")
    assert second[6] == "white/forbidden"
    ((severity, code, move, message),) = second[10]
    assert (severity, code, move) == ("error", "forbidden-move", 9)
    assert "black h8 makes a double-three" in message
    # the counts of the run, each a link that filters the list
    index = dom((report_dir / INDEX).read_text("utf-8"))
    links = [a.attrs["href"] for a in index.by_id("counts-findings").iter("a")]
    assert links == ["#code=forbidden-move", "#code=parse-error"]
    assert "#outcome=black%2Ffive" in [
        a.attrs["href"] for a in index.by_id("counts-results").iter("a")
    ]


def test_pages_only_for_records_with_findings_by_default(tmp_path: Path) -> None:
    reports, records = batch()
    done = html_report.write_report(reports, records, str(tmp_path))
    pages = sorted(p.name for p in tmp_path.glob("record-*.html"))
    assert pages == ["record-00002.html", "record-00005.html"]  # the two with findings
    assert [r[9] for r in index_records(tmp_path)] == ["", pages[0], "", "", pages[1]]
    assert done.pages == 2
    assert done.size == sum(p.stat().st_size for p in tmp_path.iterdir())
    # the pages link to each other, past the records without one
    second = dom((tmp_path / pages[0]).read_text("utf-8"))
    assert [a.attrs["href"] for a in second.iter("a")] == ["index.html", pages[1]]


def test_every_link_leads_to_a_written_page(report_dir: Path) -> None:
    for page in report_dir.glob("*.html"):
        for a in dom(page.read_text("utf-8")).iter("a"):
            if not a.attrs["href"].startswith("#"):  # (a filter of the index)
                assert (report_dir / a.attrs["href"]).is_file(), (page.name, a.attrs["href"])
    for record in index_records(report_dir):
        assert (report_dir / record[9]).is_file()
    first = dom((report_dir / "record-00001.html").read_text("utf-8"))
    assert [a.attrs.get("rel") for a in first.iter("a")] == ["index", "next"]


def test_pages_are_self_contained(report_dir: Path) -> None:
    for page in report_dir.glob("record-*.html"):
        html = page.read_text("utf-8")
        tree = dom(html)
        assert not tree.iter("script") and not tree.iter("link") and not tree.iter("img")
        assert not any("src" in n.attrs for n in tree.iter())
        urls = set(re.findall(r"https?://[^\s\"'<>]+", html))
        assert urls <= {"http://www.w3.org/2000/svg"}, page.name
    # the index: its own script and its records beside it, nothing from elsewhere
    html = (report_dir / INDEX).read_text("utf-8")
    tree = dom(html)
    assert [s.attrs.get("src") for s in tree.iter("script")] == [DATA, None]
    assert not tree.iter("link") and not tree.iter("img")
    assert not re.findall(r"https?://", html)


def test_everything_from_a_record_is_escaped(report_dir: Path) -> None:
    # the index holds no text from a record (the list is data, set as text by its script)
    assert HOSTILE not in (report_dir / INDEX).read_text("utf-8")
    assert HOSTILE in index_records(report_dir)[3][1]
    for name in ("record-00004.html", "record-00005.html"):
        html = (report_dir / name).read_text("utf-8")
        assert "<script>" not in html and "<b>bold" not in html, name
        assert "&lt;script&gt;" in html, name
    page = dom((report_dir / "record-00004.html").read_text("utf-8"))
    assert HOSTILE in page.by_id("metadata").all_text()
    assert HOSTILE in page.iter("h1")[0].all_text()


def test_the_board_at_the_decisive_move(report_dir: Path) -> None:
    five = dom((report_dir / "record-00001.html").read_text("utf-8"))
    figure = five.by_id("board")
    (svg,) = figure.iter("svg")
    assert len(svg.iter("g", "stone")) == 9
    (ring,) = svg.iter("g", "five")
    assert ring.attrs["data-points"] == "h8 h9 h10 h11 h12"
    assert "the decisive move: black wins by five" in figure.iter("figcaption")[0].all_text()

    foul = dom((report_dir / "record-00002.html").read_text("utf-8")).by_id("board")
    (mark,) = foul.iter("g", "foul")
    assert (mark.attrs["data-point"], mark.attrs["data-kinds"]) == ("h8", "double-three")
    assert not foul.iter("g", "forbidden")  # the game is over: no forbidden points drawn

    # an open game, black to move: black's forbidden points are shown
    open_game = dom((report_dir / "record-00003.html").read_text("utf-8")).by_id("board")
    assert [g.attrs["data-point"] for g in open_game.iter("g", "forbidden")] == ["h8"]

    missing = dom((report_dir / "record-00005.html").read_text("utf-8"))
    assert "could not be read" in missing.by_id("no-board").all_text()


def test_the_decisive_move_is_marked_in_the_move_list(report_dir: Path) -> None:
    page = dom((report_dir / "record-00002.html").read_text("utf-8"))
    (moves,) = page.iter("ol", "moves")
    items = moves.iter("li")
    assert [li.all_text() for li in items][-1] == "h8"
    assert items[-1].attrs["class"] == "decisive" and items[-1].attrs["value"] == "9"


def test_a_record_not_at_hand_gets_a_page_without_a_board(tmp_path: Path) -> None:
    # the report reads no file: the caller gives the records it has
    lost = replay(parse_record(FIVE, "<stdin>"), load("renju"))
    write_report([lost], [None], str(tmp_path / "stdin"))
    page = dom((tmp_path / "stdin" / "record-00001.html").read_text("utf-8"))
    assert "not at hand" in page.by_id("no-board").all_text()


def test_a_ruleset_from_a_file_draws_its_own_board(tmp_path: Path) -> None:
    small = from_text("extends: freestyle\nname: tiny\nboard: {size: 9}")
    record = parse_record("e5 d4 e6 d5 e7 d6 e8 d7 e9", "tiny.txt")
    report = replay(record, small)
    assert report.result.winner == "black"
    write_report([report], [record], str(tmp_path), rules=small)
    (svg,) = dom((tmp_path / "record-00001.html").read_text("utf-8")).iter("svg")
    assert svg.attrs["width"] == str(Geometry(9, 9).board_px[0])


def test_a_record_no_board_can_hold_gets_a_page_without_one(tmp_path: Path) -> None:
    from renju_cli.batch import Settings, judge_one

    record = parse_record("h8 h9", "huge.txt")
    record.width = 40
    report = judge_one(record, Settings(load("renju"))).report
    assert [f.code for f in report.findings] == ["internal-error"]
    write_report([report], [record], str(tmp_path))
    page = dom((tmp_path / "record-00001.html").read_text("utf-8"))
    assert "board sides must be 5 to 26" in page.by_id("no-board").all_text()
    assert [li.all_text() for li in page.iter("ol", "moves")[0].iter("li")] == ["h8", "h9"]


def test_records_and_reports_must_pair_up(tmp_path: Path) -> None:
    reports, records = batch()
    with pytest.raises(ValueError, match="5 reports but 4 records"):
        write_report(reports, records[:4], str(tmp_path))


def test_decisive_move() -> None:
    reports, _ = batch()
    assert [decisive_move(r) for r in reports] == [9, 9, 8, 3, 0]


def test_source_locations_are_matched_exactly(tmp_path: Path) -> None:
    # two records of one file: each page shows its own record
    source = tmp_path / "two.txt"
    source.write_text("h8 h9\nh8 h9 h10\n")
    records = list(api.read_path(str(source)))
    reports = [api.judge_record(r) for r in records]
    assert [r.source for r in reports] == [
        SourceLocation(str(source), 0, 1),
        SourceLocation(str(source), 1, 2),
    ]
    write_report(reports, records, str(tmp_path / "out"))
    counts = [
        len(dom((tmp_path / "out" / f"record-0000{n}.html").read_text("utf-8")).iter("g", "stone"))
        for n in (1, 2)
    ]
    assert counts == [2, 3]


# -- in a real browser ----------------------------------------------------------------------------
def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path is not None:
            return path
    pytest.skip("Chromium is not installed (Debian: apt-get install -y chromium)")


class Browser:
    """One headless Chromium for the module, driven over its DevTools pipe
    (``--remote-debugging-pipe``: JSON messages ended by a NUL byte, commands on its fd 3,
    answers and events on its fd 4).  Each page opens in a tab of its own and is read once
    loaded, as ``--dump-dom`` and ``--screenshot`` read it."""

    #: Seconds an answer may take: a guard against a hung browser, not a speed check.
    TIMEOUT = 180

    def __init__(self, profile: Path) -> None:
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()

        def as_fds_3_and_4() -> None:
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self._log = open(f"{profile}.log", "w+b")  # noqa: SIM115 - the browser holds it
        self.process = subprocess.Popen(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1",
             "--window-size=1000,1200", f"--user-data-dir={profile}",
             "--remote-debugging-pipe", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=self._log, preexec_fn=as_fds_3_and_4,
            pass_fds=(3, 4),
        )  # fmt: skip
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._sent = 0

    def _send(self, method: str, session: str | None = None, **params: Any) -> int:
        self._sent += 1
        message: dict[str, Any] = {"id": self._sent, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        return self._sent

    def _receive(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.TIMEOUT
        while b"\0" not in self._buffer:
            left = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._answers], [], [], left)
            chunk = os.read(self._answers, 1 << 20) if ready else b""
            if not chunk:
                self._log.seek(0)
                raise AssertionError(f"the browser stopped answering: {self._log.read()[-2000:]!r}")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        answer: dict[str, Any] = json.loads(message)
        return answer

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        sent = self._send(method, session, **params)
        while True:
            answer = self._receive()
            if answer.get("id") == sent:
                assert "error" not in answer, (method, answer)
                result: dict[str, Any] = answer["result"]
                return result

    def _loaded(self, url: str) -> tuple[str, str]:
        """A new tab at ``url``, once its load event fired: its target and session."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session)
        self.call("Page.navigate", session, url=url)
        while not (
            (answer := self._receive()).get("method") == "Page.loadEventFired"
            and answer.get("sessionId") == session
        ):
            pass
        return target, session

    def dom(self, url: str) -> str:
        """The page's DOM once loaded (what ``--dump-dom`` prints)."""
        target, session = self._loaded(url)
        html = "document.documentElement.outerHTML"
        got = self.call("Runtime.evaluate", session, expression=html, returnByValue=True)
        self.call("Target.closeTarget", targetId=target)
        text: str = got["result"]["value"]
        return text

    def screenshot(self, url: str) -> bytes:
        """The page once loaded, as a PNG of the 1000x1200 window."""
        target, session = self._loaded(url)
        got = self.call("Page.captureScreenshot", session, format="png")
        self.call("Target.closeTarget", targetId=target)
        return base64.b64decode(got["data"])

    def close(self) -> int:
        """End the browser; its exit code."""
        try:
            self._send("Browser.close")
            return self.process.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            return self.process.wait()
        finally:
            os.close(self._commands)
            os.close(self._answers)
            self._log.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Headless Chromium, started once for the module's pages."""
    started = Browser(tmp_path_factory.mktemp("browser") / "profile")
    yield started
    assert started.close() == 0


def browse(browser: Browser, page: Path) -> Node:
    """The DOM Chromium made of a local page."""
    return dom(browser.dom(page.resolve().as_uri()))


def test_index_in_a_browser(report_dir: Path, browser: Browser) -> None:
    page = browse(browser, report_dir / INDEX)
    rows = page.by_id("records").iter("tbody")[0].iter("tr")
    assert len(rows) == 5
    assert [r.attrs["data-findings"] for r in rows] == ["0", "1", "0", "0", "1"]
    codes = [li.attrs["data-code"] for li in page.iter("li", "finding")]
    assert codes == ["forbidden-move", "parse-error"]
    # the hostile path and message are text in the browser's DOM, never elements
    table = page.by_id("records")
    assert not table.iter("script") and not page.iter("b")
    assert len(page.iter("script")) == 2  # the index's own
    assert HOSTILE in rows[3].all_text() and HOSTILE in rows[4].all_text()


def test_record_page_in_a_browser(report_dir: Path, browser: Browser) -> None:
    page = browse(browser, report_dir / "record-00002.html")
    (svg,) = page.by_id("board").iter("svg")
    stones = {g.attrs["data-point"]: g.attrs["data-move"] for g in svg.iter("g", "stone")}
    expected = DOUBLE_THREE.split()[1:]
    assert stones == {p: str(n) for n, p in enumerate(expected, 1)}
    (foul,) = svg.iter("g", "foul")
    assert foul.attrs["data-kinds"] == "double-three"
    assert "3×3" in foul.all_text()


def test_record_page_pixels_in_a_browser(report_dir: Path, browser: Browser) -> None:
    """The stones are drawn where they are: dark at black stones, light at white stones,
    the board colour at empty points, red around the foul."""
    image_mod = pytest.importorskip("PIL.Image", reason="reading the screenshot needs Pillow")
    shot = browser.screenshot((report_dir / "record-00002.html").resolve().as_uri())
    image = image_mod.open(io.BytesIO(shot)).convert("RGB")
    board = tuple(int(BOARD_COLOR[i : i + 2], 16) for i in (1, 3, 5))
    red = tuple(int(FORBIDDEN_COLOR[i : i + 2], 16) for i in (1, 3, 5))

    def near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
        return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))

    # the board's top-left corner: the first pixel of the board colour, row by row
    width, height = image.size
    pixels = image.load()
    assert pixels is not None
    origin = next(
        (x, y)
        for y in range(height)
        for x in range(width)
        if near(pixels[x, y], board, tolerance=2)
    )
    geo = Geometry(15, 15)

    def at(point: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, ...]:
        cx, cy = geo.center(parse_point(point))
        return tuple(pixels[round(origin[0] + cx + dx), round(origin[1] + cy + dy)])

    offset = geo.cell * 0.22  # beside the move number written on the stone
    for name in ("f8", "g8", "h9", "h10", "h8"):
        assert max(at(name, -offset, offset)) < 80, name
    for name in ("a1", "a3", "a5", "a7"):
        assert min(at(name, offset, offset)) > 200, name
    for name in ("o15", "k4", "c12"):
        assert near(at(name, 4, 4), board), name
    assert near(at("h8", 0, geo.cell * 0.5), red, tolerance=40)  # the foul's ring


def test_the_pages_are_bounded_and_the_index_lists_every_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # at most MAX_PAGES record pages, whatever the number of records; the index lists every
    # record, and says how many more would have a page
    from helpers import run_cli

    monkeypatch.setattr(html_report, "MAX_PAGES", 3)
    src = tmp_path / "games.txt"
    src.write_text("".join(f"h8 h9 {p}\n" for p in ("i10", "i8", "g10", "g8", "j10", "j8", "k8")))
    out = tmp_path / "html"
    code, _, err = run_cli(
        capsys, "check", str(src), "--html", str(out), "--format", "jsonl", "--html-boards", "all"
    )
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "index.html",
        "index.js",
        "record-00001.html",
        "record-00002.html",
        "record-00003.html",
    ]
    index = (out / "index.html").read_text()
    assert "7 record(s): 7 judged" in index
    assert [r[0] for r in index_records(out)] == [1, 2, 3, 4, 5, 6, 7]
    assert [r[9] for r in index_records(out)][3:] == ["", "", "", ""]
    assert re.search(r"3 record page\(s\) with the board:\s+every record;\s+4 more", index)
    # what was written, said on standard error
    size = sum(p.stat().st_size for p in out.iterdir())
    assert (
        err == f"renju: HTML report in {out}: an index and 3 record page(s), {size / 1e3:.1f} kB\n"
    )
    # by default, pages only for records with findings: here none
    code, _, _ = run_cli(capsys, "check", str(src), "--html", str(tmp_path / "f"), "-f", "jsonl")
    assert sorted(p.name for p in (tmp_path / "f").iterdir()) == ["index.html", "index.js"]


def test_pictures_mark_forbidden_points_within_one_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # columns a, b, i, j of black stones (15x15); white plays, black is to move: every point
    # beside them is a double-three recursing down the columns; the pictures of one report
    # judge at most PICTURE_JUDGEMENTS points together
    from renju_cli.formats import read_stream

    game = b"(;SZ[15]AB[aa:ao][ba:bo][ia:io][ja:jo]AW[ma][mb];W[oo])\n"
    records = list(read_stream(io.BytesIO(game * 3), "columns.sgf"))
    ruleset = load("renju")
    reports = [replay(r, ruleset) for r in records]
    assert not reports[0].result.decided

    def forbidden_marks(directory: Path) -> list[int]:
        pages = sorted(directory.glob("record-*.html"))
        return [p.read_text().count('class="forbidden"') for p in pages]

    write_report(reports, records, str(tmp_path / "full"))
    full = forbidden_marks(tmp_path / "full")
    assert full[0] > 0 and full == [full[0]] * 3
    monkeypatch.setattr(limits, "PICTURE_JUDGEMENTS", 40)
    html = HtmlReport(str(tmp_path / "bounded"), boards="all")
    for report, record in zip(reports, records, strict=True):
        html.add(report, record)
    html.finish()
    bounded = forbidden_marks(tmp_path / "bounded")
    assert html.bound.left == 0
    assert bounded[-1] < full[-1]  # the last pictures mark what the bound let them judge


def test_pictures_walk_opening_protocols_within_one_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Under RIF, stones moved by the opening (i10-i9, g7-g6) are moved in every picture,
    # whether the page walks the protocol or not; past the pictures' bound on walk steps a
    # page walks none and its caption says so (the pages walk no more than the run walked).
    # The board at move 9, as drawn:
    #
    #        g   h   i   j   k
    #   10   .   .   .   B   .        i10 moved to i9 (move 6)
    #    9   .   W   B   .   .        g7 moved to g6 (move 7)
    #    8   .   B   .   .   .
    #    7   .   .   .   .   W
    #    6   W   .   .   .   .        (and a1, black, move 9)
    rif = load("renju-rif")
    records = [parse_record("h8 h9 i10 g7 j10 i10-i9 g7-g6 k7 a1") for _ in range(4)]
    for n, record in enumerate(records):
        record.source = SourceLocation("moved.txt", n)
    reports = [replay(r, rif) for r in records]
    note = "The opening protocol is not followed in this picture"

    def pages(directory: Path) -> tuple[list[str], HtmlReport]:
        html = HtmlReport(str(directory), rules=rif, boards="all")
        for report, record in zip(reports, records, strict=True):
            html.add(report, record)
        html.finish()
        return [p.read_text() for p in sorted(directory.glob("record-*.html"))], html

    def stones(page: str) -> set[tuple[str, str]]:
        # the stones a picture draws: colour and point
        return set(re.findall(r'class="stone (black|white)" data-point="([a-o]\d+)"', page))

    walked, html = pages(tmp_path / "walked")
    assert not any(note in p for p in walked)
    steps = html.bound.walk_steps
    assert steps is not None and 0 < steps.limit - steps.left <= steps.limit
    monkeypatch.setattr(limits, "WALK_STEPS_ALLOWANCE", 0)
    monkeypatch.setattr(limits, "WALK_STEPS_PER_RECORD", 0)
    cut, _ = pages(tmp_path / "cut")
    assert all(note in p for p in cut)
    assert [stones(p) for p in cut] == [stones(p) for p in walked]
    assert stones(walked[0]) == {
        ("black", "h8"), ("white", "h9"), ("black", "i9"), ("white", "g6"),
        ("black", "j10"), ("white", "k7"), ("black", "a1"),
    }  # fmt: skip


def test_a_page_that_cannot_be_written_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a full disk in the middle of a page: no half-written temporary file beside the pages
    import builtins
    import errno

    class Full:
        def __init__(self, path: str, *args: Any, **kwargs: Any) -> None:
            self.file = builtins.open(path, *args, **kwargs)  # noqa: SIM115 - closed on exit

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def write(self, text: str) -> int:
            self.file.write(text[:10])
            self.file.flush()  # a part is on the disk, as when it fills
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(html_report, "open", Full, raising=False)
    record = parse_record(FIVE)
    with pytest.raises(OSError, match="No space left"):
        write_report([replay(record, load("renju"))], [record], str(tmp_path))
    assert list(tmp_path.iterdir()) == []


# -- the end of a game, and an overline ------------------------------------------------------------
AFTER_THE_END = "black h8 i9 h9 i10 h10 i11 h11 g8 h12 j12 k13 h9"  # 10-12 after the five
WHITE_OVERLINE = "white h8 c7 a15 d7 o15 e7 a1 g7 o1 h7 h15 f7"  # f7 makes six for white


def test_moves_after_the_end_are_drawn_faded_and_listed(tmp_path: Path) -> None:
    record = parse_record(AFTER_THE_END, "after.txt")
    report = replay(record, load("renju"))
    write_report([report], [record], str(tmp_path))
    page = dom((tmp_path / "record-00001.html").read_text("utf-8"))
    figure = page.by_id("board")
    (svg,) = figure.iter("svg")
    stones = {g.attrs["data-point"]: g for g in svg.iter("g", "stone")}
    after = {p for p, g in stones.items() if "after" in g.attrs["class"].split()}
    assert after == {"j12", "k13"}  # move 12 (h9) is on a taken point: not on the board
    assert stones["j12"].attrs["data-move"] == "10"
    assert len(stones) == 11
    assert not svg.iter("g", "forbidden")  # the game is over: no point is forbidden
    (ring,) = svg.iter("g", "five")
    assert ring.attrs["data-points"] == "h8 h9 h10 h11 h12"
    caption = figure.iter("figcaption")[0].all_text()
    assert "the decisive move: black wins by five at move 9" in caption
    assert "Played after the end (faded): 10 j12, 11 k13, 12 h9 (not on the board)." in caption
    items = page.iter("ol", "moves")[0].iter("li")
    assert [li.attrs["class"] for li in items][8:] == ["decisive", "after", "after", "after"]


def test_an_overline_win_is_called_an_overline(tmp_path: Path) -> None:
    record = parse_record(WHITE_OVERLINE, "overline.txt")
    report = replay(record, load("renju"))
    assert (report.result.winner, report.result.reason) == ("white", "overline")
    write_report([report], [record], str(tmp_path))
    page = dom((tmp_path / "record-00001.html").read_text("utf-8"))
    assert [dt.all_text() for dt in page.iter("dt")][-1] == "overline"
    assert "c7-d7-e7-f7-g7-h7" in page.by_id("row").all_text()
    (ring,) = page.by_id("board").iter("g", "five")
    assert ring.attrs["class"] == "five overline"
    assert ring.attrs["data-points"] == "c7 d7 e7 f7 g7 h7"
    # an exact five is still a five
    five = parse_record(FIVE, "five.txt")
    write_report([replay(five, load("renju"))], [five], str(tmp_path / "five"))
    page = dom((tmp_path / "five" / "record-00001.html").read_text("utf-8"))
    assert "first five" in [dt.all_text() for dt in page.iter("dt")]


# -- an archive's index in a browser ---------------------------------------------------------------
CODES = ("forbidden-move", "occupied", "move-after-end", "result-mismatch")
OPENINGS = ("D4", "I6", "")
OUTCOMES = (("black", "five"), ("white", "forbidden"), (None, None), ("white", "five"))


def synthetic(n: int) -> GameReport:
    """Record ``n`` of a made-up archive: every 7th has a finding (its code by ``n``)."""
    winner, reason = OUTCOMES[n % 4]
    findings = []
    if n % 7 == 0:
        code = CODES[(n // 7) % 4]
        findings.append(Finding(code, f"move {n % 60 + 1} is wrong <b>{n}</b>", "error", n % 60))
    opening = OPENINGS[n % 3]
    return GameReport(
        source=SourceLocation(f"archive/part-{n // 1000:03d}.txt", n % 1000, n % 1000 + 1),
        ruleset="renju",
        moves=n % 60 + 1,
        opening={"id": opening, "name": "x"} if opening else None,
        result=Result(winner, reason, n % 60 + 1 if winner else None, None),
        findings=findings,
    )


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[GameReport]]:
    """The index of 100,000 records (no record at hand, so the 50 pages have no board)."""
    chromium()  # (skips before the archive is made when there is no browser to open it)
    directory = tmp_path_factory.mktemp("archive")
    reports = [synthetic(n) for n in range(100_000)]
    html_report.write_report(reports, [None] * len(reports), str(directory), max_pages=50)
    return directory, reports


def shown_rows(page: Node) -> list[Node]:
    return page.by_id("records").iter("tbody")[0].iter("tr")


def test_an_archive_of_100000_records_opens_in_a_browser(
    archive: tuple[Path, list[GameReport]], browser: Browser
) -> None:
    directory, reports = archive
    assert sorted(p.name for p in directory.iterdir())[:3] == [
        "index.html",
        "index.js",
        "record-00001.html",
    ]
    assert len(list(directory.glob("record-*.html"))) == 50
    size = sum(p.stat().st_size for p in directory.iterdir())
    assert size < 30_000_000  # some 200 bytes a record, and 50 small pages
    page = browse(browser, directory / INDEX)
    rows = shown_rows(page)
    assert [r.attrs["data-record"] for r in rows] == [str(n) for n in range(1, 101)]
    assert page.by_id("matching").all_text() == "100000 of 100000 record(s) match; showing 1-100."
    assert page.by_id("page-of").all_text() == "page 1 of 1000"
    # the counts of the whole run
    counts = {
        tr.iter("a")[0].all_text(): tr.iter("td")[1].all_text()
        for tr in page.by_id("counts-findings").iter("tr")
        if tr.iter("a")
    }
    assert counts == {
        code: str(sum(1 for r in reports if r.findings and r.findings[0].code == code))
        for code in sorted(CODES)
    }
    assert not page.iter("b")  # a message's markup is text


def test_a_filter_of_an_archive_works_in_a_browser(
    archive: tuple[Path, list[GameReport]], browser: Browser
) -> None:
    directory, reports = archive
    wanted = [
        n + 1
        for n, r in enumerate(reports)
        if r.findings and r.findings[0].code == "occupied" and r.opening and r.opening["id"] == "I6"
    ]
    url = f"{(directory / INDEX).resolve().as_uri()}#code=occupied&opening=I6&page=2"
    page = dom(browser.dom(url))
    rows = shown_rows(page)
    assert [int(r.attrs["data-record"]) for r in rows] == wanted[100:200]
    assert page.by_id("matching").all_text() == (
        f"{len(wanted)} of 100000 record(s) match; showing 101-200."
    )
    assert all(li.attrs["data-code"] == "occupied" for li in page.iter("li", "finding"))
    # the form shows the filter it applies
    selects = {s.attrs["name"]: s for s in page.by_id("filter").iter("select")}
    assert selects["code"].attrs.get("name") == "code"
