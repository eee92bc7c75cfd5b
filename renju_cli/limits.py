"""Every cost bound of renju-cli: its default, why it is there, and the option that changes it.

Records come from anywhere, and a file written to hurt must not make the tool work or remember
without end (``docs/security.md``).  The bounds are of four kinds:

- **one record or one file**, read by the readers through ``formats.ReadOptions``, whose
  defaults these are; ``--limit NAME=N`` lowers them for a run (``OPTIONS``);
- **a file by its size**: an allowance plus one per so many bytes, set when the file's size is
  known (``ReadOptions.for_file``), since time goes with what a file holds;
- **a whole run**: budgets that grow with the records judged (``Allowance`` and its kinds),
  carried by a ``Judgements`` bound through the referee, the judge and the opening check;
- **fixed bounds** with no option: they guard against hostile rulesets and inputs far past any
  real one, or bound what a process remembers.

Past a bound the tool never fails: the rest is skipped, counted or left undecided, with a
finding that says which bound and how to lift it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import NamedTuple, Protocol

from renju_cli.record import GameTree, OpeningEvent, Record, same_events

#: The largest value any ``--limit`` may take; also the bound by size's cap.
HUGE = 16 << 20

# -- one record, one file (``--limit NAME=N``) ----------------------------------------------------
#: Moves (and opening events) per record: real games hold a few hundred (``--limit moves``).
MOVES = 4096
#: Nesting of XML elements, SGF variations, a RenLib line; real records nest 2-3 deep
#: (``--limit depth``).
DEPTH = 4096
#: Length of one comment, name or line, and of a move list continued on more lines
#: (``--limit string``).
STRING = 1 << 20
#: Bytes of a file read whole before it is parsed (SGF, psq, Gomocup openings), and of the
#: RenjuNet XML held while looking for the end of a section opened in a damaged game: a longer
#: file, or an endless stream, is one unreadable record (``--limit whole-file``).
WHOLE_FILE = 64 << 20

# -- one file, by its size ------------------------------------------------------------------------
#: Records per file: time goes with records, and a hostile file packs one in two or three bytes
#: (``h8`` lines) where a real game takes hundreds; 8,192 + one per 32 bytes
#: (``--limit records``; the cap, ``HUGE``, holds for a pipe of unknown size).
RECORDS_ALLOWANCE = 8192
BYTES_PER_RECORD = 32
#: Formats whose real files pack records tighter: a RenLib library stores a line in about 20
#: bytes (lines share their first nodes).
DENSE_RECORDS = {"renlib": 24}
#: Opening events of one file's records (swap flags, choices, declarations; an offered point
#: counts one more): each is indexed and walked by the opening check, and a hostile file packs
#: one in a byte (``--limit events``).
EVENTS_ALLOWANCE = 16384
BYTES_PER_EVENT = 8
#: Distinct openings of one file whose opening protocol is followed step by step: a walk costs
#: more than the rest of a short record, and records that begin alike share one
#: (``--limit walks``).
WALKS_ALLOWANCE = 4096
BYTES_PER_WALK = 256
#: XML syntax errors of one RenjuNet database after which reading resumes at the next game: a
#: resync costs a fresh parser and a scan of the text after the error (``--limit resyncs``).
RESYNCS_ALLOWANCE = 4096
BYTES_PER_RESYNC = 256
#: Moves that all records of one file hold together: variation trees (RenLib, SGF) repeat a
#: line's moves in every record that continues it, and a small tree could expand
#: quadratically; real libraries hold about one move per byte (fixed).
MOVES_PER_BYTE = 2
MOVES_ALLOWANCE = 1 << 16
#: Characters of a tree line's text (metadata, notes, problems) that count as one move against
#: that budget: every line repeats its root's text (fixed).
TEXT_PER_MOVE = 16

# -- a whole run ----------------------------------------------------------------------------------
#: Double-three judgements (points whose threes are judged, in the recursion or not) of a run's
#: records: the recursion is exact and has no depth limit, and a hostile position asks tens per
#: move; real games need next to none.  Past it a move is taken as not a double-three, with a
#: warning (``--limit judgements``).
JUDGEMENTS_ALLOWANCE = 8192
RECORDS_PER_JUDGEMENT = 4
#: Steps of opening-protocol walks of a run's records (each step applied in each option
#: tried): real records take 9 to 33 each (``--limit walk-steps``).
WALK_STEPS_ALLOWANCE = 1 << 14
WALK_STEPS_PER_RECORD = 33
#: Findings the reports of a run list: each is built, worded, written and counted; real
#: records list next to none (``--limit findings``).
LISTED_ALLOWANCE = 1 << 14
LISTED_PER_RECORD = 2

# -- fixed bounds ---------------------------------------------------------------------------------
#: Findings listed for one record; the rest are counted by code in one last finding.
MAX_FINDINGS = 20
#: Later moves the one ``unchecked`` warning of a record names when the bound on judgements
#: left them undecided too.
UNDECIDED_NAMED = 20
#: One record's walk of a protocol tries no more paths and applies no more steps (a hostile
#: ruleset); past either, each branch takes its first option.
MAX_PATHS = 2000
MAX_STEPS = 20000
#: Steps of one protocol, counted in every option of its branches (YAML aliases multiply them).
MAX_PROTOCOL_STEPS = 256
#: Rounds a repeated branch (Super Sakata) is followed.
MAX_ROUNDS = 12
#: Double-three judgements the offers of one opening step may make together.
OFFER_JUDGEMENTS = 64
#: Double-three judgements the pictures of one ``--html`` report may make together.
PICTURE_JUDGEMENTS = 16384
#: Characters of a declared opening id (or an event's value) kept in a remembered key.
DECLARED_KEPT = 64
#: Nesting of a JSON Lines line: the decoder and the encoder recurse once a level, and real
#: records nest two or three deep (a deeper line is unreadable).
JSON_DEPTH = 512
#: A RenjuNet tag, comment or processing instruction, from its ``<`` to its end: the XML
#: parser holds an unfinished one whole and scans it anew on every feed.
MARKUP_BYTES = 1 << 23
#: Notes and tags of one PlayOK game: a damaged file may have a note on every line, or be one
#: endless tag section; real games have a dozen tags.
PLAYOK_NOTES = 100
PLAYOK_TAGS = 1024
#: Problems of the nodes of one SGF game tree listed (junk, values without a name, names
#: without a value); the rest are counted in one problem of the tree.
SGF_NODE_PROBLEMS = 1000
#: A ruleset file: its bytes, its ``extends:`` chain, the nesting of its YAML, its keys and
#: items once aliases are followed (``&a [*b, *b]`` doubles at each level), and the characters
#: of its scalars as aliases repeat them (the validator's messages quote values whole).
RULESET_BYTES = 1 << 18
EXTENDS_DEPTH = 16
YAML_DEPTH = 64
YAML_NODES = 10_000
YAML_CHARS = 4 * RULESET_BYTES

# -- what a process remembers ---------------------------------------------------------------------
#: Line windows a judge's table remembers before it starts afresh (a long batch meets ever
#: more raw windows, only a few thousand distinct ones).
WINDOW_LIMIT = 1 << 16
#: Raw windows whose code is remembered (the hot path's look-up; random games on 26x26 meet
#: hundreds of thousands).
CODE_LIMIT = 1 << 18
#: Entries of the double-three recursion's memo, and entries kept per key.
MEMO_LIMIT = 1 << 14
MEMO_CONTEXTS = 16


# -- the options ----------------------------------------------------------------------------------
def _short(n: int) -> str:
    """``16M`` for 16 << 20, ``1M``, ``64M``; small numbers as they are."""
    for suffix, unit in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= unit and n % unit == 0:
            return f"{n // unit}{suffix}"
    return str(n)


#: ``--limit NAME=N``: the ``ReadOptions`` field each name lowers, and what it bounds (for
#: ``--help``; defaults in parentheses).
OPTIONS: dict[str, tuple[str, str]] = {
    "records": (
        "max_records",
        f"records per file, and by default no more than {RECORDS_ALLOWANCE} + one per "
        f"{BYTES_PER_RECORD} bytes of the file, {DENSE_RECORDS['renlib']} in a RenLib library "
        f"({_short(HUGE)})",
    ),
    "events": (
        "max_events",
        "opening events (swaps, choices, offered points) per file, and by default no more "
        f"than {EVENTS_ALLOWANCE} + one per {BYTES_PER_EVENT} bytes of the file ({_short(HUGE)})",
    ),
    "walks": (
        "max_walks",
        "distinct openings per file whose opening protocol is followed, and by default no "
        f"more than {WALKS_ALLOWANCE} + one per {BYTES_PER_WALK} bytes of the file "
        f"({_short(HUGE)})",
    ),
    "resyncs": (
        "max_resyncs",
        "XML syntax errors per RenjuNet database after which reading resumes at the next "
        f"game, and by default no more than {RESYNCS_ALLOWANCE} + one per {BYTES_PER_RESYNC} "
        f"bytes of the file ({_short(HUGE)})",
    ),
    "judgements": (
        "max_judgements",
        "double-three judgements (points whose threes are judged, in the recursion or not) "
        "of a whole run, past which a move is taken as not a double-three, with a warning; "
        f"by default no more than {JUDGEMENTS_ALLOWANCE} + one per {RECORDS_PER_JUDGEMENT} "
        f"records ({_short(HUGE)})",
    ),
    "walk-steps": (
        "max_walk_steps",
        "steps of opening-protocol walks (each step applied in each option tried) of a whole "
        "run, past which a record's protocol is not followed, with a warning; by default no "
        f"more than {WALK_STEPS_ALLOWANCE} + {WALK_STEPS_PER_RECORD} per record ({_short(HUGE)})",
    ),
    "findings": (
        "max_listed",
        "findings the reports of a whole run list, past which a record's findings are "
        f"counted, not listed; by default no more than {LISTED_ALLOWANCE} + "
        f"{LISTED_PER_RECORD} per record ({_short(HUGE)})",
    ),
    "moves": ("max_moves", f"moves per record ({MOVES})"),
    "depth": (
        "max_depth",
        "nesting of XML elements, SGF variations, a RenLib line; not of JSON Lines, whose "
        f"arrays and objects nest {JSON_DEPTH} deep at most ({DEPTH})",
    ),
    "string": ("max_string", f"length of one comment, name or line ({_short(STRING)})"),
    "whole-file": (
        "max_file",
        f"bytes of an SGF, psq or Gomocup openings file ({_short(WHOLE_FILE)})",
    ),
}

#: What else a bound given with ``--limit`` sets: it replaces the bound by the file's size
#: (``bytes_per_...``: 0), or the run's allowance and its growth by records (``None``: the
#: bound itself).
GIVEN: dict[str, dict[str, int | None]] = {
    "max_records": {"bytes_per_record": 0},
    "max_events": {"bytes_per_event": 0},
    "max_walks": {"bytes_per_walk": 0},
    "max_resyncs": {"bytes_per_resync": 0},
    "max_judgements": {"judgements_allowance": None, "records_per_judgement": 0},
    "max_walk_steps": {"walk_steps_allowance": None, "walk_steps_per_record": 0},
    "max_listed": {"listed_allowance": None, "listed_per_record": 0},
}


# -- budgets of a run -----------------------------------------------------------------------------
class Allowance:
    """Work a run's records may still do (``left`` of ``limit``), growing by ``gain`` every
    ``every`` records (``next_record``; 0: never).  ``terms``: how it was set, for messages.
    ``cuts``: the records whose report it changed (a move left undecided, a protocol not
    followed, findings not listed), which depend on what the run did before them."""

    __slots__ = ("cuts", "every", "gain", "left", "limit", "records", "terms")

    def __init__(self, limit: int, terms: str = "", every: int = 0, gain: int = 1) -> None:
        self.limit = limit
        self.left = limit
        self.terms = terms
        self.every = every
        self.gain = gain
        self.records = 0
        self.cuts = 0

    def next_record(self) -> None:
        """Count a record (``gain`` more for every ``every`` of them)."""
        self.records += 1
        if self.every and self.records % self.every == 0:
            self.left += self.gain
            self.limit += self.gain


class PerRecord(Allowance):
    """An ``Allowance`` that grows by ``per`` each record (0: never)."""

    __slots__ = ()

    def __init__(self, limit: int, terms: str = "", per: int = 0) -> None:
        super().__init__(limit, terms, 1 if per else 0, per)

    def next_record(self) -> None:
        """Count a record: ``per`` more."""
        self.records += 1
        self.left += self.gain
        self.limit += self.gain


class WalkSteps(PerRecord):
    """Steps of opening-protocol walks a run's records may still take (``opening``)."""

    __slots__ = ()


class Listings(PerRecord):
    """Findings a run's reports may still list (``referee.replay``)."""

    __slots__ = ()


class Judgements(Allowance):
    """Double-three judgements a judge may still make (``Judge.bounded_kinds``), one more every
    ``per`` records; with the run's other budgets carried along (``None``: unbounded):
    ``walk_steps`` for the opening walks and ``listed`` for the findings its reports list."""

    __slots__ = ("listed", "walk_steps")

    def __init__(
        self,
        limit: int,
        terms: str = "",
        per: int = 0,
        walk_steps: WalkSteps | None = None,
        listed: Listings | None = None,
    ) -> None:
        super().__init__(limit, terms, per)
        self.walk_steps = walk_steps
        self.listed = listed

    def next_record(self) -> None:
        """Count a record, for the walk steps and the findings listed too."""
        Allowance.next_record(self)
        if self.walk_steps is not None:
            self.walk_steps.next_record()
        if self.listed is not None:
            self.listed.next_record()


# -- the walks of one file ------------------------------------------------------------------------
#: What the walk of a record's opening protocol depends on (``opening.walk_key`` under the
#: ruleset that will judge it), or ``None`` when its check walks no protocol.
WalkKey = Callable[[Record], Hashable | None]


class TreeLine(NamedTuple):
    """The walk key of a line of a variation tree: it shares the walk of the line before it in
    its tree (``tree``, ``line``) when it leaves that line (``shared``) past the moves the walk
    reads (``reached``, as many in both), with the same ``plain`` and the very same events."""

    plain: tuple[Hashable, ...]
    reached: int
    events: list[OpeningEvent]
    tree: GameTree
    line: int
    shared: int

    def follows(self, last: TreeLine | None) -> bool:
        """Whether this line shares the walk of ``last``, the line walked just before it."""
        return (
            last is not None
            and last.tree is self.tree
            and last.line == self.line - 1
            and self.shared >= self.reached == last.reached
            and last.plain == self.plain
            and same_events(self.events, last.events)
        )


class WalkBound(Protocol):
    """What ``bound_walks`` reads of a file's bounds (``formats.ReadOptions``)."""

    @property
    def max_walks(self) -> int: ...

    def too_many_walks(self) -> str: ...


def bound_walks(
    records: Iterator[Record], options: WalkBound, key: WalkKey | None
) -> Iterator[Record]:
    """``records`` with their opening walks (``key``: ``None``, none) counted against
    ``options.max_walks``: past it, a record that would need a walk of its own (a key not seen
    in this file, or a ``TreeLine`` that does not follow the line before) is marked
    ``protocol_not_followed``, and its check names its opening without following the protocol.
    Records of a key seen before are never marked: their check is remembered.  Decided as the
    file is read, so the
    output is the same with any number of ``--jobs``."""
    if key is None or options.max_walks >= HUGE:
        # (a pipe of unknown size is bounded by its records alone, as for events)
        yield from records
        return
    left = options.max_walks
    seen: set[Hashable] = set()
    last: TreeLine | None = None  # (the line before, while its tree's walk goes on)
    why = ""
    for record in records:
        walk = key(record) if not record.unreadable else None
        line = walk if isinstance(walk, TreeLine) else None
        new = not line.follows(last) if line is not None else walk is not None and walk not in seen
        if new:
            if left > 0:
                left -= 1
                if line is None:
                    seen.add(walk)
            else:
                why = why or options.too_many_walks()
                record.protocol_not_followed = why
                line = None  # (not walked: the next line walks again)
        last = line
        yield record
