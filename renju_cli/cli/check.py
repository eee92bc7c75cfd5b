"""``renju check``: replay records and report, for people, machines and CI.

The batch itself (reading, parallel judging, order, duplicates, filters, summary) is
``renju_cli.batch.Batch``; this module turns options into one, renders what it yields and
picks the exit code.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import click

from renju_cli.cli.app import (
    CONTEXT,
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    EXIT_USAGE,
    RULES_HELP,
    UsageProblem,
    cli,
    input_format_option,
    limit_option,
    load_rules,
    read_options,
    shown,
)
from renju_cli.cli.output import written
from renju_cli.cli.records import Selection, no_record, record_option

#: ``--format`` values (``renju_cli.output.RENDERERS``; listed here to keep start-up light).
FORMATS = ("text", "json", "jsonl", "github", "junit", "sarif")
FAIL_ON = ("error", "warning", "info", "never")


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    """Finding codes from repeated and comma-separated option values, checked."""
    from renju_cli.report import CODES

    codes = tuple(c.strip() for v in values for c in v.split(",") if c.strip())
    for code in codes:
        if code not in CODES:
            raise UsageProblem(f"unknown finding code {code!r}; known: {', '.join(CODES)}")
    return codes


@contextlib.contextmanager
def _progress(
    show: bool | None, total: int, to_stdout: bool
) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error (records, records/s, ETA by input bytes), by default
    only when standard error is a terminal and the report does not stream to that terminal
    (the bar would be torn by every line of it); ``--progress``/``--no-progress`` decide."""
    if show is None:
        show = sys.stderr.isatty() and not (to_stdout and sys.stdout.isatty())
    if not show or total <= 0:
        yield None
        return
    start = time.monotonic()
    state = {"records": 0, "bytes": 0}

    def label(_: Any) -> str:
        n = state["records"]
        rate = n / max(time.monotonic() - start, 1e-6)
        return f"{n} records, {rate:.0f} records/s"

    with click.progressbar(
        length=total,
        label="checking",
        file=sys.stderr,
        show_eta=True,
        show_percent=True,
        item_show_func=label,
    ) as bar:

        def update(records: int, read: int) -> None:
            read = min(read, total)
            state["records"] = records
            if read > state["bytes"]:
                bar.update(read - state["bytes"], records)
                state["bytes"] = read
            else:  # records judged, no more bytes read: redraw the count all the same
                bar.current_item = records
                bar.render_progress()

        yield update


@contextlib.contextmanager
def _dask(address: str | None, jobs: int, ship_bytes: bool) -> Iterator[Any]:
    """The kind of batch of the run: ``Batch``, or with ``--dask`` a ``ClusterBatch`` on the
    scheduler at ``address`` (``local``: a cluster of ``jobs`` worker processes started here; a
    file: a Dask scheduler file)."""
    if address is None:
        from renju_cli.batch import Batch

        yield Batch
        return
    try:
        import distributed
    except ImportError:
        raise UsageProblem("--dask needs Dask: pip install 'renju-cli[dask]'") from None
    with contextlib.ExitStack() as stack:
        try:
            client = _dask_client(distributed, address, jobs, stack)
        except UsageProblem:
            raise
        except Exception as e:
            # what the user named cannot be reached, whatever Dask raises for it: an OSError
            # or a ValueError, a TypeError for a scheme it needs more for (tls://, ucx://), an
            # AssertionError for a file of another kind (not an internal error)
            why = str(e) if isinstance(e, (OSError, ValueError)) else f"{type(e).__name__}: {e}"
            raise UsageProblem(
                f"cannot reach the Dask scheduler {shown(address)}: {shown(why)}"
            ) from None
        from renju_cli.cluster import ClusterBatch, ClusterLost

        try:
            yield functools.partial(ClusterBatch, client=client, ship_bytes=ship_bytes)
        except ClusterLost as e:
            raise UsageProblem(str(e)) from None


def _dask_client(dd: Any, address: str, jobs: int, stack: contextlib.ExitStack) -> Any:
    """A client of Dask (``dd``: ``distributed``, untyped) on the scheduler at ``address``,
    closed with ``stack``."""
    if address == "local":
        import logging

        cluster = stack.enter_context(
            dd.LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                silence_logs=logging.ERROR,
                dashboard_address=None,
            )
        )
        return stack.enter_context(dd.Client(cluster))
    named = _scheduler_address(address) if os.path.isfile(address) else address
    _resolvable(named)
    return stack.enter_context(dd.Client(named, timeout="10s"))


def _resolvable(address: str) -> None:
    """Refuse at once a TCP or TLS address whose port is out of range or whose host has no
    address: Dask retries those, as it does a scheduler still starting, for its whole timeout
    (10 s) before it gives up.  Read with Dask's own parser, so that both read it alike; what
    it raises, ``_dask`` says as it says Dask's own errors."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme not in ("tcp", "tls"):
        return
    host, port = parse_host_port(location, 8786)
    if not 0 <= int(port) <= 65535:
        raise ValueError(f"port {port} is out of range 0-65535")
    socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)


def _scheduler_address(path: str) -> str:
    """The scheduler's address that a Dask scheduler file gives (JSON, its ``address``)."""
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(1 << 20))
    except (OSError, ValueError) as e:
        raise UsageProblem(
            f"--dask {shown(path)}: not a Dask scheduler file ({shown(str(e))})"
        ) from None
    address = data.get("address") if isinstance(data, dict) else None
    if not isinstance(address, str):
        raise UsageProblem(
            f"--dask {shown(path)}: not a Dask scheduler file (JSON that gives the scheduler's "
            '"address")'
        )
    return address


# -- check --------
@cli.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--rules",
    "-r",
    default=None,
    help=RULES_HELP + " Default: the record's own rule when it names one, else renju.",
)
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="Output format: text for people, json/jsonl for machines, github (workflow "
    "annotations and a step summary) or junit (XML test report) for CI, sarif (SARIF 2.1.0) "
    "for code-scanning dashboards.",
)
@click.option(
    "--output", "-o", default=None, metavar="FILE", help="Write the report to FILE (atomically)."
)
@input_format_option()
@limit_option()
@click.option(
    "--encoding",
    default=None,
    help="Text encoding of comments and names to try "
    "first (e.g. cp1251, gbk); readers fall back without failing.",
)
@click.option(
    "--include",
    multiple=True,
    metavar="GLOB",
    help="In directories, only files whose name or path matches GLOB (repeatable).",
)
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOB",
    help="In directories, skip files whose name or path matches GLOB (repeatable).",
)
@click.option(
    "--select",
    multiple=True,
    metavar="CODES",
    help="Only report these finding codes (repeatable, or comma-separated).",
)
@click.option(
    "--ignore",
    multiple=True,
    metavar="CODES",
    help="Do not report these finding codes (repeatable, or comma-separated).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1 (and, in JUnit, a failure).",
)
@click.option(
    "--duplicates",
    type=click.Choice(["off", "report", "skip"]),
    default="off",
    show_default=True,
    help="Find records of the same game (up to board symmetry): report them with a "
    "'duplicate' finding, or skip them (a copy with a parse error is still reported).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    metavar="N",
    help="Judge on N worker processes (0: one per core); the same output, but past a run-wide "
    "bound on findings listed, judgements or walk steps, which records count rather than list "
    "their findings, or leave a move undecided (and so maybe their result), may differ.",
)
@click.option(
    "--dask",
    "dask_address",
    default=None,
    metavar="SCHEDULER",
    help="Judge on a Dask cluster: a scheduler address (tcp://host:8786), a scheduler "
    "file, or 'local' for a cluster of --jobs processes here. Needs renju-cli[dask].",
)
@click.option(
    "--dask-ship-bytes",
    is_flag=True,
    help="With --dask: send the files' bytes to the workers, for workers that do not see "
    "the files (by default they read them from storage they share with renju).",
)
@click.option(
    "--html",
    "html_dir",
    default=None,
    metavar="DIR",
    help="Also write a browsable HTML report into DIR: an index of every record (counts by "
    "finding, result and opening, and a filter) and a page with the board for each record "
    "with findings (at most 5000 pages).",
)
@click.option(
    "--html-boards",
    type=click.Choice(["findings", "all"]),
    default="findings",
    show_default=True,
    help="With --html: the records that get a page with their board.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on standard error. Default: when it is a terminal and the "
    "report goes to a file or a pipe.",
)
@click.option("--quiet", "-q", is_flag=True, help="Text: print only records with findings.")
@record_option()
def check(
    paths: tuple[str, ...],
    rules: str | None,
    fmt: str,
    output: str | None,
    input_format: str | None,
    encoding: str | None,
    limits: tuple[str, ...],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fail_on: str,
    duplicates: str,
    jobs: int,
    dask_address: str | None,
    dask_ship_bytes: bool,
    html_dir: str | None,
    html_boards: str,
    progress: bool | None,
    quiet: bool,
    wanted: str | None,
) -> None:
    """Replay every record in PATHS and report results and findings.

    PATHS are files, directories (searched recursively), glob patterns, or - for standard
    input. Formats are detected from content, then extension. Records are reported in input
    order, whatever --jobs is. Exit code: 0 clean, 1 findings at or above --fail-on, 2 usage
    error or unwritable output, 3 internal error (a bug: please report it), 130 interrupted
    (129 SIGHUP, 143 SIGTERM).

    \b
    Examples:
      renju check examples/
      renju check db.rif --format jsonl -o report.jsonl
      renju check games/ --include '*.sgf' --exclude '*/drafts/*' --jobs 0
      renju check games/ --rules freestyle --fail-on warning --ignore move-after-end
      renju check games/ --duplicates report --select duplicate
      renju check games/ --format github        # in a GitHub Actions step
      renju check games/ --format junit -o renju.xml
      renju check big.rif --dask tcp://scheduler:8786
      renju check uploads/ --limit records=20000   # fewer records per file than the default
      renju check games.sgf --record 0.1.2     # one line of a variation tree
      cat game.txt | renju check - --format json
    """
    from renju_cli.batch import cpu_count

    ruleset = load_rules(rules)
    options = read_options(encoding, limits=limits)
    selected, ignored = _codes(select), _codes(ignore)
    _refuse_what_cannot_run(paths, duplicates, selected, html_dir)
    workers = jobs or cpu_count()
    _import_what_the_run_uses(workers, duplicates)
    inputs = _inputs(paths, include, exclude, output, dask_address is not None)
    threshold = None if fail_on == "never" else fail_on
    pages = _HtmlPages(html_dir, html_boards, ruleset)
    with contextlib.ExitStack() as stack:
        kind = stack.enter_context(_dask(dask_address, workers, dask_ship_bytes))
        batch = kind(
            inputs,
            rules=ruleset,
            fmt=input_format,
            options=options,
            select=selected,
            ignore=ignored,
            duplicates=duplicates,
            jobs=workers,
            read_in_workers=html_dir is None,  # the HTML report wants every record
        )
        out = stack.enter_context(written(output))
        to_stdout = output in (None, "-")
        bar = _progress(progress, batch.total_bytes(), to_stdout)
        batch.progress = stack.enter_context(bar)
        summary = _report(batch, fmt, out, quiet, threshold, pages, Selection(wanted))
    pages.write(summary)
    no_record(wanted, summary.records)
    sys.exit(_exit_code(summary, threshold))


def _refuse_what_cannot_run(
    paths: tuple[str, ...], duplicates: str, selected: tuple[str, ...], html_dir: str | None
) -> None:
    """Options that cannot make a run, said before the run, not after it."""
    if paths.count("-") > 1:
        raise UsageProblem("'-' (standard input) is given more than once: it is read once")
    if duplicates == "off" and "duplicate" in selected:
        raise UsageProblem(
            "--select duplicate: only --duplicates report (or skip) finds duplicates; without "
            "it no record has that finding"
        )
    if html_dir == "-":
        # ('-' is standard output for -o; an HTML report is a directory of pages, and a
        # directory named '-' made in its place surprised)
        raise UsageProblem(
            "--html -: the HTML report is a directory of pages, not one stream; name a "
            "directory (./- for one called '-')"
        )
    if html_dir is not None and os.path.exists(html_dir) and not os.path.isdir(html_dir):
        raise UsageProblem(f"--html {shown(html_dir)}: not a directory")


def _import_what_the_run_uses(workers: int, duplicates: str) -> None:
    """Every reader imported now, not in the middle of the run: a Ctrl-C that lands in the
    import of a C extension may come out as an ImportError, which a library's fallback
    (``xml.etree.ElementTree`` falls back to pure Python) swallows, and the run goes on.
    Detection imports them all at the first file anyway (the RenjuNet reader imports the XML
    parser itself at the first database, signals held back).  So are the modules that only
    some runs use: the process pool's, and hashlib for duplicate keys."""
    from renju_cli.formats import available

    available()
    if workers > 1:
        import concurrent.futures.process  # noqa: F401
    if duplicates != "off":
        import hashlib  # noqa: F401


def _inputs(
    paths: tuple[str, ...],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    output: str | None,
    remote: bool = False,
) -> list[Any]:
    """The inputs the paths name (files, and the problems of those that cannot be read; on a
    cluster, fsspec URLs too); a run with none ends with exit code 2."""
    from renju_cli import api

    expand = api.expand_inputs
    if remote:
        from renju_cli.cluster import expand_inputs as expand

    inputs = list(expand(paths, include, exclude))
    if output in (None, "-"):  # (a file named by -o is new: written aside, renamed at the end)
        inputs = api.not_the_output(inputs, sys.stdout)
    if not inputs:
        raise UsageProblem("no input found")
    if all(isinstance(i, api.InputError) for i in inputs):
        msgs = "; ".join(
            shown(f"{i.path}: {i.message}") for i in inputs if isinstance(i, api.InputError)
        )
        raise UsageProblem(f"no input found ({msgs})")
    return inputs


def _report(
    batch: Any,
    fmt: str,
    out: TextIO,
    quiet: bool,
    threshold: str | None,
    pages: _HtmlPages,
    selected: Selection,
) -> Any:
    """Render every report the batch yields that ``--record`` selects, and their summary
    (returned).  A selected record is judged in the whole run, so that its report is the one
    the run without ``--record`` gives (a duplicate of an earlier record, a run-wide bound
    reached); the summary counts the selected records, of the files read."""
    from renju_cli.output import RENDERERS
    from renju_cli.report import Summary

    renderer = RENDERERS[fmt](out, quiet=quiet, fail_on=threshold)
    summary = batch.summary if selected.wanted is None else Summary()
    if selected.wanted is not None or not batch.rendered(renderer):
        with contextlib.closing(batch.run()) as reports:
            for record, report in reports:
                if selected(report.source):
                    if summary is not batch.summary:
                        summary.add(report)
                    renderer.record(report)
                    pages.keep(record, report)
    summary.files = batch.summary.files
    renderer.finish(summary)
    return summary


def _exit_code(summary: Any, threshold: str | None) -> int:
    """1 when a finding is at or above ``threshold``; an internal error in any record (a bug:
    every record was still reported, the broken ones with an internal-error finding) ends the
    run with 3 and a line on standard error, not 1."""
    from renju_cli.report import SEVERITIES

    bugs = summary.findings["internal-error"]
    if bugs:
        click.echo(
            f"renju: internal error in {bugs} record(s); see their internal-error findings",
            err=True,
        )
        return EXIT_INTERNAL
    failing = threshold is not None and any(
        summary.severities[s] for s in SEVERITIES[SEVERITIES.index(threshold) :]
    )
    return EXIT_FINDINGS if failing else EXIT_CLEAN


class _HtmlPages:
    """The ``--html`` report (``renju_cli.output.html``), written as the records come (nothing
    without ``--html``); its size is said on standard error at the end."""

    def __init__(self, directory: str | None, boards: str, ruleset: Any) -> None:
        self.directory = directory
        self.html: Any = None
        if directory is not None:
            try:
                from renju_cli.output.html import HtmlReport

                self.html = HtmlReport(directory, rules=ruleset, boards=boards)
            except ImportError as e:
                raise UsageProblem(f"HTML reports need renju_cli.output.html ({e})") from None

    def keep(self, record: Any, report: Any) -> None:
        if self.html is not None:
            self.html.add(report, record)  # (a record not read has a page without a board)

    def write(self, summary: Any) -> None:
        if self.html is None:
            return
        try:
            done = self.html.finish(summary)
        except OSError as e:
            click.echo(
                f"renju: cannot write the HTML report into {shown(str(self.directory))}: "
                f"{e.strerror}",
                err=True,
            )
            sys.exit(EXIT_USAGE)
        click.echo(f"renju: HTML report in {shown(str(done))}", err=True)
