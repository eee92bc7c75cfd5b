"""``renju rules``: list, show and validate rulesets."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

import click

from renju_cli.cli.app import (
    CONTEXT,
    EXIT_CLEAN,
    EXIT_USAGE,
    cli,
    load_rules,
    shown,
)
from renju_cli.cli.output import echo


# -- rules --------
@cli.group(context_settings=CONTEXT)
def rules() -> None:
    """Shipped rulesets, and validation of your own.

    \b
    Examples:
      renju rules list
      renju rules show renju
      renju rules check my-rules.yaml
    """


#: The groups of the schema's ``group`` enum, in the order ``rules list`` prints them.
GROUPS = {
    "official": "RIF renju rules and opening rules",
    "gomoku": "gomoku rules and openings",
    "engine": "engine matches (Gomocup)",
    "proposals": "the RIF opening-rule proposals of 2005-2008, by number",
    "variants": "other rule systems: Lianhuan, online rooms, two-board gomoku",
}


@rules.command("list", context_settings=CONTEXT)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--group",
    "-g",
    "only",
    type=click.Choice(list(GROUPS)),
    default=None,
    help="List only this group.",
)
def rules_list(fmt: str, only: str | None) -> None:
    """List the shipped rulesets by group: official, gomoku, engine, proposals, variants.

    \b
    Examples:
      renju rules list
      renju rules list --group proposals
      renju rules list --format json
    """
    from renju_cli.ruleset import load, shipped_names

    items = [load(n) for n in shipped_names()]
    items = [r for r in items if only is None or r.group == only]
    items.sort(key=_list_order)
    if fmt == "json":
        echo(
            json.dumps(
                [{"name": r.name, "title": r.title, "group": r.group} for r in items],
                ensure_ascii=False,
            )
        )
        return
    _list_text(items)


def _list_text(items: list[Any]) -> None:
    """The rulesets ``items`` under the titles of their groups, names aligned."""
    groups: dict[str, list[Any]] = {}
    for r in items:
        groups.setdefault(r.group, []).append(r)
    width = max((len(r.name) for r in items), default=0)
    for g, members in groups.items():
        echo(f"{g}: {GROUPS.get(g, '')}".rstrip())
        for r in members:
            echo(f"  {r.name:<{width}}  {r.title}")


def _list_order(r: Any) -> tuple[int, list[Any], str]:
    """Groups in ``GROUPS`` order; proposals by their number (titles "Proposal 12: ..."),
    the others by name."""
    group = list(GROUPS).index(r.group) if r.group in GROUPS else len(GROUPS)
    if r.group == "proposals":
        title = [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", r.title)]
        return (group, title, r.name)
    return (group, [], r.name)


@rules.command("show", context_settings=CONTEXT)
@click.argument("name")
@click.option("--yaml", "as_yaml", is_flag=True, help="Print the resolved ruleset as YAML.")
def rules_show(name: str, as_yaml: bool) -> None:
    """Show one ruleset in words: board, fives, forbidden moves, passes, the end, and the
    opening's steps numbered as findings cite them (or --yaml, resolved with its extends).

    \b
    Examples:
      renju rules show renju
      renju rules show taimla
      renju rules show omok --yaml
    """
    from renju_cli.output.ruledoc import describe

    ruleset = load_rules(name)
    if as_yaml:
        import yaml

        data = {k: v for k, v in ruleset.data.items() if k != "extends"}
        echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True).rstrip())
        return
    echo(describe(ruleset))


@rules.command("check", context_settings=CONTEXT)
@click.argument("files", nargs=-1, required=True)
def rules_check(files: tuple[str, ...]) -> None:
    """Validate ruleset YAML files; print every error with its key path and line.

    Exit 0 when all are valid, 2 otherwise.

    \b
    Example:
      renju rules check my-rules.yaml
    """
    bad = False
    for f in files:
        if not _valid(f):
            bad = True
    sys.exit(EXIT_USAGE if bad else EXIT_CLEAN)


def _valid(f: str) -> bool:
    """Check one ruleset file: its errors on standard error, "valid" on standard output."""
    from renju_cli.ruleset import RulesetError, format_error, load, not_a_file

    if not os.path.isfile(f):
        # say what it is: a directory, a named pipe, /dev/null (never opened: a FIFO blocks)
        what = not_a_file(f)
        if what is None:
            what = (
                "not a regular file (standard input is not read: give a ruleset file)"
                if f == "-"
                else "no such file"
            )
        click.echo(f"{shown(f)}: {what}", err=True)
        return False
    try:
        r = load(f)
    except RulesetError as e:
        for err in e.errors:
            click.echo(format_error(*err), err=True)  # escaped: see format_error
        return False
    echo(f"{shown(f)}: valid ({shown(r.name)})")
    return True
