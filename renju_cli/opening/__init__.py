"""Opening protocols as data, and the 26 canonical renju openings.

A ruleset's ``opening`` mapping is a list of *steps* (``shared/spec/openings.md``,
``docs/openings.md``); ``compiler`` makes a ``Protocol`` of it and ``check_opening`` checks a
record against it.  No protocol is known by name here: RIF, Taraguchi-N, Swap2 and the others are
YAML files under ``rulesets/``.

The package, bottom up:

``symmetry``   the 8 symmetries of the board, and of the stones on it (offers' symmetry rule)
``canonical``  the 26 canonical openings, their ids and names, naming a recorded opening
``steps``      a compiled protocol: its steps, in plain words too
``compiler``   YAML protocol -> steps, and ``lint`` for what a schema cannot see
``rules``      a ruleset's protocol, and the rules each seat plays by
``events``     a record's opening events, indexed for the walk
``findings``   the findings of a check, capped as the report lists them
``state``      what a walk knows of the record and where it stands
``offers``     the ``offer`` and ``keep`` steps
``walk``       the walk of the steps, branches tried by the record's evidence
``leftovers``  recorded events that no step explains
``course``     what the replay follows besides alternation (``Course``)
``check``      one record's check: name, declared id, walk
``sharing``    ``check_opening``: checks shared by records that begin alike, and bounded

The vocabulary (each step is a mapping with one key):

``place``   the next stone: ``move`` number, ``color``, ``by`` (seat ``P1``/``P2`` or the holder of
            ``black``/``white``), ``region`` (``anywhere``, ``{central: k}``, ``{outside: k}``)
            and ``canonical`` (stones 1-3 must be one of the 26 canonical openings);
``swap``    the ``by`` seat may exchange colours;
``choose``  the ``by`` seat chooses its colour (``take``: only that colour, a branch option);
``declare`` the ``by`` seat declares how many offers will follow (``min``/``max``);
``offer``   offers for the next move: ``count`` (a number, ``$param`` or ``declared``), the
            ``symmetry`` frame (``pattern``, ``board``, ``none``); offers may not be forbidden;
``keep``    the next move must be one of the offers;
``branch``  named ``options``, each a list of steps; ``repeat`` hands the same choice to the
            other seat after the option (Super Sakata);
``reject``  the opening is rejected: every stone comes off and the following steps number their
            stones from 1 again, ``black`` (a seat) holding black (Taimla);
``relocate`` one of ``stones`` moves to an empty point of ``region`` (Nokhrin);
``require`` at least one of ``stones`` stands in ``region`` (CCTsai);
``turns``   turns of one or two stones up to stone ``until``, a swap only after two (Lianhuan).

Several offer steps before their keeps take one recorded group each (Lijing); ``canonical: 52``
is the set of 52 openings (stone 3 in the 7x7); ``opening.alternate: false`` gives each stone
its step's colour (Samsone); ``forbidden.restricted_seat`` binds the rules written for black to
a seat (Yunhe Xia, ``rules_for``).  ``check_opening`` returns, besides findings, the ``Course``
the referee follows: colours, rejections and moved stones, and the rules in force per move.
"""

from renju_cli.opening.canonical import (
    CanonicalOpening,
    Identified,
    canonical_fault,
    canonical_openings,
    chebyshev,
    identify,
    lookup_opening,
)
from renju_cli.opening.check import OpeningCheck
from renju_cli.opening.compiler import MAX_PROTOCOL_STEPS, compile_protocol, lint
from renju_cli.opening.course import Course
from renju_cli.opening.events import (
    BOARD_EVENTS,
    DECLARED_KEPT,
    SMALL_EVENTS,
    has_board_events,
    move_stones,
    small_events,
)
from renju_cli.opening.offers import EVIDENCE_DATA, OFFER_JUDGEMENTS
from renju_cli.opening.rules import protocol_of, restricted_seat, rules_for
from renju_cli.opening.sharing import check_opening, walk_key
from renju_cli.opening.steps import (
    COLORS,
    SEATS,
    Option,
    Protocol,
    ProtocolError,
    Region,
    Step,
    inherit,
)
from renju_cli.opening.symmetry import SYMMETRIES, Isometry, stone_symmetries
from renju_cli.opening.walk import MAX_PATHS, MAX_ROUNDS, MAX_STEPS

__all__ = [
    "BOARD_EVENTS",
    "COLORS",
    "DECLARED_KEPT",
    "EVIDENCE_DATA",
    "MAX_PATHS",
    "MAX_PROTOCOL_STEPS",
    "MAX_ROUNDS",
    "MAX_STEPS",
    "OFFER_JUDGEMENTS",
    "SEATS",
    "SMALL_EVENTS",
    "SYMMETRIES",
    "CanonicalOpening",
    "Course",
    "Identified",
    "Isometry",
    "OpeningCheck",
    "Option",
    "Protocol",
    "ProtocolError",
    "Region",
    "Step",
    "canonical_fault",
    "canonical_openings",
    "chebyshev",
    "check_opening",
    "compile_protocol",
    "has_board_events",
    "identify",
    "inherit",
    "lint",
    "lookup_opening",
    "move_stones",
    "protocol_of",
    "restricted_seat",
    "rules_for",
    "small_events",
    "stone_symmetries",
    "walk_key",
]
