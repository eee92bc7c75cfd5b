"""The SGF reader's short ways give the records of its general one.

A node of plain properties is read in one match (``tokenizer._ONE_PROPERTY_NODE``,
``tokenizer._PLAIN_NODE``), a game of one line in one match with its moves made directly
(``reader._Collection._line_game``), and a node of one move is walked without a ``NodeInfo``
(``walk.PathWalk._one_move``); with none of them, every node goes through the byte loop of
``Parser.parse_node``, every tree through ``parse_tree`` and every node through ``node_info``.
Both ways must give equal records (every field, in the same order) for well-formed and malformed
input alike.
"""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renju_cli.formats import ReadOptions, sgf
from renju_cli.formats.sgf import reader, tokenizer, walk
from renju_cli.record import Record

OPTIONS = [
    ReadOptions(),
    ReadOptions(max_moves=0, max_records=2),
    ReadOptions(encoding="gbk", max_string=2),
    ReadOptions(board_size=19, moves_per_byte=0, moves_allowance=3),
]

SAMPLES = [
    b"(;B[hh])" * 5,
    b"(;B[hh])\n(;W[])\r\n(;B[tt])(;W[zz])(;B[a])(;W[hhh])(;B[ h h ])",
    b"(;b[hh])(;AddBlack[hh])(;B1[hh])(;B[hh]C[x])(;C[x])(;B[hh];W[ii])",
    b"(;B[hh]\n)(\n;B[hh] )(; B[hh])(;B [hh])(;B[hh][ii])(;B[hh]W[ii])",
    b"(;CA[gbk]C[\x81]]B[hh])(;B[hh]CA[shift_jis])(;CA[zlib])(;SZ[19]B[tt])(;SZ[27]B[hh])",
    b"(;B[hh\n(;W[ii])(;B[(;B[hh])(;B[hh]",
    b"(;B[hh](;W[ii])(;W[jj]))(;B[hh];;)(;;B[hh])(;B[hh]();)x(;B[hh]))(;B[hh])",
    b"(;C[a\\]b]B[hh])(;B[h\\h])(;B[\xc3\xa9])(;GM[1]RE[B+R]PB[x]B[hh])(;SW[Y]B[hh])",
    b"(;SZ[15]AB[aa:cc];B[hh];AE[aa];W[ii]5A[jj][kk])",
    b"(;PB[x]RU[rif];B[hh];W[ii])(;PB[ CA[GBK]PW[\x81]C[x];B[hh])(;CA[GBK]PB[\x81]];B[hh])",
]


def read(data: bytes, options: ReadOptions) -> list[Record]:
    return list(sgf.read(io.BytesIO(data), "mem.sgf", options))


def read_both(data: bytes, options: ReadOptions, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = read(data, options)
    with monkeypatch.context() as m:
        never = re.compile(rb"(?!)")
        m.setattr(tokenizer, "_ONE_PROPERTY_NODE", never)
        m.setattr(tokenizer, "_PLAIN_NODE", never)
        m.setattr(reader._Collection, "_line_game", lambda self: None)
        m.setattr(walk.PathWalk, "_one_move", lambda self, node, ctx, opts: False)
        slow = read(data, options)
    assert fast == slow
    assert [repr(r) for r in fast] == [repr(r) for r in slow]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("data", SAMPLES)
def test_shortcuts_give_the_general_records(
    data: bytes, options: ReadOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_both(data, options, monkeypatch)


PIECES = st.sampled_from(
    [b"(", b")", b";", b"B[hh]", b"W[ii]", b"B[]", b"[", b"]", b"\\", b"\n", b" ", b"C[x]",
     b"CA[gbk]", b"\x81", b"SZ[19]", b"b[tt]", b"AB[aa]", b"(;", b"GM[4]", b"x", b"PB[y]"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECES, max_size=40), st.sampled_from(OPTIONS))
def test_random_collections_give_the_general_records(
    pieces: list[bytes], options: ReadOptions
) -> None:
    # (a monkeypatch per example: hypothesis and function-scoped fixtures do not mix)
    with pytest.MonkeyPatch.context() as monkeypatch:
        read_both(b"".join(pieces), options, monkeypatch)
