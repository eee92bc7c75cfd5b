"""The ``renju`` command line: a thin layer over ``renju_cli.api``.

Exit codes (``shared/spec/cli.md``): 0 clean, 1 findings at or above ``--fail-on``, 2 usage or
configuration error, 3 internal error (one line on stderr; the traceback only with ``--debug``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

import click

from renju_cli import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

F = TypeVar("F", bound=Callable[..., Any])

RULES_HELP = "Ruleset: a shipped name (see 'renju rules list') or a YAML file."
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class UsageProblem(click.UsageError):
    """A configuration problem reported with exit code 2."""


def _load_rules(rules: str | None) -> Any:
    from renju_cli.ruleset import RulesetError, load

    if rules is None:
        return None
    try:
        return load(rules)
    except RulesetError as e:
        raise UsageProblem(f"invalid ruleset {rules}:\n{e}") from None


def _read_options(encoding: str | None, board_size: int | None = None) -> Any:
    from renju_cli.formats import ReadOptions

    if encoding is not None:
        import codecs

        try:
            codecs.lookup(encoding)
        except LookupError:
            raise UsageProblem(f"unknown encoding {encoding!r}") from None
    return ReadOptions(encoding=encoding, board_size=board_size or 15)


@contextmanager
def _output(path: str | None) -> Iterator[TextIO]:
    """Standard output, or a file written atomically (a partial file never looks complete)."""
    if path is None or path == "-":
        yield sys.stdout
        return
    with click.open_file(path, "w", encoding="utf-8", atomic=True) as f:
        yield f  # type: ignore[misc]


def _input_format_option() -> Callable[[F], F]:
    return click.option(
        "--input-format",
        default=None,
        metavar="FORMAT",
        help="Read inputs as this format instead of detecting it "
        "(notation, jsonl, diagram, renjunet, renlib, sgf, psq, pos, playok).",
    )


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="renju")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Analyze renju and gomoku game records: legality, forbidden moves, results.

    \b
    Examples:
      renju check examples/
      renju check games.rif --rules renju-rif --format jsonl
      echo "h8 h9 i8 g8 j8 k8 i9 i10 j10 k11" | renju check -
      renju forbidden position.txt --format json
      renju show game.txt --at 23
      renju rules list
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


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
@_input_format_option()
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

    ruleset = _load_rules(rules)
    options = _read_options(encoding)
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
    with _output(output) as out:
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


# -- positions: forbidden, show --------
def _position_record(path: str, input_format: str | None, index: int, encoding: str | None) -> Any:
    from renju_cli import api

    options = _read_options(encoding)
    if path != "-" and not os.path.exists(path):
        raise UsageProblem(f"{path}: no such file")
    for i, record in enumerate(api.read_path(path, input_format, options)):
        if i == index:
            if record.unreadable:
                msg = "; ".join(p.message for p in record.problems)
                raise UsageProblem(f"{path}: cannot read the position: {msg}")
            return record
    raise UsageProblem(f"{path}: has no record number {index}")


_KIND_MARK = {"double-three": "3", "double-four": "4", "overline": "6"}


@cli.command(context_settings=CONTEXT)
@click.argument("path", default="-")
@click.option("--rules", "-r", default=None, help=RULES_HELP + " Default: renju.")
@click.option(
    "--at",
    "at",
    type=int,
    default=None,
    help="The position after move N (default: after the last move).",
)
@click.option(
    "--record",
    "index",
    type=int,
    default=0,
    show_default=True,
    help="Which record of the file (0-based).",
)
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
@_input_format_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
def forbidden(
    path: str,
    rules: str | None,
    at: int | None,
    index: int,
    color: str,
    fmt: str,
    input_format: str | None,
    encoding: str | None,
) -> None:
    """List black's forbidden points in a position, with their kinds.

    PATH (or - for standard input) is a board diagram (N rows of X, O and . cells, top row
    first; labels ignored) or a game record, whose position after --at N moves is used.
    A diagram asks "where may black not play", whoever is to move.

    \b
    Examples:
      renju forbidden position.txt
      renju forbidden game.txt --at 22 --format json
      printf '...\\n' | renju forbidden - --rules renju
    """
    from renju_cli import api
    from renju_cli.board import BLACK, WHITE
    from renju_cli.ruleset import load

    record = _position_record(path, input_format, index, encoding)
    ruleset = _load_rules(rules) or load(api.choose_ruleset(record, None).name)
    pos = api.position_after(record, ruleset, at)
    judge = ruleset.judge()
    stone = BLACK if color == "black" else WHITE
    found = judge.forbidden_points(pos.board, stone)
    board = pos.board
    items = sorted(
        ((board.point(i), kinds) for i, kinds in found), key=lambda pk: (pk[0].x, pk[0].y)
    )
    if fmt == "json":
        out = {
            "forbidden": [{"point": p.name, "kinds": list(k)} for p, k in items],
            "color": color,
            "ruleset": ruleset.name,
            "stones": board.stones,
            "moves": pos.played,
            "to_move": "black" if pos.to_move == BLACK else "white",
            "size": [board.width, board.height],
        }
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    if not items:
        click.echo(f"no forbidden points for {color} under {ruleset.name}")
        return
    for p, kinds in items:
        click.echo(f"{p.name} {', '.join(kinds)}")


@cli.command(context_settings=CONTEXT)
@click.argument("path", default="-")
@click.option("--rules", "-r", default=None, help=RULES_HELP + " Default: the record's rule.")
@click.option("--at", "at", type=int, default=None, help="The position after move N.")
@click.option(
    "--record",
    "index",
    type=int,
    default=0,
    show_default=True,
    help="Which record of the file (0-based).",
)
@click.option(
    "--numbers/--stones",
    default=True,
    show_default=True,
    help="Draw move numbers, or stones as X and O.",
)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@_input_format_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
def show(
    path: str,
    rules: str | None,
    at: int | None,
    index: int,
    numbers: bool,
    fmt: str,
    input_format: str | None,
    encoding: str | None,
) -> None:
    """Draw a position as a text board: moves numbered, the five and forbidden points marked.

    Marks: 3 double-three, 4 double-four, 6 overline (black's forbidden points, black to
    move); stones of the first five are drawn with a * (numbers) or as # and @ (stones).

    \b
    Examples:
      renju show game.txt
      renju show game.txt --at 23 --stones
      renju show db.rif --record 12 --format json
    """
    from renju_cli import api
    from renju_cli.board import BLACK, WHITE

    record = _position_record(path, input_format, index, encoding)
    ruleset = _load_rules(rules) or api.choose_ruleset(record, None)
    pos = api.position_after(record, ruleset, at)
    board = pos.board
    judge = ruleset.judge()
    # the first five reached in the shown position
    five: tuple[int, ...] = ()
    for i in sorted(pos.numbers, key=pos.numbers.__getitem__):
        row = judge.five_at(board, i, board.cells[i])
        if row is not None:
            five = row
            break
    forbidden = dict(judge.forbidden_points(board, BLACK)) if pos.to_move == BLACK else {}
    marks: dict[int, str] = {}
    for i in board.points():
        stone = board.cells[i]
        if stone in (BLACK, WHITE):
            if numbers and i in pos.numbers:
                marks[i] = str(pos.numbers[i]) + ("*" if i in five else "")
            elif i in five:
                marks[i] = "#" if stone == BLACK else "@"
        elif i in forbidden:
            kinds = forbidden[i]
            marks[i] = _KIND_MARK[kinds[0]] if len(kinds) == 1 else "!"
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "size": [board.width, board.height],
                    "moves": pos.played,
                    "to_move": "black" if pos.to_move == BLACK else "white",
                    "diagram": board.diagram(labels=False).splitlines(),
                    "stones": [
                        {
                            "point": board.name(i),
                            "color": "black" if board.cells[i] == BLACK else "white",
                            "move": pos.numbers.get(i),
                        }
                        for i in board.points()
                        if board.cells[i] in (BLACK, WHITE)
                    ],
                    "five": [board.name(i) for i in five] or None,
                    "forbidden": [
                        {"point": board.name(i), "kinds": list(k)}
                        for i, k in sorted(forbidden.items())
                    ],
                },
                ensure_ascii=False,
            )
        )
        return
    click.echo(board.diagram(marks))
    legend = [f"{pos.played} move(s), {'black' if pos.to_move == BLACK else 'white'} to move"]
    if five:
        legend.append("five: " + "-".join(board.name(i) for i in five))
    if forbidden:
        legend.append(
            "forbidden: "
            + ", ".join(
                f"{board.name(i)} {'+'.join(k)}"
                for i, k in sorted(forbidden.items(), key=lambda ik: board.point(ik[0]))
            )
        )
    click.echo("; ".join(legend))


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

    ruleset = _load_rules(name)
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


# -- convert --------
@cli.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--to",
    "to",
    type=click.Choice(["jsonl", "notation", "sgf", "psq"]),
    default="jsonl",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--output", "-o", default=None, help="Output file (psq: a directory, one file per record)."
)
@_input_format_option()
@click.option("--encoding", default=None, help="Text encoding to try first.")
def convert(
    paths: tuple[str, ...],
    to: str,
    output: str | None,
    input_format: str | None,
    encoding: str | None,
) -> None:
    """Rewrite records in another format: standard notation, JSON Lines, SGF or psq.

    Unreadable records are reported on stderr and make the exit code 1.

    \b
    Examples:
      renju convert library.lib --to jsonl -o lines.jsonl
      renju convert game.psq --to sgf
      renju convert games.sgf --to psq -o psq-dir/
    """
    from renju_cli import api, formats
    from renju_cli.formats.notation import write_record

    options = _read_options(encoding)
    inputs = list(api.expand_inputs(paths))
    bad = 0
    good: list[Any] = []

    def records() -> Iterator[Any]:
        nonlocal bad
        for item in inputs:
            if isinstance(item, api.InputError):
                click.echo(f"{item.path}: {item.message}", err=True)
                bad += 1
                continue
            for rec in api.read_path(item, input_format, options):
                if rec.unreadable:
                    bad += 1
                    msg = "; ".join(p.message for p in rec.problems)
                    click.echo(f"{rec.source.path} [{rec.source.index}]: {msg}", err=True)
                    continue
                yield rec

    if to == "psq":
        target = output or "."
        os.makedirs(target, exist_ok=True)
        psq = formats.load("psq")
        for n, rec in enumerate(records()):
            stem = os.path.splitext(os.path.basename(rec.source.path))[0]
            name = os.path.join(target, f"{stem}-{n:05d}.psq")
            with click.open_file(name, "w", encoding="utf-8", atomic=True) as f:
                psq.write_one(rec, f)
            good.append(name)
    else:
        with _output(output) as out:
            if to == "notation":
                for rec in records():
                    out.write(write_record(rec) + "\n")
            else:
                formats.load(to).write(records(), out)
    sys.exit(EXIT_FINDINGS if bad else EXIT_CLEAN)


# -- entry point --------
def main(argv: list[str] | None = None) -> None:
    """Run the CLI with the exit-code contract: never a traceback for bad input."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="renju", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("renju: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("renju: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (renju check ... | head): stop quietly.
        _silence_stdout()
        sys.exit(EXIT_CLEAN)
    except SystemExit:
        raise
    except Exception as e:
        if debug:
            raise
        click.echo(
            f"renju: internal error: {type(e).__name__}: {e} (run with --debug for the traceback)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
