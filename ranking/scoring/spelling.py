"""How arbiters spell results, in every language Tiebreak speaks: one reading shared by the
bot's result messages (``bot/parsing.py``) and ``tiebreak result`` (docs/architecture.md#command-line: "``tiebreak
result`` accepts every result spelling the bot accepts").

Pure text functions.  ``normalise`` makes the text NFKC with one kind of dash and slash,
drops remarks in parentheses and a leading bullet; ``fold`` lowers case and drops diacritics
one character for one (positions are kept); ``parse_result`` reads a whole result;
``written_result`` writes one back in the event's own terms (``1-1`` under 2/1/0 scoring,
``1/2-1/2`` in chess).

>>> parse_result("红胜"), parse_result("đen thắng"), parse_result("0,5-0,5"), parse_result("2-0")
(<Result.WHITE_WINS: '1-0'>, <Result.BLACK_WINS: '0-1'>, <Result.DRAW: '1/2-1/2'>, <Result.WHITE_WINS: '1-0'>)
>>> parse_result("purple wins") is None
True
"""

from __future__ import annotations

import re
import unicodedata

from ranking.event.model import Result
from ranking.scoring.points import board_points
from ranking.scoring.rules import CHESS, Scoring

__all__ = ["BIDI_CONTROLS", "WORD_JOINER", "fold", "lookup_result", "normalise", "parse_result", "written_points",
           "written_result"]

#: An invisible character (Unicode category Cf) that ``normalise`` drops: the command line puts
#: it in front of a result such as ``-+`` so that argparse does not take it for an option.
WORD_JOINER = "\u2060"

# -- normalisation ---------------------------------------------------------------------------

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\u2796"
_CHAR_MAP = str.maketrans(
    {
        **dict.fromkeys(_DASHES, "-"),
        "\u2044": "/",  # fraction slash: NFKC turns ½ into 1⁄2
        "\u2215": "/",
        "\u3001": ",",  # 、
        "\u2236": ":",  # ∶ ratio
        "\u00d7": "x",  # × in "x2"
        "紅": "红",
        "勝": "胜",
        "負": "负",
        "規": "规",
        "輪": "轮",
        "臺": "台",
        "後": "后",
        "贏": "赢",
        "輸": "输",
    }
)
_SPACES = re.compile(r"\s+")
_REMARK = re.compile(r"\([^()]*\)")
_BULLET = re.compile(r"(?:[-*•·] )+")
_FOLD_CACHE: dict[str, str] = {}


def normalise(text: str) -> str:
    """NFKC, one kind of dash and slash, no remarks, single spaces; case is kept."""
    text = unicodedata.normalize("NFKC", text.replace("½", "1/2")).translate(_CHAR_MAP)
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    text = _SPACES.sub(" ", _REMARK.sub(" ", text)).strip()
    bullet = _BULLET.match(text)
    return text[bullet.end():] if bullet else text


def _fold_char(char: str) -> str:
    folded = _FOLD_CACHE.get(char)
    if folded is None:
        lower = char.lower()
        stripped = "".join(c for c in unicodedata.normalize("NFD", lower) if not unicodedata.combining(c))
        stripped = stripped.replace("đ", "d")
        folded = stripped if len(stripped) == 1 else (lower if len(lower) == 1 else char)
        if len(_FOLD_CACHE) < 10_000:
            _FOLD_CACHE[char] = folded
    return folded


def fold(text: str) -> str:
    """Lower case without diacritics (đ = d), one character for one: positions are kept."""
    return "".join(map(_fold_char, text))


# -- results ---------------------------------------------------------------------------------

_WHITE, _BLACK, _DRAW = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def _result_words() -> dict[str, Result]:
    """Result words, folded and without spaces."""
    words: dict[str, Result] = {}
    first = {
        "en": ["white", "red"],
        "zh": ["红", "红方", "白", "白方", "先", "先手"],
        "vi": ["do", "trang", "bendo", "bentrang"],
        "es": ["blancas", "blanco", "blanca", "rojas", "rojo", "roja", "lasblancas", "elrojo"],
    }
    second = {
        "en": ["black"],
        "zh": ["黑", "黑方", "后", "后手"],
        "vi": ["den", "benden"],
        "es": ["negras", "negro", "negra", "lasnegras", "elnegro"],
    }
    win = {"en": ["wins", "won", "win"], "zh": ["胜", "赢"], "vi": ["thang"],
           "es": ["gana", "ganan", "gano", "ganaron"]}
    lose = {"en": ["loses", "lost"], "zh": ["负", "输"], "vi": ["thua"], "es": ["pierde", "pierden"]}
    for lang in first:
        for colour, winner, loser in ((first, _WHITE, _BLACK), (second, _BLACK, _WHITE)):
            for side in colour[lang]:
                for verb in win[lang]:
                    words[side + verb] = winner
                    if lang == "es":
                        words[verb + side] = winner  # "ganan blancas"
                for verb in lose[lang]:
                    words[side + verb] = loser
    for word in ("draw", "drawn", "remis", "和", "和棋", "和局", "平", "平局", "先和", "后和",
                 "hoa", "hoaco", "tablas", "empate"):
        words[word] = _DRAW
    return words


_RESULT_WORDS = _result_words()
_HALF = re.compile(r"(?<![0-9])0[.,]5(?![0-9])")
_COLON_RESULT = re.compile(r"([0-9/]+):([0-9/]+)")


#: The invisible characters that change the direction text is shown in (Unicode bidi controls):
#: with a right-to-left override, ``0-1`` shows as ``1-0``.  A result holding one is not read.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def parse_result(text: str) -> Result | None:
    """A result in any accepted spelling (see the module docstring), or None; None also for a
    text holding a bidi control (``BIDI_CONTROLS``: what it shows is not what it says).

    >>> parse_result("红胜"), parse_result("đen thắng"), parse_result("0,5-0,5"), parse_result("\u202e0-1")
    (<Result.WHITE_WINS: '1-0'>, <Result.BLACK_WINS: '0-1'>, <Result.DRAW: '1/2-1/2'>, None)
    """
    if not BIDI_CONTROLS.isdisjoint(text):
        return None
    return lookup_result(fold(normalise(text)))


def lookup_result(folded: str) -> Result | None:
    key = folded.replace(" ", "").rstrip(".!。")
    if not key or len(key) > 40:
        return None
    found = _RESULT_WORDS.get(key)
    if found is not None:
        return found
    key = _COLON_RESULT.sub(r"\1-\2", _HALF.sub("1/2", key))
    if key in ("1/2", "1/2-1/2"):
        return _DRAW
    try:
        return Result.parse(key)
    except ValueError:
        return None


# -- writing a result in the event's terms ------------------------------------------------------

_FORFEIT_TEXT = {Result.WHITE_WINS_FORFEIT: "+-", Result.BLACK_WINS_FORFEIT: "-+", Result.DOUBLE_FORFEIT: "--"}


def written_result(result: Result, scoring: Scoring = CHESS, half: str = "1/2") -> str:
    """``result`` as the event scores it: the points of the first mover, a dash, the points of
    the second mover; forfeits as ``+-``, ``-+``, ``--``.  ``half`` writes half points (``½``
    on a phone).

    >>> from ranking.scoring.rules import Scoring
    >>> written_result(Result.DRAW), written_result(Result.DRAW, Scoring(2, 1, 0))
    ('1/2-1/2', '1-1')
    >>> written_result(Result.BLACK_WINS, Scoring(2, 1, 0)), written_result(Result.DRAW, CHESS, "½")
    ('0-2', '½-½')
    """
    if result.is_forfeit:
        return _FORFEIT_TEXT[result]
    white, black = board_points(scoring, result)
    return f"{written_points(white, half)}-{written_points(black, half)}"


def written_points(value: float, half: str | None = "½", decimal: str = ".") -> str:
    """Points as people write them: a whole number as it is (``1``, ``13``), a half point as
    ``half`` after the whole (``½``, ``1½`` on a phone or a page; ``1/2`` in a result), any
    other fraction, or a half when ``half`` is None, in decimals with the language's decimal
    sign ``decimal`` (``7.5``; ``7,5`` in Vietnamese and Spanish; ``0.25``).  The one place
    the command line, the bot and the site write a number of points (docs/rules.md#scoring).

    >>> written_points(1.5), written_points(0.5, "1/2"), written_points(7.5, None), written_points(0.25, "½", ",")
    ('1½', '1/2', '7.5', '0,25')
    >>> written_points(3.0), written_points(0.0)
    ('3', '0')
    """
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest == 0.5 and half is not None:
        return (str(int(whole)) if whole else "") + half
    return f"{value:g}".replace(".", decimal)
