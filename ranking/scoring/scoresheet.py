"""Each player's rounds, as the tie-break rules see them.

``Scoresheet`` turns a ``Tournament`` into one ``RoundRecord`` per player and round: the
opponent, colour, outcome and points, and for unplayed rounds their FIDE C.07 16.2
category.  Scores and the adjusted scores that opponents see (C.07 16.3) are computed
here once; every tie-break reads them from here.
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from ranking.errors import InputError
from ranking.event.model import ByeKind, Game, Player, Result, Tournament
from ranking.event.rounds import NO_OPPONENT, Kind, categorise
from ranking.event.withdrawals import left_before_the_start
from ranking.scoring.points import bye_points, game_points
from ranking.scoring.rules import Outcome, Rules, Scoring

#: Decimals totals keep when the scoring is not in quarter points (``Scoring.in_quarters``).
DECIMALS = 9

_BYE_KINDS = {
    ByeKind.PAIRING: Kind.PAIRING_BYE,
    ByeKind.FULL: Kind.FULL_BYE,
    ByeKind.HALF: Kind.HALF_BYE,
    ByeKind.ZERO: Kind.ZERO_BYE,
}
_KIND_BYES = {kind: bye for bye, kind in _BYE_KINDS.items()}


class RoundRecord(NamedTuple):
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


#: One player's view of one round before its category is known: (kind, opponent,
#: first_mover, outcome, points, game_points, rated, fouls), the first fields of a RoundRecord.
_Side = tuple[Kind, int, "bool | None", Outcome, float, float, bool, int]


class Scoresheet:
    """All players' rounds 1..``rounds`` with scores; built once per standings.

    >>> from ranking.event.model import Player, Game, Result, Tournament
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
        self.draw_value = match[1] if match else self.scoring.draw
        self.cache: dict[object, object] = {}  # tie-breaks share intermediate results here
        #: The seed of the drawing of lots (LOT; ``ranking.tiebreaks.lots``): the ``lots_seed`` option, or
        #: "" for the digest of the results (``compute_standings`` sets it from the tournament as
        #: entered, before withdrawals change its games).
        self.lots_seed = self.options.lots_seed
        self.records = self._build_records()
        self.scores = [sum([record.points for record in rows]) for rows in self.records]
        self.adjusted_scores = [  # C.07 16.3: category-5 rounds count as draws for opponents
            score + sum([self.draw_value - record.points for record in rows if record.category == 5])
            for score, rows in zip(self.scores, self.records, strict=True)
        ]
        #: None, or the decimals that totals and tie-break values keep: with 0.1-point values
        #: float sums drift (0.7 + 0.1 + 0.1 is 0.8999999999999999), and equal players must tie.
        self.decimals = None if self.scoring.in_quarters else DECIMALS
        if self.decimals is not None:
            self.scores = [round(score, DECIMALS) for score in self.scores]
            self.adjusted_scores = [round(score, DECIMALS) for score in self.adjusted_scores]

    # -- building ------------------------------------------------------------------

    def _build_records(self) -> list[list[RoundRecord]]:
        rounds, index = self.rounds, self.index
        sides: list[list[_Side | None]] = [[None] * rounds for _ in self.players]
        single = self._single_game_sides()
        matches: set[tuple[int, int, int]] = set()  # (round, player, player) meeting more than once
        for game in self.tournament.games:
            number = game.round
            if number > rounds:
                continue
            white, black = index.get(game.white), index.get(game.black)
            if white is None or black is None:
                self._player_index(game.white if white is None else game.black)
            if white == black:
                raise InputError(f"round {number}: player {game.white} is paired with themselves")
            white_row, black_row = sides[white], sides[black]
            if white_row[number - 1] is not None or black_row[number - 1] is not None:  # a second game this round
                for me, other in ((white, black), (black, white)):
                    taken = sides[me][number - 1]
                    if taken is not None:
                        if taken[1] != other:  # the opponent
                            raise InputError(
                                f"round {number}: player {self.players[me].id} has more than one opponent")
                        matches.add((number, min(me, other), max(me, other)))
            white_row[number - 1], black_row[number - 1] = single(game, white, black)
        games_per_match = 1
        if matches:
            grouped: dict[tuple[int, int, int], list[Game]] = {key: [] for key in matches}
            for game in self.tournament.games:
                key = (game.round, *sorted((index[game.white], index[game.black])))
                if key in grouped:
                    grouped[key].append(game)  # type: ignore[index]
            for (number, first, second), games in grouped.items():
                sides[first][number - 1] = self._side(first, second, games)
                sides[second][number - 1] = self._side(second, first, games)
            games_per_match = max(len(games) for games in grouped.values())
        for bye in self.tournament.byes:
            if bye.round > rounds:
                continue
            me = self._player_index(bye.player)
            if sides[me][bye.round - 1] is not None:
                if bye.kind is ByeKind.ZERO:
                    continue  # a game outranks an absence marker (e.g. VN 21.5.2 forfeits)
                raise InputError(f"round {bye.round}: player {bye.player} has a bye and a game")
            sides[me][bye.round - 1] = self._bye_side(_BYE_KINDS[bye.kind], games_per_match)
        absent = self._bye_side(Kind.ZERO_BYE, games_per_match)
        return [self._categorise([side or absent for side in row], self.round_robin) for row in sides]

    def _player_index(self, player_id: int) -> int:
        try:
            return self.index[player_id]
        except KeyError:
            raise InputError(f"player {player_id} is not in the tournament") from None

    def _single_game_sides(self):
        """A function giving (white's side, black's side) of one game, with each result's
        outcomes and points worked out once (this is the hot path of large events)."""
        scoring, match = self.scoring, self.scoring.match
        table = {}
        for result in Result:
            white_outcome, white_points, black_points = _score_game(scoring, result, True)
            black_outcome = Outcome(result.outcomes[1])
            if result.is_forfeit:
                kinds = tuple(Kind.FORFEIT_WIN if outcome is Outcome.WIN else Kind.FORFEIT_LOSS
                              for outcome in (white_outcome, black_outcome))
            else:
                kinds = (Kind.PLAYED, Kind.PLAYED)
            if match is not None:
                counted = (match[2 - white_outcome], match[2 - black_outcome])
            else:
                counted = (white_points, black_points)
            table[result] = (kinds, (white_outcome, black_outcome), counted, (white_points, black_points))

        def sides(game: Game, white: int, black: int) -> tuple[_Side, _Side]:
            """(white's side, black's side) of ``game``, its players at sheet indexes ``white`` and ``black``."""
            known = True if game.colours_known else None
            second = False if game.colours_known else None
            if game.result is None:
                return ((Kind.PENDING, black, known, Outcome.LOSS, 0.0, 0.0, game.rated, game.fouls_white),
                        (Kind.PENDING, white, second, Outcome.LOSS, 0.0, 0.0, game.rated, game.fouls_black))
            kinds, outcomes, counted, points = table[game.result]
            return ((kinds[0], black, known, outcomes[0], counted[0], points[0], game.rated, game.fouls_white),
                    (kinds[1], white, second, outcomes[1], counted[1], points[1], game.rated, game.fouls_black))
        return sides

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
            return (Kind.PENDING, other, first_mover, Outcome.LOSS, 0.0, 0.0, rated, fouls)
        if len(games) > 1:
            outcome = (Outcome.WIN if my_points > other_points
                       else Outcome.DRAW if my_points == other_points else Outcome.LOSS)
        kind = Kind.PLAYED if played else Kind.FORFEIT_WIN if outcome is Outcome.WIN else Kind.FORFEIT_LOSS
        match = self.scoring.match
        points = my_points if match is None else match[2 - outcome]
        return (kind, other, first_mover, outcome, points, my_points, rated, fouls)

    def _bye_side(self, kind: Kind, games_per_match: int) -> _Side:
        scoring = self.scoring
        game_points = bye_points(scoring, _KIND_BYES[kind])
        outcome = scoring.outcome_of(game_points)
        points = game_points if scoring.match is None else scoring.match[2 - outcome]
        return (kind, NO_OPPONENT, None, outcome, points, game_points * games_per_match, True, 0)

    @staticmethod
    def _categorise(sides: list[_Side], round_robin: bool = False) -> list[RoundRecord]:
        """The records of one player's rounds, with their FIDE C.07 16.2 categories.  In a round
        robin the round without an opponent (the free round of an odd field) is no unplayed
        round (C.07 15.2-15.3, docs/rules.md#c07-readings)."""
        categories = categorise([side[0] for side in sides],
                                [side[1] == NO_OPPONENT for side in sides] if round_robin else ())
        return [_new_record(RoundRecord, (number, *side, vur, category))  # a side is a record's fields 2-9
                for number, (side, (category, vur)) in enumerate(zip(sides, categories, strict=True), start=1)]

    # -- derived values ------------------------------------------------------------

    @cached_property
    def lowest_score(self) -> float:
        """The lowest final score in the field (CXA 14.4 bye value); a player who left before
        round 1 is not in the field (CXA 14.4, ``ranking.event.withdrawals.left_before_the_start``)."""
        gone = left_before_the_start(self.tournament)
        return min((score for player, score in zip(self.players, self.scores, strict=True) if player.id not in gone),
                   default=0.0)

    def is_free_round(self, record: RoundRecord) -> bool:
        """The round a player sits out in a round robin (C.07 15.2-15.3, docs/rules.md#c07-readings): not an
        unplayed round; it adds nothing to BH, FB, SB, AOB, KS or STD (its points, if the event
        awards any, count in the score and in WIN only)."""
        return self.round_robin and record.opponent == NO_OPPONENT and record.kind is not Kind.PENDING


_new_record = tuple.__new__  # builds a RoundRecord without NamedTuple's slower __new__


def _score_game(scoring: Scoring, result: Result, white: bool) -> tuple[Outcome, float, float]:
    """(my outcome, my points, opponent's points) for one finished game."""
    return (Outcome(result.outcomes[0 if white else 1]), game_points(scoring, result, white),
            game_points(scoring, result, not white))
