"""Team standings: match points (or game points) first, then the team tie-break chain
(FIDE C.07 4.2, 11-13; CXA 13.2, 14.5-14.8).

>>> from ranking.event.model import Team, TeamEvent, TeamMatch
>>> event = TeamEvent("Mini", (Team(1, "A"), Team(2, "B")), 1,
...                   (TeamMatch(1, 1, 2, first_points=2.5, second_points=1.5),))
>>> [(row.rank, row.team.name, row.match_points, row.game_points) for row in team_standings(event).rows]
[(1, 'A', 2.0, 2.5), (2, 'B', 0.0, 1.5)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ranking.errors import InputError
from ranking.event.model import Game, Team, TeamEvent, TeamMatch, Tournament
from ranking.scoring.rules import Edition
from ranking.scoring.team_sheet import TeamSheet
from ranking.standings.ordering import runs_of_equal
from ranking.tiebreaks.presets import get_team_preset, team_preset_name
from ranking.tiebreaks.registry import rank_by_chain
from ranking.tiebreaks.team import TEAM_REGISTRY


@dataclass(frozen=True)
class TeamRow:
    """One team's line; match and game points are None in an individual event's team
    classification (``TeamEvent.is_classification``), whose teams play no matches."""

    rank: int
    team: Team
    match_points: float | None
    game_points: float | None
    values: dict[str, Any]


@dataclass(frozen=True)
class TeamStandings:
    event: TeamEvent
    after_round: int
    primary: str
    tiebreaks: tuple[str, ...]
    rows: tuple[TeamRow, ...]

    @property
    def scores(self) -> tuple[str, ...]:
        """The score columns of a team table, in the order they rank the teams: the primary score
        first (``GP`` then ``MP`` for a team Swiss ranked by game points, CXA 14.7; ``MP`` then
        ``GP`` otherwise, CXA 14.5-14.6); none for an individual event's team classification,
        whose teams play no matches (CXA 14.8).  Each is shown once: a chain's ``MP`` or ``GP``
        is this column."""
        if self.event.is_classification:
            return ()
        return ("GP", "MP") if self.primary == "GP" else ("MP", "GP")

    def as_json(self) -> dict[str, Any]:
        """Shaped like the individual standings' JSON, with match and game points."""
        return {
            "event": self.event.name,
            "after_round": self.after_round,
            "primary": self.primary,
            "tiebreaks": list(self.tiebreaks),
            "standings": [
                {"rank": row.rank, "id": row.team.id, "name": row.team.name,
                 "match_points": row.match_points, "game_points": row.game_points,
                 "tiebreaks": dict(row.values)}
                for row in self.rows
            ],
        }


def team_standings(event: TeamEvent, codes: tuple[str, ...] | list[str] | None = None,
                   after_round: int | None = None) -> TeamStandings:
    """Rank the teams: the primary score (MP by default), then each code of the chain inside the
    groups still tied (FIDE C.07 4.2); teams equal on everything share the better place.

    ``codes`` replaces the event's chain.  With ``primary = "PLACES"`` (cxa-team-places) the
    chain alone ranks the teams.
    """
    chain = tuple(event.rules.tiebreaks if codes is None else codes)
    specs = [TEAM_REGISTRY.parse(code) for code in chain]
    sheet = TeamSheet(event, after_round)
    count = len(sheet.teams)
    ids = [team.id for team in sheet.teams]
    primary = event.rules.primary
    if primary in ("MP", "GP"):
        score = sheet.score(primary)
        order = sorted(range(count), key=lambda me: (-score[me], ids[me]))
        groups = runs_of_equal(order, score.__getitem__)
    else:
        groups = [sorted(range(count), key=ids.__getitem__)]
    groups, columns = rank_by_chain(groups, specs, TEAM_REGISTRY, sheet, ids)
    rows = []
    position = 0
    scored = not event.is_classification
    for group in groups:
        for member in group:
            rows.append(TeamRow(position + 1, sheet.teams[member], sheet.mp[member] if scored else None,
                                sheet.gp[member] if scored else None,
                                {code: column[member] for code, column in columns.items()}))
        position += len(group)
    return TeamStandings(event, sheet.rounds, primary, chain, tuple(rows))


def team_event_of(tournament: Tournament, edition: Edition | None = None) -> TeamEvent:
    """The team event a tournament file describes: its teams, and a match for every pair of
    teams whose members met in a round (boards in board order), plus the matches given by
    totals or as forfeits and the team byes.  The team preset is ``team_rules`` (default
    ``cxa-team`` for xiangqi, ``fide-team`` for chess); ``team_tiebreaks`` replaces its chain and
    ``team_primary`` its primary score (TRF-2026 ``212``); ``team_match_points`` and ``team_pab``
    replace its match points and its PAB's (TRF-2026 ``362``, ``320``).  ``edition`` (the
    command line's ``--fide-edition``) sets the C.07 edition of the team tie-breaks.

    Games whose teams do not form matches (a team meeting two teams in one round, or two
    members of one team meeting) are an individual event's: with a team preset that ranks by
    the members' places (``cxa-team-places``, CXA 14.8) the event is a team classification
    without matches; with one that ranks by match or game points they are refused."""
    if not tournament.teams:
        raise InputError("the tournament has no teams: add [[teams]] with id, name and roster")
    preset = get_team_preset(team_preset_name(tournament))
    primary = tournament.team_primary or preset.rules.primary
    member_of = {player: team.id for team in tournament.teams for player in team.roster}
    boards: dict[tuple[int, frozenset[int]], list[Game]] = {}
    teammates = False  # two members of one team met: an individual event's game
    for game in tournament.games:
        first, second = member_of.get(game.white), member_of.get(game.black)
        if first is None or second is None:
            continue
        if first == second:
            teammates = True
            continue
        boards.setdefault((game.round, frozenset((first, second))), []).append(game)
    twice = _team_meeting_two_teams(boards)
    given = {(match.round, frozenset((match.first, match.second))): match for match in tournament.team_matches}
    matches = list(given.values())
    if (twice or teammates) and primary not in ("MP", "GP") and not tournament.team_matches:
        boards = {}  # an individual event with a team classification (CXA 14.8): no team matches
    elif twice:
        number, team, others = twice
        raise InputError(f"round {number}: team {team} meets teams {others[0]} and {others[1]}: these games are an "
                         "individual event's, not team matches; rank its teams by their members' places "
                         'with team_rules = "cxa-team-places" (CXA 14.8)')
    for key, games in sorted(boards.items(), key=lambda item: (item[0][0], sorted(item[0][1]))):
        if key in given:
            continue
        games.sort(key=lambda game: game.board)
        matches.append(TeamMatch(key[0], member_of[games[0].white], member_of[games[0].black], tuple(games)))
    most_boards = max((len(match.boards) for match in matches), default=0)
    scoring = preset.scoring
    if tournament.rules is not None and scoring.game != tournament.rules.scoring:
        scoring = replace(scoring, game=tournament.rules.scoring)
    if most_boards and most_boards != scoring.boards:
        scoring = replace(scoring, boards=most_boards)
    if tournament.team_match_points is not None:  # TRF-2026 362: the event's own match points
        win, draw, loss = tournament.team_match_points
        scoring = replace(scoring, match_win=win, match_draw=draw, match_loss=loss)
    if tournament.team_pab is not None:  # TRF-2026 320: what the event's PAB is worth
        scoring = replace(scoring, pab=tournament.team_pab)
    rules = preset.rules
    if tournament.team_tiebreaks:
        rules = replace(rules, tiebreaks=tuple(tournament.team_tiebreaks))
    if tournament.team_primary:
        rules = replace(rules, primary=tournament.team_primary)
    if edition is not None:
        rules = replace(rules, options=replace(rules.options, fide_edition=edition))
    seed = tournament.rules.options.lots_seed if tournament.rules is not None else ""
    if seed and not rules.options.lots_seed:  # the event's seed, drawn once its results are in
        rules = replace(rules, options=replace(rules.options, lots_seed=seed))
    rules = replace(rules, round_robin=tournament.system.is_round_robin)
    return TeamEvent(tournament.name, tournament.teams, tournament.rounds, tuple(matches),
                     tuple(tournament.team_byes), scoring, rules, tournament.players, tournament)


def _team_meeting_two_teams(boards: dict[tuple[int, frozenset[int]], list[Game]]
                            ) -> tuple[int, int, tuple[int, int]] | None:
    """(round, team, two of its opponents) for the first team whose members met members of two
    other teams in one round, or None when the games form team matches."""
    met: dict[tuple[int, int], set[int]] = {}
    for number, pair in sorted(boards, key=lambda key: (key[0], sorted(key[1]))):
        for team in sorted(pair):
            others = met.setdefault((number, team), set())
            others.update(pair - {team})
            if len(others) > 1:
                first, second = sorted(others)[:2]
                return number, team, (first, second)
    return None
