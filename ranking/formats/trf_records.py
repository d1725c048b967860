"""The TRF records' tags and letters: the one table of each that reading and writing share.

The record tags of FIDE C.04 Annex 2 "TRF-16" (``001`` players, ``012``/``092``/``192``
tournament records, ``013`` teams), of the TEC's TRF-2026 (approved by FIDE Council 12/05/2025:
``142`` rounds, ``162`` scoring, ``202``/``212`` tie-breaks, ``310``/``320``/``330``/``300``/``362``
teams, ``240`` byes) and of the JaVaFo Advanced User Manual ("TRF(x)": ``XXR``, ``XXS``); the
``092`` names of the systems; the result letters of the two players of one game (C.04 Annex 2:
``1 0 = + - W D L`` and blank); the ``240`` bye letters (``F H Z``); and the columns of a record.
``ranking.formats.trf_read`` and ``ranking.formats.trf_teams`` read with them,
``ranking.formats.trf_write`` writes with them.

>>> _LETTERS[(Result.DRAW, True)], _field("001    1", 5, 8)
(('=', '='), '   1')
"""

from __future__ import annotations

from ranking.event.model import ByeKind, Result, System, TeamByeKind

#: TOML key of ``[tournament]`` -> the TRF record that holds it (C.04 Annex 2, TRF-16).
HEADER_RECORDS: dict[str, str] = {
    "place": "022",
    "federation": "032",
    "start_date": "042",
    "end_date": "052",
    "chief_arbiter": "102",
    "deputy_arbiters": "112",
    "time_control": "122",
}

PLAYER = "001"
NAME = "012"
TYPE = "092"
ENCODED_TYPE = "192"
ROUNDS_TAGS = ("XXR", "142")
SCORING_TAGS = ("XXS", "162")
CHAIN_TAGS = ("202", "212")
TEAM16 = "013"
TEAM26 = "310"
TEAM_PAB = "320"
TEAM_FORFEIT = "330"
TEAM_ORDER = "300"
TEAM_SCORING = "362"
BYES26 = "240"
TEAM_FORFEITS = ("+-", "-+", "--")
_MAX_TEAM = 999

#: The ``092`` text ``write_trf`` writes for each system (and ``parse_trf`` does not keep).
TYPE_NAMES = {
    System.SWISS: "Swiss",
    System.ROUND_ROBIN: "Round Robin",
    System.DOUBLE_ROUND_ROBIN: "Double Round Robin",
}


#: Letters of the two players of one game (this player's, the opponent's) -> result from
#: this player's side as white, and whether the game was rated (W/D/L: under one move).
_PAIRS: dict[tuple[str, str], tuple[Result | None, bool]] = {
    ("1", "0"): (Result.WHITE_WINS, True),
    ("0", "1"): (Result.BLACK_WINS, True),
    ("=", "="): (Result.DRAW, True),
    ("0", "0"): (Result.BOTH_LOSE, True),
    ("=", "0"): (Result.WHITE_HALF, True),
    ("0", "="): (Result.BLACK_HALF, True),
    ("W", "L"): (Result.WHITE_WINS, False),
    ("L", "W"): (Result.BLACK_WINS, False),
    ("D", "D"): (Result.DRAW, False),
    ("L", "L"): (Result.BOTH_LOSE, False),
    ("D", "L"): (Result.WHITE_HALF, False),
    ("L", "D"): (Result.BLACK_HALF, False),
    ("+", "-"): (Result.WHITE_WINS_FORFEIT, True),
    ("-", "+"): (Result.BLACK_WINS_FORFEIT, True),
    ("-", "-"): (Result.DOUBLE_FORFEIT, True),
    (" ", " "): (None, True),
}
_LETTERS = {(result, rated): pair for pair, (result, rated) in _PAIRS.items() if result is not None}

_240_KINDS = {"F": TeamByeKind.FPB, "H": TeamByeKind.HPB, "Z": TeamByeKind.ZPB}
_240_LETTERS = {TeamByeKind.FPB: "F", TeamByeKind.HPB: "H", TeamByeKind.ZPB: "Z"}
_PLAYER_240 = {TeamByeKind.FPB: ByeKind.FULL, TeamByeKind.HPB: ByeKind.HALF, TeamByeKind.ZPB: ByeKind.ZERO}


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive) of ``line``, blank-padded."""
    return line[first - 1 : last].ljust(last - first + 1)
