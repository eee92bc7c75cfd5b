"""The 26 canonical renju openings: their ids and names, and naming a recorded opening."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from renju_cli.coords import Point, parse_point
from renju_cli.opening.symmetry import SYMMETRIES, Offset, transform


@dataclass(frozen=True)
class CanonicalOpening:
    """One of the 26 openings in standard orientation (stone 2 at h9 or i9, offsets from h8)."""

    id: str
    number: int
    type: str
    name: str
    kanji: str
    kana: str
    second: Offset
    third: Offset
    renjunet_id: int | None


@cache
def canonical_openings() -> tuple[CanonicalOpening, ...]:
    """The table shipped in ``renju_cli/data/openings26.json``."""
    # (the package's directory, as ``importlib.resources.files`` gives it on disk: that import
    # pulls in tempfile and zipfile at start-up, see ``ruleset.shipped_dir``)
    raw = (Path(__file__).parent.parent / "data" / "openings26.json").read_text("utf-8")
    return tuple(_entry(o) for o in json.loads(raw)["openings"])


def _entry(o: dict[str, Any]) -> CanonicalOpening:
    pts = [parse_point(s["point"]) for s in o["stones"]]
    c = pts[0]
    return CanonicalOpening(
        id=o["id"],
        number=int(o["number"]),
        type=o["type"],
        name=o["romaji"],
        kanji=o.get("kanji", ""),
        kana=o.get("kana", ""),
        second=(pts[1].x - c.x, pts[1].y - c.y),
        third=(pts[2].x - c.x, pts[2].y - c.y),
        renjunet_id=o.get("renjunet_opening_id"),
    )


def lookup_opening(text: str) -> CanonicalOpening | None:
    """The opening a declared id names: ``D4``, ``d4``, ``Kagetsu``, ``D4 Kagetsu``, ``花月``."""
    key = " ".join(text.split()).casefold()
    for o in canonical_openings():
        names = {o.id.casefold(), o.name.casefold(), o.kanji, o.kana}
        names.add(f"{o.id} {o.name}".casefold())
        if key in names:
            return o
    return None


@dataclass(frozen=True)
class Identified:
    """A recorded opening named: the table entry and the symmetry mapping the record onto it."""

    opening: CanonicalOpening
    symmetry: str

    def to_json(self) -> dict[str, Any]:
        """The opening as the report's ``opening`` object names it."""
        o = self.opening
        return {"id": o.id, "name": o.name, "symmetry": self.symmetry, "type": o.type}


def chebyshev(p: Point, c: Point) -> int:
    """Distance in the sense of the central k x k squares (king moves)."""
    return max(abs(p.x - c.x), abs(p.y - c.y))


def canonical_fault(stones: Sequence[Point], c: Point, reach: int = 2) -> int | None:
    """The first of stones 1-3 that keeps them from being a canonical opening (1-based).

    ``reach`` 2: the 26 openings (stone 3 in the central 5x5); 3: the 52 openings (7x7).
    """
    if stones[0] != c:
        return 1
    if chebyshev(stones[1], c) != 1:
        return 2
    if chebyshev(stones[2], c) > reach or stones[2] in (stones[0], stones[1]):
        return 3
    return None


def identify(stones: Sequence[Point], c: Point) -> Identified | None:
    """Name a canonical opening (stones 1-3 about the centre ``c``), or ``None``."""
    if len(stones) < 3 or canonical_fault(stones, c) is not None:
        return None
    o2 = (stones[1].x - c.x, stones[1].y - c.y)
    o3 = (stones[2].x - c.x, stones[2].y - c.y)
    return _named().get((o2, o3))


@cache
def _named() -> dict[tuple[Offset, Offset], Identified]:
    """Each of the 184 openings (stones 2 and 3 as offsets from the centre) named: the table
    entry and the first of ``SYMMETRIES`` that maps the stones onto it."""
    table = {(o.second, o.third): o for o in canonical_openings()}
    named: dict[tuple[Offset, Offset], Identified] = {}
    for second, third in _openings():
        for name, m in SYMMETRIES.items():
            entry = table.get((transform(m, second), transform(m, third)))
            if entry is not None:
                named[second, third] = Identified(entry, name)
                break
    return named


def _openings() -> list[tuple[Offset, Offset]]:
    """Stones 2 and 3 of every opening (offsets from stone 1 at the centre): stone 2 next to
    the centre, stone 3 in the central 5x5 on a free point."""
    near, within = _around(1), _around(2)
    return [(second, third) for second in near for third in within if third != second]


def _around(k: int) -> list[Offset]:
    """The offsets of the central (2k+1)x(2k+1) square but the centre."""
    square = [(x, y) for x in range(-k, k + 1) for y in range(-k, k + 1)]
    return [o for o in square if o != (0, 0)]


def name_of_first_three(points: Sequence[Point | None], c: Point) -> Identified | None:
    """The opening named by the first three placed stones of ``points``, if they name one."""
    first = [p for p in points[:3] if p is not None]
    if len(first) != 3:
        return None
    return identify(first, c)
