"""The tournament model: players, games, byes and withdrawals as frozen dataclasses.

Colours are the first and second mover: white/red moves first, black second (CXA, FIDE).
A ``Tournament`` is what a TRF or tournament TOML file describes; ``ranking.standings``
turns it into standings.  Nothing here does I/O.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ranking.rules import Rules

if TYPE_CHECKING:
    from ranking.teams import Team, TeamBye, TeamMatch


class GameKind(enum.StrEnum):
    """Which game is played: decides the colour words (white/black or red/black)."""

    CHESS = "chess"
    XIANGQI = "xiangqi"

    @property
    def first_colour(self) -> str:
        return "red" if self is GameKind.XIANGQI else "white"


class System(enum.StrEnum):
    """The pairing system; round robins follow FIDE C.07 15.2 for unplayed games."""

    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"

    @property
    def is_round_robin(self) -> bool:
        return self is not System.SWISS


class Result(enum.StrEnum):
    """The result of one game, written from the first mover's side."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_FORFEIT = "+-"
    BLACK_WINS_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"
    BOTH_LOSE = "0-0"  # played, both scored zero (arbiter's decision; TRF 0/0)
    WHITE_HALF = "1/2-0"  # played, white half a point, black nothing (TRF =/0)
    BLACK_HALF = "0-1/2"

    @property
    def outcomes(self) -> tuple[int, int]:
        """(white's, black's) outcome as 2 win, 1 draw, 0 loss (``ranking.rules.Outcome``)."""
        return _OUTCOMES[self]

    @property
    def is_forfeit(self) -> bool:
        return self in (Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT)

    @classmethod
    def parse(cls, text: str) -> Result:
        """Read a result as arbiters write it: ``1-0``, ``0-1``, ``1/2-1/2``, ``½-½``, ``=``,
        ``+-``, ``-+``, ``--`` and the 2/1/0 forms ``2-0``, ``0-2``, ``1-1``.

        >>> Result.parse("½-½")
        <Result.DRAW: '1/2-1/2'>
        """
        key = text.strip().replace(" ", "").replace("½", "1/2").replace("0.5", "1/2")
        found = _RESULT_SPELLINGS.get(key)
        if found is None:
            raise ValueError(
                f"unknown result {text!r}: expected one of 1-0, 0-1, 1/2-1/2, =, +-, -+, --"
            )
        return found


_OUTCOMES = {
    Result.WHITE_WINS: (2, 0),
    Result.BLACK_WINS: (0, 2),
    Result.DRAW: (1, 1),
    Result.WHITE_WINS_FORFEIT: (2, 0),
    Result.BLACK_WINS_FORFEIT: (0, 2),
    Result.DOUBLE_FORFEIT: (0, 0),
    Result.BOTH_LOSE: (0, 0),
    Result.WHITE_HALF: (1, 0),
    Result.BLACK_HALF: (0, 1),
}

_RESULT_SPELLINGS = {
    "1-0": Result.WHITE_WINS,
    "2-0": Result.WHITE_WINS,
    "0-1": Result.BLACK_WINS,
    "0-2": Result.BLACK_WINS,
    "1/2-1/2": Result.DRAW,
    "=": Result.DRAW,
    "1-1": Result.DRAW,
    "+-": Result.WHITE_WINS_FORFEIT,
    "+:-": Result.WHITE_WINS_FORFEIT,
    "-+": Result.BLACK_WINS_FORFEIT,
    "-:+": Result.BLACK_WINS_FORFEIT,
    "--": Result.DOUBLE_FORFEIT,
    "-:-": Result.DOUBLE_FORFEIT,
    "0-0": Result.BOTH_LOSE,
    "1/2-0": Result.WHITE_HALF,
    "0-1/2": Result.BLACK_HALF,
}


class ByeKind(enum.StrEnum):
    """A round without an opponent, by its TRF letter (FIDE C.07 16.1-16.2)."""

    PAIRING = "U"  # pairing-allocated bye (PAB), 16.2.1
    FULL = "F"  # full-point bye, 16.2.1
    HALF = "H"  # requested half-point bye
    ZERO = "Z"  # requested zero-point bye, absence, or a round after withdrawal (16.1)

    @property
    def is_requested(self) -> bool:
        """Half- and zero-point byes are the requested byes of FIDE C.07 16.1."""
        return self in (ByeKind.HALF, ByeKind.ZERO)


@dataclass(frozen=True, slots=True)
class Player:
    """A participant, known by starting number ``id`` (TRF "starting rank")."""

    id: int
    name: str
    rating: int = 0  # 0 = unrated
    federation: str = ""
    club: str = ""
    title: str = ""
    sex: str = ""
    fide_id: str = ""
    birth: str = ""


@dataclass(frozen=True, slots=True)
class Game:
    """One game between ``white`` (first mover, red in xiangqi) and ``black``.

    ``result`` is None while the game is unfinished.  ``rated`` is False for the TRF
    codes W/D/L (a result that stands but was not rated, e.g. under one move played).
    Fouls (犯规, CXA 14.1) are recorded per game and per colour.
    """

    round: int
    white: int
    black: int
    result: Result | None
    board: int = 0
    rated: bool = True
    colours_known: bool = True  # False when a TRF gave no colour (e.g. some forfeits)
    fouls_white: int = 0
    fouls_black: int = 0


@dataclass(frozen=True, slots=True)
class Bye:
    """A round in which ``player`` had no opponent (FIDE C.07 16.2)."""

    round: int
    player: int
    kind: ByeKind


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """``player`` left after ``after_round``: every later round is a zero-point bye (16.1)."""

    player: int
    after_round: int


@dataclass(frozen=True)
class Tournament:
    """Everything standings are computed from.

    ``rules`` is the tournament's own configuration (a preset plus overrides), or None
    to use the default for its system.  ``records`` keeps TRF records that Tiebreak has
    no use for, so they survive an export.
    """

    name: str
    players: tuple[Player, ...]
    rounds: int
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    system: System = System.SWISS
    game: GameKind = GameKind.CHESS
    rules: Rules | None = None
    records: tuple[tuple[str, str], ...] = field(default=())
    playoff_games: tuple[Game, ...] = ()  # rounds counted from 1 within the play-off (RULES.md 6)
    # Team events (CXA 13.2, 14.5-14.8; FIDE C.07 11-13): teams with rosters; matches are formed
    # from the members' games, or given by totals or as forfeits in ``team_matches``.
    teams: tuple[Team, ...] = ()
    team_matches: tuple[TeamMatch, ...] = ()
    team_byes: tuple[TeamBye, ...] = ()
    team_rules: str = ""  # a team preset (ranking.teams.TEAM_PRESETS); "" = fide-team or cxa-team
    team_tiebreaks: tuple[str, ...] = ()  # replaces the team preset's chain

    def player(self, player_id: int) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)

    @property
    def rounds_with_results(self) -> int:
        """The last round in which a game has a result (0 before the first).

        Byes do not count: arbiters enter requested byes for future rounds in advance.  A
        tournament of byes alone (no game yet) counts its last bye.
        """
        finished = [game.round for game in self.games if game.result is not None]
        if finished:
            return max(finished)
        if self.games:
            return 0
        return max((bye.round for bye in self.byes), default=0)
