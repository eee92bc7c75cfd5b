"""``renju check``: replay records and report."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import click

from renju_cli.cli.app import (
    CONTEXT,
    EXIT_CLEAN,
    EXIT_FINDINGS,
    RULES_HELP,
    UsageProblem,
    cli,
    input_format_option,
    load_rules,
    open_output,
    read_options,
)


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
    type=click.Choice(["text", "json", "jsonl"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option("--output", "-o", default=None, help="Write the report to FILE (atomically).")
@input_format_option()
@click.option(
    "--encoding",
    default=None,
    help="Text encoding of comments and names to try "
    "first (e.g. cp1251, gbk); readers fall back without failing.",
)
@click.option("--include", multiple=True, help="Only files matching this glob (directories).")
@click.option("--exclude", multiple=True, help="Skip files matching this glob (directories).")
@click.option("--select", multiple=True, help="Only report these finding codes.")
@click.option("--ignore", multiple=True, help="Do not report these finding codes.")
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info", "never"]),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@click.option("--quiet", "-q", is_flag=True, help="Text: print only records with findings.")
def check(
    paths: tuple[str, ...],
    rules: str | None,
    fmt: str,
    output: str | None,
    input_format: str | None,
    encoding: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fail_on: str,
    quiet: bool,
) -> None:
    """Replay every record in PATHS and report results and findings.

    PATHS are files, directories (searched recursively), glob patterns, or - for standard
    input. Formats are detected from content, then extension.

    \b
    Examples:
      renju check examples/
      renju check db.rif --format jsonl -o report.jsonl
      renju check games/ --rules freestyle --fail-on warning
      cat game.txt | renju check - --format json
    """
    from renju_cli import api
    from renju_cli.formats import FORMAT_MODULES
    from renju_cli.render import RENDERERS
    from renju_cli.report import CODES, SEVERITIES, Summary

    ruleset = load_rules(rules)
    options = read_options(encoding)
    if input_format is not None and input_format not in FORMAT_MODULES:
        raise UsageProblem(
            f"unknown input format {input_format!r}; known: {', '.join(FORMAT_MODULES)}"
        )
    for code in (*select, *ignore):
        if code not in CODES:
            raise UsageProblem(f"unknown finding code {code!r}; known: {', '.join(CODES)}")

    inputs = list(api.expand_inputs(paths, include, exclude))
    if not inputs:
        raise UsageProblem("no input found")
    if all(isinstance(i, api.InputError) for i in inputs):
        msgs = "; ".join(f"{i.path}: {i.message}" for i in inputs if isinstance(i, api.InputError))
        raise UsageProblem(f"no input found ({msgs})")

    threshold = None if fail_on == "never" else SEVERITIES.index(fail_on)
    summary = Summary()
    failing = False
    with open_output(output) as out:
        renderer = RENDERERS[fmt](out, quiet=quiet)
        for report in _reports(inputs, ruleset, input_format, options):
            if select:
                report.findings = [f for f in report.findings if f.code in select]
            if ignore:
                report.findings = [f for f in report.findings if f.code not in ignore]
            summary.add(report)
            if threshold is not None and any(
                SEVERITIES.index(f.severity) >= threshold for f in report.findings
            ):
                failing = True
            renderer.record(report)
        renderer.finish(summary)
    sys.exit(EXIT_FINDINGS if failing else EXIT_CLEAN)


def _reports(
    inputs: list[Any], ruleset: Any, input_format: str | None, options: Any
) -> Iterator[Any]:
    from renju_cli import api
    from renju_cli.formats import unreadable
    from renju_cli.referee import replay
    from renju_cli.ruleset import load

    for item in inputs:
        if isinstance(item, api.InputError):
            yield replay(unreadable(item.path, item.message), load(api.DEFAULT_RULES))
            continue
        for record in api.read_path(item, input_format, options):
            yield api.judge_record(record, ruleset)
