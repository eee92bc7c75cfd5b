"""Messages quote a record's own text, decoded as the record was read (never as Latin-1)."""

from __future__ import annotations

import io

import pytest

from renju_cli.formats import ReadOptions, read_stream

#: ``选手`` (player) as UTF-8 bytes read as Latin-1: what a message must never show.
MOJIBAKE = "é\x80\x89æ\x89\x8b"


def _messages(data: bytes, path: str, fmt: str, encoding: str | None = None) -> list[str]:
    records = read_stream(io.BytesIO(data), path, fmt, ReadOptions(encoding=encoding))
    return [p.message for r in records for p in r.problems]


@pytest.mark.parametrize(
    ("fmt", "path", "text"),
    [
        ("notation", "a.txt", "h8 h9 选手 i10\n"),
        ("playok", "a.pgn", '[Event "x"]\n[Result "1-0"]\n\n1. h8 选手 2. i9 1-0\n'),
        ("jsonl", "a.jsonl", '{"moves": "h8 选手"}\n'),
        (
            "renjunet",
            "a.rif",
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<database><games><game id="1"><move>h8 选手</move></game></games></database>\n',
        ),
        ("diagram", "a.txt", "选手\n" + ". . .\n" * 2 + ". 选 .\n"),
    ],
)
def test_a_snippet_of_a_utf8_file_is_its_own_text(fmt: str, path: str, text: str) -> None:
    messages = _messages(text.encode("utf-8"), path, fmt)
    assert any("选" in m for m in messages), messages
    assert not any(MOJIBAKE[:2] in m for m in messages), messages


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "big5"])
def test_a_snippet_of_a_file_in_another_encoding_is_decoded_as_it_was_read(encoding: str) -> None:
    data = "h8 h9 選手 i10\n".encode(encoding)
    (message,) = _messages(data, "a.txt", "notation", encoding)
    assert "'選手'" in message
