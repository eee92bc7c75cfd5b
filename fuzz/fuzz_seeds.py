"""Seed inputs for the fuzzers: small records of our own in every format, plus the real corpus.

Our own seeds are written here (never copied from ``shared/corpus``); the corpus files are read
from where they are, when present, and cut into small windows so that one input stays cheap.
"""

from __future__ import annotations

import struct
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
REGRESSIONS = REPO / "tests" / "data" / "regressions"
#: Seeds larger than this are cut into windows of this size (text at line ends).
WINDOW = 4096


def _renlib(nodes: list[tuple[int, int]], strings: dict[int, bytes] | None = None) -> bytes:
    """A RenLib 3.0 file from ``(pos, flags)`` nodes; ``strings[i]`` follows node ``i``."""
    out = bytearray(b"\xffRenLib\xff\x03\x00" + b"\xff" * 10)
    for i, (pos, flags) in enumerate(nodes):
        out += bytes([pos, flags])
        text = (strings or {}).get(i)
        if text is not None:
            raw = text + b"\x00"
            out += raw + (b"\x00" if len(raw) % 2 else b"")
    return bytes(out)


def own_seeds() -> dict[str, bytes]:
    """Small hand-written records, one or more per format, named ``NAME.ext``."""
    seeds: dict[str, bytes] = {
        "moves.txt": b"h8 h9 i8 g8 j8 k8 i9 i10 j10 k11\nblack h8 i9 h9 h10 j9 g9 i10 g10 j11\n",
        "numbered.txt": (
            b"1. h8 h9 2. i8 g8\n3. j8 k8 4. i9 i10\n# comment\n1-0 h8h9i10 swap {j10 k7}\n"
        ),
        "diagram.board": (
            b"   a b c d e f g\n7 . . X . . . .\n6 . O X . . . .\n5 . . X O . . .\n"
            b"4 . . X . O . .\n3 . . . . . . .\n2 . . . . . . .\n1 O . . . . . .\n"
        ),
        "games.jsonl": (
            b'{"moves": "h8 h9 i8 g8 j8 k8 i9", "result": "black", "rule": "renju", "size": 15}\n'
            b'{"moves": ["h8", "i9", "pass"], "result": {"winner": "draw"},'
            b' "offers": ["j10", "k7"], "metadata": {"black": "A"}}\n'
        ),
        "game.psq": (
            b"Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,11,120\r\n9,10,80\r\n12,12\r\n"
            b"pbrain-a.exe\r\npbrain-b.exe\r\n-1\r\n1,tournament\r\n"
        ),
        "game.rec": b"pbrain-a.exe\nhomo-2\n7,7,0\n8,6,0\n6,8,812\n16,5\n15\n",
        "openings.txt": b"0,0, 1,1, -1,2\n2,-3, 0,1\n-9,-10, 9,9\n",
        "game.pos": bytes([5, 112, 113, 97, 127, 98]),
        "game.sgf": (
            b"(;FF[4]GM[4]CA[UTF-8]SZ[15]PB[A\\]b]PW[B]RE[B+Resign]RU[RIF]SW[N]5A[jj][kk]"
            b"AB[aa:bb]C[root]\n;B[hh]C[first];W[hi];B[ii](;W[gg];B[jj])(;W[jj]SW[Y];B[tt]))\n"
            b"(;GM[5]SZ[15:17];B[hh];W[];B[ij])\n"
        ),
        "game.pgn": (
            b'[Event "?"]\n[Site "PlayOK"]\n[Date "2021.07.31"]\n[Black "k56"]\n[White "run"]\n'
            b'[Result "0-1"]\n[GameType "61,15"]\n\n1. h8 h9 2. i8 white 3. -- g8 4. j8 k8'
            b" {a comment} 5. i9 i10 0-1\n\n"
            b'[Black "a"]\n[White "b"]\n[Result "1-0"]\n[GameType "60,15"]\n\n1. h8 h9 2. i8 1-0\n'
        ),
        "db.rif": (
            b'<?xml version="1.0" encoding="utf-8"?>\n<database version="1" date="2024-01-01">\n'
            b'<countries><country id="1" name="Estonia" abbr="EST"/></countries>\n'
            b'<cities><city id="1" country="1" name="Tallinn"/></cities>\n'
            b'<rules><rule id="1" name="RIF"/><rule id="5" name="Yamaguchi"/></rules>\n'
            b'<openings><opening id="14" abbr="D4" name="Kagetsu"/></openings>\n'
            b'<players><player id="1" name="A" surname="B" country="1" city="1"/>'
            b'<player id="2" name="C" surname="D" country="1" native_name="\xc3\xa4"/></players>\n'
            b'<tournaments><tournament id="1" name="T" country="1" city="1" year="2001"'
            b' month="7" rule="1" rated="1"/></tournaments>\n<games>\n'
            b'<game id="1" tournament="1" round="1" rule="1" black="1" white="2" bresult="1"'
            b' opening="14" alt="51" swap="-R"><move>h8 h9 i9 i8 j7</move><info>x</info></game>\n'
            b'<game id="2" tournament="1" rule="5" black="2" white="1" bresult="0.5">'
            b"<move>h8 i9 j10</move></game>\n"
            b'<game id="3" bresult=""><move></move></game>\n</games>\n</database>\n'
        ),
        "lib.lib": _renlib(
            [(0x78, 0x00), (0x68, 0x80 | 0x08), (0x69, 0x40), (0x79, 0x01 | 0x40)],
            {1: b"one\x08two\r\nlines"},
        )
        + b"\x00\x01board\x00",  # board text: 0x01 of the second extension byte
        "old.lib": bytes([0x78, 0x00, 0x68, 0x80, 0x69, 0x40, 0x79, 0x40]),
        "ruleset.yaml": (
            b"name: fuzzed\nextends: renju\nboard:\n  size: 15\nfive:\n  length: 5\n"
            b"  overline:\n    white: win\n"
            b"forbidden:\n  black: [double-three, double-four, overline]\n"
            b"passes:\n  allowed: true\n  consecutive_draw: 2\nend:\n  move_limit: 225\n"
        ),
    }
    # text recoded as it is read: saved as UTF-16 by Notepad, UTF-32, classic Mac line ends
    seeds["notepad.txt"] = "h8 h9 i8 g8 # Турнир\r\n1. h8 i9\r\n2. j10 k7\r\n".encode("utf-16")
    seeds["utf32.jsonl"] = '{"moves": "h8 h9", "metadata": {"event": "Ω"}}\n'.encode("utf-32")
    seeds["mac.pgn"] = b'[Site "PlayOK"]\r[GameType "61,15"]\r\r1. h8 h9 2. i8 1-0\r'
    # a .pos with a header-like count and a 26x26 SGF, to reach the size bounds
    seeds["big.sgf"] = b"(;SZ[26];B[zz];W[aa];B[mm])"
    seeds["short.pos"] = struct.pack("B", 3) + bytes([0, 224])
    return seeds


def windows(data: bytes, size: int = WINDOW) -> list[bytes]:
    """The whole of a small seed, or a few windows of a large one (text cut at line ends)."""
    if len(data) <= size:
        return [data]
    out = []
    step = max(size, len(data) // 8)
    # a binary library keeps its header, so that later windows are still read as RenLib
    header = data[:20] if data.startswith(b"\xffRenLib\xff") else b""
    for start in range(0, len(data) - 16, step):
        chunk = data[start : start + size]
        if start and header:
            chunk = header + chunk[start % 2 :]  # nodes are 2-byte aligned
        elif start and b"\n" in chunk[:200]:
            chunk = chunk[chunk.index(b"\n") + 1 :]
        out.append(chunk)
    return out


def corpus_seeds() -> dict[str, bytes]:
    """The real samples of ``shared/corpus`` (windows of the large ones); empty when absent."""
    seeds: dict[str, bytes] = {}
    if not CORPUS.is_dir():
        return seeds
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.suffix == ".md":
            continue
        for n, chunk in enumerate(windows(path.read_bytes())):
            seeds[f"corpus/{path.relative_to(CORPUS)}#{n}"] = chunk
    return seeds


def regression_seeds() -> dict[str, bytes]:
    """Inputs that once broke something (``tests/data/regressions``)."""
    if not REGRESSIONS.is_dir():
        return {}
    return {
        f"regression/{p.name}": p.read_bytes()
        for p in sorted(REGRESSIONS.iterdir())
        if p.is_file() and p.suffix != ".md"
    }


def all_seeds() -> dict[str, bytes]:
    """Every seed, by name."""
    return {**own_seeds(), **corpus_seeds(), **regression_seeds()}
