#!/usr/bin/env python3
"""Hostile files of every format, and a bench that checks they stay cheap.

``HOSTILE`` maps a name to a generator ``(size) -> bytes`` of a file built to hurt one reader:
entity expansion, deep nesting, quadratic variation trees, huge numbers and strings, millions of
tiny records, unterminated constructs.  The tests use small sizes; this script writes each at
1 MB (``--size``) and runs it twice in a fresh process: reading only (``read_stream``), and the
whole ``renju check --format jsonl`` (stdout to /dev/null), reporting wall time and peak memory
(max RSS) against the bound (2 s and 200 MB by default)::

    python fuzz/hostile.py                 # all, 1 MB each
    python fuzz/hostile.py --size 262144 sgf-deep-nesting renlib-comb
    python fuzz/hostile.py --limit records=20000   # a run that bounds records per file

Exit code 1 when a file breaks a bound or the tool fails (exit code 3 or a traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

MB = 1 << 20


def _fill(unit: bytes, size: int, head: bytes = b"", tail: bytes = b"") -> bytes:
    count = max(0, (size - len(head) - len(tail)) // max(len(unit), 1))
    return head + unit * count + tail


def _renlib_comb(size: int) -> bytes:
    # a line whose every node has a sibling leaf: lines x depth moves from 2 bytes a node (kept
    # under the depth bound, which would stop it first)
    depth = max(2, min((size - 20) // 4, 4000))
    head = b"\xffRenLib\xff\x03\x00" + b"\xff" * 10
    line = b"".join(bytes([0x78, 0x80 | (0x40 if d == depth - 1 else 0)]) for d in range(depth))
    return head + line + bytes([0x79, 0x40]) * depth


def _sgf_comb(size: int) -> bytes:
    n = max(1, size // 16)
    return b"(;SZ[15]" + b";B[hh](;W[ii])(" * n + b")" * (n + 1)


def _distinct_records(size: int) -> bytes:
    # three-move records, no two alike (the memo of short records cannot help): 15x15 points
    names = [f"{c}{r}".encode() for c in "abcdefghijklmno" for r in range(1, 16)]
    out, i = bytearray(), 0
    while len(out) < size:
        a, b, c = i % 225, (i // 225) % 225, (i // 50625) % 225
        out += b"%s %s %s\n" % (names[a], names[(a + b + 1) % 225], names[(a + c + 2) % 225])
        i += 1
    return bytes(out[:size])


def _alternating_heads(
    size: int,
    heads: list[bytes],
    tail: int,
    line: Callable[[bytes, list[bytes]], bytes],
    same_tail: bool = False,
) -> bytes:
    # records alternating between two openings, then ``tail`` moves that differ from record
    # to record (or are the same: ``same_tail``), past what a protocol walk reads: records
    # that no memo serves (opening events, a declared id, a protocol of unbounded reach)
    # need a walk each; points as SGF letters ``line`` may rename
    used = {h[i : i + 2] for h in heads for i in range(len(h)) if h[i : i + 1] == b"["}
    free = [
        bytes([x, y]) for x in b"abcdefghijklmno" for y in b"abcdefghijklmno"
        if b"[" + bytes([x, y]) not in used
    ]  # fmt: skip
    out, i = bytearray(), 0
    while len(out) < size:
        if same_tail:
            points = free[:tail]
        else:
            k, points = i, []
            for _ in range(tail):
                points.append(free[k % len(free)])
                k //= len(free)
                k += len(points) * 7
        out += line(heads[i % 2], points)
        i += 1
    return bytes(out[:size])


def _sgf_tail(head: bytes, points: list[bytes]) -> bytes:
    first = b"B" if (head.count(b";") - 1) % 2 == 0 else b"W"  # (the root's ";" is no move)
    other = b"B" if first == b"W" else b"W"
    return (
        head
        + b"".join(
            b";" + (first if k % 2 == 0 else other) + b"[" + p + b"]" for k, p in enumerate(points)
        )
        + b")\n"
    )


def _notation_point(p: bytes) -> bytes:
    return bytes([p[0]]) + str(15 - (p[1] - 0x61)).encode()


def _spread(i: int, count: int, n: int = 225, base: int = 7) -> list[int]:
    # ``count`` distinct numbers below ``n`` that tell record ``i`` from its neighbours: the
    # counter's digits in ``base`` spread over them
    out: list[int] = []
    seen: set[int] = set()
    k, step = i, 1
    while len(out) < count:
        m = (k + step * 37) % n
        k //= base
        step += 1
        if m not in seen:
            seen.add(m)
            out.append(m)
    return out


def _distinct_lines(size: int, moves: int, line: Callable[[list[bytes]], bytes]) -> bytes:
    # records of ``moves`` distinct-ish moves each, no two alike (15x15 points, a counter's
    # digits spread over the moves); ``line`` writes one record in its format
    names = [f"{c}{r}".encode() for c in "abcdefghijklmno" for r in range(1, 16)]
    out, i = bytearray(), 0
    while len(out) < size:
        out += line([names[m] for m in _spread(i, moves)])
        i += 1
    return bytes(out[:size])


def _sgf_point(name: bytes) -> bytes:
    # "h8" -> "hh" (SGF letters, row 1 at the bottom of a 15x15 board)
    return name[:1] + bytes([ord("a") + 15 - int(name[1:])])


def _stripes(size: int, record: Callable[[random.Random], bytes]) -> bytes:
    # records on columns a, b, i, j of black stones (15x15), each with black moves of its own
    # at random empty points: every completion point of a three is a double-three again, down
    # the columns, and the double-three recursion judges tens of points per move until the
    # run's bound on double-three judgements stops it
    out, k = bytearray(), 0
    while len(out) < size:
        out += record(random.Random(k))
        k += 1
    return bytes(out[:size])


_STRIPE_COLUMNS = (0, 1, 8, 9)
_STRIPE_EMPTY = [(x, y) for x in range(15) for y in range(15) if x not in _STRIPE_COLUMNS]
#: 26x26: pairs of columns five apart (x mod 7 in {0, 1}): the most judgements per byte
_WIDE_COLUMNS = tuple(x for x in range(26) if x % 7 in (0, 1))
_WIDE_EMPTY = [(x, y) for x in range(26) for y in range(26) if x not in _WIDE_COLUMNS]


def _stripes_sgf(rng: random.Random, moves: int = 10, size: int = 15) -> bytes:
    columns, empty = (
        (_STRIPE_COLUMNS, _STRIPE_EMPTY) if size == 15 else (_WIDE_COLUMNS, _WIDE_EMPTY)
    )
    last = 96 + size
    setup = b"".join(b"[%ca:%c%c]" % (97 + x, 97 + x, last) for x in columns)
    points = rng.sample(empty, moves)
    return (
        b"(;SZ[%d]AB" % size
        + setup
        + b"".join(b";B[%c%c]" % (97 + x, 97 + y) for x, y in points)
        + b")\n"
    )


def _stripes_notation(rng: random.Random, moves: int = 10) -> bytes:
    # black builds the columns itself, white answering on a1 (occupied) each time
    stones = [(x, y) for x in _STRIPE_COLUMNS for y in range(15)]
    stones += rng.sample(_STRIPE_EMPTY, moves)
    return " ".join(f"{chr(97 + x)}{y + 1} a1" for x, y in stones).encode() + b"\n"


def _varied_sizes(size: int, sizes: list[bytes], moves: int) -> bytes:
    # short distinct games, each on the next of ``sizes`` (SGF ``SZ`` values): every size its
    # own geometry and tables (484 rectangles in turn)
    out, i = bytearray(), 0
    while len(out) < size:
        sz = sizes[i % len(sizes)]
        w = int(sz.split(b":")[0])
        h = int(sz.split(b":")[-1])
        k, nodes = i // len(sizes), []
        for m in range(moves):
            x, y = (k + 3 * m) % w, (k // w + 2 * m) % h
            nodes.append(b";%c[%c%c]" % (b"BW"[m % 2], 97 + x, 97 + y))
        out += b"(;SZ[%s]%s)\n" % (sz, b"".join(nodes))
        i += 1
    return bytes(out[:size])


_RECT_SIZES = [b"%d:%d" % (w, h) for w in range(5, 27) for h in range(5, 27)]
_SQUARE_SIZES = [b"%d" % n for n in range(5, 27)]


def _nested_variations_wide(size: int) -> bytes:
    # one tree, its root with thousands of variations, each of two moves and three nested
    # one-move variations: four lines a variation, no two alike
    names = [bytes([x, y]) for x in b"abcdefghijklmno" for y in b"abcdefghijklmno"]
    out, i = bytearray(b"(;SZ[15]"), 0
    while len(out) < size - 2:
        a, b = names[i % 225], names[(i // 225 + i + 1) % 225]
        leaves = [names[(i * 7 + 11 * j + 2) % 225] for j in range(3)]
        leaves = [p for p in leaves if p not in (a, b)] or [names[(i + 113) % 225]]
        out += b"(;B[%s];W[%s]%s)" % (a, b, b"".join(b"(;B[%s])" % p for p in leaves))
        i += 1
    return bytes(out[: size - 2]) + b")\n"


def _gomocup_distinct_short(size: int) -> bytes:
    # Gomocup openings of three to five stones, no two alike (every one its own record)
    out, i = bytearray(), 0
    while len(out) < size:
        stones = [b"%d,%d" % (m % 11 - 5, m // 11 - 5) for m in _spread(i, 3 + i % 3, 121, 5)]
        out += b", ".join(stones) + b"\n"
        i += 1
    return bytes(out[:size])


def _sgf_games_with_root(size: int, root: Callable[[int], bytes], moves: int = 3) -> bytes:
    # short distinct SGF games, each with the root ``root(i)``: a root of its own opening
    # events makes every game the parser's, and every game a walk
    names = [bytes([x, y]) for x in b"abcdefghijklmno" for y in b"abcdefghijklmno"]
    out, i = bytearray(), 0
    while len(out) < size:
        nodes = [b";%c[%s]" % (b"BW"[j % 2], names[m]) for j, m in enumerate(_spread(i, moves))]
        out += b"(;%s%s)\n" % (root(i), b"".join(nodes))
        i += 1
    return bytes(out[:size])


#: Shipped rulesets with an opening protocol, for files that name one per game in turn.
_PROTOCOL_RULES = [
    "renju-rif", "renju-swap", "sakata", "soosyrv-8", "super-sakata", "taraguchi-10",
    "tarannikov", "yamaguchi", "gomoku-swap-encyclopedia", "long-pro", "pro", "swap", "swap2",
    "cctsai", "jonsson", "karepa", "nadezhdin", "nokhrin", "taimla", "yamaguchi-52",
]  # fmt: skip


def _siblings_with_events(size: int, rule: bytes, leaf: bytes) -> bytes:
    # one tree naming a protocol, three stones, then sibling lines of their own, each saying
    # its own opening event (``leaf`` % (a, n, b)): a record and a walk a line, 40,960 lines
    names = [bytes([x, y]) for x in b"abcdefghijklmno" for y in b"abcdefghijklmno"]
    free = [p for p in names if p not in (b"hh", b"hi", b"ij")]
    out, i = bytearray(b"(;RU[%s];B[hh];W[hi];B[ij]" % rule), 0
    while True:
        a, b = free[i % len(free)], free[(i // len(free) + i + 1) % len(free)]
        if a == b:
            b = free[(i + 7) % len(free)]
        piece = leaf % (a, 1 + i % 4, b)
        if len(out) + len(piece) > size - 1:
            return bytes(out) + b")"
        out += piece
        i += 1


def _range_spellings() -> Iterator[bytes]:
    # distinct values of at most 16 bytes naming near-full ranges of a 26x26 board, blanks
    # around and inside (``_point`` strips them): 16 ranges, each spelled many ways
    cores = [bytes([a, b, 58, c, d]) for a in b"ab" for b in b"ab" for c in b"yz" for d in b"yz"]
    blanks = b" \t\r\x0b\x0c"

    def spellings(core: bytes) -> Iterator[bytes]:
        for n in range(12):
            for pad in itertools.product(blanks, repeat=n):
                for k in range(n + 1):
                    yield bytes(pad[:k]) + core + bytes(pad[k:])

    each = [spellings(c) for c in cores]
    while True:
        for g in each:
            yield next(g)


def _setup_memo_chain(size: int) -> bytes:
    # a game per board size (26x26 to 23x23), each a chain of 4,096 nodes ``;AB[range]`` of
    # distinct spellings: a memo of setups by spelling would hold 676 stones for each
    sizes = [b"26", b"26:25", b"25:26", b"25", b"26:24", b"24:26", b"25:24", b"24:25", b"24"]
    out = bytearray()
    for sz in sizes:
        values = _range_spellings()
        game = b"(;SZ[%s]%s)\n" % (sz, b"".join(b";AB[%s]" % next(values) for _ in range(4096)))
        if len(out) + len(game) > size:
            break
        out += game
    return bytes(out) + b"\n" * (size - len(out))


def _setup_distinct_ranges(size: int) -> bytes:
    # one chain of ``;AB[range]`` nodes, 2,304 distinct ranges of 169-676 points in turn: the path
    # takes 676 stones; every node's stones, made or remembered, would be 60 million
    letters = "abcdefghijklmnopqrstuvwxyz"
    ranges = [
        f"{letters[a]}{letters[b]}:{letters[c]}{letters[d]}".encode()
        for a, b in itertools.product(range(6), repeat=2)
        for c, d in itertools.product(range(18, 26), repeat=2)
    ]
    out, i = bytearray(b"(;SZ[26]"), 0
    while len(out) < size - 12:
        out += b";AB[%s]" % ranges[i % len(ranges)]
        i += 1
    return bytes(out) + b")"


def _xml_games(size: int, game: bytes) -> bytes:
    return _fill(game, size, b"<?xml version='1.0'?><database><games>", b"</games></database>")


_PLAYOK_SWAP2 = b'[Site "PlayOK"]\n[GameType "61,15"]\n\n'


def _super_sakata_decisions(size: int) -> bytes:
    # distinct 30-move games naming Super Sakata, each with a colour choice after stone 5 and
    # one near the end that no step explains: every walk follows the repeated branch (add two
    # stones, hand the choice back) its 12 rounds, three options a round, until the run's
    # bound on walk steps stops it
    rng = random.Random(3)
    points = [f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)]
    head = ["h8", "h9", "i9", "i10", "j11"]
    rest = [p for p in points if p not in head]
    out = bytearray()
    while len(out) < size:
        rng.shuffle(rest)
        tokens: list[str] = []
        for k, m in enumerate(head + rest[:25]):
            tokens.append(m)
            if k >= 4 and (k - 4) % 24 == 0:
                tokens.append("black")
        out += b'{"rules":"super-sakata","moves":"%s"}\n' % " ".join(tokens).encode()
    return bytes(out[:size])


def _random_wide_games(size: int) -> bytes:
    # random 600-move games on 26x26, points written without blanks: ever new line windows,
    # more than the judge's tables keep
    rng = random.Random(6)
    points = [f"{chr(97 + x)}{y + 1}" for x in range(26) for y in range(26)]
    out = bytearray()
    while len(out) < size:
        out += b'{"size":26,"moves":"%s"}\n' % "".join(rng.sample(points, 600)).encode()
    return bytes(out[:size])


HOSTILE: dict[str, Callable[[int], bytes]] = {
    # the double-three recursion on columns of black stones
    "sgf-stripes": lambda n: _stripes(n, _stripes_sgf),
    "sgf-stripes-20-moves": lambda n: _stripes(n, lambda r: _stripes_sgf(r, 20)),
    "sgf-stripes-26x26": lambda n: _stripes(n, lambda r: _stripes_sgf(r, 20, 26)),
    "notation-stripes": lambda n: _stripes(n, _stripes_notation),
    "notation-one-line": lambda n: _fill(b"h8", n),
    "notation-tiny-records": lambda n: _fill(b"a1\n", n),
    "notation-distinct-records": _distinct_records,
    "notation-garbage": lambda n: _fill(b"h8 \xff\xfe z99 ", n),
    "jsonl-deep-nesting": lambda n: _fill(b"[", n // 2, b'{"moves":"h8","x":') + b"]" * (n // 2),
    "jsonl-tiny-records": lambda n: _fill(b'{"moves":"h8"}\n', n),
    "jsonl-empty-objects": lambda n: _fill(b"{}\n", n),
    "jsonl-no-newline": lambda n: _fill(b" ", n, b'{"moves":"', b'"}'),
    "diagram-huge-board": lambda n: _fill(b"X" * 1000 + b"\n", n),
    "diagram-many": lambda n: _fill(b". . .\n. X .\n. . .\n\n", n),
    "diagram-one-row": lambda n: _fill(b"X.", n),
    "renjunet-billion-laughs": lambda n: (
        b'<?xml version="1.0"?><!DOCTYPE database [<!ENTITY a "aaaaaaaaaa">'
        + b"".join(b'<!ENTITY %c "%s">' % (c, (b"&%c;" % (c - 1)) * 10) for c in b"bcdefghij")
        + b"]><database><games><game><move>&j;</move></game></games></database>"
    ),
    "renjunet-external-entity": lambda n: (
        b'<?xml version="1.0"?><!DOCTYPE database [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<database><games><game><info>&x;</info></game></games></database>"
    ),
    "renjunet-deep-nesting": lambda n: _fill(b"<a>", n // 2, b"<database><games><game>"),
    "renjunet-tiny-games": lambda n: _xml_games(n, b"<game/>"),
    "renjunet-long-move": lambda n: _xml_games(
        n, b"<game><move>" + b"h8 " * 1000 + b"</move></game>"
    ),
    "renjunet-huge-attribute": lambda n: (
        b'<database><games><game id="' + b"9" * n + b'"><move>h8</move></game></games></database>'
    ),
    # the <database> attributes are copied into every game's metadata: their text counts
    # against the file's move budget
    "renjunet-repeated-metadata": lambda n: (
        b'<database version="'
        + b"v" * (n * 2 // 5)
        + b'" date="'
        + b"d" * (n * 2 // 5)
        + b'"><games>'
        + b"<game/>" * max(1, n // 5 // 7)
        + b"</games></database>"
    ),
    "renlib-comb": _renlib_comb,
    "renlib-deep-line": lambda n: _fill(b"\x78\x00", n, b"\xffRenLib\xff\x03\x00" + b"\xff" * 10),
    "renlib-endless-comment": lambda n: _fill(
        b"ab", n, b"\xffRenLib\xff\x03\x00" + b"\xff" * 10 + b"\x78\x08"
    ),
    "sgf-deep-nesting": lambda n: _fill(b"(;B[hh]", n),
    "sgf-comb": _sgf_comb,
    "sgf-comb-bad-leaves": lambda n: _bad_leaves_comb(n),
    "sgf-tiny-games": lambda n: _fill(b"(;B[hh])", n),
    # problems of the root node repeat in every line of the tree (found by fuzz/mutate.py)
    "sgf-problems-in-every-line": lambda n: (
        b"(;SZ[15]" + b"! " * (n // 4) + b"(;B[hh])" * max(1, n // 16) + b")"
    ),
    "sgf-empty-trees": lambda n: _fill(b"()", n),
    # a root comment of half the file, repeated in every line of the tree (its metadata): the
    # text of a line counts against the file's move budget
    "sgf-comment-in-every-line": lambda n: (
        b"(;SZ[15]C[" + b"x" * (n // 2) + b"]" + b"(;B[hh])" * max(1, n // 16) + b")"
    ),
    # a sequence of a million empty nodes (none is kept), of moves off the board (the line
    # stops at the first; the nodes stay), and of empty variations (a line each)
    "sgf-empty-nodes": lambda n: _fill(b";", n, b"(;SZ[15]", b")"),
    "sgf-bad-move-nodes": lambda n: _fill(b";B[zz]", n, b"(;SZ[15]", b")"),
    "sgf-empty-variations": lambda n: _fill(b"(;)", n, b"(;SZ[15]", b")"),
    # a node every three or four bytes, each with a problem or a pass: the tree is kept whole
    "sgf-valueless-properties": lambda n: _fill(b";AB", n, b"(;SZ[15]", b")"),
    "sgf-pass-nodes": lambda n: _fill(b";B[]", n, b"(;SZ[15]", b")"),
    # a node of junk on every line: a problem each, none alike (the most memory per byte)
    # a compressed point list: 9 bytes, 676 setup stones (counted against the move budget)
    "sgf-setup-ranges": lambda n: _fill(b"(;SZ[26]AB[aa:zz]C[xxxxxxxxxxxx])", n),
    # a line of setup nodes, each the whole board: the path's setup is cut at the board's
    # points, or it would hold every node's stones
    "sgf-setup-chain": lambda n: _fill(b";AB[aa:zz]", n, b"(;GM[4]SZ[26]", b")"),
    "sgf-setup-chain-black-white": lambda n: _fill(b";AB[aa:zz]AW[aa:zz]", n, b"(;SZ[26]", b")"),
    "jsonl-super-sakata-decisions": _super_sakata_decisions,
    "jsonl-random-26x26-games": _random_wide_games,
    "sgf-junk-nodes": lambda n: _fill(b";!\n", n, b"(;SZ[15]", b")"),
    "sgf-unterminated-value": lambda n: _fill(b"x", n, b"(;C["),
    "sgf-many-properties": lambda n: _fill(b"AB[aa]", n, b"(;SZ[26]", b")"),
    # a new charset named in every game: Python tries to import a codec module for each name
    # it is asked, and remembers every name for the life of the process
    "sgf-distinct-charsets": lambda n: b"".join(
        b"(;CA[cp%d]C[\xe9];B[hh])" % i for i in range(n // 24)
    ),
    # one property of half a million values: a repeated group that could backtrack keeps
    # state for every turn
    "sgf-empty-values": lambda n: _fill(b"[]", n, b"(;GM[4]XX", b";B[hh])"),
    "sgf-empty-move-values": lambda n: _fill(b"[] ", n, b"(;GM[4];B", b")"),
    "psq-many-moves": lambda n: _fill(b"1,1,0\n", n, b"Piskvorky 20x20, 11:11, 0\n"),
    "psq-huge-numbers": lambda n: _fill(b"999999,999999,999999999999\n", n, b"Piskvorky 26x26\n"),
    # one line of digits after the moves, ending in a letter: a pattern with two stars around
    # a digit would backtrack over it (found by fuzz/mutate.py)
    "psq-long-digit-line": lambda n: _fill(b"9", n, b"Piskvorky 20x20\n1,1\n2,2\n-", b"x\n"),
    "gomocup-one-line": lambda n: _fill(b"0,0,", n),
    "gomocup-many-lines": lambda n: _fill(b"0,0\n", n),
    # a chain of passes (4 bytes a node) before two variations: a walk of the branched tree
    # that kept a mark of its state before every node would keep counts past 256 (an int
    # object each) from a root of many setup stones, events, notes and comments
    "sgf-marked-pass-chain": lambda n: _fill(
        b";B[]",
        n,
        b"(;GM[4]SZ[26]AB[aa:zz]FA["
        + b"".join(bytes([97 + i % 26, 97 + i // 26]) for i in range(300))
        + b"]SW"
        + b"[1]" * 300
        + b"SW"
        + b"[x]" * 300
        + b"FA"
        + b"[!]" * 300
        + b";C[x]" * 300
        + b";B[]"
        + b";C[y]" * 300,
        b"(;W[aa])(;W[ab]))",
    ),
    "sgf-pass-chain-then-variations": lambda n: _fill(
        b";B[]", n, b"(;SZ[26]AB[aa:zz]", b"(;W[aa])(;W[ab]))"
    ),
    # setup values that each name hundreds of stones, spelled anew in every node
    "sgf-setup-memo-chain": _setup_memo_chain,
    "sgf-setup-distinct-ranges": _setup_distinct_ranges,
    # opening events at each short game's root, or in each line of a tree
    "sgf-rif-sw-distinct": lambda n: _sgf_games_with_root(n, lambda i: b"RU[rif]SW[1]"),
    "sgf-protocol-cycle-sw": lambda n: _sgf_games_with_root(
        n,
        lambda i: b"RU[%s]SW[%d]" % (_PROTOCOL_RULES[i % len(_PROTOCOL_RULES)].encode(), 1 + i % 3),
    ),
    "sgf-siblings-with-swaps-cctsai": lambda n: _siblings_with_events(
        n, b"cctsai", b"(;W[%s]SW[%d];B[%s])"
    ),
    "sgf-siblings-with-offers-cctsai": lambda n: _siblings_with_events(
        n, b"cctsai", b"(;W[%s]SW[%d]FA[%s])"
    ),
    # floods of short records that each cost more than a flood of one kind
    "sgf-rect-sizes": lambda n: _varied_sizes(n, _RECT_SIZES, 3),
    "sgf-sz-varied-games": lambda n: _varied_sizes(n, _SQUARE_SIZES, 6),
    "sgf-nested-variations-wide": _nested_variations_wide,
    "gomocup-distinct-short": _gomocup_distinct_short,
    "playok-many-tags": lambda n: _fill(b'[Site "PlayOK"]\n', n),
    # one tag value of 1 MB, of letters or of escaped quotes: a repeated group of the tag's
    # pattern that could backtrack would keep about 180 bytes a character
    "playok-huge-tag-value": lambda n: _fill(
        b"x", n, b'[Site "PlayOK"]\n[Black "', b'"]\n\n1. h8 h9 1-0\n'
    ),
    "playok-huge-escaped-tag-value": lambda n: _fill(
        b'\\"', n, b'[Site "PlayOK"]\n[Black "', b'"]\n\n1. h8 h9 1-0\n'
    ),
    "playok-open-comment": lambda n: _fill(b"x ", n, b'[Site "PlayOK"]\n\n1. h8 {'),
    # a comment after a move, 200,000 times: appending each to the text so far is quadratic
    "playok-comments": lambda n: _fill(
        b"{x} ", n, b'[Site "PlayOK"]\n[GameType "61,15"]\n\n1. h8 '
    ),
    "playok-tiny-games": lambda n: _fill(b"1-0 ", n, b'[Site "PlayOK"]\n'),
    "pos-oversized": lambda n: _fill(b"\x70", n, b"\xe1"),
    # records just past the memo of short records (9 moves), none alike, in each line format
    "notation-nine-moves": lambda n: _distinct_lines(n, 9, lambda p: b" ".join(p) + b"\n"),
    # found by fuzz/mutate.py: a root of damaged properties, naming a protocol, with setup
    # stones, then siblings of a stray ']' each: every line repeats the tree's problems,
    # 40,960 lines of seven findings each
    "sgf-damaged-root-siblings": lambda n: _fill(
        b"(;])",
        n,
        b"(;FF[4]GM[4]CA[UTF-8]SZ\x1b15]PB[A\\]b]PW[B]RE[B+Resign]RU[RIF]SW[N]5A[jj][kk]"
        b"AB[aa:bb]C[root]\n;B[hh]C[first];W[hi];B[ii](;W[gg];B[jj])",
        b")",
    ),
    # records of 10 moves (past the memo of short records) all on one point: a finding each
    # move after the first (``occupied``): 35,000 records and 315,000 findings, past the
    # run's bound on findings listed
    # one damaged line, 40,000 times: each parse error names its line, so a memo of short
    # records by their text would miss and replay every copy
    "notation-damaged-identical-lines": lambda n: _fill(b"h8 h9 i10 i11 j12\xff\n", n),
    "notation-occupied-every-move": lambda n: _distinct_lines(
        n, 1, lambda p: b" ".join(p * 10) + b"\n"
    ),
    "jsonl-distinct-records": lambda n: _distinct_lines(
        n, 3, lambda p: b'{"moves":"' + b" ".join(p) + b'"}\n'
    ),
    "renjunet-distinct-games": lambda n: (
        b"<?xml version='1.0'?><database><games>"
        + _distinct_lines(n - 64, 5, lambda p: b"<game><move>" + b" ".join(p) + b"</move></game>")
        + b"</games></database>"
    ),
    "sgf-distinct-games": lambda n: _distinct_lines(
        n,
        3,
        lambda p: (
            b"(;"
            + b";".join(
                b"BW"[i % 2 : i % 2 + 1] + b"[" + _sgf_point(x) + b"]" for i, x in enumerate(p)
            )
            + b")"
        ),
    ),
    # the same, each record naming an opening protocol itself (no option needed): the walk
    # of a protocol costs more than the rest of a short record, and distinct records share none
    "sgf-distinct-games-rif": lambda n: _distinct_lines(
        n,
        3,
        lambda p: (
            b"(;RU[renju-rif];"
            + b";".join(
                b"BW"[i % 2 : i % 2 + 1] + b"[" + _sgf_point(x) + b"]" for i, x in enumerate(p)
            )
            + b")"
        ),
    ),
    "jsonl-distinct-records-taraguchi": lambda n: _distinct_lines(
        n, 3, lambda p: b'{"rules":"taraguchi-10","moves":"' + b" ".join(p) + b'"}\n'
    ),
    "renjunet-distinct-games-rif": lambda n: (
        b"<?xml version='1.0'?><database><rules><rule id='1' name='RIF'/></rules><games>"
        + _distinct_lines(
            n - 128, 3, lambda p: b"<game rule='1'><move>" + b" ".join(p) + b"</move></game>"
        )
        + b"</games></database>"
    ),
    "playok-distinct-games-swap2": lambda n: _distinct_lines(
        n,
        4,
        lambda p: (
            b'[Site "PlayOK"]\n[GameType "61,15"]\n\n1. '
            + b" ".join(p[:2])
            + b" 2. "
            + b" ".join(p[2:])
            + b" 1-0\n\n"
        ),
    ),
    # records no memo serves, alternating two openings (a walk each)
    "sgf-declared-id-alternating": lambda n: _alternating_heads(
        n,
        [
            b"(;RU[taraguchi-10]ON[D3];B[hh];W[hi];B[ij];W[gj];B[ik];W[jk];B[gg];W[ff]",
            b"(;RU[taraguchi-10]ON[D3];B[hh];W[ih];B[jj];W[jg];B[ki];W[kj];B[gg];W[ll]",
        ],
        2,
        _sgf_tail,
    ),
    "sgf-unbounded-reach-alternating": lambda n: _alternating_heads(
        n,
        [
            b"(;RU[super-sakata];B[hh];W[hi];B[ij];W[gj];B[ik];W[jk]",
            b"(;RU[super-sakata];B[hh];W[ih];B[jj];W[jg];B[ki];W[kj]",
        ],
        3,
        _sgf_tail,
        same_tail=True,
    ),
    "jsonl-events-alternating": lambda n: _alternating_heads(
        n,
        [b"h8 h9 i10 swap i7 {j10 g10} j10 k7", b"h8 i8 j9 swap g8 {j7 j10} j7 k5"],
        2,
        lambda head, points: (
            b'{"rules":"renju-rif","moves":"'
            + head
            + b" "
            + b" ".join(_notation_point(p) for p in points)
            + b'"}\n'
        ),
    ),
    "notation-events-alternating": lambda n: _alternating_heads(
        n,
        [b"h8 h9 i10 swap i7 {j10 g10} j10 k7", b"h8 i8 j9 swap g8 {j7 j10} j7 k5"],
        2,
        lambda head, points: head + b" " + b" ".join(_notation_point(p) for p in points) + b"\n",
    ),
    "playok-distinct-games": lambda n: _distinct_lines(
        n,
        4,
        lambda p: (
            b'[Site "PlayOK"]\n\n1. '
            + p[0]
            + b" "
            + p[1]
            + b" 2. "
            + p[2]
            + b" "
            + p[3]
            + b" 1-0\n\n"
        ),
    ),
    # one move, then many siblings of one move each: as many two-move lines as bytes / 8
    "sgf-many-siblings": lambda n: _fill(b"(;W[aa])", n, b"(;SZ[15];B[hh]", b")"),
    # a root with many leaf children, each with a comment of its own (memory per leaf)
    "sgf-commented-siblings": lambda n: _fill(
        b"(;W[aa]C[" + b"c" * 100 + b"])", n, b"(;B[hh]", b")"
    ),
    # RenLib: comments on no-move nodes before many leaves (the line's metadata, every line)
    "renlib-comments-in-every-line": lambda n: (
        b"\xffRenLib\xff\x03\x00"
        + b"\xff" * 10
        + b"\x78\x00"
        + (b"\x00\x0a" + b"x" * 200 + b"\x00\x00") * max(1, n // 408)
        + b"\x79\xc0" * max(1, n // 4)
        + b"\x79\x40"
    ),
    # RenLib: one move, then siblings of one move each (flag 0x80: a next sibling; 0x40: a leaf)
    "renlib-wide": lambda n: _fill(
        b"\x79\xc0", n, b"\xffRenLib\xff\x03\x00" + b"\xff" * 10 + b"\x78\x00", b"\x79\x40"
    ),
    # JSON Lines records carrying big metadata (copied into every report)
    "jsonl-big-metadata": lambda n: _fill(
        b'{"moves":"h8","metadata":{' + b",".join(b'"k%d":"v"' % i for i in range(100)) + b"}}\n",
        n,
    ),
    # a long game replayed in full, many times over, nothing alike beyond the memo
    "notation-long-games": lambda n: _distinct_lines(n, 200, lambda p: b" ".join(p) + b"\n"),
    "binary-noise": lambda n: bytes((i * 7919 + 13) % 256 for i in range(n)),
    # one move list continued line after line ("2. h9" ...): a single record that never ends
    "notation-continued-record": lambda n: _fill(b"2. h9\n", n, b"1. h8\n"),
    # text recoded as it is read: UTF-16 with a byte order mark, classic Mac line ends
    "notation-utf16": lambda n: _fill("h8 h9 i10\r\n".encode("utf-16-le"), n, b"\xff\xfe"),
    "notation-cr-lines": lambda n: _fill(b"h8 h9 i10\r", n),
    # whole boards played out, in 2x2 blocks of each colour: a five early, then a foul after
    # the end at nearly every black move (each one judged, its stones named, for a message
    # the record's cap on findings mostly drops)
    "notation-full-boards": lambda n: _fill(_full_board(15) + b"\n", n),
    # a move followed by comment nodes only: joining each comment onto the move's at once
    # copies it whole every time (quadratic)
    "sgf-comment-chain": lambda n: _fill(b";C[x]", n, b"(;GM[4];B[hh]", b")"),
    # the same before two variations: a mark at every node would keep the longer text
    "sgf-comment-chain-variations": lambda n: _fill(
        b";C[x]", n, b"(;GM[4];B[hh]", b"(;W[aa])(;W[bb]))"
    ),
    "jsonl-full-26x26-boards": lambda n: _fill(b'{"moves":"%s","size":26}\n' % _full_board(26), n),
    # -- opening events, notes, dense positions --
    # games whose </game> is missing: each is one unreadable record, the next game is read
    "renjunet-unclosed-games": lambda n: _xml_games(n, b"<game><move>h8 h9 i10</move>"),
    # an XML syntax error in every game, or in every other one: each a resync (a fresh parser
    # and a scan after the error, twice a record); at most 4096 + one per 256 bytes
    "renjunet-damaged-every-game": lambda n: _xml_games(n, b"<game>&</game>\n"),
    "renjunet-damaged-every-other-game": lambda n: _xml_games(
        n,
        b"<game><move>h8 h9 i10</move></game>\n"
        b"<game><info>Smith & Jones</info><move>h8 h9</move></game>\n",
    ),
    # a CDATA section, comment or processing instruction opened in every game and never closed
    # (after an error, or not): expat reads each to the end of the file, a quadratic read
    # unless the end of the file is looked at once
    "renjunet-never-closed-cdata": lambda n: _xml_games(
        n, b"<game><info>& <![CDATA[</info></game>\n"
    ),
    "renjunet-never-closed-comment": lambda n: _xml_games(n, b"<game><info><!--</info></game>\n"),
    "renjunet-never-closed-pi": lambda n: _xml_games(n, b"<game><info><?x y</info></game>\n"),
    # one game's swap flags / fifth-move offers a megabyte long (a million opening events)
    "renjunet-swap-attribute": lambda n: _xml_game_attribute(n, b"swap", b"s-"),
    "renjunet-alt-attribute": lambda n: _xml_game_attribute(n, b"alt", b"a1 "),
    # opening events at a tree's root, redone for every line below it
    "sgf-offers-before-siblings": lambda n: _sgf_root_events(n, b"FA[", b"aa", b"]"),
    "sgf-swaps-before-siblings": lambda n: _sgf_root_events(n, b"SW", b"[]", b""),
    # one record: a relocation / a rejection / an offer a few bytes each, hundreds of thousands
    "notation-relocations": lambda n: _fill(b"a1-b2 ", n, b"h8 "),
    "notation-rejections": lambda n: _fill(b"reject ", n, b"h8 h9 i10 "),
    "notation-one-big-offer": lambda n: _fill(b"a1 ", n, b"h8 h9 i10 i11 {", b"}"),
    # PlayOK: a colour choice and an empty slot, again and again after move 1; a note a line
    "playok-choices": lambda n: _fill(b"black -- ", n, _PLAYOK_SWAP2 + b"1. h8 ", b"1-0\n"),
    "playok-empty-slots": lambda n: _fill(b"-- ", n, _PLAYOK_SWAP2 + b"1. h8 h9 i10 ", b"1-0\n"),
    "playok-bad-bytes": lambda n: _fill(b"\xff\n", n, _PLAYOK_SWAP2 + b"1. h8 h9 "),
    "jsonl-offers-26x26": lambda n: _fill(_offers_26x26(), n),
    # many games, each just under the per-game caps on opening events (4,096 swap flags,
    # 676 offers): what bounds them is a budget for the whole file
    "renjunet-swaps-every-game": lambda n: _xml_games_with(n, b"swap", b"s-" * 2040),
    "renjunet-alts-every-game": lambda n: _xml_games_with(
        n, b"alt", b" ".join(f"{chr(97 + x)}{y + 1}".encode() for x in range(15) for y in range(15))
    ),
    "jsonl-offers-every-game": lambda n: _fill(_offers_15x15(), n),
    "jsonl-swaps-every-game": lambda n: _fill(
        b'{"moves": "h8 h9 i10 i11 j12", "swaps": "' + b"s-" * 2040 + b'"}\n', n
    ),
    # the same, each game's flags another (no game shares the events of the one before)
    "jsonl-distinct-swaps": lambda n: _numbered_pieces(
        n, lambda k: b'{"moves": "h8 h9 i10 i11 j12", "swaps": "%s"}\n' % _flags(k)
    ),
    "renjunet-distinct-swaps": lambda n: _numbered_pieces(
        n,
        lambda k: b"<game rule='1' swap='%s'><move>h8 h9 i10 i11 j12</move></game>\n" % _flags(k),
        b"<?xml version='1.0'?><database><rules><rule id='1' name='RIF'/></rules><games>",
        b"</games></database>",
    ),
    # Super Sakata's repeated branch (add two stones and hand the choice back) with a swap at
    # no place, which a further round could always explain: every line, every game walks it
    "sgf-repeated-branch-comb": lambda n: _repeated_branch_comb(n),
    "jsonl-repeated-branch-games": lambda n: _fill(
        b'{"rule": "super-sakata", "swaps": "s", "moves": "%s"}\n' % _packed_stones(), n
    ),
    "notation-swaps-every-game": lambda n: _fill(
        b"h8 h9 i10 " + b"swap noswap " * min(2040, n // 48) + b"\n", n
    ),
    # 26x26 positions of full black rows with empty rows between: the recursive judgement
    "sgf-dense-26x26": lambda n: _fill(_dense_26x26(), n),
    # a 4,000-move line with one-move siblings: every line is a whole game
    "sgf-long-comb": lambda n: _fill(b"(;B[aa])", n, _long_line(), b")"),
    # patterns matched whole against a line, with blanks at both ends around an optional
    # part, would backtrack over a line of blanks (quadratic)
    "psq-header-trailing-spaces": lambda n: _fill(b" ", n - 2, b"Piskvorky 20x20", b"y\n"),
    "psq-header-rest-spaces": lambda n: _fill(b" ", n - 2, b"Piskvorky 20x20, 0", b"0\n"),
    "gomocup-trailing-spaces": lambda n: _fill(b" ", n - 2, b"0,0\n1,1\n0,1\n2,2\n0,0", b"x\n"),
    # the same in lines of 16 kB, no two alike (identical lines are matched once)
    "gomocup-trailing-spaces-distinct": lambda n: _numbered_pieces(
        n, lambda k: b"0,0" + b" " * (16000 + k) + b"x\n", b"0,0\n1,1\n0,1\n"
    ),
    "playok-indented-line-in-tags": lambda n: _fill(b" ", n - 2, b'[Site "PlayOK"]\n', b"1\n"),
    "playok-broken-tag-trailing-spaces": lambda n: _fill(
        b" ", n - 2, b'[Site "PlayOK"]\nEvent "x"', b"y\n"
    ),
    # a value left open on every line: a search for its "]" to the end of the file on every
    # line would be quadratic (some files end with a "]")
    "sgf-unterminated-move-every-line": lambda n: _fill(b"(;B[hh\n", n),
    "sgf-unterminated-move-every-line-crlf": lambda n: _fill(b"(;W[ii\r\n", n),
    "sgf-unterminated-value-every-line": lambda n: _fill(b"(;C[x\n", n),
    "sgf-unterminated-escapes-every-line": lambda n: _fill(b"(;C[\\x\n", n),
    "sgf-unterminated-then-close-at-end": lambda n: _fill(b"(;B[hh\n", n - 2, b"", b"]\n"),
    "sgf-unterminated-escaped-moves-then-close": lambda n: _fill(b"(;B[\\]\n", n - 2, b"", b"]\n"),
    "sgf-unterminated-dbcs-then-close": lambda n: _fill(
        b"(;B[\x81\n", n - 2, b"(;CA[gbk]C[x])", b"]\n"
    ),
    # identical short records with opening events
    "notation-declare-lines": lambda n: _fill(b"h8 h9 i10 N=999 N=10 N=5 i11 j12\n", n),
    "notation-swap-lines-identical": lambda n: _fill(b"h8 h9 i10 swap i11\n", n),
    "jsonl-declare-identical": lambda n: _fill(b'{"moves":"h8 h9 i10 N=2 i11"}\n', n),
    # result words after a move list, and after 4,096 declared counts: taking each out of
    # the events one by one would be quadratic
    "notation-many-results": lambda n: _fill(b"1-0 ", n, b"h8 ", b"\n"),
    "notation-declares-then-results": lambda n: _fill(b"1-0 ", n, b"h8 " + b"N=2 " * 4096, b"\n"),
    # damaged lines between a diagram's rows: holding and wording every one, not only those
    # listed, would grow with the file
    "diagram-bad-bytes-between-rows": lambda n: _fill(
        b"\xff\n", n, b"X . X . X\n" * 5, b"X . X . X\n"
    ),
    # tags after the blank line that ends a game's tags: scanning all before each is quadratic
    "playok-tags-after-blank": lambda n: _fill(_playok_late_tags(), n, b'[Site "PlayOK"]\n'),
    # values left open on every line, one game far below: reading each down to it is
    # quadratic
    "sgf-unterminated-lines-then-game": lambda n: _fill(b"(;C[x\n", n, b"", b"(;GM[4];B[hh])\n"),
    # the same, lines of a comment and of a move (the two cuts) in turn: one memo of either
    # took the other's over (15 s at 256 kB)
    "sgf-unterminated-mixed-then-game": lambda n: _fill(
        b"(;C[x\n(;B[x\n", n, b"", b"(;GM[4]FF[4]SZ[15];B[hh])\n"
    ),
    "sgf-unterminated-escaped-then-game": lambda n: _fill(
        b"(;C[a\\]b\n", n, b"", b"(;GM[4];B[hh])\n"
    ),
    # a comb under a root of half a megabyte of PL, RE or a bad move, or GN with game info in
    # every leaf: reading, copying or quoting the root's long value again for every line
    # would be quadratic
    "sgf-long-pl-comb": lambda n: _sgf_long_root_comb(n, b"PL[", b"b"),
    "sgf-long-re-comb": lambda n: _sgf_long_root_comb(n, b"RE[B+", b"x"),
    "sgf-long-bad-move-comb": lambda n: _sgf_long_root_comb(n, b";B[hh];W[", b"x"),
    # JSON nested just under what the decoder took, whose message the encoder wrote a few
    # frames deeper: exit 3 and the rest of the file lost
    "jsonl-deep-window": lambda n: _fill(
        b'{"moves":"h8 h9 i10"}\n',
        n,
        b"".join(b'{"moves":"h8","size":' + b"[" * d + b"]" * d + b"}\n" for d in range(900, 1000)),
    ),
    "sgf-long-gn-info-leaves": lambda n: _fill(
        b"(;W[aa]PB[x])", n, b"(;SZ[15]GN[" + "\u00e9t\u00e9 ".encode() * 8192 + b"];B[hh]", b")"
    ),
}


def _playok_late_tags() -> bytes:
    alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789"
    keys = [bytes([alphabet[i // 36], alphabet[i % 36]]) for i in range(1024)]
    return b"[" + keys[0] + b' ""]\n\n' + b"".join(b'[%s""]' % k for k in keys[1:]) + b"\n*\n\n"


def _sgf_long_root_comb(size: int, opening: bytes, unit: bytes) -> bytes:
    head = b"(;SZ[15]" + opening + unit * (size // 2) + b"]"
    if not opening.startswith(b";"):
        head += b";B[hh]"
    return head + b"(;W[aa])" * max(0, (size - len(head) - 1) // 8) + b")"


def _xml_game_attribute(size: int, name: bytes, unit: bytes) -> bytes:
    head = b"<?xml version='1.0'?><database><rules><rule id='1' name='RIF'/></rules><games>"
    head += b"<game rule='1' " + name + b"='"
    tail = b"'><move>h8 h9 i10 i11 j12</move></game></games></database>"
    return _fill(unit, size, head, tail)


def _flags(k: int) -> bytes:
    """4,080 swap flags, the ``k``-th (modulo) of them another than in the others."""
    flags = bytearray(b"s-" * 2040)
    flags[k % len(flags)] = ord("s") if flags[k % len(flags)] == ord("-") else ord("-")
    return bytes(flags)


def _comb_points() -> tuple[list[bytes], list[bytes]]:
    # SGF points of a 26x26 board: five opening stones and 200 more on even points; the
    # odd points for the leaves of a comb
    def point(x: int, y: int) -> bytes:
        return bytes([97 + x, 97 + y])

    first = [(13, 13), (13, 12), (14, 11), (12, 15), (16, 16)]
    rest = [(x, y) for y in range(0, 26, 2) for x in range(0, 26, 2) if (x, y) not in first]
    leaves = [(x, y) for y in range(1, 26, 2) for x in range(1, 26, 2)]
    return [point(*p) for p in (first + rest)[:205]], [point(*p) for p in leaves]


def _bad_leaves_comb(size: int) -> bytes:
    # a trunk of 205 stones, then one-node variations of a bad move, each on its own line: each
    # line says a problem of its own (its line): replaying each line from its start would
    # judge the trunk again for every line
    stones, _ = _comb_points()
    trunk = b"".join(b";%c[%s]" % (b"BW"[i % 2], p) for i, p in enumerate(stones))
    head = b"(;GM[4]SZ[26]" + trunk
    return head + b"(;W[a])\n" * max(0, (size - len(head) - 1) // 8) + b")"


def _repeated_branch_comb(size: int) -> bytes:
    stones, leaves = _comb_points()
    trunk = b"".join(b";%c[%s]" % (b"BW"[i % 2], p) for i, p in enumerate(stones))
    head = b"(;GM[4]SZ[26]RU[super-sakata]" + trunk + b"SW[Y]"
    out, k = [head], 0
    room = size - len(head) - 1
    while room >= 8:
        out.append(b"(;W[%s])" % leaves[k % len(leaves)])
        room -= 8
        k += 1
    return b"".join(out) + b")"


def _packed_stones() -> bytes:
    # 205 stones of a 26x26 board written as a 15x15 move list can hold them: rows 1-15
    stones = [f"{chr(97 + x)}{y + 1}" for y in range(15) for x in range(15)]
    order = ["h8", "h9", "i10", "i7", "j10"]
    return " ".join(order + [p for p in stones if p not in order][:200]).encode()


def _numbered_pieces(
    size: int, line: Callable[[int], bytes], head: bytes = b"", tail: bytes = b""
) -> bytes:
    out, k, room = [head], 0, size - len(head) - len(tail)
    while True:
        piece = line(k)
        if len(piece) > room:
            break
        out.append(piece)
        room -= len(piece)
        k += 1
    return b"".join(out) + tail


def _xml_games_with(size: int, name: bytes, value: bytes) -> bytes:
    head = b"<?xml version='1.0'?><database><rules><rule id='1' name='RIF'/></rules><games>"
    game = b"<game rule='1' " + name + b"='" + value + b"'><move>h8 h9 i10 i11 j12</move></game>"
    return _fill(game, size, head, b"</games></database>")


def _offers_15x15() -> bytes:
    points = [f"{chr(97 + x)}{y + 1}" for x in range(15) for y in range(15)]
    stones = ["h8", "h9", "i10", "i11"]
    line: dict[str, object] = {"rule": "renju-rif", "moves": " ".join(stones)}
    line["offers"] = [p for p in points if p not in stones]
    return json.dumps(line).encode() + b"\n"


def _sgf_root_events(size: int, ident: bytes, unit: bytes, close: bytes) -> bytes:
    head = b"(;GM[4]SZ[15]RU[RIF];B[hh];W[hi];B[ij];W[jj]" + ident + unit * (size // 4) + close
    return _fill(b"(;B[ab])", size, head, b")")


def _offers_26x26() -> bytes:
    points = [f"{chr(97 + x)}{y + 1}" for x in range(26) for y in range(26)]
    stones = ["m13", "l12", "m11", "n12"]
    line = {"rule": "renju-rif", "moves": " ".join(stones), "size": 26}
    line["offers"] = [p for p in points if p not in stones]
    return json.dumps(line).encode() + b"\n"


def _dense_26x26() -> bytes:
    # black rows 1, 4, ..., 25 full (setup ranges), a white stone and a black move between
    def sgf(x: int, row: int) -> bytes:
        return bytes([97 + x, 97 + 26 - row])

    rows = range(1, 27, 3)
    setup = b"AB" + b"".join(b"[%s:%s]" % (sgf(0, r), sgf(25, r)) for r in rows)
    games = []
    for k, row in enumerate(r for r in range(2, 26) if r not in rows):
        games.append(
            b"(;GM[4]SZ[26]" + setup + b"AW[%s];B[%s])\n" % (sgf(k % 26, 26), sgf(k + 2, row))
        )
    return b"".join(games)


def _long_line() -> bytes:
    points = [bytes([97 + x, 97 + y]) for x in range(15) for y in range(15)]
    moves = b"".join(
        b";%s[%s]" % (b"BW"[i % 2 : i % 2 + 1], points[i * 7 % 225]) for i in range(4000)
    )
    return b"(;GM[4]SZ[15]" + moves


def _full_board(size: int) -> bytes:
    black: list[bytes] = []
    white: list[bytes] = []
    for r in range(size):
        for c in range(size):
            point = b"%c%d" % (ord("a") + c, r + 1)
            (black if (r // 2 + c // 2) % 2 == 0 else white).append(point)
    return b" ".join(m for pair in zip(black, white, strict=False) for m in pair)


_READ_ONLY = """
import io, sys, json, time, resource
from renju_cli.formats import read_stream
data = open(sys.argv[1], 'rb').read()
t = time.perf_counter()
records = moves = 0
for r in read_stream(io.BufferedReader(io.BytesIO(data)), sys.argv[1]):
    records += 1
    moves += len(r.moves)
print(json.dumps({"seconds": time.perf_counter() - t, "records": records, "moves": moves,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


#: Files written with the extension of their format: read as that format, which detection by
#: content alone does not tell (the others are written as ``.bin``).
SUFFIXES = {"notation-damaged-identical-lines": ".txt"}


def run(
    name: str,
    size: int,
    directory: Path,
    limits: tuple[str, ...] = (),
    ruleset: str | None = None,
    read: bool = True,
    duplicates: str | None = None,
    piped: bool = False,
) -> dict[str, object]:
    """Write one hostile file and measure reading it (unless not ``read``) and checking it (with
    ``--limit`` each of ``limits``, ``-r ruleset`` if one is named and ``--duplicates`` if
    given), each in a new process; ``piped``: the check reads it from a pipe (``cat FILE |
    renju check -``), whose size it is not told."""
    path = directory / f"{name}{SUFFIXES.get(name, '.bin')}"
    path.write_bytes(HOSTILE[name](size))
    out: dict[str, object] = {"name": name, "bytes": path.stat().st_size}
    if ruleset is not None:
        out["ruleset"] = ruleset
    if read:
        reading = subprocess.run(
            [sys.executable, "-c", _READ_ONLY, str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if reading.returncode != 0:
            out["read_error"] = reading.stderr.strip().splitlines()[-1:]
        else:
            out.update({f"read_{k}": v for k, v in json.loads(reading.stdout).items()})
    started = time.perf_counter()
    # each check in a process of its own, measured by wait4: its own peak memory, not the
    # largest of all children so far
    with contextlib.ExitStack() as stack:
        devnull = stack.enter_context(open(os.devnull, "wb"))  # never -o /dev/null: it renames
        feed = None
        if piped:
            feed = stack.enter_context(subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE))
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "renju_cli",
                "check",
                "-" if piped else str(path),
                "--format",
                "jsonl",
                *(arg for limit in limits for arg in ("--limit", limit)),
                *(("-r", ruleset) if ruleset is not None else ()),
                *(("--duplicates", duplicates) if duplicates is not None else ()),
            ],
            stdin=feed.stdout if feed is not None else None,
            stdout=devnull,
            stderr=subprocess.PIPE,
        )
        if feed is not None and feed.stdout is not None:
            feed.stdout.close()  # (the check's now)
        assert proc.stderr is not None
        err = proc.stderr.read().decode("utf-8", "replace")
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    out["check_seconds"] = round(time.perf_counter() - started, 3)
    # (the processor time too: on a loaded machine the elapsed time says more of the others)
    out["check_cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 3)
    out["check_rss_mb"] = round(usage.ru_maxrss / 1024, 1)
    out["check_exit"] = proc.returncode
    out["check_traceback"] = "Traceback" in err
    return out


#: A reference time of ``calibrate`` on the project's 2-core VM, whose speed varies by up to 2x
#: over hours.  ``check_seconds_at_reference`` scales a check's time by it: runs made in slow
#: and fast phases can be compared.
REFERENCE_CALIBRATION = 0.39


def calibrate() -> float:
    """Processor seconds of a fixed loop of dictionary stores, in a fresh process (the least
    of two runs): how fast the machine runs Python just now."""
    loop = (
        "import time\nt = time.process_time()\nd = {}\n"
        "for i in range(3000000): d[i & 1023] = i\nprint(time.process_time() - t)"
    )
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", loop], capture_output=True, text=True, check=True
        )
        runs.append(float(out.stdout))
    return min(runs)


def _as_installed() -> None:
    """Time the checks as an installed package runs: with its byte-code.  Under a shell that
    sets ``PYTHONDONTWRITEBYTECODE`` every check would compile the changed modules anew,
    0.1-0.2 s a run, so the variable is dropped and the package compiled once here."""
    import compileall

    import renju_cli

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(os.path.dirname(renju_cli.__file__), quiet=1)


def main(argv: list[str] | None = None) -> int:
    """Run the hostile files; exit code 1 when one breaks a bound."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help=f"hostile files (default: all {len(HOSTILE)})")
    parser.add_argument("--size", type=int, default=MB, help="bytes per file (default 1 MB)")
    parser.add_argument("--seconds", type=float, default=2.0, help="bound on time (whole check)")
    parser.add_argument("--mb", type=float, default=200.0, help="bound on peak memory")
    parser.add_argument(
        "--limit", action="append", default=[], metavar="NAME=N", help="renju check --limit"
    )
    parser.add_argument(
        "-r",
        "--ruleset",
        action="append",
        default=[],
        metavar="NAME",
        help="check each file under this ruleset (repeatable; default: the record's own)",
    )
    parser.add_argument(
        "--no-read", action="store_true", help="measure the check only, not the reader alone"
    )
    parser.add_argument(
        "--duplicates",
        choices=("off", "report", "skip"),
        default=None,
        help="renju check --duplicates (keys every record: every line of a tree)",
    )
    parser.add_argument(
        "--piped",
        action="store_true",
        help="check each file read from a pipe (cat FILE | renju check -), not named",
    )
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="time a fixed loop before each file and add check_seconds_at_reference: the "
        f"check's time at the loop's {REFERENCE_CALIBRATION} s (the bound still applies to "
        "the time measured)",
    )
    args = parser.parse_args(argv)
    _as_installed()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, ruleset in (
            (name, ruleset)
            for name in args.names or sorted(HOSTILE)
            for ruleset in args.ruleset or [None]
        ):
            speed = calibrate() if args.calibrate else None
            r = run(
                name,
                args.size,
                Path(tmp),
                tuple(args.limit),
                ruleset,
                not args.no_read,
                args.duplicates,
                args.piped,
            )
            if speed is not None:
                r["calibration_seconds"] = round(speed, 3)
                r["check_seconds_at_reference"] = round(
                    float(r["check_seconds"]) * REFERENCE_CALIBRATION / speed,  # type: ignore[arg-type]
                    3,
                )
            over = (
                "read_error" in r
                or r["check_exit"] == 3
                or r["check_traceback"]
                or float(r["check_seconds"]) > args.seconds  # type: ignore[arg-type]
                or float(r["check_rss_mb"]) > args.mb  # type: ignore[arg-type]
            )
            bad += bool(over)
            print(json.dumps(r) + ("  <-- OVER" if over else ""), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
