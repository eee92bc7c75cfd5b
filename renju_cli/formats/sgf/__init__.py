"""SGF (Smart Game Format, FF[4]) reader and writer for gomoku and renju records.

The package, by concept:

- ``tokenizer``: bytes -> game trees of nodes with raw property values (``Parser``);
- ``charset``: double-byte charsets and the decoding of text values;
- ``values``: what one value means (points, sizes, results, swaps, players, rule names);
- ``nodes``: what one node adds to a line (moves, setup, offers, swaps, comments, game info);
- ``walk``: the lines of a tree, walked node by node into records;
- ``reader``: files -> records (``NAME``, ``EXTENSIONS``, ``sniff``, ``read``);
- ``writer``: records -> SGF (``write``, ``to_sgf``).

What is read
    - A collection: every game tree ``( ... )`` is read in turn; ``source.index`` is the number of
      the tree (0-based).  Every root-to-leaf path of a tree is a record: the main line (first
      child at every node) first, with ``source.variation = "main"``, then the other paths in
      pre-order (``walk.paths`` tells their ids).
    - ``GM[4]``, ``GM[5]`` or no ``GM``; another ``GM`` is read all the same, with a note.
    - ``SZ[15]`` or ``SZ[15:20]`` (width:height, both 5..26; another size makes the record
      unreadable, since rows cannot be converted without the height).  No ``SZ``: the size of
      ``ReadOptions.board_size``, stated in ``Record.width``/``height`` since the rows were
      converted with it.
    - Moves ``B[xy]``/``W[xy]``: ``x`` the column from the left, ``y`` the row from the **top**,
      letters ``a``..``z``; converted to our bottom-origin points (on 15x15 ``hh`` = h8 =
      ``Point(7, 7)``, ``aa`` = a15).  ``Move.color`` comes from the property.  A pass is an empty
      value, or ``tt`` on boards up to 19x19.  A column beyond the board is kept as an off-board
      point for the referee to report; a row below the board or a malformed coordinate cannot be
      represented: a ``ParseProblem`` and the path's moves stop there.
    - Setup ``AB``/``AW`` (point lists, ``aa:cc`` rectangles too) before the first move go to
      ``Record.setup``; setup stones (or ``AE``) after a move cannot be represented: a
      ``ParseProblem``.  ``PL[B]``/``PL[W]`` in a node before the first move says who plays
      move 1 (``Record.to_move``: a problem's setup, black to play).
    - ``RE``: a declared result in the words archives use (``renju_cli.results``); ``?``,
      ``unknown``, ``*`` or nothing declare none, and words not known are an ``info`` problem
      that quotes them.
    - Rule: ``RU[...]`` (raw value in ``metadata["rule_name"]``) mapped to a shipped ruleset name
      (``Record.rule``; unknown names give ``None``, with a note); without ``RU``, a rule name
      found inside ``GN[...]``.  See ``values.ruleset_for``.
    - Fifth-move offers ``5A[..][..]`` or ``FA[..]`` (a value may also hold several points
      written together, ``FA[hhjj]``): ``OpeningEvent("offers", after=4)``.
    - ``SW`` (swap; no standard exists, this is our reading): each value is one event (see
      ``values.swap_event``).  Anything not understood is kept as a note.
    - ``PB``/``PW``/``EV``/``DT``/``RO`` -> ``metadata`` ``black``/``white``/``event``/``date``/
      ``round`` (also ``PC`` place, ``GN`` game_name, ``ON`` opening, ...: ``nodes.INFO_KEYS``).
      Game-info properties are taken from the first node of the path that has them.  ``ON[D4]``
      also sets ``Record.opening_id``.
    - ``C[...]``: the comment of the node's move (``Move.comment``); on the root,
      ``metadata["comment"]``; on another node without a move, appended to the previous move's.
    - Text is decoded as ``charset`` says.  A charset that does not write SGF's characters as
      ASCII (EBCDIC, UTF-16) cannot be the one of a file read as ASCII: it is ignored, with a
      note.
    - ``Move.line`` is the 1-based line of the node's ``;``, ``source.line`` the line of the tree's
      ``(``.

Malformed input never raises (see ``tokenizer``); bounds are listed in ``reader``.
"""

from __future__ import annotations

from renju_cli.formats.sgf.reader import EXTENSIONS, NAME, SETUP_COST, read, sniff
from renju_cli.formats.sgf.tokenizer import MAX_NODE_PROBLEMS
from renju_cli.formats.sgf.tokenizer import Parser as _Parser
from renju_cli.formats.sgf.values import ruleset_for
from renju_cli.formats.sgf.walk import FORMAT
from renju_cli.formats.sgf.writer import board_size, result_text, to_sgf, write

__all__ = [
    "EXTENSIONS",
    "FORMAT",
    "MAX_NODE_PROBLEMS",
    "NAME",
    "SETUP_COST",
    "_Parser",
    "board_size",
    "read",
    "result_text",
    "ruleset_for",
    "sniff",
    "to_sgf",
    "write",
]
