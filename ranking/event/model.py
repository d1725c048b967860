"""The tournament model: players, games, byes, withdrawals, teams and team matches as frozen
dataclasses.

Colours are the first and second mover: white/red moves first, black second (CXA, FIDE).
A ``Tournament`` is what a TRF or tournament TOML file describes; ``ranking.standings.individual``
turns it into standings.  Nothing here does I/O.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields, replace

from ranking.scoring.rules import Rules, TeamRules, TeamScoring


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

    def scheduled_rounds(self, entrants: int) -> int:
        """The rounds a round robin of ``entrants`` players (or teams) has: n - 1, n for an odd
        field (everyone sits out once), twice that for a double round robin; 0 for a Swiss,
        whose rounds the regulations fix.

        >>> System.ROUND_ROBIN.scheduled_rounds(8), System.ROUND_ROBIN.scheduled_rounds(7)
        (7, 7)
        >>> System.DOUBLE_ROUND_ROBIN.scheduled_rounds(6), System.SWISS.scheduled_rounds(6)
        (10, 0)
        """
        if self is System.SWISS or entrants < 2:
            return 0
        cycle = entrants - 1 if entrants % 2 == 0 else entrants
        return 2 * cycle if self is System.DOUBLE_ROUND_ROBIN else cycle


class Seeding(enum.StrEnum):
    """How the pairing numbers (TPN) follow from the players (C.04.2 General Handling Rules 2).

    ``RATING``: the initial ranking list, by rating (highest first), then FIDE title, then name
    (``ranking.event.players.initial_ranking``).  ``AS_NUMBERED``: the starting numbers as given are
    the pairing numbers (every TRF; a tournament TOML file that says ``seeding = "as-numbered"``).
    """

    RATING = "rating"
    AS_NUMBERED = "as-numbered"


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
        """(white's, black's) outcome as 2 win, 1 draw, 0 loss (``ranking.scoring.rules.Outcome``)."""
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

    @property
    def word(self) -> str:
        """The name a tournament TOML file gives it: ``pab``, ``full``, ``half``, ``zero``."""
        return _BYE_WORDS[self]


_BYE_WORDS = {ByeKind.PAIRING: "pab", ByeKind.FULL: "full", ByeKind.HALF: "half", ByeKind.ZERO: "zero"}


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


def numbered_boards(games: Iterable[Game]) -> Iterator[Game]:
    """``games`` in order, each with its board: a game without one (board 0) gets the board
    after the highest its round has so far, as the store numbers them (``TournamentState``).
    Two games on one board of a round are a file's mistake (``ranking.formats.tomlfile`` refuses them).

    >>> [game.board for game in numbered_boards([Game(1, 1, 2, None, board=3), Game(1, 3, 4, None)])]
    [3, 4]
    """
    highest: dict[int, int] = {}
    for game in games:
        board = game.board or highest.get(game.round, 0) + 1
        highest[game.round] = max(highest.get(game.round, 0), board)
        yield game if game.board else replace(game, board=board)


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


# -- teams (CXA 13.2, 14.5-14.8; FIDE C.07 11-13) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Team:
    """A team; ``roster`` holds player ids in board order, the ones after the boards are reserves."""

    id: int
    name: str
    roster: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """One team match of a round.

    ``first`` is the team with white (red) on board 1.  Game points come from the board
    ``boards`` (``Game``s between members, scored with the event's game scoring), or from the
    explicit ``first_points``/``second_points`` when only totals are known (which win when both
    are given).  ``forfeit`` marks a whole forfeited match: ``"+-"`` (first wins), ``"-+"``
    (second wins) or ``"--"`` (both lose).  A match with neither boards, totals nor forfeit, or
    with a board still without a result, is pending.
    """

    round: int
    first: int
    second: int
    boards: tuple[Game, ...] = ()
    first_points: float | None = None
    second_points: float | None = None
    forfeit: str | None = None

    @property
    def is_finished(self) -> bool:
        """Forfeited, given by totals, or every board with a result."""
        if self.forfeit is not None or (self.first_points is not None and self.second_points is not None):
            return True
        return bool(self.boards) and all(game.result is not None for game in self.boards)


class TeamByeKind(enum.StrEnum):
    """An unplayed round of a team (FIDE C.07 16.1-16.2; TRF-2026 record 320/240)."""

    PAB = "PAB"  # pairing-allocated bye (16.2.1)
    FPB = "FPB"  # full-point bye (16.2.1; TRF-2026 240 F)
    HPB = "HPB"  # requested half-point bye
    ZPB = "ZPB"  # requested zero-point bye, absence, or after withdrawal
    FORFEIT_WIN = "+F"  # a forfeit win whose scheduled opponent is not recorded
    FORFEIT_LOSS = "-F"  # a forfeit loss whose scheduled opponent is not recorded


@dataclass(frozen=True, slots=True)
class TeamBye:
    """A team's round without an opponent, by its kind (FIDE C.07 16.1-16.2; TRF-2026 records 320 and 240)."""

    round: int
    team: int
    kind: TeamByeKind = TeamByeKind.PAB


@dataclass(frozen=True)
class TeamEvent:
    """A team tournament as team tie-breaks see it: teams, matches and byes, the team scoring
    and rules; ``players`` name the members.  ``ranking.standings.team.team_event_of`` derives one from
    a ``Tournament``, kept as ``individual``: SUMRANK and SUMPTS read the members' places and
    points in its own final standings (CXA 14.8).  An individual event with a team
    classification has teams and no matches (``is_classification``)."""

    name: str
    teams: tuple[Team, ...]
    rounds: int
    matches: tuple[TeamMatch, ...] = ()
    byes: tuple[TeamBye, ...] = ()
    scoring: TeamScoring = field(default_factory=TeamScoring)
    rules: TeamRules = field(default_factory=TeamRules)
    players: tuple[Player, ...] = ()
    individual: Tournament | None = None

    @property
    def is_classification(self) -> bool:
        """An individual event's team classification (CXA 14.8): its teams play no matches, so
        they have no match or game points, only their members' places."""
        return self.individual is not None and not self.matches and not self.byes

    def team(self, team_id: int) -> Team:
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(team_id)

    @property
    def rounds_with_results(self) -> int:
        """The last round with a finished match (or, with no match yet, the last bye)."""
        finished = [match.round for match in self.matches if match.is_finished]
        if finished:
            return max(finished)
        if self.is_classification:
            return self.individual.rounds_with_results  # type: ignore[union-attr]
        return max((bye.round for bye in self.byes), default=0) if not self.matches else 0



# -- the tournament -----------------------------------------------------------------------------


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
    playoff_games: tuple[Game, ...] = ()  # rounds counted from 1 within the play-off (docs/rules.md#play-offs)
    # Team events (CXA 13.2, 14.5-14.8; FIDE C.07 11-13): teams with rosters; matches are formed
    # from the members' games, or given by totals or as forfeits in ``team_matches``.
    teams: tuple[Team, ...] = ()
    team_matches: tuple[TeamMatch, ...] = ()
    team_byes: tuple[TeamBye, ...] = ()
    team_rules: str = ""  # a team preset (ranking.tiebreaks.presets.TEAM_PRESETS); "" = fide-team or cxa-team
    team_tiebreaks: tuple[str, ...] = ()  # replaces the team preset's chain
    team_match_points: tuple[float, float, float] | None = None  # TRF-2026 362: won, drawn, lost match
    team_pab: tuple[float, float] | None = None  # TRF-2026 320: a team PAB's match and game points
    team_primary: str = ""  # "MP" or "GP" ranks the teams first (TRF-2026 212 PTS:MP, PTS:GP); "": the preset's
    # The pairing numbers (ranking.event.players): the starting numbers as given, or the initial ranking
    # list; ``ranking_list`` holds that list (ids in TPN order) once it no longer follows the
    # players' ratings, from the pairing of round 4 on (C.04.2 GHR 2.3); () while it does.
    seeding: Seeding = Seeding.AS_NUMBERED
    ranking_list: tuple[int, ...] = ()

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


def _quick_setstate(cls: type) -> None:
    """Give the slotted dataclass ``cls`` the ``__setstate__`` that ``dataclasses`` gives it (each
    field set in turn, the object being frozen), with the field names looked up once instead of
    for every object unpickled: a store's snapshot of a 1,000-player tournament holds some 6,000
    of them, and ``dataclasses.fields`` was two thirds of reading it back."""
    names = tuple(item.name for item in fields(cls))

    def __setstate__(self, state: list, names: tuple[str, ...] = names, put=object.__setattr__) -> None:
        for name, value in zip(names, state, strict=False):
            put(self, name, value)

    cls.__setstate__ = __setstate__  # type: ignore[attr-defined]


for _slotted in (Player, Game, Bye, Withdrawal, Team, TeamMatch, TeamBye):
    _quick_setstate(_slotted)
