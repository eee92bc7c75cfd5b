"""``renju diff``: the same records under two or more rulesets."""

from __future__ import annotations

import sys
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
    limit_option,
    load_rules,
    read_options,
    shown,
)
from renju_cli.cli.output import written
from renju_cli.cli.records import Selection, no_record, record_option

#: Records between two progress updates on a terminal.
PROGRESS_EVERY = 50


# -- diff --------
@cli.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--rules",
    "-r",
    "rules",
    multiple=True,
    required=True,
    help=RULES_HELP + " Give it two or more times.",
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
@click.option("--output", "-o", default=None, help="Write the diff to FILE (atomically).")
@input_format_option()
@limit_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
@click.option("--include", multiple=True, help="Only files matching this glob (directories).")
@click.option("--exclude", multiple=True, help="Skip files matching this glob (directories).")
@record_option()
def diff(
    paths: tuple[str, ...],
    rules: tuple[str, ...],
    fmt: str,
    output: str | None,
    input_format: str | None,
    encoding: str | None,
    limits: tuple[str, ...],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    wanted: str | None,
) -> None:
    """Replay every record in PATHS under each --rules and list the records whose outcome
    differs: the result under each ruleset and the first move where the rulings part.

    PATHS are files, directories (searched recursively), glob patterns, or - for standard
    input. Exit code 1 when any outcome differs or a record could not be read (or judged: an
    internal error), 0 when every record was read and none differs (for CI). JSON and JSON
    Lines list the differing (and unreadable) records only; the JSON summary counts them all.

    \b
    Examples:
      renju diff games/ --rules renju --rules freestyle
      renju diff db.rif -r renju -r renju-claim.yaml --format jsonl -o diff.jsonl
      echo "h8 h9 i8 g8 j8 k8 i9 i10 j10 k11" | renju diff - -r renju -r standard
    """
    from renju_cli.diff import DIFF_RENDERERS, DiffSummary, diff_inputs

    rulesets = _rulesets(rules)
    names = [r.name for r in rulesets]
    options = read_options(encoding, limits=limits)
    inputs = _inputs(paths, include, exclude)
    summary = DiffSummary(names)
    selected = Selection(wanted)
    progress = _Progress(sys.stderr.isatty())
    with written(output) as out:
        renderer = DIFF_RENDERERS[fmt](out, names)
        for d in diff_inputs(inputs, rulesets, input_format, options):
            if not selected(d.source):
                continue
            summary.add(d)
            renderer.record(d)
            progress.update(summary)
        progress.clear(summary)
        renderer.finish(summary)
    no_record(wanted, summary.records)
    # a record the referee failed on could not be compared: CI must not take it for equal
    # an unreadable record is a finding, as for check: its outcome under each ruleset is unknown
    bad = summary.differing or summary.failed or summary.unreadable
    sys.exit(EXIT_FINDINGS if bad else EXIT_CLEAN)


def _rulesets(rules: tuple[str, ...]) -> list[Any]:
    """The rulesets compared: two or more, of different names."""
    if len(rules) < 2:
        raise UsageProblem("give --rules two or more times: diff compares rulesets")
    rulesets = [load_rules(r) for r in rules]
    names = [r.name for r in rulesets]
    if len(set(names)) != len(names):
        raise UsageProblem(f"the rulesets must have different names, not {', '.join(names)}")
    return rulesets


def _inputs(
    paths: tuple[str, ...], include: tuple[str, ...], exclude: tuple[str, ...]
) -> list[Any]:
    """The inputs the paths name; a run with none that can be read ends with exit code 2.
    Every reader and the referee are imported first, not in the middle of the run (see
    ``check``)."""
    from renju_cli import api, referee  # noqa: F401
    from renju_cli.formats import available

    available()
    inputs = list(api.expand_inputs(paths, include, exclude))
    if not inputs or all(isinstance(i, api.InputError) for i in inputs):
        msgs = "; ".join(
            shown(f"{i.path}: {i.message}") for i in inputs if isinstance(i, api.InputError)
        )
        raise UsageProblem(f"no input found ({msgs})" if msgs else "no input found")
    return inputs


class _Progress:
    """Records compared so far, on a terminal's standard error (``on``: it is a terminal), every
    ``PROGRESS_EVERY``."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def update(self, summary: Any) -> None:
        if self.on and summary.records % PROGRESS_EVERY == 0:
            click.echo(
                f"\rdiff: {summary.records} records, {summary.differing} differ",
                err=True,
                nl=False,
            )

    def clear(self, summary: Any) -> None:
        if self.on and summary.records >= PROGRESS_EVERY:
            click.echo("\r\033[K", err=True, nl=False)
