"""Each player's rounds, as the tie-break rules see them.

``Scoresheet`` turns a ``Tournament`` into one ``RoundRecord`` per player and round: the
opponent, colour, outcome and points, and for unplayed rounds their FIDE C.07 16.2
category.  Scores and the adjusted scores that opponents see (C.07 16.3) are computed
here once; every tie-break reads them from here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property

from ranking.errors import InputError
from ranking.model import ByeKind, Game, Player, Result, Tournament
from ranking.rules import Outcome, Rules, Scoring


class Kind(enum.Enum):
    """How a round went for one player."""

    PLAYED = "played"
    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"  # also each side of a double forfeit
    PAIRING_BYE = "pairing-bye"
    FULL_BYE = "full-bye"
    HALF_BYE = "half-bye"
    ZERO_BYE = "zero-bye"  # requested, absent, or after withdrawal (C.07 16.1)
    PENDING = "pending"  # paired, result not known yet: ignored by every tie-break

    @property
    def is_forfeit(self) -> bool:
        return self is Kind.FORFEIT_WIN or self is Kind.FORFEIT_LOSS


_BYE_KINDS = {
    ByeKind.PAIRING: Kind.PAIRING_BYE,
    ByeKind.FULL: Kind.FULL_BYE,
    ByeKind.HALF: Kind.HALF_BYE,
    ByeKind.ZERO: Kind.ZERO_BYE,
}

NO_OPPONENT = -1


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One player's round.

    ``opponent`` is an index into ``Scoresheet.players`` (or NO_OPPONENT); ``points`` are
    the points that count for the standings (match points under match scoring) and
    ``game_points`` the sum of game points.  ``category`` is the FIDE C.07 16.2 category
    of an unplayed round (1 PAB/FPB, 2 forfeit win, 3 requested bye followed by a round
    that is not a VUR, 4 forfeit loss, 5 requested byes followed only by VURs); 0 for a
    game played.  ``vur`` marks a voluntary unplayed round (16.1: requested bye or
    forfeit loss).
    """

    round: int
    kind: Kind
    opponent: int
    first_mover: bool | None
    outcome: Outcome
    points: float
    game_points: float
    rated: bool
    fouls: int
    vur: bool
    category: int


@dataclass(frozen=True, slots=True)
class _Side:
    """One player's view of the games of one round, before categories are known."""

    kind: Kind
    opponent: int
    first_mover: bool | None
    outcome: Outcome
    points: float
    game_points: float
    rated: bool
    fouls: int


class Scoresheet:
    """All players' rounds 1..``rounds`` with scores; built once per standings.

    >>> from ranking.model import Player, Game, Result, Tournament
    >>> t = Tournament("t", (Player(1, "A"), Player(2, "B")), 1, (Game(1, 1, 2, Result.DRAW),))
    >>> Scoresheet(t, Rules()).scores
    [0.5, 0.5]
    """

    def __init__(self, tournament: Tournament, rules: Rules, after_round: int | None = None) -> None:
        self.tournament = tournament
        self.rules = rules
        self.scoring = rules.scoring
        self.options = rules.options
        self.players: tuple[Player, ...] = tournament.players
        self.index = {player.id: number for number, player in enumerate(self.players)}
        if len(self.index) != len(self.players):
            raise InputError("two players share a starting number")
        last = tournament.rounds_with_results if after_round is None else after_round
        if last < 0 or last > max(tournament.rounds, tournament.rounds_with_results):
            raise InputError(
                f"--after-round {last}: the tournament has {tournament.rounds} rounds"
            )
        self.rounds = last
        self.round_robin = tournament.system.is_round_robin
        match = self.scoring.match
        self.win_value = match[0] if match else self.scoring.win
        self.draw_value = match[1] if match else self.scoring.draw
        self.loss_value = match[2] if match else self.scoring.loss
        self.cache: dict[object, object] = {}  # tie-breaks share intermediate results here
        self.records = self._build_records()
        self.scores = [sum(record.points for record in rows) for rows in self.records]
        self.adjusted_scores = [
            score + sum(self.draw_value - record.points for record in rows if record.category == 5)
            for score, rows in zip(self.scores, self.records, strict=True)
        ]

    # -- building ------------------------------------------------------------------

    def _build_records(self) -> list[list[RoundRecord]]:
        count = len(self.players)
        sides: list[list[_Side | None]] = [[None] * self.rounds for _ in range(count)]
        games_by_round_pair: dict[tuple[int, int, int], list[Game]] = {}
        for game in self.tournament.games:
            if game.round > self.rounds:
                continue
            white, black = self._player_index(game.white), self._player_index(game.black)
            if white == black:
                raise InputError(f"round {game.round}: player {game.white} is paired with themselves")
            key = (game.round, min(white, black), max(white, black))
            games_by_round_pair.setdefault(key, []).append(game)
        games_per_match = max((len(games) for games in games_by_round_pair.values()), default=1)
        for (round_number, first, second), games in games_by_round_pair.items():
            for me, other in ((first, second), (second, first)):
                if sides[me][round_number - 1] is not None:
                    raise InputError(
                        f"round {round_number}: player {self.players[me].id} has more than one opponent"
                    )
                sides[me][round_number - 1] = self._side(me, other, games)
        for bye in self.tournament.byes:
            if bye.round > self.rounds:
                continue
            me = self._player_index(bye.player)
            if sides[me][bye.round - 1] is not None:
                if bye.kind is ByeKind.ZERO:
                    continue  # a game outranks an absence marker (e.g. VN 21.5.2 forfeits)
                raise InputError(f"round {bye.round}: player {bye.player} has a bye and a game")
            sides[me][bye.round - 1] = self._bye_side(_BYE_KINDS[bye.kind], games_per_match)
        absent = self._bye_side(Kind.ZERO_BYE, games_per_match)
        return [self._categorise([side or absent for side in row]) for row in sides]

    def _player_index(self, player_id: int) -> int:
        try:
            return self.index[player_id]
        except KeyError:
            raise InputError(f"player {player_id} is not in the tournament") from None

    def _side(self, me: int, other: int, games: list[Game]) -> _Side:
        """My side of the games against one opponent in one round (one game, or a match)."""
        my_points = other_points = 0.0
        played = pending = False
        rated = True
        fouls = 0
        first_mover: bool | None = None
        outcome = Outcome.LOSS
        for game in games:
            white = self.index[game.white] == me
            if first_mover is None and game.colours_known:
                first_mover = white
            fouls += game.fouls_white if white else game.fouls_black
            rated = rated and game.rated
            if game.result is None:
                pending = True
                continue
            outcome, mine, theirs = _score_game(self.scoring, game.result, white)
            my_points += mine
            other_points += theirs
            played = played or not game.result.is_forfeit
        if pending:
            return _Side(Kind.PENDING, other, first_mover, Outcome.LOSS, 0.0, 0.0, rated, fouls)
        if len(games) > 1:
            outcome = (Outcome.WIN if my_points > other_points
                       else Outcome.DRAW if my_points == other_points else Outcome.LOSS)
        if played:
            kind = Kind.PLAYED
        else:
            kind = Kind.FORFEIT_WIN if outcome is Outcome.WIN else Kind.FORFEIT_LOSS
        match = self.scoring.match
        points = my_points if match is None else match[2 - outcome]
        return _Side(kind, other, first_mover, outcome, points, my_points, rated, fouls)

    def _bye_side(self, kind: Kind, games_per_match: int) -> _Side:
        scoring = self.scoring
        game_points = {
            Kind.PAIRING_BYE: scoring.pairing_bye_points,
            Kind.FULL_BYE: scoring.full_bye_points,
            Kind.HALF_BYE: scoring.half_bye_points,
            Kind.ZERO_BYE: scoring.zero_bye,
        }[kind]
        outcome = scoring.outcome_of(game_points)
        points = game_points if scoring.match is None else scoring.match[2 - outcome]
        return _Side(kind, NO_OPPONENT, None, outcome, points, game_points * games_per_match, True, 0)

    def _categorise(self, sides: list[_Side]) -> list[RoundRecord]:
        """FIDE C.07 16.2 categories; a requested bye is .5 when only VURs follow it."""
        records: list[RoundRecord] = []
        only_vurs_follow = True
        for number in range(len(sides), 0, -1):
            side = sides[number - 1]
            kind = side.kind
            vur = kind in (Kind.HALF_BYE, Kind.ZERO_BYE, Kind.FORFEIT_LOSS)
            if kind is Kind.PLAYED or kind is Kind.PENDING:
                category = 0
            elif kind is Kind.PAIRING_BYE or kind is Kind.FULL_BYE:
                category = 1
            elif kind is Kind.FORFEIT_WIN:
                category = 2
            elif kind is Kind.FORFEIT_LOSS:
                category = 4
            else:
                category = 5 if only_vurs_follow else 3
            if not vur:
                only_vurs_follow = False
            records.append(RoundRecord(
                number, kind, side.opponent, side.first_mover, side.outcome, side.points,
                side.game_points, side.rated, side.fouls, vur, category,
            ))
        records.reverse()
        return records

    # -- derived values ------------------------------------------------------------

    @cached_property
    def running_scores(self) -> list[list[float]]:
        """Each player's score after round 1, 2, ... (for PS and PREV)."""
        result = []
        for rows in self.records:
            total = 0.0
            running = []
            for record in rows:
                total += record.points
                running.append(total)
            result.append(running)
        return result

    @cached_property
    def lowest_score(self) -> float:
        """The lowest final score in the field (CXA 14.4 bye value)."""
        return min(self.scores, default=0.0)

    def forfeit_counts_as_played(self, record: RoundRecord, forfeits_played: bool) -> bool:
        """Whether a forfeit is treated as a game against the scheduled opponent.

        FIDE C.07 15.2: in round robins forfeits count as regular games; the ``/P``
        modifier asks for the same in a Swiss.
        """
        return record.kind.is_forfeit and record.opponent != NO_OPPONENT and (
            self.round_robin or forfeits_played)


def _score_game(scoring: Scoring, result: Result, white: bool) -> tuple[Outcome, float, float]:
    """(my outcome, my points, opponent's points) for one finished game."""
    white_outcome, black_outcome = result.outcomes
    mine, theirs = (Outcome(white_outcome), Outcome(black_outcome))
    if not white:
        mine, theirs = theirs, mine
    if result.is_forfeit:
        points = {Outcome.WIN: scoring.forfeit_win_points, Outcome.LOSS: scoring.forfeit_loss_points}
        return mine, points[mine], points[theirs]
    return mine, scoring.game_points(mine, white), scoring.game_points(theirs, not white)
