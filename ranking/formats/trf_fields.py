"""TRF fields both TRF readers read the same way: the full reader (``ranking.formats.trf_read``, which
builds the tournament model) and the columns' reader (``ranking.formats.crosstable``, which does not).

Rounds (``XXR``/``142``), scoring (JaVaFo ``XXS`` and TRF-2026 ``162``), tie-break lists
(``202``/``212``), the system a ``092``/``192`` text names, and the system the pairings imply.
Plain values in and out; only ``re`` and ``ranking.errors`` are imported, so a command that reads
a file into columns starts quickly.

>>> scoring_fields(parse_xxs("W=2 D=1", 1, "<trf>"), "<trf>", 1)["win"]
2.0
>>> system_named("swiss FIDE Dutch (JaVaFo)"), system_named("Double Round Robin")
('swiss', 'double-round-robin')
"""

from __future__ import annotations

import re

from ranking.errors import InputError

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

MAX_ID = 9999
NUMBER = re.compile(r"-?[0-9]{1,6}(?:\.[0-9]{1,6})?")
DIGITS = re.compile(r"[0-9]{1,9}")
FIDE_ID = re.compile(r"[0-9]{1,11}")
LINE_BREAK = re.compile(r"\r\n|\r|\n")

SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN = "swiss", "round-robin", "double-round-robin"
#: The longest line a TRF may have: a player line of 9999 rounds (columns 1-91, then 10 a round).
MAX_LINE = 91 + 10 * MAX_ID


def check_size(lines: list[str], source: str) -> None:
    """Refuse, before anything is read, a TRF with a line longer than ``MAX_LINE`` or more
    player lines (``001``) than start numbers (1-9999): a hostile file costs no more than
    reading it.  ``lines`` are the file's lines."""
    if lines and max(map(len, lines)) > MAX_LINE:
        number, line = next((number, line) for number, line in enumerate(lines, start=1) if len(line) > MAX_LINE)
        raise InputError(f"the line has {len(line):,} characters, at most {MAX_LINE:,} (a player line of "
                         f"{MAX_ID} rounds): expected TRF records, one per line", source=source, line=number)
    players = sum(1 for line in lines if line.startswith("001"))
    if players > MAX_ID:
        raise InputError(f"{players:,} player lines (001), at most {MAX_ID} (start numbers are 1-{MAX_ID})",
                         source=source)


def parse_rounds(tag: str, rest: str, number: int, source: str) -> int:
    """``XXR``/``142``: the number of rounds, 1-9999."""
    value = rest.strip()
    if not DIGITS.fullmatch(value) or not 1 <= int(value) <= MAX_ID:
        raise InputError(f"{tag}: expected the number of rounds (1-9999), got {value!r}", source=source, line=number)
    return int(value)


_XXS_KEYS = frozenset({"WW", "BW", "WD", "BD", "WL", "BL", "ZPB", "HPB", "FPB", "PAB", "FW", "FL", "W", "D", "L"})


def _number(text: str, what: str, number: int, source: str) -> float:
    if not NUMBER.fullmatch(text):
        raise InputError(f"{what}: expected a number such as 1 or 0.5, got {text!r}", source=source, line=number)
    return float(text)


def parse_xxs(rest: str, number: int, source: str) -> dict[str, float]:
    """JaVaFo ``XXS KEY=points ...`` (keys WW BW WD BD WL BL ZPB HPB FPB PAB FW FL W D)."""
    values: dict[str, float] = {}
    for token in rest.split():
        key, sep, value = token.partition("=")
        key = key.upper()
        if not sep or key not in _XXS_KEYS:
            raise InputError(
                f"XXS: expected KEY=points with KEY one of {', '.join(sorted(_XXS_KEYS))}, got {token!r}",
                source=source,
                line=number,
            )
        values[key] = _number(value, f"XXS {key}", number, source)
    return values


_162_CODES = {
    "W": "W",
    "D": "D",
    "L": "L",
    "A": "A",
    "P": "PAB",
    "X": "X",
    "F": "FPB",
    "H": "HPB",
    "Z": "ZPB",
}
_162_PAIR = re.compile(r"\s*([A-Za-z])\s*(-?[0-9]{1,6}(?:\.[0-9]{1,6})?)(?=\s|$)")


def parse_162(rest: str, number: int, source: str) -> dict[str, float]:
    """TRF-2026 ``162``: result code at column 6, points at 7-10, every 9 columns.

    Read forgivingly as any sequence of ``<code> <points>`` pairs; W = win (also forfeit win
    and full-point bye), D = draw (also half-point bye), L = loss, A = absence (zero-point
    bye and forfeit loss), P = pairing-allocated bye, X (unknown result) is ignored; F, H, Z
    are accepted for the full-, half- and zero-point bye."""
    values: dict[str, float] = {}
    position = 0
    while position < len(rest) and rest[position:].strip():
        matched = _162_PAIR.match(rest, position)
        if matched is None or matched.group(1).upper() not in _162_CODES:
            raise InputError(
                "162: expected result codes W D L A P X, each followed by its points "
                f"(such as '162  W 3.0    D 1.0'), got {rest.strip()!r}",
                source=source,
                line=number,
            )
        key = _162_CODES[matched.group(1).upper()]
        values[key] = float(matched.group(2))
        position = matched.end()
    values.pop("X", None)  # unknown result (adjourned game): nothing in Scoring holds it
    if "A" in values:
        absent = values.pop("A")
        values.setdefault("ZPB", absent)
        values.setdefault("FL", absent)
    return values


def scoring_fields(values: Mapping[str, float], source: str, line: int | None) -> dict[str, float | None]:
    """The ``ranking.scoring.rules.Scoring`` fields that XXS/162 keys give; colour-dependent wins or
    losses are not supported (InputError)."""

    def one(plain: str, white: str, black: str, default: float) -> float:
        found = {values[k] for k in (white, black) if k in values}
        if plain in values:
            found.discard(values[plain])
            if found:
                raise InputError(
                    f"scoring: {white}/{black} differ from {plain}={values[plain]:g}; points that depend "
                    "on the colour are supported for draws only",
                    source=source,
                    line=line,
                )
            return values[plain]
        if len(found) > 1:
            raise InputError(
                f"scoring: {white} and {black} differ; points that depend on the colour are supported for draws only",
                source=source,
                line=line,
            )
        return found.pop() if found else default

    win = one("W", "WW", "BW", 1.0)
    loss = one("L", "WL", "BL", 0.0)
    draw = values.get("D", values.get("WD", values.get("BD", 0.5)))
    draw_white = values.get("WD", draw)
    draw_black = values.get("BD", draw)
    coloured = not (draw_white == draw_black == draw)
    if not win > draw >= loss or (coloured and not win > max(draw_white, draw_black)):
        raise InputError(
            f"scoring: win {win:g}, draw {draw:g}, loss {loss:g}: a win must score more than a draw, "
            "a draw at least a loss",
            source=source,
            line=line,
        )
    return {
        "win": win,
        "draw": draw,
        "loss": loss,
        "draw_first": draw_white if coloured else None,
        "draw_second": draw_black if coloured else None,
        "pairing_bye": values.get("PAB"),
        "full_bye": values.get("FPB"),
        "half_bye": values.get("HPB"),
        "zero_bye": values.get("ZPB", 0.0),
        "forfeit_win": values.get("FW"),
        "forfeit_loss": values.get("FL"),
    }


def split_codes(rest: str) -> tuple[str, ...]:
    """Tie-break codes of ``202``/``212``: comma-separated, or blank-separated without commas."""
    parts = rest.split(",") if "," in rest else rest.split()
    return tuple(code.strip() for code in parts if code.strip())


def chain_record(tag: str, rest: str) -> tuple[tuple[str, ...], str]:
    """The codes of a ``202``/``212`` record and the primary score a ``212`` starts with:
    ``PTS`` (the points; ""), ``PTS:MP`` or ``PTS:GP`` (a team event ranked by match or by game
    points first; TRF-2026's ``:MP``/``:GP`` point systems), left out of the codes.

    >>> chain_record("212", "PTS:GP, MP, BH:GP"), chain_record("202", "BH, SB")
    ((('MP', 'BH:GP'), 'GP'), (('BH', 'SB'), ''))
    """
    codes = split_codes(rest)
    if tag == "212" and codes and codes[0].upper() in ("PTS", "PTS:MP", "PTS:GP"):
        return codes[1:], codes[0].upper()[4:]
    return codes, ""


def system_named(text: str) -> str | None:
    """The system a ``092``/``192`` type text names (``"swiss"``, ``"round-robin"``,
    ``"double-round-robin"``), or None when it does not say; the FIDE Swiss systems' codes
    (``FIDE_DUTCH_2025``, Burstein, Dubov, Lim) name a Swiss.

    >>> system_named("FIDE_DUTCH_2025_BAKU"), system_named("Burstein")
    ('swiss', 'swiss')
    """
    lower = text.lower()
    if "swiss" in lower or re.search(r"dutch|burstein|dubov|\blim\b", lower):
        return SWISS
    robin = bool(re.search(r"round[\s_-]*robin|\brr\b|berger", lower))
    if "double" in lower:
        return DOUBLE_ROUND_ROBIN
    if robin:
        return ROUND_ROBIN
    return None


def system_scheduled(count: int, games: int, pairs: Iterable[tuple[int, int]]) -> str:
    """``"round-robin"`` (``"double-round-robin"``) when every pair of the ``count`` players is
    scheduled exactly once (twice) among the ``games`` ``pairs`` (one per game: played,
    forfeited or unfinished), ``"swiss"`` otherwise."""
    if count < 2 or games < count * (count - 1) // 2:  # some pair never met: ``pairs`` is not read
        return SWISS
    meetings: dict[tuple[int, int], int] = {}
    for first, second in pairs:
        pair = (first, second) if first < second else (second, first)
        meetings[pair] = meetings.get(pair, 0) + 1
    if len(meetings) != count * (count - 1) // 2:  # some pair never met: O(games), not O(players²)
        return SWISS
    counts = set(meetings.values())
    if counts == {1}:
        return ROUND_ROBIN
    if counts == {2}:
        return DOUBLE_ROUND_ROBIN
    return SWISS
