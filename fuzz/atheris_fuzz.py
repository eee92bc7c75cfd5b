#!/usr/bin/env python3
"""Coverage-guided fuzzing of the same target with atheris (optional: ``pip install atheris``).

The first byte of each input picks the reader (detection or one format, or the ruleset loader);
the rest is the file.  Seeds are written to a corpus directory on first use::

    python fuzz/atheris_fuzz.py fuzz/out/atheris-corpus -atheris_runs=100000
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_seeds
import fuzz_target

TARGETS: list[str | None] = [None, *fuzz_target.FORMATS, "ruleset"]


def test_one_input(data: bytes) -> None:
    """One atheris input: the target chosen by the first byte, the file from the rest."""
    if not data:
        return
    target = TARGETS[data[0] % len(TARGETS)]
    if target == "ruleset":
        fuzz_target.run_ruleset(data[1:])
    else:
        fuzz_target.run_input(data[1:], target)


def main() -> None:
    """Write the seed corpus if asked for a directory, then fuzz."""
    import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]

    corpus = next((Path(a) for a in sys.argv[1:] if not a.startswith("-")), None)
    if corpus is not None and not corpus.exists():
        corpus.mkdir(parents=True)
        for n, data in enumerate(fuzz_seeds.all_seeds().values()):
            for t in range(len(TARGETS)):
                (corpus / f"seed{n:04d}-{t:02d}").write_bytes(bytes([t]) + data)
    fuzz_target.warm_up()  # imports every reader, so that instrument_all reaches them
    atheris.instrument_all()
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
