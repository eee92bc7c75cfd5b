#!/usr/bin/env python3
"""Look for regular expressions of the package whose cost grows faster than their input.

Python's ``re`` backtracks: two runs of the same characters around an optional part (``\\s*,?\\s*``)
or a lazy run before a greedy one, matched whole against a line, cost the square of the line
(a 1 MB line: hours).  Each pattern compiled by a module of ``renju_cli`` (``re.Pattern``
globals, and ``lazy_compile`` ones, compiled here) is run with ``match``, ``fullmatch`` and
``search`` over pumped inputs (a prefix that leads into the pattern, a run of one piece
repeated ``n`` times, a suffix that makes it fail), at two sizes; a pattern whose time grows
more than ``--ratio`` times when the input grows four times is reported::

    python fuzz/regex_audit.py              # every pattern, runs of 500 and 2,000 pieces
    python fuzz/regex_audit.py --n 4000 --only formats.psq

Exit code 1 when a pattern is reported.  (A bench, not a test: it measures time.)
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
import time
from typing import Any

import renju_cli
from renju_cli.formats import _LazyPattern

PREFIXES = [
    "",
    "a",
    "1",
    "h8",
    "B[",
    "C[x",
    "(;",
    "0,0",
    "1,1,",
    "Piskvorky 20x20",
    "Piskvorky 20x20, 0",
    '[Site "x"]',
    'Event "x"',
    "[Event",
    "{",
    "N=",
    "<game ",
    "-",
]
PIECES = [
    " ",
    "\t",
    "\n",
    "0",
    "a",
    "h8",
    ",",
    " ,",
    ", ",
    "\\",
    "[",
    "]",
    "(;",
    ";",
    "x",
    "{",
    "\u3000",
]
SUFFIXES = ["x", "", "!", "\n", "]", '"', "\x00"]


def patterns() -> list[tuple[str, re.Pattern[Any]]]:
    """Every compiled pattern held by a module of the package, by its name."""
    found: list[tuple[str, re.Pattern[Any]]] = []
    seen: set[int] = set()
    for info in pkgutil.walk_packages(renju_cli.__path__, "renju_cli."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, _LazyPattern):
                value = re.compile(value.pattern, value._flags)
            if isinstance(value, re.Pattern) and id(value) not in seen:
                seen.add(id(value))
                found.append((f"{info.name}.{name}", value))
    return found


METHODS = ("match", "fullmatch", "search")


def _cost(method: Any, subject: str | bytes) -> float:
    start = time.perf_counter()
    method(subject)
    return time.perf_counter() - start


def audit(n: int, ratio: float, only: str = "") -> list[str]:
    """One line per pattern and method whose time grows faster than ``ratio`` (at its worst
    input).  ``search`` tries every start: a pattern used only with ``match`` or ``fullmatch``
    at a position may grow under ``search`` alone, which is no fault of the code."""
    reports = []
    for name, pattern in patterns():
        if only not in name:
            continue
        is_bytes = isinstance(pattern.pattern, bytes)
        for method_name in METHODS:
            method = getattr(pattern, method_name)
            worst = (0.0, "")
            for prefix in PREFIXES:
                for piece in PIECES:
                    for suffix in SUFFIXES:
                        small_text = prefix + piece * (n // 4) + suffix
                        big_text = prefix + piece * n + suffix
                        small: str | bytes = small_text
                        big: str | bytes = big_text
                        if is_bytes:
                            small = small_text.encode("utf-8")
                            big = big_text.encode("utf-8")
                        t_small = _cost(method, small)
                        if t_small < 5e-5:  # (too fast to grow badly at four times the size)
                            continue
                        t_big = _cost(method, big)
                        grows = t_big > 0.002 and t_big / max(t_small, 1e-6) > ratio
                        if grows and t_big > worst[0]:
                            worst = (t_big, f"{prefix!r} + {piece!r} x n + {suffix!r}")
            if worst[0]:
                reports.append(f"{name}.{method_name}: {worst[0]:.3f} s at n={n} for {worst[1]}")
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="pieces in the longer run")
    parser.add_argument(
        "--ratio", type=float, default=8.0, help="growth (4x input) reported (linear: ~4)"
    )
    parser.add_argument("--only", default="", help="patterns whose name holds this text")
    args = parser.parse_args(argv)
    reports = audit(args.n, args.ratio, args.only)
    for line in reports:
        print(line)
    print(f"{len(patterns())} patterns, {len(reports)} reported")
    return 1 if reports else 0


if __name__ == "__main__":
    sys.exit(main())
