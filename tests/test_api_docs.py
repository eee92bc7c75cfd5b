"""Every example of ``docs/api.md`` runs, and shows what it says."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "api.md"


def test_every_example_of_the_api_page_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # (the examples name files from the project's root)
    text = PAGE.read_text("utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    failures: list[str] = []

    class Runner(doctest.DocTestRunner):
        def report_failure(
            self, out: object, test: object, example: doctest.Example, got: str
        ) -> None:
            failures.append(
                f"line {example.lineno + 1}: {example.source}expected:\n{example.want}got:\n{got}"
            )

        def report_unexpected_exception(
            self, out: object, test: object, example: doctest.Example, exc_info: object
        ) -> None:
            failures.append(f"line {example.lineno + 1}: {example.source}raised {exc_info!r}")

    runner = Runner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda _: None)
    assert len(test.examples) >= 30
    assert not failures, "\n".join(failures)
