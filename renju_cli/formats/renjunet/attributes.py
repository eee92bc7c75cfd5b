"""A game's attributes read into a record: ids resolved through the file's lookup tables
(rules, openings, players, tournaments, countries, cities), never hard-coded."""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from renju_cli.coords import MAX_SIZE, MIN_SIZE, Point, parse_point
from renju_cli.formats import clip, lazy_compile, numbered_swaps, shipped_by_lower_name
from renju_cli.formats.renjunet.game import Game, label, local
from renju_cli.record import DeclaredResult, OpeningEvent, ParseProblem
from renju_cli.results import not_understood, read_black_score, read_result, understood

#: Entries kept per lookup table; the real database has about 10^4 players.
MAX_TABLE_ENTRIES = 1 << 20
#: Board size of RenjuNet games when the rule table does not give one (renju is 15x15).
DEFAULT_SIZE = 15
#: Swap flags read from a game's ``swap`` at most (as JSON Lines reads from ``swaps``): a
#: protocol has a handful of swap opportunities, and every flag becomes an opening event.
MAX_SWAP_FLAGS = 4096
#: Fifth-move offers read from a game's ``alt`` at most: no board has more points.
MAX_OFFERS = MAX_SIZE * MAX_SIZE

#: Lookup-table entries: element name -> the container it sits in (also its key in ``tables``).
TABLE_ELEMENTS: dict[str, str] = {
    "country": "countries",
    "city": "cities",
    "rule": "rules",
    "opening": "openings",
    "player": "players",
    "tournament": "tournaments",
}
#: Game attributes read into fields of their own; the others are kept in the metadata as they are.
_KNOWN_ATTRIBUTES = frozenset(
    ("id", "tournament", "round", "rule", "black", "white", "bresult", "btime", "wtime",
     "opening", "alt", "swap")
)  # fmt: skip

_ALT_TOKEN = lazy_compile(r"[^\s,;]+")
_DATE = lazy_compile(r"\d{4}-\d{2}(?:-\d{2})?$")
# ASCII digits only, and few: str.isdigit() accepts "²" (which int() refuses) and any length
_SMALL_NUMBER = lazy_compile(r"[0-9]{1,6}")

# Normalised rule names (see ``ruleset_name``) -> shipped ruleset names.
_RULESETS: dict[str, str] = {
    "rif": "renju-rif",
    "renju": "renju-rif",
    "renju rif": "renju-rif",
    "rif renju": "renju-rif",
    "yamaguchi": "yamaguchi",
    "tarannikov": "tarannikov",
    "sakata": "sakata",
    "super sakata": "super-sakata",
    "supersakata": "super-sakata",
    "swap": "renju-swap",
    "renju swap": "renju-swap",
    "swap2": "swap2",
    "swap 2": "swap2",
    "freestyle": "freestyle",
    "pro": "pro",
    "long pro": "long-pro",
    "caro": "caro",
    "omok": "omok",
}
_RULE_WITH_COUNT = lazy_compile(r"(soosorv|soosyrv|taraguchi) ?(\d{1,2})")


def ruleset_name(raw: str) -> str | None:
    """The shipped ruleset name for a RenjuNet rule name, or ``None`` when there is none.

    Case, accents, punctuation and spacing are ignored (``Soosõrv-8``, ``Soosorv 8`` and
    ``SOOSYRV-8`` all give ``soosyrv-8``); ``Taraguchi-N`` and ``Soosõrv-N`` keep their count.
    ``Renju`` and ``RIF`` mean the RIF opening rule (``renju-rif``), ``Swap`` the renju swap rule.
    """
    ascii_name = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    key = re.sub(r"[^a-z0-9]+", " ", ascii_name.lower()).strip()
    key = re.sub(r" rules?$", "", key)
    if key in _RULESETS:
        return _RULESETS[key]
    m = _RULE_WITH_COUNT.fullmatch(key)
    if m is not None:
        family = "soosyrv" if m.group(1) != "taraguchi" else "taraguchi"
        return f"{family}-{int(m.group(2))}"
    return None


class Tables:
    """The file's lookup tables read so far: entries by table and id."""

    def __init__(self, max_string: int) -> None:
        self.max_string = max_string
        self.entries: dict[str, dict[str, dict[str, str]]] = {
            name: {} for name in TABLE_ELEMENTS.values()
        }
        self.overflow: set[str] = set()
        self.seen: set[str] = set()

    def add_entry(self, table: str, attrib: dict[str, str]) -> None:
        """An entry of ``table`` (its attributes, cut to ``max_string``), kept by its id."""
        self.seen.add(table)
        entries = self.entries[table]
        key = attrib.get("id", "").strip()
        if not key:
            return
        if len(entries) >= MAX_TABLE_ENTRIES and key not in entries:
            self.overflow.add(table)
            return
        limit = self.max_string
        entries[key] = {local(k): v if len(v) <= limit else v[:limit] for k, v in attrib.items()}

    def lookup(self, table: str, key: str, what: str, notes: list[str]) -> dict[str, str] | None:
        """An entry of a lookup table, or ``None`` with a note saying why."""
        entry = self.entries[table].get(key)
        if entry is None:
            if table in self.seen:
                notes.append(f"{what} id {key!r} is not in the file's <{table}> table")
            else:
                notes.append(
                    f"{what} id {key!r} unresolved: no <{table}> table before this game "
                    "(a table after <games> cannot be used while streaming)"
                )
        return entry

    def place(self, entry: dict[str, str], prefix: str, meta: dict[str, str]) -> None:
        """Country and city names of a player or tournament entry."""
        country = self.entries["countries"].get(entry.get("country", ""))
        if country is not None and country.get("name"):
            meta[f"{prefix}country"] = country["name"]
        city = self.entries["cities"].get(entry.get("city", ""))
        if city is not None and city.get("name"):
            meta[f"{prefix}city"] = city["name"]


class Fields(NamedTuple):
    """What a game's attributes give a record besides its metadata and notes."""

    rule: str | None
    size: int
    opening_id: str | None
    events: list[OpeningEvent]
    result: DeclaredResult | None


def read_attributes(tables: Tables, game: Game, meta: dict[str, str], notes: list[str]) -> Fields:
    """Metadata and notes from a game's attributes (ids resolved through the tables), and
    its rule, board size, opening id, opening events and declared result."""
    attrs = game.attrs
    for key, value in attrs.items():
        if key not in _KNOWN_ATTRIBUTES and value:
            meta.setdefault(key, value)  # unrated, publisher, and whatever else is there
    gid = attrs.get("id", "")
    if gid:
        meta["game_id"] = gid
    for key in ("round", "btime", "wtime"):
        if attrs.get(key):
            meta[key] = attrs[key]
    tournament = _tournament(tables, attrs, meta, notes)
    for color in ("black", "white"):
        _player(tables, color, attrs.get(color, "").strip(), meta, notes)
    rule, size = _rule(tables, game, tournament, meta, notes)
    opening_id = _opening(tables, attrs.get("opening", "").strip(), meta, notes)
    events = _swap_events(game, attrs.get("swap", ""), meta)
    events += _alt_events(game, attrs.get("alt", ""), meta, notes)
    return Fields(
        rule,
        size,
        opening_id,
        events,
        _declared_result(game, attrs.get("bresult"), meta),
    )


def _tournament(
    tables: Tables, attrs: dict[str, str], meta: dict[str, str], notes: list[str]
) -> dict[str, str] | None:
    """The game's tournament entry, its name, dates and place in the metadata."""
    tid = attrs.get("tournament", "").strip()
    if not tid:
        return None
    meta["tournament_id"] = tid
    tournament = tables.lookup("tournaments", tid, "tournament", notes)
    if tournament is None:
        return None
    if tournament.get("name"):
        meta["tournament"] = tournament["name"]
    for key in ("year", "month", "start", "end", "rated", "type"):
        if tournament.get(key):
            meta[key] = tournament[key]
    date = _date(tournament)
    if date:
        meta["date"] = date
    tables.place(tournament, "tournament_", meta)
    return tournament


def _date(tournament: dict[str, str]) -> str:
    """A tournament's date: its start, else its year and month (``2019-07``), else none."""
    start, year, month = tournament.get("start", ""), tournament.get("year", ""), ""
    if _SMALL_NUMBER.fullmatch(tournament.get("month", "")):
        month = f"{int(tournament['month']):02d}"
    if _DATE.match(start):
        return start
    if year.isdigit():
        return f"{year}-{month}" if month else year
    return ""


def _player(tables: Tables, color: str, pid: str, meta: dict[str, str], notes: list[str]) -> None:
    """The player of ``color`` (id ``pid``): name, native name and place in the metadata."""
    if not pid:
        return
    meta[f"{color}_id"] = pid
    player = tables.lookup("players", pid, f"{color} player", notes)
    if player is None:
        return
    full = " ".join(p for p in (player.get("name"), player.get("surname")) if p)
    if full:
        meta[color] = full
    native = player.get("native_name") or player.get("nativename")
    if native:
        meta[f"{color}_native"] = native
    tables.place(player, f"{color}_", meta)


def _rule(
    tables: Tables,
    game: Game,
    tournament: dict[str, str] | None,
    meta: dict[str, str],
    notes: list[str],
) -> tuple[str | None, int]:
    """The ruleset name and board size, from the game's rule or else its tournament's; a
    stated size that no board has is a problem of the game's (the ruleset's size is used)."""
    rid = game.attrs.get("rule", "").strip()
    if not rid and tournament is not None:
        rid = tournament.get("rule", "").strip()
        if rid:
            meta["rule_from"] = "tournament"
    if not rid:
        return None, DEFAULT_SIZE
    meta["rule_id"] = rid
    entry = tables.lookup("rules", rid, "rule", notes)
    if entry is None:
        return None, DEFAULT_SIZE
    size = _rule_size(game, rid, entry)
    raw = entry.get("name", "")
    meta["rule_name"] = raw
    rule = ruleset_name(raw)
    if rule is not None and rule not in shipped_by_lower_name():
        rule = None  # a count no shipped ruleset has (Taraguchi-0, Soosorv 99)
    if rule is None:
        notes.append(f"rule {raw!r} (id {rid}) matches no shipped ruleset; rule left unset")
    return rule, size


def _rule_size(game: Game, rid: str, entry: dict[str, str]) -> int:
    """The board size a rule entry states, else ``DEFAULT_SIZE``; a size stated that no board
    has is a problem of the game's."""
    stated = None  # the first size stated, when no key states one a board has
    for key in ("size", "board_size", "boardsize", "board"):
        value = entry.get(key, "").strip()
        if _SMALL_NUMBER.fullmatch(value) and MIN_SIZE <= int(value) <= MAX_SIZE:
            return int(value)
        if value and stated is None:
            stated = (key, value)
    if stated is not None:
        key, value = stated
        game.problems.append(
            ParseProblem(
                f"{label(game)}: rule id {rid!r} states {key} {clip(value)!r}, not a whole "
                f"number from {MIN_SIZE} to {MAX_SIZE}; the ruleset's size is used",
                line=game.line,
            )
        )
    return DEFAULT_SIZE


def _opening(tables: Tables, ref: str, meta: dict[str, str], notes: list[str]) -> str | None:
    """The opening id (``D4``) of the game's ``opening`` reference; its name in the metadata."""
    if not ref or ref == "0":
        return None
    meta["opening_ref"] = ref
    entry = tables.entries["openings"].get(ref)
    if entry is None:
        if re.fullmatch(r"[DdIi]\d{1,2}", ref):
            return ref.upper()  # some exports write the abbreviation itself
        tables.lookup("openings", ref, "opening", notes)
        return None
    if entry.get("name"):
        meta["opening_name"] = entry["name"]
    abbr = entry.get("abbr", "").strip()
    return abbr or entry.get("name") or None


def _declared_result(game: Game, raw: str | None, meta: dict[str, str]) -> DeclaredResult | None:
    """``bresult`` is black's score: 1 black won, 0 white won, 0.5 a draw; other words are
    read as results (``renju_cli.results``), and words not understood are an info problem."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    meta["bresult"] = text
    winner = read_black_score(text)
    if winner is not None:
        return DeclaredResult(winner, text=text)
    declared = read_result(text)
    if declared is not None and not understood(declared):
        game.problems.append(
            ParseProblem(
                f"{label(game)}: bresult is no score (1, 0 or 0.5): {not_understood(text)}",
                game.line,
                None,
                False,
                "info",
            )
        )
    return declared


def _swap_events(game: Game, raw: str, meta: dict[str, str]) -> list[OpeningEvent]:
    """One event per character of ``swap`` (``formats.numbered_swaps``), ``MAX_SWAP_FLAGS`` at
    most (a problem says the cut); the raw text is kept in the metadata."""
    flags = "".join(raw.split())
    if not flags:
        return []
    meta["swap"] = raw
    if len(flags) > MAX_SWAP_FLAGS:
        game.problems.append(
            ParseProblem(
                f"{label(game)}: swap holds {len(flags)} flags, more than {MAX_SWAP_FLAGS}; "
                f"read the first {MAX_SWAP_FLAGS}",
                line=game.line,
            )
        )
        flags = flags[:MAX_SWAP_FLAGS]
    return numbered_swaps(flags)


def _alt_events(game: Game, raw: str, meta: dict[str, str], notes: list[str]) -> list[OpeningEvent]:
    """Fifth-move offers from ``alt`` when they are written as points, ``MAX_OFFERS`` at most
    (a problem says the cut); otherwise a note."""
    text = raw.strip()
    if not text:
        return []
    meta["alt"] = raw
    points: list[Point] = []
    for m in _ALT_TOKEN.finditer(text):  # (not split: a megabyte of tokens past the bound)
        if len(points) == MAX_OFFERS:
            game.problems.append(
                ParseProblem(
                    f"{label(game)}: alt holds more than {MAX_OFFERS} fifth-move offers, "
                    f"more than a board has points; read the first {MAX_OFFERS}",
                    line=game.line,
                )
            )
            break
        try:
            points.append(parse_point(m.group()))
        except ValueError:
            notes.append(
                f"alt {text!r} is opaque (the fifth-move offers are not written as points); "
                "kept in metadata['alt']"
            )
            return []
    return [OpeningEvent(kind="offers", after=4, points=points)]
