"""``renju rules``: list, show and validate rulesets."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from renju_cli.cli.app import (
    CONTEXT,
    EXIT_CLEAN,
    EXIT_USAGE,
    cli,
    load_rules,
)


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


@rules.command("list", context_settings=CONTEXT)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def rules_list(fmt: str) -> None:
    """List the shipped rulesets by group.

    \b
    Example:
      renju rules list --format json
    """
    from renju_cli.ruleset import load, shipped_names

    items = [load(n) for n in shipped_names()]
    if fmt == "json":
        click.echo(
            json.dumps(
                [{"name": r.name, "title": r.title, "group": r.group} for r in items],
                ensure_ascii=False,
            )
        )
        return
    groups: dict[str, list[Any]] = {}
    for r in items:
        groups.setdefault(r.group, []).append(r)
    order = ["official", "gomoku", "engine", "proposals", "variants"]
    for g in sorted(groups, key=lambda g: order.index(g) if g in order else 99):
        click.echo(f"{g}:")
        for r in groups[g]:
            click.echo(f"  {r.name:<22} {r.title}")


@rules.command("show", context_settings=CONTEXT)
@click.argument("name")
@click.option("--yaml", "as_yaml", is_flag=True, help="Print the resolved ruleset as YAML.")
def rules_show(name: str, as_yaml: bool) -> None:
    """Show one ruleset in words (or --yaml, resolved with its extends).

    \b
    Examples:
      renju rules show renju
      renju rules show omok --yaml
    """
    from renju_cli.ruledoc import describe

    ruleset = load_rules(name)
    if as_yaml:
        import yaml

        data = {k: v for k, v in ruleset.data.items() if k != "extends"}
        click.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True).rstrip())
        return
    click.echo(describe(ruleset))


@rules.command("check", context_settings=CONTEXT)
@click.argument("files", nargs=-1, required=True)
def rules_check(files: tuple[str, ...]) -> None:
    """Validate ruleset YAML files; print every error with its key path and line.

    Exit 0 when all are valid, 2 otherwise.

    \b
    Example:
      renju rules check my-rules.yaml
    """
    from renju_cli.ruleset import RulesetError, format_error, load

    bad = False
    for f in files:
        if not os.path.isfile(f):
            click.echo(f"{f}: no such file", err=True)
            bad = True
            continue
        try:
            r = load(f)
        except RulesetError as e:
            bad = True
            for err in e.errors:
                click.echo(format_error(*err), err=True)
        else:
            click.echo(f"{f}: valid ({r.name})")
    sys.exit(EXIT_USAGE if bad else EXIT_CLEAN)
