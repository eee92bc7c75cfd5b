"""What ``renju check`` of a move list imports at start-up.

A hostile file must be checked within 2 s, start-up included, and start-up is mostly imports:
those the run never uses (the process pool with logging, sockets and pickle, temporary files,
OpenSSL's hashes, the XML parser) are imported where they are used; this keeps them there.  Nothing
here is timed (``bench/bench_check.py`` measures start-up).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: Modules that only other options, outputs or formats need.
NOT_FOR_A_MOVE_LIST = (
    "multiprocessing",
    "concurrent.futures",
    "logging",
    "socket",
    "tempfile",
    "hashlib",
    "importlib.resources",
    "zipfile",
    "xml.etree.ElementTree",
    "pyexpat",
    "defusedxml",
)


def _imported(tmp_path: Path, *args: str) -> list[str]:
    """Which of ``NOT_FOR_A_MOVE_LIST`` a ``renju check`` of a one-record move list imports,
    in a fresh interpreter."""
    game = tmp_path / "one.txt"
    game.write_text("h8 h9\n")
    code = (
        "import sys\n"
        "from renju_cli.cli import main\n"
        "try:\n"
        f"    main(['check', {str(game)!r}, *{list(args)!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "import json\n"
        f"print(json.dumps(sorted(m for m in {NOT_FOR_A_MOVE_LIST!r} if m in sys.modules)))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    last: list[str] = json.loads(run.stdout.splitlines()[-1])  # (after the report's line)
    return last


def test_a_move_list_check_imports_none_of_what_it_does_not_use(tmp_path: Path) -> None:
    assert _imported(tmp_path, "--format", "jsonl") == []
    assert _imported(tmp_path, "--format", "text") == []


def test_analyze_does_not_import_the_process_pool() -> None:
    # (``analyze`` judges through ``batch.judge_one``: the batch module, not its pools)
    code = (
        "import sys\n"
        "import renju_cli\n"
        "renju_cli.analyze('h8 h9 i8')\n"
        "print([m for m in ('multiprocessing', 'concurrent.futures') if m in sys.modules])\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert run.stdout.strip() == "[]"
