"""Declared results in the words archives use: one vocabulary for every reader.

``read_result(text)`` reads the raw value a record gives for its result and answers one of three:

- ``None``: the record declares no result (an empty value, ``unknown``, ``?``, ``*``); it is
  judged all the same, and there is nothing to compare the board with;
- a ``DeclaredResult`` whose ``winner`` is ``black``, ``white`` or ``draw`` (or ``None`` for a
  ``Void`` game, ``reason`` ``void``), with the ``reason`` where the words give one (``resign``,
  ``time``, ``foul``, ``forfeit``, ``agreement``, ``five``; after ``B+``/``W+`` any other word,
  in lower case, as SGF writes it) and ``text`` the raw value;
- a ``DeclaredResult`` with neither ``winner`` nor ``reason``: words this module does not know
  (``understood`` is false); readers say so, quoting ``text``.

Words are compared after NFKC normalisation (full-width forms), case folding, ``ё`` read as ``е``
and runs of blanks made one (none between CJK or Hangul words).  They are:

- English and PGN: ``1-0``, ``0-1``, ``1/2-1/2`` (``½-½``, ``0.5-0.5``), ``B+``/``W+`` with an
  optional reason of one word (``B+R``, ``W+Resign``, ``W+T``, ``B+F``; a score such as ``B+5``
  gives none),
  ``black``/``white`` with ``wins``/``won`` and ``by``/``on`` a reason, ``black resigns``,
  ``Draw``, ``D``, ``Jigo``, ``0`` (SGF's draw), ``Void``;
- Chinese: ``黑胜``, ``白胜``, ``黑方胜``, ``黑中盘胜`` (resign), ``白超时胜`` (time), ``黑负``,
  ``白认输``, ``和棋``, ``和``, ``和局``, ``平局``; traditional forms (``黑勝``) too;
- Japanese: ``黒勝ち``, ``白勝ち``, ``先手勝ち`` (black), ``後手勝ち`` (white), ``黒中押し勝ち``,
  ``白時間切れ勝ち``, ``黒反則負け``, ``引き分け``;
- Korean: ``흑승``, ``백승``, ``흑 불계승`` (resign), ``백 시간승`` (time), ``흑 반칙패``,
  ``무승부``;
- Russian: ``победа черных``, ``победа белых`` (``по времени``...), ``черные выиграли``,
  ``белые сдались``, ``ничья``, ``ничья по соглашению``;

and any of them followed by a reason in brackets: ``黑胜(禁手)``, ``black wins (time)``.

RenjuNet's ``bresult`` is black's score (``1``, ``0``, ``0.5``), where ``0`` is a white win, not
SGF's draw: ``read_black_score`` reads it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from renju_cli.record import DeclaredResult

BLACK = "black"
WHITE = "white"
DRAW = "draw"

_OTHER = {BLACK: WHITE, WHITE: BLACK}

#: Values that declare no result: the record is judged, nothing is compared.
UNDECLARED = frozenset({"", "unknown", "?", "*", "??"})

#: Fixed words: (winner, reason).
WORDS: dict[str, tuple[str | None, str | None]] = {
    "1-0": (BLACK, None),
    "0-1": (WHITE, None),
    "1/2-1/2": (DRAW, None),
    "½-½": (DRAW, None),
    "0.5-0.5": (DRAW, None),
    "0": (DRAW, None),
    "void": (None, "void"),
    "jigo": (DRAW, None),
    "d": (DRAW, None),
    "tie": (DRAW, None),
    "agreed draw": (DRAW, "agreement"),
    "持碁": (DRAW, None),
}

#: Words of a draw, after which a reason may follow (``draw by agreement``, ``ничья по
#: соглашению``) or come first (``协议和棋``).
DRAWS = frozenset(
    {
        "draw",
        "drawn",
        "ничья",
        "和棋",
        "和",
        "和局",
        "平局",
        "引き分け",
        "引分け",
        "引分",
        "무승부",
        "비김",
    }
)
#: Reasons written before a draw (``协议和棋``, a draw agreed).
DRAW_REASONS_BEFORE = frozenset({"协议", "協議", "합의"})

#: Colour words of phrases written with blanks (``black wins``, ``победа черных``).
COLOURS: dict[str, str] = {
    "black": BLACK,
    "white": WHITE,
    "черные": BLACK,
    "черных": BLACK,
    "белые": WHITE,
    "белых": WHITE,
}
#: Colour words of CJK and Hangul phrases, written without blanks (``黑中盘胜``).
COLOURS_CJK: dict[str, str] = {
    "黑": BLACK,
    "黑方": BLACK,
    "黑棋": BLACK,
    "白": WHITE,
    "白方": WHITE,
    "白棋": WHITE,
    "黒": BLACK,
    "黒番": BLACK,
    "白番": WHITE,
    "先手": BLACK,
    "後手": WHITE,
    "흑": BLACK,
    "백": WHITE,
}

#: Reason words, in every language.
REASONS: dict[str, str] = {
    "r": "resign",
    "resign": "resign",
    "resignation": "resign",
    "resigned": "resign",
    "t": "time",
    "time": "time",
    "timeout": "time",
    "f": "forfeit",
    "forfeit": "forfeit",
    "foul": "foul",
    "forbidden": "foul",
    "agreement": "agreement",
    "five": "five",
    "中盘": "resign",
    "中盤": "resign",
    "认输": "resign",
    "認輸": "resign",
    "超时": "time",
    "超時": "time",
    "禁手": "foul",
    "犯规": "foul",
    "犯規": "foul",
    "协议": "agreement",
    "協議": "agreement",
    "五连": "five",
    "连五": "five",
    "連五": "five",
    "中押し": "resign",
    "投了": "resign",
    "時間切れ": "time",
    "反則": "foul",
    "禁じ手": "foul",
    "불계": "resign",
    "기권": "resign",
    "시간": "time",
    "반칙": "foul",
    "금수": "foul",
    "합의": "agreement",
    "времени": "time",
    "сдача": "resign",
    "фол": "foul",
    "фолу": "foul",
    "соглашению": "agreement",
}

#: Verbs after a colour that make it the winner (``black wins``) or the loser (``black
#: resigns``: its reason is the verb's).
WIN_VERBS = frozenset({"wins", "win", "won", "выиграли", "победили"})
LOSS_VERBS: dict[str, str | None] = {
    "resigns": "resign",
    "resigned": "resign",
    "loses": None,
    "lost": None,
    "сдались": "resign",
    "проиграли": None,
}
#: The nouns of a win before the colour (``победа черных``).
WIN_NOUNS = frozenset({"победа", "выигрыш"})

#: The endings of a CJK or Hangul win and loss after the colour and an optional reason
#: (``黑中盘胜``, ``黒の勝ち``, ``흑 불계승``, ``黑负``).
WIN_ENDINGS = frozenset({"胜", "勝", "获胜", "獲勝", "胜利", "勝利", "勝ち", "승", "승리"})
LOSS_ENDINGS = frozenset({"负", "負", "負け", "패"})


def _normal(text: str) -> str:
    """``text`` as words are compared: NFKC, case folded, ``ё`` as ``е``, blanks made one."""
    if text.isascii():  # (NFKC and case folding leave ASCII as its lower case)
        return " ".join(text.lower().split())
    folded = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return " ".join(folded.split())


def _alternatives(words: Iterable[str]) -> str:
    """A regular expression alternation of ``words`` (normalised), the longest first."""
    keys = sorted({_normal(w) for w in words}, key=len, reverse=True)
    return "|".join(re.escape(k) for k in keys)


class _Vocabulary(NamedTuple):
    """The words normalised as they are compared, and the patterns of phrases."""

    undeclared: frozenset[str]
    words: dict[str, tuple[str | None, str | None]]
    reasons: dict[str, str]
    colours: dict[str, str]
    #: the ASCII words of result phrases (``may_be_in_phrase``)
    phrase_words: frozenset[str]
    #: the characters of the other scripts of results, full-width forms and fractions
    scripts: re.Pattern[str]
    go: re.Pattern[str]
    score: re.Pattern[str]
    colour_verb: re.Pattern[str]
    noun_colour: re.Pattern[str]
    cjk: re.Pattern[str]
    cjk_resigns: re.Pattern[str]
    draw: re.Pattern[str]


@functools.cache
def _vocabulary() -> _Vocabulary:
    """The vocabulary, made at its first use: every reader is imported at start-up, and the
    normalisation (Unicode's tables) and the patterns took milliseconds."""
    undeclared = frozenset(map(_normal, UNDECLARED))
    words = {_normal(k): v for k, v in WORDS.items()}
    reasons = {_normal(k): v for k, v in REASONS.items()}
    vocabulary = (*undeclared, *words, *DRAWS, *COLOURS, *reasons, *WIN_VERBS, *LOSS_VERBS)
    phrase_words = frozenset(w for phrase in vocabulary for w in phrase.split() if w.isascii())
    reason = rf"(?P<r>{_alternatives(REASONS)})"
    by = rf"(?: (?:by|on|по) {reason})?"
    colours, cjk_colours = _alternatives(COLOURS), _alternatives(COLOURS_CJK)
    verbs = _alternatives(WIN_VERBS | set(LOSS_VERBS))
    return _Vocabulary(
        undeclared,
        words,
        reasons,
        {_normal(k): v for k, v in (COLOURS | COLOURS_CJK).items()},
        phrase_words | {"by", "on", "b", "w", "+"},
        re.compile("[\u00bd\u0400-\u04ff\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]"),
        re.compile(r"([bw]) ?\+ ?(\S*)"),
        re.compile(r"[0-9.,]+"),
        re.compile(rf"(?P<c>{colours})(?: (?P<v>{verbs}))?" + by),
        re.compile(rf"(?:{_alternatives(WIN_NOUNS)}) (?P<c>{colours})" + by),
        re.compile(
            rf"(?P<c>{cjk_colours})の?(?P<r>{_alternatives(REASONS)})?"
            rf"(?P<e>{_alternatives(WIN_ENDINGS | LOSS_ENDINGS)})"
        ),
        re.compile(rf"(?P<c>{cjk_colours})(?:认输|認輸|投了|기권)"),
        re.compile(
            rf"(?P<before>{_alternatives(DRAW_REASONS_BEFORE)})? ?(?:{_alternatives(DRAWS)})"
            rf"(?: (?:by |по )?{reason})?"
        ),
    )


def may_be_in_phrase(word: str) -> bool:
    """Whether ``word`` (blank-separated) may be one of the words of a result phrase: a cheap
    test before ``read_result`` for readers that look for a phrase among other words."""
    if word.isascii():
        lower = word.lower()
        return lower in _vocabulary().phrase_words or lower[:2] in ("b+", "w+") or lower[:1] == "("
    return _vocabulary().scripts.search(word) is not None


def read_result(text: str) -> DeclaredResult | None:
    """The declared result of a record's raw result value ``text`` (see the module docstring):
    ``None`` when it declares none; ``understood`` tells a result of words not known."""
    words = _normal(text)
    if words in _vocabulary().undeclared:
        return None
    read = _read_words(words)
    if read is None:
        return DeclaredResult(None, None, text)
    return DeclaredResult(read[0], read[1], text)


def understood(result: DeclaredResult) -> bool:
    """Whether ``result`` was read from known words (it has a winner or a reason)."""
    return result.winner is not None or result.reason is not None


def not_understood(text: str) -> str:
    """The message of a result value whose words are not known, quoting it."""
    return f"declared result {text!r} not understood: no declared winner to compare"


def read_black_score(text: str) -> str | None:
    """The winner of black's score ``text`` (RenjuNet ``bresult``): ``1`` black, ``0`` white,
    ``0.5`` (``1/2``, ``½``) a draw; ``None`` for anything else."""
    return BLACK_SCORES.get(text.strip())


#: Black's scores (``read_black_score``).
BLACK_SCORES = {
    "1": BLACK,
    "1.0": BLACK,
    "0": WHITE,
    "0.0": WHITE,
    "0.5": DRAW,
    ".5": DRAW,
    "1/2": DRAW,
    "½": DRAW,
}


def _read_words(words: str, brackets: bool = True) -> tuple[str | None, str | None] | None:
    """(winner, reason) of normalised ``words``, or ``None`` when they are not known
    (``brackets``: a reason in brackets at their end may follow, once)."""
    vocabulary = _vocabulary()
    fixed = vocabulary.words.get(words)
    if fixed is not None:
        return fixed
    if brackets and words.endswith(")") and "(" in words:
        # (split by hand: a pattern's backtracking over a long value of brackets is quadratic)
        at = words.rindex("(")
        return _with_reason(words[:at].rstrip(), words[at + 1 : -1])
    go = vocabulary.go.fullmatch(words)
    if go is not None:
        return _go_result(go.group(1), go.group(2))
    return _phrase(words) or _cjk_phrase(words.replace(" ", ""))


def _go_result(colour: str, rest: str) -> tuple[str, str | None]:
    """``B+...``/``W+...``: the winner, and the reason unless ``rest`` is empty or a score
    (one word not known is kept as the reason, as SGF writes it; more are not understood)."""
    winner = BLACK if colour == "b" else WHITE
    vocabulary = _vocabulary()
    if not rest or vocabulary.score.fullmatch(rest):
        return winner, None
    return winner, vocabulary.reasons.get(rest, rest)


def _with_reason(words: str, inside: str) -> tuple[str | None, str | None] | None:
    """``黑胜(禁手)``, ``black wins (time)``: the result of the words, the reason in brackets."""
    read = _read_words(words, brackets=False)
    if read is None or read[0] is None:
        return None
    reasons = _vocabulary().reasons
    return read[0], reasons.get(inside.replace(" ", "")) or reasons.get(inside) or read[1]


def _phrase(words: str) -> tuple[str, str | None] | None:
    """A phrase of words with blanks: a colour and a verb (``black wins by time``, ``white
    resigns``), a noun and a colour (``победа черных``), or a draw (``draw by agreement``)."""
    vocabulary = _vocabulary()
    m = vocabulary.colour_verb.fullmatch(words) or vocabulary.noun_colour.fullmatch(words)
    if m is not None:
        winner = vocabulary.colours[m.group("c")]
        verb = m.groupdict().get("v")
        reason = _reason(m.group("r"))
        if verb in LOSS_VERBS:
            return _OTHER[winner], reason or LOSS_VERBS[verb]
        return winner, reason
    m = vocabulary.draw.fullmatch(words)
    if m is not None:
        return DRAW, _reason(m.group("before")) or _reason(m.group("r"))
    return None


def _cjk_phrase(words: str) -> tuple[str, str | None] | None:
    """A CJK or Hangul phrase (blanks taken out): a colour, a reason and a win or loss
    (``黑中盘胜``, ``黒反則負け``, ``흑불계승``), or a resignation (``白认输``)."""
    vocabulary = _vocabulary()
    m = vocabulary.cjk.fullmatch(words)
    if m is not None:
        winner = vocabulary.colours[m.group("c")]
        if m.group("e") in LOSS_ENDINGS:
            winner = _OTHER[winner]
        return winner, _reason(m.group("r"))
    m = vocabulary.cjk_resigns.fullmatch(words)
    if m is not None:
        return _OTHER[vocabulary.colours[m.group("c")]], "resign"
    return None


def _reason(word: str | None) -> str | None:
    return None if word is None else _vocabulary().reasons.get(word)
