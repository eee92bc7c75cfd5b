#!/usr/bin/env python3
"""Generate a synthetic RenjuNet / RIF XML database, for benchmarks and tests.

The output has the structure of the real database (countries, cities, rules, openings, players
with native names, tournaments, games with ``move``/``info`` children and the ``bresult``,
``swap``, ``alt``, ``opening`` attributes) but every name and game is made up.  It is
deterministic (same arguments, same bytes) and written as it is generated, so memory stays
constant however large the file::

    python bench/gen_renjunet.py --games 1000 --seed 1 -o games.rif
    python bench/gen_renjunet.py --size-mb 500 -o big.rif

Rule ids follow the real file (1 RIF, 5 Yamaguchi, 17 Super Sakata, 24 Soosõrv-8,
25 Taraguchi-10); opening ids too (1-13 = I1-I13, 14-26 = D1-D13).  Readers must resolve both
through the tables anyway.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import BinaryIO
from xml.sax.saxutils import escape

SIZE = 15
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
MB = 1_000_000

# (id, name, abbr); the ids are not contiguous, as in a table that has been edited for years
COUNTRIES: list[tuple[int, str, str]] = [
    (1, "Estonia", "EST"),
    (2, "Russia", "RUS"),
    (3, "Japan", "JPN"),
    (4, "Sweden", "SWE"),
    (5, "Czech Republic", "CZE"),
    (7, "China", "CHN"),
    (8, "Chinese Taipei", "TPE"),
    (11, "Latvia", "LAT"),
    (12, "Hungary", "HUN"),
    (15, "Armenia", "ARM"),
]

# country id -> cities
CITIES: dict[int, list[str]] = {
    1: ["Tallinn", "Tartu", "Pärnu"],
    2: ["Moscow", "Saint Petersburg", "Samara"],
    3: ["Tokyo", "Osaka", "Kyoto"],
    4: ["Stockholm", "Göteborg"],
    5: ["Praha", "Brno", "Plzeň"],
    7: ["Beijing", "Shanghai", "Hangzhou"],
    8: ["Taipei", "Kaohsiung"],
    11: ["Riga"],
    12: ["Budapest"],
    15: ["Yerevan"],
}

# country id -> (given names, surnames), each (latin, native)
NAMES: dict[int, tuple[list[tuple[str, str]], list[tuple[str, str]]]] = {
    1: (
        [("Ando", "Ando"), ("Tonu", "Tõnu"), ("Ants", "Ants"), ("Mart", "Märt")],
        [("Meritee", "Meritee"), ("Koiv", "Kõiv"), ("Soosorv", "Soosõrv"), ("Tamm", "Tamm")],
    ),
    2: (
        [("Ivan", "Иван"), ("Pavel", "Павел"), ("Dmitry", "Дмитрий"), ("Olga", "Ольга")],
        [("Petrov", "Петров"), ("Sinitsyn", "Синицын"), ("Tarannikov", "Таранников")],
    ),
    3: (
        [("Yusui", "悠水"), ("Shigeru", "茂"), ("Kaoru", "薫"), ("Hiroshi", "博")],
        [("Nakamura", "中村"), ("Sakata", "坂田"), ("Yamaguchi", "山口"), ("Okabe", "岡部")],
    ),
    4: (
        [("Lars", "Lars"), ("Asa", "Åsa"), ("Orjan", "Örjan")],
        [("Karlsson", "Karlsson"), ("Strom", "Ström"), ("Lof", "Löf")],
    ),
    5: (
        [("Pavel", "Pavel"), ("Jiri", "Jiří"), ("Tomas", "Tomáš")],
        [("Laube", "Laube"), ("Dvorak", "Dvořák"), ("Kral", "Král")],
    ),
    7: (
        [("Lijing", "立井"), ("Wei", "伟"), ("Hao", "浩")],
        [("Cao", "曹"), ("Wang", "王"), ("Lin", "林")],
    ),
    8: (
        [("Chun-Ting", "俊廷"), ("Yi-Hsuan", "怡萱")],
        [("Tsai", "蔡"), ("Chen", "陳")],
    ),
    11: ([("Janis", "Jānis"), ("Ilze", "Ilze")], [("Berzins", "Bērziņš"), ("Ozols", "Ozols")]),
    12: ([("Gabor", "Gábor"), ("Zsolt", "Zsolt")], [("Nagy", "Nagy"), ("Szabo", "Szabó")]),
    15: ([("Aram", "Արամ"), ("Anna", "Աննա")], [("Petrosyan", "Պետրոսյան")]),
}
EAST_ASIAN = {3, 7, 8}  # native names are written surname first, without a space

# (id, name, swap opportunities, fifth offers or 0, info)
RULES: list[tuple[int, str, int, int, str]] = [
    (1, "RIF", 1, 2, "RIF opening rule (1996)"),
    (2, "Swap", 1, 2, ""),
    (5, "Yamaguchi", 1, 3, "P1 declares the number of fifth-move offers"),
    (17, "Super Sakata", 0, 0, ""),
    (24, "Soosõrv-8", 2, 4, "RIF World Championship rule since 2017"),
    (25, "Taraguchi-10", 5, 10, ""),
]

# (RenjuNet id, abbreviation, name, third stone in standard orientation)
OPENINGS: list[tuple[int, str, str, str]] = [
    (1, "I1", "Chosei", "j10"),
    (2, "I2", "Kyogetsu", "j9"),
    (3, "I3", "Kosei", "j8"),
    (4, "I4", "Suigetsu", "j7"),
    (5, "I5", "Ryusei", "j6"),
    (6, "I6", "Ungetsu", "i8"),
    (7, "I7", "Hogetsu", "i7"),
    (8, "I8", "Rangetsu", "i6"),
    (9, "I9", "Gingetsu", "h7"),
    (10, "I10", "Myojo", "h6"),
    (11, "I11", "Shagetsu", "g7"),
    (12, "I12", "Meigetsu", "g6"),
    (13, "I13", "Suisei", "f6"),
    (14, "D1", "Kansei", "h10"),
    (15, "D2", "Keigetsu", "i10"),
    (16, "D3", "Sosei", "j10"),
    (17, "D4", "Kagetsu", "i9"),
    (18, "D5", "Zangetsu", "j9"),
    (19, "D6", "Ugetsu", "i8"),
    (20, "D7", "Kinsei", "j8"),
    (21, "D8", "Shogetsu", "h7"),
    (22, "D9", "Kyugetsu", "i7"),
    (23, "D10", "Shingetsu", "j7"),
    (24, "D11", "Zuisei", "h6"),
    (25, "D12", "Sangetsu", "i6"),
    (26, "D13", "Yusei", "j6"),
]

INFO_TEXTS = [
    "Black resigned.",
    "White lost on time.",
    "Black: forbidden move (double-four) at the end.",
    "Game adjourned & finished next day; score <unclear> in the paper record.",
    "Комментарий: белые сдались.",
    "黒の反則負け",
    "Moves after 40 reconstructed from the referee's sheet.",
]
TOURNAMENT_KINDS = ["World Championship", "European Championship", "Team Cup", "Open", "League"]
PUBLISHERS = ["RIF", "Estonian Renju Association", "Renju Club Moscow", "JRF"]

Point = tuple[int, int]


def _parse(name: str) -> Point:
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def _symmetry(p: Point, k: int) -> Point:
    """One of the 8 symmetries of the square about the centre h8."""
    c = (SIZE - 1) // 2
    x, y = p[0] - c, p[1] - c
    for _ in range(k % 4):
        x, y = -y, x
    if k >= 4:
        x = -x
    return x + c, y + c


def _attr(value: object) -> str:
    return escape(str(value), {'"': "&quot;", "\n": "&#10;"})


class _Writer:
    """Counts the bytes it writes, so that generation can stop at a target size."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.size = 0

    def write(self, text: str) -> None:
        data = text.encode("utf-8")
        self.out.write(data)
        self.size += len(data)


# Points are ints ``x * SIZE + y`` in the hot loop; for each, the on-board points of the 5x5
# square around it (where the next stone usually goes) and its name.
_NEAR: list[list[int]] = [
    [
        (x + dx) * SIZE + y + dy
        for dx in range(-2, 3)
        for dy in range(-2, 3)
        if (dx or dy) and 0 <= x + dx < SIZE and 0 <= y + dy < SIZE
    ]
    for x in range(SIZE)
    for y in range(SIZE)
]
_POINT_NAMES = [f"{COLUMNS[x]}{y + 1}" for x in range(SIZE) for y in range(SIZE)]


def _moves(rng: random.Random, opening: tuple[int, str, str, str]) -> list[int]:
    """A plausible game: the opening's stones in a random symmetry, then stones near others."""
    k = rng.randrange(8)
    second = "h9" if opening[1].startswith("D") else "i9"
    stones = [
        x * SIZE + y for x, y in (_symmetry(_parse(n), k) for n in ("h8", second, opening[3]))
    ]
    taken = set(stones)
    count = rng.randint(9, 80)
    rand = rng.random  # random() is much cheaper than randrange() and this is the hot loop
    while len(stones) < count:
        for _ in range(30):
            near = _NEAR[stones[int(rand() * len(stones))]]
            p = near[int(rand() * len(near))]
            if p not in taken:
                break
        else:
            free = [q for q in range(SIZE * SIZE) if q not in taken]
            if not free:
                break
            p = rng.choice(free)
        stones.append(p)
        taken.add(p)
    return stones


def _alt(rng: random.Random, stones: list[int], offers: int) -> str:
    """The ``alt`` attribute: mostly empty, sometimes opaque digits, sometimes offered points."""
    roll = rng.random()
    if offers == 0 or len(stones) < 5 or roll < 0.6:
        return ""
    if roll < 0.8:
        return str(rng.randint(1, 99))  # the undocumented numeric form seen in real files
    taken = set(stones[:5])
    points: list[int] = []
    while len(points) < offers - 1:
        p = rng.randrange(3, SIZE - 3) * SIZE + rng.randrange(3, SIZE - 3)
        if p not in taken:
            taken.add(p)
            points.append(p)
    return " ".join(_POINT_NAMES[p] for p in points)


def _header(w: _Writer, rng: random.Random, players: int, tournaments: int) -> list[int]:
    """Write everything before ``<games>``; return the tournaments' rule ids."""
    w.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    w.write(f'<database version="10" date="{2024 - rng.randrange(3)}-0{rng.randint(1, 9)}-15">\n')
    w.write("<countries>\n")
    for cid, name, abbr in COUNTRIES:
        w.write(f'<country id="{cid}" name="{_attr(name)}" abbr="{abbr}"/>\n')
    w.write("</countries>\n<cities>\n")
    city_ids: dict[int, list[int]] = {}
    next_city = 1
    for cid, names in CITIES.items():
        for name in names:
            w.write(f'<city id="{next_city}" country="{cid}" name="{_attr(name)}"/>\n')
            city_ids.setdefault(cid, []).append(next_city)
            next_city += 1
    w.write("</cities>\n<rules>\n")
    for rid, name, _, _, info in RULES:
        extra = f' info="{_attr(info)}"' if info else ""
        w.write(f'<rule id="{rid}" name="{_attr(name)}"{extra}/>\n')
    w.write("</rules>\n<openings>\n")
    for oid, abbr, name, _ in OPENINGS:
        w.write(f'<opening id="{oid}" abbr="{abbr}" name="{name}"/>\n')
    w.write("</openings>\n<players>\n")
    for pid in range(1, players + 1):
        cid = rng.choice(list(NAMES))
        given, family = NAMES[cid]
        first, first_native = rng.choice(given)
        last, last_native = rng.choice(family)
        if cid in EAST_ASIAN:
            native = last_native + first_native
        else:
            native = f"{first_native} {last_native}"
        city = rng.choice(city_ids[cid])
        extra = f' native_name="{_attr(native)}"' if native != f"{first} {last}" else ""
        w.write(
            f'<player id="{pid}" name="{_attr(first)}" surname="{_attr(last)}" country="{cid}" '
            f'city="{city}"{extra}/>\n'
        )
    w.write("</players>\n<tournaments>\n")
    rule_of: list[int] = []
    for tid in range(1, tournaments + 1):
        cid = rng.choice(list(CITIES))
        year = rng.randint(1989, 2024)
        month = rng.randint(1, 12)
        day = rng.randint(1, 20)
        rule = rng.choice(RULES)[0]
        rule_of.append(rule)
        name = f"{year} {rng.choice(TOURNAMENT_KINDS)} {CITIES[cid][0]}"
        w.write(
            f'<tournament id="{tid}" name="{_attr(name)}" country="{cid}" '
            f'city="{rng.choice(city_ids[cid])}" year="{year}" month="{month}" '
            f'start="{year}-{month:02d}-{day:02d}" end="{year}-{month:02d}-{day + 6:02d}" '
            f'rule="{rule}" rated="{rng.choice((0, 1, 1))}"/>\n'
        )
    w.write("</tournaments>\n")
    return rule_of


def _game(w: _Writer, rng: random.Random, gid: int, players: int, rule_of: list[int]) -> None:
    tid = rng.randrange(len(rule_of))
    rule = rule_of[tid]
    # most games repeat their tournament's rule; some leave it to the tournament
    rule_attr = "" if rng.random() < 0.2 else str(rule)
    _, _, swaps, offers, _ = next(r for r in RULES if r[0] == rule)
    black = rng.randint(1, players)
    white = rng.randint(1, players - 1)
    white += white >= black
    opening = rng.choice(OPENINGS)
    empty = rng.random() < 0.03
    stones = [] if empty else _moves(rng, opening)
    bresult = rng.choices(("1", "0", "0.5", ""), weights=(45, 45, 7, 3))[0]
    swap = "".join("-" if rng.random() < 0.6 else rng.choice("R+") for _ in range(swaps))
    alt = _alt(rng, stones, offers)
    btime = rng.randint(0, 60) if rng.random() < 0.5 else ""
    wtime = rng.randint(0, 60) if btime != "" else ""
    attrs = (
        f'id="{gid}" tournament="{tid + 1}" round="{rng.randint(1, 11)}" rule="{rule_attr}" '
        f'black="{black}" white="{white}" bresult="{bresult}" btime="{btime}" wtime="{wtime}" '
        f'opening="{opening[0] if stones else ""}" alt="{_attr(alt)}" swap="{swap}"'
    )
    if rng.random() < 0.05:
        attrs += ' unrated="1"'
    if rng.random() < 0.1:
        attrs += f' publisher="{_attr(rng.choice(PUBLISHERS))}"'
    parts = [f"<game {attrs}>"]
    if stones or rng.random() < 0.5:  # result-only games: empty <move> or none at all
        names = _POINT_NAMES
        parts.append(f"<move>{' '.join([names[p] for p in stones])}</move>")
    if rng.random() < 0.08:
        parts.append(f"<info>{escape(rng.choice(INFO_TEXTS))}</info>")
    parts.append("</game>\n")
    w.write("".join(parts))


def generate(
    out: BinaryIO, *, games: int | None = 1000, seed: int = 0, size_bytes: int | None = None
) -> int:
    """Write a database to ``out``; return the number of games written.

    Stops after ``games`` games or once ``size_bytes`` bytes are written, whichever comes first
    (at least one of them must be given).
    """
    if games is None and size_bytes is None:
        raise ValueError("give games or size_bytes")
    rng = random.Random(seed)
    w = _Writer(out)
    players = 400
    rule_of = _header(w, rng, players, tournaments=120)
    w.write("<games>\n")
    closing = "</games>\n</database>\n"
    written = 0
    while games is None or written < games:
        if size_bytes is not None and w.size + len(closing) >= size_bytes:
            break
        written += 1
        _game(w, rng, written, players, rule_of)
    w.write(closing)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``--games``, ``--seed``, ``--size-mb``, ``-o``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=None, help="number of games (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument(
        "--size-mb",
        type=float,
        default=None,
        help="stop once the file reaches this many megabytes (10^6 bytes); with --games, "
        "whichever comes first",
    )
    ap.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    args = ap.parse_args(argv)
    games = args.games
    size = None if args.size_mb is None else int(args.size_mb * MB)
    if games is None and size is None:
        games = 1000
    if args.output == "-":
        n = generate(sys.stdout.buffer, games=games, seed=args.seed, size_bytes=size)
        sys.stdout.buffer.flush()
    else:
        with open(args.output, "wb", buffering=1 << 20) as f:
            n = generate(f, games=games, seed=args.seed, size_bytes=size)
    print(f"{n} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
