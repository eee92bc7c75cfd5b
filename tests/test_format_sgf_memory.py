"""The memory an SGF file takes while it is read: a tree is kept whole while its lines are walked,
and docs/security.md promises about 500 bytes at most a node (a node takes three bytes of the
file at least; empty nodes in a sequence are not kept).  Trees of 64 kB (5,000 to 16,000 nodes)
prove the per-node bound: the peak, fixed costs and all, is checked against it, and the peak a
node stays the same from 32 kB to 256 kB."""

from __future__ import annotations

import io
import sys
import tracemalloc
from pathlib import Path

import pytest

from renju_cli.formats import ReadOptions, read_stream

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

import hostile

#: Bytes of memory a node of the tree may take while the file is read (its records too).
PER_NODE = 500


@pytest.mark.parametrize(
    "name",
    [
        "sgf-pass-nodes",  # (;SZ[15];B[];B[];B[]...
        "sgf-marked-pass-chain",
        "sgf-bad-move-nodes",  # ;B[zz]: every node says its problem
        "sgf-comment-chain",  # ;C[x]: comments joined once
        "sgf-siblings-with-swaps-cctsai",  # a line per node of a move and a swap
        "sgf-setup-chain",
    ],
)
def test_a_tree_takes_at_most_500_bytes_a_node(name: str) -> None:
    data = hostile.HOSTILE[name](64 << 10)
    list(read_stream(io.BufferedReader(io.BytesIO(data[:4096])), "warm", "sgf"))  # (imports)
    records = 0
    tracemalloc.start()
    try:
        sized = ReadOptions().for_file(len(data))  # (as a named file is read)
        for _ in read_stream(io.BufferedReader(io.BytesIO(data)), "hostile", "sgf", sized):
            records += 1  # (counted as they come, not kept: the tree is what stays)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    nodes = data.count(b";")
    assert records and nodes > 5_000
    assert peak < PER_NODE * nodes


def test_a_property_of_many_values_takes_no_memory_per_value_for_its_pattern() -> None:
    # (;GM[4]XX[][][]...: the patterns' repeats over a property's values are possessive; a
    # repeat that may backtrack kept ~300 bytes a value (39 MB at 256 kB)
    data = hostile.HOSTILE["sgf-empty-values"](256 << 10)
    tracemalloc.start()
    try:
        (record,) = read_stream(io.BufferedReader(io.BytesIO(data)), "hostile", "sgf")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [m.token for m in record.moves] == ["B[hh]"]
    assert peak < 12 << 20
