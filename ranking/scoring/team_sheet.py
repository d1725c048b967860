"""Each team's rounds, as the team tie-breaks see them (FIDE C.07 11-13, 16).

``TeamSheet`` turns a ``TeamEvent`` into one ``TeamRecord`` per team and round: the opponent,
match and game points, board results and, for unplayed rounds, their FIDE C.07 16.2 category.
docs/rules.md#teams: game points (GP, 局分) are the sum of the board results; match points
(MP, 场分) go to the team with more game points, 2/1/0 by default (CXA 13.2, FIDE C.07 11.1).
"""

from __future__ import annotations

from typing import NamedTuple

from ranking.errors import InputError
from ranking.event.model import TeamByeKind, TeamEvent, TeamMatch
from ranking.event.rounds import NO_OPPONENT, Kind, categorise
from ranking.scoring.points import board_points
from ranking.scoring.rules import Outcome


class TeamRecord(NamedTuple):
    """One team's round, as team tie-breaks see it.

    ``opponent`` indexes ``TeamSheet.teams`` (or NO_OPPONENT); ``boards`` is ((board, own game
    points), ...) for matches with board results and ``games`` the same boards as the team's
    players saw them: (own outcome, second mover, forfeited) per board, for the counts over a
    team's games (WIN:T, BWG:T, BPG:T); ``category`` is the FIDE C.07 16.2 category of an
    unplayed round (0 for a match played) and ``vur`` marks a voluntary unplayed round.
    """

    round: int
    kind: Kind
    opponent: int
    first: bool | None
    mp: float
    gp: float
    outcome: Outcome
    boards: tuple[tuple[int, float], ...]
    games: tuple[BoardGame, ...]
    fouls: int
    category: int
    vur: bool

    def score(self, which: str) -> float:
        return self.mp if which == "MP" else self.gp


class BoardGame(NamedTuple):
    """One board of a team's match, from the team's side: its player's outcome, whether they
    moved second (black), and whether the game was forfeited rather than played."""

    outcome: Outcome
    second_mover: bool
    forfeit: bool


_BYE_KINDS = {TeamByeKind.PAB: Kind.PAIRING_BYE, TeamByeKind.FPB: Kind.FULL_BYE, TeamByeKind.HPB: Kind.HALF_BYE,
              TeamByeKind.ZPB: Kind.ZERO_BYE,
              TeamByeKind.FORFEIT_WIN: Kind.FORFEIT_WIN, TeamByeKind.FORFEIT_LOSS: Kind.FORFEIT_LOSS}
_FORFEIT_KINDS = {"+-": (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS), "-+": (Kind.FORFEIT_LOSS, Kind.FORFEIT_WIN),
                  "--": (Kind.FORFEIT_LOSS, Kind.FORFEIT_LOSS)}


class MatchScore(NamedTuple):
    """A team match's game points for its ``first`` and ``second`` team (so far, while it is not
    ``finished``)."""

    first: float
    second: float
    finished: bool


def match_score(event: TeamEvent, match: TeamMatch) -> MatchScore:
    """The score of ``match`` (docs/rules.md#teams, CXA 13.2: game points are the sum of the
    board results) and whether it is finished (``TeamMatch.is_finished``): a forfeited match
    scores the game points of its forfeit (FIDE C.07 16.2, ``TeamScoring.unplayed``); a match
    given by both totals scores them; otherwise its boards' results so far.  The one score the
    team sheet counts and every view shows."""
    if match.forfeit is not None:
        first, second = (event.scoring.unplayed(kind)[1] for kind in _forfeit_kinds(match))
        return MatchScore(first, second, True)
    first_boards, second_boards, *_ = match_boards(event, match)
    return MatchScore(*_totals(match, first_boards, second_boards), match.is_finished)


def match_boards(event: TeamEvent, match: TeamMatch):
    """Per-board game points of both teams, their games as each team saw them, their fouls, and
    whether any board was played over the board (not forfeited).  Board n's first team has
    white when its roster says so, otherwise white on odd boards (the usual alternation from
    board 1)."""
    game_scoring = event.scoring.game
    first_roster = set(event.team(match.first).roster)
    second_roster = set(event.team(match.second).roster)
    first_boards, second_boards = [], []
    games: tuple[list[BoardGame], list[BoardGame]] = ([], [])
    fouls = [0, 0]
    played = False
    for position, game in enumerate(match.boards):
        board = game.board or position + 1
        if game.white in first_roster or game.black in second_roster:
            first_white = True
        elif game.black in first_roster or game.white in second_roster:
            first_white = False
        else:
            first_white = board % 2 == 1
        white_points, black_points = board_points(game_scoring, game.result)
        if game.result is not None and not game.result.is_forfeit:
            played = True
        mine, theirs = (white_points, black_points) if first_white else (black_points, white_points)
        first_boards.append((board, mine))
        second_boards.append((board, theirs))
        if game.result is not None:
            white_outcome, black_outcome = (Outcome(value) for value in game.result.outcomes)
            forfeit = game.result.is_forfeit
            games[0 if first_white else 1].append(BoardGame(white_outcome, False, forfeit))
            games[1 if first_white else 0].append(BoardGame(black_outcome, True, forfeit))
        white_fouls, black_fouls = game.fouls_white, game.fouls_black
        fouls[0] += white_fouls if first_white else black_fouls
        fouls[1] += black_fouls if first_white else white_fouls
    return tuple(first_boards), tuple(second_boards), (tuple(games[0]), tuple(games[1])), fouls, played


def _totals(match: TeamMatch, first_boards: tuple, second_boards: tuple) -> tuple[float, float]:
    """Both totals when the match gives them (they win over its boards), else the boards' sums."""
    if match.first_points is not None and match.second_points is not None:
        return match.first_points, match.second_points
    return sum(points for _, points in first_boards), sum(points for _, points in second_boards)


def _forfeit_kinds(match: TeamMatch) -> tuple[Kind, Kind]:
    """The unplayed kinds of a forfeited match for its first and second team."""
    kinds = _FORFEIT_KINDS.get(match.forfeit or "")
    if kinds is None:
        raise InputError(f"round {match.round}: forfeit {match.forfeit!r}: expected +-, -+ or --")
    return kinds


class TeamSheet:
    """Every team's rounds 1..``rounds`` with MP and GP; built once per standings."""

    def __init__(self, event: TeamEvent, after_round: int | None = None) -> None:
        self.event = event
        self.scoring = event.scoring
        self.rules = event.rules
        self.options = event.rules.options
        self.teams = event.teams
        self.index = {team.id: number for number, team in enumerate(self.teams)}
        if len(self.index) != len(self.teams):
            raise InputError("two teams share a number")
        last = event.rounds_with_results if after_round is None else after_round
        if last < 0 or last > max(event.rounds, event.rounds_with_results):
            raise InputError(f"--after-round {last}: the event has {event.rounds} rounds")
        self.rounds = last
        self.cache: dict[object, object] = {}
        self.records = self._build()
        self.mp = [sum(record.mp for record in rows) for rows in self.records]
        self.gp = [sum(record.gp for record in rows) for rows in self.records]

    def score(self, which: str) -> list[float]:
        return self.mp if which == "MP" else self.gp

    def seen(self, which: str) -> list[float]:
        """Scores as opponents see them (C.07 16.3): category-5 rounds count as drawn matches."""
        key = ("seen", which)
        if key not in self.cache:
            draw = self.scoring.draw_value(which)
            self.cache[key] = [
                score + sum(draw - record.score(which) for record in rows if record.category == 5)
                for score, rows in zip(self.score(which), self.records, strict=True)]
        return self.cache[key]  # type: ignore[return-value]

    def is_free_round(self, record: TeamRecord) -> bool:
        """The round a team sits out in a round robin (C.07 15.2-15.3, docs/rules.md#c07-readings): no
        unplayed round; it adds nothing to BH:MP, BH:GP, the ESB family or the board
        tie-breaks (any points the event awards for it count in MP and GP)."""
        return (self.rules.round_robin and record.opponent == NO_OPPONENT and record.kind is not Kind.PENDING
                and not record.kind.is_forfeit)  # a forfeit recorded without its opponent stays one

    def counts_as_played(self, record: TeamRecord, forfeits_played: bool) -> bool:
        """A match over the board, or a forfeited one in a round robin (C.07 15.2) or with /P."""
        if record.kind is Kind.PLAYED:
            return True
        return record.kind.is_forfeit and record.opponent != NO_OPPONENT and (
            self.rules.round_robin or forfeits_played)

    # -- building ------------------------------------------------------------------------------

    def _team_index(self, team_id: int) -> int:
        try:
            return self.index[team_id]
        except KeyError:
            raise InputError(f"team {team_id} is not in the event") from None

    def _build(self) -> list[list[TeamRecord]]:
        Side = tuple  # (kind, opponent, first, mp, gp, boards, games, fouls)
        sides: list[list[Side | None]] = [[None] * self.rounds for _ in self.teams]
        for match in self.event.matches:
            if match.round > self.rounds:
                continue
            first, second = self._team_index(match.first), self._team_index(match.second)
            if first == second:
                raise InputError(f"round {match.round}: team {match.first} is paired with itself")
            for me, side in zip((first, second), self._match_sides(match, first, second), strict=True):
                if sides[me][match.round - 1] is not None:
                    raise InputError(f"round {match.round}: team {self.teams[me].id} plays twice")
                sides[me][match.round - 1] = side
        for bye in self.event.byes:
            if bye.round > self.rounds:
                continue
            me = self._team_index(bye.team)
            if sides[me][bye.round - 1] is not None:
                if bye.kind is TeamByeKind.ZPB:
                    continue
                raise InputError(f"round {bye.round}: team {bye.team} has a bye and a match")
            kind = _BYE_KINDS[TeamByeKind(bye.kind)]
            sides[me][bye.round - 1] = (kind, NO_OPPONENT, None, *self.scoring.unplayed(kind), (), (), 0)
        absent = (Kind.ZERO_BYE, NO_OPPONENT, None, *self.scoring.unplayed(Kind.ZERO_BYE), (), (), 0)
        return [self._categorise([side or absent for side in row]) for row in sides]

    def _match_sides(self, match: TeamMatch, first: int, second: int) -> tuple[tuple, tuple]:
        scoring = self.scoring
        if match.forfeit is not None:
            kinds = _forfeit_kinds(match)
            return ((kinds[0], second, True, *scoring.unplayed(kinds[0]), (), (), 0),
                    (kinds[1], first, False, *scoring.unplayed(kinds[1]), (), (), 0))
        if not match.is_finished:
            return ((Kind.PENDING, second, True, 0.0, 0.0, (), (), 0),
                    (Kind.PENDING, first, False, 0.0, 0.0, (), (), 0))
        first_boards, second_boards, games, fouls, played = match_boards(self.event, match)
        own, other = _totals(match, first_boards, second_boards)
        played = played or (match.first_points is not None and match.second_points is not None)
        kind_first = kind_second = Kind.PLAYED
        if not played:  # every board forfeited: the match is unplayed (C.07 15.1)
            kind_first = Kind.FORFEIT_WIN if own > other else Kind.FORFEIT_LOSS
            kind_second = Kind.FORFEIT_WIN if other > own else Kind.FORFEIT_LOSS
        return ((kind_first, second, True, scoring.match_points(own, other), own, first_boards, games[0], fouls[0]),
                (kind_second, first, False, scoring.match_points(other, own), other, second_boards, games[1],
                 fouls[1]))

    def _categorise(self, sides: list[tuple]) -> list[TeamRecord]:
        """The records of one team's rounds, with their FIDE C.07 16.2 categories, as for
        players: in a round robin the free round of an odd field is no unplayed round
        (C.07 15.2-15.3, docs/rules.md#c07-readings)."""
        round_robin = self.rules.round_robin
        categories = categorise([side[0] for side in sides],
                                [round_robin and side[1] == NO_OPPONENT and not side[0].is_forfeit for side in sides])
        return [TeamRecord(number, kind, opponent, first, mp, gp, self.scoring.outcome_of(mp), boards, games, fouls,
                           category, vur)
                for number, ((kind, opponent, first, mp, gp, boards, games, fouls), (category, vur))
                in enumerate(zip(sides, categories, strict=True), start=1)]
