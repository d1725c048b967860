"""Reading arbiters' result messages, and the ``callback_data`` of inline buttons.

Pure functions: no Telegram, no store.  ``parse_message`` turns a free-text message into
``ResultEntry`` values (round, board, result, foul) and ``Problem`` values (what could not be
read, with a ``ProblemReason`` the bot localises through ``bot.messages.describe_problem``).

The grammar, one result per line (a line may also hold several, separated by ``;``)::

    [location] result [foul]          also: [location] foul result

    location   R3 B5 | R3B5 | round 3 board 5 | ronda 3 tablero 5 | ván 3 bàn 5 | 第3轮第5台
               | 3.5 | 3/5 | 3 5          round 3, board 5
               | B5 | 5 | 第5台 | bàn 5    board 5 of the current round
    result     1-0 0-1 ½-½ 1/2-1/2 0.5-0.5 1/2 = draw remis 1:0 +- -+ -- 2-0 0-2 1-1 ...
               红胜 黑胜 和 和棋 红负 黑负 先胜 先负 先和 | đỏ thắng, đen thắng, hòa (also without
               diacritics: do thang, den thang, hoa) | blancas ganan, negras ganan, tablas, empate
               | white wins, black wins, red wins
    foul       foul black | foul white | foul red (= white, the first mover) | 犯规 黑 | 黑犯规
               | phạm quy đen | falta negras, each with an optional count: foul black 2, 犯规 黑 2次

Decisions (the README's table repeats the examples):

- Lines are split on line breaks and on ``;`` (also the full-width ``；``), never on ``,``:
  a comma is a decimal comma in Spanish and Vietnamese (``0,5-0,5``) and people write
  ``R3, B5: 1-0``.  Entries of one line share its ``line`` number (1-based).
- A line that is empty, or starts with ``#`` or ``//``, is ignored; text in parentheses is a
  remark and is ignored (``5 1-0 (on time)``).  A leading bullet (``-``, ``*``, ``•``) is ignored.
- Input is NFKC-normalised, so full-width digits and punctuation (``１－０``, ``：``) read as
  ASCII; dashes (– — −) read as ``-``; letters are case-insensitive and diacritics are optional
  (``hoà`` = ``hòa`` = ``hoa``).  Traditional characters 紅 勝 負 規 輪 臺 read as simplified.
- Chinese numerals before 轮, 台 or 桌 are numbers: ``第三轮第五台 红胜``, ``三轮五台 和``,
  ``第十二台``.
- ``B5`` or a bare ``5`` is a board of ``current_round``; with no current round it is the
  problem ``NO_ROUND``.  Two bare numbers (``3 5 1-0``, ``3:5 1-0``) are round and board, as
  in ``tiebreak result open 3 5 1-0``.
- A line that is a result alone (``1-0``, ``1/2``) is ``MISSING_BOARD``.
- A foul needs a result on the same line: ``ResultEntry.result`` is never None, so
  ``R3 B5 foul black`` alone is ``MISSING_RESULT``.  ``red`` is the first mover (white).
- A board named twice in one message with the same result (and foul) is a ``DUPLICATE``
  problem on the later line; with another result it is a ``CONTRADICTION``, and the whole
  message is refused: nothing of it is entered, since either line may be the mistake.
- A line holding an invisible text-direction control (U+202A-202E, U+2066-2069, U+200E,
  U+200F, U+061C) is a ``BIDI_CONTROL`` problem: a right-to-left override shows ``1-0`` where
  ``0-1`` is written, so what the arbiter sees is not what would be recorded.
- Rounds are 1-999, boards 1-9999 and foul counts 1-99; whether the round is paired and the
  board exists is for the bot to check against the tournament.

Every line is examined with a few anchored regular expressions that have no nested
quantifiers, so the time is linear in the length of the message (4,000 lines take under
0.1 s on the reference machine).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ranking.event.model import Result
from ranking.scoring.spelling import BIDI_CONTROLS, fold, lookup_result, normalise, parse_result

__all__ = [
    "MAX_BOARD",
    "MAX_CALLBACK_BYTES",
    "MAX_FOULS",
    "MAX_ROUND",
    "Callback",
    "ParsedMessage",
    "Problem",
    "ProblemReason",
    "ResultEntry",
    "decode_callback",
    "encode_callback",
    "match_entries",
    "parse_message",
    "parse_result",
]

MAX_ROUND = 999
MAX_BOARD = 9999
MAX_FOULS = 99
MAX_DETAIL = 60  # characters of the offending text kept in Problem.detail


class ProblemReason(enum.StrEnum):
    """Why a line could not be read; ``bot.messages.PROBLEM_MESSAGES`` has one message for each."""

    EMPTY = "empty"  # the whole message is blank (line 0)
    UNREADABLE = "unreadable"  # neither a board nor a result in it
    MISSING_BOARD = "missing-board"  # a result, but no board
    NO_ROUND = "no-round"  # a board without a round, and no current round
    BAD_ROUND = "bad-round"  # detail: the number as written (not 1-999)
    BAD_BOARD = "bad-board"  # detail: the number as written (not 1-9999)
    MISSING_RESULT = "missing-result"  # a board (or a foul) but no result
    UNKNOWN_RESULT = "unknown-result"  # detail: the text where a result was expected
    UNKNOWN_FOUL_SIDE = "unknown-foul-side"  # detail: what followed the foul word ("" if nothing)
    BAD_FOUL_COUNT = "bad-foul-count"  # detail: the count as written (not 1-99)
    DUPLICATE = "duplicate"  # detail: the line number where the board was first given
    CONTRADICTION = "contradiction"  # detail: the line number that gives the board another result
    BIDI_CONTROL = "bidi-control"  # detail: the control character, as U+202E
    NOT_A_MATCH = "not-a-match"  # two results for a board that is one game; detail: the board


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One result read from a message.  ``foul_side`` is ``"white"`` (the first mover, red in
    xiangqi) or ``"black"``, with ``foul_count`` >= 1; without a foul, None and 0."""

    line: int
    text: str
    round: int
    board: int
    result: Result
    foul_side: str | None = None
    foul_count: int = 0
    second: Result | None = None  # the match's other game (VN 21.2): ``R1 B1 1-0 0-1``


@dataclass(frozen=True, slots=True)
class Problem:
    """A line that could not be read: ``text`` is the line as written, ``detail`` the part
    that was wrong (see ``ProblemReason``)."""

    line: int
    text: str
    reason: ProblemReason
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ParsedMessage:
    entries: tuple[ResultEntry, ...]
    problems: tuple[Problem, ...]


# -- fouls -----------------------------------------------------------------------------------

_FOUL_SIDES = {
    "white": "white", "red": "white", "trang": "white", "do": "white", "blancas": "white",
    "blanco": "white", "blanca": "white", "rojas": "white", "rojo": "white", "roja": "white",
    "红": "white", "红方": "white", "白": "white", "白方": "white",
    "black": "black", "den": "black", "negras": "black", "negro": "black", "negra": "black",
    "黑": "black", "黑方": "black",
}
_LATIN_SIDE = "|".join(sorted((s for s in _FOUL_SIDES if s.isascii()), key=len, reverse=True))
_SIDE = rf"(?:(?<![a-z])(?:{_LATIN_SIDE})(?![a-z])|红方|白方|黑方|红|白|黑)"
_FOUL = re.compile(
    rf"(?:(?P<pre>{_SIDE}) ?)?"
    r"(?P<kw>(?<![a-z])(?:fouls?|faltas?|pham quy|pham luat)(?![a-z])|犯规)"
    rf"(?: ?:)?(?: ?(?P<post>{_SIDE}))?"
    r"(?: ?x? ?(?P<count>[0-9]+)(?![0-9./+=:-]) ?(?:次|lan|times|veces)?)?"
)
_WORD_AFTER = re.compile(r" ?:? ?([^ ]{0,20})")


@dataclass(frozen=True, slots=True)
class _Foul:
    start: int
    end: int
    side: str | None
    count: int
    problem: ProblemReason | None = None
    detail: str = ""


def _find_foul(folded: str, display: str) -> _Foul | None:
    match = _FOUL.search(folded)
    if match is None:
        return None
    start, end = match.span()
    pre, post = match.group("pre"), match.group("post")
    if pre is not None and post is not None:  # "ganan blancas falta negras": the side after wins
        start, pre = match.start("kw"), None
    sides = {_FOUL_SIDES[s] for s in (pre, post) if s is not None}
    if not sides:  # "foul purple": the word after the foul word is taken as its side
        word = _WORD_AFTER.match(folded, end)
        if word is None or not word.group(1) or lookup_result(word.group(1)) is not None:
            return _Foul(start, end, None, 0, ProblemReason.UNKNOWN_FOUL_SIDE, "")
        return _Foul(start, word.end(), None, 0, ProblemReason.UNKNOWN_FOUL_SIDE, display[word.start(1):word.end()])
    side = sides.pop()
    digits = match.group("count")
    if digits is None:
        return _Foul(start, end, side, 1)
    count = int(digits) if len(digits) <= 3 else 0
    if not 1 <= count <= MAX_FOULS:
        return _Foul(start, end, side, 0, ProblemReason.BAD_FOUL_COUNT, _short(digits))
    return _Foul(start, end, side, count)


# -- locations -------------------------------------------------------------------------------

_NUMBER_END = r"(?![0-9./+-])"
_LOCATION = re.compile(
    r"(?:(?:round|ronda|rnd|rd|r|vong|van) ?[.#:]? ?(?P<r>[0-9]+)" + _NUMBER_END
    + r"|第? ?(?P<rz>[0-9]+) ?轮"
    + r"|(?:board|table|tablero|mesa|bd|tab|ban|b|t) ?[.#:]? ?(?P<b>[0-9]+)" + _NUMBER_END
    + r"|第? ?(?P<bz>[0-9]+) ?[台桌]"
    + r"|(?P<bare>[0-9]+)" + _NUMBER_END + r")"
)
_PAIR = re.compile(r"(?P<r>[0-9]+)[./](?P<b>[0-9]+)" + _NUMBER_END)
_SEPARATORS = re.compile(r"[ ,:]*")


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "round", "board", "pair", "bare"
    end: int
    numbers: tuple[str, ...]


def _location_tokens(folded: str) -> list[_Token]:
    """Up to three location tokens at the start of the line (greedy; the caller backtracks)."""
    tokens: list[_Token] = []
    pos = _SEPARATORS.match(folded).end()
    pair = _PAIR.match(folded, pos)
    if pair:
        tokens.append(_Token("pair", pair.end(), (pair.group("r"), pair.group("b"))))
        return tokens
    while len(tokens) < 3:
        match = _LOCATION.match(folded, pos)
        if match is None:
            break
        groups = match.groupdict()
        if groups["r"] or groups["rz"]:
            tokens.append(_Token("round", match.end(), (groups["r"] or groups["rz"],)))
        elif groups["b"] or groups["bz"]:
            tokens.append(_Token("board", match.end(), (groups["b"] or groups["bz"],)))
        else:
            tokens.append(_Token("bare", match.end(), (groups["bare"],)))
        pos = _SEPARATORS.match(folded, match.end()).end()
    return tokens


def _resolve(tokens: list[_Token]) -> tuple[str | None, str | None] | None:
    """(round, board) as written, or None when the tokens do not make a location."""
    round_text = board_text = None
    bare: list[str] = []
    for token in tokens:
        if token.kind == "pair":
            return token.numbers
        if token.kind == "round":
            if round_text is not None:
                return None
            round_text = token.numbers[0]
        elif token.kind == "board":
            if board_text is not None:
                return None
            board_text = token.numbers[0]
        else:
            bare.append(token.numbers[0])
    if len(bare) == 2 and round_text is None and board_text is None:
        return bare[0], bare[1]
    if len(bare) > 1 or (bare and board_text is not None):
        return None
    if bare:
        board_text = bare[0]
    return round_text, board_text


# -- lines -----------------------------------------------------------------------------------

_SEGMENTS = re.compile(r"[;；]")


def _short(text: str) -> str:
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"


def _number(text: str, limit: int) -> int | None:
    if len(text) > 6:
        return None
    value = int(text)
    return value if 1 <= value <= limit else None


def _is_comment(line: str) -> bool:
    stripped = line.lstrip()
    return stripped.startswith(("#", "//", "＃", "／／"))


_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
               "九": 9}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
_CJK_NUMBER = re.compile(r"[零〇一二两三四五六七八九十百千]{1,8}(?= ?[轮台桌])")


def _cjk_value(numeral: str) -> int:
    """三 3, 十二 12, 二十 20, 一百零五 105 (a bare 十 is 10)."""
    total = digit = 0
    for char in numeral:
        if char in _CJK_UNITS:
            total += (digit or 1) * _CJK_UNITS[char]
            digit = 0
        else:
            digit = _CJK_DIGITS[char]  # 零 in 一百零五 only holds the place
    return total + digit


def _arabic_numbers(text: str) -> str:
    """Chinese numerals before 轮, 台 or 桌 as digits: 第三轮第五台 is 第3轮第5台."""
    return _CJK_NUMBER.sub(lambda match: str(_cjk_value(match.group())), text)


def _parse_segment(line: int, text: str, current_round: int | None) -> ResultEntry | Problem:
    display = _arabic_numbers(normalise(text))
    folded = fold(display)

    def problem(reason: ProblemReason, detail: str = "") -> Problem:
        return Problem(line, text, reason, _short(detail))

    foul = _find_foul(folded, display)
    if foul is not None:
        folded = (folded[: foul.start] + " " + folded[foul.end:]).strip()
        display = (display[: foul.start] + " " + display[foul.end:]).strip()
    if not folded.strip(" ,:"):
        return problem(ProblemReason.MISSING_RESULT if foul else ProblemReason.UNREADABLE, display)

    result = lookup_result(folded)
    if result is not None:  # a result alone: "1-0", "1/2", "1:0"
        return problem(ProblemReason.MISSING_BOARD, display)

    tokens = _location_tokens(folded)
    second: Result | None = None
    location: tuple[str | None, str | None] | None = None
    failure: tuple[ProblemReason, str] | None = None
    for count in range(len(tokens), 0, -1):  # longest location first, then shorter ones
        resolved = _resolve(tokens[:count])
        if resolved is None:
            continue
        rest_start = _SEPARATORS.match(folded, tokens[count - 1].end).end()
        rest = folded[rest_start:]
        result = lookup_result(rest) if rest else None
        if result is None and rest:
            result, second = _two_results(rest)
        if result is not None:
            location = resolved
            break
        if failure is None:
            location = resolved
            failure = ((ProblemReason.UNKNOWN_RESULT, display[rest_start:]) if rest
                       else (ProblemReason.MISSING_RESULT, ""))
    if location is None:
        return problem(ProblemReason.UNREADABLE, display)

    round_text, board_text = location
    if board_text is None:
        return problem(ProblemReason.MISSING_BOARD, display)
    if round_text is not None and _number(round_text, MAX_ROUND) is None:
        return problem(ProblemReason.BAD_ROUND, round_text)
    board = _number(board_text, MAX_BOARD)
    if board is None:
        return problem(ProblemReason.BAD_BOARD, board_text)
    if result is None:
        assert failure is not None
        return problem(*failure)
    if foul is not None and foul.problem is not None:
        return problem(foul.problem, foul.detail)
    round_number = _number(round_text, MAX_ROUND) if round_text is not None else current_round
    if round_number is None:
        return problem(ProblemReason.NO_ROUND, board_text)
    if foul is None:
        return ResultEntry(line, text, round_number, board, result, second=second)
    return ResultEntry(line, text, round_number, board, result, foul.side, foul.count, second)


def _two_results(folded: str) -> tuple[Result | None, Result | None]:
    """The results of both games of a two-game match (VN 21.2), written one after the other
    (``1-0 0-1``, ``红胜 和``, ``do thang, hoa``); (None, None) when the text is not two results."""
    for split in (match.start() for match in re.finditer(r"[ ,]", folded)):
        first = lookup_result(folded[:split].strip(" ,"))
        second = lookup_result(folded[split:].strip(" ,")) if first is not None else None
        if second is not None:
            return first, second
    return None, None


def match_entries(entries: Sequence[ResultEntry],
                  boards_of: Callable[[int, int], tuple[int, ...]]) -> tuple[list[ResultEntry], list[Problem]]:
    """Entries giving the two results of a match (``ResultEntry.second``) as one entry per game:
    ``boards_of(round, board)`` is the boards of the match the board belongs to, in the order
    its games are played (``ranking.event.matches.match_boards``), and the results follow that order,
    whichever of its boards the line names.  A board that is one game (or unknown) with two
    results is a ``NOT_A_MATCH`` problem; an entry with one result is kept as it is."""
    kept: list[ResultEntry] = []
    problems: list[Problem] = []
    for entry in entries:
        if entry.second is None:
            kept.append(entry)
            continue
        boards = boards_of(entry.round, entry.board)
        if len(boards) != 2:
            problems.append(Problem(entry.line, entry.text, ProblemReason.NOT_A_MATCH, str(entry.board)))
            continue
        first = replace(entry, board=boards[0], second=None)
        if entry.foul_side is not None and boards[0] != entry.board:
            first = replace(first, foul_side=None, foul_count=0)  # a foul stays with the board named
        other = replace(entry, board=boards[1], result=entry.second, second=None)
        if entry.foul_side is not None and boards[1] != entry.board:
            other = replace(other, foul_side=None, foul_count=0)
        kept += [first, other]
    return kept, problems


def parse_message(text: str, current_round: int | None) -> ParsedMessage:
    """Every result of an arbiter's message, and every line that could not be read.

    ``current_round`` is the round a board without a round belongs to (None, or a number below
    1: such lines are ``NO_ROUND`` problems).  Entries and problems come in the order of the
    message; a message that gives one board two different results has no entries at all
    (``CONTRADICTION``).
    """
    if current_round is not None and current_round < 1:
        current_round = None
    entries: list[ResultEntry] = []
    problems: list[Problem] = []
    seen: dict[tuple[int, int], ResultEntry] = {}
    contradicted = False
    if not text.strip():
        return ParsedMessage((), (Problem(0, "", ProblemReason.EMPTY, ""),))
    for number, raw_line in enumerate(text.splitlines(), start=1):
        if not raw_line.strip() or _is_comment(raw_line):
            continue
        controls = [char for char in raw_line if char in BIDI_CONTROLS]
        if controls:
            shown = "".join(char for char in raw_line if char not in BIDI_CONTROLS).strip()
            problems.append(Problem(number, shown, ProblemReason.BIDI_CONTROL, f"U+{ord(controls[0]):04X}"))
            continue
        for segment in _SEGMENTS.split(raw_line):
            segment = segment.strip()
            if not segment:
                continue
            parsed = _parse_segment(number, segment, current_round)
            if isinstance(parsed, Problem):
                problems.append(parsed)
                continue
            key = (parsed.round, parsed.board)
            first = seen.get(key)
            if first is not None:
                same = (first.result, first.foul_side, first.foul_count) == (
                    parsed.result, parsed.foul_side, parsed.foul_count)
                contradicted = contradicted or not same
                problems.append(Problem(number, segment, ProblemReason.DUPLICATE if same
                                        else ProblemReason.CONTRADICTION, str(first.line)))
                continue
            seen[key] = parsed
            entries.append(parsed)
    return ParsedMessage(() if contradicted else tuple(entries), tuple(problems))


def whole_number(word: str, limit: int = 10**12) -> int | None:
    """A whole number written in ASCII digits (a starting number, a Telegram user id), at most
    ``limit``; None for anything else, such as ``²`` or ``١٢`` (``str.isdigit`` is true for
    them, yet ``int`` refuses the first).

    >>> whole_number("12"), whole_number("²"), whole_number("-3"), whole_number("")
    (12, None, None, None)
    """
    word = word.strip()
    if not word or not word.isascii() or not word.isdigit() or len(word) > 15:
        return None
    value = int(word)
    return value if value <= limit else None


# -- inline buttons --------------------------------------------------------------------------

MAX_CALLBACK_BYTES = 64  # Telegram's limit on callback_data
_CALLBACK_SEPARATOR = "|"


@dataclass(frozen=True, slots=True)
class Callback:
    """Decoded ``callback_data``: an action and its fields, all as text."""

    action: str
    fields: tuple[str, ...]

    def int(self, index: int) -> int:
        """Field ``index`` as an integer (ValueError if it is not one)."""
        return int(self.fields[index])


def encode_callback(action: str, *fields: int | str) -> str:
    """``callback_data`` for an inline button: ``action|field|field...``.

    ``encode_callback("r", 7, 3, 5, "1-0") == "r|7|3|5|1-0"``.  The action and the text fields
    must not contain ``|``; the action must not be empty.  Raises ValueError when the result
    is longer than Telegram's 64 bytes (UTF-8), so keep actions to a letter or two and refer to
    a tournament by a short id rather than a long slug.
    """
    if not action or _CALLBACK_SEPARATOR in action:
        raise ValueError(f"callback action {action!r}: expected a non-empty text without '|'")
    parts = [action]
    for field in fields:
        if isinstance(field, bool) or not isinstance(field, int | str):
            raise ValueError(f"callback field {field!r}: expected an int or a str")
        part = str(field)
        if _CALLBACK_SEPARATOR in part:
            raise ValueError(f"callback field {part!r} contains '|'")
        parts.append(part)
    data = _CALLBACK_SEPARATOR.join(parts)
    size = len(data.encode("utf-8"))
    if size > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback data {data!r} is {size} bytes; Telegram allows {MAX_CALLBACK_BYTES}")
    return data


def decode_callback(data: str) -> Callback:
    """The inverse of ``encode_callback``: ``decode_callback("r|7|3|5|1-0")`` is
    ``Callback("r", ("7", "3", "5", "1-0"))``; integers come back as text (``Callback.int``).
    Raises ValueError for empty or over-long data."""
    if not data or len(data.encode("utf-8")) > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback data {data!r}: expected 1-{MAX_CALLBACK_BYTES} bytes")
    action, *fields = data.split(_CALLBACK_SEPARATOR)
    if not action:
        raise ValueError(f"callback data {data!r} has no action")
    return Callback(action, tuple(fields))
